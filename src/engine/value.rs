//! Values in engine-neutral form: parameters (one value, tuples, vectors) and the cells and
//! rows results are read into.

use super::*;

/// A parameter or cell value in engine-neutral form.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// Any integer.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// Text (also decimals written out, which each engine reads as its DECIMAL/NUMERIC).
    Text(String),
}

/// One statement parameter: an integer, a float, text, an Option of one, or a [`Value`].
pub trait Param {
    /// As the `mysql` crate's value (no copy of text).
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value;
    /// As a neutral value.
    fn into_value(self) -> Value;
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl Param for $t {
            #[cfg(feature = "mysql")]
            #[inline]
            fn into_mysql(self) -> ::mysql::Value {
                self.into()
            }
            #[inline]
            fn into_value(self) -> Value {
                Value::Int(self as i64)
            }
        }
    )*};
}
int_param!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

impl Param for f64 {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        self.into()
    }
    fn into_value(self) -> Value {
        Value::Float(self)
    }
}

impl Param for &str {
    #[cfg(feature = "mysql")]
    #[inline]
    fn into_mysql(self) -> ::mysql::Value {
        self.into()
    }
    fn into_value(self) -> Value {
        Value::Text(self.to_string())
    }
}

impl Param for &String {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        self.as_str().into()
    }
    fn into_value(self) -> Value {
        Value::Text(self.clone())
    }
}

impl Param for String {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        ::mysql::Value::Bytes(self.into_bytes())
    }
    fn into_value(self) -> Value {
        Value::Text(self)
    }
}

impl Param for &[u8] {
    #[cfg(feature = "mysql")]
    #[inline]
    fn into_mysql(self) -> ::mysql::Value {
        self.into()
    }
    fn into_value(self) -> Value {
        Value::Text(String::from_utf8_lossy(self).into_owned())
    }
}

macro_rules! value_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value {
                v.into_value()
            }
        }
    )*};
}
value_from!(i32, i64, u32, u64, f64, String, &str);

impl Param for Value {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        match self {
            Value::Null => ::mysql::Value::NULL,
            Value::Int(i) => ::mysql::Value::Int(i),
            Value::Float(f) => ::mysql::Value::Double(f),
            Value::Text(s) => ::mysql::Value::Bytes(s.into_bytes()),
        }
    }
    fn into_value(self) -> Value {
        self
    }
}

impl<T: Param> Param for Option<T> {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Value {
        self.map_or(::mysql::Value::NULL, Param::into_mysql)
    }
    fn into_value(self) -> Value {
        self.map_or(Value::Null, Param::into_value)
    }
}

/// A statement's parameters: `()`, a tuple of [`Param`]s, or a `Vec` of one type.
pub trait Params {
    /// As the `mysql` crate's positional parameters.
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Params;
    /// As neutral values.
    fn into_values(self) -> Vec<Value>;
}

impl Params for () {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Params {
        ::mysql::Params::Empty
    }
    fn into_values(self) -> Vec<Value> {
        Vec::new()
    }
}

impl<T: Param> Params for Vec<T> {
    #[cfg(feature = "mysql")]
    fn into_mysql(self) -> ::mysql::Params {
        if self.is_empty() {
            return ::mysql::Params::Empty;
        }
        ::mysql::Params::Positional(self.into_iter().map(Param::into_mysql).collect())
    }
    fn into_values(self) -> Vec<Value> {
        self.into_iter().map(Param::into_value).collect()
    }
}

macro_rules! tuple_params {
    ($($n:tt $t:ident),+) => {
        impl<$($t: Param),+> Params for ($($t,)+) {
            #[cfg(feature = "mysql")]
            #[inline]
            fn into_mysql(self) -> ::mysql::Params {
                ::mysql::Params::Positional(vec![$(self.$n.into_mysql()),+])
            }
            fn into_values(self) -> Vec<Value> {
                vec![$(self.$n.into_value()),+]
            }
        }
    };
}
tuple_params!(0 A);
tuple_params!(0 A, 1 B);
tuple_params!(0 A, 1 B, 2 C);
tuple_params!(0 A, 1 B, 2 C, 3 D);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K);
tuple_params!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L);

/// One cell of a result row, read as this type.
pub trait Cell: Sized {
    /// From the `mysql` crate's value.
    #[cfg(feature = "mysql")]
    fn from_mysql(v: ::mysql::Value) -> Result<Self>;
    /// From column `i` of a PostgreSQL row.
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self>;
}

/// A result row read as a tuple of [`Cell`]s (or a whole [`Row`]).
pub trait FromRow: Sized {
    /// From the `mysql` crate's row.
    #[cfg(feature = "mysql")]
    fn from_mysql(row: ::mysql::Row) -> Result<Self>;
    /// From a PostgreSQL row.
    #[cfg(feature = "postgres")]
    fn from_postgres(row: postgres::Row) -> Result<Self>;
}

/// A result as text: its columns' names and each row's cells as the server wrote them (None
/// for NULL).
pub type TextRows = (Vec<String>, Vec<Vec<Option<String>>>);

/// A whole row as neutral values (for rows read for their existence or shown as they are).
#[derive(Debug, Clone, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// Column `i` as text, if it is text.
    pub fn text(&self, i: usize) -> Option<&str> {
        match self.0.get(i) {
            Some(Value::Text(s)) => Some(s),
            _ => None,
        }
    }
}

