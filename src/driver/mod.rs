//! The driver: the run of one process's virtual users, interval by interval. Here the run
//! loop (start barrier, --start-at, samplers, warm-up then measure, rows and results written
//! as the run goes); one virtual user in worker.rs, this process's part in part.rs, the
//! INVALID rules in validity.rs, the end of a run's server figures in closing.rs.

mod closing;
mod fired;
pub mod pacer;
mod part;
mod signal;
mod stall;
mod targets;
mod validity;
mod worker;

pub use part::{Part, Targets};
pub use signal::{install_signal_handler, interrupted};
pub use validity::{SATURATED_CPU_PCT, saturation};
pub use worker::connect_session;

use crate::config::RunConfig;
use crate::metrics::Recorder;
use crate::results::{
    Client, IntervalRow, Phase, RunDir, RunResult, RunStatus, SCHEMA_VERSION, Summary, Tool,
    Validity,
};
use crate::workload::Workload;
use anyhow::{Result, bail};
use signal::{INTERRUPTED, sleep_until};
use validity::{cpu_pct, lost_server, process_cpu_s};
use worker::Shared;

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Barrier, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// What the run loop shows as it goes.
pub trait Display {
    /// A finished interval.
    fn interval(&self, row: &IntervalRow);
    /// Progress within the run (for a progress bar).
    fn tick(&self, elapsed: Duration, total: Duration);
    /// A line for people.
    fn note(&self, line: &str);
    /// The run ended: clear what is on screen (a progress bar) before its result is shown.
    fn finish(&self) {}
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
        busy: stall::Busy::new(n),
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
        let h = worker::spawn(
            id,
            user,
            cfg,
            targets,
            workload.as_ref(),
            &shared,
            &barrier,
            &go_rx,
        );
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
                    profile: if i == 0 {
                        cfg.profile
                    } else {
                        crate::config::Profiling::Off
                    },
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
        profiles: Vec::new(),
        stability: None,
        findings: Vec::new(),
        events: Vec::new(),
        shard: part.shard.clone().map(|mut s| {
            s.start_unix_s = crate::shard::unix_s(started_at);
            s
        }),
        merged: None,
        database_growth: Vec::new(),
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
    let mut watch = stall::Watch::new(t0, targets);

    loop {
        // The next boundary: a multiple of the interval within the phase, or the phase end.
        let phase_end = if in_warmup { warmup } else { total };
        let k = ((last_tick - phase_start).as_secs_f64() / interval.as_secs_f64()).floor() + 1.0;
        let next = (phase_start + interval.mul_f64(k)).min(phase_end);
        let mut stopped_early = false;
        let measuring = (!in_warmup).then_some(phase_start);
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
            watch.look(&shared.busy, el, measuring);
            display.tick(el, total);
            std::thread::sleep((next - el).min(Duration::from_millis(50)));
        }
        // At the end, stop the virtual users and wait for the transactions they have in
        // flight before the last snapshot: the database saw them, so they are counted.
        let ending = stopped_early
            || t0.elapsed() >= total
            || (part.events.is_some() && shared.remaining.load(Ordering::SeqCst) <= 0);
        if ending {
            watch.look(&shared.busy, t0.elapsed(), measuring);
            let by_time = !stopped_early && t0.elapsed() >= total;
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
            if by_time {
                watch.overrun_s = t0.elapsed().saturating_sub(total).as_secs_f64();
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
        if phase == Phase::Measure
            && let Some(reason) = validity::error_rate(&row, &rec, cfg)
        {
            fired.effect(reason);
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
            let client = closing::ClientEnd {
                lost: (0..nt).map(|i| sampler_verdicts.lost(i)).collect(),
                pg_setup: shared.pg_setup.load(Ordering::Relaxed),
                pg_prepares_alone: shared.pg_prepares_alone.load(Ordering::Relaxed),
            };
            closing::server_figures(
                &mut result,
                reports,
                &per_target,
                targets,
                &client,
                workload.as_ref(),
            );
        }
        if finished {
            stall::judge(&mut result, &watch, n);
            result.status = status;
            result.ended_at =
                Some(humantime::format_rfc3339_seconds(SystemTime::now()).to_string());
        }
        if finished {
            out.write_result(&result)?;
            break;
        }
        out.checkpoint(&result)?;
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

#[cfg(test)]
mod tests;
