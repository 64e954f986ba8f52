//! The persisted summary of the purity analysis: per class simple name, the calls that are pure
//! (or cannot read the stack) and closed whatever class of the class path (or generated class)
//! the receiver turns out to be, the calls that return a primitive, and which
//! classes have initialisers with effects.

use super::classfile::{self, ACC_ABSTRACT, ACC_PRIVATE, ACC_STATIC, ACC_SYNTHETIC};
use super::jdk::{jdk, simple_name};
use super::{arity16, Graph, Openness, Purity};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Per class: `(name, arity)` → whether every method of that name and arity the class declares
/// or inherits is allowed by the [`Rule`] (pure, or reading no stack) and closed (`facts[0]`),
/// and whether every one returns a primitive (`facts[1]`); and whether the class's supertypes
/// are all known (a class that inherits from a JDK class outside the allowlist may have methods
/// we cannot see).
struct ClassCalls {
    facts: [HashMap<(String, u16), bool>; 2],
    complete: bool,
}

/// `(method name, arity, simple class name)` entries, sorted.
pub(super) type ClassList = Vec<(String, u16, String)>;

/// Which method nodes a per-class summary rules out.
#[derive(Clone, Copy)]
enum Rule<'m> {
    /// The impure ones; a JDK supertype's method is judged by its allowlist verdict.
    Pure(&'m [bool]),
    /// The stack readers; a JDK supertype's method is never known not to read.
    Stack(&'m [bool]),
}

impl Rule<'_> {
    fn marked(&self) -> &[bool] {
        match self {
            Rule::Pure(m) | Rule::Stack(m) => m,
        }
    }
}

/// Per simple name: the `(name, arity, simple name)` calls [`Rule`] allows, and those that
/// return a primitive. A simple name may stand for several classes: a call is
/// allowed only when it is for all of those that have a method of that name and arity, and
/// every one without it is complete. Simple names in `skip` get no entry.
fn per_class(g: &Graph, rule: Rule, skip: &HashSet<&str>) -> [ClassList; 2] {
    // Instance methods by name and arity, for overrides of JDK methods (known by arity only).
    let mut by_arity: HashMap<(&str, usize), Vec<usize>> = HashMap::new();
    for ((name, descriptor), nodes) in &g.overriders {
        if let Some(arity) = classfile::arity(descriptor) {
            by_arity.entry((name, arity)).or_default().extend(nodes);
        }
    }
    let mut by_simple: BTreeMap<&str, Vec<ClassCalls>> = BTreeMap::new();
    for (ci, c) in g.classes.iter().enumerate() {
        let simple = simple_name(&c.name);
        if !skip.contains(simple) {
            by_simple
                .entry(simple)
                .or_default()
                .push(class_calls(g, ci, rule, &by_arity));
        }
    }
    let mut out = [Vec::new(), Vec::new()];
    for (simple, classes) in by_simple {
        for (fact, list) in out.iter_mut().enumerate() {
            agree(simple, &classes, fact, list);
        }
    }
    out.iter_mut().for_each(|l| l.sort_unstable());
    out
}

/// Adds to `out` the keys every class of this simple name agrees on in `facts[fact]`
/// ([`per_class`]).
fn agree(simple: &str, classes: &[ClassCalls], fact: usize, out: &mut ClassList) {
    let keys: HashSet<&(String, u16)> = classes.iter().flat_map(|c| c.facts[fact].keys()).collect();
    for key in keys {
        let ok = classes
            .iter()
            .all(|c| c.facts[fact].get(key).copied().unwrap_or(c.complete));
        if ok {
            out.push((key.0.clone(), key.1, simple.to_string()));
        }
    }
}

