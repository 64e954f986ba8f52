//! The techniques, side by side behind one interface (`Technique`):
//! - `schemata` weaves a set's patches into one compile and runs the tests once per class of
//!   patches that behave alike (`weave`, `compile`, `schedule`), handing what it cannot weave to
//!   the fallback;
//! - `fallback` compiles each patch on its own and runs its tests in the same worker JVM;
//! - `plain`, the reference, compiles each patch with the javac command and runs its tests in a
//!   fresh JVM.
//!
//! What they share is here and in `rules` (what a test's result means, how a failure and a
//! timeout are confirmed): the context of a run, loading a set, the result of a set that cannot
//! be validated, and the sink each patch's outcome goes to the moment it is decided.

pub mod confirm;
pub mod fallback;
mod groups;
pub mod plain;
mod planning;
pub mod schemata;
mod validation;
pub mod warm;

use crate::compile::CompileSetup;
use crate::model::{Extra, Outcome, PatchSet, Phase, SetResult, Verdict};
use crate::patchset;
use crate::schedule::share::{Executed, HelpError, Helpers, Job};
use crate::workdir::coverage::Coverage;
use crate::workdir::{State, TestRecord, WorkDir};
use std::path::{Path, PathBuf};

/// What every set of a run shares.
pub struct RunContext<'a> {
    pub wd: &'a WorkDir,
    pub state: &'a State,
    /// Tests in execution order.
    pub tests: &'a [TestRecord],
    pub agent_jar: PathBuf,
    /// Deduplicate test-equivalent patches through the state-transition tree.
    pub dedup: bool,
    /// Where idle workers take chunks of other sets' tests (None: each set on one worker).
    pub board: Option<&'a dyn Helpers>,
    /// Per-test coverage for selecting each set's tests (None: every set runs every test).
    pub coverage: Option<&'a Coverage>,
    /// Every patch runs every selected test (`run --matrix`).
    pub matrix: bool,
}

impl RunContext<'_> {
    /// Class path for compiling a patched or woven file.
    pub fn compile_classpath(&self) -> String {
        crate::compile::compile_classpath(
            &self.wd.classes(),
            &self.state.project.classpath,
            &self.agent_jar,
        )
    }

    /// Compile set-up for a worker scratch area (`schemata` or `single`).
    pub fn setup(&self, worker_id: usize, area: &str, set: &PatchSet) -> CompileSetup {
        let name = Path::new(&set.filename)
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_else(|| "Patched.java".into());
        self.setup_named(worker_id, area, &name)
    }

    /// [`RunContext::setup`] for a source file named `name`.
    pub fn setup_named(
        &self,
        worker_id: usize,
        area: &str,
        name: &std::ffi::OsStr,
    ) -> CompileSetup {
        let base = self.wd.worker(worker_id).join(area);
        CompileSetup {
            source: base.join("src").join(name),
            overlay: base.join("classes"),
            classpath: self.compile_classpath(),
            release: self.state.project.release.clone(),
            encoding: self.state.project.encoding.clone(),
        }
    }
}

/// Why a set file cannot be validated at all.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    PatchSet(#[from] patchset::PatchSetError),
    #[error("{set}: patched file {file}: {source}")]
    File {
        set: PathBuf,
        file: PathBuf,
        source: std::io::Error,
    },
}

/// Reads a patch set and checks it against the project's file (`patchset::check_context`),
/// with its location narrowed to the code it holds (`patchset::narrow_location`); returns what
/// differed, for `extra.context`.
pub fn load_set(state: &State, path: &Path) -> Result<(PatchSet, Option<String>), LoadError> {
    let mut set = patchset::load(path)?;
    let file = state.project.root.join(&set.filename);
    let actual = std::fs::read_to_string(&file).map_err(|source| LoadError::File {
        set: path.to_path_buf(),
        file: file.clone(),
        source,
    })?;
    let note = patchset::check_context(path, &mut set, &actual)?;
    let narrowed = patchset::narrow_location(&mut set);
    let note = match (note, narrowed) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    Ok((set, note))
}

/// A result for a set that could not be validated at all: every patch `E` with why.
pub fn unusable(path: &Path, patches: usize, why: String) -> SetResult {
    let mut r = SetResult {
        patches_path: path.display().to_string(),
        technique: None,
        outcomes: vec![Outcome::new(Verdict::Error, Phase::Load).with_detail(why.clone()); patches],
        names: Vec::new(),
        error: Some(why),
        extra: Extra::default(),
    };
    r.finish_counts();
    r
}

/// Where a technique reports each patch's outcome the moment it is decided (before the set is
/// done): a front end streams them.
pub trait Sink {
    fn decided(&self, patch: usize, outcome: &Outcome);
}

impl<F: Fn(usize, &Outcome)> Sink for F {
    fn decided(&self, patch: usize, outcome: &Outcome) {
        self(patch, outcome)
    }
}

/// A sink that keeps nothing.
pub fn no_sink() -> impl Sink {
    |_: usize, _: &Outcome| {}
}

/// A technique on one worker thread, with what it keeps between sets (a worker process and its
/// JVM, a copy of the project).
pub trait Technique: Send {
    /// Validates `set` (read from `path`), reporting each patch's outcome to `sink` as it is
    /// decided; the result holds every patch's outcome.
    fn validate(
        &mut self,
        ctx: &RunContext,
        path: &Path,
        set: &PatchSet,
        sink: &dyn Sink,
    ) -> SetResult;

    /// Runs a chunk of another set's tests (`schedule::share`), when this technique's workers
    /// can; `Err` says why not.
    fn help(&mut self, _ctx: &RunContext, _job: &Job) -> Result<Executed, HelpError> {
        Err(HelpError::Unsupported)
    }

    /// Starts what the technique keeps between sets (a worker and its JVM) before the first set.
    fn warm_up(&mut self, _ctx: &RunContext) {}

    /// Forgets state that a panic may have left half-done (a worker mid-request).
    fn reset(&mut self) {}
}

/// The technique `kind` for worker thread `id`.
pub fn new(kind: crate::model::Technique, id: usize) -> Box<dyn Technique> {
    match kind {
        crate::model::Technique::Schemata => Box::new(schemata::Schemata::new(id)),
        crate::model::Technique::Fallback => Box::new(fallback::Fallback::new(id)),
        crate::model::Technique::Plain => Box::new(plain::Plain::new(id)),
    }
}
