//! Unit tests of `driver/mod.rs`, beside it so the subject stays readable.

use super::validity::{cpu_pct, process_cpu_s, saturation};
use super::worker::{Shared, pause};
use std::sync::atomic::{AtomicBool, AtomicI64};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

#[test]
fn a_driver_using_most_of_the_client_is_saturated() {
    // 1.8 CPU-seconds per second on 2 CPUs is 90 %: saturated.
    let r = saturation(18.0, 10.0, 2).unwrap();
    assert!(r.contains("used 90 % of the client's 2 CPU(s)"), "{r}");
    assert!(saturation(17.9, 10.0, 2).is_none());
    assert!(saturation(5.0, 10.0, 1).is_none());
    assert!(saturation(0.0, 0.0, 2).is_none());
    assert_eq!(cpu_pct(1.0, 2.0, 4), 12.5);
}

/// What no virtual user shares, for the pauses' tests.
fn shared() -> Arc<Shared> {
    Arc::new(Shared {
        stop: AtomicBool::new(false),
        pausing: (Mutex::new(()), Condvar::new()),
        crashed: Mutex::new(None),
        remaining: AtomicI64::new(i64::MAX),
        startup_error: Mutex::new(None),
        recorders: Vec::new(),
        targets: 1,
        pg_setup: Default::default(),
        pg_prepares_alone: Default::default(),
        busy: super::stall::Busy::new(0),
        running: Default::default(),
        done_error: Mutex::new(None),
        sessions: Vec::new(),
        hold_sockets: false,
        opening: std::sync::OnceLock::new(),
    })
}

/// The attempts that started before the measured phase opened are told by kind name, on
/// their own target: each target's cross-checks allow its own, and the New-Orders check
/// only the New-Orders.
#[test]
fn attempts_opened_before_the_measured_phase_are_told_by_kind_and_target() {
    use crate::metrics::Recorder;
    let names = ["new_order".to_string(), "payment".to_string()];
    let rec = |no: u64, pay: u64| {
        let mut r = Recorder::new(2);
        r.kinds[0].opened_before = no;
        r.kinds[1].opened_before = pay;
        r
    };
    let one = super::closing::opened_before(&rec(3, 5), &[], &names);
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].of_kind("new_order"), 3);
    assert_eq!(one[0].of_kind("payment"), 5);
    assert_eq!(one[0].total, 8);
    let mut all = rec(0, 0);
    let targets = [rec(2, 0), rec(1, 5)];
    for t in &targets {
        all.merge(t);
    }
    assert_eq!(all.kinds[0].opened_before, 3);
    let by = super::closing::opened_before(&all, &targets, &names);
    assert_eq!(by.len(), 2);
    assert_eq!(by[0].of_kind("new_order"), 2);
    // A kind with none is left out.
    assert_eq!(by[0].by_kind.get("payment"), None);
    assert_eq!(by[1].of_kind("payment"), 5);
}

#[test]
fn a_closing_sample_not_taken_is_a_check_not_made() {
    let mut r = crate::sampler::Report::default();
    assert_eq!(
        r.checks_not_made().as_deref(),
        Some("no server sample opened the measured phase")
    );
    r.measured = Some(Default::default());
    r.final_failure = Some("the server did not answer the closing sample in time".into());
    assert_eq!(r.checks_not_made(), r.final_failure);
    r.final_taken = true;
    assert_eq!(r.checks_not_made(), None);
}

#[test]
fn a_stop_wakes_a_pausing_virtual_user() {
    let s = shared();
    assert!(pause(&s, Duration::from_millis(20)));
    assert!(pause(&s, Duration::ZERO));
    let waiting = s.clone();
    let t = Instant::now();
    let h = std::thread::spawn(move || pause(&waiting, Duration::from_secs(600)));
    std::thread::sleep(Duration::from_millis(50));
    s.halt();
    assert!(!h.join().unwrap());
    // Woken by the stop, not by the end of its 10 minutes.
    assert!(t.elapsed() < Duration::from_secs(300));
    assert!(!pause(&s, Duration::ZERO));
    assert!(!pause(&s, Duration::from_secs(600)));
}

#[test]
fn process_cpu_grows_with_work() {
    let a = process_cpu_s();
    let mut x = 0u64;
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(50) {
        x = x.wrapping_mul(31).wrapping_add(7);
    }
    std::hint::black_box(x);
    assert!(process_cpu_s() > a);
}

#[test]
fn an_overrun_past_a_tenth_or_five_seconds_is_invalid() {
    use super::validity::overrun;
    assert!(overrun(0.05, 10.0).is_none());
    assert!(overrun(5.0, 10.0).is_none(), "at the bound");
    let r = overrun(12.0, 12.0).unwrap();
    assert!(
        r.starts_with(
            "the measured phase ran 12.0 s past its requested 12 s (more than 5.0 s allowed)"
        ),
        "{r}"
    );
    // A tenth of a long run.
    assert!(overrun(300.0, 3600.0).is_none());
    assert!(overrun(361.0, 3600.0).is_some());
}

#[test]
fn cutting_more_than_a_twentieth_of_the_completed_transactions_is_invalid() {
    use super::validity::cut_too_many;
    assert!(cut_too_many(0, 0).is_none());
    assert!(cut_too_many(5, 100).is_none(), "at the bound");
    let r = cut_too_many(1669, 7892).unwrap();
    assert!(
        r.starts_with("1669 transaction(s) were cut at the run's end, 21 % of the 7892 completed (more than 5 %)"),
        "{r}"
    );
    assert!(
        cut_too_many(4, 0).is_some(),
        "all blocked: nothing completed"
    );
}

/// Regression: a virtual user that panicked while it connected was counted as arrived and
/// vanished; the run went on without it. Its panic is now the run's startup error.
#[test]
fn a_user_that_panics_while_it_connects_stops_the_start() {
    let (arrived, sh) = (Arc::new(super::worker::Arrived::default()), shared());
    let (a, s) = (arrived.clone(), sh.clone());
    let joined = std::thread::spawn(move || {
        let _arriving = a.arriving(&s, 7);
        panic!("a bug while connecting");
    })
    .join();
    assert!(joined.is_err());
    arrived.wait(1);
    let err = sh.startup_error.lock().unwrap().clone();
    assert_eq!(
        err.as_deref(),
        Some("virtual user 7 crashed while it connected (a txbench bug)")
    );
    // One that connected arrives without an error.
    let sh = shared();
    let mut arriving = arrived.arriving(&sh, 8);
    arriving.now();
    drop(arriving);
    arrived.wait(2);
    assert!(sh.startup_error.lock().unwrap().is_none());
}

/// A fiber pausing for a minute is woken by the stop, as a thread is.
#[test]
fn a_fiber_pausing_is_woken_by_the_stop() {
    use crate::engine::fiber::{Body, Pool};
    let sh = shared();
    let s = sh.clone();
    let ended = Arc::new(Mutex::new(None));
    let e = ended.clone();
    let body: Body = Box::new(move || {
        let t = Instant::now();
        let went_on = pause(&s, Duration::from_secs(60));
        *e.lock().unwrap() = Some((went_on, t.elapsed()));
    });
    let done = [Arc::new(AtomicBool::new(false))];
    let pool = Pool::spawn("t", 1, 64 * 1024, vec![body], &done).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    sh.halt();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !pool.finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let (went_on, took) = ended.lock().unwrap().take().expect("the pause ended");
    assert!(!went_on);
    assert!(took < Duration::from_secs(5), "{took:?}");
    pool.join();
}
