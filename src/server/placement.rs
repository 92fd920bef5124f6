//! Placement: CPU lists (`--cpus 0-1,3`) checked against this host, pinning a process to
//! them (sched_setaffinity, as taskset does), NUMA nodes, and what a process is allowed to
//! run on (/proc/PID/status), for the pre-flight.

use anyhow::{Result, bail};
use std::collections::BTreeSet;

/// The CPUs this process may run on (sched_getaffinity).
pub fn host_cpus() -> Vec<usize> {
    // SAFETY: an all-zero cpu_set_t is a valid empty set for sched_getaffinity to fill.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: pid 0 is this thread, with a valid pointer and size.
    let ok =
        unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    if ok != 0 {
        let n = std::thread::available_parallelism().map_or(1, |n| n.get());
        return (0..n).collect();
    }
    (0..libc::CPU_SETSIZE as usize)
        // SAFETY: i is below CPU_SETSIZE.
        .filter(|&i| unsafe { libc::CPU_ISSET(i, &set) })
        .collect()
}

/// A list as the kernel writes one: `0-1,3`.
pub fn format_list(cpus: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let start = cpus[i];
        let mut end = start;
        while i + 1 < cpus.len() && cpus[i + 1] == end + 1 {
            i += 1;
            end = cpus[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

/// Parses `0-1,3` into sorted, distinct CPU numbers that this host has; `flag` names the
/// option in the error.
pub fn parse_cpus(spec: &str, flag: &str) -> Result<Vec<usize>> {
    let host = host_cpus();
    let mut cpus = BTreeSet::new();
    for part in spec.split(',') {
        let part = part.trim();
        let range = match part.split_once('-') {
            Some((a, b)) => (a.trim().parse::<usize>(), b.trim().parse::<usize>()),
            None => (part.parse::<usize>(), part.parse::<usize>()),
        };
        let (Ok(a), Ok(b)) = range else {
            bail!("{flag} {spec}: expected CPU numbers and ranges such as 0-1,3");
        };
        if a > b {
            bail!("{flag} {spec}: the range {part} runs backwards");
        }
        cpus.extend(a..=b);
    }
    let missing: Vec<usize> = cpus.iter().copied().filter(|c| !host.contains(c)).collect();
    if !missing.is_empty() {
        bail!(
            "{flag} {spec}: this host has no CPU {} (it has {})",
            format_list(&missing),
            format_list(&host)
        );
    }
    Ok(cpus.into_iter().collect())
}

fn cpu_set(cpus: &[usize]) -> libc::cpu_set_t {
    // SAFETY: an all-zero cpu_set_t is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &c in cpus {
        // SAFETY: parse_cpus only returns CPUs this host has, below CPU_SETSIZE.
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    set
}

/// Pins the calling thread, and every thread it starts afterwards, to `cpus`.
pub fn pin_self(cpus: &[usize]) -> std::io::Result<()> {
    let set = cpu_set(cpus);
    // SAFETY: pid 0 is this thread; a valid set and size.
    if unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Makes `cmd`'s process start pinned to `cpus` (set in the child before exec, so every
/// thread the server starts inherits it).
pub fn pin_command(cmd: &mut std::process::Command, cpus: &[usize]) {
    use std::os::unix::process::CommandExt;
    let set = cpu_set(cpus);
    // SAFETY: sched_setaffinity is async-signal-safe and touches nothing but the child.
    unsafe {
        cmd.pre_exec(move || {
            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// NUMA nodes of this host (/sys/devices/system/node/nodeN; 1 when it says nothing).
pub fn numa_nodes() -> usize {
    std::fs::read_dir("/sys/devices/system/node")
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| {
                    let name = e.file_name();
                    let n = name.to_string_lossy();
                    n.strip_prefix("node")
                        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
                })
                .count()
        })
        .unwrap_or(1)
        .max(1)
}

/// The CPUs process `pid` may run on, as /proc/PID/status lists them.
pub fn cpus_allowed(pid: i32) -> Option<String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .map(|v| v.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_parse_and_print_like_the_kernel() {
        let host = host_cpus();
        assert!(!host.is_empty());
        let first = host[0];
        assert_eq!(
            parse_cpus(&first.to_string(), "--cpus").unwrap(),
            vec![first]
        );
        assert_eq!(format_list(&[0, 1, 2, 5, 7, 8]), "0-2,5,7-8");
        let all = format_list(&host);
        assert_eq!(parse_cpus(&all, "--cpus").unwrap(), host);
        let e = parse_cpus("4096", "--cpus").unwrap_err().to_string();
        assert!(
            e.starts_with("--cpus 4096: this host has no CPU 4096 (it has "),
            "{e}"
        );
        for bad in ["", "a", "1-", "3-1", "0,,1"] {
            let e = parse_cpus(bad, "--cpus").unwrap_err().to_string();
            assert!(e.starts_with(&format!("--cpus {bad}:")), "{e}");
        }
    }

    #[test]
    fn this_process_reports_its_allowed_cpus() {
        let me = std::process::id() as i32;
        let listed = cpus_allowed(me).unwrap();
        assert_eq!(parse_cpus(&listed, "x").unwrap(), host_cpus());
        assert!(numa_nodes() >= 1);
    }
}
