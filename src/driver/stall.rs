//! A measured phase in which nothing could finish. Each virtual user marks when it entered
//! the transaction it is in (its retries included) and clears the mark when the attempt
//! ends; while every one of them is marked, none has finished since the latest mark, so the
//! run is stalled from then on: behind another session's row lock, a metadata lock, a frozen
//! disk. The driver looks at every tick of its loop; the longest stall inside the measured
//! phase decides the rule, and the server is asked once per stall what its sessions wait on.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where each virtual user is: inside a transaction since when, or in none.
pub(super) struct Busy {
    epoch: Instant,
    slots: Vec<Slot>,
}

/// One virtual user's mark: microseconds since the epoch plus one, 0 outside a transaction.
/// A cache line each: every transaction writes its own twice, and neighbours must not pay.
#[repr(align(64))]
struct Slot(AtomicU64);

impl Busy {
    /// Marks for `users` virtual users, none inside a transaction.
    pub(super) fn new(users: usize) -> Busy {
        Busy {
            epoch: Instant::now(),
            slots: (0..users).map(|_| Slot(AtomicU64::new(0))).collect(),
        }
    }

    /// Virtual user `id` starts a transaction.
    pub(super) fn enter(&self, id: usize) {
        let us = self.epoch.elapsed().as_micros() as u64 + 1;
        self.slots[id].0.store(us, Ordering::Relaxed);
    }

    /// Virtual user `id`'s attempt ended (completed, failed, or lost with its connection).
    pub(super) fn leave(&self, id: usize) {
        self.slots[id].0.store(0, Ordering::Relaxed);
    }

    /// Whether virtual user `id` is inside a transaction now.
    pub(super) fn is_inside(&self, id: usize) -> bool {
        self.slots[id].0.load(Ordering::Relaxed) != 0
    }

    /// Since when every virtual user has been inside its transaction, if every one is.
    pub(super) fn all_since(&self) -> Option<Instant> {
        let mut latest = 0;
        for s in &self.slots {
            let v = s.0.load(Ordering::Relaxed);
            if v == 0 {
                return None;
            }
            latest = latest.max(v);
        }
        (latest > 0).then(|| self.epoch + Duration::from_micros(latest - 1))
    }
}

/// A span of the run, seconds since its start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Span {
    pub start_s: f64,
    pub end_s: f64,
}

impl Span {
    fn secs(&self) -> f64 {
        self.end_s - self.start_s
    }
}

/// How long a stall lasts before the server is asked what its sessions wait on, and before
/// the run notes it.
pub(super) const NOTED_S: f64 = 1.0;

/// The share of the requested measured time a stall may take before the run is INVALID.
pub(super) const INVALID_SHARE: f64 = 0.2;

/// The stalls of the measured phase.
#[derive(Default)]
pub(super) struct Stalls {
    longest: Option<Span>,
    /// Where the stall the server was last asked about began.
    asked: Option<f64>,
    /// What the server said its sessions waited on, per stall (by where it began), once it
    /// answers.
    said: Vec<(f64, Arc<Mutex<Option<String>>>)>,
}

impl Stalls {
    /// Looks at the run at `now_s` (seconds since its start): every virtual user has been
    /// inside a transaction since `since_s` (None: some are not), and only what falls in the
    /// measured phase, from `measure_start_s`, counts. True when the server should be asked
    /// what its sessions wait on (a stall passed [`NOTED_S`]; once per stall).
    pub(super) fn look(&mut self, since_s: Option<f64>, now_s: f64, measure_start_s: f64) -> bool {
        let Some(since) = since_s else {
            return false;
        };
        let span = Span {
            start_s: since.max(measure_start_s),
            end_s: now_s,
        };
        if span.secs() <= 0.0 {
            return false;
        }
        if self.longest.is_none_or(|l| span.secs() > l.secs()) {
            self.longest = Some(span);
        }
        let ask = span.secs() >= NOTED_S && self.asked != Some(span.start_s);
        if ask {
            self.asked = Some(span.start_s);
        }
        ask
    }

    /// Where the server's answer goes.
    pub(super) fn answer(&mut self) -> Arc<Mutex<Option<String>>> {
        let slot = Arc::new(Mutex::new(None));
        self.said.push((self.asked.unwrap_or(0.0), slot.clone()));
        slot
    }

    /// The longest stall, if it lasted [`NOTED_S`] or more.
    pub(super) fn longest(&self) -> Option<Span> {
        self.longest.filter(|l| l.secs() >= NOTED_S)
    }

