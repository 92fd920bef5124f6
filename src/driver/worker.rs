//! One virtual user: its thread and connection, the one worker loop (closed, or paced by
//! the open-loop schedule), retries, pauses and reconnects, and what the users share.

use super::Targets;
use crate::config::RunConfig;
use crate::engine::{self, TargetUrl};
use crate::metrics::{Recorder, StmtCounts};
use crate::workload::{Worker, Workload, rand::worker_rng};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Opens a worker connection with the run's session settings.
pub fn connect_session(url: &TargetUrl, cfg: &RunConfig) -> anyhow::Result<crate::engine::Conn> {
    let mut conn = engine::connect(url)?;
    if let Some(iso) = cfg.isolation {
        // PostgreSQL takes READ UNCOMMITTED and runs it as READ COMMITTED.
        conn.query_drop(match conn.engine() {
            engine::Engine::Mysql => {
                format!("SET SESSION TRANSACTION ISOLATION LEVEL {}", iso.sql())
            }
            engine::Engine::Postgres => format!(
                "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL {}",
                iso.sql()
            ),
        })?;
    }
    Ok(conn)
}

pub(super) struct Shared {
    pub(super) stop: AtomicBool,
    /// Where virtual users wait out keying and think times: woken when the run stops, so a
    /// paced terminal sleeps its whole pause instead of polling the stop flag.
    pub(super) pausing: (Mutex<()>, Condvar),
    /// A virtual user that crashed (a bug): the run cannot be trusted.
    pub(super) crashed: Mutex<Option<String>>,
    /// Transactions still allowed (with --events); i64::MAX during warm-up or without it.
    pub(super) remaining: AtomicI64,
    pub(super) startup_error: Mutex<Option<String>>,
    /// One per virtual user and target: virtual user v's on target t at v * targets + t.
    pub(super) recorders: Vec<Mutex<Recorder>>,
    /// How many targets.
    pub(super) targets: usize,
    /// PostgreSQL: the most transactions a virtual user's connection ended preparing, and
    /// the statements the connections prepared outside a transaction (counted from the
    /// protocol, for the cross-check).
    pub(super) pg_setup: std::sync::atomic::AtomicU64,
    pub(super) pg_prepares_alone: std::sync::atomic::AtomicU64,
    /// Which virtual users are inside a transaction, since when (a stalled run's rule).
    pub(super) busy: super::stall::Busy,
    /// Virtual users that have not ended their run themselves ([`Worker::finished`]): when
    /// none is left, the run stops.
    pub(super) running: std::sync::atomic::AtomicUsize,
    /// The first error of a virtual user's last words ([`Worker::done`]), kept as a note.
    pub(super) done_error: Mutex<Option<String>>,
    /// Each virtual user's session, for the end of the run to cut.
    pub(super) sessions: Vec<super::cut::Session>,
    /// Whether the limit of open files leaves room for a hold on each user's socket.
    pub(super) hold_sockets: bool,
    /// When the measured phase opened after a warm-up: set before the opening sample, and
    /// read by a user under its recorder's lock, so an attempt recorded into the measured
    /// phase that started before it is counted as [`KindStats::opened_before`].
    ///
    /// [`KindStats::opened_before`]: crate::metrics::KindStats::opened_before
    pub(super) opening: std::sync::OnceLock<Instant>,
}

impl Shared {
    /// Virtual user `id` connected to `target`: its session is noted, and what the
    /// connection just prepared cost (PostgreSQL).
    fn connected(&self, id: usize, target: usize, conn: &crate::engine::Conn) {
        self.sessions[id].connected(target, conn, self.hold_sockets);
        if let Some((t, _)) = conn.pg_transactions() {
            self.pg_setup.fetch_max(t, Ordering::Relaxed);
        }
    }

    /// Notes what a connection about to be dropped prepared alone (PostgreSQL).
    fn closing(&self, conn: &crate::engine::Conn) {
        if let Some((_, p)) = conn.pg_transactions() {
            self.pg_prepares_alone.fetch_add(p, Ordering::Relaxed);
        }
    }

