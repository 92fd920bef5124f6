//! The engine seam: how txbench speaks to a database, apart from what a transaction does.
//!
//! A workload states its statements once, with `?` placeholders, and runs them through
//! [`Conn`]: `prep`, `exec_drop`, `exec_first`, `exec`, `query_drop`, `affected_rows`, with
//! parameters as tuples ([`Params`]) and rows decoded into tuples ([`FromRow`]). Each engine
//! lives in a folder of its own behind a cargo feature: `engine/mysql/` (MySQL, MariaDB) and
//! `engine/postgres/` (PostgreSQL: placeholders become `$n`, parameters take the types the
//! server inferred, and its sandbox, DDL, loading and procedures). [`Conn`] is an enum, so
//! the MySQL hot path is one match away from the `mysql` crate's own calls.
//!
//! What differs by more than a placeholder (DDL, bulk loading, stored procedures, the
//! server's counters) a workload asks of the engine's folder, through `conn.engine()`.

mod url;

#[cfg(feature = "mysql")]
pub mod mysql;
pub mod postgres;
pub mod sandbox;

pub use self::url::{Engine, REDACTED, TargetUrl, UrlError, redact_url, redact_urls_in};

use crate::metrics::ErrorClass;
use crate::preflight::Preflight;
use std::fmt;
use std::time::Duration;

/// How long a TCP connect may take before we call the host unreachable.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The SQLSTATE of a data error (TPC-C clause 2.3.6: a row that must exist was not found or
/// not changed), raised by txbench's client SQL and by its stored procedures.
pub const DATA_ERROR_STATE: &str = "TX236";

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
        Error::Decode(m) | Error::Conflict(m) => m.clone(),
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

/// One open connection to a target.
pub enum Conn {
    /// MySQL or MariaDB.
    #[cfg(feature = "mysql")]
    Mysql(::mysql::Conn),
    /// PostgreSQL (boxed: its client is far larger than MySQL's).
    #[cfg(feature = "postgres")]
    Postgres(Box<postgres::Session>),
}

/// A statement prepared on one connection (it belongs to that connection).
#[derive(Clone)]
pub enum Stmt {
    /// MySQL's server-side statement.
    #[cfg(feature = "mysql")]
    Mysql(::mysql::Statement),
    /// PostgreSQL's named statement.
    #[cfg(feature = "postgres")]
    Postgres(postgres::Statement),
}

/// What `exec*` runs: a prepared [`Stmt`], or SQL text with `?` placeholders (prepared for
/// the one call).
pub enum StmtRef<'a> {
    /// Prepared on this connection.
    Prepared(&'a Stmt),
    /// Text.
    Text(&'a str),
}

/// A prepared statement or statement text.
pub trait AsStmt {
    /// This statement.
    fn as_stmt(&self) -> StmtRef<'_>;
}

impl AsStmt for &Stmt {
    #[inline]
    fn as_stmt(&self) -> StmtRef<'_> {
        StmtRef::Prepared(self)
    }
}

impl AsStmt for &str {
    fn as_stmt(&self) -> StmtRef<'_> {
        StmtRef::Text(self)
    }
}

impl AsStmt for String {
    fn as_stmt(&self) -> StmtRef<'_> {
        StmtRef::Text(self)
    }
}

impl AsStmt for &String {
    fn as_stmt(&self) -> StmtRef<'_> {
        StmtRef::Text(self)
    }
}

/// Opens one connection, turning the driver's errors into one line that names the target
/// (with its password redacted) and what to check.
pub fn connect(url: &TargetUrl) -> anyhow::Result<Conn> {
    match url.engine {
        #[cfg(feature = "mysql")]
        Engine::Mysql => Ok(Conn::Mysql(mysql::connect(url)?)),
        #[cfg(feature = "postgres")]
        Engine::Postgres => Ok(Conn::Postgres(Box::new(postgres::connect(url)?))),
        #[allow(unreachable_patterns)]
        other => Err(not_built(other)),
    }
}

