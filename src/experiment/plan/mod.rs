//! Experiment plans: the TOML a user writes (or copies from a built-in one), checked and
//! expanded for one scale into the matrix of variants × workloads × thread levels ×
//! repetitions. Pure data: nothing here talks to a server.

use super::PRIMARY_THROUGHPUT;

/// The workload whose cells measure a replica's catch-up (`txbench replay`) on TPC-C data:
/// the outcome is the New-Orders per minute the replica applied.
pub const REPLAY: &str = "replay";
/// A `replay` workload's `run` option that makes each cell a search for the replica's
/// balanced replay speed (`txbench replay --balanced`) rather than its catch-up.
pub const BALANCED: &str = "--balanced";
use super::sequential::Sequential;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod expand;

/// How every cell starts from the same data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reset {
    /// Prepare once per variant and workload, keep a copy of the stopped server's data
    /// directory, restore it before every cell (sandboxes only; their default).
    Snapshot,
    /// Clean up and prepare again before every cell.
    Reload,
    /// Run on whatever the previous cell left (the default for `url` variants).
    None,
    /// Every variant × workload's servers started once on the prepared data, driven once
    /// for `warm_start` seconds, then kept running and warm: the cells drive each in turn,
    /// on what the previous cells left (randomized multiple interleaved trials, Abedi &
    /// Brecht, ICPE 2017: no restore or restart noise between cells, so shorter cells in
    /// more blocks).
    Warm,
}

/// The sizes of one scale (`[scale.quick]`, `[scale.full]`), over the plan's own values.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    /// How every cell starts at this scale (over the plan's `reset`).
    pub reset: Option<Reset>,
    /// Thread levels, as `run --threads` takes them ("4", "1,2,4", "1..64x2").
    pub threads: Option<String>,
    /// Warm-up seconds of every cell.
    pub warmup: Option<f64>,
    /// Measured seconds of every cell.
    pub duration: Option<f64>,
    /// How many times every cell runs (with `precision`: the blocks before the first look).
    pub repetitions: Option<u32>,
    /// Sequential: add blocks until every comparison's interval on the primary outcome is
    /// within ± this many percent or has a verdict.
    pub precision: Option<f64>,
    /// Sequential: blocks at most (default 3 × repetitions).
    pub max_repetitions: Option<u32>,
    /// Sequential: time at most, prepares included ("15m", "1h").
    pub max_time: Option<String>,
    /// With `reset = "warm"`: seconds each server is driven once before the first cell
    /// (default 30).
    pub warm_start: Option<f64>,
    /// Values for `{name}` in the workloads' and variants' options (e.g. warehouses).
    #[serde(default)]
    pub vars: BTreeMap<String, String>,
}

/// One server configuration to compare.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// Its name (a column of the tables; letters, digits, '-' and '_').
    pub name: String,
    /// Server settings (`--set key=value`): checked against what the server reports.
    #[serde(default)]
    pub set: BTreeMap<String, toml::Value>,
    /// A my.cnf fragment (`--config`), relative to the plan file.
    pub config: Option<PathBuf>,
    /// Another server build (`--binary`).
    pub binary: Option<PathBuf>,
    /// Pin the server to these CPUs (`--cpus`).
    pub cpus: Option<String>,
    /// Bind the server to this NUMA node (`--numa-node`; said and ignored on a one-node host).
    pub numa_node: Option<u32>,
    /// A primary with this many replicas (`--replicas`).
    pub replicas: Option<u32>,
    /// Semi-synchronous replicas (`--semisync`).
    #[serde(default)]
    pub semisync: bool,
    /// A Galera cluster of this many nodes (`--galera`).
    pub galera: Option<u32>,
    /// Galera: how many of the cluster's nodes the clients drive, the first ones (default
    /// every node; 1 writes to one node alone, as single-primary group replication does).
    pub writers: Option<u32>,
    /// An existing server instead of a sandbox (then `reset` is `reload` or `none`).
    pub url: Option<String>,
    /// Co-location: this many sandboxes of this variant on the host, each with its own data;
    /// every block runs each one driven alone (the others running idle) and all of them
    /// driven together, `threads` virtual users per driven instance (the plan's only
    /// variant; 2 or more).
    pub instances: Option<u32>,
    /// Co-location: each instance's CPUs (`--cpus`), one entry per instance, in place of
    /// `cpus` ("0", "1": instance 1 on CPU 0, instance 2 on CPU 1).
    #[serde(default)]
    pub instance_cpus: Vec<String>,
    /// Extra `prepare` options of this variant, for every workload (`--null-dates null`).
    #[serde(default)]
    pub prepare: Vec<String>,
    /// Extra `run` options of this variant, for every workload (`--isolation read-committed`).
    #[serde(default)]
    pub run: Vec<String>,
}

