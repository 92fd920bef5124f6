//! The initial population (clause 4.3.3.1), generated in memory and streamed to the server
//! with `LOAD DATA LOCAL INFILE` (no temporary files), multi-row INSERTs, or CSV files.
//!
//! Work is split into units (the ITEM table, and one unit per warehouse with all its rows),
//! spread over the loader connections. A unit is recorded as complete in txbench_meta only
//! after all its rows are in, so an interrupted `prepare` reloads just the units that were
//! not finished (after deleting their partial rows).

use super::schema::{self, columns};
use super::{CUSTOMERS, DISTRICTS, FIRST_NEW_ORDER, ITEMS, LoadMethod, NullDates, ORDERS};
use crate::engine::Conn;
use crate::workload::loader::{self, Format, Rows};
use crate::workload::meta;
use crate::workload::rand::{WorkerRng, permutation, uniform, worker_rng};
use anyhow::{Context, Result};

use std::io::Write;
use std::sync::Arc;

mod rows;

/// Everything the generators need; the same values give the same rows.
#[derive(Debug, Clone)]
pub struct Population {
    /// Seed of all load-time random numbers.
    pub seed: u64,
    /// C of NURand(255, 0, 999) for C_LAST at load (clause 2.1.6.1), stored in txbench_meta.
    pub c_last_load: u32,
    /// "Current date/time" for C_SINCE, H_DATE, O_ENTRY_D, OL_DELIVERY_D.
    pub now: String,
    /// NULL or sentinel for undelivered orders.
    pub null_dates: NullDates,
}

/// A unit of load work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// The ITEM table (once, not per warehouse).
    Items,
    /// Every row of one warehouse.
    Warehouse(u32),
}

impl Unit {
    /// Its tables, in load order.
    pub fn tables(self) -> &'static [&'static str] {
        // schema::TABLES starts with item, then the per-warehouse tables in load order.
        match self {
            Unit::Items => &schema::TABLES[..1],
            Unit::Warehouse(_) => &schema::TABLES[1..],
        }
    }

    /// Its name in txbench_meta and in CSV file names.
    pub fn key(self) -> String {
        match self {
            Unit::Items => "item".into(),
            Unit::Warehouse(w) => format!("w{w}"),
        }
    }

    /// Rows it holds (order lines estimated at 10 per order), for progress bars.
    pub fn approx_rows(self) -> u64 {
        match self {
            Unit::Items => u64::from(ITEMS),
            Unit::Warehouse(_) => {
                let orders = u64::from(DISTRICTS * ORDERS);
                1 + 10
                    + 100_000
                    + 2 * u64::from(DISTRICTS * CUSTOMERS)
                    + orders
                    + 9_000
                    + 10 * orders
            }
        }
    }
}

/// Per-warehouse values shared by ORDER, NEW-ORDER and ORDER-LINE: O_OL_CNT and O_C_ID (a
/// permutation of the customers per district, clause 4.3.3.1).
struct Orders {
    ol_cnt: Vec<u8>,
    c_id: Vec<u16>,
}

impl Orders {
    fn new(pop: &Population, w: u32) -> Orders {
        let mut rng = worker_rng(pop.seed ^ 0x0bde_5000, u64::from(w));
        let n = (DISTRICTS * ORDERS) as usize;
        let ol_cnt = (0..n).map(|_| uniform(&mut rng, 5, 15) as u8).collect();
        let mut c_id = Vec::with_capacity(n);
        for _ in 0..DISTRICTS {
            c_id.extend(
                permutation(&mut rng, CUSTOMERS)
                    .into_iter()
                    .map(|c| c as u16),
            );
        }
        Orders { ol_cnt, c_id }
    }
}

/// Generates the rows of one table of one unit, a chunk at a time.
pub struct TableGen {
    table: &'static str,
    w: u32,
    pop: Arc<Population>,
    rng: WorkerRng,
    next: u32,
    orders: Option<Orders>,
    s: Vec<u8>,
}

impl TableGen {
    /// The generator of `table` in `unit`.
    pub fn new(pop: Arc<Population>, unit: Unit, table: &'static str) -> TableGen {
        let w = match unit {
            Unit::Items => 0,
            Unit::Warehouse(w) => w,
        };
        let tag = schema::TABLES.iter().position(|t| *t == table).unwrap_or(0) as u64;
        let orders = matches!(table, "orders" | "order_line").then(|| Orders::new(&pop, w));
        TableGen {
            table,
            w,
            rng: worker_rng(pop.seed ^ (tag << 40), u64::from(w)),
            pop,
            next: 0,
            orders,
            s: Vec::with_capacity(512),
        }
    }

