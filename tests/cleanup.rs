//! `cleanup` drops only what txbench made (txbench_meta says which workload made which
//! tables): another user's tables of the same names, another workload's database and sbtest
//! tables beyond the prepared --tables stay, on both engines, against real sandboxes.

mod common;
use common::*;

fn txbench(home: &Home, s: &Server, args: &[&str]) -> std::process::Output {
    home.cmd()
        .args(["--url", &s.url])
        .args(args)
        .output()
        .unwrap()
}

fn present(s: &Server, table: &str) -> bool {
    let schema = match s.db() {
        Db::MariaDb => "DATABASE()",
        Db::Postgres => "current_schema()",
    };
    s.count(&format!(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = {schema} AND table_name = '{table}'"
    )) == 1
}

fn cleanup_drops_only_what_txbench_made(db: Db) {
    let home = Home::new();
    let s = home.start_db(db, "cleanup", &[]);
    // Someone else's tables that share the workloads' names, and no txbench_meta.
    s.exec(&[
        "CREATE TABLE customer (c_id INT PRIMARY KEY)",
        "CREATE TABLE sbtest1 (id INT PRIMARY KEY)",
        "CREATE TABLE pgbench_tellers (tid INT PRIMARY KEY)",
    ]);
    for (workload, table) in [
        ("tpcc", "customer"),
        ("oltp_read_write", "sbtest1"),
        ("tpcb", "pgbench_tellers"),
    ] {
        let out = txbench(&home, &s, &["cleanup", workload]);
        let line = assert_one_line_error(&out, 1);
        assert_eq!(
            line,
            format!(
                "Error: txbench did not create {table} in this database (txbench_meta records no workload): cleanup drops only txbench's own tables, so it drops nothing"
            ),
            "{db:?} {workload}"
        );
        assert!(present(&s, table), "{db:?}: {table} was dropped");
    }

    // txbench's oltp tables beside a user's sbtest7 and customer: cleanup of another
    // workload drops nothing, cleanup of oltp drops the prepared table only.
    s.exec(&[
        "DROP TABLE sbtest1",
        "CREATE TABLE sbtest7 (id INT PRIMARY KEY)",
    ]);
    let out = txbench(
        &home,
        &s,
        &["prepare", "oltp_point_select", "--table-size", "100"],
    );
    assert!(out.status.success(), "{db:?}: {:?}", text(&out));
    let out = txbench(&home, &s, &["cleanup", "tpcc"]);
    assert_eq!(
        assert_one_line_error(&out, 1),
        "Error: the database holds the oltp_point_select workload, not tpcc: cleanup drops nothing (run `txbench cleanup oltp_point_select`)"
    );
    assert!(present(&s, "customer"), "{db:?}");
    let out = txbench(&home, &s, &["cleanup", "oltp_read_write"]);
    assert!(
        text(&out).0.contains("dropped 1 sbtest table(s)"),
        "{db:?}: {:?}",
        text(&out)
    );
    assert!(!present(&s, "sbtest1"), "{db:?}");
    assert!(
        present(&s, "sbtest7"),
        "{db:?}: the user's sbtest7 was dropped"
    );
    assert!(present(&s, "customer") && present(&s, "pgbench_tellers"));
}

#[test]
fn cleanup_drops_only_what_txbench_made_on_mariadb() {
    cleanup_drops_only_what_txbench_made(Db::MariaDb);
}

#[test]
fn cleanup_drops_only_what_txbench_made_on_postgres() {
    cleanup_drops_only_what_txbench_made(Db::Postgres);
}
