//! Experiments: variants × workloads × thread levels × repetitions, run in randomized
//! interleaved blocks on identical data, and the deviation tables that compare each variant
//! with the baseline. This module is data and arithmetic (experiment.json, the schedule, the
//! tables); running cells against servers is `commands::experiment`.

pub mod builtin;
mod cells;
pub mod coloc;
pub mod confirm;
pub mod host;
pub mod plan;
mod sandboxes;
pub mod sequential;
pub mod summary;
mod tables;

pub use cells::{Outcome, execute};
pub(crate) use cells::{child, log_error};
pub use tables::*;

use crate::results::RunStatus;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Version of experiment.json: 2 adds the estimator and the sequential spending (issue 41;
/// a version 1 file is read with its own, the mean and Bonferroni).
pub const SCHEMA_VERSION: u32 = 2;
/// The file in an experiment directory.
pub const FILE: &str = "experiment.json";

/// What became of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellStatus {
    /// Not run yet.
    Pending,
    /// Started and not finished (an interrupted experiment runs it again).
    Running,
    /// A valid run.
    Done,
    /// The run is INVALID: kept, shown, left out of the deviations.
    Invalid,
}

/// One run of the matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// Its place in the schedule, from 1.
    pub order: usize,
    /// Its repetition (block), from 1.
    pub repetition: u32,
    /// The variant.
    pub variant: String,
    /// The workload label.
    pub workload: String,
    /// Virtual users.
    pub threads: u32,
    /// Its run directory, relative to the experiment's.
    pub dir: String,
    /// What became of it.
    pub status: CellStatus,
    /// Steady-state mean throughput (mean of the measured intervals), per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tps: Option<f64>,
    /// TPC-C: New-Orders per minute over the measured phase (the run's NOPM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nopm: Option<f64>,
    /// 95th percentile response time over the measured phase, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p95_ms: Option<f64>,
    /// Why it is INVALID.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// Seconds spent restoring its data before it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset_s: Option<f64>,
    /// Seconds of the reset spent restoring the snapshot (the rest: starting the server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore_s: Option<f64>,
    /// Seconds from its start to its end, reset included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_s: Option<f64>,
    /// The server's figures per transaction over the measured phase (server metrics).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub per_transaction: BTreeMap<String, f64>,
    /// TPC-C: the same per New-Order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub per_new_order: BTreeMap<String, f64>,
    /// What else the host did while it ran (server metrics).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<host::HostLoad>,
    /// Co-location: the instances it drove (one: alone; every one: together); empty when
    /// the experiment compares variants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<u32>,
    /// Co-location, together: each instance's share of the throughput and its server CPU.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shares: Vec<coloc::Share>,
}

/// A variant × workload's prepared data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prepared {
    /// The variant.
    pub variant: String,
    /// The workload label.
    pub workload: String,
    /// Its sandbox (None for a url variant).
    pub server: Option<String>,
    /// Seconds the prepare took.
    pub prepare_s: f64,
    /// Seconds the snapshot took (None without one).
    pub snapshot_s: Option<f64>,
    /// Bytes in the snapshot.
    pub snapshot_bytes: Option<u64>,
    /// Co-location: every instance's sandbox, the first being `server`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<String>,
}

/// experiment.json: the plan, the schedule and what each cell gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Experiment {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The plan's name (its file's stem, or the built-in's name).
    pub name: String,
    /// Where the plan was read from (None: built in).
    pub plan_file: Option<PathBuf>,
    /// The plan as it was read.
    pub plan_text: String,
    /// The plan expanded for the scale.
    pub plan: plan::Expanded,
    /// Seed of the cell order.
    pub seed: u64,
    /// RFC 3339.
    pub started_at: String,
    /// running, completed, interrupted or aborted.
    pub status: RunStatus,
    /// Every prepared variant × workload.
    pub prepared: Vec<Prepared>,
    /// The schedule, in order.
    pub cells: Vec<Cell>,
    /// Lines for people (a variant's settings as the server reported them…).
    #[serde(default)]
    pub notes: Vec<String>,
    /// A sequential experiment that stopped before its most blocks: why and when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
    /// A warm experiment: the seconds its warm starts took, every execution's (they count
    /// against `max_time` as the prepares do).
    #[serde(default)]
    pub warm_start_s: f64,
}

/// Why a sequential experiment stopped, and where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stopped {
    /// Why.
    pub reason: sequential::Stop,
    /// After how many blocks.
    pub blocks: u32,
    /// Comparisons with neither a verdict nor the precision asked for.
    pub open: usize,
    /// The widest half-interval of those, % (0 when none).
    pub widest_pct: f64,
    /// Of the open ones, those without an interval (too few valid repetitions on a side, a
    /// zero, or a primary cost the cells did not record).
    #[serde(default)]
    pub without: usize,
}

