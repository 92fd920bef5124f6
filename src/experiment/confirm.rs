//! `history --confirm`: a suspected step between two builds measured again as an
//! interleaved, repeated experiment (seed 002's harness, with statistics). The run before the
//! step and the first run after it give the two builds (the server programs they recorded,
//! checked against their SHA-256) and the benchmark (the `prepare` and `run` command lines
//! they recorded); both builds then run it on identical data, restored before every cell.

use super::plan::{Plan, Reset, Variant, Workload};
use crate::config::RunConfig;
use crate::results::RunResult;
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

/// Options dropped from a recorded command line, with their values: what the confirming
/// plan sets itself, and what names the original run's server, files or output.
const DROPPED: &[&str] = &[
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
    "--url",
    "--store",
    "--out",
    "--resume",
    "--csv",
    "--load-threads",
];

/// Flags dropped from a recorded command line: how the original run printed.
const DROPPED_FLAGS: &[&str] = &["-q", "--quiet", "--json"];

/// What `history --confirm` replays of a recorded command line: for `run` and for
/// `prepare`, the options it passes on, each with whether it takes a value (the commands
/// read them from the CLI's definition: the workload's own, and for `run` the driver
/// options that define the benchmark). Anything else recorded is refused: a result.json
/// is a file anyone may have written.
#[derive(Debug, Clone, Default)]
pub struct Replayable {
    /// `run`'s.
    pub run: Vec<(String, bool)>,
    /// `prepare`'s.
    pub prepare: Vec<(String, bool)>,
}

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
    // The hash proves only that the file did not change since it was recorded: whose it is,
    // and who may write it, decide whether it may be run.
    crate::owned::check_program(&binary, "--confirm: the build")?;
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

/// The options of recorded `args` that `allowed` lets through (with their values), the
/// workload's name and [`DROPPED`] ones left out; anything else is refused, naming it and
/// the run's directory `dir`.
fn replayed(
    args: &[String],
    workload: &str,
    allowed: &[(String, bool)],
    dir: &Path,
) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (name, inline) = match a.split_once('=') {
            Some((n, _)) if n.starts_with("--") => (n, true),
            _ => (a.as_str(), false),
        };
        if a == workload || DROPPED_FLAGS.contains(&name) {
            continue;
        }
        if DROPPED.contains(&name) {
            if !inline {
                it.next();
            }
            continue;
        }
        match allowed.iter().find(|(o, _)| o == name) {
            Some((_, valued)) => {
                out.push(a.clone());
                // An option whose value may be left out (`--skip-trx`) is followed by the next
                // option, which is judged on its own, never passed on as a value.
                if *valued && !inline && it.as_slice().first().is_some_and(|v| !v.starts_with('-'))
                {
                    out.extend(it.next().cloned());
                }
            }
            None => {
                let names: Vec<&str> = allowed.iter().map(|(o, _)| o.as_str()).collect();
                bail!(
                    "--confirm: the run in {} was started with {a}, which history --confirm does not replay (it replays {})",
                    dir.display(),
                    names.join(", ")
                );
            }
        }
    }
    Ok(out)
}

/// A sysbench Lua run's script (the argument after `lua`) and its recorded arguments
/// without `lua FILE`; None for another workload's.
pub fn lua_script(args: &[String]) -> Option<(String, Vec<String>)> {
    let at = args.iter().position(|a| a == "lua")?;
    let file = args.get(at + 1)?.clone();
    let mut rest = args.to_vec();
    rest.drain(at..=at + 1);
    Some((file, rest))
}

/// The recorded arguments of both runs and of the data's `prepare`, `lua FILE` taken out of
/// a Lua run's (the plan names the script): both ran the same script, unchanged between
/// them, on data its own `prepare` made.
struct Recorded {
    script: Option<String>,
    run: Vec<String>,
    run_after: Vec<String>,
    prepare: Vec<String>,
}

fn recorded(before: (&Path, &RunConfig), after: (&Path, &RunConfig)) -> Result<Recorded> {
    let (b, a) = (before.1, after.1);
    if b.workload != "lua" {
        return Ok(Recorded {
            script: None,
            run: b.args.clone(),
            run_after: a.args.clone(),
            prepare: b.prepare_args.clone(),
        });
    }
    let no_script = |dir: &Path| {
        anyhow::anyhow!(
            "--confirm: the run in {} recorded no sysbench script after `lua`",
            dir.display()
        )
    };
    let (file, run) = lua_script(&b.args).ok_or_else(|| no_script(before.0))?;
    let (file_after, run_after) = lua_script(&a.args).ok_or_else(|| no_script(after.0))?;
    let sha = |c: &RunConfig| c.workload_options["sha256"].as_str().map(String::from);
    if file != file_after || sha(b).is_none() || sha(b) != sha(a) {
        bail!(
            "--confirm: the runs in {} and {} ran other scripts, or the script changed between them ({file} against {file_after})",
            before.0.display(),
            after.0.display()
        );
    }
    let Some((_, prepare)) = lua_script(&b.prepare_args).filter(|(f, _)| *f == file) else {
        bail!(
            "--confirm: the data of the run in {} was not made by `txbench prepare lua {file}`: run the two builds with `txbench experiment run` and a plan of two `binary` variants",
            before.0.display()
        );
    };
    Ok(Recorded {
        script: Some(file),
        run,
        run_after,
        prepare,
    })
}

