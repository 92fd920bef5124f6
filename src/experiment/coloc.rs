//! Co-location (issue 40; seed 001 §2.1, "super-linear co-location"): N sandboxes of one
//! variant on the host, each with its own data. Every block runs each instance driven alone
//! (the others running idle) and all of them driven together by one `txbench run` with N
//! targets, `threads` virtual users per driven instance. The outcome per level is the ratio
//! together / sum of alone: within each block together's throughput against the sum of
//! that block's alone cells, the mean of the blocks' log ratios with Student's t interval
//! (`analysis::stats::paired_log_ratio_at`, as the deviation tables), and beside it each
//! instance's share of together's throughput and its server's CPU.

use super::{Cell, CellStatus, Deviation, Experiment};
use crate::analysis::stats::{self, Verdict};
use crate::results::Summary;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How the ratio is computed, for outputs to name.
pub const METHOD: &str = "co-location: per block, together's throughput (every instance driven at once, each by its own virtual users at the level) against the sum of that block's alone cells (one instance driven, the others running idle); the ratio is the mean of the blocks' log ratios with Student's t interval; above 1 super-linear, below 1 sub-linear";

/// One instance's part of a together cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Share {
    /// The instance, from 1.
    pub instance: u32,
    /// Its transactions, % of the cell's.
    pub share_pct: f64,
    /// The cell's throughput times its share, per second (they sum to the cell's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tps: Option<f64>,
    /// The same for the cell's NOPM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nopm: Option<f64>,
    /// Its server process's CPU, % of the host's CPUs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_cpu_pct: Option<f64>,
}

/// The instances each cell of a block drives, for a plan's `instances`: one cell driving
/// none (variants compared), or each instance alone and then all of them.
pub fn driven(instances: Option<u32>) -> Vec<Vec<u32>> {
    match instances {
        None => vec![Vec::new()],
        Some(n) => (1..=n)
            .map(|i| vec![i])
            .chain(std::iter::once((1..=n).collect()))
            .collect(),
    }
}

/// Whether `driven` (of a plan with instances) is the together cell.
fn together(driven: &[u32]) -> bool {
    driven.len() > 1
}

/// What a cell's directory name adds: "", "-alone2", "-together".
pub fn dir_suffix(driven: &[u32]) -> String {
    match driven {
        [] => String::new(),
        [i] => format!("-alone{i}"),
        _ => "-together".into(),
    }
}

/// A cell as the tables name it: its variant, and "alone 2" or "together" with
/// co-location.
pub fn cell_label(c: &Cell) -> String {
    match c.instances.as_slice() {
        [] => c.variant.clone(),
        [i] => format!("{} alone {i}", c.variant),
        _ => format!("{} together", c.variant),
    }
}

/// A together cell's shares, from its run's summary of each target (in the order the cell
/// drove its instances); empty for another cell or a run without per-target figures.
pub fn shares_of(c: &Cell, s: Option<&Summary>) -> Vec<Share> {
    let Some(s) = s else {
        return Vec::new();
    };
    let total: u64 = s.targets.iter().map(|t| t.transactions).sum();
    if !together(&c.instances) || s.targets.len() != c.instances.len() || total == 0 {
        return Vec::new();
    }
    c.instances
        .iter()
        .zip(&s.targets)
        .map(|(&instance, t)| {
            let part = t.transactions as f64 / total as f64;
            Share {
                instance,
                share_pct: part * 100.0,
                tps: c.tps.map(|v| v * part),
                nopm: c.nopm.map(|v| v * part),
                server_cpu_pct: t.server_cpu_pct,
            }
        })
        .collect()
}

/// One thread level of a co-location table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoRow {
    /// Virtual users per driven instance.
    pub threads: u32,
    /// Each instance alone: the mean of its valid cells.
    pub alone: Vec<Option<f64>>,
    /// Together: the mean of its valid cells.
    pub together: Option<f64>,
    /// Blocks whose every cell at this level is valid.
    pub blocks: usize,
    /// Together / sum of alone: the geometric mean of the complete blocks' ratios (None
    /// without one).
    pub ratio: Option<f64>,
    /// Together against the sum of alone with its interval and verdict (faster:
    /// super-linear; None: fewer than 2 complete blocks).
    pub deviation: Option<Deviation>,
    /// Each instance's share of together's throughput, %: the mean over its valid cells.
    pub shares_pct: Vec<Option<f64>>,
    /// Each instance's server CPU together, % of the host's CPUs.
    pub cpu_pct: Vec<Option<f64>>,
    /// The host's CPUs busy together, %.
    pub host_pct: Option<f64>,
    /// INVALID cells at this level (left out).
    pub invalid: usize,
}

/// A workload's co-location table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoTable {
    /// The workload label.
    pub workload: String,
    /// The variant the instances run.
    pub variant: String,
    /// Instances.
    pub instances: u32,
    /// "NOPM" when every valid cell counted New-Orders, else "tps".
    pub unit: String,
    /// One per thread level.
    pub rows: Vec<CoRow>,
}

