//! A sandbox's files before its server starts: the configuration (my.cnf, postgresql.conf), the
//! first bootstrap, and init.sql (the benchmark database and user, their grants).

use super::*;

#[cfg(feature = "postgres")]
pub(super) fn write_postgres_conf(record: &ServerRecord) -> Result<()> {
    let owner = server_account(Engine::Postgres)?;
    if !record.socket.starts_with(record.datadir()) {
        private::make_dir(&record.socket, owner.as_ref())?;
    }
    // Who may log in, and how: written at every start (a sandbox made when it trusted
    // everyone on loopback is brought in line).
    let datadir = record.datadir();
    let me = process::Account::current().name;
    private::write(
        &datadir.join("pg_hba.conf"),
        &pg::hba_conf(),
        owner.as_ref(),
    )?;
    private::write(
        &datadir.join("pg_ident.conf"),
        &pg::ident_conf(&me),
        owner.as_ref(),
    )?;
    let user_config = record
        .user_config
        .as_ref()
        .map(|(p, t)| (p.as_path(), t.as_str()));
    let text = pg::render(&pg::ConfInputs {
        name: &record.name,
        socket_dir: &record.socket,
        port: record.port,
        mem_bytes: cnf::mem_total() / record.role.members(),
        user_config,
        sets: &record.sets,
    });
    // The one the server reads (in its data directory), and the copy kept with the sandbox.
    private::write(&record.cnf(), &text, owner.as_ref())?;
    let kept = record.dir.join("postgresql.conf");
    fs::write(&kept, &text).with_context(|| format!("writing {}", kept.display()))
}

/// Judges what a sandbox is started with as `--set` and `--config` are judged, at every
/// start: a server.json from an older txbench, or edited by hand, cannot bring in a setting a
/// sandbox refuses. The error names the flag, or the file and line.
pub(super) fn check_settings(
    engine: Engine,
    sets: &[Setting],
    user_config: Option<(&Path, &str)>,
) -> Result<()> {
    for set in sets {
        let why = match engine {
            Engine::Mysql => cnf::refusal(&set.key, &set.value),
            #[cfg(feature = "postgres")]
            Engine::Postgres => pg::refusal(&set.key, &set.value),
            #[cfg(not(feature = "postgres"))]
            Engine::Postgres => None,
        };
        if let Some(why) = why {
            bail!("--set {}: {why}", set.key);
        }
    }
    match (engine, user_config) {
        (_, None) => Ok(()),
        (Engine::Mysql, Some((path, text))) => cnf::check_user_config(path, text),
        #[cfg(feature = "postgres")]
        (Engine::Postgres, Some((path, text))) => pg::check_user_config(path, text),
        #[cfg(not(feature = "postgres"))]
        (Engine::Postgres, Some(_)) => bail!("this txbench was built without PostgreSQL"),
    }
}

pub(super) fn write_cnf(record: &ServerRecord) -> Result<()> {
    let user_config = record
        .user_config
        .as_ref()
        .map(|(p, t)| (p.as_path(), t.as_str()));
    check_settings(record.engine(), &record.sets, user_config)?;
    if record.engine() == Engine::Postgres {
        #[cfg(feature = "postgres")]
        return write_postgres_conf(record);
    }
    let owner = server_account(Engine::Mysql)?;
    for d in [record.files_home(), record.tmpdir(), record.files_dir()] {
        private::make_dir(&d, owner.as_ref())?;
    }
    // A socket in a short directory of its own, when the sandbox's path is too long.
    if let Some(sock_dir) = record.socket.parent()
        && sock_dir != record.files_home()
    {
        private::make_dir(sock_dir, owner.as_ref())?;
    }
    let user_config = record
        .user_config
        .as_ref()
        .map(|(p, t)| (p.as_path(), t.as_str()));
    let topology = cluster::role_settings(record);
    let mut inputs = CnfInputs {
        name: &record.name,
        flavor: record.flavor,
        datadir: &record.datadir(),
        socket: &record.socket,
        port: record.port,
        pid_file: &record.pid_file(),
        error_log: &record.error_log(),
        tmpdir: &record.tmpdir(),
        files: &record.files_dir(),
        // The servers of a topology share the machine.
        mem_bytes: cnf::mem_total() / record.role.members(),
        user_config,
        sets: &record.sets,
        topology: &topology,
        extra_port: 0,
    };
    if cnf::wants_extra_port(&inputs) {
        inputs.extra_port = super::start::free_port()?;
    }
    let text = cnf::render(&inputs);
    // The one the server reads (where its account can), and the copy kept with the sandbox.
    private::write(&record.cnf(), &text, owner.as_ref())?;
    let kept = record.dir.join("my.cnf");
    if kept != record.cnf() {
        fs::write(&kept, &text).with_context(|| format!("writing {}", kept.display()))?;
    }
    Ok(())
}

/// The databases the benchmark user owns on MariaDB/MySQL: `txbench` and any whose name
/// starts with it (`txbench_2`, …), where it may do everything a workload does (tables,
/// indexes, routines, triggers, views, create and drop the database). Nowhere else: data
/// privileges on `*.*` would include the `mysql` schema, and with it every account.
pub const BENCH_DATABASES: &str = "txbench%";

