//! The generated my.cnf of a sandbox server: managed paths, benchmark defaults sized to the
//! machine, then the user's `--config` file, then `--set` overrides (later lines win).

use anyhow::{Result, bail};
use std::path::Path;

pub(crate) use crate::engine::sandbox::refusal;
pub use crate::engine::sandbox::{MANAGED, Setting, mem_total, path_hash};

/// The server family, which decides a few option spellings and the bootstrap program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Flavor {
    /// MariaDB (`mariadbd`, `mariadb-install-db`).
    MariaDb,
    /// Oracle MySQL (`mysqld --initialize-insecure`).
    MySql,
    /// PostgreSQL (`postgres`, `initdb`; postgresql.conf from `engine/postgres/sandbox.rs`).
    Postgres,
}

impl Flavor {
    /// The engine this server speaks.
    pub fn engine(self) -> crate::engine::Engine {
        match self {
            Flavor::MariaDb | Flavor::MySql => crate::engine::Engine::Mysql,
            Flavor::Postgres => crate::engine::Engine::Postgres,
        }
    }
}

/// Checks a user `--config` file for settings a sandbox refuses (managed by txbench, or
/// unsafe: see [`Setting::parse`]); the error names file and line.
pub fn check_user_config(path: &Path, text: &str) -> Result<()> {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty()
            || line.starts_with('#')
            || line.starts_with(';')
            || line.starts_with('[')
        {
            continue;
        }
        if line.starts_with('!') {
            bail!(
                "{} line {}: !include directives are not supported in --config (inline the settings)",
                path.display(),
                i + 1
            );
        }
        let (key, value) = line.split_once('=').unwrap_or((line, ""));
        if let Some(m) = refusal(key.trim(), value.trim()) {
            bail!("{} line {}: {m}", path.display(), i + 1);
        }
    }
    Ok(())
}

/// Everything that goes into a server's my.cnf.
#[derive(Debug, Clone)]
pub struct CnfInputs<'a> {
    /// The sandbox name (for the header).
    pub name: &'a str,
    /// MariaDB or MySQL.
    pub flavor: Flavor,
    /// The data directory.
    pub datadir: &'a Path,
    /// The unix socket.
    pub socket: &'a Path,
    /// The TCP port on 127.0.0.1.
    pub port: u16,
    /// The pid file.
    pub pid_file: &'a Path,
    /// The error log.
    pub error_log: &'a Path,
    /// Temporary files; private, because servers bootstrapping at the same time in a shared
    /// /tmp collide on temporary table names and crash.
    pub tmpdir: &'a Path,
    /// The one directory the server may read and write files in (`secure_file_priv`).
    pub files: &'a Path,
    /// Physical memory in bytes.
    pub mem_bytes: u64,
    /// The user's `--config` file and its text.
    pub user_config: Option<(&'a Path, &'a str)>,
    /// `--set` overrides, in order.
    pub sets: &'a [Setting],
    /// What the server's place in a topology needs (replication, Galera): last, so that
    /// neither `--config` nor `--set` can break the topology.
    pub topology: &'a [Setting],
    /// A free port for MariaDB's `extra_port` (0: none), chosen when [`wants_extra_port`].
    pub extra_port: u16,
}

/// Buffer pool default: a quarter of memory (several sandboxes may run at once), in
/// 128 MiB steps, at least 128 MiB.
pub fn default_buffer_pool(mem_bytes: u64) -> u64 {
    const STEP: u64 = 128 << 20;
    ((mem_bytes / 4) / STEP).max(1) * STEP
}

/// Redo log default: half the buffer pool, between 256 MiB and 2 GiB.
pub fn default_redo_log(buffer_pool: u64) -> u64 {
    (buffer_pool / 2).clamp(256 << 20, 2 << 30)
}

/// Parses a server size such as `268435456`, `256M`, `1G` or `512k`.
pub fn parse_size(v: &str) -> Option<u64> {
    let v = v.trim();
    let (num, mult) = match v.chars().last()?.to_ascii_uppercase() {
        'K' => (&v[..v.len() - 1], 1u64 << 10),
        'M' => (&v[..v.len() - 1], 1 << 20),
        'G' => (&v[..v.len() - 1], 1 << 30),
        'T' => (&v[..v.len() - 1], 1 << 40),
        _ => (v, 1),
    };
    num.trim().parse::<u64>().ok()?.checked_mul(mult)
}

