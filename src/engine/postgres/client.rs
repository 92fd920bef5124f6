//! The PostgreSQL client: connections (the blocking `postgres` crate), `?` placeholders as
//! `$n`, parameters in the types the server inferred, the pre-flight, the clock, error
//! classes, `COPY … FROM STDIN`.

use crate::engine::{
    CONNECT_TIMEOUT, DATA_ERROR_STATE, Error, Result, TargetUrl, Value, io_reason,
};
use crate::metrics::ErrorClass;
use crate::preflight::{PG_SETTINGS, Preflight};
use anyhow::Context;
use postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};
use rust_decimal::Decimal;
use std::io::Write;
use std::str::FromStr;

/// One PostgreSQL connection and the rows its last statement changed.
pub struct Session {
    client: postgres::Client,
    affected: u64,
}

/// Connection settings for a target URL: TCP, or the socket directory of `?host=`.
pub fn config(url: &TargetUrl) -> postgres::Config {
    let mut c = postgres::Config::new();
    c.user(&url.user)
        .dbname(&url.database)
        .port(url.port)
        .application_name("txbench")
        .connect_timeout(CONNECT_TIMEOUT);
    if let Some(pw) = &url.password {
        c.password(pw);
    }
    match &url.socket {
        Some(dir) => c.host_path(dir),
        None => c.host(&url.host),
    };
    c
}

/// Opens one connection; errors are one line naming the redacted URL and what to check.
pub fn connect(url: &TargetUrl) -> anyhow::Result<Session> {
    let client = config(url)
        .connect(postgres::NoTls)
        .map_err(|e| connect_error(url, &e))?;
    Ok(Session {
        client,
        affected: 0,
    })
}

fn connect_error(url: &TargetUrl, e: &postgres::Error) -> anyhow::Error {
    let why = match e.as_db_error() {
        Some(db) => match db.code().code() {
            "28P01" => format!(
                "authentication failed for user '{}': check the user and password in --url",
                url.user
            ),
            // No such role, or no pg_hba.conf line lets it in.
            "28000" => format!("{} (check the user in --url)", db.message()),
            "3D000" => format!("database '{}' does not exist", url.database),
            "53300" => "too many connections (max_connections reached)".to_string(),
            _ => format!("server said: {} ({})", db.message(), db.code().code()),
        },
        None => match io_source(e) {
            Some(io) => io_reason(io.kind(), &io.to_string()),
            None => {
                let text = e.to_string();
                if text.contains("timed out") {
                    io_reason(std::io::ErrorKind::TimedOut, "")
                } else if text.contains("password missing") {
                    format!(
                        "the server asks user '{}' for a password and --url has none",
                        url.user
                    )
                } else {
                    text
                }
            }
        },
    };
    anyhow::anyhow!("cannot connect to {url}: {why}")
}

fn io_source(e: &postgres::Error) -> Option<&std::io::Error> {
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            return Some(io);
        }
        source = s.source();
    }
    None
}

impl Session {
    /// A session over a client connected elsewhere (the sampler's, with its own timeouts).
    pub fn from_client(client: postgres::Client) -> Session {
        Session {
            client,
            affected: 0,
        }
    }

    /// The client underneath (COPY, and what only PostgreSQL has).
    pub fn client(&mut self) -> &mut postgres::Client {
        &mut self.client
    }

    pub(crate) fn query_drop(&mut self, sql: &str) -> Result<()> {
        self.client.batch_execute(sql)?;
        self.affected = 0;
        Ok(())
    }

    pub(crate) fn query(&mut self, sql: &str) -> Result<Vec<postgres::Row>> {
        Ok(self.client.query(sql, &[])?)
    }

    pub(crate) fn prep(&mut self, sql: &str) -> Result<postgres::Statement> {
        Ok(self.client.prepare(&placeholders(sql))?)
    }

    pub(crate) fn exec_drop(&mut self, st: &postgres::Statement, v: Vec<Value>) -> Result<()> {
        self.affected = self.client.execute(st, &refs(&v))?;
        Ok(())
    }

    pub(crate) fn exec(
        &mut self,
        st: &postgres::Statement,
        v: Vec<Value>,
    ) -> Result<Vec<postgres::Row>> {
        let rows = self.client.query(st, &refs(&v))?;
        self.affected = rows.len() as u64;
        Ok(rows)
    }

    pub(crate) fn affected_rows(&self) -> u64 {
        self.affected
    }
}

/// Streams rows into `table` with `COPY table (columns) FROM STDIN` (text format: tab
/// separated, `\N` for NULL, the escapes MySQL's LOAD DATA reads too): `chunk` writes up to
/// a chunk of rows and returns false after the last.
pub fn copy_in(
    s: &mut Session,
    table: &str,
    columns: &[&str],
    mut chunk: impl FnMut(&mut dyn Write) -> std::io::Result<bool>,
) -> anyhow::Result<()> {
    let sql = format!("COPY {table} ({}) FROM STDIN", columns.join(","));
    let mut w = s.client().copy_in(&sql)?;
    while chunk(&mut w)? {}
    w.finish()?;
    Ok(())
}

/// Parameters as the client takes them.
fn refs(v: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    v.iter().map(|x| x as &(dyn ToSql + Sync)).collect()
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
        .client
        .query_one("SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8", &[])
        .context("reading the server's clock")?;
    Ok(row.get::<_, f64>(0))
}

