//! Which methods a patch may call without changing program state: a purity analysis over the
//! compiled classes of the class path (a greatest fixed point over the call graph, with a JDK
//! allowlist), summarised compactly for the weaver's source-level queries.

use super::classfile::{self, ClassFile, InvokeKind, ACC_ABSTRACT, ACC_PRIVATE, ACC_STATIC};
use super::classfile::{ACC_SYNCHRONIZED, ACC_SYNTHETIC};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// A class path entry that cannot be read, or a malformed class file in it.
pub use super::classfile::ClassPathError as PurityError;

mod jdk;
use jdk::{callbacks, jdk, jdk_verdict, simple_name, Callback, JdkEntry};

/// The result of the analysis, compact enough to persist in the work dir.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Purity {
    /// `(method name, arity, simple class name)`, sorted: the class declares or inherits (from
    /// the class path or an allowlisted JDK class) a method of that name and arity, and it is pure.
    pure: Vec<(String, u16, String)>,
    /// `(method name, arity)` of every impure project method, sorted.
    impure: Vec<(String, u16)>,
    /// Whether every project method the JDK may call back (`equals`, `toString`, ...) is pure.
    callbacks_pure: bool,
    /// Whether, in addition, every lambda body, method reference and functional method is.
    fn_callbacks_pure: bool,
    classes: usize,
    pure_methods: usize,
    impure_methods: usize,
}

impl Purity {
    /// Whether a source-level call with this qualifier (a class simple name or a declared type,
    /// if known), name and argument count can change no program state.
    pub fn call_is_pure(&self, qualifier: Option<&str>, name: &str, arity: usize) -> bool {
        let Ok(arity16) = u16::try_from(arity) else {
            return false;
        };
        let key = (name, arity16);
        if self
            .impure
            .binary_search_by(|(n, a)| (n.as_str(), *a).cmp(&key))
            .is_ok()
        {
            return false;
        }
        let start = self
            .pure
            .partition_point(|(n, a, _)| (n.as_str(), *a) < key);
        let mut declared = self.pure[start..]
            .iter()
            .take_while(|(n, a, _)| (n.as_str(), *a) == key);
        match qualifier.map(qualifier_simple_name) {
            Some(q) => {
                declared.any(|(_, _, c)| c == q)
                    || self.jdk_allows(Some(q), name, arity)
                    || self.jdk_allows(Some("Object"), name, arity)
            }
            None => declared.next().is_some() || self.jdk_allows(None, name, arity),
        }
    }

    /// Pure and impure method counts on the class path.
    pub fn summary(&self) -> (usize, usize) {
        (self.pure_methods, self.impure_methods)
    }

    /// The number of classes read.
    pub fn class_count(&self) -> usize {
        self.classes
    }

    fn callback_ok(&self, callback: Callback) -> bool {
        match callback {
            Callback::No => true,
            Callback::Objects => self.callbacks_pure,
            Callback::Functions => self.fn_callbacks_pure,
        }
    }

    fn jdk_allows(&self, qualifier: Option<&str>, name: &str, arity: usize) -> bool {
        let ok = |j: &JdkEntry| j.verdict(name, arity).is_some_and(|c| self.callback_ok(c));
        match qualifier {
            Some(q) => jdk().iter().filter(|j| j.simple == q).any(ok),
            None => {
                let mut declaring = jdk().iter().filter(|j| j.declares(name, arity)).peekable();
                declaring.peek().is_some() && declaring.all(ok)
            }
        }
    }
}

/// `java.util.List<String>` → `List`.
fn qualifier_simple_name(q: &str) -> &str {
    let q = q
        .split('<')
        .next()
        .unwrap_or(q)
        .trim()
        .trim_end_matches("[]");
    q.rsplit('.').next().unwrap_or(q)
}

/// Reads every class under the directories and inside the jars of `class_path` and decides
/// which methods are pure.
pub fn scan(class_path: &[PathBuf]) -> Result<Purity, PurityError> {
    Ok(analyse(&classfile::read_class_path(class_path)?))
}

/// The call graph: one node per method of the class path, then two callback nodes and a node
/// that stands for any unknown (impure) code.
struct Graph<'a> {
    classes: &'a [ClassFile],
    by_name: HashMap<&'a str, usize>,
    first: Vec<usize>,
    subtypes: HashMap<&'a str, Vec<usize>>,
    overriders: HashMap<(&'a str, &'a str), Vec<usize>>,
    methods: usize,
}

