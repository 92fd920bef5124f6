//! The cost of observing: throughput and the client's CPU per 1,000 transactions with the
//! server monitor off (`--no-server-metrics`), on (the default) and on with the server's CPU
//! profiled (`--profile`), at 4 and 16 threads, for oltp_read_write and TPC-C, on one server
//! and the same data, the three configurations rotated round by round (A B C, B C A, C A B).
//! Beside the ratios, what each run says it cost directly: the monitor thread's own CPU in
//! the measured phase and perf's.

use super::sampling::paired;
use super::*;
use txbench::analysis::stats::mean;

/// One configuration of a round.
#[derive(Clone, Copy, PartialEq)]
enum Config {
    /// `--no-server-metrics`: only the watch for a frozen server.
    Off,
    /// The default: the server monitor.
    On,
    /// The monitor and `--profile` (perf on the server).
    Profile,
}

const CONFIGS: [Config; 3] = [Config::Off, Config::On, Config::Profile];
const ROUNDS: usize = 4;

/// Figures of one run.
struct Run {
    tps: f64,
    /// Client CPU s per 1,000 transactions, measured phase.
    cpu_per_1000: f64,
    /// The monitor's own CPU as % of the client's, measured phase.
    monitor_pct: f64,
    /// perf's CPU as % of the host's CPU time over the recording.
    perf_pct: f64,
    /// The server's CPU per transaction, ms (none without the monitor).
    server_ms: f64,
}

fn one_run(bin: &Path, url: &str, args: &[&str], threads: u32, config: Config) -> Result<Run> {
    let secs = bench_seconds().clamp(10, 30).to_string();
    let threads = threads.to_string();
    let mut full: Vec<&str> = vec!["run"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["--threads", &threads, "--time", &secs, "--warmup", "3"]);
    match config {
        Config::Off => full.push("--no-server-metrics"),
        Config::On => {}
        Config::Profile => full.push("--profile"),
    }
    let (_, v) = with_out(txbench_cmd(bin, url, &full))?;
    let s = &v["summary"];
    let txn = s["transactions"].as_f64().unwrap_or(0.0).max(1.0);
    let client_cpu = s["client_cpu_s"].as_f64().unwrap_or(0.0);
    let monitor_ms = s["server"]["monitor_cpu_ms"].as_f64().unwrap_or(0.0);
    let perf_pct = v["profiles"]
        .get(0)
        .map(|p| {
            let cpu = p["perf_cpu_ms"].as_f64().unwrap_or(0.0);
            let wall = p["seconds"].as_f64().unwrap_or(1.0).max(1e-9);
            cpu / (wall * 1000.0 * txbench_cpus() as f64) * 100.0
        })
        .unwrap_or(0.0);
    Ok(Run {
        tps: s["tps"].as_f64().unwrap_or(0.0),
        cpu_per_1000: client_cpu / txn * 1000.0,
        monitor_pct: monitor_ms / (client_cpu * 1000.0).max(1e-9) * 100.0,
        perf_pct,
        server_ms: s["server"]["per_transaction"]["server_cpu_ms"]
            .as_f64()
            .unwrap_or(0.0),
    })
}

/// The rounds of one workload at one thread count; prints its lines.
fn level(bin: &Path, url: &TargetUrl, label: &str, args: &[&str], threads: u32) -> Result<()> {
    let url_s = url.to_string();
    let mut runs: [Vec<Run>; 3] = Default::default();
    for i in rotation(ROUNDS, CONFIGS.len()) {
        runs[i].push(one_run(bin, &url_s, args, threads, CONFIGS[i])?);
    }
    let col = |i: usize, f: fn(&Run) -> f64| runs[i].iter().map(f).collect::<Vec<f64>>();
    let (tps, cpu) = (|r: &Run| r.tps, |r: &Run| r.cpu_per_1000);
    let pm = |(d, h): (f64, f64)| format!("{d:>+6.2} ± {h:.2} %");
    println!(
        "  {label:<16} {threads:>3}   {:>8.0} {:>8.0} {:>8.0}   {}   {}   {}   {}",
        mean(&col(0, tps)),
        mean(&col(1, tps)),
        mean(&col(2, tps)),
        pm(paired(&col(1, tps), &col(0, tps))),
        pm(paired(&col(2, tps), &col(1, tps))),
        pm(paired(&col(1, cpu), &col(0, cpu))),
        pm(paired(&col(2, cpu), &col(1, cpu))),
    );
    println!(
        "  {:<20}   client CPU s/1000 txn: off {:.4}, on {:.4}, profiled {:.4}; direct: the monitor {:.2} % of the client's CPU, perf {:.2} % of the host's",
        "",
        mean(&col(0, cpu)),
        mean(&col(1, cpu)),
        mean(&col(2, cpu)),
        mean(&col(1, |r| r.monitor_pct)),
        mean(&col(2, |r| r.perf_pct)),
    );
    let srv = |r: &Run| r.server_ms;
    println!(
        "  {:<20}   server CPU ms/txn: on {:.4}, profiled {:.4}, prof./on {} (what perf's sampling costs the server per transaction)",
        "",
        mean(&col(1, srv)),
        mean(&col(2, srv)),
        pm(paired(&col(2, srv), &col(1, srv))),
    );
    Ok(())
}

pub(super) fn observing(home: &StateDir) -> Result<()> {
    let bin = txbench_bin()?;
    let url = bench_server(home, "bench-observing", "2G")?;
    let url_s = url.to_string();
    let prepare = |args: &[&str]| txbench_prepare(&bin, &url_s, args);
    println!(
        "\n== the cost of observing: {ROUNDS} rounds of {} s after 3 s warm-up, order rotated per round (off: --no-server-metrics; on: the default monitor; prof.: on with --profile)",
        bench_seconds().clamp(10, 30)
    );
    println!(
        "  {:<16} {:>3}   {:>8} {:>8} {:>8}   {:>14}   {:>14}   {:>14}   {:>14}",
        "workload",
        "thr",
        "tps off",
        "on",
        "prof.",
        "tps on/off",
        "tps prof./on",
        "cpu on/off",
        "cpu prof./on"
    );
    let rw = ["oltp_read_write", "--tables", "4", "--table-size", "10000"];
    prepare(&rw)?;
    for t in [4, 16] {
        level(&bin, &url, "oltp_read_write", &rw, t)?;
    }
    measure(txbench_cmd(
        &bin,
        &url_s,
        &["cleanup", "oltp_read_write", "--tables", "4"],
    ))?;
    prepare(&["tpcc", "--warehouses", "2"])?;
    for t in [4, 16] {
        level(&bin, &url, "tpcc (2 wh)", &["tpcc"], t)?;
    }
    println!(
        "  (ratios: mean of the per-round ratios with the 95 % confidence half-width, rounds as samples; cpu: the client's CPU per transaction in the measured phase; targets: the monitor ≤ 1 % of the client's CPU, monitor and profiler ≤ 2 % of throughput)"
    );
    server::stop(home, "bench-observing", true)?;
    Ok(())
}
