//! The command line: `init`, `run`, `fuzz`, `serve`, `merge`, `warm-check`, the hidden `worker`,
//! and the APR-study commands of `apr.rs`; turns errors into messages and exit codes.

mod apr;

use crate::exit::ExitCode;
use crate::init::warm_baseline::BaselineMode;
use crate::model::Technique;
use crate::project::{self, Overrides};
use crate::toolchain::Toolchain;
use crate::workdir::WorkDir;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "patchval",
    version,
    about = "Fast patch validation for Java program repair"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process; `Init`'s many options outweigh boxing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Compile the unpatched project, discover and run its tests, and record the baseline in the work dir.
    #[command(group(clap::ArgGroup::new("kind").required(true).args(["project", "maven", "defects4j"])))]
    Init {
        /// The project's root directory (Maven layout, patchval.toml, or flags).
        #[arg(long)]
        project: Option<PathBuf>,
        /// A Maven project (pom.xml; multi-module projects are validated as one).
        #[arg(long)]
        maven: Option<PathBuf>,
        /// Local Maven repository to resolve dependencies from (offline).
        #[arg(long = "maven-repo", requires = "maven")]
        maven_repo: Option<PathBuf>,
        /// A checkout made by `defects4j checkout`.
        #[arg(long)]
        defects4j: Option<PathBuf>,
        /// Where patchval keeps its state and results.
        #[arg(long = "work-dir", short = 'w')]
        work_dir: PathBuf,
        /// Source root (repeatable), relative to the project; default src/main/java.
        #[arg(long)]
        src: Vec<String>,
        /// Test root (repeatable), relative to the project; default src/test/java.
        #[arg(long)]
        test: Vec<String>,
        /// Dependency class path entries (':'-separated, globs allowed), relative to the project.
        #[arg(long)]
        classpath: Vec<String>,
        /// Java release to compile for (default 8).
        #[arg(long)]
        release: Option<String>,
        /// Extra JVM option for running tests (repeatable).
        #[arg(long = "jvm-opt", allow_hyphen_values = true)]
        jvm_opt: Vec<String>,
        /// Leave out tests matching this glob over `Class#method` or `Class` (repeatable).
        #[arg(long = "exclude-test")]
        exclude_test: Vec<String>,
        /// Leave a test source file out of the test compile: a glob over its path below the test
        /// directory, `*` within one directory, `**/` across any (repeatable; like Maven's
        /// `<testExclude>`), e.g. for tests needing a library that is not available.
        #[arg(long = "exclude-test-source")]
        exclude_test_source: Vec<String>,
        /// Seconds one test may take in the baseline run before it is excluded.
        #[arg(long = "baseline-timeout", default_value_t = crate::init::BASELINE_TIMEOUT.as_secs())]
        baseline_timeout: u64,
        /// Keep a fresh class loader for every test run (no warm loader, see docs/warm-loaders.md).
        #[arg(long = "no-warm", conflicts_with = "check_warm")]
        no_warm: bool,
        /// Run the baseline in fresh class loaders, then every test again in the warm loader, and
        /// let a test class run warm only when both gave the same results (slower; the default
        /// runs the baseline warm and checks only the classes with a test that does not pass).
        #[arg(long = "check-warm")]
        check_warm: bool,
        /// Worker processes the baseline's tests are spread over (default: number of cores).
        #[arg(short = 'j', long = "jobs")]
        jobs: Option<usize>,
    },
    /// Validate patch sets (ExpressAPR manifest v3 JSON files, directories or globs).
    Run {
        #[arg(long = "work-dir", short = 'w')]
        work_dir: PathBuf,
        /// Number of worker processes (default: number of cores).
        #[arg(short = 'j', long = "jobs")]
        jobs: Option<usize>,
        #[arg(long, value_enum, default_value = "schemata")]
        technique: Technique,
        /// Run every woven patch in its own rounds (no deduplication of test-equivalent patches).
        #[arg(long = "no-dedup")]
        no_dedup: bool,
        /// A worker without a set of its own runs chunks of another set's remaining tests; a
        /// chunk holds tests of at least this much baseline time (0: as many chunks as useful).
        #[arg(long = "split-ms", default_value_t = crate::schedule::share::MIN_CHUNK_MS)]
        split_ms: f64,
        /// Never spread one set's tests over several workers.
        #[arg(long = "no-split", conflicts_with = "split_ms")]
        no_split: bool,
        /// Run every test for every set (no selection of the tests that executed the patched
        /// method at init).
        #[arg(long = "all-tests")]
        all_tests: bool,
        /// Reuse the results of earlier runs in this work dir for the sets they decided with the
        /// same patchval version, technique, options, work-dir state and set content (sets with
        /// an `E` verdict or an error are validated again).
        #[arg(long)]
        resume: bool,
        /// Run every selected test for every patch instead of stopping at its first failure, and
        /// record each run in details.jsonl (a kill matrix, for ranking partial fixes); the
        /// verdicts do not change.
        #[arg(long)]
        matrix: bool,
        /// Validate every plausible patch once more by plain validation (its own javac call, a
        /// fresh JVM); where plain validation disagrees, its verdict is the patch's, the
        /// disagreement is printed and recorded (`extra.confirmation`), and the exit status is 5.
        #[arg(long = "confirm-plausible")]
        confirm_plausible: bool,
        /// What the arguments are. `auto` tells them apart: `.json` files are ExpressAPR
        /// manifests (with or without `interface`), edit lists, Recoder's candidate records or
        /// LLM repairers' records; `.diff`/`.patch` files unified diffs; `.jsonl` files one diff
        /// (a JSON string, or an object with `diff` and `name`), one Recoder record, or one LLM
        /// repairer's record (`file` with a whole new method in `text`, or a method-relative
        /// `diff`) per line; `Patch*.txt` files TBar's patches (a diff or its `===Buggy Code===`
        /// block); `.txt`/`.md` files holding `<<<<<<< SEARCH` blocks SEARCH/REPLACE edits.
        /// Directories are searched at every level (a TBar result directory as it is). Patches
        /// other than manifests are grouped into sets by the location they change.
        #[arg(long, value_enum, default_value = "auto")]
        format: crate::patchset::inputs::Format,
        /// The same as `--format diff`: the arguments are unified diffs, one patch each (any
        /// extension but `.jsonl`, which holds one per line).
        #[arg(long, conflicts_with = "format")]
        diff: bool,
        /// Validate only shard K of N of the sets (`K/N`, 0 <= K < N): a deterministic partition,
        /// balanced by predicted cost, the same on every machine (`merge` puts the shards' runs
        /// together). `auto`: the shard a job engine gives (Slurm job arrays:
        /// SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; Kubernetes Indexed Jobs:
        /// JOB_COMPLETION_INDEX with `--shard-count`).
        #[arg(long)]
        shard: Option<String>,
        /// The number of shards for `--shard auto` where the engine does not say (Kubernetes).
        #[arg(long = "shard-count")]
        shard_count: Option<usize>,
        /// The project checkout is here, not where `init` read it (a work dir copied to another
        /// machine).
        #[arg(long = "project-root")]
        project_root: Option<PathBuf>,
        /// Patch files, directories or glob patterns (see `--format`).
        #[arg(required = true)]
        patchsets: Vec<String>,
    },
    /// Differential fuzzing: random patch sets validated by the default, --no-dedup and plain.
    Fuzz(crate::fuzz::FuzzArgs),
    /// A long-lived validator for repair loops: JSON-lines requests on stdin (or a Unix socket),
    /// each patch's verdict streamed back as soon as it is known (see `src/serve.rs` and README).
    Serve {
        #[arg(long = "work-dir", short = 'w')]
        work_dir: PathBuf,
        /// Number of worker processes (default: number of cores).
        #[arg(short = 'j', long = "jobs")]
        jobs: Option<usize>,
        #[arg(long, value_enum, default_value = "schemata")]
        technique: Technique,
        /// Run every woven patch in its own rounds (no deduplication of test-equivalent patches).
        #[arg(long = "no-dedup")]
        no_dedup: bool,
        /// Serve on this Unix socket (each connection a client) instead of stdin and stdout.
        #[arg(long)]
        socket: Option<PathBuf>,
    },
    /// Put the runs of a sharded run (`run --shard K/N`, each a `WORK/runs/NNNN/` directory from
    /// any machine) together into one record: result.jsonl, details.jsonl and run.json.
    Merge {
        /// Where the merged record goes (created).
        #[arg(long)]
        out: PathBuf,
        /// The shards' run directories.
        #[arg(required = true)]
        runs: Vec<PathBuf>,
    },
    /// Rank the source lines most likely to hold the fault: spectrum-based fault localization over
    /// the line coverage `init` recorded (failing tests against passing ones).
    Locate(apr::LocateArgs),
    /// Write candidate patches at the most suspicious statements (TBar's fix-pattern families), one
    /// manifest-v3 set per location, for `run`.
    Generate(apr::GenerateArgs),
    /// For each bug of a list: init if needed, locate, generate, and validate the same patches with
    /// several techniques side by side; rows in OUT/bench.json and OUT/bench.csv (resumable).
    Bench(apr::BenchArgs),
    /// Write a run or a bench as one self-contained HTML page (report.html) and a Markdown
    /// summary (report.md).
    Report(apr::ReportArgs),
    /// Run the passing tests in fresh class loaders and in one warm loader whose static state is
    /// reset before every test, side by side; list the tests whose results differ.
    WarmCheck {
        #[arg(long = "work-dir", short = 'w')]
        work_dir: PathBuf,
        /// Only the tests matching this glob over `Class#method` or `Class` (repeatable).
        #[arg(long)]
        test: Vec<String>,
        /// Runs of the whole list each way; the last one is timed (the earlier ones warm the JIT).
        #[arg(long, default_value_t = 1)]
        rounds: u32,
        /// Keep earlier tests' static state in the warm loader (shows what the reset is for).
        #[arg(long = "no-reset")]
        no_reset: bool,
    },
    /// Internal: a worker process embedding one JVM.
    #[command(hide = true)]
    Worker {
        #[arg(long = "java-home")]
        java_home: PathBuf,
        #[arg(long = "class-path")]
        class_path: String,
        #[arg(long = "jvm-opt", allow_hyphen_values = true)]
        jvm_opt: Vec<String>,
    },
}

