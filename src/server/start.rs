//! Starting a sandbox: the account it runs as, a free port, the configuration written, the server
//! spawned and waited for until it accepts connections (or its error log explains why not).

use super::*;

mod launch;

/// Finds a program on PATH, then in the sbin directories packages install servers to
/// (a non-root PATH often lacks /usr/sbin).
pub fn find_program(names: &[&str]) -> Option<PathBuf> {
    find_program_in(&search_dirs(), names)
}

pub(super) fn search_dirs() -> Vec<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(
            ["/usr/sbin", "/usr/local/sbin", "/usr/local/mysql/bin"]
                .iter()
                .map(PathBuf::from),
        )
        .collect()
}

pub(super) fn find_program_in(dirs: &[PathBuf], names: &[&str]) -> Option<PathBuf> {
    names.iter().find_map(|name| {
        dirs.iter()
            .map(|d| d.join(name))
            .find(|p| p.is_file() && is_executable(p))
    })
}

pub(super) fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(p)
        .map(|m| m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

pub(super) const INSTALL_HINT: &str =
    "install the Debian package mariadb-server (apt-get install mariadb-server)";

pub(super) fn find_server_binary(dirs: &[PathBuf]) -> Result<(PathBuf, Flavor, String)> {
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
    let plan = plan(home, opts)?;
    let mut record = match existing_record(&plan.dir)? {
        Some(rec) => {
            let server = inspect(rec);
            if let Some(pid) = server.state.pid() {
                return already_running(server.record, pid, opts);
            }
            restart_record(server.record, plan)?
        }
        None => new_record(plan)?,
    };
    check_binary_is_there(&record)?;
    start_on_a_port(&mut record, opts)
}

/// What [`start`] settled before it touches the sandbox: the request, its engine, the
/// sandbox's directory and the `--config` file with its text.
struct Plan<'a> {
    opts: &'a StartOptions,
    engine: Engine,
    dir: PathBuf,
    user_config: Option<(PathBuf, String)>,
}

/// Checks the request before anything is created or started: the name, the secret, the
/// engine, the `--config` file, the settings and `--port`.
fn plan<'a>(home: &StateDir, opts: &'a StartOptions) -> Result<Plan<'a>> {
    validate_name(&opts.name)?;
    secret::ensure(home)?;
    let dir = home.server_dir(&opts.name);
    let engine = engine_of(opts, &dir)?;
    let user_config = read_user_config(opts)?;
    // Before anything is created or started.
    setup::check_settings(
        engine,
        &opts.sets,
        user_config.as_ref().map(|(p, t)| (p.as_path(), t.as_str())),
    )?;
    check_port(opts.port)?;
    Ok(Plan {
        opts,
        engine,
        dir,
        user_config,
    })
}

/// The engine asked for, else the existing sandbox's, else the default; an error when the
/// one asked for is not the existing sandbox's.
fn engine_of(opts: &StartOptions, dir: &Path) -> Result<Engine> {
    let existing_engine = ServerRecord::load(dir).ok().map(|r| r.engine());
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
    Ok(opts.engine.or(existing_engine).unwrap_or_default())
}

/// `--config FILE`: its path and text.
fn read_user_config(opts: &StartOptions) -> Result<Option<(PathBuf, String)>> {
    Ok(match &opts.config {
        Some(path) => {
            let text = fs::read_to_string(path)
                .with_context(|| format!("--config {}: cannot read it", path.display()))?;
            Some((path.clone(), text))
        }
        None => None,
    })
}

/// `--port N`: not 0, and free on 127.0.0.1.
fn check_port(port: Option<u16>) -> Result<()> {
    if let Some(port) = port {
        if port == 0 {
            bail!("--port 0: give a port from 1 to 65535, or leave --port out for a free one");
        }
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_err() {
            bail!("--port {port}: the port is already in use on 127.0.0.1");
        }
    }
    Ok(())
}

/// The sandbox's record, None for a new sandbox; an error for a directory that holds
/// something txbench did not make.
fn existing_record(dir: &Path) -> Result<Option<ServerRecord>> {
    Ok(if ServerRecord::path(dir).exists() {
        Some(ServerRecord::load(dir)?)
    } else {
        if dir.exists()
            && fs::read_dir(dir)
                .map(|mut d| d.next().is_some())
                .unwrap_or(true)
        {
            bail!(
                "{} exists but was not created by txbench (no server.json): remove it or choose another --name",
                dir.display()
            );
        }
        None
    })
}

/// The outcome for a sandbox that is already running (nothing done); an error when the
/// request would change its settings.
fn already_running(record: ServerRecord, pid: i32, opts: &StartOptions) -> Result<Started> {
    if opts.changes_settings() {
        bail!(
            "server '{}' is already running; stop it first to change --set, --config or --port",
            opts.name
        );
    }
    let mut conn = engine::connect(&record.socket_url())?;
    let preflight = engine::preflight(&mut conn)?;
    Ok(Started {
        record,
        pid,
        started: false,
        start_seconds: 0.0,
        bootstrap_seconds: 0.0,
        notes: Vec::new(),
        preflight,
    })
}

