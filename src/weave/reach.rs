//! JLS 14.22 read both ways for a statement every part of which is reachable: whether it surely
//! can complete normally ([`Flow::completes`], with the constant-expression rules of JLS 15.29
//! it needs), and whether it surely cannot ([`never_completes`]). Neither answers "maybe".

use std::collections::BTreeSet;
use tree_sitter::Node;

/// Kinds of expression that are never constant expressions (JLS 15.29), wherever they stand.
const NEVER_CONSTANT: &[&str] = &[
    "method_invocation",
    "object_creation_expression",
    "array_creation_expression",
    "assignment_expression",
    "update_expression",
    "array_access",
    "instanceof_expression",
    "this",
    "super",
    "lambda_expression",
    "method_reference",
    "class_literal",
];

/// Parents under which an `identifier` is a simple name used as a value (not a field's or a
/// method's name after a dot).
const VALUE_PARENTS: &[&str] = &[
    "binary_expression",
    "unary_expression",
    "parenthesized_expression",
    "ternary_expression",
    "cast_expression",
];

/// JLS 14.22 the other way round: `true` only where statement `n` surely cannot complete
/// normally: a `throw`; a `while`, `do` or `for` on the literal `true` (or none) with no `break`
/// in its body that may exit it ([`may_break`]); a block whose last statement cannot; an `if`
/// whose two branches cannot; a labelled or `synchronized` statement around one that cannot
/// (with no `break` inside at all).
pub(super) fn never_completes(n: Node) -> bool {
    let field = |name: &str| n.child_by_field_name(name);
    let literal_true = |c: Option<Node>| {
        let mut e = c;
        while let Some(p) = e.filter(|p| p.kind() == "parenthesized_expression") {
            e = p.named_child(0);
        }
        e.is_some_and(|e| e.kind() == "true")
    };
    let no_break = |b: Option<Node>| b.is_some_and(|b| !may_break(b, false));
    match n.kind() {
        "throw_statement" => true,
        "while_statement" | "do_statement" => {
            literal_true(field("condition")) && no_break(field("body"))
        }
        "for_statement" => {
            (field("condition").is_none() || literal_true(field("condition")))
                && no_break(field("body"))
        }
        "block" => statements(n).pop().is_some_and(never_completes),
        "if_statement" => {
            field("consequence").is_some_and(never_completes)
                && field("alternative").is_some_and(never_completes)
        }
        "labeled_statement" | "synchronized_statement" => {
            !has_break(n) && statements(n).pop().is_some_and(never_completes)
        }
        _ => false,
    }
}

/// Whether a `break` inside `n`, the body of a loop, may exit that loop: a labelled one
/// anywhere (its label may be the loop's or an outer one), an unlabelled one outside the loops
/// and switches nested in `n` (`nested`: inside one). Never one in a lambda or a class body.
fn may_break(n: Node, nested: bool) -> bool {
    let nested = nested
        || matches!(
            n.kind(),
            "while_statement"
                | "do_statement"
                | "for_statement"
                | "enhanced_for_statement"
                | "switch_expression"
        );
    match n.kind() {
        "break_statement" => !nested || n.named_child_count() > 0,
        "lambda_expression" | "class_body" => false,
        _ => {
            let mut c = n.walk();
            let children: Vec<Node> = n.named_children(&mut c).collect();
            children.into_iter().any(|k| may_break(k, nested))
        }
    }
}

/// Whether a `break` stands anywhere inside `n`.
fn has_break(n: Node) -> bool {
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    n.kind() == "break_statement" || children.into_iter().any(has_break)
}

pub(super) fn is_final(src: &str, declaration: Node) -> bool {
    let mut c = declaration.walk();
    let found = declaration
        .children(&mut c)
        .filter(|k| k.kind() == "modifiers")
        .any(|m| super::text(src, m).split_whitespace().any(|w| w == "final"));
    found
}

