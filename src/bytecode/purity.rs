//! Which methods a patch may call without changing program state: a purity analysis over the
//! compiled classes of the class path (a greatest fixed point over the call graph, with a JDK
//! allowlist), summarised compactly for the weaver's source-level queries.

use super::classfile::{self, ClassFile, InvokeKind, ACC_ABSTRACT, ACC_FINAL, ACC_INTERFACE};
use super::classfile::{ACC_PRIVATE, ACC_STATIC, ACC_SYNCHRONIZED};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use super::jdk_types::Supertypes;

/// A class path entry that cannot be read, or a malformed class file in it.
pub use super::classfile::ClassPathError as PurityError;

mod handed;
mod init;
mod jdk;
mod queries;
mod stack;
pub use queries::Arg;
pub use stack::{is_throwable_name, may_be_jdk_reader};
mod summary;
use jdk::{callbacks, jdk, jdk_verdict, Callback};

/// The result of the analysis, compact enough to persist in the work dir. A work dir written
/// before a field existed reads it empty: every call impure, until `init` runs again.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Purity {
    /// `(method name, arity, simple class name)`, sorted: a call of that name and arity on a
    /// receiver whose static type is a class of that simple name (every such class on the class
    /// path agreeing) changes no state, whatever class of the class path the receiver is and
    /// whatever a runtime subclass generator could make of it. `<init>` entries are the class's
    /// own constructors.
    pure: Vec<(String, u16, String)>,
    /// `(method name, arity)` of every impure method on the class path (main classes, test
    /// classes, dependencies), sorted: a JDK-typed receiver may be a project object.
    impure: Vec<(String, u16)>,
    /// Simple names of every class on the class path, sorted.
    names: Vec<String>,
    /// Simple names of the classes whose initialisation may have an effect, sorted.
    init_unsafe: Vec<String>,
    /// Static fields of those classes, sorted: reading one may initialise its class.
    init_unsafe_statics: Vec<String>,
    /// The runtime class generator found on the class path, if any (see [`Openness`]).
    openness: Openness,
    /// Whether some class calls `java.lang.reflect.Proxy`: an interface-typed receiver may then
    /// be a proxy running arbitrary code.
    proxies: bool,
    /// Whether every project method the JDK may call back (`equals`, `toString`, ...) is pure.
    callbacks_pure: bool,
    /// Whether, in addition, every lambda body, method reference and functional method is.
    fn_callbacks_pure: bool,
    /// `(name, arity)` of every class-path method that may read the call stack (constructors
    /// under their class's simple name), sorted: see `stack.rs`.
    stack_readers: Vec<(String, u16)>,
    /// `(name, parameters)` of the same readers: the descriptor's `(..)` part, or `*` where it
    /// does not say which calls the reader takes (`stack::signatures`), sorted: a call whose
    /// arguments' types fit none of a name's readers does not read the stack through them.
    stack_reader_params: Vec<(String, String)>,
    /// Whether a project method the JDK may call back (`equals`, `toString`, ...) may read the
    /// call stack, and whether, in addition, a lambda or functional method may: then a JDK
    /// method that calls back may too.
    stack_callbacks: bool,
    stack_fn_callbacks: bool,
    /// Whether what JDK code outside the allowlist may call back on the objects handed to it
    /// (their object callbacks and overrides of JDK methods, `handed.rs`) may read the call
    /// stack. `false` in a work dir written before it was kept.
    stack_held: bool,
    /// Whether no method of the project's own classes (main and test classes, not the
    /// dependencies) may read the call stack or keep a throwable: then no test's outcome can
    /// depend on the line numbers of a woven class's frames (a test framework's own reads only
    /// report a failure), and a group may mix patches that shift the lines after the location
    /// differently. `false` in a work dir written before it was kept.
    frames_unread: bool,
    /// `(name, arity)` of every class-path method that may return a throwable made under its
    /// call, unthrown (a factory, `stack::fresh`), sorted: a patch that keeps its result keeps a
    /// stack trace showing the patch's isolation unit.
    stack_fresh: Vec<(String, u16)>,
    /// `(method name, arity, simple class name)`, sorted: a call of that name and arity on a
    /// receiver whose static type is a class of that simple name cannot read the call stack,
    /// whatever class of the class path the receiver is (`summary::summarise_stack`). Empty in a
    /// work dir written before it was kept: every call is then asked by name.
    stack_free: Vec<(String, u16, String)>,
    /// Simple names of the class-path classes whose objects, handed to JDK code, give it nothing
    /// to call back that may read the call stack (`summary::summarise_handed`), sorted. Empty in
    /// a work dir written before it was kept: every handed object then counts.
    hand_free: Vec<String>,
    /// The same for an object `new` made of exactly that class, sorted. Empty in a work dir
    /// written before it was kept.
    hand_free_made: Vec<String>,
    /// `(method name, arity, simple class name)`, sorted: such a call returns a primitive, so
    /// converting its result to a string calls no `toString()` of the class path.
    value_calls: Vec<(String, u16, String)>,
    classes: usize,
    pure_methods: usize,
    impure_methods: usize,
}

