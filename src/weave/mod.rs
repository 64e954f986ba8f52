//! Mutant schemata: weaving every patch of a set into one copy of the source file with
//! tree-sitter. Each patch gets its own generated method (its isolation unit) plus a never-run
//! context copy of the enclosing method (so javac judges it exactly as in the plain file); the
//! original statement becomes a stub that asks the runtime which patch to run.

pub mod added;
pub mod completion;
pub mod eligible;
pub mod emit;
mod exclusion;
pub mod finals;
pub mod frames;
pub mod hoist;
pub mod in_place;
pub mod lexed;
pub mod locals;
pub mod member;
pub mod members;
pub mod names;
pub mod reach;
pub mod scope;
pub mod sequential;
pub mod sites;
pub mod split;
pub mod stack;
pub mod syntax;
pub mod tokens;
pub mod trivia;
pub mod value;
pub mod widen;

use emit::WovenPatch;
use exclusion::{braceless_exclusion, exclusion, Later};
pub use exclusion::{declares_local, BRACELESS, UNPARSED, VISIBLE_AFTER};
use scope::{Site, Unsupported};
use std::ops::{Range, RangeInclusive};
use tokens::Mentions;

/// The woven text is not valid Java: a bug in the weaver, reported rather than compiled.
#[derive(Debug, thiserror::Error)]
#[error("woven file does not re-parse cleanly ({0} ERROR/MISSING nodes)")]
pub struct WeaveError(pub usize);

/// The source text of node `n`.
fn text<'a>(src: &'a str, n: tree_sitter::Node) -> &'a str {
    &src[n.byte_range()]
}

fn parser() -> tree_sitter::Parser {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_java::LANGUAGE.into())
        .expect("tree-sitter-java matches the tree-sitter version");
    p
}

/// One patched statement parsed as the body of a method of a class of its own, the way every
/// check of a single statement reads it.
struct Wrapped {
    text: String,
    tree: tree_sitter::Tree,
}

impl Wrapped {
    /// The wrapper's text before the statement.
    const OPEN: &'static str = "class __PV { void __m() {\n";

    fn parse(p: &mut tree_sitter::Parser, stmt: &str) -> Option<Wrapped> {
        let text = format!("{}{stmt}\n}} }}", Self::OPEN);
        let tree = p.parse(&text, None)?;
        Some(Wrapped { text, tree })
    }

    /// The statements of the method's body, while the wrapper kept its shape (exactly one
    /// class with exactly one method: no brace of the statement closed the method early).
    fn statements(&self) -> Option<Vec<tree_sitter::Node<'_>>> {
        let root = self.tree.root_node();
        let class = root.named_child(0)?;
        let body = class.child_by_field_name("body")?;
        if root.named_child_count() != 1 || body.named_child_count() != 1 {
            return None;
        }
        let method_body = body.named_child(0)?.child_by_field_name("body")?;
        let mut c = method_body.walk();
        let statements = method_body.named_children(&mut c).collect();
        Some(statements)
    }
}

fn error_nodes(node: tree_sitter::Node) -> usize {
    if !node.has_error() {
        return 0;
    }
    let own = usize::from(node.is_error() || node.is_missing());
    let mut c = node.walk();
    own + node.children(&mut c).map(error_nodes).sum::<usize>()
}

/// Parses Java text and counts ERROR and MISSING nodes.
pub fn syntax_errors(text: &str) -> usize {
    match parser().parse(text, None) {
        Some(t) => error_nodes(t.root_node()),
        None => 1,
    }
}

