//! glibc's per-thread cache of freed blocks (tcache) turned off for the txbench process.
//!
//! With a thread per virtual user, each thread's tcache kept up to seven freed blocks of
//! every small size: about 67 KiB resident per virtual user, a third of the client's memory
//! at 1,024 users (TPC-C, 182 MiB peak with it, 113 MiB without; client CPU per transaction
//! unchanged at 8 users and at 1,024). glibc reads its tunables before `main`, from
//! GLIBC_TUNABLES only, so the process re-executes its binary once with the setting added, then
//! restores the variable, so the servers and tools it starts do not inherit it. A user's
//! own `glibc.malloc.tcache_count` is kept as given.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;

/// The setting added.
pub const TUNABLE: &str = "glibc.malloc.tcache_count=0";
const VAR: &str = "GLIBC_TUNABLES";
/// Set for the re-executed process: the variable's value before (empty: it was unset).
const MARK: &str = "TXBENCH_MALLOC_TUNED";

/// Called first in `main`, before any thread exists: re-executes this process with the
/// setting, or (in the re-executed process) restores the environment. When the re-execution
/// cannot be made, the process goes on as it is.
pub fn tune() {
    if let Some(before) = std::env::var_os(MARK) {
        // SAFETY: main calls this before any other thread exists.
        unsafe {
            std::env::remove_var(MARK);
            if before.is_empty() {
                std::env::remove_var(VAR);
            } else {
                std::env::set_var(VAR, before);
            }
        }
        return;
    }
    let before = std::env::var_os(VAR).unwrap_or_default();
    let Some(tunables) = with_tunable(&before) else {
        return;
    };
    // The binary's own path, not /proc/self/exe: the process is named after the file it
    // executes (ps, perf and the client's profile would call it "exe").
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| OsString::from("txbench"));
    // exec returns only when it failed (a binary replaced on disk since it started).
    let _ = std::process::Command::new(exe)
        .arg0(arg0)
        .args(args)
        .env(VAR, tunables)
        .env(MARK, &before)
        .exec();
}

/// GLIBC_TUNABLES with the setting added, or None when the user set tcache_count already.
fn with_tunable(before: &std::ffi::OsStr) -> Option<OsString> {
    let text = before.to_string_lossy();
    if text.contains("tcache_count") {
        return None;
    }
    let mut v = before.to_os_string();
    if !v.is_empty() {
        v.push(":");
    }
    v.push(TUNABLE);
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_is_added_to_the_users_tunables_unless_they_chose_one() {
        assert_eq!(with_tunable("".as_ref()).unwrap(), TUNABLE);
        assert_eq!(
            with_tunable("glibc.malloc.arena_max=2".as_ref()).unwrap(),
            "glibc.malloc.arena_max=2:glibc.malloc.tcache_count=0"
        );
        assert!(with_tunable("glibc.malloc.tcache_count=7".as_ref()).is_none());
    }
}
