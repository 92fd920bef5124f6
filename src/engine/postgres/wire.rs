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

use crate::engine::{TargetUrl, Value};
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

/// A failure on a PostgreSQL connection.
#[derive(Debug)]
pub enum Error {
    /// The server's ErrorResponse.
    Db(Box<DbError>),
    /// The socket failed (the connection is unusable from then on).
    Io(io::Error),
    /// The connection failed earlier or the server ended it.
    Closed,
    /// The server asks for a password and the URL has none.
    NoPassword,
    /// The server said something this client does not expect (the connection is dropped).
    Protocol(String),
    /// TLS could not be had as `sslmode` asks (the server has none, a handshake or a
    /// certificate failed, a file could not be read).
    Tls(String),
}

/// The fields of a server error that txbench reads.
#[derive(Debug, Clone)]
pub struct DbError {
    /// ERROR, FATAL, PANIC.
    pub severity: String,
    /// The SQLSTATE.
    pub code: String,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Db(e) => write!(f, "{}: {} ({})", e.severity, e.message, e.code),
            Error::Io(e) => write!(f, "connection lost: {e}"),
            Error::Closed => f.write_str("connection closed"),
            Error::NoPassword => f.write_str("the server asks for a password and none was given"),
            Error::Protocol(m) => write!(f, "protocol error: {m}"),
            Error::Tls(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}

impl Error {
    /// The server's error, if this is one.
    pub fn db(&self) -> Option<&DbError> {
        match self {
            Error::Db(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the server did not answer in time (a connect or startup timeout).
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Io(e) if matches!(e.kind(), io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock))
    }

    /// Whether the connection is gone (a socket failure, or a server that ended it).
    pub fn is_closed(&self) -> bool {
        match self {
            Error::Io(_) | Error::Closed => true,
            Error::Db(e) => e.severity == "FATAL" || e.severity == "PANIC",
            _ => false,
        }
    }
}

enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, Stream>>),
}

/// What protects a connection's traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Security {
    /// Nothing (a unix socket, or TCP without TLS).
    Plain,
    /// TLS, with a server nobody checked (sslmode prefer, require).
    Encrypted,
    /// TLS with a certificate signed by a trusted authority for the host asked
    /// (verify-full; verify-ca's certificate may be any other server's of that authority).
    Verified,
}

