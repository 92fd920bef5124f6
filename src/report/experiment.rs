//! The report's experiment section: its summary first, the deviation tables, throughput and
//! p95 against threads with one curve per variant and every repetition as a point, the
//! deviation at each level measured with its confidence interval, USL fits per variant, and
//! the cells (folded) with links to their own run sections. Built from experiment.json and
//! the cells' result.json only.

use super::charts::{Chart, Series, Style};
use super::page::{esc, push_chart, slug};
use crate::analysis::usl::Usl;
use crate::experiment::{CellStatus, Experiment, Table, cost_lines, deviation_text, tables};
use anyhow::Result;

#[path = "experiment/coloc.rs"]
mod coloc;
#[path = "experiment/costs.rs"]
mod costs;
use std::fmt::Write as _;
use std::path::PathBuf;

fn table_html(h: &mut String, e: &Experiment, t: &Table) {
    let _ = write!(
        h,
        "<table><tr><th>threads</th>{}{}</tr>",
        e.plan
            .variants
            .iter()
            .map(|v| format!(
                "<th>{} {}<br><span class=\"note\">mean (min–max)</span></th>",
                esc(v),
                esc(&t.unit)
            ))
            .collect::<String>(),
        e.plan
            .variants
            .iter()
            .filter(|v| **v != t.baseline)
            .map(|v| format!("<th>{} vs {}</th>", esc(v), esc(&t.baseline)))
            .collect::<String>()
    );
    for r in &t.rows {
        let _ = write!(h, "<tr><td class=\"n\">{}</td>", r.threads);
        for c in &r.columns {
            let value = match (c.mean, c.min, c.max) {
                (Some(m), Some(lo), Some(hi)) if c.n > 1 => format!("{m:.1} ({lo:.1}–{hi:.1})"),
                (Some(m), _, _) => format!("{m:.1}"),
                _ => "–".into(),
            };
            let invalid = if c.invalid > 0 {
                format!(" <span class=\"invalid\">{} INVALID</span>", c.invalid)
            } else {
                String::new()
            };
            let _ = write!(h, "<td class=\"n\">{value}{invalid}</td>");
        }
        for (_, d) in &r.deviations {
            let _ = write!(h, "<td class=\"n\">{}</td>", esc(&deviation_text(d)));
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");
    // Which costs changed, per variant and level (server metrics).
    for line in cost_lines(t) {
        let _ = write!(h, "<p class=\"note\">Costs {}.</p>", esc(&line));
    }
}

/// Where the report found an experiment's cells: `anchor(order)` is the id of a cell's run
/// section, `run_dir(order)` its run directory, when the report has them.
pub(super) struct CellsAt<'a> {
    pub(super) anchor: &'a dyn Fn(usize) -> Option<String>,
    pub(super) run_dir: &'a dyn Fn(usize) -> Option<PathBuf>,
}

/// The section of experiment `e`: its heading, its summary (the story first), what was
/// planned, the tables and charts per workload, the "why" tables, and the cells (folded).
pub(super) fn section(
    h: &mut String,
    charts: &mut Vec<Chart>,
    n: usize,
    e: &Experiment,
    at: &CellsAt<'_>,
) -> Result<()> {
    let tables = tables(e);
    let profiles = crate::experiment::profile_whys_of(e, &|c| (at.run_dir)(c.order));
    let _ = write!(h, "<h2>Experiment {}</h2>", esc(&e.name));
    super::page::story(h, &crate::experiment::summary::lines(e, &tables, &profiles));
    plan_note(h, e);
    coloc::tables_html(h, e);
    let id = format!("x{n}-{}", slug(&e.name));
    for (wi, t) in tables.iter().enumerate() {
        workload_part(h, charts, &format!("{id}-w{}", wi + 1), e, t)?;
    }
    why_tables_html(h, e);
    cells_table(h, e, at.anchor);
    Ok(())
}

/// What the experiment compared, for the page's header: its name and plan, its variants
/// against the baseline, its workloads, levels and repetitions.
pub(super) fn compared(e: &Experiment) -> String {
    let p = &e.plan;
    let list = |v: &[String]| {
        v.iter()
            .map(|x| format!("<b>{}</b>", esc(x)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let others: Vec<String> = p
        .variants
        .iter()
        .filter(|v| **v != p.baseline)
        .cloned()
        .collect();
    let what = match p.instances {
        Some(n) => format!(
            "{n} instances of <b>{}</b> alone and together",
            esc(&p.baseline)
        ),
        None => format!(
            "{} against the baseline <b>{}</b>",
            list(&others),
            esc(&p.baseline)
        ),
    };
    format!(
        "experiment <b>{}</b> ({}): {what}, on {}, at {} threads{}, {} repetition(s) each",
        esc(&e.name),
        match &e.plan_file {
            Some(f) => format!("plan <code>{}</code>", esc(&f.display().to_string())),
            None => "a built-in plan".into(),
        },
        list(&p.workloads),
        threads_text(p),
        if p.instances.is_some() {
            " per instance"
        } else {
            ""
        },
        repetitions_run(e)
    )
}

/// The plan's thread levels, comma-separated.
fn threads_text(p: &crate::experiment::plan::Expanded) -> String {
    crate::analysis::story::join(&p.threads)
}

/// The repetitions run: a sequential experiment's complete blocks, else the plan's.
fn repetitions_run(e: &Experiment) -> u32 {
    if e.plan.sequential.is_some() {
        e.complete_blocks()
    } else {
        e.plan.repetitions
    }
}

/// What was planned: the matrix, the durations, the method.
fn plan_note(h: &mut String, e: &Experiment) {
    let p = &e.plan;
    let _ = write!(
        h,
        "<p class=\"note\">{} variant(s) × {} workload(s) × threads {} × {} repetition(s), {} s measured after {} s warm-up each, reset {:?}, scale {}, seed {}, {:?}. Baseline: <b>{}</b>.</p><p class=\"note\">{}.</p>",
        p.variants.len(),
        p.workloads.len(),
        threads_text(p),
        repetitions_run(e),
        p.duration,
        p.warmup,
        p.reset,
        esc(if p.scale.is_empty() { "-" } else { &p.scale }),
        e.seed,
        e.status,
        esc(&p.baseline),
        esc(&crate::experiment::method_lines(e).join(". "))
    );
}

/// One workload's part: its table, its charts (ids starting `wid`) and its USL fits.
fn workload_part(
    h: &mut String,
    charts: &mut Vec<Chart>,
    wid: &str,
    e: &Experiment,
    t: &Table,
) -> Result<()> {
    let _ = write!(h, "<h3>{}</h3>", esc(&t.workload));
    table_html(h, e, t);
    let Curves {
        tput,
        lat,
        dev,
        fits,
    } = Curves::of(e, t);
    push_chart(h, charts, throughput_chart(wid, t, tput))?;
    push_chart(h, charts, p95_chart(wid, t, lat))?;
    if dev.iter().any(|s| !s.points.is_empty()) {
        push_chart(h, charts, deviation_chart(wid, e, t, dev))?;
    }
    if let Some(c) = costs::chart(e, t, &format!("{wid}-costs")) {
        h.push_str(&c);
    }
    usl_table(h, t, fits);
    Ok(())
}

/// What one workload's charts and USL table show, each variant in its own colour.
#[derive(Default)]
struct Curves {
    /// Per variant: the line of the means, then every repetition as a point.
    tput: Vec<Series>,
    /// Per variant: p95 at each level.
    lat: Vec<Series>,
    /// Per variant but the baseline: the deviation, then its confidence intervals.
    dev: Vec<Series>,
    /// Per variant with means at three levels or more: its USL fit, if one was found.
    fits: Vec<(String, Option<Usl>)>,
}

impl Curves {
    /// The curves of table `t`'s variants, in the plan's order.
    fn of(e: &Experiment, t: &Table) -> Curves {
        let mut c = Curves::default();
        for (vi, v) in e.plan.variants.iter().enumerate() {
            c.add_variant(e, t, vi, v);
        }
        c
    }

    /// Adds variant `v` (column `vi` of `t`).
    fn add_variant(&mut self, e: &Experiment, t: &Table, vi: usize, v: &str) {
        let color = Some(vi);
        let means: Vec<(f64, f64)> = t
            .rows
            .iter()
            .filter_map(|r| Some((f64::from(r.threads), r.columns[vi].mean?)))
            .collect();
        self.tput.push(Series {
            name: format!("{v} (mean)"),
            points: means.clone(),
            style: Style::Line,
            color,
        });
        self.tput.push(Series {
            name: format!("{v} (repetitions)"),
            points: repetitions(e, t, v),
            style: Style::Scatter,
            color,
        });
        self.lat.push(Series {
            name: v.to_owned(),
            points: t
                .rows
                .iter()
                .filter_map(|r| Some((f64::from(r.threads), r.columns[vi].p95_ms?)))
                .collect(),
            style: Style::Points,
            color,
        });
        if v != t.baseline {
            self.add_deviation(t, v, color);
        }
        if means.len() >= 3 {
            self.fits.push((v.to_owned(), Usl::fit(&means)));
        }
    }

    /// Adds variant `v`'s deviation from the baseline and its confidence intervals.
    fn add_deviation(&mut self, t: &Table, v: &str, color: Option<usize>) {
        let d: Vec<_> = t
            .rows
            .iter()
            .filter_map(|r| {
                let d = r.deviations.iter().find(|(n, _)| n == v)?.1.as_ref()?;
                Some((f64::from(r.threads), d.pct, d.ci_pct))
            })
            .collect();
        // A mark at each level measured, its interval a bar: no line between levels, which
        // would imply a deviation at a level never run.
        self.dev.push(Series {
            name: format!("{v} vs {}", t.baseline),
            points: d.iter().map(|(x, y, _)| (*x, *y)).collect(),
            style: Style::Scatter,
            color,
        });
        self.dev.push(Series {
            name: format!("{v}: confidence interval"),
            points: d
                .iter()
                .flat_map(|(x, _, ci)| [(*x, ci.0), (*x, ci.1)])
                .collect(),
            style: Style::Interval,
            color,
        });
    }
}

/// (threads, throughput) of each repetition of variant `v` in `t`'s workload that is done.
fn repetitions(e: &Experiment, t: &Table, v: &str) -> Vec<(f64, f64)> {
    e.cells
        .iter()
        .filter(|c| c.variant == v && c.workload == t.workload && c.status == CellStatus::Done)
        .filter_map(|c| {
            let v = if t.unit == "NOPM" { c.nopm } else { c.tps };
            Some((f64::from(c.threads), v?))
        })
        .collect()
}

/// Throughput against threads: the means as lines, each repetition as a point.
fn throughput_chart(wid: &str, t: &Table, tput: Vec<Series>) -> Chart {
    Chart::against_threads(
        format!("{wid}-throughput"),
        format!(
            "{}: throughput against threads (line: mean; points: each repetition)",
            t.workload
        ),
        if t.unit == "NOPM" {
            "New-Orders per minute (NOPM)"
        } else {
            "transactions per second"
        },
        tput,
    )
}

/// p95 against threads.
fn p95_chart(wid: &str, t: &Table, lat: Vec<Series>) -> Chart {
    Chart::against_threads(
        format!("{wid}-p95"),
        format!(
            "{}: p95 response time against threads (median of the repetitions)",
            t.workload
        ),
        "ms",
        lat,
    )
}

/// The deviation from the baseline at each level measured, with its confidence interval;
/// the x axis marked at those levels only.
fn deviation_chart(wid: &str, e: &Experiment, t: &Table, dev: Vec<Series>) -> Chart {
    let c = Chart::against_threads(
        format!("{wid}-deviation"),
        format!(
            "{}: deviation from {} with its {} % confidence interval",
            t.workload,
            t.baseline,
            (e.confidence() * 1000.0).round() / 10.0
        ),
        "% of the baseline's throughput",
        dev,
    );
    Chart {
        measured_x: true,
        ..c
    }
}

/// The USL fits of a workload's variants (nothing when no variant had three levels).
fn usl_table(h: &mut String, t: &Table, fits: Vec<(String, Option<Usl>)>) {
    if fits.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<table><tr><th>variant</th><th>USL λ ({} per thread)</th><th>σ (contention)</th><th>κ (coherency)</th><th>peak at threads</th></tr>",
        esc(&t.unit)
    );
    for (v, f) in fits {
        match f {
            Some(u) => {
                let _ = write!(
                    h,
                    "<tr><td>{}</td><td class=\"n\">{:.1}</td><td class=\"n\">{:.4}</td><td class=\"n\">{:.6}</td><td class=\"n\">{}</td></tr>",
                    esc(&v),
                    u.lambda,
                    u.sigma,
                    u.kappa,
                    u.peak_n.map_or("–".into(), |p| format!("{p:.0}"))
                );
            }
            None => {
                let _ = write!(
                    h,
                    "<tr><td>{}</td><td colspan=\"4\">no fit</td></tr>",
                    esc(&v)
                );
            }
        }
    }
    h.push_str("</table>");
}

/// The server's figures per transaction of each variant against the baseline's (nothing
/// without server metrics).
fn why_tables_html(h: &mut String, e: &Experiment) {
    let p = &e.plan;
    let why = crate::experiment::why_tables(e);
    if !why.is_empty() {
        h.push_str("<h3>Why: the server's figures per transaction against the baseline</h3><p class=\"note\">Means of the valid repetitions, the most changed figures first.</p>");
        for t in &why {
            let _ = write!(
                h,
                "<p><b>{}, {} threads: {} vs {}</b></p><table><tr><th>figure</th><th>{}</th><th>{}</th><th>change</th></tr>",
                esc(&t.workload),
                t.threads,
                esc(&t.variant),
                esc(&p.baseline),
                esc(&p.baseline),
                esc(&t.variant)
            );
            for r in t.rows.iter().take(8) {
                let _ = write!(
                    h,
                    "<tr><td>{}</td><td class=\"n\">{:.4}</td><td class=\"n\">{:.4}</td><td class=\"n\">{}</td></tr>",
                    esc(&r.figure),
                    r.base,
                    r.new,
                    r.change_pct.map_or("new".into(), |c| format!("{c:+.1} %"))
                );
            }
            h.push_str("</table>");
        }
    }
}

/// Every cell in the schedule's order, linked to its run section where there is one.
fn cells_table(h: &mut String, e: &Experiment, anchor: &dyn Fn(usize) -> Option<String>) {
    let _ = write!(
        h,
        "<details class=\"cells\"><summary><h3>Cells</h3> <span class=\"note\">{} cells in the schedule's order, each linked to its run's section</span></summary><table><tr><th>#</th><th>variant</th><th>workload</th><th>threads</th><th>repetition</th><th>status</th><th>tps</th><th>NOPM</th><th>p95 ms</th><th>reset s</th><th>beside it on the host</th></tr>",
        e.cells.len()
    );
    for c in &e.cells {
        // What else the host did, marked when it could have moved the cell's throughput.
        let host = c.host.map_or("<td>–</td>".into(), |h| {
            format!(
                "<td{}>{}</td>",
                if h.disturbed() {
                    " class=\"disturbed\""
                } else {
                    ""
                },
                esc(&h.text())
            )
        });
        let status = match c.status {
            CellStatus::Invalid => format!(
                "<span class=\"invalid\">INVALID</span> {}",
                esc(&c.reasons.join("; "))
            ),
            s => format!("{s:?}").to_lowercase(),
        };
        let label = match anchor(c.order) {
            Some(a) => format!("<a href=\"#{a}\">{}</a>", c.order),
            None => c.order.to_string(),
        };
        let _ = write!(
            h,
            "<tr><td>{label}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{status}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>{host}</tr>",
            esc(&crate::experiment::coloc::cell_label(c)),
            esc(&c.workload),
            c.threads,
            c.repetition,
            c.tps.map_or("–".into(), |v| format!("{v:.1}")),
            c.nopm.map_or("–".into(), |v| format!("{v:.0}")),
            c.p95_ms.map_or("–".into(), |v| format!("{v:.2}")),
            c.reset_s.map_or("–".into(), |v| format!("{v:.1}")),
        );
    }
    h.push_str("</table></details>");
}

#[cfg(test)]
mod tests;
