//! `make bench`: speed figures for txbench, printed and never asserted (machines are
//! shared and noisy; compare the ratios measured side by side in one run).
//!
//! Client CPU is the child's own user + system time from wait4(2), so each figure covers
//! exactly one driver process. `BENCH_SECONDS` shortens the timed runs (default 30).

use anyhow::{Context, Result, bail};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use txbench::server::{self, StartOptions, StateDir, cnf::Setting};
use txbench::target::TargetUrl;

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
    println!("  {label:<42} {:>7.3}   runs: {all}", median(runs.to_vec()));
}

/// Sandbox server lifecycle: create (bootstrap + start), restart, stop; median of 5.
fn sandbox(home: &StateDir) -> Result<()> {
    const N: usize = 5;
    let opts = StartOptions {
        name: "bench-lifecycle".into(),
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
        server::stop(home, &opts.name, false)?;
        stop.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        server::start(home, &opts)?;
        restart.push(t.elapsed().as_secs_f64());
        server::stop(home, &opts.name, true)?;
    }
    println!("== sandbox server (MariaDB, 1 GiB buffer pool), seconds, median of {N}");
    line("new server: bootstrap + start", &create);
    line("  of which spawn to first connection", &spawn);
    line("restart (data directory exists)", &restart);
    line("stop (SQL shutdown until the pid is gone)", &stop);
    Ok(())
}

/// What one driver process cost.
struct Measured {
    stdout: String,
    cpu_s: f64,
    max_rss_kib: i64,
    wall_s: f64,
}

/// Runs `cmd` to the end and takes its own CPU time and peak RSS from wait4.
fn measure(mut cmd: Command) -> Result<Measured> {
    let t = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {cmd:?}"))?;
    let mut stdout = String::new();
    let mut stderr = String::new();
    if let Some(mut o) = child.stdout.take() {
        o.read_to_string(&mut stdout)?;
    }
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut stderr)?;
    }
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waiting for our own child, with valid pointers.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    if pid < 0 {
        bail!("wait4 failed: {}", std::io::Error::last_os_error());
    }
    let wall_s = t.elapsed().as_secs_f64();
    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        bail!("{cmd:?} failed: {}", stderr.trim());
    }
    let secs = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    Ok(Measured {
        stdout,
        cpu_s: secs(usage.ru_utime) + secs(usage.ru_stime),
        max_rss_kib: usage.ru_maxrss,
        wall_s,
    })
}

fn txbench_bin() -> Result<PathBuf> {
    let me = std::env::current_exe()?;
    let bin = me.with_file_name("txbench");
    if !bin.is_file() {
        bail!(
            "{} not found: build it first (cargo build --release --bins)",
            bin.display()
        );
    }
    Ok(bin)
}

fn sysbench_cmd(url: &TargetUrl, db: &str, args: &[&str]) -> Command {
    let mut c = Command::new("sysbench");
    c.arg(format!("--mysql-host={}", url.host))
        .arg(format!("--mysql-port={}", url.port))
        .arg(format!("--mysql-user={}", url.user))
        .arg(format!("--mysql-db={db}"))
        .args(args);
    c
}

fn txbench_cmd(bin: &Path, url: &str, args: &[&str]) -> Command {
    let mut c = Command::new(bin);
    c.arg("--url").arg(url).args(args);
    c
}

/// sysbench's "transactions: N (X per sec.)" and "queries: N (X per sec.)".
fn sysbench_counts(out: &str) -> Result<(f64, f64)> {
    let grab = |key: &str| -> Option<f64> {
        let l = out.lines().find(|l| l.trim_start().starts_with(key))?;
        l.split_whitespace().nth(1)?.parse().ok()
    };
    match (grab("transactions:"), grab("queries:")) {
        (Some(t), Some(q)) => Ok((t, q)),
        _ => bail!("no transaction count in sysbench output: {out}"),
    }
}

/// The `{"type":"summary"}` line of a `txbench run --json`.
fn txbench_summary(out: &str) -> Result<serde_json::Value> {
    out.lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "summary")
        .context("no summary in txbench output")
}

