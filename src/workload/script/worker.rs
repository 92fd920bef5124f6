//! One virtual user running scripts: its variables, the commands in turn (`\if` jumps), the
//! SQL with its variables substituted, and each command's latency.

use super::eval::{self, Env, Val, Var, Vars};
use super::parse::{Body, Seg, SqlClass, Store};
use super::{QueryMode, Script, Shared, UserStats};
use crate::engine::{Conn, Engine, Stmt, Value};
use crate::metrics::{Outcome, StmtCounts};
use crate::workload::Worker;
use crate::workload::rand::WorkerRng;
use rand::Rng;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

pub(super) struct ScriptWorker {
    shared: Arc<Shared>,
    /// This user's latencies per command.
    stats: Arc<UserStats>,
    total_weight: u64,
    /// The rest, apart so that it can be borrowed mutably beside the scripts.
    user: User,
}

/// A virtual user's state: its random inputs and variables, and its connection's statements.
struct User {
    rng: WorkerRng,
    /// The generator as the transaction began: a retry draws the same inputs (pgbench 15+).
    saved: WorkerRng,
    vars: Vars,
    /// MariaDB/MySQL: END is sent as COMMIT, and parameters are `?`.
    mysql: bool,
    /// `-M`.
    mode: QueryMode,
    /// `-M prepared`: each SQL command's statement on this connection, by (script, command).
    stmts: HashMap<(usize, usize), Stmt>,
}

/// A script's error at run time: the message names the script and line.
fn failure(s: &Script, line: u32, what: impl std::fmt::Display) -> crate::engine::Error {
    crate::engine::Error::Decode(format!("{}:{line}: {what}", s.origin))
}

/// `sql`, or COMMIT for an END on MariaDB/MySQL (`mysql`), which know COMMIT only.
fn end_as_commit(mysql: bool, sql: String) -> String {
    let first = sql
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .find(|w| !w.is_empty());
    if mysql && first.is_some_and(|w| w.eq_ignore_ascii_case("END")) {
        return "COMMIT".into();
    }
    sql
}

impl ScriptWorker {
    pub(super) fn new(
        shared: Arc<Shared>,
        id: u32,
        rng: WorkerRng,
        stats: Arc<UserStats>,
    ) -> ScriptWorker {
        let mut vars = Vars::new();
        let int = |i: i64| Var::Val(Val::Int(i));
        vars.insert("scale".into(), int(shared.scale));
        vars.insert("client_id".into(), int(i64::from(id)));
        vars.insert("random_seed".into(), int(shared.seed as i64));
        vars.insert(
            "default_seed".into(),
            int(eval::murmur2(shared.seed as i64, 0)),
        );
        for (n, v) in &shared.set.defines {
            vars.insert(n.clone(), Var::Text(v.clone()));
        }
        let total_weight = shared.set.scripts.iter().map(|s| u64::from(s.weight)).sum();
        ScriptWorker {
            user: User {
                saved: rng.clone(),
                rng,
                vars,
                mysql: false,
                mode: shared.set.mode,
                stmts: HashMap::new(),
            },
            total_weight,
            stats,
            shared,
        }
    }
}

impl User {
    /// The SQL text with its variables substituted; an undefined one outside quotes is an
    /// error (pgbench would send `:name` to the server as it is).
    fn sql_text(&self, s: &Script, line: u32, segs: &[Seg]) -> crate::engine::Result<String> {
        let mut out = String::new();
        for seg in segs {
            match seg {
                Seg::Text(t) => out.push_str(t),
                Seg::Var { name, quoted } => match self.vars.get(name) {
                    Some(v) => out.push_str(&v.text()),
                    None if *quoted => {
                        out.push(':');
                        out.push_str(name);
                    }
                    None => return Err(failure(s, line, format!("undefined variable :{name}"))),
                },
            }
        }
        Ok(end_as_commit(self.mysql, out))
    }

    fn eval(&mut self, s: &Script, line: u32, e: &super::expr::Expr) -> crate::engine::Result<Val> {
        let mut env = Env {
            vars: &self.vars,
            rng: &mut self.rng,
        };
        eval::eval(e, &mut env).map_err(|m| failure(s, line, m))
    }

    /// The variables' values, in the order they appear (`-M extended|prepared`).
    fn params(&self, s: &Script, line: u32, segs: &[Seg]) -> crate::engine::Result<Vec<Value>> {
        let mut params = Vec::new();
        for seg in segs {
            if let Seg::Var { name, .. } = seg {
                let Some(v) = self.vars.get(name) else {
                    return Err(failure(s, line, format!("undefined variable :{name}")));
                };
                params.push(match v {
                    Var::Val(Val::Int(i)) => Value::Int(*i),
                    Var::Val(Val::Double(d)) => Value::Float(*d),
                    Var::Val(Val::Null) => Value::Null,
                    other => Value::Text(other.text()),
                });
            }
        }
        Ok(params)
    }

    /// The SQL text with a placeholder for each variable (`?` on MySQL, `$n` on PostgreSQL;
    /// ScriptSet::load refused variables inside quotes).
    fn placeholders(&self, segs: &[Seg]) -> String {
        let mut out = String::new();
        let mut n = 0;
        for seg in segs {
            match seg {
                Seg::Text(t) => out.push_str(t),
                Seg::Var { .. } if self.mysql => out.push('?'),
                Seg::Var { .. } => {
                    n += 1;
                    out.push_str(&format!("${n}"));
                }
            }
        }
        end_as_commit(self.mysql, out)
    }

