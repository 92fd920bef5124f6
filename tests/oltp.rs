//! sysbench-style OLTP workloads and the driver, against real sandbox servers.

mod common;
use common::*;
use mysql::prelude::Queryable;
use std::time::Duration;

/// Starts sandbox `name` and prepares `workload` on it with `opts`.
fn prepared(home: &Home, name: &str, workload: &str, opts: &[&str]) -> Server {
    prepared_on(Db::MariaDb, home, name, workload, opts)
}

/// [`prepared`] on `db`.
fn prepared_on(db: Db, home: &Home, name: &str, workload: &str, opts: &[&str]) -> Server {
    let s = home.start_db(db, name, &[]);
    let out = home
        .cmd()
        .args(["--url", &s.url, "prepare", workload])
        .args(opts)
        .output()
        .unwrap();
    assert!(out.status.success(), "prepare failed: {:?}", text(&out));
    s
}

/// `txbench run WORKLOAD` on `s` as a plain command, to spawn in the background.
fn background_run(home: &Home, s: &Server, workload: &str, args: &[&str]) -> std::process::Command {
    let mut cmd = home.std_cmd();
    cmd.args(["--url", &s.url, "run", workload]).args(args);
    cmd
}

// Four tables: a worker then holds 36 prepared statements, more than the mysql crate's
// default statement cache (32), which used to close statements still in use.
const SMALL: [&str; 4] = ["--tables", "4", "--table-size", "1000"];

fn run_args<'a>(workload: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["run", workload, "--json"];
    v.extend_from_slice(extra);
    v
}

#[test]
fn every_oltp_workload_runs_with_sysbench_statement_counts() {
    every_oltp_workload_runs(Db::MariaDb);
}

#[test]
fn every_oltp_workload_runs_with_sysbench_statement_counts_on_postgres() {
    every_oltp_workload_runs(Db::Postgres);
}

