//! The end of a run kept short: the virtual users still inside a transaction a second after
//! the run's end are cut. A closed loop's response time is its users over its throughput
//! (7.5 s at 2,000 users on a 2-core server), so waiting for every transaction in flight
//! would make the end as long; go-tpc's cancelled context cuts its connections the same
//! way. Each user publishes its session (target, the server's id of it, a hold on its
//! socket); the cut shuts the users' sockets, so they stop at once, and ends their sessions
//! on the server from a connection of its own (engine::sessions), so their statements stop
//! and their locks go before the closing sample (waited for after the measured phase, which
//! ends when the users have stopped). A cut user's attempt is counted as cut,
//! neither completed nor failed (its statements sent are counted). A user cut before it sent
//! anything that could end a transaction (its gate still clean, then closed by the cut, so
//! that it never sends one) is counted apart, as cut uncommitted: on MySQL the server
//! counts nothing for it, so any number may be cut. The cross-checks allow each other cut
//! attempt to have ended on the server either way, so those are cut only while few.

use crate::engine::TargetUrl;
use crate::engine::sessions::{Gate, Handle};
use crossbeam_channel::Receiver;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the end of a run waits for the transactions in flight before it cuts the users
/// still inside one.
pub(super) const GRACE: Duration = Duration::from_secs(1);

/// How long the server may take to end the cut sessions (a connection, then one statement)
/// before the closing sample is taken without waiting longer.
const CUT_LIMIT: Duration = Duration::from_secs(5);

/// A virtual user's session: on which target, the server's id of it (0: not known), a
/// hold on its socket, whether the end of the run cut it, and its attempt's gate.
#[derive(Default)]
pub(super) struct Session {
    target: AtomicUsize,
    id: AtomicU64,
    socket: Mutex<Option<Handle>>,
    cut: AtomicBool,
    /// Passed by the user's thread before each statement that could end a transaction.
    pub(super) gate: Arc<Gate>,
}

impl Session {
    /// The user connected to `target` (again, after a reconnect); `hold`: a hold on its
    /// socket is taken (the limit of open files leaves room for it).
    pub(super) fn connected(&self, target: usize, conn: &crate::engine::Conn, hold: bool) {
        self.target.store(target, Ordering::Relaxed);
        self.id
            .store(conn.session_id().unwrap_or(0), Ordering::Relaxed);
        *self.socket.lock().unwrap_or_else(|p| p.into_inner()) =
            hold.then(|| Handle::of(conn)).flatten();
    }

    /// The user is done with its connection: the hold on its socket goes, so that the
    /// socket closes with the connection.
    pub(super) fn released(&self) {
        *self.socket.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// Whether the end of the run cut this user's session (a closed gate is a cut
    /// decided, its flag perhaps not yet set).
    pub(super) fn was_cut(&self) -> bool {
        self.cut.load(Ordering::SeqCst) || self.gate.closed()
    }
}

/// A cut under way: the users cut, and the servers' answers to come.
pub(super) struct Cutting {
    pub(super) users: u64,
    /// Of them, those cut before they sent anything that could end a transaction.
    pub(super) uncommitted: u64,
    /// Connections opened to end the sessions (one per target; on PostgreSQL each is a
    /// login and a transaction).
    pub(super) connections: u64,
    answers: Receiver<Result<(), String>>,
    /// When the users were cut.
    at: Instant,
}

/// Cuts `users` (indexes into `sessions`), of which `uncommitted` were cut with their gates
/// closed: each is marked cut (so that the error it then sees is counted as the cut), its
/// socket shut, and its session ended on its target's server, each target from a thread of
/// its own, through the first of its `ways` in that takes the connection (past a thread
/// pool first).
pub(super) fn cut(
    sessions: &[Session],
    users: &[usize],
    uncommitted: u64,
    ways: &[Vec<TargetUrl>],
) -> Cutting {
    let at = Instant::now();
    let mut by_target: Vec<Vec<u64>> = vec![Vec::new(); ways.len()];
    for &u in users {
        let s = &sessions[u];
        s.cut.store(true, Ordering::SeqCst);
        if let Some(h) = &*s.socket.lock().unwrap_or_else(|p| p.into_inner()) {
            h.shut();
        }
        let (id, target) = (
            s.id.load(Ordering::Relaxed),
            s.target.load(Ordering::Relaxed),
        );
        if id != 0 && target < ways.len() {
            by_target[target].push(id);
        }
    }
    let (tx, answers) = crossbeam_channel::unbounded();
    let mut connections = 0;
    for (urls, ids) in ways.iter().zip(by_target) {
        if ids.is_empty() {
            continue;
        }
        connections += 1;
        let (urls, to) = (urls.clone(), tx.clone());
        // Left running past the limit if the server never answers: the process ends anyway.
        let spawned = std::thread::Builder::new()
            .name("cut".into())
            .spawn(move || {
                let ended = crate::engine::sessions::end(&urls, &ids);
                let _ = to.send(ended.map_err(|e| format!("{e:#}")));
            });
        if let Err(e) = spawned {
            let _ = tx.send(Err(format!("starting the cut: {e}")));
        }
    }
    Cutting {
        users: users.len() as u64,
        uncommitted,
        connections,
        answers,
        at,
    }
}

impl Cutting {
    /// Waits up to [`CUT_LIMIT`] for the servers to end the sessions, after the measured
    /// phase and before the closing sample: the users stopped when their sockets were shut,
    /// and a server takes its time to end sessions (MariaDB's KILLs: 0.3 to 0.9 s for 1,000
    /// to 1,400 TPC-C users, more than 5 s for 2,000 asleep in SLEEP()), which is not the
    /// phase's. Returns the run's note: how long the servers took, or why one did not end
    /// them (no connection left under max_connections, frozen: it ends each session when it
    /// finds its socket closed, and a frozen server has its own verdict).
    pub(super) fn finish(&self) -> String {
        match self.answered() {
            None => format!(
                "the server ended the {} cut session(s) {:.2} s after they were cut (waited for after the measured phase, before the closing sample)",
                self.users,
                self.at.elapsed().as_secs_f64()
            ),
            Some(e) => format!(
                "the server was not asked to end the {} cut session(s) in time ({e}): it ends each when it finds its socket closed",
                self.users
            ),
        }
    }

    /// Waits for every server's answer; returns why one did not answer, if one did not.
    fn answered(&self) -> Option<String> {
        let deadline = Instant::now() + CUT_LIMIT;
        for _ in 0..self.connections {
            match self.answers.recv_deadline(deadline) {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => return Some(e),
                Err(_) => {
                    return Some(format!(
                        "the server did not answer within {} s",
                        CUT_LIMIT.as_secs()
                    ));
                }
            }
        }
        None
    }
}
