//! What is computed from stored results (the measurement flow: sampler and metrics, then
//! results, then analysis, then report). So far: the cross-checks of a run and of a merge.

pub mod cross_checks;
