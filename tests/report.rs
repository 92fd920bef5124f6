//! `txbench report`: the HTML report of a real sweep opens in headless Chromium without
//! console errors and a screenshot shows the charts; `--png`; old and bad directories.

mod common;
use common::*;
use std::path::Path;

/// Pixels of a PNG that are clearly coloured (chart lines and markers; text is grey).
fn coloured_pixels(png: &Path) -> usize {
    let bytes = std::fs::read(png).unwrap();
    let img = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("a PNG");
    img.pixels()
        .iter()
        .filter(|p| {
            let (r, g, b) = (p.red() as i32, p.green() as i32, p.blue() as i32);
            r.max(g).max(b) - r.min(g).min(b) > 80
        })
        .count()
}

#[test]
fn the_report_of_a_real_sweep_renders_in_chromium_with_its_charts() {
    let home = Home::new();
    let s = point_select_server(&home, "report");
    let sweep = home.path().join("sweep");
    quiet_sweep(&home, &s, &sweep, "1,2,4", "2", "0.5");
    drop(s);

    // Without -o, the report of one directory goes into it; its path is the output.
    let pngs = home.path().join("png");
    let out = home
        .cmd()
        .arg("report")
        .arg(&sweep)
        .arg("--png")
        .arg(&pngs)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let page = sweep.join("report.html");
    assert_eq!(text(&out).0.trim(), page.display().to_string());
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: no scripts, nothing fetched.
    assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("<link"));
    for part in [
        "Throughput against concurrency",
        "Universal Scalability Law",
        "Response-time percentile spectrum",
        "Latency percentiles over time",
        "Errors and reconnects",
        "Stability",
        "Configuration and server pre-flight",
        "class=\"diff\"",
    ] {
        assert!(html.contains(part), "{part} missing");
    }
    // The story first: the sweep's peak and scaling, before any chart.
    let story = html
        .find("<ul class=\"story\"><li>Peak: ")
        .expect("the sweep's story");
    assert!(story < html.find("<svg").unwrap(), "the story comes first");
    // Each level's Server section: throughput and the server's figures on one time axis.
    let server_charts = html.matches("class=\"chart small\"").count();
    assert!(
        server_charts >= 3 * 8,
        "at least 8 small multiples per level: {server_charts}"
    );
    assert_eq!(
        html.matches("<svg").count(),
        2 + 3 * 4 + server_charts,
        "2 sweep charts + 4 per level + the server's"
    );
    for part in [
        "<h3>Server</h3>",
        "Throughput and the server's figures",
        "cross-check",
    ] {
        assert!(html.contains(part), "{part} missing");
    }
    // Three levels of one sweep: the first beside the others, per transaction.
    assert!(html.contains("Why: server figures against"));
    assert!(html.contains("per transaction: server_cpu_ms"));

    let shot = home.path().join("shot.png");
    let console = chromium_console(&page, &shot);
    assert!(console.is_empty(), "console messages: {console:?}");
    let coloured = coloured_pixels(&shot);
    assert!(
        coloured > 2_000,
        "the screenshot shows no charts ({coloured} coloured pixels)"
    );

    // The check above can fail: a page with a script error is caught.
    let bad = home.path().join("bad.html");
    std::fs::write(
        &bad,
        "<html><body><script>undefinedFunction();</script></body></html>",
    )
    .unwrap();
    let caught = chromium_console(&bad, &home.path().join("bad.png"));
    assert!(
        caught.iter().any(|l| l.contains("undefinedFunction")),
        "{caught:?}"
    );

    // --png: every chart, each with its lines drawn.
    let mut files: Vec<_> = std::fs::read_dir(&pngs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 14 + server_charts);
    assert!(files[0].ends_with("01-sweep-throughput.png"), "{files:?}");
    // An empty chart has no coloured pixel; a figure recorded in one interval only (fsync
    // time in a read-only level) is a marker of about 50.
    for f in &files {
        assert!(coloured_pixels(f) > 40, "{} has no lines", f.display());
    }

    // The same sweep twice: every element id is still unique.
    let twice = home.path().join("twice.html");
    let out = home
        .cmd()
        .arg("report")
        .arg(&sweep)
        .arg(&sweep)
        .arg("-o")
        .arg(&twice)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let html = std::fs::read_to_string(&twice).unwrap();
    let mut ids: Vec<&str> = html
        .split("id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate element ids");

    // An INVALID level is left out of the USL fit.
    let level = sweep.join("t00004/result.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&level).unwrap()).unwrap();
    v["validity"] = serde_json::json!({"valid": false, "reasons": ["made up for the test"]});
    std::fs::write(&level, serde_json::to_vec(&v).unwrap()).unwrap();
    let out = home.cmd().arg("report").arg(&sweep).output().unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("no fit: 2 valid level(s) with throughput, 3 needed"));
    assert!(html.contains("made up for the test"));
    assert!(
        html.contains(
            "<li>INVALID levels, left out of what follows: 4 threads (made up for the test).</li>"
        ),
        "the story names the INVALID level first"
    );

    // An old run directory renders: no stability in result.json, no latency.hlog.
    let old = home.path().join("old");
    std::fs::create_dir_all(&old).unwrap();
    let mut v = result_json(&sweep.join("t00002"));
    v.as_object_mut().unwrap().remove("stability");
    v["config"]
        .as_object_mut()
        .unwrap()
        .remove("stability_window_s");
    std::fs::write(old.join("result.json"), serde_json::to_vec(&v).unwrap()).unwrap();
    let out = home
        .cmd()
        .arg("report")
        .arg(&old)
        .args(["-o", home.path().join("old.html").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let html = std::fs::read_to_string(home.path().join("old.html")).unwrap();
    assert!(html.contains("Stability") && !html.contains("percentile spectrum"));
    assert!(
        html.contains("<ul class=\"story\"><li>VALID: "),
        "a run's story"
    );
}

#[test]
fn report_refuses_what_it_cannot_read() {
    let home = Home::new();
    let empty = home.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = home.cmd().arg("report").arg(&empty).output().unwrap();
    assert!(
        assert_one_line_error(&out, 1)
            .contains("is not a run or sweep directory (no result.json or sweep.json)")
    );
    let out = home
        .cmd()
        .args(["report", "/nonexistent/run"])
        .output()
        .unwrap();
    assert!(assert_one_line_error(&out, 1).contains("/nonexistent/run: no such directory"));
    let newer = home.path().join("newer");
    std::fs::create_dir_all(&newer).unwrap();
    std::fs::write(newer.join("result.json"), r#"{"schema_version": 7}"#).unwrap();
    let out = home.cmd().arg("report").arg(&newer).output().unwrap();
    assert!(assert_one_line_error(&out, 1).contains(
        "has result schema version 7, newer than this txbench understands (1): upgrade txbench"
    ));
    let hollow = home.path().join("hollow");
    std::fs::create_dir_all(&hollow).unwrap();
    std::fs::write(
        hollow.join("sweep.json"),
        r#"{"schema_version": 1, "workload": "tpcb", "workload_options": null, "levels": [1, 2],
            "started_at": "2026-11-22T00:00:00Z", "status": "interrupted", "args": [], "runs": []}"#,
    )
    .unwrap();
    let out = home.cmd().arg("report").arg(&hollow).output().unwrap();
    assert!(
        assert_one_line_error(&out, 1)
            .contains("is a sweep with no completed level: nothing to show")
    );
    assert!(!home.path().join("servers").exists());
}
