//! `txbench run tpcc`: inputs per the specification, the 23-card deck, terminals, keying and
//! think times, the run-time C values, and the scorecard (NOPM, TPM, required input rates).

use super::txn::{CustomerBy, DECK, Delivery, Done, Input, KEYING_S, KINDS, Line, NewOrder};
use super::txn::{OrderStatus, Payment, Stmts, StockLevel, THINK_S};
use super::{DISTRICTS, ITEMS, NullDates};
use crate::metrics::{LatencyStats, SparseHistogram};
use crate::metrics::{Outcome, StmtCounts};
use crate::results::{Summary, WorkloadReport};
use crate::workload::rand::{WorkerRng, c_last_for_run, last_name, nurand, uniform, worker_rng};
use crate::workload::{Worker, Workload};

use crate::engine::Conn;
use rand::Rng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod terminal;

use terminal::*;

/// How terminals pick their warehouse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
pub enum TerminalWarehouse {
    /// A fixed home warehouse per virtual user, spread over all warehouses.
    Fixed,
    /// A random warehouse for every transaction.
    Random,
}

/// Clause 2.7.2: Delivery run by the terminal, or queued for a background deliverer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
pub enum DeliveryMode {
    /// The terminal runs it and waits.
    Interactive,
    /// The terminal queues it and goes on; a deliverer runs it (90 % within 80 s).
    Deferred,
}

/// What `run tpcc` does, besides the driver's options (read once from the command line).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunOptions {
    /// How terminals pick their warehouse.
    pub terminals: TerminalWarehouse,
    /// Keying and think times.
    pub think: ThinkTime,
    /// Cards per kind in the deck.
    pub mix: [u32; 5],
    /// One CALL per transaction (`--procedures`).
    pub procedures: bool,
    /// Delivery run by the terminal, or queued for a background deliverer.
    pub delivery: DeliveryMode,
}

impl RunOptions {
    /// The options a run records (result.json's `config.workload_options`, part of the
    /// benchmark's identity): these, `--warehouses` (None: every prepared one), the data's
    /// warehouses and dates, `--check`, and the table sets when more than one.
    pub fn recorded(
        &self,
        warehouses: Option<u32>,
        prepared_warehouses: u32,
        null_dates: NullDates,
        check: bool,
        table_sets: u32,
    ) -> serde_json::Value {
        let mut v = serde_json::json!({
            "warehouses": warehouses, "prepared_warehouses": prepared_warehouses,
            "null_dates": null_dates, "terminal_warehouse": self.terminals,
            "think_time": format!("{:?}", self.think), "mix": self.mix, "check": check,
            "procedures": self.procedures, "delivery": self.delivery,
        });
        if table_sets > 1 {
            v["table_sets"] = serde_json::json!(table_sets);
        }
        v
    }
}

/// Makes one table set ready for a run with options `a` (of the data `st` describes): any
/// run changes the data, so condition 11 no longer applies; `--procedures` recreates this
/// version's procedures (an older prepare's may lack checks), and needs them prepared.
pub fn ready_to_run(conn: &mut Conn, a: &RunOptions, st: &super::State) -> anyhow::Result<()> {
    crate::workload::meta::remove_prefix(conn, "tpcc.initial")?;
    if a.procedures {
        let missing = super::procedures::missing(conn)?;
        if !missing.is_empty() {
            anyhow::bail!(
                "--procedures: {} not in the database: run `txbench prepare tpcc --warehouses {} --procedures` first",
                missing.join(", "),
                st.warehouses
            );
        }
        anyhow::Context::context(
            super::procedures::create(conn, st.null_dates),
            "--procedures: recreating the procedures of this txbench version",
        )?;
    }
    Ok(())
}

/// Runs `input` as client-side SQL, or with `procedures` as a CALL of its stored procedure
/// (the terminals and the deferred deliverer alike): the outcome, and the districts a
/// Delivery skipped.
fn execute(
    procedures: bool,
    conn: &mut Conn,
    st: &mut Stmts,
    input: &Input,
    s: &mut StmtCounts,
) -> crate::engine::Result<Done> {
    if procedures {
        super::procedures::execute(conn, st, input, s)
    } else {
        input.execute(conn, st, s)
    }
}

