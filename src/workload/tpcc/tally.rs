//! Conditions 4, 5, 6, 7, 10 and 12 a few warehouses at a time: every one of them reads the
//! orders or their lines, and as set-based queries over all warehouses each joined them
//! again (MariaDB evaluates the delivered sums per customer as a LATERAL DERIVED table,
//! minutes at 100 warehouses). Here each table is read once per warehouse in its primary
//! key's order with no join (the lines grouped by order, the payments per customer once per
//! range of warehouses), and the rows are compared here, in cents, counting the same
//! violating rows as the conditions' own queries (`check::reference`; the tests compare
//! both on broken data).

use super::NullDates;
use crate::engine::{Conn, Engine};
use anyhow::{Context, Result};
use std::collections::HashMap;

/// Violating rows of the conditions this module counts, by condition number:
/// 4, districts whose sum(O_OL_CNT) differs from their order lines; 5, orders whose carrier
/// says one thing and NEW-ORDER another, and NEW-ORDER rows with no order; 6, orders whose
/// O_OL_CNT differs from their lines; 7, lines whose delivery date disagrees with their
/// order's carrier; 10, customers whose balance is not delivered minus paid; 12, customers
/// whose balance plus payments is not delivered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Violations(pub [u64; 13]);

impl Violations {
    /// Both warehouses' together.
    pub fn plus(mut self, o: Violations) -> Violations {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
        self
    }

    /// Condition `n`'s count, if this module counts it.
    pub fn of(&self, n: u32) -> Option<u64> {
        CONDITIONS.contains(&n).then(|| self.0[n as usize])
    }
}

/// The conditions counted here.
pub const CONDITIONS: [u32; 6] = [4, 5, 6, 7, 10, 12];

/// One order: district, id, customer, O_OL_CNT, undelivered (0 or 1).
pub type Order = (i64, i64, i64, i64, i64);
/// One order's lines: district, order id, lines, undelivered lines, delivered cents.
pub type Lines = (i64, i64, i64, i64, i64);
/// One customer: district, id, balance and year-to-date payment in cents.
pub type Customer = (i64, i64, i64, i64);

/// A warehouse's rows, read in five streaming queries (each over a primary key range, with
/// no join): what [`tally`] compares.
#[derive(Debug, Default)]
pub struct Rows {
    /// ORDERS.
    pub orders: Vec<Order>,
    /// ORDER-LINE grouped by order.
    pub lines: Vec<Lines>,
    /// NEW-ORDER: district and order id.
    pub new_orders: Vec<(i64, i64)>,
    /// CUSTOMER.
    pub customers: Vec<Customer>,
}

/// The warehouse range the data spans (every table keyed by warehouse, its smallest and
/// largest id), so a row outside 1..W is still checked.
pub fn warehouse_range(conn: &mut Conn) -> Result<Option<(i64, i64)>> {
    let int = int(conn.engine());
    let mut lo: Option<i64> = None;
    let mut hi: Option<i64> = None;
    for (t, c) in [
        ("warehouse", "w_id"),
        ("district", "d_w_id"),
        ("customer", "c_w_id"),
        ("orders", "o_w_id"),
        ("new_order", "no_w_id"),
        ("order_line", "ol_w_id"),
    ] {
        let (a, b): (Option<i64>, Option<i64>) = conn
            .query_first(format!(
                "SELECT CAST(MIN({c}) AS {int}), CAST(MAX({c}) AS {int}) FROM {t}"
            ))?
            .unwrap_or((None, None));
        lo = [lo, a].into_iter().flatten().min();
        hi = [hi, b].into_iter().flatten().max();
    }
    Ok(lo.zip(hi))
}

fn int(e: Engine) -> &'static str {
    match e {
        Engine::Mysql => "SIGNED",
        Engine::Postgres => "BIGINT",
    }
}

