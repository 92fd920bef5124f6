//! CSV: one line per thread count and run (a comparison), or per workload, thread count,
//! variant and outcome (an experiment: throughput, then what a transaction cost the server).

use super::{Comparison, Exporter};
use crate::experiment::{Deviation, Experiment, Table, coloc, num};
use std::fmt::Write as _;

/// CSV.
pub struct Csv;

impl Exporter for Csv {
    fn comparison(&self, c: &Comparison) -> String {
        let (rows, base, names) = (c.rows, c.base, c.names);
        let unit = rows.first().map_or("tps", |r| r.base.unit).to_lowercase();
        let mut o = format!(
            "threads,run,{unit},p95_ms,p99_ms,deviation_pct,ci_low_pct,ci_high_pct,verdict,valid\n",
        );
        let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        for r in rows {
            let _ = writeln!(
                o,
                "{},{},{:.3},{:.3},{:.3},,,,base,{}",
                r.threads,
                quote(base),
                r.base.figure,
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
                        None => (
                            String::new(),
                            String::new(),
                            String::new(),
                            s.verdict_text(),
                        ),
                    };
                    let _ = writeln!(
                        o,
                        "{},{},{:.3},{:.3},{:.3},{dev},{lo},{hi},{v},{}",
                        r.threads,
                        quote(name),
                        s.figure,
                        s.p95_ms,
                        s.p99_ms,
                        s.valid
                    );
                }
            }
        }
        o
    }

    fn experiment(&self, e: &Experiment, tables: &[Table]) -> String {
        let mut out = String::from(
            "workload,threads,variant,outcome,per,mean,min,max,repetitions,invalid,p95_ms,deviation_pct,ci_low_pct,ci_high_pct,confidence,method,verdict\n",
        );
        co_location(&mut out, e);
        let dev = |d: Option<&Deviation>| -> String {
            d.map_or(",,,,,".into(), |d| deviation_columns(d, d.verdict.text()))
        };
        for t in tables {
            for r in &t.rows {
                for c in &r.columns {
                    let d = r
                        .deviations
                        .iter()
                        .find(|(v, _)| *v == c.variant)
                        .and_then(|(_, d)| d.as_ref());
                    let _ = writeln!(
                        out,
                        "{},{},{},{},,{},{},{},{},{},{},{}",
                        t.workload,
                        r.threads,
                        c.variant,
                        t.unit,
                        num(c.mean),
                        num(c.min),
                        num(c.max),
                        c.n,
                        c.invalid,
                        num(c.p95_ms),
                        dev(d),
                    );
                }
                // What a transaction cost the server: the baseline's figure once, then each
                // variant's with its deviation.
                let mut base_done = Vec::new();
                for (variant, costs) in &r.costs {
                    for cost in costs {
                        if !base_done.contains(&cost.figure) {
                            base_done.push(cost.figure.clone());
                            let _ = writeln!(
                                out,
                                "{},{},{},{},{},{},,,,,,{}",
                                t.workload,
                                r.threads,
                                t.baseline,
                                cost.figure,
                                cost.per,
                                cost.base,
                                dev(None)
                            );
                        }
                        let _ = writeln!(
                            out,
                            "{},{},{},{},{},{},,,,,,{}",
                            t.workload,
                            r.threads,
                            variant,
                            cost.figure,
                            cost.per,
                            cost.new,
                            dev(cost.deviation.as_ref())
                        );
                    }
                }
            }
        }
        out
    }

    /// CSV holds the tables only.
    fn summary(&self, _lines: &[String]) -> String {
        String::new()
    }
}

/// A co-location's lines: each instance alone, their sum, and together (whose deviation is
/// against the sum: its verdict "faster" is super-linear), "repetitions" the complete blocks.
fn co_location(out: &mut String, e: &Experiment) {
    for t in coloc::tables(e) {
        for r in &t.rows {
            let mut lines: Vec<(String, Option<f64>)> = r
                .alone
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("{} alone {}", t.variant, i + 1), *v))
                .collect();
            lines.push((
                format!("{} sum of alone", t.variant),
                r.alone.iter().copied().sum(),
            ));
            lines.push((format!("{} together", t.variant), r.together));
            let last = lines.len() - 1;
            for (i, (name, mean)) in lines.into_iter().enumerate() {
                let d = r
                    .deviation
                    .as_ref()
                    .filter(|_| i == last)
                    .map_or(",,,,,".to_string(), |d| {
                        deviation_columns(d, coloc::verdict_text(d))
                    });
                let _ = writeln!(
                    out,
                    "{},{},{name},{},,{},,,{},{},,{d}",
                    t.workload,
                    r.threads,
                    t.unit,
                    num(mean),
                    r.blocks,
                    r.invalid
                );
            }
        }
    }
}

/// A deviation's CSV columns: deviation_pct, ci_low_pct, ci_high_pct, confidence, method and
/// `verdict` (spaces as '_').
fn deviation_columns(d: &Deviation, verdict: &str) -> String {
    format!(
        "{:.2},{:.2},{:.2},{},{},{}",
        d.pct,
        d.ci_pct.0,
        d.ci_pct.1,
        d.confidence,
        d.method,
        verdict.replace(' ', "_")
    )
}
