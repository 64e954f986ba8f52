//! Process exit codes, in one place: every error kind of the library maps to one `ExitCode`
//! (`ExitCode::of`), and only `main` turns it into the process's exit.

/// How a command ended, as its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExitCode {
    /// Everything went as asked.
    Ok,
    /// The run finished but some patch sets or patches could not be validated (`E`, and the
    /// reasons, are in the results).
    Partial,
    /// The command line or an input file was wrong.
    Usage,
    /// The environment is missing something (JDK, JUnit, ASM) or the work dir cannot be used
    /// (not initialised, full disk, read-only).
    Environment,
    /// The project itself is unusable (does not compile, has no tests).
    Project,
    /// `fuzz` found patches on which the techniques disagree, `run --confirm-plausible` patches
    /// that plain validation does not find plausible, or `warm-check` tests whose results differ
    /// between fresh and warm class loaders.
    Disagreement,
    /// An internal error (a bug of patchval's).
    Internal,
    /// A SIGINT stopped the run before every set was validated (those written are complete;
    /// `run --resume` goes on): 128 + SIGINT, as a shell reports a command ended by Ctrl-C.
    Interrupted,
}

impl ExitCode {
    /// Every exit code, for tests and documentation.
    pub const ALL: [ExitCode; 8] = [
        ExitCode::Ok,
        ExitCode::Partial,
        ExitCode::Usage,
        ExitCode::Environment,
        ExitCode::Project,
        ExitCode::Disagreement,
        ExitCode::Internal,
        ExitCode::Interrupted,
    ];

    /// The process exit status.
    pub const fn code(self) -> i32 {
        match self {
            ExitCode::Ok => 0,
            ExitCode::Partial => 1,
            ExitCode::Usage => 2,
            ExitCode::Environment => 3,
            ExitCode::Project => 4,
            ExitCode::Disagreement => 5,
            ExitCode::Internal => 70,
            ExitCode::Interrupted => 130,
        }
    }

    /// The exit code whose status is `code`.
    pub fn from_code(code: i32) -> Option<ExitCode> {
        ExitCode::ALL.into_iter().find(|c| c.code() == code)
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(c: ExitCode) -> Self {
        std::process::ExitCode::from(c.code() as u8)
    }
}
