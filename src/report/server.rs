//! The report's Server sections: per run, throughput and the key server figures on one time
//! axis (small multiples), the top waits over time, the findings and the server's figures;
//! across runs, the "why" table (the server figures of each run against the first). Built
//! from result.json, server.csv and waits.csv only.

use super::charts::{Chart, Series};
use super::page::{RunRef, esc, push_chart, slug};
use crate::metrics::server::{ServerRow, ServerSummary, why};
use crate::metrics::waits::WaitRow;
use crate::results::Phase;
use anyhow::Result;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A series of a panel: the server.csv column, its legend, and the factor it is drawn with.
type PanelSeries = (&'static str, &'static str, f64);

/// The small multiples after throughput: title, y axis, and the series.
const PANELS: &[(&str, &str, &[PanelSeries])] = &[
    (
        "CPU",
        "%",
        &[
            ("server_cpu_pct", "server process", 1.0),
            ("host_cpu_busy_pct", "host busy", 1.0),
            ("host_iowait_pct", "iowait", 1.0),
        ],
    ),
    (
        "Threads_running",
        "threads",
        &[("threads_running", "running", 1.0)],
    ),
    (
        "Row lock waits",
        "per second",
        &[("row_lock_waits_per_s", "waits", 1.0)],
    ),
    (
        "B-tree page splits and reorganisations",
        "per second",
        &[
            ("page_splits_per_s", "splits", 1.0),
            ("page_reorgs_per_s", "reorganisations", 1.0),
        ],
    ),
    (
        "History list length (purge lag)",
        "undo records",
        &[("history_list_length", "history list", 1.0)],
    ),
    (
        "Checkpoint age and dirty pages",
        "%",
        &[
            ("checkpoint_age_pct", "checkpoint age", 1.0),
            ("dirty_pages_pct", "dirty pages", 1.0),
        ],
    ),
    (
        "Redo written",
        "MB per second",
        &[("redo_bytes_per_s", "redo", 1e-6)],
    ),
    (
        "Buffer pool reads from disk",
        "pages per second",
        &[("bp_reads_per_s", "reads", 1.0)],
    ),
    (
        "Disk of the data directory",
        "MiB per second",
        &[
            ("disk_write_mb_per_s", "written", 1.0),
            ("disk_read_mb_per_s", "read", 1.0),
        ],
    ),
    ("fsync time", "ms", &[("fsync_ms_avg", "average", 1.0)]),
    // Topologies (empty, so not drawn, for a server on its own).
    ("Replica lag", "seconds", &[("replica_lag_s", "lag", 1.0)]),
    (
        "Replica GTID distance",
        "transactions behind",
        &[("replica_gtid_behind", "behind", 1.0)],
    ),
    (
        "Semi-synchronous replication",
        "1 on, 0 fell back",
        &[("semisync_on", "on", 1.0)],
    ),
    (
        "Galera cluster size",
        "nodes",
        &[("galera_cluster_size", "nodes", 1.0)],
    ),
    (
        "Galera flow control",
        "% of the time paused",
        &[("galera_flow_control_pct", "paused", 1.0)],
    ),
    (
        "Galera certification failures",
        "per second",
        &[("galera_cert_failures_per_s", "failures", 1.0)],
    ),
];

/// Wait events charted over time.
const CHARTED_WAITS: usize = 5;

