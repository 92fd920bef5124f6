//! The driver against sysbench: prepare, oltp_read_write and point selects side by side, memory.

use super::*;

pub(super) fn driver(home: &StateDir) -> Result<()> {
    let secs = bench_seconds();
    let bin = txbench_bin()?;
    let url = bench_server(home, "bench-driver", "2G")?;
    prepare(&bin, &url)?;
    read_write(&bin, &url, secs)?;
    let short = secs.clamp(5, 10);
    point_select(&bin, &url, short)?;
    memory(&bin, &url.to_string(), short)?;
    server::stop(home, "bench-driver", true)?;
    Ok(())
}

/// Prepare's wall time: txbench into the benchmark database, sysbench into its own.
fn prepare(bin: &Path, url: &TargetUrl) -> Result<()> {
    let url_s = url.to_string();
    println!("\n== prepare oltp_read_write, 4 tables x 100,000 rows, wall seconds");
    let tx = measure(txbench_cmd(
        bin,
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
    let mut conn = txbench::engine::mysql::connect(url)?;
    use mysql::prelude::Queryable;
    fresh_database(&mut conn, url, "txbench_sbprep")?;
    let sb = measure(sysbench_cmd(
        url,
        "txbench_sbprep",
        &[
            "oltp_read_write",
            "--tables=4",
            "--table-size=100000",
            &format!("--threads={}", txbench_cpus()),
            "prepare",
        ],
    )?)?;
    conn.query_drop("DROP DATABASE txbench_sbprep")?;
    println!(
        "  sysbench 1.0.20 ({} threads) {:>7.2} s   txbench ({} loaders) {:>7.2} s   ratio txbench/sysbench {:.2}",
        txbench_cpus(),
        sb.wall_s,
        txbench_cpus(),
        tx.wall_s,
        tx.wall_s / sb.wall_s
    );
    Ok(())
}

/// oltp_read_write side by side with sysbench at 1, 4 and 16 threads.
fn read_write(bin: &Path, url: &TargetUrl, secs: u32) -> Result<()> {
    println!(
        "\n== oltp_read_write on the same 4 x 100,000 tables, 2 x {secs} s per tool, ABBA order"
    );
    println!(
        "  {:>7}  {:>10} {:>10} {:>7}   {:>14} {:>14} {:>7}",
        "threads", "sb tps", "tx tps", "ratio", "sb cpu/1000tx", "tx cpu/1000tx", "ratio"
    );
    for threads in [1u32, 4, 16] {
        let p = side_by_side(bin, url, "oltp_read_write", "4", "100000", threads, secs)?;
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
    Ok(())
}

/// Client CPU per query of oltp_point_select side by side with sysbench, `short` s each.
fn point_select(bin: &Path, url: &TargetUrl, short: u32) -> Result<()> {
    println!(
        "\n== per query: oltp_point_select, client CPU µs per query, 2 x {short} s per tool (blocking mysql crate, thread per connection)"
    );
    println!(
        "  {:>7}  {:>10} {:>10} {:>7}",
        "threads", "sysbench", "txbench", "ratio"
    );
    for threads in [4u32, 64] {
        let p = side_by_side(bin, url, "oltp_point_select", "4", "100000", threads, short)?;
        println!(
            "  {:>7}  {:>10.2} {:>10.2} {:>7.3}",
            threads,
            p.us_per_query[0],
            p.us_per_query[1],
            p.us_per_query[1] / p.us_per_query[0]
        );
    }
    Ok(())
}

/// The driver's peak memory with 1,000 connections of oltp_point_select for `short` s.
fn memory(bin: &Path, url_s: &str, short: u32) -> Result<()> {
    println!("\n== driver memory: oltp_point_select with 1,000 connections, {short} s");
    let (m, _) = with_out(txbench_cmd(
        bin,
        url_s,
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
        ],
    ))?;
    let (txn, _) = txbench_counts(&m.stdout)?;
    println!(
        "  peak RSS {:.1} MiB (target < 100 MiB), {:.0} tps",
        m.max_rss_kib as f64 / 1024.0,
        txn / f64::from(short)
    );
    Ok(())
}
