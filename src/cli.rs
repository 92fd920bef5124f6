//! The command line (clap derive). The only module that knows clap.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

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
    /// Check a workload's data for consistency.
    Check(WorkloadCmd),
    /// Drop a workload's tables.
    Cleanup(WorkloadCmd),
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

/// The driver's options (any workload).
#[derive(Debug, Args, Clone)]
pub struct DriverArgs {
    /// Virtual users, one connection each (default 1). Several levels make a sweep, each
    /// level a run of its own on the same data: 1,2,4,8 or 1..64x2 (doubling) or 4..24+4 (steps).
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = crate::config::ThreadLevels::parse)]
    pub threads: Option<crate::config::ThreadLevels>,
    /// Run against this sandbox server (repeatable, instead of --url): virtual users are
    /// dealt round-robin over them, e.g. the nodes of a Galera cluster (g, g-g2, g-g3).
    #[arg(long = "server", global = true, value_name = "NAME")]
    pub servers: Vec<String>,
    /// Resume the interrupted sweep in DIR: completed levels are kept, the rest run.
    #[arg(long, global = true, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Measured seconds (after the warm-up).
    #[arg(long, global = true, default_value_t = 10.0, allow_negative_numbers = true, value_parser = positive_secs)]
    pub time: f64,
    /// Warm-up seconds, run but excluded from results.
    #[arg(long, global = true, default_value_t = 0.0, allow_negative_numbers = true, value_parser = non_negative_secs)]
    pub warmup: f64,
    /// Stop after this many measured transactions (or at --time, whichever comes first).
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub events: Option<u64>,
    /// Seconds per interval line.
    #[arg(long, global = true, default_value_t = 10.0, value_parser = positive_secs)]
    pub report_interval: f64,
    /// Open loop: this many transactions per second on a shared schedule; latency counts
    /// from the intended start.
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = positive_secs)]
    pub rate: Option<f64>,
    /// Arrival process with --rate.
    #[arg(long, global = true, value_enum, default_value_t = crate::config::RateDist::Poisson)]
    pub rate_dist: crate::config::RateDist,
    /// Seed of all random inputs (default: from the clock; always recorded).
    #[arg(long, global = true)]
    pub seed: Option<u64>,
    /// Retries after a deadlock, lock-wait timeout or serialization failure; an attempt
    /// whose retries run out counts against --max-error-rate.
    #[arg(long, global = true, default_value_t = 3)]
    pub retries: u32,
    /// Percent of a kind's transactions in an interval that may finally fail (unexpected
    /// errors, or contention whose retries ran out) before the run stops as INVALID.
    #[arg(long, global = true, default_value_t = 5.0, allow_negative_numbers = true, value_parser = percent)]
    pub max_error_rate: f64,
    /// Transaction isolation level for every connection (default: the server's).
    #[arg(long, global = true, value_enum)]
    pub isolation: Option<crate::config::Isolation>,
    /// Window of the stability figures' jitter, seconds (default: one tenth of the run).
    #[arg(long, global = true, allow_negative_numbers = true, value_parser = positive_secs)]
    pub stability_window: Option<f64>,
    /// Sample only the server's Uptime (restarts, a frozen server), not its counters and
    /// /proc: for measuring what the server metrics cost.
    #[arg(long, global = true)]
    pub no_server_metrics: bool,
    /// Pin the driver (every virtual user) to these CPUs, e.g. 1 or 0-1,3; the pre-flight
    /// records them beside the server's.
    #[arg(long, global = true, value_name = "LIST")]
    pub cpus: Option<String>,
    /// Run directory (default: runs/<UTC time>-<workload>-t<threads>; a sweep's:
    /// runs/<UTC time>-<workload>-sweep).
    #[arg(long, global = true)]
    pub out: Option<PathBuf>,
    /// Run shard K of N (K from 1) of a run driven from several client processes: this one
    /// takes its part of the virtual users (TPC-C: the terminals of its own home
    /// warehouses), of --events and of --rate; `txbench merge` combines the shards' run
    /// directories. Also read from JOB_COMPLETION_INDEX (from 0) with TXBENCH_SHARDS.
    #[arg(long, global = true, value_name = "K/N", value_parser = crate::shard::Shard::parse)]
    pub shard: Option<crate::shard::Shard>,
    /// Start at TIME, in the database server's clock, once every connection is open: RFC 3339
    /// (2026-11-24T18:00:00Z) or seconds since the epoch. Shards given the same time start
    /// together; a sweep's level L starts (L-1) x (warm-up + time + 10 s, + 80 s with
    /// TPC-C's --delivery deferred) later.
    #[arg(long, global = true, value_name = "TIME", value_parser = crate::shard::parse_start_at)]
    pub start_at: Option<std::time::SystemTime>,
}

