//! The PostgreSQL session: connections (txbench's own wire client, [`super::wire`]), `?`
//! placeholders as `$n`, the pre-flight, the clock, error classes, `COPY … FROM STDIN`, and
//! result cells as txbench's neutral values.

use super::wire::{self, Row, Statement};
use crate::engine::{
    CONNECT_TIMEOUT, DATA_ERROR_STATE, Error, Result, TargetUrl, Value, io_reason,
};
use crate::metrics::ErrorClass;
use crate::preflight::{PG_SETTINGS, Preflight};
use anyhow::Context;
use postgres_types::Type;
use rust_decimal::Decimal;
use std::io::Write;
use std::time::Duration;

/// One PostgreSQL connection and the rows its last statement changed.
pub struct Session {
    client: wire::Client,
    affected: u64,
}

/// Opens one connection; errors are one line naming the redacted URL and what to check.
pub fn connect(url: &TargetUrl) -> anyhow::Result<Session> {
    connect_within(url, CONNECT_TIMEOUT, APP).map_err(|e| connect_error(url, &e))
}

/// The application_name of txbench's own sessions (the virtual users' among them); the
/// monitor's is [`MONITOR_APP`], so the end of a run can wait for the others to exit.
pub const APP: &str = "txbench";
/// The application_name of the sampler's sessions.
pub const MONITOR_APP: &str = "txbench-monitor";

/// [`connect`] with its own bound on connecting and logging in (the sampler's) and its
/// application_name, its error the wire client's (see [`wire::Error::is_timeout`]).
pub fn connect_within(
    url: &TargetUrl,
    timeout: Duration,
    app: &str,
) -> std::result::Result<Session, wire::Error> {
    crate::engine::listener::check(url).map_err(|e| wire::Error::Protocol(format!("{e:#}")))?;
    let client = wire::connect(url, app, timeout)?;
    Ok(Session {
        client,
        affected: 0,
    })
}

fn connect_error(url: &TargetUrl, e: &wire::Error) -> anyhow::Error {
    let why = match e {
        wire::Error::Db(db) => match db.code.as_str() {
            "28P01" => format!(
                "authentication failed for user '{}': check the user and password in --url",
                url.user
            ),
            // No such role, or no pg_hba.conf line lets it in.
            "28000" => format!("{} (check the user in --url)", db.message),
            "3D000" => format!("database '{}' does not exist", url.database),
            "53300" => "too many connections (max_connections reached)".to_string(),
            code => format!("server said: {} ({code})", db.message),
        },
        // A read or write timeout during the startup is WouldBlock, which io_reason takes
        // as a timeout.
        wire::Error::Io(io) => io_reason(io.kind(), &io.to_string()),
        wire::Error::NoPassword => format!(
            "the server asks user '{}' for a password and --url has none",
            url.user
        ),
        other => other.to_string(),
    };
    anyhow::anyhow!("cannot connect to {url}: {why}")
}

impl Session {
    /// The socket's descriptor.
    pub fn raw_fd(&self) -> std::os::fd::RawFd {
        self.client.raw_fd()
    }

    /// The server process serving this session (pg_backend_pid()), 0 if it did not say.
    pub fn backend_pid(&self) -> i32 {
        self.client.backend_pid()
    }

    /// Transactions the server ended for this session (see
    /// [`wire::Client::transactions_ended`]).
    pub fn transactions_ended(&self) -> u64 {
        self.client.transactions_ended()
    }

    /// Statements prepared outside a transaction (see [`wire::Client::prepares_alone`]).
    pub fn prepares_alone(&self) -> u64 {
        self.client.prepares_alone()
    }

    pub(crate) fn query_drop(&mut self, sql: &str) -> Result<()> {
        self.client.batch_execute(sql)?;
        self.affected = 0;
        Ok(())
    }

    /// Runs SQL text (no parameters) and returns its rows.
    pub fn query(&mut self, sql: &str) -> Result<Vec<Row>> {
        Ok(self.query_rows(sql)?)
    }

    /// [`Session::query`] with the wire client's error (the sampler tells a server error
    /// from a lost connection).
    pub fn query_rows(&mut self, sql: &str) -> std::result::Result<Vec<Row>, wire::Error> {
        let (rows, n) = self.client.execute_once(sql, &[])?;
        self.affected = n;
        Ok(rows)
    }

    /// Runs SQL text as it is (the simple query protocol) and returns its columns' names and
    /// its rows as text.
    pub fn query_text(&mut self, sql: &str) -> Result<crate::engine::TextRows> {
        self.affected = 0;
        Ok(self.client.simple_query_text(sql)?)
    }

    /// The first row of SQL text (no parameters); an error when there is none.
    pub fn query_one(&mut self, sql: &str) -> std::result::Result<Row, wire::Error> {
        self.client.query_one(sql)
    }

