//! The `patchval` executable: all work happens in the library; only here does the process exit.

fn main() -> std::process::ExitCode {
    patchval::cli::main().into()
}
