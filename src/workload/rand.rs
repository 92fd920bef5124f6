//! Random inputs: sysbench's id distributions (uniform, gaussian, special, pareto,
//! zipfian, ported from its sb_rand.c so `--rand-type` means the same), string templates
//! (`#` a digit, `@` a letter), and TPC-C's generators (clause 2.1.6 NURand, 4.3.2 strings,
//! last names and zip codes).

use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};

/// The per-worker random generator (xoshiro256++, cheap and seedable).
pub type WorkerRng = SmallRng;

/// A generator for worker `worker` of a run seeded with `seed`: reproducible per worker.
pub fn worker_rng(seed: u64, worker: u64) -> WorkerRng {
    // Spread worker numbers so neighbouring workers do not get related streams.
    SmallRng::seed_from_u64(seed ^ worker.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// `--rand-type` and its parameters.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Distribution {
    /// Every id equally likely.
    Uniform,
    /// Mean of 12 uniforms (sysbench's `rand-spec-iter`).
    Gaussian,
    /// `res` % of values in the middle `pct` % of the range, the rest gaussian.
    Special {
        /// `--rand-spec-pct`.
        pct: f64,
        /// `--rand-spec-res`.
        res: f64,
    },
    /// Pareto with `--rand-pareto-h`.
    Pareto {
        /// `--rand-pareto-h`.
        h: f64,
    },
    /// Zipf with `--rand-zipfian-exp` (rejection-inversion sampling).
    Zipfian {
        /// `--rand-zipfian-exp`.
        exp: f64,
    },
}

const SPEC_ITER: u32 = 12;

/// A ready-to-sample distribution over `[a, b]` (constants precomputed).
#[derive(Debug, Clone, Copy)]
pub struct IdDist {
    dist: Distribution,
    pareto_power: f64,
    zipf_s: f64,
    zipf_hx1: f64,
}

impl IdDist {
    /// Precomputes what `dist` needs.
    pub fn new(dist: Distribution) -> IdDist {
        let (mut pareto_power, mut zipf_s, mut zipf_hx1) = (0.0, 0.0, 0.0);
        match dist {
            Distribution::Pareto { h } => pareto_power = h.ln() / (1.0 - h).ln(),
            Distribution::Zipfian { exp } => {
                zipf_s = 2.0 - h_integral_inverse(h_integral(2.5, exp) - h(2.0, exp), exp);
                zipf_hx1 = h_integral(1.5, exp) - 1.0;
            }
            _ => {}
        }
        IdDist {
            dist,
            pareto_power,
            zipf_s,
            zipf_hx1,
        }
    }

    /// The distribution.
    pub fn distribution(&self) -> Distribution {
        self.dist
    }

    /// A value in `[a, b]` (both inclusive, `a <= b`).
    pub fn sample(&self, rng: &mut WorkerRng, a: u32, b: u32) -> u32 {
        let v = match self.dist {
            Distribution::Uniform => uniform(rng, a, b),
            Distribution::Gaussian => {
                let t = f64::from(b - a) + 1.0;
                let sum: f64 = (0..SPEC_ITER).map(|_| rng.random::<f64>() * t).sum();
                a + (sum / f64::from(SPEC_ITER)) as u32
            }
            Distribution::Special { pct, res } => {
                let t = f64::from(b - a);
                let range_size = t * (100.0 / (100.0 - res));
                let rnd: f64 = rng.random();
                if rnd * range_size < t {
                    let sum: f64 = (0..SPEC_ITER).map(|_| rng.random::<f64>()).sum();
                    a + (sum * t / f64::from(SPEC_ITER)) as u32
                } else {
                    let d = t * pct / 100.0;
                    let r = rnd * (d + 1.0) + t / 2.0 - t * pct / 200.0;
                    a + r as u32
                }
            }
            Distribution::Pareto { .. } => {
                let t = f64::from(b - a) + 1.0;
                a + (t * rng.random::<f64>().powf(self.pareto_power)) as u32
            }
            Distribution::Zipfian { exp } => {
                a + zipf(rng, b - a + 1, exp, self.zipf_s, self.zipf_hx1) - 1
            }
        };
        v.clamp(a, b)
    }
}

/// A uniform value in `[a, b]`, both inclusive.
pub fn uniform(rng: &mut WorkerRng, a: u32, b: u32) -> u32 {
    rng.random_range(a..=b)
}

fn zipf(rng: &mut WorkerRng, n: u32, e: f64, s: f64, hx1: f64) -> u32 {
    let hn = h_integral(f64::from(n) + 0.5, e);
    loop {
        let u = hn + rng.random::<f64>() * (hx1 - hn);
        let x = h_integral_inverse(u, e);
        let k = ((x + 0.5) as u32).clamp(1, n);
        if f64::from(k) - x <= s || u >= h_integral(f64::from(k) + 0.5, e) - h(f64::from(k), e) {
            return k;
        }
    }
}

fn h_integral(x: f64, e: f64) -> f64 {
    let log_x = x.ln();
    helper2((1.0 - e) * log_x) * log_x
}

fn h(x: f64, e: f64) -> f64 {
    (-e * x.ln()).exp()
}

fn h_integral_inverse(x: f64, e: f64) -> f64 {
    let t = (x * (1.0 - e)).max(-1.0);
    (helper1(t) * x).exp()
}

fn helper1(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.ln_1p() / x
    } else {
        1.0 - x * (0.5 - x * (0.333_333_333_333_333_3 - 0.25 * x))
    }
}

