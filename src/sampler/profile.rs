//! `run --profile`: the on-CPU stacks of the server's processes (a MariaDB/MySQL process, or a
//! PostgreSQL postmaster with every backend and background process), or of the client, over
//! the measured phase only, sampled by `perf record` (Debian's linux-perf) on the cpu-clock
//! event at [`HZ`] per CPU (every CPU when allowed, the processes' samples kept when folded;
//! else attached to the processes), and folded by inferno into "root;…;leaf COUNT" lines, kept gzip in
//! the run directory. What cannot be done (no perf, no permission, a server on another host)
//! is one line and the run goes on.

use crate::results::Profile;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Samples per second per CPU: a prime away from the kernel's ticks, and cheap (perf's
/// frame-pointer call graphs at this rate cost well under 1 % of a CPU).
pub const HZ: u32 = 99;
/// The event: time on CPU, which works with or without hardware counters (virtual machines).
pub const EVENT: &str = "cpu-clock";

/// The perf program: `TXBENCH_PERF` when set (tests name one that is missing), else `perf`.
fn perf() -> String {
    std::env::var("TXBENCH_PERF").unwrap_or_else(|_| "perf".into())
}

/// A perf recording under way.
pub struct Recording {
    what: &'static str,
    processes: Vec<String>,
    /// Recorded system-wide: the pids whose samples are kept (with, at the end, the
    /// children the first of them started since: a PostgreSQL postmaster's new backends and
    /// autovacuum workers).
    only: Option<Vec<i32>>,
    child: Child,
    data: PathBuf,
    log: PathBuf,
    started: Instant,
}

/// The command of process `pid`, for the record.
fn comm(pid: i32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .map(|c| c.trim().to_string())
        .unwrap_or_default()
}

/// Starts recording `pids` (`what`: "server" or "client") into `dir`; Err says why not.
pub fn start(what: &'static str, pids: &[i32], dir: &Path) -> Result<Recording, String> {
    if pids.is_empty() {
        return Err(format!("no {what} process to profile"));
    }
    let data = dir.join(format!("perf-{what}.data"));
    let log = dir.join(format!("perf-{what}.log"));
    let list: Vec<String> = pids.iter().map(i32::to_string).collect();
    // System-wide (per CPU) when allowed, the samples kept for `pids` when folded: while
    // per-thread events exist (-p) every context switch on the host goes through perf's
    // hooks, and an OLTP server and its clients switch tens of thousands of times a second.
    // Measured here (oltp_read_write, 4 threads, 5 rotated rounds against no profile): -p
    // cost 14.6 % of throughput [6.6, 21.8], and 16 % more CPU per transaction on both the
    // server and the client; -a cost 3.4 % [-5.1, 11.3], not significant. A system-wide
    // recording refused at once (root in a container without CAP_PERFMON) falls back to -p.
    let mut refused = None;
    for system_wide in [true, false] {
        if system_wide && !system_wide_allowed() {
            continue;
        }
        let target: Vec<String> = if system_wide {
            vec!["-a".into()]
        } else {
            vec!["-p".into(), list.join(",")]
        };
        match record(&data, &log, &target) {
            Ok(child) => {
                return Ok(Recording {
                    what,
                    processes: pids.iter().map(|p| format!("{p} ({})", comm(*p))).collect(),
                    only: system_wide.then(|| pids.to_vec()),
                    child,
                    data,
                    log,
                    started: Instant::now(),
                });
            }
            Err(why) => refused = Some(why),
        }
    }
    Err(refused.unwrap_or_else(|| "perf record could not start".into()))
}

/// Starts `perf record` on `target` (`-a`, or `-p PIDS`) into `data`, its messages into
/// `log`; Err says why it could not, or why it stopped at once.
fn record(data: &Path, log: &Path, target: &[String]) -> Result<Child, String> {
    let err = crate::owned::replace(log).map_err(|e| format!("{e:#}"))?;
    let mut child = Command::new(perf())
        .args([
            "record",
            "-e",
            EVENT,
            "-F",
            &HZ.to_string(),
            "-g",
            "--quiet",
            "-o",
        ])
        .arg(data)
        .args(target)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err)
        .spawn()
        .map_err(|e| {
            format!(
                "{} could not be run ({e}): install linux-perf (make deps does)",
                perf()
            )
        })?;
    // perf refuses at once when it may not attach (perf_event_paranoid, a container).
    std::thread::sleep(Duration::from_millis(150));
    if let Ok(Some(status)) = child.try_wait() {
        let why = std::fs::read_to_string(log).unwrap_or_default();
        let _ = std::fs::remove_file(data);
        return Err(format!(
            "perf record stopped at once ({status}): {}",
            why.lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no message")
                .trim()
        ));
    }
    Ok(child)
}