/// A patch set analysed for weaving.
#[derive(Debug)]
pub struct Plan {
    src: String,
    pub site: Site,
    statements: Vec<String>,
    mentions: Vec<Mentions>,
    /// Per patch: why it cannot be woven (it is then validated on its own), or `None`.
    pub excluded: Vec<Option<String>>,
    /// Per patch: why it runs inline in the enclosing method, as written, rather than in a
    /// generated method of its own (it could see that method on the stack), or `None`.
    pub inline: Vec<Option<String>>,
    /// Per patch: a compile error javac surely gives it, whatever the rest of the file (as a
    /// failure detail, `line N: message`), decided without a compile; the patch is also
    /// excluded.
    pub certain: Vec<Option<String>>,
    /// Per patch, once `enable_tree` ran: the fields it may assign when it can go through the
    /// state-transition tree, or why it runs sequentially.
    pub tree: Vec<Result<Vec<eligible::Field>, eligible::Sequential>>,
    /// The file's package (`""` for the default package).
    package: String,
    /// The simple name of the class declaring the enclosing method (set by `enable_tree`): static
    /// fields are named through it, so a local of the same name cannot capture the reference.
    class_name: Option<String>,
    /// Set when the location's initialiser block was made a method only for planning
    /// (`in_place`): every weave puts it back.
    unhoist: Option<in_place::Unhoist>,
    /// Per patch: where its whole patched file has the lines of the file planned (the same but
    /// where edits that change no token were left out of the set, `trivia`).
    remaps: Vec<frames::Remap>,
    /// Per patch: the methods it adds beside its code (`added`), woven after the generated
    /// members when it is.
    helpers: Vec<Vec<trivia::Helper>>,
    /// Per patch: its versions of other methods' bodies (`sites`), woven in those methods.
    branches: Vec<Vec<sites::Branch>>,
}

/// Which generated member a line belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    /// The generated method that runs the patch.
    Patch,
    /// The never-run copy of the enclosing method with the patch in place.
    Context,
    /// A method the patch adds beside its code (`added`), as it wrote it.
    Helper,
    /// The patch's version of another method's body, inline in that method (`sites`).
    Branch,
}

/// A generated member and the lines it occupies (1-based, inclusive).
#[derive(Debug, Clone)]
pub struct Unit {
    pub patch: usize,
    pub kind: UnitKind,
    pub lines: RangeInclusive<usize>,
}

/// One woven file.
#[derive(Debug, Clone)]
pub struct Woven {
    pub text: String,
    pub units: Vec<Unit>,
    /// Patches woven into this text, by index in the set.
    pub patches: Vec<usize>,
    /// Its lines and generated names as the plainly patched file's (for failure details).
    pub frames: frames::FrameMap,
}

impl Woven {
    /// The unit containing a 1-based line, if any.
    pub fn unit_at(&self, line: usize) -> Option<&Unit> {
        self.units.iter().find(|u| u.lines.contains(&line))
    }
}

/// Analyses the location and checks every patch; fails when the location itself cannot be woven.
pub fn plan(src: &str, range: Range<usize>, patches: &[String]) -> Result<Plan, Unsupported> {
    let tree = parser().parse(src, None).ok_or(Unsupported::Unparsed)?;
    if error_nodes(tree.root_node()) > 0 {
        return Err(Unsupported::SyntaxErrors);
    }
    let site = scope::analyse(src, tree.root_node(), range.clone())?;
    if site.target.start > range.start || range.end > site.target.end {
        return Err(Unsupported::PastTarget {
            range,
            target: site.target,
        });
    }
    let before = &src[site.target.start..range.start];
    let after = &src[range.end..site.target.end];
    // Comments blanked (`tokens::blank_comments`): weaving moves the text, which a `//`
    // comment would change; the lines and offsets stay.
    let statements: Vec<String> = patches
        .iter()
        .map(|p| {
            let s = format!("{before}{p}{after}");
            tokens::blank_comments(&s).unwrap_or(s)
        })
        .collect();
    let mentions: Vec<Mentions> = statements.iter().map(|s| tokens::scan(s)).collect();
    let mut p = parser();
    let later = Later::of(src, &site);
    let excluded = statements
        .iter()
        .zip(&mentions)
        .map(|(s, m)| {
            exclusion(&mut p, &site, &later, s, m)
                .or_else(|| braceless_exclusion(&mut p, src, &site, s))
        })
        .collect();
    let root = tree.root_node();
    let mut c = root.walk();
    let package = root
        .children(&mut c)
        .find(|n| n.kind() == "package_declaration")
        .and_then(|n| {
            let mut c = n.walk();
            let name = n
                .named_children(&mut c)
                .find(|k| matches!(k.kind(), "scoped_identifier" | "identifier"));
            name
        })
        .map(|n| src[n.byte_range()].to_string())
        .unwrap_or_default();
    let tree = vec![Err(eligible::Sequential::DedupOff); patches.len()];
    let inline = vec![None; patches.len()];
    Ok(Plan {
        inline,
        certain: vec![None; patches.len()],
        src: src.to_string(),
        site,
        statements,
        mentions,
        excluded,
        tree,
        package,
        class_name: None,
        unhoist: None,
        remaps: vec![frames::Remap::default(); patches.len()],
        helpers: vec![Vec::new(); patches.len()],
        branches: vec![Vec::new(); patches.len()],
    })
}

