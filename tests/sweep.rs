//! Sweeps (a run per thread count on the same data), their resumption, and the stability
//! figures every run stores, against a real sandbox server.

mod common;
use common::*;
use std::time::{Duration, Instant};

fn sweep_json(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("sweep.json")).expect("sweep.json"))
        .expect("sweep.json is JSON")
}

#[test]
fn a_sweep_of_three_levels_is_interrupted_and_resumed() {
    a_sweep_interrupted_and_resumed(Db::MariaDb);
}

#[test]
fn a_sweep_of_three_levels_is_interrupted_and_resumed_on_postgres() {
    a_sweep_interrupted_and_resumed(Db::Postgres);
}

fn a_sweep_interrupted_and_resumed(db: Db) {
    let home = Home::new();
    let s = point_select_server_on(db, &home, "sweep");
    let dir = home.path().join("sw");
    let child = home
        .std_cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .args([
            "--threads",
            "1..4x2",
            "--time",
            "3",
            "--report-interval",
            "1",
        ])
        .arg("--out")
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt the second level once the first is recorded.
    let t = Instant::now();
    loop {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "the first level never ended"
        );
        let done = std::fs::read(dir.join("sweep.json"))
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .is_some_and(|v| v["runs"].as_array().is_some_and(|r| r.len() == 1));
        if done {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1500));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{:?}", text(&out));
    assert!(
        text(&out).1.contains(
            "sweep interrupted at 2 threads: resume it with `txbench run oltp_point_select --resume"
        ),
        "{:?}",
        text(&out)
    );
    let v = sweep_json(&dir);
    assert_eq!(v["status"], "interrupted");
    assert_eq!(v["levels"], serde_json::json!([1, 2, 4]));
    assert_eq!(v["runs"].as_array().unwrap().len(), 1);
    let first = std::fs::read(dir.join("t00001/result.json")).unwrap();

    // Other options with --resume are refused: the sweep goes on with its own.
    let out = home
        .cmd()
        .args(["--url", &s.url, "run", "oltp_point_select", "--time", "9"])
        .arg("--resume")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 1).contains(
            "--resume takes no other run options: the sweep goes on with its own (oltp_point_select --table-size 1000 --threads 1..4x2 --time 3 --report-interval 1)"
        )
    );
    let out = home
        .cmd()
        .args(["--url", &s.url, "run", "oltp_read_only", "--resume"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 1)
            .contains("the sweep runs oltp_point_select, not oltp_read_only")
    );

    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--json",
            "--resume",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let lines = json_lines(&out);
    // Interval lines name their level; the first level was kept, not run again.
    assert!(
        lines
            .iter()
            .any(|l| l["type"] == "interval" && l["level"] == 2)
    );
    assert!(
        !lines
            .iter()
            .any(|l| l["type"] == "interval" && l["level"] == 1)
    );
    let last = lines.last().unwrap();
    assert_eq!(last["type"], "sweep");
    let v = sweep_json(&dir);
    assert_eq!(v["status"], "completed");
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(
        runs.iter()
            .map(|r| r["threads"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![1, 2, 4]
    );
    for r in runs {
        assert!(r["tps"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["p95_ms"].as_f64().unwrap() > 0.0 && r["p99_ms"].as_f64().unwrap() > 0.0);
        assert_eq!(r["valid"], true);
        let level = result_json(&dir.join(r["dir"].as_str().unwrap()));
        assert_schema_valid(&level);
        assert_eq!(level["config"]["threads"], r["threads"]);
        assert!(level["stability"]["mean_tps"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(
        std::fs::read(dir.join("t00001/result.json")).unwrap(),
        first
    );

    // A completed sweep directory is not overwritten by a new sweep.
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--threads",
            "1,2",
        ])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 1).contains("holds a sweep already; resume it with --resume")
    );
    // The sweep's report (its server figures are the engine's own).
    let out = home
        .cmd()
        .arg("report")
        .arg(&dir)
        .arg("-o")
        .arg(home.path().join("sweep.html"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let html = std::fs::read_to_string(home.path().join("sweep.html")).unwrap();
    let product = match db {
        Db::MariaDb => "MariaDB",
        Db::Postgres => "PostgreSQL",
    };
    assert!(html.contains(product), "the report names {product}");
}

#[test]
fn resuming_what_is_not_a_sweep_says_so() {
    let home = Home::new();
    let out = home
        .cmd()
        .args(["run", "oltp_point_select", "--resume", "/nonexistent/sweep"])
        .output()
        .unwrap();
    assert_eq!(
        assert_one_line_error(&out, 1),
        "Error: --resume /nonexistent/sweep: no sweep.json there"
    );
    let out = home
        .cmd()
        .args(["run", "oltp_point_select", "--resume", "/nonexistent/sweep"])
        .args(["--out", "/tmp/elsewhere"])
        .output()
        .unwrap();
    assert_eq!(
        assert_one_line_error(&out, 1),
        "Error: --out cannot go with --resume: the sweep stays in /nonexistent/sweep"
    );
    for bad in ["0,1", "1..8", "8..1x2", "1,1"] {
        let out = home
            .cmd()
            .args(["run", "oltp_point_select", "--threads", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            text(&out).1.contains("--threads"),
            "{bad}: {:?}",
            text(&out)
        );
    }
    assert!(!home.path().join("servers").exists());
}

/// Copies a run or sweep directory, passing each result.json (and sweep.json) through `f`.
fn copy_with(
    src: &std::path::Path,
    dst: &std::path::Path,
    f: &dyn Fn(&str, &mut serde_json::Value),
) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_with(&e.path(), &to, f);
        } else if e.file_name() == "result.json" || e.file_name() == "sweep.json" {
            let mut v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(e.path()).unwrap()).unwrap();
            f(e.file_name().to_str().unwrap(), &mut v);
            std::fs::write(&to, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
        } else {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
}

#[test]
fn compare_gives_deviation_and_verdict_per_thread_count() {
    let home = Home::new();
    let s = point_select_server(&home, "compare");
    let base = home.path().join("base");
    quiet_sweep(&home, &s, &base, "1,2", "4", "0.25");
    drop(s);

    // The same sweep against itself: no difference anywhere.
    let compare = |args: &[&std::path::Path], extra: &[&str]| {
        home.cmd()
            .arg("compare")
            .args(args)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = compare(&[&base, &base], &[]);
    assert!(out.status.success(), "{:?}", text(&out));
    let t = text(&out).0;
    // Two levels in the table, and the story's one sentence for both at the end.
    assert_eq!(t.matches("no significant difference").count(), 3, "{t}");
    assert!(
        t.contains("summary:\n  NEW1 against BASE: no significant difference at "),
        "{t}"
    );
    assert!(
        t.contains("Welch's t-test on per-interval throughput"),
        "{t}"
    );

    // Synthetic interval series (±3 % deterministic noise) in copies of the real results:
    // 1000 tps against 1300 tps is faster by about 30 %; two draws of 1000 tps are not
    // different.
    let synthetic = |mean: f64, seed: u64| {
        move |name: &str, v: &mut serde_json::Value| {
            if name == "result.json" {
                let mut x = seed;
                for i in v["intervals"].as_array_mut().unwrap() {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let noise = ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0;
                    i["tps"] = serde_json::json!(mean * (1.0 + 0.03 * noise));
                }
                v["summary"]["tps"] = serde_json::json!(mean);
                v["stability"] = serde_json::Value::Null;
            }
        }
    };
    let (slow, faster, slow2) = (
        home.path().join("slow"),
        home.path().join("faster"),
        home.path().join("slow2"),
    );
    copy_with(&base, &slow, &synthetic(1000.0, 1));
    copy_with(&base, &faster, &synthetic(1300.0, 2));
    copy_with(&base, &slow2, &synthetic(1000.0, 3));
    let out = compare(&[&slow, &faster, &slow2], &["--json"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let v = &json_lines(&out)[0];
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for r in rows {
        let n = &r["new"][0];
        assert_eq!(n["vs_base"]["verdict"], "faster", "{r}");
        let dev = n["vs_base"]["deviation_pct"].as_f64().unwrap();
        assert!((27.0..33.0).contains(&dev), "{dev}");
        // The deviation is computed from the throughputs printed beside it.
        let (b, t) = (
            r["base"]["tps"].as_f64().unwrap(),
            n["tps"].as_f64().unwrap(),
        );
        assert!(
            (dev - (t / b - 1.0) * 100.0).abs() < 1e-6,
            "{dev} vs {b} -> {t}"
        );
        assert_eq!(
            r["new"][1]["vs_base"]["verdict"], "no_significant_difference",
            "{r}"
        );
    }
    let base = slow;
    let out = compare(&[&faster, &base], &["--markdown"]);
    let md = text(&out).0;
    assert!(
        md.contains("| threads | BASE tps | p95 ms | p99 ms | NEW1 tps |"),
        "{md}"
    );
    assert_eq!(md.matches("| slower |").count(), 2, "{md}");
    // The story first where it is pasted.
    assert!(
        md.starts_with("**Summary**\n\n- NEW1 against BASE: slower at "),
        "{md}"
    );
    assert!(md.contains(". Largest: -2"), "{md}");
    let out = compare(&[&base, &faster], &["--csv"]);
    let csv = text(&out).0;
    assert!(csv.starts_with(
        "threads,run,tps,p95_ms,p99_ms,deviation_pct,ci_low_pct,ci_high_pct,verdict,valid\n"
    ));
    assert_eq!(
        csv.lines().filter(|l| l.contains(",faster,")).count(),
        2,
        "{csv}"
    );

    // Another workload is refused unless --force.
    let other = home.path().join("other");
    copy_with(&base, &other, &|name, v| {
        if name == "result.json" {
            v["config"]["workload"] = serde_json::json!("tpcb");
        } else {
            v["workload"] = serde_json::json!("tpcb");
        }
    });
    let out = compare(&[&base, &other], &[]);
    assert!(assert_one_line_error(&out, 1).contains("ran tpcb but BASE"));
    assert!(assert_one_line_error(&out, 1).contains("(--force to compare anyway)"));
    assert!(compare(&[&base, &other], &["--force"]).status.success());

    // Not a run; a newer schema; an empty sweep.
    let empty = home.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = compare(&[&base, &empty], &[]);
    assert!(
        assert_one_line_error(&out, 1)
            .contains("is not a run or sweep directory (no result.json or sweep.json)")
    );
    let newer = home.path().join("newer");
    copy_with(&base.join("t00001"), &newer, &|_, v| {
        v["schema_version"] = serde_json::json!(2)
    });
    let out = compare(&[&base, &newer], &[]);
    assert!(assert_one_line_error(&out, 1).contains(
        "has result schema version 2, newer than this txbench understands (1): upgrade txbench"
    ));
    let hollow = home.path().join("hollow");
    copy_with(&base, &hollow, &|name, v| {
        if name == "sweep.json" {
            v["runs"] = serde_json::json!([]);
        }
    });
    let out = compare(&[&hollow, &base], &[]);
    assert!(assert_one_line_error(&out, 1).contains("is a sweep with no completed level"));
}