    /// Stops the run: every virtual user ends after its transaction, pausing ones at once.
    pub(super) fn halt(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let _g = self.pausing.0.lock().unwrap_or_else(|p| p.into_inner());
        self.pausing.1.notify_all();
        engine::fiber::wake_all();
    }
}

#[allow(clippy::too_many_arguments)]
fn worker_loop(
    id: usize,
    cfg: &RunConfig,
    urls: &[TargetUrl],
    galera: &[bool],
    current: &mut usize,
    shared: &Shared,
    worker: &mut dyn Worker,
    conn: &mut crate::engine::Conn,
    schedule: Option<crossbeam_channel::Receiver<Instant>>,
    names: &[String],
) {
    while !shared.stop.load(Ordering::Relaxed) {
        let recorder = &shared.recorders[id * shared.targets + *current];
        let (intended, kind, think) = match &schedule {
            None => {
                // Closed loop: keying time before the transaction and think time after
                // it belong to the emulated user, not to the measured latency.
                let kind = worker.next_kind();
                let (keying, think) = worker.pauses(kind);
                if !pause(shared, keying) {
                    break;
                }
                (Instant::now(), kind, think)
            }
            Some(rx) => match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(t) => (t, worker.next_kind(), Duration::ZERO),
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => continue,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
            },
        };
        // Exactly --events transactions start: once the budget is spent it stays spent.
        if shared.remaining.fetch_sub(1, Ordering::Relaxed) <= 0 {
            if cfg.events.is_some() {
                shared.halt();
            }
            break;
        }
        shared.busy.enter(id);
        let session = &shared.sessions[id];
        // Open unless the server said it is not (after an error it may still be).
        session.gate.attempt(conn.in_transaction() != Some(false));
        let start = Instant::now();
        let galera_node = galera.get(*current).copied().unwrap_or(false);
        let attempts = attempt(cfg, worker, conn, kind, galera_node);
        let end = Instant::now();
        let kind = worker.kind_ran().unwrap_or(kind);
        shared.busy.leave(id);
        let cut = session.was_cut().then(|| session.gate.closed());
        let at = (intended, start, end);
        let lost = attempts.record(recorder, kind, names, at, cut, &shared.opening);
        if worker.finished() {
            // The last user to end its run ends everyone's, as sysbench's run ends when its
            // threads have.
            if shared.running.fetch_sub(1, Ordering::SeqCst) == 1 {
                shared.halt();
            }
            break;
        }
        if lost && !reconnect(cfg, urls, current, id, shared, worker, conn) {
            break;
        }
        if !pause(shared, think) {
            break;
        }
    }
}

/// The class of each retry, indexed by ErrorClass::index.
type RetriedAs = [u32; crate::metrics::ErrorClass::ALL.len()];

/// A transaction's attempts: how it ended (its outcome, or the class and message of its last
/// error), its statements and its retries by class.
struct Attempts {
    result: Result<crate::metrics::Outcome, (crate::metrics::ErrorClass, String)>,
    stmts: StmtCounts,
    retries: u32,
    retried_as: RetriedAs,
}

/// Runs transaction `kind`, retrying a deadlock, a lock-wait timeout or a serialization
/// failure (on a Galera node also a data error: a conflict) up to --retries times.
#[inline]
fn attempt(
    cfg: &RunConfig,
    worker: &mut dyn Worker,
    conn: &mut crate::engine::Conn,
    kind: usize,
    galera_node: bool,
) -> Attempts {
    let mut stmts = StmtCounts::default();
    let mut retries = 0u32;
    // The class of each retry (written only when one happens).
    let mut retried_as: RetriedAs = [0; crate::metrics::ErrorClass::ALL.len()];
    let result = loop {
        match worker.execute(conn, kind, retries > 0, &mut stmts) {
            Ok(outcome) => break Ok(outcome),
            Err(e) => {
                let class = engine::classify(&e);
                if class.disconnects() {
                    break Err((class, engine::error_message(&e)));
                }
                // A lock-wait timeout rolls back only the statement: end the transaction.
                // Without the connection (lost, or the end of the run cut the user), no retry.
                if let Err(r) = conn.rollback()
                    && engine::classify(&r).disconnects()
                {
                    break Err((engine::classify(&r), engine::error_message(&r)));
                }
                // On Galera another node's write can reach a row between this
                // transaction's read and its write (certification would roll it back).
                let conflict = class == crate::metrics::ErrorClass::Data && galera_node;
                if (class.retryable() || conflict) && retries < cfg.retries {
                    retries += 1;
                    retried_as[class.index()] += 1;
                    continue;
                }
                break Err((class, engine::error_message(&e)));
            }
        }
    };
    Attempts {
        result,
        stmts,
        retries,
        retried_as,
    }
}

