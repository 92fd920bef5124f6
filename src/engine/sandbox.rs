//! What every engine's sandbox shares, below the server module that runs them: a `--set`
//! setting and the options txbench manages, the machine's memory (settings are sized to
//! it), a short stable hash of a path (for socket and file names), and whether this process
//! runs as root (servers then run as their own account).

use anyhow::{Result, bail};
use std::path::Path;

/// Settings txbench owns: the sandbox cannot be managed (or would leave loopback) if a user
/// file or `--set` changed them.
pub const MANAGED: &[&str] = &[
    "datadir",
    "socket",
    "port",
    "bind_address",
    "pid_file",
    "log_error",
    "tmpdir",
    "skip_networking",
    "user",
    "secure_file_priv",
];

/// One `--set key=value`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Setting {
    /// The option name as given.
    pub key: String,
    /// Its value.
    pub value: String,
}

impl Setting {
    /// Parses `key=value`; the error names the `--set` flag.
    pub fn parse(raw: &str) -> Result<Setting> {
        let Some((key, value)) = raw.split_once('=') else {
            bail!("--set {raw}: expected key=value, e.g. --set innodb_buffer_pool_size=1G");
        };
        let key = key.trim();
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
        {
            bail!("--set {raw}: '{key}' is not a server option name");
        }
        if value.contains('\n') {
            bail!("--set {key}: the value must be on one line");
        }
        // A dotted name is PostgreSQL's custom setting or MySQL's structured option: the
        // engine's own rules judge it when the sandbox starts (server::setup::check_settings).
        if !key.contains('.')
            && let Some(m) = refusal(key, value)
        {
            bail!("--set {key}: {m}");
        }
        Ok(Setting {
            key: key.to_string(),
            value: value.trim().to_string(),
        })
    }
}

/// Settings a sandbox never takes from a user, with why: each would let another local user
/// in, run a program or load code into the server, open a listener, or read and write files
/// outside the sandbox's directory.
const REFUSED: &[(&str, &str)] = &[
    (
        "skip_grant_tables",
        "would let every local user in as root without a password",
    ),
    (
        "init_file",
        "would run a file's SQL as the server's administrator",
    ),
    ("plugin_dir", "would load code from another directory"),
    (
        "basedir",
        "would load the server's files from another directory",
    ),
    ("character_sets_dir", "would read files outside the sandbox"),
    ("lc_messages_dir", "would read files outside the sandbox"),
    ("chroot", "would move the server's root directory"),
    ("debug", "would write a trace file outside the sandbox"),
    ("admin_address", "would open another listener"),
    ("admin_port", "would open another listener"),
    ("wsrep_provider", "would load code into the server"),
    (
        "wsrep_provider_options",
        "would open listeners and write files outside the sandbox",
    ),
    ("wsrep_notify_cmd", "would run a program"),
    (
        "wsrep_sst_method",
        "would run a program (the topology chooses it)",
    ),
    (
        "wsrep_sst_auth",
        "would put a password in the configuration",
    ),
    ("wsrep_sst_receive_address", "would open another listener"),
    ("wsrep_node_address", "would open another listener"),
    ("wsrep_node_incoming_address", "would open another listener"),
    (
        "wsrep_cluster_address",
        "would join another cluster (the topology sets it)",
    ),
    ("wsrep_data_home_dir", "would write outside the sandbox"),
    ("innodb_data_home_dir", "would write outside the sandbox"),
    (
        "innodb_log_group_home_dir",
        "would write outside the sandbox",
    ),
    ("innodb_undo_directory", "would write outside the sandbox"),
    ("innodb_tmpdir", "would write outside the sandbox"),
    (
        "innodb_directories",
        "would read and write outside the sandbox",
    ),
    ("innodb_doublewrite_dir", "would write outside the sandbox"),
    (
        "innodb_redo_log_archive_dirs",
        "would write outside the sandbox",
    ),
    ("aria_log_dir_path", "would write outside the sandbox"),
    ("slave_load_tmpdir", "would write outside the sandbox"),
    ("replica_load_tmpdir", "would write outside the sandbox"),
    (
        "innodb_temp_tablespaces_dir",
        "would write outside the sandbox",
    ),
    ("debug_dbug", "would write a trace file outside the sandbox"),
    // Read by mariadb-install-db from the same file at the first bootstrap.
    (
        "extra_file",
        "would run a file's SQL as the administrator at bootstrap",
    ),
    (
        "srcdir",
        "would run the bootstrap's programs from another directory",
    ),
    (
        "builddir",
        "would run the bootstrap's programs from another directory",
    ),
    ("mysqld", "would choose the bootstrap's server program"),
    (
        "auth_root_authentication_method",
        "would change who administers the sandbox",
    ),
    (
        "auth_root_socket_user",
        "would change who administers the sandbox",
    ),
    (
        "cross_bootstrap",
        "would change how the sandbox is bootstrapped",
    ),
    ("rpm", "would change how the sandbox is bootstrapped"),
    ("force", "would change how the sandbox is bootstrapped"),
    ("ldata", "would move the data directory"),
    ("defaults_file", "would read another configuration file"),
    (
        "defaults_extra_file",
        "would read another configuration file",
    ),
    (
        "defaults_group_suffix",
        "would read other groups of the configuration",
    ),
];

