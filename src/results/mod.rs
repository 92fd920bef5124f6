//! Stored results: `result.json` (versioned, rewritten atomically after every interval),
//! `intervals.csv` and `latency.hlog` (HdrHistogram interval log), appended as the run
//! goes, so a crash or Ctrl-C loses at most one interval.

mod finding;
mod stability;

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
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The result.json schema version this build writes and reads.
pub const SCHEMA_VERSION: u32 = 1;

/// How the run ended (or that it is still going).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Still running: the file is rewritten after every interval.
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

/// One transaction kind within an interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KindRow {
    /// Kind name.
    pub name: String,
    /// Completed (committed + rolled back on purpose).
    pub completed: u64,
    /// Rolled back on purpose.
    pub rolled_back: u64,
    /// Failed.
    pub errors: u64,
    /// Retried.
    pub retries: u64,
    /// Response-time 95th percentile.
    pub p95_ms: f64,
    /// Response-time 99th percentile.
    pub p99_ms: f64,
}

/// One interval of the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntervalRow {
    /// Warm-up or measured.
    pub phase: Phase,
    /// Seconds since the run started (warm-up included).
    pub start_s: f64,
    /// See `start_s`.
    pub end_s: f64,
    /// Virtual users.
    pub threads: u32,
    /// Completed transactions.
    pub transactions: u64,
    /// Completed transactions per second.
    pub tps: f64,
    /// Statements per second.
    pub qps: f64,
    /// Reads per second.
    pub reads_ps: f64,
    /// Writes per second.
    pub writes_ps: f64,
    /// Other statements per second.
    pub other_ps: f64,
    /// Response-time 95th percentile, all kinds.
    pub p95_ms: f64,
    /// Response-time 99th percentile, all kinds.
    pub p99_ms: f64,
    /// Service-time 99th percentile, all kinds.
    pub service_p99_ms: f64,
    /// Failed transactions.
    pub errors: u64,
    /// Failed transactions that should have worked (duplicate key, data, other errors).
    pub unexpected_errors: u64,
    /// Contention failures whose retries ran out; with `unexpected_errors` they count
    /// against --max-error-rate.
    #[serde(default)]
    pub failed_after_retries: u64,
    /// Failed transactions per second.
    pub err_ps: f64,
    /// Reconnects per second.
    pub reconn_ps: f64,
    /// Failures by class.
    pub errors_by_class: BTreeMap<String, u64>,
    /// Per kind.
    pub kinds: Vec<KindRow>,
    /// CPU the driver process used, % of all the client's CPUs.
    #[serde(default)]
    pub client_cpu_pct: f64,
    /// With several targets: each one's figures in this interval, in `config.targets` order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetRow>,
}

impl IntervalRow {
    /// The row for what `rec` recorded between `start_s` and `end_s`.
    pub fn of(
        rec: &Recorder,
        names: &[String],
        phase: Phase,
        start_s: f64,
        end_s: f64,
        threads: u32,
    ) -> IntervalRow {
        let secs = (end_s - start_s).max(1e-9);
        let all = LatencyStats::of(&rec.all_response());
        let all_service = LatencyStats::of(&rec.all_service());
        let transactions = rec.completed_total();
        let errors = rec.failed_total();
        IntervalRow {
            phase,
            start_s,
            end_s,
            threads,
            transactions,
            tps: transactions as f64 / secs,
            qps: rec.stmts.total() as f64 / secs,
            reads_ps: rec.stmts.reads as f64 / secs,
            writes_ps: rec.stmts.writes as f64 / secs,
            other_ps: rec.stmts.other as f64 / secs,
            p95_ms: all.p95_ms,
            p99_ms: all.p99_ms,
            service_p99_ms: all_service.p99_ms,
            errors,
            unexpected_errors: rec.kinds.iter().map(|k| k.unexpected()).sum(),
            failed_after_retries: rec.kinds.iter().map(|k| k.failed_after_retries()).sum(),
            err_ps: errors as f64 / secs,
            reconn_ps: rec.reconnects as f64 / secs,
            errors_by_class: rec.errors_by_class(),
            kinds: rec
                .kinds
                .iter()
                .zip(names)
                .map(|(k, name)| {
                    let l = LatencyStats::of(&k.response.to_hdr());
                    KindRow {
                        name: name.clone(),
                        completed: k.completed(),
                        rolled_back: k.rolled_back,
                        errors: k.failed(),
                        retries: k.retries,
                        p95_ms: l.p95_ms,
                        p99_ms: l.p99_ms,
                    }
                })
                .collect(),
            client_cpu_pct: 0.0,
            targets: Vec::new(),
        }
    }
}

