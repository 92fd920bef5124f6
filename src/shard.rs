//! Driving one run from several client processes: which shard this process is (`--shard K/N`,
//! or a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` with `TXBENCH_SHARDS`), which virtual
//! users and what share of `--events` and `--rate` it takes, and `--start-at`. Plain data and
//! arithmetic: the driver and `run` use it, `merge` reads what it recorded.

use serde::{Deserialize, Serialize};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The environment variable a Kubernetes Indexed Job gives each pod: its index, from 0.
pub const JOB_INDEX_ENV: &str = "JOB_COMPLETION_INDEX";
/// How many shards the run has (set in the Job's pod template).
pub const SHARDS_ENV: &str = "TXBENCH_SHARDS";
/// The furthest ahead `--start-at` may be.
pub const START_AT_LIMIT: Duration = Duration::from_secs(24 * 3600);

/// Shard `index` (from 1) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// From 1 to `count`.
    pub index: u32,
    /// How many shards the run has.
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Parses `K/N`: shards count from 1 (`1/3`, `2/3`, `3/3`).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not K/N (shard K of N, e.g. 1/3)"))?;
        let num = |t: &str, what: &str| -> Result<u32, String> {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("'{s}': {what} '{}' is not a whole number", t.trim()))
        };
        let (index, count) = (num(k, "K")?, num(n, "N")?);
        if count == 0 {
            return Err(format!("'{s}': a run has at least 1 shard"));
        }
        if index == 0 || index > count {
            return Err(format!(
                "'{s}': K counts from 1 to {count} (JOB_COMPLETION_INDEX counts from 0 and is taken as K-1)"
            ));
        }
        Ok(Shard { index, count })
    }

    /// The shard the environment names: `JOB_COMPLETION_INDEX` (from 0) with `TXBENCH_SHARDS`.
    /// Neither set: none. One without the other, or values that do not parse: an error naming
    /// the variable.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, String> {
        match (get(JOB_INDEX_ENV), get(SHARDS_ENV)) {
            (None, None) => Ok(None),
            // An Indexed Job that is not a sharded txbench run: not ours to interpret.
            (Some(_), None) => Ok(None),
            (None, Some(_)) => Err(format!(
                "{SHARDS_ENV} is set but {JOB_INDEX_ENV} is not: say which shard this is with --shard K/N"
            )),
            (Some(i), Some(n)) => {
                let index: u32 = i
                    .trim()
                    .parse()
                    .map_err(|_| format!("{JOB_INDEX_ENV}='{i}' is not a whole number"))?;
                let count: u32 = n
                    .trim()
                    .parse()
                    .map_err(|_| format!("{SHARDS_ENV}='{n}' is not a whole number"))?;
                Shard::parse(&format!("{}/{count}", index.saturating_add(1)))
                    .map(Some)
                    .map_err(|e| format!("{JOB_INDEX_ENV}={i} with {SHARDS_ENV}={n}: {e}"))
            }
        }
    }

    /// Virtual users `0..threads` dealt over the shards: user g to shard g mod N + 1, so the
    /// N shards together run every user once. More shards than users is an error.
    pub fn users(&self, threads: u32) -> Result<Vec<u32>, String> {
        if self.count > threads {
            return Err(format!(
                "{} shards for {threads} thread(s): each shard needs at least one virtual user",
                self.count
            ));
        }
        Ok((0..threads)
            .filter(|g| g % self.count == self.index - 1)
            .collect())
    }

    /// TPC-C: the home warehouses in use (user g's is g mod `warehouses` + 1, so the first
    /// min(threads, warehouses)) split into N contiguous ranges, each shard running every
    /// terminal whose home warehouse is in its range, so shards share no home warehouse. More
    /// shards than home warehouses in use is an error.
    pub fn users_by_warehouse(&self, threads: u32, warehouses: u32) -> Result<Vec<u32>, String> {
        let homes = threads.min(warehouses);
        if self.count > homes {
            return Err(format!(
                "{} shards for {homes} home warehouse(s) ({threads} thread(s) on {warehouses} warehouse(s)): each shard needs a home warehouse of its own",
                self.count
            ));
        }
        Ok((0..threads)
            .filter(|g| {
                u64::from(g % warehouses) * u64::from(self.count) / u64::from(homes)
                    == u64::from(self.index - 1)
            })
            .collect())
    }

    /// This shard's part of `total` (transactions for --events), in proportion to the users
    /// of the shards before it and its own (`counts[k]` is shard k+1's users): the parts add
    /// up to `total` exactly.
    pub fn part_of(&self, total: u64, counts: &[u32]) -> u64 {
        let all: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        let upto = |k: usize| -> u64 {
            let c: u64 = counts[..k].iter().map(|&c| u64::from(c)).sum();
            ((u128::from(total) * u128::from(c)) / u128::from(all.max(1))) as u64
        };
        let k = self.index as usize;
        upto(k.min(counts.len())) - upto((k - 1).min(counts.len()))
    }

    /// A seed every shard derives alike from the shared start time, when --seed is not given.
    pub fn seed_from(start_at: SystemTime) -> u64 {
        let ns = start_at
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        // SplitMix64's finaliser: nearby start times give unrelated seeds.
        let mut z = ns.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Parses `--start-at`: RFC 3339 (`2026-11-24T18:00:00Z`, fractions allowed) or seconds since
/// the epoch (`1795000000`, `1795000000.5`).
pub fn parse_start_at(s: &str) -> Result<SystemTime, String> {
    let t = s.trim();
    if let Ok(secs) = t.parse::<f64>() {
        if !(secs.is_finite() && secs >= 0.0) {
            return Err(format!("'{s}' is not a time"));
        }
        return Ok(UNIX_EPOCH + Duration::from_secs_f64(secs));
    }
    humantime::parse_rfc3339_weak(t)
        .or_else(|_| humantime::parse_rfc3339(t))
        .map_err(|_| {
            format!("'{s}' is neither RFC 3339 (2026-11-24T18:00:00Z) nor seconds since the epoch")
        })
}

/// Checks a start time against `now`: more than [`START_AT_LIMIT`] ahead is an error; in the
/// past, the start is now and the returned line says so.
pub fn check_start_at(at: SystemTime, now: SystemTime) -> Result<Option<String>, String> {
    match at.duration_since(now) {
        Ok(ahead) if ahead > START_AT_LIMIT => Err(format!(
            "{} is {:.1} hours ahead, more than a day: a typo?",
            rfc3339(at),
            ahead.as_secs_f64() / 3600.0
        )),
        Ok(_) => Ok(None),
        Err(e) => Ok(Some(format!(
            "--start-at {} was {:.1} s ago: starting now (the shards will not start together)",
            rfc3339(at),
            e.duration().as_secs_f64()
        ))),
    }
}

/// A time as RFC 3339 with milliseconds, UTC.
pub fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_millis(t).to_string()
}

