//! What the five transactions (and the procedures, the terminals and the scorecard) share:
//! the kinds and the specification's times, a transaction's inputs, money as cents, a
//! connection's prepared statements, and the customer looked up by id or last name. The
//! transaction files import this, never `run.rs` (which runs them).

use crate::engine::{Conn, Result, Stmt as Statement};
use crate::metrics::{Outcome, StmtCounts};
use std::collections::HashMap;

/// Transaction kinds, in report order.
pub const KINDS: [&str; 5] = [
    "new_order",
    "payment",
    "order_status",
    "delivery",
    "stock_level",
];
/// Clause 5.2.4.2: a deck of 23 cards, 10 New-Order, 10 Payment, one of each other.
pub const DECK: [u32; 5] = [10, 10, 1, 1, 1];
/// Clause 5.2.5.2: keying times, seconds.
pub const KEYING_S: [f64; 5] = [18.0, 3.0, 2.0, 2.0, 2.0];
/// Clause 5.2.5.4: mean think times, seconds.
pub const THINK_S: [f64; 5] = [12.0, 12.0, 10.0, 5.0, 5.0];
/// Clause 5.2.5.3: 90th percentile response time limits, seconds.
pub const P90_LIMIT_S: [f64; 5] = [5.0, 5.0, 5.0, 5.0, 20.0];

/// Customer selection (clauses 2.5.1.2, 2.6.1.2).
#[derive(Debug, Clone, PartialEq)]
pub enum CustomerBy {
    /// By C_ID.
    Id(u32),
    /// By C_LAST: the middle one of the matches sorted by C_FIRST.
    Last(String),
}

/// One order line's input.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// OL_I_ID (ITEMS + 1 is unused: the 1 % rollback).
    pub i_id: u32,
    /// OL_SUPPLY_W_ID.
    pub supply_w: u32,
    /// OL_QUANTITY.
    pub qty: u32,
}

/// 2.4.1: a New-Order's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewOrder {
    /// Home warehouse.
    pub w: u32,
    /// District.
    pub d: u32,
    /// Customer.
    pub c: u32,
    /// Lines.
    pub lines: Vec<Line>,
    /// All supplied by the home warehouse.
    pub all_local: bool,
}

/// 2.5.1: a Payment's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Payment {
    /// Home warehouse.
    pub w: u32,
    /// District.
    pub d: u32,
    /// Customer's warehouse (another one for 15 %).
    pub c_w: u32,
    /// Customer's district.
    pub c_d: u32,
    /// Customer.
    pub by: CustomerBy,
    /// H_AMOUNT in cents.
    pub amount: i64,
}

/// 2.6.1: an Order-Status's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderStatus {
    /// Warehouse.
    pub w: u32,
    /// District.
    pub d: u32,
    /// Customer.
    pub by: CustomerBy,
}

/// 2.7.1: a Delivery's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    /// Warehouse.
    pub w: u32,
    /// O_CARRIER_ID.
    pub carrier: u32,
}

/// 2.8.1: a Stock-Level's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct StockLevel {
    /// Warehouse.
    pub w: u32,
    /// The terminal's district.
    pub d: u32,
    /// Threshold 10..20.
    pub threshold: u32,
}

/// A transaction's inputs, kept for a retry after a deadlock.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// 2.4.
    NewOrder(NewOrder),
    /// 2.5.
    Payment(Payment),
    /// 2.6.
    OrderStatus(OrderStatus),
    /// 2.7.
    Delivery(Delivery),
    /// 2.8.
    StockLevel(StockLevel),
}

/// A transaction run as written SQL, statement by statement (Delivery, which also says how
/// many districts it skipped, has its own `execute`).
pub trait Transaction {
    /// Runs it once on `conn` with its prepared statements, counting statements in `s`.
    fn execute(&self, conn: &mut Conn, st: &mut Stmts, s: &mut StmtCounts) -> Result<Outcome>;
}

/// A transaction's outcome and the districts a Delivery found no new order in.
pub type Done = (Outcome, u32);

impl Input {
    /// Runs the transaction as written SQL: its outcome, and the districts a Delivery found
    /// no new order in.
    pub fn execute(&self, conn: &mut Conn, st: &mut Stmts, s: &mut StmtCounts) -> Result<Done> {
        let outcome = match self {
            Input::NewOrder(i) => i.execute(conn, st, s)?,
            Input::Payment(i) => i.execute(conn, st, s)?,
            Input::OrderStatus(i) => i.execute(conn, st, s)?,
            Input::Delivery(i) => return i.execute(conn, st, s),
            Input::StockLevel(i) => i.execute(conn, st, s)?,
        };
        Ok((outcome, 0))
    }
}

/// `12345` cents → "123.45".
pub fn dec_cents(v: i64) -> String {
    let sign = if v < 0 { "-" } else { "" };
    format!(
        "{sign}{}.{:02}",
        v.unsigned_abs() / 100,
        v.unsigned_abs() % 100
    )
}

/// "123.45" → 12345 (anything unparsable is 0).
pub fn parse_cents(s: &str) -> i64 {
    let (int, frac) = s.split_once('.').unwrap_or((s, "0"));
    let neg = int.starts_with('-');
    let i: i64 = int.trim_start_matches('-').parse().unwrap_or(0);
    let f: i64 = format!("{frac:0<2}")[..2].parse().unwrap_or(0);
    let v = i * 100 + f;
    if neg { -v } else { v }
}