/// The co-location tables, one per workload (none when the experiment compares variants).
pub fn tables(e: &Experiment) -> Vec<CoTable> {
    let Some(n) = e.plan.instances else {
        return Vec::new();
    };
    let Some(variant) = e.plan.variants.first() else {
        return Vec::new();
    };
    let conf = e.confidence();
    e.plan
        .workloads
        .iter()
        .map(|w| {
            let cells: Vec<&Cell> = e.cells.iter().filter(|c| c.workload == *w).collect();
            let done = || cells.iter().filter(|c| c.status == CellStatus::Done);
            let nopm = done().next().is_some() && done().all(|c| c.nopm.is_some());
            CoTable {
                workload: w.clone(),
                variant: variant.clone(),
                instances: n,
                unit: if nopm { "NOPM" } else { "tps" }.into(),
                rows: e
                    .plan
                    .threads
                    .iter()
                    .map(|&t| {
                        let level: Vec<&Cell> =
                            cells.iter().copied().filter(|c| c.threads == t).collect();
                        row(&level, t, n, nopm, conf)
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The mean of what `cells` have, None when none has it.
fn mean_of(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let v: Vec<f64> = values.flatten().collect();
    (!v.is_empty()).then(|| stats::mean(&v))
}

/// The row of one level's cells of a plan with `n` instances.
fn row(cells: &[&Cell], threads: u32, n: u32, nopm: bool, conf: f64) -> CoRow {
    let figure = |c: &Cell| if nopm { c.nopm } else { c.tps };
    let done: Vec<&Cell> = cells
        .iter()
        .copied()
        .filter(|c| c.status == CellStatus::Done)
        .collect();
    let alone_cells = |i: u32| done.iter().filter(move |c| c.instances == [i]);
    let together_cells: Vec<&Cell> = done
        .iter()
        .copied()
        .filter(|c| together(&c.instances))
        .collect();
    let share = |i: u32, get: &dyn Fn(&Share) -> Option<f64>| {
        mean_of(
            together_cells
                .iter()
                .map(|c| c.shares.iter().find(|s| s.instance == i).and_then(get)),
        )
    };
    let pairs = block_pairs(&done, n, &figure);
    let ratio = (!pairs.is_empty()).then(|| {
        let logs: Vec<f64> = pairs
            .iter()
            .map(|(alone, tog)| (tog / alone).ln())
            .collect();
        stats::mean(&logs).exp()
    });
    let deviation = stats::paired_log_ratio_at(&pairs, conf).map(|d| Deviation {
        variant: "together".into(),
        method: "paired".into(),
        n: pairs.len(),
        pct: d.deviation_pct,
        ci_pct: d.ci_pct,
        confidence: conf,
        verdict: d.verdict,
    });
    CoRow {
        threads,
        alone: (1..=n)
            .map(|i| mean_of(alone_cells(i).map(|c| figure(c))))
            .collect(),
        together: mean_of(together_cells.iter().map(|c| figure(c))),
        blocks: pairs.len(),
        ratio,
        deviation,
        shares_pct: (1..=n).map(|i| share(i, &|s| Some(s.share_pct))).collect(),
        cpu_pct: (1..=n).map(|i| share(i, &|s| s.server_cpu_pct)).collect(),
        host_pct: mean_of(
            together_cells
                .iter()
                .map(|c| c.host.and_then(|h| h.busy_pct)),
        ),
        invalid: cells
            .iter()
            .filter(|c| c.status == CellStatus::Invalid)
            .count(),
    }
}

/// A block's alone cells (instance, figure) and its together cell's figure.
type Block = (Vec<(u32, f64)>, Option<f64>);

/// Per block whose every cell is valid with a figure: (sum of alone, together).
fn block_pairs(done: &[&Cell], n: u32, figure: &dyn Fn(&Cell) -> Option<f64>) -> Vec<(f64, f64)> {
    let mut blocks: BTreeMap<u32, Block> = BTreeMap::new();
    for c in done {
        let Some(v) = figure(c) else { continue };
        let b = blocks.entry(c.repetition).or_default();
        match c.instances.as_slice() {
            [i] => b.0.push((*i, v)),
            _ => b.1 = Some(v),
        }
    }
    blocks
        .into_values()
        .filter_map(|(alone, tog)| {
            let complete = (1..=n).all(|i| alone.iter().any(|(j, _)| *j == i));
            let tog = tog.filter(|_| complete && alone.len() == n as usize)?;
            Some((alone.iter().map(|(_, v)| v).sum::<f64>(), tog))
        })
        .filter(|(a, t)| *a > 0.0 && *t > 0.0)
        .collect()
}

/// A ratio as printed: "1.73x".
fn times(r: f64) -> String {
    format!("{r:.2}x")
}

/// The verdict in words: super-linear, sub-linear or no difference decided.
pub fn verdict_text(d: &Deviation) -> &'static str {
    match d.verdict {
        Verdict::Faster => "super-linear",
        Verdict::Slower => "sub-linear",
        Verdict::NoSignificantDifference => "no difference decided",
    }
}

/// A ratio's interval: " [1.61, 1.85]", or "" without one.
fn interval_text(r: &CoRow) -> String {
    r.deviation.as_ref().map_or(String::new(), |d| {
        format!(
            " [{:.2}, {:.2}]",
            1.0 + d.ci_pct.0 / 100.0,
            1.0 + d.ci_pct.1 / 100.0
        )
    })
}

/// A ratio with its interval: "1.73x [1.61, 1.85]", or the point alone.
fn ratio_text(r: &CoRow) -> String {
    r.ratio.map_or("-".into(), |ratio| {
        format!("{}{}", times(ratio), interval_text(r))
    })
}

/// "51 / 49 %" of `values` (a "-" for one not recorded); None when none is.
fn per_instance(values: &[Option<f64>]) -> Option<String> {
    values.iter().any(Option::is_some).then(|| {
        let v: Vec<String> = values
            .iter()
            .map(|v| v.map_or("-".into(), |x| format!("{x:.0}")))
            .collect();
        format!("{} %", v.join(" / "))
    })
}

/// The summary's lines, one per workload and level, first of the story: "together: 1.73x
/// the sum of alone [1.61, 1.85] at 8 threads per instance (95 %, 3 blocks): super-linear;
/// shares 51 / 49 %, server CPU 48 / 47 % of the host's, host busy 97 %."
pub fn summary_lines(tables: &[CoTable]) -> Vec<String> {
    let mut out = Vec::new();
    for t in tables {
        let prefix = if tables.len() > 1 {
            format!("{}: ", t.workload)
        } else {
            String::new()
        };
        for r in &t.rows {
            let Some(ratio) = r.ratio else {
                out.push(format!(
                    "{prefix}together against the sum of alone at {} threads per instance: no complete block (every cell of a block valid) to compare.",
                    r.threads
                ));
                continue;
            };
            let verdict = match &r.deviation {
                Some(d) => format!(
                    " ({} %, {} blocks): {}",
                    format!("{:.1}", d.confidence * 100.0).trim_end_matches(".0"),
                    r.blocks,
                    verdict_text(d)
                ),
                None => format!(
                    " ({} complete block: no interval, a verdict needs 2)",
                    r.blocks
                ),
            };
            let mut parts = Vec::new();
            if let Some(s) = per_instance(&r.shares_pct) {
                parts.push(format!("shares {s}"));
            }
            if let Some(c) = per_instance(&r.cpu_pct) {
                parts.push(format!("server CPU {c} of the host's"));
            }
            if let Some(h) = r.host_pct {
                parts.push(format!("host busy {h:.0} %"));
            }
            let beside = if parts.is_empty() {
                String::new()
            } else {
                format!("; together {}", parts.join(", "))
            };
            out.push(format!(
                "{prefix}together: {} the sum of alone{} at {} threads per instance{verdict}{beside}.",
                times(ratio),
                interval_text(r),
                r.threads
            ));
        }
    }
    out
}

/// A table's cells as text, the header first, for the exporters to frame.
pub fn table_rows(t: &CoTable) -> Vec<Vec<String>> {
    let num = |v: Option<f64>| v.map_or("-".into(), |x| format!("{x:.1}"));
    let mut header = vec!["threads".to_string()];
    header.extend((1..=t.instances).map(|i| format!("alone {i} {}", t.unit)));
    header.extend([
        format!("sum of alone {}", t.unit),
        format!("together {}", t.unit),
        "together / sum".into(),
        "verdict".into(),
        "shares together".into(),
        "server CPU together".into(),
        "host busy".into(),
    ]);
    let mut rows = vec![header];
    for r in &t.rows {
        let mut row = vec![r.threads.to_string()];
        row.extend(r.alone.iter().map(|v| num(*v)));
        let sum = r.alone.iter().copied().sum::<Option<f64>>();
        row.push(num(sum));
        row.push(num(r.together));
        row.push(ratio_text(r));
        row.push(match &r.deviation {
            Some(d) => format!(
                "{}{}",
                verdict_text(d),
                super::confidence_text(d.confidence)
            ),
            None => format!("- ({} complete block(s); needs 2)", r.blocks),
        });
        row.push(per_instance(&r.shares_pct).unwrap_or("-".into()));
        row.push(per_instance(&r.cpu_pct).unwrap_or("-".into()));
        row.push(r.host_pct.map_or("-".into(), |h| format!("{h:.0} %")));
        if r.invalid > 0
            && let Some(last) = row.last_mut()
        {
            last.push_str(&format!(" [{} INVALID]", r.invalid));
        }
        rows.push(row);
    }
    rows
}

/// A table's heading line.
pub fn heading(e: &Experiment, t: &CoTable) -> String {
    format!(
        "{} — {}: {} instances of {} alone and together, throughput in {} (mean of the valid cells); threads are per instance",
        e.name, t.workload, t.instances, t.variant, t.unit
    )
}

#[cfg(test)]
mod tests;