/// The per-class stack summary: the `(name, arity, simple name)` calls that cannot read the
/// stack (the resolved declarations and every override on the class path read none, no JDK
/// supertype's method can run, no generated class can), and the calls that return a primitive.
/// A simple name that is also a JDK class's gets no entry: the source's name may
/// mean either. Without the JDK's classes (`ct.sym` missing), none.
pub(super) fn summarise_stack(g: &Graph, readers: &[bool]) -> (ClassList, ClassList) {
    let Some(jdk_types) = g.jdk_types.filter(|t| !t.is_empty()) else {
        return (Vec::new(), Vec::new());
    };
    let skip = jdk_types.simple_names();
    let [free, values] = per_class(g, Rule::Stack(readers), &skip);
    (free, values)
}

/// JDK supertypes that give JDK code holding an object nothing more to call than the object's
/// own overrides: an enum's `Enum` calls only `toString` of its constants' classes, `Number`
/// only the subclass's `intValue` and the like, which the overrides include. (Not `Record`: its
/// generated `equals`, `hashCode` and `toString` call its components'.)
const PLAIN_SUPERCLASSES: &[&str] = &["java/lang/Object", "java/lang/Enum", "java/lang/Number"];

/// The simple names of the class-path classes whose objects JDK code may be handed without
/// reaching a stack read: for the class and every class of the class path that may be of its
/// type, every instance method that may override a JDK method or is a serialization hook reads
/// no stack ([`super::handed::overrides_jdk`]), and every supertype outside the class path is
/// [`PLAIN_SUPERCLASSES`] or an interface that holds no objects
/// ([`super::handed::may_hold_objects`]; `Serializable` only while no serialization hook on the
/// class path reads the stack, since serialization walks the fields). Not an interface (a lambda
/// or a proxy may be one); with a subclass generator on the class path only a final class, and
/// none with one that redefines classes; only a simple name every class of that name agrees on
/// and that no JDK class has. Without the JDK's classes, none. Second, the same for an object
/// that `new` made of exactly that class (`map.put(k, new Count(1))`): no subclass can be it,
/// so only the class and its supertypes count, and a subclass generator does not.
pub(super) fn summarise_handed(g: &Graph, readers: &[bool]) -> [Vec<String>; 2] {
    use super::classfile::ACC_INTERFACE;
    let Some(jdk_types) = g.jdk_types.filter(|t| !t.is_empty()) else {
        return [Vec::new(), Vec::new()];
    };
    if g.openness == Openness::Redefines {
        return [Vec::new(), Vec::new()];
    }
    // A subclass generator can stand in for any class that is not final.
    let sealed = |c: &classfile::ClassFile| {
        g.openness == Openness::Closed || c.access & super::classfile::ACC_FINAL != 0
    };
    let skip = jdk_types.simple_names();
    let hook = |m: &classfile::Method| {
        let arity = classfile::arity(&m.descriptor).unwrap_or(usize::MAX);
        super::stack::SERIALIZATION_HOOKS.contains(&(m.name.as_str(), arity))
    };
    let node = |ci: usize, mi: usize| g.first[ci] + mi;
    let hooks_read = g.classes.iter().enumerate().any(|(ci, c)| {
        c.methods
            .iter()
            .enumerate()
            .any(|(mi, m)| hook(m) && readers[node(ci, mi)])
    });
    let outside_ok = |t: &str| {
        let serial = t == "java/io/Serializable" || t == "java/io/Externalizable";
        (serial && !hooks_read) || (!serial && !super::handed::may_hold_objects(t))
    };
    // Whether the class's own callbacks and supertypes outside the class path are plain.
    let own_ok: Vec<bool> = g
        .classes
        .iter()
        .enumerate()
        .map(|(ci, c)| {
            let callbacks = c.methods.iter().enumerate().all(|(mi, m)| {
                let called =
                    m.access & ACC_STATIC == 0 && (hook(m) || super::handed::overrides_jdk(g, m));
                !called || !readers[node(ci, mi)]
            });
            let superclass = c
                .super_name
                .as_deref()
                .is_none_or(|s| g.by_name.contains_key(s) || PLAIN_SUPERCLASSES.contains(&s));
            let interfaces = c
                .interfaces
                .iter()
                .all(|i| g.by_name.contains_key(i.as_str()) || outside_ok(i));
            callbacks && superclass && interfaces
        })
        .collect();
    // With every supertype on the class path plain too (what a class inherits runs on it).
    let mut ok = vec![None; g.classes.len()];
    for ci in 0..g.classes.len() {
        plain_with_supertypes(g, ci, &own_ok, &mut ok, 0);
    }
    // A class is not free when some class that may be of its type is not plain.
    let mut free: Vec<bool> = ok.iter().map(|o| *o == Some(true)).collect();
    for (ci, o) in ok.iter().enumerate() {
        if *o != Some(true) {
            mark_supertypes(g, ci, &mut free, 0);
        }
    }
    // `[any object of the type, an object that `new` made of exactly that class]`.
    let mut by_simple: BTreeMap<&str, [bool; 2]> = BTreeMap::new();
    for (ci, c) in g.classes.iter().enumerate() {
        let simple = simple_name(&c.name);
        let class = c.access & ACC_INTERFACE == 0 && !skip.contains(simple);
        let here = [free[ci] && sealed(c), ok[ci] == Some(true)].map(|f| f && class);
        let entry = by_simple.entry(simple).or_insert([true, true]);
        entry[0] &= here[0];
        entry[1] &= here[1];
    }
    [0, 1].map(|k| {
        by_simple
            .iter()
            .filter(|(_, f)| f[k])
            .map(|(n, _)| n.to_string())
            .collect()
    })
}

