//! PostgreSQL's counters for the sampler: pg_stat_database (this database), the
//! checkpointer and background writer, pg_stat_wal, and the client backends from
//! pg_stat_activity. Counters are named `pg_<view column>`; the two levels that mean what
//! MySQL's do keep MySQL's names (threads_running, threads_connected), and uptime too, so
//! restart detection and server.csv's columns read them alike.

use super::{Row, Session, wire};
use std::collections::BTreeMap;

/// pg_stat_database's counters for the current database; transactions are the whole
/// server's (as MySQL's Com_commit is), so another client in another database shows.
const DATABASE: &str = "SELECT EXTRACT(EPOCH FROM now() - pg_postmaster_start_time())::float8, \
     (SELECT sum(xact_commit) FROM pg_stat_database)::float8, \
     (SELECT sum(xact_rollback) FROM pg_stat_database)::float8, blks_read::float8, blks_hit::float8, \
     tup_returned::float8, tup_fetched::float8, tup_inserted::float8, tup_updated::float8, \
     tup_deleted::float8, deadlocks::float8, temp_files::float8, temp_bytes::float8, conflicts::float8 \
     FROM pg_stat_database WHERE datname = current_database()";
const DATABASE_NAMES: &[&str] = &[
    "uptime",
    "pg_xact_commit",
    "pg_xact_rollback",
    "pg_blks_read",
    "pg_blks_hit",
    "pg_tup_returned",
    "pg_tup_fetched",
    "pg_tup_inserted",
    "pg_tup_updated",
    "pg_tup_deleted",
    "pg_deadlocks",
    "pg_temp_files",
    "pg_temp_bytes",
    "pg_conflicts",
];

/// The checkpointer and background writer (PostgreSQL 15-16's pg_stat_bgwriter).
const BGWRITER: &str = "SELECT checkpoints_timed::float8, checkpoints_req::float8, \
     checkpoint_write_time::float8, checkpoint_sync_time::float8, buffers_checkpoint::float8, \
     buffers_clean::float8, buffers_backend::float8, buffers_backend_fsync::float8, \
     buffers_alloc::float8 FROM pg_stat_bgwriter";
const BGWRITER_NAMES: &[&str] = &[
    "pg_checkpoints_timed",
    "pg_checkpoints_req",
    "pg_checkpoint_write_time_ms",
    "pg_checkpoint_sync_time_ms",
    "pg_buffers_checkpoint",
    "pg_buffers_clean",
    "pg_buffers_backend",
    "pg_buffers_backend_fsync",
    "pg_buffers_alloc",
];

/// WAL volume and syncs (PostgreSQL 14 and later).
const WAL: &str = "SELECT wal_records::float8, wal_fpi::float8, wal_bytes::float8, \
     wal_buffers_full::float8, wal_write::float8, wal_sync::float8 FROM pg_stat_wal";
const WAL_NAMES: &[&str] = &[
    "pg_wal_records",
    "pg_wal_fpi",
    "pg_wal_bytes",
    "pg_wal_buffers_full",
    "pg_wal_write",
    "pg_wal_sync",
];

/// Client backends: executing (the monitor's own included, as MySQL's Threads_running) and
/// connected.
const ACTIVITY: &str = "SELECT (count(*) FILTER (WHERE state = 'active'))::float8, count(*)::float8 \
     FROM pg_stat_activity WHERE backend_type = 'client backend'";
const ACTIVITY_NAMES: &[&str] = &["threads_running", "threads_connected"];

/// Which optional views this server lacks (named once in the run's notes).
#[derive(Debug, Default)]
pub struct Missing {
    /// Views that failed, with the server's message.
    pub views: Vec<(String, String)>,
}

/// Reads one sample: Err only when the database view itself cannot be read (the
/// connection is gone or the server does not answer); optional views that fail are
/// skipped and reported in `missing` (once: they are not asked again).
/// Every database's transactions, as pg_stat_database counts them.
const XACTS: &str = "SELECT sum(xact_commit + xact_rollback)::float8 FROM pg_stat_database";

/// Flushes this session's own pending counts (PostgreSQL 15: at its next idle moment, right
/// after this statement); false where the server has no such function.
fn flush_own(s: &mut Session) -> bool {
    s.query_drop("SELECT pg_stat_force_next_flush()").is_ok()
}

/// Waits up to 3 s until no client backend named `app` is left (a backend flushes its
/// counts before it leaves pg_stat_activity), then flushes this session's own; false when
/// some were still there.
pub fn settle(s: &mut Session, app: &str) -> bool {
    let sql = format!(
        "SELECT count(*)::float8 FROM pg_stat_activity WHERE backend_type = 'client backend' AND application_name = '{app}'"
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    let gone = loop {
        let left = s
            .query_one(&sql)
            .ok()
            .and_then(|r| r.get::<Option<f64>>(0).ok().flatten());
        match left {
            Some(n) if n < 0.5 => break true,
            // Each look is one of the monitor's own transactions: not too many.
            Some(_) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(25))
            }
            _ => break false,
        }
    };
    flush_own(s) && gone
}

