//! The balanced-rate search: probes of the primary with the replica applying, the replica's
//! backlog sampled throughout each, the next probe's rate chosen from what the last showed.
//!
//! A probe keeps up when its peak backlog, in seconds of the primary's writing, is within
//! the tolerance: a replica that applies slower than the primary writes ends a probe of T
//! seconds (1 − its share) × T seconds behind, one that keeps up only the transactions in
//! flight. The first probe runs closed loop (or at `--rate`); a probe that falls behind gives
//! the replica's applying rate (what it applied of what was written, times the primary's
//! rate), which the next probe tries when it lies inside the bracket; otherwise the
//! bracket's middle. The search stops when the bracket's ends are within 5 %, the replica
//! kept up with the fastest probe, or `--probes` ran.

use super::catch_up::{new_orders, primary_run, settle, wait_applied};
use super::{Leg, Members, Options, run_primary};
use crate::engine::mysql::{self as my, applier};
use crate::results::replay::{Balanced, Probe};
use crate::topology::{binlog_gtid, gtid_distance};
use anyhow::{Context, Result};
use std::time::{Duration, SystemTime};

/// The lag a probe may end with, as a share of its seconds…
const TOLERANCE: f64 = 0.05;
/// …and at least this (a commit's round trip and the sampling's own step).
const MIN_TOLERANCE_S: f64 = 0.5;
/// How often the backlog is sampled during a probe.
const SAMPLE: Duration = Duration::from_millis(100);
/// The bracket's ends this close (as a ratio) end the search.
const PRECISION: f64 = 1.05;

/// The seconds of lag a probe of `time` seconds may end with.
pub(super) fn tolerance(time: f64) -> f64 {
    (time * TOLERANCE).max(MIN_TOLERANCE_S)
}

/// The whole search (module doc).
pub(super) fn search(o: &Options, m: &Members, note: &dyn Fn(&str)) -> Result<Balanced> {
    let mut p = my::connect(&m.primary.admin_url()).context("the primary")?;
    let mut r = my::connect(&m.replica.admin_url()).context("the replica")?;
    settle(&mut p, &mut r, &m.replica.name, o.timeout)?;
    let started_at = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
    let tolerance_s = tolerance(o.time);
    let mut bracket = Bracket::default();
    let (mut probes, mut reasons) = (Vec::new(), Vec::new());
    let mut rate = o.rate;
    for i in 1..=o.probes.unwrap_or(1) {
        let dir = format!("probe-{i}");
        note(&format!(
            "{dir}: the primary runs TPC-C for {} s ({} thread(s), {}), the replica applying",
            o.time,
            o.threads,
            rate.map_or("closed loop".into(), |r| format!("--rate {r:.1}"))
        ));
        let (probe, problems) = run_probe(o, m, (&mut p, &mut r), &dir, rate, tolerance_s)?;
        note(&probe.line());
        bracket.learn(&probe);
        probes.push(probe);
        reasons.extend(problems);
        match bracket.next() {
            Some(next) if reasons.is_empty() => rate = Some(next),
            _ => break,
        }
    }
    let (balanced_nopm, behind_nopm) = bounds(&probes);
    Ok(Balanced {
        primary: m.primary.name.clone(),
        replica: m.replica.name.clone(),
        started_at,
        tolerance_s,
        probes,
        balanced_nopm,
        behind_nopm,
        valid: reasons.is_empty(),
        reasons,
    })
}

