//! `txbench merge`: the shards of one run (each a run directory written by `run --shard K/N`)
//! into one ordinary run directory, or the shards of a sweep level by level. Intervals are
//! aligned by their start in the database server's clock; counts are summed; percentiles come
//! from the shards' latency.hlog histograms merged exactly, never from averaged percentiles;
//! the verdict is the conjunction of the shards'. Results side only: no database is touched.

use crate::analysis::cross_checks::{Ends, PG_TRANSACTIONS, cross_checks};
use crate::metrics::{LatencyStats, server::ServerRow, server::ServerSummary};
use crate::results::{
    Client, HlogRecord, IntervalRow, KindRow, KindSummary, MergeRecord, MergedShard, Phase, RunDir,
    RunResult, RunStatus, ShardRecord, Stored, Summary, Sweep, SweepLevel, Validity,
    WorkloadReport, read_hlog,
};
use anyhow::{Context, Result, bail};
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

/// Scores the merged run the way its workload does (TPC-C's scorecard), from the merged
/// summary and each shard's report: given by the caller, which knows the workloads.
pub type Scorer<'a> = &'a dyn Fn(&Summary, &[&RunResult]) -> (Option<WorkloadReport>, Vec<String>);

/// What a merge wrote.
pub enum Merged {
    /// One run.
    Run(Box<RunResult>),
    /// A sweep, its merged levels, and why it ends before its last level (if it does).
    Sweep(Box<Sweep>, Vec<RunResult>, Vec<String>),
}

/// The files of the sampling shard copied beside the merged result.
const SERVER_FILES: &[&str] = &["server.csv", "server-status.jsonl", "waits.csv"];