    pub(crate) fn prep(&mut self, sql: &str) -> Result<Statement> {
        Ok(self.client.prepare(&placeholders(sql))?)
    }

    pub(crate) fn exec_drop(&mut self, st: &Statement, v: Vec<Value>) -> Result<()> {
        self.affected = self.client.execute(st, &v, false)?.1;
        Ok(())
    }

    pub(crate) fn exec(&mut self, st: &Statement, v: Vec<Value>) -> Result<Vec<Row>> {
        let (rows, n) = self.client.execute(st, &v, true)?;
        self.affected = n;
        Ok(rows)
    }

    /// Runs SQL text with `?` placeholders once (one round trip, nothing kept prepared).
    pub fn exec_once(&mut self, sql: &str, v: Vec<Value>) -> Result<Vec<Row>> {
        let (rows, n) = self.client.execute_once(&placeholders(sql), &v)?;
        self.affected = n;
        Ok(rows)
    }

    pub(crate) fn affected_rows(&self) -> u64 {
        self.affected
    }

    /// Whether a transaction is open on this session.
    pub(crate) fn in_transaction(&self) -> bool {
        self.client.in_transaction()
    }
}

/// Streams rows into `table` with `COPY table (columns) FROM STDIN` (text format: tab
/// separated, `\N` for NULL, the escapes MySQL's LOAD DATA reads too): `chunk` writes up to
/// a chunk of rows and returns false after the last.
pub fn copy_in(
    s: &mut Session,
    table: &str,
    columns: &[&str],
    chunk: impl FnMut(&mut dyn Write) -> std::io::Result<bool>,
) -> anyhow::Result<()> {
    let sql = format!("COPY {table} ({}) FROM STDIN", columns.join(","));
    s.client
        .copy_in(&sql, chunk)
        .map_err(|e| anyhow::anyhow!("{}", error_message(&e)))?;
    Ok(())
}

/// `?` placeholders as `$1`, `$2`, … (outside quoted text and identifiers).
pub fn placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    let mut quote: Option<char> = None;
    for ch in sql.chars() {
        match (quote, ch) {
            (None, '\'' | '"') => {
                quote = Some(ch);
                out.push(ch);
            }
            (Some(q), c) if c == q => {
                quote = None;
                out.push(ch);
            }
            (None, '?') => {
                n += 1;
                out.push('$');
                out.push_str(&n.to_string());
            }
            _ => out.push(ch),
        }
    }
    out
}

/// The server's clock, Unix seconds.
pub fn server_clock(s: &mut Session) -> anyhow::Result<f64> {
    let row = s
        .query_one("SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8")
        .map_err(|e| anyhow::anyhow!("reading the server's clock: {}", error_message(&e)))?;
    row.get::<f64>(0)
        .map_err(|e| anyhow::anyhow!("reading the server's clock: {e}"))
}

/// Reads the pre-flight settings (sizes in bytes).
pub fn preflight(s: &mut Session) -> anyhow::Result<Preflight> {
    let mut p = Preflight::default();
    let version = s
        .query_one("SELECT version()")
        .map_err(|e| anyhow::anyhow!("{}", error_message(&e)))
        .and_then(|r| r.get::<String>(0).map_err(anyhow::Error::msg))
        .context("reading the server version for the pre-flight")?;
    p.variables.insert("version".into(), version);
    let names = format!("{{{}}}", PG_SETTINGS.join(","));
    let rows = s
        .exec_once(
            "SELECT name, setting, unit FROM pg_settings WHERE name = ANY(?::text[])",
            vec![Value::Text(names)],
        )
        .context("reading pg_settings for the pre-flight")?;
    for row in rows {
        let (Ok(name), Ok(setting), Ok(unit)) = (
            row.get::<String>(0),
            row.get::<String>(1),
            row.get::<Option<String>>(2),
        ) else {
            continue;
        };
        p.variables
            .insert(name, setting_value(&setting, unit.as_deref()));
    }
    Ok(p)
}

/// A pg_settings value in plain units: sizes in bytes, times with their unit.
pub fn setting_value(setting: &str, unit: Option<&str>) -> String {
    let bytes_per = match unit {
        Some("B") => Some(1u64),
        Some("kB") => Some(1 << 10),
        Some("8kB") => Some(8 << 10),
        Some("16MB") => Some(16 << 20),
        Some("MB") => Some(1 << 20),
        _ => None,
    };
    match (bytes_per, setting.parse::<u64>()) {
        (Some(b), Ok(v)) => (v * b).to_string(),
        _ => match unit {
            Some(u @ ("ms" | "s" | "min")) => format!("{setting}{u}"),
            _ => setting.to_string(),
        },
    }
}

