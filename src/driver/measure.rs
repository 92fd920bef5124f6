//! The run loop, one interval at a time: wait for the interval's end, stop the virtual users
//! if the run ends there, sample the servers, take the interval's counts, check the rules,
//! hear the samplers, update the summary, judge, and at the end close the result.

use super::cut;
use super::fired::Fired;
use super::opening::Clock;
use super::signal::INTERRUPTED;
use super::users::{END_JOIN_LIMIT, Users};
use super::validity::{self, CUT_SHARE, cpu_pct, lost_server, process_cpu_s, saturation};
use super::{Display, Part, Targets, closing, pacer, stall, targets};
use crate::config::RunConfig;
use crate::engine::TargetUrl;
use crate::metrics::Recorder;
use crate::results::{IntervalRow, Phase, RunDir, RunResult, RunStatus, Summary};
use crate::sampler::Sampler;
use crate::workload::Workload;
use anyhow::Result;
use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime};

/// What the run loop is given and does not change.
pub(super) struct Given<'a> {
    pub(super) cfg: &'a RunConfig,
    pub(super) part: &'a Part,
    pub(super) targets: &'a Targets,
    pub(super) workload: &'a dyn Workload,
    pub(super) display: &'a dyn Display,
    /// The workload's transaction kinds.
    pub(super) names: Vec<String>,
}

/// The measured phase's running totals.
struct Tally {
    cpus: usize,
    /// This process's CPU seconds at the last interval's end.
    last_cpu: f64,
    measured_cpu: f64,
    measured_secs: f64,
    cumulative: Recorder,
    /// Per target, with several targets.
    cumulative_targets: Vec<Recorder>,
    /// Where the current phase (warm-up or measured) started.
    phase_start: Duration,
    /// Where the last interval ended.
    last_tick: Duration,
    in_warmup: bool,
    /// Connections the end of the run opened to cut users (PostgreSQL counts them).
    cut_connections: u64,
}

/// Where the wait for an interval's end left off.
struct Boundary {
    /// Ctrl-C, the --rate schedule's overflow or a virtual user stopped the run before it.
    stopped_early: bool,
    /// The measured phase's start, once in it.
    measuring: Option<Duration>,
}

/// The run loop's state.
pub(super) struct Measure<'a> {
    given: Given<'a>,
    clock: Clock,
    users: Users,
    samplers: Vec<Sampler>,
    verdicts: targets::Verdicts,
    result: RunResult,
    tally: Tally,
    fired: Fired,
    watch: stall::Watch,
    status: RunStatus,
    /// The server stopped answering: virtual users blocked on it cannot be waited for.
    unresponsive: bool,
    /// The end's cut, its sessions still being ended on the server.
    cutting: Option<cut::Cutting>,
}

