//! sysbench's report hooks (`sysbench.hooks.report_intermediate`, `report_cumulative`):
//! called, as sysbench's reporting thread calls them, in a Lua state of their own on a
//! thread of their own, with sysbench's stat table made from txbench's figures: each
//! interval txbench reports, and once for the measured phase at the end. What they print
//! goes to stdout, flushed after each call, in place of txbench's own interval lines.

use super::Script;
use super::options::Given;
use super::state::{Made, Session, hidden, new_state, one_line};
use crate::results::{IntervalRow, RunResult};
use crossbeam_channel::{Receiver, Sender, bounded, unbounded};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// sysbench's stat table (sb_lua.c's stat_to_lua_table): seconds and counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stat {
    pub time_interval: f64,
    pub time_total: f64,
    pub threads_running: f64,
    pub events: f64,
    pub reads: f64,
    pub writes: f64,
    pub other: f64,
    pub errors: f64,
    pub reconnects: f64,
    /// The 95th percentile (sysbench's --percentile default), seconds.
    pub latency_pct: f64,
    /// The cumulative report's minimum, maximum, mean and sum of latencies, seconds.
    pub latency: Option<[f64; 4]>,
}

impl Stat {
    /// One interval's, `total_s` into the run.
    pub fn of_interval(row: &IntervalRow, total_s: f64) -> Stat {
        let secs = (row.end_s - row.start_s).max(0.0);
        Stat {
            time_interval: secs,
            time_total: total_s,
            threads_running: f64::from(row.threads),
            events: row.transactions as f64,
            reads: row.reads_ps * secs,
            writes: row.writes_ps * secs,
            other: row.other_ps * secs,
            errors: row.errors as f64,
            reconnects: row.reconn_ps * secs,
            latency_pct: row.p95_ms / 1000.0,
            latency: None,
        }
    }

    /// The measured phase's.
    pub fn of_run(result: &RunResult) -> Option<Stat> {
        let s = result.summary.as_ref()?;
        let r = &s.response;
        Some(Stat {
            time_interval: s.duration_s,
            time_total: s.duration_s,
            threads_running: f64::from(result.config.threads),
            events: s.transactions as f64,
            reads: s.stmts.reads as f64,
            writes: s.stmts.writes as f64,
            other: s.stmts.other as f64,
            errors: s.errors as f64,
            reconnects: s.reconnects as f64,
            latency_pct: r.p95_ms / 1000.0,
            latency: Some([
                r.min_ms / 1000.0,
                r.max_ms / 1000.0,
                r.avg_ms / 1000.0,
                r.avg_ms * r.count as f64 / 1000.0,
            ]),
        })
    }

    fn table(&self, lua: &mlua::Lua) -> mlua::Result<mlua::Table> {
        let t = lua.create_table()?;
        for (k, v) in [
            ("time_interval", self.time_interval),
            ("time_total", self.time_total),
            ("threads_running", self.threads_running),
            ("events", self.events),
            ("reads", self.reads),
            ("writes", self.writes),
            ("other", self.other),
            ("errors", self.errors),
            ("reconnects", self.reconnects),
            ("latency_pct", self.latency_pct),
        ] {
            t.set(k, v)?;
        }
        if let Some([min, max, avg, sum]) = self.latency {
            for (k, v) in [
                ("latency_min", min),
                ("latency_max", max),
                ("latency_avg", avg),
                ("latency_sum", sum),
            ] {
                t.set(k, v)?;
            }
        }
        Ok(t)
    }
}

enum Msg {
    Intermediate(Stat),
    /// Answered when the hook has returned and its output is flushed.
    Cumulative(Stat, Sender<()>),
}

