//! PostgreSQL sandboxes: Debian's `postgresql` package, a data directory made by `initdb`,
//! `postgres` on 127.0.0.1 and a unix socket, a postgresql.conf sized to memory with the
//! user's `--config` and `--set` last. `server/mod.rs` drives the lifecycle shared with
//! MariaDB (ports, records, process groups, stop); this file holds what differs.
//!
//! PostgreSQL refuses to run as root: started by root, the server runs as the `postgres`
//! user the package creates, and its data directory lives where that user can reach it
//! (`/var/lib/txbench/postgres/NAME-HASH`), recorded in server.json.

use crate::engine::{Engine, TargetUrl, Value};
use crate::server::cnf::Setting;
use anyhow::{Context, Result, bail};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What to install when there is no PostgreSQL server.
pub const INSTALL_HINT: &str = "install the Debian package postgresql (apt-get install postgresql)";

/// The superuser `initdb` creates, which txbench uses to create its own role and database.
pub const SUPERUSER: &str = "postgres";

/// Where root's sandboxes keep their data (the `postgres` user must reach it).
pub const ROOT_DATA_HOME: &str = "/var/lib/txbench/postgres";

/// The `postgres` program: the newest `/usr/lib/postgresql/*/bin/postgres` (Debian's
/// layout, not on PATH), else one on `dirs`.
pub fn find_server(dirs: &[PathBuf]) -> Result<(PathBuf, String)> {
    find_server_in(Path::new("/usr/lib/postgresql"), dirs)
}

/// [`find_server`] with Debian's version directories under `lib`.
fn find_server_in(lib: &Path, dirs: &[PathBuf]) -> Result<(PathBuf, String)> {
    let mut versions: Vec<(u32, PathBuf)> = fs::read_dir(lib)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            let p = e.path().join("bin/postgres");
            p.is_file().then_some((v, p))
        })
        .collect();
    versions.sort();
    let found = versions.pop().map(|(_, p)| p).or_else(|| {
        dirs.iter()
            .map(|d| d.join("postgres"))
            .find(|p| p.is_file())
    });
    let Some(binary) = found else {
        bail!("postgres not found (in /usr/lib/postgresql/*/bin or on PATH): {INSTALL_HINT}");
    };
    let version = version_of(&binary)?;
    Ok((binary, version))
}

/// `postgres --version`: `postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)`.
pub fn version_of(binary: &Path) -> Result<String> {
    let out = Command::new(binary)
        .arg("--version")
        .output()
        .with_context(|| format!("running {} --version", binary.display()))?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || !text.contains("PostgreSQL") {
        bail!("{} is not a PostgreSQL server ({text})", binary.display());
    }
    Ok(text)
}

/// A program next to `postgres` (initdb).
pub fn sibling(binary: &Path, name: &str) -> Result<PathBuf> {
    let p = binary.with_file_name(name);
    if !p.is_file() {
        bail!(
            "{name} not found next to {}: {INSTALL_HINT}",
            binary.display()
        );
    }
    Ok(p)
}

/// Why a key may not be set by the user (txbench manages it), if it is one of those.
pub fn managed(key: &str) -> Option<String> {
    let k = key.trim().to_ascii_lowercase().replace('-', "_");
    const MANAGED: &[&str] = &[
        "data_directory",
        "config_file",
        "hba_file",
        "ident_file",
        "external_pid_file",
        "port",
        "listen_addresses",
        "unix_socket_directories",
    ];
    if MANAGED.contains(&k.as_str()) {
        return Some(format!(
            "{k} is managed by txbench (the sandbox's directory, loopback and port); use --port for the port"
        ));
    }
    if k.starts_with("include") {
        return Some(format!(
            "{k} directives are not supported in --config (inline the settings)"
        ));
    }
    None
}

/// Checks a `--config` postgresql.conf fragment for managed settings.
pub fn check_user_config(path: &Path, text: &str) -> Result<()> {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let key = line.split(['=', ' ', '\t']).next().unwrap_or(line).trim();
        if let Some(m) = managed(key) {
            bail!("{} line {}: {m}", path.display(), i + 1);
        }
    }
    Ok(())
}

