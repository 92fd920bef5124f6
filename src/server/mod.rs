//! Throw-away local servers ("sandboxes"): MariaDB or MySQL, or PostgreSQL
//! (`--engine postgres`, its specifics in `engine/postgres/sandbox.rs`), from the machine's
//! packages, each in its own directory under the state directory, on 127.0.0.1 and a unix
//! socket.
//!
//! Layout of `$TXBENCH_HOME/servers/NAME/`: `server.json` (our marker and record),
//! `my.cnf` (the final generated configuration), `data/`, `error.log`, `mysqld.pid`,
//! `init.sql` (creates the benchmark database and user at every start), `tmp/`, `files/`
//! (the only place the server reads or writes files: `secure_file_priv`).
//!
//! Servers never run as root. Started by root, a MariaDB sandbox runs as the `mysql` user
//! and a PostgreSQL one as `postgres` (the packages make both), and what the server writes
//! lives where that account can reach it: `/var/lib/txbench/mysql/NAME-HASH/` (the layout
//! above but server.json; a copy of my.cnf stays in the sandbox) or the PostgreSQL data
//! directory. Started by another user, the server runs as that user, in the sandbox.
//!
//! Nobody logs in without proof: the benchmark user `txbench` has a password (the state
//! directory's secret, `secret.rs`) and only what workloads, metrics and experiments need;
//! administration goes through the unix socket as the operating-system account that owns
//! the sandboxes (MariaDB's unix_socket, PostgreSQL's peer authentication).

pub mod binary;
pub mod cluster;
pub mod cnf;
pub mod placement;
pub mod private;
pub mod process;
pub mod secret;
pub mod snapshot;

use crate::engine::{self, Engine, TargetUrl};
use crate::preflight::Preflight;
use anyhow::{Context, Result, bail};
use cnf::{CnfInputs, Flavor, Setting};
#[cfg(feature = "postgres")]
use engine::postgres::sandbox as pg;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod setup;
mod start;
mod stop;

pub use setup::*;
pub use start::*;
pub use stop::*;

/// The server used when a command needs a target and none was given.
pub const DEFAULT_NAME: &str = "default";
/// The benchmark user and database every sandbox gets.
pub const BENCH_USER: &str = "txbench";
/// See [`BENCH_USER`].
pub const BENCH_DB: &str = "txbench";
/// How long a server may take to accept connections (crash recovery of a large redo log
/// can take a while).
pub const START_TIMEOUT: Duration = Duration::from_secs(120);
/// How long a clean shutdown may take before SIGTERM, and SIGTERM before SIGKILL.
pub const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(60);
const TERM_TIMEOUT: Duration = Duration::from_secs(30);
/// Where root's MariaDB sandboxes keep their servers' files.
pub const ROOT_FILES_HOME: &str = "/var/lib/txbench/mysql";

/// Where sandboxes live: `$TXBENCH_HOME`, default `./.txbench`.
#[derive(Debug, Clone)]
pub struct StateDir {
    root: PathBuf,
}

