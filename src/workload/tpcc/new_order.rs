//! New-Order (clause 2.4). Reads of ITEM and STOCK are batched into one statement each
//! (as go-tpc does): fewer round trips, the same rows read and locked. Their IN lists are
//! padded to [`IN_LIST`] keys by repeating the last, so that a connection prepares one
//! statement for them, not one per order size (see [`padded`]).

use super::txn::{Built, Key, Line, NewOrder, Stmts, Transaction, dec_cents, parse_cents};
use crate::engine::{Conn, Result};
use crate::metrics::{Outcome, StmtCounts};

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
/// 2.4.2.2: S_QUANTITY, S_YTD, S_ORDER_CNT and S_REMOTE_CNT of `n` stock rows in one
/// statement (the same rows changed as by one UPDATE each, in one round trip instead of
/// `n`): per row, in CASE arms keyed by (S_W_ID, S_I_ID), the new quantity and the
/// increments; parameters per row: key + quantity, key + quantity ordered, key + orders,
/// key + remote orders, then the keys of the IN list. The ELSE arms are never taken (the IN
/// list holds the same keys); they give the CASE an INT type, which PostgreSQL needs to
/// type the THEN parameters.
pub fn update_stock_sql(n: usize) -> String {
    let case = |otherwise: &str| {
        format!(
            "CASE {} ELSE {otherwise} END",
            vec!["WHEN s_w_id = ? AND s_i_id = ? THEN ?"; n].join(" ")
        )
    };
    format!(
        "UPDATE stock SET s_quantity = {}, s_ytd = s_ytd + {}, s_order_cnt = s_order_cnt + {}, \
         s_remote_cnt = s_remote_cnt + {} WHERE (s_w_id, s_i_id) IN ({})",
        case("s_quantity"),
        case("0"),
        case("0"),
        case("0"),
        vec!["(?,?)"; n].join(",")
    )
}

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

/// The length the IN lists of ITEM's and STOCK's statements are padded to: an order's
/// largest number of lines (2.4.1.3).
const IN_LIST: usize = 15;

/// `keys` with its last repeated up to [`IN_LIST`] keys (the same rows read, locked and
/// changed: an IN list and a CASE's first matching arm ignore the repeats). Each order size
/// was its own statement, prepared on every connection the first time it met it: one
/// terminal's New-Orders prepared up to 143 (4 per size, and per district for STOCK's read),
/// so at 1,024 terminals a 30-s run prepared most of the statements it executed.
fn padded<T: Copy>(keys: &[T]) -> Vec<T> {
    let mut v = keys.to_vec();
    if let Some(&last) = keys.last() {
        v.resize(keys.len().max(IN_LIST), last);
    }
    v
}

/// Runs one New-Order; `RolledBack` for the 1 % with an unused item (2.4.2.3).
impl Transaction for NewOrder {
    fn execute(&self, conn: &mut Conn, st: &mut Stmts, s: &mut StmtCounts) -> Result<Outcome> {
        let NewOrder {
            w,
            d,
            c,
            lines,
            all_local,
        } = self;
        let (w, d, c) = (*w, *d, *c);
        let mut db = Db { conn, st, s };
        db.begin()?;
        let (rates, o_id) = db.read_customer_and_advance_district(w, d, c)?;
        let order = OrderKey { w, d, o_id };
        db.insert_order(order, c, lines.len() as u32, *all_local)?;

        // 2.4.2.2: every item. The unused id (2.4.1.5, ITEMS + 1) is not found; 2.4.2.3: every
        // valid item is still processed (stock read and updated, order line inserted) before
        // the unused one rolls the order back. Any other item not found is broken data.
        let ids = item_ids(lines);
        let items = db.read_items(&ids)?;
        let price = prices(&items);
        let unused = super::ITEMS + 1;
        check_items_found(&ids, &price, unused)?;
        let valid: Vec<&Line> = lines.iter().filter(|l| l.i_id != unused).collect();
        let rollback = valid.len() < lines.len();

        let pairs = stock_pairs(&valid);
        let mut stock = db.read_stock(d, &pairs)?;
        let sums = sum_lines(order, &valid, &mut stock, &price)?;
        if !pairs.is_empty() {
            db.update_stock(order, &pairs, &stock, &sums.per_row)?;
        }
        if !valid.is_empty() {
            db.insert_order_lines(order, valid.len(), sums.values)?;
        }
        compute_total(&rates, sums.total_cents, sums.brand_generic);
        db.end(rollback)
    }
}

