//! A PostgreSQL connection's failures, and the server's ErrorResponse read into one.

use super::*;

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

pub(super) fn db_error(b: &ErrorResponseBody) -> Error {
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
