//! The results store's verbs: `store import`, `runs`, `history`.

use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `txbench store …`.
#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// (Re)build the store from run directories: every run, sweep level, merge and
    /// experiment cell under each DIR (a folder of them too) is recorded again.
    Import {
        /// Run, sweep, experiment or results directories.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
    },
    /// Print where the store is.
    Path,
}

/// Which stored runs: conditions that must all hold.
#[derive(Debug, Args, Clone, Default)]
pub struct Select {
    /// A run field's value, KEY=VALUE (workload, threads, engine, server_version,
    /// binary_sha256, host, identity, valid, status, kind, txbench_version, options);
    /// repeatable.
    #[arg(long = "where", value_name = "KEY=VALUE")]
    pub fields: Vec<String>,
    /// A label's value, KEY=VALUE (as `run --label` gave it); repeatable.
    #[arg(long = "label", value_name = "KEY=VALUE")]
    pub labels: Vec<String>,
    /// Runs started on or after this date (2026-11-01, or RFC 3339).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// The same benchmark as the run in DIR: its workload, options, threads, engine and loop.
    #[arg(long, value_name = "DIR")]
    pub like: Option<PathBuf>,
}

/// `txbench runs`.
#[derive(Debug, Args)]
pub struct RunsCmd {
    /// Which runs.
    #[command(flatten)]
    pub select: Select,
    /// CSV, one line per run.
    #[arg(long)]
    pub csv: bool,
}

/// `txbench history`.
#[derive(Debug, Args)]
pub struct HistoryCmd {
    /// Which runs.
    #[command(flatten)]
    pub select: Select,
    /// The workload (as `--where workload=W`).
    #[arg(long)]
    pub workload: Option<String>,
    /// Virtual users (as `--where threads=N`).
    #[arg(long)]
    pub threads: Option<u32>,
    /// Order the series by this label's values, each placed where it first appears in time
    /// (a commit's runs together, commits in the order they were run); default: time.
    #[arg(long, value_name = "LABEL")]
    pub by: Option<String>,
    /// The figure followed: tps, nopm, p95_ms, p99_ms, client_cpu_ms, server_cpu_ms,
    /// p99_ms.<kind>, per_txn.<figure> (default: the workload's headline, NOPM for TPC-C,
    /// else tps).
    #[arg(long)]
    pub figure: Option<String>,
    /// Exit 4 when the newest point starts a regression larger than this, % (a change point
    /// whose step makes the figure worse by more).
    #[arg(long, value_name = "PCT")]
    pub threshold: Option<f64>,
    /// CSV, one line per point.
    #[arg(long)]
    pub csv: bool,
    /// Measure the newest change point again (or the step into point INDEX): the build of
    /// the run before it against the build of the first run after it, on identical data, as
    /// an interleaved experiment; its deviation and interval decide (and the exit code).
    #[arg(long, value_name = "INDEX", num_args = 0..=1, default_missing_value = "newest", require_equals = true)]
    pub confirm: Option<String>,
    /// Blocks of the confirming experiment (each: one run of each build, in random order).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub confirm_repetitions: u32,
    /// The confirming experiment's directory (default: experiments/confirm-TIME).
    #[arg(long, value_name = "DIR")]
    pub confirm_out: Option<std::path::PathBuf>,
}
