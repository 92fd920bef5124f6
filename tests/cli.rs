//! Command-line messages that need no server: bad input gets one clear line and the
//! documented exit code, never a panic, never a password.

mod common;
use common::*;

#[test]
fn malformed_url_names_the_flag_and_hides_the_password() {
    let home = Home::new();
    let out = home
        .cmd()
        .args(["info", "--url", "mysql://me:hunter2@localhost:notaport/db"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.starts_with("Error: --url: invalid URL mysql://me:***@localhost"),
        "{line}"
    );
    let (o, e) = text(&out);
    assert!(!o.contains("hunter2") && !e.contains("hunter2"));
}

#[test]
fn unknown_scheme_is_refused() {
    let home = Home::new();
    let out = home
        .cmd()
        .args(["info", "--url", "oracle://me:hunter2@localhost/db"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("unsupported scheme 'oracle'"), "{line}");
    assert!(!line.contains("hunter2"));
    // postgres:// is spoken: a port nobody listens on is one line, the password hidden.
    let out = home
        .cmd()
        .args(["info", "--url", "postgres://me:hunter2@127.0.0.1:1/db"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("connection refused"), "{line}");
    assert!(line.contains("postgres://me:***@127.0.0.1:1/db"), "{line}");
}

#[test]
fn unreachable_host_is_one_line() {
    let home = Home::new();
    // A port nobody listens on: bind one, note it, release it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("mysql://u:hunter2@127.0.0.1:{port}/db");
    let out = home.cmd().args(["info", "--url", &url]).output().unwrap();
    let line = assert_one_line_error(&out, 1);
    assert_eq!(
        line,
        format!(
            "Error: cannot connect to mysql://u:***@127.0.0.1:{port}/db: connection refused (is the server running on that port?)"
        )
    );
}

#[test]
fn usage_errors_exit_2() {
    let home = Home::new();
    let out = home.cmd().arg("frobnicate").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = home
        .cmd()
        .args(["server", "start", "--port", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn client_threads_out_of_range_or_with_a_rate_name_the_flag() {
    let home = Home::new();
    let url = "mysql://u:p@127.0.0.1:1/db";
    for (extra, says) in [
        (&["--client-threads", "0"][..], "--client-threads"),
        (
            &["--client-threads", "2", "--rate", "10"][..],
            "not with --rate",
        ),
    ] {
        let out = home
            .cmd()
            .args(["--url", url, "run", "oltp_point_select", "--time", "1"])
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(
            err.contains(says) && err.contains("--client-threads"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn table_sets_out_of_range_name_the_flag() {
    // Refused before any connection: the URL points nowhere.
    let home = Home::new();
    for (flag, n) in [
        ("--table-sets", "0"),
        ("--schemas", "0"),
        ("--table-sets", "1001"),
    ] {
        for cmd in ["prepare", "run", "check", "cleanup"] {
            let out = home
                .cmd()
                .args(["--url", "mysql://u@127.0.0.1:1/db", cmd, "tpcc", flag, n])
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(2),
                "{cmd} {flag} {n}: {:?}",
                text(&out)
            );
            let first = text(&out).1.lines().next().unwrap_or("").to_string();
            assert!(
                first.contains("--table-sets") && first.contains("1..=1000"),
                "{cmd} {flag} {n}: {first}"
            );
        }
    }
}

#[test]
fn bad_server_flags_name_the_flag() {
    let home = Home::new();
    let out = home
        .cmd()
        .args(["server", "start", "--set", "innodb_buffer_pool_size"])
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 1)
            .starts_with("Error: --set innodb_buffer_pool_size: expected key=value")
    );
    // The managed option in every spelling the server would read (a prefix, either
    // separator, any case, a loose-/maximum- prefix).
    for set in [
        "bind-address=0.0.0.0",
        "bind-addr=0.0.0.0",
        "BIND_ADDR=0.0.0.0",
        "loose-bind-addr=0.0.0.0",
        "maximum-bind-address=0.0.0.0",
    ] {
        let out = home
            .cmd()
            .args(["server", "start", "--set", set])
            .output()
            .unwrap();
        assert!(
            assert_one_line_error(&out, 1).contains("127.0.0.1 only"),
            "{set}"
        );
    }
    let out = home
        .cmd()
        .args(["server", "start", "--name", "../escape"])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 1).starts_with("Error: --name '../escape'"));
    // The name is positional, like stop, status and logs; --name stays as an alias, and
    // the two at once are refused by name.
    let out = home
        .cmd()
        .args(["server", "start", "../escape"])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 1).starts_with("Error: --name '../escape'"));
    let out = home
        .cmd()
        .args(["server", "start", "a", "--name", "b"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.lines().next().unwrap_or("").contains("--name"),
        "{:?}",
        text(&out)
    );
    let out = home
        .cmd()
        .args(["server", "start", "--config", "/nonexistent/x.cnf"])
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 1)
            .starts_with("Error: --config /nonexistent/x.cnf: cannot read it")
    );
    // Nothing was created for any of these.
    assert!(!home.path().join("servers").exists());
}

#[test]
fn a_config_file_may_not_move_the_server_off_loopback() {
    let home = Home::new();
    let cnf = home.path().join("mine.cnf");
    std::fs::write(
        &cnf,
        "[mysqld]\ninnodb_flush_log_at_trx_commit=2\nbind-address=0.0.0.0\n",
    )
    .unwrap();
    let out = home
        .cmd()
        .args(["server", "start", "--config"])
        .arg(&cnf)
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.ends_with("mine.cnf line 3: sandbox servers listen on 127.0.0.1 only"),
        "{line}"
    );
}

#[test]
fn stopping_an_unknown_server_is_an_error() {
    let home = Home::new();
    let out = home
        .cmd()
        .args(["server", "stop", "ghost"])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 1).contains("no server named 'ghost'"));
    let out = home
        .cmd()
        .args(["server", "logs", "ghost"])
        .output()
        .unwrap();
    assert_one_line_error(&out, 1);
}

#[test]
fn help_never_shows_the_url_from_the_environment() {
    let home = Home::new();
    let out = home
        .cmd()
        .arg("--help")
        .env("TXBENCH_URL", "mysql://u:hunter2@h/db")
        .output()
        .unwrap();
    assert!(out.status.success());
    let (o, _) = text(&out);
    assert!(o.contains("TXBENCH_URL") && !o.contains("hunter2"), "{o}");
}

#[test]
fn report_and_compare_refuse_what_is_not_a_run() {
    let home = Home::new();
    let out = home.cmd().arg("report").arg(home.path()).output().unwrap();
    assert!(
        assert_one_line_error(&out, 1)
            .contains("is not a run or sweep directory (no result.json or sweep.json)")
    );
    let out = home
        .cmd()
        .arg("compare")
        .arg(home.path())
        .arg(home.path())
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 1)
            .contains("is not a run or sweep directory (no result.json or sweep.json)")
    );
}
