//! Fault injection for tests: `PATCHVAL_FAULT=<kind>:<n>[:<marker file>]` makes `patchval worker`
//! fail the way infrastructure fails, at its n-th test request (`RunTest` or `RunTree`): `sigkill`
//! (the worker sends itself SIGKILL), `garbage` (a line that is not a response), `slow` (the
//! request stalls until the parent's timeout stops it, as on a machine too busy to run it), `panic`
//! (the next native call panics). With a marker file the fault happens once per run: the first
//! worker to create the file injects it, and respawned workers do not repeat it.

use crate::pool::protocol::Request;
use crate::protocol::fault;
use std::path::PathBuf;

/// What to inject.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Sigkill,
    Garbage,
    Slow,
    Panic,
}

/// A fault planned for this worker process.
#[derive(Debug)]
pub struct Injection {
    kind: Kind,
    at: u32,
    marker: Option<PathBuf>,
    seen: u32,
}

impl Injection {
    /// The fault `PATCHVAL_FAULT` asks for, if any (a malformed value is logged and ignored).
    pub fn from_env() -> Option<Injection> {
        let spec = std::env::var(fault::ENV).ok()?;
        let parsed = Self::parse(&spec);
        // `fail` is PlainMain's alone.
        if parsed.is_none() && spec.split(':').next() != Some(fault::FAIL) {
            tracing::warn!(
                "{}={spec} is not <{}|{}|{}|{}>:<n>[:<marker file>]; ignored",
                fault::ENV,
                fault::SIGKILL,
                fault::GARBAGE,
                fault::SLOW,
                fault::PANIC
            );
        }
        parsed
    }

    fn parse(spec: &str) -> Option<Injection> {
        let mut parts = spec.splitn(3, ':');
        let kind = match parts.next()? {
            fault::SIGKILL => Kind::Sigkill,
            fault::GARBAGE => Kind::Garbage,
            fault::SLOW => Kind::Slow,
            fault::PANIC => Kind::Panic,
            _ => return None,
        };
        let at = parts.next()?.parse().ok().filter(|&n| n > 0)?;
        let marker = parts.next().filter(|m| !m.is_empty()).map(PathBuf::from);
        Some(Injection {
            kind,
            at,
            marker,
            seen: 0,
        })
    }

    /// Counts `req` and returns the fault to inject during it, if this is the planned request and
    /// (with a marker file) no worker of this run has injected it yet.
    pub fn due(&mut self, req: &Request) -> Option<Kind> {
        if !matches!(req, Request::RunTest { .. } | Request::RunTree { .. }) {
            return None;
        }
        self.seen += 1;
        if self.seen != self.at {
            return None;
        }
        if let Some(marker) = &self.marker {
            // Whoever creates the marker injects the fault; everyone else goes on.
            let claimed = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(marker);
            if claimed.is_err() {
                return None;
            }
        }
        tracing::warn!(
            "fault injection: {:?} during test request {}",
            self.kind,
            self.at
        );
        Some(self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TestId;

    fn run_test() -> Request {
        Request::RunTest {
            classpath: vec![],
            test: TestId::parse("a.B#c").unwrap(),
            patch: 0,
            warm: false,
            coverage: None,
        }
    }

    #[test]
    fn fires_at_the_nth_test_request_once_per_marker() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("fault.done");
        let spec = format!("garbage:2:{}", marker.display());
        let mut a = Injection::parse(&spec).unwrap();
        let other = Request::ParseCheck { files: vec![] };
        assert_eq!(a.due(&other), None, "only test requests count");
        assert_eq!(a.due(&run_test()), None);
        assert_eq!(a.due(&run_test()), Some(Kind::Garbage));
        assert_eq!(a.due(&run_test()), None);
        assert!(marker.exists());
        // A respawned worker counts again, but the marker says the fault already happened.
        let mut b = Injection::parse(&spec).unwrap();
        assert_eq!(b.due(&run_test()), None);
        assert_eq!(b.due(&run_test()), None);
    }

    #[test]
    fn malformed_specs_are_refused() {
        for bad in ["", "sigkill", "sigkill:0", "sigkill:x", "melt:3"] {
            assert!(Injection::parse(bad).is_none(), "{bad}");
        }
        let no_marker = Injection::parse("slow:1").unwrap();
        assert_eq!((no_marker.kind, no_marker.marker), (Kind::Slow, None));
    }
}