fn every_oltp_workload_runs(db: Db) {
    let home = Home::new();
    let s = home.start_db(db, "oltp", &[]);
    let out = home
        .cmd()
        .args(["--url", &s.url, "prepare", "oltp_read_write"])
        .args(SMALL)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let out = home
        .cmd()
        .args(["--url", &s.url, "check", "oltp_read_write"])
        .args(SMALL)
        .output()
        .unwrap();
    assert!(
        text(&out).0.contains("sbtest4: 1000 rows"),
        "{:?}",
        text(&out)
    );

    // (workload, extra options, reads, writes, other) per transaction, from sysbench 1.0.20.
    let cases: &[(&str, &[&str], u64, u64, u64)] = &[
        ("oltp_read_write", &[], 14, 4, 2),
        ("oltp_read_only", &[], 14, 0, 2),
        ("oltp_write_only", &[], 0, 4, 2),
        ("oltp_point_select", &[], 1, 0, 0),
        ("oltp_update_index", &[], 0, 1, 0),
        ("oltp_update_non_index", &[], 0, 1, 0),
        ("oltp_insert", &[], 0, 1, 0),
        ("oltp_delete", &[], 0, 1, 0),
        (
            "oltp_read_write",
            &[
                "--point-selects",
                "3",
                "--simple-ranges",
                "2",
                "--sum-ranges",
                "0",
                "--order-ranges",
                "0",
                "--index-updates",
                "2",
                "--non-index-updates",
                "0",
                "--delete-inserts",
                "2",
                "--skip-trx",
            ],
            6,
            6,
            0,
        ),
        (
            "oltp_read_only",
            &["--range-selects", "off", "--rand-type", "zipfian"],
            10,
            0,
            2,
        ),
    ];
    for (i, (workload, extra, r, w, o)) in cases.iter().enumerate() {
        let dir = home.path().join(format!("run{i}"));
        let dir_s = dir.to_str().unwrap().to_string();
        let mut args = run_args(
            workload,
            &[
                "--threads",
                "2",
                "--events",
                "40",
                "--time",
                "120",
                "--out",
                &dir_s,
            ],
        );
        args.extend_from_slice(&SMALL);
        args.extend_from_slice(extra);
        let out = home
            .cmd()
            .arg("--url")
            .arg(&s.url)
            .args(&args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{workload} {extra:?}: {:?}",
            text(&out)
        );
        let sum = summary_of(&out);
        let m = &sum["summary"];
        // Exactly 40 start. Contention between the two threads can deadlock: a retried
        // attempt's statements ran too, and one beyond its retries ends as an error. A
        // delete-insert's INSERT can also meet the row the other thread re-inserted after
        // its own DELETE found none (a duplicate key, as under sysbench): nothing else.
        let (txn, errors) = (
            m["transactions"].as_u64().unwrap(),
            m["errors"].as_u64().unwrap(),
        );
        assert_eq!(txn + errors, 40, "{workload}: {m}");
        let duplicates = m["errors_by_class"]["duplicate_key"].as_u64().unwrap_or(0);
        assert_eq!(
            m["unexpected_errors"].as_u64().unwrap(),
            duplicates,
            "{workload}: {m}"
        );
        let got = (
            m["stmts"]["reads"].as_u64().unwrap(),
            m["stmts"]["writes"].as_u64().unwrap(),
            m["stmts"]["other"].as_u64().unwrap(),
        );
        if errors == 0 && m["retries"] == 0 {
            assert_eq!(got, (40 * r, 40 * w, 40 * o), "{workload} {extra:?}");
        } else {
            // Every completed transaction ran all its statements; no attempt (the 40 starts
            // and each retry) ran more than all of them.
            let attempts = 40 + m["retries"].as_u64().unwrap();
            assert!(
                got.0 >= txn * r && got.1 >= txn * w && got.2 >= txn * o,
                "{workload} {extra:?}: {m}"
            );
            assert!(
                got.0 <= attempts * r && got.1 <= attempts * w && got.2 <= attempts * o,
                "{workload} {extra:?}: more statements than {attempts} attempts make: {m}"
            );
        }
        let result = result_json(&dir);
        assert_schema_valid(&result);
        assert_eq!(result["status"], "completed");
        assert_eq!(result["validity"]["valid"], true);
        assert!(
            result["notes"]
                .to_string()
                .contains("sysbench 1.0.20 defaults to special")
                || extra.contains(&"zipfian")
        );
        // No password in stored results; the URL is stored redacted.
        let scheme = match db {
            Db::MariaDb => "mysql",
            Db::Postgres => "postgres",
        };
        assert!(
            result["config"]["url"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{scheme}://txbench@127.0.0.1:"))
        );
        if i == 0 {
            // The HDR interval log is readable by HdrHistogram's own parser and holds every
            // measured transaction.
            let log = std::fs::read(dir.join("latency.hlog")).unwrap();
            let mut deser = hdrhistogram::serialization::Deserializer::new();
            let mut total = 0;
            for item in hdrhistogram::serialization::interval_log::IntervalLogIterator::new(&log) {
                // A line the parser rejects would leave the total short of 40.
                if let Ok(hdrhistogram::serialization::interval_log::LogEntry::Interval(h)) = item
                    && h.tag().map(|t| t.as_str()) == Some("read_write.response")
                {
                    let bytes = base64_decode(h.encoded_histogram());
                    let hist: hdrhistogram::Histogram<u64> =
                        deser.deserialize(&mut &bytes[..]).unwrap();
                    total += hist.len();
                }
            }
            assert_eq!(total, 40);
            let csv = std::fs::read_to_string(dir.join("intervals.csv")).unwrap();
            assert!(csv.starts_with("phase,start_s,end_s,threads,transactions,tps,qps"));
            assert_eq!(
                csv.lines().count(),
                1 + result["intervals"].as_array().unwrap().len()
            );
        }
    }

    // cleanup drops the tables; a run after it says what to do.
    let out = home
        .cmd()
        .args(["--url", &s.url, "cleanup", "oltp_read_write"])
        .output()
        .unwrap();
    assert!(
        text(&out).0.contains("dropped 4 sbtest table(s)"),
        "{:?}",
        text(&out)
    );
    let out = home
        .cmd()
        .args(["--url", &s.url, "run", "oltp_point_select", "--time", "1"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains(
            "run `txbench prepare oltp_point_select --tables 1 --table-size 10000` first"
        ),
        "{line}"
    );
}

fn base64_decode(s: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .expect("base64")
}

#[test]
fn an_open_loop_stall_shows_in_response_time_but_not_service_time() {
    let home = Home::new();
    let s = prepared(
        &home,
        "stall",
        "oltp_point_select",
        &["--table-size", "1000"],
    );
    let mut locker = s.conn();
    let dir = home.path().join("stall-run");
    let mut child = background_run(
        &home,
        &s,
        "oltp_point_select",
        &["--table-size", "1000", "--json"],
    );
    child
        .args([
            "--rate",
            "200",
            "--threads",
            "4",
            // Long enough that the 1.5-s stall stays under a fifth of it (a longer one
            // makes the run INVALID: tests/blocked.rs).
            "--time",
            "10",
            "--report-interval",
            "1",
        ])
        .arg("--out")
        .arg(&dir);
    let handle = std::thread::spawn(move || child.output().unwrap());
    std::thread::sleep(Duration::from_secs(3));
    locker.query_drop("LOCK TABLES sbtest1 WRITE").unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    locker.query_drop("UNLOCK TABLES").unwrap();
    let out = handle.join().unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let m = &summary_of(&out)["summary"];
    let response_p99 = m["response"]["p99_ms"].as_f64().unwrap();
    let service_p99 = m["service"]["p99_ms"].as_f64().unwrap();
    // About 300 of 2,000 arrivals wait behind the 1.5 s lock: response p99 is near 1.5 s.
    // Only the 4 statements in flight wait inside the server: service p99 stays small.
    assert!(response_p99 >= 700.0, "response p99 {response_p99} ms: {m}");
    assert!(service_p99 < 200.0, "service p99 {service_p99} ms: {m}");
    assert!(
        m["service"]["max_ms"].as_f64().unwrap() >= 700.0,
        "the stalled statements are still seen: {m}"
    );
    let result = result_json(&dir);
    assert_eq!(result["loop_kind"], "open");
    assert_schema_valid(&result);
}

#[test]
fn lock_wait_timeouts_and_deadlocks_are_classified_and_retried() {
    let home = Home::new();
    let s = home.start("contention", &["--set", "innodb_lock_wait_timeout=1"]);
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "prepare",
            "oltp_update_index",
            "--table-size",
            "20",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));

    // Hold every row for 10 s: updates wait 1 s, time out, are retried 3 times, then fail
    // (4 s of waiting), and the next attempts do the same. Attempts whose retries ran out
    // count against --max-error-rate: with nothing committed in the interval where they
    // fail, the run stops INVALID (it passed VALID before).
    let mut holder = s.conn();
    holder.query_drop("BEGIN").unwrap();
    holder
        .query_drop("SELECT * FROM sbtest1 FOR UPDATE")
        .unwrap();
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(10));
        holder.query_drop("ROLLBACK").unwrap();
    });
    let dir = home.dir.path().join("lock-wait-run");
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_update_index",
            "--table-size",
            "20",
        ])
        .args(["--threads", "2", "--time", "12", "--report-interval", "1"])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    release.join().unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "retries that ran out are failures: {:?}",
        text(&out)
    );
    let result = result_json(&dir);
    assert_schema_valid(&result);
    let m = &result["summary"];
    assert!(m["retries"].as_u64().unwrap() >= 3, "{m}");
    assert!(
        m["errors_by_class"]["lock_wait_timeout"].as_u64().unwrap() >= 1,
        "{m}"
    );
    assert_eq!(m["unexpected_errors"], 0);
    assert!(m["failed_after_retries"].as_u64().unwrap() >= 1, "{m}");
    assert!(
        m["top_errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Lock wait timeout"),
        "{m}"
    );
    assert_eq!(result["validity"]["valid"], false);
    let reasons = result["validity"]["reasons"].to_string();
    assert!(
        reasons.contains("after their --retries 3 retries ran out")
            && reasons.contains("Lock wait timeout"),
        "{reasons}"
    );
    // The text summary parts what finally failed from what was retried (pgbench's
    // --failures-detailed).
    let shown = text(&out).0;
    assert!(
        shown.contains("INVALID") && shown.contains("after their retries ran out"),
        "{shown}"
    );

    // Many writers on 20 rows in random order deadlock; deadlocks are retried too. Near half
    // the attempts deadlock here, so 3 retries leave about 6 % finally failed (INVALID);
    // with 10 the run measures what it says.
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_write_only",
            "--table-size",
            "20",
            "--json",
        ])
        .args([
            "--threads",
            "8",
            "--time",
            "4",
            "--report-interval",
            "4",
            "--index-updates",
            "4",
            "--retries",
            "10",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let m = &summary_of(&out)["summary"];
    assert!(
        m["retries"].as_u64().unwrap() > 0,
        "no deadlock was retried: {m}"
    );
    assert!(m["retried_transactions"].as_u64().unwrap() > 0, "{m}");
    assert_eq!(m["unexpected_errors"], 0, "{m}");
}

#[test]
fn killed_connections_reconnect_and_the_run_goes_on() {
    let home = Home::new();
    let s = prepared(
        &home,
        "kill",
        "oltp_point_select",
        &["--table-size", "1000"],
    );
    let mut admin = s.conn();
    let mut cmd = background_run(
        &home,
        &s,
        "oltp_point_select",
        &["--table-size", "1000", "--json"],
    );
    cmd.args(["--threads", "3", "--time", "5", "--report-interval", "1"]);
    let handle = std::thread::spawn(move || cmd.output().unwrap());
    std::thread::sleep(Duration::from_secs(2));
    let ids: Vec<u64> = admin
        .query("SELECT id FROM information_schema.processlist WHERE user = 'txbench' AND id <> CONNECTION_ID() AND command <> 'Daemon'")
        .unwrap();
    assert!(ids.len() >= 3, "{ids:?}");
    for id in &ids {
        admin.query_drop(format!("KILL CONNECTION {id}")).unwrap();
    }
    let out = handle.join().unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let m = &summary_of(&out)["summary"];
    assert!(m["reconnects"].as_u64().unwrap() >= 3, "{m}");
    assert!(
        m["errors_by_class"].get("lost_connection").is_some()
            || m["errors_by_class"].get("server_shutdown").is_some(),
        "{m}"
    );
    assert!(m["transactions"].as_u64().unwrap() > 100, "{m}");
}

#[test]
fn ctrl_c_writes_results_and_exits_130() {
    let home = Home::new();
    let s = prepared(
        &home,
        "sigint",
        "oltp_point_select",
        &["--table-size", "1000"],
    );
    // --out into a directory of someone else's files is refused and leaves them as they were.
    let theirs = home.path().join("theirs");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("intervals.csv"), "mine\n").unwrap();
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .args(["--time", "1", "--out"])
        .arg(&theirs)
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 1)
            .contains("holds files but no txbench run (such as intervals.csv)")
    );
    assert_eq!(
        std::fs::read_to_string(theirs.join("intervals.csv")).unwrap(),
        "mine\n"
    );
    let dir = home.path().join("interrupted");
    let mut cmd = background_run(&home, &s, "oltp_point_select", &["--table-size", "1000"]);
    cmd.args(["--threads", "2", "--time", "60", "--report-interval", "1"])
        .arg("--out")
        .arg(&dir);
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Two intervals written (however slowly a loaded machine starts the run), then Ctrl-C.
    wait_for_intervals(&dir, 2);
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling the child we spawned.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{:?}", text(&out));
    assert!(
        text(&out)
            .0
            .contains("interrupted run of oltp_point_select"),
        "{:?}",
        text(&out)
    );
    let r = result_json(&dir);
    assert_eq!(r["status"], "interrupted");
    assert!(r["intervals"].as_array().unwrap().len() >= 2, "{r}");
    assert!(r["summary"]["transactions"].as_u64().unwrap() > 0);
    assert!(r["ended_at"].is_string());
    assert_schema_valid(&r);

    // compare names the status and gives an interrupted run no verdict unless --force.
    let compare = |extra: &[&str]| {
        let out = home
            .cmd()
            .arg("compare")
            .args([&dir, &dir])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
        out
    };
    let t = text(&compare(&[])).0;
    assert!(
        t.contains("no verdict: run interrupted (Ctrl-C or SIGTERM) (--force to compare)"),
        "{t}"
    );
    let v = &json_lines(&compare(&["--json"]))[0];
    let n = &v["rows"][0]["new"][0];
    assert_eq!(n["status"], "interrupted", "{v}");
    assert!(n["vs_base"].is_null(), "{v}");
    // Forced, the figures are compared (a verdict, or too few intervals for one).
    let t = text(&compare(&["--force"])).0;
    assert!(!t.contains("no verdict"), "{t}");
}

