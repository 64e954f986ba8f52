//! Init's passes over the tests spread over several workers: one thread per worker, each running
//! a contiguous run of whole test classes, an idle one taking over half of the longest run left;
//! results in order.

use crate::pool::Worker;

/// Runs `run` on every item over the workers. The test classes (the items of one class are
/// contiguous) are cut into one contiguous run of classes per worker, of about equal numbers of
/// items; a worker runs its classes in order, and one that runs out takes over the second half
/// of the longest run left to another worker. So each worker runs whole classes, a class's items
/// in their order, and no worker waits while another still has several classes to go (a worker
/// may then run earlier classes after later ones: docs/init.md says why no verdict depends on
/// the order). Each thread keeps a state of its own, and `run` is told the worker's index.
/// Returns the results in item order and the states in worker order.
pub fn spread<T, R, S>(
    workers: &mut [Worker],
    items: &[T],
    class_of: impl Fn(&T) -> &str + Sync,
    run: impl Fn(usize, &mut Worker, &mut S, &T) -> R + Sync,
) -> (Vec<R>, Vec<S>)
where
    T: Sync,
    R: Send,
    S: Default + Send,
{
    let classes = class_runs(items, &class_of);
    let shares = std::sync::Mutex::new(Shares::new(&classes, workers.len()));
    std::thread::scope(|s| {
        let (run, classes, shares) = (&run, &classes, &shares);
        let handles: Vec<_> = workers
            .iter_mut()
            .enumerate()
            .map(|(index, worker)| {
                s.spawn(move || {
                    let mut state = S::default();
                    let mut out: Vec<(usize, R)> = Vec::new();
                    loop {
                        let next = shares.lock().unwrap_or_else(|e| e.into_inner()).take(index);
                        let Some(k) = next else { break };
                        for i in classes[k].clone() {
                            out.push((i, run(index, worker, &mut state, &items[i])));
                        }
                    }
                    (out, state)
                })
            })
            .collect();
        let mut results: Vec<(usize, R)> = Vec::with_capacity(items.len());
        let mut states = Vec::new();
        for h in handles {
            let (out, state) = h.join().expect("an init pass thread panicked");
            results.extend(out);
            states.push(state);
        }
        results.sort_by_key(|(i, _)| *i);
        (results.into_iter().map(|(_, r)| r).collect(), states)
    })
}

/// The classes not yet taken, as one range of class indices per worker.
struct Shares {
    /// Items before each class, and the total at the end: the weight of a range of classes.
    before: Vec<usize>,
    left: Vec<std::ops::Range<usize>>,
}

impl Shares {
    fn new(classes: &[std::ops::Range<usize>], workers: usize) -> Shares {
        let mut before: Vec<usize> = classes.iter().map(|r| r.start).collect();
        before.push(classes.last().map_or(0, |r| r.end));
        let mut shares = Shares {
            before,
            left: Vec::new(),
        };
        let workers = workers.max(1);
        let mut start = 0;
        for w in 1..=workers {
            let end = if w == workers {
                classes.len()
            } else {
                shares.cut(start..classes.len(), workers - w + 1)
            };
            shares.left.push(start..end);
            start = end;
        }
        shares
    }

    /// Where `range` is cut so that its first part holds about 1/`parts` of its items (at least
    /// one class when it has two).
    fn cut(&self, range: std::ops::Range<usize>, parts: usize) -> usize {
        let (from, to) = (self.before[range.start], self.before[range.end]);
        let goal = from + (to - from) / parts.max(1);
        let mut k = range.start;
        while k < range.end && self.before[k + 1] <= goal {
            k += 1;
        }
        k.max(range.start + usize::from(range.len() > 1))
            .min(range.end)
    }

