//! One level: the pre-flight, the workload made ready on every target, its RunConfig built
//! from the plan, the driver's run, and the checks and deferred work after it.

use super::after::{AfterRun, frozen, record_history, tpcb_after_run, tpcc_after_run};
use super::growth::Measured;
use super::{Choice, LEVEL_GAP, Plan, Show, clock_seed, growth, part};
use crate::config::RunConfig;
use crate::driver;
use crate::engine::{self, TargetUrl};
use crate::error::Failure;
use crate::results::{RunDir, RunResult};
use crate::topology::ReplicaAddr;
use crate::workload::oltp::{self, Oltp};
use crate::workload::script::{ScriptRun, ScriptSet};
use crate::workload::tpcc::sets::TableSets;
use crate::workload::{tpcb, tpcc};
use anyhow::{Context, Result};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// Runs one level of `threads` in `dir`: `level` is (its number, how many) within a sweep,
/// whose earlier levels ran with `expect` as workload options (JSON null: none yet); other
/// options or other data are refused before anything runs.
pub fn level(
    plan: &Plan,
    targets: &[TargetUrl],
    threads: u32,
    dir: &Path,
    level: Option<(usize, usize)>,
    expect: Option<&serde_json::Value>,
    show: &dyn Show,
) -> Result<RunResult> {
    Level {
        plan,
        targets,
        threads,
        dir,
        position: level,
        expect,
        show,
    }
    .run()
}

/// What a level is entered with.
struct Level<'a> {
    /// The plan its RunConfig derives from.
    plan: &'a Plan,
    /// The targets: the first one's pre-flight, data and checks are the level's.
    targets: &'a [TargetUrl],
    /// Its thread count (virtual users).
    threads: u32,
    /// Its run directory.
    dir: &'a Path,
    /// (its number, how many) within a sweep.
    position: Option<(usize, usize)>,
    /// The workload options the sweep's earlier levels ran with (JSON null: none yet).
    expect: Option<&'a serde_json::Value>,
    /// What it shows as it goes.
    show: &'a dyn Show,
}

/// When a level starts, and the seed its inputs are drawn from.
struct Schedule {
    /// --start-at moved to this level's slot of a sweep, in the server's clock.
    start_at: Option<SystemTime>,
    /// What the check of that start has to say (shown before the level's first line).
    start_note: Option<String>,
    /// The seed.
    seed: u64,
}

/// The first target after its pre-flight.
struct FirstTarget {
    /// Its URL.
    url: TargetUrl,
    /// The connection the workload is made ready on (closed before the other targets).
    conn: engine::Conn,
    /// The pre-flight the run records.
    preflight: crate::preflight::Preflight,
    /// The replicas its primary had at the start (`--check` verifies they converged).
    replicas_at_start: Vec<ReplicaAddr>,
}

/// The workload made ready on the first target.
struct Ready {
    /// What the driver runs.
    workload: Arc<dyn crate::workload::Workload>,
    /// TPC-C's run, for its deferred deliveries, report and check after the run.
    tpcc: Option<Arc<tpcc::run::Tpcc>>,
    /// TPC-B's run, to record its history rows after the run.
    tpcb: Option<Arc<tpcb::Tpcb>>,
    /// TPC-C's table sets.
    sets: Option<TableSets>,
    /// TPC-C's and TPC-B's workload options as the level records them (null for oltp_*).
    options: serde_json::Value,
}

/// What the first target says before the run.
struct AtStart {
    /// The server's clock offset and round trip (with --shard or --start-at).
    clock: Option<(f64, f64)>,
    /// The `prepare` command line that made the data.
    prepare_args: Vec<String>,
    /// The growing tables' sizes at the start.
    growth_start: Result<Vec<Measured>>,
}

