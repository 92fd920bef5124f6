//! How the tables a workload adds to grow over a run (seed 001: growth is one reason long
//! TPC-C runs decline), summed over TPC-C's table sets.

use crate::engine::{self, TargetUrl};
use crate::results::growth::{TableGrowth, TableSize};
use crate::workload::tpcc::sets::TableSets;
use anyhow::Result;

/// A table's rows, bytes, and whether the rows are exact.
pub(super) type Measured = (String, u64, u64, bool);

/// `tables` measured in every set of `sets` (None: the URL's schema), summed per table.
pub(super) fn measure(
    target: &TargetUrl,
    sets: Option<&TableSets>,
    tables: &[&str],
) -> Result<Vec<Measured>> {
    if tables.is_empty() {
        return Ok(Vec::new());
    }
    let mut total: Vec<Measured> = Vec::new();
    for k in 1..=sets.map_or(1, |s| s.count) {
        let mut conn = match sets {
            Some(s) => s.connect(target, k)?,
            None => engine::connect(target)?,
        };
        for m in measure_one(&mut conn, tables)? {
            match total.iter_mut().find(|t| t.0 == m.0) {
                Some(t) => {
                    t.1 += m.1;
                    t.2 += m.2;
                    t.3 &= m.3;
                }
                None => total.push(m),
            }
        }
    }
    Ok(total)
}

/// Rows and bytes of `tables` (the server's estimates after ANALYZE); TPC-C's orders are
/// counted exactly from the districts' next order numbers, which costs one row per district
/// (InnoDB's sampled estimate moves both ways while the table only grows).
fn measure_one(conn: &mut engine::Conn, tables: &[&str]) -> Result<Vec<Measured>> {
    let mut sizes: Vec<(String, u64, u64, bool)> = engine::table_sizes(conn, tables)?
        .into_iter()
        .map(|(t, r, b)| (t, r, b, false))
        .collect();
    if let Some(o) = sizes.iter_mut().find(|s| s.0 == "orders") {
        let int = match conn.engine() {
            engine::Engine::Mysql => "SIGNED",
            engine::Engine::Postgres => "BIGINT",
        };
        let exact: Option<i64> = conn.query_first(format!(
            "SELECT CAST(SUM(d_next_o_id - 1) AS {int}) FROM district"
        ))?;
        if let Some(n) = exact {
            o.1 = n.max(0) as u64;
            o.3 = true;
        }
    }
    Ok(sizes)
}

/// Each table measured at both ends, start → end.
pub(super) fn between(start: &[Measured], end: &[Measured]) -> Vec<TableGrowth> {
    let size = |r: &Measured| TableSize {
        rows: r.1,
        bytes: r.2,
    };
    start
        .iter()
        .filter_map(|s| {
            let e = end.iter().find(|e| e.0 == s.0)?;
            Some(TableGrowth {
                table: s.0.clone(),
                rows_exact: s.3 && e.3,
                start: size(s),
                end: size(e),
            })
        })
        .collect()
}
