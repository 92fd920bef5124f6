//! A finding as stored: one plain-language explanation of a result, with what to try
//! (`findings.rs` computes them).

use serde::{Deserialize, Serialize};

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The rule's name (`purge_lag`, `checkpoint_age`, `server_queue`,
    /// `io_bound`, `shared_cpu`, `page_splits`, `row_locks`).
    pub rule: String,
    /// What was seen, with its figure.
    pub finding: String,
    /// What to try.
    pub suggestion: String,
}
