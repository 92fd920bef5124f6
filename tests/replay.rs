//! `txbench replay` against a real primary and replica: the catch-up measured, the replica's
//! New-Orders agreeing with the primary's, a replica slowed on purpose measured slower (by
//! catch-up and by the balanced-rate search), a filtered replica and a broken applier
//! INVALID within a bound, and the refusals. The tests that start servers run one at a time
//! (`common::serial`).

mod common;

use common::{Cleanup, Home, assert_one_line_error, experiment_ok, result_json, serial, text};
use mysql::prelude::Queryable;
use serde_json::Value;

/// Seconds the throttling trigger sleeps per order the replica applies.
const SLEEP_PER_ORDER: f64 = 0.05;

/// The administrator's connection to the replica (root through its socket: the replica is
/// read-only to the benchmark user).
fn replica_admin(h: &Home, s: &common::Server) -> mysql::Conn {
    let name = s.json["members"][0]["name"].as_str().expect("member name");
    let record: Value = serde_json::from_slice(
        &std::fs::read(h.path().join("servers").join(name).join("server.json")).unwrap(),
    )
    .unwrap();
    let url = s.json["members"][0]["url"].as_str().expect("member url");
    let mut url = common::login(h.path(), url);
    url.user = "root".into();
    url.password = None;
    url.socket = Some(record["socket"].as_str().unwrap().into());
    txbench::engine::mysql::connect(&url).unwrap()
}

/// `replay --json` with a fixed primary load (open loop, so both replays get the same):
/// its output, and its JSON when it printed one.
fn replay(h: &Home, dir: &str) -> (std::process::Output, Value) {
    let out = h
        .cmd()
        .args(["replay", "--server", "p", "--time", "3", "--threads", "2"])
        .args([
            "--rate",
            "80",
            "--catch-up-timeout",
            "60",
            "--json",
            "--out",
            dir,
        ])
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out, v)
}

/// `replay --balanced --json` with `args`: its output and its JSON.
fn balanced(h: &Home, dir: &str, args: &[&str]) -> (std::process::Output, Value) {
    let out = h
        .cmd()
        .args(["replay", "--server", "p", "--balanced", "--threads", "2"])
        .args(args)
        .args(["--catch-up-timeout", "60", "--json", "--out", dir])
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out, v)
}

/// What every search's probes must show: the rule applied as stated, each probe's run
/// labelled and stored, the file the same as the output.
fn check_probes(h: &Home, dir: &str, b: &Value) {
    let tolerance = f(b, &["tolerance_s"]);
    let probes = b["probes"].as_array().expect("probes");
    assert!(!probes.is_empty(), "{b}");
    for p in probes {
        let kept = p["kept_up"].as_bool().unwrap();
        assert_eq!(kept, f(p, &["lag_s"]) <= tolerance, "{p}");
        assert!(p["written"].as_u64().unwrap() > 0, "{p}");
        let run = result_json(&h.path().join(dir).join(p["run_dir"].as_str().unwrap()));
        assert_eq!(run["config"]["labels"]["replay"], "balanced", "{p}");
    }
    let stored: Value =
        serde_json::from_slice(&std::fs::read(h.path().join(dir).join("balanced.json")).unwrap())
            .unwrap();
    assert_eq!(&stored, b);
}

fn f(v: &Value, path: &[&str]) -> f64 {
    path.iter()
        .fold(v, |v, k| &v[*k])
        .as_f64()
        .unwrap_or_else(|| panic!("{path:?} in {v}"))
}

