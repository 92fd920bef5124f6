//! The driver: one OS thread and one connection per virtual user, a start barrier, then
//! the one worker loop (closed, or paced by the open-loop schedule), retries, reconnects,
//! interval collection, results written as the run goes, and the validity rules.

mod fired;
pub mod pacer;
mod targets;

use crate::config::RunConfig;
use crate::engine::{self, TargetUrl};
use crate::metrics::{Recorder, StmtCounts};
use crate::results::{
    Client, IntervalRow, Phase, RunDir, RunResult, RunStatus, SCHEMA_VERSION, Summary, Tool,
    Validity,
};
use crate::workload::{Workload, rand::worker_rng};
use anyhow::{Result, bail};

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Barrier, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// Stack size of a worker thread: workers keep little on the stack, and 1,000 of them
/// must stay cheap.
const WORKER_STACK: usize = 256 * 1024;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C (or SIGTERM) arrived since the handler was installed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Installs the Ctrl-C / SIGTERM handler (once per process): the run finishes its
/// interval, writes everything and exits 130.
pub fn install_signal_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    });
}

/// What the run loop shows as it goes.
pub trait Display {
    /// A finished interval.
    fn interval(&self, row: &IntervalRow);
    /// Progress within the run (for a progress bar).
    fn tick(&self, elapsed: Duration, total: Duration);
    /// A line for people.
    fn note(&self, line: &str);
}

