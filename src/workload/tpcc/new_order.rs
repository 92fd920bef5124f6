//! New-Order (clause 2.4). Reads of ITEM and STOCK are batched into one statement each
//! (as go-tpc does): fewer round trips, the same rows read and locked.

use super::run::{Input, Stmts, dec_cents, parse_cents};
use crate::metrics::{Outcome, StmtCounts};
use mysql::Conn;
use mysql::prelude::Queryable;
use std::collections::HashMap;

/// 2.4.2.2: customer discount, last name, credit, and the warehouse tax in one read.
pub const CUSTOMER_WAREHOUSE: &str = "SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse \
     WHERE w_id = ? AND c_w_id = w_id AND c_d_id = ? AND c_id = ?";
/// 2.4.2.2: the district's next order id, locked for the increment.
pub const DISTRICT: &str =
    "SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE";
/// 2.4.2.2: D_NEXT_O_ID + 1.
pub const DISTRICT_NEXT: &str =
    "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?";
/// 2.4.2.2: the ORDER row (O_CARRIER_ID left to its default: NULL or the sentinel).
pub const INSERT_ORDER: &str = "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) \
     VALUES (?, ?, ?, ?, NOW(), ?, ?)";
/// 2.4.2.2: the NEW-ORDER row.
pub const INSERT_NEW_ORDER: &str =
    "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)";
/// 2.4.2.2: S_QUANTITY, S_YTD, S_ORDER_CNT, S_REMOTE_CNT of one stock row.
pub const UPDATE_STOCK: &str = "UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, \
     s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?";

/// `SELECT … FROM item WHERE i_id IN (?, …)` for `n` distinct items.
pub fn items_sql(n: usize) -> String {
    format!(
        "SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id IN ({})",
        vec!["?"; n].join(",")
    )
}

/// The stock rows of `n` (warehouse, item) pairs with district `d`'s S_DIST_xx, locked.
pub fn stock_sql(n: usize, d: u32) -> String {
    format!(
        "SELECT s_w_id, s_i_id, s_quantity, s_data, s_dist_{d:02} FROM stock WHERE (s_w_id, s_i_id) IN ({}) FOR UPDATE",
        vec!["(?,?)"; n].join(",")
    )
}

/// A multi-row insert of `n` order lines (OL_DELIVERY_D left to its default).
pub fn order_lines_sql(n: usize) -> String {
    format!(
        "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES {}",
        vec!["(?,?,?,?,?,?,?,?,?)"; n].join(",")
    )
}

/// Runs one New-Order; `RolledBack` for the 1 % with an unused item (2.4.2.3).
pub fn execute(
    conn: &mut Conn,
    st: &mut Stmts,
    i: &Input,
    s: &mut StmtCounts,
) -> mysql::Result<Outcome> {
    let Input::NewOrder {
        w,
        d,
        c,
        lines,
        all_local,
    } = i
    else {
        unreachable!("new_order::execute gets New-Order inputs")
    };
    let (w, d, c) = (*w, *d, *c);
    conn.query_drop("BEGIN")?;
    s.other += 1;
    let _cw: Option<(String, String, String, String)> =
        st.first(conn, "no.cw", CUSTOMER_WAREHOUSE, (w, d, c))?;
    let (next_o_id, _d_tax): (u32, String) = st
        .first(conn, "no.d", DISTRICT, (w, d))?
        .ok_or_else(|| missing("district", w, d))?;
    st.exec(conn, "no.dn", DISTRICT_NEXT, (w, d))?;
    s.reads += 2;
    s.writes += 1;
    let o_id = next_o_id;
    st.exec(
        conn,
        "no.o",
        INSERT_ORDER,
        (o_id, d, w, c, lines.len() as u32, u32::from(*all_local)),
    )?;
    st.exec(conn, "no.no", INSERT_NEW_ORDER, (o_id, d, w))?;
    s.writes += 2;

    // 2.4.2.2: every item; an unused id (2.4.1.5) means the order is rolled back.
    let mut ids: Vec<u32> = lines.iter().map(|l| l.i_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let key = format!("no.i{}", ids.len());
    let items: Vec<(u32, String, String, String)> =
        st.all(conn, &key, &items_sql(ids.len()), ids.clone())?;
    s.reads += 1;
    if items.len() < ids.len() {
        conn.query_drop("ROLLBACK")?;
        s.other += 1;
        return Ok(Outcome::RolledBack);
    }
    let price: HashMap<u32, i64> = items
        .iter()
        .map(|(id, p, _, _)| (*id, parse_cents(p)))
        .collect();

    let mut pairs: Vec<(u32, u32)> = lines.iter().map(|l| (l.supply_w, l.i_id)).collect();
    pairs.sort_unstable();
    pairs.dedup();
    let key = format!("no.s{}.{d}", pairs.len());
    let flat: Vec<u32> = pairs.iter().flat_map(|&(sw, id)| [sw, id]).collect();
    let stock: Vec<(u32, u32, i64, String, String)> =
        st.all(conn, &key, &stock_sql(pairs.len(), d), flat)?;
    s.reads += 1;
    let mut stock: HashMap<(u32, u32), (i64, String)> = stock
        .into_iter()
        .map(|(sw, id, q, _data, dist)| ((sw, id), (q, dist)))
        .collect();

    let mut values: Vec<mysql::Value> = Vec::with_capacity(lines.len() * 9);
    for (n, l) in lines.iter().enumerate() {
        let (qty_now, dist) = stock
            .get_mut(&(l.supply_w, l.i_id))
            .ok_or_else(|| missing("stock", l.supply_w, l.i_id))?;
        // 2.4.2.2: decrease by OL_QUANTITY if 10 or more remain, else add 91 as well.
        let q = i64::from(l.qty);
        *qty_now = if *qty_now >= q + 10 {
            *qty_now - q
        } else {
            *qty_now - q + 91
        };
        let remote = u32::from(l.supply_w != w);
        st.exec(
            conn,
            "no.su",
            UPDATE_STOCK,
            (*qty_now, l.qty, remote, l.supply_w, l.i_id),
        )?;
        s.writes += 1;
        let amount = q * price.get(&l.i_id).copied().unwrap_or(0);
        values.extend([
            o_id.into(),
            d.into(),
            w.into(),
            (n as u32 + 1).into(),
            l.i_id.into(),
            l.supply_w.into(),
            l.qty.into(),
            dec_cents(amount).into(),
            dist.as_str().into(),
        ]);
    }
    let key = format!("no.ol{}", lines.len());
    st.exec(conn, &key, &order_lines_sql(lines.len()), values)?;
    s.writes += 1;
    conn.query_drop("COMMIT")?;
    s.other += 1;
    Ok(Outcome::Committed)
}

fn missing(what: &str, a: u32, b: u32) -> mysql::Error {
    mysql::Error::from(std::io::Error::other(format!(
        "{what} ({a}, {b}) not found"
    )))
}
