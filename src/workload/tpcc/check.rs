//! The consistency conditions of clause 3.3.2, each as one set-based query over all
//! warehouses that counts the violating rows (the reference); `run` counts the six that
//! read orders and their lines one warehouse at a time (`tally`), the rest by their query.
//! "Null" in conditions 5 and 7 means the sentinel when the data was prepared with
//! `--null-dates default`.

use super::NullDates;
use crate::engine::Conn;
use anyhow::{Context, Result};

pub use crate::workload::Condition;

/// The twelve conditions' descriptions and queries (each returns one count).
pub fn conditions(nd: NullDates) -> Vec<(u32, &'static str, String)> {
    let o_null = nd.order_undelivered("o.");
    let ol_null = nd.line_undelivered("ol.");
    let mut all = counter_conditions();
    all.extend(order_conditions(&o_null, &ol_null));
    all.extend(payment_conditions(&ol_null));
    all
}

/// Conditions 1-4: the warehouses' and districts' counters (year-to-date, next order id)
/// against their districts, orders, new orders and order lines.
fn counter_conditions() -> Vec<(u32, &'static str, String)> {
    vec![
        (
            1,
            "W_YTD = sum(D_YTD) per warehouse",
            "SELECT COUNT(*) FROM warehouse w LEFT JOIN (SELECT d_w_id, SUM(d_ytd) s FROM district GROUP BY d_w_id) d \
             ON d.d_w_id = w.w_id WHERE w.w_ytd <> COALESCE(d.s, 0)"
                .to_string(),
        ),
        (
            2,
            "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) per district",
            "SELECT COUNT(*) FROM district d \
             LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) m FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id \
             LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) m FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id \
             WHERE d.d_next_o_id - 1 <> COALESCE(o.m, 0) OR (n.m IS NOT NULL AND n.m <> d.d_next_o_id - 1)"
                .to_string(),
        ),
        (
            3,
            "max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW-ORDER per district",
            "SELECT COUNT(*) FROM (SELECT MAX(no_o_id) - MIN(no_o_id) + 1 - COUNT(*) diff FROM new_order GROUP BY no_w_id, no_d_id) t WHERE diff <> 0"
                .to_string(),
        ),
        (
            4,
            "sum(O_OL_CNT) = rows in ORDER-LINE per district",
            "SELECT COUNT(*) FROM (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) s FROM orders GROUP BY o_w_id, o_d_id) o \
             LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) c FROM order_line GROUP BY ol_w_id, ol_d_id) l \
             ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id WHERE o.s <> COALESCE(l.c, 0)"
                .to_string(),
        ),
    ]
}

/// Conditions 5-7: each order against its NEW-ORDER row and its lines, delivered or not.
fn order_conditions(o_null: &str, ol_null: &str) -> Vec<(u32, &'static str, String)> {
    vec![
        (
            5,
            "O_CARRIER_ID is null if and only if a NEW-ORDER row exists",
            format!(
                "SELECT (SELECT COUNT(*) FROM orders o LEFT JOIN new_order n \
                 ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id \
                 WHERE ({o_null}) <> (n.no_o_id IS NOT NULL)) + \
                 (SELECT COUNT(*) FROM new_order n LEFT JOIN orders o \
                 ON o.o_w_id = n.no_w_id AND o.o_d_id = n.no_d_id AND o.o_id = n.no_o_id WHERE o.o_id IS NULL)"
            ),
        ),
        (
            6,
            "O_OL_CNT = number of its ORDER-LINE rows, per order",
            "SELECT COUNT(*) FROM orders o LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, COUNT(*) c FROM order_line \
             GROUP BY ol_w_id, ol_d_id, ol_o_id) l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id \
             WHERE o.o_ol_cnt <> COALESCE(l.c, 0)"
                .to_string(),
        ),
        (
            7,
            "OL_DELIVERY_D is null if and only if its order's O_CARRIER_ID is null",
            format!(
                "SELECT COUNT(*) FROM orders o JOIN order_line ol \
                 ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id \
                 WHERE ({ol_null}) <> ({o_null})"
            ),
        ),
    ]
}

/// Conditions 8-12: the year-to-date totals and balances against HISTORY and the delivered
/// lines, and (11) the orders per district at load.
fn payment_conditions(ol_null: &str) -> Vec<(u32, &'static str, String)> {
    let delivered_sums = format!(
        "SELECT o.o_w_id w, o.o_d_id d, o.o_c_id c, SUM(ol.ol_amount) s FROM orders o JOIN order_line ol \
         ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id \
         WHERE NOT ({ol_null}) GROUP BY o.o_w_id, o.o_d_id, o.o_c_id"
    );
    vec![
        (
            8,
            "W_YTD = sum(H_AMOUNT) per warehouse",
            "SELECT COUNT(*) FROM warehouse w LEFT JOIN (SELECT h_w_id, SUM(h_amount) s FROM history GROUP BY h_w_id) h \
             ON h.h_w_id = w.w_id WHERE w.w_ytd <> COALESCE(h.s, 0)"
                .to_string(),
        ),
        (
            9,
            "D_YTD = sum(H_AMOUNT) per district",
            "SELECT COUNT(*) FROM district d LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) s FROM history GROUP BY h_w_id, h_d_id) h \
             ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id WHERE d.d_ytd <> COALESCE(h.s, 0)"
                .to_string(),
        ),
        (
            10,
            "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT) per customer",
            format!(
                "SELECT COUNT(*) FROM customer c \
                 LEFT JOIN ({delivered_sums}) d ON d.w = c.c_w_id AND d.d = c.c_d_id AND d.c = c.c_id \
                 LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, SUM(h_amount) s FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id) h \
                 ON h.h_c_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id AND h.h_c_id = c.c_id \
                 WHERE c.c_balance <> COALESCE(d.s, 0) - COALESCE(h.s, 0)"
            ),
        ),
        (
            11,
            "count(ORDER) - count(NEW-ORDER) = 2100 per district (initial state only)",
            "SELECT COUNT(*) FROM (SELECT o_w_id, o_d_id, COUNT(*) c FROM orders GROUP BY o_w_id, o_d_id) o \
             LEFT JOIN (SELECT no_w_id, no_d_id, COUNT(*) c FROM new_order GROUP BY no_w_id, no_d_id) n \
             ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id WHERE o.c - COALESCE(n.c, 0) <> 2100"
                .to_string(),
        ),
        (
            12,
            "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT) per customer",
            format!(
                "SELECT COUNT(*) FROM customer c \
                 LEFT JOIN ({delivered_sums}) d ON d.w = c.c_w_id AND d.d = c.c_d_id AND d.c = c.c_id \
                 WHERE c.c_balance + c.c_ytd_payment <> COALESCE(d.s, 0)"
            ),
        ),
    ]
}