/// A one-column row is its cell.
impl<T: Cell> FromRow for T {
    #[cfg(feature = "mysql")]
    #[inline]
    fn from_mysql(row: ::mysql::Row) -> Result<Self> {
        let mut cells = row.unwrap().into_iter();
        if cells.len() != 1 {
            return Err(Error::Decode(format!(
                "a row of {} columns, 1 expected",
                cells.len()
            )));
        }
        T::from_mysql(cells.next().unwrap_or(::mysql::Value::NULL))
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: postgres::Row) -> Result<Self> {
        if row.len() != 1 {
            return Err(Error::Decode(format!(
                "a row of {} columns, 1 expected",
                row.len()
            )));
        }
        T::from_postgres(&row, 0)
    }
}

impl FromRow for Row {
    #[cfg(feature = "mysql")]
    fn from_mysql(row: ::mysql::Row) -> Result<Self> {
        row.unwrap()
            .into_iter()
            .map(<Value as Cell>::from_mysql)
            .collect::<Result<_>>()
            .map(Row)
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: postgres::Row) -> Result<Self> {
        (0..row.len())
            .map(|i| <Value as Cell>::from_postgres(&row, i))
            .collect::<Result<_>>()
            .map(Row)
    }
}

macro_rules! tuple_row {
    ($len:expr; $($n:tt $t:ident),+) => {
        impl<$($t: Cell),+> FromRow for ($($t,)+) {
            #[cfg(feature = "mysql")]
            #[inline]
            fn from_mysql(row: ::mysql::Row) -> Result<Self> {
                let mut cells = row.unwrap().into_iter();
                if cells.len() != $len {
                    return Err(Error::Decode(format!(
                        "a row of {} columns, {} expected", cells.len(), $len
                    )));
                }
                Ok(($($t::from_mysql(cells.next().unwrap_or(::mysql::Value::NULL))?,)+))
            }
            #[cfg(feature = "postgres")]
            fn from_postgres(row: postgres::Row) -> Result<Self> {
                if row.len() != $len {
                    return Err(Error::Decode(format!(
                        "a row of {} columns, {} expected", row.len(), $len
                    )));
                }
                Ok(($($t::from_postgres(&row, $n)?,)+))
            }
        }
    };
}
tuple_row!(1; 0 A);
tuple_row!(2; 0 A, 1 B);
tuple_row!(3; 0 A, 1 B, 2 C);
tuple_row!(4; 0 A, 1 B, 2 C, 3 D);
tuple_row!(5; 0 A, 1 B, 2 C, 3 D, 4 E);
tuple_row!(6; 0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
tuple_row!(7; 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
tuple_row!(8; 0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);

macro_rules! int_cell {
    ($($t:ty),*) => {$(
        impl Cell for $t {
            #[cfg(feature = "mysql")]
            #[inline]
            fn from_mysql(v: ::mysql::Value) -> Result<Self> {
                ::mysql::from_value_opt::<$t>(v).map_err(|e| Error::Decode(e.to_string()))
            }
            #[cfg(feature = "postgres")]
            fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
                let v = postgres::int_cell(row, i)?;
                <$t>::try_from(v).map_err(|_| {
                    Error::Decode(format!("{v} does not fit {}", stringify!($t)))
                })
            }
        }
    )*};
}
int_cell!(i32, i64, u8, u16, u32, u64);

impl Cell for f64 {
    #[cfg(feature = "mysql")]
    fn from_mysql(v: ::mysql::Value) -> Result<Self> {
        ::mysql::from_value_opt::<f64>(v).map_err(|e| Error::Decode(e.to_string()))
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
        postgres::float_cell(row, i)
    }
}

impl Cell for String {
    #[cfg(feature = "mysql")]
    #[inline]
    fn from_mysql(v: ::mysql::Value) -> Result<Self> {
        ::mysql::from_value_opt::<String>(v).map_err(|e| Error::Decode(e.to_string()))
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
        match postgres::value_cell(row, i)? {
            Value::Null => Err(Error::Decode("NULL where text was expected".into())),
            Value::Text(s) => Ok(s),
            Value::Int(v) => Ok(v.to_string()),
            Value::Float(v) => Ok(v.to_string()),
        }
    }
}

impl Cell for Value {
    #[cfg(feature = "mysql")]
    fn from_mysql(v: ::mysql::Value) -> Result<Self> {
        Ok(match v {
            ::mysql::Value::NULL => Value::Null,
            ::mysql::Value::Int(i) => Value::Int(i),
            ::mysql::Value::UInt(u) => Value::Int(u as i64),
            ::mysql::Value::Float(f) => Value::Float(f64::from(f)),
            ::mysql::Value::Double(f) => Value::Float(f),
            ::mysql::Value::Bytes(b) => Value::Text(String::from_utf8_lossy(&b).into_owned()),
            other => Value::Text(other.as_sql(true).trim_matches('\'').to_string()),
        })
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
        postgres::value_cell(row, i)
    }
}

impl<T: Cell> Cell for Option<T> {
    #[cfg(feature = "mysql")]
    #[inline]
    fn from_mysql(v: ::mysql::Value) -> Result<Self> {
        match v {
            ::mysql::Value::NULL => Ok(None),
            v => T::from_mysql(v).map(Some),
        }
    }
    #[cfg(feature = "postgres")]
    fn from_postgres(row: &postgres::Row, i: usize) -> Result<Self> {
        if postgres::is_null(row, i) {
            Ok(None)
        } else {
            T::from_postgres(row, i).map(Some)
        }
    }
}
