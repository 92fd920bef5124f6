//! The monitor on MySQL and MariaDB: SHOW GLOBAL STATUS, INNODB_METRICS (MariaDB's or
//! MySQL's column names), performance_schema's wait summary, the workload's counts, the
//! replicas' lag, and what the server lets it record (discovered on the first connection).

use super::{UNRESPONSIVE_LIMIT, Worker, host};
use crate::engine;
use crate::engine::mysql::PoolRoute;
use crate::metrics::server::RawSample;
use crate::metrics::waits;
use crate::results::Event;
use mysql::prelude::Queryable;
use std::time::Duration;

pub(super) const INNODB_MARIADB: &str =
    "SELECT NAME, COUNT FROM INFORMATION_SCHEMA.INNODB_METRICS WHERE ENABLED = 1";
const INNODB_MYSQL: &str =
    "SELECT NAME, COUNT FROM INFORMATION_SCHEMA.INNODB_METRICS WHERE STATUS = 'enabled'";
/// Every wait event that has waited, less the ones that are threads at rest: `idle`
/// (connections waiting for their client) and condition waits (background threads sleeping
/// until signalled, such as mysys's COND_timer, which alone would fill half the time waited).
const WAITS_SQL: &str = "SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT FROM performance_schema.events_waits_summary_global_by_event_name WHERE COUNT_STAR > 0 AND EVENT_NAME <> 'idle' AND EVENT_NAME NOT LIKE 'wait/synch/cond/%'";
/// Wait instruments that are enabled and timed.
const WAIT_INSTRUMENTS_SQL: &str = "SELECT COUNT(*) FROM performance_schema.setup_instruments WHERE NAME LIKE 'wait/%' AND ENABLED = 'YES' AND TIMED = 'YES'";

impl Worker {
    /// Connects past the server's thread pool when there is a way (its extra_port, unless
    /// every extra connection is taken), else where the users connect. Err(true) when the
    /// server did not answer in time; the refusal kept is the users' port's only.
    fn connect(&mut self) -> Result<mysql::Conn, bool> {
        self.refusal = None;
        if let Some(PoolRoute::Past(port)) = self.pool
            && let Ok(conn) = connect_to(&self.opts.url.at_port(port))
        {
            return Ok(conn);
        }
        connect_to(&self.opts.url).map_err(|e| {
            self.refusal = e.refusal;
            e.timeout
        })
    }

    /// Between samples: asks the server whether it answers (COM_PING, counted by no
    /// statement counter), marking the monitor busy meanwhile so that a freeze is seen
    /// while it lasts and after it ends. A failed ping drops the connection; the next sample
    /// reconnects or reports the server.
    pub(super) fn probe_mysql(&mut self) {
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        let begun = std::time::Instant::now();
        match self.watched(|| conn.ping()) {
            Ok(()) => self.conn = Some(conn),
            Err(e) => {
                let mut s = self.lock();
                s.failing_since.get_or_insert(begun);
                s.last_failure_timeout = is_timeout(&e);
                // A lost connection, not a refused login.
                s.refused = None;
            }
        }
    }

    /// Reads MySQL's or MariaDB's counters; Err(true) when the server did not answer in time.
    pub(super) fn read_mysql(&mut self) -> Result<RawSample, bool> {
        self.connect_and_discover()?;
        // Taken out for the sample, put back when it succeeded: a failed one reconnects.
        let mut conn = self.conn.take().ok_or(false)?;
        let mut raw = self.read_global_status(&mut conn)?;
        if !self.opts.metrics {
            self.conn = Some(conn);
            return Ok(raw);
        }
        self.read_innodb_metrics(&mut conn, &mut raw)?;
        self.read_wait_summary(&mut conn, &mut raw)?;
        self.read_workload_counts(&mut conn, &mut raw)?;
        self.read_replication(&mut conn, &mut raw)?;
        self.conn = Some(conn);
        if let Some(l) = &self.local {
            raw.process = host::read_process(l.pid);
            raw.host = host::read_host();
            raw.disk = l.device.and_then(host::read_disk);
        }
        Ok(raw)
    }

