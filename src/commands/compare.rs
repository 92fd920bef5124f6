//! `txbench compare BASE NEW…`: per thread count, the throughput and p95/p99 of each run or
//! sweep level, each NEW's deviation from BASE and a verdict from a confidence interval on
//! the per-interval throughputs (seed 002's "deviation percentage per thread count").

use super::Output;
use crate::analysis::stats::{self, COMPARE_METHOD, Difference};
use crate::error::EXIT_OK;
use crate::results::Stability;
use crate::results::{Phase, RunResult, Stored};
use anyhow::{Result, bail};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// How `compare` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// An aligned table.
    Text,
    /// One JSON object.
    Json,
    /// A Markdown table.
    Markdown,
    /// CSV, one line per thread count and run.
    Csv,
}

/// One run at one thread count.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// Mean transactions per second of the steady-state intervals: the samples the verdict
    /// uses, so the deviation % is computed from the figures printed.
    pub tps: f64,
    /// Transactions per second over the whole measured phase (the run's summary).
    pub summary_tps: f64,
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
    let from = Stability::of_run(r).map_or(0.0, |s| s.steady_start_s);
    r.intervals
        .iter()
        .filter(|i| i.phase == Phase::Measure && i.start_s >= from - 1e-9)
        .map(|i| i.tps)
        .collect()
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