impl<'a> Graph<'a> {
    fn new(classes: &'a [ClassFile]) -> Self {
        let mut g = Graph {
            classes,
            by_name: HashMap::new(),
            first: Vec::with_capacity(classes.len()),
            subtypes: HashMap::new(),
            overriders: HashMap::new(),
            methods: 0,
        };
        for (ci, c) in classes.iter().enumerate() {
            g.by_name.insert(&c.name, ci);
            g.first.push(g.methods);
            for s in c.super_name.iter().chain(&c.interfaces) {
                g.subtypes.entry(s).or_default().push(ci);
            }
            for (mi, m) in c.methods.iter().enumerate() {
                let instance = m.access & (ACC_STATIC | ACC_PRIVATE | ACC_ABSTRACT) == 0;
                if instance && !m.name.starts_with('<') {
                    let key = (m.name.as_str(), m.descriptor.as_str());
                    g.overriders.entry(key).or_default().push(g.methods + mi);
                }
            }
            g.methods += c.methods.len();
        }
        g
    }
    fn callbacks(&self) -> usize {
        self.methods
    }
    fn fn_callbacks(&self) -> usize {
        self.methods + 1
    }
    fn unknown(&self) -> usize {
        self.methods + 2
    }
    fn declared(&self, ci: usize, name: &str, descriptor: &str) -> Option<usize> {
        let methods = &self.classes[ci].methods;
        let mi = methods
            .iter()
            .position(|m| m.name == name && m.descriptor == descriptor)?;
        Some(self.first[ci] + mi)
    }
    /// What calling a JDK method with this verdict depends on.
    fn jdk(&self, verdict: Option<Callback>, out: &mut Vec<usize>) {
        match verdict {
            None => out.push(self.unknown()),
            Some(Callback::No) => {}
            Some(Callback::Objects) => out.push(self.callbacks()),
            Some(Callback::Functions) => out.push(self.fn_callbacks()),
        }
    }
    /// The declaration(s) a call of `name descriptor` on `owner` resolves to: the superclass
    /// chain first, then superinterfaces (all declaring ones, soundly over-approximating).
    fn resolve(&self, owner: &str, name: &str, descriptor: &str, out: &mut Vec<usize>) {
        let arity = classfile::arity(descriptor).unwrap_or(usize::MAX);
        let mut interfaces: Vec<&str> = Vec::new();
        let mut outside = None;
        let mut current = Some(owner);
        let mut steps = 0;
        while let Some(c) = current {
            steps += 1;
            let Some(&ci) = self.by_name.get(c).filter(|_| steps <= self.classes.len()) else {
                outside = Some(c);
                break;
            };
            if let Some(node) = self.declared(ci, name, descriptor) {
                out.push(node);
                return;
            }
            interfaces.extend(self.classes[ci].interfaces.iter().map(String::as_str));
            current = self.classes[ci].super_name.as_deref();
        }
        let mut seen = HashSet::new();
        let (mut found, mut outside_interface) = (false, None);
        while let Some(i) = interfaces.pop() {
            if !seen.insert(i) {
                continue;
            }
            match self.by_name.get(i) {
                Some(&ci) => match self.declared(ci, name, descriptor) {
                    Some(node) => {
                        out.push(node);
                        found = true;
                    }
                    None => {
                        interfaces.extend(self.classes[ci].interfaces.iter().map(String::as_str))
                    }
                },
                None => outside_interface = outside_interface.or(jdk_verdict(i, name, arity)),
            }
        }
        let verdict = outside.and_then(|c| jdk_verdict(c, name, arity));
        if !found {
            self.jdk(verdict.or(outside_interface), out);
        } else if outside.is_some_and(|c| c != "java/lang/Object") {
            self.jdk(verdict, out);
        }
    }
    /// What an invocation depends on: the resolved method and, for virtual calls, every
    /// override in a subtype of the owner.
    fn invoke(&self, kind: InvokeKind, m: &classfile::MemberRef, out: &mut Vec<usize>) {
        let (name, descriptor) = (m.name.as_str(), m.descriptor.as_str());
        let Some(arity) = classfile::arity(descriptor) else {
            return out.push(self.unknown());
        };
        let mut owner = m.owner.as_str();
        if owner.starts_with('[') {
            if name == "clone" {
                return;
            }
            owner = "java/lang/Object";
        }
        let on_path = self.by_name.get(owner).copied();
        match (kind, on_path) {
            (InvokeKind::Special, Some(ci)) if name == "<init>" => {
                out.push(
                    self.declared(ci, name, descriptor)
                        .unwrap_or(self.unknown()),
                );
            }
            (InvokeKind::Special, None) if name == "<init>" => {
                self.jdk(jdk_verdict(owner, name, arity), out)
            }
            (InvokeKind::Special | InvokeKind::Static, _) => {
                self.resolve(owner, name, descriptor, out)
            }
            (_, Some(_)) => {
                self.resolve(owner, name, descriptor, out);
                let mut queue = vec![owner];
                let mut seen = HashSet::new();
                while let Some(t) = queue.pop() {
                    for &s in self.subtypes.get(t).into_iter().flatten() {
                        if seen.insert(s) {
                            let sub = self.classes[s].name.as_str();
                            self.resolve(sub, name, descriptor, out);
                            queue.push(sub);
                        }
                    }
                }
            }
            (_, None) => {
                self.jdk(jdk_verdict(owner, name, arity), out);
                let overriders = self.overriders.get(&(name, descriptor));
                out.extend(overriders.into_iter().flatten());
            }
        }
    }
}

fn arity16(descriptor: &str) -> u16 {
    classfile::arity(descriptor).map_or(u16::MAX, |a| a.min(255) as u16)
}

