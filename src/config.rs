//! Validated, serde-able run configuration, stored in every result.json.

use serde::{Deserialize, Serialize};

/// Arrival process of an open-loop run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum RateDist {
    /// Exponential gaps between arrivals.
    Poisson,
    /// Equal gaps.
    Uniform,
}

/// What `run --profile` samples over the measured phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Profiling {
    /// Nothing (no --profile).
    #[default]
    Off,
    /// The server's processes, when it runs on this host.
    Server,
    /// The driver (txbench itself).
    Client,
    /// Both.
    Both,
}

impl Profiling {
    /// Whether the server is profiled.
    pub fn server(self) -> bool {
        matches!(self, Profiling::Server | Profiling::Both)
    }
    /// Whether the client is profiled.
    pub fn client(self) -> bool {
        matches!(self, Profiling::Client | Profiling::Both)
    }
    /// Whether nothing is (for serde).
    pub fn is_off(&self) -> bool {
        *self == Profiling::Off
    }
}

/// Transaction isolation level for every connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Isolation {
    /// REPEATABLE READ.
    Rr,
    /// READ COMMITTED.
    Rc,
    /// SERIALIZABLE.
    Serializable,
    /// READ UNCOMMITTED.
    Ru,
}

impl Isolation {
    /// The SQL name.
    pub fn sql(self) -> &'static str {
        match self {
            Isolation::Rr => "REPEATABLE READ",
            Isolation::Rc => "READ COMMITTED",
            Isolation::Serializable => "SERIALIZABLE",
            Isolation::Ru => "READ UNCOMMITTED",
        }
    }
}

/// What the driver was asked to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// The workload name.
    pub workload: String,
    /// The target URL, password redacted (the first, when there are several).
    pub url: String,
    /// Every target, when there are several (virtual user i goes to target i mod n).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    /// Virtual users (one connection each).
    pub threads: u32,
    /// Measured seconds (after warm-up).
    pub time_s: f64,
    /// Warm-up seconds, excluded from results.
    pub warmup_s: f64,
    /// Stop after this many transactions (measured phase), if set.
    pub events: Option<u64>,
    /// Seconds per interval line.
    pub report_interval_s: f64,
    /// Open-loop arrival rate (transactions per second), if set.
    pub rate: Option<f64>,
    /// Arrival process for `rate`.
    pub rate_dist: RateDist,
    /// Seed of all random inputs.
    pub seed: u64,
    /// Retries after a deadlock or lock-wait timeout.
    pub retries: u32,
    /// Largest tolerated share of finally failed attempts (unexpected errors, or contention
    /// whose retries ran out) of a kind in an interval (0.05 = 5 %).
    pub max_error_rate: f64,
    /// Isolation level, if set (else the server's).
    pub isolation: Option<Isolation>,
    /// The workload's own options.
    pub workload_options: serde_json::Value,
    /// Jitter window of the stability figures, seconds (0: one tenth of the measured time).
    #[serde(default)]
    pub stability_window_s: f64,
    /// `--period`: seconds per period of the by-period table (None: hours in a run of two
    /// hours or more, else no table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period_s: Option<f64>,
    /// `--client-threads`: the virtual users run as fibers on this many threads (None: a
    /// thread each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_threads: Option<u32>,
    /// Whether the server's counters and /proc are sampled every interval (server.csv).
    #[serde(default = "yes")]
    pub server_metrics: bool,
    /// CPU profiles of the measured phase (`--profile`).
    #[serde(default, skip_serializing_if = "Profiling::is_off")]
    pub profile: Profiling,
    /// This process runs shard K of N of the run (`threads`, `events` and `rate` are the
    /// whole run's; the shard's own part is in result.json's `shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::shard::Shard>,
    /// `--start-at`: when the run was to start (RFC 3339, UTC, in the server's clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_at: Option<String>,
    /// The user's labels (`--label commit=3f2a1c`), for the results store.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub labels: std::collections::BTreeMap<String, String>,
    /// The `run` command line (its workload and options; no URL, output or password), so
    /// the run can be repeated (`history --confirm`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// The `prepare` command line that made the data (txbench_meta's `prepare_args`), if
    /// txbench prepared it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prepare_args: Vec<String>,
}

/// `--label KEY=VALUE` lines read into labels: a key of letters, digits, `_`, `-` and `.`
/// (64 at most), a value of 256 characters at most without control characters, each key
/// once.
pub fn labels(raw: &[String]) -> Result<std::collections::BTreeMap<String, String>, String> {
    let mut out = std::collections::BTreeMap::new();
    for kv in raw {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(format!("--label {kv}: expected KEY=VALUE"));
        };
        let key_ok = !k.is_empty()
            && k.len() <= 64
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
        if !key_ok {
            return Err(format!(
                "--label {kv}: the key must be 1 to 64 letters, digits, '_', '-' or '.'"
            ));
        }
        if v.chars().count() > 256 || v.chars().any(char::is_control) {
            return Err(format!(
                "--label {k}: the value must be at most 256 characters, without control characters"
            ));
        }
        if out.insert(k.to_string(), v.to_string()).is_some() {
            return Err(format!("--label {k}: given twice"));
        }
    }
    Ok(out)
}

