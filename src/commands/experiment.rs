//! `txbench experiment run | resume | results | list | show`: a plan's cells run one at a time
//! on sandboxes (one server running at a time), each started from the snapshot of its
//! prepared data, each cell a normal run directory written by a `txbench run` child process
//! (its output in the cell's `run.log`), experiment.json rewritten after every step.

use super::{Output, print_json};
use crate::error::{EXIT_INTERRUPTED, EXIT_OK, Failure};
use crate::experiment::plan::{self, Plan};
use crate::experiment::{self, CellStatus, Experiment, builtin};
pub use crate::report::export::{self, Format};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A plan's text and where it came from.
struct Source {
    name: String,
    file: Option<PathBuf>,
    text: String,
}

/// `PLAN` is a file, else a built-in plan's name.
fn read_plan(arg: &str) -> Result<Source> {
    let path = Path::new(arg);
    if path.is_file() {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read it", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "experiment".into());
        return Ok(Source {
            name,
            file: Some(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())),
            text,
        });
    }
    if let Some(text) = builtin::get(arg) {
        return Ok(Source {
            name: arg.to_string(),
            file: None,
            text: text.to_string(),
        });
    }
    Err(Failure::Usage(format!(
        "{arg}: no such plan file, and no built-in plan of that name (see `txbench experiment list`)"
    ))
    .into())
}

fn plan_label(s: &Source) -> PathBuf {
    s.file
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("built-in plan {}", s.name)))
}

/// The prepare and run options of every pair parse as `txbench prepare` and `run` would.
fn check_options(file: &Path, plan: &Plan, e: &plan::Expanded) -> Result<()> {
    for p in &e.pairs {
        let w = plan
            .workload(&p.workload)
            .context("a pair names an unknown workload")?;
        // A replay's cells run `txbench replay --server NAME` on TPC-C data.
        let run_head = if w.name == plan::REPLAY {
            vec!["replay", "--server", "x"]
        } else {
            vec!["run", w.data_name()]
        };
        for (what, head, options) in [
            ("prepare", vec!["prepare", w.data_name()], &p.prepare),
            ("run", run_head, &p.run),
        ] {
            let mut args: Vec<String> = std::iter::once("txbench")
                .chain(head)
                .map(String::from)
                .collect();
            args.extend(options.iter().cloned());
            if let Err(err) = crate::cli::parse_args(args) {
                let first = err
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .trim_start_matches("error: ")
                    .to_string();
                return Err(Failure::Usage(format!(
                    "{}: workload '{}', variant '{}': {what} options {}: {first}",
                    file.display(),
                    p.workload,
                    p.variant,
                    options.join(" ")
                ))
                .into());
            }
        }
    }
    Ok(())
}

fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// `txbench experiment run PLAN`.
pub fn run(
    out: &Output,
    plan_arg: &str,
    dir: Option<&Path>,
    scale: Option<&str>,
    seed: Option<u64>,
    sequential: &plan::SequentialArgs,
) -> Result<i32> {
    let src = read_plan(plan_arg)?;
    let (dir, mut e, plan) = begin(out, src, dir, scale, seed, sequential)?;
    execute(out, &dir, &mut e, &plan)
}

/// A plan written by txbench itself (`history --confirm`) run in `dir` without printing its
/// tables: the experiment when it finished, None when it was interrupted. INVALID cells are
/// kept in it for the caller to judge.
pub fn run_generated(
    out: &Output,
    name: &str,
    text: &str,
    dir: &Path,
) -> Result<Option<Experiment>> {
    crate::owned::make_dir(dir, "--out")?;
    let file = dir.join(format!("{name}.toml"));
    crate::owned::write(&file, text)?;
    let src = read_plan(&file.display().to_string())?;
    let (dir, mut e, plan) = begin(out, src, Some(dir), None, None, &Default::default())?;
    let note = |line: &str| out.note(line);
    if experiment::execute(&note, &dir, &mut e, &plan)? == experiment::Outcome::Interrupted {
        return Ok(None);
    }
    Ok(Some(e))
}