/// txbench's --json summary: (transactions, queries).
fn txbench_counts(out: &str) -> Result<(f64, f64)> {
    let v = txbench_summary(out)?;
    let s = &v["summary"];
    Ok((
        s["transactions"].as_f64().unwrap_or(0.0),
        s["queries"].as_f64().unwrap_or(0.0),
    ))
}

struct Pair {
    tps: [f64; 2],
    cpu_per_1000: [f64; 2],
    us_per_query: [f64; 2],
}

/// One driver process's counts and CPU.
struct Sample {
    txn: f64,
    queries: f64,
    cpu_s: f64,
}

fn run_sysbench(
    url: &TargetUrl,
    workload: &str,
    tables: &str,
    size: &str,
    threads: u32,
    secs: u32,
) -> Result<Sample> {
    let m = measure(sysbench_cmd(
        url,
        "txbench",
        &[
            workload,
            &format!("--tables={tables}"),
            &format!("--table-size={size}"),
            &format!("--threads={threads}"),
            &format!("--time={secs}"),
            "--rand-type=uniform",
            "--report-interval=0",
            "run",
        ],
    ))?;
    let (txn, queries) = sysbench_counts(&m.stdout)?;
    Ok(Sample {
        txn,
        queries,
        cpu_s: m.cpu_s,
    })
}

