//! `txbench history --confirm`: the suspected step measured again between its two builds, as
//! an interleaved, repeated experiment on identical data (`experiment::confirm` writes the
//! plan; `experiment run_generated` runs it), and judged by the deviation's interval.

use super::Output;
use crate::analysis::history::History;
use crate::analysis::stats::Verdict;
use crate::cli::HistoryCmd;
use crate::error::Failure;
use crate::experiment::{self, Deviation, confirm};
use crate::results::RunResult;
use anyhow::Result;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What the confirming experiment found.
#[derive(Debug, Clone, Serialize)]
pub struct Confirmation {
    /// The point before the step and the first after it (indices of the history).
    pub before_index: usize,
    /// See `before_index`.
    pub after_index: usize,
    /// Their run directories.
    pub before_dir: String,
    /// See `before_dir`.
    pub after_dir: String,
    /// Their builds.
    pub before_binary: String,
    /// See `before_binary`.
    pub after_binary: String,
    /// True when both runs measured the same file (the same SHA-256).
    pub same_build: bool,
    /// The step the history found there, % (the after level against the before level).
    pub history_step_pct: Option<f64>,
    /// The figure the verdict is on: "throughput" (NOPM or tps) or a cost per transaction.
    pub outcome: String,
    /// The after build against the before build, with its interval.
    pub deviation: Option<Deviation>,
    /// True when the interval excludes no change in the direction that makes the figure
    /// worse.
    pub regression: bool,
    /// True when the deviation is significant and in the direction of the history's step
    /// (or, without a step, significant at all).
    pub confirmed: bool,
    /// The experiment's directory.
    pub experiment: String,
}

/// What the confirming experiment compares.
struct Compared {
    /// The outcome: "throughput" or a cost per transaction.
    outcome: String,
    /// True for throughput (lower is worse), false for a cost (higher is worse).
    throughput: bool,
}

/// The outcome the experiment compares for a history figure, or an error naming the flag.
fn outcome(figure: &str) -> Result<Compared> {
    let compared = |outcome: String, throughput| Compared {
        outcome,
        throughput,
    };
    match figure {
        "tps" | "nopm" | "tpm" => Ok(compared("throughput".into(), true)),
        _ => {
            let cost = figure.strip_prefix("per_txn.").unwrap_or(figure);
            if experiment::COSTS.contains(&cost) {
                Ok(compared(cost.to_string(), false))
            } else {
                Err(Failure::Usage(format!(
                    "--confirm: the experiment measures throughput (tps, nopm) and the server's costs per transaction (server_cpu_ms, per_txn.{}); --figure {figure} is neither",
                    experiment::COSTS[1..].join(", per_txn.")
                ))
                .into())
            }
        }
    }
}

/// The index of the first point after the step to confirm: `at` given (`newest`: the
/// newest change point), None when there is no change point to confirm.
fn step_index(h: &History, at: &str) -> Result<Option<usize>> {
    if at == "newest" {
        return Ok(h.steps.last().map(|s| s.change.index));
    }
    match at.parse::<usize>() {
        Ok(i) if i >= 1 && i < h.points.len() => Ok(Some(i)),
        _ => Err(Failure::Usage(format!(
            "--confirm {at}: the index of the first point after a step, 1 to {} (the history's first column)",
            h.points.len().saturating_sub(1)
        ))
        .into()),
    }
}

/// The driver options that define a benchmark, which `--confirm` replays beside the
/// workload's own (each takes a value).
const BENCHMARK_OPTIONS: &[&str] = &[
    "--rate",
    "--rate-dist",
    "--retries",
    "--max-error-rate",
    "--isolation",
    "--stability-window",
    "--cpus",
];