/// Merges the shard directories `dirs` (runs, or sweeps) into `out`.
pub fn merge(dirs: &[PathBuf], out: &Path, score: Scorer) -> Result<Merged> {
    if dirs.is_empty() {
        bail!("merge: no shard directory given");
    }
    if out.join("result.json").exists() || out.join(Sweep::FILE).exists() {
        bail!(
            "--out {}: holds a run already; choose another directory",
            out.display()
        );
    }
    if dirs.iter().any(|d| same_dir(d, out)) {
        bail!(
            "--out {}: is one of the shard directories; choose another",
            out.display()
        );
    }
    let stored: Vec<Stored> = dirs
        .iter()
        .map(|d| Stored::load(d).with_context(|| format!("merge: {}", d.display())))
        .collect::<Result<_>>()?;
    let sweeps = stored
        .iter()
        .filter(|s| matches!(s, Stored::Sweep(..)))
        .count();
    if sweeps == 0 {
        return Ok(Merged::Run(Box::new(merge_runs(dirs, out, score)?)));
    }
    if sweeps != stored.len() {
        bail!(
            "merge: some directories are sweeps and some single runs: give the shards of one run"
        );
    }
    merge_sweeps(dirs, &stored, out, score)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The sweeps' levels that every shard ran, each merged into `out`/tNNNNN.
fn merge_sweeps(dirs: &[PathBuf], stored: &[Stored], out: &Path, score: Scorer) -> Result<Merged> {
    let sweeps: Vec<&Sweep> = stored
        .iter()
        .filter_map(|s| match s {
            Stored::Sweep(s, _) => Some(s.as_ref()),
            Stored::Run(_) => None,
        })
        .collect();
    let first = sweeps[0];
    for (s, d) in sweeps.iter().zip(dirs).skip(1) {
        if s.workload != first.workload || s.levels != first.levels {
            bail!(
                "merge: {} is a sweep of {} over {:?} threads, {} of {} over {:?}: not shards of one sweep",
                d.display(),
                s.workload,
                s.levels,
                dirs[0].display(),
                first.workload,
                first.levels
            );
        }
    }
    std::fs::create_dir_all(out)
        .with_context(|| format!("--out {}: cannot create it", out.display()))?;
    let mut merged = Sweep {
        schema_version: crate::results::SCHEMA_VERSION,
        workload: first.workload.clone(),
        workload_options: first.workload_options.clone(),
        levels: first.levels.clone(),
        started_at: sweeps
            .iter()
            .map(|s| s.started_at.clone())
            .min()
            .unwrap_or_default(),
        status: RunStatus::Completed,
        args: first.args.clone(),
        runs: Vec::new(),
    };
    let mut runs = Vec::new();
    let mut stopped = Vec::new();
    for &threads in &first.levels {
        let level_dirs: Option<Vec<PathBuf>> = sweeps
            .iter()
            .zip(dirs)
            .map(|(s, d)| {
                s.runs
                    .iter()
                    .find(|l| l.threads == threads)
                    .map(|l| d.join(&l.dir))
            })
            .collect();
        let Some(level_dirs) = level_dirs else {
            // A level some shard has not run: the merged sweep ends before it.
            merged.status = RunStatus::Interrupted;
            break;
        };
        let name = format!("t{threads:05}");
        match merge_runs(&level_dirs, &out.join(&name), score) {
            Ok(r) => {
                merged.runs.push(SweepLevel::of(&r, &name));
                runs.push(r);
            }
            // The levels merged so far stand; the sweep ends before this one.
            Err(e) if !runs.is_empty() => {
                let _ = std::fs::remove_dir_all(out.join(&name));
                merged.status = RunStatus::Interrupted;
                stopped.push(format!(
                    "the level of {threads} threads is not merged, nor any after it: {}",
                    crate::error::one_line(&e)
                ));
                break;
            }
            Err(e) => return Err(e.context(format!("the level of {threads} threads"))),
        }
    }
    if sweeps.iter().any(|s| s.status != RunStatus::Completed)
        && merged.status == RunStatus::Completed
    {
        merged.status = RunStatus::Interrupted;
    }
    if runs.is_empty() {
        bail!("merge: no level was run by every shard: nothing to merge");
    }
    merged.write(out)?;
    Ok(Merged::Sweep(Box::new(merged), runs, stopped))
}

/// A shard as merge reads it.
struct Part {
    dir: PathBuf,
    r: RunResult,
    /// Its shard record (`r.shard`, which every part has).
    shard: ShardRecord,
    /// Its histograms, still encoded, by interval start (ms).
    hists: BTreeMap<i64, Vec<HlogRecord>>,
    /// Its start in the server's clock, seconds since the epoch.
    abs_start: f64,
}

fn ms_key(s: f64) -> i64 {
    (s * 1000.0).round() as i64
}

/// The configuration shards of one run share: everything but the shard and the seed (the
/// target URLs too: shards of one run measure one database).
fn comparable(r: &RunResult) -> serde_json::Value {
    let mut c = serde_json::to_value(&r.config).unwrap_or_default();
    if let Some(o) = c.as_object_mut() {
        for k in ["shard", "seed"] {
            o.remove(k);
        }
    }
    c
}

/// The first key whose value differs, for the refusal.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
        for (k, v) in a {
            let w = b.get(k).unwrap_or(&serde_json::Value::Null);
            if v != w {
                return format!("{k} {w} against {v}");
            }
        }
        for (k, w) in b {
            if !a.contains_key(k) {
                return format!("{k} {w} against none");
            }
        }
    }
    format!("{b} against {a}")
}