/// Opens a worker connection with the run's session settings.
pub fn connect_session(url: &TargetUrl, cfg: &RunConfig) -> Result<crate::engine::Conn> {
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

/// Where the virtual users go: virtual user i to target i mod n at the start; one whose
/// target fails reconnects to the next that answers.
#[derive(Debug, Clone)]
pub struct Targets {
    /// The targets, in order.
    pub urls: Vec<TargetUrl>,
    /// Every target is a node of one cluster (one database): counts kept in its tables
    /// are the cluster's, compared with the total rather than each target's share.
    pub shared_data: bool,
    /// Which targets are Galera nodes: there a data error (a row a transaction must change
    /// found already changed by another node's write) is retried like a conflict, and only
    /// one that persists through --retries counts as a data error.
    pub galera: Vec<bool>,
}

/// This process's part of the run: every virtual user, or a shard's (its users, its parts of
/// --events and --rate, the shared start and what it records for `merge`).
#[derive(Debug, Clone)]
pub struct Part {
    /// Virtual users of `0..cfg.threads`, each run by a thread with that id and seed.
    pub users: Vec<u32>,
    /// This part of --events.
    pub events: Option<u64>,
    /// This part of --rate.
    pub rate: Option<f64>,
    /// When to start, in this client's clock (--start-at less the server's clock offset).
    pub start_at: Option<SystemTime>,
    /// The shard's record (its start time is filled in when the run starts).
    pub shard: Option<crate::results::ShardRecord>,
}

impl Part {
    /// All of `cfg`'s run in this process.
    pub fn whole(cfg: &RunConfig) -> Part {
        Part {
            users: (0..cfg.threads).collect(),
            events: cfg.events,
            rate: cfg.rate,
            start_at: None,
            shard: None,
        }
    }
}

struct Shared {
    stop: AtomicBool,
    /// Where virtual users wait out keying and think times: woken when the run stops, so a
    /// paced terminal sleeps its whole pause instead of polling the stop flag.
    pausing: (Mutex<()>, Condvar),
    /// A virtual user that crashed (a bug): the run cannot be trusted.
    crashed: Mutex<Option<String>>,
    /// Transactions still allowed (with --events); i64::MAX during warm-up or without it.
    remaining: AtomicI64,
    startup_error: Mutex<Option<String>>,
    /// One per virtual user and target: virtual user v's on target t at v * targets + t.
    recorders: Vec<Mutex<Recorder>>,
    /// How many targets.
    targets: usize,
    /// PostgreSQL: the most transactions a virtual user's connection ended preparing, and
    /// the statements the connections prepared outside a transaction (counted from the
    /// protocol, for the cross-check).
    pg_setup: std::sync::atomic::AtomicU64,
    pg_prepares_alone: std::sync::atomic::AtomicU64,
}

impl Shared {
    /// Notes what a connection just prepared cost (PostgreSQL).
    fn connected(&self, conn: &crate::engine::Conn) {
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
    fn halt(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let _g = self.pausing.0.lock().unwrap_or_else(|p| p.into_inner());
        self.pausing.1.notify_all();
    }
}

/// Runs `workload` as `cfg` says, writing results into `out`. Returns the final result
/// (its validity and status decide the exit code).
pub fn run(
    cfg: &RunConfig,
    part: &Part,
    targets: &Targets,
    workload: Arc<dyn Workload>,
    preflight: crate::preflight::Preflight,
    out: &mut RunDir,
    display: &dyn Display,
) -> Result<RunResult> {
    install_signal_handler();
    let names = workload.kinds();
    let n = part.users.len();
    let nt = targets.urls.len().max(1);
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        pausing: (Mutex::new(()), Condvar::new()),
        crashed: Mutex::new(None),
        remaining: AtomicI64::new(i64::MAX),
        startup_error: Mutex::new(None),
        recorders: (0..n * nt)
            .map(|_| Mutex::new(Recorder::new(names.len())))
            .collect(),
        targets: nt,
        pg_setup: Default::default(),
        pg_prepares_alone: Default::default(),
    });
    let overflow = Arc::new(AtomicBool::new(false));
    let stop_flag = Arc::new(AtomicBool::new(false));
    let barrier = Arc::new(Barrier::new(n + 1));
    let (go_tx, go_rx) =
        crossbeam_channel::bounded::<Option<crossbeam_channel::Receiver<Instant>>>(n);

    // Connections opened long before a far start would sit idle past wait_timeout or a
    // proxy's idle limit: open them in the last minute.
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
    let mut handles = Vec::with_capacity(n);
    for (id, &user) in part.users.iter().enumerate() {
        let shared = shared.clone();
        let barrier = barrier.clone();
        let go_rx = go_rx.clone();
        let urls = targets.urls.clone();
        let galera = targets.galera.clone();
        let cfg = cfg.clone();
        let mut worker = workload.worker(user, worker_rng(cfg.seed, u64::from(user)));
        let names = names.clone();
        let h = std::thread::Builder::new()
            .name(format!("vu-{user}"))
            .stack_size(WORKER_STACK)
            .spawn(move || {
                let mut current = user as usize % urls.len();
                let conn = connect_session(&urls[current], &cfg).and_then(|mut c| {
                    c.in_one_transaction(|c| worker.on_connect(c))?;
                    shared.connected(&c);
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
                barrier.wait();
                let Ok(schedule) = go_rx.recv() else { return };
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
                        )
                    }));
                    shared.closing(conn);
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
            .map_err(|e| {
                anyhow::anyhow!(
                    "starting virtual user {user}: {e} (too many --threads for this machine?)"
                )
            });
        match h {
            Ok(h) => handles.push(h),
            Err(e) => {
                drop(go_tx);
                // Threads already started wait at the barrier; they cannot be released
                // without all parties, so report and let the process end.
                return Err(e);
            }
        }
    }
    barrier.wait();
    if let Some(err) = shared
        .startup_error
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone()
    {
        drop(go_tx);
        for h in handles {
            let _ = h.join();
        }
        bail!("a virtual user could not connect: {err}");
    }
    // Every connection is open: wait for the shared start (Ctrl-C ends the wait, and the
    // run then ends at once as interrupted).
    if let Some(at) = part.start_at {
        display.note(&format!(
            "{n} virtual user(s) connected; starting at {}",
            crate::shard::rfc3339(at)
        ));
        sleep_until(at);
    }

    let t0 = Instant::now();
    let started_at = SystemTime::now();
    let warmup = Duration::from_secs_f64(cfg.warmup_s);
    // The baseline sample before the virtual users start; without a warm-up it opens the
    // measured phase.
    // A sampler per target: the first's files in the run directory, the others' in
    // target-2/, target-3/…
    let mut samplers = Vec::new();
    for (i, u) in targets.urls.iter().enumerate() {
        let dir = if i == 0 {
            out.path().to_path_buf()
        } else {
            out.path().join(format!("target-{}", i + 1))
        };
        let started = std::fs::create_dir_all(&dir)
            .map_err(|e| anyhow::anyhow!("creating {}: {e}", dir.display()))
            .and_then(|_| {
                crate::sampler::Sampler::start(crate::sampler::Options {
                    url: u.clone(),
                    t0,
                    dir,
                    workload_counts: workload.server_counts(),
                    measure_start: warmup.is_zero().then_some(0.0),
                    // Of a sharded run, one shard samples the server's counters; the others
                    // watch it only for a restart, a freeze or its loss.
                    metrics: cfg.server_metrics && part.shard.as_ref().is_none_or(|s| s.index == 1),
                })
            });
        match started {
            Ok(s) => samplers.push(s),
            Err(e) => {
                drop(go_tx);
                for h in handles {
                    let _ = h.join();
                }
                return Err(e);
            }
        }
    }
    let mut sampler_verdicts = targets::Verdicts::new(nt);
    let pacer = part
        .rate
        .map(|rate| {
            pacer::Pacer::start(
                rate,
                cfg.rate_dist,
                // Each shard its own arrivals: the same seed would put N shards' arrivals at
                // the same instants (independent Poisson streams add up to one).
                cfg.seed
                    ^ part.shard.as_ref().map_or(0, |s| {
                        u64::from(s.index).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    }),
                t0,
                pacer::queue_capacity(rate),
                stop_flag.clone(),
                overflow.clone(),
            )
            .map_err(|e| anyhow::anyhow!("starting the --rate schedule: {e}"))
        })
        .transpose()?;
    let mut in_warmup = !warmup.is_zero();
    // The --events budget is in place before any worker starts (and set again after a
    // warm-up, which spends none of it).
    if !in_warmup {
        shared
            .remaining
            .store(part.events.map_or(i64::MAX, |e| e as i64), Ordering::SeqCst);
        workload.measure_started();
    }
    for _ in 0..n {
        let _ = go_tx.send(pacer.as_ref().map(|p| p.rx.clone()));
    }

    let mut result = RunResult {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "txbench".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        status: RunStatus::Running,
        started_at: humantime::format_rfc3339_seconds(started_at).to_string(),
        ended_at: None,
        config: cfg.clone(),
        loop_kind: if cfg.rate.is_some() { "open" } else { "closed" }.into(),
        client: Client::this(),
        server: preflight,
        kinds: names.clone(),
        notes: workload.notes(),
        intervals: Vec::new(),
        summary: None,
        workload_report: None,
        stability: None,
        findings: Vec::new(),
        events: Vec::new(),
        shard: part.shard.clone().map(|mut s| {
            s.start_unix_s = crate::shard::unix_s(started_at);
            s
        }),
        merged: None,
        validity: Validity {
            valid: true,
            reasons: vec![],
        },
    };
    if let Some(s) = &part.shard {
        result.notes.push(format!(
            "shard {}/{}: {} of the run's {} virtual users; these figures are this process's part, `txbench merge` combines the shards (server figures per transaction and the cross-checks are the merge's)",
            s.index,
            s.count,
            n,
            cfg.threads
        ));
    }
    if cfg.rate.is_none() {
        result.notes.push(
            "closed loop: each virtual user starts its next transaction when the last one ends, so response time equals service time".into(),
        );
    }

    // The server stopped answering: virtual users blocked on it cannot be waited for.
    let mut unresponsive = false;
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mut last_cpu = process_cpu_s();
    let mut measured_cpu = 0.0;
    let measure = Duration::from_secs_f64(cfg.time_s);
    let interval = Duration::from_secs_f64(cfg.report_interval_s);
    let total = warmup + measure;
    let mut cumulative = Recorder::new(names.len());
    let mut cumulative_targets: Vec<Recorder> = (0..if nt > 1 { nt } else { 0 })
        .map(|_| Recorder::new(names.len()))
        .collect();
    let mut measured_secs = 0.0;
    let mut phase_start = Duration::ZERO;
    let mut last_tick = Duration::ZERO;
    let mut status = RunStatus::Completed;
    let mut fired = fired::Fired::default();

    loop {
        // The next boundary: a multiple of the interval within the phase, or the phase end.
        let phase_end = if in_warmup { warmup } else { total };
        let k = ((last_tick - phase_start).as_secs_f64() / interval.as_secs_f64()).floor() + 1.0;
        let next = (phase_start + interval.mul_f64(k)).min(phase_end);
        let mut stopped_early = false;
        loop {
            let el = t0.elapsed();
            if el >= next {
                break;
            }
            if INTERRUPTED.load(Ordering::SeqCst)
                || overflow.load(Ordering::Relaxed)
                || shared.stop.load(Ordering::Relaxed)
            {
                stopped_early = true;
                break;
            }
            display.tick(el, total);
            std::thread::sleep((next - el).min(Duration::from_millis(50)));
        }
        // At the end, stop the virtual users and wait for the transactions they have in
        // flight before the last snapshot: the database saw them, so they are counted.
        let ending = stopped_early
            || t0.elapsed() >= total
            || (part.events.is_some() && shared.remaining.load(Ordering::SeqCst) <= 0);
        if ending {
            if !stopped_early {
                targets::sample_and_wait(&samplers, Duration::from_secs(2));
            }
            shared.halt();
            stop_flag.store(true, Ordering::SeqCst);
            let left = join_within(std::mem::take(&mut handles), END_JOIN_LIMIT);
            if left > 0 {
                fired.cause(format!(
                    "{left} virtual user(s) did not finish their transaction within {} s of the run's end: the server stopped answering them",
                    END_JOIN_LIMIT.as_secs()
                ));
            }
        }
        let now = t0.elapsed();
        // The server sample for the interval that just ended (the last one is taken below,
        // once everything is counted).
        for s in &samplers {
            if in_warmup && now >= warmup {
                s.measure_starts(now.as_secs_f64());
            } else if !ending {
                s.sample();
            }
        }
        let mut rec = Recorder::new(names.len());
        let mut per_target: Vec<Recorder> = (0..nt).map(|_| Recorder::new(names.len())).collect();
        for (i, r) in shared.recorders.iter().enumerate() {
            let taken = std::mem::replace(
                &mut *r.lock().unwrap_or_else(|p| p.into_inner()),
                Recorder::new(names.len()),
            );
            rec.merge(&taken);
            if nt > 1 {
                per_target[i % nt].merge(&taken);
            }
        }
        let phase = if in_warmup {
            Phase::Warmup
        } else {
            Phase::Measure
        };
        let mut row = IntervalRow::of(
            &rec,
            &names,
            phase,
            last_tick.as_secs_f64(),
            now.as_secs_f64(),
            n as u32,
        );
        if nt > 1 {
            row.targets = per_target
                .iter()
                .map(|r| {
                    crate::results::TargetRow::of(&IntervalRow::of(
                        r,
                        &names,
                        phase,
                        last_tick.as_secs_f64(),
                        now.as_secs_f64(),
                        n as u32,
                    ))
                })
                .collect();
        }
        let cpu = process_cpu_s();
        row.client_cpu_pct = cpu_pct(cpu - last_cpu, (now - last_tick).as_secs_f64(), cpus);
        if phase == Phase::Measure {
            for (c, r) in cumulative_targets.iter_mut().zip(&per_target) {
                c.merge(r);
            }
            cumulative.merge(&rec);
            measured_secs += (now - last_tick).as_secs_f64();
            measured_cpu += cpu - last_cpu;
        }
        last_cpu = cpu;
        display.interval(&row);
        out.append_interval(&row, &rec, &names)?;
        // Validity rules checked every interval: each kind on its own, so a kind that is a
        // small part of the mix cannot fail unnoticed under the total.
        if phase == Phase::Measure {
            for (k, stats) in row.kinds.iter().zip(&rec.kinds) {
                let attempts = k.completed + k.errors;
                let failed = stats.counted_failures();
                if attempts > 0 && failed as f64 > cfg.max_error_rate * attempts as f64 {
                    let ran_out = stats.failed_after_retries();
                    let how = match (stats.unexpected(), ran_out) {
                        (_, 0) => "with unexpected errors".to_string(),
                        (0, _) => format!(
                            "after their --retries {} retries ran out (deadlocks, lock waits, serialization failures)",
                            cfg.retries
                        ),
                        (u, r) => format!(
                            "({u} with unexpected errors, {r} after their --retries {} retries ran out)",
                            cfg.retries
                        ),
                    };
                    fired.effect(format!(
                        "{failed} of {attempts} {} transactions failed {how} in the interval ending at {:.0}s (more than --max-error-rate {}%){}",
                        k.name,
                        row.end_s,
                        cfg.max_error_rate * 100.0,
                        top_messages(&rec)
                    ));
                    break;
                }
            }
        }
        if overflow.load(Ordering::Relaxed) {
            fired.effect(format!(
                "the database cannot keep up with --rate {}: more than {} transactions were queued",
                part.rate.unwrap_or_default(),
                pacer::queue_capacity(part.rate.unwrap_or_default())
            ));
        }
        for (i, s) in samplers.iter().enumerate() {
            for note in s.take_notes() {
                let note = targets::label(targets, i, note);
                display.note(&note);
                result.notes.push(note);
            }
            for e in s.take_events() {
                let e = crate::results::Event {
                    t_s: e.t_s,
                    what: targets::label(targets, i, e.what),
                };
                display.note(&format!("at {:.1} s: {}", e.t_s, e.what));
                result.events.push(e);
            }
        }
        let verdict = sampler_verdicts.check(&samplers, targets, now.as_secs_f64());
        for e in verdict.events {
            display.note(&format!("at {:.1} s: {}", e.t_s, e.what));
            result.events.push(e);
        }
        if let Some((reason, frozen)) = verdict.abort {
            unresponsive = frozen;
            fired.cause(reason);
        }
        if let Some(reason) = shared
            .crashed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
        {
            fired.cause(reason);
        }
        result.intervals.push(row);
        last_tick = now;
        if in_warmup && now >= warmup {
            in_warmup = false;
            phase_start = now;
            shared
                .remaining
                .store(part.events.map_or(i64::MAX, |e| e as i64), Ordering::SeqCst);
            workload.measure_started();
        }
        if measured_secs > 0.0 {
            let mut summary = Summary::of(&cumulative, &names, measured_secs);
            summary.targets = cumulative_targets
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    crate::results::TargetSummary::of(
                        targets.urls[i].to_string(),
                        targets::dealt(&part.users, nt, i),
                        &Summary::of(r, &names, measured_secs),
                    )
                })
                .collect();
            summary.client_cpu_s = measured_cpu;
            summary.client_cpu_pct = cpu_pct(measured_cpu, measured_secs, cpus);
            result.workload_report = workload.report(&summary);
            for reason in workload.invalid_reasons(&summary) {
                fired.effect(reason);
            }
            result.summary = Some(summary);
            result.stability = crate::results::Stability::of(
                &result.intervals,
                cfg.warmup_s,
                cfg.stability_window_s,
            );
        }
        let events_done = part.events.is_some() && shared.remaining.load(Ordering::SeqCst) <= 0;
        if INTERRUPTED.load(Ordering::SeqCst) {
            status = RunStatus::Interrupted;
        }
        if fired.any() && !fired.has_cause() && lost_server(&rec) {
            // Transactions lost their connections: ask the server before blaming them.
            targets::sample_and_wait(&samplers, Duration::from_secs(2));
            for (i, s) in samplers.iter().enumerate() {
                if let Some(why) = s.down_now() {
                    fired.cause(targets::label(targets, i, why));
                }
            }
        }
        if fired.any() {
            status = RunStatus::Aborted;
        }
        let finished =
            now >= total || events_done || stopped_early || status != RunStatus::Completed;
        // Causes first: a rule that fires ends the run in this interval, so these are the
        // first reasons it records.
        for reason in fired.reasons() {
            result.validity.valid = false;
            if !result.validity.reasons.contains(reason) {
                result.validity.reasons.push(reason.clone());
            }
        }
        if finished && let Some(reason) = saturation(measured_cpu, measured_secs, cpus) {
            result.validity.valid = false;
            result.validity.reasons.push(reason);
        }
        if finished && cfg.server_metrics && !samplers.is_empty() {
            // A frozen server will not answer the last sample: do not wait for it.
            let wait = if unresponsive {
                Duration::ZERO
            } else {
                crate::sampler::UNRESPONSIVE_LIMIT + Duration::from_secs(2)
            };
            let reports = targets::finish_all(std::mem::take(&mut samplers), wait);
            let per_target: Vec<Summary> = cumulative_targets
                .iter()
                .map(|r| Summary::of(r, &names, measured_secs))
                .collect();
            let client = ClientEnd {
                lost: (0..nt).map(|i| sampler_verdicts.lost(i)).collect(),
                pg_setup: shared.pg_setup.load(Ordering::Relaxed),
                pg_prepares_alone: shared.pg_prepares_alone.load(Ordering::Relaxed),
            };
            server_figures(
                &mut result,
                reports,
                &per_target,
                targets,
                &client,
                workload.as_ref(),
            );
        }
        if finished {
            result.status = status;
            result.ended_at =
                Some(humantime::format_rfc3339_seconds(SystemTime::now()).to_string());
        }
        out.write_result(&result)?;
        if finished {
            break;
        }
    }
    shared.halt();
    stop_flag.store(true, Ordering::SeqCst);
    drop(go_tx);
    drop(pacer);
    // After an abort the server may hold the virtual users forever: wait briefly, then
    // leave them (the process ends without them).
    let limit = if unresponsive {
        Duration::ZERO
    } else if result.status == RunStatus::Aborted {
        Duration::from_secs(2)
    } else {
        END_JOIN_LIMIT
    };
    join_within(handles, limit);
    if result.summary.is_none() && result.status == RunStatus::Completed {
        result.validity.valid = false;
        result
            .validity
            .reasons
            .push("no measured interval: the run ended during warm-up".into());
        out.write_result(&result)?;
    }
    Ok(result)
}

