//! Seed 002's tables of an experiment: per workload and thread level, each variant's
//! repetitions (mean, min-max, p95) and each variant's deviation from the baseline with its
//! interval and verdict, computed within blocks where the design allows it.

use super::{Cell, CellStatus, Experiment};
use crate::analysis::stats::{self, Verdict};
use crate::metrics::server::ABSENT_WHEN_ZERO;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A variant at one level: its repetitions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// The variant.
    pub variant: String,
    /// Mean of the valid repetitions' throughput (in the table's unit).
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
    /// Its confidence interval, %.
    pub ci_pct: (f64, f64),
    /// That interval's confidence: 0.95, or what a sequential experiment's look spends.
    #[serde(default = "ninety_five")]
    pub confidence: f64,
    /// Faster, slower or no significant difference.
    pub verdict: Verdict,
}

fn tps() -> String {
    "tps".into()
}

fn ninety_five() -> f64 {
    0.95
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
    /// Each non-baseline variant's costs against the baseline's (server metrics).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub costs: Vec<(String, Vec<Cost>)>,
}

/// What a transaction (a New-Order for TPC-C) cost the server, a variant against the
/// baseline: on a shared machine throughput moves with the neighbours, what a transaction
/// costs far less.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// The server figure (server CPU ms, redo bytes, …), as in result.json.
    pub figure: String,
    /// "transaction", or "New-Order" for TPC-C.
    pub per: String,
    /// The baseline's mean over its valid repetitions.
    pub base: f64,
    /// The variant's.
    pub new: f64,
    /// The change with its interval, computed as throughput's is (None: fewer than two
    /// repetitions, or a zero on a side).
    pub deviation: Option<Deviation>,
}

impl Cost {
    /// Whether it changed: its interval excludes no change.
    pub fn changed(&self) -> bool {
        self.deviation
            .as_ref()
            .is_some_and(|d| d.verdict != Verdict::NoSignificantDifference)
    }
}

/// The primary outcome when a plan names none.
pub const PRIMARY_THROUGHPUT: &str = "throughput";

/// The costs an experiment compares beside throughput, per transaction (per New-Order when
/// the workload counts them).
pub const COSTS: &[&str] = &[
    "server_cpu_ms",
    "redo_bytes",
    "fsyncs",
    "page_splits",
    "page_reorgs",
    "rows_scanned",
    "disk_write_kb",
    "ack_wait_ms",
    "flow_control_ms",
    "cert_failures",
];

/// Seed 002's table for one workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The workload label.
    pub workload: String,
    /// The baseline.
    pub baseline: String,
    /// The throughput's unit: "NOPM" when every valid cell counted New-Orders (TPC-C),
    /// else "tps" (steady-state transactions per second).
    #[serde(default = "tps")]
    pub unit: String,
    /// One row per thread level.
    pub rows: Vec<Row>,
}

/// How a block's variants are compared over the blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Estimator {
    /// The mean of the blocks' log ratios, Student's t (experiments before issue 41).
    #[default]
    Mean,
    /// Their 20 % trimmed mean, Tukey–McLaughlin interval: one disturbed block cannot carry
    /// the verdict ([`crate::analysis::robust`]).
    Trimmed,
}

/// How the deviations are computed, for outputs to name.
pub fn method(estimator: Estimator) -> &'static str {
    match estimator {
        Estimator::Mean => METHOD,
        Estimator::Trimmed => METHOD_TRIMMED,
    }
}

/// [`METHOD`] with the trimmed mean.
pub const METHOD_TRIMMED: &str = "each cell's steady-state mean throughput is one sample; a variant is compared with the baseline within each repetition (a block: one cell of each variant, in random order), as the 20 % trimmed mean of the blocks' log throughput ratios (from 6 blocks the highest and lowest fifth are left out, so one disturbed block cannot carry the verdict) with the Tukey-McLaughlin interval (95 % confidence, or a sequential look's); where a block is incomplete (an INVALID cell), Welch's t on the repetitions, marked (Welch)";

/// How the deviations of an experiment before issue 41 were computed.
pub const METHOD: &str = "each cell's steady-state mean throughput is one sample; a variant is compared with the baseline within each repetition (a block: one cell of each variant, in random order), as the mean of the blocks' log throughput ratios with Student's t interval (95 % confidence, or a sequential look's); where a block is incomplete (an INVALID cell), Welch's t on the repetitions, marked (Welch)";

