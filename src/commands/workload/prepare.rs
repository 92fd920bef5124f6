//! `prepare` and `cleanup`.

use super::check::with_fields;
use super::*;

use super::{Output, resolve_target};
use crate::cli::{PrepareCmd, TpcbArgs, TpccArgs, WorkloadCmd};
use crate::engine;
use crate::error::EXIT_OK;
use crate::workload::loader::Prepared;
use crate::workload::oltp;
use crate::workload::tpcb::{self, TpcbOptions};
use crate::workload::tpcc;
use anyhow::{Context, Result};
use serde_json::json;
use std::time::Instant;

/// `txbench prepare`.
pub fn prepare(out: &Output, url: Option<&str>, cmd: &PrepareCmd) -> Result<i32> {
    let sel = select(&cmd.workload, "prepare")?;
    let threads = cmd.load_threads.unwrap_or_else(cpus);
    let o = match &sel {
        Selected::Lua(c) => {
            return super::lua::command(out, url, c, "prepare", cmd.load_threads.unwrap_or(1));
        }
        Selected::Tpcc(a) => return prepare_tpcc(out, url, a, threads),
        Selected::Tpcb(a) => return prepare_tpcb(out, url, a, threads),
        Selected::Script(_) => return Err(script_refused("prepare")),
        Selected::Oltp(_, o) => o,
    };
    let target = resolve_target(out, url)?;
    let rows = u64::from(o.tables) * u64::from(o.table_size);
    let pb = progress_bar(
        out,
        rows,
        "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} rows ({per_sec}, ETA {eta})",
    );
    out.note(&format!(
        "preparing {}: {} table(s) of {} rows on {target} with {threads} loader(s)",
        sel.name(),
        o.tables,
        o.table_size
    ));
    let t = Instant::now();
    let connect = || engine::connect(&target);
    oltp::prepare(&connect, o, sel.name(), threads, &|n| {
        if let Some(pb) = &pb {
            pb.inc(n)
        }
    })?;
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
    record_prepare_args(&target)?;
    let secs = t.elapsed().as_secs_f64();
    if out.json {
        println!(
            "{}",
            json!({"workload": sel.name(), "tables": o.tables, "rows": rows, "seconds": secs, "load_threads": threads})
        );
    } else if !out.quiet {
        println!(
            "prepared {}: {} rows in {:.2} s ({:.0} rows/s)",
            sel.name(),
            rows,
            secs,
            rows as f64 / secs.max(1e-9)
        );
    }
    Ok(EXIT_OK)
}

/// `txbench prepare tpcc`: as CSV files, or loaded into every table set.
fn prepare_tpcc(out: &Output, url: Option<&str>, a: &TpccArgs, threads: u32) -> Result<i32> {
    let o = tpcc_options(a, a.warehouses.unwrap_or(1));
    o.validate()?;
    let approx = tpcc::load::Unit::Items.approx_rows()
        + u64::from(o.warehouses) * tpcc::load::Unit::Warehouse(1).approx_rows();
    let pb = progress_bar(
        out,
        approx,
        "{elapsed_precise} [{bar:40}] {human_pos}/~{human_len} rows ({per_sec}, ETA {eta}) {msg}",
    );
    let tick = |n: u64| {
        if let Some(pb) = &pb {
            pb.inc(n)
        }
    };
    let t = Instant::now();
    if let Some(dir) = &a.csv {
        let rows = tpcc::write_csv(dir, &o, threads, &tick)?;
        if let Some(pb) = &pb {
            pb.finish_and_clear();
        }
        print_csv_written(out, dir, &o, rows, t.elapsed().as_secs_f64());
        return Ok(EXIT_OK);
    }
    let load = TpccLoad::on(out, url, a, o, threads)?;
    if let Some(pb) = &pb {
        pb.set_length(approx * u64::from(load.count));
    }
    load.note(out);
    let units = |done: usize, all: usize| {
        if let Some(pb) = &pb {
            pb.set_message(format!("{done}/{all} units (items, warehouses) done"));
        }
    };
    let progress = tpcc::Progress {
        rows: &tick,
        units: &units,
    };
    let done = load.load_sets(&progress)?;
    load.record_set_count()?;
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
    record_prepare_args(&load.target)?;
    load.print(out, &done, t.elapsed().as_secs_f64());
    Ok(EXIT_OK)
}

