//! Stored results: `result.json` (versioned, rewritten atomically as the run goes within a
//! budget, see `RunDir::checkpoint`, and at its end), `intervals.csv` and `latency.hlog`
//! (HdrHistogram interval log), appended after every interval, so a crash loses at most one.

mod files;
mod finding;
pub mod growth;
mod interval;
pub mod period;
mod profile;
pub mod replay;
mod stability;
mod summary;
mod sweep;

use files::read_versioned;
pub use files::*;
pub use interval::*;
pub use profile::{FnShare, Profile, read_folded};
pub use summary::*;
pub use sweep::*;

use crate::config::RunConfig;
pub use crate::metrics::Phase;
pub use crate::metrics::server::Conflicts;
use crate::metrics::{ErrorMessage, LatencyStats, Recorder, StmtCounts};
use crate::preflight::Preflight;
use anyhow::{Context, Result, bail};
pub use finding::Finding;
use hdrhistogram::Histogram;
use hdrhistogram::serialization::{Serializer, V2DeflateSerializer};
use serde::{Deserialize, Serialize};
pub use stability::{Stability, Stall};
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The result.json schema version this build writes and reads.
pub const SCHEMA_VERSION: u32 = 1;

/// How the run ended (or that it is still going).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Still running: the file is rewritten as the run goes (`RunDir::checkpoint`).
    Running,
    /// Ran its course.
    Completed,
    /// Ctrl-C or SIGTERM.
    Interrupted,
    /// Stopped early by a validity rule or a failure.
    Aborted,
}

impl RunStatus {
    /// How a run with this status ended, in a word.
    pub fn word(self) -> &'static str {
        match self {
            RunStatus::Completed => "completed",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Aborted => "aborted",
            RunStatus::Running => "unfinished",
        }
    }
    /// Why figures of a run with this status cannot enter a verdict as a finished run's
    /// (None: it ran its course).
    pub fn unfinished_why(self) -> Option<&'static str> {
        match self {
            RunStatus::Completed => None,
            RunStatus::Interrupted => Some("interrupted (Ctrl-C or SIGTERM)"),
            RunStatus::Aborted => Some("aborted by a validity rule or a failure"),
            RunStatus::Running => Some("unfinished (its process died, or it is still running)"),
        }
    }
}

/// Whether the numbers can be trusted, and why not.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Validity {
    /// True when no rule was broken.
    pub valid: bool,
    /// The broken rules, one sentence each.
    pub reasons: Vec<String>,
}

/// The tool that wrote a result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// "txbench".
    pub name: String,
    /// Its version.
    pub version: String,
}

/// The machine the driver ran on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Client {
    /// Host name.
    pub host: String,
    /// CPUs available to the driver.
    pub cpus: usize,
}

impl Client {
    /// This machine.
    pub fn this() -> Client {
        Client {
            host: fs::read_to_string("/proc/sys/kernel/hostname")
                .map(|h| h.trim().to_string())
                .unwrap_or_else(|_| "unknown".into()),
            cpus: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
        }
    }
}

/// Something that happened to a server during a run, when the sampler noticed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Seconds since the run started.
    pub t_s: f64,
    /// What happened, in words.
    pub what: String,
}

/// Everything about a run: result.json.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Who wrote it.
    pub tool: Tool,
    /// How the run ended.
    pub status: RunStatus,
    /// UTC, RFC 3339.
    pub started_at: String,
    /// UTC, RFC 3339, once finished.
    pub ended_at: Option<String>,
    /// The configuration (password redacted).
    pub config: RunConfig,
    /// "closed" or "open" (with --rate).
    pub loop_kind: String,
    /// The driver's machine.
    pub client: Client,
    /// The server's pre-flight at the start.
    pub server: Preflight,
    /// Transaction kinds, in column order.
    pub kinds: Vec<String>,
    /// Things a reader must know (deviations from a specification, defaults that differ
    /// from other tools).
    pub notes: Vec<String>,
    /// Every interval, warm-up included.
    pub intervals: Vec<IntervalRow>,
    /// The measured phase, once there is one.
    pub summary: Option<Summary>,
    /// The workload's own figures, if it has any.
    #[serde(default)]
    pub workload_report: Option<WorkloadReport>,
    /// CPU profiles of the measured phase (`--profile`): the server's, the client's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<Profile>,
    /// How steady throughput was over the measured intervals.
    #[serde(default)]
    pub stability: Option<Stability>,
    /// What the server's figures say about the result, each with its number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
    /// What happened to the servers during the run, in time order: a replica lost, semi-sync
    /// falling back to asynchronous, a Galera node leaving, a target unreachable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Event>,
    /// A shard of a run driven from several processes: its part and its clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRecord>,
    /// A run merged from shards by `txbench merge`: where each came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<MergeRecord>,
    /// How the tables the workload adds to grew over the run (TPC-C, TPC-B), from the server.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub database_growth: Vec<growth::TableGrowth>,
    /// The measured phase period by period (`--period`, or hours in a run of two hours or
    /// more), with the server figures that explain a decline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periods: Option<period::Periods>,
    /// The verdict.
    pub validity: Validity,
}

