//! The monitor on PostgreSQL: pg_stat_database and the other views
//! ([`engine::postgres::metrics`]), the wait events polled between samples, and the
//! workload's counts.

use super::{UNRESPONSIVE_LIMIT, Worker, host};
use crate::engine;
use crate::metrics::server::RawSample;
use std::collections::BTreeMap;
use std::time::Instant;

impl Worker {
    /// One look at what PostgreSQL's client backends wait for, added to the running totals
    /// (each backend seen waiting counts once, for the time since the last look). A failed
    /// look is skipped: the interval's sample notices a lost server.
    #[cfg(feature = "postgres")]
    pub(super) fn poll_pg_waits(&mut self) {
        let Some(mut session) = self.pg.take() else {
            // No session (a sample failed): the next look starts afresh, not weighting
            // what it sees by the whole outage.
            self.pg_last_poll = None;
            return;
        };
        let now = Instant::now();
        // A long gap (a slow sample) counts as a few polls at most.
        let gap_ms = self.pg_last_poll.map_or(0.0, |t| {
            now.duration_since(t)
                .min(4 * engine::postgres::metrics::WAIT_POLL)
                .as_secs_f64()
                * 1000.0
        });
        // A server that stops answering here is noticed as in a sample: check() sees
        // the monitor busy for too long and the run ends INVALID.
        let rows = self.watched(|| engine::postgres::metrics::waiting(&mut session));
        match rows {
            Ok(rows) => {
                self.pg_own_xacts += 1.0;
                self.pg_last_poll = Some(now);
                for (event, n) in rows {
                    let w = self.pg_waits.entry(event).or_default();
                    w.count += n;
                    w.time_ms += n * gap_ms;
                }
                self.pg = Some(session);
            }
            // The session is dropped; the next sample reconnects or reports the server.
            Err(_) => self.pg_last_poll = None,
        }
    }

    /// Reads PostgreSQL's counters ([`engine::postgres::metrics`]); Err(true) when the
    /// server did not answer in time.
    #[cfg(feature = "postgres")]
    pub(super) fn read_postgres(&mut self) -> Result<RawSample, bool> {
        self.connect_pg()?;
        // The waits up to now, on the session before it is taken out for the sample.
        if self.opts.metrics {
            self.poll_pg_waits();
        }
        let mut session = self.pg.take().ok_or(false)?;
        if !self.discovered && self.opts.metrics {
            self.discovered = true;
            self.discover_pg(&mut session);
        }
        if self.opts.metrics {
            self.first_and_closing_looks(&mut session);
        }
        let sent = self.opts.t0.elapsed().as_secs_f64();
        let mut status = self.read_pg_status(&mut session)?;
        self.subtract_own_transactions(&mut status);
        let t = self.opts.t0.elapsed().as_secs_f64();
        let mut raw = RawSample {
            t,
            sent,
            status,
            waits: self.pg_waits.clone(),
            ..RawSample::default()
        };
        if self.opts.metrics {
            self.read_pg_workload_counts(&mut session, &mut raw)?;
            if let Some(l) = &self.local {
                raw.process = host::read_process_tree(l.pid);
                raw.host = host::read_host();
                raw.disk = l.device.and_then(host::read_disk);
            }
        }
        self.pg = Some(session);
        Ok(raw)
    }

    /// Connects the monitor's session when there is none.
    #[cfg(feature = "postgres")]
    fn connect_pg(&mut self) -> Result<(), bool> {
        if self.pg.is_none() {
            let session = engine::postgres::connect_within(
                &self.opts.url,
                UNRESPONSIVE_LIMIT,
                engine::postgres::MONITOR_APP,
            );
            // The server's own error (not a lost or timed-out socket) says it is up.
            self.refusal = match &session {
                Err(e @ engine::postgres::wire::Error::Db(db)) => Some(super::Refusal::new(
                    engine::postgres::error_message(e),
                    // Too many connections, for the server or for the role.
                    db.code == "53300",
                )),
                _ => None,
            };
            let session = session.map_err(|e| e.is_timeout())?;
            self.pg = Some(session);
        }
        Ok(())
    }

    /// Where the server's process and data directory are, when it runs on this host.
    #[cfg(feature = "postgres")]
    fn discover_pg(&mut self, session: &mut engine::postgres::Session) {
        if !self.opts.url.is_local() {
            self.not_recorded(format!(
                "the server at {} is not on this host: its process CPU, memory and I/O, the host's CPU and the disk are not recorded",
                self.opts.url.host
            ));
        } else {
            match engine::postgres::metrics::paths(session) {
                Ok((pid_file, datadir)) => self.find_local(&pid_file, &datadir),
                Err(e) => self.not_recorded(format!(
                    "cannot ask the server for its data directory ({}): its process and the disk are not recorded",
                    engine::postgres::error_message(&e)
                )),
            }
        }
    }

