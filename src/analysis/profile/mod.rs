//! What a CPU profile says (`run --profile`): from folded stacks ("root;…;leaf COUNT", as
//! perf's samples collapse), each function's share of the samples by self (the leaf) and by
//! total (anywhere in the stack), the share per subsystem where names make it clear, and the
//! findings a reader should act on (seed 003's spinning, the procedures' character-set
//! conversion, the kernel's I/O path, a client that eats the host).

use crate::results::{FnShare, Profile, RunResult};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// Functions listed by self and by total.
pub const TOP: usize = 15;

/// Subsystems, each with the name fragments that place a frame in it, in the order they are
/// tried from the leaf up: the first frame that matches one decides a sample.
pub const SUBSYSTEMS: &[(&str, &[&str])] = &[
    (
        "latches and spinning (InnoDB, LWLocks)",
        &[
            "ut_delay",
            "srw_lock",
            "srw_mutex",
            "ssux_lock",
            "sux_lock",
            "rw_lock_",
            "sync_array",
            "TTASEventMutex",
            "PolicyMutex",
            "LWLockAcquire",
            "s_lock",
            "spin_delay",
        ],
    ),
    (
        "character-set conversion",
        &[
            "my_convert",
            "copy_and_convert",
            "my_charset_",
            "my_mb_wc",
            "my_wc_mb",
            "my_strnxfrm",
            "well_formed_len",
            "String::copy",
            "pg_do_encoding_conversion",
            "LocalToUtf",
            "UtfToLocal",
        ],
    ),
    (
        "redo log and WAL writing",
        &[
            "log_write",
            "log_t::",
            "log_sys",
            "mtr_t::commit",
            "mtr_t::finish_write",
            "log_buffer",
            "XLogInsert",
            "XLogFlush",
            "XLogWrite",
            "CopyXLogRecordToWAL",
        ],
    ),
    (
        "kernel I/O and fsync",
        &[
            "fsync",
            "fdatasync",
            "ext4_",
            "jbd2",
            "xfs_",
            "blk_",
            "submit_bio",
            "iomap_",
            "io_uring",
            "io_submit",
            "aio_",
            "filemap_",
            "vfs_write",
            "vfs_read",
        ],
    ),
    (
        "networking",
        &[
            "tcp_",
            "sock_",
            "__sys_recv",
            "__sys_send",
            "inet_",
            "unix_stream",
            "ip_",
            "net_rx",
            "vio_",
            "my_net_",
            "net_write",
            "net_read",
            "pq_getbyte",
            "pq_flush",
            "secure_read",
            "secure_write",
        ],
    ),
    (
        "kernel scheduler and futexes",
        &[
            "schedule",
            "finish_task_switch",
            "futex_",
            "try_to_wake_up",
            "pick_next_task",
            "__x64_sys_futex",
            "do_nanosleep",
            "epoll_wait",
        ],
    ),
    (
        "the SQL layer",
        &[
            "mysql_execute_command",
            "mysql_parse",
            "dispatch_command",
            "JOIN::",
            "Item",
            "sp_head",
            "handler::",
            "ha_innobase",
            "Protocol",
            "exec_simple_query",
            "exec_execute_message",
            "PortalRun",
            "ExecutorRun",
            "planner",
            "pg_parse_query",
        ],
    ),
];

/// One folded line: its frames (root first) and its count; None for a line that is not one.
pub fn parse_line(line: &str) -> Option<(Vec<&str>, u64)> {
    let (stack, count) = line.trim_end().rsplit_once(' ')?;
    let count: u64 = count.parse().ok()?;
    if stack.is_empty() || count == 0 {
        return None;
    }
    Some((stack.split(';').collect(), count))
}

/// A function's name without the annotations collapse adds (`_[k]` kernel, `_[j]` jitted).
fn clean(frame: &str) -> &str {
    frame
        .strip_suffix("_[k]")
        .or_else(|| frame.strip_suffix("_[j]"))
        .unwrap_or(frame)
}

/// The subsystem of a stack (root first): the first frame from the leaf up that names one.
pub fn subsystem(frames: &[&str]) -> Option<&'static str> {
    for f in frames.iter().rev() {
        let f = clean(f);
        for (name, parts) in SUBSYSTEMS {
            if parts.iter().any(|p| f.contains(p)) {
                return Some(name);
            }
        }
    }
    None
}

