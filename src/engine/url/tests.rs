//! Unit tests of `engine/url.rs`, beside it so the subject stays readable.

use super::*;

#[test]
fn parses_a_full_url() {
    let u = TargetUrl::parse("mysql://bench:s3cret@db.example:3307/sbtest").unwrap();
    assert_eq!(u.user, "bench");
    assert_eq!(u.password.as_deref(), Some("s3cret"));
    assert_eq!(u.host, "db.example");
    assert_eq!(u.port, 3307);
    assert_eq!(u.database, "sbtest");
    assert_eq!(u.socket, None);
    assert_eq!(u.to_string(), "mysql://bench:***@db.example:3307/sbtest");
    assert!(!format!("{u:?}").contains("s3cret"));
}

#[test]
fn defaults_and_socket_and_mariadb_scheme() {
    let u = TargetUrl::parse("mariadb://?socket=/run/mysqld/mysqld.sock").unwrap();
    assert_eq!(u.user, "root");
    assert_eq!(u.password, None);
    assert_eq!(u.host, "127.0.0.1");
    assert_eq!(u.port, 3306);
    assert_eq!(u.database, "txbench");
    assert_eq!(u.socket, Some(PathBuf::from("/run/mysqld/mysqld.sock")));
    assert_eq!(
        u.to_string(),
        "mariadb://root@127.0.0.1:3306/txbench?socket=/run/mysqld/mysqld.sock"
    );
}

#[test]
fn percent_escapes_in_credentials_are_decoded() {
    let u = TargetUrl::parse("mysql://a%40b:p%2Fw%3A@[::1]:3306/d").unwrap();
    assert_eq!(u.user, "a@b");
    assert_eq!(u.password.as_deref(), Some("p/w:"));
    assert_eq!(u.host, "::1");
    assert_eq!(u.to_string(), "mysql://a@b:***@[::1]:3306/d");
}

#[test]
fn refusals_name_the_problem_and_hide_the_password() {
    let e = TargetUrl::parse("oracle://u:hunter2@h/db").unwrap_err();
    assert!(matches!(e, UrlError::Scheme { .. }));
    let msg = e.to_string();
    assert!(
        msg.contains("'oracle'") && !msg.contains("hunter2"),
        "{msg}"
    );

    let e = TargetUrl::parse("mysql://u:hunter2@h:notaport/db").unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("invalid URL"), "{msg}");
    assert!(!msg.contains("hunter2"), "{msg}");

    let e = TargetUrl::parse("just words").unwrap_err();
    assert!(matches!(e, UrlError::Malformed { .. }));

    let e = TargetUrl::parse("mysql://u@h/db?sslmode=1").unwrap_err();
    assert!(e.to_string().contains("'sslmode'"));
}

