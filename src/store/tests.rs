//! Unit tests of the store: schema, record, replace, filters, versions.

use super::*;
use std::collections::BTreeMap;

fn entry(dir: &str, workload: &str, threads: u32, tps: f64, labels: &[(&str, &str)]) -> Entry {
    Entry {
        dir: dir.into(),
        kind: "run".into(),
        started_at: format!("2026-11-{:02}T10:00:00Z", 1 + dir.len() % 28),
        workload: workload.into(),
        options: "{}".into(),
        threads,
        engine: "mysql".into(),
        server_version: "MariaDB 10.11".into(),
        binary_sha256: String::new(),
        host: "h".into(),
        host_cpus: 2,
        txbench_version: "0.1.0".into(),
        identity: format!("{workload}-{threads}"),
        valid: true,
        status: "completed".into(),
        labels: labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        figures: BTreeMap::from([("tps".to_string(), tps)]),
    }
}

#[test]
fn runs_are_recorded_replaced_and_filtered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub").join("store.sqlite");
    let mut s = Store::open(&path).unwrap();
    s.record(&entry("/r/a", "tpcc", 4, 100.0, &[("commit", "a1")]))
        .unwrap();
    s.record(&entry("/r/bb", "tpcc", 8, 200.0, &[("commit", "b2")]))
        .unwrap();
    s.record(&entry("/r/ccc", "oltp_read_write", 4, 300.0, &[]))
        .unwrap();
    // The same directory again replaces its row, labels and figures.
    s.record(&entry("/r/a", "tpcc", 4, 110.0, &[("commit", "a9")]))
        .unwrap();
    let all = s.query(&Filter::default()).unwrap();
    assert_eq!(all.len(), 3);
    let a = all.iter().find(|e| e.dir == "/r/a").unwrap();
    assert_eq!(a.figures["tps"], 110.0);
    assert_eq!(a.labels["commit"], "a9");
    let mut f = Filter::default();
    f.field("workload=tpcc").unwrap();
    f.field("threads=4").unwrap();
    let got = s.query(&f).unwrap();
    assert_eq!(got.len(), 1, "{got:?}");
    let mut f = Filter::default();
    f.label("commit=b2").unwrap();
    assert_eq!(s.query(&f).unwrap()[0].dir, "/r/bb");
    let mut f = Filter::default();
    f.field("valid=false").unwrap();
    assert!(s.query(&f).unwrap().is_empty());
    // Reopened: the schema is there and nothing is migrated twice.
    drop(s);
    let s = Store::open(&path).unwrap();
    assert_eq!(s.query(&Filter::default()).unwrap().len(), 3);
}

#[test]
fn bad_filters_and_newer_stores_are_refused_by_name() {
    let mut f = Filter::default();
    let e = f.field("colour=red").unwrap_err().to_string();
    assert!(e.starts_with("--where colour: not a run field"), "{e}");
    assert!(f.field("threads").is_err());
    assert!(f.label("=x").is_err());
    assert!(f.field("valid=maybe").is_err());
    // A key that is not a column never reaches the SQL.
    assert!(f.field("threads=1; DROP TABLE runs").is_ok());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite");
    let s = Store::open(&path).unwrap();
    s.query(&f).unwrap();
    drop(s);
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch("PRAGMA user_version = 99").unwrap();
    drop(c);
    let e = Store::open(&path).err().unwrap().to_string();
    assert!(
        e.contains("schema version 99, not one this txbench knows"),
        "{e}"
    );
    // Two processes creating one store at once: both open it, the schema made once.
    let shared = dir.path().join("shared.sqlite");
    let both: Vec<_> = (0..2)
        .map(|_| {
            let p = shared.clone();
            std::thread::spawn(move || Store::open(&p).map(|_| ()).map_err(|e| e.to_string()))
        })
        .collect();
    for t in both {
        t.join().unwrap().unwrap();
    }
    // Not a database at all.
    let junk = dir.path().join("junk");
    std::fs::write(
        &junk,
        "not sqlite, not at all, but long enough to be read as a header......",
    )
    .unwrap();
    assert!(Store::open(&junk).is_err());
}