/// One transaction kind over the measured phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KindSummary {
    /// Kind name.
    pub name: String,
    /// Completed (committed + rolled back on purpose).
    pub completed: u64,
    /// Committed.
    pub committed: u64,
    /// Rolled back on purpose.
    pub rolled_back: u64,
    /// Failed, after retries.
    pub errors: u64,
    /// Retries.
    pub retries: u64,
    /// Completed per second.
    pub tps: f64,
    /// Intended start → end.
    pub response: LatencyStats,
    /// Actual start → end.
    pub service: LatencyStats,
}

/// The measured phase in figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Measured seconds.
    pub duration_s: f64,
    /// Completed transactions.
    pub transactions: u64,
    /// Completed per second.
    pub tps: f64,
    /// Statements.
    pub queries: u64,
    /// Statements per second.
    pub qps: f64,
    /// Statement split.
    pub stmts: StmtCounts,
    /// Failed transactions.
    pub errors: u64,
    /// Failed transactions that should have worked (duplicate key, data, other errors).
    pub unexpected_errors: u64,
    /// Contention failures whose retries ran out (pgbench's serialization and deadlock
    /// failures); with `unexpected_errors` they count against --max-error-rate.
    #[serde(default)]
    pub failed_after_retries: u64,
    /// Failures by class (finally failed, after any retries).
    pub errors_by_class: BTreeMap<String, u64>,
    /// Retries.
    pub retries: u64,
    /// Transactions that completed after one retry or more (pgbench's "transactions
    /// retried"); the rest of the retried attempts are in `failed_after_retries`.
    #[serde(default)]
    pub retried_transactions: u64,
    /// Retries by the class of the error retried (serialization, deadlock, lock wait).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub retries_by_class: BTreeMap<String, u64>,
    /// Reconnects.
    pub reconnects: u64,
    /// All kinds, response time.
    pub response: LatencyStats,
    /// All kinds, service time.
    pub service: LatencyStats,
    /// Per kind.
    pub kinds: Vec<KindSummary>,
    /// CPU seconds the driver process used in the measured phase (all its threads).
    #[serde(default)]
    pub client_cpu_s: f64,
    /// That, as % of all the client's CPUs over the measured time.
    #[serde(default)]
    pub client_cpu_pct: f64,
    /// The most frequent error messages.
    pub top_errors: Vec<ErrorMessage>,
    /// The server's figures over the measured phase (per transaction, peaks, cross-checks),
    /// when it was sampled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<crate::metrics::server::ServerSummary>,
    /// With several targets: each one's figures over the measured phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetSummary>,
}

/// One target's figures in an interval (a run with several targets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetRow {
    /// Transactions per second.
    pub tps: f64,
    /// 95th percentile response time, ms.
    pub p95_ms: f64,
    /// Failed attempts.
    pub errors: u64,
    /// Reconnects (of virtual users that came to this target) per second.
    pub reconn_ps: f64,
}

impl TargetRow {
    /// The figures of a target's interval row.
    pub fn of(row: &IntervalRow) -> TargetRow {
        TargetRow {
            tps: row.tps,
            p95_ms: row.p95_ms,
            errors: row.errors,
            reconn_ps: row.reconn_ps,
        }
    }
}