/// The experiment of a plan, checked, created and written in its directory (`dir`, or one
/// named after the plan and the time), ready to execute.
fn begin(
    out: &Output,
    src: Source,
    dir: Option<&Path>,
    scale: Option<&str>,
    seed: Option<u64>,
    sequential: &plan::SequentialArgs,
) -> Result<(PathBuf, Experiment, Plan)> {
    let label = plan_label(&src);
    let plan = plan::parse(&label, &src.text)?;
    let expanded = plan.expand_with(&label, scale, sequential)?;
    check_options(&label, &plan, &expanded)?;
    let dir = dir.map(Path::to_path_buf).unwrap_or_else(|| {
        let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .replace([':', '-'], "");
        PathBuf::from("experiments").join(format!("{}-{}", src.name, stamp.trim_end_matches('Z')))
    });
    if dir.join(experiment::FILE).exists() {
        return Err(Failure::Usage(format!(
            "--out {}: holds an experiment already; continue it with `txbench experiment resume {}`",
            dir.display(),
            dir.display()
        ))
        .into());
    }
    crate::owned::make_dir(&dir, "--out")?;
    let seed = seed.or(plan.seed).unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    // Stored with every URL's password redacted; the children get the URLs through their
    // environment.
    let text = crate::engine::redact_urls_in(&src.text);
    let e = Experiment::new(src.name, src.file, text, expanded, seed, now());
    e.write(&dir)?;
    out.note(&format!(
        "experiment {}: {} variant(s) × {} workload(s) × {} level(s) × {} = {}{} cells of {} s (+{} s warm-up), reset {:?}, seed {seed}; in {}",
        e.name,
        e.plan.variants.len(),
        e.plan.workloads.len(),
        e.plan.threads.len(),
        match &e.plan.sequential {
            Some(s) => format!(
                "{} to {} repetitions (until ±{} % on {} or a verdict{})",
                s.min_repetitions,
                s.max_repetitions,
                s.precision_pct,
                e.plan.primary,
                s.cap_text()
            ),
            None => format!("{} repetition(s)", e.plan.repetitions),
        },
        if e.plan.sequential.is_some() {
            "at most "
        } else {
            ""
        },
        e.cells.len(),
        e.plan.duration,
        e.plan.warmup,
        e.plan.reset,
        dir.display()
    ));
    Ok((dir, e, plan))
}

/// `txbench experiment resume DIR`: the cells not finished run; finished ones are kept as
/// they are. The plan file is read again when it still exists, so a setting that stopped
/// the experiment can be fixed; its matrix must not change.
pub fn resume(out: &Output, dir: &Path) -> Result<i32> {
    if !dir.join(experiment::FILE).is_file() {
        return Err(
            Failure::Usage(format!("{}: no {} there", dir.display(), experiment::FILE)).into(),
        );
    }
    let mut e = Experiment::load(dir)?;
    let (label, text) = match &e.plan_file {
        Some(f) if f.is_file() => (
            f.clone(),
            std::fs::read_to_string(f)
                .with_context(|| format!("{}: cannot read it", f.display()))?,
        ),
        _ => (
            PathBuf::from(format!("{} (as recorded)", e.name)),
            e.plan_text.clone(),
        ),
    };
    let plan = plan::parse(&label, &text)?;
    let scale = (!e.plan.scale.is_empty()).then(|| e.plan.scale.clone());
    // The rule it began with, from the command line or the plan.
    let recorded = e.plan.sequential.as_ref().map(|s| plan::SequentialArgs {
        precision: Some(s.precision_pct),
        max_repetitions: Some(s.max_repetitions),
        max_time: s
            .max_time_s
            .map(|t| format!("{}ms", (t * 1000.0).round() as u64)),
    });
    let expanded = plan.expand_with(&label, scale.as_deref(), &recorded.unwrap_or_default())?;
    check_options(&label, &plan, &expanded)?;
    if let Some(what) = resume_conflict(&e, &plan, &expanded) {
        return Err(Failure::Usage(format!(
            "{}: {what} changed since the experiment began: cells measured before and after would not compare; start a new one",
            label.display()
        ))
        .into());
    }
    let text = crate::engine::redact_urls_in(&text);
    if text != e.plan_text {
        out.note(&format!(
            "{}: changed since the experiment began; its settings apply to the cells still to run",
            label.display()
        ));
        e.plan_text = text;
    }
    e.plan = expanded;
    let left = e.remaining();
    out.note(&format!(
        "resuming experiment {} in {}: {} of {} cells done, {left} to run",
        e.name,
        dir.display(),
        e.cells.len() - left,
        e.cells.len()
    ));
    execute(out, dir, &mut e, &plan)
}

