//! One sample kept: the counters missing from it said once, the watch for a restart, its
//! delta from the one before (the phase it counts towards), server.csv and the other files
//! written, and the report's rows and measured counts.

use super::files::json_line;
use super::{Report, Worker};
use crate::metrics::server::{Delta, RawSample, ServerRow};
use crate::metrics::waits;
use crate::results::Phase;
use std::io::Write;

impl Worker {
    /// Keeps one sample: its delta from the one before goes to the measured phase's counts,
    /// to server.csv and the other files, and to the report's rows.
    pub(super) fn record(&mut self, mut raw: RawSample, ms: f64, closing: bool) {
        self.note_missing_counters(&mut raw);
        self.topology_events(self.prev.as_ref(), &raw);
        let uptime = raw.status.get("uptime").copied();
        let counted_by = raw.counted_by();
        let cpu = thread_cpu_s();
        let cpu_since = cpu - std::mem::replace(&mut self.cpu_at_prev, cpu);
        let prev = self.prev.replace(raw);
        let Some(prev) = prev else {
            self.record_first(counted_by, ms);
            return;
        };
        let Some(cur) = self.prev.as_ref() else {
            return;
        };
        self.check_restart(&prev, uptime);
        let change = self.change(&prev, cur, ms);
        if change.phase == Phase::Measure {
            self.lock().report.monitor_cpu_s += cpu_since;
        }
        if closing {
            self.record_closing(change);
            return;
        }
        let row = ServerRow::of(change.phase, &change.delta, change.t);
        self.write_files(&row, &change);
        if !self.opts.metrics {
            // Counted all the same: the run's end waits for this sample.
            self.lock().report.samples += 1;
            return;
        }
        self.keep_row(row, change);
    }

    /// Counters missing from the sample carried over from the one before, each said once.
    fn note_missing_counters(&mut self, raw: &mut RawSample) {
        if let Some(prev) = self.prev.as_ref() {
            for name in raw.carry_missing_counters(prev) {
                if self.missing_noted.insert(name.clone()) {
                    self.not_recorded(format!(
                        "the server's counter {name} was NULL or missing in the sample at {:.1} s: that sample is left out of it (the next one spans the gap), not read as 0",
                        raw.t
                    ));
                }
            }
        }
    }

    /// The first sample, its counts read by `t`: it has no delta, only its time.
    fn record_first(&self, t: f64, ms: f64) {
        let mut s = self.lock();
        if let Some(m) = s.measure_start {
            s.report.opening_lag_s = (t - m).max(0.0);
        }
        s.report.samples += 1;
        count_time(&mut s.report, ms);
    }

    /// A server whose Uptime went backwards restarted.
    fn check_restart(&self, prev: &RawSample, uptime: Option<f64>) {
        if let (Some(before), Some(now)) = (prev.status.get("uptime"), uptime)
            && now < *before
        {
            self.lock().restart.get_or_insert(format!(
                "the server restarted during the run (Uptime went from {before} s to {now} s)"
            ));
        }
    }

    /// The delta from `prev` to `cur`, and the phase it counts towards.
    fn change(&self, prev: &RawSample, cur: &RawSample, ms: f64) -> Change {
        let delta = Delta::between(prev, cur);
        let measure_start = self.lock().measure_start;
        // A delta counts towards the measured phase when the sample before it was taken
        // after the measured phase began: its query sent then, for the server may have read
        // its counters at any moment until the answer came (a sample sent before the phase
        // and answered after it holds warm-up statements: seen on a loaded host, 810 more
        // than txbench counted, and the run INVALID).
        let phase = match measure_start {
            Some(m) if prev.sent >= m => Phase::Measure,
            _ => Phase::Warmup,
        };
        Change {
            phase,
            delta,
            measure_start,
            prev_t: prev.t,
            prev_sent: prev.sent,
            t: cur.t,
            counted_by: cur.counted_by(),
            sent: cur.sent,
            ms,
        }
    }

    /// The closing sample: only its delta, added to the measured phase's counts.
    fn record_closing(&self, change: Change) {
        let mut s = self.lock();
        s.report.samples += 1;
        if change.phase == Phase::Measure {
            add_measured(&mut s.report, change.delta);
        }
    }

    /// The row, the status line and the waits written to the files (until a write fails).
    fn write_files(&mut self, row: &ServerRow, change: &Change) {
        let mut write_error = None;
        if let Some(files) = self.files.as_mut().filter(|f| !f.failed) {
            let line = json_line(row, &change.delta, change.ms);
            let wait_rows = waits::rows(change.phase, change.prev_t, change.t, &change.delta.waits);
            let written = files
                .csv
                .write_all(row.csv_line().as_bytes())
                .and_then(|_| files.jsonl.write_all(line.as_bytes()))
                .and_then(|_| {
                    if wait_rows.is_empty() {
                        Ok(())
                    } else {
                        files.write_waits(&wait_rows)
                    }
                });
            if let Err(e) = written {
                files.failed = true;
                write_error = Some(e);
            }
        }
        if let Some(e) = write_error {
            self.not_recorded(format!(
                "writing server.csv failed ({e}): later samples are kept in memory only"
            ));
        }
    }

    /// The row kept in the report, its delta added to the measured phase's counts, and
    /// the lag of the sample that opens the phase.
    fn keep_row(&self, row: ServerRow, change: Change) {
        let mut s = self.lock();
        // The sample that opens the phase (the first sent after it began): its counts were
        // read at most this long after the phase began (the workload's last: behind a
        // thread pool with 2,000 users each statement queued, and the New-Orders count came
        // 1 to 2 s after the counters).
        if let Some(m) = change.measure_start
            && change.prev_sent < m
            && change.sent >= m
        {
            s.report.opening_lag_s = change.counted_by - m;
        }
        if change.phase == Phase::Measure {
            add_measured(&mut s.report, change.delta);
        }
        s.report.rows.push(row);
        s.report.samples += 1;
        count_time(&mut s.report, change.ms);
    }
}

/// One sample against the one before it: what `record` keeps of it.
struct Change {
    /// The phase the delta counts towards.
    phase: Phase,
    delta: Delta,
    /// When the measured phase began (seconds since t0), as the delta was taken.
    measure_start: Option<f64>,
    /// When the sample before was answered and sent, s since t0.
    prev_t: f64,
    prev_sent: f64,
    /// When this sample was answered and sent, s since t0.
    t: f64,
    sent: f64,
    /// When the last of its counts the cross-checks read was answered (RawSample::counted_by).
    counted_by: f64,
    /// How long this sample took, ms.
    ms: f64,
}

/// A delta added to the measured phase's counts.
fn add_measured(report: &mut Report, delta: Delta) {
    match &mut report.measured {
        Some(sum) => sum.add(&delta),
        None => report.measured = Some(delta),
    }
}

/// A sample's time added to the report's sum and maximum.
fn count_time(report: &mut Report, ms: f64) {
    report.sample_ms_sum += ms;
    report.sample_ms_max = report.sample_ms_max.max(ms);
}

/// The calling thread's CPU time, s.
fn thread_cpu_s() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid pointer to a timespec for the calling thread's clock.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        return 0.0;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}
