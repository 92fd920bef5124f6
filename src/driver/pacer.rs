//! The open-loop schedule: one shared stream of intended start times at `--rate`, fed to
//! the workers through a bounded queue. Latency is measured from the intended start, so
//! time spent queued behind a slow database counts (no coordinated omission).

use crate::config::RateDist;
use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};
use rand::{Rng, SeedableRng, rngs::SmallRng};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Most arrivals the queue holds: ten seconds' worth, within 1,000 .. 1,000,000.
pub fn queue_capacity(rate: f64) -> usize {
    ((rate * 10.0) as usize).clamp(1_000, 1_000_000)
}

/// The gap before the next arrival.
pub fn next_gap(rng: &mut SmallRng, rate: f64, dist: RateDist) -> Duration {
    let mean = 1.0 / rate;
    let secs = match dist {
        RateDist::Uniform => mean,
        // Exponential gaps make a Poisson process; 1-u is in (0, 1], so ln is finite.
        RateDist::Poisson => -(1.0 - rng.random::<f64>()).ln() * mean,
    };
    Duration::from_secs_f64(secs)
}

/// The running schedule.
pub struct Pacer {
    /// Where workers take their intended start times.
    pub rx: Receiver<Instant>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Pacer {
    /// Starts the schedule at `t0` with a queue of `capacity` arrivals. When the queue
    /// overflows it sets `overflow` and stops.
    pub fn start(
        rate: f64,
        dist: RateDist,
        seed: u64,
        t0: Instant,
        capacity: usize,
        stop: Arc<AtomicBool>,
        overflow: Arc<AtomicBool>,
    ) -> std::io::Result<Pacer> {
        let (tx, rx): (Sender<Instant>, Receiver<Instant>) = bounded(capacity);
        let thread = std::thread::Builder::new()
            .name("pacer".into())
            .spawn(move || {
                let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed_0fa1);
                let mut next = t0;
                loop {
                    next += next_gap(&mut rng, rate, dist);
                    // Sleep in short steps so a stop is noticed at low rates too.
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let now = Instant::now();
                        if next <= now {
                            break;
                        }
                        std::thread::sleep((next - now).min(Duration::from_millis(50)));
                    }
                    match tx.try_send(next) {
                        Ok(()) => {}
                        Err(TrySendError::Full(_)) => {
                            overflow.store(true, Ordering::Relaxed);
                            return;
                        }
                        Err(TrySendError::Disconnected(_)) => return,
                    }
                }
            })?;
        Ok(Pacer {
            rx,
            thread: Some(thread),
        })
    }
}

impl Drop for Pacer {
    fn drop(&mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poisson_gaps_average_to_the_rate() {
        let mut rng = SmallRng::seed_from_u64(3);
        let n = 200_000;
        let total: f64 = (0..n)
            .map(|_| next_gap(&mut rng, 500.0, RateDist::Poisson).as_secs_f64())
            .sum();
        let mean = total / n as f64;
        assert!((mean - 0.002).abs() < 0.00005, "mean gap {mean}");
        let g = next_gap(&mut rng, 500.0, RateDist::Uniform);
        assert_eq!(g, Duration::from_secs_f64(0.002));
    }

    #[test]
    fn the_schedule_runs_at_the_rate() {
        let stop = Arc::new(AtomicBool::new(false));
        let overflow = Arc::new(AtomicBool::new(false));
        let t0 = Instant::now();
        let p = Pacer::start(
            2000.0,
            RateDist::Uniform,
            1,
            t0,
            100_000,
            stop.clone(),
            overflow.clone(),
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        stop.store(true, Ordering::Relaxed);
        let elapsed = t0.elapsed().as_secs_f64();
        let rx = p.rx.clone();
        drop(p);
        let arrivals: Vec<Instant> = rx.try_iter().collect();
        assert!(!overflow.load(Ordering::Relaxed));
        // Normalised by the time that really passed: 2,000 a second, within 10 %.
        let expected = 2000.0 * elapsed;
        let n = arrivals.len() as f64;
        assert!(
            (n - expected).abs() <= 0.1 * expected,
            "{n} arrivals in {elapsed:.3} s, expected {expected:.0}"
        );
        // Each intended start 0.5 ms after the last, none in the future.
        for w in arrivals.windows(2) {
            assert_eq!(w[1] - w[0], Duration::from_micros(500));
        }
        assert!(arrivals.last().unwrap().duration_since(t0).as_secs_f64() <= elapsed);
    }

    #[test]
    fn a_queue_nobody_drains_overflows() {
        let stop = Arc::new(AtomicBool::new(false));
        let overflow = Arc::new(AtomicBool::new(false));
        let p = Pacer::start(
            2000.0,
            RateDist::Poisson,
            1,
            Instant::now(),
            100,
            stop.clone(),
            overflow.clone(),
        )
        .unwrap();
        // 100 slots fill in about 50 ms.
        let deadline = Instant::now() + Duration::from_secs(5);
        while !overflow.load(Ordering::Relaxed) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(overflow.load(Ordering::Relaxed));
        assert_eq!(p.rx.len(), 100);
        stop.store(true, Ordering::Relaxed);
        drop(p);
    }

    #[test]
    fn capacity_is_ten_seconds_within_bounds() {
        assert_eq!(queue_capacity(5.0), 1_000);
        assert_eq!(queue_capacity(2_000.0), 20_000);
        assert_eq!(queue_capacity(1e9), 1_000_000);
    }
}
