//! `txbench store import|path`, `txbench runs` and `txbench history`: the results store read
//! and (re)built, runs listed, one benchmark's figure followed with its change points.

use super::Output;
use crate::analysis::history::{self, History};
use crate::cli::{HistoryCmd, RunsCmd, Select, StoreCommand};
use crate::error::{EXIT_OK, Failure};
use crate::report::text::shown;
use crate::store::{self, Entry, Filter, Store};
use anyhow::Result;
use std::fmt::Write as _;

/// Exit code of `history --threshold` when the current level is a regression beyond it.
pub const EXIT_REGRESSION: i32 = 4;

/// `txbench store …`.
pub fn store(out: &Output, command: StoreCommand) -> Result<i32> {
    let path = store::path(out.store.as_deref())?;
    match command {
        StoreCommand::Path => println!("{}", path.display()),
        StoreCommand::Import { dirs } => {
            let mut s = Store::open(&path)?;
            let (recorded, skipped) = s.import(&dirs)?;
            for line in &skipped {
                out.note(&format!("skipped {}", shown(line)));
            }
            if out.json {
                println!(
                    "{}",
                    serde_json::json!({"store": path, "recorded": recorded, "skipped": skipped})
                );
            } else {
                println!(
                    "{recorded} run(s) recorded in {}, {} skipped",
                    path.display(),
                    skipped.len()
                );
            }
        }
    }
    Ok(EXIT_OK)
}

/// The filter of `select`, with `extra` conditions.
fn filter(select: &Select, extra: &[String]) -> Result<Filter> {
    let usage = |e: anyhow::Error| Failure::Usage(e.to_string());
    let mut f = Filter::default();
    for kv in select.fields.iter().chain(extra) {
        f.field(kv).map_err(usage)?;
    }
    for kv in &select.labels {
        f.label(kv).map_err(usage)?;
    }
    if let Some(since) = &select.since {
        let ok = since.len() >= 10
            && since.as_bytes()[..10].iter().enumerate().all(|(i, b)| {
                if i == 4 || i == 7 {
                    *b == b'-'
                } else {
                    b.is_ascii_digit()
                }
            });
        if !ok {
            return Err(Failure::Usage(format!(
                "--since {since}: expected a date (2026-11-01) or an RFC 3339 time"
            ))
            .into());
        }
        f.since = Some(since.clone());
    }
    if let Some(dir) = &select.like {
        let r = crate::results::RunResult::load(dir)?;
        f.fields
            .push(("identity".into(), Entry::of(dir, &r).identity));
    }
    Ok(f)
}

/// Where the store is, when it exists (the commands that only read it refuse to make one).
pub(super) fn existing_store(out: &Output) -> Result<std::path::PathBuf> {
    let path = store::path(out.store.as_deref())?;
    if !path.exists() {
        return Err(Failure::Usage(format!(
            "no store at {}: runs are recorded there as they complete, or `txbench store import DIR…` builds it from run directories",
            path.display()
        ))
        .into());
    }
    Ok(path)
}

/// The stored runs `f` selects.
fn select(out: &Output, f: &Filter) -> Result<Vec<Entry>> {
    Store::open(&existing_store(out)?)?.query(f)
}

