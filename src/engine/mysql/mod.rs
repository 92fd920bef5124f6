//! MySQL and MariaDB: connections (the `mysql` crate, blocking), the pre-flight, the
//! clock, error classes. Modules that only MySQL has (the sampler's SHOW GLOBAL STATUS,
//! topologies, Galera) connect through [`connect`] here.

pub mod applier;

use super::{CONNECT_TIMEOUT, DATA_ERROR_STATE, TargetUrl, io_reason};
use crate::metrics::ErrorClass;
use crate::preflight::{Preflight, VARIABLES};
use anyhow::{Context, Result};
use mysql::prelude::Queryable;

/// The server key a sandbox login names: never a file, so that a server asking for the
/// password itself (caching_sha2_password's full authentication) is refused.
const NO_SERVER_KEY: &str = "/nonexistent/txbench-sandboxes-use-mysql_native_password";

/// Connection options for a target URL.
pub fn opts(url: &TargetUrl) -> mysql::Opts {
    let mut b = mysql::OptsBuilder::new()
        .user(Some(&url.user))
        .pass(url.password.as_deref())
        .db_name(Some(&url.database))
        // Never switch to the unix socket behind the user's back: TCP and socket
        // connections cost different amounts of CPU, and the URL says which to use.
        .prefer_socket(false)
        .tcp_connect_timeout(Some(CONNECT_TIMEOUT))
        .tcp_nodelay(true)
        // No statement cache: workers keep their prepared statements for the life of the
        // connection, and the cache (32 by default) closed the least recently used ones on
        // the server while they were still held ("Unknown prepared statement handler").
        .stmt_cache_size(Some(0))
        // Statements keep their columns' types, not their names: txbench reads prepared
        // rows by position, and a New-Order's IN-list variants made the names about 30 KiB
        // of every TPC-C connection (vendor/mysql patch 7).
        .column_names(false);
    match &url.socket {
        Some(socket) => b = b.socket(Some(socket.to_string_lossy())),
        None => b = b.ip_or_hostname(Some(&url.host)).tcp_port(url.port),
    }
    if url.sandbox_login {
        // Sandboxes log in with mysql_native_password, whose scramble never carries the
        // password. caching_sha2_password's full authentication would send it, encrypted
        // with a key the server hands over: a key file that is never there makes the
        // client refuse instead (whoever asks is not the sandbox).
        b = b.server_key_path(Some(std::path::PathBuf::from(NO_SERVER_KEY)));
    }
    b.into()
}

/// Opens one connection, turning the driver's errors into one line that names the target
/// (with its password redacted) and what to check.
pub fn connect(url: &TargetUrl) -> Result<mysql::Conn> {
    super::listener::check(url)?;
    // A connection a fiber opens waits through it (src/engine/fiber.rs).
    mysql::set_io_hooks(mysql::IoHooks {
        adopt: super::fiber::adopt,
        wait: super::fiber::wait_fd,
    });
    mysql::Conn::new(opts(url)).map_err(|e| connect_error(url, e))
}

fn connect_error(url: &TargetUrl, e: mysql::Error) -> anyhow::Error {
    let why = match &e {
        mysql::Error::MySqlError(me) if me.code == 1045 => format!(
            "access denied for user '{}': check the user and password in --url",
            url.user
        ),
        mysql::Error::MySqlError(me) if me.code == 1049 => {
            format!("database '{}' does not exist", url.database)
        }
        mysql::Error::MySqlError(me) => format!("server said: {} ({})", me.message, me.code),
        mysql::Error::IoError(io)
            if url.sandbox_login && io.kind() == std::io::ErrorKind::NotFound =>
        {
            "the server asked for the password itself (caching_sha2_password's full authentication), and sandboxes use mysql_native_password: whoever asks is not the sandbox, refused".into()
        }
        mysql::Error::IoError(io) => io_reason(io.kind(), &io.to_string()),
        mysql::Error::DriverError(mysql::DriverError::CouldNotConnect(Some((_, desc, kind)))) => {
            io_reason(*kind, desc)
        }
        mysql::Error::DriverError(mysql::DriverError::ConnectTimeout) => {
            io_reason(std::io::ErrorKind::TimedOut, "")
        }
        other => other.to_string(),
    };
    anyhow::anyhow!("cannot connect to {url}: {why}")
}

/// How a connection that watches or steers a server (the monitor, the end of a run's cut)
/// reaches it past a thread pool, which queues every connection's statements behind the
/// virtual users': 2,000 closed-loop users on MariaDB's pool made the monitor's 1-s samples
/// take 1.2 s on average, and the cut's KILLs wait their turn too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolRoute {
    /// No pool (a thread per connection, or MySQL, which has no `extra_port`).
    NoPool,
    /// MariaDB's `extra_port` on the same host, served a thread per connection.
    Past(u16),
    /// The server pools its threads and there is no way past (no `extra_port`, or `url`
    /// is a unix socket, which the extra port does not serve).
    Queued,
}

