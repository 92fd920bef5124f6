//! The shards of one run into one run: each shard's stored result and histograms loaded
//! and checked to be parts of the same run, intervals aligned by the server's clock,
//! summed, and the verdict (every shard's reasons, the merge's own).

use super::*;

/// A shard as merge reads it.
pub(super) struct Part {
    pub(super) dir: PathBuf,
    pub(super) r: RunResult,
    /// Its shard record (`r.shard`, which every part has).
    pub(super) shard: ShardRecord,
    /// Its histograms, still encoded, by interval start (ms).
    pub(super) hists: BTreeMap<i64, Vec<HlogRecord>>,
    /// Its start in the server's clock, seconds since the epoch.
    pub(super) abs_start: f64,
}

/// How far the shards' starts and ends in the server's clock may be off, s: each shard's
/// clock offset is known within half the round trip of the query that read the server's
/// clock, so the spread of the starts, and that of the ends, within half the sum (a loaded
/// machine's shards read the clock with round trips of tens of ms, and a 3-s merged TPC-C
/// run counted 16 New-Orders more than the server, 14 allowed without this). A round trip
/// counts for a second at most: a shard's file cannot excuse any count.
pub(super) fn clock_uncertainty(rtts: impl Iterator<Item = f64>) -> f64 {
    rtts.map(|r| r.clamp(0.0, 1.0)).sum()
}

pub(super) fn ms_key(s: f64) -> i64 {
    (s * 1000.0).round() as i64
}

