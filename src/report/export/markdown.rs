//! Markdown tables.

use super::{Comparison, Exporter, signed};
use crate::analysis::stats::COMPARE_METHOD;
use crate::experiment::{
    Experiment, Table, coloc, column_text, cost_lines, deviation_text, method_lines,
};
use std::fmt::Write as _;

/// Lines of each "why" table.
const WHY_LINES: usize = super::text::WHY_LINES;

/// Markdown tables.
pub struct Markdown;

impl Exporter for Markdown {
    fn comparison(&self, c: &Comparison) -> String {
        let (rows, base, names) = (c.rows, c.base, c.names);
        let unit = rows.first().map_or("tps", |r| r.base.unit);
        let mut o = format!(
            "{unit}: mean of the steady-state intervals; verdict: {COMPARE_METHOD}.\n\n| threads | BASE {unit} | p95 ms | p99 ms |"
        );
        for i in 0..names.len() {
            let k = i + 1;
            let _ = write!(
                o,
                " NEW{k} {unit} | p95 ms | p99 ms | deviation % | 95 % CI % | verdict |"
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
                r.threads, r.base.figure, r.base.p95_ms, r.base.p99_ms
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
                            s.figure,
                            s.p95_ms,
                            s.p99_ms,
                            s.verdict_text()
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
        let _ = writeln!(o, "\nBASE: {base} ({})", c.benchmark);
        for (i, n) in names.iter().enumerate() {
            match c.benchmarks.get(i).filter(|b| *b != c.benchmark) {
                Some(b) => {
                    let _ = writeln!(o, "NEW{}: {n} ({b})", i + 1);
                }
                None => {
                    let _ = writeln!(o, "NEW{}: {n}", i + 1);
                }
            }
        }
        o.push_str(&super::profile_lines(c, true));
        o
    }

    fn experiment(&self, e: &Experiment, tables: &[Table]) -> String {
        let mut out = String::new();
        for t in &coloc::tables(e) {
            let _ = writeln!(out, "### {}\n", coloc::heading(e, t));
            for (i, row) in coloc::table_rows(t).iter().enumerate() {
                let _ = writeln!(out, "| {} |", row.join(" | "));
                if i == 0 {
                    let _ = writeln!(out, "|{}|", vec!["---"; row.len()].join("|"));
                }
            }
            out.push('\n');
        }
        for t in tables {
            let _ = writeln!(out, "### {} — {}\n", e.name, t.workload);
            let mut head = vec!["threads".to_string()];
            head.extend(e.plan.variants.iter().map(|v| format!("{v} {}", t.unit)));
            for (v, _) in t.rows.first().map_or(&Vec::new(), |r| &r.deviations) {
                head.push(format!("{v} vs {}", t.baseline));
            }
            let _ = writeln!(out, "| {} |", head.join(" | "));
            let _ = writeln!(out, "|{}|", vec!["---"; head.len()].join("|"));
            for r in &t.rows {
                let mut row = vec![r.threads.to_string()];
                row.extend(r.columns.iter().map(column_text));
                row.extend(r.deviations.iter().map(|(_, d)| deviation_text(d)));
                let _ = writeln!(out, "| {} |", row.join(" | "));
            }
            out.push('\n');
            // Which costs changed, per variant and level (server metrics).
            for line in cost_lines(t) {
                let _ = writeln!(out, "Costs {line}.\n");
            }
        }
        for line in method_lines(e) {
            let _ = writeln!(out, "{}.\n", capitalised(&line));
        }
        out
    }

    fn summary(&self, lines: &[String]) -> String {
        if lines.is_empty() {
            return String::new();
        }
        let mut out = String::from("**Summary**\n\n");
        for l in lines {
            let _ = writeln!(out, "- {}", crate::report::text::shown(l));
        }
        out.push('\n');
        out
    }
}

/// `s` with its first letter in upper case (a sentence of a Markdown page).
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
