//! Error types and the mapping from errors to exit codes.
//!
//! Everything that fails returns an `anyhow::Error`; the few failures that need a special
//! exit code carry a [`Failure`] somewhere in their chain.

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: an error (bad input, cannot connect, server failed).
pub const EXIT_ERROR: i32 = 1;
/// Exit code: a usage error (unknown flag or subcommand); clap uses it too.
pub const EXIT_USAGE: i32 = 2;
/// Exit code: the run completed but its numbers cannot be trusted.
pub const EXIT_INVALID: i32 = 3;
/// Exit code: interrupted by Ctrl-C or SIGTERM (128 + SIGINT).
pub const EXIT_INTERRUPTED: i32 = 130;

/// Failures that need an exit code other than [`EXIT_ERROR`].
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The command line is wrong in a way clap cannot see.
    #[error("{0}")]
    Usage(String),
    /// The run finished but is INVALID; the message lists the reasons.
    #[error("the run is INVALID: {0}")]
    Invalid(String),
    /// The user interrupted the command.
    #[error("interrupted")]
    Interrupted,
}

/// The exit code for an error returned by [`crate::run`].
pub fn exit_code(err: &anyhow::Error) -> i32 {
    for cause in err.chain() {
        if let Some(f) = cause.downcast_ref::<Failure>() {
            return match f {
                Failure::Usage(_) => EXIT_USAGE,
                Failure::Invalid(_) => EXIT_INVALID,
                Failure::Interrupted => EXIT_INTERRUPTED,
            };
        }
    }
    EXIT_ERROR
}

/// The error and its causes on one line, `outer: inner: innermost`, without repeats
/// (a context that already quotes its cause is not followed by the cause again).
pub fn one_line(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        let text = text.trim();
        if text.is_empty() || out.contains(text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(text);
    }
    out.replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn exit_codes_follow_the_failure_in_the_chain() {
        let plain = anyhow::anyhow!("boom");
        assert_eq!(exit_code(&plain), EXIT_ERROR);
        let invalid: anyhow::Error = Failure::Invalid("abort rate 40%".into()).into();
        assert_eq!(exit_code(&invalid.context("run tpcc")), EXIT_INVALID);
        let usage: anyhow::Error = Failure::Usage("--threads must be > 0".into()).into();
        assert_eq!(exit_code(&usage), EXIT_USAGE);
        let int: anyhow::Error = Failure::Interrupted.into();
        assert_eq!(exit_code(&int), EXIT_INTERRUPTED);
    }

    #[test]
    fn one_line_joins_causes_and_drops_repeats() {
        let err = Err::<(), _>(anyhow::anyhow!("connection refused"))
            .context("cannot connect")
            .unwrap_err();
        assert_eq!(one_line(&err), "cannot connect: connection refused");
        let err = Err::<(), _>(anyhow::anyhow!("refused"))
            .context("cannot connect: refused")
            .unwrap_err();
        assert_eq!(one_line(&err), "cannot connect: refused");
        let err = anyhow::anyhow!("two\nlines");
        assert_eq!(one_line(&err), "two lines");
    }
}
