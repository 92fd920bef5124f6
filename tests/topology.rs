//! Topologies against real sandboxes: a primary with a replica (asynchronous and
//! semi-synchronous), the check that replicas converged, and faults.

mod common;

use common::{Home, assert_one_line_error, assert_schema_valid, result_json, text};
use mysql::prelude::Queryable;

fn prepare_tpcc(h: &Home, url: &str) {
    let out = h
        .cmd()
        .args(["--url", url, "prepare", "tpcc", "--warehouses", "1", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
}

fn member_url(s: &common::Server, i: usize) -> String {
    s.json["members"][i]["url"]
        .as_str()
        .expect("member url")
        .to_string()
}

fn conn_to(url: &str) -> mysql::Conn {
    txbench::target::connect(&txbench::target::TargetUrl::parse(url).unwrap()).unwrap()
}

#[test]
fn an_async_replica_converges_and_a_diverged_one_fails_the_check() {
    let h = Home::new();
    let p = h.start("p", &["--replicas", "1"]);
    assert_eq!(p.json["role"]["kind"], "primary");
    let replica = member_url(&p, 0);
    prepare_tpcc(&h, &p.url);

    let dir = h.path().join("run");
    let out = h
        .cmd()
        .args([
            "--url",
            &p.url,
            "run",
            "tpcc",
            "--threads",
            "4",
            "--time",
            "10",
        ])
        .args(["--report-interval", "2", "--check", "--json", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    assert_schema_valid(&r);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    assert_eq!(r["server"]["topology"]["role"], "primary");
    let notes = r["notes"].to_string();
    assert!(
        notes.contains("have the primary's checksums"),
        "the run's check must say the replica converged: {notes}"
    );
    // Lag per interval, with the other server metrics.
    let csv = std::fs::read_to_string(dir.join("server.csv")).unwrap();
    let rows = txbench::metrics::server::ServerRow::parse_csv(&csv);
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|r| r.get("replica_gtid_behind").is_some()
                && r.get("replicas_running") == Some(1.0)),
        "{csv}"
    );

    // `check` verifies the replica too, and prints it.
    let out = h
        .cmd()
        .args(["--url", &p.url, "check", "tpcc"])
        .output()
        .unwrap();
    let (stdout, _) = text(&out);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(stdout.contains("have the primary's checksums"), "{stdout}");

    // A replica whose data differs from the primary's (written to directly) fails it.
    conn_to(&replica)
        .query_drop("UPDATE warehouse SET w_ytd = w_ytd + 1")
        .unwrap();
    let out = h
        .cmd()
        .args(["--url", &p.url, "check", "tpcc"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("replica check failed") && line.contains("warehouse"),
        "{line}"
    );
}

#[test]
fn a_semisync_replica_killed_mid_run_is_an_event_and_fails_the_check() {
    let h = Home::new();
    // Fall back to asynchronous after 1 s without an acknowledgement (10 s by default).
    let p = h.start(
        "s",
        &[
            "--replicas",
            "1",
            "--semisync",
            "--set",
            "rpl_semi_sync_master_timeout=1000",
        ],
    );
    prepare_tpcc(&h, &p.url);
    // Converged first: semi-sync replicates TPC-C like async.
    let dir = h.path().join("before");
    let out = h
        .cmd()
        .args([
            "--url",
            &p.url,
            "run",
            "tpcc",
            "--threads",
            "4",
            "--time",
            "10",
        ])
        .args(["--check", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    assert!(
        r["server"]["topology"]["semisync"]
            .as_str()
            .unwrap()
            .starts_with("ON")
    );
    assert!(
        r["notes"]
            .to_string()
            .contains("have the primary's checksums")
    );

    let replica_pid = p.json["members"][0]["pid"].as_i64().unwrap() as i32;
    let dir = h.path().join("killed");
    let child = h
        .std_cmd()
        .args([
            "--url",
            &p.url,
            "run",
            "tpcc",
            "--threads",
            "4",
            "--time",
            "12",
        ])
        .args(["--report-interval", "1", "-q", "--out"])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Kill the replica once the run measures.
    let t = std::time::Instant::now();
    while !dir.join("intervals.csv").exists() && t.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_secs(3));
    // SAFETY: a plain kill of a pid this test started.
    unsafe { libc::kill(replica_pid, libc::SIGKILL) };
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the primary keeps serving: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    let events = r["events"].to_string();
    assert!(
        events.contains("fell back to asynchronous"),
        "semi-sync's fallback is an event: {events}"
    );
    assert!(
        events.contains("0 replica(s) replicating (was 1)"),
        "{events}"
    );
    // The last intervals commit again, asynchronously.
    let last = r["intervals"].as_array().unwrap().last().unwrap().clone();
    assert!(last["tps"].as_f64().unwrap() > 0.0, "{last}");

    // The dead replica is still expected by `check`: it fails, naming it.
    let out = h
        .cmd()
        .args(["--url", &p.url, "check", "tpcc"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("replica check failed"), "{line}");
}

#[test]
fn stop_rm_removes_every_member_and_a_member_cannot_be_removed_alone() {
    let h = Home::new();
    let p = h.start("t", &["--replicas", "2"]);
    assert_eq!(p.json["members"].as_array().unwrap().len(), 2);
    let out = h.cmd().args(["server", "list"]).output().unwrap();
    let (stdout, _) = text(&out);
    assert!(
        stdout.contains("replica of t (async): replicating"),
        "{stdout}"
    );
    let out = h
        .cmd()
        .args(["server", "stop", "--rm", "t-r1"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("server stop --rm t"), "{line}");
    drop(p);
    for name in ["t", "t-r1", "t-r2"] {
        assert!(!h.path().join("servers").join(name).exists(), "{name}");
    }
}

#[test]
fn impossible_topologies_are_refused_by_flag_before_anything_is_created() {
    let h = Home::new();
    for (args, want) in [
        (
            vec!["--replicas", "0"],
            "Error: --replicas 0: give 1 or more",
        ),
        (
            vec!["--galera", "1"],
            "Error: --galera 1: a Galera cluster needs 2 nodes",
        ),
        (
            vec!["--semisync"],
            "Error: --semisync: it needs --replicas N",
        ),
    ] {
        let out = h
            .cmd()
            .args(["server", "start", "bad"])
            .args(&args)
            .output()
            .unwrap();
        let line = assert_one_line_error(&out, 1);
        assert!(line.starts_with(want), "{args:?}: {line}");
        assert!(!h.path().join("servers").join("bad").exists());
    }
    let out = h
        .cmd()
        .args(["server", "start", "bad", "--replicas", "1", "--galera", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("--galera"), "{:?}", text(&out));
}
