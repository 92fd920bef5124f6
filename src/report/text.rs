//! Text output: the interval line DBAs know from sysbench, and the run summary.

use crate::metrics::LatencyStats;
use crate::results::{IntervalRow, Phase, RunResult, RunStatus};
use std::fmt::Write;

/// `[ 10s ] thds: 16 tps: 812.31 qps: 16250.14 (r/w/o: 11375.0/3250.0/1625.1) lat (ms,95%): 27.66 err/s: 0.00 reconn/s: 0.00`
pub fn interval_line(row: &IntervalRow) -> String {
    let warm = if row.phase == Phase::Warmup {
        " (warm-up)"
    } else {
        ""
    };
    format!(
        "[ {:.0}s ] thds: {} tps: {:.2} qps: {:.2} (r/w/o: {:.1}/{:.1}/{:.1}) lat (ms,95%): {:.2} err/s: {:.2} reconn/s: {:.2}{warm}",
        row.end_s,
        row.threads,
        row.tps,
        row.qps,
        row.reads_ps,
        row.writes_ps,
        row.other_ps,
        row.p95_ms,
        row.err_ps,
        row.reconn_ps
    )
}

fn lat_row(out: &mut String, label: &str, l: &LatencyStats) {
    let _ = writeln!(
        out,
        "    {label:<9} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>10.2}",
        l.min_ms, l.avg_ms, l.p50_ms, l.p90_ms, l.p95_ms, l.p99_ms, l.p999_ms, l.max_ms
    );
}

/// The stability lines of a summary.
fn stability(out: &mut String, st: &crate::stats::Stability) {
    let trend = format!("trend {}", st.trend_text());
    let _ = writeln!(
        out,
        "  stability:    mean {:.2} tps, CV {:.1} %, {trend}, jitter {:.1} % ({:.0} s window), {} stall(s)",
        st.mean_tps,
        st.cv * 100.0,
        st.jitter_pct,
        st.window_s,
        st.stalls.len()
    );
    if st.steady_start_s > st.configured_warmup_s + 1e-9 {
        let _ = writeln!(
            out,
            "  warm-up:      throughput settles at {:.0} s by MSER-5, after the {:.0} s configured: consider --warmup {:.0}",
            st.steady_start_s, st.configured_warmup_s, st.steady_start_s
        );
    }
    if st.declining {
        let _ = writeln!(
            out,
            "  DECLINING:    throughput falls significantly over the run ({:+.1} %/h): look for growing tables, purge lag or a filling log",
            st.slope_pct_per_hour.unwrap_or(0.0)
        );
    }
    for s in st.stalls.iter().take(5) {
        let _ = writeln!(
            out,
            "  stall:        {:.0}..{:.0} s at {:.1} tps (below 10 % of the median)",
            s.start_s, s.end_s, s.tps
        );
    }
}

