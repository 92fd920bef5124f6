//! Aligned text.

use super::{Comparison, Exporter, signed};
use crate::analysis::compare::Row;
use crate::analysis::stats::COMPARE_METHOD;
use crate::experiment::{
    Experiment, Table, coloc, column_text, cost_lines, deviation_text, method_lines,
};
use std::fmt::Write as _;

/// Aligned text.
pub struct Text;

impl Exporter for Text {
    fn comparison(&self, c: &Comparison) -> String {
        let (rows, benchmark, base, names) = (c.rows, c.benchmark, c.base, c.names);
        let mut o = format!("compare {benchmark}: BASE {base}\n");
        for (i, n) in names.iter().enumerate() {
            match c.benchmarks.get(i).filter(|b| *b != benchmark) {
                Some(b) => {
                    let _ = writeln!(o, "  NEW{} {n} ({b})", i + 1);
                }
                None => {
                    let _ = writeln!(o, "  NEW{} {n}", i + 1);
                }
            }
        }
        let unit = rows.first().map_or("tps", |r| r.base.unit);
        let _ = writeln!(
            o,
            "  {unit}: mean of the steady-state intervals (from the MSER-5 start); verdict: {COMPARE_METHOD}\n"
        );
        let _ = write!(
            o,
            "{:>7}  {:>10} {:>8} {:>8}",
            "threads",
            format!("base {unit}"),
            "p95 ms",
            "p99 ms"
        );
        for i in 0..names.len() {
            let _ = write!(
                o,
                " | {:>10} {:>8} {:>8} {:>8}  {:<26}",
                format!("NEW{} {unit}", i + 1),
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
                r.threads, r.base.figure, r.base.p95_ms, r.base.p99_ms
            );
            for n in &r.new {
                match n {
                    Some(s) => {
                        let dev = s.vs_base.map_or("-".into(), |d| signed(d.deviation_pct));
                        let _ = write!(
                            o,
                            " | {:>10.1} {:>8.2} {:>8.2} {:>8}  {:<26}",
                            s.figure,
                            s.p95_ms,
                            s.p99_ms,
                            dev,
                            s.verdict_text()
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
        o.push_str(&super::profile_lines(c, false));
        o.lines().map(|l| format!("{}\n", l.trim_end())).collect()
    }

    fn experiment(&self, e: &Experiment, tables: &[Table]) -> String {
        let mut out = String::new();
        for t in &coloc::tables(e) {
            let _ = writeln!(out, "{}", coloc::heading(e, t));
            aligned(&mut out, &coloc::table_rows(t));
            out.push('\n');
        }
        for t in tables {
            let measure = match e.plan.replay_measure(&t.workload) {
                Some(m) => m.to_string(),
                None => format!("throughput in {}", t.unit),
            };
            let _ = writeln!(
                out,
                "{} — {}: {measure} (mean of {} repetition(s), min-max), baseline {}",
                e.name,
                t.workload,
                e.complete_blocks().max(1),
                t.baseline
            );
            let mut header = vec!["threads".to_string()];
            header.extend(e.plan.variants.iter().cloned());
            for (v, _) in t.rows.first().map_or(&Vec::new(), |r| &r.deviations) {
                header.push(format!("{v} vs {}", t.baseline));
            }
            let mut rows: Vec<Vec<String>> = vec![header];
            for r in &t.rows {
                let mut row = vec![r.threads.to_string()];
                row.extend(r.columns.iter().map(column_text));
                row.extend(r.deviations.iter().map(|(_, d)| deviation_text(d)));
                rows.push(row);
            }
            aligned(&mut out, &rows);
            // Which costs changed, per variant and level (server metrics).
            for line in cost_lines(t) {
                let _ = writeln!(out, "  costs {line}");
            }
            out.push('\n');
        }
        for line in method_lines(e) {
            let _ = writeln!(out, "{line}");
        }
        out
    }

    fn summary(&self, lines: &[String]) -> String {
        if lines.is_empty() {
            return String::new();
        }
        let mut out = String::from("summary:\n");
        for l in lines {
            let _ = writeln!(out, "  {}", crate::report::text::shown(l));
        }
        out
    }
}

/// `rows` (the header first) in aligned columns, the first right-aligned; a cell's control
/// characters (from stored files) are not printed raw.
fn aligned(out: &mut String, rows: &[Vec<String>]) {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| crate::report::text::shown(c).into_owned())
                .collect()
        })
        .collect();
    let widths: Vec<usize> = (0..rows.first().map_or(0, Vec::len))
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                if i == 0 {
                    format!("{c:>w$}")
                } else {
                    format!("{c:<w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "  {}", line.join("   ").trim_end());
    }
}

/// Lines of each "why" table that `compare` prints (JSON has them all).
pub(super) const WHY_LINES: usize = 8;

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