/// "[unknown]", or "[mariadbd]": the binary without the function's name.
fn nameless(frame: &str) -> bool {
    frame.starts_with('[') && frame.ends_with(']')
}

/// Shares of a folded profile; `root_is_process`: the first frame names the process (perf's
/// collapse puts the command there), not a function.
pub fn shares(folded: &str, root_is_process: bool) -> Shares {
    let mut s = Shares::default();
    let mut seen = HashSet::new();
    for line in folded.lines() {
        let Some((frames, n)) = parse_line(line) else {
            s.bad_lines += 1;
            continue;
        };
        let frames = if root_is_process && frames.len() > 1 {
            &frames[1..]
        } else {
            &frames[..]
        };
        s.samples += n;
        let leaf = clean(frames[frames.len() - 1]);
        *s.by_self.entry(leaf.to_string()).or_default() += n;
        if nameless(leaf) {
            s.unknown_self += n;
        }
        seen.clear();
        let mut unresolved = false;
        for f in frames {
            let f = clean(f);
            if seen.insert(f) {
                *s.by_total.entry(f.to_string()).or_default() += n;
            }
            unresolved |= nameless(f);
        }
        if unresolved {
            s.unknown += n;
        }
        let sub = subsystem(frames).unwrap_or("other");
        *s.by_subsystem.entry(sub.to_string()).or_default() += n;
    }
    s
}

/// Sample counts of a folded profile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shares {
    /// Samples in all.
    pub samples: u64,
    /// Samples with an unresolved frame in their stack.
    pub unknown: u64,
    /// Samples whose leaf is unresolved.
    pub unknown_self: u64,
    /// Lines that were not folded stacks.
    pub bad_lines: u64,
    /// Function → samples where it is the leaf.
    pub by_self: BTreeMap<String, u64>,
    /// Function → samples where it is anywhere in the stack (once per stack).
    pub by_total: BTreeMap<String, u64>,
    /// Subsystem → samples.
    pub by_subsystem: BTreeMap<String, u64>,
}

impl Shares {
    /// Adds `other`'s samples (repetitions of one cell combined).
    pub fn add(&mut self, other: &Shares) {
        self.samples += other.samples;
        self.unknown += other.unknown;
        self.unknown_self += other.unknown_self;
        self.bad_lines += other.bad_lines;
        for (mine, theirs) in [
            (&mut self.by_self, &other.by_self),
            (&mut self.by_total, &other.by_total),
            (&mut self.by_subsystem, &other.by_subsystem),
        ] {
            for (k, v) in theirs {
                *mine.entry(k.clone()).or_default() += v;
            }
        }
    }

    fn pct(&self, n: u64) -> f64 {
        if self.samples == 0 {
            0.0
        } else {
            100.0 * n as f64 / self.samples as f64
        }
    }

    /// The `n` largest of `map` as shares, largest first (ties by name).
    fn top(&self, map: &BTreeMap<String, u64>, n: usize) -> Vec<FnShare> {
        let mut v: Vec<(&String, &u64)> = map.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        v.into_iter()
            .take(n)
            .map(|(name, c)| FnShare {
                name: name.clone(),
                pct: self.pct(*c),
            })
            .collect()
    }

    /// The profile record's figures: top functions by self and total, subsystems, the
    /// unresolved share.
    pub fn fill(&self, p: &mut Profile) {
        // cpu-clock weighs a sample by its period in ns; counts of plain samples (a folded
        // file from elsewhere) are samples at p.hz.
        let per_s = self.samples as f64 / p.seconds.max(1e-9);
        p.cpu_ms = if per_s > 1e5 || p.hz == 0 {
            self.samples as f64 / 1e6
        } else {
            self.samples as f64 * 1000.0 / f64::from(p.hz)
        };
        p.unresolved_pct = self.pct(self.unknown_self);
        p.unresolved_stacks_pct = self.pct(self.unknown);
        p.top_self = self.top(&self.by_self, TOP);
        p.top_total = self.top(&self.by_total, TOP);
        p.subsystems = self.top(&self.by_subsystem, SUBSYSTEMS.len() + 1);
    }
}

