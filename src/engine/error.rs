//! A database error whichever engine raised it, its class (retried, a lost connection, a
//! data error) and the one-line message people read.

use super::*;

/// A database error, whichever engine raised it.
#[derive(Debug)]
pub enum Error {
    /// From the MySQL/MariaDB client or server.
    #[cfg(feature = "mysql")]
    Mysql(::mysql::Error),
    /// From the PostgreSQL client or server.
    #[cfg(feature = "postgres")]
    Postgres(postgres::wire::Error),
    /// A row that must be found or changed was not (the message names the statement and keys).
    Data(String),
    /// A value the workload cannot read as the type it asked for.
    Decode(String),
    /// A conflict with a concurrent transaction the workload found itself (a duplicate key
    /// where a concurrent delete-insert raced it): retried like a serialization failure.
    Conflict(String),
    /// An error a workload's script raised (a sysbench Lua script): its message, with the
    /// file and line.
    Script(String),
    /// The end of the run cut this session before a statement that could end its
    /// transaction went out ([`sessions::Gate`]): nothing was sent.
    Cut,
}

/// A database call's result.
pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&error_message(self))
    }
}

impl std::error::Error for Error {}

#[cfg(feature = "mysql")]
impl From<::mysql::Error> for Error {
    fn from(e: ::mysql::Error) -> Error {
        Error::Mysql(e)
    }
}

#[cfg(feature = "postgres")]
impl From<postgres::wire::Error> for Error {
    fn from(e: postgres::wire::Error) -> Error {
        Error::Postgres(e)
    }
}

/// A data error: `what` names the statement and its keys.
pub fn data_error(what: String) -> Error {
    Error::Data(what)
}

/// The driver's class of a database error.
pub fn classify(e: &Error) -> ErrorClass {
    match e {
        #[cfg(feature = "mysql")]
        Error::Mysql(e) => mysql::classify(e),
        #[cfg(feature = "postgres")]
        Error::Postgres(e) => postgres::classify(e),
        Error::Data(_) => ErrorClass::Data,
        Error::Decode(_) => ErrorClass::Other,
        Error::Conflict(_) => ErrorClass::Serialization,
        Error::Script(_) => ErrorClass::Other,
        Error::Cut => ErrorClass::LostConnection,
    }
}

/// The message of a database error, without the driver's decoration.
pub fn error_message(e: &Error) -> String {
    match e {
        #[cfg(feature = "mysql")]
        Error::Mysql(e) => mysql::error_message(e),
        #[cfg(feature = "postgres")]
        Error::Postgres(e) => postgres::error_message(e),
        Error::Data(m) => format!("{m} ({DATA_ERROR_STATE})"),
        Error::Decode(m) | Error::Conflict(m) | Error::Script(m) => m.clone(),
        Error::Cut => "the end of the run cut this session".to_string(),
    }
}

/// The server's error number and SQLSTATE, as sysbench's scripts read them (errdesc's
/// sql_errno and sql_state): MySQL's code and state; PostgreSQL's SQLSTATE with number 0;
/// a connection lost without a server error is 2013 (CR_SERVER_LOST), state HY000.
pub fn error_code(e: &Error) -> (u32, String) {
    match e {
        #[cfg(feature = "mysql")]
        Error::Mysql(::mysql::Error::MySqlError(me)) => (u32::from(me.code), me.state.clone()),
        #[cfg(feature = "postgres")]
        Error::Postgres(p) if p.db().is_some() => {
            (0, p.db().map(|d| d.code.clone()).unwrap_or_default())
        }
        Error::Data(_) => (0, DATA_ERROR_STATE.to_string()),
        _ if classify(e).disconnects() => (2013, "HY000".to_string()),
        _ => (0, "HY000".to_string()),
    }
}

/// The refusal for a URL whose engine this build leaves out.
#[allow(dead_code)]
pub(crate) fn not_built(engine: Engine) -> anyhow::Error {
    anyhow::anyhow!(
        "this txbench was built without {} (cargo feature `{}`): rebuild with --features {}",
        engine.product(),
        engine.name(),
        engine.name()
    )
}

pub(super) fn io_reason(kind: std::io::ErrorKind, desc: &str) -> String {
    use std::io::ErrorKind as K;
    match kind {
        K::ConnectionRefused => "connection refused (is the server running on that port?)".into(),
        K::TimedOut | K::WouldBlock => format!(
            "no answer within {} s (host unreachable?)",
            CONNECT_TIMEOUT.as_secs()
        ),
        K::NotFound => "no such socket file (is the server running?)".into(),
        _ => desc.to_string(),
    }
}