/// The last value the user gave for `key` (in the `--config` file or with `--set`).
fn user_value<'a>(i: &'a CnfInputs<'_>, key: &str) -> Option<&'a str> {
    let norm = |k: &str| k.trim().to_ascii_lowercase().replace('-', "_");
    let from_set = i.sets.iter().rev().find(|s| norm(&s.key) == key);
    if let Some(s) = from_set {
        return Some(&s.value);
    }
    let (_, text) = i.user_config?;
    text.lines()
        .rev()
        .filter_map(|l| l.split_once('='))
        .find(|(k, _)| norm(k) == key)
        .map(|(_, v)| v.trim())
}

/// The INNODB_METRICS counters a sandbox enables, beside the server's default ones: what
/// server.csv and the findings read. Not `all`: measured here (`make bench`, TPC-C at 4
/// threads, 6 rotated rounds), every counter enabled cost 5.0 ± 3.9 % of throughput.
pub const INNODB_MONITORS: &[&str] = &[
    "index_page%",
    "lock_row_lock%",
    "lock_deadlocks",
    "lock_timeouts",
    "log_lsn_checkpoint_age",
    "log_lsn_current",
    "log_max_modified_age_async",
    "trx_rseg_history_len",
    "trx_active_transactions",
    "buffer_flush_adaptive_total_pages",
    "buffer_LRU_batch_flush_total_pages",
];

/// Whether the settings give a MariaDB server a thread pool with no extra port of the
/// user's own: the sandbox then opens one (a free port in [`CnfInputs::extra_port`]).
pub fn wants_extra_port(i: &CnfInputs<'_>) -> bool {
    i.flavor == Flavor::MariaDb
        && user_value(i, "extra_port").is_none()
        && user_value(i, "thread_handling").is_some_and(|v| {
            v.trim_matches(['\'', '"'])
                .eq_ignore_ascii_case("pool-of-threads")
        })
}