    /// Connects when there is no connection, and finds out on the first one what the server
    /// lets us record.
    fn connect_and_discover(&mut self) -> Result<(), bool> {
        if self.conn.is_none() {
            self.conn = Some(self.connect()?);
        }
        if self.pool.is_none() {
            self.find_pool_route();
        }
        if !self.discovered && self.opts.metrics {
            self.discovered = true;
            self.discover();
        }
        Ok(())
    }

    /// SHOW GLOBAL STATUS (only Uptime without metrics), timed from when it was sent.
    fn read_global_status(&self, conn: &mut mysql::Conn) -> Result<RawSample, bool> {
        let sql = if self.opts.metrics {
            "SHOW GLOBAL STATUS"
        } else {
            "SHOW GLOBAL STATUS LIKE 'Uptime'"
        };
        let sent = self.opts.t0.elapsed().as_secs_f64();
        let status: Vec<(String, String)> = conn.query(sql).map_err(|e| is_timeout(&e))?;
        let t = self.opts.t0.elapsed().as_secs_f64();
        Ok(RawSample {
            t,
            sent,
            status: status
                .into_iter()
                .filter_map(|(k, v)| {
                    Some((
                        k.to_ascii_lowercase(),
                        crate::metrics::server::status_value(&v)?,
                    ))
                })
                .collect(),
            ..RawSample::default()
        })
    }

    /// INNODB_METRICS, while it can be read; a server that refuses it is not asked again.
    fn read_innodb_metrics(
        &mut self,
        conn: &mut mysql::Conn,
        raw: &mut RawSample,
    ) -> Result<(), bool> {
        let Some(sql) = self.innodb_sql else {
            return Ok(());
        };
        match conn.query::<(String, i64), _>(sql) {
            Ok(rows) => {
                self.own_selects += 1.0;
                raw.innodb = rows
                    .into_iter()
                    .map(|(k, v)| (k.to_ascii_lowercase(), v as f64))
                    .collect();
            }
            Err(e) if is_lost(&e) => return Err(is_timeout(&e)),
            Err(e) => {
                self.innodb_sql = None;
                self.not_recorded(format!(
                    "INFORMATION_SCHEMA.INNODB_METRICS is not recorded ({}): page splits and the other InnoDB counters are missing",
                    engine::mysql::error_message(&e)
                ));
            }
        }
        Ok(())
    }

    /// performance_schema's wait summary, when it is read; a server that refuses it is not
    /// asked again.
    fn read_wait_summary(
        &mut self,
        conn: &mut mysql::Conn,
        raw: &mut RawSample,
    ) -> Result<(), bool> {
        if !self.read_waits {
            return Ok(());
        }
        match conn.query::<(String, u64, u64), _>(WAITS_SQL) {
            Ok(rows) => {
                self.own_selects += 1.0;
                raw.waits = rows
                    .into_iter()
                    .map(|(k, count, ps)| {
                        (
                            k,
                            waits::WaitStat {
                                count: count as f64,
                                time_ms: ps as f64 / 1e9,
                            },
                        )
                    })
                    .collect();
            }
            Err(e) if is_lost(&e) => return Err(is_timeout(&e)),
            Err(e) => {
                self.read_waits = false;
                self.not_recorded(format!(
                    "performance_schema waits are not recorded ({})",
                    engine::mysql::error_message(&e)
                ));
            }
        }
        Ok(())
    }

    /// The workload's server-side counts (those that fail are dropped), and the monitor's
    /// own SELECTs so far.
    fn read_workload_counts(
        &mut self,
        conn: &mut mysql::Conn,
        raw: &mut RawSample,
    ) -> Result<(), bool> {
        let mut failed = Vec::new();
        for (name, sql) in &self.workload_counts {
            match conn.query_first::<Option<f64>, _>(sql.as_str()) {
                Ok(v) => {
                    self.own_selects += 1.0;
                    // NULL (no rows, or a NULL column): left out of this sample.
                    if let Some(v) = v.flatten() {
                        raw.workload.insert(name.clone(), v);
                    }
                }
                Err(e) if is_lost(&e) => return Err(is_timeout(&e)),
                Err(e) => failed.push((name.clone(), engine::mysql::error_message(&e))),
            }
        }
        self.drop_counts(failed);
        raw.workload
            .insert("monitor_selects".into(), self.own_selects);
        raw.workload_t = Some(self.opts.t0.elapsed().as_secs_f64());
        Ok(())
    }

