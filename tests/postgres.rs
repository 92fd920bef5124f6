//! PostgreSQL against real sandboxes started by txbench (`server start --engine postgres`):
//! the sandbox, TPC-B on pgbench's schema both ways with pgbench itself, oltp_* with
//! serialization failures retried, terminated backends, a killed server, bad input.

mod common;

use common::{Home, Server, assert_one_line_error, result_json, summary_of, text};
use std::time::Duration;

fn run(home: &Home, s: &Server, args: &[&str]) -> std::process::Output {
    home.cmd()
        .args(["--url", &s.url])
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: &std::process::Output) -> String {
    let (o, e) = text(out);
    assert!(out.status.success(), "stdout: {o}\nstderr: {e}");
    o
}

fn pgbench(s: &Server, db: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new("pgbench")
        .args([
            "-h",
            "127.0.0.1",
            "-p",
            &s.port.to_string(),
            "-U",
            "txbench",
        ])
        .env("PGPASSWORD", s.secret())
        .args(args)
        .arg(db)
        .output()
        .expect("pgbench (Debian package postgresql-client)")
}

/// A run's result holds the PostgreSQL transaction cross-check, and it agrees.
fn assert_transactions_agree(r: &serde_json::Value) {
    let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
    let pg = checks
        .iter()
        .find(|c| c["what"].as_str().unwrap().contains("xact_commit"))
        .unwrap_or_else(|| panic!("{checks:?}"));
    assert_eq!(pg["agrees"], true, "{pg}");
}

