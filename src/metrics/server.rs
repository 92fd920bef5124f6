//! Server metrics arithmetic: raw samples of the server's counters and of the host it runs
//! on, their deltas, the named per-interval columns of `server.csv`, and the measured-phase
//! figures stored in result.json. Pure data: the sampler (`crate::sampler`) fills
//! [`RawSample`]s; nothing here talks to a server.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod columns;
mod sample;
mod summary;

pub use columns::*;
pub use sample::*;
pub use summary::*;

#[cfg(test)]
mod tests;
