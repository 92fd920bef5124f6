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
    run_with(home, s, dir, commit, &[]);
}

/// [`run`] with more options.
fn run_with(home: &Home, s: &Server, dir: &Path, commit: &str, options: &[&str]) {
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
        .args(options)
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
    let _serial = serial();
    let home = Home::new();
    let s = point_select_server(&home, "store");
    let dirs: Vec<PathBuf> = (0..12)
        .map(|i| home.path().join(format!("r{i:02}")))
        .collect();
    for (i, d) in dirs.iter().enumerate() {
        let _hog = (i >= 6).then(Hog::start);
        run(&home, &s, d, &format!("c{i:02}"));
    }
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
    // Each run's benchmark in words, its identity after them.
    assert_eq!(
        stdout
            .matches("oltp_point_select 1,000 rows · 2 threads ")
            .count(),
        12,
        "{stdout}"
    );
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
    // At the plant, or one run early or late: a busy machine can slow a run next to it as
    // much as the hog does (a CI run beside another benchmark found it at 5).
    let at = steps[0]["index"].as_u64().unwrap() as usize;
    assert!((5..=7).contains(&at), "{h}");
    assert_eq!(steps[0]["first_after"], format!("c{at:02}"));
    assert_eq!(steps[0]["regression"], true);
    assert!(
        h["summary"][1]
            .as_str()
            .unwrap()
            .starts_with(&format!("A regression at c{at:02}: ")),
        "{h}"
    );
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
    assert!(
        stdout.contains(&format!("── change at {at} (first: c{at:02})")),
        "{stdout}"
    );
    assert!(
        stdout.starts_with("history of tps — oltp_point_select 1,000 rows · 2 threads (identity "),
        "{stdout}"
    );
    assert!(stdout.contains("summary:\n  Latest tps: "), "{stdout}");

    // A store without a step: two real runs from before the plant, alternating six times
    // (copies of their result.json with the starts of the first six), so the figures are real and their noise too, and no
    // level changes. The runs before the plant cannot serve: a shared machine drifts for
    // real (clean-clone CI runs found +9.5 %, +10.9 % and -16.1 % [-25.5, -5.4] among
    // them, the last a change the history was right to call).
    let clean = home.path().join("clean.sqlite");
    let copies: Vec<PathBuf> = (0..6)
        .map(|i| {
            let d = home.path().join(format!("clean/a{i:02}"));
            std::fs::create_dir_all(&d).unwrap();
            // In the order of the real runs' starts: the store lists runs by start time.
            let mut r = result_json(&dirs[i % 2]);
            r["started_at"] = result_json(&dirs[i])["started_at"].clone();
            std::fs::write(d.join("result.json"), r.to_string()).unwrap();
            d
        })
        .collect();
    let out = home
        .cmd()
        .arg("--store")
        .arg(&clean)
        .args(["store", "import"])
        .args(&copies)
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
    assert_eq!(stdout.matches("/clean/a0").count(), 6, "{stdout}");
    browse_the_store(&home, &dirs);
    benchmarks_are_named_in_words(&home, &s);
    drop(s);
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

/// The store's pages in headless Chromium: no console message, the filters select, the
/// history draws the planted step, and a point's link opens its run's report.
fn browse_the_store(home: &Home, dirs: &[PathBuf]) {
    let s = serve(home);
    let shot = home.path().join("history.png");
    let (dom, console) = chromium_dom_of(&format!("{}/", s.base));
    assert!(console.is_empty(), "{console:?}");
    assert_eq!(dom.matches("class=\"run\"").count(), 12, "{dom}");
    let id = dom
        .split("/history?identity=")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .unwrap()
        .to_string();
    // Filters: a label, then a workload no run has.
    let (dom, _) = chromium_dom_of(&format!(
        "{}/?workload=oltp_point_select&label=commit%3Dc03",
        s.base
    ));
    assert_eq!(dom.matches("class=\"run\"").count(), 1, "{dom}");
    assert!(dom.contains("commit=c03"), "{dom}");
    let (dom, _) = chromium_dom_of(&format!("{}/?workload=tpcc", s.base));
    assert_eq!(dom.matches("class=\"run\"").count(), 0, "{dom}");
    // The history: twelve points, the change at c06 drawn, each point a link to its run.
    let url = format!("{}/history?identity={id}&by=commit", s.base);
    let console = chromium_shot(&url, &shot);
    assert!(console.is_empty(), "{console:?}");
    assert!(std::fs::metadata(&shot).unwrap().len() > 10_000);
    let (dom, _) = chromium_dom_of(&url);
    assert_eq!(dom.matches("class=\"point\"").count(), 12, "{dom}");
    assert!(dom.contains("at c06</text>"), "{dom}");
    assert!(
        dom.contains("<ul class=\"story\"><li>Latest tps: "),
        "{dom}"
    );
    let href = dom
        .split("<a class=\"point\" href=\"")
        .nth(7)
        .and_then(|t| t.split('"').next())
        .unwrap()
        .replace("&amp;", "&");
    // What a click on the seventh point opens: the report of c06's run.
    let (report, console) = chromium_dom_of(&format!("{}{href}", s.base));
    assert!(console.is_empty(), "{console:?}");
    assert!(report.contains("<h1>txbench report</h1>"), "{report}");
    assert!(report.contains(&dirs[6].display().to_string()), "{href}");
    // Read-only, and only the store's own runs.
    let (dom, _) = chromium_dom_of(&format!("{}/run?dir=/etc", s.base));
    assert!(dom.contains("/etc: not a run in the store"), "{dom}");
}

/// The pages name each benchmark in words, never by its options' JSON: a run with an
/// option not at its default shows it ("rand zipfian (exp 0.8)"), and a crafted store's
/// option is shown escaped; the raw options only folded on the history page.
fn benchmarks_are_named_in_words(home: &Home, s: &Server) {
    let zipf = home.path().join("zipf");
    run_with(home, s, &zipf, "z", &["--rand-type", "zipfian"]);
    // A crafted run: an option no txbench records, with markup and an escape sequence.
    let crafted = home.path().join("crafted");
    std::fs::create_dir(&crafted).unwrap();
    let mut r = result_json(&zipf);
    r["config"]["workload_options"]["<img src=x onerror=alert(1)>"] = "\u{1b}[2J".into();
    std::fs::write(crafted.join("result.json"), r.to_string()).unwrap();
    let out = home
        .cmd()
        .args(["store", "import"])
        .arg(&crafted)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));

    let served = serve(home);
    let (dom, console) = chromium_dom_of(&format!("{}/", served.base));
    assert!(console.is_empty(), "{console:?}");
    let plain = "oltp_point_select 1,000 rows · 2 threads";
    let zipfian = format!("{plain} · rand zipfian (exp 0.8)");
    // Three benchmarks, each named in words with its identity after them, smaller.
    let benchmarks = dom
        .split("<table id=\"benchmarks\">")
        .nth(1)
        .and_then(|t| t.split("</table>").next())
        .unwrap();
    assert_eq!(benchmarks.matches("class=\"history\"").count(), 3, "{dom}");
    assert!(
        benchmarks.contains(&format!("\">{plain}</a><span class=\"id\">")),
        "{benchmarks}"
    );
    assert!(
        benchmarks.contains(&format!("\">{zipfian}</a><span class=\"id\">")),
        "{benchmarks}"
    );
    assert!(
        benchmarks.contains(&format!(
            "\">{plain} · &lt;img src=x onerror=alert(1)&gt; \\u{{1b}}[2J · rand zipfian (exp 0.8)</a>"
        )),
        "{benchmarks}"
    );
    // And every run: 12 + 1 + 1, by the same words.
    let runs = dom.split("<table id=\"runs\">").nth(1).unwrap();
    assert_eq!(runs.matches("class=\"run\"").count(), 14, "{dom}");
    assert_eq!(
        runs.matches(&format!("<td>{plain}</td>")).count(),
        12,
        "{runs}"
    );
    assert_eq!(
        runs.matches(&format!("<td>{zipfian}</td>")).count(),
        1,
        "{runs}"
    );
    // No options as JSON, no markup from the store.
    assert!(!dom.contains("{\"") && !dom.contains("{&quot;"), "{dom}");
    assert!(!dom.contains("<img"), "{dom}");
    // The history page: the words in its title, the options as recorded folded away.
    let id = benchmarks
        .split("/history?identity=")
        .find(|t| t.contains(&format!("\">{zipfian}</a>")))
        .and_then(|t| t.split('"').next())
        .unwrap();
    let (dom, console) = chromium_dom_of(&format!("{}/history?identity={id}", served.base));
    assert!(console.is_empty(), "{console:?}");
    assert!(
        dom.contains(&format!("<title>txbench: {zipfian} — tps</title>")),
        "{dom}"
    );
    assert!(
        dom.contains(&format!("<h1>History of tps — {zipfian}</h1>")),
        "{dom}"
    );
    let folded = dom
        .split("<details id=\"options\">")
        .nth(1)
        .and_then(|t| t.split("</details>").next())
        .unwrap();
    assert!(folded.contains("\"type\": \"zipfian\""), "{folded}");
    assert!(!dom.contains("<details id=\"options\" open"), "{dom}");
}

