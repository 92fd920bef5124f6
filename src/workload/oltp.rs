//! sysbench-style OLTP workloads (parity with sysbench 1.0.20's oltp_*.lua): tables
//! sbtest1..N (id, k, c, pad; index k_N on k), the same statements per transaction and
//! the same options. One difference, said in every summary: `--rand-type` defaults to
//! uniform here, where sysbench 1.0.20 defaults to special.

use super::rand::{Distribution, IdDist, WorkerRng, fill_template, uniform};
use super::{Worker, Workload};
use crate::metrics::{Outcome, StmtCounts};
use anyhow::{Context, Result, bail};

use crate::engine::postgres::sql as pg;
use crate::engine::{Conn, Engine, Stmt as Statement};
use serde::{Deserialize, Serialize};

/// 10 groups of 11 digits, 119 characters (sysbench's `c`).
pub const C_TEMPLATE: &[u8] = b"###########-###########-###########-###########-###########-###########-###########-###########-###########-###########";
/// 5 groups of 11 digits, 59 characters (sysbench's `pad`).
pub const PAD_TEMPLATE: &[u8] = b"###########-###########-###########-###########-###########";

/// The eight sysbench OLTP scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OltpKind {
    /// oltp_read_write
    ReadWrite,
    /// oltp_read_only
    ReadOnly,
    /// oltp_write_only
    WriteOnly,
    /// oltp_point_select
    PointSelect,
    /// oltp_update_index
    UpdateIndex,
    /// oltp_update_non_index
    UpdateNonIndex,
    /// oltp_insert
    Insert,
    /// oltp_delete
    Delete,
}

impl OltpKind {
    /// The workload name, e.g. `oltp_read_write`.
    pub fn name(self) -> &'static str {
        match self {
            OltpKind::ReadWrite => "oltp_read_write",
            OltpKind::ReadOnly => "oltp_read_only",
            OltpKind::WriteOnly => "oltp_write_only",
            OltpKind::PointSelect => "oltp_point_select",
            OltpKind::UpdateIndex => "oltp_update_index",
            OltpKind::UpdateNonIndex => "oltp_update_non_index",
            OltpKind::Insert => "oltp_insert",
            OltpKind::Delete => "oltp_delete",
        }
    }
}

/// The options of every oltp_* workload (sysbench's names and defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OltpOptions {
    /// Number of tables.
    pub tables: u32,
    /// Rows per table.
    pub table_size: u32,
    /// Rows per range SELECT.
    pub range_size: u32,
    /// Point SELECTs per transaction.
    pub point_selects: u32,
    /// Simple range SELECTs per transaction.
    pub simple_ranges: u32,
    /// SUM() range SELECTs per transaction.
    pub sum_ranges: u32,
    /// ORDER BY range SELECTs per transaction.
    pub order_ranges: u32,
    /// DISTINCT range SELECTs per transaction.
    pub distinct_ranges: u32,
    /// All range SELECTs on or off.
    pub range_selects: bool,
    /// UPDATEs of the indexed column per transaction.
    pub index_updates: u32,
    /// UPDATEs of a non-indexed column per transaction.
    pub non_index_updates: u32,
    /// DELETE + INSERT pairs per transaction.
    pub delete_inserts: u32,
    /// Autocommit every statement instead of BEGIN/COMMIT.
    pub skip_trx: bool,
    /// AUTO_INCREMENT id.
    pub auto_inc: bool,
    /// A secondary index on id instead of the primary key.
    pub secondary: bool,
    /// Create index k_N on k after the load.
    pub create_secondary: bool,
    /// Id distribution.
    pub rand: Distribution,
}

impl Default for OltpOptions {
    fn default() -> Self {
        OltpOptions {
            tables: 1,
            table_size: 10_000,
            range_size: 100,
            point_selects: 10,
            simple_ranges: 1,
            sum_ranges: 1,
            order_ranges: 1,
            distinct_ranges: 1,
            range_selects: true,
            index_updates: 1,
            non_index_updates: 1,
            delete_inserts: 1,
            skip_trx: false,
            auto_inc: true,
            secondary: false,
            create_secondary: true,
            rand: Distribution::Uniform,
        }
    }
}

