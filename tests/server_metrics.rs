//! Server metrics against real sandboxes: server.csv and the summary's server block, the
//! server-side cross-check (a second client makes a run INVALID), a frozen server, what
//! cannot be recorded, and every finding rule induced on purpose (and a clean run with none).

mod common;

use common::{Home, Server, assert_schema_valid, result_json, serial, summary_of, text};
use mysql::prelude::Queryable;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn prepare(home: &Home, s: &Server, args: &[&str]) {
    let out = home
        .cmd()
        .args(["--url", &s.url, "prepare"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
}

/// `run` with `--json` into `dir`; returns the output.
fn run(home: &Home, s: &Server, dir: &Path, args: &[&str]) -> std::process::Output {
    home.cmd()
        .args(["--url", &s.url, "run", "--json", "--report-interval", "1"])
        .args(args)
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap()
}

fn rules(dir: &Path) -> Vec<String> {
    result_json(dir)["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| f["rule"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn server_csv(dir: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(dir.join("server.csv"))
        .expect("server.csv")
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn column(csv: &[Vec<String>], name: &str) -> Vec<Option<f64>> {
    let i = csv[0]
        .iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    csv[1..].iter().map(|r| r[i].parse().ok()).collect()
}

/// A second connection committing single-row updates as fast as it can until `stop`.
fn other_client(s: &Server, stop: &AtomicBool, sql: &str) -> u64 {
    let mut c = s.conn();
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        c.query_drop(sql).unwrap();
        n += 1;
    }
    n
}

#[test]
fn server_metrics_recorded_cross_checked_and_a_second_client_caught() {
    let home = Home::new();
    let s = home.start("metrics", &[]);
    prepare(&home, &s, &["oltp_read_write", "--table-size", "10000"]);
    let _g = serial();

    // A clean, throttled run: figures recorded, the server's count agrees, no finding.
    let dir = home.path().join("clean");
    let out = run(
        &home,
        &s,
        &dir,
        &[
            "oltp_read_write",
            "--table-size",
            "10000",
            "--threads",
            "4",
            "--time",
            "6",
            "--warmup",
            "1",
            "--rate",
            "100",
        ],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    assert_schema_valid(&r);
    let srv = &r["summary"]["server"];
    assert!(srv["per_transaction"]["server_cpu_ms"].as_f64().unwrap() > 0.0);
    assert!(srv["per_transaction"]["redo_bytes"].as_f64().unwrap() > 0.0);
    assert!(srv["per_transaction"]["bp_read_requests"].as_f64().unwrap() > 0.0);
    assert!(srv["peaks"]["history_list_length"].is_number(), "{srv}");
    assert_eq!(srv["not_recorded"], serde_json::json!([]), "{srv}");
    let checks = srv["cross_checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2, "transactions and statements: {srv}");
    assert!(checks.iter().all(|c| c["agrees"] == true), "{srv}");
    assert!(
        checks[1]["what"]
            .as_str()
            .unwrap()
            .starts_with("statements")
    );
    let (server, txbench) = (
        checks[0]["server"].as_f64().unwrap(),
        checks[0]["txbench"].as_f64().unwrap(),
    );
    assert!((server - txbench).abs() <= 5.0, "{server} vs {txbench}");
    assert_eq!(
        txbench,
        r["summary"]["transactions"].as_f64().unwrap(),
        "every oltp_read_write transaction ends with one COMMIT"
    );
    assert!(rules(&dir).is_empty(), "{:?}", r["findings"]);
    // server.csv: a row per 1 s interval, warm-up first, plain column names.
    let csv = server_csv(&dir);
    for name in [
        "server_cpu_pct",
        "page_splits_per_s",
        "row_lock_waits_per_s",
        "row_lock_time_ms_avg",
        "history_list_length",
        "checkpoint_age_pct",
        "dirty_pages_pct",
        "bp_reads_per_s",
        "redo_bytes_per_s",
        "threads_running",
        "commits_per_s",
        "rollbacks_per_s",
        "disk_write_mb_per_s",
        "fsync_ms_avg",
    ] {
        assert!(
            csv[0].iter().any(|c| c == name),
            "no {name} in {:?}",
            csv[0]
        );
    }
    assert!(csv.len() >= 7, "{csv:?}");
    assert_eq!(csv[1][0], "warmup");
    assert_eq!(csv[csv.len() - 1][0], "measure");
    let commits = column(&csv, "commits_per_s");
    let measured: Vec<f64> = commits[1..].iter().flatten().copied().collect();
    let mean = measured.iter().sum::<f64>() / measured.len() as f64;
    assert!((70.0..130.0).contains(&mean), "commits/s {measured:?}");
    assert!(
        column(&csv, "server_cpu_pct")
            .iter()
            .all(|v| v.is_some_and(|v| v > 0.0)),
        "the sandbox runs here: its CPU is recorded"
    );
    assert!(
        column(&csv, "page_splits_per_s")
            .iter()
            .all(Option::is_some)
    );
    let jsonl = std::fs::read_to_string(dir.join("server-status.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), csv.len() - 1);
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().last().unwrap()).unwrap();
    assert!(
        first["status"]["com_commit"].as_f64().unwrap() > 0.0,
        "{first}"
    );
    assert!(first["status_gauges"]["threads_connected"].is_number());
    // The human summary prints the same.
    let human = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_read_write",
            "--table-size",
            "10000",
        ])
        .args(["--threads", "2", "--time", "2", "--rate", "50", "--out"])
        .arg(home.path().join("human"))
        .output()
        .unwrap();
    let (stdout, _) = text(&human);
    assert!(
        stdout.contains("cross-check: transactions (Com_commit + Com_rollback): server"),
        "{stdout}"
    );
    assert!(stdout.contains("server per transaction: CPU"), "{stdout}");

    // Another client writing during the run (autocommit, so only the statement counters
    // see it): the server saw more than txbench did.
    let dir = home.path().join("crowded");
    let stop = AtomicBool::new(false);
    let (out, other) = std::thread::scope(|sc| {
        let h = sc.spawn(|| other_client(&s, &stop, "UPDATE sbtest1 SET k = k + 1 WHERE id = 1"));
        let out = run(
            &home,
            &s,
            &dir,
            &[
                "oltp_read_write",
                "--table-size",
                "10000",
                "--threads",
                "2",
                "--time",
                "4",
                "--rate",
                "100",
            ],
        );
        stop.store(true, Ordering::Relaxed);
        (out, h.join().unwrap())
    });
    assert!(other > 500, "the other client committed only {other}");
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    let v = summary_of(&out);
    let reasons = v["validity"]["reasons"].to_string();
    assert!(
        reasons.contains("the server counted") && reasons.contains("but txbench counted"),
        "{reasons}"
    );
    assert!(reasons.contains("another client"), "{reasons}");
    let r = result_json(&dir);
    assert_schema_valid(&r);
    assert_eq!(r["summary"]["server"]["cross_checks"][1]["agrees"], false);
    // A client committing transactions of its own: Com_commit disagrees too.
    let dir = home.path().join("crowded-trx");
    let stop = AtomicBool::new(false);
    let out = std::thread::scope(|sc| {
        let h = sc.spawn(|| {
            let mut c = s.conn();
            while !stop.load(Ordering::Relaxed) {
                c.query_drop("BEGIN").unwrap();
                c.query_drop("COMMIT").unwrap();
            }
        });
        let out = run(
            &home,
            &s,
            &dir,
            &[
                "oltp_read_write",
                "--table-size",
                "10000",
                "--threads",
                "2",
                "--time",
                "3",
                "--rate",
                "100",
            ],
        );
        stop.store(true, Ordering::Relaxed);
        h.join().unwrap();
        out
    });
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    let check = &result_json(&dir)["summary"]["server"]["cross_checks"][0];
    assert!(check["what"].as_str().unwrap().starts_with("transactions"));
    assert_eq!(check["agrees"], false, "{check}");

    // Autocommit statements: the server's statement counters are compared instead.
    let dir = home.path().join("points");
    let out = run(
        &home,
        &s,
        &dir,
        &[
            "oltp_point_select",
            "--table-size",
            "10000",
            "--threads",
            "2",
            "--time",
            "3",
            "--rate",
            "500",
        ],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    let check = &r["summary"]["server"]["cross_checks"][0];
    assert!(
        check["what"].as_str().unwrap().starts_with("statements"),
        "{check}"
    );
    assert_eq!(check["agrees"], true, "{check}");
    let dir = home.path().join("points-crowded");
    let stop = AtomicBool::new(false);
    let out = std::thread::scope(|sc| {
        let h = sc.spawn(|| other_client(&s, &stop, "SELECT c FROM sbtest1 WHERE id = 7"));
        let out = run(
            &home,
            &s,
            &dir,
            &[
                "oltp_point_select",
                "--table-size",
                "10000",
                "--threads",
                "2",
                "--time",
                "3",
                "--rate",
                "500",
            ],
        );
        stop.store(true, Ordering::Relaxed);
        h.join().unwrap();
        out
    });
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    assert!(
        summary_of(&out)["validity"]["reasons"]
            .to_string()
            .contains("statements (Com_select"),
        "{:?}",
        text(&out)
    );
}

#[test]
fn a_frozen_server_makes_the_run_invalid() {
    use std::io::BufRead;
    let home = Home::new();
    let s = home.start("frozen", &[]);
    prepare(&home, &s, &["oltp_point_select", "--table-size", "1000"]);
    let dir = home.path().join("frozen-run");
    let mut child = home
        .std_cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "--json",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .args(["--threads", "2", "--time", "120", "--report-interval", "1"])
        .arg("--out")
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Freeze the server once the run measures (two intervals seen), not while it connects:
    // a loaded machine can take seconds to get there.
    let stdout = child.stdout.take().unwrap();
    let (line_tx, line_rx) = std::sync::mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if line_tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let mut intervals = 0;
    let deadline = Instant::now() + Duration::from_secs(60);
    while intervals < 2 && Instant::now() < deadline {
        if let Ok(l) = line_rx.recv_timeout(Duration::from_millis(200)) {
            intervals += usize::from(l.contains("\"type\":\"interval\""));
            lines.push(l);
        }
    }
    assert_eq!(intervals, 2, "no intervals within 60 s: {lines:?}");
    // SAFETY: signalling our own sandbox's process.
    unsafe { libc::kill(s.pid, libc::SIGSTOP) };
    let stopped = Instant::now();
    // A run that hangs on the frozen server must fail this test, not hang the suite: after
    // 60 s the server is woken and the run killed.
    let child_pid = child.id() as i32;
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let server_pid = s.pid;
    let watchdog = std::thread::spawn(move || {
        if done_rx.recv_timeout(Duration::from_secs(60)).is_err() {
            // SAFETY: our own sandbox and our own child.
            unsafe {
                libc::kill(server_pid, libc::SIGCONT);
                libc::kill(child_pid, libc::SIGKILL);
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    let took = stopped.elapsed();
    let _ = done_tx.send(());
    watchdog.join().unwrap();
    // SAFETY: as above.
    unsafe { libc::kill(s.pid, libc::SIGCONT) };
    reader.join().unwrap();
    lines.extend(line_rx.try_iter());
    let stdout = lines.join("\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("the server has been unresponsive for 1"),
        "{stdout}"
    );
    assert!(took < Duration::from_secs(40), "took {took:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], false);
    assert!(r["summary"]["transactions"].as_u64().unwrap() > 0);
    // The closing sample was never answered: the run says its cross-checks were not made,
    // among its reasons, after the cause.
    let not_made = r["summary"]["server"]["checks_not_made"].to_string();
    assert!(not_made.contains("the cross-checks were not made"), "{r}");
    let reasons: Vec<String> = r["validity"]["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    assert!(
        reasons[0].contains("unresponsive")
            && reasons
                .iter()
                .any(|x| x.contains("cross-checks were not made")),
        "{reasons:?}"
    );
}

#[test]
fn a_freeze_just_after_a_sample_is_caught_at_the_default_interval() {
    use std::io::BufRead;
    let home = Home::new();
    let s = home.start("freeze10", &[]);
    prepare(&home, &s, &["oltp_point_select", "--table-size", "1000"]);
    let dir = home.path().join("freeze-run");
    // The default 10 s report interval: samples at 10, 20 and 30 s.
    let mut child = home
        .std_cmd()
        .args(["--url", &s.url, "run", "--json", "oltp_point_select"])
        .args(["--table-size", "1000", "--threads", "2", "--time", "30"])
        .arg("--out")
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = std::io::BufReader::new(stdout).lines();
    // The first interval's line follows its sample: freeze the server just after it, for
    // 14 s (until about 24 s), so no sample at an interval boundary waits 10 s.
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let first = line.contains("\"type\":\"interval\"");
        seen.push(line);
        if first {
            break;
        }
    }
    assert!(seen.last().unwrap().contains("interval"), "{seen:?}");
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling our own sandbox's process.
    unsafe { libc::kill(s.pid, libc::SIGSTOP) };
    std::thread::sleep(Duration::from_secs(14));
    // SAFETY: as above.
    unsafe { libc::kill(s.pid, libc::SIGCONT) };
    seen.extend(lines.map_while(Result::ok));
    let out = child.wait_with_output().unwrap();
    let stdout = seen.join("\n");
    assert_eq!(
        out.status.code(),
        Some(3),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], false);
    assert!(
        r["validity"]["reasons"][0]
            .as_str()
            .unwrap()
            .contains("the server has been unresponsive for"),
        "{}",
        r["validity"]
    );
}

#[test]
fn what_cannot_be_recorded_is_said_and_the_run_goes_on() {
    let home = Home::new();
    // No INNODB_METRICS table at all.
    let s = home.start("nometrics", &["--set", "innodb_metrics=OFF"]);
    prepare(&home, &s, &["oltp_point_select", "--table-size", "1000"]);
    let dir = home.path().join("no-innodb-metrics");
    let args = [
        "oltp_point_select",
        "--table-size",
        "1000",
        "--threads",
        "2",
        "--time",
        "2",
        "--rate",
        "200",
    ];
    let out = {
        let _g = serial();
        run(&home, &s, &dir, &args)
    };
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    assert_schema_valid(&r);
    let nr = r["summary"]["server"]["not_recorded"].to_string();
    assert!(nr.contains("INNODB_METRICS is not recorded"), "{nr}");
    assert!(
        r["notes"]
            .to_string()
            .contains("server metrics: INFORMATION_SCHEMA.INNODB_METRICS is not recorded"),
        "{}",
        r["notes"]
    );
    // The status counters still are.
    assert_eq!(r["summary"]["server"]["cross_checks"][0]["agrees"], true);

    // A user without the PROCESS privilege cannot read INNODB_METRICS either.
    let mut c = s.admin_conn();
    c.query_drop("CREATE USER 'plain'@'127.0.0.1'").unwrap();
    c.query_drop("GRANT SELECT, INSERT, UPDATE, DELETE ON txbench.* TO 'plain'@'127.0.0.1'")
        .unwrap();
    drop(c);
    let s2 = home.start("withmetrics", &[]);
    prepare(&home, &s2, &["oltp_point_select", "--table-size", "1000"]);
    let mut c = s2.admin_conn();
    c.query_drop("CREATE USER 'plain'@'127.0.0.1'").unwrap();
    c.query_drop("GRANT SELECT, INSERT, UPDATE, DELETE ON txbench.* TO 'plain'@'127.0.0.1'")
        .unwrap();
    drop(c);
    let plain = format!("mysql://plain@127.0.0.1:{}/txbench", s2.port);
    let dir = home.path().join("no-process");
    let out = {
        let _g = serial();
        home.cmd()
            .args(["--url", &plain, "run", "--json", "--out"])
            .arg(&dir)
            .args(args)
            .output()
            .unwrap()
    };
    assert!(out.status.success(), "{:?}", text(&out));
    let nr = result_json(&dir)["summary"]["server"]["not_recorded"].to_string();
    assert!(nr.contains("PROCESS"), "{nr}");

    // The pid file names another mysqld (a container's shared path): the process does not
    // hold the listening socket of the URL's port, so nothing is read from its /proc.
    let state = txbench::server::StateDir::at(home.path()).unwrap();
    let pid_file = txbench::server::get(&state, "withmetrics")
        .unwrap()
        .record
        .pid_file();
    let kept = std::fs::read(&pid_file).unwrap();
    std::fs::write(&pid_file, format!("{}\n", s.pid)).unwrap();
    let dir = home.path().join("other-pid");
    // The password given in the URL: txbench gives a sandbox's secret only to the process
    // its pid file names, and that is now the other server.
    let with_password = format!(
        "mysql://txbench:{}@127.0.0.1:{}/txbench",
        s2.secret(),
        s2.port
    );
    let out = {
        let _g = serial();
        home.cmd()
            .args([
                "--url",
                &with_password,
                "run",
                "--json",
                "--report-interval",
                "1",
            ])
            .args(args)
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap()
    };
    std::fs::write(&pid_file, kept).unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    let nr = r["summary"]["server"]["not_recorded"].to_string();
    assert!(
        nr.contains(&format!(
            "process {} (from the pid file {}) does not hold the socket listening where",
            s.pid,
            pid_file.display()
        )),
        "{nr}"
    );
    assert!(
        r["summary"]["server"]["per_transaction"]["server_cpu_ms"].is_null(),
        "{}",
        r["summary"]["server"]
    );
}

/// One run of `args` on `s`, serialised with the other measuring tests; returns its rules.
fn rules_of(
    home: &Home,
    s: &Server,
    name: &str,
    args: &[&str],
) -> (Vec<String>, serde_json::Value) {
    let dir = home.path().join(name);
    let out = {
        let _g = serial();
        run(home, s, &dir, args)
    };
    assert!(
        matches!(out.status.code(), Some(0) | Some(3)),
        "{:?}",
        text(&out)
    );
    let r = result_json(&dir);
    assert_schema_valid(&r);
    (rules(&dir), r)
}

#[test]
fn findings_purge_lag_and_the_cpu_shared_with_the_driver() {
    let home = Home::new();
    let s = home.start("purge", &[]);
    prepare(&home, &s, &["oltp_write_only", "--table-size", "10000"]);
    // A transaction held open with a read view: purge cannot remove anything after it.
    let mut holder = s.conn();
    holder
        .query_drop("START TRANSACTION WITH CONSISTENT SNAPSHOT")
        .unwrap();
    let _: Option<u64> = holder.query_first("SELECT COUNT(*) FROM sbtest1").unwrap();
    let (rules, r) = rules_of(
        &home,
        &s,
        "held-open",
        &[
            "oltp_write_only",
            "--table-size",
            "10000",
            "--threads",
            "4",
            "--time",
            "8",
            "--warmup",
            "1",
            "--period",
            "2",
        ],
    );
    // Period by period: the history list is what rose from the first period to the last.
    let p = &r["periods"];
    assert_eq!(p["period_s"], 2.0, "{p}");
    assert!(p["periods"].as_array().unwrap().len() >= 3, "{p}");
    assert!(
        p["periods"][0]["server"]["history_list_length"].is_number(),
        "{p}"
    );
    assert!(
        p["moved"].to_string().contains("\"history_list_length\""),
        "{p}"
    );
    assert!(
        rules.contains(&"purge_lag".to_string()),
        "{}",
        r["findings"]
    );
    let f = r["findings"].to_string();
    assert!(f.contains("the history list length grew from"), "{f}");
    holder.query_drop("COMMIT").unwrap();
    // Point selects, unthrottled on this small host: driver and server share every CPU.
    let (rules, r) = rules_of(
        &home,
        &s,
        "cpu",
        &[
            "oltp_point_select",
            "--table-size",
            "10000",
            "--threads",
            "4",
            "--time",
            "4",
            "--warmup",
            "1",
        ],
    );
    // Without --period a run under two hours has no by-period table.
    assert!(r.get("periods").is_none(), "{}", r["periods"]);
    assert!(
        rules.contains(&"shared_cpu".to_string()),
        "{} {}",
        r["findings"],
        r["summary"]["server"]["averages"]
    );
}

#[test]
fn findings_io_bound_checkpoint_age_and_hot_rows() {
    let home = Home::new();
    // A buffer pool far smaller than the table, and a tiny redo log.
    let s = home.start(
        "small",
        &[
            "--set",
            "innodb_buffer_pool_size=8M",
            "--set",
            "innodb_log_file_size=4M",
        ],
    );
    prepare(&home, &s, &["oltp_point_select", "--table-size", "200000"]);
    let (rules, r) = rules_of(
        &home,
        &s,
        "io",
        &[
            "oltp_point_select",
            "--table-size",
            "200000",
            "--threads",
            "4",
            "--time",
            "5",
            "--warmup",
            "1",
        ],
    );
    assert!(rules.contains(&"io_bound".to_string()), "{}", r["findings"]);

    // Page flushing held to 100 IOPS, so the redo fills faster than the pages are written
    // (with the default, a loaded CI machine peaked at 74.8 %, just under the rule's 75 %).
    let s = home.start(
        "redo",
        &[
            "--set",
            "innodb_log_file_size=4M",
            "--set",
            "innodb_io_capacity=100",
            "--set",
            "innodb_io_capacity_max=100",
        ],
    );
    prepare(&home, &s, &["oltp_write_only", "--table-size", "50000"]);
    let (rules, r) = rules_of(
        &home,
        &s,
        "redo-run",
        &[
            "oltp_write_only",
            "--table-size",
            "50000",
            "--threads",
            "4",
            "--time",
            "6",
            "--warmup",
            "1",
        ],
    );
    assert!(
        rules.contains(&"checkpoint_age".to_string()),
        "{} {}",
        r["findings"],
        r["summary"]["server"]["peaks"]
    );

    // Thirty-two virtual users on one TPC-B branch: they queue on its row inside the server.
    let s = home.start("hot", &[]);
    prepare(&home, &s, &["tpcb", "--scale", "1"]);
    let (rules, r) = rules_of(
        &home,
        &s,
        "hot-run",
        &["tpcb", "--threads", "32", "--time", "8", "--warmup", "1"],
    );
    assert!(
        rules.contains(&"row_locks".to_string()),
        "{}",
        r["findings"]
    );
    assert!(
        rules.contains(&"server_queue".to_string()),
        "{}",
        r["findings"]
    );
}

/// TPC-C under both --null-dates: the New-Orders the server committed equal txbench's, page
/// splits per New-Order are recorded for each, and `compare` puts the two side by side in its
/// "why" table.
#[test]
fn tpcc_new_orders_cross_checked_and_compared_with_a_why_table() {
    let home = Home::new();
    let s = home.start("splits", &["--set", "innodb_buffer_pool_size=512M"]);
    let mut dirs = Vec::new();
    for nd in ["null", "default"] {
        prepare(
            &home,
            &s,
            &["tpcc", "--warehouses", "1", "--null-dates", nd],
        );
        let name = format!("tpcc-{nd}");
        let (rules, r) = rules_of(
            &home,
            &s,
            &name,
            &[
                "tpcc",
                "--threads",
                "4",
                "--time",
                "6",
                "--warmup",
                "1",
                "--rate",
                "150",
            ],
        );
        assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
        let srv = &r["summary"]["server"];
        let checks = srv["cross_checks"].as_array().unwrap();
        let whats: Vec<&str> = checks.iter().map(|c| c["what"].as_str().unwrap()).collect();
        assert_eq!(whats.len(), 3, "{whats:?}");
        assert!(whats[2].starts_with("New-Orders (SUM(D_NEXT_O_ID))"));
        let no = &checks[2];
        assert_eq!(no["agrees"], true, "{no}");
        // A few New-Orders may commit between the warm-up's end and the opening sample (at
        // 150 transactions a second, 67 New-Orders: 4 in a loaded machine's 60 ms).
        let diff = no["server"].as_f64().unwrap() - no["txbench"].as_f64().unwrap();
        assert!(diff.abs() <= 8.0, "{no}");
        assert!(no["txbench"].as_f64().unwrap() > 100.0, "{no}");
        assert!(srv["per_new_order"]["page_splits"].is_number(), "{srv}");
        // Rows that grow on delivery churn the B-tree pages: a finding under NULL dates only.
        let churn = srv["per_new_order"]["page_splits"].as_f64().unwrap()
            + srv["per_new_order"]["page_reorgs"].as_f64().unwrap();
        assert_eq!(
            rules.contains(&"page_splits".to_string()),
            nd == "null",
            "--null-dates {nd}: {churn} splits + reorganisations per New-Order, {}",
            r["findings"]
        );
        assert!(srv["per_new_order"]["server_cpu_ms"].as_f64().unwrap() > 0.0);
        dirs.push(home.path().join(&name));
        let out = home
            .cmd()
            .args(["--url", &s.url, "cleanup", "tpcc"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
    }
    let out = home.cmd().arg("compare").args(&dirs).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("why, 4 threads, NEW1 against BASE"),
        "{stdout}"
    );
    let out = home
        .cmd()
        .args(["compare", "--json"])
        .args(&dirs)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let why = v["rows"][0]["new"][0]["why"].as_array().unwrap();
    assert!(why.len() >= 10, "{why:?}");
    assert!(
        why.iter()
            .any(|w| w["figure"] == "per New-Order: page_splits"),
        "{why:?}"
    );
}

/// performance_schema on: the top waits of every interval go to waits.csv and the measured
/// phase's top waits into the summary; a server without it writes no waits.csv.
#[test]
fn waits_are_sampled_when_performance_schema_is_on() {
    let home = Home::new();
    let s = home.start("waits", &["--set", "performance_schema=ON"]);
    prepare(&home, &s, &["oltp_read_write", "--table-size", "10000"]);
    let args = [
        "oltp_read_write",
        "--table-size",
        "10000",
        "--threads",
        "4",
        "--time",
        "4",
        "--warmup",
        "1",
    ];
    let (_, r) = rules_of(&home, &s, "ps-on", &args);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    let srv = &r["summary"]["server"];
    assert_eq!(srv["not_recorded"], serde_json::json!([]), "{srv}");
    let top = srv["top_waits"].as_array().expect("top_waits");
    assert!(!top.is_empty() && top.len() <= 10, "{top:?}");
    let shares: f64 = top.iter().map(|w| w["share_pct"].as_f64().unwrap()).sum();
    assert!(shares > 0.0 && shares <= 100.001, "{shares}");
    // InnoDB's own latches are among them; threads at rest (condition waits) are not.
    assert!(
        top.iter()
            .any(|w| w["event"].as_str().unwrap().contains("/innodb/")),
        "{top:?}"
    );
    assert!(top.iter().all(|w| w["class"] != "cond"), "{top:?}");
    let csv = std::fs::read_to_string(home.path().join("ps-on").join("waits.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("phase,start_s,end_s,event,class,waits_per_s,wait_ms_per_s,avg_us")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().any(|r| r[0] == "measure"), "{csv}");
    assert!(
        rows.iter()
            .all(|r| r.len() == 8 && r[3].starts_with("wait/"))
    );
    // At most 20 events per interval.
    let mut per: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in &rows {
        *per.entry(r[2]).or_default() += 1;
    }
    assert!(per.values().all(|n| *n <= 20), "{per:?}");

    // The report charts the top 5 waits over time and lists the phase's top waits.
    let page = home.path().join("ps-on.html");
    let out = home
        .cmd()
        .arg("report")
        .arg(home.path().join("ps-on"))
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("waits (performance_schema)"),
        "no waits chart"
    );
    assert!(html.contains("<th>wait event</th>"));

    // performance_schema off (the default): no waits, nothing said about them.
    let off = home.start("waits-off", &[]);
    prepare(&home, &off, &["oltp_read_write", "--table-size", "10000"]);
    let (_, r) = rules_of(&home, &off, "ps-off", &args);
    assert!(r["summary"]["server"]["top_waits"].is_null());
    assert!(!home.path().join("ps-off").join("waits.csv").exists());
}
