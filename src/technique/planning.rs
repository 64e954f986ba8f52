//! What of a set is woven where, for `technique::schemata`: the set's own plan (a declaration
//! split in place, an initialiser hoisted into a method), a value hole's, and a widened
//! location's for the patches the set's own cannot hold (`weave::widen`); a set narrowed to its
//! patches' token changes and what they keep apart (`weave::trivia`).

use super::RunContext;
use crate::model::{Extra, PatchSet};
use crate::weave;

/// The weaving plan for `set`. A location in the initialiser of a local declaration, which
/// cannot move into a method of its own, is planned on the file with that declaration split in
/// place (`weave::split`), and the patches that only a declaration can take stay unwoven. One in
/// an initialiser block is planned on the block hoisted in place ([`in_place`]), or else, as one
/// in a field's initialiser, with that code moved into a method (`weave::hoist`); the patches
/// naming a guarded field stay unwoven. So is a location that is a whole declaration, for the
/// patches that change only its initialiser.
pub(super) fn plan(
    set: &PatchSet,
    extra: &mut Extra,
) -> Result<weave::Plan, weave::scope::Unsupported> {
    use weave::split;
    let (src, range) = (set.original_text(), set.unpatched_range());
    if let Some(plan) = in_place(&src, range.clone(), &set.patches, extra) {
        return Ok(plan);
    }
    let why = match weave::plan(&src, range.clone(), &set.patches) {
        Ok(plan) => return Ok(plan),
        Err(why) => why,
    };
    // What each patch keeps of a whole declaration (None: one that changes more of it).
    let (range, kept): (_, Vec<Option<split::Kept>>) =
        match split::narrow(&src, range.clone(), &set.patches) {
            Some((value, kept)) if kept.iter().filter(|p| p.is_some()).count() >= 2 => {
                (value, kept)
            }
            _ => {
                let whole = |p: &String| split::Kept {
                    before: String::new(),
                    init: p.clone(),
                    after: String::new(),
                };
                (range, set.patches.iter().map(whole).map(Some).collect())
            }
        };
    // A local declaration is split in place; a field's initialiser or a statement of an
    // initialiser block moves into a method of its own (`weave::hoist`), woven for the patches
    // that name no guarded field (and, in a block, leave it able to complete normally).
    let (split_src, range, statement, constant_value, hoisted) =
        match split::split_declaration(&src, range.clone()) {
            Some(s) => {
                let constant_value = s.constant_final.then_some(s.value);
                (s.src, s.range, Some(s.statement), constant_value, None)
            }
            None => match weave::hoist::field(&src, range.clone())
                .or_else(|| weave::hoist::block(&src, range))
            {
                Some(h) => {
                    let block = h.completion();
                    (h.src, h.range, None, None, Some((h.what, h.guarded, block)))
                }
                None => return Err(why),
            },
        };
    let location = range.clone();
    let guarded = hoisted.as_ref().map(|(_, g, _)| g);
    let block = hoisted.as_ref().and_then(|(_, _, b)| b.as_ref());
    let in_block = block.is_some();
    let (range, texts, around) = split::apply(&split_src, range, statement, &kept);
    let constant = |k: &split::Kept| {
        let value = constant_value.as_ref()?;
        split::constant_initialiser(&split_src, value, &location, around, k)
    };
    let mut plan = weave::plan(&split_src, range, &texts)?;
    for ((excluded, patch), kept) in plan.excluded.iter_mut().zip(&texts).zip(&kept) {
        if excluded.is_none() {
            *excluded = match kept {
                Some(k) if around || k.is_initialiser() => guarded_name(patch, guarded)
                    .or_else(|| block.and_then(|b| b.check(patch)))
                    // The block's later statements would see the local in place.
                    .or_else(|| {
                        (in_block && weave::declares_local(patch)).then(|| {
                            "the patch declares a local in an initialiser block, whose later \
                             statements would see it: validated alone"
                                .to_string()
                        })
                    })
                    // A block's statement is no initialiser: `{ … }` there is a block.
                    .or_else(|| (!in_block).then(|| split::unassignable(&k.init)).flatten())
                    .or_else(|| constant(k)),
                _ => Some(BEYOND_INITIALISER.to_string()),
            };
        }
    }
    match &hoisted {
        Some((what, _, _)) => extra.hoisted = Some(what.as_str().to_string()),
        None => extra.declaration_split = true,
    }
    Ok(plan)
}

