//! `txbench replay`: the options read once, replay::catch_up (or, with --balanced,
//! replay::balanced) called, its finding printed (text, the finding first; or --json),
//! INVALID exiting 3.

use super::Output;
use crate::cli::ReplayCmd;
use crate::error::{EXIT_OK, Failure};
use crate::replay::{self, Options};
use crate::report::text::shown;
use crate::results::replay::{Balanced, Replay};
use crate::server::StateDir;
use anyhow::Result;
use std::time::Duration;

/// `txbench replay --server NAME …`.
pub fn replay(out: &Output, url: Option<&str>, cmd: &ReplayCmd) -> Result<i32> {
    if url.is_some() {
        return Err(Failure::Usage(
            "--url (or TXBENCH_URL): replay works on a sandbox primary and its replica: give --server NAME".into(),
        )
        .into());
    }
    let labels = crate::config::labels(&cmd.labels).map_err(Failure::Usage)?;
    if labels.contains_key("replay") {
        return Err(Failure::Usage(
            "--label replay=…: replay labels its runs replay=catch-up or replay=balanced itself"
                .into(),
        )
        .into());
    }
    let o = Options {
        primary: cmd.server.clone(),
        replica: cmd.replica.clone(),
        threads: cmd.threads,
        time: cmd.time,
        rate: cmd.rate,
        warehouses: cmd.warehouses,
        timeout: Duration::from_secs(cmd.catch_up_timeout),
        dir: cmd
            .out
            .clone()
            .unwrap_or_else(|| super::workload::default_run_dir("tpcc", "replay")),
        store: out.store.clone(),
        probes: cmd.balanced.then_some(cmd.probes),
        labels: cmd.labels.clone(),
    };
    let home = StateDir::from_env()?;
    let note = |line: &str| out.note(&shown(line));
    if o.probes.is_some() {
        let b = replay::balanced(&home, &o, &note)?;
        let file = o.dir.join(crate::results::replay::BALANCED_FILE);
        return finish(out, &b, balanced_lines(&b, &file), &b.reasons);
    }
    let r = replay::catch_up(&home, &o, &note)?;
    let file = o.dir.join(crate::results::replay::FILE);
    finish(out, &r, lines(&r, &file), &r.reasons)
}

/// Prints a replay's record (--json) or its lines; INVALID (any reason) exits 3.
fn finish<T: serde::Serialize>(
    out: &Output,
    record: &T,
    lines: Vec<String>,
    reasons: &[String],
) -> Result<i32> {
    if out.json {
        super::print_json(&serde_json::to_value(record)?);
    } else {
        for line in lines {
            println!("{}", shown(&line));
        }
    }
    if !reasons.is_empty() {
        return Err(Failure::Invalid(reasons.join("; ")).into());
    }
    Ok(EXIT_OK)
}

/// The search in a few lines: the finding, the rule, a line per probe.
fn balanced_lines(b: &Balanced, file: &std::path::Path) -> Vec<String> {
    let mut v = Vec::new();
    if !b.valid {
        v.push(format!("INVALID: {}", b.reasons.join("; ")));
    }
    v.push(b.finding());
    v.push(format!(
        "a probe keeps up when the replica's peak backlog is within {:.2} s of the primary's writing",
        b.tolerance_s
    ));
    v.extend(b.probes.iter().map(|p| p.line()));
    v.push(format!("stored: {}", file.display()));
    v
}

/// The replay in a few lines, the finding first.
fn lines(r: &Replay, file: &std::path::Path) -> Vec<String> {
    let (b, c, p) = (&r.backlog, &r.catch_up, &r.primary_run);
    let mut v = Vec::new();
    if !r.valid {
        v.push(format!("INVALID: {}", r.reasons.join("; ")));
    }
    v.push(r.finding());
    v.push(format!(
        "backlog: {} transaction(s), {} New-Order(s), written in {:.1} s ({:.0} transactions/min)",
        b.transactions, b.new_orders, p.seconds, b.written_per_minute
    ));
    v.push(format!(
        "catch-up: {:.2} s{}, {} transaction(s) and {} New-Order(s) applied",
        c.seconds,
        if c.caught_up { "" } else { " (not caught up)" },
        c.transactions,
        c.new_orders
    ));
    v.push(format!(
        "primary run: {:.0} NOPM, {:.0} TPM, {} New-Order(s) counted{}",
        p.nopm,
        p.tpm,
        p.new_orders,
        if p.valid { "" } else { " (INVALID)" }
    ));
    v.push(format!("stored: {}", file.display()));
    v
}
