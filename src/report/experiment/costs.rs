//! The costs per transaction as a chart with their intervals (issue 42): one row per cost
//! (and level, when there are several), each variant's change from the baseline as a mark
//! with its interval as a bar, on a logarithmic axis of the ratio (a cost can move by ×158
//! beside one that moves by 3 %). Drawn as inline SVG here rather than by plotters, whose
//! charts are x-y curves: this is a forest plot, with a label and its figures on each row.

use super::super::page::esc;
use crate::experiment::{Experiment, MULTIPLE_PCT, Table, multiple as ratio, multiple_text, times};
use plotters::style::{Color as _, Palette as _, Palette99};
use std::fmt::Write as _;

/// The chart's width, px.
const WIDTH: f64 = 820.0;
/// The row labels' width on the left, px.
const LABEL_W: f64 = 190.0;
/// The figures' width on the right, px.
const FIGURE_W: f64 = 230.0;
/// Height of one variant's line in a row, px.
const LINE_H: f64 = 18.0;
/// Space above the first row (the legend) and below the last (the axis), px.
const TOP: f64 = 26.0;
const BOTTOM: f64 = 30.0;

/// One mark: variant (palette index, name), the ratio and its interval, the figures' text.
struct Mark {
    color: usize,
    variant: String,
    ratio: f64,
    low: f64,
    high: f64,
    text: String,
}

/// One row: its label and a mark per variant.
struct CostRow {
    label: String,
    marks: Vec<Mark>,
}

/// A change and its interval as the mark's figures: in % ("+252.0 % [+240.7, +263.6]"), or
/// as multiples from [`MULTIPLE_PCT`] on ("×124 [×86, ×179]"), as the summary writes them.
fn change(d: &crate::experiment::Deviation) -> String {
    if d.pct.abs() < MULTIPLE_PCT {
        crate::experiment::change_text(d)
    } else {
        multiple_text(d)
    }
}

/// What the costs of `t` are per: "New-Order" or "transaction".
fn per(t: &Table) -> &str {
    t.rows
        .iter()
        .flat_map(|r| r.costs.iter().flat_map(|(_, c)| c.first()))
        .next()
        .map_or("transaction", |c| c.per.as_str())
}

/// The rows of `t`: each cost with an interval, per level when there are several.
fn rows(e: &Experiment, t: &Table) -> Vec<CostRow> {
    let levels = t.rows.len() > 1;
    let mut out: Vec<CostRow> = Vec::new();
    for r in &t.rows {
        for (v, costs) in &r.costs {
            let color = e.plan.variants.iter().position(|x| x == v).unwrap_or(0);
            for c in costs {
                let Some(d) = &c.deviation else { continue };
                let (Some(mid), Some(low), Some(high)) =
                    (ratio(d.pct), ratio(d.ci_pct.0), ratio(d.ci_pct.1))
                else {
                    continue;
                };
                let label = if levels {
                    format!("{} · {} threads", c.figure, r.threads)
                } else {
                    c.figure.clone()
                };
                let mark = Mark {
                    color,
                    variant: v.clone(),
                    ratio: mid,
                    low,
                    high,
                    text: change(d),
                };
                match out.iter_mut().find(|x| x.label == label) {
                    Some(row) => row.marks.push(mark),
                    None => out.push(CostRow {
                        label,
                        marks: vec![mark],
                    }),
                }
            }
        }
    }
    out
}

