//! The results store against real runs on a real sandbox: runs are recorded as they complete
//! with their labels, listed and filtered, rebuilt from their directories; `history` finds a
//! planted step where it starts (and exits 4 past the threshold), and none in clean runs.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Two threads that keep this host's CPUs busy until dropped: the planted change (the server
/// and the driver get a good part less CPU).
struct Hog {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Hog {
    fn start() -> Hog {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..2)
            .map(|_| {
                let s = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !s.load(Ordering::Relaxed) {
                        x = std::hint::black_box(
                            x.wrapping_mul(6364136223846793005).wrapping_add(1),
                        );
                    }
                })
            })
            .collect();
        Hog { stop, threads }
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

fn run(home: &Home, s: &Server, dir: &Path, commit: &str) {
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .args(["--threads", "2", "--time", "2", "--warmup", "0.5", "-q"])
        .args([
            "--label",
            &format!("commit={commit}"),
            "--label",
            "branch=main",
        ])
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
}

#[test]
fn runs_are_stored_listed_and_followed_and_a_planted_step_is_found() {
    let home = Home::new();
    let s = point_select_server(&home, "store");
    let dirs: Vec<PathBuf> = (0..12)
        .map(|i| home.path().join(format!("r{i:02}")))
        .collect();
    for (i, d) in dirs.iter().enumerate() {
        let _hog = (i >= 6).then(Hog::start);
        run(&home, &s, d, &format!("c{i:02}"));
    }
    drop(s);
    let r = result_json(&dirs[0]);
    assert_schema_valid(&r);
    assert_eq!(r["config"]["labels"]["commit"], "c00");

    // Every run is in the default store ($TXBENCH_HOME/store.sqlite), with its labels.
    let out = home.cmd().args(["--json", "runs"]).output().unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = v.as_array().unwrap();
    assert_eq!(runs.len(), 12, "{v}");
    assert_eq!(runs[0]["labels"]["commit"], "c00");
    assert!(runs[0]["figures"]["tps"].as_f64().unwrap() > 0.0);
    assert!(runs[0]["figures"]["p99_ms.point_select"].as_f64().is_some());
    // Filters: a label, a field, the same benchmark as a run.
    let out = home
        .cmd()
        .args([
            "--json",
            "runs",
            "--label",
            "commit=c03",
            "--where",
            "threads=2",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1, "{v}");
    let out = home
        .cmd()
        .args(["runs", "--like"])
        .arg(&dirs[0])
        .output()
        .unwrap();
    let (stdout, _) = text(&out);
    assert!(stdout.ends_with("12 run(s)\n"), "{stdout}");
    assert!(stdout.contains("commit=c11 branch=main") || stdout.contains("branch=main commit=c11"));
    let out = home
        .cmd()
        .args(["runs", "--where", "colour=red"])
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 2).contains("--where colour: not a run field"),
        "{:?}",
        text(&out)
    );

    // The planted step: found where it starts, with its size, and past the threshold exit 4.
    let out = home
        .cmd()
        .args([
            "--json",
            "history",
            "--workload",
            "oltp_point_select",
            "--by",
            "commit",
        ])
        .args(["--threshold", "10"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{:?}", text(&out));
    let h: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(h["figure"], "tps");
    assert_eq!(h["points"].as_array().unwrap().len(), 12);
    let steps = h["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 1, "{h}");
    assert_eq!(steps[0]["index"], 6, "{h}");
    assert_eq!(steps[0]["first_after"], "c06");
    assert_eq!(steps[0]["regression"], true);
    let step = steps[0]["step_pct"].as_f64().unwrap();
    assert!(step < -10.0, "{step}");
    let out = home
        .cmd()
        .args([
            "history",
            "--workload",
            "oltp_point_select",
            "--by",
            "commit",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "without --threshold: {:?}",
        text(&out)
    );
    let (stdout, _) = text(&out);
    assert!(stdout.contains("── change at 6 (first: c06)"), "{stdout}");

    // The store rebuilt from the clean runs alone: no change point, exit 0.
    let clean = home.path().join("clean.sqlite");
    let out = home
        .cmd()
        .arg("--store")
        .arg(&clean)
        .args(["store", "import"])
        .args(&dirs[..6])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(
        text(&out).0.starts_with("6 run(s) recorded in "),
        "{:?}",
        text(&out)
    );
    let out = home
        .cmd()
        .arg("--store")
        .arg(&clean)
        .args([
            "history",
            "--workload",
            "oltp_point_select",
            "--threshold",
            "10",
        ])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("no change point"), "{stdout}");
    // A store that is not there: said, with how to make one.
    let out = home
        .cmd()
        .args(["--store", "/nonexistent/none.sqlite", "runs"])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 2).contains("no store at /nonexistent/none.sqlite"));
    // A label the run refuses.
    let out = home
        .cmd()
        .args([
            "run",
            "oltp_point_select",
            "--label",
            "a b=c",
            "--time",
            "1",
        ])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 2).contains("--label a b=c: the key must be"));
}
