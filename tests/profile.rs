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
            // The postmaster and its backends.
            assert!(p["processes"].as_array().unwrap().len() > 1, "{procs}");
            assert!(procs.contains("postgres"), "{procs}");
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
            stdout.contains("profile, NEW1 against BASE: the server functions whose share"),
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
        let rows = v["profiles"][0][1].as_array().unwrap();
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
    }
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
