//! A long run cut into equal periods (seed 001 §2.4's 8-hour decline, issue 40 part 5): each
//! period's throughput and 95th percentile beside the server's figures that explain a
//! decline, what a transaction costs (server CPU, disk reads, page splits, redo, rows
//! scanned, lock waits) and the levels that grow (the history list, checkpoint age, dirty
//! pages); and the figures that rose from the first period to the last.

use crate::metrics::server::ServerRow;
use crate::results::period::{Moved, Period, Periods};
use crate::results::{IntervalRow, Phase, RunResult};
use std::collections::BTreeMap;

/// A run measured this long or more is cut into hours without `--period`.
pub const HOURLY_FROM_S: f64 = 2.0 * 3600.0;
/// Fewer periods than this show no course: no table.
pub const MIN_PERIODS: usize = 3;
/// A figure rose when its last period is this much above its first (%).
pub const ROSE_PCT: f64 = 20.0;

/// How a figure is taken from server.csv over a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// A rate per second, divided by the period's transactions per second.
    PerTransaction,
    /// The server's CPU (% of the host's CPUs) as milliseconds per transaction.
    CpuPerTransaction,
    /// A level: its mean over the period.
    Level,
}

/// One figure: its name in [`Period::server`], the server.csv column, how it is taken,
/// its heading in the table, and the least last value worth naming when it rose (a history
/// list of 30 that was 10 is not a cause).
pub struct Figure {
    /// The stored name.
    pub name: &'static str,
    /// The server.csv column it comes from.
    pub column: &'static str,
    /// How.
    pub how: How,
    /// The table's heading.
    pub heading: &'static str,
    /// Below this in the last period it is not named as a cause.
    pub floor: f64,
}

/// Every figure of a period, in the table's order.
pub const FIGURES: &[Figure] = &[
    Figure {
        name: "server_cpu_ms",
        column: "server_cpu_pct",
        how: How::CpuPerTransaction,
        heading: "cpu ms/tx",
        floor: 0.01,
    },
    Figure {
        name: "disk_reads",
        column: "bp_reads_per_s",
        how: How::PerTransaction,
        heading: "reads/tx",
        floor: 0.05,
    },
    Figure {
        name: "page_splits",
        column: "page_splits_per_s",
        how: How::PerTransaction,
        heading: "splits/tx",
        floor: 0.01,
    },
    Figure {
        name: "redo_bytes",
        column: "redo_bytes_per_s",
        how: How::PerTransaction,
        heading: "redo B/tx",
        floor: 1.0,
    },
    Figure {
        name: "rows_scanned",
        column: "rows_scanned_per_s",
        how: How::PerTransaction,
        heading: "scanned/tx",
        floor: 1.0,
    },
    Figure {
        name: "lock_waits",
        column: "row_lock_waits_per_s",
        how: How::PerTransaction,
        heading: "lock waits/tx",
        floor: 0.01,
    },
    Figure {
        name: "history_list_length",
        column: "history_list_length",
        how: How::Level,
        heading: "history list",
        floor: 1000.0,
    },
    Figure {
        name: "checkpoint_age_pct",
        column: "checkpoint_age_pct",
        how: How::Level,
        heading: "ckpt age %",
        floor: 10.0,
    },
    Figure {
        name: "dirty_pages_pct",
        column: "dirty_pages_pct",
        how: How::Level,
        heading: "dirty %",
        floor: 10.0,
    },
];

/// The figure called `name`.
pub fn figure(name: &str) -> Option<&'static Figure> {
    FIGURES.iter().find(|f| f.name == name)
}

/// `r`'s measured phase by period, with the server's `rows` (None: no `--period` and shorter
/// than [`HOURLY_FROM_S`], or fewer than [`MIN_PERIODS`] periods).
pub fn of(r: &RunResult, rows: &[ServerRow]) -> Option<Periods> {
    let t = r.throughput();
    let given = Given {
        period_s: r.config.period_s,
        unit: t.unit,
        throughput: &|i: &IntervalRow| t.of_interval(i),
        cpus: r.client.cpus as f64,
    };
    cut(&r.intervals, rows, &given)
}

/// What [`cut`] takes from the run besides its intervals and rows.
struct Given<'a> {
    /// `--period`.
    period_s: Option<f64>,
    /// The throughput's unit.
    unit: &'a str,
    /// An interval's throughput in that unit.
    throughput: &'a dyn Fn(&IntervalRow) -> f64,
    /// The host's CPUs (server CPU is a share of them).
    cpus: f64,
}

