//! Many virtual users from one client (issue: thousands of terminals): TPC-C closed loop at
//! 1,024 and 2,000 users against 8, and 2,000 with the specification's keying and think
//! times against 8 paced to the same throughput, in rounds (8, the many, 8), with each
//! ratio's interval; 10,000 paced terminals once, for their memory. Each many-user run twice,
//! a thread per user and as fibers on two threads (--client-threads 2), side by side in each
//! round. On a sandbox with the thread pool. go-tpc beside it:
//! scripts/compare-terminals-go-tpc.sh.

use super::*;

/// The warm-up of a closed-loop run of 1,000 users or more, s (BENCH_TERMINALS_WARMUP): each
/// user prepares a statement when it first meets it, some 50 in all, and at 2,000 users
/// after 10 s the server still prepared 2.5 per transaction in the measured phase.
fn many_users_warmup() -> u32 {
    bench_env("BENCH_TERMINALS_WARMUP").unwrap_or(60)
}

/// The warm-up of 2,000 paced terminals, s (BENCH_TERMINALS_PACED_WARMUP): each completes
/// a transaction every 21 s or so, and after 300 s they still prepared about one statement
/// per transaction.
fn paced_warmup() -> u32 {
    bench_env("BENCH_TERMINALS_PACED_WARMUP").unwrap_or(300)
}

/// `--think-time` for 8 terminals paced as 2,000 with the specification's times are in all.
const PACED_8: &str = "0.004";

/// The fibers' threads of the runs with fibers (--client-threads): one per core here.
pub(super) const FIBER_THREADS: u32 = 2;

/// A count of virtual users, and how they run: a thread each (None) or as fibers on this
/// many threads.
pub(super) type Users = (u32, Option<u32>);

/// One run's figures, from its process (wait4) and its result.json.
struct Row {
    nopm: f64,
    /// Client CPU (user + system, all its threads) in the measured phase per 1,000
    /// New-Orders, s: the run's own figure (summary.client_cpu_s).
    cpu_per_1000: f64,
    peak_rss_kib: f64,
    kib_per_user: f64,
    connect_s: f64,
    /// The end's wait for the transactions in flight (summary.overrun_s), s.
    stop_s: f64,
    /// Wall time beyond the requested time: starting, connecting, stopping, s.
    beyond_s: f64,
    verdict: &'static str,
}

/// `txbench run tpcc` with `users` for `secs` after `warmup`, with `think` (`--think-time`:
/// `spec`, or a factor of the specification's times) or none.
fn run(
    bin: &Path,
    url: &str,
    (users, fibers): Users,
    secs: u32,
    warmup: u32,
    think: Option<&str>,
) -> Result<Row> {
    let (u, t, w) = (users.to_string(), secs.to_string(), warmup.to_string());
    let f = fibers.map(|f| f.to_string()).unwrap_or_default();
    let mut args = vec![
        "run",
        "tpcc",
        "--threads",
        &u,
        "--time",
        &t,
        "--warmup",
        &w,
        "--report-interval",
        &t,
    ];
    if let Some(t) = think {
        args.extend(["--think-time", t]);
    }
    if fibers.is_some() {
        args.extend(["--client-threads", &f]);
    }
    let (m, code, r) = with_out_exit(txbench_cmd(bin, url, &args), &[0, 3])?;
    let s = &r["summary"];
    let nopm = r["workload_report"]["rate"]["per_minute"]
        .as_f64()
        .unwrap_or(0.0);
    let measured_s = s["duration_s"].as_f64().unwrap_or(f64::from(secs));
    let new_orders = nopm * measured_s / 60.0;
    let c: txbench::results::ClientUsers = serde_json::from_value(s["client_users"].clone())
        .context("the run's summary has no client_users")?;
    Ok(Row {
        nopm,
        cpu_per_1000: if new_orders > 0.0 {
            s["client_cpu_s"].as_f64().unwrap_or(f64::NAN) / new_orders * 1000.0
        } else {
            f64::NAN
        },
        peak_rss_kib: c.peak_rss_kib as f64,
        kib_per_user: c.kib_per_user(),
        connect_s: c.connect_s,
        stop_s: s["overrun_s"].as_f64().unwrap_or(f64::NAN),
        beyond_s: m.wall_s - f64::from(secs + warmup),
        verdict: if code == 0 { "VALID" } else { "INVALID" },
    })
}

/// A group of runs compared with 8 users run the same way: in rounds of 8, each of
/// `many`, 8 (each many-user run against the mean of the 8-user runs on either side).
struct Group {
    /// `--think-time`, or none (closed loop).
    think: Option<&'static str>,
    /// What the 8 users run with.
    base_think: Option<&'static str>,
    /// The user counts compared with 8 (a thread each, 8's way).
    many: &'static [Users],
    /// The warm-up of a run of `many`, s.
    warmup: u32,
    rounds: usize,
}