#[test]
fn replay_measures_catch_up_and_a_throttled_replica_replays_slower() {
    let h = Home::new();
    // Refusals first: no such server, a replica named as the primary.
    let out = h
        .cmd()
        .args(["replay", "--server", "nosuch"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(line.contains("--server nosuch"), "{line}");
    // Alone in this file: its replays and the experiment's are timed.
    let _serial = serial();
    let p = h.start("p", &["--replicas", "1"]);
    let out = h
        .cmd()
        .args(["replay", "--server", "p-r1"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 2);
    assert!(
        line.contains("--server p-r1") && line.contains("not a primary"),
        "{line}"
    );
    let out = h
        .cmd()
        .args([
            "--url",
            "mysql://x@127.0.0.1:1/x",
            "replay",
            "--server",
            "p",
        ])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 2).contains("--url"));

    let prep = h
        .cmd()
        .args([
            "--url",
            &p.url,
            "prepare",
            "tpcc",
            "--warehouses",
            "1",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(prep.status.success(), "{:?}", text(&prep));

    // The catch-up measured: a rate, and every New-Order the primary committed in the
    // run's window applied on the replica.
    let (out, fast) = replay(&h, "fast");
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(fast["valid"], true, "{fast}");
    assert_eq!(fast["catch_up"]["caught_up"], true, "{fast}");
    assert!(f(&fast, &["catch_up", "nopm"]) > 0.0, "{fast}");
    assert!(f(&fast, &["catch_up", "tpm"]) > 0.0, "{fast}");
    assert!(f(&fast, &["backlog", "transactions"]) > 0.0, "{fast}");
    assert!(fast["ratio"].as_f64().is_some(), "{fast}");
    // The replica's own counters moved with what it applied.
    assert!(
        f(&fast, &["catch_up", "counters", "Handler_write"]) > 0.0,
        "{fast}"
    );
    assert!(
        f(&fast, &["catch_up", "counters", "Handler_commit"]) > 0.0,
        "{fast}"
    );
    let applied = fast["catch_up"]["new_orders"].as_u64().unwrap();
    assert!(applied > 0);
    assert_eq!(
        fast["backlog"]["new_orders"].as_u64(),
        Some(applied),
        "{fast}"
    );
    let run = result_json(&h.path().join("fast/run"));
    let counted = run["summary"]["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "new_order")
        .unwrap()["committed"]
        .as_u64();
    assert_eq!(counted, Some(applied), "the run's New-Orders: {fast}");
    let stored: Value =
        serde_json::from_slice(&std::fs::read(h.path().join("fast/replay.json")).unwrap()).unwrap();
    assert_eq!(stored, fast);

    // The balanced search on the replica as it is: a rate it keeps up with.
    let (out, fast_balanced) = balanced(&h, "fast-balanced", &["--time", "3", "--probes", "2"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(fast_balanced["valid"], true, "{fast_balanced}");
    check_probes(&h, "fast-balanced", &fast_balanced);
    let fast_nopm = f(&fast_balanced, &["balanced_nopm"]);

    // Slowed on purpose: a trigger on the replica sleeps per order it applies (row events
    // fire triggers only with slave_run_triggers_for_rbr).
    let mut r = replica_admin(&h, &p);
    r.query_drop("STOP SLAVE").unwrap();
    r.query_drop("SET GLOBAL slave_run_triggers_for_rbr = YES")
        .unwrap();
    r.query_drop(format!(
        "CREATE TRIGGER txbench.slow_apply AFTER INSERT ON txbench.orders FOR EACH ROW SET @slept = SLEEP({SLEEP_PER_ORDER})"
    ))
    .unwrap();
    r.query_drop("START SLAVE").unwrap();
    let (out, slow) = replay(&h, "slow");
    assert!(out.status.success(), "{:?}", text(&out));
    let orders = slow["catch_up"]["new_orders"].as_u64().unwrap();
    // The sleeps alone bound it: no noise can make the throttled replay faster than this.
    assert!(
        f(&slow, &["catch_up", "seconds"]) >= orders as f64 * SLEEP_PER_ORDER,
        "{slow}"
    );
    assert!(
        f(&fast, &["catch_up", "nopm"]) > 2.0 * f(&slow, &["catch_up", "nopm"]),
        "fast {fast}\nslow {slow}"
    );

    // The search finds the throttled replica's balanced rate under what its sleeps allow
    // (1 / SLEEP_PER_ORDER New-Orders a second, 1,200 a minute; a probe of 4 s may end
    // 0.5 s behind, so at most 4 / 3.5 of that, and the run's count is short), and far
    // under the unthrottled replica's.
    let (out, slow_balanced) = balanced(
        &h,
        "slow-balanced",
        &["--time", "4", "--rate", "80", "--probes", "4"],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    check_probes(&h, "slow-balanced", &slow_balanced);
    let slow_nopm = f(&slow_balanced, &["balanced_nopm"]);
    let ceiling = 60.0 / SLEEP_PER_ORDER * 4.0 / 3.5;
    assert!(slow_nopm < 1.5 * ceiling, "{slow_balanced}");
    assert!(
        f(&slow_balanced, &["behind_nopm"]) > slow_nopm,
        "{slow_balanced}"
    );
    assert!(
        fast_nopm > 3.0 * slow_nopm,
        "fast {fast_balanced}\nslow {slow_balanced}"
    );

    // A replica that skips the district table "keeps up" with anything: its New-Orders are
    // not the primary's, and the search is INVALID.
    r.query_drop("STOP SLAVE").unwrap();
    r.query_drop("DROP TRIGGER txbench.slow_apply").unwrap();
    r.query_drop("SET GLOBAL replicate_wild_ignore_table = 'txbench.district'")
        .unwrap();
    r.query_drop("START SLAVE").unwrap();
    let (out, filtered) = balanced(&h, "filtered", &["--time", "2", "--probes", "1"]);
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    assert_eq!(filtered["valid"], false, "{filtered}");
    assert!(
        filtered["reasons"][0]
            .as_str()
            .unwrap()
            .contains("New-Order"),
        "{filtered}"
    );
    r.query_drop("STOP SLAVE").unwrap();
    r.query_drop("SET GLOBAL replicate_wild_ignore_table = ''")
        .unwrap();
    r.query_drop("START SLAVE").unwrap();

    // A broken applier (a row the primary updates gone from the replica) is INVALID, and
    // soon: exit 3 with the replica's error.
    r.query_drop("DELETE FROM txbench.warehouse").unwrap();
    let t = std::time::Instant::now();
    let (out, broken) = replay(&h, "broken");
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    assert!(t.elapsed().as_secs() < 45, "{:?}", t.elapsed());
    assert_eq!(broken["valid"], false, "{broken}");
    assert_eq!(broken["catch_up"]["caught_up"], false, "{broken}");
    assert!(
        broken["reasons"][0]
            .as_str()
            .unwrap()
            .contains("applier stopped"),
        "{broken}"
    );
}

/// A plan whose workloads are `replay`s: a replica's catch-up and its balanced speed, each
/// compared across variants as throughput is. Probes of 5 s: a probe is INVALID when its
/// users all stall for a fifth of it (1 s at least), and 3-s probes failed so in clean-clone
/// CI runs beside this file's other tests (which now wait for each other).
const REPLAY_PLAN: &str = r#"
description = "catch-up and balanced speed with one applier thread against four"
baseline = "serial"
threads = "2"
warmup = 0
duration = 5
repetitions = 1

[[variant]]
name = "serial"
replicas = 1
set = { innodb_buffer_pool_size = "128M" }

[[variant]]
name = "parallel"
replicas = 1
set = { innodb_buffer_pool_size = "128M", slave_parallel_threads = 4 }

[[workload]]
name = "replay"
label = "catch-up"
prepare = ["--warehouses", "1"]
run = ["--rate", "100"]

[[workload]]
name = "replay"
label = "balanced"
prepare = ["--warehouses", "1"]
run = ["--balanced", "--probes", "2", "--rate", "100"]
"#;

/// Checks a catch-up cell: its figure is its replay's, the New-Orders the replica applied
/// per minute, and the primary's run is stored with the experiment's labels.
fn check_catch_up_cell(c: &Value, run: &std::path::Path) {
    assert!(!run.join("balanced.json").exists(), "{}", run.display());
    let replay: Value =
        serde_json::from_slice(&std::fs::read(run.join("replay.json")).unwrap()).unwrap();
    assert_eq!(replay["valid"], true, "{replay}");
    let nopm = f(&replay, &["catch_up", "nopm"]);
    assert!(nopm > 0.0, "{replay}");
    assert_eq!(c["nopm"].as_f64(), Some(nopm), "{c}");
    let primary = result_json(&run.join("run"));
    assert_eq!(primary["config"]["labels"]["variant"], c["variant"], "{c}");
    assert_eq!(primary["config"]["labels"]["replay"], "catch-up");
}

/// Checks a balanced cell: its figure is its search's, the fastest probe the replica kept
/// up with.
fn check_balanced_cell(c: &Value, run: &std::path::Path) {
    assert!(!run.join("replay.json").exists(), "{}", run.display());
    let b: Value =
        serde_json::from_slice(&std::fs::read(run.join("balanced.json")).unwrap()).unwrap();
    assert_eq!(b["valid"], true, "{b}");
    let nopm = f(&b, &["balanced_nopm"]);
    assert!(nopm > 0.0, "{b}");
    assert_eq!(c["nopm"].as_f64(), Some(nopm), "{c}");
    assert!(c["tps"].as_f64().is_some_and(|t| t > 0.0), "{c}");
}

#[test]
fn an_experiment_compares_catch_up_and_balanced_replay_speeds_across_variants() {
    let h = Home::new();
    let _c = Cleanup(&h);
    // A variant without a replica has nothing to replay: refused before anything starts.
    let bad = h.path().join("bad.toml");
    std::fs::write(&bad, REPLAY_PLAN.replacen("replicas = 1\n", "", 1)).unwrap();
    let out = h
        .cmd()
        .args(["experiment", "run"])
        .arg(&bad)
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 2);
    assert!(
        line.contains("variant 'serial'") && line.contains("replay"),
        "{line}"
    );

    // Alone in this file: a probe beside another test's snapshot restores stalled for 2 s.
    let _serial = serial();
    let plan = h.path().join("plan.toml");
    std::fs::write(&plan, REPLAY_PLAN).unwrap();
    let dir = h.path().join("x");
    // A TXBENCH_URL of the user's does not reach the replays, which name their sandboxes.
    let (_, _, e) = experiment_ok(
        &h,
        &plan,
        &dir,
        &["--seed", "3"],
        &[("TXBENCH_URL", "mysql://nobody@127.0.0.1:1/none")],
    );
    let cells = e["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4, "{e}");
    for c in cells {
        assert_eq!(c["status"], "done", "{c}");
        let run = dir.join(c["dir"].as_str().unwrap()).join("run");
        match c["workload"].as_str() {
            Some("catch-up") => check_catch_up_cell(c, &run),
            Some("balanced") => check_balanced_cell(c, &run),
            other => panic!("workload {other:?}: {c}"),
        }
    }
    let out = h
        .cmd()
        .args(["experiment", "results", "--csv"])
        .arg(&dir)
        .output()
        .unwrap();
    let (csv, _) = text(&out);
    for w in ["catch-up", "balanced"] {
        assert!(
            csv.lines()
                .any(|l| l.starts_with(&format!("{w},2,parallel,"))),
            "{csv}"
        );
    }
    let out = h
        .cmd()
        .args(["experiment", "results"])
        .arg(&dir)
        .output()
        .unwrap();
    let (results, _) = text(&out);
    assert!(
        results.contains("the replica's balanced replay speed"),
        "{results}"
    );
}

#[test]
fn replay_options_that_cannot_work_are_one_line_refusals() {
    let h = Home::new();
    // Before any server is looked for: a label replay sets itself, and a malformed one.
    for (args, code, want) in [
        (&["--label", "replay=x"][..], 2, "--label replay="),
        (
            &["--label", "nokey"][..],
            2,
            "--label nokey: expected KEY=VALUE",
        ),
    ] {
        let out = h
            .cmd()
            .args(["replay", "--server", "p"])
            .args(args)
            .output()
            .unwrap();
        let line = assert_one_line_error(&out, code);
        assert!(line.contains(want), "{args:?}: {line}");
    }
}