/// Which calls a library on the (test) class path can make observable by generating classes at
/// run time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Openness {
    /// No generator: only classes of the class path can be a receiver's class.
    #[default]
    Closed,
    /// A subclass generator (ByteBuddy, cglib, javassist, EasyMock, jMock): a non-final method
    /// of a non-final class may run generated code.
    Subclasses,
    /// A library that redefines classes (Mockito, whose inline mock maker mocks final classes
    /// and static methods; PowerMock; JMockit): every project method may.
    Redefines,
}

/// Class-name prefixes of runtime class generators, and what they can do.
const GENERATORS: &[(&str, Openness)] = &[
    ("org/mockito/", Openness::Redefines),
    ("org/powermock/", Openness::Redefines),
    ("mockit/", Openness::Redefines),
    ("net/bytebuddy/", Openness::Subclasses),
    ("net/sf/cglib/", Openness::Subclasses),
    ("org/springframework/cglib/", Openness::Subclasses),
    ("javassist/", Openness::Subclasses),
    ("org/easymock/", Openness::Subclasses),
    ("org/jmock/", Openness::Subclasses),
];

/// Reads every class under the directories and inside the jars of `class_path` and decides
/// which methods are pure. The class path must hold every class a test can run: the main
/// classes, the test classes and the dependencies.
pub fn scan(class_path: &[PathBuf]) -> Result<Purity, PurityError> {
    scan_with_jdk(class_path, &Supertypes::default())
}

/// [`scan`], with the JDK's class hierarchy (`jdk_types::read`) for the stack analysis.
pub fn scan_with_jdk(
    class_path: &[PathBuf],
    jdk_types: &Supertypes,
) -> Result<Purity, PurityError> {
    scan_project(class_path, &[], jdk_types)
}

/// [`scan_with_jdk`] with the class path split into the project's own classes (`project`: the
/// main and test class directories) and its `dependencies`, which only
/// [`Purity::frames_unread`] tells apart.
pub fn scan_project(
    project: &[PathBuf],
    dependencies: &[PathBuf],
    jdk_types: &Supertypes,
) -> Result<Purity, PurityError> {
    let mut classes = classfile::read_class_path(project)?;
    let own = classes.len();
    let names: HashSet<String> = classes.iter().map(|c| c.name.clone()).collect();
    classes.extend(
        classfile::read_class_path(dependencies)?
            .into_iter()
            .filter(|c| !names.contains(&c.name)),
    );
    Ok(analyse(&classes, own, jdk_types))
}

