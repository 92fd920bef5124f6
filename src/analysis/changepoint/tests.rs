//! Unit tests of the change-point detection, on series made here.

use super::*;
use rand::Rng;

/// A series of `n` points around 1000 with `noise` (relative, uniform ±) from `seed`, times
/// `1 + step` from `at` on.
fn series(n: usize, at: usize, step: f64, noise: f64, seed: u64) -> Vec<f64> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let level = if i >= at {
                1000.0 * (1.0 + step)
            } else {
                1000.0
            };
            level * (1.0 + rng.random_range(-noise..=noise))
        })
        .collect()
}

/// The statistic by its definition, pair by pair.
fn q_naive(x: &[f64], tau: usize) -> f64 {
    let (a, b) = x.split_at(tau);
    let (m, k) = (a.len() as f64, b.len() as f64);
    let mut between = 0.0;
    for p in a {
        for q in b {
            between += (p - q).abs();
        }
    }
    let pairs = |v: &[f64]| {
        let mut s = 0.0;
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                s += (v[i] - v[j]).abs();
            }
        }
        s
    };
    let e = 2.0 * between / (m * k)
        - pairs(a) / (m * (m - 1.0) / 2.0)
        - pairs(b) / (k * (k - 1.0) / 2.0);
    m * k / (m + k) * e
}

#[test]
fn the_fast_statistic_is_the_definition() {
    for seed in 0..20 {
        let x = series(7 + seed as usize, 4, 0.2, 0.1, seed);
        let (tau, q) = best_split(&x, 2).unwrap();
        let naive = (2..=x.len() - 2)
            .map(|t| (t, q_naive(&x, t)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        assert_eq!(tau, naive.0, "{x:?}");
        assert!(
            (q - naive.1).abs() < 1e-6 * naive.1.abs().max(1.0),
            "{q} {}",
            naive.1
        );
    }
}

#[test]
fn a_step_is_found_where_it_starts_with_its_size() {
    let x = series(20, 12, -0.10, 0.03, 7);
    let c = changes(&x, &Options::default());
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].index, 12);
    assert!((c[0].step_pct + 10.0).abs() < 3.0, "{c:?}");
    let (lo, hi) = c[0].interval_pct.unwrap();
    assert!(
        lo < c[0].step_pct && c[0].step_pct < hi && hi < 0.0,
        "{c:?}"
    );
    // Two steps, both found.
    let mut y = series(30, 10, 0.10, 0.02, 8);
    for v in &mut y[20..] {
        *v *= 0.85;
    }
    let c = changes(&y, &Options::default());
    let at: Vec<usize> = c.iter().map(|c| c.index).collect();
    assert_eq!(at, [10, 20], "{c:?}");
}

#[test]
fn a_lone_outlier_is_rarely_a_change_and_a_short_series_never() {
    // One run in 16 a third low, 100 series: the permutation test sees one point's
    // distance, not a level that moved; alarms stay near the test's 5 %.
    let alarms = (0..100)
        .filter(|s| {
            let mut y = series(16, 16, 0.0, 0.03, 500 + s);
            y[(*s as usize) % 16] *= 0.7;
            !changes(&y, &Options::default()).is_empty()
        })
        .count();
    assert!(alarms <= 10, "{alarms} of 100");
    // Too short to split into two segments of three.
    assert!(changes(&[1.0, 2.0, 3.0, 9.0, 9.0], &Options::default()).is_empty());
}

#[test]
fn false_alarms_on_noise_stay_near_the_significance() {
    // 200 clean series of 16: the test is at 5 %, and splitting again adds a little.
    let alarms = (0..200)
        .filter(|s| !changes(&series(16, 16, 0.0, 0.05, 1000 + s), &Options::default()).is_empty())
        .count();
    assert!(alarms <= 20, "{alarms} of 200");
}

