//! The server's own counts beside txbench's over the measured phase (Com_commit and
//! Com_rollback, statement counters, pg_stat_database, New-Orders in the tables), with what
//! the run's timing, errors and connections explain: computed from a run's measured delta
//! and summary, for a run (the driver) and for a merge of shards alike.

use crate::metrics::server::{CrossCheck, Delta, ServerCount};
use crate::results::Summary;
use std::collections::BTreeMap;

/// The server's counts beside txbench's over the measured phase: transactions or statements
/// (as `mode` says) and, when the workload counts them in its tables, New-Orders.
/// `opening_lag_s` is how late the sample that opened the measured phase was taken.
/// `ends` says how each kind's attempts end on the server; every failed attempt of any kind
/// is rolled back.
pub fn cross_checks(
    measured: &Delta,
    summary: &Summary,
    mode: ServerCount,
    ends: &Ends,
    opening_lag_s: f64,
) -> Vec<CrossCheck> {
    let mut out = Vec::new();
    let disconnects: u64 = ["lost_connection", "server_shutdown", "node_not_ready"]
        .iter()
        .filter_map(|c| summary.errors_by_class.get(*c))
        .sum();
    // Failed attempts that ended on the server (not with their connection).
    let failed = (summary.errors + summary.retries).saturating_sub(disconnects) as f64;
    // Attempts that may or may not have ended on the server: failed, retried, lost with
    // their connection, or cut at the end of the run (in the middle of their COMMIT, say).
    let attempts_not_ended =
        (summary.errors + summary.retries + summary.reconnects + summary.cut) as f64;
    let not_ended = (failed, attempts_not_ended);
    if let Some(c) = mysql_transactions(measured, summary, mode, ends, not_ended, opening_lag_s) {
        out.push(c);
    }
    if let Some(c) = pg_transactions(measured, summary, mode, ends, failed, opening_lag_s) {
        out.push(c);
    }
    let names = [
        "com_select",
        "com_insert",
        "com_update",
        "com_delete",
        "com_replace",
    ];
    if mode.statements && names.iter().all(|n| measured.status.contains_key(*n)) {
        // The monitor's own SELECTs (INNODB_METRICS, workload counts) are in Com_select.
        let own = measured
            .workload
            .get("monitor_selects")
            .copied()
            .unwrap_or(0.0);
        let server: f64 = names.iter().filter_map(|n| measured.status(n)).sum::<f64>() - own;
        let txbench = (summary.stmts.reads + summary.stmts.writes) as f64;
        let per_txn = txbench / (summary.transactions.max(1) as f64);
        let slack = txbench / summary.duration_s.max(1e-9) * opening_lag_s
            + attempts_not_ended * per_txn.max(1.0)
            // A user cut before it could end its transaction: its statement in flight may
            // not have been read (queued behind a thread pool), or its next refused.
            + summary.cut_uncommitted as f64;
        out.push(
            CrossCheck::new(
                "statements (Com_select + Com_insert + Com_update + Com_delete + Com_replace)",
                server,
                txbench,
                slack,
            )
            .with_excess(ends.in_flight_at_open.total as f64 * per_txn.max(1.0)),
        );
    }
    if let (Some(server), Some(k)) = (
        measured.workload.get("new_orders"),
        summary.kinds.iter().find(|k| k.name == "new_order"),
    ) {
        let tps = k.committed as f64 / summary.duration_s.max(1e-9);
        out.push(
            CrossCheck::new(
                "New-Orders (SUM(D_NEXT_O_ID))",
                *server,
                k.committed as f64,
                tps * opening_lag_s + (summary.reconnects + disconnects + summary.cut) as f64,
            )
            // Only the New-Orders in flight: other kinds' users at the opening (1,990 users
            // closed loop, 3 s) would allow more than every New-Order the run counted.
            .with_excess(ends.in_flight_at_open.of_kind("new_order") as f64),
        );
    }
    out
}

