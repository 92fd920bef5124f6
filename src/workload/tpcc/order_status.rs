//! Order-Status (clause 2.6), read-only.

use super::txn::{OrderStatus, Stmts, Transaction, customer_id};
use crate::engine::{Conn, Result};
use crate::metrics::{Outcome, StmtCounts};

/// 2.6.2.2: the customer's balance and name.
pub const CUSTOMER: &str = "SELECT c_balance, c_first, c_middle, c_last FROM customer \
     WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
/// 2.6.2.2: the customer's most recent order.
pub const LAST_ORDER: &str = "SELECT o_id, o_carrier_id, o_entry_d FROM orders \
     WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1";
/// 2.6.2.2: its lines.
pub const LINES: &str = "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line \
     WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";

/// Runs one Order-Status.
impl Transaction for OrderStatus {
    fn execute(&self, conn: &mut Conn, st: &mut Stmts, s: &mut StmtCounts) -> Result<Outcome> {
        let OrderStatus { w, d, by } = self;
        let (w, d) = (*w, *d);
        conn.query_drop("BEGIN")?;
        s.other += 1;
        let c_id = customer_id(conn, st, w, d, by, s)?;
        let _customer: crate::engine::Row =
            st.found(conn, "os.c", CUSTOMER, (w, d, c_id), || {
                format!("Order-Status: SELECT customer (w {w}, d {d}, c {c_id})")
            })?;
        // O_ENTRY_D is read but not used: Value takes any column type. Every customer has an
        // order from the initial population on (4.3.3.1).
        let (o_id, _, _): (u32, Option<u32>, crate::engine::Value) =
            st.found(conn, "os.o", LAST_ORDER, (w, d, c_id), || {
                format!("Order-Status: SELECT the last order (w {w}, d {d}, c {c_id})")
            })?;
        s.reads += 2;
        let lines: Vec<crate::engine::Row> = st.all(conn, "os.l", LINES, (w, d, o_id))?;
        s.reads += 1;
        if lines.is_empty() {
            return Err(crate::engine::data_error(format!(
                "Order-Status: SELECT order lines (w {w}, d {d}, o {o_id}) found no row"
            )));
        }
        conn.query_drop("COMMIT")?;
        s.other += 1;
        Ok(Outcome::Committed)
    }
}