fn positive_secs(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() || v <= 0.0 {
        return Err(format!("must be greater than 0, got {s}"));
    }
    Ok(v)
}

fn non_negative_secs(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("must be 0 or more, got {s}"));
    }
    Ok(v)
}

fn percent(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !(0.0..=100.0).contains(&v) {
        return Err(format!("must be between 0 and 100, got {s}"));
    }
    Ok(v)
}

/// `on|off|true|false|1|0`, as sysbench spells booleans.
fn on_off(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(format!("'{s}' is not on or off")),
    }
}

/// The workloads.
#[derive(Debug, Subcommand, Clone)]
pub enum WorkloadChoice {
    /// sysbench oltp_read_write: 10 point selects, 4 ranges, 2 updates, a delete+insert.
    #[command(name = "oltp_read_write")]
    OltpReadWrite(OltpArgs),
    /// sysbench oltp_read_only: the reads of oltp_read_write.
    #[command(name = "oltp_read_only")]
    OltpReadOnly(OltpArgs),
    /// sysbench oltp_write_only: the writes of oltp_read_write.
    #[command(name = "oltp_write_only")]
    OltpWriteOnly(OltpArgs),
    /// sysbench oltp_point_select: one primary-key select.
    #[command(name = "oltp_point_select")]
    OltpPointSelect(OltpArgs),
    /// sysbench oltp_update_index: UPDATE of the indexed column k.
    #[command(name = "oltp_update_index")]
    OltpUpdateIndex(OltpArgs),
    /// sysbench oltp_update_non_index: UPDATE of the non-indexed column c.
    #[command(name = "oltp_update_non_index")]
    OltpUpdateNonIndex(OltpArgs),
    /// sysbench oltp_insert: one INSERT.
    #[command(name = "oltp_insert")]
    OltpInsert(OltpArgs),
    /// sysbench oltp_delete: one DELETE by primary key.
    #[command(name = "oltp_delete")]
    OltpDelete(OltpArgs),
    /// TPC-C (v5.11): nine tables, five transactions, NOPM and TPM (never called tpmC).
    Tpcc(TpccArgs),
    /// TPC-B (retired; pgbench's layout): branches, tellers, accounts, history.
    Tpcb(TpcbArgs),
}

/// Options of the TPC-B workload.
#[derive(Debug, Args, Clone)]
pub struct TpcbArgs {
    /// Branches (prepare: default 1; each has 10 tellers and 100,000 accounts). Run and
    /// check use the prepared scale; given there, it must match.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..))]
    pub scale: Option<u32>,
    /// prepare: the history table's key: AUTO_INCREMENT, none (InnoDB's hidden row id), or
    /// ids generated by the driver in per-worker ranges.
    #[arg(long, value_enum, default_value_t = crate::workload::tpcb::HistoryKey::Autoinc)]
    pub history_key: crate::workload::tpcb::HistoryKey,
    /// prepare: how rows reach the server.
    #[arg(long, value_enum, default_value_t = crate::workload::loader::LoadMethod::LoadData)]
    pub load_method: crate::workload::loader::LoadMethod,
    /// run: the transaction, as pgbench's default, -N and -S.
    #[arg(long, value_enum, default_value_t = crate::workload::tpcb::Variant::Tpcb)]
    pub variant: crate::workload::tpcb::Variant,
    /// run: only the history INSERT, one per transaction (seed 002's isolated transaction).
    #[arg(long, conflicts_with = "variant")]
    pub history_only: bool,
    /// run: check consistency after the run (as `check tpcb`); a failure makes the run INVALID.
    #[arg(long)]
    pub check: bool,
    /// run: percent of accounts chosen outside the teller's branch (TPC-B clause 5.3.5: 15).
    #[arg(long, default_value_t = 15.0, allow_negative_numbers = true, value_parser = percent)]
    pub remote_pct: f64,
}