/// The Server section of one run (nothing when the run has no server figures).
pub(super) fn section(
    h: &mut String,
    charts: &mut Vec<Chart>,
    n: usize,
    x: &RunRef<'_>,
) -> Result<()> {
    let rows = crate::results::read_file(&x.dir.join("server.csv"))
        .map(|t| ServerRow::parse_csv(&String::from_utf8_lossy(&t)))
        .unwrap_or_default();
    let srv = x.r.summary.as_ref().and_then(|s| s.server.as_ref());
    if rows.is_empty() && srv.is_none() {
        return Ok(());
    }
    h.push_str("<h3>Server</h3>");
    findings(h, x);
    let id = format!("r{n}-{}-server", slug(&x.label));
    let end =
        x.r.intervals
            .last()
            .map_or(0.0, |r| r.end_s)
            .max(rows.last().map_or(0.0, |r| r.end_s))
            .max(1.0);
    let small = |id: String, title: &str, y: &str, series: Vec<Series>| Chart {
        small: true,
        x_range: Some((0.0, end)),
        ..Chart::new(id, title, "seconds", y, series)
    };
    let tps = x.r.intervals.iter().map(|r| (r.end_s, r.tps)).collect();
    let mut multiples = vec![small(
        format!("{id}-throughput"),
        "Throughput",
        "transactions per second",
        vec![Series::line("", tps)],
    )];
    for (i, (title, y, cols)) in PANELS.iter().enumerate() {
        let series: Vec<Series> = cols
            .iter()
            .map(|(col, name, scale)| {
                let points = rows
                    .iter()
                    .filter_map(|r| Some((r.end_s, r.get(col)? * scale)))
                    .collect();
                Series::line(if cols.len() > 1 { name } else { "" }, points)
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        if !series.is_empty() {
            multiples.push(small(format!("{id}-{:02}", i + 1), title, y, series));
        }
    }
    if rows.is_empty() {
        multiples.truncate(0);
    } else {
        let _ = write!(
            h,
            "<p class=\"note\">Throughput and the server's figures per {} s interval on one time axis (server.csv; warm-up until {:.0} s).</p>",
            x.r.config.report_interval_s, x.r.config.warmup_s
        );
    }
    h.push_str("<div class=\"multiples\">");
    for c in multiples {
        push_chart(h, charts, c)?;
    }
    h.push_str("</div>");
    waits_chart(h, charts, &id, x, end)?;
    if let Some(s) = srv {
        figures_table(h, s);
    }
    Ok(())
}

fn findings(h: &mut String, x: &RunRef<'_>) {
    if x.r.findings.is_empty() {
        h.push_str("<p class=\"note\">Findings: none of the rules' thresholds was reached.</p>");
        return;
    }
    h.push_str("<p><b>Findings</b></p><ul class=\"findings\">");
    for f in &x.r.findings {
        let _ = write!(
            h,
            "<li><b>{}</b>: {}. <i>Try:</i> {}.</li>",
            esc(&f.rule),
            esc(&f.finding),
            esc(&f.suggestion)
        );
    }
    h.push_str("</ul>");
}

/// The events that waited longest over the measured phase, from waits.csv, over time.
fn waits_chart(
    h: &mut String,
    charts: &mut Vec<Chart>,
    id: &str,
    x: &RunRef<'_>,
    end: f64,
) -> Result<()> {
    let Ok(bytes) = crate::results::read_file(&x.dir.join("waits.csv")) else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(&bytes);
    let rows = WaitRow::parse_csv(&text);
    let mut total: BTreeMap<&str, f64> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.phase == Phase::Measure) {
        *total.entry(r.event.as_str()).or_default() += r.wait_ms_per_s * (r.end_s - r.start_s);
    }
    let mut top: Vec<(&str, f64)> = total.into_iter().collect();
    top.sort_by(|a, b| b.1.total_cmp(&a.1));
    top.truncate(CHARTED_WAITS);
    if top.is_empty() {
        return Ok(());
    }
    let series = top
        .iter()
        .map(|(event, _)| {
            let points = rows
                .iter()
                .filter(|r| r.event == *event)
                .map(|r| (r.end_s, r.wait_ms_per_s))
                .collect();
            Series::line(event.trim_start_matches("wait/"), points)
        })
        .collect();
    push_chart(
        h,
        charts,
        Chart {
            x_range: Some((0.0, end)),
            ..Chart::new(
                format!("{id}-waits"),
                format!("Top {} waits (performance_schema)", top.len()),
                "seconds",
                "ms waited per second",
                series,
            )
        },
    )
}

fn num(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

fn figures_table(h: &mut String, s: &ServerSummary) {
    h.push_str("<table><tr><th>server figure (measured phase)</th><th>per transaction</th>");
    let per_no = !s.per_new_order.is_empty();
    if per_no {
        h.push_str("<th>per New-Order</th>");
    }
    h.push_str("</tr>");
    for (k, v) in &s.per_transaction {
        let _ = write!(h, "<tr><td>{}</td><td class=\"n\">{}</td>", esc(k), num(*v));
        if per_no {
            let _ = write!(
                h,
                "<td class=\"n\">{}</td>",
                s.per_new_order.get(k).map(|v| num(*v)).unwrap_or_default()
            );
        }
        h.push_str("</tr>");
    }
    for (k, v) in &s.averages {
        let peak = s
            .peaks
            .get(k)
            .map(|p| format!(" (peak {})", num(*p)))
            .unwrap_or_default();
        let _ = write!(
            h,
            "<tr><td>average {}</td><td class=\"n\">{}{peak}</td></tr>",
            esc(k),
            num(*v)
        );
    }
    h.push_str("</table>");
    if !s.top_waits.is_empty() {
        h.push_str("<table><tr><th>wait event</th><th>class</th><th>ms per transaction</th><th>average µs</th><th>share of time waited</th></tr>");
        for w in &s.top_waits {
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:.2}</td><td class=\"n\">{:.1} %</td></tr>",
                esc(&w.event),
                esc(&w.class),
                num(w.wait_ms_per_txn),
                w.avg_us,
                w.share_pct
            );
        }
        h.push_str("</table>");
    }
    if !s.cross_checks.is_empty() {
        h.push_str("<table><tr><th>cross-check</th><th>server</th><th>txbench</th><th>allowed difference</th><th></th></tr>");
        for c in &s.cross_checks {
            let _ = write!(
                h,
                "<tr><td>{}</td><td class=\"n\">{:.0}</td><td class=\"n\">{:.0}</td><td class=\"n\">{:.0}</td><td>{}</td></tr>",
                esc(&c.what),
                c.server,
                c.txbench,
                c.limit(),
                if c.agrees {
                    "<span class=\"valid\">agree</span>"
                } else {
                    "<span class=\"invalid\">DISAGREE</span>"
                }
            );
        }
        h.push_str("</table>");
    }
    if !s.not_recorded.is_empty() {
        h.push_str("<ul class=\"note\">");
        for n in &s.not_recorded {
            let _ = write!(h, "<li>not recorded: {}</li>", esc(n));
        }
        h.push_str("</ul>");
    }
}