/// Seconds since the epoch.
pub fn unix_s(t: SystemTime) -> f64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_of_n_counts_from_one() {
        assert_eq!(Shard::parse("1/3"), Ok(Shard { index: 1, count: 3 }));
        assert_eq!(Shard::parse("3/3"), Ok(Shard { index: 3, count: 3 }));
        for bad in ["0/3", "4/3", "1/0", "1", "a/3", "1/b", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(Shard::parse("0/3").unwrap_err().contains("from 1 to 3"));
        assert!(
            Shard::parse("1/0")
                .unwrap_err()
                .contains("at least 1 shard")
        );
    }

    #[test]
    fn the_environment_of_an_indexed_job_names_the_shard() {
        let env = |i: Option<&str>, n: Option<&str>| {
            let (i, n) = (i.map(String::from), n.map(String::from));
            Shard::from_env(move |k| {
                if k == JOB_INDEX_ENV {
                    i.clone()
                } else {
                    n.clone()
                }
            })
        };
        assert_eq!(env(None, None), Ok(None));
        assert_eq!(env(Some("2"), None), Ok(None));
        assert_eq!(
            env(Some("0"), Some("3")),
            Ok(Some(Shard { index: 1, count: 3 }))
        );
        assert_eq!(
            env(Some("2"), Some("3")),
            Ok(Some(Shard { index: 3, count: 3 }))
        );
        assert!(
            env(Some("3"), Some("3"))
                .unwrap_err()
                .contains("JOB_COMPLETION_INDEX=3")
        );
        assert!(env(None, Some("3")).unwrap_err().contains("--shard"));
        assert!(env(Some("x"), Some("3")).unwrap_err().contains("'x'"));
    }

    #[test]
    fn shards_together_run_every_user_once() {
        for (threads, n) in [(10, 3), (3, 3), (64, 7), (5, 1)] {
            let mut all: Vec<u32> = (1..=n)
                .flat_map(|k| Shard { index: k, count: n }.users(threads).unwrap())
                .collect();
            all.sort();
            assert_eq!(all, (0..threads).collect::<Vec<_>>());
        }
        assert!(
            Shard { index: 1, count: 4 }
                .users(3)
                .unwrap_err()
                .contains("4 shards for 3")
        );
    }

    #[test]
    fn tpcc_shards_share_no_home_warehouse() {
        let (threads, w, n) = (40, 4, 3);
        let mut all = Vec::new();
        let mut homes: Vec<Vec<u32>> = Vec::new();
        for k in 1..=n {
            let users = Shard { index: k, count: n }
                .users_by_warehouse(threads, w)
                .unwrap();
            let mut h: Vec<u32> = users.iter().map(|g| g % w + 1).collect();
            h.sort();
            h.dedup();
            homes.push(h);
            all.extend(users);
        }
        all.sort();
        assert_eq!(all, (0..threads).collect::<Vec<_>>());
        assert_eq!(homes, vec![vec![1, 2], vec![3], vec![4]]);
        let s = Shard { index: 4, count: 4 };
        assert!(
            s.users_by_warehouse(40, 3)
                .unwrap_err()
                .contains("4 shards for 3 home warehouse")
        );
        // 300 threads on 1,000 warehouses use homes 1..300: each shard gets 100 of them.
        for k in 1..=3 {
            let users = Shard { index: k, count: 3 }
                .users_by_warehouse(300, 1000)
                .unwrap();
            assert_eq!(users.len(), 100, "shard {k}");
            assert!(users.iter().all(|g| g / 100 == k - 1));
        }
        let s = Shard { index: 2, count: 3 };
        assert!(
            s.users_by_warehouse(2, 4)
                .unwrap_err()
                .contains("3 shards for 2 home warehouse")
        );
    }

    #[test]
    fn parts_add_up_to_the_total() {
        let counts = [4, 3, 3];
        let parts: Vec<u64> = (1..=3)
            .map(|k| Shard { index: k, count: 3 }.part_of(1001, &counts))
            .collect();
        assert_eq!(parts.iter().sum::<u64>(), 1001);
        assert_eq!(parts, vec![400, 300, 301]);
    }

    #[test]
    fn start_times_parse_and_are_checked() {
        let t = parse_start_at("1795000000.5").unwrap();
        assert_eq!(unix_s(t), 1_795_000_000.5);
        let r = parse_start_at("2026-11-24T18:00:00Z").unwrap();
        assert_eq!(unix_s(r), 1_795_543_200.0);
        assert!(parse_start_at("2026-11-24T18:00:00.250Z").is_ok());
        assert!(parse_start_at("tomorrow").unwrap_err().contains("RFC 3339"));
        let now = r;
        assert_eq!(check_start_at(now + Duration::from_secs(60), now), Ok(None));
        let past = check_start_at(now - Duration::from_secs(5), now)
            .unwrap()
            .unwrap();
        assert!(past.contains("5.0 s ago: starting now"), "{past}");
        let far = check_start_at(now + Duration::from_secs(25 * 3600), now).unwrap_err();
        assert!(far.contains("more than a day"), "{far}");
        assert_ne!(
            Shard::seed_from(now),
            Shard::seed_from(now + Duration::from_millis(1))
        );
    }
}
