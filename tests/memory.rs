//! The client's memory per connection stays flat however many responses it reads.
//!
//! Regression: mysql_common's codec read into all the spare capacity of a 4 MiB buffer and
//! consumed from the front, so every response touched fresh pages until 4 MiB per
//! connection were resident (vendor/mysql_common/TXBENCH-PATCH.md). Its own test binary, so
//! no other test allocates in this process meanwhile.

mod common;
use common::*;
use mysql::prelude::Queryable;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap()
}

#[test]
fn reading_many_responses_does_not_grow_the_connection() {
    let home = Home::new();
    let s = home.start("memory", &[]);
    let mut conn = s.conn();
    let stmt = conn.prep("SELECT REPEAT('x', 120), ?").unwrap();
    // Warm up allocator and buffers first.
    for i in 0..2_000u32 {
        conn.exec_drop(&stmt, (i,)).unwrap();
    }
    let before = rss_kib();
    // 20,000 responses of about 150 bytes: 3 MB of fresh pages if the buffer walks.
    for i in 0..20_000u32 {
        conn.exec_drop(&stmt, (i,)).unwrap();
    }
    let grown = rss_kib().saturating_sub(before);
    assert!(
        grown < 1024,
        "RSS grew by {grown} KiB reading 20,000 small responses"
    );
}

/// Regression: the mysql crate kept a column definition for every parameter of every
/// prepared statement; TPC-C's New-Order statements (up to 210 parameters each, prepared once
/// per row count) made that about 300 KiB per virtual user (vendor/mysql/TXBENCH-PATCH.md,
/// patch 3). The patched driver keeps the count and drops the definitions.
#[test]
fn prepared_statements_keep_their_parameter_count_but_not_their_definitions() {
    let home = Home::new();
    let s = home.start("params", &[]);
    let mut conn = s.conn();
    let n = 300;
    let sql = format!("SELECT {}", vec!["?"; n].join(" + "));
    let stmt = conn.prep(&sql).unwrap();
    assert_eq!(usize::from(stmt.num_params()), n);
    assert!(
        stmt.params().is_empty(),
        "{} parameter definitions kept: the vendored mysql's patch 3 is gone",
        stmt.params().len()
    );
    // Execution still binds every parameter by its value.
    let sum: Option<i64> = conn.exec_first(&stmt, vec![2i64; n]).unwrap();
    assert_eq!(sum, Some(2 * n as i64));
}

/// Every execute that returns rows stores the statement's columns. The crate kept them in an
/// ArcSwap, whose store walks a list of every thread that ever loaded one: at 2,000 virtual
/// users that walk was 65 % of the client's CPU (vendor/mysql/TXBENCH-PATCH.md, patch 5). The
/// patched driver keeps them behind the statement's own mutex; the columns stay right.
#[test]
fn statements_keep_their_columns_without_a_process_wide_list() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    assert!(
        !lock.contains("name = \"arc-swap\""),
        "arc-swap is back in Cargo.lock: the vendored mysql's patch 5 is gone"
    );
    let home = Home::new();
    let s = home.start("columns", &[]);
    let mut conn = named_conn(&s);
    let stmt = conn.prep("SELECT ? AS a, ? AS b").unwrap();
    for i in 0..3i64 {
        let rows: Vec<mysql::Row> = conn.exec(&stmt, (i, i + 1)).unwrap();
        let names: Vec<String> = rows[0]
            .columns_ref()
            .iter()
            .map(|c| c.name_str().into_owned())
            .collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(rows[0].get::<i64, _>(1), Some(i + 1));
    }
    assert_eq!(stmt.columns().len(), 2);
}

/// A connection with txbench's options but the crate's default for column names: kept.
fn named_conn(s: &Server) -> mysql::Conn {
    let opts = txbench::engine::mysql::opts(&s.login_url());
    mysql::Conn::new(mysql::OptsBuilder::from_opts(opts).column_names(true)).unwrap()
}

/// txbench's connections keep a prepared statement's column types, not their names (vendor
/// mysql patch 7: the names of a TPC-C connection's IN-list variants were about 30 KiB of
/// every virtual user): the statement's columns are nameless, its rows still decode by type,
/// and a connection with the crate's defaults keeps the names.
#[test]
fn txbench_statements_keep_their_column_types_and_not_their_names() {
    let home = Home::new();
    let s = home.start("nameless", &[]);
    let mut conn = s.engine_conn();
    let st = conn
        .prep("SELECT ? AS a, CAST(? AS UNSIGNED) AS b, CAST(? AS DECIMAL(6,2)) AS c, ? AS d, CAST(? AS DATE) AS e, NULL AS f")
        .unwrap();
    let txbench::engine::Stmt::Mysql(inner, _) = &st else {
        panic!("a MariaDB statement")
    };
    assert_eq!(inner.columns().len(), 6);
    assert!(
        inner.columns().iter().all(|c| c.name_ref().is_empty()
            && c.table_ref().is_empty()
            && c.schema_ref().is_empty()),
        "names kept: {:?}",
        inner.columns()
    );
    for i in 0..3i64 {
        let row: Option<(i64, u64, String, f64, txbench::engine::Value, Option<i64>)> = conn
            .exec_first(&st, (-i, u64::MAX - i as u64, "12.5", 0.25, "2026-11-28"))
            .unwrap();
        let (a, b, c, d, e, f) = row.expect("a row");
        assert_eq!(
            (a, b, c.as_str(), d, f),
            (-i, u64::MAX - i as u64, "12.50", 0.25, None)
        );
        assert!(
            matches!(&e, txbench::engine::Value::Text(t) if t == "2026-11-28"),
            "{e:?}"
        );
    }
    let kept = named_conn(&s).prep("SELECT 1 AS a").unwrap();
    assert_eq!(kept.columns()[0].name_str(), "a");
}

fn environ(pid: u32) -> Vec<String> {
    std::fs::read(format!("/proc/{pid}/environ"))
        .unwrap()
        .split(|&b| b == 0)
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .collect()
}

/// glibc's per-thread cache kept about 67 KiB per virtual user (src/malloc.rs): txbench runs
/// with it off, and the servers it starts do not inherit the setting.
#[test]
fn txbench_runs_without_glibcs_thread_cache_and_its_servers_do_not_inherit_that() {
    let home = Home::new();
    let s = point_select_server(&home, "tuned");
    let server_env = environ(s.pid as u32);
    assert!(
        !server_env
            .iter()
            .any(|v| v.starts_with("GLIBC_TUNABLES=") || v.starts_with("TXBENCH_MALLOC_TUNED=")),
        "{server_env:?}"
    );
    let mut child = home
        .std_cmd()
        .args([
            "--url",
            &s.url,
            "-q",
            "run",
            "oltp_point_select",
            "--time",
            "3",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The process re-executes itself first thing; a second is plenty.
    std::thread::sleep(std::time::Duration::from_secs(1));
    let env = environ(child.id());
    // Re-executed as its own file, it keeps its name (ps, perf, the client's profile).
    let comm = std::fs::read_to_string(format!("/proc/{}/comm", child.id())).unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(comm.trim(), "txbench");
    assert!(
        env.iter()
            .any(|v| v == "GLIBC_TUNABLES=glibc.malloc.tcache_count=0"),
        "{env:?}"
    );
}
