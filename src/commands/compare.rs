//! `txbench compare BASE NEW…`: the runs loaded, the comparison made (analysis::compare),
//! printed as text, Markdown or CSV (report::export) or JSON.

use super::Output;
use crate::analysis::compare::rows;
use crate::analysis::profile::{self, ProfileDiff};
use crate::analysis::stats::COMPARE_METHOD;
use crate::error::EXIT_OK;
use crate::report::export::{self, Comparison};
use crate::results::Stored;
use anyhow::{Result, bail};
use std::path::PathBuf;

/// Functions listed per profile difference.
const PROFILE_ROWS: usize = 12;

/// How `compare` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON object.
    Json,
    /// A table: text, Markdown or CSV.
    Export(export::Format),
}

/// `txbench compare`.
pub fn compare(
    out: &Output,
    base: &PathBuf,
    new: &[PathBuf],
    format: Format,
    force: bool,
) -> Result<i32> {
    let b = Stored::load(base)?;
    let n: Vec<Stored> = new.iter().map(|p| Stored::load(p)).collect::<Result<_>>()?;
    for (p, s) in new.iter().zip(&n) {
        if s.workload() != b.workload() && !force {
            bail!(
                "{} ran {} but BASE {} ran {}: comparing different workloads tells nothing (--force to compare anyway)",
                p.display(),
                s.workload(),
                base.display(),
                b.workload()
            );
        }
    }
    let rows = rows(&b, &n, force);
    if rows.iter().all(|r| r.new.iter().all(Option::is_none)) {
        bail!(
            "no thread count in common between BASE {} and {}",
            base.display(),
            new.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    // Where BASE and a NEW are single runs with server profiles: what changed in them.
    let profiles: Vec<(String, ProfileDiff)> = match &b {
        Stored::Run(br) => profile::server_shares(base, br)
            .map(|(bs, bms)| {
                n.iter()
                    .zip(new)
                    .enumerate()
                    .filter_map(|(i, (s, p))| match s {
                        Stored::Run(nr) => {
                            let (ns, nms) = profile::server_shares(p, nr)?;
                            Some((
                                format!("NEW{}", i + 1),
                                ProfileDiff::of(&bs, &ns, bms, nms, PROFILE_ROWS),
                            ))
                        }
                        Stored::Sweep(..) => None,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        Stored::Sweep(..) => Vec::new(),
    };
    let format = if out.json { Format::Json } else { format };
    let names: Vec<String> = new.iter().map(|p| p.display().to_string()).collect();
    // What is compared, in words: BASE's benchmark and each NEW's.
    let benchmarks: Vec<String> = n.iter().map(name).collect();
    let labels: Vec<String> = (1..=new.len()).map(|i| format!("NEW{i}")).collect();
    let story = crate::analysis::story::comparison(&rows, &labels, &profiles);
    let text = match format {
        Format::Json => format!(
            "{}\n",
            serde_json::json!({
                "workload": b.workload(), "method": COMPARE_METHOD,
                "base": base, "new": new, "rows": rows, "profiles": profiles,
                "summary": story,
            })
        ),
        Format::Export(f) => {
            let e = export::exporter(f);
            let tables = e.comparison(&Comparison {
                rows: &rows,
                benchmark: &name(&b),
                benchmarks: &benchmarks,
                base: &base.display().to_string(),
                names: &names,
                profiles: &profiles,
            });
            // The story first where it is pasted (Markdown), last where a terminal leaves
            // it in view (as `experiment results`).
            if f == export::Format::Markdown {
                format!("{}{tables}", e.summary(&story))
            } else {
                format!("{tables}{}", e.summary(&story))
            }
        }
    };
    // The runs compared may be anyone's: what they name reaches the terminal escaped.
    print!("{}", crate::report::text::shown_lines(&text));
    Ok(EXIT_OK)
}

/// A run's or a sweep's benchmark in words, without a thread count when a sweep ran several.
fn name(s: &Stored) -> String {
    let (r, threads) = match s {
        Stored::Run(r) => (r.as_ref(), Some(r.config.threads)),
        Stored::Sweep(sw, runs) => (
            &runs[0],
            match sw.levels.as_slice() {
                [t] => Some(*t),
                _ => None,
            },
        ),
    };
    crate::store::benchmark_name(
        s.workload(),
        &serde_json::to_string(&r.config.workload_options).unwrap_or_default(),
        threads,
        crate::store::engine_of(r),
    )
}
