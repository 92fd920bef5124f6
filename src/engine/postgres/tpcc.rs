//! What TPC-C says to PostgreSQL beyond the statements both engines share: its date-time
//! type, order_line's partitions, the index lookup, and `--procedures` in PL/pgSQL. Text
//! only, like `sql.rs`.
//!
//! The procedures take the same parameters as MySQL's (New-Order's lines as comma-separated
//! lists) and give their result in an INOUT parameter, the row `CALL` returns. They run as
//! HammerDB's PostgreSQL procedures do: `CALL` in autocommit, each CALL one transaction;
//! New-Order's unused item rolls back inside the procedure (PostgreSQL 11 and later allow
//! it when CALL is not inside a transaction block), and an error raised anywhere aborts the
//! whole CALL. A row that must exist and does not raises SQLSTATE TX236 with the same
//! message as client SQL, so the driver counts a data error either way.

/// MySQL's DATETIME.
pub const DATETIME: &str = "TIMESTAMP";

/// order_line's partitioning clause with `--partition` (the partitions are separate tables).
pub const PARTITION_BY: &str = " PARTITION BY HASH (ol_w_id)";

/// The partitions of a table partitioned by hash: `n` of them.
pub fn partitions(table: &str, n: u32) -> Vec<String> {
    (0..n)
        .map(|i| {
            format!(
                "CREATE TABLE {table}_p{i} PARTITION OF {table} FOR VALUES WITH (MODULUS {n}, REMAINDER {i})"
            )
        })
        .collect()
}

/// Whether an index of this name exists in the current schema.
pub const INDEX_EXISTS: &str =
    "SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?";

/// The server's clock as the loader writes dates.
pub const NOW_TEXT: &str = "SELECT to_char(LOCALTIMESTAMP(0), 'YYYY-MM-DD HH24:MI:SS')";

/// Statistics after the load (VACUUM also sets the visibility map, as `pgbench -i` does).
pub const ANALYZE: &str = "VACUUM ANALYZE warehouse, district, customer, history, new_order, orders, order_line, item, stock";

/// The CALLs, in `tpcc::procedures::NAMES` order: PostgreSQL's pass NULL for the INOUT result.
pub const CALLS: [&str; 5] = [
    "CALL txbench_new_order(?, ?, ?, ?, ?, ?, ?, ?, NULL)",
    "CALL txbench_payment(?, ?, ?, ?, ?, ?, ?, ?)",
    "CALL txbench_order_status(?, ?, ?, ?, ?, NULL)",
    "CALL txbench_delivery(?, ?, NULL)",
    "CALL txbench_stock_level(?, ?, ?, NULL)",
];

/// 2.4.2: New-Order; `p_rolled_back` is 1 when the unused item rolled it back.
pub const NEW_ORDER: &str = r"
CREATE PROCEDURE txbench_new_order(p_w INT, p_d INT, p_c INT, p_ol_cnt INT, p_all_local INT,
  p_items TEXT, p_supply TEXT, p_qty TEXT, INOUT p_rolled_back INT)
LANGUAGE plpgsql AS $$
DECLARE
  v_discount NUMERIC(4,4); v_last VARCHAR(16); v_credit CHAR(2); v_wtax NUMERIC(4,4); v_dtax NUMERIC(4,4);
  v_next INT; v_item INT; v_sw INT; v_q INT; v_price NUMERIC(5,2); v_name VARCHAR(24); v_idata VARCHAR(50);
  v_squant INT; v_sdata VARCHAR(50); v_dist CHAR(24);
  v_items INT[] := string_to_array(p_items, ',')::INT[];
  v_supply INT[] := string_to_array(p_supply, ',')::INT[];
  v_qty INT[] := string_to_array(p_qty, ',')::INT[];
BEGIN
  SELECT c_discount, c_last, c_credit, w_tax INTO v_discount, v_last, v_credit, v_wtax
    FROM customer, warehouse WHERE w_id = p_w AND c_w_id = w_id AND c_d_id = p_d AND c_id = p_c;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('New-Order: SELECT customer and warehouse (w %s, d %s, c %s) found no row', p_w, p_d, p_c); END IF;
  SELECT d_next_o_id, d_tax INTO v_next, v_dtax FROM district WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('New-Order: SELECT district (w %s, d %s) found no row', p_w, p_d); END IF;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('New-Order: UPDATE district d_next_o_id (w %s, d %s) changed 0 row(s), 1 expected', p_w, p_d); END IF;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local)
    VALUES (v_next, p_d, p_w, p_c, LOCALTIMESTAMP, p_ol_cnt, p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_next, p_d, p_w);
  FOR i IN 1..p_ol_cnt LOOP
    v_item := v_items[i]; v_sw := v_supply[i]; v_q := v_qty[i];
    SELECT i_price, i_name, i_data INTO v_price, v_name, v_idata FROM item WHERE i_id = v_item;
    IF NOT FOUND THEN
      -- 2.4.2.3: the unused item (ITEMS + 1) is the last line: every valid one was processed.
      IF v_item <> 100001 THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('New-Order: SELECT item (i %s) found no row', v_item); END IF;
      ROLLBACK;
      p_rolled_back := 1;
      RETURN;
    END IF;
    SELECT s_quantity, s_data,
      CASE p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
        WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
        WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
      INTO v_squant, v_sdata, v_dist FROM stock WHERE s_w_id = v_sw AND s_i_id = v_item FOR UPDATE;
    IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('New-Order: SELECT stock (w %s, i %s) found no row', v_sw, v_item); END IF;
    IF v_squant >= v_q + 10 THEN v_squant := v_squant - v_q; ELSE v_squant := v_squant - v_q + 91; END IF;
    UPDATE stock SET s_quantity = v_squant, s_ytd = s_ytd + v_q, s_order_cnt = s_order_cnt + 1,
      s_remote_cnt = s_remote_cnt + CASE WHEN v_sw <> p_w THEN 1 ELSE 0 END WHERE s_w_id = v_sw AND s_i_id = v_item;
    IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('New-Order: UPDATE stock (w %s, i %s) changed 0 row(s), 1 expected', v_sw, v_item); END IF;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info)
      VALUES (v_next, p_d, p_w, i, v_item, v_sw, v_q, v_q * v_price, v_dist);
  END LOOP;
  p_rolled_back := 0;
