//! The story first (issue 42): a few lines a person can act on, computed from an
//! experiment's own tables, costs and profiles: a sentence per comparison with its verdict,
//! interval and confidence; the costs per transaction that moved most; the server's
//! subsystems and functions that moved when it was profiled; and what makes the result
//! doubtful. Built once here; the report and the commands render the lines (HTML, text,
//! Markdown), escaping the names in them, which come from stored files.

use super::{
    Cell, CellStatus, Cost, Deviation, Experiment, MULTIPLE_PCT, ProfileWhy, Table, bound,
    change_text, multiple_text,
};
use crate::analysis::profile::FnDiff;
use crate::analysis::stats::Verdict;
use crate::metrics::server::{PER_TXN_LABELS, figure_text};

/// Comparison sentences shown before the rest are counted.
pub const COMPARISONS: usize = 3;
/// Costs shown, the largest effects.
pub const TOP_COSTS: usize = 3;
/// Levels without a verdict each shown with their interval; more are summed up as a range.
const OPEN_LEVELS: usize = 3;

/// The summary of `e`: `tables` are its [`super::tables`], `profiles` its
/// [`super::profile_whys`] (empty when it was not profiled).
pub fn lines(e: &Experiment, tables: &[Table], profiles: &[ProfileWhy]) -> Vec<String> {
    let at = Places::of(e);
    // A co-location's ratio first (its plan has one variant: no comparisons of variants).
    let mut out = super::coloc::summary_lines(&super::coloc::tables(e));
    out.extend(comparisons(e, tables));
    out.extend(costs_line(tables, &at));
    out.extend(profile_line(profiles, &at));
    out.extend(doubts(e, tables, &at));
    out
}

/// Which of variant, workload and level a figure must name to be told apart.
struct Places {
    variants: bool,
    workloads: bool,
    levels: bool,
}

impl Places {
    fn of(e: &Experiment) -> Places {
        Places {
            variants: e.plan.variants.len() > 2,
            workloads: e.plan.workloads.len() > 1,
            levels: e.plan.threads.len() > 1,
        }
    }

    /// " for b on tpcc at 4 threads", each part only where the experiment has several.
    fn suffix(&self, variant: &str, workload: &str, threads: u32) -> String {
        let mut s = String::new();
        if self.variants {
            s.push_str(&format!(" for {variant}"));
        }
        if self.workloads {
            s.push_str(&format!(" on {workload}"));
        }
        if self.levels {
            s.push_str(&format!(" at {threads} threads"));
        }
        s
    }
}

/// A confidence as a percentage: "95", "99.8".
fn confidence_pct(c: f64) -> String {
    let s = format!("{:.1}", c * 100.0);
    s.strip_suffix(".0").map_or(s.clone(), str::to_string)
}

/// "1, 2 and 8".
fn and_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

fn decided(d: &Deviation) -> bool {
    d.verdict != Verdict::NoSignificantDifference
}

/// A sentence per variant against the baseline per workload (the decided ones first), at
/// most [`COMPARISONS`], then how many more the tables hold.
fn comparisons(e: &Experiment, tables: &[Table]) -> Vec<String> {
    let mut all: Vec<(bool, String)> = Vec::new();
    for t in tables {
        for v in e.plan.variants.iter().filter(|v| **v != t.baseline) {
            let devs: Vec<Level<'_>> = t
                .rows
                .iter()
                .filter_map(|r| {
                    let d = r.deviations.iter().find(|(n, _)| n == v)?.1.as_ref()?;
                    Some((r.threads, d))
                })
                .collect();
            if !devs.is_empty() {
                let any = devs.iter().any(|(_, d)| decided(d));
                all.push((any, sentence(v, t, &devs, tables.len() > 1)));
            }
        }
    }
    all.sort_by_key(|(any, _)| !any);
    let mut out: Vec<String> = all
        .iter()
        .take(COMPARISONS)
        .map(|(_, s)| s.clone())
        .collect();
    if all.len() > COMPARISONS {
        let rest = &all[COMPARISONS..];
        out.push(format!(
            "{} more comparison(s) in the tables, {} of them with a verdict.",
            rest.len(),
            rest.iter().filter(|(any, _)| *any).count()
        ));
    }
    out
}

/// A level and the deviation there.
type Level<'a> = (u32, &'a Deviation);