/// Counts the conditions of warehouses `lo..=hi`: their customers' payments in one pass over
/// HISTORY (it has no index by customer), then each warehouse's rows.
pub fn warehouses(conn: &mut Conn, nd: NullDates, lo: i64, hi: i64) -> Result<Violations> {
    let int = int(conn.engine());
    let paid: Vec<(i64, i64, i64, i64)> = conn
        .query(format!(
            "SELECT h_c_w_id, h_c_d_id, h_c_id, CAST(SUM(h_amount * 100) AS {int}) FROM history \
             WHERE h_c_w_id BETWEEN {lo} AND {hi} GROUP BY h_c_w_id, h_c_d_id, h_c_id"
        ))
        .with_context(|| format!("checking warehouses {lo}-{hi}: payments per customer"))?;
    let mut by_warehouse: HashMap<i64, HashMap<(i64, i64), i64>> = HashMap::new();
    for (w, d, c, cents) in paid {
        by_warehouse.entry(w).or_default().insert((d, c), cents);
    }
    let mut v = Violations::default();
    for w in lo..=hi {
        let rows = read(conn, nd, w)?;
        v = v.plus(tally(&rows, &by_warehouse.remove(&w).unwrap_or_default()));
    }
    Ok(v)
}

/// Warehouse `w`'s rows.
fn read(conn: &mut Conn, nd: NullDates, w: i64) -> Result<Rows> {
    let int = int(conn.engine());
    let o_null = nd.order_undelivered("");
    let ol_null = nd.line_undelivered("");
    let what = |q: &str| format!("checking warehouse {w}: {q}");
    Ok(Rows {
        orders: conn
            .query(format!(
                "SELECT o_d_id, o_id, o_c_id, CAST(o_ol_cnt AS {int}), CASE WHEN {o_null} THEN 1 ELSE 0 END \
                 FROM orders WHERE o_w_id = {w}"
            ))
            .with_context(|| what("orders"))?,
        lines: conn
            .query(format!(
                "SELECT ol_d_id, ol_o_id, CAST(COUNT(*) AS {int}), \
                 CAST(SUM(CASE WHEN {ol_null} THEN 1 ELSE 0 END) AS {int}), \
                 CAST(SUM(CASE WHEN {ol_null} THEN 0 ELSE ol_amount * 100 END) AS {int}) \
                 FROM order_line WHERE ol_w_id = {w} GROUP BY ol_w_id, ol_d_id, ol_o_id"
            ))
            .with_context(|| what("order lines"))?,
        new_orders: conn
            .query(format!(
                "SELECT no_d_id, no_o_id FROM new_order WHERE no_w_id = {w}"
            ))
            .with_context(|| what("new orders"))?,
        customers: conn
            .query(format!(
                "SELECT c_d_id, c_id, CAST(c_balance * 100 AS {int}), CAST(c_ytd_payment * 100 AS {int}) \
                 FROM customer WHERE c_w_id = {w}"
            ))
            .with_context(|| what("customers"))?,
    })
}

