//! txbench: OLTP benchmarks for MySQL and MariaDB.
//!
//! [`run`] takes the parsed command line and dispatches to the parts: `server` (throw-away
//! local servers), `target` (URLs and connections), `preflight` (what a server is set to).

// No function over 100 lines as clippy counts them (clippy.toml's threshold), unit tests aside:
// `make lint`'s one clippy pass enforces it.
#![cfg_attr(not(test), deny(clippy::too_many_lines))]

pub mod analysis;
pub mod cli;
pub mod config;
pub mod driver;
pub mod engine;
pub mod error;
pub mod experiment;
pub mod k8s;
pub mod malloc;
pub mod metrics;
pub mod owned;
pub mod preflight;
pub mod replay;
pub mod report;
pub mod results;
pub mod sampler;
pub mod server;
pub mod shard;
pub mod store;
pub mod sweep;
pub mod topology;
pub mod workload;

mod commands;

use anyhow::Result;
use cli::{Cli, Command};

/// Runs a parsed command line; returns the process exit code.
pub fn run(cli: Cli) -> Result<i32> {
    // A benchmark's name leaves out the options at their defaults, which are the command
    // line's: handed to the store, which may not read the command line itself.
    store::set_defaults(commands::names::default_options);
    let out = commands::Output {
        quiet: cli.quiet,
        json: cli.json,
        store: cli.store.clone(),
    };
    if let Command::Run(r) = &cli.command {
        return commands::workload::run(&out, &cli.url, r);
    }
    let url = commands::single_url(&cli.url)?;
    match cli.command {
        Command::Server { command } => commands::server(&out, command),
        Command::Info => commands::info(&out, url),
        Command::Prepare(p) => commands::workload::prepare(&out, url, &p),
        Command::Run(_) => unreachable!("dispatched above"),
        Command::Experiment { command } => {
            use cli::ExperimentCommand as E;
            use commands::experiment as x;
            match command {
                E::Run {
                    plan,
                    out: dir,
                    scale,
                    seed,
                    precision,
                    max_repetitions,
                    max_time,
                } => x::run(
                    &out,
                    &plan,
                    dir.as_deref(),
                    scale.as_deref(),
                    seed,
                    &experiment::plan::SequentialArgs {
                        precision,
                        max_repetitions,
                        max_time,
                    },
                ),
                E::Resume { dir } => x::resume(&out, &dir),
                E::Results { dir, markdown, csv } => x::results(
                    &out,
                    &dir,
                    if markdown {
                        x::Format::Markdown
                    } else if csv {
                        x::Format::Csv
                    } else {
                        x::Format::Text
                    },
                ),
                E::List => x::list(&out),
                E::Show { name } => x::show(&name),
            }
        }
        Command::Replay(r) => commands::replay::replay(&out, url, &r),
        Command::Check(w) => commands::workload::check(&out, url, &w),
        Command::Cleanup(w) => commands::workload::cleanup(&out, url, &w),
        Command::LuaCommand(c) => commands::workload::lua_command(&out, url, &c),
        Command::Report { runs, output, png } => {
            commands::report(&out, &runs, output.as_deref(), png.as_deref())
        }
        Command::Merge { shards, out: dir } => commands::shards::merge(&out, &shards, &dir),
        Command::K8s {
            command: cli::K8sCommand::Job(job),
        } => commands::shards::k8s_job(&out, url, &job),
        Command::Store { command } => commands::store::store(&out, command),
        Command::Runs(r) => commands::store::runs(&out, &r),
        Command::History(h) => commands::store::history(&out, &h),
        Command::Serve { port, listen } => commands::serve::serve(&out, port, listen.as_deref()),
        Command::Compare {
            base,
            new,
            markdown,
            csv,
            force,
        } => {
            use report::export::Format;
            let format = commands::compare::Format::Export(match (markdown, csv) {
                (true, _) => Format::Markdown,
                (_, true) => Format::Csv,
                _ => Format::Text,
            });
            commands::compare::compare(&out, &base, &new, format, force)
        }
    }
}