    /// The primary's binlog position and its replicas' lag, when it has replicas.
    fn read_replication(
        &mut self,
        conn: &mut mysql::Conn,
        raw: &mut RawSample,
    ) -> Result<(), bool> {
        if self.replicas.is_empty() {
            return Ok(());
        }
        match crate::topology::binlog_gtid(conn) {
            Ok(pos) => {
                self.read_replicas(&pos.unwrap_or_default(), raw);
            }
            Err(e) if is_lost(&e) => return Err(is_timeout(&e)),
            Err(_) => {}
        }
        Ok(())
    }

    /// Each replica's lag, as `txbench_` gauges in the primary's sample: the largest
    /// Seconds_Behind_Master, the largest GTID distance, and how many replicate. A replica
    /// that cannot be reached counts as not replicating (and says so once).
    pub(super) fn read_replicas(&mut self, primary_pos: &str, raw: &mut RawSample) {
        use crate::metrics::server::{REPLICA_GTID_BEHIND, REPLICA_LAG, REPLICAS_RUNNING};
        let (mut lag, mut behind, mut running) = (None::<f64>, None::<f64>, 0.0);
        let mut lost = Vec::new();
        for (addr, conn) in &mut self.replicas {
            if conn.is_none() {
                let url = crate::topology::replica_url(&self.opts.url, addr);
                let opts = mysql::OptsBuilder::from_opts(engine::mysql::opts(&url))
                    .read_timeout(Some(Duration::from_secs(2)))
                    .tcp_connect_timeout(Some(Duration::from_secs(1)));
                *conn = crate::engine::listener::check(&url)
                    .ok()
                    .and_then(|_| mysql::Conn::new(opts).ok());
            }
            let Some(c) = conn.as_mut() else {
                lost.push(addr.to_string());
                continue;
            };
            match crate::topology::replica_status(c) {
                Ok(Some(st)) => {
                    if st.running() {
                        running += 1.0;
                    }
                    if let Some(l) = st.seconds_behind {
                        lag = Some(lag.map_or(l, |m: f64| m.max(l)));
                    }
                    let d = crate::topology::gtid_distance(primary_pos, &st.gtid_pos) as f64;
                    behind = Some(behind.map_or(d, |m: f64| m.max(d)));
                }
                Ok(None) => {}
                Err(_) => {
                    *conn = None;
                    lost.push(addr.to_string());
                }
            }
        }
        raw.status.insert(REPLICAS_RUNNING.into(), running);
        if let Some(l) = lag {
            raw.status.insert(REPLICA_LAG.into(), l);
        }
        if let Some(b) = behind {
            raw.status.insert(REPLICA_GTID_BEHIND.into(), b);
        }
        let t = raw.t;
        let mut s = self.lock();
        for r in lost {
            if s.unreachable_replicas.insert(r.clone()) {
                s.events.push(Event {
                    t_s: t,
                    what: format!("replica {r} cannot be reached"),
                });
            }
        }
    }