/// One workload of the matrix.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// `run`'s workload name (tpcc, tpcb, oltp_read_write…, lua).
    pub name: String,
    /// A label when one workload appears twice with other options (default: the script's
    /// file name without `.lua` for `lua`, else `name`).
    pub label: Option<String>,
    /// `lua`'s sysbench script (relative to the plan file), given to `prepare` and `run`
    /// before the options; its own options go in `prepare` and `run`.
    pub script: Option<String>,
    /// `prepare` options.
    #[serde(default)]
    pub prepare: Vec<String>,
    /// `run` options (besides --threads, --time and --warmup, which the plan sets).
    #[serde(default)]
    pub run: Vec<String>,
}

impl Workload {
    /// Its column label.
    pub fn label(&self) -> &str {
        let stem = || {
            let script = Path::new(self.script.as_deref()?);
            script.file_stem()?.to_str()
        };
        self.label.as_deref().or_else(stem).unwrap_or(&self.name)
    }

    /// The workload `prepare` and `cleanup` name: its own, but TPC-C for a replay, whose
    /// cells run `txbench replay` on TPC-C data.
    pub fn data_name(&self) -> &str {
        if self.name == REPLAY {
            "tpcc"
        } else {
            &self.name
        }
    }
}

/// A plan as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// What the plan compares, in one line.
    pub description: Option<String>,
    /// The variant the others are compared with.
    pub baseline: String,
    /// snapshot (default for sandboxes), reload, none or warm.
    pub reset: Option<Reset>,
    /// Seed of the cell order (default: from the clock, recorded).
    pub seed: Option<u64>,
    /// Thread levels when no scale says otherwise.
    pub threads: Option<String>,
    /// Warm-up seconds when no scale says otherwise (default 5).
    pub warmup: Option<f64>,
    /// Measured seconds when no scale says otherwise (default 30).
    pub duration: Option<f64>,
    /// Repetitions when no scale says otherwise (default 3).
    pub repetitions: Option<u32>,
    /// `precision` when no scale says otherwise (default: a fixed number of repetitions).
    pub precision: Option<f64>,
    /// Profile the server's CPU in every cell (`run --profile`); the "why" then adds the
    /// functions whose share changed, per variant against the baseline.
    #[serde(default)]
    pub profile: bool,
    /// `max_repetitions` when no scale says otherwise.
    pub max_repetitions: Option<u32>,
    /// `max_time` when no scale says otherwise.
    pub max_time: Option<String>,
    /// `warm_start` when no scale says otherwise.
    pub warm_start: Option<f64>,
    /// The outcome that decides a sequential experiment and heads its verdict: "throughput"
    /// (the default: NOPM for TPC-C, else transactions per second) or a cost per
    /// transaction (server_cpu_ms, redo_bytes, fsyncs, page_splits, page_reorgs,
    /// rows_scanned, disk_write_kb).
    pub primary: Option<String>,
    /// `{name}` values when no scale says otherwise.
    #[serde(default)]
    pub vars: BTreeMap<String, String>,
    /// Named scales (`--scale quick`).
    #[serde(default)]
    pub scale: BTreeMap<String, Scale>,
    /// The server configurations.
    #[serde(default, rename = "variant")]
    pub variants: Vec<Variant>,
    /// The workloads.
    #[serde(default, rename = "workload")]
    pub workloads: Vec<Workload>,
}

/// A variant and a workload with every option resolved for one scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    /// The variant's name.
    pub variant: String,
    /// The workload's label.
    pub workload: String,
    /// `txbench prepare` arguments after `prepare`.
    pub prepare: Vec<String>,
    /// `txbench run` arguments after `run`, without --threads, --time, --warmup and --out.
    pub run: Vec<String>,
}

