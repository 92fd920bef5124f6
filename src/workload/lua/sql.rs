//! The SQL primitives under the prelude's sysbench.sql: every statement goes through the
//! engine::Conn lent to the call, counted as txbench counts statements (SELECT a read;
//! INSERT, UPDATE, DELETE, REPLACE a write; the rest other), results as sysbench gives them
//! (every cell a string, NULL a nil), errors kept for the driver to classify.

use super::session::{Prepared, Session, session};
use crate::engine::{self, Conn, StoredRows, Value as Cell};
use mlua::{Lua, Table, Value};

/// What a statement is, by its first word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sort {
    Read,
    Write,
    Commit,
    Rollback,
    Other,
}

fn sort(sql: &str) -> Sort {
    let rest = sql.trim_start_matches(|c: char| c.is_whitespace() || c == '(');
    let word = &rest[..rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len())];
    let is = |w: &str| word.eq_ignore_ascii_case(w);
    if is("select") {
        Sort::Read
    } else if is("insert") || is("update") || is("delete") || is("replace") {
        Sort::Write
    } else if is("commit") {
        Sort::Commit
    } else if is("rollback") {
        Sort::Rollback
    } else {
        Sort::Other
    }
}

fn count(s: &mut Session, what: Sort) {
    match what {
        Sort::Read => s.counts.reads += 1,
        Sort::Write => s.counts.writes += 1,
        Sort::Commit | Sort::Rollback => {
            s.counts.other += 1;
            s.ends += 1;
            s.rolled_back = what == Sort::Rollback;
        }
        Sort::Other => s.counts.other += 1,
    }
}

/// Runs `f` on the connection lent to this call.
fn on_conn<R>(lua: &Lua, f: impl FnOnce(&mut Conn) -> R) -> mlua::Result<R> {
    let lent = session(lua)?.conn.as_ref().map(|l| l.0).ok_or_else(|| {
        mlua::Error::runtime(
            "txbench: SQL outside thread_init(), event() or a command: no connection is lent here",
        )
    })?;
    // SAFETY: with_conn made this pointer from its `&mut Conn` for the call running now and
    // clears it when the call ends; it does not touch the connection meanwhile, and `f` runs
    // no Lua, so no second on_conn borrows the connection while this one does.
    let conn = unsafe { &mut *lent.as_ptr() };
    Ok(f(conn))
}

/// Whether a connection is lent to this call.
fn lent(lua: &Lua) -> mlua::Result<bool> {
    Ok(session(lua)?.conn.is_some())
}

/// A statement's outcome for the prelude, its rows (if any) now in the session's `rows`:
/// false for a statement without a result set (sysbench returns no result for those); its
/// rows, columns and result number (nil when it returned no rows); or nil and the error's
/// description (sql_errno, sql_state, sql_errmsg, retry: whether txbench's driver retries
/// it).
fn outcome(lua: &Lua, r: engine::Result<()>, what: Sort) -> mlua::Result<(Value, Value, Value)> {
    let mut s = session(lua)?;
    match r {
        Ok(()) => {
            s.failed = None;
            let (nrows, nfields) = s.rows.as_ref().map_or((0, 0), |r| (r.len(), r.width()));
            if nfields == 0 && what != Sort::Read {
                return Ok((Value::Boolean(false), Value::Nil, Value::Nil));
            }
            let number = if nrows == 0 {
                Value::Nil
            } else {
                s.results += 1;
                s.current = Some(s.results);
                Value::Number(s.results as f64)
            };
            Ok((
                Value::Number(nrows as f64),
                Value::Number(nfields as f64),
                number,
            ))
        }
        Err(e) => {
            let (errno, state) = engine::error_code(&e);
            let message = engine::error_message(&e);
            let retry = engine::classify(&e).retryable();
            s.failed = Some(e);
            drop(s);
            let d = lua.create_table()?;
            d.set("sql_errno", errno)?;
            d.set("sql_state", state)?;
            d.set("sql_errmsg", message)?;
            d.set("retry", retry)?;
            Ok((Value::Nil, Value::Table(d), Value::Nil))
        }
    }
}

/// Runs `f` on the connection lent to this call with the session's result buffers: the
/// last result is no longer the script's to read.
fn stored(
    lua: &Lua,
    f: impl FnOnce(&mut Conn, &mut Option<StoredRows>) -> engine::Result<()>,
) -> mlua::Result<engine::Result<()>> {
    let mut rows = {
        let mut s = session(lua)?;
        s.current = None;
        s.rows.take()
    };
    let r = on_conn(lua, |c| f(c, &mut rows))?;
    session(lua)?.rows = rows;
    Ok(r)
}

/// Row `i` (from 1) of result `number` as sysbench gives it: every cell a string, NULL a
/// nil; nil past the last, or when a later statement replaced that result.
fn row(lua: &Lua, (number, i): (u64, usize)) -> mlua::Result<Value> {
    let row = {
        let s = session(lua)?;
        match (&s.rows, i.checked_sub(1)) {
            (Some(rows), Some(i)) if s.current == Some(number) => rows.row(i),
            _ => None,
        }
    };
    let Some(row) = row else {
        return Ok(Value::Nil);
    };
    let row = row.map_err(mlua::Error::external)?;
    let r = lua.create_table_with_capacity(row.0.len(), 0)?;
    for (j, cell) in row.0.iter().enumerate() {
        let v = match cell {
            Cell::Null => continue,
            Cell::Int(n) => lua.create_string(n.to_string())?,
            Cell::Float(f) => lua.create_string(f.to_string())?,
            Cell::Text(s) => lua.create_string(s)?,
        };
        r.raw_set(j + 1, v)?;
    }
    Ok(Value::Table(r))
}

