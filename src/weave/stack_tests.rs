//! Tests of the stack rule (`stack.rs`) on patched statements, with oracles standing in for the
//! class path's analysis.

use super::{stack_exposure, Arg, Site, StackOracle};

fn readers(name: &str, _arity: Option<usize>) -> bool {
    matches!(
        name,
        "getStackTrace" | "printStackTrace" | "whereAmI" | "Tracer"
    )
}

/// A location with locals of a reference, an iterable, an array and a string type.
fn site() -> Site {
    let src = "class A { int f(Mark mark, Items items, int[] counts, String s) { int y = 0; y += 1; return y; } }";
    let t = crate::weave::parser().parse(src, None).unwrap();
    let start = src.find("y += 1;").unwrap();
    crate::weave::scope::analyse(src, t.root_node(), start..start + 7).unwrap()
}

fn exposed_with(stmt: &str, oracle: &dyn StackOracle) -> bool {
    stack_exposure(stmt, &site(), &[], None, oracle).is_some()
}

fn exposed(stmt: &str) -> bool {
    exposed_with(stmt, &readers)
}

#[test]
fn implicit_calls_that_may_read_the_stack_are_exposed() {
    let implicit =
        |name: &str, _arity: Option<usize>| matches!(name, "toString" | "iterator" | "close");
    let with = |stmt: &str| exposed_with(stmt, &implicit);
    assert!(with("s = \"at \" + mark;"));
    assert!(with("s += mark;"));
    assert!(
        with("s = s + mark.peer();"),
        "a call's result of unknown type"
    );
    assert!(with("assert y > 0 : mark;"));
    assert!(with("for (Object o : items) { y++; }"));
    assert!(with("try (Items i = items) { y++; }"));
    assert!(!with("y = y + 1;"), "no string");
    assert!(!with("s = s + y + \"!\";"), "strings and values only");
    assert!(!with("for (int c : counts) { y += c; }"), "an array");
    // The same statements when those methods cannot read the stack.
    assert!(!exposed("s = \"at \" + mark;"));
    assert!(!exposed("for (Object o : items) { y++; }"));
    assert!(!exposed("try (Items i = items) { y++; }"));
}

/// `equals` may read the stack, except on a `String` (as a final JDK class whose `equals`
/// calls nothing back).
struct Typed;
impl StackOracle for Typed {
    fn may_read_stack(&self, name: &str, _arity: Option<usize>) -> bool {
        name == "equals"
    }
    fn may_read_stack_on(&self, receiver: &str, _: bool, name: &str, a: usize) -> bool {
        receiver != "String" && self.may_read_stack(name, Some(a))
    }
}

#[test]
fn a_receiver_of_a_declared_type_is_asked_with_it() {
    let with = |stmt: &str| exposed_with(stmt, &Typed);
    assert!(!with("y = \"x\".equals(s) ? 1 : 0;"), "a string literal");
    assert!(!with("y = s.equals(\"x\") ? 1 : 0;"), "a local `String`");
    assert!(with("y = mark.equals(s) ? 1 : 0;"), "a local `Mark`");
    assert!(with("y = s.trim().equals(s) ? 1 : 0;"), "a call's result");
    assert!(
        with("{ Mark s2 = mark; y = s2.equals(mark) ? 1 : 0; }"),
        "declared by the statement: its type is not looked up"
    );
    assert!(
        with("items.forEach(s2 -> s2.equals(mark));"),
        "a lambda's parameter"
    );
}

#[test]
fn stack_reads_are_exposed() {
    assert!(exposed(
        "x = new Throwable().getStackTrace()[0].getMethodName();"
    ));
    assert!(exposed("caller = whereAmI();"));
    assert!(exposed("t = new Tracer(1);"));
    assert!(exposed("names.forEach(Log::whereAmI);"));
}

#[test]
fn throwables_that_outlive_the_patch_unthrown_are_exposed() {
    assert!(exposed("last = new IllegalStateException(\"x\");"));
    assert!(exposed(
        "try { f(); } catch (RuntimeException e) { last = e; }"
    ));
    assert!(exposed(
        "try { f(); } catch (RuntimeException e) { record(e); }"
    ));
}

