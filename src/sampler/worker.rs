//! The sampler's thread: its connection to the server (the monitor), what it found out about
//! the server on the first connection, and each sample: the engine's counters (mysql.rs,
//! postgres.rs), /proc when the server runs here, the delta from the last one, the rows
//! written and the watch for a restart (record.rs), a freeze or a lost server.

use super::{Files, Options, Request, State, host};
use crate::engine;
use crate::metrics::server::RawSample;
#[cfg(feature = "postgres")]
use crate::metrics::waits;
use crate::results::Event;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Where the server's process and data directory are, when it runs on this host.
pub(super) struct Local {
    pub(super) pid: i32,
    pub(super) device: Option<(u32, u32)>,
}

pub(super) struct Worker {
    pub(super) opts: Options,
    pub(super) state: Arc<Mutex<State>>,
    pub(super) files: Option<Files>,
    /// The monitor's connection to a MySQL or MariaDB server.
    #[cfg(feature = "mysql")]
    pub(super) conn: Option<::mysql::Conn>,
    /// Found out on the first connection.
    pub(super) discovered: bool,
    /// How the monitor reaches the server past a thread pool (None: not asked yet).
    #[cfg(feature = "mysql")]
    pub(super) pool: Option<engine::mysql::PoolRoute>,
    /// What the server said when it refused the last login, if it did (set by each attempt,
    /// taken by the sample that failed).
    pub(super) refusal: Option<super::Refusal>,
    pub(super) local: Option<Local>,
    /// The INNODB_METRICS query that works on this server (None: not readable).
    #[cfg(feature = "mysql")]
    pub(super) innodb_sql: Option<&'static str>,
    /// Whether performance_schema's wait summary is read (it is on, with timed waits).
    #[cfg(feature = "mysql")]
    pub(super) read_waits: bool,
    pub(super) workload_counts: Vec<(String, String)>,
    pub(super) prev: Option<RawSample>,
    /// This thread's CPU time at the last sample, s.
    pub(super) cpu_at_prev: f64,
    /// Counters already said to have been missing from a sample.
    pub(super) missing_noted: std::collections::BTreeSet<String>,
    /// SELECTs the monitor itself ran (they are in Com_select).
    #[cfg(feature = "mysql")]
    pub(super) own_selects: f64,
    /// The primary's replicas (found on the first connection) and a connection to each.
    #[cfg(feature = "mysql")]
    pub(super) replicas: Vec<(crate::topology::ReplicaAddr, Option<::mysql::Conn>)>,
    /// The monitor's connection to a PostgreSQL server.
    #[cfg(feature = "postgres")]
    pub(super) pg: Option<engine::postgres::Session>,
    /// PostgreSQL views this server cannot show (not asked again).
    #[cfg(feature = "postgres")]
    pub(super) pg_skip: Vec<&'static str>,
    /// PostgreSQL's wait events as polled so far (running totals, like performance_schema's).
    #[cfg(feature = "postgres")]
    pub(super) pg_waits: waits::Waits,
    /// When the wait events were last polled.
    #[cfg(feature = "postgres")]
    pub(super) pg_last_poll: Option<Instant>,
    /// Transactions the monitor itself committed on PostgreSQL (its statements).
    #[cfg(feature = "postgres")]
    pub(super) pg_own_xacts: f64,
    /// That, at the last sample.
    #[cfg(feature = "postgres")]
    pub(super) pg_own_at_sample: f64,
    /// The last value of the server's transaction count less the monitor's own (it never
    /// goes below it).
    #[cfg(feature = "postgres")]
    pub(super) pg_xact_floor: f64,
    /// The sample being read is the closing one (after the virtual users stopped).
    #[cfg(feature = "postgres")]
    pub(super) closing: bool,
    /// PostgreSQL: what a login costs was measured (at the first sample).
    #[cfg(feature = "postgres")]
    pub(super) pg_login_measured: bool,
    /// PostgreSQL: the server's clock at the first sample.
    #[cfg(feature = "postgres")]
    pub(super) pg_run_start: Option<String>,
}