#[test]
fn bad_run_input_is_refused_clearly() {
    let home = Home::new();
    for (args, flag) in [
        (vec!["run", "oltp_nonsense"], "oltp_nonsense"),
        (
            vec!["run", "oltp_read_write", "--frobnicate"],
            "--frobnicate",
        ),
        (
            vec!["run", "oltp_read_write", "--threads", "0"],
            "--threads",
        ),
        (
            vec!["run", "oltp_read_write", "--threads", "-4"],
            "--threads",
        ),
        (vec!["run", "oltp_read_write", "--time", "0"], "--time"),
        (vec!["run", "oltp_read_write", "--time", "-1"], "--time"),
        (vec!["run", "oltp_read_write", "--rate", "0"], "--rate"),
        (vec!["run", "oltp_read_write", "--rate", "-5"], "--rate"),
        (
            vec!["run", "oltp_read_write", "--max-error-rate", "-1"],
            "--max-error-rate",
        ),
        (
            vec!["run", "oltp_read_write", "--skip-trx", "maybe"],
            "--skip-trx",
        ),
    ] {
        let out = home.cmd().args(&args).output().unwrap();
        let line = assert_one_line_error(&out, 2);
        assert!(line.contains(flag), "{args:?} should name {flag}: {line}");
    }
    // Option values checked after parsing name their flag, exit 1, before any server starts.
    let out = home
        .cmd()
        .args(["run", "oltp_read_write", "--range-size", "0"])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 1).contains("--range-size"));
    assert!(!home.path().join("servers").exists());
}

