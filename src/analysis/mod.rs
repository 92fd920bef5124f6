//! What is computed from stored results (the measurement flow: sampler and metrics, then
//! results, then analysis, then report): pure statistics, a run's stability, the
//! Universal Scalability Law, the cross-checks of a run and of a merge.

pub mod cross_checks;
pub mod stability;
pub mod stats;
pub mod usl;
