//! The server pre-flight: version and the settings that decide what a benchmark measures.
//!
//! A plain data type, filled by [`crate::engine::preflight`] and stored with every run, so
//! results and reports can show it without talking to a server.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Server variables recorded in every pre-flight (those a server lacks are left out).
pub const VARIABLES: &[&str] = &[
    "version",
    "version_comment",
    "innodb_buffer_pool_size",
    "innodb_log_file_size",
    "innodb_flush_log_at_trx_commit",
    "innodb_flush_method",
    "innodb_doublewrite",
    "innodb_autoinc_lock_mode",
    "innodb_adaptive_hash_index",
    "innodb_page_size",
    "log_bin",
    "sync_binlog",
    "tx_isolation",
    "transaction_isolation",
    "max_connections",
    "max_prepared_stmt_count",
    "performance_schema",
    "thread_handling",
    "character_set_server",
];

/// PostgreSQL settings recorded in every pre-flight (pg_settings names; sizes stored in
/// bytes, times in their unit as `setting unit`), and `version` from `version()`.
pub const PG_SETTINGS: &[&str] = &[
    "server_version",
    "shared_buffers",
    "effective_cache_size",
    "work_mem",
    "max_wal_size",
    "checkpoint_timeout",
    "checkpoint_completion_target",
    "synchronous_commit",
    "fsync",
    "full_page_writes",
    "wal_level",
    "wal_compression",
    "default_transaction_isolation",
    "max_connections",
    "huge_pages",
    "autovacuum",
    "jit",
];

/// What `server start` prints and every run records about its server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preflight {
    /// Global variables by name, as the server reported them.
    pub variables: BTreeMap<String, String>,
    /// Where things ran: `driver_cpus`, and for a server on this host `server_cpus` (its
    /// Cpus_allowed_list), `server_binary` and `server_binary_sha256`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub host: BTreeMap<String, String>,
    /// The server's place in a topology ([`crate::topology::describe`]): `role` (primary,
    /// replica, galera node), `replicas` with their lag, `semisync`, `galera`. Empty for a
    /// server on its own.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub topology: BTreeMap<String, String>,
}

impl Preflight {
    fn var(&self, name: &str) -> &str {
        self.variables.get(name).map(String::as_str).unwrap_or("?")
    }

    /// True for a PostgreSQL server's pre-flight.
    pub fn is_postgres(&self) -> bool {
        self.variables.contains_key("server_version")
    }

    /// `MariaDB 10.11.19-…`, `MySQL 8.0.36` or `PostgreSQL 15.18 (…)`.
    pub fn server(&self) -> String {
        let version = self.var("version");
        if self.is_postgres() {
            // version(): "PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu, …"
            return version.split(" on ").next().unwrap_or(version).to_string();
        }
        let product = if version.to_ascii_lowercase().contains("mariadb") {
            "MariaDB"
        } else {
            "MySQL"
        };
        format!("{product} {version} ({})", self.var("version_comment"))
    }

    /// The isolation level, whichever variable name the server uses.
    pub fn isolation(&self) -> &str {
        self.variables
            .get("transaction_isolation")
            .or_else(|| self.variables.get("default_transaction_isolation"))
            .or_else(|| self.variables.get("tx_isolation"))
            .map(String::as_str)
            .unwrap_or("?")
    }

    /// The settings that decide what a commit waits for, as `name=value` words.
    pub fn durability(&self) -> String {
        if self.is_postgres() {
            return format!(
                "fsync={} synchronous_commit={} full_page_writes={}",
                self.var("fsync"),
                self.var("synchronous_commit"),
                self.var("full_page_writes")
            );
        }
        let mut d = format!(
            "innodb_flush_log_at_trx_commit={} innodb_doublewrite={} log_bin={}",
            self.var("innodb_flush_log_at_trx_commit"),
            self.var("innodb_doublewrite"),
            self.var("log_bin"),
        );
        if self.var("log_bin") == "ON" {
            d.push_str(&format!(" sync_binlog={}", self.var("sync_binlog")));
        }
        d
    }

    /// The pre-flight as aligned `label  value` lines.
    pub fn lines(&self) -> Vec<(String, String)> {
        let mut lines = if self.is_postgres() {
            self.postgres_lines()
        } else {
            self.mysql_lines()
        };
        for (k, v) in &self.topology {
            lines.push((
                if k == "role" {
                    "topology".into()
                } else {
                    k.clone()
                },
                v.clone(),
            ));
        }
        lines
    }