/// Reads the pre-flight variables of a connected server.
pub fn preflight(conn: &mut Conn) -> anyhow::Result<Preflight> {
    match conn {
        #[cfg(feature = "mysql")]
        Conn::Mysql(c) => mysql::preflight(c),
        #[cfg(feature = "postgres")]
        Conn::Postgres(c) => postgres::preflight(c),
    }
}

/// The server's clock against this client's: (server minus client, round trip), seconds,
/// from the shortest of five round trips, the server's reading taken as made at the trip's
/// middle (so known to within half the round trip).
pub fn clock_offset(conn: &mut Conn) -> anyhow::Result<(f64, f64)> {
    let mut best: Option<(f64, f64)> = None;
    for _ in 0..5 {
        let before = crate::shard::unix_s(std::time::SystemTime::now());
        let server = match conn {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => mysql::server_clock(c)?,
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => postgres::server_clock(c)?,
        };
        let after = crate::shard::unix_s(std::time::SystemTime::now());
        let rtt = (after - before).max(0.0);
        let offset = server - (before + after) / 2.0;
        if best.is_none_or(|(_, r)| rtt < r) {
            best = Some((offset, rtt));
        }
    }
    Ok(best.unwrap_or((0.0, 0.0)))
}

fn io_reason(kind: std::io::ErrorKind, desc: &str) -> String {
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

/// A parameter or cell value in engine-neutral form.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// Any integer.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// Text (also decimals written out, which each engine reads as its DECIMAL/NUMERIC).
    Text(String),
}

/// One statement parameter: an integer, a float, text, an Option of one, or a [`Value`].
pub trait Param {
    /// As the `mysql` crate's value (no copy of text).
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value;
    /// As a neutral value.
    fn into_value(self) -> Value;
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl Param for $t {
            #[cfg(feature = "mysql")]
            #[inline]
            fn into_mysql(self) -> ::mysql::Value {
                self.into()
            }
            #[inline]
            fn into_value(self) -> Value {
                Value::Int(self as i64)
            }
        }
    )*};
}
int_param!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

impl Param for f64 {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        self.into()
    }
    fn into_value(self) -> Value {
        Value::Float(self)
    }
}

impl Param for &str {
    #[cfg(feature = "mysql")]
    #[inline]
    fn into_mysql(self) -> ::mysql::Value {
        self.into()
    }
    fn into_value(self) -> Value {
        Value::Text(self.to_string())
    }
}

impl Param for &String {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        self.as_str().into()
    }
    fn into_value(self) -> Value {
        Value::Text(self.clone())
    }
}

impl Param for String {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        ::mysql::Value::Bytes(self.into_bytes())
    }
    fn into_value(self) -> Value {
        Value::Text(self)
    }
}

impl Param for &[u8] {
    #[cfg(feature = "mysql")]
    #[inline]
    fn into_mysql(self) -> ::mysql::Value {
        self.into()
    }
    fn into_value(self) -> Value {
        Value::Text(String::from_utf8_lossy(self).into_owned())
    }
}

macro_rules! value_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value {
                v.into_value()
            }
        }
    )*};
}
value_from!(i32, i64, u32, u64, f64, String, &str);

impl Param for Value {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        match self {
            Value::Null => ::mysql::Value::NULL,
            Value::Int(i) => ::mysql::Value::Int(i),
            Value::Float(f) => ::mysql::Value::Double(f),
            Value::Text(s) => ::mysql::Value::Bytes(s.into_bytes()),
        }
    }
    fn into_value(self) -> Value {
        self
    }
}

impl<T: Param> Param for Option<T> {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        self.map_or(::mysql::Value::NULL, Param::into_mysql)
    }
    fn into_value(self) -> Value {
        self.map_or(Value::Null, Param::into_value)
    }
}

