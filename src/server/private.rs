//! Files and directories that only a sandbox's owner and its server's account may touch,
//! made so that neither another local user nor the server's account can turn them against
//! root: created 0700/0600, opened without following a symbolic link, and given away
//! through the open descriptor (a link planted where a file was expected is refused, never
//! followed to /etc). Short socket directories for paths too long for a socket.

use super::process::Account;
use anyhow::{Context, Result, bail};
use std::fs;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Makes `dir` (its parents must be trusted places: the state directory, /var/lib/txbench,
/// /run/txbench, /tmp) and gives it to `owner`, mode 0700. An existing `dir` is used only if
/// it is a real directory of this user's or the owner's: in /tmp, another user may have
/// made it first.
pub fn make_dir(dir: &Path, owner: Option<&Account>) -> Result<()> {
    if let Some(parent) = dir.parent() {
        fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e).with_context(|| format!("creating {}", dir.display())),
    }
    let f = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
        .open(dir)
        .with_context(|| {
            format!(
                "{} is not a directory (a symbolic link?): refused",
                dir.display()
            )
        })?;
    let meta = f
        .metadata()
        .with_context(|| format!("reading {}", dir.display()))?;
    let me = Account::current().uid;
    if meta.uid() != me && owner.is_none_or(|a| a.uid != meta.uid()) {
        bail!(
            "{} belongs to uid {}, not to this user or the server's account: refused",
            dir.display(),
            meta.uid()
        );
    }
    if let Some(a) = owner {
        std::os::unix::fs::fchown(&f, Some(a.uid), Some(a.gid))
            .with_context(|| format!("giving {} to the {} user", dir.display(), a.name))?;
    }
    f.set_permissions(fs::Permissions::from_mode(0o700))
        .with_context(|| format!("setting the mode of {}", dir.display()))
}

/// Writes `text` to `path` (not through a symbolic link), mode 0600, owned by `owner`.
pub fn write(path: &Path, text: &str, owner: Option<&Account>) -> Result<()> {
    use std::io::Write;
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .with_context(|| format!("writing {} (a symbolic link is refused)", path.display()))?;
    // A file made before with a wider mode keeps it through open(): narrow it.
    f.set_permissions(fs::Permissions::from_mode(0o600))
        .and_then(|_| f.write_all(text.as_bytes()))
        .with_context(|| format!("writing {}", path.display()))?;
    if let Some(a) = owner {
        std::os::unix::fs::fchown(&f, Some(a.uid), Some(a.gid))
            .with_context(|| format!("giving {} to the {} user", path.display(), a.name))?;
    }
    Ok(())
}

/// The MariaDB socket of a server directory: inside it when the path fits the 107-byte
/// limit of `sun_path`, else in a short private directory derived from it.
pub fn socket_path(dir: &Path) -> PathBuf {
    let inside = dir.join("mysqld.sock");
    if inside.as_os_str().len() < 100 {
        return inside;
    }
    short_socket_dir(dir).join("mysqld.sock")
}

/// A PostgreSQL sandbox's socket directory: its data directory when the socket path fits
/// `sun_path`, else a short private directory derived from the sandbox's.
pub fn postgres_socket_dir(data: &Path, sandbox: &Path) -> PathBuf {
    if data.join(".s.PGSQL.65535").as_os_str().len() < 100 {
        return data.to_path_buf();
    }
    short_socket_dir(sandbox)
}

/// Where a sandbox whose own directory makes too long a socket path keeps its socket: for
/// root /run/txbench/HASH (only root may write /run), for another user /tmp/txbench-UID-HASH
/// (made by [`make_dir`], which refuses one someone else made first).
pub fn short_socket_dir(sandbox: &Path) -> PathBuf {
    let h = super::cnf::path_hash(sandbox);
    let me = Account::current().uid;
    if me == 0 {
        PathBuf::from(format!("/run/txbench/{h:016x}"))
    } else {
        PathBuf::from(format!("/tmp/txbench-{me}-{h:016x}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_link_is_refused_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        fs::write(&target, "keep").unwrap();
        let link = dir.path().join("my.cnf");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = write(&link, "x", None).unwrap_err().to_string();
        assert!(e.contains("a symbolic link is refused"), "{e}");
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        let dlink = dir.path().join("files");
        std::os::unix::fs::symlink(dir.path(), &dlink).unwrap();
        let e = make_dir(&dlink, None).unwrap_err().to_string();
        assert!(e.contains("a symbolic link?"), "{e}");
        // A real one is made private.
        let real = dir.path().join("tmp");
        make_dir(&real, None).unwrap();
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        write(&real.join("f"), "y", None).unwrap();
        let mode = fs::metadata(real.join("f")).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn long_directories_get_a_short_socket() {
        assert_eq!(
            socket_path(Path::new("/s")),
            PathBuf::from("/s/mysqld.sock")
        );
        let long = PathBuf::from(format!("/{}", "d".repeat(120)));
        let s = socket_path(&long);
        let short = s.to_string_lossy();
        assert!(
            (short.starts_with("/tmp/txbench-") || short.starts_with("/run/txbench/"))
                && s.as_os_str().len() < 100,
            "{short}"
        );
        assert_eq!(s, socket_path(&long));
    }
}
