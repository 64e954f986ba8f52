//! The questions the weaver asks of a persisted [`Purity`]: whether a source-level call, a class
//! initialisation or a static read can change state, and whether a call may read the stack.

use super::jdk::{jdk, qualifier_simple_name, Callback, JdkEntry};
use super::{classfile, stack, Openness, Purity};

impl Purity {
    /// Whether a source-level call with this qualifier (a class simple name or a declared type;
    /// `None` for a receiver of unknown type), name and argument count can change no program
    /// state. `<init>` asks about a constructor.
    pub fn call_is_pure(&self, qualifier: Option<&str>, name: &str, arity: usize) -> bool {
        let (Some(q), Ok(arity16)) = (qualifier.map(qualifier_simple_name), u16::try_from(arity))
        else {
            return false;
        };
        let project = self.names.binary_search_by(|n| n.as_str().cmp(q)).is_ok();
        let jdk_entries: Vec<&JdkEntry> = jdk().iter().filter(|j| j.simple == q).collect();
        if !project && jdk_entries.is_empty() {
            return false;
        }
        let project_ok = !project
            || self
                .pure
                .binary_search_by(|(n, a, c)| (n.as_str(), *a, c.as_str()).cmp(&(name, arity16, q)))
                .is_ok();
        project_ok && jdk_entries.iter().all(|j| self.jdk_allows(j, name, arity))
    }

    /// Whether initialising the class of this simple name (a static call, a static field read,
    /// `new`) can have no effect a test could see. Classes not on the class path are JDK classes.
    pub fn init_is_safe(&self, class: &str) -> bool {
        let q = qualifier_simple_name(class);
        self.init_unsafe
            .binary_search_by(|n| n.as_str().cmp(q))
            .is_err()
    }

    /// Whether reading a static field of this name, declared in some class other than the
    /// enclosing one (a static import, an outer or inherited class), cannot initialise a class
    /// whose initialisation has an effect.
    pub fn static_read_is_safe(&self, field: &str) -> bool {
        self.init_unsafe_statics
            .binary_search_by(|n| n.as_str().cmp(field))
            .is_err()
    }

    /// Whether a source-level call of this name (`arity` `None`: a method reference) may read
    /// the call stack while it runs: a JDK stack reader, or a class-path method that may reach
    /// one. A constructor call asks with the class's simple name.
    pub fn may_read_stack(&self, name: &str, arity: Option<usize>) -> bool {
        self.jdk_may_read_stack(name, arity) || listed(&self.stack_readers, name, arity)
    }

    /// [`Self::may_read_stack`] for a call with arguments of these types: a class-path reader of
    /// that name whose parameter types none of the arguments can have (a string literal for a
    /// `Throwable` parameter) is not what the call runs.
    pub fn may_read_stack_with(&self, name: &str, args: &[Arg]) -> bool {
        let arity = Some(args.len());
        if self.jdk_may_read_stack(name, arity) {
            return true;
        }
        if !listed(&self.stack_readers, name, arity) {
            return false;
        }
        let from = self
            .stack_reader_params
            .partition_point(|(n, _)| n.as_str() < name);
        let mut sigs = self.stack_reader_params[from..]
            .iter()
            .take_while(|(n, _)| n == name)
            .peekable();
        // A work dir written before the parameters were kept: by name and arity.
        sigs.peek().is_none() || sigs.any(|(_, params)| params == "*" || fits(params, args))
    }

    /// Whether a JDK stack reader of this name, or a JDK method of this name that calls back
    /// project code that may read the stack, may run.
    fn jdk_may_read_stack(&self, name: &str, arity: Option<usize>) -> bool {
        if stack::JDK_READERS.contains(&name) {
            return true;
        }
        // A JDK method of that name may call back a project method that reads it.
        let calls_back = |j: &JdkEntry| {
            let verdicts = match arity {
                Some(a) => vec![j.verdict(name, a)],
                None => (0..=255).map(|a| j.verdict(name, a)).collect(),
            };
            verdicts
                .into_iter()
                .any(|v| self.callback_may_read_stack(v))
        };
        jdk().iter().any(calls_back)
    }