/// One target's figures over the measured phase (a run with several targets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetSummary {
    /// The target (password redacted).
    pub url: String,
    /// Virtual users dealt to it at the start.
    pub threads: u32,
    /// Transactions completed on it.
    pub transactions: u64,
    /// Per second.
    pub tps: f64,
    /// Response time.
    pub response: LatencyStats,
    /// Failed attempts.
    pub errors: u64,
    /// By class.
    pub errors_by_class: BTreeMap<String, u64>,
    /// Reconnects that landed on it (a virtual user moves on when its target fails).
    pub reconnects: u64,
    /// A Galera node: what its counters say the clients' deadlock errors (1213) were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<Conflicts>,
}

impl TargetSummary {
    /// From a target's summary.
    pub fn of(url: String, threads: u32, s: &Summary) -> TargetSummary {
        TargetSummary {
            url,
            threads,
            transactions: s.transactions,
            tps: s.tps,
            response: s.response,
            errors: s.errors,
            errors_by_class: s.errors_by_class.clone(),
            reconnects: s.reconnects,
            conflicts: None,
        }
    }
}

impl Summary {
    /// The summary of `rec`, which holds the whole measured phase of `secs` seconds.
    pub fn of(rec: &Recorder, names: &[String], secs: f64) -> Summary {
        let secs = secs.max(1e-9);
        let transactions = rec.completed_total();
        let mut top_errors = rec.messages.clone();
        top_errors.sort_by_key(|e| std::cmp::Reverse(e.count));
        top_errors.truncate(5);
        Summary {
            duration_s: secs,
            transactions,
            tps: transactions as f64 / secs,
            queries: rec.stmts.total(),
            qps: rec.stmts.total() as f64 / secs,
            stmts: rec.stmts,
            errors: rec.failed_total(),
            unexpected_errors: rec.kinds.iter().map(|k| k.unexpected()).sum(),
            failed_after_retries: rec.kinds.iter().map(|k| k.failed_after_retries()).sum(),
            errors_by_class: rec.errors_by_class(),
            retries: rec.kinds.iter().map(|k| k.retries).sum(),
            retried_transactions: rec.kinds.iter().map(|k| k.retried_completed).sum(),
            retries_by_class: rec.retries_by_class(),
            reconnects: rec.reconnects,
            response: LatencyStats::of(&rec.all_response()),
            service: LatencyStats::of(&rec.all_service()),
            kinds: rec
                .kinds
                .iter()
                .zip(names)
                .map(|(k, name)| KindSummary {
                    name: name.clone(),
                    completed: k.completed(),
                    committed: k.committed,
                    rolled_back: k.rolled_back,
                    errors: k.failed(),
                    retries: k.retries,
                    tps: k.completed() as f64 / secs,
                    response: LatencyStats::of(&k.response.to_hdr()),
                    service: LatencyStats::of(&k.service.to_hdr()),
                })
                .collect(),
            top_errors,
            client_cpu_s: 0.0,
            client_cpu_pct: 0.0,
            server: None,
            targets: Vec::new(),
        }
    }
}

/// One line of a workload's scorecard: a measured figure against its requirement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreLine {
    /// What is measured.
    pub name: String,
    /// The measured value, formatted.
    pub value: String,
    /// The requirement, e.g. "0.9 .. 1.1 %".
    pub requirement: String,
    /// Whether the value meets it (None: informational).
    pub pass: Option<bool>,
}

/// Workload figures beyond the driver's (TPC-C: NOPM, TPM and the specification scorecard).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkloadReport {
    /// Headline figures, e.g. ("NOPM", "12345").
    pub headline: Vec<(String, String)>,
    /// The scorecard.
    pub scorecard: Vec<ScoreLine>,
    /// What the workload counted to make it (TPC-C's input counts), so `merge` can score
    /// several shards together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<serde_json::Value>,
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
        read_versioned(&path, "result")
    }
}

/// Reads a JSON file of ours (result.json, sweep.json), refusing other schema versions
/// clearly; `what` names the kind of file in the messages.
fn read_versioned<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let v: serde_json::Value = serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is not JSON", path.display()))?;
    match v.get("schema_version").and_then(|s| s.as_u64()) {
        Some(n) if n == u64::from(SCHEMA_VERSION) => {}
        Some(n) if n > u64::from(SCHEMA_VERSION) => bail!(
            "{} has {what} schema version {n}, newer than this txbench understands ({SCHEMA_VERSION}): upgrade txbench",
            path.display()
        ),
        Some(n) => bail!(
            "{} has {what} schema version {n}, which this txbench no longer reads",
            path.display()
        ),
        None => bail!(
            "{} has no schema_version: not a txbench {what}",
            path.display()
        ),
    }
    serde_json::from_value(v).with_context(|| format!("reading {}", path.display()))
}

