//! Snapshots of a stopped sandbox's data directory: saved once after a prepare, restored
//! before every experiment cell so that each starts on identical data. A copy in the
//! sandbox's own directory, `snapshot/`: `cp -a --reflink=auto` (a clone where the filesystem
//! can), saved `--sparse=always`, so the zeros that fill most of a memory-sized redo log
//! (InnoDB's 2 GiB ib_logfile0 after a small prepare) and the free pages of the tablespaces
//! are holes that cost nothing to copy back. A restored file gets its holes allocated again
//! (`fallocate`, metadata only), so the server writes into allocated space as it does on
//! the data directory it made itself.

use super::ServerRecord;
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Where `record`'s snapshot lives.
pub fn path(record: &ServerRecord) -> PathBuf {
    record.dir.join("snapshot")
}

/// Whether `record` has a snapshot: a whole data directory (MariaDB/MySQL's has its `mysql`
/// schema, PostgreSQL's its PG_VERSION).
pub fn exists(record: &ServerRecord) -> bool {
    let p = path(record);
    p.join("mysql").is_dir() || p.join("PG_VERSION").is_file()
}

/// Refuses to copy the data directory of a server whose process is still there: a copy
/// of live files is torn, and every cell restored from it would start from it.
fn ensure_stopped(record: &ServerRecord, what: &str) -> Result<()> {
    let pid = super::inspect(record.clone()).state.pid().or_else(|| {
        super::process::running_on(&record.datadir())
            .or_else(|| super::process::running_on(&record.cnf()))
    });
    if let Some(pid) = pid {
        bail!(
            "{what}: server '{}' is still running (pid {pid}); a snapshot is taken or restored only with the server stopped",
            record.name
        );
    }
    Ok(())
}

/// Copies the contents of `from` into `to` (created; it may be a mount point); `sparse`:
/// runs of zeros become holes.
fn copy(from: &Path, to: &Path, sparse: bool, what: &str) -> Result<()> {
    std::fs::create_dir_all(to)
        .map_err(|e| anyhow::anyhow!("{what}: creating {}: {e}", to.display()))?;
    let out = Command::new("cp")
        .arg("-a")
        .arg("--reflink=auto")
        .arg(if sparse {
            "--sparse=always"
        } else {
            "--sparse=auto"
        })
        .arg(from.join("."))
        .arg(to)
        .output()
        .map_err(|e| anyhow::anyhow!("{what}: running cp: {e}"))?;
    if !out.status.success() {
        empty(to);
        let err = String::from_utf8_lossy(&out.stderr);
        bail!(
            "{what}: cp failed ({}): {}",
            out.status,
            err.lines().last().unwrap_or("").trim()
        );
    }
    Ok(())
}

/// Allocates the holes of every regular file under `dir` (`fallocate`, mode 0: blocks
/// reserved, no data written, nothing that was written changed); returns the files that had
/// holes.
fn allocate(dir: &Path, what: &str) -> Result<usize> {
    use std::os::unix::fs::MetadataExt;
    use std::os::unix::io::AsRawFd;
    let mut filled = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d)
            .map_err(|e| anyhow::anyhow!("{what}: reading {}: {e}", d.display()))?;
        for e in entries.flatten() {
            let Ok(m) = e.path().symlink_metadata() else {
                continue;
            };
            if m.is_dir() {
                stack.push(e.path());
                continue;
            }
            if !m.is_file() || m.blocks() * 512 >= m.len() {
                continue;
            }
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(e.path())
                .map_err(|err| anyhow::anyhow!("{what}: opening {}: {err}", e.path().display()))?;
            // SAFETY: a valid descriptor of an open file; mode 0 only reserves blocks.
            let rc = unsafe { libc::fallocate(f.as_raw_fd(), 0, 0, m.len() as libc::off_t) };
            if rc != 0 {
                let err = std::io::Error::last_os_error();
                // A file system without fallocate (ZFS before 2.2, NFSv3): the holes stay,
                // as they would after any sparse copy.
                if matches!(
                    err.raw_os_error(),
                    Some(libc::EOPNOTSUPP) | Some(libc::ENOSYS)
                ) {
                    return Ok(filled);
                }
                bail!(
                    "{what}: allocating {} ({} bytes): {err}",
                    e.path().display(),
                    m.len()
                );
            }
            filled += 1;
        }
    }
    Ok(filled)
}

/// Removes what is in `dir`, and `dir` itself where it can (not a mount point).
fn empty(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            let _ = if p.is_dir() && !p.is_symlink() {
                std::fs::remove_dir_all(&p)
            } else {
                std::fs::remove_file(&p)
            };
        }
    }
    let _ = std::fs::remove_dir(dir);
}

/// Bytes the files under `dir` take on disk (holes not counted).
pub fn size(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => stack.push(e.path()),
                Ok(m) => total += m.blocks() * 512,
                Err(_) => {}
            }
        }
    }
    total
}

/// Refuses a data directory its server left without a clean shutdown (killed, crashed):
/// every cell restored from it would first recover it, seconds each, and start from
/// whatever that recovery makes of it. MariaDB/MySQL: the error log's last start must be
/// followed by a completed shutdown; PostgreSQL's fast shutdown is always clean.
fn ensure_clean(record: &ServerRecord, what: &str) -> Result<()> {
    if record.engine() != super::Engine::Mysql {
        return Ok(());
    }
    let log = std::fs::read_to_string(record.error_log()).unwrap_or_default();
    let last_start = log
        .rfind("starting as process")
        .into_iter()
        .chain(log.rfind("[Note] Starting MariaDB"))
        .max();
    let Some(at) = last_start else {
        return Ok(());
    };
    if !log[at..].contains("Shutdown complete") {
        bail!(
            "{what}: server '{}' was not shut down cleanly since it last started (its error log shows no completed shutdown): every cell restored from it would recover it first",
            record.name
        );
    }
    Ok(())
}

/// Copies the stopped server's data directory to its snapshot (replacing an older one);
/// returns the seconds it took and the bytes copied. A failed copy (a full disk) leaves no
/// partial snapshot behind and says why.
pub fn save(record: &ServerRecord) -> Result<(f64, u64)> {
    let what = format!("saving the snapshot of server '{}'", record.name);
    ensure_stopped(record, &what)?;
    ensure_clean(record, &what)?;
    let to = path(record);
    empty(&to);
    let t = Instant::now();
    copy(
        &record.datadir(),
        &to,
        true,
        &format!("saving the snapshot of server '{}'", record.name),
    )?;
    Ok((t.elapsed().as_secs_f64(), size(&to)))
}

/// Replaces the stopped server's data directory with its snapshot; returns the seconds it
/// took.
pub fn restore(record: &ServerRecord) -> Result<f64> {
    let from = path(record);
    if !exists(record) {
        bail!(
            "server '{}' has no snapshot at {}",
            record.name,
            from.display()
        );
    }
    ensure_stopped(
        record,
        &format!("restoring the snapshot of server '{}'", record.name),
    )?;
    let t = Instant::now();
    let data = record.datadir();
    empty(&data);
    if data.exists() && std::fs::read_dir(&data).map_or(true, |mut d| d.next().is_some()) {
        bail!("removing {}: it could not be emptied", data.display());
    }
    let what = format!("restoring the snapshot of server '{}'", record.name);
    copy(&from, &data, false, &what)?;
    allocate(&data, &what)?;
    Ok(t.elapsed().as_secs_f64())
}
