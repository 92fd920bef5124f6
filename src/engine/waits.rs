//! What the server's sessions wait on right now, in one line: asked when every virtual user
//! of a run has been stuck inside a transaction, so that the run's INVALID reason names the
//! lock and its holder (MariaDB/MySQL: transactions in LOCK WAIT and the connections that
//! block them, sessions waiting for a metadata or table lock; PostgreSQL: the wait events of
//! active sessions and the sessions that block them).

use super::{Conn, Engine};

/// One line on the server's waits now, or what it did not let us read.
pub fn lock_waits_now(conn: &mut Conn) -> String {
    let said = match conn.engine() {
        Engine::Mysql => mysql_waits(conn),
        Engine::Postgres => postgres_waits(conn),
    };
    match said {
        Ok(s) if s.is_empty() => "the server reported no session waiting on a lock".into(),
        Ok(s) => format!("the server: {s}"),
        Err(e) => format!("the server's lock waits could not be read ({e})"),
    }
}

/// Who blocks: (connection, seconds in its transaction, rows it locks, transactions it blocks).
type Blocker = (i64, i64, i64, i64);

fn mysql_waits(conn: &mut Conn) -> anyhow::Result<String> {
    let waiting: Option<i64> = conn.query_first(
        "SELECT CAST(COUNT(*) AS SIGNED) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'",
    )?;
    let mut parts = Vec::new();
    if let Some(n) = waiting.filter(|n| *n > 0) {
        // MariaDB keeps the lock waits in information_schema, MySQL 8 in performance_schema.
        let blockers = [
            ("information_schema.INNODB_LOCK_WAITS", "blocking_trx_id", "requesting_trx_id"),
            (
                "performance_schema.data_lock_waits",
                "BLOCKING_ENGINE_TRANSACTION_ID",
                "REQUESTING_ENGINE_TRANSACTION_ID",
            ),
        ]
        .iter()
        .find_map(|(table, blocking, requesting)| {
            conn.query::<Blocker>(format!(
                "SELECT CAST(b.trx_mysql_thread_id AS SIGNED), \
                 CAST(TIMESTAMPDIFF(SECOND, b.trx_started, NOW()) AS SIGNED), \
                 CAST(b.trx_rows_locked AS SIGNED), CAST(COUNT(DISTINCT w.{requesting}) AS SIGNED) \
                 FROM {table} w JOIN information_schema.INNODB_TRX b ON b.trx_id = w.{blocking} \
                 GROUP BY b.trx_mysql_thread_id, b.trx_started, b.trx_rows_locked ORDER BY 4 DESC LIMIT 3"
            ))
            .ok()
        })
        .unwrap_or_default();
        parts.push(format!(
            "{n} transaction(s) in LOCK WAIT (information_schema.INNODB_TRX){}",
            blocked_by(&blockers, "connection")
        ));
    }
    let states: Vec<(String, i64)> = conn.query(
        "SELECT STATE, CAST(COUNT(*) AS SIGNED) FROM information_schema.PROCESSLIST \
         WHERE STATE LIKE 'Waiting for%' AND ID <> CONNECTION_ID() GROUP BY STATE ORDER BY 2 DESC LIMIT 3",
    )?;
    for (state, n) in states {
        parts.push(format!("{n} session(s) '{state}'"));
    }
    Ok(parts.join("; "))
}

fn postgres_waits(conn: &mut Conn) -> anyhow::Result<String> {
    let events: Vec<(String, i64)> = conn.query(
        "SELECT wait_event_type || '/' || wait_event, count(*)::bigint FROM pg_stat_activity \
         WHERE state = 'active' AND pid <> pg_backend_pid() AND wait_event_type IN ('Lock', 'LWLock', 'IO', 'IPC') \
         GROUP BY 1 ORDER BY 2 DESC LIMIT 3",
    )?;
    let blockers: Vec<Blocker> = conn.query(
        "SELECT b.pid::bigint, COALESCE(EXTRACT(EPOCH FROM now() - b.xact_start), 0)::bigint, 0::bigint, \
         count(DISTINCT a.pid)::bigint FROM pg_stat_activity a \
         CROSS JOIN LATERAL unnest(pg_blocking_pids(a.pid)) AS bp(pid) JOIN pg_stat_activity b ON b.pid = bp.pid \
         GROUP BY b.pid, b.xact_start ORDER BY 4 DESC LIMIT 3",
    )?;
    let mut parts: Vec<String> = events
        .iter()
        .map(|(e, n)| format!("{n} session(s) waiting on {e}"))
        .collect();
    if let Some(first) = parts.first_mut() {
        first.push_str(&blocked_by(&blockers, "backend"));
    }
    Ok(parts.join("; "))
}

/// ", blocked by connection 12 (in its transaction for 13 s, 100 row locks: 4 waiting)".
fn blocked_by(blockers: &[Blocker], what: &str) -> String {
    if blockers.is_empty() {
        return String::new();
    }
    let list: Vec<String> = blockers
        .iter()
        .map(|(id, secs, rows, waiting)| {
            let rows = if *rows > 0 {
                format!(", {rows} row lock(s)")
            } else {
                String::new()
            };
            format!("{what} {id} (in its transaction for {secs} s{rows}: {waiting} waiting)")
        })
        .collect();
    format!(", blocked by {}", list.join(", "))
}