/// What `prepare tpcc --csv` wrote, on one line (or one JSON object).
fn print_csv_written(
    out: &Output,
    dir: &std::path::Path,
    o: &tpcc::TpccOptions,
    rows: u64,
    secs: f64,
) {
    if out.json {
        println!(
            "{}",
            json!({"workload": "tpcc", "csv": dir, "rows": rows, "seconds": secs})
        );
    } else if !out.quiet {
        println!(
            "wrote {} warehouse(s), {rows} rows, as CSV in {} ({:.2} s); load them with {}",
            o.warehouses,
            dir.display(),
            secs,
            dir.join("load.sql").display()
        );
    }
}

/// A TPC-C load into a server: its options, its target and its table sets.
struct TpccLoad<'a> {
    /// `prepare tpcc`'s arguments.
    a: &'a TpccArgs,
    /// The options every set is loaded with (validated).
    o: tpcc::TpccOptions,
    /// The server.
    target: engine::TargetUrl,
    /// How many table sets (`--table-sets`, default 1).
    count: u32,
    /// Their schemas.
    sets: tpcc::sets::TableSets,
    /// Loader threads.
    threads: u32,
}

impl<'a> TpccLoad<'a> {
    /// The load of `o` on the target of `url`, into the table sets `a` asks for.
    fn on(
        out: &Output,
        url: Option<&str>,
        a: &'a TpccArgs,
        o: tpcc::TpccOptions,
        threads: u32,
    ) -> Result<Self> {
        let target = resolve_target(out, url)?;
        let count = a.table_sets.unwrap_or(1);
        let sets = tpcc::sets::TableSets::named_from(&mut engine::connect(&target)?, count)?;
        Ok(TpccLoad {
            a,
            o,
            target,
            count,
            sets,
            threads,
        })
    }

    /// Says what is about to be loaded, where, and how.
    fn note(&self, out: &Output) {
        let (o, count, sets) = (&self.o, self.count, &self.sets);
        let (target, threads) = (&self.target, self.threads);
        out.note(&format!(
            "preparing tpcc: {} warehouse(s){} on {target} with {threads} loader(s), --null-dates {}, --load-method {}",
            o.warehouses,
            if count > 1 {
                format!(" in each of {count} table sets ({} .. {})", sets.schema(1), sets.schema(count))
            } else {
                String::new()
            },
            o.null_dates.name(),
            self.a.load_method.name()
        ));
    }

    /// Loads every table set in turn (each after the first in a schema of its own, drawing
    /// set 1's population); what was loaded in all.
    fn load_sets(&self, progress: &tpcc::Progress<'_>) -> Result<Prepared> {
        let (a, count, sets, target) = (self.a, self.count, &self.sets, &self.target);
        let mut done = Prepared::AlreadyComplete;
        let mut seed = None;
        for k in 1..=count {
            if let Some(schema) = sets.enters(k) {
                crate::engine::namespace::create(&mut engine::connect(target)?, &schema)?;
            }
            let connect = || sets.connect(target, k);
            let set = tpcc::prepare(
                &connect,
                &self.o,
                self.threads,
                a.load_method,
                a.procedures,
                progress,
                seed,
            );
            let set = if count > 1 {
                set.with_context(|| format!("table {}", sets.name(k)))?
            } else {
                set?
            };
            done = done.and(set);
            if seed.is_none() {
                // Every set draws set 1's population: one run's C values suit them all.
                seed = tpcc::state(&mut connect()?)?.map(|s| s.seed);
            }
        }
        Ok(done)
    }

    /// With several table sets, records their count in set 1 (unless it records as many
    /// or more already).
    fn record_set_count(&self) -> Result<()> {
        let count = self.count;
        if count > 1 {
            let mut conn = engine::connect(&self.target)?;
            if tpcc::sets::recorded(&mut conn)? < count {
                crate::workload::meta::set(&mut conn, tpcc::sets::META_KEY, &count.to_string())?;
            }
        }
        Ok(())
    }

    /// What the load did, on one line (or one JSON object).
    fn print(&self, out: &Output, done: &Prepared, secs: f64) {
        let (o, count) = (&self.o, self.count);
        print_prepared(
            out,
            "tpcc",
            &if count > 1 {
                format!(
                    "{} warehouse(s) in each of {count} table sets",
                    o.warehouses
                )
            } else {
                format!("{} warehouse(s)", o.warehouses)
            },
            if count > 1 {
                json!({"warehouses": o.warehouses, "table_sets": count})
            } else {
                json!({"warehouses": o.warehouses})
            },
            done,
            secs,
            self.threads,
        );
    }
}