/// The record `p` (what was sampled) completed from its folded stacks: shares, top
/// functions, subsystems, and for a server its findings.
pub fn of(mut p: Profile, folded: &str, durability: Option<&str>) -> Profile {
    shares(folded, true).fill(&mut p);
    if p.what == "server" {
        p.findings = findings(&p, durability);
    }
    p
}

/// The client's finding: a driver that takes `client_cpu_pct` % (25 % or more) of a host it
/// shares with the server (`shares_host`) takes it from the server; its profile says where.
pub fn client_finding(p: &Profile, client_cpu_pct: f64, shares_host: bool) -> Option<String> {
    if p.what != "client" || !shares_host || client_cpu_pct < 25.0 {
        return None;
    }
    let top: Vec<String> = p
        .top_self
        .iter()
        .take(3)
        .map(|f| format!("{} {:.1} %", f.name, f.pct))
        .collect();
    Some(format!(
        "the client (txbench) used {client_cpu_pct:.0} % of this host's CPUs, which the server shares: the server's throughput is capped by what the client leaves it; its own time went to {} — run the client on another host (or pin both with --cpus) for the server's own limit",
        top.join(", ")
    ))
}

/// One function in two server profiles: its share of each (self) and what that is per
/// transaction (the share of the server's CPU ms per transaction), so a function that costs
/// the same per transaction but grows in share is told apart from one that got slower.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FnDiff {
    /// The function.
    pub name: String,
    /// % of BASE's samples.
    pub base_pct: f64,
    /// % of NEW's.
    pub new_pct: f64,
    /// Server CPU ms per transaction in it, BASE (None without the server's CPU figure).
    pub base_ms: Option<f64>,
    /// The same, NEW.
    pub new_ms: Option<f64>,
}

/// Percentage points of share from which a subsystem or function counts as moved.
pub const MOVED_POINTS: f64 = 1.0;

impl FnDiff {
    /// Its share changed by [`MOVED_POINTS`] or more.
    pub fn moved(&self) -> bool {
        (self.new_pct - self.base_pct).abs() >= MOVED_POINTS
    }
}

/// What changed from one server profile to another: the subsystems (all that either has,
/// largest change first) and the `n` functions whose self share changed most; `*_ms` the
/// server CPU ms per transaction of each run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileDiff {
    /// Subsystems, largest change first.
    pub subsystems: Vec<FnDiff>,
    /// Functions (self), largest change first.
    pub functions: Vec<FnDiff>,
}

impl ProfileDiff {
    /// `new` against `base`.
    pub fn of(
        base: &Shares,
        new: &Shares,
        base_ms: Option<f64>,
        new_ms: Option<f64>,
        n: usize,
    ) -> ProfileDiff {
        ProfileDiff {
            subsystems: diff_of(base, new, base_ms, new_ms, usize::MAX, |s| &s.by_subsystem),
            functions: diff_of(base, new, base_ms, new_ms, n, |s| &s.by_self),
        }
    }

    /// The subsystems whose share changed by [`MOVED_POINTS`] or more, largest change first.
    pub fn moved_subsystems(&self) -> impl Iterator<Item = &FnDiff> {
        self.subsystems.iter().filter(|d| d.moved())
    }

    /// Aligned text: the subsystems that changed by a point or more on one line, then a
    /// line per function.
    pub fn text_lines(&self) -> Vec<String> {
        let ms = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.4}"));
        let moved: Vec<String> = self
            .moved_subsystems()
            .map(|d| format!("{} {:.1} % → {:.1} %", d.name, d.base_pct, d.new_pct))
            .collect();
        let mut out = vec![format!(
            "  subsystems: {}",
            if moved.is_empty() {
                "none moved by a point or more".to_string()
            } else {
                moved.join(", ")
            }
        )];
        out.extend(self.functions.iter().map(|r| {
            format!(
                "  {:<48} {:>6.1} % {:>6.1} %  {:>10} {:>10} ms/txn",
                r.name,
                r.base_pct,
                r.new_pct,
                ms(r.base_ms),
                ms(r.new_ms)
            )
        }));
        out
    }
}