/// Logs on stderr at `default` level (or `PATCHVAL_LOG`'s filter), with colours only when
/// stderr is a terminal and `NO_COLOR` is not set (https://no-color.org).
fn init_logging(default: &str) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_env("PATCHVAL_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let colour = std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colour)
        .with_target(false)
        .try_init();
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::Usage
            } else {
                ExitCode::Ok
            };
        }
    };
    match cli.command {
        Command::Worker {
            java_home,
            class_path,
            jvm_opt,
        } => {
            init_logging("warn");
            match crate::worker::serve(&java_home, &class_path, &jvm_opt) {
                Ok(()) => ExitCode::Ok,
                Err(e) => {
                    eprintln!("patchval worker: {e}");
                    ExitCode::Environment
                }
            }
        }
        Command::Fuzz(args) => {
            init_logging("info");
            crate::fuzz::command(&args)
        }
        Command::Serve {
            work_dir,
            jobs,
            technique,
            no_dedup,
            socket,
        } => {
            init_logging("info");
            let options = crate::core::Options {
                jobs: jobs.unwrap_or_else(default_jobs).max(1),
                technique,
                dedup: !no_dedup,
                ..Default::default()
            };
            match crate::serve::serve(&WorkDir::new(&work_dir), options, socket.as_deref()) {
                Ok(()) => ExitCode::Ok,
                Err(e) => {
                    eprintln!("patchval serve: {e}");
                    e.exit_code()
                }
            }
        }
        Command::Merge { out, runs } => {
            init_logging("info");
            match crate::merge::merge(&runs, &out) {
                Ok(m) => {
                    let counts: Vec<String> =
                        m.verdicts.iter().map(|(v, n)| format!("{n} {v}")).collect();
                    println!(
                        "merged {} runs: {} patch sets ({}) into {}",
                        runs.len(),
                        m.sets,
                        counts.join(", "),
                        out.display()
                    );
                    ExitCode::Ok
                }
                Err(e) => {
                    eprintln!("patchval merge: {e}");
                    e.exit_code()
                }
            }
        }
        Command::Locate(args) => {
            init_logging("warn");
            apr::locate(args)
        }
        Command::Generate(args) => {
            init_logging("warn");
            apr::generate(args)
        }
        Command::Bench(args) => {
            init_logging("info");
            apr::bench(args, default_jobs())
        }
        Command::Report(args) => {
            init_logging("warn");
            apr::report(args)
        }
        Command::WarmCheck {
            work_dir,
            test,
            rounds,
            no_reset,
        } => {
            init_logging("info");
            warm_check(&WorkDir::new(&work_dir), &test, rounds, !no_reset)
        }
        Command::Init {
            project,
            maven,
            maven_repo,
            defects4j,
            work_dir,
            src,
            test,
            classpath,
            release,
            jvm_opt,
            exclude_test,
            exclude_test_source,
            baseline_timeout,
            no_warm,
            check_warm,
            jobs,
        } => {
            init_logging("info");
            let flags = Overrides {
                src,
                test,
                classpath,
                release,
                jvm_options: jvm_opt,
                exclude_tests: exclude_test,
                exclude_test_sources: exclude_test_source,
            };
            let result = (|| {
                let tools = Toolchain::detect()?;
                let from_flags = project.is_some();
                let (mut model, triggers) = match (project, maven, defects4j) {
                    (_, Some(dir), _) => {
                        (project::maven::load(&dir, maven_repo.as_deref())?, vec![])
                    }
                    (_, _, Some(dir)) => {
                        let c = project::defects4j::load(&dir)?;
                        (c.project, c.triggers)
                    }
                    (Some(dir), _, _) => (project::load(&dir, &flags)?, vec![]),
                    (None, None, None) => unreachable!("clap requires one of them"),
                };
                if !from_flags {
                    flags.apply(&mut model);
                }
                let options = crate::init::Options {
                    baseline_timeout: std::time::Duration::from_secs(baseline_timeout),
                    declared_triggers: triggers,
                    mode: match (no_warm, check_warm) {
                        (true, _) => BaselineMode::Fresh,
                        (_, true) => BaselineMode::Checked,
                        _ => BaselineMode::Warm,
                    },
                    jobs: jobs.unwrap_or_else(default_jobs),
                };
                crate::init::init(&WorkDir::new(&work_dir), model, tools, &options)
            })();
            match result {
                Ok(state) => {
                    println!("{}", crate::report::init_summary(&state));
                    ExitCode::Ok
                }
                Err(e) => {
                    eprintln!("patchval init: {e}");
                    e.exit_code()
                }
            }
        }
        Command::Run {
            work_dir,
            jobs,
            technique,
            no_dedup,
            split_ms,
            no_split,
            all_tests,
            resume,
            matrix,
            confirm_plausible,
            format,
            diff,
            shard,
            shard_count,
            project_root,
            patchsets,
        } => {
            init_logging("info");
            let jobs = jobs.unwrap_or_else(default_jobs).max(1);
            let shard = match shard.as_deref() {
                None => None,
                Some("auto") => Some(crate::shard::Shard::from_env(shard_count, &|k| {
                    std::env::var(k).ok()
                })),
                Some(spec) => Some(crate::shard::Shard::parse(spec)),
            };
            let shard = match shard.transpose() {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("patchval run: --shard: {e}");
                    return ExitCode::Usage;
                }
            };
            let options = crate::run::Options {
                core: crate::core::Options {
                    jobs,
                    technique,
                    dedup: !no_dedup,
                    split_ms: (!no_split).then_some(split_ms.max(0.0)),
                    all_tests,
                    matrix,
                    resume,
                    progress: true,
                    project_root,
                    warm_up: false,
                    confirm_plausible,
                },
                shard,
                format: if diff {
                    crate::patchset::inputs::Format::Diff
                } else {
                    format
                },
            };
            match crate::run::run(&WorkDir::new(&work_dir), &patchsets, &options) {
                Ok(summary) if summary.not_validated.is_some() => ExitCode::Interrupted,
                Ok(summary) if summary.totals.disagreements > 0 => ExitCode::Disagreement,
                Ok(summary) if summary.all_validated() => ExitCode::Ok,
                Ok(_) => ExitCode::Partial,
                Err(e) => {
                    eprintln!("patchval run: {e}");
                    e.exit_code()
                }
            }
        }
    }
}

/// `warm-check`: prints each differing test and the summary; exit 0 when none differ,
/// `Disagreement` when some do.
fn warm_check(wd: &WorkDir, test: &[String], rounds: u32, reset: bool) -> ExitCode {
    let mut only = Vec::new();
    for g in test {
        match glob::Pattern::new(g) {
            Ok(p) => only.push(p),
            Err(e) => {
                eprintln!("patchval warm-check: --test pattern {g:?}: {e}");
                return ExitCode::Usage;
            }
        }
    }
    match crate::core::warm_check(wd, &only, rounds, reset) {
        Ok(report) => {
            for d in &report.differences {
                println!("differs\t{}\tfresh: {}\twarm: {}", d.test, d.fresh, d.warm);
            }
            for line in &report.summary {
                println!("{line}");
            }
            if report.differences.is_empty() {
                ExitCode::Ok
            } else {
                ExitCode::Disagreement
            }
        }
        Err(e) => {
            eprintln!("patchval warm-check: {e}");
            e.exit_code()
        }
    }
}

/// Workers when `-j` is not given: one per core.
fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}