/// The plan of a location in an initialiser block, made on the block hoisted in place
/// (`weave::in_place`) and woven back into the block: the patches that name a guarded
/// field, or with which the block could not complete normally, stay unwoven (an initialiser is
/// judged more strictly there than the method the plan sees). `None` where the block cannot be
/// hoisted so or its location not planned (the statement-moving hoist may still take it).
fn in_place(
    src: &str,
    range: std::ops::Range<usize>,
    patches: &[String],
    extra: &mut Extra,
) -> Option<weave::Plan> {
    let (h, unhoist) = weave::in_place::in_place(src, range.clone())?;
    let mut plan = weave::plan(&h.src, h.range.clone(), patches).ok()?;
    let block = h.completion();
    let line = src[..range.start].matches('\n').count() + 1;
    // javac reports an initialiser's error where it starts (`static` or its `{`).
    let head = src[..unhoist.at].trim_end();
    let block_start = head.strip_suffix("static").map_or(unhoist.at, str::len);
    let block_line = src[..block_start].matches('\n').count() + 1;
    for (i, patch) in patches.iter().enumerate() {
        if plan.excluded[i].is_none() {
            plan.excluded[i] = guarded_name(patch, Some(&h.guarded))
                .or_else(|| weave::in_place::declares_shadowed(patch, &unhoist.shadows))
                .or_else(|| block.as_ref().and_then(|b| b.check(patch)));
            // javac's error wherever the block stands: no compile needed to know it.
            plan.certain[i] =
                block
                    .as_ref()
                    .and_then(|b| b.certain_error(patch))
                    .map(|(at, message)| {
                        let line = match at {
                            weave::completion::ErrorAt::Patch(at) => {
                                line + patch[..at].matches('\n').count()
                            }
                            weave::completion::ErrorAt::Block => block_line,
                        };
                        format!("line {line}: {message}")
                    });
        }
    }
    plan.unhoist(unhoist);
    extra.hoisted = Some(format!("{} in place", h.what.as_str()));
    Some(plan)
}

/// What `technique::schemata` does to every plan before weaving: patches that edit other files
/// are compiled with them, stack readers run inline, and nothing runs inline in an initialiser
/// statement moved into a method (one hoisted in place runs where plain runs it).
pub(super) fn prepare(ctx: &RunContext, set: &PatchSet, plan: &mut weave::Plan, extra: &Extra) {
    for (i, excluded) in plan.excluded.iter_mut().enumerate() {
        let n = set.other_edits(i).len();
        if n > 0 && excluded.is_none() {
            *excluded = Some(format!(
                "the patch also edits other files ({n} edits): it is compiled with them"
            ));
        }
    }
    plan.inline_stack_exposed(&ctx.state.purity);
    if extra.hoisted.is_some() && !plan.in_place() {
        // A hoisted initialiser runs in a generated method: inline there, a patch would still
        // see a frame plain has not (`__pv_static_*` for `<clinit>`).
        for (inline, excluded) in plan.inline.iter_mut().zip(&mut plan.excluded) {
            if let Some(why) = inline.take() {
                *excluded = Some(why);
            }
        }
    }
}

/// How far a location must widen to hold a patch left out of it for `why`.
fn reach_for(why: &str) -> Option<weave::widen::Reach> {
    use weave::widen::Reach;
    if why == weave::BRACELESS || why == weave::UNPARSED {
        Some(Reach::Statement)
    } else if why == BEYOND_INITIALISER
        || why == weave::VISIBLE_AFTER
        || why.starts_with(weave::split::CONSTANT_FINAL)
        || why == weave::scope::Unsupported::Declaration.to_string()
    {
        Some(Reach::RestOfBlock)
    } else {
        None
    }
}