fn helper2(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.exp_m1() / x
    } else {
        1.0 + x * 0.5 * (1.0 + x * 0.333_333_333_333_333_3 * (1.0 + 0.25 * x))
    }
}

/// Fills `buf` from `template`: `#` becomes a random digit, `@` a random lower-case
/// letter, anything else is copied (sysbench's `sysbench.rand.string`).
pub fn fill_template(rng: &mut WorkerRng, template: &[u8], buf: &mut Vec<u8>) {
    buf.clear();
    let mut bits = Bits::new(rng);
    buf.extend(template.iter().map(|&c| match c {
        b'#' => bits.pick(DIGITS),
        b'@' => bits.pick(LOWER),
        other => other,
    }));
}

/// Characters drawn a few bits at a time from one 64-bit draw: a character of an alphabet
/// of up to 2^k takes k bits, and a value past the alphabet is drawn again (uniform, no
/// modulo bias). A ranged draw per character was two thirds of a TPC-C load's client time.
struct Bits<'a> {
    rng: &'a mut WorkerRng,
    word: u64,
    left: u32,
}

impl<'a> Bits<'a> {
    fn new(rng: &'a mut WorkerRng) -> Bits<'a> {
        Bits {
            rng,
            word: 0,
            left: 0,
        }
    }

    /// One character of `alphabet` (at most 64 of them).
    fn pick(&mut self, alphabet: &[u8]) -> u8 {
        let k = usize::BITS - (alphabet.len() - 1).leading_zeros();
        loop {
            if self.left < k {
                self.word = self.rng.next_u64();
                self.left = u64::BITS;
            }
            let i = (self.word & ((1 << k) - 1)) as usize;
            self.word >>= k;
            self.left -= k;
            if i < alphabet.len() {
                return alphabet[i];
            }
        }
    }

    /// Appends `n` characters of `alphabet` to `out`. A plain loop: the iterator adapters it
    /// replaced were a third of a debug build's client time in a TPC-C load (the tests').
    fn append(&mut self, alphabet: &[u8], n: u32, out: &mut Vec<u8>) {
        out.reserve(n as usize);
        for _ in 0..n {
            out.push(self.pick(alphabet));
        }
    }
}

/// TPC-C clause 2.1.6: `NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x`.
pub fn nurand(rng: &mut WorkerRng, a: u32, c: u32, x: u32, y: u32) -> u32 {
    (((uniform(rng, 0, a) | uniform(rng, x, y)) + c) % (y - x + 1)) + x
}

/// Clause 2.1.6.1: the run-time C of C_LAST must differ from the load-time C by a delta in
/// [65, 119], excluding 96 and 112.
pub fn valid_c_last_delta(c_load: u32, c_run: u32) -> bool {
    let delta = c_load.abs_diff(c_run);
    (65..=119).contains(&delta) && delta != 96 && delta != 112
}

/// A run-time C for C_LAST in [0, 255] that honours the delta rule against `c_load`.
pub fn c_last_for_run(rng: &mut WorkerRng, c_load: u32) -> u32 {
    loop {
        let c = uniform(rng, 0, 255);
        if valid_c_last_delta(c_load, c) {
            return c;
        }
    }
}

/// Clause 4.3.2.3: the ten syllables of C_LAST.
pub const SYLLABLES: [&str; 10] = [
    "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING",
];

/// Clause 4.3.2.3: C_LAST for a number in [0, 999], one syllable per decimal digit.
pub fn last_name(num: u32, out: &mut Vec<u8>) {
    out.clear();
    for digit in [num / 100 % 10, num / 10 % 10, num % 10] {
        out.extend_from_slice(SYLLABLES[digit as usize].as_bytes());
    }
}

const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const DIGITS: &[u8] = b"0123456789";
const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";

/// Clause 4.3.2.2: a random a-string of a random length in [min, max] (letters and digits:
/// nothing that needs escaping in SQL, CSV or LOAD DATA).
pub fn a_string(rng: &mut WorkerRng, min: u32, max: u32, out: &mut Vec<u8>) {
    out.clear();
    let len = uniform(rng, min, max);
    Bits::new(rng).append(ALNUM, len, out);
}

/// Clause 4.3.2.2: a random n-string (digits) of a random length in [min, max].
pub fn n_string(rng: &mut WorkerRng, min: u32, max: u32, out: &mut Vec<u8>) {
    out.clear();
    let len = uniform(rng, min, max);
    Bits::new(rng).append(DIGITS, len, out);
}

/// Clause 4.3.2.7: four random digits followed by "11111".
pub fn zip(rng: &mut WorkerRng, out: &mut Vec<u8>) {
    n_string(rng, 4, 4, out);
    out.extend_from_slice(b"11111");
}

/// Clause 4.3.3.1: I_DATA / S_DATA, an a-string [26, 50]; for 10 % of rows "ORIGINAL"
/// replaces 8 characters at a random position.
pub fn data_with_original(rng: &mut WorkerRng, out: &mut Vec<u8>) {
    a_string(rng, 26, 50, out);
    if uniform(rng, 1, 10) == 1 {
        let at = uniform(rng, 0, out.len() as u32 - 8) as usize;
        out[at..at + 8].copy_from_slice(b"ORIGINAL");
    }
}

/// Clause 4.3.2.6: the numbers 1..=n in random order.
pub fn permutation(rng: &mut WorkerRng, n: u32) -> Vec<u32> {
    use rand::seq::SliceRandom;
    let mut v: Vec<u32> = (1..=n).collect();
    v.shuffle(rng);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn histogram(d: Distribution, n: u32, draws: usize) -> Vec<usize> {
        let dist = IdDist::new(d);
        let mut rng = worker_rng(7, 0);
        let mut h = vec![0usize; n as usize + 1];
        for _ in 0..draws {
            let v = dist.sample(&mut rng, 1, n);
            assert!((1..=n).contains(&v), "{d:?} gave {v}");
            h[v as usize] += 1;
        }
        h
    }

    #[test]
    fn uniform_is_flat() {
        let h = histogram(Distribution::Uniform, 10, 100_000);
        for c in &h[1..] {
            assert!((9_000..11_000).contains(c), "{h:?}");
        }
    }

    #[test]
    fn gaussian_peaks_in_the_middle() {
        let h = histogram(Distribution::Gaussian, 100, 100_000);
        let middle: usize = h[40..=60].iter().sum();
        let edges: usize = h[1..=20].iter().sum::<usize>() + h[81..=100].iter().sum::<usize>();
        assert!(middle > 20 * edges.max(1), "middle {middle} edges {edges}");
    }

    #[test]
    fn special_puts_res_percent_into_pct_percent_of_the_range() {
        // sysbench 1.0.20 defaults: 75 % of values within 1 % of the range.
        let n = 10_000;
        let h = histogram(
            Distribution::Special {
                pct: 1.0,
                res: 75.0,
            },
            n,
            200_000,
        );
        let lo = (n / 2 - n / 200) as usize;
        let hi = (n / 2 + n / 200 + 1) as usize;
        let hot: usize = h[lo..=hi].iter().sum();
        let share = hot as f64 / 200_000.0;
        assert!((0.74..0.80).contains(&share), "hot share {share}");
    }

    #[test]
    fn pareto_and_zipfian_favour_low_ids() {
        for d in [
            Distribution::Pareto { h: 0.2 },
            Distribution::Zipfian { exp: 0.8 },
        ] {
            let h = histogram(d, 1000, 100_000);
            let low: usize = h[1..=100].iter().sum();
            assert!(low > 40_000, "{d:?}: {low} of 100000 in the lowest tenth");
        }
    }

    #[test]
    fn zipf_exponent_one_and_zero_work() {
        let h = histogram(Distribution::Zipfian { exp: 1.0 }, 100, 50_000);
        assert!(h[1] > h[2] && h[2] > h[10]);
        let flat = histogram(Distribution::Zipfian { exp: 0.0 }, 10, 50_000);
        assert!(
            flat[1..].iter().all(|c| (4_000..6_000).contains(c)),
            "{flat:?}"
        );
    }

    #[test]
    fn templates_keep_their_shape() {
        let mut rng = worker_rng(1, 2);
        let mut buf = Vec::new();
        fill_template(&mut rng, b"###-@@", &mut buf);
        assert_eq!(buf.len(), 6);
        assert!(buf[..3].iter().all(u8::is_ascii_digit));
        assert_eq!(buf[3], b'-');
        assert!(buf[4..].iter().all(u8::is_ascii_lowercase));
    }

    #[test]
    fn strings_draw_every_character_of_their_alphabet_evenly() {
        let mut rng = worker_rng(7, 0);
        for (alphabet, fill) in [
            (
                ALNUM,
                a_string as fn(&mut WorkerRng, u32, u32, &mut Vec<u8>),
            ),
            (DIGITS, n_string),
        ] {
            let mut seen = [0u32; 256];
            let mut buf = Vec::new();
            for _ in 0..2000 {
                fill(&mut rng, 20, 40, &mut buf);
                assert!((20..=40).contains(&buf.len()), "{}", buf.len());
                for &c in &buf {
                    seen[c as usize] += 1;
                }
            }
            let total: u32 = seen.iter().sum();
            let expected = f64::from(total) / alphabet.len() as f64;
            for (c, &n) in seen.iter().enumerate() {
                if alphabet.contains(&(c as u8)) {
                    // 60,000 draws: about 1,000 a character for 62, 6,000 for 10.
                    let off = (f64::from(n) - expected).abs() / expected;
                    assert!(off < 0.15, "{:?}: {n} against {expected}", c as u8 as char);
                } else {
                    assert_eq!(n, 0, "{:?} is not in the alphabet", c as u8 as char);
                }
            }
        }
    }

    #[test]
    fn workers_get_different_reproducible_streams() {
        let a: Vec<u32> = (0..5).map(|_| 0).collect::<Vec<_>>();
        let mut r1 = worker_rng(42, 0);
        let mut r2 = worker_rng(42, 0);
        let mut r3 = worker_rng(42, 1);
        let s1: Vec<u32> = a
            .iter()
            .map(|_| uniform(&mut r1, 0, u32::MAX - 1))
            .collect();
        let s2: Vec<u32> = a
            .iter()
            .map(|_| uniform(&mut r2, 0, u32::MAX - 1))
            .collect();
        let s3: Vec<u32> = a
            .iter()
            .map(|_| uniform(&mut r3, 0, u32::MAX - 1))
            .collect();
        assert_eq!(s1, s2);
        assert_ne!(s1, s3);
    }

    #[test]
    fn nurand_stays_in_range_and_skews() {
        let mut rng = worker_rng(5, 0);
        let mut hits = vec![0u32; 3001];
        for _ in 0..300_000 {
            let v = nurand(&mut rng, 1023, 259, 1, 3000);
            assert!((1..=3000).contains(&v));
            hits[v as usize] += 1;
        }
        // Non-uniform: the busiest id is drawn far more often than the average (100).
        assert!(
            *hits.iter().max().unwrap() > 300,
            "max {}",
            hits.iter().max().unwrap()
        );
        for _ in 0..10_000 {
            let v = nurand(&mut rng, 255, 77, 0, 999);
            assert!(v <= 999);
            let v = nurand(&mut rng, 8191, 4000, 1, 100_000);
            assert!((1..=100_000).contains(&v));
        }
    }

    #[test]
    fn c_last_delta_rule() {
        assert!(
            valid_c_last_delta(0, 65) && valid_c_last_delta(200, 81) && valid_c_last_delta(0, 119)
        );
        assert!(!valid_c_last_delta(0, 64) && !valid_c_last_delta(0, 120));
        assert!(!valid_c_last_delta(10, 106) && !valid_c_last_delta(122, 10)); // 96 and 112
        let mut rng = worker_rng(9, 0);
        for c_load in 0..=255 {
            let c = c_last_for_run(&mut rng, c_load);
            assert!(c <= 255 && valid_c_last_delta(c_load, c), "{c_load} -> {c}");
        }
    }

    #[test]
    fn last_names_follow_the_syllables() {
        let mut out = Vec::new();
        last_name(371, &mut out);
        assert_eq!(out, b"PRICALLYOUGHT");
        last_name(40, &mut out);
        assert_eq!(out, b"BARPRESBAR");
        last_name(999, &mut out);
        assert_eq!(out, b"EINGEINGEING");
        last_name(0, &mut out);
        assert_eq!(out, b"BARBARBAR");
    }

    #[test]
    fn strings_have_their_lengths_and_alphabets() {
        let mut rng = worker_rng(3, 1);
        let mut out = Vec::new();
        let mut lens = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            a_string(&mut rng, 8, 16, &mut out);
            assert!((8..=16).contains(&out.len()));
            assert!(out.iter().all(u8::is_ascii_alphanumeric));
            lens.insert(out.len());
            n_string(&mut rng, 16, 16, &mut out);
            assert!(out.len() == 16 && out.iter().all(u8::is_ascii_digit));
        }
        assert_eq!(lens.len(), 9, "every length from 8 to 16 occurs");
        zip(&mut rng, &mut out);
        assert_eq!(out.len(), 9);
        assert!(out.ends_with(b"11111") && out[..4].iter().all(u8::is_ascii_digit));
    }

    #[test]
    fn about_ten_percent_original() {
        let mut rng = worker_rng(4, 4);
        let mut out = Vec::new();
        let n = 20_000;
        let with = (0..n)
            .filter(|_| {
                data_with_original(&mut rng, &mut out);
                assert!((26..=50).contains(&out.len()));
                out.windows(8).any(|w| w == b"ORIGINAL")
            })
            .count();
        let share = with as f64 / n as f64;
        assert!((0.09..0.11).contains(&share), "{share}");
    }

    #[test]
    fn permutations_hold_every_number_once() {
        let mut rng = worker_rng(2, 2);
        let mut p = permutation(&mut rng, 3000);
        assert_ne!(p[..10], (1..=10).collect::<Vec<u32>>()[..]);
        p.sort_unstable();
        assert_eq!(p, (1..=3000).collect::<Vec<u32>>());
    }
}
