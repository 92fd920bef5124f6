//! The nine TPC-C tables (clause 1.3) with the primary keys and the two secondary indexes
//! HammerDB and go-tpc use. Monetary columns are exact DECIMALs of the specification's
//! precision (HammerDB's `ol_amount INT` truncates amounts and breaks conditions 10 and 12).

use super::{DELIVERY_SENTINEL, NullDates, TpccOptions};
use crate::engine::postgres::tpcc as pg;
use crate::engine::{Conn, Engine};
use anyhow::{Context, Result, bail};

/// The tables, in load order.
pub const TABLES: [&str; 9] = [
    "item",
    "warehouse",
    "district",
    "stock",
    "customer",
    "history",
    "orders",
    "new_order",
    "order_line",
];

/// Columns of each table, in order (what `prepare` creates and `run`/`check` expect).
pub const COLUMNS: [(&str, &[&str]); 9] = [
    ("item", &["i_id", "i_im_id", "i_name", "i_price", "i_data"]),
    (
        "warehouse",
        &[
            "w_id",
            "w_name",
            "w_street_1",
            "w_street_2",
            "w_city",
            "w_state",
            "w_zip",
            "w_tax",
            "w_ytd",
        ],
    ),
    (
        "district",
        &[
            "d_id",
            "d_w_id",
            "d_name",
            "d_street_1",
            "d_street_2",
            "d_city",
            "d_state",
            "d_zip",
            "d_tax",
            "d_ytd",
            "d_next_o_id",
        ],
    ),
    (
        "stock",
        &[
            "s_i_id",
            "s_w_id",
            "s_quantity",
            "s_dist_01",
            "s_dist_02",
            "s_dist_03",
            "s_dist_04",
            "s_dist_05",
            "s_dist_06",
            "s_dist_07",
            "s_dist_08",
            "s_dist_09",
            "s_dist_10",
            "s_ytd",
            "s_order_cnt",
            "s_remote_cnt",
            "s_data",
        ],
    ),
    (
        "customer",
        &[
            "c_id",
            "c_d_id",
            "c_w_id",
            "c_first",
            "c_middle",
            "c_last",
            "c_street_1",
            "c_street_2",
            "c_city",
            "c_state",
            "c_zip",
            "c_phone",
            "c_since",
            "c_credit",
            "c_credit_lim",
            "c_discount",
            "c_balance",
            "c_ytd_payment",
            "c_payment_cnt",
            "c_delivery_cnt",
            "c_data",
        ],
    ),
    (
        "history",
        &[
            "h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id", "h_w_id", "h_date", "h_amount", "h_data",
        ],
    ),
    (
        "orders",
        &[
            "o_id",
            "o_d_id",
            "o_w_id",
            "o_c_id",
            "o_entry_d",
            "o_carrier_id",
            "o_ol_cnt",
            "o_all_local",
        ],
    ),
    ("new_order", &["no_o_id", "no_d_id", "no_w_id"]),
    (
        "order_line",
        &[
            "ol_o_id",
            "ol_d_id",
            "ol_w_id",
            "ol_number",
            "ol_i_id",
            "ol_supply_w_id",
            "ol_delivery_d",
            "ol_quantity",
            "ol_amount",
            "ol_dist_info",
        ],
    ),
];

/// The columns of `table`.
pub fn columns(table: &str) -> &'static [&'static str] {
    COLUMNS
        .iter()
        .find(|(t, _)| *t == table)
        .map(|(_, c)| *c)
        .unwrap_or(&[])
}