/// What a shard ran and the facts `txbench merge` needs to combine it with the others.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// From 1.
    pub index: u32,
    /// How many shards.
    pub count: u32,
    /// Its virtual users (of the run's `config.threads`), in order.
    pub users: Vec<u32>,
    /// Its part of `config.events`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<u64>,
    /// Its part of `config.rate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<f64>,
    /// Seconds since the epoch, this client's clock, when its intervals start (start_s 0).
    pub start_unix_s: f64,
    /// The database server's clock minus this client's, seconds (measured over a connection,
    /// at the middle of the round trip with the shortest of five).
    pub clock_offset_s: f64,
    /// That round trip, seconds: the offset is known to within half of it.
    pub clock_rtt_s: f64,
    /// The server's counters over this shard's measured phase (the shard that samples them,
    /// shard 1): `merge` divides them by every shard's transactions and cross-checks them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_measured: Option<crate::metrics::server::Delta>,
    /// How late the sample that opened the measured phase was, seconds.
    #[serde(default)]
    pub opening_lag_s: f64,
    /// Its measured attempts that started before its measured phase opened (the merge's
    /// cross-checks allow for them: they count when they end).
    #[serde(default)]
    pub in_flight_at_open: u64,
    /// The same by kind (empty in results from before they were counted by kind).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub in_flight_by_kind: std::collections::BTreeMap<String, u64>,
    /// Which server counters match txbench's for this workload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_count: Option<crate::metrics::server::ServerCount>,
    /// Per kind: whether it ends with COMMIT or ROLLBACK.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commits: Vec<bool>,
    /// Per kind: the statements an autocommitting attempt sends (PostgreSQL counts each as a
    /// transaction).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub autocommit_statements: Vec<u64>,
}

/// A merged run's origin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MergeRecord {
    /// The shards, in index order.
    pub shards: Vec<MergedShard>,
    /// Seconds between the first and the last shard's start, in the server's clock.
    pub start_spread_s: f64,
}

/// One shard of a merged run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MergedShard {
    /// From 1.
    pub index: u32,
    /// Its run directory, as given to `merge`.
    pub dir: String,
    /// Its client machine.
    pub host: String,
    /// Its virtual users.
    pub threads: u32,
    /// How it ended.
    pub status: RunStatus,
    /// Whether its numbers could be trusted.
    pub valid: bool,
    /// Its start against the earliest shard's, seconds (server clock).
    pub start_s: f64,
    /// Its clock against the server's, seconds.
    pub clock_offset_s: f64,
}

impl RunResult {
    /// Reads a run directory's result.json, refusing other schema versions clearly.
    pub fn load(dir: &Path) -> Result<RunResult> {
        let path = dir.join("result.json");
        if !path.is_file() {
            bail!("{} is not a run directory (no result.json)", dir.display());
        }
        let r: RunResult = read_versioned(&path, "result")?;
        for p in &r.profiles {
            files::check_inside(&p.file, &path)?;
        }
        Ok(r)
    }

    /// The headline throughput: the workload's rate (TPC-C: NOPM) where it has one, else
    /// transactions per second over the measured phase (0 without a measured phase).
    pub fn throughput(&self) -> Throughput<'_> {
        match self.workload_report.as_ref().and_then(|w| w.rate.as_ref()) {
            Some(r) => Throughput {
                unit: &r.name,
                value: r.per_minute,
                rate: Some(r),
            },
            None => Throughput {
                unit: "tps",
                value: self.summary.as_ref().map_or(0.0, |s| s.tps),
                rate: None,
            },
        }
    }
}
