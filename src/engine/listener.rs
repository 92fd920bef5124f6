//! Who listens where a URL connects: the inodes of the listening sockets (TCP in LISTEN on
//! the port, from the kernel's sock_diag or /proc/net/tcp; or the unix socket at its path,
//! from /proc/net/unix) and whether a process holds one (/proc/PID/fd).
//! The sampler uses it to know the server it watches is the one clients reach; a sandbox
//! login uses it before every connection, so that a program another local user started on
//! a stopped sandbox's port is never sent the sandbox's password.

use super::TargetUrl;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod diag;

/// The inodes of the sockets that listen where `url` connects: TCP sockets in LISTEN on
/// its port (any local address, IPv4 or IPv6), or the unix socket at its path (MySQL's
/// socket file; PostgreSQL's `DIR/.s.PGSQL.PORT`).
pub fn listening_inodes(url: &TargetUrl) -> Vec<u64> {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    match &url.socket {
        Some(sock) => {
            let path = match url.engine {
                super::Engine::Postgres => sock.join(format!(".s.PGSQL.{}", url.port)),
                _ => sock.clone(),
            };
            unix_inodes(&read("/proc/net/unix"), &path)
        }
        None => {
            // The kernel's sock_diag, or /proc/net where it cannot answer.
            let tcp = |family, table| {
                diag::listen_inodes(family, url.port)
                    .unwrap_or_else(|_| tcp_listen_inodes(&read(table), url.port))
            };
            let mut v = tcp(libc::AF_INET, "/proc/net/tcp");
            v.extend(tcp(libc::AF_INET6, "/proc/net/tcp6"));
            v
        }
    }
}

/// Inodes of /proc/net/tcp (or tcp6) lines in LISTEN (state 0A) on `port`.
pub fn tcp_listen_inodes(table: &str, port: u16) -> Vec<u64> {
    table
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let local_port = u16::from_str_radix(f.get(1)?.rsplit_once(':')?.1, 16).ok()?;
            (local_port == port && *f.get(3)? == "0A").then(|| f.get(9)?.parse().ok())?
        })
        .collect()
}

/// Inodes of /proc/net/unix lines bound to `path`.
pub fn unix_inodes(table: &str, path: &Path) -> Vec<u64> {
    let want = path.to_string_lossy();
    table
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (*f.get(7)? == want).then(|| f.get(6)?.parse().ok())?
        })
        .collect()
}

/// Whether process `pid` holds one of `inodes` open; Err when its descriptors cannot be
/// read.
pub fn holds_socket(pid: i32, inodes: &[u64]) -> Result<bool, String> {
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map_err(|e| format!("/proc/{pid}/fd cannot be read ({e})"))?;
    Ok(fds.flatten().any(|fd| {
        std::fs::read_link(fd.path()).is_ok_and(|t| {
            t.to_str()
                .and_then(|t| t.strip_prefix("socket:[")?.strip_suffix(']')?.parse().ok())
                .is_some_and(|n: u64| inodes.contains(&n))
        })
    }))
}

/// How long one check that the sandbox holds its listener stands for: 2,000 virtual users
/// connecting at once check it once, not 2,000 times over the server's descriptors.
const CHECK_STANDS: Duration = Duration::from_secs(1);

/// When each (port, socket) was last found held by its sandbox.
static CHECKED: Mutex<Vec<(u16, Option<std::path::PathBuf>, Instant)>> = Mutex::new(Vec::new());

/// The checks a sandbox login asks for before every connection: [`check_sandbox`] for a
/// sandbox's own URL, [`check_peer`] for a server reached through it.
pub fn check(url: &TargetUrl) -> anyhow::Result<()> {
    if let Some(pid_file) = &url.sandbox_pid_file {
        check_sandbox(url, pid_file)?;
    }
    if let Some(pid_file) = &url.sandbox_peer_of {
        check_peer(url, pid_file)?;
    }
    Ok(())
}

/// The uid of process `pid`.
fn uid_of(pid: i32) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(format!("/proc/{pid}"))
        .map(|m| m.uid())
        .ok()
}

