//! Unit tests of `engine/mod.rs`, beside it so the subject stays readable.

use super::*;

#[test]
fn params_keep_order_and_types() {
    let v = (1u32, -2i64, "x", Some(2.5f64), None::<u32>).into_values();
    assert_eq!(
        v,
        vec![
            Value::Int(1),
            Value::Int(-2),
            Value::Text("x".into()),
            Value::Float(2.5),
            Value::Null
        ]
    );
    assert!(().into_values().is_empty());
}

#[test]
fn a_data_error_is_its_own_class_with_its_state() {
    let e = Error::Data("New-Order: SELECT item (i 7) found no row".into());
    assert_eq!(classify(&e), ErrorClass::Data);
    assert!(error_message(&e).ends_with("(TX236)"));
}
