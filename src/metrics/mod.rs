//! Measurement: per-worker recorders with HDR histograms per transaction kind, merged per
//! interval; error classes; latency summaries. Pure data: no database code here.

pub mod server;
pub mod waits;

mod phase;
pub use phase::Phase;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

/// Histogram bounds: 1 µs .. 1 h, 3 significant figures (values in microseconds).
pub const HIST_LOW_US: u64 = 1;
/// See [`HIST_LOW_US`].
pub const HIST_HIGH_US: u64 = 3_600_000_000;
/// See [`HIST_LOW_US`].
pub const HIST_SIGFIG: u8 = 3;
/// Distinct error messages kept per recorder (the rest are only counted).
const MAX_MESSAGES: usize = 16;

/// A new empty latency histogram with the fixed bounds.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(HIST_LOW_US, HIST_HIGH_US, HIST_SIGFIG)
        .expect("constant histogram bounds are valid")
}

/// The bucket layout every histogram shares; only read, to map a value to its bucket.
static LAYOUT: LazyLock<Histogram<u64>> = LazyLock::new(new_histogram);

/// An HDR histogram (1 µs .. 1 h, 3 significant figures) kept sparse: bucket → count.
///
/// A dense HDR histogram of these bounds is 23,552 counters (188 KiB), all touched when it
/// is created, and a worker records into a few hundred of them: 1,000 virtual users cost
/// 376 MiB for their histograms alone. Keyed by each bucket's lowest equivalent value, this
/// holds exactly what the dense histogram would (values in one bucket are equivalent), and
/// [`SparseHistogram::to_hdr`] gives the dense one for percentiles and the interval log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SparseHistogram {
    counts: HashMap<u64, u64>,
    len: u64,
}

impl SparseHistogram {
    /// Records a value in microseconds, clamped to the bounds.
    pub fn record(&mut self, us: u64) {
        let bucket = LAYOUT.lowest_equivalent(us.clamp(HIST_LOW_US, HIST_HIGH_US));
        *self.counts.entry(bucket).or_insert(0) += 1;
        self.len += 1;
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, o: &SparseHistogram) {
        for (&bucket, &n) in &o.counts {
            *self.counts.entry(bucket).or_insert(0) += n;
        }
        self.len += o.len;
    }

    /// Values recorded.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds the counts into a dense HDR histogram of the same bounds.
    pub fn add_to(&self, h: &mut Histogram<u64>) {
        for (&bucket, &n) in &self.counts {
            h.saturating_record_n(bucket, n);
        }
    }

    /// The dense HDR histogram.
    pub fn to_hdr(&self) -> Histogram<u64> {
        let mut h = new_histogram();
        self.add_to(&mut h);
        h
    }
}

/// What went wrong with a transaction, as the driver treats it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorClass {
    /// 1213: retried.
    Deadlock,
    /// 1205: retried.
    LockWaitTimeout,
    /// 1062.
    DuplicateKey,
    /// 2006/2013 and I/O errors: reconnect and go on.
    LostConnection,
    /// The server is shutting down (1053) or killed the connection (1927).
    ServerShutdown,
    /// Anything else: the transaction fails and the message is kept.
    Other,
    /// A row the transaction must find or change was not there (TPC-C clause 2.3.6): the
    /// data or the schema is broken. Never retried; the statement and keys are in the message.
    Data,
    /// Galera: the transaction lost certification against another node's (or was aborted
    /// by a replicated one); MariaDB reports it as a deadlock (1213) with a wsrep message.
    /// Retried like a deadlock.
    Certification,
    /// Galera: the node is not in a Primary component or not yet synced (1047, "WSREP has
    /// not yet prepared node for application use"): the virtual user moves to another target.
    NodeNotReady,
    /// PostgreSQL's serialization failure (40001, REPEATABLE READ and SERIALIZABLE): the
    /// transaction saw a conflicting concurrent change. Retried, as pgbench's --max-tries does.
    Serialization,
}