    /// The next class for `worker`: the first of its range, or, when that is empty, of the second
    /// half of the largest range left, which it takes over.
    fn take(&mut self, worker: usize) -> Option<usize> {
        if self.left[worker].is_empty() {
            let weight = |r: &std::ops::Range<usize>| self.before[r.end] - self.before[r.start];
            let (victim, _) = self
                .left
                .iter()
                .enumerate()
                .filter(|(_, r)| r.len() > 1)
                .max_by_key(|(_, r)| weight(r))?;
            let r = self.left[victim].clone();
            let mid = self.cut(r.clone(), 2);
            self.left[victim] = r.start..mid;
            self.left[worker] = mid..r.end;
        }
        let r = &mut self.left[worker];
        let k = r.start;
        r.start += 1;
        Some(k)
    }
}

/// The index ranges of `items` over which the class stays the same, in order.
fn class_runs<T>(items: &[T], class_of: &impl Fn(&T) -> &str) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=items.len() {
        if i == items.len() || class_of(&items[i]) != class_of(&items[i - 1]) {
            if start < i {
                runs.push(start..i);
            }
            start = i;
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::{class_runs, Shares};

    fn items() -> Vec<(&'static str, usize)> {
        [("A", 3), ("B", 1), ("C", 4), ("D", 2)]
            .iter()
            .flat_map(|(c, k)| (0..*k).map(move |i| (*c, i)))
            .collect()
    }

    #[test]
    fn class_runs_cover_in_order_and_never_cut_a_class() {
        let items = items();
        let runs = class_runs(&items, &|t: &(&str, usize)| t.0);
        assert_eq!(runs, [0..3, 3..4, 4..8, 8..10]);
        assert!(class_runs(&items[..0], &|t: &(&str, usize)| t.0).is_empty());
    }

    /// Every class is taken once, whatever the number of workers. With worker 0 the fastest, it
    /// only takes over runs after its own, so each worker's classes come in increasing order here
    /// (when a later worker is faster, it can take over earlier classes: docs/init.md).
    #[test]
    fn shares_take_every_class_once() {
        let items = items();
        let runs = class_runs(&items, &|t: &(&str, usize)| t.0);
        let mut shares = Shares::new(&runs, 2);
        assert_eq!(shares.left, [0..2, 2..4]);
        // Worker 0 runs both of its classes while worker 1 is still on its first.
        assert_eq!(shares.take(1), Some(2));
        assert_eq!(shares.take(0), Some(0));
        assert_eq!(shares.take(0), Some(1));
        // Worker 0 is out: worker 1's run 3..4 has one class left, which stays its own.
        assert_eq!(shares.take(0), None);
        assert_eq!(shares.take(1), Some(3));
        assert_eq!(shares.take(1), None);

        for workers in 1..6 {
            let mut shares = Shares::new(&runs, workers);
            let mut taken: Vec<Vec<usize>> = vec![Vec::new(); workers];
            // Worker 0 takes as fast as it can; the others one class each round.
            let mut done = false;
            while !done {
                done = true;
                for (w, mine) in taken.iter_mut().enumerate() {
                    let rounds = if w == 0 { 3 } else { 1 };
                    for _ in 0..rounds {
                        if let Some(k) = shares.take(w) {
                            mine.push(k);
                            done = false;
                        }
                    }
                }
            }
            let mut all: Vec<usize> = taken.concat();
            all.sort();
            assert_eq!(all, [0, 1, 2, 3], "{workers} workers");
            for t in &taken {
                assert!(t.windows(2).all(|w| w[0] < w[1]), "{taken:?}");
            }
        }
    }

    #[test]
    fn a_worker_out_of_classes_takes_the_back_half_of_the_longest_run() {
        const NAMES: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
        let items: Vec<(&str, usize)> = NAMES.iter().map(|c| (*c, 0)).collect();
        let runs = class_runs(&items, &|t: &(&str, usize)| t.0);
        let mut shares = Shares::new(&runs, 2);
        assert_eq!(shares.left, [0..5, 5..10]);
        for k in 0..5 {
            assert_eq!(shares.take(0), Some(k));
        }
        assert_eq!(shares.take(1), Some(5));
        // Worker 1 has 6..10 left: worker 0 takes over 8..10.
        assert_eq!(shares.take(0), Some(8));
        assert_eq!(shares.left, [9..10, 6..8]);
    }
}
