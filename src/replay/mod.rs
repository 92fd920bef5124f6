//! `txbench replay`: how fast a replica applies what its primary writes under TPC-C (seed
//! 001 §2.9's "balanced replay speed"). The replica's applier is stopped while its IO thread
//! keeps fetching; the primary is driven by a `txbench run` child (measured and stored as
//! every run is); then the applier starts again and is timed until it holds the primary's
//! last transaction. The result, replay.json, sits beside the run's directory.
//!
//! `--balanced` searches instead for the balanced rate itself: probes of `--time` seconds
//! with the applier running, the primary closed loop first, then open loop at rates chosen
//! from what each probe showed, the replica's lag sampled throughout; the fastest probe
//! whose lag stayed within a tolerance is the balanced replay speed (balanced.json).
//!
//! Sandboxes only, MariaDB replicas (GTID, slave_pos): PostgreSQL's streaming replicas are
//! not in the sandbox and are refused.

use crate::error::Failure;
use crate::results::RunResult;
use crate::results::replay::{Balanced, Replay};
use crate::server::cluster::Role;
use crate::server::{self, ServerRecord, StateDir};
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::time::Duration;

#[cfg(feature = "mysql")]
mod balanced;
#[cfg(feature = "mysql")]
mod catch_up;

/// What a replay measures, read once from the command line.
#[derive(Debug, Clone)]
pub struct Options {
    /// The primary sandbox (`--server`).
    pub primary: String,
    /// The replica to measure (default: the primary's first).
    pub replica: Option<String>,
    /// Virtual users of the primary's run.
    pub threads: u32,
    /// Seconds of the primary's run.
    pub time: f64,
    /// Open loop: the primary's transactions per second.
    pub rate: Option<f64>,
    /// `run tpcc --warehouses` (default: all prepared).
    pub warehouses: Option<u32>,
    /// How long the replica may take to fetch and to apply the backlog.
    pub timeout: Duration,
    /// The replay's directory: the run in `run/`, its output in run.log, replay.json.
    pub dir: PathBuf,
    /// The results store the run is recorded in (None: the default).
    pub store: Option<PathBuf>,
    /// `--balanced`: at most this many probes search for the balanced rate (None: the
    /// catch-up).
    pub probes: Option<u32>,
    /// `--label KEY=VALUE` for the primary's runs (checked).
    pub labels: Vec<String>,
}

/// One run of the primary: where it goes, its label, and its rate.
pub struct Leg<'a> {
    /// Its directory under the replay's.
    pub dir: &'a str,
    /// `--label replay=…`.
    pub label: &'a str,
    /// Open loop at this many transactions per second (None: closed loop).
    pub rate: Option<f64>,
}

/// The primary and the replica a replay works on, both running MariaDB sandboxes.
pub struct Members {
    /// The primary.
    pub primary: ServerRecord,
    /// The replica measured.
    pub replica: ServerRecord,
}

/// Finds `--server`'s sandbox and its replica, refusing what replay cannot measure.
pub fn members(home: &StateDir, o: &Options) -> Result<Members> {
    let usage = |m: String| -> anyhow::Error { Failure::Usage(m).into() };
    let name = &o.primary;
    let p = server::get(home, name).with_context(|| format!("--server {name}"))?;
    if p.record.engine() == crate::engine::Engine::Postgres {
        return Err(usage(format!(
            "--server {name}: a PostgreSQL sandbox; replay measures MariaDB replicas (PostgreSQL's streaming replicas are not in the sandbox)"
        )));
    }
    let Role::Primary { replicas, .. } = &p.record.role else {
        return Err(usage(format!(
            "--server {name}: {}, not a primary (start one with `txbench server start {name} --replicas 1`)",
            p.record.role.describe()
        )));
    };
    let chosen = match &o.replica {
        Some(r) if replicas.contains(r) => r.clone(),
        Some(r) => {
            return Err(usage(format!(
                "--replica {r}: not a replica of '{name}' (its replicas: {})",
                replicas.join(", ")
            )));
        }
        None => replicas
            .first()
            .cloned()
            .context("the primary has no replicas")?,
    };
    let r = server::get(home, &chosen).with_context(|| format!("the replica {chosen}"))?;
    for s in [&p, &r] {
        if !matches!(s.state, server::State::Running { .. }) {
            anyhow::bail!(
                "the server '{}' is {} (start the topology with `txbench server start {name}`)",
                s.record.name,
                s.state.word()
            );
        }
    }
    Ok(Members {
        primary: p.record,
        replica: r.record,
    })
}

