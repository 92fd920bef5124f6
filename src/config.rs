//! Validated, serde-able run configuration, stored in every result.json.

use serde::{Deserialize, Serialize};

/// Arrival process of an open-loop run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum RateDist {
    /// Exponential gaps between arrivals.
    Poisson,
    /// Equal gaps.
    Uniform,
}

/// Transaction isolation level for every connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Isolation {
    /// REPEATABLE READ.
    Rr,
    /// READ COMMITTED.
    Rc,
    /// SERIALIZABLE.
    Serializable,
    /// READ UNCOMMITTED.
    Ru,
}

impl Isolation {
    /// The SQL name.
    pub fn sql(self) -> &'static str {
        match self {
            Isolation::Rr => "REPEATABLE READ",
            Isolation::Rc => "READ COMMITTED",
            Isolation::Serializable => "SERIALIZABLE",
            Isolation::Ru => "READ UNCOMMITTED",
        }
    }
}

/// What the driver was asked to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// The workload name.
    pub workload: String,
    /// The target URL, password redacted.
    pub url: String,
    /// Virtual users (one connection each).
    pub threads: u32,
    /// Measured seconds (after warm-up).
    pub time_s: f64,
    /// Warm-up seconds, excluded from results.
    pub warmup_s: f64,
    /// Stop after this many transactions (measured phase), if set.
    pub events: Option<u64>,
    /// Seconds per interval line.
    pub report_interval_s: f64,
    /// Open-loop arrival rate (transactions per second), if set.
    pub rate: Option<f64>,
    /// Arrival process for `rate`.
    pub rate_dist: RateDist,
    /// Seed of all random inputs.
    pub seed: u64,
    /// Retries after a deadlock or lock-wait timeout.
    pub retries: u32,
    /// Largest tolerated share of unexpected errors in an interval (0.05 = 5 %).
    pub max_error_rate: f64,
    /// Isolation level, if set (else the server's).
    pub isolation: Option<Isolation>,
    /// The workload's own options.
    pub workload_options: serde_json::Value,
}