/// Queued deliveries and what the deliverer measured.
struct Deferred {
    tx: crossbeam_channel::Sender<Queued>,
    rx: crossbeam_channel::Receiver<Queued>,
    completion: Mutex<SparseHistogram>,
    failed: AtomicU64,
    stop: AtomicBool,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// How many targets the run has.
    targets: usize,
}

/// A delivery queued by a terminal: its target and table set (both 0-based), inputs and when.
pub(super) type Queued = (usize, usize, Input, Instant);

/// Opens a connection for the deliverer to target i (0-based) in table set k (1-based).
pub type Connect = Arc<dyn Fn(usize, u32) -> anyhow::Result<Conn> + Send + Sync>;

/// Keying and think times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ThinkTime {
    /// None: a TPC-C-derived throughput test.
    Off,
    /// The specification's times multiplied by a factor (1.0 = the specification).
    Scaled(f64),
}

/// Counts for the scorecard, shared by all workers (reset when measuring starts).
#[derive(Default)]
struct Counters {
    lines: AtomicU64,
    remote_lines: AtomicU64,
    payments: AtomicU64,
    remote_payments: AtomicU64,
    payments_by_name: AtomicU64,
    order_status: AtomicU64,
    order_status_by_name: AtomicU64,
    delivery_districts: AtomicU64,
    skipped_districts: AtomicU64,
    /// Transactions done per kind (committed or rolled back on purpose), and New-Orders
    /// rolled back: a table set's share and mix.
    done: [AtomicU64; 5],
    rolled_back: AtomicU64,
}

impl Counters {
    fn all(&self) -> [&AtomicU64; 15] {
        [
            &self.lines,
            &self.remote_lines,
            &self.payments,
            &self.remote_payments,
            &self.payments_by_name,
            &self.order_status,
            &self.order_status_by_name,
            &self.delivery_districts,
            &self.skipped_districts,
            &self.done[0],
            &self.done[1],
            &self.done[2],
            &self.done[3],
            &self.done[4],
            &self.rolled_back,
        ]
    }

    /// What the scorecard counts, from these counters.
    fn score(&self) -> super::score::SetScore {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        super::score::SetScore {
            schema: String::new(),
            done: self.done.each_ref().map(get),
            rolled_back: get(&self.rolled_back),
            counts: super::score::Counts {
                lines: get(&self.lines),
                remote_lines: get(&self.remote_lines),
                payments: get(&self.payments),
                remote_payments: get(&self.remote_payments),
                payments_by_name: get(&self.payments_by_name),
                order_status: get(&self.order_status),
                order_status_by_name: get(&self.order_status_by_name),
                delivery_districts: get(&self.delivery_districts),
                skipped_districts: get(&self.skipped_districts),
            },
        }
    }
}

/// A ready-to-run TPC-C workload.
pub struct Tpcc {
    /// Warehouses used by the run.
    pub warehouses: u32,
    /// How the data marks undelivered orders.
    pub null_dates: NullDates,
    /// Terminal warehouse assignment.
    pub terminals: TerminalWarehouse,
    /// Keying and think times.
    pub think: ThinkTime,
    /// Cards per kind in the deck.
    pub mix: [u32; 5],
    /// C values of the run (clause 2.1.6): C_LAST, C_ID, OL_I_ID.
    pub c_last: u32,
    /// See `c_last`.
    pub c_id: u32,
    /// See `c_last`.
    pub c_ol_i_id: u32,
    /// C of C_LAST at load.
    pub c_last_load: u32,
    /// One CALL per transaction (`--procedures`).
    pub procedures: bool,
    /// Terminals (virtual users) of the run, for the 10-per-warehouse label (0: unknown).
    pub threads: u32,
    /// The table sets terminals are spread over.
    pub sets: super::sets::TableSets,
    /// One per table set.
    counters: Arc<Vec<Counters>>,
    deferred: Option<Arc<Deferred>>,
}

