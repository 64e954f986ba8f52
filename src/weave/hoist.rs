//! Initialisers moved into methods of their own, called where they stood, so that a location in
//! them is in a method body the schemata can weave: an instance field's initialiser (`List<T>
//! items = E;` → `List<T> items = __pv_init_items(); private List<T> __pv_init_items() { return
//! E; }`, the lines kept) and a top-level statement of a class's static initialiser block
//! (`static { S; B; }` → `static { __pv_static_N(); B; } private static void __pv_static_N() {
//! S }`; an instance block's likewise, into an instance method). Done only where a method
//! judges every patch as the initialiser would (docs/weaving.md; for a block's statement,
//! `weave::completion`): the names a patch must not mention for that are returned with the
//! file.

use super::text;
use std::collections::BTreeSet;
use std::ops::Range;
use tree_sitter::Node;

/// The file with the initialiser moved, where the location is then, and the fields a patch may
/// not name to be woven.
#[derive(Debug)]
pub struct Hoisted {
    pub src: String,
    pub range: Range<usize>,
    pub what: Hoist,
    /// The method it moved into.
    pub method: String,
    /// The field itself, the fields of its kind (instance or static) declared at or after it
    /// in its class (a forward reference is an error in an initialiser and not in a method) and
    /// the blank finals of its kind (read before their assignment, an error in an initialiser
    /// only). An instance initialiser may name every static field: the class is initialised
    /// before it runs; a static one cannot name instance fields at all.
    pub guarded: BTreeSet<String>,
}

impl Hoisted {
    /// For a block's statement, the check of each patch against the block's stricter rules.
    pub fn completion(&self) -> Option<super::completion::BlockCompletion> {
        self.what.is_block().then(|| {
            super::completion::BlockCompletion::new(&self.src, self.range.clone(), &self.method)
        })
    }
}

/// What was moved into a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hoist {
    /// An instance field's initialiser.
    Field,
    /// A static field's initialiser.
    StaticField,
    /// A top-level statement of a static initialiser block.
    StaticBlock,
    /// A top-level statement of an instance initialiser block.
    Block,
}

impl Hoist {
    /// Its name in `extra.hoisted`.
    pub fn as_str(self) -> &'static str {
        match self {
            Hoist::Field => "field",
            Hoist::StaticField => "static field",
            Hoist::StaticBlock => "static block",
            Hoist::Block => "instance block",
        }
    }

    /// A statement of an initialiser block (static or instance), which must complete normally.
    pub fn is_block(self) -> bool {
        matches!(self, Hoist::StaticBlock | Hoist::Block)
    }
}

/// Types whose `final` fields can be constant variables (whose initialiser javac folds).
const CONSTANT_TYPES: &[&str] = &[
    "byte",
    "short",
    "char",
    "int",
    "long",
    "float",
    "double",
    "boolean",
    "String",
    "java.lang.String",
];

