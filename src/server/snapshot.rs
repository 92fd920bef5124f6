//! Snapshots of a stopped sandbox's data directory: saved once after a prepare, restored
//! before every experiment cell so that each starts on identical data. A copy (`cp -a
//! --reflink=auto`: a clone where the filesystem can, sparse files kept) in the sandbox's own
//! directory, `snapshot/`.

use super::ServerRecord;
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Where `record`'s snapshot lives.
pub fn path(record: &ServerRecord) -> PathBuf {
    record.dir.join("snapshot")
}

/// Whether `record` has a snapshot.
pub fn exists(record: &ServerRecord) -> bool {
    path(record).join("mysql").is_dir()
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

/// Copies the contents of `from` into `to` (created; it may be a mount point).
fn copy(from: &Path, to: &Path, what: &str) -> Result<()> {
    std::fs::create_dir_all(to)
        .map_err(|e| anyhow::anyhow!("{what}: creating {}: {e}", to.display()))?;
    let out = Command::new("cp")
        .arg("-a")
        .arg("--reflink=auto")
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

/// Bytes in the files under `dir`.
pub fn size(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => stack.push(e.path()),
                Ok(m) => total += m.len(),
                Err(_) => {}
            }
        }
    }
    total
}

/// Copies the stopped server's data directory to its snapshot (replacing an older one);
/// returns the seconds it took and the bytes copied. A failed copy (a full disk) leaves no
/// partial snapshot behind and says why.
pub fn save(record: &ServerRecord) -> Result<(f64, u64)> {
    ensure_stopped(
        record,
        &format!("saving the snapshot of server '{}'", record.name),
    )?;
    let to = path(record);
    empty(&to);
    let t = Instant::now();
    copy(
        &record.datadir(),
        &to,
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
    copy(
        &from,
        &data,
        &format!("restoring the snapshot of server '{}'", record.name),
    )?;
    Ok(t.elapsed().as_secs_f64())
}
