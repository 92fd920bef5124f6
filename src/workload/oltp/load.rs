//! Preparing and cleaning up the oltp_* tables: CREATE TABLE, rows loaded in parallel chunks,
//! what exists already, and the row counts a run checks first.

use super::*;

/// DDL of table `n`, sysbench's for the engine (its pgsql driver's on PostgreSQL; with
/// --secondary the id index follows the load there).
pub fn create_table_sql(o: &OltpOptions, n: u32, engine: Engine) -> String {
    if engine == Engine::Postgres {
        return pg::sbtest_ddl(n, o.auto_inc, !o.secondary);
    }
    let id = if o.auto_inc {
        "INTEGER NOT NULL AUTO_INCREMENT"
    } else {
        "INTEGER NOT NULL"
    };
    let key = if o.secondary {
        "KEY xid"
    } else {
        "PRIMARY KEY"
    };
    format!(
        "CREATE TABLE sbtest{n}(id {id}, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, {key} (id)) ENGINE=InnoDB"
    )
}

/// Rows per multi-row INSERT while loading.
pub(super) const LOAD_BATCH: u32 = 1000;

/// Creates and loads the tables over `load_threads` connections (chunks of one table
/// can load in parallel), then creates the k index on each table.
pub fn prepare(
    connect: &(dyn Fn() -> Result<Conn> + Sync),
    o: &OltpOptions,
    workload: &str,
    load_threads: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<()> {
    o.validate()?;
    let mut conn = connect()?;
    super::super::meta::expect(&mut conn, workload)?;
    for n in 1..=o.tables {
        if !super::super::meta::tables_present(&mut conn, &[&format!("sbtest{n}")])?.is_empty() {
            bail!(
                "table sbtest{n} exists already: run `txbench cleanup oltp_read_write` first, or use the data as it is"
            );
        }
    }
    // Recorded first: tables left by a prepare that failed half-way are txbench's.
    super::super::meta::set(&mut conn, "workload", workload)?;
    super::super::meta::set(&mut conn, "oltp.tables", &o.tables.to_string())?;
    for n in 1..=o.tables {
        conn.query_drop(create_table_sql(o, n, conn.engine()))
            .with_context(|| format!("creating sbtest{n}"))?;
    }
    // Work units: (table, first id, last id) in chunks, spread over the loaders.
    let chunk = 50_000u32;
    let mut units = Vec::new();
    for n in 1..=o.tables {
        let mut first = 1u32;
        while first <= o.table_size {
            let last = first.saturating_add(chunk - 1).min(o.table_size);
            units.push((n, first, last));
            first = match last.checked_add(1) {
                Some(f) => f,
                None => break,
            };
        }
    }
    super::super::loader::parallel_units(
        connect,
        load_threads,
        &units,
        &|conn, &(n, first, last)| load_chunk(conn, o, n, first, last, progress),
    )?;
    // Indexes after the data, in parallel like sysbench's per-table threads.
    let tables: Vec<u32> = (1..=o.tables).collect();
    if o.create_secondary {
        super::super::loader::parallel_units(connect, load_threads, &tables, &|conn, &n| {
            conn.query_drop(format!("CREATE INDEX k_{n} ON sbtest{n}(k)"))
                .with_context(|| format!("creating index k_{n}"))
        })?;
    }
    if conn.engine() == Engine::Postgres {
        super::super::loader::parallel_units(connect, load_threads, &tables, &|conn, &n| {
            if o.secondary {
                conn.query_drop(format!("CREATE INDEX xid_{n} ON sbtest{n}(id)"))
                    .with_context(|| format!("creating index xid_{n}"))?;
            }
            if o.auto_inc {
                // COPY set the ids: the sequence continues after them.
                conn.query_drop(format!(
                    "SELECT setval(pg_get_serial_sequence('sbtest{n}', 'id'), GREATEST(MAX(id), 1)) FROM sbtest{n}"
                ))?;
            }
            conn.query_drop(format!("VACUUM ANALYZE sbtest{n}"))
                .with_context(|| format!("analyzing sbtest{n}"))
        })?;
    }
    Ok(())
}

/// Loads ids `first..=last` of table `n` in multi-row INSERTs. The rows depend only on the
/// table and the ids, not on which loader thread ran the chunk.
pub(super) fn load_chunk(
    conn: &mut Conn,
    o: &OltpOptions,
    n: u32,
    first: u32,
    last: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<()> {
    let mut rng = super::super::rand::worker_rng(0x10ad ^ (u64::from(n) << 32), u64::from(first));
    if conn.engine() == Engine::Postgres {
        // COPY FROM STDIN, the same rows in the same order.
        let size = o.table_size;
        let mut id = first;
        let (mut c, mut pad) = (Vec::new(), Vec::new());
        let fill = move |rows: &mut super::super::loader::Rows| -> bool {
            let end = id.saturating_add(LOAD_BATCH - 1).min(last);
            for row in id..=end {
                fill_template(&mut rng, C_TEMPLATE, &mut c);
                fill_template(&mut rng, PAD_TEMPLATE, &mut pad);
                rows.int(i64::from(row));
                rows.int(i64::from(uniform(&mut rng, 1, size)));
                rows.str(&c);
                rows.str(&pad);
                rows.end();
            }
            id = end.saturating_add(1);
            end < last
        };
        let table = format!("sbtest{n}");
        let loaded = super::super::loader::load_data_local(
            conn,
            &table,
            &["id", "k", "c", "pad"],
            &table,
            fill,
        )?;
        progress(loaded);
        return Ok(());
    }
    conn.query_drop("SET SESSION unique_checks = 0")?;
    let mut rows = super::super::loader::Rows::new(super::super::loader::Format::Sql);
    let (mut c, mut pad) = (Vec::new(), Vec::new());
    let table = format!("sbtest{n}");
    let mut id = first;
    loop {
        let end = id.saturating_add(LOAD_BATCH - 1).min(last);
        rows.clear();
        for row in id..=end {
            fill_template(&mut rng, C_TEMPLATE, &mut c);
            fill_template(&mut rng, PAD_TEMPLATE, &mut pad);
            rows.int(i64::from(row));
            rows.int(i64::from(uniform(&mut rng, 1, o.table_size)));
            // Templates hold only digits and dashes: nothing to escape.
            rows.str(&c);
            rows.str(&pad);
            rows.end();
        }
        conn.query_drop(rows.insert_statement(&table, &["id", "k", "c", "pad"]))
            .with_context(|| format!("loading {table}"))?;
        progress(u64::from(end - id + 1));
        if end >= last {
            return Ok(());
        }
        id = end + 1;
    }
}

/// The sbtest tables present in the database, by number.
pub fn existing_tables(conn: &mut Conn) -> Result<Vec<u32>> {
    let names: Vec<String> = conn.query(
        format!(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = {} AND table_name LIKE 'sbtest%'",
            conn.engine().schema_sql()
        ),
    )?;
    let mut nums: Vec<u32> = names
        .iter()
        .filter_map(|n| n.strip_prefix("sbtest").and_then(|d| d.parse().ok()))
        .collect();
    nums.sort_unstable();
    Ok(nums)
}

/// Drops every sbtest table.
/// Drops the sbtest tables txbench prepared (1..=the recorded --tables; every one present
/// when the preparation predates that record).
pub fn cleanup(conn: &mut Conn) -> Result<usize> {
    let mut tables = existing_tables(conn)?;
    let names: Vec<String> = tables.iter().map(|n| format!("sbtest{n}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    super::super::meta::owns(conn, "oltp_read_write", &names)?;
    if let Some(n) =
        super::super::meta::get(conn, "oltp.tables")?.and_then(|v| v.parse::<u32>().ok())
    {
        tables.retain(|t| *t <= n);
    }
    for n in &tables {
        conn.query_drop(format!("DROP TABLE IF EXISTS sbtest{n}"))?;
    }
    super::super::meta::remove_prefix(conn, "oltp.")?;
    super::super::meta::forget(conn, "oltp_read_write")?;
    Ok(tables.len())
}

/// Checks that tables 1..=tables exist with sysbench's columns: the error says what is
/// missing and what to run.
pub fn ready(conn: &mut Conn, o: &OltpOptions, workload: &str) -> Result<()> {
    let prepare_hint = format!(
        "run `txbench prepare {workload} --tables {} --table-size {}` first",
        o.tables, o.table_size
    );
    super::super::meta::expect(conn, workload)?;
    let present = existing_tables(conn)?;
    if present.is_empty() {
        bail!("no sbtest tables in the database: {prepare_hint}");
    }
    if let Some(n) = (1..=o.tables).find(|n| !present.contains(n)) {
        bail!(
            "table sbtest{n} does not exist ({} tables are prepared, --tables is {}): {prepare_hint}",
            present.len(),
            o.tables
        );
    }
    for n in 1..=o.tables {
        let cols: Vec<String> = conn.query(format!(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = {} AND table_name = 'sbtest{n}' ORDER BY ordinal_position",
            conn.engine().schema_sql()
        ))?;
        let cols: Vec<String> = cols.iter().map(|c| c.to_ascii_lowercase()).collect();
        for want in ["id", "k", "c", "pad"] {
            if !cols.iter().any(|c| c == want) {
                bail!(
                    "table sbtest{n} has no column '{want}' (it has {}): not a sysbench table; run `txbench cleanup {workload}` and prepare again",
                    cols.join(", ")
                );
            }
        }
    }
    Ok(())
}

/// Row counts per table, for `check`.
pub fn row_counts(conn: &mut Conn, o: &OltpOptions) -> Result<Vec<(u32, u64)>> {
    let mut out = Vec::new();
    for n in 1..=o.tables {
        let c: Option<u64> = conn.query_first(format!("SELECT COUNT(*) FROM sbtest{n}"))?;
        out.push((n, c.unwrap_or(0)));
    }
    Ok(out)
}
