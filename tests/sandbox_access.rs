//! A local user gains nothing from a sandbox: the servers run as their own unprivileged
//! accounts, nobody logs in without the secret, the benchmark user cannot reach past the
//! server (files, programs, other accounts), and no output holds the secret.

mod common;
use common::*;
use std::os::unix::process::CommandExt;

/// The uid and gid of `nobody` (Debian's unprivileged account).
const NOBODY: u32 = 65534;

/// The user a process runs as (its real uid, from /proc).
fn uid_of(pid: i32) -> u32 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("Uid:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// `txbench info --url URL` run by `nobody`, with a state directory of its own.
fn info_as_nobody(url: &str) -> std::process::Output {
    let home = tempfile::tempdir().unwrap();
    std::process::Command::new(assert_cmd::cargo::cargo_bin("txbench"))
        .current_dir("/")
        .env("TXBENCH_HOME", home.path().join("nobody"))
        .env_remove("TXBENCH_URL")
        .args(["info", "--url", url])
        .uid(NOBODY)
        .gid(NOBODY)
        .output()
        .unwrap()
}

#[test]
fn a_local_user_gains_nothing_from_a_sandbox() {
    // As root: a user who is not root must reach nothing either way, which only root can
    // show (it alone can become another user).
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: only root can run a command as another local user");
        return;
    }
    let h = Home::new();
    let secret = std::fs::read_to_string(h.path().join("secret")).ok();
    assert!(secret.is_none(), "no secret before the first sandbox");
    for db in [Db::MariaDb, Db::Postgres] {
        let s = h.start_db(db, &format!("acc-{}", db as u8), &[]);
        let secret = s.secret();
        // The secret: private to the sandboxes' owner, never in what txbench prints.
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(h.path().join("secret"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let list = h.cmd().args(["server", "list", "--json"]).output().unwrap();
        let status = h
            .cmd()
            .args(["server", "status", &s.name])
            .output()
            .unwrap();
        for out in [&list, &status] {
            let (o, e) = text(out);
            assert!(out.status.success(), "{o}{e}");
            assert!(!o.contains(&secret) && !e.contains(&secret), "{o}{e}");
        }
        assert!(!s.json.to_string().contains(&secret));
        assert!(!s.url.contains(':') || !s.url.contains(&secret));

        // The server runs as its own account, not as root.
        let (account, grep) = match db {
            Db::MariaDb => ("mysql", "access denied"),
            Db::Postgres => ("postgres", "password"),
        };
        let uid = uid_of(s.pid);
        assert_ne!(uid, 0, "{account} sandbox runs as root");
        let want = std::process::Command::new("id")
            .args(["-u", account])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&want.stdout).trim(),
            uid.to_string()
        );

        // Another local user, without the secret: refused over TCP, and the socket's
        // directory is closed to it (administration goes through the socket).
        let out = info_as_nobody(&s.url);
        let err = assert_one_line_error(&out, 1);
        assert!(err.contains(grep), "{err}");
        let admin = s.admin_url();
        let out = info_as_nobody(&format!(
            "{}?{}={}",
            s.url,
            if db == Db::MariaDb { "socket" } else { "host" },
            admin.socket.as_ref().unwrap().display()
        ));
        assert_ne!(out.status.code(), Some(0), "{:?}", text(&out));
        // Guessing the administrator's name does not help.
        let root_url = s.url.replacen("txbench@", &format!("{}@", admin.user), 1);
        let out = info_as_nobody(&root_url);
        assert_ne!(out.status.code(), Some(0), "{:?}", text(&out));

        // The benchmark user works, but cannot reach past the server.
        let mut c = s.engine_conn();
        let refused: &[&str] = match db {
            Db::MariaDb => &[
                "SELECT 1 INTO OUTFILE '/tmp/txbench-escape'",
                "CREATE USER 'intruder'@'%'",
                "GRANT ALL ON *.* TO 'txbench'@'127.0.0.1'",
                "SHUTDOWN",
                "SET GLOBAL max_connections = 10",
                "INSERT INTO mysql.plugin VALUES ('x', 'x.so')",
                "CREATE DATABASE other",
            ],
            Db::Postgres => &[
                "COPY (SELECT 1) TO PROGRAM 'id'",
                "COPY (SELECT 1) TO '/tmp/txbench-escape'",
                "CREATE ROLE intruder SUPERUSER",
                "ALTER SYSTEM SET max_connections = 10",
                "SELECT pg_read_file('/etc/passwd')",
            ],
        };
        for stmt in refused {
            // Refused for want of the privilege, not for another reason (secure_file_priv,
            // a syntax error) that would hide a privilege granted after all.
            let e = match c.query_drop(stmt) {
                Ok(_) => panic!("{db:?}: {stmt} was allowed"),
                Err(e) => format!("{e:#}"),
            };
            assert!(
                e.contains("denied") || e.contains("must be superuser"),
                "{db:?}: {stmt}: {e}"
            );
        }
        if db == Db::MariaDb {
            let grants: Vec<String> = s.sql("SHOW GRANTS FOR 'txbench'@'127.0.0.1'");
            let all = grants.join("\n");
            for never in ["FILE", "SUPER", "SHUTDOWN", "GRANT OPTION", "ON *.* TO"] {
                // The one server-wide grant names monitoring only.
                if never == "ON *.* TO" {
                    let global = grants.iter().find(|g| g.contains(never)).unwrap();
                    for p in ["INSERT", "UPDATE", "DELETE", "CREATE,", "DROP", "ALL"] {
                        assert!(!global.contains(p), "{global}");
                    }
                } else {
                    assert!(!all.contains(never), "{all}");
                }
            }
        }
        assert!(!std::path::Path::new("/tmp/txbench-escape").exists());
        if db == Db::MariaDb {
            // Without FILE, the server reads no file for it either.
            assert_eq!(s.count("SELECT LOAD_FILE('/etc/passwd') IS NULL"), 1);
        }
        if db == Db::Postgres {
            let sup = "SELECT count(*) FROM pg_roles WHERE rolname = 'txbench' AND rolsuper";
            assert_eq!(s.count(sup), 0);
        }
        // While the work it exists for still runs: a short run, VALID, cross-checked (with
        // `c`, a session named as txbench's own, still open: the closing sample waits for
        // it in vain, and its monitor's own count must not dip below the last sample's).
        let out = h
            .cmd()
            .args([
                "--url",
                &s.url,
                "prepare",
                "oltp_read_write",
                "--table-size",
                "500",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
        let dir = h.path().join(format!("run-{}", db as u8));
        let out = h
            .cmd()
            .args([
                "--url",
                &s.url,
                "run",
                "oltp_read_write",
                "--table-size",
                "500",
            ])
            .args(["--threads", "2", "--time", "2", "--out"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
        let r = result_json(&dir);
        assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
        assert_eq!(r["summary"]["server"]["cross_checks"][0]["agrees"], true);
        let stored = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter_map(|e| std::fs::read(e.path()).ok())
            .any(|b| String::from_utf8_lossy(&b).contains(&secret));
        assert!(!stored, "the secret is stored in the run directory");
    }
}

/// `txbench ARGS` run by `nobody` with the state directory `home` (its own).
fn as_nobody(home: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("txbench"))
        .current_dir(home)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
        .env("HOME", home)
        .env("TXBENCH_HOME", home)
        .args(args)
        .uid(NOBODY)
        .gid(NOBODY)
        .output()
        .unwrap()
}

#[test]
fn a_user_who_is_not_root_runs_sandboxes_as_themselves() {
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: only root can run a command as another local user");
        return;
    }
    let dir = tempfile::Builder::new()
        .prefix("txb-nobody-")
        .tempdir()
        .unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    std::os::unix::fs::chown(&home, Some(NOBODY), Some(NOBODY)).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for (name, engine) in [("mine", "mysql"), ("minepg", "postgres")] {
        let set = if engine == "mysql" {
            "innodb_buffer_pool_size=128M"
        } else {
            "shared_buffers=128MB"
        };
        let out = as_nobody(
            &home,
            &[
                "server", "start", name, "--engine", engine, "--json", "--set", set,
            ],
        );
        assert!(out.status.success(), "{:?}", text(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let url = v["url"].as_str().unwrap().to_string();
        let pid = v["pid"].as_i64().unwrap() as i32;
        // The server runs as its owner, who logs in with the secret it never sees.
        assert_eq!(uid_of(pid), NOBODY);
        let out = as_nobody(&home, &["info", "--url", &url]);
        assert!(out.status.success(), "{:?}", text(&out));
        // Root, without the secret, is refused like anyone.
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("txbench"))
            .env("TXBENCH_HOME", dir.path().join("root"))
            .args(["info", "--url", &url])
            .output()
            .unwrap();
        assert_ne!(out.status.code(), Some(0), "{:?}", text(&out));
        let out = as_nobody(&home, &["server", "stop", "--rm", name]);
        assert!(out.status.success(), "{:?}", text(&out));
    }
}
