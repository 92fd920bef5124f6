//! The comparison of runs: per thread count, the throughput and p95/p99 of BASE and each NEW
//! (a run or a sweep level; TPC-C in NOPM), each NEW's deviation from BASE with a verdict
//! from a confidence interval on the per-interval throughputs (seed 002's "deviation percentage per thread
//! count"), and the server figures that changed most. Printed by `compare` through
//! report::export.

use crate::analysis::stats::{self, Difference};
use crate::results::{Phase, RunResult, Stability, Stored};
use serde::Serialize;
use std::fmt::Write as _;

/// One run at one thread count.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// Mean transactions per second of the steady-state intervals: the samples the verdict
    /// uses, so the deviation % is computed from the figures printed.
    pub tps: f64,
    /// Transactions per second over the whole measured phase (the run's summary).
    pub summary_tps: f64,
    /// The figure compared: NOPM (mean of the steady-state intervals' New-Orders per
    /// minute) when both runs are TPC-C's, else `tps`.
    pub figure: f64,
    /// Its unit: "NOPM" or "tps".
    pub unit: &'static str,
    /// Response-time 95th percentile, all kinds.
    pub p95_ms: f64,
    /// Response-time 99th percentile, all kinds.
    pub p99_ms: f64,
    /// Steady-state intervals the verdict used.
    pub intervals: usize,
    /// False for an INVALID run.
    pub valid: bool,
    /// How the run ended (completed, interrupted, aborted, unfinished).
    pub status: &'static str,
    /// Why no verdict is given (a run that did not run its course, without --force).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub withheld: Option<String>,
    /// NEW against BASE (None for BASE, or with too few intervals).
    pub vs_base: Option<Difference>,
    /// NEW's server figures against BASE's, ranked by relative change (empty for BASE or
    /// when either run has no server figures).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<crate::metrics::server::WhyRow>,
}

/// One thread count: BASE and each NEW (None where a NEW has no run at this count).
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Virtual users.
    pub threads: u32,
    /// BASE.
    pub base: Side,
    /// Each NEW, in the order given.
    pub new: Vec<Option<Side>>,
}

/// The per-interval throughputs of the steady state: measured intervals from the MSER-5
/// steady-state start on.
pub fn steady_samples(r: &RunResult) -> Vec<f64> {
    steady(r, &|i| i.tps)
}

/// The same intervals' NOPM (None for a run without New-Orders counted).
pub fn steady_nopm(r: &RunResult) -> Option<Vec<f64>> {
    let rate = r.throughput().rate?;
    Some(steady(r, &|i| rate.of_interval(i)))
}

fn steady(r: &RunResult, value: &dyn Fn(&crate::results::IntervalRow) -> f64) -> Vec<f64> {
    let from = Stability::of_run(r).map_or(0.0, |s| s.steady_start_s);
    r.intervals
        .iter()
        .filter(|i| i.phase == Phase::Measure && i.start_s >= from - 1e-9)
        .map(value)
        .collect()
}

/// The samples a comparison of `r` uses: NOPM where `nopm`, else tps.
fn compared(r: &RunResult, nopm: bool) -> Vec<f64> {
    if nopm {
        steady_nopm(r).unwrap_or_default()
    } else {
        steady_samples(r)
    }
}

fn server_of(r: &RunResult) -> Option<&crate::metrics::server::ServerSummary> {
    r.summary.as_ref()?.server.as_ref()
}

/// Why a comparison of `r` (against `base`) is not a verdict on finished runs.
fn unfinished(r: &RunResult, base: Option<&RunResult>) -> Option<String> {
    if let Some(why) = r.status.unfinished_why() {
        return Some(format!("run {why}"));
    }
    let why = base?.status.unfinished_why()?;
    Some(format!("BASE run {why}"))
}

fn side(r: &RunResult, base: Option<(&[f64], &RunResult)>, nopm: bool, force: bool) -> Side {
    let tps_samples = steady_samples(r);
    let samples = if nopm {
        steady_nopm(r).unwrap_or_default()
    } else {
        tps_samples.clone()
    };
    let withheld = unfinished(r, base.map(|(_, b)| b));
    let s = r.summary.as_ref();
    let summary_tps = s.map_or(0.0, |s| s.tps);
    let mean_or = |v: &[f64], or: f64| if v.is_empty() { or } else { stats::mean(v) };
    Side {
        tps: mean_or(&tps_samples, summary_tps),
        summary_tps,
        figure: mean_or(
            &samples,
            if nopm {
                r.throughput().value
            } else {
                summary_tps
            },
        ),
        unit: if nopm { "NOPM" } else { "tps" },
        p95_ms: s.map_or(0.0, |s| s.response.p95_ms),
        p99_ms: s.map_or(0.0, |s| s.response.p99_ms),
        intervals: samples.len(),
        valid: r.validity.valid,
        status: r.status.word(),
        vs_base: base
            .filter(|_| withheld.is_none() || force)
            .and_then(|(b, _)| stats::welch(b, &samples)),
        withheld,
        why: match (base.and_then(|(_, b)| server_of(b)), server_of(r)) {
            (Some(b), Some(n)) => crate::metrics::server::why(b, n),
            _ => Vec::new(),
        },
    }
}

/// The comparison rows of BASE against each NEW, by BASE's thread counts.
/// A NEW or BASE run that did not run its course gets no verdict unless `force`.
pub fn rows(base: &Stored, new: &[Stored], force: bool) -> Vec<Row> {
    // TPC-C against TPC-C compares NOPM; anything else tps.
    let nopm = base
        .runs()
        .into_iter()
        .chain(new.iter().flat_map(|n| n.runs()))
        .all(|r| r.throughput().rate.is_some());
    base.runs()
        .into_iter()
        .map(|b| {
            let samples = compared(b, nopm);
            Row {
                threads: b.config.threads,
                base: side(b, None, nopm, force),
                new: new
                    .iter()
                    .map(|n| {
                        n.runs()
                            .into_iter()
                            .find(|r| r.config.threads == b.config.threads)
                            .map(|r| side(r, Some((&samples, b)), nopm, force))
                    })
                    .collect(),
            }
        })
        .collect()
}

impl Side {
    /// The verdict as people read it: faster, slower, no significant difference, or why
    /// there is none; an INVALID run says so.
    pub fn verdict_text(&self) -> String {
        let mut v = match (&self.vs_base, &self.withheld) {
            (None, Some(why)) => format!("no verdict: {why} (--force to compare)"),
            (None, None) => "too few intervals".to_string(),
            (Some(d), why) => {
                let mut v = d.verdict.text().to_string();
                if let Some(why) = why {
                    let _ = write!(v, " ({why}, --force)");
                }
                v
            }
        };
        if !self.valid {
            v.push_str(" (INVALID run)");
        }
        v
    }
}