/// The comparisons of one warehouse's rows, as the conditions' queries make them: 4 over
/// the districts that have orders (against all their lines), 5 over orders and NEW-ORDER
/// rows, 6 over the orders, 7 over the lines that have an order, 10 and 12 over the
/// customers (delivered amounts from lines that have an order; a customer with no orders
/// or payments has delivered and paid 0). `paid`: payments per (district, customer).
pub fn tally(rows: &Rows, paid: &HashMap<(i64, i64), i64>) -> Violations {
    let mut v = Violations::default();
    let lines: HashMap<(i64, i64), (i64, i64, i64)> = rows
        .lines
        .iter()
        .map(|&(d, o, n, u, cents)| ((d, o), (n, u, cents)))
        .collect();
    let mut district_lines: HashMap<i64, i64> = HashMap::new();
    for &(d, _, n, _, _) in &rows.lines {
        *district_lines.entry(d).or_default() += n;
    }
    let new_orders: std::collections::HashSet<(i64, i64)> =
        rows.new_orders.iter().copied().collect();
    let mut ol_cnt: HashMap<i64, i64> = HashMap::new();
    let mut delivered: HashMap<(i64, i64), i64> = HashMap::new();
    let mut orders = std::collections::HashSet::new();
    for &(d, o, c, cnt, undelivered) in &rows.orders {
        orders.insert((d, o));
        let (n, u, cents) = lines.get(&(d, o)).copied().unwrap_or((0, 0, 0));
        *ol_cnt.entry(d).or_default() += cnt;
        *delivered.entry((d, c)).or_default() += cents;
        v.0[5] += u64::from((undelivered == 1) != new_orders.contains(&(d, o)));
        v.0[6] += u64::from(cnt != n);
        // Lines whose delivery disagrees with the order: the delivered ones of an
        // undelivered order, the undelivered ones of a delivered order.
        v.0[7] += (if undelivered == 1 { n - u } else { u }).max(0) as u64;
    }
    v.0[5] += new_orders.iter().filter(|k| !orders.contains(*k)).count() as u64;
    v.0[4] = ol_cnt
        .iter()
        .filter(|(d, s)| district_lines.get(d).copied().unwrap_or(0) != **s)
        .count() as u64;
    for &(d, c, balance, ytd) in &rows.customers {
        let got = delivered.get(&(d, c)).copied().unwrap_or(0);
        let gave = paid.get(&(d, c)).copied().unwrap_or(0);
        v.0[10] += u64::from(balance != got - gave);
        v.0[12] += u64::from(balance + ytd != got);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paid(p: &[(i64, i64, i64)]) -> HashMap<(i64, i64), i64> {
        p.iter().map(|&(d, c, s)| ((d, c), s)).collect()
    }

    #[test]
    fn consistent_rows_violate_nothing() {
        // District 1: customer 7 has order 1 (delivered: 10.00 + 5.50) and order 2 (new),
        // and paid 3.00; district 2: customer 8's delivered order with 3 lines of 0.00.
        let rows = Rows {
            orders: vec![(1, 1, 7, 2, 0), (1, 2, 7, 1, 1), (2, 1, 8, 3, 0)],
            lines: vec![(1, 1, 2, 0, 1550), (1, 2, 1, 1, 0), (2, 1, 3, 0, 0)],
            new_orders: vec![(1, 2)],
            customers: vec![(1, 7, 1550 - 300, 300), (2, 8, 0, 0), (2, 9, -1000, 1000)],
        };
        let v = tally(&rows, &paid(&[(1, 7, 300), (2, 9, 1000)]));
        assert_eq!(v, Violations::default());
    }

    #[test]
    fn each_broken_row_counts_against_its_condition() {
        // Order 1 claims 3 lines and has 2, one of them undelivered while the order is
        // delivered (7), and a NEW-ORDER row (5); the district's lines then differ from
        // sum(O_OL_CNT) (4); customer 7's balance is a cent off (10 and 12); customer 9
        // paid without it showing (10 only); a NEW-ORDER row has no order (5).
        let rows = Rows {
            orders: vec![(1, 1, 7, 3, 0)],
            lines: vec![(1, 1, 2, 1, 1550)],
            new_orders: vec![(1, 1), (1, 9)],
            customers: vec![(1, 7, 1551, 0), (1, 9, 0, 0)],
        };
        let v = tally(&rows, &paid(&[(1, 9, 500)]));
        assert_eq!(v, Violations([0, 0, 0, 0, 1, 2, 1, 1, 0, 0, 2, 0, 1]));
        assert_eq!(v.plus(v).of(10), Some(4));
        assert_eq!(v.of(8), None);
    }

    #[test]
    fn lines_without_an_order_count_only_for_their_district() {
        // As the conditions' queries: 4 compares a district's orders with all its lines;
        // 6, 7, 10 and 12 join lines to their orders, so an orphan line adds nothing there;
        // a district with lines but no orders is not counted by 4 (districts come from
        // ORDERS).
        let rows = Rows {
            orders: vec![(1, 1, 7, 1, 0)],
            lines: vec![(1, 1, 1, 0, 100), (1, 5, 2, 2, 0), (3, 1, 10, 0, 900)],
            new_orders: vec![],
            customers: vec![(1, 7, 100, 0)],
        };
        let v = tally(&rows, &HashMap::new());
        assert_eq!(v, Violations([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]));
    }
}