/// A run directory being written.
pub struct RunDir {
    path: PathBuf,
    csv: File,
    hlog: File,
    serializer: V2DeflateSerializer,
    buf: Vec<u8>,
}

const CSV_HEADER: &str = "phase,start_s,end_s,threads,transactions,tps,qps,reads_ps,writes_ps,other_ps,p95_ms,p99_ms,service_p99_ms,errors,err_ps,reconn_ps\n";

impl RunDir {
    /// Creates `path` (which must not hold a run already) with the CSV and log headers.
    pub fn create(path: &Path, start: std::time::SystemTime) -> Result<RunDir> {
        if path.join("result.json").exists() {
            bail!(
                "--out {}: holds a run already; choose another directory",
                path.display()
            );
        }
        // A directory of someone else's files is not ours to write into: nothing of it is
        // truncated or replaced.
        if let Ok(mut entries) = fs::read_dir(path)
            && let Some(Ok(first)) = entries.next()
        {
            bail!(
                "--out {}: holds files but no txbench run (such as {}); choose a new or empty directory",
                path.display(),
                first.file_name().to_string_lossy()
            );
        }
        fs::create_dir_all(path)
            .with_context(|| format!("--out {}: cannot create it", path.display()))?;
        let open = |name: &str| -> Result<File> {
            OpenOptions::new()
                .create_new(true)
                .write(true)
                .open(path.join(name))
                .with_context(|| format!("creating {}", path.join(name).display()))
        };
        let mut csv = open("intervals.csv")?;
        csv.write_all(CSV_HEADER.as_bytes())?;
        let mut hlog = open("latency.hlog")?;
        let start_unix = start
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        write!(
            hlog,
            "#[txbench {} latency log: values in microseconds; tags are KIND.response and KIND.service]\n\
             #[StartTime: {start_unix:.3} (seconds since epoch), {}]\n\
             #[BaseTime: {start_unix:.3} (seconds since epoch)]\n\
             \"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n",
            env!("CARGO_PKG_VERSION"),
            humantime::format_rfc3339_seconds(start),
        )?;
        Ok(RunDir {
            path: path.to_path_buf(),
            csv,
            hlog,
            serializer: V2DeflateSerializer::new(),
            buf: Vec::new(),
        })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends an interval to intervals.csv and its histograms to latency.hlog.
    pub fn append_interval(
        &mut self,
        row: &IntervalRow,
        rec: &Recorder,
        names: &[String],
    ) -> Result<()> {
        let mut hists = Vec::with_capacity(rec.kinds.len() * 2);
        for (k, name) in rec.kinds.iter().zip(names) {
            hists.push((name.clone(), false, k.response.to_hdr()));
            hists.push((name.clone(), true, k.service.to_hdr()));
        }
        self.append(row, &hists)
    }

    /// Appends an interval to intervals.csv and its histograms, (kind, service time?,
    /// histogram), to latency.hlog.
    pub fn append(
        &mut self,
        row: &IntervalRow,
        hists: &[(String, bool, Histogram<u64>)],
    ) -> Result<()> {
        let phase = match row.phase {
            Phase::Warmup => "warmup",
            Phase::Measure => "measure",
        };
        writeln!(
            self.csv,
            "{phase},{:.3},{:.3},{},{},{:.2},{:.2},{:.2},{:.2},{:.2},{:.3},{:.3},{:.3},{},{:.2},{:.2}",
            row.start_s, row.end_s, row.threads, row.transactions, row.tps, row.qps, row.reads_ps,
            row.writes_ps, row.other_ps, row.p95_ms, row.p99_ms, row.service_p99_ms, row.errors,
            row.err_ps, row.reconn_ps
        )
        .context("writing intervals.csv")?;
        use base64::Engine as _;
        let mut lines = String::new();
        for (name, service, h) in hists {
            let tag = if *service { "service" } else { "response" };
            self.buf.clear();
            self.serializer
                .serialize(h, &mut self.buf)
                .map_err(|e| anyhow::anyhow!("encoding a histogram: {e:?}"))?;
            lines.push_str(&format!(
                "Tag={name}.{tag},{:.3},{:.3},{:.3},{}\n",
                row.start_s,
                row.end_s - row.start_s,
                h.max() as f64 / 1000.0,
                base64::engine::general_purpose::STANDARD.encode(&self.buf)
            ));
        }
        self.hlog
            .write_all(lines.as_bytes())
            .context("writing latency.hlog")?;
        Ok(())
    }

    /// Rewrites result.json atomically.
    pub fn write_result(&self, result: &RunResult) -> Result<()> {
        write_json_atomic(&self.path.join("result.json"), result)
    }
}

/// One histogram of a run's latency.hlog, still encoded (a decoded one takes 188 KiB: a
/// merge of hours of many shards decodes each when it is needed).
#[derive(Debug, Clone)]
pub struct HlogRecord {
    /// The interval's start, seconds since the run started (its row's `start_s`).
    pub start_s: f64,
    /// The transaction kind.
    pub kind: String,
    /// Service time (else response time).
    pub service: bool,
    /// The histogram, V2 deflate encoding (microseconds).
    pub encoded: Vec<u8>,
}

impl HlogRecord {
    /// The histogram.
    pub fn decode(&self) -> Result<Histogram<u64>> {
        hdrhistogram::serialization::Deserializer::new()
            .deserialize::<u64, _>(&mut &self.encoded[..])
            .map_err(|e| anyhow::anyhow!("a latency.hlog histogram does not decode: {e:?}"))
    }
}

/// Calls `each` with every histogram of `dir`/latency.hlog, in file order, up to the first
/// line that does not parse. False when there is no such file (an old or copied run).
pub fn read_hlog(dir: &Path, mut each: impl FnMut(HlogRecord) -> Result<()>) -> Result<bool> {
    use base64::Engine as _;
    use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};
    let path = dir.join("latency.hlog");
    let Ok(log) = fs::read(&path) else {
        return Ok(false);
    };
    for item in IntervalLogIterator::new(&log) {
        // A run that died mid-write leaves its last line short: the log ends there (a merge
        // then finds that interval's histograms missing and says so).
        let Ok(entry) = item else {
            break;
        };
        let LogEntry::Interval(iv) = entry else {
            continue;
        };
        let Some(tag) = iv.tag() else { continue };
        let (kind, service) = match tag.as_str().rsplit_once('.') {
            Some((k, "response")) => (k, false),
            Some((k, "service")) => (k, true),
            _ => continue,
        };
        let encoded = base64::engine::general_purpose::STANDARD
            .decode(iv.encoded_histogram())
            .with_context(|| format!("{}: a histogram is not base64", path.display()))?;
        each(HlogRecord {
            start_s: iv.start_timestamp().as_secs_f64(),
            kind: kind.to_string(),
            service,
            encoded,
        })?;
    }
    Ok(true)
}

