//! Simulated measurements for the statistics' tests (compiled for tests only): deterministic
//! noise, so the tests need no random crate, and A-against-B experiments in blocks with the
//! drift and noise seen on shared machines.

/// Uniform noise in -1..1 (an LCG).
pub fn noise(seed: &mut u64) -> f64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}

/// A normal deviate (Box-Muller).
pub fn gauss(seed: &mut u64) -> f64 {
    let u = (noise(seed) + 1.0) / 2.0;
    let v = (noise(seed) + 1.0) / 2.0;
    (-2.0 * u.max(1e-12).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// The shape of a simulated experiment, BASE against NEW = BASE × (1 + `effect`): each block
/// drifts from the last by `drift` (a random walk, log scale: the machine's neighbours, its
/// page cache, the time of day), each cell has noise `cv`, and the second cell of a block
/// drifts `within` further.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Drift between blocks (log scale, standard deviation of a step).
    pub drift: f64,
    /// Drift between a block's two cells.
    pub within: f64,
    /// Noise of a cell.
    pub cv: f64,
    /// NEW's true change, as a fraction.
    pub effect: f64,
}

impl Shape {
    /// The next block's (BASE, NEW), `level` the random walk's state.
    pub fn block(&self, seed: &mut u64, level: &mut f64) -> (f64, f64) {
        *level += self.drift * gauss(seed);
        let first = 1000.0 * (*level + self.cv * gauss(seed)).exp();
        let second = 1000.0 * (*level + self.within * gauss(seed) + self.cv * gauss(seed)).exp();
        // The schedule puts either variant first.
        if noise(seed) < 0.0 {
            (first, second * (1.0 + self.effect))
        } else {
            (second, first * (1.0 + self.effect))
        }
    }
}

/// One block of `pairs`, drawn at random, disturbed: the cell of a random side moved by
/// `size` (log scale, either way), as a neighbour's burst moves one cell (none for 0).
pub fn disturb(seed: &mut u64, pairs: &mut [(f64, f64)], size: f64) {
    if size == 0.0 || pairs.is_empty() {
        return;
    }
    let i = (((noise(seed) + 1.0) / 2.0 * pairs.len() as f64) as usize).min(pairs.len() - 1);
    let f = (if noise(seed) < 0.0 { -size } else { size }).exp();
    if noise(seed) < 0.0 {
        pairs[i].0 *= f;
    } else {
        pairs[i].1 *= f;
    }
}

/// A measured interval row of `tps` from `start_s` to `end_s`, every latency `p95_ms`, in
/// `phase`; nothing else recorded.
pub fn interval_row(
    phase: crate::results::Phase,
    start_s: f64,
    end_s: f64,
    tps: f64,
    p95_ms: f64,
) -> crate::results::IntervalRow {
    crate::results::IntervalRow {
        phase,
        start_s,
        end_s,
        threads: 4,
        transactions: (tps * (end_s - start_s)) as u64,
        tps,
        qps: 0.0,
        reads_ps: 0.0,
        writes_ps: 0.0,
        other_ps: 0.0,
        p95_ms,
        p99_ms: p95_ms,
        service_p99_ms: p95_ms,
        errors: 0,
        unexpected_errors: 0,
        failed_after_retries: 0,
        err_ps: 0.0,
        reconn_ps: 0.0,
        errors_by_class: Default::default(),
        kinds: Vec::new(),
        client_cpu_pct: 0.0,
        targets: Vec::new(),
    }
}
