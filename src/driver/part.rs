//! What this process runs: the targets its virtual users go to, and its part of the run
//! (every virtual user, or a shard's).

use crate::config::RunConfig;
use crate::engine::TargetUrl;
use std::time::SystemTime;

/// Where the virtual users go: virtual user i to target i mod n at the start; one whose
/// target fails reconnects to the next that answers.
#[derive(Debug, Clone)]
pub struct Targets {
    /// The targets, in order.
    pub urls: Vec<TargetUrl>,
    /// Every target is a node of one cluster (one database): counts kept in its tables
    /// are the cluster's, compared with the total rather than each target's share.
    pub shared_data: bool,
    /// Which targets are Galera nodes: there a data error (a row a transaction must change
    /// found already changed by another node's write) is retried like a conflict, and only
    /// one that persists through --retries counts as a data error.
    pub galera: Vec<bool>,
}

/// This process's part of the run: every virtual user, or a shard's (its users, its parts of
/// --events and --rate, the shared start and what it records for `merge`).
#[derive(Debug, Clone)]
pub struct Part {
    /// Virtual users of `0..cfg.threads`, each run by a thread with that id and seed.
    pub users: Vec<u32>,
    /// This part of --events.
    pub events: Option<u64>,
    /// This part of --rate.
    pub rate: Option<f64>,
    /// When to start, in this client's clock (--start-at less the server's clock offset).
    pub start_at: Option<SystemTime>,
    /// The shard's record (its start time is filled in when the run starts).
    pub shard: Option<crate::results::ShardRecord>,
}

impl Part {
    /// All of `cfg`'s run in this process.
    pub fn whole(cfg: &RunConfig) -> Part {
        Part {
            users: (0..cfg.threads).collect(),
            events: cfg.events,
            rate: cfg.rate,
            start_at: None,
            shard: None,
        }
    }
}
