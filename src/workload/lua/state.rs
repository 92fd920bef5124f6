//! One Lua state (sysbench: one per thread): LuaJIT with its libraries and `ffi`, the
//! script's directory and /usr/share/sysbench on package.path, the primitives the prelude
//! builds sysbench's API on (an event's statements and random values through LuaJIT's ffi
//! in ffi.rs, the rest as mlua functions here and in sql.rs), `sysbench.opt`, and the
//! script run. The connection a state's SQL uses is lent to it for each call (`with_conn`).

use super::Script;
use super::options::OptValue;
pub(super) use super::session::{Lent, Session, Shared, session};
use crate::engine::Conn;
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value};
use std::ptr::NonNull;
use std::time::Duration;

/// The prelude's hidden functions (run_event, call), in the registry.
pub(super) const HIDDEN: &str = "txbench.hidden";

/// Runs `f` with `conn` lent to the state's SQL primitives; after it, they have none.
pub(super) fn with_conn<R>(
    lua: &Lua,
    conn: &mut Conn,
    f: impl FnOnce() -> mlua::Result<R>,
) -> mlua::Result<R> {
    /// Takes the loan back however `f` ends.
    struct Loan<'a>(&'a Lua);
    impl Drop for Loan<'_> {
        fn drop(&mut self) {
            if let Ok(mut s) = session(self.0) {
                s.conn = None;
            }
        }
    }
    session(lua)?.conn = Some(Lent(NonNull::from(conn)));
    let _loan = Loan(lua);
    f()
}

/// The other primitives: counters, sleeping, the restart mark, the options' listing.
fn misc_primitives(lua: &Lua, p: &Table) -> mlua::Result<()> {
    p.set(
        "counter_inc",
        lua.create_function(|lua, what: f64| {
            // SB_CNT_ERROR: the script rolled back on purpose (sysbench-tpcc's 1 % of
            // New-Orders); reads, writes and the rest are counted by txbench as it sends them.
            if what == 4.0 {
                session(lua)?.counted_error = true;
            }
            Ok(())
        })?,
    )?;
    p.set(
        "usleep",
        lua.create_function(|_, us: f64| {
            crate::engine::fiber::sleep(Duration::from_micros(us.max(0.0) as u64));
            Ok(())
        })?,
    )?;
    p.set(
        "mark_restart",
        lua.create_function(|lua, ()| {
            session(lua)?.restart = true;
            Ok(())
        })?,
    )?;
    p.set(
        "print_options",
        lua.create_function(|lua, ()| {
            print!("{}", session(lua)?.help);
            Ok(())
        })?,
    )?;
    Ok(())
}

/// `value` as Lua.
fn opt_value(lua: &Lua, v: &OptValue) -> mlua::Result<Value> {
    Ok(match v {
        OptValue::Bool(b) => Value::Boolean(*b),
        OptValue::Number(n) => Value::Number(*n),
        OptValue::Text(s) => Value::String(lua.create_string(s)?),
        OptValue::List(l) => Value::Table(lua.create_sequence_from(l.iter().map(String::as_str))?),
    })
}

/// What a state is made for: its command, thread, the options' values and sysbench's
/// general options (threads, time, events, rate, report_interval).
pub(super) struct Made<'a> {
    pub command: &'a str,
    pub tid: u32,
    pub values: &'a std::collections::BTreeMap<String, OptValue>,
    pub general: &'a [(&'static str, f64)],
}

/// A new state for `script` with the prelude and the script run in it; the session becomes
/// its app data. Errors are the script's (a syntax error, an error at load), file:line first.
pub(super) fn new_state(script: &Script, made: &Made<'_>, session: Session) -> mlua::Result<Lua> {
    // SAFETY: LuaJIT's ffi (sysbench's scripts use it) can only be opened in an unsafe
    // state; the script is the user's own code, run with the user's authority, as sysbench
    // runs it.
    let lua = unsafe { Lua::unsafe_new_with(StdLib::ALL, LuaOptions::new()) };
    let package: Table = lua.globals().get("package")?;
    let dir = script.dir.display().to_string();
    let path: String = package.get("path")?;
    package.set(
        "path",
        format!("{dir}/?.lua;./?.lua;{}/?.lua;{path}", super::SYSBENCH_DIR),
    )?;
    let shared = Shared::new(session);
    let fast = super::ffi::table(&lua, shared.ptr())?;
    lua.set_app_data(shared);
    let p = lua.create_table()?;
    misc_primitives(&lua, &p)?;
    super::sql::primitives(&lua, &p)?;
    let cfg = lua.create_table()?;
    cfg.set("ffi", fast)?;
    cfg.set("tid", made.tid)?;
    cfg.set("command", made.command)?;
    cfg.set("script_path", script.path.display().to_string())?;
    cfg.set("argv", lua.create_table()?)?;
    let opt = lua.create_table()?;
    for (k, v) in made.general {
        opt.set(*k, *v)?;
    }
    opt.set("percentile", 95)?;
    for (k, v) in made.values {
        opt.set(k.as_str(), opt_value(&lua, v)?)?;
    }
    cfg.set("opt", opt)?;
    let hidden: Table = lua
        .load(super::PRELUDE)
        .set_name("=txbench prelude")
        .call((p, cfg))?;
    lua.set_named_registry_value(HIDDEN, hidden)?;
    lua.load(&script.source)
        .set_name(format!("@{}", script.path.display()))
        .exec()?;
    Ok(lua)
}

/// A hidden function of the prelude (run_event, call).
pub(super) fn hidden(lua: &Lua, name: &str) -> mlua::Result<Function> {
    let t: Table = lua.named_registry_value(HIDDEN)?;
    t.get(name)
}

/// A Lua error as one line: its message without mlua's decoration and traceback.
pub fn one_line(e: &mlua::Error) -> String {
    let text = match e {
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::RuntimeError(m) => m.clone(),
        mlua::Error::CallbackError { cause, .. } => return one_line(cause),
        other => other.to_string(),
    };
    let first = text.lines().next().unwrap_or_default();
    first
        .strip_prefix("runtime error: ")
        .or_else(|| first.strip_prefix("syntax error: "))
        .unwrap_or(first)
        .to_string()
}