/// CREATE TABLE statements (primary keys only; secondary indexes come after the load). One
/// definition for both engines: PostgreSQL takes the same types but DATETIME (its
/// TIMESTAMP), has no table options, and partitions with one statement per partition.
pub fn create_statements(o: &TpccOptions, engine: Engine) -> Vec<String> {
    let (datetime, tail, partition) = match engine {
        Engine::Mysql => (
            "DATETIME",
            format!(" ENGINE={} DEFAULT CHARSET=latin1", o.engine),
            if o.partition {
                format!(" PARTITION BY HASH (ol_w_id) PARTITIONS {}", o.partitions())
            } else {
                String::new()
            },
        ),
        Engine::Postgres => (
            pg::DATETIME,
            String::new(),
            if o.partition {
                pg::PARTITION_BY.to_string()
            } else {
                String::new()
            },
        ),
    };
    let (carrier, delivery) = match o.null_dates {
        NullDates::Null => (
            "o_carrier_id INT NULL".to_string(),
            format!("ol_delivery_d {datetime} NULL"),
        ),
        NullDates::Default => (
            format!(
                "o_carrier_id INT NOT NULL DEFAULT {}",
                super::CARRIER_SENTINEL
            ),
            format!("ol_delivery_d {datetime} NOT NULL DEFAULT '{DELIVERY_SENTINEL}'"),
        ),
    };
    let dists: String = (1..=10)
        .map(|i| format!("s_dist_{i:02} CHAR(24) NOT NULL, "))
        .collect();
    let mut v = vec![
        format!(
            "CREATE TABLE item (i_id INT NOT NULL, i_im_id INT NOT NULL, i_name VARCHAR(24) NOT NULL, \
             i_price DECIMAL(5,2) NOT NULL, i_data VARCHAR(50) NOT NULL, PRIMARY KEY (i_id)){tail}"
        ),
        format!(
            "CREATE TABLE warehouse (w_id INT NOT NULL, w_name VARCHAR(10) NOT NULL, w_street_1 VARCHAR(20) NOT NULL, \
             w_street_2 VARCHAR(20) NOT NULL, w_city VARCHAR(20) NOT NULL, w_state CHAR(2) NOT NULL, w_zip CHAR(9) NOT NULL, \
             w_tax DECIMAL(4,4) NOT NULL, w_ytd DECIMAL(12,2) NOT NULL, PRIMARY KEY (w_id)){tail}"
        ),
        format!(
            "CREATE TABLE district (d_id INT NOT NULL, d_w_id INT NOT NULL, d_name VARCHAR(10) NOT NULL, \
             d_street_1 VARCHAR(20) NOT NULL, d_street_2 VARCHAR(20) NOT NULL, d_city VARCHAR(20) NOT NULL, \
             d_state CHAR(2) NOT NULL, d_zip CHAR(9) NOT NULL, d_tax DECIMAL(4,4) NOT NULL, d_ytd DECIMAL(12,2) NOT NULL, \
             d_next_o_id INT NOT NULL, PRIMARY KEY (d_w_id, d_id)){tail}"
        ),
        format!(
            "CREATE TABLE stock (s_i_id INT NOT NULL, s_w_id INT NOT NULL, s_quantity INT NOT NULL, {dists}\
             s_ytd INT NOT NULL, s_order_cnt INT NOT NULL, s_remote_cnt INT NOT NULL, s_data VARCHAR(50) NOT NULL, \
             PRIMARY KEY (s_w_id, s_i_id)){tail}"
        ),
        format!(
            "CREATE TABLE customer (c_id INT NOT NULL, c_d_id INT NOT NULL, c_w_id INT NOT NULL, \
             c_first VARCHAR(16) NOT NULL, c_middle CHAR(2) NOT NULL, c_last VARCHAR(16) NOT NULL, \
             c_street_1 VARCHAR(20) NOT NULL, c_street_2 VARCHAR(20) NOT NULL, c_city VARCHAR(20) NOT NULL, \
             c_state CHAR(2) NOT NULL, c_zip CHAR(9) NOT NULL, c_phone CHAR(16) NOT NULL, c_since {datetime} NOT NULL, \
             c_credit CHAR(2) NOT NULL, c_credit_lim DECIMAL(12,2) NOT NULL, c_discount DECIMAL(4,4) NOT NULL, \
             c_balance DECIMAL(12,2) NOT NULL, c_ytd_payment DECIMAL(12,2) NOT NULL, c_payment_cnt INT NOT NULL, \
             c_delivery_cnt INT NOT NULL, c_data VARCHAR(500) NOT NULL, PRIMARY KEY (c_w_id, c_d_id, c_id)){tail}"
        ),
        format!(
            "CREATE TABLE history (h_c_id INT NOT NULL, h_c_d_id INT NOT NULL, h_c_w_id INT NOT NULL, \
             h_d_id INT NOT NULL, h_w_id INT NOT NULL, h_date {datetime} NOT NULL, h_amount DECIMAL(6,2) NOT NULL, \
             h_data VARCHAR(24) NOT NULL){tail}"
        ),
        format!(
            "CREATE TABLE orders (o_id INT NOT NULL, o_d_id INT NOT NULL, o_w_id INT NOT NULL, o_c_id INT NOT NULL, \
             o_entry_d {datetime} NOT NULL, {carrier}, o_ol_cnt INT NOT NULL, o_all_local INT NOT NULL, \
             PRIMARY KEY (o_w_id, o_d_id, o_id)){tail}"
        ),
        format!(
            "CREATE TABLE new_order (no_o_id INT NOT NULL, no_d_id INT NOT NULL, no_w_id INT NOT NULL, \
             PRIMARY KEY (no_w_id, no_d_id, no_o_id)){tail}"
        ),
        format!(
            "CREATE TABLE order_line (ol_o_id INT NOT NULL, ol_d_id INT NOT NULL, ol_w_id INT NOT NULL, \
             ol_number INT NOT NULL, ol_i_id INT NOT NULL, ol_supply_w_id INT NOT NULL, {delivery}, \
             ol_quantity INT NOT NULL, ol_amount DECIMAL(6,2) NOT NULL, ol_dist_info CHAR(24) NOT NULL, \
             PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)){tail}{partition}"
        ),
    ];
    if engine == Engine::Postgres && o.partition {
        v.extend(pg::partitions("order_line", o.partitions()));
    }
    v
}

