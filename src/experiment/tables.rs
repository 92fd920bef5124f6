//! Seed 002's tables of an experiment: per workload and thread level, each variant's
//! repetitions (mean, min-max, p95) and each variant's deviation from the baseline with its
//! interval and verdict, computed within blocks where the design allows it.

use super::{Cell, CellStatus, Experiment};
use crate::analysis::stats::{self, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A variant at one level: its repetitions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// The variant.
    pub variant: String,
    /// Mean of the valid repetitions' throughput.
    pub mean: Option<f64>,
    /// Lowest and highest of them.
    pub min: Option<f64>,
    /// See `min`.
    pub max: Option<f64>,
    /// Valid repetitions.
    pub n: usize,
    /// INVALID repetitions (left out).
    pub invalid: usize,
    /// Median p95 of the valid repetitions, ms.
    pub p95_ms: Option<f64>,
}

/// A variant against the baseline at one level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deviation {
    /// The variant.
    pub variant: String,
    /// How it was computed: "paired" (within blocks) or "welch" (a block was incomplete).
    pub method: String,
    /// Complete blocks (paired), or valid repetitions of the smaller side (Welch).
    pub n: usize,
    /// Its mean against the baseline's, %.
    pub pct: f64,
    /// The 95 % confidence interval of that, %.
    pub ci_pct: (f64, f64),
    /// Faster, slower or no significant difference.
    pub verdict: Verdict,
}

/// One thread level of a workload's table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Virtual users.
    pub threads: u32,
    /// Each variant, in plan order.
    pub columns: Vec<Column>,
    /// Each non-baseline variant against the baseline (None: fewer than 2 valid
    /// repetitions on a side).
    pub deviations: Vec<(String, Option<Deviation>)>,
}

/// Seed 002's table for one workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The workload label.
    pub workload: String,
    /// The baseline.
    pub baseline: String,
    /// One row per thread level.
    pub rows: Vec<Row>,
}

/// How the deviations are computed, for outputs to name.
pub const METHOD: &str = "each cell's steady-state mean throughput is one sample; a variant is compared with the baseline within each repetition (a block: one cell of each variant, in random order), as the mean of the blocks' log throughput ratios with Student's t interval, 95 % confidence; where a block is incomplete (an INVALID cell), Welch's t on the repetitions, marked (Welch)";

/// The tables, one per workload.
pub fn tables(e: &Experiment) -> Vec<Table> {
    let p = &e.plan;
    p.workloads
        .iter()
        .map(|w| Table {
            workload: w.clone(),
            baseline: p.baseline.clone(),
            rows: p
                .threads
                .iter()
                .map(|&t| {
                    let cells = |v: &str| -> Vec<&Cell> {
                        e.cells
                            .iter()
                            .filter(|c| c.variant == v && c.workload == *w && c.threads == t)
                            .collect()
                    };
                    let samples = |v: &str| -> (Vec<f64>, Vec<f64>, usize) {
                        let cells = cells(v);
                        let done: Vec<&&Cell> = cells
                            .iter()
                            .filter(|c| c.status == CellStatus::Done)
                            .collect();
                        (
                            done.iter().filter_map(|c| c.tps).collect(),
                            done.iter().filter_map(|c| c.p95_ms).collect(),
                            cells
                                .iter()
                                .filter(|c| c.status == CellStatus::Invalid)
                                .count(),
                        )
                    };
                    let columns: Vec<Column> = p
                        .variants
                        .iter()
                        .map(|v| {
                            let (tps, p95, invalid) = samples(v);
                            let fold = |f: fn(f64, f64) -> f64| tps.iter().copied().reduce(f);
                            Column {
                                variant: v.clone(),
                                mean: (!tps.is_empty()).then(|| stats::mean(&tps)),
                                min: fold(f64::min),
                                max: fold(f64::max),
                                n: tps.len(),
                                invalid,
                                p95_ms: (!p95.is_empty()).then(|| stats::median(&p95)),
                            }
                        })
                        .collect();
                    let deviations = p
                        .variants
                        .iter()
                        .filter(|v| **v != p.baseline)
                        .map(|v| (v.clone(), deviation(&cells(&p.baseline), &cells(v), v)))
                        .collect();
                    Row {
                        threads: t,
                        columns,
                        deviations,
                    }
                })
                .collect(),
        })
        .collect()
}

pub fn num(v: Option<f64>) -> String {
    v.map_or("-".into(), |x| format!("{x:.1}"))
}

pub fn column_text(c: &Column) -> String {
    let mut s = match (c.mean, c.min, c.max) {
        (Some(m), Some(lo), Some(hi)) if c.n > 1 => format!("{m:.1} ({lo:.1}-{hi:.1})"),
        (Some(m), _, _) => format!("{m:.1}"),
        _ => "-".into(),
    };
    if c.invalid > 0 {
        let _ = write!(s, " [{} INVALID]", c.invalid);
    }
    s
}

pub fn deviation_text(d: &Option<Deviation>) -> String {
    match d {
        Some(d) => format!(
            "{:+.1} % [{:+.1}, {:+.1}] {}{}",
            d.pct,
            d.ci_pct.0,
            d.ci_pct.1,
            d.verdict.text(),
            if d.method == "welch" { " (Welch)" } else { "" }
        ),
        None => "- (needs 2 valid repetitions each)".into(),
    }
}

/// `new` against `base` at one level: within blocks (repetitions) when every block that has
/// a valid cell of either has one of both, else Welch's t on the valid repetitions.
fn deviation(base: &[&Cell], new: &[&Cell], variant: &str) -> Option<Deviation> {
    let valid = |cells: &[&Cell]| -> BTreeMap<u32, f64> {
        cells
            .iter()
            .filter(|c| c.status == CellStatus::Done)
            .filter_map(|c| Some((c.repetition, c.tps?)))
            .collect()
    };
    let (b, n) = (valid(base), valid(new));
    let complete = b.keys().all(|r| n.contains_key(r)) && n.keys().all(|r| b.contains_key(r));
    let (d, method, count) = if complete {
        let pairs: Vec<(f64, f64)> = b.iter().map(|(r, x)| (*x, n[r])).collect();
        (stats::paired_log_ratio(&pairs), "paired", pairs.len())
    } else {
        let (b, n): (Vec<f64>, Vec<f64>) = (b.into_values().collect(), n.into_values().collect());
        let count = b.len().min(n.len());
        (stats::welch_independent(&b, &n), "welch", count)
    };
    d.map(|d| Deviation {
        variant: variant.to_string(),
        method: method.into(),
        n: count,
        pct: d.deviation_pct,
        ci_pct: d.ci_pct,
        verdict: d.verdict,
    })
}