/// Options of the TPC-C workload.
#[derive(Debug, Args, Clone)]
pub struct TpccArgs {
    /// Warehouses (prepare: to load, default 1; check and run: default all prepared).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..))]
    pub warehouses: Option<u32>,
    /// Undelivered orders: null (the specification) or default (a sentinel value, so the
    /// delivery UPDATE does not grow the row; see the page-split write-up).
    #[arg(long, value_enum, default_value_t = crate::workload::tpcc::NullDates::Null)]
    pub null_dates: crate::workload::tpcc::NullDates,
    /// Partition order_line by warehouse (HASH, one partition per 100 warehouses, at least 2).
    #[arg(long)]
    pub partition: bool,
    /// Create the specification's foreign keys after the load.
    #[arg(long)]
    pub foreign_keys: bool,
    /// Storage engine.
    #[arg(long, default_value = "InnoDB")]
    pub engine: String,
    /// How rows reach the server.
    #[arg(long, value_enum, default_value_t = crate::workload::tpcc::LoadMethod::LoadData)]
    pub load_method: crate::workload::tpcc::LoadMethod,
    /// Write the data as CSV files (and load.sql) into DIR instead of loading a server.
    #[arg(long, value_name = "DIR")]
    pub csv: Option<PathBuf>,
    /// run: a fixed home warehouse per virtual user (spread over all), or a random one per
    /// transaction.
    #[arg(long, value_enum, default_value_t = crate::workload::tpcc::run::TerminalWarehouse::Fixed)]
    pub terminal_warehouse: crate::workload::tpcc::run::TerminalWarehouse,
    /// run: keying and think times: off, spec, or a factor of the specification's times.
    #[arg(long, default_value = "off", value_parser = think_time)]
    pub think_time: crate::workload::tpcc::run::ThinkTime,
    /// run: cards per kind in the deck, New-Order,Payment,Order-Status,Delivery,Stock-Level.
    #[arg(long, default_value = "10,10,1,1,1", value_parser = mix)]
    pub mix: [u32; 5],
    /// run: check consistency (conditions 1-10 and 12) after the run; a failure makes the
    /// run INVALID.
    #[arg(long)]
    pub check: bool,
    /// prepare: create the stored procedures; run: run each transaction as one CALL.
    #[arg(long)]
    pub procedures: bool,
    /// run: Delivery run by the terminal, or queued for a background deliverer.
    #[arg(long, value_enum, default_value_t = crate::workload::tpcc::run::DeliveryMode::Interactive)]
    pub delivery: crate::workload::tpcc::run::DeliveryMode,
}

fn think_time(s: &str) -> Result<crate::workload::tpcc::run::ThinkTime, String> {
    use crate::workload::tpcc::run::ThinkTime;
    match s {
        "off" => Ok(ThinkTime::Off),
        "spec" => Ok(ThinkTime::Scaled(1.0)),
        f => match f.parse::<f64>() {
            Ok(v) if v > 0.0 && v.is_finite() => Ok(ThinkTime::Scaled(v)),
            _ => Err(format!("'{f}' is not off, spec or a positive factor")),
        },
    }
}

