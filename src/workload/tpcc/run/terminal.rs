//! One TPC-C terminal: its inputs, the deck, keying and think times, and the five transactions
//! run as client SQL or procedures.

use super::*;

/// One terminal.
pub(super) struct TpccWorker {
    /// Its table set (0-based) and the schema its connection enters (None: the URL's).
    pub(super) set: usize,
    pub(super) schema: Option<String>,
    pub(super) home: u32,
    pub(super) district: u32,
    pub(super) warehouses: u32,
    pub(super) terminals: TerminalWarehouse,
    pub(super) think: ThinkTime,
    pub(super) mix: [u32; 5],
    pub(super) deck: Vec<usize>,
    pub(super) c_last: u32,
    pub(super) c_id: u32,
    pub(super) c_ol_i_id: u32,
    pub(super) rng: WorkerRng,
    pub(super) stmts: Stmts,
    pub(super) input: Option<Input>,
    pub(super) counters: Arc<Vec<Counters>>,
    pub(super) name: Vec<u8>,
    pub(super) procedures: bool,
    /// `--delivery deferred`: the deliverer's queue, and the target (0-based) this terminal's
    /// deliveries run on.
    pub(super) deferred: Option<(crossbeam_channel::Sender<Queued>, usize)>,
    /// Whether its first transaction has been paced (see [`first_pause`]).
    pub(super) started: bool,
}

/// The mean time between one terminal's transactions before their response times: keying
/// and think time averaged over the mix (20.7 s with the specification's times and deck).
pub(super) fn mean_cycle_s(mix: &[u32; 5]) -> f64 {
    let cards: u32 = mix.iter().sum();
    let total: f64 = (0..5)
        .map(|k| f64::from(mix[k]) * (KEYING_S[k] + THINK_S[k]))
        .sum();
    total / f64::from(cards.max(1))
}

/// A terminal's first pause, `share` (0..1) of the mean cycle: terminals start spread over
/// one cycle, as a steady state finds them, and not all keying at once (10,000 terminals
/// on 10 warehouses sent some 4,300 Payments in the same instant 3 s into the run, and
/// 4,500 New-Orders at 18 s).
pub(super) fn first_pause(mix: &[u32; 5], factor: f64, share: f64) -> Duration {
    Duration::from_secs_f64(mean_cycle_s(mix) * factor * share)
}

impl TpccWorker {
    fn warehouse(&mut self) -> u32 {
        match self.terminals {
            TerminalWarehouse::Fixed => self.home,
            TerminalWarehouse::Random => uniform(&mut self.rng, 1, self.warehouses),
        }
    }

    fn other_warehouse(&mut self, w: u32) -> u32 {
        if self.warehouses == 1 {
            return w;
        }
        let o = uniform(&mut self.rng, 1, self.warehouses - 1);
        if o >= w { o + 1 } else { o }
    }

    /// 2.5.1.2 / 2.6.1.2: 60 % by last name (NURand(255, 0, 999)), else by NURand(1023, 1, 3000).
    fn customer(&mut self) -> CustomerBy {
        if uniform(&mut self.rng, 1, 100) <= 60 {
            last_name(
                nurand(&mut self.rng, 255, self.c_last, 0, 999),
                &mut self.name,
            );
            CustomerBy::Last(String::from_utf8_lossy(&self.name).into_owned())
        } else {
            CustomerBy::Id(nurand(&mut self.rng, 1023, self.c_id, 1, 3000))
        }
    }

    pub(super) fn input(&mut self, kind: usize) -> Input {
        let w = self.warehouse();
        let d = uniform(&mut self.rng, 1, DISTRICTS);
        match kind {
            0 => {
                // 2.4.1: 5..15 lines; 1 % of orders end with an unused item; 1 % of lines
                // come from another warehouse.
                let n = uniform(&mut self.rng, 5, 15);
                let rollback = uniform(&mut self.rng, 1, 100) == 1;
                let mut lines = Vec::with_capacity(n as usize);
                for i in 0..n {
                    let i_id = if rollback && i == n - 1 {
                        ITEMS + 1
                    } else {
                        nurand(&mut self.rng, 8191, self.c_ol_i_id, 1, ITEMS)
                    };
                    let supply_w = if self.warehouses > 1 && uniform(&mut self.rng, 1, 100) == 1 {
                        self.other_warehouse(w)
                    } else {
                        w
                    };
                    lines.push(Line {
                        i_id,
                        supply_w,
                        qty: uniform(&mut self.rng, 1, 10),
                    });
                }
                let all_local = lines.iter().all(|l| l.supply_w == w);
                Input::NewOrder(NewOrder {
                    w,
                    d,
                    c: nurand(&mut self.rng, 1023, self.c_id, 1, 3000),
                    lines,
                    all_local,
                })
            }
            1 => {
                // 2.5.1.2: 85 % home, 15 % a remote warehouse (and random district).
                let (c_w, c_d) = if self.warehouses > 1 && uniform(&mut self.rng, 1, 100) > 85 {
                    (
                        self.other_warehouse(w),
                        uniform(&mut self.rng, 1, DISTRICTS),
                    )
                } else {
                    (w, d)
                };
                Input::Payment(Payment {
                    w,
                    d,
                    c_w,
                    c_d,
                    by: self.customer(),
                    amount: i64::from(uniform(&mut self.rng, 100, 500_000)),
                })
            }
            2 => Input::OrderStatus(OrderStatus {
                w,
                d,
                by: self.customer(),
            }),
            3 => Input::Delivery(Delivery {
                w,
                carrier: uniform(&mut self.rng, 1, 10),
            }),
            _ => Input::StockLevel(StockLevel {
                w: match self.terminals {
                    TerminalWarehouse::Fixed => self.home,
                    TerminalWarehouse::Random => w,
                },
                d: self.district,
                threshold: uniform(&mut self.rng, 10, 20),
            }),
        }
    }