/// One piece of the check: the set-based query of a condition that is cheap over all
/// warehouses, or the conditions [`super::tally`] counts for a range of warehouses.
enum Job {
    Sql(u32, String),
    Warehouses(i64, i64),
}

/// Runs every condition (11 only when `initial`: no run since prepare), on up to `parallel`
/// connections from `connect` at once: the set-based queries first (the costliest first),
/// then the warehouses one by one; the conditions come back in their order.
pub fn run(
    connect: &(dyn Fn() -> Result<Conn> + Sync),
    nd: NullDates,
    initial: bool,
    parallel: usize,
) -> Result<Vec<Condition>> {
    let all = conditions(nd);
    let mut first = connect()?;
    let range = super::tally::warehouse_range(&mut first)?;
    let mut jobs: Vec<Job> = Vec::new();
    for n in [9, 8, 11, 3, 2, 1] {
        if n != 11 || initial {
            let sql = all.iter().find(|c| c.0 == n).map(|c| c.2.clone());
            jobs.extend(sql.map(|q| Job::Sql(n, q)));
        }
    }
    if let Some((lo, hi)) = range {
        // Ranges small enough to keep every connection busy to the end, at most 10
        // warehouses (each range reads HISTORY once: it has no index by customer).
        let per = ((hi - lo + 1) / (4 * parallel.max(1) as i64)).clamp(1, 10);
        let mut a = lo;
        while a <= hi {
            jobs.push(Job::Warehouses(a, (a + per - 1).min(hi)));
            a += per;
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let found = std::sync::Mutex::new(std::collections::BTreeMap::<u32, u64>::new());
    let tallied = std::sync::Mutex::new(super::tally::Violations::default());
    let workers = parallel.clamp(1, jobs.len().max(1));
    let first = std::sync::Mutex::new(Some(first));
    std::thread::scope(|scope| -> Result<()> {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    let reuse = first.lock().unwrap_or_else(|p| p.into_inner()).take();
                    let mut conn = match reuse {
                        Some(c) => c,
                        None => connect()?,
                    };
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        match jobs.get(i) {
                            None => return Ok(()),
                            Some(Job::Sql(n, sql)) => {
                                let c = conn
                                    .query_first::<u64>(sql)
                                    .with_context(|| format!("checking condition {n}"))?
                                    .unwrap_or(0);
                                found
                                    .lock()
                                    .unwrap_or_else(|p| p.into_inner())
                                    .insert(*n, c);
                            }
                            Some(Job::Warehouses(a, b)) => {
                                let v = super::tally::warehouses(&mut conn, nd, *a, *b)?;
                                let mut t = tallied.lock().unwrap_or_else(|p| p.into_inner());
                                *t = t.plus(v);
                            }
                        }
                    }
                })
            })
            .collect();
        for h in handles {
            h.join()
                .map_err(|_| anyhow::anyhow!("a check thread panicked"))??;
        }
        Ok(())
    })?;
    let mut found = found.into_inner().unwrap_or_else(|p| p.into_inner());
    let tallied = tallied.into_inner().unwrap_or_else(|p| p.into_inner());
    for n in super::tally::CONDITIONS {
        found.insert(n, tallied.of(n).unwrap_or(0));
    }
    Ok(conditions_with(all, &found, initial))
}

/// Every condition counted by its own set-based query over all warehouses, one after
/// another: the reference the faster [`run`] must agree with (its tests compare them).
pub fn reference(conn: &mut Conn, nd: NullDates, initial: bool) -> Result<Vec<Condition>> {
    let all = conditions(nd);
    let mut found = std::collections::BTreeMap::new();
    for (n, _, sql) in &all {
        if *n != 11 || initial {
            let c = conn
                .query_first::<u64>(sql)
                .with_context(|| format!("checking condition {n}"))?
                .unwrap_or(0);
            found.insert(*n, c);
        }
    }
    Ok(conditions_with(all, &found, initial))
}

fn conditions_with(
    all: Vec<(u32, &'static str, String)>,
    found: &std::collections::BTreeMap<u32, u64>,
    initial: bool,
) -> Vec<Condition> {
    all.into_iter()
        .map(|(number, description, _)| Condition {
            number,
            description: description.to_string(),
            violations: found.get(&number).copied().unwrap_or(0),
            applies: number != 11 || initial,
            detail: String::new(),
        })
        .collect()
}

/// Connections the check uses at once: this host's CPUs, at most 4 (the server's, when it
/// runs here, are the same; a remote server is not asked).
pub fn parallelism() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}
