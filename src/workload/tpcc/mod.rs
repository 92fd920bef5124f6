//! TPC-C (clause numbers refer to the TPC-C specification v5.11): schema, loader,
//! consistency checks. Results from a non-audited run are never called tpmC.

pub mod check;
pub mod delivery;
pub mod load;
pub mod new_order;
pub mod order_status;
pub mod payment;
pub mod procedures;
pub mod run;
pub mod schema;
pub mod score;
pub mod sets;
pub mod stock_level;
pub mod tally;
pub mod txn;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

/// Clause 4.2.2: items (not scaled by warehouses).
pub const ITEMS: u32 = 100_000;
/// Districts per warehouse.
pub const DISTRICTS: u32 = 10;
/// Customers per district.
pub const CUSTOMERS: u32 = 3_000;
/// Orders per district at load.
pub const ORDERS: u32 = 3_000;
/// The first undelivered order of a district at load (orders 2,101..3,000 are new).
pub const FIRST_NEW_ORDER: u32 = 2_101;

/// O_CARRIER_ID of an undelivered order with `--null-dates default`.
pub const CARRIER_SENTINEL: u32 = 0;
/// OL_DELIVERY_D of an undelivered line with `--null-dates default`.
pub const DELIVERY_SENTINEL: &str = "1000-01-01 00:00:00";

/// How undelivered orders are marked (seed 000: NULL columns that a later UPDATE fills
/// grow the row and split pages; a sentinel default keeps the row size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum NullDates {
    /// The specification: O_CARRIER_ID and OL_DELIVERY_D are NULL until delivery.
    Null,
    /// NOT NULL with a sentinel default (0 and 1000-01-01 00:00:00).
    Default,
}

impl NullDates {
    /// The name stored in txbench_meta.
    pub fn name(self) -> &'static str {
        match self {
            NullDates::Null => "null",
            NullDates::Default => "default",
        }
    }

    /// Parses the stored name.
    pub fn from_name(s: &str) -> Option<NullDates> {
        match s {
            "null" => Some(NullDates::Null),
            "default" => Some(NullDates::Default),
            _ => None,
        }
    }

    /// SQL true for an undelivered order (`o_` columns).
    pub fn order_undelivered(self, alias: &str) -> String {
        match self {
            NullDates::Null => format!("{alias}o_carrier_id IS NULL"),
            NullDates::Default => format!("{alias}o_carrier_id = {CARRIER_SENTINEL}"),
        }
    }

    /// SQL true for an undelivered order line (`ol_` columns).
    pub fn line_undelivered(self, alias: &str) -> String {
        match self {
            NullDates::Null => format!("{alias}ol_delivery_d IS NULL"),
            NullDates::Default => format!("{alias}ol_delivery_d = '{DELIVERY_SENTINEL}'"),
        }
    }
}

pub use crate::workload::loader::LoadMethod;

/// Schema and load options of `prepare tpcc`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TpccOptions {
    /// Warehouses.
    pub warehouses: u32,
    /// NULL or sentinel for undelivered orders.
    pub null_dates: NullDates,
    /// Partition order_line by warehouse.
    pub partition: bool,
    /// Create foreign keys after the load.
    pub foreign_keys: bool,
    /// Storage engine.
    pub engine: String,
}

impl TpccOptions {
    /// Checks the options; errors name the flag.
    pub fn validate(&self) -> Result<()> {
        if self.warehouses == 0 {
            bail!("--warehouses must be at least 1");
        }
        if self.warehouses > 100_000 {
            bail!("--warehouses {} is more than 100,000", self.warehouses);
        }
        if self.partition && self.foreign_keys {
            bail!(
                "--partition and --foreign-keys cannot be combined: InnoDB has no foreign keys on partitioned tables"
            );
        }
        if self.engine.is_empty()
            || !self
                .engine
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            bail!("--engine '{}' is not a storage engine name", self.engine);
        }
        Ok(())
    }

    /// order_line partitions with `--partition`: one per 100 warehouses as HammerDB does,
    /// but at least 2 (HammerDB does not partition below 200 warehouses at all).
    pub fn partitions(&self) -> u32 {
        (self.warehouses / 100).max(2)
    }
}

