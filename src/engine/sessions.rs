//! Ending the run's own sessions from outside them: at the end of a run, the virtual users
//! still inside a transaction after the grace are cut, as go-tpc's cancelled context cuts
//! its connections: their sockets shut from this side ([`Handle`]), and on the server's
//! side too, so their statements stop and their locks go: MySQL's `KILL CONNECTION id` and
//! PostgreSQL's `pg_terminate_backend(pid)`, which a user may send to its own sessions
//! without any privilege.

use super::{Conn, Engine, TargetUrl};
use std::cell::RefCell;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

impl Conn {
    /// The server's id of this session (MySQL's connection id, PostgreSQL's backend pid),
    /// for [`end`]; None when the server did not say.
    pub fn session_id(&self) -> Option<u64> {
        let id = match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => u64::from(c.connection_id()),
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => u64::try_from(c.backend_pid()).unwrap_or(0),
        };
        (id != 0).then_some(id)
    }

    /// The connection's socket descriptor, for [`Handle::of`].
    fn raw_fd(&self) -> RawFd {
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => c.as_raw_fd(),
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => c.raw_fd(),
        }
    }
}

/// Whether a virtual user's attempt sent a statement that could end a transaction in the
/// server's counts (a COMMIT or ROLLBACK, an autocommitted statement), so that the end of
/// the run can cut, without any allowance, the users that did not: their transactions roll
/// back and MySQL counts nothing for them (Com_commit and Com_rollback count statements).
/// The user passes its gate before each such statement; the cut closes a gate still clean,
/// and a closed gate refuses every statement ([`Error::Cut`](super::Error::Cut)), so that a
/// user cut as clean never sends one.
#[derive(Debug, Default)]
pub struct Gate(AtomicU8);

/// Nothing sent in this attempt could have ended a transaction.
const CLEAN: u8 = 0;
/// Something sent in this attempt could have.
const PASSED: u8 = 1;
/// The end of the run cut the user while clean.
const CLOSED: u8 = 2;

impl Gate {
    /// An attempt starts: clean, unless `open` (a transaction an earlier attempt left open,
    /// which this one may end). A closed gate stays closed.
    pub fn attempt(&self, open: bool) {
        let to = if open { PASSED } else { CLEAN };
        let _ = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |g| {
                (g != CLOSED).then_some(to)
            });
    }

    /// A statement that could end a transaction is about to go out: false when the gate is
    /// closed (then it must not).
    fn pass(&self) -> bool {
        match self
            .0
            .compare_exchange(CLEAN, PASSED, Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => true,
            Err(g) => g == PASSED,
        }
    }

    /// The end of the run cuts the user: closes the gate when clean. Returns whether it did
    /// (the user's transaction certainly ends uncounted), or false: something that could end
    /// one may have gone out.
    pub fn close(&self) -> bool {
        self.0
            .compare_exchange(CLEAN, CLOSED, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    }

    /// Whether the end of the run closed it.
    pub fn closed(&self) -> bool {
        self.0.load(Ordering::SeqCst) == CLOSED
    }
}

thread_local! {
    /// The gate of the virtual user this thread runs ([`guard`]).
    static GATE: RefCell<Option<Arc<Gate>>> = const { RefCell::new(None) };
}

/// The statements this thread sends from now on pass `gate` (None: none), as a virtual
/// user's thread, which alone uses its connection, sets at its start.
pub fn guard(gate: Option<Arc<Gate>>) {
    GATE.with(|g| *g.borrow_mut() = gate);
}

/// This thread's gate (tests).
#[cfg(test)]
pub(crate) fn current_gate() -> Option<Arc<Gate>> {
    GATE.with(|g| g.borrow().clone())
}

/// Swaps this thread's gate with `gate`: a fiber's gate is the thread's while it runs
/// ([`super::fiber`]).
pub(super) fn swap_guard(gate: &mut Option<Arc<Gate>>) {
    GATE.with(|g| std::mem::swap(&mut *g.borrow_mut(), gate));
}

/// Whether the end of a run may cut a session before it sent anything that could end its
/// transaction without the server counting anything for it: MySQL counts COMMIT and ROLLBACK
/// statements (Com_commit, Com_rollback), not the rollback of a killed session;
/// PostgreSQL's pg_stat_database counts a terminated backend's open transaction as rolled
/// back, or nothing if it had not begun, so each cut stays either way there.
pub fn clean_cut_uncounted(engine: Engine) -> bool {
    engine == Engine::Mysql
}

/// What a statement can do to the transaction around it, from its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// BEGIN or START TRANSACTION alone: outside a transaction, it ends none.
    Begin,
    /// One SELECT, INSERT, UPDATE, DELETE or REPLACE (or WITH, VALUES, TABLE, DO, SHOW):
    /// inside a transaction, it ends none.
    Dml,
    /// Anything else (COMMIT, ROLLBACK, CALL, SET, DDL, several statements): it may.
    Other,
}

impl Class {
    /// The class of SQL text: its first word after white space, comments and parentheses,
    /// and whether a second statement follows a `;`.
    pub fn of(sql: &str) -> Class {
        let rest = skip_blank(sql);
        let end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        if after.split(';').skip(1).any(|s| !skip_blank(s).is_empty()) {
            return Class::Other;
        }
        let is = |w: &str| word.eq_ignore_ascii_case(w);
        if is("BEGIN") && !after.to_ascii_uppercase().contains("ATOMIC")
            || is("START")
                && skip_blank(after)
                    .to_ascii_uppercase()
                    .starts_with("TRANSACTION")
        {
            Class::Begin
        } else if [
            "SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "VALUES", "TABLE", "DO",
            "SHOW",
        ]
        .iter()
        .any(|w| is(w))
        {
            Class::Dml
        } else {
            Class::Other
        }
    }