    fn bytes(&self, name: &str) -> String {
        match self.var(name).parse::<u64>() {
            Ok(b) => human_bytes(b),
            Err(_) => "?".to_string(),
        }
    }

    fn postgres_lines(&self) -> Vec<(String, String)> {
        vec![
            ("server".into(), self.server()),
            ("shared_buffers".into(), self.bytes("shared_buffers")),
            (
                "wal".into(),
                format!(
                    "max_wal_size={} checkpoint_timeout={} wal_level={}",
                    self.bytes("max_wal_size"),
                    self.var("checkpoint_timeout"),
                    self.var("wal_level")
                ),
            ),
            ("durability".into(), self.durability()),
            ("isolation".into(), self.isolation().to_string()),
            (
                "max_connections".into(),
                self.var("max_connections").to_string(),
            ),
        ]
    }

    fn mysql_lines(&self) -> Vec<(String, String)> {
        let bytes = |name: &str| self.bytes(name);
        vec![
            ("server".into(), self.server()),
            ("buffer pool".into(), bytes("innodb_buffer_pool_size")),
            ("redo log".into(), bytes("innodb_log_file_size")),
            ("durability".into(), self.durability()),
            ("isolation".into(), self.isolation().to_string()),
            (
                "max_connections".into(),
                self.var("max_connections").to_string(),
            ),
        ]
    }

    /// The pre-flight as a text block, one setting a line.
    pub fn render(&self) -> String {
        let lines = self.lines();
        let width = lines.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        lines
            .iter()
            .map(|(k, v)| format!("  {k:<width$}  {v}\n"))
            .collect()
    }
}

/// `1073741824` → `1.0 GiB`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Preflight {
        let mut p = Preflight::default();
        for (k, v) in [
            ("version", "10.11.19-MariaDB-0+deb12u1"),
            ("version_comment", "Debian 12"),
            ("innodb_buffer_pool_size", "268435456"),
            ("innodb_log_file_size", "100663296"),
            ("innodb_flush_log_at_trx_commit", "1"),
            ("innodb_doublewrite", "ON"),
            ("log_bin", "OFF"),
            ("tx_isolation", "REPEATABLE-READ"),
            ("max_connections", "2000"),
        ] {
            p.variables.insert(k.into(), v.into());
        }
        p
    }

    #[test]
    fn renders_the_settings_that_matter() {
        let text = sample().render();
        assert!(text.contains("MariaDB 10.11.19-MariaDB-0+deb12u1 (Debian 12)"));
        assert!(text.contains("buffer pool      256.0 MiB"), "{text}");
        assert!(
            text.contains("innodb_flush_log_at_trx_commit=1 innodb_doublewrite=ON log_bin=OFF")
        );
        assert!(text.contains("REPEATABLE-READ"));
        assert!(
            !text.contains("sync_binlog"),
            "only shown with a binlog: {text}"
        );
    }

    #[test]
    fn a_postgres_preflight_shows_its_own_settings() {
        let mut p = Preflight::default();
        for (k, v) in [
            (
                "version",
                "PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu, compiled by gcc",
            ),
            ("server_version", "15.18 (Debian 15.18-0+deb12u1)"),
            ("shared_buffers", "6442450944"),
            ("max_wal_size", "8589934592"),
            ("checkpoint_timeout", "15min"),
            ("wal_level", "replica"),
            ("fsync", "on"),
            ("synchronous_commit", "on"),
            ("full_page_writes", "on"),
            ("default_transaction_isolation", "read committed"),
            ("max_connections", "2000"),
        ] {
            p.variables.insert(k.into(), v.into());
        }
        let text = p.render();
        assert!(
            text.contains("server           PostgreSQL 15.18 (Debian 15.18-0+deb12u1)\n"),
            "{text}"
        );
        assert!(text.contains("shared_buffers   6.0 GiB"), "{text}");
        assert!(
            text.contains("max_wal_size=8.0 GiB checkpoint_timeout=15min wal_level=replica"),
            "{text}"
        );
        assert!(
            text.contains("fsync=on synchronous_commit=on full_page_writes=on"),
            "{text}"
        );
        assert!(text.contains("read committed"), "{text}");
        assert!(!text.contains("innodb"), "{text}");
    }

    #[test]
    fn human_bytes_scales() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(6 << 30), "6.0 GiB");
    }
}
