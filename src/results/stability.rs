//! How steady a run was, as stored (`stats.rs` computes it from the measured intervals).

use serde::{Deserialize, Serialize};

/// An interval whose throughput fell below 10 % of the run's median.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stall {
    /// Seconds since the run started.
    pub start_s: f64,
    /// See `start_s`.
    pub end_s: f64,
    /// Its throughput.
    pub tps: f64,
}

/// How steady a run's throughput was (computed from the measured intervals).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stability {
    /// Measured intervals the figures come from.
    pub intervals: usize,
    /// The configured warm-up, seconds.
    pub configured_warmup_s: f64,
    /// Where steady state starts by MSER-5, seconds since the run started (the configured
    /// warm-up when the measured phase was steady from its first interval).
    pub steady_start_s: f64,
    /// Mean throughput of the measured intervals, per second.
    pub mean_tps: f64,
    /// Coefficient of variation of the interval throughputs (standard deviation / mean).
    pub cv: f64,
    /// Least-squares trend of throughput, % of the mean per hour (None below
    /// [`crate::analysis::stability::MIN_TREND_INTERVALS`] intervals).
    pub slope_pct_per_hour: Option<f64>,
    /// Its 95 % confidence interval.
    pub slope_ci_pct_per_hour: Option<(f64, f64)>,
    /// Throughput falls significantly and by at least [`crate::analysis::stability::DECLINE_PCT`] over the run (see
    /// [`crate::analysis::stability::decline`]).
    pub declining: bool,
    /// The fitted change across the measured phase, % of its mean (None below
    /// [`crate::analysis::stability::MIN_DECLINE_INTERVALS`] intervals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change_pct: Option<f64>,
    /// The jitter window, seconds.
    pub window_s: f64,
    /// Largest deviation of a sliding-window mean from the overall mean, % of the mean.
    pub jitter_pct: f64,
    /// Intervals below 10 % of the median throughput.
    pub stalls: Vec<Stall>,
}
