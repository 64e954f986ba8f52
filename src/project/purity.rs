//! Which methods a patch may call without changing program state: a purity analysis over the
//! compiled classes of the class path (a greatest fixed point over the call graph, with a JDK
//! allowlist), summarised compactly for the weaver's source-level queries.

use super::classfile::{self, ClassFile, InvokeKind, ACC_ABSTRACT, ACC_PRIVATE, ACC_STATIC};
use super::classfile::{ACC_SYNCHRONIZED, ACC_SYNTHETIC};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::OnceLock;

/// A class path entry that cannot be read, or a malformed class file in it.
pub use super::classfile::ClassPathError as PurityError;

const MATH: &str = "IEEEremainder/2 abs/1 absExact/1 acos/1 addExact/2 asin/1 atan/1 atan2/2 \
    cbrt/1 ceil/1 copySign/2 cos/1 cosh/1 decrementExact/1 exp/1 expm1/1 floor/1 floorDiv/2 \
    floorMod/2 fma/3 getExponent/1 hypot/2 incrementExact/1 log/1 log10/1 log1p/1 max/2 min/2 \
    multiplyExact/2 multiplyFull/2 multiplyHigh/2 negateExact/1 nextAfter/2 nextDown/1 nextUp/1 \
    pow/2 rint/1 round/1 scalb/2 signum/1 sin/1 sinh/1 sqrt/1 subtractExact/2 tan/1 tanh/1 \
    toDegrees/1 toIntExact/1 toRadians/1 ulp/1";
const BOXED: &str = "byteValue/0 compare/2 compareTo/1 compareUnsigned/2 decode/1 doubleValue/0 \
    equals/1 floatValue/0 hashCode/0,1 intValue/0 longValue/0 shortValue/0 toString/0,1,2 \
    valueOf/1,2 max/2 min/2 sum/2 signum/1 bitCount/1 reverse/1 reverseBytes/1 highestOneBit/1 \
    lowestOneBit/1 numberOfLeadingZeros/1 numberOfTrailingZeros/1 rotateLeft/2 rotateRight/2 \
    toBinaryString/1 toHexString/1 toOctalString/1 toUnsignedString/1,2 toUnsignedInt/1 \
    toUnsignedLong/1 divideUnsigned/2 remainderUnsigned/2 parseInt/1,2,4 parseLong/1,2,4 \
    parseShort/1,2 parseByte/1,2 parseUnsignedInt/1,2,4 parseUnsignedLong/1,2,4 isNaN/0,1 \
    isInfinite/0,1 isFinite/1 floatToIntBits/1 floatToRawIntBits/1 intBitsToFloat/1 \
    doubleToLongBits/1 doubleToRawLongBits/1 longBitsToDouble/1 parseFloat/1 parseDouble/1 \
    booleanValue/0 parseBoolean/1 logicalAnd/2 logicalOr/2 logicalXor/2 getInteger/1,2 getLong/1,2";
const CHARACTER: &str = "charCount/1 charValue/0 codePointAt/2,3 codePointBefore/2,3 \
    codePointCount/3 compare/2 compareTo/1 digit/2 equals/1 forDigit/2 getNumericValue/1 \
    getType/1 hashCode/0,1 highSurrogate/1 isAlphabetic/1 isBmpCodePoint/1 isDefined/1 \
    isDigit/1 isHighSurrogate/1 isISOControl/1 isJavaIdentifierPart/1 isJavaIdentifierStart/1 \
    isLetter/1 isLetterOrDigit/1 isLowSurrogate/1 isLowerCase/1 isSpaceChar/1 \
    isSupplementaryCodePoint/1 isSurrogate/1 isSurrogatePair/2 isTitleCase/1 isUpperCase/1 \
    isValidCodePoint/1 isWhitespace/1 lowSurrogate/1 offsetByCodePoints/3,5 toChars/1 \
    toCodePoint/2 toLowerCase/1 toString/0,1 toTitleCase/1 toUpperCase/1 valueOf/1";