/// Writes `value` as pretty JSON to `path` through a temporary file renamed over it, so a
/// reader never sees half a file.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    let bytes = serde_json::to_vec_pretty(value)?;
    // Written, synced, renamed, and the rename synced: a power cut leaves the old file or
    // the new one, never an empty one.
    let mut f = File::create(&tmp).with_context(|| format!("writing {}", tmp.display()))?;
    f.write_all(&bytes)
        .and_then(|_| f.sync_all())
        .with_context(|| format!("writing {}", tmp.display()))?;
    drop(f);
    fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        File::open(dir)
            .and_then(|d| d.sync_all())
            .with_context(|| format!("syncing {}", dir.display()))?;
    }
    Ok(())
}

/// One level of a sweep, as sweep.json lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepLevel {
    /// Virtual users.
    pub threads: u32,
    /// The level's run directory, relative to the sweep directory.
    pub dir: String,
    /// How the level's run ended.
    pub status: RunStatus,
    /// Whether its numbers can be trusted.
    pub valid: bool,
    /// Why not.
    pub reasons: Vec<String>,
    /// Transactions per second.
    pub tps: f64,
    /// Response-time 95th percentile, all kinds.
    pub p95_ms: f64,
    /// Response-time 99th percentile, all kinds.
    pub p99_ms: f64,
    /// Failed transactions.
    pub errors: u64,
}