impl Tpcc {
    /// A run over `warehouses` of each of `sets`, of data prepared with `null_dates` and
    /// load-time C `c_last_load`, by `threads` terminals as `o` says.
    pub fn new(
        warehouses: u32,
        null_dates: NullDates,
        c_last_load: u32,
        o: &RunOptions,
        (threads, sets): (u32, &super::sets::TableSets),
        seed: u64,
    ) -> Tpcc {
        let mut rng = worker_rng(seed, 0xc0ffee);
        Tpcc {
            warehouses,
            null_dates,
            terminals: o.terminals,
            think: o.think,
            mix: o.mix,
            c_last: c_last_for_run(&mut rng, c_last_load),
            c_id: uniform(&mut rng, 0, 1023),
            c_ol_i_id: uniform(&mut rng, 0, 8191),
            c_last_load,
            procedures: o.procedures,
            threads,
            sets: sets.clone(),
            counters: Arc::new((0..sets.count).map(|_| Counters::default()).collect()),
            deferred: None,
        }
    }

    /// `--delivery deferred`: starts the background deliverer, with a connection of its own
    /// to each of the run's `targets` in each table set: a terminal's deliveries run on the
    /// target the driver connects it to (virtual user u to target u mod `targets`).
    pub fn start_deferred(&mut self, targets: usize, connect: Connect) -> anyhow::Result<()> {
        let (tx, rx) = crossbeam_channel::bounded(10_000);
        let d = Arc::new(Deferred {
            tx,
            rx,
            completion: Mutex::new(SparseHistogram::default()),
            failed: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            thread: Mutex::new(None),
            targets: targets.max(1),
        });
        // A connection per target and table set, each with its statements.
        let sets = self.sets.count as usize;
        let mut conns = (0..d.targets * sets)
            .map(|i| Ok((connect(i / sets, (i % sets) as u32 + 1)?, Stmts::default())))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let (d2, counters, procedures) = (d.clone(), self.counters.clone(), self.procedures);
        let handle = std::thread::Builder::new()
            .name("deliverer".into())
            .spawn(move || {
                loop {
                    let (target, set, input, queued) =
                        match d2.rx.recv_timeout(Duration::from_millis(100)) {
                            Ok(job) => job,
                            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                                if d2.stop.load(Ordering::Relaxed) {
                                    return;
                                }
                                continue;
                            }
                            Err(_) => return,
                        };
                    let mut s = StmtCounts::default();
                    let mut done = None;
                    let (conn, st) = &mut conns[target * sets + set];
                    let counters = &counters[set];
                    for _ in 0..4 {
                        match execute(procedures, conn, st, &input, &mut s) {
                            Ok((_, skipped)) => {
                                done = Some(skipped);
                                break;
                            }
                            Err(e) if crate::engine::classify(&e).retryable() => {
                                let _ = conn.rollback();
                            }
                            Err(e) if crate::engine::classify(&e).disconnects() => {
                                match connect(target, set as u32 + 1) {
                                    Ok(c) => {
                                        *conn = c;
                                        *st = Stmts::default();
                                    }
                                    Err(_) => std::thread::sleep(Duration::from_millis(500)),
                                }
                            }
                            Err(_) => {
                                // PostgreSQL keeps a failed transaction open (aborted) until
                                // it is ended: the next delivery must not start inside it.
                                let _ = conn.rollback();
                                break;
                            }
                        }
                    }
                    match done {
                        Some(skipped) => {
                            counters
                                .delivery_districts
                                .fetch_add(u64::from(DISTRICTS), Ordering::Relaxed);
                            counters
                                .skipped_districts
                                .fetch_add(u64::from(skipped), Ordering::Relaxed);
                            d2.completion
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .record(queued.elapsed().as_micros() as u64);
                        }
                        None => {
                            d2.failed.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            })
            .map_err(|e| anyhow::anyhow!("starting the deliverer: {e}"))?;
        *d.thread.lock().unwrap_or_else(|p| p.into_inner()) = Some(handle);
        self.deferred = Some(d);
        Ok(())
    }

    /// Lets the deliverer finish what is queued (at most `limit`) and stops it; returns
    /// the deliveries still queued.
    pub fn stop_deferred(&self, limit: Duration) -> u64 {
        let Some(d) = &self.deferred else { return 0 };
        let end = Instant::now() + limit;
        while !d.rx.is_empty() && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(50));
        }
        let left = d.rx.len() as u64;
        d.stop.store(true, Ordering::Relaxed);
        if limit.is_zero() {
            // No waiting at all (a frozen server): the deliverer may be stuck on it.
            return left;
        }
        if let Some(h) = d.thread.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = h.join();
        }
        left
    }
}