impl OltpOptions {
    /// Checks ranges; errors name the flag.
    pub fn validate(&self) -> Result<()> {
        if self.tables == 0 {
            bail!("--tables must be at least 1");
        }
        if self.table_size == 0 {
            bail!("--table-size must be at least 1");
        }
        // A range may run past the last id, as in sysbench: it just returns fewer rows.
        if self.range_size == 0 {
            bail!("--range-size must be at least 1");
        }
        match self.rand {
            Distribution::Special { pct, res } => {
                if !(0.0..=100.0).contains(&pct) {
                    bail!("--rand-spec-pct must be between 0 and 100");
                }
                if !(0.0..100.0).contains(&res) {
                    bail!("--rand-spec-res must be between 0 and 100 (exclusive)");
                }
            }
            Distribution::Pareto { h } if !(h > 0.0 && h < 1.0) => {
                bail!("--rand-pareto-h must be between 0 and 1 (exclusive)")
            }
            Distribution::Zipfian { exp } if exp < 0.0 => {
                bail!("--rand-zipfian-exp must be >= 0")
            }
            _ => {}
        }
        Ok(())
    }

    /// Statements one transaction of `kind` executes, as sysbench counts them.
    pub fn statements_per_txn(&self, kind: OltpKind) -> StmtCounts {
        let trx: u32 = if self.skip_trx { 0 } else { 2 };
        let ranges = if self.range_selects {
            self.simple_ranges + self.sum_ranges + self.order_ranges + self.distinct_ranges
        } else {
            0
        };
        let writes = self.index_updates + self.non_index_updates + 2 * self.delete_inserts;
        let (r, w, o) = match kind {
            OltpKind::ReadWrite => (self.point_selects + ranges, writes, trx),
            OltpKind::ReadOnly => (self.point_selects + ranges, 0, trx),
            OltpKind::WriteOnly => (0, writes, trx),
            OltpKind::PointSelect => (1, 0, 0),
            OltpKind::UpdateIndex => (0, self.index_updates, 0),
            OltpKind::UpdateNonIndex => (0, self.non_index_updates, 0),
            OltpKind::Insert | OltpKind::Delete => (0, 1, 0),
        };
        StmtCounts {
            reads: u64::from(r),
            writes: u64::from(w),
            other: u64::from(o),
        }
    }
}

/// DDL of table `n`, sysbench's for the engine (its pgsql driver's on PostgreSQL; with
/// --secondary the id index follows the load there).
pub fn create_table_sql(o: &OltpOptions, n: u32, engine: Engine) -> String {
    if engine == Engine::Postgres {
        return pg::sbtest_ddl(n, o.auto_inc, !o.secondary);
    }
    let id = if o.auto_inc {
        "INTEGER NOT NULL AUTO_INCREMENT"
    } else {
        "INTEGER NOT NULL"
    };
    let key = if o.secondary {
        "KEY xid"
    } else {
        "PRIMARY KEY"
    };
    format!(
        "CREATE TABLE sbtest{n}(id {id}, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, {key} (id)) ENGINE=InnoDB"
    )
}

/// Rows per multi-row INSERT while loading.
const LOAD_BATCH: u32 = 1000;

