//! The pages of `txbench serve`, built from the results store: the stored runs with filters
//! and the benchmarks they form, and one benchmark's history with its change points, every
//! point a link to its run's report. HTML and inline SVG only, no scripts. The history chart
//! is drawn here rather than with plotters: each point must be a link (`<a>` around its
//! circle), which plotters' SVG backend cannot write.

use super::page::{CSS, esc};
use crate::analysis::history::History;
use crate::store::Entry;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The filters of the runs page, as the form shows them.
#[derive(Debug, Clone, Default)]
pub struct Form {
    /// Workload.
    pub workload: String,
    /// Virtual users.
    pub threads: String,
    /// Engine.
    pub engine: String,
    /// A label, KEY=VALUE.
    pub label: String,
    /// Started on or after.
    pub since: String,
}

/// `/run?dir=…`: where a run's report is served.
pub fn run_link(dir: &str) -> String {
    format!("/run?dir={}", query_escape(dir))
}

/// A query string value, percent-encoded.
pub fn query_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            o.push(b as char);
        } else {
            let _ = write!(o, "%{b:02X}");
        }
    }
    o
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{CSS}\
         form{{margin:8px 0}}input{{margin-right:8px}}svg a circle:hover{{r:6}}\
         .id{{color:#777;font-size:11px;font-family:monospace;margin-left:6px}}</style></head><body>\
         <p class=\"note\"><a href=\"/\">runs</a> · <a href=\"/live\">in progress</a> · txbench {} · read-only</p>{body}</body></html>",
        esc(title),
        env!("CARGO_PKG_VERSION")
    )
}

fn headline(e: &Entry) -> String {
    let fig = crate::analysis::history::default_figure(&e.workload);
    e.figures
        .get(fig)
        .map_or("–".into(), |v| format!("{v:.1} {fig}"))
}

