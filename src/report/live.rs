//! The live view of `txbench serve`: the runs, sweeps and experiments in progress (from
//! their markers, store::live), and one of them as it goes, read from its directory, which
//! the run rewrites as it goes (intervals.csv every interval, result.json within a budget).
//! The page fetches its figures every second and draws them itself: an inline script, no
//! external one, text set as text (never as HTML).

use super::page::{CSS, esc};
use crate::results::{RunStatus, Sweep, Validity};
use crate::store::live::{Found, Kind};
use anyhow::{Context, Result};
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The most intervals a page is sent (the last ones); the counters cover them all.
const CHART_POINTS: usize = 600;

/// The server figures shown beside the run's, from server.csv's last row.
const SERVER_COLUMNS: [&str; 6] = [
    "server_cpu_pct",
    "host_cpu_busy_pct",
    "host_steal_pct",
    "commits_per_s",
    "fsync_ms_avg",
    "disk_write_mb_per_s",
];

/// `/live`: what is in progress, each a link to its live page.
pub fn list_page(found: &[Found]) -> String {
    let running: Vec<&Found> = found.iter().filter(|f| f.running).collect();
    let mut rows = String::new();
    for f in &running {
        rows.push_str(&format!(
            "<tr><td><a href=\"/live/view?id={}\">{}</a></td><td>{}</td><td class=\"n\">{}</td></tr>",
            f.id,
            kind_name(&f.marker.kind),
            esc(&f.marker.dir.display().to_string()),
            f.marker.pid
        ));
    }
    let body = if running.is_empty() {
        "<p class=\"note\" id=\"none\">Nothing is running. A run, sweep or experiment recorded \
         in this store appears here as it starts.</p>"
            .to_string()
    } else {
        format!(
            "<table id=\"live\"><tr><th>in progress</th><th>directory</th><th>process</th></tr>{rows}</table>"
        )
    };
    shell("In progress", &format!("<h1>In progress</h1>{body}"), "")
}

/// `/live/view?id=…`: one run, sweep or experiment as it goes.
pub fn view_page(f: &Found) -> String {
    let body = format!(
        "<h1>{} <span id=\"state\">…</span></h1><p class=\"note\">{}</p>\
         <table><tr><th>transactions</th><th>per second (last interval)</th><th>p95 ms</th>\
         <th>errors</th><th>elapsed</th><th id=\"doneh\">done</th></tr>\
         <tr><td class=\"n\" id=\"tx\">0</td><td class=\"n\" id=\"tps\">–</td>\
         <td class=\"n\" id=\"p95\">–</td><td class=\"n\" id=\"errors\">0</td>\
         <td class=\"n\" id=\"elapsed\">–</td><td id=\"done\">–</td></tr></table>\
         <p id=\"verdict\"></p><ul id=\"reasons\"></ul>\
         <h3>Throughput per interval</h3><svg id=\"tpsChart\" width=\"900\" height=\"160\"></svg>\
         <h3>p95 latency per interval, ms</h3><svg id=\"p95Chart\" width=\"900\" height=\"160\"></svg>\
         <h3>The server, last interval</h3><table id=\"server\"></table>",
        kind_name(&f.marker.kind),
        esc(&f.marker.dir.display().to_string())
    );
    // The id is digits and a dash (store::live checks it), safe inside the script.
    let script = SCRIPT.replace("MARKER_ID", &f.id);
    shell("Live", &body, &script)
}

fn kind_name(k: &Kind) -> &'static str {
    match k {
        Kind::Run => "run",
        Kind::Sweep => "sweep",
        Kind::Experiment => "experiment",
    }
}