impl Tpcc {
    /// Terminal `id`'s table set (0-based), home warehouse and Stock-Level district: dealt
    /// over every (set, warehouse) in turn, then over districts. With one set, terminal i's
    /// home is warehouse i mod W + 1, as it always was.
    fn assign(&self, id: u32) -> (usize, u32, u32) {
        let w = self.warehouses;
        let homes = w * self.sets.count;
        let unit = id % homes;
        (
            (unit / w) as usize,
            unit % w + 1,
            (id / homes) % DISTRICTS + 1,
        )
    }
}

impl Workload for Tpcc {
    fn kinds(&self) -> Vec<String> {
        KINDS.iter().map(|k| k.to_string()).collect()
    }

    fn worker(&self, id: u32, rng: WorkerRng) -> Box<dyn Worker> {
        let (set, home, district) = self.assign(id);
        Box::new(TpccWorker {
            set,
            schema: self.sets.enters(set as u32 + 1),
            home,
            district,
            warehouses: self.warehouses,
            terminals: self.terminals,
            think: self.think,
            mix: self.mix,
            deck: Vec::new(),
            c_last: self.c_last,
            c_id: self.c_id,
            c_ol_i_id: self.c_ol_i_id,
            rng,
            stmts: Stmts::default(),
            input: None,
            counters: self.counters.clone(),
            name: Vec::new(),
            procedures: self.procedures,
            deferred: self
                .deferred
                .as_ref()
                .map(|d| (d.tx.clone(), id as usize % d.targets)),
            started: false,
        })
    }

    fn shard_users(&self, threads: u32, shard: crate::shard::Shard) -> Result<Vec<u32>, String> {
        shard.users_by_warehouse(threads, self.warehouses * self.sets.count)
    }

    fn commits(&self, kind: usize) -> bool {
        // Stock-Level reads with autocommit, as a client statement or a procedure.
        KINDS[kind] != "stock_level"
    }

    fn autocommit_statements(&self, _kind: usize) -> u64 {
        // Stock-Level: the district's next order id, then the stock count; or one CALL.
        if self.procedures { 1 } else { 2 }
    }

    fn server_count(&self) -> crate::metrics::server::ServerCount {
        crate::metrics::server::ServerCount {
            transactions: true,
            // Statements inside procedures and the deliverer's are not txbench's to count.
            statements: !self.procedures && self.deferred.is_none(),
            double_rollback: self.procedures,
            pg_transactions: true,
        }
    }

    fn server_counts(&self) -> Vec<(String, String)> {
        // Every committed New-Order advances its district's D_NEXT_O_ID by one (2.4.2.2),
        // in whichever table set it ran.
        let sum = |k| {
            format!(
                "SELECT SUM(d_next_o_id) FROM {}",
                self.sets.qualified(k, "district")
            )
        };
        let sql = if self.sets.count == 1 {
            sum(1)
        } else {
            let sums: Vec<String> = (1..=self.sets.count)
                .map(|k| format!("({})", sum(k)))
                .collect();
            format!("SELECT {}", sums.join(" + "))
        };
        vec![("new_orders".into(), sql)]
    }