impl ErrorClass {
    /// All classes, in column order.
    pub const ALL: [ErrorClass; 10] = [
        ErrorClass::Deadlock,
        ErrorClass::LockWaitTimeout,
        ErrorClass::DuplicateKey,
        ErrorClass::LostConnection,
        ErrorClass::ServerShutdown,
        ErrorClass::Other,
        ErrorClass::Data,
        ErrorClass::Certification,
        ErrorClass::NodeNotReady,
        ErrorClass::Serialization,
    ];
    /// Its column index.
    pub fn index(self) -> usize {
        self as usize
    }
    /// Contention errors the driver retries.
    pub fn retryable(self) -> bool {
        matches!(
            self,
            ErrorClass::Deadlock
                | ErrorClass::LockWaitTimeout
                | ErrorClass::Certification
                | ErrorClass::Serialization
        )
    }
    /// Errors that mean the connection is gone.
    pub fn disconnects(self) -> bool {
        matches!(
            self,
            ErrorClass::LostConnection | ErrorClass::ServerShutdown | ErrorClass::NodeNotReady
        )
    }
    /// Errors that should not happen at all: not contention, not a lost connection (those are
    /// retried or reconnected), but a transaction that should have worked.
    pub fn unexpected(self) -> bool {
        matches!(
            self,
            ErrorClass::DuplicateKey | ErrorClass::Other | ErrorClass::Data
        )
    }
    /// Finally failed attempts that count against `--max-error-rate`: every class but a lost
    /// connection (the server-unreachable rules judge those). Contention counts once its
    /// retries have run out: a run whose attempts mostly die in deadlocks measured nothing.
    pub fn counts_against_error_rate(self) -> bool {
        !self.disconnects()
    }
    /// snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            ErrorClass::Deadlock => "deadlock",
            ErrorClass::LockWaitTimeout => "lock_wait_timeout",
            ErrorClass::DuplicateKey => "duplicate_key",
            ErrorClass::LostConnection => "lost_connection",
            ErrorClass::ServerShutdown => "server_shutdown",
            ErrorClass::Other => "other",
            ErrorClass::Data => "data",
            ErrorClass::Certification => "certification",
            ErrorClass::NodeNotReady => "node_not_ready",
            ErrorClass::Serialization => "serialization",
        }
    }
}

/// Statements executed, sysbench's read / write / other split.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StmtCounts {
    /// SELECTs.
    pub reads: u64,
    /// INSERT / UPDATE / DELETE.
    pub writes: u64,
    /// BEGIN, COMMIT, CALL and the rest.
    pub other: u64,
}

impl StmtCounts {
    /// All statements.
    pub fn total(&self) -> u64 {
        self.reads + self.writes + self.other
    }
    fn add(&mut self, o: &StmtCounts) {
        self.reads += o.reads;
        self.writes += o.writes;
        self.other += o.other;
    }
}

/// Counters and histograms of one transaction kind.
#[derive(Debug, Clone)]
pub struct KindStats {
    /// Committed transactions.
    pub committed: u64,
    /// Transactions rolled back on purpose (TPC-C's 1 % New-Orders): completed, not errors.
    pub rolled_back: u64,
    /// Failed transactions by class (after retries).
    pub errors: [u64; ErrorClass::ALL.len()],
    /// Retries after deadlocks and lock-wait timeouts.
    pub retries: u64,
    /// Transactions that completed after one retry or more (pgbench's "transactions retried").
    pub retried_completed: u64,
    /// The same by the class of the error that was retried (pgbench's --max-tries counts
    /// serialization failures and deadlocks apart).
    pub retries_by_class: [u64; ErrorClass::ALL.len()],
    /// Intended start → end (equals service time in a closed loop).
    pub response: SparseHistogram,
    /// Actual start → end.
    pub service: SparseHistogram,
    /// Attempts that started before the measured phase opened (in the warm-up, when the
    /// opening sample read the server's counters) and ended in it: their statements before
    /// the sample are in txbench's counts and not in the server's (the cross-checks allow
    /// for them, one-sided).
    pub opened_before: u64,
}

