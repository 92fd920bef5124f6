//! `run`: the command line read once into a sweep::Plan, one level or a sweep run by
//! `sweep`, `--resume`, and what is shown as it goes (printed here).

use super::*;

use super::Output;
use crate::cli::{RunCmd, WorkloadChoice};
use crate::commands::resolve_targets;
use crate::config::{RunConfig, ThreadLevels};
use crate::driver;
use crate::engine::TargetUrl;
use crate::error::{EXIT_INTERRUPTED, EXIT_OK, Failure};
use crate::report::text;
use crate::results::{IntervalRow, RunResult, RunStatus, Sweep};
use crate::store::live::Kind;
use crate::sweep::{self, Choice, Plan};
use crate::workload::lua::{Reporter, Stat};
use anyhow::Result;
use indicatif::ProgressBar;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// What the driver shows while it runs.
struct LiveDisplay {
    quiet: bool,
    json: bool,
    /// Names the level of a sweep on every interval line.
    prefix: String,
    level: Option<usize>,
    bar: Option<ProgressBar>,
    /// The script's report_intermediate hook, which prints the intervals instead, and the
    /// seconds into the run so far (sysbench's time_total).
    reporter: Option<Arc<Reporter>>,
    total_s: Mutex<f64>,
}

impl driver::Display for LiveDisplay {
    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }

    fn interval(&self, row: &IntervalRow) {
        if self.json {
            let mut v = serde_json::to_value(row).unwrap_or_default();
            v["type"] = json!("interval");
            if let Some(l) = self.level {
                v["level"] = json!(l);
            }
            println!("{v}");
        } else if let Some(r) = self.reporter.as_ref().filter(|r| r.intermediate) {
            let mut total = self.total_s.lock().unwrap_or_else(|p| p.into_inner());
            *total += (row.end_s - row.start_s).max(0.0);
            r.interval(Stat::of_interval(row, *total));
        } else if !self.quiet {
            let line = format!("{}{}", self.prefix, text::interval_line(row));
            match &self.bar {
                Some(b) => b.println(line),
                None => println!("{line}"),
            }
        }
    }
    fn tick(&self, elapsed: Duration, _total: Duration) {
        if let Some(b) = &self.bar {
            b.set_position(elapsed.as_secs());
        }
    }
    fn note(&self, line: &str) {
        if !self.quiet && !self.json {
            eprintln!("{line}");
        }
    }
}

/// What `run` shows: notes on stderr, each level's live display and its result.
struct Printer<'a> {
    out: &'a Output,
    /// A Lua script's report hooks, in text output.
    reporter: Option<Arc<Reporter>>,
}

impl<'a> Printer<'a> {
    /// With the report hooks of `plan`'s Lua script, if it sets any, when the output is
    /// text and not quiet (--json's stdout is JSON lines; -q prints no intervals).
    fn new(out: &'a Output, plan: &Plan, threads: u32, targets: &[TargetUrl]) -> Result<Self> {
        let mut reporter = None;
        if let Choice::Lua { script, given } = &plan.choice
            && !out.json
            && !out.quiet
            && let Some(engine) = targets.first().map(|t| t.engine)
        {
            let general = sweep::lua_general(plan, threads);
            reporter = Reporter::start(script.clone(), given.clone(), general, engine)
                .map_err(Failure::Usage)?
                .map(Arc::new);
        }
        Ok(Printer { out, reporter })
    }
}

impl sweep::Show for Printer<'_> {
    fn note(&self, line: &str) {
        self.out.note(line);
    }

    fn level_display(
        &self,
        prefix: String,
        level: Option<usize>,
        secs: u64,
    ) -> Box<dyn driver::Display> {
        Box::new(LiveDisplay {
            quiet: self.out.quiet,
            json: self.out.json,
            prefix,
            level,
            bar: progress_bar(self.out, secs, "{elapsed_precise} [{bar:40}] {pos}/{len} s"),
            reporter: self.reporter.clone(),
            total_s: Mutex::new(0.0),
        })
    }

    fn level_done(&self, result: &RunResult, dir: &Path, level: Option<usize>) {
        if let Some(line) = crate::store::record_run(self.out.store.as_deref(), dir, result) {
            self.out.note(&line);
        }
        if self.out.json {
            println!(
                "{}",
                json!({"type": "summary", "run_dir": dir, "status": result.status,
                       "validity": result.validity, "summary": result.summary,
                       "workload_report": result.workload_report, "stability": result.stability,
                       "notes": result.notes, "level": level})
            );
        } else if !(self.out.quiet && level.is_some()) {
            if let Some(r) = self.reporter.as_ref().filter(|r| r.cumulative)
                && let Some(stat) = Stat::of_run(result)
            {
                r.cumulative(stat);
            }
            // A quiet sweep prints only its table at the end.
            print!("{}", text::summary(result));
            if level.is_none() {
                // A single run's story last, where a terminal leaves it in view.
                print!("{}", story_text(&crate::analysis::story::run(result)));
            }
            if !self.out.quiet {
                println!("results: {}", dir.display());
            }
        }
    }
}

