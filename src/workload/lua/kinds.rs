//! A script's transaction kinds. sysbench counts events; a TPC-C script (Percona-Lab's
//! sysbench-tpcc) runs one of five transactions per event, each a global function its
//! event() calls by name (`_G[trx]()`). When a script defines all five, under sysbench-tpcc's
//! names or TPC-C's, each becomes a kind of its own: the prelude wraps the functions so an
//! event is counted as the first of them it called (events that call none, as the script's
//! own kind), and txbench reports NOPM and cross-checks the New-Orders against the districts'
//! D_NEXT_O_ID, as it does for its own TPC-C.

use crate::results::{Rate, Summary, WorkloadReport};

/// The TPC-C transactions' functions: the spellings a script may use, and the kind's name
/// (txbench's TPC-C kinds).
const TPCC: [(&[&str], &str); 5] = [
    (&["new_order"], "new_order"),
    (&["payment"], "payment"),
    (&["orderstatus", "order_status"], "order_status"),
    (&["delivery"], "delivery"),
    (&["stocklevel", "stock_level"], "stock_level"),
];

/// sysbench-tpcc's sixth function (its --enable_purge), a kind of its own when defined.
const PURGE: &str = "purge";

/// The kind a New-Order is counted under.
pub const NEW_ORDER: &str = "new_order";

/// The script's kind functions, (global function, kind name), from `defined` (whether the
/// script defines a global function of that name): all five TPC-C transactions, with purge
/// when defined; else none.
pub fn detect(defined: impl Fn(&str) -> bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (names, kind) in TPCC {
        match names.iter().find(|n| defined(n)) {
            Some(f) => out.push((f.to_string(), kind.to_string())),
            None => return Vec::new(),
        }
    }
    if defined(PURGE) {
        out.push((PURGE.into(), PURGE.into()));
    }
    out
}

/// The SQL that counts committed New-Orders on the server, for a TPC-C script over
/// `tables` table sets (sysbench-tpcc's district1..districtN): every New-Order that commits
/// advances its district's D_NEXT_O_ID by one.
pub fn new_orders_sql(tables: u32) -> String {
    let parts: Vec<String> = (1..=tables.max(1))
        .map(|i| format!("SELECT d_next_o_id FROM district{i}"))
        .collect();
    format!(
        "SELECT SUM(d_next_o_id) FROM ({}) AS districts",
        parts.join(" UNION ALL ")
    )
}

/// NOPM and TPM over the measured phase, from the kinds' counts: the workload's rate.
pub fn report(s: &Summary) -> Option<WorkloadReport> {
    let new_orders = s.kinds.iter().find(|k| k.name == NEW_ORDER)?;
    let minutes = s.duration_s / 60.0;
    if minutes <= 0.0 {
        return None;
    }
    let nopm = new_orders.committed as f64 / minutes;
    let tpm = s.kinds.iter().map(|k| k.completed).sum::<u64>() as f64 / minutes;
    Some(WorkloadReport {
        headline: vec![
            ("NOPM".into(), format!("{nopm:.0}")),
            ("TPM".into(), format!("{tpm:.0}")),
        ],
        scorecard: Vec::new(),
        inputs: None,
        rate: Some(Rate {
            name: "NOPM".into(),
            kind: NEW_ORDER.into(),
            per_minute: nopm,
            all_per_minute: tpm,
        }),
        statements: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_five_transactions_under_either_spelling_make_kinds_and_four_make_none() {
        let tpcc = [
            "new_order",
            "payment",
            "orderstatus",
            "delivery",
            "stocklevel",
            "purge",
        ];
        let k = detect(|f| tpcc.contains(&f));
        let names: Vec<&str> = k.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "new_order",
                "payment",
                "order_status",
                "delivery",
                "stock_level",
                "purge"
            ]
        );
        assert_eq!(k[2].0, "orderstatus");
        let spec = [
            "new_order",
            "payment",
            "order_status",
            "delivery",
            "stock_level",
        ];
        assert_eq!(detect(|f| spec.contains(&f)).len(), 5);
        assert!(detect(|f| tpcc[..4].contains(&f)).is_empty());
    }

    #[test]
    fn the_new_order_count_sums_every_table_sets_districts() {
        assert_eq!(
            new_orders_sql(2),
            "SELECT SUM(d_next_o_id) FROM (SELECT d_next_o_id FROM district1 UNION ALL SELECT d_next_o_id FROM district2) AS districts"
        );
    }
}
