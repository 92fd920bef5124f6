//! The steps of one cell of [`super::execute_cells`], in the order it takes them: started
//! (its directory made afresh, its data reset), its `txbench run` command line, its result
//! recorded and said, and after the last cell of a block, a sequential experiment's look.

use super::{Progress, Runner, log_error};
use crate::engine::TargetUrl;
use crate::experiment::plan::sets_label;
use crate::experiment::{Cell, CellStatus, Experiment, Stopped, sequential};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::time::Instant;

/// One cell under way: what it runs, where its files go, and how its reset went.
pub(super) struct CellRun {
    /// Its index in the experiment's cells.
    pub(super) index: usize,
    /// Its variant.
    pub(super) variant: String,
    /// Its workload's label.
    pub(super) workload: String,
    /// Its thread level.
    pub(super) threads: u32,
    /// Its directory.
    pub(super) dir: PathBuf,
    /// The child's output: `dir`/run.log.
    pub(super) log: PathBuf,
    /// When it started (its directory made, its data not yet reset).
    pub(super) started: Instant,
    /// The servers it runs on.
    pub(super) targets: Vec<TargetUrl>,
    /// Seconds the reset took.
    pub(super) reset_s: f64,
    /// Of those, the seconds restoring the snapshot took.
    pub(super) restore_s: Option<f64>,
    /// Its (first) sandbox's name, which a replay names.
    pub(super) sandbox: String,
    /// A replay's cell (cells/replay.rs): `txbench replay` names its sandbox, so `targets`
    /// is empty.
    pub(super) replay: bool,
}

/// Starts cell `i`: its directory made afresh, it marked running, its data reset.
pub(super) fn start_cell(r: &Runner<'_>, e: &mut Experiment, i: usize) -> Result<CellRun> {
    let (variant, workload, threads) = (
        e.cells[i].variant.clone(),
        e.cells[i].workload.clone(),
        e.cells[i].threads,
    );
    let cell_dir = r.dir.join(&e.cells[i].dir);
    if cell_dir.exists() {
        std::fs::remove_dir_all(&cell_dir)
            .with_context(|| format!("removing the unfinished {}", cell_dir.display()))?;
    }
    std::fs::create_dir_all(&cell_dir)?;
    e.cells[i].status = CellStatus::Running;
    e.write(r.dir)?;
    let t = Instant::now();
    let log = cell_dir.join("run.log");
    let (mut targets, reset_s, restore_s) = r.reset(e, &variant, &workload, &log)?;
    // Co-location: every instance runs, the cell drives those it names.
    let driven = e.cells[i].instances.clone();
    if !driven.is_empty() {
        targets = driven
            .iter()
            .map(|&k| targets.get(k as usize - 1).cloned())
            .collect::<Option<Vec<_>>>()
            .context("a co-location cell names an instance that did not start")?;
    }
    let sandbox = r
        .sandboxes(e, &variant, &workload)
        .into_iter()
        .next()
        .unwrap_or_default();
    let replay = r.is_replay(&workload);
    if replay {
        targets.clear();
    }
    Ok(CellRun {
        sandbox,
        replay,
        index: i,
        variant,
        workload,
        threads,
        dir: cell_dir,
        log,
        started: t,
        targets,
        reset_s,
        restore_s,
    })
}

/// The `txbench run` command line of `cell` (`txbench replay` for a replay's).
pub(super) fn run_args(r: &Runner<'_>, e: &Experiment, cell: &CellRun) -> Result<Vec<String>> {
    let pair = e
        .plan
        .pair(&cell.variant, &cell.workload)
        .context("no such variant and workload")?
        .clone();
    if cell.replay {
        let labels = store_labels(e, cell, &pair.run);
        let at = (cell.sandbox.as_str(), cell.threads, cell.dir.as_path());
        return Ok(super::replay::args(e, at, &pair, labels));
    }
    let mut args = vec!["run".to_string(), r.workload_name(&cell.workload)?];
    args.extend(pair.run.iter().cloned());
    // Co-location: `threads` virtual users per driven instance (one target each; a run
    // deals its users round-robin over its targets).
    let driven = e.cells[cell.index].instances.len().max(1) as u32;
    args.extend([
        "--threads".into(),
        (cell.threads * driven).to_string(),
        "--time".into(),
        e.plan.duration.to_string(),
        "--warmup".into(),
        e.plan.warmup.to_string(),
        "--out".into(),
        cell.dir.join("run").display().to_string(),
    ]);
    args.extend(store_labels(e, cell, &pair.run));
    if let [_, ..] = e.cells[cell.index].instances.as_slice() {
        let role = crate::experiment::coloc::dir_suffix(&e.cells[cell.index].instances);
        if !sets_label(&pair.run, "co_location") {
            args.extend(["--label".into(), format!("co_location={}", &role[1..])]);
        }
    }
    if e.plan.profile {
        args.push("--profile".into());
    }
    Ok(args)
}

/// For the results store: which experiment and variant the cell's run was (unless the
/// plan's own run options label them already: a key given twice would fail every cell).
fn store_labels(e: &Experiment, cell: &CellRun, run: &[String]) -> Vec<String> {
    let mut args = Vec::new();
    for (key, value) in [
        ("experiment", e.name.as_str()),
        ("variant", cell.variant.as_str()),
    ] {
        if !sets_label(run, key) {
            args.extend(["--label".into(), format!("{key}={value}")]);
        }
    }
    args
}

