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
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let flavor = if version.contains("MariaDB") {
        Flavor::MariaDb
    } else {
        Flavor::MySql
    };
    Ok((flavor, version))
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
    let abs = std::fs::canonicalize(path).with_context(|| format!("--binary {shown}"))?;
    let (flavor, version) = version_of(&abs).with_context(|| format!("--binary {shown}"))?;
    let server = version.contains(" Ver ")
        && (version.contains("mariadbd") || version.contains("mysqld"))
        || version.contains("MariaDB");
    if !server {
        let said = version.lines().next().unwrap_or("nothing");
        bail!("--binary {shown}: not a MySQL or MariaDB server (its --version printed: {said})");
    }
    Ok((abs, flavor, version))
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