fn load_parts(dirs: &[PathBuf]) -> Result<Vec<Part>> {
    let mut parts: Vec<Part> = Vec::new();
    for d in dirs {
        let r = RunResult::load(d)?;
        let Some(shard) = r.shard.clone() else {
            bail!(
                "merge: {} is not a shard (its run had no --shard): nothing to merge it with",
                d.display()
            );
        };
        let abs_start = shard.start_unix_s + shard.clock_offset_s;
        let mut hists: BTreeMap<i64, Vec<HlogRecord>> = BTreeMap::new();
        let found = read_hlog(d, |e| {
            hists.entry(ms_key(e.start_s)).or_default().push(e);
            Ok(())
        })?;
        if !found {
            bail!(
                "merge: {} has no latency.hlog: its percentiles cannot be merged",
                d.display()
            );
        }
        parts.push(Part {
            dir: d.clone(),
            r,
            shard,
            hists,
            abs_start,
        });
    }
    let n = parts[0].shard.count;
    for p in &parts[1..] {
        let (k, c) = (p.shard.index, p.shard.count);
        if c != n {
            bail!(
                "merge: {} is shard {k}/{c} but {} is shard {}/{n}: not shards of one run",
                p.dir.display(),
                parts[0].dir.display(),
                parts[0].shard.index
            );
        }
    }
    parts.sort_by_key(|p| p.shard.index);
    for w in parts.windows(2) {
        if w[0].shard.index == w[1].shard.index {
            bail!(
                "merge: shard {}/{n} given twice ({} and {})",
                w[0].shard.index,
                w[0].dir.display(),
                w[1].dir.display()
            );
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !parts.iter().any(|p| p.shard.index == *k))
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        bail!(
            "merge: shard(s) {} of {n} missing: every shard of the run is needed",
            missing.join(", ")
        );
    }
    let base = comparable(&parts[0].r);
    for p in &parts[1..] {
        if p.r.config.workload != parts[0].r.config.workload {
            bail!(
                "merge: shard {} ({}) ran the workload {}, shard 1 ({}) {}: not shards of one run",
                p.shard.index,
                p.dir.display(),
                p.r.config.workload,
                parts[0].dir.display(),
                parts[0].r.config.workload
            );
        }
        let c = comparable(&p.r);
        if c != base {
            bail!(
                "merge: shard {} ({}) ran with {} of shard 1 ({}): shards of one run have the same workload and options",
                p.shard.index,
                p.dir.display(),
                first_difference(&base, &c),
                parts[0].dir.display()
            );
        }
        if p.r.kinds != parts[0].r.kinds {
            bail!(
                "merge: shard {} ({}) has transaction kinds {:?}, shard 1 {:?}",
                p.shard.index,
                p.dir.display(),
                p.r.kinds,
                parts[0].r.kinds
            );
        }
    }
    Ok(parts)
}

