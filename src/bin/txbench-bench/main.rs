//! `make bench`: speed figures for txbench, printed and never asserted (machines are
//! shared and noisy; compare the ratios measured side by side in one run).
//!
//! Client CPU is the child's own user + system time from wait4(2), so each figure covers
//! exactly one driver process. `BENCH_SECONDS` shortens the timed runs (default 30).

// Each section is a script of measurements printed in order, not the program's heart:
// `make lint`'s bound on function length (clippy's too_many_lines) is for src/ outside it.
#![allow(clippy::too_many_lines)]

use anyhow::{Context, Result, bail};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use txbench::engine::TargetUrl;
use txbench::server::{self, StartOptions, StateDir, cnf::Setting};

mod driver;
mod lua;
mod observing;
mod postgres;
mod rounds;
mod sampling;
mod snapshot;
mod terminals;
mod terminals_read_only;
mod topology;
mod tpcb;
mod tpcc;

use driver::driver;
use lua::lua;
use observing::observing;
use postgres::postgres;
use sampling::sampling;
use snapshot::snapshot_vs_reload;
use terminals::terminals;
use topology::topology;
use tpcb::tpcb;
use tpcc::tpcc;

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

/// Runs `cmd` to the end and takes its own CPU time and peak RSS from wait4; an exit other
/// than 0 is an error naming the command and what it said.
fn measure(cmd: Command) -> Result<Measured> {
    measure_exit(cmd, &[0]).map(|(m, _)| m)
}

