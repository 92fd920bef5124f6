//! Topologies: TPC-C (2 warehouses, 4 threads, stored procedures, the same in every
//! configuration) on a server alone, a primary with an asynchronous replica, one with a
//! semi-synchronous replica, and a 3-node Galera cluster written through one node and through
//! all three; then oltp_read_write on two instances, each alone and both together (seed 001
//! §2.1). Every configuration keeps its own servers and data; the configurations run in
//! rotated order round by round, so that neither drift nor order favours one.

use super::*;
use txbench::server::cluster::{self, Request};

const ROUNDS: usize = 3;

/// Starts a topology of small-buffer-pool sandboxes; returns every member's URL, first first.
fn start(home: &StateDir, name: &str, req: Request) -> Result<Vec<String>> {
    let opts = StartOptions {
        name: name.into(),
        sets: vec![Setting::parse("innodb_buffer_pool_size=512M")?],
        ..Default::default()
    };
    Ok(cluster::start(home, &opts, req)?
        .iter()
        .map(|s| s.record.login_url().to_string())
        .collect())
}

/// One run's throughput (transactions and NOPM per second/minute) and whether it was valid.
struct Figures {
    tps: f64,
    nopm: f64,
    valid: bool,
}

fn run(bin: &Path, targets: &[String], args: &[&str], secs: u32) -> Result<Figures> {
    let s = secs.to_string();
    let mut cmd = Command::new(bin);
    for t in targets {
        cmd.arg("--url").arg(t);
    }
    cmd.arg("run")
        .args(args)
        .args(["--time", &s, "--warmup", "3", "--report-interval", "5"]);
    let (m, _) = with_out(cmd)?;
    let v = txbench_summary(&m.stdout)?;
    let nopm = v["workload_report"]["headline"]
        .as_array()
        .and_then(|h| h.iter().find(|p| p[0] == "NOPM"))
        .and_then(|p| p[1].as_str()?.parse().ok())
        .unwrap_or(0.0);
    Ok(Figures {
        tps: v["summary"]["tps"].as_f64().unwrap_or(0.0),
        nopm,
        valid: v["validity"]["valid"].as_bool().unwrap_or(false),
    })
}

/// Runs `configs` round-robin for ROUNDS rounds, each round starting one later; returns each
/// configuration's figures in round order.
fn rotated(
    bin: &Path,
    configs: &[(&str, Vec<String>, Vec<&str>)],
    secs: u32,
) -> Result<Vec<Vec<Figures>>> {
    let mut out: Vec<Vec<Figures>> = configs.iter().map(|_| Vec::new()).collect();
    for i in rotation(ROUNDS, configs.len()) {
        let (_, targets, args) = &configs[i];
        out[i].push(run(bin, targets, args, secs)?);
    }
    Ok(out)
}

fn print(label: &str, runs: &[Figures], value: impl Fn(&Figures) -> f64) {
    let invalid = runs.iter().filter(|f| !f.valid).count();
    let all = runs
        .iter()
        .map(|f| format!("{:.0}", value(f)))
        .collect::<Vec<_>>()
        .join(" ");
    println!(
        "  {label:<46} {:>9.0}   runs: {all}{}",
        median(runs.iter().map(&value).collect()),
        if invalid > 0 {
            format!("  ({invalid} INVALID)")
        } else {
            String::new()
        }
    );
}

/// Prepares TPC-C with procedures through `url`.
fn prepare_tpcc(bin: &Path, url: &str) -> Result<()> {
    let status = Command::new(bin)
        .args(["--url", url, "prepare", "tpcc", "--warehouses", "2"])
        .args(["--procedures", "-q"])
        .status()?;
    if !status.success() {
        bail!("prepare tpcc on {url} failed");
    }
    Ok(())
}

pub fn topology(home: &StateDir) -> Result<()> {
    let bin = txbench_bin()?;
    let secs = bench_seconds().min(20);
    let single = start(home, "bench-topo-single", Request::default())?;
    let asynchronous = start(
        home,
        "bench-topo-async",
        Request {
            replicas: Some(1),
            ..Default::default()
        },
    )?;
    let semisync = start(
        home,
        "bench-topo-semi",
        Request {
            replicas: Some(1),
            semisync: true,
            ..Default::default()
        },
    )?;
    let galera = start(
        home,
        "bench-topo-galera",
        Request {
            galera: Some(3),
            ..Default::default()
        },
    )?;
    for url in [&single[0], &asynchronous[0], &semisync[0], &galera[0]] {
        prepare_tpcc(&bin, url)?;
    }
    let tpcc = vec!["tpcc", "--procedures", "--threads", "4", "--retries", "100"];
    let configs = vec![
        ("server alone", vec![single[0].clone()], tpcc.clone()),
        (
            "primary + asynchronous replica",
            vec![asynchronous[0].clone()],
            tpcc.clone(),
        ),
        (
            "primary + semi-synchronous replica",
            vec![semisync[0].clone()],
            tpcc.clone(),
        ),
        (
            "3-node Galera, written through node 1",
            vec![galera[0].clone()],
            tpcc.clone(),
        ),
        (
            "3-node Galera, written through all 3",
            galera.clone(),
            tpcc.clone(),
        ),
    ];
    println!(
        "== topologies: TPC-C NOPM, 2 warehouses, 4 threads, --procedures, {secs} s after 3 s warm-up, median of {ROUNDS} rotated rounds"
    );
    let figures = rotated(&bin, &configs, secs)?;
    for ((label, _, _), runs) in configs.iter().zip(&figures) {
        print(label, runs, |f| f.nopm);
    }
    for name in [
        "bench-topo-single",
        "bench-topo-async",
        "bench-topo-semi",
        "bench-topo-galera",
    ] {
        let _ = cluster::stop(home, name, true);
    }

    // Seed 001 §2.1: two instances, each alone and both together.
    let a = start(home, "bench-topo-a", Request::default())?;
    let b = start(home, "bench-topo-b", Request::default())?;
    for url in [&a[0], &b[0]] {
        let status = Command::new(&bin)
            .args([
                "--url",
                url,
                "prepare",
                "oltp_read_write",
                "--table-size",
                "100000",
            ])
            .args(["-q"])
            .status()?;
        if !status.success() {
            bail!("prepare oltp_read_write on {url} failed");
        }
    }
    let rw = |threads: &'static str| {
        vec![
            "oltp_read_write",
            "--table-size",
            "100000",
            "--threads",
            threads,
        ]
    };
    let configs = vec![
        ("instance A alone, 4 threads", vec![a[0].clone()], rw("4")),
        ("instance B alone, 4 threads", vec![b[0].clone()], rw("4")),
        (
            "A and B together, 4 threads each",
            vec![a[0].clone(), b[0].clone()],
            rw("8"),
        ),
    ];
    println!(
        "== two instances on one host (seed 001 §2.1): oltp_read_write tps, {secs} s, median of {ROUNDS} rotated rounds"
    );
    let figures = rotated(&bin, &configs, secs)?;
    for ((label, _, _), runs) in configs.iter().zip(&figures) {
        print(label, runs, |f| f.tps);
    }
    let apart = median(figures[0].iter().map(|f| f.tps).collect())
        + median(figures[1].iter().map(|f| f.tps).collect());
    let together = median(figures[2].iter().map(|f| f.tps).collect());
    println!(
        "  together / (A alone + B alone)                 {:>9.2}",
        together / apart
    );
    Ok(())
}