/// Variant `v` against `t`'s baseline at the levels `devs` decided, then those it did not:
/// "b is 7.5 % slower than a at 4 threads (NOPM -7.5 % [-13.7, -0.9], 95 %); no
/// difference decided at 2 threads (NOPM -1.9 % [-16.9, +15.9], 95 %)."
fn sentence(v: &str, t: &Table, devs: &[Level<'_>], name_workload: bool) -> String {
    let figures = |d: &Deviation| {
        format!(
            "{} {}, {} %{}",
            t.unit,
            change_text(d),
            confidence_pct(d.confidence),
            if d.method == "welch" { ", Welch" } else { "" }
        )
    };
    let (yes, no): (Vec<Level<'_>>, Vec<Level<'_>>) =
        devs.iter().copied().partition(|(_, d)| decided(d));
    let clauses: Vec<String> = yes
        .iter()
        .enumerate()
        .map(|(i, (threads, d))| {
            let how = format!("{:.1} % {}", d.pct.abs(), d.verdict.text());
            let lead = if i == 0 {
                format!("{v} is {how} than {}", t.baseline)
            } else {
                how
            };
            format!("{lead} at {threads} threads ({})", figures(d))
        })
        .collect();
    let open = match no.as_slice() {
        [] => None,
        few if few.len() <= OPEN_LEVELS => Some(format!(
            "no difference decided at {}",
            few.iter()
                .map(|(threads, d)| format!("{threads} threads ({})", figures(d)))
                .collect::<Vec<_>>()
                .join(" and at ")
        )),
        many => {
            let levels: Vec<String> = many.iter().map(|(t, _)| t.to_string()).collect();
            let lo = many
                .iter()
                .map(|(_, d)| d.ci_pct.0)
                .fold(f64::INFINITY, f64::min);
            let hi = many
                .iter()
                .map(|(_, d)| d.ci_pct.1)
                .fold(f64::NEG_INFINITY, f64::max);
            Some(format!(
                "no difference decided at {} threads ({} intervals within [{}, {}] %, {} %)",
                and_list(&levels),
                t.unit,
                bound(lo),
                bound(hi),
                confidence_pct(many[0].1.confidence)
            ))
        }
    };
    let prefix = if name_workload {
        format!("{}: ", t.workload)
    } else {
        String::new()
    };
    match (clauses.is_empty(), open) {
        (false, None) => format!("{prefix}{}.", clauses.join(", and ")),
        (false, Some(o)) => format!("{prefix}{}; {o}.", clauses.join(", and ")),
        (true, o) => format!(
            "{prefix}{v} against {}: {}.",
            t.baseline,
            o.unwrap_or_default()
        ),
    }
}

/// A cost that changed, where.
struct Moved<'a> {
    variant: &'a str,
    workload: &'a str,
    threads: u32,
    cost: &'a Cost,
    d: &'a Deviation,
}

/// The size of a change, either way: |log ratio| (a halving weighs as much as a doubling).
fn size(d: &Deviation) -> f64 {
    (1.0 + d.pct / 100.0).max(1e-12).ln().abs()
}

/// The [`TOP_COSTS`] costs per transaction whose interval excludes no change with the
/// largest effects, each at the level where it moved most (None: no costs recorded).
fn costs_line(tables: &[Table], at: &Places) -> Option<String> {
    let mut recorded = false;
    let mut moved: Vec<Moved<'_>> = Vec::new();
    for t in tables {
        for r in &t.rows {
            for (variant, costs) in &r.costs {
                for cost in costs {
                    recorded = true;
                    let Some(d) = cost.deviation.as_ref().filter(|_| cost.changed()) else {
                        continue;
                    };
                    let m = Moved {
                        variant,
                        workload: &t.workload,
                        threads: r.threads,
                        cost,
                        d,
                    };
                    match moved.iter_mut().find(|o| {
                        o.variant == m.variant
                            && o.workload == m.workload
                            && o.cost.figure == cost.figure
                    }) {
                        Some(o) if size(o.d) < size(d) => *o = m,
                        Some(_) => {}
                        None => moved.push(m),
                    }
                }
            }
        }
    }
    if !recorded {
        return None;
    }
    if moved.is_empty() {
        return Some(
            "No server cost per transaction changed (every interval includes no change).".into(),
        );
    }
    moved.sort_by(|a, b| size(b.d).total_cmp(&size(a.d)));
    let items: Vec<String> = moved
        .iter()
        .take(TOP_COSTS)
        .map(|m| cost_text(m, at))
        .collect();
    Some(format!(
        "Server costs that moved most: {}.",
        items.join("; ")
    ))
}

