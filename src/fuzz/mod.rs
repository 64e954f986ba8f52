//! `patchval fuzz`, the differential fuzzer: seeded random statement locations of an initialised
//! project (`locate.rs`; a fifth of them paired with a later statement of the file, in the same
//! method or another, each patch changing one or both: `locate::pair`, `mutate::pair`), patch
//! sets made by mutation operators (`mutate.rs`, `hazard.rs`, `stackread.rs`) and written as
//! manifest-v3 files, validated by the default technique,
//! `--no-dedup` and plain (`compare.rs`); every patch on which they disagree is validated again
//! by plain, and where plain repeats its verdict printed and reduced to a minimal reproducer
//! (`reduce.rs`). Exits non-zero when any disagreement is found.

pub mod compare;
pub mod declared;
pub mod hazard;
pub mod locate;
pub mod mutate;
pub mod reduce;
pub mod rng;
pub mod spot;
pub mod stackread;
#[cfg(test)]
mod tests;
pub mod whole;

use crate::exit::ExitCode;
use crate::model::PatchSet;
use crate::workdir::WorkDir;
use anyhow::Context;
use compare::{Compared, Disagreement, TechRun, TECHS};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `fuzz` subcommand's options.
#[derive(clap::Args, Debug, Clone)]
pub struct FuzzArgs {
    /// An initialised work dir (`patchval init`): the project and its baseline.
    #[arg(long = "work-dir", short = 'w')]
    pub work_dir: PathBuf,
    /// Seed of the random choices (locations and patches); the same seed gives the same sets.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of statement locations (one patch set each).
    #[arg(long, default_value_t = 10)]
    pub locations: usize,
    /// Maximum number of patches per location.
    #[arg(long, default_value_t = 12)]
    pub patches: usize,
    /// Number of worker processes for every technique (default: number of cores).
    #[arg(short = 'j', long = "jobs")]
    pub jobs: Option<usize>,
    /// Where the generated sets (`sets/`), reproducers (`disagreements/`) and `summary.json` go.
    #[arg(long)]
    pub out: PathBuf,
    /// Report disagreements without reducing them to minimal reproducers.
    #[arg(long = "no-reduce")]
    pub no_reduce: bool,
    /// Keep the tests that fail on the unpatched program (by default they are left out, or every
    /// patch away from the seeded bug would stop at them with `F`).
    #[arg(long = "keep-failing-tests")]
    pub keep_failing_tests: bool,
    /// Patch only main source files whose path below the project root matches this glob
    /// (repeatable), e.g. `**/math/*.java` on a large project.
    #[arg(long = "file")]
    pub files: Vec<String>,
    /// Run only the tests matching this glob over `Class#method` or `Class` (repeatable; the
    /// same patterns as `--exclude-test`), so that a large suite is cut to the tests of `--file`.
    #[arg(long = "test")]
    pub tests: Vec<String>,
}

/// Compiled `--file`/`--test` globs; a bad pattern is a usage error naming it.
fn patterns(globs: &[String], what: &str) -> anyhow::Result<Vec<glob::Pattern>> {
    globs
        .iter()
        .map(|g| glob::Pattern::new(g).with_context(|| format!("{what} pattern {g:?}")))
        .collect()
}

