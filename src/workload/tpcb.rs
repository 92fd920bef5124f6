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

/// The CREATE TABLE statements: pgbench's layout with TPC-B's row sizes on MySQL, pgbench's
/// own DDL on PostgreSQL (its keys added after the load, as `pgbench -i` does).
pub fn create_statements(o: &TpcbOptions, engine: Engine) -> Vec<String> {
    if engine == Engine::Postgres {
        return pg::tpcb_ddl(match o.history_key {
            HistoryKey::Autoinc => Some(pg::TPCB_HISTORY_AUTOINC),
            HistoryKey::None => None,
            HistoryKey::Client => Some(pg::TPCB_HISTORY_CLIENT),
        });
    }
    let (id, key) = match o.history_key {
        HistoryKey::Autoinc => ("id BIGINT NOT NULL AUTO_INCREMENT, ", ", PRIMARY KEY (id)"),
        HistoryKey::None => ("", ""),
        HistoryKey::Client => ("id BIGINT NOT NULL, ", ", PRIMARY KEY (id)"),
    };
    vec![
        "CREATE TABLE pgbench_branches (bid INT NOT NULL, bbalance INT NOT NULL, \
         filler CHAR(92) CHARACTER SET latin1 NOT NULL DEFAULT '', PRIMARY KEY (bid)) ENGINE=InnoDB"
            .to_string(),
        "CREATE TABLE pgbench_tellers (tid INT NOT NULL, bid INT NOT NULL, tbalance INT NOT NULL, \
         filler CHAR(88) CHARACTER SET latin1 NOT NULL DEFAULT '', PRIMARY KEY (tid)) ENGINE=InnoDB"
            .to_string(),
        "CREATE TABLE pgbench_accounts (aid INT NOT NULL, bid INT NOT NULL, abalance INT NOT NULL, \
         filler CHAR(88) CHARACTER SET latin1 NOT NULL DEFAULT '', PRIMARY KEY (aid)) ENGINE=InnoDB"
            .to_string(),
        format!(
            "CREATE TABLE pgbench_history ({id}tid INT NOT NULL, bid INT NOT NULL, aid INT NOT NULL, \
             delta INT NOT NULL, mtime TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, \
             filler CHAR(30) CHARACTER SET latin1 NOT NULL DEFAULT ''{key}) ENGINE=InnoDB"
        ),
    ]
}

/// What txbench_meta says about the TPC-B data in a database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Branches prepared.
    pub scale: u32,
    /// The history table's key.
    pub history_key: HistoryKey,
    /// Every branch loaded.
    pub complete: bool,
    /// Branches not loaded yet.
    pub missing: Vec<u32>,
    /// History rows committed by txbench's runs since prepare.
    pub history_committed: u64,
    /// Transactions whose COMMIT lost its connection: committed or not, nobody knows.
    pub in_doubt: u64,
}

fn meta_u64(conn: &mut Conn, name: &str) -> Result<u64> {
    Ok(meta::get(conn, name)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0))
}

fn done_key(branch: u32) -> String {
    format!("tpcb.loaded.b{branch}")
}

/// The TPC-B state of the database, if it holds TPC-B data prepared by txbench. A database
/// that holds another workload is an error that names it.
pub fn state(conn: &mut Conn) -> Result<Option<State>> {
    if meta::expect(conn, "tpcb")?.is_none() && !adopt_pgbench(conn)? {
        return Ok(None);
    }
    let scale = meta_u64(conn, "tpcb.scale")? as u32;
    let history_key = meta::get(conn, "tpcb.history_key")?
        .and_then(|s| HistoryKey::from_name(&s))
        .unwrap_or(HistoryKey::Autoinc);
    let loaded: Vec<String> = meta::with_prefix(conn, "tpcb.loaded.")?
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let missing = (1..=scale)
        .filter(|b| !loaded.contains(&done_key(*b)))
        .collect();
    Ok(Some(State {
        scale,
        history_key,
        complete: meta::get(conn, "tpcb.complete")?.is_some(),
        missing,
        history_committed: meta_u64(conn, "tpcb.history_committed")?,
        in_doubt: meta_u64(conn, "tpcb.in_doubt")?,
    }))
}

