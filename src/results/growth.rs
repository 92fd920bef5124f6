//! How the database grew over a run: rows and size of the tables a workload adds to (TPC-C's
//! orders, order_line, history and new_order; TPC-B's history), at the start and at the end,
//! from the server's own statistics refreshed by ANALYZE. Growth is one reason long TPC-C
//! runs decline (seed 001: half the throughput after 8 hours at 1,000 warehouses).

use serde::{Deserialize, Serialize};

/// One table at one moment, as the server counts it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct TableSize {
    /// Rows (the server's estimate after ANALYZE: InnoDB samples pages, PostgreSQL rows).
    pub rows: u64,
    /// Data and indexes, bytes (partitions summed).
    pub bytes: u64,
}

/// One table at the start and at the end of the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableGrowth {
    /// The table.
    pub table: String,
    /// True when its rows were counted (TPC-C's orders, from the districts), not estimated.
    #[serde(default)]
    pub rows_exact: bool,
    /// Before the warm-up.
    pub start: TableSize,
    /// After the measured phase (and deferred deliveries).
    pub end: TableSize,
}

impl TableGrowth {
    /// The change of rows, % of the start (None from an empty table).
    pub fn rows_pct(&self) -> Option<f64> {
        (self.start.rows > 0).then(|| (self.end.rows as f64 / self.start.rows as f64 - 1.0) * 100.0)
    }

    /// The change of size, % of the start.
    pub fn bytes_pct(&self) -> Option<f64> {
        (self.start.bytes > 0)
            .then(|| (self.end.bytes as f64 / self.start.bytes as f64 - 1.0) * 100.0)
    }
}

/// The line of the run summary: each table's rows and size, start → end.
pub fn summary_line(g: &[TableGrowth]) -> String {
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    let pct = |p: Option<f64>| p.map_or(String::new(), |p| format!(" ({p:+.1} %)"));
    g.iter()
        .map(|t| {
            format!(
                "{} {}{} → {} rows{}, {:.1} → {:.1} MiB{}",
                t.table,
                if t.rows_exact { "" } else { "≈" },
                t.start.rows,
                t.end.rows,
                pct(t.rows_pct()),
                mib(t.start.bytes),
                mib(t.end.bytes),
                pct(t.bytes_pct())
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_is_said_in_rows_and_mib_with_its_share() {
        let g = [TableGrowth {
            table: "order_line".into(),
            rows_exact: false,
            start: TableSize {
                rows: 300_000,
                bytes: 32 << 20,
            },
            end: TableSize {
                rows: 330_000,
                bytes: 40 << 20,
            },
        }];
        assert_eq!(
            summary_line(&g),
            "order_line ≈300000 → 330000 rows (+10.0 %), 32.0 → 40.0 MiB (+25.0 %)"
        );
        let empty = TableGrowth {
            table: "new_order".into(),
            rows_exact: true,
            start: TableSize::default(),
            end: TableSize {
                rows: 5,
                bytes: 16384,
            },
        };
        assert_eq!(empty.rows_pct(), None);
    }
}
