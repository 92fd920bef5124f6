//! The results store: every run, sweep level, merge and experiment cell, recorded when it
//! completes, in an SQLite database (`$TXBENCH_HOME/store.sqlite`, or `--store PATH`) so
//! that runs can be listed, filtered and followed across builds and days. The run
//! directories stay the source of truth: `txbench store import DIR…` rebuilds the store from
//! them, and a store lost loses nothing. The schema's version is SQLite's `user_version`;
//! an older store is migrated when opened, a newer one refused.

mod entry;
pub mod live;
mod name;
pub mod query;

pub use entry::{Entry, FIGURES, engine_of};
pub use name::{
    LONGEST, OPTIONS_SHOWN, benchmark_name, benchmark_name_with, grouped, set_defaults,
};
pub use query::Filter;

use anyhow::{Context, Result, bail};
use rusqlite::{Connection, params};
use std::path::{Path, PathBuf};

/// The schema this txbench writes.
pub const SCHEMA_VERSION: i32 = 1;

/// The store's file name under `$TXBENCH_HOME`.
pub const FILE: &str = "store.sqlite";

/// Each version's statements, from the one before it.
const MIGRATIONS: &[&str] = &["
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        dir TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        started_at TEXT NOT NULL,
        workload TEXT NOT NULL,
        options TEXT NOT NULL,
        threads INTEGER NOT NULL,
        engine TEXT NOT NULL,
        server_version TEXT NOT NULL,
        binary_sha256 TEXT NOT NULL,
        host TEXT NOT NULL,
        host_cpus INTEGER NOT NULL,
        txbench_version TEXT NOT NULL,
        identity TEXT NOT NULL,
        valid INTEGER NOT NULL,
        status TEXT NOT NULL
    );
    CREATE INDEX runs_identity ON runs (identity, started_at);
    CREATE INDEX runs_started ON runs (started_at);
    CREATE TABLE labels (
        run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (run, key)
    );
    CREATE INDEX labels_key ON labels (key, value);
    CREATE TABLE figures (
        run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        value REAL NOT NULL,
        PRIMARY KEY (run, name)
    );
"];

/// An open store.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// Where the store is: `--store PATH`, else `$TXBENCH_HOME/store.sqlite` (`./.txbench`).
pub fn path(flag: Option<&Path>) -> Result<PathBuf> {
    Ok(match flag {
        Some(p) => p.to_path_buf(),
        None => crate::server::StateDir::from_env()?.root().join(FILE),
    })
}

/// Refuses an existing SQLite database that is not a store (tables of its own and no
/// `runs`), before anything switches it to WAL or adds tables to it.
fn refuse_other_databases(conn: &Connection, path: &Path) -> Result<()> {
    let tables: Vec<String> = match conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
    {
        Ok(t) => t,
        Err(e) => bail!(
            "the store {} is not an SQLite database: {e}",
            path.display()
        ),
    };
    if !tables.is_empty() && !tables.iter().any(|t| t == "runs") {
        bail!(
            "the store {} is an SQLite database but not a txbench store (its tables: {}): choose another --store",
            path.display(),
            tables.join(", ")
        );
    }
    Ok(())
}

