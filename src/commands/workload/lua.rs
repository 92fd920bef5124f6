//! The `lua` workload on the command line: the script loaded for its verb and its options
//! read against what it declares (a refusal is a usage error, exit 2, before anything
//! runs); prepare, cleanup, check and `lua-command` run the script's own commands.

use super::{Output, resolve_target};
use crate::cli::{LuaArgs, LuaCommandCmd};
use crate::error::{EXIT_OK, Failure};
use crate::workload::lua::options::{Given, OptValue};
use crate::workload::lua::{Script, run_command};
use anyhow::Result;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// A script and its options' values.
pub(super) struct Chosen {
    pub script: Arc<Script>,
    pub given: Arc<Given>,
}

/// The script loaded for `verb`, its options read: errors are usage errors.
fn load(file: &Path, args: &[String], verb: &str) -> Result<Chosen> {
    let script = Script::load(file, verb).map_err(Failure::Usage)?;
    let given = script.parse(args).map_err(Failure::Usage)?;
    Ok(Chosen {
        script: Arc::new(script),
        given: Arc::new(given),
    })
}

/// `lua FILE [options]` of `verb`.
pub(super) fn select(a: &LuaArgs, verb: &str) -> Result<Chosen> {
    load(&a.file, &a.args, verb)
}

/// The options' listing when --help was among them (printed; the command does nothing else).
pub(super) fn help(out: &Output, c: &Chosen) -> Option<i32> {
    if !c.given.help {
        return None;
    }
    if !out.quiet {
        print!("{}", c.script.help());
    }
    Some(EXIT_OK)
}

/// The threads of a parallel command: the script's --threads when given, else `default`.
fn threads(c: &Chosen, default: u32) -> u32 {
    match c.given.given.get("threads") {
        Some(OptValue::Number(n)) if *n >= 1.0 => *n as u32,
        _ => default,
    }
}

/// Runs command `name` of the chosen script against the target and says how long it took.
pub(super) fn command(
    out: &Output,
    url: Option<&str>,
    c: &Chosen,
    name: &str,
    default_threads: u32,
) -> Result<i32> {
    if let Some(code) = help(out, c) {
        return Ok(code);
    }
    let target = resolve_target(out, url)?;
    let threads = threads(c, default_threads);
    out.note(&format!(
        "{name}: {} on {target} ({} thread(s) for a parallel command)",
        c.script.path.display(),
        threads
    ));
    let t = Instant::now();
    let seed = crate::sweep::clock_seed();
    run_command(&c.script, &c.given, name, &target, threads, seed)?;
    let secs = t.elapsed().as_secs_f64();
    if out.json {
        println!(
            "{}",
            json!({"workload": "lua", "script": c.script.path, "command": name, "seconds": secs})
        );
    } else if !out.quiet {
        println!("{name} {}: done in {secs:.2} s", c.script.path.display());
    }
    Ok(EXIT_OK)
}

/// `txbench lua-command FILE NAME [options]`.
pub fn lua_command(out: &Output, url: Option<&str>, cmd: &LuaCommandCmd) -> Result<i32> {
    let c = load(&cmd.file, &cmd.args, &cmd.name)?;
    command(out, url, &c, &cmd.name, 1)
}
