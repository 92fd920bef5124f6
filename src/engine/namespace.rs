//! Schemas as namespaces of tables: a MariaDB/MySQL database, a PostgreSQL schema. TPC-C's
//! table sets live one per schema; a connection enters one and its unqualified names
//! resolve there.

use super::{Conn, Engine};
use anyhow::{Context, Result, bail};

/// `name` quoted as an identifier of `engine`.
pub fn quote(engine: Engine, name: &str) -> String {
    match engine {
        Engine::Mysql => format!("`{}`", name.replace('`', "``")),
        Engine::Postgres => format!("\"{}\"", name.replace('"', "\"\"")),
    }
}

/// `table` in `schema` (None: the connection's own), as SQL.
pub fn qualify(engine: Engine, schema: Option<&str>, table: &str) -> String {
    match schema {
        Some(s) => format!("{}.{table}", quote(engine, s)),
        None => table.to_string(),
    }
}

/// The schema the connection's unqualified names resolve in.
pub fn current(conn: &mut Conn) -> Result<String> {
    let sql = format!("SELECT {}", conn.engine().schema_sql());
    let name: Option<Option<String>> = conn.query_first(sql)?;
    match name.flatten() {
        Some(n) if !n.is_empty() => Ok(n),
        _ => bail!("the connection has no current database: name one in the URL"),
    }
}

/// Whether `schema` exists.
pub fn exists(conn: &mut Conn, schema: &str) -> Result<bool> {
    let n: Option<i64> = conn.query_first(format!(
        "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '{}'",
        schema.replace('\'', "''")
    ))?;
    Ok(n.unwrap_or(0) > 0)
}

/// Creates `schema` unless it exists.
pub fn create(conn: &mut Conn, schema: &str) -> Result<()> {
    let q = quote(conn.engine(), schema);
    let sql = match conn.engine() {
        Engine::Mysql => format!("CREATE DATABASE IF NOT EXISTS {q}"),
        Engine::Postgres => format!("CREATE SCHEMA IF NOT EXISTS {q}"),
    };
    conn.query_drop(&sql)
        .with_context(|| format!("creating schema {schema}"))
}

/// Makes `schema` the connection's: its unqualified table names resolve there.
pub fn enter(conn: &mut Conn, schema: &str) -> super::Result<()> {
    let q = quote(conn.engine(), schema);
    conn.query_drop(match conn.engine() {
        Engine::Mysql => format!("USE {q}"),
        Engine::Postgres => format!("SET search_path TO {q}"),
    })
}

/// Drops `schema` if nothing is left in it (tables, views, routines of anyone): a schema
/// someone else put things in stays. Returns whether it was dropped.
pub fn drop_if_empty(conn: &mut Conn, schema: &str) -> Result<bool> {
    if !exists(conn, schema)? {
        return Ok(false);
    }
    let lit = schema.replace('\'', "''");
    let left: Option<i64> = conn.query_first(match conn.engine() {
        Engine::Mysql => format!(
            "SELECT (SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '{lit}') + \
             (SELECT COUNT(*) FROM information_schema.routines WHERE routine_schema = '{lit}')"
        ),
        Engine::Postgres => format!(
            "SELECT (SELECT COUNT(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '{lit}') + \
             (SELECT COUNT(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = '{lit}') + \
             (SELECT COUNT(*) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = '{lit}' AND t.typtype <> 'c')"
        ),
    })?;
    if left.unwrap_or(1) > 0 {
        return Ok(false);
    }
    let q = quote(conn.engine(), schema);
    // PostgreSQL's DROP SCHEMA refuses a schema with anything in it (RESTRICT, its default).
    conn.query_drop(match conn.engine() {
        Engine::Mysql => format!("DROP DATABASE {q}"),
        Engine::Postgres => format!("DROP SCHEMA {q}"),
    })
    .with_context(|| format!("dropping schema {schema}"))?;
    Ok(true)
}
