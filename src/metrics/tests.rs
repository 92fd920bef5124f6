//! Unit tests of `metrics/mod.rs`, beside it so the subject stays readable.

use super::*;

#[test]
fn histograms_keep_sub_millisecond_and_hour_long_latencies() {
    let mut r = Recorder::new(1);
    r.completed(0, Outcome::Committed, 37, 37);
    r.completed(0, Outcome::Committed, 0, 0); // clamped to 1 µs
    r.completed(0, Outcome::Committed, 7_200_000_000, 5); // beyond 1 h: saturates
    let s = LatencyStats::of(&r.kinds[0].response.to_hdr());
    assert_eq!(s.count, 3);
    assert_eq!(s.min_ms, 0.001);
    assert!((s.p50_ms - 0.037).abs() < 0.0001, "{s:?}");
    assert!(s.max_ms >= 3_599_000.0);
}

#[test]
fn the_sparse_histogram_equals_a_dense_one() {
    let values: Vec<u64> = (0..20_000u64)
        .map(|i| (i * 7919) % 5_000_000 + (i % 13) * 1_000_000_000)
        .collect();
    let mut dense = new_histogram();
    let mut sparse = SparseHistogram::default();
    let mut other = SparseHistogram::default();
    for (i, &v) in values.iter().enumerate() {
        dense.saturating_record(v.clamp(HIST_LOW_US, HIST_HIGH_US));
        if i % 2 == 0 {
            sparse.record(v);
        } else {
            other.record(v);
        }
    }
    sparse.merge(&other);
    let rebuilt = sparse.to_hdr();
    assert_eq!(sparse.len(), 20_000);
    assert_eq!(rebuilt.len(), dense.len());
    for q in [0.0, 0.5, 0.9, 0.99, 0.999, 1.0] {
        assert_eq!(
            rebuilt.value_at_quantile(q),
            dense.value_at_quantile(q),
            "q {q}"
        );
    }
    assert_eq!(rebuilt.max(), dense.max());
    assert_eq!(rebuilt.min(), dense.min());
    // A handful of buckets, not 23,552 counters.
    let mut few = SparseHistogram::default();
    for v in [120, 121, 122, 5_000, 5_001] {
        few.record(v);
    }
    assert_eq!(few.counts.len(), 4);
}

#[test]
fn merge_adds_counts_histograms_and_messages() {
    let mut a = Recorder::new(2);
    let mut b = Recorder::new(2);
    a.completed(0, Outcome::Committed, 100, 90);
    b.completed(0, Outcome::RolledBack, 300, 200);
    b.completed(1, Outcome::Committed, 50, 50);
    a.failed(1, "pay", ErrorClass::Deadlock, "Deadlock found");
    b.failed(1, "pay", ErrorClass::Deadlock, "Deadlock found");
    b.failed(1, "pay", ErrorClass::Other, "boom");
    b.retried(1, ErrorClass::Serialization);
    a.retried(1, ErrorClass::Deadlock);
    b.stmts.reads = 5;
    b.reconnects = 1;
    (a.cut, b.cut) = (1, 2);
    a.merge(&b);
    assert_eq!(a.kinds[0].completed(), 2);
    assert_eq!(a.kinds[0].rolled_back, 1);
    assert_eq!(a.kinds[0].response.len(), 2);
    assert_eq!(a.kinds[1].failed(), 3);
    assert_eq!(a.kinds[1].unexpected(), 1);
    assert_eq!(a.kinds[1].retries, 2);
    assert_eq!(
        a.retries_by_class(),
        BTreeMap::from([
            ("deadlock".to_string(), 1),
            ("serialization".to_string(), 1)
        ])
    );
    assert_eq!(a.completed_total(), 3);
    assert_eq!(a.stmts.reads, 5);
    assert_eq!(a.reconnects, 1);
    assert_eq!(a.cut, 3);
    assert_eq!(a.messages.len(), 2);
    assert_eq!(a.messages[0].count, 2);
    assert_eq!(
        a.errors_by_class(),
        BTreeMap::from([("deadlock".into(), 2), ("other".into(), 1)])
    );
    assert_eq!(a.all_response().len(), 3);
}

#[test]
fn message_list_is_bounded() {
    let mut r = Recorder::new(1);
    for i in 0..100 {
        r.failed(0, "k", ErrorClass::Other, &format!("error {i}"));
    }
    assert_eq!(r.messages.len(), MAX_MESSAGES);
    assert_eq!(r.kinds[0].failed(), 100);
}

#[test]
fn error_class_policy() {
    assert!(ErrorClass::Deadlock.retryable() && ErrorClass::LockWaitTimeout.retryable());
    assert!(!ErrorClass::Other.retryable());
    assert!(ErrorClass::LostConnection.disconnects());
    assert!(ErrorClass::Other.unexpected() && ErrorClass::DuplicateKey.unexpected());
    assert!(!ErrorClass::Deadlock.unexpected() && !ErrorClass::LostConnection.unexpected());
    for (i, c) in ErrorClass::ALL.iter().enumerate() {
        assert_eq!(c.index(), i);
    }
}
