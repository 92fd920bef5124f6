//! Unit tests of `workload/oltp.rs`, beside it so the subject stays readable.

use super::*;

#[test]
fn statement_counts_match_sysbench_defaults() {
    let o = OltpOptions::default();
    let c = o.statements_per_txn(OltpKind::ReadWrite);
    assert_eq!((c.reads, c.writes, c.other), (14, 4, 2));
    let c = o.statements_per_txn(OltpKind::ReadOnly);
    assert_eq!((c.reads, c.writes, c.other), (14, 0, 2));
    let c = o.statements_per_txn(OltpKind::WriteOnly);
    assert_eq!((c.reads, c.writes, c.other), (0, 4, 2));
    let c = o.statements_per_txn(OltpKind::PointSelect);
    assert_eq!(c.total(), 1);
    let skip = OltpOptions {
        skip_trx: true,
        range_selects: false,
        ..o
    };
    let c = skip.statements_per_txn(OltpKind::ReadWrite);
    assert_eq!((c.reads, c.writes, c.other), (10, 4, 0));
}

#[test]
fn each_script_prepares_only_what_it_runs() {
    let o = OltpOptions::default();
    assert_eq!(OltpKind::PointSelect.statements(&o), vec![Sql::Point]);
    assert_eq!(OltpKind::ReadWrite.statements(&o).len(), 9);
    assert_eq!(OltpKind::ReadOnly.statements(&o).len(), 5);
    let no_ranges = OltpOptions {
        range_selects: false,
        ..o
    };
    assert_eq!(OltpKind::ReadOnly.statements(&no_ranges), vec![Sql::Point]);
}

#[test]
fn ddl_follows_the_options() {
    let o = OltpOptions::default();
    assert_eq!(
        create_table_sql(&o, 3, Engine::Mysql),
        "CREATE TABLE sbtest3(id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB"
    );
    let s = OltpOptions {
        secondary: true,
        auto_inc: false,
        ..o
    };
    let sql = create_table_sql(&s, 1, Engine::Mysql);
    assert!(sql.contains("id INTEGER NOT NULL,") && sql.contains("KEY xid (id)"));
    // sysbench's pgsql DDL: SERIAL with --auto-inc, no engine clause.
    assert_eq!(
        create_table_sql(&o, 3, Engine::Postgres),
        "CREATE TABLE sbtest3 (id SERIAL NOT NULL, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id))"
    );
    assert!(!create_table_sql(&s, 1, Engine::Postgres).contains("PRIMARY KEY"));
}

#[test]
fn templates_have_sysbench_lengths() {
    assert_eq!(C_TEMPLATE.len(), 119);
    assert_eq!(PAD_TEMPLATE.len(), 59);
}

#[test]
fn validation_names_the_flag() {
    let cases = [
        (
            OltpOptions {
                range_size: 0,
                ..Default::default()
            },
            "--range-size",
        ),
        (
            OltpOptions {
                tables: 0,
                ..Default::default()
            },
            "--tables",
        ),
        (
            OltpOptions {
                table_size: 0,
                ..Default::default()
            },
            "--table-size",
        ),
        (
            OltpOptions {
                rand: Distribution::Pareto { h: 1.5 },
                ..Default::default()
            },
            "--rand-pareto-h",
        ),
        (
            OltpOptions {
                rand: Distribution::Zipfian { exp: -1.0 },
                ..Default::default()
            },
            "--rand-zipfian-exp",
        ),
    ];
    for (bad, flag) in cases {
        let e = bad.validate().unwrap_err().to_string();
        assert!(e.starts_with(flag), "{flag}: {e}");
    }
    // A range longer than the table is allowed, as in sysbench.
    let long = OltpOptions {
        range_size: 100,
        table_size: 20,
        ..Default::default()
    };
    assert!(long.validate().is_ok());
}