/// Before a sandbox login to a server another one reported (a replica): the process
/// listening where `url` connects must run as the account of the process `pid_file` names
/// (the sandboxes' servers' account). Processes of other accounts are not even looked at.
pub fn check_peer(url: &TargetUrl, pid_file: &Path) -> anyhow::Result<()> {
    let owner = std::fs::read_to_string(pid_file)
        .ok()
        .and_then(|t| t.lines().next()?.trim().parse::<i32>().ok())
        .and_then(uid_of);
    let inodes = listening_inodes(url);
    let served = owner.is_some_and(|uid| {
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.parse::<i32>().ok())
                    .is_some_and(|pid| {
                        uid_of(pid) == Some(uid) && holds_socket(pid, &inodes).unwrap_or(false)
                    })
            })
    });
    if !served {
        anyhow::bail!(
            "the process listening at {}:{} does not run as the sandboxes' servers do: the sandbox's password is not sent to it",
            url.host,
            url.port
        );
    }
    Ok(())
}

/// Before a sandbox login: the process listening where `url` connects must be the one its
/// pid file (`pid_file`, in the sandbox's private directory) names. Err names what was found.
pub fn check_sandbox(url: &TargetUrl, pid_file: &Path) -> anyhow::Result<()> {
    let key = (url.port, url.socket.clone());
    let mut checked = CHECKED.lock().unwrap_or_else(|p| p.into_inner());
    checked.retain(|(_, _, at)| at.elapsed() < CHECK_STANDS);
    if checked.iter().any(|(p, s, _)| (*p, s) == (key.0, &key.1)) {
        return Ok(());
    }
    let pid: Option<i32> = std::fs::read_to_string(pid_file)
        .ok()
        .and_then(|t| t.lines().next()?.trim().parse().ok());
    // The server wrote its pid file: a process of another user that got the same pid after a
    // crash (a stale pid file) is not it.
    let same_owner = |pid: i32| {
        use std::os::unix::fs::MetadataExt;
        let owner = |p: &Path| std::fs::metadata(p).map(|m| m.uid()).ok();
        owner(pid_file).is_some() && owner(pid_file) == owner(Path::new(&format!("/proc/{pid}")))
    };
    let held = pid.is_some_and(|pid| {
        same_owner(pid) && holds_socket(pid, &listening_inodes(url)).unwrap_or(false)
    });
    if !held {
        let at = match &url.socket {
            Some(s) => s.display().to_string(),
            None => format!("{}:{}", url.host, url.port),
        };
        anyhow::bail!(
            "the process listening at {at} is not the sandbox's server (its pid file {} names {}): the sandbox's password is not sent to it",
            pid_file.display(),
            pid.map_or("no running process".to_string(), |p| format!("process {p}"))
        );
    }
    checked.push((key.0, key.1, Instant::now()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listening_sockets_from_proc_net() {
        let tcp = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
   0: 0100007F:0CEB 00000000:0000 0A 00000000:00000000 00:00000000 00000000   106        0 41234 1 0 100 0 0 10 0\n\
   1: 0100007F:0CEB 0100007F:D2A4 01 00000000:00000000 00:00000000 00000000   106        0 41299 1 0 20 4 30 10 -1\n\
   2: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1111 1 0 100 0 0 10 0\n";
        assert_eq!(tcp_listen_inodes(tcp, 3307), vec![41234]);
        assert_eq!(tcp_listen_inodes(tcp, 22), vec![1111]);
        assert!(tcp_listen_inodes(tcp, 5432).is_empty());
        let unix = "Num       RefCount Protocol Flags    Type St Inode Path\n\
0000000000000000: 00000002 00000000 00010000 0001 01 52011 /tmp/x/mysqld.sock\n\
0000000000000000: 00000003 00000000 00000000 0001 03 52012\n";
        assert_eq!(
            unix_inodes(unix, Path::new("/tmp/x/mysqld.sock")),
            vec![52011]
        );
        assert!(unix_inodes(unix, Path::new("/tmp/y.sock")).is_empty());
    }
}
