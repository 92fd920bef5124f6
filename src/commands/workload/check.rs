//! `check`, and the consistency check after `run --check`.

use super::*;

use super::{Output, resolve_target};
use crate::cli::{TpccArgs, WorkloadCmd};
use crate::engine;
use crate::error::EXIT_OK;
use crate::workload::Condition;
use crate::workload::oltp;
use crate::workload::tpcb;
use crate::workload::tpcc;
use anyhow::Result;
use serde_json::json;
use std::time::Instant;

/// `txbench check`.
pub fn check(out: &Output, url: Option<&str>, cmd: &WorkloadCmd) -> Result<i32> {
    let sel = select(&cmd.workload, "check")?;
    if let Selected::Lua(c) = &sel {
        // The script's own check (sysbench-tpcc's), on one thread unless --threads says.
        return super::lua::command(out, url, c, "check", 1);
    }
    if let Selected::Script(_) = sel {
        return Err(script_refused("check"));
    }
    let target = resolve_target(out, url)?;
    let mut conn = engine::connect(&target)?;
    let code = check_workload(out, &mut conn, &target, &sel)?;
    check_replicas(out, &mut conn, &target)?;
    Ok(code)
}

/// Every replica of the primary at `url` caught up and holds the same tables (CHECKSUM
/// TABLE): printed; an error names the replicas that did not.
fn check_replicas(
    out: &Output,
    conn: &mut crate::engine::Conn,
    url: &engine::TargetUrl,
) -> Result<()> {
    let expected = crate::server::StateDir::from_env()
        .map(|home| crate::server::cluster::sandbox_replicas(&home, url))
        .unwrap_or_default();
    let checks = crate::topology::verify_replicas_of(
        conn,
        url,
        &expected,
        crate::topology::REPLICA_CATCH_UP,
    )?;
    if checks.is_empty() {
        return Ok(());
    }
    if out.json {
        let rows: Vec<_> = checks
            .iter()
            .map(|c| {
                json!({"replica": c.replica, "ok": c.ok(), "caught_up_s": c.caught_up_s,
                       "tables": c.tables, "differing": c.differing, "problem": c.problem})
            })
            .collect();
        println!("{}", json!({"replicas": rows}));
    } else if !out.quiet {
        for c in &checks {
            println!("replica {}: {}", c.replica, c.describe());
        }
    }
    let bad: Vec<String> = checks
        .iter()
        .filter(|c| !c.ok())
        .map(|c| format!("{} ({})", c.replica, c.describe()))
        .collect();
    if !bad.is_empty() {
        anyhow::bail!("replica check failed: {}", bad.join("; "));
    }
    Ok(())
}

fn check_workload(
    out: &Output,
    conn: &mut crate::engine::Conn,
    target: &engine::TargetUrl,
    sel: &Selected,
) -> Result<i32> {
    match sel {
        Selected::Lua(_) => anyhow::bail!("a script's check is its own command (check lua FILE)"),
        Selected::Tpcc(a) => check_tpcc(out, conn, target, a),
        Selected::Tpcb(a) => {
            let state = tpcb::ready(conn, a.scale)?;
            let t = Instant::now();
            let results = tpcb::check(conn, &state)?;
            let failed = print_conditions(
                out,
                "tpcb",
                &format!(
                    "TPC-B consistency, scale {}, --history-key {}",
                    state.scale,
                    state.history_key.name()
                ),
                json!({"scale": state.scale, "history_key": state.history_key}),
                &results,
                t.elapsed().as_secs_f64(),
            );
            if !failed.is_empty() {
                anyhow::bail!(
                    "TPC-B consistency check failed: condition(s) {}",
                    failed.join(", ")
                );
            }
            Ok(EXIT_OK)
        }
        Selected::Script(_) => Err(script_refused("check")),
        Selected::Oltp(_, o) => {
            oltp::ready(conn, o, sel.name())?;
            let counts = oltp::row_counts(conn, o)?;
            if out.json {
                let tables: Vec<_> = counts
                    .iter()
                    .map(|(n, c)| json!({"table": format!("sbtest{n}"), "rows": c}))
                    .collect();
                println!(
                    "{}",
                    json!({"workload": sel.name(), "ok": true, "tables": tables})
                );
            } else if !out.quiet {
                for (n, c) in &counts {
                    println!("sbtest{n}: {c} rows, columns id, k, c, pad present");
                }
                println!("check {}: ok", sel.name());
            }
            Ok(EXIT_OK)
        }
    }
}

fn check_tpcc(
    out: &Output,
    conn: &mut crate::engine::Conn,
    target: &engine::TargetUrl,
    a: &TpccArgs,
) -> Result<i32> {
    let sets = tpcc::sets::resolve(conn, a.table_sets)?;
    let states = tpcc::sets::ready_all(target, &sets, a.warehouses)?;
    let state = &states[0];
    let initial: Vec<bool> = states.iter().map(|s| s.initial).collect();
    let per_set = tpcc::sets::check_all(target, &sets, state.null_dates, &initial)?;
    let mut failed = Vec::new();
    for ((results, secs), k) in per_set.into_iter().zip(1..) {
        let mut title = format!(
            "TPC-C consistency (clause 3.3.2), {} warehouse(s), --null-dates {}",
            state.warehouses,
            state.null_dates.name()
        );
        let mut fields = json!({"warehouses": state.warehouses, "null_dates": state.null_dates});
        if sets.count > 1 {
            title = format!("{title}, table {}", sets.name(k));
            fields["table_set"] = json!(k);
            fields["schema"] = json!(sets.schema(k));
        }
        let bad = print_conditions(out, "tpcc", &title, fields, &results, secs);
        if !bad.is_empty() {
            failed.push(if sets.count > 1 {
                format!("{}: condition(s) {}", sets.name(k), bad.join(", "))
            } else {
                format!("condition(s) {}", bad.join(", "))
            });
        }
    }
    if !failed.is_empty() {
        anyhow::bail!("TPC-C consistency check failed: {}", failed.join("; "));
    }
    Ok(EXIT_OK)
}

/// Prints consistency conditions (a table, or one JSON object with `fields` added); returns
/// the numbers of those that failed.
fn print_conditions(
    out: &Output,
    workload: &str,
    title: &str,
    fields: serde_json::Value,
    results: &[Condition],
    secs: f64,
) -> Vec<String> {
    let failed: Vec<String> = results
        .iter()
        .filter(|c| !c.passed())
        .map(|c| c.number.to_string())
        .collect();
    if out.json {
        let v = with_fields(
            json!({"workload": workload, "seconds": secs, "passed": failed.is_empty(), "conditions": results}),
            fields,
        );
        println!("{v}");
    } else if !out.quiet {
        println!("{title}, {secs:.2} s");
        for c in results {
            let verdict = if !c.applies {
                "n/a "
            } else if c.violations == 0 {
                "pass"
            } else {
                "FAIL"
            };
            if c.detail.is_empty() {
                println!(
                    "  {:>2}  {verdict}  {:>8} violating  {}",
                    c.number, c.violations, c.description
                );
            } else {
                println!(
                    "  {:>2}  {verdict}  {}: {}",
                    c.number, c.description, c.detail
                );
            }
        }
    }
    failed
}

/// Adds the fields of the JSON object `fields` to the object `v`.
pub(super) fn with_fields(
    mut v: serde_json::Value,
    fields: serde_json::Value,
) -> serde_json::Value {
    if let (Some(v), serde_json::Value::Object(f)) = (v.as_object_mut(), fields) {
        v.extend(f);
    }
    v
}
