//! One benchmark's figure across stored runs, in order (of time, or of a label's values as
//! they first appeared), with its change points and whether the current level is a
//! regression.

use super::changepoint::{self, Change};
use crate::store::Entry;
use anyhow::{Result, bail};
use serde::Serialize;

/// One point of the series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// The run directory.
    pub dir: String,
    /// When it started.
    pub started_at: String,
    /// The ordering label's value (with `--by`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The figure.
    pub value: f64,
}

/// A change point, with where it is in the user's terms.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The change.
    #[serde(flatten)]
    pub change: Change,
    /// The first point after it: its label value (with `--by`), else its start time.
    pub first_after: String,
    /// Whether it made the figure worse.
    pub regression: bool,
}

/// The history of one benchmark's figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct History {
    /// The benchmark's identity.
    pub identity: String,
    /// Its workload and threads.
    pub workload: String,
    /// See `workload`.
    pub threads: u32,
    /// The benchmark in words (workload, size, threads, engine, options not at their
    /// default: [`crate::store::benchmark_name`]).
    pub name: String,
    /// Its options as recorded (JSON).
    pub options: String,
    /// The figure followed.
    pub figure: String,
    /// True when a larger value is better (throughput), false for times and costs.
    pub higher_is_better: bool,
    /// The valid runs that have the figure, in order.
    pub points: Vec<Point>,
    /// INVALID or unfinished runs (or runs without the figure or the label) left out, by
    /// directory.
    pub left_out: Vec<String>,
    /// The change points, in order.
    pub steps: Vec<Step>,
}

impl History {
    /// ", N left out (…)" when runs were left out, else nothing: for the first line of a
    /// history's text and page.
    pub fn left_out_text(&self) -> String {
        if self.left_out.is_empty() {
            String::new()
        } else {
            format!(
                ", {} left out (INVALID, unfinished, or without the figure or the label)",
                self.left_out.len()
            )
        }
    }

    /// The last change when it is a regression worse than `threshold_pct` and sure of its
    /// sign (its 95 % interval, when it has one, excludes no change): the current level
    /// (every point since it) is that much worse than the level before. Six runs of a
    /// shared machine drifting can split at 5 % into a step of -10.6 % [-20.8, +0.9]: not a
    /// regression to fail a CI job on.
    pub fn current_regression(&self, threshold_pct: f64) -> Option<&Step> {
        self.steps.last().filter(|s| {
            let sure = s
                .change
                .interval_pct
                .is_none_or(|(lo, hi)| lo > 0.0 || hi < 0.0);
            s.regression && s.change.step_pct.abs() > threshold_pct && sure
        })
    }
}

/// Whether a stored run belongs in a benchmark's series: not a shard (its merge is the run)
/// unless `shards`, and not an experiment's cell (it measures a variant, not the series of
/// builds: a confirming experiment's cells would join the series they confirm) unless
/// `experiments`.
pub fn in_series(e: &Entry, shards: bool, experiments: bool) -> bool {
    (shards || e.kind != "shard") && (experiments || !e.labels.contains_key("experiment"))
}

/// Whether more of `figure` is better.
pub fn higher_is_better(figure: &str) -> bool {
    matches!(figure, "tps" | "nopm" | "tpm")
}

/// The default figure of a workload: TPC-C's NOPM, else transactions per second.
pub fn default_figure(workload: &str) -> &'static str {
    if workload == "tpcc" { "nopm" } else { "tps" }
}