/// A plan expanded for one scale: what an experiment runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expanded {
    /// The scale's name ("" when the plan has none).
    pub scale: String,
    /// Thread levels.
    pub threads: Vec<u32>,
    /// Warm-up seconds.
    pub warmup: f64,
    /// Measured seconds.
    pub duration: f64,
    /// Repetitions (sequential: the most blocks, scheduled; it may stop before).
    pub repetitions: u32,
    /// How every cell starts.
    pub reset: Reset,
    /// With `reset = "warm"`: the seconds each server is driven before the first cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_start: Option<f64>,
    /// The baseline variant.
    pub baseline: String,
    /// Variant names, in plan order.
    pub variants: Vec<String>,
    /// Workload labels, in plan order.
    pub workloads: Vec<String>,
    /// Every variant × workload with its options.
    pub pairs: Vec<Pair>,
    /// The labels of the `replay` workloads: their NOPM is the New-Orders a replica applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replays: Vec<String>,
    /// Add blocks until the answer is known (None: `repetitions` blocks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequential: Option<Sequential>,
    /// The primary outcome: "throughput" or a cost per transaction.
    #[serde(default = "throughput")]
    pub primary: String,
    /// Every cell profiled (`profile = true`).
    #[serde(default)]
    pub profile: bool,
    /// Co-location: the instances of the plan's variant (None: variants compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<u32>,
    /// How the blocks are combined (experiments before issue 41: their mean).
    #[serde(default)]
    pub estimator: super::Estimator,
}

fn throughput() -> String {
    PRIMARY_THROUGHPUT.into()
}

/// Overrides of a plan's sequential keys from the command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SequentialArgs {
    /// `--precision`.
    pub precision: Option<f64>,
    /// `--max-repetitions`.
    pub max_repetitions: Option<u32>,
    /// `--max-time`.
    pub max_time: Option<String>,
}

impl Expanded {
    /// A warm experiment's method, in a line (None: not warm).
    pub fn warm_text(&self) -> Option<String> {
        self.warm_start.map(|secs| format!(
            "warm: every variant's servers driven once for {secs} s, then kept running; each cell drives one of them for {} s after {} s of warm-up, on what the cells before it left (no restore or restart between cells)",
            self.duration, self.warmup
        ))
    }

    /// What a `replay` workload's cells measure, in words (None: not a replay workload):
    /// the replica's catch-up, or with `run = ["--balanced", …]` its balanced replay speed.
    pub fn replay_measure(&self, workload: &str) -> Option<&'static str> {
        if !self.replays.iter().any(|w| w == workload) {
            return None;
        }
        let balanced = self
            .pairs
            .iter()
            .any(|p| p.workload == workload && p.run.iter().any(|a| a == BALANCED));
        Some(if balanced {
            "the replica's balanced replay speed, the highest NOPM of the primary it kept up with"
        } else {
            "the replica's catch-up, New-Orders applied per minute"
        })
    }

    /// The options of `variant` × `workload`.
    pub fn pair(&self, variant: &str, workload: &str) -> Option<&Pair> {
        self.pairs
            .iter()
            .find(|p| p.variant == variant && p.workload == workload)
    }
}

/// A plan's problem, naming the file and the key.
fn bad(file: &Path, what: impl std::fmt::Display) -> anyhow::Error {
    crate::error::Failure::Usage(format!("{}: {what}", file.display())).into()
}

/// Parses a plan's text; an error names the file, and the line and column of a syntax
/// error or the unknown key.
pub fn parse(file: &Path, text: &str) -> anyhow::Result<Plan> {
    toml::from_str::<Plan>(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| {
                let line = text[..s.start].matches('\n').count() + 1;
                let col = s.start - text[..s.start].rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("line {line}, column {col}: ")
            })
            .unwrap_or_default();
        bad(file, format!("{at}{}", e.message()))
    })
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `{name}` replaced by its value; an unknown name is an error naming it.
fn substitute(file: &Path, s: &str, vars: &BTreeMap<String, String>) -> anyhow::Result<String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let Some(j) = rest[i..].find('}') else {
            return Err(bad(file, format!("'{s}': a '{{' without its '}}'")));
        };
        let name = &rest[i + 1..i + j];
        let Some(v) = vars.get(name) else {
            return Err(bad(
                file,
                format!("'{s}': no value for {{{name}}} (set it in vars, or in the scale's vars)"),
            ));
        };
        out.push_str(v);
        rest = &rest[i + j + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A setting's value as `--set` writes it.
pub fn set_value(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Boolean(b) => if *b { "ON" } else { "OFF" }.into(),
        other => other.to_string(),
    }
}

impl Plan {
    /// Checks the plan and expands it for `scale` (None: the first of quick, then the only
    /// scale, else the plan's own values).
    pub fn expand(&self, file: &Path, scale: Option<&str>) -> anyhow::Result<Expanded> {
        self.expand_with(file, scale, &SequentialArgs::default())
    }

