//! Prepared statements, the rows a reply brings (binary, read with `postgres-types`), and
//! parameters as text.

use super::*;

/// A statement parsed and described on one connection: its name and result column types.
#[derive(Clone, Debug)]
pub struct Statement(pub(super) Arc<StatementInner>);

#[derive(Debug)]
pub(super) struct StatementInner {
    pub(super) name: String,
    pub(super) columns: Arc<[Type]>,
}

impl Statement {
    /// The result columns' types.
    pub fn columns(&self) -> &[Type] {
        &self.0.columns
    }
}

/// One result row, binary: its columns' types and each column's bytes (None for NULL).
pub struct Row {
    columns: Arc<[Type]>,
    body: DataRowBody,
    ranges: Vec<Option<Range<usize>>>,
}

impl Row {
    pub(super) fn new(columns: Arc<[Type]>, body: DataRowBody) -> Result<Row, Error> {
        let ranges = body.ranges().collect().map_err(Error::Io)?;
        Ok(Row {
            columns,
            body,
            ranges,
        })
    }

    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Column `i`'s type (UNKNOWN for a type txbench does not know, or past the end).
    pub fn type_(&self, i: usize) -> &Type {
        self.columns.get(i).unwrap_or(&Type::UNKNOWN)
    }

    /// Column `i`'s bytes; None for NULL.
    pub fn raw(&self, i: usize) -> Option<&[u8]> {
        self.ranges
            .get(i)?
            .as_ref()
            .map(|r| &self.body.buffer()[r.clone()])
    }

    /// Whether column `i` is NULL (or missing).
    pub fn is_null(&self, i: usize) -> bool {
        self.raw(i).is_none()
    }

    /// Column `i` as `T` (an `Option<T>` reads NULL as None); the message says why not.
    pub fn get<'a, T: FromSql<'a>>(&'a self, i: usize) -> Result<T, String> {
        if i >= self.ranges.len() {
            return Err(format!("no column {}", i + 1));
        }
        let ty = self.type_(i);
        if !T::accepts(ty) {
            return Err(format!(
                "column {} is {ty}, not {}",
                i + 1,
                std::any::type_name::<T>()
            ));
        }
        T::from_sql_nullable(ty, self.raw(i)).map_err(|e| format!("column {}: {e}", i + 1))
    }
}

/// What one round trip returned.
#[derive(Default)]
pub(super) struct Reply {
    pub(super) rows: Vec<Row>,
    /// The last CommandComplete's row count (0 for commands without one).
    pub(super) affected: u64,
    /// The last RowDescription's column types.
    pub(super) columns: Option<Arc<[Type]>>,
    /// The last RowDescription's column names.
    pub(super) names: Vec<String>,
}

/// A parameter in PostgreSQL's text form (the server parses it as the type it inferred).
pub(super) fn text_param(v: &Value, buf: &mut BytesMut) -> IsNull {
    match v {
        Value::Null => return IsNull::Yes,
        Value::Int(i) => {
            let _ = write!(buf, "{i}");
        }
        Value::Float(f) if f.is_nan() => buf.extend_from_slice(b"NaN"),
        Value::Float(f) if f.is_infinite() => {
            buf.extend_from_slice(if *f > 0.0 { b"Infinity" } else { b"-Infinity" })
        }
        Value::Float(f) => {
            let _ = write!(buf, "{f}");
        }
        Value::Text(s) => buf.extend_from_slice(s.as_bytes()),
    }
    IsNull::No
}

/// A buffer the tests can build rows from.
#[cfg(test)]
pub(super) fn data_row(cells: &[Option<&[u8]>]) -> DataRowBody {
    use bytes::BufMut;
    let mut body = BytesMut::new();
    body.put_i16(cells.len() as i16);
    for c in cells {
        match c {
            None => body.put_i32(-1),
            Some(b) => {
                body.put_i32(b.len() as i32);
                body.put_slice(b);
            }
        }
    }
    let mut msg = BytesMut::new();
    msg.put_u8(b'D');
    msg.put_i32(body.len() as i32 + 4);
    msg.put_slice(&body);
    match Message::parse(&mut msg) {
        Ok(Some(Message::DataRow(b))) => b,
        _ => unreachable!("a DataRow"),
    }
}