    /// What this server lets us record: INNODB_METRICS (MariaDB or MySQL column names), and
    /// /proc when it runs here.
    pub(super) fn discover(&mut self) {
        let Some(conn) = self.conn.as_mut() else {
            return;
        };
        if let Err(mysql::Error::MySqlError(e)) =
            conn.query_drop(format!("{INNODB_MARIADB} LIMIT 0"))
            && e.code == 1054
        {
            self.innodb_sql = Some(INNODB_MYSQL);
        }
        self.discover_waits();
        let Some(conn) = self.conn.as_mut() else {
            return;
        };
        self.replicas = crate::topology::replicas(conn)
            .into_iter()
            .map(|r| (r, None))
            .collect();
        if !self.opts.url.is_local() {
            self.not_recorded(format!(
                "the server at {} is not on this host: its process CPU, memory and I/O, the host's CPU and the disk are not recorded",
                self.opts.url.host
            ));
            return;
        }
        let paths: Result<(String, String), _> = conn
            .query_first::<(String, String), _>("SELECT @@pid_file, @@datadir")
            .map(|r| r.unwrap_or_default());
        let (pid_file, datadir) = match paths {
            Ok(p) => p,
            Err(e) => {
                self.not_recorded(format!(
                    "cannot ask the server for its pid file ({}): its process and the disk are not recorded",
                    engine::mysql::error_message(&e)
                ));
                return;
            }
        };
        self.find_local(&pid_file, &datadir);
    }

    /// Asks once how to reach the server past its thread pool, and moves there: a pool
    /// queues the monitor's statements behind the virtual users' (2,000 closed-loop users
    /// made its 1-s samples take 1.2 s on average), and late samples blunt the cross-checks.
    fn find_pool_route(&mut self) {
        let Some(conn) = self.conn.as_mut() else {
            return;
        };
        let route = engine::mysql::pool_route(conn, &self.opts.url);
        self.own_selects += 1.0;
        match &route {
            // Its refusal is not the server's answer to the sample: the monitor stays where
            // it is, connected.
            PoolRoute::Past(port) => match connect_to(&self.opts.url.at_port(*port)) {
                Ok(c) => {
                    self.conn = Some(c);
                    self.lock().report.monitor_port = Some(*port);
                }
                Err(e) => self.not_recorded(format!(
                    "samples on time: the server pools its threads and its extra_port {port} refused the monitor ({}), so its samples queue behind the virtual users' statements (sample_ms_avg)",
                    e.message
                )),
            },
            PoolRoute::Queued => self.not_recorded(
                "samples on time: the server pools its threads (thread_handling=pool-of-threads) with no extra_port the monitor can use (none set, or the URL is a unix socket), so its samples queue behind the virtual users' statements (sample_ms_avg) and the cross-checks allow for how late they come; set extra_port and extra_max_connections, as txbench sandboxes do".into(),
            ),
            PoolRoute::NoPool => {}
        }
        self.pool = Some(route);
    }

    /// Waits are read when performance_schema is on and some wait instruments are timed.
    pub(super) fn discover_waits(&mut self) {
        let Some(conn) = self.conn.as_mut() else {
            return;
        };
        let on = conn
            .query_first::<i64, _>("SELECT @@performance_schema")
            .ok()
            .flatten()
            .unwrap_or(0);
        if on != 1 {
            return;
        }
        match conn.query_first::<i64, _>(WAIT_INSTRUMENTS_SQL) {
            Ok(Some(n)) if n > 0 => self.read_waits = true,
            Ok(_) => self.not_recorded(
                "performance_schema is ON but no wait instrument is enabled and timed: waits are not recorded (performance_schema_instrument='wait/%=ON', as txbench sandboxes set it)".into(),
            ),
            Err(e) => self.not_recorded(format!(
                "performance_schema waits are not recorded ({})",
                engine::mysql::error_message(&e)
            )),
        }
    }
}

/// Why the monitor's login failed.
struct ConnectFailure {
    message: String,
    /// No answer in time.
    timeout: bool,
    /// The server's own error (not a lost or timed-out socket): it is up.
    refusal: Option<super::Refusal>,
}

/// The monitor's login at `url`, with the timeouts of its samples.
fn connect_to(url: &engine::TargetUrl) -> Result<mysql::Conn, ConnectFailure> {
    // A sandbox login's listener is checked before every connection, the sampler's too.
    crate::engine::listener::check(url).map_err(|e| ConnectFailure {
        message: format!("{e:#}"),
        timeout: false,
        refusal: None,
    })?;
    let opts = mysql::OptsBuilder::from_opts(engine::mysql::opts(url))
        .read_timeout(Some(UNRESPONSIVE_LIMIT))
        .write_timeout(Some(UNRESPONSIVE_LIMIT));
    mysql::Conn::new(opts).map_err(|e| ConnectFailure {
        message: engine::mysql::error_message(&e),
        timeout: is_timeout(&e),
        refusal: refusal(&e),
    })
}

