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

mod clock;
mod error;
pub mod fiber;
pub mod listener;
#[cfg(feature = "mysql")]
pub mod mysql;
pub mod namespace;
pub mod postgres;
pub mod sandbox;
pub mod sessions;
mod stored;
mod value;
pub mod waits;

pub use clock::clock_offset;
pub use error::*;
pub use stored::StoredRows;
pub use value::*;

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
    Mysql(::mysql::Statement, sessions::Class),
    /// PostgreSQL's named statement.
    #[cfg(feature = "postgres")]
    Postgres(postgres::Statement, sessions::Class),
}

/// What `exec*` runs: a prepared [`Stmt`], or SQL text with `?` placeholders (prepared for
/// the one call).
#[derive(Clone, Copy)]
pub enum StmtRef<'a> {
    /// Prepared on this connection.
    Prepared(&'a Stmt),
    /// Text.
    Text(&'a str),
}

impl StmtRef<'_> {
    /// What the statement can do to the transaction around it.
    #[inline]
    fn class(&self) -> sessions::Class {
        match self {
            #[cfg(feature = "mysql")]
            StmtRef::Prepared(Stmt::Mysql(_, c)) => *c,
            #[cfg(feature = "postgres")]
            StmtRef::Prepared(Stmt::Postgres(_, c)) => *c,
            StmtRef::Text(s) => sessions::Class::of(s),
        }
    }
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
        self.gate(|| sessions::Class::of(sql.as_ref()))?;
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => Ok(::mysql::prelude::Queryable::query_drop(c, sql.as_ref())?),
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => c.query_drop(sql.as_ref()),
        }
    }

    /// Runs SQL text and returns its first row.
    pub fn query_first<T: FromRow>(&mut self, sql: impl AsRef<str>) -> Result<Option<T>> {
        self.gate(|| sessions::Class::of(sql.as_ref()))?;
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
        self.gate(|| sessions::Class::of(sql.as_ref()))?;
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

    /// Runs SQL text as it is (text protocols, no placeholders) and returns its columns'
    /// names and every row's cells as the server wrote them (None: NULL), as libpq's
    /// PQgetvalue gives them to pgbench (a script's `\gset`).
    pub fn query_text(&mut self, sql: &str) -> Result<TextRows> {
        self.gate(|| sessions::Class::of(sql))?;
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => {
                let mut result = ::mysql::prelude::Queryable::query_iter(c, sql)?;
                let names = result
                    .columns()
                    .as_ref()
                    .iter()
                    .map(|c| c.name_str().into_owned())
                    .collect();
                let mut rows = Vec::new();
                for row in result.by_ref() {
                    let cells = row?
                        .unwrap()
                        .into_iter()
                        .map(|v| match v {
                            ::mysql::Value::NULL => None,
                            ::mysql::Value::Bytes(b) => {
                                Some(String::from_utf8_lossy(&b).into_owned())
                            }
                            other => Some(other.as_sql(true).trim_matches('\'').to_string()),
                        })
                        .collect();
                    rows.push(cells);
                }
                Ok((names, rows))
            }
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => c.query_text(sql),
        }
    }

    /// Prepares a statement written with `?` placeholders.
    pub fn prep(&mut self, sql: impl AsRef<str>) -> Result<Stmt> {
        let class = sessions::Class::of(sql.as_ref());
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => Ok(Stmt::Mysql(
                ::mysql::prelude::Queryable::prep(c, sql.as_ref())?,
                class,
            )),
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => Ok(Stmt::Postgres(c.prep(sql.as_ref())?, class)),
        }
    }

    /// Closes a statement this connection prepared (MySQL: COM_STMT_CLOSE, as sysbench's
    /// stmt:close() sends it). PostgreSQL: nothing is sent; the statement lasts as long as
    /// its connection (a Close of its own would end a protocol round trip that the
    /// transaction counts of the cross-check would have to account for).
    pub fn close_stmt(&mut self, st: &Stmt) -> Result<()> {
        match (self, st) {
            #[cfg(feature = "mysql")]
            (Conn::Mysql(c), Stmt::Mysql(s, _)) => {
                Ok(::mysql::prelude::Queryable::close(c, s.clone())?)
            }
            #[allow(unreachable_patterns)]
            _ => Ok(()),
        }
    }

    /// Executes a statement and drops its result (rows changed: [`Conn::affected_rows`]).
    #[inline]
    pub fn exec_drop<S: AsStmt, P: Params>(&mut self, st: S, params: P) -> Result<()> {
        let st = st.as_stmt();
        self.gate(|| st.class())?;
        match (self, st) {
            #[cfg(feature = "mysql")]
            (Conn::Mysql(c), StmtRef::Prepared(Stmt::Mysql(s, _))) => Ok(
                ::mysql::prelude::Queryable::exec_drop(c, s, params.into_mysql())?,
            ),
            #[cfg(feature = "mysql")]
            (Conn::Mysql(c), StmtRef::Text(s)) => Ok(::mysql::prelude::Queryable::exec_drop(
                c,
                s,
                params.into_mysql(),
            )?),
            #[cfg(feature = "postgres")]
            (Conn::Postgres(c), StmtRef::Prepared(Stmt::Postgres(s, _))) => {
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
        let st = st.as_stmt();
        self.gate(|| st.class())?;
        match (self, st) {
            #[cfg(feature = "mysql")]
            (Conn::Mysql(c), st) => {
                use ::mysql::prelude::Queryable;
                let params = params.into_mysql();
                let rows: Vec<::mysql::Row> = match (st, first) {
                    (StmtRef::Prepared(Stmt::Mysql(s, _)), true) => {
                        c.exec_first(s, params)?.into_iter().collect()
                    }
                    (StmtRef::Prepared(Stmt::Mysql(s, _)), false) => c.exec(s, params)?,
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
                    StmtRef::Prepared(Stmt::Postgres(s, _)) => c.exec(s, params.into_values())?,
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

#[cfg(test)]
mod tests;

/// Rows and bytes (data and indexes, partitions summed) of each of `tables` in the
/// connection's database, from the server's statistics refreshed by ANALYZE first (InnoDB
/// samples pages, PostgreSQL rows: estimates); a table missing is left out.
pub fn table_sizes(conn: &mut Conn, tables: &[&str]) -> anyhow::Result<Vec<(String, u64, u64)>> {
    if tables.is_empty() {
        return Ok(Vec::new());
    }
    let quoted = tables
        .iter()
        .map(|t| format!("'{t}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let present: Vec<String> = conn.query(format!(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = {} AND table_name IN ({quoted})",
        conn.engine().schema_sql()
    ))?;
    if present.is_empty() {
        return Ok(Vec::new());
    }
    let list = present.join(", ");
    let rows: Vec<(String, i64, i64)> = match conn.engine() {
        Engine::Mysql => {
            conn.query_drop(format!("ANALYZE TABLE {list}"))?;
            conn.query(format!(
                "SELECT table_name, CAST(COALESCE(table_rows, 0) AS SIGNED), \
                 CAST(COALESCE(data_length, 0) + COALESCE(index_length, 0) AS SIGNED) \
                 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name IN ({quoted})"
            ))?
        }
        Engine::Postgres => {
            conn.query_drop(format!("ANALYZE {list}"))?;
            conn.query(format!(
                "SELECT c.relname::text, CASE WHEN c.relkind = 'p' THEN \
                 (SELECT COALESCE(SUM(GREATEST(p.reltuples, 0)), 0)::bigint FROM pg_partition_tree(c.oid) t JOIN pg_class p ON p.oid = t.relid) \
                 ELSE GREATEST(c.reltuples, 0)::bigint END, CASE WHEN c.relkind = 'p' THEN \
                 (SELECT COALESCE(SUM(pg_total_relation_size(t.relid)), 0)::bigint FROM pg_partition_tree(c.oid) t) \
                 ELSE pg_total_relation_size(c.oid) END \
                 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
                 WHERE n.nspname = current_schema() AND c.relname IN ({quoted})"
            ))?
        }
    };
    Ok(rows
        .into_iter()
        .map(|(name, r, b)| (name, r.max(0) as u64, b.max(0) as u64))
        .collect())
}