use crate::engine::postgres::tpcc as pg;
use crate::engine::{Conn, Engine};
use crate::workload::{loader, meta, rand::uniform, rand::worker_rng};
use load::{Population, Unit};

use std::sync::Arc;

/// What txbench_meta says about the TPC-C data in a database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Warehouses prepared.
    pub warehouses: u32,
    /// NULL or sentinel.
    pub null_dates: NullDates,
    /// C of C_LAST at load.
    pub c_last_load: u32,
    /// Seed of the population.
    pub seed: u64,
    /// All units loaded and indexes built.
    pub complete: bool,
    /// No run since prepare (condition 11 applies).
    pub initial: bool,
    /// Units not loaded yet.
    pub missing: Vec<String>,
}

fn meta_u64(conn: &mut Conn, name: &str) -> Result<Option<u64>> {
    Ok(meta::get(conn, name)?.and_then(|v| v.parse().ok()))
}

/// The TPC-C state of the database, if it holds TPC-C data prepared by txbench. A database
/// that holds another workload is an error that names it.
pub fn state(conn: &mut Conn) -> Result<Option<State>> {
    if meta::expect(conn, "tpcc")?.is_none() {
        return Ok(None);
    }
    let warehouses = meta_u64(conn, "tpcc.warehouses")?.unwrap_or(0) as u32;
    let null_dates = meta::get(conn, "tpcc.null_dates")?
        .and_then(|s| NullDates::from_name(&s))
        .unwrap_or(NullDates::Null);
    let loaded: Vec<String> = meta::with_prefix(conn, "tpcc.loaded.")?
        .into_iter()
        .map(|(k, _)| k.trim_start_matches("tpcc.loaded.").to_string())
        .collect();
    let mut missing = Vec::new();
    if !loaded.iter().any(|k| k == "item") {
        missing.push("item".to_string());
    }
    for w in 1..=warehouses {
        let key = format!("w{w}");
        if !loaded.contains(&key) {
            missing.push(key);
        }
    }
    Ok(Some(State {
        warehouses,
        null_dates,
        c_last_load: meta_u64(conn, "tpcc.c_last_load")?.unwrap_or(0) as u32,
        seed: meta_u64(conn, "tpcc.seed")?.unwrap_or(0),
        complete: meta::get(conn, "tpcc.complete")?.is_some(),
        initial: meta::get(conn, "tpcc.initial")?.is_some(),
        missing,
    }))
}

pub use crate::workload::loader::{Prepared, Progress};

/// Creates, loads (resuming an interrupted load) and indexes a TPC-C database. `seed`: the
/// population's (another table set's, so every set draws the same load-time C values and
/// one run's C values suit them all); None draws one.
pub fn prepare(
    connect: &(dyn Fn() -> Result<Conn> + Sync),
    o: &TpccOptions,
    load_threads: u32,
    method: LoadMethod,
    procedures: bool,
    progress: &Progress<'_>,
    seed: Option<u64>,
) -> Result<Prepared> {
    o.validate()?;
    let mut conn = connect()?;
    state(&mut conn)?;
    if procedures {
        // Cheap and idempotent: (re)created even on a complete database.
        procedures::create(&mut conn, o.null_dates)?;
    }
    let existing = state(&mut conn)?;
    let resumed = existing.is_some();
    let pop = match existing {
        Some(s) => match resumed_population(&mut conn, o, &s)? {
            Some(pop) => pop,
            None => return Ok(Prepared::AlreadyComplete),
        },
        None => {
            check_no_foreign_tables(&mut conn)?;
            let pop = new_population(&mut conn, o, seed)?;
            create_schema(&mut conn, o, &pop)?;
            pop
        }
    };
    let units = units_to_load(&mut conn, o)?;
    let rows = load_units(connect, load_threads, &units, pop, method, progress)?;
    index_and_mark_complete(&mut conn, o)?;
    Ok(Prepared::Loaded {
        units: units.len(),
        rows,
        resumed,
    })
}

