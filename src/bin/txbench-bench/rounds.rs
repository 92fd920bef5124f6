//! A peer against txbench in rounds of theirs, ours, ours, theirs (neither always inherits
//! the other's dirty pages): on these VMs one pair of runs varies by ±10 %, so a comparison
//! of a few per cent needs several rounds and states its interval.

use super::*;

/// Rounds per comparison: `var` (`BENCH_LUA_ROUNDS`, `BENCH_SCRIPT_ROUNDS`), else
/// `BENCH_ROUNDS`, else 3.
pub(super) fn rounds(var: &str) -> usize {
    let given = |v: &str| bench_env(v).filter(|&n: &usize| n > 0);
    given(var).or_else(|| given("BENCH_ROUNDS")).unwrap_or(3)
}

/// Every run of both, and the ratio of client CPU per transaction, ours over theirs.
pub(super) struct SideBySide {
    pub(super) theirs: Vec<Sample>,
    pub(super) ours: Vec<Sample>,
    /// The mean of the rounds' ratios, − 1, in %.
    pub(super) pct: f64,
    /// Its 95 % confidence half-width, in % (NaN with one round).
    pub(super) half: f64,
}

/// Client CPU seconds per 1,000 transactions over `s`.
pub(super) fn cpu_per_1000(s: &[Sample]) -> f64 {
    s.iter().map(|x| x.cpu_s).sum::<f64>() / s.iter().map(|x| x.txn).sum::<f64>().max(1.0) * 1000.0
}

/// Transactions per second over `s`, runs of `secs` seconds each.
pub(super) fn tps(s: &[Sample], secs: u32) -> f64 {
    s.iter().map(|x| x.txn).sum::<f64>() / f64::from(secs) / s.len().max(1) as f64
}

/// `n` rounds of theirs, ours, ours, theirs; each round's ratio from its two runs a tool.
pub(super) fn side_by_side(
    n: usize,
    mut theirs: impl FnMut() -> Result<Sample>,
    mut ours: impl FnMut() -> Result<Sample>,
) -> Result<SideBySide> {
    let mut out = SideBySide {
        theirs: Vec::new(),
        ours: Vec::new(),
        pct: f64::NAN,
        half: f64::NAN,
    };
    let (mut t_r, mut o_r) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let (t1, o1, o2, t2) = (theirs()?, ours()?, ours()?, theirs()?);
        let (t, o) = ([t1, t2], [o1, o2]);
        t_r.push(cpu_per_1000(&t));
        o_r.push(cpu_per_1000(&o));
        out.theirs.extend(t);
        out.ours.extend(o);
    }
    (out.pct, out.half) = super::sampling::paired(&o_r, &t_r);
    Ok(out)
}

impl SideBySide {
    /// "1.02× ± 0.05": the ratio and its half-width.
    pub(super) fn ratio(&self) -> String {
        format!("{:.2}× ± {:.2}", 1.0 + self.pct / 100.0, self.half / 100.0)
    }
}
