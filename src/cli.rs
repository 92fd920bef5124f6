//! The command line (clap derive). The only module that knows clap.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

mod driver;
mod lua;
mod store;
mod workload;

pub use driver::*;
pub use lua::{hoist_lua_options, parse_args};
pub use store::*;
pub use workload::*;

/// OLTP benchmarks for MySQL and MariaDB, measured so the numbers can be trusted.
#[derive(Debug, Parser)]
#[command(name = "txbench", version, about, max_term_width = 100)]
pub struct Cli {
    /// Target database, e.g. mysql://user:pass@127.0.0.1:3306/db (also mariadb://, and
    /// ?socket=/path). Without it, commands use the sandbox server 'default', starting it.
    /// `run` takes several (--url A --url B): virtual users are dealt round-robin over them.
    /// TXBENCH_URL may hold several, one per line.
    #[arg(
        long,
        global = true,
        env = "TXBENCH_URL",
        hide_env_values = true,
        value_delimiter = '\n'
    )]
    pub url: Vec<String>,
    /// Print nothing but the result.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Machine-readable JSON output where it applies.
    #[arg(long, global = true)]
    pub json: bool,
    /// The results store (SQLite) runs are recorded in and listed from (default:
    /// $TXBENCH_HOME/store.sqlite).
    #[arg(long, global = true, env = "TXBENCH_STORE", value_name = "PATH")]
    pub store: Option<PathBuf>,
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
    Prepare(PrepareCmd),
    /// Run a workload and measure it.
    Run(RunCmd),
    /// Experiments: server variants × workloads × threads, interleaved and repeated on
    /// identical data, with deviation tables against a baseline.
    Experiment {
        /// What to do.
        #[command(subcommand)]
        command: ExperimentCommand,
    },
    /// How fast a sandbox replica applies its primary's TPC-C writes: its applier stopped
    /// while the primary runs, then timed catching up (New-Orders and transactions per
    /// minute, against the primary's rate).
    Replay(ReplayCmd),
    /// Check a workload's data for consistency.
    Check(WorkloadCmd),
    /// Drop a workload's tables.
    Cleanup(WorkloadCmd),
    /// Run a command a sysbench Lua script declares (sysbench.cmdline.commands, e.g.
    /// sysbench-tpcc's check), or its prepare, cleanup or help function.
    #[command(name = "lua-command", disable_help_flag = true)]
    LuaCommand(LuaCommandCmd),
    /// Write one self-contained HTML report (charts inline) of stored runs and sweeps.
    Report {
        /// Run or sweep directories.
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// The HTML file (default: report.html in the one directory given, else here).
        #[arg(long, short = 'o', value_name = "FILE.html")]
        output: Option<PathBuf>,
        /// Also write every chart as a PNG into DIR.
        #[arg(long, value_name = "DIR")]
        png: Option<PathBuf>,
    },
    /// Merge the run (or sweep) directories of a run's shards (`run --shard K/N`) into one
    /// run directory: intervals aligned by the server's clock, counts summed, percentiles from
    /// the merged histograms, INVALID if any shard is.
    Merge {
        /// The shards' run or sweep directories, every shard once.
        #[arg(required = true, value_name = "SHARD_DIR")]
        shards: Vec<PathBuf>,
        /// The merged run directory.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Kubernetes: drive one run from many client pods.
    K8s {
        /// What to make.
        #[command(subcommand)]
        command: K8sCommand,
    },
    /// The results store: every run, sweep level, merge and experiment cell is recorded in
    /// it when it completes.
    Store {
        /// What to do.
        #[command(subcommand)]
        command: StoreCommand,
    },
    /// List stored runs (oldest first), filtered.
    Runs(RunsCmd),
    /// One benchmark's figure across stored runs, with its change points (E-divisive
    /// means, permutation test): exit 4 when the newest point starts a regression larger
    /// than --threshold.
    History(HistoryCmd),
    /// Browse the results store in a web browser: a local, read-only web server (runs with
    /// filters, each benchmark's history with its change points, every run's report).
    Serve {
        /// The port on 127.0.0.1 (0: any free one, printed).
        #[arg(long, default_value_t = 8340)]
        port: u16,
        /// Listen on this address instead of 127.0.0.1 (ADDRESS or ADDRESS:PORT): anyone
        /// who can reach it can read the store.
        #[arg(long, value_name = "ADDRESS")]
        listen: Option<String>,
    },
    /// Compare stored runs or sweeps against a base: per thread count, throughput, p95/p99,
    /// deviation % and a verdict from a confidence interval.
    Compare {
        /// The base run or sweep directory.
        base: PathBuf,
        /// The runs or sweeps to compare with it.
        #[arg(required = true)]
        new: Vec<PathBuf>,
        /// A Markdown table (for a blog post or an issue).
        #[arg(long, conflicts_with = "csv")]
        markdown: bool,
        /// CSV, one line per thread count and run.
        #[arg(long)]
        csv: bool,
        /// Compare anyway: runs of different workloads, or runs that did not run their
        /// course (interrupted, aborted, unfinished), which otherwise get no verdict.
        #[arg(long)]
        force: bool,
    },
}

