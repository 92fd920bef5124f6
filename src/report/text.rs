//! Text output: the interval line DBAs know from sysbench, and the run summary.

use crate::metrics::LatencyStats;
use crate::results::{IntervalRow, Phase, RunResult, Summary, WorkloadReport};
use std::borrow::Cow;
use std::fmt::Write;

/// `s` as a terminal may safely show it: text from a result.json or a store (labels,
/// directories, names) may hold control characters (an escape sequence that rewrites the
/// screen, a carriage return or newline that forges a line, C1 codes) or bidirectional
/// overrides; each is written escaped (`\u{1b}`, `\n`), never sent raw.
pub fn shown(s: &str) -> Cow<'_, str> {
    escaped(s, |_| false)
}

/// [`shown`] for text of several lines that txbench laid out itself (a run's summary, a
/// comparison) but which holds strings from files: its newlines stay, every other control
/// character is escaped.
pub fn shown_lines(s: &str) -> Cow<'_, str> {
    escaped(s, |c| c == '\n')
}

/// `s` with every control character and bidirectional override but those `keep` allows
/// written escaped.
fn escaped(s: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        !keep(c)
            && (c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
    };
    if !s.chars().any(unsafe_char) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| {
                if unsafe_char(c) {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// `[ 10s ] thds: 16 tps: 812.31 qps: 16250.14 (r/w/o: 11375.0/3250.0/1625.1) lat (ms,95%): 27.66 err/s: 0.00 reconn/s: 0.00`
pub fn interval_line(row: &IntervalRow) -> String {
    let warm = if row.phase == Phase::Warmup {
        " (warm-up)"
    } else {
        ""
    };
    let targets = if row.targets.is_empty() {
        String::new()
    } else {
        format!(
            " targets tps: {}",
            row.targets
                .iter()
                .map(|t| format!("{:.2}", t.tps))
                .collect::<Vec<_>>()
                .join("/")
        )
    };
    format!(
        "[ {:.0}s ] thds: {} tps: {:.2} qps: {:.2} (r/w/o: {:.1}/{:.1}/{:.1}) lat (ms,95%): {:.2} err/s: {:.2} reconn/s: {:.2}{targets}{warm}",
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

/// ` [class: n, …]` of a count by class, or nothing when there is none.
fn by_class(m: &std::collections::BTreeMap<String, u64>) -> String {
    if m.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!(" [{}]", parts.join(", "))
}

fn lat_row(out: &mut String, label: &str, l: &LatencyStats) {
    let _ = writeln!(
        out,
        "    {label:<9} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>10.2}",
        l.min_ms, l.avg_ms, l.p50_ms, l.p90_ms, l.p95_ms, l.p99_ms, l.p999_ms, l.max_ms
    );
}

/// The stability lines of a summary.
fn stability(out: &mut String, st: &crate::results::Stability) {
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
            "  DECLINING:    throughput falls significantly over the run ({:+.1} % across its steady part, {:+.1} %/h): look for growing tables, purge lag or a filling log",
            st.change_pct.unwrap_or(0.0),
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
    heading(&mut out, r);
    if let Some(s) = &r.summary {
        measured(&mut out, r, s);
    } else {
        let _ = writeln!(out, "  no measured interval");
    }
    if let Some(st) = &r.stability {
        stability(&mut out, st);
    }
    if let Some(p) = &r.periods {
        let _ = writeln!(
            out,
            "  by period ({:.0} s each; server figures per transaction, then levels):",
            p.period_s
        );
        out.push_str(&super::periods::text(p, 4));
    }
    if let Some(w) = &r.workload_report {
        scorecard(&mut out, w);
    }
    if !r.database_growth.is_empty() {
        let _ = writeln!(
            out,
            "  database, start → end (≈: the server's estimate after ANALYZE): {}",
            crate::results::growth::summary_line(&r.database_growth)
        );
    }
    if let Some(sum) = r.summary.as_ref()
        && let Some(srv) = sum.server.as_ref()
    {
        server(&mut out, srv, sum.client_cpu_s);
    }
    remarks(&mut out, r);
    out
}

/// The summary's first line: the verdict, the status and what ran.
fn heading(out: &mut String, r: &RunResult) {
    let verdict = if r.validity.valid { "" } else { "INVALID " };
    let _ = writeln!(
        out,
        "\n{verdict}{} run of {} with {} threads ({} loop{}):",
        r.status.word(),
        r.config.workload,
        r.config.threads,
        r.loop_kind,
        r.config
            .rate
            .map(|x| format!(", --rate {x}"))
            .unwrap_or_default()
    );
}

/// What the measured phase gave: totals, failures, targets, client CPU, each kind's
/// latencies and the most frequent errors.
fn measured(out: &mut String, r: &RunResult, s: &Summary) {
    totals(out, r, s);
    failures(out, s);
    targets(out, s);
    if s.client_cpu_s > 0.0 && s.transactions > 0 {
        let _ = writeln!(
            out,
            "  client CPU:   {:.1} % of {} CPU(s), {:.3} s per 1,000 transactions",
            s.client_cpu_pct,
            r.client.cpus,
            s.client_cpu_s / s.transactions as f64 * 1000.0
        );
    }
    if let Some(c) = &s.client_users {
        let _ = writeln!(out, "  client:       {}", c.line());
    }
    kinds(out, s);
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
}

/// Transactions, queries, errors and the measured time.
fn totals(out: &mut String, r: &RunResult, s: &Summary) {
    let _ = writeln!(
        out,
        "  transactions: {} ({:.2} per sec.)\n  queries:      {} ({:.2} per sec.)  read/write/other: {}/{}/{}\n  errors:       {} ({:.2} per sec.){}  retries: {}{}  reconnects: {}{}\n  time:         {:.2} s measured after {:.0} s warm-up{}",
        s.transactions,
        s.tps,
        s.queries,
        s.qps,
        s.stmts.reads,
        s.stmts.writes,
        s.stmts.other,
        s.errors,
        s.errors as f64 / s.duration_s,
        by_class(&s.errors_by_class),
        s.retries,
        by_class(&s.retries_by_class),
        s.reconnects,
        match (s.cut, s.cut_uncommitted) {
            (0, 0) => String::new(),
            (c, 0) => format!("  cut at the end: {c}"),
            (c, u) => format!(
                "  cut at the end: {}, {u} of them before their COMMIT",
                c + u
            ),
        },
        s.duration_s,
        r.config.warmup_s,
        if s.overrun_s >= 1.0 {
            format!(
                " ({:.1} s past the requested {:.0} s, waiting for the transactions in flight)",
                s.overrun_s, r.config.time_s
            )
        } else {
            String::new()
        }
    );
}

/// The failures line, when there were errors or retries.
fn failures(out: &mut String, s: &Summary) {
    if s.errors + s.retries > 0 {
        // pgbench's --failures-detailed: what finally failed apart from what was retried
        // and then went through.
        let _ = writeln!(
            out,
            "  failures:     {} unexpected, {} after their retries ran out, {} lost with the connection; {} transactions retried then completed",
            s.unexpected_errors,
            s.failed_after_retries,
            s.errors
                .saturating_sub(s.unexpected_errors + s.failed_after_retries),
            s.retried_transactions
        );
    }
}

/// A line per target of a run against several servers, with a Galera node's conflicts.
fn targets(out: &mut String, s: &Summary) {
    for (i, t) in s.targets.iter().enumerate() {
        let _ = writeln!(
            out,
            "  target {} {}: {} thread(s), {} transactions ({:.2}/s), latency avg {:.2} ms p95 {:.2} ms, {} errors, {} reconnects",
            i + 1,
            t.url,
            t.threads,
            t.transactions,
            t.tps,
            t.response.avg_ms,
            t.response.p95_ms,
            t.errors,
            t.reconnects
        );
        if let Some(c) = &t.conflicts {
            let _ = writeln!(
                out,
                "    Galera conflicts (the node's counters; clients see all as deadlocks): {:.0} certification failures, {:.0} brute-force aborts, {} InnoDB deadlocks",
                c.cert_failures,
                c.bf_aborts,
                c.innodb_deadlocks.map_or("?".into(), |d| format!("{d:.0}"))
            );
        }
    }
}

/// The latency table: each transaction kind's counts, response and service times.
fn kinds(out: &mut String, s: &Summary) {
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
        // A kind that never ran (a script's purge, off by default) has no latencies.
        if k.completed == 0 && k.errors == 0 {
            continue;
        }
        lat_row(out, "response", &k.response);
        lat_row(out, "service", &k.service);
    }
}

/// The workload's headline figures and its scorecard.
fn scorecard(out: &mut String, w: &WorkloadReport) {
    let head: Vec<String> = w.headline.iter().map(|(k, v)| format!("{k} {v}")).collect();
    if !head.is_empty() {
        let _ = writeln!(out, "  {}", head.join("   "));
    }
    statement_latencies(out, w);
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

/// Each statement's mean latency and count per kind (pgbench -r).
fn statement_latencies(out: &mut String, w: &WorkloadReport) {
    let mut kind = None;
    for st in &w.statements {
        if kind != Some(&st.kind) {
            let _ = writeln!(
                out,
                "  statement latencies of {} (ms, count, line, command):",
                st.kind
            );
            kind = Some(&st.kind);
        }
        let _ = writeln!(
            out,
            "    {:>10.3} {:>10} {:>5}  {}",
            st.mean_ms, st.count, st.line, st.command
        );
    }
}

/// The summary's last lines: findings, profiles, events, notes and why the run is INVALID.
fn remarks(out: &mut String, r: &RunResult) {
    for f in &r.findings {
        let _ = writeln!(out, "  finding: {} (try: {})", f.finding, f.suggestion);
    }
    for p in &r.profiles {
        profile(out, p);
    }
    for e in &r.events {
        let _ = writeln!(out, "  event at {:.1} s: {}", e.t_s, e.what);
    }
    for n in &r.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    if !r.validity.valid {
        for reason in &r.validity.reasons {
            let _ = writeln!(out, "  INVALID: {reason}");
        }
    }
}

/// Functions of a profile shown in the summary (result.json has 15 of each).
const PROFILE_LINES: usize = 8;

/// A profile in the summary: what was sampled, the top functions by self and by total, the
/// subsystems, the findings.
fn profile(out: &mut String, p: &crate::results::Profile) {
    let _ = writeln!(
        out,
        "  profile of the {} ({}): {:.0} ms of CPU sampled by {} at {} Hz over {:.1} s (perf itself used {:.0} ms), {:.1} % in functions without a name; folded stacks in {}",
        p.what,
        p.processes.join(", "),
        p.cpu_ms,
        p.event,
        p.hz,
        p.seconds,
        p.perf_cpu_ms,
        p.unresolved_pct,
        p.file
    );
    let list = |v: &[crate::results::FnShare]| -> String {
        v.iter()
            .take(PROFILE_LINES)
            .map(|f| format!("{} {:.1} %", f.name, f.pct))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(out, "    self:       {}", list(&p.top_self));
    let _ = writeln!(out, "    total:      {}", list(&p.top_total));
    let _ = writeln!(out, "    subsystems: {}", list(&p.subsystems));
    for f in &p.findings {
        let _ = writeln!(out, "    finding: {f}");
    }
}

/// `name value` pairs of a figure map, in the order and with the labels of `labels`.
fn figures(m: &std::collections::BTreeMap<String, f64>, labels: &[(&str, &str)]) -> String {
    labels
        .iter()
        .filter_map(|(key, label)| {
            let v = crate::metrics::server::figure_text(*m.get(*key)?);
            Some(label.replace('#', &v))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Labels of the per-transaction figures (`#` is the value).
pub use crate::metrics::server::PER_TXN_LABELS;

const LEVEL_LABELS: &[(&str, &str)] = &[
    ("server_cpu_pct", "server CPU # %"),
    ("host_cpu_busy_pct", "host CPU busy # %"),
    ("host_iowait_pct", "iowait # %"),
    ("threads_running", "Threads_running #"),
    ("history_list_length", "history list #"),
    ("checkpoint_age_pct", "checkpoint age # %"),
    ("dirty_pages_pct", "dirty pages # %"),
    ("row_lock_time_ms_avg", "row lock wait # ms"),
    ("fsync_ms_avg", "fsync # ms"),
    ("disk_write_mb_per_s", "disk writes # MiB/s"),
    ("server_rss_mb", "server RSS # MiB"),
    ("active_transactions", "active transactions #"),
];

fn server(out: &mut String, s: &crate::metrics::server::ServerSummary, client_cpu_s: f64) {
    for (label, m, labels) in [
        ("per transaction: ", &s.per_transaction, PER_TXN_LABELS),
        ("per New-Order:   ", &s.per_new_order, PER_TXN_LABELS),
        ("averages: ", &s.averages, LEVEL_LABELS),
        ("peaks:    ", &s.peaks, LEVEL_LABELS),
    ] {
        let f = figures(m, labels);
        if !f.is_empty() {
            let _ = writeln!(out, "  server {label}{f}");
        }
    }
    for w in s.top_waits.iter().take(5) {
        let _ = writeln!(
            out,
            "  wait: {} ({}): {:.3} ms per transaction, {:.1} µs each, {:.0} % of time waited",
            w.event, w.class, w.wait_ms_per_txn, w.avg_us, w.share_pct
        );
    }
    for c in &s.cross_checks {
        let _ = writeln!(
            out,
            "  cross-check: {}: server {:.0}, txbench {:.0} ({}, {:.0} allowed{})",
            c.what,
            c.server,
            c.txbench,
            if c.agrees { "agree" } else { "DISAGREE" },
            c.allowed,
            if c.excess_allowed > 0.0 {
                format!(
                    ", txbench {:.0} more for transactions in flight when the warm-up ended",
                    c.excess_allowed
                )
            } else {
                String::new()
            }
        );
    }
    let _ = write!(
        out,
        "  server samples: {} ({} skipped), {:.1} ms each on average, {:.1} ms at most",
        s.samples, s.skipped_samples, s.sample_ms_avg, s.sample_ms_max
    );
    if let Some(port) = s.monitor_port {
        let _ = write!(out, ", through extra_port {port} (past the thread pool)");
    }
    if s.monitor_cpu_ms > 0.0 && client_cpu_s > 0.0 {
        let _ = write!(
            out,
            "; the monitor's own CPU {:.0} ms, {:.2} % of the client's",
            s.monitor_cpu_ms,
            s.monitor_cpu_ms / (client_cpu_s * 1000.0) * 100.0
        );
    }
    out.push('\n');
}

/// The table of a sweep: one line per level (TPC-C: NOPM and TPM first).
pub fn sweep_table(s: &crate::results::Sweep) -> String {
    let nopm = s.runs.iter().any(|l| l.nopm.is_some());
    let mut out = format!(
        "\nsweep of {}, {} level(s):\n  {:>7}  {}{:>12}  {:>9}  {:>9}  {:>8}  verdict\n",
        s.workload,
        s.levels.len(),
        "threads",
        if nopm {
            format!("{:>10}  {:>10}  ", "NOPM", "TPM")
        } else {
            String::new()
        },
        "tps",
        "p95 ms",
        "p99 ms",
        "errors"
    );
    for l in &s.runs {
        let per_minute = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.0}"));
        let _ = writeln!(
            out,
            "  {:>7}  {}{:>12.2}  {:>9.2}  {:>9.2}  {:>8}  {}",
            l.threads,
            if nopm {
                format!("{:>10}  {:>10}  ", per_minute(l.nopm), per_minute(l.tpm))
            } else {
                String::new()
            },
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
            failed_after_retries: 0,
            err_ps: 0.0,
            reconn_ps: 0.0,
            errors_by_class: BTreeMap::new(),
            kinds: vec![],
            client_cpu_pct: 0.0,
            targets: Vec::new(),
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