/// The patches of a set woven on a wider location than the set's (`weave::widen`).
pub(super) struct Wide {
    pub(super) set: PatchSet,
    pub(super) plan: weave::Plan,
    pub(super) members: Vec<usize>,
}

/// The widened location for the patches whose exclusion (`why`) a wider location may hold:
/// the set rewritten on it (every patched file unchanged) and planned, with the patches its
/// plan holds; `None` when none.
pub(super) fn widened<'a>(
    ctx: &RunContext,
    set: &PatchSet,
    why: impl Fn(usize) -> Option<&'a str>,
) -> Option<Wide> {
    let reaches: Vec<(usize, weave::widen::Reach)> = (0..set.patches.len())
        .filter_map(|i| Some((i, reach_for(why(i)?)?)))
        .collect();
    let reach = reaches.iter().map(|(_, r)| *r).max()?;
    let (src, range) = (set.original_text(), set.unpatched_range());
    let wide = weave::widen::widen(&src, range.clone(), reach)?;
    let mut wider = set.clone();
    wider.context_above = src[..wide.start].to_string();
    wider.unpatched = src[wide.clone()].to_string();
    wider.context_below = src[wide.end..].to_string();
    let (before, after) = (&src[wide.start..range.start], &src[range.end..wide.end]);
    for p in &mut wider.patches {
        *p = format!("{before}{p}{after}");
    }
    let mut extra = Extra::default();
    let mut plan = plan(&wider, &mut extra).ok()?;
    prepare(ctx, &wider, &mut plan, &extra);
    let members: Vec<usize> = reaches
        .iter()
        .map(|(i, _)| *i)
        .filter(|&i| plan.excluded[i].is_none())
        .collect();
    tracing::debug!(
        "{}: {} of {} patches woven on {} ({} bytes)",
        set.filename,
        members.len(),
        reaches.len(),
        reach.as_str(),
        wide.len()
    );
    if members.is_empty() {
        return None;
    }
    if ctx.dedup {
        plan.enable_tree(&ctx.state.purity);
    }
    Some(Wide {
        set: wider,
        plan,
        members,
    })
}

impl Wide {
    /// Whether this plan holds every patch `narrow` holds, and puts in the tree every patch
    /// `narrow` puts there: then it may take the whole set, in one compile.
    pub(super) fn dominates(&self, narrow: &weave::Plan) -> bool {
        (0..narrow.excluded.len()).all(|i| {
            narrow.excluded[i].is_some()
                || self.plan.excluded[i].is_none()
                    && (narrow.tree[i].is_err() || self.plan.tree[i].is_ok())
        })
    }
}

/// Why a patch changing a whole declaration beyond its initialiser is not held by its location.
const BEYOND_INITIALISER: &str = "the patch changes more of the declaration than its initialiser";

/// Patches a value hole takes at least: fewer would not pay for the hole's own compile.
const HOLE_MIN: usize = 3;

/// The plan of a value hole (`weave::value`) for the patches of `set` that differ from the
/// unpatched statement in one expression and that `plan` (on the file itself, not split or
/// hoisted) could not put in the tree, with the patches the hole's plan puts there; `None`
/// when fewer than [`HOLE_MIN`] would go.
pub(super) fn hole_plan(
    ctx: &RunContext,
    set: &PatchSet,
    plan: &weave::Plan,
    extra: &Extra,
) -> Option<(weave::Plan, Vec<usize>)> {
    if extra.declaration_split || extra.hoisted.is_some() {
        return None;
    }
    let (src, range) = (set.original_text(), set.unpatched_range());
    let h = weave::value::holes(&src, range, &plan.site, &set.patches, HOLE_MIN)?;
    let original = h.src[h.range.clone()].to_string();
    let candidate =
        |i: usize| h.patches[i].is_some() && plan.tree[i].is_err() && set.other_edits(i).is_empty();
    let texts: Vec<String> = (0..set.patches.len())
        .map(|i| h.patches[i].clone().unwrap_or_else(|| original.clone()))
        .collect();
    let mut holes = weave::plan(&h.src, h.range.clone(), &texts).ok()?;
    for (i, excluded) in holes.excluded.iter_mut().enumerate() {
        if !candidate(i) {
            *excluded = Some("not in the value hole".into());
        }
    }
    holes.inline_stack_exposed(&ctx.state.purity);
    holes.enable_tree(&ctx.state.purity);
    let members: Vec<usize> = (0..set.patches.len())
        .filter(|&i| candidate(i) && holes.tree[i].is_ok())
        .collect();
    tracing::debug!(
        "value hole of type {}: {} of {} patches",
        h.ty,
        members.len(),
        set.patches.len()
    );
    (members.len() >= HOLE_MIN).then_some((holes, members))
}