    /// At the first sample, what a login costs and the server's clock; at the closing one,
    /// the other clients since then and the virtual users' sessions settled. The monitor's
    /// transactions meanwhile are counted as its own.
    #[cfg(feature = "postgres")]
    fn first_and_closing_looks(&mut self, session: &mut engine::postgres::Session) {
        use engine::postgres::metrics;
        let before = session.transactions_ended();
        if !self.pg_login_measured {
            // Before the baseline read: the probe's login is not in the run's counts.
            self.pg_login_measured = true;
            let cost = metrics::login_cost(session, &self.opts.url);
            self.lock().report.pg_connect_cost = cost;
            self.pg_run_start = metrics::server_now(session);
        }
        if self.closing
            && let Some(since) = self.pg_run_start.clone()
            && let Some(others) = metrics::other_clients_since(session, &since)
        {
            self.lock().report.pg_other_clients = others;
        }
        if self.closing {
            // The virtual users' backends flush their counts as they exit, and the
            // monitor flushes its own: the closing read then holds every transaction.
            if !metrics::settle(session, engine::postgres::APP) {
                self.not_recorded(
                    "the virtual users' sessions had not ended 3 s after the run: the closing transaction count may miss their last second".into(),
                );
            }
        }
        self.pg_own_xacts += (session.transactions_ended() - before) as f64;
    }

    /// The server's counters; the views it could not show are said not recorded.
    #[cfg(feature = "postgres")]
    fn read_pg_status(
        &mut self,
        session: &mut engine::postgres::Session,
    ) -> Result<BTreeMap<String, f64>, bool> {
        use engine::postgres::metrics;
        let mut missing = metrics::Missing::default();
        let status = metrics::read(session, self.opts.metrics, &mut self.pg_skip, &mut missing)
            .map_err(|_| false)?;
        for (view, why) in missing.views {
            self.not_recorded(format!("{view} is not recorded ({why})"));
        }
        Ok(status)
    }

    /// The monitor's own transactions counted, and taken out of the server's count.
    #[cfg(feature = "postgres")]
    fn subtract_own_transactions(&mut self, status: &mut BTreeMap<String, f64>) {
        // The monitor's own statements are transactions too (each in autocommit): what
        // pg_xact_commit counts is the server's less the monitor's, as MySQL's Com_select
        // less monitor_selects.
        if self.opts.metrics {
            self.pg_own_xacts += 1.0 + (3 - self.pg_skip.len().min(3)) as f64;
        } else {
            self.pg_own_xacts += 1.0;
        }
        // The monitor's own transactions since the last sample may not have reached the
        // count yet (measured: pg_stat_force_next_flush did not always flush them): the
        // closing sample says how many, for the check's allowance.
        if self.closing {
            self.lock().report.pg_monitor_unflushed = self.pg_own_xacts - self.pg_own_at_sample;
        }
        self.pg_own_at_sample = self.pg_own_xacts;
        if let Some(c) = status.get_mut("pg_xact_commit") {
            // Never below the last value: the monitor's own transactions are subtracted as
            // it makes them, but reach the server's count later (when it idles), so the
            // difference can dip; a dip read as a reset would count every transaction the
            // server ever ran (seen: 5,575 against txbench's 939, while the closing sample
            // waited on a session named like txbench's).
            *c = (*c - self.pg_own_xacts).max(self.pg_xact_floor);
            self.pg_xact_floor = *c;
        }
    }

    /// The workload's server-side counts (those that fail are dropped); Err(false) when the
    /// session was lost.
    #[cfg(feature = "postgres")]
    fn read_pg_workload_counts(
        &mut self,
        session: &mut engine::postgres::Session,
        raw: &mut RawSample,
    ) -> Result<(), bool> {
        let mut failed = Vec::new();
        for (name, sql) in &self.workload_counts {
            let sql = format!("SELECT ({sql})::float8");
            match session.query_one(sql.as_str()) {
                Ok(row) => {
                    self.pg_own_xacts += 1.0;
                    // NULL: left out of this sample.
                    if let Some(v) = row.get::<Option<f64>>(0).ok().flatten() {
                        raw.workload.insert(name.clone(), v);
                    }
                }
                Err(e) if e.db().is_none() => return Err(false),
                Err(e) => failed.push((name.clone(), engine::postgres::error_message(&e))),
            }
        }
        self.drop_counts(failed);
        raw.workload_t = Some(self.opts.t0.elapsed().as_secs_f64());
        Ok(())
    }
}
