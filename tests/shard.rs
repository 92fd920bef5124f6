//! Shards: one run driven by several `txbench run --shard` processes against one real
//! sandbox, merged with `txbench merge` (counts, exact percentiles, the database's own count),
//! an interrupted shard, merges refused, bad --shard / --start-at input, a sharded sweep,
//! and the Kubernetes Indexed Job manifest.

mod common;
use common::*;
use mysql::prelude::Queryable;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Spawns shard `index` (from 0) of `count` the way a Kubernetes Indexed Job does: the index
/// and the count in the environment.
fn spawn_shard(home: &Home, url: &str, index: u32, count: u32, args: &[&str], out: &Path) -> Child {
    let mut c: Command = home.std_cmd();
    c.env("JOB_COMPLETION_INDEX", index.to_string())
        .env("TXBENCH_SHARDS", count.to_string())
        .args(["--url", url, "run"])
        .args(args)
        .arg("--out")
        .arg(out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    c.spawn().expect("spawn a shard")
}

fn merge(home: &Home, dirs: &[PathBuf], out: &Path) -> std::process::Output {
    home.cmd()
        .arg("merge")
        .args(dirs)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// Every measured histogram of `kind` (or of every kind) in the shards' latency.hlog, read
/// with hdrhistogram's own log reader, in one histogram.
fn all_samples(dirs: &[PathBuf], kind: Option<&str>) -> hdrhistogram::Histogram<u64> {
    use base64::Engine as _;
    use hdrhistogram::serialization::Deserializer;
    use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};
    let mut all = hdrhistogram::Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
    for d in dirs {
        let log = std::fs::read(d.join("latency.hlog")).unwrap();
        let mut de = Deserializer::new();
        for e in IntervalLogIterator::new(&log) {
            let LogEntry::Interval(iv) = e.unwrap() else {
                continue;
            };
            let tag = iv.tag().unwrap();
            let Some(k) = tag.as_str().strip_suffix(".response") else {
                continue;
            };
            if kind.is_some_and(|want| want != k) {
                continue;
            }
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(iv.encoded_histogram())
                .unwrap();
            let h: hdrhistogram::Histogram<u64> = de.deserialize(&mut &bytes[..]).unwrap();
            all.add(&h).unwrap();
        }
    }
    all
}

fn ms(h: &hdrhistogram::Histogram<u64>, q: f64) -> f64 {
    h.value_at_quantile(q) as f64 / 1000.0
}

fn sum_d_next_o_id(s: &Server) -> u64 {
    s.conn()
        .query_first::<u64, _>("SELECT SUM(D_NEXT_O_ID) FROM district")
        .unwrap()
        .unwrap()
}

/// Two shards of a TPC-B run on PostgreSQL: merged counts, the history rows the database
/// holds, and pg_stat_database's transactions against the merged count.
#[test]
fn two_shards_of_a_tpcb_run_on_postgres_merge_exactly() {
    let home = Home::new();
    let s = home.start_postgres("pgshards", &[]);
    let out = home
        .cmd()
        .args(["--url", &s.url, "prepare", "tpcb", "--scale", "1", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let history = || s.count("SELECT COUNT(*) FROM pgbench_history");
    let before = history();
    let at = (now_s() + 5).to_string();
    let run = [
        "tpcb",
        "--threads",
        "4",
        "--time",
        "4",
        "--report-interval",
        "1",
        "--start-at",
        &at,
    ];
    let dirs: Vec<PathBuf> = (0..2).map(|i| home.path().join(format!("p{i}"))).collect();
    let children: Vec<Child> = (0..2)
        .map(|i| spawn_shard(&home, &s.url, i, 2, &run, &dirs[i as usize]))
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
    }
    let merged = home.path().join("pgmerged");
    let out = merge(&home, &dirs, &merged);
    assert!(out.status.success(), "{:?}", text(&out));
    let m = result_json(&merged);
    assert_schema_valid(&m);
    assert_eq!(m["validity"]["valid"], true, "{}", m["validity"]);
    let shard_txns: u64 = dirs
        .iter()
        .map(|d| result_json(d)["summary"]["transactions"].as_u64().unwrap())
        .sum();
    let txns = m["summary"]["transactions"].as_u64().unwrap();
    assert_eq!(txns, shard_txns);
    // Every committed TPC-B transaction added one history row.
    assert_eq!(history() - before, txns);
    // PostgreSQL's transaction count is not cross-checked over shards (the other shards'
    // backends flush theirs after the sampling shard's last sample), and the merge says so.
    let checks = m["summary"]["server"]["cross_checks"].as_array();
    assert!(
        checks.is_none_or(|c| c
            .iter()
            .all(|c| !c["what"].as_str().unwrap().contains("xact_commit"))),
        "{checks:?}"
    );
    assert!(
        m["notes"]
            .to_string()
            .contains("PostgreSQL's transaction count is not cross-checked over shards"),
        "{}",
        m["notes"]
    );
}

#[test]
fn three_shards_of_a_tpcc_run_merge_exactly() {
    let home = Home::new();
    let s = home.start("shards", &[]);
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "prepare",
            "tpcc",
            "--warehouses",
            "3",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let before = sum_d_next_o_id(&s);

    // Three shards started together, as an Indexed Job's pods would be.
    let at = (now_s() + 6).to_string();
    let run = [
        "tpcc",
        "--threads",
        "6",
        "--time",
        "6",
        "--report-interval",
        "2",
        "--start-at",
        &at,
    ];
    let dirs: Vec<PathBuf> = (0..3).map(|i| home.path().join(format!("s{i}"))).collect();
    let children: Vec<Child> = (0..3)
        .map(|i| spawn_shard(&home, &s.url, i, 3, &run, &dirs[i as usize]))
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
    }
    let shards: Vec<serde_json::Value> = dirs.iter().map(|d| result_json(d)).collect();
    let mut users = Vec::new();
    for (k, r) in shards.iter().enumerate() {
        assert_schema_valid(r);
        assert_eq!(r["shard"]["index"], k as u64 + 1);
        assert_eq!(r["shard"]["count"], 3);
        assert_eq!(r["config"]["threads"], 6);
        let mine: Vec<u64> = r["shard"]["users"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_u64().unwrap())
            .collect();
        // Each shard's terminals have home warehouse k+1 (user g's is g mod 3 + 1) only.
        assert!(mine.iter().all(|g| g % 3 == k as u64), "{mine:?}");
        users.extend(mine);
        // Only the first shard samples the server's counters.
        assert_eq!(dirs[k].join("server.csv").exists(), k == 0);
        // Every shard measured its --time, not more (shards without server metrics used to
        // wait 2 s for a sample that never came).
        let d = r["summary"]["duration_s"].as_f64().unwrap();
        assert!((5.9..6.6).contains(&d), "shard {k} measured {d} s");
        assert!(
            r["summary"]["server"]["cross_checks"]
                .as_array()
                .is_none_or(|c| c.is_empty())
        );
    }
    users.sort();
    assert_eq!(users, (0..6).collect::<Vec<u64>>());
    let starts: Vec<f64> = shards
        .iter()
        .map(|r| {
            r["shard"]["start_unix_s"].as_f64().unwrap()
                + r["shard"]["clock_offset_s"].as_f64().unwrap()
        })
        .collect();
    let spread = starts.iter().cloned().fold(f64::MIN, f64::max)
        - starts.iter().cloned().fold(f64::MAX, f64::min);
    assert!(spread < 0.25, "shards started {spread} s apart");

    let merged = home.path().join("merged");
    let out = merge(&home, &dirs, &merged);
    assert!(out.status.success(), "{:?}", text(&out));
    let m = result_json(&merged);
    assert_schema_valid(&m);
    assert_eq!(m["status"], "completed");
    assert_eq!(m["validity"]["valid"], true, "{}", m["validity"]);
    assert!(m.get("shard").is_none());
    assert_eq!(m["merged"]["shards"].as_array().unwrap().len(), 3);
    let sum = |path: &dyn Fn(&serde_json::Value) -> u64| shards.iter().map(path).sum::<u64>();
    let ms_ = &m["summary"];
    assert_eq!(
        ms_["transactions"].as_u64().unwrap(),
        sum(&|r| r["summary"]["transactions"].as_u64().unwrap())
    );
    assert_eq!(
        ms_["queries"].as_u64().unwrap(),
        sum(&|r| r["summary"]["queries"].as_u64().unwrap())
    );
    for (i, kind) in [
        "new_order",
        "payment",
        "order_status",
        "delivery",
        "stock_level",
    ]
    .iter()
    .enumerate()
    {
        let k = &ms_["kinds"][i];
        assert_eq!(k["name"], *kind);
        assert_eq!(
            k["completed"].as_u64().unwrap(),
            sum(&|r| r["summary"]["kinds"][i]["completed"].as_u64().unwrap())
        );
        // Percentiles of one histogram built from every shard's samples, never averaged.
        let h = all_samples(&dirs, Some(kind));
        assert_eq!(h.len(), k["completed"].as_u64().unwrap());
        for (q, field) in [(0.5, "p50_ms"), (0.95, "p95_ms"), (0.99, "p99_ms")] {
            assert_eq!(
                k["response"][field].as_f64().unwrap(),
                ms(&h, q),
                "{kind} {field}"
            );
        }
    }
    let h = all_samples(&dirs, None);
    assert_eq!(ms_["response"]["p99_ms"].as_f64().unwrap(), ms(&h, 0.99));
    assert_eq!(
        ms_["response"]["max_ms"].as_f64().unwrap(),
        h.max() as f64 / 1000.0
    );
    // Intervals: as many as each shard's, each with every virtual user.
    let n = shards[0]["intervals"].as_array().unwrap().len();
    assert_eq!(m["intervals"].as_array().unwrap().len(), n);
    for (j, row) in m["intervals"].as_array().unwrap().iter().enumerate() {
        assert_eq!(row["threads"], 6);
        assert_eq!(
            row["transactions"].as_u64().unwrap(),
            sum(&|r| r["intervals"][j]["transactions"].as_u64().unwrap())
        );
    }
    // The database's own count: every committed New-Order advanced D_NEXT_O_ID once.
    let committed = ms_["kinds"][0]["committed"].as_u64().unwrap();
    assert_eq!(sum_d_next_o_id(&s) - before, committed);
    // The server's counters over all shards agree with the merged counts.
    let checks = ms_["server"]["cross_checks"].as_array().unwrap();
    assert_eq!(checks.len(), 3, "{checks:?}");
    assert!(checks.iter().all(|c| c["agrees"] == true), "{checks:?}");
    assert!(merged.join("server.csv").is_file());
    // The scorecard is the merged run's: NOPM from every shard's New-Orders.
    let nopm: f64 = m["workload_report"]["headline"][0][1]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let expect = ms_["kinds"][0]["completed"].as_f64().unwrap()
        / (ms_["duration_s"].as_f64().unwrap() / 60.0);
    assert!((nopm - expect).abs() <= 1.0, "{nopm} vs {expect}");
    // A merged run reads like any other.
    let o = home
        .cmd()
        .args(["report"])
        .arg(&merged)
        .arg("-o")
        .arg(home.path().join("m.html"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let o = home
        .cmd()
        .args(["compare"])
        .arg(&merged)
        .arg(&merged)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));

    // Merges that must be refused, each naming what is wrong.
    let refused = |dirs: &[PathBuf], out: &str, want: &str| {
        let o = merge(&home, dirs, &home.path().join(out));
        let line = assert_one_line_error(&o, 1);
        assert!(line.contains(want), "{line}");
    };
    refused(&dirs[..2], "x1", "shard(s) 3 of 3 missing");
    refused(
        &[dirs[0].clone(), dirs[0].clone(), dirs[1].clone()],
        "x2",
        "shard 1/3 given twice",
    );
    let o = merge(&home, &dirs, &merged);
    assert!(assert_one_line_error(&o, 1).contains("holds a run already"));
    // A shard whose latency.hlog lost its last interval's histograms (a copy cut short).
    let cut = home.path().join("s1cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::copy(dirs[0].join("result.json"), cut.join("result.json")).unwrap();
    let last = shards[0]["intervals"].as_array().unwrap().last().unwrap()["start_s"]
        .as_f64()
        .unwrap();
    let log: String = std::fs::read_to_string(dirs[0].join("latency.hlog"))
        .unwrap()
        .lines()
        .filter(|l| {
            !l.starts_with("Tag=")
                || (l.split(',').nth(1).unwrap().parse::<f64>().unwrap() - last).abs() > 1e-3
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(cut.join("latency.hlog"), log).unwrap();
    refused(
        &[cut.clone(), dirs[1].clone(), dirs[2].clone()],
        "x6",
        "the log is incomplete",
    );
    // A copy of shard 2 edited two ways: INVALID (the merge is INVALID and names it), and
    // claiming to be one of 4 shards (not a shard of this run).
    let edited = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| -> PathBuf {
        let d = home.path().join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(dirs[1].join("latency.hlog"), d.join("latency.hlog")).unwrap();
        let mut r = shards[1].clone();
        edit(&mut r);
        std::fs::write(d.join("result.json"), serde_json::to_vec(&r).unwrap()).unwrap();
        d
    };
    let invalid = edited("s2invalid", &|r| {
        r["validity"] = serde_json::json!({"valid": false, "reasons": ["a reason of its own"]});
    });
    let o = merge(
        &home,
        &[dirs[0].clone(), invalid.clone(), dirs[2].clone()],
        &home.path().join("minvalid"),
    );
    let line = assert_one_line_error(&o, 3);
    assert!(line.contains("shard 2 ("), "{line}");
    assert!(line.contains("a reason of its own"), "{line}");
    assert!(text(&o).0.contains("INVALID"), "{:?}", text(&o));
    assert_eq!(
        result_json(&home.path().join("minvalid"))["validity"]["valid"],
        false
    );
    // Shard 2's intervals after the first start 1.5 s late (its loop skipped a boundary):
    // summed by position with the others' they would mix two intervals.
    let late = edited("s2late", &|r| {
        for row in r["intervals"].as_array_mut().unwrap().iter_mut().skip(1) {
            let s = row["start_s"].as_f64().unwrap();
            row["start_s"] = serde_json::json!(s + 1.5);
        }
    });
    refused(
        &[dirs[0].clone(), late.clone(), dirs[2].clone()],
        "x8",
        "do not line up",
    );
    // Shard 2's latency.hlog appended twice: its percentiles would weigh double.
    let twice = edited("s2twice", &|_| {});
    let log = std::fs::read_to_string(twice.join("latency.hlog")).unwrap();
    let tags: String = log
        .lines()
        .filter(|l| l.starts_with("Tag="))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(twice.join("latency.hlog"), format!("{log}{tags}")).unwrap();
    refused(
        &[dirs[0].clone(), twice.clone(), dirs[2].clone()],
        "x9",
        "incomplete or repeated",
    );
    // Shard 2 counts more transactions rolled back than completed: not a run txbench wrote
    // (the merged committed count, completed less rolled back, wrapped around).
    let rolled = edited("s2rolled", &|r| {
        let k = &mut r["intervals"].as_array_mut().unwrap().last_mut().unwrap()["kinds"][0];
        k["rolled_back"] = serde_json::json!(k["completed"].as_u64().unwrap() + 1);
    });
    refused(
        &[dirs[0].clone(), rolled, dirs[2].clone()],
        "x10",
        "rolled back (",
    );
    // An event of shard 1's appears once in the merge, labelled with its shard.
    let d = home.path().join("s1event");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(dirs[0].join("latency.hlog"), d.join("latency.hlog")).unwrap();
    let mut r = shards[0].clone();
    r["events"] = serde_json::json!([{"t_s": 1.5, "what": "a replica fell behind"}]);
    std::fs::write(d.join("result.json"), serde_json::to_vec(&r).unwrap()).unwrap();
    let o = merge(
        &home,
        &[d, dirs[1].clone(), dirs[2].clone()],
        &home.path().join("mevent"),
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let events = result_json(&home.path().join("mevent"))["events"].clone();
    assert_eq!(events.as_array().unwrap().len(), 1, "{events}");
    assert_eq!(events[0]["what"], "shard 1: a replica fell behind");
    let four = edited("s2of4", &|r| r["shard"]["count"] = serde_json::json!(4));
    refused(
        &[dirs[0].clone(), four.clone(), dirs[2].clone()],
        "x7",
        "is shard 2/4 but",
    );
    // A run that was not a shard.
    let single = home.path().join("single");
    let o = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "tpcc",
            "--threads",
            "1",
            "--time",
            "1",
            "-q",
            "--out",
        ])
        .arg(&single)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    refused(&[dirs[0].clone(), single.clone()], "x3", "is not a shard");
    // Shard 3/3 given on the command line with another --time: other options.
    let other = home.path().join("other");
    let o = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "tpcc",
            "--threads",
            "6",
            "--time",
            "2",
            "--report-interval",
            "2",
            "--start-at",
            &at,
            "--shard",
            "3/3",
            "-q",
            "--out",
        ])
        .arg(&other)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    assert_eq!(
        result_json(&other)["shard"]["users"],
        serde_json::json!([2, 5])
    );
    refused(
        &[dirs[0].clone(), dirs[1].clone(), other.clone()],
        "x4",
        "time_s",
    );
    // Shard 3/3 of another workload (in a database of its own, used from here on).
    // A database of its own (the benchmark user owns those named txbench…).
    s.conn().query_drop("CREATE DATABASE txbench_oltp").unwrap();
    let oltp_url = format!("{}txbench_oltp", s.url.trim_end_matches("txbench"));
    let o = home
        .cmd()
        .args([
            "--url",
            &oltp_url,
            "prepare",
            "oltp_point_select",
            "--table-size",
            "1000",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let oltp = home.path().join("oltp");
    let o = home
        .cmd()
        .args([
            "--url",
            &oltp_url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
            "--threads",
            "6",
            "--time",
            "1",
            "--shard",
            "3/3",
            "-q",
            "--out",
        ])
        .arg(&oltp)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    refused(
        &[dirs[0].clone(), dirs[1].clone(), oltp.clone()],
        "x5",
        "workload",
    );

    // Bad --shard input against the real server: each one line, exit 2.
    assert_run_refused(
        &home,
        &s.url,
        &["tpcc", "--threads", "8", "--shard", "1/4"],
        &[],
        "4 shards for 3 home warehouse(s)",
    );
    assert_run_refused(
        &home,
        &s.url,
        &["tpcc", "--threads", "8", "--shard", "0/3"],
        &[],
        "K counts from 1 to 3",
    );
    assert_run_refused(
        &home,
        &s.url,
        &["tpcc", "--threads", "8", "--shard", "1/0"],
        &[],
        "at least 1 shard",
    );
}

/// The oltp side, on a server of its own (it runs beside the TPC-C test): bad --shard and
/// --start-at input, a shard interrupted mid-run, and a sharded sweep merged level by level.
#[test]
fn oltp_shards_interrupted_swept_and_refused() {
    let home = Home::new();
    let s = point_select_server(&home, "oshards");
    let far = (now_s() + 2 * 86_400).to_string();
    assert_run_refused(
        &home,
        &s.url,
        &[
            "oltp_point_select",
            "--table-size",
            "1000",
            "--threads",
            "2",
            "--shard",
            "1/3",
        ],
        &[],
        "3 shards for 2 thread(s)",
    );
    assert_run_refused(
        &home,
        &s.url,
        &["oltp_point_select", "--table-size", "1000"],
        &[("TXBENCH_SHARDS", "3")],
        "JOB_COMPLETION_INDEX is not",
    );
    assert_run_refused(
        &home,
        &s.url,
        &["oltp_point_select", "--table-size", "1000"],
        &[("TXBENCH_SHARDS", "3"), ("JOB_COMPLETION_INDEX", "3")],
        "JOB_COMPLETION_INDEX=3",
    );
    assert_run_refused(
        &home,
        &s.url,
        &[
            "oltp_point_select",
            "--table-size",
            "1000",
            "--start-at",
            &far,
        ],
        &[],
        "more than a day",
    );
    assert_run_refused(
        &home,
        &s.url,
        &["oltp_point_select", "--start-at", "soon"],
        &[],
        "RFC 3339",
    );
    // In the past: starts now and says so.
    let past = (now_s() - 60).to_string();
    let o = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
            "--time",
            "1",
            "--start-at",
            &past,
            "--out",
        ])
        .arg(home.path().join("past"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).1.contains("s ago: starting now"), "{:?}", text(&o));

    // --events 1 over 2 shards: one shard has nothing to do, and is not INVALID for having
    // measured nothing; the merge has the one transaction, VALID.
    let at = (now_s() + 3).to_string();
    let run = [
        "oltp_point_select",
        "--table-size",
        "1000",
        "--threads",
        "2",
        "--events",
        "1",
        "--start-at",
        &at,
    ];
    let edirs: Vec<PathBuf> = (0..2).map(|i| home.path().join(format!("e{i}"))).collect();
    let children: Vec<Child> = (0..2)
        .map(|i| spawn_shard(&home, &s.url, i, 2, &run, &edirs[i as usize]))
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
    }
    let emerged = home.path().join("emerged");
    let o = merge(&home, &edirs, &emerged);
    assert!(o.status.success(), "{:?}", text(&o));
    let m = result_json(&emerged);
    assert_eq!(m["validity"]["valid"], true, "{}", m["validity"]);
    assert_eq!(m["summary"]["transactions"], 1);

    // A shard interrupted mid-run: the merge is interrupted and covers what every shard ran.
    let at = (now_s() + 6).to_string();
    let run = [
        "oltp_point_select",
        "--table-size",
        "1000",
        "--threads",
        "3",
        "--time",
        "8",
        "--report-interval",
        "1",
        "--start-at",
        &at,
    ];
    let idirs: Vec<PathBuf> = (0..3).map(|i| home.path().join(format!("i{i}"))).collect();
    let children: Vec<Child> = (0..3)
        .map(|i| spawn_shard(&home, &s.url, i, 3, &run, &idirs[i as usize]))
        .collect();
    std::thread::sleep(Duration::from_secs(9));
    // SAFETY: signalling a child we spawned.
    unsafe { libc::kill(children[1].id() as i32, libc::SIGINT) };
    let codes: Vec<Option<i32>> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap().status.code())
        .collect();
    assert_eq!(codes, vec![Some(0), Some(130), Some(0)]);
    let cut = result_json(&idirs[1])["intervals"]
        .as_array()
        .unwrap()
        .len();
    assert!(
        cut < result_json(&idirs[0])["intervals"]
            .as_array()
            .unwrap()
            .len()
    );
    let imerged = home.path().join("imerged");
    let o = merge(&home, &idirs, &imerged);
    assert!(o.status.success(), "{:?}", text(&o));
    let m = result_json(&imerged);
    assert_schema_valid(&m);
    assert_eq!(m["status"], "interrupted");
    assert_eq!(m["intervals"].as_array().unwrap().len(), cut);
    let notes = m["notes"].to_string();
    assert!(notes.contains("shard 2 was interrupted"), "{notes}");
    let shards: Vec<serde_json::Value> = idirs.iter().map(|d| result_json(d)).collect();
    let expect: u64 = shards
        .iter()
        .map(|r| {
            r["intervals"].as_array().unwrap()[..cut]
                .iter()
                .map(|i| i["transactions"].as_u64().unwrap())
                .sum::<u64>()
        })
        .sum();
    assert_eq!(m["summary"]["transactions"].as_u64().unwrap(), expect);

    // A sharded sweep: level by level, each level's shards started together.
    let at = (now_s() + 6).to_string();
    let run = [
        "oltp_point_select",
        "--table-size",
        "1000",
        "--threads",
        "2,4",
        "--time",
        "2",
        "--report-interval",
        "1",
        "--start-at",
        &at,
    ];
    let sdirs: Vec<PathBuf> = (0..2).map(|i| home.path().join(format!("w{i}"))).collect();
    let children: Vec<Child> = (0..2)
        .map(|i| spawn_shard(&home, &s.url, i, 2, &run, &sdirs[i as usize]))
        .collect();
    let logs: Vec<String> = children
        .into_iter()
        .map(|c| {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "{:?}", text(&o));
            text(&o).1
        })
        .collect();
    let smerged = home.path().join("smerged");
    let o = home
        .cmd()
        .arg("merge")
        .args(&sdirs)
        .arg("--out")
        .arg(&smerged)
        .arg("--json")
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let sweep: serde_json::Value =
        serde_json::from_slice(&std::fs::read(smerged.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(sweep["status"], "completed");
    let levels = sweep["runs"].as_array().unwrap();
    assert_eq!(levels.len(), 2);
    for (l, threads) in levels.iter().zip([2, 4]) {
        assert_eq!(l["threads"], threads);
        let r = result_json(&smerged.join(l["dir"].as_str().unwrap()));
        assert_schema_valid(&r);
        assert_eq!(r["intervals"][0]["threads"], threads);
        assert!(
            r["merged"]["start_spread_s"].as_f64().unwrap() < 0.25,
            "{threads} threads: {} {:?}",
            r["merged"],
            logs
        );
    }
}

/// `txbench run ARGS` with `env` is refused with exit 2 and an error line containing `want`
/// (clap's `error:` for flags it parses, txbench's `Error:` for the rest), without a panic.
fn assert_run_refused(home: &Home, url: &str, args: &[&str], env: &[(&str, &str)], want: &str) {
    let mut c = home.cmd();
    c.args(["--url", url, "run"]).args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with("Error: ") || l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line: {err}"));
    assert!(line.contains(want), "{line}");
}

/// The Indexed Job manifest, parsed back, carries every field the Job needs; bad input is
/// refused without printing a password.
#[test]
fn the_kubernetes_job_manifest() {
    let home = Home::new();
    let o = home
        .cmd()
        .args([
            "k8s",
            "job",
            "--shards",
            "3",
            "--image",
            "registry.example/txbench:1",
            "--results-claim",
            "bench-results",
            "--url-secret",
            "tpcc-db",
            "--name",
            "tpcc-1000",
            "--start-in",
            "120",
            "--cpus",
            "4",
            "--",
            "tpcc",
            "--warehouses",
            "1000",
            "--threads",
            "300",
            "--time",
            "600",
            "--warmup",
            "120",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let (yaml, _) = text(&o);
    assert!(
        yaml.lines()
            .take(8)
            .any(|l| l.starts_with("# Merge:   txbench merge")),
        "{yaml}"
    );
    let job: serde_json::Value = serde_yaml_ng::from_str(&yaml).expect("the manifest is YAML");
    assert_eq!(job["apiVersion"], "batch/v1");
    assert_eq!(job["kind"], "Job");
    assert_eq!(job["metadata"]["name"], "tpcc-1000");
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    assert_eq!(spec["completions"], 3);
    assert_eq!(spec["parallelism"], 3);
    assert_eq!(spec["backoffLimitPerIndex"], 0);
    assert_eq!(spec["maxFailedIndexes"], 3);
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["restartPolicy"], "Never");
    let c = &pod["containers"][0];
    assert_eq!(c["image"], "registry.example/txbench:1");
    assert_eq!(c["command"], serde_json::json!(["txbench"]));
    assert_eq!(c["resources"]["requests"]["cpu"], "4");
    assert!(c["resources"].get("limits").is_none());
    let args: Vec<String> = c["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    assert_eq!(args[..2], ["run", "tpcc"]);
    let after = |flag: &str| args[args.iter().position(|a| a == flag).unwrap() + 1].clone();
    assert_eq!(after("--warehouses"), "1000");
    assert_eq!(after("--threads"), "300");
    let start = txbench::shard::parse_start_at(&after("--start-at")).unwrap();
    let ahead = start.duration_since(SystemTime::now()).unwrap().as_secs();
    assert!((100..=121).contains(&ahead), "{ahead}");
    assert_eq!(
        after("--out"),
        "/results/tpcc-1000/shard-$(TXBENCH_SHARD_INDEX)"
    );
    assert!(!args.iter().any(|a| a == "--shard"));
    let env = c["env"].as_array().unwrap();
    let var = |name: &str| {
        env.iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {env:?}"))
            .clone()
    };
    assert_eq!(var("TXBENCH_SHARDS")["value"], "3");
    assert_eq!(
        var("TXBENCH_SHARD_INDEX")["valueFrom"]["fieldRef"]["fieldPath"],
        "metadata.annotations['batch.kubernetes.io/job-completion-index']"
    );
    assert_eq!(
        var("TXBENCH_URL")["valueFrom"]["secretKeyRef"],
        serde_json::json!({"name": "tpcc-db", "key": "url"})
    );
    assert_eq!(
        c["volumeMounts"][0],
        serde_json::json!({"name": "results", "mountPath": "/results"})
    );
    assert_eq!(
        pod["volumes"][0]["persistentVolumeClaim"]["claimName"],
        "bench-results"
    );
    // The pods' own arguments parse as a run (the environment gives the shard).
    let mut argv = vec!["txbench".to_string()];
    argv.extend(args.iter().cloned());
    assert!(<txbench::cli::Cli as clap::Parser>::try_parse_from(&argv).is_ok());

    // Refusals: one line, exit 2, no password.
    let refused = |args: &[&str], want: &str| {
        let o = home.cmd().args(args).output().unwrap();
        let line = assert_one_line_error(&o, 2);
        assert!(line.contains(want), "{line}");
        assert!(!String::from_utf8_lossy(&o.stdout).contains("s3cret"));
        assert!(!line.contains("s3cret"), "{line}");
    };
    let base = [
        "k8s",
        "job",
        "--shards",
        "3",
        "--image",
        "i",
        "--results-claim",
        "r",
    ];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    refused(
        &with(&["--url", "mysql://u:s3cret@db.example:3306/t", "--", "tpcc"]),
        "has a password",
    );
    refused(&with(&["--", "tpcc"]), "--url-secret");
    refused(
        &with(&["--url-secret", "db", "--", "tpcc", "--shard", "1/3"]),
        "--shard in the run arguments",
    );
    refused(
        &with(&["--url-secret", "db", "--", "tpcc", "--no-such-flag"]),
        "do not parse",
    );
    refused(
        &with(&["--url-secret", "db", "--name", "Big_Run", "--", "tpcc"]),
        "--name",
    );
    refused(
        &with(&["--url", "mysql://u@127.0.0.1:3306/t", "--", "tpcc"]),
        "names the pod itself",
    );
}