/// How the virtual users' attempts end in server transactions, per kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ends {
    /// Whether an attempt of kind k ends with COMMIT or ROLLBACK (TPC-C's Stock-Level is
    /// read-only and autocommits).
    pub commits: Vec<bool>,
    /// The statements an attempt of an autocommitting kind sends (1 when not known).
    pub autocommit_statements: Vec<u64>,
    /// The virtual users' connections at the start.
    pub connections: u64,
    /// Attempts in flight when a warm-up ended and the measured phase opened: their
    /// statements before the opening sample (a New-Order's district update among them) are
    /// in txbench's counts, which count a transaction when it ends, and not in the server's
    /// over the measured phase.
    pub in_flight_at_open: InFlight,
    /// PostgreSQL, measured rather than assumed: what one connection's start costs in
    /// transactions (the server's own at login, measured by the monitor with a connection
    /// that does nothing, plus the virtual user's preparation, counted from the protocol),
    /// the statements the connections prepared outside a transaction during the run, and
    /// whether a warm-up ran before the measured phase (then its last second of counts may
    /// reach the server after the opening sample).
    pub pg: Option<PgCosts>,
}

/// The measured phase's attempts that started before it opened: counted by kind (the ones
/// that ended in it, so each with the kind it turned out to be), or only in all (a shard's
/// result from before they were counted by kind).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InFlight {
    /// All of them.
    pub total: u64,
    /// By kind name; empty when not known by kind.
    pub by_kind: BTreeMap<String, u64>,
}

impl InFlight {
    /// Counted by kind.
    pub fn by_kind(by_kind: BTreeMap<String, u64>) -> InFlight {
        InFlight {
            total: by_kind.values().sum(),
            by_kind,
        }
    }

    /// Those of kind `name`: all of them when not known by kind.
    pub fn of_kind(&self, name: &str) -> u64 {
        if self.by_kind.is_empty() {
            self.total
        } else {
            self.by_kind.get(name).copied().unwrap_or(0)
        }
    }

    /// Both counts summed (shards, targets); by kind only when every part knew it.
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a InFlight>) -> InFlight {
        let mut out = InFlight::default();
        let mut known = true;
        for p in parts {
            out.total += p.total;
            known &= p.total == 0 || !p.by_kind.is_empty();
            for (k, v) in &p.by_kind {
                *out.by_kind.entry(k.clone()).or_default() += v;
            }
        }
        if !known {
            out.by_kind.clear();
        }
        out
    }
}

/// What PostgreSQL's transaction count holds besides the attempts, measured in the run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PgCosts {
    /// Transactions per connection started (login, preparation).
    pub per_connection: f64,
    /// Statements prepared outside a transaction over the run.
    pub prepares_alone: u64,
    /// A warm-up preceded the measured phase.
    pub warmup: bool,
    /// The warm-up's last interval's transactions per second (txbench's count): the counts
    /// a backend had not flushed at the opening are the warm-up's, which may have run
    /// faster than the measured phase (another test file started beside it: 32,665 a second
    /// against 21,810, and 25,166 reached the count against 24,418 allowed).
    pub warmup_tps: f64,
    /// The monitor's own transactions between its last two samples: they may reach the
    /// count only after the closing one.
    pub monitor_unflushed: f64,
    /// Connections the end of the run opened to cut virtual users still inside a
    /// transaction: each a login and one statement (`pg_terminate_backend`).
    pub cut_connections: u64,
}

/// What the PostgreSQL transaction cross-check compares.
pub const PG_TRANSACTIONS: &str = "transactions (pg_stat_database xact_commit + xact_rollback)";

/// Transactions a connection may end besides its attempts' on PostgreSQL: its preparation
/// (one transaction, `Conn::in_one_transaction`) and statements prepared on first use
/// outside a transaction (TPC-C's autocommitting Stock-Level), each Parse an implicit
/// transaction pg_stat_database counts.
const PREPARES_PER_CONNECTION: f64 = 8.0;

