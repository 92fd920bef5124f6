//! Ending the run's own sessions from outside them: at the end of a run, the virtual users
//! still inside a transaction after the grace are cut, as go-tpc's cancelled context cuts
//! its connections: their sockets shut from this side ([`Handle`]), and on the server's
//! side too, so their statements stop and their locks go: MySQL's `KILL CONNECTION id` and
//! PostgreSQL's `pg_terminate_backend(pid)`, which a user may send to its own sessions
//! without any privilege.

use super::{Conn, Engine, TargetUrl};
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd, RawFd};

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
