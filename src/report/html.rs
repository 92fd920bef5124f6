//! `txbench report`: one self-contained HTML file (inline CSS and SVG charts, no scripts, no
//! network) built only from stored run and sweep directories.

use super::charts::{Chart, Series};
use super::page::{CSS, RunRef, esc, name_of, push_chart, slug};
use crate::results::Stability;
use crate::results::{Phase, RunResult, Stored};
use anyhow::Result;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

pub use super::page::Input;

/// The report: its HTML and its charts (for `--png`).
pub struct Report {
    /// The page.
    pub html: String,
    /// Every chart on it, in order.
    pub charts: Vec<Chart>,
}

fn runs(inputs: &[Input]) -> Vec<RunRef<'_>> {
    let mut out = Vec::new();
    for i in inputs {
        match &i.stored {
            Stored::Run(r) => out.push(RunRef {
                label: i.label.clone().unwrap_or_else(|| name_of(&i.path)),
                cell: i.cell,
                dir: i.path.clone(),
                r,
            }),
            Stored::Sweep(s, rs) => {
                for (level, r) in s.runs.iter().zip(rs) {
                    out.push(RunRef {
                        label: format!("{} t={}", name_of(&i.path), level.threads),
                        cell: None,
                        dir: i.path.join(&level.dir),
                        r,
                    });
                }
            }
        }
    }
    out
}

/// Builds the report of `inputs` and `experiments` (whose cells are among the inputs).
pub fn build(
    inputs: &[Input],
    experiments: &[crate::experiment::Experiment],
    generated_at: &str,
) -> Result<Report> {
    let all = runs(inputs);
    let mut charts_out: Vec<Chart> = Vec::new();
    let mut h = String::new();
    page_head(&mut h, inputs, experiments, generated_at);
    stories(&mut h, inputs);

    for (k, e) in experiments.iter().enumerate() {
        let anchor = |order: usize| {
            all.iter()
                .position(|x| x.cell == Some((k, order)))
                .map(|i| format!("run-{}", i + 1))
        };
        let run_dir = |order: usize| {
            all.iter()
                .find(|x| x.cell == Some((k, order)))
                .map(|x| x.dir.clone())
        };
        let at = super::experiment::CellsAt {
            anchor: &anchor,
            run_dir: &run_dir,
        };
        super::experiment::section(&mut h, &mut charts_out, k + 1, e, &at)?;
        super::profile::experiment_differences(&mut h, e, k, &all);
    }

    // Verdicts first: a reader must see an untrustworthy number before the number.
    validity_table(&mut h, &all);

    super::sweep::section(&mut h, &mut charts_out, inputs)?;

    // Each run over time.
    for (n, x) in all.iter().enumerate() {
        run_section(&mut h, &mut charts_out, n + 1, x)?;
    }

    super::server::why_tables(&mut h, &all);
    super::profile::differences(&mut h, &all);
    config_table(&mut h, &all);
    h.push_str("</body></html>\n");
    Ok(Report {
        html: h,
        charts: charts_out,
    })
}

/// The page up to its first section: the document's head, the title, when and from what.
/// An experiment's report names the experiment and what it compared; its cells' run
/// directories are folded away.
fn page_head(
    h: &mut String,
    inputs: &[Input],
    experiments: &[crate::experiment::Experiment],
    generated_at: &str,
) {
    let _ = write!(
        h,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>txbench report</title><style>{CSS}</style></head><body>"
    );
    let names = |cells: bool| -> Vec<String> {
        inputs
            .iter()
            .filter(|i| i.cell.is_some() == cells)
            .map(|i| format!("<code>{}</code>", esc(&i.path.display().to_string())))
            .collect()
    };
    let mut what: Vec<String> = experiments
        .iter()
        .map(super::experiment::compared)
        .collect();
    let plain = names(false);
    if !plain.is_empty() {
        what.push(plain.join(", "));
    }
    let title = match experiments {
        [] => String::new(),
        [e] => format!(": experiment {}", esc(&e.name)),
        many => format!(
            ": experiments {}",
            esc(&many
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", "))
        ),
    };
    let _ = write!(
        h,
        "<h1>txbench report{title}</h1><p class=\"note\">Generated {} by txbench {} from stored results only: {}.</p>",
        esc(generated_at),
        env!("CARGO_PKG_VERSION"),
        what.join("; ")
    );
    let cells = names(true);
    if !cells.is_empty() {
        let _ = write!(
            h,
            "<details class=\"note\"><summary>The {} cells' run directories</summary><p>{}.</p></details>",
            cells.len(),
            cells.join(", ")
        );
    }
}

