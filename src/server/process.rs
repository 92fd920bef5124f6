//! Process helpers for sandbox servers: liveness, identity, signals.

pub use crate::engine::sandbox::is_root;
use std::path::Path;
use std::time::{Duration, Instant};

/// True when `pid` is a live process (not a zombie). Reaps it first if it is our child,
/// so a server started by this process and since exited does not linger as a zombie.
pub fn alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // SAFETY: waitpid with WNOHANG on a pid only reaps it if it is our exited child.
    unsafe {
        let mut status = 0;
        libc::waitpid(pid, &mut status, libc::WNOHANG);
    }
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let exists = unsafe { libc::kill(pid, 0) } == 0
        || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    if !exists {
        return false;
    }
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state is the first field after the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(')')
            .map(|(_, rest)| !rest.trim_start().starts_with('Z'))
            .unwrap_or(true),
        Err(_) => false,
    }
}

/// True when `pid` runs with `--defaults-file=<cnf>`: the pid really is our server and not
/// an unrelated process that reused the number of a dead one.
pub fn runs_with_cnf(pid: i32, cnf: &Path) -> bool {
    runs_with_arg(pid, &format!("--defaults-file={}", cnf.display()))
}

/// True when process `pid` was started with the argument `arg`.
pub fn runs_with_arg(pid: i32, arg: &str) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    cmdline.split(|b| *b == 0).any(|a| a == arg.as_bytes())
}

/// A live process whose command line names `path` (an argument equal to it, or ending in
/// `=PATH`): a server still running on a data directory or configuration file, with or
/// without its pid file.
pub fn running_on(path: &Path) -> Option<i32> {
    let want = path.as_os_str().as_encoded_bytes();
    let suffix = [b"=".as_slice(), want].concat();
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: i32 = e.file_name().to_str()?.parse().ok()?;
        let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
        let names = cmdline
            .split(|b| *b == 0)
            .any(|a| a == want || a.ends_with(&suffix));
        (names && pid != std::process::id() as i32 && alive(pid)).then_some(pid)
    })
}

/// Sends `signal` to `pid`; a process that is already gone is not an error.
pub fn signal(pid: i32, signal: i32) {
    // SAFETY: plain kill(2); callers checked the pid is our server.
    unsafe {
        libc::kill(pid, signal);
    }
}

/// Waits until `pid` has exited, at most `limit`. True if it exited.
pub fn wait_exit(pid: i32, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if !alive(pid) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A local account a server runs as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its login name.
    pub name: String,
    /// Its uid.
    pub uid: u32,
    /// Its primary gid.
    pub gid: u32,
}

impl Account {
    /// The account called `name`, if this host has one.
    pub fn named(name: &str) -> Option<Account> {
        let c = std::ffi::CString::new(name).ok()?;
        // SAFETY: getpwnam returns a pointer to static storage or null; read at once.
        let pw = unsafe { libc::getpwnam(c.as_ptr()) };
        if pw.is_null() {
            return None;
        }
        // SAFETY: pw is non-null and points at a passwd entry.
        let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
        Some(Account {
            name: name.to_string(),
            uid,
            gid,
        })
    }

    /// The account this process runs as (its effective uid's name; the uid as a name when
    /// the account has none).
    pub fn current() -> Account {
        // SAFETY: geteuid/getegid have no preconditions; getpwuid returns static storage
        // or null, read at once.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let pw = unsafe { libc::getpwuid(uid) };
        let name = if pw.is_null() {
            uid.to_string()
        } else {
            // SAFETY: pw_name of a passwd entry is a NUL-terminated string.
            unsafe { std::ffi::CStr::from_ptr((*pw).pw_name) }
                .to_string_lossy()
                .into_owned()
        };
        Account { name, uid, gid }
    }

    /// Makes `cmd` run as this account (set before exec), with an environment of its own:
    /// a standard PATH, its name in USER and LOGNAME (the server's helpers, such as Galera's
    /// state transfer, connect as that name) and `home` as HOME (a directory only it may
    /// write; root's HOME is not readable, and /tmp is anyone's). Nothing of the caller's
    /// environment (which may hold a TXBENCH_URL with a password) is passed on.
    pub fn apply(&self, cmd: &mut std::process::Command, home: &Path) {
        use std::os::unix::process::CommandExt;
        cmd.uid(self.uid)
            .gid(self.gid)
            .env_clear()
            .env(
                "PATH",
                "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            )
            .env("USER", &self.name)
            .env("LOGNAME", &self.name)
            .env("HOME", home);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_own_process_is_alive_and_a_bogus_pid_is_not() {
        assert!(alive(std::process::id() as i32));
        assert!(!alive(0));
        assert!(!alive(-5));
        assert!(!alive(i32::MAX));
    }

    #[test]
    // Not waiting is the point: alive() must reap the exited child itself.
    #[allow(clippy::zombie_processes)]
    fn an_exited_child_is_not_alive() {
        let child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id() as i32;
        assert!(wait_exit(pid, Duration::from_secs(10)));
        assert!(!alive(pid));
    }

    #[test]
    fn cmdline_identity() {
        let cnf = Path::new("/nonexistent/my.cnf");
        assert!(!runs_with_cnf(std::process::id() as i32, cnf));
        // The positive case: a process started with --defaults-file=CNF is recognised, and
        // found by the path it names.
        let cnf = std::env::temp_dir().join(format!("txb-identity-{}.cnf", std::process::id()));
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 30; :", "sh"])
            .arg(format!("--defaults-file={}", cnf.display()))
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        // Just spawned, the child may not have exec'd yet (its command line is still ours).
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let mut seen = false;
        while !seen && std::time::Instant::now() < deadline {
            seen = runs_with_cnf(pid, &cnf) && running_on(&cnf) == Some(pid);
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(seen);
        assert!(!runs_with_cnf(pid, &cnf) || !alive(pid));
    }
}