impl KindStats {
    fn new() -> KindStats {
        KindStats {
            committed: 0,
            rolled_back: 0,
            errors: [0; ErrorClass::ALL.len()],
            retries: 0,
            retried_completed: 0,
            retries_by_class: [0; ErrorClass::ALL.len()],
            response: SparseHistogram::default(),
            service: SparseHistogram::default(),
            opened_before: 0,
        }
    }
    /// Completed transactions (committed + rolled back on purpose).
    pub fn completed(&self) -> u64 {
        self.committed + self.rolled_back
    }
    /// Failed transactions of every class.
    pub fn failed(&self) -> u64 {
        self.errors.iter().sum()
    }
    /// Failed transactions of the classes `of` picks.
    fn failed_as(&self, of: impl Fn(ErrorClass) -> bool) -> u64 {
        ErrorClass::ALL
            .iter()
            .filter(|c| of(**c))
            .map(|c| self.errors[c.index()])
            .sum()
    }
    /// Failed transactions that should have worked (duplicate key, data, other errors).
    pub fn unexpected(&self) -> u64 {
        self.failed_as(ErrorClass::unexpected)
    }
    /// Contention failures whose retries ran out (deadlock, lock wait, serialization,
    /// certification).
    pub fn failed_after_retries(&self) -> u64 {
        self.failed_as(ErrorClass::retryable)
    }
    /// Failed transactions that count against `--max-error-rate`.
    pub fn counted_failures(&self) -> u64 {
        self.failed_as(ErrorClass::counts_against_error_rate)
    }
    /// Transactions that failed with their connection.
    pub fn lost_with_connection(&self) -> u64 {
        self.failed_as(ErrorClass::disconnects)
    }
}

/// How a transaction ended well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Committed.
    Committed,
    /// Rolled back on purpose by the workload.
    RolledBack,
}

/// What one worker measured since the last interval boundary.
#[derive(Debug, Clone)]
pub struct Recorder {
    /// Per transaction kind, in the workload's kind order.
    pub kinds: Vec<KindStats>,
    /// Statements executed (successful or not).
    pub stmts: StmtCounts,
    /// Reconnects after a lost connection.
    pub reconnects: u64,
    /// Transactions in flight at the end of the run whose sessions the end cut after they
    /// may have sent a statement that ends a transaction (neither completed nor failed).
    pub cut: u64,
    /// Transactions the end cut before they sent anything that could end a transaction
    /// (engine::sessions::Gate): rolled back, in neither txbench's counts nor the server's.
    pub cut_uncommitted: u64,
    /// Distinct error messages with their class and count.
    pub messages: Vec<ErrorMessage>,
}

/// An error message seen during a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorMessage {
    /// Its class.
    pub class: ErrorClass,
    /// The transaction kind it happened in.
    pub kind: String,
    /// The server's message.
    pub message: String,
    /// How often.
    pub count: u64,
}

impl Recorder {
    /// An empty recorder for `kinds` transaction kinds.
    pub fn new(kinds: usize) -> Recorder {
        Recorder {
            kinds: (0..kinds).map(|_| KindStats::new()).collect(),
            stmts: StmtCounts::default(),
            reconnects: 0,
            cut: 0,
            cut_uncommitted: 0,
            messages: Vec::new(),
        }
    }

    /// Records a completed transaction.
    pub fn completed(&mut self, kind: usize, outcome: Outcome, response_us: u64, service_us: u64) {
        let k = &mut self.kinds[kind];
        match outcome {
            Outcome::Committed => k.committed += 1,
            Outcome::RolledBack => k.rolled_back += 1,
        }
        k.response.record(response_us);
        k.service.record(service_us);
    }

    /// Records a retry after an error of `class`.
    pub fn retried(&mut self, kind: usize, class: ErrorClass) {
        self.kinds[kind].retries += 1;
        self.kinds[kind].retries_by_class[class.index()] += 1;
    }

    /// Records a failed transaction and keeps its message.
    pub fn failed(&mut self, kind: usize, kind_name: &str, class: ErrorClass, message: &str) {
        self.kinds[kind].errors[class.index()] += 1;
        self.note_message(class, kind_name, message, 1);
    }

