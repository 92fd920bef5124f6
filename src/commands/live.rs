//! Runs, sweeps and experiments marked in progress as they start, for the live view of
//! `txbench serve` (store::live).

use super::Output;
use crate::store::{self, live, live::Kind};
use std::path::Path;

/// Marks `dir` as in progress for `txbench serve`'s live view (store::live); a marker that
/// cannot be written is a note, never a reason not to run.
pub(super) fn mark(out: &Output, dir: &Path, kind: Kind) {
    let marked =
        store::path(out.store.as_deref()).and_then(|store| live::register(&store, dir, kind));
    if let Err(e) = marked {
        out.note(&format!(
            "the live view of `txbench serve` will not show {}: {}",
            dir.display(),
            crate::error::one_line(&e)
        ));
    }
}