END $$";

/// 2.5.2: Payment. By last name (p_by_name = 1): the middle match sorted by C_FIRST.
pub const PAYMENT: &str = r"
CREATE PROCEDURE txbench_payment(p_w INT, p_d INT, p_c_w INT, p_c_d INT, p_c INT,
  p_last VARCHAR(16), p_by_name INT, p_amount NUMERIC(6,2))
LANGUAGE plpgsql AS $$
DECLARE
  v_wname VARCHAR(10); v_dname VARCHAR(10); v_c INT; v_n INT; v_credit CHAR(2); v_data VARCHAR(500);
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Payment: UPDATE warehouse (w %s) changed 0 row(s), 1 expected', p_w); END IF;
  SELECT w_name INTO v_wname FROM warehouse WHERE w_id = p_w;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Payment: UPDATE district (w %s, d %s) changed 0 row(s), 1 expected', p_w, p_d); END IF;
  SELECT d_name INTO v_dname FROM district WHERE d_w_id = p_w AND d_id = p_d;
  IF p_by_name = 1 THEN
    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last;
    SELECT c_id INTO v_c FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_last
      ORDER BY c_first OFFSET (GREATEST(v_n, 1) - 1) / 2 LIMIT 1;
  ELSE
    v_c := p_c;
  END IF;
  SELECT c_credit INTO v_credit FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c FOR UPDATE;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Payment: SELECT customer (w %s, d %s, c %s) found no row', p_c_w, p_c_d, COALESCE(v_c, 0)); END IF;
  IF v_credit = 'BC' THEN
    SELECT c_data INTO v_data FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
    v_data := LEFT(format('%s %s %s %s %s %s | %s', v_c, p_c_d, p_c_w, p_d, p_w, p_amount, v_data), 500);
    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
      c_payment_cnt = c_payment_cnt + 1, c_data = v_data WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
  ELSE
    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
      c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c;
  END IF;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Payment: UPDATE customer (w %s, d %s, c %s) changed 0 row(s), 1 expected', p_c_w, p_c_d, v_c); END IF;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c, p_c_d, p_c_w, p_d, p_w, LOCALTIMESTAMP, p_amount, v_wname || '    ' || v_dname);
END $$";

/// 2.6.2: Order-Status; `p_lines` is the number of order lines read.
pub const ORDER_STATUS: &str = r"
CREATE PROCEDURE txbench_order_status(p_w INT, p_d INT, p_c INT, p_last VARCHAR(16), p_by_name INT, INOUT p_lines INT)
LANGUAGE plpgsql AS $$
DECLARE
  v_c INT; v_n INT; v_balance NUMERIC(12,2); v_first VARCHAR(16); v_middle CHAR(2); v_last VARCHAR(16);
  v_o INT; v_carrier INT; v_entry TIMESTAMP; v_line RECORD;
BEGIN
  IF p_by_name = 1 THEN
    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;
    SELECT c_id INTO v_c FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last
      ORDER BY c_first OFFSET (GREATEST(v_n, 1) - 1) / 2 LIMIT 1;
  ELSE
    v_c := p_c;
  END IF;
  SELECT c_balance, c_first, c_middle, c_last INTO v_balance, v_first, v_middle, v_last
    FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Order-Status: SELECT customer (w %s, d %s, c %s) found no row', p_w, p_d, COALESCE(v_c, 0)); END IF;
  SELECT o_id, o_carrier_id, o_entry_d INTO v_o, v_carrier, v_entry FROM orders
    WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c ORDER BY o_id DESC LIMIT 1;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Order-Status: SELECT the last order (w %s, d %s, c %s) found no row', p_w, p_d, v_c); END IF;
  p_lines := 0;
  FOR v_line IN SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
    WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o LOOP
    p_lines := p_lines + 1;
  END LOOP;
  IF p_lines = 0 THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Order-Status: SELECT order lines (w %s, d %s, o %s) found no row', p_w, p_d, v_o); END IF;