/// Merges the shards of one run, writing `out`.
pub fn merge_runs(dirs: &[PathBuf], out: &Path, score: Scorer) -> Result<RunResult> {
    let parts = load_parts(dirs)?;
    let first = &parts[0].r;
    let names = first.kinds.clone();
    let interval = first.config.report_interval_s;
    let t0 = parts
        .iter()
        .map(|p| p.abs_start)
        .fold(f64::INFINITY, f64::min);
    let spread = parts.iter().map(|p| p.abs_start - t0).fold(0.0, f64::max);
    if spread > interval / 2.0 {
        let late = parts
            .iter()
            .max_by(|a, b| a.abs_start.total_cmp(&b.abs_start))
            .map(|p| p.shard.index)
            .unwrap_or(0);
        bail!(
            "merge: shard {late} started {spread:.2} s after the first, more than half the {interval} s interval: their intervals do not line up (start the shards together with --start-at)"
        );
    }
    let mut notes: Vec<String> = Vec::new();
    let mut status = RunStatus::Completed;
    // A shard that ran its course may end early (its part of --events done); one that was
    // interrupted, aborted or died ends the merge where it ended.
    let mut len = parts.iter().map(|p| p.r.intervals.len()).max().unwrap_or(0);
    for p in &parts {
        let s = p.shard.index;
        let st = if p.r.status == RunStatus::Running {
            RunStatus::Interrupted
        } else {
            p.r.status
        };
        if st != RunStatus::Completed {
            let end = p.r.intervals.last().map_or(0.0, |i| i.end_s);
            notes.push(format!(
                "shard {s} {} at {end:.1} s: the merge covers the {} interval(s) every shard ran",
                match p.r.status {
                    RunStatus::Running => "stopped without finishing (its process died)",
                    RunStatus::Aborted => "was aborted",
                    _ => "was interrupted",
                },
                p.r.intervals.len()
            ));
            len = len.min(p.r.intervals.len());
            if st == RunStatus::Aborted || status == RunStatus::Completed {
                status = st;
            }
        }
    }

    let mut result = RunResult {
        config: {
            let mut c = first.config.clone();
            c.shard = None;
            c
        },
        status: RunStatus::Running,
        started_at: parts
            .iter()
            .map(|p| p.r.started_at.clone())
            .min()
            .unwrap_or_default(),
        ended_at: parts.iter().filter_map(|p| p.r.ended_at.clone()).max(),
        client: Client {
            host: {
                let mut hosts: Vec<String> =
                    parts.iter().map(|p| p.r.client.host.clone()).collect();
                hosts.sort();
                hosts.dedup();
                hosts.join(", ")
            },
            cpus: parts.iter().map(|p| p.r.client.cpus).sum(),
        },
        intervals: Vec::new(),
        events: Vec::new(),
        summary: None,
        workload_report: None,
        stability: None,
        findings: Vec::new(),
        shard: None,
        merged: None,
        validity: Validity {
            valid: true,
            reasons: Vec::new(),
        },
        ..first.clone()
    };
    for p in &parts {
        for n in &p.r.notes {
            if n.starts_with("shard ") {
                continue;
            }
            if !result.notes.contains(n) && !notes.contains(n) {
                notes.push(n.clone());
            }
        }
    }
    result.notes.retain(|n| !n.starts_with("shard "));
    if !first.config.targets.is_empty() {
        notes.push("per-target figures are not merged (latency.hlog has no per-target histograms): each shard's result.json has its own".into());
    }
    if parts.iter().any(|p| p.r.config.seed != first.config.seed) {
        notes.push(
            "the shards drew their inputs from different seeds (no --seed or --start-at): together they are a run like one process's, not the same inputs"
                .into(),
        );
    }
    result.merged = Some(MergeRecord {
        shards: parts
            .iter()
            .map(|p| MergedShard {
                index: p.shard.index,
                dir: p.dir.display().to_string(),
                host: p.r.client.host.clone(),
                threads: p.shard.users.len() as u32,
                status: p.r.status,
                valid: p.r.validity.valid,
                start_s: p.abs_start - t0,
                clock_offset_s: p.shard.clock_offset_s,
            })
            .collect(),
        start_spread_s: spread,
    });

    std::fs::create_dir_all(out)
        .with_context(|| format!("--out {}: cannot create it", out.display()))?;
    let start = UNIX_EPOCH + Duration::from_secs_f64(t0.max(0.0));
    let mut dir = RunDir::create(out, start)?;
    // The measured rows, and every measured histogram merged per (kind, service) as it goes.
    let mut measured: Vec<IntervalRow> = Vec::new();
    let mut acc: Acc = BTreeMap::new();
    for i in 0..len {
        let rows: Vec<(&Part, &IntervalRow)> = parts
            .iter()
            .filter_map(|p| p.r.intervals.get(i).map(|row| (p, row)))
            .collect();
        let phase = rows[0].1.phase;
        if let Some((p, _)) = rows.iter().find(|(_, r)| r.phase != phase) {
            bail!(
                "merge: interval {} of shard {} is not in the same phase as shard 1's",
                i + 1,
                p.shard.index
            );
        }
        let (row, hists) = merge_interval(&rows, &names, t0, interval)?;
        dir.append(&row, &hists)?;
        if phase == Phase::Measure {
            for (k, s, h) in &hists {
                acc.entry((k.clone(), *s))
                    .or_insert_with(new_hist)
                    .add(h)
                    .map_err(|err| anyhow::anyhow!("merging histograms: {err:?}"))?;
            }
            measured.push(row.clone());
        }
        result.intervals.push(row);
    }
    for p in &parts {
        let k = p.shard.index;
        for e in &p.r.events {
            result.events.push(crate::results::Event {
                t_s: e.t_s + p.abs_start - t0,
                what: format!("shard {k}: {}", e.what),
            });
        }
    }
    result.events.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
    if !measured.is_empty() {
        let truncated = len < parts.iter().map(|p| p.r.intervals.len()).max().unwrap_or(0);
        let mut summary = merge_summary(&parts, &measured, &acc, &names, len, truncated);
        server_figures(
            &mut result,
            &mut summary,
            &parts,
            out,
            truncated,
            spread,
            &mut notes,
        )?;
        if truncated {
            if first.workload_report.is_some() {
                notes.push("no workload scorecard: the shards' input counts cover their whole runs, longer than the merge".into());
            }
        } else {
            let (report, more) = score(&summary, &parts.iter().map(|p| &p.r).collect::<Vec<_>>());
            notes.extend(more);
            result.workload_report = report;
        }
        result.summary = Some(summary);
        result.stability = crate::results::Stability::of(
            &result.intervals,
            result.config.warmup_s,
            result.config.stability_window_s,
        );
    }
    // The verdict: every shard's reasons, by shard, and the merge's own.
    for p in &parts {
        let k = p.shard.index;
        if !p.r.validity.valid {
            result.validity.valid = false;
            for reason in &p.r.validity.reasons {
                result
                    .validity
                    .reasons
                    .push(format!("shard {k} ({}): {reason}", p.dir.display()));
            }
            if p.r.validity.reasons.is_empty() {
                result
                    .validity
                    .reasons
                    .push(format!("shard {k} ({}) is INVALID", p.dir.display()));
            }
        }
    }
    if let Some(s) = result.summary.as_ref().and_then(|s| s.server.as_ref()) {
        for reason in s.cross_checks.iter().filter_map(|c| c.reason()) {
            result.validity.valid = false;
            result.validity.reasons.push(reason);
        }
    }
    if result.summary.is_none() && status == RunStatus::Completed {
        result.validity.valid = false;
        result
            .validity
            .reasons
            .push("no measured interval: the shards ended during warm-up".into());
    }
    result.notes.extend(notes);
    result.notes.push(format!(
        "merged from {} shards by txbench merge: counts summed, percentiles from their histograms merged, intervals aligned by the server's clock (starts {:.1} ms apart)",
        parts.len(),
        spread * 1000.0
    ));
    result.status = status;
    dir.write_result(&result)?;
    Ok(result)
}