/// The summary printed at the end of a run.
pub fn summary(r: &RunResult) -> String {
    let mut out = String::new();
    let verdict = if r.validity.valid { "" } else { "INVALID " };
    let _ = writeln!(
        out,
        "\n{verdict}{} run of {} with {} threads ({} loop{}):",
        match r.status {
            RunStatus::Completed => "completed",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Aborted => "aborted",
            RunStatus::Running => "unfinished",
        },
        r.config.workload,
        r.config.threads,
        r.loop_kind,
        r.config
            .rate
            .map(|x| format!(", --rate {x}"))
            .unwrap_or_default()
    );
    if let Some(s) = &r.summary {
        let _ = writeln!(
            out,
            "  transactions: {} ({:.2} per sec.)\n  queries:      {} ({:.2} per sec.)  read/write/other: {}/{}/{}\n  errors:       {} ({:.2} per sec.){}  retries: {}  reconnects: {}\n  time:         {:.2} s measured after {:.0} s warm-up",
            s.transactions,
            s.tps,
            s.queries,
            s.qps,
            s.stmts.reads,
            s.stmts.writes,
            s.stmts.other,
            s.errors,
            s.errors as f64 / s.duration_s,
            if s.errors_by_class.is_empty() {
                String::new()
            } else {
                format!(
                    " [{}]",
                    s.errors_by_class
                        .iter()
                        .map(|(k, v)| format!("{k}: {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
            s.retries,
            s.reconnects,
            s.duration_s,
            r.config.warmup_s
        );
        if s.client_cpu_s > 0.0 && s.transactions > 0 {
            let _ = writeln!(
                out,
                "  client CPU:   {:.1} % of {} CPU(s), {:.3} s per 1,000 transactions",
                s.client_cpu_pct,
                r.client.cpus,
                s.client_cpu_s / s.transactions as f64 * 1000.0
            );
        }
        let _ = writeln!(
            out,
            "  latency (ms)    {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}",
            "min", "avg", "p50", "p90", "p95", "p99", "p99.9", "max"
        );
        for k in &s.kinds {
            let _ = writeln!(
                out,
                "  {}: {} completed ({:.2}/s), {} rolled back, {} errors, {} retries",
                k.name, k.completed, k.tps, k.rolled_back, k.errors, k.retries
            );
            lat_row(&mut out, "response", &k.response);
            lat_row(&mut out, "service", &k.service);
        }
        for e in &s.top_errors {
            let _ = writeln!(
                out,
                "  error {}× [{}] in {}: {}",
                e.count,
                e.class.name(),
                e.kind,
                e.message
            );
        }
    } else {
        let _ = writeln!(out, "  no measured interval");
    }
    if let Some(st) = &r.stability {
        stability(&mut out, st);
    }
    if let Some(w) = &r.workload_report {
        let head: Vec<String> = w.headline.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(out, "  {}", head.join("   "));
        for l in &w.scorecard {
            let mark = match l.pass {
                Some(true) => "pass",
                Some(false) => "FAIL",
                None => "    ",
            };
            let _ = writeln!(
                out,
                "    {mark}  {:<30} {:>24}   {}",
                l.name, l.value, l.requirement
            );
        }
    }
    for n in &r.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    if !r.validity.valid {
        for reason in &r.validity.reasons {
            let _ = writeln!(out, "  INVALID: {reason}");
        }
    }
    out
}

/// The table of a sweep: one line per level.
pub fn sweep_table(s: &crate::results::Sweep) -> String {
    let mut out = format!(
        "\nsweep of {}, {} level(s):\n  {:>7}  {:>12}  {:>9}  {:>9}  {:>8}  verdict\n",
        s.workload,
        s.levels.len(),
        "threads",
        "tps",
        "p95 ms",
        "p99 ms",
        "errors"
    );
    for l in &s.runs {
        let _ = writeln!(
            out,
            "  {:>7}  {:>12.2}  {:>9.2}  {:>9.2}  {:>8}  {}",
            l.threads,
            l.tps,
            l.p95_ms,
            l.p99_ms,
            l.errors,
            if l.valid { "valid" } else { "INVALID" }
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn the_interval_line_matches_sysbench() {
        let row = IntervalRow {
            phase: Phase::Measure,
            start_s: 0.0,
            end_s: 10.0,
            threads: 16,
            transactions: 8123,
            tps: 812.31,
            qps: 16250.14,
            reads_ps: 11375.0,
            writes_ps: 3250.0,
            other_ps: 1625.14,
            p95_ms: 27.66,
            p99_ms: 40.0,
            service_p99_ms: 40.0,
            errors: 0,
            unexpected_errors: 0,
            err_ps: 0.0,
            reconn_ps: 0.0,
            errors_by_class: BTreeMap::new(),
            kinds: vec![],
            client_cpu_pct: 0.0,
        };
        assert_eq!(
            interval_line(&row),
            "[ 10s ] thds: 16 tps: 812.31 qps: 16250.14 (r/w/o: 11375.0/3250.0/1625.1) lat (ms,95%): 27.66 err/s: 0.00 reconn/s: 0.00"
        );
        let warm = IntervalRow {
            phase: Phase::Warmup,
            ..row
        };
        assert!(interval_line(&warm).ends_with("(warm-up)"));
    }
}