impl Worker {
    pub(super) fn new(opts: Options, state: Arc<Mutex<State>>, files: Option<Files>) -> Worker {
        let workload_counts = opts.workload_counts.clone();
        Worker {
            opts,
            state,
            files,
            #[cfg(feature = "mysql")]
            conn: None,
            discovered: false,
            #[cfg(feature = "mysql")]
            pool: None,
            refusal: None,
            local: None,
            #[cfg(feature = "mysql")]
            innodb_sql: Some(super::mysql::INNODB_MARIADB),
            #[cfg(feature = "mysql")]
            read_waits: false,
            workload_counts,
            prev: None,
            cpu_at_prev: 0.0,
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

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs one look at the server with the monitor marked busy meanwhile: `check` sees a
    /// look that hangs as a frozen server, and one that waited [`FROZEN_WAIT`] is kept.
    pub(super) fn watched<T>(&self, look: impl FnOnce() -> T) -> T {
        let begun = Instant::now();
        self.lock().busy_since = Some(begun);
        let out = look();
        let mut s = self.lock();
        s.busy_since = None;
        s.note_wait(begun);
        out
    }

    /// Stops reading the workload counts that failed, saying why once.
    pub(super) fn drop_counts(&mut self, failed: Vec<(String, String)>) {
        for (name, why) in failed {
            self.workload_counts.retain(|(n, _)| *n != name);
            self.not_recorded(format!(
                "the server-side count {name} is not recorded ({why})"
            ));
        }
    }

    pub(super) fn not_recorded(&self, line: String) {
        let mut s = self.lock();
        s.notes.push(format!("server metrics: {line}"));
        s.report.not_recorded.push(line);
    }

    pub(super) fn run(mut self, rx: crossbeam_channel::Receiver<Request>) {
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
    pub(super) fn next_request(
        &mut self,
        rx: &crossbeam_channel::Receiver<Request>,
    ) -> Option<Request> {
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
                match rx.recv_timeout(super::PROBE_EVERY) {
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
    pub(super) fn sample_once(&mut self, closing: bool) -> bool {
        let begun = Instant::now();
        self.lock().busy_since = Some(begun);
        #[cfg(feature = "postgres")]
        {
            self.closing = closing;
        }
        let result = self.read();
        // The failure's cause, if it was the server refusing the login.
        let refusal = self.refusal.take();
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
                s.refused = refusal;
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
    pub(super) fn read(&mut self) -> Result<RawSample, bool> {
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
    pub(super) fn find_local(&mut self, pid_file: &str, datadir: &str) {
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
        self.lock().server_pid = Some(pid);
    }

    /// Events from what changed between two samples (or in the first), and a lost quorum.
    pub(super) fn topology_events(&self, prev: Option<&RawSample>, cur: &RawSample) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker(measure_start: f64) -> Worker {
        let opts = Options {
            url: crate::engine::TargetUrl::parse("mysql://u@127.0.0.1:1/db").unwrap(),
            t0: Instant::now(),
            dir: std::env::temp_dir(),
            workload_counts: Vec::new(),
            measure_start: Some(measure_start),
            metrics: true,
            profile: crate::config::Profiling::Off,
        };
        let state = Arc::new(Mutex::new(State {
            measure_start: Some(measure_start),
            ..State::default()
        }));
        Worker::new(opts, state, None)
    }

    fn sample(sent: f64, t: f64, selects: f64) -> RawSample {
        RawSample {
            t,
            sent,
            status: [("com_select".to_string(), selects)].into(),
            ..RawSample::default()
        }
    }

    #[test]
    fn a_sample_sent_before_the_phase_and_answered_after_it_does_not_open_it() {
        // The phase begins at 1.0 s. A sample sent at 0.95 s came back at 1.05 s: the server
        // may have read its counters before 1.0 s, so the phase opens with the next one.
        let mut w = worker(1.0);
        w.record(sample(0.0, 0.01, 0.0), 1.0, false);
        w.record(sample(0.95, 1.05, 800.0), 100.0, false);
        w.record(sample(1.10, 1.12, 1600.0), 20.0, false);
        w.record(sample(2.0, 2.01, 8000.0), 10.0, false);
        let s = w.lock();
        let measured = s.report.measured.as_ref().unwrap();
        // Only the deltas after the sample sent at 1.10 s: 8000 − 1600.
        assert_eq!(measured.status("com_select"), Some(6400.0));
        // Its counters were read by 1.12 s at the latest.
        assert!((s.report.opening_lag_s - 0.12).abs() < 1e-9);
    }

    #[test]
    fn the_opening_lag_runs_to_the_workloads_count() {
        // Behind a thread pool each statement of a sample queues: the counters came back at
        // 1.05 s, the New-Orders count at 2.3 s, and the New-Orders committed in between
        // are txbench's and not in the server's delta.
        // The phase begins at 1.0 s; the opening sample's counters came back at 1.05 s.
        let opening_lag = |workload_t: f64| {
            let mut w = worker(1.0);
            w.record(sample(0.0, 0.01, 0.0), 1.0, false);
            let mut opening = sample(1.02, 1.05, 800.0);
            opening.workload_t = Some(workload_t);
            w.record(opening, 1280.0, false);
            w.lock().report.opening_lag_s
        };
        assert!((opening_lag(2.3) - 1.3).abs() < 1e-9);
        // A count answered before the status (it never is) does not shorten the lag.
        assert!((opening_lag(1.03) - 0.05).abs() < 1e-9);
    }
}
