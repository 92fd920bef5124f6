//! `run`: one level or a sweep, `--resume`, and what the driver shows as it goes.

use super::check::{check_after_run, replicas_after_run};
use super::*;

use super::Output;
use crate::cli::RunCmd;
use crate::commands::resolve_targets;
use crate::config::RunConfig;
use crate::config::ThreadLevels;
use crate::driver;
use crate::engine::{self, TargetUrl};
use crate::error::{EXIT_INTERRUPTED, EXIT_OK, Failure};
use crate::report::text;
use crate::results::{IntervalRow, RunDir, RunStatus, SCHEMA_VERSION, Sweep, SweepLevel};
use crate::workload::oltp::{self, Oltp};
use crate::workload::tpcb;
use crate::workload::tpcc;
use anyhow::{Context, Result};
use indicatif::ProgressBar;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// What the driver shows while it runs.
struct LiveDisplay {
    quiet: bool,
    json: bool,
    /// Names the level of a sweep on every interval line.
    prefix: String,
    level: Option<usize>,
    bar: Option<ProgressBar>,
}

impl driver::Display for LiveDisplay {
    fn interval(&self, row: &IntervalRow) {
        if self.json {
            let mut v = serde_json::to_value(row).unwrap_or_default();
            v["type"] = json!("interval");
            if let Some(l) = self.level {
                v["level"] = json!(l);
            }
            println!("{v}");
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

fn default_run_dir(workload: &str, what: &str) -> PathBuf {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
        .to_string()
        .replace(['-', ':'], "");
    PathBuf::from("runs").join(format!("{stamp}-{workload}-{what}"))
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// `txbench run`: one level, or a sweep of several.
pub fn run(out: &Output, urls: &[String], cmd: &RunCmd) -> Result<i32> {
    let sel = select(&cmd.workload)?;
    let d = &cmd.driver;
    if let Some(spec) = &d.cpus {
        // Before any thread starts: every virtual user inherits it.
        let cpus = crate::server::placement::parse_cpus(spec, "--cpus")?;
        crate::server::placement::pin_self(&cpus)
            .map_err(|e| anyhow::anyhow!("--cpus {spec}: {e}"))?;
    }
    if let Some(dir) = &d.resume {
        return resume(out, urls, &sel, dir, d.out.is_some());
    }
    let levels = d.threads.clone().unwrap_or(ThreadLevels(vec![1]));
    if levels.is_sweep() {
        let dir = d
            .out
            .clone()
            .unwrap_or_else(|| default_run_dir(sel.name(), "sweep"));
        return sweep(out, urls, &sel, cmd, &dir, Some(levels));
    }
    let target = resolve_targets(out, urls, &d.servers)?;
    let threads = levels.0[0];
    let dir = d
        .out
        .clone()
        .unwrap_or_else(|| default_run_dir(sel.name(), &format!("t{threads}")));
    let result = run_level(out, &target, &sel, cmd, threads, &dir, None, None)?;
    if !result.validity.valid {
        return Err(Failure::Invalid(result.validity.reasons.join("; ")).into());
    }
    if result.status == RunStatus::Interrupted {
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(EXIT_OK)
}

/// The `run` arguments of this process after `run`, without the target, the output
/// directory, `--resume` and the output flags: what a sweep needs to run again.
fn run_args() -> Vec<String> {
    let argv: Vec<String> = std::env::args().collect();
    let Some(start) = argv.iter().position(|a| a == "run") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut it = argv[start + 1..].iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--url" | "--out" | "--resume" => {
                it.next();
            }
            "-q" | "--quiet" | "--json" => {}
            _ if a.starts_with("--url=")
                || a.starts_with("--out=")
                || a.starts_with("--resume=") => {}
            _ => out.push(a.clone()),
        }
    }
    out
}

/// `run WORKLOAD --resume DIR`: the sweep's remaining levels, with the options it began with.
fn resume(
    out: &Output,
    urls: &[String],
    sel: &Selected,
    dir: &Path,
    given_out: bool,
) -> Result<i32> {
    if given_out {
        anyhow::bail!(
            "--out cannot go with --resume: the sweep stays in {}",
            dir.display()
        );
    }
    if !dir.join(Sweep::FILE).is_file() {
        anyhow::bail!("--resume {}: no sweep.json there", dir.display());
    }
    let s = Sweep::load(dir)?;
    if s.workload != sel.name() {
        anyhow::bail!(
            "--resume {}: the sweep runs {}, not {}",
            dir.display(),
            s.workload,
            sel.name()
        );
    }
    let given = run_args();
    if given.len() > 1 {
        anyhow::bail!(
            "--resume takes no other run options: the sweep goes on with its own ({})",
            s.args.join(" ")
        );
    }
    let mut argv = vec!["txbench".to_string(), "run".to_string()];
    argv.extend(s.args.iter().cloned());
    let cli = <crate::cli::Cli as clap::Parser>::try_parse_from(&argv).map_err(|e| {
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
    let sel = select(&cmd.workload)?;
    sweep(out, urls, &sel, &cmd, dir, None)
}

/// A sweep: each level in turn on the same data, a run directory per level and sweep.json
/// rewritten after each. `levels` is None to resume the sweep in `dir`.
fn sweep(
    out: &Output,
    urls: &[String],
    sel: &Selected,
    cmd: &RunCmd,
    dir: &Path,
    levels: Option<ThreadLevels>,
) -> Result<i32> {
    let mut sw = match &levels {
        None => {
            if !dir.join(Sweep::FILE).is_file() {
                anyhow::bail!("--resume {}: no sweep.json there", dir.display());
            }
            Sweep::load(dir)?
        }
        Some(l) => {
            if dir.join(Sweep::FILE).exists() {
                anyhow::bail!(
                    "--out {}: holds a sweep already; resume it with --resume {}",
                    dir.display(),
                    dir.display()
                );
            }
            std::fs::create_dir_all(dir)
                .with_context(|| format!("--out {}: cannot create it", dir.display()))?;
            Sweep {
                schema_version: SCHEMA_VERSION,
                workload: sel.name().to_string(),
                workload_options: serde_json::Value::Null,
                levels: l.0.clone(),
                started_at: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
                status: RunStatus::Running,
                args: run_args(),
                runs: Vec::new(),
            }
        }
    };
    // Every recorded level is kept, INVALID ones too (a result, not a failure to finish);
    // an interrupted or failed level was never recorded and runs again.
    if levels.is_none() {
        out.note(&format!(
            "resuming the sweep in {}: {} of {} level(s) kept",
            dir.display(),
            sw.runs.len(),
            sw.levels.len()
        ));
    }
    sw.status = RunStatus::Running;
    sw.write(dir)?;
    let target = resolve_targets(out, urls, &cmd.driver.servers)?;
    let all = sw.levels.clone();
    for (i, &threads) in all.iter().enumerate() {
        if sw.runs.iter().any(|l| l.threads == threads) {
            continue;
        }
        let name = format!("t{threads:05}");
        let level_dir = dir.join(&name);
        if level_dir.exists() {
            std::fs::remove_dir_all(&level_dir)
                .with_context(|| format!("removing the unfinished {}", level_dir.display()))?;
        }
        let result = match run_level(
            out,
            &target[..],
            sel,
            cmd,
            threads,
            &level_dir,
            Some((i + 1, all.len())),
            Some(&sw.workload_options),
        ) {
            Ok(r) => r,
            Err(e) => {
                sw.status = RunStatus::Aborted;
                sw.write(dir)?;
                return Err(e.context(format!(
                    "the level of {threads} threads failed; resume the sweep with --resume {}",
                    dir.display()
                )));
            }
        };
        if sw.workload_options.is_null() {
            sw.workload_options = result.config.workload_options.clone();
        }
        if result.status == RunStatus::Interrupted {
            sw.status = RunStatus::Interrupted;
            sw.write(dir)?;
            out.note(&format!(
                "sweep interrupted at {threads} threads: resume it with `txbench run {} --resume {}`",
                sel.name(),
                dir.display()
            ));
            return Ok(EXIT_INTERRUPTED);
        }
        sw.runs.push(SweepLevel::of(&result, &name));
        sw.runs
            .sort_by_key(|l| all.iter().position(|&t| t == l.threads));
        sw.write(dir)?;
    }
    sw.status = RunStatus::Completed;
    sw.write(dir)?;
    if out.json {
        let mut v = serde_json::to_value(&sw)?;
        v["type"] = json!("sweep");
        v["sweep_dir"] = json!(dir);
        println!("{v}");
    } else {
        print!("{}", text::sweep_table(&sw));
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

/// Runs one level: `level` is (its number, how many) within a sweep, whose earlier levels
/// ran with `expect` as workload options (JSON null: none yet); other options or other
/// data are refused before anything runs.
#[allow(clippy::too_many_arguments)]
fn run_level(
    out: &Output,
    targets: &[TargetUrl],
    sel: &Selected,
    cmd: &RunCmd,
    threads: u32,
    dir: &Path,
    level: Option<(usize, usize)>,
    expect: Option<&serde_json::Value>,
) -> Result<crate::results::RunResult> {
    let d = &cmd.driver;
    let shard = match d.shard {
        Some(s) => Some(s),
        None => crate::shard::Shard::from_env(|k| std::env::var(k).ok()).map_err(Failure::Usage)?,
    };
    // A sweep's levels each start a slot after the previous one, so the shards of every
    // level start together.
    let start_at = d.start_at.map(|t| {
        // Deferred deliveries drain for up to 80 s after a level.
        let drain = match sel {
            Selected::Tpcc(a) if a.delivery == tpcc::run::DeliveryMode::Deferred => {
                Duration::from_secs(80)
            }
            _ => Duration::ZERO,
        };
        let slot = Duration::from_secs_f64(d.warmup + d.time) + LEVEL_GAP + drain;
        t + slot * level.map_or(0, |(i, _)| i as u32 - 1)
    });
    let mut start_note = None;
    if let Some(t) = start_at {
        start_note = crate::shard::check_start_at(t, SystemTime::now())
            .map_err(|e| Failure::Usage(format!("--start-at: {e}")))?;
    }
    // Every shard draws the same inputs as one process would: the seed is given, or derived
    // from the start they share.
    let seed = d
        .seed
        .or_else(|| shard.and(d.start_at).map(crate::shard::Shard::seed_from))
        .unwrap_or_else(clock_seed);
    let target = targets[0].clone();
    let mut conn = engine::connect(&target)?;
    let mut preflight = engine::preflight(&mut conn)?;
    placement_facts(&mut conn, &target, &mut preflight);
    // Replication topologies are MySQL's (PostgreSQL's standbys are not yet followed).
    let (topology, replicas_at_start) = crate::topology::at_start(&mut conn, &target);
    preflight.topology = topology;
    let mut tpcc_run: Option<Arc<tpcc::run::Tpcc>> = None;
    let mut tpcb_run: Option<Arc<tpcb::Tpcb>> = None;
    let mut workload_options = serde_json::Value::Null;
    let workload: Arc<dyn crate::workload::Workload> = match sel {
        Selected::Tpcc(a) => {
            let state = tpcc::ready(&mut conn, a.warehouses)?;
            workload_options = json!({
                "warehouses": a.warehouses, "prepared_warehouses": state.warehouses,
                "null_dates": state.null_dates, "terminal_warehouse": a.terminal_warehouse,
                "think_time": format!("{:?}", a.think_time), "mix": a.mix, "check": a.check,
                "procedures": a.procedures, "delivery": a.delivery,
            });
            // Any run changes the data: condition 11 no longer applies.
            crate::workload::meta::remove_prefix(&mut conn, "tpcc.initial")?;
            if a.procedures {
                let missing = tpcc::procedures::missing(&mut conn)?;
                if !missing.is_empty() {
                    anyhow::bail!(
                        "--procedures: {} not in the database: run `txbench prepare tpcc --warehouses {} --procedures` first",
                        missing.join(", "),
                        state.warehouses
                    );
                }
                // The bodies of this txbench version (an older prepare's may lack checks).
                tpcc::procedures::create(&mut conn, state.null_dates)
                    .context("--procedures: recreating the procedures of this txbench version")?;
            }
            let mut t = tpcc::run::Tpcc::new(
                a.warehouses.unwrap_or(state.warehouses),
                state.null_dates,
                state.c_last_load,
                a.terminal_warehouse,
                a.think_time,
                a.mix,
                seed ^ 0x7cc,
            );
            t.procedures = a.procedures;
            t.threads = threads;
            if a.delivery == tpcc::run::DeliveryMode::Deferred {
                let url = target.clone();
                t.start_deferred(Arc::new(move || engine::connect(&url)))?;
            }
            let t = Arc::new(t);
            tpcc_run = Some(t.clone());
            t
        }
        Selected::Tpcb(a) => {
            let state = tpcb::ready(&mut conn, a.scale)?;
            let o = tpcb::RunOptions {
                variant: tpcb_variant(a),
                remote_pct: a.remote_pct,
            };
            workload_options = json!({
                "scale": state.scale, "history_key": state.history_key,
                "variant": o.variant, "remote_pct": o.remote_pct,
            });
            let mut t = tpcb::Tpcb::new(&mut conn, &state, o, threads)?;
            if shard.is_some() {
                t.share_ids()?;
            }
            let t = Arc::new(t);
            tpcb_run = Some(t.clone());
            t
        }
        Selected::Oltp(kind, o) => {
            oltp::ready(&mut conn, o, sel.name())?;
            Arc::new(Oltp {
                kind: *kind,
                options: o.clone(),
            })
        }
    };
    // The server's clock: --start-at is in it, and merge aligns shards by it.
    let clock = if shard.is_some() || start_at.is_some() {
        Some(engine::clock_offset(&mut conn)?)
    } else {
        None
    };
    drop(conn);
    let part = shard_part(&*workload, d, threads, shard, start_at, clock)?;
    let run_targets = other_targets_ready(sel, targets)?;
    let workload_options = match sel {
        Selected::Tpcb(_) | Selected::Tpcc(_) => workload_options,
        Selected::Oltp(_, o) => serde_json::to_value(o)?,
    };
    if let Some(e) = expect
        && !e.is_null()
        && *e != workload_options
    {
        anyhow::bail!(
            "the data or the options differ from the earlier levels of this sweep (they ran with {e}, this level would run with {workload_options}): start a new sweep"
        );
    }
    let cfg = RunConfig {
        workload: sel.name().to_string(),
        url: target.to_string(),
        targets: if targets.len() > 1 {
            targets.iter().map(|t| t.to_string()).collect()
        } else {
            Vec::new()
        },
        threads,
        time_s: d.time,
        warmup_s: d.warmup,
        events: d.events,
        report_interval_s: d.report_interval,
        rate: d.rate,
        rate_dist: d.rate_dist,
        seed,
        retries: d.retries,
        max_error_rate: d.max_error_rate / 100.0,
        isolation: d.isolation,
        workload_options,
        stability_window_s: d.stability_window.unwrap_or(0.0),
        server_metrics: !d.no_server_metrics,
        shard,
        start_at: start_at.map(crate::shard::rfc3339),
    };
    let mut run_dir = RunDir::create(dir, SystemTime::now())?;
    let prefix = level.map_or(String::new(), |(i, n)| format!("[level {i}/{n}] "));
    if let Some(line) = &start_note {
        out.note(&format!("{prefix}{line}"));
    }
    out.note(&format!(
        "{prefix}txbench {}: {} on {target}, {}{} threads, {} s{} (seed {}); results in {}",
        env!("CARGO_PKG_VERSION"),
        sel.name(),
        shard.map_or(String::new(), |s| format!(
            "shard {s}: {} of ",
            part.users.len()
        )),
        threads,
        d.time,
        if d.warmup > 0.0 {
            format!(" after {} s warm-up", d.warmup)
        } else {
            String::new()
        },
        cfg.seed,
        dir.display()
    ));
    let display = LiveDisplay {
        quiet: out.quiet,
        json: out.json,
        prefix,
        level: level.map(|l| l.0),
        bar: progress_bar(
            out,
            (d.time + d.warmup).ceil() as u64,
            "{elapsed_precise} [{bar:40}] {pos}/{len} s",
        ),
    };
    let result = driver::run(
        &cfg,
        &part,
        &run_targets,
        workload,
        preflight,
        &mut run_dir,
        &display,
    );
    // A frozen server would hang every statement sent after the run: send none.
    let frozen = result.as_ref().is_ok_and(|r| {
        r.validity
            .reasons
            .iter()
            .any(|r| r.starts_with(crate::sampler::UNRESPONSIVE))
    });
    // Whatever became of the run, its committed history rows are in the table: record them.
    let tpcb_recorded = tpcb_run
        .as_ref()
        .filter(|_| !frozen)
        .map(|t| engine::connect(&target).and_then(|mut c| t.record(&mut c)));
    let mut result = result?;
    if let Some(t) = &tpcc_run {
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
        if let Selected::Tpcc(a) = sel
            && a.check
            && !frozen
            && result.status != RunStatus::Interrupted
        {
            let mut conn = engine::connect(&target)?;
            let conditions = tpcc::check::run(&mut conn, t.null_dates, false)?;
            check_after_run(
                &mut result,
                &conditions,
                "conditions 1-10 and 12 pass",
                |c| format!("{} ({} violating)", c.number, c.violations),
                ", ",
            );
        }
        if let Selected::Tpcc(a) = sel
            && a.check
            && !frozen
            && result.status != RunStatus::Interrupted
        {
            replicas_after_run(&mut result, &target, &replicas_at_start)?;
        }
        run_dir.write_result(&result)?;
    }
    if let Some(recorded) = tpcb_recorded {
        // `check tpcb` compares the history with what every run committed.
        if let Err(e) = recorded {
            result.notes.push(format!(
                "the history rows this run committed could not be recorded ({e:#}): `check tpcb` will find more rows than recorded"
            ));
        } else if let Selected::Tpcb(a) = sel
            && a.check
            && result.status != RunStatus::Interrupted
        {
            let mut conn = engine::connect(&target)?;
            let state = tpcb::ready(&mut conn, None)?;
            let conditions = tpcb::check(&mut conn, &state)?;
            check_after_run(
                &mut result,
                &conditions,
                "all 6 conditions pass",
                |c| format!("{} ({}: {})", c.number, c.description, c.detail),
                "; ",
            );
            replicas_after_run(&mut result, &target, &replicas_at_start)?;
        }
        run_dir.write_result(&result)?;
    }
    if let Some(b) = &display.bar {
        b.finish_and_clear();
    }
    if out.json {
        println!(
            "{}",
            json!({"type": "summary", "run_dir": dir, "status": result.status,
                   "validity": result.validity, "summary": result.summary,
                   "workload_report": result.workload_report, "stability": result.stability,
                   "notes": result.notes, "level": level.map(|l| l.0)})
        );
    } else if !(out.quiet && level.is_some()) {
        // A quiet sweep prints only its table at the end.
        print!("{}", text::summary(&result));
        if !out.quiet {
            println!("results: {}", dir.display());
        }
    }
    Ok(result)
}

/// The pause between a sharded sweep's levels: each level starts this long after the
/// previous one's planned end, time for its last transactions, checks and deferred work.
const LEVEL_GAP: Duration = Duration::from_secs(10);

/// This process's part of the run: every virtual user, or shard `shard`'s (its users, its
/// share of --events and --rate, its record); `start_at` in the server's clock, `clock` the
/// server's offset and round trip.
fn shard_part(
    workload: &dyn crate::workload::Workload,
    d: &crate::cli::DriverArgs,
    threads: u32,
    shard: Option<crate::shard::Shard>,
    start_at: Option<SystemTime>,
    clock: Option<(f64, f64)>,
) -> Result<driver::Part> {
    let (offset, rtt) = clock.unwrap_or((0.0, 0.0));
    // The server's clock ahead of ours by `offset`: its start comes that much earlier here.
    let local_start = start_at.map(|t| {
        let o = Duration::from_secs_f64(offset.abs());
        if offset >= 0.0 { t - o } else { t + o }
    });
    let Some(s) = shard else {
        return Ok(driver::Part {
            users: (0..threads).collect(),
            events: d.events,
            rate: d.rate,
            start_at: local_start,
            shard: None,
        });
    };
    let users = workload
        .shard_users(threads, s)
        .map_err(|e| Failure::Usage(format!("--shard {s}: {e}")))?;
    let counts: Vec<u32> = (1..=s.count)
        .map(|k| {
            workload
                .shard_users(threads, crate::shard::Shard { index: k, ..s })
                .map(|u| u.len() as u32)
        })
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::Usage(format!("--shard {s}: {e}")))?;
    let events = d.events.map(|e| s.part_of(e, &counts));
    let rate = d
        .rate
        .map(|r| r * users.len() as f64 / f64::from(threads.max(1)));
    Ok(driver::Part {
        events,
        rate,
        start_at: local_start,
        shard: Some(crate::results::ShardRecord {
            index: s.index,
            count: s.count,
            users: users.clone(),
            events,
            rate,
            start_unix_s: 0.0,
            clock_offset_s: offset,
            clock_rtt_s: rtt,
            server_measured: None,
            opening_lag_s: 0.0,
            server_count: None,
            commits: Vec::new(),
            autocommit_statements: Vec::new(),
        }),
        users,
    })
}

/// Checks that every other target holds the first's workload data (TPC-C's warehouses,
/// TPC-B's scale, the oltp tables), as the first was checked; TPC-C's procedures are created
/// on each. Says which targets are Galera nodes, and whether all are nodes of one cluster
/// (one database, so counts kept in its tables are the cluster's, not each node's).
fn other_targets_ready(sel: &Selected, targets: &[TargetUrl]) -> Result<driver::Targets> {
    let (first, others) = (&targets[0], &targets[1..]);
    let galera =
        |t: &TargetUrl| -> Result<bool> { crate::topology::is_galera(&mut engine::connect(t)?) };
    let mut out = driver::Targets {
        urls: targets.to_vec(),
        shared_data: false,
        galera: targets.iter().map(galera).collect::<Result<_>>()?,
    };
    if others.is_empty() {
        return Ok(out);
    }
    let shape = |conn: &mut crate::engine::Conn| -> Result<String> {
        // A Galera node may still be applying the load: read after it (causal reads).
        crate::topology::causal_reads(conn);
        Ok(match sel {
            Selected::Tpcc(a) => {
                let st = tpcc::ready(conn, a.warehouses)?;
                crate::workload::meta::remove_prefix(conn, "tpcc.initial")?;
                if a.procedures {
                    tpcc::procedures::create(conn, st.null_dates)?;
                }
                format!(
                    "{} warehouse(s), --null-dates {}",
                    st.warehouses,
                    st.null_dates.name()
                )
            }
            Selected::Tpcb(a) => {
                let st = tpcb::ready(conn, a.scale)?;
                format!(
                    "scale {}, --history-key {}",
                    st.scale,
                    st.history_key.name()
                )
            }
            Selected::Oltp(_, o) => {
                oltp::ready(conn, o, sel.name())?;
                String::new()
            }
        })
    };
    let mut c = engine::connect(first)?;
    let want = shape(&mut c)?;
    let cluster = crate::topology::cluster_of(&mut c);
    let mut shared = cluster.is_some();
    for t in others {
        let mut c = engine::connect(t)?;
        let has = shape(&mut c).with_context(|| format!("target {t}"))?;
        if has != want {
            anyhow::bail!(
                "target {t} holds {has}, the first target {want}: every target needs the same data"
            );
        }
        shared &= cluster.is_some() && crate::topology::cluster_of(&mut c) == cluster;
    }
    out.shared_data = shared;
    Ok(out)
}

/// The pre-flight's placement facts: the driver's CPUs, and when the server runs on this
/// host (its pid file names a live process) its CPUs and its binary with the SHA-256, so a
/// run records which build it measured. What cannot be read is left out.
fn placement_facts(
    conn: &mut crate::engine::Conn,
    url: &TargetUrl,
    p: &mut crate::preflight::Preflight,
) {
    use crate::server::{binary, placement};
    p.host.insert(
        "driver_cpus".into(),
        placement::format_list(&placement::host_cpus()),
    );
    if !url.is_local() {
        return;
    }
    let Ok(Some((pid_file, datadir))) =
        conn.query_first::<(String, String)>(match conn.engine() {
            engine::Engine::Mysql => "SELECT @@pid_file, @@datadir",
            // postmaster.pid in the data directory: its first line is the pid.
            engine::Engine::Postgres => {
                "SELECT current_setting('data_directory') || '/postmaster.pid', current_setting('data_directory')"
            }
        })
    else {
        return;
    };
    let path = if Path::new(&pid_file).is_absolute() {
        std::path::PathBuf::from(&pid_file)
    } else {
        Path::new(&datadir).join(&pid_file)
    };
    let Ok(pid) = crate::sampler::host::server_pid(&path) else {
        return;
    };
    if let Some(c) = placement::cpus_allowed(pid) {
        p.host.insert("server_cpus".into(), c);
    }
    if let Ok(exe) = std::fs::read_link(format!("/proc/{pid}/exe")) {
        if let Ok(sha) = binary::sha256(Path::new(&format!("/proc/{pid}/exe"))) {
            p.host.insert("server_binary_sha256".into(), sha);
        }
        p.host
            .insert("server_binary".into(), exe.display().to_string());
    }
}