/// `txbench runs`.
pub fn runs(out: &Output, cmd: &RunsCmd) -> Result<i32> {
    let entries = select(out, &filter(&cmd.select, &[])?)?;
    if out.json {
        println!("{}", serde_json::to_string(&entries)?);
        return Ok(EXIT_OK);
    }
    let headline = |e: &Entry| {
        let fig = history::default_figure(&e.workload);
        e.figures
            .get(fig)
            .map_or("-".into(), |v| format!("{v:.1} {fig}"))
    };
    let labels = |e: &Entry| {
        e.labels
            .iter()
            .map(|(k, v)| format!("{}={}", shown(k), shown(v)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut o = String::new();
    if cmd.csv {
        let _ = writeln!(
            o,
            "started_at,workload,threads,engine,identity,valid,tps,nopm,p99_ms,labels,dir"
        );
        for e in &entries {
            let f = |k: &str| e.figures.get(k).map_or(String::new(), |v| v.to_string());
            let _ = writeln!(
                o,
                "{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(&shown(&e.started_at)),
                csv_field(&shown(&e.workload)),
                e.threads,
                csv_field(&shown(&e.engine)),
                csv_field(&shown(&e.identity)),
                if e.valid { "VALID" } else { "INVALID" },
                f("tps"),
                f("nopm"),
                f("p99_ms"),
                csv_field(&labels(e)),
                csv_field(&shown(&e.dir))
            );
        }
    } else {
        // The benchmark in words, as wide as the widest (names are short: a few options).
        let names: Vec<String> = entries.iter().map(Entry::name).collect();
        let width = names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max("benchmark".len());
        let _ = writeln!(
            o,
            "{:<20} {:<width$} {:<12} {:<7} {:>16} {:>9}  labels, directory",
            "started", "benchmark", "identity", "verdict", "headline", "p99 ms"
        );
        for (e, name) in entries.iter().zip(&names) {
            let _ = writeln!(
                o,
                "{:<20} {:<width$} {:<12} {:<7} {:>16} {:>9}  {}{}",
                shown(e.started_at.get(..19).unwrap_or(&e.started_at)),
                name,
                shown(&e.identity),
                if e.valid { "VALID" } else { "INVALID" },
                headline(e),
                e.figures
                    .get("p99_ms")
                    .map_or("-".into(), |v| format!("{v:.2}")),
                match labels(e) {
                    l if l.is_empty() => String::new(),
                    l => format!("{l}  "),
                },
                shown(&e.dir)
            );
        }
        let _ = writeln!(o, "{} run(s)", entries.len());
    }
    print!("{o}");
    Ok(EXIT_OK)
}

/// A CSV field, quoted when it must be.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `txbench history`.
pub fn history(out: &Output, cmd: &HistoryCmd) -> Result<i32> {
    let mut extra = Vec::new();
    if let Some(w) = &cmd.workload {
        extra.push(format!("workload={w}"));
    }
    if let Some(t) = cmd.threads {
        extra.push(format!("threads={t}"));
    }
    if let Some(t) = cmd.threshold
        && !(t.is_finite() && t >= 0.0)
    {
        return Err(Failure::Usage(format!("--threshold {t}: a percentage, 0 or more")).into());
    }
    let mut entries = select(out, &filter(&cmd.select, &extra)?)?;
    // A shard holds part of a run: its merge is the run (unless shards are asked for); an
    // experiment's cells are left out unless a label asks for them.
    let shards = cmd.select.fields.iter().any(|f| f.starts_with("kind="));
    let experiments = cmd
        .select
        .labels
        .iter()
        .any(|l| l.starts_with("experiment="));
    entries.retain(|e| history::in_series(e, shards, experiments));
    let figure = match &cmd.figure {
        Some(f) => f.clone(),
        None => history::default_figure(entries.first().map_or("", |e| &e.workload)).into(),
    };
    if !entries.iter().any(|e| e.figures.contains_key(&figure)) && !entries.is_empty() {
        let mut known: Vec<&String> = entries.iter().flat_map(|e| e.figures.keys()).collect();
        known.sort();
        known.dedup();
        return Err(Failure::Usage(format!(
            "--figure {figure}: no selected run has it (they have {})",
            known
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into());
    }
    let h = history::history(&entries, &figure, cmd.by.as_deref())?;
    if cmd.csv {
        print!("{}", csv(&h));
    } else if !out.json {
        print!("{}", text(&h, cmd.threshold));
    }
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let confirmed = super::confirm::confirm(out, cmd, &h)?;
    if out.json {
        let mut v = serde_json::to_value(&h)?;
        v["summary"] = serde_json::to_value(crate::analysis::story::history(&h))?;
        if let Some(c) = &confirmed {
            v["confirm"] = serde_json::to_value(c)?;
        }
        println!("{v}");
    } else if let Some(c) = &confirmed {
        print!("{}", super::confirm::text(c));
    }
    // With --confirm, the experiment decides: a confirmed regression beyond the threshold.
    let regression = match &confirmed {
        Some(c) => {
            c.confirmed
                && c.regression
                && c.deviation
                    .as_ref()
                    .is_some_and(|d| d.pct.abs() > cmd.threshold.unwrap_or(0.0))
        }
        None if cmd.confirm.is_some() => false,
        None => cmd
            .threshold
            .and_then(|t| h.current_regression(t))
            .is_some(),
    };
    Ok(if regression { EXIT_REGRESSION } else { EXIT_OK })
}

fn csv(h: &History) -> String {
    let mut o = String::from("index,started_at,label,value,change_pct,dir\n");
    for (i, p) in h.points.iter().enumerate() {
        let change = h
            .steps
            .iter()
            .find(|s| s.change.index == i)
            .map_or(String::new(), |s| format!("{:.3}", s.change.step_pct));
        let _ = writeln!(
            o,
            "{i},{},{},{},{change},{}",
            csv_field(&shown(&p.started_at)),
            csv_field(&shown(p.label.as_deref().unwrap_or(""))),
            p.value,
            csv_field(&shown(&p.dir))
        );
    }
    o
}

fn text(h: &History, threshold: Option<f64>) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "history of {} — {} (identity {}): {} run(s){}; {} is better",
        shown(&h.figure),
        shown(&h.name),
        shown(&h.identity),
        h.points.len(),
        h.left_out_text(),
        if h.higher_is_better { "more" } else { "less" }
    );
    for (i, p) in h.points.iter().enumerate() {
        if let Some(s) = h.steps.iter().find(|s| s.change.index == i) {
            let _ = writeln!(o, "  {}", step_line(s));
        }
        let _ = writeln!(
            o,
            "  {i:>4}  {:<20} {:<16} {:>12.2}  {}",
            shown(p.started_at.get(..19).unwrap_or(&p.started_at)),
            shown(p.label.as_deref().unwrap_or("")),
            p.value,
            shown(&p.dir)
        );
    }
    if h.steps.is_empty() {
        let _ = writeln!(
            o,
            "no change point (E-divisive means, permutation test at 5 %, segments of 3 runs or more)"
        );
    } else {
        let _ = writeln!(
            o,
            "{} change point(s) (E-divisive means, permutation test at 5 %, segments of 3 runs or more):",
            h.steps.len()
        );
        for s in &h.steps {
            let _ = writeln!(o, "  {}", step_line(s));
        }
    }
    if let Some(t) = threshold {
        match h.current_regression(t) {
            Some(s) => {
                let _ = writeln!(
                    o,
                    "REGRESSION: the current level is {:+.1} % from the one before, beyond --threshold {t} % (since {})",
                    s.change.step_pct,
                    shown(&s.first_after)
                );
            }
            None => {
                let _ = writeln!(
                    o,
                    "no regression beyond --threshold {t} % at the current level"
                );
            }
        }
    }
    // The story last, where a terminal leaves it in view.
    o.push_str(
        &crate::report::export::exporter(crate::report::export::Format::Text)
            .summary(&crate::analysis::story::history(h)),
    );
    o
}

fn step_line(s: &Step) -> String {
    let c = &s.change;
    format!(
        "── change at {} (first: {}): {:.2} → {:.2}, {:+.1} %{} (p = {:.3}){}",
        c.index,
        shown(&s.first_after),
        c.before,
        c.after,
        c.step_pct,
        c.interval_pct
            .map_or(String::new(), |(lo, hi)| format!(" [{lo:+.1}, {hi:+.1}]")),
        c.p_value,
        if s.regression { ", a regression" } else { "" }
    )
}

use crate::analysis::history::Step;
