//! The sandboxes' password. One per state directory, made at the first start from the
//! kernel's random numbers, kept in `$TXBENCH_HOME/secret` (mode 0600, readable by the user
//! who owns the sandboxes and by root only) and never printed: outputs show URLs without it,
//! and a `--url` naming a sandbox of this state directory gets it from the file. The servers
//! store only its hash (MySQL's `mysql_native_password`, PostgreSQL's SCRAM verifier).
//! One secret for all of a state directory's sandboxes, because the members of a topology
//! must share it (Galera copies its users to a joining node, replicas log in to their
//! primary).

use super::{BENCH_USER, ServerRecord, StateDir};
use crate::engine::TargetUrl;
use anyhow::{Context, Result};
use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Letters and digits: nothing to quote in SQL, a URL or a configuration file.
const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/// 24 of them: 142 bits.
const LEN: usize = 24;

/// Where the secret of the state directory at `root` is kept.
pub fn path(root: &Path) -> PathBuf {
    root.join("secret")
}

/// The state directory's secret, made (0600, never replaced) if there is none yet. Written
/// whole to a private temporary file and linked into place, so that a txbench starting at
/// the same moment reads either none or all of it.
pub fn ensure(home: &StateDir) -> Result<String> {
    let p = path(home.root());
    if let Some(s) = read(home.root())? {
        return Ok(s);
    }
    home.make()?;
    let secret = generate()?;
    let tmp = home
        .root()
        .join(format!(".secret.{}.tmp", std::process::id()));
    let _ = fs::remove_file(&tmp);
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .with_context(|| format!("creating {}", tmp.display()))?;
    f.write_all(secret.as_bytes())
        .and_then(|_| f.sync_all())
        .with_context(|| format!("writing {}", tmp.display()))?;
    let linked = fs::hard_link(&tmp, &p);
    let _ = fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(secret),
        // Another txbench made it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            read(home.root())?.with_context(|| format!("{} is empty or malformed", p.display()))
        }
        Err(e) => Err(e).with_context(|| format!("creating {}", p.display())),
    }
}

/// The secret of the state directory at `root`, if it has one. A file others may read, a
/// symbolic link, or a file another user owns is refused: the password would not be the
/// owner's only, or not the owner's at all.
pub fn read(root: &Path) -> Result<Option<String>> {
    use std::os::unix::fs::MetadataExt;
    let p = path(root);
    // Opened once, without following a link, and judged by what was opened: a check by path
    // and a second open could read a file swapped in between.
    let f = match fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(&p)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            anyhow::bail!(
                "{}: a symbolic link, not a file of this user's: remove it with the sandboxes that use it",
                p.display()
            )
        }
        Err(e) => return Err(e).with_context(|| format!("reading {}", p.display())),
    };
    let meta = f
        .metadata()
        .with_context(|| format!("reading {}", p.display()))?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if !meta.file_type().is_file() || meta.uid() != me {
        anyhow::bail!(
            "{}: not a file of this user's (uid {me}): remove it with the sandboxes that use it",
            p.display()
        );
    }
    if meta.mode() & 0o077 != 0 {
        anyhow::bail!(
            "{}: others may read it (mode {:o}); make it private with chmod 600",
            p.display(),
            meta.mode() & 0o777
        );
    }
    let mut s = String::new();
    f.take(4096)
        .read_to_string(&mut s)
        .with_context(|| format!("reading {}", p.display()))?;
    let s = s.trim();
    if s.len() < 16 || !s.bytes().all(|b| ALPHABET.contains(&b)) {
        anyhow::bail!(
            "{} is malformed (remove it with the sandboxes that use it)",
            p.display()
        );
    }
    Ok(Some(s.to_string()))
}

fn generate() -> Result<String> {
    let mut f = fs::File::open("/dev/urandom").context("opening /dev/urandom")?;
    let mut out = String::with_capacity(LEN);
    let mut buf = [0u8; 64];
    while out.len() < LEN {
        f.read_exact(&mut buf).context("reading /dev/urandom")?;
        // Rejection keeps every letter equally likely (248 = 4 × 62).
        for b in buf.iter().filter(|b| **b < 248) {
            if out.len() < LEN {
                out.push(ALPHABET[usize::from(*b) % ALPHABET.len()] as char);
            }
        }
    }
    Ok(out)
}

/// MySQL's `mysql_native_password` hash of `secret` (`*` and SHA1(SHA1(secret)) in hex), so
/// that what the server is told at each start holds no password.
pub fn mysql_native_hash(secret: &str) -> String {
    use sha1::{Digest, Sha1};
    let once = Sha1::digest(secret.as_bytes());
    let twice = Sha1::digest(once);
    let hex: String = twice.iter().map(|b| format!("{b:02X}")).collect();
    format!("*{hex}")
}

/// Gives a URL without a password that names one of `home`'s running sandboxes the
/// sandboxes' password: the benchmark user at the sandbox's socket, or at 127.0.0.1 and the
/// port the sandbox's own process listens on (no other user can bind that address and port
/// while it does; `localhost` is not enough, since it may name ::1 first, where anyone may
/// listen). Any other URL is left as it is: the secret goes to no process but a sandbox.
pub fn fill(home: &StateDir, url: &mut TargetUrl) -> Result<()> {
    if url.password.is_some() || url.user != BENCH_USER {
        return Ok(());
    }
    if url.socket.is_none() && url.host != "127.0.0.1" {
        return Ok(());
    }
    let Ok(entries) = fs::read_dir(home.root().join("servers")) else {
        return Ok(());
    };
    let ours = entries.flatten().find_map(|e| {
        ServerRecord::load(&e.path()).ok().filter(|r| {
            r.engine() == url.engine
                && match &url.socket {
                    Some(s) => *s == r.socket,
                    None => r.port == url.port,
                }
        })
    });
    if let Some(r) = ours
        && let Some(secret) = read(home.root())?
    {
        // The listener is checked before this and every later connection.
        url.password = Some(secret);
        url.sandbox_login = true;
        url.sandbox_pid_file = Some(r.pid_file());
    }
    Ok(())
}

/// A `--url` as given, with the password of the sandbox it names, if it names one of this
/// state directory's (see [`fill`]).
pub fn sandbox_login(mut url: TargetUrl) -> Result<TargetUrl> {
    if url.password.is_none()
        && let Ok(home) = super::StateDir::from_env()
    {
        fill(&home, &mut url)?;
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_private_long_and_made_once() {
        let dir = tempfile::tempdir().unwrap();
        let home = StateDir::at(dir.path()).unwrap();
        let s = ensure(&home).unwrap();
        assert_eq!(s.len(), LEN);
        assert!(s.bytes().all(|b| ALPHABET.contains(&b)));
        assert_eq!(ensure(&home).unwrap(), s);
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(path(dir.path())).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // Two state directories, two secrets.
        let other = tempfile::tempdir().unwrap();
        assert_ne!(ensure(&StateDir::at(other.path()).unwrap()).unwrap(), s);
        // A secret others can read is refused, naming the file and the fix.
        fs::set_permissions(path(dir.path()), fs::Permissions::from_mode(0o644)).unwrap();
        let e = read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("chmod 600"), "{e}");
    }

    #[test]
    fn mysql_native_hash_is_mysqls() {
        // SELECT PASSWORD('secret') on MariaDB 10.11.
        assert_eq!(
            mysql_native_hash("secret"),
            "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7"
        );
    }
}
