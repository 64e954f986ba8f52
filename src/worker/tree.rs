//! The state-transition tree of one test (the paper's Algorithm 3): nodes are states at the patched
//! location, edges are captured state changes compared by value; each finished leaf is one
//! test-equivalence class, so the rounds of a test equal its number of classes.

use std::fmt;

/// Index of a patch within its set.
pub type PatchId = u32;

/// A captured state change, canonically encoded by the runtime (control kind, label, return value
/// or exception, changed values; floating point by bit pattern) and compared by value.
pub type Change = String;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    NotVisited,
    Visited,
    Finished,
}

#[derive(Debug)]
struct Node {
    status: Status,
    patches: Vec<PatchId>,
    edges: Vec<(Change, usize)>,
    /// Whether this subtree still holds a not-visited node (kept up to date on the path).
    open: bool,
    /// The change of the representative (`patches[0]`) at the parent, as it reads when captured
    /// alone: what a later round's capture of it must reproduce.
    rep_change: Change,
}

/// The two readings of a captured change (see `Rt.key`): `merge` numbers the objects it holds in
/// order of first sight among all captures of the visit (equal only for the very same objects),
/// `alone` as if the capture had been the only one (what a later round, which captures only the
/// representative, reports). They differ only when the change holds references.
fn readings(change: &str) -> (&str, &str) {
    change
        .split_once(crate::protocol::woven::KEY_SEPARATOR)
        .unwrap_or((change, change))
}

/// What to do at a visit of the location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Enter {
    /// Capture these patches (all of a node on its first visit, else the representative to follow).
    Capture(Vec<PatchId>),
    /// The round follows a single patch from here on: run it, nothing left to tell apart.
    Direct(PatchId),
}

/// An observation that contradicts the tree: the test is not stable enough to deduplicate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unstable(pub String);

impl fmt::Display for Unstable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unstable test: {}", self.0)
    }
}

#[derive(Debug)]
enum Visit {
    Idle,
    /// First visit of a node: every patch of it is captured.
    Explore {
        node: usize,
        reported: Vec<(PatchId, Change)>,
    },
    /// A known node: only the representative of the chosen child is captured, to check and replay it.
    Follow {
        child: usize,
        expected: Change,
        representative: PatchId,
        reported: Option<Change>,
    },
}

/// The tree of one test over the patches still alive for it.
#[derive(Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    path: Vec<usize>,
    visit: Visit,
    in_round: bool,
    /// Set when this round reached a node of a single patch: it runs that patch to the end.
    direct: Option<PatchId>,
    /// Rounds started so far.
    pub rounds: u64,
    /// Patch captures so far (all rounds).
    pub captures: u64,
}

impl Tree {
    pub fn new(patches: Vec<PatchId>) -> Tree {
        Tree {
            nodes: vec![Node {
                status: Status::NotVisited,
                patches,
                edges: vec![],
                open: true,
                rep_change: Change::new(),
            }],
            path: vec![0],
            visit: Visit::Idle,
            in_round: false,
            direct: None,
            rounds: 0,
            captures: 0,
        }
    }

    /// Some leaf is still unexplored: another round is needed.
    pub fn unexplored(&self) -> bool {
        self.nodes[0].open
    }

    fn cur(&self) -> usize {
        *self.path.last().expect("path starts at the root")
    }

    /// Starts a round at the root.
    pub fn start_round(&mut self) {
        self.path.truncate(1);
        self.visit = Visit::Idle;
        self.in_round = true;
        self.direct = None;
        self.rounds += 1;
    }

