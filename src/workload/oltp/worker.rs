//! One oltp_* virtual user: sysbench's statements, prepared once, run per transaction kind.

use super::*;

/// The statements of the OLTP scripts (sysbench's stmt_defs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sql {
    Point,
    Simple,
    Sum,
    Order,
    Distinct,
    IndexUpdate,
    NonIndexUpdate,
    Delete,
    Insert,
    /// sysbench's pgsql insert with --auto-inc: the id left to the sequence (PostgreSQL
    /// does not take 0 as "choose one" as MySQL's AUTO_INCREMENT does).
    InsertNoId,
}

pub(super) const SQL_KINDS: usize = 10;

impl Sql {
    fn text(self, n: usize) -> String {
        match self {
            Sql::Point => format!("SELECT c FROM sbtest{n} WHERE id=?"),
            Sql::Simple => format!("SELECT c FROM sbtest{n} WHERE id BETWEEN ? AND ?"),
            Sql::Sum => format!("SELECT SUM(k) FROM sbtest{n} WHERE id BETWEEN ? AND ?"),
            Sql::Order => format!("SELECT c FROM sbtest{n} WHERE id BETWEEN ? AND ? ORDER BY c"),
            Sql::Distinct => {
                format!("SELECT DISTINCT c FROM sbtest{n} WHERE id BETWEEN ? AND ? ORDER BY c")
            }
            Sql::IndexUpdate => format!("UPDATE sbtest{n} SET k=k+1 WHERE id=?"),
            Sql::NonIndexUpdate => format!("UPDATE sbtest{n} SET c=? WHERE id=?"),
            Sql::Delete => format!("DELETE FROM sbtest{n} WHERE id=?"),
            Sql::Insert => format!("INSERT INTO sbtest{n} (id, k, c, pad) VALUES (?, ?, ?, ?)"),
            Sql::InsertNoId => format!("INSERT INTO sbtest{n} (k, c, pad) VALUES (?, ?, ?)"),
        }
    }
}

pub(super) struct OltpWorker {
    pub(super) kind: OltpKind,
    pub(super) o: OltpOptions,
    pub(super) dist: IdDist,
    pub(super) rng: WorkerRng,
    /// Prepared statements per table, by [`Sql`].
    pub(super) tables: Vec<[Option<Statement>; SQL_KINDS]>,
    pub(super) c: Vec<u8>,
    pub(super) pad: Vec<u8>,
}

impl OltpWorker {
    /// Table `t`'s statement, prepared now if `on_connect` did not.
    fn stmt(&mut self, conn: &mut Conn, t: usize, sql: Sql) -> crate::engine::Result<Statement> {
        let slot = &mut self.tables[t][sql as usize];
        if let Some(st) = slot {
            return Ok(st.clone());
        }
        let st = conn.prep(sql.text(t + 1))?;
        *slot = Some(st.clone());
        Ok(st)
    }

    fn table(&mut self) -> usize {
        uniform(&mut self.rng, 1, self.o.tables) as usize - 1
    }

    fn id(&mut self) -> u32 {
        self.dist.sample(&mut self.rng, 1, self.o.table_size)
    }

    fn point_selects(
        &mut self,
        conn: &mut Conn,
        n: u32,
        s: &mut StmtCounts,
    ) -> crate::engine::Result<()> {
        let t = self.table();
        for _ in 0..n {
            let id = self.id();
            let st = self.stmt(conn, t, Sql::Point)?;
            conn.exec_drop(&st, (id,))?;
            s.reads += 1;
        }
        Ok(())
    }

    fn ranges(&mut self, conn: &mut Conn, s: &mut StmtCounts) -> crate::engine::Result<()> {
        let counts = [
            self.o.simple_ranges,
            self.o.sum_ranges,
            self.o.order_ranges,
            self.o.distinct_ranges,
        ];
        let kinds = [Sql::Simple, Sql::Sum, Sql::Order, Sql::Distinct];
        for (sql, n) in kinds.into_iter().zip(counts) {
            let t = self.table();
            for _ in 0..n {
                let id = self.id();
                let hi = id.saturating_add(self.o.range_size - 1);
                let st = self.stmt(conn, t, sql)?;
                conn.exec_drop(&st, (id, hi))?;
                s.reads += 1;
            }
        }
        Ok(())
    }

    fn index_updates(&mut self, conn: &mut Conn, s: &mut StmtCounts) -> crate::engine::Result<()> {
        let t = self.table();
        for _ in 0..self.o.index_updates {
            let id = self.id();
            let st = self.stmt(conn, t, Sql::IndexUpdate)?;
            conn.exec_drop(&st, (id,))?;
            s.writes += 1;
        }
        Ok(())
    }

    fn non_index_updates(
        &mut self,
        conn: &mut Conn,
        s: &mut StmtCounts,
    ) -> crate::engine::Result<()> {
        let t = self.table();
        for _ in 0..self.o.non_index_updates {
            fill_template(&mut self.rng, C_TEMPLATE, &mut self.c);
            let id = self.id();
            let st = self.stmt(conn, t, Sql::NonIndexUpdate)?;
            conn.exec_drop(&st, (&self.c[..], id))?;
            s.writes += 1;
        }
        Ok(())
    }

