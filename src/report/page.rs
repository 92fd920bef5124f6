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
