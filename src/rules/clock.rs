//! Time limits a busy machine does not stretch: a test's time is counted on the thread that runs
//! it, as its wall time less the time that thread waited for a CPU (the kernel's run-queue delay,
//! `/proc/PID/task/TID/schedstat`), with a wall-clock backstop.
//!
//! Why not the thread's CPU time alone (what `ThreadMXBean` gives): a test that sleeps, waits for
//! a lock or another thread, or blocks on I/O uses no CPU while it waits, and plain validation on
//! an idle machine counts that wait. Wall time less the run-queue delay is the wall time of an idle
//! machine: the CPU time plus every wait that is not a wait for a CPU. On an idle machine it equals
//! the wall time, so limits and verdicts are the ones they always were; on a busy one a CPU-bound
//! test gets as much CPU as on an idle one before it counts as a timeout. Only starvation of
//! *other* threads the test waits for still stretches its time; the backstop bounds that, and a
//! timeout is confirmed as before (`load`). See docs/execution.md.

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The thread that runs a process's tests, whose run-queue delay the limits subtract.
#[derive(Debug, Clone)]
pub struct TestThread {
    schedstat: PathBuf,
}

impl TestThread {
    /// Thread `tid` of process `pid`.
    pub fn new(pid: u32, tid: u32) -> TestThread {
        TestThread {
            schedstat: PathBuf::from(format!("/proc/{pid}/task/{tid}/schedstat")),
        }
    }

    /// The calling thread (for tests and calibration).
    pub fn current() -> TestThread {
        // SAFETY: gettid has no preconditions.
        let tid = unsafe { libc::gettid() } as u32;
        TestThread::new(std::process::id(), tid)
    }

    /// The time the thread has waited on a run queue so far (None: not readable, e.g. the
    /// thread has ended or the kernel keeps no such statistics).
    pub fn run_delay(&self) -> Option<Duration> {
        let text = std::fs::read_to_string(&self.schedstat).ok()?;
        let ns: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
        Some(Duration::from_nanos(ns))
    }
}

/// How many times a limit the wall clock may reach before the limit counts as reached whatever
/// the run-queue delay says (`load::BUDGET_CAP`: as far as a confirmation may stretch a timeout).
pub const BACKSTOP: u32 = crate::rules::load::BUDGET_CAP as u32;

/// A time limit running on a test thread's clock.
#[derive(Debug, Clone)]
pub struct Limit {
    thread: Option<TestThread>,
    wall: Instant,
    delay: Option<Duration>,
    limit: Duration,
    backstop: Duration,
}

impl Limit {
    /// A limit of `limit` starting now, counted on `thread` (on the wall clock without one), with
    /// a backstop of [`BACKSTOP`] times the limit on the wall clock.
    pub fn start(thread: Option<&TestThread>, limit: Duration) -> Limit {
        let delay = thread.and_then(TestThread::run_delay);
        Limit {
            thread: thread.filter(|_| delay.is_some()).cloned(),
            wall: Instant::now(),
            delay,
            limit,
            backstop: limit * BACKSTOP,
        }
    }

    /// A limit on the wall clock alone (a JVM's start-up, a step with no test thread known).
    pub fn wall(limit: Duration) -> Limit {
        Limit {
            thread: None,
            wall: Instant::now(),
            delay: None,
            limit,
            backstop: limit,
        }
    }

    /// The limit.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// The time counted so far: wall time less the thread's run-queue delay since the start.
    pub fn counted(&self) -> Duration {
        let wall = self.wall.elapsed();
        let waited = match (&self.thread, self.delay) {
            (Some(t), Some(start)) => t
                .run_delay()
                .map(|d| d.saturating_sub(start))
                .unwrap_or_default(),
            _ => Duration::ZERO,
        };
        wall.saturating_sub(waited)
    }

    /// How long to wait before looking again, or None once the limit (or the backstop) is
    /// reached. The counted time cannot run faster than the wall clock, so waiting what is left
    /// never overshoots the limit.
    pub fn left(&self) -> Option<Duration> {
        let wall = self.wall.elapsed();
        if wall >= self.backstop {
            return None;
        }
        let counted = self.counted();
        if counted >= self.limit {
            return None;
        }
        let left = (self.limit - counted).min(self.backstop - wall);
        Some(left.max(Duration::from_millis(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_that_sleeps_counts_its_wait() {
        let me = TestThread::current();
        assert!(me.run_delay().is_some(), "no schedstat for this thread");
        let limit = Limit::start(Some(&me), Duration::from_millis(50));
        std::thread::sleep(Duration::from_millis(60));
        assert!(limit.counted() >= Duration::from_millis(50));
        assert_eq!(limit.left(), None);
    }

    #[test]
    fn the_wall_limit_and_the_backstop() {
        let limit = Limit::wall(Duration::from_millis(20));
        assert!(limit.left().is_some());
        std::thread::sleep(Duration::from_millis(25));
        assert_eq!(limit.left(), None);
        // A thread that cannot be read counts on the wall clock.
        let gone = TestThread::new(u32::MAX, u32::MAX);
        let limit = Limit::start(Some(&gone), Duration::from_millis(20));
        std::thread::sleep(Duration::from_millis(25));
        assert_eq!(limit.left(), None);
    }

    #[test]
    fn a_thread_waiting_for_a_cpu_does_not_count_that_wait() {
        // Three spinning threads per CPU: each waits on a run queue most of the time.
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let spinners: Vec<_> = (0..3 * cpus)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 1u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                })
            })
            .collect();
        let me = TestThread::current();
        let limit = Limit::start(Some(&me), Duration::from_secs(60));
        let wall = Instant::now();
        let mut x = 1u64;
        while wall.elapsed() < Duration::from_millis(400) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let counted = limit.counted();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for s in spinners {
            s.join().unwrap();
        }
        // Idle, counted = wall; with 3 spinners per CPU this thread gets about a quarter.
        assert!(
            counted < Duration::from_millis(300),
            "counted {counted:?} of 400 ms wall"
        );
    }
}
