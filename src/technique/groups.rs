//! How a set's woven patches are cut into groups, each its own woven file and compile: at most
//! [`GROUP`] patches and [`GROUP_TEXT`] bytes of woven text, cases within the stub's 64 KB of
//! code.

use crate::weave;
use std::collections::VecDeque;

/// Patches woven into one file at most. A weave's stub holds a `switch` case per patch and its
/// class a method per patch: past a few thousand patches the stub's method is over the JVM's
/// 64 KB of code (javac: "code too large for try statement") or the class over its 65,535
/// constants. Groups this size stay well below both for the statements seen so far; a group that
/// is not is halved (`compile::too_large`), and so are the groups after it.
pub const GROUP: usize = 1000;

/// Woven text a group's first compile holds at most, in bytes (each patch's context copy of the
/// enclosing method and its statement twice): a long method's copies, a thousand of them, would
/// hold javac's heap for nothing, the compile being linear in the patches anyway.
pub const GROUP_TEXT: usize = 4 << 20;

/// `patches` in the groups they are compiled in, in order: [`chunks`] of `size`. Patches of
/// different line shifts share a group and its compile even where a frame's line may reach an
/// outcome: each shift then runs in a copy of the classes with its own line table
/// (`compile::finish`).
pub(super) fn cut(
    patches: &[usize],
    size: usize,
    weight: impl Fn(usize) -> usize + Copy,
) -> VecDeque<Vec<usize>> {
    chunks(patches, size, weight)
}

/// Bytecode the stub's cases may take in the method holding them: the JVM's 64 KB less room for
/// the stub's fixed code and the enclosing method's own (at most its text's length in bytes).
const STUB_CODE: usize = 60 << 10;

/// Patches per group: [`GROUP`], or fewer when the costliest patch's cases
/// ([`weave::Plan::case_bytes`]: many arguments, twice through the tree) times the group would
/// pass [`STUB_CODE`] less the enclosing method's text. Cut this way up front, a group is rarely
/// past the JVM's limits; one that still is costs a compile and is halved (`woven`).
pub(super) fn group_size(plan: &weave::Plan, patches: &[usize]) -> usize {
    let budget = STUB_CODE.saturating_sub(plan.site.method.len());
    let costliest = patches
        .iter()
        .map(|&i| plan.case_bytes(i))
        .max()
        .unwrap_or(1);
    (budget / costliest.max(1)).clamp(1, GROUP)
}

/// `patches` in consecutive groups of at most `size` patches (of sizes as equal as they can be)
/// and at most [`GROUP_TEXT`] bytes by `weight` (a patch over it alone); no group is empty.
fn chunks(patches: &[usize], size: usize, weight: impl Fn(usize) -> usize) -> VecDeque<Vec<usize>> {
    let n = patches.len().div_ceil(size.max(1)).max(1);
    let (per, extra) = (patches.len() / n, patches.len() % n);
    let mut groups = VecDeque::new();
    let mut start = 0;
    for k in 0..n {
        let chunk = &patches[start..start + per + usize::from(k < extra)];
        start += chunk.len();
        if chunk.is_empty() {
            continue;
        }
        let mut group: Vec<usize> = Vec::new();
        let mut text = 0;
        for &i in chunk {
            if !group.is_empty() && text + weight(i) > GROUP_TEXT {
                groups.push_back(std::mem::take(&mut group));
                text = 0;
            }
            text += weight(i);
            group.push(i);
        }
        groups.push_back(group);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_even_and_within_the_text_budget() {
        let all: Vec<usize> = (0..2500).collect();
        let sizes = |g: &VecDeque<Vec<usize>>| g.iter().map(Vec::len).collect::<Vec<_>>();
        assert_eq!(sizes(&chunks(&all, GROUP, |_| 100)), [834, 833, 833]);
        assert_eq!(sizes(&chunks(&all[..10], GROUP, |_| 100)), [10]);
        assert_eq!(sizes(&chunks(&all[..9], 4, |_| 100)), [3, 3, 3]);
        // A long enclosing method: its context copies fill the budget before GROUP patches.
        let g = chunks(&all[..1000], GROUP, |_| GROUP_TEXT / 300);
        assert_eq!(sizes(&g), [300, 300, 300, 100]);
        assert_eq!(g.iter().flatten().copied().collect::<Vec<_>>(), all[..1000]);
        // One patch over the budget is still a group of its own.
        assert_eq!(sizes(&chunks(&all[..2], GROUP, |_| GROUP_TEXT + 1)), [1, 1]);
        assert!(chunks(&[], GROUP, |_| 1).is_empty());
    }
}
