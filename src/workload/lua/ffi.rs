//! The primitives an event calls most (a statement, its parameters, a row's cells, a random
//! value) as C functions the prelude calls through LuaJIT's ffi, as sysbench's Lua calls its
//! C core. An ffi call is compiled into LuaJIT's traces and costs a C call; a Lua C function
//! (an mlua callback) ends the trace and pays for argument conversion and the app-data
//! borrow, which was a sixth of the client's time under oltp_read_write.lua.
//!
//! They never call Lua (the ffi forbids it) and never unwind into it: each returns a status
//! and the prelude raises the error, reading its description through the mlua primitives
//! `last_error` (an SQL error, the session's `failed`) and `message` (txbench's own).

use super::session::{Session, Sort, sort};
use super::sql;
use crate::engine::Value as Cell;
use crate::workload::rand::{fill_template, uniform};
use mlua::{LightUserData, Lua, Table};
use rand::Rng;
use std::ffi::{c_char, c_int, c_void};
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A statement's status: 0 no result set, 1 a result (`out`: rows, columns, its number or 0).
const SQL_ERROR: c_int = -1;
/// txbench's own error (the session's `message`), for any primitive returning a status.
const OWN_ERROR: c_int = -2;
/// `row`: no such row (past the last, or a later statement replaced the result).
const NO_ROW: c_int = -3;

/// Runs `f` on the session at `s`; a panic becomes `fail` (and a message), never an unwind
/// into LuaJIT's frames.
fn guarded<R>(s: *mut c_void, fail: R, f: impl FnOnce(&mut Session) -> R) -> R {
    let s = s.cast::<Session>();
    if s.is_null() {
        return fail;
    }
    // SAFETY: `s` is the address of the state's session (Shared::ptr), which the prelude
    // keeps out of the script's sight and passes back; the session lives as long as the
    // state, and no mlua callback holds it while Lua code (this call's caller) runs.
    match catch_unwind(AssertUnwindSafe(|| f(unsafe { &mut *s }))) {
        Ok(r) => r,
        Err(_) => {
            // SAFETY: as above; the closure's borrow ended with the unwind.
            unsafe { &mut *s }.message = "txbench: internal error in a Lua primitive".into();
            fail
        }
    }
}

/// txbench's own error: `message` kept for the prelude to raise.
fn own(s: &mut Session, message: impl Into<String>) -> c_int {
    s.message = message.into();
    OWN_ERROR
}

/// The bytes at `p`, `len` of them (none for a null pointer).
///
/// # Safety
/// `p` points at `len` readable bytes that outlive the call (a Lua string the ffi passed).
unsafe fn bytes<'a>(p: *const c_char, len: usize) -> &'a [u8] {
    if p.is_null() || len == 0 {
        return &[];
    }
    // SAFETY: as the caller promises.
    unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) }
}

/// A statement's outcome into `out` (rows, columns, the result's number or 0), as a status.
fn outcome(s: &mut Session, r: crate::engine::Result<()>, what: Sort, out: *mut f64) -> c_int {
    let Err(e) = r else {
        s.failed = None;
        let (nrows, nfields) = s.rows.as_ref().map_or((0, 0), |r| (r.len(), r.width()));
        if nfields == 0 && what != Sort::Read {
            return 0;
        }
        let number = if nrows == 0 {
            0
        } else {
            s.results += 1;
            s.current = Some(s.results);
            s.results
        };
        // SAFETY: `out` is the prelude's double[3].
        unsafe {
            *out = nrows as f64;
            *out.add(1) = nfields as f64;
            *out.add(2) = number as f64;
        }
        return 1;
    };
    s.failed = Some(e);
    SQL_ERROR
}

/// con:query(sql): runs SQL text.
unsafe extern "C" fn query(
    s: *mut c_void,
    text: *const c_char,
    len: usize,
    out: *mut f64,
) -> c_int {
    guarded(s, OWN_ERROR, |s| {
        // SAFETY: the prelude passes a Lua string and its length.
        let Ok(text) = std::str::from_utf8(unsafe { bytes(text, len) }) else {
            return own(s, "txbench: a query that is not UTF-8");
        };
        let what = sort(text);
        sql::count(s, what);
        // SAFETY: the connection is used for this call only.
        let Some(conn) = (unsafe { sql::lent_conn(s) }) else {
            return own(s, sql::NO_CONNECTION);
        };
        s.current = None;
        let r = conn.query_stored(text, &mut s.rows);
        outcome(s, r, what, out)
    })
}

