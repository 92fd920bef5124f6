#![cfg(not(feature = "buffer-pool"))]

// txbench patch 6 (TXBENCH-PATCH.md): without the "buffer-pool" feature, a packet's buffer
// freed is kept by its thread for the thread's next packet (a few, of small capacity),
// instead of each packet read or written allocating and freeing a `Vec`. The feature's own
// pool is one queue for the process, reached through an `Arc` per buffer.

use std::{cell::RefCell, ops::Deref};

/// Buffers a thread keeps, and the largest capacity it keeps.
const KEPT: usize = 4;
const KEPT_CAPACITY: usize = 16 * 1024;

thread_local! {
    static SPARE: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

#[derive(Debug)]
#[repr(transparent)]
pub struct Buffer(Vec<u8>);

impl AsMut<Vec<u8>> for Buffer {
    fn as_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

impl Deref for Buffer {
    type Target = [u8];

    fn deref(&self) -> &Self::Target {
        self.0.deref()
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        let mut buf = std::mem::take(&mut self.0);
        if buf.capacity() == 0 || buf.capacity() > KEPT_CAPACITY {
            return;
        }
        buf.clear();
        // A thread whose locals are gone, or a buffer dropped while the list is borrowed
        // (never: nothing here runs other code while it is), frees it.
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut() {
                if spare.len() < KEPT {
                    spare.push(buf);
                }
            }
        });
    }
}

pub fn get_buffer() -> Buffer {
    let kept = SPARE
        .try_with(|spare| spare.try_borrow_mut().ok().and_then(|mut s| s.pop()))
        .ok()
        .flatten();
    Buffer(kept.unwrap_or_default())
}