/// What of the plan changed that a resume cannot take, or None. What may change: the
/// settings, options and builds of variant × workload pairs not prepared yet and without a
/// finished cell (the plan fixed after a variant failed to start).
fn resume_conflict(e: &Experiment, plan: &Plan, new: &plan::Expanded) -> Option<String> {
    let old = &e.plan;
    let fixed: [(&str, bool); 10] = [
        ("its variants", new.variants == old.variants),
        ("its workloads", new.workloads == old.workloads),
        ("threads", new.threads == old.threads),
        ("repetitions", new.repetitions == old.repetitions),
        ("baseline", new.baseline == old.baseline),
        ("warmup", new.warmup == old.warmup),
        ("duration", new.duration == old.duration),
        ("reset", new.reset == old.reset),
        ("its sequential rule", new.sequential == old.sequential),
        ("primary", new.primary == old.primary),
    ];
    if let Some((what, _)) = fixed.iter().find(|(_, same)| !same) {
        return Some((*what).to_string());
    }
    let before = plan::parse(Path::new("recorded"), &e.plan_text).ok();
    for pair in &old.pairs {
        let (v, w) = (&pair.variant, &pair.workload);
        let prepared = e.prepared(v, w).is_some();
        let measured = e.cells.iter().any(|c| {
            &c.variant == v
                && &c.workload == w
                && matches!(c.status, CellStatus::Done | CellStatus::Invalid)
        });
        if !prepared && !measured {
            continue;
        }
        let Some(now) = new.pair(v, w) else {
            return Some(format!("variant '{v}' × workload '{w}'"));
        };
        if now.prepare != pair.prepare || now.run != pair.run {
            return Some(format!("the options of variant '{v}' × workload '{w}'"));
        }
        // The recorded plan's URLs are redacted: compared as shown.
        let shown = |p: &Plan| {
            p.variant(v).cloned().map(|mut x| {
                x.url = x.url.map(|u| crate::engine::redact_url(&u));
                x
            })
        };
        if let Some(before) = &before
            && shown(before) != shown(plan)
        {
            return Some(format!("variant '{v}' (its server)"));
        }
    }
    None
}

/// Runs the experiment's cells (experiment::execute), then prints its results; INVALID
/// cells fail it (exit 3), an interruption exits 130.
fn execute(out: &Output, dir: &Path, e: &mut Experiment, plan: &Plan) -> Result<i32> {
    super::live::mark(out, dir, crate::store::live::Kind::Experiment);
    let note = |line: &str| out.note(line);
    if experiment::execute(&note, dir, e, plan)? == experiment::Outcome::Interrupted {
        return Ok(EXIT_INTERRUPTED);
    }
    print_results(out, e, dir, Format::Text)?;
    let total = e.cells.len();
    let invalid = e.invalid_cells();
    if invalid > 0 {
        return Err(Failure::Invalid(format!(
            "{invalid} of {total} cells INVALID (kept in {}, left out of the deviations)",
            dir.display()
        ))
        .into());
    }
    Ok(EXIT_OK)
}