/// Simulated series of 20 runs, 1,000 per shape: the detection rate of steps of 3, 5 and
/// 10 % at the 11th run, and the false-alarm rate of clean series (with noise as this
/// machine's repeated runs show, 3 % and 5 %; with outliers: one run in 20 a fifth low)
/// and of a slow drift. Run in release for its figures (`make bench` does):
/// `cargo test --release --lib changepoint::tests::simulation -- --ignored --nocapture`.
#[test]
#[ignore = "1,000 series per shape: seconds in release, minutes in debug"]
fn simulation() {
    use rand::Rng;
    #[derive(Clone, Copy)]
    struct Sim {
        name: &'static str,
        step: f64,
        cv: f64,
        outliers: f64,
        drift: f64,
    }
    let shapes = [
        Sim {
            name: "clean, 3 % noise",
            step: 0.0,
            cv: 0.03,
            outliers: 0.0,
            drift: 0.0,
        },
        Sim {
            name: "clean, 5 % noise",
            step: 0.0,
            cv: 0.05,
            outliers: 0.0,
            drift: 0.0,
        },
        Sim {
            name: "clean, 3 % noise, outliers",
            step: 0.0,
            cv: 0.03,
            outliers: 0.05,
            drift: 0.0,
        },
        Sim {
            name: "drift 1 %/run, 3 % noise",
            step: 0.0,
            cv: 0.03,
            outliers: 0.0,
            drift: 0.01,
        },
        Sim {
            name: "step -3 %, 3 % noise",
            step: -0.03,
            cv: 0.03,
            outliers: 0.0,
            drift: 0.0,
        },
        Sim {
            name: "step -5 %, 3 % noise",
            step: -0.05,
            cv: 0.03,
            outliers: 0.0,
            drift: 0.0,
        },
        Sim {
            name: "step -10 %, 3 % noise",
            step: -0.10,
            cv: 0.03,
            outliers: 0.0,
            drift: 0.0,
        },
        Sim {
            name: "step -10 %, 5 % noise, outliers",
            step: -0.10,
            cv: 0.05,
            outliers: 0.05,
            drift: 0.0,
        },
    ];
    const N: usize = 1000;
    const LEN: usize = 20;
    const AT: usize = 10;
    let o = Options::default();
    println!("shape                              any change   found at 10 ± 1   mean |step error|");
    for (k, sh) in shapes.iter().enumerate() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(77 + k as u64);
        let (mut any, mut found, mut err) = (0usize, 0usize, 0.0);
        for _ in 0..N {
            let mut level = 0.0f64;
            let x: Vec<f64> = (0..LEN)
                .map(|i| {
                    level += sh.drift;
                    let g: f64 = {
                        // Box-Muller from two uniforms.
                        let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-12), rng.random());
                        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
                    };
                    let mut y = 1000.0 * (level + sh.cv * g).exp();
                    if i >= AT {
                        y *= 1.0 + sh.step;
                    }
                    if rng.random::<f64>() < sh.outliers {
                        y *= 0.8;
                    }
                    y
                })
                .collect();
            let c = changes(&x, &o);
            if !c.is_empty() {
                any += 1;
            }
            if let Some(hit) = c.iter().find(|c| c.index.abs_diff(AT) <= 1) {
                found += 1;
                err += (hit.step_pct - sh.step * 100.0).abs();
            }
        }
        println!(
            "{:<34} {:>8.1} %   {:>12.1} %   {:>10.2} points",
            sh.name,
            any as f64 / N as f64 * 100.0,
            found as f64 / N as f64 * 100.0,
            if found > 0 {
                err / found as f64
            } else {
                f64::NAN
            }
        );
        if sh.step == 0.0 && sh.drift == 0.0 && sh.outliers == 0.0 {
            assert!(
                any as f64 / N as f64 <= 0.06,
                "{}: {any} false alarms in {N}",
                sh.name
            );
        }
        if sh.step <= -0.10 && sh.outliers == 0.0 {
            assert!(
                found as f64 / N as f64 >= 0.9,
                "{}: found {found} of {N}",
                sh.name
            );
        }
    }
}