/// Everything that goes into a sandbox's postgresql.conf.
pub struct ConfInputs<'a> {
    /// The sandbox name (for the header).
    pub name: &'a str,
    /// The socket directory.
    pub socket_dir: &'a Path,
    /// The TCP port on 127.0.0.1.
    pub port: u16,
    /// Memory the server may size itself to (the host's, shared by a topology's servers).
    pub mem_bytes: u64,
    /// The user's `--config` file, if any.
    pub user_config: Option<(&'a Path, &'a str)>,
    /// `--set` lines.
    pub sets: &'a [Setting],
}

/// The benchmark defaults for `mem` bytes: (key, value, why).
pub fn defaults(mem: u64) -> Vec<(&'static str, String, &'static str)> {
    const MB: u64 = 1 << 20;
    let shared = (mem / 4 / MB).max(128);
    let wal = (shared * 2).clamp(2048, 16384);
    // Every connection is a process with its own memory: 2000 as MariaDB's sandboxes
    // allow, when there are about 8 MiB a connection to spare.
    let connections = (mem / (8 * MB)).clamp(100, 2000);
    vec![
        (
            "shared_buffers",
            format!("{shared}MB"),
            "a quarter of memory",
        ),
        (
            "effective_cache_size",
            format!("{}MB", mem * 3 / 4 / MB),
            "three quarters of memory",
        ),
        (
            "maintenance_work_mem",
            format!("{}MB", (mem / 16 / MB).clamp(64, 2048)),
            "index builds after a load",
        ),
        (
            "max_wal_size",
            format!("{wal}MB"),
            "checkpoints by time, not WAL volume",
        ),
        ("min_wal_size", "1024MB".into(), ""),
        ("checkpoint_timeout", "15min".into(), ""),
        ("checkpoint_completion_target", "0.9".into(), ""),
        (
            "max_connections",
            connections.to_string(),
            "as MariaDB's 2000 where memory allows",
        ),
        (
            "synchronous_commit",
            "on".into(),
            "durable commits, as innodb_flush_log_at_trx_commit=1",
        ),
        ("fsync", "on".into(), ""),
        ("full_page_writes", "on".into(), "as innodb_doublewrite"),
        ("wal_level", "replica".into(), "the default"),
        (
            "track_io_timing",
            "on".into(),
            "read times for the server metrics",
        ),
        ("log_checkpoints", "on".into(), ""),
        ("log_line_prefix", "'%m [%p] '".into(), ""),
        ("lc_messages", "'C'".into(), "messages txbench can read"),
        ("timezone", "'UTC'".into(), ""),
    ]
}

/// A value as postgresql.conf reads it: simple words bare, anything else quoted.
fn conf_value(v: &str) -> String {
    let v = v.trim();
    if v.starts_with('\'') && v.ends_with('\'') && v.len() >= 2 {
        return v.to_string();
    }
    if !v.is_empty()
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        return v.to_string();
    }
    format!("'{}'", v.replace('\'', "''"))
}

/// The generated postgresql.conf: managed lines, defaults, --config, --set (later wins).
pub fn render(i: &ConfInputs) -> String {
    let mut s = format!(
        "# postgresql.conf of txbench sandbox '{}' (generated at every start; later lines win)\n\n\
         # Managed by txbench\n\
         listen_addresses = '127.0.0.1'\n\
         port = {}\n\
         unix_socket_directories = '{}'\n\n\
         # Benchmark defaults\n",
        i.name,
        i.port,
        i.socket_dir.display()
    );
    for (k, v, why) in defaults(i.mem_bytes) {
        if why.is_empty() {
            s.push_str(&format!("{k} = {v}\n"));
        } else {
            s.push_str(&format!("{k} = {v}\t# {why}\n"));
        }
    }
    if let Some((path, text)) = i.user_config {
        s.push_str(&format!("\n# From --config {}\n", path.display()));
        s.push_str(text);
        if !text.ends_with('\n') {
            s.push('\n');
        }
    }
    if !i.sets.is_empty() {
        s.push_str("\n# From --set\n");
        for set in i.sets {
            s.push_str(&format!(
                "{} = {}\n",
                set.key.replace('-', "_"),
                conf_value(&set.value)
            ));
        }
    }
    s
}

