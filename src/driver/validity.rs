//! The driver's own INVALID rules, checked as the run goes: a kind whose failures pass
//! --max-error-rate in an interval, a driver that used the client's CPUs (its numbers then
//! measure the client), and whether failed transactions point at a lost server.

use crate::config::RunConfig;
use crate::metrics::Recorder;
use crate::results::IntervalRow;

/// This process's resource usage, all threads (None: getrusage failed).
fn own_usage() -> Option<libc::rusage> {
    // SAFETY: an all-zero rusage is a valid value for getrusage to fill.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_SELF with a valid pointer.
    (unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } == 0).then_some(u)
}

/// CPU seconds this process has used, all threads.
pub(super) fn process_cpu_s() -> f64 {
    let secs = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    own_usage().map_or(0.0, |u| secs(u.ru_utime) + secs(u.ru_stime))
}

/// This process's peak resident memory so far, KiB (getrusage's maxrss).
pub(super) fn process_peak_rss_kib() -> u64 {
    own_usage().map_or(0, |u| u64::try_from(u.ru_maxrss).unwrap_or(0))
}

/// `cpu_s` of CPU over `wall_s` seconds as % of `cpus` CPUs.
pub(super) fn cpu_pct(cpu_s: f64, wall_s: f64, cpus: usize) -> f64 {
    if wall_s <= 0.0 {
        return 0.0;
    }
    cpu_s / (wall_s * cpus.max(1) as f64) * 100.0
}

/// Share of the client's CPUs above which the driver, not the database, sets the pace.
pub const SATURATED_CPU_PCT: f64 = 90.0;

/// The INVALID reason when the driver used at least [`SATURATED_CPU_PCT`] of the client's
/// CPUs over the measured phase: its numbers then measure the client.
pub fn saturation(cpu_s: f64, wall_s: f64, cpus: usize) -> Option<String> {
    let pct = cpu_pct(cpu_s, wall_s, cpus);
    (wall_s > 0.0 && pct >= SATURATED_CPU_PCT).then(|| {
        format!(
            "the driver is saturated: txbench used {pct:.0} % of the client's {cpus} CPU(s) over the measured phase, so the throughput measures the client, not the database; use fewer threads, --rate, or a bigger client"
        )
    })
}

/// Whether transactions of this interval failed with their connection (the server may be
/// gone).
pub(super) fn lost_server(rec: &Recorder) -> bool {
    rec.reconnects > 0 || rec.kinds.iter().any(|k| k.lost_with_connection() > 0)
}

fn top_messages(rec: &Recorder) -> String {
    let mut m: Vec<_> = rec
        .messages
        .iter()
        .filter(|m| m.class.counts_against_error_rate())
        .collect();
    m.sort_by_key(|e| std::cmp::Reverse(e.count));
    if m.is_empty() {
        return String::new();
    }
    let list: Vec<String> = m
        .iter()
        .take(3)
        .map(|m| format!("{}× {}: {}", m.count, m.kind, m.message))
        .collect();
    format!("; top errors: {}", list.join("; "))
}

/// The INVALID reason when a kind's failures in one measured interval (`row`, from `rec`)
/// pass --max-error-rate: finally failed attempts, whether by an unexpected error or after
/// their retries ran out. Each kind on its own, so a kind that is a small part of the mix
/// cannot fail unnoticed under the total.
pub(super) fn error_rate(row: &IntervalRow, rec: &Recorder, cfg: &RunConfig) -> Option<String> {
    for (k, stats) in row.kinds.iter().zip(&rec.kinds) {
        let attempts = k.completed + k.errors;
        let failed = stats.counted_failures();
        if attempts > 0 && failed as f64 > cfg.max_error_rate * attempts as f64 {
            let ran_out = stats.failed_after_retries();
            let how = match (stats.unexpected(), ran_out) {
                (_, 0) => "with unexpected errors".to_string(),
                (0, _) => format!(
                    "after their --retries {} retries ran out (deadlocks, lock waits, serialization failures)",
                    cfg.retries
                ),
                (u, r) => format!(
                    "({u} with unexpected errors, {r} after their --retries {} retries ran out)",
                    cfg.retries
                ),
            };
            return Some(format!(
                "{failed} of {attempts} {} transactions failed {how} in the interval ending at {:.0}s (more than --max-error-rate {}%){}",
                k.name,
                row.end_s,
                cfg.max_error_rate * 100.0,
                top_messages(rec)
            ));
        }
    }
    None
}

/// The least a run may overrun its requested end, seconds: the last sample and the
/// transactions in flight normally take milliseconds.
const OVERRUN_MIN_S: f64 = 5.0;

/// The INVALID reason when the measured phase ran `overrun_s` seconds past its requested
/// `requested_s`, more than a tenth of it or [`OVERRUN_MIN_S`]: the transactions in flight
/// at the end were held (a lock, a frozen server), and the figures include the wait.
pub(super) fn overrun(overrun_s: f64, requested_s: f64) -> Option<String> {
    let bound = (0.1 * requested_s).max(OVERRUN_MIN_S);
    (overrun_s > bound).then(|| {
        format!(
            "the measured phase ran {overrun_s:.1} s past its requested {requested_s:.0} s (more than {bound:.1} s allowed) waiting for the transactions in flight to finish: the throughput and latency include that wait"
        )
    })
}

/// The most transactions the end of a run may cut, as a share of those it completed: each
/// may or may not have ended on the server (its COMMIT sent, its statements counted), so
/// the cross-checks allow for each, and past this share they could no longer see another
/// client adding a tenth.
pub(super) const CUT_SHARE: f64 = 0.05;

/// The most transactions the end of a run may cut when it completed `completed`:
/// [`CUT_SHARE`] of them.
pub(super) fn most_cut(completed: u64) -> u64 {
    (CUT_SHARE * completed as f64) as u64
}

/// The INVALID reason when the end of the run cut more than [`most_cut`] allows.
pub(super) fn cut_too_many(cut: u64, completed: u64) -> Option<String> {
    (cut > most_cut(completed)).then(|| {
        format!(
            "{cut} transaction(s) were cut at the run's end, {:.0} % of the {completed} completed (more than {:.0} %): the server may or may not have counted each, so its counts cannot tell another client's work from theirs; run longer",
            cut as f64 / completed.max(1) as f64 * 100.0,
            CUT_SHARE * 100.0
        )
    })
}