impl<'a> Measure<'a> {
    /// The loop's state as the virtual users have just been released.
    pub(super) fn new(
        given: Given<'a>,
        clock: Clock,
        users: Users,
        samplers: Vec<Sampler>,
        result: RunResult,
    ) -> Measure<'a> {
        let kinds = given.names.len();
        let nt = given.targets.urls.len().max(1);
        let tally = Tally {
            cpus: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            last_cpu: process_cpu_s(),
            measured_cpu: 0.0,
            measured_secs: 0.0,
            cumulative: Recorder::new(kinds),
            cumulative_targets: (0..if nt > 1 { nt } else { 0 })
                .map(|_| Recorder::new(kinds))
                .collect(),
            phase_start: Duration::ZERO,
            last_tick: Duration::ZERO,
            in_warmup: !clock.warmup.is_zero(),
            cut_connections: 0,
        };
        let watch = stall::Watch::new(clock.t0, given.targets);
        Measure {
            verdicts: targets::Verdicts::new(nt),
            given,
            clock,
            users,
            samplers,
            result,
            tally,
            fired: Fired::default(),
            watch,
            status: RunStatus::Completed,
            unresponsive: false,
            cutting: None,
        }
    }

    /// One interval, written to `out`; returns whether the run finished with it (its result
    /// then written in full).
    pub(super) fn interval(&mut self, out: &mut RunDir) -> Result<bool> {
        let boundary = self.wait_for_boundary();
        let ending = self.ending(&boundary);
        if ending {
            self.stop_users(&boundary);
        }
        let now = self.clock.t0.elapsed();
        if self.warmup_ends_at(now) {
            // This interval's sample opens the measured phase: the attempts started before
            // it and recorded after this interval's are counted (KindStats::opened_before).
            let _ = self.users.shared.opening.set(std::time::Instant::now());
        }
        self.sample_servers(now, ending);
        let (row, rec) = self.take_row(now);
        self.given.display.interval(&row);
        out.append_interval(&row, &rec, &self.given.names)?;
        self.check_rules(&row, &rec);
        self.hear_samplers(now);
        self.result.intervals.push(row);
        self.tally.last_tick = now;
        self.end_warmup_if_due(now);
        self.update_summary();
        let finished = self.judge(now, &rec, boundary.stopped_early);
        if finished {
            self.close();
            out.write_result(&self.result)?;
        } else {
            out.checkpoint(&self.result)?;
        }
        Ok(finished)
    }

    /// Waits for the interval's end (a multiple of the interval within the phase, or the
    /// phase's end), watching for a stall and ticking the display, or until the run is
    /// asked to stop.
    fn wait_for_boundary(&mut self) -> Boundary {
        let (clock, tally) = (&self.clock, &self.tally);
        let phase_end = if tally.in_warmup {
            clock.warmup
        } else {
            clock.total
        };
        let k = ((tally.last_tick - tally.phase_start).as_secs_f64()
            / clock.interval.as_secs_f64())
        .floor()
            + 1.0;
        let next = (tally.phase_start + clock.interval.mul_f64(k)).min(phase_end);
        let measuring = (!tally.in_warmup).then_some(tally.phase_start);
        loop {
            let el = self.clock.t0.elapsed();
            if el >= next {
                return Boundary {
                    stopped_early: false,
                    measuring,
                };
            }
            if self.users.stop_asked() {
                return Boundary {
                    stopped_early: true,
                    measuring,
                };
            }
            self.watch.look(&self.users.shared.busy, el, measuring);
            self.given.display.tick(el, self.clock.total);
            std::thread::sleep((next - el).min(Duration::from_millis(50)));
        }
    }

    /// Whether the run ends with this interval: stopped early, out of time, or out of
    /// --events.
    fn ending(&self, boundary: &Boundary) -> bool {
        boundary.stopped_early
            || self.clock.t0.elapsed() >= self.clock.total
            || self.users.events_done(self.given.part)
    }

    /// At the end, stops the virtual users before the last snapshot: their transactions in
    /// flight have a grace to end (the database saw them, so they are counted), then those
    /// still inside one are cut (cut.rs); the server's end of their sessions is waited for
    /// in `close`, after the measured phase.
    fn stop_users(&mut self, boundary: &Boundary) {
        let t0 = self.clock.t0;
        self.watch
            .look(&self.users.shared.busy, t0.elapsed(), boundary.measuring);
        let by_time = !boundary.stopped_early && t0.elapsed() >= self.clock.total;
        if !boundary.stopped_early {
            targets::sample_and_wait(&self.samplers, cut::GRACE / 2);
        }
        self.users.halt();
        // An --events budget's transactions all end (exactly that many). Each cut attempt
        // may or may not reach the server's counts: at most CUT_SHARE of those completed
        // are cut (past that the cross-checks could not see another client), unless the
        // stall rule already makes the run INVALID.
        let completed = self.tally.cumulative.completed_total() + self.users.completed_pending();
        let measured_s = self
            .clock
            .total
            .saturating_sub(self.clock.warmup)
            .as_secs_f64();
        let most = if self.watch.stalled(self.users.n, measured_s) {
            u64::MAX
        } else {
            validity::most_cut(completed)
        };
        let ways = self.ways_in();
        let cut_on = (!self.users.events_done(self.given.part)).then_some((&ways[..], most));
        let ended = self.users.join_in_flight(cut_on);
        if ended.waited_for > 0 {
            self.result.notes.push(format!(
                "{} virtual user(s) were still inside a transaction {} s after the run's end that the server may count if cut (they may have sent what ends it, or the server is PostgreSQL), more than {:.0} % of the {completed} completed: they were waited for, not cut (each such cut attempt may or may not reach the server's counts, and past that share the cross-checks could not see another client)",
                ended.waited_for,
                cut::GRACE.as_secs(),
                CUT_SHARE * 100.0
            ));
        }
        if let Some(c) = ended.cutting {
            self.tally.cut_connections = c.connections;
            let before = format!(
                "; {} of them before they sent anything that could end their transaction (rolled back, in neither txbench's counts nor the server's)",
                c.uncommitted
            );
            self.result.notes.push(format!(
                "{} virtual user(s) were still inside a transaction {} s after the run's end: they were cut (their sockets shut, their sessions ended on the server with KILL CONNECTION or pg_terminate_backend), and those transactions are counted as cut, neither completed nor failed{}",
                c.users,
                cut::GRACE.as_secs(),
                if c.uncommitted > 0 { &before } else { "" }
            ));
            // The users have stopped with their sockets shut: the server's end of their
            // sessions is waited for after the measured phase, before the closing sample
            // (close).
            self.cutting = Some(c);
        }
        // The wait for the transactions in flight is in the measured phase: the overrun
        // rule judges it.
        if by_time {
            self.watch.overrun_s = t0.elapsed().saturating_sub(self.clock.total).as_secs_f64();
        }
        if ended.left > 0 {
            self.fired.cause(format!(
                "{} virtual user(s) did not finish their transaction within {} s of the run's end: the server stopped answering them",
                ended.left,
                END_JOIN_LIMIT.as_secs()
            ));
        }
    }

    /// Each target's ways in for the end of the run's cut: past its thread pool where its
    /// monitor found a way (the cut's statements would queue behind the users'), then the
    /// users' own.
    fn ways_in(&self) -> Vec<Vec<TargetUrl>> {
        let urls = &self.given.targets.urls;
        urls.iter()
            .enumerate()
            .map(|(i, url)| {
                let past = self.samplers.get(i).and_then(|s| s.monitor_port());
                past.map(|port| url.at_port(port))
                    .into_iter()
                    .chain([url.clone()])
                    .collect()
            })
            .collect()
    }

    /// The server sample for the interval that just ended (the last one is taken when the
    /// result is closed, once everything is counted).
    fn sample_servers(&self, now: Duration, ending: bool) {
        for s in &self.samplers {
            if self.tally.in_warmup && now >= self.clock.warmup {
                s.measure_starts(now.as_secs_f64());
            } else if !ending {
                s.sample();
            }
        }
    }

    /// The interval's row from the virtual users' counts, this process's CPU over it, and
    /// the measured phase's totals brought up to date.
    fn take_row(&mut self, now: Duration) -> (IntervalRow, Recorder) {
        let names = &self.given.names;
        let n = self.users.n as u32;
        let nt = self.users.shared.targets;
        let tally = &mut self.tally;
        let (rec, per_target) = self.users.take_counts(names.len());
        let phase = if tally.in_warmup {
            Phase::Warmup
        } else {
            Phase::Measure
        };
        let (from, to) = (tally.last_tick.as_secs_f64(), now.as_secs_f64());
        let mut row = IntervalRow::of(&rec, names, phase, from, to, n);
        if nt > 1 {
            row.targets = per_target
                .iter()
                .map(|r| {
                    crate::results::TargetRow::of(&IntervalRow::of(r, names, phase, from, to, n))
                })
                .collect();
        }
        let cpu = process_cpu_s();
        let wall = (now - tally.last_tick).as_secs_f64();
        row.client_cpu_pct = cpu_pct(cpu - tally.last_cpu, wall, tally.cpus);
        if phase == Phase::Measure {
            for (c, r) in tally.cumulative_targets.iter_mut().zip(&per_target) {
                c.merge(r);
            }
            tally.cumulative.merge(&rec);
            tally.measured_secs += wall;
            tally.measured_cpu += cpu - tally.last_cpu;
        }
        tally.last_cpu = cpu;
        (row, rec)
    }

    /// Validity rules checked every interval: each kind on its own, so a kind that is a
    /// small part of the mix cannot fail unnoticed under the total; and the --rate schedule
    /// the database could not keep up with.
    fn check_rules(&mut self, row: &IntervalRow, rec: &Recorder) {
        if row.phase == Phase::Measure
            && let Some(reason) = validity::error_rate(row, rec, self.given.cfg)
        {
            self.fired.effect(reason);
        }
        if self.users.overflow.load(Ordering::Relaxed) {
            let rate = self.given.part.rate.unwrap_or_default();
            self.fired.effect(format!(
                "the database cannot keep up with --rate {}: more than {} transactions were queued",
                rate,
                pacer::queue_capacity(rate)
            ));
        }
    }

    /// What the samplers noted and saw happen (shown and kept), whether a target was lost or
    /// froze, and whether a virtual user crashed.
    fn hear_samplers(&mut self, now: Duration) {
        let (targets, display) = (self.given.targets, self.given.display);
        for (i, s) in self.samplers.iter().enumerate() {
            for note in s.take_notes() {
                let note = targets::label(targets, i, note);
                display.note(&note);
                self.result.notes.push(note);
            }
            for e in s.take_events() {
                let e = crate::results::Event {
                    t_s: e.t_s,
                    what: targets::label(targets, i, e.what),
                };
                display.note(&format!("at {:.1} s: {}", e.t_s, e.what));
                self.result.events.push(e);
            }
        }
        let verdict = self
            .verdicts
            .check(&self.samplers, targets, now.as_secs_f64());
        for e in verdict.events {
            display.note(&format!("at {:.1} s: {}", e.t_s, e.what));
            self.result.events.push(e);
        }
        if let Some((reason, frozen)) = verdict.abort {
            self.unresponsive = frozen;
            self.fired.cause(reason);
        }
        let crashed = self
            .users
            .shared
            .crashed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if let Some(reason) = crashed {
            self.fired.cause(reason);
        }
    }

    /// Whether the interval ending at `now` ends the warm-up.
    fn warmup_ends_at(&self, now: Duration) -> bool {
        self.tally.in_warmup && now >= self.clock.warmup
    }

    /// The warm-up ends with the interval that reaches it: the measured phase opens.
    fn end_warmup_if_due(&mut self, now: Duration) {
        if self.warmup_ends_at(now) {
            self.tally.in_warmup = false;
            self.tally.phase_start = now;
            self.users
                .start_budget(self.given.part, self.given.workload);
        }
    }

    /// The summary of the measured phase so far (per target too), the workload's report and
    /// its rules, and the stability figures.
    fn update_summary(&mut self) {
        let tally = &self.tally;
        if tally.measured_secs <= 0.0 {
            return;
        }
        let Given {
            cfg,
            part,
            targets,
            workload,
            names,
            ..
        } = &self.given;
        let nt = targets.urls.len().max(1);
        let mut summary = Summary::of(&tally.cumulative, names, tally.measured_secs);
        summary.targets = tally
            .cumulative_targets
            .iter()
            .enumerate()
            .map(|(i, r)| {
                crate::results::TargetSummary::of(
                    targets.urls[i].to_string(),
                    targets::dealt(&part.users, nt, i),
                    &Summary::of(r, names, tally.measured_secs),
                )
            })
            .collect();
        summary.client_cpu_s = tally.measured_cpu;
        summary.client_cpu_pct = cpu_pct(tally.measured_cpu, tally.measured_secs, tally.cpus);
        summary.client_users = Some(crate::results::ClientUsers {
            users: self.users.n,
            peak_rss_kib: super::validity::process_peak_rss_kib(),
            rss_before_kib: self.users.rss_before_kib,
            connect_s: self.users.connect_s,
            fiber_threads: self.users.fiber_threads,
        });
        self.result.workload_report = workload.report(&summary);
        for reason in workload.invalid_reasons(&summary) {
            self.fired.effect(reason);
        }
        self.result.summary = Some(summary);
        self.result.stability = crate::results::Stability::of(
            &self.result.intervals,
            cfg.warmup_s,
            cfg.stability_window_s,
        );
    }

    /// The interval's verdict: the status (interrupted, or aborted by a rule that fired, a
    /// lost server asked before it is blamed), the reasons the run is INVALID, and whether
    /// the run is finished.
    fn judge(&mut self, now: Duration, rec: &Recorder, stopped_early: bool) -> bool {
        let events_done = self.users.events_done(self.given.part);
        if INTERRUPTED.load(Ordering::SeqCst) {
            self.status = RunStatus::Interrupted;
        }
        if self.fired.any() && !self.fired.has_cause() && lost_server(rec) {
            // Transactions lost their connections: ask the server before blaming them.
            targets::sample_and_wait(&self.samplers, Duration::from_secs(2));
            for (i, s) in self.samplers.iter().enumerate() {
                if let Some(why) = s.down_now() {
                    self.fired.cause(targets::label(self.given.targets, i, why));
                }
            }
        }
        if self.fired.any() {
            self.status = RunStatus::Aborted;
        }
        let finished = now >= self.clock.total
            || events_done
            || stopped_early
            || self.status != RunStatus::Completed;
        // Causes first: a rule that fires ends the run in this interval, so these are the
        // first reasons it records.
        let validity = &mut self.result.validity;
        for reason in self.fired.reasons() {
            validity.valid = false;
            if !validity.reasons.contains(reason) {
                validity.reasons.push(reason.clone());
            }
        }
        let tally = &self.tally;
        if finished
            && let Some(reason) = saturation(tally.measured_cpu, tally.measured_secs, tally.cpus)
        {
            validity.valid = false;
            validity.reasons.push(reason);
        }
        finished
    }

    /// The run's end: the servers' last samples and figures with their cross-checks, the
    /// stall and overrun rules, the status and the end time.
    fn close(&mut self) {
        // The measured phase ended when the users had stopped; the closing sample comes
        // once the server has ended the cut sessions (their last counts flushed).
        if let Some(c) = self.cutting.take() {
            self.result.notes.push(c.finish());
        }
        if self.given.cfg.server_metrics && !self.samplers.is_empty() {
            self.server_figures();
        }
        // Without the server's figures (--no-server-metrics, a shard) the by-period table
        // still has the throughput and p95.
        if self.result.periods.is_none() {
            self.result.periods = crate::analysis::periods::of(&self.result, &[]);
        }
        stall::judge(&mut self.result, &self.watch, self.users.n);
        let done_error = self.users.shared.done_error.lock().map(|e| e.clone());
        if let Ok(Some(e)) = done_error {
            self.result.notes.push(e);
        }
        self.result.status = self.status;
        self.result.ended_at =
            Some(humantime::format_rfc3339_seconds(SystemTime::now()).to_string());
    }

    /// The samplers' reports become the summary's server block, cross-checked against what
    /// the virtual users ran.
    fn server_figures(&mut self) {
        // A frozen server will not answer the last sample: do not wait for it.
        let wait = if self.unresponsive {
            Duration::ZERO
        } else {
            crate::sampler::UNRESPONSIVE_LIMIT + Duration::from_secs(2)
        };
        let reports = targets::finish_all(std::mem::take(&mut self.samplers), wait);
        let per_target: Vec<Summary> = self
            .tally
            .cumulative_targets
            .iter()
            .map(|r| Summary::of(r, &self.given.names, self.tally.measured_secs))
            .collect();
        let nt = self.users.shared.targets;
        let shared = &self.users.shared;
        let client = closing::ClientEnd {
            lost: (0..nt).map(|i| self.verdicts.lost(i)).collect(),
            pg_setup: shared.pg_setup.load(Ordering::Relaxed),
            pg_prepares_alone: shared.pg_prepares_alone.load(Ordering::Relaxed),
            in_flight_at_open: closing::opened_before(
                &self.tally.cumulative,
                &self.tally.cumulative_targets,
                &self.given.names,
            ),
            cut_connections: self.tally.cut_connections,
        };
        closing::server_figures(
            &mut self.result,
            reports,
            &per_target,
            self.given.targets,
            &client,
            self.given.workload,
        );
    }

    /// After the last interval: stops and leaves the virtual users (after an abort the server
    /// may hold them forever: they are waited for briefly, then left), and the result.
    pub(super) fn leave(
        self,
        schedule: Option<pacer::Pacer>,
        out: &mut RunDir,
    ) -> Result<RunResult> {
        let mut result = self.result;
        let limit = if self.unresponsive {
            Duration::ZERO
        } else if result.status == RunStatus::Aborted {
            Duration::from_secs(2)
        } else {
            END_JOIN_LIMIT
        };
        self.users.leave(schedule, limit);
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
}
