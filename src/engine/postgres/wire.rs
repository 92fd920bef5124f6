//! PostgreSQL's frontend/backend protocol over one blocking socket: TLS as `sslmode` asks
//! (`tls.rs`), the startup (trust, password, MD5 and SCRAM-SHA-256), the simple query, statements parsed and described
//! once then bound and executed in one round trip (Bind/Execute/Sync in one write, one
//! read), statements run once (Parse/Bind/Describe/Execute/Sync, one round trip), and
//! `COPY … FROM STDIN`. Parameters go as text, typed by the server as libpq and pgbench
//! send them; results come back binary and are read with `postgres-types`.
//!
//! Why not the `postgres` crate: it drives tokio-postgres on a runtime per connection, and
//! its per-statement cost (channels, wake-ups, epoll) was most of txbench's client CPU
//! against pgbench (`txbench-bench postgres`). Message framing and authentication are
//! `postgres-protocol`'s; this file only sequences them.

use crate::engine::{TargetUrl, TextRows, Value};
use bytes::BytesMut;
use fallible_iterator::FallibleIterator;
use postgres_protocol::IsNull;
use postgres_protocol::authentication::md5_hash;
use postgres_protocol::authentication::sasl::{ChannelBinding, SCRAM_SHA_256, ScramSha256};
use postgres_protocol::message::backend::{DataRowBody, ErrorResponseBody, Message};
use postgres_protocol::message::frontend;
use postgres_types::{FromSql, Type};
use std::fmt::{self, Write as _};
use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::ops::Range;
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::time::Duration;

mod copy;
mod errors;
mod rows;
mod startup;
mod stream;

pub use copy::CopyData;
use errors::db_error;
pub use errors::{DbError, Error};
#[cfg(test)]
use rows::data_row;
use rows::{Reply, StatementInner, text_param};
pub use rows::{Row, Statement};
pub use startup::connect;
use stream::{Security, Stream};

const READ_CHUNK: usize = 16 << 10;
/// The largest message accepted from a server: its length is read before anything is
/// reserved for it, so a hostile 4 GiB length costs nothing.
pub const MAX_MESSAGE: usize = 64 << 20;
/// The most row bytes one reply may keep (a server that sends rows without end is cut off).
pub const MAX_REPLY: usize = 256 << 20;
const COPY_CHUNK: usize = 256 << 10;

/// One blocking connection.
pub struct Client {
    stream: Stream,
    rbuf: BytesMut,
    scratch: Box<[u8]>,
    wbuf: BytesMut,
    /// Set once the socket failed or the server ended the session.
    broken: bool,
    statements: u32,
    /// The last ReadyForQuery's transaction status: `I` idle, `T` in a transaction, `E` in
    /// a failed one.
    status: u8,
    /// Transactions the server ended for this session (each ReadyForQuery that finds it
    /// idle: an implicit transaction, or a block's COMMIT or ROLLBACK), as pg_stat_database
    /// counts them.
    transactions: u64,
    /// Of those, statements prepared outside a transaction (each Parse/Sync its own).
    prepares_alone: u64,
    /// Whether the round trip in flight is the extended protocol's (ended by Sync).
    extended: bool,
    /// What protects the traffic (decides whether a password may cross).
    security: Security,
    /// The server process serving this session (its BackendKeyData), 0 until it said.
    backend_pid: i32,
}

impl Client {
    /// Transactions the server ended for this session since it started (its startup's own
    /// not included: measure that with a connection that does nothing).
    pub fn transactions_ended(&self) -> u64 {
        self.transactions
    }

    /// Statements prepared outside a transaction: each is a transaction of its own.
    pub fn prepares_alone(&self) -> u64 {
        self.prepares_alone
    }

    /// The server process serving this session (pg_backend_pid()), 0 if the server did not
    /// say.
    pub fn backend_pid(&self) -> i32 {
        self.backend_pid
    }

    /// The socket's descriptor.
    pub fn raw_fd(&self) -> std::os::fd::RawFd {
        self.stream.raw_fd()
    }

    /// Whether the connection can no longer be used.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Whether a transaction is open (or failed and not yet ended), as the server last said.
    pub fn in_transaction(&self) -> bool {
        self.status != b'I'
    }

    /// A message that could not be encoded (a NUL in the SQL, too many parameters): nothing
    /// of it is sent, and the connection stays usable.
    fn unencodable(&mut self, e: impl std::fmt::Display) -> Error {
        self.wbuf.clear();
        Error::Protocol(format!("cannot send the statement: {e}"))
    }

    fn fail(&mut self, why: String) -> Error {
        self.broken = true;
        Error::Protocol(why)
    }

    fn usable(&self) -> Result<(), Error> {
        if self.broken {
            Err(Error::Closed)
        } else {
            Ok(())
        }
    }

    /// Writes what is buffered.
    fn send(&mut self) -> Result<(), Error> {
        let r = self.stream.write_all(&self.wbuf);
        self.wbuf.clear();
        r.map_err(|e| {
            self.broken = true;
            Error::Io(e)
        })
    }