fn labels(e: &Entry) -> String {
    e.labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The runs page: the filter form, the benchmarks among the selected runs (each a link to
/// its history), and the runs, newest first (at most `limit`).
pub fn runs_page(entries: &[Entry], form: &Form, error: Option<&str>, limit: usize) -> String {
    let mut b = String::new();
    let field = |name: &str, value: &str, hint: &str| {
        format!(
            "<label>{name} <input name=\"{name}\" value=\"{}\" placeholder=\"{hint}\" size=\"14\"></label>",
            esc(value)
        )
    };
    let _ = write!(
        b,
        "<h1>Stored runs</h1><form id=\"filters\" method=\"get\" action=\"/\">{}{}{}{}{}<button type=\"submit\">filter</button></form>",
        field("workload", &form.workload, "tpcc"),
        field("threads", &form.threads, "16"),
        field("engine", &form.engine, "mysql"),
        field("label", &form.label, "branch=main"),
        field("since", &form.since, "2026-11-01")
    );
    if let Some(e) = error {
        let _ = write!(b, "<p class=\"invalid\" id=\"error\">{}</p>", esc(e));
    }
    // The benchmarks: one row per identity, in order of their latest run.
    let mut benches: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in entries.iter().filter(|e| e.kind != "shard") {
        benches.entry(&e.identity).or_default().push(e);
    }
    let mut order: Vec<(&str, Vec<&Entry>)> = benches.into_iter().collect();
    order.sort_by(|a, b| {
        let last = |v: &Vec<&Entry>| v.last().map(|e| e.started_at.clone());
        last(&b.1).cmp(&last(&a.1))
    });
    let _ = write!(
        b,
        "<h2>Benchmarks</h2><table id=\"benchmarks\"><tr><th>benchmark (its history)</th><th>runs</th><th>latest</th><th>latest headline</th></tr>"
    );
    for (id, runs) in &order {
        let (first, last) = (runs[0], runs[runs.len() - 1]);
        let _ = write!(
            b,
            "<tr><td><a class=\"history\" href=\"/history?identity={}\">{}</a><span class=\"id\">{}</span></td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td></tr>",
            query_escape(id),
            esc(&first.name()),
            esc(id),
            runs.len(),
            esc(last.started_at.get(..19).unwrap_or(&last.started_at)),
            esc(&headline(last))
        );
    }
    b.push_str("</table>");
    let _ = write!(
        b,
        "<h2>Runs</h2><p class=\"note\">{} run(s){}, newest first.</p><table id=\"runs\"><tr><th>started</th><th>benchmark</th><th>verdict</th><th>headline</th><th>p99 ms</th><th>labels</th><th>report</th></tr>",
        entries.len(),
        if entries.len() > limit {
            format!(", the newest {limit} shown")
        } else {
            String::new()
        }
    );
    for e in entries.iter().rev().take(limit) {
        let _ = write!(
            b,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td><a class=\"run\" href=\"{}\">{}</a></td></tr>",
            esc(e.started_at.get(..19).unwrap_or(&e.started_at)),
            esc(&e.name()),
            if e.valid {
                "<span class=\"valid\">VALID</span>"
            } else {
                "<span class=\"invalid\">INVALID</span>"
            },
            esc(&headline(e)),
            e.figures
                .get("p99_ms")
                .map_or("–".into(), |v| format!("{v:.2}")),
            esc(&labels(e)),
            esc(&run_link(&e.dir)),
            esc(e.dir.rsplit('/').next().unwrap_or(&e.dir))
        );
    }
    b.push_str("</table>");
    page("txbench: stored runs", &b)
}

/// The chart of a history: each point a link to its run, each segment's mean a line, each
/// change point a dashed line named by its first point.
fn chart(h: &History) -> String {
    let (w, ht, l, r, t, bm) = (960.0, 320.0, 70.0, 20.0, 20.0, 40.0);
    let n = h.points.len();
    if n == 0 {
        return String::new();
    }
    let lo = h
        .points
        .iter()
        .map(|p| p.value)
        .fold(f64::INFINITY, f64::min);
    let hi = h
        .points
        .iter()
        .map(|p| p.value)
        .fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.1).max(hi.abs() * 0.02).max(1e-9);
    let (y0, y1) = ((lo - pad).max(0.0), hi + pad);
    let x = |i: f64| l + (w - l - r) * if n > 1 { i / (n - 1) as f64 } else { 0.5 };
    let y = |v: f64| t + (ht - t - bm) * (1.0 - (v - y0) / (y1 - y0));
    let mut s = format!(
        "<svg id=\"history-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{ht}\" viewBox=\"0 0 {w} {ht}\" font-family=\"sans-serif\" font-size=\"11\">\
         <rect x=\"{l}\" y=\"{t}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ccc\"/>",
        w - l - r,
        ht - t - bm
    );
    for k in 0..=4 {
        let v = y0 + (y1 - y0) * k as f64 / 4.0;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{v:.1}</text>",
            l - 6.0,
            y(v) + 4.0
        );
    }
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{} (points in order{})</text>",
        (l + w - r) / 2.0,
        ht - 8.0,
        esc(&h.figure),
        if h.points.iter().any(|p| p.label.is_some()) {
            " of the label"
        } else {
            " of time"
        }
    );
    // Segments between change points, at their means.
    let mut bounds = vec![0];
    bounds.extend(h.steps.iter().map(|s| s.change.index));
    bounds.push(n);
    for seg in bounds.windows(2) {
        let v: Vec<f64> = h.points[seg[0]..seg[1]].iter().map(|p| p.value).collect();
        let m = crate::analysis::stats::mean(&v);
        let _ = write!(
            s,
            "<line class=\"segment\" x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#1f77b4\" stroke-width=\"2\" opacity=\"0.5\"/>",
            x(seg[0] as f64),
            x((seg[1] - 1) as f64),
            y(m),
            y(m)
        );
    }
    for st in &h.steps {
        let xc = x(st.change.index as f64 - 0.5);
        let _ = write!(
            s,
            "<line class=\"change\" x1=\"{xc:.1}\" x2=\"{xc:.1}\" y1=\"{t}\" y2=\"{}\" stroke=\"{}\" stroke-dasharray=\"5,4\"/><text x=\"{:.1}\" y=\"{}\" fill=\"{}\">{:+.1} % at {}</text>",
            ht - bm,
            if st.regression { "#b3261e" } else { "#17612b" },
            xc + 4.0,
            t + 12.0,
            if st.regression { "#b3261e" } else { "#17612b" },
            st.change.step_pct,
            esc(&st.first_after)
        );
    }
    for (i, p) in h.points.iter().enumerate() {
        let _ = write!(
            s,
            "<a class=\"point\" href=\"{}\"><circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"#1f77b4\"><title>{i}: {} {:.2} ({})</title></circle></a>",
            esc(&run_link(&p.dir)),
            x(i as f64),
            y(p.value),
            esc(p.label.as_deref().unwrap_or(&p.started_at)),
            p.value,
            esc(&p.dir)
        );
    }
    s.push_str("</svg>");
    s
}