/// The greatest fixed point: every method is pure unless it changes state itself, has no body
/// (and is not allowlisted), or depends on an impure method.
fn analyse(classes: &[ClassFile]) -> Purity {
    let g = Graph::new(classes);
    let total = g.methods + 3;
    let mut deps: Vec<Vec<usize>> = vec![Vec::new(); total];
    let mut impure = vec![false; total];
    impure[g.unknown()] = true;
    let mut cache: HashMap<(InvokeKind, &classfile::MemberRef), Vec<usize>> = HashMap::new();
    for (ci, c) in classes.iter().enumerate() {
        for (mi, m) in c.methods.iter().enumerate() {
            let node = g.first[ci] + mi;
            match &m.code {
                Some(_) if m.access & ACC_SYNCHRONIZED != 0 => impure[node] = true,
                Some(code) if code.effect.is_some() => impure[node] = true,
                Some(code) => {
                    for (kind, target) in &code.invokes {
                        let d = cache.entry((*kind, target)).or_insert_with(|| {
                            let mut out = Vec::new();
                            g.invoke(*kind, target, &mut out);
                            out.sort_unstable();
                            out.dedup();
                            out
                        });
                        deps[node].extend_from_slice(d);
                    }
                }
                None => {
                    let arity = classfile::arity(&m.descriptor).unwrap_or(usize::MAX);
                    g.jdk(jdk_verdict(&c.name, &m.name, arity), &mut deps[node]);
                }
            }
            let instance = m.access & (ACC_STATIC | ACC_ABSTRACT) == 0;
            let arity = classfile::arity(&m.descriptor).unwrap_or(usize::MAX);
            if instance && callbacks()[0].contains(&(m.name.as_str(), arity)) {
                deps[g.callbacks()].push(node);
            }
            if instance && callbacks()[1].contains(&(m.name.as_str(), arity)) {
                deps[g.fn_callbacks()].push(node);
            }
        }
        for handle in &c.handles {
            match handle {
                Some((kind, target)) => g.invoke(*kind, target, &mut deps[g.fn_callbacks()]),
                None => deps[g.fn_callbacks()].push(g.unknown()),
            }
        }
    }
    deps[g.fn_callbacks()].push(g.callbacks());

    let mut dependents = vec![Vec::new(); total];
    for (node, ds) in deps.iter().enumerate() {
        for &d in ds {
            dependents[d].push(node);
        }
    }
    let mut stack: Vec<usize> = (0..total).filter(|&n| impure[n]).collect();
    while let Some(n) = stack.pop() {
        for &d in &dependents[n] {
            if !impure[d] {
                impure[d] = true;
                stack.push(d);
            }
        }
    }
    summarise(&g, &impure)
}

fn summarise(g: &Graph, impure: &[bool]) -> Purity {
    let mut p = Purity {
        callbacks_pure: !impure[g.callbacks()],
        fn_callbacks_pure: !impure[g.fn_callbacks()],
        classes: g.classes.len(),
        ..Purity::default()
    };
    let callable =
        |m: &classfile::Method| !m.name.starts_with('<') && m.access & ACC_SYNTHETIC == 0;
    for (ci, c) in g.classes.iter().enumerate() {
        for (mi, m) in c.methods.iter().enumerate() {
            if !impure[g.first[ci] + mi] {
                p.pure_methods += 1;
            } else {
                p.impure_methods += 1;
                if callable(m) {
                    p.impure.push((m.name.clone(), arity16(&m.descriptor)));
                }
            }
        }
        // What the class declares or inherits, and is pure.
        let simple = simple_name(&c.name);
        let mut types = vec![c.name.as_str()];
        let (mut seen, mut declared) = (HashSet::new(), HashSet::new());
        while let Some(t) = types.pop() {
            if !seen.insert(t) {
                continue;
            }
            let Some(&ti) = g.by_name.get(t) else {
                let Some(j) = jdk()
                    .iter()
                    .find(|j| j.class == t && t != "java/lang/Object")
                else {
                    continue;
                };
                for &(name, arity) in &j.methods {
                    if j.verdict(name, arity).is_some_and(|cb| p.callback_ok(cb)) {
                        p.pure
                            .push((name.to_string(), arity as u16, simple.to_string()));
                    }
                }
                continue;
            };
            let tc = &g.classes[ti];
            for (mi, m) in tc.methods.iter().enumerate() {
                let overridden = !declared.insert((m.name.as_str(), m.descriptor.as_str()));
                if callable(m) && !overridden && !impure[g.first[ti] + mi] {
                    p.pure
                        .push((m.name.clone(), arity16(&m.descriptor), simple.to_string()));
                }
            }
            types.extend(
                tc.super_name
                    .iter()
                    .chain(&tc.interfaces)
                    .map(String::as_str),
            );
        }
    }
    p.pure.sort_unstable();
    p.pure.dedup();
    p.impure.sort_unstable();
    p.impure.dedup();
    p
}

#[cfg(test)]
#[path = "purity_tests.rs"]
mod tests;