impl Level<'_> {
    /// The level's life, step by step in the order of events.
    fn run(&self) -> Result<RunResult> {
        let when = self.schedule()?;
        let mut first = self.preflight()?;
        let ready = self.workload_ready(&mut first.conn, when.seed)?;
        let at_start = self.read_at_start(&mut first.conn, &when, ready.sets.as_ref())?;
        drop(first.conn);
        let (part, run_targets) = self.part_and_targets(&*ready.workload, &when, at_start.clock)?;
        let cfg = self.run_config(&first.url, &when, ready.options, at_start.prepare_args)?;
        let mut run_dir = RunDir::create(self.dir, SystemTime::now())?;
        let display = self.announce(&first.url, &cfg, &when, &part);
        let result = driver::run(
            &cfg,
            &part,
            &run_targets,
            ready.workload,
            first.preflight,
            &mut run_dir,
            display.as_ref(),
        );
        let after = AfterRun {
            choice: &self.plan.choice,
            targets: self.targets,
            target: &first.url,
            sets: ready.sets.as_ref(),
            frozen: frozen(&result),
            shared_data: run_targets.shared_data,
            replicas_at_start: &first.replicas_at_start,
        };
        let tpcb_recorded = record_history(ready.tpcb.as_deref(), &after);
        let mut result = result?;
        if let Some(t) = &ready.tpcc {
            tpcc_after_run(t, &mut result, &after)?;
            run_dir.write_result(&result)?;
        }
        if let Some(recorded) = tpcb_recorded {
            tpcb_after_run(recorded, &mut result, &after)?;
            run_dir.write_result(&result)?;
        }
        growth_at_end(at_start.growth_start, &mut result, &mut run_dir, &after)?;
        display.finish();
        self.show
            .level_done(&result, self.dir, self.position.map(|l| l.0));
        Ok(result)
    }

    /// When the level starts (--start-at, a sweep's slot later per level), that start
    /// checked, and the seed.
    fn schedule(&self) -> Result<Schedule> {
        let plan = self.plan;
        // A sweep's levels each start a slot after the previous one, so the shards of every
        // level start together.
        let start_at = plan.start_at.map(|t| {
            // Deferred deliveries drain for up to 80 s after a level.
            let drain = match &plan.choice {
                Choice::Tpcc { options, .. }
                    if options.delivery == tpcc::run::DeliveryMode::Deferred =>
                {
                    Duration::from_secs(80)
                }
                _ => Duration::ZERO,
            };
            let slot = Duration::from_secs_f64(plan.driver.warmup_s + plan.driver.time_s)
                + LEVEL_GAP
                + drain;
            t + slot * self.position.map_or(0, |(i, _)| i as u32 - 1)
        });
        let mut start_note = None;
        if let Some(t) = start_at {
            start_note = crate::shard::check_start_at(t, SystemTime::now())
                .map_err(|e| Failure::Usage(format!("--start-at: {e}")))?;
        }
        // Every shard draws the same inputs as one process would: the seed is given, or derived
        // from the start they share.
        let seed = plan
            .seed
            .or_else(|| {
                plan.driver
                    .shard
                    .and(plan.start_at)
                    .map(crate::shard::Shard::seed_from)
            })
            .unwrap_or_else(clock_seed);
        Ok(Schedule {
            start_at,
            start_note,
            seed,
        })
    }

    /// The first target connected and its pre-flight taken: placement facts and topology.
    fn preflight(&self) -> Result<FirstTarget> {
        let target = self.targets[0].clone();
        let mut conn = engine::connect(&target)?;
        let mut preflight = engine::preflight(&mut conn)?;
        part::placement_facts(&mut conn, &target, &mut preflight);
        // Replication topologies are MySQL's (PostgreSQL's standbys are not yet followed).
        let (topology, replicas_at_start) = crate::topology::at_start(&mut conn, &target);
        preflight.topology = topology;
        Ok(FirstTarget {
            url: target,
            conn,
            preflight,
            replicas_at_start,
        })
    }

    /// The workload made ready on the first target over `conn`, its inputs drawn from `seed`.
    fn workload_ready(&self, conn: &mut engine::Conn, seed: u64) -> Result<Ready> {
        match &self.plan.choice {
            Choice::Tpcc {
                warehouses,
                check,
                table_sets,
                options: a,
            } => self.tpcc_ready(conn, seed, *warehouses, *check, *table_sets, a),
            Choice::Tpcb { scale, options, .. } => self.tpcb_ready(conn, *scale, options),
            Choice::Lua { script, given } => Ok(self.lua_ready(script, given)),
            Choice::Script(set) => {
                let scale = script_scale(conn, set)?;
                Ok(Ready {
                    options: set.recorded(scale),
                    workload: Arc::new(ScriptRun::new(set.clone(), scale, seed)),
                    tpcc: None,
                    tpcb: None,
                    sets: None,
                })
            }
            Choice::Oltp(kind, o) => {
                oltp::ready(conn, o, self.plan.choice.name())?;
                Ok(Ready {
                    workload: Arc::new(Oltp {
                        kind: *kind,
                        options: o.clone(),
                    }),
                    tpcc: None,
                    tpcb: None,
                    sets: None,
                    options: serde_json::Value::Null,
                })
            }
        }
    }

    /// TPC-C made ready: every table set of the first target ready to run, a terminal for
    /// each set, and the deferred deliverer started when deliveries are deferred.
    fn tpcc_ready(
        &self,
        conn: &mut engine::Conn,
        seed: u64,
        warehouses: Option<u32>,
        check: bool,
        table_sets: Option<u32>,
        a: &tpcc::run::RunOptions,
    ) -> Result<Ready> {
        let (target, targets, threads) = (&self.targets[0], self.targets, self.threads);
        let s = tpcc::sets::resolve(conn, table_sets)?;
        let states = tpcc::sets::ready_all(target, &s, warehouses)?;
        let state = states[0].clone();
        if threads < s.count {
            return Err(Failure::Usage(format!(
                "--threads {threads} for {} table sets: every set needs a terminal (--table-sets {threads} runs on fewer)",
                s.count
            ))
            .into());
        }
        let workload_options = a.recorded(
            warehouses,
            state.warehouses,
            state.null_dates,
            check,
            s.count,
        );
        for (k, st) in (1..).zip(&states) {
            let mut conn = s.connect(target, k)?;
            tpcc::run::ready_to_run(&mut conn, a, st)
                .with_context(|| format!("table {}", s.name(k)))?;
        }
        let mut t = tpcc::run::Tpcc::new(
            warehouses.unwrap_or(state.warehouses),
            state.null_dates,
            state.c_last_load,
            a,
            (threads, &s),
            seed ^ 0x7cc,
        );
        if a.delivery == tpcc::run::DeliveryMode::Deferred {
            let (urls, s) = (targets.to_vec(), s.clone());
            t.start_deferred(targets.len(), Arc::new(move |i, k| s.connect(&urls[i], k)))?;
        }
        let t = Arc::new(t);
        Ok(Ready {
            workload: t.clone(),
            tpcc: Some(t),
            tpcb: None,
            sets: Some(s),
            options: workload_options,
        })
    }

    /// TPC-B made ready at `scale` (None: the prepared one) on the first target.
    fn tpcb_ready(
        &self,
        conn: &mut engine::Conn,
        scale: Option<u32>,
        options: &tpcb::RunOptions,
    ) -> Result<Ready> {
        let state = tpcb::ready(conn, scale)?;
        let o = *options;
        let workload_options = o.recorded(state.scale, state.history_key);
        let t = Arc::new(tpcb::Tpcb::new(
            conn,
            &state,
            o,
            self.threads,
            self.plan.driver.shard.is_some(),
        )?);
        Ok(Ready {
            workload: t.clone(),
            tpcc: None,
            tpcb: Some(t),
            sets: None,
            options: workload_options,
        })
    }

    /// A sysbench Lua script ready: sysbench.opt's general options from the plan (threads
    /// this level's), the script's hash and options recorded.
    fn lua_ready(
        &self,
        script: &Arc<crate::workload::lua::Script>,
        given: &Arc<crate::workload::lua::options::Given>,
    ) -> Ready {
        let general = lua_general(self.plan, self.threads);
        Ready {
            workload: Arc::new(crate::workload::lua::LuaWorkload::new(
                script.clone(),
                given.clone(),
                general,
            )),
            tpcc: None,
            tpcb: None,
            sets: None,
            options: script.recorded(given),
        }
    }

    /// What the first target says before the run: its clock, how its data was made, and the
    /// sizes of the tables the workload grows.
    fn read_at_start(
        &self,
        conn: &mut engine::Conn,
        when: &Schedule,
        sets: Option<&TableSets>,
    ) -> Result<AtStart> {
        // The server's clock: --start-at is in it, and merge aligns shards by it.
        let clock = if self.plan.driver.shard.is_some() || when.start_at.is_some() {
            Some(engine::clock_offset(conn)?)
        } else {
            None
        };
        // How the data was made, so the run can be repeated on a copy (`history --confirm`).
        let prepare_args = crate::workload::meta::get(conn, crate::workload::meta::PREPARE_ARGS)?
            .and_then(|v| serde_json::from_str(&v).ok())
            .unwrap_or_default();
        let growth_start =
            growth::measure(&self.targets[0], sets, growth_tables(&self.plan.choice));
        Ok(AtStart {
            clock,
            prepare_args,
            growth_start,
        })
    }

    /// This process's part of the virtual users, and the other targets made ready as the
    /// first was; TPC-B's `--check` refused on targets that each hold data of their own.
    fn part_and_targets(
        &self,
        workload: &dyn crate::workload::Workload,
        when: &Schedule,
        clock: Option<(f64, f64)>,
    ) -> Result<(driver::Part, driver::Targets)> {
        let (plan, targets) = (self.plan, self.targets);
        let shard = plan.driver.shard;
        let part = part::shard_part(workload, plan, self.threads, shard, when.start_at, clock)?;
        let run_targets = part::other_targets_ready(&plan.choice, targets)?;
        if matches!(plan.choice, Choice::Tpcb { check: true, .. })
            && targets.len() > 1
            && !run_targets.shared_data
        {
            return Err(Failure::Usage(
                "--check: TPC-B's check compares the history with the rows the runs committed, recorded on the first target only, so it cannot check targets that are not nodes of one cluster: run without --check".into(),
            )
            .into());
        }
        Ok((part, run_targets))
    }

    /// The level's RunConfig: the plan's driver options with this level's targets, threads,
    /// seed, workload options (`options`, or oltp_*'s own) and start; refused when the
    /// workload options differ from those of the sweep's earlier levels.
    fn run_config(
        &self,
        target: &TargetUrl,
        when: &Schedule,
        options: serde_json::Value,
        prepare_args: Vec<String>,
    ) -> Result<RunConfig> {
        let (plan, targets) = (self.plan, self.targets);
        let workload_options = match &plan.choice {
            Choice::Tpcb { .. } | Choice::Tpcc { .. } | Choice::Lua { .. } | Choice::Script(_) => {
                options
            }
            Choice::Oltp(_, o) => serde_json::to_value(o)?,
        };
        if let Some(e) = self.expect
            && !e.is_null()
            && *e != workload_options
        {
            anyhow::bail!(
                "the data or the options differ from the earlier levels of this sweep (they ran with {e}, this level would run with {workload_options}): start a new sweep"
            );
        }
        Ok(RunConfig {
            url: target.to_string(),
            targets: if targets.len() > 1 {
                targets.iter().map(|t| t.to_string()).collect()
            } else {
                Vec::new()
            },
            threads: self.threads,
            seed: when.seed,
            workload_options,
            start_at: when.start_at.map(crate::shard::rfc3339),
            args: plan.args.clone(),
            prepare_args,
            ..plan.driver.clone()
        })
    }

    /// Shows the level's start (the note on --start-at, then what runs where, and where its
    /// results go) and opens its live display.
    fn announce(
        &self,
        target: &TargetUrl,
        cfg: &RunConfig,
        when: &Schedule,
        part: &driver::Part,
    ) -> Box<dyn driver::Display> {
        let (show, level) = (self.show, self.position);
        let prefix = level.map_or(String::new(), |(i, n)| format!("[level {i}/{n}] "));
        if let Some(line) = &when.start_note {
            show.note(&format!("{prefix}{line}"));
        }
        show.note(&format!(
            "{prefix}txbench {}: {} on {target}, {}{} threads, {} s{} (seed {}); results in {}",
            env!("CARGO_PKG_VERSION"),
            self.plan.choice.name(),
            self.plan.driver.shard.map_or(String::new(), |s| format!(
                "shard {s}: {} of ",
                part.users.len()
            )),
            self.threads,
            cfg.time_s,
            if cfg.warmup_s > 0.0 {
                format!(" after {} s warm-up", cfg.warmup_s)
            } else {
                String::new()
            },
            cfg.seed,
            self.dir.display()
        ));
        show.level_display(
            prefix,
            level.map(|l| l.0),
            (cfg.time_s + cfg.warmup_s).ceil() as u64,
        )
    }
}