#[test]
fn tpcb_on_pgbench_schema_runs_both_ways_with_pgbench() {
    let home = Home::new();
    let s = home.start_postgres("pg", &["--set", "work_mem=8MB"]);
    assert!(
        s.url.starts_with("postgres://txbench@127.0.0.1:"),
        "{}",
        s.url
    );
    assert!(
        s.json["preflight"]["variables"]["server_version"].is_string(),
        "{}",
        s.json
    );
    // The final configuration is kept with the sandbox, --set last.
    let conf = std::fs::read_to_string(home.path().join("servers/pg/postgresql.conf")).unwrap();
    let last_sb = conf.rfind("shared_buffers").unwrap();
    assert!(
        conf[last_sb..].starts_with("shared_buffers = 128MB"),
        "{conf}"
    );
    assert!(conf.contains("work_mem = 8MB"), "{conf}");
    assert!(conf.contains("listen_addresses = '127.0.0.1'"), "{conf}");
    let list = ok(&home.cmd().args(["server", "list"]).output().unwrap());
    assert!(
        list.contains("running") && list.contains("postgres://"),
        "{list}"
    );

    ok(&run(&home, &s, &["prepare", "tpcb", "--scale", "1"]));
    let dir = home.path().join("tpcb-run");
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "tpcb",
            "--threads",
            "4",
            "--time",
            "3",
        ])
        .args(["--warmup", "0", "--report-interval", "1", "--json", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    ok(&out);
    let m = &summary_of(&out)["summary"];
    assert!(m["transactions"].as_u64().unwrap() > 100, "{m}");
    assert_eq!(m["errors"].as_u64(), Some(0), "{m}");
    let r = result_json(&dir);
    common::assert_schema_valid(&r);
    assert!(
        r["server"]["variables"]["version"]
            .as_str()
            .unwrap()
            .starts_with("PostgreSQL"),
        "{}",
        r["server"]
    );
    // PostgreSQL's counters in server.csv's columns: commits, WAL bytes, the server's CPU.
    let csv = std::fs::read_to_string(dir.join("server.csv")).unwrap();
    // (Backends flush their statistics at most once a second: one interval can miss them.)
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    for col in ["commits_per_s", "redo_bytes_per_s", "server_cpu_pct"] {
        let i = header.iter().position(|h| *h == col).unwrap();
        let most = csv
            .lines()
            .skip(1)
            .map(|l| {
                l.split(',')
                    .nth(i)
                    .unwrap()
                    .parse::<f64>()
                    .unwrap_or_else(|_| panic!("{col}: {csv}"))
            })
            .fold(0.0, f64::max);
        assert!(most > 0.0, "{col}: {csv}");
    }
    // The commits are the workload's, not the monitor's (its statements, ten polls a
    // second among them, are taken off): on average near the run's own rate.
    let i = header.iter().position(|h| *h == "commits_per_s").unwrap();
    let rows: Vec<f64> = csv
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("measure"))
        .map(|l| l.split(',').nth(i).unwrap().parse::<f64>().unwrap())
        .collect();
    let mean = rows.iter().sum::<f64>() / rows.len() as f64;
    let tps = m["tps"].as_f64().unwrap();
    assert!(
        mean > 0.3 * tps && mean < 1.5 * tps,
        "commits/s {mean} for {tps} tps: {csv}"
    );
    // Wait events, polled from pg_stat_activity: four clients updating one branch row
    // wait for each other's transactions (Lock/transactionid, a row lock).
    let waits = std::fs::read_to_string(dir.join("waits.csv")).expect("waits.csv");
    assert!(
        waits
            .lines()
            .any(|l| l.contains(",Lock/transactionid,lock,")),
        "{waits}"
    );
    assert!(
        r["summary"]["server"]["top_waits"]
            .as_array()
            .is_some_and(|w| !w.is_empty()),
        "{}",
        r["summary"]["server"]
    );
    ok(&run(&home, &s, &["check", "tpcb"]));
    // The server's transactions agree with txbench's.
    assert_transactions_agree(&r);

    // Another client working on the server during the run: its transactions show in
    // pg_stat_database, and the run is INVALID.
    let other = std::thread::spawn({
        let port = s.port;
        let secret = s.secret();
        move || {
            std::process::Command::new("pgbench")
                .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-U", "txbench"])
                .env("PGPASSWORD", secret)
                .args(["-n", "-S", "-c", "2", "-T", "6", "txbench"])
                .output()
                .unwrap()
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "tpcb",
            "--threads",
            "2",
            "--time",
            "4",
        ])
        .args(["--warmup", "0", "--report-interval", "1"])
        .output()
        .unwrap();
    assert!(other.join().unwrap().status.success());
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout} {stderr}");
    assert!(
        stdout.contains("INVALID") && stdout.contains("another client was using the server"),
        "{stdout}"
    );

    // pgbench runs on the database txbench prepared (-n: no vacuum, which would truncate
    // the history txbench's check counts).
    let pb = pgbench(&s, "txbench", &["-n", "-c", "2", "-T", "2"]);
    assert!(pb.status.success(), "{:?}", text(&pb));
    assert!(text(&pb).0.contains("tps = "), "{:?}", text(&pb));

    // And txbench on a database pgbench prepared: adopted as pgbench's load (no key on the
    // history), consistent after txbench's run.
    s.exec(&["CREATE DATABASE pgb"]);
    let init = pgbench(&s, "pgb", &["-i", "-s", "1", "-q"]);
    assert!(init.status.success(), "{:?}", text(&init));
    let pgb_url = format!("{}/pgb", s.url.rsplit_once('/').unwrap().0);
    let out = home
        .cmd()
        .args([
            "--url",
            &pgb_url,
            "run",
            "tpcb",
            "--threads",
            "2",
            "--time",
            "2",
        ])
        .args(["--warmup", "0"])
        .output()
        .unwrap();
    let o = ok(&out);
    assert!(o.contains("history key none"), "{o}");
    let o = ok(&home
        .cmd()
        .args(["--url", &pgb_url, "check", "tpcb"])
        .output()
        .unwrap());
    assert!(!o.contains("FAIL"), "{o}");
}