/// The options a structured name (`CACHE.option`) may set: a named key cache's. The server
/// drops everything up to the first `.` of any other option name (`x.skip-grant-tables` is
/// `skip-grant-tables`), so no other option may be given so.
const KEY_CACHE_OPTIONS: &[&str] = &[
    "key_buffer_size",
    "key_cache_block_size",
    "key_cache_division_limit",
    "key_cache_age_threshold",
    "key_cache_segments",
    "key_cache_file_hash_size",
];

/// Families of settings refused whole (every option whose name starts so): MySQL's X
/// Protocol opens a listener of its own, on every address by default.
const REFUSED_FAMILIES: &[(&str, &str)] = &[("mysqlx", "would open another listener")];

/// Settings that name a file or a library: only a plain name is taken (no `/`), which the
/// server reads in its data directory (or, for a plugin, in the build's own plugin
/// directory), never a path elsewhere.
const PLAIN_NAMES: &[&str] = &[
    "general_log_file",
    "slow_query_log_file",
    "log_slow_query_file",
    "log_bin",
    "log_bin_index",
    "relay_log",
    "relay_log_index",
    "relay_log_info_file",
    "master_info_file",
    "log_tc",
    "innodb_buffer_pool_filename",
    "innodb_data_file_path",
    "innodb_temp_data_file_path",
    "language",
    "lc_messages",
    "plugin_load",
    "plugin_load_add",
    "early_plugin_load",
    "server_audit_file_path",
    "file_key_management_filename",
    "keyring_file_data",
    "wsrep_status_file",
];

/// A value that names no path: no `/`, and not `.` or `..`.
pub fn is_plain_name(value: &str) -> bool {
    let v = value.trim().trim_matches(|c| c == '\'' || c == '"');
    // A backslash may spell a '/' in an escape (PostgreSQL reads '\057' as one).
    !v.contains(['/', '\\']) && v != "." && v != ".."
}

