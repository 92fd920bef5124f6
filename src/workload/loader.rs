//! Parallel loading: units of work spread over several threads (each with its own state,
//! usually a connection), each thread taking the next unit until none are left or one failed.

use anyhow::{Result, anyhow};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Runs `work` on every unit over at most `threads` threads, each with the state `open`
/// gives it (a connection, say). The first error stops the others from taking new units
/// and is returned.
pub fn parallel_units<S, U: Sync>(
    open: &(dyn Fn() -> Result<S> + Sync),
    threads: u32,
    units: &[U],
    work: &(dyn Fn(&mut S, &U) -> Result<()> + Sync),
) -> Result<()> {
    if units.is_empty() {
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let threads = (threads.max(1) as usize).min(units.len()).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| -> Result<()> {
                    let mut state = open()?;
                    while !failed.load(Ordering::Relaxed) {
                        let Some(unit) = units.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        if let Err(e) = work(&mut state, unit) {
                            failed.store(true, Ordering::Relaxed);
                            return Err(e);
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        let mut first = Ok(());
        for h in handles {
            let r = h.join().map_err(|_| anyhow!("a loader thread panicked"))?;
            if first.is_ok() {
                first = r;
            }
        }
        first
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_connection_is_reported_and_no_work_runs() {
        let ran = AtomicUsize::new(0);
        let units = [1, 2, 3];
        let err = parallel_units::<(), _>(
            &|| Err(anyhow!("cannot connect: refused")),
            2,
            &units,
            &|_, _| {
                ran.fetch_add(1, Ordering::Relaxed);
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "cannot connect: refused");
        assert_eq!(ran.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn no_units_is_no_work_and_no_connection() {
        let r = parallel_units::<(), _>(
            &|| Err(anyhow!("must not connect")),
            4,
            &[] as &[u32],
            &|_, _| Ok(()),
        );
        assert!(r.is_ok());
    }
}
