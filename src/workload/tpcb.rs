//! TPC-B (retired by the TPC in 1995; the layout and transaction are pgbench's "TPC-B (sort
//! of)"): N branches, 10 tellers and 100,000 accounts per branch, and an append-only history.
//! The history table's key is a choice, because seed 002's scalability hinged on it.
//!
//! Rows have TPC-B's sizes (clause 1.2: 100 bytes, 50 for history) as InnoDB stores the
//! columns: INT and TIMESTAMP 4 bytes, latin1 CHAR(n) n bytes; the id of `--history-key`
//! is extra. Each history row's filler names the transaction that wrote it, so `check tpcb`
//! can hold every variant to account: the teller and branch balances add up to the deltas of
//! the TPC-B transactions, the account balances to those of TPC-B and simple-update.

use super::loader::{self, LoadMethod, Prepared, Progress, Rows};
use super::rand::{WorkerRng, uniform};
use super::{Condition, Worker, Workload, meta};
use crate::metrics::{ErrorClass, Outcome, StmtCounts};
use anyhow::{Context, Result, bail};

use crate::engine::postgres::sql as pg;
use crate::engine::{Conn, Engine, Stmt as Statement};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

mod check;
mod load;
mod worker;

pub use check::*;
pub use load::*;
use worker::*;

/// Tellers per branch.
pub const TELLERS: u32 = 10;
/// Accounts per branch.
pub const ACCOUNTS: u32 = 100_000;
/// The largest scale whose account ids fit an INT.
pub const MAX_SCALE: u32 = (i32::MAX as u32) / ACCOUNTS;
/// The four tables, pgbench's names.
pub const TABLES: [&str; 4] = [
    "pgbench_branches",
    "pgbench_tellers",
    "pgbench_accounts",
    "pgbench_history",
];
/// Ids each virtual user may use per run with `--history-key client`.
const CLIENT_ID_RANGE: i64 = 1 << 32;

/// The key of the history table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum HistoryKey {
    /// `id BIGINT AUTO_INCREMENT PRIMARY KEY`, as in seed 002.
    Autoinc,
    /// No key column: InnoDB's hidden row id.
    None,
    /// `id BIGINT PRIMARY KEY` with ids from the driver, a range per virtual user.
    Client,
}

impl HistoryKey {
    /// The flag value (also stored in txbench_meta).
    pub fn name(self) -> &'static str {
        match self {
            HistoryKey::Autoinc => "autoinc",
            HistoryKey::None => "none",
            HistoryKey::Client => "client",
        }
    }

    fn from_name(s: &str) -> Option<HistoryKey> {
        [HistoryKey::Autoinc, HistoryKey::None, HistoryKey::Client]
            .into_iter()
            .find(|k| k.name() == s)
    }
}

/// The transaction `run tpcb` executes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// pgbench's default: update account, read it, update teller and branch, insert history.
    Tpcb,
    /// pgbench -N: the account update, read and history insert only.
    SimpleUpdate,
    /// pgbench -S: the account read only, in autocommit.
    SelectOnly,
    /// Only the history insert, in a transaction of its own (seed 002's isolated one).
    HistoryOnly,
}

impl Variant {
    /// The transaction kind's name in results.
    pub fn kind(self) -> &'static str {
        match self {
            Variant::Tpcb => "tpcb",
            Variant::SimpleUpdate => "simple_update",
            Variant::SelectOnly => "select_only",
            Variant::HistoryOnly => "history_only",
        }
    }

    /// The mark in the filler of the history rows it writes.
    fn mark(self) -> &'static str {
        match self {
            Variant::Tpcb => "tpcb",
            Variant::SimpleUpdate => "simple-update",
            Variant::SelectOnly => "select-only",
            Variant::HistoryOnly => "history-only",
        }
    }

    /// True when a committed transaction adds a history row.
    pub fn inserts_history(self) -> bool {
        self != Variant::SelectOnly
    }
}

/// Options of `prepare tpcb`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TpcbOptions {
    /// Branches.
    pub scale: u32,
    /// The history table's key.
    pub history_key: HistoryKey,
}

impl TpcbOptions {
    /// Checks the options; errors name the flag.
    pub fn validate(&self) -> Result<()> {
        if self.scale == 0 {
            bail!("--scale must be at least 1");
        }
        if self.scale > MAX_SCALE {
            bail!(
                "--scale {} is more than {MAX_SCALE} (account ids must fit an INT)",
                self.scale
            );
        }
        Ok(())
    }
}

/// What `run tpcb` does, besides the driver's options.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    /// The transaction.
    pub variant: Variant,
    /// Percent of accounts outside the teller's branch.
    pub remote_pct: f64,
}

impl RunOptions {
    /// The options a run records (result.json's `config.workload_options`, part of the
    /// benchmark's identity): these and the data's scale and history key.
    pub fn recorded(&self, scale: u32, history_key: HistoryKey) -> serde_json::Value {
        serde_json::json!({
            "scale": scale, "history_key": history_key,
            "variant": self.variant, "remote_pct": self.remote_pct,
        })
    }
}

