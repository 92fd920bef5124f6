//! pgbench's built-in scripts (`-b`), with pgbench's names and text: they run on the tables
//! `txbench prepare tpcb` creates.

/// The built-in scripts: name and text.
pub const BUILTINS: [(&str, &str); 3] = [
    ("tpcb-like", TPCB_LIKE),
    ("simple-update", SIMPLE_UPDATE),
    ("select-only", SELECT_ONLY),
];

/// pgbench's default, "TPC-B (sort of)".
const TPCB_LIKE: &str = "\
\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
";

/// pgbench -N: the tellers' and branches' updates left out.
const SIMPLE_UPDATE: &str = "\
\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
";

/// pgbench -S: one autocommitting SELECT.
const SELECT_ONLY: &str = "\
\\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
";

/// The built-in script called `name` (or a prefix of exactly one name, as pgbench allows).
pub fn named(name: &str) -> Result<(&'static str, &'static str), String> {
    if let Some(b) = BUILTINS.iter().find(|(n, _)| *n == name) {
        return Ok(*b);
    }
    let found: Vec<_> = BUILTINS
        .iter()
        .filter(|(n, _)| n.starts_with(name))
        .collect();
    match found[..] {
        [b] if !name.is_empty() => Ok(*b),
        _ => Err(format!(
            "no built-in script '{name}' (tpcb-like, simple-update or select-only)"
        )),
    }
}
