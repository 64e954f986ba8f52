//! Generated Java for one woven location, filled from `templates/`: the isolation unit of each
//! patch, the context copy of the enclosing method, and the stub at the original location. The
//! templates' `{{section.key}}` placeholders are values of `protocol.toml` (the jump codes, the
//! runtime's class), filled once when a template is first used.

use super::eligible::Field;
use super::locals::Local;
use super::scope::Site;
use super::tokens::Mentions;
use crate::protocol::{self, class, jump, woven};
use std::sync::LazyLock;

/// A template with the protocol's values in it.
type Template = LazyLock<String>;

static PATCH_METHOD: Template =
    LazyLock::new(|| protocol::fill_values(include_str!("../../templates/patch_method.java")));
static JUMP_LOOP: Template =
    LazyLock::new(|| protocol::fill_values(include_str!("../../templates/jump_loop.java")));
static PATCHED_STATEMENT: Template =
    LazyLock::new(|| protocol::fill_values(include_str!("../../templates/patched_statement.java")));
static STUB: Template =
    LazyLock::new(|| protocol::fill_values(include_str!("../../templates/stub.java")));
static INLINE_LEAF: Template =
    LazyLock::new(|| protocol::fill_values(include_str!("../../templates/inline_leaf.java")));
static INLINE_SPLIT: Template =
    LazyLock::new(|| protocol::fill_values(include_str!("../../templates/inline_split.java")));
static TREE_CAPTURE: Template =
    LazyLock::new(|| protocol::fill_values(include_str!("../../templates/tree_capture.java")));

/// Replaces every `{{key}}` of a template; a placeholder left unfilled is a bug.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (k, v) in values {
        out = out.replace(&format!("{{{{{k}}}}}"), v);
    }
    assert!(
        !out.contains("{{"),
        "unfilled placeholder in template:\n{out}"
    );
    out
}

/// Wrapper type used to carry a local through `Object[]`.
fn boxed(ty: &str) -> &str {
    match ty {
        "int" => "Integer",
        "long" => "Long",
        "short" => "Short",
        "byte" => "Byte",
        "char" => "Character",
        "boolean" => "Boolean",
        "float" => "Float",
        "double" => "Double",
        other => other,
    }
}

/// The default value of a type, for results and unassigned locals.
pub fn default_value(ty: &str) -> &'static str {
    match ty {
        "int" | "short" | "byte" => "0",
        "long" => "0L",
        "char" => "'\\0'",
        "boolean" => "false",
        "float" => "0f",
        "double" => "0d",
        _ => "null",
    }
}

/// One patch as woven: its index in the set, the patched statement text and what it mentions.
pub struct WovenPatch<'a> {
    pub index: usize,
    pub statement: &'a str,
    pub mentions: &'a Mentions,
    /// In the state-transition tree: the fields it may assign (see `eligible`).
    pub tree: Option<&'a [Field]>,
    /// Runs inline in the enclosing method, as written, with plain's frames (no generated
    /// method of its own): `Plan::inline` says why.
    pub inline: bool,
}

/// Locals carried out of the generated methods, indexed by their slot in `__pv_o`.
pub fn outs<'s>(site: &'s Site, patches: &[WovenPatch]) -> Vec<&'s Local> {
    site.locals
        .iter()
        .filter(|l| l.unusable.is_none())
        .filter(|l| !(l.is_final && l.assigned))
        .filter(|l| {
            patches
                .iter()
                .any(|p| !p.inline && p.mentions.assigned.contains(&l.name))
        })
        .collect()
}

/// Locals of the site mentioned by one patch (usable ones only; the caller excluded the rest).
fn mentioned<'s>(site: &'s Site, m: &Mentions) -> Vec<&'s Local> {
    site.locals
        .iter()
        .filter(|l| l.unusable.is_none() && m.names.contains(&l.name))
        .collect()
}

/// The `break` and `continue` codes of the j-th label (`jump::LABEL_BASE`).
fn label_code(j: usize) -> (usize, usize) {
    let base = jump::LABEL_BASE as usize + 2 * j;
    (base, base + 1)
}