    fn notes(&self) -> Vec<String> {
        let mut n = vec![format!(
            "TPC-C-derived, not audited: throughput is reported as NOPM and TPM, never tpmC; --null-dates {}",
            self.null_dates.name()
        )];
        if self.think == ThinkTime::Off {
            n.push("TPC-C-derived: no think time (a throughput test, not the specification's terminal behaviour)".into());
        }
        if self.deferred.is_some() {
            n.push("--delivery deferred: Delivery response time is the queueing time; completion is measured against 90 % within 80 s".into());
        } else {
            n.push("TPC-C-derived: Delivery runs interactively, in the terminal's own transaction; clause 2.7.2.1 requires it deferred (--delivery deferred)".into());
        }
        let sets = self.sets.count;
        let warehouses = u64::from(self.warehouses) * u64::from(sets);
        let terminals = warehouses * 10;
        if self.threads > 0 && u64::from(self.threads) != terminals {
            n.push(format!(
                "TPC-C-derived: {} terminal(s) for {warehouses} warehouse(s), not the 10 per warehouse of clause 4.2.2 ({terminals})",
                self.threads
            ));
        }
        if sets > 1 {
            n.push(format!(
                "{sets} table sets of {} warehouse(s) each ({} .. {}), terminals dealt over them in turn; NOPM per set in the scorecard",
                self.warehouses,
                self.sets.schema(1),
                self.sets.schema(sets)
            ));
        }
        n.push(if self.procedures {
            "stored procedures: one CALL per transaction".into()
        } else {
            "client-side SQL with prepared statements".into()
        });
        if self.mix != DECK {
            n.push(format!(
                "--mix {:?} instead of the specification's 23-card deck",
                self.mix
            ));
        }
        n
    }

    fn measure_started(&self) {
        for a in self.counters.iter().flat_map(Counters::all) {
            a.store(0, Ordering::Relaxed);
        }
        if let Some(d) = &self.deferred {
            *d.completion.lock().unwrap_or_else(|p| p.into_inner()) = SparseHistogram::default();
            d.failed.store(0, Ordering::Relaxed);
        }
    }

    fn report(&self, s: &Summary) -> Option<WorkloadReport> {
        let per_set: Vec<super::score::SetScore> =
            self.counters.iter().map(Counters::score).collect();
        let c = per_set
            .iter()
            .fold(super::score::SetScore::default(), |a, b| a.plus(b));
        let deferred = self.deferred.as_ref().map(|d| {
            let h = d
                .completion
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone();
            super::score::DeferredScore {
                p90_ms: LatencyStats::of(&h.to_hdr()).p90_ms,
                done: h.len(),
                failed: d.failed.load(Ordering::Relaxed),
                upper_bound: false,
            }
        });
        let inputs = super::score::ScoreInputs {
            warehouses: self.warehouses,
            spec_think: self.think == ThinkTime::Scaled(1.0),
            c_last_load: self.c_last_load,
            c_last: self.c_last,
            counts: c.counts,
            deferred,
            sets: if self.sets.count > 1 {
                per_set
                    .into_iter()
                    .enumerate()
                    .map(|(i, mut p)| {
                        p.schema = self.sets.schema(i as u32 + 1);
                        p
                    })
                    .collect()
            } else {
                Vec::new()
            },
        };
        Some(super::score::report(s, &inputs))
    }

    fn invalid_reasons(&self, s: &Summary) -> Vec<String> {
        // The DBT2 lesson: New-Orders that fail for any reason other than the intended
        // rollback make the numbers meaningless. Tolerate 1 % (deadlocks beyond retries).
        let Some(no) = s.kinds.first() else {
            return Vec::new();
        };
        let attempts = no.completed + no.errors;
        if attempts >= 20 && no.errors as f64 > 0.01 * attempts as f64 {
            let top: Vec<String> = s
                .top_errors
                .iter()
                .filter(|e| e.kind == "new_order")
                .take(3)
                .map(|e| format!("{}× {}", e.count, e.message))
                .collect();
            return vec![format!(
                "{} of {attempts} New-Order transactions failed (more than 1 %, besides the intended rollbacks): {}",
                no.errors,
                top.join("; ")
            )];
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests;
