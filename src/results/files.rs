//! The run directory's files: result.json (versioned, written atomically), intervals.csv and
//! latency.hlog appended as the run goes.

use super::*;

/// The most a file txbench reads back may hold (result.json, sweep.json, experiment.json,
/// server.csv, a profile's folded stacks once unpacked): an 8-hour run at 1-s intervals
/// writes a 3.4 MB result.json, so this is far past any of ours and keeps a crafted file
/// (or a small gzip that unpacks to gigabytes) from taking the machine's memory.
pub const READ_CAP: u64 = 256 << 20;

/// Reads all of `from` (`path` names it in errors), refusing more than [`READ_CAP`] bytes.
pub fn read_capped(from: impl std::io::Read, path: &Path) -> Result<Vec<u8>> {
    read_at_most(from, path, READ_CAP)
}

fn read_at_most(from: impl std::io::Read, path: &Path, cap: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    from.take(cap + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() as u64 > cap {
        bail!(
            "{}: more than {} MiB: not a file txbench wrote",
            path.display(),
            cap >> 20
        );
    }
    Ok(bytes)
}

/// The most a JSON file read back may hold: parsed into a tree it takes several times its
/// size (an 8-hour run at 1-s intervals writes 3.4 MB).
pub const JSON_CAP: u64 = 64 << 20;

/// Reads the JSON file at `path`, at most [`JSON_CAP`] bytes, never through a symbolic link.
pub fn read_json(path: &Path) -> Result<Vec<u8>> {
    read_at_most(crate::owned::open(path)?, path, JSON_CAP)
}

/// Reads the file at `path`, at most [`READ_CAP`] bytes, never through a symbolic link.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    read_capped(crate::owned::open(path)?, path)
}

/// Checks a path a stored file names inside its own directory (a sweep's level, an
/// experiment's cell, a run's profile): relative, and made of plain names only, so that a
/// crafted file cannot point a report, a resume or a merge at `/etc` or `../..`.
pub fn check_inside(name: &str, file: &Path) -> Result<()> {
    use std::path::Component;
    let p = Path::new(name);
    // One name (a level, a profile), or a cell's `cells/NAME`: no directory between that a
    // crafted file could make a link elsewhere.
    let parts: Vec<Component> = p.components().collect();
    let plain = |c: &Component| matches!(c, Component::Normal(_));
    let shaped = match parts.as_slice() {
        [one] => plain(one),
        [Component::Normal(first), two] => *first == "cells" && plain(two),
        _ => false,
    };
    if name.is_empty() || name.contains('\0') || !shaped {
        bail!(
            "{}: names {name:?}, which is not a plain name inside its directory: refused",
            file.display()
        );
    }
    Ok(())
}

/// Reads a JSON file of ours (result.json, sweep.json), refusing other schema versions
/// clearly; `what` names the kind of file in the messages.
pub(super) fn read_versioned<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T> {
    let bytes = read_json(path)?;
    let v: serde_json::Value = serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is not JSON", path.display()))?;
    match v.get("schema_version").and_then(|s| s.as_u64()) {
        Some(n) if n == u64::from(SCHEMA_VERSION) => {}
        Some(n) if n > u64::from(SCHEMA_VERSION) => bail!(
            "{} has {what} schema version {n}, newer than this txbench understands ({SCHEMA_VERSION}): upgrade txbench",
            path.display()
        ),
        Some(n) => bail!(
            "{} has {what} schema version {n}, which this txbench no longer reads",
            path.display()
        ),
        None => bail!(
            "{} has no schema_version: not a txbench {what}",
            path.display()
        ),
    }
    serde_json::from_value(v).with_context(|| format!("reading {}", path.display()))
}

/// A run directory being written.
pub struct RunDir {
    path: PathBuf,
    csv: File,
    hlog: File,
    serializer: V2DeflateSerializer,
    buf: Vec<u8>,
    /// The last rewrite of result.json during the run.
    last_checkpoint: Option<Checkpoint>,
}