fn print_results(out: &Output, e: &Experiment, dir: &Path, format: Format) -> Result<()> {
    let tables = experiment::tables(e);
    let why = experiment::why_tables(e);
    let profiles = experiment::profile_whys(e, dir);
    let summary = experiment::summary::lines(e, &tables, &profiles);
    if out.json {
        print_json(&serde_json::json!({
            "type": "experiment", "dir": dir, "name": e.name, "status": e.status,
            "scale": e.plan.scale, "seed": e.seed, "method": experiment::method(e.plan.estimator),
            "method_lines": experiment::method_lines(e), "primary": e.plan.primary,
            "sequential": e.plan.sequential, "stopped": e.stopped, "confidence": e.confidence(),
            "overhead": experiment::overhead(e),
            "tables": tables, "co_location": experiment::coloc::tables(e), "why": why, "profiles": profiles, "cells": e.cells.len(),
            "invalid_cells": e.invalid_cells(), "summary": summary,
        }));
        return Ok(());
    }
    // The story first where it is pasted (Markdown), last where a terminal leaves it in view.
    let exporter = export::exporter(format);
    if format == Format::Markdown {
        print!("{}", exporter.summary(&summary));
    }
    print!("{}", exporter.experiment(e, &tables));
    if format == Format::Text && !out.quiet {
        print!("{}", experiment::why_text(e, &why, &profiles));
        print!("{}", period_tables(e, dir));
    }
    if format == Format::Text && !out.quiet {
        let secs = experiment::sequential::spent_s(e);
        println!(
            "experiment: {} ({} cells, {} INVALID; {:.0} s of prepare, snapshots, warm start and cells)",
            dir.display(),
            e.cells.len(),
            e.invalid_cells(),
            secs
        );
        if let Some(o) = experiment::overhead(e) {
            println!(
                "per cell: {:.1} s beyond its {} s of warm-up and measurement, {:.1} s of it the reset{} (mean of {} cells)",
                o.beyond_s,
                e.plan.warmup + e.plan.duration,
                o.reset_s,
                o.restore_s.map_or(String::new(), |r| format!(
                    " ({r:.1} s restoring the snapshot, {:.1} s starting the server)",
                    o.reset_s - r
                )),
                o.cells
            );
        }
    }
    if format == Format::Text {
        print!("{}", exporter.summary(&summary));
    }
    Ok(())
}

/// Every cell's by-period table (`--period` in the plan's run options, or cells of two hours
/// or more: the `decline` plan), each under the cell's name.
fn period_tables(e: &Experiment, dir: &Path) -> String {
    let periodic = e.plan.duration >= crate::analysis::periods::HOURLY_FROM_S
        || e.plan.pairs.iter().any(|p| {
            p.run
                .iter()
                .any(|a| a == "--period" || a.starts_with("--period="))
        });
    if !periodic {
        return String::new();
    }
    let mut out = String::new();
    for c in e.cells.iter().filter(|c| c.status != CellStatus::Pending) {
        let Some(p) = crate::results::RunResult::load(&dir.join(&c.dir).join("run"))
            .ok()
            .and_then(|r| r.periods)
        else {
            continue;
        };
        out.push_str(&format!(
            "by period — {}, {}, {} threads, repetition {} ({} s each):\n{}",
            c.variant,
            c.workload,
            c.threads,
            c.repetition,
            p.period_s,
            crate::report::periods::text(&p, 2)
        ));
    }
    out
}

/// Cells recorded without the server's per-transaction figures (by an older txbench) get
/// them from their result.json.
pub fn fill_server_figures(e: &mut Experiment, dir: &Path) {
    for c in &mut e.cells {
        if c.status != CellStatus::Done || !c.per_transaction.is_empty() {
            continue;
        }
        let Ok(r) = crate::results::RunResult::load(&dir.join(&c.dir).join("run")) else {
            continue;
        };
        if let Some(srv) = r.summary.as_ref().and_then(|s| s.server.as_ref()) {
            c.per_transaction = srv.per_transaction.clone();
            c.per_new_order = srv.per_new_order.clone();
        }
    }
}

/// `txbench experiment results DIR`.
pub fn results(out: &Output, dir: &Path, format: Format) -> Result<i32> {
    let mut e = Experiment::load(dir)?;
    fill_server_figures(&mut e, dir);
    print_results(out, &e, dir, format)?;
    Ok(EXIT_OK)
}

/// `txbench experiment list`.
pub fn list(out: &Output) -> Result<i32> {
    let rows: Vec<(String, String)> = builtin::PLANS
        .iter()
        .map(|(name, text)| {
            let d = plan::parse(Path::new(name), text)
                .ok()
                .and_then(|p| p.description)
                .unwrap_or_default();
            (name.to_string(), d)
        })
        .collect();
    if out.json {
        print_json(&serde_json::json!(
            rows.iter()
                .map(|(n, d)| serde_json::json!({"name": n, "description": d}))
                .collect::<Vec<_>>()
        ));
    } else {
        for (n, d) in rows {
            println!("{n:<12} {d}");
        }
    }
    Ok(EXIT_OK)
}

/// `txbench experiment show NAME`.
pub fn show(name: &str) -> Result<i32> {
    match builtin::get(name) {
        Some(text) => {
            print!("{text}");
            Ok(EXIT_OK)
        }
        None => Err(Failure::Usage(format!(
            "{name}: no built-in plan of that name (see `txbench experiment list`)"
        ))
        .into()),
    }
}
