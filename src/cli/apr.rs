//! The APR-study commands' arguments and what each does with them: `locate`, `generate`,
//! `bench`, `report` (data on stdout, errors as messages naming the file and exit codes).

use crate::exit::ExitCode;
use crate::workdir::WorkDir;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct LocateArgs {
    #[arg(long = "work-dir", short = 'w')]
    pub work_dir: PathBuf,
    /// The suspiciousness formula.
    #[arg(long, value_enum, default_value_t)]
    pub formula: crate::locate::Formula,
    /// Lines shown in the table (`--json`: lines written; 0 for all).
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Print the ranking as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Rank every line that all failing tests execute before the others (by default that only
    /// breaks ties of score).
    #[arg(long = "must-first")]
    pub must_first: bool,
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    #[arg(long = "work-dir", short = 'w')]
    pub work_dir: PathBuf,
    /// Locations taken: the first K of `locate`'s ranking or of `--locations`.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Patches in all.
    #[arg(long = "max-patches", default_value_t = 2000)]
    pub max_patches: usize,
    /// Patches at one location.
    #[arg(long = "per-location", default_value_t = 200)]
    pub per_location: usize,
    /// Locations from a file of `Class@line` lines (TBar's form of GZoltar's ranking; an
    /// optional `@score` or `,score` is ignored) instead of `locate`'s ranking.
    #[arg(long)]
    pub locations: Option<PathBuf>,
    /// The formula of `locate`'s ranking.
    #[arg(long, value_enum, default_value_t)]
    pub formula: crate::locate::Formula,
    /// Where the sets go (emptied first); default WORK/generated.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// 2: also pairs of candidates at two of the locations (multi-location patches, written
    /// as one edit list `gen-pairs.json`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub order: u8,
    /// Pairs in all, with `--order 2`.
    #[arg(long = "max-pairs", default_value_t = 200)]
    pub max_pairs: usize,
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The bugs: a TOML file of `[[bug]]` tables (`name` and one of `work_dir`, `project`,
    /// `maven`, `defects4j`) or a CSV file with the columns `name,kind,path`.
    #[arg(long)]
    pub bugs: PathBuf,
    /// Where rows, generated sets and new work dirs go.
    #[arg(long, default_value = "bench")]
    pub out: PathBuf,
    /// Techniques, comma-separated: plain, no-dedup, default.
    #[arg(long, value_delimiter = ',', default_value = "plain,no-dedup,default")]
    pub techniques: Vec<String>,
    /// Worker processes per technique (default: one per core).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// `generate`'s locations, and patches per location and in all, per bug.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    #[arg(long = "per-location", default_value_t = 50)]
    pub per_location: usize,
    #[arg(long = "max-patches", default_value_t = 300)]
    pub max_patches: usize,
    /// The formula of `locate`'s ranking.
    #[arg(long, value_enum, default_value_t)]
    pub formula: crate::locate::Formula,
    /// `generate --order 2`: also pairs at two locations, at most `--max-pairs`.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub order: u8,
    #[arg(long = "max-pairs", default_value_t = 50)]
    pub max_pairs: usize,
    /// An external validator as one more technique, `NAME=COMMAND` (repeatable): COMMAND runs
    /// with `sh -c` once per manifest-v3 set, `{set}`, `{work}` and `{project}` replaced by
    /// quoted paths, and prints an ExpressAPR result line (a JSON object with `succlist`).
    #[arg(long = "external", value_name = "NAME=COMMAND")]
    pub external: Vec<crate::bench::external::External>,
}

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("subject").required(true).args(["run", "bench"])))]
pub struct ReportArgs {
    /// A run directory (WORK/runs/NNNN) or a work dir (its latest run).
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// A bench's output directory (bench.json).
    #[arg(long)]
    pub bench: Option<PathBuf>,
    /// Where the two files go (default: the run's or the bench's directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn locate(a: LocateArgs) -> ExitCode {
    let wd = WorkDir::new(&a.work_dir);
    match crate::locate::locate(&wd, a.formula, a.must_first) {
        Ok(mut l) => {
            let top = if a.top == 0 { usize::MAX } else { a.top };
            if a.json {
                l.suspects.truncate(top);
                match serde_json::to_string_pretty(&l) {
                    Ok(text) => println!("{text}"),
                    Err(e) => {
                        eprintln!("patchval locate: {e}");
                        return ExitCode::Internal;
                    }
                }
            } else {
                print!("{}", crate::locate::table(&l, top));
            }
            ExitCode::Ok
        }
        Err(e) => {
            eprintln!("patchval locate: {e}");
            e.exit_code()
        }
    }
}

