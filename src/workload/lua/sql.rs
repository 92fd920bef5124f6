//! The SQL primitives under the prelude's sysbench.sql: every statement goes through the
//! engine::Conn lent to the call, counted as txbench counts statements (SELECT a read;
//! INSERT, UPDATE, DELETE, REPLACE a write; the rest other), results as sysbench gives them
//! (every cell a string, NULL a nil), errors kept for the driver to classify.

use super::session::{CONN, Prepared, Session, session};
use crate::engine::{self, Conn, RawRow as Row, Value as Cell};
use mlua::{AnyUserData, Lua, Table, Value};

/// What a statement is, by its first word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sort {
    Read,
    Write,
    /// COMMIT or ROLLBACK.
    End,
    Other,
}

fn sort(sql: &str) -> Sort {
    let word: String = sql
        .trim_start_matches(|c: char| c.is_whitespace() || c == '(')
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_lowercase();
    match word.as_str() {
        "select" => Sort::Read,
        "insert" | "update" | "delete" | "replace" => Sort::Write,
        "commit" | "rollback" => Sort::End,
        _ => Sort::Other,
    }
}

fn count(s: &mut Session, what: Sort) {
    match what {
        Sort::Read => s.counts.reads += 1,
        Sort::Write => s.counts.writes += 1,
        Sort::End => {
            s.counts.other += 1;
            s.ends += 1;
        }
        Sort::Other => s.counts.other += 1,
    }
}

/// Runs `f` on the connection lent to this call.
fn on_conn<R>(lua: &Lua, f: impl FnOnce(&mut Conn) -> R) -> mlua::Result<R> {
    let ud: AnyUserData = lua.named_registry_value(CONN).map_err(|_| {
        mlua::Error::runtime(
            "txbench: SQL outside thread_init(), event() or a command: no connection is lent here",
        )
    })?;
    ud.borrow_mut_scoped::<Conn, R>(f)
}

/// A statement's rows, kept on the Rust side until the script fetches one: sysbench's
/// oltp scripts never read most of theirs, and making Lua strings of every cell was most of
/// the client's CPU.
struct Rows(Vec<Row>);

impl mlua::UserData for Rows {}

/// A result set as the prelude takes it: {nrows, nfields, data} (data: the rows, for the
/// `row` primitive; absent when there are none).
fn result(lua: &Lua, rows: Vec<Row>, what: Sort, affected: u64) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(0, 3)?;
    let nrows = if rows.is_empty() && what != Sort::Read {
        affected as usize
    } else {
        rows.len()
    };
    t.raw_set("nrows", nrows)?;
    t.raw_set("nfields", rows.first().map_or(0, Row::width))?;
    if !rows.is_empty() {
        t.raw_set("data", Rows(rows))?;
    }
    Ok(t)
}

/// Row `i` (from 1) of a result's data as sysbench gives it: every cell a string, NULL a
/// nil; nil past the last.
fn row(lua: &Lua, (data, i): (AnyUserData, usize)) -> mlua::Result<Value> {
    let rows = data.borrow::<Rows>()?;
    let Some(row) = i.checked_sub(1).and_then(|i| rows.0.get(i)) else {
        return Ok(Value::Nil);
    };
    let row = row.to_row().map_err(mlua::Error::external)?;
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

/// A statement's outcome for the prelude: its result, or nil and the error's description
/// (sql_errno, sql_state, sql_errmsg, retry: whether txbench's driver retries it).
fn outcome(
    lua: &Lua,
    r: engine::Result<(Vec<Row>, u64)>,
    what: Sort,
) -> mlua::Result<(Value, Value)> {
    let mut s = session(lua)?;
    match r {
        Ok((rows, affected)) => {
            s.failed = None;
            drop(s);
            Ok((Value::Table(result(lua, rows, what, affected)?), Value::Nil))
        }
        Err(e) => {
            let (errno, state) = engine::error_code(&e);
            let d = lua.create_table()?;
            d.set("sql_errno", errno)?;
            d.set("sql_state", state)?;
            d.set("sql_errmsg", engine::error_message(&e))?;
            d.set("retry", engine::classify(&e).retryable())?;
            s.failed = Some(e);
            Ok((Value::Nil, Value::Table(d)))
        }
    }
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
                && lua.named_registry_value::<AnyUserData>(CONN).is_ok()
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
    p.set(
        "query",
        lua.create_function(|lua, sql: mlua::String| {
            let sql = sql.to_str()?.to_string();
            let what = sort(&sql);
            count(&mut *session(lua)?, what);
            let r = on_conn(lua, |c| {
                let rows = c.query::<Row>(&sql)?;
                Ok((rows, c.affected_rows()))
            })?;
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
                    let (_, err) = outcome(lua, Err(e), Sort::Other)?;
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
            let r = on_conn(lua, |c| -> engine::Result<(Vec<Row>, u64)> {
                let st = prepared(&mut *session(lua).map_err(lua_gone)?, c, id)?;
                let rows = c.exec::<Row, _, _>(&st, params)?;
                Ok((rows, c.affected_rows()))
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
        assert_eq!(sort("COMMIT"), Sort::End);
        assert_eq!(sort("BEGIN"), Sort::Other);
        assert_eq!(sort("SET autocommit=0"), Sort::Other);
    }
}
