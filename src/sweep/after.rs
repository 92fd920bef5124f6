//! After a level's run: TPC-B's history rows recorded, TPC-C's deferred deliveries drained,
//! and the checks: `run --check`'s consistency conditions and the replicas' convergence, each
//! a note when it holds and INVALID when it does not.

use super::Choice;
use crate::engine::{self, TargetUrl};
use crate::results::{RunResult, RunStatus};
use crate::topology::ReplicaAddr;
use crate::workload::Condition;
use crate::workload::tpcc::sets::TableSets;
use crate::workload::{tpcb, tpcc};
use anyhow::Result;
use std::time::Duration;

/// What the steps after the driver's run share.
pub(super) struct AfterRun<'a> {
    /// The workload run.
    pub(super) choice: &'a Choice,
    /// The level's targets.
    pub(super) targets: &'a [TargetUrl],
    /// The first target.
    pub(super) target: &'a TargetUrl,
    /// TPC-C's table sets.
    pub(super) sets: Option<&'a TableSets>,
    /// The server froze during the run: nothing more is sent to it.
    pub(super) frozen: bool,
    /// Every target is a node of one cluster (one database).
    pub(super) shared_data: bool,
    /// The replicas the first target's primary had at the start.
    pub(super) replicas_at_start: &'a [ReplicaAddr],
}

/// Whether the server froze during the run (the sampler found it unresponsive).
pub(super) fn frozen(result: &Result<RunResult>) -> bool {
    // A frozen server would hang every statement sent after the run: send none.
    result.as_ref().is_ok_and(|r| {
        r.validity
            .reasons
            .iter()
            .any(|r| r.starts_with(crate::sampler::UNRESPONSIVE))
    })
}

/// TPC-B's committed history rows recorded in txbench_meta (not on a frozen server), whatever
/// became of the run; None for other workloads.
pub(super) fn record_history(
    tpcb: Option<&tpcb::Tpcb>,
    after: &AfterRun,
) -> Option<Result<(u64, u64)>> {
    // Whatever became of the run, its committed history rows are in the table: record them.
    tpcb.filter(|_| !after.frozen)
        .map(|t| engine::connect(after.target).and_then(|mut c| t.record(&mut c)))
}

/// TPC-C after the run: its deferred deliveries drained and its report taken again, then
/// with `--check` (not on a frozen server, nor after an interrupted run) its consistency
/// conditions and the replicas' convergence.
pub(super) fn tpcc_after_run(
    t: &tpcc::run::Tpcc,
    result: &mut RunResult,
    after: &AfterRun,
) -> Result<()> {
    drain_deferred(t, result, after.frozen);
    let check = matches!(after.choice, Choice::Tpcc { check: true, .. })
        && !after.frozen
        && result.status != RunStatus::Interrupted;
    if check {
        check_tpcc(t, result, after)?;
    }
    if check {
        replicas_after_run(result, after.target, after.replicas_at_start)?;
    }
    Ok(())
}

/// TPC-C's deferred deliveries drained (none waited for on a frozen server), its report taken
/// again with them, and a note of those still queued.
fn drain_deferred(t: &tpcc::run::Tpcc, result: &mut RunResult, frozen: bool) {
    // Deferred deliveries queued before the end still run (up to 80 s), then the
    // report is taken again with them.
    let left = t.stop_deferred(if frozen {
        Duration::ZERO
    } else {
        Duration::from_secs(80)
    });
    if let Some(summary) = &result.summary {
        use crate::workload::Workload;
        result.workload_report = t.report(summary);
    }
    if left > 0 {
        result.notes.push(format!(
            "{left} deferred deliveries were still queued 80 s after the run"
        ));
    }
}