/// A PostgreSQL database `pgbench -i` prepared (its four tables, no txbench_meta) is taken
/// as a complete TPC-B load of its scale with pgbench's history (no key); the rows already
/// in the history count as committed. True when adopted.
fn adopt_pgbench(conn: &mut Conn) -> Result<bool> {
    if conn.engine() != Engine::Postgres || meta::exists(conn)? {
        return Ok(false);
    }
    if meta::tables_present(conn, &TABLES)?.len() != TABLES.len() {
        return Ok(false);
    }
    let branches: Option<i64> = conn.query_first("SELECT COUNT(*) FROM pgbench_branches")?;
    let history: Option<i64> = conn.query_first("SELECT COUNT(*) FROM pgbench_history")?;
    let scale = branches.unwrap_or(0);
    if scale == 0 {
        return Ok(false);
    }
    meta::set(conn, "workload", "tpcb")?;
    meta::set(conn, "tpcb.scale", &scale.to_string())?;
    meta::set(conn, "tpcb.history_key", HistoryKey::None.name())?;
    meta::set(
        conn,
        "tpcb.history_committed",
        &history.unwrap_or(0).to_string(),
    )?;
    meta::set(conn, "tpcb.in_doubt", "0")?;
    for b in 1..=scale as u32 {
        meta::set(conn, &done_key(b), "1")?;
    }
    meta::set(conn, "tpcb.adopted_from", "pgbench")?;
    meta::set(conn, "tpcb.complete", "1")?;
    Ok(true)
}

/// Rows per chunk handed to the loader.
const CHUNK_ROWS: u32 = 2_000;

/// pgbench's primary keys, after the load (what `pgbench -i` does); kept if present, so a
/// resumed prepare adds only what is missing.
fn add_postgres_keys(conn: &mut Conn) -> Result<()> {
    for (table, stmt) in TABLES.iter().zip(pg::TPCB_KEYS) {
        let has: Option<i64> = conn.query_first(format!(
            "SELECT COUNT(*) FROM information_schema.table_constraints \
             WHERE table_schema = current_schema() AND table_name = '{table}' AND constraint_type = 'PRIMARY KEY'"
        ))?;
        if has.unwrap_or(0) == 0 {
            conn.query_drop(stmt)
                .with_context(|| format!("adding the primary key of {table}"))?;
        }
    }
    Ok(())
}

