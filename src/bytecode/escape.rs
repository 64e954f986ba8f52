//! Which throwables a method body may keep past its own run: an object it creates (`new`) that
//! is not thrown at once, or a throwable its handlers catch and keep. A throwable's stack trace
//! is fixed when it is made, so one made under a patch's isolation unit shows the unit's frame
//! wherever it is kept; one thrown out of the unit has its frames rewritten (`Rt.framed`).
//! A method that returns what it made (a factory: `throw error(..)`) keeps nothing itself; its
//! callers are judged by what they do with the result.

/// One instruction, as far as this analysis cares.
#[derive(Debug, Clone)]
pub(super) struct Insn {
    pub pc: usize,
    pub op: u8,
    /// `aload`/`astore` (any form): the local's index.
    pub local: Option<u16>,
    /// `new`: the class; `invokespecial`/`invokevirtual`: the owner and method name.
    pub class: Option<String>,
    pub method: Option<String>,
    /// An invocation that returns a reference: its index in the sorted, distinct invocations
    /// (set once they are sorted).
    pub call: Option<usize>,
}

/// What [`analyse`] finds.
#[derive(Debug, Default)]
pub(super) struct Escapes {
    /// The classes of the objects the code may keep that could be throwables, with
    /// `java/lang/Throwable` for a caught throwable a handler keeps. Sorted and distinct.
    pub kept: Vec<String>,
    /// The classes of the new objects it returns (`areturn`) unthrown. Sorted and distinct.
    pub returned: Vec<String>,
    /// Per invocation (indices of the call's sorted list): its result is kept (used otherwise
    /// than thrown, returned or dropped), or returned.
    pub result_kept: Vec<bool>,
    pub result_returned: Vec<bool>,
}

const ATHROW: u8 = 0xbf;
const ARETURN: u8 = 0xb0;
const NEW: u8 = 0xbb;
const INVOKESPECIAL: u8 = 0xb7;
const INVOKEVIRTUAL: u8 = 0xb6;
const CHECKCAST: u8 = 0xc0;
const INSTANCEOF: u8 = 0xc1;
const POP: u8 = 0x57;

impl Insn {
    pub fn new(pc: usize, op: u8) -> Insn {
        Insn {
            pc,
            op,
            local: None,
            class: None,
            method: None,
            call: None,
        }
    }

    fn load(&self) -> Option<u16> {
        matches!(self.op, 0x19 | 0x2a..=0x2d).then_some(self.local?)
    }

    fn store(&self) -> Option<u16> {
        matches!(self.op, 0x3a | 0x4b..=0x4e).then_some(self.local?)
    }

    fn is_init(&self) -> bool {
        self.op == INVOKESPECIAL && self.method.as_deref() == Some("<init>")
    }

    fn calls(&self, names: &[&str]) -> bool {
        self.op == INVOKEVIRTUAL && self.method.as_deref().is_some_and(|m| names.contains(&m))
    }
}

/// The local index of `aload`/`astore` at `code[pc]` (not their `wide` forms), else `None`.
pub(super) fn local_of(code: &[u8], pc: usize) -> Option<u16> {
    match code[pc] {
        0x19 | 0x3a => code.get(pc + 1).map(|&b| u16::from(b)),
        op @ 0x2a..=0x2d => Some(u16::from(op - 0x2a)),
        op @ 0x4b..=0x4e => Some(u16::from(op - 0x4b)),
        _ => None,
    }
}

/// What happens to a value on top of the stack before an instruction.
#[derive(PartialEq)]
enum Fate {
    Thrown,
    Returned,
    Dropped,
    Kept,
}