/// What is created after the data: an index or a foreign key, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AfterLoad {
    /// The index or constraint name.
    pub name: &'static str,
    /// True for a foreign key, false for an index.
    pub foreign_key: bool,
    /// The statement.
    pub sql: String,
}

/// Secondary indexes (HammerDB's and go-tpc's) and, with `--foreign-keys`, the
/// specification's foreign keys: created after the data.
pub fn after_load(o: &TpccOptions) -> Vec<AfterLoad> {
    let index = |name: &'static str, sql: &str| AfterLoad {
        name,
        foreign_key: false,
        sql: sql.to_string(),
    };
    let mut v = vec![
        index(
            "idx_customer",
            "CREATE INDEX idx_customer ON customer (c_w_id, c_d_id, c_last, c_first)",
        ),
        index(
            "idx_orders",
            "CREATE INDEX idx_orders ON orders (o_w_id, o_d_id, o_c_id, o_id)",
        ),
    ];
    if o.foreign_keys {
        for (name, table, cols, parent, parent_cols) in [
            (
                "fk_district_warehouse",
                "district",
                "d_w_id",
                "warehouse",
                "w_id",
            ),
            (
                "fk_customer_district",
                "customer",
                "c_w_id, c_d_id",
                "district",
                "d_w_id, d_id",
            ),
            (
                "fk_history_customer",
                "history",
                "h_c_w_id, h_c_d_id, h_c_id",
                "customer",
                "c_w_id, c_d_id, c_id",
            ),
            (
                "fk_history_district",
                "history",
                "h_w_id, h_d_id",
                "district",
                "d_w_id, d_id",
            ),
            (
                "fk_new_order_orders",
                "new_order",
                "no_w_id, no_d_id, no_o_id",
                "orders",
                "o_w_id, o_d_id, o_id",
            ),
            (
                "fk_orders_customer",
                "orders",
                "o_w_id, o_d_id, o_c_id",
                "customer",
                "c_w_id, c_d_id, c_id",
            ),
            (
                "fk_order_line_orders",
                "order_line",
                "ol_w_id, ol_d_id, ol_o_id",
                "orders",
                "o_w_id, o_d_id, o_id",
            ),
            (
                "fk_order_line_stock",
                "order_line",
                "ol_supply_w_id, ol_i_id",
                "stock",
                "s_w_id, s_i_id",
            ),
            ("fk_stock_warehouse", "stock", "s_w_id", "warehouse", "w_id"),
            ("fk_stock_item", "stock", "s_i_id", "item", "i_id"),
        ] {
            v.push(AfterLoad {
                name,
                foreign_key: true,
                sql: format!(
                    "ALTER TABLE {table} ADD CONSTRAINT {name} FOREIGN KEY ({cols}) REFERENCES {parent} ({parent_cols})"
                ),
            });
        }
    }
    v
}

/// Creates what [`after_load`] lists, skipping what exists already (a prepare interrupted
/// after some of it ran is resumed).
pub fn create_after_load(conn: &mut Conn, o: &TpccOptions) -> Result<()> {
    let schema = conn.engine().schema_sql();
    let index_query = match conn.engine() {
        Engine::Mysql => format!(
            "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = {schema} AND index_name = ?"
        ),
        Engine::Postgres => pg::INDEX_EXISTS.to_string(),
    };
    for step in after_load(o) {
        let exists: Option<u64> = if step.foreign_key {
            conn.exec_first(
                format!(
                    "SELECT COUNT(*) FROM information_schema.table_constraints WHERE constraint_schema = {schema} AND constraint_name = ?"
                ),
                (step.name,),
            )?
        } else {
            conn.exec_first(index_query.as_str(), (step.name,))?
        };
        if exists.unwrap_or(0) == 0 {
            conn.query_drop(&step.sql)
                .with_context(|| format!("after the load: creating {}", step.name))?;
        }
    }
    Ok(())
}