/// The connection, its prepared statements and the statement counts: what every step that
/// talks to the server uses.
struct Db<'a> {
    conn: &'a mut Conn,
    st: &'a mut Stmts,
    s: &'a mut StmtCounts,
}

/// C_DISCOUNT, W_TAX and D_TAX as read, for the order total.
struct Rates {
    c_discount: String,
    w_tax: String,
    d_tax: String,
}

/// The order being entered: its warehouse, district and id.
#[derive(Clone, Copy)]
struct OrderKey {
    w: u32,
    d: u32,
    o_id: u32,
}

impl OrderKey {
    /// The keys as error messages show them.
    fn keys(self) -> String {
        let OrderKey { w, d, o_id } = self;
        format!("w {w}, d {d}, o {o_id}")
    }
}

/// Stock rows by (S_W_ID, S_I_ID): S_QUANTITY (updated as lines take from it), S_DIST_xx,
/// S_DATA.
type Stock = HashMap<(u32, u32), (i64, String, String)>;

/// Items by I_ID: I_PRICE in cents, I_DATA.
type Prices<'a> = HashMap<u32, (i64, &'a str)>;

/// What the valid lines add up to.
struct LineSums {
    /// ORDER-LINE's parameters, nine per line.
    values: Vec<crate::engine::Value>,
    /// Per stock row: quantity ordered, orders, remote orders.
    per_row: HashMap<(u32, u32), (u32, u32, u32)>,
    /// sum(OL_AMOUNT).
    total_cents: i64,
    /// Per line, 'B' or 'G'.
    brand_generic: Vec<char>,
}

