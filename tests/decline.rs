//! The DECLINING verdict on real runs. A file of its own: test files run one after another,
//! so no other test's load blurs the decline this one induces (beside the sweep tests it
//! read as noise on a 2-CPU machine).

mod common;
use common::*;
use std::time::{Duration, Instant};

/// DECLINING is kept for runs whose throughput really falls: a clean run is not flagged, and
/// the same run while another session takes a growing share of the server's CPU is (a
/// `BENCHMARK()` loop in each of two sessions whose duty cycle grows from 0 to 95 % across the run).
#[test]
fn a_run_that_really_falls_is_flagged_declining_and_a_clean_one_is_not() {
    use mysql::prelude::Queryable;
    use std::sync::atomic::{AtomicBool, Ordering};
    let home = Home::new();
    let s = home.start("decline", &[]);
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "prepare",
            "oltp_read_only",
            "--table-size",
            "10000",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    // 20 s of half-second intervals: 40, at least the 30 a verdict needs even when a loaded
    // machine merges a few.
    let secs = 20.0;
    let run = |name: &str| {
        let dir = home.path().join(name);
        let out = home
            .cmd()
            .args([
                "--url",
                &s.url,
                "run",
                "oltp_read_only",
                "--table-size",
                "10000",
            ])
            .args(["--threads", "4", "--time", "20", "--warmup", "2"])
            .args(["--report-interval", "0.5", "--out"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0) | Some(3)),
            "{:?}",
            text(&out)
        );
        (result_json(&dir), text(&out).0)
    };
    let (clean, _) = run("clean");
    assert_eq!(
        clean["stability"]["declining"], false,
        "{}",
        clean["stability"]
    );

    let stop = AtomicBool::new(false);
    let (falling, stdout) = std::thread::scope(|scope| {
        // Two sessions, so the growing load outweighs what a busy 2-CPU machine's own noise
        // can hide (one alone left some runs flat).
        let hog = || {
            let mut c = s.conn();
            let t0 = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                // Busy for a growing share of every 200 ms, most of the growth late in the
                // run: an early fall would read as warm-up to MSER-5 and be cut off.
                let share = 0.95 * (t0.elapsed().as_secs_f64() / (secs + 2.0)).min(1.0).powi(2);
                let busy = Duration::from_secs_f64(0.2 * share);
                let started = Instant::now();
                while started.elapsed() < busy {
                    let _: Option<i64> =
                        c.query_first("SELECT BENCHMARK(20000, MD5('x'))").unwrap();
                }
                std::thread::sleep(Duration::from_secs_f64(0.2) - busy);
            }
        };
        let hogs = [scope.spawn(hog), scope.spawn(hog)];
        let r = run("falling");
        stop.store(true, Ordering::Relaxed);
        for h in hogs {
            h.join().unwrap();
        }
        r
    });
    let st = &falling["stability"];
    assert_eq!(st["declining"], true, "{st}");
    assert!(st["change_pct"].as_f64().unwrap() <= -5.0, "{st}");
    assert!(stdout.contains("DECLINING:"), "{stdout}");
}