/// `None` unless `range` lies in the initialiser of a field of a named class (not an enum,
/// interface or anonymous class, whose instances, static state or initialisers differ), the
/// initialiser being an expression (not an array initialiser) and the field not a possible
/// constant (`final` of a primitive or `String`); for an instance field, none of the class's
/// constructors may declare exceptions (an instance initialiser may throw those, a method not).
/// A static field's initialiser moves into a static method.
pub fn field(src: &str, range: Range<usize>) -> Option<Hoisted> {
    let tree = super::parser().parse(src, None)?;
    let (declarator, value) = super::split::initialiser_at(tree.root_node(), &range)?;
    if declarator.child_by_field_name("dimensions").is_some() {
        return None;
    }
    let declaration = declarator.parent()?;
    let body = declaration.parent()?;
    if declaration.kind() != "field_declaration"
        || body.kind() != "class_body"
        || body.parent()?.kind() != "class_declaration"
    {
        return None;
    }
    let modifiers = modifier_words(src, declaration);
    let ty = text(src, declaration.child_by_field_name("type")?);
    let is_static = modifiers.contains(&"static");
    if modifiers.contains(&"final") && CONSTANT_TYPES.contains(&ty) {
        return None;
    }
    let mut c = body.walk();
    let members: Vec<Node> = body.named_children(&mut c).collect();
    if !is_static && a_constructor_throws(&members) {
        return None;
    }
    let name = text(src, declarator.child_by_field_name("name")?);
    let method = format!("__pv_init_{name}");
    if src.contains(&method) {
        return None;
    }
    // The rules of JLS 8.3.3 and 16 apply to the fields of the initialiser's own kind (static
    // or instance); the others are all initialised, or out of reach, in both places.
    let mut guarded = BTreeSet::new();
    for m in members.iter().filter(|m| m.kind() == "field_declaration") {
        let words = modifier_words(src, *m);
        if words.contains(&"static") != is_static {
            continue;
        }
        let at_or_after = m.start_byte() >= declaration.start_byte();
        let blank_final = words.contains(&"final");
        let mut c = m.walk();
        for d in m.children_by_field_name("declarator", &mut c) {
            let no_value = d.child_by_field_name("value").is_none();
            if at_or_after || (blank_final && no_value) {
                if let Some(n) = d.child_by_field_name("name") {
                    guarded.insert(text(src, n).to_string());
                }
            }
        }
    }
    // `T f = E;` → `T f = __pv_init_f(); private T __pv_init_f() { return E; }`.
    let head = format!(
        " private {}{ty} {method}() {{ return ",
        if is_static { "static " } else { "" }
    );
    let (out, offset) = move_out(
        src,
        value,
        &format!("{method}()"),
        declaration.end_byte(),
        &head,
        "; }",
    );
    Some(Hoisted {
        src: out,
        range: range.start + offset..range.end + offset,
        method: method.clone(),
        what: if is_static {
            Hoist::StaticField
        } else {
            Hoist::Field
        },
        guarded,
    })
}

/// The initialiser block around a location, with what both ways of moving it need.
pub(super) struct Around<'t> {
    /// The `static_initializer`, or the instance block itself.
    pub(super) init: Node<'t>,
    /// The block (the initialiser's body).
    pub(super) block: Node<'t>,
    pub(super) is_static: bool,
    /// The block's statements (comments left out), and the index of the one holding the location.
    pub(super) stmts: Vec<Node<'t>>,
    pub(super) k: usize,
    /// The fields an initialiser may not name where a method may: those of the block's kind
    /// declared after it, and its kind's blank finals.
    pub(super) guarded: BTreeSet<String>,
    pub(super) blank: BTreeSet<String>,
    /// Per blank final of the block's kind: its declared type, when it is declared before the
    /// block with a declarator of no dimensions of its own (`None` otherwise).
    pub(super) blank_types: std::collections::BTreeMap<String, Option<String>>,
    /// The text of the initialisers of the block's kind before it (blocks and field values).
    pub(super) earlier: Vec<Range<usize>>,
}

