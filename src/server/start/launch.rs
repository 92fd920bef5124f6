//! The steps of one start of a sandbox's server ([`super::start_once`]): bootstrap, the
//! NUMA binding, the init file, spawning the server and waiting until it accepts
//! connections, exits or times out.

use super::*;

/// Whether the data directory is still to be created (initdb, or mariadb-install-db).
pub(super) fn needs_bootstrap(record: &ServerRecord) -> bool {
    if record.engine() == Engine::Postgres {
        !record.datadir().join("PG_VERSION").is_file()
    } else {
        !record.datadir().join("mysql").is_dir()
    }
}

/// Creates the data directory; returns the seconds it took.
pub(super) fn timed_bootstrap(record: &ServerRecord) -> Result<f64> {
    let t = Instant::now();
    bootstrap(record)?;
    Ok(t.elapsed().as_secs_f64())
}

/// `--numa-node`: numactl and the node to bind the server to; None without the option, or
/// with a note on a host of one node; an error for a node the host lacks, or no numactl.
pub(super) fn numa_binding(
    numa_node: Option<u32>,
    notes: &mut Vec<String>,
) -> Result<Option<(PathBuf, u32)>> {
    let Some(node) = numa_node else {
        return Ok(None);
    };
    let nodes = placement::numa_nodes();
    if nodes <= 1 {
        notes.push(format!(
            "--numa-node {node}: this host has one NUMA node; the server is not bound"
        ));
        Ok(None)
    } else if u64::from(node) >= nodes as u64 {
        bail!(
            "--numa-node {node}: this host has NUMA nodes 0-{}",
            nodes - 1
        );
    } else {
        let Some(numactl) = find_program(&["numactl"]) else {
            bail!("--numa-node {node}: numactl not found: install the Debian package numactl");
        };
        Ok(Some((numactl, node)))
    }
}

/// Writes MariaDB's init file (the benchmark database and user, with the sandboxes' secret).
pub(super) fn write_init_sql(record: &ServerRecord) -> Result<()> {
    let Some(secret) = record.secret() else {
        bail!(
            "{} is missing: the sandboxes' password",
            secret::path(&record.home_root()).display()
        );
    };
    private::write(
        &record.init_sql(),
        &init_sql(record.flavor, &secret),
        server_account(Engine::Mysql)?.as_ref(),
    )
}

/// A server just spawned: its process, and its error log from where this start began.
pub(super) struct Spawned {
    child: std::process::Child,
    pid: i32,
    log: PathBuf,
    offset: u64,
    /// When the command was about to be made (start_seconds counts from here).
    t: Instant,
}

/// Spawns the server, its output appended to the error log, and records its pid as
/// expected to run.
pub(super) fn spawn(
    record: &mut ServerRecord,
    numactl: Option<&(PathBuf, u32)>,
    galera_new_cluster: bool,
) -> Result<Spawned> {
    let log = record.error_log();
    let offset = file_len(&log);
    let out = open_append(&log)?;
    let t = Instant::now();
    let child = {
        use std::os::unix::process::CommandExt;
        let mut cmd = server_command(record, numactl, galera_new_cluster)?;
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
    Ok(Spawned {
        child,
        pid,
        log,
        offset,
        t,
    })
}

/// The server's command line: under numactl when bound, pinned to `--cpus`, with its
/// configuration, as the server's account.
fn server_command(
    record: &ServerRecord,
    numactl: Option<&(PathBuf, u32)>,
    galera_new_cluster: bool,
) -> Result<Command> {
    let mut cmd = match numactl {
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
    keep_no_inherited_files(&mut cmd);
    if record.engine() == Engine::Postgres {
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
    Ok(cmd)
}

/// The server keeps none of the files txbench inherited from whoever started it (a lock
/// `flock cmd` holds, a descriptor of a privileged caller): every descriptor past stderr is
/// marked close-on-exec in the child before exec (close_range with CLOSE_RANGE_CLOEXEC,
/// Linux 5.11; an older kernel keeps them, as before).
fn keep_no_inherited_files(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    // SAFETY: close_range is a plain system call, async-signal-safe, on the child's own
    // descriptors; marking them close-on-exec keeps std's exec-error pipe working.
    unsafe {
        cmd.pre_exec(|| {
            libc::syscall(
                libc::SYS_close_range,
                3 as libc::c_uint,
                libc::c_uint::MAX,
                CLOSE_RANGE_CLOEXEC,
            );
            Ok(())
        });
    }
}

/// Polls every 20 ms until the server accepts connections ([`accepted`]), exits
/// ([`exited`]) or does neither within [`START_TIMEOUT`] ([`timed_out`]).
pub(super) fn wait_until_accepting(
    record: &mut ServerRecord,
    mut spawned: Spawned,
    bootstrap_seconds: f64,
    mut notes: Vec<String>,
) -> std::result::Result<Started, StartError> {
    let deadline = spawned.t + START_TIMEOUT;
    let socket_url = record.socket_url();
    loop {
        if let Some(status) = spawned.child.try_wait().map_err(anyhow::Error::from)? {
            return exited(record, &spawned, status);
        }
        if socket_file(record).exists()
            && let Ok(conn) = engine::connect(&record.admin_url())
        {
            let notes = std::mem::take(&mut notes);
            return accepted(
                record,
                &spawned,
                conn,
                &socket_url,
                bootstrap_seconds,
                notes,
            );
        }
        if Instant::now() >= deadline {
            return timed_out(record, &mut spawned);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The server exited: the error log's excerpt, as a lost port (another is tried) or not.
fn exited(
    record: &mut ServerRecord,
    spawned: &Spawned,
    status: std::process::ExitStatus,
) -> std::result::Result<Started, StartError> {
    let (log, offset) = (&spawned.log, spawned.offset);
    record.expect_running = false;
    record.save()?;
    let excerpt = log_excerpt(log, offset);
    let err = start_failure(record, &format!("failed to start ({status})"), &excerpt);
    if port_taken(&log_since(log, offset)) {
        return Err(StartError::PortTaken(err));
    }
    Err(StartError::Other(err))
}

/// The server accepts connections: PostgreSQL's benchmark database made, the pre-flight
/// read, the outcome.
fn accepted(
    record: &ServerRecord,
    spawned: &Spawned,
    mut conn: engine::Conn,
    socket_url: &TargetUrl,
    bootstrap_seconds: f64,
    notes: Vec<String>,
) -> std::result::Result<Started, StartError> {
    let start_seconds = spawned.t.elapsed().as_secs_f64();
    if record.engine() == Engine::Postgres {
        drop(conn);
        #[cfg(feature = "postgres")]
        {
            let secret = record
                .secret()
                .context("the sandboxes' secret is missing")?;
            pg::create_bench_db(&record.admin_url(), BENCH_USER, BENCH_DB, &secret)?;
        }
        conn = engine::connect(socket_url)?;
    }
    let preflight = engine::preflight(&mut conn)?;
    Ok(Started {
        record: record.clone(),
        pid: spawned.pid,
        started: true,
        start_seconds,
        bootstrap_seconds,
        notes,
        preflight,
    })
}

/// The server did not accept connections in time: killed, with the error log's excerpt.
fn timed_out(
    record: &mut ServerRecord,
    spawned: &mut Spawned,
) -> std::result::Result<Started, StartError> {
    let _ = spawned.child.kill();
    let _ = spawned.child.wait();
    record.expect_running = false;
    record.save()?;
    Err(StartError::Other(start_failure(
        record,
        &format!(
            "did not accept connections within {} s",
            START_TIMEOUT.as_secs()
        ),
        &log_excerpt(&spawned.log, spawned.offset),
    )))
}
