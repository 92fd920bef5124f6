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
