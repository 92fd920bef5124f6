//! The story first (issue 42) for a run, a sweep, a comparison and a history: a few
//! sentences a person can act on, computed from what is stored, the doubtful first. The
//! experiment's own is `experiment::summary`. The report (HTML, the top of the page), the
//! commands (text, the end of their output) and `--markdown` render these lines; the names in
//! them come from stored files and are escaped by whoever renders them.

use super::compare::Row;
use super::history::History;
use super::stats::Verdict;
use super::usl::Usl;
use crate::results::{RunResult, SweepLevel};
use crate::store::grouped;

/// Findings a run's story names (the rest are in the run's section).
const FINDINGS: usize = 2;
/// Reasons an INVALID run's story names before it counts the rest.
const REASONS: usize = 2;
/// Error share of attempts from which a run's story mentions its errors, %.
const ERRORS_PCT: f64 = 1.0;
/// Fall from a sweep's peak to its last level that the story calls a fall, %.
const FALL_PCT: f64 = 5.0;

/// A throughput as printed: "12,345 tps", "45,678 NOPM"; below 100, one decimal.
fn rate(value: f64, unit: &str) -> String {
    if value.abs() < 100.0 {
        format!("{value:.1} {unit}")
    } else {
        format!("{} {unit}", grouped(value.round().max(0.0) as u64))
    }
}

/// "a; b (and 3 more)".
fn first_of(items: &[String], n: usize) -> String {
    let mut s = items.iter().take(n).cloned().collect::<Vec<_>>().join("; ");
    if items.len() > n {
        s.push_str(&format!(" (and {} more)", items.len() - n));
    }
    s
}

/// A run's story: its verdict and headline figures, a decline, what the server's figures
/// say (its findings) and errors that matter.
pub fn run(r: &RunResult) -> Vec<String> {
    let t = r.throughput();
    let mut out = Vec::new();
    let Some(s) = &r.summary else {
        out.push(format!(
            "{}: no measured interval, so no figures ({}).",
            if r.validity.valid {
                "No result"
            } else {
                "INVALID"
            },
            r.status.word()
        ));
        return out;
    };
    let what = format!(
        "{} at {} threads over {:.0} s; p95 {:.2} ms, p99 {:.2} ms",
        rate(t.value, t.unit),
        r.config.threads,
        s.duration_s,
        s.response.p95_ms,
        s.response.p99_ms
    );
    if r.validity.valid {
        out.push(format!("VALID: {what}."));
    } else {
        out.push(format!(
            "INVALID, do not use these figures: {}. Measured: {what}.",
            first_of(&r.validity.reasons, REASONS)
        ));
    }
    if let Some(st) = &r.stability
        && st.declining
    {
        let change = st.change_pct.map_or(String::new(), |c| {
            format!(" {c:+.1} % over the measured phase,")
        });
        out.push(format!(
            "Throughput declined:{change} trend {}. The server's figures over time (history list, checkpoint age, page splits, the tables' growth) show why.",
            st.trend_text()
        ));
    }
    for f in r.findings.iter().take(FINDINGS) {
        out.push(format!("Finding: {} (try: {}).", f.finding, f.suggestion));
    }
    let attempts = s.transactions + s.errors;
    if attempts > 0 {
        let pct = 100.0 * s.errors as f64 / attempts as f64;
        if pct >= ERRORS_PCT {
            let classes: Vec<String> = s
                .errors_by_class
                .iter()
                .map(|(c, n)| format!("{c} {}", grouped(*n)))
                .collect();
            out.push(format!(
                "{pct:.1} % of attempts failed ({}); throughput counts only the transactions that ended as they should.",
                classes.join(", ")
            ));
        }
    }
    out
}

/// A level's throughput and its unit: NOPM for TPC-C's, else tps.
fn level_rate(l: &SweepLevel) -> (f64, &'static str) {
    l.nopm.map_or((l.tps, "tps"), |n| (n, "NOPM"))
}

/// A sweep's story from its levels (sweep.json's, in order of threads): the peak and the
/// scaling to it, the fall after it with the latency it costs, the USL's reading, and the
/// INVALID levels.
pub fn sweep(levels: &[SweepLevel]) -> Vec<String> {
    let mut out = Vec::new();
    let invalid: Vec<String> = levels
        .iter()
        .filter(|l| !l.valid)
        .map(|l| format!("{} threads ({})", l.threads, first_of(&l.reasons, 1)))
        .collect();
    if !invalid.is_empty() {
        out.push(format!(
            "INVALID levels, left out of what follows: {}.",
            first_of(&invalid, REASONS)
        ));
    }
    let mut valid: Vec<&SweepLevel> = levels.iter().filter(|l| l.valid).collect();
    valid.sort_by_key(|l| l.threads);
    let Some(peak) = valid
        .iter()
        .copied()
        .max_by(|a, b| level_rate(a).0.total_cmp(&level_rate(b).0))
    else {
        out.push("No valid level: the sweep has no figure to tell.".into());
        return out;
    };
    out.push(peak_line(&valid, peak));
    match fall_line(&valid, peak) {
        Some(l) => out.push(l),
        None if valid.len() > 1 => out.push(format!(
            "The peak is at the most threads measured: more than {} may go higher.",
            peak.threads
        )),
        None => {}
    }
    let pts: Vec<(f64, f64)> = valid
        .iter()
        .map(|l| (f64::from(l.threads), level_rate(l).0))
        .collect();
    if let Some(u) = Usl::fit(&pts) {
        out.push(usl_line(&u, level_rate(peak).1));
    }
    out
}