/// Inputs whose story the page opens with by name; the others' are in their sections.
const STORIES: usize = 6;

/// The story first for the runs and sweeps given (an experiment's cells have their
/// experiment's): each one's few sentences, named when there are several.
fn stories(h: &mut String, inputs: &[Input]) {
    let plain: Vec<&Input> = inputs.iter().filter(|i| i.cell.is_none()).collect();
    for i in plain.iter().take(STORIES) {
        let lines = match &i.stored {
            Stored::Run(r) => crate::analysis::story::run(r),
            // From the levels' own result.json, as the rest of the page.
            Stored::Sweep(_, rs) => crate::analysis::story::sweep(
                &rs.iter()
                    .map(|r| crate::results::SweepLevel::of(r, ""))
                    .collect::<Vec<_>>(),
            ),
        };
        if plain.len() > 1 {
            let _ = write!(
                h,
                "<p class=\"story-of\"><b>{}</b></p>",
                esc(i.label.as_deref().unwrap_or(&name_of(&i.path)))
            );
        }
        super::page::story(h, &lines);
    }
    if plain.len() > STORIES {
        let _ = write!(
            h,
            "<p class=\"note\">{} more run(s) and sweep(s): their sections below.</p>",
            plain.len() - STORIES
        );
    }
}

/// A line per run: its verdict (and why it is INVALID) beside its headline numbers.
fn validity_table(h: &mut String, all: &[RunRef<'_>]) {
    h.push_str("<h2>Validity</h2><table><tr><th>run</th><th>workload</th><th>threads</th><th>status</th><th>verdict</th><th>tps</th><th>NOPM</th><th>p95 ms</th><th>p99 ms</th><th>errors</th></tr>");
    for x in all {
        let s = x.r.summary.as_ref();
        let verdict = if x.r.validity.valid {
            "<span class=\"valid\">valid</span>".to_string()
        } else {
            format!(
                "<span class=\"invalid\">INVALID</span> {}",
                esc(&x.r.validity.reasons.join("; "))
            )
        };
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{:?}</td><td>{verdict}</td><td class=\"n\">{:.1}</td><td class=\"n\">{}</td><td class=\"n\">{:.2}</td><td class=\"n\">{:.2}</td><td class=\"n\">{}</td></tr>",
            esc(&x.label),
            esc(&x.r.config.workload),
            x.r.config.threads,
            x.r.status,
            s.map_or(0.0, |s| s.tps),
            x.r.throughput()
                .rate
                .map_or("–".into(), |r| format!("{:.0}", r.per_minute)),
            s.map_or(0.0, |s| s.response.p95_ms),
            s.map_or(0.0, |s| s.response.p99_ms),
            s.map_or(0, |s| s.errors)
        );
    }
    h.push_str("</table>");
}

/// Run `x`'s section (number `n`, its anchor `run-n`): its charts over time, stability,
/// server, profiles, events and notes.
fn run_section(
    h: &mut String,
    charts_out: &mut Vec<Chart>,
    n: usize,
    x: &RunRef<'_>,
) -> Result<()> {
    let _ = write!(
        h,
        "<h2 id=\"run-{}\">{} — {}, {} threads</h2>",
        n,
        esc(&x.label),
        esc(&x.r.config.workload),
        x.r.config.threads
    );
    if !x.r.validity.valid {
        let _ = write!(
            h,
            "<p><span class=\"invalid\">INVALID</span> {}</p>",
            esc(&x.r.validity.reasons.join("; "))
        );
    }
    for c in run_charts(n, x)? {
        push_chart(h, charts_out, c)?;
    }
    stability_table(h, x.r);
    if let Some(p) = &x.r.periods {
        super::periods::html(h, p);
    }
    statements_table(h, x.r);
    super::server::section(h, charts_out, n, x)?;
    super::profile::section(h, x);
    events_and_notes(h, x.r);
    Ok(())
}

/// A run's events (a table) and notes (a list), each left out when there is none.
fn events_and_notes(h: &mut String, r: &RunResult) {
    if !r.events.is_empty() {
        h.push_str("<h3>Events</h3><table><tr><th>at</th><th>what happened</th></tr>");
        for e in &r.events {
            let _ = write!(
                h,
                "<tr><td>{:.1} s</td><td>{}</td></tr>",
                e.t_s,
                esc(&e.what)
            );
        }
        h.push_str("</table>");
    }
    if !r.notes.is_empty() {
        h.push_str("<ul class=\"note\">");
        for n in &r.notes {
            let _ = write!(h, "<li>{}</li>", esc(n));
        }
        h.push_str("</ul>");
    }
}