const STRING: &str = "charAt/1 chars/0 codePointAt/1 codePointBefore/1 codePointCount/2 \
    codePoints/0 compareTo/1 compareToIgnoreCase/1 concat/1 contains/1 contentEquals/1 \
    copyValueOf/1,3 endsWith/1 equals/1 equalsIgnoreCase/1 format/2,3 formatted/1 getBytes/0,1 \
    hashCode/0 indent/1 indexOf/1,2 intern/0 isBlank/0 isEmpty/0 join/2 lastIndexOf/1,2 \
    length/0 lines/0 matches/1 offsetByCodePoints/2 regionMatches/4,5 repeat/1 replace/2 \
    replaceAll/2 replaceFirst/2 split/1,2 startsWith/1,2 strip/0 stripIndent/0 stripLeading/0 \
    stripTrailing/0 subSequence/2 substring/1,2 toCharArray/0 toLowerCase/0,1 toString/0 \
    toUpperCase/0,1 translateEscapes/0 trim/0 valueOf/1,3";
const LIST: &str = "size/0 isEmpty/0 get/1 contains/1 indexOf/1 lastIndexOf/1";
const MAP: &str = "size/0 isEmpty/0 get/1 containsKey/1 containsValue/1";
const SET: &str = "size/0 isEmpty/0 contains/1";
const OBJECTS: &str =
    "equals/2 hash/1 hashCode/1 isNull/1 nonNull/1 requireNonNull/1,2 toString/1,2";

/// The JDK allowlist, the one place that says which JDK methods (never on the project class
/// path) are pure: `(class, public methods as name/arity, notes)`. Notes: `*`: every method is
/// pure, not just the listed ones; `-name/arity`: except this one, which changes state;
/// `?name`: may call `equals`, `hashCode`, `toString`, `compareTo`, `compare` or `CharSequence`
/// methods of project objects passed in or stored; `!name`: may also call lambdas.
const JDK: &[(&str, &str, &str)] = &[
    ("java/lang/Math", MATH, "* -random/0"),
    ("java/lang/StrictMath", MATH, "* -random/0"),
    (
        "java/lang/String",
        STRING,
        "* -getChars/4 -getBytes/4 -transform/1 \
        -resolveConstantDesc/1 ?contains ?contentEquals ?format ?formatted ?join ?replace ?valueOf",
    ),
    ("java/lang/Integer", BOXED, "* ?parseInt ?parseUnsignedInt"),
    ("java/lang/Long", BOXED, "* ?parseLong ?parseUnsignedLong"),
    ("java/lang/Short", BOXED, "*"),
    ("java/lang/Byte", BOXED, "*"),
    (
        "java/lang/Character",
        CHARACTER,
        "* -toChars/3 ?codePointAt ?codePointBefore \
        ?codePointCount ?offsetByCodePoints",
    ),
    ("java/lang/Boolean", BOXED, "*"),
    ("java/lang/Float", BOXED, "*"),
    ("java/lang/Double", BOXED, "*"),
    (
        "java/lang/Object",
        "equals/1 hashCode/0 getClass/0 toString/0 <init>/0",
        "?toString",
    ),
    (
        "java/util/Objects",
        OBJECTS,
        "?equals ?hash ?hashCode ?toString !requireNonNull",
    ),
    (
        "java/lang/Enum",
        "name/0 ordinal/0 equals/1 hashCode/0 compareTo/1 toString/0",
        "",
    ),
    ("java/util/List", LIST, "?contains ?indexOf ?lastIndexOf"),
    (
        "java/util/ArrayList",
        LIST,
        "?contains ?indexOf ?lastIndexOf",
    ),
    (
        "java/util/LinkedList",
        LIST,
        "?contains ?indexOf ?lastIndexOf",
    ),
    ("java/util/Map", MAP, "!get !containsKey !containsValue"),
    ("java/util/HashMap", MAP, "?get ?containsKey ?containsValue"),
    ("java/util/TreeMap", MAP, "!get !containsKey !containsValue"),
    ("java/util/Set", SET, "!contains"),
    ("java/util/HashSet", SET, "?contains"),
    ("java/util/TreeSet", SET, "!contains"),
    ("java/util/Collection", SET, "!contains"),
    ("java/lang/CharSequence", "length/0 charAt/1", ""),
    // Constructing an exception only initialises the new object (message, cause, stack trace).
    ("java/lang/Throwable", EXCEPTION_INIT, ""),
    ("java/lang/Exception", EXCEPTION_INIT, ""),
    ("java/lang/RuntimeException", EXCEPTION_INIT, ""),
    ("java/lang/Error", EXCEPTION_INIT, ""),
    ("java/lang/IllegalStateException", EXCEPTION_INIT, ""),
    ("java/lang/IllegalArgumentException", EXCEPTION_INIT, ""),
    ("java/lang/ArithmeticException", EXCEPTION_INIT, ""),
    (
        "java/lang/UnsupportedOperationException",
        EXCEPTION_INIT,
        "",
    ),
    (
        "java/lang/StringBuilder",
        "length/0 charAt/1 toString/0 indexOf/1,2",
        "",
    ),
];