impl Db<'_> {
    /// BEGIN.
    fn begin(&mut self) -> Result<()> {
        self.conn.query_drop("BEGIN")?;
        self.s.other += 1;
        Ok(())
    }

    /// Reads the customer, the warehouse and the district (locked), and increments
    /// D_NEXT_O_ID; returns the rates and the new order's id.
    fn read_customer_and_advance_district(
        &mut self,
        w: u32,
        d: u32,
        c: u32,
    ) -> Result<(Rates, u32)> {
        let (c_discount, _c_last, _c_credit, w_tax): (String, String, String, String) = self
            .st
            .found(self.conn, "no.cw", CUSTOMER_WAREHOUSE, (w, d, c), || {
                format!("New-Order: SELECT customer and warehouse (w {w}, d {d}, c {c})")
            })?;
        let (next_o_id, d_tax): (u32, String) =
            self.st.found(self.conn, "no.d", DISTRICT, (w, d), || {
                format!("New-Order: SELECT district (w {w}, d {d})")
            })?;
        self.st
            .change(self.conn, "no.dn", DISTRICT_NEXT, (w, d), 1, || {
                format!("New-Order: UPDATE district d_next_o_id (w {w}, d {d})")
            })?;
        self.s.reads += 2;
        self.s.writes += 1;
        let rates = Rates {
            c_discount,
            w_tax,
            d_tax,
        };
        Ok((rates, next_o_id))
    }

    /// Inserts the ORDER and NEW-ORDER rows.
    fn insert_order(
        &mut self,
        order: OrderKey,
        c: u32,
        ol_cnt: u32,
        all_local: bool,
    ) -> Result<()> {
        let OrderKey { w, d, o_id } = order;
        self.st.change(
            self.conn,
            "no.o",
            INSERT_ORDER,
            (o_id, d, w, c, ol_cnt, u32::from(all_local)),
            1,
            || format!("New-Order: INSERT orders ({})", order.keys()),
        )?;
        self.st.change(
            self.conn,
            "no.no",
            INSERT_NEW_ORDER,
            (o_id, d, w),
            1,
            || format!("New-Order: INSERT new_order ({})", order.keys()),
        )?;
        self.s.writes += 2;
        Ok(())
    }

    /// Reads the items `ids` in one statement: (I_ID, I_PRICE, I_NAME, I_DATA).
    fn read_items(&mut self, ids: &[u32]) -> Result<Vec<(u32, String, String, String)>> {
        let ids = padded(ids);
        let n = ids.len();
        let key = Key("no.i", n as u32);
        let items = self.st.all(self.conn, key, Built(|| items_sql(n)), ids)?;
        self.s.reads += 1;
        Ok(items)
    }

    /// Reads and locks the stock rows `pairs` of district `d` in one statement.
    fn read_stock(&mut self, d: u32, pairs: &[(u32, u32)]) -> Result<Stock> {
        let mut stock: Stock = HashMap::new();
        if !pairs.is_empty() {
            let pairs = padded(pairs);
            let n = pairs.len();
            // One statement per district (its S_DIST_xx column) and list length.
            let key = Key("no.s", d * 100 + n as u32);
            let flat: Vec<u32> = pairs.iter().flat_map(|&(sw, id)| [sw, id]).collect();
            let rows: Vec<(u32, u32, i64, String, String)> =
                self.st
                    .all(self.conn, key, Built(|| stock_sql(n, d)), flat)?;
            self.s.reads += 1;
            stock = rows
                .into_iter()
                .map(|(sw, id, q, data, dist)| ((sw, id), (q, dist, data)))
                .collect();
        }
        Ok(stock)
    }

    /// Updates the stock rows `pairs` in one statement.
    fn update_stock(
        &mut self,
        order: OrderKey,
        pairs: &[(u32, u32)],
        stock: &Stock,
        per_row: &HashMap<(u32, u32), (u32, u32, u32)>,
    ) -> Result<()> {
        // The CASE arms in update_stock_sql's order: the new quantity, then the quantity
        // ordered, the orders and the remote orders of each row; then the IN list. A
        // repeated row's arms repeat its values, and only its first matches.
        let rows = pairs.len() as u64;
        let pairs = padded(pairs);
        let mut params: Vec<crate::engine::Value> = Vec::with_capacity(pairs.len() * 14);
        for field in 0..4 {
            for &(sw, id) in &pairs {
                let (ordered, orders, remote) = per_row.get(&(sw, id)).copied().unwrap_or_default();
                let v: crate::engine::Value = match field {
                    0 => stock.get(&(sw, id)).map_or(0, |x| x.0).into(),
                    1 => ordered.into(),
                    2 => orders.into(),
                    _ => remote.into(),
                };
                params.extend([sw.into(), id.into(), v]);
            }
        }
        for &(sw, id) in &pairs {
            params.extend([sw.into(), id.into()]);
        }
        let n = pairs.len();
        self.st.change(
            self.conn,
            Key("no.su", n as u32),
            Built(|| update_stock_sql(n)),
            params,
            rows,
            || format!("New-Order: UPDATE stock ({rows} rows, {})", order.keys()),
        )?;
        self.s.writes += 1;
        Ok(())
    }

    /// Inserts the `n` order lines in one statement.
    fn insert_order_lines(
        &mut self,
        order: OrderKey,
        n: usize,
        values: Vec<crate::engine::Value>,
    ) -> Result<()> {
        self.st.change(
            self.conn,
            Key("no.ol", n as u32),
            Built(|| order_lines_sql(n)),
            values,
            n as u64,
            || format!("New-Order: INSERT order_line ({})", order.keys()),
        )?;
        self.s.writes += 1;
        Ok(())
    }

    /// ROLLBACK (the unused item) or COMMIT.
    fn end(&mut self, rollback: bool) -> Result<Outcome> {
        if rollback {
            self.conn.query_drop("ROLLBACK")?;
            self.s.other += 1;
            return Ok(Outcome::RolledBack);
        }
        self.conn.query_drop("COMMIT")?;
        self.s.other += 1;
        Ok(Outcome::Committed)
    }
}