#[test]
fn jdk_loggers_and_stack_walkers_are_exposed_whatever_their_method_names() {
    let none = |_: &str, _: Option<usize>| false;
    let with = |stmt: &str| exposed_with(stmt, &none);
    assert!(with("java.util.logging.Logger.getLogger(\"x\").info(s);"));
    assert!(with(
        "{ java.util.logging.Logger log = make(); log.warning(s); }"
    ));
    assert!(with("y = StackWalker.getInstance().walk(f -> 1);"));
    assert!(!with("mark.info(s);"), "a `Mark` is no logger");
    assert!(!with("info(s);"), "a method of the enclosing class");
    assert!(!with("this.config(s);"));
}

/// A factory of throwables (`error()`): its result kept is exposed, thrown at once is not.
struct Factory;

impl StackOracle for Factory {
    fn may_read_stack(&self, _name: &str, _arity: Option<usize>) -> bool {
        false
    }

    fn may_return_fresh_throwable(&self, name: &str, arity: Option<usize>) -> bool {
        name == "error" && arity == Some(1)
    }
}

#[test]
fn a_kept_result_of_a_throwable_factory_is_exposed() {
    let with = |stmt: &str| exposed_with(stmt, &Factory);
    assert!(with("last = error(s);"));
    assert!(with("list.add(error(s));"));
    assert!(!with("throw error(s);"));
    assert!(!with("if (y < 0) throw error(s);"));
    assert!(!with("y = error();"), "another arity");
}

/// `Oops(Throwable)` reads the stack, `Oops(String)` does not.
struct Overloads;

impl StackOracle for Overloads {
    fn may_read_stack(&self, name: &str, _arity: Option<usize>) -> bool {
        name == "Oops"
    }

    fn may_read_stack_with(&self, name: &str, args: &[Arg]) -> bool {
        name == "Oops" && args != [Arg::String]
    }
}

#[test]
fn a_call_is_asked_with_its_arguments_types() {
    let with = |stmt: &str| exposed_with(stmt, &Overloads);
    assert!(!with("y = new Oops(\"x\").hashCode();"));
    assert!(!with("y = new Oops(s).hashCode();"), "a `String` local");
    assert!(with("y = new Oops(mark).hashCode();"));
    assert!(with("y = new Oops(null).hashCode();"));
    assert!(!with("y = Oops(\"a\" + y);"), "a method, a concatenation");
}

#[test]
fn ordinary_patches_are_not() {
    assert!(!exposed(
        "if (x < 0) throw new IllegalArgumentException(\"neg \" + x);"
    ));
    assert!(!exposed(
        "throw new ParseError(i, new IllegalStateException());"
    ));
    assert!(!exposed(
        "try { f(); } catch (RuntimeException e) { throw new Wrapped(e); }"
    ));
    assert!(!exposed(
        "try { f(); } catch (RuntimeException e) { msg = e.getMessage(); }"
    ));
    assert!(!exposed(
        "try { f(); } catch (RuntimeException e) { throw e; }"
    ));
    assert!(!exposed("y = x * factor() + list.size();"));
    assert!(!exposed("return;"));
}

/// The class path's analysis itself: handing an object to JDK code that calls it back.
fn held_oracle() -> crate::bytecode::purity::Purity {
    crate::bytecode::purity::Purity::with_stack_held(&["Mark", "Items"])
}

#[test]
fn objects_handed_to_jdk_code_that_calls_them_back_are_exposed() {
    let p = held_oracle();
    let with = |stmt: &str| exposed_with(stmt, &p);
    assert!(with("y = new StringBuilder().append(mark).length();"));
    assert!(
        with("java.util.Collections.sort(list, mark);"),
        "a receiver of no declared type"
    );
    assert!(
        with("new java.util.TreeSet<Object>(mark);"),
        "a JDK constructor"
    );
    assert!(
        !with("y = new StringBuilder().append(s).length();"),
        "a string"
    );
    assert!(
        !with("y = new StringBuilder().append(y).length();"),
        "a value"
    );
    assert!(
        with("StringBuilder b = new StringBuilder(); b.append(mark);"),
        "a declared builder"
    );
    assert!(
        !with("items.forEach(i -> y++);"),
        "a lambda the statement writes"
    );
    assert!(
        !with("System.arraycopy(counts, 0, mark, 0, 1);"),
        "an inert JDK call"
    );
    assert!(
        !with("mark.add(items);"),
        "a class-path receiver: the readers list answers"
    );
    assert!(!with("y = helper(mark);"), "the class's own method");
    assert!(
        !with("throw new IllegalStateException(s);"),
        "an allowlisted constructor"
    );
    let quiet = crate::bytecode::purity::Purity::default();
    assert!(!exposed_with(
        "y = new StringBuilder().append(mark).length();",
        &quiet
    ));
    // A `Mark` whose JDK overrides (and its subclasses') read no stack hands nothing; a
    // receiver of no declared type beside it still does.
    let free = held_oracle().with_hand_free(&["Mark"]);
    assert!(!exposed_with(
        "y = new StringBuilder().append(mark).length();",
        &free
    ));
    assert!(exposed_with(
        "java.util.Collections.sort(list, mark);",
        &free
    ));
}

