//! Unit tests of `engine/postgres/wire.rs`, beside it so the subject stays readable.

use super::*;

fn text(v: &Value) -> Option<String> {
    let mut b = BytesMut::new();
    match text_param(v, &mut b) {
        IsNull::Yes => None,
        IsNull::No => Some(String::from_utf8(b.to_vec()).unwrap()),
    }
}

#[test]
fn parameters_go_in_postgresql_text_form() {
    assert_eq!(text(&Value::Int(-42)).as_deref(), Some("-42"));
    assert_eq!(text(&Value::Float(0.1)).as_deref(), Some("0.1"));
    assert_eq!(
        text(&Value::Float(f64::INFINITY)).as_deref(),
        Some("Infinity")
    );
    assert_eq!(text(&Value::Float(f64::NAN)).as_deref(), Some("NaN"));
    assert_eq!(text(&Value::Text("a'b".into())).as_deref(), Some("a'b"));
    assert_eq!(text(&Value::Null), None);
}

#[test]
fn rows_read_binary_columns_and_nulls() {
    let cols: Arc<[Type]> = vec![Type::INT4, Type::TEXT, Type::INT8].into();
    let row = Row::new(
        cols,
        data_row(&[Some(&7i32.to_be_bytes()), Some(b"abc"), None]),
    )
    .unwrap();
    assert_eq!(row.len(), 3);
    assert_eq!(row.get::<i32>(0).unwrap(), 7);
    assert_eq!(row.get::<String>(1).unwrap(), "abc");
    assert!(row.is_null(2));
    assert_eq!(row.get::<Option<i64>>(2).unwrap(), None);
    assert!(row.get::<i64>(2).is_err(), "NULL into a non-Option");
    assert!(
        row.get::<String>(0)
            .unwrap_err()
            .contains("column 1 is int4")
    );
    assert!(row.get::<i32>(3).unwrap_err().contains("no column 4"));
}

#[test]
fn timeouts_are_told_from_other_failures() {
    let io = |k| Error::Io(io::Error::new(k, "x"));
    assert!(io(io::ErrorKind::TimedOut).is_timeout());
    assert!(io(io::ErrorKind::WouldBlock).is_timeout());
    assert!(!io(io::ErrorKind::ConnectionRefused).is_timeout());
    assert!(!Error::Closed.is_timeout());
}

#[test]
fn fatal_errors_close_the_connection() {
    let fatal = Error::Db(Box::new(DbError {
        severity: "FATAL".into(),
        code: "57P01".into(),
        message: "terminating connection due to administrator command".into(),
    }));
    assert!(fatal.is_closed());
    let plain = Error::Db(Box::new(DbError {
        severity: "ERROR".into(),
        code: "40001".into(),
        message: "could not serialize access".into(),
    }));
    assert!(!plain.is_closed());
}