impl Recording {
    /// Stops perf, folds its samples into `dir`/profile-WHAT.folded.gz and returns the
    /// record (without the analysis) and the folded text.
    pub fn finish(mut self, dir: &Path) -> Result<(Profile, String), String> {
        let seconds = self.started.elapsed().as_secs_f64();
        // What perf itself took while it recorded (not what writing its file takes after).
        let perf_cpu_ms = super::host::read_process(self.child.id() as i32)
            .map_or(0.0, |p| (p.user_s + p.sys_s) * 1000.0);
        // SIGINT: perf writes its file and exits.
        // SAFETY: signalling our own child by its pid.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGINT);
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return Err("perf record did not stop within 20 s of SIGINT".into());
                }
            }
        }
        let only = self.only.as_ref().map(|pids| {
            let mut all = pids.clone();
            // The server's (not the client's: perf itself is txbench's child).
            if let (Some(&root), "server") = (pids.first(), self.what) {
                all.extend(super::host::children(root));
            }
            all.sort_unstable();
            all.dedup();
            all.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
        });
        let folded = fold(&self.data, only.as_deref());
        let _ = std::fs::remove_file(&self.data);
        let _ = std::fs::remove_file(&self.log);
        let folded = folded?;
        let file = format!("profile-{}.folded.gz", self.what);
        write_gz(&dir.join(&file), folded.as_bytes())
            .map_err(|e| format!("writing {file}: {e}"))?;
        Ok((
            Profile {
                what: self.what.into(),
                processes: std::mem::take(&mut self.processes),
                event: EVENT.into(),
                hz: HZ,
                seconds,
                file,
                perf_cpu_ms,
                ..Profile::default()
            },
            folded,
        ))
    }
}

/// A recording dropped unfinished (its samplers dropped because the run stopped before it
/// began: a second target refused the monitor) leaves no perf running: it is killed and its
/// files removed.
impl Drop for Recording {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
            let _ = std::fs::remove_file(&self.data);
            let _ = std::fs::remove_file(&self.log);
        }
    }
}

/// Whether perf may record every CPU: as root, or with kernel.perf_event_paranoid ≤ 0.
fn system_wide_allowed() -> bool {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        return true;
    }
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .ok()
        .and_then(|v| v.trim().parse::<i32>().ok())
        .is_some_and(|v| v <= 0)
}

/// `perf script` of `data`, folded (kernel frames marked `_[k]`): only the samples of the
/// pids in `only` (a system-wide recording).
fn fold(data: &Path, only: Option<&str>) -> Result<String, String> {
    let mut cmd = Command::new(perf());
    cmd.args(["script", "-i"]).arg(data);
    if let Some(pids) = only {
        cmd.arg("--pid").arg(pids);
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("perf script could not be run: {e}"))?;
    let out = child.stdout.take().ok_or("perf script gave no output")?;
    let mut opts = inferno::collapse::perf::Options::default();
    opts.annotate_kernel = true;
    opts.nthreads = 1;
    let mut folded = Vec::new();
    use inferno::collapse::Collapse;
    let r = inferno::collapse::perf::Folder::from(opts)
        .collapse(BufReader::new(out), &mut folded)
        .map_err(|e| format!("folding perf's samples: {e}"));
    let status = child.wait().map_err(|e| format!("perf script: {e}"))?;
    r?;
    if !status.success() {
        return Err(format!("perf script failed ({status})"));
    }
    String::from_utf8(folded).map_err(|_| "perf's samples are not text".into())
}

fn write_gz(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let f = crate::owned::replace(path).map_err(std::io::Error::other)?;
    let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::default());
    gz.write_all(bytes)?;
    gz.finish()?.sync_all()
}
