//! One TPC-B virtual user: its input, its statements, its transaction.

use super::*;

/// A transaction's inputs, kept for a retry.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Input {
    pub(super) aid: u32,
    pub(super) tid: u32,
    pub(super) bid: u32,
    pub(super) delta: i32,
}

/// The prepared statements of a connection.
pub(super) struct Stmts {
    update_account: Statement,
    select_account: Statement,
    update_teller: Statement,
    update_branch: Statement,
    insert_history: Statement,
}

impl Stmts {
    fn prepare(conn: &mut Conn, key: HistoryKey, variant: Variant) -> crate::engine::Result<Stmts> {
        let (id_col, id_val) = if key == HistoryKey::Client {
            ("id, ", "?, ")
        } else {
            ("", "")
        };
        Ok(Stmts {
            update_account: conn
                .prep("UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?")?,
            select_account: conn.prep("SELECT abalance FROM pgbench_accounts WHERE aid = ?")?,
            update_teller: conn
                .prep("UPDATE pgbench_tellers SET tbalance = tbalance + ? WHERE tid = ?")?,
            update_branch: conn
                .prep("UPDATE pgbench_branches SET bbalance = bbalance + ? WHERE bid = ?")?,
            insert_history: conn.prep(format!(
                "INSERT INTO pgbench_history ({id_col}tid, bid, aid, delta, mtime, filler) \
                 VALUES ({id_val}?, ?, ?, ?, CURRENT_TIMESTAMP, '{}')",
                variant.mark()
            ))?,
        })
    }
}

pub(super) struct TpcbWorker {
    pub(super) variant: Variant,
    pub(super) scale: u32,
    pub(super) remote_pct: f64,
    pub(super) key: HistoryKey,
    pub(super) rng: WorkerRng,
    pub(super) stmts: Option<Stmts>,
    pub(super) input: Input,
    /// The next history id with `--history-key client`.
    pub(super) next_id: i64,
    pub(super) counters: Arc<Counters>,
}

impl TpcbWorker {
    /// New inputs: a teller, its branch, an account (in another branch for --remote-pct
    /// percent of transactions when there is one) and a delta in -5000..=5000.
    pub(super) fn draw(&mut self) {
        let tid = uniform(&mut self.rng, 1, TELLERS * self.scale);
        let bid = (tid - 1) / TELLERS + 1;
        let account_branch = if self.scale > 1 && self.rng.random::<f64>() * 100.0 < self.remote_pct
        {
            let b = uniform(&mut self.rng, 1, self.scale - 1);
            if b >= bid { b + 1 } else { b }
        } else {
            bid
        };
        self.input = Input {
            aid: (account_branch - 1) * ACCOUNTS + uniform(&mut self.rng, 1, ACCOUNTS),
            tid,
            bid,
            delta: uniform(&mut self.rng, 0, 10_000) as i32 - 5_000,
        };
    }
}

impl Worker for TpcbWorker {
    fn on_connect(&mut self, conn: &mut Conn) -> crate::engine::Result<()> {
        self.stmts = Some(Stmts::prepare(conn, self.key, self.variant)?);
        Ok(())
    }

    fn execute(
        &mut self,
        conn: &mut Conn,
        _kind: usize,
        retry: bool,
        s: &mut StmtCounts,
    ) -> crate::engine::Result<Outcome> {
        if !retry {
            self.draw();
        }
        let Input {
            aid,
            tid,
            bid,
            delta,
        } = self.input;
        let st = match &mut self.stmts {
            Some(st) => &*st,
            slot => slot.insert(Stmts::prepare(conn, self.key, self.variant)?),
        };
        // Every statement must find or change its row (as TPC-C's clause 2.3.6 asks); an
        // update by a delta of 0 changes nothing, legitimately, and its SELECT still checks.
        let changed = |conn: &mut Conn, what: &str, key: i64| -> crate::engine::Result<()> {
            let n = conn.affected_rows();
            let want = u64::from(delta != 0);
            if n < want {
                return Err(crate::engine::data_error(format!(
                    "TPC-B: {what} ({key}) changed {n} row(s), {want} expected"
                )));
            }
            Ok(())
        };
        let found = |b: Option<i32>| {
            b.map(|_| ()).ok_or_else(|| {
                crate::engine::data_error(format!(
                    "TPC-B: SELECT pgbench_accounts (aid {aid}) found no row"
                ))
            })
        };
        if self.variant == Variant::SelectOnly {
            found(conn.exec_first(&st.select_account, (aid,))?)?;
            s.reads += 1;
            return Ok(Outcome::Committed);
        }
        conn.query_drop("BEGIN")?;
        s.other += 1;
        if self.variant != Variant::HistoryOnly {
            conn.exec_drop(&st.update_account, (delta, aid))?;
            changed(conn, "UPDATE pgbench_accounts aid", i64::from(aid))?;
            s.writes += 1;
            found(conn.exec_first(&st.select_account, (aid,))?)?;
            s.reads += 1;
        }
        if self.variant == Variant::Tpcb {
            conn.exec_drop(&st.update_teller, (delta, tid))?;
            changed(conn, "UPDATE pgbench_tellers tid", i64::from(tid))?;
            conn.exec_drop(&st.update_branch, (delta, bid))?;
            changed(conn, "UPDATE pgbench_branches bid", i64::from(bid))?;
            s.writes += 2;
        }
        let insert = &st.insert_history;
        if self.key == HistoryKey::Client {
            conn.exec_drop(insert, (self.next_id, tid, bid, aid, delta))?;
        } else {
            conn.exec_drop(insert, (tid, bid, aid, delta))?;
        }
        if conn.affected_rows() < 1 {
            return Err(crate::engine::data_error(
                "TPC-B: INSERT pgbench_history inserted 0 rows, 1 expected".into(),
            ));
        }
        s.writes += 1;
        let commit = conn.query_drop("COMMIT");
        // Once COMMIT was sent the id may be in the table: never use it again.
        self.next_id += 1;
        s.other += 1;
        match commit {
            Ok(()) => {
                self.counters.committed.fetch_add(1, Ordering::Relaxed);
                Ok(Outcome::Committed)
            }
            Err(e) => {
                if matches!(
                    crate::engine::classify(&e),
                    ErrorClass::LostConnection | ErrorClass::ServerShutdown
                ) {
                    self.counters.in_doubt.fetch_add(1, Ordering::Relaxed);
                }
                Err(e)
            }
        }
    }
}
