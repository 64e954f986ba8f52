//! What JDK code outside the allowlist may call back in the stack analysis: the class path's
//! objects handed to it, as arguments or as the receiver (`StringBuilder.append(tag)` calls
//! `tag.toString()`, `Collections.sort(names, order)` calls `order.compare`, `Thread.run()` the
//! task it was made with), what it may call on objects it holds (the graph's `held` node), and
//! any method at all through reflection.

use super::classfile::{self, InvokeKind, ACC_STATIC};
use super::Graph;
use std::collections::HashMap;

/// JDK classes that are final and hold no object of the class path: handing one to JDK code (or
/// calling JDK code on one) gives it nothing of the class path to call back.
const INERT: &[&str] = &[
    "java/lang/String",
    "java/lang/Integer",
    "java/lang/Long",
    "java/lang/Short",
    "java/lang/Byte",
    "java/lang/Character",
    "java/lang/Boolean",
    "java/lang/Float",
    "java/lang/Double",
    "java/lang/Void",
    "java/lang/StringBuilder",
    "java/lang/StringBuffer",
    "java/lang/Class",
    "java/lang/Math",
    "java/lang/StrictMath",
    "java/util/Locale",
    "java/util/regex/Pattern",
    "java/util/regex/Matcher",
];

/// JDK methods that run whatever method they are given: `Method.invoke`, a constructor's or
/// class's `newInstance`, a method handle's invocations.
const REFLECTIVE: &[(&str, &str)] = &[
    ("java/lang/reflect/Method", "invoke"),
    ("java/lang/reflect/Constructor", "newInstance"),
    ("java/lang/Class", "newInstance"),
    ("java/lang/invoke/MethodHandle", "invoke"),
    ("java/lang/invoke/MethodHandle", "invokeExact"),
    ("java/lang/invoke/MethodHandle", "invokeWithArguments"),
];

/// JDK methods that call nothing back of what they are handed, receiver included: `Owner.name`
/// for every overload, `Owner.name(params)` for one. (Their receiver's class-path overrides are
/// the call's own dispatch, not a callback.)
const INERT_CALLS: &[&str] = &[
    "java/lang/reflect/Array.*",
    "java/lang/Class.*",
    "java/lang/System.arraycopy",
    "java/lang/System.identityHashCode",
    "java/lang/System.getProperty",
    "java/lang/System.setProperty",
    "java/lang/System.getenv",
    "java/lang/System.lineSeparator",
    "java/lang/Object.getClass",
    "java/lang/Object.notify",
    "java/lang/Object.notifyAll",
    "java/lang/Object.wait",
    "java/lang/Thread.currentThread",
    "java/lang/Thread.getName",
    "java/lang/Thread.getId",
    "java/lang/Thread.interrupt",
    "java/lang/Thread.interrupted",
    "java/lang/Thread.isInterrupted",
    "java/lang/Thread.sleep",
    "java/lang/Thread.getContextClassLoader",
    "java/util/Arrays.fill",
    "java/util/Arrays.copyOf",
    "java/util/Arrays.copyOfRange",
    "java/util/Arrays.asList",
    "java/util/Collections.emptyList",
    "java/util/Collections.emptyMap",
    "java/util/Collections.emptySet",
    "java/util/Collections.emptyIterator",
    "java/util/Collections.singletonList",
    "java/util/Collections.singleton",
    "java/util/Collections.nCopies",
    "java/util/Collections.unmodifiableList",
    "java/util/Collections.unmodifiableSet",
    "java/util/Collections.unmodifiableMap",
    "java/util/Collections.unmodifiableCollection",
    "java/util/ArrayList.<init>()",
    "java/util/ArrayList.<init>(I)",
    "java/util/ArrayList.add",
    "java/util/ArrayList.get",
    "java/util/ArrayList.set",
    "java/util/ArrayList.size",
    "java/util/ArrayList.isEmpty",
    "java/util/ArrayList.clear",
    "java/util/ArrayList.toArray",
    "java/util/ArrayList.iterator",
    "java/util/ArrayList.remove(I)",
    "java/util/List.add",
    "java/util/List.get",
    "java/util/List.set",
    "java/util/List.size",
    "java/util/List.isEmpty",
    "java/util/List.clear",
    "java/util/List.toArray",
    "java/util/List.iterator",
    "java/util/List.remove(I)",
    "java/util/Map.size",
    "java/util/Map.isEmpty",
    "java/util/Map.clear",
    "java/util/Map.keySet",
    "java/util/Map.values",
    "java/util/Map.entrySet",
    "java/util/HashMap.<init>()",
    "java/util/HashMap.<init>(I)",
    "java/util/Iterator.hasNext",
    "java/util/Iterator.next",
    "java/util/concurrent/atomic/AtomicReference.<init>",
    "java/util/concurrent/atomic/AtomicReference.get",
    "java/util/concurrent/atomic/AtomicReference.set",
    "java/util/concurrent/atomic/AtomicReference.lazySet",
    "java/util/concurrent/atomic/AtomicReference.getAndSet",
    "java/util/concurrent/atomic/AtomicReference.compareAndSet",
];

