//! Unit and property tests of `weave::trivia`.

mod basic {
    use super::super::*;

    const SRC: &str = "class A {\n    /**\n     * Sum.\n     */\n    int f(int x) {\n        int y = x + 1;\n        return y;\n    }\n\n    int g() { return 2; }\n}\n";

    fn location(src: &str, from: &str, to: &str) -> Range<usize> {
        let s = src.find(from).unwrap();
        s..src.find(to).unwrap() + to.len()
    }

    #[test]
    fn a_reworded_javadoc_is_left_out_and_the_lines_after_it_move() {
        let range = location(SRC, "    /**", "    }\n");
        let patch = "    /**\n     * Sum,\n     * plus two.\n     */\n    int f(int x) {\n        int y = x + 2;\n        return y;\n    }\n";
        let r = reduce(SRC, range, &[patch.to_string()]).unwrap();
        assert_eq!(&SRC[r.range.clone()], "int y = x + 1;");
        assert_eq!(r.patches, vec!["int y = x + 2;".to_string()]);
        // The javadoc gained a line: every line after it is one further down.
        assert_eq!(r.remaps[0].apply(1), 1);
        assert_eq!(r.remaps[0].apply(5), 6);
        assert_eq!(r.remaps[0].apply(6), 7);
        assert_eq!(r.remaps[0].apply(10), 11);
        assert_eq!(r.reduced, 1);
    }

    #[test]
    fn reindented_lines_and_a_comment_are_left_out_of_a_body() {
        let range = location(SRC, "    int f", "    }\n");
        let patch = "    int f(int x) {\n      // keep y\n      int y = x + 1;\n      return y - 1;\n    }\n";
        let r = reduce(SRC, range, &[patch.to_string()]).unwrap();
        assert_eq!(&SRC[r.range.clone()], "return y;");
        assert_eq!(r.patches, vec!["return y - 1;".to_string()]);
        assert_eq!(r.remaps[0].apply(7), 8);
    }

    #[test]
    fn patches_with_no_edit_to_leave_out_are_not_narrowed() {
        let range = location(SRC, "    int f", "    }\n");
        for patch in [
            "    long f(int x) {\n        int y = x + 1;\n        return y;\n    }\n",
            "    int f(int x) {\n        int y = x + 1;\n        return -y;\n    }\n",
        ] {
            assert_eq!(reduce(SRC, range.clone(), &[patch.to_string()]), None);
        }
    }

    #[test]
    fn deprecated_tags_escapes_and_other_characters_keep_the_patch_whole() {
        let range = location(SRC, "    /**", "    }\n");
        for javadoc in [" * @deprecated", " * \\u002a/ int z;", " * Summe über x"] {
            let patch = format!(
                "    /**\n    {javadoc}\n     */\n    int f(int x) {{\n        int y = x + 2;\n        return y;\n    }}\n"
            );
            assert_eq!(reduce(SRC, range.clone(), &[patch]), None, "{javadoc}");
        }
    }

    #[test]
    fn a_line_commented_out_is_left_out_and_a_comment_that_hides_nothing_changes_nothing() {
        let range = location(SRC, "    int f", "    }\n");
        let patch = "    int f(int x) {\n        int y = x + 1;\n        // return y;\n        return 0;\n    }\n";
        let r = reduce(SRC, range.clone(), &[patch.to_string()]).unwrap();
        assert_eq!(r.patches, vec!["return 0;".to_string()]);
        assert_eq!(r.remaps[0].apply(7), 8);
        // `*/` moved past a copy of the header: the same tokens, nothing to weave.
        let range = location(SRC, "    /**", "    }\n");
        let patch = "    /**\n     * Sum.\n    int f(int x) {\n     */\n    int f(int x) {\n        int y = x + 1;\n        return y;\n    }\n";
        assert_eq!(reduce(SRC, range, &[patch.to_string()]), None);
    }

    #[test]
    fn several_patches_share_the_narrowed_location() {
        let range = location(SRC, "    /**", "    }\n");
        let a = "    /**\n     * Sum.\n     */\n    int f(int x) {\n        int y = x + 1;\n        return y + 1;\n    }\n";
        let b = "    /** Sum. */\n    int f(int x) {\n        int y = x * 1;\n        return y;\n    }\n";
        let r = reduce(SRC, range, &[a.to_string(), b.to_string()]).unwrap();
        assert_eq!(&SRC[r.range.clone()], "int y = x + 1;\n        return y;");
        assert_eq!(
            r.patches,
            vec![
                "int y = x + 1;\n        return y + 1;".to_string(),
                "int y = x * 1;\n        return y;".to_string()
            ]
        );
        assert!(r.remaps[0].is_identity());
        assert_eq!(r.remaps[1].apply(6), 4);
        assert_eq!(r.reduced, 1);
    }
}

mod helpers {
    use super::super::*;