    /// [`Plan::expand`] with the command line's sequential options over the plan's.
    pub fn expand_with(
        &self,
        file: &Path,
        scale: Option<&str>,
        args: &SequentialArgs,
    ) -> anyhow::Result<Expanded> {
        self.check_not_empty(file)?;
        let variants = self.checked_variants(file)?;
        self.check_baseline(file, &variants)?;
        let workloads = self.checked_workloads(file)?;
        let chosen = self.chosen_scale(file, scale)?;
        let empty = Scale::default();
        let (scale_name, sc) = chosen
            .as_ref()
            .map_or(("", &empty), |(n, s)| (n.as_str(), *s));
        let sizes = self.sizes(file, sc)?;
        let reset = self.reset_rule(file, sc)?;
        let warm_start = self.warm_start(file, sc, reset)?;
        let pairs = self.pairs(file, sc)?;
        let sequential = self.sequential(file, sc, sizes.repetitions, args)?;
        let primary = self.primary_outcome(file)?;
        let instances = self.co_location(file, &primary)?;
        self.check_replay(file, reset, &primary)?;
        // A sequential experiment's schedule holds its most blocks; it stops earlier.
        let scheduled = sequential
            .as_ref()
            .map_or(sizes.repetitions, |s| s.max_repetitions);
        Ok(Expanded {
            sequential,
            primary,
            profile: self.profile,
            instances,
            estimator: super::Estimator::Trimmed,
            scale: scale_name.to_string(),
            threads: sizes.threads,
            warmup: sizes.warmup,
            duration: sizes.duration,
            repetitions: scheduled,
            reset,
            warm_start,
            baseline: self.baseline.clone(),
            variants,
            workloads,
            pairs,
            replays: self
                .workloads
                .iter()
                .filter(|w| w.name == REPLAY)
                .map(|w| w.label().to_string())
                .collect(),
        })
    }

    /// The sequential rule of scale `sc` (None: fixed repetitions), checked.
    fn sequential(
        &self,
        file: &Path,
        sc: &Scale,
        repetitions: u32,
        args: &SequentialArgs,
    ) -> anyhow::Result<Option<Sequential>> {
        let precision = args.precision.or(sc.precision).or(self.precision);
        let max_repetitions = args
            .max_repetitions
            .or(sc.max_repetitions)
            .or(self.max_repetitions);
        let max_time = args
            .max_time
            .clone()
            .or_else(|| sc.max_time.clone())
            .or_else(|| self.max_time.clone());
        let Some(precision) = precision else {
            if max_repetitions.is_some() || max_time.is_some() {
                return Err(bad(
                    file,
                    "max_repetitions and max_time bound a sequential experiment: give precision too (--precision PERCENT)",
                ));
            }
            return Ok(None);
        };
        let co_location = self.variants.iter().any(|v| v.instances.is_some());
        if self.variants.len() < 2 && !co_location {
            return Err(bad(
                file,
                "precision: a sequential experiment stops on its comparisons, and a plan of one variant has none",
            ));
        }
        if !(precision > 0.0 && precision.is_finite()) {
            return Err(bad(
                file,
                format!("precision = {precision}: give a percentage above 0 (e.g. 3)"),
            ));
        }
        let min = repetitions.max(2);
        let max = max_repetitions.unwrap_or(3 * min);
        if max < min {
            return Err(bad(
                file,
                format!(
                    "max_repetitions = {max}: below repetitions ({min}), the blocks before the first look"
                ),
            ));
        }
        let max_time_s = max_time
            .map(|t| {
                humantime::parse_duration(&t)
                    .map(|d| d.as_secs_f64())
                    .map_err(|e| bad(file, format!("max_time = '{t}': {e} (e.g. 15m)")))
            })
            .transpose()?;
        Ok(Some(Sequential {
            precision_pct: precision,
            min_repetitions: min,
            max_repetitions: max,
            max_time_s,
            spending: super::sequential::Spending::ObrienFleming,
        }))
    }

    /// The variant called `name`.
    pub fn variant(&self, name: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    /// The workload labelled `label`.
    pub fn workload(&self, label: &str) -> Option<&Workload> {
        self.workloads.iter().find(|w| w.label() == label)
    }
}

/// Whether `args` hold `--label KEY=…` (or `--label=KEY=…`).
pub fn sets_label(args: &[String], key: &str) -> bool {
    let prefix = format!("{key}=");
    args.iter().enumerate().any(|(i, a)| {
        a.strip_prefix("--label=")
            .is_some_and(|v| v.starts_with(&prefix))
            || (a == "--label" && args.get(i + 1).is_some_and(|v| v.starts_with(&prefix)))
    })
}

#[cfg(test)]
mod tests;
