//! Tables for people and programs, one exporter per format (as hyperfine's export module):
//! aligned text, Markdown and CSV, each for a comparison of runs and for an experiment's
//! deviation tables. JSON is serde's, written by the commands.

mod csv;
mod markdown;
mod text;

use crate::analysis::compare::Row;
use crate::experiment::{Experiment, Table};

/// A table format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned text.
    Text,
    /// Markdown tables (for a blog post or an issue).
    Markdown,
    /// CSV, one line per thread count and run (or variant).
    Csv,
}

/// What `compare` prints: its rows, BASE's benchmark, BASE's path and each NEW's.
pub struct Comparison<'a> {
    /// One per BASE thread count.
    pub rows: &'a [Row],
    /// BASE's benchmark in words (`store::benchmark_name`).
    pub benchmark: &'a str,
    /// BASE's directory.
    pub base: &'a str,
    /// Each NEW's directory.
    pub names: &'a [String],
    /// Each NEW's benchmark in words (named where it differs from BASE's).
    pub benchmarks: &'a [String],
    /// Per NEW with a server profile (BASE having one too): the functions whose share
    /// changed most, labelled "NEW1"…
    pub profiles: &'a [(String, crate::analysis::profile::ProfileDiff)],
}

/// The profile differences of a comparison as aligned text (Markdown: a table each).
fn profile_lines(c: &Comparison, markdown: bool) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    let ms = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.4}"));
    for (label, d) in c.profiles {
        if markdown {
            let _ = writeln!(
                o,
                "\nprofile, {label} against BASE: the server's CPU by subsystem, and the functions whose share changed most (self), with their server CPU ms per transaction\n\n| subsystem or function | BASE % | NEW % | BASE ms/txn | NEW ms/txn |\n|---|---:|---:|---:|---:|"
            );
            for (r, tick) in d
                .subsystems
                .iter()
                .map(|r| (r, ""))
                .chain(d.functions.iter().map(|r| (r, "`")))
            {
                let _ = writeln!(
                    o,
                    "| {tick}{}{tick} | {:.1} | {:.1} | {} | {} |",
                    r.name,
                    r.base_pct,
                    r.new_pct,
                    ms(r.base_ms),
                    ms(r.new_ms)
                );
            }
        } else {
            let _ = writeln!(
                o,
                "\nprofile, {label} against BASE: the subsystems that moved, and the server functions whose share of its CPU changed most (self), with their server CPU ms per transaction:"
            );
            for l in d.text_lines() {
                let _ = writeln!(o, "{l}");
            }
        }
    }
    o
}

/// One output format.
pub trait Exporter {
    /// A comparison of runs.
    fn comparison(&self, c: &Comparison) -> String;
    /// An experiment's deviation tables.
    fn experiment(&self, e: &Experiment, tables: &[Table]) -> String;
    /// An experiment's summary, its lines from [`crate::experiment::summary::lines`] (the
    /// names in them escaped for a terminal); nothing without lines.
    fn summary(&self, lines: &[String]) -> String;
}

/// The exporter of `format`.
pub fn exporter(format: Format) -> &'static dyn Exporter {
    match format {
        Format::Text => &text::Text,
        Format::Markdown => &markdown::Markdown,
        Format::Csv => &csv::Csv,
    }
}

/// A signed figure with one decimal.
fn signed(v: f64) -> String {
    format!("{v:+.1}")
}