/// JDK types whose methods call back, through the receiver, only its class-path overrides: a
/// stream, a writer, a calendar or a number holds no object it would ask `equals` or
/// `toString` of (what it is handed as arguments still counts).
const HOLDS_NO_OBJECTS: &[&str] = &[
    "java/lang/Number",
    "java/io/PrintStream",
    "java/io/PrintWriter",
    "java/io/StringWriter",
    "java/io/Writer",
    "java/io/Reader",
    "java/io/InputStream",
    "java/io/OutputStream",
    "java/io/File",
    "java/util/Random",
    "java/util/Date",
    "java/util/Calendar",
    "java/util/GregorianCalendar",
    "java/util/TimeZone",
    "java/text/DateFormat",
    "java/text/SimpleDateFormat",
    "java/text/NumberFormat",
    "java/text/DecimalFormat",
    "java/math/BigInteger",
    "java/math/BigDecimal",
    "java/nio/charset/Charset",
    "java/lang/ClassLoader",
    "java/util/concurrent/atomic/AtomicInteger",
    "java/util/concurrent/atomic/AtomicLong",
    "java/util/concurrent/atomic/AtomicBoolean",
];

/// JDK methods (of any class, by name) that do not call back the objects their receiver holds,
/// only its own overrides and what they are handed: they visit, count or hand out elements
/// without asking them anything (`forEach` calls its action, not the elements).
const CONTENTS_UNTOUCHED: &[&str] = &[
    "forEach",
    "forEachRemaining",
    "iterator",
    "spliterator",
    "stream",
    "size",
    "isEmpty",
    "get",
    "next",
    "hasNext",
    "getKey",
    "getValue",
    "isPresent",
    "ifPresent",
    "keySet",
    "values",
    "entrySet",
    "toArray",
];

/// Whether invoking `owner.name` runs a method chosen at run time (reflection).
pub(super) fn is_reflective(owner: &str, name: &str) -> bool {
    REFLECTIVE.contains(&(owner, name))
}

/// Whether a source-level call of `name` on a receiver of this simple type name is one of the
/// [`INERT_CALLS`] (for some overload). An inert type's methods are not inert for that:
/// `String.valueOf(Object)` and `StringBuilder.append(Object)` call `toString` back.
pub(super) fn is_inert_source_call(owner_simple: &str, name: &str) -> bool {
    INERT_CALLS.iter().any(|entry| {
        let (owner, rest) = entry.split_once('.').unwrap_or((entry, ""));
        let method = rest.split('(').next().unwrap_or(rest);
        let simple = owner.rsplit('/').next().unwrap_or(owner);
        simple == owner_simple && (method == "*" || method == name)
    })
}

/// Whether an argument of this type may hold objects JDK code asks things of: an `Object`
/// (anything, a collection among them) or a `java.util` container (its elements). An argument
/// of another type (a `Comparator`, a `Runnable`, a `CharSequence`) has its own methods called
/// back, which are the type's overrides.
pub(super) fn may_hold_objects(t: &str) -> bool {
    t == "java/lang/Object"
        || t == "java/lang/Iterable"
        || (t.starts_with("java/util/")
            && !t.starts_with("java/util/function/")
            && !t.starts_with("java/util/concurrent/")
            && !t.starts_with("java/util/regex/")
            && t != "java/util/Comparator")
}

/// Whether a JDK method calls back nothing it is handed ([`INERT_CALLS`]).
fn is_inert_call(t: &classfile::MemberRef) -> bool {
    let params = t
        .descriptor
        .find(')')
        .map_or("", |end| &t.descriptor[..=end]);
    INERT_CALLS.iter().any(|entry| {
        let Some(rest) = entry
            .strip_prefix(t.owner.as_str())
            .and_then(|r| r.strip_prefix('.'))
        else {
            return false;
        };
        rest == "*" || rest == t.name || rest.strip_prefix(t.name.as_str()) == Some(params)
    })
}

