//! Server metrics: what sampling costs. Throughput with the sampler on against off
//! (`--no-server-metrics`), and with every INNODB_METRICS counter enabled against none, on
//! one server and the same data, the three configurations rotated round by round (A B C,
//! B C A, C A B) so that neither drift nor order favours one; and the sampler's own wall
//! time per interval.

use super::*;
use mysql::prelude::Queryable;

/// One configuration of a round.
#[derive(Clone, Copy, PartialEq)]
enum Config {
    /// Sampler on, the sandbox's InnoDB monitor counters enabled.
    On,
    /// Sampler off (`--no-server-metrics`), monitors still enabled.
    Off,
    /// Sampler off and every monitor counter disabled (the server's default ones too).
    NoMonitors,
}

const CONFIGS: [Config; 3] = [Config::On, Config::Off, Config::NoMonitors];
const ROUNDS: usize = 6;

/// Figures of one run.
struct Run {
    tps: f64,
    sample_ms_avg: f64,
    sample_ms_max: f64,
    skipped: f64,
}

fn one_run(bin: &Path, url: &str, args: &[&str], config: Config, secs: u32) -> Result<Run> {
    let s = secs.to_string();
    let mut full: Vec<&str> = vec!["run"];
    full.extend_from_slice(args);
    full.extend_from_slice(&[
        "--threads",
        "4",
        "--time",
        &s,
        "--warmup",
        "2",
        "--report-interval",
        "1",
    ]);
    if config != Config::On {
        full.push("--no-server-metrics");
    }
    let (m, _) = with_out(txbench_cmd(bin, url, &full))?;
    let v = txbench_summary(&m.stdout)?;
    let s = &v["summary"];
    let srv = &s["server"];
    Ok(Run {
        tps: s["tps"].as_f64().unwrap_or(0.0),
        sample_ms_avg: srv["sample_ms_avg"].as_f64().unwrap_or(0.0),
        sample_ms_max: srv["sample_ms_max"].as_f64().unwrap_or(0.0),
        skipped: srv["skipped_samples"].as_f64().unwrap_or(0.0),
    })
}

/// The sandbox's monitor counters (`on`), or none of them: set by its administrator (the
/// benchmark's login may not SET GLOBAL).
fn monitors(admin: &TargetUrl, on: bool) -> Result<()> {
    let mut c = txbench::engine::mysql::connect(admin)?;
    c.query_drop("SET GLOBAL innodb_monitor_disable = 'all'")?;
    if on {
        for m in txbench::server::cnf::INNODB_MONITORS {
            // A counter this server does not have (MySQL's trx_active_transactions on
            // MariaDB) is skipped, as the server skips it at startup.
            let _ = c.query_drop(format!("SET GLOBAL innodb_monitor_enable = '{m}'"));
        }
    }
    Ok(())
}

use txbench::analysis::stats::{mean, std_dev, t95};

/// The mean of the per-round ratios a/b − 1, in %, with its 95 % confidence half-width (the
/// rounds are the samples: each round ran every configuration once, side by side).
pub(super) fn paired(a: &[f64], b: &[f64]) -> (f64, f64) {
    let d: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x / y - 1.0) * 100.0)
        .collect();
    let n = d.len() as f64;
    let half = if d.len() > 1 {
        t95(n - 1.0) * std_dev(&d) / n.sqrt()
    } else {
        f64::NAN
    };
    (mean(&d), half)
}

/// The rounds of one workload; prints its line.
fn workload(
    bin: &Path,
    (url, admin): (&TargetUrl, &TargetUrl),
    label: &str,
    args: &[&str],
    secs: u32,
) -> Result<()> {
    let url_s = url.to_string();
    let mut tps: [Vec<f64>; 3] = Default::default();
    let mut sample_avg = Vec::new();
    let mut sample_max: f64 = 0.0;
    let mut skipped = 0.0;
    for i in rotation(ROUNDS, CONFIGS.len()) {
        let config = CONFIGS[i];
        monitors(admin, config != Config::NoMonitors)?;
        let r = one_run(bin, &url_s, args, config, secs)?;
        tps[i].push(r.tps);
        if config == Config::On {
            sample_avg.push(r.sample_ms_avg);
            sample_max = sample_max.max(r.sample_ms_max);
            skipped += r.skipped;
        }
    }
    monitors(admin, true)?;
    let [on, off, none] = [mean(&tps[0]), mean(&tps[1]), mean(&tps[2])];
    let (d_on, h_on) = paired(&tps[0], &tps[1]);
    let (d_mon, h_mon) = paired(&tps[1], &tps[2]);
    let rounds = |v: &[f64]| {
        v.iter()
            .map(|t| format!("{t:.0}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!(
        "  {label:<18} {on:>9.1} {off:>9.1} {none:>9.1}   {d_on:>+6.2} ± {h_on:.2} %   {d_mon:>+6.2} ± {h_mon:.2} %"
    );
    println!(
        "  {:<18} rounds: on {} | off {} | no monitors {}",
        "",
        rounds(&tps[0]),
        rounds(&tps[1]),
        rounds(&tps[2])
    );
    let cpus = txbench_cpus() as f64;
    println!(
        "  {:<18} sampler wall time per 1 s interval: {:.2} ms on average, {:.2} ms at most, {skipped:.0} samples skipped: at most {:.2} % of this host's {cpus} CPUs",
        "",
        mean(&sample_avg),
        sample_max,
        mean(&sample_avg) / 1000.0 / cpus * 100.0
    );
    Ok(())
}

pub(super) fn sampling(home: &StateDir) -> Result<()> {
    let secs = (bench_seconds() / 3).max(5);
    let bin = txbench_bin()?;
    let url = bench_server(home, "bench-sampling", "2G")?;
    let admin = server::get(home, "bench-sampling")?.record.admin_url();
    let url_s = url.to_string();
    let prepare = |args: &[&str]| txbench_prepare(&bin, &url_s, args);
    println!(
        "\n== server metrics: cost of sampling, 4 threads, {ROUNDS} rounds of {secs} s after 2 s warm-up, 1 s intervals, order rotated per round"
    );
    println!(
        "  {:<18} {:>9} {:>9} {:>9}   {:>14}   {:>14}",
        "tps", "on", "off", "no mon.", "on/off", "mon/none"
    );
    println!(
        "  (on: sampler on with the sandbox's INNODB_METRICS counters; off: --no-server-metrics; no mon.: off and innodb_monitor_disable=all)"
    );
    let point = [
        "oltp_point_select",
        "--tables",
        "4",
        "--table-size",
        "100000",
    ];
    prepare(&point)?;
    workload(&bin, (&url, &admin), "oltp_point_select", &point, secs)?;
    measure(txbench_cmd(
        &bin,
        &url_s,
        &["cleanup", "oltp_point_select", "--tables", "4"],
    ))?;
    prepare(&["tpcc", "--warehouses", "2"])?;
    workload(&bin, (&url, &admin), "tpcc (2 wh)", &["tpcc"], secs)?;
    println!(
        "  (on/off and mon/none: mean of the per-round ratios with the 95 % confidence half-width, rounds as samples; target: the sampler within 1 %)"
    );
    server::stop(home, "bench-sampling", true)?;
    Ok(())
}
