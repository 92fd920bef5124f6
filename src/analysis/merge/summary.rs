//! The merged run's summary over its measured phase, and its server block from the shard
//! that sampled the server (through the verdict path a run shares, analysis::verdict).

use super::*;
use crate::analysis::verdict::{self, Sampling};

/// The merged measured phase: counts from the merged rows (the shards' own counts per
/// interval), latency from every measured histogram, CPU and top errors from the shards.
pub(super) fn merge_summary(
    parts: &[Part],
    measured: &[IntervalRow],
    all: &Acc,
    names: &[String],
    len: usize,
    truncated: bool,
) -> Summary {
    let secs = measured_secs(measured);
    let over = |service: bool| combined(all.iter().map(|((_, s), h)| (*s, h)), service);
    let count = |f: &dyn Fn(&IntervalRow) -> f64| shard_count(parts, len, f);
    let transactions: u64 = measured.iter().map(|r| r.transactions).sum();
    let errors_by_class = classes(measured.iter());
    let stmts = crate::metrics::StmtCounts {
        reads: count(&|r| r.reads_ps),
        writes: count(&|r| r.writes_ps),
        other: count(&|r| r.other_ps),
    };
    let kinds = kind_summaries(measured, all, names, secs);
    let shard_summaries: Vec<&Summary> =
        parts.iter().filter_map(|p| p.r.summary.as_ref()).collect();
    let client_cpu_s = client_cpu_s(parts, measured, &shard_summaries, truncated);
    let cpus: usize = parts.iter().map(|p| p.r.client.cpus).sum();
    let top_errors = top_errors(&shard_summaries);
    let errors: u64 = measured.iter().map(|r| r.errors).sum();
    Summary {
        duration_s: secs,
        // The latest shard's: the merged phase ends with it.
        overrun_s: parts
            .iter()
            .filter_map(|p| p.r.summary.as_ref())
            .map(|s| s.overrun_s)
            .fold(0.0, f64::max),
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
        retries_by_class: retries_by_class(&shard_summaries),
        reconnects: count(&|r| r.reconn_ps),
        cut: shard_summaries.iter().map(|s| s.cut).sum(),
        cut_uncommitted: shard_summaries.iter().map(|s| s.cut_uncommitted).sum(),
        response: LatencyStats::of(&over(false)),
        service: LatencyStats::of(&over(true)),
        kinds,
        client_cpu_s,
        client_cpu_pct: client_cpu_s / (secs * cpus.max(1) as f64) * 100.0,
        // Each shard's process had its own memory: see each shard's result.
        client_users: None,
        top_errors,
        server: None,
        targets: Vec::new(),
    }
}

/// The measured phase's length, s.
fn measured_secs(measured: &[IntervalRow]) -> f64 {
    // The measured phase from its first start to its last end (merged rows may overlap by the
    // shards' start spread).
    match (measured.first(), measured.last()) {
        (Some(a), Some(b)) => (b.end_s - a.start_s).max(1e-9),
        _ => 1e-9,
    }
}

/// A count over the measured intervals of the span (the first `len`), summed over shards.
fn shard_count(parts: &[Part], len: usize, f: &dyn Fn(&IntervalRow) -> f64) -> u64 {
    // Statement counts per shard: its rates times its own interval's length.
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
}

/// Each kind's counts over the measured rows, its latency from its merged histograms.
fn kind_summaries(
    measured: &[IntervalRow],
    all: &Acc,
    names: &[String],
    secs: f64,
) -> Vec<KindSummary> {
    names
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
        .collect()
}

/// The clients' CPU time over the measured phase, s: from the merged rows when the merge is
/// truncated, else the shards' own summaries.
fn client_cpu_s(
    parts: &[Part],
    measured: &[IntervalRow],
    shard_summaries: &[&Summary],
    truncated: bool,
) -> f64 {
    if truncated {
        measured
            .iter()
            .map(|r| r.client_cpu_pct / 100.0 * (r.end_s - r.start_s))
            .sum::<f64>()
            * parts.iter().map(|p| p.r.client.cpus as f64).sum::<f64>()
    } else {
        shard_summaries.iter().map(|s| s.client_cpu_s).sum()
    }
}

/// The shards' top errors, the same error's counts added, the five most frequent.
fn top_errors(shard_summaries: &[&Summary]) -> Vec<crate::metrics::ErrorMessage> {
    let mut top: BTreeMap<(String, String, String), u64> = BTreeMap::new();
    for s in shard_summaries {
        for e in &s.top_errors {
            *top.entry((e.kind.clone(), format!("{:?}", e.class), e.message.clone()))
                .or_default() += e.count;
        }
    }
    let mut top_errors: Vec<crate::metrics::ErrorMessage> = Vec::new();
    for s in shard_summaries {
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
    top_errors
}

/// The shards' retries by class, added.
fn retries_by_class(shard_summaries: &[&Summary]) -> BTreeMap<String, u64> {
    shard_summaries.iter().fold(BTreeMap::new(), |mut m, s| {
        for (class, n) in &s.retries_by_class {
            *m.entry(class.clone()).or_default() += n;
        }
        m
    })
}

/// The server block from the shard that sampled the server (shard 1): its counters over the
/// measured phase divided by every shard's transactions, and the cross-checks against the
/// merged counts (slack for the shards' start spread); its server files copied into `out`.
#[allow(clippy::too_many_arguments)]
pub(super) fn server_figures(
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
    // How the server was sampled is the sampling shard's own block's.
    let sampling =
        p.r.summary
            .as_ref()
            .and_then(|s| s.server.as_ref())
            .map_or_else(Sampling::default, Sampling::of_block);
    let mut s = verdict::server_block(Some(m), &rows, summary, sampling);
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
        let in_flight: Vec<InFlight> = parts
            .iter()
            .map(|p| InFlight {
                total: p.shard.in_flight_at_open,
                by_kind: p.shard.in_flight_by_kind.clone(),
            })
            .collect();
        let ends = Ends {
            commits: shard.commits.clone(),
            autocommit_statements: shard.autocommit_statements.clone(),
            connections: u64::from(result.config.threads),
            pg: None,
            in_flight_at_open: InFlight::sum(&in_flight),
        };
        // The sampling shard's opening and closing samples read their counters over their
        // own duration while the other shards' users run (a loaded machine's samples take
        // up to 200 ms: merged runs in CI counted 0.1 s of work more than the server).
        let sample_s =
            p.r.summary
                .as_ref()
                .and_then(|s| s.server.as_ref())
                .map_or(0.0, |b| (b.sample_ms_max / 1000.0).clamp(0.0, 1.0));
        let lag = shard.opening_lag_s + spread + 2.0 * sample_s;
        s.cross_checks = cross_checks(m, summary, mode, &ends, lag);
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
    result.summary = Some(summary.clone());
    verdict::conclude(result, s, &rows);
    summary.server = result.summary.as_ref().and_then(|s| s.server.clone());
    Ok(())
}