impl Experiment {
    /// The record of `variant` × `workload`'s prepare, once it is done.
    pub fn prepared(&self, variant: &str, workload: &str) -> Option<&Prepared> {
        self.prepared
            .iter()
            .find(|p| p.variant == variant && p.workload == workload)
    }

    /// A new experiment with its schedule.
    pub fn new(
        name: String,
        plan_file: Option<PathBuf>,
        plan_text: String,
        plan: plan::Expanded,
        seed: u64,
        started_at: String,
    ) -> Experiment {
        let cells = schedule(&plan, seed);
        Experiment {
            schema_version: SCHEMA_VERSION,
            name,
            plan_file,
            plan_text,
            plan,
            seed,
            started_at,
            status: RunStatus::Running,
            prepared: Vec::new(),
            cells,
            notes: Vec::new(),
            stopped: None,
            warm_start_s: 0.0,
        }
    }

    /// Writes experiment.json atomically.
    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        crate::results::write_json_atomic(&dir.join(FILE), self).map(|_| ())
    }

    /// Reads experiment.json, refusing a newer schema.
    pub fn load(dir: &Path) -> anyhow::Result<Experiment> {
        let path = dir.join(FILE);
        let bytes = crate::results::read_json(&path)?;
        let v: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| anyhow::anyhow!("{} is not JSON: {e}", path.display()))?;
        let version = v["schema_version"].as_u64().unwrap_or(0);
        if version > u64::from(SCHEMA_VERSION) {
            anyhow::bail!(
                "{}: schema version {version} is newer than this txbench reads ({SCHEMA_VERSION})",
                path.display()
            );
        }
        let e: Experiment = serde_json::from_value(v)
            .map_err(|e| anyhow::anyhow!("{} is not an experiment: {e}", path.display()))?;
        for c in &e.cells {
            crate::results::check_inside(&c.dir, &path)?;
        }
        Ok(e)
    }

    /// Blocks (repetitions) whose every cell finished, counted from the first.
    pub fn complete_blocks(&self) -> u32 {
        let mut n = 0;
        for rep in 1..=self.plan.repetitions {
            let mut cells = self.cells.iter().filter(|c| c.repetition == rep).peekable();
            if cells.peek().is_none()
                || !cells.all(|c| matches!(c.status, CellStatus::Done | CellStatus::Invalid))
            {
                break;
            }
            n = rep;
        }
        n
    }

    /// The confidence of the tables' intervals: 95 %, or what the last look of a
    /// sequential experiment spends (all that is left when it stopped on its time cap).
    pub fn confidence(&self) -> f64 {
        let last = self
            .stopped
            .as_ref()
            .is_some_and(|st| st.reason == sequential::Stop::MaxTime);
        self.plan
            .sequential
            .as_ref()
            .map_or(0.95, |s| s.confidence_at(self.complete_blocks(), last))
    }

    /// Cells that ran and are INVALID (left out of the deviations).
    pub fn invalid_cells(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| c.status == CellStatus::Invalid)
            .count()
    }

    /// Cells left to run.
    pub fn remaining(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c.status, CellStatus::Pending | CellStatus::Running))
            .count()
    }
}

/// What a cell costs beyond its warm-up and measured time: the mean over the cells that ran.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Overhead {
    /// Cells counted.
    pub cells: usize,
    /// Seconds beyond warm-up and duration (reset, server start and stop, the child's own).
    pub beyond_s: f64,
    /// Seconds of it the reset (restore and start).
    pub reset_s: f64,
    /// Seconds of the reset spent restoring snapshots (None: not a snapshot reset).
    pub restore_s: Option<f64>,
}

/// The per-cell overhead of `e` (None before a cell ran).
pub fn overhead(e: &Experiment) -> Option<Overhead> {
    let ran: Vec<&Cell> = e.cells.iter().filter(|c| c.elapsed_s.is_some()).collect();
    if ran.is_empty() {
        return None;
    }
    let n = ran.len() as f64;
    let nominal = e.plan.warmup + e.plan.duration;
    Some(Overhead {
        cells: ran.len(),
        beyond_s: ran
            .iter()
            .filter_map(|c| c.elapsed_s)
            .map(|s| s - nominal)
            .sum::<f64>()
            / n,
        reset_s: ran.iter().filter_map(|c| c.reset_s).sum::<f64>() / n,
        restore_s: ran
            .iter()
            .map(|c| c.restore_s)
            .sum::<Option<f64>>()
            .map(|s| s / n),
    })
}

