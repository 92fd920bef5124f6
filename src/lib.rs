//! txbench: OLTP benchmarks for MySQL and MariaDB.
//!
//! [`run`] takes the parsed command line and dispatches to the parts: `server` (throw-away
//! local servers), `target` (URLs and connections), `preflight` (what a server is set to).

pub mod cli;
pub mod error;
pub mod preflight;
pub mod server;
pub mod target;

mod commands;

use anyhow::Result;
use cli::{Cli, Command};

/// Runs a parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> Result<i32> {
    let out = commands::Output {
        quiet: cli.quiet,
        json: cli.json,
    };
    match cli.command {
        Command::Server { command } => commands::server(&out, command),
        Command::Info => commands::info(&out, cli.url.as_deref()),
        Command::Prepare(w) | Command::Run(w) | Command::Check(w) | Command::Cleanup(w) => {
            commands::workload(&w)
        }
        Command::Report { runs } => commands::not_a_run(&runs[0]),
        Command::Compare { base, .. } => commands::not_a_run(&base),
    }
}
