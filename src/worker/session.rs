//! The scheduling state of the worker process, reached from woven code through the natives: which
//! patch a sequential round runs, or the state-transition tree a tree round walks. Any observation
//! that contradicts the tree (re-entrance, a second thread, a changed capture) marks the session
//! unstable; the round then completes on a plain path and its results are discarded. While a
//! round goes deeper, the class of patches it follows is published (see [`on_narrow`]), so that a
//! round that hangs can be attributed to that class.

use super::tree::{Enter, PatchId, Tree, Unstable};
use crate::protocol::{self, select};
use std::sync::Mutex;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

// One session per worker process: the tree inline is simpler than boxing it.
#[allow(clippy::large_enum_variant)]
enum Mode {
    Sequential(i32),
    Tree {
        tree: Tree,
        capture: Vec<PatchId>,
        thread: Option<ThreadId>,
        unstable: Option<String>,
        /// Size of the class last published in this round.
        published: usize,
        /// This round runs one patch from here on (see `Enter::Direct`).
        direct: Option<PatchId>,
        /// Time spent capturing (from `begin` to `decide`) over all rounds of this tree, and the
        /// most it may take before the test's undecided patches go sequential.
        captured: Duration,
        capture_started: Option<Instant>,
        budget: Duration,
    },
}

static SESSION: Mutex<Mode> = Mutex::new(Mode::Sequential(select::NONE));

type Narrow = Box<dyn FnMut(&[PatchId]) + Send>;

/// Told the class a tree round follows at its first decision and whenever it shrinks (at most
/// once per patch per round).
static NARROW: Mutex<Option<Narrow>> = Mutex::new(None);

/// Sets (or, with `None`, clears) what is told when a round's followed class shrinks.
pub fn on_narrow(f: Option<Narrow>) {
    *NARROW.lock().unwrap_or_else(|e| e.into_inner()) = f;
}

fn with<R>(f: impl FnOnce(&mut Mode) -> R) -> R {
    let mut guard = SESSION.lock().unwrap_or_else(|e| e.into_inner());
    f(&mut guard)
}

/// Sequential rounds run `patch` at the location (`select::NONE`: a weave-free overlay or the
/// original).
pub fn sequential(patch: i32) {
    with(|m| *m = Mode::Sequential(patch));
}

/// Starts a tree over `patches` for the next rounds of one test; capturing may take `budget` in
/// all (a hot location captures at every visit: past the budget, running the patches one by one
/// is cheaper, and the tree is given up).
pub fn tree(patches: Vec<PatchId>, budget: Duration) {
    with(|m| {
        *m = Mode::Tree {
            tree: Tree::new(patches),
            capture: vec![],
            thread: None,
            unstable: None,
            published: usize::MAX,
            direct: None,
            captured: Duration::ZERO,
            capture_started: None,
            budget,
        }
    });
}

/// `Rt.round`: the number of the current tree round (0 outside trees).
pub fn round() -> u64 {
    with(|m| match m {
        Mode::Tree { tree, .. } => tree.rounds,
        Mode::Sequential(_) => 0,
    })
}

/// A tree is active and another round is needed.
pub fn needs_round() -> bool {
    with(|m| matches!(m, Mode::Tree { tree, unstable: None, .. } if tree.unexplored()))
}

pub fn start_round() {
    with(|m| {
        if let Mode::Tree {
            tree,
            thread,
            published,
            direct,
            capture_started,
            ..
        } = m
        {
            tree.start_round();
            *thread = None;
            *published = usize::MAX; // the first decision of a round is always published
            *direct = None;
            *capture_started = None;
        }
    })
}

/// Ends a round: the patches whose result it decides, or why the tree cannot be trusted.
pub fn finish_round() -> Result<Vec<PatchId>, Unstable> {
    with(|m| match m {
        Mode::Tree {
            unstable: Some(why),
            ..
        } => Err(Unstable(why.clone())),
        Mode::Tree { tree, unstable, .. } => tree
            .finish_round()
            .inspect_err(|e| *unstable = Some(e.0.clone())),
        Mode::Sequential(_) => Err(Unstable("no tree".into())),
    })
}

