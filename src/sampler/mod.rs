//! The server sampler: a thread of its own with its own connection (the monitor) that, every
//! report interval, reads SHOW GLOBAL STATUS, the enabled INNODB_METRICS counters, the
//! workload's own server-side counts and, when the server runs on this host, /proc; it
//! writes `server.csv` and `server-status.jsonl` as the run goes and watches the server:
//! Uptime going backwards (a restart), no answer for 10 s (frozen), or unreachable for 10 s.
//!
//! The virtual users never wait for it: a request that arrives while a sample is still being
//! taken is skipped and counted. The arithmetic is in [`crate::metrics::server`].

mod files;
pub mod host;
#[cfg(feature = "mysql")]
mod mysql;
#[cfg(feature = "postgres")]
mod postgres;
pub mod profile;
mod record;
mod worker;

use files::Files;
use worker::Worker;

use crate::engine::TargetUrl;
use crate::metrics::server::{Delta, ServerRow};
use crate::results::Event;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A server that has not answered the monitor for this long is gone (frozen or dead).
pub const UNRESPONSIVE_LIMIT: Duration = Duration::from_secs(10);

/// How often the monitor asks a MySQL server whether it answers between samples (a ping,
/// which no statement counter counts): a freeze that begins just after a sample is seen
/// within this, whatever the report interval.
pub const PROBE_EVERY: Duration = Duration::from_secs(1);

/// A wait this long for one answer is a frozen server: every freeze of
/// [`UNRESPONSIVE_LIMIT`] or more makes one probe wait at least this.
const FROZEN_WAIT: Duration = UNRESPONSIVE_LIMIT.saturating_sub(PROBE_EVERY);

/// How the INVALID reason for a frozen server begins.
pub const UNRESPONSIVE: &str = "the server has been unresponsive for";
/// How the INVALID reason for a server that refuses connections begins.
pub const UNREACHABLE: &str = "the server has been unreachable for";

/// Said after the server's own refusal of the monitor for want of connections (MySQL's
/// 1040, 1203 and 1226 for max_user_connections, PostgreSQL's 53300).
const NO_ROOM: &str = "the virtual users and other clients hold every connection the server allows, and txbench's monitor needs one more: run fewer --threads, or raise the limit (max_connections, or the user's own; a sandbox: server start NAME --set max_connections=N)";

/// The server's own answer to the monitor's connection: an error, so it is up.
#[derive(Debug, Clone)]
pub(super) struct Refusal {
    /// What it said.
    said: String,
    /// For want of connections: it lets no one else in.
    no_room: bool,
}

impl Refusal {
    pub(super) fn new(said: String, no_room: bool) -> Refusal {
        Refusal { said, no_room }
    }

    /// What it said, and for want of connections what to do.
    fn text(&self) -> String {
        if self.no_room {
            format!("{}; {NO_ROOM}", self.said)
        } else {
            self.said.clone()
        }
    }
}

/// What an [`UNREACHABLE`] reason says when the server answered, refusing the monitor's login:
/// it is up (so a target that says it is not lost, and its users are not moved).
pub const REFUSED: &str = "it refused txbench's monitor";

/// Why the server has been unreachable: what it said when it refused the monitor (it is up,
/// and will not let it in), else its loss.
fn unreachable(secs: String, refused: Option<&Refusal>) -> String {
    match refused {
        Some(r) => format!("{UNREACHABLE} {secs} s ({REFUSED}: {})", r.text()),
        None => format!("{UNREACHABLE} {secs} s (it died or restarts)"),
    }
}

/// Where and what to sample.
pub struct Options {
    /// The server.
    pub url: TargetUrl,
    /// The run's start: sample times are seconds since then.
    pub t0: Instant,
    /// The run directory (server.csv and server-status.jsonl go there).
    pub dir: PathBuf,
    /// Counts the workload keeps in its tables: (name, SQL returning one number).
    pub workload_counts: Vec<(String, String)>,
    /// The measured phase starts with the run (no warm-up): at 0.0.
    pub measure_start: Option<f64>,
    /// Sample the counters and /proc (false: only Uptime, to watch the server).
    pub metrics: bool,
    /// CPU profiles over the measured phase (`--profile`).
    pub profile: crate::config::Profiling,
}

