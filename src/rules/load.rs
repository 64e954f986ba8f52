//! How slow the machine is right now, and the time budget that makes a timeout count: a `T` is
//! confirmed by running the test once more with a budget scaled to the current load, so that a
//! busy machine cannot turn a pass into `T` while an infinite loop still costs about twice its
//! timeout on an idle one.

use crate::workdir::timeout_for;
use std::time::{Duration, Instant};

/// CPU time the calibration spins for.
const CALIBRATION_CPU: Duration = Duration::from_millis(30);
/// Wall time after which the calibration stops with what it measured.
const CALIBRATION_WALL: Duration = Duration::from_millis(300);
/// The confirmation budget is at most this many times the test's timeout.
pub const BUDGET_CAP: f64 = 4.0;
/// From this contention on the machine counts as busy and the budget is the cap: one sample of
/// the load says little about the next seconds (the load changes, and memory-bound work such as
/// a garbage collector filling the heap slows down more than a spinning thread shows).
pub const BUSY: f64 = 1.5;

/// CPU time consumed by the calling thread.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec it is given.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// How contended the CPUs are right now: the wall time a busy thread needs for 30 ms of CPU time,
/// divided by that CPU time (1 on an idle machine, 2 when every core has two runnable threads).
/// Takes about 30 ms of wall time on an idle machine, at most 300 ms.
pub fn contention() -> f64 {
    let wall = Instant::now();
    let cpu = thread_cpu();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    loop {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.rotate_left(5) ^ x.wrapping_mul(0x2545_f491_4f6c_dd1d));
        }
        let used = thread_cpu().saturating_sub(cpu);
        let elapsed = wall.elapsed();
        if used >= CALIBRATION_CPU || elapsed >= CALIBRATION_WALL {
            if used.is_zero() {
                return 1.0;
            }
            return (elapsed.as_secs_f64() / used.as_secs_f64()).max(1.0);
        }
    }
}

/// What the confirmation of a timeout measured and allowed.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Time allowed to the confirming run.
    pub allowed: Duration,
    /// CPU contention when it was measured (see [`contention`]).
    pub contention: f64,
    /// The unpatched program's time on the test just before, when it ran.
    pub unpatched_ms: Option<f64>,
}

impl Budget {
    /// The budget for confirming a timeout of a test whose timeout is `timeout_ms`: the larger of
    /// that timeout recomputed from the unpatched program's time on the test right now (5 s +
    /// 1.5 × it, as at `init`) and that timeout scaled by the CPU contention, or [`BUDGET_CAP`]
    /// times the timeout on a busy machine ([`BUSY`]); never less than the timeout, never more
    /// than the cap.
    pub fn new(timeout_ms: u64, unpatched_ms: Option<f64>, contention: f64) -> Budget {
        let timeout = timeout_ms as f64;
        let recomputed = unpatched_ms.map(|u| timeout_for(u) as f64).unwrap_or(0.0);
        let scaled = if contention >= BUSY {
            timeout * BUDGET_CAP
        } else {
            timeout * contention
        };
        let ms = recomputed.max(scaled).clamp(timeout, timeout * BUDGET_CAP);
        Budget {
            allowed: Duration::from_millis(ms.ceil() as u64),
            contention,
            unpatched_ms,
        }
    }

    /// The time allowed to the unpatched program's run that precedes a confirmation.
    pub fn for_unpatched(timeout_ms: u64) -> Duration {
        Duration::from_millis((timeout_ms as f64 * BUDGET_CAP) as u64)
    }

    /// How the budget was found, for reports.
    pub fn describe(&self) -> String {
        let unpatched = match self.unpatched_ms {
            Some(u) => format!("the unpatched program took {u:.0} ms, "),
            None => String::new(),
        };
        format!(
            "{unpatched}CPU contention ×{:.1}, budget {} ms",
            self.contention,
            self.allowed.as_millis()
        )
    }
}

/// Logs and describes a timeout that did not repeat when the test ran again with a budget for the
/// machine's current load (both techniques record these in `extra.slow`).
pub fn slow_note(test: &str, timeout_ms: u64, budget: &Budget, then: &str) -> String {
    let note = format!(
        "{test}: timed out after {timeout_ms} ms, {then} when run again alone ({})",
        budget.describe()
    );
    tracing::warn!("slow: {note}");
    note
}

/// Describes a timeout that repeated within the budget (`extra.timeouts`): it counts.
pub fn confirmed_note(test: &str, timeout_ms: u64, budget: &Budget) -> String {
    format!(
        "{test}: timed out after {timeout_ms} ms, and again when run alone ({})",
        budget.describe()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_machine_keeps_the_timeout() {
        let b = Budget::new(5_010, Some(8.0), 1.0);
        assert_eq!(b.allowed, Duration::from_millis(5_012));
        let b = Budget::new(5_010, None, 1.0);
        assert_eq!(b.allowed, Duration::from_millis(5_010));
    }

    #[test]
    fn load_scales_the_budget_within_the_cap() {
        // The test itself is slower now: its timeout is recomputed from the current time.
        let b = Budget::new(9_500, Some(7_000.0), 1.0);
        assert_eq!(b.allowed, Duration::from_millis(15_500));
        // Some contention scales the whole timeout; a busy machine gets the cap.
        let b = Budget::new(5_000, Some(10.0), 1.3);
        assert_eq!(b.allowed, Duration::from_millis(6_500));
        let b = Budget::new(5_000, Some(10.0), 2.1);
        assert_eq!(b.allowed, Duration::from_millis(20_000));
        // Never beyond the cap.
        let b = Budget::new(5_000, Some(60_000.0), 9.0);
        assert_eq!(b.allowed, Duration::from_millis(20_000));
    }

    #[test]
    fn contention_is_at_least_one() {
        // No upper bound: a niced test beside other jobs can see 20 and more (the machine's
        // load is what the figure measures).
        let c = contention();
        assert!(c >= 1.0 && c.is_finite(), "{c}");
    }
}
