//! Many virtual users without locks: oltp_read_only at 2,000 users, a thread each and as
//! fibers, against 8 users a thread each, in rounds (8, 2,000 threads, 2,000 fibers, 8). At
//! 10 warehouses 2,000 closed-loop TPC-C users queue on 100 district rows for seconds per
//! transaction, and the server's pace there moves the client's cost per New-Order; without
//! locks the client's own cost per transaction shows.

use super::*;

/// One run's figures.
struct Row {
    tps: f64,
    /// Client CPU in the measured phase per 1,000 transactions, s (summary.client_cpu_s).
    cpu_per_1000: f64,
    peak_rss_mib: f64,
    connect_s: f64,
    verdict: &'static str,
}

fn run(bin: &Path, url: &str, (users, fibers): super::terminals::Users, secs: u32) -> Result<Row> {
    let (u, t) = (users.to_string(), secs.to_string());
    let f = fibers.map(|f| f.to_string()).unwrap_or_default();
    let mut args = vec![
        "run",
        "oltp_read_only",
        "--tables",
        "4",
        "--table-size",
        "10000",
        "--threads",
        &u,
        "--time",
        &t,
        "--warmup",
        "10",
        "--report-interval",
        &t,
    ];
    if fibers.is_some() {
        args.extend(["--client-threads", &f]);
    }
    let (_, code, r) = with_out_exit(txbench_cmd(bin, url, &args), &[0, 3])?;
    let s = &r["summary"];
    let txn = s["transactions"].as_f64().unwrap_or(0.0);
    Ok(Row {
        tps: s["tps"].as_f64().unwrap_or(0.0),
        cpu_per_1000: if txn > 0.0 {
            s["client_cpu_s"].as_f64().unwrap_or(f64::NAN) / txn * 1000.0
        } else {
            f64::NAN
        },
        peak_rss_mib: s["client_users"]["peak_rss_kib"]
            .as_f64()
            .unwrap_or(f64::NAN)
            / 1024.0,
        connect_s: s["client_users"]["connect_s"].as_f64().unwrap_or(f64::NAN),
        verdict: if code == 0 { "VALID" } else { "INVALID" },
    })
}

fn print_row(users: super::terminals::Users, r: &Row, ratio: String) {
    println!(
        "  {:>6} {:>13} {:>8.0} {:>13.3} s {:>6} {:>5.0} MiB {:>7.2} s  {}",
        users.0,
        super::terminals::client(users.1),
        r.tps,
        r.cpu_per_1000,
        ratio,
        r.peak_rss_mib,
        r.connect_s,
        r.verdict
    );
}

/// The rounds on the terminals' server (`url`), in a database of their own.
pub(super) fn read_only(bin: &Path, url: &TargetUrl, secs: u32, rounds: usize) -> Result<()> {
    use mysql::prelude::Queryable;
    let mut conn = txbench::engine::mysql::connect(url)?;
    let ro = fresh_database(&mut conn, url, "txbench_many_ro")?.to_string();
    let prep = ["oltp_read_only", "--tables", "4", "--table-size", "10000"];
    txbench_prepare(bin, &ro, &prep)?;
    println!(
        "\n== many virtual users without locks: oltp_read_only, 4 tables of 10,000 rows, {secs} s runs after a warm-up of 10 s, in rounds of 8 users, 2,000 a thread each, 2,000 as fibers, 8 ({rounds} rounds)"
    );
    println!(
        "  {:>6} {:>13} {:>8} {:>15} {:>6} {:>9} {:>9}  verdict",
        "users", "client", "tps", "cpu/1000 txn", "x 8", "peak RSS", "connect"
    );
    let many: [super::terminals::Users; 2] =
        [(2000, None), (2000, Some(super::terminals::FIBER_THREADS))];
    let mut base = Vec::new();
    let mut costs = vec![Vec::new(); many.len()];
    for _ in 0..rounds {
        let first = run(bin, &ro, (8, None), secs)?;
        let rows = many
            .iter()
            .map(|&m| run(bin, &ro, m, secs))
            .collect::<Result<Vec<_>>>()?;
        let last = run(bin, &ro, (8, None), secs)?;
        let b = (first.cpu_per_1000 + last.cpu_per_1000) / 2.0;
        base.push(b);
        print_row((8, None), &first, format!("{:.2}x", first.cpu_per_1000 / b));
        for ((r, &m), c) in rows.iter().zip(&many).zip(&mut costs) {
            c.push(r.cpu_per_1000);
            print_row(m, r, format!("{:.2}x", r.cpu_per_1000 / b));
        }
        print_row((8, None), &last, format!("{:.2}x", last.cpu_per_1000 / b));
    }
    for (&(users, fibers), c) in many.iter().zip(&costs) {
        let (pct, half) = sampling::paired(c, &base);
        let interval = if half.is_nan() {
            "one round: no interval".to_string()
        } else {
            format!("± {:.2}, {rounds} rounds", half / 100.0)
        };
        println!(
            "  {users} users {}: {:.2}x 8 users' client CPU per transaction ({interval})",
            super::terminals::client(fibers),
            1.0 + pct / 100.0
        );
    }
    conn.query_drop("DROP DATABASE txbench_many_ro")?;
    Ok(())
}