/// The `n` keys of `map` whose share changed most from `base` to `new`.
fn diff_of(
    base: &Shares,
    new: &Shares,
    base_ms: Option<f64>,
    new_ms: Option<f64>,
    n: usize,
    map: impl Fn(&Shares) -> &BTreeMap<String, u64>,
) -> Vec<FnDiff> {
    let names: std::collections::BTreeSet<&String> =
        map(base).keys().chain(map(new).keys()).collect();
    let mut out: Vec<FnDiff> = names
        .into_iter()
        .map(|name| {
            let share = |s: &Shares| s.pct(map(s).get(name).copied().unwrap_or(0));
            let (b, nw) = (share(base), share(new));
            FnDiff {
                name: name.clone(),
                base_pct: b,
                new_pct: nw,
                base_ms: base_ms.map(|ms| ms * b / 100.0),
                new_ms: new_ms.map(|ms| ms * nw / 100.0),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        (b.new_pct - b.base_pct)
            .abs()
            .total_cmp(&(a.new_pct - a.base_pct).abs())
            .then(a.name.cmp(&b.name))
    });
    out.truncate(n);
    out
}

/// The folded stacks of the server profile of the run in `dir` (None: no server profile, or
/// its file is gone).
pub fn server_folded(dir: &Path, r: &RunResult) -> Option<String> {
    let p = r.profiles.iter().find(|p| p.what == "server")?;
    crate::results::read_folded(&dir.join(&p.file)).ok()
}

/// The server profile of the run in `dir` read back: its shares and its server CPU ms per
/// transaction (None: no server profile, or its file is gone).
pub fn server_shares(dir: &Path, r: &RunResult) -> Option<(Shares, Option<f64>)> {
    let folded = server_folded(dir, r)?;
    let ms = r
        .summary
        .as_ref()
        .and_then(|s| s.server.as_ref())
        .and_then(|s| s.per_transaction.get("server_cpu_ms").copied());
    Some((shares(&folded, true), ms))
}

/// A subsystem's share in `p` (0 when absent).
pub fn subsystem_pct(p: &Profile, name: &str) -> f64 {
    p.subsystems
        .iter()
        .find(|s| s.name == name)
        .map_or(0.0, |s| s.pct)
}

/// What a server profile says a reader should try, a sentence each with its figure: spinning
/// in latches (5 % or more), character-set conversion (3 % or more), the kernel's I/O path
/// (10 % or more, against the run's `durability` settings as the pre-flight read them), and
/// functions without names (20 % or more).
pub fn findings(p: &Profile, durability: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    if p.unresolved_pct >= 20.0 {
        out.push(format!(
            "{:.0} % of the server's CPU is in functions perf could not name, and {:.0} % of its stacks pass through one (a binary without its symbols): the shares below undercount them; install the server's debug symbols (Debian: mariadb-server-dbgsym or postgresql-NN-dbgsym from the debian-debug archive) for a full profile",
            p.unresolved_pct, p.unresolved_stacks_pct
        ));
    }
    let spin = subsystem_pct(p, SUBSYSTEMS[0].0);
    if spin >= 5.0 {
        let ut_delay = p
            .top_total
            .iter()
            .find(|f| f.name.contains("ut_delay"))
            .map_or(String::new(), |f| format!(", ut_delay {:.1} %", f.pct));
        out.push(format!(
            "{spin:.1} % of the server's CPU went to latches and spinning{ut_delay}: threads wait on the same InnoDB latches; before changing innodb_spin_wait_delay (seed 003), see which latch in the flame graph and try fewer threads"
        ));
    }
    let conv = subsystem_pct(p, SUBSYSTEMS[1].0);
    if conv >= 3.0 {
        out.push(format!(
            "{conv:.1} % of the server's CPU converted character sets: the tables', the connection's and the procedures' parameters' character sets differ (latin1 tables with utf8mb4 parameters made TPC-C's procedures 2x dearer here); make them the same"
        ));
    }
    let io = subsystem_pct(p, SUBSYSTEMS[3].0);
    if io >= 10.0 {
        let settings = durability.map_or(String::new(), |d| format!(" (this run: {d})"));
        out.push(format!(
            "{io:.1} % of the server's CPU was in the kernel's I/O and fsync path: the durability settings{settings} and the disk decide this share; a flush per commit (innodb_flush_log_at_trx_commit=1, sync_binlog=1; PostgreSQL's synchronous_commit=on) costs it, a group commit across more threads shares it"
        ));
    }
    out
}

#[cfg(test)]
mod tests;
