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

mod load;
mod worker;

pub use load::*;
use worker::*;

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
            pg_transactions: true,
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

#[cfg(test)]
mod tests;