impl StateDir {
    /// From `$TXBENCH_HOME` or `./.txbench`, made absolute.
    pub fn from_env() -> Result<StateDir> {
        let root = std::env::var_os("TXBENCH_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(".txbench"));
        Self::at(root)
    }

    /// A state directory at `root` (made absolute). One that exists must be this user's,
    /// writable by no other (it holds the sandboxes' secret and records, whose binaries and
    /// settings txbench runs): a `./.txbench` someone else made in a shared directory is
    /// refused, never used.
    pub fn at(root: impl Into<PathBuf>) -> Result<StateDir> {
        let root = root.into();
        let root = if root.is_absolute() {
            root
        } else {
            std::env::current_dir()
                .context("reading the current directory")?
                .join(root)
        };
        if fs::symlink_metadata(&root).is_ok() {
            crate::owned::check_dir(&root, "the state directory ($TXBENCH_HOME)")?;
        }
        Ok(StateDir { root })
    }

    /// Makes the state directory if it is not there yet (checked as [`StateDir::at`] does).
    pub fn make(&self) -> Result<()> {
        crate::owned::make_dir(&self.root, "the state directory ($TXBENCH_HOME)")
    }

    /// The directory of server `name`.
    pub fn server_dir(&self, name: &str) -> PathBuf {
        self.root.join("servers").join(name)
    }

    /// The state directory itself.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

/// What `server.json` records about a sandbox.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerRecord {
    /// The sandbox name.
    pub name: String,
    /// Its directory.
    pub dir: PathBuf,
    /// The server program.
    pub binary: PathBuf,
    /// MariaDB or MySQL.
    pub flavor: Flavor,
    /// `mariadbd --version` output.
    pub binary_version: String,
    /// TCP port on 127.0.0.1.
    pub port: u16,
    /// Unix socket.
    pub socket: PathBuf,
    /// The user's `--set` overrides, reapplied when a stopped server is started again.
    pub sets: Vec<Setting>,
    /// The user's `--config` file as it was read.
    pub user_config: Option<(PathBuf, String)>,
    /// True from a start until a clean stop: a server that is not running while this is
    /// set has died.
    pub expect_running: bool,
    /// The pid of the last start.
    pub pid: Option<i32>,
    /// SHA-256 of `binary` at the last start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binary_sha256: Option<String>,
    /// `--cpus`: the CPUs the server is pinned to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus: Option<Vec<usize>>,
    /// `--numa-node`: the node it is bound to (with numactl; only on a multi-node host).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub numa_node: Option<u32>,
    /// Its place in a topology (primary, replica, Galera node).
    #[serde(default)]
    pub role: cluster::Role,
    /// A data directory outside the sandbox (root's: the server's own account runs it and
    /// must reach it). MariaDB's other files sit beside it (see [`ServerRecord::files_home`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_dir: Option<PathBuf>,
}

impl ServerRecord {
    /// A record with placeholder values, for unit tests of what is derived from one.
    #[cfg(test)]
    pub fn for_tests() -> ServerRecord {
        ServerRecord {
            name: "t".into(),
            dir: "/nonexistent/t".into(),
            binary: "/usr/sbin/mariadbd".into(),
            flavor: Flavor::MariaDb,
            binary_version: String::new(),
            port: 3306,
            socket: "/nonexistent/t.sock".into(),
            sets: Vec::new(),
            user_config: None,
            expect_running: false,
            pid: None,
            binary_sha256: None,
            cpus: None,
            numa_node: None,
            role: cluster::Role::Standalone,
            data_dir: None,
        }
    }
    /// The engine the server speaks.
    pub fn engine(&self) -> Engine {
        self.flavor.engine()
    }
    fn path(dir: &Path) -> PathBuf {
        dir.join("server.json")
    }
    /// The generated my.cnf, or postgresql.conf, where the server's account reads it (a
    /// copy is kept in the sandbox directory).
    pub fn cnf(&self) -> PathBuf {
        match self.engine() {
            Engine::Mysql => self.files_home().join("my.cnf"),
            Engine::Postgres => self.datadir().join("postgresql.conf"),
        }
    }
    /// Where a MariaDB server's own files go (pid, socket, temporary files, init.sql, the
    /// error log): the sandbox directory, or for root the data directory's parent under
    /// /var/lib/txbench, which the `mysql` user owns.
    pub fn files_home(&self) -> PathBuf {
        match (self.engine(), &self.data_dir) {
            (Engine::Mysql, Some(d)) => d
                .parent()
                .map_or_else(|| self.dir.clone(), Path::to_path_buf),
            _ => self.dir.clone(),
        }
    }
    /// The one directory the server may read and write files in (`secure_file_priv`).
    pub fn files_dir(&self) -> PathBuf {
        self.files_home().join("files")
    }
    /// The state directory the sandbox belongs to (its secret is there).
    fn home_root(&self) -> PathBuf {
        self.dir
            .parent()
            .and_then(Path::parent)
            .map_or_else(|| self.dir.clone(), Path::to_path_buf)
    }
    /// The sandboxes' password (see `secret.rs`); None when there is none yet.
    fn secret(&self) -> Option<String> {
        secret::read(&self.home_root()).ok().flatten()
    }
    /// The data directory.
    pub fn datadir(&self) -> PathBuf {
        self.data_dir
            .clone()
            .unwrap_or_else(|| self.dir.join("data"))
    }
    /// The server's error log (MariaDB's: written by the server's account; PostgreSQL's:
    /// its standard error, opened by txbench).
    pub fn error_log(&self) -> PathBuf {
        match self.engine() {
            Engine::Mysql => self.files_home().join("error.log"),
            Engine::Postgres => self.dir.join("error.log"),
        }
    }
    /// The pid file the server writes.
    pub fn pid_file(&self) -> PathBuf {
        match self.engine() {
            Engine::Mysql => self.files_home().join("mysqld.pid"),
            Engine::Postgres => self.datadir().join("postmaster.pid"),
        }
    }
    /// The server's private temporary directory.
    pub fn tmpdir(&self) -> PathBuf {
        self.files_home().join("tmp")
    }
    fn init_sql(&self) -> PathBuf {
        self.files_home().join("init.sql")
    }
    /// The URL benchmarks use, as shown and as a user gives it (TCP on loopback, no
    /// password: txbench finds it, see `secret::fill`).
    pub fn url(&self) -> TargetUrl {
        TargetUrl {
            engine: self.engine(),
            scheme: self.engine().name().into(),
            user: BENCH_USER.into(),
            password: None,
            host: "127.0.0.1".into(),
            port: self.port,
            database: BENCH_DB.into(),
            socket: None,
            sandbox_login: false,
            sandbox_pid_file: None,
            sandbox_peer_of: None,
            sslmode: Default::default(),
            sslrootcert: None,
        }
    }
    /// [`ServerRecord::url`] with the password, to connect with (never to print).
    pub fn login_url(&self) -> TargetUrl {
        TargetUrl {
            password: self.secret(),
            sandbox_login: true,
            sandbox_pid_file: Some(self.pid_file()),
            ..self.url()
        }
    }
    /// The administrator's URL, through the unix socket: the operating-system account that
    /// owns the sandboxes (MariaDB's unix_socket authentication; Oracle MySQL's root with
    /// the secret), or PostgreSQL's `postgres` superuser (peer authentication, mapped from
    /// this account).
    pub fn admin_url(&self) -> TargetUrl {
        let socket = Some(self.socket.clone());
        match self.flavor {
            Flavor::MariaDb => TargetUrl {
                user: process::Account::current().name,
                socket,
                ..self.url()
            },
            Flavor::MySql => TargetUrl {
                user: "root".into(),
                password: self.secret(),
                sandbox_login: true,
                sandbox_pid_file: Some(self.pid_file()),
                socket,
                ..self.url()
            },
            Flavor::Postgres => TargetUrl {
                user: "postgres".into(),
                database: "postgres".into(),
                socket,
                ..self.url()
            },
        }
    }
    /// The benchmark user through the unix socket.
    pub fn socket_url(&self) -> TargetUrl {
        TargetUrl {
            socket: Some(self.socket.clone()),
            ..self.login_url()
        }
    }
    fn save(&self) -> Result<()> {
        let path = Self::path(&self.dir);
        let tmp = path.with_extension("json.tmp");
        fs::write(&tmp, serde_json::to_vec_pretty(self)?)
            .with_context(|| format!("writing {}", tmp.display()))?;
        fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }
    fn load(dir: &Path) -> Result<ServerRecord> {
        let path = Self::path(dir);
        let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        serde_json::from_slice(&bytes)
            .with_context(|| format!("{} is not a txbench server record", path.display()))
    }
}

/// The state of a sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum State {
    /// Running and accepting connections.
    Running {
        /// Its pid.
        pid: i32,
    },
    /// The process is there but does not accept connections (starting, stuck, or
    /// shutting down).
    NotResponding {
        /// Its pid.
        pid: i32,
    },
    /// Cleanly stopped.
    Stopped,
    /// Not running although it was not stopped by us: crashed or killed.
    Died {
        /// Why we think so.
        reason: String,
    },
}