    fn read_message(&mut self) -> Result<Message, Error> {
        loop {
            // The length is checked before the parser reserves room for the message.
            if self.rbuf.len() >= 5 {
                let len =
                    i32::from_be_bytes([self.rbuf[1], self.rbuf[2], self.rbuf[3], self.rbuf[4]]);
                if len < 4 || len as usize > MAX_MESSAGE {
                    return Err(self.fail(format!(
                        "the server sent a message ({:?}) of {len} bytes: not a PostgreSQL message (at most {} MiB are accepted)",
                        self.rbuf[0] as char,
                        MAX_MESSAGE >> 20
                    )));
                }
            }
            match Message::parse(&mut self.rbuf) {
                Ok(Some(m)) => return Ok(m),
                Ok(None) => {}
                Err(e) => {
                    self.broken = true;
                    return Err(Error::Io(e));
                }
            }
            match self.stream.read(&mut self.scratch) {
                Ok(0) => {
                    self.broken = true;
                    return Err(Error::Io(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the server closed the connection",
                    )));
                }
                Ok(n) => self.rbuf.extend_from_slice(&self.scratch[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.broken = true;
                    return Err(Error::Io(e));
                }
            }
        }
    }

    /// Reads up to ReadyForQuery; returns the first error the server sent, after the whole
    /// reply (the connection stays in step). `columns` types the rows until a
    /// RowDescription says otherwise; rows are kept only when `keep_rows`.
    fn reply(&mut self, keep_rows: bool, columns: Option<Arc<[Type]>>) -> Result<Reply, Error> {
        let mut out = Reply {
            columns,
            ..Reply::default()
        };
        let mut error = None;
        let mut kept = 0usize;
        loop {
            match self.read_message()? {
                Message::ReadyForQuery(b) => {
                    self.status = b.status();
                    if self.status == b'I' {
                        self.transactions += 1;
                    }
                    return match error {
                        Some(e) => Err(e),
                        None => Ok(out),
                    };
                }
                Message::DataRow(body) => {
                    if keep_rows && error.is_none() {
                        kept += body.buffer().len();
                        if kept > MAX_REPLY {
                            return Err(self.fail(format!(
                                "the server's reply holds more than {} MiB of rows: not what txbench asked for",
                                MAX_REPLY >> 20
                            )));
                        }
                        let cols = out.columns.clone().unwrap_or_else(|| Arc::from([]));
                        match Row::new(cols, body) {
                            Ok(r) => out.rows.push(r),
                            Err(e) => return Err(self.fail(format!("a malformed row: {e}"))),
                        }
                    }
                }
                Message::CommandComplete(b) => {
                    let tag = match b.tag() {
                        Ok(t) => t,
                        Err(e) => return Err(self.fail(format!("a malformed command tag: {e}"))),
                    };
                    out.affected = tag
                        .rsplit(' ')
                        .next()
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(0);
                }
                Message::RowDescription(b) => {
                    let mut names = Vec::new();
                    let types: std::io::Result<Vec<Type>> = b
                        .fields()
                        .map(|f| {
                            names.push(f.name().to_string());
                            Ok(Type::from_oid(f.type_oid()).unwrap_or(Type::UNKNOWN))
                        })
                        .collect();
                    out.names = names;
                    match types {
                        Ok(t) => out.columns = Some(t.into()),
                        Err(e) => {
                            return Err(self.fail(format!("a malformed row description: {e}")));
                        }
                    }
                }
                Message::ErrorResponse(b) => {
                    let e = db_error(&b);
                    if e.is_closed() {
                        // The server ends the session after a FATAL error.
                        self.broken = true;
                        return Err(e);
                    }
                    error.get_or_insert(e);
                }
                Message::CopyInResponse(_) => {
                    // COPY FROM STDIN outside copy_in: refuse, the server then ends it. In
                    // the extended protocol it then waits for a Sync (the one sent before
                    // was taken as copy data's end).
                    frontend::copy_fail(
                        "txbench sends COPY data only through its loader",
                        &mut self.wbuf,
                    )?;
                    if self.extended {
                        frontend::sync(&mut self.wbuf);
                    }
                    self.send()?;
                }
                Message::ParseComplete
                | Message::BindComplete
                | Message::CloseComplete
                | Message::NoData
                | Message::ParameterDescription(_)
                | Message::EmptyQueryResponse
                | Message::PortalSuspended
                | Message::NoticeResponse(_)
                | Message::NotificationResponse(_)
                | Message::ParameterStatus(_)
                | Message::CopyOutResponse(_)
                | Message::CopyData(_)
                | Message::CopyDone => {}
                _ => return Err(self.fail("unexpected message from the server".into())),
            }
        }
    }

    /// Runs SQL text with the simple query protocol (one or more statements; rows dropped).
    pub fn batch_execute(&mut self, sql: &str) -> Result<u64, Error> {
        self.usable()?;
        if let Err(e) = frontend::query(sql, &mut self.wbuf) {
            return Err(self.unencodable(e));
        }
        self.extended = false;
        self.send()?;
        Ok(self.reply(false, None)?.affected)
    }

