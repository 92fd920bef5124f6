//! Parallel loading: units of work spread over several threads (each with its own state,
//! usually a connection), each thread taking the next unit until none are left or one failed;
//! and the encoder of generated rows for LOAD DATA, CSV files and multi-row INSERTs.

use crate::engine::Conn;
use anyhow::{Context, Result, anyhow};

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Runs `work` on every unit over at most `threads` threads, each with the state `open`
/// gives it (a connection, say). The first error stops the others from taking new units
/// and is returned.
pub fn parallel_units<S, U: Sync>(
    open: &(dyn Fn() -> Result<S> + Sync),
    threads: u32,
    units: &[U],
    work: &(dyn Fn(&mut S, &U) -> Result<()> + Sync),
) -> Result<()> {
    if units.is_empty() {
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let threads = (threads.max(1) as usize).min(units.len()).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| -> Result<()> {
                    let mut state = open()?;
                    while !failed.load(Ordering::Relaxed) {
                        let Some(unit) = units.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        if let Err(e) = work(&mut state, unit) {
                            failed.store(true, Ordering::Relaxed);
                            return Err(e);
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        let mut first = Ok(());
        for h in handles {
            let r = h.join().map_err(|_| anyhow!("a loader thread panicked"))?;
            if first.is_ok() {
                first = r;
            }
        }
        first
    })
}

/// How rows are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Tab-separated lines, `\N` for NULL (LOAD DATA's default).
    Tsv,
    /// Comma-separated lines, `\N` for NULL (loadable with LOAD DATA … FIELDS TERMINATED BY ',').
    Csv,
    /// `(…),(…)` tuples for a multi-row INSERT.
    Sql,
}

/// An encoder of rows into a byte buffer. Generated strings are letters, digits, spaces,
/// dashes and colons only, so nothing needs escaping in any format.
pub struct Rows {
    fmt: Format,
    /// The encoded rows.
    pub buf: Vec<u8>,
    /// Rows in `buf`.
    pub count: usize,
    field: usize,
}

impl Rows {
    /// An empty encoder.
    pub fn new(fmt: Format) -> Rows {
        Rows {
            fmt,
            buf: Vec::with_capacity(256 * 1024),
            count: 0,
            field: 0,
        }
    }

    /// Empties the buffer.
    pub fn clear(&mut self) {
        self.buf.clear();
        self.count = 0;
        self.field = 0;
    }

    fn sep(&mut self) {
        if self.field == 0 {
            if self.fmt == Format::Sql {
                if self.count > 0 {
                    self.buf.push(b',');
                }
                self.buf.push(b'(');
            }
        } else {
            self.buf.push(match self.fmt {
                Format::Tsv => b'\t',
                Format::Csv | Format::Sql => b',',
            });
        }
        self.field += 1;
    }

    /// An integer.
    pub fn int(&mut self, v: i64) {
        self.sep();
        // Writing into a Vec cannot fail.
        let _ = write!(self.buf, "{v}");
    }

    /// A decimal given as an integer of `scale` decimal places (`dec(-1000, 2)` is -10.00).
    pub fn dec(&mut self, v: i64, scale: u32) {
        self.sep();
        let p = 10u64.pow(scale);
        let a = v.unsigned_abs();
        let sign = if v < 0 { "-" } else { "" };
        let _ = write!(
            self.buf,
            "{sign}{}.{:0width$}",
            a / p,
            a % p,
            width = scale as usize
        );
    }

    /// A string or date/time.
    pub fn str(&mut self, s: &[u8]) {
        self.sep();
        if self.fmt == Format::Sql {
            self.buf.push(b'\'');
            self.buf.extend_from_slice(s);
            self.buf.push(b'\'');
        } else {
            self.buf.extend_from_slice(s);
        }
    }

    /// NULL.
    pub fn null(&mut self) {
        self.sep();
        self.buf.extend_from_slice(match self.fmt {
            Format::Sql => b"NULL",
            _ => b"\\N",
        });
    }

    /// `INSERT INTO table (columns) VALUES …` of the rows (which must be `Format::Sql`).
    pub fn insert_statement(&self, table: &str, columns: &[&str]) -> String {
        let mut sql = format!("INSERT INTO {table} ({}) VALUES ", columns.join(","));
        // Generated values are ASCII: the buffer is valid UTF-8.
        sql.push_str(&String::from_utf8_lossy(&self.buf));
        sql
    }

    /// Ends a row.
    pub fn end(&mut self) {
        match self.fmt {
            Format::Sql => self.buf.push(b')'),
            _ => self.buf.push(b'\n'),
        }
        self.count += 1;
        self.field = 0;
    }
}

/// What `prepare` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prepared {
    /// Units were loaded (all of them, or those an earlier prepare left).
    Loaded {
        /// Units loaded now.
        units: usize,
        /// Rows loaded now.
        rows: u64,
        /// True when an earlier, interrupted prepare was finished.
        resumed: bool,
    },
    /// The database was complete already: nothing was done.
    AlreadyComplete,
}

impl Prepared {
    /// Two loads (TPC-C's table sets) as one: what either loaded.
    pub fn and(self, other: Prepared) -> Prepared {
        match (self, other) {
            (Prepared::AlreadyComplete, p) | (p, Prepared::AlreadyComplete) => p,
            (
                Prepared::Loaded {
                    units,
                    rows,
                    resumed,
                },
                Prepared::Loaded {
                    units: u2,
                    rows: r2,
                    resumed: s2,
                },
            ) => Prepared::Loaded {
                units: units + u2,
                rows: rows + r2,
                resumed: resumed || s2,
            },
        }
    }
}

