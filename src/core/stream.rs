//! A submission's stream: each patch's outcome as it is decided and each set's result as it is
//! done, read by the front end that submitted it, which may cancel what is still queued.

use super::Shared;
use crate::model::{Outcome, SetResult};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};

/// What a submission's stream carries.
#[derive(Debug, Clone)]
pub enum Event {
    /// A patch's outcome, the moment it is decided (before its set is done); set results carry
    /// every outcome again.
    Decided {
        set: PathBuf,
        patch: usize,
        name: Option<String>,
        outcome: Outcome,
    },
    /// A set is done: its result, decided now or reused from an earlier run (`resumed_from`).
    Done {
        result: Box<SetResult>,
        resumed_from: Option<String>,
    },
}

/// One submission: the stream of its events, ending when every set is done or cancelled.
pub struct Submission {
    /// Behind a lock so that a submission can be shared between threads (one reads its
    /// events, another may cancel it).
    pub(super) events: Mutex<Receiver<Event>>,
    pub(super) cancelled: Arc<AtomicBool>,
    pub(super) id: usize,
    pub(super) sets: usize,
    pub(super) shared: Arc<Shared>,
}

impl Submission {
    /// The sets this submission holds (inputs that could not be read included).
    pub fn sets(&self) -> usize {
        self.sets
    }

    /// The next event; `None` when the submission is over.
    pub fn next(&self, timeout: std::time::Duration) -> Next {
        let events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        match events.recv_timeout(timeout) {
            Ok(e) => Next::Event(Box::new(e)),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Next::Waiting,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Next::Over,
        }
    }

    /// Cancels the submission: its sets still queued are not validated (returned: how many);
    /// those in flight finish and are written.
    pub fn cancel(&self) -> usize {
        self.cancelled.store(true, Ordering::SeqCst);
        let id = self.id;
        let drained = self.shared.board.drain_sets(|job| job.submission.id == id);
        let n = drained.len();
        self.shared.lock_record().totals.not_validated += n;
        n
    }

    /// Waits for every set and returns the results in the order they were done; at the first
    /// SIGINT (`stop`) the sets still queued are cancelled.
    pub fn wait(self) -> Vec<SetResult> {
        let mut out = Vec::new();
        let mut cancelled = false;
        loop {
            if !cancelled && crate::stop::requested() {
                self.cancel();
                cancelled = true;
            }
            match self.next(std::time::Duration::from_millis(200)) {
                Next::Event(e) => {
                    if let Event::Done { result, .. } = *e {
                        out.push(*result);
                    }
                }
                Next::Waiting => {}
                Next::Over => return out,
            }
        }
    }
}

/// What [`Submission::next`] gives.
pub enum Next {
    Event(Box<Event>),
    /// Nothing yet.
    Waiting,
    /// Every set is done or cancelled.
    Over,
}

/// A submission as its sets' jobs hold it: the stream's sender goes when the last job does.
pub(super) struct Submitted {
    pub(super) id: usize,
    pub(super) events: Mutex<Sender<Event>>,
    pub(super) cancelled: Arc<AtomicBool>,
}

impl Submitted {
    pub(super) fn send(&self, e: Event) {
        // A front end that stopped listening loses nothing the records do not keep.
        let _ = self
            .events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(e);
    }
}