    /// Whether a call of this name (`arity` `None`: a method reference) may return a throwable
    /// made under the call, unthrown: whoever keeps the result keeps its stack trace.
    pub fn may_return_fresh_throwable(&self, name: &str, arity: Option<usize>) -> bool {
        listed(&self.stack_fresh, name, arity)
    }

    /// [`Self::may_read_stack`] for a call whose receiver's declared type (or, `is_static`, whose
    /// class) the source says: a call that runs JDK code alone — an allowlisted method that calls
    /// nothing back, of a final JDK class or called statically, so no override can run — reads
    /// the stack only if it is a JDK reader itself, whatever class-path methods share its name.
    pub fn may_read_stack_on(
        &self,
        receiver: &str,
        is_static: bool,
        name: &str,
        arity: usize,
    ) -> bool {
        let q = qualifier_simple_name(receiver);
        // A class-path class with no JDK namesake whose hierarchy reads no stack under the call.
        if !receiver.contains('[') && self.class_call_is(&self.stack_free, q, name, arity) {
            return false;
        }
        let class_path = self.names.binary_search_by(|n| n.as_str().cmp(q)).is_ok();
        let mut entries = jdk().iter().filter(|j| j.simple == q).peekable();
        // Only JDK code runs: no override can (a final class, a static call) and nothing is
        // called back.
        let jdk_only = !receiver.contains('[')
            && !class_path
            && entries.peek().is_some()
            && entries
                .all(|j| (j.is_final || is_static) && j.verdict(name, arity) == Some(Callback::No));
        // A static call of a JDK class (no class-path class has its name) that calls nothing
        // back (`System.getProperty`).
        let inert = is_static && !class_path && super::handed::is_inert_source_call(q, name);
        if jdk_only || inert {
            return stack::JDK_READERS.contains(&name);
        }
        self.may_read_stack(name, Some(arity))
    }

    /// Whether a call on a receiver of this declared type, with arguments of these types, runs
    /// JDK code alone: the JDK's string builders (final classes) call project code only through
    /// an argument (an object's `toString`, a `CharSequence`'s methods), so with strings and
    /// values alone (`sb.append("es")`, `sb.append('s')`, `sb.insert(0, n)`) nothing else runs,
    /// whatever class-path methods share the name (jackson-dataformat-xml's
    /// `StaxUtil.sanitizeXmlTypeName`: every patch at its `sb.append` went one by one). The
    /// argument expressions themselves (a concatenation's `toString`) are checked where they
    /// are written. Not for a class-path class of the same simple name.
    pub fn runs_jdk_alone(&self, receiver: &str, name: &str, args: &[Arg]) -> bool {
        let q = qualifier_simple_name(receiver);
        !receiver.contains('[')
            && ARGUMENT_CALLBACKS_ONLY.contains(&q)
            && self.names.binary_search_by(|n| n.as_str().cmp(q)).is_err()
            && args.iter().all(|a| !matches!(a, Arg::Unknown))
            && !stack::JDK_READERS.contains(&name)
    }

    /// Whether a call of this name and arity on a receiver of this declared type (a class-path
    /// class's simple name, with no JDK namesake) returns a primitive, whatever class of the
    /// class path the receiver is: converting the result to a string runs only JDK code.
    pub fn call_returns_primitive(&self, receiver: &str, name: &str, arity: usize) -> bool {
        !receiver.contains('[')
            && self.class_call_is(
                &self.value_calls,
                qualifier_simple_name(receiver),
                name,
                arity,
            )
    }

    /// Whether `(name, arity, class)` is in a sorted per-class list.
    fn class_call_is(
        &self,
        list: &[(String, u16, String)],
        class: &str,
        name: &str,
        arity: usize,
    ) -> bool {
        let Ok(arity) = u16::try_from(arity) else {
            return false;
        };
        list.binary_search_by(|(n, a, c)| (n.as_str(), *a, c.as_str()).cmp(&(name, arity, class)))
            .is_ok()
    }