/// One probe: the primary's run with the backlog sampled beside it, then the replica
/// drained to the primary's last transaction and the New-Orders compared; what makes the
/// search INVALID is returned beside it.
fn run_probe(
    o: &Options,
    m: &Members,
    (p, r): (&mut mysql::Conn, &mut mysql::Conn),
    dir: &str,
    rate: Option<f64>,
    tolerance_s: f64,
) -> Result<(Probe, Vec<String>)> {
    let from = binlog_gtid(p)?.unwrap_or_default();
    let leg = Leg {
        dir,
        label: "balanced",
        rate,
    };
    let (run, peak) = std::thread::scope(|s| {
        let child = s.spawn(|| run_primary(o, m, &leg));
        let mut peak = Ok(0u64);
        while !child.is_finished() {
            match backlog(p, r) {
                Ok(b) => peak = peak.map(|was| was.max(b)),
                Err(e) => {
                    peak = Err(e);
                    break;
                }
            }
            std::thread::sleep(SAMPLE);
        }
        let run = child.join().unwrap_or_else(|_| {
            Err(anyhow::anyhow!(
                "the thread running the primary's run panicked"
            ))
        });
        (run, peak)
    });
    let (run, peak_backlog) = (run?, peak.context("sampling the replica's backlog")?);
    let target = binlog_gtid(p)?.unwrap_or_default();
    let written = gtid_distance(&target, &from);
    let drained = wait_applied(r, &target, o.timeout)?;
    let mut problems: Vec<String> = drained
        .problem
        .iter()
        .map(|e| format!("{dir}: {e}"))
        .collect();
    if problems.is_empty() {
        let (on_p, on_r) = (new_orders(p)?, new_orders(r)?);
        if on_p != on_r {
            problems.push(format!(
                "{dir}: the replica holds {on_r} New-Order(s) (SUM(D_NEXT_O_ID)) and the primary {on_p}: it does not apply what the primary writes"
            ));
        }
    }
    if !run.validity.valid {
        problems.push(format!(
            "{dir}: the primary's run is INVALID: {}",
            run.validity.reasons.join("; ")
        ));
    }
    if written == 0 {
        problems.push(format!(
            "{dir}: the primary wrote nothing for the replica to apply"
        ));
    }
    let primary_run = primary_run(&run);
    let lag_s = if written > 0 && primary_run.seconds > 0.0 {
        peak_backlog as f64 * primary_run.seconds / written as f64
    } else {
        0.0
    };
    let probe = Probe {
        run_dir: dir.into(),
        rate,
        primary_run,
        written,
        peak_backlog,
        lag_s,
        drain_s: drained.seconds,
        kept_up: lag_s <= tolerance_s,
    };
    Ok((probe, problems))
}

/// Transactions the primary has committed and the replica has not applied (an applier
/// that stopped shows as a growing backlog here, and as the drain's problem after).
fn backlog(p: &mut mysql::Conn, r: &mut mysql::Conn) -> Result<u64> {
    let written = binlog_gtid(p)?.unwrap_or_default();
    Ok(gtid_distance(&written, &applier::applied(r)?))
}

/// The balanced rate's bounds: the fastest kept-up probe's NOPM below the slowest probe
/// that fell behind, and that one's.
fn bounds(probes: &[Probe]) -> (Option<f64>, Option<f64>) {
    let behind = probes
        .iter()
        .filter(|p| !p.kept_up)
        .map(|p| p.primary_run.nopm)
        .reduce(f64::min);
    let kept = probes
        .iter()
        .filter(|p| p.kept_up)
        .map(|p| p.primary_run.nopm);
    (fastest_below(kept, behind), behind)
}

/// The fastest of the rates `kept` up with below `behind`, the slowest fallen behind at: a
/// rate kept up with above one fallen behind at (the noise at the balanced rate) bounds
/// nothing.
fn fastest_below(kept: impl Iterator<Item = f64>, behind: Option<f64>) -> Option<f64> {
    kept.filter(|k| behind.is_none_or(|b| *k < b))
        .reduce(f64::max)
}

/// What the probes so far say of the balanced rate, in the primary's transactions per
/// second (every kind, as `--rate` counts them).
#[derive(Debug, Default)]
struct Bracket {
    /// The rates the replica kept up with.
    kept: Vec<f64>,
    /// The slowest rate it fell behind at.
    high: Option<f64>,
    /// The replica's applying rate as the last probe it fell behind in showed it.
    estimate: Option<f64>,
}

impl Bracket {
    /// Learns from a probe: its achieved rate bounds the balanced one from below or above.
    fn learn(&mut self, p: &Probe) {
        let achieved = p.primary_run.tpm / 60.0;
        if achieved <= 0.0 {
            return;
        }
        if p.kept_up {
            self.kept.push(achieved);
        } else {
            self.high = Some(self.high.map_or(achieved, |h| h.min(achieved)));
            let applied = p.written.saturating_sub(p.peak_backlog) as f64;
            self.estimate = (p.written > 0).then(|| achieved * applied / p.written as f64);
        }
    }

    /// The fastest rate the replica kept up with below the slowest it fell behind at.
    fn low(&self) -> Option<f64> {
        fastest_below(self.kept.iter().copied(), self.high)
    }