    /// Appends up to about `max` rows to `rows`; false when the table is complete.
    pub fn fill(&mut self, rows: &mut Rows, max: usize) -> bool {
        let start = rows.count;
        while rows.count - start < max {
            if !self.row(rows) {
                return false;
            }
        }
        true
    }

    /// Writes the next row (or the next order's lines); false when there are no more.
    fn row(&mut self, r: &mut Rows) -> bool {
        let i = self.next;
        let w = i64::from(self.w);
        let more = match self.table {
            "item" => self.item(i, r),
            "warehouse" => self.warehouse(i, w, r),
            "district" => self.district(i, w, r),
            "stock" => self.stock(i, w, r),
            "customer" => self.customer(i, w, r),
            "history" => self.history(i, w, r),
            "orders" => self.order(i, w, r),
            "new_order" => rows::new_order(i, w, r),
            "order_line" => self.order_lines(i, w, r),
            _ => false,
        };
        if !more {
            return false;
        }
        r.end();
        self.next += 1;
        true
    }
}

/// Rows per chunk written to a sink.
const CHUNK_ROWS: usize = 500;

/// Loads one table of a unit through `method`; returns the rows loaded.
pub fn load_table(
    conn: &mut Conn,
    pop: &Arc<Population>,
    unit: Unit,
    table: &'static str,
    method: LoadMethod,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64> {
    let mut g = TableGen::new(pop.clone(), unit, table);
    loader::load_rows(
        conn,
        method,
        table,
        columns(table),
        &format!("{table} of {}", unit.key()),
        progress,
        move |rows| g.fill(rows, CHUNK_ROWS),
    )
}

/// Writes one table of a unit as CSV; returns the rows written.
pub fn write_csv(
    dir: &std::path::Path,
    pop: &Arc<Population>,
    unit: Unit,
    table: &'static str,
) -> Result<u64> {
    let path = dir.join(format!("{table}-{}.csv", unit.key()));
    let file = crate::owned::replace(&path)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut g = TableGen::new(pop.clone(), unit, table);
    let mut rows = Rows::new(Format::Csv);
    let mut total = 0;
    loop {
        let more = g.fill(&mut rows, CHUNK_ROWS);
        out.write_all(&rows.buf)
            .with_context(|| format!("--csv: writing {}", path.display()))?;
        total += rows.count as u64;
        rows.clear();
        if !more {
            break;
        }
    }
    out.flush()
        .with_context(|| format!("--csv: writing {}", path.display()))?;
    Ok(total)
}

/// Deletes what an interrupted load of `unit` left behind.
pub fn delete_partial(conn: &mut Conn, unit: Unit) -> Result<()> {
    match unit {
        Unit::Items => conn.query_drop("DELETE FROM item")?,
        Unit::Warehouse(w) => {
            for (table, col) in [
                ("warehouse", "w_id"),
                ("district", "d_w_id"),
                ("stock", "s_w_id"),
                ("customer", "c_w_id"),
                ("history", "h_w_id"),
                ("orders", "o_w_id"),
                ("new_order", "no_w_id"),
                ("order_line", "ol_w_id"),
            ] {
                conn.query_drop(format!("DELETE FROM {table} WHERE {col} = {w}"))?;
            }
        }
    }
    Ok(())
}

/// The txbench_meta name that marks `unit` as loaded.
pub fn done_key(unit: Unit) -> String {
    format!("tpcc.loaded.{}", unit.key())
}

/// Loads a unit completely and marks it done.
pub fn load_unit(
    conn: &mut Conn,
    pop: &Arc<Population>,
    unit: Unit,
    method: LoadMethod,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<()> {
    if conn.engine() == crate::engine::Engine::Mysql {
        conn.query_drop("SET SESSION unique_checks = 0, foreign_key_checks = 0")?;
    }
    delete_partial(conn, unit)?;
    for &table in unit.tables() {
        load_table(conn, pop, unit, table, method, progress)?;
    }
    meta::set(conn, &done_key(unit), "1")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pop(nd: NullDates) -> Arc<Population> {
        Arc::new(Population {
            seed: 42,
            c_last_load: 117,
            now: "2026-11-22 01:00:00".into(),
            null_dates: nd,
        })
    }

    fn all_rows(unit: Unit, table: &'static str, fmt: Format, nd: NullDates) -> Rows {
        let mut g = TableGen::new(pop(nd), unit, table);
        let mut rows = Rows::new(fmt);
        while g.fill(&mut rows, 10_000) {}
        rows
    }

    fn lines(rows: &Rows) -> Vec<Vec<String>> {
        String::from_utf8(rows.buf.clone())
            .unwrap()
            .lines()
            .map(|l| l.split('\t').map(String::from).collect())
            .collect()
    }

    #[test]
    fn population_counts_per_warehouse() {
        let w = Unit::Warehouse(3);
        for (table, want) in [
            ("warehouse", 1),
            ("district", 10),
            ("customer", 30_000),
            ("history", 30_000),
            ("orders", 30_000),
            ("new_order", 9_000),
        ] {
            assert_eq!(
                all_rows(w, table, Format::Tsv, NullDates::Null).count,
                want,
                "{table}"
            );
        }
        let ol = all_rows(w, "order_line", Format::Tsv, NullDates::Null);
        assert!((290_000..310_000).contains(&ol.count), "{}", ol.count);
    }

    #[test]
    fn rows_have_one_field_per_column() {
        let w = Unit::Warehouse(1);
        for table in Unit::Warehouse(1).tables() {
            let rows = all_rows(w, table, Format::Tsv, NullDates::Null);
            let n = columns(table).len();
            for l in lines(&rows).iter().take(2000) {
                assert_eq!(l.len(), n, "{table}: {l:?}");
            }
        }
    }

    #[test]
    fn customers_follow_clause_4_3_3_1() {
        let rows = all_rows(Unit::Warehouse(1), "customer", Format::Tsv, NullDates::Null);
        let ls = lines(&rows);
        // c_id 1..1000 of each district are named 0..999 in order.
        assert_eq!(ls[0][5], "BARBARBAR");
        assert_eq!(ls[371][5], "PRICALLYOUGHT");
        let bc = ls.iter().filter(|l| l[13] == "BC").count() as f64 / ls.len() as f64;
        assert!((0.09..0.11).contains(&bc), "BC share {bc}");
        assert!(
            ls.iter()
                .all(|l| l[16] == "-10.00" && l[17] == "10.00" && l[4] == "OE")
        );
        assert!(ls.iter().all(|l| (300..=500).contains(&l[20].len())));
    }

    #[test]
    fn orders_match_their_lines_and_the_last_900_are_new() {
        for nd in [NullDates::Null, NullDates::Default] {
            let w = Unit::Warehouse(2);
            let orders = lines(&all_rows(w, "orders", Format::Tsv, nd));
            let order_lines = lines(&all_rows(w, "order_line", Format::Tsv, nd));
            let total: u64 = orders.iter().map(|o| o[6].parse::<u64>().unwrap()).sum();
            assert_eq!(total, order_lines.len() as u64);
            let undelivered = if nd == NullDates::Null { "\\N" } else { "0" };
            for o in &orders {
                let id: u32 = o[0].parse().unwrap();
                assert_eq!(o[5] == undelivered, id >= FIRST_NEW_ORDER, "{o:?}");
                let cnt: u32 = o[6].parse().unwrap();
                assert!((5..=15).contains(&cnt));
            }
            // O_C_ID is a permutation per district: every customer has one order.
            let mut c: Vec<u32> = orders[..3000]
                .iter()
                .map(|o| o[3].parse().unwrap())
                .collect();
            c.sort_unstable();
            assert_eq!(c, (1..=3000).collect::<Vec<u32>>());
            let undelivered_line = if nd == NullDates::Null {
                "\\N"
            } else {
                "1000-01-01 00:00:00"
            };
            for l in &order_lines {
                let id: u32 = l[0].parse().unwrap();
                assert_eq!(l[6] == undelivered_line, id >= FIRST_NEW_ORDER);
                assert_eq!(l[8] == "0.00", id < FIRST_NEW_ORDER, "{l:?}");
            }
        }
    }

    #[test]
    fn the_same_population_gives_the_same_rows() {
        let a = all_rows(Unit::Warehouse(5), "stock", Format::Tsv, NullDates::Null);
        let b = all_rows(Unit::Warehouse(5), "stock", Format::Tsv, NullDates::Null);
        assert_eq!(a.buf, b.buf);
        let c = all_rows(Unit::Warehouse(6), "stock", Format::Tsv, NullDates::Null);
        assert_ne!(a.buf, c.buf);
    }
}
