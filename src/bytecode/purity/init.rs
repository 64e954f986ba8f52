//! Which classes of the class path can be initialised with no effect a test could see: capturing
//! the patches of a tree node runs every one of them, so a patch that names another class may
//! initialise it earlier than the patch plain validation runs would (or when that patch never
//! does).

use super::{is_jdk, Graph};
use crate::bytecode::classfile::{Code, InvokeKind};
use crate::bytecode::purity::jdk::{jdk_verdict, Callback};
use std::collections::HashSet;

/// Per class of the graph: whether initialising it (and the superclasses and superinterfaces it
/// initialises) is free of effects outside the class.
///
/// A class is safe when it has no `<clinit>`, or its `<clinit>` only builds the class's own
/// state: it writes static fields of the class itself, fields of objects of the class (declared
/// there or in a superclass: every such object is new while the class is being initialised) and
/// array elements (of arrays it created: it reads no other class's static field), reads only its own static fields, creates
/// only objects of the class, and calls only allowlisted JDK methods that call no project code
/// and methods of the class and its superclasses that follow the same rules. Superclasses on the
/// class path must be safe too; JDK superclasses are taken as safe (their initialisation
/// changes no state a test of the project reads).
pub(super) fn init_safety(g: &Graph) -> Vec<bool> {
    let mut memo: Vec<Option<bool>> = vec![None; g.classes.len()];
    (0..g.classes.len())
        .map(|ci| class_safe(g, ci, &mut memo, 0))
        .collect()
}

fn class_safe(g: &Graph, ci: usize, memo: &mut Vec<Option<bool>>, depth: usize) -> bool {
    if let Some(known) = memo[ci] {
        return known;
    }
    if depth > g.classes.len() {
        return false;
    }
    // A cycle through supertypes cannot occur in loadable classes; assume unsafe meanwhile.
    memo[ci] = Some(false);
    let c = &g.classes[ci];
    let supers_safe =
        c.super_name
            .iter()
            .chain(&c.interfaces)
            .all(|s| match g.by_name.get(s.as_str()) {
                Some(&si) => class_safe(g, si, memo, depth + 1),
                None => is_jdk(s),
            });
    let safe = supers_safe
        && match c.methods.iter().find(|m| m.name == "<clinit>") {
            None => true,
            Some(m) => m
                .code
                .as_ref()
                .is_some_and(|code| builds_own_state(g, ci, code, &mut HashSet::new())),
        };
    memo[ci] = Some(safe);
    safe
}

/// The class initialiser rules of [`init_safety`] for one body run during the initialisation
/// of class `ci`.
fn builds_own_state<'a>(
    g: &'a Graph,
    ci: usize,
    code: &'a Code,
    visiting: &mut HashSet<(&'a str, &'a str, &'a str)>,
) -> bool {
    let own = g.classes[ci].name.as_str();
    let only_own = |list: &[String]| list.iter().all(|o| o == own);
    let own_or_super = |o: &String| {
        g.by_name
            .get(o.as_str())
            .is_some_and(|&oi| is_own_or_superclass(g, ci, oi))
    };
    let allowed_effect = |e: &&str| matches!(*e, "putstatic" | "putfield") || e.ends_with("astore");
    if !code.effects.iter().all(allowed_effect)
        || !only_own(&code.static_reads)
        || !only_own(&code.static_writes)
        || !code.field_writes.iter().all(own_or_super)
        || !only_own(&code.news)
    {
        return false;
    }
    code.invokes.iter().all(|(kind, target)| {
        let (owner, name, desc) = (
            target.owner.as_str(),
            target.name.as_str(),
            target.descriptor.as_str(),
        );
        if owner.starts_with('[') {
            return name == "clone";
        }
        let Some(&oi) = g.by_name.get(owner) else {
            let arity = crate::bytecode::classfile::arity(desc).unwrap_or(usize::MAX);
            return is_jdk(owner)
                && *kind != InvokeKind::Interface
                && jdk_verdict(owner, name, arity) == Some(Callback::No);
        };
        if !is_own_or_superclass(g, ci, oi) {
            return false;
        }
        if !visiting.insert((owner, name, desc)) {
            return true;
        }
        // The body that runs: the declaration found up the owner's superclass chain (objects
        // of the class are all new, so no subclass override can be the receiver's).
        let mut current = Some(oi);
        while let Some(k) = current {
            if let Some(m) = g.classes[k]
                .methods
                .iter()
                .find(|m| m.name == name && m.descriptor == desc)
            {
                return m
                    .code
                    .as_ref()
                    .is_some_and(|body| builds_own_state(g, ci, body, visiting));
            }
            current = g.classes[k]
                .super_name
                .as_deref()
                .and_then(|s| g.by_name.get(s).copied());
        }
        false
    })
}

fn is_own_or_superclass(g: &Graph, ci: usize, other: usize) -> bool {
    let mut current = Some(ci);
    let mut steps = 0;
    while let Some(k) = current {
        if k == other {
            return true;
        }
        steps += 1;
        if steps > g.classes.len() {
            return false;
        }
        current = g.classes[k]
            .super_name
            .as_deref()
            .and_then(|s| g.by_name.get(s).copied());
    }
    false
}