/// `txbench k8s …`.
#[derive(Debug, Subcommand)]
pub enum K8sCommand {
    /// Print an Indexed Job manifest: N pods each run `txbench run … ` as shard K of N, all
    /// starting together, writing their run directories to a volume for `txbench merge`.
    Job(K8sJobCmd),
}

/// `txbench k8s job`.
#[derive(Debug, Args)]
pub struct K8sJobCmd {
    /// Shards: one pod each (completions = parallelism).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub shards: u32,
    /// The container image with `txbench` on its PATH.
    #[arg(long)]
    pub image: String,
    /// The PersistentVolumeClaim (ReadWriteMany) the shards write their run directories to.
    #[arg(long, value_name = "CLAIM")]
    pub results_claim: String,
    /// A Secret whose key `url` holds the target URL with its password (given to the pods as
    /// TXBENCH_URL); else --url, without a password.
    #[arg(long, value_name = "SECRET")]
    pub url_secret: Option<String>,
    /// The Job's name, also its results directory on the volume.
    #[arg(long, default_value = "txbench")]
    pub name: String,
    /// The namespace (default: kubectl's current one).
    #[arg(long)]
    pub namespace: Option<String>,
    /// Seconds from now to the shared start (--start-at): time to schedule the pods, pull the
    /// image and connect.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(10..=86_400))]
    pub start_in: u64,
    /// CPU request and limit per pod, e.g. 4 or 3500m.
    #[arg(long)]
    pub cpus: Option<String>,
    /// The `txbench run` arguments after `--`: the workload and its options.
    #[arg(last = true, required = true, value_name = "RUN_ARGS")]
    pub run: Vec<String>,
}

/// `txbench prepare <workload> [options]`.
#[derive(Debug, Args)]
pub struct PrepareCmd {
    /// Loader connections (default: the number of CPUs).
    #[arg(long, global = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub load_threads: Option<u32>,
    /// The workload.
    #[command(subcommand)]
    pub workload: WorkloadChoice,
}

/// `txbench lua-command FILE NAME [script options]`.
#[derive(Debug, Args)]
pub struct LuaCommandCmd {
    /// The script.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The command's name.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The script's options (--threads N runs a parallel command on N threads).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "SCRIPT_OPTIONS"
    )]
    pub args: Vec<String>,
}

/// `txbench check|cleanup <workload> [options]`.
#[derive(Debug, Args)]
pub struct WorkloadCmd {
    /// The workload.
    #[command(subcommand)]
    pub workload: WorkloadChoice,
}

/// `txbench run <workload> [options]`.
#[derive(Debug, Args)]
pub struct RunCmd {
    /// Driver options.
    #[command(flatten)]
    pub driver: DriverArgs,
    /// The workload.
    #[command(subcommand)]
    pub workload: WorkloadChoice,
}

/// `txbench replay`.
#[derive(Debug, Args)]
pub struct ReplayCmd {
    /// The primary sandbox (started with `server start NAME --replicas N`), TPC-C prepared.
    #[arg(long = "server", value_name = "NAME")]
    pub server: String,
    /// The replica to measure (default: the primary's first, NAME-r1).
    #[arg(long, value_name = "NAME")]
    pub replica: Option<String>,
    /// Seconds the primary runs TPC-C while the replica's applier is stopped (with
    /// --balanced: each probe's seconds).
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true, value_parser = driver::positive_secs)]
    pub time: f64,
    /// Search for the balanced replay speed instead: the highest primary rate at which the
    /// replica's lag stays within 5 % of a probe (probes with the applier running; the first
    /// closed loop, or at --rate).
    #[arg(long)]
    pub balanced: bool,
    /// With --balanced: at most this many probes.
    #[arg(long, default_value_t = 6, requires = "balanced", value_parser = clap::value_parser!(u32).range(1..=30))]
    pub probes: u32,
    /// The primary run's virtual users.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub threads: u32,
    /// Open loop: the primary's transactions per second (with --balanced: the first probe's).
    #[arg(long, allow_negative_numbers = true, value_parser = driver::positive_secs)]
    pub rate: Option<f64>,
    /// The warehouses the run uses, as `prepare tpcc` loaded them (default: all prepared).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub warehouses: Option<u32>,
    /// Seconds the replica may take to fetch the run's writes, and again to apply them: past
    /// it the replay is INVALID.
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub catch_up_timeout: u64,
    /// A label for the primary's runs in the results store, KEY=VALUE (besides
    /// replay=catch-up or replay=balanced); repeatable.
    #[arg(long = "label", value_name = "KEY=VALUE")]
    pub labels: Vec<String>,
    /// The replay's directory: the primary's run in run/, replay.json beside it; with
    /// --balanced the probes' runs in probe-N/, balanced.json beside them (default:
    /// runs/TIME-tpcc-replay).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `txbench experiment …`.
