//! This process's virtual users as one: their threads connected before the start, released
//! together on the go signal, their recorders emptied each interval, halted and joined at
//! the end.

use super::cut::{self, Cutting};
use super::signal::sleep_until;
use super::stall;
use super::worker::{self, Shared};
use super::{Display, Part, Targets};
use crate::config::RunConfig;
use crate::engine::TargetUrl;
use crate::metrics::Recorder;
use crate::workload::Workload;
use anyhow::{Result, bail};
use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

/// Descriptors a run needs besides one per virtual user (its connection; a second, the end
/// of the run's hold on it, is wanted): the sampler's connections, result files, the live
/// page, the server's logs.
const OTHER_FILES: u64 = 256;

/// Raises this process's soft limit of open files to its hard limit when `users`
/// connections need more than the soft one, as Go's runtime does at every start (a login
/// shell's soft limit of 1,024 refused the 1,000th virtual user's connection). Returns
/// whether the limit leaves room for the end of the run's holds on the users' sockets
/// (optional: without them a user is cut on the server only; taken only when every user
/// has room for one, so that no hold takes a later user's connection). Err, before anything
/// connects: the hard limit is too low, named with --threads.
fn ensure_open_files(users: usize) -> Result<bool> {
    let needed = users as u64 + OTHER_FILES;
    let wanted = needed + users as u64;
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: a valid pointer to a rlimit the call fills.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Ok(false);
    }
    if lim.rlim_cur >= wanted {
        return Ok(true);
    }
    if lim.rlim_max < needed {
        bail!(
            "--threads {users}: {users} virtual users need about {needed} open files, and this process may open at most {} (its hard limit, ulimit -Hn): raise it or run fewer users",
            lim.rlim_max
        );
    }
    // A hard limit of "unlimited" is more than the kernel takes (fs.nr_open, 2^20 by default).
    lim.rlim_cur = lim.rlim_max.min(1 << 20).max(needed);
    // SAFETY: a valid rlimit, its soft limit at most its hard one.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) } != 0 {
        bail!(
            "--threads {users}: raising the limit of open files to {}: {}",
            lim.rlim_cur,
            std::io::Error::last_os_error()
        );
    }
    Ok(lim.rlim_cur >= wanted)
}

/// How the end of a run met the transactions in flight.
#[derive(Default)]
pub(super) struct InFlight {
    /// The users cut (None: nobody was).
    pub(super) cutting: Option<Cutting>,
    /// Users still inside a transaction after the grace and waited for, not cut: those that
    /// may have sent what ends one, too many against the transactions completed.
    pub(super) waited_for: usize,
    /// Users that did not finish within END_JOIN_LIMIT.
    pub(super) left: usize,
}

/// How long before --start-at the virtual users connect.
const CONNECT_AHEAD: Duration = Duration::from_secs(60);

/// How long the end of a run waits for the transactions in flight (a lock wait ends within
/// innodb_lock_wait_timeout, 50 s by default).
pub(super) const END_JOIN_LIMIT: Duration = Duration::from_secs(60);

use worker::Go;

/// A virtual user's thread, or its fiber's end (the fibers' threads are the [`Users`]').
enum Handle {
    Thread(JoinHandle<()>),
    Fiber(Arc<AtomicBool>),
}

impl Handle {
    fn is_finished(&self) -> bool {
        match self {
            Handle::Thread(h) => h.is_finished(),
            Handle::Fiber(done) => done.load(Ordering::SeqCst),
        }
    }

    fn join(self) {
        if let Handle::Thread(h) = self {
            let _ = h.join();
        }
    }
}

/// The virtual users of this process, connected and waiting for the go signal or running.
pub(super) struct Users {
    /// How many.
    pub(super) n: usize,
    /// What they share with the run loop: their recorders, the stop flag, the --events budget.
    pub(super) shared: Arc<Shared>,
    /// Each user's thread or fiber, by its index.
    handles: Vec<(usize, Handle)>,
    /// The threads of the users' fibers (--client-threads).
    fibers: Option<crate::engine::fiber::Pool>,
    /// How many threads the fibers run on (None: a thread each).
    pub(super) fiber_threads: Option<u32>,
    /// Dropped to tell users still waiting for the go signal that there will be none.
    go: Option<Sender<Go>>,
    /// Stops the --rate schedule.
    pub(super) stop_flag: Arc<AtomicBool>,
    /// Set by the --rate schedule when the database cannot keep up with it.
    pub(super) overflow: Arc<AtomicBool>,
    /// The process's peak memory before they connected (KiB), and how long connecting them
    /// took (s).
    pub(super) rss_before_kib: u64,
    pub(super) connect_s: f64,
}