/// The hooks' thread, when the script sets either.
pub struct Reporter {
    /// Whether the script sets each hook.
    pub intermediate: bool,
    pub cumulative: bool,
    tx: Mutex<Option<Sender<Msg>>>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

/// The longest the end of a run waits for the cumulative hook.
const CUMULATIVE_WAIT: Duration = Duration::from_secs(10);

impl Reporter {
    /// A state for `script` with the options `given` and sysbench.opt's `general`, on a
    /// thread of its own; None when the script sets neither hook (as its load found,
    /// `Script::report_hooks`). Err: the script's error at load, file:line first.
    pub fn start(
        script: Arc<Script>,
        given: Arc<Given>,
        general: Vec<(&'static str, f64)>,
        engine: crate::engine::Engine,
    ) -> Result<Option<Reporter>, String> {
        let [intermediate, cumulative] = script.report_hooks;
        if !(intermediate || cumulative) {
            return Ok(None);
        }
        let driver = super::worker::driver_name(engine);
        let (tx, rx) = unbounded::<Msg>();
        let (said, loaded) = bounded::<Result<(), String>>(1);
        let thread = std::thread::Builder::new()
            .name("lua-report".into())
            .spawn(move || {
                let threads = general
                    .iter()
                    .find(|(k, _)| *k == "threads")
                    .map_or(1, |(_, v)| *v as u32);
                let made = Made {
                    command: "run",
                    tid: 0,
                    values: &given.values,
                    general: &general,
                };
                let rng = crate::workload::rand::worker_rng(0, u64::from(threads));
                let session = Session::new(rng, &given.values, 0, threads, driver);
                match new_state(&script, &made, session) {
                    Ok(lua) => {
                        let _ = said.send(Ok(()));
                        serve(&lua, &rx);
                    }
                    Err(e) => {
                        let _ = said.send(Err(one_line(&e)));
                    }
                }
            })
            .map_err(|e| format!("the report hooks' thread: {e}"))?;
        loaded
            .recv()
            .map_err(|_| "the report hooks' thread ended".to_string())??;
        Ok(Some(Reporter {
            intermediate,
            cumulative,
            tx: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
        }))
    }

    /// Calls report_intermediate with `stat` (not waited for).
    pub fn interval(&self, stat: Stat) {
        if let Some(tx) = self.tx.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            let _ = tx.send(Msg::Intermediate(stat));
        }
    }

    /// Calls report_cumulative with `stat` and waits (at most 10 s) until it has returned,
    /// so that its output comes before what follows.
    pub fn cumulative(&self, stat: Stat) {
        let (done, wait) = bounded(1);
        if let Some(tx) = self.tx.lock().unwrap_or_else(|p| p.into_inner()).as_ref()
            && tx.send(Msg::Cumulative(stat, done)).is_ok()
        {
            let _ = wait.recv_timeout(CUMULATIVE_WAIT);
        }
    }
}

/// The longest the end waits for the hooks' thread to end once everything is sent: a hook
/// that never returns (sysbench would hang on it) is left running as txbench exits.
const END_WAIT: Duration = Duration::from_secs(2);

impl Drop for Reporter {
    /// Ends the thread after what was sent (report_json's closing bracket last), waiting at
    /// most [`END_WAIT`] for it.
    fn drop(&mut self) {
        drop(self.tx.lock().unwrap_or_else(|p| p.into_inner()).take());
        if let Some(t) = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let deadline = std::time::Instant::now() + END_WAIT;
            while !t.is_finished() && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            if t.is_finished() {
                let _ = t.join();
            } else {
                eprintln!(
                    "txbench: the script's report hook had not returned {} s after the run's end: left running as txbench exits",
                    END_WAIT.as_secs()
                );
            }
        }
    }
}

/// Calls the hooks until the channel closes; a hook's error is said once on stderr.
fn serve(lua: &mlua::Lua, rx: &Receiver<Msg>) {
    let mut failed = false;
    let mut call = |name: &str, stat: &Stat| {
        let result = hidden(lua, "report").and_then(|f| f.call::<()>((name, stat.table(lua)?)));
        if let Err(e) = result
            && !failed
        {
            failed = true;
            eprintln!(
                "txbench: the script's sysbench.hooks.{name} failed: {}",
                one_line(&e)
            );
        }
    };
    let intervals_done = || {
        if let Ok(f) = hidden(lua, "reports_done") {
            let _ = f.call::<()>(());
        }
    };
    for msg in rx {
        match msg {
            Msg::Intermediate(stat) => call("report_intermediate", &stat),
            Msg::Cumulative(stat, done) => {
                intervals_done();
                call("report_cumulative", &stat);
                let _ = done.send(());
            }
        }
    }
    intervals_done();
}
