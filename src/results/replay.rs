//! replay.json: what `txbench replay` measured of a replica's applier, stored beside the
//! primary's run (`run/`): the backlog the run left while the applier was stopped, how fast
//! the applier worked it off, and how that compares with the primary's rate.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The file's name in the replay directory.
pub const FILE: &str = "replay.json";

/// One catch-up measurement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// The primary sandbox.
    pub primary: String,
    /// The replica whose applier was measured.
    pub replica: String,
    /// UTC, RFC 3339: when the applier was stopped.
    pub started_at: String,
    /// The primary's run, a directory beside this file.
    pub run_dir: String,
    /// The primary's run as the driver measured it.
    pub primary_run: PrimaryRun,
    /// What the replica had to apply when its applier started again.
    pub backlog: Backlog,
    /// How the applier worked the backlog off.
    pub catch_up: CatchUp,
    /// The replay's New-Orders per minute over the primary's (the run's NOPM): above 1 the
    /// replica keeps up with this load. None when either is 0.
    pub ratio: Option<f64>,
    /// False when a figure cannot be trusted; `reasons` say why.
    pub valid: bool,
    /// Why it is INVALID.
    #[serde(default)]
    pub reasons: Vec<String>,
}

/// The primary's run (closed loop, or open loop with `--rate`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrimaryRun {
    /// Measured seconds.
    pub seconds: f64,
    /// New-Orders committed, as the driver counted them.
    pub new_orders: u64,
    /// New-Orders per minute (the run's NOPM).
    pub nopm: f64,
    /// Every kind's transactions per minute (the run's TPM, read-only kinds included).
    pub tpm: f64,
    /// Whether the run itself is valid.
    pub valid: bool,
}

/// The replica's backlog at the applier's start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Backlog {
    /// Transactions in the relay log not yet applied (GTID distance to the primary's
    /// @@gtid_binlog_pos after the run).
    pub transactions: u64,
    /// New-Orders the primary committed meanwhile (its SUM(D_NEXT_O_ID)'s increase).
    pub new_orders: u64,
    /// Seconds waited after the run for the IO thread to fetch the last of it.
    pub fetch_wait_s: f64,
    /// The primary's written transactions per minute over the run (the backlog over the
    /// run's seconds): what the applier must match.
    pub written_per_minute: f64,
}

/// The applier's catch-up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CatchUp {
    /// Seconds from START SLAVE SQL_THREAD until @@gtid_slave_pos reached the primary's
    /// position (or until it gave up).
    pub seconds: f64,
    /// Whether it reached the primary's position.
    pub caught_up: bool,
    /// Transactions applied (GTID distance covered).
    pub transactions: u64,
    /// New-Orders applied (the replica's SUM(D_NEXT_O_ID)'s increase).
    pub new_orders: u64,
    /// Transactions applied per minute.
    pub tpm: f64,
    /// New-Orders applied per minute.
    pub nopm: f64,
    /// The replica's status counters' increase over the catch-up (Handler_commit,
    /// Handler_write, Handler_update, Handler_delete, Com_commit).
    pub counters: BTreeMap<String, u64>,
}

/// `n` per `seconds`, per minute (0 when no time passed).
pub fn per_minute(n: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        n as f64 * 60.0 / seconds
    } else {
        0.0
    }
}

/// The balanced-rate search's file in the replay directory.
pub const BALANCED_FILE: &str = "balanced.json";

/// `replay --balanced`: the highest primary rate at which the replica's lag stays bounded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balanced {
    /// The primary sandbox.
    pub primary: String,
    /// The replica measured.
    pub replica: String,
    /// UTC, RFC 3339: when the first probe started.
    pub started_at: String,
    /// Seconds of lag (the peak backlog over the primary's writing rate) a probe may end
    /// with and still count as kept up.
    pub tolerance_s: f64,
    /// The probes, in the order they ran.
    pub probes: Vec<Probe>,
    /// The primary's NOPM in the fastest probe the replica kept up with (None: it kept up
    /// with none).
    pub balanced_nopm: Option<f64>,
    /// The primary's NOPM in the slowest probe it fell behind in (None: it fell behind in
    /// none, so `balanced_nopm` is a lower bound: the primary's own limit or --rate).
    pub behind_nopm: Option<f64>,
    /// False when a figure cannot be trusted; `reasons` say why.
    pub valid: bool,
    /// Why it is INVALID.
    #[serde(default)]
    pub reasons: Vec<String>,
}

/// One probe: the primary driven for `--time` seconds (closed loop, or open loop at
/// `rate`) with the replica applying, its lag sampled throughout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    /// The run's directory, beside balanced.json.
    pub run_dir: String,
    /// The open-loop rate asked for (transactions per second), None for closed loop.
    pub rate: Option<f64>,
    /// The primary's run as the driver measured it.
    pub primary_run: PrimaryRun,
    /// Transactions the primary wrote in the probe (GTID distance over it).
    pub written: u64,
    /// The largest backlog sampled (transactions the primary had committed and the replica
    /// had not applied).
    pub peak_backlog: u64,
    /// The peak backlog in seconds of the primary's writing (peak over written per second).
    pub lag_s: f64,
    /// Seconds the replica took, after the run, to hold its last transaction.
    pub drain_s: f64,
    /// Whether `lag_s` stayed within the tolerance.
    pub kept_up: bool,
}

impl Probe {
    /// A probe in one line, as the search goes and in the command's output.
    pub fn line(&self) -> String {
        let p = self;
        format!(
            "{}: {}, {:.0} NOPM; wrote {} transaction(s), peak backlog {} ({:.2} s), drained in {:.2} s: {}",
            p.run_dir,
            p.rate
                .map_or("closed loop".into(), |r| format!("--rate {r:.1}")),
            p.primary_run.nopm,
            p.written,
            p.peak_backlog,
            p.lag_s,
            p.drain_s,
            if p.kept_up { "kept up" } else { "fell behind" }
        )
    }
}

impl Balanced {
    /// The finding in words: the balanced rate, or the bound the probes found.
    pub fn finding(&self) -> String {
        let r = &self.replica;
        match (self.balanced_nopm, self.behind_nopm) {
            (Some(b), Some(h)) => format!(
                "replica {r} keeps up with the primary up to {b:.0} NOPM and falls behind at {h:.0} NOPM: its balanced replay speed is {b:.0}\u{2013}{h:.0} NOPM"
            ),
            (Some(b), None) => format!(
                "replica {r} keeps up with everything the primary ran ({b:.0} NOPM, the fastest probe): its balanced replay speed is at least that"
            ),
            (None, Some(h)) => format!(
                "replica {r} falls behind even at {h:.0} NOPM, the slowest probe: its balanced replay speed is below that"
            ),
            (None, None) => format!("replica {r}: no probe ran"),
        }
    }
}

impl Replay {
    /// The finding in words: how fast the replica applied against the primary's rate.
    pub fn finding(&self) -> String {
        let c = &self.catch_up;
        let keeps = match self.ratio {
            Some(r) if r >= 1.0 => format!("×{r:.2} the primary's rate: it keeps up"),
            Some(r) => format!("×{r:.2} the primary's rate: it falls behind"),
            None => "no rate to compare".into(),
        };
        format!(
            "replica {} replays {:.0} New-Orders/min ({:.0} transactions/min), {keeps} ({:.0} NOPM)",
            self.replica, c.nopm, c.tpm, self.primary_run.nopm
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_minute_is_zero_without_time_and_scales_seconds_to_minutes() {
        assert_eq!(per_minute(10, 0.0), 0.0);
        assert_eq!(per_minute(30, 15.0), 120.0);
    }
}