/// `run`'s command line read once into the plan every level runs from.
fn plan(cmd: &RunCmd) -> Result<Plan> {
    let d = &cmd.driver;
    let choice = match select(&cmd.workload, "run")? {
        Selected::Oltp(kind, o) => Choice::Oltp(kind, o),
        Selected::Tpcc(a) => Choice::Tpcc {
            warehouses: a.warehouses,
            check: a.check,
            table_sets: a.table_sets,
            options: a.run_options(),
        },
        Selected::Tpcb(a) => Choice::Tpcb {
            scale: a.scale,
            check: a.check,
            options: a.run_options(),
        },
        Selected::Lua(c) => Choice::Lua {
            script: c.script,
            given: c.given,
        },
        Selected::Script(set) => Choice::Script(set),
    };
    let shard = match d.shard {
        Some(s) => Some(s),
        None => crate::shard::Shard::from_env(|k| std::env::var(k).ok()).map_err(Failure::Usage)?,
    };
    if d.no_server_metrics && d.profile.is_some_and(|p| p.server()) {
        return Err(Failure::Usage(
            "--profile server needs the server metrics (the server sampler finds its process): drop --no-server-metrics, or --profile client".into(),
        )
        .into());
    }
    if d.client_threads.is_some() && d.rate.is_some() {
        return Err(Failure::Usage(
            "--client-threads: not with --rate (the open-loop schedule hands each arrival to a waiting thread): drop one of them".into(),
        )
        .into());
    }
    let driver = RunConfig {
        workload: choice.name().to_string(),
        url: String::new(),
        targets: Vec::new(),
        threads: 0,
        time_s: d.time,
        warmup_s: d.warmup,
        events: d.events,
        report_interval_s: d.report_interval,
        rate: d.rate,
        rate_dist: d.rate_dist,
        seed: 0,
        retries: d.retries,
        max_error_rate: d.max_error_rate / 100.0,
        isolation: d.isolation,
        workload_options: serde_json::Value::Null,
        stability_window_s: d.stability_window.unwrap_or(0.0),
        period_s: d.period,
        client_threads: d.client_threads,
        server_metrics: !d.no_server_metrics,
        profile: d.profile.unwrap_or_default(),
        shard,
        start_at: None,
        labels: crate::config::labels(&d.labels).map_err(Failure::Usage)?,
        args: Vec::new(),
        prepare_args: Vec::new(),
    };
    Ok(Plan {
        choice,
        driver,
        seed: d.seed,
        start_at: d.start_at,
        args: command_args("run"),
    })
}

/// A story's lines as the terminal shows them (names from stored files escaped).
fn story_text(lines: &[String]) -> String {
    crate::report::export::exporter(crate::report::export::Format::Text).summary(lines)
}

/// A finished sweep printed (its table, or JSON), and its exit: INVALID levels fail it.
fn sweep_done(out: &Output, sw: &Sweep, dir: &Path) -> Result<i32> {
    if sw.status == RunStatus::Interrupted {
        return Ok(EXIT_INTERRUPTED);
    }
    if out.json {
        let mut v = serde_json::to_value(sw)?;
        v["type"] = json!("sweep");
        v["sweep_dir"] = json!(dir);
        println!("{v}");
    } else {
        print!("{}", text::sweep_table(sw));
        print!("{}", story_text(&crate::analysis::story::sweep(&sw.runs)));
        if !out.quiet {
            println!("sweep: {}", dir.display());
        }
    }
    let invalid: Vec<String> = sw
        .runs
        .iter()
        .filter(|l| !l.valid)
        .map(|l| format!("{} threads: {}", l.threads, l.reasons.join("; ")))
        .collect();
    if !invalid.is_empty() {
        return Err(Failure::Invalid(invalid.join("; ")).into());
    }
    Ok(EXIT_OK)
}