/// A page of the live view.
fn shell(title: &str, body: &str, script: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
         <style>{CSS}svg{{border:1px solid #ddd}}</style>\
         </head><body><p class=\"note\"><a href=\"/\">runs</a> · <a href=\"/live\">in progress</a> \
         · txbench {} · read-only</p>{body}<script>{script}</script></body></html>",
        esc(title),
        env!("CARGO_PKG_VERSION")
    )
}

/// The page's script: fetches `/live/data` every second until the run has ended, then shows
/// its verdict.
const SCRIPT: &str = r##"(function () {
  var id = "MARKER_ID";
  function set(el, v) { document.getElementById(el).textContent = v; }
  function draw(el, xs, ys) {
    var svg = document.getElementById(el), w = 900, h = 160, n = xs.length;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (n === 0) return;
    var x0 = xs[0], x1 = xs[n - 1], top = Math.max.apply(null, ys.concat([1e-9]));
    var pts = [];
    for (var i = 0; i < n; i++) {
      var x = n === 1 ? w / 2 : 4 + (w - 8) * (xs[i] - x0) / (x1 - x0);
      var y = h - 4 - (h - 8) * ys[i] / top;
      pts.push(x.toFixed(1) + "," + y.toFixed(1));
    }
    var line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    line.setAttribute("points", pts.join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "#1f6fb2");
    line.setAttribute("stroke-width", "2");
    svg.appendChild(line);
  }
  function show(d) {
    var r = d.run || {};
    set("tx", (r.transactions || 0).toLocaleString("en"));
    set("errors", (r.errors || 0).toLocaleString("en"));
    var iv = r.intervals || {t: [], tps: [], p95_ms: []}, n = iv.t.length;
    if (n > 0) { set("tps", iv.tps[n - 1].toFixed(1)); set("p95", iv.p95_ms[n - 1].toFixed(2)); }
    set("elapsed", (r.elapsed_s || 0).toFixed(0) + " of " + (r.total_s || 0).toFixed(0) + " s");
    set("done", d.progress || "–");
    draw("tpsChart", iv.t, iv.tps);
    draw("p95Chart", iv.t, iv.p95_ms);
    var t = document.getElementById("server");
    while (t.firstChild) t.removeChild(t.firstChild);
    Object.keys(r.server || {}).forEach(function (k) {
      var tr = t.insertRow(), a = tr.insertCell(), b = tr.insertCell();
      a.textContent = k; b.textContent = r.server[k]; b.className = "n";
    });
    set("state", d.finished ? d.status : "running");
    if (d.finished) {
      var v = document.getElementById("verdict");
      v.textContent = d.valid ? "VALID" : "INVALID";
      v.className = d.valid ? "valid" : "invalid";
      var ul = document.getElementById("reasons");
      while (ul.firstChild) ul.removeChild(ul.firstChild);
      (d.reasons || []).forEach(function (s) { var li = document.createElement("li"); li.textContent = s; ul.appendChild(li); });
    }
  }
  function tick() {
    fetch("/live/data?id=" + id).then(function (r) { return r.json(); }).then(function (d) {
      show(d);
      if (!d.finished) setTimeout(tick, 1000);
    }).catch(function () { setTimeout(tick, 2000); });
  }
  tick();
})();"##;

/// `/live/data?id=…`: the figures of the run, sweep or experiment `f` marks, as the page
/// shows them: its current run's intervals and counters, its progress, and once it ended
/// (or its process is gone) its status and verdict.
pub fn data(f: &Found) -> Result<Value> {
    let dir = &f.marker.dir;
    let (run_dir, progress, head) = match f.marker.kind {
        Kind::Run => (Some(dir.clone()), None, None),
        Kind::Sweep => sweep_progress(dir)?,
        Kind::Experiment => experiment_progress(dir)?,
    };
    // The current run's result.json, read once: its requested length, and a lone run's end.
    let run_head = match &run_dir {
        Some(d) => load_run_head(d)?,
        None => None,
    };
    let head = head.unwrap_or_else(|| head_of(run_head.as_ref()));
    let run = match &run_dir {
        Some(d) => run_figures(d, run_head.as_ref())?,
        None => json!({}),
    };
    let ended = head.status != RunStatus::Running;
    Ok(json!({
        "kind": kind_name(&f.marker.kind),
        "run": run,
        "progress": progress,
        "finished": ended || !f.running,
        "status": if ended { status_name(head.status) } else if f.running { "running" } else { "ended without a result" },
        "valid": head.validity.valid && (ended || f.running),
        "reasons": head.validity.reasons,
    }))
}