/// Client cost, memory and start/stop time of many virtual users.
pub(super) fn terminals(home: &StateDir) -> Result<()> {
    let secs = bench_seconds();
    let bin = txbench_bin()?;
    let url = bench_server_with(
        home,
        "bench-terminals",
        &[
            "innodb_buffer_pool_size=2G",
            "thread_handling=pool-of-threads",
            "max_connections=10100",
        ],
    )?;
    let url_s = url.to_string();
    txbench_prepare(&bin, &url_s, &["tpcc", "--warehouses", "10"])?;
    // Closed loop against 8 closed-loop users; paced terminals against 8 paced to the same
    // throughput (TPC-C's times scaled by 8 / 2,000: some 95 transactions a second), so that
    // the ratio is the users' own cost, not a busy against an idle machine's. Single runs
    // could not tell: 1,024 closed-loop users gave 1.05x in one and 1.93x in the next.
    let groups = [
        Group {
            think: None,
            base_think: None,
            many: &[
                (1024, None),
                (1024, Some(FIBER_THREADS)),
                (2000, None),
                (2000, Some(FIBER_THREADS)),
            ],
            warmup: many_users_warmup(),
            rounds: rounds::rounds("BENCH_TERMINALS_ROUNDS"),
        },
        Group {
            think: Some("spec"),
            base_think: Some(PACED_8),
            many: &[(2000, None), (2000, Some(FIBER_THREADS))],
            warmup: paced_warmup(),
            rounds: bench_env("BENCH_TERMINALS_PACED_ROUNDS")
                .filter(|&n: &usize| n > 0)
                .unwrap_or(1),
        },
    ];
    println!(
        "\n== many virtual users: TPC-C, 10 warehouses, {secs} s runs after a warm-up of 10 s ({} s closed loop at 1,000 users or more, {} s for 2,000 paced terminals, 30 s for 10,000), a sandbox with the thread pool; in rounds of 8 users, the many, 8 ({} closed loop, {} paced)",
        groups[0].warmup, groups[1].warmup, groups[0].rounds, groups[1].rounds
    );
    print_header();
    for g in &groups {
        group(&bin, &url_s, secs, g)?;
    }
    // 10,000 paced terminals run five times 8 paced ones' rate: no like for like, there
    // for their memory. They start spread over one mean cycle (20.7 s): the warm-up spans it.
    for users in [(10_000, None), (10_000, Some(FIBER_THREADS))] {
        let r = run(&bin, &url_s, users, secs, 30, Some("spec"))?;
        print_row(users, Some("spec"), &r, "-".into());
    }
    println!(
        "  (cpu/1000 NO: the measured phase's, all the client's threads; x 8: against the mean of the 8-user runs either side in its round, and over the rounds with its 95 % interval; targets: client CPU per New-Order within 1.5x of 8 users' at 1,024 and 2,000, closed loop against 8 closed-loop users, paced against 8 paced to the same throughput (--think-time {PACED_8}); at most 100 KiB per user; connecting and stopping 2,000 within 2 s; 10,000 with think times within 2 GiB; \"beyond\": the process's whole wall time past the run, its pre-flight and closing samples included)"
    );
    super::terminals_read_only::read_only(
        &bin,
        &url,
        secs,
        rounds::rounds("BENCH_TERMINALS_ROUNDS"),
    )?;
    server::stop(home, "bench-terminals", true)?;
    Ok(())
}

/// One group's rounds: each run's line, then each user count's ratio over the rounds.
fn group(bin: &Path, url: &str, secs: u32, g: &Group) -> Result<()> {
    let mut base: Vec<f64> = Vec::new();
    let mut many: Vec<Vec<f64>> = vec![Vec::new(); g.many.len()];
    for _ in 0..g.rounds {
        let first = run(bin, url, (8, None), secs, 10, g.base_think)?;
        let mut rows = Vec::new();
        for &users in g.many {
            rows.push(run(bin, url, users, secs, g.warmup, g.think)?);
        }
        let last = run(bin, url, (8, None), secs, 10, g.base_think)?;
        let b = (first.cpu_per_1000 + last.cpu_per_1000) / 2.0;
        base.push(b);
        print_row(
            (8, None),
            g.base_think,
            &first,
            format!("{:.2}x", first.cpu_per_1000 / b),
        );
        for ((r, &users), m) in rows.iter().zip(g.many).zip(&mut many) {
            m.push(r.cpu_per_1000);
            print_row(users, g.think, r, format!("{:.2}x", r.cpu_per_1000 / b));
        }
        print_row(
            (8, None),
            g.base_think,
            &last,
            format!("{:.2}x", last.cpu_per_1000 / b),
        );
    }
    for (&(users, fibers), m) in g.many.iter().zip(&many) {
        let (pct, half) = sampling::paired(m, &base);
        let interval = if half.is_nan() {
            "one round: no interval".to_string()
        } else {
            format!("± {:.2}, {} rounds", half / 100.0, g.rounds)
        };
        println!(
            "  {users} users {}, think {}: {:.2}x 8 users' client CPU per New-Order ({interval})",
            client(fibers),
            g.think.unwrap_or("off"),
            1.0 + pct / 100.0
        );
    }
    Ok(())
}

/// How the users ran, for the tables.
pub(super) fn client(fibers: Option<u32>) -> String {
    fibers.map_or("a thread each".into(), |f| format!("fibers on {f}"))
}

fn print_header() {
    println!(
        "  {:>6} {:>13} {:>5} {:>8} {:>14} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9}  verdict",
        "users",
        "client",
        "think",
        "NOPM",
        "cpu/1000 NO",
        "x 8",
        "peak RSS",
        "KiB/user",
        "connect",
        "stop",
        "beyond"
    );
}

fn print_row((users, fibers): Users, think: Option<&str>, r: &Row, ratio: String) {
    println!(
        "  {:>6} {:>13} {:>5} {:>8.0} {:>12.3} s {:>6} {:>5.0} MiB {:>9.0} {:>7.2} s {:>7.2} s {:>7.2} s  {}",
        users,
        client(fibers),
        think.unwrap_or("off"),
        r.nopm,
        r.cpu_per_1000,
        ratio,
        r.peak_rss_kib / 1024.0,
        r.kib_per_user,
        r.connect_s,
        r.stop_s,
        r.beyond_s,
        r.verdict
    );
}
