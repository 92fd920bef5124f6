//! Ctrl-C and SIGTERM: the run finishes its interval, writes everything and exits 130;
//! waits (for --start-at) end at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

pub(super) static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C (or SIGTERM) arrived since the handler was installed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Installs the Ctrl-C / SIGTERM handler (once per process): the run finishes its
/// interval, writes everything and exits 130.
pub fn install_signal_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    });
}

/// Sleeps until `at` (this client's clock), or until Ctrl-C, in steps of at most 50 ms.
pub(super) fn sleep_until(at: SystemTime) {
    while !INTERRUPTED.load(Ordering::SeqCst) {
        let Ok(left) = at.duration_since(SystemTime::now()) else {
            break;
        };
        std::thread::sleep(left.min(Duration::from_millis(50)));
    }
}