/// How the tables were computed, a line each (the exporters frame them): the method, and
/// for a sequential experiment its rule and why it stopped.
pub fn method_lines(e: &Experiment) -> Vec<String> {
    let mut out = vec![if e.plan.instances.is_some() {
        coloc::METHOD.to_string()
    } else {
        format!("deviation: {}", method(e.plan.estimator))
    }];
    out.extend(e.plan.warm_text());
    if let Some(s) = &e.plan.sequential {
        out.push(format!(
            "{}; precision asked ±{} % on {}, first look after {} block(s), at most {}{}",
            s.method(),
            s.precision_pct,
            e.plan.primary,
            s.min_repetitions,
            s.max_repetitions,
            s.cap_text()
        ));
        let blocks = e.complete_blocks();
        out.push(match &e.stopped {
            Some(st) => format!(
                "stopped after {} block(s): {}{}; intervals at {:.2} % confidence",
                st.blocks,
                st.reason.text(),
                match (st.open, st.without) {
                    (0, _) => String::new(),
                    (open, 0) => format!(
                        " ({open} comparison(s) without a verdict, the widest {})",
                        sequential::half_width(st.widest_pct)
                    ),
                    (open, without) => format!(
                        " ({open} comparison(s) without a verdict, {without} of them without any interval on {}: too few valid repetitions on a side, a zero, or a figure the cells did not record)",
                        e.plan.primary
                    ),
                },
                e.confidence() * 100.0
            ),
            None => format!(
                "{blocks} block(s) complete; intervals at {:.2} % confidence",
                e.confidence() * 100.0
            ),
        });
    } else if e.plan.primary != PRIMARY_THROUGHPUT {
        out.push(format!("primary outcome: {}", e.plan.primary));
    }
    out
}

/// The schedule: every repetition a block holding each variant × workload × level once (with
/// co-location: each instance alone and all together), in an order drawn from `seed` (so
/// neither drift nor order favours a variant, or alone against together).
pub fn schedule(plan: &plan::Expanded, seed: u64) -> Vec<Cell> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for rep in 1..=plan.repetitions {
        let mut block = Vec::new();
        for v in &plan.variants {
            for w in &plan.workloads {
                for &t in &plan.threads {
                    for driven in coloc::driven(plan.instances) {
                        block.push((v.clone(), w.clone(), t, driven));
                    }
                }
            }
        }
        block.shuffle(&mut rng);
        for (v, w, t, driven) in block {
            let order = out.len() + 1;
            out.push(Cell {
                order,
                repetition: rep,
                dir: format!(
                    "cells/{order:04}-{v}-{w}-t{t}-r{rep}{}",
                    coloc::dir_suffix(&driven)
                ),
                variant: v,
                workload: w,
                threads: t,
                status: CellStatus::Pending,
                tps: None,
                nopm: None,
                p95_ms: None,
                reasons: Vec::new(),
                reset_s: None,
                restore_s: None,
                elapsed_s: None,
                per_transaction: BTreeMap::new(),
                per_new_order: BTreeMap::new(),
                host: None,
                instances: driven,
                shares: Vec::new(),
            });
        }
    }
    out
}

/// One variant against the baseline at one level: the server's figures per transaction (mean
/// of the valid repetitions), ranked by relative change: the likely cause of a verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WhyTable {
    /// The workload label.
    pub workload: String,
    /// Virtual users.
    pub threads: u32,
    /// The variant compared with the baseline.
    pub variant: String,
    /// The figures, most changed first.
    pub rows: Vec<crate::metrics::server::WhyRow>,
}

/// The "why" tables of every workload, level and non-baseline variant that have server
/// figures on both sides.
pub fn why_tables(e: &Experiment) -> Vec<WhyTable> {
    use crate::metrics::server::ServerSummary;
    let p = &e.plan;
    let mean_of = |v: &str, w: &str, t: u32| -> Option<ServerSummary> {
        let cells: Vec<&Cell> = e
            .cells
            .iter()
            .filter(|c| {
                c.variant == v
                    && c.workload == w
                    && c.threads == t
                    && c.status == CellStatus::Done
                    && !c.per_transaction.is_empty()
            })
            .collect();
        if cells.is_empty() {
            return None;
        }
        let avg = |get: &dyn Fn(&Cell) -> &BTreeMap<String, f64>| {
            let mut sum: BTreeMap<String, (f64, usize)> = BTreeMap::new();
            for c in &cells {
                for (k, v) in get(c) {
                    let e = sum.entry(k.clone()).or_default();
                    e.0 += v;
                    e.1 += 1;
                }
            }
            sum.into_iter()
                .map(|(k, (s, n))| (k, s / n as f64))
                .collect()
        };
        Some(ServerSummary {
            per_transaction: avg(&|c| &c.per_transaction),
            per_new_order: avg(&|c| &c.per_new_order),
            ..ServerSummary::default()
        })
    };
    let mut out = Vec::new();
    for w in &p.workloads {
        for &t in &p.threads {
            let Some(base) = mean_of(&p.baseline, w, t) else {
                continue;
            };
            for v in p.variants.iter().filter(|v| **v != p.baseline) {
                if let Some(new) = mean_of(v, w, t) {
                    out.push(WhyTable {
                        workload: w.clone(),
                        threads: t,
                        variant: v.clone(),
                        rows: crate::metrics::server::why(&base, &new),
                    });
                }
            }
        }
    }
    out
}

