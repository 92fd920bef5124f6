//! Workloads: what a virtual user does. The driver owns threads, clocks, pacing and
//! counters; a workload owns its schema, data and transactions (sysbench's split).

pub mod loader;
pub mod lua;
pub mod meta;
pub mod oltp;
pub mod rand;
pub mod script;
pub mod tpcb;
pub mod tpcc;

use crate::metrics::{Outcome, StmtCounts};
use crate::results::{Summary, WorkloadReport};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One consistency condition's outcome (`check tpcc`, `check tpcb`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Condition {
    /// Its number in the workload's list.
    pub number: u32,
    /// What it requires.
    pub description: String,
    /// Violating rows (districts, orders, branches… as the condition counts them).
    pub violations: u64,
    /// False when the condition does not apply (TPC-C's 11 after the first run).
    pub applies: bool,
    /// The figures compared, when a count of rows does not say enough.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

impl Condition {
    /// True when it holds or does not apply.
    pub fn passed(&self) -> bool {
        !self.applies || self.violations == 0
    }
}

/// A workload ready to run: it hands out one [`Worker`] per virtual user.
pub trait Workload: Send + Sync {
    /// Transaction kind names, in the order workers report them.
    fn kinds(&self) -> Vec<String>;
    /// The worker for virtual user `id`, with its own random generator.
    fn worker(&self, id: u32, rng: rand::WorkerRng) -> Box<dyn Worker>;
    /// Notes every output must carry (defaults that differ from other tools, deviations).
    fn notes(&self) -> Vec<String>;
    /// The measured phase starts: forget what the warm-up counted.
    fn measure_started(&self) {}
    /// Workload figures for the measured phase (TPC-C's NOPM and scorecard).
    fn report(&self, _summary: &Summary) -> Option<WorkloadReport> {
        None
    }
    /// Counts the workload keeps in its own tables that the server-side cross-check
    /// compares with txbench's: (name, SQL returning one number). TPC-C: `new_orders`.
    fn server_counts(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Which of the server's counters the cross-check compares with txbench's.
    fn server_count(&self) -> crate::metrics::server::ServerCount {
        crate::metrics::server::ServerCount {
            transactions: true,
            statements: true,
            double_rollback: false,
            pg_transactions: true,
        }
    }
    /// Whether a transaction of `kind` ends with COMMIT or ROLLBACK (false: it autocommits).
    fn commits(&self, _kind: usize) -> bool {
        true
    }
    /// The statements one attempt of an autocommitting `kind` sends: on PostgreSQL each is a
    /// transaction of its own (pg_stat_database counts it). Unused for kinds that commit.
    fn autocommit_statements(&self, _kind: usize) -> u64 {
        1
    }
    /// Reasons the measured phase cannot be trusted, beyond the driver's own rules.
    fn invalid_reasons(&self, _summary: &Summary) -> Vec<String> {
        Vec::new()
    }
    /// The virtual users (of `0..threads`) that `shard` runs: together the shards run each
    /// once. By default dealt round-robin; TPC-C gives each shard home warehouses of its own.
    fn shard_users(&self, threads: u32, shard: crate::shard::Shard) -> Result<Vec<u32>, String> {
        shard.users(threads)
    }
}

/// One virtual user's transactions on its own connection.
pub trait Worker: Send {
    /// Prepares statements on a new connection (at the start and after every reconnect).
    fn on_connect(
        &mut self,
        conn: &mut crate::engine::Conn,
    ) -> std::result::Result<(), crate::engine::Error>;
    /// Picks the kind of the next transaction (workloads of one kind keep the default).
    fn next_kind(&mut self) -> usize {
        0
    }
    /// Keying time before and think time after a transaction of `kind` (not measured).
    fn pauses(&mut self, _kind: usize) -> (Duration, Duration) {
        (Duration::ZERO, Duration::ZERO)
    }
    /// Runs one transaction of `kind`, counting statements into `stmts`. With `retry`
    /// set, it repeats the previous inputs after a deadlock or lock-wait timeout.
    fn execute(
        &mut self,
        conn: &mut crate::engine::Conn,
        kind: usize,
        retry: bool,
        stmts: &mut StmtCounts,
    ) -> std::result::Result<Outcome, crate::engine::Error>;
    /// The kind the last transaction turned out to be, when the worker learns it only by
    /// running it (a sysbench-tpcc event calls one of its transactions); None: the kind it
    /// was given.
    fn kind_ran(&self) -> Option<usize> {
        None
    }
    /// Whether this virtual user ended its run itself (a sysbench script's event() returned
    /// true): the driver runs no more of its transactions.
    fn finished(&self) -> bool {
        false
    }
    /// The run ended for this virtual user (time up, --events spent, Ctrl-C, or
    /// [`Worker::finished`]): what it does last on its connection (a sysbench script's
    /// thread_done()), counting statements into `stmts`.
    fn done(
        &mut self,
        _conn: &mut crate::engine::Conn,
        _stmts: &mut StmtCounts,
    ) -> std::result::Result<(), crate::engine::Error> {
        Ok(())
    }
}
