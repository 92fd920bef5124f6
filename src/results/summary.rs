//! The measured phase's summary (per kind, per target) and the workload's own scorecard.

use super::*;

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

/// What the virtual users cost the client process: its peak memory, the memory each user
/// added (the peak less the process's peak before they connected, per user), and how long
/// connecting them took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientUsers {
    /// Virtual users of this process.
    pub users: usize,
    /// Peak resident memory of the process by the run's end (getrusage's maxrss), KiB.
    pub peak_rss_kib: u64,
    /// The same before the virtual users connected, KiB.
    pub rss_before_kib: u64,
    /// Seconds from the first user's thread started to every user connected and ready.
    pub connect_s: f64,
    /// The threads the users ran on as fibers (`--client-threads`); None: a thread each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fiber_threads: Option<u32>,
}

impl ClientUsers {
    /// KiB of peak memory per virtual user above the process's peak before they connected.
    pub fn kib_per_user(&self) -> f64 {
        self.peak_rss_kib.saturating_sub(self.rss_before_kib) as f64 / self.users.max(1) as f64
    }

    /// In a line, for the text summary.
    pub fn line(&self) -> String {
        let how = self
            .fiber_threads
            .map(|t| format!(" as fibers on {t} thread(s)"))
            .unwrap_or_default();
        format!(
            "{} virtual user(s){how} connected in {:.2} s; peak memory {:.0} MiB, {:.0} KiB per user above the {:.0} MiB before they connected",
            self.users,
            self.connect_s,
            self.peak_rss_kib as f64 / 1024.0,
            self.kib_per_user(),
            self.rss_before_kib as f64 / 1024.0
        )
    }
}

/// The measured phase in figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Measured seconds.
    pub duration_s: f64,
    /// Seconds the measured phase ran past its requested end, waiting for the transactions
    /// in flight (0 for a run ended by --events or a stop).
    #[serde(default)]
    pub overrun_s: f64,
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
    /// Transactions in flight a second after the run's end whose sessions the end cut after
    /// they may have sent a statement that ends a transaction (a COMMIT, an autocommitted
    /// statement; on PostgreSQL, every cut): neither completed nor failed (their statements
    /// sent are counted), and the server may have counted each either way.
    #[serde(default)]
    pub cut: u64,
    /// Transactions the end cut before they sent anything that could end a transaction:
    /// rolled back, counted by neither txbench nor the server (their statements sent are).
    #[serde(default)]
    pub cut_uncommitted: u64,
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
    /// The client's memory and its virtual users' start (None: a merge of shards, or a
    /// result from before they were recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_users: Option<ClientUsers>,
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
    /// Transactions on it cut at the run's end.
    #[serde(default)]
    pub cut: u64,
    /// A Galera node: what its counters say the clients' deadlock errors (1213) were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<Conflicts>,
    /// Its server process's CPU over the measured phase, % of all the host's CPUs (when it
    /// runs on this host and was sampled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_cpu_pct: Option<f64>,
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
            cut: s.cut,
            conflicts: None,
            server_cpu_pct: None,
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
            overrun_s: 0.0,
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
            cut: rec.cut,
            cut_uncommitted: rec.cut_uncommitted,
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
            client_users: None,
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
    /// The workload's own throughput figure (TPC-C: NOPM), which sweeps, experiments,
    /// compare and the report show where other workloads show tps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<Rate>,
    /// Each statement's mean latency and count per kind over the measured phase (pgbench
    /// -r; the script workload).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub statements: Vec<StatementLatency>,
}

/// One command of a kind: its mean latency and how often it ran (pgbench -r).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatementLatency {
    /// The transaction kind (the script).
    pub kind: String,
    /// Its first line in the script.
    pub line: u32,
    /// Its text on one line (at most 120 characters).
    pub command: String,
    /// Times it ran to its end.
    pub count: u64,
    /// Mean latency, milliseconds.
    pub mean_ms: f64,
}

/// A workload's own throughput figure: completed transactions of one kind per minute
/// (TPC-C's NOPM: New-Orders per minute), with every kind's per minute beside it (TPM).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Its name, as printed ("NOPM").
    pub name: String,
    /// The transaction kind it counts.
    pub kind: String,
    /// Completed `kind` per minute over the measured phase.
    pub per_minute: f64,
    /// Every kind's completed per minute over the measured phase (TPM).
    pub all_per_minute: f64,
}

impl Rate {
    /// In one interval: completed `kind` per minute.
    pub fn of_interval(&self, i: &super::IntervalRow) -> f64 {
        let secs = i.end_s - i.start_s;
        let n = i
            .kinds
            .iter()
            .find(|k| k.name == self.kind)
            .map_or(0, |k| k.completed);
        if secs > 0.0 {
            n as f64 * 60.0 / secs
        } else {
            0.0
        }
    }
}

/// A run's headline throughput: the workload's own rate (TPC-C: NOPM) where it has one,
/// else transactions per second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Throughput<'a> {
    /// "NOPM" or "tps".
    pub unit: &'a str,
    /// Over the measured phase.
    pub value: f64,
    /// The workload's rate, if it is the unit.
    pub rate: Option<&'a Rate>,
}

impl Throughput<'_> {
    /// In one interval, in the same unit.
    pub fn of_interval(&self, i: &super::IntervalRow) -> f64 {
        self.rate.map_or(i.tps, |r| r.of_interval(i))
    }
}

#[cfg(test)]
mod tests {
    use super::ClientUsers;

    #[test]
    fn memory_per_user_is_the_peak_above_the_process_before_they_connected() {
        let c = ClientUsers {
            users: 1000,
            peak_rss_kib: 22_528 + 88_000,
            rss_before_kib: 22_528,
            connect_s: 0.42,
            fiber_threads: None,
        };
        assert_eq!(c.kib_per_user(), 88.0);
        assert_eq!(
            c.line(),
            "1000 virtual user(s) connected in 0.42 s; peak memory 108 MiB, 88 KiB per user above the 22 MiB before they connected"
        );
        let fibers = ClientUsers {
            fiber_threads: Some(2),
            ..c
        };
        assert!(
            fibers
                .line()
                .starts_with("1000 virtual user(s) as fibers on 2 thread(s) connected in 0.42 s"),
            "{}",
            fibers.line()
        );
        // A peak that never rose (or a process that measured nothing) is 0 per user.
        let none = ClientUsers {
            users: 0,
            peak_rss_kib: 0,
            rss_before_kib: 10,
            connect_s: 0.0,
            fiber_threads: None,
        };
        assert_eq!(none.kib_per_user(), 0.0);
    }
}