type Hists = Vec<(String, bool, Histogram<u64>)>;
/// Histograms by (kind, service time).
type Acc = BTreeMap<(String, bool), Histogram<u64>>;

fn new_hist() -> Histogram<u64> {
    crate::metrics::new_histogram()
}

/// One histogram of those of `hists` that are of service time (or of response time).
fn combined<'a>(
    hists: impl Iterator<Item = (bool, &'a Histogram<u64>)>,
    service: bool,
) -> Histogram<u64> {
    let mut h = new_hist();
    for (s, k) in hists {
        if s == service {
            let _ = h.add(k);
        }
    }
    h
}

/// Failures by class, summed over `rows`.
fn classes<'a>(rows: impl Iterator<Item = &'a IntervalRow>) -> BTreeMap<String, u64> {
    let mut by_class: BTreeMap<String, u64> = BTreeMap::new();
    for r in rows {
        for (c, v) in &r.errors_by_class {
            *by_class.entry(c.clone()).or_default() += v;
        }
    }
    by_class
}

/// One merged interval: the shards' rows at the same place, counts summed, rates summed (each
/// is its shard's count over its own interval), percentiles from the merged histograms.
fn merge_interval(
    rows: &[(&Part, &IntervalRow)],
    names: &[String],
    t0: f64,
    interval: f64,
) -> Result<(IntervalRow, Hists)> {
    // Rows are taken by position: each must start where the others do (a shard whose loop
    // skipped a boundary would otherwise be summed with the next interval of the others).
    let starts: Vec<f64> = rows
        .iter()
        .map(|(p, r)| p.abs_start - t0 + r.start_s)
        .collect();
    let lo = starts.iter().cloned().fold(f64::INFINITY, f64::min);
    if let Some(((p, r), s)) = rows
        .iter()
        .zip(&starts)
        .find(|(_, s)| **s - lo > interval / 2.0)
    {
        bail!(
            "merge: shard {}'s interval at {:.1} s starts {:.2} s after the others' (more than half the {interval} s interval): the shards' intervals do not line up",
            p.shard.index,
            r.start_s,
            s - lo
        );
    }
    let mut hists: Hists = names
        .iter()
        .flat_map(|k| {
            [
                (k.clone(), false, new_hist()),
                (k.clone(), true, new_hist()),
            ]
        })
        .collect();
    for (p, row) in rows {
        let mut logged: BTreeMap<(String, bool), u64> = BTreeMap::new();
        for e in p
            .hists
            .get(&ms_key(row.start_s))
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            let h = e.decode().with_context(|| p.dir.display().to_string())?;
            *logged.entry((e.kind.clone(), e.service)).or_default() += h.len();
            if let Some((_, _, m)) = hists
                .iter_mut()
                .find(|(k, s, _)| *k == e.kind && *s == e.service)
            {
                m.add(&h)
                    .map_err(|err| anyhow::anyhow!("merging histograms: {err:?}"))?;
            }
        }
        // Every completed transaction has one response and one service time in the log: a log
        // cut short, or appended twice, would merge the percentiles of other samples.
        for k in &row.kinds {
            for service in [false, true] {
                let n = logged.get(&(k.name.clone(), service)).copied().unwrap_or(0);
                if n != k.completed {
                    bail!(
                        "merge: {}: latency.hlog holds {n} {} {} times for the interval at {:.1} s, which counts {} completed: the log is incomplete or repeated",
                        p.dir.display(),
                        k.name,
                        if service { "service" } else { "response" },
                        row.start_s,
                        k.completed
                    );
                }
            }
        }
    }
    let resp = LatencyStats::of(&combined(hists.iter().map(|(_, s, h)| (*s, h)), false));
    let serv = LatencyStats::of(&combined(hists.iter().map(|(_, s, h)| (*s, h)), true));
    let sum = |f: &dyn Fn(&IntervalRow) -> f64| rows.iter().map(|(_, r)| f(r)).sum::<f64>();
    let sumu = |f: &dyn Fn(&IntervalRow) -> u64| rows.iter().map(|(_, r)| f(r)).sum::<u64>();
    let by_class = classes(rows.iter().map(|(_, r)| *r));
    let kinds = names
        .iter()
        .map(|name| {
            let of = |f: &dyn Fn(&KindRow) -> u64| -> u64 {
                rows.iter()
                    .filter_map(|(_, r)| r.kinds.iter().find(|k| k.name == *name))
                    .map(f)
                    .sum()
            };
            let l = hists
                .iter()
                .find(|(k, s, _)| k == name && !*s)
                .map(|(_, _, h)| LatencyStats::of(h))
                .unwrap_or_default();
            KindRow {
                name: name.clone(),
                completed: of(&|k| k.completed),
                rolled_back: of(&|k| k.rolled_back),
                errors: of(&|k| k.errors),
                retries: of(&|k| k.retries),
                p95_ms: l.p95_ms,
                p99_ms: l.p99_ms,
            }
        })
        .collect();
    // CPU: each shard's share of its own CPUs, back to seconds, over all the clients' CPUs.
    let cpu_s: f64 = rows
        .iter()
        .map(|(p, r)| r.client_cpu_pct / 100.0 * (r.end_s - r.start_s) * p.r.client.cpus as f64)
        .sum();
    let cpu_capacity: f64 = rows
        .iter()
        .map(|(p, r)| (r.end_s - r.start_s) * p.r.client.cpus as f64)
        .sum();
    let row = IntervalRow {
        phase: rows[0].1.phase,
        // From the first shard's start to the last one's end: with --events shards end when
        // their part is done, and the interval lasts until the last one did.
        start_s: rows
            .iter()
            .map(|(p, r)| p.abs_start - t0 + r.start_s)
            .fold(f64::INFINITY, f64::min),
        end_s: rows
            .iter()
            .map(|(p, r)| p.abs_start - t0 + r.end_s)
            .fold(f64::NEG_INFINITY, f64::max),
        threads: rows.iter().map(|(_, r)| r.threads).sum(),
        transactions: sumu(&|r| r.transactions),
        tps: sum(&|r| r.tps),
        qps: sum(&|r| r.qps),
        reads_ps: sum(&|r| r.reads_ps),
        writes_ps: sum(&|r| r.writes_ps),
        other_ps: sum(&|r| r.other_ps),
        p95_ms: resp.p95_ms,
        p99_ms: resp.p99_ms,
        service_p99_ms: serv.p99_ms,
        errors: sumu(&|r| r.errors),
        unexpected_errors: sumu(&|r| r.unexpected_errors),
        failed_after_retries: sumu(&|r| r.failed_after_retries),
        err_ps: sum(&|r| r.err_ps),
        reconn_ps: sum(&|r| r.reconn_ps),
        errors_by_class: by_class,
        kinds,
        client_cpu_pct: if cpu_capacity > 0.0 {
            cpu_s / cpu_capacity * 100.0
        } else {
            0.0
        },
        targets: Vec::new(),
    };
    Ok((row, hists))
}