/// The population of an interrupted load, None when the load is complete; an error when
/// the database holds another number of warehouses or `--null-dates`.
fn resumed_population(conn: &mut Conn, o: &TpccOptions, s: &State) -> Result<Option<Population>> {
    if s.warehouses != o.warehouses || s.null_dates != o.null_dates {
        bail!(
            "the database holds a TPC-C load of {} warehouses with --null-dates {} ({}): run `txbench cleanup tpcc` first to prepare {} warehouses with --null-dates {}",
            s.warehouses,
            s.null_dates.name(),
            if s.complete { "complete" } else { "incomplete" },
            o.warehouses,
            o.null_dates.name()
        );
    }
    if s.complete {
        return Ok(None);
    }
    Ok(Some(Population {
        seed: s.seed,
        c_last_load: s.c_last_load,
        now: now_string(conn)?,
        null_dates: s.null_dates,
    }))
}

/// An error when a TPC-C table exists that txbench did not prepare.
fn check_no_foreign_tables(conn: &mut Conn) -> Result<()> {
    if let Some(t) = meta::tables_present(conn, &schema::TABLES)?
        .into_iter()
        .next()
    {
        bail!(
            "table '{t}' exists but was not prepared by txbench: drop it or use another database"
        );
    }
    Ok(())
}

/// A new population: `seed` (else one drawn from the clock), its load-time C, the server's
/// clock.
fn new_population(conn: &mut Conn, o: &TpccOptions, seed: Option<u64>) -> Result<Population> {
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let mut rng = worker_rng(seed, 0xc);
    Ok(Population {
        seed,
        c_last_load: uniform(&mut rng, 0, 255),
        now: now_string(conn)?,
        null_dates: o.null_dates,
    })
}

/// Creates the tables and records the options and the population in txbench_meta.
fn create_schema(conn: &mut Conn, o: &TpccOptions, pop: &Population) -> Result<()> {
    // Recorded first: tables left by a prepare that failed half-way are txbench's.
    meta::set(conn, "workload", "tpcc")?;
    for stmt in schema::create_statements(o, conn.engine()) {
        conn.query_drop(&stmt)
            .with_context(|| format!("creating the schema: {}", first_words(&stmt)))?;
    }
    for (k, v) in [
        ("tpcc.warehouses", o.warehouses.to_string()),
        ("tpcc.null_dates", o.null_dates.name().to_string()),
        ("tpcc.c_last_load", pop.c_last_load.to_string()),
        ("tpcc.seed", pop.seed.to_string()),
        ("tpcc.options", serde_json::to_string(o)?),
    ] {
        meta::set(conn, k, &v)?;
    }
    Ok(())
}

/// The units txbench_meta does not mark as loaded: ITEM, then the warehouses in order.
fn units_to_load(conn: &mut Conn, o: &TpccOptions) -> Result<Vec<Unit>> {
    let done: Vec<String> = meta::with_prefix(conn, "tpcc.loaded.")?
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    Ok(std::iter::once(Unit::Items)
        .chain((1..=o.warehouses).map(Unit::Warehouse))
        .filter(|u| !done.contains(&load::done_key(*u)))
        .collect())
}

/// Loads `units` on `load_threads` connections, reporting rows and finished units to
/// `progress`; returns the rows loaded.
fn load_units(
    connect: &(dyn Fn() -> Result<Conn> + Sync),
    load_threads: u32,
    units: &[Unit],
    pop: Population,
    method: LoadMethod,
    progress: &Progress<'_>,
) -> Result<u64> {
    let pop = Arc::new(pop);
    let rows = std::sync::atomic::AtomicU64::new(0);
    let count = |n: u64| {
        rows.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        (progress.rows)(n);
    };
    let finished = std::sync::atomic::AtomicUsize::new(0);
    (progress.units)(0, units.len());
    loader::parallel_units(connect, load_threads, units, &|conn, unit| {
        load::load_unit(conn, &pop, *unit, method, &count)?;
        let n = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        (progress.units)(n, units.len());
        Ok(())
    })?;
    Ok(rows.load(std::sync::atomic::Ordering::Relaxed))
}