#[test]
fn a_low_limit_of_open_files_is_raised_or_named_with_threads() {
    use std::os::unix::process::CommandExt;
    let home = Home::new();
    let s = point_select_server(&home, "fds");
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: a valid pointer to a rlimit the call fills.
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) }, 0);
    let hard = lim.rlim_max;
    // 300 users under a soft limit of 64: each connection needs a descriptor.
    let run = |soft: u64, hard: u64| {
        let mut c = home.std_cmd();
        c.args(["--url", &s.url, "run", "oltp_point_select", "-q"])
            .args(["--table-size", "1000", "--threads", "300", "--time", "1"]);
        // SAFETY: setrlimit only, between fork and exec.
        unsafe {
            c.pre_exec(move || {
                let l = libc::rlimit {
                    rlim_cur: soft,
                    rlim_max: hard,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &l) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        c.output().unwrap()
    };
    // The soft limit is raised to the hard one: every user connects.
    let out = run(64, hard);
    assert!(out.status.success(), "{:?}", text(&out));
    // A hard limit too low: refused before anything connects, naming --threads.
    let out = run(64, 64);
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("--threads 300") && line.contains("ulimit -Hn"),
        "{line}"
    );
}

#[test]
fn a_table_of_the_wrong_shape_is_named() {
    a_table_of_the_wrong_shape(Db::MariaDb);
}

#[test]
fn a_table_of_the_wrong_shape_is_named_on_postgres() {
    a_table_of_the_wrong_shape(Db::Postgres);
}

fn a_table_of_the_wrong_shape(db: Db) {
    let home = Home::new();
    let s = prepared_on(
        db,
        &home,
        "shape",
        "oltp_point_select",
        &["--table-size", "100"],
    );
    s.exec(&["ALTER TABLE sbtest1 DROP COLUMN pad"]);
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--table-size",
            "100",
            "--time",
            "1",
        ])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("table sbtest1 has no column 'pad' (it has id, k, c)"),
        "{line}"
    );
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--tables",
            "3",
            "--time",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 1)
            .contains("table sbtest2 does not exist (1 tables are prepared, --tables is 3)")
    );
    // prepare over existing tables refuses instead of mixing data.
    let out = home
        .cmd()
        .args(["--url", &s.url, "prepare", "oltp_point_select"])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 1).contains("sbtest1 exists already"));
}