fn yes() -> bool {
    true
}

/// A command line as result.json records it (`config.args`): `args` without the options in
/// `valued` and their values (`--url U` or `--url=U`) and without the bare `flags`.
pub fn strip_options(args: &[String], valued: &[&str], flags: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if valued.contains(&a.as_str()) {
            it.next();
        } else if !flags.contains(&a.as_str())
            && !valued
                .iter()
                .any(|v| a.strip_prefix(v).is_some_and(|r| r.starts_with('=')))
        {
            out.push(a.clone());
        }
    }
    out
}

/// The thread counts of `run --threads`: one level, or a sweep (`1,2,4`, `1..64x2`, `4..24+4`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadLevels(pub Vec<u32>);

/// Most levels a sweep may have.
const MAX_LEVELS: usize = 100;
/// Most threads of a level.
const MAX_THREADS: u64 = 100_000;

impl ThreadLevels {
    /// Parses `--threads`: a count, a comma list, `A..BxF` (A, A·F, A·F², … up to B) or
    /// `A..B+S` (A, A+S, … up to B). Counts are at least 1 and distinct.
    pub fn parse(s: &str) -> Result<ThreadLevels, String> {
        let count = |t: &str| -> Result<u64, String> {
            match t.trim().parse::<u64>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
                Ok(_) => Err(format!(
                    "'{}' must be between 1 and {MAX_THREADS}",
                    t.trim()
                )),
                Err(_) => Err(format!("'{}' is not a whole number of threads", t.trim())),
            }
        };
        let mut levels: Vec<u64> = Vec::new();
        if let Some((a, rest)) = s.split_once("..") {
            let a = count(a)?;
            let (b, step, mul) = if let Some((b, f)) = rest.split_once('x') {
                (count(b)?, count(f)?, true)
            } else if let Some((b, st)) = rest.split_once('+') {
                (count(b)?, count(st)?, false)
            } else {
                return Err(format!(
                    "'{s}': a range needs a factor or a step, as in 1..64x2 or 4..24+4"
                ));
            };
            if b < a {
                return Err(format!("'{s}': the range ends below its start"));
            }
            if mul && step < 2 {
                return Err(format!("'{s}': the factor must be at least 2"));
            }
            let mut n = a;
            while n <= b && levels.len() <= MAX_LEVELS {
                levels.push(n);
                n = if mul { n * step } else { n + step };
            }
        } else {
            for part in s.split(',') {
                let n = count(part)?;
                if levels.contains(&n) {
                    return Err(format!("'{s}': {n} threads appears twice"));
                }
                levels.push(n);
            }
        }
        if levels.len() > MAX_LEVELS {
            return Err(format!("'{s}' has more than {MAX_LEVELS} levels"));
        }
        Ok(ThreadLevels(levels.into_iter().map(|n| n as u32).collect()))
    }

    /// True for more than one level.
    pub fn is_sweep(&self) -> bool {
        self.0.len() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::ThreadLevels;

    #[test]
    fn thread_levels_parse_lists_doublings_and_steps() {
        let p = |s| ThreadLevels::parse(s).map(|l| l.0);
        assert_eq!(p("8"), Ok(vec![8]));
        assert_eq!(p("1,2,4,8,16,32,64"), Ok(vec![1, 2, 4, 8, 16, 32, 64]));
        assert_eq!(p("1..1024x2").unwrap().len(), 11);
        assert_eq!(p("1..1000x2").unwrap().last(), Some(&512));
        assert_eq!(p("4..24+4"), Ok(vec![4, 8, 12, 16, 20, 24]));
        assert_eq!(p("3..3+1"), Ok(vec![3]));
        for bad in [
            "0",
            "-4",
            "a",
            "1,1",
            "8..4+1",
            "1..8x1",
            "1..8",
            "1..100000+1",
            "1,,2",
        ] {
            assert!(p(bad).is_err(), "{bad}");
        }
        assert!(p("0").unwrap_err().contains("between 1 and"));
    }

    #[test]
    fn stripped_options_go_with_their_values_in_both_spellings() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            super::strip_options(
                &w("tpcc --url mysql://a --threads 4 --out=d -q --urlx 1 --time 5"),
                &["--url", "--out"],
                &["-q"]
            ),
            w("tpcc --threads 4 --urlx 1 --time 5")
        );
    }
}