/// A build of the server that is a wrapper script: the server itself with other settings
/// (a build's behaviour, as the sandbox sees it), in a directory the sandboxes' account can
/// read.
fn build(dir: &Path, name: &str, settings: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let server = [
        "/usr/sbin/mariadbd",
        "/usr/bin/mariadbd",
        "/usr/sbin/mysqld",
    ]
    .into_iter()
    .find(|p| Path::new(p).exists())
    .expect("a server binary");
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!("#!/bin/sh\nexec {server} \"$@\" {settings}\n"),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Seed 002's harness with statistics: runs of one build, then of another whose commits
/// wait; history finds the step and --confirm measures the two builds again, in an
/// interleaved experiment on identical data, and confirms it with the right sign (exit 4).
#[test]
fn a_step_between_two_builds_is_confirmed_by_an_interleaved_experiment() {
    use std::os::unix::fs::PermissionsExt;
    let _serial = serial();
    let home = Home::new();
    let builds = tempfile::Builder::new()
        .prefix("txb-builds-")
        .tempdir()
        .unwrap();
    std::fs::set_permissions(builds.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let fast = build(
        builds.path(),
        "mariadbd-fast",
        "--innodb-flush-log-at-trx-commit=2",
    );
    // Every commit waits 20 ms for a group commit of 100 that 4 threads never fill: about a
    // tenth of the fast build's rate whatever the disk (an fsync at every commit alone was
    // once as fast as the other build on this kind of VM, and the step was not found).
    let slow = build(
        builds.path(),
        "mariadbd-slow",
        "--innodb-flush-log-at-trx-commit=1 --log-bin --binlog-commit-wait-count=100 --binlog-commit-wait-usec=20000",
    );
    let mut n = 0;
    for (name, binary) in [("b1", &fast), ("b2", &slow)] {
        let s = home.start(name, &["--binary", binary.to_str().unwrap()]);
        let out = home
            .cmd()
            .args(["--url", &s.url, "-q", "prepare", "oltp_write_only"])
            .args(["--table-size", "1000"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
        for _ in 0..5 {
            let out = home
                .cmd()
                .args(["--url", &s.url, "run", "oltp_write_only"])
                .args(["--table-size", "1000", "--threads", "4"])
                .args(["--time", "2", "--warmup", "0.5", "-q"])
                .args(["--label", &format!("commit={name}-{n}")])
                .arg("--out")
                .arg(home.path().join(format!("w{n}")))
                .output()
                .unwrap();
            assert!(out.status.success(), "{:?}", text(&out));
            n += 1;
        }
    }
    // The run records its build (the wrapper, not the program it execs) and its command lines.
    let r = result_json(&home.path().join("w6"));
    let host = &r["server"]["host"];
    assert_eq!(host["server_binary"], slow.display().to_string(), "{host}");
    assert_eq!(host["server_sandbox"], "b2", "{host}");
    assert!(
        host["server_exe"].as_str().unwrap().ends_with("d"),
        "{host}"
    );
    assert_eq!(r["config"]["prepare_args"][0], "oltp_write_only", "{r}");
    assert!(!r["config"]["args"].to_string().contains("--url"), "{r}");

    let history = |extra: &[&str]| {
        home.cmd()
            .args(["--json", "history", "--workload", "oltp_write_only"])
            .args(extra)
            .output()
            .unwrap()
    };
    // Bad requests are one line each, before anything runs.
    let out = history(&["--confirm=10"]);
    assert!(
        assert_one_line_error(&out, 2)
            .contains("--confirm 10: the index of the first point after a step, 1 to 9"),
        "{:?}",
        text(&out)
    );
    let out = history(&["--confirm", "--figure", "p99_ms"]);
    assert!(
        assert_one_line_error(&out, 2).contains("--figure p99_ms is neither"),
        "{:?}",
        text(&out)
    );
    // History finds the step where the builds change (runs of 2 s on a busy machine may
    // place it a run late: a loaded CI host once put it at the sixth run).
    let out = history(&[]);
    let h: serde_json::Value = serde_json::from_str(&text(&out).0).unwrap();
    let at = h["steps"][0]["index"].as_u64().unwrap_or(0);
    assert!((5..=6).contains(&at), "{h}");
    assert_eq!(h["steps"][0]["regression"], true, "{h}");
    // The step into the first run of the slow build, confirmed: the slow build against
    // the fast one, fewer transactions per second with an interval below zero; a
    // regression, so exit 4. Five blocks of 2 s: with three, one block whose fsyncs were
    // slow for the fast build too left the interval at [-58 %, +8 %] in a clean-clone run.
    let out = history(&[
        "--confirm=5",
        "--confirm-repetitions",
        "5",
        "--confirm-out",
        "confirm",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(4), "{stdout}\n{stderr}");
    let h: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let c = &h["confirm"];
    assert_eq!(c["before_index"], 4, "{c}");
    assert_eq!(c["after_binary"], slow.display().to_string(), "{c}");
    assert_eq!(c["same_build"], false);
    assert_eq!(c["outcome"], "throughput");
    assert_eq!(c["confirmed"], true, "{c}");
    assert_eq!(c["regression"], true, "{c}");
    let d = &c["deviation"];
    assert!(d["ci_pct"][1].as_f64().unwrap() < 0.0, "{d}");
    assert_eq!(d["n"], 5, "{d}");
    // The experiment is an ordinary one: its plan names both builds.
    let plan = std::fs::read_to_string(home.path().join("confirm/confirm.toml")).unwrap();
    assert!(plan.contains(&fast.display().to_string()), "{plan}");
    assert!(plan.contains("table-size"), "{plan}");
}
