//! The report's co-location tables (issue 40): per workload and level each instance alone,
//! their sum, together, the ratio with its interval and verdict, and together's shares and
//! CPU; the cells as [`crate::experiment::coloc::table_rows`] writes them, escaped.

use super::super::page::esc;
use crate::experiment::{Experiment, coloc};
use std::fmt::Write as _;

/// The co-location tables of `e` (nothing when it compares variants).
pub(super) fn tables_html(h: &mut String, e: &Experiment) {
    for t in coloc::tables(e) {
        let _ = write!(h, "<h3>{}</h3><table>", esc(&coloc::heading(e, &t)));
        for (i, row) in coloc::table_rows(&t).iter().enumerate() {
            let cell = if i == 0 { "th" } else { "td" };
            h.push_str("<tr>");
            for (j, v) in row.iter().enumerate() {
                let class = if i > 0 && j > 0 { " class=\"n\"" } else { "" };
                let _ = write!(h, "<{cell}{class}>{}</{cell}>", esc(v));
            }
            h.push_str("</tr>");
        }
        h.push_str("</table>");
    }
}