/// The class-path supertypes of class `ci` (superclass and interfaces).
fn class_path_supertypes<'g>(g: &'g Graph, ci: usize) -> impl Iterator<Item = usize> + 'g {
    let c = &g.classes[ci];
    c.super_name
        .iter()
        .chain(&c.interfaces)
        .filter_map(|s| g.by_name.get(s.as_str()).copied())
}

/// Whether class `ci` and all its class-path supertypes are plain (`own`), memoised in `ok`. A
/// hierarchy deeper than the class path (a cycle) is not.
fn plain_with_supertypes(
    g: &Graph,
    ci: usize,
    own: &[bool],
    ok: &mut [Option<bool>],
    depth: usize,
) -> bool {
    if let Some(known) = ok[ci] {
        return known;
    }
    let result = depth <= g.classes.len()
        && own[ci]
        && class_path_supertypes(g, ci)
            .collect::<Vec<_>>()
            .into_iter()
            .all(|s| plain_with_supertypes(g, s, own, ok, depth + 1));
    ok[ci] = Some(result);
    result
}

/// Marks class `ci`'s class-path supertypes not free: an object of their type may be a `ci`.
fn mark_supertypes(g: &Graph, ci: usize, free: &mut [bool], depth: usize) {
    if depth > g.classes.len() {
        return;
    }
    for s in class_path_supertypes(g, ci).collect::<Vec<_>>() {
        if free[s] {
            free[s] = false;
            mark_supertypes(g, s, free, depth + 1);
        }
    }
}

pub(super) fn summarise(g: &Graph, impure: &[bool], init_safe: &[bool]) -> Purity {
    let mut p = Purity {
        callbacks_pure: !impure[g.callbacks()],
        fn_callbacks_pure: !impure[g.fn_callbacks()],
        classes: g.classes.len(),
        openness: g.openness,
        proxies: g.proxies,
        ..Purity::default()
    };
    let mut names = BTreeSet::new();
    for (ci, c) in g.classes.iter().enumerate() {
        for (mi, m) in c.methods.iter().enumerate() {
            if !impure[g.first[ci] + mi] {
                p.pure_methods += 1;
            } else {
                p.impure_methods += 1;
                if callable(m) && m.name != "<init>" {
                    p.impure.push((m.name.clone(), arity16(&m.descriptor)));
                }
            }
        }
        let simple = simple_name(&c.name);
        if !init_safe[ci] {
            p.init_unsafe.push(simple.to_string());
            p.init_unsafe_statics
                .extend(c.static_fields.iter().cloned());
        }
        names.insert(simple.to_string());
    }
    p.names = names.into_iter().collect();
    [p.pure, _] = per_class(g, Rule::Pure(impure), &HashSet::new());
    p.pure.sort_unstable();
    p.impure.sort_unstable();
    p.impure.dedup();
    p.init_unsafe.sort_unstable();
    p.init_unsafe.dedup();
    p.init_unsafe_statics.sort_unstable();
    p.init_unsafe_statics.dedup();
    p
}

