//! Preparing TPC-B: the tables (or pgbench's, adopted), branches loaded in parallel and resumable,
//! the keys PostgreSQL adds after loading, readiness and cleanup.

use super::*;

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

pub(super) fn meta_u64(conn: &mut Conn, name: &str) -> Result<u64> {
    Ok(meta::get(conn, name)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0))
}

pub(super) fn done_key(branch: u32) -> String {
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
pub(super) fn adopt_pgbench(conn: &mut Conn) -> Result<bool> {
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
pub(super) const CHUNK_ROWS: u32 = 2_000;

/// pgbench's primary keys, after the load (what `pgbench -i` does); kept if present, so a
/// resumed prepare adds only what is missing.
pub(super) fn add_postgres_keys(conn: &mut Conn) -> Result<()> {
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
pub(super) fn load_branch(
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