impl Plan {
    /// Runs inline in the enclosing method, as written, every patch that could see a generated
    /// isolation unit on the call stack (`stack.rs`), and every patch of a location that may
    /// assign a blank `final` (`finals.rs`); call before `enable_tree`.
    pub fn inline_stack_exposed(&mut self, oracle: &dyn stack::StackOracle) {
        let tree = parser().parse(&self.src, None);
        let fields = tree
            .as_ref()
            .map(|t| eligible::class_fields(&self.src, t.root_node(), &self.site))
            .unwrap_or_default();
        let class_name = tree
            .as_ref()
            .and_then(|t| self.enclosing_class(t.root_node()));
        for (i, stmt) in self.statements.iter().enumerate() {
            if self.excluded[i].is_none() {
                // Inline, its frames are plain's, and its lines too once the class's line table
                // is rewritten (`FrameMap::plain_line`, which needs every patch of its group to
                // shift the lines after the location alike: `line_delta`).
                let exposed = |text: &str| {
                    stack::stack_exposure(text, &self.site, &fields, class_name.as_deref(), oracle)
                };
                // Its code in another method runs inline there (`sites`): here too, so that its
                // own frames are plain's wherever that code is called from.
                let elsewhere = self.branches[i].first().map(|b| {
                    format!(
                        "it changes another method too, `{}`, where it runs inline",
                        &self.src[b.name.clone()]
                    )
                });
                // A method the patch adds runs called from its code: read as a local class.
                self.inline[i] = elsewhere.or_else(|| exposed(stmt)).or_else(|| {
                    self.helpers[i].iter().find_map(|h| {
                        exposed(&format!("class __PvAdded {{\n{}\n}}", h.text))
                            .map(|why| format!("a method it adds, `{}`: {why}", h.name))
                    })
                });
            }
        }
        let blank = match &self.unhoist {
            Some(u) => u.shadows.iter().map(|(_, name)| name.clone()).collect(),
            None => tree
                .as_ref()
                .map(|t| finals::blank_final_fields(&self.src, t.root_node(), &self.site))
                .unwrap_or_default(),
        };
        let original = tokens::scan(&self.src[self.site.target.clone()]);
        let woven: Vec<&Mentions> = (0..self.statements.len())
            .filter(|&i| self.excluded[i].is_none())
            .map(|i| &self.mentions[i])
            .collect();
        let any_inline = self.inline.iter().any(Option::is_some);
        if let Some(why) =
            finals::assigns_blank_final(&self.site, &blank, &original, &woven, any_inline)
        {
            for (inline, excluded) in self.inline.iter_mut().zip(&self.excluded) {
                if excluded.is_none() && inline.is_none() {
                    *inline = Some(why.clone());
                }
            }
        }
    }

    /// Where each patch's whole patched file has the lines of the file this plan patches
    /// (`trivia::reduce`: a set whose patches' edits that change no token were left out).
    pub fn remap_lines(&mut self, remaps: &[frames::Remap]) {
        for (mine, theirs) in self.remaps.iter_mut().zip(remaps) {
            *mine = theirs.clone();
        }
    }