/// What class `ci` declares or inherits: each method's purity as a call on a receiver of
/// static type `ci` ([`closed_pure`]), its own constructors, and the allowlisted methods of JDK
/// supertypes, which subtypes on the class path may override.
fn class_calls(
    g: &Graph,
    ci: usize,
    rule: Rule,
    by_arity: &HashMap<(&str, usize), Vec<usize>>,
) -> ClassCalls {
    let c = &g.classes[ci];
    let impure = rule.marked();
    let mut calls = HashMap::new();
    let mut values = HashMap::new();
    let mut record = |name: &str, arity: u16, ok: bool, value: bool| {
        *calls.entry((name.to_string(), arity)).or_insert(true) &= ok;
        *values.entry((name.to_string(), arity)).or_insert(true) &= value;
    };
    let mut types = vec![c.name.as_str()];
    let (mut seen, mut declared) = (HashSet::new(), HashSet::new());
    let mut subtypes: Option<HashSet<&str>> = None;
    let mut complete = true;
    while let Some(t) = types.pop() {
        if !seen.insert(t) {
            continue;
        }
        let Some(&ti) = g.by_name.get(t) else {
            let Some(j) = jdk().iter().find(|j| j.class == t) else {
                complete = false;
                continue;
            };
            let subs = subtypes.get_or_insert_with(|| all_subtypes(g, ci));
            for &(name, arity) in &j.methods {
                if name.starts_with('<') {
                    continue;
                }
                let verdict = matches!(rule, Rule::Pure(_))
                    && j.verdict(name, arity)
                        .is_some_and(|cb| p_callback(g, impure, cb));
                // Subtypes on the class path that override it; the receiver's class itself
                // declares it when `declared` has it (checked through the graph above).
                let nodes = by_arity.get(&(name, arity)).map_or(&[][..], |v| v);
                let overridden_impurely = if subs.len() < nodes.len() {
                    subs.iter().filter_map(|s| g.by_name.get(s)).any(|&si| {
                        let methods = &g.classes[si].methods;
                        methods.iter().enumerate().any(|(mi, m)| {
                            m.name == name
                                && m.access & (ACC_STATIC | ACC_PRIVATE | ACC_ABSTRACT) == 0
                                && classfile::arity(&m.descriptor) == Some(arity)
                                && impure[g.first[si] + mi]
                        })
                    })
                } else {
                    nodes
                        .iter()
                        .any(|&n| impure[n] && subs.contains(class_of(g, n)))
                };
                let open = g.openness == Openness::Redefines
                    || (g.openness == Openness::Subclasses && c.access & classfile::ACC_FINAL == 0)
                    || (g.proxies && c.access & classfile::ACC_INTERFACE != 0);
                let ok = verdict && !overridden_impurely && !open;
                record(name, arity as u16, ok, false);
            }
            continue;
        };
        let tc = &g.classes[ti];
        for m in &tc.methods {
            let own_constructor = m.name == "<init>" && ti == ci;
            if !callable(m) || (m.name == "<init>" && !own_constructor) {
                continue;
            }
            if !declared.insert((m.name.as_str(), m.descriptor.as_str())) {
                continue;
            }
            let subs = subtypes.get_or_insert_with(|| all_subtypes(g, ci));
            let ok = closed_pure(g, ci, m, own_constructor, impure, subs);
            record(
                &m.name,
                arity16(&m.descriptor),
                ok,
                returns_value(&m.descriptor),
            );
        }
        types.extend(
            tc.super_name
                .iter()
                .chain(&tc.interfaces)
                .map(String::as_str),
        );
    }
    ClassCalls {
        facts: [calls, values],
        complete,
    }
}