#[test]
fn oltp_runs_and_serialization_failures_are_retried_and_counted() {
    let home = Home::new();
    let s = home.start_postgres("pgo", &[]);
    // A session that ended is gone from the server, with its counts flushed, when its
    // drop returns: a prepare's transactions are not counted in the run that follows it
    // (seen once: +1,528 in a 2-s run right after a prepare, INVALID).
    let watch = "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'txbench' AND pid <> pg_backend_pid()";
    let mut w = s.engine_conn();
    for _ in 0..20 {
        let mut c = s.engine_conn();
        c.query_drop("BEGIN").unwrap();
        c.query_drop("SELECT 1").unwrap();
        c.query_drop("COMMIT").unwrap();
        drop(c);
        assert_eq!(w.query_first::<u64>(watch).unwrap(), Some(0));
    }
    drop(w);
    let small = ["--tables", "1", "--table-size", "200"];
    ok(&run(
        &home,
        &s,
        &[&["prepare", "oltp_read_write"][..], &small].concat(),
    ));
    for w in [
        "oltp_read_write",
        "oltp_insert",
        "oltp_delete",
        "oltp_point_select",
    ] {
        let out = run(
            &home,
            &s,
            &[
                &[
                    "run",
                    w,
                    "--threads",
                    "2",
                    "--time",
                    "2",
                    "--warmup",
                    "0",
                    "--json",
                ][..],
                &small,
            ]
            .concat(),
        );
        ok(&out);
        let m = &summary_of(&out)["summary"];
        assert!(m["transactions"].as_u64().unwrap() > 10, "{w}: {m}");
        assert_eq!(m["errors"].as_u64(), Some(0), "{w}: {m}");
    }
    // SERIALIZABLE on 200 rows from 4 users: 40001s, retried (and counted per class when a
    // transaction runs out of retries). oltp_read_write above retried its delete-insert
    // races (23505 after a concurrent delete-insert) instead of failing.
    let out = run(
        &home,
        &s,
        &[
            &[
                "run",
                "oltp_write_only",
                "--threads",
                "4",
                "--time",
                "3",
                "--warmup",
                "0",
                "--isolation",
                "serializable",
                "--json",
            ][..],
            &small,
        ]
        .concat(),
    );
    let m = &summary_of(&out)["summary"];
    assert!(m["retries"].as_u64().unwrap() > 0, "{m}");
    // Counted by class as pgbench's --max-tries does: every retry was a serialization
    // failure or a deadlock, and they add up.
    let by_class = m["retries_by_class"].as_object().expect("retries_by_class");
    assert!(by_class["serialization"].as_u64().unwrap() > 0, "{m}");
    assert!(
        by_class
            .keys()
            .all(|k| k == "serialization" || k == "deadlock"),
        "{m}"
    );
    assert_eq!(
        by_class.values().map(|v| v.as_u64().unwrap()).sum::<u64>(),
        m["retries"].as_u64().unwrap()
    );
    assert!(
        m["errors_by_class"]
            .as_object()
            .unwrap()
            .keys()
            .all(|k| k == "serialization" || k == "deadlock"),
        "{m}"
    );
    ok(&run(
        &home,
        &s,
        &[&["check", "oltp_read_write"][..], &small].concat(),
    ));
    // Another workload on this database is named.
    let out = run(&home, &s, &["run", "tpcb", "--time", "1"]);
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("holds the oltp_read_write workload"),
        "{line}"
    );
    let out = run(&home, &s, &["prepare", "tpcc", "--warehouses", "1"]);
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("holds the oltp_read_write workload"),
        "{line}"
    );

    // 32 tables: each connection prepares 288 statements, in one transaction, so the
    // server's transaction count still matches txbench's (one per statement prepared
    // outside a transaction would be 1,152 more than the run made).
    ok(&run(&home, &s, &["cleanup", "oltp_read_write"]));
    let many = ["--tables", "32", "--table-size", "100"];
    ok(&run(
        &home,
        &s,
        &[&["prepare", "oltp_read_write"][..], &many].concat(),
    ));
    let dir = home.path().join("many");
    let out = home
        .cmd()
        .args(["--url", &s.url, "run", "oltp_read_write", "--threads", "4"])
        .args(["--time", "4", "--warmup", "0", "--report-interval", "1"])
        .args(many)
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    ok(&out);
    assert_transactions_agree(&result_json(&dir));

    // SQL the protocol cannot carry (a NUL) is refused, and the connection goes on.
    let mut c = s.engine_conn();
    let e = c.query_drop("SELECT 1\0").unwrap_err().to_string();
    assert!(e.contains("cannot send the statement"), "{e}");
    assert_eq!(c.query_first::<u64>("SELECT 7").unwrap(), Some(7));
}