    /// The INVALID reason when the longest stall took at least [`INVALID_SHARE`] of the
    /// `requested_s` measured seconds (and [`NOTED_S`]): the throughput then measures the
    /// wait, not the server's pace. `users` virtual users.
    pub(super) fn reason(&self, users: usize, requested_s: f64) -> Option<String> {
        let l = self.longest()?;
        if l.secs() < (INVALID_SHARE * requested_s).max(NOTED_S) {
            return None;
        }
        Some(format!(
            "every virtual user ({users}) was blocked inside a transaction and none finished for {:.1} s of the {requested_s:.0} s measured (from {:.1} s to {:.1} s; {}): the throughput measures the wait, not the server",
            l.secs(),
            l.start_s,
            l.end_s,
            self.on_what(l.start_s)
        ))
    }

    /// A note on the longest stall, when there was one.
    pub(super) fn note(&self, users: usize) -> Option<String> {
        let l = self.longest()?;
        Some(format!(
            "stalled: every virtual user ({users}) was inside a transaction and none finished for {:.1} s (from {:.1} s to {:.1} s); {}",
            l.secs(),
            l.start_s,
            l.end_s,
            self.on_what(l.start_s)
        ))
    }

    /// What the server said during the stall that began at `start_s`.
    fn on_what(&self, start_s: f64) -> String {
        self.said
            .iter()
            .rev()
            .find(|(s, _)| *s == start_s)
            .and_then(|(_, a)| a.lock().unwrap_or_else(|p| p.into_inner()).clone())
            .unwrap_or_else(|| "the server had not said what its sessions waited on".into())
    }
}

/// Asks the server at `url`, on a thread of its own (a frozen server must not hold the run),
/// what its sessions wait on; the answer lands in `said`.
pub(super) fn ask_server(url: crate::engine::TargetUrl, said: Arc<Mutex<Option<String>>>) {
    let _ = std::thread::Builder::new()
        .name("txbench-waits".into())
        .spawn(move || {
            let line = match crate::engine::connect(&url) {
                Ok(mut c) => crate::engine::waits::lock_waits_now(&mut c),
                Err(e) => format!("the server could not be asked what its sessions wait on ({e})"),
            };
            *said.lock().unwrap_or_else(|p| p.into_inner()) = Some(line);
        });
}

/// The driver's watch over a run: its start, the target asked what its sessions wait on,
/// the stalls seen, and how far the run went past its requested end (`overrun_s`, seconds
/// waiting for the transactions in flight; 0 unless the run ended by time).
pub(super) struct Watch {
    t0: Instant,
    url: Option<crate::engine::TargetUrl>,
    stalls: Stalls,
    pub(super) overrun_s: f64,
}

impl Watch {
    /// The watch over a run that started at `t0` against `targets`.
    pub(super) fn new(t0: Instant, targets: &super::Targets) -> Watch {
        Watch {
            t0,
            url: targets.urls.first().cloned(),
            stalls: Stalls::default(),
            overrun_s: 0.0,
        }
    }

    /// Looks at whether every virtual user is stuck inside a transaction (`busy`, at `now`
    /// since the start; the measured phase began at `measure_start`, None during the
    /// warm-up), and asks the first target what its sessions wait on once a stall lasts.
    pub(super) fn look(&mut self, busy: &Busy, now: Duration, measure_start: Option<Duration>) {
        let Some(measure_start) = measure_start else {
            return;
        };
        let since = busy
            .all_since()
            .map(|i| i.saturating_duration_since(self.t0).as_secs_f64());
        if self
            .stalls
            .look(since, now.as_secs_f64(), measure_start.as_secs_f64())
            && let Some(url) = &self.url
        {
            ask_server(url.clone(), self.stalls.answer());
        }
    }

    /// Whether the stall rule already makes the run INVALID (`users` virtual users, the
    /// measured phase `requested_s` long).
    pub(super) fn stalled(&self, users: usize, requested_s: f64) -> bool {
        self.stalls.reason(users, requested_s).is_some()
    }
}