impl Stream {
    fn set_timeouts(&self, t: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Tls(s) => s.sock.set_timeouts(t),
            Stream::Tcp(s) => {
                s.set_read_timeout(t)?;
                s.set_write_timeout(t)
            }
            Stream::Unix(s) => {
                s.set_read_timeout(t)?;
                s.set_write_timeout(t)
            }
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            Stream::Unix(s) => s.write(buf),
            // Sent at once: rustls only buffers what it cannot write now.
            Stream::Tls(s) => {
                let n = s.write(buf)?;
                s.flush()?;
                Ok(n)
            }
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A statement parsed and described on one connection: its name and result column types.
#[derive(Clone, Debug)]
pub struct Statement(Arc<StatementInner>);

#[derive(Debug)]
struct StatementInner {
    name: String,
    columns: Arc<[Type]>,
}

impl Statement {
    /// The result columns' types.
    pub fn columns(&self) -> &[Type] {
        &self.0.columns
    }
}

/// One result row, binary: its columns' types and each column's bytes (None for NULL).
pub struct Row {
    columns: Arc<[Type]>,
    body: DataRowBody,
    ranges: Vec<Option<Range<usize>>>,
}

impl Row {
    fn new(columns: Arc<[Type]>, body: DataRowBody) -> Result<Row, Error> {
        let ranges = body.ranges().collect().map_err(Error::Io)?;
        Ok(Row {
            columns,
            body,
            ranges,
        })
    }

    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Column `i`'s type (UNKNOWN for a type txbench does not know, or past the end).
    pub fn type_(&self, i: usize) -> &Type {
        self.columns.get(i).unwrap_or(&Type::UNKNOWN)
    }

    /// Column `i`'s bytes; None for NULL.
    pub fn raw(&self, i: usize) -> Option<&[u8]> {
        self.ranges
            .get(i)?
            .as_ref()
            .map(|r| &self.body.buffer()[r.clone()])
    }

    /// Whether column `i` is NULL (or missing).
    pub fn is_null(&self, i: usize) -> bool {
        self.raw(i).is_none()
    }

    /// Column `i` as `T` (an `Option<T>` reads NULL as None); the message says why not.
    pub fn get<'a, T: FromSql<'a>>(&'a self, i: usize) -> Result<T, String> {
        if i >= self.ranges.len() {
            return Err(format!("no column {}", i + 1));
        }
        let ty = self.type_(i);
        if !T::accepts(ty) {
            return Err(format!(
                "column {} is {ty}, not {}",
                i + 1,
                std::any::type_name::<T>()
            ));
        }
        T::from_sql_nullable(ty, self.raw(i)).map_err(|e| format!("column {}: {e}", i + 1))
    }
}

/// What one round trip returned.
#[derive(Default)]
struct Reply {
    rows: Vec<Row>,
    /// The last CommandComplete's row count (0 for commands without one).
    affected: u64,
    /// The last RowDescription's column types.
    columns: Option<Arc<[Type]>>,
}

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
}

/// Connects and authenticates; `timeout` bounds the connect and every read and write of the
/// startup (none afterwards: a statement may wait as long as the server makes it).
pub fn connect(url: &TargetUrl, app: &str, timeout: Duration) -> Result<Client, Error> {
    use crate::engine::url::SslMode;
    match connect_as(url, app, timeout, url.sslmode) {
        // libpq's prefer: a handshake that fails is tried again without TLS.
        Err(Error::Tls(_)) if url.sslmode == SslMode::Prefer => {
            connect_as(url, app, timeout, SslMode::Disable)
        }
        r => r,
    }
}

fn connect_as(
    url: &TargetUrl,
    app: &str,
    timeout: Duration,
    mode: crate::engine::url::SslMode,
) -> Result<Client, Error> {
    let stream = match &url.socket {
        Some(dir) => {
            let path = dir.join(format!(".s.PGSQL.{}", url.port));
            Stream::Unix(UnixStream::connect(path)?)
        }
        None => {
            let mut last = None;
            let mut found = None;
            for addr in (url.host.as_str(), url.port).to_socket_addrs()? {
                match TcpStream::connect_timeout(&addr, timeout) {
                    Ok(s) => {
                        s.set_nodelay(true)?;
                        found = Some(s);
                        break;
                    }
                    Err(e) => last = Some(e),
                }
            }
            match (found, last) {
                (Some(s), _) => {
                    let (stream, security) = negotiate(Stream::Tcp(s), url, mode, timeout)?;
                    return Client::start(stream, security, url, app, timeout);
                }
                (None, Some(e)) => return Err(Error::Io(e)),
                (None, None) => {
                    return Err(Error::Io(io::Error::new(
                        io::ErrorKind::NotFound,
                        format!("{} has no address", url.host),
                    )));
                }
            }
        }
    };
    // A unix socket is this host's: libpq does not use TLS on one either.
    Client::start(stream, Security::Plain, url, app, timeout)
}

/// Asks the server for TLS (an SSLRequest, unless `sslmode=disable`) and, when it agrees,
/// completes the handshake on `stream`. A server that refuses is used without TLS only
/// where the mode allows it (disable, prefer).
fn negotiate(
    mut stream: Stream,
    url: &TargetUrl,
    mode: crate::engine::url::SslMode,
    timeout: Duration,
) -> Result<(Stream, Security), Error> {
    use crate::engine::url::SslMode;
    if mode == SslMode::Disable {
        return Ok((stream, Security::Plain));
    }
    // The configuration first: a verify mode without its authority file fails before
    // anything is sent.
    let config = super::tls::config(mode, url.sslrootcert.as_deref()).map_err(Error::Tls)?;
    stream.set_timeouts(Some(timeout))?;
    let mut req = BytesMut::new();
    frontend::ssl_request(&mut req);
    stream.write_all(&req)?;
    // One byte: anything the server sends after it before the handshake would be read by
    // rustls as TLS, and refused (no plain bytes slip in ahead of the encrypted ones).
    let mut answer = [0u8; 1];
    stream.read_exact(&mut answer)?;
    match answer[0] {
        b'S' => {
            let tls = super::tls::handshake(config, &url.host, stream).map_err(Error::Tls)?;
            let security = if mode == SslMode::VerifyFull {
                Security::Verified
            } else {
                Security::Encrypted
            };
            Ok((Stream::Tls(Box::new(tls)), security))
        }
        b'N' if mode.required() => Err(Error::Tls(format!(
            "the server at {}:{} does not offer TLS, and sslmode={} requires it",
            url.host,
            url.port,
            mode.name()
        ))),
        b'N' => Ok((stream, Security::Plain)),
        other => Err(Error::Protocol(format!(
            "the server answered the TLS request with byte 0x{other:02x} (expected S or N)"
        ))),
    }
}

impl Client {
    /// Starts a session on a connected stream (a socket pair in the hostile-server tests).
    #[cfg(test)]
    fn over(
        stream: Stream,
        url: &TargetUrl,
        app: &str,
        timeout: Duration,
    ) -> Result<Client, Error> {
        Client::start(stream, Security::Plain, url, app, timeout)
    }