/// When result.json was last rewritten during a run, what that took and how large it was.
#[derive(Debug, Clone, Copy)]
struct Checkpoint {
    at: std::time::Instant,
    took: std::time::Duration,
    bytes: usize,
}

/// The most result.json's rewrites during a run may cost: this share of the client's time...
const CHECKPOINT_TIME_SHARE: u32 = 100;
/// ...and this many bytes written per second, on average.
const CHECKPOINT_BYTES_PER_S: f64 = 16.0 * 1024.0;

/// Whether result.json may be rewritten `since` after a rewrite that took `took` and wrote
/// `bytes`: the file holds every interval, so rewriting it every interval costs O(n²) over
/// a long run (an 8-hour run at 1-s intervals would end rewriting 23 MB every second). A
/// small file is rewritten every interval; a large one as often as its budget allows.
fn checkpoint_due(since: std::time::Duration, took: std::time::Duration, bytes: usize) -> bool {
    since >= took * CHECKPOINT_TIME_SHARE
        && since.as_secs_f64() >= bytes as f64 / CHECKPOINT_BYTES_PER_S
}

const CSV_HEADER: &str = "phase,start_s,end_s,threads,transactions,tps,qps,reads_ps,writes_ps,other_ps,p95_ms,p99_ms,service_p99_ms,errors,err_ps,reconn_ps\n";

