//! A replay cell (a plan's workload `replay`): `txbench replay` on the cell's sandbox
//! primary in place of `txbench run`, the replica's catch-up its figures: New-Orders and
//! transactions applied per minute, compared across variants as throughput is (so
//! `slave_parallel_threads`, `slave_parallel_mode` or group commit settings can be).

use crate::experiment::plan::Pair;
use crate::experiment::{Cell, CellStatus, Experiment};
use crate::results::replay::{FILE, Replay};
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

/// The replay in `dir`/run/replay.json into `cell`: done, or INVALID with its reasons.
/// False when there is none to read.
pub(super) fn record(cell: &mut Cell, dir: &Path) -> bool {
    let read = std::fs::read(dir.join("run").join(FILE)).ok();
    let Some(r) = read.and_then(|b| serde_json::from_slice::<Replay>(&b).ok()) else {
        return false;
    };
    cell.nopm = Some(r.catch_up.nopm);
    cell.tps = Some(r.catch_up.tpm / 60.0);
    if r.valid {
        cell.status = CellStatus::Done;
    } else {
        cell.status = CellStatus::Invalid;
        cell.reasons = r.reasons;
    }
    true
}
