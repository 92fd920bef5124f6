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

/// Waits (at most 60 s) until the run writing into `dir` has its first interval.
fn wait_until_measuring(dir: &std::path::Path) {
    let t = std::time::Instant::now();
    while !dir.join("intervals.csv").exists() && t.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// The administrator's connection to member `i` (root through its socket: a replica is
/// read-only to the benchmark user).
fn admin_conn_to(h: &Home, s: &common::Server, i: usize) -> mysql::Conn {
    let name = s.json["members"][i]["name"].as_str().expect("member name");
    let record: serde_json::Value = serde_json::from_slice(
        &std::fs::read(h.path().join("servers").join(name).join("server.json")).unwrap(),
    )
    .unwrap();
    let mut url = common::login(h.path(), &member_url(s, i));
    url.user = "root".into();
    url.password = None;
    url.socket = Some(record["socket"].as_str().unwrap().into());
    txbench::engine::mysql::connect(&url).unwrap()
}

#[test]
fn an_async_replica_converges_and_a_diverged_one_fails_the_check() {
    let h = Home::new();
    let p = h.start("p", &["--replicas", "1"]);
    assert_eq!(p.json["role"]["kind"], "primary");
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
    admin_conn_to(&h, &p, 0)
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

    // The primary killed mid-run: INVALID, exit 3, the intervals before it kept.
    let dir = h.path().join("primary-killed");
    let child = h
        .std_cmd()
        .args([
            "--url",
            &p.url,
            "run",
            "tpcc",
            "--threads",
            "2",
            "--time",
            "60",
        ])
        .args(["--report-interval", "1", "-q", "--out"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until_measuring(&dir);
    std::thread::sleep(std::time::Duration::from_secs(2));
    // SAFETY: a plain kill of the primary this test started.
    unsafe { libc::kill(p.pid, libc::SIGKILL) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    let r = result_json(&dir);
    assert_eq!(r["status"], "aborted");
    assert_eq!(r["validity"]["valid"], false);
    // The cause first, whichever rule fired first (on a slow machine the failed New-Orders
    // stop the run before the monitor's 10 s of refusals would).
    assert!(
        r["validity"]["reasons"][0]
            .as_str()
            .unwrap()
            .contains("the server has been unreachable"),
        "{}",
        r["validity"]
    );
    assert!(
        r["intervals"].as_array().unwrap().len() >= 2,
        "results kept"
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
    wait_until_measuring(&dir);
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

#[test]
fn a_galera_cluster_runs_over_every_node_survives_one_killed_and_losing_quorum_is_invalid() {
    let h = Home::new();
    let g = h.start("g", &["--galera", "3"]);
    assert_eq!(g.json["members"].as_array().unwrap().len(), 2);
    // Procedures: client-side prepared statements lose updates on a multi-writer MariaDB
    // 10.11 cluster (see docs/ARCHITECTURE.md); this test is about the topology.
    // Three warehouses for six virtual users dealt over three nodes: each node's terminals
    // share one home warehouse, so certification conflicts come only from remote rows (with
    // two warehouses every node wrote the same warehouse rows: 3.5 % of Payments and, on a
    // loaded CI machine, 1 % of New-Orders failed after their retries and ended the run).
    let out = h
        .cmd()
        .args(["--url", &g.url, "prepare", "tpcc", "--warehouses", "3"])
        .args(["--procedures", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let nodes = ["g", "g-g2", "g-g3"];
    let pid_of = |i: usize| g.json["members"][i - 1]["pid"].as_i64().unwrap() as i32;

    let dir = h.path().join("killed");
    let child = h
        .std_cmd()
        .args([
            "run",
            "tpcc",
            "--procedures",
            "--threads",
            "6",
            "--time",
            "25",
            "--retries",
            "10",
        ])
        .args(["--report-interval", "1", "-q", "--out"])
        .arg(&dir)
        .args(nodes.iter().flat_map(|n| ["--server", n]))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until_measuring(&dir);
    std::thread::sleep(std::time::Duration::from_secs(8));
    // SAFETY: a plain kill of a pid this test started.
    unsafe { libc::kill(pid_of(2), libc::SIGKILL) };
    let out = child.wait_with_output().unwrap();
    let r = result_json(&dir);
    assert_schema_valid(&r);
    // The run goes on to its end on the two survivors. It may still be INVALID: transactions
    // in flight when the node died can be committed by the cluster although their clients saw
    // an error (then retried), which the New-Order count and Com_commit cross-checks catch; a
    // lost quorum or every target lost must not be among the reasons.
    assert_eq!(r["status"], "completed", "{}", r["validity"]);
    let reasons = r["validity"]["reasons"].as_array().unwrap();
    // Nor may a stall other than the cluster's own eviction of the dead node: until it
    // suspects it (evs.suspect_timeout, 5 s), every commit waits for certification, and a
    // stall of a fifth of the run is INVALID as any other (its length is in the reason).
    assert!(
        out.status.success()
            || reasons.iter().all(|x| {
                let x = x.as_str().unwrap();
                x.starts_with("the server counted")
                    || x.contains("New-Order transactions failed")
                    || x.contains("was blocked inside a transaction")
            }),
        "the cluster survives one node: {} {}",
        String::from_utf8_lossy(&out.stderr),
        r["validity"]
    );
    let last = r["intervals"].as_array().unwrap().last().unwrap().clone();
    assert!(
        last["tps"].as_f64().unwrap() > 0.0,
        "it serves after: {last}"
    );
    let events = r["events"].to_string();
    assert!(events.contains("has 2 node(s) (was 3)"), "{events}");
    assert!(events.contains("target 3"), "{events}");
    let targets = r["summary"]["targets"].as_array().unwrap().clone();
    assert_eq!(targets.len(), 3);
    let moved: u64 = targets
        .iter()
        .map(|t| t["reconnects"].as_u64().unwrap())
        .sum();
    assert!(moved >= 2, "node 3's two virtual users moved: {targets:?}");
    assert!(targets[0]["conflicts"]["cert_failures"].is_number());
    let rows = r["intervals"].as_array().unwrap();
    assert!(
        rows.iter()
            .all(|i| i["targets"].as_array().unwrap().len() == 3)
    );
    // The survivors hold consistent data.
    let out = h
        .cmd()
        .args(["--url", &g.url, "check", "tpcc"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));

    // One of the two left killed mid-run: the other loses quorum, the run is INVALID.
    let dir = h.path().join("quorum");
    let child = h
        .std_cmd()
        .args([
            "run",
            "tpcc",
            "--procedures",
            // One virtual user per node, each on its own warehouse: no conflicts to end the
            // run before the quorum is lost.
            "--threads",
            "2",
            "--time",
            "20",
        ])
        .args(["--report-interval", "1", "-q", "--out"])
        .arg(&dir)
        .args(["--server", "g", "--server", "g-g2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until_measuring(&dir);
    std::thread::sleep(std::time::Duration::from_secs(2));
    // SAFETY: as above.
    unsafe { libc::kill(pid_of(1), libc::SIGKILL) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = result_json(&dir);
    let reasons = r["validity"]["reasons"].to_string();
    // Whichever comes first: the sampler's view of the node, or the clients' refused queries.
    assert!(
        reasons.contains("lost quorum") || reasons.contains("WSREP has not yet prepared node"),
        "{reasons}"
    );
    assert!(
        !r["intervals"].as_array().unwrap().is_empty(),
        "results kept"
    );
}

#[test]
fn galera_nodes_that_name_different_databases_are_checked_each_on_its_own() {
    // Two nodes of one cluster, each target naming a database of its own: their tables hold
    // each target's New-Orders, not the cluster's (they were counted as one shared set: the
    // first database's count against both targets' total made the run INVALID, and --check
    // checked the first database only).
    let h = Home::new();
    let g = h.start("gdb", &["--galera", "2"]);
    let mut second = txbench::engine::TargetUrl::parse(&member_url(&g, 0)).unwrap();
    second.database = "txbench_b".into();
    let second = second.to_string();
    g.exec(&["CREATE DATABASE txbench_b"]);
    for url in [&g.url, &second] {
        let out = h
            .cmd()
            .args([
                "--url",
                url,
                "prepare",
                "tpcc",
                "--warehouses",
                "1",
                "--procedures",
                "-q",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
    }
    let dir = h.path().join("two-dbs");
    let out = h
        .cmd()
        .args([
            "--url",
            &g.url,
            "--url",
            &second,
            "run",
            "tpcc",
            "--procedures",
            "--check",
        ])
        .args([
            "--threads",
            "2",
            "--time",
            "4",
            "--report-interval",
            "1",
            "-q",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let r = result_json(&dir);
    assert!(out.status.success(), "{:?} {}", text(&out), r["validity"]);
    let checks = r["summary"]["server"]["cross_checks"].to_string();
    assert!(
        checks.contains("target 2: New-Orders"),
        "each target's New-Orders against its own: {checks}"
    );
    let notes = r["notes"].to_string();
    assert!(
        notes.contains("conditions 1-10 and 12 pass on every target"),
        "--check checked the second database: {notes}"
    );
}

#[test]
fn two_targets_report_each_one_beside_the_total() {
    let h = Home::new();
    let a = common::point_select_server(&h, "a");
    let b = h.start("b", &[]);
    // b lacks the data: refused before anything runs, naming it.
    let out = h
        .cmd()
        .args(["--url", &a.url, "--url", &b.url, "run", "oltp_point_select"])
        .args(["--table-size", "1000", "--time", "1"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains(&format!("target {}", b.url)), "{line}");
    let out = h
        .cmd()
        .args([
            "--url",
            &b.url,
            "prepare",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));

    let dir = h.path().join("two");
    let out = h
        .cmd()
        .args([
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
            "--threads",
            "5",
        ])
        .args(["--time", "3", "--report-interval", "1", "--out"])
        .arg(&dir)
        .args(["--server", "a", "--server", "b"])
        .output()
        .unwrap();
    let (stdout, _) = text(&out);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(stdout.contains("targets tps: "), "{stdout}");
    let r = result_json(&dir);
    assert_schema_valid(&r);
    assert_eq!(r["config"]["targets"].as_array().unwrap().len(), 2);
    let s = &r["summary"];
    let t = s["targets"].as_array().unwrap();
    assert_eq!(t.len(), 2);
    assert_eq!(t[0]["threads"], 3);
    assert_eq!(t[1]["threads"], 2);
    let sum: u64 = t.iter().map(|x| x["transactions"].as_u64().unwrap()).sum();
    assert_eq!(sum, s["transactions"].as_u64().unwrap());
    assert!(t.iter().all(|x| x["transactions"].as_u64().unwrap() > 0));
    // Each instance's own counters agree with its share.
    let checks = s["server"]["cross_checks"].as_array().unwrap();
    for n in ["target 1: ", "target 2: "] {
        assert!(
            checks
                .iter()
                .any(|c| c["what"].as_str().unwrap().starts_with(n) && c["agrees"] == true),
            "{checks:?}"
        );
    }
    assert!(dir.join("target-2").join("server.csv").is_file());

    // The same target twice, and several targets for a one-target command.
    let out = h
        .cmd()
        .args(["--url", &a.url, "--url", &a.url, "run", "oltp_point_select"])
        .output()
        .unwrap();
    assert_one_line_error(&out, 2);
    let out = h
        .cmd()
        .args([
            "--url",
            &a.url,
            "--url",
            &b.url,
            "check",
            "oltp_point_select",
        ])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 2).contains("only `run` takes several"));
}
