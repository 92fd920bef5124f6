//! PostgreSQL side by side with its own tools on one sandbox: TPC-B against pgbench's
//! default script, oltp_read_write against sysbench's pgsql driver, TPC-C in both modes.

use super::*;

/// pgbench's "number of transactions actually processed: N" (its own count, which
/// excludes the connection phase).
fn pgbench_count(out: &str) -> Result<f64> {
    out.lines()
        .find_map(|l| {
            l.strip_prefix("number of transactions actually processed: ")
                .and_then(|r| r.split('/').next())
                .and_then(|n| n.trim().parse().ok())
        })
        .with_context(|| format!("no transaction count in pgbench output: {out}"))
}

fn pgbench(url: &TargetUrl, clients: u32, secs: u32) -> Result<Sample> {
    let c = clients.to_string();
    let mut cmd = Command::new("pgbench");
    cmd.args([
        "-n",
        "-M",
        "prepared",
        "-b",
        "tpcb-like",
        "-c",
        &c,
        "-j",
        &c,
        "-T",
    ])
    .arg(secs.to_string())
    .args(["-h", &url.host, "-p"])
    .arg(url.port.to_string())
    .args(["-U", &url.user, &url.database])
    .env("PGPASSWORD", url.password.as_deref().unwrap_or_default());
    let m = measure(cmd)?;
    let txn = pgbench_count(&m.stdout)?;
    Ok(Sample {
        txn,
        queries: txn * 7.0,
        cpu_s: m.cpu_s,
    })
}

fn sysbench_pgsql(url: &TargetUrl, threads: u32, secs: u32, size: &str) -> Result<Sample> {
    let mut cmd = Command::new("sysbench");
    cmd.arg("--db-driver=pgsql")
        .arg(format!("--pgsql-host={}", url.host))
        .arg(format!("--pgsql-port={}", url.port))
        .arg(format!("--pgsql-user={}", url.user))
        // libpq reads it from the environment (not from a command line anyone can read).
        .env("PGPASSWORD", url.password.as_deref().unwrap_or_default())
        .arg(format!("--pgsql-db={}", url.database))
        .args(sysbench_args("oltp_read_write", "4", size, threads, secs));
    sysbench_sample(cmd)
}

/// Prints one A/B row: tps and client CPU per transaction of each, and the ratio.
fn row(label: &str, theirs: &[Sample], ours: &[Sample], secs: u32) {
    let sum = |v: &[Sample]| {
        v.iter()
            .fold((0.0, 0.0), |(t, c), s| (t + s.txn, c + s.cpu_s))
    };
    let (tt, tc) = sum(theirs);
    let (ot, oc) = sum(ours);
    let wall = f64::from(secs) * theirs.len() as f64;
    let (t_us, o_us) = (tc / tt.max(1.0) * 1e6, oc / ot.max(1.0) * 1e6);
    println!(
        "  {label:<10} {:>10.0} {:>10.1} {:>10.0} {:>10.1} {:>8.2}",
        tt / wall,
        t_us,
        ot / wall,
        o_us,
        o_us / t_us
    );
}

/// pgbench's tpcb-like script run by txbench's script interpreter (`run script -M
/// prepared`, txbench's defaults: server metrics on) against `pgbench -M prepared`.
fn script_vs_pgbench(bin: &Path, url: &TargetUrl, secs: u32) -> Result<()> {
    // The same script as a user's: pgbench's builtin run by txbench's script interpreter,
    // with txbench's defaults (server metrics on).
    println!(
        "\n== pgbench's tpcb-like script, the same tables: pgbench -n -M prepared -b tpcb-like against\n   `txbench run script -b tpcb-like -M prepared` (txbench's defaults: server metrics on), rounds of A B B A, {secs} s each"
    );
    println!(
        "  {:<10} {:>10} {:>10} {:>10} {:>10} {:>14}",
        "clients", "pgbench/s", "us/txn", "txbench/s", "us/txn", "ratio"
    );
    let n = super::rounds::rounds("BENCH_SCRIPT_ROUNDS");
    for clients in [4, 16] {
        let script = ["script", "-b", "tpcb-like", "-M", "prepared"];
        let r = super::rounds::side_by_side(
            n,
            || pgbench(url, clients, secs),
            || txbench_run(bin, url, &script, clients, secs),
        )?;
        use super::rounds::{cpu_per_1000, tps};
        println!(
            "  {:<10} {:>10.0} {:>10.1} {:>10.0} {:>10.1} {:>14}",
            clients,
            tps(&r.theirs, secs),
            cpu_per_1000(&r.theirs) * 1000.0,
            tps(&r.ours, secs),
            cpu_per_1000(&r.ours) * 1000.0,
            r.ratio()
        );
    }
    println!(
        "  (ratio: the mean of {n} rounds' (pgbench, txbench, txbench, pgbench; BENCH_SCRIPT_ROUNDS or BENCH_ROUNDS) with its 95 % confidence half-width)"
    );
    println!("  (target: a script's client CPU per transaction <= 1.0 x pgbench -M prepared's)");
    Ok(())
}

