//! Sweeps (a run per thread count on the same data), their resumption, and the stability
//! figures every run stores, against a real sandbox server.

mod common;
use common::*;
use std::time::{Duration, Instant};

fn prepared(home: &Home, name: &str) -> Server {
    let s = home.start(name, &[]);
    let out = home
        .cmd()
        .args(["--url", &s.url, "prepare", "oltp_point_select"])
        .args(["--table-size", "1000"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    s
}

fn sweep_json(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("sweep.json")).expect("sweep.json"))
        .expect("sweep.json is JSON")
}

#[test]
fn a_sweep_of_three_levels_is_interrupted_and_resumed() {
    let home = Home::new();
    let s = prepared(&home, "sweep");
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