/// The objects a call of JDK code outside the allowlist hands it, by type, and whether JDK code
/// may ask each for its object callbacks (`equals`, `toString`, …, of what it is or holds): its
/// reference parameters (with them if they may hold objects, [`may_hold_objects`]), and its
/// receiver unless the call is static or a constructor's
/// (the object under construction is the JDK class's own); a receiver whose type holds no
/// objects ([`HOLDS_NO_OBJECTS`], the JDK's throwables) or whose method does not touch them
/// ([`CONTENTS_UNTOUCHED`]) without them. Arrays of references hand their elements;
/// arrays of primitives and inert types hand nothing; an inert call hands nothing.
pub(super) fn handed_types(kind: InvokeKind, t: &classfile::MemberRef) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    if is_inert_call(t) {
        return out;
    }
    if !matches!(kind, InvokeKind::Static) && t.name != "<init>" {
        let owner = t.owner.as_str();
        // A JDK throwable's own methods call back only its overrides (`getMessage`).
        let throwable = super::is_jdk(owner) && super::is_throwable_name(owner);
        let untouched = HOLDS_NO_OBJECTS.contains(&owner) || CONTENTS_UNTOUCHED.contains(&&*t.name);
        out.push((owner, !throwable && !untouched));
    }
    let params = t
        .descriptor
        .find(')')
        .map_or("", |end| &t.descriptor[..=end]);
    for p in classfile::parameter_types(params).unwrap_or_default() {
        let element = p.trim_start_matches('[');
        if let Some(class) = element.strip_prefix('L').and_then(|e| e.strip_suffix(';')) {
            out.push((class, may_hold_objects(class)));
        }
    }
    out.retain(|(c, _)| !INERT.contains(c));
    out.sort_unstable();
    out.dedup();
    out
}

/// Per handed type, the graph nodes JDK code may call back on an object of it: unless the type
/// is `Object`, every instance method that may override a JDK method ([`overrides_jdk`]) of a
/// class-path class that may be of that type, and every lambda or method reference made for an
/// interface known to be it; and where the object may hold others (a container's elements), the
/// `held` node: what JDK code may call on any object.
pub(super) struct Handed<'g, 'a> {
    g: &'g Graph<'a>,
    /// `(functional interface, nodes of the body)` of every lambda or method reference.
    lambdas: Vec<(&'a str, Vec<usize>)>,
    /// Per method node: whether it may override a JDK method ([`overrides_jdk`]), decided once.
    overrides: Vec<bool>,
    cache: HashMap<(String, bool), Vec<usize>>,
}

impl<'g, 'a> Handed<'g, 'a> {
    pub(super) fn new(g: &'g Graph<'a>, lambdas: Vec<(&'a str, Vec<usize>)>) -> Self {
        let overrides = g
            .classes
            .iter()
            .flat_map(|c| c.methods.iter().map(|m| overrides_jdk(g, m)))
            .collect();
        Handed {
            g,
            lambdas,
            overrides,
            cache: HashMap::new(),
        }
    }

    /// Whether the method of this graph node may override a JDK method.
    pub(super) fn overrides(&self, node: usize) -> bool {
        self.overrides.get(node).copied().unwrap_or(false)
    }

    /// The nodes JDK code may call back on objects of type `t` handed to it; with `objects`,
    /// the object callbacks of what it may hold too.
    pub(super) fn callbacks_of(&mut self, t: &str, objects: bool) -> &[usize] {
        let key = (t.to_string(), objects);
        if !self.cache.contains_key(&key) {
            let g = self.g;
            let mut out = Vec::new();
            if objects {
                out.push(g.held());
            }
            if t != "java/lang/Object" {
                for (ci, c) in g.classes.iter().enumerate() {
                    if c.name == t || !g.may_subtype(&c.name, t) {
                        continue;
                    }
                    for (mi, m) in c.methods.iter().enumerate() {
                        let node = g.first[ci] + mi;
                        if m.access & ACC_STATIC == 0 && self.overrides[node] {
                            out.push(node);
                        }
                    }
                }
                for (interface, body) in &self.lambdas {
                    // A lambda is an object of its functional interface only: where that
                    // interface's ancestry is not known, it is not taken to be of another type.
                    if g.known_subtype(interface, t) {
                        out.extend(body);
                    }
                }
            }
            out.sort_unstable();
            out.dedup();
            self.cache.insert(key.clone(), out);
        }
        &self.cache[&key]
    }
}

/// Whether a method may override one a JDK type declares (so JDK code can call it): by name and
/// descriptor against the JDK's headers; any method but constructors when they are not known.
pub(super) fn overrides_jdk(g: &Graph, m: &classfile::Method) -> bool {
    !m.name.starts_with('<')
        && g.jdk_types
            .is_none_or(|types| types.is_empty() || types.overridable(&m.name, &m.descriptor))
}

#[cfg(test)]
mod tests {
    use super::{handed_types, is_inert_source_call, is_reflective, InvokeKind};
    use crate::bytecode::classfile::MemberRef;

