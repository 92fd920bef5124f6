//! check tpcb: balances and history that must agree.

use super::*;

/// The consistency conditions, each with the figures it compared.
pub fn check(conn: &mut Conn, s: &State) -> Result<Vec<Condition>> {
    let f = read_figures(conn)?;
    Ok(conditions(&f, s))
}

/// What the conditions compare, read from the tables.
struct Figures {
    branches: i64,
    tellers: i64,
    accounts: i64,
    b_sum: i64,
    t_sum: i64,
    a_sum: i64,
    /// Branches whose balance differs from their tellers' sum.
    per_branch: i64,
    /// History deltas of TPC-B transactions.
    h_tpcb: i64,
    /// History deltas of TPC-B and simple-update transactions.
    h_accounts: i64,
    h_rows: i64,
}

/// Counts and sums of the four tables.
fn read_figures(conn: &mut Conn) -> Result<Figures> {
    let q = |conn: &mut Conn, sql: &str| -> Result<i64> {
        let v: Option<Option<i64>> = conn.query_first(sql).with_context(|| sql.to_string())?;
        Ok(v.flatten().unwrap_or(0))
    };
    let branches = q(conn, "SELECT COUNT(*) FROM pgbench_branches")?;
    let tellers = q(conn, "SELECT COUNT(*) FROM pgbench_tellers")?;
    let accounts = q(conn, "SELECT COUNT(*) FROM pgbench_accounts")?;
    let b_sum = q(conn, "SELECT SUM(bbalance) FROM pgbench_branches")?;
    let t_sum = q(conn, "SELECT SUM(tbalance) FROM pgbench_tellers")?;
    let a_sum = q(conn, "SELECT SUM(abalance) FROM pgbench_accounts")?;
    let per_branch = q(
        conn,
        "SELECT COUNT(*) FROM pgbench_branches b LEFT JOIN \
         (SELECT bid, SUM(tbalance) s FROM pgbench_tellers GROUP BY bid) t ON t.bid = b.bid \
         WHERE b.bbalance <> COALESCE(t.s, 0)",
    )?;
    // A history row without a mark is pgbench's own (its default script is TPC-B's); CHAR
    // pads on PostgreSQL, hence TRIM.
    let by_mark: Vec<(String, i64, Option<i64>)> = conn.query(
        "SELECT COALESCE(TRIM(filler), 'tpcb'), COUNT(*), SUM(delta) FROM pgbench_history \
         GROUP BY COALESCE(TRIM(filler), 'tpcb')",
    )?;
    let deltas = |marks: &[Variant]| -> i64 {
        by_mark
            .iter()
            .filter(|(m, _, _)| marks.iter().any(|v| v.mark() == m))
            .map(|(_, _, d)| d.unwrap_or(0))
            .sum()
    };
    let h_tpcb = deltas(&[Variant::Tpcb]);
    let h_accounts = deltas(&[Variant::Tpcb, Variant::SimpleUpdate]);
    let h_rows: i64 = by_mark.iter().map(|(_, n, _)| n).sum();
    Ok(Figures {
        branches,
        tellers,
        accounts,
        b_sum,
        t_sum,
        a_sum,
        per_branch,
        h_tpcb,
        h_accounts,
        h_rows,
    })
}

/// The six conditions, from the figures and what txbench committed since prepare.
fn conditions(f: &Figures, s: &State) -> Vec<Condition> {
    let Figures {
        branches,
        tellers,
        accounts,
        b_sum,
        t_sum,
        a_sum,
        per_branch,
        h_tpcb,
        h_accounts,
        h_rows,
    } = *f;
    let scale = i64::from(s.scale);
    let unequal = |a: i64, b: i64| u64::from(a != b);
    let (lo, hi) = (s.history_committed, s.history_committed + s.in_doubt);
    vec![
        Condition {
            number: 1,
            description: format!(
                "rows: {TELLERS} tellers and {ACCOUNTS} accounts per branch, {scale} branch(es)"
            ),
            violations: [
                (branches, scale),
                (tellers, scale * i64::from(TELLERS)),
                (accounts, scale * i64::from(ACCOUNTS)),
            ]
            .iter()
            .filter(|(have, want)| have != want)
            .count() as u64,
            applies: true,
            detail: format!("{branches} branches, {tellers} tellers, {accounts} accounts"),
        },
        Condition {
            number: 2,
            description: "sum of branch balances = sum of teller balances".into(),
            violations: unequal(b_sum, t_sum),
            applies: true,
            detail: format!("branches {b_sum}, tellers {t_sum}"),
        },
        Condition {
            number: 3,
            description: "each branch balance = sum of its tellers' balances".into(),
            violations: per_branch as u64,
            applies: true,
            detail: format!("{per_branch} branch(es) differ"),
        },
        Condition {
            number: 4,
            description: "sum of teller balances = sum of history deltas of TPC-B transactions"
                .into(),
            violations: unequal(t_sum, h_tpcb),
            applies: true,
            detail: format!("tellers {t_sum}, history {h_tpcb}"),
        },
        Condition {
            number: 5,
            description:
                "sum of account balances = sum of history deltas of TPC-B and simple-update transactions"
                    .into(),
            violations: unequal(a_sum, h_accounts),
            applies: true,
            detail: format!("accounts {a_sum}, history {h_accounts}"),
        },
        Condition {
            number: 6,
            description: "history rows = transactions txbench committed since prepare".into(),
            violations: u64::from(!(lo..=hi).contains(&(h_rows as u64))),
            applies: true,
            detail: if s.in_doubt > 0 {
                format!(
                    "history {h_rows} rows, committed {lo} and {} in doubt (COMMIT lost its connection)",
                    s.in_doubt
                )
            } else if h_rows as u64 != lo {
                format!(
                    "history {h_rows} rows, committed {lo} (a run that did not finish records none)"
                )
            } else {
                format!("history {h_rows} rows, committed {lo}")
            },
        },
    ]
}
