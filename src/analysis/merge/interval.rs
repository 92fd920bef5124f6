//! One merged interval: the shards' rows for the same span summed, their percentiles from
//! the shards' histograms merged exactly.

use super::*;

type Hists = Vec<(String, bool, Histogram<u64>)>;
/// Histograms by (kind, service time).
pub(super) type Acc = BTreeMap<(String, bool), Histogram<u64>>;

pub(super) fn new_hist() -> Histogram<u64> {
    crate::metrics::new_histogram()
}

/// One histogram of those of `hists` that are of service time (or of response time).
pub(super) fn combined<'a>(
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
pub(super) fn classes<'a>(rows: impl Iterator<Item = &'a IntervalRow>) -> BTreeMap<String, u64> {
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
pub(super) fn merge_interval(
    rows: &[(&Part, &IntervalRow)],
    names: &[String],
    t0: f64,
    interval: f64,
) -> Result<(IntervalRow, Hists)> {
    check_starts(rows, t0, interval)?;
    let mut hists = empty_hists(names);
    for (p, row) in rows {
        let logged = add_shard_hists(p, row, &mut hists)?;
        check_logged(p, row, &logged)?;
    }
    let kinds = kind_rows(rows, names, &hists);
    let row = summed_row(rows, t0, &hists, kinds);
    Ok((row, hists))
}

/// Refuses rows that do not start together.
fn check_starts(rows: &[(&Part, &IntervalRow)], t0: f64, interval: f64) -> Result<()> {
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
    Ok(())
}

/// An empty histogram of response and of service time for each kind.
fn empty_hists(names: &[String]) -> Hists {
    names
        .iter()
        .flat_map(|k| {
            [
                (k.clone(), false, new_hist()),
                (k.clone(), true, new_hist()),
            ]
        })
        .collect()
}

/// The shard's histograms of the interval of `row` added into `hists`; how many times it
/// logged of each (kind, service).
fn add_shard_hists(
    p: &Part,
    row: &IntervalRow,
    hists: &mut Hists,
) -> Result<BTreeMap<(String, bool), u64>> {
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
    Ok(logged)
}

/// Refuses a shard's log that does not hold one time of each kind per completed transaction.
fn check_logged(p: &Part, row: &IntervalRow, logged: &BTreeMap<(String, bool), u64>) -> Result<()> {
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
    Ok(())
}

/// Each kind's counts summed over the shards, its percentiles from its merged histogram.
fn kind_rows(rows: &[(&Part, &IntervalRow)], names: &[String], hists: &Hists) -> Vec<KindRow> {
    names
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
        .collect()
}

/// The clients' CPU over the interval, % of all their CPUs.
fn client_cpu_pct(rows: &[(&Part, &IntervalRow)]) -> f64 {
    // CPU: each shard's share of its own CPUs, back to seconds, over all the clients' CPUs.
    let cpu_s: f64 = rows
        .iter()
        .map(|(p, r)| r.client_cpu_pct / 100.0 * (r.end_s - r.start_s) * p.r.client.cpus as f64)
        .sum();
    let cpu_capacity: f64 = rows
        .iter()
        .map(|(p, r)| (r.end_s - r.start_s) * p.r.client.cpus as f64)
        .sum();
    if cpu_capacity > 0.0 {
        cpu_s / cpu_capacity * 100.0
    } else {
        0.0
    }
}

/// The merged row: the shards' counts and rates summed, the percentiles of `hists`.
fn summed_row(
    rows: &[(&Part, &IntervalRow)],
    t0: f64,
    hists: &Hists,
    kinds: Vec<KindRow>,
) -> IntervalRow {
    let resp = LatencyStats::of(&combined(hists.iter().map(|(_, s, h)| (*s, h)), false));
    let serv = LatencyStats::of(&combined(hists.iter().map(|(_, s, h)| (*s, h)), true));
    let sum = |f: &dyn Fn(&IntervalRow) -> f64| rows.iter().map(|(_, r)| f(r)).sum::<f64>();
    let sumu = |f: &dyn Fn(&IntervalRow) -> u64| rows.iter().map(|(_, r)| f(r)).sum::<u64>();
    let by_class = classes(rows.iter().map(|(_, r)| *r));
    IntervalRow {
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
        client_cpu_pct: client_cpu_pct(rows),
        targets: Vec::new(),
    }
}