impl Attempts {
    /// Counts the transaction in its virtual user's recorder: statements, retries by class,
    /// and its latencies (`at`: intended start, actual start, end), or its failure, or (its
    /// session `cut` at the end of the run: whether before it sent anything that could end
    /// a transaction) the cut. Returns whether it lost its connection.
    #[inline]
    fn record(
        &self,
        recorder: &Mutex<Recorder>,
        kind: usize,
        names: &[String],
        at: (Instant, Instant, Instant),
        cut: Option<bool>,
        opening: &std::sync::OnceLock<Instant>,
    ) -> bool {
        let (intended, start, end) = at;
        let mut r = recorder.lock().unwrap_or_else(|p| p.into_inner());
        // Read under the lock: the interval that closes the warm-up sets the opening before
        // it takes the recorders, so an attempt recorded after that sees it.
        if opening.get().is_some_and(|o| start < *o) {
            r.kinds[kind].opened_before += 1;
        }
        r.stmts.reads += self.stmts.reads;
        r.stmts.writes += self.stmts.writes;
        r.stmts.other += self.stmts.other;
        if self.retries > 0 {
            for c in crate::metrics::ErrorClass::ALL {
                let n = self.retried_as[c.index()];
                if n > 0 {
                    r.kinds[kind].retries += u64::from(n);
                    r.kinds[kind].retries_by_class[c.index()] += u64::from(n);
                }
            }
        }
        match &self.result {
            Ok(outcome) => {
                r.completed(
                    kind,
                    *outcome,
                    end.saturating_duration_since(intended).as_micros() as u64,
                    (end - start).as_micros() as u64,
                );
                if self.retries > 0 {
                    r.kinds[kind].retried_completed += 1;
                }
                false
            }
            // Whatever the error, it is the cut's: the session ended under it.
            Err(_) if cut.is_some() => {
                if cut == Some(true) {
                    r.cut_uncommitted += 1;
                } else {
                    r.cut += 1;
                }
                true
            }
            Err((class, msg)) => {
                r.failed(kind, &names[kind], *class, msg);
                class.disconnects()
            }
        }
    }
}

/// Waits `d` unless the run stops first (then false). A stop wakes the wait: a thousand
/// paced terminals sleep without polling.
pub(super) fn pause(shared: &Shared, d: Duration) -> bool {
    if d.is_zero() {
        return !shared.stop.load(Ordering::Relaxed);
    }
    let end = Instant::now() + d;
    if engine::fiber::in_fiber() {
        // A fiber yields its thread; `halt` wakes it (stop is read after the epoch, so a
        // stop between the two is news it has not seen).
        loop {
            let seen = engine::fiber::epoch();
            if shared.stop.load(Ordering::SeqCst) {
                return false;
            }
            if Instant::now() >= end {
                return true;
            }
            engine::fiber::wait_for_news(Some(end), seen);
        }
    }
    let (lock, cv) = &shared.pausing;
    let mut g = lock.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        // Checked under the lock `halt` takes to notify: a stop is never missed.
        if shared.stop.load(Ordering::SeqCst) {
            return false;
        }
        let now = Instant::now();
        if now >= end {
            return true;
        }
        g = cv
            .wait_timeout(g, end - now)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
}