impl RunDir {
    /// Creates `path` (which must not hold a run already) with the CSV and log headers.
    pub fn create(path: &Path, start: std::time::SystemTime) -> Result<RunDir> {
        // Another user's directory, or one others may write into, could hold links planted
        // to make this run truncate files elsewhere: refused even when empty.
        if fs::symlink_metadata(path).is_ok() {
            crate::owned::check_dir(path, "--out")?;
        }
        if path.join("result.json").exists() {
            bail!(
                "--out {}: holds a run already; choose another directory",
                path.display()
            );
        }
        // A directory of someone else's files is not ours to write into: nothing of it is
        // truncated or replaced.
        if let Ok(mut entries) = fs::read_dir(path)
            && let Some(Ok(first)) = entries.next()
        {
            bail!(
                "--out {}: holds files but no txbench run (such as {}); choose a new or empty directory",
                path.display(),
                first.file_name().to_string_lossy()
            );
        }
        crate::owned::make_dir(path, "--out")?;
        let open = |name: &str| crate::owned::create_new(&path.join(name));
        let mut csv = open("intervals.csv")?;
        csv.write_all(CSV_HEADER.as_bytes())?;
        let mut hlog = open("latency.hlog")?;
        let start_unix = start
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        write!(
            hlog,
            "#[txbench {} latency log: values in microseconds; tags are KIND.response and KIND.service]\n\
             #[StartTime: {start_unix:.3} (seconds since epoch), {}]\n\
             #[BaseTime: {start_unix:.3} (seconds since epoch)]\n\
             \"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n",
            env!("CARGO_PKG_VERSION"),
            humantime::format_rfc3339_seconds(start),
        )?;
        Ok(RunDir {
            path: path.to_path_buf(),
            csv,
            hlog,
            serializer: V2DeflateSerializer::new(),
            buf: Vec::new(),
            last_checkpoint: None,
        })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends an interval to intervals.csv and its histograms to latency.hlog.
    pub fn append_interval(
        &mut self,
        row: &IntervalRow,
        rec: &Recorder,
        names: &[String],
    ) -> Result<()> {
        let mut hists = Vec::with_capacity(rec.kinds.len() * 2);
        for (k, name) in rec.kinds.iter().zip(names) {
            hists.push((name.clone(), false, k.response.to_hdr()));
            hists.push((name.clone(), true, k.service.to_hdr()));
        }
        self.append(row, &hists)
    }

    /// Appends an interval to intervals.csv and its histograms, (kind, service time?,
    /// histogram), to latency.hlog.
    pub fn append(
        &mut self,
        row: &IntervalRow,
        hists: &[(String, bool, Histogram<u64>)],
    ) -> Result<()> {
        let phase = match row.phase {
            Phase::Warmup => "warmup",
            Phase::Measure => "measure",
        };
        writeln!(
            self.csv,
            "{phase},{:.3},{:.3},{},{},{:.2},{:.2},{:.2},{:.2},{:.2},{:.3},{:.3},{:.3},{},{:.2},{:.2}",
            row.start_s, row.end_s, row.threads, row.transactions, row.tps, row.qps, row.reads_ps,
            row.writes_ps, row.other_ps, row.p95_ms, row.p99_ms, row.service_p99_ms, row.errors,
            row.err_ps, row.reconn_ps
        )
        .context("writing intervals.csv")?;
        use base64::Engine as _;
        let mut lines = String::new();
        for (name, service, h) in hists {
            let tag = if *service { "service" } else { "response" };
            self.buf.clear();
            self.serializer
                .serialize(h, &mut self.buf)
                .map_err(|e| anyhow::anyhow!("encoding a histogram: {e:?}"))?;
            lines.push_str(&format!(
                "Tag={name}.{tag},{:.3},{:.3},{:.3},{}\n",
                row.start_s,
                row.end_s - row.start_s,
                h.max() as f64 / 1000.0,
                base64::engine::general_purpose::STANDARD.encode(&self.buf)
            ));
        }
        self.hlog
            .write_all(lines.as_bytes())
            .context("writing latency.hlog")?;
        Ok(())
    }

    /// Rewrites result.json atomically.
    pub fn write_result(&self, result: &RunResult) -> Result<()> {
        write_json_atomic(&self.path.join("result.json"), result).map(|_| ())
    }

    /// Rewrites result.json during a run, at an interval's end, when [`checkpoint_due`]
    /// allows: every interval while the file is small. intervals.csv and latency.hlog have
    /// every interval as it ends; a run's end always writes result.json
    /// ([`RunDir::write_result`]).
    pub fn checkpoint(&mut self, result: &impl Serialize) -> Result<()> {
        let at = std::time::Instant::now();
        if let Some(c) = self.last_checkpoint
            && !checkpoint_due(at - c.at, c.took, c.bytes)
        {
            return Ok(());
        }
        let bytes = write_json_atomic(&self.path.join("result.json"), result)?;
        self.last_checkpoint = Some(Checkpoint {
            at,
            took: at.elapsed(),
            bytes,
        });
        Ok(())
    }
}

/// One histogram of a run's latency.hlog, still encoded (a decoded one takes 188 KiB: a
/// merge of hours of many shards decodes each when it is needed).
#[derive(Debug, Clone)]
pub struct HlogRecord {
    /// The interval's start, seconds since the run started (its row's `start_s`).
    pub start_s: f64,
    /// The transaction kind.
    pub kind: String,
    /// Service time (else response time).
    pub service: bool,
    /// The histogram, V2 deflate encoding (microseconds).
    pub encoded: Vec<u8>,
}

impl HlogRecord {
    /// The histogram.
    pub fn decode(&self) -> Result<Histogram<u64>> {
        hdrhistogram::serialization::Deserializer::new()
            .deserialize::<u64, _>(&mut &self.encoded[..])
            .map_err(|e| anyhow::anyhow!("a latency.hlog histogram does not decode: {e:?}"))
    }
}

/// Calls `each` with every histogram of `dir`/latency.hlog, in file order, up to the first
/// line that does not parse. False when there is no such file (an old or copied run).
pub fn read_hlog(dir: &Path, mut each: impl FnMut(HlogRecord) -> Result<()>) -> Result<bool> {
    use base64::Engine as _;
    use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};
    let path = dir.join("latency.hlog");
    let Ok(log) = fs::read(&path) else {
        return Ok(false);
    };
    for item in IntervalLogIterator::new(&log) {
        // A run that died mid-write leaves its last line short: the log ends there (a merge
        // then finds that interval's histograms missing and says so).
        let Ok(entry) = item else {
            break;
        };
        let LogEntry::Interval(iv) = entry else {
            continue;
        };
        let Some(tag) = iv.tag() else { continue };
        let (kind, service) = match tag.as_str().rsplit_once('.') {
            Some((k, "response")) => (k, false),
            Some((k, "service")) => (k, true),
            _ => continue,
        };
        let encoded = base64::engine::general_purpose::STANDARD
            .decode(iv.encoded_histogram())
            .with_context(|| format!("{}: a histogram is not base64", path.display()))?;
        each(HlogRecord {
            start_s: iv.start_timestamp().as_secs_f64(),
            kind: kind.to_string(),
            service,
            encoded,
        })?;
    }
    Ok(true)
}