/// How a load reports progress: rows as they go in, and each unit (TPC-C's items or a
/// warehouse, a TPC-B branch) when it is complete.
pub struct Progress<'a> {
    /// Rows loaded since the last call.
    pub rows: &'a (dyn Fn(u64) + Sync),
    /// Units completed so far, and units to load in all.
    pub units: &'a (dyn Fn(usize, usize) + Sync),
}

/// How rows reach the server.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum LoadMethod {
    /// LOAD DATA LOCAL INFILE streamed from memory (no temporary files).
    LoadData,
    /// Multi-row INSERT statements.
    Insert,
}

impl LoadMethod {
    /// The flag value.
    pub fn name(self) -> &'static str {
        match self {
            LoadMethod::LoadData => "load-data",
            LoadMethod::Insert => "insert",
        }
    }
}

/// Loads the rows `fill` generates into `table` through `method`: `fill` appends up to a
/// chunk of rows and returns false once it has appended the last. `progress` hears of rows
/// as they are loaded (per chunk with INSERT, per table with LOAD DATA). Returns the rows.
pub fn load_rows<F>(
    conn: &mut Conn,
    method: LoadMethod,
    table: &str,
    columns: &[&str],
    what: &str,
    progress: &(dyn Fn(u64) + Sync),
    mut fill: F,
) -> Result<u64>
where
    F: FnMut(&mut Rows) -> bool + Send + 'static,
{
    match method {
        LoadMethod::LoadData => {
            let n = load_data_local(conn, table, columns, what, fill)?;
            progress(n);
            Ok(n)
        }
        LoadMethod::Insert => {
            let mut rows = Rows::new(Format::Sql);
            let mut total = 0;
            loop {
                let more = fill(&mut rows);
                if rows.count > 0 {
                    conn.query_drop(rows.insert_statement(table, columns))
                        .with_context(|| format!("loading {what}"))?;
                    total += rows.count as u64;
                    progress(rows.count as u64);
                }
                rows.clear();
                if !more {
                    return Ok(total);
                }
            }
        }
    }
}

/// Streams rows into `table` with `LOAD DATA LOCAL INFILE`, from memory (no temporary
/// file): `fill` appends up to a chunk of tab-separated rows and returns false once it has
/// appended the last. Returns the rows loaded. A server with local_infile off gets an
/// error that says what to do; `what` names the data in other errors.
pub fn load_data_local<F>(
    conn: &mut Conn,
    table: &str,
    columns: &[&str],
    what: &str,
    fill: F,
) -> Result<u64>
where
    F: FnMut(&mut Rows) -> bool + Send + 'static,
{
    let loaded = Arc::new(AtomicU64::new(0));
    let counter = loaded.clone();
    let mut fill = fill;
    let mut rows = Rows::new(Format::Tsv);
    // One chunk of tab-separated rows at a time (MySQL's LOAD DATA and PostgreSQL's COPY
    // text format read the same escapes: \N, \t, \\).
    let chunk = move |out: &mut dyn std::io::Write| -> std::io::Result<bool> {
        let more = fill(&mut rows);
        out.write_all(&rows.buf)?;
        counter.fetch_add(rows.count as u64, Ordering::Relaxed);
        rows.clear();
        Ok(more)
    };
    match conn {
        #[cfg(feature = "mysql")]
        Conn::Mysql(c) => crate::engine::mysql::load_local(c, table, columns, what, chunk)?,
        #[cfg(feature = "postgres")]
        Conn::Postgres(c) => crate::engine::postgres::copy_in(c, table, columns, chunk)
            .with_context(|| format!("loading {what}"))?,
    }
    Ok(loaded.load(Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_connection_is_reported_and_no_work_runs() {
        let ran = AtomicUsize::new(0);
        let units = [1, 2, 3];
        let err = parallel_units::<(), _>(
            &|| Err(anyhow!("cannot connect: refused")),
            2,
            &units,
            &|_, _| {
                ran.fetch_add(1, Ordering::Relaxed);
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "cannot connect: refused");
        assert_eq!(ran.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn no_units_is_no_work_and_no_connection() {
        let r = parallel_units::<(), _>(
            &|| Err(anyhow!("must not connect")),
            4,
            &[] as &[u32],
            &|_, _| Ok(()),
        );
        assert!(r.is_ok());
    }

    #[test]
    fn formats_encode_the_same_row() {
        let mut r = Rows::new(Format::Sql);
        for _ in 0..2 {
            r.int(7);
            r.dec(-1000, 2);
            r.dec(2000, 4);
            r.str(b"ab");
            r.null();
            r.end();
        }
        assert_eq!(
            String::from_utf8(r.buf).unwrap(),
            "(7,-10.00,0.2000,'ab',NULL),(7,-10.00,0.2000,'ab',NULL)"
        );
        let mut r = Rows::new(Format::Csv);
        r.int(7);
        r.dec(5, 2);
        r.null();
        r.end();
        assert_eq!(String::from_utf8(r.buf).unwrap(), "7,0.05,\\N\n");
    }

    #[test]
    fn insert_statements_wrap_sql_rows() {
        let mut r = Rows::new(Format::Sql);
        r.int(1);
        r.str(b"x");
        r.end();
        r.int(2);
        r.str(b"y");
        r.end();
        assert_eq!(
            r.insert_statement("t", &["a", "b"]),
            "INSERT INTO t (a,b) VALUES (1,'x'),(2,'y')"
        );
    }
}
