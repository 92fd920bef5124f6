//! What replication costs the primary, as an experiment compares it (issue 40): a server
//! alone against the same server with a semi-synchronous replica, the acknowledgement wait
//! per transaction beside throughput. The built-in `replication` plan asks the same at scale.

mod common;

use common::{Cleanup, Home, experiment_ok, text};

const PLAN: &str = r#"
description = "a server alone against a semi-synchronous primary"
baseline = "single"
threads = "2"
warmup = 0
duration = 3
repetitions = 2

[[variant]]
name = "single"
set = { innodb_buffer_pool_size = "128M" }

[[variant]]
name = "semisync"
replicas = 1
semisync = true
set = { innodb_buffer_pool_size = "128M" }

[[workload]]
name = "tpcb"
prepare = ["--scale", "1"]
"#;

#[test]
fn a_semisync_primary_shows_its_acknowledgement_wait_per_transaction_and_a_server_alone_none() {
    let h = Home::new();
    let _c = Cleanup(&h);
    let plan = h.path().join("replication.toml");
    std::fs::write(&plan, PLAN).unwrap();
    let dir = h.path().join("x");
    let (_, _, e) = experiment_ok(&h, &plan, &dir, &["--seed", "3"], &[]);
    for c in e["cells"].as_array().unwrap() {
        assert_eq!(c["status"], "done", "{c}");
        let wait = c["per_transaction"]["ack_wait_ms"].as_f64();
        match c["variant"].as_str().unwrap() {
            // Every commit waited for the replica: a wait per transaction above 0.
            "semisync" => assert!(wait.is_some_and(|w| w > 0.0), "{c}"),
            // A server alone waits for nobody, and says nothing of it.
            _ => assert_eq!(wait, None, "{c}"),
        }
    }
    // The comparison names the wait, the baseline's as 0.
    let out = h
        .cmd()
        .args(["experiment", "results", "--csv"])
        .arg(&dir)
        .output()
        .unwrap();
    let (csv, _) = text(&out);
    let mean = |variant: &str| -> f64 {
        let head = format!("tpcb,2,{variant},ack_wait_ms,transaction,");
        let row = csv
            .lines()
            .find(|l| l.starts_with(&head))
            .unwrap_or_else(|| panic!("no acknowledgement wait for {variant}:\n{csv}"));
        row[head.len()..]
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(mean("single"), 0.0, "{csv}");
    assert!(mean("semisync") > 0.0, "{csv}");
}