    fn handed(kind: InvokeKind, owner: &str, name: &str, descriptor: &str) -> Vec<(String, bool)> {
        let t = MemberRef {
            owner: owner.into(),
            name: name.into(),
            descriptor: descriptor.into(),
        };
        handed_types(kind, &t)
            .into_iter()
            .map(|(c, objects)| (c.to_string(), objects))
            .collect()
    }

    fn types(list: &[(&str, bool)]) -> Vec<(String, bool)> {
        list.iter().map(|(c, o)| (c.to_string(), *o)).collect()
    }

    #[test]
    fn handed_types_are_the_receiver_and_reference_parameters_that_may_hold_project_objects() {
        let object = "(Ljava/lang/Object;)Ljava/lang/StringBuilder;";
        assert_eq!(
            handed(
                InvokeKind::Virtual,
                "java/lang/StringBuilder",
                "append",
                object
            ),
            types(&[("java/lang/Object", true)]),
            "a final builder hands only its argument"
        );
        let sort = "(Ljava/util/List;Ljava/util/Comparator;)V";
        assert_eq!(
            handed(InvokeKind::Static, "java/util/Collections", "sort", sort),
            types(&[("java/util/Comparator", false), ("java/util/List", true)]),
            "an order's own methods, a list's elements too"
        );
        let runnable = "(Ljava/lang/Runnable;)V";
        assert_eq!(
            handed(InvokeKind::Special, "java/lang/Thread", "<init>", runnable),
            types(&[("java/lang/Runnable", false)]),
            "the object under construction is the JDK's"
        );
        assert_eq!(
            handed(InvokeKind::Virtual, "java/lang/Thread", "run", "()V"),
            types(&[("java/lang/Thread", true)])
        );
        assert_eq!(
            handed(
                InvokeKind::Virtual,
                "java/io/PrintStream",
                "println",
                "(Ljava/lang/String;)V"
            ),
            types(&[("java/io/PrintStream", false)]),
            "a stream holds no objects to call back"
        );
        assert!(handed(InvokeKind::Static, "java/util/Arrays", "copyOf", "([II)[I").is_empty());
        let join = "(Ljava/lang/CharSequence;[Ljava/lang/CharSequence;)Ljava/lang/String;";
        assert_eq!(
            handed(InvokeKind::Static, "java/lang/String", "join", join),
            types(&[("java/lang/CharSequence", false)])
        );
        let arraycopy = "(Ljava/lang/Object;ILjava/lang/Object;II)V";
        assert!(handed(
            InvokeKind::Static,
            "java/lang/System",
            "arraycopy",
            arraycopy
        )
        .is_empty());
        let remove_at = "(I)Ljava/lang/Object;";
        assert!(handed(InvokeKind::Interface, "java/util/List", "remove", remove_at).is_empty());
        let remove = "(Ljava/lang/Object;)Z";
        assert_eq!(
            handed(InvokeKind::Interface, "java/util/List", "remove", remove).len(),
            2,
            "remove(Object) calls equals back"
        );
    }

    #[test]
    fn reflection_and_inert_calls_are_told_by_name() {
        assert!(is_reflective("java/lang/reflect/Method", "invoke"));
        assert!(!is_reflective("java/lang/reflect/Method", "getName"));
        assert!(is_inert_source_call("System", "arraycopy"));
        assert!(is_inert_source_call("List", "add"));
        assert!(
            !is_inert_source_call("StringBuilder", "append"),
            "`append(Object)`"
        );
        assert!(
            !is_inert_source_call("String", "valueOf"),
            "`valueOf(Object)`"
        );
        assert!(!is_inert_source_call("Collections", "sort"));
        assert!(!is_inert_source_call("Map", "put"));
    }
}