/// Writes `value` as pretty JSON to `path` through a temporary file renamed over it, so a
/// reader never sees half a file; returns the bytes written.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<usize> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    let bytes = serde_json::to_vec_pretty(value)?;
    // Written, synced, renamed, and the rename synced: a power cut leaves the old file or
    // the new one, never an empty one.
    let mut f = crate::owned::replace(&tmp)?;
    f.write_all(&bytes)
        .and_then(|_| f.sync_all())
        .with_context(|| format!("writing {}", tmp.display()))?;
    drop(f);
    fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        File::open(dir)
            .and_then(|d| d.sync_all())
            .with_context(|| format!("syncing {}", dir.display()))?;
    }
    Ok(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_gzip_that_unpacks_past_the_cap_is_refused() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&vec![0u8; 4 << 20]).unwrap();
        let packed = gz.finish().unwrap();
        assert!(packed.len() < 64 << 10, "{} bytes", packed.len());
        let path = Path::new("profile-server.folded.gz");
        let e = read_at_most(flate2::read::GzDecoder::new(&packed[..]), path, 1 << 20)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "profile-server.folded.gz: more than 1 MiB: not a file txbench wrote"
        );
        let ok = read_at_most(flate2::read::GzDecoder::new(&packed[..]), path, 4 << 20).unwrap();
        assert_eq!(ok.len(), 4 << 20);
    }
    use std::time::Duration;

    #[test]
    fn a_small_result_is_rewritten_every_interval_a_large_one_within_its_budget() {
        let ms = Duration::from_millis;
        // A short run's file: 16 KB written in 2 ms, due again after 1 s.
        assert!(checkpoint_due(ms(1000), ms(2), 16_000));
        // 1 s after a rewrite of 1.6 MB that took 40 ms: 4 s of time budget, 100 s of bytes.
        assert!(!checkpoint_due(ms(1000), ms(40), 1_638_400));
        assert!(!checkpoint_due(ms(99_000), ms(40), 1_638_400));
        assert!(checkpoint_due(ms(100_000), ms(40), 1_638_400));
        // A slow disk: 60 KB that took 50 ms waits 5 s, not the 3.7 s its bytes allow.
        assert!(!checkpoint_due(ms(4_900), ms(50), 60_000));
        assert!(checkpoint_due(ms(5_000), ms(50), 60_000));
    }

    #[test]
    fn a_checkpoint_writes_result_json_and_the_next_waits_for_its_budget() {
        let dir = std::env::temp_dir().join(format!("txbench-checkpoint-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut out = RunDir::create(&dir, std::time::SystemTime::now()).unwrap();
        let mut r = vec!["a run".to_string()];
        out.checkpoint(&r).unwrap();
        let first = fs::read(dir.join("result.json")).unwrap();
        // A rewrite just after the first, of a file its bytes would let wait: skipped.
        r.push("x".repeat(1 << 20));
        out.last_checkpoint = Some(Checkpoint {
            bytes: 1 << 20,
            ..out.last_checkpoint.unwrap()
        });
        out.checkpoint(&r).unwrap();
        assert_eq!(fs::read(dir.join("result.json")).unwrap(), first);
        // Once due, it is rewritten.
        out.last_checkpoint = None;
        out.checkpoint(&r).unwrap();
        assert!(fs::read(dir.join("result.json")).unwrap().len() > 1 << 20);
        fs::remove_dir_all(&dir).unwrap();
    }
}