/// If `key=value` may not be set by the user in a MariaDB or MySQL sandbox, why: a managed
/// setting (txbench owns it), a refused one, or a file setting given a path. The server
/// reads dashes as underscores, takes `loose-`, `maximum-`, `enable-`, `disable-` and
/// `skip-` before a name, and accepts any unambiguous prefix of a name (`bind-addr` is
/// `bind-address`, `skip-grant` is `skip-grant-tables`): each of those spellings is judged
/// as the name it would set.
pub(crate) fn refusal(key: &str, value: &str) -> Option<String> {
    let norm = key.trim().to_ascii_lowercase().replace('-', "_");
    if norm.starts_with("set_variable") {
        return Some("set-variable is not supported: give the option's own name".into());
    }
    if let Some((_, option)) = norm.split_once('.')
        && !KEY_CACHE_OPTIONS.contains(&option)
    {
        return Some(format!(
            "'{norm}': a name with a '.' sets a key cache's option ({}) and nothing else in a sandbox (the server would read it as '{option}')",
            KEY_CACHE_OPTIONS.join(", ")
        ));
    }
    let mut names = vec![norm.as_str()];
    let mut rest = norm.as_str();
    while let Some(r) = ["loose_", "maximum_", "enable_", "disable_", "skip_"]
        .iter()
        .find_map(|p| rest.strip_prefix(p))
    {
        rest = r;
        names.push(rest);
    }
    // The first spelling that names a listed option decides, as the server tries them.
    let hit = names.iter().find_map(|n| resolve(n))?;
    let spelled = |name: &str| {
        if name == norm {
            format!("'{norm}'")
        } else {
            format!("'{norm}' (it would set '{name}')")
        }
    };
    match hit {
        Listed::Safe => None,
        Listed::Managed("port") => Some("set the port with --port".into()),
        Listed::Managed("bind_address" | "skip_networking") => {
            Some("sandbox servers listen on 127.0.0.1 only".into())
        }
        Listed::Managed(m) if m == norm => Some(format!("'{norm}' is managed by txbench")),
        Listed::Managed(m) => Some(format!(
            "'{norm}' would set '{m}', which is managed by txbench"
        )),
        Listed::Refused(name, why) => Some(format!("{} {why}: refused in a sandbox", spelled(name))),
        Listed::Plain(name) => (!is_plain_name(value)).then(|| {
                format!(
                "{} names a path ({value}): a sandbox keeps its files in its own directory, give a plain file name (no '/')",
                spelled(name)
            )
        }),
    }
}

/// Options that begin like a refused one but are another (`innodb_doublewrite` is not MySQL's
/// `innodb_doublewrite_dir`).
const SAFE: &[&str] = &["innodb_doublewrite"];

/// A listed option a spelling names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listed {
    Safe,
    Managed(&'static str),
    Refused(&'static str, &'static str),
    Plain(&'static str),
}

/// The listed option `n` names: exactly (the server's choice when a name exists), else as a
/// prefix of one (the server takes any unambiguous prefix; an ambiguous one it refuses, so
/// judging by the first listed match never lets a dangerous one through).
fn resolve(n: &str) -> Option<Listed> {
    if n.is_empty() {
        return None;
    }
    let all = || {
        let safe = SAFE.iter().map(|m| (*m, Listed::Safe));
        let managed = MANAGED.iter().map(|m| (*m, Listed::Managed(m)));
        let refused = REFUSED.iter().map(|(m, why)| (*m, Listed::Refused(m, why)));
        let plain = PLAIN_NAMES.iter().map(|m| (*m, Listed::Plain(m)));
        safe.chain(managed).chain(refused).chain(plain)
    };
    if let Some((_, hit)) = all().find(|(m, _)| *m == n) {
        return Some(hit);
    }
    if let Some((f, why)) = REFUSED_FAMILIES
        .iter()
        .find(|(f, _)| n.starts_with(f) || f.starts_with(n))
    {
        return Some(Listed::Refused(f, why));
    }
    all()
        .find(|(m, hit)| *hit != Listed::Safe && m.starts_with(n))
        .map(|(_, hit)| hit)
}

/// Physical memory in bytes, from /proc/meminfo (4 GiB if it cannot be read).
pub fn mem_total() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| kb * 1024)
        .unwrap_or(4 << 30)
}

/// A hash of a path that names it in a shorter one: FNV-1a, stable across builds, unlike
/// std's hasher.
pub fn path_hash(path: &Path) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in path.as_os_str().as_encoded_bytes() {
        h = (h ^ u64::from(*b)).wrapping_mul(0x100000001b3);
    }
    h
}

/// True when this process runs as root (its servers then run as an unprivileged account).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}
