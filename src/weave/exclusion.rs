//! Why one patched statement cannot go into its location's unit (a comment, a parse error, a
//! name it declares that later statements may see, an unassigned local it reads, a body
//! without braces it does not fit), the message going to `Plan::excluded`.

use super::scope::Site;
use super::tokens::{self, Mentions};
use super::{error_nodes, parser, Wrapped};

/// Why a patch is left out of a location in a body without braces (`widen` may hold it).
pub const BRACELESS: &str = "the patch is not one statement in place of a body without braces";

/// Why a patch whose statement does not parse where it stands is left out of its location
/// (`widen` may hold it: `else` after a body without braces, a declarator list).
pub const UNPARSED: &str = "the patched statement does not parse";

/// Why a patch declaring a local that later statements could name is left out of its location
/// (`widen` may hold it).
pub const VISIBLE_AFTER: &str = "the patch declares a name visible after the location";

/// The names the enclosing method mentions after the location, for the patches that declare
/// locals there.
pub(super) struct Later {
    /// Identifiers not after a `.` from the end of the target to the end of the method.
    names: std::collections::BTreeSet<String>,
    /// That text holds a `\u` escape, which could spell any name.
    escapes: bool,
}

impl Later {
    pub(super) fn of(src: &str, site: &Site) -> Later {
        let rest = &src[site.target.end..site.method.end.max(site.target.end)];
        Later {
            names: tokens::scan(rest).names,
            escapes: rest.contains("\\u"),
        }
    }

    /// Whether a local named `name`, declared by the patched statement, could be used after it:
    /// the statement's isolation unit ends its scope there, where in the plainly patched file
    /// it runs to the end of the block.
    fn may_use(&self, name: &str) -> bool {
        self.escapes || self.names.contains(name)
    }
}

/// Whether the patched statement declares a local at its top level (in an initialiser block's
/// hoisted statement the rest of the block is outside the method [`Later`] scans, so
/// `technique::schemata` keeps such a patch alone there).
pub fn declares_local(stmt: &str) -> bool {
    let Some(w) = Wrapped::parse(&mut parser(), stmt) else {
        return true;
    };
    w.statements().is_none_or(|body| {
        body.iter()
            .any(|s| s.kind() == "local_variable_declaration")
    })
}

/// The names a top-level local variable declaration of a patched statement declares.
fn declared_names<'s>(stmt: &'s str, decl: tree_sitter::Node) -> Vec<&'s str> {
    let mut c = decl.walk();
    let names = decl
        .children_by_field_name("declarator", &mut c)
        .filter_map(|d| d.child_by_field_name("name"))
        .map(|n| &stmt[n.byte_range()])
        .collect();
    names
}

/// Why one patched statement cannot go into the schemata, if it cannot.
pub(super) fn exclusion(
    p: &mut tree_sitter::Parser,
    site: &Site,
    later: &Later,
    stmt: &str,
    m: &Mentions,
) -> Option<String> {
    if m.has_comment {
        return Some("the patch holds a comment".into());
    }
    let w = Wrapped::parse(p, stmt)?;
    if error_nodes(w.tree.root_node()) > 0 {
        return Some(UNPARSED.into());
    }
    let Some(body) = w.statements() else {
        return Some("the patch changes the structure around the statement".into());
    };
    for s in body {
        // A local the rest of the method never names may end its scope with the unit: no
        // later reference or declaration can tell (a local type's name could: its binary name).
        let unseen = s.kind() == "local_variable_declaration"
            && declared_names(&w.text, s)
                .into_iter()
                .all(|n| !later.may_use(n));
        if !unseen
            && matches!(
                s.kind(),
                "local_variable_declaration"
                    | "class_declaration"
                    | "record_declaration"
                    | "enum_declaration"
                    | "interface_declaration"
            )
        {
            return Some(VISIBLE_AFTER.into());
        }
    }
    for l in &site.locals {
        if let Some(why) = &l.unusable {
            if m.names.contains(&l.name) {
                return Some(why.clone());
            }
        }
        if !l.assigned && m.names.contains(&l.name) && !m.assigned.contains(&l.name) {
            return Some(format!("`{}` may be unassigned at the location", l.name));
        }
        // Its value is carried out only on normal completion and unlabelled `break`.
        if !l.assigned && !m.jump_labels.is_empty() && m.assigned.contains(&l.name) {
            return Some(format!(
                "the patch jumps to a label and assigns `{}`, unassigned before the location",
                l.name
            ));
        }
    }
    None
}

/// In the body of an `if` or loop without braces the patched text must stay exactly one
/// statement of that parent: `a; b;` or `if (c) a;` before an `else` mean something else in
/// the plain file than inside the stub's block.
pub(super) fn braceless_exclusion(
    p: &mut tree_sitter::Parser,
    src: &str,
    site: &Site,
    stmt: &str,
) -> Option<String> {
    let (parent_start, parent_kind) = site.braceless_parent.as_ref()?;
    let lead = stmt.len() - stmt.trim_start().len();
    let (start, end) = (
        site.target.start + lead,
        site.target.start + stmt.trim_end().len(),
    );
    let text = format!(
        "{}{stmt}{}",
        &src[..site.target.start],
        &src[site.target.end..]
    );
    let in_place = p.parse(&text, None).is_some_and(|tree| {
        let mut n = tree.root_node().descendant_for_byte_range(start, end);
        while let Some(k) = n.filter(|k| k.start_byte() == start && k.end_byte() == end) {
            if k.parent().is_some_and(|q| {
                q.start_byte() == *parent_start && q.kind() == parent_kind.as_str()
            }) {
                return error_nodes(tree.root_node()) == 0;
            }
            n = k.parent();
        }
        false
    });
    (!in_place).then(|| BRACELESS.into())
}