    const SRC: &str = "class A {\n    int f(int x) {\n        return x + 1;\n    }\n\n    int g() { return 2; }\n}\n";

    #[test]
    fn a_helper_is_taken_apart_and_a_patch_that_cannot_be_is_left_whole() {
        let at = SRC.find("    int f").unwrap();
        let range = at..SRC.find("    }\n").unwrap() + 6;
        let helper = "    int f(int x) {\n        return twice(x) + 1;\n    }\n\n    private static int twice(int x) {\n        return 2 * x;\n    }\n";
        let plain = "    int f(int x) {\n        return x + 2;\n    }\n";
        let public = "    int f(int x) {\n        return thrice(x);\n    }\n    int thrice(int x) { return 3 * x; }\n";
        let r = reduce(SRC, range, &[helper, plain, public].map(String::from)).unwrap();
        assert_eq!(&SRC[r.range.clone()], "return x + 1;");
        assert_eq!(r.patches[0], "return twice(x) + 1;");
        assert_eq!(r.patches[1], "return x + 2;");
        assert_eq!(r.helpers[0].len(), 1);
        assert_eq!(r.helpers[0][0].name, "twice");
        assert_eq!(r.helpers[0][0].line, 6);
        assert!(r.helpers[0][0].text.starts_with("private static int twice"));
        // Lines after the helper move by its lines in the whole file.
        assert_eq!(r.remaps[0].apply(6), 10);
        assert!(r.remaps[1].is_identity());
        assert_eq!(r.left[0], None);
        assert_eq!(r.left[1], None);
        assert!(r.left[2].as_deref().unwrap().contains("not private"));
        assert_eq!(r.patches[2], "return x + 1;");
        assert_eq!(r.reduced, 1);
    }

    #[test]
    fn a_helper_another_patch_names_leaves_its_patch_whole() {
        let at = SRC.find("    int f").unwrap();
        let range = at..SRC.find("    }\n").unwrap() + 6;
        let a = "    int f(int x) {\n        return twice(x);\n    }\n    private int twice(int x) { return 2 * x; }\n";
        let b = "    int f(int x) {\n        return twice(x) + 1;\n    }\n    private int twice(int x) { return x + x; }\n";
        let c = "    int f(int x) {\n        return half(x);\n    }\n    private int half(int x) { return x / 2; }\n";
        let r = reduce(SRC, range, &[a, b, c].map(String::from)).unwrap();
        assert!(r.left[0].is_some() && r.left[1].is_some());
        assert_eq!(r.left[2], None);
        assert_eq!(r.patches[2], "return half(x);");
    }

    #[test]
    fn a_patch_changing_another_method_is_left_whole_and_the_rest_narrowed() {
        let range = 0..SRC.len();
        let body = SRC.replace("return x + 1;", "return x + 3;");
        let doc = SRC
            .replace("    int f(", "    // f\n    int f(")
            .replace("x + 1", "x - 1");
        let two = SRC
            .replace("return x + 1;", "return x + 2;")
            .replace("return 2;", "return 3;");
        let header = SRC.replace("int g()", "long g()");
        let only_g = SRC.replace("return 2;", "{\n        return 4;\n    }");
        let r = reduce(SRC, range, &[body, doc, two, header, only_g]).unwrap();
        assert_eq!(&SRC[r.range.clone()], "return x + 1;");
        assert_eq!(r.patches[0], "return x + 3;");
        assert_eq!(r.patches[1], "return x - 1;");
        assert_eq!(r.remaps[1].apply(3), 4);
        // Its change of `g`'s body is woven in `g` (`sites`), as the patched file has it.
        assert_eq!(r.left[2], None);
        assert_eq!(r.patches[2], "return x + 2;");
        let g = &r.branches[2];
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].text, "{ return 3; }");
        assert_eq!(&SRC[g[0].body.clone()], "{ return 2; }");
        assert_eq!(g[0].line, 6);
        // A header changed is no body's change (here a method `g` the original has not).
        assert!(r.left[3].is_some());
        // A patch changing `g` alone keeps the location's text and moves the lines after `g`.
        assert_eq!(r.left[4], None);
        assert_eq!(r.patches[4], "return x + 1;");
        assert_eq!(r.branches[4][0].text, "{ {\n        return 4;\n    } }");
        assert_eq!(r.remaps[4].apply(7), 9);
        assert!(r.branches[0].is_empty() && r.branches[1].is_empty());
    }

    #[test]
    fn a_body_declaring_a_class_is_no_branch() {
        let src = "class A {\n    int f(int x) {\n        return x + 1;\n    }\n\n    Object g() { return new Object() { }; }\n}\n";
        let both = src
            .replace("x + 1", "x + 2")
            .replace("return new Object() { };", "return null;");
        let f = src
            .replace("x + 1", "x + 3")
            .replace("    int f(", "    // c\n    int f(");
        let r = reduce(src, 0..src.len(), &[f, both]).unwrap();
        assert_eq!(r.left[0], None);
        let left = r.left[1].clone().unwrap_or_default();
        assert!(left.contains("declares a class"), "{left}");
    }
}