/// The order's distinct item ids, sorted.
fn item_ids(lines: &[Line]) -> Vec<u32> {
    let mut ids: Vec<u32> = lines.iter().map(|l| l.i_id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The items read, by id.
fn prices(items: &[(u32, String, String, String)]) -> Prices<'_> {
    items
        .iter()
        .map(|(id, p, _, data)| (*id, (parse_cents(p), data.as_str())))
        .collect()
}

/// An error for an item not found other than the unused one.
fn check_items_found(ids: &[u32], price: &Prices<'_>, unused: u32) -> Result<()> {
    if let Some(id) = ids
        .iter()
        .find(|id| **id != unused && !price.contains_key(id))
    {
        return Err(crate::engine::data_error(format!(
            "New-Order: SELECT item (i {id}) found no row"
        )));
    }
    Ok(())
}

/// The distinct (supplying warehouse, item) pairs of the valid lines, sorted.
fn stock_pairs(valid: &[&Line]) -> Vec<(u32, u32)> {
    let mut pairs: Vec<(u32, u32)> = valid.iter().map(|l| (l.supply_w, l.i_id)).collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Walks the valid lines in order: each takes from its stock row's quantity and adds to its
/// increments, and gives its amount, its brand-generic flag and ORDER-LINE's parameters.
fn sum_lines(
    order: OrderKey,
    valid: &[&Line],
    stock: &mut Stock,
    price: &Prices<'_>,
) -> Result<LineSums> {
    let OrderKey { w, d, o_id } = order;
    let mut values: Vec<crate::engine::Value> = Vec::with_capacity(valid.len() * 9);
    // Per stock row, in `pairs` order: quantity ordered, orders, remote orders (an item can
    // appear on two lines: both count, the quantity is decreased twice).
    let mut per_row: HashMap<(u32, u32), (u32, u32, u32)> = HashMap::new();
    let mut total_cents = 0i64;
    let mut brand_generic = Vec::with_capacity(valid.len());
    for (n, l) in valid.iter().enumerate() {
        let (qty_now, dist, s_data) = stock.get_mut(&(l.supply_w, l.i_id)).ok_or_else(|| {
            crate::engine::data_error(format!(
                "New-Order: SELECT stock (w {}, i {}) found no row",
                l.supply_w, l.i_id
            ))
        })?;
        // 2.4.2.2: decrease by OL_QUANTITY if 10 or more remain, else add 91 as well.
        let q = i64::from(l.qty);
        *qty_now = if *qty_now >= q + 10 {
            *qty_now - q
        } else {
            *qty_now - q + 91
        };
        let e = per_row.entry((l.supply_w, l.i_id)).or_default();
        e.0 += l.qty;
        e.1 += 1;
        e.2 += u32::from(l.supply_w != w);
        let (i_price, i_data) = price.get(&l.i_id).copied().unwrap_or((0, ""));
        let amount = q * i_price;
        total_cents += amount;
        // 2.4.2.2: brand-generic is "B" when both I_DATA and S_DATA contain "ORIGINAL".
        brand_generic.push(
            if i_data.contains("ORIGINAL") && s_data.contains("ORIGINAL") {
                'B'
            } else {
                'G'
            },
        );
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
    Ok(LineSums {
        values,
        per_row,
        total_cents,
        brand_generic,
    })
}

/// 2.4.2.2: the terminal shows the order total, sum(OL_AMOUNT) * (1 - C_DISCOUNT) *
/// (1 + W_TAX + D_TAX): computed, as the client CPU the specification expects.
fn compute_total(rates: &Rates, total_cents: i64, brand_generic: Vec<char>) {
    let rate = |v: &str| v.parse::<f64>().unwrap_or(0.0);
    let total = total_cents as f64 / 100.0
        * (1.0 - rate(&rates.c_discount))
        * (1.0 + rate(&rates.w_tax) + rate(&rates.d_tax));
    std::hint::black_box((total, brand_generic));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_lists_are_padded_with_their_last_key_to_one_length() {
        assert_eq!(padded::<u32>(&[]), Vec::<u32>::new());
        let p = padded(&[(1, 7), (2, 9)]);
        assert_eq!(p.len(), IN_LIST);
        assert_eq!(&p[..2], &[(1, 7), (2, 9)]);
        assert!(p[2..].iter().all(|&k| k == (2, 9)));
        let long: Vec<u32> = (0..20).collect();
        assert_eq!(padded(&long), long);
    }
}
