//! A script's command outside a run (sysbench's `prepare`, `cleanup`, sysbench-tpcc's
//! `check`, any of sysbench.cmdline.commands): as sysbench runs it, a command declared
//! PARALLEL_COMMAND on every thread (each a state and connection of its own, sysbench.tid
//! 0..threads-1), another on one; without a declared command, the global function of
//! that name (prepare, cleanup, help) on one thread.

use super::state::{self, Made, Session, hidden, with_conn};
use super::{Given, Script};
use crate::engine::{self, TargetUrl};
use crate::workload::rand::worker_rng;

/// Runs command `name` of `script` with the options `given` on `threads` threads (for a
/// parallel command) against `url`. Errors: no such command (the message says which
/// exist), or the script's error as one line.
pub fn run_command(
    script: &Script,
    given: &Given,
    name: &str,
    url: &TargetUrl,
    threads: u32,
    seed: u64,
) -> anyhow::Result<()> {
    let declared = script.commands.iter().find(|(n, _)| n == name);
    let threads = match declared {
        Some((_, true)) => threads.max(1),
        Some((_, false)) => 1,
        None if script.defines(name) => 1,
        None => {
            let mut known: Vec<String> = script.commands.iter().map(|(n, _)| n.clone()).collect();
            known.extend(
                ["prepare", "cleanup", "help"]
                    .iter()
                    .filter(|f| script.defines(f))
                    .map(|f| f.to_string()),
            );
            known.sort();
            known.dedup();
            return Err(crate::error::Failure::Usage(format!(
                "{} has no command '{name}' (its commands: {})",
                script.path.display(),
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ))
            .into());
        }
    };
    let general = [("threads", f64::from(threads))];
    let one = |tid: u32| -> anyhow::Result<()> {
        let mut conn = engine::connect(url)?;
        let session = Session::new(
            worker_rng(seed, u64::from(tid)),
            &given.values,
            tid,
            threads,
            super::worker::driver_name(conn.engine()),
        );
        let made = Made {
            command: name,
            tid,
            values: &given.values,
            general: &general,
        };
        let shown = script.path.display().to_string();
        let fail = |e: mlua::Error| anyhow::anyhow!("{shown}: {}", state::one_line(&e));
        let lua = state::new_state(script, &made, session).map_err(fail)?;
        let call = hidden(&lua, "call").map_err(fail)?;
        let f: mlua::Function = if declared.is_some() {
            lua.load(format!("return sysbench.cmdline.commands[{name:?}][1]"))
                .eval()
                .map_err(fail)?
        } else {
            lua.globals().get(name).map_err(fail)?
        };
        let (ok, msg): (bool, Option<String>) =
            with_conn(&lua, &mut conn, || call.call((f, tid))).map_err(fail)?;
        if !ok {
            anyhow::bail!("{shown}: {name}: {}", msg.unwrap_or_default());
        }
        Ok(())
    };
    if threads == 1 {
        return one(0);
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|t| s.spawn(move || one(t))).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a command thread panicked")))
            })
            .collect::<anyhow::Result<Vec<()>>>()
    })?;
    Ok(())
}