/// MySQL's and MariaDB's transactions (`Com_commit + Com_rollback`) against txbench's
/// attempts: every attempt ends with COMMIT or ROLLBACK except those that lost their
/// connection; a failed attempt may send ROLLBACK twice (a procedure's handler and the
/// driver). `not_ended`: the failed attempts that ended on the server, and the attempts
/// that may or may not have.
fn mysql_transactions(
    measured: &Delta,
    summary: &Summary,
    mode: ServerCount,
    ends: &Ends,
    (failed, attempts_not_ended): (f64, f64),
    opening_lag_s: f64,
) -> Option<CrossCheck> {
    if !mode.transactions {
        return None;
    }
    let server = measured.server_transactions()?;
    let ended: u64 = summary
        .kinds
        .iter()
        .enumerate()
        .filter(|(i, _)| ends.commits.get(*i).copied().unwrap_or(true))
        .map(|(_, k)| k.completed)
        .sum();
    // With procedures a failed attempt counts 1 to 2 rollbacks: the middle, ± half.
    let (per_failure, spread) = if mode.double_rollback {
        (1.5, 0.5 * failed)
    } else {
        (1.0, 0.0)
    };
    let txbench = ended as f64 + failed * per_failure;
    let slack = summary.tps * opening_lag_s + attempts_not_ended + spread;
    // A user inside its transaction at the opening may have sent its COMMIT before the
    // opening sample: the server counts a COMMIT when it starts (a log flush can hold
    // hundreds of them), txbench when it is answered.
    Some(
        CrossCheck::new(
            "transactions (Com_commit + Com_rollback)",
            server,
            txbench,
            slack,
        )
        .with_excess(ends.in_flight_at_open.total as f64),
    )
}

/// PostgreSQL's transactions (pg_stat_database's xact_commit + xact_rollback, the monitor's
/// own taken off) against the ones txbench's attempts make: one per attempt of a kind that
/// commits, one per statement of a kind that autocommits, one per failed attempt, and with
/// procedures a second for each New-Order rolled back inside its CALL. Backends flush their
/// counts at most once a second while busy: a second's worth at the phase's opening is
/// allowed, and the statements the connections may prepare during the phase.
fn pg_transactions(
    measured: &Delta,
    summary: &Summary,
    mode: ServerCount,
    ends: &Ends,
    failed: f64,
    opening_lag_s: f64,
) -> Option<CrossCheck> {
    if !mode.pg_transactions {
        return None;
    }
    let server = measured.status("pg_xact_commit")? + measured.status("pg_xact_rollback")?;
    let mut txbench = 0.0;
    for (i, k) in summary.kinds.iter().enumerate() {
        let per_attempt = if ends.commits.get(i).copied().unwrap_or(true) {
            1
        } else {
            ends.autocommit_statements.get(i).copied().unwrap_or(1)
        };
        txbench += (k.completed * per_attempt) as f64;
        if mode.double_rollback {
            txbench += k.rolled_back as f64;
        }
    }
    txbench += failed;
    let rate = txbench / summary.duration_s.max(1e-9);
    // A failed attempt of an autocommitting kind ends up to all its statements' transactions
    // before the one that failed.
    let autocommit_most = (0..summary.kinds.len())
        .filter(|i| !ends.commits.get(*i).copied().unwrap_or(true))
        .map(|i| ends.autocommit_statements.get(i).copied().unwrap_or(1))
        .max()
        .unwrap_or(1);
    // The end needs nothing: the last sample waits for the virtual users' backends to exit
    // (flushing their counts) and flushes the monitor's own. The opening needs a second's
    // worth only after a warm-up (backends flush at most once a second while busy; idle at
    // the baseline, they have flushed their preparation).
    let costs = ends.pg.unwrap_or(PgCosts {
        per_connection: PREPARES_PER_CONNECTION,
        prepares_alone: 0,
        warmup: true,
        warmup_tps: 0.0,
        monitor_unflushed: 0.0,
        cut_connections: 0,
    });
    // The server's transactions per txbench transaction, for the warm-up's rate.
    let per_txn = txbench / (summary.transactions.max(1) as f64);
    let opening = rate * opening_lag_s
        + if costs.warmup {
            rate.max(costs.warmup_tps * per_txn)
        } else {
            0.0
        };
    // A cut attempt, like a failed one, may have ended on the server (its COMMIT, the
    // rollback of its session's end, or its autocommitted statements); each connection that
    // cut them logged in and ran one statement.
    let slack = opening
        + ((summary.errors + summary.retries + summary.cut) * autocommit_most + summary.reconnects)
            as f64
        + costs.cut_connections as f64
        + costs.per_connection
            * (ends.connections + summary.reconnects + costs.cut_connections) as f64
        + costs.prepares_alone as f64
        + costs.monitor_unflushed;
    // A user inside its attempt at the opening may have ended its transactions on the
    // server before the opening sample (its COMMIT done, the answer not yet read).
    Some(
        CrossCheck::new(PG_TRANSACTIONS, server, txbench, slack)
            .with_excess((ends.in_flight_at_open.total * autocommit_most) as f64),
    )
}

#[cfg(test)]
#[path = "cross_checks/tests.rs"]
mod tests;