fn status_name(s: RunStatus) -> &'static str {
    match s {
        RunStatus::Running => "running",
        RunStatus::Completed => "completed",
        RunStatus::Interrupted => "interrupted",
        RunStatus::Aborted => "aborted",
    }
}

/// What a run's, sweep's or experiment's file says of its end.
struct Head {
    status: RunStatus,
    validity: Validity,
}

/// result.json's status, validity and requested length, all a live page needs of it.
#[derive(Deserialize)]
struct RunHead {
    status: RunStatus,
    validity: Validity,
    config: HeadConfig,
}

#[derive(Deserialize)]
struct HeadConfig {
    time_s: f64,
    warmup_s: f64,
}

fn load_run_head(dir: &Path) -> Result<Option<RunHead>> {
    let path = dir.join("result.json");
    if !path.exists() {
        return Ok(None);
    }
    let bytes = crate::results::read_json(&path)?;
    let h = serde_json::from_slice(&bytes)
        .with_context(|| format!("{}: not a run's result", path.display()))?;
    Ok(Some(h))
}

/// A run's end as its result.json says (running before it has one).
fn head_of(h: Option<&RunHead>) -> Head {
    match h {
        Some(h) => Head {
            status: h.status,
            validity: h.validity.clone(),
        },
        None => Head {
            status: RunStatus::Running,
            validity: Validity {
                valid: true,
                reasons: vec![],
            },
        },
    }
}

/// A sweep: its current level's directory, the levels done and left, its end.
fn sweep_progress(dir: &Path) -> Result<(Option<PathBuf>, Option<String>, Option<Head>)> {
    if !dir.join(Sweep::FILE).exists() {
        return Ok((None, Some("starting".into()), Some(head_of(None))));
    }
    let s = Sweep::load(dir)?;
    let done = s.runs.len();
    // The level running is the next one's directory, once it exists; else the last done.
    let current = level_dirs(dir)?.pop();
    let invalid: Vec<String> = s
        .runs
        .iter()
        .filter(|l| !l.valid)
        .map(|l| format!("{} threads: {}", l.threads, l.reasons.join("; ")))
        .collect();
    let head = Head {
        status: s.status,
        validity: Validity {
            valid: invalid.is_empty(),
            reasons: invalid,
        },
    };
    let progress = format!("{done} of {} levels", s.levels.len());
    Ok((current, Some(progress), Some(head)))
}