/// What a prepare did, on one line (or one JSON object with `fields` added).
fn print_prepared(
    out: &Output,
    workload: &str,
    what: &str,
    fields: serde_json::Value,
    done: &Prepared,
    secs: f64,
    threads: u32,
) {
    let mut v = with_fields(json!({"workload": workload}), fields);
    match done {
        Prepared::AlreadyComplete => {
            v["already_complete"] = json!(true);
            if out.json {
                println!("{v}");
            } else if !out.quiet {
                println!("{workload} with {what} is already prepared: nothing to do");
            }
        }
        Prepared::Loaded {
            units,
            rows,
            resumed,
        } => {
            if out.json {
                for (k, x) in [
                    ("units", json!(units)),
                    ("rows", json!(rows)),
                    ("seconds", json!(secs)),
                    ("resumed", json!(resumed)),
                    ("load_threads", json!(threads)),
                ] {
                    v[k] = x;
                }
                println!("{v}");
            } else if !out.quiet {
                println!(
                    "prepared {workload}: {what}{}, {rows} rows in {secs:.2} s ({:.0} rows/s)",
                    if *resumed {
                        format!(" (resumed: {units} unit(s) were missing)")
                    } else {
                        String::new()
                    },
                    *rows as f64 / secs.max(1e-9)
                );
            }
        }
    }
}

fn prepare_tpcb(out: &Output, url: Option<&str>, a: &TpcbArgs, threads: u32) -> Result<i32> {
    let o = TpcbOptions {
        scale: a.scale.unwrap_or(1),
        history_key: a.history_key,
    };
    o.validate()?;
    let target = resolve_target(out, url)?;
    let pb = progress_bar(
        out,
        u64::from(o.scale) * u64::from(tpcb::ACCOUNTS + tpcb::TELLERS + 1),
        "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} rows ({per_sec}, ETA {eta}) {msg}",
    );
    out.note(&format!(
        "preparing tpcb: {} branch(es), {} accounts, on {target} with {threads} loader(s), --history-key {}",
        o.scale,
        u64::from(o.scale) * u64::from(tpcb::ACCOUNTS),
        o.history_key.name()
    ));
    let tick = |n: u64| {
        if let Some(pb) = &pb {
            pb.inc(n)
        }
    };
    let units = |done: usize, all: usize| {
        if let Some(pb) = &pb {
            pb.set_message(format!("{done}/{all} branches done"));
        }
    };
    let t = Instant::now();
    let connect = || engine::connect(&target);
    let done = tpcb::prepare(
        &connect,
        &o,
        threads,
        a.load_method,
        &crate::workload::loader::Progress {
            rows: &tick,
            units: &units,
        },
    )?;
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
    record_prepare_args(&target)?;
    print_prepared(
        out,
        "tpcb",
        &format!("scale {}, --history-key {}", o.scale, o.history_key.name()),
        json!({"scale": o.scale, "history_key": o.history_key}),
        &done,
        t.elapsed().as_secs_f64(),
        threads,
    );
    Ok(EXIT_OK)
}

/// `txbench cleanup`.
pub fn cleanup(out: &Output, url: Option<&str>, cmd: &WorkloadCmd) -> Result<i32> {
    let sel = select(&cmd.workload, "cleanup")?;
    if let Selected::Lua(c) = &sel {
        return super::lua::command(out, url, c, "cleanup", 1);
    }
    if let Selected::Script(_) = sel {
        return Err(script_refused("cleanup"));
    }
    let target = resolve_target(out, url)?;
    let mut conn = engine::connect(&target)?;
    let what = match &sel {
        Selected::Tpcc(a) => {
            let sets = tpcc::sets::resolve(&mut conn, None)?;
            if a.table_sets.is_some_and(|n| n != sets.count) {
                anyhow::bail!(
                    "--table-sets {}: {} table set(s) are prepared, and cleanup drops them all (set 1 records the others)",
                    a.table_sets.unwrap_or(1),
                    sets.count
                );
            }
            drop(conn);
            tpcc::sets::cleanup_all(&target, &sets)?;
            if sets.count > 1 {
                format!("the TPC-C tables of {} table sets", sets.count)
            } else {
                "the TPC-C tables".to_string()
            }
        }
        Selected::Tpcb(_) => {
            tpcb::cleanup(&mut conn)?;
            "the TPC-B tables".to_string()
        }
        Selected::Oltp(..) => format!("{} sbtest table(s)", oltp::cleanup(&mut conn)?),
        Selected::Lua(_) => anyhow::bail!("a script cleans up with its own cleanup()"),
        Selected::Script(_) => return Err(script_refused("cleanup")),
    };
    if out.json {
        println!("{}", json!({"workload": sel.name(), "dropped": what}));
    } else if !out.quiet {
        println!("dropped {what}");
    }
    Ok(EXIT_OK)
}