/// `n` flags, set for `members` only.
pub(super) fn keep_only(n: usize, members: &[usize]) -> Vec<bool> {
    (0..n).map(|i| members.contains(&i)).collect()
}

/// Why a patch of a hoisted initialiser is not woven: it names a field that an initialiser may
/// not read where a method may (`weave::hoist::Hoisted::guarded`).
fn guarded_name(
    patch: &str,
    guarded: Option<&std::collections::BTreeSet<String>>,
) -> Option<String> {
    // `this.f` too: JLS 16 counts it as an access to a blank final, as the simple name.
    let scan = weave::tokens::scan(patch);
    let hit = guarded?
        .iter()
        .find(|g| scan.names.contains(*g) || scan.this_names.contains(*g))?;
    Some(format!(
        "the patch names the field `{hit}`, which an initialiser may not read where a method \
         may (declared later, itself, or a blank final): validated alone"
    ))
}

/// What a narrowed set's patches keep apart from their text at its location
/// (`weave::trivia::reduce`); empty for a set woven as it is.
#[derive(Default)]
pub(super) struct Apart {
    /// Where each whole patched file has the lines of the file so narrowed.
    pub(super) remaps: Vec<weave::frames::Remap>,
    /// The methods each patch adds beside its code.
    pub(super) helpers: Vec<Vec<weave::trivia::Helper>>,
    /// Why a patch is left whole (validated one by one).
    pub(super) left: Vec<Option<String>>,
    /// Each patch's versions of other methods' bodies, woven in those methods, and the file
    /// they were found in.
    pub(super) branches: Vec<Vec<weave::sites::Branch>>,
    pub(super) original: String,
}

impl Apart {
    /// `apply` to a widened location's plan, made ready before (`planning::widened`): whether
    /// a patch runs inline, and through the tree, decided again with the methods it adds.
    pub(super) fn again(&self, ctx: &RunContext, w: &mut Wide) {
        if self.left.is_empty() {
            return;
        }
        self.apply(&mut w.plan);
        w.plan.inline_stack_exposed(&ctx.state.purity);
        if ctx.dedup {
            w.plan.enable_tree(&ctx.state.purity);
        }
        w.members.retain(|&i| w.plan.excluded[i].is_none());
    }

    /// Whether patch `i` has code elsewhere than at the location: a method it adds, or its
    /// version of another method's body.
    pub(super) fn elsewhere(&self, i: usize) -> bool {
        self.helpers.get(i).is_some_and(|h| !h.is_empty())
            || self.branches.get(i).is_some_and(|b| !b.is_empty())
    }

    /// The narrowing's remaps, added methods, other methods' bodies and patches left whole
    /// given to `plan`; call before `prepare`.
    pub(super) fn apply(&self, plan: &mut weave::Plan) {
        plan.remap_lines(&self.remaps);
        plan.add_helpers(&self.helpers);
        plan.add_branches(&self.original, &self.branches);
        for (excluded, left) in plan.excluded.iter_mut().zip(&self.left) {
            if let (None, Some(why)) = (&excluded, left) {
                *excluded = Some(why.clone());
            }
        }
    }
}

