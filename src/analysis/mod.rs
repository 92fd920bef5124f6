//! What is computed from stored results (the measurement flow: sampler and metrics, then
//! results, then analysis, then report): pure statistics, a run's stability, the
//! Universal Scalability Law, the cross-checks, the findings, and the verdict path a run
//! and a merge share.

pub mod changepoint;
pub mod compare;
pub mod cross_checks;
pub mod findings;
pub mod history;
pub mod merge;
pub mod periods;
pub mod profile;
pub mod robust;
#[cfg(test)]
pub mod sim;
pub mod spending;
pub mod stability;
pub mod stats;
pub mod story;
pub mod usl;
pub mod verdict;
