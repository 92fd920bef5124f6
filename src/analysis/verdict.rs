//! The one verdict path a run and a merge share: the server block of a summary (the
//! server's counters over the measured phase, per transaction and per New-Order, with how
//! the server was sampled), the reasons it gives to call the run INVALID (cross-checks that
//! disagree, checks that could not be made), and the findings drawn from it. The driver
//! feeds it the samplers' reports at the end of a run; `merge` the sampling shard's.

use crate::metrics::server::{Delta, ServerRow, ServerSummary};
use crate::results::{RunResult, Summary};

/// How the server was sampled, as the server block records it.
#[derive(Debug, Clone, Default)]
pub struct Sampling {
    /// Samples taken.
    pub samples: u64,
    /// Samples skipped (the previous one still running).
    pub skipped: u64,
    /// Mean time a sample took, ms.
    pub ms_avg: f64,
    /// Longest time a sample took, ms.
    pub ms_max: f64,
    /// The monitor thread's CPU over the measured phase, ms.
    pub monitor_cpu_ms: f64,
    /// What the sampler could not record, and why.
    pub not_recorded: Vec<String>,
    /// The port the monitor read the server through when not the users' (MariaDB's
    /// extra_port, past a thread pool).
    pub monitor_port: Option<u16>,
}

impl Sampling {
    /// As a sampler reported it.
    pub fn of_report(r: &crate::sampler::Report) -> Sampling {
        Sampling {
            samples: r.samples,
            skipped: r.skipped,
            ms_avg: r.sample_ms_sum / r.samples.max(1) as f64,
            ms_max: r.sample_ms_max,
            monitor_cpu_ms: r.monitor_cpu_s * 1000.0,
            not_recorded: r.not_recorded.clone(),
            monitor_port: r.monitor_port,
        }
    }

    /// As a stored server block recorded it (a shard's, for its merge).
    pub fn of_block(s: &ServerSummary) -> Sampling {
        Sampling {
            samples: s.samples,
            skipped: s.skipped_samples,
            ms_avg: s.sample_ms_avg,
            ms_max: s.sample_ms_max,
            monitor_cpu_ms: s.monitor_cpu_ms,
            not_recorded: s.not_recorded.clone(),
            monitor_port: s.monitor_port,
        }
    }

    /// Records how the server was sampled in `s`.
    pub fn record(self, s: &mut ServerSummary) {
        s.samples = self.samples;
        s.skipped_samples = self.skipped;
        s.sample_ms_avg = self.ms_avg;
        s.sample_ms_max = self.ms_max;
        s.monitor_cpu_ms = self.monitor_cpu_ms;
        s.not_recorded = self.not_recorded;
        s.monitor_port = self.monitor_port;
    }
}

/// The server block of `summary`: the server's counters over the measured phase (`measured`,
/// none when no sample opened it) divided by the summary's transactions and New-Orders, the
/// rows of server.csv for averages and peaks, and how the server was sampled. Cross-checks
/// are added by the caller, which knows what each target ran.
pub fn server_block(
    measured: Option<&Delta>,
    rows: &[ServerRow],
    summary: &Summary,
    sampling: Sampling,
) -> ServerSummary {
    let new_orders = summary
        .kinds
        .iter()
        .find(|k| k.name == "new_order")
        .map(|k| k.committed);
    let mut s = match measured {
        Some(m) => ServerSummary::of(m, rows, summary.transactions, new_orders),
        None => ServerSummary::default(),
    };
    sampling.record(&mut s);
    s
}

/// Why the server block makes its run INVALID: checks that could not be made where they
/// normally are, then cross-checks that disagree, in that order.
pub fn reasons(s: &ServerSummary) -> Vec<String> {
    s.checks_not_made
        .iter()
        .cloned()
        .chain(s.cross_checks.iter().filter_map(|c| c.reason()))
        .collect()
}

/// The INVALID reason for a measured phase in which no transaction completed: there is no
/// throughput or latency to report, and a 0 that passed as VALID would enter sweeps,
/// experiments and the store as a measurement (keying and think times longer than the run,
/// a --rate too low for its time, users that never got to a transaction). Judged on a run of
/// its own and on a merge, not on a shard: one shard may have nothing to do (`--events`
/// fewer than the shards, a short share of `--rate`).
pub fn nothing_measured(s: &Summary) -> Option<String> {
    (s.transactions == 0).then(|| {
        let failed = if s.errors > 0 {
            format!(" ({} failed)", s.errors)
        } else {
            String::new()
        };
        format!(
            "no transaction completed in the {:.0} s measured{failed}: nothing was measured (keying and think times, --rate or --time leave none?)",
            s.duration_s
        )
    })
}

/// Makes `result` INVALID for each of `reasons`, in order.
pub fn invalidate(result: &mut RunResult, reasons: impl IntoIterator<Item = String>) {
    for reason in reasons {
        result.validity.valid = false;
        result.validity.reasons.push(reason);
    }
}

/// Puts the server block into the run's summary and draws the findings from it and the
/// rows of server.csv.
pub fn conclude(result: &mut RunResult, block: ServerSummary, rows: &[ServerRow]) {
    if let Some(summary) = result.summary.as_mut() {
        summary.server = Some(block);
    }
    result.findings = super::findings::of(result, rows);
    result.periods = super::periods::of(result, rows);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{ErrorClass, Outcome, Recorder};

    #[test]
    fn a_measured_phase_without_a_completed_transaction_is_invalid() {
        let names = vec!["a".to_string()];
        let mut rec = Recorder::new(1);
        let none = Summary::of(&rec, &names, 30.0);
        let r = nothing_measured(&none).unwrap();
        assert!(
            r.starts_with("no transaction completed in the 30 s measured: nothing was measured"),
            "{r}"
        );
        rec.failed(0, "a", ErrorClass::Deadlock, "x");
        let failed = Summary::of(&rec, &names, 30.0);
        assert!(
            nothing_measured(&failed)
                .unwrap()
                .contains("measured (1 failed):"),
            "{failed:?}"
        );
        rec.completed(0, Outcome::Committed, 1000, 1000);
        let one = Summary::of(&rec, &names, 30.0);
        assert!(nothing_measured(&one).is_none());
    }
}