/// The history page of one benchmark: its figure chosen from those it has, the chart, the
/// change points and the points, each linking to its run.
pub fn history_page(h: &History, figures: &[String], by: &str) -> String {
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>History of {} — {}</h1><p class=\"note\">identity <code>{}</code> (<code>txbench history --where identity={}</code>); {} run(s){}; {} is better. Change points: E-divisive means, permutation test at 5 %, segments of 3 runs or more.</p>\
         <details id=\"options\"><summary>its options as recorded</summary><pre>{}</pre></details>",
        esc(&h.figure),
        esc(&h.name),
        esc(&h.identity),
        esc(&h.identity),
        h.points.len(),
        h.left_out_text(),
        if h.higher_is_better { "more" } else { "less" },
        esc(&pretty(&h.options))
    );
    super::page::story(&mut b, &crate::analysis::story::history(h));
    let options: String = figures
        .iter()
        .map(|f| {
            format!(
                "<option{}>{}</option>",
                if *f == h.figure { " selected" } else { "" },
                esc(f)
            )
        })
        .collect();
    let _ = write!(
        b,
        "<form id=\"figure\" method=\"get\" action=\"/history\"><input type=\"hidden\" name=\"identity\" value=\"{}\"><label>figure <select name=\"figure\">{options}</select></label> <label>order by label <input name=\"by\" value=\"{}\" placeholder=\"commit\" size=\"10\"></label><button type=\"submit\">show</button></form>",
        esc(&h.identity),
        esc(by)
    );
    b.push_str(&chart(h));
    if h.steps.is_empty() {
        b.push_str("<p id=\"steps\">No change point.</p>");
    } else {
        b.push_str("<table id=\"steps\"><tr><th>first after</th><th>before</th><th>after</th><th>step</th><th>95 % interval</th><th>p</th></tr>");
        for st in &h.steps {
            let c = &st.change;
            let _ = write!(
                b,
                "<tr{}><td>{} ({})</td><td class=\"n\">{:.2}</td><td class=\"n\">{:.2}</td><td class=\"n\">{:+.1} %{}</td><td class=\"n\">{}</td><td class=\"n\">{:.3}</td></tr>",
                if st.regression { " class=\"diff\"" } else { "" },
                esc(&st.first_after),
                c.index,
                c.before,
                c.after,
                c.step_pct,
                if st.regression { ", a regression" } else { "" },
                c.interval_pct
                    .map_or("–".into(), |(a, z)| format!("[{a:+.1}, {z:+.1}]")),
                c.p_value
            );
        }
        b.push_str("</table>");
    }
    b.push_str("<h2>Points</h2><table id=\"points\"><tr><th>#</th><th>started</th><th>label</th><th>value</th><th>run</th></tr>");
    for (i, p) in h.points.iter().enumerate() {
        let _ = write!(
            b,
            "<tr><td class=\"n\">{i}</td><td>{}</td><td>{}</td><td class=\"n\">{:.2}</td><td><a href=\"{}\">{}</a></td></tr>",
            esc(p.started_at.get(..19).unwrap_or(&p.started_at)),
            esc(p.label.as_deref().unwrap_or("")),
            p.value,
            esc(&run_link(&p.dir)),
            esc(&p.dir)
        );
    }
    b.push_str("</table>");
    page(&format!("txbench: {} — {}", h.name, h.figure), &b)
}