/// What the sampler saw by the end of the run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Every server.csv row.
    pub rows: Vec<ServerRow>,
    /// The measured phase: the sum of its deltas (None: no sample bounds it).
    pub measured: Option<Delta>,
    /// Seconds between the start of the measured phase and the sample that opened it.
    pub opening_lag_s: f64,
    /// Samples taken.
    pub samples: u64,
    /// Requests skipped because a sample was still running.
    pub skipped: u64,
    /// Sample wall time, ms: sum and maximum.
    pub sample_ms_sum: f64,
    /// See `sample_ms_sum`.
    pub sample_ms_max: f64,
    /// The monitor thread's own CPU time over the measured phase, s (its samples, probes and
    /// file writes: what watching the server costs the client).
    pub monitor_cpu_s: f64,
    /// What could not be recorded, one line each.
    pub not_recorded: Vec<String>,
    /// The port the monitor read the server through when not the users' (MariaDB's
    /// extra_port, past a thread pool).
    pub monitor_port: Option<u16>,
    /// Whether the final sample (after the virtual users stopped) was taken.
    pub final_taken: bool,
    /// Why the final sample was not taken, when it was not.
    pub final_failure: Option<String>,
    /// PostgreSQL: the transactions the server counts for a login (measured at the first
    /// sample with a connection that does nothing).
    pub pg_connect_cost: Option<f64>,
    /// PostgreSQL: the monitor's own transactions between the last two samples (they may
    /// reach the count after the closing one).
    pub pg_monitor_unflushed: f64,
    /// PostgreSQL: other clients' sessions that ran statements during the run (a busy one's
    /// transactions are not in the count until it idles or exits).
    pub pg_other_clients: Vec<String>,
    /// Events the driver had not taken by the end.
    pub events: Vec<Event>,
    /// The measured phase's CPU profiles (`--profile`), each with its folded stacks.
    pub profiles: Vec<(crate::results::Profile, String)>,
}

impl Report {
    /// Why the server's counts cannot be held against txbench's: no sample opened the
    /// measured phase, or the closing one (after every transaction ended) was not taken.
    pub fn checks_not_made(&self) -> Option<String> {
        if self.measured.is_none() {
            Some("no server sample opened the measured phase".into())
        } else if !self.final_taken {
            Some(
                self.final_failure
                    .clone()
                    .unwrap_or_else(|| "the closing server sample was not taken".into()),
            )
        } else {
            None
        }
    }
}

#[derive(Default)]
struct State {
    report: Report,
    /// Lines for the run's output, not yet shown.
    notes: Vec<String>,
    /// When the measured phase started (seconds since t0); None during the warm-up.
    measure_start: Option<f64>,
    /// A sample in progress since.
    busy_since: Option<Instant>,
    /// Failing continuously since (connection refused, reset, or timed out).
    failing_since: Option<Instant>,
    /// The last failure was a time-out (no answer), not a refusal.
    last_failure_timeout: bool,
    /// What the server said when it refused the monitor's last connection (it answered,
    /// with an error); None once it lets the monitor in, or when it did not answer.
    refused: Option<Refusal>,
    /// The server restarted: its Uptime went backwards.
    restart: Option<String>,
    /// A Galera node that lost its cluster's quorum (wsrep_cluster_status not Primary).
    quorum_lost: Option<String>,
    /// An outage already over (a freeze the monitor waited out, refusals that stopped),
    /// not yet taken by `check`: it ends a run even if the server answers again by then.
    outage: Option<String>,
    /// What happened to the servers, not yet taken by the driver.
    events: Vec<Event>,
    /// Replicas already reported unreachable.
    #[cfg(feature = "mysql")]
    unreachable_replicas: std::collections::BTreeSet<String>,
    finished: bool,
    /// The server's process on this host, once found.
    server_pid: Option<i32>,
    /// What to profile, and where the run directory is.
    profile: crate::config::Profiling,
    dir: PathBuf,
    /// perf recordings under way.
    recordings: Vec<profile::Recording>,
}

impl State {
    /// A look at the server that began at `begun` has ended: one that waited
    /// [`FROZEN_WAIT`] or more was a freeze, kept for `check` even though it is over.
    fn note_wait(&mut self, begun: Instant) {
        let waited = begun.elapsed();
        if waited >= FROZEN_WAIT {
            self.outage.get_or_insert(format!(
                "{UNRESPONSIVE} {} s: the monitor waited that long for one answer (a frozen or stopped server process)",
                waited.as_secs()
            ));
        }
    }

    /// The server answered: failures that lasted the limit are kept as an outage.
    fn note_recovery(&mut self) {
        let Some(since) = self.failing_since.take() else {
            return;
        };
        let secs = since.elapsed();
        if secs < UNRESPONSIVE_LIMIT {
            return;
        }
        self.outage.get_or_insert(if self.last_failure_timeout {
            format!(
                "{UNRESPONSIVE} {} s: the monitor's queries got no answer (a frozen or stopped server process)",
                secs.as_secs()
            )
        } else {
            unreachable(secs.as_secs().to_string(), self.refused.as_ref())
        });
        self.refused = None;
    }
}