/// The server's own error for a login: it is up, and refuses the monitor.
fn refusal(e: &mysql::Error) -> Option<super::Refusal> {
    let mysql::Error::MySqlError(me) = e else {
        return None;
    };
    Some(super::Refusal::new(
        engine::mysql::error_message(e),
        // Too many connections; max_user_connections, global or the account's.
        matches!(me.code, 1040 | 1203)
            || (me.code == 1226 && me.message.contains("max_user_connections")),
    ))
}

fn is_timeout(e: &mysql::Error) -> bool {
    let timed_out = |io: &std::io::Error| {
        matches!(
            io.kind(),
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
        )
    };
    match e {
        mysql::Error::IoError(io) => timed_out(io),
        // A read that timed out reaches us through the packet codec, its source the io error.
        mysql::Error::CodecError(c) => std::error::Error::source(c)
            .and_then(|s| s.downcast_ref::<std::io::Error>())
            .is_some_and(timed_out),
        mysql::Error::DriverError(mysql::DriverError::ConnectTimeout) => true,
        mysql::Error::DriverError(mysql::DriverError::CouldNotConnect(Some((_, _, kind)))) => {
            matches!(
                kind,
                std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
            )
        }
        _ => false,
    }
}

fn is_lost(e: &mysql::Error) -> bool {
    engine::mysql::classify(e).disconnects()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server_error(code: u16, message: &str) -> mysql::Error {
        mysql::Error::MySqlError(mysql::MySqlError {
            state: "HY000".into(),
            code,
            message: message.into(),
        })
    }

    #[test]
    fn a_login_the_server_refuses_says_what_it_said_and_whether_for_want_of_room() {
        let said = |e: &mysql::Error| super::super::unreachable("10".into(), refusal(e).as_ref());
        let full = said(&server_error(1040, "Too many connections"));
        assert!(full.starts_with(super::super::UNREACHABLE), "{full}");
        assert!(
            full.contains("it refused txbench's monitor: Too many connections (1040); ")
                && full.contains("run fewer --threads"),
            "{full}"
        );
        let user = "User 'few' has exceeded the 'max_user_connections' resource (current value: 2)";
        for e in [
            server_error(
                1203,
                "User few already has more than 'max_user_connections' active connections",
            ),
            server_error(1226, user),
        ] {
            assert!(said(&e).contains("run fewer --threads"), "{}", said(&e));
        }
        // Refused for another reason: what the server said, and no advice about connections.
        let other = said(&server_error(
            1226,
            "User 'few' has exceeded the 'max_questions' resource (current value: 5)",
        ));
        assert!(
            other.contains("'max_questions'") && !other.contains("--threads"),
            "{other}"
        );
        let denied = said(&server_error(1045, "Access denied for user 'few'"));
        assert!(
            denied.contains("Access denied") && !denied.contains("died"),
            "{denied}"
        );
        // No answer from a server: lost, as before.
        let lost = mysql::Error::IoError(std::io::ErrorKind::ConnectionRefused.into());
        assert!(refusal(&lost).is_none());
        assert!(
            said(&lost).ends_with("(it died or restarts)"),
            "{}",
            said(&lost)
        );
    }

    #[test]
    fn a_read_that_timed_out_is_a_timeout_whichever_way_it_comes() {
        let io = |k| std::io::Error::new(k, "x");
        assert!(is_timeout(&mysql::Error::CodecError(
            io(std::io::ErrorKind::WouldBlock).into()
        )));
        assert!(is_timeout(&mysql::Error::IoError(io(
            std::io::ErrorKind::TimedOut
        ))));
        assert!(!is_timeout(&mysql::Error::CodecError(
            io(std::io::ErrorKind::ConnectionReset).into()
        )));
        assert!(!is_timeout(&mysql::Error::IoError(io(
            std::io::ErrorKind::ConnectionRefused
        ))));
    }
}
