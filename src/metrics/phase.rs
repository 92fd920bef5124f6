//! The phase a sample or an interval belongs to.

use serde::{Deserialize, Serialize};

/// The phase an interval belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Excluded from results.
    Warmup,
    /// Measured.
    Measure,
}