impl Users {
    /// Starts every virtual user of `part` and waits until each has connected (or failed to:
    /// then the run ends before it starts, with the first connection's error).
    pub(super) fn connect(
        cfg: &RunConfig,
        part: &Part,
        targets: &Targets,
        workload: &dyn Workload,
        display: &dyn Display,
    ) -> Result<Users> {
        let n = part.users.len();
        let hold_sockets = ensure_open_files(n)?;
        let nt = targets.urls.len().max(1);
        let kinds = workload.kinds().len();
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            pausing: (Mutex::new(()), Condvar::new()),
            crashed: Mutex::new(None),
            remaining: AtomicI64::new(i64::MAX),
            startup_error: Mutex::new(None),
            recorders: (0..n * nt)
                .map(|_| Mutex::new(Recorder::new(kinds)))
                .collect(),
            targets: nt,
            pg_setup: Default::default(),
            pg_prepares_alone: Default::default(),
            busy: stall::Busy::new(n),
            running: std::sync::atomic::AtomicUsize::new(n),
            done_error: Mutex::new(None),
            sessions: (0..n).map(|_| cut::Session::default()).collect(),
            hold_sockets,
            opening: std::sync::OnceLock::new(),
        });
        let arrived = Arc::new(worker::Arrived::default());
        let (go_tx, go_rx) = crossbeam_channel::bounded::<Go>(n);
        wait_to_connect(part, display);
        let rss_before_kib = super::validity::process_peak_rss_kib();
        let started = Instant::now();
        let (handles, fibers) = match cfg.client_threads {
            None => {
                let mut handles = Vec::with_capacity(n);
                for (id, &user) in part.users.iter().enumerate() {
                    let body =
                        worker::body(id, user, cfg, targets, workload, &shared, &arrived, &go_rx);
                    let spawned = worker::spawn(user, body);
                    // Users already started wait for the go signal: dropping it ends them.
                    handles.push((id, Handle::Thread(spawned?)));
                }
                (handles, None)
            }
            Some(threads) => {
                let bodies = part.users.iter().enumerate().map(|(id, &user)| {
                    worker::body(id, user, cfg, targets, workload, &shared, &arrived, &go_rx)
                });
                let done: Vec<_> = (0..n).map(|_| Arc::new(AtomicBool::new(false))).collect();
                let pool = crate::engine::fiber::Pool::spawn(
                    "vu",
                    threads as usize,
                    worker::WORKER_STACK,
                    bodies.collect(),
                    &done,
                )
                .map_err(|e| {
                    // Fibers already started wait for a go signal that will not come.
                    crate::engine::fiber::wake_all();
                    anyhow::anyhow!("--client-threads {threads}: starting the fibers: {e}")
                })?;
                let handles = done.into_iter().map(Handle::Fiber).enumerate().collect();
                (handles, Some(pool))
            }
        };
        arrived.wait(n);
        let fiber_threads = fibers.as_ref().map(|p| p.threads() as u32);
        let users = Users {
            n,
            shared,
            handles,
            fibers,
            fiber_threads,
            go: Some(go_tx),
            stop_flag: Arc::new(AtomicBool::new(false)),
            overflow: Arc::new(AtomicBool::new(false)),
            rss_before_kib,
            connect_s: started.elapsed().as_secs_f64(),
        };
        let failed = users
            .shared
            .startup_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if let Some(err) = failed {
            users.abandon();
            bail!("a virtual user could not connect: {err}");
        }
        Ok(users)
    }

    /// Every connection is open: waits for the shared start (Ctrl-C ends the wait, and the
    /// run then ends at once as interrupted).
    pub(super) fn wait_for_start(&self, part: &Part, display: &dyn Display) {
        if let Some(at) = part.start_at {
            display.note(&format!(
                "{} virtual user(s) connected; starting at {}",
                self.n,
                crate::shard::rfc3339(at)
            ));
            sleep_until(at);
        }
    }

    /// The run will not start: tells the users and waits for them to end.
    pub(super) fn abandon(mut self) {
        self.go = None;
        crate::engine::fiber::wake_all();
        for (_, h) in std::mem::take(&mut self.handles) {
            h.join();
        }
        self.join_fibers(Duration::from_secs(5));
    }

    /// Joins the fibers' threads once every fiber has ended, waiting up to `limit` (a fiber
    /// left in a transaction is left with its thread: the process ends without them).
    fn join_fibers(&mut self, limit: Duration) {
        let deadline = Instant::now() + limit;
        if let Some(pool) = self.fibers.take() {
            while !pool.finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if pool.finished() {
                pool.join();
            }
        }
    }

    /// Releases every user on `schedule` (None: a closed loop). Without a warm-up the
    /// --events budget is in place before any of them starts (after a warm-up it is set
    /// again, the warm-up spending none of it).
    pub(super) fn release(
        &self,
        part: &Part,
        measuring: bool,
        workload: &dyn Workload,
        schedule: Option<&Receiver<Instant>>,
    ) {
        if measuring {
            self.start_budget(part, workload);
        }
        if let Some(go) = &self.go {
            for _ in 0..self.n {
                let _ = go.send(schedule.cloned());
            }
        }
        crate::engine::fiber::wake_all();
    }

    /// The measured phase starts: the --events budget is set and the workload told.
    pub(super) fn start_budget(&self, part: &Part, workload: &dyn Workload) {
        self.shared
            .remaining
            .store(part.events.map_or(i64::MAX, |e| e as i64), Ordering::SeqCst);
        workload.measure_started();
    }

    /// Whether the --events budget is spent.
    pub(super) fn events_done(&self, part: &Part) -> bool {
        part.events.is_some() && self.shared.remaining.load(Ordering::SeqCst) <= 0
    }

    /// Whether something asked the run to stop: Ctrl-C, the --rate schedule's overflow, or a
    /// virtual user (a crash, a spent budget).
    pub(super) fn stop_asked(&self) -> bool {
        super::signal::INTERRUPTED.load(Ordering::SeqCst)
            || self.overflow.load(Ordering::Relaxed)
            || self.shared.stop.load(Ordering::Relaxed)
    }

    /// Every user ends after its transaction; the --rate schedule stops.
    pub(super) fn halt(&self) {
        self.shared.halt();
        self.stop_flag.store(true, Ordering::SeqCst);
    }

    /// Waits for the transactions in flight: with `cut` (the targets' URLs, and how many
    /// users may be cut after they may have sent what ends a transaction), a [`cut::GRACE`]
    /// for them to end, then the users still inside one are cut: on MySQL every one that
    /// sent nothing that could end it (its gate closed), and the others unless they are
    /// more than may be (then they are waited for); then up to END_JOIN_LIMIT for the rest.
    pub(super) fn join_in_flight(&mut self, cut: Option<(&[Vec<TargetUrl>], u64)>) -> InFlight {
        let mut left = std::mem::take(&mut self.handles);
        let mut ended = InFlight::default();
        if let Some((ways, most)) = cut {
            left = join_within(left, cut::GRACE);
            let sessions = &self.shared.sessions;
            let clean_free = ways
                .iter()
                .flatten()
                .next()
                .is_some_and(|u| crate::engine::sessions::clean_cut_uncounted(u.engine));
            let (mut clean, mut others) = (Vec::new(), Vec::new());
            for id in left.iter().map(|(id, _)| *id) {
                if !self.shared.busy.is_inside(id) {
                    continue;
                }
                if clean_free && sessions[id].gate.close() {
                    clean.push(id);
                } else {
                    others.push(id);
                }
            }
            let uncommitted = clean.len() as u64;
            if others.len() as u64 > most {
                ended.waited_for = others.len();
            } else {
                clean.append(&mut others);
            }
            if !clean.is_empty() {
                ended.cutting = Some(cut::cut(sessions, &clean, uncommitted, ways));
            }
        }
        ended.left = join_within(left, END_JOIN_LIMIT).len();
        ended
    }

    /// The transactions completed since the last interval's counts were taken.
    pub(super) fn completed_pending(&self) -> u64 {
        self.shared
            .recorders
            .iter()
            .map(|r| {
                r.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .completed_total()
            })
            .sum()
    }

    /// Empties every user's recorder: the interval's counts, in all and per target (one
    /// recorder per target only with several targets).
    pub(super) fn take_counts(&self, kinds: usize) -> (Recorder, Vec<Recorder>) {
        let nt = self.shared.targets;
        let mut rec = Recorder::new(kinds);
        let mut per_target: Vec<Recorder> = (0..nt).map(|_| Recorder::new(kinds)).collect();
        for (i, r) in self.shared.recorders.iter().enumerate() {
            let taken = std::mem::replace(
                &mut *r.lock().unwrap_or_else(|p| p.into_inner()),
                Recorder::new(kinds),
            );
            rec.merge(&taken);
            if nt > 1 {
                per_target[i % nt].merge(&taken);
            }
        }
        (rec, per_target)
    }

    /// The run is over: stops everyone, then joins those that finish within `limit` and
    /// leaves the rest (the process ends without them). `schedule` ends after the go signal.
    pub(super) fn leave<T>(mut self, schedule: Option<T>, limit: Duration) {
        self.halt();
        self.go = None;
        drop(schedule);
        let left = join_within(std::mem::take(&mut self.handles), limit);
        if left.is_empty() {
            self.join_fibers(Duration::from_secs(1));
        }
    }
}

impl Drop for Users {
    /// Fibers waiting for the go signal learn that none will come (the sender is gone).
    fn drop(&mut self) {
        self.go = None;
        crate::engine::fiber::wake_all();
    }
}

/// Connections opened long before a far start would sit idle past wait_timeout or a proxy's
/// idle limit: waits until the last minute before --start-at to open them.
fn wait_to_connect(part: &Part, display: &dyn Display) {
    if let Some(at) = part.start_at
        && let Ok(ahead) = at.duration_since(SystemTime::now())
        && ahead > CONNECT_AHEAD
    {
        display.note(&format!(
            "waiting until a minute before the start at {} to connect",
            crate::shard::rfc3339(at)
        ));
        sleep_until(at - CONNECT_AHEAD);
    }
}

/// Joins the threads that finish within `limit`; returns those that did not.
fn join_within(handles: Vec<(usize, Handle)>, limit: Duration) -> Vec<(usize, Handle)> {
    let deadline = Instant::now() + limit;
    let mut left = handles;
    loop {
        let (done, rest): (Vec<_>, Vec<_>) = left.into_iter().partition(|h| h.1.is_finished());
        for (_, h) in done {
            h.join();
        }
        left = rest;
        if left.is_empty() || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