    /// The next probe's rate, or None when the search is done: the estimate when it lies
    /// inside the bracket, else its middle. A probe that contradicts a faster one sends the
    /// search below both.
    fn next(&self) -> Option<f64> {
        let high = self.high?;
        let low = self.low().unwrap_or(0.0);
        if low * PRECISION >= high {
            return None;
        }
        let inside = |x: f64| x > low * PRECISION && x * PRECISION < high;
        Some(
            self.estimate
                .filter(|e| inside(*e))
                .unwrap_or((low + high) / 2.0),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::replay::PrimaryRun;

    fn probe(tps: f64, written: u64, peak: u64, kept_up: bool) -> Probe {
        Probe {
            run_dir: "probe-1".into(),
            rate: None,
            primary_run: PrimaryRun {
                seconds: 10.0,
                new_orders: 0,
                nopm: tps * 60.0 * 0.45,
                tpm: tps * 60.0,
                valid: true,
            },
            written,
            peak_backlog: peak,
            lag_s: 0.0,
            drain_s: 0.0,
            kept_up,
        }
    }

    #[test]
    fn a_replica_that_keeps_up_with_the_closed_loop_probe_ends_the_search() {
        let mut b = Bracket::default();
        b.learn(&probe(1000.0, 9000, 10, true));
        assert_eq!(b.next(), None);
    }

    #[test]
    fn a_probe_that_falls_behind_sends_the_next_to_the_replicas_applying_rate() {
        let mut b = Bracket::default();
        // It applied 6,000 of 10,000 written: 60 % of 1,000 tps.
        b.learn(&probe(1000.0, 10_000, 4000, false));
        assert_eq!(b.next(), Some(600.0));
        // Kept up at 600: the estimate is no longer inside, so the middle.
        b.learn(&probe(600.0, 6000, 5, true));
        assert_eq!(b.next(), Some(800.0));
        // Behind at 800, having applied 87.5 %: 700 is inside.
        b.learn(&probe(800.0, 8000, 1000, false));
        assert_eq!(b.next(), Some(700.0));
        // Kept up at 780 (noise): 780..800 is within 5 %, done.
        b.learn(&probe(780.0, 7800, 5, true));
        assert_eq!(b.next(), None);
    }

    /// In a clean-clone CI the throttled replica kept up at 41.4 tps and then fell behind at
    /// 41.0 (0.503 s behind, 0.5 allowed): the search stopped with no balanced rate and a
    /// probe left. Now the next probe goes below both, to the applying rate the last showed.
    #[test]
    fn a_probe_that_contradicts_a_faster_one_sends_the_search_below_both() {
        let mut b = Bracket::default();
        b.learn(&probe(80.0, 286, 123, false));
        b.learn(&probe(41.4, 154, 17, true));
        assert!(b.next().is_some());
        // Applied 134 of 153 written at 41.0 tps: 35.9.
        b.learn(&probe(41.0, 153, 19, false));
        let next = b.next().expect("a probe below both");
        assert!((next - 41.0 * 134.0 / 153.0).abs() < 1e-9, "{next}");
        // It keeps up there: 35.9 is the low end, within 5 % of nothing yet.
        b.learn(&probe(next, 130, 2, true));
        assert_eq!(b.low(), Some(next));
        assert_eq!(b.next(), Some((next + 41.0) / 2.0));
    }

    #[test]
    fn the_bounds_never_put_a_kept_up_probe_above_one_that_fell_behind() {
        let ps = [
            probe(1000.0, 10_000, 4000, false),
            probe(600.0, 6000, 5, true),
            probe(800.0, 8000, 1000, false),
            // Noise: kept up at a rate above one that fell behind; not the balanced rate.
            probe(900.0, 9000, 5, true),
        ];
        let (kept, behind) = bounds(&ps);
        assert_eq!(behind, Some(800.0 * 60.0 * 0.45));
        assert_eq!(kept, Some(600.0 * 60.0 * 0.45));
        assert_eq!(bounds(&ps[1..2]), (Some(600.0 * 60.0 * 0.45), None));
    }

    #[test]
    fn the_tolerance_is_five_percent_of_a_probe_and_at_least_half_a_second() {
        assert_eq!(tolerance(60.0), 3.0);
        assert_eq!(tolerance(4.0), 0.5);
    }
}
