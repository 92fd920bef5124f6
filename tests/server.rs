//! Sandbox servers, started for real through txbench's own code.

mod common;
use common::*;

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("json output")
}

#[test]
fn lifecycle_start_status_restart_stop_rm() {
    let home = Home::new();
    let s = home.start("life", &[]);
    assert!(s.url.starts_with("mysql://txbench@127.0.0.1:"), "{}", s.url);
    let pf = &s.json["preflight"]["variables"];
    assert_eq!(pf["innodb_buffer_pool_size"], "134217728");
    assert_eq!(
        pf["innodb_log_file_size"], "268435456",
        "redo follows the pool"
    );
    assert!(pf["version"].as_str().unwrap().contains("MariaDB"));
    // The recorded my.cnf is the final one, with the override last.
    let cnf = std::fs::read_to_string(home.path().join("servers/life/my.cnf")).unwrap();
    assert!(
        cnf.trim_end().ends_with("innodb_buffer_pool_size=128M"),
        "{cnf}"
    );
    assert!(cnf.contains("bind-address=127.0.0.1"));

    let st = json(
        &home
            .cmd()
            .args(["server", "status", "life", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(st["state"]["state"], "running");
    assert_eq!(st["state"]["pid"], s.pid);

    // The text status and the pre-flight through `info`.
    let out = home.cmd().args(["info", "--url", &s.url]).output().unwrap();
    let (stdout, _) = text(&out);
    assert!(out.status.success());
    for want in [
        "buffer pool      128.0 MiB",
        "innodb_flush_log_at_trx_commit=1",
        "isolation",
        "max_connections  2000",
    ] {
        assert!(stdout.contains(want), "missing {want}: {stdout}");
    }

    // Starting a running server is fine; changing its settings while it runs is not.
    let again = home
        .cmd()
        .args(["server", "start", "--name", "life"])
        .output()
        .unwrap();
    assert!(again.status.success());
    assert!(text(&again).0.contains("already running"));
    let change = home
        .cmd()
        .args([
            "server",
            "start",
            "--name",
            "life",
            "--set",
            "max_connections=10",
        ])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&change, 1).contains("stop it first"));

    // No snapshot is taken of, or restored over, a running server's files: the copy would be
    // torn. Also when its pid file is gone (the process is found by its configuration).
    let state = txbench::server::StateDir::at(home.path()).unwrap();
    let record = txbench::server::get(&state, "life").unwrap().record;
    let e = txbench::server::snapshot::save(&record)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!(
            "saving the snapshot of server 'life': server 'life' is still running (pid {}); a snapshot is taken or restored only with the server stopped",
            s.pid
        )
    );
    let pid_file = record.pid_file();
    let kept = std::fs::read(&pid_file).unwrap();
    std::fs::remove_file(&pid_file).unwrap();
    let e = txbench::server::snapshot::save(&record)
        .unwrap_err()
        .to_string();
    std::fs::write(&pid_file, kept).unwrap();
    assert!(e.contains("is still running"), "{e}");
    assert!(!txbench::server::snapshot::exists(&record));

    let stop = home
        .cmd()
        .args(["server", "stop", "life"])
        .output()
        .unwrap();
    assert!(stop.status.success());
    assert!(
        text(&stop).0.contains("(SQL shutdown)"),
        "{:?}",
        text(&stop)
    );
    let st = json(
        &home
            .cmd()
            .args(["server", "status", "life", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(st["state"]["state"], "stopped");
    let again = home
        .cmd()
        .args(["server", "stop", "life"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0));
    assert!(text(&again).0.contains("is not running"));

    // A restart keeps the data and the earlier --set.
    let re = json(
        &home
            .cmd()
            .args(["server", "start", "--name", "life", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(re["bootstrap_seconds"], 0.0);
    assert_eq!(
        re["preflight"]["variables"]["innodb_buffer_pool_size"],
        "134217728"
    );

    let rm = home
        .cmd()
        .args(["server", "stop", "life", "--rm"])
        .output()
        .unwrap();
    assert!(rm.status.success());
    assert!(!home.path().join("servers/life").exists());
    let gone = home
        .cmd()
        .args(["server", "status", "life"])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&gone, 1).contains("no server named 'life'"));
}

#[test]
fn two_servers_at_once_and_list() {
    let home = Home::new();
    let a = home.start("a", &[]);
    let b = home.start("b", &["--set", "innodb_flush_log_at_trx_commit=2"]);
    assert_ne!(a.port, b.port);
    assert_eq!(
        b.json["preflight"]["variables"]["innodb_flush_log_at_trx_commit"],
        "2"
    );
    let list = json(
        &home
            .cmd()
            .args(["server", "list", "--json"])
            .output()
            .unwrap(),
    );
    let names: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["state"]["state"].clone(),
            )
        })
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names.iter().all(|(_, st)| st == "running"), "{names:?}");
    let out = home.cmd().args(["server", "list"]).output().unwrap();
    let (stdout, _) = text(&out);
    assert!(stdout.lines().count() == 3 && stdout.contains(&a.url) && stdout.contains(&b.url));
}