/// The same, where any exit code in `ok` is accepted (a `txbench run` that exits 3 for an
/// INVALID run still measured its client), returned beside the figures.
fn measure_exit(mut cmd: Command, ok: &[i32]) -> Result<(Measured, i32)> {
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
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    if !ok.contains(&code) {
        // The command, any password=… in it hidden (a guard: none is given one), and what
        // it said (sysbench says its errors on stdout).
        let shown: Vec<String> = std::iter::once(cmd.get_program())
            .chain(cmd.get_args())
            .map(|a| {
                let a = a.to_string_lossy();
                match a.split_once("password=") {
                    Some((key, _)) => format!("{key}password=…"),
                    None => a.into_owned(),
                }
            })
            .collect();
        let said = if stderr.trim().is_empty() {
            &stdout
        } else {
            &stderr
        };
        let last: Vec<&str> = said.trim().lines().rev().take(3).collect();
        bail!(
            "{} failed: {}",
            shown.join(" "),
            last.into_iter().rev().collect::<Vec<_>>().join(" / ")
        );
    }
    let secs = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    Ok((
        Measured {
            stdout,
            cpu_s: secs(usage.ru_utime) + secs(usage.ru_stime),
            max_rss_kib: usage.ru_maxrss,
            wall_s,
        },
        code,
    ))
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

/// sysbench against `url`'s database `db`: its password in a file of the benchmark's own
/// state directory that only this user may read (`--config-file`), not on its command line,
/// where every local user could read it in /proc.
fn sysbench_cmd(url: &TargetUrl, db: &str, args: &[&str]) -> Result<Command> {
    let cfg = bench_root().join("sysbench.cfg");
    let password = url.password.as_deref().unwrap_or_default();
    server::private::write(&cfg, &format!("mysql-password={password}\n"), None)?;
    let mut c = Command::new("sysbench");
    c.arg(format!("--config-file={}", cfg.display()))
        .arg(format!("--mysql-host={}", url.host))
        .arg(format!("--mysql-port={}", url.port))
        .arg(format!("--mysql-user={}", url.user))
        .arg(format!("--mysql-db={db}"))
        .args(args);
    Ok(c)
}

/// The benchmark's state directory: its sandboxes and their secret.
fn bench_root() -> PathBuf {
    std::env::temp_dir().join(format!("txbench-bench-{}", std::process::id()))
}

fn txbench_cmd(bin: &Path, url: &str, args: &[&str]) -> Command {
    // URLs are shown without their password; the child finds it in the benchmark's state
    // directory, as a user's txbench does for a sandbox's URL.
    let url = url.replacen(&format!(":{}@", txbench::engine::REDACTED), "@", 1);
    let mut c = Command::new(bin);
    c.env("TXBENCH_HOME", bench_root())
        .arg("--url")
        .arg(url)
        .args(args);
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

/// sysbench's arguments for a timed `workload` run on `tables` tables of `size` rows.
fn sysbench_args(workload: &str, tables: &str, size: &str, threads: u32, secs: u32) -> Vec<String> {
    vec![
        workload.into(),
        format!("--tables={tables}"),
        format!("--table-size={size}"),
        format!("--threads={threads}"),
        format!("--time={secs}"),
        "--rand-type=uniform".into(),
        "--report-interval=0".into(),
        "run".into(),
    ]
}

/// `txbench run` with `args` (the workload and its flags, then any run flags) at `threads`
/// for `secs`.
fn txbench_run(
    bin: &Path,
    url: &TargetUrl,
    args: &[&str],
    threads: u32,
    secs: u32,
) -> Result<Sample> {
    let (t, s) = (threads.to_string(), secs.to_string());
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.extend(["--threads", &t, "--time", &s, "--report-interval", &s]);
    let (m, _) = with_out(txbench_cmd(bin, &url.to_string(), &all))?;
    let (txn, queries) = txbench_counts(&m.stdout)?;
    Ok(Sample {
        txn,
        queries,
        cpu_s: m.cpu_s,
    })
}

/// Runs `cmd` (a `txbench run`) with `--json --out DIR` added, DIR a fresh directory in
/// the benchmark's private root: what the process cost, and its result.json, read before DIR
/// is removed.
fn with_out(cmd: Command) -> Result<(Measured, serde_json::Value)> {
    with_out_exit(cmd, &[0]).map(|(m, _, v)| (m, v))
}

/// The same, where any exit code in `ok` is accepted (3: an INVALID run, whose result.json
/// and client figures are still there), returned beside them.
fn with_out_exit(mut cmd: Command, ok: &[i32]) -> Result<(Measured, i32, serde_json::Value)> {
    let out = bench_root().join("out");
    let _ = std::fs::remove_dir_all(&out);
    cmd.args(["--json", "--out"]).arg(&out);
    let result = measure_exit(cmd, ok).and_then(|(m, code)| {
        let v = serde_json::from_slice(&std::fs::read(out.join("result.json"))?)?;
        Ok((m, code, v))
    });
    let _ = std::fs::remove_dir_all(&out);
    result
}

/// `txbench prepare ARGS` on `url`, and what it cost.
fn txbench_prepare(bin: &Path, url: &str, args: &[&str]) -> Result<Measured> {
    let mut all = vec!["prepare"];
    all.extend_from_slice(args);
    measure(txbench_cmd(bin, url, &all))
}

/// The order of `rounds` rounds over `n` configurations, each round starting one later
/// (A B C, B C A, C A B, …) so that neither drift nor order favours one.
fn rotation(rounds: usize, n: usize) -> impl Iterator<Item = usize> {
    (0..rounds).flat_map(move |round| (0..n).map(move |k| (round + k) % n))
}

/// A sysbench run's counts and what its process cost.
fn sysbench_sample(cmd: Command) -> Result<Sample> {
    let m = measure(cmd)?;
    let (txn, queries) = sysbench_counts(&m.stdout)?;
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
    let sysbench = || {
        let args = sysbench_args(workload, tables, size, threads, secs);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        sysbench_sample(sysbench_cmd(url, "txbench", &args)?)
    };
    let txbench = || {
        let args = [workload, "--tables", tables, "--table-size", size];
        txbench_run(bin, url, &args, threads, secs)
    };
    let sb1 = sysbench()?;
    let tx1 = txbench()?;
    let tx2 = txbench()?;
    let sb2 = sysbench()?;
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

/// A bench setting from the environment variable `name`, when set and a number.
fn bench_env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

/// Seconds per timed run: `BENCH_SECONDS`, default 30.
fn bench_seconds() -> u32 {
    bench_env("BENCH_SECONDS").unwrap_or(30)
}

/// A sandbox for one benchmark section, with the given buffer pool.
fn bench_server(home: &StateDir, name: &str, pool: &str) -> Result<TargetUrl> {
    bench_server_with(home, name, &[&format!("innodb_buffer_pool_size={pool}")])
}

/// An empty database `name` on the server `conn` is connected to (dropped first if it is
/// there), and `base` naming it.
fn fresh_database(conn: &mut mysql::Conn, base: &TargetUrl, name: &str) -> Result<TargetUrl> {
    use mysql::prelude::Queryable;
    conn.query_drop(format!("DROP DATABASE IF EXISTS {name}"))?;
    conn.query_drop(format!("CREATE DATABASE {name}"))?;
    Ok(TargetUrl {
        database: name.into(),
        ..base.clone()
    })
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
    Ok(started.record.login_url())
}

fn txbench_cpus() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

fn main() {
    let root = bench_root();
    // Made here, private, and not one someone else made first (its name is predictable).
    let made = {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new().mode(0o700).create(&root)
    };
    if let Err(e) = made {
        eprintln!("txbench-bench: creating {}: {e}", root.display());
        std::process::exit(1);
    }
    let result = StateDir::at(&root).and_then(|home| {
        let only = std::env::args().nth(1);
        let r = match only.as_deref() {
            Some("driver") => driver(&home),
            Some("lua") => lua(&home),
            Some("tpcc") => tpcc(&home),
            Some("tpcb") => tpcb(&home),
            Some("postgres") => postgres(&home),
            Some("script") => postgres::script(&home),
            Some("sampling") => sampling(&home),
            Some("observing") => observing(&home),
            Some("topology") => topology(&home),
            Some("snapshot") => snapshot_vs_reload(&home),
            Some("terminals") => terminals(&home),
            Some(other) => Err(anyhow::anyhow!(
                "{other}: not a part; give one of driver, lua, tpcc, tpcb, postgres, script, sampling, observing, topology, snapshot, terminals, or none for all"
            )),
            None => sandbox(&home)
                .and_then(|_| driver(&home))
                .and_then(|_| lua(&home))
                .and_then(|_| tpcc(&home))
                .and_then(|_| tpcb(&home))
                .and_then(|_| postgres(&home))
                .and_then(|_| sampling(&home))
                .and_then(|_| observing(&home))
                .and_then(|_| topology(&home))
                .and_then(|_| snapshot_vs_reload(&home))
                .and_then(|_| terminals(&home)),
        };
        // Whatever failed, no sandbox outlives the benchmark.
        for name in [
            "bench-lifecycle",
            "bench-driver",
            "bench-lua",
            "bench-tpcc",
            "bench-tpcb",
            "bench-tpcb-lm0",
            "bench-postgres",
            "bench-sampling",
            "bench-observing",
            "bench-topo-single",
            "bench-topo-async",
            "bench-topo-semi",
            "bench-topo-galera",
            "bench-topo-a",
            "bench-topo-b",
            "bench-snapshot",
            "bench-terminals",
        ] {
            let _ = server::cluster::stop(&home, name, true);
        }
        r
    });
    let _ = std::fs::remove_dir_all(&root);
    if let Err(e) = result {
        eprintln!("Error: {}", txbench::error::one_line(&e));
        std::process::exit(1);
    }
}