#[test]
fn terminated_backends_reconnect_and_a_killed_server_is_invalid() {
    let home = Home::new();
    let s = home.start_postgres("pgk", &[]);
    let small = ["--table-size", "1000"];
    ok(&run(
        &home,
        &s,
        &[&["prepare", "oltp_point_select"][..], &small].concat(),
    ));
    let mut cmd = home.std_cmd();
    cmd.args([
        "--url",
        &s.url,
        "run",
        "oltp_point_select",
        "--table-size",
        "1000",
    ])
    .args(["--threads", "3", "--time", "5", "--warmup", "0", "--json"])
    .args(["--report-interval", "1"]);
    let handle = std::thread::spawn(move || cmd.output().unwrap());
    std::thread::sleep(Duration::from_secs(2));
    let killed: Vec<i64> = s.sql(
        "SELECT pg_terminate_backend(pid)::int FROM pg_stat_activity \
         WHERE application_name = 'txbench' AND pid <> pg_backend_pid() \
         AND query NOT LIKE '%pg_stat%'",
    );
    assert!(killed.len() >= 3, "{killed:?}");
    let out = handle.join().unwrap();
    ok(&out);
    let m = &summary_of(&out)["summary"];
    assert!(m["reconnects"].as_u64().unwrap() >= 3, "{m}");
    assert!(m["transactions"].as_u64().unwrap() > 100, "{m}");

    // The server frozen mid-run (the postmaster and every backend stopped): the monitor's
    // polls and samples get no answer, the run ends INVALID within seconds of the limit.
    // A 2-thread point-select run into `dir`, in the background, 3 s under way.
    let run_in_background = |dir: &std::path::Path, time: &str| {
        let mut cmd = home.std_cmd();
        cmd.args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .args(["--threads", "2", "--time", time, "--warmup", "0"])
        .args(["--report-interval", "1", "--out"])
        .arg(dir);
        let handle = std::thread::spawn(move || cmd.output().unwrap());
        std::thread::sleep(Duration::from_secs(3));
        handle
    };
    let frozen_dir = home.path().join("frozen");
    let handle = run_in_background(&frozen_dir, "60");
    let server: Vec<i32> = std::iter::once(s.pid)
        .chain(txbench::sampler::host::children(s.pid))
        .collect();
    let signal = |sig| {
        for pid in &server {
            // SAFETY: signalling this test's own sandbox processes.
            unsafe { libc::kill(*pid, sig) };
        }
    };
    signal(libc::SIGSTOP);
    let stopped = std::time::Instant::now();
    // Woken after 45 s whatever happens, so a hanging run fails the test, not the suite.
    let out = loop {
        if handle.is_finished() || stopped.elapsed() > Duration::from_secs(45) {
            signal(libc::SIGCONT);
            break handle.join().unwrap();
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let took = stopped.elapsed();
    signal(libc::SIGCONT);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}\n{stderr}");
    assert!(took < Duration::from_secs(40), "{took:?}: {stdout}");
    assert!(
        format!("{stdout}{stderr}").contains("unresponsive"),
        "{stdout}\n{stderr}"
    );
    assert_eq!(result_json(&frozen_dir)["validity"]["valid"], false);

    // The server killed mid-run: INVALID (exit 3), the intervals before it kept.
    let dir = home.path().join("killed");
    let handle = run_in_background(&dir, "30");
    // SAFETY: SIGKILL to the sandbox's postmaster, started by this test.
    unsafe { libc::kill(s.pid, libc::SIGKILL) };
    let out = handle.join().unwrap();
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], false, "{}", r["validity"]);
    let rows = std::fs::read_to_string(dir.join("intervals.csv")).unwrap();
    assert!(rows.lines().count() >= 3, "{rows}");
}

