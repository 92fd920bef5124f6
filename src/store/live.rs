//! Runs in progress, where `txbench serve` finds them: a run, a sweep or an experiment writes
//! a marker into the `live/` directory beside the store as it starts (its directory, its
//! kind, its process and that process's start), and serve lists the markers whose process
//! still runs. A marker stays after its run (its page then shows the verdict); markers of
//! processes gone for a day are removed by the next run that starts.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The directory beside the store that holds the markers.
pub const DIR: &str = "live";

/// How long a marker of a finished run is kept.
const KEPT: Duration = Duration::from_secs(24 * 3600);

/// What is in progress, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// One run: its run directory.
    Run,
    /// A sweep: its directory of levels.
    Sweep,
    /// An experiment: its directory of cells.
    Experiment,
}

/// A marker: what runs, where, in which process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    /// Its directory, absolute.
    pub dir: PathBuf,
    /// What it is.
    pub kind: Kind,
    /// The process running it.
    pub pid: u32,
    /// That process's start, in clock ticks since boot (/proc/PID/stat): a later process
    /// that reused the number is not it.
    pub start_ticks: u64,
    /// When it started, seconds since the epoch.
    pub started_unix_s: u64,
}

/// A marker found in the live directory.
#[derive(Debug, Clone)]
pub struct Found {
    /// Its name, which `serve` pages are addressed by.
    pub id: String,
    /// What it says.
    pub marker: Marker,
    /// Whether its process still runs.
    pub running: bool,
}

/// The live directory of the store at `store`.
pub fn dir_of(store: &Path) -> PathBuf {
    store
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join(DIR)
}

/// Writes this process's marker for `dir` into the live directory of the store at `store`,
/// and removes markers of processes gone for a day. Returns the marker's id.
pub fn register(store: &Path, dir: &Path, kind: Kind) -> Result<String> {
    let live = dir_of(store);
    crate::owned::make_dir(&live, "the live directory")?;
    prune(&live);
    let pid = std::process::id();
    let start_ticks = start_ticks(pid).context("reading this process's start")?;
    let dir = std::path::absolute(dir).with_context(|| format!("{}", dir.display()))?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let marker = Marker {
        dir,
        kind,
        pid,
        start_ticks,
        started_unix_s: now.as_secs(),
    };
    let id = format!("{pid}-{}", now.as_nanos());
    let path = live.join(format!("{id}.json"));
    use std::io::Write as _;
    crate::owned::create_new(&path)?
        .write_all(&serde_json::to_vec(&marker)?)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(id)
}

/// Every marker in the live directory of the store at `store`, newest first; none when the
/// directory does not exist. A directory or marker another user could have written is
/// refused (its runs' directories would be read on its word).
pub fn list(store: &Path) -> Result<Vec<Found>> {
    let live = dir_of(store);
    if !live.exists() {
        return Ok(Vec::new());
    }
    crate::owned::check_dir(&live, "the live directory")?;
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&live).with_context(|| format!("{}", live.display()))? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if let Some(id) = name.strip_suffix(".json").filter(|id| valid_id(id))
            && let Ok(f) = find(store, id)
        {
            found.push(f);
        }
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.marker.started_unix_s));
    Ok(found)
}

/// The marker `id` of the store at `store`.
pub fn find(store: &Path, id: &str) -> Result<Found> {
    if !valid_id(id) {
        bail!("{id}: not a marker's name");
    }
    let path = dir_of(store).join(format!("{id}.json"));
    crate::owned::check_file(&path, "the live marker")?;
    let bytes = crate::results::read_json(&path)?;
    let marker: Marker = serde_json::from_slice(&bytes)
        .with_context(|| format!("{}: not a live marker", path.display()))?;
    if !marker.dir.is_absolute() {
        bail!("{}: its directory is not absolute", path.display());
    }
    let running = start_ticks(marker.pid) == Some(marker.start_ticks);
    Ok(Found {
        id: id.to_string(),
        marker,
        running,
    })
}

/// A marker's name: the process id and the start in nanoseconds, digits and one dash.
fn valid_id(id: &str) -> bool {
    let mut parts = id.splitn(2, '-');
    let digits = |s: Option<&str>| {
        s.is_some_and(|s| !s.is_empty() && s.len() <= 24 && s.bytes().all(|b| b.is_ascii_digit()))
    };
    digits(parts.next()) && digits(parts.next())
}

/// Removes the markers of processes that ended more than a day ago (judged by the marker's
/// age: a run of a day or more whose process still runs is kept).
fn prune(live: &Path) {
    let Ok(entries) = std::fs::read_dir(live) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let old = e
            .metadata()
            .ok()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > KEPT);
        let gone = || {
            crate::results::read_json(&path)
                .ok()
                .and_then(|b| serde_json::from_slice::<Marker>(&b).ok())
                .is_none_or(|m| start_ticks(m.pid) != Some(m.start_ticks))
        };
        if old && gone() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// When process `pid` started, in clock ticks since boot (field 22 of /proc/PID/stat);
/// None when there is no such process.
fn start_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_start_ticks(&stat)
}

/// Field 22 of a /proc/PID/stat line: the 20th after the parenthesised command name (which
/// may hold spaces and parentheses of its own).
fn parse_start_ticks(stat: &str) -> Option<u64> {
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_start_is_read_past_a_command_name_with_spaces_and_parentheses() {
        let stat =
            "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10";
        assert_eq!(parse_start_ticks(stat), Some(987654));
        assert_eq!(parse_start_ticks("4242 (x) S 1"), None);
        assert_eq!(parse_start_ticks("no parenthesis"), None);
        assert!(start_ticks(std::process::id()).is_some());
    }

    #[test]
    fn marker_names_are_digits_and_one_dash() {
        assert!(valid_id("123-456789"));
        for bad in ["", "123", "-1", "1-", "1-2-3", "../x", "1-2.json", "a-1"] {
            assert!(!valid_id(bad), "{bad}");
        }
    }

    #[test]
    fn a_marker_is_found_running_and_a_dead_process_is_not() {
        let tmp = tempfile::TempDir::new().unwrap();
        let store = tmp.path().join("store.sqlite");
        let run = tmp.path().join("run");
        let id = register(&store, &run, Kind::Run).unwrap();
        let all = list(&store).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].id, id);
        assert!(all[0].running);
        assert_eq!(all[0].marker.dir, run);
        // The same marker with another process's start: that process is gone.
        let path = dir_of(&store).join(format!("{id}.json"));
        let mut m = all[0].marker.clone();
        m.start_ticks += 1;
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, serde_json::to_vec(&m).unwrap()).unwrap();
        assert!(!find(&store, &id).unwrap().running);
        assert!(find(&store, "../store").is_err());
    }
}
