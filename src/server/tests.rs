//! Unit tests of `server/mod.rs`, beside it so the subject stays readable.

use super::*;

#[test]
fn a_missing_server_names_the_package_to_install() {
    let empty = tempfile::tempdir().unwrap();
    let e = find_server_binary(&[empty.path().to_path_buf()]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "mariadbd not found on PATH: install the Debian package mariadb-server (apt-get install mariadb-server)"
    );
}

#[test]
fn names_become_directory_names_so_they_are_checked() {
    for ok in ["default", "a-1", "B_2"] {
        assert!(validate_name(ok).is_ok(), "{ok}");
    }
    for bad in ["", "../x", "a b", "-x", &"n".repeat(65)] {
        let e = validate_name(bad).unwrap_err().to_string();
        assert!(e.starts_with("--name"), "{bad}: {e}");
    }
}

#[test]
fn init_sql_has_one_statement_a_line_and_no_secret() {
    for flavor in [Flavor::MariaDb, Flavor::MySql] {
        let sql = init_sql(flavor, "s3cretS3cretS3cret");
        for line in sql.lines() {
            assert!(line.ends_with(';'), "{line}");
        }
        // The server is told the hash only, and the user gets no FILE, SUPER or GRANT,
        // and no data privilege server-wide (which would reach the mysql schema).
        assert!(!sql.contains("s3cret"), "{sql}");
        assert!(sql.contains(&secret::mysql_native_hash("s3cretS3cretS3cret")));
        for never in ["FILE", "SUPER", "WITH GRANT OPTION", "SHUTDOWN", "INSERT"] {
            assert!(!sql.contains(never), "{never}: {sql}");
        }
        for line in sql.lines().filter(|l| l.contains(" ON *.* ")) {
            assert!(line.starts_with("GRANT PROCESS, REPLICATION"), "{line}");
        }
    }
}

#[test]
fn a_lost_port_is_seen_behind_a_galera_joiners_later_errors() {
    // CI saw this joiner give up: the bind error, then five state-transfer errors, so the
    // excerpt of the last errors no longer held it and no other port was tried.
    let log = "\
2026-11-26  9:25:39 0 [ERROR] Can't start server: Bind on TCP/IP port. Got error: 98: Address already in use
2026-11-26  9:25:39 0 [ERROR] Do you already have another server running on port: 40045 ?
2026-11-26  9:25:39 0 [ERROR] Aborting
2026-11-26  9:25:39 3 [ERROR] WSREP: sst_received failed: State wait was interrupted
2026-11-26  9:25:39 2 [ERROR] WSREP: Application received wrong state:
2026-11-26  9:25:39 2 [ERROR] WSREP: Application state transfer failed. This is unrecoverable condition, restart required.
";
    assert!(start::port_taken(log));
    // The same, with the bind line itself gone from what was read.
    assert!(start::port_taken(&log[log.find("Do you").unwrap()..]));
    assert!(!start::port_taken(
        "[ERROR] InnoDB: Cannot allocate memory for the buffer pool\n[ERROR] Aborting\n"
    ));
}