/// What `--confirm` may replay of `workload`'s recorded `run` and `prepare` lines: the
/// workload's own options as the CLI defines them (`--csv`, a place, aside), and for `run`
/// [`BENCHMARK_OPTIONS`] and `--no-server-metrics`.
fn replayable(workload: &str) -> confirm::Replayable {
    use clap::CommandFactory;
    let cli = crate::cli::Cli::command();
    let own = |command: &str| -> Vec<(String, bool)> {
        cli.find_subcommand(command)
            .and_then(|c| c.find_subcommand(workload))
            .map(|w| {
                w.get_arguments()
                    .filter(|a| !a.is_global_set())
                    .filter_map(|a| {
                        let long = format!("--{}", a.get_long()?);
                        (long != "--csv").then(|| (long, a.get_action().takes_values()))
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut run = own("run");
    run.extend(BENCHMARK_OPTIONS.iter().map(|o| (o.to_string(), true)));
    run.push(("--no-server-metrics".into(), false));
    confirm::Replayable {
        run,
        prepare: own("prepare"),
    }
}

/// A sysbench Lua run's script options, which `--confirm` replays too (as the script
/// declares them, `-` and `_` alike), once the script is found unchanged since the run in
/// `dir` measured it.
fn lua_replayable(
    replay: &mut confirm::Replayable,
    config: &crate::config::RunConfig,
    dir: &std::path::Path,
) -> Result<()> {
    let Some((file, _)) = confirm::lua_script(&config.args) else {
        anyhow::bail!(
            "--confirm: the run in {} recorded no sysbench script after `lua`",
            dir.display()
        );
    };
    let script = crate::workload::lua::Script::load(std::path::Path::new(&file), "run")
        .map_err(|e| anyhow::anyhow!("--confirm: the run in {}: {e}", dir.display()))?;
    if config.workload_options["sha256"].as_str() != Some(script.sha256.as_str()) {
        anyhow::bail!(
            "--confirm: {file} is not the script the run in {} measured (its SHA-256 is {}): it changed since",
            dir.display(),
            &script.sha256[..12]
        );
    }
    for d in script.all_options() {
        for name in [d.name.replace('-', "_"), d.name.replace('_', "-")] {
            let o = (format!("--{name}"), true);
            if !replay.run.contains(&o) {
                replay.run.push(o.clone());
                replay.prepare.push(o);
            }
        }
    }
    Ok(())
}

/// Runs the confirming experiment of `cmd.confirm` on `h`: None when there is no step.
pub fn confirm(out: &Output, cmd: &HistoryCmd, h: &History) -> Result<Option<Confirmation>> {
    let Some(at) = &cmd.confirm else {
        return Ok(None);
    };
    let compared = outcome(&h.figure)?;
    let Some(index) = step_index(h, at)? else {
        out.note("--confirm: no change point to confirm");
        return Ok(None);
    };
    if cmd.confirm_repetitions < 2 {
        return Err(Failure::Usage(format!(
            "--confirm-repetitions {}: 2 or more (an interval needs two blocks)",
            cmd.confirm_repetitions
        ))
        .into());
    }
    let step = Step::load(h, index)?;
    let text = step.plan_text(h, cmd, &compared)?;
    let dir = experiment_dir(cmd);
    step.note_same_build(out);
    let e = run_experiment(out, &text, &dir)?;
    let deviation = deviation(&e, &compared);
    Ok(Some(step.confirmation(compared, deviation, &dir)))
}

/// The two points around the step, and the history's step there.
struct Step {
    /// The index of the first point after the step.
    index: usize,
    /// The last point before the step.
    before: Point,
    /// The first point after it.
    after: Point,
    /// The step the history found there, %.
    pct: Option<f64>,
}

/// A point of the history: its run and the build it measured.
struct Point {
    /// The run's directory.
    dir: PathBuf,
    /// Its result.
    run: RunResult,
    /// Its build.
    build: confirm::Side,
}

impl Step {
    /// Loads the runs of points `index - 1` and `index` of `h`, and their builds.
    fn load(h: &History, index: usize) -> Result<Step> {
        let load = |i: usize| -> Result<(PathBuf, RunResult)> {
            let dir = PathBuf::from(&h.points[i].dir);
            let r = RunResult::load(&dir)?;
            Ok((dir, r))
        };
        let (bdir, b) = load(index - 1)?;
        let (adir, a) = load(index)?;
        let (bs, as_) = (confirm::side(&bdir, &b)?, confirm::side(&adir, &a)?);
        let pct = h
            .steps
            .iter()
            .find(|s| s.change.index == index)
            .map(|s| s.change.step_pct);
        Ok(Step {
            index,
            before: Point {
                dir: bdir,
                run: b,
                build: bs,
            },
            after: Point {
                dir: adir,
                run: a,
                build: as_,
            },
            pct,
        })
    }

    /// The confirming experiment's plan, as TOML: the two builds on the runs' workload,
    /// with `compared` as its primary outcome when that is a cost.
    fn plan_text(&self, h: &History, cmd: &HistoryCmd, compared: &Compared) -> Result<String> {
        let index = self.index;
        let (b, bs) = (&self.before.run, &self.before.build);
        let (a, as_) = (&self.after.run, &self.after.build);
        let label = |i: usize| {
            let p = &h.points[i];
            p.label.clone().unwrap_or_else(|| p.started_at.clone())
        };
        let description = format!(
            "history --confirm: {} of {} at {} threads, the build of point {} ({}) against that of point {index} ({})",
            h.figure,
            h.workload,
            h.threads,
            index - 1,
            label(index - 1),
            label(index)
        );
        let mut replay = replayable(&b.config.workload);
        if b.config.workload == "lua" {
            lua_replayable(&mut replay, &b.config, &bs.dir)?;
        }
        let mut plan = confirm::plan(
            (bs, b),
            (as_, a),
            cmd.confirm_repetitions,
            &description,
            &replay,
        )?;
        if !compared.throughput {
            plan.primary = Some(compared.outcome.clone());
        }
        Ok(toml::to_string(&plan)?)
    }

    /// Says when both points ran the same build: the experiment then measures noise.
    fn note_same_build(&self, out: &Output) {
        let (index, bs, as_) = (self.index, &self.before.build, &self.after.build);
        if bs.sha256 == as_.sha256 {
            out.note(&format!(
                "--confirm: points {} and {index} ran the same build ({}): the experiment measures the noise between two runs of it",
                index - 1,
                &bs.sha256[..12]
            ));
        }
    }

    /// The confirmation of this step by `deviation`, the experiment's in `dir`.
    fn confirmation(
        self,
        compared: Compared,
        deviation: Option<Deviation>,
        dir: &Path,
    ) -> Confirmation {
        let (index, step) = (self.index, self.pct);
        let (bdir, bs) = (self.before.dir, self.before.build);
        let (adir, as_) = (self.after.dir, self.after.build);
        let throughput = compared.throughput;
        // Throughput: lower is worse; a cost: higher is worse.
        let worse = |d: &Deviation| match d.verdict {
            Verdict::Slower => throughput,
            Verdict::Faster => !throughput,
            Verdict::NoSignificantDifference => false,
        };
        let significant = |d: &Deviation| d.verdict != Verdict::NoSignificantDifference;
        let regression = deviation.as_ref().is_some_and(worse);
        let confirmed = deviation
            .as_ref()
            .is_some_and(|d| significant(d) && step.is_none_or(|s| (s < 0.0) == (d.pct < 0.0)));
        Confirmation {
            before_index: index - 1,
            after_index: index,
            before_dir: bdir.display().to_string(),
            after_dir: adir.display().to_string(),
            before_binary: bs.binary.display().to_string(),
            after_binary: as_.binary.display().to_string(),
            same_build: bs.sha256 == as_.sha256,
            history_step_pct: step,
            outcome: compared.outcome,
            deviation,
            regression,
            confirmed,
            experiment: dir.display().to_string(),
        }
    }
}

/// Where the experiment goes: `--confirm-out`, else experiments/confirm-STAMP.
fn experiment_dir(cmd: &HistoryCmd) -> PathBuf {
    cmd.confirm_out.clone().unwrap_or_else(|| {
        let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .replace([':', '-'], "");
        Path::new("experiments").join(format!("confirm-{}", stamp.trim_end_matches('Z')))
    })
}

/// Runs the experiment of plan `text` in `dir`; an error when it was interrupted or any
/// cell is INVALID.
fn run_experiment(out: &Output, text: &str, dir: &Path) -> Result<experiment::Experiment> {
    let Some(e) = crate::commands::experiment::run_generated(out, "confirm", text, dir)? else {
        out.note(&format!(
            "--confirm: interrupted; continue with `txbench experiment resume {}`",
            dir.display()
        ));
        return Err(Failure::Interrupted.into());
    };
    let invalid = e.invalid_cells();
    if invalid > 0 {
        return Err(Failure::Invalid(format!(
            "--confirm: {invalid} of {} cells INVALID (kept in {}): no verdict",
            e.cells.len(),
            dir.display()
        ))
        .into());
    }
    Ok(e)
}

/// The after build against the before build on the compared outcome, from the
/// experiment's first table (None: fewer than two valid cells of a build).
fn deviation(e: &experiment::Experiment, compared: &Compared) -> Option<Deviation> {
    let tables = experiment::tables(e);
    let row = tables.first().and_then(|t| t.rows.first());
    row.and_then(|r| {
        if compared.throughput {
            r.deviations.first().and_then(|(_, d)| d.clone())
        } else {
            r.costs
                .first()
                .and_then(|(_, c)| c.iter().find(|c| c.figure == compared.outcome))
                .and_then(|c| c.deviation.clone())
        }
    })
}

/// The confirmation in words: the builds, the deviation with its interval, the verdict.
pub fn text(c: &Confirmation) -> String {
    let dev = match &c.deviation {
        Some(d) => format!(
            "{:+.1} % [{:+.1}, {:+.1}] ({} blocks, {}, {:.0} % interval)",
            d.pct,
            d.ci_pct.0,
            d.ci_pct.1,
            d.n,
            d.method,
            d.confidence * 100.0
        ),
        None => "no deviation (fewer than two valid cells of a build)".into(),
    };
    let verdict = if c.confirmed {
        if c.regression {
            "CONFIRMED: a regression"
        } else {
            "CONFIRMED"
        }
    } else {
        "not confirmed: the interval holds no change, or the change is the other way"
    };
    format!(
        "confirm: the build of point {} ({}) against that of point {} ({}){}\n  {}: {dev}\n  {verdict}{}; experiment in {}\n",
        c.after_index,
        c.after_binary,
        c.before_index,
        c.before_binary,
        if c.same_build { ", the same build" } else { "" },
        c.outcome,
        c.history_step_pct.map_or(String::new(), |s| format!(
            " (the history's step: {s:+.1} %)"
        )),
        c.experiment
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn what_may_be_replayed_comes_from_the_cli() {
        let r = super::replayable("tpcc");
        let has = |l: &[(String, bool)], o: &str| l.iter().find(|(n, _)| n == o).map(|x| x.1);
        assert_eq!(has(&r.run, "--warehouses"), Some(true));
        assert_eq!(has(&r.run, "--procedures"), Some(false));
        assert_eq!(has(&r.run, "--rate"), Some(true));
        for place in ["--url", "--store", "--out", "--csv", "--server"] {
            assert_eq!(has(&r.run, place), None, "{place}");
            assert_eq!(has(&r.prepare, place), None, "{place}");
        }
        assert_eq!(has(&r.prepare, "--warehouses"), Some(true));
    }

    /// A Lua run's script options are replayed as the script declares them, both
    /// spellings; a script changed since the run is refused.
    #[test]
    fn a_lua_scripts_own_options_may_be_replayed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.lua");
        std::fs::write(
            &file,
            "sysbench.cmdline.options = { table_size = { 'rows', 10 } }\nfunction event() end\n",
        )
        .unwrap();
        let script = crate::workload::lua::Script::load(&file, "run").unwrap();
        let args = format!("lua {} --table-size=5", file.display());
        let mut config = crate::experiment::confirm::tests::lua_config(&script.sha256, &args, "");
        let mut r = super::replayable("lua");
        super::lua_replayable(&mut r, &config, dir.path()).unwrap();
        let has = |l: &[(String, bool)], o: &str| l.iter().any(|(n, _)| n == o);
        for o in ["--table-size", "--table_size", "--rand-type"] {
            assert!(has(&r.run, o) && has(&r.prepare, o), "{o}");
        }
        config.workload_options["sha256"] = serde_json::json!("0".repeat(64));
        let e = super::lua_replayable(&mut r, &config, dir.path())
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not the script the run in"), "{e}");
    }
}
