//! TPC-B per --history-key (seed 002's table) and CPU per transaction against oltp_write_only.

use super::*;

/// TPC-B per history key at seed 002's thread counts, in the seed's table form, measured
/// with txbench's own sweeps and judged with `txbench compare` (Welch on per-interval
/// throughput); and client CPU per TPC-B transaction against oltp_write_only's.
pub(super) fn tpcb(home: &StateDir) -> Result<()> {
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
    let mut conn = txbench::engine::mysql::connect(&url)?;
    let u = url.to_string();
    measure(txbench_cmd(&bin, &u, &["cleanup", "tpcb", "-q"]))?;
    measure(txbench_cmd(
        &bin,
        &u,
        &["prepare", "tpcb", "--scale", scale],
    ))?;
    let oltp = fresh_database(&mut conn, &url, "txbench_oltp")?.to_string();
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
