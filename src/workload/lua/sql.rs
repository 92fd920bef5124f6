//! The SQL primitives under the prelude's sysbench.sql: every statement goes through the
//! engine::Conn lent to the call, counted as txbench counts statements (SELECT a read;
//! INSERT, UPDATE, DELETE, REPLACE a write; the rest other), results as sysbench gives them
//! (every cell a string, NULL a nil), errors kept for the driver to classify. A statement,
//! its parameters and its rows go through LuaJIT's ffi (ffi.rs); connecting, preparing,
//! closing and an error's description are mlua functions here.

use super::session::{Prepared, Session, Sort, session, sort};
use crate::engine::{self, Conn};
use mlua::{Lua, Table, Value};

pub(super) fn count(s: &mut Session, what: Sort) {
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

/// The connection lent to the call under way, if one is.
///
/// # Safety
/// The reference is used only during that call, on its thread, and no other reference to
/// the connection is made meanwhile: `with_conn` made the pointer from its `&mut Conn` for
/// the call and clears it when the call ends, and does not touch the connection meanwhile.
pub(super) unsafe fn lent_conn<'c>(s: &Session) -> Option<&'c mut Conn> {
    // SAFETY: as the caller promises.
    s.conn.as_ref().map(|l| unsafe { &mut *l.0.as_ptr() })
}

/// What SQL sent when no connection is lent is told.
pub(super) const NO_CONNECTION: &str =
    "txbench: SQL outside thread_init(), event() or a command: no connection is lent here";

/// Runs `f` on the connection lent to this call.
fn on_conn<R>(lua: &Lua, f: impl FnOnce(&mut Conn) -> R) -> mlua::Result<R> {
    // SAFETY: `f` runs no Lua, so nothing borrows the connection while it does.
    let s = session(lua)?;
    let conn = unsafe { lent_conn(&s) };
    drop(s);
    let conn = conn.ok_or_else(|| mlua::Error::runtime(NO_CONNECTION))?;
    Ok(f(conn))
}

/// Whether a connection is lent to this call.
fn lent(lua: &Lua) -> mlua::Result<bool> {
    Ok(session(lua)?.conn.is_some())
}

/// An SQL error as the prelude describes it: sql_errno, sql_state, sql_errmsg, and retry
/// (whether txbench's driver retries it).
type Described = (i64, String, String, bool);

fn describe(e: &engine::Error) -> Described {
    let (errno, state) = engine::error_code(e);
    (
        i64::from(errno),
        state,
        engine::error_message(e),
        engine::classify(e).retryable(),
    )
}

/// The description as a table. Made with no session borrowed: a table made may run a
/// finalizer, which is Lua.
fn described(lua: &Lua, (errno, state, message, retry): Described) -> mlua::Result<Table> {
    let d = lua.create_table()?;
    d.set("sql_errno", errno)?;
    d.set("sql_state", state)?;
    d.set("sql_errmsg", message)?;
    d.set("retry", retry)?;
    Ok(d)
}

/// The statement `id` of `stmts` prepared on the current connection, of `generation` (again
/// after a reconnect), borrowed: an execute costs no clone of it.
pub(super) fn prepared<'a>(
    stmts: &'a mut [Option<Prepared>],
    generation: u64,
    conn: &mut Conn,
    id: usize,
) -> engine::Result<&'a engine::Stmt> {
    let Some(Some(p)) = stmts.get_mut(id) else {
        return Err(engine::Error::Script(format!(
            "txbench: statement {id} was closed"
        )));
    };
    let st = match p.stmt.take().filter(|(g, _)| *g == generation) {
        Some(kept) => kept,
        None => (generation, conn.prep(&p.sql)?),
    };
    Ok(&p.stmt.insert(st).1)
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

/// Statements prepared; the last failure's description (the ffi primitives' errors).
fn statement_primitives(lua: &Lua, p: &Table) -> mlua::Result<()> {
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
                        sort: sort(&sql),
                        sql,
                        stmt: Some((generation, st)),
                    }));
                    s.failed = None;
                    Ok((Value::Number((s.stmts.len() - 1) as f64), Value::Nil))
                }
                Err(e) => {
                    let d = describe(&e);
                    s.failed = Some(e);
                    drop(s);
                    Ok((Value::Nil, Value::Table(described(lua, d)?)))
                }
            }
        })?,
    )?;
    p.set(
        "last_error",
        lua.create_function(|lua, ()| {
            let d = session(lua)?.failed.as_ref().map(describe);
            match d {
                Some(d) => described(lua, d).map(Value::Table),
                None => Ok(Value::Nil),
            }
        })?,
    )?;
    p.set(
        "message",
        lua.create_function(|lua, ()| Ok(session(lua)?.message.clone()))?,
    )?;
    Ok(())
}