    /// Starts a session on a connected (and, where asked, encrypted) stream.
    fn start(
        stream: Stream,
        security: Security,
        url: &TargetUrl,
        app: &str,
        timeout: Duration,
    ) -> Result<Client, Error> {
        stream.set_timeouts(Some(timeout))?;
        let mut c = Client {
            stream,
            rbuf: BytesMut::with_capacity(READ_CHUNK),
            scratch: vec![0; READ_CHUNK].into_boxed_slice(),
            wbuf: BytesMut::with_capacity(4096),
            broken: false,
            statements: 0,
            transactions: 0,
            prepares_alone: 0,
            status: b'I',
            extended: false,
            security,
        };
        c.startup(url, app)?;
        c.stream.set_timeouts(None)?;
        Ok(c)
    }
}

impl Client {
    fn startup(&mut self, url: &TargetUrl, app: &str) -> Result<(), Error> {
        let params = [
            ("user", url.user.as_str()),
            ("database", url.database.as_str()),
            ("application_name", app),
            ("client_encoding", "UTF8"),
        ];
        frontend::startup_message(params.iter().copied(), &mut self.wbuf)?;
        self.send()?;
        let password = || url.password.as_deref().ok_or(Error::NoPassword);
        // SCRAM in progress, and whether the server proved it knows the password (its
        // final message): an AuthenticationOk before that is a downgrade.
        let mut scram: Option<ScramSha256> = None;
        let mut scram_done = false;
        loop {
            match self.read_message()? {
                Message::AuthenticationOk => {
                    if scram.is_some() && !scram_done {
                        return Err(self.fail(
                            "the server ended SCRAM authentication without its final message (it did not prove it knows the password): refused".into(),
                        ));
                    }
                }
                Message::ParameterStatus(_)
                | Message::BackendKeyData(_)
                | Message::NoticeResponse(_) => {}
                Message::AuthenticationCleartextPassword => {
                    self.password_may_cross(url, "a clear-text password", scram.is_some())?;
                    frontend::password_message(password()?.as_bytes(), &mut self.wbuf)?;
                    self.send()?;
                }
                Message::AuthenticationMd5Password(b) => {
                    self.password_may_cross(url, "an MD5 password hash", scram.is_some())?;
                    let hash = md5_hash(url.user.as_bytes(), password()?.as_bytes(), b.salt());
                    frontend::password_message(hash.as_bytes(), &mut self.wbuf)?;
                    self.send()?;
                }
                Message::AuthenticationSasl(b) => {
                    if scram.is_some() {
                        return Err(self.fail("the server started SASL twice".into()));
                    }
                    let offered: Vec<String> =
                        b.mechanisms().map(|m| Ok(m.to_string())).collect()?;
                    if !offered.iter().any(|m| m == SCRAM_SHA_256) {
                        return Err(self.fail(format!(
                            "the server offers SASL {} and txbench speaks {SCRAM_SHA_256}",
                            offered.join(", ")
                        )));
                    }
                    let s = ScramSha256::new(password()?.as_bytes(), ChannelBinding::unsupported());
                    frontend::sasl_initial_response(SCRAM_SHA_256, s.message(), &mut self.wbuf)?;
                    self.send()?;
                    scram = Some(s);
                }
                Message::AuthenticationSaslContinue(b) => {
                    let s = scram
                        .as_mut()
                        .ok_or_else(|| Error::Protocol("SASL continue before its start".into()))?;
                    s.update(b.data())
                        .map_err(|e| Error::Protocol(format!("SCRAM: {e}")))?;
                    frontend::sasl_response(s.message(), &mut self.wbuf)?;
                    self.send()?;
                }
                Message::AuthenticationSaslFinal(b) => {
                    scram
                        .as_mut()
                        .ok_or_else(|| Error::Protocol("SASL final before its start".into()))?
                        .finish(b.data())
                        .map_err(|e| Error::Protocol(format!("SCRAM: {e}")))?;
                    scram_done = true;
                }
                Message::ReadyForQuery(_) => return Ok(()),
                Message::ErrorResponse(b) => {
                    self.broken = true;
                    return Err(db_error(&b));
                }
                Message::AuthenticationGss
                | Message::AuthenticationKerberosV5
                | Message::AuthenticationScmCredential
                | Message::AuthenticationSspi
                | Message::AuthenticationGssContinue(_) => {
                    return Err(self.fail(
                        "the server asks for GSS, SSPI or Kerberos authentication: txbench speaks password, md5 and scram-sha-256"
                            .into(),
                    ));
                }
                _ => return Err(self.fail("unexpected message during startup".into())),
            }
        }
    }