/// The isolation unit (a private method in the same class) running patch `p`.
pub fn patch_method(site: &Site, p: &WovenPatch, outs: &[&Local]) -> String {
    let locals = mentioned(site, p.mentions);
    let params: String = locals
        .iter()
        .filter(|l| l.assigned)
        .map(|l| format!("{} {}, ", l.ty, l.name))
        .collect();
    let unassigned: String = locals
        .iter()
        .filter(|l| !l.assigned)
        .map(|l| format!("        {} {};\n", l.ty, l.name))
        .collect();
    // Locals assigned before the location go out in the `finally` (any way of leaving); the others
    // only where javac can see them definitely assigned: on normal completion and after `break`.
    let mut assigned_out = String::new();
    let mut unassigned_out = String::new();
    for (j, o) in outs.iter().enumerate() {
        if locals.iter().any(|l| l.name == o.name) {
            if o.assigned {
                assigned_out.push_str(&format!("            __pv_o[{j}] = {};\n", o.name));
            } else {
                unassigned_out.push_str(&format!("__pv_o[{j}] = {};\n", o.name));
            }
        }
    }
    let mut body = fill(
        &PATCHED_STATEMENT,
        &[
            ("statement", p.statement),
            ("normal_out", &unassigned_out),
            ("break_out", &unassigned_out),
        ],
    );
    for (j, label) in site.labels.iter().enumerate() {
        if !p.mentions.jump_labels.contains(&label.name) {
            continue;
        }
        let (brk, cont) = label_code(j);
        body = fill(
            &JUMP_LOOP,
            &[
                ("label", &format!("{}: ", label.name)),
                ("label_name", &label.name),
                ("level", &(j + 1).to_string()),
                ("continue_code", &cont.to_string()),
                ("break_code", &brk.to_string()),
                ("inner", &body),
            ],
        );
    }
    let modifiers = match (site.in_interface, site.is_static) {
        (true, true) => "static ",
        (true, false) => "default ",
        (false, true) => "private static ",
        (false, false) => "private ",
    };
    let trailing = if site.return_type == "void" {
        String::new()
    } else {
        format!("        return {};\n", default_value(&site.return_type))
    };
    // Exceptions caught around the location may leave the unit: its call sits in the same `try`.
    let mut throws = site.throws.clone();
    for t in &site.caught {
        throws.push_str(if throws.is_empty() { "throws " } else { ", " });
        throws.push_str(t);
    }
    let type_params = if site.type_params.is_empty() {
        String::new()
    } else {
        format!("{} ", site.type_params)
    };
    fill(
        &PATCH_METHOD,
        &[
            ("index", &p.index.to_string()),
            ("modifiers", modifiers),
            ("type_params", type_params.trim_end()),
            ("return_type", &site.return_type),
            ("params", &params),
            ("throws", &throws),
            ("unassigned_locals", &unassigned),
            ("body", &body),
            ("assigned_out", &assigned_out),
            ("trailing_return", &trailing),
        ],
    )
}

