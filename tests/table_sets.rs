//! TPC-C table sets (`--table-sets N`, `--schemas N`) against real sandboxes: prepare,
//! run with --check, check, two shards merged per set, a sabotaged set named by check and by
//! the run, and a cleanup that leaves what it did not make.

mod common;
use common::*;
use std::path::PathBuf;

fn txb(home: &Home, s: &Server, args: &[&str]) -> std::process::Output {
    home.cmd()
        .args(["--url", &s.url])
        .args(args)
        .output()
        .unwrap()
}

/// The schemas the server holds whose name starts with `prefix`.
fn schemas(s: &Server, prefix: &str) -> Vec<String> {
    let name = if s.db() == Db::Postgres {
        "schema_name::text"
    } else {
        "schema_name"
    };
    let mut v: Vec<String> = s.sql(&format!(
        "SELECT {name} FROM information_schema.schemata WHERE schema_name LIKE '{prefix}%'"
    ));
    v.sort();
    v
}

/// The scorecard lines of the table sets, with their NOPM.
fn set_lines(r: &serde_json::Value) -> Vec<(String, f64)> {
    r["workload_report"]["scorecard"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["name"].as_str().unwrap().starts_with("set "))
        .map(|l| {
            let v = l["value"].as_str().unwrap();
            (
                l["name"].as_str().unwrap().to_string(),
                v.split_whitespace().next().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

fn nopm(r: &serde_json::Value) -> f64 {
    r["workload_report"]["headline"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h[0] == "NOPM")
        .unwrap()[1]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// Four sets of one warehouse: prepared, run with --check, checked, one set broken and
/// named, cleaned up; on MariaDB also two shards merged per set.
fn four_sets(db: Db) {
    let home = Home::new();
    let s = home.start_db(db, "sets", &["--set", "innodb_buffer_pool_size=512M"]);
    let out = txb(
        &home,
        &s,
        &[
            "prepare",
            "tpcc",
            "--warehouses",
            "1",
            "--schemas",
            "4",
            "--json",
        ],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    let p = &json_lines(&out)[0];
    assert_eq!(p["table_sets"], 4);
    let base = if db == Db::Postgres {
        "public"
    } else {
        "txbench"
    };
    assert_eq!(
        schemas(&s, &format!("{base}_set")),
        (2..=4)
            .map(|k| format!("{base}_set{k}"))
            .collect::<Vec<_>>()
    );
    // Every set holds the whole population.
    let q = |k: u32| {
        if k == 1 {
            String::new()
        } else if db == Db::Postgres {
            format!("\"{base}_set{k}\".")
        } else {
            format!("`{base}_set{k}`.")
        }
    };
    for k in 1..=4 {
        assert_eq!(
            s.count(&format!("SELECT COUNT(*) FROM {}customer", q(k))),
            30_000
        );
    }
    // Usage errors name the flag: more sets than prepared, fewer terminals than sets.
    let o = txb(
        &home,
        &s,
        &[
            "run",
            "tpcc",
            "--table-sets",
            "5",
            "--threads",
            "8",
            "--time",
            "1",
        ],
    );
    assert!(assert_one_line_error(&o, 1).contains("--table-sets 5 is more than the 4 prepared"));
    let o = txb(&home, &s, &["run", "tpcc", "--threads", "3", "--time", "1"]);
    assert!(assert_one_line_error(&o, 2).contains("--threads 3 for 4 table sets"));

    // A run over all four, checked after: each set has its terminals and its share.
    let dir = home.path().join("run");
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "tpcc",
            "--threads",
            "8",
            "--time",
            "4",
            "--check",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    assert_schema_valid(&r);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    let lines = set_lines(&r);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[2].0.starts_with(&format!("set 3 ({base}_set3)")),
        "{lines:?}"
    );
    let sum: f64 = lines.iter().map(|l| l.1).sum();
    assert!((sum - nopm(&r)).abs() <= 4.0, "{sum} against {}", nopm(&r));
    assert!(lines.iter().all(|l| l.1 > 0.0), "{lines:?}");
    assert!(
        r["notes"].to_string().contains("pass in every table set"),
        "{}",
        r["notes"]
    );
    // The server's New-Orders, summed over the sets, agree with txbench's.
    let checks = r["summary"]["server"]["cross_checks"].to_string();
    assert!(checks.contains("SUM(D_NEXT_O_ID)"), "{checks}");
    // check: one table per set, all passing.
    let out = txb(&home, &s, &["check", "tpcc", "--json"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let per_set = json_lines(&out);
    assert_eq!(per_set.len(), 4);
    assert!(per_set.iter().all(|v| v["passed"] == true));
    assert_eq!(per_set[3]["schema"], format!("{base}_set4"));

    if db == Db::MariaDb {
        two_shards_merge_per_set(&home, &s);
        two_targets_ready_every_set(&home, &s);
    }

    // One set's district broken: check names the set; a run with --check is INVALID.
    s.exec(&[&format!(
        "UPDATE {}district SET d_next_o_id = d_next_o_id + 5 WHERE d_w_id = 1 AND d_id = 4",
        q(3)
    )]);
    let out = txb(&home, &s, &["check", "tpcc"]);
    let err = assert_one_line_error(&out, 1);
    assert!(
        err.contains(&format!("set 3 ({base}_set3): condition(s) 2")),
        "{err}"
    );
    if db == Db::MariaDb {
        // The run's --check names it too (the same per-set check: one engine is enough).
        let args = [
            "run",
            "tpcc",
            "--threads",
            "4",
            "--time",
            "2",
            "--check",
            "-q",
        ];
        let out = txb(&home, &s, &args);
        assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
        assert!(
            text(&out).1.contains(&format!("of set 3 ({base}_set3)")),
            "{:?}",
            text(&out)
        );
    }

    // cleanup drops every set, and a schema only when nothing else is in it.
    s.exec(&[&format!("CREATE TABLE {}mine (a INT)", q(2))]);
    let out = txb(&home, &s, &["cleanup", "tpcc", "--table-sets", "2"]);
    assert!(assert_one_line_error(&out, 1).contains("4 table set(s) are prepared"));
    let out = txb(&home, &s, &["cleanup", "tpcc"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).0.contains("of 4 table sets"), "{:?}", text(&out));
    assert_eq!(
        schemas(&s, &format!("{base}_set")),
        vec![format!("{base}_set2")]
    );
    assert_eq!(s.count(&format!("SELECT COUNT(*) FROM {}mine", q(2))), 0);
    let left: u64 = s.count(&format!(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '{base}_set2'"
    ));
    assert_eq!(left, 1, "only the user's own table stays in set 2's schema");
}

/// Two shards of one run over the four sets, merged: the per-set lines add up.
fn two_shards_merge_per_set(home: &Home, s: &Server) {
    let at = (std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 4)
    .to_string();
    let dirs: Vec<PathBuf> = (1..=2)
        .map(|i| home.path().join(format!("shard{i}")))
        .collect();
    let children: Vec<_> = dirs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            home.std_cmd()
                .args([
                    "--url",
                    &s.url,
                    "run",
                    "tpcc",
                    "--threads",
                    "8",
                    "--time",
                    "3",
                ])
                .args([
                    "--shard",
                    &format!("{}/2", i + 1),
                    "--start-at",
                    &at,
                    "--out",
                ])
                .arg(d)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
    }
    let merged = home.path().join("merged");
    let out = home
        .cmd()
        .arg("merge")
        .args(&dirs)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let m = result_json(&merged);
    let lines = set_lines(&m);
    assert_eq!(lines.len(), 4, "{lines:?}");
    let inputs = &m["workload_report"]["inputs"]["sets"];
    let new_orders: u64 = (0..4).map(|k| inputs[k]["done"][0].as_u64().unwrap()).sum();
    let shards: u64 = dirs
        .iter()
        .map(|d| {
            let r = result_json(d);
            (0..4)
                .map(|k| {
                    r["workload_report"]["inputs"]["sets"][k]["done"][0]
                        .as_u64()
                        .unwrap()
                })
                .sum::<u64>()
        })
        .sum();
    assert_eq!(new_orders, shards);
    // Each shard's terminals had homes of their own: every set got work from the shards.
    assert!(lines.iter().all(|l| l.1 > 0.0), "{lines:?}");
}

/// A run over two targets readies every set of the second as of the first: none keeps the
/// initial-state mark, so `check` does not judge condition 11 (initial state only) on a set
/// the run changed; its terminals' deferred deliveries run on it. Targets whose databases
/// are named differently are refused: the terminals enter set k by the first target's name.
fn two_targets_ready_every_set(home: &Home, s: &Server) {
    let run = |urls: [&str; 2]| {
        home.cmd()
            .args(["--url", urls[0], "--url", urls[1]])
            .args(["run", "tpcc", "--table-sets", "2", "--threads", "4"])
            .args(["--time", "2", "--delivery", "deferred", "--check", "-q"])
            .output()
            .unwrap()
    };
    let prepare = |url: &str| {
        let out = home
            .cmd()
            .args(["--url", url])
            .args(["prepare", "tpcc", "--warehouses", "1", "--table-sets", "2"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
    };
    // Another database of the same server: its set 2 is txbench_other_set2.
    let other = s.url_of_database("txbench_other");
    s.exec(&["CREATE DATABASE txbench_other"]);
    prepare(&other);
    let err = assert_one_line_error(&run([&s.url, &other]), 1);
    assert!(
        err.contains("set 2 in schema txbench_other_set2") && err.contains("every target needs"),
        "{err}"
    );
    let out = home
        .cmd()
        .args(["--url", &other, "cleanup", "tpcc", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    s.exec(&["DROP DATABASE txbench_other"]);

    // Another server, its database named as the first's: both sets of both run.
    let s2 = home.start("sets-second", &[]);
    prepare(&s2.url);
    let new_orders =
        || s2.count("SELECT CAST(SUM(d_next_o_id) AS UNSIGNED) FROM `txbench_set2`.district");
    // Deliveries, which the deliverer runs on the terminal's target, in both of its sets.
    let delivered = || {
        s2.count(
            "SELECT (SELECT COUNT(*) FROM orders WHERE o_carrier_id IS NOT NULL) \
             + (SELECT COUNT(*) FROM `txbench_set2`.orders WHERE o_carrier_id IS NOT NULL)",
        )
    };
    let (before, delivered_before) = (new_orders(), delivered());
    let out = run([&s.url, &s2.url]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(
        new_orders() > before,
        "set 2 of the second target was run on"
    );
    assert!(
        delivered() > delivered_before,
        "no delivery ran on the second target"
    );
    assert!(
        text(&out)
            .0
            .contains("pass in every table set of every target"),
        "{:?}",
        text(&out)
    );
    assert_eq!(
        s2.count(
            "SELECT COUNT(*) FROM `txbench_set2`.txbench_meta WHERE name LIKE 'tpcc.initial%'"
        ),
        0,
        "set 2 of the second target is no longer in its initial state"
    );
    let out = home
        .cmd()
        .args(["--url", &s2.url, "check", "tpcc", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    // --check checks the second server too, and names what broke there.
    s2.exec(&[
        "UPDATE `txbench_set2`.district SET d_next_o_id = d_next_o_id + 5 WHERE d_w_id = 1 AND d_id = 4",
    ]);
    let out = run([&s.url, &s2.url]);
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    assert!(
        text(&out).1.contains("of target 2, set 2 (txbench_set2)"),
        "{:?}",
        text(&out)
    );
}

#[test]
fn four_table_sets_on_mariadb() {
    four_sets(Db::MariaDb);
}

#[test]
fn four_table_sets_on_postgres() {
    four_sets(Db::Postgres);
}
