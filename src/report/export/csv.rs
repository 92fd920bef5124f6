//! CSV: one line per thread count and run (a comparison), or per workload, thread count and
//! variant (an experiment).

use super::{Comparison, Exporter};
use crate::experiment::{Experiment, Table, num};
use std::fmt::Write as _;

/// CSV.
pub struct Csv;

impl Exporter for Csv {
    fn comparison(&self, c: &Comparison) -> String {
        let (rows, base, names) = (c.rows, c.base, c.names);
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

    fn experiment(&self, _e: &Experiment, tables: &[Table]) -> String {
        let mut out = String::from(
            "workload,threads,variant,tps_mean,tps_min,tps_max,repetitions,invalid,p95_ms,deviation_pct,ci_low_pct,ci_high_pct,verdict\n",
        );
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
                        "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                        t.workload,
                        r.threads,
                        c.variant,
                        num(c.mean),
                        num(c.min),
                        num(c.max),
                        c.n,
                        c.invalid,
                        num(c.p95_ms),
                        d.map_or(String::new(), |d| format!("{:.2}", d.pct)),
                        d.map_or(String::new(), |d| format!("{:.2}", d.ci_pct.0)),
                        d.map_or(String::new(), |d| format!("{:.2}", d.ci_pct.1)),
                        d.map_or(String::new(), |d| d.verdict.text().replace(' ', "_")),
                    );
                }
            }
        }
        out
    }
}
