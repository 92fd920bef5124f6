//! The driver's options of `run`: threads and levels, time, warm-up, rate, retries, validity
//! limits, output, shards.

use super::*;

/// The driver's options (any workload).
#[derive(Debug, Args, Clone)]
pub struct DriverArgs {
    /// Virtual users, one connection each (default 1). Several levels make a sweep, each
    /// level a run of its own on the same data: 1,2,4,8 or 1..64x2 (doubling) or 4..24+4 (steps).
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = crate::config::ThreadLevels::parse)]
    pub threads: Option<crate::config::ThreadLevels>,
    /// Run against this sandbox server (repeatable, instead of --url): virtual users are
    /// dealt round-robin over them, e.g. the nodes of a Galera cluster (g, g-g2, g-g3).
    #[arg(long = "server", global = true, value_name = "NAME")]
    pub servers: Vec<String>,
    /// Resume the interrupted sweep in DIR: completed levels are kept, the rest run.
    #[arg(long, global = true, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Measured seconds (after the warm-up).
    #[arg(long, global = true, default_value_t = 10.0, allow_negative_numbers = true, value_parser = positive_secs)]
    pub time: f64,
    /// Warm-up seconds, run but excluded from results.
    #[arg(long, global = true, default_value_t = 0.0, allow_negative_numbers = true, value_parser = non_negative_secs)]
    pub warmup: f64,
    /// Stop after this many measured transactions (or at --time, whichever comes first).
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub events: Option<u64>,
    /// Seconds per interval line.
    #[arg(long, global = true, default_value_t = 10.0, value_parser = positive_secs)]
    pub report_interval: f64,
    /// Open loop: this many transactions per second on a shared schedule; latency counts
    /// from the intended start.
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = positive_secs)]
    pub rate: Option<f64>,
    /// Arrival process with --rate.
    #[arg(long, global = true, value_enum, default_value_t = crate::config::RateDist::Poisson)]
    pub rate_dist: crate::config::RateDist,
    /// Seed of all random inputs (default: from the clock; always recorded).
    #[arg(long, global = true)]
    pub seed: Option<u64>,
    /// Retries after a deadlock, lock-wait timeout or serialization failure; an attempt
    /// whose retries run out counts against --max-error-rate.
    #[arg(long, global = true, default_value_t = 3)]
    pub retries: u32,
    /// Percent of a kind's transactions in an interval that may finally fail (unexpected
    /// errors, or contention whose retries ran out) before the run stops as INVALID.
    #[arg(long, global = true, default_value_t = 5.0, allow_negative_numbers = true, value_parser = percent)]
    pub max_error_rate: f64,
    /// Transaction isolation level for every connection (default: the server's).
    #[arg(long, global = true, value_enum)]
    pub isolation: Option<crate::config::Isolation>,
    /// Window of the stability figures' jitter, seconds (default: one tenth of the run).
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = positive_secs)]
    pub stability_window: Option<f64>,
    /// Seconds per period of the run's by-period table (throughput, p95 and the server
    /// figures that explain a decline, per period); default: an hour in a run of two hours
    /// or more, else no table.
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = positive_secs)]
    pub period: Option<f64>,
    /// Run the virtual users as fibers on N threads instead of a thread each: one thread
    /// then waits on many users' sockets at once, as HammerDB's asynchronous clients do
    /// (for thousands of users; not with --rate).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub client_threads: Option<u32>,
    /// Sample only the server's Uptime (restarts, a frozen server), not its counters and
    /// /proc: for measuring what the server metrics cost.
    #[arg(long, global = true)]
    pub no_server_metrics: bool,
    /// Sample where the CPU went over the measured phase with perf (server: its processes,
    /// on this host; client: txbench; both): folded stacks in the run directory, the top
    /// functions and subsystems in the summary, a flame graph in the report.
    #[arg(long, global = true, value_enum, value_name = "WHAT", num_args = 0..=1, default_missing_value = "server")]
    pub profile: Option<crate::config::Profiling>,
    /// A label for the results store, KEY=VALUE (commit=3f2a1c, branch=main): recorded in
    /// result.json and the store, to filter and order runs by (`txbench runs`, `history
    /// --by`); repeatable.
    #[arg(long = "label", global = true, value_name = "KEY=VALUE")]
    pub labels: Vec<String>,
    /// Pin the driver (every virtual user) to these CPUs, e.g. 1 or 0-1,3; the pre-flight
    /// records them beside the server's.
    #[arg(long, global = true, value_name = "LIST")]
    pub cpus: Option<String>,
    /// Run directory (default: runs/<UTC time>-<workload>-t<threads>; a sweep's:
    /// runs/<UTC time>-<workload>-sweep).
    #[arg(long, global = true)]
    pub out: Option<PathBuf>,
    /// Run shard K of N (K from 1) of a run driven from several client processes: this one
    /// takes its part of the virtual users (TPC-C: the terminals of its own home
    /// warehouses), of --events and of --rate; `txbench merge` combines the shards' run
    /// directories. Also read from JOB_COMPLETION_INDEX (from 0) with TXBENCH_SHARDS.
    #[arg(long, global = true, value_name = "K/N", value_parser = crate::shard::Shard::parse)]
    pub shard: Option<crate::shard::Shard>,
    /// Start at TIME, in the database server's clock, once every connection is open: RFC 3339
    /// (2026-11-24T18:00:00Z) or seconds since the epoch. Shards given the same time start
    /// together; a sweep's level L starts (L-1) x (warm-up + time + 10 s, + 80 s with
    /// TPC-C's --delivery deferred) later.
    #[arg(long, global = true, value_name = "TIME", value_parser = crate::shard::parse_start_at)]
    pub start_at: Option<std::time::SystemTime>,
}

pub(super) fn positive_secs(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() || v <= 0.0 {
        return Err(format!("must be greater than 0, got {s}"));
    }
    Ok(v)
}

pub(super) fn non_negative_secs(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("must be 0 or more, got {s}"));
    }
    Ok(v)
}

pub(super) fn percent(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !(0.0..=100.0).contains(&v) {
        return Err(format!("must be between 0 and 100, got {s}"));
    }
    Ok(v)
}

/// `on|off|true|false|1|0`, as sysbench spells booleans.
pub(super) fn on_off(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(format!("'{s}' is not on or off")),
    }
}
