//! Payment (clause 2.5).

use super::txn::{Payment, Stmts, Transaction, customer_id, dec_cents};
use crate::engine::{Conn, Result};
use crate::metrics::{Outcome, StmtCounts};

/// 2.5.2.2: W_YTD + H_AMOUNT.
pub const WAREHOUSE_YTD: &str = "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?";
/// 2.5.2.2: the warehouse's name and address.
pub const WAREHOUSE: &str =
    "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?";
/// 2.5.2.2: D_YTD + H_AMOUNT.
pub const DISTRICT_YTD: &str =
    "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?";
/// 2.5.2.2: the district's name and address.
pub const DISTRICT: &str = "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district \
     WHERE d_w_id = ? AND d_id = ?";
/// 2.5.2.2: the customer, locked for the update.
pub const CUSTOMER: &str = "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, \
     c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE";
/// 2.5.2.2: C_DATA of a bad-credit customer.
pub const CUSTOMER_DATA: &str =
    "SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
/// 2.5.2.2: balance, year-to-date payment and payment count.
pub const UPDATE_CUSTOMER: &str = "UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, \
     c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
/// 2.5.2.2: the same with the new C_DATA of a bad-credit customer.
pub const UPDATE_CUSTOMER_BC: &str = "UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, \
     c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
/// 2.5.2.2: the HISTORY row; H_DATA is W_NAME, four spaces, D_NAME.
pub const INSERT_HISTORY: &str = "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) \
     VALUES (?, ?, ?, ?, ?, NOW(), ?, ?)";

/// Runs one Payment.
impl Transaction for Payment {
    fn execute(&self, conn: &mut Conn, st: &mut Stmts, s: &mut StmtCounts) -> Result<Outcome> {
        let Payment {
            w,
            d,
            c_w,
            c_d,
            by,
            amount,
        } = self;
        let (w, d, c_w, c_d) = (*w, *d, *c_w, *c_d);
        let amount_s = dec_cents(*amount);
        conn.query_drop("BEGIN")?;
        s.other += 1;
        st.change(conn, "py.wy", WAREHOUSE_YTD, (&amount_s, w), 1, || {
            format!("Payment: UPDATE warehouse (w {w})")
        })?;
        let wh: (String, String, String, String, String, String) =
            st.found(conn, "py.w", WAREHOUSE, (w,), || {
                format!("Payment: SELECT warehouse (w {w})")
            })?;
        st.change(conn, "py.dy", DISTRICT_YTD, (&amount_s, w, d), 1, || {
            format!("Payment: UPDATE district (w {w}, d {d})")
        })?;
        let di: (String, String, String, String, String, String) =
            st.found(conn, "py.d", DISTRICT, (w, d), || {
                format!("Payment: SELECT district (w {w}, d {d})")
            })?;
        s.writes += 2;
        s.reads += 2;
        // 2.5.2.2: 60 % by last name, the middle one of those sorted by first name.
        let c_id = customer_id(conn, st, c_w, c_d, by, s)?;
        let row: crate::engine::Row = st.found(conn, "py.c", CUSTOMER, (c_w, c_d, c_id), || {
            format!("Payment: SELECT customer (w {c_w}, d {c_d}, c {c_id})")
        })?;
        s.reads += 1;
        let credit: String = row.text(10).unwrap_or_default().to_string();
        if credit == "BC" {
            let data: String = st.found(conn, "py.cd", CUSTOMER_DATA, (c_w, c_d, c_id), || {
                format!("Payment: SELECT c_data (w {c_w}, d {c_d}, c {c_id})")
            })?;
            s.reads += 1;
            // 2.5.2.2: the new data in front, the whole cut to 500 characters.
            let mut new = format!("{c_id} {c_d} {c_w} {d} {w} {amount_s} | {data}");
            new.truncate(500);
            st.change(
                conn,
                "py.ucb",
                UPDATE_CUSTOMER_BC,
                (&amount_s, &amount_s, new, c_w, c_d, c_id),
                1,
                || format!("Payment: UPDATE customer (w {c_w}, d {c_d}, c {c_id})"),
            )?;
        } else {
            st.change(
                conn,
                "py.uc",
                UPDATE_CUSTOMER,
                (&amount_s, &amount_s, c_w, c_d, c_id),
                1,
                || format!("Payment: UPDATE customer (w {c_w}, d {c_d}, c {c_id})"),
            )?;
        }
        let h_data = format!("{}    {}", wh.0, di.0);
        st.exec(
            conn,
            "py.h",
            INSERT_HISTORY,
            (c_id, c_d, c_w, d, w, &amount_s, h_data),
        )?;
        s.writes += 2;
        conn.query_drop("COMMIT")?;
        s.other += 1;
        Ok(Outcome::Committed)
    }
}
