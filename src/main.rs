//! The `txbench` binary: parse the command line, run, print `Error: …` and exit with the
//! documented code (0 ok, 1 error, 2 usage, 3 INVALID run, 130 interrupted).

#![cfg_attr(not(test), deny(clippy::too_many_lines))]

fn main() {
    // First, before any thread: glibc's per-thread cache off (src/malloc.rs).
    txbench::malloc::tune();
    let cli = txbench::cli::parse_args(std::env::args().collect()).unwrap_or_else(|e| {
        match txbench::cli::usage_error_line(&e) {
            Some(line) => {
                eprintln!("{line}");
                std::process::exit(2)
            }
            None => e.exit(),
        }
    });
    if let Some(store) = &cli.store {
        // The runs this command starts (an experiment's cells) record in the same store.
        let abs = std::env::current_dir()
            .map(|d| d.join(store))
            .unwrap_or_else(|_| store.clone());
        // SAFETY: no other thread exists yet.
        unsafe { std::env::set_var("TXBENCH_STORE", abs) };
    }
    let code = match txbench::run(cli) {
        Ok(code) => code,
        Err(err) => {
            // An error may quote a file someone else wrote: escape sequences never reach the
            // terminal raw.
            let line = txbench::error::one_line(&err);
            eprintln!("Error: {}", txbench::report::text::shown(&line));
            txbench::error::exit_code(&err)
        }
    };
    std::process::exit(code);
}
