//! `prepare`, `run`, `check` and `cleanup` of a workload.

use super::{Output, resolve_target};
use crate::cli::{OltpArgs, PrepareCmd, RandType, RunCmd, WorkloadChoice, WorkloadCmd};
use crate::config::RunConfig;
use crate::driver;
use crate::error::{EXIT_INTERRUPTED, EXIT_OK, Failure};
use crate::report::text;
use crate::results::{IntervalRow, RunDir, RunStatus};
use crate::target::{self, TargetUrl};
use crate::workload::oltp::{self, Oltp, OltpKind, OltpOptions};
use crate::workload::rand::Distribution;
use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// A workload chosen on the command line, with validated options.
enum Selected {
    Oltp(OltpKind, OltpOptions),
}

impl Selected {
    fn name(&self) -> &'static str {
        match self {
            Selected::Oltp(k, _) => k.name(),
        }
    }
}

fn oltp_options(a: &OltpArgs) -> Result<OltpOptions> {
    let o = OltpOptions {
        tables: a.tables,
        table_size: a.table_size,
        range_size: a.range_size,
        point_selects: a.point_selects,
        simple_ranges: a.simple_ranges,
        sum_ranges: a.sum_ranges,
        order_ranges: a.order_ranges,
        distinct_ranges: a.distinct_ranges,
        range_selects: a.range_selects,
        index_updates: a.index_updates,
        non_index_updates: a.non_index_updates,
        delete_inserts: a.delete_inserts,
        skip_trx: a.skip_trx,
        auto_inc: a.auto_inc,
        secondary: a.secondary,
        create_secondary: a.create_secondary,
        rand: match a.rand_type {
            RandType::Uniform => Distribution::Uniform,
            RandType::Gaussian => Distribution::Gaussian,
            RandType::Special => Distribution::Special {
                pct: a.rand_spec_pct,
                res: a.rand_spec_res,
            },
            RandType::Pareto => Distribution::Pareto { h: a.rand_pareto_h },
            RandType::Zipfian => Distribution::Zipfian {
                exp: a.rand_zipfian_exp,
            },
        },
    };
    o.validate()?;
    Ok(o)
}

fn select(w: &WorkloadChoice) -> Result<Selected> {
    let (kind, args) = match w {
        WorkloadChoice::OltpReadWrite(a) => (OltpKind::ReadWrite, a),
        WorkloadChoice::OltpReadOnly(a) => (OltpKind::ReadOnly, a),
        WorkloadChoice::OltpWriteOnly(a) => (OltpKind::WriteOnly, a),
        WorkloadChoice::OltpPointSelect(a) => (OltpKind::PointSelect, a),
        WorkloadChoice::OltpUpdateIndex(a) => (OltpKind::UpdateIndex, a),
        WorkloadChoice::OltpUpdateNonIndex(a) => (OltpKind::UpdateNonIndex, a),
        WorkloadChoice::OltpInsert(a) => (OltpKind::Insert, a),
        WorkloadChoice::OltpDelete(a) => (OltpKind::Delete, a),
    };
    Ok(Selected::Oltp(kind, oltp_options(args)?))
}

fn cpus() -> u32 {
    std::thread::available_parallelism()
        .map(|n| n.get() as u32)
        .unwrap_or(1)
}

fn progress_bar(out: &Output, len: u64, template: &str) -> Option<ProgressBar> {
    if out.quiet || out.json || !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(template) {
        pb.set_style(style);
    }
    Some(pb)
}

