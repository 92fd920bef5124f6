//! Files and directories txbench writes for this user in places another local user may
//! have reached first (an `--out` under /tmp, a state directory, a results store). Like
//! OpenSSH's StrictModes: a directory is used only when it is a real directory of this
//! user's that no other user may write into, under parents that no other user can rename
//! it out of; a file is created never through a symbolic link and never over another file,
//! and opened for reading without following a link.

use anyhow::{Context, Result, bail};
use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// This process's effective user.
fn me() -> u32 {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() }
}

/// Whether `gid` is one of this process's groups (its effective group or a supplementary
/// one: a Kubernetes pod's fsGroup, a team's shared group): members of a group we are in
/// are trusted as we are.
fn my_group(gid: u32) -> bool {
    // SAFETY: getegid has no preconditions.
    if unsafe { libc::getegid() } == gid {
        return true;
    }
    let mut groups = vec![0 as libc::gid_t; 256];
    // SAFETY: the buffer holds as many entries as we say.
    let n = unsafe { libc::getgroups(groups.len() as libc::c_int, groups.as_mut_ptr()) };
    n > 0 && groups[..n as usize].contains(&gid)
}

/// Why a directory's metadata makes it not ours to write into, if it does: a symbolic
/// link, not a directory, another user's, or writable by another user (others, or a group
/// that is not ours).
fn not_ours(meta: &fs::Metadata) -> Option<String> {
    if meta.file_type().is_symlink() {
        return Some("is a symbolic link".into());
    }
    if !meta.is_dir() {
        return Some("is not a directory".into());
    }
    if meta.uid() != me() {
        return Some(format!("belongs to uid {}, not to this user", meta.uid()));
    }
    written_by_others(meta, false)
}

/// Why other users may write what `meta` describes, if they may: anyone (o+w), or a group
/// that is not one of ours (with `root_group`, root's group counts as ours: a system's
/// programs).
fn written_by_others(meta: &fs::Metadata, root_group: bool) -> Option<String> {
    let mode = meta.mode();
    let ours = my_group(meta.gid()) || (root_group && meta.gid() == 0);
    (mode & 0o002 != 0 || (mode & 0o020 != 0 && !ours))
        .then(|| format!("may be written by other users (mode {:o})", mode & 0o7777))
}

/// The absolute form of `path` (relative to the working directory), not resolved.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Checks the parents of `path`: each one that exists must be root's or this user's, or,
/// when others may write into it, sticky (as /tmp is: nobody renames another's entry).
/// A parent another user owns could swap what it holds between our check and our use.
fn check_parents(path: &Path, what: &str) -> Result<()> {
    let path = absolute(path);
    for dir in path.ancestors().skip(1) {
        let Ok(meta) = fs::symlink_metadata(dir) else {
            continue;
        };
        let owner_ok = meta.uid() == 0 || meta.uid() == me();
        let open_to_others = written_by_others(&meta, true).is_some();
        let sticky = meta.mode() & 0o1000 != 0;
        if !owner_ok || (open_to_others && !sticky) {
            bail!(
                "{what} {}: its parent {} belongs to uid {} (mode {:o}), so another user could swap what it holds: refused",
                path.display(),
                dir.display(),
                meta.uid(),
                meta.mode() & 0o7777
            );
        }
    }
    Ok(())
}

/// Checks that the directory at `path` is one this user may trust with its files (see the
/// module's doc); `what` names it in the error (`--out`, `the state directory`).
pub fn check_dir(path: &Path, what: &str) -> Result<()> {
    let meta = fs::symlink_metadata(path)
        .with_context(|| format!("{what} {}: cannot read it", path.display()))?;
    if let Some(why) = not_ours(&meta) {
        bail!("{what} {}: {why}: refused", path.display());
    }
    check_parents(path, what)
}

/// Checks that the existing file at `path` is one this user may trust (a store, a state
/// file): a regular file, not a symbolic link, of this user's, that no other user may
/// write, under parents [`check_dir`] would trust.
pub fn check_file(path: &Path, what: &str) -> Result<()> {
    let meta = fs::symlink_metadata(path)
        .with_context(|| format!("{what} {}: cannot read it", path.display()))?;
    let why = if meta.file_type().is_symlink() {
        Some("is a symbolic link".to_string())
    } else if !meta.is_file() {
        Some("is not a file".into())
    } else if meta.uid() != me() {
        Some(format!("belongs to uid {}, not to this user", meta.uid()))
    } else {
        written_by_others(&meta, false)
    };
    if let Some(why) = why {
        bail!("{what} {}: {why}: refused", path.display());
    }
    check_parents(path, what)
}