/// Reads the pre-flight settings (sizes in bytes).
pub fn preflight(s: &mut Session) -> anyhow::Result<Preflight> {
    let mut p = Preflight::default();
    let version: String = s
        .client
        .query_one("SELECT version()", &[])
        .context("reading the server version for the pre-flight")?
        .get(0);
    p.variables.insert("version".into(), version);
    let names: Vec<String> = PG_SETTINGS.iter().map(|s| s.to_string()).collect();
    let rows = s
        .client
        .query(
            "SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1)",
            &[&names],
        )
        .context("reading pg_settings for the pre-flight")?;
    for row in rows {
        let name: String = row.get(0);
        let setting: String = row.get(1);
        let unit: Option<String> = row.get(2);
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
pub fn classify(e: &postgres::Error) -> ErrorClass {
    if let Some(db) = e.as_db_error() {
        return match db.code().code() {
            c if c == DATA_ERROR_STATE => ErrorClass::Data,
            "40001" => ErrorClass::Serialization,
            "40P01" => ErrorClass::Deadlock,
            // lock_timeout, and a statement_timeout cancelling a lock wait.
            "55P03" => ErrorClass::LockWaitTimeout,
            "23505" => ErrorClass::DuplicateKey,
            // admin_shutdown (also pg_terminate_backend), crash_shutdown, cannot_connect_now.
            "57P01" | "57P02" | "57P03" => ErrorClass::ServerShutdown,
            _ => ErrorClass::Other,
        };
    }
    if e.is_closed() || io_source(e).is_some() {
        return ErrorClass::LostConnection;
    }
    ErrorClass::Other
}

/// The message of a PostgreSQL error: the server's text and SQLSTATE, or the client's.
pub fn error_message(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => match io_source(e) {
            Some(io) => format!("connection lost: {io}"),
            None => e.to_string(),
        },
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        let mismatch = || -> Box<dyn std::error::Error + Sync + Send> {
            format!("cannot send {self:?} as {ty}").into()
        };
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT8 => i.to_sql(ty, out),
                Type::FLOAT4 => (*i as f32).to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::NUMERIC => Decimal::from(*i).to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::BPCHAR => i.to_string().to_sql(ty, out),
                _ => Err(mismatch()),
            },
            Value::Float(f) => match *ty {
                Type::FLOAT4 => (*f as f32).to_sql(ty, out),
                Type::FLOAT8 => f.to_sql(ty, out),
                Type::NUMERIC => Decimal::try_from(*f)?.to_sql(ty, out),
                _ => Err(mismatch()),
            },
            Value::Text(s) => match *ty {
                Type::NUMERIC => Decimal::from_str(s)?.to_sql(ty, out),
                Type::INT2 => s.parse::<i16>()?.to_sql(ty, out),
                Type::INT4 => s.parse::<i32>()?.to_sql(ty, out),
                Type::INT8 => s.parse::<i64>()?.to_sql(ty, out),
                Type::FLOAT8 => s.parse::<f64>()?.to_sql(ty, out),
                _ => s.as_str().to_sql(ty, out),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Accepts any column, to tell NULL from a value without decoding it.
struct Present;

impl<'a> FromSql<'a> for Present {
    fn from_sql(
        _: &Type,
        _: &'a [u8],
    ) -> std::result::Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Present)
    }
    fn accepts(_: &Type) -> bool {
        true
    }
}

/// Whether column `i` is NULL.
pub(crate) fn is_null(row: &postgres::Row, i: usize) -> bool {
    matches!(row.try_get::<_, Option<Present>>(i), Ok(None))
}

fn decode<'a, T: FromSql<'a>>(row: &'a postgres::Row, i: usize) -> Result<T> {
    row.try_get::<_, T>(i)
        .map_err(|e| Error::Decode(format!("column {}: {e}", i + 1)))
}

/// Column `i` as an integer, from any integer or an integral NUMERIC.
pub(crate) fn int_cell(row: &postgres::Row, i: usize) -> Result<i64> {
    let ty = row.columns()[i].type_().clone();
    match ty {
        Type::INT2 => Ok(i64::from(decode::<i16>(row, i)?)),
        Type::INT4 => Ok(i64::from(decode::<i32>(row, i)?)),
        Type::INT8 => decode::<i64>(row, i),
        Type::OID => Ok(i64::from(decode::<u32>(row, i)?)),
        Type::NUMERIC => {
            let d = decode::<Decimal>(row, i)?;
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
pub(crate) fn float_cell(row: &postgres::Row, i: usize) -> Result<f64> {
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
pub(crate) fn value_cell(row: &postgres::Row, i: usize) -> Result<Value> {
    if is_null(row, i) {
        return Ok(Value::Null);
    }
    let ty = row.columns()[i].type_().clone();
    Ok(match ty {
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

    #[test]
    fn values_take_the_parameter_type_the_server_inferred() {
        let mut out = bytes::BytesMut::new();
        Value::Int(7).to_sql(&Type::INT4, &mut out).unwrap();
        assert_eq!(&out[..], &7i32.to_be_bytes());
        out.clear();
        assert!(Value::Int(1 << 40).to_sql(&Type::INT4, &mut out).is_err());
        out.clear();
        Value::Text("12.34".into())
            .to_sql(&Type::NUMERIC, &mut out)
            .unwrap();
        let back = Decimal::from_sql(&Type::NUMERIC, &out).unwrap();
        assert_eq!(back.to_string(), "12.34");
        out.clear();
        assert!(matches!(
            Value::Null.to_sql(&Type::INT8, &mut out).unwrap(),
            IsNull::Yes
        ));
    }
}