/// The initialiser block of a named class (not an enum or interface, whose static state the
/// warm loader keeps, nor an anonymous class, whose initialisers may throw anything) holding
/// `range` in one of its top-level statements; for an instance block, no constructor of the
/// class may declare exceptions (the block may throw those, a method not).
pub(super) fn around<'t>(src: &str, root: Node<'t>, range: &Range<usize>) -> Option<Around<'t>> {
    let mut n = root.descendant_for_byte_range(range.start, range.end)?;
    let (init, is_static) = loop {
        if n.kind() == "static_initializer" {
            break (n, true);
        }
        if n.kind() == "block" && n.parent()?.kind() == "class_body" {
            break (n, false);
        }
        n = n.parent()?;
    };
    let block = if is_static {
        let mut c = init.walk();
        let found = init.named_children(&mut c).find(|k| k.kind() == "block")?;
        found
    } else {
        init
    };
    let mut c = block.walk();
    let stmts: Vec<Node> = block
        .named_children(&mut c)
        .filter(|k| !k.kind().ends_with("comment"))
        .collect();
    let k = stmts
        .iter()
        .position(|t| t.start_byte() <= range.start && range.end <= t.end_byte())?;
    let body = init.parent()?;
    if body.kind() != "class_body" || body.parent()?.kind() != "class_declaration" {
        return None;
    }
    let mut c = body.walk();
    let members: Vec<Node> = body.named_children(&mut c).collect();
    if !is_static && a_constructor_throws(&members) {
        return None;
    }
    let mut guarded = BTreeSet::new();
    let mut blank = BTreeSet::new();
    let mut blank_types = std::collections::BTreeMap::new();
    let mut earlier = Vec::new();
    for m in &members {
        let before = m.end_byte() <= init.start_byte();
        let kind_static = |m: &Node| modifier_words(src, *m).contains(&"static");
        match m.kind() {
            "static_initializer" if is_static && before => earlier.push(m.byte_range()),
            "block" if !is_static && before => earlier.push(m.byte_range()),
            _ => {}
        }
        if m.kind() != "field_declaration" || kind_static(m) != is_static {
            continue;
        }
        let words = modifier_words(src, *m);
        let ty = m
            .child_by_field_name("type")
            .map(|t| text(src, t).to_string());
        let mut c = m.walk();
        for d in m.children_by_field_name("declarator", &mut c) {
            let Some(name) = d.child_by_field_name("name").map(|n| text(src, n)) else {
                continue;
            };
            match d.child_by_field_name("value") {
                Some(v) if before => earlier.push(v.byte_range()),
                Some(_) => {}
                None if words.contains(&"final") => {
                    blank.insert(name.to_string());
                    let plain = before && d.child_by_field_name("dimensions").is_none();
                    blank_types.insert(name.to_string(), ty.clone().filter(|_| plain));
                }
                None => {}
            }
            if m.start_byte() > init.start_byte() {
                guarded.insert(name.to_string());
            }
        }
    }
    guarded.extend(blank.iter().cloned());
    Some(Around {
        init,
        block,
        is_static,
        stmts,
        k,
        guarded,
        blank,
        blank_types,
        earlier,
    })
}

impl Around<'_> {
    /// `__pv_static_N` or `__pv_block_N` for the statement at `at`, with the modifier its method
    /// takes; `None` when the file already holds the name.
    pub(super) fn method(&self, src: &str, at: usize) -> Option<(String, &'static str)> {
        let (kind, modifier) = if self.is_static {
            ("static", "static ")
        } else {
            ("block", "")
        };
        let method = format!("__pv_{kind}_{at}");
        (!src.contains(&method)).then_some((method, modifier))
    }

    pub(super) fn what(&self) -> Hoist {
        if self.is_static {
            Hoist::StaticBlock
        } else {
            Hoist::Block
        }
    }
}

/// `None` unless `range` lies in a top-level statement `S` of an initialiser block of a named
/// class ([`around`]), with no local or class declared before `S` in the block (a method would
/// not see it) and `S` itself no declaration; `S` moves into a method (`static { A; S; B; }` →
/// `static { A; __pv_static_N(); B; } private static void __pv_static_N() { S }`; an instance
/// block `{ A; S; B; }` likewise into `private void __pv_block_N()`). `S` may not name a blank
/// final of the block's kind (only an initialiser may assign one). The guarded names are those
/// blank finals and the fields of its kind declared after the block (a forward reference in an
/// initialiser is an error, in a method not). Where `weave::in_place` can take the block, it is
/// preferred: its code stays where plain runs it.
pub fn block(src: &str, range: Range<usize>) -> Option<Hoisted> {
    let tree = super::parser().parse(src, None)?;
    let a = around(src, tree.root_node(), &range)?;
    let stmt = a.stmts[a.k];
    let declares = |t: &Node| t.kind().ends_with("declaration");
    if declares(&stmt) || a.stmts[..a.k].iter().any(declares) {
        return None;
    }
    let scan = super::tokens::scan(text(src, stmt));
    if a.blank
        .iter()
        .any(|b| scan.names.contains(b) || scan.this_names.contains(b))
    {
        return None;
    }
    let (method, modifier) = a.method(src, stmt.start_byte())?;
    // The statement's lines move to the method after the block, on the block's last line.
    let (out, offset) = move_out(
        src,
        stmt,
        &format!("{method}();"),
        a.init.end_byte(),
        &format!(" private {modifier}void {method}() {{ "),
        " }",
    );
    Some(Hoisted {
        src: out,
        range: range.start + offset..range.end + offset,
        method: method.clone(),
        what: a.what(),
        guarded: a.guarded,
    })
}