/// The work dir the fuzzer validates in, `OUT/work`: the given one's state (without the tests
/// that fail on the unpatched program unless `keep_failing`), its coverage record and links to
/// its compiled classes, so the fuzzer's results, logs and worker copies never mix with the
/// user's.
pub fn fuzz_workdir(
    wd: &WorkDir,
    out: &Path,
    keep_failing: bool,
    only: &[glob::Pattern],
) -> anyhow::Result<WorkDir> {
    let mut state = wd.load()?;
    let dropped = state.tests.iter().filter(|t| !t.passed).count();
    if !keep_failing {
        state.tests.retain(|t| t.passed);
    }
    if !only.is_empty() {
        state.tests.retain(|t| {
            let id = format!("{}#{}", t.id.class, t.id.method);
            only.iter()
                .any(|g| g.matches(&id) || g.matches(&t.id.class))
        });
    }
    anyhow::ensure!(
        !state.tests.is_empty(),
        "no test passes on the unpatched program{}",
        if only.is_empty() {
            ""
        } else {
            " among those matching --test"
        }
    );
    let fw = WorkDir::new(&out.join("work"));
    let _ = std::fs::remove_dir_all(&fw.root);
    std::fs::create_dir_all(&fw.root).with_context(|| fw.root.display().to_string())?;
    for (from, to) in [
        (wd.classes(), fw.classes()),
        (wd.test_classes(), fw.test_classes()),
    ] {
        std::os::unix::fs::symlink(&from, &to)
            .with_context(|| format!("linking {} to {}", to.display(), from.display()))?;
    }
    fw.save(&state)
        .with_context(|| fw.state().display().to_string())?;
    // Init's coverage comes along, so the default technique selects tests as it does in a
    // user's `run` (and the comparison with plain checks the selection too); without it every
    // patch ran every test. Entries of the tests left out above are never looked up.
    if wd.coverage().is_file() {
        std::fs::copy(wd.coverage(), fw.coverage()).with_context(|| {
            format!(
                "copying {} to {}",
                wd.coverage().display(),
                fw.coverage().display()
            )
        })?;
    }
    if !keep_failing && dropped > 0 {
        tracing::info!("left out {dropped} tests failing on the unpatched program");
    }
    Ok(fw)
}

/// A generated patch set.
pub struct GenSet {
    pub path: PathBuf,
    pub set: PatchSet,
    pub ops: Vec<&'static str>,
    /// `file:line` of the patched statement (`file:line+line` for a paired location).
    pub place: String,
    pub in_loop: bool,
}

/// The share of locations paired with a later statement of the same file, each patch changing
/// one or both.
const PAIRED: f64 = 0.2;

/// The share of the other locations whose patches rewrite their whole method (`whole`).
const WHOLE: f64 = 0.2;

/// Picks the locations and writes one manifest per location into `dir`.
pub fn generate(
    wd: &WorkDir,
    seed: u64,
    locations: usize,
    patches: usize,
    only: &[glob::Pattern],
    dir: &Path,
) -> anyhow::Result<Vec<GenSet>> {
    let state = wd.load()?;
    let mut files = locate::scan(&state.project);
    let exceptions = declared::exceptions(&files);
    if !only.is_empty() {
        files.retain(|f| only.iter().any(|g| g.matches(&f.rel)));
    }
    let cands = locate::candidates(&files);
    let mut rng = rng::Rng::new(seed);
    let picks = locate::sample(&cands, locations, &mut rng);
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    let mut out = Vec::new();
    for (k, c) in picks.iter().enumerate() {
        let f = &files[c.file];
        let Some(spot) = locate::spot(f, &c.range, &exceptions) else {
            continue;
        };
        let mut muts = mutate::generate(&spot, &mut rng, patches);
        let mut range = c.range.clone();
        let paired = rng
            .chance(PAIRED)
            .then(|| locate::pair(&cands, c, &mut rng))
            .flatten()
            .and_then(|c2| {
                let spot2 = locate::spot(f, &c2.range, &exceptions)?;
                Some((c2.range, mutate::generate(&spot2, &mut rng, patches)))
            });
        let mut place = format!(
            "{}:{}",
            f.rel,
            crate::patchset::line_of(&f.text, c.range.start)
        );
        if let Some((second, muts2)) = paired {
            // Two statements patched together, in one method or two (what function-level
            // repairers write): the set's location spans both (`weave::members` selects).
            muts = mutate::pair(&f.text, &range, &muts, &second, &muts2, &mut rng);
            place = format!(
                "{place}+{}",
                crate::patchset::line_of(&f.text, second.start)
            );
            range = range.start..second.end;
        } else if rng.chance(WHOLE) {
            // The whole method rewritten around the location, as function-level repairers
            // write it back (`whole`): the weave narrows it to its token changes again.
            if let Some((method, rewritten)) = whole::rewrite(&spot, &muts, &mut rng) {
                range = method;
                muts = rewritten;
                place = format!("{place}(method)");
            }
        } else if rng.chance(0.5) {
            // Half of the declarations are patched in their initialiser only, as repair tools'
            // expression templates do (the weaver splits the declaration: weave::split).
            if let Some((value, kept)) = locate::initialiser_location(&spot, &muts) {
                range = value;
                muts = kept;
            }
        }
        if muts.is_empty() {
            continue;
        }
        let set = PatchSet {
            manifest_version: 3,
            interface: "local".into(),
            bug: format!("fuzz-s{seed}-{k:03}"),
            filename: f.rel.clone(),
            context_above: f.text[..range.start].to_string(),
            unpatched: f.text[range.clone()].to_string(),
            context_below: f.text[range.end..].to_string(),
            patches: muts.iter().map(|m| m.text.clone()).collect(),
            ..PatchSet::default()
        };
        let path = dir.join(format!("{}.json", set.bug));
        std::fs::write(&path, serde_json::to_string_pretty(&set)?)
            .with_context(|| path.display().to_string())?;
        out.push(GenSet {
            path,
            place,
            in_loop: c.in_loop,
            ops: muts.iter().map(|m| m.op).collect(),
            set,
        });
    }
    Ok(out)
}