/// The throwables `insns` may keep (handlers at the pcs `handlers`), for `calls` invocations.
///
/// Harmless: `throw new X(..)`; a local holding one that is only rethrown, or asked its message
/// or class, given a cause or a suppressed throwable, or passed to the constructor of a throwable
/// that is thrown; a handler that drops what it caught or only does those things with it. A
/// local's uses are its loads from the store up to the next store to it, in code order (javac
/// lays out a block's code after its start; a slot is reused only by a later block). Anything
/// else counts, whether or not the object escapes: without data flow the analysis errs on the
/// side of "kept".
pub(super) fn analyse(insns: &[Insn], handlers: &[usize], calls: usize) -> Escapes {
    let mut out = Escapes {
        result_kept: vec![false; calls],
        result_returned: vec![false; calls],
        ..Escapes::default()
    };
    // Indices of the constructor calls whose new object is thrown at once or through a local.
    let mut thrown_inits = Vec::new();
    let mut pending = Vec::new();
    for (i, insn) in insns.iter().enumerate() {
        if insn.op != NEW {
            continue;
        }
        let class = insn.class.clone().unwrap_or_default();
        match matching_init(insns, i) {
            Some(j) => match fate(insns, j + 1, &thrown_inits) {
                Fate::Thrown => thrown_inits.push(j),
                _ => pending.push((j, class)),
            },
            None => out.kept.push(class),
        }
    }
    // A local passed to a thrown constructor counts as thrown too; recheck what depended on it.
    for (j, class) in pending {
        match fate(insns, j + 1, &thrown_inits) {
            Fate::Thrown | Fate::Dropped => {}
            Fate::Returned => out.returned.push(class),
            Fate::Kept => out.kept.push(class),
        }
    }
    for (i, insn) in insns.iter().enumerate() {
        let Some(c) = insn.call else { continue };
        match fate(insns, i + 1, &thrown_inits) {
            Fate::Thrown | Fate::Dropped => {}
            Fate::Returned => out.result_returned[c] = true,
            Fate::Kept => out.result_kept[c] = true,
        }
    }
    for &h in handlers {
        let fate = match insns.iter().position(|x| x.pc == h) {
            Some(i) => fate(insns, i, &thrown_inits),
            None => Fate::Kept,
        };
        if !matches!(fate, Fate::Thrown | Fate::Dropped) {
            out.kept.push("java/lang/Throwable".into());
        }
    }
    for list in [&mut out.kept, &mut out.returned] {
        list.sort();
        list.dedup();
    }
    out
}

/// The `invokespecial <init>` that constructs the object `new` at `insns[i]` makes: the first
/// one not matched by a `new` in between (the arguments may construct objects of their own).
fn matching_init(insns: &[Insn], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, insn) in insns.iter().enumerate().skip(i + 1) {
        if insn.op == NEW {
            depth += 1;
        } else if insn.is_init() {
            if depth == 0 {
                return (insn.class == insns[i].class).then_some(j);
            }
            depth -= 1;
        }
    }
    None
}

/// The fate of the value on top of the stack before `insns[at]`: thrown (`athrow`, or stored in
/// a local that is only rethrown and the like, [`local_fate`]), returned, dropped (`pop`), or
/// kept.
fn fate(insns: &[Insn], at: usize, thrown_inits: &[usize]) -> Fate {
    match insns.get(at) {
        Some(x) if x.op == ATHROW => Fate::Thrown,
        Some(x) if x.op == ARETURN => Fate::Returned,
        Some(x) if x.op == POP => Fate::Dropped,
        Some(x) => match x.store() {
            Some(k) => local_fate(insns, at, k, thrown_inits),
            None => Fate::Kept,
        },
        None => Fate::Kept,
    }
}

/// The fate of the value stored in local `k` at `insns[at]`, by its loads up to the next store
/// to `k`: dropped when none uses it, thrown when each load only rethrows it or uses it in ways
/// that keep nothing of it beyond a throwable that is itself thrown, else kept.
fn local_fate(insns: &[Insn], at: usize, k: u16, thrown_inits: &[usize]) -> Fate {
    let mut loaded = false;
    for (i, x) in insns.iter().enumerate().skip(at + 1) {
        if x.store() == Some(k) {
            break;
        }
        if x.load() != Some(k) {
            continue;
        }
        loaded = true;
        let next = insns.get(i + 1);
        let after = insns.get(i + 2);
        let harmless = match next {
            None => false,
            Some(n) if n.op == ATHROW || n.op == INSTANCEOF => true,
            Some(n) if n.op == CHECKCAST => after.is_some_and(|a| a.op == ATHROW),
            // `e.getMessage()`, `e.getClass()`: nothing of the throwable is kept.
            Some(n) if n.calls(&["getMessage", "getLocalizedMessage", "getClass"]) => true,
            // As the cause or suppressed throwable of another (`x.initCause(e)`), or as the
            // receiver of that call with the other loaded next.
            Some(n) if n.calls(&["initCause", "addSuppressed"]) => true,
            Some(n) if n.load().is_some() => {
                after.is_some_and(|a| a.calls(&["initCause", "addSuppressed"]))
                    || (after.is_some_and(Insn::is_init) && thrown_inits.contains(&(i + 2)))
            }
            // The last argument of a thrown throwable's constructor (`new X(msg, e)`).
            Some(n) if n.is_init() => thrown_inits.contains(&(i + 1)),
            Some(_) => false,
        };
        if !harmless {
            return Fate::Kept;
        }
    }
    if loaded {
        Fate::Thrown
    } else {
        Fate::Dropped
    }
}