/// Recorded options (JSON) laid out on several lines; anything else as it is.
fn pretty(options: &str) -> String {
    serde_json::from_str::<serde_json::Value>(options)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| options.to_string())
}

/// A page that says what went wrong (a bad filter, a run no longer on disk).
pub fn message_page(title: &str, line: &str) -> String {
    page(
        title,
        &format!(
            "<h1>{}</h1><p class=\"invalid\" id=\"error\">{}</p>",
            esc(title),
            esc(line)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_percent_encoded_and_pages_escape_what_they_show() {
        assert_eq!(query_escape("/tmp/a b&c=d"), "/tmp/a%20b%26c%3Dd");
        let page = message_page("no <run>", "\"x\" & y");
        assert!(page.contains("no &lt;run&gt;"));
        assert!(page.contains("&quot;x&quot; &amp; y"));
        assert!(!page.contains("<script"));
    }

    fn entry(options: &str, tps: f64) -> Entry {
        Entry {
            dir: "/runs/r1".into(),
            kind: "run".into(),
            started_at: "2026-11-01T10:00:00Z".into(),
            workload: "tpcc".into(),
            options: options.into(),
            threads: 4,
            engine: "mysql".into(),
            server_version: "11.4.2-MariaDB".into(),
            binary_sha256: String::new(),
            host: "h".into(),
            host_cpus: 8,
            txbench_version: "0".into(),
            identity: "0123456789ab".into(),
            valid: true,
            status: "completed".into(),
            labels: BTreeMap::new(),
            figures: [("nopm".to_string(), tps)].into(),
        }
    }

    /// What a TPC-C run with --null-dates default and --procedures records.
    const TPCC: &str = r#"{"check":false,"delivery":"Interactive","mix":[10,10,1,1,1],"null_dates":"default","prepared_warehouses":2,"procedures":true,"terminal_warehouse":"Fixed","think_time":"Off","warehouses":null}"#;

    #[test]
    fn benchmarks_are_named_in_words_and_never_by_their_options_json() {
        // The library's unit tests never start from the command line, so no defaults were
        // handed to the store and every option is named (commands::names tests the
        // defaults left out); the words are the entry's own.
        let name = esc(&entry(TPCC, 10.0).name());
        assert!(name.starts_with("tpcc 2 WH · 4 threads · "), "{name}");
        assert!(name.contains("null dates default"), "{name}");
        let page = runs_page(&[entry(TPCC, 10.0)], &Form::default(), None, 10);
        // The benchmark, a link to its history, its identity after it; the run by its words.
        assert!(
            page.contains(&format!(
                "<a class=\"history\" href=\"/history?identity=0123456789ab\">{name}</a><span class=\"id\">0123456789ab</span>"
            )),
            "{page}"
        );
        assert!(page.contains(&format!("<td>{name}</td>")), "{page}");
        assert!(!page.contains("{\"") && !page.contains("{&quot;"), "{page}");
        // A crafted store's option: escaped, harmless.
        let page = runs_page(
            &[entry(r#"{"<script>alert(1)</script>":"</td>"}"#, 1.0)],
            &Form::default(),
            None,
            10,
        );
        assert!(!page.contains("<script"), "{page}");
        assert!(
            page.contains("tpcc · 4 threads · &lt;script&gt;alert(1)&lt;/script&gt; &lt;/td&gt;"),
            "{page}"
        );
        // The history: the words in its title, the options as recorded only folded.
        let e: Vec<Entry> = (0..4).map(|i| entry(TPCC, 10.0 + i as f64)).collect();
        let h = crate::analysis::history::history(&e, "nopm", None).unwrap();
        let page = history_page(&h, &["nopm".into()], "");
        assert!(
            page.contains(&format!("<title>txbench: {name} — nopm</title>")),
            "{page}"
        );
        assert!(
            page.contains(&format!("<h1>History of nopm — {name}</h1>")),
            "{page}"
        );
        let (before, folded) = page.split_once("<details id=\"options\">").unwrap();
        assert!(!before.contains("&quot;mix&quot;"), "{page}");
        assert!(
            folded.contains("&quot;null_dates&quot;: &quot;default&quot;"),
            "{page}"
        );
    }
}
