//! pgbench scripts under txbench (`run script`): the three built-in scripts on PostgreSQL and
//! MariaDB, users too many to cut at the run's end waited for, COMMITs held across the
//! opening sample allowed for, a custom script's \set, \if
//! and \gset on PostgreSQL, bad input refused before anything runs. Real sandbox servers,
//! short runs.

mod common;
use common::*;
use std::path::Path;

fn txbench(home: &Home, s: &Server, args: &[&str]) -> std::process::Output {
    home.cmd()
        .args(["--url", &s.url])
        .args(args)
        .output()
        .unwrap()
}

/// Each built-in script for 2 s at 2 threads on `db` after `prepare tpcb --scale 1`: VALID,
/// its statements' latencies printed and recorded, the server's counts agreeing.
fn builtins_run_on(db: Db) -> (Home, Server) {
    let home = Home::new();
    let s = home.start_db(db, "script", &[]);
    let out = txbench(&home, &s, &["prepare", "tpcb", "--scale", "1", "-q"]);
    assert!(out.status.success(), "{:?}", text(&out));
    for (builtin, statements) in [("tpcb-like", 11), ("simple-update", 9), ("select-only", 2)] {
        let dir = home.path().join(builtin);
        let out = txbench(
            &home,
            &s,
            &[
                "run",
                "script",
                "-b",
                builtin,
                "--threads",
                "2",
                "--time",
                "2",
                "--out",
                dir.to_str().unwrap(),
            ],
        );
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{db:?} {builtin}: {stdout}\n{stderr}");
        assert!(
            stdout.contains(&format!("statement latencies of {builtin}")),
            "{stdout}"
        );
        let r = result_json(&dir);
        assert_schema_valid(&r);
        assert_eq!(
            r["validity"]["valid"], true,
            "{db:?} {builtin}: {}",
            r["validity"]
        );
        let txn = r["summary"]["transactions"].as_u64().unwrap();
        assert!(txn > 50, "{db:?} {builtin}: {txn}");
        assert_eq!(r["summary"]["unexpected_errors"], 0);
        let st = r["workload_report"]["statements"].as_array().unwrap();
        assert_eq!(st.len(), statements, "{db:?} {builtin}");
        for x in st {
            assert_eq!(x["kind"], builtin);
            assert!(x["count"].as_u64().unwrap() >= txn, "{x}");
            assert!(x["mean_ms"].as_f64().unwrap() >= 0.0, "{x}");
        }
        let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
        assert!(!checks.is_empty(), "{db:?} {builtin}: no cross-check");
        assert!(checks.iter().all(|c| c["agrees"] == true), "{checks:?}");
        let opts = &r["config"]["workload_options"];
        assert_eq!(opts["scale"], 1);
        assert_eq!(opts["scripts"][0]["file"], format!("builtin:{builtin}"));
        // pgbench's default mode is not recorded (runs from before -M keep their history).
        assert!(opts["protocol"].is_null(), "{opts}");
    }
    protocols_run_on(db, &home, &s);
    (home, s)
}

/// tpcb-like with pgbench's -M prepared and -M extended: VALID, the server's counts
/// agreeing; on MariaDB, prepared prepares each of the script's 7 SQL commands once per
/// connection and extended prepares one per statement run.
fn protocols_run_on(db: Db, home: &Home, s: &Server) {
    let prepares = || {
        s.count("SELECT CAST(VARIABLE_VALUE AS UNSIGNED) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'COM_STMT_PREPARE'")
    };
    for mode in ["prepared", "extended"] {
        let before = (db == Db::MariaDb).then(prepares);
        let dir = home.path().join(format!("tpcb-{mode}"));
        let args = [
            "run",
            "script",
            "-b",
            "tpcb-like",
            "-M",
            mode,
            "--threads",
            "2",
        ];
        let out = txbench(
            home,
            s,
            &[&args[..], &["--time", "2", "--out", dir.to_str().unwrap()]].concat(),
        );
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{db:?} -M {mode}: {stdout}\n{stderr}");
        let r = result_json(&dir);
        assert_eq!(
            r["validity"]["valid"], true,
            "{db:?} -M {mode}: {}",
            r["validity"]
        );
        let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
        assert!(checks.iter().all(|c| c["agrees"] == true), "{checks:?}");
        assert_eq!(r["config"]["workload_options"]["protocol"], mode);
        if let Some(before) = before {
            let made = prepares() - before;
            let txn = r["summary"]["transactions"].as_u64().unwrap();
            match mode {
                // And a statement or two of txbench's own sessions (15 measured).
                "prepared" => assert!((14..=16).contains(&made), "{db:?} -M prepared: {made}"),
                _ => assert!(made >= 7 * txn, "{db:?} -M extended: {made} for {txn}"),
            }
        }
    }
}

