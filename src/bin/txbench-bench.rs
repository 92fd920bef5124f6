//! `make bench`: speed figures for txbench, printed and never asserted (machines are
//! shared and noisy; compare the ratios measured side by side in one run).

use anyhow::Result;
use std::time::Instant;
use txbench::server::{self, StartOptions, StateDir, cnf::Setting};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn line(label: &str, runs: &[f64]) {
    let all = runs
        .iter()
        .map(|s| format!("{s:.3}"))
        .collect::<Vec<_>>()
        .join(" ");
    println!("  {label:<40} {:>7.3}   runs: {all}", median(runs.to_vec()));
}

/// Sandbox server lifecycle: create (bootstrap + start), restart, stop; median of 5.
fn sandbox(home: &StateDir) -> Result<()> {
    const N: usize = 5;
    let opts = StartOptions {
        name: "bench".into(),
        sets: vec![Setting::parse("innodb_buffer_pool_size=1G")?],
        ..Default::default()
    };
    let (mut create, mut spawn, mut restart, mut stop) = (vec![], vec![], vec![], vec![]);
    for _ in 0..N {
        let t = Instant::now();
        let s = server::start(home, &opts)?;
        create.push(t.elapsed().as_secs_f64());
        spawn.push(s.start_seconds);
        let t = Instant::now();
        server::stop(home, "bench", false)?;
        stop.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        server::start(home, &opts)?;
        restart.push(t.elapsed().as_secs_f64());
        server::stop(home, "bench", true)?;
    }
    println!("== sandbox server (MariaDB, 1 GiB buffer pool), seconds, median of {N}");
    line("new server: bootstrap + start", &create);
    line("  of which spawn to first connection", &spawn);
    line("restart (data directory exists)", &restart);
    line("stop (SQL shutdown until the pid is gone)", &stop);
    Ok(())
}

fn main() {
    let root = std::env::temp_dir().join(format!("txbench-bench-{}", std::process::id()));
    let result = StateDir::at(&root).and_then(|home| sandbox(&home));
    let _ = std::fs::remove_dir_all(&root);
    if let Err(e) = result {
        eprintln!("Error: {}", txbench::error::one_line(&e));
        std::process::exit(1);
    }
}