/// Counts shared by the workers, over the whole run (warm-up included: every committed
/// history row is in the table).
#[derive(Debug, Default)]
struct Counters {
    committed: AtomicU64,
    in_doubt: AtomicU64,
}

/// A ready-to-run TPC-B workload.
pub struct Tpcb {
    scale: u32,
    key: HistoryKey,
    o: RunOptions,
    threads: u32,
    /// With `--history-key client`: the largest id in the table at the start.
    id_base: i64,
    counters: Arc<Counters>,
}

impl Tpcb {
    /// The workload on a database in state `s`, for `threads` virtual users; `sharded`: one
    /// shard of a run (see [`Tpcb::share_ids`]).
    pub fn new(
        conn: &mut Conn,
        s: &State,
        o: RunOptions,
        threads: u32,
        sharded: bool,
    ) -> Result<Tpcb> {
        let id_base = if s.history_key == HistoryKey::Client {
            let max: Option<Option<i64>> =
                conn.query_first("SELECT MAX(id) FROM pgbench_history")?;
            let base = max.flatten().unwrap_or(0);
            if base > i64::MAX - i64::from(threads) * CLIENT_ID_RANGE {
                bail!(
                    "--history-key client: the history ids are used up (largest {base}); run `txbench cleanup tpcb` and prepare again"
                );
            }
            base
        } else {
            0
        };
        let mut t = Tpcb {
            scale: s.scale,
            key: s.history_key,
            o,
            threads,
            id_base,
            counters: Arc::default(),
        };
        if sharded {
            t.share_ids()?;
        }
        Ok(t)
    }

    /// A shard of a run: the history ids start at the next multiple of threads x 2^32 above
    /// the largest in the table, the same for every shard that starts before any has written
    /// (and past every id they use for one that starts later), so shards never collide.
    fn share_ids(&mut self) -> Result<()> {
        if self.key != HistoryKey::Client {
            return Ok(());
        }
        let block = i64::from(self.threads.max(1)) * CLIENT_ID_RANGE;
        let base = self.id_base.div_euclid(block) * block;
        let base = if base < self.id_base {
            base.checked_add(block)
        } else {
            Some(base)
        };
        match base.filter(|b| *b <= i64::MAX - block) {
            Some(b) => {
                self.id_base = b;
                Ok(())
            }
            None => bail!(
                "--history-key client: the history ids are used up (largest {}); run `txbench cleanup tpcb` and prepare again",
                self.id_base
            ),
        }
    }

    /// Adds this run's committed history rows (and transactions in doubt) to txbench_meta,
    /// for `check tpcb`; returns them.
    pub fn record(&self, conn: &mut Conn) -> Result<(u64, u64)> {
        let committed = self.counters.committed.load(Ordering::Relaxed);
        let in_doubt = self.counters.in_doubt.load(Ordering::Relaxed);
        for (name, add) in [
            ("tpcb.history_committed", committed),
            ("tpcb.in_doubt", in_doubt),
        ] {
            meta::add(conn, name, add)?;
        }
        Ok((committed, in_doubt))
    }
}

impl Workload for Tpcb {
    fn kinds(&self) -> Vec<String> {
        vec![self.o.variant.kind().to_string()]
    }

    fn worker(&self, id: u32, rng: WorkerRng) -> Box<dyn Worker> {
        Box::new(TpcbWorker {
            variant: self.o.variant,
            scale: self.scale,
            remote_pct: self.o.remote_pct,
            key: self.key,
            rng,
            stmts: None,
            input: Input::default(),
            next_id: self.id_base + i64::from(id) * CLIENT_ID_RANGE + 1,
            counters: self.counters.clone(),
        })
    }

    fn commits(&self, _kind: usize) -> bool {
        // pgbench's -S is one autocommit SELECT.
        self.o.variant != Variant::SelectOnly
    }

    fn server_count(&self) -> crate::metrics::server::ServerCount {
        crate::metrics::server::ServerCount {
            // pgbench's -S is one autocommit SELECT.
            transactions: self.o.variant != Variant::SelectOnly,
            statements: true,
            double_rollback: false,
            pg_transactions: true,
        }
    }

    fn notes(&self) -> Vec<String> {
        let mut n = vec![format!(
            "TPC-B-derived (pgbench's transaction), not audited: TPC-B was retired in 1995 and these are not tpsB; \
             {} branch(es), history key {}, {} % remote accounts",
            self.scale,
            self.key.name(),
            self.o.remote_pct
        )];
        if self.o.variant == Variant::Tpcb && self.threads > TELLERS * self.scale {
            n.push(format!(
                "warning: {} threads on {} branch(es), more than {TELLERS} per branch: most transactions will queue on branch rows",
                self.threads, self.scale
            ));
        }
        n
    }
}

#[cfg(test)]
mod tests;
