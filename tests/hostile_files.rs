//! Files and directories another local user could have planted, or a result.json, sweep,
//! experiment or store someone else crafted: txbench refuses what is not the user's own and
//! never follows what such files name outside their directory (issue 38, items 4, 6, 8, 9).

mod common;
use common::*;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The uid and gid of `nobody`.
const NOBODY: u32 = 65534;

fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// A short real run of oltp_point_select into `home`/`name`, labelled team=a.
fn a_run(home: &Home, s: &Server, name: &str) -> PathBuf {
    let dir = home.path().join(name);
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
        .args([
            "--time",
            "1",
            "--report-interval",
            "1",
            "--label",
            "team=a",
            "-q",
        ])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    dir
}

/// Rewrites `dir`/result.json through `edit`.
fn edit_result(dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut v = result_json(dir);
    edit(&mut v);
    std::fs::write(dir.join("result.json"), v.to_string()).unwrap();
}

#[test]
fn an_out_directory_that_is_not_the_users_own_is_refused() {
    let home = Home::new();
    let s = point_select_server(&home, "out");
    let run = |dir: &Path| {
        home.cmd()
            .args([
                "--url",
                &s.url,
                "run",
                "oltp_point_select",
                "--table-size",
                "1000",
            ])
            .args(["--time", "1", "-q"])
            .arg("--out")
            .arg(dir)
            .output()
            .unwrap()
    };
    // Empty, but others may write into it: a link could be planted in it mid-run.
    let open = home.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let line = assert_one_line_error(&run(&open), 1);
    assert!(
        line.contains("--out") && line.contains("may be written by other users (mode 777)"),
        "{line}"
    );
    // A link to a directory of ours.
    let link = home.path().join("link");
    std::os::unix::fs::symlink(home.path(), &link).unwrap();
    let line = assert_one_line_error(&run(&link), 1);
    assert!(line.contains("is a symbolic link: refused"), "{line}");
    // Another user's empty directory (only root can make one to try).
    if root() {
        let theirs = home.path().join("theirs");
        std::fs::create_dir(&theirs).unwrap();
        std::os::unix::fs::chown(&theirs, Some(NOBODY), Some(NOBODY)).unwrap();
        let line = assert_one_line_error(&run(&theirs), 1);
        assert!(line.contains("belongs to uid 65534"), "{line}");
    }
    // `report -o` over a link planted where the report goes: the link is replaced, what it
    // pointed at is left alone.
    let dir = a_run(&home, &s, "ok");
    let victim = home.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("report.html")).unwrap();
    let out = home.cmd().arg("report").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    let meta = std::fs::symlink_metadata(dir.join("report.html")).unwrap();
    assert!(meta.is_file() && meta.len() > 1000);
}