/// What a fuzz run found.
pub struct Report {
    pub sets: Vec<GenSet>,
    pub runs: Vec<TechRun>,
    /// The disagreements that count (the exit code says whether there are any).
    pub disagreements: Vec<Disagreement>,
    /// Timing-borderline disagreements ([`Disagreement::settle`]), reported apart.
    pub timing: Vec<Disagreement>,
    /// Disagreements plain did not repeat when it validated the patch again
    /// ([`Disagreement::plain_unstable`]), reported apart.
    pub plain_unstable: Vec<Disagreement>,
}

/// Every disagreement's patch validated again by plain, `PLAIN_AGAIN` times, and judged
/// (`rules::instability`).
fn plain_again(
    wd: &WorkDir,
    sets: &[GenSet],
    disagreements: &mut [Disagreement],
    jobs: usize,
) -> anyhow::Result<()> {
    use crate::core::recheck::PLAIN_AGAIN;
    for s in sets {
        let mine: Vec<usize> = (0..disagreements.len())
            .filter(|&k| disagreements[k].set == s.path)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let patches: Vec<usize> = mine.iter().map(|&k| disagreements[k].patch).collect();
        tracing::info!(
            "{}: validating patches {patches:?} again with plain, {PLAIN_AGAIN} times each",
            s.set.bug
        );
        let again = crate::core::recheck::plain_again(wd, &s.set, &patches, PLAIN_AGAIN, jobs)?;
        for (k, outcomes) in mine.into_iter().zip(again) {
            disagreements[k].judge_again(&outcomes);
        }
    }
    Ok(())
}