enum Request {
    Sample,
    Finish,
}

/// The running sampler.
pub struct Sampler {
    tx: crossbeam_channel::Sender<Request>,
    state: Arc<Mutex<State>>,
    /// The thread starting perf, joined before the recordings are stopped.
    profiler: Mutex<Option<std::thread::JoinHandle<()>>>,
}

/// Starts the recordings `--profile` asks for and keeps them in `state`; the lock is not
/// held while perf starts.
fn start_profiles_on(state: &Mutex<State>) {
    let lock = || state.lock().unwrap_or_else(|p| p.into_inner());
    let (profile, server_pid, dir) = {
        let st = lock();
        (st.profile, st.server_pid, st.dir.clone())
    };
    let mut wanted: Vec<(&'static str, Result<Vec<i32>, String>)> = Vec::new();
    if profile.server() {
        wanted.push((
            "server",
            server_pid
                .map(|p| std::iter::once(p).chain(host::children(p)).collect())
                .ok_or_else(|| {
                    "the server's process was not found on this host (a remote server, or one whose pid file this user cannot read)".to_string()
                }),
        ));
    }
    if profile.client() {
        wanted.push(("client", Ok(vec![std::process::id() as i32])));
    }
    for (what, pids) in wanted {
        let started = pids.and_then(|p| profile::start(what, &p, &dir));
        let mut st = lock();
        match started {
            Ok(r) => st.recordings.push(r),
            Err(why) => {
                let line = format!("--profile {what}: not recorded: {why}");
                st.notes.push(line.clone());
                st.report.not_recorded.push(line);
            }
        }
    }
}

impl Sampler {
    /// Starts the thread and asks for the first sample (the baseline), waiting up to 2 s for
    /// it so that its notes come before the first interval.
    pub fn start(opts: Options) -> anyhow::Result<Sampler> {
        let url = opts.url.clone();
        let state = Arc::new(Mutex::new(State {
            measure_start: opts.measure_start,
            profile: opts.profile,
            dir: opts.dir.clone(),
            ..State::default()
        }));
        let (tx, rx) = crossbeam_channel::unbounded();
        let files = if opts.metrics {
            Some(Files::create(&opts.dir)?)
        } else {
            None
        };
        let st = state.clone();
        std::thread::Builder::new()
            .name("sampler".into())
            .spawn(move || Worker::new(opts, st, files).run(rx))
            .map_err(|e| anyhow::anyhow!("starting the server sampler: {e}"))?;
        let s = Sampler {
            tx,
            state,
            profiler: Mutex::new(None),
        };
        s.sample();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline && s.lock().report.samples == 0 && !s.refused_no_room() {
            std::thread::sleep(Duration::from_millis(5));
        }
        // The users hold every connection left: nothing of the run could be watched, so it
        // does not start (rather than ending INVALID ten seconds later as a lost server).
        if s.refused_no_room() {
            let said = s
                .lock()
                .refused
                .as_ref()
                .map(Refusal::text)
                .unwrap_or_default();
            return Err(anyhow::anyhow!(
                "txbench's server monitor could not connect to {url}: {said}"
            ));
        }
        // The virtual users start only after this returns: a baseline taken by then comes
        // before every transaction, however long its login took (a SCRAM login and the
        // login probe, ~0.3 s in a debug build, were allowed as a third of a second of
        // throughput).
        {
            let mut st = s.lock();
            if st.report.samples > 0 && st.measure_start == Some(0.0) {
                st.report.opening_lag_s = 0.0;
            }
        }
        if s.lock().measure_start == Some(0.0) {
            s.start_profiles();
        }
        Ok(s)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the server refused the monitor's last connection for want of connections.
    fn refused_no_room(&self) -> bool {
        self.lock().refused.as_ref().is_some_and(|r| r.no_room)
    }

    /// The port the monitor reads the server through when not the users' (past a thread
    /// pool), once it has found it.
    pub fn monitor_port(&self) -> Option<u16> {
        self.lock().report.monitor_port
    }

    /// Asks for a sample now (an interval ended); never waits.
    pub fn sample(&self) {
        let _ = self.tx.send(Request::Sample);
    }

    /// Asks for a sample and waits up to `wait` for it: the last interval's sample, taken
    /// while the virtual users still run so its levels (Threads_running) are the run's.
    pub fn sample_and_wait(&self, wait: Duration) {
        let before = self.lock().report.samples;
        self.sample();
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline && self.lock().report.samples == before {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The measured phase starts at `t` (seconds since t0): samples from the next one on
    /// count towards it.
    pub fn measure_starts(&self, t: f64) {
        self.lock().measure_start = Some(t);
        self.sample();
        self.start_profiles();
    }

    /// Starts perf on the server's processes (a PostgreSQL postmaster and its children) and
    /// on this process, as `--profile` asks, on a thread of its own: the driver calls this at
    /// the measured phase's start, before it takes the warm-up's last counts, and perf takes
    /// 150 ms or more to start (blocking the driver that long moved txbench's start of the
    /// phase after the server's: 4,863 statements more on the server's side, INVALID). What
    /// cannot be profiled is a line, not an error.
    fn start_profiles(&self) {
        let state = self.state.clone();
        let started = std::thread::Builder::new()
            .name("profiler".into())
            .spawn(move || start_profiles_on(&state));
        if let Ok(h) = started {
            *self.profiler.lock().unwrap_or_else(|p| p.into_inner()) = Some(h);
        }
    }

    /// Lines to show (what will not be recorded), once each.
    pub fn take_notes(&self) -> Vec<String> {
        std::mem::take(&mut self.lock().notes)
    }

    /// What happened to the servers since the last call.
    pub fn take_events(&self) -> Vec<Event> {
        std::mem::take(&mut self.lock().events)
    }

    /// A reason to stop the run: the server restarted, lost its Galera quorum, or has not
    /// answered for 10 s.
    pub fn check(&self) -> Option<String> {
        let mut s = self.lock();
        if let Some(r) = s.restart.as_ref().or(s.quorum_lost.as_ref()) {
            return Some(r.clone());
        }
        if let Some(r) = s.outage.take() {
            return Some(r);
        }
        let since = match (s.failing_since, s.busy_since) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }?;
        let secs = since.elapsed();
        if secs < UNRESPONSIVE_LIMIT {
            return None;
        }
        Some(if s.failing_since.is_none() || s.last_failure_timeout {
            format!(
                "{UNRESPONSIVE} {} s: the monitor's queries got no answer (a frozen or stopped server process)",
                secs.as_secs()
            )
        } else {
            unreachable(secs.as_secs().to_string(), s.refused.as_ref())
        })
    }

    /// Whether the last sample found the server gone (refused or lost connection), however
    /// briefly: said as [`UNREACHABLE`] so a run that stops for its failed transactions
    /// names the cause too.
    pub fn down_now(&self) -> Option<String> {
        let s = self.lock();
        let since = s.failing_since?;
        (!s.last_failure_timeout).then(|| {
            unreachable(
                format!("{:.1}", since.elapsed().as_secs_f64()),
                s.refused.as_ref(),
            )
        })
    }

    /// Takes the last sample (the virtual users have stopped) and returns what was seen,
    /// waiting at most `wait` for it. The thread ends.
    pub fn finish(self, wait: Duration) -> Report {
        let _ = self.tx.send(Request::Finish);
        // Every recording started before any is stopped.
        let profiler = self
            .profiler
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(h) = profiler {
            let _ = h.join();
        }
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline && !self.lock().finished {
            std::thread::sleep(Duration::from_millis(5));
        }
        // A thread stuck on a frozen server is left behind; the process ends without it.
        let mut s = self.lock();
        let mut report = s.report.clone();
        if !s.finished {
            report.final_failure = Some(format!(
                "the closing sample had not finished {:.0} s after the run's end (a frozen or overloaded server)",
                wait.as_secs_f64()
            ));
        }
        report.events = std::mem::take(&mut s.events);
        let (recordings, dir) = (std::mem::take(&mut s.recordings), s.dir.clone());
        drop(s);
        for r in recordings {
            match r.finish(&dir) {
                Ok(p) => report.profiles.push(p),
                Err(why) => report
                    .not_recorded
                    .push(format!("--profile: not recorded: {why}")),
            }
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Refused at one sample, let in at a later one: the outage kept says what the server
    /// said, not that it died; a lost connection after it says it was lost.
    #[test]
    fn an_outage_of_refused_logins_is_said_as_refused_after_it_ends() {
        let mut s = State {
            failing_since: Some(Instant::now() - UNRESPONSIVE_LIMIT - Duration::from_secs(1)),
            refused: Some(Refusal::new("Too many connections (1040)".into(), true)),
            ..State::default()
        };
        s.note_recovery();
        let outage = s.outage.take().unwrap();
        assert!(
            outage.starts_with(UNREACHABLE)
                && outage.contains(REFUSED)
                && outage.contains("(1040)"),
            "{outage}"
        );
        assert!(s.refused.is_none());
        s.failing_since = Some(Instant::now() - UNRESPONSIVE_LIMIT - Duration::from_secs(1));
        s.note_recovery();
        assert!(s.outage.unwrap().ends_with("(it died or restarts)"));
    }
}
