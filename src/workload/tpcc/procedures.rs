//! `--procedures`: the five transactions as stored procedures, one CALL each (as HammerDB
//! runs TPC-C). MySQL's are below; PostgreSQL's PL/pgSQL, with the same parameters, are in
//! `engine/postgres/tpcc.rs`. The inputs are drawn by the client exactly as for client-side SQL
//! and passed as parameters, so both modes run the same transactions; New-Order's lines
//! travel as comma-separated lists. Every procedure rolls back and re-signals on an error,
//! so the driver sees deadlocks and retries them as in client mode. Every string parameter
//! and variable is latin1, the tables' character set: with the database's utf8mb4 each
//! fetch and store converted, and `c_last = p_last` compared a converted column, so the
//! by-name lookups scanned the district (the server spent 2.4 ms per New-Order against
//! 1.5 ms for the same transactions as client SQL).

use super::NullDates;
use super::txn::{
    CustomerBy, Delivery, Done, Input, NewOrder, OrderStatus, Payment, Stmts, StockLevel, dec_cents,
};
use crate::engine::postgres::tpcc as pg;
use crate::engine::{Conn, Engine};
use crate::metrics::{Outcome, StmtCounts};
use anyhow::{Context, Result};

/// The procedures' names.
pub const NAMES: [&str; 5] = [
    "txbench_new_order",
    "txbench_payment",
    "txbench_order_status",
    "txbench_delivery",
    "txbench_stock_level",
];

/// 2.4.2: New-Order. Returns one row: 1 when rolled back for an unused item, else 0.
const NEW_ORDER: &str = r"
CREATE PROCEDURE txbench_new_order(IN p_w INT, IN p_d INT, IN p_c INT, IN p_ol_cnt INT, IN p_all_local INT,
  IN p_items VARCHAR(200) CHARACTER SET latin1, IN p_supply VARCHAR(200) CHARACTER SET latin1, IN p_qty VARCHAR(100) CHARACTER SET latin1)