/// The server's clock now, as PostgreSQL writes a timestamptz.
pub fn server_now(s: &mut Session) -> Option<String> {
    s.query_one("SELECT now()::text")
        .ok()?
        .get::<String>(0)
        .ok()
}

/// Other clients' sessions that ran a statement (or connected) since `since` (a server
/// timestamp): each as "NAME (pid N)". A busy backend's transactions reach
/// pg_stat_database only when it idles or exits, so one still busy at the run's end is seen
/// here, not in the count.
pub fn other_clients_since(s: &mut Session, since: &str) -> Option<Vec<String>> {
    let sql = format!(
        "SELECT coalesce(nullif(application_name, ''), 'unnamed') || ' (pid ' || pid || ')' FROM pg_stat_activity \
         WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() \
         AND application_name NOT IN ('{}', '{}', 'txbench-probe') \
         AND (query_start >= '{since}'::timestamptz OR backend_start >= '{since}'::timestamptz) ORDER BY pid",
        super::APP,
        super::MONITOR_APP
    );
    let rows = s.query(&sql).ok()?;
    rows.iter().map(|r| r.get::<String>(0).ok()).collect()
}

/// The transactions the server counts for a login alone: the count before and after a
/// connection that does nothing (its backend gone, both reads flushed), less this
/// session's own between; None when it cannot be measured (no pg_stat_force_next_flush
/// before PostgreSQL 15, or the probe did not end). Clamped to 0..=2: more means another
/// client was busy meanwhile.
pub fn login_cost(s: &mut Session, url: &crate::engine::TargetUrl) -> Option<f64> {
    const PROBE: &str = "txbench-probe";
    let sum =
        |s: &mut Session| -> Option<f64> { s.query_one(XACTS).ok()?.get::<Option<f64>>(0).ok()? };
    if !flush_own(s) {
        return None;
    }
    let own_a = s.transactions_ended();
    let a = sum(s)?;
    let probe = super::connect_within(url, std::time::Duration::from_secs(10), PROBE).ok()?;
    drop(probe);
    if !settle(s, PROBE) {
        return None;
    }
    let own_b = s.transactions_ended();
    let b = sum(s)?;
    Some((b - a - (own_b - own_a) as f64).clamp(0.0, 2.0))
}

pub fn read(
    s: &mut Session,
    metrics: bool,
    skip: &mut Vec<&'static str>,
    missing: &mut Missing,
) -> Result<BTreeMap<String, f64>, wire::Error> {
    let mut out = BTreeMap::new();
    let sql = if metrics {
        DATABASE
    } else {
        "SELECT EXTRACT(EPOCH FROM now() - pg_postmaster_start_time())::float8"
    };
    let row = s.query_one(sql)?;
    insert(&mut out, &row, DATABASE_NAMES);
    if !metrics {
        return Ok(out);
    }
    for (view, sql, names) in [
        ("pg_stat_bgwriter", BGWRITER, BGWRITER_NAMES),
        ("pg_stat_wal", WAL, WAL_NAMES),
        ("pg_stat_activity", ACTIVITY, ACTIVITY_NAMES),
    ] {
        if skip.contains(&view) {
            continue;
        }
        match s.query_one(sql) {
            Ok(row) => insert(&mut out, &row, names),
            Err(e) if e.is_closed() || e.db().is_none() => return Err(e),
            Err(e) => {
                skip.push(view);
                missing
                    .views
                    .push((view.to_string(), super::error_message(&e)));
            }
        }
    }
    Ok(out)
}

/// The row's columns under `names`; a NULL or a column that is not a number is left out
/// (the sampler's thread must not panic on a server it does not know).
fn insert(out: &mut BTreeMap<String, f64>, row: &Row, names: &[&str]) {
    for (i, name) in names.iter().enumerate().take(row.len()) {
        if let Ok(Some(v)) = row.get::<Option<f64>>(i) {
            out.insert(name.to_string(), v);
        }
    }
}

/// The data directory and the postmaster's pid file in it, for the host figures.
pub fn paths(s: &mut Session) -> Result<(String, String), wire::Error> {
    let row = s.query_one("SELECT current_setting('data_directory')")?;
    let data: String = row.get(0).map_err(wire::Error::Protocol)?;
    Ok((format!("{data}/postmaster.pid"), data))
}

/// How often the sampler looks at pg_stat_activity's wait events between its samples.
pub const WAIT_POLL: std::time::Duration = std::time::Duration::from_millis(100);

/// What the client backends that are running a statement wait for now, as
/// (`Type/Event`, backends): PostgreSQL keeps no totals of waits, so the sampler polls this
/// and adds up what it sees (as ASH-style samplers do). The monitor's own backend is left out.
pub fn waiting(s: &mut Session) -> Result<Vec<(String, f64)>, wire::Error> {
    let rows = s.query_rows(
        "SELECT wait_event_type || '/' || wait_event, COUNT(*)::float8 FROM pg_stat_activity \
         WHERE state = 'active' AND wait_event IS NOT NULL AND backend_type = 'client backend' \
         AND pid <> pg_backend_pid() GROUP BY 1",
    )?;
    Ok(rows
        .iter()
        .filter_map(|r| Some((r.get::<Option<String>>(0).ok()??, r.get::<f64>(1).ok()?)))
        .collect())
}
