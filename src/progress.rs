//! Live progress of a run on stderr: a bar over the patch sets, and one line per worker thread
//! with its set, phase, tests run and the baseline time of the tests still ahead; when stderr is
//! not a terminal, a log line as each set starts instead.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::cell::Cell;
use std::io::IsTerminal;
use std::sync::Mutex;

/// What one worker thread is doing.
#[derive(Debug, Default, Clone)]
struct Slot {
    set: String,
    phase: String,
    tests_done: usize,
    tests_total: usize,
    /// Baseline milliseconds of the tests still ahead in the current pass.
    ms_left: f64,
}

static SLOTS: Mutex<Vec<Slot>> = Mutex::new(Vec::new());

thread_local! {
    /// The slot of the worker thread this code runs on (None outside a run's worker threads).
    static CURRENT: Cell<Option<usize>> = const { Cell::new(None) };
}

fn with_current(f: impl FnOnce(&mut Slot)) {
    if let Some(i) = CURRENT.with(Cell::get) {
        let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = slots.get_mut(i) {
            f(s);
        }
    }
}

/// Marks the calling thread as worker thread `slot` of the current run.
pub fn enter(slot: usize) {
    CURRENT.with(|c| c.set(Some(slot)));
}

/// The calling worker thread starts a set (`name`: its file name).
pub fn set_started(name: &str, patches: usize) {
    let slot = CURRENT.with(Cell::get);
    with_current(|s| {
        *s = Slot {
            set: name.to_string(),
            phase: "loading".into(),
            ..Slot::default()
        }
    });
    if !std::io::stderr().is_terminal() {
        tracing::info!(
            "worker {}: {name} ({patches} patches)",
            slot.map_or("-".to_string(), |s| s.to_string())
        );
    }
}

/// The calling worker thread has no set: idle, or (`helping`) running a chunk of another set's
/// tests. Not logged.
pub fn between_sets(helping: bool) {
    with_current(|s| {
        *s = Slot {
            set: if helping {
                "(helping another set)".into()
            } else {
                String::new()
            },
            phase: if helping {
                "running a chunk of another set's tests".into()
            } else {
                String::new()
            },
            ..Slot::default()
        }
    });
}

/// The calling worker thread's set enters `phase` (compiling, running tests, ...).
pub fn phase(phase: &str) {
    with_current(|s| s.phase = phase.to_string());
}

/// A pass over `total` tests with `ms` baseline milliseconds in all begins.
pub fn tests_begin(total: usize, ms: f64) {
    with_current(|s| {
        s.tests_done = 0;
        s.tests_total = total;
        s.ms_left = ms;
    });
}

/// One test of the pass is done for every live patch (`ms`: its baseline time).
pub fn test_done(ms: f64) {
    with_current(|s| {
        s.tests_done += 1;
        s.ms_left = (s.ms_left - ms).max(0.0);
    });
}

/// The bars of one run.
pub struct Progress {
    multi: MultiProgress,
    sets: ProgressBar,
    workers: Vec<ProgressBar>,
}

impl Progress {
    /// Bars for `sets` patch sets and `jobs` worker threads (hidden when stderr is not a terminal).
    pub fn new(sets: usize, jobs: usize) -> Progress {
        *SLOTS.lock().unwrap_or_else(|e| e.into_inner()) = vec![Slot::default(); jobs];
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let multi = MultiProgress::with_draw_target(target);
        let sets = multi.add(
            ProgressBar::new(sets as u64).with_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} patch sets, {elapsed}, ETA {eta}",
                )
                .expect("valid template"),
            ),
        );
        let workers =
            (0..jobs)
                .map(|_| {
                    multi.add(ProgressBar::new_spinner().with_style(
                        ProgressStyle::with_template("  {msg}").expect("valid template"),
                    ))
                })
                .collect();
        Progress {
            multi,
            sets,
            workers,
        }
    }

    /// Redraws the worker lines from what the worker threads last reported.
    pub fn refresh(&self) {
        let slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner()).clone();
        for (i, (bar, s)) in self.workers.iter().zip(slots).enumerate() {
            let msg = if s.set.is_empty() {
                format!("worker {i}: idle")
            } else if s.tests_total > 0 {
                format!(
                    "worker {i}: {} — {}, test {}/{}, {:.1} s of baseline time ahead",
                    s.set,
                    s.phase,
                    s.tests_done,
                    s.tests_total,
                    s.ms_left / 1000.0
                )
            } else {
                format!("worker {i}: {} — {}", s.set, s.phase)
            };
            bar.set_message(msg);
        }
    }

    /// Prints `line` (stdout) above the bars.
    pub fn println(&self, line: &str) {
        self.multi.suspend(|| println!("{line}"));
    }

    /// `n` more sets were submitted.
    pub fn add_sets(&self, n: usize) {
        self.sets.inc_length(n as u64);
    }

    /// One more set is done.
    pub fn set_done(&self) {
        self.sets.inc(1);
    }

    pub fn finish(&self) {
        for b in &self.workers {
            b.finish_and_clear();
        }
        self.sets.finish_and_clear();
        let _ = self.multi.clear();
    }
}
