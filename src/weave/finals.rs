//! Locations whose patches assign a blank `final`: a generated method may not assign an instance
//! field, and the stub's write-back of a local assigns it on a path the inline patches' branches
//! also take, so every patch of such a location runs inline, where each assigns it in a branch of
//! its own as plain's constructor or method does (docs/weaving.md, the inline unit).

use super::eligible::field_declarators;
use super::scope::Site;
use super::text;
use super::tokens::Mentions;
use tree_sitter::Node;

/// The blank `final` instance fields of the class declaring the location's method (declared
/// without a value, so its constructors assign them).
pub fn blank_final_fields(src: &str, root: Node, site: &Site) -> Vec<String> {
    field_declarators(src, root, site)
        .into_iter()
        .filter(|d| {
            let has = |w: &str| d.modifiers.iter().any(|m| m == w);
            has("final") && !has("static") && d.node.child_by_field_name("value").is_none()
        })
        .filter_map(|d| d.node.child_by_field_name("name"))
        .map(|n| text(src, n).to_string())
        .collect()
}

/// Why every patch of the location runs inline, when some statement (a patch's, or the
/// location's own: `original`) may assign a blank `final`: in a constructor, one that names a
/// blank final field (`fields`, plainly or as `this.f`); when some patch already runs inline
/// (`inline`), one that assigns a `final` local not yet assigned at the location (with none
/// inline, the generated methods declare it and the stub writes it back once, which javac takes).
pub fn assigns_blank_final(
    site: &Site,
    fields: &[String],
    original: &Mentions,
    patches: &[&Mentions],
    inline: bool,
) -> Option<String> {
    let statements = || std::iter::once(original).chain(patches.iter().copied());
    // An initialiser block woven in place (`site.frame`) is judged as a constructor is.
    if site.is_constructor || site.frame.is_some() {
        for f in fields {
            if statements().any(|m| m.names.contains(f) || m.this_names.contains(f)) {
                return Some(format!(
                    "the location may assign the blank final field `{f}`, which only its \
                     constructor or initialiser may: every patch runs inline"
                ));
            }
        }
    }
    if !inline {
        return None;
    }
    site.locals
        .iter()
        .filter(|l| l.is_final && !l.assigned)
        .find(|l| statements().any(|m| m.assigned.contains(&l.name)))
        .map(|l| {
            format!(
                "the location may assign the blank final local `{}`, which only its method may: \
                 every patch runs inline",
                l.name
            )
        })
}

#[cfg(test)]
mod tests {
    use crate::weave::plan;

    /// Reasons each patch of `src`'s location `at` runs inline (`getStackTrace` reads the stack).
    fn inline(src: &str, at: &str, patches: &[&str]) -> Vec<Option<String>> {
        let start = src.find(at).unwrap();
        let patches: Vec<String> = patches.iter().map(|p| p.to_string()).collect();
        let mut p = plan(src, start..start + at.len(), &patches).unwrap();
        p.inline_stack_exposed(&|name: &str, _: Option<usize>| name == "getStackTrace");
        p.inline
    }

    #[test]
    fn a_constructor_naming_a_blank_final_field_runs_every_patch_inline() {
        let src = "class S { private final Tag tag; private final int n = 1; private int m;\n\
                   S(String text) { this.tag = new Tag(text); m = 2; } }";
        let got = inline(
            src,
            "this.tag = new Tag(text);",
            &["this.tag = null;", "m = 3;"],
        );
        assert!(got.iter().all(|r| r
            .as_deref()
            .is_some_and(|r| r.contains("blank final field `tag`"))));
        // The other statement names only a field with a value and a field that is not final.
        let got = inline(src, "m = 2;", &["m = n;", "m = 4;"]);
        assert_eq!(got, [None, None]);
        // A method is no constructor: there `tag` cannot be assigned at all.
        let method = "class S { private final Tag tag = null; final int k; S() { k = 1; }\n\
                      void f() { int y = 0; y++; } }";
        assert_eq!(inline(method, "y++;", &["y--;"]), [None]);
    }

    #[test]
    fn a_final_local_not_yet_assigned_runs_every_patch_inline_beside_an_inline_one() {
        let src = "class S { int f(int a) { final int v; int w = 0; v = a; return v + w; } }";
        let reader = "v = new Throwable().getStackTrace().length;";
        let got = inline(src, "v = a;", &["v = a + 1;", "w = 2; v = a;", reader]);
        assert!(got[..2].iter().all(|r| r
            .as_deref()
            .is_some_and(|r| r.contains("blank final local `v`"))));
        assert!(got[2]
            .as_deref()
            .is_some_and(|r| r.contains("getStackTrace")));
        // None inline: the generated methods assign it and the stub writes it back once.
        assert_eq!(
            inline(src, "v = a;", &["v = a + 1;", "w = 2; v = a;"]),
            [None, None]
        );
        let later = "class S { int f(int a) { final int v = a; int w = 0; w = 1; return v + w; } }";
        assert_eq!(inline(later, "w = 1;", &["w = v;"]), [None]);
    }
}