/// The stub replacing the original statement(s): asks the runtime which patch to run, calls its
/// unit, writes changed locals back and re-issues the unit's way of leaving.
pub fn stub(
    site: &Site,
    patches: &[WovenPatch],
    outs: &[&Local],
    site_id: u32,
    terminal: bool,
    class_name: Option<&str>,
) -> String {
    let has_result = site.return_type != "void";
    let mut cases = String::new();
    for p in patches.iter().filter(|p| p.inline) {
        cases.push_str(&format!("case {i}: __pv_in = {i}; break;\n", i = p.index));
    }
    for p in patches.iter().filter(|p| !p.inline) {
        let args = call_args(site, p);
        let assign = if has_result { "__pv_r = " } else { "" };
        cases.push_str(&format!(
            "case {i}: {assign}{unit}{i}({args}__pv_k, __pv_o); break;\n",
            i = p.index,
            unit = woven::UNIT_PREFIX
        ));
    }
    let in_tree: Vec<&WovenPatch> = patches.iter().filter(|p| p.tree.is_some()).collect();
    let (tree, tree_replay) = if in_tree.is_empty() {
        (String::new(), String::new())
    } else {
        (
            tree_capture(site, &in_tree, outs, site_id, class_name),
            format!(
                "if (__pv_tree) {{ if (__pv_e != null) throw {}.rethrow(__pv_e); }} else\n",
                class::RT
            ),
        )
    };
    let mut back_assigned = String::new();
    let mut back_unassigned = String::new();
    for (j, o) in outs.iter().enumerate() {
        let b = boxed(&o.ty);
        if o.assigned {
            back_assigned.push_str(&format!(
                "if (__pv_o[{j}] != __pv_o) {} = ({b}) __pv_o[{j}];\n",
                o.name
            ));
        } else {
            back_unassigned.push_str(&format!(
                "{} = __pv_o[{j}] != __pv_o ? ({b}) __pv_o[{j}] : {};\n",
                o.name,
                default_value(&o.ty)
            ));
        }
    }
    // How a generated unit left, re-issued; an inline patch jumps as written, so a stub whose
    // patches are all inline has no such line (a `return` there would leave a blank final of a
    // constructor unassigned on a path javac sees: `finals.rs`).
    let units: Vec<&WovenPatch> = patches.iter().filter(|p| !p.inline).collect();
    let mut control = String::new();
    if site.breakable && units.iter().any(|p| p.mentions.has_break) {
        control.push_str(&format!("if (__pv_k[0] == {}) break;\n", jump::BREAK));
    }
    if site.in_loop && units.iter().any(|p| p.mentions.has_continue) {
        control.push_str(&format!("if (__pv_k[0] == {}) continue;\n", jump::CONTINUE));
    }
    for (j, label) in site.labels.iter().enumerate() {
        if !units
            .iter()
            .any(|p| p.mentions.jump_labels.contains(&label.name))
        {
            continue;
        }
        let (brk, cont) = label_code(j);
        control.push_str(&format!("if (__pv_k[0] == {brk}) break {};\n", label.name));
        if label.is_loop {
            control.push_str(&format!(
                "if (__pv_k[0] == {cont}) continue {};\n",
                label.name
            ));
        }
    }
    // An initialiser's code may not `return` (its patches that do are not woven).
    if !units.is_empty() && site.frame.is_none() {
        control.push_str(&format!(
            "if (__pv_k[0] == {}) return{};\n",
            jump::RETURN,
            if has_result { " __pv_r" } else { "" }
        ));
    }
    let result_decl = if has_result {
        format!(
            "{} __pv_r = {};\n",
            site.return_type,
            default_value(&site.return_type)
        )
    } else {
        String::new()
    };
    let terminal = if terminal {
        "throw new IllegalStateException(\"patchval: a patch completed normally where the original cannot\");\n"
    } else {
        ""
    };
    let mut inline: Vec<&WovenPatch> = patches.iter().filter(|p| p.inline).collect();
    inline.sort_by_key(|p| p.index);
    let (inline_decl, after) = if inline.is_empty() {
        (String::new(), terminal.to_string())
    } else if inline.len() == patches.len() {
        // No generated unit: no branch where the locals the patches assign are not assigned.
        (
            "int __pv_in = -1;\n".to_string(),
            inline_tree(&inline, site_id),
        )
    } else {
        (
            "int __pv_in = -1;\n".to_string(),
            format!(
                "if (__pv_in < 0) {{\n{terminal}}} else {{\n{}}}\n",
                inline_tree(&inline, site_id)
            ),
        )
    };
    let outs_init = if outs.is_empty() {
        "0".to_string()
    } else {
        outs.len().to_string()
    };
    let mut s = fill(
        &STUB,
        &[
            ("count", &patches.len().to_string()),
            ("site", &site_id.to_string()),
            ("outs", &outs_init),
            ("result_decl", &result_decl),
            ("tree", &tree),
            ("tree_replay", &tree_replay),
            ("cases", &cases),
            ("write_back_assigned", &back_assigned),
            ("write_back_unassigned", &back_unassigned),
            ("control", &control),
            ("inline_decl", &inline_decl),
            ("after", &after),
            ("method", site.frame_method()),
        ],
    );
    // The array is its own "not written" marker.
    if outs.is_empty() {
        s = s.replace("java.util.Arrays.fill(__pv_o, __pv_o);\n", "");
    }
    s
}

