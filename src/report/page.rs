//! What the report's sections share: a run and where it lives, HTML escaping, anchors, and
//! a chart put on the page. The sections (html, server, experiment) import this, never
//! each other's.

use super::charts::{self, Chart};
use crate::results::{RunResult, Stored};
use anyhow::Result;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One run of the report, with where it lives.
pub(super) struct RunRef<'a> {
    pub(super) label: String,
    /// A cell of an experiment: (experiment index, cell number).
    pub(super) cell: Option<(usize, usize)>,
    pub(super) dir: PathBuf,
    pub(super) r: &'a RunResult,
}

/// The pages' style sheet (the report's, and the store's pages of `txbench serve`): a dark
/// scheme that keeps the charts on white (their colours are chosen for it), and print rules
/// that keep a chart, a table row and the story on one page.
pub(super) const CSS: &str = "body{font-family:sans-serif;margin:24px;color:#222;max-width:1100px}\
h1{font-size:24px}h2{font-size:20px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:36px}\
h3{font-size:16px;margin-top:24px}table{border-collapse:collapse;margin:8px 0;font-size:13px}\
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f4f4f4}\
td.n{text-align:right;font-variant-numeric:tabular-nums}.valid{color:#17612b;font-weight:bold}\
.invalid{color:#fff;background:#b3261e;font-weight:bold;padding:1px 6px}tr.diff td,td.disturbed{background:#fff3bf}\
.chart{margin:8px 0}.multiples{display:flex;flex-wrap:wrap;gap:4px 12px}.chart.small{margin:0}.note{color:#555;font-size:13px}.declining{color:#b3261e;font-weight:bold}\
.story{background:#eef4fb;border-left:4px solid #2b6cb0;padding:6px 12px 6px 28px;margin:8px 0}.story li{margin:3px 0}\
summary{cursor:pointer}summary h3{display:inline}\
.row{display:flex;flex-wrap:wrap;gap:4px 16px}.finding{background:#fff3bf;padding:4px 8px;font-size:13px}\
object.flame{width:100%;min-height:420px;border:1px solid #ddd}\
figure.costs{margin:8px 0}figure.costs figcaption{font-size:13px;margin-bottom:4px}\
@media (prefers-color-scheme: dark){body{background:#16181b;color:#e4e4e4}a{color:#8ab4f8}\
th{background:#2a2d31}td,th{border-color:#444}h2{border-color:#555}.note{color:#aaa}\
.story{background:#1b2838;border-left-color:#6ea8fe}tr.diff td,td.disturbed,.finding{background:#4a3f10}\
.valid{color:#7fd18b}.declining{color:#ff8a80}\
svg{background:#fff;border-radius:3px}object.flame{background:#fff}}\
@media print{body{margin:0;max-width:none;color:#000;background:#fff}\
.chart,figure,tr,.story{break-inside:avoid}h2,h3{break-after:avoid}a{color:#000}\
.story{background:none;border-left:3px solid #000}}";

/// The story first: `lines` (from `analysis::story` or `experiment::summary`) as the
/// page's highlighted list, each line escaped; nothing when there are none.
pub(super) fn story(h: &mut String, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    h.push_str("<ul class=\"story\">");
    for l in lines {
        let _ = write!(h, "<li>{}</li>", esc(l));
    }
    h.push_str("</ul>");
}

/// Text made safe for HTML.
pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An anchor made of a label.
pub(super) fn slug(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Puts `c` on the page (as inline SVG) and keeps it for `--png`.
pub(super) fn push_chart(h: &mut String, out: &mut Vec<Chart>, c: Chart) -> Result<()> {
    let svg = charts::svg(&c)?;
    let _ = write!(
        h,
        "<div class=\"chart{}\" id=\"{}\">{svg}</div>",
        if c.small { " small" } else { "" },
        esc(&c.id)
    );
    out.push(c);
    Ok(())
}

/// A directory given to `report`, read.
pub struct Input {
    /// As given.
    pub path: PathBuf,
    /// What it holds.
    pub stored: Stored,
    /// Its name in the report (default: the directory's name).
    pub label: Option<String>,
    /// A cell of the report's experiment `.0`, number `.1`.
    pub cell: Option<(usize, usize)>,
}

/// A directory's name in the report: its last component.
pub(super) fn name_of(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}