fn run_txbench(
    bin: &Path,
    url: &TargetUrl,
    workload: &str,
    tables: &str,
    size: &str,
    threads: u32,
    secs: u32,
) -> Result<Sample> {
    let out = std::env::temp_dir().join(format!("txbench-bench-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let (t, s) = (threads.to_string(), secs.to_string());
    let m = measure(txbench_cmd(
        bin,
        &url.to_string(),
        &[
            "run",
            workload,
            "--tables",
            tables,
            "--table-size",
            size,
            "--threads",
            &t,
            "--time",
            &s,
            "--report-interval",
            &s,
            "--json",
            "--out",
            out.to_str().unwrap_or("/tmp/txbench-bench-run"),
        ],
    ))?;
    let _ = std::fs::remove_dir_all(&out);
    let (txn, queries) = txbench_counts(&m.stdout)?;
    Ok(Sample {
        txn,
        queries,
        cpu_s: m.cpu_s,
    })
}

/// sysbench and txbench on the same tables in ABBA order (sysbench, txbench, txbench,
/// sysbench), so neither always inherits the other's dirty pages; each tool's two runs
/// are added up.
fn side_by_side(
    bin: &Path,
    url: &TargetUrl,
    workload: &str,
    tables: &str,
    size: &str,
    threads: u32,
    secs: u32,
) -> Result<Pair> {
    let sb1 = run_sysbench(url, workload, tables, size, threads, secs)?;
    let tx1 = run_txbench(bin, url, workload, tables, size, threads, secs)?;
    let tx2 = run_txbench(bin, url, workload, tables, size, threads, secs)?;
    let sb2 = run_sysbench(url, workload, tables, size, threads, secs)?;
    let both = |a: &Sample, b: &Sample| Sample {
        txn: a.txn + b.txn,
        queries: a.queries + b.queries,
        cpu_s: a.cpu_s + b.cpu_s,
    };
    let (sb, tx) = (both(&sb1, &sb2), both(&tx1, &tx2));
    let secs = f64::from(2 * secs);
    Ok(Pair {
        tps: [sb.txn / secs, tx.txn / secs],
        cpu_per_1000: [sb.cpu_s / sb.txn * 1000.0, tx.cpu_s / tx.txn * 1000.0],
        us_per_query: [sb.cpu_s / sb.queries * 1e6, tx.cpu_s / tx.queries * 1e6],
    })
}

/// Seconds per timed run: `BENCH_SECONDS`, default 30.
fn bench_seconds() -> u32 {
    std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30)
}

/// A sandbox for one benchmark section, with the given buffer pool.
fn bench_server(home: &StateDir, name: &str, pool: &str) -> Result<TargetUrl> {
    bench_server_with(home, name, &[&format!("innodb_buffer_pool_size={pool}")])
}

/// A sandbox for one benchmark section, with these `--set` settings.
fn bench_server_with(home: &StateDir, name: &str, sets: &[&str]) -> Result<TargetUrl> {
    let started = server::start(
        home,
        &StartOptions {
            name: name.into(),
            sets: sets
                .iter()
                .map(|s| Setting::parse(s))
                .collect::<Result<_>>()?,
            ..Default::default()
        },
    )?;
    Ok(started.record.url())
}

fn driver(home: &StateDir) -> Result<()> {
    let secs = bench_seconds();
    let bin = txbench_bin()?;
    let url = bench_server(home, "bench-driver", "2G")?;
    let url_s = url.to_string();

    // Prepare: txbench into the benchmark database, sysbench into its own.
    println!("\n== prepare oltp_read_write, 4 tables x 100,000 rows, wall seconds");
    let tx = measure(txbench_cmd(
        &bin,
        &url_s,
        &[
            "prepare",
            "oltp_read_write",
            "--tables",
            "4",
            "--table-size",
            "100000",
        ],
    ))?;
    let mut conn = txbench::target::connect(&url)?;
    use mysql::prelude::Queryable;
    conn.query_drop("DROP DATABASE IF EXISTS sbprep")?;
    conn.query_drop("CREATE DATABASE sbprep")?;
    let sb = measure(sysbench_cmd(
        &url,
        "sbprep",
        &[
            "oltp_read_write",
            "--tables=4",
            "--table-size=100000",
            &format!("--threads={}", txbench_cpus()),
            "prepare",
        ],
    ))?;
    conn.query_drop("DROP DATABASE sbprep")?;
    println!(
        "  sysbench 1.0.20 ({} threads) {:>7.2} s   txbench ({} loaders) {:>7.2} s   ratio txbench/sysbench {:.2}",
        txbench_cpus(),
        sb.wall_s,
        txbench_cpus(),
        tx.wall_s,
        tx.wall_s / sb.wall_s
    );

    println!(
        "\n== oltp_read_write on the same 4 x 100,000 tables, 2 x {secs} s per tool, ABBA order"
    );
    println!(
        "  {:>7}  {:>10} {:>10} {:>7}   {:>14} {:>14} {:>7}",
        "threads", "sb tps", "tx tps", "ratio", "sb cpu/1000tx", "tx cpu/1000tx", "ratio"
    );
    for threads in [1u32, 4, 16] {
        let p = side_by_side(&bin, &url, "oltp_read_write", "4", "100000", threads, secs)?;
        println!(
            "  {:>7}  {:>10.1} {:>10.1} {:>7.3}   {:>12.3} s {:>12.3} s {:>7.3}",
            threads,
            p.tps[0],
            p.tps[1],
            p.tps[1] / p.tps[0],
            p.cpu_per_1000[0],
            p.cpu_per_1000[1],
            p.cpu_per_1000[1] / p.cpu_per_1000[0]
        );
    }

    let short = secs.clamp(5, 10);
    println!(
        "\n== per query: oltp_point_select, client CPU µs per query, 2 x {short} s per tool (blocking mysql crate, thread per connection)"
    );
    println!(
        "  {:>7}  {:>10} {:>10} {:>7}",
        "threads", "sysbench", "txbench", "ratio"
    );
    for threads in [4u32, 64] {
        let p = side_by_side(
            &bin,
            &url,
            "oltp_point_select",
            "4",
            "100000",
            threads,
            short,
        )?;
        println!(
            "  {:>7}  {:>10.2} {:>10.2} {:>7.3}",
            threads,
            p.us_per_query[0],
            p.us_per_query[1],
            p.us_per_query[1] / p.us_per_query[0]
        );
    }

    println!("\n== driver memory: oltp_point_select with 1,000 connections, {short} s");
    let out = std::env::temp_dir().join(format!("txbench-bench-rss-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let m = measure(txbench_cmd(
        &bin,
        &url_s,
        &[
            "run",
            "oltp_point_select",
            "--tables",
            "4",
            "--table-size",
            "100000",
            "--threads",
            "1000",
            "--time",
            &short.to_string(),
            "--report-interval",
            &short.to_string(),
            "--json",
            "--out",
            out.to_str().unwrap_or("/tmp/txbench-bench-rss"),
        ],
    ))?;
    let _ = std::fs::remove_dir_all(&out);
    let (txn, _) = txbench_counts(&m.stdout)?;
    println!(
        "  peak RSS {:.1} MiB (target < 100 MiB), {:.0} tps",
        m.max_rss_kib as f64 / 1024.0,
        txn / f64::from(short)
    );
    server::stop(home, "bench-driver", true)?;
    Ok(())
}

/// TPC-C: load speed against the server's own LOAD DATA INFILE, client CPU per
/// transaction, NOPM by thread count, loader memory, check time.
fn tpcc(home: &StateDir) -> Result<()> {
    use mysql::prelude::Queryable;
    let secs = bench_seconds();
    let bin = txbench_bin()?;
    let url = bench_server(home, "bench-tpcc", "4G")?;
    let url_s = url.to_string();
    let mut conn = txbench::target::connect(&url)?;
    let loaders = txbench_cpus().to_string();

    println!(
        "\n== TPC-C load, 2 warehouses, {loaders} loaders, wall seconds (schema, rows, indexes)"
    );
    let load = measure(txbench_cmd(
        &bin,
        &url_s,
        &[
            "prepare",
            "tpcc",
            "--warehouses",
            "2",
            "--load-threads",
            &loaders,
        ],
    ))?;
    // The same rows as CSV files, loaded by the server itself over as many connections.
    let dir = std::env::temp_dir().join(format!("txbench-bench-csv-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    measure(txbench_cmd(
        &bin,
        &url_s,
        &[
            "prepare",
            "tpcc",
            "--warehouses",
            "2",
            "--csv",
            dir.to_str().unwrap_or("/tmp/csv"),
        ],
    ))?;
    conn.query_drop("DROP DATABASE IF EXISTS csvload")?;
    conn.query_drop("CREATE DATABASE csvload")?;
    let script = std::fs::read_to_string(dir.join("load.sql"))?;
    let (loads, ddl): (Vec<&str>, Vec<&str>) = script
        .lines()
        .filter(|l| !l.trim().is_empty())
        .partition(|l| l.starts_with("LOAD DATA"));
    let (create, after): (Vec<&str>, Vec<&str>) =
        ddl.into_iter().partition(|l| l.starts_with("CREATE TABLE"));
    let csv_url = TargetUrl {
        database: "csvload".into(),
        ..url.clone()
    };
    let t = Instant::now();
    let mut c = txbench::target::connect(&csv_url)?;
    for stmt in &create {
        c.query_drop(stmt.trim_end_matches(';'))?;
    }
    let loads: Vec<String> = loads
        .iter()
        .map(|l| l.trim_end_matches(';').to_string())
        .collect();
    txbench::workload::loader::parallel_units(
        &|| txbench::target::connect(&csv_url),
        txbench_cpus() as u32,
        &loads,
        &|c, stmt| c.query_drop(stmt).map_err(anyhow::Error::from),
    )?;
    for stmt in &after {
        c.query_drop(stmt.trim_end_matches(';'))?;
    }
    let server_s = t.elapsed().as_secs_f64();
    conn.query_drop("DROP DATABASE csvload")?;
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "  txbench prepare (LOAD DATA LOCAL from memory) {:>7.2} s   server LOAD DATA INFILE of the same rows {:>7.2} s   ratio {:.2} (target <= 1.3; 4 s for 2 warehouses)",
        load.wall_s,
        server_s,
        load.wall_s / server_s
    );

    // The stored procedures, for the second mode.
    measure(txbench_cmd(
        &bin,
        &url_s,
        &["prepare", "tpcc", "--warehouses", "2", "--procedures"],
    ))?;
    let out = std::env::temp_dir().join(format!("txbench-bench-tpcc-{}", std::process::id()));
    let run = |threads: u32, secs: u32, procedures: bool| -> Result<(f64, f64, f64)> {
        let _ = std::fs::remove_dir_all(&out);
        let (t, s) = (threads.to_string(), secs.to_string());
        let mut args = vec![
            "run",
            "tpcc",
            "--threads",
            &t,
            "--time",
            &s,
            "--warmup",
            "5",
            "--report-interval",
            &s,
            "--json",
            "--out",
            out.to_str().unwrap_or("/tmp/txbench-bench-tpcc"),
        ];
        if procedures {
            args.push("--procedures");
        }
        let m = measure(txbench_cmd(&bin, &url_s, &args))?;
        let _ = std::fs::remove_dir_all(&out);
        let (txn, _) = txbench_counts(&m.stdout)?;
        let new_orders = txbench_summary(&m.stdout)?["summary"]["kinds"][0]["completed"]
            .as_f64()
            .unwrap_or(0.0);
        // CPU includes the 5 s warm-up: count its transactions in proportion.
        let cpu_per_1000 = m.cpu_s / (txn * f64::from(secs + 5) / f64::from(secs)) * 1000.0;
        Ok((
            new_orders / f64::from(secs) * 60.0,
            txn / f64::from(secs),
            cpu_per_1000,
        ))
    };
    for procedures in [false, true] {
        println!(
            "\n== TPC-C run, {}, 2 warehouses, no think time",
            if procedures {
                "stored procedures (--procedures)"
            } else {
                "client-side SQL"
            }
        );
        println!(
            "  {:>7}  {:>10} {:>10} {:>16}",
            "threads", "NOPM", "txn/s", "cpu/1000 txn"
        );
        for threads in [1u32, 4, 16] {
            let t_secs = if threads == 4 {
                secs
            } else {
                (secs / 2).max(5)
            };
            let (nopm, tps, cpu) = run(threads, t_secs, procedures)?;
            println!("  {threads:>7}  {nopm:>10.0} {tps:>10.1} {cpu:>14.3} s");
        }
    }
    println!(
        "  (targets at 4 threads: client SQL <= 0.25 s client CPU per 1,000 (go-tpc 0.85, sysbench-tpcc 0.67, tpcc-mysql 0.40-0.55);\n   procedures <= 0.10 s and >= HammerDB's ~1500 txn/s, which spent 0.15 s)"
    );

    println!("\n== TPC-C loader memory and check time, 10 warehouses");
    conn.query_drop("DROP DATABASE IF EXISTS tpcc10")?;
    conn.query_drop("CREATE DATABASE tpcc10")?;
    let url10 = TargetUrl {
        database: "tpcc10".into(),
        ..url.clone()
    };
    let load10 = measure(txbench_cmd(
        &bin,
        &url10.to_string(),
        &[
            "prepare",
            "tpcc",
            "--warehouses",
            "10",
            "--load-threads",
            &loaders,
        ],
    ))?;
    let check10 = measure(txbench_cmd(
        &bin,
        &url10.to_string(),
        &["check", "tpcc", "-q"],
    ))?;
    println!(
        "  load {:.1} s, loader peak RSS {:.1} MiB; check tpcc (12 conditions) {:.2} s (target <= 10 s)",
        load10.wall_s,
        load10.max_rss_kib as f64 / 1024.0,
        check10.wall_s
    );
    conn.query_drop("DROP DATABASE tpcc10")?;
    server::stop(home, "bench-tpcc", true)?;
    Ok(())
}

