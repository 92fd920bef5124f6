//! A sandbox takes no setting that would open it to another local user, run a program or
//! load code, open another listener, or read and write files outside its directory: every
//! spelling the server reads (`--set`, `--config`, and a server.json edited by hand) is
//! refused before anything starts, and a file setting given a plain name stays inside.

mod common;
use common::*;

/// `server start NAME` with `args`: refused with one line naming `--set` (or the file) and
/// the reason, and no sandbox made.
fn assert_refused(home: &Home, name: &str, args: &[&str], says: &str) {
    let out = home
        .cmd()
        .args(["server", "start", name])
        .args(args)
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains(says), "{args:?}: {line}");
    assert!(
        !home.path().join("servers").join(name).exists(),
        "{args:?}: a sandbox was made"
    );
}

#[test]
fn settings_that_open_a_mariadb_sandbox_are_refused_in_every_spelling() {
    let home = Home::new();
    let refused = [
        // Every local user in as root, without a password.
        "skip-grant-tables=1",
        "skip_grant_tables=ON",
        "skip-grant=1",
        "loose-skip-grant-tables=1",
        "loose_skip_grant=1",
        "SKIP-GRANT-TABLES=1",
        "enable-skip-grant-tables=1",
        // Code and programs.
        "plugin_dir=/tmp",
        "plugin-dir=/tmp",
        "init_file=/tmp/x.sql",
        "init-file=/tmp/x.sql",
        "wsrep_provider=/tmp/x.so",
        "wsrep_notify_cmd=/tmp/x.sh",
        "basedir=/tmp",
        "debug=d:o,/tmp/trace",
        // Files written outside the sandbox.
        "innodb_data_home_dir=/tmp",
        "innodb_log_group_home_dir=/tmp",
        "innodb-undo-directory=/tmp",
        "innodb_tmpdir=/tmp",
        "innodb_doublewrite_dir=/tmp",
        "aria_log_dir_path=/tmp",
        "aria-log-dir-path=/tmp",
        // Listeners of their own.
        "mysqlx=ON",
        "mysqlx-port=33060",
        "loose-mysqlx-bind-address=0.0.0.0",
        "admin_address=0.0.0.0",
        "admin-port=33062",
    ];
    for set in refused {
        assert_refused(&home, "r", &["--set", set], "refused in a sandbox");
    }
    // What mariadb-install-db reads from the same file at the first bootstrap.
    for set in [
        "extra-file=/tmp/x.sql",
        "srcdir=/tmp",
        "builddir=/tmp",
        "mysqld=/tmp/x",
    ] {
        assert_refused(&home, "r", &["--set", set], "refused in a sandbox");
    }
    // The server drops everything up to a '.' of any option but a key cache's:
    // x.skip-grant-tables is skip-grant-tables.
    for set in [
        "x.skip-grant-tables=1",
        "cache.plugin-dir=/tmp",
        "a.b.bind-address=0.0.0.0",
    ] {
        assert_refused(&home, "r", &["--set", set], "sets a key cache's option");
    }
    let paths = [
        "plugin_load_add=/tmp/evil.so",
        "plugin-load-add=../../tmp/evil.so",
        "plugin_load=/tmp/evil.so",
        "general_log_file=/tmp/g.log",
        "general-log-file=../g.log",
        "slow_query_log_file=/tmp/s.log",
        "slow-query-log-file=/tmp/s.log",
        "log_bin=/tmp/binlog",
        "log-bin=/tmp/binlog",
        "relay_log=/tmp/relay",
        "relay-log-index=/tmp/relay.index",
        "log_bin_index=/tmp/b.index",
    ];
    for set in paths {
        assert_refused(&home, "r", &["--set", set], "names a path");
    }
    // The same in a --config file, bare or with a value, in any section.
    for (line, says) in [
        ("skip-grant-tables", "refused in a sandbox"),
        ("skip_grant_tables = ON", "refused in a sandbox"),
        ("loose-skip-grant-tables", "refused in a sandbox"),
        ("plugin_load_add = /tmp/evil.so", "names a path"),
        ("general_log_file=/var/tmp/g.log", "names a path"),
        ("mysqlx=ON", "refused in a sandbox"),
        ("x.skip-grant-tables", "sets a key cache's option"),
        ("extra-file=/tmp/grant-everyone.sql", "refused in a sandbox"),
    ] {
        let cnf = home.path().join("mine.cnf");
        std::fs::write(
            &cnf,
            format!("[mysqld]\ninnodb_flush_log_at_trx_commit=2\n{line}\n"),
        )
        .unwrap();
        let out = home
            .cmd()
            .args(["server", "start", "r", "--config"])
            .arg(&cnf)
            .output()
            .unwrap();
        let err = assert_one_line_error(&out, 1);
        assert!(
            err.contains("mine.cnf line 3: ") && err.contains(says),
            "{line}: {err}"
        );
        assert!(!home.path().join("servers").join("r").exists());
    }
}