#[test]
fn bad_postgres_input_is_refused_in_one_line() {
    let home = Home::new();
    let s = home.start_postgres("pgb", &[]);
    // A role with a password, asked for it over TCP; a wrong one is refused and never shown.
    // Also one stored and asked for as MD5, and one asked for in clear text: txbench's wire
    // client speaks each of PostgreSQL's password methods.
    s.admin_exec(&[
        "CREATE ROLE pw LOGIN PASSWORD 'right-one'",
        "SET password_encryption = 'md5'",
        "CREATE ROLE pwmd5 LOGIN PASSWORD 'md5-one'",
        "CREATE ROLE pwclear LOGIN PASSWORD 'clear-one'",
    ]);
    let data: Vec<String> = s.sql("SELECT current_setting('hba_file')");
    let hba = &data[0];
    let old = std::fs::read_to_string(hba).unwrap();
    std::fs::write(
        hba,
        format!(
            "host all pw 127.0.0.1/32 scram-sha-256\nhost all pwmd5 127.0.0.1/32 md5\n\
             host all pwclear 127.0.0.1/32 password\n{old}"
        ),
    )
    .unwrap();
    s.admin_exec(&["SELECT pg_reload_conf()"]);
    std::thread::sleep(Duration::from_millis(300));
    let bad = s.url.replace("txbench@", "pw:wrong-secret@");
    let out = home.cmd().args(["--url", &bad, "info"]).output().unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("authentication failed for user 'pw'"),
        "{line}"
    );
    let (o, e) = text(&out);
    assert!(
        !o.contains("wrong-secret") && !e.contains("wrong-secret"),
        "{e}"
    );
    for good in ["pw:right-one@", "pwmd5:md5-one@", "pwclear:clear-one@"] {
        let good = s.url.replace("txbench@", good);
        ok(&home.cmd().args(["--url", &good, "info"]).output().unwrap());
    }
    for (bad, user) in [
        ("pwmd5:wrong-secret@", "pwmd5"),
        ("pwclear:wrong-secret@", "pwclear"),
    ] {
        let out = home
            .cmd()
            .args(["--url", &s.url.replace("txbench@", bad), "info"])
            .output()
            .unwrap();
        let line = assert_one_line_error(&out, 1);
        assert!(
            line.contains(&format!("authentication failed for user '{user}'")),
            "{line}"
        );
        assert!(!line.contains("wrong-secret"), "{line}");
    }
    // No password in the URL for a role that needs one.
    let out = home
        .cmd()
        .args(["--url", &s.url.replace("txbench@", "pw@"), "info"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("asks user 'pw' for a password"), "{line}");

    // Settings txbench manages, and topologies PostgreSQL sandboxes do not have.
    let out = home
        .cmd()
        .args([
            "server", "start", "pg2", "--engine", "postgres", "--set", "port=5",
        ])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("--set port"), "{line}");
    let out = home
        .cmd()
        .args([
            "server",
            "start",
            "pg3",
            "--engine",
            "postgres",
            "--replicas",
            "1",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, 1);
    // The sandbox is PostgreSQL's: asking for it as MariaDB names what it is.
    let out = home
        .cmd()
        .args(["server", "start", "pgb", "--engine", "mariadb"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("is a PostgreSQL sandbox"), "{line}");
    // A bad --set value stops the start with the server's own words.
    let out = home
        .cmd()
        .args(["server", "start", "pg4", "--engine", "postgres"])
        .args(["--set", "no_such_setting=1"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("no_such_setting"), "{line}");
    let _ = home.cmd().args(["server", "stop", "--rm", "pg4"]).output();
}