/// The tables `choice` adds to, whose growth over the run is measured.
fn growth_tables(choice: &Choice) -> &'static [&'static str] {
    // How the tables the workload adds to grow over the run (seed 001: growth is one reason
    // long TPC-C runs decline). ANALYZE needs more than SELECT: a refusal is a note.
    match choice {
        Choice::Tpcc { .. } => &["orders", "order_line", "history", "new_order"],
        Choice::Tpcb { .. } => &["pgbench_history"],
        Choice::Oltp(..) | Choice::Script(_) | Choice::Lua { .. } => &[],
    }
}

/// pgbench's `:scale`: -D scale when given, else the rows of pgbench_branches when a built-in
/// script runs, else 1 (pgbench's default for custom scripts).
fn script_scale(conn: &mut engine::Conn, set: &ScriptSet) -> Result<i64> {
    if let Some(s) = set.define("scale") {
        return s
            .trim()
            .parse()
            .map_err(|_| Failure::Usage(format!("-D scale={s}: not a whole number")).into());
    }
    if !set.uses_builtin() {
        return Ok(1);
    }
    let n: Option<i64> = conn
        .query_first("SELECT COUNT(*) FROM pgbench_branches")
        .map_err(|e| {
            anyhow::anyhow!(
                "the built-in scripts run on pgbench's tables ({e}): run `txbench prepare tpcb --scale N` first"
            )
        })?;
    match n {
        Some(n) if n > 0 => Ok(n),
        _ => anyhow::bail!("pgbench_branches is empty: run `txbench prepare tpcb --scale N` first"),
    }
}