#[test]
fn postgres_urls_take_libpq_defaults_and_a_socket_directory() {
    let u = TargetUrl::parse("postgresql://bench:pw@db:5433/tpcc").unwrap();
    assert_eq!(u.engine, Engine::Postgres);
    assert_eq!((u.port, u.user.as_str()), (5433, "bench"));
    assert_eq!(u.to_string(), "postgresql://bench:***@db:5433/tpcc");
    let u = TargetUrl::parse("postgres:///txbench?host=/tmp/sandbox").unwrap();
    assert_eq!((u.port, u.user.as_str()), (5432, "postgres"));
    assert_eq!(u.socket, Some(PathBuf::from("/tmp/sandbox")));
    assert_eq!(
        u.to_string(),
        "postgres://postgres@127.0.0.1:5432/txbench?host=/tmp/sandbox"
    );
    assert_eq!(TargetUrl::parse(&u.to_string()).unwrap(), u);
    let e = TargetUrl::parse("postgres://u@h/db?socket=/x").unwrap_err();
    assert!(e.to_string().contains("?host=/socket/directory"), "{e}");
    let e = TargetUrl::parse("mysql://u@h/db?host=/x").unwrap_err();
    assert!(e.to_string().contains("?socket=/path"), "{e}");
    // libpq's sslmode and sslrootcert, prefer by default; kept through display, and
    // refused by name where they do not belong.
    assert_eq!(u.sslmode, SslMode::Prefer);
    let u =
        TargetUrl::parse("postgres://b:pw@db/t?sslmode=verify-full&sslrootcert=/ca.pem").unwrap();
    assert_eq!(u.sslmode, SslMode::VerifyFull);
    assert_eq!(u.sslrootcert, Some(PathBuf::from("/ca.pem")));
    assert_eq!(
        u.to_string(),
        "postgres://b:***@db:5432/t?sslmode=verify-full&sslrootcert=/ca.pem"
    );
    assert_eq!(TargetUrl::parse(&u.with_secret()).unwrap(), u);
    assert!(u.sslmode.verifies() && u.sslmode.required());
    let e = TargetUrl::parse("postgres://u@h/db?sslmode=always").unwrap_err();
    assert!(
        e.to_string()
            .contains("sslmode=always: use disable, prefer"),
        "{e}"
    );
    let e = TargetUrl::parse("mysql://u@h/db?sslmode=require").unwrap_err();
    assert!(e.to_string().contains("unknown parameter 'sslmode'"), "{e}");
}

#[test]
fn local_means_loopback_or_a_socket() {
    let u = |s: &str| TargetUrl::parse(s).unwrap().is_local();
    assert!(u("mysql://a@127.0.0.1:3306/d"));
    assert!(u("mysql://a@127.0.0.2:3306/d"));
    assert!(u("mysql://a@localhost:3306/d"));
    assert!(u("mysql://a@[::1]:3306/d"));
    assert!(u("postgres://a@db.example.com:5432/d?host=/run/postgresql"));
    assert!(!u("mysql://a@db.example.com:3306/d"));
    assert!(!u("mysql://a@10.0.0.5:3306/d"));
}

#[test]
fn the_secret_form_parses_back_to_the_same_url() {
    for raw in [
        "mysql://u:p%40ss%2Fw%3Ard@127.0.0.1:3307/db",
        "postgres://txbench:s3cret@localhost:5433/txbench?host=/tmp/sock",
        "mysql://root@127.0.0.1:3306/txbench?socket=/run/mysqld.sock",
        "mariadb://us%20er:%E2%82%AC@[::1]:3306/db",
    ] {
        let u = TargetUrl::parse(raw).unwrap();
        let again = TargetUrl::parse(&u.with_secret()).unwrap();
        assert_eq!(again, u, "{raw}");
        assert!(!u.to_string().contains("s3cret"));
    }
}

#[test]
fn every_url_in_a_plan_is_redacted() {
    let plan = "[[variant]]\nname = \"a\"\nurl = \"mysql://u:pw1@127.0.0.1:3307/db\"\n\
                    [[variant]]\nurl='postgres://v:p w@h/db' # mysql://x:pw3@h\nrun = [\"--x\"]\n";
    let r = redact_urls_in(plan);
    assert!(
        !r.contains("pw1") && !r.contains("pw3") && !r.contains("p w"),
        "{r}"
    );
    assert!(r.contains("url='postgres://v:***@h/db'"), "{r}");
    assert!(
        r.contains("url = \"mysql://u:***@127.0.0.1:3307/db\"\n"),
        "{r}"
    );
    assert!(r.contains("# mysql://x:***@h\nrun = [\"--x\"]"), "{r}");
    assert_eq!(redact_urls_in("no urls"), "no urls");
}

#[test]
fn redact_handles_malformed_input() {
    assert_eq!(
        redact_url("mysql://u:p@ss/w?rd@host:x/db"),
        "mysql://u:***@host:x/db"
    );
    assert_eq!(redact_url("mysql://u@host/db"), "mysql://u@host/db");
    assert_eq!(redact_url("no scheme here"), "no scheme here");
    assert_eq!(redact_url("mysql://:pw@h"), "mysql://:***@h");
}