#[test]
fn a_server_that_dies_mid_run_ends_it_invalid_with_results_kept() {
    let home = Home::new();
    let s = prepared(
        &home,
        "dies",
        "oltp_point_select",
        &["--table-size", "1000"],
    );
    let dir = home.path().join("died");
    let mut cmd = background_run(&home, &s, "oltp_point_select", &["--table-size", "1000"]);
    cmd.args(["--threads", "2", "--time", "60", "--report-interval", "1"])
        .arg("--out")
        .arg(&dir);
    let handle = std::thread::spawn(move || cmd.output().unwrap());
    std::thread::sleep(Duration::from_secs(3));
    // SAFETY: the pid is the sandbox server this test started.
    unsafe { libc::kill(s.pid, libc::SIGKILL) };
    let out = handle.join().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout} {stderr}");
    assert!(
        stdout.contains("INVALID: the server has been unreachable"),
        "{stdout}"
    );
    assert!(
        stderr.contains("Error: the run is INVALID: the server has been unreachable"),
        "{stderr}"
    );
    let r = result_json(&dir);
    assert_eq!(r["status"], "aborted");
    assert_eq!(r["validity"]["valid"], false);
    assert!(
        r["summary"]["transactions"].as_u64().unwrap() > 0,
        "results before the crash are kept"
    );
    assert!(r["intervals"].as_array().unwrap().len() >= 3);
}