/// `src` with `node` replaced by `call` and moved, between `head` and `tail`, to `end` (the end
/// of the member holding it): the call takes one line where the node took its lines, and the
/// method adds them back on the member's last line, so the lines after the member stay. Returns
/// the text and how far the node's bytes moved.
fn move_out(
    src: &str,
    node: Node,
    call: &str,
    end: usize,
    head: &str,
    tail: &str,
) -> (String, usize) {
    let out = format!(
        "{}{call}{}{head}{}{tail}{}",
        &src[..node.start_byte()],
        &src[node.end_byte()..end],
        text(src, node),
        &src[end..]
    );
    // After everything up to the member's end, less the node and plus the call, and the head.
    let moved = end - node.byte_range().len() + call.len() + head.len();
    (out, moved - node.start_byte())
}

/// Whether a constructor among a class's `members` declares exceptions, which its instance
/// initialisers may then throw and a method may not.
fn a_constructor_throws(members: &[Node]) -> bool {
    members.iter().any(|m| {
        let mut c = m.walk();
        m.kind() == "constructor_declaration" && m.children(&mut c).any(|k| k.kind() == "throws")
    })
}

/// The words of a declaration's modifiers (`private`, `final`, annotations as written).
fn modifier_words<'a>(src: &'a str, declaration: Node) -> Vec<&'a str> {
    let mut c = declaration.walk();
    let words: Vec<&str> = declaration
        .children(&mut c)
        .filter(|k| k.kind() == "modifiers")
        .flat_map(|m| text(src, m).split_whitespace())
        .collect();
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "import java.util.*;\nclass Cart<T> {\n    private final List<T> items = new ArrayList<>(\n        4);\n    private int max = Integer.MIN_VALUE, min = 0;\n    private final int k = 3;\n    private static List<T> all = null;\n    private final String name;\n    private int[] xs = {1, 2};\n    Cart(String n) { name = n; }\n    int size() { return items.size(); }\n}\n";

    fn hoisted(src: &str, unpatched: &str) -> Option<Hoisted> {
        let start = src.find(unpatched).unwrap();
        let h = field(src, start..start + unpatched.len())?;
        assert_eq!(&h.src[h.range.clone()], unpatched);
        assert_eq!(super::super::syntax_errors(&h.src), 0, "{}", h.src);
        assert_eq!(h.src.lines().count(), src.lines().count(), "{}", h.src);
        Some(h)
    }

    #[test]
    fn an_instance_field_s_initialiser_moves_into_a_method_on_the_same_lines() {
        let h = hoisted(SRC, "new ArrayList<>(\n        4)").unwrap();
        assert!(h.src.contains(
            "items = __pv_init_items(); private List<T> __pv_init_items() { return new ArrayList<>(\n        4); }\n"
        ), "{}", h.src);
        // Itself, the later instance fields and the blank final `name`; not the static `all`.
        let names: Vec<&str> = h.guarded.iter().map(String::as_str).collect();
        assert_eq!(names, ["items", "k", "max", "min", "name", "xs"]);
        let h = hoisted(SRC, "MIN_VALUE").unwrap();
        assert!(h.src.contains("int max = __pv_init_max(), min = 0; private int __pv_init_max() { return Integer.MIN_VALUE; }"), "{}", h.src);
        assert!(!h.guarded.contains("items"));
    }

    #[test]
    fn what_a_method_would_judge_otherwise_stays_put() {
        // A possible constant, an array initialiser.
        for unpatched in ["3", "{1, 2}"] {
            assert!(hoisted(SRC, unpatched).is_none(), "{unpatched}");
        }
        // A static field's initialiser moves into a static method; the instance fields are no
        // concern of a static initialiser.
        let h = hoisted(SRC, "null").unwrap();
        assert_eq!(h.what, Hoist::StaticField);
        assert!(h
            .src
            .contains("private static List<T> __pv_init_all() { return null; }"));
        assert_eq!(h.guarded.iter().collect::<Vec<_>>(), ["all"]);
        // A constructor that declares exceptions; an enum; an anonymous class.
        let throws = SRC.replace("Cart(String n) {", "Cart(String n) throws Exception {");
        assert!(hoisted(&throws, "MIN_VALUE").is_none());
        let en = "enum E { A; private int v = 1 + 2; }\n";
        assert!(hoisted(en, "1 + 2").is_none());
        let anon = "class A { Object o = new Object() { int v = 1 + 2; }; }\n";
        assert!(hoisted(anon, "1 + 2").is_none());
    }

    #[test]
    fn a_static_block_s_statement_moves_into_a_static_method() {
        let src = "class R {\n    static int[] P = new int[3];\n    static final int TOP;\n    static {\n        for (int i = 0; i < 3; i++) {\n            P[i] = 10 + 5 * i;\n        }\n        TOP = P[2];\n    }\n    static int later = 1;\n}\n";
        let at = src.find("10 + 5 * i").unwrap();
        let h = block(src, at..at + 10).unwrap();
        assert_eq!(&h.src[h.range.clone()], "10 + 5 * i");
        assert_eq!(super::super::syntax_errors(&h.src), 0, "{}", h.src);
        assert_eq!(h.src.lines().count(), src.lines().count());
        assert!(
            h.src.contains("static {\n        __pv_static_"),
            "{}",
            h.src
        );
        assert!(h.src.contains("TOP = P[2];"), "{}", h.src);
        // The blank final and the later static field.
        assert_eq!(h.guarded.iter().collect::<Vec<_>>(), ["TOP", "later"]);
        // The statement assigning the blank final stays; so does one after a local.
        let at = src.find("P[2]").unwrap();
        assert!(block(src, at..at + 4).is_none());
        let local = src.replace("static {\n", "static {\n        int n = 3;\n");
        let at = local.find("10 + 5 * i").unwrap();
        assert!(block(&local, at..at + 10).is_none());
        let en = "enum E { A; static int x; static { x = 1 + 2; } }\n";
        let at = en.find("1 + 2").unwrap();
        assert!(block(en, at..at + 5).is_none());
    }

    #[test]
    fn an_instance_block_s_statement_moves_into_an_instance_method() {
        let src = "class L {\n    static int seen;\n    int open;\n    final int cap;\n    {\n        for (int i = 0; i < 3; i++) {\n            open += i;\n        }\n        seen++;\n    }\n    int later = 1;\n    L() { cap = 2; }\n}\n";
        let at = src.find("open += i").unwrap();
        let h = block(src, at..at + 9).unwrap();
        assert_eq!(h.what, Hoist::Block);
        assert_eq!(&h.src[h.range.clone()], "open += i");
        assert_eq!(super::super::syntax_errors(&h.src), 0, "{}", h.src);
        assert_eq!(h.src.lines().count(), src.lines().count());
        assert!(h.src.contains("    {\n        __pv_block_"), "{}", h.src);
        assert!(h.src.contains("} private void __pv_block_"), "{}", h.src);
        // The instance blank final and the instance field after the block; statics are free.
        assert_eq!(h.guarded.iter().collect::<Vec<_>>(), ["cap", "later"]);
        // A constructor that declares exceptions: the block may throw them, a method not.
        let throwing = src.replace("L() {", "L() throws java.io.IOException {");
        let at = throwing.find("open += i").unwrap();
        assert!(block(&throwing, at..at + 9).is_none());
        // A statement naming the blank final stays; so do anonymous classes' blocks.
        let naming = src.replace("seen++;", "seen = cap;");
        let at = naming.find("seen = cap").unwrap();
        assert!(block(&naming, at..at + 10).is_none());
        let anon = "class A { Object o = new Object() { int v; { v = 1 + 2; } }; }\n";
        let at = anon.find("1 + 2").unwrap();
        assert!(block(anon, at..at + 5).is_none());
        // A method's own block is no initialiser.
        let method = "class M { int f() { { return 1 + 2; } } }\n";
        let at = method.find("1 + 2").unwrap();
        assert!(block(method, at..at + 5).is_none());
    }
}
