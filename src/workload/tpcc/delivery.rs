//! Delivery (clause 2.7), all ten districts in one database transaction (2.7.4.2 allows one
//! to ten).

use super::txn::{Delivery, Done, Stmts};
use crate::engine::{Conn, Result};
use crate::metrics::{Outcome, StmtCounts};

/// 2.7.4.2: the district's oldest undelivered order, locked.
pub const OLDEST_NEW_ORDER: &str = "SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? \
     ORDER BY no_o_id LIMIT 1 FOR UPDATE";
/// 2.7.4.2: it is no longer new.
pub const DELETE_NEW_ORDER: &str =
    "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?";
/// 2.7.4.2: the order's customer.
pub const ORDER_CUSTOMER: &str =
    "SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
/// 2.7.4.2: the carrier.
pub const SET_CARRIER: &str =
    "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
/// 2.7.4.2: the delivery date of every line.
pub const SET_DELIVERED: &str = "UPDATE order_line SET ol_delivery_d = NOW() \
     WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";
/// 2.7.4.2: the order's amount.
pub const ORDER_AMOUNT: &str = "SELECT SUM(ol_amount) FROM order_line \
     WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";
/// 2.7.4.2: the customer's balance and delivery count.
pub const UPDATE_CUSTOMER: &str = "UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 \
     WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";

impl Delivery {
    /// Runs one Delivery; returns how many districts had no order to deliver (2.7.4.2:
    /// skipped, to be reported).
    pub fn execute(&self, conn: &mut Conn, st: &mut Stmts, s: &mut StmtCounts) -> Result<Done> {
        let Delivery { w, carrier } = self;
        let (w, carrier) = (*w, *carrier);
        let mut skipped = 0;
        conn.query_drop("BEGIN")?;
        s.other += 1;
        for d in 1..=super::DISTRICTS {
            let no: Option<u32> = st.first(conn, "dl.n", OLDEST_NEW_ORDER, (w, d))?;
            s.reads += 1;
            let Some(o_id) = no else {
                skipped += 1;
                continue;
            };
            let keys = || format!("w {w}, d {d}, o {o_id}");
            st.change(conn, "dl.dn", DELETE_NEW_ORDER, (w, d, o_id), 1, || {
                format!("Delivery: DELETE new_order ({})", keys())
            })?;
            let c: u32 = st.found(conn, "dl.oc", ORDER_CUSTOMER, (w, d, o_id), || {
                format!("Delivery: SELECT the order's customer ({})", keys())
            })?;
            st.change(conn, "dl.sc", SET_CARRIER, (carrier, w, d, o_id), 1, || {
                format!("Delivery: UPDATE orders o_carrier_id ({})", keys())
            })?;
            st.change(conn, "dl.sd", SET_DELIVERED, (w, d, o_id), 1, || {
                format!("Delivery: UPDATE order_line ol_delivery_d ({})", keys())
            })?;
            // SUM over no line is NULL: an order without lines is broken data.
            let amount: String = st
                .found::<Option<String>, _>(conn, "dl.a", ORDER_AMOUNT, (w, d, o_id), || {
                    format!("Delivery: SELECT SUM(ol_amount) ({})", keys())
                })?
                .ok_or_else(|| {
                    crate::engine::data_error(format!(
                        "Delivery: SELECT SUM(ol_amount) ({}) found no order line",
                        keys()
                    ))
                })?;
            st.change(conn, "dl.uc", UPDATE_CUSTOMER, (amount, w, d, c), 1, || {
                format!("Delivery: UPDATE customer (w {w}, d {d}, c {c})")
            })?;
            s.reads += 2;
            s.writes += 4;
        }
        conn.query_drop("COMMIT")?;
        s.other += 1;
        Ok((Outcome::Committed, skipped))
    }
}
