//! The rows of intervals.csv and of each interval in result.json: per kind, per target.

use super::*;

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