/// The tables, one per workload (none for a co-location, whose tables are
/// [`super::coloc::tables`]).
pub fn tables(e: &Experiment) -> Vec<Table> {
    let p = &e.plan;
    // A co-location's cells are one variant alone and together: its own tables compare them.
    if p.instances.is_some() {
        return Vec::new();
    }
    let conf = e.confidence();
    let est = p.estimator;
    p.workloads
        .iter()
        .map(|w| {
            let done = e
                .cells
                .iter()
                .filter(|c| c.workload == *w && c.status == CellStatus::Done);
            let nopm = done.clone().next().is_some() && done.clone().all(|c| c.nopm.is_some());
            let figure = move |c: &Cell| if nopm { c.nopm } else { c.tps };
            Table {
                workload: w.clone(),
                baseline: p.baseline.clone(),
                unit: if nopm { "NOPM" } else { "tps" }.into(),
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
                                done.iter().filter_map(|c| figure(c)).collect(),
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
                        let others = p.variants.iter().filter(|v| **v != p.baseline);
                        let deviations = others
                            .clone()
                            .map(|v| {
                                let d = deviation(
                                    (&cells(&p.baseline), &cells(v)),
                                    v,
                                    &figure,
                                    (conf, est),
                                );
                                (v.clone(), d)
                            })
                            .collect();
                        let costs = others
                            .map(|v| {
                                let c = costs(&cells(&p.baseline), &cells(v), v, (conf, est));
                                (v.clone(), c)
                            })
                            .filter(|(_, c)| !c.is_empty())
                            .collect();
                        Row {
                            threads: t,
                            columns,
                            deviations,
                            costs,
                        }
                    })
                    .collect(),
            }
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
            "{}{} {}{}",
            change_text(d),
            confidence_text(d.confidence),
            d.verdict.text(),
            if d.method == "welch" { " (Welch)" } else { "" }
        ),
        None => "- (needs 2 valid repetitions each)".into(),
    }
}

/// A deviation's change and interval as printed: "-7.5 % [-13.7, -0.9]".
pub fn change_text(d: &Deviation) -> String {
    format!(
        "{} % [{}, {}]",
        bound(d.pct),
        bound(d.ci_pct.0),
        bound(d.ci_pct.1)
    )
}

/// A change from which it is written as a multiple of the baseline ("×146 [×99, ×215]")
/// rather than in % (the summary's costs, the costs chart).
pub const MULTIPLE_PCT: f64 = 1000.0;
/// The smallest and largest multiples written: a fall of 99.9 % or more is ×0.001, and an
/// interval open to ×10,000 or more (an early look's, overflowing to infinity) ends there.
pub const MULTIPLES: (f64, f64) = (1e-3, 1e4);

/// A change in % as a multiple of the baseline within [`MULTIPLES`] (None: not a number).
pub fn multiple(pct: f64) -> Option<f64> {
    (!pct.is_nan()).then(|| (1.0 + pct / 100.0).clamp(MULTIPLES.0, MULTIPLES.1))
}

/// A multiple as printed: "×0.5", "×3.58", "×146".
pub fn times(r: f64) -> String {
    let s = if r >= 10.0 {
        return format!("×{r:.0}");
    } else if r >= 1.0 {
        format!("×{r:.2}")
    } else {
        format!("×{r:.3}")
    };
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A deviation's change and interval as multiples: "×146 [×99, ×215]".
pub fn multiple_text(d: &Deviation) -> String {
    let m = |pct: f64| times(multiple(pct).unwrap_or(1.0));
    format!("{} [{}, {}]", m(d.pct), m(d.ci_pct.0), m(d.ci_pct.1))
}

/// A change in % as printed: "+4.2", or "> +99999" for the upper end of an interval so wide
/// (an early sequential look's on two or three blocks) that its digits would say nothing.
pub(super) fn bound(x: f64) -> String {
    if x > 99_999.0 {
        "> +99999".into()
    } else {
        format!("{x:+.1}")
    }
}

/// " 99.2 %" for an interval that is not at 95 % (a sequential look's), else "".
pub fn confidence_text(c: f64) -> String {
    if (c - 0.95).abs() < 1e-9 {
        String::new()
    } else {
        format!(" {:.1} %", c * 100.0)
    }
}

/// The costs of `new` against `base`'s at one level: per New-Order when every valid cell of
/// both counted New-Orders, else per transaction; the figures both sides have.
fn costs(base: &[&Cell], new: &[&Cell], variant: &str, how: (f64, Estimator)) -> Vec<Cost> {
    fn done<'a>(cells: &[&'a Cell]) -> Vec<&'a Cell> {
        cells
            .iter()
            .copied()
            .filter(|c| c.status == CellStatus::Done)
            .collect()
    }
    let (b, n) = (done(base), done(new));
    if b.is_empty() || n.is_empty() {
        return Vec::new();
    }
    let per_new_order = b.iter().chain(&n).all(|c| !c.per_new_order.is_empty());
    let figures = |c: &Cell, figure: &str| -> Option<f64> {
        let m = if per_new_order {
            &c.per_new_order
        } else {
            &c.per_transaction
        };
        // Server metrics recorded (the map has other figures): a replication figure
        // absent was 0.
        let zero = ABSENT_WHEN_ZERO.contains(&figure) && !m.is_empty();
        m.get(figure).copied().or(zero.then_some(0.0))
    };
    let mean_of = |cells: &[&Cell], figure: &str| -> Option<f64> {
        let v: Vec<f64> = cells.iter().filter_map(|c| figures(c, figure)).collect();
        (v.len() == cells.len()).then(|| stats::mean(&v))
    };
    COSTS
        .iter()
        .filter_map(|figure| {
            let (base, new) = (mean_of(&b, figure)?, mean_of(&n, figure)?);
            if base == 0.0 && new == 0.0 && ABSENT_WHEN_ZERO.contains(figure) {
                return None;
            }
            let value = |c: &Cell| figures(c, figure);
            Some(Cost {
                figure: figure.to_string(),
                per: if per_new_order {
                    "New-Order"
                } else {
                    "transaction"
                }
                .into(),
                base,
                new,
                deviation: deviation((&b, &n), variant, &value, how),
            })
        })
        .collect()
}