#[test]
fn a_server_restarted_mid_run_makes_it_invalid() {
    a_server_restarted_mid_run(Db::MariaDb);
}

#[test]
fn a_server_restarted_mid_run_makes_it_invalid_on_postgres() {
    a_server_restarted_mid_run(Db::Postgres);
}

fn a_server_restarted_mid_run(db: Db) {
    let home = Home::new();
    let s = prepared_on(
        db,
        &home,
        "restart",
        "oltp_point_select",
        &["--table-size", "1000"],
    );
    let dir = home.path().join("restarted");
    let mut cmd = background_run(&home, &s, "oltp_point_select", &["--table-size", "1000"]);
    cmd.args(["--threads", "2", "--time", "8", "--report-interval", "1"])
        .arg("--out")
        .arg(&dir);
    let handle = std::thread::spawn(move || cmd.output().unwrap());
    std::thread::sleep(Duration::from_secs(3));
    let stop = home
        .cmd()
        .args(["server", "stop", "restart"])
        .output()
        .unwrap();
    assert!(stop.status.success(), "{:?}", text(&stop));
    // The same port again (it is free), so the run's connections come back to a new server.
    let port = s.port.to_string();
    let start = home
        .cmd()
        .args(["server", "start", "--name", "restart", "--port", &port])
        .output()
        .unwrap();
    assert!(start.status.success(), "{:?}", text(&start));
    let out = handle.join().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout} {stderr}");
    assert!(
        stdout.contains("INVALID: the server restarted during the run (Uptime went from"),
        "{stdout}"
    );
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], false);
    // Both virtual users saw the restart: reconnected, or (when the new server took longer to
    // start than the run had left, as on a loaded CI machine) lost their connections, which
    // PostgreSQL ends with 57P01, a server_shutdown (a clean-clone CI run: one reconnect and
    // two server_shutdown errors).
    let by_class = &r["summary"]["errors_by_class"];
    let seen = r["summary"]["reconnects"].as_u64().unwrap()
        + ["lost_connection", "server_shutdown"]
            .iter()
            .map(|c| by_class[c].as_u64().unwrap_or(0))
            .sum::<u64>();
    assert!(seen >= 2, "{}", r["summary"]);
}

