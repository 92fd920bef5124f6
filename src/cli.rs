//! The command line (clap derive). The only module that knows clap.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// OLTP benchmarks for MySQL and MariaDB, measured so the numbers can be trusted.
#[derive(Debug, Parser)]
#[command(name = "txbench", version, about, max_term_width = 100)]
pub struct Cli {
    /// Target database, e.g. mysql://user:pass@127.0.0.1:3306/db (also mariadb://, and
    /// ?socket=/path). Without it, commands use the sandbox server 'default', starting it.
    #[arg(long, global = true, env = "TXBENCH_URL", hide_env_values = true)]
    pub url: Option<String>,
    /// Print nothing but the result.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Machine-readable JSON output where it applies.
    #[arg(long, global = true)]
    pub json: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The verbs.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Throw-away local MariaDB/MySQL servers (state under $TXBENCH_HOME, default ./.txbench).
    Server {
        /// What to do with servers.
        #[command(subcommand)]
        command: ServerCommand,
    },
    /// Connect to the target and print its pre-flight (version, buffer pool, durability…).
    Info,
    /// Create and load a workload's tables.
    Prepare(WorkloadArgs),
    /// Run a workload and measure it.
    Run(WorkloadArgs),
    /// Check a workload's data for consistency.
    Check(WorkloadArgs),
    /// Drop a workload's tables.
    Cleanup(WorkloadArgs),
    /// Write a report of stored runs.
    Report {
        /// Run or sweep directories.
        #[arg(required = true)]
        runs: Vec<PathBuf>,
    },
    /// Compare stored runs against a base run.
    Compare {
        /// The base run directory.
        base: PathBuf,
        /// The runs to compare with it.
        #[arg(required = true)]
        new: Vec<PathBuf>,
    },
}

/// The workload verbs' arguments.
#[derive(Debug, Args)]
pub struct WorkloadArgs {
    /// The workload, e.g. oltp_read_write, tpcc, tpcb.
    pub workload: String,
    /// The workload's options.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub options: Vec<String>,
}

/// `txbench server …`.
#[derive(Debug, Subcommand)]
pub enum ServerCommand {
    /// Create (if needed) and start a server on 127.0.0.1, then print its URL and pre-flight.
    Start {
        /// The server's name.
        #[arg(long, default_value = "default")]
        name: String,
        /// A server option, key=value, applied after the defaults and --config (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        sets: Vec<String>,
        /// A my.cnf fragment applied after the defaults and before --set.
        #[arg(long, value_name = "FILE.cnf")]
        config: Option<PathBuf>,
        /// The TCP port (default: a free one).
        #[arg(long)]
        port: Option<u16>,
    },
    /// Stop a server: SQL shutdown, then SIGTERM, then SIGKILL.
    Stop {
        /// The server's name.
        #[arg(default_value = "default")]
        name: String,
        /// Also delete its data directory and files.
        #[arg(long)]
        rm: bool,
    },
    /// Show whether a server runs, and its URL.
    Status {
        /// The server's name.
        #[arg(default_value = "default")]
        name: String,
    },
    /// List all servers in the state directory.
    List,
    /// Print the end of a server's error log.
    Logs {
        /// The server's name.
        #[arg(default_value = "default")]
        name: String,
        /// How many lines.
        #[arg(long, short = 'n', default_value_t = 50)]
        lines: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