/// After the load: what [`schema::after_load`] lists (indexes, foreign keys), fresh statistics,
/// and the database marked complete and in its initial state.
fn index_and_mark_complete(conn: &mut Conn, o: &TpccOptions) -> Result<()> {
    schema::create_after_load(conn, o)?;
    conn.query_drop(match conn.engine() {
        Engine::Mysql => {
            "ANALYZE TABLE warehouse, district, customer, history, new_order, orders, order_line, item, stock"
        }
        Engine::Postgres => pg::ANALYZE,
    })?;
    meta::set(conn, "tpcc.complete", "1")?;
    meta::set(conn, "tpcc.initial", "1")
}

fn first_words(sql: &str) -> String {
    sql.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn now_string(conn: &mut Conn) -> Result<String> {
    let now: Option<String> = conn.query_first(match conn.engine() {
        Engine::Mysql => "SELECT DATE_FORMAT(NOW(), '%Y-%m-%d %H:%i:%s')",
        Engine::Postgres => pg::NOW_TEXT,
    })?;
    now.context("reading the server's clock")
}

/// Checks the database is a complete TPC-C load of the right shape with at least
/// `warehouses` warehouses; the error says what to run.
pub fn ready(conn: &mut Conn, warehouses: Option<u32>) -> Result<State> {
    let Some(s) = state(conn)? else {
        bail!("no TPC-C data in the database: run `txbench prepare tpcc --warehouses N` first");
    };
    if !s.complete {
        bail!(
            "the TPC-C load is incomplete ({} not loaded): run `txbench prepare tpcc --warehouses {}` again to finish it",
            s.missing.join(", "),
            s.warehouses
        );
    }
    if let Some(w) = warehouses
        && w > s.warehouses
    {
        bail!(
            "--warehouses {w} is more than the {} prepared: prepare more, or run with --warehouses {}",
            s.warehouses,
            s.warehouses
        );
    }
    schema::verify_shape(conn)?;
    Ok(s)
}

/// Drops the TPC-C tables and txbench's record of them.
pub fn cleanup(conn: &mut Conn) -> Result<()> {
    meta::owns(conn, "tpcc", &schema::TABLES)?;
    schema::drop_all(conn)?;
    meta::remove_prefix(conn, "tpcc.")?;
    meta::forget(conn, "tpcc")
}

/// `prepare tpcc --csv DIR`: the population as CSV files (one per table and unit), the
/// schema and a script that loads them, without touching a server.
pub fn write_csv(
    dir: &std::path::Path,
    o: &TpccOptions,
    threads: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64> {
    o.validate()?;
    crate::owned::make_dir(dir, "--csv")?;
    let seed = 1;
    let pop = Arc::new(Population {
        seed,
        c_last_load: uniform(&mut worker_rng(seed, 0xc), 0, 255),
        now: humantime::format_rfc3339_seconds(std::time::SystemTime::now())
            .to_string()
            .replace('T', " ")
            .trim_end_matches('Z')
            .to_string(),
        null_dates: o.null_dates,
    });
    let units: Vec<Unit> = std::iter::once(Unit::Items)
        .chain((1..=o.warehouses).map(Unit::Warehouse))
        .collect();
    let mut script = String::new();
    // The script is MySQL's (LOAD DATA INFILE).
    for stmt in schema::create_statements(o, Engine::Mysql) {
        script.push_str(&stmt);
        script.push_str(";\n");
    }
    let mut jobs = Vec::new();
    for u in &units {
        for &t in u.tables() {
            jobs.push((*u, t));
            script.push_str(&format!(
                "LOAD DATA INFILE '{}' INTO TABLE {t} CHARACTER SET latin1 FIELDS TERMINATED BY ',' ({});\n",
                dir.join(format!("{t}-{}.csv", u.key())).display(),
                schema::columns(t).join(",")
            ));
        }
    }
    for step in schema::after_load(o) {
        script.push_str(&step.sql);
        script.push_str(";\n");
    }
    crate::owned::write(&dir.join("load.sql"), &script)?;
    let rows = std::sync::atomic::AtomicU64::new(0);
    loader::parallel_units(&|| Ok(()), threads, &jobs, &|_, &(u, t)| {
        let n = load::write_csv(dir, &pop, u, t)?;
        rows.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        progress(n);
        Ok(())
    })?;
    Ok(rows.load(std::sync::atomic::Ordering::Relaxed))
}
