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
        "InnoDB latches and spinning",
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
        seen.clear();
        let mut unresolved = false;
        for f in frames {
            let f = clean(f);
            if seen.insert(f) {
                *s.by_total.entry(f.to_string()).or_default() += n;
            }
            // "[unknown]", or "[mariadbd]": the binary without the function's name.
            unresolved |= f.starts_with('[') && f.ends_with(']');
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
        p.unresolved_pct = self.pct(self.unknown);
        p.top_self = self.top(&self.by_self, TOP);
        p.top_total = self.top(&self.by_total, TOP);
        p.subsystems = self.top(&self.by_subsystem, SUBSYSTEMS.len() + 1);
    }
}

/// The record `p` (what was sampled) completed from its folded stacks: shares, top
/// functions, subsystems, and for a server its findings.
pub fn of(mut p: Profile, folded: &str) -> Profile {
    shares(folded, true).fill(&mut p);
    if p.what == "server" {
        p.findings = findings(&p);
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

/// The `n` functions whose self share changed most from `base` to `new`; `*_ms` the server
/// CPU ms per transaction of each run.
pub fn diff(
    base: &Shares,
    new: &Shares,
    base_ms: Option<f64>,
    new_ms: Option<f64>,
    n: usize,
) -> Vec<FnDiff> {
    let names: std::collections::BTreeSet<&String> =
        base.by_self.keys().chain(new.by_self.keys()).collect();
    let mut out: Vec<FnDiff> = names
        .into_iter()
        .map(|name| {
            let share = |s: &Shares| s.pct(s.by_self.get(name).copied().unwrap_or(0));
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
/// (15 % or more).
pub fn findings(p: &Profile) -> Vec<String> {
    let mut out = Vec::new();
    if p.unresolved_pct >= 20.0 {
        out.push(format!(
            "{:.0} % of the server's CPU is in functions perf could not name (a binary without its symbols): the shares below undercount them; install the server's debug symbols (Debian: mariadb-server-dbgsym or postgresql-NN-dbgsym from the debian-debug archive) for a full profile",
            p.unresolved_pct
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
    if io >= 15.0 {
        out.push(format!(
            "{io:.1} % of the server's CPU was in the kernel's I/O and fsync path: durability settings (innodb_flush_log_at_trx_commit, sync_binlog; PostgreSQL's synchronous_commit) and the disk decide this share"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOLDED: &str = "\
mariadbd;do_command;dispatch_command;mysql_parse;mysql_execute_command;ha_innobase::write_row;ut_delay 30
mariadbd;do_command;dispatch_command;mysql_parse;mysql_execute_command;Item_func::val_int 20
mariadbd;do_command;dispatch_command;my_convert;my_mb_wc_utf8mb4 10
mariadbd;do_command;my_net_read;__sys_recvfrom_[k];tcp_recvmsg_[k] 15
mariadbd;[unknown];[unknown] 5
mariadbd;log_write_up_to;fdatasync;ext4_sync_file_[k] 20
not a folded line
";

    #[test]
    fn self_total_and_subsystems_add_up() {
        let s = shares(FOLDED, true);
        assert_eq!(s.samples, 100);
        assert_eq!(s.bad_lines, 1);
        assert_eq!(s.unknown, 5);
        assert_eq!(s.by_self["ut_delay"], 30);
        // Kernel frames lose their annotation; a function counts once per stack.
        assert_eq!(s.by_self["tcp_recvmsg"], 15);
        assert_eq!(s.by_total["dispatch_command"], 60);
        assert_eq!(s.by_total["do_command"], 75);
        // From the leaf up, the first frame that names a subsystem decides.
        assert_eq!(s.by_subsystem["InnoDB latches and spinning"], 30);
        assert_eq!(s.by_subsystem["the SQL layer"], 20);
        assert_eq!(s.by_subsystem["character-set conversion"], 10);
        assert_eq!(s.by_subsystem["networking"], 15);
        assert_eq!(s.by_subsystem["kernel I/O and fsync"], 20);
        assert_eq!(s.by_subsystem["other"], 5);
        let mut p = Profile::default();
        s.fill(&mut p);
        assert_eq!(p.top_self[0].name, "ut_delay");
        assert!((p.top_self[0].pct - 30.0).abs() < 1e-9);
        assert_eq!(p.top_total[0].name, "do_command");
        assert!((p.unresolved_pct - 5.0).abs() < 1e-9);
        let f = findings(&p);
        assert_eq!(f.len(), 3, "{f:?}");
        assert!(
            !f.iter().any(|l| l.contains("could not name")),
            "5 % unresolved is fine"
        );
        assert!(
            f[0].starts_with("30.0 % of the server's CPU went to latches"),
            "{f:?}"
        );
        assert!(f[0].contains("ut_delay 30.0 %"), "{f:?}");
        assert!(
            f[1].starts_with("10.0 % of the server's CPU converted"),
            "{f:?}"
        );
        assert!(
            f[2].starts_with("20.0 % of the server's CPU was in the kernel"),
            "{f:?}"
        );
    }

    #[test]
    fn a_nameless_frame_is_unresolved_and_the_frames_below_it_still_count() {
        // Debian's mariadbd without its debug symbols: "[mariadbd]" between named frames.
        let s = shares(
            "mariadbd;start_thread;[mariadbd];do_command;dispatch_command;[mariadbd] 40\nmariadbd;start_thread;do_command;my_net_read 60\n",
            true,
        );
        assert_eq!(s.unknown, 40);
        assert_eq!(s.by_total["dispatch_command"], 40);
        assert_eq!(s.by_total["do_command"], 100);
        let mut p = Profile {
            seconds: 1.0,
            hz: 99,
            ..Profile::default()
        };
        s.fill(&mut p);
        assert!((p.unresolved_pct - 40.0).abs() < 1e-9);
        // 100 plain samples at 99 Hz: about 1 s of CPU; cpu-clock's ns are ns.
        assert!(
            (p.cpu_ms - 100.0 * 1000.0 / 99.0).abs() < 1e-6,
            "{}",
            p.cpu_ms
        );
        let s = shares("mariadbd;f 1500000000\n", true);
        s.fill(&mut p);
        assert!((p.cpu_ms - 1500.0).abs() < 1e-6, "{}", p.cpu_ms);
    }

    #[test]
    fn a_client_that_eats_a_shared_host_is_named() {
        let mut p = Profile {
            what: "client".into(),
            ..Profile::default()
        };
        shares(
            "txbench;main;run;encode 30\ntxbench;main;run;read 10\n",
            true,
        )
        .fill(&mut p);
        let f = client_finding(&p, 48.0, true).unwrap();
        assert!(
            f.starts_with("the client (txbench) used 48 % of this host's CPUs"),
            "{f}"
        );
        assert!(f.contains("encode 75.0 %, read 25.0 %"), "{f}");
        assert!(client_finding(&p, 48.0, false).is_none(), "another host");
        assert!(client_finding(&p, 10.0, true).is_none(), "a light client");
        p.what = "server".into();
        assert!(client_finding(&p, 48.0, true).is_none());
    }

    #[test]
    fn hostile_lines_are_counted_not_trusted() {
        for bad in [
            "",
            " 5",
            "a;b",
            "a;b -3",
            "a;b 0",
            "a;b 1.5",
            "a;b 99999999999999999999",
        ] {
            assert!(parse_line(bad).is_none(), "{bad:?}");
        }
        let s = shares("x 1\n;; 2\n", false);
        assert_eq!(s.samples, 3);
        assert!(
            findings(&{
                let mut p = Profile::default();
                s.fill(&mut p);
                p
            })
            .is_empty()
        );
        // No samples: shares are zero, not NaN.
        let mut p = Profile::default();
        shares("", true).fill(&mut p);
        assert_eq!(p.unresolved_pct, 0.0);
    }
}