/// Who the server runs as: None (this user), or when root the `postgres` user's uid and gid.
pub fn run_as() -> Result<Option<(u32, u32)>> {
    if !crate::server::process::is_root() {
        return Ok(None);
    }
    let name = std::ffi::CString::new(SUPERUSER).expect("no NUL");
    // SAFETY: getpwnam returns a pointer to static storage or null; read at once.
    let pw = unsafe { libc::getpwnam(name.as_ptr()) };
    if pw.is_null() {
        bail!(
            "PostgreSQL does not run as root and there is no 'postgres' user to run it as: {INSTALL_HINT}"
        );
    }
    // SAFETY: pw is non-null and points at a passwd entry.
    let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
    Ok(Some((uid, gid)))
}

/// Where a sandbox's data directory goes: inside it, or for root (whose sandbox may sit
/// under a directory the `postgres` user cannot enter) under [`ROOT_DATA_HOME`].
pub fn data_dir(sandbox: &Path, name: &str) -> Option<PathBuf> {
    if !crate::server::process::is_root() {
        return None;
    }
    let h = crate::server::cnf::path_hash(sandbox) as u32;
    Some(PathBuf::from(ROOT_DATA_HOME).join(format!("{name}-{h:08x}")))
}

/// Makes `dir` (the data directory, which also holds the socket) owned by `owner`, mode 0700.
pub fn make_data_dir(dir: &Path, owner: Option<(u32, u32)>) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if let Some(parent) = dir.parent() {
        fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    if let Some((uid, gid)) = owner {
        std::os::unix::fs::chown(dir, Some(uid), Some(gid))
            .with_context(|| format!("giving {} to the postgres user", dir.display()))?;
    }
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
        .with_context(|| format!("setting the mode of {}", dir.display()))?;
    Ok(())
}

/// Runs `cmd` as `owner` (set before exec).
pub fn as_owner(cmd: &mut Command, owner: Option<(u32, u32)>) {
    if let Some((uid, gid)) = owner {
        use std::os::unix::process::CommandExt;
        cmd.uid(uid).gid(gid);
        // HOME of root is not readable by postgres; initdb and postgres do not need one.
        cmd.env("HOME", "/tmp");
    }
}

/// The `initdb` command for a new data directory: the `postgres` superuser trusted on
/// loopback and the socket (sandboxes are loopback-only), UTF8, C collation.
pub fn initdb(binary: &Path, datadir: &Path) -> Result<Command> {
    let mut c = Command::new(sibling(binary, "initdb")?);
    c.arg("-D")
        .arg(datadir)
        .arg("-U")
        .arg(SUPERUSER)
        .arg("--auth=trust")
        .arg("-E")
        .arg("UTF8")
        .arg("--no-locale")
        .arg("--no-instructions");
    Ok(c)
}

/// Whether `datadir` holds a PostgreSQL cluster.
pub fn initialized(datadir: &Path) -> bool {
    datadir.join("PG_VERSION").is_file()
}

/// The pid file PostgreSQL writes (its first line is the postmaster's pid).
pub fn pid_file(datadir: &Path) -> PathBuf {
    datadir.join("postmaster.pid")
}

/// The argument that marks a postmaster as this sandbox's (read back from /proc/PID/cmdline).
pub fn config_arg(conf: &Path) -> String {
    format!("config_file={}", conf.display())
}

