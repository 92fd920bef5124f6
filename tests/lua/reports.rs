//! tests/lua.rs's report hooks, on its MariaDB server (a sibling file: lua.rs is long
//! enough): a script's sysbench.hooks.report_intermediate prints each interval in sysbench's
//! formats instead of txbench's lines, and its report_cumulative gets the run's figures.

use super::common::{self, Home, result_json};
use super::{ok, txbench};

const HOOKS: &str = r#"
sysbench.cmdline.options = { format = { "csv or json", "csv" } }
local con
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
function sysbench.hooks.report_intermediate(stat)
   if sysbench.opt.format == "json" then sysbench.report_json(stat)
   else sysbench.report_csv(stat) end
end
function sysbench.hooks.report_cumulative(stat)
   print(string.format("cumulative events=%d reads=%d max=%.6f avg=%.6f", stat.events,
      stat.reads, stat.latency_max, stat.latency_avg))
end
"#;

/// A 3-s run of the hooks' script in `format`, 2 threads, 1-s intervals: its stdout and
/// result.json.
fn run(home: &Home, s: &common::Server, format: &str) -> (String, serde_json::Value) {
    let script = home.path().join("hooks.lua");
    std::fs::write(&script, HOOKS).unwrap();
    let dir = home.path().join(format!("hooks-{format}"));
    let args = ["run", "lua", script.to_str().unwrap(), "--format", format];
    let more = ["--threads=2", "--time=3", "--report-interval=1", "--out"];
    let out = txbench(
        home,
        &s.url,
        &[&args[..], &more, &[dir.to_str().unwrap()]].concat(),
    );
    (ok(&out, "run hooks.lua"), result_json(&dir))
}

pub(super) fn report_hooks_print_the_intervals_and_the_run(home: &Home, s: &common::Server) {
    let (stdout, r) = run(home, s, "csv");
    // sysbench's CSV: time, threads, tps, qps, reads, writes, other, latency, err/s, reconn/s.
    let rows: Vec<Vec<f64>> = stdout
        .lines()
        .filter_map(|l| l.split(',').map(|c| c.parse::<f64>().ok()).collect())
        .filter(|c: &Vec<f64>| c.len() == 10)
        .collect();
    assert!(rows.len() >= 3, "{stdout}");
    assert_eq!(rows[0][0], 1.0, "time_total of the first: {stdout}");
    assert!(
        rows.iter().all(|c| c[1] == 2.0 && c[2] > 0.0 && c[4] > 0.0),
        "{stdout}"
    );
    assert!(
        !stdout.contains("] thds:"),
        "txbench's own interval lines: {stdout}"
    );
    let sum = &r["summary"];
    let cumulative = format!(
        "cumulative events={} reads={} max={:.6}",
        sum["transactions"],
        sum["stmts"]["reads"],
        sum["response"]["max_ms"].as_f64().unwrap() / 1000.0
    );
    assert!(stdout.contains(&cumulative), "{cumulative}\n{stdout}");
    // Before txbench's summary.
    assert!(stdout.find("cumulative") < stdout.find("VALID"), "{stdout}");

    let (stdout, _) = run(home, s, "json");
    let start = stdout.find("[\n").expect("a JSON array");
    let end = stdout.find("\n]\n").expect("closed");
    let intervals: serde_json::Value = serde_json::from_str(&stdout[start..end + 2]).unwrap();
    let intervals = intervals.as_array().unwrap();
    assert!(intervals.len() >= 3, "{stdout}");
    assert_eq!(intervals[0]["threads"], 2, "{stdout}");
    assert!(
        intervals[0]["qps"]["reads"].as_f64().unwrap() > 0.0,
        "{stdout}"
    );
}

/// A report hook that never returns holds neither the run nor txbench's exit: the end waits
/// 2 s for the hooks' thread, says so, and leaves it (before, the exit joined it forever).
pub(super) fn a_hook_that_never_returns_is_left(home: &Home, s: &common::Server) {
    let script = home.path().join("forever.lua");
    std::fs::write(
        &script,
        "local con\nfunction thread_init() con = sysbench.sql.driver():connect() end\n\
         function event() con:query(\"SELECT 1\") end\n\
         function sysbench.hooks.report_intermediate(stat) while true do end end\n",
    )
    .unwrap();
    let dir = home.path().join("forever");
    // Hung, the command never ends: killed at 90 s, far beyond a 2-s run's end on any machine.
    let out = home
        .cmd()
        .args(["--url", &s.url, "run", "lua", script.to_str().unwrap()])
        .args(["--threads=2", "--time=2", "--report-interval=1", "--out"])
        .arg(&dir)
        .timeout(std::time::Duration::from_secs(90))
        .output()
        .unwrap();
    let (_, stderr) = common::text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("report hook had not returned 2 s after the run's end"),
        "{stderr}"
    );
    assert_eq!(result_json(&dir)["validity"]["valid"], true);
}