/// The merged measured phase: counts from the merged rows (the shards' own counts per
/// interval), latency from every measured histogram, CPU and top errors from the shards.
fn merge_summary(
    parts: &[Part],
    measured: &[IntervalRow],
    all: &Acc,
    names: &[String],
    len: usize,
    truncated: bool,
) -> Summary {
    // The measured phase from its first start to its last end (merged rows may overlap by the
    // shards' start spread).
    let secs: f64 = match (measured.first(), measured.last()) {
        (Some(a), Some(b)) => (b.end_s - a.start_s).max(1e-9),
        _ => 1e-9,
    };
    let over = |service: bool| combined(all.iter().map(|((_, s), h)| (*s, h)), service);
    // Statement counts per shard: its rates times its own interval's length.
    let count = |f: &dyn Fn(&IntervalRow) -> f64| -> u64 {
        parts
            .iter()
            .map(|p| {
                p.r.intervals
                    .iter()
                    .take(len)
                    .filter(|r| r.phase == Phase::Measure)
                    .map(|r| (f(r) * (r.end_s - r.start_s)).round() as u64)
                    .sum::<u64>()
            })
            .sum()
    };
    let transactions: u64 = measured.iter().map(|r| r.transactions).sum();
    let errors_by_class = classes(measured.iter());
    let stmts = crate::metrics::StmtCounts {
        reads: count(&|r| r.reads_ps),
        writes: count(&|r| r.writes_ps),
        other: count(&|r| r.other_ps),
    };
    let kinds: Vec<KindSummary> = names
        .iter()
        .map(|name| {
            let of = |f: &dyn Fn(&KindRow) -> u64| -> u64 {
                measured
                    .iter()
                    .filter_map(|r| r.kinds.iter().find(|k| k.name == *name))
                    .map(f)
                    .sum()
            };
            let stats = |s: bool| {
                all.get(&(name.clone(), s))
                    .map(LatencyStats::of)
                    .unwrap_or_default()
            };
            let completed = of(&|k| k.completed);
            let rolled_back = of(&|k| k.rolled_back);
            KindSummary {
                name: name.clone(),
                completed,
                committed: completed - rolled_back,
                rolled_back,
                errors: of(&|k| k.errors),
                retries: of(&|k| k.retries),
                tps: completed as f64 / secs,
                response: stats(false),
                service: stats(true),
            }
        })
        .collect();
    let shard_summaries: Vec<&Summary> =
        parts.iter().filter_map(|p| p.r.summary.as_ref()).collect();
    let client_cpu_s = if truncated {
        measured
            .iter()
            .map(|r| r.client_cpu_pct / 100.0 * (r.end_s - r.start_s))
            .sum::<f64>()
            * parts.iter().map(|p| p.r.client.cpus as f64).sum::<f64>()
    } else {
        shard_summaries.iter().map(|s| s.client_cpu_s).sum()
    };
    let cpus: usize = parts.iter().map(|p| p.r.client.cpus).sum();
    let mut top: BTreeMap<(String, String, String), u64> = BTreeMap::new();
    for s in &shard_summaries {
        for e in &s.top_errors {
            *top.entry((e.kind.clone(), format!("{:?}", e.class), e.message.clone()))
                .or_default() += e.count;
        }
    }
    let mut top_errors: Vec<crate::metrics::ErrorMessage> = Vec::new();
    for s in &shard_summaries {
        for e in &s.top_errors {
            let key = (e.kind.clone(), format!("{:?}", e.class), e.message.clone());
            if let Some(c) = top.remove(&key) {
                top_errors.push(crate::metrics::ErrorMessage {
                    count: c,
                    ..e.clone()
                });
            }
        }
    }
    top_errors.sort_by_key(|e| std::cmp::Reverse(e.count));
    top_errors.truncate(5);
    let errors: u64 = measured.iter().map(|r| r.errors).sum();
    Summary {
        duration_s: secs,
        transactions,
        tps: transactions as f64 / secs,
        queries: stmts.total(),
        qps: stmts.total() as f64 / secs,
        stmts,
        errors,
        unexpected_errors: measured.iter().map(|r| r.unexpected_errors).sum(),
        failed_after_retries: measured.iter().map(|r| r.failed_after_retries).sum(),
        errors_by_class,
        retries: kinds.iter().map(|k| k.retries).sum(),
        retried_transactions: shard_summaries.iter().map(|s| s.retried_transactions).sum(),
        // Intervals do not carry them: the shards' own summaries, added (over the whole
        // measured phase even when the merge is truncated to the common span).
        retries_by_class: shard_summaries.iter().fold(BTreeMap::new(), |mut m, s| {
            for (class, n) in &s.retries_by_class {
                *m.entry(class.clone()).or_default() += n;
            }
            m
        }),
        reconnects: count(&|r| r.reconn_ps),
        response: LatencyStats::of(&over(false)),
        service: LatencyStats::of(&over(true)),
        kinds,
        client_cpu_s,
        client_cpu_pct: client_cpu_s / (secs * cpus.max(1) as f64) * 100.0,
        top_errors,
        server: None,
        targets: Vec::new(),
    }
}