/// `txbench prepare`.
pub fn prepare(out: &Output, url: Option<&str>, cmd: &PrepareCmd) -> Result<i32> {
    let sel = select(&cmd.workload)?;
    let target = resolve_target(out, url)?;
    let threads = cmd.load_threads.unwrap_or_else(cpus);
    let Selected::Oltp(_, o) = &sel;
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
    let connect = || target::connect(&target);
    oltp::prepare(&connect, o, threads, &|n| {
        if let Some(pb) = &pb {
            pb.inc(n)
        }
    })?;
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
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

/// `txbench cleanup`.
pub fn cleanup(out: &Output, url: Option<&str>, cmd: &WorkloadCmd) -> Result<i32> {
    let sel = select(&cmd.workload)?;
    let target = resolve_target(out, url)?;
    let mut conn = target::connect(&target)?;
    let n = oltp::cleanup(&mut conn)?;
    if out.json {
        println!("{}", json!({"workload": sel.name(), "dropped_tables": n}));
    } else if !out.quiet {
        println!("dropped {n} sbtest table(s)");
    }
    Ok(EXIT_OK)
}

/// `txbench check`.
pub fn check(out: &Output, url: Option<&str>, cmd: &WorkloadCmd) -> Result<i32> {
    let sel = select(&cmd.workload)?;
    let Selected::Oltp(_, o) = &sel;
    let target = resolve_target(out, url)?;
    let mut conn = target::connect(&target)?;
    oltp::ready(&mut conn, o, sel.name())?;
    let counts = oltp::row_counts(&mut conn, o)?;
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

/// What the driver shows while it runs.
struct LiveDisplay {
    quiet: bool,
    json: bool,
    bar: Option<ProgressBar>,
}

impl driver::Display for LiveDisplay {
    fn interval(&self, row: &IntervalRow) {
        if self.json {
            let mut v = serde_json::to_value(row).unwrap_or_default();
            v["type"] = json!("interval");
            println!("{v}");
        } else if !self.quiet {
            let line = text::interval_line(row);
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

fn default_run_dir(workload: &str, threads: u32) -> PathBuf {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
        .to_string()
        .replace(['-', ':'], "");
    PathBuf::from("runs").join(format!("{stamp}-{workload}-t{threads}"))
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// `txbench run`.
pub fn run(out: &Output, url: Option<&str>, cmd: &RunCmd) -> Result<i32> {
    let sel = select(&cmd.workload)?;
    let d = &cmd.driver;
    let target: TargetUrl = resolve_target(out, url)?;
    let mut conn = target::connect(&target)?;
    let preflight = target::preflight(&mut conn)?;
    let workload: Arc<dyn crate::workload::Workload> = match &sel {
        Selected::Oltp(kind, o) => {
            oltp::ready(&mut conn, o, sel.name())?;
            Arc::new(Oltp {
                kind: *kind,
                options: o.clone(),
            })
        }
    };
    drop(conn);
    let Selected::Oltp(_, o) = &sel;
    let cfg = RunConfig {
        workload: sel.name().to_string(),
        url: target.to_string(),
        threads: d.threads,
        time_s: d.time,
        warmup_s: d.warmup,
        events: d.events,
        report_interval_s: d.report_interval,
        rate: d.rate,
        rate_dist: d.rate_dist,
        seed: d.seed.unwrap_or_else(clock_seed),
        retries: d.retries,
        max_error_rate: d.max_error_rate / 100.0,
        isolation: d.isolation,
        workload_options: serde_json::to_value(o)?,
    };
    let dir = d
        .out
        .clone()
        .unwrap_or_else(|| default_run_dir(sel.name(), d.threads));
    let mut run_dir = RunDir::create(&dir, SystemTime::now())?;
    out.note(&format!(
        "txbench {}: {} on {target}, {} threads, {} s{} (seed {}); results in {}",
        env!("CARGO_PKG_VERSION"),
        sel.name(),
        d.threads,
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
        bar: progress_bar(
            out,
            (d.time + d.warmup).ceil() as u64,
            "{elapsed_precise} [{bar:40}] {pos}/{len} s",
        ),
    };
    let result = driver::run(&cfg, &target, workload, preflight, &mut run_dir, &display)?;
    if let Some(b) = &display.bar {
        b.finish_and_clear();
    }
    if out.json {
        println!(
            "{}",
            json!({"type": "summary", "run_dir": dir, "status": result.status,
                   "validity": result.validity, "summary": result.summary, "notes": result.notes})
        );
    } else {
        print!("{}", text::summary(&result));
        if !out.quiet {
            println!("results: {}", dir.display());
        }
    }
    if !result.validity.valid {
        return Err(Failure::Invalid(result.validity.reasons.join("; ")).into());
    }
    if result.status == RunStatus::Interrupted {
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(EXIT_OK)
}