    fn count(&self, kind: usize, input: &Input, outcome: Outcome, skipped: u32) {
        let c = &self.counters[self.set];
        c.done[kind].fetch_add(1, Ordering::Relaxed);
        if kind == 0 && outcome == Outcome::RolledBack {
            c.rolled_back.fetch_add(1, Ordering::Relaxed);
        }
        match input {
            Input::NewOrder(NewOrder { w, lines, .. }) if outcome == Outcome::Committed => {
                c.lines.fetch_add(lines.len() as u64, Ordering::Relaxed);
                let remote = lines.iter().filter(|l| l.supply_w != *w).count();
                c.remote_lines.fetch_add(remote as u64, Ordering::Relaxed);
            }
            Input::Payment(Payment { w, c_w, by, .. }) => {
                c.payments.fetch_add(1, Ordering::Relaxed);
                c.remote_payments
                    .fetch_add(u64::from(c_w != w), Ordering::Relaxed);
                c.payments_by_name.fetch_add(
                    u64::from(matches!(by, CustomerBy::Last(_))),
                    Ordering::Relaxed,
                );
            }
            Input::OrderStatus(OrderStatus { by, .. }) => {
                c.order_status.fetch_add(1, Ordering::Relaxed);
                c.order_status_by_name.fetch_add(
                    u64::from(matches!(by, CustomerBy::Last(_))),
                    Ordering::Relaxed,
                );
            }
            Input::Delivery(_) => {
                c.delivery_districts
                    .fetch_add(u64::from(DISTRICTS), Ordering::Relaxed);
                c.skipped_districts
                    .fetch_add(u64::from(skipped), Ordering::Relaxed);
            }
            _ => {}
        }
    }
}

impl Worker for TpccWorker {
    fn on_connect(&mut self, conn: &mut Conn) -> crate::engine::Result<()> {
        // Statements belong to a connection.
        self.stmts = Stmts::default();
        match &self.schema {
            Some(s) => crate::engine::namespace::enter(conn, s),
            None => Ok(()),
        }
    }

    fn next_kind(&mut self) -> usize {
        if self.deck.is_empty() {
            for (kind, &cards) in self.mix.iter().enumerate() {
                self.deck.extend(std::iter::repeat_n(kind, cards as usize));
            }
            use rand::seq::SliceRandom;
            self.deck.shuffle(&mut self.rng);
        }
        self.deck.pop().unwrap_or(0)
    }

    fn pauses(&mut self, kind: usize) -> (Duration, Duration) {
        match self.think {
            ThinkTime::Off => (Duration::ZERO, Duration::ZERO),
            ThinkTime::Scaled(f) => {
                // 5.2.5.4: think time -ln(r) × mean, truncated at 10 × mean.
                let r: f64 = 1.0 - self.rng.random::<f64>();
                let think = (-r.ln() * THINK_S[kind]).min(10.0 * THINK_S[kind]);
                let keying = if self.started {
                    Duration::from_secs_f64(KEYING_S[kind] * f)
                } else {
                    self.started = true;
                    first_pause(&self.mix, f, self.rng.random::<f64>())
                };
                (keying, Duration::from_secs_f64(think * f))
            }
        }
    }

    fn execute(
        &mut self,
        conn: &mut Conn,
        kind: usize,
        retry: bool,
        s: &mut StmtCounts,
    ) -> crate::engine::Result<Outcome> {
        // A retry after a deadlock repeats the same inputs.
        if !retry || self.input.is_none() {
            self.input = Some(self.input(kind));
        }
        let input = self.input.clone().unwrap_or_else(|| self.input(kind));
        if kind == 3
            && let Some((tx, target)) = &self.deferred
        {
            // 2.7.2.1: the terminal only queues the delivery; a full queue makes it wait (a
            // fiber yields its thread meanwhile: the other terminals on it may hold the
            // rows the deliverer waits for).
            let mut item = (*target, self.set, input, Instant::now());
            while let Err(crossbeam_channel::TrySendError::Full(back)) = tx.try_send(item) {
                item = back;
                crate::engine::fiber::sleep(std::time::Duration::from_millis(1));
            }
            self.counters[self.set].done[kind].fetch_add(1, Ordering::Relaxed);
            return Ok(Outcome::Committed);
        }
        let (outcome, skipped) = super::execute(self.procedures, conn, &mut self.stmts, &input, s)?;
        self.count(kind, &input, outcome, skipped);
        Ok(outcome)
    }
}