    /// A password (or its MD5 hash, which works as one) is sent only where nobody can read
    /// it on the way: over a unix socket, to a loopback address, or over TLS to a server
    /// whose certificate was verified for its name (sslmode=verify-full: without, a man in
    /// the middle could be the one asking); never after SCRAM began (a server switching
    /// methods mid-way is a downgrade); and never to a sandbox, which uses SCRAM only (one
    /// that asks for more is not the sandbox).
    fn password_may_cross(
        &mut self,
        url: &TargetUrl,
        what: &str,
        in_scram: bool,
    ) -> Result<(), Error> {
        if in_scram {
            return Err(self.fail(format!(
                "the server asked for {what} after SCRAM began: a downgrade, refused"
            )));
        }
        if url.sandbox_login {
            return Err(self.fail(format!(
                "the server at {}:{} asks for {what}, and sandboxes use SCRAM only: whoever asks is not the sandbox, refused",
                url.host, url.port
            )));
        }
        if !url.is_local() && self.security != Security::Verified {
            return Err(self.fail(format!(
                "the server at {} asks for {what}, which would cross the network readable: txbench sends one only over a unix socket, to a loopback address or over TLS to a verified server (use scram-sha-256 in pg_hba.conf, or sslmode=verify-full with sslrootcert)",
                url.host
            )));
        }
        Ok(())
    }

    /// Transactions the server ended for this session since it started (its startup's own
    /// not included: measure that with a connection that does nothing).
    pub fn transactions_ended(&self) -> u64 {
        self.transactions
    }