proc: BEGIN
  DECLARE v_discount DECIMAL(4,4); DECLARE v_last VARCHAR(16) CHARACTER SET latin1; DECLARE v_credit CHAR(2) CHARACTER SET latin1;
  DECLARE v_wtax DECIMAL(4,4); DECLARE v_dtax DECIMAL(4,4); DECLARE v_next INT;
  DECLARE i INT DEFAULT 1; DECLARE v_item INT; DECLARE v_sw INT; DECLARE v_q INT;
  DECLARE v_price DECIMAL(5,2); DECLARE v_name VARCHAR(24) CHARACTER SET latin1; DECLARE v_idata VARCHAR(50) CHARACTER SET latin1;
  DECLARE v_squant INT; DECLARE v_sdata VARCHAR(50) CHARACTER SET latin1; DECLARE v_dist CHAR(24) CHARACTER SET latin1; DECLARE v_msg VARCHAR(200) CHARACTER SET latin1;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  SELECT c_discount, c_last, c_credit, w_tax INTO v_discount, v_last, v_credit, v_wtax
    FROM customer, warehouse WHERE w_id = p_w AND c_w_id = w_id AND c_d_id = p_d AND c_id = p_c;
  IF v_wtax IS NULL THEN SET v_msg = CONCAT('New-Order: SELECT customer and warehouse (w ', p_w, ', d ', p_d, ', c ', p_c, ') found no row'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  SELECT d_next_o_id, d_tax INTO v_next, v_dtax FROM district WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;
  IF v_next IS NULL THEN SET v_msg = CONCAT('New-Order: SELECT district (w ', p_w, ', d ', p_d, ') found no row'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;
  IF ROW_COUNT() < 1 THEN SET v_msg = CONCAT('New-Order: UPDATE district d_next_o_id (w ', p_w, ', d ', p_d, ') changed 0 row(s), 1 expected'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local)
    VALUES (v_next, p_d, p_w, p_c, NOW(), p_ol_cnt, p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_next, p_d, p_w);
  WHILE i <= p_ol_cnt DO
    SET v_item = SUBSTRING_INDEX(SUBSTRING_INDEX(p_items, ',', i), ',', -1);
    SET v_sw = SUBSTRING_INDEX(SUBSTRING_INDEX(p_supply, ',', i), ',', -1);
    SET v_q = SUBSTRING_INDEX(SUBSTRING_INDEX(p_qty, ',', i), ',', -1);
    SET v_price = NULL;
    SELECT i_price, i_name, i_data INTO v_price, v_name, v_idata FROM item WHERE i_id = v_item;
    IF v_price IS NULL THEN
      -- 2.4.2.3: the unused item (ITEMS + 1) is the last line: every valid one was processed.
      IF v_item <> 100001 THEN SET v_msg = CONCAT('New-Order: SELECT item (i ', v_item, ') found no row'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
      ROLLBACK;
      SELECT 1;
      LEAVE proc;
    END IF;
    SET v_squant = NULL;
    SELECT s_quantity, s_data,
      CASE p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
        WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
        WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
      INTO v_squant, v_sdata, v_dist FROM stock WHERE s_w_id = v_sw AND s_i_id = v_item FOR UPDATE;
    IF v_squant IS NULL THEN SET v_msg = CONCAT('New-Order: SELECT stock (w ', v_sw, ', i ', v_item, ') found no row'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
    IF v_squant >= v_q + 10 THEN SET v_squant = v_squant - v_q; ELSE SET v_squant = v_squant - v_q + 91; END IF;
    UPDATE stock SET s_quantity = v_squant, s_ytd = s_ytd + v_q, s_order_cnt = s_order_cnt + 1,
      s_remote_cnt = s_remote_cnt + (v_sw <> p_w) WHERE s_w_id = v_sw AND s_i_id = v_item;
    IF ROW_COUNT() < 1 THEN SET v_msg = CONCAT('New-Order: UPDATE stock (w ', v_sw, ', i ', v_item, ') changed 0 row(s), 1 expected'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info)
      VALUES (v_next, p_d, p_w, i, v_item, v_sw, v_q, v_q * v_price, v_dist);
    SET i = i + 1;
  END WHILE;
  COMMIT;
  SELECT 0;
END";

/// 2.5.2: Payment. By last name (p_by_name = 1): the middle match sorted by C_FIRST.
const PAYMENT: &str = r"
CREATE PROCEDURE txbench_payment(IN p_w INT, IN p_d INT, IN p_c_w INT, IN p_c_d INT, IN p_c INT,
  IN p_last VARCHAR(16) CHARACTER SET latin1, IN p_by_name INT, IN p_amount DECIMAL(6,2))
BEGIN
  DECLARE v_wname VARCHAR(10) CHARACTER SET latin1; DECLARE v_dname VARCHAR(10) CHARACTER SET latin1; DECLARE v_c INT; DECLARE v_n INT;
  DECLARE v_off INT; DECLARE v_credit CHAR(2) CHARACTER SET latin1; DECLARE v_data VARCHAR(500) CHARACTER SET latin1; DECLARE v_msg VARCHAR(200) CHARACTER SET latin1;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;
  IF ROW_COUNT() < 1 THEN SET v_msg = CONCAT('Payment: UPDATE warehouse (w ', p_w, ') changed 0 row(s), 1 expected'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  SELECT w_name INTO v_wname FROM warehouse WHERE w_id = p_w;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;
  IF ROW_COUNT() < 1 THEN SET v_msg = CONCAT('Payment: UPDATE district (w ', p_w, ', d ', p_d, ') changed 0 row(s), 1 expected'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  SELECT d_name INTO v_dname FROM district WHERE d_w_id = p_w AND d_id = p_d;
  IF p_by_name = 1 THEN
    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last;
    SET v_off = FLOOR((GREATEST(v_n, 1) - 1) / 2);
    SELECT c_id INTO v_c FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last
      ORDER BY c_first LIMIT v_off, 1;
  ELSE
    SET v_c = p_c;
  END IF;
  SELECT c_credit INTO v_credit FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c FOR UPDATE;
  IF v_credit IS NULL THEN SET v_msg = CONCAT('Payment: SELECT customer (w ', p_c_w, ', d ', p_c_d, ', c ', IFNULL(v_c, 0), ') found no row'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  IF v_credit = 'BC' THEN
    SELECT c_data INTO v_data FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
    SET v_data = LEFT(CONCAT(v_c, ' ', p_c_d, ' ', p_c_w, ' ', p_d, ' ', p_w, ' ', p_amount, ' | ', v_data), 500);
    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
      c_payment_cnt = c_payment_cnt + 1, c_data = v_data WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
  ELSE
    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
      c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
  END IF;
  IF ROW_COUNT() < 1 THEN SET v_msg = CONCAT('Payment: UPDATE customer (w ', p_c_w, ', d ', p_c_d, ', c ', v_c, ') changed 0 row(s), 1 expected'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c, p_c_d, p_c_w, p_d, p_w, NOW(), p_amount, CONCAT(v_wname, '    ', v_dname));
  COMMIT;
END";

/// 2.6.2: Order-Status; the order lines come back as a result set.
const ORDER_STATUS: &str = r"
CREATE PROCEDURE txbench_order_status(IN p_w INT, IN p_d INT, IN p_c INT, IN p_last VARCHAR(16) CHARACTER SET latin1, IN p_by_name INT)
BEGIN
  DECLARE v_c INT; DECLARE v_n INT; DECLARE v_off INT; DECLARE v_balance DECIMAL(12,2);
  DECLARE v_first VARCHAR(16) CHARACTER SET latin1; DECLARE v_o INT; DECLARE v_msg VARCHAR(200) CHARACTER SET latin1;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  IF p_by_name = 1 THEN
    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;
    SET v_off = FLOOR((GREATEST(v_n, 1) - 1) / 2);
    SELECT c_id INTO v_c FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last
      ORDER BY c_first LIMIT v_off, 1;
  ELSE
    SET v_c = p_c;
  END IF;
  SELECT c_balance, c_first INTO v_balance, v_first FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c;
  IF v_balance IS NULL THEN SET v_msg = CONCAT('Order-Status: SELECT customer (w ', p_w, ', d ', p_d, ', c ', IFNULL(v_c, 0), ') found no row'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  SELECT o_id INTO v_o FROM orders WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c ORDER BY o_id DESC LIMIT 1;
  IF v_o IS NULL THEN SET v_msg = CONCAT('Order-Status: SELECT the last order (w ', p_w, ', d ', p_d, ', c ', v_c, ') found no row'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
    WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o;
  COMMIT;
END";

/// 2.7.4: Delivery of all ten districts in one transaction; returns the skipped districts.
const DELIVERY: &str = r"
CREATE PROCEDURE txbench_delivery(IN p_w INT, IN p_carrier INT)
BEGIN
  DECLARE d INT DEFAULT 1; DECLARE v_o INT; DECLARE v_c INT; DECLARE v_amount DECIMAL(12,2);
  DECLARE v_skipped INT DEFAULT 0; DECLARE v_msg VARCHAR(200) CHARACTER SET latin1;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  WHILE d <= 10 DO
    SET v_o = NULL;
    SELECT no_o_id INTO v_o FROM new_order WHERE no_w_id = p_w AND no_d_id = d ORDER BY no_o_id LIMIT 1 FOR UPDATE;
    IF v_o IS NULL THEN
      SET v_skipped = v_skipped + 1;
    ELSE
      DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = d AND no_o_id = v_o;
      IF ROW_COUNT() < 1 THEN SET v_msg = CONCAT('Delivery: DELETE new_order (w ', p_w, ', d ', d, ', o ', v_o, ') changed 0 row(s), 1 expected'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
      SET v_c = NULL;
      SELECT o_c_id INTO v_c FROM orders WHERE o_w_id = p_w AND o_d_id = d AND o_id = v_o;
      IF v_c IS NULL THEN SET v_msg = CONCAT('Delivery: SELECT the order''s customer (w ', p_w, ', d ', d, ', o ', v_o, ') found no row'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
      UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = d AND o_id = v_o;
      IF ROW_COUNT() < 1 THEN SET v_msg = CONCAT('Delivery: UPDATE orders o_carrier_id (w ', p_w, ', d ', d, ', o ', v_o, ') changed 0 row(s), 1 expected'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
      UPDATE order_line SET ol_delivery_d = NOW() WHERE ol_w_id = p_w AND ol_d_id = d AND ol_o_id = v_o;
      IF ROW_COUNT() < 1 THEN SET v_msg = CONCAT('Delivery: UPDATE order_line ol_delivery_d (w ', p_w, ', d ', d, ', o ', v_o, ') changed 0 row(s), 1 expected'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
      SELECT SUM(ol_amount) INTO v_amount FROM order_line WHERE ol_w_id = p_w AND ol_d_id = d AND ol_o_id = v_o;
      IF v_amount IS NULL THEN SET v_msg = CONCAT('Delivery: SELECT SUM(ol_amount) (w ', p_w, ', d ', d, ', o ', v_o, ') found no order line'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
      UPDATE customer SET c_balance = c_balance + v_amount, c_delivery_cnt = c_delivery_cnt + 1
        WHERE c_w_id = p_w AND c_d_id = d AND c_id = v_c;
      IF ROW_COUNT() < 1 THEN SET v_msg = CONCAT('Delivery: UPDATE customer (w ', p_w, ', d ', d, ', c ', v_c, ') changed 0 row(s), 1 expected'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
    END IF;
    SET d = d + 1;
  END WHILE;
  COMMIT;
  SELECT v_skipped;
END";

/// 2.8.2: Stock-Level; returns the count.
const STOCK_LEVEL: &str = r"
CREATE PROCEDURE txbench_stock_level(IN p_w INT, IN p_d INT, IN p_threshold INT)
BEGIN
  DECLARE v_next INT; DECLARE v_msg VARCHAR(200) CHARACTER SET latin1;
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;
  IF v_next IS NULL THEN SET v_msg = CONCAT('Stock-Level: SELECT district (w ', p_w, ', d ', p_d, ') found no row'); SIGNAL SQLSTATE 'TX236' SET MESSAGE_TEXT = v_msg; END IF;
  SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock
    WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id < v_next AND ol_o_id >= v_next - 20
      AND s_w_id = p_w AND s_i_id = ol_i_id AND s_quantity < p_threshold;
END";

/// (Re)creates the procedures. Undelivered orders are left to the columns' defaults, so
/// the same procedures serve `--null-dates null` and `default`.
pub fn create(conn: &mut Conn, _nd: NullDates) -> Result<()> {
    let bodies = match conn.engine() {
        Engine::Mysql => [NEW_ORDER, PAYMENT, ORDER_STATUS, DELIVERY, STOCK_LEVEL],
        Engine::Postgres => pg::PROCEDURES,
    };
    for (name, body) in NAMES.iter().zip(bodies) {
        conn.query_drop(format!("DROP PROCEDURE IF EXISTS {name}"))?;
        conn.query_drop(body)
            .with_context(|| format!("creating procedure {name}"))?;
    }
    Ok(())
}

/// The procedures that are missing from the database.
pub fn missing(conn: &mut Conn) -> Result<Vec<&'static str>> {
    let present: Vec<String> = conn.query(format!(
        "SELECT routine_name FROM information_schema.routines WHERE routine_schema = {} AND routine_type = 'PROCEDURE'",
        conn.engine().schema_sql()
    ))?;
    Ok(NAMES
        .iter()
        .copied()
        .filter(|n| !present.iter().any(|p| p.eq_ignore_ascii_case(n)))
        .collect())
}

/// The CALL of procedure `i` (in [`NAMES`] order): PostgreSQL's pass NULL for the INOUT
/// parameter that brings the result back.
fn call(conn: &Conn, i: usize) -> &'static str {
    const MYSQL: [&str; 5] = [
        "CALL txbench_new_order(?, ?, ?, ?, ?, ?, ?, ?)",
        "CALL txbench_payment(?, ?, ?, ?, ?, ?, ?, ?)",
        "CALL txbench_order_status(?, ?, ?, ?, ?)",
        "CALL txbench_delivery(?, ?)",
        "CALL txbench_stock_level(?, ?, ?)",
    ];
    match conn.engine() {
        Engine::Mysql => MYSQL[i],
        Engine::Postgres => pg::CALLS[i],
    }
}

fn by_name(by: &CustomerBy) -> (u32, String, u32) {
    match by {
        CustomerBy::Id(c) => (*c, String::new(), 0),
        CustomerBy::Last(name) => (0, name.clone(), 1),
    }
}

fn join<T: ToString>(v: impl Iterator<Item = T>) -> String {
    v.map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// Runs one transaction as a CALL; returns the outcome and (for Delivery) the skipped
/// districts.
pub fn execute(
    conn: &mut Conn,
    st: &mut Stmts,
    input: &Input,
    s: &mut StmtCounts,
) -> crate::engine::Result<Done> {
    s.other += 1;
    match input {
        Input::NewOrder(NewOrder {
            w,
            d,
            c,
            lines,
            all_local,
        }) => {
            let rolled: Option<u32> = st.first(
                conn,
                "p.no",
                call(conn, 0),
                (
                    *w,
                    *d,
                    *c,
                    lines.len() as u32,
                    u32::from(*all_local),
                    join(lines.iter().map(|l| l.i_id)),
                    join(lines.iter().map(|l| l.supply_w)),
                    join(lines.iter().map(|l| l.qty)),
                ),
            )?;
            let outcome = if rolled == Some(1) {
                Outcome::RolledBack
            } else {
                Outcome::Committed
            };
            Ok((outcome, 0))
        }
        Input::Payment(Payment {
            w,
            d,
            c_w,
            c_d,
            by,
            amount,
        }) => {
            let (c, last, is_name) = by_name(by);
            st.exec(
                conn,
                "p.py",
                call(conn, 1),
                (*w, *d, *c_w, *c_d, c, last, is_name, dec_cents(*amount)),
            )?;
            Ok((Outcome::Committed, 0))
        }
        Input::OrderStatus(OrderStatus { w, d, by }) => {
            let (c, last, is_name) = by_name(by);
            st.exec(conn, "p.os", call(conn, 2), (*w, *d, c, last, is_name))?;
            Ok((Outcome::Committed, 0))
        }
        Input::Delivery(Delivery { w, carrier }) => {
            let skipped: Option<u32> = st.first(conn, "p.dl", call(conn, 3), (*w, *carrier))?;
            Ok((Outcome::Committed, skipped.unwrap_or(0)))
        }
        Input::StockLevel(StockLevel { w, d, threshold }) => {
            st.exec(conn, "p.sl", call(conn, 4), (*w, *d, *threshold))?;
            Ok((Outcome::Committed, 0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_order_knows_the_unused_item_and_every_procedure_checks_its_rows() {
        // The one item id that may be missing (2.4.1.5) is ITEMS + 1.
        assert!(NEW_ORDER.contains(&format!("v_item <> {}", super::super::ITEMS + 1)));
        // Every UPDATE and DELETE is followed by its ROW_COUNT() check (clause 2.3.6):
        // New-Order's district and stock, Payment's warehouse, district and customer (one
        // check after either branch), Delivery's new_order, orders, order_line, customer.
        for (body, checks) in [(NEW_ORDER, 2), (PAYMENT, 3), (DELIVERY, 4)] {
            assert_eq!(body.matches("ROW_COUNT() < 1").count(), checks, "{body}");
        }
        // Every string parameter and variable is in the tables' character set: a utf8mb4
        // one converted every fetch and made the by-name lookups scan (2x the server CPU).
        for body in [NEW_ORDER, PAYMENT, ORDER_STATUS, DELIVERY, STOCK_LEVEL] {
            let strings = body.matches("CHAR(").count();
            assert_eq!(
                body.matches(") CHARACTER SET latin1").count(),
                strings,
                "{body}"
            );
        }
        // Every SELECT ... INTO that must find a row is checked for NULL after it.
        for (body, checks) in [
            (NEW_ORDER, 3),
            (PAYMENT, 1),
            (ORDER_STATUS, 2),
            (DELIVERY, 2),
            (STOCK_LEVEL, 1),
        ] {
            assert_eq!(
                body.matches("IS NULL THEN SET v_msg").count(),
                checks,
                "{body}"
            );
        }
    }
}
