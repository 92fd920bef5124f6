//! `txbench merge`: the shards of one run (each a run directory written by `run --shard K/N`)
//! into one ordinary run directory, or the shards of a sweep level by level. Intervals are
//! aligned by their start in the database server's clock; counts are summed; percentiles come
//! from the shards' latency.hlog histograms merged exactly, never from averaged percentiles;
//! the verdict is the conjunction of the shards'. Results side only: no database is touched.

use crate::analysis::cross_checks::{Ends, InFlight, PG_TRANSACTIONS, cross_checks};
use crate::metrics::{LatencyStats, server::ServerRow};
use crate::results::{
    Client, HlogRecord, IntervalRow, KindRow, KindSummary, MergeRecord, MergedShard, Phase, RunDir,
    RunResult, RunStatus, ShardRecord, Stored, Summary, Sweep, SweepLevel, Validity,
    WorkloadReport, read_hlog,
};
use anyhow::{Context, Result, bail};
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

mod interval;
mod runs;
mod summary;

use interval::{Acc, classes, combined, merge_interval, new_hist};
pub use runs::merge_runs;
use runs::{Part, ms_key};
use summary::{merge_summary, server_figures};

/// Scores the merged run the way its workload does (TPC-C's scorecard), from the merged
/// summary and each shard's report: given by the caller, which knows the workloads.
pub type Scorer<'a> = &'a dyn Fn(&Summary, &[&RunResult]) -> (Option<WorkloadReport>, Vec<String>);

/// What a merge wrote.
pub enum Merged {
    /// One run.
    Run(Box<RunResult>),
    /// A sweep, its merged levels, and why it ends before its last level (if it does).
    Sweep(Box<Sweep>, Vec<RunResult>, Vec<String>),
}

/// The files of the sampling shard copied beside the merged result.
const SERVER_FILES: &[&str] = &["server.csv", "server-status.jsonl", "waits.csv"];

/// Merges the shard directories `dirs` (runs, or sweeps) into `out`.
pub fn merge(dirs: &[PathBuf], out: &Path, score: Scorer) -> Result<Merged> {
    if dirs.is_empty() {
        bail!("merge: no shard directory given");
    }
    if out.join("result.json").exists() || out.join(Sweep::FILE).exists() {
        bail!(
            "--out {}: holds a run already; choose another directory",
            out.display()
        );
    }
    if dirs.iter().any(|d| same_dir(d, out)) {
        bail!(
            "--out {}: is one of the shard directories; choose another",
            out.display()
        );
    }
    let stored: Vec<Stored> = dirs
        .iter()
        .map(|d| Stored::load(d).with_context(|| format!("merge: {}", d.display())))
        .collect::<Result<_>>()?;
    let sweeps = stored
        .iter()
        .filter(|s| matches!(s, Stored::Sweep(..)))
        .count();
    if sweeps == 0 {
        return Ok(Merged::Run(Box::new(merge_runs(dirs, out, score)?)));
    }
    if sweeps != stored.len() {
        bail!(
            "merge: some directories are sweeps and some single runs: give the shards of one run"
        );
    }
    merge_sweeps(dirs, &stored, out, score)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The sweeps' levels that every shard ran, each merged into `out`/tNNNNN.
fn merge_sweeps(dirs: &[PathBuf], stored: &[Stored], out: &Path, score: Scorer) -> Result<Merged> {
    let sweeps: Vec<&Sweep> = stored
        .iter()
        .filter_map(|s| match s {
            Stored::Sweep(s, _) => Some(s.as_ref()),
            Stored::Run(_) => None,
        })
        .collect();
    let first = sweeps[0];
    for (s, d) in sweeps.iter().zip(dirs).skip(1) {
        if s.workload != first.workload || s.levels != first.levels {
            bail!(
                "merge: {} is a sweep of {} over {:?} threads, {} of {} over {:?}: not shards of one sweep",
                d.display(),
                s.workload,
                s.levels,
                dirs[0].display(),
                first.workload,
                first.levels
            );
        }
    }
    crate::owned::make_dir(out, "--out")?;
    let mut merged = Sweep {
        schema_version: crate::results::SCHEMA_VERSION,
        workload: first.workload.clone(),
        workload_options: first.workload_options.clone(),
        levels: first.levels.clone(),
        started_at: sweeps
            .iter()
            .map(|s| s.started_at.clone())
            .min()
            .unwrap_or_default(),
        status: RunStatus::Completed,
        args: first.args.clone(),
        runs: Vec::new(),
    };
    let mut runs = Vec::new();
    let mut stopped = Vec::new();
    for &threads in &first.levels {
        let level_dirs: Option<Vec<PathBuf>> = sweeps
            .iter()
            .zip(dirs)
            .map(|(s, d)| {
                s.runs
                    .iter()
                    .find(|l| l.threads == threads)
                    .map(|l| d.join(&l.dir))
            })
            .collect();
        let Some(level_dirs) = level_dirs else {
            // A level some shard has not run: the merged sweep ends before it.
            merged.status = RunStatus::Interrupted;
            break;
        };
        let name = format!("t{threads:05}");
        match merge_runs(&level_dirs, &out.join(&name), score) {
            Ok(r) => {
                merged.runs.push(SweepLevel::of(&r, &name));
                runs.push(r);
            }
            // The levels merged so far stand; the sweep ends before this one.
            Err(e) if !runs.is_empty() => {
                let _ = std::fs::remove_dir_all(out.join(&name));
                merged.status = RunStatus::Interrupted;
                stopped.push(format!(
                    "the level of {threads} threads is not merged, nor any after it: {}",
                    crate::error::one_line(&e)
                ));
                break;
            }
            Err(e) => return Err(e.context(format!("the level of {threads} threads"))),
        }
    }
    if sweeps.iter().any(|s| s.status != RunStatus::Completed)
        && merged.status == RunStatus::Completed
    {
        merged.status = RunStatus::Interrupted;
    }
    if runs.is_empty() {
        bail!("merge: no level was run by every shard: nothing to merge");
    }
    merged.write(out)?;
    Ok(Merged::Sweep(Box::new(merged), runs, stopped))
}
