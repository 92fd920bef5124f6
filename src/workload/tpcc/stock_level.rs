//! Stock-Level (clause 2.8): needs only isolation level 1 (3.4.1), so it runs in autocommit.

use super::txn::{Stmts, StockLevel, Transaction};
use crate::engine::{Conn, Result};
use crate::metrics::{Outcome, StmtCounts};

/// 2.8.2.2: the district's next order id.
pub const NEXT_ORDER: &str = "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?";
/// 2.8.2.2: distinct items of the last 20 orders whose stock is below the threshold.
pub const LOW_STOCK: &str = "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock \
     WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? \
     AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?";

/// Runs one Stock-Level.
impl Transaction for StockLevel {
    fn execute(&self, conn: &mut Conn, st: &mut Stmts, s: &mut StmtCounts) -> Result<Outcome> {
        let StockLevel { w, d, threshold } = self;
        let next: u32 = st.found(conn, "sl.d", NEXT_ORDER, (*w, *d), || {
            format!("Stock-Level: SELECT district (w {w}, d {d})")
        })?;
        let _low: Option<u64> = st.first(
            conn,
            "sl.s",
            LOW_STOCK,
            (*w, *d, next, next.saturating_sub(20), *w, *threshold),
        )?;
        s.reads += 2;
        Ok(Outcome::Committed)
    }
}
