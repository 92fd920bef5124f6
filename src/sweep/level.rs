//! One level: the pre-flight, the workload made ready on every target, its RunConfig built
//! from the plan, the driver's run, and the checks and deferred work after it.

use super::after::{check_after_run, replicas_after_run};
use super::{Choice, LEVEL_GAP, Plan, Show, clock_seed, growth, part};
use crate::config::RunConfig;
use crate::driver;
use crate::engine::{self, TargetUrl};
use crate::error::Failure;
use crate::results::{RunDir, RunResult, RunStatus};
use crate::workload::oltp::{self, Oltp};
use crate::workload::{tpcb, tpcc};
use anyhow::{Context, Result};
use serde_json::json;
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
    let shard = plan.driver.shard;
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
        let slot =
            Duration::from_secs_f64(plan.driver.warmup_s + plan.driver.time_s) + LEVEL_GAP + drain;
        t + slot * level.map_or(0, |(i, _)| i as u32 - 1)
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
        .or_else(|| shard.and(plan.start_at).map(crate::shard::Shard::seed_from))
        .unwrap_or_else(clock_seed);
    let target = targets[0].clone();
    let mut conn = engine::connect(&target)?;
    let mut preflight = engine::preflight(&mut conn)?;
    part::placement_facts(&mut conn, &target, &mut preflight);
    // Replication topologies are MySQL's (PostgreSQL's standbys are not yet followed).
    let (topology, replicas_at_start) = crate::topology::at_start(&mut conn, &target);
    preflight.topology = topology;
    let mut tpcc_run: Option<Arc<tpcc::run::Tpcc>> = None;
    let mut sets = None;
    let mut tpcb_run: Option<Arc<tpcb::Tpcb>> = None;
    let mut workload_options = serde_json::Value::Null;
    let workload: Arc<dyn crate::workload::Workload> = match &plan.choice {
        Choice::Tpcc {
            warehouses,
            check,
            table_sets,
            options: a,
        } => {
            let s = tpcc::sets::resolve(&mut conn, *table_sets)?;
            let states = tpcc::sets::ready_all(&target, &s, *warehouses)?;
            let state = states[0].clone();
            if threads < s.count {
                return Err(Failure::Usage(format!(
                    "--threads {threads} for {} table sets: every set needs a terminal (--table-sets {threads} runs on fewer)",
                    s.count
                ))
                .into());
            }
            workload_options = json!({
                "warehouses": warehouses, "prepared_warehouses": state.warehouses,
                "null_dates": state.null_dates, "terminal_warehouse": a.terminals,
                "think_time": format!("{:?}", a.think), "mix": a.mix, "check": check,
                "procedures": a.procedures, "delivery": a.delivery,
            });
            if s.count > 1 {
                workload_options["table_sets"] = json!(s.count);
            }
            for (k, st) in (1..).zip(&states) {
                let mut conn = s.connect(&target, k)?;
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
            sets = Some(s);
            let t = Arc::new(t);
            tpcc_run = Some(t.clone());
            t
        }
        Choice::Tpcb { scale, options, .. } => {
            let state = tpcb::ready(&mut conn, *scale)?;
            let o = *options;
            workload_options = json!({
                "scale": state.scale, "history_key": state.history_key,
                "variant": o.variant, "remote_pct": o.remote_pct,
            });
            let t = Arc::new(tpcb::Tpcb::new(
                &mut conn,
                &state,
                o,
                threads,
                shard.is_some(),
            )?);
            tpcb_run = Some(t.clone());
            t
        }
        Choice::Oltp(kind, o) => {
            oltp::ready(&mut conn, o, plan.choice.name())?;
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
    // How the data was made, so the run can be repeated on a copy (`history --confirm`).
    let prepare_args = crate::workload::meta::get(&mut conn, crate::workload::meta::PREPARE_ARGS)?
        .and_then(|v| serde_json::from_str(&v).ok())
        .unwrap_or_default();
    // How the tables the workload adds to grow over the run (seed 001: growth is one reason
    // long TPC-C runs decline). ANALYZE needs more than SELECT: a refusal is a note.
    let growth_tables: &[&str] = match &plan.choice {
        Choice::Tpcc { .. } => &["orders", "order_line", "history", "new_order"],
        Choice::Tpcb { .. } => &["pgbench_history"],
        Choice::Oltp(..) => &[],
    };
    let growth_start = growth::measure(&target, sets.as_ref(), growth_tables);
    drop(conn);
    let part = part::shard_part(&*workload, plan, threads, shard, start_at, clock)?;
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
    let workload_options = match &plan.choice {
        Choice::Tpcb { .. } | Choice::Tpcc { .. } => workload_options,
        Choice::Oltp(_, o) => serde_json::to_value(o)?,
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
        url: target.to_string(),
        targets: if targets.len() > 1 {
            targets.iter().map(|t| t.to_string()).collect()
        } else {
            Vec::new()
        },
        threads,
        seed,
        workload_options,
        start_at: start_at.map(crate::shard::rfc3339),
        args: plan.args.clone(),
        prepare_args,
        ..plan.driver.clone()
    };
    let mut run_dir = RunDir::create(dir, SystemTime::now())?;
    let prefix = level.map_or(String::new(), |(i, n)| format!("[level {i}/{n}] "));
    if let Some(line) = &start_note {
        show.note(&format!("{prefix}{line}"));
    }
    show.note(&format!(
        "{prefix}txbench {}: {} on {target}, {}{} threads, {} s{} (seed {}); results in {}",
        env!("CARGO_PKG_VERSION"),
        plan.choice.name(),
        shard.map_or(String::new(), |s| format!(
            "shard {s}: {} of ",
            part.users.len()
        )),
        threads,
        cfg.time_s,
        if cfg.warmup_s > 0.0 {
            format!(" after {} s warm-up", cfg.warmup_s)
        } else {
            String::new()
        },
        cfg.seed,
        dir.display()
    ));
    let display = show.level_display(
        prefix,
        level.map(|l| l.0),
        (cfg.time_s + cfg.warmup_s).ceil() as u64,
    );
    let result = driver::run(
        &cfg,
        &part,
        &run_targets,
        workload,
        preflight,
        &mut run_dir,
        display.as_ref(),
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
        let check = matches!(plan.choice, Choice::Tpcc { check: true, .. })
            && !frozen
            && result.status != RunStatus::Interrupted;
        if check {
            // Every target that holds data of its own (not a node of one cluster).
            let checked = if run_targets.shared_data {
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
                &mut result,
                &conditions,
                match (several, each_target) {
                    (false, false) => "conditions 1-10 and 12 pass",
                    (true, false) => "conditions 1-10 and 12 pass in every table set",
                    (false, true) => "conditions 1-10 and 12 pass on every target",
                    (true, true) => {
                        "conditions 1-10 and 12 pass in every table set of every target"
                    }
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
        }
        if check {
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
        } else if matches!(plan.choice, Choice::Tpcb { check: true, .. })
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
    match growth_start {
        Ok(start) if !start.is_empty() && !frozen => {
            match growth::measure(&target, sets.as_ref(), growth_tables) {
                Ok(end) => result.database_growth = growth::between(&start, &end),
                Err(e) => result.notes.push(format!(
                    "the tables' growth was not measured at the end: {}",
                    crate::error::one_line(&e)
                )),
            }
            run_dir.write_result(&result)?;
        }
        Err(e) => {
            result.notes.push(format!(
                "the tables' growth was not measured: {}",
                crate::error::one_line(&e)
            ));
            run_dir.write_result(&result)?;
        }
        _ => {}
    }
    display.finish();
    show.level_done(&result, dir, level.map(|l| l.0));
    Ok(result)
}