/// `new` against `base` at one level on the outcome `value` of each cell: within blocks
/// (repetitions) when every block that has a valid cell of either has one of both, else
/// Welch's t on the valid repetitions; at `how`'s confidence, by its estimator.
fn deviation(
    (base, new): (&[&Cell], &[&Cell]),
    variant: &str,
    value: &dyn Fn(&Cell) -> Option<f64>,
    (confidence, estimator): (f64, Estimator),
) -> Option<Deviation> {
    let valid = |cells: &[&Cell]| -> BTreeMap<u32, f64> {
        cells
            .iter()
            .filter(|c| c.status == CellStatus::Done)
            .filter_map(|c| Some((c.repetition, value(c)?)))
            .collect()
    };
    let (b, n) = (valid(base), valid(new));
    let complete = b.keys().all(|r| n.contains_key(r)) && n.keys().all(|r| b.contains_key(r));
    let (d, method, count) = if complete {
        let pairs: Vec<(f64, f64)> = b.iter().map(|(r, x)| (*x, n[r])).collect();
        let d = match estimator {
            Estimator::Mean => stats::paired_log_ratio_at(&pairs, confidence),
            Estimator::Trimmed => crate::analysis::robust::trimmed_log_ratio_at(&pairs, confidence),
        };
        (d, "paired", pairs.len())
    } else {
        let (b, n): (Vec<f64>, Vec<f64>) = (b.into_values().collect(), n.into_values().collect());
        let count = b.len().min(n.len());
        (
            stats::welch_independent_at(&b, &n, confidence),
            "welch",
            count,
        )
    };
    d.map(|d| Deviation {
        variant: variant.to_string(),
        method: method.into(),
        n: count,
        pct: d.deviation_pct,
        ci_pct: d.ci_pct,
        confidence,
        verdict: d.verdict,
    })
}

/// The costs that changed significantly, as a line: "redo_bytes +248.0 % [+231.2, +265.9],
/// …"; the others named as unchanged.
pub fn costs_text(costs: &[Cost]) -> String {
    let (changed, rest): (Vec<&Cost>, Vec<&Cost>) = costs.iter().partition(|c| c.changed());
    // A cost the baseline does not have at all (a replica's acknowledgement wait against a
    // server alone) has no ratio: it is said as what appeared, not as unchanged.
    let (appeared, same): (Vec<&Cost>, Vec<&Cost>) = rest
        .into_iter()
        .partition(|c| c.base == 0.0 && c.new != 0.0);
    let mut out = String::new();
    for c in &changed {
        if let Some(d) = &c.deviation {
            let _ = write!(
                out,
                "{}{} {:+.1} % [{:+.1}, {:+.1}]",
                if out.is_empty() { "" } else { ", " },
                c.figure,
                d.pct,
                d.ci_pct.0,
                d.ci_pct.1
            );
        }
    }
    for c in &appeared {
        let _ = write!(
            out,
            "{}{} 0 → {} (none in the baseline)",
            if out.is_empty() { "" } else { ", " },
            c.figure,
            crate::metrics::server::figure_text(c.new)
        );
    }
    if out.is_empty() {
        out.push_str("none changed");
    }
    if !same.is_empty() {
        let names: Vec<&str> = same.iter().map(|c| c.figure.as_str()).collect();
        let _ = write!(out, "; no significant change: {}", names.join(", "));
    }
    out
}

/// Each variant's costs line at each level of `t`: "per New-Order, b vs a, 4 threads: …"
/// (see [`costs_text`]), for the exporters to frame.
pub fn cost_lines(t: &Table) -> Vec<String> {
    t.rows
        .iter()
        .flat_map(|r| {
            r.costs.iter().map(move |(v, costs)| {
                let per = costs.first().map_or("transaction", |c| c.per.as_str());
                format!(
                    "per {per}, {v} vs {}, {} threads: {}",
                    t.baseline,
                    r.threads,
                    costs_text(costs)
                )
            })
        })
        .collect()
}