/// "redo per New-Order +258.0 % [+252.0, +264.0] (1520 → 5440 B)", or for a change of
/// [`MULTIPLE_PCT`] or more "page reorganisations per New-Order 0.014 → 2.24 (×160 [×141,
/// ×181])".
fn cost_text(m: &Moved<'_>, at: &Places) -> String {
    let c = m.cost;
    let label = PER_TXN_LABELS
        .iter()
        .find(|(k, _)| *k == c.figure)
        .map_or(c.figure.as_str(), |(_, l)| l);
    let (name, unit) = label.split_once('#').unwrap_or((label, ""));
    let (name, unit) = (name.trim(), unit.trim());
    let values = format!(
        "{} → {}{}{unit}",
        figure_text(c.base),
        figure_text(c.new),
        if unit.is_empty() { "" } else { " " }
    );
    let change = if m.d.pct.abs() >= MULTIPLE_PCT {
        format!("{values} ({})", multiple_text(m.d))
    } else {
        format!("{} ({values})", change_text(m.d))
    };
    format!(
        "{name} per {} {change}{}",
        c.per,
        at.suffix(m.variant, m.workload, m.threads)
    )
}

/// The subsystems and functions whose share of the server's CPU moved most, from the
/// profiles (None: not profiled).
fn profile_line(profiles: &[ProfileWhy], at: &Places) -> Option<String> {
    if profiles.is_empty() {
        return None;
    }
    let most = |pick: &dyn Fn(&ProfileWhy) -> Vec<&FnDiff>, n: usize| -> Vec<String> {
        let mut all: Vec<(&ProfileWhy, &FnDiff)> = profiles
            .iter()
            .flat_map(|p| pick(p).into_iter().map(move |d| (p, d)))
            .collect();
        let delta = |d: &FnDiff| (d.new_pct - d.base_pct).abs();
        all.sort_by(|a, b| delta(b.1).total_cmp(&delta(a.1)));
        let mut seen: Vec<&str> = Vec::new();
        all.into_iter()
            .filter(|(_, d)| {
                let new = !seen.contains(&d.name.as_str());
                seen.push(&d.name);
                new
            })
            .take(n)
            .map(|(p, d)| {
                format!(
                    "{} {:.1} % → {:.1} %{}",
                    d.name,
                    d.base_pct,
                    d.new_pct,
                    at.suffix(&p.variant, &p.workload, p.threads)
                )
            })
            .collect()
    };
    let subsystems = most(&|p| p.diff.moved_subsystems().collect(), 3);
    let functions = most(
        &|p| p.diff.functions.iter().filter(|d| d.moved()).collect(),
        2,
    );
    Some(match (subsystems.is_empty(), functions.is_empty()) {
        (true, true) => "Server profiles: no subsystem's or function's share of the server's CPU moved by a point or more.".into(),
        (false, true) => format!(
            "Server CPU that moved (share of the profile's samples): {}.",
            subsystems.join(", ")
        ),
        (true, false) => format!(
            "Server functions that moved (share of the profile's samples, self): {}.",
            functions.join(", ")
        ),
        (false, false) => format!(
            "Server CPU that moved (share of the profile's samples): {}; functions (self): {}.",
            subsystems.join(", "),
            functions.join(", ")
        ),
    })
}

/// What makes the result doubtful: INVALID cells (how many, which), cells that did not
/// run, comparisons without a verdict.
fn doubts(e: &Experiment, tables: &[Table], at: &Places) -> Vec<String> {
    let mut out = Vec::new();
    let total = e.cells.len();
    let place = |c: &Cell| {
        let mut parts = vec![super::coloc::cell_label(c)];
        if at.workloads {
            parts.push(c.workload.clone());
        }
        parts.push(format!("{} threads", c.threads));
        parts.push(format!("repetition {}", c.repetition));
        format!("#{} ({})", c.order, parts.join(", "))
    };
    let invalid: Vec<&Cell> = e
        .cells
        .iter()
        .filter(|c| c.status == CellStatus::Invalid)
        .collect();
    if !invalid.is_empty() {
        let which: Vec<String> = invalid.iter().take(3).map(|c| place(c)).collect();
        out.push(format!(
            "{} of {total} cells INVALID, left out of the deviations: {}{}.",
            invalid.len(),
            which.join(", "),
            match invalid.len().saturating_sub(3) {
                0 => String::new(),
                more => format!(" and {more} more"),
            }
        ));
    }
    let not_run = e
        .cells
        .iter()
        .filter(|c| matches!(c.status, CellStatus::Pending | CellStatus::Running))
        .count();
    if not_run > 0 {
        out.push(format!(
            "{not_run} of {total} cells did not run (the experiment is {}).",
            e.status.word()
        ));
    }
    let none: Vec<String> = tables
        .iter()
        .flat_map(|t| {
            t.rows.iter().flat_map(move |r| {
                r.deviations
                    .iter()
                    .filter(|(_, d)| d.is_none())
                    .map(move |(v, _)| {
                        let w = if at.workloads {
                            format!(" on {}", t.workload)
                        } else {
                            String::new()
                        };
                        format!("{v}{w} at {} threads", r.threads)
                    })
            })
        })
        .collect();
    if !none.is_empty() {
        let mut shown: Vec<String> = none.iter().take(4).cloned().collect();
        if none.len() > shown.len() {
            shown.push(format!("{} more", none.len() - shown.len()));
        }
        out.push(format!(
            "No verdict (needs 2 valid repetitions each) for {}.",
            and_list(&shown)
        ));
    }
    let unit = if !tables.is_empty() && tables.iter().all(|t| t.unit == "NOPM") {
        "NOPM"
    } else {
        "tps"
    };
    out.extend(super::host::disturbed_line(&e.cells, unit));
    out.extend(noise_floor(e, tables, at));
    out
}