/// The driver's class of a PostgreSQL error.
pub fn classify(e: &wire::Error) -> ErrorClass {
    if let Some(db) = e.db() {
        return match db.code.as_str() {
            c if c == DATA_ERROR_STATE => ErrorClass::Data,
            "40001" => ErrorClass::Serialization,
            "40P01" => ErrorClass::Deadlock,
            // lock_timeout (a statement_timeout is 57014: not a lock wait, counted as other).
            "55P03" => ErrorClass::LockWaitTimeout,
            "23505" => ErrorClass::DuplicateKey,
            // admin_shutdown (also pg_terminate_backend), crash_shutdown, cannot_connect_now.
            "57P01" | "57P02" | "57P03" => ErrorClass::ServerShutdown,
            _ if e.is_closed() => ErrorClass::LostConnection,
            _ => ErrorClass::Other,
        };
    }
    if e.is_closed() {
        return ErrorClass::LostConnection;
    }
    ErrorClass::Other
}

/// The message of a PostgreSQL error: the server's text and SQLSTATE, or the client's.
pub fn error_message(e: &wire::Error) -> String {
    match e {
        wire::Error::Db(db) => format!("{} ({})", db.message, db.code),
        other => other.to_string(),
    }
}

/// Whether column `i` is NULL.
pub(crate) fn is_null(row: &Row, i: usize) -> bool {
    row.is_null(i)
}

fn decode<'a, T: postgres_types::FromSql<'a>>(row: &'a Row, i: usize) -> Result<T> {
    row.get::<T>(i).map_err(Error::Decode)
}

/// Column `i` as an integer, from any integer or an integral NUMERIC.
pub(crate) fn int_cell(row: &Row, i: usize) -> Result<i64> {
    match row.type_(i).clone() {
        Type::INT2 => Ok(i64::from(decode::<i16>(row, i)?)),
        Type::INT4 => Ok(i64::from(decode::<i32>(row, i)?)),
        Type::INT8 => decode::<i64>(row, i),
        Type::OID => Ok(i64::from(decode::<u32>(row, i)?)),
        Type::NUMERIC => {
            let d = decode::<Decimal>(row, i)?;
            if !d.fract().is_zero() {
                return Err(Error::Decode(format!("{d} is not an integer")));
            }
            i64::try_from(d).map_err(|_| Error::Decode(format!("{d} is not an integer")))
        }
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
            let s = decode::<String>(row, i)?;
            s.trim()
                .parse()
                .map_err(|_| Error::Decode(format!("'{s}' is not an integer")))
        }
        other => Err(Error::Decode(format!(
            "column {} is {other}, not an integer",
            i + 1
        ))),
    }
}

/// Column `i` as a float.
pub(crate) fn float_cell(row: &Row, i: usize) -> Result<f64> {
    match value_cell(row, i)? {
        Value::Int(v) => Ok(v as f64),
        Value::Float(v) => Ok(v),
        Value::Text(s) => s
            .trim()
            .parse()
            .map_err(|_| Error::Decode(format!("'{s}' is not a number"))),
        Value::Null => Err(Error::Decode("NULL where a number was expected".into())),
    }
}

/// Column `i` as a neutral value (NUMERIC as its decimal text, timestamps as Unix seconds).
pub(crate) fn value_cell(row: &Row, i: usize) -> Result<Value> {
    if is_null(row, i) {
        return Ok(Value::Null);
    }
    Ok(match row.type_(i).clone() {
        Type::INT2 | Type::INT4 | Type::INT8 | Type::OID => Value::Int(int_cell(row, i)?),
        Type::BOOL => Value::Int(i64::from(decode::<bool>(row, i)?)),
        Type::FLOAT4 => Value::Float(f64::from(decode::<f32>(row, i)?)),
        Type::FLOAT8 => Value::Float(decode::<f64>(row, i)?),
        Type::NUMERIC => Value::Text(decode::<Decimal>(row, i)?.to_string()),
        Type::TIMESTAMP | Type::TIMESTAMPTZ => {
            let t = decode::<std::time::SystemTime>(row, i)?;
            Value::Float(crate::shard::unix_s(t))
        }
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
            Value::Text(decode::<String>(row, i)?)
        }
        other => {
            return Err(Error::Decode(format!(
                "column {} is {other}, which txbench does not read",
                i + 1
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_outside_quotes() {
        assert_eq!(
            placeholders("SELECT c FROM t WHERE id = ? AND s = '?' AND \"q?\" = ? LIMIT ?"),
            "SELECT c FROM t WHERE id = $1 AND s = '?' AND \"q?\" = $2 LIMIT $3"
        );
        assert_eq!(placeholders("BEGIN"), "BEGIN");
    }

    #[test]
    fn settings_are_read_in_plain_units() {
        assert_eq!(
            setting_value("16384", Some("8kB")),
            (128u64 << 20).to_string()
        );
        assert_eq!(setting_value("1024", Some("MB")), (1u64 << 30).to_string());
        assert_eq!(setting_value("300", Some("s")), "300s");
        assert_eq!(setting_value("on", None), "on");
        assert_eq!(setting_value("-1", Some("kB")), "-1");
    }
}