    /// Whether a source-level call may hand an object to JDK code outside the allowlist that
    /// calls it back, through a method that may read the stack (`handed.rs`): a call with an
    /// argument whose type the statement does not show as a string or a value, on an object of
    /// a type that is not a class-path class (`receiver`: its declared type and whether the
    /// call is static, `None` where the statement does not say), nor an inert JDK call, nor an
    /// allowlisted one (whose verdict the other rules read). An unqualified call is the
    /// class's own (the readers list answers for it). A constructor asks with its class as a
    /// static receiver.
    pub fn may_call_back_handed(
        &self,
        on_object: bool,
        receiver: Option<(&str, bool)>,
        name: &str,
        args: &[Arg],
    ) -> bool {
        if !self.stack_held || !on_object || !args.iter().any(|a| matches!(a, Arg::Unknown)) {
            return false;
        }
        let Some((ty, _)) = receiver else {
            return true;
        };
        let q = qualifier_simple_name(ty);
        let class_path = self.names.binary_search_by(|n| n.as_str().cmp(q)).is_ok();
        let method = if name == q { "<init>" } else { name };
        let allowlisted = jdk()
            .iter()
            .any(|j| j.simple == q && j.verdict(method, args.len()).is_some());
        !class_path && !allowlisted && !super::handed::is_inert_source_call(q, name)
    }

    /// Whether an object whose declared type has this simple name, handed to JDK code, gives it
    /// nothing to call back that may read the stack (`summary::summarise_handed`): a class of the
    /// class path, not generic, not an array.
    pub fn hands_nothing(&self, ty: &str) -> bool {
        Self::listed(&self.hand_free, ty)
    }

    /// The same for an object that `new` made of exactly the class of this simple name.
    pub fn made_hands_nothing(&self, ty: &str) -> bool {
        Self::listed(&self.hand_free_made, ty)
    }

    fn listed(list: &[String], ty: &str) -> bool {
        !ty.contains(['<', '[', '.']) && list.binary_search_by(|n| n.as_str().cmp(ty)).is_ok()
    }

    /// Whether no test's outcome can depend on the line numbers of the project's frames
    /// (`frames_unread` in `Purity`).
    pub fn frames_unread(&self) -> bool {
        self.frames_unread
    }

    /// A purity whose handed objects may read the stack, with these class-path class names
    /// (tests of the patch-level rule).
    #[cfg(test)]
    pub fn with_stack_held(names: &[&str]) -> Self {
        let mut names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        names.sort();
        Purity {
            stack_held: true,
            names,
            ..Purity::default()
        }
    }

    /// The same with these class-path methods (name, arity) reading the stack (tests of the
    /// patch-level rule).
    #[cfg(test)]
    pub fn with_stack_readers(mut self, readers: &[(&str, u16)]) -> Self {
        self.stack_readers = readers.iter().map(|&(n, a)| (n.to_string(), a)).collect();
        self.stack_readers.sort();
        self
    }

    /// The same with these class-path classes handing nothing (tests of the patch-level rule).
    #[cfg(test)]
    pub fn with_hand_free(mut self, names: &[&str]) -> Self {
        self.hand_free = names.iter().map(|n| n.to_string()).collect();
        self.hand_free.sort();
        self.hand_free_made = self.hand_free.clone();
        self
    }