/// One parameter of the statement about to be executed, the `i`-th from 0 (0 starts a new
/// list): `kind` 0 NULL, 1 the number `num`, 2 the text at `text`.
unsafe extern "C" fn param(
    s: *mut c_void,
    i: c_int,
    kind: c_int,
    num: f64,
    text: *const c_char,
    len: usize,
) -> c_int {
    guarded(s, OWN_ERROR, |s| {
        if i == 0 {
            s.params.clear();
        }
        if usize::try_from(i).ok() != Some(s.params.len()) {
            return own(s, "txbench: a statement's parameters were set out of order");
        }
        let v = match kind {
            0 => Cell::Null,
            // A Lua number: an integer when it is one (sysbench binds its ids as BIGINT).
            1 if num.fract() == 0.0 && num.abs() < 9.0e15 => Cell::Int(num as i64),
            1 => Cell::Float(num),
            // SAFETY: the prelude passes a Lua string and its length.
            _ => match String::from_utf8(unsafe { bytes(text, len) }.to_vec()) {
                Ok(t) => Cell::Text(t),
                Err(_) => {
                    // The list is abandoned: the next execute starts a new one.
                    s.params.clear();
                    return own(s, "txbench: a statement parameter that is not UTF-8");
                }
            },
        };
        s.params.push(v);
        0
    })
}

/// stmt:execute(): statement `id` with the `n` parameters set.
unsafe extern "C" fn execute(s: *mut c_void, id: c_int, n: c_int, out: *mut f64) -> c_int {
    guarded(s, OWN_ERROR, |s| {
        if n == 0 {
            // None set: whatever an abandoned list left is not this statement's.
            s.params.clear();
        }
        if usize::try_from(n).ok() != Some(s.params.len()) {
            s.params.clear();
            return own(s, "txbench: a statement's parameters were not all set");
        }
        let Ok(id) = usize::try_from(id) else {
            s.params.clear();
            return own(s, "txbench: execute() on a statement that was closed");
        };
        let what = match s.stmts.get(id) {
            Some(Some(p)) => p.sort,
            _ => Sort::Other,
        };
        sql::count(s, what);
        // SAFETY: the connection is used for this call only.
        let Some(conn) = (unsafe { sql::lent_conn(s) }) else {
            return own(s, sql::NO_CONNECTION);
        };
        let params = std::mem::take(&mut s.params);
        s.current = None;
        let r = sql::prepared(&mut s.stmts, s.generation, conn, id)
            .and_then(|st| conn.exec_stored(st, params, &mut s.rows));
        outcome(s, r, what, out)
    })
}

/// Row `i` (from 1) of result `number` into the session: its cells, or NO_ROW (past the
/// last, or a later statement replaced the result).
unsafe extern "C" fn row(s: *mut c_void, number: f64, i: f64) -> c_int {
    guarded(s, OWN_ERROR, |s| {
        let row = match (&s.rows, (i as usize).checked_sub(1)) {
            (Some(rows), Some(i)) if s.current == Some(number as u64) => rows.row(i),
            _ => None,
        };
        match row {
            None => NO_ROW,
            Some(Err(e)) => own(s, e.to_string()),
            Some(Ok(row)) => {
                s.row = row.0;
                c_int::try_from(s.row.len()).unwrap_or(c_int::MAX)
            }
        }
    })
}

/// Cell `j` (from 0) of the row last fetched as text, its length in `len`; null for NULL.
unsafe extern "C" fn cell(s: *mut c_void, j: c_int, len: *mut usize) -> *const c_char {
    guarded(s, std::ptr::null(), |s| {
        let Session { row, text, .. } = s;
        let mut written = |v: &dyn std::fmt::Display| {
            text.clear();
            let _ = write!(text, "{v}");
            (text.as_ptr(), text.len())
        };
        let (p, n) = match usize::try_from(j).ok().and_then(|j| row.get(j)) {
            None | Some(Cell::Null) => return std::ptr::null(),
            Some(Cell::Text(t)) => (t.as_ptr(), t.len()),
            Some(Cell::Int(v)) => written(v),
            Some(Cell::Float(v)) => written(v),
        };
        // SAFETY: `len` is the prelude's size_t[1].
        unsafe { *len = n };
        p.cast()
    })
}

/// rs:free(): result `number` is no longer the script's to read.
unsafe extern "C" fn free(s: *mut c_void, number: f64) {
    guarded(s, (), |s| {
        if s.current == Some(number as u64) {
            s.current = None;
        }
    });
}

/// A sysbench range: Lua numbers as u32, `b` at least `a`.
fn range(a: f64, b: f64) -> (u32, u32) {
    let a = a.clamp(0.0, f64::from(u32::MAX)) as u32;
    let b = b.clamp(0.0, f64::from(u32::MAX)) as u32;
    (a, b.max(a))
}

/// sysbench.rand's distributions, by the prelude's number: uniform, default, special,
/// gaussian, pareto, zipfian.
unsafe extern "C" fn rand(s: *mut c_void, which: c_int, a: f64, b: f64) -> f64 {
    guarded(s, f64::NAN, |s| {
        let (a, b) = range(a, b);
        let Session {
            rng,
            default,
            special,
            gaussian,
            pareto,
            zipfian,
            ..
        } = s;
        let dist = match which {
            0 => return f64::from(uniform(rng, a, b)),
            1 => default,
            2 => special,
            3 => gaussian,
            4 => pareto,
            5 => zipfian,
            _ => return f64::NAN,
        };
        f64::from(dist.sample(rng, a, b))
    })
}