fn run_charts(n: usize, x: &RunRef<'_>) -> Result<Vec<Chart>> {
    // The index keeps ids unique when two inputs share a directory name.
    let id = format!("r{n}-{}", slug(&x.label));
    let rows = &x.r.intervals;
    let mid = |r: &crate::results::IntervalRow| r.end_s;
    let series = |name: &str, y: fn(&crate::results::IntervalRow) -> f64| {
        Series::line(name, rows.iter().map(|r| (mid(r), y(r))).collect())
    };
    let mut tput = vec![series("all kinds", |r| r.tps)];
    if x.r.kinds.len() > 1 {
        for (k, name) in x.r.kinds.iter().enumerate() {
            let points = rows
                .iter()
                .filter_map(|r| {
                    let kr = r.kinds.get(k)?;
                    Some((
                        mid(r),
                        kr.completed as f64 / (r.end_s - r.start_s).max(1e-9),
                    ))
                })
                .collect();
            tput.push(Series::line(name.clone(), points));
        }
    }
    let warm = if x.r.config.warmup_s > 0.0 {
        format!(" (warm-up until {:.0} s)", x.r.config.warmup_s)
    } else {
        String::new()
    };
    let timed = |name: &str, title: String, y: &str, series: Vec<Series>| {
        Chart::new(format!("{id}-{name}"), title, "seconds", y, series)
    };
    let latencies = vec![
        series("response p95", |r| r.p95_ms),
        series("response p99", |r| r.p99_ms),
        series("service p99", |r| r.service_p99_ms),
    ];
    let title = format!("Throughput over time{warm}");
    let mut out = vec![
        timed("throughput", title, "transactions per second", tput),
        timed(
            "latency",
            "Latency percentiles over time".into(),
            "ms",
            latencies,
        ),
    ];
    let spectrum = spectrum(&x.dir, x.r)?;
    if !spectrum.is_empty() {
        out.push(Chart {
            log_x: true,
            ..Chart::new(
                format!("{id}-spectrum"),
                "Response-time percentile spectrum (measured phase)",
                "1 / (1 - percentile): 10 = p90, 100 = p99, 1000 = p99.9",
                "ms",
                spectrum,
            )
        });
    }
    let errors = vec![
        series("failed transactions", |r| r.err_ps),
        series("reconnects", |r| r.reconn_ps),
    ];
    out.push(timed(
        "errors",
        "Errors and reconnects".into(),
        "per second",
        errors,
    ));
    Ok(out)
}

/// Per kind, response time at percentiles from 0 to 99.999, from the measured intervals of
/// latency.hlog (nothing if the file is missing: an old or copied run still renders).
fn spectrum(dir: &Path, r: &RunResult) -> Result<Vec<Series>> {
    let measured: Vec<f64> = r
        .intervals
        .iter()
        .filter(|i| i.phase == Phase::Measure)
        .map(|i| i.start_s)
        .collect();
    let mut merged: BTreeMap<String, hdrhistogram::Histogram<u64>> = BTreeMap::new();
    let read = crate::results::read_hlog(dir, |e| {
        if e.service || !measured.iter().any(|m| (m - e.start_s).abs() < 1e-3) {
            return Ok(());
        }
        // One histogram that does not decode leaves out only itself.
        let Ok(h) = e.decode() else {
            return Ok(());
        };
        match merged.get_mut(&e.kind) {
            Some(m) => {
                let _ = m.add(&h);
            }
            None => {
                merged.insert(e.kind, h);
            }
        }
        Ok(())
    });
    // A log that cannot be read leaves the chart out rather than the report.
    if !matches!(read, Ok(true)) {
        return Ok(Vec::new());
    }
    Ok(merged
        .into_iter()
        .filter(|(_, h)| !h.is_empty())
        .map(|(kind, h)| {
            let points = (0..=50)
                .map(|k| {
                    // x = 1 / (1 - q) from 1 to 100,000 (p99.999), log-spaced.
                    let x = 10f64.powf(f64::from(k) / 10.0);
                    let q = 1.0 - 1.0 / x;
                    (x, h.value_at_quantile(q) as f64 / 1000.0)
                })
                .collect();
            Series::line(kind, points)
        })
        .collect())
}

