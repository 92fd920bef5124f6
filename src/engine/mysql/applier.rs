//! A MariaDB replica's applier (the SQL thread) over SQL: stopped while the IO thread keeps
//! fetching the primary's binary log into the relay log, started again, and what it has
//! fetched and applied (GTID positions) and counted (its global status). `txbench replay`
//! measures with these; the replica's state in general is `crate::topology`'s.

use anyhow::{Context, Result};
use mysql::prelude::Queryable;
use std::collections::BTreeMap;

/// The replica's status counters a replay reads before and after the catch-up.
/// (MariaDB 10.11 has no Innodb_rows_*: the handler's row counts stand for them.)
pub const COUNTERS: [&str; 5] = [
    "Handler_commit",
    "Handler_write",
    "Handler_update",
    "Handler_delete",
    "Com_commit",
];

/// Stops the applier only; the IO thread goes on fetching into the relay log.
pub fn stop(conn: &mut mysql::Conn) -> Result<()> {
    conn.query_drop("STOP SLAVE SQL_THREAD")
        .context("STOP SLAVE SQL_THREAD on the replica")
}

/// Starts the applier again.
pub fn start(conn: &mut mysql::Conn) -> Result<()> {
    conn.query_drop("START SLAVE SQL_THREAD")
        .context("START SLAVE SQL_THREAD on the replica")
}

/// What the replica says of its two threads and positions, from SHOW SLAVE STATUS and
/// @@gtid_slave_pos.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Positions {
    /// Gtid_IO_Pos: the last GTID the IO thread fetched into the relay log.
    pub fetched: String,
    /// @@gtid_slave_pos: the last GTID the applier committed.
    pub applied: String,
    /// Slave_IO_Running = Yes.
    pub io_running: bool,
    /// Slave_SQL_Running = Yes.
    pub sql_running: bool,
    /// Last_SQL_Error or Last_IO_Error, when there is one.
    pub error: String,
}

/// The replica's positions; an error when it replicates from no one.
pub fn positions(conn: &mut mysql::Conn) -> Result<Positions> {
    let row = conn
        .query_first::<mysql::Row, _>("SHOW SLAVE STATUS")
        .context("SHOW SLAVE STATUS on the replica")?
        .context("the replica replicates from no one (SHOW SLAVE STATUS is empty)")?;
    let text = |name: &str| -> String {
        row.get_opt::<Option<String>, _>(name)
            .and_then(|v| v.ok())
            .flatten()
            .unwrap_or_default()
    };
    let error = [text("Last_SQL_Error"), text("Last_IO_Error")]
        .into_iter()
        .filter(|e| !e.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    Ok(Positions {
        fetched: text("Gtid_IO_Pos"),
        applied: applied(conn)?,
        io_running: text("Slave_IO_Running") == "Yes",
        sql_running: text("Slave_SQL_Running") == "Yes",
        error,
    })
}

/// @@gtid_slave_pos alone: the cheap read a catch-up polls.
pub fn applied(conn: &mut mysql::Conn) -> Result<String> {
    Ok(conn
        .query_first::<Option<String>, _>("SELECT @@gtid_slave_pos")
        .context("reading the replica's @@gtid_slave_pos")?
        .flatten()
        .unwrap_or_default())
}

/// [`COUNTERS`] from SHOW GLOBAL STATUS, by name (a counter the server lacks is left out).
pub fn counters(conn: &mut mysql::Conn) -> Result<BTreeMap<String, u64>> {
    let list = COUNTERS
        .iter()
        .map(|c| format!("'{c}'"))
        .collect::<Vec<_>>()
        .join(",");
    let rows: Vec<(String, String)> = conn
        .query(format!(
            "SHOW GLOBAL STATUS WHERE Variable_name IN ({list})"
        ))
        .context("reading the replica's status counters")?;
    Ok(rows
        .into_iter()
        .filter_map(|(k, v)| {
            let name = COUNTERS.iter().find(|c| c.eq_ignore_ascii_case(&k))?;
            Some((name.to_string(), v.parse().ok()?))
        })
        .collect())
}