#[test]
fn a_state_directory_or_store_that_is_not_the_users_own_is_refused() {
    let home = Home::new();
    // A ./.txbench (or $TXBENCH_HOME) others may write into.
    let state = home.path().join("state");
    std::fs::create_dir(&state).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = home
        .cmd()
        .env("TXBENCH_HOME", &state)
        .args(["server", "list"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("the state directory") && line.contains("may be written by other users"),
        "{line}"
    );
    if root() {
        // Someone else's ./.txbench in the working directory.
        let cwd = home.path().join("shared");
        std::fs::create_dir_all(cwd.join(".txbench")).unwrap();
        std::os::unix::fs::chown(cwd.join(".txbench"), Some(NOBODY), Some(NOBODY)).unwrap();
        let out = home
            .cmd()
            .env_remove("TXBENCH_HOME")
            .current_dir(&cwd)
            .args(["server", "list"])
            .output()
            .unwrap();
        let line = assert_one_line_error(&out, 1);
        assert!(line.contains("belongs to uid 65534"), "{line}");
    }
    // A store that is a link, or another SQLite database: refused, and left as it was.
    let elsewhere = home.path().join("elsewhere.sqlite");
    let other = rusqlite::Connection::open(&elsewhere).unwrap();
    other
        .execute_batch(
            "CREATE TABLE accounts (id INTEGER PRIMARY KEY); INSERT INTO accounts VALUES (1);",
        )
        .unwrap();
    drop(other);
    let before = std::fs::read(&elsewhere).unwrap();
    let link = home.path().join("store-link.sqlite");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    for (store, says) in [
        (&link, "is a symbolic link: refused"),
        (
            &elsewhere,
            "is an SQLite database but not a txbench store (its tables: accounts)",
        ),
    ] {
        let out = home
            .cmd()
            .arg("--store")
            .arg(store)
            .arg("runs")
            .output()
            .unwrap();
        let line = assert_one_line_error(&out, 1);
        assert!(line.contains(says), "{line}");
    }
    assert_eq!(
        std::fs::read(&elsewhere).unwrap(),
        before,
        "the database was changed"
    );
    assert!(!home.path().join("elsewhere.sqlite-wal").exists());
}

#[test]
fn paths_a_crafted_file_names_outside_its_directory_are_refused() {
    let home = Home::new();
    let s = point_select_server(&home, "paths");
    // A profile file named by an absolute path.
    let dir = a_run(&home, &s, "profile");
    edit_result(&dir, |v| {
        v["profiles"] = serde_json::json!([{
            "what": "server", "processes": [], "event": "cpu-clock", "hz": 99, "seconds": 1.0,
            "cpu_ms": 1.0, "file": "/etc/passwd", "unresolved_pct": 0.0,
            "top_self": [], "top_total": [], "subsystems": []
        }]);
    });
    let out = home.cmd().arg("report").arg(&dir).output().unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("names \"/etc/passwd\", which is not a plain name inside its directory"),
        "{line}"
    );
    // A sweep whose level climbs out of it.
    let sweep = home.path().join("sweep");
    quiet_sweep(&home, &s, &sweep, "1,2", "1", "1");
    let file = sweep.join("sweep.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    v["runs"][0]["dir"] = serde_json::json!("../profile");
    std::fs::write(&file, v.to_string()).unwrap();
    for cmd in [&["report"][..], &["compare"][..]] {
        let out = home
            .cmd()
            .args(cmd)
            .arg(&sweep)
            .arg(&sweep)
            .output()
            .unwrap();
        let line = assert_one_line_error(&out, 1);
        assert!(line.contains("names \"../profile\""), "{cmd:?}: {line}");
    }
}

#[test]
fn labels_and_directories_reach_the_terminal_escaped() {
    let home = Home::new();
    let s = point_select_server(&home, "esc");
    // A directory whose name holds an escape sequence, and labels that would clear the
    // screen and forge a line.
    let dir = a_run(&home, &s, "run\x1b[2Jx");
    edit_result(&dir, |v| {
        v["config"]["labels"] = serde_json::json!({"team": "a\x1b]0;owned\x07\nVALID fake"});
    });
    let store = home.path().join("store.sqlite");
    let out = home
        .cmd()
        .arg("--store")
        .arg(&store)
        .args(["store", "import"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    for args in [
        &["runs"][..],
        &["runs", "--csv"][..],
        &["history", "--by", "team"][..],
        &["history", "--by", "team", "--csv"][..],
    ] {
        let out = home
            .cmd()
            .arg("--store")
            .arg(&store)
            .args(args)
            .output()
            .unwrap();
        let (o, e) = text(&out);
        assert!(out.status.success(), "{args:?}: {o}{e}");
        assert!(
            !o.contains('\x1b') && !o.contains('\x07'),
            "{args:?}: {o:?}"
        );
        assert!(
            !o.lines().any(|l| l.starts_with("VALID fake")),
            "{args:?}: {o:?}"
        );
    }
    let out = home
        .cmd()
        .arg("--store")
        .arg(&store)
        .arg("runs")
        .output()
        .unwrap();
    let o = text(&out).0;
    assert!(
        o.contains("team=a\\u{1b}]0;owned\\u{7}\\nVALID fake"),
        "{o}"
    );
    assert!(o.contains("run\\u{1b}[2Jx"), "{o}");
}

#[test]
fn a_program_on_a_stopped_sandboxs_port_is_never_sent_its_password() {
    let home = Home::new();
    let s = home.start("squat", &[]);
    let secret = s.secret();
    let out = home
        .cmd()
        .args(["server", "stop", "squat"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    // Another local user's program takes the port and records what reaches it.
    let l = std::net::TcpListener::bind(("127.0.0.1", s.port)).unwrap();
    l.set_nonblocking(true).unwrap();
    let seen = std::thread::spawn(move || {
        use std::io::Read;
        let mut got = Vec::new();
        let end = std::time::Instant::now() + std::time::Duration::from_secs(6);
        while std::time::Instant::now() < end {
            if let Ok((mut c, _)) = l.accept() {
                c.set_nonblocking(false).unwrap();
                c.set_read_timeout(Some(std::time::Duration::from_secs(1)))
                    .unwrap();
                let _ = c.read_to_end(&mut got);
                got.push(b'|');
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        got
    });
    for args in [
        vec!["info", "--url", s.url.as_str()],
        vec![
            "run",
            "oltp_point_select",
            "--server",
            "squat",
            "--time",
            "1",
        ],
    ] {
        let out = home.cmd().args(&args).output().unwrap();
        let line = assert_one_line_error(&out, 1);
        // --server looks at the sandbox first; a URL naming its port is filled with the
        // password and checked before connecting.
        assert!(
            (line.contains("is not the sandbox's server") && line.contains("password is not sent"))
                || line.contains("--server squat: the server is stopped"),
            "{args:?}: {line}"
        );
    }
    let got = seen.join().unwrap();
    assert!(
        !String::from_utf8_lossy(&got).contains(&secret),
        "the password reached the squatter"
    );
    assert!(got.is_empty(), "txbench connected to the squatter: {got:?}");
}

/// One raw request to 127.0.0.1:`port`; the status of the answer (0 when there is none).
fn status_of(port: u16, request: &[u8]) -> u16 {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    c.set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let _ = c.write_all(request);
    let mut answer = Vec::new();
    let _ = c.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer)
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[test]
fn serve_answers_its_own_address_only_within_bounds() {
    let home = Home::new();
    let s = point_select_server(&home, "serve");
    let _dir = a_run(&home, &s, "run");
    let served = serve(&home);
    let port: u16 = served
        .base
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("serve's address: {}", served.base));
    let get = |host: &str| format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n").into_bytes();
    assert_eq!(status_of(port, &get(&format!("127.0.0.1:{port}"))), 200);
    assert_eq!(status_of(port, &get(&format!("localhost:{port}"))), 200);
    // DNS rebinding: a page of another site whose name now points at 127.0.0.1.
    assert_eq!(
        status_of(port, &get(&format!("rebound.example:{port}"))),
        421
    );
    assert_eq!(status_of(port, b"GET / HTTP/1.0\r\n\r\n"), 421);
    assert_eq!(
        status_of(
            port,
            format!("POST / HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n").as_bytes()
        ),
        405
    );
    // A head past 16 KiB.
    let mut big = format!("GET / HTTP/1.1\r\nHost: localhost:{port}\r\n").into_bytes();
    big.extend(std::iter::repeat_n(b'x', 20 << 10));
    big.extend_from_slice(b"\r\n\r\n");
    assert_eq!(status_of(port, &big), 431);
    // Connections that send nothing: the queue fills and the next ones are told 503 at once
    // (before, each got a thread of its own, without bound).
    let idle: Vec<std::net::TcpStream> = (0..40)
        .map(|_| std::net::TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(status_of(port, &get(&format!("localhost:{port}"))), 503);
    drop(idle);
    // A client that sends a byte now and then is cut off at the head's deadline (5 s), not
    // kept for as long as it keeps sending.
    let t = std::time::Instant::now();
    let mut slow = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut cut_at = None;
    for b in b"GET / HTTP/1.1\r\nHost: localhost:".iter().take(14) {
        use std::io::Write;
        if slow.write_all(&[*b]).is_err() {
            cut_at = Some(t.elapsed());
            break;
        }
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
    let cut_at = cut_at.expect("the slow client was never cut off");
    assert!(cut_at.as_secs() < 10, "cut off only after {cut_at:?}");
    // Once they are gone (or timed out) it answers again.
    let t = std::time::Instant::now();
    let mut status = 0;
    while t.elapsed().as_secs() < 15 && status != 200 {
        status = status_of(port, &get(&format!("localhost:{port}")));
    }
    assert_eq!(status, 200);
    drop(served);
}

/// A program `dir`/`name` that says it is MySQL 8's server, and when asked to make a data
/// directory writes the uid it runs as into `seen` and fails.
fn fake_mysqld(dir: &Path, seen: &Path) -> PathBuf {
    let path = dir.join("mysqld");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\ncase \"$*\" in\n*--version*) echo 'mysqld  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)';;\n*--initialize-insecure*) id -u > {}; exit 1;;\nesac\n",
            seen.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_build_is_never_run_as_root_nor_taken_from_other_users() {
    let home = Home::new();
    let builds = home.path().join("builds");
    std::fs::create_dir(&builds).unwrap();
    std::fs::set_permissions(&builds, std::fs::Permissions::from_mode(0o755)).unwrap();
    let drop_box = home.path().join("seen");
    std::fs::create_dir(&drop_box).unwrap();
    std::fs::set_permissions(&drop_box, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let seen = drop_box.join("uid");
    let build = fake_mysqld(&builds, &seen);
    let start = |binary: &Path| {
        home.cmd()
            .args(["server", "start", "b", "--binary"])
            .arg(binary)
            .output()
            .unwrap()
    };
    // Others may write the build, or the directory it is in.
    std::fs::set_permissions(&build, std::fs::Permissions::from_mode(0o757)).unwrap();
    let line = assert_one_line_error(&start(&build), 1);
    assert!(
        line.contains("may be written by other users (mode 757): refused"),
        "{line}"
    );
    std::fs::set_permissions(&build, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&builds, std::fs::Permissions::from_mode(0o777)).unwrap();
    let line = assert_one_line_error(&start(&build), 1);
    assert!(
        line.contains("another user could swap what it holds"),
        "{line}"
    );
    std::fs::set_permissions(&builds, std::fs::Permissions::from_mode(0o755)).unwrap();
    if !root() {
        return;
    }
    // Another user's build.
    std::os::unix::fs::chown(&build, Some(NOBODY), Some(NOBODY)).unwrap();
    let line = assert_one_line_error(&start(&build), 1);
    assert!(
        line.contains("belongs to uid 65534, neither root nor this user"),
        "{line}"
    );
    std::os::unix::fs::chown(&build, Some(0), Some(0)).unwrap();
    // Root's own build makes its data directory as the servers' account, not as root.
    let out = start(&build);
    assert!(!out.status.success(), "{:?}", text(&out));
    let uid = std::fs::read_to_string(&seen).expect("the build was asked to make a data directory");
    assert_ne!(uid.trim(), "0", "the build ran as root");
}

#[test]
fn a_pid_file_naming_another_process_records_no_build() {
    if !root() {
        return;
    }
    let home = Home::new();
    let s = point_select_server(&home, "pidfile");
    // A process whose name says mysqld (a link to sleep), named by the server's pid file.
    let decoy_dir = home.path().join("decoy");
    std::fs::create_dir(&decoy_dir).unwrap();
    let decoy = decoy_dir.join("mysqld");
    std::os::unix::fs::symlink("/bin/sleep", &decoy).unwrap();
    let mut sleeper = std::process::Command::new(&decoy)
        .arg("60")
        .spawn()
        .unwrap();
    let record: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(home.path().join("servers/pidfile/server.json")).unwrap(),
    )
    .unwrap();
    let data = PathBuf::from(record["data_dir"].as_str().unwrap());
    let pid_file = data.parent().unwrap().join("mysqld.pid");
    let real = std::fs::read_to_string(&pid_file).unwrap();
    std::fs::write(&pid_file, format!("{}\n", sleeper.id())).unwrap();
    let dir = home.path().join("run");
    // With the password in the URL: a sandbox login would refuse this server outright (its
    // pid file names another process), which is not what this test is about.
    let mut url = s.login_url();
    url.sandbox_login = false;
    let url = url.with_secret();
    let out = home
        .cmd()
        .args([
            "--url",
            &url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .args(["--time", "1", "-q", "--no-server-metrics", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    std::fs::write(&pid_file, real).unwrap();
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    assert!(out.status.success(), "{:?}", text(&out));
    let host = result_json(&dir)["server"]["host"].clone();
    assert!(
        !host.to_string().contains("sleep"),
        "the decoy was recorded as the build: {host}"
    );
}

#[test]
fn what_compare_prints_of_a_crafted_run_is_escaped() {
    let home = Home::new();
    let s = point_select_server(&home, "cmp");
    let a = a_run(&home, &s, "a");
    let b = a_run(&home, &s, "b");
    for dir in [&a, &b] {
        edit_result(dir, |v| {
            v["notes"] = serde_json::json!(["\x1b]0;owned\x07 note"]);
            v["kinds"][0] = serde_json::json!("point_select\x1b[2J");
            v["summary"]["kinds"][0]["name"] = serde_json::json!("point_select\x1b[2J");
            v["config"]["workload"] = serde_json::json!("oltp_point_select\x1b[2J");
        });
    }
    let out = home.cmd().arg("compare").arg(&a).arg(&b).output().unwrap();
    let (o, e) = text(&out);
    assert!(!o.contains('\x1b') && !e.contains('\x1b'), "{o:?} {e:?}");
    assert!(o.contains("oltp_point_select\\u{1b}[2J"), "{o}");
}