/// A bijection of u32 (an odd multiplier and xor-shifts), so sysbench.rand.unique's
/// indexes, dealt to threads in turn, never give two threads the same value.
fn scramble(mut x: u32) -> u32 {
    x = x.wrapping_mul(0x9E37_79B1);
    x ^= x >> 15;
    x = x.wrapping_mul(0x85EB_CA77);
    x ^ (x >> 13)
}

/// sysbench.rand.unique().
unsafe extern "C" fn rand_unique(s: *mut c_void) -> f64 {
    guarded(s, f64::NAN, |s| {
        let index = s.unique_next * u64::from(s.threads) + u64::from(s.tid);
        s.unique_next += 1;
        f64::from(scramble(index as u32))
    })
}

/// sysbench.rand.uniform_uint64(), as a Lua number: exact below 2^53.
unsafe extern "C" fn rand_uint64(s: *mut c_void) -> f64 {
    guarded(s, f64::NAN, |s| (s.rng.random::<u64>() >> 11) as f64)
}

/// sysbench.rand.uniform_double().
unsafe extern "C" fn rand_double(s: *mut c_void) -> f64 {
    guarded(s, f64::NAN, |s| s.rng.random::<f64>())
}

/// sysbench.rand.string(fmt): '#' a digit, '@' a letter; its length in `len`.
unsafe extern "C" fn rand_string(
    s: *mut c_void,
    fmt: *const c_char,
    n: usize,
    len: *mut usize,
) -> *const c_char {
    guarded(s, std::ptr::null(), |s| {
        // SAFETY: the prelude passes a Lua string and its length.
        fill_template(&mut s.rng, unsafe { bytes(fmt, n) }, &mut s.text);
        // SAFETY: `len` is the prelude's size_t[1].
        unsafe { *len = s.text.len() };
        s.text.as_ptr().cast()
    })
}

/// sysbench.rand.varstring(min, max): characters '0' to 'z'; its length in `len`.
unsafe extern "C" fn rand_varstring(
    s: *mut c_void,
    min: f64,
    max: f64,
    len: *mut usize,
) -> *const c_char {
    guarded(s, std::ptr::null(), |s| {
        let (min, max) = range(min, max);
        let n = uniform(&mut s.rng, min, max);
        let Session { rng, text, .. } = s;
        text.clear();
        text.extend((0..n).map(|_| uniform(rng, u32::from(b'0'), u32::from(b'z')) as u8));
        // SAFETY: `len` is the prelude's size_t[1].
        unsafe { *len = text.len() };
        text.as_ptr().cast()
    })
}

/// The primitives for the prelude: `session` (the session's address, as light userdata)
/// and `fns`, each name's C type and address, which the prelude casts to ffi functions.
pub(super) fn table(lua: &Lua, session: *mut Session) -> mlua::Result<Table> {
    let fns: [(&str, &str, *const ()); 12] = [
        (
            "query",
            "int (*)(void *, const char *, size_t, double *)",
            query as *const (),
        ),
        (
            "param",
            "int (*)(void *, int, int, double, const char *, size_t)",
            param as *const (),
        ),
        (
            "execute",
            "int (*)(void *, int, int, double *)",
            execute as *const (),
        ),
        ("row", "int (*)(void *, double, double)", row as *const ()),
        (
            "cell",
            "const char *(*)(void *, int, size_t *)",
            cell as *const (),
        ),
        ("free", "void (*)(void *, double)", free as *const ()),
        (
            "rand",
            "double (*)(void *, int, double, double)",
            rand as *const (),
        ),
        (
            "rand_unique",
            "double (*)(void *)",
            rand_unique as *const (),
        ),
        (
            "rand_uint64",
            "double (*)(void *)",
            rand_uint64 as *const (),
        ),
        (
            "rand_double",
            "double (*)(void *)",
            rand_double as *const (),
        ),
        (
            "rand_string",
            "const char *(*)(void *, const char *, size_t, size_t *)",
            rand_string as *const (),
        ),
        (
            "rand_varstring",
            "const char *(*)(void *, double, double, size_t *)",
            rand_varstring as *const (),
        ),
    ];
    let t = lua.create_table()?;
    let f = lua.create_table()?;
    for (name, ctype, address) in fns {
        let entry = lua.create_sequence_from([
            mlua::Value::String(lua.create_string(ctype)?),
            mlua::Value::LightUserData(LightUserData(address.cast_mut().cast())),
        ])?;
        f.set(name, entry)?;
    }
    t.set("fns", f)?;
    t.set("session", LightUserData(session.cast()))?;
    t.set("SQL_ERROR", SQL_ERROR)?;
    t.set("NO_ROW", NO_ROW)?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scramble_is_a_bijection_on_a_sample() {
        let mut seen: Vec<u32> = (0..100_000).map(scramble).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 100_000);
    }

    #[test]
    fn ranges_clamp_and_order() {
        assert_eq!(range(-5.0, 3.0), (0, 3));
        assert_eq!(range(10.0, 2.0), (10, 10));
        assert_eq!(range(1.0, 1e12), (1, u32::MAX));
    }
}
