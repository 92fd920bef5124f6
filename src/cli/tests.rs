//! Unit tests of `cli.rs`, beside it so the subject stays readable.

use super::*;
use clap::CommandFactory;

#[test]
fn the_cli_definition_is_consistent() {
    Cli::command().debug_assert();
}

fn v(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn usage_errors_are_one_line_and_help_is_not_an_error() {
    let e = parse_args(v("txbench replay --server p --probes 2")).unwrap_err();
    let line = usage_error_line(&e).unwrap();
    assert_eq!(
        line,
        "Error: the following required arguments were not provided: --balanced"
    );
    let e = parse_args(v("txbench run --nosuch 1 oltp_insert")).unwrap_err();
    let line = usage_error_line(&e).unwrap();
    assert!(
        line.starts_with("Error: unexpected argument '--nosuch' found"),
        "{line}"
    );
    assert!(!line.contains('\n') && !line.contains("Usage"), "{line}");
    let e = parse_args(v("txbench prepare tpcb --history-key uuid")).unwrap_err();
    let line = usage_error_line(&e).unwrap();
    assert!(
        line.ends_with("[possible values: autoinc, none, client]"),
        "{line}"
    );
    let e = parse_args(v("txbench --help")).unwrap_err();
    assert_eq!(usage_error_line(&e), None);
}
