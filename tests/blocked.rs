//! A run in which nothing can finish is never VALID: every virtual user blocked behind
//! another session's row lock for the measured phase, or from part-way through it, makes
//! the run INVALID with the reason (how long, and what the server says its sessions wait
//! on). Users still inside a transaction a second after the run's end are cut (their
//! sessions ended on the server), so the end does not wait for a lock: a run with two of
//! four users held past its end ends within seconds of it, VALID, the two counted as cut.

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
    // longer): the users are cut a second after the end, not waited for.
    let holder = hold_rows(&s, Duration::ZERO, Duration::from_secs(13));
    std::thread::sleep(Duration::from_millis(500));
    let dir = home.path().join("throughout");
    let out = run_cmd(&home, &s, &dir).output().unwrap();
    // The holder still holds its rows: the users' sessions no longer wait for them.
    assert_none_left(
        &s,
        match db {
            Db::MariaDb => {
                "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'"
            }
            Db::Postgres => "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
        },
    );
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
    assert!(!reasons.contains("past its requested"), "{reasons}");
    let overrun = result["summary"]["overrun_s"].as_f64().unwrap();
    assert!(overrun < 5.0, "overrun {overrun}");
    assert_eq!(result["summary"]["cut"], 4, "{}", result["notes"]);
    assert!(
        result["notes"]
            .to_string()
            .contains("4 virtual user(s) were still inside a transaction 1 s after the run's end"),
        "{}",
        result["notes"]
    );
    let shown = text(&out).0;
    assert!(shown.contains("cut at the end: 4"), "{shown}");

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

    held_users_are_cut_at_the_end(&home, &s, db);
    no_room_for_the_monitor(&home, &s, db);
}

/// A user allowed two connections, and a run of two virtual users: they take both, and the
/// server refuses txbench's monitor. The run does not start, and says so with what the
/// server said, not that the server "died or restarts" (it ended INVALID for that, 10 s
/// later, when a 2,000-user run met a sandbox's max_connections of 2,000).
fn no_room_for_the_monitor(home: &Home, s: &Server, db: Db) {
    let (user, said) = match db {
        Db::MariaDb => {
            s.admin_exec(&[
                "CREATE USER 'few'@'127.0.0.1' IDENTIFIED BY 'few-secret' WITH MAX_USER_CONNECTIONS 2",
                "GRANT ALL ON txbench.* TO 'few'@'127.0.0.1'",
            ]);
            ("few:few-secret@", "max_user_connections")
        }
        Db::Postgres => {
            s.admin_exec(&["CREATE ROLE few LOGIN PASSWORD 'few-secret' CONNECTION LIMIT 2"]);
            // By the tables' owner, in their database.
            s.exec(&["GRANT ALL ON ALL TABLES IN SCHEMA public TO few"]);
            ("few:few-secret@", "too many connections for role")
        }
    };
    let url = s.url.replace("txbench@", user);
    let dir = home.path().join("no-room");
    let run = || {
        home.cmd()
            .args([
                "--url",
                &url,
                "run",
                "oltp_update_index",
                "--table-size",
                "100",
            ])
            .args(["--threads", "2", "--time", "3", "--out"])
            .arg(&dir)
            .output()
            .unwrap()
    };
    let mut out = run();
    // The pre-flight's own connection ends just before the users connect; a server that has
    // not yet counted it gone refuses a user instead of the monitor (once, on a busy machine).
    if text(&out).1.contains("a virtual user could not connect") {
        std::thread::sleep(Duration::from_secs(1));
        out = run();
    }
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("txbench's server monitor could not connect")
            && line.contains(said)
            && line.contains("run fewer --threads"),
        "{line}"
    );
    assert!(!line.contains("died or restarts"), "{line}");
    let (o, e) = text(&out);
    assert!(
        !o.contains("few-secret") && !e.contains("few-secret"),
        "{e}"
    );
}