    /// Whether a JDK method of this allowlist verdict may call back a project method or lambda
    /// that reads the stack.
    fn callback_may_read_stack(&self, verdict: Option<Callback>) -> bool {
        match verdict {
            None | Some(Callback::No) => false,
            Some(Callback::Objects) => self.stack_callbacks,
            Some(Callback::Functions) => self.stack_fn_callbacks,
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

    /// The runtime class generator found on the class path.
    pub fn openness(&self) -> Openness {
        self.openness
    }

    fn callback_ok(&self, callback: Callback) -> bool {
        match callback {
            Callback::No => true,
            Callback::Objects => self.callbacks_pure,
            Callback::Functions => self.fn_callbacks_pure,
        }
    }

    /// An allowlisted JDK method, called on a receiver of that JDK type: pure, and closed — the
    /// class is final, or no class on the class path declares an impure method of that name and
    /// arity and no generator can stand in for the receiver.
    fn jdk_allows(&self, j: &JdkEntry, name: &str, arity: usize) -> bool {
        let Some(callback) = j.verdict(name, arity) else {
            return false;
        };
        if !self.callback_ok(callback) {
            return false;
        }
        if j.is_final || name == "<init>" {
            return true;
        }
        let key = (name, arity as u16);
        let overridden = self
            .impure
            .binary_search_by(|(n, a)| (n.as_str(), *a).cmp(&key))
            .is_ok();
        !overridden && self.openness == Openness::Closed && !(self.proxies && j.is_interface)
    }
}

/// Whether `(name, arity)` is in a sorted `(name, arity)` list, where the list's `u16::MAX` and
/// the asked `None` match any arity.
fn listed(list: &[(String, u16)], name: &str, arity: Option<usize>) -> bool {
    let from = list.partition_point(|(n, _)| n.as_str() < name);
    list[from..]
        .iter()
        .take_while(|(n, _)| n == name)
        .any(|&(_, a)| a == u16::MAX || arity.is_none_or(|x| usize::from(a) == x))
}

/// What a call's argument is known to be, for matching it against a method's parameter types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// A `String` (a literal, a name declared `String`, a concatenation with one).
    String,
    /// A primitive or a boxed primitive.
    Value,
    Unknown,
}

/// Final JDK classes whose methods run project code only through their arguments
/// ([`Purity::runs_jdk_alone`]).
const ARGUMENT_CALLBACKS_ONLY: &[&str] = &["StringBuilder", "StringBuffer"];

/// The reference types a `String` or a primitive's box converts to in an invocation context.
const STRING_SUPERTYPES: &[&str] = &[
    "Ljava/lang/String;",
    "Ljava/lang/CharSequence;",
    "Ljava/lang/Object;",
    "Ljava/lang/Comparable;",
    "Ljava/io/Serializable;",
    "Ljava/lang/constant/Constable;",
    "Ljava/lang/constant/ConstantDesc;",
];
const VALUE_TYPES: &[&str] = &[
    "Ljava/lang/Object;",
    "Ljava/lang/Number;",
    "Ljava/lang/Comparable;",
    "Ljava/io/Serializable;",
    "Ljava/lang/constant/Constable;",
    "Ljava/lang/constant/ConstantDesc;",
    "Ljava/lang/Integer;",
    "Ljava/lang/Long;",
    "Ljava/lang/Short;",
    "Ljava/lang/Byte;",
    "Ljava/lang/Character;",
    "Ljava/lang/Boolean;",
    "Ljava/lang/Float;",
    "Ljava/lang/Double;",
];

/// Whether arguments of these types may be passed to parameters `(..)` (a descriptor's part).
fn fits(params: &str, args: &[Arg]) -> bool {
    let Some(types) = classfile::parameter_types(params) else {
        return true;
    };
    types.len() == args.len()
        && types.iter().zip(args).all(|(t, a)| match a {
            Arg::Unknown => true,
            Arg::String => STRING_SUPERTYPES.contains(t),
            Arg::Value => t.len() == 1 || VALUE_TYPES.contains(t),
        })
}

#[cfg(test)]
mod tests {
    use super::{fits, Arg};
    use crate::bytecode::classfile::parameter_types;

    #[test]
    fn parameter_types_split_a_descriptor() {
        assert_eq!(
            parameter_types("(I[JLjava/lang/String;[[Lx/Y;Z)").unwrap(),
            ["I", "[J", "Ljava/lang/String;", "[[Lx/Y;", "Z"]
        );
        assert_eq!(parameter_types("()").unwrap(), Vec::<&str>::new());
        assert!(parameter_types("(Q)").is_none());
    }

    #[test]
    fn arguments_fit_parameters_by_what_is_known_of_them() {
        let throwable = "(Ljava/lang/Throwable;)";
        assert!(!fits(throwable, &[Arg::String]));
        assert!(!fits(throwable, &[Arg::Value]));
        assert!(fits(throwable, &[Arg::Unknown]));
        assert!(fits("(Ljava/lang/String;)", &[Arg::String]));
        assert!(fits("(Ljava/lang/Object;I)", &[Arg::String, Arg::Value]));
        assert!(fits("(Ljava/lang/Integer;)", &[Arg::Value]));
        assert!(!fits("([I)", &[Arg::Value]));
        assert!(!fits("(I)", &[Arg::String]));
        assert!(!fits("(I)", &[]), "another arity");
    }
}