/// The inline patches' statements, as written, each on lines of its own, chosen by `__pv_in`
/// through a balanced tree of `if`s: an `if` passes `break`, `continue`, labelled jumps and
/// `return` through as plain's file does, and completes normally exactly when some statement
/// does; balanced, because javac's recursion overflows on a chain of a few thousand `else if`s.
fn inline_tree(patches: &[&WovenPatch], site_id: u32) -> String {
    if let [p] = patches {
        return fill(
            &INLINE_LEAF,
            &[
                ("index", &p.index.to_string()),
                ("statement", p.statement),
                ("site", &site_id.to_string()),
            ],
        );
    }
    let (low, high) = patches.split_at(patches.len() / 2);
    fill(
        &INLINE_SPLIT,
        &[
            ("middle", &high[0].index.to_string()),
            ("low", &inline_tree(low, site_id)),
            ("high", &inline_tree(high, site_id)),
        ],
    )
}

/// Arguments passing the definitely assigned locals a patch mentions.
fn call_args(site: &Site, p: &WovenPatch) -> String {
    passed(site, p.mentions)
        .map(|l| format!("{}, ", l.name))
        .collect()
}

/// The locals a patch's unit takes as arguments: those it names that are definitely assigned.
fn passed<'s>(site: &'s Site, m: &Mentions) -> impl Iterator<Item = &'s Local> {
    mentioned(site, m).into_iter().filter(|l| l.assigned)
}

/// Bytes of bytecode, at most, that a patch's `case` adds to the method holding the stub: one
/// `case` in the stub's `switch`, and a second in the tree's capture when the patch goes through
/// the tree. A case loads `this` (one byte) and each argument (at most two bytes a load below slot
/// 256: [`ARG_BYTES`] leaves room for `wide`), calls the unit (three), stores its result (two),
/// jumps out (three) and takes an entry in the `switch`'s table (eight in a `lookupswitch`, whose
/// keys the patches left after the `C`s make sparse): [`CASE_BYTES`] besides the arguments. Groups
/// are cut from it (`technique::schemata`) so the stub's method stays under the JVM's 64 KB of code
/// without a compile to find out.
pub fn case_bytes(site: &Site, mentions: &Mentions, in_tree: bool) -> usize {
    let args = passed(site, mentions).count() + 2;
    (1 + usize::from(in_tree)) * (CASE_BYTES + ARG_BYTES * args)
}

/// A case's bytes besides its arguments, at most (see [`case_bytes`]).
pub const CASE_BYTES: usize = 18;
/// A case's bytes per argument, at most (see [`case_bytes`]).
pub const ARG_BYTES: usize = 3;

/// How generated code names a field of the enclosing class: always qualified (`Class.f`,
/// `this.f`), because the stub sits where a local or parameter of the same name may be in scope.
fn field_ref(f: &Field, class_name: Option<&str>) -> String {
    match (f.is_static, class_name) {
        (true, Some(class)) => format!("{class}.{}", f.name),
        // `Plan::enable_tree` keeps patches assigning static fields out of the tree then.
        (true, None) => unreachable!("static field `{}` without a class name", f.name),
        (false, _) => format!("this.{}", f.name),
    }
}

/// Whether a slot of this declared type holds a primitive (compared by value in the key) rather
/// than a reference (compared by identity as well: `==` can tell equal boxes and strings apart).
fn kind_of(ty: &str) -> char {
    if boxed(ty) != ty {
        woven::PRIMITIVE
    } else {
        woven::REFERENCE
    }
}