/// `whereAmI()` reads the stack by name, but not on an `A` (the enclosing class), whose own
/// `size()` returns a primitive.
struct PerClass;
impl StackOracle for PerClass {
    fn may_read_stack(&self, name: &str, _arity: Option<usize>) -> bool {
        matches!(name, "whereAmI" | "toString")
    }
    fn may_read_stack_on(&self, receiver: &str, _: bool, name: &str, a: usize) -> bool {
        receiver != "A" && self.may_read_stack(name, Some(a))
    }
    fn returns_primitive(&self, receiver: &str, name: &str, _arity: usize) -> bool {
        receiver == "A" && name == "size"
    }
}

#[test]
fn unqualified_calls_are_asked_of_the_enclosing_class() {
    let in_a = |stmt: &str| stack_exposure(stmt, &site(), &[], Some("A"), &PerClass).is_some();
    let unknown = |stmt: &str| stack_exposure(stmt, &site(), &[], None, &PerClass).is_some();
    assert!(!in_a("y = whereAmI();") && !in_a("y = this.whereAmI();"));
    assert!(unknown("y = whereAmI();"), "no enclosing class known");
    assert!(in_a("y = mark.whereAmI();"), "a call on another type");
    // In a class body the statement writes, an unqualified call is that class's own.
    assert!(in_a(
        "Runnable r = new Runnable() { public void run() { whereAmI(); } };"
    ));
    // A primitive from a call of known class converts to a string by JDK code; a call of
    // unknown type may return a reference whose `toString` is the class path's.
    assert!(!in_a("s = size() + \"!\";") && !in_a("s = \"\" + this.size();"));
    assert!(in_a("s = \"\" + mark.size();") && unknown("s = size() + \"!\";"));
    assert!(in_a("s = \"\" + other();"));
}

#[test]
fn a_string_builder_given_strings_and_values_runs_jdk_code_alone() {
    // A class-path `append/1`, `insert/2` and `toString()` read the stack (by name they could be what runs);
    // on a `StringBuilder` with string and value arguments only the JDK's own methods can.
    let p = crate::bytecode::purity::Purity::with_stack_held(&["Mark", "Log"])
        .with_stack_readers(&[("append", 1), ("insert", 2), ("toString", 0)]);
    let src = "class A { String f(Mark mark, Log log, String name, int n) { StringBuilder sb = new StringBuilder(name); sb.append('s'); return sb.toString(); } }";
    let t = crate::weave::parser().parse(src, None).unwrap();
    let start = src.find("sb.append('s');").unwrap();
    let site = crate::weave::scope::analyse(src, t.root_node(), start..start + 15).unwrap();
    let exposed = |stmt: &str| stack_exposure(stmt, &site, &[], None, &p).is_some();
    assert!(!exposed("sb.append('s');"));
    assert!(!exposed("sb.append(\"es\");"));
    assert!(!exposed("sb.append(name);"), "a `String` parameter");
    assert!(!exposed("sb.insert(0, n);"));
    assert!(!exposed("sb.append(n + 1);"));
    assert!(
        exposed("sb.append(mark);"),
        "an object: its `toString` runs"
    );
    assert!(exposed("log.append(\"es\");"), "a class-path class");
    assert!(
        exposed("sb.append(\"x\" + mark);"),
        "the concatenation's `toString`"
    );
    assert!(p.runs_jdk_alone("java.lang.StringBuilder", "append", &[Arg::String]));
    assert!(p.runs_jdk_alone("StringBuffer", "append", &[Arg::Value]));
    assert!(!p.runs_jdk_alone("StringBuilder[]", "append", &[Arg::Value]));
    assert!(!p.runs_jdk_alone("StringBuilder", "append", &[Arg::Unknown]));
    let shadowed = crate::bytecode::purity::Purity::with_stack_held(&["StringBuilder"])
        .with_stack_readers(&[("append", 1)]);
    assert!(
        !shadowed.runs_jdk_alone("StringBuilder", "append", &[Arg::String]),
        "a class-path class of that name"
    );
}