/// Sleeps until `at` (this client's clock), or until Ctrl-C, in steps of at most 50 ms.
fn sleep_until(at: SystemTime) {
    while !INTERRUPTED.load(Ordering::SeqCst) {
        let Ok(left) = at.duration_since(SystemTime::now()) else {
            break;
        };
        std::thread::sleep(left.min(Duration::from_millis(50)));
    }
}

/// How long before --start-at the virtual users connect.
const CONNECT_AHEAD: Duration = Duration::from_secs(60);

/// How long the end of a run waits for the transactions in flight (a lock wait ends within
/// innodb_lock_wait_timeout, 50 s by default).
const END_JOIN_LIMIT: Duration = Duration::from_secs(60);

/// Joins the threads that finish within `limit`; returns how many did not.
fn join_within(handles: Vec<std::thread::JoinHandle<()>>, limit: Duration) -> usize {
    let deadline = Instant::now() + limit;
    let mut left = handles;
    loop {
        let (done, rest): (Vec<_>, Vec<_>) = left.into_iter().partition(|h| h.is_finished());
        for h in done {
            let _ = h.join();
        }
        left = rest;
        if left.is_empty() || Instant::now() >= deadline {
            return left.len();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// CPU seconds this process has used, all threads.
fn process_cpu_s() -> f64 {
    // SAFETY: an all-zero rusage is a valid value for getrusage to fill.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_SELF with a valid pointer.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let secs = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// `cpu_s` of CPU over `wall_s` seconds as % of `cpus` CPUs.
fn cpu_pct(cpu_s: f64, wall_s: f64, cpus: usize) -> f64 {
    if wall_s <= 0.0 {
        return 0.0;
    }
    cpu_s / (wall_s * cpus.max(1) as f64) * 100.0
}

/// Share of the client's CPUs above which the driver, not the database, sets the pace.
pub const SATURATED_CPU_PCT: f64 = 90.0;

/// The INVALID reason when the driver used at least [`SATURATED_CPU_PCT`] of the client's
/// CPUs over the measured phase: its numbers then measure the client.
pub fn saturation(cpu_s: f64, wall_s: f64, cpus: usize) -> Option<String> {
    let pct = cpu_pct(cpu_s, wall_s, cpus);
    (wall_s > 0.0 && pct >= SATURATED_CPU_PCT).then(|| {
        format!(
            "the driver is saturated: txbench used {pct:.0} % of the client's {cpus} CPU(s) over the measured phase, so the throughput measures the client, not the database; use fewer threads, --rate, or a bigger client"
        )
    })
}

/// Whether transactions of this interval failed with their connection (the server may be
/// gone).
fn lost_server(rec: &Recorder) -> bool {
    rec.reconnects > 0 || rec.kinds.iter().any(|k| k.lost_with_connection() > 0)
}

fn top_messages(rec: &Recorder) -> String {
    let mut m: Vec<_> = rec
        .messages
        .iter()
        .filter(|m| m.class.counts_against_error_rate())
        .collect();
    m.sort_by_key(|e| std::cmp::Reverse(e.count));
    if m.is_empty() {
        return String::new();
    }
    let list: Vec<String> = m
        .iter()
        .take(3)
        .map(|m| format!("{}× {}: {}", m.count, m.kind, m.message))
        .collect();
    format!("; top errors: {}", list.join("; "))
}

#[allow(clippy::too_many_arguments)]
fn worker_loop(
    id: usize,
    cfg: &RunConfig,
    urls: &[TargetUrl],
    galera: &[bool],
    current: &mut usize,
    shared: &Shared,
    worker: &mut dyn crate::workload::Worker,
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
        let start = Instant::now();
        let mut stmts = StmtCounts::default();
        let mut retries = 0u32;
        // The class of each retry (written only when one happens).
        let mut retried_as = [0u32; crate::metrics::ErrorClass::ALL.len()];
        let result = loop {
            match worker.execute(conn, kind, retries > 0, &mut stmts) {
                Ok(outcome) => break Ok(outcome),
                Err(e) => {
                    let class = engine::classify(&e);
                    if class.disconnects() {
                        break Err((class, engine::error_message(&e)));
                    }
                    // A lock-wait timeout rolls back only the statement: end the transaction.
                    let _ = conn.rollback();
                    // On Galera another node's write can reach a row between this
                    // transaction's read and its write (certification would roll it back).
                    let conflict = class == crate::metrics::ErrorClass::Data
                        && galera.get(*current).copied().unwrap_or(false);
                    if (class.retryable() || conflict) && retries < cfg.retries {
                        retries += 1;
                        retried_as[class.index()] += 1;
                        continue;
                    }
                    break Err((class, engine::error_message(&e)));
                }
            }
        };
        let end = Instant::now();
        let lost = {
            let mut r = recorder.lock().unwrap_or_else(|p| p.into_inner());
            r.stmts.reads += stmts.reads;
            r.stmts.writes += stmts.writes;
            r.stmts.other += stmts.other;
            if retries > 0 {
                for c in crate::metrics::ErrorClass::ALL {
                    let n = retried_as[c.index()];
                    if n > 0 {
                        r.kinds[kind].retries += u64::from(n);
                        r.kinds[kind].retries_by_class[c.index()] += u64::from(n);
                    }
                }
            }
            match &result {
                Ok(outcome) => {
                    r.completed(
                        kind,
                        *outcome,
                        end.saturating_duration_since(intended).as_micros() as u64,
                        (end - start).as_micros() as u64,
                    );
                    if retries > 0 {
                        r.kinds[kind].retried_completed += 1;
                    }
                    false
                }
                Err((class, msg)) => {
                    r.failed(kind, &names[kind], *class, msg);
                    class.disconnects()
                }
            }
        };
        if lost && !reconnect(cfg, urls, current, id, shared, worker, conn) {
            break;
        }
        if !pause(shared, think) {
            break;
        }
    }
}

/// Waits `d` unless the run stops first (then false). A stop wakes the wait: a thousand
/// paced terminals sleep without polling.
fn pause(shared: &Shared, d: Duration) -> bool {
    if d.is_zero() {
        return !shared.stop.load(Ordering::Relaxed);
    }
    let end = Instant::now() + d;
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
    worker: &mut dyn crate::workload::Worker,
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
                shared.connected(&c);
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
        std::thread::sleep(backoff);
        backoff = (backoff * 2).min(Duration::from_secs(2));
    }
    false
}

/// How the workload's `kinds` attempts end on the server, for the cross-checks.
fn ends_of(
    workload: &dyn Workload,
    kinds: usize,
    connections: u64,
) -> crate::analysis::cross_checks::Ends {
    crate::analysis::cross_checks::Ends {
        commits: (0..kinds).map(|k| workload.commits(k)).collect(),
        autocommit_statements: (0..kinds)
            .map(|k| workload.autocommit_statements(k))
            .collect(),
        connections,
        pg: None,
    }
}

/// The server block of the summary, the cross-checks (a disagreement makes the run
/// INVALID) and the findings, from what the samplers saw. The first target's figures are the
/// summary's; with several targets each one's counts are checked against its own share
/// (New-Orders kept in a cluster's tables against the total).
fn server_figures(
    result: &mut RunResult,
    reports: Vec<crate::sampler::Report>,
    per_target: &[Summary],
    targets: &Targets,
    client: &ClientEnd,
    workload: &dyn Workload,
) {
    use crate::{analysis::cross_checks::cross_checks, metrics::server::ServerSummary};
    for (i, r) in reports.iter().enumerate() {
        for e in &r.events {
            result.events.push(crate::results::Event {
                t_s: e.t_s,
                what: targets::label(targets, i, e.what.clone()),
            });
        }
    }
    let Some(summary) = result.summary.as_mut() else {
        return;
    };
    if let Some(shard) = result.shard.as_mut() {
        // The server's counters hold every shard's work: divided by this shard's transactions
        // or compared with its count they would mislead. `merge` does both over all shards.
        let mut mode = workload.server_count();
        mode.statements &= !targets.shared_data;
        shard.server_count = Some(mode);
        let ends = ends_of(workload, summary.kinds.len(), 0);
        shard.commits = ends.commits;
        shard.autocommit_statements = ends.autocommit_statements;
        if let Some(r) = reports.first().filter(|_| shard.index == 1) {
            shard.server_measured = r.measured.clone().filter(|_| r.final_taken);
            // The merge cross-checks this shard's counts: without them it cannot.
            if let Some(why) = checks_not_made(r) {
                result.validity.valid = false;
                result
                    .validity
                    .reasons
                    .push(format!("the merge's cross-checks cannot be made: {why}"));
            }
            shard.opening_lag_s = r.opening_lag_s;
            summary.server = Some(ServerSummary {
                duration_s: r.measured.as_ref().map_or(0.0, |m| m.secs),
                samples: r.samples,
                skipped_samples: r.skipped,
                sample_ms_avg: r.sample_ms_sum / r.samples.max(1) as f64,
                sample_ms_max: r.sample_ms_max,
                not_recorded: r.not_recorded.clone(),
                ..ServerSummary::default()
            });
        }
        return;
    }
    for (t, r) in summary.targets.iter_mut().zip(&reports) {
        t.conflicts = r.measured.as_ref().and_then(|m| m.conflicts());
    }
    let Some(report) = reports.first() else {
        return;
    };
    let new_orders = summary
        .kinds
        .iter()
        .find(|k| k.name == "new_order")
        .map(|k| k.committed);
    let mut s = match &report.measured {
        Some(m) => ServerSummary::of(m, &report.rows, summary.transactions, new_orders),
        None => ServerSummary::default(),
    };
    s.samples = report.samples;
    s.skipped_samples = report.skipped;
    s.sample_ms_avg = report.sample_ms_sum / report.samples.max(1) as f64;
    s.sample_ms_max = report.sample_ms_max;
    s.not_recorded = report.not_recorded.clone();
    let mut ends = ends_of(
        workload,
        summary.kinds.len(),
        u64::from(result.config.threads),
    );
    // PostgreSQL: what connecting costs, measured (the monitor's empty connection and the
    // virtual users' preparation as the protocol counted it).
    ends.pg = report
        .pg_connect_cost
        .map(|login| crate::analysis::cross_checks::PgCosts {
            per_connection: login + client.pg_setup as f64,
            prepares_alone: client.pg_prepares_alone,
            warmup: result.config.warmup_s > 0.0,
            monitor_unflushed: report.pg_monitor_unflushed,
        });
    // Only a phase bounded by samples on both sides, the last after every transaction
    // ended, can be compared with txbench's count.
    for (i, r) in reports.iter().enumerate() {
        let Some(m) = r.measured.as_ref().filter(|_| r.final_taken) else {
            if let Some(why) = checks_not_made(r) {
                let line =
                    targets::label(targets, i, format!("the cross-checks were not made: {why}"));
                if client.lost.get(i).copied().unwrap_or(false) {
                    // A target lost while others served is an event of the run already.
                    s.not_recorded
                        .push(format!("{line} (the target was lost during the run)"));
                } else {
                    s.checks_not_made.push(line);
                }
            }
            continue;
        };
        let own = if per_target.is_empty() {
            &*summary
        } else {
            &per_target[i]
        };
        let mut mode = workload.server_count();
        if targets.shared_data {
            // A node's appliers count the other nodes' writes as its statements.
            mode.statements = false;
        }
        let mut checks = cross_checks(m, own, mode, &ends, r.opening_lag_s);
        if targets.shared_data {
            // Each node's tables hold the whole cluster's New-Orders: the first node's
            // count against every target's.
            checks.retain(|c| !c.what.starts_with("New-Orders"));
            if i == 0 {
                checks.extend(
                    cross_checks(m, summary, mode, &ends, r.opening_lag_s)
                        .into_iter()
                        .filter(|c| c.what.starts_with("New-Orders")),
                );
            }
        }
        for mut c in checks {
            if targets.urls.len() > 1 {
                c.what = format!("target {}: {}", i + 1, c.what);
            }
            s.cross_checks.push(c);
        }
    }
    let mut reasons: Vec<String> = s
        .checks_not_made
        .iter()
        .cloned()
        .chain(s.cross_checks.iter().filter_map(|c| c.reason()))
        .collect();
    if !report.pg_other_clients.is_empty() && !targets.shared_data {
        // Their work reaches pg_stat_database only when they idle or exit: the count
        // cannot show a client still busy at the end, so its presence is the finding.
        reasons.push(format!(
            "another client used the server during the run: {} ran statements (PostgreSQL counts a busy session's transactions only when it idles or exits)",
            report.pg_other_clients.join(", ")
        ));
    }
    summary.server = Some(s);
    for reason in reasons {
        result.validity.valid = false;
        result.validity.reasons.push(reason);
    }
    result.findings = crate::findings::of(result, &report.rows);
}

/// What the client knows at the end of a run that the cross-checks use.
struct ClientEnd {
    /// Targets lost during the run (several targets: an event).
    lost: Vec<bool>,
    /// PostgreSQL: the most transactions a connection's preparation ended.
    pg_setup: u64,
    /// PostgreSQL: statements prepared outside a transaction over the run.
    pg_prepares_alone: u64,
}

/// Why a target's counts cannot be held against txbench's: no sample opened the measured
/// phase, or the closing one (after every transaction ended) was not taken.
fn checks_not_made(r: &crate::sampler::Report) -> Option<String> {
    if r.measured.is_none() {
        Some("no server sample opened the measured phase".into())
    } else if !r.final_taken {
        Some(
            r.final_failure
                .clone()
                .unwrap_or_else(|| "the closing server sample was not taken".into()),
        )
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
