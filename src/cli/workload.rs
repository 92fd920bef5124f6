//! The workloads' options on the command line: which workload, and its prepare, check and run
//! options (oltp_*, TPC-C, TPC-B).

use super::*;

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
    /// A sysbench 1.0 Lua script, run unchanged: FILE, then the options it declares
    /// (--tables 2, --table-size=1000; FILE --help lists them).
    #[command(disable_help_flag = true)]
    Lua(LuaArgs),
    /// pgbench scripts run unchanged (run only): FILE.sql[@WEIGHT]..., -b NAME[@WEIGHT].
    Script(ScriptArgs),
}

/// Options of the script workload (pgbench's -f, -b and -D).
#[derive(Debug, Args, Clone)]
pub struct ScriptArgs {
    /// pgbench script files, each optionally with @WEIGHT (default 1): one transaction kind
    /// each, named after the file's stem.
    #[arg(value_name = "FILE.sql[@WEIGHT]")]
    pub files: Vec<String>,
    /// A built-in pgbench script: tpcb-like, simple-update or select-only, optionally with
    /// @WEIGHT (on the tables of `prepare tpcb`).
    #[arg(long = "builtin", short = 'b', value_name = "NAME[@WEIGHT]")]
    pub builtins: Vec<String>,
    /// A variable every virtual user starts with, as pgbench's -D.
    #[arg(short = 'D', long = "define", value_name = "NAME=VALUE")]
    pub defines: Vec<String>,
    /// How SQL commands reach the server, as pgbench's -M: simple (the variables' values in
    /// the text), extended (as parameters, prepared each time) or prepared (once per
    /// connection)
    #[arg(short = 'M', long = "protocol", value_enum, default_value_t)]
    pub protocol: crate::workload::script::QueryMode,
}

impl WorkloadChoice {
    /// The names of the workloads, as `run` takes them.
    pub fn names() -> Vec<String> {
        <OnlyWorkload as clap::CommandFactory>::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect()
    }

    /// `workload` with every option at its default: clap's defaults, read by parsing the
    /// workload's name alone (the one list of defaults); None for a name that is no workload.
    pub fn defaults(workload: &str) -> Option<WorkloadChoice> {
        // A workload that needs its script (lua) is parsed with a placeholder one.
        <OnlyWorkload as Parser>::try_parse_from(["txbench", workload])
            .or_else(|_| <OnlyWorkload as Parser>::try_parse_from(["txbench", workload, "SCRIPT"]))
            .ok()
            .map(|o| o.workload)
    }
}

/// A workload and its options alone, without the verbs and the driver's options: what
/// [`WorkloadChoice::defaults`] parses.
#[derive(Debug, Parser)]
#[command(name = "txbench")]
struct OnlyWorkload {
    #[command(subcommand)]
    workload: WorkloadChoice,
}

/// The `lua` workload: a script and its own options, read against what it declares once
/// it is loaded (clap cannot know them).
#[derive(Debug, Args, Clone)]
pub struct LuaArgs {
    /// The script (a sysbench 1.0 Lua script: oltp_read_write.lua, tpcc.lua, ...).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The script's options, as sysbench takes them: --name value or --name=value.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "SCRIPT_OPTIONS"
    )]
    pub args: Vec<String>,
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

impl TpcbArgs {
    /// What `run tpcb` does: `--history-only` is `--variant history-only`.
    pub fn run_options(&self) -> crate::workload::tpcb::RunOptions {
        crate::workload::tpcb::RunOptions {
            variant: if self.history_only {
                crate::workload::tpcb::Variant::HistoryOnly
            } else {
                self.variant
            },
            remote_pct: self.remote_pct,
        }
    }
}

/// Options of the TPC-C workload.
#[derive(Debug, Args, Clone)]
pub struct TpccArgs {
    /// Warehouses (prepare: to load, default 1; check and run: default all prepared).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..))]
    pub warehouses: Option<u32>,
    /// Table sets: independent copies of the nine tables, each in a schema of its own (set 1
    /// in the URL's, set k in `<schema>_set<k>`), terminals spread evenly over them, as
    /// sysbench-tpcc's --tables (prepare: default 1; check, run and cleanup: default all
    /// prepared).
    #[arg(long, alias = "schemas", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub table_sets: Option<u32>,
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

impl TpccArgs {
    /// What `run tpcc` does, besides --warehouses, --table-sets and --check.
    pub fn run_options(&self) -> crate::workload::tpcc::run::RunOptions {
        crate::workload::tpcc::run::RunOptions {
            terminals: self.terminal_warehouse,
            think: self.think_time,
            mix: self.mix,
            procedures: self.procedures,
            delivery: self.delivery,
        }
    }
}

pub(super) fn think_time(s: &str) -> Result<crate::workload::tpcc::run::ThinkTime, String> {
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

pub(super) fn mix(s: &str) -> Result<[u32; 5], String> {
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

impl OltpArgs {
    /// The options, validated.
    pub fn options(&self) -> anyhow::Result<crate::workload::oltp::OltpOptions> {
        use crate::workload::rand::Distribution;
        let o = crate::workload::oltp::OltpOptions {
            tables: self.tables,
            table_size: self.table_size,
            range_size: self.range_size,
            point_selects: self.point_selects,
            simple_ranges: self.simple_ranges,
            sum_ranges: self.sum_ranges,
            order_ranges: self.order_ranges,
            distinct_ranges: self.distinct_ranges,
            range_selects: self.range_selects,
            index_updates: self.index_updates,
            non_index_updates: self.non_index_updates,
            delete_inserts: self.delete_inserts,
            skip_trx: self.skip_trx,
            auto_inc: self.auto_inc,
            secondary: self.secondary,
            create_secondary: self.create_secondary,
            rand: match self.rand_type {
                RandType::Uniform => Distribution::Uniform,
                RandType::Gaussian => Distribution::Gaussian,
                RandType::Special => Distribution::Special {
                    pct: self.rand_spec_pct,
                    res: self.rand_spec_res,
                },
                RandType::Pareto => Distribution::Pareto {
                    h: self.rand_pareto_h,
                },
                RandType::Zipfian => Distribution::Zipfian {
                    exp: self.rand_zipfian_exp,
                },
            },
        };
        o.validate()?;
        Ok(o)
    }
}
