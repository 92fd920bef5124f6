//! TPC-C: load against LOAD DATA INFILE, client SQL and stored procedures.

use super::*;

/// TPC-C: load speed against the server's own LOAD DATA INFILE, client CPU per
/// transaction, NOPM by thread count, loader memory, check time.
pub(super) fn tpcc(home: &StateDir) -> Result<()> {
    use mysql::prelude::Queryable;
    let secs = bench_seconds();
    let bin = txbench_bin()?;
    let url = bench_server(home, "bench-tpcc", "4G")?;
    let url_s = url.to_string();
    let mut conn = txbench::engine::mysql::connect(&url)?;
    let loaders = txbench_cpus().to_string();

    println!(
        "\n== TPC-C load, 2 warehouses, {loaders} loaders, wall seconds (schema, rows, indexes)"
    );
    let prepare = |extra: &[&str]| {
        let mut args = vec!["tpcc", "--warehouses", "2"];
        args.extend_from_slice(extra);
        txbench_prepare(&bin, &url_s, &args)
    };
    let load = prepare(&["--load-threads", &loaders])?;
    // The same rows as CSV files, loaded by the server itself over as many connections: from
    // the one directory it may read (secure_file_priv), by the administrator (FILE).
    let record = server::get(home, "bench-tpcc")?.record;
    let dir = record.files_dir().join("csv");
    let _ = std::fs::remove_dir_all(&dir);
    prepare(&["--csv", dir.to_str().unwrap_or("/tmp/csv")])?;
    let csv_url = fresh_database(&mut conn, &record.admin_url(), "txbench_csvload")?;
    let script = std::fs::read_to_string(dir.join("load.sql"))?;
    let (loads, ddl): (Vec<&str>, Vec<&str>) = script
        .lines()
        .filter(|l| !l.trim().is_empty())
        .partition(|l| l.starts_with("LOAD DATA"));
    let (create, after): (Vec<&str>, Vec<&str>) =
        ddl.into_iter().partition(|l| l.starts_with("CREATE TABLE"));
    let t = Instant::now();
    let mut c = txbench::engine::mysql::connect(&csv_url)?;
    for stmt in &create {
        c.query_drop(stmt.trim_end_matches(';'))?;
    }
    let loads: Vec<String> = loads
        .iter()
        .map(|l| l.trim_end_matches(';').to_string())
        .collect();
    txbench::workload::loader::parallel_units(
        &|| txbench::engine::mysql::connect(&csv_url),
        txbench_cpus() as u32,
        &loads,
        &|c, stmt| c.query_drop(stmt).map_err(anyhow::Error::from),
    )?;
    for stmt in &after {
        c.query_drop(stmt.trim_end_matches(';'))?;
    }
    let server_s = t.elapsed().as_secs_f64();
    conn.query_drop("DROP DATABASE txbench_csvload")?;
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "  txbench prepare (LOAD DATA LOCAL from memory) {:>7.2} s   server LOAD DATA INFILE of the same rows {:>7.2} s   ratio {:.2} (target <= 1.3; 4 s for 2 warehouses)",
        load.wall_s,
        server_s,
        load.wall_s / server_s
    );

    // The stored procedures, for the second mode.
    prepare(&["--procedures"])?;
    let run = |threads: u32, secs: u32, procedures: bool| -> Result<(f64, f64, f64)> {
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
        ];
        if procedures {
            args.push("--procedures");
        }
        let (m, _) = with_out(txbench_cmd(&bin, &url_s, &args))?;
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
    modes_side_by_side(&bin, &url_s, secs, "MariaDB, 2 warehouses")?;

    println!("\n== TPC-C loader memory and check time, 10 warehouses");
    let url10 = fresh_database(&mut conn, &url, "txbench_tpcc10")?;
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
    conn.query_drop("DROP DATABASE txbench_tpcc10")?;
    server::stop(home, "bench-tpcc", true)?;
    Ok(())
}

/// Client SQL against procedures at 4 threads, interleaved (A B A B A B): NOPM, and the
/// client's and the server's CPU per 1,000 New-Orders over the measured phase (the server's
/// from the run's own server metrics).
pub(super) fn modes_side_by_side(bin: &Path, url: &str, secs: u32, what: &str) -> Result<()> {
    const ROUNDS: usize = 3;
    let secs = (secs / 2).max(10);
    // [mode] -> (NOPM, client s, server s per 1,000 New-Orders) per round.
    let mut figures: [Vec<(f64, f64, f64)>; 2] = Default::default();
    let s = secs.to_string();
    for mode in rotation(ROUNDS, 2) {
        let mut args = vec![
            "run",
            "tpcc",
            "--threads",
            "4",
            "--time",
            &s,
            "--warmup",
            "3",
        ];
        if mode == 1 {
            args.push("--procedures");
        }
        let (_, r) = with_out(txbench_cmd(bin, url, &args))?;
        let sum = &r["summary"];
        let no = sum["kinds"][0]["committed"]
            .as_f64()
            .unwrap_or(0.0)
            .max(1.0);
        let nopm = no / sum["duration_s"].as_f64().unwrap_or(1.0) * 60.0;
        let client = sum["client_cpu_s"].as_f64().unwrap_or(0.0) / no * 1000.0;
        let server = sum["server"]["per_new_order"]["server_cpu_ms"]
            .as_f64()
            .unwrap_or(f64::NAN);
        figures[mode].push((nopm, client, server));
    }
    let avg = |v: &[(f64, f64, f64)], f: fn(&(f64, f64, f64)) -> f64| {
        v.iter().map(f).sum::<f64>() / v.len().max(1) as f64
    };
    println!(
        "\n== TPC-C client SQL against --procedures, {what}, 4 threads, {ROUNDS} interleaved rounds of {secs} s"
    );
    println!(
        "  {:<22} {:>10} {:>26} {:>26}",
        "mode", "NOPM", "client CPU s/1000 NO", "server CPU s/1000 NO"
    );
    for (i, name) in ["client SQL", "--procedures"].iter().enumerate() {
        println!(
            "  {name:<22} {:>10.0} {:>26.3} {:>26.3}",
            avg(&figures[i], |f| f.0),
            avg(&figures[i], |f| f.1),
            avg(&figures[i], |f| f.2),
        );
    }
    println!(
        "  procedures/client NOPM {:.2} (target >= 1.2); server CPU per New-Order procedures/client {:.2} (target <= 1.0); client SQL client CPU target <= 0.55 s",
        avg(&figures[1], |f| f.0) / avg(&figures[0], |f| f.0),
        avg(&figures[1], |f| f.2) / avg(&figures[0], |f| f.2)
    );
    Ok(())
}