/// Generates, validates three ways, compares, reduces; prints as it goes and writes `summary.json`.
pub fn fuzz(args: &FuzzArgs, jobs: usize) -> anyhow::Result<Report> {
    let out = std::path::absolute(&args.out).unwrap_or_else(|_| args.out.clone());
    let wd = fuzz_workdir(
        &WorkDir::new(&args.work_dir),
        &out,
        args.keep_failing_tests,
        &patterns(&args.tests, "--test")?,
    )?;
    let sets = generate(
        &wd,
        args.seed,
        args.locations,
        args.patches,
        &patterns(&args.files, "--file")?,
        &out.join("sets"),
    )?;
    anyhow::ensure!(
        !sets.is_empty(),
        "no statement of the project's main sources could be patched"
    );
    let paths: Vec<PathBuf> = sets.iter().map(|s| s.path.clone()).collect();
    let total: usize = sets.iter().map(|s| s.set.patches.len()).sum();
    tracing::info!(
        "{} patch sets, {total} patches in {}",
        sets.len(),
        out.join("sets").display()
    );
    let mut runs = Vec::new();
    for t in TECHS {
        tracing::info!("validating with {}", t.name());
        runs.push(TechRun::new(t, &wd, &paths, jobs)?);
    }
    for s in &sets {
        let name = s.set.bug.as_str();
        let lists: Vec<String> = runs
            .iter()
            .map(|r| {
                let list = r
                    .results
                    .get(&s.path.display().to_string())
                    .map(|x| crate::model::succlist(&x.verdicts()))
                    .unwrap_or_else(|| "-".into());
                format!("{} {list}", r.tech.name())
            })
            .collect();
        println!(
            "{name} {}{}  {}",
            s.place,
            if s.in_loop { " (loop)" } else { "" },
            lists.join("  ")
        );
    }
    let compared: Vec<Compared> = sets
        .iter()
        .map(|s| Compared {
            path: &s.path,
            place: &s.place,
            patches: &s.set.patches,
            ops: &s.ops,
        })
        .collect();
    let mut disagreements = compare::disagreements(&compared, &runs);
    plain_again(&wd, &sets, &mut disagreements, jobs)?;
    let dis_dir = out.join("disagreements");
    let _ = std::fs::remove_dir_all(&dis_dir);
    for d in &mut disagreements {
        println!("{}", d.describe());
        if let Some(why) = &d.plain_unstable {
            println!("  not counted: {why}");
            continue;
        }
        if args.no_reduce {
            continue;
        }
        std::fs::create_dir_all(&dis_dir)?;
        let set = &sets
            .iter()
            .find(|s| s.path == d.set)
            .expect("a generated set")
            .set;
        let r = reduce::reduce(
            &wd,
            &out.join("reduce"),
            set,
            d.patch,
            d.culprit(),
            d.plain(),
            jobs,
        )?;
        let stem = format!("{}-p{}", set.bug, d.patch);
        let json = dis_dir.join(format!("{stem}.json"));
        std::fs::write(&json, serde_json::to_string_pretty(&r.set)?)?;
        let mut note = d.describe();
        note.push_str(&format!(
            "\nreduced to {} patch(es) in {} run(s) of {}{}; the patch is index {} there.\n\
             on the reduced set:\n",
            r.set.patches.len(),
            r.steps,
            d.culprit().name(),
            if r.reproduced {
                ""
            } else {
                " (did NOT reproduce when the set ran alone; kept whole)"
            },
            r.target
        ));
        for (t, o) in TECHS.iter().zip(&r.confirmed) {
            note.push_str(&format!("  {:<9}{}\n", t.name(), compare::outcome_line(o)));
        }
        note.push_str(&format!(
            "\nreproduce: patchval run --work-dir {} {}{}\n",
            wd.root.display(),
            json.display(),
            if d.culprit() == compare::Tech::NoDedup {
                " --no-dedup"
            } else {
                ""
            }
        ));
        std::fs::write(dis_dir.join(format!("{stem}.txt")), &note)?;
        println!(
            "  reproducer: {} ({} patches; on it: {})",
            json.display(),
            r.set.patches.len(),
            r.confirmed
                .iter()
                .zip(TECHS)
                .map(|(o, t)| format!("{} {}", t.name(), o.verdict))
                .collect::<Vec<_>>()
                .join(", ")
        );
        d.settle(&r.confirmed);
        if d.timing {
            println!(
                "  timing-borderline: on the reduced set {} (plain's own verdict depends on \
                 the machine: its speed, the JIT's); not counted",
                r.confirmed
                    .iter()
                    .zip(TECHS)
                    .map(|(o, t)| format!("{} {}", t.name(), o.verdict))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        d.reproducer = Some(json);
    }
    let (plain_unstable, disagreements): (Vec<Disagreement>, Vec<Disagreement>) = disagreements
        .into_iter()
        .partition(|d| d.plain_unstable.is_some());
    let (timing, disagreements): (Vec<Disagreement>, Vec<Disagreement>) =
        disagreements.into_iter().partition(|d| d.timing);
    let _ = std::fs::remove_dir_all(out.join("reduce"));
    let report = Report {
        sets,
        runs,
        disagreements,
        timing,
        plain_unstable,
    };
    let summary = summary_json(args, &report);
    println!("{}", summary_text(&report, &summary));
    std::fs::write(
        out.join("summary.json"),
        serde_json::to_string_pretty(&summary)?,
    )?;
    Ok(report)
}

fn summary_json(args: &FuzzArgs, report: &Report) -> serde_json::Value {
    let default = &report.runs[0];
    let (mut woven, mut tree, mut holes) = (0usize, 0usize, 0u64);
    for r in default.results.values() {
        woven += r.extra.woven;
        tree += r.extra.tree_patches;
        holes += r.extra.value_holes;
    }
    let mut ops: BTreeMap<&str, usize> = BTreeMap::new();
    for s in &report.sets {
        for o in &s.ops {
            *ops.entry(o).or_default() += 1;
        }
    }
    let counts: BTreeMap<&str, BTreeMap<char, usize>> = report
        .runs
        .iter()
        .map(|r| (r.tech.name(), r.counts()))
        .collect();
    let seconds: BTreeMap<&str, f64> = report
        .runs
        .iter()
        .map(|r| (r.tech.name(), (r.seconds * 10.0).round() / 10.0))
        .collect();
    let listed = |list: &[Disagreement]| -> Vec<serde_json::Value> {
        list.iter()
            .map(|d| {
                json!({
                    "set": d.set.display().to_string(),
                    "place": d.place,
                    "patch": d.patch,
                    "text": d.text,
                    "op": d.op,
                    "verdicts": d.outcomes.iter().map(|o| o.verdict.letter()).collect::<String>(),
                    "reproducer": d.reproducer.as_ref().map(|p| p.display().to_string()),
                })
            })
            .collect()
    };
    json!({
        "seed": args.seed,
        "work_dir": args.work_dir.display().to_string(),
        "sets": report.sets.len(),
        "sets_in_loops": report.sets.iter().filter(|s| s.in_loop).count(),
        "patches": report.sets.iter().map(|s| s.set.patches.len()).sum::<usize>(),
        "woven": woven,
        "tree_patches": tree,
        "tree_share": if woven == 0 { 0.0 } else { tree as f64 / woven as f64 },
        "value_holes": holes,
        "ops": ops,
        "counts": counts,
        "seconds": seconds,
        "disagreements": listed(&report.disagreements),
        "timing_borderline": listed(&report.timing),
        "plain_unstable": report.plain_unstable.iter().zip(listed(&report.plain_unstable)).map(|(d, mut v)| {
            v["why"] = json!(d.plain_unstable);
            v
        }).collect::<Vec<_>>(),
    })
}

fn summary_text(report: &Report, s: &serde_json::Value) -> String {
    let mut t = format!(
        "fuzz summary (seed {}): {} sets ({} in loops), {} patches, {} disagreements \
         ({} timing-borderline, {} of plain's own instability apart)\n\
         woven {} patches, {} on the tree path ({:.1} %), {} in value holes\n",
        s["seed"],
        s["sets"],
        s["sets_in_loops"],
        s["patches"],
        report.disagreements.len(),
        report.timing.len(),
        report.plain_unstable.len(),
        s["woven"],
        s["tree_patches"],
        s["tree_share"].as_f64().unwrap_or(0.0) * 100.0,
        s["value_holes"]
    );
    for r in &report.runs {
        let counts: Vec<String> = r.counts().iter().map(|(c, n)| format!("{c} {n}")).collect();
        t.push_str(&format!(
            "  {:<9}{}  in {:.1} s\n",
            r.tech.name(),
            counts.join(", "),
            r.seconds
        ));
    }
    let ops: Vec<String> = s["ops"]
        .as_object()
        .map(|o| o.iter().map(|(k, v)| format!("{k} {v}")).collect())
        .unwrap_or_default();
    t.push_str(&format!("  operators: {}", ops.join(", ")));
    t
}

/// Runs the subcommand; returns the exit code (`DISAGREEMENT` when any patch's verdicts differ).
pub fn command(args: &FuzzArgs) -> ExitCode {
    let jobs = args
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    match fuzz(args, jobs) {
        Ok(r) if r.disagreements.is_empty() => ExitCode::Ok,
        Ok(_) => ExitCode::Disagreement,
        Err(e) => {
            eprintln!("patchval fuzz: {e:#}");
            if e.downcast_ref::<crate::workdir::WorkDirError>().is_some() {
                ExitCode::Environment
            } else {
                ExitCode::Usage
            }
        }
    }
}