fn side(r: &RunResult, base: Option<(&[f64], &RunResult)>, force: bool) -> Side {
    let samples = steady_samples(r);
    let withheld = unfinished(r, base.map(|(_, b)| b));
    let s = r.summary.as_ref();
    let summary_tps = s.map_or(0.0, |s| s.tps);
    Side {
        tps: if samples.is_empty() {
            summary_tps
        } else {
            stats::mean(&samples)
        },
        summary_tps,
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
    base.runs()
        .into_iter()
        .map(|b| {
            let samples = steady_samples(b);
            Row {
                threads: b.config.threads,
                base: side(b, None, force),
                new: new
                    .iter()
                    .map(|n| {
                        n.runs()
                            .into_iter()
                            .find(|r| r.config.threads == b.config.threads)
                            .map(|r| side(r, Some((&samples, b)), force))
                    })
                    .collect(),
            }
        })
        .collect()
}

fn verdict(s: &Side) -> String {
    let mut v = match (&s.vs_base, &s.withheld) {
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
    if !s.valid {
        v.push_str(" (INVALID run)");
    }
    v
}

fn signed(v: f64) -> String {
    format!("{v:+.1}")
}

/// `txbench compare`.
pub fn compare(
    out: &Output,
    base: &PathBuf,
    new: &[PathBuf],
    format: Format,
    force: bool,
) -> Result<i32> {
    let b = Stored::load(base)?;
    let n: Vec<Stored> = new.iter().map(|p| Stored::load(p)).collect::<Result<_>>()?;
    for (p, s) in new.iter().zip(&n) {
        if s.workload() != b.workload() && !force {
            bail!(
                "{} ran {} but BASE {} ran {}: comparing different workloads tells nothing (--force to compare anyway)",
                p.display(),
                s.workload(),
                base.display(),
                b.workload()
            );
        }
    }
    let rows = rows(&b, &n, force);
    if rows.iter().all(|r| r.new.iter().all(Option::is_none)) {
        bail!(
            "no thread count in common between BASE {} and {}",
            base.display(),
            new.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let format = if out.json { Format::Json } else { format };
    let names: Vec<String> = new.iter().map(|p| p.display().to_string()).collect();
    let text = match format {
        Format::Json => format!(
            "{}\n",
            serde_json::json!({
                "workload": b.workload(), "method": COMPARE_METHOD,
                "base": base, "new": new, "rows": rows,
            })
        ),
        Format::Csv => csv(&rows, &base.display().to_string(), &names),
        Format::Markdown => markdown(&rows, &base.display().to_string(), &names),
        Format::Text => table(&rows, b.workload(), &base.display().to_string(), &names),
    };
    print!("{text}");
    Ok(EXIT_OK)
}

fn table(rows: &[Row], workload: &str, base: &str, names: &[String]) -> String {
    let mut o = format!("compare {workload}: BASE {base}\n");
    for (i, n) in names.iter().enumerate() {
        let _ = writeln!(o, "  NEW{} {n}", i + 1);
    }
    let _ = writeln!(
        o,
        "  tps: mean of the steady-state intervals (from the MSER-5 start); verdict: {COMPARE_METHOD}\n"
    );
    let _ = write!(
        o,
        "{:>7}  {:>10} {:>8} {:>8}",
        "threads", "base tps", "p95 ms", "p99 ms"
    );
    for i in 0..names.len() {
        let _ = write!(
            o,
            " | {:>10} {:>8} {:>8} {:>8}  {:<26}",
            format!("NEW{} tps", i + 1),
            "p95 ms",
            "p99 ms",
            "dev %",
            "verdict"
        );
    }
    o.push('\n');
    for r in rows {
        let _ = write!(
            o,
            "{:>7}  {:>10.1} {:>8.2} {:>8.2}",
            r.threads, r.base.tps, r.base.p95_ms, r.base.p99_ms
        );
        for n in &r.new {
            match n {
                Some(s) => {
                    let dev = s.vs_base.map_or("-".into(), |d| signed(d.deviation_pct));
                    let _ = write!(
                        o,
                        " | {:>10.1} {:>8.2} {:>8.2} {:>8}  {:<26}",
                        s.tps,
                        s.p95_ms,
                        s.p99_ms,
                        dev,
                        verdict(s)
                    );
                }
                None => {
                    let _ = write!(
                        o,
                        " | {:>10} {:>8} {:>8} {:>8}  {:<26}",
                        "-", "", "", "", "no run"
                    );
                }
            }
        }
        o.push('\n');
    }
    why_text(&mut o, rows, WHY_LINES);
    o.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

/// Lines of each "why" table that `compare` prints (JSON has them all).
const WHY_LINES: usize = 8;

/// Per thread count and NEW, the server figures that changed most: the likely cause.
fn why_text(o: &mut String, rows: &[Row], lines: usize) {
    for r in rows {
        for (i, n) in r.new.iter().enumerate() {
            let Some(s) = n.as_ref().filter(|s| !s.why.is_empty()) else {
                continue;
            };
            let _ = writeln!(
                o,
                "\nwhy, {} threads, NEW{} against BASE (server figures, largest change first):",
                r.threads,
                i + 1
            );
            let _ = writeln!(
                o,
                "  {:<40} {:>14} {:>14} {:>9}",
                "figure", "BASE", "NEW", "change"
            );
            for w in s.why.iter().take(lines) {
                let change = w
                    .change_pct
                    .map_or_else(|| "new".to_string(), |c| format!("{c:+.1} %"));
                let _ = writeln!(
                    o,
                    "  {:<40} {:>14.4} {:>14.4} {:>9}",
                    w.figure, w.base, w.new, change
                );
            }
        }
    }
}

fn markdown(rows: &[Row], base: &str, names: &[String]) -> String {
    let mut o = format!(
        "tps: mean of the steady-state intervals; verdict: {COMPARE_METHOD}.\n\n| threads | BASE tps | p95 ms | p99 ms |"
    );
    for i in 0..names.len() {
        let k = i + 1;
        let _ = write!(
            o,
            " NEW{k} tps | p95 ms | p99 ms | deviation % | 95 % CI % | verdict |"
        );
    }
    o.push_str("\n|---:|---:|---:|---:|");
    for _ in names {
        o.push_str("---:|---:|---:|---:|---|---|");
    }
    o.push('\n');
    for r in rows {
        let _ = write!(
            o,
            "| {} | {:.1} | {:.2} | {:.2} |",
            r.threads, r.base.tps, r.base.p95_ms, r.base.p99_ms
        );
        for n in &r.new {
            match n {
                Some(s) => {
                    let (dev, ci) = s.vs_base.map_or(("-".into(), "-".into()), |d| {
                        (
                            signed(d.deviation_pct),
                            format!("{} .. {}", signed(d.ci_pct.0), signed(d.ci_pct.1)),
                        )
                    });
                    let _ = write!(
                        o,
                        " {:.1} | {:.2} | {:.2} | {dev} | {ci} | {} |",
                        s.tps,
                        s.p95_ms,
                        s.p99_ms,
                        verdict(s)
                    );
                }
                None => o.push_str(" - | | | | | no run |"),
            }
        }
        o.push('\n');
    }
    for r in rows {
        for (i, n) in r.new.iter().enumerate() {
            let Some(s) = n.as_ref().filter(|s| !s.why.is_empty()) else {
                continue;
            };
            let _ = writeln!(
                o,
                "\nWhy, {} threads, NEW{} against BASE:\n\n| server figure | BASE | NEW | change |\n|---|---:|---:|---:|",
                r.threads,
                i + 1
            );
            for w in s.why.iter().take(WHY_LINES) {
                let change = w
                    .change_pct
                    .map_or_else(|| "new".to_string(), |c| format!("{c:+.1} %"));
                let _ = writeln!(
                    o,
                    "| {} | {:.4} | {:.4} | {change} |",
                    w.figure, w.base, w.new
                );
            }
        }
    }
    let _ = writeln!(o, "\nBASE: {base}");
    for (i, n) in names.iter().enumerate() {
        let _ = writeln!(o, "NEW{}: {n}", i + 1);
    }
    o
}

fn csv(rows: &[Row], base: &str, names: &[String]) -> String {
    let mut o = String::from(
        "threads,run,tps,p95_ms,p99_ms,deviation_pct,ci_low_pct,ci_high_pct,verdict,valid\n",
    );
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    for r in rows {
        let _ = writeln!(
            o,
            "{},{},{:.3},{:.3},{:.3},,,,base,{}",
            r.threads,
            quote(base),
            r.base.tps,
            r.base.p95_ms,
            r.base.p99_ms,
            r.base.valid
        );
        for (n, name) in r.new.iter().zip(names) {
            if let Some(s) = n {
                let (dev, lo, hi, v) = match &s.vs_base {
                    Some(d) => (
                        format!("{:.3}", d.deviation_pct),
                        format!("{:.3}", d.ci_pct.0),
                        format!("{:.3}", d.ci_pct.1),
                        d.verdict.text().to_string(),
                    ),
                    None => (String::new(), String::new(), String::new(), verdict(s)),
                };
                let _ = writeln!(
                    o,
                    "{},{},{:.3},{:.3},{:.3},{dev},{lo},{hi},{v},{}",
                    r.threads,
                    quote(name),
                    s.tps,
                    s.p95_ms,
                    s.p99_ms,
                    s.valid
                );
            }
        }
    }
    o
}