/// TPC-B per history key at seed 002's thread counts, in the seed's table form, measured
/// with txbench's own sweeps and judged with `txbench compare` (Welch on per-interval
/// throughput); and client CPU per TPC-B transaction against oltp_write_only's.
fn tpcb(home: &StateDir) -> Result<()> {
    use mysql::prelude::Queryable;
    let secs = (bench_seconds() / 3).max(5).to_string();
    let bin = txbench_bin()?;
    let levels = "4,8,16,24";
    let scale = "4";
    let root = std::env::temp_dir().join(format!("txbench-bench-tpcb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root)?;
    // A sweep into `dir`; returns per level (threads, tps, client CPU s per 1,000 txn) from
    // the levels' result.json (measured phase only).
    let sweep = |url: &str, args: &[&str], dir: &Path| -> Result<Vec<(u64, f64, f64)>> {
        let mut all = vec!["run"];
        all.extend_from_slice(args);
        all.extend([
            "--threads",
            levels,
            "--time",
            &secs,
            "--warmup",
            "2",
            "--report-interval",
            "1",
            "-q",
            "--out",
            dir.to_str().unwrap_or("/tmp/txbench-bench-tpcb"),
        ]);
        measure(txbench_cmd(&bin, url, &all))?;
        let sw: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("sweep.json"))?)?;
        let mut out = Vec::new();
        for l in sw["runs"].as_array().context("sweep.json has no runs")? {
            let r: serde_json::Value = serde_json::from_slice(&std::fs::read(
                dir.join(l["dir"].as_str().unwrap_or_default())
                    .join("result.json"),
            )?)?;
            let s = &r["summary"];
            let txn = s["transactions"].as_f64().unwrap_or(0.0).max(1.0);
            out.push((
                l["threads"].as_u64().unwrap_or(0),
                s["tps"].as_f64().unwrap_or(0.0),
                s["client_cpu_s"].as_f64().unwrap_or(0.0) / txn * 1000.0,
            ));
        }
        Ok(out)
    };
    // Each configuration on fresh tables: (label, server, --history-key). autoinc runs first
    // and again last, so the table shows what the order and the noise alone do.
    let url = bench_server(home, "bench-tpcb", "2G")?;
    let lm0 = bench_server_with(
        home,
        "bench-tpcb-lm0",
        &["innodb_buffer_pool_size=2G", "innodb_autoinc_lock_mode=0"],
    )?;
    let configs = [
        ("autoinc", &url, "autoinc"),
        ("none", &url, "none"),
        ("client", &url, "client"),
        ("autoinc-again", &url, "autoinc"),
        ("autoinc-lm0", &lm0, "autoinc"),
    ];
    println!(
        "\n== TPC-B, scale {scale} (10 tellers, 100,000 accounts per branch), sweeps of {levels} threads, {secs} s per level after 2 s warm-up\n   (autoinc-again: autoinc once more after the others; autoinc-lm0: autoinc on a server with innodb_autoinc_lock_mode=0,\n    the table-level AUTO-INC lock; verdicts from `txbench compare`)"
    );
    for (vi, variant) in [&["tpcb"][..], &["tpcb", "--history-only"][..]]
        .iter()
        .enumerate()
    {
        let name = if vi == 0 {
            "the TPC-B transaction (pgbench's default)"
        } else {
            "--history-only (the history INSERT alone, seed 002's isolated transaction)"
        };
        println!("\n-- {name}");
        let mut dirs = Vec::new();
        for (label, url, key) in &configs {
            let u = url.to_string();
            measure(txbench_cmd(&bin, &u, &["cleanup", "tpcb", "-q"]))?;
            measure(txbench_cmd(
                &bin,
                &u,
                &["prepare", "tpcb", "--scale", scale, "--history-key", key],
            ))?;
            let dir = root.join(format!("{vi}-{label}"));
            let levels = sweep(&u, variant, &dir)?;
            println!("\nTPC-B results for --history-key {label}\n");
            println!("Thread(s) Value(s)        client cpu/1000 txn");
            println!("-------------------------------------------");
            for (t, tps, cpu) in levels {
                println!("{t:<9} {tps:<16.4} {cpu:.3} s");
            }
            dirs.push(dir);
        }
        let mut args: Vec<&str> = vec!["compare"];
        args.extend(dirs.iter().map(|d| d.to_str().unwrap_or_default()));
        args.push("--json");
        let mut compare = Command::new(&bin);
        compare.args(&args);
        let cmp = measure(compare)?;
        let v: serde_json::Value = serde_json::from_str(cmp.stdout.trim())?;
        println!(
            "\nDeviation percentage(s) against autoinc (throughput; * = significant at 95 %)\n"
        );
        println!(
            "Threads {}",
            configs[1..]
                .iter()
                .map(|(l, _, _)| format!(" {l:>13} "))
                .collect::<String>()
        );
        println!("------- {}", "-".repeat(15 * (configs.len() - 1)));
        for row in v["rows"].as_array().context("compare printed no rows")? {
            let cells: Vec<String> = row["new"]
                .as_array()
                .map(|n| {
                    n.iter()
                        .map(|s| {
                            let d = &s["vs_base"];
                            let mark = if d["verdict"] == "no_significant_difference" {
                                " "
                            } else {
                                "*"
                            };
                            format!(
                                " {:>12.1}%{mark}",
                                d["deviation_pct"].as_f64().unwrap_or(f64::NAN)
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            println!("{:<7} {}", row["threads"], cells.join(""));
        }
    }
    server::stop(home, "bench-tpcb-lm0", true)?;

    // Client CPU per transaction: TPC-B (autoinc) against oltp_write_only, same server,
    // alternating level by level.
    let mut conn = txbench::target::connect(&url)?;
    let u = url.to_string();
    measure(txbench_cmd(&bin, &u, &["cleanup", "tpcb", "-q"]))?;
    measure(txbench_cmd(
        &bin,
        &u,
        &["prepare", "tpcb", "--scale", scale],
    ))?;
    conn.query_drop("DROP DATABASE IF EXISTS oltp")?;
    conn.query_drop("CREATE DATABASE oltp")?;
    let oltp = TargetUrl {
        database: "oltp".into(),
        ..url.clone()
    }
    .to_string();
    let sizes = ["--tables", "4", "--table-size", "100000"];
    let mut prep = vec!["prepare", "oltp_write_only"];
    prep.extend(sizes);
    measure(txbench_cmd(&bin, &oltp, &prep))?;
    let mut wo = vec!["oltp_write_only"];
    wo.extend(sizes);
    let b = sweep(&u, &["tpcb"], &root.join("cpu-tpcb"))?;
    let w = sweep(&oltp, &wo, &root.join("cpu-write-only"))?;
    println!(
        "\n== client CPU per transaction (measured phase, from result.json): tpcb (7 statements) vs oltp_write_only (6 statements)"
    );
    println!(
        "  {:>7}  {:>10} {:>14}  {:>10} {:>14}  {:>6}",
        "threads", "tpcb tps", "cpu/1000 txn", "wo tps", "cpu/1000 txn", "ratio"
    );
    for ((t, b_tps, b_cpu), (_, w_tps, w_cpu)) in b.iter().zip(&w) {
        println!(
            "  {t:>7}  {b_tps:>10.1} {b_cpu:>12.3} s  {w_tps:>10.1} {w_cpu:>12.3} s  {:>6.2}",
            b_cpu / w_cpu
        );
    }
    println!("  (target: ratio <= 1.5)");
    let _ = std::fs::remove_dir_all(&root);
    server::stop(home, "bench-tpcb", true)?;
    Ok(())
}

fn txbench_cpus() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

fn main() {
    let root = std::env::temp_dir().join(format!("txbench-bench-{}", std::process::id()));
    let result = StateDir::at(&root).and_then(|home| {
        let only = std::env::args().nth(1);
        let r = match only.as_deref() {
            Some("tpcc") => tpcc(&home),
            Some("tpcb") => tpcb(&home),
            _ => sandbox(&home)
                .and_then(|_| driver(&home))
                .and_then(|_| tpcc(&home))
                .and_then(|_| tpcb(&home)),
        };
        // Whatever failed, no sandbox outlives the benchmark.
        for name in [
            "bench-lifecycle",
            "bench-driver",
            "bench-tpcc",
            "bench-tpcb",
            "bench-tpcb-lm0",
        ] {
            let _ = server::stop(&home, name, true);
        }
        r
    });
    let _ = std::fs::remove_dir_all(&root);
    if let Err(e) = result {
        eprintln!("Error: {}", txbench::error::one_line(&e));
        std::process::exit(1);
    }
}