mod props {
    use super::super::*;
    use crate::weave::lexed::{tokens, tokens_but};
    use proptest::prelude::*;

    const SRC: &str = "class A {\n    /** Doc. */\n    int f(int x) {\n        int y = x + 1; // one\n        return y;\n    }\n\n    int g() { return 2; }\n}\n";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any patch texts (comments, braces, helpers, other scripts, escapes spliced into the
        /// method): no panic, and every patch not left whole reads as its whole patched file
        /// token for token once put back at the narrowed location.
        #[test]
        fn narrowing_never_panics_and_keeps_every_patch_s_tokens(
            cuts in prop::collection::vec((0usize..120, prop_oneof![
                Just("/* c */".to_string()),
                Just("// c\n".to_string()),
                Just("\n    ".to_string()),
                Just("}".to_string()),
                Just("{".to_string()),
                Just(" private int h(int v) { return v; }\n".to_string()),
                Just("é".to_string()),
                Just("\\u0041".to_string()),
                Just("x + 2".to_string()),
                Just("\"s\"".to_string()),
                Just("return 7; ".to_string()),
            ]), 1..4),
            patches in 1usize..4,
        ) {
            let start = SRC.find("    /**").unwrap();
            let end = SRC.rfind("}\n").unwrap();
            let original = &SRC[start..end];
            let texts: Vec<String> = (0..patches)
                .map(|k| {
                    // A token change every patch makes, and the pieces around it.
                    let mut t = original.replace("x + 1", &format!("x + {}", k + 2));
                    for (at, piece) in cuts.iter().skip(k % cuts.len()) {
                        let mut at = (*at).min(t.len());
                        while !t.is_char_boundary(at) {
                            at -= 1;
                        }
                        t.insert_str(at, piece);
                    }
                    t
                })
                .collect();
            if let Some(r) = reduce(SRC, start..end, &texts) {
                let mut p = crate::weave::parser();
                for (i, text) in r.patches.iter().enumerate() {
                    if r.left[i].is_some() {
                        continue;
                    }
                    // The location's text, and each other method's body as the patch has it.
                    let mut edits: Vec<(Range<usize>, &str)> = vec![(r.range.clone(), text)];
                    edits.extend(r.branches[i].iter().map(|b| (b.body.clone(), b.text.as_str())));
                    edits.sort_by_key(|(e, _)| std::cmp::Reverse(e.start));
                    let mut narrowed = SRC.to_string();
                    for (e, with) in edits {
                        narrowed.replace_range(e, with);
                    }
                    let full = format!("{}{}{}", &SRC[..start], texts[i], &SRC[end..]);
                    let hidden: Vec<Range<usize>> = Vec::new();
                    let a = tokens(&mut p, &narrowed).unwrap();
                    let helpers = &r.helpers[i];
                    let hidden: Vec<Range<usize>> = if helpers.is_empty() {
                        hidden
                    } else {
                        helpers
                            .iter()
                            .filter_map(|h| full.find(&h.text).map(|s| s..s + h.text.len()))
                            .collect()
                    };
                    let b = tokens_but(&mut p, &full, &hidden).unwrap();
                    prop_assert!(same_tokens(&a, &narrowed, &b, &full), "{text:?} vs {:?}", texts[i]);
                }
            }
        }
    }
}

mod insertions {
    use super::super::*;

    #[test]
    fn a_statement_inserted_before_a_comment_takes_the_next_statement_s_line() {
        let src = "class A {\n    int f(int[] a) {\n        // checks\n        check(a);\n        return a[0];\n    }\n}\n";
        let at = src.find("        // checks").unwrap();
        let range = at..at + "        // checks\n        check(a);\n        return a[0];\n".len();
        // Re-indented as a whole method written back is.
        let patch = "          if (a == null) {\n              return 0;\n          }\n          // checks\n          check(a);\n          return a[0];\n";
        let r = reduce(src, range, &[patch.to_string()]).unwrap();
        assert_eq!(&src[r.range.clone()], "// checks\n        check(a);");
        assert!(
            r.patches[0].trim_start().starts_with("if (a == null) {"),
            "{:?}",
            r.patches
        );
        assert!(r.patches[0].ends_with("check(a);"), "{:?}", r.patches);
        // The set's location only the comment line (its other lines left as the file has
        // them): nothing to leave out, but the location takes the statement's line.
        let range = at..at + "        // checks\n".len();
        let patch = "          if (a == null) {\n              return 0;\n          }\n          // checks\n";
        let r = reduce(src, range, &[patch.to_string()]).unwrap();
        assert_eq!(&src[r.range.clone()], "// checks\n        check(a);");
        assert_eq!(r.reduced, 0);
    }
}