/// Whether a class outside the class path is a JDK class.
fn is_jdk(class: &str) -> bool {
    ["java/", "javax/", "jdk/", "sun/", "com/sun/"]
        .iter()
        .any(|p| class.starts_with(p))
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
    openness: Openness,
    proxies: bool,
    /// The JDK's hierarchy, when calls on JDK types dispatch by it (the stack analysis);
    /// `None`: to every class-path method of the name and descriptor (purity).
    jdk_types: Option<&'a Supertypes>,
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
            openness: Openness::Closed,
            proxies: false,
            jdk_types: None,
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
                let proxy = |(_, t): &(InvokeKind, classfile::MemberRef)| {
                    t.owner == "java/lang/reflect/Proxy"
                };
                if m.code.as_ref().is_some_and(|c| c.invokes.iter().any(proxy)) {
                    g.proxies = true;
                }
            }
            for &(prefix, openness) in GENERATORS {
                if c.name.starts_with(prefix) && openness as u8 > g.openness as u8 {
                    g.openness = openness;
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
    /// The stack analysis's node for what JDK code may call back on objects it holds (handed to
    /// it, now or earlier): their object callbacks and every method that may override a JDK
    /// method. Purity does not use it.
    fn held(&self) -> usize {
        self.methods + 3
    }
    fn declared(&self, ci: usize, name: &str, descriptor: &str) -> Option<usize> {
        let methods = &self.classes[ci].methods;
        let mi = methods
            .iter()
            .position(|m| m.name == name && m.descriptor == descriptor)?;
        Some(self.first[ci] + mi)
    }
    /// The method of a node of the class path.
    fn method(&self, node: usize) -> &classfile::Method {
        let ci = self.first.partition_point(|&f| f <= node) - 1;
        &self.classes[ci].methods[node - self.first[ci]]
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
    /// Whether generated code can stand in for a virtual call on the class-path class `ci` that
    /// resolves to the methods `resolved`.
    fn open(&self, ci: usize, resolved: &[usize]) -> bool {
        let closed_method = |&n: &usize| {
            n < self.methods && self.method(n).access & (ACC_FINAL | ACC_PRIVATE | ACC_STATIC) != 0
        };
        let access = self.classes[ci].access;
        match self.openness {
            Openness::Redefines => true,
            Openness::Subclasses if access & ACC_FINAL == 0 => {
                resolved.is_empty() || !resolved.iter().all(closed_method)
            }
            _ => self.proxies && access & ACC_INTERFACE != 0,
        }
    }
    /// Whether generated code can stand in for a receiver of this JDK type.
    fn jdk_open(&self, owner: &str) -> bool {
        let Some(j) = jdk().iter().find(|j| j.class == owner) else {
            return true;
        };
        !j.is_final && (self.openness != Openness::Closed || (self.proxies && j.is_interface))
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
    /// override in a subtype of the owner; unknown code when a generator can stand in.
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
        let redefined = self.openness == Openness::Redefines;
        match (kind, on_path) {
            (InvokeKind::Special, Some(ci)) if name == "<init>" => {
                out.push(
                    self.declared(ci, name, descriptor)
                        .unwrap_or(self.unknown()),
                );
                if redefined {
                    out.push(self.unknown());
                }
            }
            (InvokeKind::Special, None) if name == "<init>" => {
                // `Throwable(Throwable cause)` calls `cause.toString()`, `AssertionError(Object)`
                // calls `String.valueOf(detail)`.
                let calls_to_string = descriptor == "(Ljava/lang/Throwable;)V"
                    || descriptor == "(Ljava/lang/Object;)V";
                let verdict = jdk_verdict(owner, name, arity).map(|c| match c {
                    Callback::No if calls_to_string => Callback::Objects,
                    c => c,
                });
                self.jdk(verdict, out)
            }
            (InvokeKind::Special | InvokeKind::Static, _) => {
                self.resolve(owner, name, descriptor, out);
                if redefined && on_path.is_some() {
                    out.push(self.unknown());
                }
            }
            (_, Some(ci)) => {
                let start = out.len();
                self.resolve(owner, name, descriptor, out);
                let resolved = out[start..].to_vec();
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
                if self.open(ci, &resolved) {
                    out.push(self.unknown());
                }
            }
            (_, None) => {
                self.jdk(jdk_verdict(owner, name, arity), out);
                let overriders = self
                    .overriders
                    .get(&(name, descriptor))
                    .into_iter()
                    .flatten();
                match self.jdk_types {
                    Some(_) if owner != "java/lang/Object" => {
                        out.extend(overriders.filter(|&&n| {
                            let ci = self.first.partition_point(|&f| f <= n) - 1;
                            self.may_subtype(&self.classes[ci].name, owner)
                        }))
                    }
                    _ => out.extend(overriders),
                }
                if self.jdk_open(owner) {
                    out.push(self.unknown());
                }
            }
        }
    }
    /// The declarations of a method that an object of class `ci` or of a subtype runs: the
    /// first up the superclass chain on the class path, and every one in a subtype.
    fn in_hierarchy(&self, ci: usize, (name, descriptor): (&str, &str), out: &mut Vec<usize>) {
        let mut current = Some(ci);
        let mut steps = 0;
        while let Some(k) = current.filter(|_| steps <= self.classes.len()) {
            if let Some(node) = self.declared(k, name, descriptor) {
                out.push(node);
                break;
            }
            steps += 1;
            current = self.classes[k]
                .super_name
                .as_deref()
                .and_then(|s| self.by_name.get(s).copied());
        }
        let mut queue = vec![self.classes[ci].name.as_str()];
        let mut seen = HashSet::new();
        while let Some(t) = queue.pop() {
            for &s in self.subtypes.get(t).into_iter().flatten() {
                if seen.insert(s) {
                    out.extend(self.declared(s, name, descriptor));
                    queue.push(self.classes[s].name.as_str());
                }
            }
        }
    }
    /// Whether running code of class `ci` can initialise class `other` with an effect: `ci`
    /// and its superclasses are initialised already when their code runs.
    fn initialises_unsafely(&self, ci: usize, other: &str, init_safe: &[bool]) -> bool {
        let mut current = Some(self.classes[ci].name.as_str());
        let mut steps = 0;
        while let Some(c) = current {
            if c == other {
                return false;
            }
            steps += 1;
            current = self
                .by_name
                .get(c)
                .filter(|_| steps <= self.classes.len())
                .and_then(|&i| self.classes[i].super_name.as_deref());
        }
        match self.by_name.get(other) {
            Some(&oi) => !init_safe[oi],
            None => !is_jdk(other),
        }
    }
}

fn arity16(descriptor: &str) -> u16 {
    classfile::arity(descriptor).map_or(u16::MAX, |a| a.min(255) as u16)
}

/// The greatest fixed point: every method is pure unless it changes state itself, may
/// initialise a class whose initialiser has an effect, has no body (and is not allowlisted),
/// or depends on an impure method.
/// `classes[..own]` are the project's own.
fn analyse(classes: &[ClassFile], own: usize, jdk_types: &Supertypes) -> Purity {
    let mut g = Graph::new(classes);
    let init_safe = init::init_safety(&g);
    let total = g.methods + 4;
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
                Some(code)
                    if code
                        .initializes()
                        .any(|o| g.initialises_unsafely(ci, o, &init_safe)) =>
                {
                    impure[node] = true
                }
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
                        // A JDK exception constructor calls `fillInStackTrace()`, which the
                        // class being constructed (or a subclass) may override.
                        let super_init = *kind == InvokeKind::Special
                            && target.name == "<init>"
                            && target.owner != "java/lang/Object"
                            && !g.by_name.contains_key(target.owner.as_str());
                        if m.name == "<init>" && super_init {
                            let fill_in = ("fillInStackTrace", "()Ljava/lang/Throwable;");
                            g.in_hierarchy(ci, fill_in, &mut deps[node]);
                        }
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
    let impure = reaching(impure, &dependents);
    g.jdk_types = Some(jdk_types);
    let fresh = stack::fresh(&g, total);
    let readers = stack::readers(&g, total, &fresh);
    let mut p = summary::summarise(&g, &impure, &init_safe);
    (p.stack_readers, p.stack_reader_params) = stack::split(stack::signatures(&g, &readers));
    p.stack_fresh = stack::summarise(&g, &fresh);
    (p.stack_free, p.value_calls) = summary::summarise_stack(&g, &readers);
    [p.hand_free, p.hand_free_made] = summary::summarise_handed(&g, &readers);
    p.stack_callbacks = readers[g.callbacks()];
    p.stack_held = readers[g.held()];
    p.frames_unread =
        !(0..g.first.get(own).copied().unwrap_or(g.methods)).any(|node| readers[node]);
    p.stack_fn_callbacks = readers[g.fn_callbacks()];
    p
}

/// Marks every node that depends, directly or through others, on a marked one.
fn reaching(mut marked: Vec<bool>, dependents: &[Vec<usize>]) -> Vec<bool> {
    let mut stack: Vec<usize> = (0..marked.len()).filter(|&n| marked[n]).collect();
    while let Some(n) = stack.pop() {
        for &d in &dependents[n] {
            if !marked[d] {
                marked[d] = true;
                stack.push(d);
            }
        }
    }
    marked
}

#[cfg(test)]
#[path = "purity_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "purity_stack_tests.rs"]
mod stack_tests;