    /// Statements prepared outside a transaction: each is a transaction of its own.
    pub fn prepares_alone(&self) -> u64 {
        self.prepares_alone
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
                    let types: std::io::Result<Vec<Type>> = b
                        .fields()
                        .map(|f| Ok(Type::from_oid(f.type_oid()).unwrap_or(Type::UNKNOWN)))
                        .collect();
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

    /// `COPY … FROM STDIN` (`sql`), the data from `chunk` (which returns false after its
    /// last rows), sent in CopyData messages of about 256 KiB. Returns the rows copied.
    pub fn copy_in(
        &mut self,
        sql: &str,
        mut chunk: impl FnMut(&mut dyn Write) -> io::Result<bool>,
    ) -> Result<u64, Error> {
        self.usable()?;
        if let Err(e) = frontend::query(sql, &mut self.wbuf) {
            return Err(self.unencodable(e));
        }
        self.extended = false;
        self.send()?;
        loop {
            match self.read_message()? {
                Message::CopyInResponse(_) => break,
                Message::ErrorResponse(b) => {
                    let e = db_error(&b);
                    if e.is_closed() {
                        self.broken = true;
                        return Err(e);
                    }
                    // The rest of the reply (ReadyForQuery).
                    self.reply(false, None)?;
                    return Err(e);
                }
                Message::NoticeResponse(_) | Message::ParameterStatus(_) => {}
                _ => return Err(self.fail("unexpected reply to COPY FROM STDIN".into())),
            }
        }
        let mut data = CopyData {
            client: self,
            buf: Vec::with_capacity(COPY_CHUNK + (64 << 10)),
        };
        let produced = loop {
            match chunk(&mut data) {
                Ok(true) => continue,
                Ok(false) => break data.flush_data().map_err(Error::Io),
                Err(e) => break Err(Error::Io(e)),
            }
        };
        match produced {
            Ok(()) => frontend::copy_done(&mut self.wbuf),
            Err(e) => {
                if self.broken {
                    return Err(e);
                }
                frontend::copy_fail(&e.to_string(), &mut self.wbuf)?;
                self.send()?;
                let _ = self.reply(false, None);
                return Err(e);
            }
        }
        self.send()?;
        Ok(self.reply(false, None)?.affected)
    }
}

/// COPY data: written into a buffer, sent as a CopyData message whenever it passes
/// [`COPY_CHUNK`].
struct CopyData<'a> {
    client: &'a mut Client,
    buf: Vec<u8>,
}

impl CopyData<'_> {
    fn flush_data(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        frontend::CopyData::new(&self.buf[..])?.write(&mut self.client.wbuf);
        self.buf.clear();
        self.client.send().map_err(|e| match e {
            Error::Io(e) => e,
            other => io::Error::other(other.to_string()),
        })
    }
}

impl Write for CopyData<'_> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= COPY_CHUNK {
            self.flush_data()?;
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
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

/// A parameter in PostgreSQL's text form (the server parses it as the type it inferred).
fn text_param(v: &Value, buf: &mut BytesMut) -> IsNull {
    match v {
        Value::Null => return IsNull::Yes,
        Value::Int(i) => {
            let _ = write!(buf, "{i}");
        }
        Value::Float(f) if f.is_nan() => buf.extend_from_slice(b"NaN"),
        Value::Float(f) if f.is_infinite() => {
            buf.extend_from_slice(if *f > 0.0 { b"Infinity" } else { b"-Infinity" })
        }
        Value::Float(f) => {
            let _ = write!(buf, "{f}");
        }
        Value::Text(s) => buf.extend_from_slice(s.as_bytes()),
    }
    IsNull::No
}

fn db_error(b: &ErrorResponseBody) -> Error {
    let mut e = DbError {
        severity: String::new(),
        code: String::new(),
        message: String::new(),
    };
    let mut fields = b.fields();
    while let Ok(Some(f)) = fields.next() {
        match f.type_() {
            b'V' => e.severity = String::from_utf8_lossy(f.value_bytes()).into_owned(),
            b'S' if e.severity.is_empty() => {
                e.severity = String::from_utf8_lossy(f.value_bytes()).into_owned()
            }
            b'C' => e.code = String::from_utf8_lossy(f.value_bytes()).into_owned(),
            b'M' => e.message = String::from_utf8_lossy(f.value_bytes()).into_owned(),
            _ => {}
        }
    }
    Error::Db(Box::new(e))
}

/// A buffer the tests can build rows from.
#[cfg(test)]
fn data_row(cells: &[Option<&[u8]>]) -> DataRowBody {
    use bytes::BufMut;
    let mut body = BytesMut::new();
    body.put_i16(cells.len() as i16);
    for c in cells {
        match c {
            None => body.put_i32(-1),
            Some(b) => {
                body.put_i32(b.len() as i32);
                body.put_slice(b);
            }
        }
    }
    let mut msg = BytesMut::new();
    msg.put_u8(b'D');
    msg.put_i32(body.len() as i32 + 4);
    msg.put_slice(&body);
    match Message::parse(&mut msg) {
        Ok(Some(Message::DataRow(b))) => b,
        _ => unreachable!("a DataRow"),
    }
}

#[cfg(test)]
#[path = "wire_hostile.rs"]
mod hostile;

#[cfg(test)]
mod tests;