    fn delete_inserts(&mut self, conn: &mut Conn, s: &mut StmtCounts) -> crate::engine::Result<()> {
        let t = self.table();
        for _ in 0..self.o.delete_inserts {
            let id = self.id();
            let k = self.id();
            fill_template(&mut self.rng, C_TEMPLATE, &mut self.c);
            fill_template(&mut self.rng, PAD_TEMPLATE, &mut self.pad);
            let del = self.stmt(conn, t, Sql::Delete)?;
            conn.exec_drop(&del, (id,))?;
            s.writes += 1;
            let ins = self.stmt(conn, t, Sql::Insert)?;
            let inserted = conn.exec_drop(&ins, (id, k, &self.c[..], &self.pad[..]));
            // PostgreSQL: a DELETE that waited for another user's DELETE + INSERT of the same
            // id finds nothing to delete, and the INSERT then meets that user's new row.
            // sysbench's pgsql driver restarts such a transaction (23505 is ignorable there):
            // so does txbench, as a conflict.
            if let Err(e) = &inserted
                && conn.engine() == Engine::Postgres
                && crate::engine::classify(e) == crate::metrics::ErrorClass::DuplicateKey
            {
                return Err(crate::engine::Error::Conflict(format!(
                    "INSERT sbtest{} id {id} met a concurrent delete-insert's row: {}",
                    t + 1,
                    crate::engine::error_message(e)
                )));
            }
            inserted?;
            s.writes += 1;
        }
        Ok(())
    }

    fn in_trx(
        &mut self,
        conn: &mut Conn,
        s: &mut StmtCounts,
        body: impl FnOnce(&mut Self, &mut Conn, &mut StmtCounts) -> crate::engine::Result<()>,
    ) -> crate::engine::Result<()> {
        if !self.o.skip_trx {
            conn.query_drop("BEGIN")?;
            s.other += 1;
        }
        body(self, conn, s)?;
        if !self.o.skip_trx {
            conn.query_drop("COMMIT")?;
            s.other += 1;
        }
        Ok(())
    }
}

impl Worker for OltpWorker {
    fn on_connect(&mut self, conn: &mut Conn) -> crate::engine::Result<()> {
        // Statements belong to a connection: a new one starts with none.
        self.tables = vec![Default::default(); self.o.tables as usize];
        for t in 0..self.tables.len() {
            for sql in self.kind.statements(&self.o) {
                self.stmt(conn, t, sql)?;
            }
        }
        Ok(())
    }

    // Retries draw new inputs, as sysbench re-runs its event.
    fn execute(
        &mut self,
        conn: &mut Conn,
        _kind: usize,
        _retry: bool,
        s: &mut StmtCounts,
    ) -> crate::engine::Result<Outcome> {
        match self.kind {
            OltpKind::ReadWrite => self.in_trx(conn, s, |w, conn, s| {
                w.point_selects(conn, w.o.point_selects, s)?;
                if w.o.range_selects {
                    w.ranges(conn, s)?;
                }
                w.index_updates(conn, s)?;
                w.non_index_updates(conn, s)?;
                w.delete_inserts(conn, s)
            })?,
            OltpKind::ReadOnly => self.in_trx(conn, s, |w, conn, s| {
                w.point_selects(conn, w.o.point_selects, s)?;
                if w.o.range_selects {
                    w.ranges(conn, s)?;
                }
                Ok(())
            })?,
            OltpKind::WriteOnly => self.in_trx(conn, s, |w, conn, s| {
                w.index_updates(conn, s)?;
                w.non_index_updates(conn, s)?;
                w.delete_inserts(conn, s)
            })?,
            OltpKind::PointSelect => self.point_selects(conn, 1, s)?,
            OltpKind::UpdateIndex => self.index_updates(conn, s)?,
            OltpKind::UpdateNonIndex => self.non_index_updates(conn, s)?,
            OltpKind::Insert => {
                let t = self.table();
                // sysbench: id 0 lets AUTO_INCREMENT choose; else a fresh id above the
                // loaded range.
                let id = if self.o.auto_inc {
                    0
                } else {
                    uniform(
                        &mut self.rng,
                        self.o.table_size.saturating_add(1),
                        i32::MAX as u32,
                    )
                };
                let k = self.id();
                fill_template(&mut self.rng, C_TEMPLATE, &mut self.c);
                fill_template(&mut self.rng, PAD_TEMPLATE, &mut self.pad);
                if self.o.auto_inc && conn.engine() == Engine::Postgres {
                    let st = self.stmt(conn, t, Sql::InsertNoId)?;
                    conn.exec_drop(&st, (k, &self.c[..], &self.pad[..]))?;
                } else {
                    let st = self.stmt(conn, t, Sql::Insert)?;
                    conn.exec_drop(&st, (id, k, &self.c[..], &self.pad[..]))?;
                }
                s.writes += 1;
            }
            OltpKind::Delete => {
                let t = self.table();
                let id = self.id();
                let st = self.stmt(conn, t, Sql::Delete)?;
                conn.exec_drop(&st, (id,))?;
                s.writes += 1;
            }
        }
        Ok(Outcome::Committed)
    }
}