#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// Run a plan: a TOML file, or a built-in plan's name (see `experiment list`).
    Run {
        /// The plan.
        plan: String,
        /// The experiment directory (default: experiments/NAME-TIME).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// The plan's scale to run ([scale.NAME]; default quick).
        #[arg(long, value_name = "NAME")]
        scale: Option<String>,
        /// Seed of the cell order (default: the plan's, else from the clock; recorded).
        #[arg(long)]
        seed: Option<u64>,
        /// Sequential: add blocks until every comparison's interval on the primary outcome
        /// is within ± this many percent or has a verdict (over the plan's `precision`).
        #[arg(long, value_name = "PERCENT")]
        precision: Option<f64>,
        /// Sequential: blocks at most (default 3 × the plan's repetitions).
        #[arg(long, value_name = "N")]
        max_repetitions: Option<u32>,
        /// Sequential: time at most, prepares included (e.g. 15m, 1h).
        #[arg(long, value_name = "DURATION")]
        max_time: Option<String>,
    },
    /// Continue an interrupted or stopped experiment; finished cells are kept as they are.
    Resume {
        /// The experiment directory.
        dir: PathBuf,
    },
    /// Print an experiment's deviation tables.
    Results {
        /// The experiment directory.
        dir: PathBuf,
        /// Markdown tables.
        #[arg(long, conflicts_with = "csv")]
        markdown: bool,
        /// CSV, one line per workload, level and variant.
        #[arg(long)]
        csv: bool,
    },
    /// List the built-in plans.
    List,
    /// Print a built-in plan, to copy and edit.
    Show {
        /// Its name.
        name: String,
    },
}

/// `txbench server …`.
#[derive(Debug, Subcommand)]
pub enum ServerCommand {
    /// Create (if needed) and start a server on 127.0.0.1, then print its URL and pre-flight.
    Start {
        /// The server's name (as for stop, status and logs).
        #[arg(value_name = "NAME", conflicts_with = "name")]
        server_name: Option<String>,
        /// The server's name, as `--name NAME` (kept for scripts; the positional NAME reads
        /// like stop, status and logs).
        #[arg(long)]
        name: Option<String>,
        /// A server option, key=value, applied after the defaults and --config (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        sets: Vec<String>,
        /// A my.cnf fragment applied after the defaults and before --set.
        #[arg(long, value_name = "FILE.cnf")]
        config: Option<PathBuf>,
        /// The TCP port (default: a free one).
        #[arg(long)]
        port: Option<u16>,
        /// Another mariadbd/mysqld build (a PGO or patched build, another version), run with
        /// the same generated configuration; its version and SHA-256 go into the pre-flight.
        #[arg(long, value_name = "PATH")]
        binary: Option<PathBuf>,
        /// Pin the server to these CPUs (sched_setaffinity, as taskset does), e.g. 0-1,3.
        #[arg(long, value_name = "LIST")]
        cpus: Option<String>,
        /// Bind the server to this NUMA node with numactl (on a single-node host: said, not
        /// done).
        #[arg(long, value_name = "N")]
        numa_node: Option<u32>,
        /// Start a primary with N replicas (GTID replication), each a sandbox of its own
        /// (NAME-r1…), stopped and removed with the primary.
        #[arg(long, value_name = "N", conflicts_with = "galera")]
        replicas: Option<u32>,
        /// With --replicas: semi-synchronous replication (MariaDB's built-in plugin).
        #[arg(long)]
        semisync: bool,
        /// Start an N-node MariaDB Galera cluster on loopback (NAME, NAME-g2…).
        #[arg(long, value_name = "N")]
        galera: Option<u32>,
        /// The server: mariadb (MariaDB or MySQL, the default) or postgres (Debian's
        /// postgresql package), for a new sandbox.
        #[arg(long, value_name = "ENGINE", value_parser = ["mariadb", "mysql", "postgres", "postgresql"])]
        engine: Option<String>,
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

/// A usage error as one line, `Error: …` as every other error (without clap's usage block
/// and its pointer to `--help`), for stderr with exit code 2; None for what is not an error
/// (`--help`, `--version`), which clap prints itself.
pub fn usage_error_line(e: &clap::Error) -> Option<String> {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return None;
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:"))
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect();
    let line = parts.join(" ");
    Some(format!(
        "Error: {}",
        line.strip_prefix("error: ").unwrap_or(&line)
    ))
}

#[cfg(test)]
mod tests;