    /// Whether a statement of this class could end a transaction in the server's counts:
    /// inside one (`inside`) only what is not one DML statement; outside, every statement
    /// but BEGIN autocommits; not known (after an error, when MySQL's BEGIN may commit the
    /// transaction still open), every statement.
    pub fn may_end(self, inside: Option<bool>) -> bool {
        match inside {
            Some(true) => self != Class::Dml,
            Some(false) => self != Class::Begin,
            None => true,
        }
    }
}

/// `s` past its leading white space, comments (`--`, `#`, `/* */`) and opening parentheses.
/// An executable comment (`/*!`, `/*M!`, which MySQL and MariaDB run) is not blank.
fn skip_blank(mut s: &str) -> &str {
    loop {
        let t = s.trim_start_matches(|c: char| c.is_whitespace() || c == '(');
        s = if let Some(r) = t.strip_prefix("--").or_else(|| t.strip_prefix('#')) {
            r.split_once('\n').map_or("", |(_, r)| r)
        } else if let Some(r) = t.strip_prefix("/*")
            && !r.starts_with('!')
            && !r.starts_with("M!")
        {
            r.split_once("*/").map_or("", |(_, r)| r)
        } else {
            return t;
        };
    }
}

impl Conn {
    /// Whether a transaction is open on this session, as the server last said; None when
    /// it did not say (MySQL after an error).
    pub fn in_transaction(&self) -> Option<bool> {
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => c.in_transaction(),
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => Some(c.in_transaction()),
        }
    }

    /// Before a statement of `class` goes out on a virtual user's thread: when it could end
    /// a transaction, the thread's gate is passed. Err: the end of the run closed it (the
    /// user was cut), whatever the statement. Threads without a gate (loaders, monitors,
    /// users on PostgreSQL) classify nothing.
    #[inline]
    pub(super) fn gate(&self, class: impl FnOnce() -> Class) -> super::Result<()> {
        GATE.with(|g| match &*g.borrow() {
            Some(gate)
                if gate.closed() || class().may_end(self.in_transaction()) && !gate.pass() =>
            {
                Err(super::Error::Cut)
            }
            _ => Ok(()),
        })
    }
}

/// A hold on a connection's socket from outside its owner: a duplicate of its descriptor,
/// so that the socket outlives its owner's close and the number can never name another
/// socket; [`Handle::shut`] ends the connection's traffic at once, waking a thread blocked
/// reading it.
pub struct Handle(OwnedFd);

impl Handle {
    /// A hold on `conn`'s socket (None: the descriptor could not be duplicated, say at the
    /// limit of open files).
    pub fn of(conn: &Conn) -> Option<Handle> {
        // SAFETY: the descriptor is open while `conn` is borrowed; the duplicate is ours.
        let fd = unsafe { BorrowedFd::borrow_raw(conn.raw_fd()) };
        fd.try_clone_to_owned().ok().map(Handle)
    }

    /// Shuts the socket down both ways: its owner's blocked read returns at once.
    pub fn shut(&self) {
        // SAFETY: a descriptor this handle owns.
        unsafe { libc::shutdown(self.0.as_raw_fd(), libc::SHUT_RDWR) };
    }
}

/// Ends the sessions `ids` of `url`'s server from a connection of its own (closed before
/// returning). A session already gone is not an error. Err, naming the target: the
/// connection or a statement failed (the caller bounds how long this may take).
/// `urls` are one server's ways in, tried in turn: its extra_port past a thread pool first,
/// where the statements do not queue behind the users', then the users' own port.
pub fn end(urls: &[TargetUrl], ids: &[u64]) -> anyhow::Result<()> {
    let (mut conn, url) = first_connection(urls)?;
    let failed = |e: super::Error| anyhow::anyhow!("{url}: {}", super::error_message(&e));
    let list: Vec<String> = ids.iter().map(u64::to_string).collect();
    match conn.engine() {
        // MariaDB's thread pool queues each statement behind the users' (2,000 users queue
        // seconds of them) on their port: one compound statement waits once there and kills
        // them all.
        Engine::Mysql => match conn.query_drop(format!(
            "BEGIN NOT ATOMIC DECLARE CONTINUE HANDLER FOR 1094 DO 0; KILL CONNECTION {}; END",
            list.join("; KILL CONNECTION ")
        )) {
            Ok(()) => Ok(()),
            // MySQL has no compound statement outside a stored program: one at a time.
            Err(e) if super::error_code(&e).0 == 1064 => {
                for id in list {
                    match conn.query_drop(format!("KILL CONNECTION {id}")) {
                        // ER_NO_SUCH_THREAD: it ended on its own meanwhile.
                        Err(e) if super::error_code(&e).0 != 1094 => return Err(failed(e)),
                        _ => {}
                    }
                }
                Ok(())
            }
            Err(e) => Err(failed(e)),
        },
        // One statement: one transaction in pg_stat_database, whatever the count; a backend
        // already gone is a warning.
        Engine::Postgres => conn
            .query_drop(format!(
                "SELECT pg_terminate_backend(p) FROM unnest(ARRAY[{}]::int[]) AS p",
                list.join(",")
            ))
            .map_err(failed),
    }
}

/// A connection to the first of `urls` that takes one, and which; Err: the last refusal.
fn first_connection(urls: &[TargetUrl]) -> anyhow::Result<(Conn, &TargetUrl)> {
    let mut last = None;
    for url in urls {
        match super::connect(url) {
            Ok(c) => return Ok((c, url)),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| anyhow::anyhow!("no server to end the sessions on")))
}

#[cfg(test)]
#[path = "sessions/tests.rs"]
mod tests;