/// Users 0 and 1 of 4 sleep 30 s in a statement from 3 s after the command starts, inside a
/// 6-s run (a pgbench script, no other client): the others go on, so nothing stalls; the two
/// are cut a second after the end instead of holding it 25 s. VALID, the cross-checks
/// agreeing with the cut attempts' statements.
fn held_users_are_cut_at_the_end(home: &Home, s: &Server, db: Db) {
    let sleep = match db {
        Db::MariaDb => {
            "SELECT SLEEP(IF(:client_id < 2 AND UNIX_TIMESTAMP(NOW(6)) >= :from, 30, 0));\n"
        }
        Db::Postgres => {
            "SELECT pg_sleep(CASE WHEN :client_id < 2 AND extract(epoch FROM clock_timestamp()) >= :from THEN 30 ELSE 0 END);\n"
        }
    };
    let started = std::time::Instant::now();
    let (out, dir) = run_asleep_from_3s(home, s, "held", sleep);
    let took = started.elapsed();
    let result = result_json(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", result["validity"]);
    assert_schema_valid(&result);
    let summary = &result["summary"];
    assert_eq!(summary["cut"], 2, "{}", result["notes"]);
    // The server's end of the cut sessions is waited for after the measured phase, and said.
    assert!(
        result["notes"]
            .to_string()
            .contains("the server ended the 2 cut session(s)"),
        "{}",
        result["notes"]
    );
    // Within the overrun rule's 5 s (3.04 s once beside another test file's profiled run);
    // without the cut it was 25 s and more.
    let overrun = summary["overrun_s"].as_f64().unwrap();
    assert!(overrun < 5.0, "overrun {overrun}");
    // Before the cut the command took 30 s and more: the sleeps end 27 s after the run's.
    assert!(took < Duration::from_secs(25), "{took:?}");
    let checks = summary["server"]["cross_checks"].as_array().unwrap();
    assert!(!checks.is_empty() && checks.iter().all(|c| c["agrees"] == true));
    // Ended on the server too, not only left by the client: no session still sleeps
    // (without the server's end they would for 20 s more).
    let running = match db {
        Db::MariaDb => {
            "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(IF(%'"
        }
        Db::Postgres => {
            "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(CASE%' AND state = 'active'"
        }
    };
    assert_none_left(s, running);
}

/// A 6-s run of 4 users of the script `sql` (`:from` is 3 s after now) into `name`.
fn run_asleep_from_3s(
    home: &Home,
    s: &Server,
    name: &str,
    sql: &str,
) -> (std::process::Output, std::path::PathBuf) {
    let script = home.path().join(format!("{name}.sql"));
    std::fs::write(&script, sql).unwrap();
    let from = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 3;
    let dir = home.path().join(name);
    let out = home
        .cmd()
        .args(["--url", &s.url, "run", "script"])
        .arg(&script)
        .args(["-D", &format!("from={from}")])
        .args(["--threads", "4", "--time", "6", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    (out, dir)
}

/// Within 3 s, `count` (a query counting sessions) finds none: the cut sessions ended on the
/// server too, not only on the client's side.
fn assert_none_left(s: &Server, count: &str) {
    let mut c = s.engine_conn();
    let left = |c: &mut txbench::engine::Conn| c.query_first::<i64>(count).unwrap().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    while left(&mut c) > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        left(&mut c),
        0,
        "the cut sessions still run on the server: {count}"
    );
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

/// A server whose thread pool the virtual users fill (one group, at most four threads, four
/// users asleep in a statement from 3 s into a 6-s run): the monitor and the end's cut come
/// in through the sandbox's extra_port, so the run is INVALID for what happened (every user
/// blocked), its cross-checks are made, and its end takes the cut's second. Through the
/// users' port the monitor may wait for a thread: a run before the extra port called the
/// server frozen for 9 s, no sample opened its measured phase, and its end ran 6.5 s past.
#[test]
fn a_server_whose_thread_pool_the_users_fill_is_still_watched_and_cut() {
    let home = Home::new();
    let s = home.start(
        "pooled",
        &[
            "--set",
            "thread_handling=pool-of-threads",
            "--set",
            "thread_pool_size=1",
            "--set",
            "thread_pool_max_threads=4",
        ],
    );
    let extra_port: Vec<i64> = s.sql("SELECT @@extra_port");
    assert!(extra_port[0] != 0, "the sandbox set no extra_port");
    // It listens on loopback only, as the users' port does.
    let tcp = std::fs::read_to_string("/proc/net/tcp").unwrap();
    let tcp6 = std::fs::read_to_string("/proc/net/tcp6").unwrap_or_default();
    let port = format!(":{:04X}", extra_port[0]);
    let listening: Vec<&str> = tcp
        .lines()
        .chain(tcp6.lines())
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() > 3 && f[1].ends_with(&port) && f[3] == "0A").then_some(f[1])
        })
        .collect();
    assert_eq!(
        listening,
        [format!("0100007F{port}")],
        "extra_port listens on {listening:?}"
    );
    let sleep = "SELECT SLEEP(IF(UNIX_TIMESTAMP(NOW(6)) >= :from, 20, 0));\n";
    let (out, dir) = run_asleep_from_3s(&home, &s, "pooled", sleep);
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    let result = result_json(&dir);
    assert_schema_valid(&result);
    let reasons = result["validity"]["reasons"].as_array().unwrap();
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(
        reasons[0]
            .as_str()
            .unwrap()
            .contains("every virtual user (4) was blocked inside a transaction"),
        "{reasons:?}"
    );
    let server = &result["summary"]["server"];
    assert_eq!(server["monitor_port"], extra_port[0], "{server}");
    assert!(
        !server["cross_checks"].as_array().unwrap().is_empty(),
        "{server}"
    );
    assert_eq!(result["summary"]["cut"], 4, "{}", result["notes"]);
    let overrun = result["summary"]["overrun_s"].as_f64().unwrap();
    assert!(overrun < 5.0, "overrun {overrun}");
    assert_none_left(
        &s,
        "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(IF(%'",
    );
    every_extra_connection_taken(&home, &s, extra_port[0]);
}

/// With every connection of the extra port taken, the monitor stays where the users
/// connect, says why its samples may queue, and the run is read and judged as any other.
fn every_extra_connection_taken(home: &Home, s: &Server, extra_port: i64) {
    let extra = s.login_url().at_port(extra_port as u16);
    let mut held = Vec::new();
    while held.len() < 64 {
        match txbench::engine::mysql::connect(&extra) {
            Ok(c) => held.push(c),
            Err(_) => break,
        }
    }
    assert!(held.len() < 64, "the extra port took 64 connections");
    let script = home.path().join("select.sql");
    std::fs::write(&script, "SELECT 1;\n").unwrap();
    let dir = home.path().join("extra-full");
    let out = home
        .cmd()
        .args(["--url", &s.url, "run", "script"])
        .arg(&script)
        .args(["--threads", "2", "--time", "3", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let server = &result_json(&dir)["summary"]["server"];
    assert!(server["monitor_port"].is_null(), "{server}");
    assert!(server["samples"].as_u64().unwrap() > 0, "{server}");
    let said = format!("its extra_port {extra_port} refused the monitor");
    assert!(
        server["not_recorded"].to_string().contains(&said),
        "{server}"
    );
    drop(held);
}