/// Records how `cell` went: its times, and its figures when its run (or replay) finished
/// with a result; else it is pending again and the execution stops with the child's error.
pub(super) fn record_result(
    r: &Runner<'_>,
    e: &mut Experiment,
    cell: &CellRun,
    code: Option<i32>,
) -> Result<()> {
    let c = &mut e.cells[cell.index];
    c.reset_s = Some(cell.reset_s);
    c.restore_s = cell.restore_s;
    c.elapsed_s = Some(cell.started.elapsed().as_secs_f64());
    let recorded = matches!(code, Some(0) | Some(3))
        && if cell.replay {
            super::replay::record(c, &cell.dir)
        } else {
            crate::results::RunResult::load(&cell.dir.join("run"))
                .map(|res| record_figures(c, &res))
                .is_ok()
        };
    if !recorded {
        c.status = CellStatus::Pending;
        e.write(r.dir)?;
        bail!(
            "cell {} ({}, {}, {} threads) failed: {}",
            e.cells[cell.index].order,
            cell.variant,
            cell.workload,
            cell.threads,
            log_error(&cell.log)
        );
    }
    Ok(())
}

/// A finished run's figures into its cell, which is done, or INVALID with the reasons.
pub(super) fn record_figures(cell: &mut Cell, res: &crate::results::RunResult) {
    let stability = crate::results::Stability::of_run(res);
    cell.tps = stability
        .map(|s| s.mean_tps)
        .or_else(|| res.summary.as_ref().map(|s| s.tps));
    // NOPM as tps is: the mean of the steady-state intervals.
    cell.nopm = crate::analysis::compare::steady_nopm(res)
        .filter(|v| !v.is_empty())
        .map(|v| crate::analysis::stats::mean(&v))
        .or_else(|| res.throughput().rate.map(|r| r.per_minute));
    cell.p95_ms = res.summary.as_ref().map(|s| s.response.p95_ms);
    cell.host = crate::experiment::host::HostLoad::of(res);
    cell.shares = crate::experiment::coloc::shares_of(cell, res.summary.as_ref());
    if let Some(srv) = res.summary.as_ref().and_then(|s| s.server.as_ref()) {
        cell.per_transaction = srv.per_transaction.clone();
        cell.per_new_order = srv.per_new_order.clone();
    }
    if res.validity.valid {
        cell.status = CellStatus::Done;
    } else {
        cell.status = CellStatus::Invalid;
        cell.reasons = res.validity.reasons.clone();
    }
}

/// Says what `cell` measured, and about how long the cells left will take.
pub(super) fn note_cell(r: &Runner<'_>, e: &Experiment, cell: &CellRun, progress: &Progress) {
    let left = e.remaining();
    let per = progress.began.elapsed().as_secs_f64() / progress.ran as f64;
    let c = &e.cells[cell.index];
    (r.note)(&format!(
        "cell {}/{}: {} {} {} threads, repetition {}: {}{}{} (reset {:.1} s; about {} left)",
        c.order,
        progress.total,
        crate::experiment::coloc::cell_label(c),
        cell.workload,
        cell.threads,
        c.repetition,
        match (c.nopm, c.tps) {
            (Some(n), _) => format!("{n:.0} NOPM"),
            (None, Some(v)) => format!("{v:.1} tps"),
            _ => "-".into(),
        },
        if c.status == CellStatus::Invalid {
            format!(", INVALID: {}", c.reasons.join("; "))
        } else {
            String::new()
        },
        // A cell run beside other work says so as it ends (issue 41).
        c.host
            .filter(crate::experiment::host::HostLoad::disturbed)
            .map_or(String::new(), |h| format!(
                ", beside other work: {}",
                h.text()
            )),
        cell.reset_s,
        humantime::format_duration(std::time::Duration::from_secs((per * left as f64) as u64))
    ));
}

/// Whether cell `i` is the last of its block (repetition).
pub(super) fn block_done(e: &Experiment, i: usize) -> bool {
    e.cells
        .get(i + 1)
        .is_none_or(|next| next.repetition != e.cells[i].repetition)
}

/// A sequential experiment's look after a complete block: true when it stops there (the
/// cells of later blocks dropped, why recorded), else it says what is still open.
pub(super) fn sequential_stops(r: &Runner<'_>, e: &mut Experiment) -> Result<bool> {
    let Some((stop, look)) = sequential::look(e) else {
        return Ok(false);
    };
    let blocks = e.complete_blocks();
    match stop {
        Some(reason) => {
            (r.note)(&format!(
                "stopping after {blocks} block(s): {}",
                reason.text()
            ));
            e.cells.retain(|c| c.repetition <= blocks);
            e.stopped = Some(Stopped {
                reason,
                blocks,
                open: look.open,
                widest_pct: look.widest_pct,
                without: look.without,
            });
            // Stopped on the clock, the last look spends what was left: what is open there.
            let last = sequential::look(e).filter(|_| reason == sequential::Stop::MaxTime);
            if let (Some((_, last)), Some(st)) = (last, e.stopped.as_mut()) {
                (st.open, st.widest_pct, st.without) = (last.open, last.widest_pct, last.without);
            }
            e.write(r.dir)?;
            Ok(true)
        }
        None => {
            (r.note)(&format!(
                "after {blocks} block(s): {} comparison(s) open on {}{} (precision asked: ±{} %); another block",
                look.open,
                e.plan.primary,
                match look.without {
                    0 => format!(", the widest {}", sequential::half_width(look.widest_pct)),
                    n if n == look.open => ", none with an interval yet".to_string(),
                    n => format!(
                        ", the widest {}, {n} without an interval yet",
                        sequential::half_width(look.widest_pct)
                    ),
                },
                e.plan.sequential.as_ref().map_or(0.0, |s| s.precision_pct)
            ));
            Ok(false)
        }
    }
}