#[cfg(test)]
mod tests {
    use crate::bytecode::classfile::{read_class_path, tests::compile, Code};

    const AUDIT: &str = r#"
        import java.util.ArrayList;
        import java.util.List;
        class Audit {
            static Throwable last;
            static List<Throwable> all = new ArrayList<>();
            static void thrown(int x) {
                if (x < 0) throw new IllegalArgumentException("negative: " + x);
            }
            static void nestedArguments(int x) {
                throw new IllegalStateException(x > 0 ? new StringBuilder("a").toString() : "b");
            }
            static void throughLocal(Exception cause) {
                IllegalStateException e = new IllegalStateException("x");
                e.initCause(cause);
                throw e;
            }
            static void wrapped() {
                try { thrown(-1); } catch (IllegalArgumentException e) { throw new RuntimeException("w", e); }
            }
            static void rethrown() {
                try { thrown(-1); } catch (RuntimeException e) { throw e; }
            }
            static int dropped() {
                try { thrown(-1); return 1; } catch (RuntimeException e) { return e.getMessage().length(); }
            }
            static void withFinally() {
                try { thrown(1); } finally { last = null; }
            }
            static String notThrowable() {
                return new StringBuilder("s").toString();
            }
            static void kept() { last = new Throwable("mark"); }
            static String reused(String name) {
                try { String v = System.getenv(name); return v == null ? "" : v; }
                catch (SecurityException e) { return ""; }
            }
            static IllegalStateException returned() { return new IllegalStateException(); }
            static void throwMade() { throw returned(); }
            static void keepMade() { last = returned(); }
            static Throwable passMade() { return returned(); }
            static void added() { all.add(new Error()); }
            static void caughtKept() {
                try { thrown(-1); } catch (IllegalArgumentException e) { last = e; }
            }
            static void caughtPassed() {
                try { thrown(-1); } catch (IllegalArgumentException e) { all.add(e); }
            }
        }
    "#;

    fn code_of(method: &str) -> Code {
        let dir = compile(&[("Audit.java", AUDIT)]);
        let classes = read_class_path(&[dir.path().join("classes")]).unwrap();
        let audit = classes.iter().find(|c| c.name == "Audit").unwrap();
        let m = audit.methods.iter().find(|m| m.name == method).unwrap();
        m.code.clone().unwrap()
    }

    fn kept_by(method: &str) -> Vec<String> {
        code_of(method).kept
    }

    #[test]
    fn thrown_rethrown_and_dropped_throwables_are_not_kept() {
        for m in [
            "reused",
            "returned",
            "thrown",
            "nestedArguments",
            "throughLocal",
            "wrapped",
            "rethrown",
            "dropped",
            "withFinally",
        ] {
            let kept = kept_by(m);
            assert!(
                kept.iter()
                    .all(|k| !k.contains("Exception") && !k.ends_with("Throwable")),
                "{m}: {kept:?}"
            );
        }
        // A new object that is no throwable is listed; the caller asks the hierarchy.
        assert_eq!(kept_by("notThrowable"), ["java/lang/StringBuilder"]);
    }

    #[test]
    fn throwables_kept_made_or_caught_are_listed() {
        assert_eq!(kept_by("kept"), ["java/lang/Throwable"]);
        assert_eq!(kept_by("added"), ["java/lang/Error"]);
        assert_eq!(kept_by("caughtKept"), ["java/lang/Throwable"]);
        assert_eq!(kept_by("caughtPassed"), ["java/lang/Throwable"]);
    }

    #[test]
    fn a_factory_returns_what_it_makes_and_its_callers_results_are_told_apart() {
        assert_eq!(
            code_of("returned").returned,
            ["java/lang/IllegalStateException"]
        );
        let flags = |method: &str| -> Vec<(String, bool, bool)> {
            let code = code_of(method);
            let calls = code
                .invokes
                .iter()
                .zip(&code.result_kept)
                .zip(&code.result_returned);
            calls
                .filter(|(((_, t), _), _)| t.name == "returned")
                .map(|(((_, t), &k), &r)| (t.name.clone(), k, r))
                .collect()
        };
        assert_eq!(flags("throwMade"), [("returned".to_string(), false, false)]);
        assert_eq!(flags("keepMade"), [("returned".to_string(), true, false)]);
        assert_eq!(flags("passMade"), [("returned".to_string(), false, true)]);
    }
}