/// Loads branch `b`: its row, its tellers and its accounts, then marks it loaded.
fn load_branch(
    conn: &mut Conn,
    method: LoadMethod,
    b: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64> {
    if conn.engine() == Engine::Mysql {
        conn.query_drop("SET SESSION unique_checks = 0")?;
    }
    // What an interrupted load left of this branch (primary-key ranges: no scans).
    let (t0, a0) = ((b - 1) * TELLERS, (b - 1) * ACCOUNTS);
    conn.query_drop(format!("DELETE FROM pgbench_branches WHERE bid = {b}"))?;
    conn.query_drop(format!(
        "DELETE FROM pgbench_tellers WHERE tid BETWEEN {} AND {}",
        t0 + 1,
        t0 + TELLERS
    ))?;
    conn.query_drop(format!(
        "DELETE FROM pgbench_accounts WHERE aid BETWEEN {} AND {}",
        a0 + 1,
        a0 + ACCOUNTS
    ))?;
    let what = format!("branch {b}");
    let mut rows = loader::load_rows(
        conn,
        method,
        "pgbench_branches",
        &["bid", "bbalance"],
        &what,
        progress,
        move |r: &mut Rows| {
            r.int(i64::from(b));
            r.int(0);
            r.end();
            false
        },
    )?;
    rows += loader::load_rows(
        conn,
        method,
        "pgbench_tellers",
        &["tid", "bid", "tbalance"],
        &what,
        progress,
        move |r: &mut Rows| {
            for t in t0 + 1..=t0 + TELLERS {
                r.int(i64::from(t));
                r.int(i64::from(b));
                r.int(0);
                r.end();
            }
            false
        },
    )?;
    let mut next = a0 + 1;
    let last = a0 + ACCOUNTS;
    rows += loader::load_rows(
        conn,
        method,
        "pgbench_accounts",
        &["aid", "bid", "abalance"],
        &what,
        progress,
        move |r: &mut Rows| {
            let end = (next + CHUNK_ROWS - 1).min(last);
            for aid in next..=end {
                r.int(i64::from(aid));
                r.int(i64::from(b));
                r.int(0);
                r.end();
            }
            next = end + 1;
            next <= last
        },
    )?;
    meta::set(conn, &done_key(b), "1")?;
    Ok(rows)
}

/// Creates and loads a TPC-B database (finishing an interrupted load).
pub fn prepare(
    connect: &(dyn Fn() -> Result<Conn> + Sync),
    o: &TpcbOptions,
    load_threads: u32,
    method: LoadMethod,
    progress: &Progress<'_>,
) -> Result<Prepared> {
    o.validate()?;
    let mut conn = connect()?;
    let resumed = match state(&mut conn)? {
        Some(s) => {
            if s.scale != o.scale || s.history_key != o.history_key {
                bail!(
                    "the database holds a TPC-B load of scale {} with --history-key {} ({}): run `txbench cleanup tpcb` first to prepare scale {} with --history-key {}",
                    s.scale,
                    s.history_key.name(),
                    if s.complete { "complete" } else { "incomplete" },
                    o.scale,
                    o.history_key.name()
                );
            }
            if s.complete {
                return Ok(Prepared::AlreadyComplete);
            }
            true
        }
        None => {
            if let Some(t) = meta::tables_present(&mut conn, &TABLES)?.first() {
                bail!(
                    "table '{t}' exists but was not prepared by txbench: drop it or use another database"
                );
            }
            // Recorded first: tables left by a prepare that failed half-way are txbench's.
            meta::set(&mut conn, "workload", "tpcb")?;
            for stmt in create_statements(o, conn.engine()) {
                conn.query_drop(&stmt)
                    .context("creating the TPC-B tables")?;
            }
            meta::set(&mut conn, "tpcb.scale", &o.scale.to_string())?;
            meta::set(&mut conn, "tpcb.history_key", o.history_key.name())?;
            meta::set(&mut conn, "tpcb.history_committed", "0")?;
            meta::set(&mut conn, "tpcb.in_doubt", "0")?;
            false
        }
    };
    let done: Vec<String> = meta::with_prefix(&mut conn, "tpcb.loaded.")?
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let branches: Vec<u32> = (1..=o.scale)
        .filter(|b| !done.contains(&done_key(*b)))
        .collect();
    let rows = AtomicU64::new(0);
    let finished = AtomicUsize::new(0);
    (progress.units)(0, branches.len());
    loader::parallel_units(connect, load_threads, &branches, &|conn, &b| {
        let n = load_branch(conn, method, b, progress.rows)?;
        rows.fetch_add(n, Ordering::Relaxed);
        let f = finished.fetch_add(1, Ordering::Relaxed) + 1;
        (progress.units)(f, branches.len());
        Ok(())
    })?;
    match conn.engine() {
        Engine::Mysql => conn.query_drop(format!("ANALYZE TABLE {}", TABLES.join(", ")))?,
        Engine::Postgres => {
            add_postgres_keys(&mut conn)?;
            conn.query_drop(format!("VACUUM ANALYZE {}", TABLES.join(", ")))?
        }
    }
    meta::set(&mut conn, "tpcb.complete", "1")?;
    Ok(Prepared::Loaded {
        units: branches.len(),
        rows: rows.load(Ordering::Relaxed),
        resumed,
    })
}

/// Checks the database is a complete TPC-B load (of `scale` branches, if given); the error
/// says what to run.
pub fn ready(conn: &mut Conn, scale: Option<u32>) -> Result<State> {
    let Some(s) = state(conn)? else {
        bail!("no TPC-B data in the database: run `txbench prepare tpcb --scale N` first");
    };
    if !s.complete {
        bail!(
            "the TPC-B load is incomplete ({} of {} branches not loaded): run `txbench prepare tpcb --scale {} --history-key {}` again to finish it",
            s.missing.len(),
            s.scale,
            s.scale,
            s.history_key.name()
        );
    }
    if let Some(want) = scale
        && want != s.scale
    {
        bail!(
            "--scale {want} does not match the {} branch(es) prepared: leave --scale out, or run `txbench cleanup tpcb` and prepare again",
            s.scale
        );
    }
    let present = meta::tables_present(conn, &TABLES)?;
    if let Some(t) = TABLES
        .iter()
        .find(|t| !present.iter().any(|p| p.eq_ignore_ascii_case(t)))
    {
        bail!(
            "table '{t}' is missing: run `txbench cleanup tpcb` and `txbench prepare tpcb --scale {}` again",
            s.scale
        );
    }
    Ok(s)
}

/// Drops the TPC-B tables and txbench's record of them.
pub fn cleanup(conn: &mut Conn) -> Result<()> {
    meta::owns(conn, "tpcb", &TABLES)?;
    for t in TABLES {
        conn.query_drop(format!("DROP TABLE IF EXISTS {t}"))?;
    }
    meta::remove_prefix(conn, "tpcb.")?;
    meta::forget(conn, "tpcb")
}

/// The consistency conditions, each with the figures it compared.
pub fn check(conn: &mut Conn, s: &State) -> Result<Vec<Condition>> {
    let q = |conn: &mut Conn, sql: &str| -> Result<i64> {
        let v: Option<Option<i64>> = conn.query_first(sql).with_context(|| sql.to_string())?;
        Ok(v.flatten().unwrap_or(0))
    };
    let branches = q(conn, "SELECT COUNT(*) FROM pgbench_branches")?;
    let tellers = q(conn, "SELECT COUNT(*) FROM pgbench_tellers")?;
    let accounts = q(conn, "SELECT COUNT(*) FROM pgbench_accounts")?;
    let scale = i64::from(s.scale);
    let b_sum = q(conn, "SELECT SUM(bbalance) FROM pgbench_branches")?;
    let t_sum = q(conn, "SELECT SUM(tbalance) FROM pgbench_tellers")?;
    let a_sum = q(conn, "SELECT SUM(abalance) FROM pgbench_accounts")?;
    let per_branch = q(
        conn,
        "SELECT COUNT(*) FROM pgbench_branches b LEFT JOIN \
         (SELECT bid, SUM(tbalance) s FROM pgbench_tellers GROUP BY bid) t ON t.bid = b.bid \
         WHERE b.bbalance <> COALESCE(t.s, 0)",
    )?;
    // A history row without a mark is pgbench's own (its default script is TPC-B's); CHAR
    // pads on PostgreSQL, hence TRIM.
    let by_mark: Vec<(String, i64, Option<i64>)> = conn.query(
        "SELECT COALESCE(TRIM(filler), 'tpcb'), COUNT(*), SUM(delta) FROM pgbench_history \
         GROUP BY COALESCE(TRIM(filler), 'tpcb')",
    )?;
    let deltas = |marks: &[Variant]| -> i64 {
        by_mark
            .iter()
            .filter(|(m, _, _)| marks.iter().any(|v| v.mark() == m))
            .map(|(_, _, d)| d.unwrap_or(0))
            .sum()
    };
    let h_tpcb = deltas(&[Variant::Tpcb]);
    let h_accounts = deltas(&[Variant::Tpcb, Variant::SimpleUpdate]);
    let h_rows: i64 = by_mark.iter().map(|(_, n, _)| n).sum();
    let unequal = |a: i64, b: i64| u64::from(a != b);
    let (lo, hi) = (s.history_committed, s.history_committed + s.in_doubt);
    Ok(vec![
        Condition {
            number: 1,
            description: format!(
                "rows: {TELLERS} tellers and {ACCOUNTS} accounts per branch, {scale} branch(es)"
            ),
            violations: [
                (branches, scale),
                (tellers, scale * i64::from(TELLERS)),
                (accounts, scale * i64::from(ACCOUNTS)),
            ]
            .iter()
            .filter(|(have, want)| have != want)
            .count() as u64,
            applies: true,
            detail: format!("{branches} branches, {tellers} tellers, {accounts} accounts"),
        },
        Condition {
            number: 2,
            description: "sum of branch balances = sum of teller balances".into(),
            violations: unequal(b_sum, t_sum),
            applies: true,
            detail: format!("branches {b_sum}, tellers {t_sum}"),
        },
        Condition {
            number: 3,
            description: "each branch balance = sum of its tellers' balances".into(),
            violations: per_branch as u64,
            applies: true,
            detail: format!("{per_branch} branch(es) differ"),
        },
        Condition {
            number: 4,
            description: "sum of teller balances = sum of history deltas of TPC-B transactions"
                .into(),
            violations: unequal(t_sum, h_tpcb),
            applies: true,
            detail: format!("tellers {t_sum}, history {h_tpcb}"),
        },
        Condition {
            number: 5,
            description:
                "sum of account balances = sum of history deltas of TPC-B and simple-update transactions"
                    .into(),
            violations: unequal(a_sum, h_accounts),
            applies: true,
            detail: format!("accounts {a_sum}, history {h_accounts}"),
        },
        Condition {
            number: 6,
            description: "history rows = transactions txbench committed since prepare".into(),
            violations: u64::from(!(lo..=hi).contains(&(h_rows as u64))),
            applies: true,
            detail: if s.in_doubt > 0 {
                format!(
                    "history {h_rows} rows, committed {lo} and {} in doubt (COMMIT lost its connection)",
                    s.in_doubt
                )
            } else if h_rows as u64 != lo {
                format!(
                    "history {h_rows} rows, committed {lo} (a run that did not finish records none)"
                )
            } else {
                format!("history {h_rows} rows, committed {lo}")
            },
        },
    ])
}

/// What `run tpcb` does, besides the driver's options.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    /// The transaction.
    pub variant: Variant,
    /// Percent of accounts outside the teller's branch.
    pub remote_pct: f64,
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
    /// The workload on a database in state `s`, for `threads` virtual users.
    pub fn new(conn: &mut Conn, s: &State, o: RunOptions, threads: u32) -> Result<Tpcb> {
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
        Ok(Tpcb {
            scale: s.scale,
            key: s.history_key,
            o,
            threads,
            id_base,
            counters: Arc::default(),
        })
    }

    /// A shard of a run: the history ids start at the next multiple of threads x 2^32 above
    /// the largest in the table, the same for every shard that starts before any has written
    /// (and past every id they use for one that starts later), so shards never collide.
    pub fn share_ids(&mut self) -> Result<()> {
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

/// A transaction's inputs, kept for a retry.
#[derive(Debug, Default, Clone, Copy)]
struct Input {
    aid: u32,
    tid: u32,
    bid: u32,
    delta: i32,
}

/// The prepared statements of a connection.
struct Stmts {
    update_account: Statement,
    select_account: Statement,
    update_teller: Statement,
    update_branch: Statement,
    insert_history: Statement,
}

impl Stmts {
    fn prepare(conn: &mut Conn, key: HistoryKey, variant: Variant) -> crate::engine::Result<Stmts> {
        let (id_col, id_val) = if key == HistoryKey::Client {
            ("id, ", "?, ")
        } else {
            ("", "")
        };
        Ok(Stmts {
            update_account: conn
                .prep("UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?")?,
            select_account: conn.prep("SELECT abalance FROM pgbench_accounts WHERE aid = ?")?,
            update_teller: conn
                .prep("UPDATE pgbench_tellers SET tbalance = tbalance + ? WHERE tid = ?")?,
            update_branch: conn
                .prep("UPDATE pgbench_branches SET bbalance = bbalance + ? WHERE bid = ?")?,
            insert_history: conn.prep(format!(
                "INSERT INTO pgbench_history ({id_col}tid, bid, aid, delta, mtime, filler) \
                 VALUES ({id_val}?, ?, ?, ?, CURRENT_TIMESTAMP, '{}')",
                variant.mark()
            ))?,
        })
    }
}

struct TpcbWorker {
    variant: Variant,
    scale: u32,
    remote_pct: f64,
    key: HistoryKey,
    rng: WorkerRng,
    stmts: Option<Stmts>,
    input: Input,
    /// The next history id with `--history-key client`.
    next_id: i64,
    counters: Arc<Counters>,
}

impl TpcbWorker {
    /// New inputs: a teller, its branch, an account (in another branch for --remote-pct
    /// percent of transactions when there is one) and a delta in -5000..=5000.
    fn draw(&mut self) {
        let tid = uniform(&mut self.rng, 1, TELLERS * self.scale);
        let bid = (tid - 1) / TELLERS + 1;
        let account_branch = if self.scale > 1 && self.rng.random::<f64>() * 100.0 < self.remote_pct
        {
            let b = uniform(&mut self.rng, 1, self.scale - 1);
            if b >= bid { b + 1 } else { b }
        } else {
            bid
        };
        self.input = Input {
            aid: (account_branch - 1) * ACCOUNTS + uniform(&mut self.rng, 1, ACCOUNTS),
            tid,
            bid,
            delta: uniform(&mut self.rng, 0, 10_000) as i32 - 5_000,
        };
    }
}

impl Worker for TpcbWorker {
    fn on_connect(&mut self, conn: &mut Conn) -> crate::engine::Result<()> {
        self.stmts = Some(Stmts::prepare(conn, self.key, self.variant)?);
        Ok(())
    }

    fn execute(
        &mut self,
        conn: &mut Conn,
        _kind: usize,
        retry: bool,
        s: &mut StmtCounts,
    ) -> crate::engine::Result<Outcome> {
        if !retry {
            self.draw();
        }
        let Input {
            aid,
            tid,
            bid,
            delta,
        } = self.input;
        let st = match &mut self.stmts {
            Some(st) => &*st,
            slot => slot.insert(Stmts::prepare(conn, self.key, self.variant)?),
        };
        // Every statement must find or change its row (as TPC-C's clause 2.3.6 asks); an
        // update by a delta of 0 changes nothing, legitimately, and its SELECT still checks.
        let changed = |conn: &mut Conn, what: &str, key: i64| -> crate::engine::Result<()> {
            let n = conn.affected_rows();
            let want = u64::from(delta != 0);
            if n < want {
                return Err(crate::engine::data_error(format!(
                    "TPC-B: {what} ({key}) changed {n} row(s), {want} expected"
                )));
            }
            Ok(())
        };
        let found = |b: Option<i32>| {
            b.map(|_| ()).ok_or_else(|| {
                crate::engine::data_error(format!(
                    "TPC-B: SELECT pgbench_accounts (aid {aid}) found no row"
                ))
            })
        };
        if self.variant == Variant::SelectOnly {
            found(conn.exec_first(&st.select_account, (aid,))?)?;
            s.reads += 1;
            return Ok(Outcome::Committed);
        }
        conn.query_drop("BEGIN")?;
        s.other += 1;
        if self.variant != Variant::HistoryOnly {
            conn.exec_drop(&st.update_account, (delta, aid))?;
            changed(conn, "UPDATE pgbench_accounts aid", i64::from(aid))?;
            s.writes += 1;
            found(conn.exec_first(&st.select_account, (aid,))?)?;
            s.reads += 1;
        }
        if self.variant == Variant::Tpcb {
            conn.exec_drop(&st.update_teller, (delta, tid))?;
            changed(conn, "UPDATE pgbench_tellers tid", i64::from(tid))?;
            conn.exec_drop(&st.update_branch, (delta, bid))?;
            changed(conn, "UPDATE pgbench_branches bid", i64::from(bid))?;
            s.writes += 2;
        }
        let insert = &st.insert_history;
        if self.key == HistoryKey::Client {
            conn.exec_drop(insert, (self.next_id, tid, bid, aid, delta))?;
        } else {
            conn.exec_drop(insert, (tid, bid, aid, delta))?;
        }
        if conn.affected_rows() < 1 {
            return Err(crate::engine::data_error(
                "TPC-B: INSERT pgbench_history inserted 0 rows, 1 expected".into(),
            ));
        }
        s.writes += 1;
        let commit = conn.query_drop("COMMIT");
        // Once COMMIT was sent the id may be in the table: never use it again.
        self.next_id += 1;
        s.other += 1;
        match commit {
            Ok(()) => {
                self.counters.committed.fetch_add(1, Ordering::Relaxed);
                Ok(Outcome::Committed)
            }
            Err(e) => {
                if matches!(
                    crate::engine::classify(&e),
                    ErrorClass::LostConnection | ErrorClass::ServerShutdown
                ) {
                    self.counters.in_doubt.fetch_add(1, Ordering::Relaxed);
                }
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests;