/// One line per set written on stdout (path, place, patches, families), a summary and what was
/// skipped on stderr.
pub fn generate(a: GenerateArgs) -> ExitCode {
    let args = crate::generate::GenerateArgs {
        top: a.top,
        max_patches: a.max_patches,
        per_location: a.per_location,
        locations: a.locations,
        formula: a.formula,
        out: a.out.unwrap_or_else(|| a.work_dir.join("generated")),
        order: a.order as usize,
        max_pairs: a.max_pairs,
    };
    match crate::generate::generate(&WorkDir::new(&a.work_dir), &args) {
        Ok(g) => {
            for s in &g.sets {
                let families: Vec<String> =
                    s.families.iter().map(|(f, n)| format!("{f}={n}")).collect();
                println!(
                    "{}\t{}\t{} patches\t{}",
                    s.path.display(),
                    s.place,
                    s.patches,
                    families.join(",")
                );
            }
            for why in &g.skipped {
                eprintln!("skipped {why}");
            }
            let total: usize = g.sets.iter().map(|s| s.patches).sum();
            eprintln!(
                "generated {total} patches in {} sets into {}{}",
                g.sets.len(),
                args.out.display(),
                if g.unparsable > 0 {
                    format!(
                        " ({} candidates dropped: the patched file did not parse)",
                        g.unparsable
                    )
                } else {
                    String::new()
                }
            );
            if g.refused > 0 {
                let why: Vec<String> = g
                    .refused_why
                    .iter()
                    .map(|(w, n)| format!("{n} {w}"))
                    .collect();
                eprintln!(
                    "dropped {} candidates javac would refuse: {}",
                    g.refused,
                    why.join("; ")
                );
            }
            ExitCode::Ok
        }
        Err(e) => {
            eprintln!("patchval generate: {e}");
            e.exit_code()
        }
    }
}

pub fn bench(a: BenchArgs, default_jobs: usize) -> ExitCode {
    let config = crate::bench::Config {
        techniques: a.techniques,
        jobs: a.jobs.unwrap_or(default_jobs),
        top: a.top,
        per_location: a.per_location,
        max_patches: a.max_patches,
        formula: a.formula,
        order: a.order as usize,
        max_pairs: a.max_pairs,
        external: a.external,
    };
    match crate::bench::bench(&a.bugs, &a.out, &config) {
        Ok(record) => {
            print!("{}", crate::bench::table(&record));
            if record.interrupted {
                ExitCode::Interrupted
            } else if record.rows.iter().any(|r| r.disagreements.unwrap_or(0) > 0) {
                ExitCode::Disagreement
            } else if record.failed.is_empty() {
                ExitCode::Ok
            } else {
                ExitCode::Partial
            }
        }
        Err(e) => {
            eprintln!("patchval bench: {e}");
            e.exit_code()
        }
    }
}

pub fn report(a: ReportArgs) -> ExitCode {
    let subject = match (a.run, a.bench) {
        (Some(r), _) => crate::page::Subject::Run(r),
        (_, Some(b)) => crate::page::Subject::Bench(b),
        (None, None) => unreachable!("clap requires one of them"),
    };
    match crate::page::report(&subject, a.out.as_deref()) {
        Ok((html, md)) => {
            println!("{}\n{}", html.display(), md.display());
            ExitCode::Ok
        }
        Err(e) => {
            eprintln!("patchval report: {e}");
            e.exit_code()
        }
    }
}