END $$";

/// 2.7.4: Delivery of all ten districts in one transaction; `p_skipped` is the districts
/// without an order to deliver.
pub const DELIVERY: &str = r"
CREATE PROCEDURE txbench_delivery(p_w INT, p_carrier INT, INOUT p_skipped INT)
LANGUAGE plpgsql AS $$
DECLARE
  v_o INT; v_c INT; v_amount NUMERIC(12,2);
BEGIN
  p_skipped := 0;
  FOR v_d IN 1..10 LOOP
    SELECT no_o_id INTO v_o FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d ORDER BY no_o_id LIMIT 1 FOR UPDATE;
    IF NOT FOUND THEN
      p_skipped := p_skipped + 1;
    ELSE
      DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d AND no_o_id = v_o;
      IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Delivery: DELETE new_order (w %s, d %s, o %s) changed 0 row(s), 1 expected', p_w, v_d, v_o); END IF;
      SELECT o_c_id INTO v_c FROM orders WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
      IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Delivery: SELECT the order''s customer (w %s, d %s, o %s) found no row', p_w, v_d, v_o); END IF;
      UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
      IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Delivery: UPDATE orders o_carrier_id (w %s, d %s, o %s) changed 0 row(s), 1 expected', p_w, v_d, v_o); END IF;
      UPDATE order_line SET ol_delivery_d = LOCALTIMESTAMP WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
      IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Delivery: UPDATE order_line ol_delivery_d (w %s, d %s, o %s) changed 0 row(s), 1 expected', p_w, v_d, v_o); END IF;
      SELECT SUM(ol_amount) INTO v_amount FROM order_line WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
      IF v_amount IS NULL THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Delivery: SELECT SUM(ol_amount) (w %s, d %s, o %s) found no order line', p_w, v_d, v_o); END IF;
      UPDATE customer SET c_balance = c_balance + v_amount, c_delivery_cnt = c_delivery_cnt + 1
        WHERE c_w_id = p_w AND c_d_id = v_d AND c_id = v_c;
      IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Delivery: UPDATE customer (w %s, d %s, c %s) changed 0 row(s), 1 expected', p_w, v_d, v_c); END IF;
    END IF;
  END LOOP;
END $$";

/// 2.8.2: Stock-Level; `p_low` is the count.
pub const STOCK_LEVEL: &str = r"
CREATE PROCEDURE txbench_stock_level(p_w INT, p_d INT, p_threshold INT, INOUT p_low INT)
LANGUAGE plpgsql AS $$
DECLARE
  v_next INT;
BEGIN
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;
  IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'TX236', MESSAGE = format('Stock-Level: SELECT district (w %s, d %s) found no row', p_w, p_d); END IF;
  SELECT COUNT(DISTINCT s_i_id) INTO p_low FROM order_line, stock
    WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id < v_next AND ol_o_id >= v_next - 20
      AND s_w_id = p_w AND s_i_id = ol_i_id AND s_quantity < p_threshold;
END $$";

/// The five, in `tpcc::procedures::NAMES` order.
pub const PROCEDURES: [&str; 5] = [NEW_ORDER, PAYMENT, ORDER_STATUS, DELIVERY, STOCK_LEVEL];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_and_every_required_row_is_checked() {
        // Clause 2.3.6: each UPDATE and DELETE, and each SELECT that must find its row, is
        // followed by its check; the only row allowed missing is the unused item's.
        for (body, checks) in [
            (NEW_ORDER, 6),
            (PAYMENT, 4),
            (ORDER_STATUS, 3),
            (DELIVERY, 6),
            (STOCK_LEVEL, 1),
        ] {
            assert_eq!(body.matches("ERRCODE = 'TX236'").count(), checks, "{body}");
        }
        assert!(NEW_ORDER.contains("v_item <> 100001"));
        // Each CALL names its procedure and passes NULL for the INOUT result where there is one.
        for (call, body) in CALLS.iter().zip(PROCEDURES) {
            let name = call.split(['(', ' ']).nth(1).unwrap();
            assert!(
                body.contains(&format!("CREATE PROCEDURE {name}(")),
                "{call}"
            );
            assert_eq!(call.ends_with("NULL)"), body.contains("INOUT"), "{call}");
            let params = body[..body.find("LANGUAGE").unwrap()]
                .matches(" INT")
                .count()
                + body[..body.find("LANGUAGE").unwrap()]
                    .matches(" TEXT")
                    .count()
                + body[..body.find("LANGUAGE").unwrap()]
                    .matches(" VARCHAR")
                    .count()
                + body[..body.find("LANGUAGE").unwrap()]
                    .matches(" NUMERIC")
                    .count();
            assert_eq!(
                call.matches('?').count() + call.matches("NULL").count(),
                params,
                "{call}"
            );
        }
        assert_eq!(
            partitions("order_line", 2)[1],
            "CREATE TABLE order_line_p1 PARTITION OF order_line FOR VALUES WITH (MODULUS 2, REMAINDER 1)"
        );
    }
}