/// A variant's server profile against the baseline's at one level, each combining its
/// valid repetitions' samples (`profile = true`).
#[derive(Debug, Clone, Serialize)]
pub struct ProfileWhy {
    /// The workload label.
    pub workload: String,
    /// Virtual users.
    pub threads: u32,
    /// The variant.
    pub variant: String,
    /// The subsystems and the functions whose share changed most.
    pub diff: crate::analysis::profile::ProfileDiff,
}

/// The profile differences of every workload, level and variant whose cells (in `dir`) have
/// server profiles on both sides.
pub fn profile_whys(e: &Experiment, dir: &Path) -> Vec<ProfileWhy> {
    profile_whys_of(e, &|c| Some(dir.join(&c.dir).join("run")))
}

/// [`profile_whys`] with each cell's run directory found by `run_of` (a report knows where
/// it read them).
pub fn profile_whys_of(
    e: &Experiment,
    run_of: &dyn Fn(&Cell) -> Option<PathBuf>,
) -> Vec<ProfileWhy> {
    use crate::analysis::profile::{self, Shares};
    let p = &e.plan;
    let combined = |v: &str, w: &str, t: u32| -> Option<(Shares, Option<f64>)> {
        let mut all: Option<(Shares, Vec<f64>)> = None;
        for c in e.cells.iter().filter(|c| {
            c.variant == v && c.workload == w && c.threads == t && c.status == CellStatus::Done
        }) {
            let run = run_of(c)?;
            let r = crate::results::RunResult::load(&run).ok()?;
            let (s, ms) = profile::server_shares(&run, &r)?;
            let entry = all.get_or_insert_with(|| (Shares::default(), Vec::new()));
            entry.0.add(&s);
            entry.1.extend(ms);
        }
        let (s, ms) = all?;
        let ms = (!ms.is_empty()).then(|| crate::analysis::stats::mean(&ms));
        Some((s, ms))
    };
    let mut out = Vec::new();
    for w in &p.workloads {
        for &t in &p.threads {
            let Some((base, base_ms)) = combined(&p.baseline, w, t) else {
                continue;
            };
            for v in p.variants.iter().filter(|v| **v != p.baseline) {
                if let Some((new, new_ms)) = combined(v, w, t) {
                    out.push(ProfileWhy {
                        workload: w.clone(),
                        threads: t,
                        variant: v.clone(),
                        diff: profile::ProfileDiff::of(&base, &new, base_ms, new_ms, WHY_ROWS),
                    });
                }
            }
        }
    }
    out
}

/// How many figures a "why" table shows in text.
pub const WHY_ROWS: usize = 6;

/// The "why" tables as text, the most changed figures of each, then the profiles'.
pub fn why_text(e: &Experiment, why: &[WhyTable], profiles: &[ProfileWhy]) -> String {
    let mut out = String::new();
    for p in profiles {
        let _ = writeln!(
            out,
            "why — {}, {} threads, {} vs {}: the subsystems that moved, and the server functions whose share of its CPU changed most (self; repetitions combined), with their server CPU ms per transaction:",
            p.workload, p.threads, p.variant, e.plan.baseline
        );
        for l in p.diff.text_lines() {
            let _ = writeln!(out, "{l}");
        }
    }
    for t in why {
        let _ = writeln!(
            out,
            "why — {}, {} threads, {} vs {} (server figures, mean of the valid repetitions):",
            t.workload, t.threads, t.variant, e.plan.baseline
        );
        for r in t.rows.iter().take(WHY_ROWS) {
            let _ = writeln!(
                out,
                "  {:<40} {:>12.4} {:>12.4}  {}",
                r.figure,
                r.base,
                r.new,
                r.change_pct
                    .map_or("new".to_string(), |c| format!("{c:+.1} %"))
            );
        }
    }
    out
}

#[cfg(test)]
mod tests;