/// Renders the final my.cnf.
pub fn render(i: &CnfInputs<'_>) -> String {
    // The redo log follows the buffer pool the server will really have.
    let bp = default_buffer_pool(i.mem_bytes);
    let effective_bp = user_value(i, "innodb_buffer_pool_size")
        .and_then(parse_size)
        .unwrap_or(bp);
    let redo = default_redo_log(effective_bp);
    let mut s = format!(
        "# my.cnf generated by txbench {} for sandbox server '{}'.\n\
         # Order: managed paths, benchmark defaults, --config file, --set overrides; later lines win.\n\
         [mysqld]\n\
         datadir={}\nsocket={}\nport={}\nbind-address=127.0.0.1\npid-file={}\nlog-error={}\ntmpdir={}\n",
        env!("CARGO_PKG_VERSION"),
        i.name,
        i.datadir.display(),
        i.socket.display(),
        i.port,
        i.pid_file.display(),
        i.error_log.display(),
        i.tmpdir.display(),
    );
    // LOAD DATA INFILE and SELECT … INTO OUTFILE only here, never anywhere else.
    s.push_str(&format!("secure-file-priv={}\n", i.files.display()));
    s.push_str(&format!(
        "\n# Benchmark defaults for this machine ({:.1} GiB of memory). Durable: every commit is flushed.\n\
         innodb_buffer_pool_size={}M\n\
         innodb_log_file_size={}M\n\
         innodb_log_buffer_size=64M\n\
         innodb_flush_log_at_trx_commit=1\n\
         innodb_doublewrite=ON\n\
         innodb_flush_method=O_DIRECT\n\
         innodb_io_capacity=2000\n\
         innodb_file_per_table=ON\n\
         max_connections=2000\n\
         max_prepared_stmt_count=1048576\n\
         table_open_cache=4000\n\
         skip-name-resolve\n\
         performance_schema=OFF\n\
         # With --set performance_schema=ON: every wait instrument on and timed (waits.csv).\n\
         performance_schema_instrument='wait/%=ON'\n\
         # The INNODB_METRICS counters server.csv needs (page splits, locks, purge, checkpoint age).\n\
         innodb_monitor_enable={}\n\
         local_infile=ON\n\
         # The benchmark user has no SUPER: with a binary log (replication) it may still\n\
         # create the stored functions and triggers a workload or test needs.\n\
         log_bin_trust_function_creators=ON\n\
         character-set-server=utf8mb4\n",
        i.mem_bytes as f64 / f64::from(1u32 << 30),
        bp >> 20,
        redo >> 20,
        INNODB_MONITORS.join(","),
    ));
    if i.flavor == Flavor::MySql {
        // MySQL 8 writes a binary log by default; MariaDB does not. Make both alike.
        s.push_str("disable-log-bin\nmysqlx=OFF\n");
    }
    if i.extra_port != 0 && wants_extra_port(i) {
        s.push_str(&format!(
            "# The thread pool queues every connection's statements behind the virtual users':\n\
             # the monitor and the end of a run's cut come in here, a thread per connection.\n\
             extra_port={}\n\
             extra_max_connections=16\n",
            i.extra_port
        ));
    }
    if let Some((path, text)) = i.user_config {
        s.push_str(&format!("\n# From --config {}\n", path.display()));
        if !text.trim_start().starts_with('[') {
            s.push_str("[mysqld]\n");
        }
        s.push_str(text);
        if !text.ends_with('\n') {
            s.push('\n');
        }
    }
    if !i.sets.is_empty() {
        s.push_str("\n# From --set\n[mysqld]\n");
        for set in i.sets {
            s.push_str(&format!("{}={}\n", set.key, set.value));
        }
    }
    if !i.topology.is_empty() {
        s.push_str("\n# The topology (txbench)\n[mysqld]\n");
        for set in i.topology {
            s.push_str(&format!("{}={}\n", set.key, set.value));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs<'a>(sets: &'a [Setting], user: Option<(&'a Path, &'a str)>) -> CnfInputs<'a> {
        CnfInputs {
            name: "t",
            flavor: Flavor::MariaDb,
            datadir: Path::new("/s/data"),
            socket: Path::new("/s/mysqld.sock"),
            port: 33061,
            pid_file: Path::new("/s/mysqld.pid"),
            error_log: Path::new("/s/error.log"),
            tmpdir: Path::new("/s/tmp"),
            files: Path::new("/s/files"),
            mem_bytes: 24 << 30,
            user_config: user,
            sets,
            topology: &[],
            extra_port: 33062,
        }
    }

    #[test]
    fn a_thread_pool_gets_an_extra_port_unless_the_user_chose_one() {
        let pool = [Setting::parse("thread_handling=pool-of-threads").unwrap()];
        let text = render(&inputs(&pool, None));
        assert!(text.contains("extra_port=33062\nextra_max_connections=16\n"));
        assert!(!render(&inputs(&[], None)).contains("extra_port"));
        assert!(wants_extra_port(&inputs(&pool, None)) && !wants_extra_port(&inputs(&[], None)));
        let own = [pool[0].clone(), Setting::parse("extra_port=4000").unwrap()];
        let text = render(&inputs(&own, None));
        assert!(!text.contains("extra_port=33062") && text.contains("extra_port=4000"));
        let config = "[mysqld]\nthread-handling = pool-of-threads\n";
        let text = render(&inputs(&[], Some((Path::new("/c.cnf"), config))));
        assert!(text.contains("extra_port=33062"));
        let mut mysql = inputs(&pool, None);
        mysql.flavor = Flavor::MySql;
        assert!(!render(&mysql).contains("extra_port"));
    }

    #[test]
    fn defaults_are_sized_to_memory() {
        assert_eq!(default_buffer_pool(24 << 30), 6 << 30);
        assert_eq!(default_buffer_pool(100 << 20), 128 << 20);
        assert_eq!(default_redo_log(6 << 30), 2 << 30);
        assert_eq!(default_redo_log(128 << 20), 256 << 20);
    }

    #[test]
    fn later_sources_come_later() {
        let sets = [Setting::parse("innodb_buffer_pool_size=256M").unwrap()];
        let user = "innodb_flush_log_at_trx_commit=2\n";
        let text = render(&inputs(&sets, Some((Path::new("u.cnf"), user))));
        let default = text.find("innodb_buffer_pool_size=6144M").unwrap();
        let from_file = text.find("innodb_flush_log_at_trx_commit=2").unwrap();
        let from_set = text.find("innodb_buffer_pool_size=256M").unwrap();
        assert!(default < from_file && from_file < from_set, "{text}");
        assert!(text.contains("bind-address=127.0.0.1"));
        assert!(text.contains("tmpdir=/s/tmp\n"));
        // The server runs as the account that starts it (never root) and writes files in
        // its own directory only.
        assert!(!text.contains("user="), "{text}");
        assert!(text.contains("secure-file-priv=/s/files\n"));
        // A file without a group header is put under [mysqld].
        assert!(text.contains("# From --config u.cnf\n[mysqld]\ninnodb_flush"));
    }

    #[test]
    fn redo_log_follows_the_users_buffer_pool() {
        let sets = [Setting::parse("innodb-buffer-pool-size=1G").unwrap()];
        let text = render(&inputs(&sets, None));
        assert!(text.contains("innodb_log_file_size=512M"), "{text}");
        let user = "[mysqld]\ninnodb_buffer_pool_size = 128M\n";
        let text = render(&inputs(&[], Some((Path::new("u.cnf"), user))));
        assert!(text.contains("innodb_log_file_size=256M"), "{text}");
        let text = render(&inputs(&[], None));
        assert!(text.contains("innodb_log_file_size=2048M"), "{text}");
    }

    #[test]
    fn sizes_parse_like_the_server() {
        assert_eq!(parse_size("268435456"), Some(268435456));
        assert_eq!(parse_size("256M"), Some(256 << 20));
        assert_eq!(parse_size("1g"), Some(1 << 30));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size(""), None);
    }

    #[test]
    fn set_is_validated_and_names_the_flag() {
        assert_eq!(
            Setting::parse("innodb-log-file-size = 1G").unwrap(),
            Setting {
                key: "innodb-log-file-size".into(),
                value: "1G".into()
            }
        );
        for bad in [
            "noequals",
            "=1",
            "bad key=1",
            "port=3307",
            "bind-address=0.0.0.0",
        ] {
            let e = Setting::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("--set"), "{bad}: {e}");
        }
        assert!(
            Setting::parse("loose-bind_address=0.0.0.0")
                .unwrap_err()
                .to_string()
                .contains("127.0.0.1")
        );
        // Every spelling the server would read as a managed option: prefixes, dashes or
        // underscores, any case, loose-/maximum-/enable-/disable-/skip- before it.
        for bad in [
            "bind-addr=0.0.0.0",
            "bind=0.0.0.0",
            "BIND_ADDRESS=0.0.0.0",
            "loose-bind-addr=0.0.0.0",
            "loose-loose-bind-address=0.0.0.0",
            "maximum-bind-address=0.0.0.0",
            "skip-netw=1",
            "enable-skip-networking=1",
            "disable-skip-networking=0",
            "data=/elsewhere",
            "pid=/tmp/x",
            "us=root",
            "set-variable=bind-address=0.0.0.0",
        ] {
            let e = Setting::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("--set"), "{bad}: {e}");
        }
        assert_eq!(
            Setting::parse("bind-addr=0.0.0.0").unwrap_err().to_string(),
            "--set bind-addr: sandbox servers listen on 127.0.0.1 only"
        );
        assert_eq!(
            Setting::parse("data=/x").unwrap_err().to_string(),
            "--set data: 'data' would set 'datadir', which is managed by txbench"
        );
        // Options that only begin like a managed one are the user's.
        for ok in [
            "port_open_timeout=5",
            "user_stat=1",
            "tmp_table_size=64M",
            "log_error_verbosity=3",
            "skip-name-resolve=1",
            "socket_timeout=1",
            // Options that begin like a refused or confined one, and plain file names.
            "innodb_doublewrite=OFF",
            "skip-innodb-doublewrite=1",
            "lc_messages=en_US",
            "log_slow_query=ON",
            "log_bin_trust_function_creators=ON",
            "general_log_file=general.log",
            "plugin_load_add=ha_rocksdb",
            "innodb_data_file_path=ibdata1:12M:autoextend",
            "wsrep_slave_threads=4",
        ] {
            assert!(Setting::parse(ok).is_ok(), "{ok}");
        }
        assert_eq!(
            Setting::parse("skip-grant=1").unwrap_err().to_string(),
            "--set skip-grant: 'skip_grant' (it would set 'skip_grant_tables') would let every local user in as root without a password: refused in a sandbox"
        );
        assert_eq!(
            Setting::parse("log-bin=/tmp/b").unwrap_err().to_string(),
            "--set log-bin: 'log_bin' names a path (/tmp/b): a sandbox keeps its files in its own directory, give a plain file name (no '/')"
        );
    }

    #[test]
    fn user_config_may_not_move_managed_paths() {
        let p = Path::new("u.cnf");
        assert!(check_user_config(p, "[mysqld]\n# datadir=/x\ninnodb_page_size=8k\n").is_ok());
        let e = check_user_config(p, "[mysqld]\ndatadir = /elsewhere\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "u.cnf line 2: 'datadir' is managed by txbench"
        );
        assert!(check_user_config(p, "!includedir /etc/mysql").is_err());
    }
}