/// Checks that every table and column exists; the error names the first missing one.
pub fn verify_shape(conn: &mut Conn) -> Result<()> {
    let rows: Vec<(String, String)> = conn
        .query(format!(
            "SELECT LOWER(table_name), LOWER(column_name) FROM information_schema.columns \
             WHERE table_schema = {}",
            conn.engine().schema_sql()
        ))
        .context("reading the TPC-C schema")?;
    for (table, cols) in COLUMNS {
        let present: Vec<&str> = rows
            .iter()
            .filter(|(t, _)| t == table)
            .map(|(_, c)| c.as_str())
            .collect();
        if present.is_empty() {
            bail!(
                "TPC-C table '{table}' is missing: the schema was changed; run `txbench cleanup tpcc` and prepare again"
            );
        }
        if let Some(missing) = cols.iter().find(|c| !present.contains(c)) {
            bail!(
                "TPC-C table '{table}' has no column '{missing}': the schema was changed; run `txbench cleanup tpcc` and prepare again"
            );
        }
    }
    Ok(())
}

/// Drops the tables (and txbench's TPC-C metadata).
pub fn drop_all(conn: &mut Conn) -> Result<()> {
    if conn.engine() == Engine::Postgres {
        // Children before parents, so no foreign key is left pointing at a dropped table;
        // no CASCADE, which would also drop another user's objects built on these tables
        // (the server's error names them instead). Partitions go with their table.
        for t in TABLES.iter().rev() {
            conn.query_drop(format!("DROP TABLE IF EXISTS {t}"))?;
        }
        return Ok(());
    }
    conn.query_drop("SET FOREIGN_KEY_CHECKS = 0")?;
    for t in TABLES.iter().rev() {
        conn.query_drop(format!("DROP TABLE IF EXISTS {t}"))?;
    }
    conn.query_drop("SET FOREIGN_KEY_CHECKS = 1")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(null_dates: NullDates) -> TpccOptions {
        TpccOptions {
            warehouses: 300,
            null_dates,
            partition: false,
            foreign_keys: false,
            engine: "InnoDB".into(),
        }
    }

    #[test]
    fn every_declared_column_is_created() {
        for stmt in create_statements(&opts(NullDates::Null), Engine::Mysql) {
            let table = stmt.split_whitespace().nth(2).unwrap();
            for c in columns(table) {
                assert!(
                    stmt.contains(&format!("{c} ")),
                    "{table}.{c} missing in {stmt}"
                );
            }
        }
    }

    #[test]
    fn postgresql_takes_the_same_tables_without_mysql_words() {
        let my = create_statements(&opts(NullDates::Default), Engine::Mysql);
        let pg = create_statements(&opts(NullDates::Default), Engine::Postgres);
        for (m, p) in my.iter().zip(&pg) {
            assert!(!p.contains("ENGINE=") && !p.contains("DATETIME") && !p.contains("CHARSET"));
            assert_eq!(
                m.replace("DATETIME", "TIMESTAMP")
                    .replace(" ENGINE=InnoDB DEFAULT CHARSET=latin1", ""),
                *p
            );
        }
    }

    #[test]
    fn null_dates_choose_the_column_definitions() {
        let n = create_statements(&opts(NullDates::Null), Engine::Mysql).join("\n");
        assert!(n.contains("o_carrier_id INT NULL") && n.contains("ol_delivery_d DATETIME NULL"));
        let d = create_statements(&opts(NullDates::Default), Engine::Mysql).join("\n");
        assert!(d.contains("o_carrier_id INT NOT NULL DEFAULT 0"));
        assert!(d.contains("ol_delivery_d DATETIME NOT NULL DEFAULT '1000-01-01 00:00:00'"));
        assert_eq!(
            NullDates::Default.line_undelivered("ol."),
            "ol.ol_delivery_d = '1000-01-01 00:00:00'"
        );
        assert_eq!(
            NullDates::Null.order_undelivered(""),
            "o_carrier_id IS NULL"
        );
    }

    #[test]
    fn partitioning_and_foreign_keys() {
        let mut o = opts(NullDates::Null);
        o.partition = true;
        let all = create_statements(&o, Engine::Mysql).join("\n");
        assert!(all.contains("PARTITION BY HASH (ol_w_id) PARTITIONS 3"));
        let pg = create_statements(&o, Engine::Postgres);
        assert!(pg[8].ends_with(
            "PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)) PARTITION BY HASH (ol_w_id)"
        ));
        assert_eq!(pg.len(), 9 + 3);
        o.foreign_keys = true;
        assert!(
            o.validate()
                .unwrap_err()
                .to_string()
                .contains("--partition and --foreign-keys")
        );
        o.partition = false;
        assert_eq!(after_load(&o).len(), 12);
        o.warehouses = 0;
        assert_eq!(
            o.validate().unwrap_err().to_string(),
            "--warehouses must be at least 1"
        );
    }
}
