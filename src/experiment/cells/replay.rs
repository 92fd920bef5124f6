//! A replay cell (a plan's workload `replay`): `txbench replay` on the cell's sandbox
//! primary in place of `txbench run`, the replica's catch-up its figures: New-Orders and
//! transactions applied per minute, compared across variants as throughput is (so
//! `slave_parallel_threads`, `slave_parallel_mode` or group commit settings can be). With
//! `run = ["--balanced", …]` each cell searches for the replica's balanced replay speed
//! instead, and that is its figure.

use crate::experiment::plan::Pair;
use crate::experiment::{Cell, CellStatus, Experiment};
use crate::results::replay::{BALANCED_FILE, Balanced, FILE, Replay};
use std::path::Path;

/// `txbench replay` for a cell: the primary (the sandbox `sandbox`) runs the cell's
/// `threads` for the plan's duration (a replay has no warm-up: the applier is stopped from
/// the run's first transaction), with the plan's `run` options and the store's `labels`, its
/// output in the cell's `run/` (under `dir`).
pub(super) fn args(
    e: &Experiment,
    (sandbox, threads, dir): (&str, u32, &Path),
    pair: &Pair,
    labels: Vec<String>,
) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "replay".into(),
        "--server".into(),
        sandbox.into(),
        "--threads".into(),
        threads.to_string(),
        "--time".into(),
        e.plan.duration.to_string(),
        "--out".into(),
        dir.join("run").display().to_string(),
    ];
    args.extend(pair.run.iter().cloned());
    args.extend(labels);
    args
}

/// The replay in `dir`/run/ into `cell`: done, or INVALID with its reasons. Its figure is
/// the catch-up's New-Orders applied per minute (replay.json), or the balanced replay speed
/// (balanced.json, from `run = ["--balanced", …]`). False when there is none to read.
pub(super) fn record(cell: &mut Cell, dir: &Path) -> bool {
    let run = dir.join("run");
    if let Some(b) = read::<Balanced>(&run.join(BALANCED_FILE)) {
        record_balanced(cell, b);
        return true;
    }
    let Some(r) = read::<Replay>(&run.join(FILE)) else {
        return false;
    };
    cell.nopm = Some(r.catch_up.nopm);
    cell.tps = Some(r.catch_up.tpm / 60.0);
    judge(cell, r.valid, r.reasons);
    true
}

/// The child's JSON at `path`, read as every stored file is (capped, never through a
/// symbolic link); None when it is absent or not such a record.
fn read<T: serde::de::DeserializeOwned>(path: &Path) -> Option<T> {
    let bytes = crate::results::read_json(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// A balanced search's figure: the fastest probe the replica kept up with (its NOPM, and
/// its transactions per second). A search in which the replica kept up with no probe has no
/// figure: INVALID, saying below what it lies.
fn record_balanced(cell: &mut Cell, b: Balanced) {
    let kept = b
        .probes
        .iter()
        .filter(|p| p.kept_up && b.balanced_nopm == Some(p.primary_run.nopm))
        .map(|p| p.primary_run.tpm / 60.0)
        .next();
    cell.nopm = b.balanced_nopm;
    cell.tps = kept;
    let mut reasons = b.reasons;
    if b.balanced_nopm.is_none() && reasons.is_empty() {
        reasons.push(format!(
            "the replica kept up with none of the {} probe(s): its balanced replay speed lies below {} NOPM (give the workload a lower --rate to start from)",
            b.probes.len(),
            b.behind_nopm.map_or("the slowest probe's".into(), |n| format!("{n:.0}"))
        ));
    }
    judge(cell, reasons.is_empty(), reasons);
}

fn judge(cell: &mut Cell, valid: bool, reasons: Vec<String>) {
    if valid {
        cell.status = CellStatus::Done;
    } else {
        cell.status = CellStatus::Invalid;
        cell.reasons = reasons;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::replay::{PrimaryRun, Probe};

    fn cell() -> Cell {
        serde_json::from_value(serde_json::json!({
            "order": 1, "repetition": 1, "variant": "a", "workload": "replay",
            "threads": 2, "dir": "cells/1", "status": "pending"
        }))
        .unwrap()
    }

    fn probe(nopm: f64, kept_up: bool) -> Probe {
        Probe {
            run_dir: "probe".into(),
            rate: None,
            primary_run: PrimaryRun {
                seconds: 3.0,
                new_orders: 1,
                nopm,
                tpm: nopm * 2.0,
                valid: true,
            },
            written: 1,
            peak_backlog: 0,
            lag_s: 0.0,
            drain_s: 0.0,
            kept_up,
        }
    }

    fn search(probes: Vec<Probe>, balanced: Option<f64>, behind: Option<f64>) -> Balanced {
        Balanced {
            primary: "p".into(),
            replica: "p-r1".into(),
            started_at: String::new(),
            tolerance_s: 0.5,
            probes,
            balanced_nopm: balanced,
            behind_nopm: behind,
            valid: true,
            reasons: vec![],
        }
    }

    #[test]
    fn a_balanced_cell_takes_the_fastest_probe_kept_up_with() {
        let mut c = cell();
        let probes = vec![probe(900.0, false), probe(600.0, true), probe(500.0, true)];
        record_balanced(&mut c, search(probes, Some(600.0), Some(900.0)));
        assert_eq!(c.status, CellStatus::Done);
        assert_eq!((c.nopm, c.tps), (Some(600.0), Some(20.0)));
    }

    #[test]
    fn a_search_that_never_kept_up_has_no_figure() {
        let mut c = cell();
        record_balanced(&mut c, search(vec![probe(900.0, false)], None, Some(900.0)));
        assert_eq!(c.status, CellStatus::Invalid);
        assert_eq!(c.nopm, None);
        assert!(c.reasons[0].contains("below 900 NOPM"), "{:?}", c.reasons);
    }
}