/// A statement's parameters: `()`, a tuple of [`Param`]s, or a `Vec` of one type.
pub trait Params {
    /// As the `mysql` crate's positional parameters.
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Params;
    /// As neutral values.
    fn into_values(self) -> Vec<Value>;
}

impl Params for () {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Params {
        ::mysql::Params::Empty
    }
    fn into_values(self) -> Vec<Value> {
        Vec::new()
    }
}

impl<T: Param> Params for Vec<T> {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Params {
        if self.is_empty() {
            return ::mysql::Params::Empty;
        }
        ::mysql::Params::Positional(self.into_iter().map(Param::into_mysql).collect())
    }
    fn into_values(self) -> Vec<Value> {
        self.into_iter().map(Param::into_value).collect()
    }
}

macro_rules! tuple_params {
    ($($n:tt $t:ident),+) => {
        impl<$($t: Param),+> Params for ($($t,)+) {
            #[cfg(feature = "mysql")]
            #[inline]
            fn into_mysql(self) -> ::mysql::Params {
                ::mysql::Params::Positional(vec![$(self.$n.into_mysql()),+])
            }
            fn into_values(self) -> Vec<Value> {
                vec![$(self.$n.into_value()),+]
            }
        }
    };
}
tuple_params!(0 A);
tuple_params!(0 A, 1 B);
tuple_params!(0 A, 1 B, 2 C);
tuple_params!(0 A, 1 B, 2 C, 3 D);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L);

/// One cell of a result row, read as this type.
pub trait Cell: Sized {
    /// From the `mysql` crate's value.
    #[cfg(feature = "mysql")]
    fn from_mysql(v: ::mysql::Value) -> Result<Self>;
    /// From column `i` of a PostgreSQL row.
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self>;
}

/// A result row read as a tuple of [`Cell`]s (or a whole [`Row`]).
pub trait FromRow: Sized {
    /// From the `mysql` crate's row.
    #[cfg(feature = "mysql")]
    fn from_mysql(row: ::mysql::Row) -> Result<Self>;
    /// From a PostgreSQL row.
    #[cfg(feature = "postgres")]
    fn from_postgres(row: postgres::Row) -> Result<Self>;
}

/// A whole row as neutral values (for rows read for their existence or shown as they are).
#[derive(Debug, Clone, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// Column `i` as text, if it is text.
    pub fn text(&self, i: usize) -> Option<&str> {
        match self.0.get(i) {
            Some(Value::Text(s)) => Some(s),
            _ => None,
        }
    }
}

/// A one-column row is its cell.
impl<T: Cell> FromRow for T {
    #[cfg(feature = "mysql")]
    #[inline]
    fn from_mysql(row: ::mysql::Row) -> Result<Self> {
        let mut cells = row.unwrap().into_iter();
        if cells.len() != 1 {
            return Err(Error::Decode(format!(
                "a row of {} columns, 1 expected",
                cells.len()
            )));
        }
        T::from_mysql(cells.next().unwrap_or(::mysql::Value::NULL))
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: postgres::Row) -> Result<Self> {
        if row.len() != 1 {
            return Err(Error::Decode(format!(
                "a row of {} columns, 1 expected",
                row.len()
            )));
        }
        T::from_postgres(&row, 0)
    }
}

impl FromRow for Row {
    #[cfg(feature = "mysql")]
    fn from_mysql(row: ::mysql::Row) -> Result<Self> {
        row.unwrap()
            .into_iter()
            .map(<Value as Cell>::from_mysql)
            .collect::<Result<_>>()
            .map(Row)
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: postgres::Row) -> Result<Self> {
        (0..row.len())
            .map(|i| <Value as Cell>::from_postgres(&row, i))
            .collect::<Result<_>>()
            .map(Row)
    }
}