/// (rounds, classes, patch captures) of the current tree.
pub fn counts() -> (u64, usize, u64) {
    with(|m| match m {
        Mode::Tree { tree, .. } => (tree.rounds, tree.classes(), tree.captures),
        Mode::Sequential(_) => (0, 0, 0),
    })
}

fn mark(unstable: &mut Option<String>, why: String) {
    unstable.get_or_insert(why);
}

// ---- called from the natives -------------------------------------------------------------------

/// `Rt.choose`: the patch of a sequential round; the patch a tree round runs directly; in an
/// unstable tree round, any patch to finish it.
pub fn choose() -> i32 {
    with(|m| match m {
        Mode::Sequential(p) => *p,
        Mode::Tree {
            direct: Some(p), ..
        } => *p as i32,
        Mode::Tree { capture, tree, .. } => capture
            .first()
            .copied()
            .map(|p| p as i32)
            .unwrap_or_else(|| tree.first_patch() as i32),
    })
}

/// `Rt.tree`: this round walks the tree.
pub fn is_tree() -> bool {
    with(|m| matches!(m, Mode::Tree { unstable: None, .. }))
}

/// `Rt.begin`: how many patches to capture, `begin::UNSTABLE` (take the sequential path), or
/// `begin::DIRECT` (run the patch `choose` names, without capture).
pub fn begin() -> i32 {
    let me = std::thread::current().id();
    with(|m| match m {
        Mode::Tree {
            tree,
            capture,
            thread,
            unstable,
            direct,
            captured,
            capture_started,
            budget,
            ..
        } => {
            if unstable.is_some() {
                return protocol::begin::UNSTABLE;
            }
            if thread.get_or_insert(me) != &me {
                mark(unstable, "the location was reached from two threads".into());
                return protocol::begin::UNSTABLE;
            }
            if *captured > *budget {
                mark(
                    unstable,
                    format!(
                        "capturing took {} ms, over the budget of {} ms (a hot location)",
                        captured.as_millis(),
                        budget.as_millis()
                    ),
                );
                return protocol::begin::UNSTABLE;
            }
            match tree.enter() {
                Ok(Enter::Capture(list)) => {
                    *capture = list;
                    *capture_started = Some(Instant::now());
                    capture.len() as i32
                }
                Ok(Enter::Direct(p)) => {
                    *direct = Some(p);
                    protocol::begin::DIRECT
                }
                Err(e) => {
                    mark(unstable, e.0);
                    protocol::begin::UNSTABLE
                }
            }
        }
        Mode::Sequential(_) => protocol::begin::UNSTABLE,
    })
}

/// `Rt.patchAt`.
pub fn patch_at(k: i32) -> i32 {
    with(|m| match m {
        Mode::Tree { capture, .. } => capture
            .get(k as usize)
            .map(|p| *p as i32)
            .unwrap_or(select::NONE),
        Mode::Sequential(p) => *p,
    })
}

/// `Rt.report`.
pub fn report(patch: i32, change: String) {
    with(|m| {
        if let Mode::Tree { tree, unstable, .. } = m {
            if unstable.is_none() {
                if let Err(e) = tree.report(patch as u32, change) {
                    mark(unstable, e.0);
                }
            }
        }
    })
}

/// `Rt.decide`: the patch to replay.
pub fn decide() -> i32 {
    let (patch, narrowed) = with(|m| match m {
        Mode::Tree {
            tree,
            capture,
            unstable,
            published,
            captured,
            capture_started,
            ..
        } => {
            if let Some(t) = capture_started.take() {
                *captured += t.elapsed();
            }
            let fallback = capture.first().map(|p| *p as i32).unwrap_or(select::NONE);
            if unstable.is_some() {
                return (fallback, None);
            }
            match tree.choose() {
                Ok(p) => {
                    let class = tree.current_class();
                    let narrowed = (class.len() < *published).then(|| class.to_vec());
                    *published = class.len();
                    (p as i32, narrowed)
                }
                Err(e) => {
                    mark(unstable, e.0);
                    (fallback, None)
                }
            }
        }
        Mode::Sequential(p) => (*p, None),
    });
    if let Some(class) = narrowed {
        if let Some(f) = NARROW.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            f(&class);
        }
    }
    patch
}