/// The configuration shards of one run share: everything but the shard and the seed (the
/// target URLs too: shards of one run measure one database).
fn comparable(r: &RunResult) -> serde_json::Value {
    let mut c = serde_json::to_value(&r.config).unwrap_or_default();
    if let Some(o) = c.as_object_mut() {
        // The command lines differ by --shard and by how options are spelled; the options
        // themselves are compared.
        for k in ["shard", "seed", "args"] {
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

/// Every shard loaded and checked to be one of the shards of one run, in shard order.
fn load_parts(dirs: &[PathBuf]) -> Result<Vec<Part>> {
    let mut parts: Vec<Part> = Vec::new();
    for d in dirs {
        parts.push(load_part(d)?);
    }
    check_shard_set(&mut parts)?;
    check_same_run(&parts)?;
    Ok(parts)
}

/// One shard's stored result and histograms; refused when it is not a shard or has no
/// latency.hlog.
fn load_part(d: &Path) -> Result<Part> {
    let r = RunResult::load(d)?;
    let Some(shard) = r.shard.clone() else {
        bail!(
            "merge: {} is not a shard (its run had no --shard): nothing to merge it with",
            d.display()
        );
    };
    // Counts no run writes: the merge's committed count would wrap around.
    for (i, row) in r.intervals.iter().enumerate() {
        if let Some(k) = row.kinds.iter().find(|k| k.rolled_back > k.completed) {
            bail!(
                "merge: {}: interval {} counts more {} transactions rolled back ({}) than completed ({}): not a run txbench wrote",
                d.display(),
                i + 1,
                k.name,
                k.rolled_back,
                k.completed
            );
        }
    }
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
    Ok(Part {
        dir: d.to_path_buf(),
        r,
        shard,
        hists,
        abs_start,
    })
}

/// The shards sorted by index; refused unless they are each shard of one count once.
fn check_shard_set(parts: &mut [Part]) -> Result<()> {
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
    Ok(())
}

/// Refuses shards that ran another workload, other options or other transaction kinds than
/// shard 1.
fn check_same_run(parts: &[Part]) -> Result<()> {
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
    Ok(())
}

/// What the steps of one run's merge share: the shards, how their starts line up, the span
/// every shard ran, and the notes said so far.
struct Merge {
    parts: Vec<Part>,
    /// The earliest shard's start in the server's clock, seconds since the epoch.
    t0: f64,
    /// How far the shards' starts lie apart, s.
    spread: f64,
    /// The intervals the merge covers.
    len: usize,
    status: RunStatus,
    notes: Vec<String>,
}

/// The merged rows of the measured phase, and every measured histogram merged per (kind,
/// service) as it goes.
struct Measured {
    rows: Vec<IntervalRow>,
    acc: Acc,
}

/// Merges the shards of one run, writing `out`.
pub fn merge_runs(dirs: &[PathBuf], out: &Path, score: Scorer) -> Result<RunResult> {
    let parts = load_parts(dirs)?;
    let mut m = Merge::lined_up(parts)?;
    m.cut_at_stopped_shards();
    let mut result = m.merged_run();
    m.gather_notes(&mut result);
    result.merged = Some(m.merge_record());

    crate::owned::make_dir(out, "--out")?;
    let start = UNIX_EPOCH + Duration::from_secs_f64(m.t0.max(0.0));
    let mut dir = RunDir::create(out, start)?;
    let measured = m.write_intervals(&mut dir, &mut result)?;
    m.shard_events(&mut result);
    if !measured.rows.is_empty() {
        m.summarize(&mut result, &measured, out, score)?;
    }
    m.verdict(&mut result);
    m.conclude(&mut result);
    dir.write_result(&result)?;
    Ok(result)
}

impl Merge {
    /// The shards with their starts, refused when they lie more than half an interval apart.
    fn lined_up(parts: Vec<Part>) -> Result<Merge> {
        let interval = parts[0].r.config.report_interval_s;
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
        Ok(Merge {
            len: 0,
            status: RunStatus::Completed,
            notes: Vec::new(),
            parts,
            t0,
            spread,
        })
    }

    /// The span the merge covers and its status, from the shards that did not complete.
    fn cut_at_stopped_shards(&mut self) {
        let parts = &self.parts;
        // A shard that ran its course may end early (its part of --events done); one that was
        // interrupted, aborted or died ends the merge where it ended.
        self.len = parts.iter().map(|p| p.r.intervals.len()).max().unwrap_or(0);
        for p in parts {
            let s = p.shard.index;
            let st = if p.r.status == RunStatus::Running {
                RunStatus::Interrupted
            } else {
                p.r.status
            };
            if st != RunStatus::Completed {
                let end = p.r.intervals.last().map_or(0.0, |i| i.end_s);
                self.notes.push(format!(
                    "shard {s} {} at {end:.1} s: the merge covers the {} interval(s) every shard ran",
                    match p.r.status {
                        RunStatus::Running => "stopped without finishing (its process died)",
                        RunStatus::Aborted => "was aborted",
                        _ => "was interrupted",
                    },
                    p.r.intervals.len()
                ));
                self.len = self.len.min(p.r.intervals.len());
                if st == RunStatus::Aborted || self.status == RunStatus::Completed {
                    self.status = st;
                }
            }
        }
    }

    /// The merged run before its intervals: shard 1's configuration and notes, the shards'
    /// times, hosts and CPUs, still running and valid.
    fn merged_run(&self) -> RunResult {
        let parts = &self.parts;
        let first = &parts[0].r;
        RunResult {
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
            profiles: Vec::new(),
            stability: None,
            findings: Vec::new(),
            shard: None,
            merged: None,
            database_growth: Vec::new(),
            periods: None,
            validity: Validity {
                valid: true,
                reasons: Vec::new(),
            },
            ..first.clone()
        }
    }

    /// The shards' notes not in shard 1's already (each once, none about a shard), and what
    /// the merge leaves out.
    fn gather_notes(&mut self, result: &mut RunResult) {
        let first = &self.parts[0].r;
        for p in &self.parts {
            for n in &p.r.notes {
                if n.starts_with("shard ") {
                    continue;
                }
                if !result.notes.contains(n) && !self.notes.contains(n) {
                    self.notes.push(n.clone());
                }
            }
        }
        result.notes.retain(|n| !n.starts_with("shard "));
        if !first.config.targets.is_empty() {
            self.notes.push("per-target figures are not merged (latency.hlog has no per-target histograms): each shard's result.json has its own".into());
        }
        if self
            .parts
            .iter()
            .any(|p| p.r.config.seed != first.config.seed)
        {
            self.notes.push(
                "the shards drew their inputs from different seeds (no --seed or --start-at): together they are a run like one process's, not the same inputs"
                    .into(),
            );
        }
    }

    /// The record of which shards were merged and how they started.
    fn merge_record(&self) -> MergeRecord {
        MergeRecord {
            shards: self
                .parts
                .iter()
                .map(|p| MergedShard {
                    index: p.shard.index,
                    dir: p.dir.display().to_string(),
                    host: p.r.client.host.clone(),
                    threads: p.shard.users.len() as u32,
                    status: p.r.status,
                    valid: p.r.validity.valid,
                    start_s: p.abs_start - self.t0,
                    clock_offset_s: p.shard.clock_offset_s,
                })
                .collect(),
            start_spread_s: self.spread,
        }
    }

    /// Each interval of the span merged and written to `dir`, and kept in `result`; the
    /// measured ones and their histograms returned.
    fn write_intervals(&self, dir: &mut RunDir, result: &mut RunResult) -> Result<Measured> {
        let names = &self.parts[0].r.kinds;
        let interval = self.parts[0].r.config.report_interval_s;
        // The measured rows, and every measured histogram merged per (kind, service) as it goes.
        let mut measured = Measured {
            rows: Vec::new(),
            acc: BTreeMap::new(),
        };
        for i in 0..self.len {
            let rows: Vec<(&Part, &IntervalRow)> = self
                .parts
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
            let (row, hists) = merge_interval(&rows, names, self.t0, interval)?;
            dir.append(&row, &hists)?;
            if phase == Phase::Measure {
                for (k, s, h) in &hists {
                    measured
                        .acc
                        .entry((k.clone(), *s))
                        .or_insert_with(new_hist)
                        .add(h)
                        .map_err(|err| anyhow::anyhow!("merging histograms: {err:?}"))?;
                }
                measured.rows.push(row.clone());
            }
            result.intervals.push(row);
        }
        Ok(measured)
    }

    /// Every shard's events on the merged clock, named by shard, in time order.
    fn shard_events(&self, result: &mut RunResult) {
        for p in &self.parts {
            let k = p.shard.index;
            for e in &p.r.events {
                result.events.push(crate::results::Event {
                    t_s: e.t_s + p.abs_start - self.t0,
                    what: format!("shard {k}: {}", e.what),
                });
            }
        }
        result.events.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
    }

    /// The summary of the measured phase, its server figures, the workload's scorecard and
    /// the stability, into `result`.
    fn summarize(
        &mut self,
        result: &mut RunResult,
        measured: &Measured,
        out: &Path,
        score: Scorer,
    ) -> Result<()> {
        let parts = &self.parts;
        let names = &parts[0].r.kinds;
        let truncated = self.len < parts.iter().map(|p| p.r.intervals.len()).max().unwrap_or(0);
        let mut summary = merge_summary(
            parts,
            &measured.rows,
            &measured.acc,
            names,
            self.len,
            truncated,
        );
        let slack = self.spread
            + self.end_spread().max(0.0)
            + clock_uncertainty(self.parts.iter().map(|p| p.shard.clock_rtt_s));
        server_figures(
            result,
            &mut summary,
            parts,
            out,
            truncated,
            slack,
            &mut self.notes,
        )?;
        if truncated {
            if parts[0].r.workload_report.is_some() {
                self.notes.push("no workload scorecard: the shards' input counts cover their whole runs, longer than the merge".into());
            }
        } else {
            let (report, more) = score(&summary, &parts.iter().map(|p| &p.r).collect::<Vec<_>>());
            self.notes.extend(more);
            result.workload_report = report;
        }
        result.summary = Some(summary);
        result.stability = crate::results::Stability::of(
            &result.intervals,
            result.config.warmup_s,
            result.config.stability_window_s,
        );
        Ok(())
    }

    /// How far the shards' ends lie apart in the server's clock, s.
    fn end_spread(&self) -> f64 {
        // The server's counts cover the sampling shard's measured phase; the merged count
        // every shard's, whose phases differ from it at the end as well as at the start (a
        // loaded machine ends one shard's last interval later than another's).
        let ends = self
            .parts
            .iter()
            .map(|p| p.abs_start + p.r.intervals.last().map_or(0.0, |i| i.end_s));
        ends.clone().fold(f64::NEG_INFINITY, f64::max) - ends.fold(f64::INFINITY, f64::min)
    }

    /// The verdict: every shard's reasons, by shard, and the merge's own.
    fn verdict(&self, result: &mut RunResult) {
        for p in &self.parts {
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
            let reasons = crate::analysis::verdict::reasons(s);
            crate::analysis::verdict::invalidate(result, reasons);
        }
        let nothing = result
            .summary
            .as_ref()
            .and_then(crate::analysis::verdict::nothing_measured);
        crate::analysis::verdict::invalidate(result, nothing);
        if result.summary.is_none() && self.status == RunStatus::Completed {
            result.validity.valid = false;
            result
                .validity
                .reasons
                .push("no measured interval: the shards ended during warm-up".into());
        }
    }

    /// The notes gathered, the one saying how the run was merged, and the merged status.
    fn conclude(self, result: &mut RunResult) {
        result.notes.extend(self.notes);
        result.notes.push(format!(
            "merged from {} shards by txbench merge: counts summed, percentiles from their histograms merged, intervals aligned by the server's clock (starts {:.1} ms apart)",
            self.parts.len(),
            self.spread * 1000.0
        ));
        result.status = self.status;
    }
}

#[cfg(test)]
mod tests {
    use super::clock_uncertainty;

    #[test]
    fn the_clock_uncertainty_sums_the_round_trips_each_capped_at_a_second() {
        let u = clock_uncertainty([0.01, 0.02].into_iter());
        assert!((u - 0.03).abs() < 1e-12, "{u}");
        assert_eq!(clock_uncertainty([5.0, -1.0].into_iter()), 1.0);
    }
}