/// Constructors of the exception classes above.
const EXCEPTION_INIT: &str = "<init>/0 <init>/1 <init>/2";

/// Project methods the JDK may call back on objects, and in addition on function objects.
const CALLBACKS: &str = "equals/1 hashCode/0 toString/0 compareTo/1 compare/2 length/0 charAt/1 \
    subSequence/2 iterator/0 hasNext/0 next/0 formatTo/4";
const FN_CALLBACKS: &str = "get/0 apply/1 applyAsInt/1 applyAsLong/1 applyAsDouble/1";

/// Whether a pure JDK method may call back into project code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Callback {
    No,
    Objects,
    Functions,
}

struct JdkEntry {
    class: &'static str,
    simple: &'static str,
    all: bool,
    methods: HashSet<(&'static str, usize)>,
    except: HashSet<(&'static str, usize)>,
    calls_back: HashSet<&'static str>,
    calls_fn: HashSet<&'static str>,
}

impl JdkEntry {
    /// `None` if the method is not known pure, else whether it may call back.
    fn verdict(&self, name: &str, arity: usize) -> Option<Callback> {
        let known = self.all || self.methods.contains(&(name, arity));
        if !known || self.except.contains(&(name, arity)) {
            None
        } else if self.calls_fn.contains(name) {
            Some(Callback::Functions)
        } else if self.calls_back.contains(name) {
            Some(Callback::Objects)
        } else {
            Some(Callback::No)
        }
    }
    fn declares(&self, name: &str, arity: usize) -> bool {
        self.methods.contains(&(name, arity)) || self.except.contains(&(name, arity))
    }
}

fn name_arities(list: &str) -> HashSet<(&str, usize)> {
    let mut out = HashSet::new();
    for item in list.split_whitespace() {
        let (name, arities) = item.split_once('/').expect("allowlist entry name/arity");
        for a in arities.split(',') {
            out.insert((name, a.parse().expect("allowlist arity")));
        }
    }
    out
}

fn jdk() -> &'static [JdkEntry] {
    static TABLE: OnceLock<Vec<JdkEntry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        JDK.iter()
            .map(|&(class, methods, notes)| {
                let notes = |mark: char| -> Vec<&'static str> {
                    notes
                        .split_whitespace()
                        .filter_map(|n| n.strip_prefix(mark))
                        .collect()
                };
                JdkEntry {
                    class,
                    simple: simple_name(class),
                    all: notes('*').contains(&""),
                    methods: name_arities(methods),
                    except: notes('-').into_iter().flat_map(name_arities).collect(),
                    calls_back: notes('?').into_iter().collect(),
                    calls_fn: notes('!').into_iter().collect(),
                }
            })
            .collect()
    })
}

fn callbacks() -> &'static [HashSet<(&'static str, usize)>; 2] {
    static SETS: OnceLock<[HashSet<(&'static str, usize)>; 2]> = OnceLock::new();
    SETS.get_or_init(|| [name_arities(CALLBACKS), name_arities(FN_CALLBACKS)])
}

fn jdk_verdict(class: &str, name: &str, arity: usize) -> Option<Callback> {
    jdk()
        .iter()
        .find(|j| j.class == class)?
        .verdict(name, arity)
}

/// `a/b/Outer$Inner` → `Inner`.
fn simple_name(internal: &str) -> &str {
    let s = internal.rsplit('/').next().unwrap_or(internal);
    s.rsplit('$').next().unwrap_or(s)
}

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