    /// The test reached the patched location: the patches to capture now, or the one patch to run.
    pub fn enter(&mut self) -> Result<Enter, Unstable> {
        if !self.in_round {
            return Err(Unstable("the location was reached outside a round".into()));
        }
        if let Some(p) = self.direct {
            return Ok(Enter::Direct(p));
        }
        if !matches!(self.visit, Visit::Idle) {
            return Err(Unstable(
                "the location was reached again while capturing (re-entrant or concurrent)".into(),
            ));
        }
        let cur = self.cur();
        let node = &self.nodes[cur];
        match node.status {
            // A class of one patch cannot split: every change the patch makes from here on is its
            // own, so it runs as in a round of its own (no capture, no replay).
            Status::NotVisited if node.patches.len() == 1 => {
                let p = node.patches[0];
                self.direct = Some(p);
                Ok(Enter::Direct(p))
            }
            Status::NotVisited => {
                self.captures += node.patches.len() as u64;
                self.visit = Visit::Explore {
                    node: cur,
                    reported: Vec::with_capacity(node.patches.len()),
                };
                Ok(Enter::Capture(node.patches.clone()))
            }
            Status::Visited => {
                let Some(child) = node
                    .edges
                    .iter()
                    .map(|(_, c)| *c)
                    .find(|c| self.nodes[*c].open)
                else {
                    return Err(Unstable(
                        "reached a node whose subtree is fully explored".into(),
                    ));
                };
                let representative = self.nodes[child].patches[0];
                let expected = self.nodes[child].rep_change.clone();
                self.captures += 1;
                self.visit = Visit::Follow {
                    child,
                    expected,
                    representative,
                    reported: None,
                };
                Ok(Enter::Capture(vec![representative]))
            }
            Status::Finished => Err(Unstable(
                "the test went on past a state where it had finished".into(),
            )),
        }
    }

    /// The captured change of one patch at this visit.
    pub fn report(&mut self, patch: PatchId, change: Change) -> Result<(), Unstable> {
        match &mut self.visit {
            Visit::Explore { node, reported } => {
                if !self.nodes[*node].patches.contains(&patch)
                    || reported.iter().any(|(p, _)| *p == patch)
                {
                    return Err(Unstable(format!("unexpected capture of patch {patch}")));
                }
                reported.push((patch, change));
                Ok(())
            }
            Visit::Follow {
                representative,
                reported,
                ..
            } if *representative == patch && reported.is_none() => {
                *reported = Some(change);
                Ok(())
            }
            _ => Err(Unstable(format!("unexpected capture of patch {patch}"))),
        }
    }

    /// Ends the visit: groups captures into children (first visit), moves to a child with
    /// unexplored leaves, and returns the patch whose captured change is to be replayed.
    pub fn choose(&mut self) -> Result<PatchId, Unstable> {
        match std::mem::replace(&mut self.visit, Visit::Idle) {
            Visit::Idle => Err(Unstable("choose without a visit".into())),
            Visit::Explore { node, reported } => {
                if reported.len() != self.nodes[node].patches.len() {
                    return Err(Unstable("not every patch was captured".into()));
                }
                for (patch, change) in reported {
                    let (merge, alone) = readings(&change);
                    match self.nodes[node].edges.iter().find(|(c, _)| c == merge) {
                        Some(&(_, child)) => self.nodes[child].patches.push(patch),
                        None => {
                            let child = self.nodes.len();
                            self.nodes.push(Node {
                                status: Status::NotVisited,
                                patches: vec![patch],
                                edges: vec![],
                                open: true,
                                rep_change: alone.to_string(),
                            });
                            self.nodes[node].edges.push((merge.to_string(), child));
                        }
                    }
                }
                self.nodes[node].status = Status::Visited;
                let child = self.nodes[node].edges[0].1;
                self.path.push(child);
                Ok(self.nodes[child].patches[0])
            }
            Visit::Follow {
                child,
                expected,
                representative,
                reported,
            } => match reported {
                Some(c) if readings(&c).1 == expected => {
                    self.path.push(child);
                    Ok(representative)
                }
                Some(c) => Err(Unstable(format!(
                    "patch {representative} changed the state differently than recorded ({c} vs {expected})"
                ))),
                None => Err(Unstable("the representative patch was not captured".into())),
            },
        }
    }

