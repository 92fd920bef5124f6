//! The report's profile section of a run (`run --profile`): per profile, what was sampled,
//! the findings, the top functions by self and by total and the subsystems, and the flame
//! graph (inferno's interactive SVG: click to zoom, Ctrl-F to search), drawn from the folded
//! stacks stored in the run directory. The flame graph is an `<object>` of its own, so its
//! script runs in its own document and the page itself stays script-free.

use super::page::{RunRef, esc};
use crate::results::{FnShare, Profile, read_folded};
use std::fmt::Write as _;

/// Rows of each top-functions table.
const ROWS: usize = 12;

fn shares_table(h: &mut String, title: &str, v: &[FnShare]) {
    let _ = write!(
        h,
        "<table><tr><th>{}</th><th>% of CPU</th></tr>",
        esc(title)
    );
    for f in v.iter().take(ROWS) {
        let _ = write!(
            h,
            "<tr><td><code>{}</code></td><td class=\"n\">{:.1}</td></tr>",
            esc(&f.name),
            f.pct
        );
    }
    h.push_str("</table>");
}

/// The flame graph of `folded` as an SVG document (None: nothing to draw, or inferno
/// refused it: said in its place).
pub fn flame_graph(p: &Profile, folded: &str) -> Result<String, String> {
    let mut o = inferno::flamegraph::Options::default();
    o.title = format!("{} CPU: {:.0} ms sampled by {}", p.what, p.cpu_ms, p.event);
    o.count_name = "ns".into();
    o.hash = true;
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut o, folded.lines(), &mut svg)
        .map_err(|e| format!("the flame graph could not be drawn: {e}"))?;
    String::from_utf8(svg).map_err(|_| "the flame graph is not text".into())
}

/// The differential flame graph of `after` against `before` (folded stacks, each possibly
/// several runs' concatenated): `after`'s frames, red where their share grew and blue where it
/// shrank, the two normalised to the same total (runs of other lengths or loads compare).
pub fn diff_flame_graph(title: &str, before: &str, after: &str) -> Result<String, String> {
    let mut diffed = Vec::new();
    let opts = inferno::differential::Options {
        normalize: true,
        strip_hex: false,
    };
    inferno::differential::from_readers(opts, before.as_bytes(), after.as_bytes(), &mut diffed)
        .map_err(|e| format!("the differential flame graph could not be made: {e}"))?;
    let diffed = String::from_utf8(diffed).map_err(|_| "the differences are not text")?;
    let mut o = inferno::flamegraph::Options::default();
    o.title = title.to_string();
    o.count_name = "ns".into();
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut o, diffed.lines(), &mut svg)
        .map_err(|e| format!("the differential flame graph could not be drawn: {e}"))?;
    String::from_utf8(svg).map_err(|_| "the flame graph is not text".into())
}

/// An SVG (or why there is none) in the page: an `<object>` of its own, its script kept out
/// of the page.
fn embed(h: &mut String, svg: Result<String, String>) {
    match svg {
        Ok(svg) => {
            use base64::Engine as _;
            let _ = write!(
                h,
                "<object class=\"flame\" type=\"image/svg+xml\" data=\"data:image/svg+xml;base64,{}\"></object>",
                base64::engine::general_purpose::STANDARD.encode(svg)
            );
        }
        Err(why) => {
            let _ = write!(h, "<p class=\"note\">{}</p>", esc(&why));
        }
    }
}

/// The server profile's folded stacks of run `x` (None: no server profile, or its file is
/// gone).
fn server_folded(x: &RunRef<'_>) -> Option<String> {
    crate::analysis::profile::server_folded(&x.dir, x.r)
}

/// Differential flame graphs of every run with a server profile against the first such
/// run of the same workload (nothing with fewer than two).
pub(super) fn differences(h: &mut String, all: &[RunRef<'_>]) {
    let profiled: Vec<(&RunRef<'_>, String)> = all
        .iter()
        .filter(|x| x.cell.is_none())
        .filter_map(|x| Some((x, server_folded(x)?)))
        .collect();
    let Some((first, base)) = profiled.first() else {
        return;
    };
    let others: Vec<&(&RunRef<'_>, String)> = profiled[1..]
        .iter()
        .filter(|(x, _)| x.r.config.workload == first.r.config.workload)
        .collect();
    if others.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<h2>Server profiles against {}</h2><p class=\"note\">Each run's server CPU against the first profiled run's, normalised to the same total: red where a function's share grew, blue where it shrank.</p>",
        esc(&first.label)
    );
    for (x, after) in others {
        let _ = write!(
            h,
            "<h3>{} against {}</h3>",
            esc(&x.label),
            esc(&first.label)
        );
        embed(
            h,
            diff_flame_graph(&format!("{} against {}", x.label, first.label), base, after),
        );
    }
}

/// Per workload, level and variant of experiment `e` whose cells (among `all`, experiment
/// number `k`) have server profiles: the differential flame graph of the variant against
/// the baseline, repetitions combined.
pub(super) fn experiment_differences(
    h: &mut String,
    e: &crate::experiment::Experiment,
    k: usize,
    all: &[RunRef<'_>],
) {
    use crate::experiment::CellStatus;
    let p = &e.plan;
    let folded = |v: &str, w: &str, t: u32| -> Option<String> {
        let mut out = String::new();
        for c in e.cells.iter().filter(|c| {
            c.variant == v && c.workload == w && c.threads == t && c.status == CellStatus::Done
        }) {
            let x = all.iter().find(|x| x.cell == Some((k, c.order)))?;
            out.push_str(&server_folded(x)?);
            out.push('\n');
        }
        (!out.is_empty()).then_some(out)
    };
    for w in &p.workloads {
        for &t in &p.threads {
            let Some(base) = folded(&p.baseline, w, t) else {
                continue;
            };
            for v in p.variants.iter().filter(|v| **v != p.baseline) {
                let Some(after) = folded(v, w, t) else {
                    continue;
                };
                let title = format!("{w}, {t} threads: {v} against {}", p.baseline);
                let _ = write!(
                    h,
                    "<h3>Server profile, {}</h3><p class=\"note\">Repetitions combined, normalised to the same total: red where a function's share grew, blue where it shrank.</p>",
                    esc(&title)
                );
                embed(h, diff_flame_graph(&title, &base, &after));
            }
        }
    }
}

/// The section of `x`'s profiles (nothing without one).
pub(super) fn section(h: &mut String, x: &RunRef<'_>) {
    for p in &x.r.profiles {
        let _ = write!(
            h,
            "<h3>Profile of the {}</h3><p class=\"note\">{} — {:.0} ms of CPU sampled by {} at {} Hz over the measured phase ({:.1} s), {:.1} % with a frame perf could not name; folded stacks in <code>{}</code>.</p>",
            esc(&p.what),
            esc(&p.processes.join(", ")),
            p.cpu_ms,
            esc(&p.event),
            p.hz,
            p.seconds,
            p.unresolved_pct,
            esc(&p.file)
        );
        for f in &p.findings {
            let _ = write!(h, "<p class=\"finding\">{}</p>", esc(f));
        }
        h.push_str("<div class=\"row\">");
        shares_table(h, "on the CPU itself (self)", &p.top_self);
        shares_table(h, "on the stack (total)", &p.top_total);
        shares_table(h, "subsystem", &p.subsystems);
        h.push_str("</div>");
        let svg = read_folded(&x.dir.join(&p.file))
            .map_err(|e| format!("{}: {e}", p.file))
            .and_then(|folded| flame_graph(p, &folded));
        embed(h, svg);
    }
}