/// Whether a method of this descriptor returns a primitive (an override returns the same: a
/// primitive return type cannot vary).
fn returns_value(descriptor: &str) -> bool {
    let ret = descriptor.rsplit(')').next().unwrap_or("");
    matches!(ret, "Z" | "B" | "C" | "S" | "I" | "J" | "F" | "D")
}

/// Whether a call of `m` (declared by class `ci` or a supertype) on a receiver of static type
/// `ci` runs only pure code: the declaration it resolves to and every override in a subtype
/// (what [`Graph::invoke`] depends on, with early exits), and no generated code.
fn closed_pure(
    g: &Graph,
    ci: usize,
    m: &classfile::Method,
    own_constructor: bool,
    impure: &[bool],
    subs: &HashSet<&str>,
) -> bool {
    let c = &g.classes[ci];
    let (name, descriptor) = (m.name.as_str(), m.descriptor.as_str());
    let pure = |nodes: &[usize]| nodes.iter().all(|&n| !impure[n]);
    let mut resolved = Vec::new();
    if own_constructor {
        resolved.extend(g.declared(ci, name, descriptor));
    } else {
        g.resolve(&c.name, name, descriptor, &mut resolved);
    }
    if resolved.is_empty() || !pure(&resolved) {
        return false;
    }
    if g.openness == Openness::Redefines {
        return false;
    }
    if own_constructor || m.access & ACC_STATIC != 0 {
        return true;
    }
    if g.open(ci, &resolved) {
        return false;
    }
    if c.access & classfile::ACC_INTERFACE != 0 {
        // An implementing class may inherit the method from a superclass that is no subtype.
        let mut out = Vec::new();
        subs.iter().all(|sub| {
            out.clear();
            g.resolve(sub, name, descriptor, &mut out);
            pure(&out)
        })
    } else {
        // Every subclass's superclass chain runs through `ci`: an override in a subtype is
        // what can run instead of the resolved declaration.
        let overriders = g.overriders.get(&(name, descriptor)).map_or(&[][..], |v| v);
        if subs.len() < overriders.len() {
            subs.iter().all(|sub| {
                let declared = g
                    .by_name
                    .get(sub)
                    .and_then(|&si| g.declared(si, name, descriptor));
                declared.is_none_or(|n| !impure[n])
            })
        } else {
            overriders
                .iter()
                .all(|&o| !impure[o] || !subs.contains(class_of(g, o)))
        }
    }
}

fn callable(m: &classfile::Method) -> bool {
    m.name != "<clinit>" && m.access & ACC_SYNTHETIC == 0
}

fn p_callback(g: &Graph, impure: &[bool], cb: super::Callback) -> bool {
    match cb {
        super::Callback::No => true,
        super::Callback::Objects => !impure[g.callbacks()],
        super::Callback::Functions => !impure[g.fn_callbacks()],
    }
}

/// The class that declares method node `n`.
fn class_of<'a>(g: &Graph<'a>, n: usize) -> &'a str {
    let ci = g.first.partition_point(|&f| f <= n) - 1;
    g.classes[ci].name.as_str()
}

/// Every class on the class path that is a subtype of `ci` (itself included).
fn all_subtypes<'a>(g: &Graph<'a>, ci: usize) -> HashSet<&'a str> {
    let mut out = HashSet::from([g.classes[ci].name.as_str()]);
    let mut queue = vec![g.classes[ci].name.as_str()];
    while let Some(t) = queue.pop() {
        for &s in g.subtypes.get(t).into_iter().flatten() {
            let sub = g.classes[s].name.as_str();
            if out.insert(sub) {
                queue.push(sub);
            }
        }
    }
    out
}
