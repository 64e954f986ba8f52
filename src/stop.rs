//! Stopping a run from outside: the first SIGINT (Ctrl-C) lets the sets in flight finish and
//! starts no new one; SIGTERM, a second SIGINT, or either signal outside a run ends the process at
//! once by the signal's own default action, after noting it in the run's directory. Either way
//! every set already written is complete (its details, then its result line) and `run --resume`
//! goes on from there; worker and plain JVMs end themselves when their parent is gone.

use signal_hook::consts::{SIGINT, SIGTERM};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

/// A graceful stop was asked for the active run.
static STOP: AtomicBool = AtomicBool::new(false);

/// SIGTERM asks for a graceful stop too (a long-lived `serve`), not an end at once.
static TERM_GRACEFUL: AtomicBool = AtomicBool::new(false);

/// The active run's directory (`WORK/runs/NNNN`), if a run is under way.
static ACTIVE: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Why the signal thread could not be installed.
#[derive(Debug, thiserror::Error)]
enum WatchError {
    #[error("cannot watch SIGINT and SIGTERM: {0}")]
    Signals(std::io::Error),
    #[error("cannot start the signal thread: {0}")]
    Thread(std::io::Error),
}

/// Whether the signal thread could be installed (once per process).
static INSTALLED: OnceLock<Result<(), WatchError>> = OnceLock::new();

/// Marks a run as active while it lives.
pub struct Active(());

impl Drop for Active {
    fn drop(&mut self) {
        *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = None;
        STOP.store(false, Ordering::SeqCst);
        TERM_GRACEFUL.store(false, Ordering::SeqCst);
    }
}

/// Makes the run whose directory is `run_dir` the active one, installing the signal thread the
/// first time.
pub fn watch(run_dir: &Path) -> Active {
    let installed = INSTALLED.get_or_init(|| {
        let mut signals =
            signal_hook::iterator::Signals::new([SIGINT, SIGTERM]).map_err(WatchError::Signals)?;
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    on_signal(signal);
                }
            })
            .map(|_| ())
            .map_err(WatchError::Thread)
    });
    if let Err(why) = installed {
        tracing::warn!("{why}: a signal stops the run without a note in its record");
    }
    STOP.store(false, Ordering::SeqCst);
    *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = Some(run_dir.to_path_buf());
    Active(())
}

/// As [`watch`], for a front end that ends cleanly on SIGTERM as on the first SIGINT (`serve`:
/// its client or service manager stops it that way).
pub fn watch_graceful(run_dir: &Path) -> Active {
    TERM_GRACEFUL.store(true, Ordering::SeqCst);
    watch(run_dir)
}

/// Whether a graceful stop was asked for the active run.
pub fn requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// The file that notes a run ended by a signal.
pub fn note_path(run_dir: &Path) -> PathBuf {
    run_dir.join("interrupted")
}

fn on_signal(signal: i32) {
    let active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let graceful = signal == SIGINT || TERM_GRACEFUL.load(Ordering::SeqCst);
    if graceful && active.is_some() && !STOP.swap(true, Ordering::SeqCst) {
        eprintln!(
            "patchval: stopping after the patch sets in flight (Ctrl-C again to stop at once)"
        );
        return;
    }
    let name = if signal == SIGINT {
        "SIGINT"
    } else {
        "SIGTERM"
    };
    if let Some(dir) = active {
        let note = format!(
            "{name}: the run ended at once; the patch sets in flight were not written \
             (run --resume validates them)\n"
        );
        let _ = std::fs::write(note_path(&dir), note);
        eprintln!(
            "patchval: {name}: stopped at once; `patchval run --resume` with the same arguments \
             goes on from the sets already written ({})",
            dir.display()
        );
    }
    if let Err(e) = signal_hook::low_level::emulate_default_handler(signal) {
        tracing::error!("cannot end on {name}: {e}");
    }
}