/// The capture component of the tree-eligible patches (and the replay of the chosen capture):
/// every patch the tree asks for runs with its fields snapshotted and restored, its change is
/// reported as a canonical key, and the change of the patch the tree picks is applied.
fn tree_capture(
    site: &Site,
    patches: &[&WovenPatch],
    outs: &[&Local],
    site_id: u32,
    class_name: Option<&str>,
) -> String {
    let mut fields: Vec<&Field> = Vec::new();
    for p in patches {
        for f in p.tree.unwrap_or_default() {
            if !fields.contains(&f) {
                fields.push(f);
            }
        }
    }
    let fields_read = fields
        .iter()
        .map(|f| field_ref(f, class_name))
        .collect::<Vec<_>>()
        .join(", ");
    let field_kinds: String = fields.iter().map(|f| kind_of(&f.ty)).collect();
    // A local nothing reads after the location (nor, in a loop, any patch's own text) is left
    // out of the key: patches whose changes differ only there are test-equivalent
    // (dependency-based equivalence).
    let local_kinds: String = outs
        .iter()
        .map(|o| {
            let read_again = site.read_after.contains(&o.name)
                || site.in_loop && patches.iter().any(|p| p.mentions.read.contains(&o.name));
            if read_again {
                kind_of(&o.ty)
            } else {
                woven::DEAD
            }
        })
        .collect();
    let mut restore = String::new();
    let mut replay = String::new();
    for (i, f) in fields.iter().enumerate() {
        let b = boxed(&f.ty);
        let r = field_ref(f, class_name);
        restore.push_str(&format!("{r} = ({b}) __pv_fs[{i}];\n"));
        replay.push_str(&format!("{r} = ({b}) __pv_cf[__pv_j][{i}];\n"));
    }
    let prefill: String = outs
        .iter()
        .enumerate()
        .filter(|(_, o)| o.assigned)
        .map(|(j, o)| format!("__pv_o2[{j}] = {};\n", o.name))
        .collect();
    let has_result = site.return_type != "void";
    let mut cases = String::new();
    for p in patches {
        let assign = if has_result { "__pv_r2 = " } else { "" };
        cases.push_str(&format!(
            "case {i}: {assign}{unit}{i}({args}__pv_k2, __pv_o2); break;\n",
            i = p.index,
            unit = woven::UNIT_PREFIX,
            args = call_args(site, p)
        ));
    }
    let result_replay = if has_result {
        format!(
            "if (__pv_k[0] == {}) __pv_r = ({}) __pv_cr[__pv_j];\n",
            jump::RETURN,
            boxed(&site.return_type)
        )
    } else {
        String::new()
    };
    fill(
        &TREE_CAPTURE,
        &[
            ("site", &site_id.to_string()),
            ("outs", &outs.len().to_string()),
            ("fields_read", &fields_read),
            ("prefill", &prefill),
            ("capture_cases", &cases),
            ("fields_restore", &restore),
            ("result_replay", &result_replay),
            ("fields_replay", &replay),
            (
                "result_primitive",
                if has_result && kind_of(&site.return_type) == woven::PRIMITIVE {
                    "true"
                } else {
                    "false"
                },
            ),
            ("local_kinds", &local_kinds),
            ("field_kinds", &field_kinds),
        ],
    )
}

/// A copy of the enclosing method with patch `index` applied in place, renamed so it can sit beside
/// the original: never run, it only lets javac judge the patch in its real context.
pub fn context_copy(src: &str, site: &Site, index: usize, statement: &str) -> String {
    let base = site.method.start;
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for a in &site.annotations {
        edits.push((a.clone(), String::new()));
    }
    if site.is_constructor {
        let close = site.params_range.end - 1;
        let empty = src[site.params_range.start + 1..close].trim().is_empty();
        let mut marker = String::from(if empty { "" } else { ", " });
        marker.push_str("java.lang.Void __pv_m");
        for bit in 0..16 {
            let ty = if index >> bit & 1 == 1 {
                "Object"
            } else {
                "Void"
            };
            marker.push_str(&format!(", java.lang.{ty} __pv_b{bit}"));
        }
        edits.push((close..close, marker));
    } else {
        edits.push((
            site.name_range.clone(),
            format!("__pv_ctx{index}_{}", site.name),
        ));
    }
    edits.push((site.target.clone(), statement.to_string()));
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut text = src[site.method.clone()].to_string();
    for (r, with) in edits {
        text.replace_range(r.start - base..r.end - base, &with);
    }
    format!("    // patchval: context copy for patch {index}\n    {text}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_all_and_rejects_leftovers() {
        assert_eq!(fill("a{{x}}b{{x}}", &[("x", "1")]), "a1b1");
        let r = std::panic::catch_unwind(|| fill("{{y}}", &[]));
        assert!(r.is_err());
    }

    #[test]
    fn boxes_and_defaults() {
        assert_eq!(boxed("int"), "Integer");
        assert_eq!(boxed("String[]"), "String[]");
        assert_eq!(default_value("char"), "'\\0'");
        assert_eq!(default_value("java.util.List<T>"), "null");
    }
}