    /// The methods each patch adds beside its code (`trivia::reduce`), woven with it.
    pub fn add_helpers(&mut self, helpers: &[Vec<trivia::Helper>]) {
        for (mine, theirs) in self.helpers.iter_mut().zip(helpers) {
            *mine = theirs.clone();
        }
    }

    /// Lines patch `i` adds to the file (negative: removes) in place of the location's statement.
    pub fn line_delta(&self, i: usize) -> isize {
        let lines = |s: &str| s.matches('\n').count() as isize;
        lines(&self.statements[i]) - lines(&self.src[self.site.target.clone()])
    }

    /// The simple name of the class declaring the location's method (`None` in an anonymous
    /// class or an enum's body).
    fn enclosing_class(&self, root: tree_sitter::Node) -> Option<String> {
        root.descendant_for_byte_range(self.site.method.start, self.site.method.end)
            .and_then(|m| m.parent())
            .and_then(|body| body.parent())
            .and_then(|class| class.child_by_field_name("name"))
            .map(|n| self.src[n.byte_range()].to_string())
    }

    /// Decides which woven patches go through the state-transition tree.
    pub fn enable_tree(&mut self, pure: eligible::PurityOracle) {
        let Some(tree) = parser().parse(&self.src, None) else {
            return;
        };
        let root = tree.root_node();
        let fields = eligible::class_fields(&self.src, root, &self.site);
        let class_name = self.enclosing_class(root);
        // Generated code names a static field `Class.field`: that needs a class name that no
        // local hides (an anonymous class has none).
        let nameable = class_name
            .as_ref()
            .is_some_and(|c| !self.site.locals.iter().any(|l| &l.name == c));
        for i in 0..self.statements.len() {
            self.tree[i] = match (&self.excluded[i], &self.inline[i]) {
                (Some(why), _) => Err(eligible::Sequential::NotWoven(why.clone())),
                (None, Some(why)) => Err(eligible::Sequential::Inline(why.clone())),
                (None, None) => eligible::check(
                    &self.statements[i],
                    &self.site,
                    &fields,
                    class_name.as_deref(),
                    pure,
                )
                .and_then(|assigned| match assigned.iter().find(|f| f.is_static) {
                    Some(f) if !nameable => {
                        Err(eligible::Sequential::UnnameableStatic(f.name.clone()))
                    }
                    _ => Ok(assigned),
                }),
            };
        }
        self.class_name = class_name;
    }

    /// Indices of patches that can be woven.
    pub fn weavable(&self) -> Vec<usize> {
        (0..self.statements.len())
            .filter(|&i| self.excluded[i].is_none())
            .collect()
    }

    /// Bytes of bytecode patch `i`'s cases add to the stub's method, at most
    /// ([`emit::case_bytes`]; through the tree once `enable_tree` admitted it).
    pub fn case_bytes(&self, i: usize) -> usize {
        let in_tree = self.tree.get(i).is_some_and(|t| t.is_ok());
        emit::case_bytes(&self.site, &self.mentions[i], in_tree)
    }

    /// The statement text patch `i` puts at the location.
    /// Weave the plan's initialiser block back in place (`weave::in_place`): its code, the
    /// stub's and the inline patches', runs where plain runs it.
    pub fn unhoist(&mut self, u: in_place::Unhoist) {
        self.site.frame = Some(u.frame);
        self.unhoist = Some(u);
    }

    /// Whether the location's code runs where plain runs it: not in a method an initialiser was
    /// hoisted into.
    pub fn in_place(&self) -> bool {
        self.unhoist.is_some()
    }

    pub fn statement(&self, i: usize) -> &str {
        &self.statements[i]
    }