/// The run's end kept to its time: a measured phase blocked for a fifth of its time, one
/// that ran past its requested end by more than [`super::validity::overrun`] allows, one
/// whose end cut more transactions than [`super::validity::cut_too_many`] allows, or (not a
/// shard) one in which no transaction completed, is INVALID; the overrun is recorded in the summary and a shorter stall noted.
pub(super) fn judge(result: &mut crate::results::RunResult, watch: &Watch, users: usize) {
    let (stalls, overrun_s) = (&watch.stalls, watch.overrun_s);
    // A run ended by --events (or a stop) before its time is judged by what it measured.
    let measured_s = result.summary.as_ref().map_or(0.0, |s| s.duration_s);
    let requested_s = result.config.time_s.min(measured_s.max(1.0));
    let stalled = stalls.reason(users, requested_s);
    if stalled.is_none()
        && let Some(note) = stalls.note(users)
    {
        result.notes.push(note);
    }
    let cut = result.summary.as_ref().and_then(cut_share);
    // A shard may have nothing to do; its merge is judged.
    let nothing = result
        .summary
        .as_ref()
        .filter(|_| result.shard.is_none())
        .and_then(crate::analysis::verdict::nothing_measured);
    for reason in [
        stalled,
        super::validity::overrun(overrun_s, requested_s),
        cut,
        nothing,
    ]
    .into_iter()
    .flatten()
    {
        result.validity.valid = false;
        result.validity.reasons.push(reason);
    }
    if let Some(s) = result.summary.as_mut() {
        s.overrun_s = overrun_s;
    }
}

/// The cut rule over the whole run, else over each target (whose cross-checks allow for its
/// own cut attempts).
fn cut_share(s: &crate::results::Summary) -> Option<String> {
    use super::validity::cut_too_many;
    cut_too_many(s.cut, s.transactions).or_else(|| {
        s.targets
            .iter()
            .find_map(|t| cut_too_many(t.cut, t.transactions).map(|r| format!("{}: {r}", t.url)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_user_inside_a_transaction_is_a_stall_from_the_latest_entry() {
        let b = Busy::new(3);
        assert!(b.all_since().is_none());
        b.enter(0);
        b.enter(1);
        assert!(b.all_since().is_none(), "one is outside");
        std::thread::sleep(Duration::from_millis(2));
        b.enter(2);
        let since = b.all_since().unwrap();
        assert!(since >= b.epoch + Duration::from_millis(2));
        b.leave(1);
        assert!(b.all_since().is_none());
        assert!(Busy::new(0).all_since().is_none());
    }

    #[test]
    fn the_longest_stall_in_the_measured_phase_decides() {
        let mut s = Stalls::default();
        // Not every user busy: nothing.
        assert!(!s.look(None, 5.0, 0.0));
        // A stall that began in the warm-up counts from the measured phase's start.
        assert!(!s.look(Some(1.0), 2.5, 2.0));
        assert_eq!(
            s.longest,
            Some(Span {
                start_s: 2.0,
                end_s: 2.5
            })
        );
        assert!(s.longest().is_none(), "under a second is not noted");
        // Past a second: ask the server once for this stall.
        assert!(s.look(Some(1.0), 3.5, 2.0));
        let first = s.answer();
        assert!(!s.look(Some(1.0), 4.0, 2.0));
        // A later, shorter stall leaves the longest; a new one is asked about again, and
        // its answer is not the longest's.
        assert!(s.look(Some(6.0), 7.2, 2.0));
        *s.answer().lock().unwrap() = Some("the server: nothing now".into());
        assert_eq!(
            s.longest(),
            Some(Span {
                start_s: 2.0,
                end_s: 4.0
            })
        );
        // 2 s of 12 requested is under a fifth: noted, not INVALID.
        assert!(s.reason(4, 12.0).is_none());
        assert!(s.note(4).unwrap().contains("none finished for 2.0 s"));
        // Of 10 requested, 2 s is a fifth: INVALID, naming what the server said.
        *first.lock().unwrap() = Some("the server: 4 transaction(s) in LOCK WAIT".into());
        let r = s.reason(4, 10.0).unwrap();
        assert!(r.contains("every virtual user (4) was blocked"), "{r}");
        assert!(r.contains("for 2.0 s of the 10 s measured (from 2.0 s to 4.0 s; the server: 4 transaction(s) in LOCK WAIT)"), "{r}");
        // A short run: a stall must last a second.
        let mut s = Stalls::default();
        s.look(Some(0.0), 0.9, 0.0);
        assert!(s.reason(1, 2.0).is_none());
    }

    #[test]
    fn a_target_that_cut_more_than_its_share_is_named_even_when_the_run_did_not() {
        use crate::results::{Summary, TargetSummary};
        let mut s = Summary::of(&crate::metrics::Recorder::new(1), &["t".into()], 10.0);
        (s.transactions, s.cut) = (1_000, 10);
        let node = |url: &str, transactions: u64, cut: u64| TargetSummary {
            transactions,
            cut,
            ..TargetSummary::of(url.into(), 2, &s)
        };
        s.targets = vec![node("a", 900, 0), node("b", 100, 10)];
        let r = cut_share(&s).unwrap();
        assert!(r.starts_with("b: 10 transaction(s) were cut"), "{r}");
        s.targets[1].cut = 5;
        assert!(cut_share(&s).is_none(), "5 of 100: at the bound");
    }
}
