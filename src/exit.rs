//! Process exit codes, in one place; only `main` turns them into an exit.

/// Everything went as asked.
pub const OK: i32 = 0;
/// The run finished but some patch sets could not be validated (errors are in the results).
pub const PARTIAL: i32 = 1;
/// The command line or an input file was wrong.
pub const USAGE: i32 = 2;
/// The environment is missing something (JDK, JUnit, work dir).
pub const ENVIRONMENT: i32 = 3;
/// The project itself is unusable (does not compile, has no tests).
pub const PROJECT: i32 = 4;
/// `fuzz` found patches on which the techniques disagree (see its report), or `warm-check`
/// tests whose results differ between fresh and warm class loaders.
pub const DISAGREEMENT: i32 = 5;
/// A SIGINT stopped the run before every set was validated (those written are complete;
/// `run --resume` goes on). 128 + SIGINT, as a shell reports a command ended by Ctrl-C.
pub const INTERRUPTED: i32 = 130;
/// An internal error.
pub const INTERNAL: i32 = 70;