impl State {
    /// The pid of a live server process.
    pub fn pid(&self) -> Option<i32> {
        match self {
            State::Running { pid } | State::NotResponding { pid } => Some(*pid),
            _ => None,
        }
    }
    /// One word for tables.
    pub fn word(&self) -> &'static str {
        match self {
            State::Running { .. } => "running",
            State::NotResponding { .. } => "not-responding",
            State::Stopped => "stopped",
            State::Died { .. } => "died",
        }
    }
}

/// A sandbox and its current state.
#[derive(Debug, Clone)]
pub struct Server {
    /// What server.json says.
    pub record: ServerRecord,
    /// What we see now.
    pub state: State,
}

/// Checks a sandbox name: it becomes a directory name.
pub fn validate_name(name: &str) -> Result<()> {
    if name.is_empty()
        || name.len() > 64
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        || name.starts_with('-')
    {
        bail!("--name '{name}': use 1-64 letters, digits, '_' or '-'");
    }
    Ok(())
}

/// Looks at a sandbox's process and socket.
pub fn inspect(record: ServerRecord) -> Server {
    let pid_from_file = fs::read_to_string(record.pid_file())
        .ok()
        .and_then(|s| s.trim().parse::<i32>().ok());
    let pid = pid_from_file.or(record.pid);
    let live = pid.filter(|p| process::alive(*p) && runs_with_cnf(*p, &record));
    let state = match live {
        Some(pid) => {
            if engine::connect(&record.admin_url()).is_ok() {
                State::Running { pid }
            } else {
                State::NotResponding { pid }
            }
        }
        None if pid_from_file.is_some() => State::Died {
            reason: format!(
                "stale pid file {} (pid {} is gone)",
                record.pid_file().display(),
                pid_from_file.unwrap_or_default()
            ),
        },
        None if record.expect_running => State::Died {
            reason: "it was not stopped by txbench".to_string(),
        },
        None => State::Stopped,
    };
    Server { record, state }
}