#[test]
fn settings_that_open_a_postgres_sandbox_are_refused() {
    let home = Home::new();
    for set in [
        "archive_command=cp %p /tmp/%f",
        "archive-command=/tmp/x",
        "archive_library=evil",
        "restore_command=/tmp/x",
        "archive_cleanup_command=/tmp/x",
        "recovery_end_command=/tmp/x",
        "ssl_passphrase_command=/tmp/x",
        "shared_preload_libraries=evil",
        "local_preload_libraries=evil",
        "session_preload_libraries=evil",
        "dynamic_library_path=/tmp",
        "jit_provider=evil",
    ] {
        assert_refused(
            &home,
            "p",
            &["--engine", "postgres", "--set", set],
            "refused in a sandbox",
        );
    }
    for set in [
        "log_directory=/tmp",
        "log_directory=\\057tmp",
        "log_directory=../..",
        "log_filename=../../../tmp/x.log",
    ] {
        assert_refused(
            &home,
            "p",
            &["--engine", "postgres", "--set", set],
            "names a path",
        );
    }
    let conf = home.path().join("mine.conf");
    std::fs::write(
        &conf,
        "work_mem = 64MB\nshared_preload_libraries = 'evil'\n",
    )
    .unwrap();
    assert_refused(
        &home,
        "p",
        &["--engine", "postgres", "--config", conf.to_str().unwrap()],
        "mine.conf line 2: shared_preload_libraries would load code",
    );
}

#[test]
fn file_settings_stay_in_the_sandbox_and_a_planted_record_is_refused() {
    let home = Home::new();
    let s = home.start(
        "files",
        &[
            "--set",
            "general_log=ON",
            "--set",
            "general_log_file=general.log",
            "--set",
            "slow_query_log=ON",
            "--set",
            "slow-query-log-file=slow.log",
        ],
    );
    let record = home.path().join("servers/files/server.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let datadir = v["data_dir"].as_str().map_or_else(
        || home.path().join("servers/files/data"),
        std::path::PathBuf::from,
    );
    assert!(
        datadir.join("general.log").is_file() && datadir.join("slow.log").is_file(),
        "the logs are not in {}",
        datadir.display()
    );
    // A server.json edited by hand (or written by an older txbench) to hold
    // skip-grant-tables: the next start refuses it, and no server runs.
    let out = home
        .cmd()
        .args(["server", "stop", "files"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    v["sets"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"key": "skip-grant-tables", "value": "1"}));
    std::fs::write(&record, v.to_string()).unwrap();
    let out = home
        .cmd()
        .args(["server", "start", "files"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("--set skip-grant-tables: 'skip_grant_tables' would let every local user in as root without a password"),
        "{line}"
    );
    let out = home
        .cmd()
        .args(["server", "status", "files", "--json"])
        .output()
        .unwrap();
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(status["state"]["state"], "stopped", "{status}");
    drop(s);
}
