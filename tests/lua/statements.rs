//! tests/lua.rs's side by side with sysbench itself, on its MariaDB server (a sibling file:
//! lua.rs is long enough): the same script sends the same statements per event.

use super::common::{self, Home};
use super::{SYSBENCH, ok, txbench};

const COUNTERS: [&str; 10] = [
    "COM_BEGIN",
    "COM_COMMIT",
    "COM_ROLLBACK",
    "COM_SELECT",
    "COM_INSERT",
    "COM_UPDATE",
    "COM_DELETE",
    "COM_STMT_PREPARE",
    "COM_STMT_EXECUTE",
    "COM_STMT_CLOSE",
];

/// The server's statement counters, read in one statement.
fn counters(s: &common::Server) -> Vec<(String, u64)> {
    let list = COUNTERS.map(|c| format!("'{c}'")).join(",");
    s.sql(&format!(
        "SELECT VARIABLE_NAME, CAST(VARIABLE_VALUE AS UNSIGNED) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ({list}) ORDER BY VARIABLE_NAME"
    ))
}

/// What `run` added to each counter.
fn added(s: &common::Server, run: impl FnOnce()) -> Vec<(String, u64)> {
    let before = counters(s);
    run();
    counters(s)
        .into_iter()
        .zip(before)
        .map(|((name, after), (_, b))| (name, after - b))
        .collect()
}

/// 1,000 events of oltp_read_write.lua from sysbench 1.0 and from txbench, one thread each
/// (two collide in deadlocks now and then, and each tool rightly runs a restarted event's
/// statements again), on the tables the caller prepared (2 of 1,000 rows): every statement
/// counter of the server grows by the same within 20 (txbench's own few SELECTs around a
/// run; one more statement per event would be 1,000). scripts/compare-statements-sysbench.sh prints
/// every oltp_* script's.
pub(super) fn same_statements_per_event_as_sysbench(home: &Home, s: &common::Server) {
    let rw = format!("{SYSBENCH}/oltp_read_write.lua");
    let u = s.login_url();
    // The password in a file only its owner reads, not on a command line every local user
    // can read.
    let cfg = home.path().join("sysbench.cfg");
    let password = u.password.clone().unwrap_or_default();
    txbench::server::private::write(&cfg, &format!("mysql-password={password}\n"), None).unwrap();
    let sb = added(s, || {
        let out = std::process::Command::new("sysbench")
            .arg(format!("--config-file={}", cfg.display()))
            .args(["--db-driver=mysql", "--mysql-host=127.0.0.1"])
            .arg(format!("--mysql-port={}", u.port))
            .arg(format!("--mysql-user={}", u.user))
            .arg(format!("--mysql-db={}", u.database))
            .args(["--tables=2", "--table-size=1000", "--threads=1"])
            .args(["--events=1000", "--time=0", &rw, "run"])
            .output()
            .unwrap();
        assert!(out.status.success(), "sysbench: {:?}", common::text(&out));
    });
    let tx = added(s, || {
        let args = ["run", "lua", &rw, "--tables", "2", "--table-size=1000"];
        let more = ["--threads=1", "--events=1000", "--time=600", "-q"];
        ok(
            &txbench(home, &s.url, &[&args[..], &more].concat()),
            "1,000 events",
        );
    });
    assert_eq!(sb.len(), COUNTERS.len(), "{sb:?}");
    for ((name, a), (_, b)) in sb.iter().zip(&tx) {
        assert!(
            a.abs_diff(*b) <= 20,
            "{name}: sysbench {a}, txbench {b}\n{sb:?}\n{tx:?}"
        );
    }
    // The runs did what the script says: 14 SELECTs per event (10 points, 4 ranges).
    let select = sb.iter().find(|(n, _)| n == "COM_SELECT").unwrap().1;
    assert!(select >= 14_000, "{sb:?}");
}