/// Asks the server behind `conn` (reached at `url`) how to reach it past its thread pool.
pub fn pool_route(conn: &mut mysql::Conn, url: &TargetUrl) -> PoolRoute {
    let asked: Option<(String, u16)> = conn
        .query_first("SELECT @@thread_handling, @@extra_port")
        .ok()
        .flatten();
    route_of(asked, url)
}

/// [`pool_route`]'s decision from what the server said (None: it has no `extra_port`).
fn route_of(asked: Option<(String, u16)>, url: &TargetUrl) -> PoolRoute {
    match asked {
        Some((handling, _)) if handling != "pool-of-threads" => PoolRoute::NoPool,
        None => PoolRoute::NoPool,
        Some((_, port)) if port == 0 || url.socket.is_some() => PoolRoute::Queued,
        Some((_, port)) => PoolRoute::Past(port),
    }
}

/// The server's clock, Unix seconds: UTC_TIMESTAMP(6) counted from the epoch, which no
/// session time zone (or its daylight-saving hour) can shift.
pub fn server_clock(conn: &mut mysql::Conn) -> Result<f64> {
    let us: Option<i64> = conn
        .query_first("SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))")
        .context("reading the server's clock")?;
    let us = us.context("reading the server's clock: no number")?;
    Ok(us as f64 / 1e6)
}

/// Reads the pre-flight variables of a connected server.
pub fn preflight(conn: &mut mysql::Conn) -> Result<Preflight> {
    let list = VARIABLES
        .iter()
        .map(|v| format!("'{v}'"))
        .collect::<Vec<_>>()
        .join(",");
    let rows: Vec<(String, String)> = conn
        .query(format!(
            "SHOW GLOBAL VARIABLES WHERE Variable_name IN ({list})"
        ))
        .context("reading server variables for the pre-flight")?;
    Ok(Preflight {
        variables: rows
            .into_iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), v))
            .collect(),
        host: Default::default(),
        topology: Default::default(),
    })
}

/// Streams rows into `table` with `LOAD DATA LOCAL INFILE` from memory (no temporary file):
/// `chunk` writes up to a chunk of tab-separated rows and returns false after the last. A
/// server with local_infile off gets an error that says what to do.
pub fn load_local(
    conn: &mut mysql::Conn,
    table: &str,
    columns: &[&str],
    what: &str,
    chunk: impl FnMut(&mut dyn std::io::Write) -> std::io::Result<bool> + Send + 'static,
) -> Result<()> {
    let mut chunk = Some(chunk);
    conn.set_local_infile_handler(Some(mysql::LocalInfileHandler::new(move |_, out| {
        // The server asks once per statement.
        let Some(mut chunk) = chunk.take() else {
            return Ok(());
        };
        while chunk(out)? {}
        Ok(())
    })));
    let r = conn.query_drop(format!(
        "LOAD DATA LOCAL INFILE '{table}' INTO TABLE {table} CHARACTER SET latin1 ({})",
        columns.join(",")
    ));
    conn.set_local_infile_handler(None);
    if let Err(e) = r {
        if let mysql::Error::MySqlError(me) = &e
            && (me.code == 1148 || me.code == 3948 || me.code == 4166)
        {
            anyhow::bail!(
                "LOAD DATA LOCAL INFILE is disabled on the server (local_infile=OFF): use --load-method insert, or SET GLOBAL local_infile = ON"
            );
        }
        return Err(e).with_context(|| format!("loading {what}"));
    }
    Ok(())
}

/// The driver's class of a database error.
pub fn classify(e: &mysql::Error) -> ErrorClass {
    match e {
        mysql::Error::MySqlError(me) if me.state == DATA_ERROR_STATE => ErrorClass::Data,
        mysql::Error::MySqlError(me) => match me.code {
            // Galera builds that say so (Percona's "WSREP detected deadlock/conflict"), and
            // MySQL Group Replication's ER_TRANSACTION_ROLLBACK_DURING_COMMIT. MariaDB's
            // Galera says a plain 1213: its node counters split those (Conflicts).
            1213 if me.message.to_ascii_lowercase().contains("wsrep") => ErrorClass::Certification,
            3101 => ErrorClass::Certification,
            1213 => ErrorClass::Deadlock,
            // ER_UNKNOWN_COM_ERROR: Galera's "WSREP has not yet prepared node for application use".
            1047 => ErrorClass::NodeNotReady,
            1205 => ErrorClass::LockWaitTimeout,
            1062 => ErrorClass::DuplicateKey,
            // ER_SERVER_SHUTDOWN, ER_CONNECTION_KILLED (MariaDB), ER_QUERY_INTERRUPTED on kill.
            1053 | 1927 => ErrorClass::ServerShutdown,
            2006 | 2013 => ErrorClass::LostConnection,
            _ => ErrorClass::Other,
        },
        mysql::Error::IoError(_)
        | mysql::Error::CodecError(_)
        | mysql::Error::DriverError(mysql::DriverError::ConnectTimeout)
        | mysql::Error::DriverError(mysql::DriverError::CouldNotConnect(_))
        | mysql::Error::DriverError(mysql::DriverError::PacketOutOfSync) => {
            ErrorClass::LostConnection
        }
        _ => ErrorClass::Other,
    }
}

