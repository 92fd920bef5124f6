//! A statement's result kept as its driver received it, each row made neutral (a [`Row`])
//! only when asked for: for results whose rows are mostly never read (a sysbench script's
//! range SELECTs return about 300 rows per event, and its oltp scripts read none of them).

use super::{AsStmt, Cell, Conn, Params, Result, Row, Stmt, StmtRef, Value, foreign_statement};

/// A result's rows: MySQL's row packets in one buffer (the vendored mysql's `StoredRows`,
/// libmysqlclient's `mysql_stmt_store_result`), PostgreSQL's rows as the wire client read
/// them.
pub enum StoredRows {
    /// MySQL or MariaDB.
    #[cfg(feature = "mysql")]
    Mysql(::mysql::StoredRows),
    /// PostgreSQL.
    #[cfg(feature = "postgres")]
    Postgres(Vec<super::postgres::Row>),
}

impl StoredRows {
    /// How many rows.
    pub fn len(&self) -> usize {
        match self {
            #[cfg(feature = "mysql")]
            StoredRows::Mysql(r) => r.len(),
            #[cfg(feature = "postgres")]
            StoredRows::Postgres(r) => r.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The result's columns (0 for a statement without a result set).
    pub fn width(&self) -> usize {
        match self {
            #[cfg(feature = "mysql")]
            StoredRows::Mysql(r) => r.columns().len(),
            #[cfg(feature = "postgres")]
            StoredRows::Postgres(r) => r.first().map_or(0, |r| r.len()),
        }
    }

    /// Row `i` (from 0) as neutral values, or None past the last.
    pub fn row(&self, i: usize) -> Option<Result<Row>> {
        match self {
            #[cfg(feature = "mysql")]
            StoredRows::Mysql(r) => r.get(i).map(|row| {
                row?.unwrap()
                    .into_iter()
                    .map(<Value as Cell>::from_mysql)
                    .collect::<Result<_>>()
                    .map(Row)
            }),
            #[cfg(feature = "postgres")]
            StoredRows::Postgres(r) => r.get(i).map(|r| {
                (0..r.len())
                    .map(|j| <Value as Cell>::from_postgres(r, j))
                    .collect::<Result<_>>()
                    .map(Row)
            }),
        }
    }
}

impl Conn {
    /// Runs SQL text (text protocols) and keeps its rows undecoded in `into`, whose buffers
    /// are reused when it holds an earlier result (after an error it holds none to read).
    pub fn query_stored(&mut self, sql: &str, into: &mut Option<StoredRows>) -> Result<()> {
        self.gate(|| super::sessions::Class::of(sql))?;
        match self {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => {
                // Read by position (`row`): the columns' names are not kept.
                let result = c.query_iter_by_position(sql)?;
                Ok(result.store_rows_into(mysql_slot(into))?)
            }
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => {
                *into = None;
                *into = Some(StoredRows::Postgres(c.query(sql)?));
                Ok(())
            }
        }
    }

    /// Executes a statement and keeps its rows undecoded in `into`, as `query_stored`.
    pub fn exec_stored<S: AsStmt, P: Params>(
        &mut self,
        st: S,
        params: P,
        into: &mut Option<StoredRows>,
    ) -> Result<()> {
        let st = st.as_stmt();
        self.gate(|| st.class())?;
        match (self, st) {
            #[cfg(feature = "mysql")]
            (Conn::Mysql(c), st) => {
                use ::mysql::prelude::Queryable;
                let params = params.into_mysql();
                let result = match st {
                    StmtRef::Prepared(Stmt::Mysql(s, _)) => c.exec_iter(s, params)?,
                    StmtRef::Text(s) => c.exec_iter(s, params)?,
                    #[allow(unreachable_patterns)]
                    _ => return Err(foreign_statement()),
                };
                Ok(result.store_rows_into(mysql_slot(into))?)
            }
            #[cfg(feature = "postgres")]
            (Conn::Postgres(c), st) => {
                *into = None;
                *into = Some(StoredRows::Postgres(match st {
                    StmtRef::Prepared(Stmt::Postgres(s, _)) => c.exec(s, params.into_values())?,
                    StmtRef::Text(s) => c.exec_once(s, params.into_values())?,
                    #[allow(unreachable_patterns)]
                    _ => return Err(foreign_statement()),
                }));
                Ok(())
            }
        }
    }
}

/// The MySQL rows `into` holds, made empty ones if it holds none (or another engine's).
#[cfg(feature = "mysql")]
fn mysql_slot(into: &mut Option<StoredRows>) -> &mut ::mysql::StoredRows {
    #[allow(irrefutable_let_patterns)]
    if !matches!(into, Some(StoredRows::Mysql(_))) {
        *into = Some(StoredRows::Mysql(Default::default()));
    }
    match into {
        Some(StoredRows::Mysql(rows)) => rows,
        _ => unreachable!("set just above"),
    }
}