    /// Runs an SQL command, storing its result for `\gset`/`\aset`; `at`: (script,
    /// command), where `-M prepared` keeps its statement.
    fn sql(
        &mut self,
        conn: &mut Conn,
        s: &Script,
        (at, line): ((usize, usize), u32),
        segs: &[Seg],
        store: Option<&Store>,
    ) -> crate::engine::Result<()> {
        match (store, self.mode) {
            (Some(_), _) | (None, QueryMode::Simple) => {}
            (None, QueryMode::Extended) => {
                let params = self.params(s, line, segs)?;
                return conn.exec_drop(self.placeholders(segs).as_str(), params);
            }
            (None, QueryMode::Prepared) => {
                let params = self.params(s, line, segs)?;
                if let Some(st) = self.stmts.get(&at) {
                    return conn.exec_drop(st, params);
                }
                let st = conn.prep(self.placeholders(segs))?;
                let r = conn.exec_drop(&st, params);
                self.stmts.insert(at, st);
                return r;
            }
        }
        let sql = self.sql_text(s, line, segs)?;
        let Some(store) = store else {
            return conn.query_drop(&sql);
        };
        let (columns, rows) = conn.query_text(&sql)?;
        if !store.all && rows.len() != 1 {
            return Err(failure(
                s,
                line,
                format!("\\gset: expected one row, got {}", rows.len()),
            ));
        }
        // The last row's cells, as text (NULL as "", as libpq gives it to pgbench).
        for row in &rows {
            for (name, cell) in columns.iter().zip(row) {
                let var = format!("{}{name}", store.prefix);
                super::parse::check_name(&var).map_err(|e| failure(s, line, e))?;
                self.vars
                    .insert(var, Var::Text(cell.clone().unwrap_or_default()));
            }
        }
        Ok(())
    }

    /// Where an `\if` chain goes when the test before `at` was false.
    fn jump(&mut self, s: &Script, mut at: usize) -> crate::engine::Result<usize> {
        loop {
            let c = &s.commands[at];
            match &c.body {
                Body::Elif { cond, next, .. } => {
                    if self.eval(s, c.line, cond)?.truth() {
                        return Ok(at + 1);
                    }
                    at = *next;
                }
                _ => return Ok(at + 1),
            }
        }
    }

    /// Runs command `pc`; returns the next one's index.
    fn step(
        &mut self,
        conn: &mut Conn,
        (s, kind): (&Script, usize),
        pc: usize,
        counts: &mut StmtCounts,
    ) -> crate::engine::Result<usize> {
        let c = &s.commands[pc];
        match &c.body {
            Body::Sql { segs, class, store } => {
                self.sql(conn, s, ((kind, pc), c.line), segs, store.as_ref())?;
                match class {
                    SqlClass::Read => counts.reads += 1,
                    SqlClass::Write => counts.writes += 1,
                    _ => counts.other += 1,
                }
            }
            Body::Set { var, expr } => {
                let v = self.eval(s, c.line, expr)?;
                self.vars.insert(var.clone(), Var::Val(v));
            }
            Body::Sleep { amount, unit_us } => {
                let n = self.eval(s, c.line, amount)?;
                let Val::Int(n) = n else {
                    return Err(failure(
                        s,
                        c.line,
                        "\\sleep: the duration is not an integer",
                    ));
                };
                let us = u64::try_from(n).unwrap_or(0).saturating_mul(*unit_us);
                crate::engine::fiber::sleep(Duration::from_micros(us));
            }
            Body::If { cond, next } => {
                if !self.eval(s, c.line, cond)?.truth() {
                    return self.jump(s, *next);
                }
            }
            // Reached from the branch before, which ran.
            Body::Elif { end, .. } | Body::Else { end } => return Ok(*end + 1),
            Body::Endif => {}
        }
        Ok(pc + 1)
    }
}

impl Worker for ScriptWorker {
    fn on_connect(&mut self, conn: &mut Conn) -> crate::engine::Result<()> {
        self.user.mysql = conn.engine() == Engine::Mysql;
        // A new connection: -M prepared prepares its statements again.
        self.user.stmts.clear();
        Ok(())
    }

    fn next_kind(&mut self) -> usize {
        let scripts = &self.shared.set.scripts;
        if scripts.len() == 1 {
            return 0;
        }
        let mut w = self.user.rng.random_range(0..self.total_weight.max(1));
        for (i, s) in scripts.iter().enumerate() {
            let sw = u64::from(s.weight);
            if w < sw {
                return i;
            }
            w -= sw;
        }
        scripts.len() - 1
    }

    fn execute(
        &mut self,
        conn: &mut Conn,
        kind: usize,
        retry: bool,
        counts: &mut StmtCounts,
    ) -> crate::engine::Result<Outcome> {
        let u = &mut self.user;
        if retry {
            u.rng = u.saved.clone();
        } else {
            u.saved = u.rng.clone();
        }
        let s = &self.shared.set.scripts[kind];
        let stats = self
            .stats
            .of(kind, self.shared.phase.load(Ordering::Relaxed));
        let mut pc = 0;
        while pc < s.commands.len() {
            let t = Instant::now();
            let next = u.step(conn, (s, kind), pc, counts)?;
            stats[pc].add(t.elapsed().as_micros() as u64);
            pc = next;
        }
        Ok(Outcome::Committed)
    }
}
