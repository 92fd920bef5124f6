//! A run in which nothing can finish is never VALID: every virtual user blocked behind
//! another session's row lock for the measured phase, or from part-way through it, makes
//! the run INVALID with the reason (how long, and what the server says its sessions wait
//! on), and the time it ran past its requested end is reported.

mod common;
use common::*;
use std::time::Duration;

/// Holds every row of sbtest1 from `after` for `hold`, through the engine seam.
fn hold_rows(s: &Server, after: Duration, hold: Duration) -> std::thread::JoinHandle<()> {
    let mut c = s.engine_conn();
    std::thread::spawn(move || {
        std::thread::sleep(after);
        c.query_drop("BEGIN").unwrap();
        c.query_drop("SELECT * FROM sbtest1 FOR UPDATE").unwrap();
        std::thread::sleep(hold);
        c.query_drop("ROLLBACK").unwrap();
    })
}

/// A 6-s run of oltp_update_index at 4 threads with 1-s intervals into `dir`.
fn run_cmd(home: &Home, s: &Server, dir: &std::path::Path) -> std::process::Command {
    let mut c = home.std_cmd();
    c.args([
        "--url",
        &s.url,
        "run",
        "oltp_update_index",
        "--table-size",
        "100",
    ])
    .args(["--threads", "4", "--time", "6", "--report-interval", "1"])
    .arg("--out")
    .arg(dir)
    .env("NO_COLOR", "1");
    c
}

fn blocked_runs_are_invalid(db: Db, waits_on: &str) {
    let home = Home::new();
    let s = home.start_db(db, "blocked", &[]);
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "prepare",
            "oltp_update_index",
            "--table-size",
            "100",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));

    // Blocked throughout, and 6 s past the run's end (the server's lock wait timeout is
    // longer): more than the 5 s a run may overrun.
    let holder = hold_rows(&s, Duration::ZERO, Duration::from_secs(13));
    std::thread::sleep(Duration::from_millis(500));
    let dir = home.path().join("throughout");
    let out = run_cmd(&home, &s, &dir).output().unwrap();
    holder.join().unwrap();
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    let result = result_json(&dir);
    assert_schema_valid(&result);
    assert_eq!(result["validity"]["valid"], false);
    let reasons = result["validity"]["reasons"].to_string();
    assert!(
        reasons.contains(
            "every virtual user (4) was blocked inside a transaction and none finished for"
        ),
        "{reasons}"
    );
    assert!(reasons.contains(waits_on), "{reasons}");
    assert!(reasons.contains("past its requested 6 s"), "{reasons}");
    let overrun = result["summary"]["overrun_s"].as_f64().unwrap();
    assert!(overrun > 5.0, "overrun {overrun}");
    let shown = text(&out).0;
    assert!(shown.contains("past the requested 6 s"), "{shown}");

    // Transactions complete for the first interval and one more second, then every user is
    // blocked to the end: the only transactions counted started before the stall. (Timed
    // from the run's first interval: beside other tests a debug build's run took over 2 s
    // to start, and the rows were locked before its first transaction.)
    let dir = home.path().join("from-2s");
    let child = run_cmd(&home, &s, &dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_intervals(&dir, 1);
    let holder = hold_rows(&s, Duration::from_secs(1), Duration::from_secs(6));
    let out = child.wait_with_output().unwrap();
    holder.join().unwrap();
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    let result = result_json(&dir);
    assert!(result["summary"]["transactions"].as_u64().unwrap() > 10);
    let reasons = result["validity"]["reasons"].to_string();
    assert!(reasons.contains("none finished for"), "{reasons}");
}

#[test]
fn a_run_blocked_behind_another_sessions_lock_is_invalid() {
    blocked_runs_are_invalid(
        Db::MariaDb,
        "in LOCK WAIT (information_schema.INNODB_TRX), blocked by connection",
    );
}

#[test]
fn a_run_blocked_behind_another_sessions_lock_is_invalid_on_postgres() {
    blocked_runs_are_invalid(
        Db::Postgres,
        "waiting on Lock/transactionid, blocked by backend",
    );
}
