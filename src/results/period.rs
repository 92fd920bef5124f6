//! A long run period by period, as stored (`analysis::periods` computes it): seed 001 §2.4's
//! 8-hour decline, shown as the seed's chart was, with the server figures beside each period
//! that say why.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The measured phase cut into equal periods, and what moved from the first to the last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Periods {
    /// Seconds per period (`run --period`, else an hour in a run of two hours or more).
    pub period_s: f64,
    /// The throughput's unit ("NOPM" or "tps").
    pub unit: String,
    /// In time order; the last may be shorter.
    pub periods: Vec<Period>,
    /// The server figures that moved against the run from the first period to the last,
    /// the largest change first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<Moved>,
}

/// One period of the measured phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Period {
    /// Seconds since the run started.
    pub start_s: f64,
    /// See `start_s`.
    pub end_s: f64,
    /// Throughput over it, in the unit of [`Periods::unit`].
    pub throughput: f64,
    /// The median of its intervals' 95th percentile response times.
    pub p95_ms: f64,
    /// The server's figures over it, by name (`analysis::periods::FIGURES`; absent: not
    /// sampled).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub server: BTreeMap<String, f64>,
}

/// A figure that moved from the first period to the last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Moved {
    /// Its name, as in [`Period::server`], or "throughput".
    pub name: String,
    /// In the first period.
    pub first: f64,
    /// In the last.
    pub last: f64,
}

impl Moved {
    /// The change, % of the first (None from 0).
    pub fn change_pct(&self) -> Option<f64> {
        (self.first.abs() > 0.0).then(|| (self.last / self.first - 1.0) * 100.0)
    }
}