#[test]
fn transactions_that_always_fail_stop_the_run_as_invalid() {
    transactions_that_always_fail(Db::MariaDb);
}

#[test]
fn transactions_that_always_fail_stop_the_run_as_invalid_on_postgres() {
    transactions_that_always_fail(Db::Postgres);
}

fn transactions_that_always_fail(db: Db) {
    let home = Home::new();
    let s = prepared_on(
        db,
        &home,
        "sabotage",
        "oltp_update_index",
        &["--table-size", "1000"],
    );
    let code = match db {
        Db::MariaDb => {
            s.exec(&[
                "CREATE TRIGGER sbtest1_sabotage BEFORE UPDATE ON sbtest1 FOR EACH ROW \
                 SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'sabotaged by the test'",
            ]);
            "1644"
        }
        Db::Postgres => {
            s.exec(&[
                "CREATE FUNCTION sabotage() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN RAISE EXCEPTION 'sabotaged by the test'; END $$",
                "CREATE TRIGGER sbtest1_sabotage BEFORE UPDATE ON sbtest1 FOR EACH ROW \
                 EXECUTE FUNCTION sabotage()",
            ]);
            "P0001"
        }
    };
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_update_index",
            "--table-size",
            "1000",
        ])
        .args([
            "--threads",
            "2",
            "--time",
            "30",
            "--report-interval",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("failed with unexpected errors"), "{stderr}");
    assert!(
        stderr.contains(&format!("sabotaged by the test ({code})")),
        "the top error is named: {stderr}"
    );
    let sum = summary_of(&out);
    assert_eq!(sum["validity"]["valid"], false);
    assert_eq!(sum["status"], "aborted");
    // It stopped at the first bad interval, not after 30 s.
    assert!(
        sum["summary"]["duration_s"].as_f64().unwrap() < 5.0,
        "{sum}"
    );
}

#[test]
fn every_transaction_the_database_saw_is_counted() {
    every_transaction_counted(Db::MariaDb);
}

#[test]
fn every_transaction_the_database_saw_is_counted_on_postgres() {
    every_transaction_counted(Db::Postgres);
}

fn every_transaction_counted(db: Db) {
    // Each oltp_update_index transaction adds exactly 1 to SUM(k): the database's delta must
    // equal the transactions recorded over all intervals (warm-up included), so none that
    // finished after the last snapshot may be lost.
    let home = Home::new();
    let s = prepared_on(
        db,
        &home,
        "count",
        "oltp_update_index",
        &["--table-size", "1000"],
    );
    let sum_k = |s: &Server| -> u64 { s.count("SELECT SUM(k) FROM sbtest1") };
    let before = sum_k(&s);
    let dir = home.path().join("counted");
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_update_index",
            "--table-size",
            "1000",
        ])
        .args([
            "--threads",
            "8",
            "--warmup",
            "1",
            "--time",
            "2",
            "--report-interval",
            "1",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    let recorded: u64 = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["transactions"].as_u64().unwrap())
        .sum();
    assert_eq!(r["summary"]["errors"], 0);
    assert_eq!(
        sum_k(&s) - before,
        recorded,
        "updates made vs transactions recorded"
    );
}
