//! `txbench_meta`: what a database holds (workload, options, load progress, TPC-C's load-time
//! C values), so later commands can check and honour how the data was prepared.

use crate::engine::postgres::sql as pg;
use crate::engine::{Conn, Engine};
use anyhow::{Context, Result, bail};

/// The table name.
pub const TABLE: &str = "txbench_meta";

/// The name of the `prepare` command line that made the data (a JSON array), which runs
/// record so they can be repeated on a copy.
pub const PREPARE_ARGS: &str = "prepare_args";

/// Creates the table if it is missing.
pub fn ensure(conn: &mut Conn) -> Result<()> {
    let sql = match conn.engine() {
        Engine::Mysql => format!(
            "CREATE TABLE IF NOT EXISTS {TABLE} (name VARCHAR(100) NOT NULL PRIMARY KEY, value TEXT NOT NULL) ENGINE=InnoDB"
        ),
        Engine::Postgres => pg::META_DDL.to_string(),
    };
    conn.query_drop(sql).context("creating txbench_meta")
}

/// True when the table exists.
pub fn exists(conn: &mut Conn) -> Result<bool> {
    Ok(!tables_present(conn, &[TABLE])?.is_empty())
}

/// Which of `names` are tables in the connection's database (schema, on PostgreSQL), as the
/// server spells them.
pub fn tables_present(conn: &mut Conn, names: &[&str]) -> Result<Vec<String>> {
    Ok(conn.query(format!(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = {} AND table_name IN ('{}')",
        conn.engine().schema_sql(),
        names.join("','")
    ))?)
}

/// A value, if set (and if the table exists).
pub fn get(conn: &mut Conn, name: &str) -> Result<Option<String>> {
    if !exists(conn)? {
        return Ok(None);
    }
    Ok(conn.exec_first(format!("SELECT value FROM {TABLE} WHERE name = ?"), (name,))?)
}

/// Sets a value (creating the table if needed).
pub fn set(conn: &mut Conn, name: &str, value: &str) -> Result<()> {
    ensure(conn)?;
    let sql = match conn.engine() {
        Engine::Mysql => format!("REPLACE INTO {TABLE} (name, value) VALUES (?, ?)"),
        Engine::Postgres => pg::META_SET.to_string(),
    };
    conn.exec_drop(sql, (name, value))
        .with_context(|| format!("writing {name} to txbench_meta"))
}

/// Adds `n` to a counter in one statement (two runs against one database lose nothing);
/// a missing counter starts at 0.
pub fn add(conn: &mut Conn, name: &str, n: u64) -> Result<()> {
    ensure(conn)?;
    let sql = match conn.engine() {
        Engine::Mysql => format!(
            "INSERT INTO {TABLE} (name, value) VALUES (?, ?) \
             ON DUPLICATE KEY UPDATE value = CAST(CAST(value AS UNSIGNED) + ? AS CHAR)"
        ),
        Engine::Postgres => pg::META_ADD.to_string(),
    };
    conn.exec_drop(sql, (name, n.to_string(), n))
        .with_context(|| format!("adding to {name} in txbench_meta"))
}

/// Every name with `prefix`, with its value.
pub fn with_prefix(conn: &mut Conn, prefix: &str) -> Result<Vec<(String, String)>> {
    if !exists(conn)? {
        return Ok(Vec::new());
    }
    Ok(conn.exec(
        format!("SELECT name, value FROM {TABLE} WHERE name LIKE ? ORDER BY name"),
        (like_prefix(prefix),),
    )?)
}

/// Removes every name with `prefix`.
pub fn remove_prefix(conn: &mut Conn, prefix: &str) -> Result<()> {
    if exists(conn)? {
        conn.exec_drop(
            format!("DELETE FROM {TABLE} WHERE name LIKE ?"),
            (like_prefix(prefix),),
        )?;
    }
    Ok(())
}

/// A LIKE pattern for names starting with `prefix` (its `%`, `_` and `\` escaped, with the
/// backslash both engines escape with by default): built here, since PostgreSQL cannot type
/// a parameter inside CONCAT.
fn like_prefix(prefix: &str) -> String {
    let mut p = String::with_capacity(prefix.len() + 2);
    for c in prefix.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

/// The workload the database holds, if txbench prepared one.
pub fn workload(conn: &mut Conn) -> Result<Option<String>> {
    get(conn, "workload")
}

/// The family of a workload name: the oltp_* scripts share the sbtest tables.
fn family(workload: &str) -> &str {
    if workload.starts_with("oltp_") {
        "oltp"
    } else {
        workload
    }
}

/// The workload the database holds if it is `wanted` (or of its family), None if txbench
/// prepared nothing here; a database that holds another workload is an error that names it.
pub fn expect(conn: &mut Conn, wanted: &str) -> Result<Option<String>> {
    match workload(conn)? {
        Some(w) if family(&w) != family(wanted) => bail!(
            "the database holds the {w} workload, not {wanted}: run `txbench cleanup {w}` first or use another database"
        ),
        held => Ok(held),
    }
}

/// Whether `cleanup workload` may drop `tables` (those of them present): only what txbench
/// made, which txbench_meta records. A database that holds another workload, or tables with
/// no record of txbench making them, is refused with the tables named.
pub fn owns(conn: &mut Conn, workload: &str, tables: &[&str]) -> Result<()> {
    match self::workload(conn)? {
        Some(w) if family(&w) == family(workload) => Ok(()),
        Some(w) => bail!(
            "the database holds the {w} workload, not {workload}: cleanup drops nothing (run `txbench cleanup {w}`)"
        ),
        None => {
            let present = tables_present(conn, tables)?;
            if present.is_empty() {
                return Ok(());
            }
            bail!(
                "txbench did not create {} in this database (txbench_meta records no workload): cleanup drops only txbench's own tables, so it drops nothing",
                present.join(", ")
            )
        }
    }
}

/// Forgets the recorded workload if it is of `workload`'s family (after a cleanup).
pub fn forget(conn: &mut Conn, workload: &str) -> Result<()> {
    if let Some(w) = self::workload(conn)?
        && family(&w) == family(workload)
    {
        remove_prefix(conn, "workload")?;
    }
    Ok(())
}

/// Drops txbench_meta when it records no workload any more (a TPC-C table set's schema
/// after its cleanup, so the schema txbench made can go too).
pub fn drop_if_unused(conn: &mut Conn) -> Result<()> {
    if exists(conn)? && workload(conn)?.is_none() {
        conn.query_drop(format!("DROP TABLE {TABLE}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn prefixes_match_only_themselves() {
        assert_eq!(super::like_prefix("tpcb.loaded."), "tpcb.loaded.%");
        assert_eq!(super::like_prefix("a_b%"), "a\\_b\\%%");
    }

    #[test]
    fn oltp_scripts_are_one_family() {
        assert_eq!(super::family("oltp_point_select"), "oltp");
        assert_eq!(super::family("oltp_read_write"), "oltp");
        assert_eq!(super::family("tpcb"), "tpcb");
    }
}