fn stability_table(h: &mut String, r: &RunResult) {
    let Some(s) = Stability::of_run(r) else {
        return;
    };
    let trend = s.trend_text();
    let declining = if s.declining {
        " <span class=\"declining\">DECLINING</span>"
    } else {
        ""
    };
    let _ = write!(
        h,
        "<h3>Stability</h3><table>\
         <tr><th>steady state from (MSER-5)</th><td class=\"n\">{:.0} s</td><td>configured warm-up {:.0} s</td></tr>\
         <tr><th>mean throughput</th><td class=\"n\">{:.2} tps</td><td>{} measured intervals</td></tr>\
         <tr><th>coefficient of variation</th><td class=\"n\">{:.2} %</td><td></td></tr>\
         <tr><th>trend</th><td class=\"n\">{trend}</td><td>{declining}</td></tr>\
         <tr><th>jitter</th><td class=\"n\">{:.2} %</td><td>largest {:.0} s window mean against the mean</td></tr>\
         <tr><th>stalls (&lt; 10 % of the median)</th><td class=\"n\">{}</td><td>{}</td></tr></table>",
        s.steady_start_s,
        s.configured_warmup_s,
        s.mean_tps,
        s.intervals,
        s.cv * 100.0,
        s.jitter_pct,
        s.window_s,
        s.stalls.len(),
        s.stalls
            .iter()
            .take(10)
            .map(|st| format!("{:.0}–{:.0} s", st.start_s, st.end_s))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// Each command's mean latency and count per kind (a pgbench script's, pgbench -r), left out
/// when the run has none.
fn statements_table(h: &mut String, r: &RunResult) {
    let Some(w) = r
        .workload_report
        .as_ref()
        .filter(|w| !w.statements.is_empty())
    else {
        return;
    };
    h.push_str(
        "<h3>Statement latencies</h3><table><tr><th>kind</th><th>line</th><th>command</th>\
         <th>count</th><th>mean ms</th></tr>",
    );
    for st in &w.statements {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"n\">{}</td><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{:.3}</td></tr>",
            esc(&st.kind),
            st.line,
            esc(&st.command),
            st.count,
            st.mean_ms
        );
    }
    h.push_str("</table>");
}

/// Flattens a JSON object into dotted keys.
fn flatten(prefix: &str, v: &serde_json::Value, out: &mut BTreeMap<String, String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, x, out);
            }
        }
        serde_json::Value::String(s) => {
            out.insert(prefix.to_string(), s.clone());
        }
        other => {
            out.insert(prefix.to_string(), other.to_string());
        }
    }
}

/// Configuration and server pre-flight of every run side by side; rows that differ are
/// highlighted.
fn config_table(h: &mut String, all: &[RunRef<'_>]) {
    let maps: Vec<BTreeMap<String, String>> = all
        .iter()
        .map(|x| {
            let mut m = BTreeMap::new();
            if let Ok(v) = serde_json::to_value(&x.r.config) {
                flatten("config", &v, &mut m);
            }
            if let Ok(v) = serde_json::to_value(&x.r.server) {
                flatten("server", &v, &mut m);
            }
            m.insert("client.host".into(), x.r.client.host.clone());
            m.insert("client.cpus".into(), x.r.client.cpus.to_string());
            m.insert("tool.version".into(), x.r.tool.version.clone());
            m.insert("started_at".into(), x.r.started_at.clone());
            m
        })
        .collect();
    let mut keys: Vec<&String> = maps.iter().flat_map(|m| m.keys()).collect();
    keys.sort();
    keys.dedup();
    h.push_str("<h2>Configuration and server pre-flight</h2><p class=\"note\">Rows whose values differ between runs are highlighted.</p><table><tr><th>setting</th>");
    for x in all {
        let _ = write!(h, "<th>{}</th>", esc(&x.label));
    }
    h.push_str("</tr>");
    for k in keys {
        let vals: Vec<&str> = maps
            .iter()
            .map(|m| m.get(k).map_or("", String::as_str))
            .collect();
        let differs = vals.windows(2).any(|w| w[0] != w[1]);
        let _ = write!(
            h,
            "<tr{}><th>{}</th>",
            if differs { " class=\"diff\"" } else { "" },
            esc(k)
        );
        for v in vals {
            let _ = write!(h, "<td>{}</td>", esc(v));
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");
}
