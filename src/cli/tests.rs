//! Unit tests of `cli.rs`, beside it so the subject stays readable.

use super::*;
use clap::CommandFactory;

#[test]
fn the_cli_definition_is_consistent() {
    Cli::command().debug_assert();
}
