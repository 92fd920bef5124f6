//! The server program: what `--version` says it is, a program given with `--binary` checked
//! to be a MySQL or MariaDB server, and its SHA-256 (so a pre-flight names the exact build).

use super::cnf::Flavor;
use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What `binary --version` says: MariaDB or MySQL, and the line itself.
pub fn version_of(binary: &Path) -> Result<(Flavor, String)> {
    let out = Command::new(binary)
        .arg("--version")
        .output()
        .with_context(|| format!("running {} --version", binary.display()))?;
    Ok(said(&out))
}

/// The flavor and version line in a `--version` run's output.
fn said(out: &std::process::Output) -> (Flavor, String) {
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let flavor = if version.contains("MariaDB") {
        Flavor::MariaDb
    } else {
        Flavor::MySql
    };
    (flavor, version)
}

/// A program given with `--binary`: an executable whose `--version` names a MySQL or
/// MariaDB server (`mariadbd`/`mysqld ... Ver ...`). Returns its absolute path.
pub fn check(path: &Path) -> Result<(PathBuf, Flavor, String)> {
    use std::os::unix::fs::PermissionsExt;
    let shown = path.display();
    let meta =
        std::fs::metadata(path).with_context(|| format!("--binary {shown}: no such file"))?;
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
        bail!("--binary {shown}: not an executable file");
    }
    // Another user's build, or one others may write, is never run (as root, least of all).
    let abs = crate::owned::check_program(path, "--binary")?;
    // Started by root, the server runs as its own account: `--version` runs as that
    // account, which must reach the program.
    let account = super::server_account(crate::engine::Engine::Mysql)?;
    let mut c = Command::new(&abs);
    c.arg("--version");
    if let Some(a) = &account {
        a.apply(&mut c, Path::new("/"));
    }
    let ran = c.output();
    if let Some(a) = &account
        && !ran.as_ref().is_ok_and(|o| o.status.success())
    {
        let why = match &ran {
            Err(e) => e.to_string(),
            Ok(o) => String::from_utf8_lossy(&o.stderr)
                .lines()
                .next()
                .unwrap_or("it failed")
                .to_string(),
        };
        bail!(
            "--binary {shown}: the '{}' user, which runs sandbox servers, cannot run it ({why}): put the build where it can read it, such as under /opt",
            a.name
        );
    }
    let out = ran.with_context(|| format!("--binary {shown}: running it with --version"))?;
    let (flavor, version) = said(&out);
    if !is_server_version(&version) {
        let said = version.lines().next().unwrap_or("nothing");
        bail!("--binary {shown}: not a MySQL or MariaDB server (its --version printed: {said})");
    }
    Ok((abs, flavor, version))
}

/// Whether a `--version` line is a server's: `mariadbd  Ver 10.11.19-MariaDB-… for …` or
/// `mysqld  Ver 8.0.36 for …`. Clients say `Distrib` (`mariadb  Ver 15.1 Distrib 10.11…`,
/// mariadb-dump, -admin, -slap) or name themselves `mysql` (MySQL 8's client), and
/// mariadb-backup says no `Ver` at all.
fn is_server_version(version: &str) -> bool {
    let line = version.lines().next().unwrap_or("");
    let mut words = line.split_whitespace();
    let program = words.next().unwrap_or("");
    let program = program.rsplit('/').next().unwrap_or(program);
    let Some(ver) = words.skip_while(|w| *w != "Ver").nth(1) else {
        return false;
    };
    !line.contains("Distrib")
        && (program.contains("mariadbd") || program.contains("mysqld") || ver.contains("-MariaDB"))
}

/// The file's SHA-256, hex.
pub fn sha256(path: &Path) -> Result<String> {
    let mut f = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut h = Sha256::new();
    std::io::copy(&mut f, &mut h).with_context(|| format!("reading {}", path.display()))?;
    Ok(h.finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_a_known_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("abc");
        std::fs::write(&p, "abc").unwrap();
        assert_eq!(
            sha256(&p).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn server_builds_are_told_from_client_programs() {
        for server in [
            "/usr/sbin/mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)",
            "mariadbd-pgo  Ver 11.4.2-MariaDB for Linux on x86_64 (Source distribution)",
            "/opt/mysql/bin/mysqld  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)",
            "/tmp/renamed  Ver 10.6.16-MariaDB-log for Linux on x86_64 (MariaDB Server)",
        ] {
            assert!(is_server_version(server), "{server}");
        }
        for client in [
            "mariadb  Ver 15.1 Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64) using  EditLine wrapper",
            "mariadb-dump  Ver 10.19 Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64)",
            "/usr/bin/mariadb-admin  Ver 10.0 Distrib 10.11.19-MariaDB, for debian-linux-gnu on x86_64",
            "/usr/bin/mariadb-backup based on MariaDB server 10.11.19-MariaDB debian-linux-gnu (x86_64)",
            "/usr/bin/mariadb-binlog Ver 3.5 for debian-linux-gnu at x86_64",
            "mysql  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)",
            "",
        ] {
            assert!(!is_server_version(client), "{client}");
        }
    }

    #[test]
    fn programs_that_are_not_servers_are_refused_by_name() {
        let e = check(Path::new("/nonexistent/mariadbd")).unwrap_err();
        assert!(format!("{e:#}").starts_with("--binary /nonexistent/mariadbd: no such file"));
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("mariadbd");
        std::fs::write(&plain, "").unwrap();
        let e = check(&plain).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("--binary {}: not an executable file", plain.display())
        );
        let e = check(Path::new("/bin/true")).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "--binary /bin/true: not a MySQL or MariaDB server (its --version printed: "
            ),
            "{e}"
        );
    }
}