macro_rules! tuple_row {
    ($len:expr; $($n:tt $t:ident),+) => {
        impl<$($t: Cell),+> FromRow for ($($t,)+) {
            #[cfg(feature = "mysql")]
            #[inline]
            fn from_mysql(row: ::mysql::Row) -> Result<Self> {
                let mut cells = row.unwrap().into_iter();
                if cells.len() != $len {
                    return Err(Error::Decode(format!(
                        "a row of {} columns, {} expected", cells.len(), $len
                    )));
                }
                Ok(($($t::from_mysql(cells.next().unwrap_or(::mysql::Value::NULL))?,)+))
            }
            #[cfg(feature = "postgres")]
            fn from_postgres(row: postgres::Row) -> Result<Self> {
                if row.len() != $len {
                    return Err(Error::Decode(format!(
                        "a row of {} columns, {} expected", row.len(), $len
                    )));
                }
                Ok(($($t::from_postgres(&row, $n)?,)+))
            }
        }
    };
}
tuple_row!(1; 0 A);
tuple_row!(2; 0 A, 1 B);
tuple_row!(3; 0 A, 1 B, 2 C);
tuple_row!(4; 0 A, 1 B, 2 C, 3 D);
tuple_row!(5; 0 A, 1 B, 2 C, 3 D, 4 E);
tuple_row!(6; 0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
tuple_row!(7; 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
tuple_row!(8; 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);

impl Conn {
    /// Which engine this connection speaks.
    pub fn engine(&self) -> Engine {
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(_) => Engine::Mysql,
            #[cfg(feature = "postgres")]
            Conn::Postgres(_) => Engine::Postgres,
        }
    }

    /// The MySQL connection underneath, for what only MySQL has.
    #[cfg(feature = "mysql")]
    pub fn as_mysql(&mut self) -> Option<&mut ::mysql::Conn> {
        match self {
            Conn::Mysql(c) => Some(c),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// The PostgreSQL session underneath, for what only PostgreSQL has.
    #[cfg(feature = "postgres")]
    pub fn as_postgres(&mut self) -> Option<&mut postgres::Session> {
        match self {
            Conn::Postgres(c) => Some(c),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// Ends the transaction in progress with ROLLBACK. On PostgreSQL only when one is open:
    /// there a ROLLBACK outside a transaction is a transaction of its own (pg_stat_database
    /// counts it), so, as pgbench does, none is sent.
    pub fn rollback(&mut self) -> Result<()> {
        match self {
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) if !c.in_transaction() => Ok(()),
            _ => self.query_drop("ROLLBACK"),
        }
    }

    /// Runs `f` (a virtual user's preparation of a new connection) in one transaction on
    /// PostgreSQL, where each statement prepared outside one is a transaction of its own.
    pub fn in_one_transaction<T>(&mut self, f: impl FnOnce(&mut Conn) -> Result<T>) -> Result<T> {
        if self.engine() != Engine::Postgres {
            return f(self);
        }
        self.query_drop("BEGIN")?;
        match f(self) {
            Ok(v) => {
                self.query_drop("COMMIT")?;
                Ok(v)
            }
            Err(e) => {
                let _ = self.rollback();
                Err(e)
            }
        }
    }

    /// Runs SQL text (one or more statements) and drops any result.
    #[inline]
    pub fn query_drop(&mut self, sql: impl AsRef<str>) -> Result<()> {
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => Ok(::mysql::prelude::Queryable::query_drop(c, sql.as_ref())?),
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => c.query_drop(sql.as_ref()),
        }
    }

    /// Runs SQL text and returns its first row.
    pub fn query_first<T: FromRow>(&mut self, sql: impl AsRef<str>) -> Result<Option<T>> {
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => {
                ::mysql::prelude::Queryable::query_first::<::mysql::Row, _>(c, sql.as_ref())?
                    .map(T::from_mysql)
                    .transpose()
            }
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => c
                .query(sql.as_ref())?
                .into_iter()
                .next()
                .map(T::from_postgres)
                .transpose(),
        }
    }

    /// Runs SQL text and returns every row.
    pub fn query<T: FromRow>(&mut self, sql: impl AsRef<str>) -> Result<Vec<T>> {
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => {
                ::mysql::prelude::Queryable::query::<::mysql::Row, _>(c, sql.as_ref())?
                    .into_iter()
                    .map(T::from_mysql)
                    .collect()
            }
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => c
                .query(sql.as_ref())?
                .into_iter()
                .map(T::from_postgres)
                .collect(),
        }
    }

    /// Prepares a statement written with `?` placeholders.
    pub fn prep(&mut self, sql: impl AsRef<str>) -> Result<Stmt> {
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => Ok(Stmt::Mysql(::mysql::prelude::Queryable::prep(
                c,
                sql.as_ref(),
            )?)),
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => Ok(Stmt::Postgres(c.prep(sql.as_ref())?)),
        }
    }

    /// Executes a statement and drops its result (rows changed: [`Conn::affected_rows`]).
    #[inline]
    pub fn exec_drop<S: AsStmt, P: Params>(&mut self, st: S, params: P) -> Result<()> {
        match (self, st.as_stmt()) {
            #[cfg(feature = "mysql")]
            (Conn::Mysql(c), StmtRef::Prepared(Stmt::Mysql(s))) => Ok(
                ::mysql::prelude::Queryable::exec_drop(c, s, params.into_mysql())?,
            ),
            #[cfg(feature = "mysql")]
            (Conn::Mysql(c), StmtRef::Text(s)) => Ok(::mysql::prelude::Queryable::exec_drop(
                c,
                s,
                params.into_mysql(),
            )?),
            #[cfg(feature = "postgres")]
            (Conn::Postgres(c), StmtRef::Prepared(Stmt::Postgres(s))) => {
                c.exec_drop(s, params.into_values())
            }
            #[cfg(feature = "postgres")]
            (Conn::Postgres(c), StmtRef::Text(s)) => c.exec_once(s, params.into_values()).map(drop),
            #[allow(unreachable_patterns)]
            _ => Err(foreign_statement()),
        }
    }

    /// Executes a statement and returns its first row.
    #[inline]
    pub fn exec_first<T: FromRow, S: AsStmt, P: Params>(
        &mut self,
        st: S,
        params: P,
    ) -> Result<Option<T>> {
        Ok(self.exec_rows(st, params, true)?.into_iter().next())
    }

    /// Executes a statement and returns every row.
    pub fn exec<T: FromRow, S: AsStmt, P: Params>(&mut self, st: S, params: P) -> Result<Vec<T>> {
        self.exec_rows(st, params, false)
    }

    #[inline]
    fn exec_rows<T: FromRow, S: AsStmt, P: Params>(
        &mut self,
        st: S,
        params: P,
        first: bool,
    ) -> Result<Vec<T>> {
        match (self, st.as_stmt()) {
            #[cfg(feature = "mysql")]
            (Conn::Mysql(c), st) => {
                use ::mysql::prelude::Queryable;
                let params = params.into_mysql();
                let rows: Vec<::mysql::Row> = match (st, first) {
                    (StmtRef::Prepared(Stmt::Mysql(s)), true) => {
                        c.exec_first(s, params)?.into_iter().collect()
                    }
                    (StmtRef::Prepared(Stmt::Mysql(s)), false) => c.exec(s, params)?,
                    (StmtRef::Text(s), true) => c.exec_first(s, params)?.into_iter().collect(),
                    (StmtRef::Text(s), false) => c.exec(s, params)?,
                    #[allow(unreachable_patterns)]
                    _ => return Err(foreign_statement()),
                };
                rows.into_iter().map(T::from_mysql).collect()
            }
            #[cfg(feature = "postgres")]
            (Conn::Postgres(c), st) => {
                let rows = match st {
                    StmtRef::Prepared(Stmt::Postgres(s)) => c.exec(s, params.into_values())?,
                    StmtRef::Text(s) => c.exec_once(s, params.into_values())?,
                    #[allow(unreachable_patterns)]
                    _ => return Err(foreign_statement()),
                };
                let take = if first { rows.len().min(1) } else { rows.len() };
                rows.into_iter().take(take).map(T::from_postgres).collect()
            }
        }
    }

    /// PostgreSQL: the transactions the server ended for this connection and, of them, the
    /// statements prepared outside a transaction (pg_stat_database counts each); None on
    /// MySQL, whose Com_ counters need no such count.
    pub fn pg_transactions(&self) -> Option<(u64, u64)> {
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(_) => None,
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => Some((c.transactions_ended(), c.prepares_alone())),
        }
    }

    /// Rows the last statement changed (MySQL: changed; PostgreSQL: matched, which for the
    /// workloads' updates is the same).
    #[inline]
    pub fn affected_rows(&self) -> u64 {
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => c.affected_rows(),
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => c.affected_rows(),
        }
    }
}