/// The plan that measures `before`'s build against `after`'s, for the benchmark both runs
/// recorded: `repetitions` blocks of one cell per build, in random order, each from a copy
/// of the same prepared data.
pub fn plan(
    before: (&Side, &RunResult),
    after: (&Side, &RunResult),
    repetitions: u32,
    description: &str,
    replay: &Replayable,
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
    let r = recorded(
        (before.0.dir.as_path(), &b.config),
        (after.0.dir.as_path(), &a.config),
    )?;
    let run = replayed(&r.run, w, &replay.run, &before.0.dir)?;
    let prepare = replayed(&r.prepare, w, &replay.prepare, &before.0.dir)?;
    let run_after = replayed(&r.run_after, w, &replay.run, &after.0.dir)?;
    if run != run_after {
        bail!(
            "--confirm: the runs in {} and {} were started with other options ({} against {})",
            before.0.dir.display(),
            after.0.dir.display(),
            run.join(" "),
            run_after.join(" ")
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
            script: r.script,
            prepare,
            run,
        }],
        ..Plan::default()
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// A Lua run's recorded configuration (commands/confirm.rs's tests use it too).
    pub(crate) fn lua_config(sha: &str, args: &str, prepare: &str) -> RunConfig {
        serde_json::from_value(serde_json::json!({
            "workload": "lua", "url": "mysql://u@h/db", "threads": 2, "time_s": 3.0,
            "warmup_s": 0.0, "events": null, "report_interval_s": 1.0, "rate": null,
            "rate_dist": "poisson", "seed": 1, "retries": 3, "max_error_rate": 0.05,
            "isolation": null, "stability_window_s": 0.0, "server_metrics": true,
            "workload_options": {"script": "/s/x.lua", "sha256": sha},
            "args": words(args), "prepare_args": words(prepare),
        }))
        .unwrap()
    }

    /// A Lua run is replayed with its script named in the plan and `lua FILE` out of the
    /// arguments; the same script unchanged, on data its own prepare made, or refused.
    #[test]
    fn a_lua_run_is_replayed_with_its_script() {
        let b = lua_config(
            "aa",
            "--time 2 lua /s/x.lua --tables 2 --threads=4",
            "lua /s/x.lua --tables 2 --table-size 1000",
        );
        let (r1, r2) = (Path::new("r1"), Path::new("r2"));
        let r = recorded((r1, &b), (r2, &b)).unwrap();
        assert_eq!(r.script.as_deref(), Some("/s/x.lua"));
        assert_eq!(r.run, words("--time 2 --tables 2 --threads=4"));
        assert_eq!(r.run_after, r.run);
        assert_eq!(r.prepare, words("--tables 2 --table-size 1000"));
        let changed = lua_config("bb", "lua /s/x.lua --tables 2", "lua /s/x.lua");
        let e = recorded((r1, &b), (r2, &changed))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("the script changed between them"), "{e}");
        let mut tpcc_data = b.clone();
        tpcc_data.prepare_args = words("tpcc --warehouses 10");
        let e = recorded((r1, &tpcc_data), (r2, &b))
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("was not made by `txbench prepare lua /s/x.lua`"),
            "{e}"
        );
        // Another workload's arguments pass as they are.
        let mut tpcc = b.clone();
        tpcc.workload = "tpcc".into();
        let r = recorded((r1, &tpcc), (r2, &tpcc)).unwrap();
        assert_eq!((r.script, r.run), (None, tpcc.args.clone()));
    }

    #[test]
    fn the_recorded_command_line_keeps_only_what_may_be_replayed() {
        let allowed = vec![
            ("--mix".to_string(), true),
            ("--procedures".to_string(), false),
            ("--rate".to_string(), true),
        ];
        let dir = Path::new("r1");
        let args = words(
            "--time 2 --url mysql://u@h/db tpcc --threads 4 --time=10 --warmup 2 --label commit=3f --label=branch=main --server s1 --mix 10,10,1,1,1 --procedures -q --store /tmp/s.sqlite",
        );
        assert_eq!(
            replayed(&args, "tpcc", &allowed, dir).unwrap(),
            words("--mix 10,10,1,1,1 --procedures")
        );
        assert_eq!(
            replayed(&words("--threads 4 --rate=100"), "tpcc", &allowed, dir).unwrap(),
            words("--rate=100")
        );
        // An option whose value may be left out does not carry the next option through.
        let optional = vec![("--skip-trx".to_string(), true)];
        assert_eq!(
            replayed(
                &words("tpcc --skip-trx --url=mysql://u@elsewhere/db"),
                "tpcc",
                &optional,
                dir
            )
            .unwrap(),
            words("--skip-trx")
        );
        // What is neither the workload's nor the benchmark's is refused, not passed on.
        let e = replayed(&words("tpcc --profile-out /etc/x"), "tpcc", &allowed, dir)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--confirm: the run in r1 was started with --profile-out, which history --confirm does not replay"),
            "{e}"
        );
    }
}