/// The message of a database error, without the driver's decoration.
pub fn error_message(e: &mysql::Error) -> String {
    match e {
        mysql::Error::MySqlError(me) => format!("{} ({})", me.message, me.code),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(code: u16, message: &str) -> mysql::Error {
        mysql::Error::MySqlError(mysql::MySqlError {
            state: "40001".into(),
            code,
            message: message.into(),
        })
    }

    #[test]
    fn a_pooled_server_is_reached_past_its_pool_by_its_extra_port_over_tcp_only() {
        let tcp = TargetUrl::parse("mysql://u@127.0.0.1:3306/db").unwrap();
        let pool = |port| Some(("pool-of-threads".to_string(), port));
        assert_eq!(route_of(pool(3307), &tcp), PoolRoute::Past(3307));
        assert_eq!(route_of(pool(0), &tcp), PoolRoute::Queued);
        let socket = TargetUrl::parse("mysql://u@localhost/db?socket=/tmp/s.sock").unwrap();
        assert_eq!(route_of(pool(3307), &socket), PoolRoute::Queued);
        let threads = Some(("one-thread-per-connection".to_string(), 3307));
        assert_eq!(route_of(threads, &tcp), PoolRoute::NoPool);
        // MySQL has no extra_port: the question fails.
        assert_eq!(route_of(None, &tcp), PoolRoute::NoPool);
    }

    #[test]
    fn galera_errors_have_classes_of_their_own() {
        assert_eq!(
            classify(&err(
                1047,
                "WSREP has not yet prepared node for application use"
            )),
            ErrorClass::NodeNotReady
        );
        assert!(ErrorClass::NodeNotReady.disconnects());
        assert_eq!(
            classify(&err(
                1213,
                "WSREP detected deadlock/conflict and aborted the transaction. Try restarting the transaction"
            )),
            ErrorClass::Certification
        );
        assert!(ErrorClass::Certification.retryable());
        assert_eq!(
            classify(&err(
                3101,
                "Plugin instructed the server to rollback the current transaction."
            )),
            ErrorClass::Certification
        );
        // MariaDB's Galera says a plain deadlock: counted as one (the node's counters split it).
        assert_eq!(
            classify(&err(
                1213,
                "Deadlock found when trying to get lock; try restarting transaction"
            )),
            ErrorClass::Deadlock
        );
    }

    /// A fake server on loopback that greets as MySQL 8 with caching_sha2_password, then
    /// asks for full authentication (the password itself); returns its port and what it
    /// received after asking.
    fn asking_for_the_password() -> (u16, std::thread::JoinHandle<Vec<u8>>) {
        use std::io::{Read, Write};
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let h = std::thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
                .unwrap();
            let packet = |seq: u8, body: &[u8]| {
                let mut p = (body.len() as u32).to_le_bytes()[..3].to_vec();
                p.push(seq);
                p.extend_from_slice(body);
                p
            };
            let mut hs = vec![0x0a];
            hs.extend_from_slice(b"8.0.99-squatter\0");
            hs.extend_from_slice(&7u32.to_le_bytes());
            hs.extend_from_slice(b"abcdefgh\0");
            hs.extend_from_slice(&0xA209u16.to_le_bytes());
            hs.push(0x21);
            hs.extend_from_slice(&2u16.to_le_bytes());
            hs.extend_from_slice(&0x0008u16.to_le_bytes());
            hs.push(21);
            hs.extend_from_slice(&[0; 10]);
            hs.extend_from_slice(b"ijklmnopqrst\0");
            hs.extend_from_slice(b"caching_sha2_password\0");
            s.write_all(&packet(0, &hs)).unwrap();
            let mut head = [0u8; 4];
            s.read_exact(&mut head).unwrap();
            let len = u32::from_le_bytes([head[0], head[1], head[2], 0]) as usize;
            let mut response = vec![0u8; len];
            s.read_exact(&mut response).unwrap();
            // "Perform full authentication": the client would send the password next.
            s.write_all(&packet(2, &[0x01, 0x04])).unwrap();
            let mut after = Vec::new();
            let _ = s.read_to_end(&mut after);
            after
        });
        (port, h)
    }

    #[test]
    fn a_sandbox_login_never_sends_the_password_to_a_server_that_asks_for_it() {
        let (port, fake) = asking_for_the_password();
        let mut url =
            TargetUrl::parse(&format!("mysql://txbench@127.0.0.1:{port}/txbench")).unwrap();
        url.password = Some("sandbox-secret-0123456789".into());
        url.sandbox_login = true;
        let e = connect(&url).map(drop).unwrap_err().to_string();
        assert!(
            e.contains("whoever asks is not the sandbox, refused"),
            "{e}"
        );
        // Nothing but a COM_QUIT as the connection is dropped: no request for the server's
        // key (0x02, then the password encrypted with it), no password.
        let after = fake.join().unwrap();
        assert!(
            after.is_empty() || after == [1, 0, 0, 0, 1],
            "the client answered the request for the password: {after:?}"
        );
    }
}