    /// The test finished: marks the leaf and returns the patches whose result this round decides.
    pub fn finish_round(&mut self) -> Result<Vec<PatchId>, Unstable> {
        if !self.in_round {
            return Err(Unstable("finish without a round".into()));
        }
        self.in_round = false;
        if !matches!(self.visit, Visit::Idle) {
            self.visit = Visit::Idle;
            return Err(Unstable("the test ended in the middle of a capture".into()));
        }
        let cur = self.cur();
        if self.nodes[cur].status != Status::NotVisited {
            return Err(Unstable(
                "the test finished at a node already marked visited (a location reached before was not reached now)".into(),
            ));
        }
        self.nodes[cur].status = Status::Finished;
        self.nodes[cur].open = false;
        // Close ancestors whose children are all closed.
        for &n in self.path.iter().rev().skip(1) {
            let open = self.nodes[n].status == Status::NotVisited
                || self.nodes[n].edges.iter().any(|(_, c)| self.nodes[*c].open);
            self.nodes[n].open = open;
        }
        Ok(self.nodes[cur].patches.clone())
    }

    /// The patches that behaved alike on this round's path so far (the class being followed): it
    /// only shrinks as the round goes deeper. A round that hangs is attributed to this class.
    pub fn current_class(&self) -> &[PatchId] {
        &self.nodes[self.cur()].patches
    }

    /// Some patch of the tree (to finish a round that can no longer be trusted).
    pub fn first_patch(&self) -> PatchId {
        self.nodes[0].patches.first().copied().unwrap_or(0)
    }

    /// Number of finished leaves so far (test-equivalence classes found).
    pub fn classes(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.status == Status::Finished)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// A simulated test: at each visit of the location a patch with behaviour `b` makes a change
    /// drawn from a small domain (so different behaviours often coincide for a while); whether the
    /// location is visited again and the final result depend only on the changes so far.
    #[derive(Debug, Clone)]
    struct Program {
        seed: u64,
        domain: u64,
        max_depth: usize,
        behaviours: Vec<u64>,
    }