/// Rows of each "why" table.
const WHY_ROWS: usize = 15;

/// Every run with server figures against the first one: the figures that changed most.
pub(super) fn why_tables(h: &mut String, all: &[RunRef<'_>]) {
    let with: Vec<(&RunRef<'_>, &ServerSummary)> = all
        .iter()
        .filter_map(|x| Some((x, x.r.summary.as_ref()?.server.as_ref()?)))
        .collect();
    let Some(((base, bs), rest)) = with.split_first() else {
        return;
    };
    if rest.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<h2>Why: server figures against {}</h2><p class=\"note\">Per-transaction figures of each run beside the first run's, ranked by relative change: the likely cause of a difference in throughput.</p>",
        esc(&base.label)
    );
    for (x, s) in rest {
        let _ = write!(
            h,
            "<h3>{} ({} threads) against {} ({} threads)</h3><table><tr><th>figure</th><th>{}</th><th>{}</th><th>change</th></tr>",
            esc(&x.label),
            x.r.config.threads,
            esc(&base.label),
            base.r.config.threads,
            esc(&base.label),
            esc(&x.label)
        );
        for w in why(bs, s).into_iter().take(WHY_ROWS) {
            let change = match w.change_pct {
                Some(c) => format!("{c:+.1} %"),
                None if w.new.abs() > 1e-12 => "from zero".into(),
                None => "—".into(),
            };
            let _ = write!(
                h,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{change}</td></tr>",
                esc(&w.figure),
                num(w.base),
                num(w.new)
            );
        }
        h.push_str("</table>");
    }
}
