//! The record of a CPU profile (`run --profile`): what was sampled and how, where the folded
//! stacks are, and what they say (computed by `analysis::profile`).

use serde::{Deserialize, Serialize};

/// A function's (or a subsystem's) share of the samples.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FnShare {
    /// Its name.
    pub name: String,
    /// % of the profile's CPU time.
    pub pct: f64,
}

/// One profile of the measured phase: the server's processes, or the client's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// "server" or "client".
    pub what: String,
    /// The processes sampled, "PID (command)".
    pub processes: Vec<String>,
    /// The perf event sampled (cpu-clock: on-CPU time, with or without hardware counters).
    pub event: String,
    /// Samples per second per CPU asked for.
    pub hz: u32,
    /// Seconds sampled (the measured phase).
    pub seconds: f64,
    /// CPU time the samples stand for, ms (perf's cpu-clock weighs each sample by its period in
    /// ns; the folded stacks' counts are those ns).
    pub cpu_ms: f64,
    /// perf's own CPU while it recorded, ms (what sampling took from the host).
    #[serde(default)]
    pub perf_cpu_ms: f64,
    /// The folded stacks, gzip, in the run directory ("root;…;leaf COUNT" a line).
    pub file: String,
    /// % of the CPU time in functions perf could not name (`[unknown]`, or only the binary's
    /// name: a stripped binary without its debug symbols, a JIT): the leaf has no name.
    pub unresolved_pct: f64,
    /// % of the CPU time whose stack passes through such a frame anywhere (its callers or
    /// callees are named, but what lies between is not).
    #[serde(default)]
    pub unresolved_stacks_pct: f64,
    /// The functions that were on the CPU themselves, largest first.
    pub top_self: Vec<FnShare>,
    /// The functions on the stack (themselves or what they called), largest first.
    pub top_total: Vec<FnShare>,
    /// The share per subsystem, where names make it clear ("other" for the rest).
    pub subsystems: Vec<FnShare>,
    /// What the profile says to try, a sentence each with its figure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<String>,
}

/// The folded stacks of a profile file (gzip), as `run --profile` wrote them.
pub fn read_folded(path: &std::path::Path) -> anyhow::Result<String> {
    let f = crate::owned::open(path)?;
    let bytes = super::files::read_capped(flate2::read::GzDecoder::new(f), path)?;
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{}: not text", path.display()))
}
