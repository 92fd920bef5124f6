//! PostgreSQL sandboxes: Debian's `postgresql` package, a data directory made by `initdb`,
//! `postgres` on 127.0.0.1 and a unix socket, a postgresql.conf sized to memory with the
//! user's `--config` and `--set` last. `server/mod.rs` drives the lifecycle shared with
//! MariaDB (ports, records, process groups, stop); this file holds what differs.
//!
//! PostgreSQL refuses to run as root: started by root, the server runs as the `postgres`
//! user the package creates, and its data directory lives where that user can reach it
//! (`/var/lib/txbench/postgres/NAME-HASH`), recorded in server.json.

use crate::engine::sandbox::Setting;
use crate::engine::{TargetUrl, Value};
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

/// Settings a PostgreSQL sandbox never takes from a user, with why: each runs a program,
/// loads code, or reads files txbench did not put in the sandbox.
const REFUSED: &[(&str, &str)] = &[
    ("archive_command", "would run a program"),
    ("archive_library", "would load code into the server"),
    ("restore_command", "would run a program"),
    ("archive_cleanup_command", "would run a program"),
    ("recovery_end_command", "would run a program"),
    ("ssl_passphrase_command", "would run a program"),
    (
        "shared_preload_libraries",
        "would load code into the server",
    ),
    ("local_preload_libraries", "would load code into the server"),
    (
        "session_preload_libraries",
        "would load code into the server",
    ),
    (
        "dynamic_library_path",
        "would load code from another directory",
    ),
    ("jit_provider", "would load code into the server"),
    (
        "krb_server_keyfile",
        "would read a file outside the sandbox",
    ),
    ("stats_temp_directory", "would write outside the sandbox"),
];

/// Settings that name a file or directory: only a relative name without `/` is taken,
/// which the server places in its data directory.
const PLAIN_NAMES: &[&str] = &["log_directory", "log_filename", "promote_trigger_file"];

/// Why `key = value` may not be set by the user in a PostgreSQL sandbox, if it may not:
/// managed by txbench, refused, or a path where a plain name is needed.
pub fn refusal(key: &str, value: &str) -> Option<String> {
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
    if let Some((_, why)) = REFUSED.iter().find(|(r, _)| *r == k) {
        return Some(format!("{k} {why}: refused in a sandbox"));
    }
    if PLAIN_NAMES.contains(&k.as_str()) && !crate::engine::sandbox::is_plain_name(value) {
        return Some(format!(
            "{k} names a path ({}): a sandbox keeps its files in its own directory, give a plain name (no '/')",
            value.trim()
        ));
    }
    None
}

/// Checks a `--config` postgresql.conf fragment for settings a sandbox refuses.
pub fn check_user_config(path: &Path, text: &str) -> Result<()> {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(['=', ' ', '\t']).unwrap_or((line, ""));
        let value = value.trim().trim_start_matches('=').trim();
        if let Some(m) = refusal(key, value) {
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

/// Where a sandbox's data directory goes: inside it, or for root (whose sandbox may sit
/// under a directory the `postgres` user cannot enter) under [`ROOT_DATA_HOME`].
pub fn data_dir(sandbox: &Path, name: &str) -> Option<PathBuf> {
    if !crate::engine::sandbox::is_root() {
        return None;
    }
    let h = crate::engine::sandbox::path_hash(sandbox) as u32;
    Some(PathBuf::from(ROOT_DATA_HOME).join(format!("{name}-{h:08x}")))
}

/// The `initdb` command for a new data directory: UTF8, C collation, and no one trusted
/// (pg_hba.conf is replaced at every start by [`hba_conf`]).
pub fn initdb(binary: &Path, datadir: &Path) -> Result<Command> {
    let mut c = Command::new(sibling(binary, "initdb")?);
    c.arg("-D")
        .arg(datadir)
        .arg("-U")
        .arg(SUPERUSER)
        .arg("--auth-local=peer")
        .arg("--auth-host=scram-sha-256")
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

/// A sandbox's pg_hba.conf: the `postgres` superuser through the socket for the account
/// that owns the sandbox (peer, mapped by [`ident_conf`]), everyone else with a SCRAM
/// password, on loopback only. Nobody is trusted.
pub fn hba_conf() -> String {
    "# Written by txbench at every start; nobody is trusted.\n\
     local all {SUPERUSER} peer map=txbench\n\
     local all all scram-sha-256\n\
     host all all 127.0.0.1/32 scram-sha-256\n\
     host all all ::1/128 scram-sha-256\n"
        .replace("{SUPERUSER}", SUPERUSER)
}

/// The peer map: the account that owns the sandbox (`me`) and the server's own may be
/// the `postgres` superuser, through the socket.
pub fn ident_conf(me: &str) -> String {
    let mut s = format!("# Written by txbench at every start.\ntxbench {SUPERUSER} {SUPERUSER}\n");
    if me != SUPERUSER {
        s.push_str(&format!("txbench {me} {SUPERUSER}\n"));
    }
    s
}

/// Creates (or brings in line) the benchmark role and database: a role that logs in with
/// the sandboxes' secret (only its SCRAM verifier is sent), is no superuser, reads the
/// statistics (pg_monitor), may create databases, and owns its database.
pub fn create_bench_db(admin: &TargetUrl, user: &str, db: &str, secret: &str) -> Result<()> {
    let mut s = super::connect(admin)?;
    let role = s
        .exec_once(
            "SELECT 1 FROM pg_roles WHERE rolname = ?",
            vec![Value::Text(user.into())],
        )
        .context("reading pg_roles")?;
    let verb = if role.is_empty() { "CREATE" } else { "ALTER" };
    let verifier = postgres_protocol::password::scram_sha_256(secret.as_bytes());
    s.query_drop(&format!(
        "{verb} ROLE {user} NOSUPERUSER NOCREATEROLE CREATEDB LOGIN PASSWORD '{verifier}'"
    ))
    .with_context(|| format!("creating role {user}"))?;
    for grant in [
        format!("GRANT pg_monitor TO {user}"),
        // The monitor flushes its own counts before the closing sample.
        format!("GRANT EXECUTE ON FUNCTION pg_stat_force_next_flush() TO {user}"),
    ] {
        // pg_stat_force_next_flush is PostgreSQL 15's: an older server has none.
        if let Err(e) = s.query_drop(&grant)
            && !grant.contains("pg_stat_force_next_flush")
        {
            return Err(e).context(grant);
        }
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
        assert!(refusal("data-directory", "/x").is_some());
        assert!(refusal("shared_buffers", "1GB").is_none());
    }
}
