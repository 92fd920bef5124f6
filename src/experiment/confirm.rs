//! `history --confirm`: a suspected step between two builds measured again as an
//! interleaved, repeated experiment (seed 002's harness, with statistics). The run before the
//! step and the first run after it give the two builds (the server programs they recorded,
//! checked against their SHA-256) and the benchmark (the `prepare` and `run` command lines
//! they recorded); both builds then run it on identical data, restored before every cell.

use super::plan::{Plan, Reset, Variant, Workload};
use crate::results::RunResult;
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

/// `run` options the confirming plan sets itself, or that name the original server or
/// place: dropped from the recorded command line, with their values.
const SET_BY_PLAN: &[&str] = &[
    "--threads",
    "--time",
    "--warmup",
    "--events",
    "--label",
    "--server",
    "--shard",
    "--start-at",
    "--seed",
    "--profile",
    "--report-interval",
];

/// One side of the step: a stored run and the build it measured.
#[derive(Debug, Clone)]
pub struct Side {
    /// The run's directory.
    pub dir: PathBuf,
    /// Its server program, as recorded.
    pub binary: PathBuf,
    /// Its SHA-256, as recorded.
    pub sha256: String,
}

/// The build a stored run measured, checked to be the same file still: a build rebuilt in
/// place since would confirm nothing.
pub fn side(dir: &Path, r: &RunResult) -> Result<Side> {
    let host = &r.server.host;
    let (Some(binary), Some(sha)) = (host.get("server_binary"), host.get("server_binary_sha256"))
    else {
        bail!(
            "--confirm: the run in {} recorded no server program (the server did not run on this host, or was not readable): the builds must be here to measure again",
            dir.display()
        );
    };
    if r.server.is_postgres() {
        bail!(
            "--confirm: the run in {} measured PostgreSQL; builds are compared on MariaDB and MySQL sandboxes (`server start --binary`)",
            dir.display()
        );
    }
    let binary = PathBuf::from(binary);
    let now = crate::server::binary::sha256(&binary).map_err(|e| {
        anyhow::anyhow!(
            "--confirm: {}, the build of the run in {}: {e:#}",
            binary.display(),
            dir.display()
        )
    })?;
    if &now != sha {
        bail!(
            "--confirm: {} is not the build the run in {} measured (its SHA-256 is {}, the run's {}): it was rebuilt since",
            binary.display(),
            dir.display(),
            &now[..12],
            sha.get(..12).unwrap_or(sha)
        );
    }
    Ok(Side {
        dir: dir.to_path_buf(),
        binary,
        sha256: sha.clone(),
    })
}

/// `args` without the options in `drop` (and their values), and without its first word
/// when that is the workload's name.
fn without(args: &[String], workload: &str, drop: &[&str]) -> Vec<String> {
    let rest = match args.first() {
        Some(w) if w == workload => &args[1..],
        _ => args,
    };
    crate::config::strip_options(rest, drop, &[])
}

/// The plan that measures `before`'s build against `after`'s, for the benchmark both runs
/// recorded: `repetitions` blocks of one cell per build, in random order, each from a copy
/// of the same prepared data.
pub fn plan(
    before: (&Side, &RunResult),
    after: (&Side, &RunResult),
    repetitions: u32,
    description: &str,
) -> Result<Plan> {
    let (b, a) = (before.1, after.1);
    for (side, r) in [before, after] {
        if r.config.args.is_empty() {
            bail!(
                "--confirm: the run in {} recorded no command line (an older txbench ran it): run the two builds with `txbench experiment run` and a plan of two `binary` variants",
                side.dir.display()
            );
        }
        if r.config.prepare_args.is_empty() {
            bail!(
                "--confirm: the run in {} recorded no `prepare` command line (its data was not made by `txbench prepare` of this version): run the two builds with `txbench experiment run` and a plan of two `binary` variants",
                side.dir.display()
            );
        }
    }
    if b.config.workload != a.config.workload || b.config.threads != a.config.threads {
        bail!(
            "--confirm: the runs in {} and {} are not the same benchmark",
            before.0.dir.display(),
            after.0.dir.display()
        );
    }
    let w = &b.config.workload;
    let run = without(&b.config.args, w, SET_BY_PLAN);
    let prepare = without(&b.config.prepare_args, w, &["--server", "--load-threads"]);
    if run != without(&a.config.args, w, SET_BY_PLAN) {
        bail!(
            "--confirm: the runs in {} and {} were started with other options ({} against {})",
            before.0.dir.display(),
            after.0.dir.display(),
            run.join(" "),
            without(&a.config.args, w, SET_BY_PLAN).join(" ")
        );
    }
    let variant = |name: &str, side: &Side| Variant {
        name: name.into(),
        binary: Some(side.binary.clone()),
        ..Variant::default()
    };
    Ok(Plan {
        description: Some(description.to_string()),
        baseline: "before".into(),
        reset: Some(Reset::Snapshot),
        seed: None,
        threads: Some(b.config.threads.to_string()),
        warmup: Some(b.config.warmup_s),
        duration: Some(b.config.time_s),
        repetitions: Some(repetitions),
        variants: vec![variant("before", before.0), variant("after", after.0)],
        workloads: vec![Workload {
            name: w.clone(),
            label: None,
            prepare,
            run,
        }],
        ..Plan::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_recorded_command_line_loses_what_the_plan_sets_and_keeps_the_rest() {
        let args = words(
            "tpcc --threads 4 --time=10 --warmup 2 --label commit=3f --label=branch=main --server s1 --mix 10,10,1,1,1 --procedures",
        );
        assert_eq!(
            without(&args, "tpcc", SET_BY_PLAN),
            words("--mix 10,10,1,1,1 --procedures")
        );
        // A first word that is not the workload stays.
        assert_eq!(
            without(&words("--threads 4 --rate 100"), "tpcc", SET_BY_PLAN),
            words("--rate 100")
        );
    }
}