#[test]
fn a_killed_server_is_reported_dead_and_can_start_again() {
    let home = Home::new();
    let s = home.start("victim", &[]);
    // SAFETY: the pid is the sandbox server this test started.
    unsafe { libc::kill(s.pid, libc::SIGKILL) };
    std::thread::sleep(std::time::Duration::from_millis(300));
    let out = home
        .cmd()
        .args(["server", "status", "victim"])
        .output()
        .unwrap();
    let (stdout, _) = text(&out);
    assert!(stdout.contains("'victim': died"), "{stdout}");
    assert!(stdout.contains("stale pid file"), "{stdout}");
    let list = text(&home.cmd().args(["server", "list"]).output().unwrap()).0;
    assert!(list.contains("died"), "{list}");
    // Stopping a dead server says so and succeeds; starting it again recovers.
    let stop = home
        .cmd()
        .args(["server", "stop", "victim"])
        .output()
        .unwrap();
    assert!(stop.status.success());
    assert!(text(&stop).0.contains("not running (died)"));
    let re = home.start("victim", &[]);
    assert_ne!(re.pid, s.pid);
}

#[test]
fn a_bad_set_option_fails_with_the_error_log() {
    let home = Home::new();
    let out = home
        .cmd()
        .args([
            "server",
            "start",
            "--name",
            "bad",
            "--set",
            "innodb_no_such_knob=1",
        ])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("Error: server 'bad' failed to "), "{line}");
    assert!(
        line.contains("[ERROR] /usr/sbin/mariadbd: unknown variable 'innodb_no_such_knob=1'"),
        "{line}"
    );
    assert!(line.ends_with("`txbench server stop --rm bad`)"), "{line}");
    // Known as ours and not left behind as running; a corrected start works.
    let st = json(
        &home
            .cmd()
            .args(["server", "status", "bad", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(st["state"]["state"], "stopped");
    let fixed = home.start("bad", &["--set", "innodb_flush_log_at_trx_commit=2"]);
    assert_eq!(
        fixed.json["preflight"]["variables"]["innodb_flush_log_at_trx_commit"],
        "2"
    );
}

#[test]
fn a_port_in_use_is_refused_by_name() {
    let home = Home::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = home
        .cmd()
        .args(["server", "start", "--name", "p", "--port", &port])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert_eq!(
        line,
        format!("Error: --port {port}: the port is already in use on 127.0.0.1")
    );
}

#[test]
fn a_directory_that_is_not_ours_is_left_alone() {
    let home = Home::new();
    let dir = home.path().join("servers/foreign/data");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ibdata1"), b"precious").unwrap();
    let out = home
        .cmd()
        .args(["server", "start", "--name", "foreign"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("was not created by txbench"), "{line}");
    assert_eq!(std::fs::read(dir.join("ibdata1")).unwrap(), b"precious");
}

#[test]
fn no_url_starts_the_default_server_and_says_so() {
    let home = Home::new();
    let out = home.cmd().arg("info").output().unwrap();
    // Whatever happens next, the default server goes away with the test.
    let _guard = Server {
        home: home.path().to_path_buf(),
        name: "default".into(),
        url: String::new(),
        port: 0,
        pid: 0,
        json: serde_json::Value::Null,
    };
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.contains("started sandbox server 'default'"))
            .count(),
        1,
        "{stderr}"
    );
    assert!(stdout.contains("MariaDB"), "{stdout}");
    // The second time it is running already: no note.
    let out = home.cmd().arg("info").output().unwrap();
    assert!(out.status.success());
    assert!(text(&out).1.is_empty(), "{:?}", text(&out).1);
}

#[test]
fn wrong_credentials_are_one_line_without_the_password() {
    let home = Home::new();
    let s = home.start("creds", &[]);
    let bad = format!("mysql://nobody:Sup3rSecret@127.0.0.1:{}/txbench", s.port);
    let out = home.cmd().args(["info", "--url", &bad]).output().unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("access denied for user 'nobody'"), "{line}");
    assert!(line.contains("nobody:***@"), "{line}");
    let (o, e) = text(&out);
    assert!(!o.contains("Sup3rSecret") && !e.contains("Sup3rSecret"));
    // The same through TXBENCH_URL.
    let out = home
        .cmd()
        .arg("info")
        .env("TXBENCH_URL", &bad)
        .output()
        .unwrap();
    assert_one_line_error(&out, 1);
    assert!(!text(&out).1.contains("Sup3rSecret"));
    // An unknown database is named.
    // An unknown database is named (one of the benchmark user's own names: another is
    // refused as not its own, and named too).
    let nodb = format!("mysql://txbench@127.0.0.1:{}/txbench_nosuchdb", s.port);
    let out = home.cmd().args(["info", "--url", &nodb]).output().unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("database 'txbench_nosuchdb' does not exist"),
        "{line}"
    );
    let other = format!("mysql://txbench@127.0.0.1:{}/otherdb", s.port);
    let out = home.cmd().args(["info", "--url", &other]).output().unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("otherdb"), "{line}");
}