/// A prepared statement's name: a fixed name, and a number for the statements one name
/// covers (New-Order's order lines per count, its stock read per district). Made without
/// allocating: every statement of every transaction looks one up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(pub &'static str, pub u32);

impl From<&'static str> for Key {
    fn from(name: &'static str) -> Key {
        Key(name, 0)
    }
}

/// A statement's text, made only when the statement is prepared: a fixed text, or
/// [`Built`] for one made for its shape (a New-Order's IN lists and its stock update
/// were formatted anew for every execution, a few KiB each, while glibc's allocator cost
/// 1,024 virtual users twice the share of the client's CPU it cost 8).
pub trait Sql {
    /// The text.
    fn text(self) -> std::borrow::Cow<'static, str>;
}

impl Sql for &'static str {
    fn text(self) -> std::borrow::Cow<'static, str> {
        self.into()
    }
}

/// A statement text built by its closure when the statement is prepared.
pub struct Built<F>(pub F);

impl<F: FnOnce() -> String> Sql for Built<F> {
    fn text(self) -> std::borrow::Cow<'static, str> {
        (self.0)().into()
    }
}

/// A connection's prepared statements, by name, prepared on first use.
#[derive(Default)]
pub struct Stmts {
    map: HashMap<Key, Statement>,
}

impl Stmts {
    /// The statement called `key` with text `sql`.
    pub fn get(
        &mut self,
        conn: &mut Conn,
        key: impl Into<Key>,
        sql: impl Sql,
    ) -> crate::engine::Result<Statement> {
        let key = key.into();
        if let Some(st) = self.map.get(&key) {
            return Ok(st.clone());
        }
        let st = conn.prep(sql.text())?;
        self.map.insert(key, st.clone());
        Ok(st)
    }

    /// Executes statement `key` and drops its result.
    pub fn exec<P: crate::engine::Params>(
        &mut self,
        conn: &mut Conn,
        key: impl Into<Key>,
        sql: impl Sql,
        params: P,
    ) -> crate::engine::Result<()> {
        let st = self.get(conn, key, sql)?;
        conn.exec_drop(&st, params)
    }

    /// Executes statement `key`, which must change at least `rows` rows (clause 2.3.6): fewer
    /// is a data error naming `what` (the statement and its keys).
    pub fn change<P: crate::engine::Params>(
        &mut self,
        conn: &mut Conn,
        key: impl Into<Key>,
        sql: impl Sql,
        params: P,
        rows: u64,
        what: impl FnOnce() -> String,
    ) -> crate::engine::Result<()> {
        let st = self.get(conn, key, sql)?;
        conn.exec_drop(&st, params)?;
        let n = conn.affected_rows();
        if n < rows {
            return Err(crate::engine::data_error(format!(
                "{} changed {n} row(s), {rows} expected",
                what()
            )));
        }
        Ok(())
    }

    /// Executes statement `key` and returns its first row, which must exist (clause
    /// 2.3.6): none is a data error naming `what`.
    pub fn found<T: crate::engine::FromRow, P: crate::engine::Params>(
        &mut self,
        conn: &mut Conn,
        key: impl Into<Key>,
        sql: impl Sql,
        params: P,
        what: impl FnOnce() -> String,
    ) -> crate::engine::Result<T> {
        self.first(conn, key, sql, params)?
            .ok_or_else(|| crate::engine::data_error(format!("{} found no row", what())))
    }

    /// Executes statement `key` and returns its first row.
    pub fn first<T: crate::engine::FromRow, P: crate::engine::Params>(
        &mut self,
        conn: &mut Conn,
        key: impl Into<Key>,
        sql: impl Sql,
        params: P,
    ) -> crate::engine::Result<Option<T>> {
        let st = self.get(conn, key, sql)?;
        conn.exec_first(&st, params)
    }

    /// Executes statement `key` and returns all its rows.
    pub fn all<T: crate::engine::FromRow, P: crate::engine::Params>(
        &mut self,
        conn: &mut Conn,
        key: impl Into<Key>,
        sql: impl Sql,
        params: P,
    ) -> crate::engine::Result<Vec<T>> {
        let st = self.get(conn, key, sql)?;
        conn.exec(&st, params)
    }
}

/// 2.5.2.2 / 2.6.2.2: the customer's C_ID, by id or as the middle match by last name.
pub fn customer_id(
    conn: &mut Conn,
    st: &mut Stmts,
    w: u32,
    d: u32,
    by: &CustomerBy,
    s: &mut StmtCounts,
) -> crate::engine::Result<u32> {
    match by {
        CustomerBy::Id(c) => Ok(*c),
        CustomerBy::Last(name) => {
            let ids: Vec<u32> = st.all(
                conn,
                "c.byname",
                "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first",
                (w, d, name),
            )?;
            s.reads += 1;
            // Position n/2 rounded up, counting from 1. Every run-time last name is one of
            // the loaded ones (2.5.2.2): none found means the data is broken.
            ids.get(ids.len().saturating_sub(1) / 2)
                .copied()
                .ok_or_else(|| {
                    crate::engine::data_error(format!(
                        "SELECT customer by last name (w {w}, d {d}, c_last {name}) found no row"
                    ))
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cents_round_trip() {
        assert_eq!(dec_cents(12345), "123.45");
        assert_eq!(dec_cents(-1000), "-10.00");
        assert_eq!(dec_cents(5), "0.05");
        assert_eq!(parse_cents("123.45"), 12345);
        assert_eq!(parse_cents("-10.00"), -1000);
        assert_eq!(parse_cents("7.5"), 750);
        assert_eq!(parse_cents("42"), 4200);
    }
}