/// The superuser's URL over the socket (for management).
pub fn admin_url(socket_dir: &Path, port: u16) -> TargetUrl {
    TargetUrl {
        engine: Engine::Postgres,
        scheme: "postgres".into(),
        user: SUPERUSER.into(),
        password: None,
        host: "127.0.0.1".into(),
        port,
        database: "postgres".into(),
        socket: Some(socket_dir.to_path_buf()),
    }
}

/// Creates the benchmark role and database (no password: trusted on loopback only).
pub fn create_bench_db(admin: &TargetUrl, user: &str, db: &str) -> Result<()> {
    let mut s = super::connect(admin)?;
    let role = s
        .exec_once(
            "SELECT 1 FROM pg_roles WHERE rolname = ?",
            vec![Value::Text(user.into())],
        )
        .context("reading pg_roles")?;
    if role.is_empty() {
        s.query_drop(&format!("CREATE ROLE {user} SUPERUSER LOGIN"))
            .with_context(|| format!("creating role {user}"))?;
    }
    let exists = s
        .exec_once(
            "SELECT 1 FROM pg_database WHERE datname = ?",
            vec![Value::Text(db.into())],
        )
        .context("reading pg_database")?;
    if exists.is_empty() {
        s.query_drop(&format!("CREATE DATABASE {db} OWNER {user}"))
            .with_context(|| format!("creating database {db}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_postgresql_installed_names_the_package() {
        let empty = std::env::temp_dir().join(format!("txb-nopg-{}", std::process::id()));
        fs::create_dir_all(&empty).unwrap();
        let e = find_server_in(&empty, std::slice::from_ref(&empty))
            .unwrap_err()
            .to_string();
        let _ = fs::remove_dir_all(&empty);
        assert!(
            e.contains("postgres not found") && e.contains("apt-get install postgresql"),
            "{e}"
        );
    }

    fn inputs<'a>(sets: &'a [Setting], user: Option<(&'a Path, &'a str)>) -> ConfInputs<'a> {
        ConfInputs {
            name: "pg",
            socket_dir: Path::new("/s/data"),
            port: 5433,
            mem_bytes: 24 << 30,
            user_config: user,
            sets,
        }
    }

    #[test]
    fn defaults_are_sized_to_memory_and_user_lines_come_last() {
        let sets = vec![Setting {
            key: "shared_buffers".into(),
            value: "1GB".into(),
        }];
        let text = render(&inputs(
            &sets,
            Some((Path::new("u.conf"), "work_mem = 64MB")),
        ));
        assert!(text.contains("shared_buffers = 6144MB"), "{text}");
        assert!(text.contains("max_connections = 2000"), "{text}");
        assert!(text.contains("max_wal_size = 12288MB"), "{text}");
        assert!(text.contains("port = 5433\n"));
        assert!(text.contains("unix_socket_directories = '/s/data'"));
        let user = text.find("work_mem = 64MB").unwrap();
        let set = text.rfind("shared_buffers = 1GB").unwrap();
        assert!(set > user && user > text.find("shared_buffers = 6144MB").unwrap());
        // A small machine keeps fewer connections.
        let small = defaults(512 << 20);
        assert!(
            small
                .iter()
                .any(|(k, v, _)| *k == "max_connections" && v == "100")
        );
    }

    #[test]
    fn values_are_quoted_when_they_need_it() {
        assert_eq!(conf_value("on"), "on");
        assert_eq!(conf_value("256MB"), "256MB");
        assert_eq!(conf_value("'%m [%p] '"), "'%m [%p] '");
        assert_eq!(conf_value("a b"), "'a b'");
        assert_eq!(conf_value("it's"), "'it''s'");
    }

    #[test]
    fn managed_settings_are_refused_with_the_line() {
        let e = check_user_config(Path::new("u.conf"), "# x\nwork_mem=4MB\nport = 5\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "u.conf line 3: port is managed by txbench (the sandbox's directory, loopback and port); use --port for the port"
        );
        assert!(check_user_config(Path::new("u"), "include 'x.conf'").is_err());
        assert!(managed("data-directory").is_some());
        assert!(managed("shared_buffers").is_none());
    }
}