/// "Peak: 12,345 tps at 16 threads (p95 …), 9.8× the 900 tps of 1 thread(s) with 16× the threads."
fn peak_line(valid: &[&SweepLevel], peak: &SweepLevel) -> String {
    let (top, unit) = level_rate(peak);
    let mut line = format!(
        "Peak: {} at {} threads (p95 {:.2} ms)",
        rate(top, unit),
        peak.threads,
        peak.p95_ms
    );
    if let Some(first) = valid.first().filter(|f| f.threads < peak.threads) {
        let base = level_rate(first).0;
        if base > 0.0 {
            line.push_str(&format!(
                ", {:.1}× the {} of {} thread(s) with {:.0}× the threads",
                top / base,
                rate(base, unit),
                first.threads,
                f64::from(peak.threads) / f64::from(first.threads)
            ));
        }
    }
    line.push('.');
    line
}

/// The fall from the peak to the most threads measured, with the latency it costs.
fn fall_line(valid: &[&SweepLevel], peak: &SweepLevel) -> Option<String> {
    let last = valid.last().filter(|l| l.threads > peak.threads)?;
    let ((top, unit), end) = (level_rate(peak), level_rate(last).0);
    if top <= 0.0 {
        return None;
    }
    let fall = 100.0 * (end / top - 1.0);
    Some(if fall <= -FALL_PCT {
        format!(
            "Past the peak, more threads cost throughput: {} at {} threads ({fall:+.1} %) while p95 rose from {:.2} to {:.2} ms.",
            rate(end, unit),
            last.threads,
            peak.p95_ms,
            last.p95_ms
        )
    } else {
        format!(
            "Past the peak, throughput holds ({fall:+.1} % at {} threads) while p95 goes from {:.2} to {:.2} ms: the extra threads queue.",
            last.threads, peak.p95_ms, last.p95_ms
        )
    })
}

/// The USL's reading: which of contention and coherency limits it, and where it peaks.
fn usl_line(u: &Usl, unit: &str) -> String {
    let limit = if u.kappa > 0.0 && u.kappa * 10.0 >= u.sigma {
        "coherency (crosstalk, κ) bends the curve down"
    } else if u.sigma > 0.0 {
        "contention (serialisation, σ) flattens the curve"
    } else {
        "neither contention nor coherency shows yet"
    };
    let peak = match (u.peak_n, u.peak_x) {
        (Some(n), Some(x)) => format!(", its fitted peak {} at {n:.0} threads", rate(x, unit)),
        _ => String::new(),
    };
    format!(
        "The Universal Scalability Law fits with R² {:.2}: {limit} (σ {:.4}, κ {:.6}){peak}.",
        u.r2, u.sigma, u.kappa
    )
}

/// Subsystems and functions a profile line names, each.
const MOVED: usize = 2;

/// A comparison's story: per NEW (named in `names`), its verdicts over the thread counts,
/// the largest decided change with its interval, and runs whose figures were withheld or
/// INVALID; then, per NEW with a server profile (`profiles`, labelled as `names`), the
/// subsystems and functions whose share of the server's CPU moved most.
pub fn comparison(
    rows: &[Row],
    names: &[String],
    profiles: &[(String, super::profile::ProfileDiff)],
) -> Vec<String> {
    let mut out = Vec::new();
    let unit = rows.first().map_or("tps", |r| r.base.unit);
    let base_invalid: Vec<u32> = rows
        .iter()
        .filter(|r| !r.base.valid)
        .map(|r| r.threads)
        .collect();
    if !base_invalid.is_empty() {
        out.push(format!(
            "BASE is INVALID at {} thread(s): nothing compared there can be trusted.",
            join(&base_invalid)
        ));
    }
    for (i, name) in names.iter().enumerate() {
        out.push(new_line(rows, i, name, unit));
    }
    out.extend(
        profiles
            .iter()
            .filter_map(|(label, d)| profile_line(label, d)),
    );
    out
}