/// Creates and loads the tables over `load_threads` connections (chunks of one table
/// can load in parallel), then creates the k index on each table.
pub fn prepare(
    connect: &(dyn Fn() -> Result<Conn> + Sync),
    o: &OltpOptions,
    workload: &str,
    load_threads: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<()> {
    o.validate()?;
    let mut conn = connect()?;
    super::meta::expect(&mut conn, workload)?;
    for n in 1..=o.tables {
        if !super::meta::tables_present(&mut conn, &[&format!("sbtest{n}")])?.is_empty() {
            bail!(
                "table sbtest{n} exists already: run `txbench cleanup oltp_read_write` first, or use the data as it is"
            );
        }
    }
    // Recorded first: tables left by a prepare that failed half-way are txbench's.
    super::meta::set(&mut conn, "workload", workload)?;
    super::meta::set(&mut conn, "oltp.tables", &o.tables.to_string())?;
    for n in 1..=o.tables {
        conn.query_drop(create_table_sql(o, n, conn.engine()))
            .with_context(|| format!("creating sbtest{n}"))?;
    }
    // Work units: (table, first id, last id) in chunks, spread over the loaders.
    let chunk = 50_000u32;
    let mut units = Vec::new();
    for n in 1..=o.tables {
        let mut first = 1u32;
        while first <= o.table_size {
            let last = first.saturating_add(chunk - 1).min(o.table_size);
            units.push((n, first, last));
            first = match last.checked_add(1) {
                Some(f) => f,
                None => break,
            };
        }
    }
    super::loader::parallel_units(connect, load_threads, &units, &|conn, &(n, first, last)| {
        load_chunk(conn, o, n, first, last, progress)
    })?;
    // Indexes after the data, in parallel like sysbench's per-table threads.
    let tables: Vec<u32> = (1..=o.tables).collect();
    if o.create_secondary {
        super::loader::parallel_units(connect, load_threads, &tables, &|conn, &n| {
            conn.query_drop(format!("CREATE INDEX k_{n} ON sbtest{n}(k)"))
                .with_context(|| format!("creating index k_{n}"))
        })?;
    }
    if conn.engine() == Engine::Postgres {
        super::loader::parallel_units(connect, load_threads, &tables, &|conn, &n| {
            if o.secondary {
                conn.query_drop(format!("CREATE INDEX xid_{n} ON sbtest{n}(id)"))
                    .with_context(|| format!("creating index xid_{n}"))?;
            }
            if o.auto_inc {
                // COPY set the ids: the sequence continues after them.
                conn.query_drop(format!(
                    "SELECT setval(pg_get_serial_sequence('sbtest{n}', 'id'), GREATEST(MAX(id), 1)) FROM sbtest{n}"
                ))?;
            }
            conn.query_drop(format!("VACUUM ANALYZE sbtest{n}"))
                .with_context(|| format!("analyzing sbtest{n}"))
        })?;
    }
    Ok(())
}

/// Loads ids `first..=last` of table `n` in multi-row INSERTs. The rows depend only on the
/// table and the ids, not on which loader thread ran the chunk.
fn load_chunk(
    conn: &mut Conn,
    o: &OltpOptions,
    n: u32,
    first: u32,
    last: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<()> {
    let mut rng = super::rand::worker_rng(0x10ad ^ (u64::from(n) << 32), u64::from(first));
    if conn.engine() == Engine::Postgres {
        // COPY FROM STDIN, the same rows in the same order.
        let size = o.table_size;
        let mut id = first;
        let (mut c, mut pad) = (Vec::new(), Vec::new());
        let fill = move |rows: &mut super::loader::Rows| -> bool {
            let end = id.saturating_add(LOAD_BATCH - 1).min(last);
            for row in id..=end {
                fill_template(&mut rng, C_TEMPLATE, &mut c);
                fill_template(&mut rng, PAD_TEMPLATE, &mut pad);
                rows.int(i64::from(row));
                rows.int(i64::from(uniform(&mut rng, 1, size)));
                rows.str(&c);
                rows.str(&pad);
                rows.end();
            }
            id = end.saturating_add(1);
            end < last
        };
        let table = format!("sbtest{n}");
        let loaded =
            super::loader::load_data_local(conn, &table, &["id", "k", "c", "pad"], &table, fill)?;
        progress(loaded);
        return Ok(());
    }
    conn.query_drop("SET SESSION unique_checks = 0")?;
    let mut rows = super::loader::Rows::new(super::loader::Format::Sql);
    let (mut c, mut pad) = (Vec::new(), Vec::new());
    let table = format!("sbtest{n}");
    let mut id = first;
    loop {
        let end = id.saturating_add(LOAD_BATCH - 1).min(last);
        rows.clear();
        for row in id..=end {
            fill_template(&mut rng, C_TEMPLATE, &mut c);
            fill_template(&mut rng, PAD_TEMPLATE, &mut pad);
            rows.int(i64::from(row));
            rows.int(i64::from(uniform(&mut rng, 1, o.table_size)));
            // Templates hold only digits and dashes: nothing to escape.
            rows.str(&c);
            rows.str(&pad);
            rows.end();
        }
        conn.query_drop(rows.insert_statement(&table, &["id", "k", "c", "pad"]))
            .with_context(|| format!("loading {table}"))?;
        progress(u64::from(end - id + 1));
        if end >= last {
            return Ok(());
        }
        id = end + 1;
    }
}

/// The sbtest tables present in the database, by number.
pub fn existing_tables(conn: &mut Conn) -> Result<Vec<u32>> {
    let names: Vec<String> = conn.query(
        format!(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = {} AND table_name LIKE 'sbtest%'",
            conn.engine().schema_sql()
        ),
    )?;
    let mut nums: Vec<u32> = names
        .iter()
        .filter_map(|n| n.strip_prefix("sbtest").and_then(|d| d.parse().ok()))
        .collect();
    nums.sort_unstable();
    Ok(nums)
}

/// Drops every sbtest table.
/// Drops the sbtest tables txbench prepared (1..=the recorded --tables; every one present
/// when the preparation predates that record).
pub fn cleanup(conn: &mut Conn) -> Result<usize> {
    let mut tables = existing_tables(conn)?;
    let names: Vec<String> = tables.iter().map(|n| format!("sbtest{n}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    super::meta::owns(conn, "oltp_read_write", &names)?;
    if let Some(n) = super::meta::get(conn, "oltp.tables")?.and_then(|v| v.parse::<u32>().ok()) {
        tables.retain(|t| *t <= n);
    }
    for n in &tables {
        conn.query_drop(format!("DROP TABLE IF EXISTS sbtest{n}"))?;
    }
    super::meta::remove_prefix(conn, "oltp.")?;
    super::meta::forget(conn, "oltp_read_write")?;
    Ok(tables.len())
}

/// Checks that tables 1..=tables exist with sysbench's columns: the error says what is
/// missing and what to run.
pub fn ready(conn: &mut Conn, o: &OltpOptions, workload: &str) -> Result<()> {
    let prepare_hint = format!(
        "run `txbench prepare {workload} --tables {} --table-size {}` first",
        o.tables, o.table_size
    );
    super::meta::expect(conn, workload)?;
    let present = existing_tables(conn)?;
    if present.is_empty() {
        bail!("no sbtest tables in the database: {prepare_hint}");
    }
    if let Some(n) = (1..=o.tables).find(|n| !present.contains(n)) {
        bail!(
            "table sbtest{n} does not exist ({} tables are prepared, --tables is {}): {prepare_hint}",
            present.len(),
            o.tables
        );
    }
    for n in 1..=o.tables {
        let cols: Vec<String> = conn.query(format!(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = {} AND table_name = 'sbtest{n}' ORDER BY ordinal_position",
            conn.engine().schema_sql()
        ))?;
        let cols: Vec<String> = cols.iter().map(|c| c.to_ascii_lowercase()).collect();
        for want in ["id", "k", "c", "pad"] {
            if !cols.iter().any(|c| c == want) {
                bail!(
                    "table sbtest{n} has no column '{want}' (it has {}): not a sysbench table; run `txbench cleanup {workload}` and prepare again",
                    cols.join(", ")
                );
            }
        }
    }
    Ok(())
}

/// Row counts per table, for `check`.
pub fn row_counts(conn: &mut Conn, o: &OltpOptions) -> Result<Vec<(u32, u64)>> {
    let mut out = Vec::new();
    for n in 1..=o.tables {
        let c: Option<u64> = conn.query_first(format!("SELECT COUNT(*) FROM sbtest{n}"))?;
        out.push((n, c.unwrap_or(0)));
    }
    Ok(out)
}

/// A ready-to-run OLTP workload.
pub struct Oltp {
    /// Which script.
    pub kind: OltpKind,
    /// Its options.
    pub options: OltpOptions,
}

impl Workload for Oltp {
    fn kinds(&self) -> Vec<String> {
        vec![self.kind.name().trim_start_matches("oltp_").to_string()]
    }

    fn worker(&self, _id: u32, rng: WorkerRng) -> Box<dyn Worker> {
        Box::new(OltpWorker {
            kind: self.kind,
            o: self.options.clone(),
            dist: IdDist::new(self.options.rand),
            rng,
            tables: Vec::new(),
            c: Vec::with_capacity(120),
            pad: Vec::with_capacity(60),
        })
    }

    fn commits(&self, _kind: usize) -> bool {
        // BEGIN and COMMIT, unless --skip-trx or a one-statement workload.
        self.options.statements_per_txn(self.kind).other > 0
    }

    fn autocommit_statements(&self, _kind: usize) -> u64 {
        let c = self.options.statements_per_txn(self.kind);
        c.reads + c.writes
    }

    fn server_count(&self) -> crate::metrics::server::ServerCount {
        crate::metrics::server::ServerCount {
            transactions: self.options.statements_per_txn(self.kind).other > 0,
            statements: true,
            double_rollback: false,
        }
    }

    fn notes(&self) -> Vec<String> {
        let mut n = Vec::new();
        if self.options.rand == Distribution::Uniform {
            n.push(
                "--rand-type uniform (txbench's default; sysbench 1.0.20 defaults to special)"
                    .to_string(),
            );
        }
        n
    }
}

/// The statements of the OLTP scripts (sysbench's stmt_defs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sql {
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

const SQL_KINDS: usize = 10;

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

impl OltpKind {
    /// The statements a script prepares (sysbench's `prepare_statements()`): only these,
    /// so 1,000 point-select users hold 1 statement per table, not 9.
    fn statements(self, o: &OltpOptions) -> Vec<Sql> {
        let reads = |v: &mut Vec<Sql>| {
            v.push(Sql::Point);
            if o.range_selects {
                v.extend([Sql::Simple, Sql::Sum, Sql::Order, Sql::Distinct]);
            }
        };
        let writes = |v: &mut Vec<Sql>| {
            v.extend([
                Sql::IndexUpdate,
                Sql::NonIndexUpdate,
                Sql::Delete,
                Sql::Insert,
            ])
        };
        let mut v = Vec::new();
        match self {
            OltpKind::ReadWrite => {
                reads(&mut v);
                writes(&mut v);
            }
            OltpKind::ReadOnly => reads(&mut v),
            OltpKind::WriteOnly => writes(&mut v),
            OltpKind::PointSelect => v.push(Sql::Point),
            OltpKind::UpdateIndex => v.push(Sql::IndexUpdate),
            OltpKind::UpdateNonIndex => v.push(Sql::NonIndexUpdate),
            OltpKind::Insert => v.push(Sql::Insert),
            OltpKind::Delete => v.push(Sql::Delete),
        }
        v
    }
}

struct OltpWorker {
    kind: OltpKind,
    o: OltpOptions,
    dist: IdDist,
    rng: WorkerRng,
    /// Prepared statements per table, by [`Sql`].
    tables: Vec<[Option<Statement>; SQL_KINDS]>,
    c: Vec<u8>,
    pad: Vec<u8>,
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

#[cfg(test)]
mod tests;
