//! Starting a sandbox: the account it runs as, a free port, the configuration written, the server
//! spawned and waited for until it accepts connections (or its error log explains why not).

use super::*;

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
    let user_config = match &opts.config {
        Some(path) => {
            let text = fs::read_to_string(path)
                .with_context(|| format!("--config {}: cannot read it", path.display()))?;
            Some((path.clone(), text))
        }
        None => None,
    };
    // Before anything is created or started.
    setup::check_settings(
        engine,
        &opts.sets,
        user_config.as_ref().map(|(p, t)| (p.as_path(), t.as_str())),
    )?;
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

pub(super) fn start_once(
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
            if port_taken(&log_since(&log, offset)) {
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
