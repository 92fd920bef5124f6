//! Checks after a level: `run --check`'s consistency conditions and the replicas' convergence,
//! each a note when it holds and INVALID when it does not.

use crate::engine;
use crate::workload::Condition;
use anyhow::Result;

/// `run --check`: a note when every condition holds, else INVALID naming the failed ones
/// (each as `describe` puts it, joined by `sep`).
pub(super) fn check_after_run(
    result: &mut crate::results::RunResult,
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
    result: &mut crate::results::RunResult,
    url: &engine::TargetUrl,
    at_start: &[crate::topology::ReplicaAddr],
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
