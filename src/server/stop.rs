//! Stopping a sandbox: a clean shutdown, then SIGTERM, then SIGKILL.

use super::*;

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

/// Stops a sandbox whose data is about to be replaced (an experiment's cell before its
/// snapshot is restored): no shutdown, no flush of dirty pages, the process killed
/// (PostgreSQL: SIGQUIT, its immediate shutdown, which ends every backend; then SIGKILL).
pub fn discard(home: &StateDir, name: &str) -> Result<Stopped> {
    halt(home, name, false, true)
}

/// SIGKILL, and the process gone within 10 s.
fn kill(pid: i32, name: &str) -> Result<StopMethod> {
    process::signal(pid, libc::SIGKILL);
    if !process::wait_exit(pid, Duration::from_secs(10)) {
        bail!("server '{name}' (pid {pid}) survived SIGKILL");
    }
    Ok(StopMethod::Sigkill)
}

/// Stops a sandbox: SQL shutdown, then SIGTERM, then SIGKILL, each bounded; `rm` deletes
/// its directory.
pub fn stop(home: &StateDir, name: &str, rm: bool) -> Result<Stopped> {
    halt(home, name, rm, false)
}

fn halt(home: &StateDir, name: &str, rm: bool, discard: bool) -> Result<Stopped> {
    let server = get(home, name)?;
    let was = server.state.word().to_string();
    let mut record = server.record;
    let t = Instant::now();
    let method = match server.state.pid() {
        None => StopMethod::NotRunning,
        Some(pid) if discard => {
            if record.engine() == Engine::Postgres {
                process::signal(pid, libc::SIGQUIT);
            }
            if record.engine() == Engine::Postgres && process::wait_exit(pid, TERM_TIMEOUT) {
                StopMethod::Sigterm
            } else {
                kill(pid, name)?
            }
        }
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
                    kill(pid, name)?
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
