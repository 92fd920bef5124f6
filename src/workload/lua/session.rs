//! What one Lua state's primitives share (its app data): the random generator and the
//! distributions, the statements the script prepared, this call's counts and error; and
//! where the connection lent to a call waits.

use super::options::OptValue;
use crate::metrics::StmtCounts;
use crate::workload::rand::{Distribution, IdDist, WorkerRng};
use mlua::Lua;
use std::ptr::NonNull;

/// A statement the script prepared: its text, and the statement on the connection of
/// generation `.0` (prepared again on the next connection after a reconnect).
pub(super) struct Prepared {
    pub sql: String,
    /// What it is, by its first word (how it is counted).
    pub sort: Sort,
    pub stmt: Option<(u64, crate::engine::Stmt)>,
}

/// The connection `state::with_conn` lends to the primitives for one call: a pointer from its
/// `&mut Conn`, set when the call starts and cleared when it ends (however it ends), used only
/// by `sql::on_conn` on the thread running the call. A scoped userdata in the registry did the
/// same safely, at the price of a registry value made per event and looked up per statement.
pub(super) struct Lent(pub std::ptr::NonNull<crate::engine::Conn>);

// SAFETY: a Lent is dereferenced only inside the call that lent it, on the thread running
// that call (a Lua state belongs to one virtual user's thread).
unsafe impl Send for Lent {}

/// What one state's primitives share (the state's app data).
pub(super) struct Session {
    pub rng: WorkerRng,
    /// --rand-type (sysbench.rand.default), and the named distributions.
    pub default: IdDist,
    pub special: IdDist,
    pub gaussian: IdDist,
    pub pareto: IdDist,
    pub zipfian: IdDist,
    /// sysbench.rand.unique: the next index of this thread's share of a bijection of u32.
    pub unique_next: u64,
    pub tid: u32,
    pub threads: u32,
    /// The target's engine, as sysbench names its driver: mysql or pgsql.
    pub driver: &'static str,
    pub stmts: Vec<Option<Prepared>>,
    /// The connection's generation: every on_connect starts another.
    pub generation: u64,
    /// Whether the script holds an open connection (drv:connect() without disconnect()).
    pub open: bool,
    /// This call's statements.
    pub counts: StmtCounts,
    /// COMMITs and ROLLBACKs this call sent.
    pub ends: u64,
    /// The last of them was a ROLLBACK: the event's transaction did not commit.
    pub rolled_back: bool,
    /// The last statement's error, until a statement succeeds.
    pub failed: Option<crate::engine::Error>,
    /// The error was raised as sysbench's RESTART_EVENT.
    pub restart: bool,
    /// The script counted an error itself (ffi.C.sb_counter_inc(tid, SB_CNT_ERROR)).
    pub counted_error: bool,
    /// `--help`'s text, for sysbench.cmdline.print_test_options().
    pub help: String,
    /// The connection lent to this call (None: none is lent).
    pub conn: Option<Lent>,
    /// The connection's result set (its buffers reused by the next statement's) and, while
    /// the script may read it, its number. As sysbench's (one `rs` per connection, freed by
    /// the next query), a statement replaces it.
    pub rows: Option<crate::engine::StoredRows>,
    pub current: Option<u64>,
    /// Result sets so far (the last one's number).
    pub results: u64,
    /// The parameters of the statement about to be executed, set one by one (lua/ffi.rs).
    pub params: Vec<crate::engine::Value>,
    /// The row last fetched, and a cell of it written out as text, for the script to copy.
    pub row: Vec<crate::engine::Value>,
    pub text: Vec<u8>,
    /// Why the last ffi primitive failed (not an SQL error: those are `failed`).
    pub message: String,
}

impl Session {
    /// A session for thread `tid` of `threads`, with the distributions `values` sets.
    pub fn new(
        rng: WorkerRng,
        values: &std::collections::BTreeMap<String, OptValue>,
        tid: u32,
        threads: u32,
        driver: &'static str,
    ) -> Session {
        let num = |k: &str, d: f64| match values.get(k) {
            Some(OptValue::Number(n)) => *n,
            _ => d,
        };
        let special = Distribution::Special {
            pct: num("rand_spec_pct", 1.0),
            res: num("rand_spec_res", 75.0),
        };
        let pareto = Distribution::Pareto {
            h: num("rand_pareto_h", 0.2),
        };
        let zipfian = Distribution::Zipfian {
            exp: num("rand_zipfian_exp", 0.8),
        };
        let default = match values.get("rand_type") {
            Some(OptValue::Text(t)) if t == "uniform" => Distribution::Uniform,
            Some(OptValue::Text(t)) if t == "gaussian" => Distribution::Gaussian,
            Some(OptValue::Text(t)) if t == "pareto" => pareto,
            Some(OptValue::Text(t)) if t == "zipfian" => zipfian,
            _ => special,
        };
        Session {
            rng,
            default: IdDist::new(default),
            special: IdDist::new(special),
            gaussian: IdDist::new(Distribution::Gaussian),
            pareto: IdDist::new(pareto),
            zipfian: IdDist::new(zipfian),
            unique_next: 0,
            tid,
            threads: threads.max(1),
            driver,
            stmts: Vec::new(),
            generation: 0,
            open: false,
            counts: StmtCounts::default(),
            ends: 0,
            rolled_back: false,
            failed: None,
            restart: false,
            counted_error: false,
            help: String::new(),
            conn: None,
            rows: None,
            current: None,
            results: 0,
            params: Vec::new(),
            row: Vec::new(),
            text: Vec::new(),
            message: String::new(),
        }
    }
}

/// A state's session, its app data: on the heap at an address that never moves, so that
/// the primitives LuaJIT's ffi calls (lua/ffi.rs) reach it by a pointer, and the mlua
/// callbacks by [`session`]. Every access, by either, goes through that one pointer.
pub(super) struct Shared(NonNull<Session>);

// SAFETY: the session is Send, and a Shared owns it as a Box would.
unsafe impl Send for Shared {}

impl Shared {
    pub fn new(s: Session) -> Shared {
        Shared(NonNull::from(Box::leak(Box::new(s))))
    }

    /// The session's address, for the ffi primitives.
    pub fn ptr(&self) -> *mut Session {
        self.0.as_ptr()
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: made by Box::leak in new, dropped once, here.
        drop(unsafe { Box::from_raw(self.0.as_ptr()) });
    }
}

/// The session borrowed for a callback: mlua's exclusive borrow of the app data held while
/// it lives, so no two callbacks hold the session at once. The ffi primitives cannot run
/// meanwhile: they are called only by Lua code, and no callback runs Lua while it holds one.
pub(super) struct SessionRef<'a>(mlua::AppDataRefMut<'a, Shared>);

impl std::ops::Deref for SessionRef<'_> {
    type Target = Session;
    fn deref(&self) -> &Session {
        // SAFETY: see SessionRef.
        unsafe { &*self.0.ptr() }
    }
}

impl std::ops::DerefMut for SessionRef<'_> {
    fn deref_mut(&mut self) -> &mut Session {
        // SAFETY: see SessionRef.
        unsafe { &mut *self.0.ptr() }
    }
}

/// The session of `lua`'s state.
pub(super) fn session(lua: &Lua) -> mlua::Result<SessionRef<'_>> {
    lua.app_data_mut::<Shared>()
        .map(SessionRef)
        .ok_or_else(|| mlua::Error::runtime("txbench: no session"))
}

/// What a statement is, by its first word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sort {
    Read,
    Write,
    Commit,
    Rollback,
    Other,
}

pub(super) fn sort(sql: &str) -> Sort {
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