/// "NEW1's server CPU moved: btr (B-tree) 12.0 % → 30.5 %, …; functions: f 3.0 % → 9.1 %."
fn profile_line(label: &str, d: &super::profile::ProfileDiff) -> Option<String> {
    let shown = |rows: Vec<&super::profile::FnDiff>| -> Vec<String> {
        rows.iter()
            .take(MOVED)
            .map(|r| format!("{} {:.1} % → {:.1} %", r.name, r.base_pct, r.new_pct))
            .collect()
    };
    let subsystems = shown(d.moved_subsystems().collect());
    let functions = shown(d.functions.iter().filter(|f| f.moved()).collect());
    if subsystems.is_empty() && functions.is_empty() {
        return Some(format!(
            "{label}'s server CPU is spread as BASE's: no subsystem or function moved by a point or more."
        ));
    }
    let mut parts = Vec::new();
    if !subsystems.is_empty() {
        parts.push(format!("by subsystem {}", subsystems.join(", ")));
    }
    if !functions.is_empty() {
        parts.push(format!("functions (self) {}", functions.join(", ")));
    }
    Some(format!(
        "{label}'s server CPU moved against BASE's: {}.",
        parts.join("; ")
    ))
}

/// Thread counts as listed: "1, 2, 4".
pub fn join(threads: &[u32]) -> String {
    threads
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One NEW against BASE over the thread counts.
fn new_line(rows: &[Row], i: usize, name: &str, unit: &str) -> String {
    let mut faster = Vec::new();
    let mut slower = Vec::new();
    let mut same = Vec::new();
    let mut untold = Vec::new();
    let mut largest: Option<(u32, &super::stats::Difference)> = None;
    for r in rows {
        let Some(s) = r.new.get(i).and_then(Option::as_ref) else {
            continue;
        };
        match (&s.vs_base, s.valid) {
            (Some(d), true) => {
                match d.verdict {
                    Verdict::Faster => faster.push(r.threads),
                    Verdict::Slower => slower.push(r.threads),
                    Verdict::NoSignificantDifference => same.push(r.threads),
                }
                let decided = d.verdict != Verdict::NoSignificantDifference;
                if decided
                    && largest.is_none_or(|(_, l)| d.deviation_pct.abs() > l.deviation_pct.abs())
                {
                    largest = Some((r.threads, d));
                }
            }
            _ => untold.push(r.threads),
        }
    }
    let mut parts = Vec::new();
    for (word, v) in [
        ("faster", &faster),
        ("slower", &slower),
        ("no significant difference", &same),
    ] {
        if !v.is_empty() {
            parts.push(format!("{word} at {} thread(s)", join(v)));
        }
    }
    if !untold.is_empty() {
        parts.push(format!(
            "no verdict at {} (INVALID, unfinished or too few intervals)",
            join(&untold)
        ));
    }
    let mut line = format!("{name} against BASE: {}", parts.join("; "));
    if let Some((t, d)) = largest {
        line.push_str(&format!(
            ". Largest: {:+.1} % {unit} [{:+.1}, {:+.1}] at {t} threads (95 % confidence)",
            d.deviation_pct, d.ci_pct.0, d.ci_pct.1
        ));
    }
    line.push('.');
    line
}

/// A history's story: the latest value against the level before it, and its last change
/// point with its interval and whether it was a regression.
pub fn history(h: &History) -> Vec<String> {
    let mut out = Vec::new();
    let Some(last) = h.points.last() else {
        out.push(format!(
            "No valid run has {} yet ({} left out).",
            h.figure,
            h.left_out.len()
        ));
        return out;
    };
    let when = last
        .label
        .clone()
        .unwrap_or_else(|| last.started_at.clone());
    out.push(format!(
        "Latest {}: {} ({when}), over {} valid run(s).",
        h.figure,
        crate::metrics::server::figure_text(last.value),
        h.points.len()
    ));
    match h.steps.last() {
        None => out.push("No change point found: no step stands out of the series' noise.".into()),
        Some(s) => {
            let c = &s.change;
            let interval = c
                .interval_pct
                .map_or(String::new(), |(a, b)| format!(" [{a:+.1}, {b:+.1}]"));
            out.push(format!(
                "{} at {}: {} → {} ({:+.1} %{interval}, p {:.3}){}.",
                if s.regression {
                    "A regression"
                } else {
                    "A change"
                },
                s.first_after,
                crate::metrics::server::figure_text(c.before),
                crate::metrics::server::figure_text(c.after),
                c.step_pct,
                c.p_value,
                if h.steps.len() > 1 {
                    format!(", the last of {} change points", h.steps.len())
                } else {
                    String::new()
                }
            ));
        }
    }
    if !h.left_out.is_empty() {
        out.push(format!(
            "{} INVALID or unfinished run(s) left out of the series.",
            h.left_out.len()
        ));
    }
    out
}

#[cfg(test)]
#[path = "story/tests.rs"]
mod tests;