pub(crate) fn default_run_dir(workload: &str, what: &str) -> PathBuf {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
        .to_string()
        .replace(['-', ':'], "");
    PathBuf::from("runs").join(format!("{stamp}-{workload}-{what}"))
}

/// `txbench run`: one level, or a sweep of several.
pub fn run(out: &Output, urls: &[String], cmd: &RunCmd) -> Result<i32> {
    let d = &cmd.driver;
    if let Some(spec) = &d.cpus {
        // Before any thread starts: every virtual user inherits it.
        let cpus = crate::server::placement::parse_cpus(spec, "--cpus")?;
        crate::server::placement::pin_self(&cpus)
            .map_err(|e| anyhow::anyhow!("--cpus {spec}: {e}"))?;
    }
    if let Some(dir) = &d.resume {
        return resume(out, urls, &cmd.workload, dir, d.out.is_some());
    }
    if let crate::cli::WorkloadChoice::Lua(a) = &cmd.workload {
        let c = super::lua::select(a, "run")?;
        if let Some(code) = super::lua::help(out, &c) {
            return Ok(code);
        }
    }
    let plan = plan(cmd)?;
    let name = plan.choice.name();
    let levels = d.threads.clone().unwrap_or(ThreadLevels(vec![1]));
    let targets = resolve_targets(out, urls, &d.servers)?;
    let show = Printer::new(out, &plan, levels.0[0], &targets)?;
    if levels.is_sweep() {
        let dir = d
            .out
            .clone()
            .unwrap_or_else(|| default_run_dir(name, "sweep"));
        crate::commands::live::mark(out, &dir, Kind::Sweep);
        let sw = sweep::sweep(&plan, &targets, &dir, Some(&levels.0), &show)?;
        return sweep_done(out, &sw, &dir);
    }
    let threads = levels.0[0];
    let dir = d
        .out
        .clone()
        .unwrap_or_else(|| default_run_dir(name, &format!("t{threads}")));
    crate::commands::live::mark(out, &dir, Kind::Run);
    let result = sweep::level(&plan, &targets, threads, &dir, None, None, &show)?;
    if !result.validity.valid {
        return Err(Failure::Invalid(result.validity.reasons.join("; ")).into());
    }
    if result.status == RunStatus::Interrupted {
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(EXIT_OK)
}

/// `run WORKLOAD --resume DIR`: the sweep's remaining levels, with the options it began with.
fn resume(
    out: &Output,
    urls: &[String],
    workload: &WorkloadChoice,
    dir: &Path,
    given_out: bool,
) -> Result<i32> {
    if given_out {
        anyhow::bail!(
            "--out cannot go with --resume: the sweep stays in {}",
            dir.display()
        );
    }
    // A script run's files are read again from the recorded options, not from these.
    let name = match workload {
        WorkloadChoice::Script(_) => "script",
        w => select(w, "run")?.name(),
    };
    if !dir.join(Sweep::FILE).is_file() {
        anyhow::bail!("--resume {}: no sweep.json there", dir.display());
    }
    let s = Sweep::load(dir)?;
    if s.workload != name {
        anyhow::bail!(
            "--resume {}: the sweep runs {}, not {}",
            dir.display(),
            s.workload,
            name
        );
    }
    let given = command_args("run");
    if given.len() > 1 {
        anyhow::bail!(
            "--resume takes no other run options: the sweep goes on with its own ({})",
            s.args.join(" ")
        );
    }
    let mut argv = vec!["txbench".to_string(), "run".to_string()];
    argv.extend(s.args.iter().cloned());
    let cli = crate::cli::parse_args(argv).map_err(|e| {
        anyhow::anyhow!(
            "--resume {}: the recorded options no longer parse: {}",
            dir.display(),
            e.to_string().lines().next().unwrap_or_default()
        )
    })?;
    let crate::cli::Command::Run(cmd) = cli.command else {
        anyhow::bail!(
            "--resume {}: the recorded options are not a run",
            dir.display()
        );
    };
    let mut plan = plan(&cmd)?;
    plan.args = s.args.clone();
    let targets = resolve_targets(out, urls, &cmd.driver.servers)?;
    crate::commands::live::mark(out, dir, Kind::Sweep);
    let threads = cmd.driver.threads.as_ref().map_or(1, |l| l.0[0]);
    let show = Printer::new(out, &plan, threads, &targets)?;
    let sw = sweep::sweep(&plan, &targets, dir, None, &show)?;
    sweep_done(out, &sw, dir)
}