/// The history of `figure` over `entries` (one benchmark), ordered by time or by the label
/// `by` (each value placed at its first run; runs without it are left out).
pub fn history(entries: &[Entry], figure: &str, by: Option<&str>) -> Result<History> {
    let Some(first) = entries.first() else {
        bail!("no stored run matches: see `txbench runs` with the same filters");
    };
    let mut ids: Vec<&str> = entries.iter().map(|e| e.identity.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() > 1 {
        let mut kinds: Vec<String> = entries
            .iter()
            .map(|e| format!("{} ({})", e.name(), e.identity))
            .collect();
        kinds.sort();
        kinds.dedup();
        bail!(
            "the runs selected are {} benchmarks ({}): narrow them with --workload, --threads, --where identity=ID or --like DIR",
            ids.len(),
            kinds.join(", ")
        );
    }
    let mut left_out = Vec::new();
    let mut kept: Vec<(&Entry, f64)> = Vec::new();
    for e in entries {
        // A run that did not run its course (interrupted, aborted) is not a point of the
        // benchmark, VALID or not: its figures cover part of the run.
        match e.figures.get(figure) {
            Some(v) if e.valid && e.status == "completed" => kept.push((e, *v)),
            _ => left_out.push(e.dir.clone()),
        }
    }
    if let Some(label) = by {
        // Each value where it first appears in time (entries come oldest first).
        let mut order: Vec<&str> = Vec::new();
        kept.retain(|(e, _)| {
            let Some(v) = e.labels.get(label) else {
                left_out.push(e.dir.clone());
                return false;
            };
            if !order.contains(&v.as_str()) {
                order.push(v);
            }
            true
        });
        kept.sort_by_key(|(e, _)| {
            order
                .iter()
                .position(|v| Some(*v) == e.labels.get(label).map(String::as_str))
        });
    }
    let points: Vec<Point> = kept
        .iter()
        .map(|(e, v)| Point {
            dir: e.dir.clone(),
            started_at: e.started_at.clone(),
            label: by.and_then(|l| e.labels.get(l).cloned()),
            value: *v,
        })
        .collect();
    let values: Vec<f64> = points.iter().map(|p| p.value).collect();
    let higher = higher_is_better(figure);
    let steps = changepoint::changes(&values, &changepoint::Options::default())
        .into_iter()
        .map(|c| {
            let p = &points[c.index];
            Step {
                first_after: p.label.clone().unwrap_or_else(|| p.started_at.clone()),
                regression: if higher {
                    c.step_pct < 0.0
                } else {
                    c.step_pct > 0.0
                },
                change: c,
            }
        })
        .collect();
    Ok(History {
        identity: first.identity.clone(),
        workload: first.workload.clone(),
        threads: first.threads,
        name: first.name(),
        options: first.options.clone(),
        figure: figure.to_string(),
        higher_is_better: higher,
        points,
        left_out,
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn entry(i: usize, v: f64, status: &str, commit: &str) -> Entry {
        Entry {
            dir: format!("/r/{i}"),
            kind: "run".into(),
            started_at: format!("2026-11-01T10:{i:02}:00Z"),
            workload: "oltp_read_write".into(),
            options: "{}".into(),
            threads: 4,
            engine: "mysql".into(),
            server_version: String::new(),
            binary_sha256: String::new(),
            host: "h".into(),
            host_cpus: 2,
            txbench_version: "0".into(),
            identity: "id".into(),
            valid: true,
            status: status.into(),
            labels: BTreeMap::from([("commit".to_string(), commit.to_string())]),
            figures: BTreeMap::from([("tps".to_string(), v), ("p99_ms".to_string(), v / 100.0)]),
        }
    }

    #[test]
    fn unfinished_runs_are_left_out_and_a_label_orders_the_series() {
        let mut e: Vec<Entry> = (0..12)
            .map(|i| {
                let v = if i < 6 { 1000.0 } else { 800.0 } + (i % 3) as f64;
                entry(i, v, "completed", &format!("c{}", i / 2))
            })
            .collect();
        // An interrupted run: VALID, but not a point.
        e.push(entry(12, 5.0, "interrupted", "c6"));
        let h = history(&e, "tps", Some("commit")).unwrap();
        assert_eq!(h.points.len(), 12);
        assert_eq!(h.left_out, ["/r/12"]);
        assert_eq!(h.steps.len(), 1, "{:?}", h.steps);
        assert_eq!(h.steps[0].change.index, 6);
        assert_eq!(h.steps[0].first_after, "c3");
        assert!(h.steps[0].regression);
        assert!(h.current_regression(10.0).is_some());
        assert!(h.current_regression(25.0).is_none());
        // A step whose interval holds no change is not sure of its sign: no regression.
        let mut unsure = h.clone();
        unsure.steps[0].change.interval_pct = Some((-20.8, 0.9));
        assert!(unsure.current_regression(10.0).is_none());
        // Times: less is better, so the same drop in p99 is an improvement.
        let h = history(&e, "p99_ms", None).unwrap();
        assert!(!h.steps[0].regression);
        // Two benchmarks at once are refused, naming both.
        e[0].identity = "other".into();
        let err = history(&e, "tps", None).unwrap_err().to_string();
        assert!(err.contains("are 2 benchmarks"), "{err}");
    }
}
