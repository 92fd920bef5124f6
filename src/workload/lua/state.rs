//! One Lua state (sysbench: one per thread): LuaJIT with its libraries and `ffi`, the
//! script's directory and /usr/share/sysbench on package.path, the primitives the prelude
//! builds sysbench's API on (random values here, SQL in sql.rs), `sysbench.opt`, and the
//! script run. The connection a state's SQL uses is lent to it for each call (`with_conn`).

use super::Script;
use super::options::OptValue;
pub(super) use super::session::{Lent, Session, session};
use crate::engine::Conn;
use crate::workload::rand::{fill_template, uniform};
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value};
use rand::Rng;
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

/// A sysbench range: Lua numbers as u32, `b` at least `a`.
fn range(a: f64, b: f64) -> (u32, u32) {
    let a = a.clamp(0.0, f64::from(u32::MAX)) as u32;
    let b = b.clamp(0.0, f64::from(u32::MAX)) as u32;
    (a, b.max(a))
}

/// A bijection of u32 (an odd multiplier and xor-shifts), so sysbench.rand.unique's
/// indexes, dealt to threads in turn, never give two threads the same value.
fn scramble(mut x: u32) -> u32 {
    x = x.wrapping_mul(0x9E37_79B1);
    x ^= x >> 15;
    x = x.wrapping_mul(0x85EB_CA77);
    x ^ (x >> 13)
}

/// The random primitives (sysbench.rand.*), into `p`.
fn rand_primitives(lua: &Lua, p: &Table) -> mlua::Result<()> {
    type Pick = fn(&mut Session, u32, u32) -> u32;
    let dists: [(&str, Pick); 6] = [
        ("rand_uniform", |s, a, b| uniform(&mut s.rng, a, b)),
        ("rand_default", |s, a, b| s.default.sample(&mut s.rng, a, b)),
        ("rand_special", |s, a, b| s.special.sample(&mut s.rng, a, b)),
        ("rand_gaussian", |s, a, b| {
            s.gaussian.sample(&mut s.rng, a, b)
        }),
        ("rand_pareto", |s, a, b| s.pareto.sample(&mut s.rng, a, b)),
        ("rand_zipfian", |s, a, b| s.zipfian.sample(&mut s.rng, a, b)),
    ];
    for (name, pick) in dists {
        let f = lua.create_function(move |lua, (a, b): (f64, f64)| {
            let (a, b) = range(a, b);
            Ok(f64::from(pick(&mut *session(lua)?, a, b)))
        })?;
        p.set(name, f)?;
    }
    p.set(
        "rand_unique",
        lua.create_function(|lua, ()| {
            let mut s = session(lua)?;
            let index = s.unique_next * u64::from(s.threads) + u64::from(s.tid);
            s.unique_next += 1;
            Ok(f64::from(scramble(index as u32)))
        })?,
    )?;
    p.set(
        "rand_uniform_uint64",
        // A Lua number: exact below 2^53.
        lua.create_function(|lua, ()| Ok((session(lua)?.rng.random::<u64>() >> 11) as f64))?,
    )?;
    p.set(
        "rand_uniform_double",
        lua.create_function(|lua, ()| Ok(session(lua)?.rng.random::<f64>()))?,
    )?;
    p.set(
        "rand_string",
        lua.create_function(|lua, fmt: mlua::String| {
            let mut buf = Vec::new();
            fill_template(&mut session(lua)?.rng, &fmt.as_bytes(), &mut buf);
            lua.create_string(&buf)
        })?,
    )?;
    p.set(
        "rand_varstring",
        lua.create_function(|lua, (min, max): (f64, f64)| {
            let (min, max) = range(min, max);
            let mut s = session(lua)?;
            let n = uniform(&mut s.rng, min, max);
            let buf: Vec<u8> = (0..n)
                .map(|_| uniform(&mut s.rng, u32::from(b'0'), u32::from(b'z')) as u8)
                .collect();
            drop(s);
            lua.create_string(&buf)
        })?,
    )?;
    Ok(())
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
            std::thread::sleep(Duration::from_micros(us.max(0.0) as u64));
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
    lua.set_app_data(session);
    let p = lua.create_table()?;
    rand_primitives(&lua, &p)?;
    misc_primitives(&lua, &p)?;
    super::sql::primitives(&lua, &p)?;
    let cfg = lua.create_table()?;
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