/// The PostgreSQL sandbox of these comparisons, with pgbench's tables at scale 16 prepared
/// by txbench: its login URL.
fn tpcb_sandbox(home: &StateDir, bin: &Path) -> Result<TargetUrl> {
    let started = server::start(
        home,
        &StartOptions {
            name: "bench-postgres".into(),
            engine: Some(txbench::engine::Engine::Postgres),
            sets: vec![Setting::parse("shared_buffers=2GB")?],
            ..Default::default()
        },
    )?;
    let url = started.record.login_url();
    let u = url.to_string();
    measure(txbench_cmd(bin, &u, &["cleanup", "tpcb", "-q"]))?;
    measure(txbench_cmd(
        bin,
        &u,
        &["prepare", "tpcb", "--scale", "16", "--history-key", "none"],
    ))?;
    Ok(url)
}

/// `txbench-bench script`: the pgbench script interpreter against pgbench alone.
pub(super) fn script(home: &StateDir) -> Result<()> {
    let bin = txbench_bin()?;
    let url = tpcb_sandbox(home, &bin)?;
    script_vs_pgbench(&bin, &url, bench_seconds())
}

/// The section: one PostgreSQL sandbox, each comparison interleaved A B B A.
pub(super) fn postgres(home: &StateDir) -> Result<()> {
    let secs = bench_seconds();
    let bin = txbench_bin()?;
    // txbench runs without server metrics here: pgbench and sysbench poll nothing either.
    let url = tpcb_sandbox(home, &bin)?;
    let u = url.to_string();
    println!(
        "\n== PostgreSQL TPC-B, scale 16 (pgbench's tables, prepared by txbench): pgbench -n -M prepared (its default\n   script) against `txbench run tpcb`, A B B A per client count, {secs} s each; client CPU from wait4"
    );
    println!(
        "  {:<10} {:>10} {:>10} {:>10} {:>10} {:>8}",
        "clients", "pgbench/s", "us/txn", "txbench/s", "us/txn", "ratio"
    );
    for clients in [1, 4, 16] {
        let a1 = pgbench(&url, clients, secs)?;
        let b1 = txbench_run(&bin, &url, &["tpcb", "--no-server-metrics"], clients, secs)?;
        let b2 = txbench_run(&bin, &url, &["tpcb", "--no-server-metrics"], clients, secs)?;
        let a2 = pgbench(&url, clients, secs)?;
        row(&clients.to_string(), &[a1, a2], &[b1, b2], secs);
    }
    println!(
        "  (target: txbench's client CPU per transaction <= 0.9 x pgbench's at equal or higher tps)"
    );
    script_vs_pgbench(&bin, &url, secs)?;
    measure(txbench_cmd(&bin, &u, &["cleanup", "tpcb", "-q"]))?;

    let size = "100000";
    measure(txbench_cmd(
        &bin,
        &u,
        &[
            "prepare",
            "oltp_read_write",
            "--tables",
            "4",
            "--table-size",
            size,
        ],
    ))?;
    println!(
        "\n== PostgreSQL oltp_read_write, 4 tables of {size} rows (sysbench's pgsql DDL, prepared by txbench): sysbench\n   --db-driver=pgsql against txbench, A B B A, {secs} s each"
    );
    println!(
        "  {:<10} {:>10} {:>10} {:>10} {:>10} {:>8}",
        "threads", "sysbench/s", "us/txn", "txbench/s", "us/txn", "ratio"
    );
    let args = [
        "oltp_read_write",
        "--tables",
        "4",
        "--table-size",
        size,
        "--no-server-metrics",
    ];
    for threads in [4, 16] {
        let a1 = sysbench_pgsql(&url, threads, secs, size)?;
        let b1 = txbench_run(&bin, &url, &args, threads, secs)?;
        let b2 = txbench_run(&bin, &url, &args, threads, secs)?;
        let a2 = sysbench_pgsql(&url, threads, secs, size)?;
        row(&threads.to_string(), &[a1, a2], &[b1, b2], secs);
    }
    measure(txbench_cmd(&bin, &u, &["cleanup", "oltp_read_write", "-q"]))?;

    measure(txbench_cmd(
        &bin,
        &u,
        &["prepare", "tpcc", "--warehouses", "2", "--procedures"],
    ))?;
    tpcc::modes_side_by_side(&bin, &u, secs, "PostgreSQL, 2 warehouses")?;
    server::stop(home, "bench-postgres", true)?;
    Ok(())
}