/// What the benchmark user may do server-wide: read what the sampler reads (processlist
/// and InnoDB metrics, binary log and replica status) and replicate (replicas log in with
/// it). Nothing that reaches past the server: no FILE, SUPER, SHUTDOWN, RELOAD, CREATE
/// USER or GRANT OPTION.
pub const BENCH_GLOBAL_GRANTS: &str = "PROCESS, REPLICATION SLAVE, REPLICATION CLIENT";

/// MariaDB's names for reading a replica's status and a primary's replicas (SHOW SLAVE
/// STATUS, SHOW SLAVE HOSTS), beside [`BENCH_GLOBAL_GRANTS`].
pub(super) const MARIADB_GRANTS: &str = ", SLAVE MONITOR, REPLICATION MASTER ADMIN";

/// The statements a MariaDB/MySQL sandbox runs at every start (`--init-file`): the
/// benchmark database, and the benchmark user with the secret's hash and its privileges
/// (also on a sandbox made before they were narrowed). Oracle MySQL's root, which
/// `--initialize-insecure` leaves without a password, gets the secret too.
pub(super) fn init_sql(flavor: Flavor, secret: &str) -> String {
    // Every server of a topology runs this itself: kept out of the binary log, so that a
    // semi-synchronous primary does not wait for a replica at its start.
    let mut s = String::from("SET SESSION sql_log_bin = 0;\n");
    s.push_str(&format!("CREATE DATABASE IF NOT EXISTS `{BENCH_DB}`;\n"));
    let hash = secret::mysql_native_hash(secret);
    let identified = match flavor {
        Flavor::MySql => format!("IDENTIFIED WITH mysql_native_password AS '{hash}'"),
        _ => format!("IDENTIFIED BY PASSWORD '{hash}'"),
    };
    for host in ["localhost", "127.0.0.1", "::1"] {
        s.push_str(&format!(
            "CREATE USER IF NOT EXISTS '{BENCH_USER}'@'{host}' {identified};\n\
             ALTER USER '{BENCH_USER}'@'{host}' {identified};\n\
             REVOKE ALL PRIVILEGES, GRANT OPTION FROM '{BENCH_USER}'@'{host}';\n\
             GRANT {BENCH_GLOBAL_GRANTS}{extra} ON *.* TO '{BENCH_USER}'@'{host}';\n\
             GRANT ALL PRIVILEGES ON `{BENCH_DATABASES}`.* TO '{BENCH_USER}'@'{host}';\n\
             GRANT SELECT ON performance_schema.* TO '{BENCH_USER}'@'{host}';\n",
            extra = if flavor == Flavor::MariaDb {
                MARIADB_GRANTS
            } else {
                ""
            }
        ));
    }
    if flavor == Flavor::MySql {
        s.push_str(&format!("ALTER USER 'root'@'localhost' {identified};\n"));
    }
    s
}

pub(super) fn bootstrap(record: &ServerRecord) -> Result<()> {
    let datadir = record.datadir();
    let log = record.error_log();
    let offset = file_len(&log);
    let mut cmd = match record.flavor {
        #[cfg(feature = "postgres")]
        Flavor::Postgres => {
            let owner = server_account(Engine::Postgres)?;
            private::make_dir(&datadir, owner.as_ref())?;
            let mut c = pg::initdb(&record.binary, &datadir)?;
            if let Some(a) = &owner {
                a.apply(&mut c, &datadir);
            }
            c
        }
        #[cfg(not(feature = "postgres"))]
        Flavor::Postgres => bail!("this txbench was built without PostgreSQL"),
        Flavor::MariaDb => {
            let Some(install) = find_program(&["mariadb-install-db", "mysql_install_db"]) else {
                bail!("mariadb-install-db not found on PATH: {INSTALL_HINT}");
            };
            let mut c = Command::new(install);
            c.arg(format!("--defaults-file={}", record.cnf().display()))
                .arg(format!("--datadir={}", datadir.display()))
                // root and the account given here log in through the socket as themselves
                // (unix_socket), nobody else and with no password.
                .arg("--auth-root-authentication-method=socket")
                .arg("--skip-test-db");
            match server_account(Engine::Mysql)? {
                // The data directory becomes mysql's, and mysql@localhost administers
                // (Galera's state transfer connects as it). The program runs as mysql from
                // its first instruction: a build is never run as root, not even to drop
                // its privileges itself.
                Some(a) => {
                    c.arg(format!("--user={}", a.name));
                    a.apply(&mut c, &record.files_home());
                }
                None => {
                    c.arg(format!(
                        "--auth-root-socket-user={}",
                        process::Account::current().name
                    ));
                }
            };
            // The server it runs as mysql would see a password in a TXBENCH_URL.
            c.env_remove("TXBENCH_URL");
            c
        }
        Flavor::MySql => {
            let mut c = Command::new(&record.binary);
            c.arg(format!("--defaults-file={}", record.cnf().display()))
                .arg("--initialize-insecure");
            if let Some(a) = server_account(Engine::Mysql)? {
                c.arg(format!("--user={}", a.name));
                a.apply(&mut c, &record.files_home());
            }
            c
        }
    };
    let out_file = open_append(&log)?;
    let status = cmd
        .stdin(Stdio::null())
        .stdout(out_file.try_clone()?)
        .stderr(out_file)
        .status()
        .context("running the server's install program")?;
    if !status.success() {
        let _ = fs::remove_dir_all(&datadir);
        return Err(start_failure(
            record,
            &format!("failed to create its data directory ({status})"),
            &log_excerpt(&log, offset),
        ));
    }
    Ok(())
}
