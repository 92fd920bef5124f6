//! A run's by-period table (analysis::periods) as text: a line per period, its throughput,
//! p95 and the server figures, then what rose from the first period to the last.

use crate::analysis::periods::{FIGURES, Figure, ROSE_PCT, ends, figure};
use crate::results::period::Periods;
use std::fmt::Write;

/// The figures some period has: the table's columns.
fn shown(p: &Periods) -> Vec<&'static Figure> {
    FIGURES
        .iter()
        .filter(|f| p.periods.iter().any(|x| x.server.contains_key(f.name)))
        .collect()
}

/// A figure's value with as many digits as its size needs.
fn value(v: f64) -> String {
    match v.abs() {
        a if a >= 1000.0 => crate::store::grouped(v.round().max(0.0) as u64),
        a if a >= 100.0 => format!("{v:.0}"),
        a if a >= 1.0 => format!("{v:.2}"),
        _ => format!("{v:.3}"),
    }
}

/// A period's place in the run: hours in an hourly table, else seconds since the start.
fn label(start: f64, end: f64, period_s: f64) -> String {
    if period_s >= 3600.0 {
        format!("{:.1}-{:.1} h", start / 3600.0, end / 3600.0)
    } else {
        format!("{start:.0}-{end:.0} s")
    }
}

/// The table, indented for a run's summary (`indent` spaces).
pub fn text(p: &Periods, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let shown = shown(p);
    let mut out = String::new();
    let _ = write!(out, "{pad}{:<16}{:>10}{:>9}", "period", p.unit, "p95 ms");
    for f in &shown {
        let _ = write!(out, "{:>14}", f.heading);
    }
    out.push('\n');
    for x in &p.periods {
        let _ = write!(
            out,
            "{pad}{:<16}{:>10}{:>9}",
            label(x.start_s, x.end_s, p.period_s),
            value(x.throughput),
            value(x.p95_ms)
        );
        for f in &shown {
            let v = x.server.get(f.name).map_or("-".to_string(), |v| value(*v));
            let _ = write!(out, "{v:>14}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{pad}{}", course(p));
    out
}

/// The table as an HTML section of a run's report (its unit and the figures' names are
/// txbench's own, the course line escaped as any text).
pub fn html(h: &mut String, p: &Periods) {
    let shown = shown(p);
    let _ = write!(
        h,
        "<h3>By period</h3><table><tr><th>period</th><th>{}</th><th>p95 ms</th>",
        super::page::esc(&p.unit)
    );
    for f in &shown {
        let _ = write!(h, "<th>{}</th>", super::page::esc(f.heading));
    }
    h.push_str("</tr>");
    for x in &p.periods {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
            label(x.start_s, x.end_s, p.period_s),
            value(x.throughput),
            value(x.p95_ms)
        );
        for f in &shown {
            let v = x.server.get(f.name).map_or("–".to_string(), |v| value(*v));
            let _ = write!(h, "<td class=\"n\">{v}</td>");
        }
        h.push_str("</tr>");
    }
    let _ = write!(
        h,
        "</table><p class=\"note\">{}</p>",
        super::page::esc(&course(p))
    );
}

/// The throughput's course from the first period to the last, and what rose with it.
pub fn course(p: &Periods) -> String {
    let Some((a, b)) = ends(&p.periods, p.period_s) else {
        return String::new();
    };
    let change = if a.throughput > 0.0 {
        format!(" ({:+.1} %)", (b.throughput / a.throughput - 1.0) * 100.0)
    } else {
        String::new()
    };
    let rose: Vec<String> = p
        .moved
        .iter()
        .map(|m| {
            let heading = figure(&m.name).map_or(m.name.as_str(), |f| f.heading);
            let by = m
                .change_pct()
                .map_or("from 0".to_string(), |c| format!("{c:+.0} %"));
            format!("{heading} {} → {} ({by})", value(m.first), value(m.last))
        })
        .collect();
    format!(
        "{} {} → {}{change} from the first period to the last; {}",
        p.unit,
        value(a.throughput),
        value(b.throughput),
        if rose.is_empty() {
            format!("no server figure rose by {ROSE_PCT} % or more")
        } else {
            format!("rose: {}", rose.join(", "))
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::period::{Moved, Period};

    fn period(k: f64, nopm: f64, history: f64) -> Period {
        Period {
            start_s: 3600.0 * k,
            end_s: 3600.0 * (k + 1.0),
            throughput: nopm,
            p95_ms: 12.5,
            server: [("history_list_length".to_string(), history)].into(),
        }
    }

    #[test]
    fn the_table_has_a_line_per_period_and_ends_with_the_course() {
        let p = Periods {
            period_s: 3600.0,
            unit: "NOPM".into(),
            periods: vec![
                period(0.0, 41_000.0, 2_000.0),
                period(1.0, 36_000.0, 40_000.0),
                period(2.0, 30_750.0, 90_000.0),
            ],
            moved: vec![Moved {
                name: "history_list_length".into(),
                first: 2_000.0,
                last: 90_000.0,
            }],
        };
        let t = text(&p, 2);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 5, "{t}");
        assert!(
            lines[0].contains("NOPM") && lines[0].contains("history list"),
            "{t}"
        );
        // Only the figures some period has are columns.
        assert!(!lines[0].contains("reads/tx"), "{t}");
        assert!(
            lines[1].starts_with("  0.0-1.0 h") && lines[1].contains("41,000"),
            "{t}"
        );
        assert!(lines[3].contains("90,000"), "{t}");
        assert_eq!(
            lines[4],
            "  NOPM 41,000 → 30,750 (-25.0 %) from the first period to the last; rose: history list 2,000 → 90,000 (+4400 %)"
        );
        let mut h = String::new();
        html(&mut h, &p);
        assert!(h.starts_with("<h3>By period</h3><table>"), "{h}");
        assert_eq!(h.matches("<tr>").count(), 4, "{h}");
        assert!(h.contains("history list 2,000 → 90,000"), "{h}");
        let flat = Periods {
            moved: Vec::new(),
            ..p
        };
        assert!(course(&flat).ends_with("no server figure rose by 20 % or more"));
    }
}