/// How a simple name is bound where it is read.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Binding {
    /// A local or field that cannot be a constant variable.
    NonConstant,
    /// A `final` local, or a name this file does not show: it may be a constant variable.
    Unknown,
}

pub(super) struct Flow<'a> {
    pub(super) src: &'a str,
    pub(super) fields: &'a BTreeSet<String>,
}

impl Flow<'_> {
    pub(super) fn word(&self, n: Node) -> &str {
        super::text(self.src, n)
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or_default()
    }

    /// The label a labelled statement declares, or a `break` names.
    fn label(&self, n: Node) -> Option<&str> {
        let mut c = n.walk();
        let found = n
            .named_children(&mut c)
            .find(|k| k.kind() == "identifier")
            .map(|k| super::text(self.src, k));
        found
    }

    /// JLS 14.22, every statement taken as reachable: `true` only where the statement surely can
    /// complete normally.
    pub(super) fn completes(&self, n: Node) -> bool {
        let field = |name: &str| n.child_by_field_name(name);
        match n.kind() {
            "block" => statements(n).into_iter().all(|s| self.completes(s)),
            "expression_statement"
            | "local_variable_declaration"
            | "assert_statement"
            | "enhanced_for_statement"
            | "class_declaration"
            | "record_declaration"
            | "interface_declaration"
            | "enum_declaration" => true,
            "if_statement" => match field("alternative") {
                None => true,
                Some(e) => {
                    field("consequence").is_some_and(|t| self.completes(t)) || self.completes(e)
                }
            },
            "while_statement" => {
                field("condition").is_some_and(|c| self.not_constant_true(c))
                    || field("body").is_some_and(|b| self.breaks_out(b, None))
            }
            "do_statement" => {
                (field("body").is_some_and(|b| self.completes(b))
                    && field("condition").is_some_and(|c| self.not_constant_true(c)))
                    || field("body").is_some_and(|b| self.breaks_out(b, None))
            }
            "for_statement" => {
                field("condition").is_some_and(|c| self.not_constant_true(c))
                    || field("body").is_some_and(|b| self.breaks_out(b, None))
            }
            "labeled_statement" => {
                let label = self.label(n);
                let mut c = n.walk();
                let inner = n.named_children(&mut c).last();
                match (label, inner) {
                    (Some(l), Some(s)) => self.completes(s) || self.breaks_out(s, Some(l)),
                    _ => false,
                }
            }
            "synchronized_statement" => field("body").is_some_and(|b| self.completes(b)),
            "try_statement" | "try_with_resources_statement" => {
                let mut c = n.walk();
                let parts: Vec<Node> = n.named_children(&mut c).collect();
                let catches = parts.iter().filter(|k| k.kind() == "catch_clause");
                let finally = parts.iter().find(|k| k.kind() == "finally_clause");
                (field("body").is_some_and(|b| self.completes(b))
                    || catches
                        .filter_map(|k| k.child_by_field_name("body"))
                        .any(|b| self.completes(b)))
                    && finally.is_none_or(|f| self.finally_completes(*f))
            }
            "switch_expression" => self.switch_completes(n),
            _ => false,
        }
    }

    fn finally_completes(&self, finally: Node) -> bool {
        let mut c = finally.walk();
        let found = finally
            .named_children(&mut c)
            .find(|k| k.kind() == "block")
            .is_some_and(|b| self.completes(b));
        found
    }

    /// A switch statement (JLS 14.22): one that is not enhanced and has no `default`, one a
    /// `break` exits, one whose last group completes (or ends in labels), one with a rule that
    /// is an expression or a block that completes.
    fn switch_completes(&self, n: Node) -> bool {
        let Some(block) = n.child_by_field_name("body") else {
            return false;
        };
        let mut c = block.walk();
        let parts: Vec<Node> = block.named_children(&mut c).collect();
        let labels: Vec<Node> = parts
            .iter()
            .flat_map(|p| {
                let mut c = p.walk();
                p.named_children(&mut c)
                    .filter(|k| k.kind() == "switch_label")
                    .collect::<Vec<_>>()
            })
            .collect();
        let plain_case = |l: &Node| {
            let t = super::text(self.src, *l);
            let mut c = l.walk();
            let patterned = l
                .named_children(&mut c)
                .any(|k| k.kind().contains("pattern") || k.kind() == "null_literal");
            // A qualified constant may be an enum's under a selector of another type (Java 21),
            // which makes the switch enhanced.
            t.starts_with("case") && !patterned && !t.contains("default") && !t.contains('.')
        };
        if !labels.is_empty() && labels.iter().all(plain_case) {
            return true;
        }
        if self.breaks_out(block, None) {
            return true;
        }
        let rule_completes = |r: &Node| {
            let mut c = r.walk();
            let body = r
                .named_children(&mut c)
                .filter(|k| k.kind() != "switch_label")
                .last();
            body.is_some_and(|b| {
                b.kind() == "expression_statement" || (b.kind() == "block" && self.completes(b))
            })
        };
        match parts.last() {
            Some(last) if last.kind() == "switch_block_statement_group" => {
                let mut c = last.walk();
                let stmts: Vec<Node> = last
                    .named_children(&mut c)
                    .filter(|k| k.kind() != "switch_label" && !k.kind().ends_with("comment"))
                    .collect();
                stmts.into_iter().all(|s| self.completes(s))
            }
            _ => parts
                .iter()
                .filter(|p| p.kind() == "switch_rule")
                .any(rule_completes),
        }
    }

    /// A `break` inside `n` whose target is the statement holding `n`: with `label`, a
    /// `break label`; without, an unlabelled `break` not inside a nested loop or switch. Never
    /// inside a lambda or a class body (another method), nor inside a `try` whose `finally`
    /// cannot complete normally (that `break` does not exit).
    fn breaks_out(&self, n: Node, label: Option<&str>) -> bool {
        match n.kind() {
            "break_statement" => return self.label(n) == label,
            "lambda_expression" | "class_body" => return false,
            "while_statement"
            | "do_statement"
            | "for_statement"
            | "enhanced_for_statement"
            | "switch_expression"
                if label.is_none() =>
            {
                return false;
            }
            "try_statement" | "try_with_resources_statement" => {
                let mut c = n.walk();
                let finally = n
                    .named_children(&mut c)
                    .find(|k| k.kind() == "finally_clause");
                if finally.is_some_and(|f| !self.finally_completes(f)) {
                    return false;
                }
            }
            _ => {}
        }
        let mut c = n.walk();
        let children: Vec<Node> = n.named_children(&mut c).collect();
        children.into_iter().any(|k| self.breaks_out(k, label))
    }

    /// A loop condition that is not a constant expression of value `true` (JLS 14.22): one that
    /// is never constant, or the literal `false` (a `while` or `for` on it has an unreachable
    /// body, an error in the method too).
    fn not_constant_true(&self, cond: Node) -> bool {
        let mut e = cond;
        while e.kind() == "parenthesized_expression" {
            match e.named_child(0) {
                Some(inner) => e = inner,
                None => return false,
            }
        }
        e.kind() == "false" || self.never_constant(cond)
    }

    /// Whether `expr` is surely not a constant expression (so not one with value `true`): it
    /// holds a kind of expression that never is, or a simple name bound to a local or field
    /// that is not `final`.
    fn never_constant(&self, expr: Node) -> bool {
        if NEVER_CONSTANT.contains(&expr.kind()) {
            return true;
        }
        if expr.kind() == "identifier" {
            let as_value = expr.parent().is_some_and(|p| {
                VALUE_PARENTS.contains(&p.kind()) || p.kind().ends_with("_statement")
                // the condition of a `for`
            });
            if as_value && self.binding(expr) == Binding::NonConstant {
                return true;
            }
        }
        let mut c = expr.walk();
        let children: Vec<Node> = expr.named_children(&mut c).collect();
        children.into_iter().any(|k| self.never_constant(k))
    }

    /// The binding of the simple name `id`: the local declared before it in an enclosing block
    /// or `for`, or the resource, catch parameter or enhanced-for variable around it (a local
    /// cannot be hidden by another), else a field of the class.
    pub(super) fn binding(&self, id: Node) -> Binding {
        let name = super::text(self.src, id);
        let declares = |d: Node| {
            let mut c = d.walk();
            let found = d.children_by_field_name("declarator", &mut c).any(|v| {
                v.child_by_field_name("name")
                    .is_some_and(|k| super::text(self.src, k) == name)
            });
            found
        };
        let local = |d: Node| {
            if is_final(self.src, d) {
                Binding::Unknown
            } else {
                Binding::NonConstant
            }
        };
        let mut child = id;
        while let Some(up) = child.parent() {
            match up.kind() {
                "block" | "switch_block_statement_group" | "switch_block" => {
                    // A switch block is one scope: its earlier groups' locals are seen too.
                    let mut c = up.walk();
                    let before: Vec<Node> = up
                        .named_children(&mut c)
                        .take_while(|k| k.id() != child.id())
                        .flat_map(|k| {
                            let mut c = k.walk();
                            match k.kind() {
                                "switch_block_statement_group" => {
                                    k.named_children(&mut c).collect()
                                }
                                _ => vec![k],
                            }
                        })
                        .collect();
                    if let Some(d) = before
                        .into_iter()
                        .find(|k| k.kind() == "local_variable_declaration" && declares(*k))
                    {
                        return local(d);
                    }
                }
                "for_statement" => {
                    let mut c = up.walk();
                    let init: Vec<Node> = up.children_by_field_name("init", &mut c).collect();
                    if let Some(d) = init
                        .into_iter()
                        .find(|k| k.kind() == "local_variable_declaration" && declares(*k))
                    {
                        return local(d);
                    }
                }
                // Their variables have no constant initialiser: an enhanced `for`'s (in its
                // body), a catch parameter, a resource (never a primitive or a `String`).
                "enhanced_for_statement" => {
                    let in_body = up
                        .child_by_field_name("body")
                        .is_some_and(|b| b.id() == child.id());
                    if in_body
                        && up
                            .child_by_field_name("name")
                            .is_some_and(|k| super::text(self.src, k) == name)
                    {
                        return Binding::NonConstant;
                    }
                }
                "catch_clause" => {
                    let mut c = up.walk();
                    let parameter = up
                        .named_children(&mut c)
                        .find(|k| k.kind() == "catch_formal_parameter");
                    if parameter
                        .and_then(|p| p.child_by_field_name("name"))
                        .is_some_and(|k| super::text(self.src, k) == name)
                    {
                        return Binding::NonConstant;
                    }
                }
                "try_with_resources_statement" => {
                    let Some(spec) = up.child_by_field_name("resources") else {
                        break;
                    };
                    let mut c = spec.walk();
                    let resources: Vec<Node> = spec.named_children(&mut c).collect();
                    if resources.iter().any(|r| {
                        r.child_by_field_name("name")
                            .is_some_and(|k| super::text(self.src, k) == name)
                    }) {
                        return Binding::NonConstant;
                    }
                }
                "lambda_expression" | "class_body" | "method_declaration" => break,
                _ => {}
            }
            child = up;
        }
        if self.fields.contains(name) {
            Binding::NonConstant
        } else {
            Binding::Unknown
        }
    }
}

/// The statements of a block, comments left out.
pub(super) fn statements(block: Node) -> Vec<Node> {
    let mut c = block.walk();
    let found = block
        .named_children(&mut c)
        .filter(|k| !k.kind().ends_with("comment"))
        .collect();
    found
}