/// Checks that the program at `path` (its links followed) is one this user may run, as root
/// too: it and every directory above it belong to root or to this user, and no other user
/// may write into any of them (a sticky directory such as /tmp aside), so nobody else can
/// replace it between its check and its start. Returns its canonical path.
pub fn check_program(path: &Path, what: &str) -> Result<PathBuf> {
    let abs = fs::canonicalize(path)
        .with_context(|| format!("{what} {}: cannot read it", path.display()))?;
    let meta = fs::metadata(&abs).with_context(|| format!("{what} {}", abs.display()))?;
    let why = if !meta.is_file() {
        Some("is not a file".to_string())
    } else if meta.uid() != 0 && meta.uid() != me() {
        Some(format!(
            "belongs to uid {}, neither root nor this user",
            meta.uid()
        ))
    } else {
        written_by_others(&meta, true)
    };
    if let Some(why) = why {
        bail!("{what} {}: {why}: refused", abs.display());
    }
    check_parents(&abs, what)?;
    Ok(abs)
}

/// Makes the directory `path` (and its missing parents), or takes the one there if
/// [`check_dir`] trusts it. A directory another user made first, even empty, is refused.
pub fn make_dir(path: &Path, what: &str) -> Result<()> {
    // Nothing is made under a parent another user could swap.
    check_parents(path, what)?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent)
            .with_context(|| format!("{what} {}: cannot create it", path.display()))?;
    }
    match fs::DirBuilder::new().mode(0o755).create(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => {
            return Err(e).with_context(|| format!("{what} {}: cannot create it", path.display()));
        }
    }
    check_dir(path, what)
}

/// Creates the file `path`, which must not exist: never through a symbolic link, never
/// over another file (O_EXCL | O_NOFOLLOW).
pub fn create_new(path: &Path) -> Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
        .with_context(|| format!("creating {} (it must not exist yet)", path.display()))
}

/// Creates `path` afresh: whatever stands there (an earlier file of ours, or a link someone
/// planted) is removed, never followed, and the file made as [`create_new`] does.
pub fn replace(path: &Path) -> Result<File> {
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("replacing {}", path.display())),
    }
    create_new(path)
}

/// Writes `bytes` to `path` through [`replace`].
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<()> {
    use std::io::Write;
    replace(path)?
        .write_all(bytes.as_ref())
        .with_context(|| format!("writing {}", path.display()))
}

/// Opens the regular file `path` for reading without following a symbolic link (and
/// without waiting on a FIFO planted in its place).
pub fn open(path: &Path) -> Result<File> {
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("opening {} (a symbolic link is refused)", path.display()))?;
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        bail!("{}: not a regular file: refused", path.display());
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_planted_link_is_never_followed_nor_truncated() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("target");
        fs::write(&target, "keep").unwrap();
        let link = d.path().join("perf-server.log");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(create_new(&link).is_err());
        assert!(open(&link).is_err());
        // replace removes the link itself, then creates a file of its own.
        write(&link, "mine").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        assert_eq!(fs::read_to_string(&link).unwrap(), "mine");
        assert!(
            !fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_directory_others_may_write_or_a_link_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        make_dir(&out, "--out").unwrap();
        make_dir(&out, "--out").unwrap();
        fs::set_permissions(&out, fs::Permissions::from_mode(0o777)).unwrap();
        let e = make_dir(&out, "--out").unwrap_err().to_string();
        assert!(
            e.contains("may be written by other users (mode 777): refused"),
            "{e}"
        );
        let link = d.path().join("link");
        std::os::unix::fs::symlink(d.path(), &link).unwrap();
        let e = check_dir(&link, "--out").unwrap_err().to_string();
        assert!(e.ends_with("is a symbolic link: refused"), "{e}");
        // A parent others may write into, not sticky: what it holds could be swapped.
        let open_parent = d.path().join("open");
        fs::create_dir(&open_parent).unwrap();
        fs::set_permissions(&open_parent, fs::Permissions::from_mode(0o777)).unwrap();
        let e = make_dir(&open_parent.join("run"), "--out")
            .unwrap_err()
            .to_string();
        assert!(e.contains("another user could swap what it holds"), "{e}");
        // Sticky, as /tmp: fine.
        fs::set_permissions(&open_parent, fs::Permissions::from_mode(0o1777)).unwrap();
        make_dir(&open_parent.join("run2"), "--out").unwrap();
    }
}