fn mix(s: &str) -> Result<[u32; 5], String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != 5 {
        return Err(format!(
            "'{s}' needs five counts: New-Order,Payment,Order-Status,Delivery,Stock-Level"
        ));
    }
    let mut out = [0u32; 5];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = p
            .trim()
            .parse()
            .map_err(|_| format!("'{p}' is not a whole number"))?;
    }
    if out.iter().sum::<u32>() == 0 {
        return Err("the counts add up to 0".into());
    }
    Ok(out)
}

/// Id distributions (`--rand-type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RandType {
    /// Every id equally likely (txbench's default).
    Uniform,
    /// Bell curve around the middle.
    Gaussian,
    /// sysbench 1.0.20's default: --rand-spec-res % of ids within --rand-spec-pct % of the range.
    Special,
    /// Pareto, --rand-pareto-h.
    Pareto,
    /// Zipf, --rand-zipfian-exp.
    Zipfian,
}

/// Options of the oltp_* workloads (sysbench's names and defaults).
#[derive(Debug, Args, Clone)]
pub struct OltpArgs {
    /// Number of tables.
    #[arg(long, default_value_t = 1)]
    pub tables: u32,
    /// Rows per table.
    #[arg(long, default_value_t = 10_000)]
    pub table_size: u32,
    /// Rows per range SELECT.
    #[arg(long, default_value_t = 100)]
    pub range_size: u32,
    /// Point SELECTs per transaction.
    #[arg(long, default_value_t = 10)]
    pub point_selects: u32,
    /// Simple range SELECTs per transaction.
    #[arg(long, default_value_t = 1)]
    pub simple_ranges: u32,
    /// SELECT SUM() ranges per transaction.
    #[arg(long, default_value_t = 1)]
    pub sum_ranges: u32,
    /// SELECT … ORDER BY ranges per transaction.
    #[arg(long, default_value_t = 1)]
    pub order_ranges: u32,
    /// SELECT DISTINCT ranges per transaction.
    #[arg(long, default_value_t = 1)]
    pub distinct_ranges: u32,
    /// All range SELECTs on or off.
    #[arg(long, default_value = "on", value_parser = on_off, num_args = 0..=1, default_missing_value = "on")]
    pub range_selects: bool,
    /// UPDATEs of the indexed column per transaction.
    #[arg(long, default_value_t = 1)]
    pub index_updates: u32,
    /// UPDATEs of a non-indexed column per transaction.
    #[arg(long, default_value_t = 1)]
    pub non_index_updates: u32,
    /// DELETE + INSERT pairs per transaction.
    #[arg(long, default_value_t = 1)]
    pub delete_inserts: u32,
    /// Autocommit each statement instead of BEGIN … COMMIT.
    #[arg(long, default_value = "off", value_parser = on_off, num_args = 0..=1, default_missing_value = "on")]
    pub skip_trx: bool,
    /// AUTO_INCREMENT id column.
    #[arg(long, default_value = "on", value_parser = on_off, num_args = 0..=1, default_missing_value = "on")]
    pub auto_inc: bool,
    /// A secondary index on id instead of the primary key.
    #[arg(long, default_value = "off", value_parser = on_off, num_args = 0..=1, default_missing_value = "on")]
    pub secondary: bool,
    /// Create the index on k after the load.
    #[arg(long, default_value = "on", value_parser = on_off, num_args = 0..=1, default_missing_value = "on")]
    pub create_secondary: bool,
    /// Id distribution (sysbench 1.0.20 defaults to special; txbench to uniform).
    #[arg(long, value_enum, default_value_t = RandType::Uniform)]
    pub rand_type: RandType,
    /// Pareto h.
    #[arg(long, default_value_t = 0.2)]
    pub rand_pareto_h: f64,
    /// Zipfian exponent.
    #[arg(long, default_value_t = 0.8)]
    pub rand_zipfian_exp: f64,
    /// special: percent of the range that is hot.
    #[arg(long, default_value_t = 1.0)]
    pub rand_spec_pct: f64,
    /// special: percent of ids that fall in the hot part.
    #[arg(long, default_value_t = 75.0)]
    pub rand_spec_res: f64,
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

#[cfg(test)]
mod tests;