/// Reconnects with backoff (50 ms doubling to 2 s) until it works or the run stops: to its
/// own target first, then to the others in turn (a virtual user whose node died moves to a
/// surviving one, and counts a reconnect there).
fn reconnect(
    cfg: &RunConfig,
    urls: &[TargetUrl],
    current: &mut usize,
    id: usize,
    shared: &Shared,
    worker: &mut dyn Worker,
    conn: &mut crate::engine::Conn,
) -> bool {
    let mut backoff = Duration::from_millis(50);
    while !shared.stop.load(Ordering::Relaxed) {
        for k in 0..urls.len() {
            let t = (*current + k) % urls.len();
            if let Ok(mut c) = connect_session(&urls[t], cfg)
                && c.in_one_transaction(|c| worker.on_connect(c)).is_ok()
            {
                shared.closing(conn);
                shared.connected(id, t, &c);
                *conn = c;
                *current = t;
                shared.recorders[id * shared.targets + t]
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .reconnects += 1;
                return true;
            }
            if shared.stop.load(Ordering::Relaxed) {
                return false;
            }
        }
        engine::fiber::sleep(backoff);
        backoff = (backoff * 2).min(Duration::from_secs(2));
    }
    false
}

/// The run ended for virtual user `id`: its last words on its connection (sysbench's
/// thread_done), their statements counted in its recorder (before the last interval's
/// counts are taken: the server's counters see them), an error kept as the run's note. A
/// user whose session the end of the run cut has no connection to say them on.
fn finish(
    id: usize,
    user: u32,
    current: usize,
    shared: &Shared,
    worker: &mut dyn Worker,
    conn: &mut crate::engine::Conn,
) {
    if shared.sessions[id].was_cut() {
        return;
    }
    let mut stmts = StmtCounts::default();
    let ended = worker.done(conn, &mut stmts);
    {
        let mut r = shared.recorders[id * shared.targets + current]
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        r.stmts.reads += stmts.reads;
        r.stmts.writes += stmts.writes;
        r.stmts.other += stmts.other;
    }
    if let Err(e) = ended {
        let mut slot = shared.done_error.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(format!(
            "virtual user {user}'s end of run failed: {}",
            engine::error_message(&e)
        ));
    }
}

/// Stack size of a worker thread: workers keep little on the stack, and 1,000 of them
/// must stay cheap.
pub(super) const WORKER_STACK: usize = 256 * 1024;

/// How a virtual user tells the process it has connected (or failed to): a count the
/// users raise without waiting, and the process waits on.
#[derive(Default)]
pub(super) struct Arrived {
    count: Mutex<usize>,
    all: Condvar,
}

impl Arrived {
    fn arrive(&self) {
        *self.count.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        self.all.notify_all();
    }

    /// Arrives when dropped, unless [`Arriving::now`] did: a user that panics while it
    /// connects is counted all the same, and the process does not wait for it forever; its
    /// panic is the run's startup error (the run does not start without it).
    pub(super) fn arriving(self: &Arc<Arrived>, shared: &Arc<Shared>, user: u32) -> Arriving {
        Arriving(Some((self.clone(), shared.clone(), user)))
    }

