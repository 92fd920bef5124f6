//! What the host says about a server that runs on it: /proc/PID (CPU, RSS, I/O), /proc/stat
//! (CPU busy, iowait, steal, context switches) and /proc/diskstats (the data directory's
//! device). Parsers take the files' text, so they are tested on fixed input.

use crate::metrics::server::{DiskStat, HostStat, ProcessStat};
use std::path::Path;

/// Clock ticks per second for /proc CPU times.
fn ticks() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

/// Parses /proc/PID/stat (CPU) and /proc/PID/status (VmRSS) and /proc/PID/io (bytes).
pub fn parse_process(stat: &str, status: &str, io: Option<&str>, tck: f64) -> Option<ProcessStat> {
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 (utime, stime) of the whole line are 11 and 12 after the name.
    let user = f.get(11)?.parse::<f64>().ok()? / tck;
    let sys = f.get(12)?.parse::<f64>().ok()? / tck;
    let rss_kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or(0.0);
    let io_field = |name: &str| -> f64 {
        io.and_then(|io| {
            io.lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().parse::<f64>().ok())
        })
        .unwrap_or(0.0)
    };
    Some(ProcessStat {
        user_s: user,
        sys_s: sys,
        rss_bytes: rss_kb * 1024.0,
        read_bytes: io_field("read_bytes:"),
        write_bytes: io_field("write_bytes:"),
    })
}

/// Parses /proc/stat: the aggregate `cpu` line, the per-CPU lines and `ctxt`.
pub fn parse_host(stat: &str, tck: f64) -> Option<HostStat> {
    let mut host = None;
    let mut cpus: f64 = 0.0;
    let mut ctxt = 0.0;
    for l in stat.lines() {
        let mut f = l.split_whitespace();
        match f.next() {
            Some("cpu") => {
                let v: Vec<f64> = f.filter_map(|x| x.parse().ok()).collect();
                // user nice system idle iowait irq softirq steal (guest is inside user).
                let get = |i: usize| v.get(i).copied().unwrap_or(0.0) / tck;
                let total: f64 = (0..8).map(get).sum();
                host = Some(HostStat {
                    total_s: total,
                    busy_s: total - get(3) - get(4),
                    iowait_s: get(4),
                    steal_s: get(7),
                    ctxt: 0.0,
                    cpus: 0.0,
                });
            }
            Some(name) if name.starts_with("cpu") => cpus += 1.0,
            Some("ctxt") => ctxt = f.next().and_then(|x| x.parse().ok()).unwrap_or(0.0),
            _ => {}
        }
    }
    host.map(|h| HostStat {
        ctxt,
        cpus: cpus.max(1.0),
        ..h
    })
}

/// Parses the /proc/diskstats line of device `major:minor`.
pub fn parse_disk(diskstats: &str, major: u32, minor: u32) -> Option<DiskStat> {
    for l in diskstats.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() < 14 || f[0].parse::<u32>().ok()? != major || f[1].parse::<u32>().ok()? != minor
        {
            continue;
        }
        let n = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
        // 3 reads, 5 sectors read, 7 writes, 9 sectors written; 18 flushes and 19 their ms
        // (kernel 5.5 and newer; older kernels have no flush fields).
        return Some(DiskStat {
            reads: n(3),
            read_bytes: n(5) * 512.0,
            writes: n(7),
            write_bytes: n(9) * 512.0,
            flushes: n(18),
            flush_ms: n(19),
        });
    }
    None
}

/// The server process's figures now.
pub fn read_process(pid: i32) -> Option<ProcessStat> {
    let dir = Path::new("/proc").join(pid.to_string());
    let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
    let status = std::fs::read_to_string(dir.join("status")).unwrap_or_default();
    let io = std::fs::read_to_string(dir.join("io")).ok();
    parse_process(&stat, &status, io.as_deref(), ticks())
}

/// A PostgreSQL server's figures now: the postmaster with the children it reaped (cutime,
/// cstime) and every live child (the backends, checkpointer, WAL writer…), summed. RSS
/// counts shared_buffers once per process that touched it, so it overstates.
pub fn read_process_tree(pid: i32) -> Option<ProcessStat> {
    let mut total = read_process(pid)?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let t = ticks();
    if let Some((cu, cs)) = stat_fields(&stat).and_then(|f| {
        Some((
            f.get(13)?.parse::<f64>().ok()?,
            f.get(14)?.parse::<f64>().ok()?,
        ))
    }) {
        total.user_s += cu / t;
        total.sys_s += cs / t;
    }
    for child in children(pid) {
        if let Some(c) = read_process(child) {
            total.user_s += c.user_s;
            total.sys_s += c.sys_s;
            total.rss_bytes += c.rss_bytes;
            total.read_bytes += c.read_bytes;
            total.write_bytes += c.write_bytes;
        }
    }
    Some(total)
}

/// The live processes whose parent is `pid`.
pub fn children(pid: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|entry| {
            let child = entry.file_name().to_str()?.parse::<i32>().ok()?;
            let text = std::fs::read_to_string(format!("/proc/{child}/stat")).ok()?;
            let ppid = stat_fields(&text)?.get(1)?.parse::<i32>().ok()?;
            (ppid == pid).then_some(child)
        })
        .collect()
}