    /// Weaves the given patches. `with_context` adds the context copies (needed to find
    /// compile errors); `terminal` makes the stub end abruptly (docs/weaving.md, compile rounds).
    pub fn weave(
        &self,
        include: &[usize],
        with_context: bool,
        terminal: bool,
        site_id: u32,
    ) -> Result<Woven, WeaveError> {
        let woven: Vec<WovenPatch> = include
            .iter()
            .map(|&i| WovenPatch {
                index: i,
                statement: &self.statements[i],
                mentions: &self.mentions[i],
                tree: self.tree[i].as_deref().ok(),
                inline: self.inline[i].is_some(),
            })
            .collect();
        let outs = emit::outs(&self.site, &woven);
        let site = &self.site;
        let stub = emit::stub(
            site,
            &woven,
            &outs,
            site_id,
            terminal,
            self.class_name.as_deref(),
        );
        let sites = sites::Sites::new(&self.branches, include, site_id, with_context);
        let mut layout = frames::Layout {
            target_start: site.target.start,
            ..Default::default()
        };
        let mut spans = Vec::new();
        let mut text = String::with_capacity(self.src.len() * 2);
        sites.copy(
            &mut text,
            &mut layout,
            &mut spans,
            &self.src,
            0..site.target.start,
        );
        let stub_at = text.len();
        text.push_str(&stub);
        for p in woven.iter().filter(|p| p.inline) {
            let head = format!("if (__pv_in == {}) {{\n", p.index);
            if let Some(at) = stub.find(&head) {
                let at = stub_at + at + head.len();
                layout
                    .statements
                    .push((p.index, at..at + p.statement.len()));
                spans.push((p.index, UnitKind::Patch, at..at + p.statement.len()));
            }
        }
        layout.copy(&mut text, &self.src, site.target.end..site.method.end);
        text.push('\n');
        for p in &woven {
            if !p.inline {
                let start = text.len();
                text.push_str(&emit::patch_method(site, p, &outs));
                if let Some(at) = text[start..].find(p.statement) {
                    let at = start + at;
                    layout
                        .statements
                        .push((p.index, at..at + p.statement.len()));
                }
                spans.push((p.index, UnitKind::Patch, start..text.len()));
            }
            if with_context {
                let start = text.len();
                let copy = emit::context_copy(&self.src, site, p.index, p.statement);
                match &self.unhoist {
                    Some(u) => text.push_str(&u.shadow(&copy)),
                    None => text.push_str(&copy),
                }
                spans.push((p.index, UnitKind::Context, start..text.len()));
            }
        }
        for p in &woven {
            for h in &self.helpers[p.index] {
                let start = text.len();
                layout.exact(&mut text, p.index, &h.text, h.line);
                text.push('\n');
                spans.push((p.index, UnitKind::Helper, start..text.len()));
            }
        }
        sites.copy(
            &mut text,
            &mut layout,
            &mut spans,
            &self.src,
            site.method.end..self.src.len(),
        );
        let errors = syntax_errors(&text);
        if errors > 0 {
            return Err(WeaveError(errors));
        }
        let line_of = |byte: usize| text[..byte].matches('\n').count() + 1;
        let units = spans
            .into_iter()
            .map(|(patch, kind, r)| Unit {
                patch,
                kind,
                lines: line_of(r.start)..=line_of(r.end.saturating_sub(1)),
            })
            .collect();
        let frames = frames::FrameMap {
            origins: layout.origins(&self.src, &text),
            site_line: frames::line_at(&frames::line_starts(&self.src), site.target.start),
            shifts: include
                .iter()
                .map(|&i| {
                    let shift = frames::Shift {
                        delta: self.line_delta(i),
                        remap: self.remaps[i].clone(),
                    };
                    (i, shift)
                })
                .collect(),
            file_name: String::new(),
            package: self.package.clone(),
            method: site.frame_method().to_string(),
            rewritten: false,
        };
        // Back in place the header leaves every line as it was: units, origins and the line
        // map stay true.
        let text = match &self.unhoist {
            Some(u) => {
                let back = u.apply(&text).ok_or(WeaveError(0))?;
                match syntax_errors(&back) {
                    0 => back,
                    errors => return Err(WeaveError(errors)),
                }
            }
            None => text,
        };
        Ok(Woven {
            text,
            units,
            patches: include.to_vec(),
            frames,
        })
    }
}

#[cfg(test)]
mod tests;