    /// Parses and describes a statement written with `$n` placeholders, once.
    pub fn prepare(&mut self, sql: &str) -> Result<Statement, Error> {
        self.usable()?;
        self.statements += 1;
        let name = format!("txb{}", self.statements);
        if let Err(e) = frontend::parse(&name, sql, std::iter::empty(), &mut self.wbuf)
            .and_then(|_| frontend::describe(b'S', &name, &mut self.wbuf))
        {
            return Err(self.unencodable(e));
        }
        frontend::sync(&mut self.wbuf);
        self.extended = true;
        let alone = self.status == b'I';
        self.send()?;
        let reply = self.reply(false, None);
        if alone {
            self.prepares_alone += 1;
        }
        let reply = reply?;
        Ok(Statement(Arc::new(StatementInner {
            name,
            columns: reply.columns.unwrap_or_else(|| Arc::from([])),
        })))
    }

    /// Binds `params` to a prepared statement and runs it: one write, one reply. Returns
    /// its rows (when `keep_rows`) and the rows it changed or returned.
    pub fn execute(
        &mut self,
        st: &Statement,
        params: &[Value],
        keep_rows: bool,
    ) -> Result<(Vec<Row>, u64), Error> {
        self.usable()?;
        self.bind(&st.0.name, params, !st.0.columns.is_empty())?;
        if let Err(e) = frontend::execute("", 0, &mut self.wbuf) {
            return Err(self.unencodable(e));
        }
        frontend::sync(&mut self.wbuf);
        self.extended = true;
        self.send()?;
        let reply = self.reply(keep_rows, Some(st.0.columns.clone()))?;
        Ok((reply.rows, reply.affected))
    }

    /// Runs a statement once (the unnamed statement): Parse, Bind, Describe, Execute and
    /// Sync in one write, one reply.
    pub fn execute_once(&mut self, sql: &str, params: &[Value]) -> Result<(Vec<Row>, u64), Error> {
        self.usable()?;
        if let Err(e) = frontend::parse("", sql, std::iter::empty(), &mut self.wbuf) {
            return Err(self.unencodable(e));
        }
        // Binary results for every column (one format code applies to all; a statement
        // without columns ignores it).
        self.bind("", params, true)?;
        if let Err(e) = frontend::describe(b'P', "", &mut self.wbuf)
            .and_then(|_| frontend::execute("", 0, &mut self.wbuf))
        {
            return Err(self.unencodable(e));
        }
        frontend::sync(&mut self.wbuf);
        self.extended = true;
        self.send()?;
        let reply = self.reply(true, None)?;
        Ok((reply.rows, reply.affected))
    }

    /// Runs SQL text with the simple query protocol and keeps its rows in the protocol's
    /// text form (what libpq's PQgetvalue gives pgbench): the columns' names and each cell,
    /// None for NULL.
    pub fn simple_query_text(&mut self, sql: &str) -> Result<TextRows, Error> {
        self.usable()?;
        if let Err(e) = frontend::query(sql, &mut self.wbuf) {
            return Err(self.unencodable(e));
        }
        self.extended = false;
        self.send()?;
        let reply = self.reply(true, None)?;
        let rows = reply
            .rows
            .iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| r.raw(i).map(|b| String::from_utf8_lossy(b).into_owned()))
                    .collect()
            })
            .collect();
        Ok((reply.names, rows))
    }

    /// One row of `sql` (no parameters); an error when it returns none.
    pub fn query_one(&mut self, sql: &str) -> Result<Row, Error> {
        self.execute_once(sql, &[])?
            .0
            .into_iter()
            .next()
            .ok_or_else(|| Error::Protocol(format!("no row from: {sql}")))
    }

    fn bind(&mut self, statement: &str, params: &[Value], binary: bool) -> Result<(), Error> {
        let formats: &[i16] = if binary { &[1] } else { &[] };
        let r = frontend::bind(
            "",
            statement,
            std::iter::empty(),
            params,
            |v, buf| Ok(text_param(v, buf)),
            formats.iter().copied(),
            &mut self.wbuf,
        );
        match r {
            Ok(()) => Ok(()),
            Err(frontend::BindError::Conversion(e)) => Err(self.unencodable(e)),
            Err(frontend::BindError::Serialization(e)) => Err(self.unencodable(e)),
        }
    }
}

impl Drop for Client {
    /// Says goodbye and waits (at most 1 s) until the server closes the connection: its
    /// backend has then flushed its statistics (PostgreSQL flushes them before it closes the
    /// socket), so the transactions of a command that just ended (a prepare) are counted
    /// before the next command's first sample, not inside its run.
    fn drop(&mut self) {
        if !self.broken {
            self.wbuf.clear();
            frontend::terminate(&mut self.wbuf);
            if self.stream.write_all(&self.wbuf).is_ok()
                && self
                    .stream
                    .set_timeouts(Some(Duration::from_secs(1)))
                    .is_ok()
            {
                let mut buf = [0u8; 256];
                while matches!(self.stream.read(&mut buf), Ok(n) if n > 0) {}
            }
        }
    }
}

#[cfg(test)]
mod hostile;

#[cfg(test)]
mod tests;