/// The `txbench run` command line of one of the primary's runs.
pub fn run_args(o: &Options, leg: &Leg) -> Vec<String> {
    let mut args: Vec<String> = ["run", "tpcc", "--warmup", "0", "--label"]
        .map(String::from)
        .into();
    args.extend([
        format!("replay={}", leg.label),
        "--threads".into(),
        o.threads.to_string(),
        "--time".into(),
        o.time.to_string(),
        "--report-interval".into(),
        (o.time / 5.0).clamp(1.0, 10.0).to_string(),
        "--out".into(),
        o.dir.join(leg.dir).display().to_string(),
    ]);
    if let Some(r) = leg.rate {
        args.extend(["--rate".into(), r.to_string()]);
    }
    if let Some(w) = o.warehouses {
        args.extend(["--warehouses".into(), w.to_string()]);
    }
    if let Some(s) = &o.store {
        args.extend(["--store".into(), s.display().to_string()]);
    }
    for l in &o.labels {
        args.extend(["--label".into(), l.clone()]);
    }
    args
}

/// Runs the primary's load as a child `txbench run` (its output in LEG.log): its result, if
/// it ran to a result (valid or INVALID), else the child's error.
pub fn run_primary(o: &Options, m: &Members, leg: &Leg) -> Result<RunResult> {
    let log = o.dir.join(format!("{}.log", leg.dir));
    let status = crate::experiment::child(&[m.primary.login_url()], &run_args(o, leg), &log)?;
    let stored = RunResult::load(&o.dir.join(leg.dir)).ok();
    match (status.code(), stored) {
        (Some(0) | Some(3), Some(r)) => Ok(r),
        _ => anyhow::bail!(
            "the primary's run failed: {}",
            crate::experiment::log_error(&log)
        ),
    }
}

/// Measures the replica's catch-up (module doc) and writes replay.json: INVALID records are
/// written too, and returned for the caller to judge.
pub fn catch_up(home: &StateDir, o: &Options, note: &dyn Fn(&str)) -> Result<Replay> {
    let m = prepared(home, o)?;
    let r = measure(o, &m, note)?;
    crate::results::write_json_atomic(&o.dir.join(crate::results::replay::FILE), &r)?;
    Ok(r)
}

/// Searches for the replica's balanced replay speed (module doc) and writes balanced.json:
/// INVALID records are written too, and returned for the caller to judge.
pub fn balanced(home: &StateDir, o: &Options, note: &dyn Fn(&str)) -> Result<Balanced> {
    let m = prepared(home, o)?;
    let b = search(o, &m, note)?;
    crate::results::write_json_atomic(&o.dir.join(crate::results::replay::BALANCED_FILE), &b)?;
    Ok(b)
}

/// The members, and the replay's directory made, refusing one that holds a replay.
fn prepared(home: &StateDir, o: &Options) -> Result<Members> {
    let m = members(home, o)?;
    let used = [
        crate::results::replay::FILE,
        crate::results::replay::BALANCED_FILE,
        "run",
        "probe-1",
    ];
    if used.iter().any(|f| o.dir.join(f).exists()) {
        return Err(Failure::Usage(format!(
            "--out {}: it holds a replay already (give another directory)",
            o.dir.display()
        ))
        .into());
    }
    crate::owned::make_dir(&o.dir, "the replay directory")?;
    Ok(m)
}

#[cfg(feature = "mysql")]
fn measure(o: &Options, m: &Members, note: &dyn Fn(&str)) -> Result<Replay> {
    catch_up::measure(o, m, note)
}

#[cfg(feature = "mysql")]
fn search(o: &Options, m: &Members, note: &dyn Fn(&str)) -> Result<Balanced> {
    balanced::search(o, m, note)
}

/// Replicas are MySQL's and MariaDB's: a build without the client refuses, naming it.
#[cfg(not(feature = "mysql"))]
fn measure(_: &Options, _: &Members, _: &dyn Fn(&str)) -> Result<Replay> {
    Err(crate::engine::not_built(crate::engine::Engine::Mysql))
}

/// As `measure`, without the client.
#[cfg(not(feature = "mysql"))]
fn search(_: &Options, _: &Members, _: &dyn Fn(&str)) -> Result<Balanced> {
    Err(crate::engine::not_built(crate::engine::Engine::Mysql))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primary_runs_tpcc_without_warm_up_into_run_beside_replay_json() {
        let o = Options {
            primary: "p".into(),
            replica: None,
            threads: 4,
            time: 3.0,
            rate: Some(50.0),
            warehouses: Some(2),
            timeout: Duration::from_secs(60),
            dir: PathBuf::from("/tmp/r"),
            store: None,
            probes: None,
            labels: vec!["experiment=x".into()],
        };
        let leg = Leg {
            dir: "run",
            label: "catch-up",
            rate: o.rate,
        };
        let a = run_args(&o, &leg).join(" ");
        assert!(a.starts_with("run tpcc --warmup 0 "), "{a}");
        for part in [
            "--threads 4",
            "--time 3",
            "--out /tmp/r/run",
            "--rate 50",
            "--warehouses 2",
            "--report-interval 1",
            "--label replay=catch-up",
            "--label experiment=x",
        ] {
            assert!(a.contains(part), "{part} in {a}");
        }
        assert!(!a.contains("--store"), "{a}");
    }
}