/// The fields of /proc/PID/stat after the command name (field 3, the state, first).
fn stat_fields(stat: &str) -> Option<Vec<&str>> {
    let rest = &stat[stat.rfind(')')? + 1..];
    Some(rest.split_whitespace().collect())
}

/// The host's CPU figures now.
pub fn read_host() -> Option<HostStat> {
    parse_host(&std::fs::read_to_string("/proc/stat").ok()?, ticks())
}

/// The device's figures now.
pub fn read_disk(dev: (u32, u32)) -> Option<DiskStat> {
    parse_disk(
        &std::fs::read_to_string("/proc/diskstats").ok()?,
        dev.0,
        dev.1,
    )
}

/// Whether /proc/PID/io can be read (it needs the server's user or root).
pub fn process_io_readable(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/io")).is_ok()
}

/// The block device (major, minor) holding `path`, if it has disk statistics.
pub fn device_of(path: &Path) -> Result<(u32, u32), String> {
    use std::os::unix::fs::MetadataExt;
    let dev = std::fs::metadata(path)
        .map_err(|e| format!("cannot stat the data directory {}: {e}", path.display()))?
        .dev();
    let (major, minor) = (libc::major(dev), libc::minor(dev));
    let stats = std::fs::read_to_string("/proc/diskstats").unwrap_or_default();
    if parse_disk(&stats, major, minor).is_some() {
        return Ok((major, minor));
    }
    // A partition's statistics are its own line; a device-mapper or overlay device may have
    // none (major 0 is a virtual file system).
    Err(format!(
        "the data directory {} is on device {major}:{minor}, which has no disk statistics",
        path.display()
    ))
}

/// The pid of a MariaDB/MySQL server on this host from its pid file, confirmed through
/// /proc/PID/comm.
pub fn server_pid(pid_file: &Path) -> Result<i32, String> {
    let text = std::fs::read_to_string(pid_file)
        .map_err(|e| format!("cannot read its pid file {}: {e}", pid_file.display()))?;
    // MySQL's holds the pid; PostgreSQL's postmaster.pid has it on its first line.
    let pid: i32 = text
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .parse()
        .map_err(|_| format!("its pid file {} holds no pid", pid_file.display()))?;
    let comm = std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .map_err(|_| format!("process {pid} (from {}) is not running", pid_file.display()))?;
    let comm = comm.trim();
    if !(comm.contains("mysqld") || comm.contains("mariadbd") || comm == "postgres") {
        return Err(format!(
            "process {pid} (from {}) is {comm}, not a server",
            pid_file.display()
        ));
    }
    Ok(pid)
}

pub use crate::engine::listener::{holds_socket, listening_inodes};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn process_figures_from_proc_files() {
        let stat = "8127 (mariadbd x) S 1 8127 8127 0 -1 4194560 9000 0 12 0 250 75 0 0 20 0 40 0 1000 2000000000 30000 18446744073709551615";
        let status = "Name:\tmariadbd\nVmRSS:\t  204800 kB\nThreads:\t40\n";
        let io =
            "rchar: 1\nwchar: 2\nread_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n";
        let p = parse_process(stat, status, Some(io), 100.0).unwrap();
        assert_eq!(p.user_s, 2.5);
        assert_eq!(p.sys_s, 0.75);
        assert_eq!(p.rss_bytes, 204800.0 * 1024.0);
        assert_eq!(p.read_bytes, 4096.0);
        assert_eq!(p.write_bytes, 8192.0);
        // Without /proc/PID/io (another user's process): CPU and RSS still.
        assert_eq!(
            parse_process(stat, status, None, 100.0)
                .unwrap()
                .write_bytes,
            0.0
        );
    }

    #[test]
    fn host_figures_from_proc_stat() {
        let stat = "cpu  100 0 50 800 20 0 10 20 0 0\ncpu0 50 0 25 400 10 0 5 10 0 0\ncpu1 50 0 25 400 10 0 5 10 0 0\nintr 1\nctxt 123456\nbtime 1\n";
        let h = parse_host(stat, 100.0).unwrap();
        assert_eq!(h.cpus, 2.0);
        assert_eq!(h.ctxt, 123456.0);
        assert!((h.total_s - 10.0).abs() < 1e-9);
        assert!((h.iowait_s - 0.2).abs() < 1e-9);
        assert!((h.steal_s - 0.2).abs() < 1e-9);
        assert!((h.busy_s - 1.8).abs() < 1e-9);
    }

    #[test]
    fn disk_figures_of_one_device() {
        let stats = " 254       0 vda 50113 7747 2914394 27883 18043 20936 3067760 8988 0 17736 38027 6569 35 617768 1102 2395 53\n 7 0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
        let d = parse_disk(stats, 254, 0).unwrap();
        assert_eq!(d.reads, 50113.0);
        assert_eq!(d.read_bytes, 2914394.0 * 512.0);
        assert_eq!(d.writes, 18043.0);
        assert_eq!(d.flushes, 2395.0);
        assert_eq!(d.flush_ms, 53.0);
        assert!(parse_disk(stats, 8, 0).is_none());
    }

    #[test]
    fn this_host_reads() {
        let h = read_host().unwrap();
        assert!(h.cpus >= 1.0 && h.total_s > 0.0);
        let me = read_process(std::process::id() as i32).unwrap();
        assert!(me.rss_bytes > 0.0);
        assert!(server_pid(Path::new("/nonexistent/x.pid")).is_err());
    }
}