/// The measured intervals and server rows cut into periods.
fn cut(intervals: &[IntervalRow], rows: &[ServerRow], g: &Given<'_>) -> Option<Periods> {
    let measured: Vec<&IntervalRow> = intervals
        .iter()
        .filter(|i| i.phase == Phase::Measure)
        .collect();
    let (from, to) = (measured.first()?.start_s, measured.last()?.end_s);
    let span = to - from;
    let period_s = g.period_s.or((span >= HOURLY_FROM_S).then_some(3600.0))?;
    let n = (span / period_s - 1e-9).ceil().max(0.0) as usize;
    if n < MIN_PERIODS {
        return None;
    }
    let periods: Vec<Period> = (0..n)
        .filter_map(|k| {
            let start = from + k as f64 * period_s;
            period(&measured, rows, g, start, (start + period_s).min(to))
        })
        .collect();
    if periods.len() < MIN_PERIODS {
        return None;
    }
    let moved = rose(&periods, period_s);
    Some(Periods {
        period_s,
        unit: g.unit.to_string(),
        periods,
        moved,
    })
}

/// The period from `start` to `end`: the intervals and rows whose middle falls in it (None
/// without an interval).
fn period(
    measured: &[&IntervalRow],
    rows: &[ServerRow],
    g: &Given<'_>,
    start: f64,
    end: f64,
) -> Option<Period> {
    let within = |a: f64, b: f64| (start..end).contains(&((a + b) / 2.0));
    let ints: Vec<&IntervalRow> = measured
        .iter()
        .copied()
        .filter(|i| within(i.start_s, i.end_s))
        .collect();
    let secs: f64 = ints.iter().map(|i| i.end_s - i.start_s).sum();
    if ints.is_empty() || secs <= 0.0 {
        return None;
    }
    let tps = ints.iter().map(|i| i.transactions as f64).sum::<f64>() / secs;
    let server_rows: Vec<&ServerRow> = rows
        .iter()
        .filter(|s| s.phase == Phase::Measure && within(s.start_s, s.end_s))
        .collect();
    Some(Period {
        start_s: start,
        end_s: end,
        throughput: ints
            .iter()
            .map(|i| (g.throughput)(i) * (i.end_s - i.start_s))
            .sum::<f64>()
            / secs,
        p95_ms: crate::analysis::stats::median(&ints.iter().map(|i| i.p95_ms).collect::<Vec<_>>()),
        server: server_figures(&server_rows, tps, g.cpus),
    })
}

/// A period's server figures from its server.csv rows (weighted by their seconds).
fn server_figures(rows: &[&ServerRow], tps: f64, cpus: f64) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for f in FIGURES {
        let (mut sum, mut secs) = (0.0, 0.0);
        for r in rows {
            if let Some(v) = r.get(f.column) {
                let d = r.end_s - r.start_s;
                sum += v * d;
                secs += d;
            }
        }
        if secs <= 0.0 {
            continue;
        }
        let mean = sum / secs;
        let value = match f.how {
            How::Level => Some(mean),
            How::PerTransaction => (tps > 0.0).then(|| mean / tps),
            How::CpuPerTransaction => (tps > 0.0).then(|| mean / 100.0 * cpus * 1000.0 / tps),
        };
        if let Some(v) = value.filter(|v| v.is_finite()) {
            out.insert(f.name.to_string(), v);
        }
    }
    out
}

/// The first period and the last one at least half a period long (a short tail does not
/// stand for the end of the run).
pub fn ends(periods: &[Period], period_s: f64) -> Option<(&Period, &Period)> {
    let last = periods
        .iter()
        .skip(1)
        .rev()
        .find(|p| p.end_s - p.start_s >= period_s / 2.0)?;
    Some((periods.first()?, last))
}

/// The figures that rose by [`ROSE_PCT`] or more (or from 0) between the [`ends`], above
/// their floor; the largest rise first.
fn rose(periods: &[Period], period_s: f64) -> Vec<Moved> {
    let Some((first, last)) = ends(periods, period_s) else {
        return Vec::new();
    };
    let mut out: Vec<Moved> = FIGURES
        .iter()
        .filter_map(|f| {
            let (a, b) = (*first.server.get(f.name)?, *last.server.get(f.name)?);
            let rose = if a > 0.0 {
                b >= a * (1.0 + ROSE_PCT / 100.0)
            } else {
                b > 0.0
            };
            (rose && b >= f.floor).then(|| Moved {
                name: f.name.to_string(),
                first: a,
                last: b,
            })
        })
        .collect();
    let key = |m: &Moved| m.change_pct().unwrap_or(f64::INFINITY);
    out.sort_by(|x, y| key(y).total_cmp(&key(x)));
    out
}

#[cfg(test)]
mod tests;
