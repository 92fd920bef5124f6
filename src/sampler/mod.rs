//! The server sampler: a thread of its own with its own connection (the monitor) that, every
//! report interval, reads SHOW GLOBAL STATUS, the enabled INNODB_METRICS counters, the
//! workload's own server-side counts and, when the server runs on this host, /proc; it
//! writes `server.csv` and `server-status.jsonl` as the run goes and watches the server:
//! Uptime going backwards (a restart), no answer for 10 s (frozen), or unreachable for 10 s.
//!
//! The virtual users never wait for it: a request that arrives while a sample is still being
//! taken is skipped and counted. The arithmetic is in [`crate::metrics::server`].

pub mod host;
#[cfg(feature = "mysql")]
mod mysql;
#[cfg(feature = "postgres")]
mod postgres;

use crate::engine::{self, TargetUrl};
use crate::metrics::server::{Delta, RawSample, ServerRow};
use crate::metrics::waits;
use crate::results::{Event, Phase};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
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
    /// What could not be recorded, one line each.
    pub not_recorded: Vec<String>,
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
            format!("{UNREACHABLE} {} s (it died or restarts)", secs.as_secs())
        });
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
}

impl Sampler {
    /// Starts the thread and asks for the first sample (the baseline), waiting up to 2 s for
    /// it so that its notes come before the first interval.
    pub fn start(opts: Options) -> anyhow::Result<Sampler> {
        let state = Arc::new(Mutex::new(State {
            measure_start: opts.measure_start,
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
        let s = Sampler { tx, state };
        s.sample();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline && s.lock().report.samples == 0 {
            std::thread::sleep(Duration::from_millis(5));
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
        Ok(s)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
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
            format!("{UNREACHABLE} {} s (it died or restarts)", secs.as_secs())
        })
    }

    /// Whether the last sample found the server gone (refused or lost connection), however
    /// briefly: said as [`UNREACHABLE`] so a run that stops for its failed transactions
    /// names the cause too.
    pub fn down_now(&self) -> Option<String> {
        let s = self.lock();
        let since = s.failing_since?;
        (!s.last_failure_timeout).then(|| {
            format!(
                "{UNREACHABLE} {:.1} s (it died or restarts)",
                since.elapsed().as_secs_f64()
            )
        })
    }

    /// Takes the last sample (the virtual users have stopped) and returns what was seen,
    /// waiting at most `wait` for it. The thread ends.
    pub fn finish(self, wait: Duration) -> Report {
        let _ = self.tx.send(Request::Finish);
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
        report
    }
}

/// server.csv and server-status.jsonl (and waits.csv, made when the first waits arrive).
struct Files {
    dir: PathBuf,
    csv: File,
    jsonl: File,
    waits: Option<File>,
    failed: bool,
}

impl Files {
    fn create(dir: &Path) -> anyhow::Result<Files> {
        let open = |name: &str| {
            File::create(dir.join(name))
                .map_err(|e| anyhow::anyhow!("creating {}: {e}", dir.join(name).display()))
        };
        let mut csv = open("server.csv")?;
        csv.write_all(ServerRow::csv_header().as_bytes())?;
        Ok(Files {
            dir: dir.to_path_buf(),
            csv,
            jsonl: open("server-status.jsonl")?,
            waits: None,
            failed: false,
        })
    }

    /// Appends an interval's wait rows to waits.csv, creating it with its header first.
    fn write_waits(&mut self, rows: &[waits::WaitRow]) -> std::io::Result<()> {
        if self.waits.is_none() {
            let mut f = File::create(self.dir.join("waits.csv"))?;
            f.write_all(waits::CSV_HEADER.as_bytes())?;
            self.waits = Some(f);
        }
        let text: String = rows.iter().map(waits::WaitRow::csv_line).collect();
        match self.waits.as_mut() {
            Some(f) => f.write_all(text.as_bytes()),
            None => Ok(()),
        }
    }
}

/// Where the server's process and data directory are, when it runs on this host.
struct Local {
    pid: i32,
    device: Option<(u32, u32)>,
}

struct Worker {
    opts: Options,
    state: Arc<Mutex<State>>,
    files: Option<Files>,
    /// The monitor's connection to a MySQL or MariaDB server.
    #[cfg(feature = "mysql")]
    conn: Option<::mysql::Conn>,
    /// Found out on the first connection.
    discovered: bool,
    local: Option<Local>,
    /// The INNODB_METRICS query that works on this server (None: not readable).
    #[cfg(feature = "mysql")]
    innodb_sql: Option<&'static str>,
    /// Whether performance_schema's wait summary is read (it is on, with timed waits).
    #[cfg(feature = "mysql")]
    read_waits: bool,
    workload_counts: Vec<(String, String)>,
    prev: Option<RawSample>,
    /// Counters already said to have been missing from a sample.
    missing_noted: std::collections::BTreeSet<String>,
    /// SELECTs the monitor itself ran (they are in Com_select).
    #[cfg(feature = "mysql")]
    own_selects: f64,
    /// The primary's replicas (found on the first connection) and a connection to each.
    #[cfg(feature = "mysql")]
    replicas: Vec<(crate::topology::ReplicaAddr, Option<::mysql::Conn>)>,
    /// The monitor's connection to a PostgreSQL server.
    #[cfg(feature = "postgres")]
    pg: Option<engine::postgres::Session>,
    /// PostgreSQL views this server cannot show (not asked again).
    #[cfg(feature = "postgres")]
    pg_skip: Vec<&'static str>,
    /// PostgreSQL's wait events as polled so far (running totals, like performance_schema's).
    #[cfg(feature = "postgres")]
    pg_waits: waits::Waits,
    /// When the wait events were last polled.
    #[cfg(feature = "postgres")]
    pg_last_poll: Option<Instant>,
    /// Transactions the monitor itself committed on PostgreSQL (its statements).
    #[cfg(feature = "postgres")]
    pg_own_xacts: f64,
    /// That, at the last sample.
    #[cfg(feature = "postgres")]
    pg_own_at_sample: f64,
    /// The last value of the server's transaction count less the monitor's own (it never
    /// goes below it).
    #[cfg(feature = "postgres")]
    pg_xact_floor: f64,
    /// The sample being read is the closing one (after the virtual users stopped).
    #[cfg(feature = "postgres")]
    closing: bool,
    /// PostgreSQL: what a login costs was measured (at the first sample).
    #[cfg(feature = "postgres")]
    pg_login_measured: bool,
    /// PostgreSQL: the server's clock at the first sample.
    #[cfg(feature = "postgres")]
    pg_run_start: Option<String>,
}

impl Worker {
    fn new(opts: Options, state: Arc<Mutex<State>>, files: Option<Files>) -> Worker {
        let workload_counts = opts.workload_counts.clone();
        Worker {
            opts,
            state,
            files,
            #[cfg(feature = "mysql")]
            conn: None,
            discovered: false,
            local: None,
            #[cfg(feature = "mysql")]
            innodb_sql: Some(mysql::INNODB_MARIADB),
            #[cfg(feature = "mysql")]
            read_waits: false,
            workload_counts,
            prev: None,
            missing_noted: Default::default(),
            #[cfg(feature = "mysql")]
            own_selects: 0.0,
            #[cfg(feature = "mysql")]
            replicas: Vec::new(),
            #[cfg(feature = "postgres")]
            pg: None,
            #[cfg(feature = "postgres")]
            pg_skip: Vec::new(),
            #[cfg(feature = "postgres")]
            pg_waits: waits::Waits::new(),
            #[cfg(feature = "postgres")]
            pg_last_poll: None,
            #[cfg(feature = "postgres")]
            pg_own_xacts: 0.0,
            #[cfg(feature = "postgres")]
            pg_own_at_sample: 0.0,
            #[cfg(feature = "postgres")]
            pg_xact_floor: 0.0,
            #[cfg(feature = "postgres")]
            closing: false,
            #[cfg(feature = "postgres")]
            pg_login_measured: false,
            #[cfg(feature = "postgres")]
            pg_run_start: None,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs one look at the server with the monitor marked busy meanwhile: `check` sees a
    /// look that hangs as a frozen server, and one that waited [`FROZEN_WAIT`] is kept.
    fn watched<T>(&self, look: impl FnOnce() -> T) -> T {
        let begun = Instant::now();
        self.lock().busy_since = Some(begun);
        let out = look();
        let mut s = self.lock();
        s.busy_since = None;
        s.note_wait(begun);
        out
    }

    /// Stops reading the workload counts that failed, saying why once.
    fn drop_counts(&mut self, failed: Vec<(String, String)>) {
        for (name, why) in failed {
            self.workload_counts.retain(|(n, _)| *n != name);
            self.not_recorded(format!(
                "the server-side count {name} is not recorded ({why})"
            ));
        }
    }

    fn not_recorded(&self, line: String) {
        let mut s = self.lock();
        s.notes.push(format!("server metrics: {line}"));
        s.report.not_recorded.push(line);
    }

    fn run(mut self, rx: crossbeam_channel::Receiver<Request>) {
        loop {
            let req = match self.next_request(&rx) {
                Some(r) => r,
                None => return,
            };
            let mut finish = matches!(req, Request::Finish);
            // Requests that queued up while the last sample ran are skipped, and counted.
            while let Ok(r) = rx.try_recv() {
                match r {
                    Request::Sample => self.lock().report.skipped += 1,
                    Request::Finish => finish = true,
                }
            }
            let ok = self.sample_once(finish);
            if finish {
                let mut s = self.lock();
                s.report.final_taken = ok;
                if !ok {
                    s.report.final_failure = Some(if s.last_failure_timeout {
                        "the server did not answer the closing sample in time".into()
                    } else {
                        "the closing sample could not read the server (connection refused or lost)"
                            .into()
                    });
                }
                s.finished = true;
                return;
            }
        }
    }

    /// The next request. On PostgreSQL with metrics on, the wait events are polled every
    /// [`engine::postgres::metrics::WAIT_POLL`] while waiting for it; None when the sampler
    /// is gone.
    fn next_request(&mut self, rx: &crossbeam_channel::Receiver<Request>) -> Option<Request> {
        #[cfg(feature = "postgres")]
        if self.opts.metrics && self.opts.url.engine == engine::Engine::Postgres {
            loop {
                match rx.recv_timeout(engine::postgres::metrics::WAIT_POLL) {
                    Ok(r) => return Some(r),
                    Err(crossbeam_channel::RecvTimeoutError::Timeout) => self.poll_pg_waits(),
                    Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return None,
                }
            }
        }
        #[cfg(feature = "mysql")]
        if self.opts.url.engine == engine::Engine::Mysql {
            loop {
                match rx.recv_timeout(PROBE_EVERY) {
                    Ok(r) => return Some(r),
                    Err(crossbeam_channel::RecvTimeoutError::Timeout) => self.probe_mysql(),
                    Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return None,
                }
            }
        }
        rx.recv().ok()
    }

    /// One sample; false when the server could not be read. The closing sample (after the
    /// virtual users stopped) only completes the measured phase's counts: it has no row.
    fn sample_once(&mut self, closing: bool) -> bool {
        let begun = Instant::now();
        self.lock().busy_since = Some(begun);
        #[cfg(feature = "postgres")]
        {
            self.closing = closing;
        }
        let result = self.read();
        let ms = begun.elapsed().as_secs_f64() * 1000.0;
        let mut s = self.lock();
        s.busy_since = None;
        s.note_wait(begun);
        match result {
            Ok(raw) => {
                s.note_recovery();
                drop(s);
                self.record(raw, ms, closing);
                true
            }
            Err(timeout) => {
                s.failing_since.get_or_insert(begun);
                s.last_failure_timeout = timeout;
                drop(s);
                #[cfg(feature = "mysql")]
                {
                    self.conn = None;
                }
                false
            }
        }
    }

    /// Reads everything; Err(true) when the server did not answer in time.
    fn read(&mut self) -> Result<RawSample, bool> {
        match self.opts.url.engine {
            #[cfg(feature = "mysql")]
            engine::Engine::Mysql => self.read_mysql(),
            #[cfg(feature = "postgres")]
            engine::Engine::Postgres => self.read_postgres(),
            #[allow(unreachable_patterns)]
            _ => Err(false),
        }
    }

    /// The server's process (from its pid file) and its data directory's disk, for the
    /// host figures; what cannot be found is said once.
    fn find_local(&mut self, pid_file: &str, datadir: &str) {
        let datadir = PathBuf::from(datadir);
        let pid_path = if Path::new(&pid_file).is_absolute() {
            PathBuf::from(&pid_file)
        } else {
            datadir.join(pid_file)
        };
        let pid = match host::server_pid(&pid_path) {
            Ok(p) => p,
            Err(why) => {
                self.not_recorded(format!(
                    "the server's process was not found on this host ({why}): its CPU, memory and I/O, the host's CPU and the disk are not recorded"
                ));
                return;
            }
        };
        // The pid file names a server; the figures are that server's only if it listens
        // where the URL connects (in a container the path may be another mysqld's).
        let why = match host::holds_socket(pid, &host::listening_inodes(&self.opts.url)) {
            Ok(true) => None,
            Ok(false) => Some(format!(
                "does not hold the socket listening where {} connects: it is another server, so",
                self.opts.url
            )),
            Err(e) => Some(format!(
                "cannot be confirmed to be the server {} connects to ({e}):",
                self.opts.url
            )),
        };
        if let Some(why) = why {
            self.not_recorded(format!(
                "process {pid} (from the pid file {}) {why} its CPU, memory and I/O, the host's CPU and the disk are not recorded",
                pid_path.display()
            ));
            return;
        }
        if !host::process_io_readable(pid) {
            self.not_recorded(format!(
                "/proc/{pid}/io is not readable by this user: the server's own read and write bytes are not recorded"
            ));
        }
        let device = match host::device_of(&datadir) {
            Ok(d) => Some(d),
            Err(why) => {
                self.not_recorded(format!("disk figures are not recorded: {why}"));
                None
            }
        };
        self.local = Some(Local { pid, device });
    }

    /// Events from what changed between two samples (or in the first), and a lost quorum.
    fn topology_events(&self, prev: Option<&RawSample>, cur: &RawSample) {
        use crate::metrics::server::REPLICAS_RUNNING;
        let get = |r: &RawSample, k: &str| r.status.get(k).copied();
        let mut events = Vec::new();
        let mut s = self.lock();
        // non-Primary, or Disconnected (no number) after having been Primary.
        let was_primary = prev.is_some_and(|p| get(p, "wsrep_cluster_status") == Some(1.0));
        let status = get(cur, "wsrep_cluster_status");
        if status == Some(0.0) || (was_primary && status.is_none()) {
            s.quorum_lost.get_or_insert(format!(
                "the Galera cluster lost quorum: {} is no longer in a Primary component at {:.0} s (wsrep_cluster_status; it refuses queries)",
                self.opts.url,
                cur.t
            ));
        }
        if let Some(prev) = prev {
            let changed = |k: &str| match (get(prev, k), get(cur, k)) {
                (Some(a), Some(b)) if a != b => Some((a, b)),
                _ => None,
            };
            match changed("rpl_semi_sync_master_status") {
                Some((_, 0.0)) => events.push(
                    "semi-synchronous replication fell back to asynchronous (Rpl_semi_sync_master_status OFF: no replica acknowledged within rpl_semi_sync_master_timeout)".to_string(),
                ),
                Some((_, _)) => events.push("semi-synchronous replication is on again".into()),
                None => {}
            }
            if let Some((a, b)) = changed(REPLICAS_RUNNING) {
                events.push(format!("{b:.0} replica(s) replicating (was {a:.0})"));
            }
            if let Some((a, b)) = changed("wsrep_cluster_size") {
                events.push(format!(
                    "the Galera cluster has {b:.0} node(s) (was {a:.0})"
                ));
            }
        }
        for what in events {
            s.events.push(Event { t_s: cur.t, what });
        }
    }

    fn record(&mut self, mut raw: RawSample, ms: f64, closing: bool) {
        if let Some(prev) = self.prev.as_ref() {
            for name in raw.carry_missing_counters(prev) {
                if self.missing_noted.insert(name.clone()) {
                    self.not_recorded(format!(
                        "the server's counter {name} was NULL or missing in the sample at {:.1} s: that sample is left out of it (the next one spans the gap), not read as 0",
                        raw.t
                    ));
                }
            }
        }
        self.topology_events(self.prev.as_ref(), &raw);
        let uptime = raw.status.get("uptime").copied();
        let t = raw.t;
        let prev = self.prev.replace(raw);
        let Some(prev) = prev else {
            let mut s = self.lock();
            if let Some(m) = s.measure_start {
                s.report.opening_lag_s = (t - m).max(0.0);
            }
            s.report.samples += 1;
            s.report.sample_ms_sum += ms;
            s.report.sample_ms_max = s.report.sample_ms_max.max(ms);
            return;
        };
        let Some(cur) = self.prev.as_ref() else {
            return;
        };
        if let (Some(before), Some(now)) = (prev.status.get("uptime"), uptime)
            && now < *before
        {
            self.lock().restart.get_or_insert(format!(
                "the server restarted during the run (Uptime went from {before} s to {now} s)"
            ));
        }
        let delta = Delta::between(&prev, cur);
        let measure_start = self.lock().measure_start;
        // A delta counts towards the measured phase when the sample before it was taken
        // after the measured phase began.
        let phase = match measure_start {
            Some(m) if prev.t >= m => Phase::Measure,
            _ => Phase::Warmup,
        };
        if closing {
            let mut s = self.lock();
            s.report.samples += 1;
            if phase == Phase::Measure {
                match &mut s.report.measured {
                    Some(sum) => sum.add(&delta),
                    None => s.report.measured = Some(delta),
                }
            }
            return;
        }
        let row = ServerRow::of(phase, &delta, cur.t);
        let mut write_error = None;
        if let Some(files) = self.files.as_mut().filter(|f| !f.failed) {
            let line = json_line(&row, &delta, ms);
            let wait_rows = waits::rows(phase, prev.t, cur.t, &delta.waits);
            let written = files
                .csv
                .write_all(row.csv_line().as_bytes())
                .and_then(|_| files.jsonl.write_all(line.as_bytes()))
                .and_then(|_| {
                    if wait_rows.is_empty() {
                        Ok(())
                    } else {
                        files.write_waits(&wait_rows)
                    }
                });
            if let Err(e) = written {
                files.failed = true;
                write_error = Some(e);
            }
        }
        if let Some(e) = write_error {
            self.not_recorded(format!(
                "writing server.csv failed ({e}): later samples are kept in memory only"
            ));
        }
        if !self.opts.metrics {
            // Counted all the same: the run's end waits for this sample.
            self.lock().report.samples += 1;
            return;
        }
        let mut s = self.lock();
        if let Some(m) = measure_start
            && prev.t < m
            && cur.t >= m
        {
            s.report.opening_lag_s = cur.t - m;
        }
        if phase == Phase::Measure {
            match &mut s.report.measured {
                Some(sum) => sum.add(&delta),
                None => s.report.measured = Some(delta),
            }
        }
        s.report.rows.push(row);
        s.report.samples += 1;
        s.report.sample_ms_sum += ms;
        s.report.sample_ms_max = s.report.sample_ms_max.max(ms);
    }
}

/// A server-status.jsonl line: the interval, the sample's wall time and the raw delta
/// (counters that moved, every gauge).
fn json_line(row: &ServerRow, d: &Delta, ms: f64) -> String {
    let nonzero = |m: &BTreeMap<String, f64>| -> BTreeMap<String, f64> {
        m.iter()
            .filter(|(_, v)| **v != 0.0)
            .map(|(k, v)| (k.clone(), *v))
            .collect()
    };
    let v = serde_json::json!({
        "phase": row.phase,
        "start_s": (row.start_s * 1000.0).round() / 1000.0,
        "end_s": (row.end_s * 1000.0).round() / 1000.0,
        "sample_ms": (ms * 1000.0).round() / 1000.0,
        "status": nonzero(&d.status),
        "status_gauges": d.status_gauges,
        "innodb": nonzero(&d.innodb),
        "innodb_gauges": d.innodb_gauges,
        "workload": d.workload,
        "process": d.process,
        "host": d.host,
        "disk": d.disk,
        "waits": d.waits,
    });
    format!("{v}\n")
}