impl SweepLevel {
    /// The line for a level's run.
    pub fn of(r: &RunResult, dir: &str) -> SweepLevel {
        let s = r.summary.as_ref();
        SweepLevel {
            threads: r.config.threads,
            dir: dir.to_string(),
            status: r.status,
            valid: r.validity.valid,
            reasons: r.validity.reasons.clone(),
            tps: s.map_or(0.0, |s| s.tps),
            p95_ms: s.map_or(0.0, |s| s.response.p95_ms),
            p99_ms: s.map_or(0.0, |s| s.response.p99_ms),
            errors: s.map_or(0, |s| s.errors),
        }
    }
}

/// sweep.json: a run per thread count, on the same data, rewritten after every level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The workload.
    pub workload: String,
    /// Its options (a resumed sweep must have the same).
    pub workload_options: serde_json::Value,
    /// Thread counts, in the order they run.
    pub levels: Vec<u32>,
    /// UTC, RFC 3339.
    pub started_at: String,
    /// Running until every level ran; interrupted or aborted when one was.
    pub status: RunStatus,
    /// The `run` arguments (workload and options, without --url, --out and output flags),
    /// so `--resume` runs the remaining levels exactly as the sweep began.
    #[serde(default)]
    pub args: Vec<String>,
    /// The levels that ran, in order.
    pub runs: Vec<SweepLevel>,
}

impl Sweep {
    /// The file in a sweep directory.
    pub const FILE: &str = "sweep.json";

    /// Reads `dir`/sweep.json, refusing newer schema versions clearly.
    pub fn load(dir: &Path) -> Result<Sweep> {
        read_versioned(&dir.join(Self::FILE), "sweep")
    }

    /// Rewrites `dir`/sweep.json atomically.
    pub fn write(&self, dir: &Path) -> Result<()> {
        write_json_atomic(&dir.join(Self::FILE), self)
    }
}

/// What a directory given to `report` or `compare` holds.
#[derive(Debug, Clone)]
pub enum Stored {
    /// One run.
    Run(Box<RunResult>),
    /// A sweep and the runs of its levels that have a result.json.
    Sweep(Box<Sweep>, Vec<RunResult>),
}

impl Stored {
    /// Reads a run directory or a sweep directory; anything else is an error naming it.
    pub fn load(dir: &Path) -> Result<Stored> {
        if dir.join(Sweep::FILE).is_file() {
            let sweep = Sweep::load(dir)?;
            let mut runs = Vec::new();
            for level in &sweep.runs {
                runs.push(RunResult::load(&dir.join(&level.dir))?);
            }
            if runs.is_empty() {
                bail!(
                    "{} is a sweep with no completed level: nothing to show",
                    dir.display()
                );
            }
            return Ok(Stored::Sweep(Box::new(sweep), runs));
        }
        if !dir.is_dir() {
            bail!("{}: no such directory", dir.display());
        }
        if !dir.join("result.json").is_file() {
            bail!(
                "{} is not a run or sweep directory (no result.json or sweep.json)",
                dir.display()
            );
        }
        Ok(Stored::Run(Box::new(RunResult::load(dir)?)))
    }

    /// The runs, one per thread count.
    pub fn runs(&self) -> Vec<&RunResult> {
        match self {
            Stored::Run(r) => vec![r.as_ref()],
            Stored::Sweep(_, runs) => runs.iter().collect(),
        }
    }

    /// The workload.
    pub fn workload(&self) -> &str {
        match self {
            Stored::Run(r) => &r.config.workload,
            Stored::Sweep(s, _) => &s.workload,
        }
    }
}
