//! Init's passes over the tests spread over several workers: the test list cut into contiguous
//! parts that never split a test class, one thread and one worker per part, results in order.

use crate::pool::Worker;

/// Runs `run` on every item, the items cut into one contiguous part per worker of about equal
/// total `weight` (cut only where the class changes, so a class's tests run in one JVM in their
/// order, as they will at `run`); each worker's thread keeps a state of its own, and `run` is
/// told the worker's index. Returns the results in item order and the states in worker order.
pub fn spread<T, R, S>(
    workers: &mut [Worker],
    items: &[T],
    class_of: impl Fn(&T) -> &str + Sync,
    weight: impl Fn(&T) -> f64,
    run: impl Fn(usize, &mut Worker, &mut S, &T) -> R + Sync,
) -> (Vec<R>, Vec<S>)
where
    T: Sync,
    R: Send,
    S: Default + Send,
{
    let parts = class_parts(items, workers.len(), &class_of, &weight);
    std::thread::scope(|s| {
        let run = &run;
        let handles: Vec<_> = workers
            .iter_mut()
            .zip(parts)
            .enumerate()
            .map(|(index, (worker, part))| {
                s.spawn(move || {
                    let mut state = S::default();
                    let out: Vec<R> = part
                        .iter()
                        .map(|t| run(index, worker, &mut state, t))
                        .collect();
                    (out, state)
                })
            })
            .collect();
        let mut results = Vec::with_capacity(items.len());
        let mut states = Vec::new();
        for h in handles {
            let (out, state) = h.join().expect("an init pass thread panicked");
            results.extend(out);
            states.push(state);
        }
        (results, states)
    })
}

/// `items` cut into `n` contiguous parts of about equal total weight, each cut moved forward to
/// the next change of class (parts may be empty).
fn class_parts<'a, T>(
    items: &'a [T],
    n: usize,
    class_of: &impl Fn(&T) -> &str,
    weight: &impl Fn(&T) -> f64,
) -> Vec<&'a [T]> {
    let n = n.max(1);
    let total: f64 = items.iter().map(weight).sum();
    let mut parts = Vec::with_capacity(n);
    let (mut start, mut i, mut acc) = (0, 0, 0.0);
    for k in 1..n {
        let goal = total * k as f64 / n as f64;
        while i < items.len() && acc + weight(&items[i]) / 2.0 <= goal {
            acc += weight(&items[i]);
            i += 1;
        }
        while i > 0 && i < items.len() && class_of(&items[i]) == class_of(&items[i - 1]) {
            acc += weight(&items[i]);
            i += 1;
        }
        parts.push(&items[start..i]);
        start = i;
    }
    parts.push(&items[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::class_parts;

    #[test]
    fn parts_cover_in_order_and_never_cut_a_class() {
        let items: Vec<(&str, usize)> = [("A", 3), ("B", 1), ("C", 4), ("D", 2)]
            .iter()
            .flat_map(|(c, k)| (0..*k).map(move |i| (*c, i)))
            .collect();
        let one = |_: &(&str, usize)| 1.0;
        for n in 1..6 {
            let parts = class_parts(&items, n, &|t: &(&str, usize)| t.0, &one);
            assert_eq!(parts.len(), n);
            assert_eq!(parts.concat(), items, "n = {n}");
            for w in parts.windows(2) {
                if let (Some(a), Some(b)) = (w[0].last(), w[1].first()) {
                    assert_ne!(a.0, b.0, "a class cut across parts (n = {n})");
                }
            }
        }
        let two = class_parts(&items, 2, &|t: &(&str, usize)| t.0, &one);
        assert_eq!((two[0].len(), two[1].len()), (8, 2));
        // By weight: A's three items weigh as much as all the rest.
        let heavy = |t: &(&str, usize)| if t.0 == "A" { 7.0 } else { 1.0 };
        let two = class_parts(&items, 2, &|t: &(&str, usize)| t.0, &heavy);
        assert_eq!((two[0].len(), two[1].len()), (3, 7));
    }
}