/// `set` on the location its patches' token changes span, each patch's text there, with what
/// they keep apart and how many patches lost an edit (`weave::trivia::reduce`).
pub(super) fn narrowed_to_tokens(set: &PatchSet) -> Option<(PatchSet, Apart, usize)> {
    let src = set.original_text();
    let r = weave::trivia::reduce(&src, set.unpatched_range(), &set.patches)?;
    let mut narrowed = set.clone();
    narrowed.context_above = src[..r.range.start].to_string();
    narrowed.unpatched = src[r.range.clone()].to_string();
    narrowed.context_below = src[r.range.end..].to_string();
    narrowed.patches = r.patches;
    let apart = Apart {
        remaps: r.remaps,
        helpers: r.helpers,
        left: r.left,
        branches: r.branches,
        original: src.clone(),
    };
    Some((narrowed, apart, r.reduced))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rates(above: &str, unpatched: &str, below: &str, patches: &[&str]) -> PatchSet {
        serde_json::from_value(serde_json::json!({
            "manifest_version": 3,
            "bug": "b",
            "filename": "p/Rates.java",
            "context_above": format!("package p;\n\nclass Rates {{\n{above}"),
            "unpatched": unpatched,
            "context_below": format!("{below}\n}}\n"),
            "patches": patches,
        }))
        .unwrap()
    }

    #[test]
    fn a_local_declared_in_an_initialiser_block_is_seen_by_its_later_statements() {
        // Woven in a unit, `int scale = 2;` would end with it, and `top` would read the field
        // (30) where in place it reads the local (60): 33e6891 gave `s` where plain gives `F`.
        // Hoisted in place, the block's later statements are in the planned method: the patch
        // is left to a location reaching the block's end (`weave::widen`).
        let set = rates(
            "    static int scale;\n    static int top;\n\n    static {\n        ",
            "scale = 1;",
            "\n        top = 30 * scale;\n    }",
            &[
                "scale = 1;",
                "int scale = 2; Rates.scale = 1;",
                "scale = 2;",
            ],
        );
        let mut extra = Extra::default();
        let plan = plan(&set, &mut extra).unwrap();
        assert_eq!(extra.hoisted.as_deref(), Some("static block in place"));
        assert!(plan.in_place());
        assert!(plan.excluded[0].is_none() && plan.excluded[2].is_none());
        assert_eq!(plan.excluded[1].as_deref(), Some(weave::VISIBLE_AFTER));
    }

    #[test]
    fn an_initialiser_block_is_woven_in_place_with_its_locals_and_initialiser_rules() {
        let set = rates(
            "    static int scale;\n    static int top;\n\n    static {\n        int k = 3;\n        ",
            "scale = k;",
            "\n        top = 30 * scale;\n    }\n    static int later = 1;",
            &[
                "scale = k + 1;",
                "return;",
                "scale = later;",
                "throw new IllegalStateException();",
                "if (new Throwable().getStackTrace().length > 0) scale = k;",
            ],
        );
        let mut extra = Extra::default();
        let mut plan = plan(&set, &mut extra).unwrap();
        assert!(
            plan.in_place(),
            "the local `k` before the location is passed"
        );
        let why = |i: usize| plan.excluded[i].clone().unwrap_or_default();
        assert!(plan.excluded[0].is_none() && plan.excluded[4].is_none());
        assert!(why(1).contains("`return`"), "{}", why(1));
        // javac says so wherever the block stands: `C` with its message, no compile.
        let line = 1 + set.context_above.matches('\n').count();
        assert_eq!(
            plan.certain[1].as_deref(),
            Some(format!("line {line}: return outside method").as_str())
        );
        assert!(plan
            .certain
            .iter()
            .enumerate()
            .all(|(i, c)| c.is_none() || i == 1));
        assert!(why(2).contains("`later`"), "{}", why(2));
        assert!(why(3).contains("complete normally"), "{}", why(3));
        plan.inline = vec![None, None, None, None, Some("reads the stack".into())];
        let woven = plan.weave(&[0, 4], true, false, 7).unwrap();
        let t = &woven.text;
        // The block is the class's initialiser again, the stub and the inline patch in it, its
        // frame named as the JVM names it, no `return` in it, and every line where it was.
        assert!(
            t.contains("    static {\n        int k = 3;\n        { // patchval: stub"),
            "{t}"
        );
        assert!(t.contains("framed(__pv_x, \"<clinit>\")"), "{t}");
        assert!(!t.contains("__pv_static_") || t.contains("__pv_ctx"), "{t}");
        let stub = &t[t.find("// patchval: stub").unwrap()..t.find("top = 30").unwrap()];
        assert!(!stub.contains("return"), "{stub}");
        assert!(stub.contains("getStackTrace"), "{stub}");
        assert_eq!(woven.frames.method, "<clinit>");
        assert_eq!(weave::syntax_errors(t), 0);
    }

    #[test]
    fn a_block_assigning_a_blank_final_is_woven_in_place_with_a_local_standing_for_it() {
        let set = rates(
            "    static final int LIMIT;\n    static int top;\n\n    static {\n        LIMIT = 4;\n        ",
            "top = 1;",
            "\n    }",
            &["top = 2;", "top = LIMIT;"],
        );
        let mut extra = Extra::default();
        let mut plan = plan(&set, &mut extra).unwrap();
        assert_eq!(extra.hoisted.as_deref(), Some("static block in place"));
        assert!(
            plan.excluded.iter().all(Option::is_none),
            "{:?}",
            plan.excluded
        );
        let hides = super::weave::in_place::declares_shadowed(
            "{ int LIMIT = 2; top = LIMIT; }",
            &[("int".into(), "LIMIT".into())],
        );
        assert!(hides.is_some_and(|w| w.contains("`LIMIT`")));
        let shadows = [("int".to_string(), "LIMIT".to_string())];
        let declares = |p: &str| super::weave::in_place::declares_shadowed(p, &shadows).is_some();
        assert!(declares(
            "Runnable r = new Runnable() { public void run() { top = LIMIT; } };"
        ));
        assert!(declares("Runnable r = () -> top++; top = LIMIT;"));
        assert!(!declares("Runnable r = () -> top++;"));
        assert!(!declares("top = LIMIT + 1;"));
        // A patch naming `LIMIT` may assign it: every patch inline, in `<clinit>`.
        plan.inline_stack_exposed(&|_: &str, _: Option<usize>| false);
        assert!(plan.inline.iter().all(|r| r
            .as_deref()
            .is_some_and(|r| r.contains("blank final field `LIMIT`"))));
        let t = plan.weave(&[0, 1], true, false, 1).unwrap().text;
        // Each context copy declares a final local for it where its body opens and reads it where
        // it ends: javac judges the patch's uses of the field there as in the initialiser.
        let copy = &t[t.find("context copy for patch 1").unwrap()..];
        assert!(copy.contains("() { final int LIMIT;"), "{copy}");
        assert!(
            copy.contains("top = LIMIT;\n     Object __pv_read_LIMIT = LIMIT; }"),
            "{copy}"
        );
        assert!(t.contains("    static {\n        LIMIT = 4;\n        { // patchval: stub"));

        // Qualified, the field is no local's to stand for: the statement-moving hoist, which
        // leaves the patch naming it alone.
        let set = rates(
            "    final int limit;\n    int top;\n\n    {\n        this.limit = 4;\n        ",
            "top = 1;",
            "\n    }",
            &["top = 2;", "top = limit;"],
        );
        let mut extra = Extra::default();
        let moved = super::plan(&set, &mut extra).unwrap();
        assert_eq!(extra.hoisted.as_deref(), Some("instance block"));
        assert!(!moved.in_place());
        assert!(moved.excluded[0].is_none());
        assert!(moved.excluded[1]
            .as_deref()
            .unwrap_or_default()
            .contains("`limit`"));
    }
}