/// Precisions the noise floor line prices, ± %.
const PRECISIONS: [f64; 2] = [5.0, 3.0];

/// What narrowing an interval of half-width `half` % from `n` blocks would take: the blocks
/// for ±5 % and ±3 % at the same noise (the half-width falls as 1/√blocks; Student's t and
/// the sequential looks' spending make it somewhat more), and their time at the cells' mean
/// length so far.
fn blocks_needed(e: &Experiment, n: usize, half: f64) -> String {
    let per_block = e.plan.variants.len() * e.plan.workloads.len() * e.plan.threads.len();
    let ran: Vec<f64> = e.cells.iter().filter_map(|c| c.elapsed_s).collect();
    let cell_s = if ran.is_empty() {
        0.0
    } else {
        ran.iter().sum::<f64>() / ran.len() as f64
    };
    let parts: Vec<String> = PRECISIONS
        .iter()
        .filter(|p| half > **p)
        .map(|p| {
            let blocks = (n as f64 * (half / p).powi(2)).ceil();
            let minutes = blocks * per_block as f64 * cell_s / 60.0;
            let time = if minutes > 0.0 {
                format!(" (~{minutes:.0} min)")
            } else {
                String::new()
            };
            format!("±{p:.0} % about {blocks:.0} blocks{time}")
        })
        .collect();
    if parts.is_empty() {
        "more blocks (experiment resume) narrow it".into()
    } else {
        format!("at this noise {} — or a quieter machine", parts.join(", "))
    }
}

/// The noise floor where a comparison has an interval but no verdict: the smallest effect
/// the experiment could have decided there (its interval's half-width), beside how far the
/// cells of one variant spread; the widest such level only, so the line stays one.
fn noise_floor(e: &Experiment, tables: &[Table], at: &Places) -> Option<String> {
    let mut widest: Option<(f64, String)> = None;
    for t in tables {
        for r in &t.rows {
            for (v, d) in &r.deviations {
                let Some(d) = d.as_ref().filter(|d| !decided(d)) else {
                    continue;
                };
                let half = (d.ci_pct.1 - d.ci_pct.0) / 2.0;
                if widest.as_ref().is_some_and(|(w, _)| *w >= half) {
                    continue;
                }
                let spread = r
                    .columns
                    .iter()
                    .filter_map(|c| Some((c.variant.as_str(), c.min?, c.max?)))
                    .filter(|(_, lo, _)| *lo > 0.0)
                    .max_by(|a, b| (a.2 / a.1).total_cmp(&(b.2 / b.1)))
                    .map_or(String::new(), |(name, lo, hi)| {
                        format!(
                            " ({name}'s cells there ranged {} to {} {})",
                            crate::store::grouped(lo.round() as u64),
                            crate::store::grouped(hi.round() as u64),
                            t.unit
                        )
                    });
                let place = at.suffix(v, &t.workload, r.threads);
                widest = Some((
                    half,
                    format!(
                        "Noise floor: with {} block(s), only an effect beyond ±{} % could be decided{place}{spread}; {}.",
                        d.n,
                        bound(half).trim_start_matches('+'),
                        blocks_needed(e, d.n, half)
                    ),
                ));
            }
        }
    }
    widest.map(|(_, line)| line)
}

#[cfg(test)]
mod tests;