    /// Waits until `n` users have arrived.
    pub(super) fn wait(&self, n: usize) {
        let mut c = self.count.lock().unwrap_or_else(|p| p.into_inner());
        while *c < n {
            c = self.all.wait(c).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// A user's arrival, made when it has connected or when it is dropped.
pub(super) struct Arriving(Option<(Arc<Arrived>, Arc<Shared>, u32)>);

impl Arriving {
    pub(super) fn now(&mut self) {
        if let Some((a, shared, user)) = self.0.take() {
            if std::thread::panicking() {
                let mut slot = shared
                    .startup_error
                    .lock()
                    .unwrap_or_else(|p| p.into_inner());
                slot.get_or_insert_with(|| {
                    format!("virtual user {user} crashed while it connected (a txbench bug)")
                });
            }
            a.arrive();
        }
    }
}

impl Drop for Arriving {
    fn drop(&mut self) {
        self.now();
    }
}

/// The go signal, or None when there will be none: a fiber yields its thread while it
/// waits ([`Users::release`](super::users::Users::release) wakes it).
fn await_go(go_rx: &crossbeam_channel::Receiver<Go>) -> Option<Go> {
    if !engine::fiber::in_fiber() {
        return go_rx.recv().ok();
    }
    loop {
        let seen = engine::fiber::epoch();
        match go_rx.try_recv() {
            Ok(go) => return Some(go),
            Err(crossbeam_channel::TryRecvError::Disconnected) => return None,
            Err(crossbeam_channel::TryRecvError::Empty) => engine::fiber::wait_for_news(None, seen),
        }
    }
}

/// The go signal: the --rate schedule's arrivals, or None for a closed loop.
pub(super) type Go = Option<crossbeam_channel::Receiver<Instant>>;

/// Starts virtual user `user`'s [`body`] on a thread of its own.
pub(super) fn spawn(
    user: u32,
    body: engine::fiber::Body,
) -> anyhow::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name(format!("vu-{user}"))
        .stack_size(WORKER_STACK)
        .spawn(body)
        .map_err(|e| {
            anyhow::anyhow!(
                "starting virtual user {user}: {e} (too many --threads for this machine?)"
            )
        })
}

/// Virtual user `user` (the `id`th of this process), to run on a thread or a fiber: it
/// connects to its target, says it has ([`Arrived`]), waits for the go signal, then runs
/// the worker loop on the schedule it is sent (None: closed loop) until the run stops. A
/// connection that fails is reported in `shared.startup_error`; a panic ends the run as
/// INVALID.
#[allow(clippy::too_many_arguments)]
pub(super) fn body(
    id: usize,
    user: u32,
    cfg: &RunConfig,
    targets: &Targets,
    workload: &dyn Workload,
    shared: &Arc<Shared>,
    arrived: &Arc<Arrived>,
    go_rx: &crossbeam_channel::Receiver<Go>,
) -> engine::fiber::Body {
    let shared = shared.clone();
    let arrived = arrived.clone();
    let go_rx = go_rx.clone();
    let urls = targets.urls.clone();
    let galera = targets.galera.clone();
    let cfg = cfg.clone();
    let mut worker = workload.worker(user, worker_rng(cfg.seed, u64::from(user)));
    let names = workload.kinds();
    Box::new(move || {
        let mut arriving = arrived.arriving(&shared, user);
        let mut current = user as usize % urls.len();
        let conn = connect_session(&urls[current], &cfg).and_then(|mut c| {
            c.in_one_transaction(|c| worker.on_connect(c))?;
            shared.connected(id, current, &c);
            Ok(c)
        });
        let mut conn = match conn {
            Ok(c) => Some(c),
            Err(e) => {
                let mut slot = shared
                    .startup_error
                    .lock()
                    .unwrap_or_else(|p| p.into_inner());
                slot.get_or_insert_with(|| crate::error::one_line(&e));
                None
            }
        };
        arriving.now();
        let Some(schedule) = await_go(&go_rx) else {
            return;
        };
        // The user's statements from now on pass its gate (the end of the run's cut),
        // where a user cut before its COMMIT is counted by nobody.
        if urls
            .first()
            .is_some_and(|u| engine::sessions::clean_cut_uncounted(u.engine))
        {
            engine::sessions::guard(Some(shared.sessions[id].gate.clone()));
        }
        if let Some(conn) = conn.as_mut() {
            // A panic is a txbench bug; a virtual user that vanished silently would
            // leave numbers that look fine, so it ends the run as INVALID.
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                worker_loop(
                    id,
                    &cfg,
                    &urls,
                    &galera,
                    &mut current,
                    &shared,
                    worker.as_mut(),
                    conn,
                    schedule,
                    &names,
                );
                finish(id, user, current, &shared, worker.as_mut(), conn);
            }));
            shared.closing(conn);
            shared.sessions[id].released();
            if let Err(panic) = ran {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".into());
                let mut slot = shared.crashed.lock().unwrap_or_else(|p| p.into_inner());
                slot.get_or_insert(format!(
                    "virtual user {user} crashed (a txbench bug): {msg}"
                ));
                shared.halt();
            }
        }
    })
}