impl Store {
    /// Opens (creating and migrating as needed) the store at `path`.
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::owned::make_dir(dir, "the store's directory")?;
        }
        // Another user's file, one others may write, or a link is refused: its rows decide
        // what `history --confirm` runs.
        let existed = std::fs::symlink_metadata(path).is_ok();
        if existed {
            crate::owned::check_file(path, "the store")?;
        }
        use rusqlite::OpenFlags as F;
        let flags = F::SQLITE_OPEN_READ_WRITE
            | F::SQLITE_OPEN_CREATE
            | F::SQLITE_OPEN_NOFOLLOW
            | F::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .with_context(|| format!("opening the store {}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        if existed {
            refuse_other_databases(&conn, path)?;
        }
        // WAL with synchronous=NORMAL: a power cut may lose the last runs recorded, never
        // the database; the run directories hold them anyway (`store import`).
        // Switching a new store to WAL takes an exclusive lock that SQLite's busy timeout
        // does not wait for: a second process creating it at the same moment gets "database
        // is locked" at once (seen in the two-thread unit test), so it tries again for a while.
        let pragmas =
            "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;";
        let mut tries = 0;
        loop {
            match conn.execute_batch(pragmas) {
                Ok(()) => break,
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if matches!(
                        e.code,
                        rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
                    ) && tries < 200 =>
                {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(e) => {
                    return Err(e).with_context(|| format!("the store {}", path.display()));
                }
            }
        }
        // Read and migrated inside one write transaction: two processes creating the store at
        // once (shards on one host) take turns, and the second finds it made.
        let in_store = |e: rusqlite::Error| anyhow::anyhow!("the store {}: {e}", path.display());
        conn.execute_batch("BEGIN IMMEDIATE").map_err(in_store)?;
        let version: i32 = match conn.query_row("PRAGMA user_version", [], |r| r.get(0)) {
            Ok(v) => v,
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                bail!(
                    "the store {} is not an SQLite database: {e}",
                    path.display()
                );
            }
        };
        if !(0..=SCHEMA_VERSION).contains(&version) {
            let _ = conn.execute_batch("ROLLBACK");
            bail!(
                "the store {} has schema version {version}, not one this txbench knows (up to {SCHEMA_VERSION}): use a newer txbench, or another --store",
                path.display()
            );
        }
        for (i, m) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let to = i as i32 + 1;
            if let Err(e) = conn.execute_batch(&format!("{m} PRAGMA user_version = {to};")) {
                let _ = conn.execute_batch("ROLLBACK");
                bail!(
                    "migrating the store {} to version {to}: {e}",
                    path.display()
                );
            }
        }
        conn.execute_batch("COMMIT").map_err(in_store)?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// Opens the store at `path` for reading only (`txbench serve`): nothing is created or
    /// migrated, and a store of another schema version is refused.
    pub fn open_read_only(path: &Path) -> Result<Store> {
        use rusqlite::OpenFlags;
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .with_context(|| format!("opening the store {} to read it", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        let version: i32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .with_context(|| format!("the store {} is not an SQLite database", path.display()))?;
        if version != SCHEMA_VERSION {
            bail!(
                "the store {} has schema version {version}, this txbench reads {SCHEMA_VERSION}: {}",
                path.display(),
                if version < SCHEMA_VERSION {
                    "`txbench store import` (or any run recorded) migrates it"
                } else {
                    "use a newer txbench"
                }
            );
        }
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records `e`, replacing what was stored for its directory.
    pub fn record(&mut self, e: &Entry) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM runs WHERE dir = ?1", params![e.dir])?;
        tx.execute(
            "INSERT INTO runs (dir, kind, started_at, workload, options, threads, engine,
                server_version, binary_sha256, host, host_cpus, txbench_version, identity,
                valid, status)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
            params![
                e.dir,
                e.kind,
                e.started_at,
                e.workload,
                e.options,
                e.threads,
                e.engine,
                e.server_version,
                e.binary_sha256,
                e.host,
                e.host_cpus,
                e.txbench_version,
                e.identity,
                e.valid,
                e.status
            ],
        )?;
        let id = tx.last_insert_rowid();
        {
            let mut label =
                tx.prepare("INSERT INTO labels (run, key, value) VALUES (?1, ?2, ?3)")?;
            for (k, v) in &e.labels {
                label.execute(params![id, k, v])?;
            }
            let mut figure =
                tx.prepare("INSERT INTO figures (run, name, value) VALUES (?1, ?2, ?3)")?;
            for (k, v) in &e.figures {
                figure.execute(params![id, k, v])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Records every run directory under `roots` (a run, a sweep, an experiment, a folder
    /// of them): (recorded, skipped with why).
    pub fn import(&mut self, roots: &[PathBuf]) -> Result<(usize, Vec<String>)> {
        let mut found = Vec::new();
        for root in roots {
            if !root.is_dir() {
                bail!("{}: not a directory", root.display());
            }
            find_runs(root, &mut found);
        }
        found.sort();
        let mut recorded = 0;
        let mut skipped = Vec::new();
        for dir in found {
            let abs = std::fs::canonicalize(&dir).unwrap_or(dir.clone());
            match crate::results::RunResult::load(&dir) {
                Ok(r) if r.status == crate::results::RunStatus::Running => {
                    skipped.push(format!("{}: still running", dir.display()))
                }
                Ok(r) => {
                    self.record(&Entry::of(&abs, &r))?;
                    recorded += 1;
                }
                Err(e) => {
                    skipped.push(format!("{}: {}", dir.display(), crate::error::one_line(&e)))
                }
            }
        }
        Ok((recorded, skipped))
    }

    /// The runs `f` selects, oldest first.
    pub fn query(&self, f: &Filter) -> Result<Vec<Entry>> {
        query::select(&self.conn, f)
    }
}

/// The directories under `dir` (itself included) that hold a result.json.
fn find_runs(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("result.json").is_file() {
        out.push(dir.to_path_buf());
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        // Not through symbolic links: a link back up would loop.
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            find_runs(&e.path(), out);
        }
    }
}

/// Records the run in `dir` in the store at `store` (None: the default); a failure is a line
/// for the user, never the run's failure.
pub fn record_run(store: Option<&Path>, dir: &Path, r: &RunResult) -> Option<String> {
    if r.status == crate::results::RunStatus::Running {
        return None;
    }
    let abs = std::fs::canonicalize(dir).unwrap_or(dir.to_path_buf());
    in_store(store, |s| s.record(&Entry::of(&abs, r)))
}

/// Records every run under `dir` (a merged run or sweep) in the store at `store` (None: the
/// default); a failure is a line for the user.
pub fn record_dir(store: Option<&Path>, dir: &Path) -> Option<String> {
    in_store(store, |s| s.import(&[dir.to_path_buf()]).map(|_| ()))
}

/// Opens the store at `store` (None: the default) and does `what` in it; a failure is a line
/// for the user (the run directories hold everything; `txbench store import` adds it later).
fn in_store(store: Option<&Path>, what: impl FnOnce(&mut Store) -> Result<()>) -> Option<String> {
    let p = match path(store) {
        Ok(p) => p,
        Err(e) => {
            return Some(format!(
                "not recorded in the store: {}",
                crate::error::one_line(&e)
            ));
        }
    };
    Store::open(&p).and_then(|mut s| what(&mut s)).err().map(|e| {
        format!(
            "not recorded in the store {}: {} (the run directory has everything; `txbench store import` adds it later)",
            p.display(),
            crate::error::one_line(&e)
        )
    })
}

use crate::results::RunResult;

#[cfg(test)]
mod tests;