    fn mix(mut h: u64, x: u64) -> u64 {
        h ^= x
            .wrapping_add(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(h << 6)
            .wrapping_add(h >> 2);
        h.wrapping_mul(0xff51_afd7_ed55_8ccd)
    }

    impl Program {
        fn hash(&self, path: &[String]) -> u64 {
            path.iter().fold(self.seed, |h, c| {
                mix(h, c.bytes().fold(7, |a, b| mix(a, b as u64)))
            })
        }
        fn visits(&self, path: &[String]) -> bool {
            path.len() < self.max_depth && !self.hash(path).is_multiple_of(4)
        }
        fn change(&self, patch: usize, path: &[String]) -> String {
            let v = mix(self.hash(path), self.behaviours[patch]) % self.domain;
            format!("c{v}")
        }
        fn result(&self, path: &[String]) -> bool {
            !self.hash(path).is_multiple_of(3)
        }
        /// Plain enumeration: one run per patch; returns the result and the behaviour path.
        fn plain(&self, patch: usize) -> (bool, Vec<String>) {
            let mut path = vec![];
            while self.visits(&path) {
                path.push(self.change(patch, &path));
            }
            (self.result(&path), path)
        }
    }

    fn program() -> impl Strategy<Value = Program> {
        (any::<u64>(), 1u64..5, 0usize..5, 1usize..40, 1u64..8).prop_flat_map(
            |(seed, domain, max_depth, n, kinds)| {
                proptest::collection::vec(0..kinds, n).prop_map(move |behaviours| Program {
                    seed,
                    domain,
                    max_depth,
                    behaviours,
                })
            },
        )
    }

    proptest! {
        #[test]
        fn tree_matches_plain_enumeration(p in program()) {
            let n = p.behaviours.len();
            let mut tree = Tree::new((0..n as u32).collect());
            let mut results: BTreeMap<u32, bool> = BTreeMap::new();
            while tree.unexplored() {
                tree.start_round();
                let mut path: Vec<String> = vec![];
                let mut class_size = n;
                while p.visits(&path) {
                    let rep = match tree.enter().unwrap() {
                        Enter::Capture(list) => {
                            for patch in list {
                                tree.report(patch, p.change(patch as usize, &path)).unwrap();
                            }
                            tree.choose().unwrap()
                        }
                        Enter::Direct(patch) => {
                            prop_assert_eq!(tree.current_class(), &[patch][..]);
                            patch
                        }
                    };
                    path.push(p.change(rep as usize, &path));
                    // The class followed (what a hanging round is attributed to) shrinks along
                    // the path and holds exactly patches whose own runs share the path so far.
                    let class = tree.current_class().to_vec();
                    prop_assert!(class.contains(&rep) && class.len() <= class_size);
                    class_size = class.len();
                    for patch in class {
                        prop_assert!(p.plain(patch as usize).1.starts_with(&path));
                    }
                }
                for patch in tree.finish_round().unwrap() {
                    prop_assert!(results.insert(patch, p.result(&path)).is_none());
                }
                prop_assert!(tree.rounds <= n as u64);
            }
            let mut paths = BTreeSet::new();
            for patch in 0..n {
                let (result, path) = p.plain(patch);
                prop_assert_eq!(results.get(&(patch as u32)), Some(&result));
                paths.insert(path);
            }
            prop_assert_eq!(tree.rounds as usize, paths.len());
            prop_assert_eq!(tree.classes(), paths.len());
        }
    }

    #[test]
    fn contradictions_are_reported() {
        let mut t = Tree::new(vec![0, 1]);
        t.start_round();
        assert_eq!(t.enter().unwrap(), Enter::Capture(vec![0, 1]));
        t.report(0, "a".into()).unwrap();
        t.report(1, "b".into()).unwrap();
        assert_eq!(t.choose().unwrap(), 0);
        assert_eq!(t.finish_round().unwrap(), vec![0]);
        // Second round: the representative of the remaining child now behaves differently.
        t.start_round();
        assert_eq!(t.enter().unwrap(), Enter::Capture(vec![1]));
        t.report(1, "z".into()).unwrap();
        assert!(t.choose().is_err());
        // A node of one patch is not captured: the round runs that patch from there on.
        let mut t = Tree::new(vec![4]);
        t.start_round();
        assert_eq!(t.enter().unwrap(), Enter::Direct(4));
        assert_eq!(t.enter().unwrap(), Enter::Direct(4));
        assert_eq!(t.finish_round().unwrap(), vec![4]);
        assert_eq!(t.captures, 0);
        assert!(!t.unexplored());
        let mut t2 = Tree::new(vec![0, 1]);
        t2.start_round();
        t2.enter().unwrap();
        t2.report(0, "a".into()).unwrap();
        t2.report(1, "b".into()).unwrap();
        t2.choose().unwrap();
        t2.finish_round().unwrap();
        t2.start_round();
        assert!(t2.finish_round().is_err(), "ended at the visited root");
        // Re-entrance while capturing.
        let mut t3 = Tree::new(vec![0, 1]);
        t3.start_round();
        t3.enter().unwrap();
        assert!(t3.enter().is_err());
    }

    /// Patches group by the merge reading of their change (objects numbered across the visit), and
    /// a later round checks the representative against the reading it gets when captured alone.
    #[test]
    fn references_group_by_identity_and_check_alone() {
        let mut t = Tree::new(vec![0, 1, 2]);
        t.start_round();
        assert_eq!(t.enter().unwrap(), Enter::Capture(vec![0, 1, 2]));
        // 0 and 2 hold the same object, 1 an equal but distinct one.
        t.report(0, "S1:a#0".into()).unwrap();
        t.report(1, "S1:a#1\0S1:a#0".into()).unwrap();
        t.report(2, "S1:a#0".into()).unwrap();
        assert_eq!(t.choose().unwrap(), 0);
        assert_eq!(t.current_class(), &[0, 2][..]);
        assert_eq!(t.finish_round().unwrap(), vec![0, 2]);
        t.start_round();
        assert_eq!(t.enter().unwrap(), Enter::Capture(vec![1]));
        t.report(1, "S1:a#0".into()).unwrap();
        assert_eq!(t.choose().unwrap(), 1);
        assert_eq!(t.finish_round().unwrap(), vec![1]);
        assert!(!t.unexplored());
    }
}