#[test]
fn several_servers_can_be_created_at_the_same_time() {
    // Regression: bootstraps sharing /tmp collided on temporary table names and crashed
    // mariadbd about one time in four; each server now has its own tmpdir.
    let home = Home::new();
    let servers: Vec<Server> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..6)
            .map(|i| {
                let home = &home;
                s.spawn(move || home.start(&format!("par{i}"), &[]))
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut ports: Vec<u16> = servers.iter().map(|s| s.port).collect();
    ports.sort_unstable();
    ports.dedup();
    assert_eq!(ports.len(), 6);
    // Each its own tmpdir (under /var/lib/txbench/mysql when root, else in the sandbox).
    let tmpdirs: std::collections::BTreeSet<String> = (0..6)
        .map(|i| {
            let cnf = std::fs::read_to_string(home.path().join(format!("servers/par{i}/my.cnf")))
                .unwrap();
            let line = cnf
                .lines()
                .find(|l| l.starts_with("tmpdir="))
                .unwrap()
                .to_string();
            assert!(
                line.contains(&format!("par{i}")) && line.ends_with("/tmp"),
                "{line}"
            );
            line
        })
        .collect();
    assert_eq!(tmpdirs.len(), 6);
}

/// Placement and other builds: `--cpus` pins every server thread (visible in /proc),
/// `--binary` runs the given build and records its SHA-256, `run --cpus` pins the driver,
/// and the run's pre-flight records all of it; bad values are refused by name.
#[test]
fn servers_and_drivers_are_pinned_and_other_builds_recorded() {
    let home = Home::new();
    let binary = std::fs::canonicalize(
        [
            "/usr/sbin/mariadbd",
            "/usr/bin/mariadbd",
            "/usr/sbin/mysqld",
        ]
        .iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("a server binary"),
    )
    .unwrap();
    let out = home
        .cmd()
        .args([
            "server", "start", "pinned", "--cpus", "0", "--json", "--binary",
        ])
        .arg(&binary)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let v = json(&out);
    assert_eq!(v["cpus"], "0", "{v}");
    let sha = v["binary_sha256"].as_str().unwrap().to_string();
    assert_eq!(sha.len(), 64);
    assert_eq!(v["binary"], binary.display().to_string());
    // Every thread of the server, not only its first.
    let pid = v["pid"].as_i64().unwrap();
    let tasks: Vec<_> = std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(tasks.len() > 5, "{tasks:?}");
    for t in &tasks {
        let status = std::fs::read_to_string(t.join("status")).unwrap();
        assert!(
            status.contains("Cpus_allowed_list:\t0\n"),
            "{}: {status}",
            t.display()
        );
    }
    // A run pinned to the other CPU (or the same one on a 1-CPU host) records both.
    let url = v["url"].as_str().unwrap().to_string();
    let driver_cpu = if std::thread::available_parallelism().unwrap().get() > 1 {
        "1"
    } else {
        "0"
    };
    let out = home
        .cmd()
        .args([
            "--url",
            &url,
            "prepare",
            "oltp_point_select",
            "--table-size",
            "100",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let dir = home.path().join("pinned-run");
    let out = home
        .cmd()
        .args([
            "--url",
            &url,
            "run",
            "oltp_point_select",
            "--table-size",
            "100",
        ])
        .args([
            "--threads",
            "2",
            "--time",
            "1",
            "--cpus",
            driver_cpu,
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    assert_schema_valid(&r);
    let host = &r["server"]["host"];
    assert_eq!(host["driver_cpus"], driver_cpu, "{host}");
    assert_eq!(host["server_cpus"], "0", "{host}");
    assert_eq!(host["server_binary_sha256"], sha.as_str(), "{host}");

    // Refused by name: CPUs this host lacks, a program that is not a server, a NUMA node on
    // a host without several (said, not failed).
    for (args, want) in [
        (
            vec!["--cpus", "4096"],
            "Error: --cpus 4096: this host has no CPU 4096",
        ),
        (
            vec!["--cpus", "1-0"],
            "Error: --cpus 1-0: the range 1-0 runs backwards",
        ),
        (
            vec!["--binary", "/bin/true"],
            "Error: --binary /bin/true: not a MySQL or MariaDB server",
        ),
    ] {
        let out = home
            .cmd()
            .args(["server", "start", "refused"])
            .args(&args)
            .output()
            .unwrap();
        assert!(assert_one_line_error(&out, 1).starts_with(want), "{args:?}");
    }
    // A build under a directory only root may enter: the mysql user could not run it.
    if unsafe { libc::geteuid() } == 0 {
        use std::os::unix::fs::PermissionsExt;
        let dir = home.path().join("private");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        let private = dir.join("mariadbd");
        std::fs::copy(&binary, &private).unwrap();
        let out = home
            .cmd()
            .args(["server", "start", "refused", "--binary"])
            .arg(&private)
            .output()
            .unwrap();
        let line = assert_one_line_error(&out, 1);
        assert!(
            line.contains("the 'mysql' user, which runs sandbox servers, cannot run it"),
            "{line}"
        );
    }
    let out = home
        .cmd()
        .args([
            "--url",
            &url,
            "run",
            "oltp_point_select",
            "--table-size",
            "100",
        ])
        .args(["--time", "1", "--cpus", "4096"])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 1).starts_with("Error: --cpus 4096: this host has no CPU"));
    if txbench::server::placement::numa_nodes() == 1 {
        let out = home
            .cmd()
            .args(["server", "start", "numa", "--numa-node", "0"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
        assert!(
            text(&out)
                .1
                .contains("--numa-node 0: this host has one NUMA node; the server is not bound"),
            "{:?}",
            text(&out)
        );
        home.cmd()
            .args(["server", "stop", "numa", "--rm"])
            .output()
            .unwrap();
    }
    home.cmd()
        .args(["server", "stop", "pinned", "--rm"])
        .output()
        .unwrap();
}

/// An error the server sends after a result set's first rows (here a function that fails
/// on row 50 of 100) is the statement's error, whether its rows are dropped, the first one
/// kept, or all read; it passed as a success when a dropped result discarded it.
#[test]
fn an_error_after_the_first_rows_fails_the_statement() {
    let home = Home::new();
    let s = home.start("late-error", &[]);
    s.exec(&[
        "CREATE TABLE t (id INT PRIMARY KEY)",
        "INSERT INTO t SELECT seq FROM seq_1_to_100",
        "CREATE FUNCTION fail_at(x INT) RETURNS INT DETERMINISTIC \
         BEGIN IF x = 50 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'late failure'; END IF; RETURN x; END",
    ]);
    let sql = "SELECT id, fail_at(id) FROM t ORDER BY id";
    let mut c = s.engine_conn();
    let late = |r: Result<(), txbench::engine::Error>, how: &str| {
        let e = r.expect_err(how).to_string();
        assert!(e.contains("late failure"), "{how}: {e}");
    };
    late(c.query_drop(sql), "query_drop");
    late(c.query_first::<(i64, i64)>(sql).map(drop), "query_first");
    late(c.query::<(i64, i64)>(sql).map(drop), "query");
    let st = c.prep(sql).unwrap();
    late(c.exec_drop(&st, ()), "exec_drop");
    late(
        c.exec_first::<(i64, i64), _, _>(&st, ()).map(drop),
        "exec_first",
    );
    // The connection is usable afterwards.
    assert_eq!(s.count("SELECT COUNT(*) FROM t"), 100);
    assert_eq!(c.query_first::<i64>("SELECT 7").unwrap(), Some(7));
}

/// A server keeps none of the files txbench inherited: a descriptor its caller left open (a
/// lock `flock CMD` holds, a privileged caller's file, as a shell's `9>file` leaves one) is
/// not the server's, which runs for long after and as another account.
#[test]
fn a_server_keeps_none_of_the_files_txbench_inherited() {
    use std::os::unix::io::AsRawFd;
    use std::os::unix::process::CommandExt;
    let home = Home::new();
    let held = home.path().join("held-by-the-caller");
    let f = std::fs::File::create(&held).unwrap();
    let fd = f.as_raw_fd();
    let mut cmd = home.std_cmd();
    cmd.args(["server", "start", "inherits", "--json"]);
    // SAFETY: dup2 in the child before exec: descriptor 9 stays open across the exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::dup2(fd, 9) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let pid = json(&out)["pid"].as_i64().unwrap();
    let open: Vec<std::path::PathBuf> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.unwrap().path()).ok())
        .collect();
    assert!(!open.is_empty());
    assert!(!open.contains(&held), "the server holds {held:?}: {open:?}");
    let stop = home
        .cmd()
        .args(["server", "stop", "inherits", "--rm"])
        .output()
        .unwrap();
    assert!(stop.status.success(), "{:?}", text(&stop));
}