/// The ticks of a log axis from `lo` to `hi`: 1, 2 and 5 times the powers of ten, or the
/// powers alone over more than three decades.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut out = Vec::new();
    // An axis the marks' bounds keep within MULTIPLES; anything else has no ticks.
    if !(lo > 0.0 && hi.is_finite() && lo < hi) {
        return out;
    }
    let steps: &[f64] = if hi / lo > 1000.0 {
        &[1.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let mut p = 10f64.powf(lo.log10().floor());
    while p <= hi * 1.0001 {
        for m in steps {
            let t = p * m;
            if t >= lo * 0.9999 && t <= hi * 1.0001 {
                out.push(t);
            }
        }
        p *= 10.0;
    }
    out
}

/// The chart of `t`'s costs, as a `<figure>` with inline SVG; None when no cost has an
/// interval (a single repetition, or no server metrics).
pub(super) fn chart(e: &Experiment, t: &Table, id: &str) -> Option<String> {
    let rows = rows(e, t);
    if rows.is_empty() {
        return None;
    }
    let marks = || rows.iter().flat_map(|r| &r.marks);
    let lo = marks().map(|m| m.low).fold(1.0, f64::min) * 0.8;
    let hi = marks().map(|m| m.high).fold(1.0, f64::max) * 1.25;
    let plot_w = WIDTH - LABEL_W - FIGURE_W;
    let x = |r: f64| LABEL_W + plot_w * (r.ln() - lo.ln()) / (hi.ln() - lo.ln());
    let lines: usize = rows.iter().map(|r| r.marks.len()).sum();
    let height = TOP + LINE_H * lines as f64 + 6.0 * rows.len() as f64 + BOTTOM;
    let mut s = format!(
        "<figure class=\"chart costs\" id=\"{}\"><figcaption>{}: costs per {}, each variant's change from {} with its interval (log scale)</figcaption>\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height:.0}\" viewBox=\"0 0 {WIDTH} {height:.0}\" font-family=\"sans-serif\" font-size=\"12\">\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>",
        esc(id),
        esc(&t.workload),
        esc(per(t)),
        esc(&t.baseline)
    );
    legend(&mut s, e, t);
    let bottom = height - BOTTOM;
    for tk in ticks(lo, hi) {
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{TOP}\" y2=\"{bottom:.1}\" stroke=\"{1}\"/><text x=\"{0:.1}\" y=\"{2:.1}\" text-anchor=\"middle\" fill=\"#333\">{3}</text>",
            x(tk),
            if (tk - 1.0).abs() < 1e-9 {
                "#555"
            } else {
                "#e3e3e3"
            },
            bottom + 16.0,
            times(tk)
        );
    }
    let mut y = TOP;
    for row in &rows {
        let mid = y + LINE_H * row.marks.len() as f64 / 2.0;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#222\">{}</text>",
            LABEL_W - 8.0,
            mid + 4.0,
            esc(&row.label)
        );
        for m in &row.marks {
            draw_mark(&mut s, m, &x, y + LINE_H / 2.0);
            y += LINE_H;
        }
        y += 6.0;
    }
    s.push_str("</svg></figure>");
    Some(s)
}

/// The variants' colours, along the top.
fn legend(s: &mut String, e: &Experiment, t: &Table) {
    let mut at = LABEL_W;
    for (i, v) in e.plan.variants.iter().enumerate() {
        if *v == t.baseline {
            continue;
        }
        let _ = write!(
            s,
            "<rect x=\"{at:.1}\" y=\"6\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{:.1}\" y=\"16\" fill=\"#222\">{} vs {}</text>",
            rgb(i),
            at + 16.0,
            esc(v),
            esc(&t.baseline)
        );
        at += 24.0 + 7.0 * (v.len() + t.baseline.len() + 4) as f64;
    }
}

/// Mark `m` on the line centred at `cy`: its interval a bar with caps, its ratio a dot,
/// its figures on the right.
fn draw_mark(s: &mut String, m: &Mark, x: &dyn Fn(f64) -> f64, cy: f64) {
    let c = rgb(m.color);
    let (x0, x1, xm) = (x(m.low), x(m.high), x(m.ratio));
    let _ = write!(
        s,
        "<g><title>{} {}</title><line x1=\"{x0:.1}\" x2=\"{x1:.1}\" y1=\"{cy:.1}\" y2=\"{cy:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
         <line x1=\"{x0:.1}\" x2=\"{x0:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
         <line x1=\"{x1:.1}\" x2=\"{x1:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
         <circle cx=\"{xm:.1}\" cy=\"{cy:.1}\" r=\"4.5\" fill=\"{c}\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" fill=\"#222\">{}</text></g>",
        esc(&m.variant),
        esc(&m.text),
        cy - 4.0,
        cy + 4.0,
        cy - 4.0,
        cy + 4.0,
        WIDTH - FIGURE_W + 8.0,
        cy + 4.0,
        esc(&m.text)
    );
}

/// Palette colour `i` as the other charts draw it.
fn rgb(i: usize) -> String {
    let (r, g, b) = Palette99::pick(i).to_rgba().rgb();
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::MULTIPLES;

    #[test]
    fn log_ticks_and_multiples_read_as_people_write_them() {
        assert_eq!(
            ticks(0.8, 160.0),
            vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
        );
        assert_eq!(ticks(0.3, 1.3), vec![0.5, 1.0]);
        // Over more than three decades, the powers of ten alone.
        assert_eq!(ticks(0.04, 250.0), vec![0.1, 1.0, 10.0, 100.0]);
        // An unbounded axis has no ticks (it once looped for ever and ate the memory).
        assert!(ticks(0.0, 10.0).is_empty() && ticks(0.5, f64::INFINITY).is_empty());
        assert_eq!(ratio(f64::INFINITY), Some(MULTIPLES.1));
        assert_eq!(ratio(-100.0), Some(MULTIPLES.0));
        assert_eq!(ratio(f64::NAN), None);
        assert_eq!(times(0.5), "×0.5");
        assert_eq!(times(1.0), "×1");
        assert_eq!(times(3.58), "×3.58");
        assert_eq!(times(158.4), "×158");
    }
}