    fn note_message(&mut self, class: ErrorClass, kind: &str, message: &str, count: u64) {
        if let Some(m) = self
            .messages
            .iter_mut()
            .find(|m| m.class == class && m.kind == kind && m.message == message)
        {
            m.count += count;
        } else if self.messages.len() < MAX_MESSAGES {
            self.messages.push(ErrorMessage {
                class,
                kind: kind.to_string(),
                message: message.to_string(),
                count,
            });
        }
    }

    /// Adds another recorder's numbers to this one.
    pub fn merge(&mut self, o: &Recorder) {
        for (a, b) in self.kinds.iter_mut().zip(&o.kinds) {
            a.committed += b.committed;
            a.rolled_back += b.rolled_back;
            a.retries += b.retries;
            a.retried_completed += b.retried_completed;
            a.opened_before += b.opened_before;
            for (x, y) in a.retries_by_class.iter_mut().zip(b.retries_by_class) {
                *x += y;
            }
            for (x, y) in a.errors.iter_mut().zip(b.errors) {
                *x += y;
            }
            a.response.merge(&b.response);
            a.service.merge(&b.service);
        }
        self.stmts.add(&o.stmts);
        self.reconnects += o.reconnects;
        self.cut += o.cut;
        self.cut_uncommitted += o.cut_uncommitted;
        for m in &o.messages {
            self.note_message(m.class, &m.kind, &m.message, m.count);
        }
    }

    /// Completed transactions of all kinds.
    pub fn completed_total(&self) -> u64 {
        self.kinds.iter().map(KindStats::completed).sum()
    }

    /// Failed transactions of all kinds.
    pub fn failed_total(&self) -> u64 {
        self.kinds.iter().map(KindStats::failed).sum()
    }

    /// Failures by class name, all kinds.
    pub fn errors_by_class(&self) -> BTreeMap<String, u64> {
        self.by_class(|k| &k.errors)
    }

    /// Retries by the class of the error retried, all kinds.
    pub fn retries_by_class(&self) -> BTreeMap<String, u64> {
        self.by_class(|k| &k.retries_by_class)
    }

    fn by_class(
        &self,
        of: impl Fn(&KindStats) -> &[u64; ErrorClass::ALL.len()],
    ) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for c in ErrorClass::ALL {
            let n: u64 = self.kinds.iter().map(|k| of(k)[c.index()]).sum();
            if n > 0 {
                out.insert(c.name().to_string(), n);
            }
        }
        out
    }

    /// The response-time histogram of all kinds together.
    pub fn all_response(&self) -> Histogram<u64> {
        let mut h = new_histogram();
        for k in &self.kinds {
            k.response.add_to(&mut h);
        }
        h
    }

    /// The service-time histogram of all kinds together.
    pub fn all_service(&self) -> Histogram<u64> {
        let mut h = new_histogram();
        for k in &self.kinds {
            k.service.add_to(&mut h);
        }
        h
    }
}

/// Latency figures in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct LatencyStats {
    /// Samples.
    pub count: u64,
    /// Minimum.
    pub min_ms: f64,
    /// Mean.
    pub avg_ms: f64,
    /// Median.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 95th percentile.
    pub p95_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// Maximum.
    pub max_ms: f64,
}

impl LatencyStats {
    /// The figures of a microsecond histogram (all zero when it is empty).
    pub fn of(h: &Histogram<u64>) -> LatencyStats {
        if h.is_empty() {
            return LatencyStats::default();
        }
        let ms = |us: u64| us as f64 / 1000.0;
        LatencyStats {
            count: h.len(),
            min_ms: ms(h.min()),
            avg_ms: h.mean() / 1000.0,
            p50_ms: ms(h.value_at_quantile(0.50)),
            p90_ms: ms(h.value_at_quantile(0.90)),
            p95_ms: ms(h.value_at_quantile(0.95)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            p999_ms: ms(h.value_at_quantile(0.999)),
            max_ms: ms(h.max()),
        }
    }
}

#[cfg(test)]
mod tests;
