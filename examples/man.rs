//! Man pages from the command line's definition: one page per command and subcommand
//! (txbench.1, txbench-run.1, txbench-server-start.1 …) into the directory given.
//! `make man` runs it into target/man; the pages are generated, never committed.
//!
//! Usage: cargo run --example man -- DIR

use clap::CommandFactory;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: man DIR (the directory the pages are written to)");
        return ExitCode::from(2);
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("Error: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    if let Err(e) = clap_mangen::generate_to(txbench::cli::Cli::command(), &dir) {
        eprintln!(
            "Error: cannot write the man pages into {}: {e}",
            dir.display()
        );
        return ExitCode::FAILURE;
    }
    let pages = std::fs::read_dir(&dir)
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "1"))
                .count()
        })
        .unwrap_or(0);
    println!("{pages} man pages in {}", dir.display());
    ExitCode::SUCCESS
}