/// A sweep's level directories (tNNNNN), in order.
fn level_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut levels: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}", dir.display()))?
        .flatten()
        .filter(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            n.len() == 6 && n.starts_with('t') && n[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .map(|e| e.path())
        .filter(|p| p.join("intervals.csv").exists())
        .collect();
    levels.sort();
    Ok(levels)
}

/// An experiment: its running cell's directory, the cells done and left with the time
/// they would take at the pace so far, its end.
fn experiment_progress(dir: &Path) -> Result<(Option<PathBuf>, Option<String>, Option<Head>)> {
    use crate::experiment::{CellStatus, Experiment};
    if !dir.join(crate::experiment::FILE).exists() {
        return Ok((None, Some("preparing".into()), Some(head_of(None))));
    }
    let e = Experiment::load(dir)?;
    let done: Vec<f64> = e
        .cells
        .iter()
        .filter(|c| matches!(c.status, CellStatus::Done | CellStatus::Invalid))
        // A cell's elapsed time includes its reset (and the reset its restore).
        .map(|c| c.elapsed_s.unwrap_or(0.0))
        .collect();
    let left = e.cells.len() - done.len();
    let running = e
        .cells
        .iter()
        .find(|c| c.status == CellStatus::Running)
        .map(|c| dir.join(&c.dir));
    let mut progress = format!("{} of {} cells", done.len(), e.cells.len());
    if !done.is_empty() && left > 0 {
        let pace = done.iter().sum::<f64>() / done.len() as f64;
        progress.push_str(&format!(
            ", about {:.0} min left",
            pace * left as f64 / 60.0
        ));
    }
    let invalid: Vec<String> = e
        .cells
        .iter()
        .filter(|c| c.status == CellStatus::Invalid)
        .map(|c| format!("{}: {}", c.dir, c.reasons.join("; ")))
        .collect();
    let head = Head {
        status: e.status,
        validity: Validity {
            valid: invalid.is_empty(),
            reasons: invalid,
        },
    };
    Ok((running, Some(progress), Some(head)))
}

/// A run's intervals (the last CHART_POINTS of them), its counters over all of them, the
/// requested length, and the server's figures of the last interval.
fn run_figures(dir: &Path, head: Option<&RunHead>) -> Result<Value> {
    let rows = read_csv(&dir.join("intervals.csv"))?;
    let col = |name: &str| rows.0.iter().position(|h| h == name);
    let (t, tps, p95, tx, errors) = (
        col("end_s"),
        col("tps"),
        col("p95_ms"),
        col("transactions"),
        col("errors"),
    );
    let num = |r: &Vec<String>, i: Option<usize>| -> f64 {
        i.and_then(|i| r.get(i))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    };
    let measured: Vec<&Vec<String>> = rows
        .1
        .iter()
        .filter(|r| r.first().is_some_and(|p| p == "measure"))
        .collect();
    let shown = &measured[measured.len().saturating_sub(CHART_POINTS)..];
    let total_s = head.map_or(0.0, |h| h.config.time_s + h.config.warmup_s);
    Ok(json!({
        "intervals": {
            "t": shown.iter().map(|r| num(r, t)).collect::<Vec<_>>(),
            "tps": shown.iter().map(|r| num(r, tps)).collect::<Vec<_>>(),
            "p95_ms": shown.iter().map(|r| num(r, p95)).collect::<Vec<_>>(),
        },
        "transactions": measured.iter().map(|r| num(r, tx)).sum::<f64>(),
        "errors": measured.iter().map(|r| num(r, errors)).sum::<f64>(),
        "elapsed_s": rows.1.last().map_or(0.0, |r| num(r, t)),
        "total_s": total_s,
        "server": server_figures(dir)?,
    }))
}

/// server.csv's last row, the columns of SERVER_COLUMNS it has.
fn server_figures(dir: &Path) -> Result<Value> {
    let path = dir.join("server.csv");
    if !path.exists() {
        return Ok(json!({}));
    }
    let (head, rows) = read_csv(&path)?;
    let Some(last) = rows.last() else {
        return Ok(json!({}));
    };
    let mut m = serde_json::Map::new();
    for name in SERVER_COLUMNS {
        if let Some(v) = head
            .iter()
            .position(|h| h == name)
            .and_then(|i| last.get(i))
        {
            m.insert(name.into(), json!(v));
        }
    }
    Ok(Value::Object(m))
}

/// A CSV file txbench wrote (no quoting): its header and rows; none while it does not exist.
fn read_csv(path: &Path) -> Result<(Vec<String>, Vec<Vec<String>>)> {
    if !path.exists() {
        return Ok((Vec::new(), Vec::new()));
    }
    let bytes = crate::results::read_capped(crate::owned::open(path)?, path)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.lines();
    let head = lines
        .next()
        .unwrap_or_default()
        .split(',')
        .map(String::from)
        .collect();
    // A line being appended may be cut short: only whole lines count.
    let whole = if text.ends_with('\n') {
        usize::MAX
    } else {
        text.lines().count().saturating_sub(2)
    };
    let rows = lines
        .take(whole)
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    Ok((head, rows))
}

#[cfg(test)]
#[path = "live/tests.rs"]
mod tests;