/// A stopped sandbox's record with the request's settings and role, and its stale pid file
/// removed.
fn restart_record(mut rec: ServerRecord, plan: Plan<'_>) -> Result<ServerRecord> {
    let opts = plan.opts;
    if rec.engine() == Engine::Mysql && process::is_root() && rec.data_dir.is_none() {
        bail!(
            "server '{}' was made by an older txbench that ran it as root: remove it with `txbench server stop --rm {}` and start it again",
            rec.name,
            rec.name
        );
    }
    if opts.changes_settings() {
        rec.sets = opts.sets.clone();
        rec.user_config = plan.user_config;
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
    Ok(rec)
}

/// A new sandbox: its server binary found, its directory made, its record saved.
fn new_record(plan: Plan<'_>) -> Result<ServerRecord> {
    let Plan {
        opts,
        engine,
        dir,
        user_config,
    } = plan;
    let (binary, flavor, binary_version) = server_binary(engine, opts.binary.as_ref())?;
    // Before anything is created: root needs the server's own account to run it.
    server_account(engine)?;
    // Only its owner may look in (the configuration, the error log).
    private::make_dir(&dir, None)?;
    let (data_dir, socket) = data_dir_and_socket(engine, &dir, &opts.name);
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
    Ok(rec)
}

/// The server binary of a new sandbox (`--binary`, else found), its flavor and version.
fn server_binary(engine: Engine, binary: Option<&PathBuf>) -> Result<(PathBuf, Flavor, String)> {
    Ok(match (engine, binary) {
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
    })
}

/// A new sandbox's data directory (None: the sandbox's own) and socket.
fn data_dir_and_socket(engine: Engine, dir: &Path, name: &str) -> (Option<PathBuf>, PathBuf) {
    let data_dir = match engine {
        #[cfg(feature = "postgres")]
        Engine::Postgres => pg::data_dir(dir, name),
        #[cfg(not(feature = "postgres"))]
        Engine::Postgres => None,
        Engine::Mysql => root_files_home(dir, name).map(|h| h.join("data")),
    };
    let socket = match (engine, &data_dir) {
        // PostgreSQL's socket directory: its data directory (the postgres user's).
        (Engine::Postgres, Some(d)) => private::postgres_socket_dir(d, dir),
        (Engine::Postgres, None) => private::postgres_socket_dir(&dir.join("data"), dir),
        (Engine::Mysql, Some(d)) => private::socket_path(d.parent().unwrap_or(dir)),
        (Engine::Mysql, None) => private::socket_path(dir),
    };
    (data_dir, socket)
}

/// An error when the binary the sandbox was created with is gone.
fn check_binary_is_there(record: &ServerRecord) -> Result<()> {
    if !record.binary.is_file() {
        bail!(
            "{} is gone (server '{}' was created with it): {INSTALL_HINT}",
            record.binary.display(),
            record.name
        );
    }
    Ok(())
}

/// Starts the server on `--port`, else on its recorded port while free, else on a free one.
fn start_on_a_port(record: &mut ServerRecord, opts: &StartOptions) -> Result<Started> {
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
        match start_once(record, opts.galera_new_cluster) {
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
pub(super) fn start_failure(record: &ServerRecord, what: &str, excerpt: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "server '{}' {what}; {excerpt} (fix the settings and start again, or remove it with `txbench server stop --rm {}`)",
        record.name,
        record.name
    )
}

pub(super) enum StartError {
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
pub(super) fn root_files_home(sandbox: &Path, name: &str) -> Option<PathBuf> {
    if !process::is_root() {
        return None;
    }
    let h = cnf::path_hash(sandbox) as u32;
    Some(PathBuf::from(ROOT_FILES_HOME).join(format!("{name}-{h:08x}")))
}

pub(super) fn port_free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}

pub(super) fn free_port() -> Result<u16> {
    let l = std::net::TcpListener::bind(("127.0.0.1", 0)).context("finding a free port")?;
    Ok(l.local_addr()?.port())
}

/// Starts the server once on `record.port`: its data directory bootstrapped if new, its
/// configuration and init file written, the server spawned and waited for.
pub(super) fn start_once(
    record: &mut ServerRecord,
    galera_new_cluster: bool,
) -> std::result::Result<Started, StartError> {
    let postgres = record.engine() == Engine::Postgres;
    let needs_bootstrap = launch::needs_bootstrap(record);
    let mut bootstrap_seconds = 0.0;
    // initdb wants an empty directory: PostgreSQL's configuration is written into the new one.
    if postgres && needs_bootstrap {
        bootstrap_seconds = launch::timed_bootstrap(record)?;
    }
    write_cnf(record)?;
    let mut notes = Vec::new();
    // The exact build, for the pre-flight (a rebuilt binary at the same path differs).
    record.binary_sha256 = Some(binary::sha256(&record.binary)?);
    let numactl = launch::numa_binding(record.numa_node, &mut notes)?;
    if !postgres && needs_bootstrap {
        bootstrap_seconds = launch::timed_bootstrap(record)?;
    }
    if !postgres {
        launch::write_init_sql(record)?;
    }
    let spawned = launch::spawn(record, numactl.as_ref(), galera_new_cluster)?;
    launch::wait_until_accepting(record, spawned, bootstrap_seconds, notes)
}

pub(super) fn open_append(path: &Path) -> Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))
}

pub(super) fn file_len(path: &Path) -> u64 {
    fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// What the error log got since `offset` ("" when it cannot be read).
fn log_since(log: &Path, offset: u64) -> String {
    let mut text = String::new();
    if let Ok(mut f) = fs::File::open(log) {
        let _ = f.seek(SeekFrom::Start(offset));
        let _ = f.read_to_string(&mut text);
    }
    text
}

/// Whether a server that exited at start lost its port to another process (then another
/// port is tried). The whole log since the start is read, not the excerpt of its last
/// errors: a Galera joiner logs several state-transfer errors after the bind error.
pub(super) fn port_taken(log: &str) -> bool {
    log.contains("Address already in use") || log.contains("another server running on port")
}

/// The error-log lines written since `offset`, for a failure message: the `[ERROR]` lines
/// if there are any, else the last few lines, joined with ` | `.
pub fn log_excerpt(log: &Path, offset: u64) -> String {
    let text = log_since(log, offset);
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
