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
mod private;
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

    /// A state directory at `root` (made absolute).
    pub fn at(root: impl Into<PathBuf>) -> Result<StateDir> {
        let root = root.into();
        let root = if root.is_absolute() {
            root
        } else {
            std::env::current_dir()
                .context("reading the current directory")?
                .join(root)
        };
        Ok(StateDir { root })
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
            sslmode: Default::default(),
            sslrootcert: None,
        }
    }
    /// [`ServerRecord::url`] with the password, to connect with (never to print).
    pub fn login_url(&self) -> TargetUrl {
        TargetUrl {
            password: self.secret(),
            sandbox_login: true,
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

/// Finds a program on PATH, then in the sbin directories packages install servers to
/// (a non-root PATH often lacks /usr/sbin).
pub fn find_program(names: &[&str]) -> Option<PathBuf> {
    find_program_in(&search_dirs(), names)
}

fn search_dirs() -> Vec<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(
            ["/usr/sbin", "/usr/local/sbin", "/usr/local/mysql/bin"]
                .iter()
                .map(PathBuf::from),
        )
        .collect()
}

fn find_program_in(dirs: &[PathBuf], names: &[&str]) -> Option<PathBuf> {
    names.iter().find_map(|name| {
        dirs.iter()
            .map(|d| d.join(name))
            .find(|p| p.is_file() && is_executable(p))
    })
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(p)
        .map(|m| m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

const INSTALL_HINT: &str =
    "install the Debian package mariadb-server (apt-get install mariadb-server)";

fn find_server_binary(dirs: &[PathBuf]) -> Result<(PathBuf, Flavor, String)> {
    let Some(binary) = find_program_in(dirs, &["mariadbd", "mysqld"]) else {
        bail!("mariadbd not found on PATH: {INSTALL_HINT}");
    };
    let (flavor, version) = binary::version_of(&binary)?;
    Ok((binary, flavor, version))
}

/// What `server start` was asked for.
#[derive(Debug, Clone, Default)]
pub struct StartOptions {
    /// Sandbox name.
    pub name: String,
    /// `--set` overrides.
    pub sets: Vec<Setting>,
    /// `--config FILE`.
    pub config: Option<PathBuf>,
    /// `--port N` (else a free port).
    pub port: Option<u16>,
    /// `--binary`: another mariadbd/mysqld build, with the same generated configuration.
    pub binary: Option<PathBuf>,
    /// `--cpus`: pin the server to these CPUs (checked against the host).
    pub cpus: Option<Vec<usize>>,
    /// `--numa-node`: bind the server to this node (numactl), where the host has several.
    pub numa_node: Option<u32>,
    /// Its place in a topology (set by [`cluster::start`]; None keeps what is recorded).
    pub role: Option<cluster::Role>,
    /// Start a new Galera cluster from this node (`--wsrep-new-cluster`).
    pub galera_new_cluster: bool,
    /// `--engine`: MariaDB/MySQL (the default for a new sandbox) or PostgreSQL.
    pub engine: Option<Engine>,
}

impl StartOptions {
    fn changes_settings(&self) -> bool {
        !self.sets.is_empty()
            || self.config.is_some()
            || self.port.is_some()
            || self.binary.is_some()
            || self.cpus.is_some()
            || self.numa_node.is_some()
    }
}

/// The outcome of `server start`.
#[derive(Debug, Clone)]
pub struct Started {
    /// The sandbox.
    pub record: ServerRecord,
    /// Its pid.
    pub pid: i32,
    /// False when it was already running and nothing was done.
    pub started: bool,
    /// Seconds from spawning the server to its first accepted connection (0 if it was
    /// already running). Bootstrap of a new data directory is in `bootstrap_seconds`.
    pub start_seconds: f64,
    /// Seconds spent creating a new data directory (0 when it existed).
    pub bootstrap_seconds: f64,
    /// Lines to show about placement (`--numa-node` on a single-node host).
    pub notes: Vec<String>,
    /// The server's pre-flight.
    pub preflight: Preflight,
}

/// Starts (creating if needed) the sandbox described by `opts`.
pub fn start(home: &StateDir, opts: &StartOptions) -> Result<Started> {
    validate_name(&opts.name)?;
    secret::ensure(home)?;
    let dir = home.server_dir(&opts.name);
    let existing_engine = ServerRecord::load(&dir).ok().map(|r| r.engine());
    if let (Some(want), Some(has)) = (opts.engine, existing_engine)
        && want != has
    {
        bail!(
            "--engine {}: server '{}' is a {} sandbox (choose another name for a {} one)",
            want.name(),
            opts.name,
            has.product(),
            want.product()
        );
    }
    let engine = opts.engine.or(existing_engine).unwrap_or_default();
    #[cfg(feature = "postgres")]
    if engine == Engine::Postgres {
        for set in &opts.sets {
            if let Some(m) = pg::managed(&set.key) {
                bail!("--set {}: {m}", set.key);
            }
        }
    }
    let user_config = match &opts.config {
        Some(path) => {
            let text = fs::read_to_string(path)
                .with_context(|| format!("--config {}: cannot read it", path.display()))?;
            match engine {
                Engine::Mysql => cnf::check_user_config(path, &text)?,
                #[cfg(feature = "postgres")]
                Engine::Postgres => pg::check_user_config(path, &text)?,
                #[cfg(not(feature = "postgres"))]
                Engine::Postgres => bail!("this txbench was built without PostgreSQL"),
            }
            Some((path.clone(), text))
        }
        None => None,
    };
    if let Some(port) = opts.port {
        if port == 0 {
            bail!("--port 0: give a port from 1 to 65535, or leave --port out for a free one");
        }
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_err() {
            bail!("--port {port}: the port is already in use on 127.0.0.1");
        }
    }

    let existing = if ServerRecord::path(&dir).exists() {
        Some(ServerRecord::load(&dir)?)
    } else {
        if dir.exists()
            && fs::read_dir(&dir)
                .map(|mut d| d.next().is_some())
                .unwrap_or(true)
        {
            bail!(
                "{} exists but was not created by txbench (no server.json): remove it or choose another --name",
                dir.display()
            );
        }
        None
    };

    let mut record = match existing {
        Some(rec) => {
            let server = inspect(rec);
            if let Some(pid) = server.state.pid() {
                if opts.changes_settings() {
                    bail!(
                        "server '{}' is already running; stop it first to change --set, --config or --port",
                        opts.name
                    );
                }
                let mut conn = engine::connect(&server.record.socket_url())?;
                let preflight = engine::preflight(&mut conn)?;
                return Ok(Started {
                    record: server.record,
                    pid,
                    started: false,
                    start_seconds: 0.0,
                    bootstrap_seconds: 0.0,
                    notes: Vec::new(),
                    preflight,
                });
            }
            let mut rec = server.record;
            if rec.engine() == Engine::Mysql && process::is_root() && rec.data_dir.is_none() {
                bail!(
                    "server '{}' was made by an older txbench that ran it as root: remove it with `txbench server stop --rm {}` and start it again",
                    rec.name,
                    rec.name
                );
            }
            if opts.changes_settings() {
                rec.sets = opts.sets.clone();
                rec.user_config = user_config;
                rec.cpus = opts.cpus.clone();
                rec.numa_node = opts.numa_node;
                if let Some(b) = &opts.binary {
                    let (binary, flavor, version) = binary::check(b)?;
                    rec.binary = binary;
                    rec.flavor = flavor;
                    rec.binary_version = version;
                }
            }
            if let Some(role) = &opts.role {
                rec.role = role.clone();
            }
            // A stale pid file from a crash would confuse the next start.
            let _ = fs::remove_file(rec.pid_file());
            rec
        }
        None => {
            let (binary, flavor, binary_version) = match (engine, &opts.binary) {
                (Engine::Mysql, Some(b)) => binary::check(b)?,
                (Engine::Mysql, None) => find_server_binary(&search_dirs())?,
                #[cfg(feature = "postgres")]
                (Engine::Postgres, b) => {
                    let (binary, version) = match b {
                        Some(b) => (b.clone(), pg::version_of(b)?),
                        None => pg::find_server(&search_dirs())?,
                    };
                    (binary, Flavor::Postgres, version)
                }
                #[cfg(not(feature = "postgres"))]
                (Engine::Postgres, _) => bail!("this txbench was built without PostgreSQL"),
            };
            // Before anything is created: root needs the server's own account to run it.
            server_account(engine)?;
            // Only its owner may look in (the configuration, the error log).
            private::make_dir(&dir, None)?;
            let data_dir = match engine {
                #[cfg(feature = "postgres")]
                Engine::Postgres => pg::data_dir(&dir, &opts.name),
                #[cfg(not(feature = "postgres"))]
                Engine::Postgres => None,
                Engine::Mysql => root_files_home(&dir, &opts.name).map(|h| h.join("data")),
            };
            let socket = match (engine, &data_dir) {
                // PostgreSQL's socket directory: its data directory (the postgres user's).
                (Engine::Postgres, Some(d)) => private::postgres_socket_dir(d, &dir),
                (Engine::Postgres, None) => private::postgres_socket_dir(&dir.join("data"), &dir),
                (Engine::Mysql, Some(d)) => private::socket_path(d.parent().unwrap_or(&dir)),
                (Engine::Mysql, None) => private::socket_path(&dir),
            };
            let rec = ServerRecord {
                name: opts.name.clone(),
                socket,
                data_dir,
                dir,
                binary,
                flavor,
                binary_version,
                port: 0,
                sets: opts.sets.clone(),
                user_config,
                expect_running: false,
                pid: None,
                binary_sha256: None,
                cpus: opts.cpus.clone(),
                numa_node: opts.numa_node,
                role: opts.role.clone().unwrap_or_default(),
            };
            // Saved before anything can fail, so the directory is known to be ours.
            rec.save()?;
            rec
        }
    };
    if !record.binary.is_file() {
        bail!(
            "{} is gone (server '{}' was created with it): {INSTALL_HINT}",
            record.binary.display(),
            record.name
        );
    }

    // A port chosen by us can be taken by someone else before the server binds it;
    // then try another. A port the user chose is tried once.
    let attempts = if opts.port.is_some() { 1 } else { 3 };
    let mut last_err = None;
    for _ in 0..attempts {
        record.port = match opts.port {
            Some(p) => p,
            None if record.port != 0 && port_free(record.port) => record.port,
            None => free_port()?,
        };
        match start_once(&mut record, opts.galera_new_cluster) {
            Ok(started) => return Ok(started),
            Err(StartError::PortTaken(e)) => {
                record.port = 0;
                last_err = Some(e);
            }
            Err(StartError::Other(e)) => return Err(e),
        }
    }
    Err(last_err.unwrap_or_else(|| anyhow::anyhow!("could not start the server")))
}

/// Wraps a start failure with what to do next.
fn start_failure(record: &ServerRecord, what: &str, excerpt: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "server '{}' {what}; {excerpt} (fix the settings and start again, or remove it with `txbench server stop --rm {}`)",
        record.name,
        record.name
    )
}

enum StartError {
    PortTaken(anyhow::Error),
    Other(anyhow::Error),
}

impl From<anyhow::Error> for StartError {
    fn from(e: anyhow::Error) -> Self {
        StartError::Other(e)
    }
}

/// The account a server runs as: None (this process's own), or for root the engine's
/// (`mysql`, `postgres`), which Debian's server packages create.
pub fn server_account(engine: Engine) -> Result<Option<process::Account>> {
    if !process::is_root() {
        return Ok(None);
    }
    let (name, hint) = match engine {
        Engine::Mysql => ("mysql", INSTALL_HINT),
        #[cfg(feature = "postgres")]
        Engine::Postgres => ("postgres", pg::INSTALL_HINT),
        #[cfg(not(feature = "postgres"))]
        Engine::Postgres => ("postgres", INSTALL_HINT),
    };
    match process::Account::named(name) {
        Some(a) => Ok(Some(a)),
        None => bail!(
            "{} sandboxes do not run as root and there is no '{name}' user to run them as: {hint}",
            engine.product()
        ),
    }
}

/// Where root's MariaDB sandbox keeps what its server writes (the `mysql` user must reach
/// it; the sandbox may sit under a directory only root can enter); None for another user.
fn root_files_home(sandbox: &Path, name: &str) -> Option<PathBuf> {
    if !process::is_root() {
        return None;
    }
    let h = cnf::path_hash(sandbox) as u32;
    Some(PathBuf::from(ROOT_FILES_HOME).join(format!("{name}-{h:08x}")))
}

fn port_free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}

fn free_port() -> Result<u16> {
    let l = std::net::TcpListener::bind(("127.0.0.1", 0)).context("finding a free port")?;
    Ok(l.local_addr()?.port())
}

#[cfg(feature = "postgres")]
fn write_postgres_conf(record: &ServerRecord) -> Result<()> {
    let owner = server_account(Engine::Postgres)?;
    if !record.socket.starts_with(record.datadir()) {
        private::make_dir(&record.socket, owner.as_ref())?;
    }
    // Who may log in, and how: written at every start (a sandbox made when it trusted
    // everyone on loopback is brought in line).
    let datadir = record.datadir();
    let me = process::Account::current().name;
    private::write(
        &datadir.join("pg_hba.conf"),
        &pg::hba_conf(),
        owner.as_ref(),
    )?;
    private::write(
        &datadir.join("pg_ident.conf"),
        &pg::ident_conf(&me),
        owner.as_ref(),
    )?;
    let user_config = record
        .user_config
        .as_ref()
        .map(|(p, t)| (p.as_path(), t.as_str()));
    let text = pg::render(&pg::ConfInputs {
        name: &record.name,
        socket_dir: &record.socket,
        port: record.port,
        mem_bytes: cnf::mem_total() / record.role.members(),
        user_config,
        sets: &record.sets,
    });
    // The one the server reads (in its data directory), and the copy kept with the sandbox.
    private::write(&record.cnf(), &text, owner.as_ref())?;
    let kept = record.dir.join("postgresql.conf");
    fs::write(&kept, &text).with_context(|| format!("writing {}", kept.display()))
}

fn write_cnf(record: &ServerRecord) -> Result<()> {
    if record.engine() == Engine::Postgres {
        #[cfg(feature = "postgres")]
        return write_postgres_conf(record);
    }
    let owner = server_account(Engine::Mysql)?;
    for d in [record.files_home(), record.tmpdir(), record.files_dir()] {
        private::make_dir(&d, owner.as_ref())?;
    }
    // A socket in a short directory of its own, when the sandbox's path is too long.
    if let Some(sock_dir) = record.socket.parent()
        && sock_dir != record.files_home()
    {
        private::make_dir(sock_dir, owner.as_ref())?;
    }
    let user_config = record
        .user_config
        .as_ref()
        .map(|(p, t)| (p.as_path(), t.as_str()));
    let topology = cluster::role_settings(record);
    let text = cnf::render(&CnfInputs {
        name: &record.name,
        flavor: record.flavor,
        datadir: &record.datadir(),
        socket: &record.socket,
        port: record.port,
        pid_file: &record.pid_file(),
        error_log: &record.error_log(),
        tmpdir: &record.tmpdir(),
        files: &record.files_dir(),
        // The servers of a topology share the machine.
        mem_bytes: cnf::mem_total() / record.role.members(),
        user_config,
        sets: &record.sets,
        topology: &topology,
    });
    // The one the server reads (where its account can), and the copy kept with the sandbox.
    private::write(&record.cnf(), &text, owner.as_ref())?;
    let kept = record.dir.join("my.cnf");
    if kept != record.cnf() {
        fs::write(&kept, &text).with_context(|| format!("writing {}", kept.display()))?;
    }
    Ok(())
}

/// The databases the benchmark user owns on MariaDB/MySQL: `txbench` and any whose name
/// starts with it (`txbench_2`, …), where it may do everything a workload does (tables,
/// indexes, routines, triggers, views, create and drop the database). Nowhere else: data
/// privileges on `*.*` would include the `mysql` schema, and with it every account.
pub const BENCH_DATABASES: &str = "txbench%";
/// What the benchmark user may do server-wide: read what the sampler reads (processlist
/// and InnoDB metrics, binary log and replica status) and replicate (replicas log in with
/// it). Nothing that reaches past the server: no FILE, SUPER, SHUTDOWN, RELOAD, CREATE
/// USER or GRANT OPTION.
pub const BENCH_GLOBAL_GRANTS: &str = "PROCESS, REPLICATION SLAVE, REPLICATION CLIENT";
/// MariaDB's names for reading a replica's status and a primary's replicas (SHOW SLAVE
/// STATUS, SHOW SLAVE HOSTS), beside [`BENCH_GLOBAL_GRANTS`].
const MARIADB_GRANTS: &str = ", SLAVE MONITOR, REPLICATION MASTER ADMIN";

/// The statements a MariaDB/MySQL sandbox runs at every start (`--init-file`): the
/// benchmark database, and the benchmark user with the secret's hash and its privileges
/// (also on a sandbox made before they were narrowed). Oracle MySQL's root, which
/// `--initialize-insecure` leaves without a password, gets the secret too.
fn init_sql(flavor: Flavor, secret: &str) -> String {
    // Every server of a topology runs this itself: kept out of the binary log, so that a
    // semi-synchronous primary does not wait for a replica at its start.
    let mut s = String::from("SET SESSION sql_log_bin = 0;\n");
    s.push_str(&format!("CREATE DATABASE IF NOT EXISTS `{BENCH_DB}`;\n"));
    let hash = secret::mysql_native_hash(secret);
    let identified = match flavor {
        Flavor::MySql => format!("IDENTIFIED WITH mysql_native_password AS '{hash}'"),
        _ => format!("IDENTIFIED BY PASSWORD '{hash}'"),
    };
    for host in ["localhost", "127.0.0.1", "::1"] {
        s.push_str(&format!(
            "CREATE USER IF NOT EXISTS '{BENCH_USER}'@'{host}' {identified};\n\
             ALTER USER '{BENCH_USER}'@'{host}' {identified};\n\
             REVOKE ALL PRIVILEGES, GRANT OPTION FROM '{BENCH_USER}'@'{host}';\n\
             GRANT {BENCH_GLOBAL_GRANTS}{extra} ON *.* TO '{BENCH_USER}'@'{host}';\n\
             GRANT ALL PRIVILEGES ON `{BENCH_DATABASES}`.* TO '{BENCH_USER}'@'{host}';\n\
             GRANT SELECT ON performance_schema.* TO '{BENCH_USER}'@'{host}';\n",
            extra = if flavor == Flavor::MariaDb {
                MARIADB_GRANTS
            } else {
                ""
            }
        ));
    }
    if flavor == Flavor::MySql {
        s.push_str(&format!("ALTER USER 'root'@'localhost' {identified};\n"));
    }
    s
}

fn bootstrap(record: &ServerRecord) -> Result<()> {
    let datadir = record.datadir();
    let log = record.error_log();
    let offset = file_len(&log);
    let mut cmd = match record.flavor {
        #[cfg(feature = "postgres")]
        Flavor::Postgres => {
            let owner = server_account(Engine::Postgres)?;
            private::make_dir(&datadir, owner.as_ref())?;
            let mut c = pg::initdb(&record.binary, &datadir)?;
            if let Some(a) = &owner {
                a.apply(&mut c, &datadir);
            }
            c
        }
        #[cfg(not(feature = "postgres"))]
        Flavor::Postgres => bail!("this txbench was built without PostgreSQL"),
        Flavor::MariaDb => {
            let Some(install) = find_program(&["mariadb-install-db", "mysql_install_db"]) else {
                bail!("mariadb-install-db not found on PATH: {INSTALL_HINT}");
            };
            let mut c = Command::new(install);
            c.arg(format!("--defaults-file={}", record.cnf().display()))
                .arg(format!("--datadir={}", datadir.display()))
                // root and the account given here log in through the socket as themselves
                // (unix_socket), nobody else and with no password.
                .arg("--auth-root-authentication-method=socket")
                .arg("--skip-test-db");
            match server_account(Engine::Mysql)? {
                // The data directory becomes mysql's, and mysql@localhost administers
                // (Galera's state transfer connects as it).
                Some(a) => c.arg(format!("--user={}", a.name)),
                None => c.arg(format!(
                    "--auth-root-socket-user={}",
                    process::Account::current().name
                )),
            };
            // The server it runs as mysql would see a password in a TXBENCH_URL.
            c.env_remove("TXBENCH_URL");
            c
        }
        Flavor::MySql => {
            let mut c = Command::new(&record.binary);
            c.arg(format!("--defaults-file={}", record.cnf().display()))
                .arg("--initialize-insecure");
            if let Some(a) = server_account(Engine::Mysql)? {
                c.arg(format!("--user={}", a.name));
            }
            c
        }
    };
    let out_file = open_append(&log)?;
    let status = cmd
        .stdin(Stdio::null())
        .stdout(out_file.try_clone()?)
        .stderr(out_file)
        .status()
        .context("running the server's install program")?;
    if !status.success() {
        let _ = fs::remove_dir_all(&datadir);
        return Err(start_failure(
            record,
            &format!("failed to create its data directory ({status})"),
            &log_excerpt(&log, offset),
        ));
    }
    Ok(())
}

fn start_once(
    record: &mut ServerRecord,
    galera_new_cluster: bool,
) -> std::result::Result<Started, StartError> {
    let postgres = record.engine() == Engine::Postgres;
    let needs_bootstrap = if postgres {
        !record.datadir().join("PG_VERSION").is_file()
    } else {
        !record.datadir().join("mysql").is_dir()
    };
    let mut bootstrap_seconds = 0.0;
    // initdb wants an empty directory: PostgreSQL's configuration is written into the new one.
    if postgres && needs_bootstrap {
        let t = Instant::now();
        bootstrap(record)?;
        bootstrap_seconds = t.elapsed().as_secs_f64();
    }
    write_cnf(record)?;
    let mut notes = Vec::new();
    // The exact build, for the pre-flight (a rebuilt binary at the same path differs).
    record.binary_sha256 = Some(binary::sha256(&record.binary)?);
    let numactl = match record.numa_node {
        Some(node) => {
            let nodes = placement::numa_nodes();
            if nodes <= 1 {
                notes.push(format!(
                    "--numa-node {node}: this host has one NUMA node; the server is not bound"
                ));
                None
            } else if u64::from(node) >= nodes as u64 {
                return Err(StartError::Other(anyhow::anyhow!(
                    "--numa-node {node}: this host has NUMA nodes 0-{}",
                    nodes - 1
                )));
            } else {
                let Some(numactl) = find_program(&["numactl"]) else {
                    return Err(StartError::Other(anyhow::anyhow!(
                        "--numa-node {node}: numactl not found: install the Debian package numactl"
                    )));
                };
                Some((numactl, node))
            }
        }
        None => None,
    };
    if !postgres && needs_bootstrap {
        let t = Instant::now();
        bootstrap(record)?;
        bootstrap_seconds = t.elapsed().as_secs_f64();
    }
    if !postgres {
        let Some(secret) = record.secret() else {
            return Err(StartError::Other(anyhow::anyhow!(
                "{} is missing: the sandboxes' password",
                secret::path(&record.home_root()).display()
            )));
        };
        private::write(
            &record.init_sql(),
            &init_sql(record.flavor, &secret),
            server_account(Engine::Mysql)?.as_ref(),
        )?;
    }
    let log = record.error_log();
    let offset = file_len(&log);
    let out = open_append(&log)?;
    let t = Instant::now();
    let mut child = {
        use std::os::unix::process::CommandExt;
        let mut cmd = match &numactl {
            Some((numactl, node)) => {
                let mut c = Command::new(numactl);
                c.arg(format!("--cpunodebind={node}"))
                    .arg(format!("--membind={node}"))
                    .arg(&record.binary);
                c
            }
            None => Command::new(&record.binary),
        };
        if let Some(cpus) = &record.cpus {
            placement::pin_command(&mut cmd, cpus);
        }
        if postgres {
            #[cfg(feature = "postgres")]
            {
                cmd.arg("-D")
                    .arg(record.datadir())
                    .arg("-c")
                    .arg(pg::config_arg(&record.cnf()));
            }
        } else {
            cmd.arg(format!("--defaults-file={}", record.cnf().display()))
                .arg(format!("--init-file={}", record.init_sql().display()));
        }
        if let Some(a) = server_account(record.engine())? {
            let home = match record.engine() {
                Engine::Mysql => record.files_home(),
                Engine::Postgres => record.datadir(),
            };
            a.apply(&mut cmd, &home);
        }
        if galera_new_cluster {
            cmd.arg("--wsrep-new-cluster");
        }
        cmd.stdin(Stdio::null())
            .stdout(out.try_clone().map_err(anyhow::Error::from)?)
            .stderr(out)
            // Its own process group: Ctrl-C in the terminal must not kill the sandbox.
            .process_group(0)
            .spawn()
            .with_context(|| format!("starting {}", record.binary.display()))?
    };
    let pid = child.id() as i32;
    record.pid = Some(pid);
    record.expect_running = true;
    record.save()?;
    let deadline = t + START_TIMEOUT;
    let socket_url = record.socket_url();
    loop {
        if let Some(status) = child.try_wait().map_err(anyhow::Error::from)? {
            record.expect_running = false;
            record.save()?;
            let excerpt = log_excerpt(&log, offset);
            let err = start_failure(record, &format!("failed to start ({status})"), &excerpt);
            if excerpt.contains("Address already in use") {
                return Err(StartError::PortTaken(err));
            }
            return Err(StartError::Other(err));
        }
        if socket_file(record).exists()
            && let Ok(mut conn) = engine::connect(&record.admin_url())
        {
            let start_seconds = t.elapsed().as_secs_f64();
            if postgres {
                drop(conn);
                #[cfg(feature = "postgres")]
                {
                    let secret = record
                        .secret()
                        .context("the sandboxes' secret is missing")?;
                    pg::create_bench_db(&record.admin_url(), BENCH_USER, BENCH_DB, &secret)?;
                }
                conn = engine::connect(&socket_url)?;
            }
            let preflight = engine::preflight(&mut conn)?;
            return Ok(Started {
                record: record.clone(),
                pid,
                started: true,
                start_seconds,
                bootstrap_seconds,
                notes: std::mem::take(&mut notes),
                preflight,
            });
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            record.expect_running = false;
            record.save()?;
            return Err(StartError::Other(start_failure(
                record,
                &format!(
                    "did not accept connections within {} s",
                    START_TIMEOUT.as_secs()
                ),
                &log_excerpt(&log, offset),
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn open_append(path: &Path) -> Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))
}

fn file_len(path: &Path) -> u64 {
    fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// The error-log lines written since `offset`, for a failure message: the `[ERROR]` lines
/// if there are any, else the last few lines, joined with ` | `.
pub fn log_excerpt(log: &Path, offset: u64) -> String {
    let mut text = String::new();
    if let Ok(mut f) = fs::File::open(log) {
        let _ = f.seek(SeekFrom::Start(offset));
        let _ = f.read_to_string(&mut text);
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let errors: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains("[ERROR]"))
        .collect();
    let chosen: Vec<&str> = if errors.is_empty() {
        lines.iter().rev().take(5).rev().copied().collect()
    } else {
        errors.iter().rev().take(5).rev().copied().collect()
    };
    if chosen.is_empty() {
        format!("the error log {} says nothing", log.display())
    } else {
        format!("error log {}: {}", log.display(), chosen.join(" | "))
    }
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

/// How a server was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopMethod {
    /// It was not running.
    NotRunning,
    /// SQL `SHUTDOWN`.
    Shutdown,
    /// SIGTERM after the SQL shutdown did not finish in time.
    Sigterm,
    /// SIGKILL as the last resort.
    Sigkill,
}

/// The outcome of `server stop`.
#[derive(Debug, Clone, Serialize)]
pub struct Stopped {
    /// The sandbox name.
    pub name: String,
    /// How it went down.
    pub method: StopMethod,
    /// Seconds from the request to the process being gone.
    pub seconds: f64,
    /// Whether the data was deleted (`--rm`).
    pub removed: bool,
    /// The state before stopping (e.g. `died` for a crashed server).
    pub was: String,
}

/// Stops a sandbox: SQL shutdown, then SIGTERM, then SIGKILL, each bounded; `rm` deletes
/// its directory.
pub fn stop(home: &StateDir, name: &str, rm: bool) -> Result<Stopped> {
    let server = get(home, name)?;
    let was = server.state.word().to_string();
    let mut record = server.record;
    let t = Instant::now();
    let method = match server.state.pid() {
        None => StopMethod::NotRunning,
        Some(pid) => {
            let asked = match record.engine() {
                Engine::Mysql => engine::connect(&record.admin_url())
                    .and_then(|mut c| c.query_drop("SHUTDOWN").map_err(anyhow::Error::from))
                    .is_ok(),
                // SIGINT is PostgreSQL's fast shutdown: sessions end, a checkpoint, exit.
                Engine::Postgres => {
                    process::signal(pid, libc::SIGINT);
                    true
                }
            };
            if asked && process::wait_exit(pid, SHUTDOWN_TIMEOUT) {
                StopMethod::Shutdown
            } else {
                process::signal(pid, libc::SIGTERM);
                if process::wait_exit(pid, TERM_TIMEOUT) {
                    StopMethod::Sigterm
                } else {
                    process::signal(pid, libc::SIGKILL);
                    if !process::wait_exit(pid, Duration::from_secs(10)) {
                        bail!("server '{name}' (pid {pid}) survived SIGKILL");
                    }
                    StopMethod::Sigkill
                }
            }
        }
    };
    let seconds = t.elapsed().as_secs_f64();
    let _ = fs::remove_file(record.pid_file());
    record.expect_running = false;
    if rm {
        fs::remove_dir_all(&record.dir)
            .with_context(|| format!("removing {}", record.dir.display()))?;
        if !record.socket.starts_with(&record.dir) {
            let _ = fs::remove_file(&record.socket);
            // A short socket directory of its own goes with it.
            if let Some(d) = record.socket.parent()
                && record.engine() == Engine::Mysql
                && d != record.files_home()
            {
                let _ = fs::remove_dir_all(d);
            }
        }
        if let Some(data) = &record.data_dir {
            // MariaDB's server files sit around its data directory.
            let data = match record.engine() {
                Engine::Mysql => record.files_home(),
                Engine::Postgres => data.clone(),
            };
            fs::remove_dir_all(&data).with_context(|| format!("removing {}", data.display()))?;
        }
        if record.engine() == Engine::Postgres && !record.socket.starts_with(record.datadir()) {
            let _ = fs::remove_dir_all(&record.socket);
        }
    } else {
        record.save()?;
    }
    Ok(Stopped {
        name: name.to_string(),
        method,
        seconds,
        removed: rm,
        was,
    })
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