/// TPC-C's `--check`: conditions 1-10 and 12 in every table set of every target that holds
/// data of its own (every target, or the first when they are nodes of one cluster).
fn check_tpcc(t: &tpcc::run::Tpcc, result: &mut RunResult, after: &AfterRun) -> Result<()> {
    let targets = after.targets;
    // Every target that holds data of its own (not a node of one cluster).
    let checked = if after.shared_data {
        &targets[..1]
    } else {
        targets
    };
    let (several, each_target) = (t.sets.count > 1, checked.len() > 1);
    let mut conditions = Vec::new();
    for (i, url) in (1..).zip(checked) {
        let per_set = tpcc::sets::check_all(url, &t.sets, t.null_dates, &[])?;
        let per_set = per_set.into_iter().map(|(c, _)| c).collect();
        let named = tpcc::sets::name_conditions(&t.sets, per_set);
        conditions.extend(named.into_iter().map(|mut c| {
            if each_target {
                let sep = if several { ", " } else { ": " };
                c.description = format!("target {i}{sep}{}", c.description);
            }
            c
        }));
    }
    check_after_run(
        result,
        &conditions,
        match (several, each_target) {
            (false, false) => "conditions 1-10 and 12 pass",
            (true, false) => "conditions 1-10 and 12 pass in every table set",
            (false, true) => "conditions 1-10 and 12 pass on every target",
            (true, true) => "conditions 1-10 and 12 pass in every table set of every target",
        },
        |c| match c
            .description
            .split_once(": ")
            .filter(|_| several || each_target)
        {
            Some((set, _)) => format!("{} of {set} ({} violating)", c.number, c.violations),
            None => format!("{} ({} violating)", c.number, c.violations),
        },
        ", ",
    );
    Ok(())
}

/// TPC-B after the run: a note when its history rows could not be recorded, else with
/// `--check` (not after an interrupted run) its six conditions and the replicas'
/// convergence.
pub(super) fn tpcb_after_run(
    recorded: Result<(u64, u64)>,
    result: &mut RunResult,
    after: &AfterRun,
) -> Result<()> {
    // `check tpcb` compares the history with what every run committed.
    if let Err(e) = recorded {
        result.notes.push(format!(
            "the history rows this run committed could not be recorded ({e:#}): `check tpcb` will find more rows than recorded"
        ));
    } else if matches!(after.choice, Choice::Tpcb { check: true, .. })
        && result.status != RunStatus::Interrupted
    {
        let mut conn = engine::connect(after.target)?;
        let state = tpcb::ready(&mut conn, None)?;
        let conditions = tpcb::check(&mut conn, &state)?;
        check_after_run(
            result,
            &conditions,
            "all 6 conditions pass",
            |c| format!("{} ({}: {})", c.number, c.description, c.detail),
            "; ",
        );
        replicas_after_run(result, after.target, after.replicas_at_start)?;
    }
    Ok(())
}

/// `run --check`: a note when every condition holds, else INVALID naming the failed ones
/// (each as `describe` puts it, joined by `sep`).
pub(super) fn check_after_run(
    result: &mut RunResult,
    conditions: &[Condition],
    passed: &str,
    describe: impl Fn(&Condition) -> String,
    sep: &str,
) {
    let failed: Vec<String> = conditions
        .iter()
        .filter(|c| !c.passed())
        .map(describe)
        .collect();
    if failed.is_empty() {
        result
            .notes
            .push(format!("consistency check after the run: {passed}"));
    } else {
        result.validity.valid = false;
        result.validity.reasons.push(format!(
            "the consistency check after the run failed: condition(s) {}",
            failed.join(sep)
        ));
    }
}

/// `run --check` against a primary: every replica converged (a note), else INVALID.
///
/// `at_start`: the replicas the primary had when the run began (one that died since fails).
pub(super) fn replicas_after_run(
    result: &mut RunResult,
    url: &TargetUrl,
    at_start: &[ReplicaAddr],
) -> Result<()> {
    let mut conn = engine::connect(url)?;
    for c in crate::topology::verify_replicas_of(
        &mut conn,
        url,
        at_start,
        crate::topology::REPLICA_CATCH_UP,
    )? {
        if c.ok() {
            result
                .notes
                .push(format!("replica {}: {}", c.replica, c.describe()));
        } else {
            result.validity.valid = false;
            result.validity.reasons.push(format!(
                "replica {} did not converge after the run: {}",
                c.replica,
                c.describe()
            ));
        }
    }
    Ok(())
}