#[test]
fn builtin_scripts_run_on_postgres() {
    // Bound, so the server's guard stops it before the home it lives in is removed (a tuple
    // left as a temporary drops the home first, and the sandbox kept running).
    let (home, s) = builtins_run_on(Db::Postgres);
    fibers_sleep_side_by_side(&home, &s);
}

/// 20 users as fibers on one thread (`--client-threads 1`) on PostgreSQL, each sleeping
/// 100 ms (\sleep) before a short transaction: the sleeps yield the thread, so the users
/// sleep side by side (about 200 transactions a second; a sleep that held the thread would
/// allow 10). VALID, the server's counts agreeing.
fn fibers_sleep_side_by_side(home: &Home, s: &Server) {
    let (out, r) = users_for_3s_with(
        home,
        s,
        "sleepy",
        "\\set aid random(1, 100000)\n\\sleep 100 ms\nBEGIN;\n\
         UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\n\
         SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\nEND;\n",
        20,
        &["--client-threads", "1"],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    let txn = r["summary"]["transactions"].as_u64().unwrap();
    assert!(
        txn > 150,
        "{txn} transactions in 3 s: the sleeps held the thread"
    );
    let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
    assert!(
        !checks.is_empty() && checks.iter().all(|c| c["agrees"] == true),
        "{checks:?}"
    );
}

#[test]
fn builtin_scripts_run_on_mariadb() {
    let (home, s) = builtins_run_on(Db::MariaDb);
    retries_repeat_their_inputs(&home, &s);
    too_many_inside_at_the_end_are_waited_for(&home, &s);
    users_before_their_commit_are_cut_however_many(&home, &s, &[]);
    // The same users as fibers on one thread: the cut's shut sockets wake them.
    users_before_their_commit_are_cut_however_many(&home, &s, &["--client-threads", "1"]);
    commits_held_across_the_opening_are_allowed_for(&home, &s);
}

/// COMMITs the server counted before the sample that opened the measured phase, answered
/// after it: a FLUSH TABLES WITH READ LOCK held across the warm-up's end holds each user's
/// COMMIT, which MariaDB counts when it starts, and txbench counts when it is answered. The
/// transactions check allows the users in flight at the opening (one-sided), so the run is
/// VALID; before, it was INVALID with the server 40 short of txbench (720 against 760).
fn commits_held_across_the_opening_are_allowed_for(home: &Home, s: &Server) {
    let file = home.path().join("held.sql");
    std::fs::write(
        &file,
        "\\set aid random(1, 100000)\nBEGIN;\nUPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\nSELECT SLEEP(0.2);\nCOMMIT;\n",
    )
    .unwrap();
    let dir = home.path().join("held");
    let run = home
        .std_cmd()
        .args(["--url", &s.url, "run", "script", file.to_str().unwrap()])
        .args(["--threads", "40", "--warmup", "2", "--time", "8"])
        .args(["--report-interval", "1", "--out", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first second of the warm-up is written: the lock from 1.5 s to 2.6 s of the run.
    wait_for_intervals(&dir, 1);
    std::thread::sleep(std::time::Duration::from_millis(500));
    s.admin_exec(&[
        "FLUSH TABLES WITH READ LOCK",
        "SELECT SLEEP(1.1)",
        "UNLOCK TABLES",
    ]);
    let out = run.wait_with_output().unwrap();
    let r = result_json(&dir);
    let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
    let tx = checks
        .iter()
        .find(|c| c["what"].as_str().unwrap().starts_with("transactions"))
        .unwrap_or_else(|| panic!("{checks:?}\n{:?}", text(&out)));
    let (server, txbench) = (
        tx["server"].as_f64().unwrap(),
        tx["txbench"].as_f64().unwrap(),
    );
    let excess = tx["excess_allowed"].as_f64().unwrap_or(0.0);
    // The lock held COMMITs across the opening: more than 2 % (and the 10 any run may
    // differ by) apart, within the users in flight.
    assert!(txbench - server > 20.0, "{tx}\n{:?}", text(&out));
    assert!(excess >= txbench - server && excess <= 40.0, "{tx}");
    assert_eq!(tx["agrees"], true, "{tx}");
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
}

/// The end of a run cuts the users still inside a transaction a second after it only while
/// they are few against those completed: here client 0 completes about 60 short transactions
/// in 3 s while the other 7 sit in one autocommitted 6-s SLEEP each (which the server may
/// count when cut), so the 7 still inside at 4 s
/// (4.5 s with the closing sample's wait) are more than 5 % of those completed and are
/// waited for, not cut, and the run says so.
fn too_many_inside_at_the_end_are_waited_for(home: &Home, s: &Server) {
    let (out, r) = users_for_3s(
        home,
        s,
        "sleepers",
        "\\if :client_id = 0\nSELECT SLEEP(0.05);\n\\else\nSELECT SLEEP(6);\n\\endif\n",
        8,
    );
    let notes = r["notes"].to_string();
    assert!(
        notes.contains("7 virtual user(s) were still inside a transaction")
            && notes.contains("they were waited for, not cut"),
        "{notes}\n{:?}",
        text(&out)
    );
    assert!(!notes.contains("they were cut"), "{notes}");
    let sum = &r["summary"];
    assert_eq!(sum["cut"], 0, "{sum}");
    // Waited for: the sleepers' transactions ended at about 6 s, 3 s past the end.
    assert!(sum["overrun_s"].as_f64().unwrap() > 1.0, "{sum}");
}

/// 12 sleepers like the 7 above, each inside a transaction that has updated a row and not
/// yet sent its COMMIT: all 12 are cut, however many against those completed, since their
/// transactions certainly roll back and the server counts nothing for them: Com_commit and
/// Com_rollback do not move over the run (no other statement of the run commits or rolls
/// back), and the rows are unchanged. VALID, the cross-checks agreeing: the statements check
/// allows the 12 SLEEPs killed (more than its floor of 10). Sleepers whose attempt committed
/// a first transaction before (its COMMIT went out) are waited for as before.
fn users_before_their_commit_are_cut_however_many(home: &Home, s: &Server, more: &[&str]) {
    let ids: Vec<String> = (0..13).map(|i| format!("({i}, 0)")).collect();
    s.exec(&[
        "DROP TABLE IF EXISTS held",
        "CREATE TABLE held (id INT PRIMARY KEY, n INT) ENGINE=InnoDB",
        &format!("INSERT INTO held VALUES {}", ids.join(", ")),
    ]);
    let sleeper = |name: &str, first: &str| {
        let script = format!(
            "\\if :client_id = 0\nSELECT SLEEP(0.05);\n\\else\n{first}BEGIN;\n\
             UPDATE held SET n = n + 1 WHERE id = :client_id;\nSELECT SLEEP(6);\nCOMMIT;\n\\endif\n"
        );
        let name = format!("{name}{}", more.len());
        users_for_3s_with(home, s, &name, &script, 13, more)
    };
    let ends = |s: &Server| {
        s.count(
            "SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS \
             WHERE VARIABLE_NAME IN ('COM_COMMIT', 'COM_ROLLBACK')",
        )
    };
    let before = ends(s);
    let (out, r) = sleeper("uncommitted", "");
    let (notes, sum) = (r["notes"].to_string(), &r["summary"]);
    assert_eq!(out.status.code(), Some(0), "{}\n{notes}", r["validity"]);
    assert!(
        notes.contains("12 virtual user(s) were still inside a transaction")
            && notes.contains("they were cut")
            && notes.contains("12 of them before they sent anything that could end"),
        "{notes}"
    );
    assert_eq!(
        (&sum["cut"], &sum["cut_uncommitted"]),
        (&0.into(), &12.into()),
        "{sum}"
    );
    let checks = sum["server"]["cross_checks"].as_array().unwrap();
    assert!(
        !checks.is_empty() && checks.iter().all(|c| c["agrees"] == true),
        "{checks:?}"
    );
    assert!(
        text(&out)
            .0
            .contains("cut at the end: 12, 12 of them before their COMMIT"),
        "{:?}",
        text(&out)
    );
    assert_none_held(s, "the cut transactions' updates were rolled back");
    assert_eq!(
        ends(s),
        before,
        "Com_commit + Com_rollback moved: a cut counted"
    );

    // A COMMIT sent earlier in the attempt: its transaction reached the server, so the
    // attempt cannot be cut as if nothing had (each such cut counts against the 5 %).
    let (out, r) = sleeper(
        "committed",
        "BEGIN;\nUPDATE held SET n = n WHERE id = 0;\nCOMMIT;\n",
    );
    let (notes, sum) = (r["notes"].to_string(), &r["summary"]);
    assert!(
        notes.contains("12 virtual user(s) were still inside a transaction")
            && notes.contains("they were waited for, not cut"),
        "{notes}\n{:?}",
        text(&out)
    );
    assert_eq!(
        (&sum["cut"], &sum["cut_uncommitted"]),
        (&0.into(), &0.into()),
        "{sum}"
    );
}

/// `script` (written to NAME.sql) run by `threads` users for 3 s into `name`: the command's
/// output and its result.json.
fn users_for_3s(
    home: &Home,
    s: &Server,
    name: &str,
    script: &str,
    threads: u32,
) -> (std::process::Output, serde_json::Value) {
    users_for_3s_with(home, s, name, script, threads, &[])
}

/// [`users_for_3s`] with more options.
fn users_for_3s_with(
    home: &Home,
    s: &Server,
    name: &str,
    script: &str,
    threads: u32,
    more: &[&str],
) -> (std::process::Output, serde_json::Value) {
    let file = home.path().join(format!("{name}.sql"));
    std::fs::write(&file, script).unwrap();
    let dir = home.path().join(name);
    let threads = threads.to_string();
    let out = txbench(
        home,
        s,
        &[
            "run",
            "script",
            file.to_str().unwrap(),
            "--threads",
            &threads,
            "--time",
            "3",
            "--out",
            dir.to_str().unwrap(),
        ]
        .iter()
        .chain(more)
        .copied()
        .collect::<Vec<_>>(),
    );
    (out, result_json(&dir))
}

/// Every `held` row still 0, within 3 s (a cut session's rollback ends after its KILL).
fn assert_none_held(s: &Server, what: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    while s.count("SELECT COUNT(*) FROM held WHERE n <> 0") > 0
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(
        s.count("SELECT COUNT(*) FROM held WHERE n <> 0"),
        0,
        "{what}"
    );
}

/// Deadlocks are retried with the same random inputs (pgbench 15+): each attempt logs its
/// input into an Aria table, which a rollback leaves alone, so an input logged twice by one
/// virtual user is a retry.
fn retries_repeat_their_inputs(home: &Home, s: &Server) {
    s.exec(&[
        "CREATE TABLE attempts (client INT, x BIGINT) ENGINE=Aria",
        "CREATE TABLE hot (id INT PRIMARY KEY, v INT) ENGINE=InnoDB",
        "INSERT INTO hot VALUES (1, 0), (2, 0)",
    ]);
    let file = home.path().join("deadlock.sql");
    std::fs::write(
        &file,
        "\\set x random(1, 1000000000000)\n\\set a random(1, 2)\n\\set b 3 - :a\n\
         BEGIN;\nINSERT INTO attempts VALUES (:client_id, :x);\n\
         UPDATE hot SET v = v + 1 WHERE id = :a;\nDO SLEEP(0.002);\n\
         UPDATE hot SET v = v + 1 WHERE id = :b;\nEND;\n",
    )
    .unwrap();
    let dir = home.path().join("deadlock");
    let out = txbench(
        home,
        s,
        &[
            "run",
            "script",
            file.to_str().unwrap(),
            "--threads",
            "2",
            "--time",
            "2",
            "--retries",
            "20",
            "--out",
            dir.to_str().unwrap(),
        ],
    );
    let r = result_json(&dir);
    let retries = r["summary"]["retries"].as_u64().unwrap();
    assert!(retries > 0, "no deadlock to retry: {:?}", text(&out));
    let rows = s.count("SELECT COUNT(*) FROM attempts");
    let distinct = s.count("SELECT COUNT(*) FROM (SELECT DISTINCT client, x FROM attempts) d");
    assert_eq!(rows - distinct, retries, "{}", r["summary"]);
}

/// A custom script: \set with random_zipfian, \if, \gset and -D; each row it inserts holds
/// what an earlier statement's \gset stored. An undefined variable at run time fails its
/// transactions, counted, and the run is INVALID.
#[test]
fn custom_script_sets_tests_and_gsets_on_postgres() {
    let home = Home::new();
    let s = home.start_db(Db::Postgres, "script-custom", &[]);
    s.exec(&[
        "CREATE TABLE script_log (client INT, k INT, tenfold INT, bucket INT, word TEXT, big BOOLEAN, bigcheck INT)",
    ]);
    let file = home.path().join("zipf.sql");
    // \gset stores the text the server sent (a boolean is t or f, as libpq gives pgbench).
    std::fs::write(
        &file,
        "-- a custom script\n\
         \\set k random_zipfian(1, 100, 1.5)\n\
         \\if :k > 50\n\
         \\set bucket 2\n\
         \\elif :k > 10\n\
         \\set bucket 1\n\
         \\else\n\
         \\set bucket 0\n\
         \\endif\n\
         SELECT :k * :factor AS tenfold,\n       :bucket AS b, 'zipf' AS word, :k > 50 AS big \\gset\n\
         \\if :big\n\\set bigcheck 1\n\\else\n\\set bigcheck 0\n\\endif\n\
         INSERT INTO script_log (client, k, tenfold, bucket, word, big, bigcheck)\n  \
         VALUES (:client_id, :k, :tenfold, :b, ':word', ':big', :bigcheck);\n",
    )
    .unwrap();
    let dir = home.path().join("custom");
    let out = txbench(
        &home,
        &s,
        &[
            "run",
            "script",
            file.to_str().unwrap(),
            "-D",
            "factor=10",
            "--threads",
            "2",
            "--time",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("statement latencies of zipf"), "{stdout}");
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    let txn = r["summary"]["transactions"].as_u64().unwrap();
    assert_eq!(s.count("SELECT COUNT(*) FROM script_log"), txn);
    assert_eq!(
        s.count("SELECT COUNT(*) FROM script_log WHERE tenfold <> k * 10"),
        0
    );
    assert_eq!(
        s.count("SELECT COUNT(*) FROM script_log WHERE bucket <> CASE WHEN k > 50 THEN 2 WHEN k > 10 THEN 1 ELSE 0 END"),
        0
    );
    assert_eq!(
        s.count("SELECT COUNT(*) FROM script_log WHERE k < 1 OR k > 100"),
        0
    );
    assert_eq!(
        s.count("SELECT COUNT(*) FROM script_log WHERE word <> 'zipf' OR big <> (k > 50) OR bigcheck <> (k > 50)::int"),
        0
    );
    assert_eq!(s.count("SELECT COUNT(DISTINCT client) FROM script_log"), 2);
    // Zipfian: 1 is the most frequent value.
    assert!(
        s.count("SELECT COUNT(*) FROM script_log WHERE k = 1") * 4 > txn,
        "k = 1 in fewer than a quarter of {txn}"
    );
    // The HTML report shows them too.
    let page = home.path().join("custom.html");
    let out = home
        .cmd()
        .args([
            "report",
            dir.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<h3>Statement latencies</h3>")
            && html.contains("<code>\\set k random_zipfian(1, 100, 1.5)</code>"),
        "no statement latencies in the report"
    );
    let sha = r["config"]["workload_options"]["scripts"][0]["sha256"]
        .as_str()
        .unwrap();
    assert_eq!(sha.len(), 64);

    // An undefined variable fails each transaction: counted, named, INVALID (exit 3).
    let bad = home.path().join("undefined.sql");
    std::fs::write(&bad, "SELECT :nope;\n").unwrap();
    let dir = home.path().join("undefined");
    let out = txbench(
        &home,
        &s,
        &[
            "run",
            "script",
            bad.to_str().unwrap(),
            "--time",
            "1",
            "--out",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    let r = result_json(&dir);
    assert!(r["summary"]["errors"].as_u64().unwrap() > 0);
    assert!(
        r.to_string()
            .contains("undefined.sql:1: undefined variable :nope"),
        "{}",
        r["summary"]
    );
}

/// Bad input: one `Error:` line naming the file (and line), exit 2, before any server is
/// asked (there is none here).
#[test]
fn bad_scripts_are_refused_before_anything_runs() {
    let home = Home::new();
    let write = |name: &str, body: &str| {
        let p = home.path().join(name);
        std::fs::write(&p, body).unwrap();
        p.to_str().unwrap().to_string()
    };
    let unknown = write("unknown.sql", "SELECT 1;\n\\frobnicate 3\n");
    let syntax = write("syntax.sql", "\\set x 1\n\\set y (:x + \n");
    let missing = home.path().join("missing.sql");
    let cases: [(Vec<String>, String); 5] = [
        (
            vec![unknown.clone()],
            format!("{unknown}:2: unknown command \\frobnicate"),
        ),
        (
            vec![syntax.clone()],
            format!("{syntax}:2: \\set: syntax error at column"),
        ),
        (
            vec![missing.to_str().unwrap().to_string()],
            format!("{}: cannot read the script", missing.display()),
        ),
        (
            vec![format!("{unknown}@x")],
            format!("{unknown}@x: the weight 'x'"),
        ),
        (
            vec!["-b".into(), "nosuch".into()],
            "no built-in script 'nosuch'".into(),
        ),
    ];
    for (args, want) in cases {
        let out = home
            .cmd()
            .args(["run", "script"])
            .args(&args)
            .args(["--time", "1"])
            .output()
            .unwrap();
        let line = assert_one_line_error(&out, 2);
        assert!(line.contains(&want), "{args:?}: {line}");
    }
    assert!(!Path::new(&home.path().join("runs")).exists());
}