/// The server block from the shard that sampled the server (shard 1): its counters over the
/// measured phase divided by every shard's transactions, and the cross-checks against the
/// merged counts (slack for the shards' start spread); its server files copied into `out`.
#[allow(clippy::too_many_arguments)]
fn server_figures(
    result: &mut RunResult,
    summary: &mut Summary,
    parts: &[Part],
    out: &Path,
    truncated: bool,
    spread: f64,
    notes: &mut Vec<String>,
) -> Result<()> {
    let Some((p, m)) = parts
        .iter()
        .find_map(|p| Some((p, p.shard.server_measured.as_ref()?)))
    else {
        if result.config.server_metrics {
            notes.push("no shard recorded the server's counters over its measured phase: the merged run has no server figures".into());
        }
        return Ok(());
    };
    for f in SERVER_FILES {
        let from = p.dir.join(f);
        if from.is_file() {
            std::fs::copy(&from, out.join(f))
                .with_context(|| format!("copying {} into {}", from.display(), out.display()))?;
        }
    }
    let shard = &p.shard;
    let rows = std::fs::read_to_string(p.dir.join("server.csv"))
        .map(|t| ServerRow::parse_csv(&t))
        .unwrap_or_default();
    let new_orders = summary
        .kinds
        .iter()
        .find(|k| k.name == "new_order")
        .map(|k| k.committed);
    let own = p.r.summary.as_ref().and_then(|s| s.server.as_ref());
    let mut s = ServerSummary::of(m, &rows, summary.transactions, new_orders);
    if let Some(o) = own {
        s.samples = o.samples;
        s.skipped_samples = o.skipped_samples;
        s.sample_ms_avg = o.sample_ms_avg;
        s.sample_ms_max = o.sample_ms_max;
        s.not_recorded = o.not_recorded.clone();
    }
    let skip = if truncated {
        Some("they cover the sampling shard's whole measured phase, longer than the merge")
    } else if result.config.targets.len() > 1 {
        Some("shard 1 sampled only the first target, and the virtual users were dealt over several")
    } else if result.config.events.is_some() {
        Some("with --events the shards end when their part is done, not with the sampling shard")
    } else {
        None
    };
    if let Some(why) = skip {
        notes.push(format!(
            "the server's counts are not divided per transaction nor cross-checked: {why}"
        ));
        // Per-transaction figures over a different span would mislead too.
        s.per_transaction.clear();
        s.per_new_order.clear();
    } else if let Some(mode) = shard.server_count {
        let ends = Ends {
            commits: shard.commits.clone(),
            autocommit_statements: shard.autocommit_statements.clone(),
            connections: u64::from(result.config.threads),
            pg: None,
        };
        s.cross_checks = cross_checks(m, summary, mode, &ends, shard.opening_lag_s + spread);
        // PostgreSQL's backends flush their counts up to a second late, and the other shards'
        // are still connected at the sampling shard's last sample: their share of the
        // phase's end is not in it yet.
        let before = s.cross_checks.len();
        s.cross_checks
            .retain(|c| !c.what.starts_with(PG_TRANSACTIONS));
        if s.cross_checks.len() < before {
            notes.push(
                "PostgreSQL's transaction count is not cross-checked over shards: the other shards' backends flush their counts up to a second after the sampling shard's last sample".into(),
            );
        }
    }
    summary.server = Some(s);
    result.summary = Some(summary.clone());
    result.findings = crate::findings::of(result, &rows);
    Ok(())
}
