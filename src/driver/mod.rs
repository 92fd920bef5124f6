//! The driver: the run of one process's virtual users, interval by interval. Here the run's
//! life as a sequence of steps; the virtual users as one in users.rs (connect, release,
//! halt, join), the opening in opening.rs (clock, samplers, --rate schedule, the result),
//! the run loop's steps in measure.rs; one virtual user in worker.rs, this process's part in
//! part.rs, the INVALID rules in validity.rs and stall.rs, the end of a run's server figures
//! in closing.rs.

mod closing;
mod cut;
mod fired;
mod measure;
mod opening;
pub mod pacer;
mod part;
mod signal;
mod stall;
mod targets;
mod users;
mod validity;
mod worker;

pub use part::{Part, Targets};
pub use signal::{install_signal_handler, interrupted};
pub use validity::{SATURATED_CPU_PCT, saturation};
pub use worker::connect_session;

use crate::config::RunConfig;
use crate::results::{IntervalRow, RunDir, RunResult};
use crate::workload::Workload;
use anyhow::Result;
use measure::Measure;
use opening::Clock;
use std::sync::Arc;
use std::time::Duration;
use users::Users;

/// What the run loop shows as it goes.
pub trait Display {
    /// A finished interval.
    fn interval(&self, row: &IntervalRow);
    /// Progress within the run (for a progress bar).
    fn tick(&self, elapsed: Duration, total: Duration);
    /// A line for people.
    fn note(&self, line: &str);
    /// The run ended: clear what is on screen (a progress bar) before its result is shown.
    fn finish(&self) {}
}

/// Runs `workload` as `cfg` says, writing results into `out`. Returns the final result
/// (its validity and status decide the exit code). The run's life, step by step: its
/// virtual users connect (and wait for --start-at), the clock starts, a sampler per target
/// takes its baseline, the --rate schedule starts, the users are released, then interval
/// after interval (measure.rs) until the run finishes, and the users are left.
pub fn run(
    cfg: &RunConfig,
    part: &Part,
    targets: &Targets,
    workload: Arc<dyn Workload>,
    preflight: crate::preflight::Preflight,
    out: &mut RunDir,
    display: &dyn Display,
) -> Result<RunResult> {
    install_signal_handler();
    let workload = workload.as_ref();
    let users = Users::connect(cfg, part, targets, workload, display)?;
    users.wait_for_start(part, display);
    let clock = Clock::start(cfg);
    let samplers = match opening::start_samplers(cfg, part, targets, workload, &clock, out.path()) {
        Ok(samplers) => samplers,
        Err(e) => {
            users.abandon();
            return Err(e);
        }
    };
    let schedule = opening::start_pacer(cfg, part, &clock, &users)?;
    let names = workload.kinds();
    users.release(
        part,
        clock.warmup.is_zero(),
        workload,
        schedule.as_ref().map(|p| &p.rx),
    );
    let result = opening::new_result(cfg, part, &clock, preflight, workload, &names, users.n);
    let given = measure::Given {
        cfg,
        part,
        targets,
        workload,
        display,
        names,
    };
    let mut run = Measure::new(given, clock, users, samplers, result);
    while !run.interval(out)? {}
    run.leave(schedule, out)
}

#[cfg(test)]
mod tests;