/// Result `number` freed (rs:free()), if it is still the current one.
fn free(lua: &Lua, number: u64) -> mlua::Result<()> {
    let mut s = session(lua)?;
    if s.current == Some(number) {
        s.current = None;
    }
    Ok(())
}

/// The statement `id` prepared on the current connection (again after a reconnect).
fn prepared(s: &mut Session, conn: &mut Conn, id: usize) -> engine::Result<engine::Stmt> {
    let generation = s.generation;
    let Some(Some(p)) = s.stmts.get_mut(id) else {
        return Err(engine::Error::Script(format!(
            "txbench: statement {id} was closed"
        )));
    };
    match &p.stmt {
        Some((g, st)) if *g == generation => Ok(st.clone()),
        _ => {
            let st = conn.prep(&p.sql)?;
            p.stmt = Some((generation, st.clone()));
            Ok(st)
        }
    }
}

/// The SQL primitives, into `p`.
pub(super) fn primitives(lua: &Lua, p: &Table) -> mlua::Result<()> {
    connection_primitives(lua, p)?;
    statement_primitives(lua, p)
}

/// The driver's name, the connection opened and closed, a statement closed.
fn connection_primitives(lua: &Lua, p: &Table) -> mlua::Result<()> {
    p.set(
        "driver_name",
        lua.create_function(|lua, ()| Ok(session(lua)?.driver))?,
    )?;
    p.set(
        "connect",
        lua.create_function(|lua, ()| {
            on_conn(lua, |_| ())?;
            let mut s = session(lua)?;
            if s.open {
                return Err(mlua::Error::runtime(
                    "txbench: a second drv:connect() in one thread is not supported (a virtual user has one connection)",
                ));
            }
            s.open = true;
            Ok(())
        })?,
    )?;
    p.set(
        "disconnect",
        lua.create_function(|lua, ()| {
            session(lua)?.open = false;
            Ok(())
        })?,
    )?;
    p.set(
        "close",
        lua.create_function(|lua, id: usize| {
            let closed = {
                let mut s = session(lua)?;
                let generation = s.generation;
                match s.stmts.get_mut(id).and_then(Option::take) {
                    Some(Prepared {
                        stmt: Some((g, st)),
                        ..
                    }) if g == generation => Some(st),
                    _ => None,
                }
            };
            // Closed on the server too (sysbench's stmt:close()), when a connection is
            // lent; a connection that failed keeps the error for nobody: it is going.
            if let Some(st) = closed
                && lent(lua)?
            {
                let _ = on_conn(lua, |c| c.close_stmt(&st))?;
            }
            Ok(())
        })?,
    )?;
    Ok(())
}

/// Queries, statements prepared and executed, a result's rows.
fn statement_primitives(lua: &Lua, p: &Table) -> mlua::Result<()> {
    p.set("row", lua.create_function(row)?)?;
    p.set("free", lua.create_function(free)?)?;
    p.set(
        "query",
        lua.create_function(|lua, sql: mlua::String| {
            let sql = sql.to_str()?;
            let what = sort(&sql);
            count(&mut *session(lua)?, what);
            let r = stored(lua, |c, rows| c.query_stored(&sql, rows))?;
            outcome(lua, r, what)
        })?,
    )?;
    p.set(
        "prepare",
        lua.create_function(|lua, sql: mlua::String| {
            let sql = sql.to_str()?.to_string();
            let st = on_conn(lua, |c| c.prep(&sql))?;
            let mut s = session(lua)?;
            match st {
                Ok(st) => {
                    let generation = s.generation;
                    s.stmts.push(Some(Prepared {
                        sql,
                        stmt: Some((generation, st)),
                    }));
                    s.failed = None;
                    Ok((Value::Number((s.stmts.len() - 1) as f64), Value::Nil))
                }
                Err(e) => {
                    drop(s);
                    let (_, err, _) = outcome(lua, Err(e), Sort::Other)?;
                    Ok((Value::Nil, err))
                }
            }
        })?,
    )?;
    p.set(
        "execute",
        lua.create_function(|lua, (id, values, n): (usize, Table, usize)| {
            let params = (1..=n)
                .map(|i| {
                    Ok(match values.raw_get::<Value>(i)? {
                        Value::Integer(v) => Cell::Int(v),
                        Value::Number(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => {
                            Cell::Int(v as i64)
                        }
                        Value::Number(v) => Cell::Float(v),
                        Value::String(s) => Cell::Text(s.to_str()?.to_string()),
                        _ => Cell::Null,
                    })
                })
                .collect::<mlua::Result<Vec<Cell>>>()?;
            let what = {
                let mut s = session(lua)?;
                let what = match s.stmts.get(id) {
                    Some(Some(p)) => sort(&p.sql),
                    _ => Sort::Other,
                };
                count(&mut s, what);
                what
            };
            let r = stored(lua, |c, rows| {
                let st = prepared(&mut *session(lua).map_err(lua_gone)?, c, id)?;
                c.exec_stored(&st, params, rows)
            })?;
            outcome(lua, r, what)
        })?,
    )?;
    Ok(())
}

fn lua_gone(e: mlua::Error) -> engine::Error {
    engine::Error::Script(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_sort_by_their_first_word() {
        assert_eq!(sort("  SELECT c FROM t"), Sort::Read);
        assert_eq!(sort("(select 1)"), Sort::Read);
        assert_eq!(sort("UPDATE t SET k=k+1"), Sort::Write);
        assert_eq!(sort("replace into t values (1)"), Sort::Write);
        assert_eq!(sort("COMMIT"), Sort::Commit);
        assert_eq!(sort("rollback"), Sort::Rollback);
        assert_eq!(sort("BEGIN"), Sort::Other);
        assert_eq!(sort("SET autocommit=0"), Sort::Other);
    }
}