#[allow(dead_code)]
fn foreign_statement() -> Error {
    Error::Decode("a statement prepared for another engine".into())
}

macro_rules! int_cell {
    ($($t:ty),*) => {$(
        impl Cell for $t {
            #[cfg(feature = "mysql")]
            #[inline]
            fn from_mysql(v: ::mysql::Value) -> Result<Self> {
                ::mysql::from_value_opt::<$t>(v).map_err(|e| Error::Decode(e.to_string()))
            }
            #[cfg(feature = "postgres")]
            fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
                let v = postgres::int_cell(row, i)?;
                <$t>::try_from(v).map_err(|_| {
                    Error::Decode(format!("{v} does not fit {}", stringify!($t)))
                })
            }
        }
    )*};
}
int_cell!(i32, i64, u8, u16, u32, u64);

impl Cell for f64 {
    #[cfg(feature = "mysql")]
    fn from_mysql(v: ::mysql::Value) -> Result<Self> {
        ::mysql::from_value_opt::<f64>(v).map_err(|e| Error::Decode(e.to_string()))
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
        postgres::float_cell(row, i)
    }
}

impl Cell for String {
    #[cfg(feature = "mysql")]
    #[inline]
    fn from_mysql(v: ::mysql::Value) -> Result<Self> {
        ::mysql::from_value_opt::<String>(v).map_err(|e| Error::Decode(e.to_string()))
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
        match postgres::value_cell(row, i)? {
            Value::Null => Err(Error::Decode("NULL where text was expected".into())),
            Value::Text(s) => Ok(s),
            Value::Int(v) => Ok(v.to_string()),
            Value::Float(v) => Ok(v.to_string()),
        }
    }
}

impl Cell for Value {
    #[cfg(feature = "mysql")]
    fn from_mysql(v: ::mysql::Value) -> Result<Self> {
        Ok(match v {
            ::mysql::Value::NULL => Value::Null,
            ::mysql::Value::Int(i) => Value::Int(i),
            ::mysql::Value::UInt(u) => Value::Int(u as i64),
            ::mysql::Value::Float(f) => Value::Float(f64::from(f)),
            ::mysql::Value::Double(f) => Value::Float(f),
            ::mysql::Value::Bytes(b) => Value::Text(String::from_utf8_lossy(&b).into_owned()),
            other => Value::Text(other.as_sql(true).trim_matches('\'').to_string()),
        })
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
        postgres::value_cell(row, i)
    }
}

impl<T: Cell> Cell for Option<T> {
    #[cfg(feature = "mysql")]
    #[inline]
    fn from_mysql(v: ::mysql::Value) -> Result<Self> {
        match v {
            ::mysql::Value::NULL => Ok(None),
            v => T::from_mysql(v).map(Some),
        }
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
        if postgres::is_null(row, i) {
            Ok(None)
        } else {
            T::from_postgres(row, i).map(Some)
        }
    }
}

#[cfg(test)]
mod tests;