/// The sandbox called `name`; an unknown name is an error.
pub fn get(home: &StateDir, name: &str) -> Result<Server> {
    validate_name(name)?;
    let dir = home.server_dir(name);
    if !ServerRecord::path(&dir).exists() {
        bail!(
            "no server named '{name}' in {} (see `txbench server list`)",
            home.root().display()
        );
    }
    Ok(inspect(ServerRecord::load(&dir)?))
}

/// Every sandbox in the state directory, by name.
pub fn list(home: &StateDir) -> Result<Vec<Server>> {
    let dir = home.root().join("servers");
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(&dir) else {
        return Ok(out);
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        if ServerRecord::path(&entry.path()).exists() {
            out.push(inspect(ServerRecord::load(&entry.path())?));
        }
    }
    out.sort_by(|a, b| a.record.name.cmp(&b.record.name));
    Ok(out)
}

/// The last `lines` lines of a sandbox's error log.
pub fn logs(home: &StateDir, name: &str, lines: usize) -> Result<String> {
    let server = get(home, name)?;
    let log = server.record.error_log();
    let text = fs::read_to_string(&log).with_context(|| format!("reading {}", log.display()))?;
    let all: Vec<&str> = text.lines().collect();
    let from = all.len().saturating_sub(lines);
    Ok(all[from..].iter().map(|l| format!("{l}\n")).collect())
}

/// The target of a command given no `--url`: the `default` sandbox, started if it is not
/// running. Returns the URL and, if it had to be started, a line saying so.
pub fn default_target(home: &StateDir) -> Result<(TargetUrl, Option<String>)> {
    let started = start(
        home,
        &StartOptions {
            name: DEFAULT_NAME.into(),
            ..Default::default()
        },
    )
    .context(
        "no --url or TXBENCH_URL given, and the 'default' sandbox server could not be started",
    )?;
    let url = started.record.url();
    let note = started.started.then(|| {
        format!(
            "no --url given: started sandbox server '{DEFAULT_NAME}' at {url} (stop it with `txbench server stop`)"
        )
    });
    Ok((started.record.login_url(), note))
}

/// The socket the server listens on: MySQL's socket file, PostgreSQL's `.s.PGSQL.PORT`.
fn socket_file(record: &ServerRecord) -> PathBuf {
    match record.engine() {
        Engine::Mysql => record.socket.clone(),
        Engine::Postgres => record.socket.join(format!(".s.PGSQL.{}", record.port)),
    }
}

/// Whether process `pid` is this sandbox's server (its command line names our configuration).
fn runs_with_cnf(pid: i32, record: &ServerRecord) -> bool {
    match record.engine() {
        Engine::Mysql => process::runs_with_cnf(pid, &record.cnf()),
        #[cfg(feature = "postgres")]
        Engine::Postgres => process::runs_with_arg(pid, &pg::config_arg(&record.cnf())),
        #[cfg(not(feature = "postgres"))]
        Engine::Postgres => false,
    }
}

#[cfg(test)]
mod tests;
