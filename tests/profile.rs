//! `run --profile`: the server's on-CPU stacks over the measured phase, sampled with perf
//! against real MariaDB and PostgreSQL sandboxes: stored folded, summarised in result.json and
//! the summary, drawn in the report; what cannot be profiled is one line and the run goes on.

mod common;

use common::*;
use std::path::Path;

fn run(home: &Home, s: &Server, dir: &Path, extra: &[&str]) -> std::process::Output {
    home.cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .args(["--threads", "4", "--time", "4", "--warmup", "1", "--out"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

fn folded(dir: &Path, file: &str) -> String {
    txbench::results::read_folded(&dir.join(file)).unwrap()
}

fn server_profile_is_recorded(db: Db) {
    let home = Home::new();
    let s = point_select_server_on(db, &home, "prof");
    let dir = home.path().join("run");
    let out = run(&home, &s, &dir, &["--profile"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("profile of the server ("), "{stdout}");
    let r = result_json(&dir);
    assert_schema_valid(&r);
    let p = &r["profiles"][0];
    assert_eq!(p["what"], "server", "{p}");
    assert_eq!(p["event"], "cpu-clock");
    // Only the measured phase: about 4 s, not the warm-up's.
    let secs = p["seconds"].as_f64().unwrap();
    assert!((3.0..8.0).contains(&secs), "{secs}");
    let cpu_ms = p["cpu_ms"].as_f64().unwrap();
    assert!(cpu_ms > 100.0, "{p}");
    let procs = p["processes"].to_string();
    let stacks = folded(&dir, p["file"].as_str().unwrap());
    match db {
        Db::MariaDb => {
            assert!(procs.contains("mariadbd"), "{procs}");
            // The statements' path through the server is in the stacks.
            assert!(
                stacks.contains("dispatch_command") || stacks.contains("do_command"),
                "{}",
                &stacks[..stacks.len().min(2000)]
            );
        }
        Db::Postgres => {
            // The postmaster and its backends, and PostgreSQL's own functions in them.
            assert!(p["processes"].as_array().unwrap().len() > 1, "{procs}");
            assert!(procs.contains("postgres"), "{procs}");
            assert!(
                stacks.contains("PostgresMain") && stacks.contains("PortalRun"),
                "{}",
                &stacks[..stacks.len().min(2000)]
            );
        }
    }
    let sum: u64 = stacks
        .lines()
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<u64>().ok())
        .sum();
    // The folded counts are cpu-clock's ns.
    assert!(
        (sum as f64 / 1e6 - cpu_ms).abs() < 1.0,
        "{sum} ns, {cpu_ms} ms"
    );
    assert!(!p["top_self"].as_array().unwrap().is_empty());
    assert!(!p["subsystems"].as_array().unwrap().is_empty());
    // The report: the tables and the flame graph, the page itself without a script.
    let out = home.cmd().arg("report").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<h3>Profile of the server</h3>"));
    assert!(html.contains(
        "<object class=\"flame\" type=\"image/svg+xml\" data=\"data:image/svg+xml;base64,"
    ));
    assert!(!html.contains("<script"));
    if db == Db::MariaDb {
        // compare names the server functions whose share changed, with their CPU per
        // transaction.
        let again = home.path().join("again");
        let out = run(&home, &s, &again, &["--profile"]);
        assert!(out.status.success(), "{:?}", text(&out));
        let out = home
            .cmd()
            .arg("compare")
            .arg(&dir)
            .arg(&again)
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        assert!(
            stdout.contains("profile, NEW1 against BASE: the subsystems that moved, and the server functions whose share"),
            "{stdout}\n{stderr}"
        );
        assert!(stdout.contains(" ms/txn"), "{stdout}");
        let out = home
            .cmd()
            .args(["--json", "compare"])
            .arg(&dir)
            .arg(&again)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = v["profiles"][0][1]["functions"].as_array().unwrap();
        assert!(
            !rows.is_empty() && rows[0]["base_ms"].as_f64().is_some(),
            "{}",
            v["profiles"]
        );
        // The report of both: a differential flame graph of the second against the first.
        let page = home.path().join("both.html");
        let out = home
            .cmd()
            .arg("report")
            .arg(&dir)
            .arg(&again)
            .arg("-o")
            .arg(&page)
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(html.contains("<h2>Server profiles against run</h2>"));
        assert!(html.contains("<h3>again against run</h3><object class=\"flame\""));
        assert!(!html.contains("<script"));
        // It renders in Chromium without a console message (the flame graphs' scripts run
        // in their own objects), and a flame graph is searchable: inferno's script, given
        // `?s=TERM`, marks the frames that match and says how much of the CPU they hold.
        let console = chromium_console(&page, &home.path().join("both.png"));
        assert!(console.is_empty(), "console messages: {console:?}");
        let svg = home.path().join("flame.svg");
        std::fs::write(&svg, first_flame_graph(&html)).unwrap();
        let matched = |term: &str| {
            let (dom, console) = chromium_dom(&svg, &format!("?s={term}"));
            assert!(console.is_empty(), "console messages: {console:?}");
            // The text element the script fills (its own source spells "Matched: " too).
            let text = dom.split("id=\"matched\"").nth(1)?.split('>').nth(1)?;
            text.split('<')
                .next()?
                .strip_prefix("Matched: ")?
                .trim_end_matches('%')
                .parse::<f64>()
                .ok()
        };
        let m = matched("do_command");
        assert!(m.is_some_and(|m| m > 10.0), "{m:?}");
        assert_eq!(matched("no_such_function_anywhere"), None);
    }
}

/// The first flame graph of a report page, as the SVG file it embeds.
fn first_flame_graph(html: &str) -> Vec<u8> {
    use base64::Engine as _;
    let b64 = html
        .split("data:image/svg+xml;base64,")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("a flame graph in the page");
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap()
}

/// The share of `subsystem` in a result.json profile.
fn subsystem(p: &serde_json::Value, subsystem: &str) -> f64 {
    p["subsystems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == subsystem)
        .map_or(0.0, |s| s["pct"].as_f64().unwrap())
}

/// The share of the CPU whose stack passes through `frame`.
fn through(stacks: &str, frame: &str) -> f64 {
    let (mut hit, mut all) = (0u64, 0u64);
    for l in stacks.lines() {
        let Some((s, n)) = l.rsplit_once(' ') else {
            continue;
        };
        let n: u64 = n.parse().unwrap();
        all += n;
        if s.split(';').any(|f| f == frame) {
            hit += n;
        }
    }
    100.0 * hit as f64 / all.max(1) as f64
}

#[test]
fn an_induced_cause_is_at_the_top_and_in_a_finding_and_its_absence_is_not() {
    // The cause: a flush of the redo log at every commit (innodb_flush_log_at_trx_commit=1,
    // the sandbox's default), under single-row inserts from 2 threads, against the same
    // workload with the flush left to the background (=0).
    let home = Home::new();
    let s = home.start("fsync", &[]);
    let prepare = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "prepare",
            "oltp_insert",
            "--table-size",
            "1000",
        ])
        .output()
        .unwrap();
    assert!(prepare.status.success(), "{:?}", text(&prepare));
    let insert = |dir: &Path| {
        let out = home
            .cmd()
            .args([
                "--url",
                &s.url,
                "run",
                "oltp_insert",
                "--table-size",
                "1000",
            ])
            .args([
                "--threads",
                "2",
                "--time",
                "4",
                "--warmup",
                "1",
                "--profile",
            ])
            .arg("--out")
            .arg(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
        result_json(dir)
    };
    const IO: &str = "kernel I/O and fsync";
    let flushing = home.path().join("flushing");
    let r = insert(&flushing);
    let p = &r["profiles"][0];
    let io = subsystem(p, IO);
    // At the top: after the SQL layer itself, one of the two largest shares, and fdatasync
    // under a good part of the stacks.
    assert!(io >= 10.0, "{}", p["subsystems"]);
    let rank = p["subsystems"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["name"] == IO)
        .unwrap();
    assert!(rank <= 2, "{}", p["subsystems"]);
    let stacks = folded(&flushing, p["file"].as_str().unwrap());
    let flushed = through(&stacks, "fdatasync");
    assert!(flushed >= 3.0, "{flushed}");
    let finding = p["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .find(|f| f.contains("the kernel's I/O and fsync path"));
    assert!(
        finding.is_some_and(|f| f.contains("(this run: innodb_flush_log_at_trx_commit=1 ")),
        "{}",
        p["findings"]
    );

    s.admin_exec(&["SET GLOBAL innodb_flush_log_at_trx_commit = 0"]);
    let lazy = home.path().join("lazy");
    let r = insert(&lazy);
    let q = &r["profiles"][0];
    assert!(subsystem(q, IO) < 5.0, "{}", q["subsystems"]);
    // The background still flushes once a second (and pages now and then): what is left
    // is a small part of what the flush at every commit took.
    let stacks = folded(&lazy, q["file"].as_str().unwrap());
    let lazy_share = through(&stacks, "fdatasync");
    assert!(
        lazy_share < 1.0 || lazy_share * 4.0 < flushed,
        "{lazy_share} % of the stacks through fdatasync, against {flushed} % flushing"
    );
    assert!(
        !q["findings"].to_string().contains("fsync path"),
        "{}",
        q["findings"]
    );

    // compare names what moved: the subsystem, and fdatasync among the functions.
    let out = home
        .cmd()
        .args(["--json", "compare"])
        .arg(&flushing)
        .arg(&lazy)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &v["profiles"][0][1];
    let moved = d["subsystems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == IO)
        .unwrap();
    assert!(
        moved["base_pct"].as_f64().unwrap() - moved["new_pct"].as_f64().unwrap() >= 5.0,
        "{moved}"
    );
    let out = home
        .cmd()
        .arg("compare")
        .arg(&flushing)
        .arg(&lazy)
        .output()
        .unwrap();
    let (stdout, _) = text(&out);
    assert!(
        stdout.contains("  subsystems: ") && stdout.contains(&format!("{IO} {io:.1} % → ")),
        "{stdout}"
    );
    // The story names what moved too, last where the terminal leaves it in view.
    let story = stdout
        .lines()
        .find(|l| l.starts_with("  NEW1's server CPU moved against BASE's: by subsystem "))
        .unwrap_or_else(|| panic!("no profile line in the story: {stdout}"));
    assert!(story.contains(" % → "), "{story}");
}

#[test]
fn a_server_profile_is_recorded_summarised_and_drawn() {
    server_profile_is_recorded(Db::MariaDb);
}

#[test]
fn a_server_profile_is_recorded_summarised_and_drawn_on_postgres() {
    server_profile_is_recorded(Db::Postgres);
}

#[test]
fn what_cannot_be_profiled_is_one_line_and_the_run_goes_on() {
    let home = Home::new();
    let s = point_select_server(&home, "noperf");
    // No perf program: said once, the run is valid, nothing half-written.
    let dir = home.path().join("run");
    let out = home
        .cmd()
        .env("TXBENCH_PERF", "/nonexistent/perf")
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
            "2",
            "--time",
            "2",
            "--warmup",
            "1",
            "--profile",
            "both",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let all = format!("{stdout}{stderr}");
    for what in ["server", "client"] {
        assert!(
            all.contains(&format!(
                "--profile {what}: not recorded: /nonexistent/perf could not be run"
            )),
            "{all}"
        );
    }
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], true);
    assert!(r.get("profiles").is_none(), "{}", r["profiles"]);
    assert!(!dir.join("profile-server.folded.gz").exists());
    // The client's profile with the server's: txbench's own process is the client's.
    let dir = home.path().join("both");
    let out = run(&home, &s, &dir, &["--profile", "both"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    let whats: Vec<&str> = r["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["what"].as_str().unwrap())
        .collect();
    assert_eq!(whats, ["server", "client"]);
    assert!(
        r["profiles"][1]["processes"]
            .to_string()
            .contains("txbench")
    );
    // A server profile needs the server sampler that finds its process.
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
        .args(["--time", "1", "--profile", "server", "--no-server-metrics"])
        .output()
        .unwrap();
    assert!(
        assert_one_line_error(&out, 2).contains("--profile server needs the server metrics"),
        "{:?}",
        text(&out)
    );
}
