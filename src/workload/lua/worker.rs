//! One virtual user of a script: its own Lua state, made on its first connection (where
//! thread_init() runs), and event() as its transaction.

use super::state::{self, Made, Session, hidden, session, with_conn};
use super::{Given, Script, Seen};
use crate::engine::{self, Conn, Engine};
use crate::metrics::{Outcome, StmtCounts};
use crate::workload::Worker;
use crate::workload::rand::WorkerRng;
use mlua::Lua;
use std::sync::Arc;
use std::sync::atomic::Ordering;

pub(super) struct LuaWorker {
    script: Arc<Script>,
    given: Arc<Given>,
    general: Arc<Vec<(&'static str, f64)>>,
    id: u32,
    /// Until the state is made.
    rng: Option<WorkerRng>,
    lua: Option<Lua>,
    /// The prelude's run_event, looked up once.
    run_event: Option<mlua::Function>,
    seen: Arc<Seen>,
    /// event() returned true: this thread's run is over.
    ended: bool,
    /// The kind the last event turned out to be.
    kind: Option<usize>,
}

impl LuaWorker {
    pub(super) fn new(
        script: Arc<Script>,
        given: Arc<Given>,
        general: Arc<Vec<(&'static str, f64)>>,
        id: u32,
        rng: WorkerRng,
        seen: Arc<Seen>,
    ) -> LuaWorker {
        LuaWorker {
            script,
            given,
            general,
            id,
            rng: Some(rng),
            lua: None,
            run_event: None,
            seen,
            ended: false,
            kind: None,
        }
    }

    /// The state made on `conn`, its thread_init() run there.
    fn make(&mut self, conn: &mut Conn) -> mlua::Result<Lua> {
        let threads = self
            .general
            .iter()
            .find(|(k, _)| *k == "threads")
            .map_or(1, |(_, v)| *v as u32);
        let rng = self
            .rng
            .take()
            .ok_or_else(|| mlua::Error::runtime("txbench: the state was lost"))?;
        let s = Session::new(
            rng,
            &self.given.values,
            self.id,
            threads,
            driver_name(conn.engine()),
        );
        let made = Made {
            command: "run",
            tid: self.id,
            values: &self.given.values,
            general: &self.general,
        };
        let lua = state::new_state(&self.script, &made, s)?;
        if !self.script.kinds.is_empty() {
            let names =
                lua.create_sequence_from(self.script.kinds.iter().map(|(f, _)| f.as_str()))?;
            hidden(&lua, "wrap_kinds")?.call::<()>(names)?;
        }
        if self.script.defines("thread_init") {
            let call = hidden(&lua, "call")?;
            let init: mlua::Function = lua.globals().get("thread_init")?;
            let (ok, msg): (bool, Option<String>) =
                with_conn(&lua, conn, || call.call((init, self.id)))?;
            if !ok {
                return Err(mlua::Error::runtime(format!(
                    "thread_init: {}",
                    msg.unwrap_or_default()
                )));
            }
        }
        Ok(lua)
    }
}

/// The engine as sysbench names its driver.
pub(super) fn driver_name(engine: Engine) -> &'static str {
    match engine {
        Engine::Postgres => "pgsql",
        _ => "mysql",
    }
}

fn script_error(e: &mlua::Error) -> engine::Error {
    engine::Error::Script(state::one_line(e))
}

impl Worker for LuaWorker {
    fn on_connect(&mut self, conn: &mut Conn) -> engine::Result<()> {
        match &self.lua {
            Some(lua) => {
                // A new connection: the script's statements are prepared again on first use.
                session(lua).map_err(|e| script_error(&e))?.generation += 1;
            }
            None => {
                let lua = self.make(conn).map_err(|e| script_error(&e))?;
                self.run_event = Some(hidden(&lua, "run_event").map_err(|e| script_error(&e))?);
                self.lua = Some(lua);
            }
        }
        Ok(())
    }

    fn execute(
        &mut self,
        conn: &mut Conn,
        _kind: usize,
        _retry: bool,
        stmts: &mut StmtCounts,
    ) -> engine::Result<Outcome> {
        if self.lua.is_none() {
            self.on_connect(conn)?;
        }
        let (Some(lua), Some(run)) = (&self.lua, &self.run_event) else {
            return Err(engine::Error::Script("txbench: no Lua state".into()));
        };
        {
            let mut s = session(lua).map_err(|e| script_error(&e))?;
            s.counts = StmtCounts::default();
            s.ends = 0;
            s.rolled_back = false;
            s.failed = None;
            s.restart = false;
            s.counted_error = false;
        }
        let result: mlua::Result<(bool, Option<String>, bool, usize)> =
            with_conn(lua, conn, || run.call(self.id));
        let mut s = session(lua).map_err(|e| script_error(&e))?;
        stmts.reads += s.counts.reads;
        stmts.writes += s.counts.writes;
        stmts.other += s.counts.other;
        let (ok, msg, ended, kind) = result.map_err(|e| script_error(&e))?;
        // The prelude's kind counts from 1; 0 (no kind function called) is the script's own,
        // the last.
        let kinds = self.script.kinds.len();
        self.kind = Some(kind.checked_sub(1).filter(|k| *k < kinds).unwrap_or(kinds));
        if ok {
            self.ended = ended;
            self.seen.events.fetch_add(1, Ordering::Relaxed);
            self.seen.ends.fetch_add(s.ends, Ordering::Relaxed);
            self.seen
                .stmts
                .fetch_add(s.counts.total(), Ordering::Relaxed);
            // It rolled back on purpose: counted (sysbench-tpcc's 1 % of New-Orders, with
            // SB_CNT_ERROR), or its last statement ending a transaction was a ROLLBACK.
            return Ok(if s.counted_error || s.rolled_back {
                Outcome::RolledBack
            } else {
                Outcome::Committed
            });
        }
        let msg = msg.unwrap_or_default();
        match s.failed.take() {
            // The script's sql_error_ignorable hook asked for a restart of an error txbench
            // does not retry: retried as a conflict.
            Some(e) if s.restart && !engine::classify(&e).retryable() => {
                Err(engine::Error::Conflict(msg))
            }
            Some(e) => Err(e),
            None => Err(engine::Error::Script(msg)),
        }
    }

    fn finished(&self) -> bool {
        self.ended
    }

    fn kind_ran(&self) -> Option<usize> {
        self.kind
    }

    /// sysbench's thread_done(), when the script defines it (Debian's oltp scripts close
    /// their statements there).
    fn done(&mut self, conn: &mut Conn, stmts: &mut StmtCounts) -> engine::Result<()> {
        let Some(lua) = &self.lua else { return Ok(()) };
        if !self.script.defines("thread_done") {
            return Ok(());
        }
        session(lua).map_err(|e| script_error(&e))?.counts = StmtCounts::default();
        let ran = (|| {
            let call = hidden(lua, "call")?;
            let f: mlua::Function = lua.globals().get("thread_done")?;
            with_conn(lua, conn, || {
                call.call::<(bool, Option<String>)>((f, self.id))
            })
        })();
        let counts = std::mem::take(&mut session(lua).map_err(|e| script_error(&e))?.counts);
        stmts.reads += counts.reads;
        stmts.writes += counts.writes;
        stmts.other += counts.other;
        match ran.map_err(|e| script_error(&e))? {
            (true, _) => Ok(()),
            (false, msg) => Err(engine::Error::Script(format!(
                "thread_done: {}",
                msg.unwrap_or_default()
            ))),
        }
    }
}
