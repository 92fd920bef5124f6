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
}