/// The tables' growth from `start` to the end of the run (not measured on a frozen
/// server), or a note saying why it was not measured; result.json rewritten with it.
fn growth_at_end(
    start: Result<Vec<Measured>>,
    result: &mut RunResult,
    run_dir: &mut RunDir,
    after: &AfterRun,
) -> Result<()> {
    match start {
        Ok(start) if !start.is_empty() && !after.frozen => {
            match growth::measure(after.target, after.sets, growth_tables(after.choice)) {
                Ok(end) => result.database_growth = growth::between(&start, &end),
                Err(e) => result.notes.push(format!(
                    "the tables' growth was not measured at the end: {}",
                    crate::error::one_line(&e)
                )),
            }
            run_dir.write_result(result)?;
        }
        Err(e) => {
            result.notes.push(format!(
                "the tables' growth was not measured: {}",
                crate::error::one_line(&e)
            ));
            run_dir.write_result(result)?;
        }
        _ => {}
    }
    Ok(())
}

/// sysbench.opt's general options of a Lua script's run at `threads` (threads, time,
/// events, rate, report_interval, warmup_time).
pub fn lua_general(plan: &Plan, threads: u32) -> Vec<(&'static str, f64)> {
    let d = &plan.driver;
    vec![
        ("threads", f64::from(threads)),
        ("time", d.time_s),
        ("events", d.events.unwrap_or(0) as f64),
        ("rate", d.rate.unwrap_or(0.0)),
        ("report_interval", d.report_interval_s),
        ("warmup_time", d.warmup_s),
    ]
}
