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
        if let Some(m) = managed(key) {
            bail!("--set {key}: {m}");
        }
        Ok(Setting {
            key: key.to_string(),
            value: value.trim().to_string(),
        })
    }
}

/// If `key` names a managed setting, why the user may not set it. The server reads dashes
/// as underscores, takes `loose-`, `maximum-`, `enable-`, `disable-` and `skip-` before a
/// name, and accepts any unambiguous prefix of a name (`bind-addr` is `bind-address`): each
/// of those spellings of a managed name is refused too.
pub(crate) fn managed(key: &str) -> Option<String> {
    let norm = key.trim().to_ascii_lowercase().replace('-', "_");
    if norm.starts_with("set_variable") {
        return Some("set-variable is not supported: give the option's own name".into());
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
    let hit = names.iter().find_map(|n| {
        MANAGED
            .iter()
            .find(|m| !n.is_empty() && m.starts_with(n))
            .copied()
    })?;
    Some(match hit {
        "port" => "set the port with --port".to_string(),
        "bind_address" | "skip_networking" => {
            "sandbox servers listen on 127.0.0.1 only".to_string()
        }
        _ if hit == norm => format!("'{norm}' is managed by txbench"),
        _ => format!("'{norm}' would set '{hit}', which is managed by txbench"),
    })
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
