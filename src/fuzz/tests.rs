//! The fuzzer's generation on small sources: locations, scope facts and the operators' patches.

use super::declared;
use super::locate::{self, SourceFile};
use super::mutate;
use super::rng::Rng;
use super::spot::Mutant;

const LIMITS: &str = r#"package p;

public class Limits {
    static int max;
    static Integer last;
    static String name = "";
    private int count;
    private int step = 1 + 1;

    static {
        last = 0;
    }

    static void setMax(int max) {
        Limits.max = max - 1;
    }

    void add(int[] xs) {
        for (int i = 0; i < xs.length; i++) {
            count += xs[i];
        }
    }

    static boolean remember(Integer v, String s) {
        last = v;
        name = s;
        return v == last;
    }

    int factor() {
        return 2;
    }

    static int twice(int x) {
        int y = x * 2;
        return y;
    }
}
"#;

const ERROR: &str = r#"package p;

public class ParseError extends RuntimeException {
    public final int pos;

    public ParseError(int pos) {
        super("parse error");
        this.pos = pos;
    }
}
"#;

fn files() -> Vec<SourceFile> {
    vec![
        locate::parse_source("src/p/Limits.java", LIMITS.into(), true).unwrap(),
        locate::parse_source("src/p/ParseError.java", ERROR.into(), false).unwrap(),
    ]
}

/// All mutants at the statement `stmt` of Limits.java, and a sample of `max`.
fn at(stmt: &str, seed: u64, max: usize) -> (Vec<Mutant>, Vec<Mutant>) {
    let files = files();
    let exceptions = declared::exceptions(&files);
    let start = LIMITS.find(stmt).unwrap();
    let spot = locate::spot(&files[0], &(start..start + stmt.len()), &exceptions).unwrap();
    let mut all = mutate::classic(&spot);
    all.extend(super::hazard::hazards(&spot));
    let sample = mutate::generate(&spot, &mut Rng::new(seed), max);
    (all, sample)
}

fn texts(ms: &[Mutant], op: &str) -> Vec<String> {
    ms.iter()
        .filter(|m| m.op == op)
        .map(|m| m.text.clone())
        .collect()
}

#[test]
fn candidates_are_method_statements_weighted_to_loops() {
    let files = files();
    let cands = locate::candidates(&files);
    let text = |c: &locate::Candidate| &files[c.file].text[c.range.clone()];
    let body = cands.iter().find(|c| text(c) == "count += xs[i];").unwrap();
    assert!(body.in_loop);
    let set = cands
        .iter()
        .find(|c| text(c) == "Limits.max = max - 1;")
        .unwrap();
    assert!(!set.in_loop);
    assert!(body.weight > set.weight);
    // The constructor's super(...) call is not a location; declarations of fields with an
    // initialiser are, and a field spot mutates its initialiser.
    assert!(cands.iter().all(|c| !text(c).starts_with("super(")));
    assert!(cands
        .iter()
        .any(|c| text(c) == "static String name = \"\";"));
    assert!(cands
        .iter()
        .all(|c| !text(c).starts_with("private int count")));
    let (all, _) = at("private int step = 1 + 1;", 1, 10);
    let spot_files = self::files();
    let start = LIMITS.find("private int step").unwrap();
    let range = start..start + "private int step = 1 + 1;".len();
    let spot = locate::spot(&spot_files[0], &range, &[]).unwrap();
    assert!(!spot.is_static);
    let (value, kept) = locate::initialiser_location(&spot, &all).unwrap();
    assert_eq!(&LIMITS[value], "1 + 1");
    assert!(kept.iter().any(|m| m.text == "1 - 1"), "{kept:?}");
    // A statement of a static initialiser block stands as in a static method.
    assert!(cands.iter().any(|c| text(c) == "last = 0;"));
    let start = LIMITS.find("last = 0;").unwrap();
    let spot = locate::spot(&spot_files[0], &(start..start + 9), &[]).unwrap();
    assert!(spot.is_static);
    let ex = declared::exceptions(&files);
    assert_eq!(ex.len(), 1);
    assert_eq!(ex[0].name, "p.ParseError");
    assert_eq!(ex[0].ctors, vec![vec!["int".to_string()]]);
}

#[test]
fn statements_passing_arguments_to_a_call_weigh_double() {
    let src = "package p;\nclass Meter {\n    int n;\n    void note(int v) { n += v; }\n    void check(int v) {\n        n = v + 1;\n        note(v + 1);\n        if (v > 3) {\n            note(v);\n        }\n        if (v > 4) {\n            n = v;\n        }\n    }\n}\n";
    let files = vec![locate::parse_source("src/p/Meter.java", src.into(), true).unwrap()];
    let cands = locate::candidates(&files);
    let weight = |t: &str| {
        cands
            .iter()
            .find(|c| &src[c.range.clone()] == t)
            .unwrap_or_else(|| panic!("{t}"))
            .weight
    };
    assert_eq!(weight("note(v + 1);"), 2.0 * weight("n = v + 1;"));
    let guarded = "if (v > 3) {\n            note(v);\n        }";
    let plain_if = "if (v > 4) {\n            n = v;\n        }";
    assert_eq!(weight(guarded), 2.0 * weight(plain_if));
}

#[test]
fn shadowed_fields_are_written_through_the_class_name() {
    let (all, _) = at("Limits.max = max - 1;", 1, 10);
    let writes = texts(&all, "field-write");
    assert!(
        writes.contains(&"Limits.max = max; Limits.max = max - 1;".to_string()),
        "{writes:?}"
    );
    assert!(texts(&all, "arithmetic").contains(&"Limits.max = max + 1;".to_string()));
    assert!(texts(&all, "constant").contains(&"Limits.max = max - 2;".to_string()));
    assert!(all.iter().any(|m| m.text.is_empty() && m.op == "delete"));
    // Thrown exceptions of the project vary by their arguments.
    let throws = texts(&all, "throw");
    let parse: Vec<&String> = throws
        .iter()
        .filter(|t| t.starts_with("throw new p.ParseError("))
        .collect();
    assert!(parse.len() >= 2, "{throws:?}");
}

#[test]
fn slips_drop_the_semicolon_and_push_a_literal_past_int() {
    let (all, _) = at("Limits.max = max - 1;", 1, 10);
    assert_eq!(
        texts(&all, "slip"),
        [
            "Limits.max = max - 1",
            "Limits.max = max - 2147483648;",
            "Limits.max = max - (-2147483648);",
            "Limits.max = max - 2147483647;",
        ]
    );
}

#[test]
fn identity_and_call_operators() {
    let (all, _) = at("last = v;", 1, 10);
    let id = texts(&all, "identity");
    assert!(
        id.contains(&"last = Integer.valueOf(v.intValue());".to_string()),
        "{id:?}"
    );
    let (all, _) = at("name = s;", 1, 10);
    let id = texts(&all, "identity");
    assert!(id.contains(&"name = (s + \"\");".to_string()), "{id:?}");
    assert!(id.contains(&"name = new String(s);".to_string()), "{id:?}");
    // An instance method's constant replaced by a call of the class.
    let (all, _) = at("count += xs[i];", 1, 10);
    assert!(texts(&all, "jump").contains(&"continue;".to_string()));
    assert!(texts(&all, "jump").contains(&"break;".to_string()));
    assert!(
        texts(&all, "field-write").contains(&"this.count += 1; count += xs[i];".to_string()),
        "{:?}",
        texts(&all, "field-write")
    );
    let (all, _) = at("return 2;", 1, 10);
    assert!(texts(&all, "call").contains(&"return factor();".to_string()));
}

#[test]
fn locals_are_written_after_the_statement() {
    let writes = |location: &str| texts(&at(location, 1, 10).0, "dead-write");
    // The loop variable (read by the header) and the parameter `max` (read by nothing after).
    for (location, written) in [
        ("count += xs[i];", "count += xs[i]; i += 1;"),
        ("Limits.max = max - 1;", "Limits.max = max - 1; max = 0;"),
    ] {
        let got = writes(location);
        assert!(got.contains(&written.to_string()), "{got:?}");
    }
    assert!(writes("return 2;").is_empty());
    // After a declaration (woven on the split declaration), a parameter.
    let got = writes("int y = x * 2;");
    assert!(
        got.contains(&"int y = x * 2; x = 0;".to_string()),
        "{got:?}"
    );
}

#[test]
fn sample_is_distinct_bounded_mixed_and_seeded() {
    let (all, a) = at("count += xs[i];", 5, 12);
    let (_, b) = at("count += xs[i];", 5, 12);
    let (_, c) = at("count += xs[i];", 6, 12);
    assert_eq!(a, b, "same seed, same patches");
    assert_ne!(a, c, "another seed, other patches");
    assert_eq!(a.len(), 12);
    let distinct: std::collections::BTreeSet<&str> = a.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(distinct.len(), a.len());
    assert!(!distinct.contains("count += xs[i];"));
    let ops: std::collections::BTreeSet<&str> = a.iter().map(|m| m.op).collect();
    assert!(ops.len() >= 6, "{ops:?}");
    assert!(all.len() > 12);
}

#[test]
fn a_disagreement_plain_does_not_repeat_is_plains_instability() {
    use super::compare::Disagreement;
    use crate::model::{Outcome, Phase, Verdict};
    let o = |v| Outcome::new(v, Phase::Plain);
    let d = |vs: [Verdict; 3]| Disagreement {
        set: "s.json".into(),
        place: "A.java:1".into(),
        patch: 0,
        text: String::new(),
        op: "call".into(),
        outcomes: vs.into_iter().map(o).collect(),
        reproducer: None,
        timing: false,
        plain_unstable: None,
    };
    use Verdict::{Plausible as S, TestFailure as F};
    let judged = |first: [Verdict; 3], again: [Verdict; 3]| {
        let mut x = d(first);
        x.judge_again(&again.map(o));
        x.plain_unstable
    };
    // Plain's F became s: both fast techniques said s.
    let why = judged([S, S, F], [S, S, S]).expect("plain's instability");
    assert!(why.contains("Fsss"), "{why}");
    // Plain repeats its F: the disagreement counts.
    assert_eq!(judged([S, S, F], [F, F, F]), None);
    // The default said F as plain did, --no-dedup s, plain then s: instability too.
    assert!(judged([F, S, F], [F, S, F]).is_some());
}

#[test]
fn only_a_verdict_plain_itself_gave_is_timing_borderline() {
    use super::compare::Disagreement;
    use crate::model::{Outcome, Phase, Verdict};
    let o = |v| Outcome::new(v, Phase::Execute);
    let d = |vs: [Verdict; 3]| Disagreement {
        set: "s.json".into(),
        place: "A.java:1".into(),
        patch: 0,
        text: String::new(),
        op: "call".into(),
        outcomes: vs.into_iter().map(o).collect(),
        reproducer: None,
        timing: false,
        plain_unstable: None,
    };
    use Verdict::{CompileError as C, Plausible as S, TestFailure as F, Timeout as T};
    let settled = |first: [Verdict; 3], again: [Verdict; 3]| {
        let mut x = d(first);
        x.settle(&again.map(o));
        x.timing
    };
    assert!(settled([T, T, F], [T, T, T]), "plain's F became a T");
    assert!(
        settled([T, F, F], [F, F, F]),
        "the default's T did not repeat"
    );
    assert!(
        !settled([T, T, F], [T, T, F]),
        "it repeats: a real disagreement"
    );
    assert!(
        !settled([S, S, F], [F, F, F]),
        "no timeout: kept, however it ends"
    );
    assert!(
        !settled([T, T, S], [T, S, S]),
        "still disagrees, plain as before"
    );
    assert!(
        settled([F, T, F], [F, T, T]),
        "plain itself went from F to T"
    );
    // A recursion near the end of the stack (soundness seed 117: a logging call at each level
    // of `Depth.down` on a 256 KB stack): plain itself gives `s` or `F` by how soon the JIT
    // compiles the method.
    assert!(
        settled([F, F, S], [F, F, F]),
        "plain itself went from s to F, the fast techniques' verdict"
    );
    assert!(
        settled([S, F, F], [S, F, S]),
        "plain gave both verdicts the fast techniques gave"
    );
    assert!(
        !settled([C, F, F], [C, F, S]),
        "plain changed, but never gave the default's C"
    );
}

#[test]
fn a_declaration_can_be_patched_in_its_initialiser() {
    let src = "package p;\n\npublic class Mid {\n    static int mid(int lo, int hi) {\n        int m = (lo + hi) / 2;\n        return m;\n    }\n}\n";
    let files = vec![locate::parse_source("src/p/Mid.java", src.into(), true).unwrap()];
    let exceptions = declared::exceptions(&files);
    let stmt = "int m = (lo + hi) / 2;";
    let start = src.find(stmt).unwrap();
    let spot = locate::spot(&files[0], &(start..start + stmt.len()), &exceptions).unwrap();
    let all = mutate::classic(&spot);
    let (range, kept) = locate::initialiser_location(&spot, &all).expect("initialiser patches");
    assert_eq!(&src[range], "(lo + hi) / 2");
    assert!(kept.len() >= 2, "{kept:?}");
    assert!(kept.iter().all(|m| !m.text.contains("int m")), "{kept:?}");
    assert!(kept.iter().any(|m| m.text == "(lo - hi) / 2"), "{kept:?}");
}

#[test]
fn statements_of_an_instance_initialiser_block_are_locations() {
    const BLOCKS: &str = r#"package p;

public class Tally {
    private int count;

    {
        count = 2;
    }

    Object make() {
        return new Object() {
            int seen;
            {
                seen = 1;
            }
        };
    }
}
"#;
    let files = vec![locate::parse_source("src/p/Tally.java", BLOCKS.into(), true).unwrap()];
    let cands = locate::candidates(&files);
    let text = |c: &locate::Candidate| &BLOCKS[c.range.clone()];
    // The named class's block stands as a constructor: not static, nothing to return.
    assert!(cands.iter().any(|c| text(c) == "count = 2;"));
    let start = BLOCKS.find("count = 2;").unwrap();
    let spot = locate::spot(&files[0], &(start..start + 10), &[]).unwrap();
    assert!(!spot.is_static);
    assert_eq!(spot.return_type, "void");
    assert_eq!(spot.class_name, "Tally");
    // An anonymous class's block is not a location (its class is not the one around it).
    assert!(cands.iter().all(|c| text(c) != "seen = 1;"));
}

#[test]
fn stack_operators_check_the_frame_the_code_around_the_statement_runs_in() {
    let files = files();
    let spot_at = |stmt: &str| {
        let start = LIMITS.find(stmt).unwrap();
        locate::spot(&files[0], &(start..start + stmt.len()), &[]).unwrap()
    };
    let reads = super::stackread::stack_reads(&spot_at("count += xs[i];"));
    assert_eq!(
        reads.iter().map(|m| m.op).collect::<Vec<_>>(),
        ["stack-read", "stack-read", "stack-kept", "stack-log"]
    );
    for m in &reads {
        assert!(m.text.contains("\"add\".equals("), "{}", m.text);
        assert!(m.text.ends_with("count += xs[i];"), "{}", m.text);
    }
    let static_block = super::stackread::stack_reads(&spot_at("last = 0;"));
    assert!(static_block[0].text.contains("\"<clinit>\".equals("));
    // A field's initialiser is no statement to put a check before.
    assert!(super::stackread::stack_reads(&spot_at("private int step = 1 + 1;")).is_empty());
}

#[test]
fn a_patch_may_declare_a_local_of_its_own() {
    let (all, _) = at("count += xs[i];", 1, 10);
    let decls = texts(&all, "declare");
    assert!(
        decls.contains(&"int pvLocal = i; count += xs[i];".to_string())
            && decls.contains(&"int pvLocal = i; if (pvLocal > 0) { count += xs[i]; }".to_string()),
        "{decls:?}"
    );
}

const METER: &str = r#"package p;

public class Meter {
    private final StringBuilder log = new StringBuilder();

    void read(int raw, int scale) {
        note(raw * 2 + scale, "r");
    }

    void note(int v, String tag) {
        log.append(tag).append(v);
    }
}
"#;

#[test]
fn a_hole_burst_rewrites_one_numeric_argument_whole() {
    let files = vec![locate::parse_source("src/p/Meter.java", METER.into(), true).unwrap()];
    let exceptions = declared::exceptions(&files);
    let stmt = "note(raw * 2 + scale, \"r\");";
    let start = METER.find(stmt).unwrap();
    let spot = locate::spot(&files[0], &(start..start + stmt.len()), &exceptions).unwrap();
    let burst = super::hazard::hole_burst(&spot, |n| {
        assert_eq!(n, 1, "one numeric argument");
        0
    });
    let got: Vec<&str> = burst.iter().map(|m| m.text.as_str()).collect();
    let e = "raw * 2 + scale";
    assert_eq!(
        got,
        [
            format!("note(({e}) * 2 - ({e}), \"r\");"),
            format!("note(({e}) + 1, \"r\");"),
            format!("note(-({e}), \"r\");"),
            format!("note(({e}) + 0L, \"r\");"),
            format!("note(({e}) / 0, \"r\");"),
        ]
    );
    // Some seeds start the location's patches with the whole family, others do not.
    let starts = (0..12)
        .filter(|&seed| {
            let g = mutate::generate(&spot, &mut Rng::new(seed), 16);
            g.len() >= 5 && g[..5] == burst[..]
        })
        .count();
    assert!(starts > 0 && starts < 12, "{starts} of 12 seeds");
}

#[test]
fn a_hole_burst_rewrites_an_if_condition_whole() {
    let src = METER.replace(
        "void note(int v, String tag) {",
        "void check(int v, int limit) {\n        if (v > limit) {\n            note(v, \"over\");\n        }\n    }\n\n    void note(int v, String tag) {",
    );
    let files = vec![locate::parse_source("src/p/Meter.java", src.clone(), true).unwrap()];
    let exceptions = declared::exceptions(&files);
    let stmt = "if (v > limit) {\n            note(v, \"over\");\n        }";
    let start = src.find(stmt).unwrap();
    let spot = locate::spot(&files[0], &(start..start + stmt.len()), &exceptions).unwrap();
    // The condition first, then `note`'s numeric argument `v` (in the branch).
    let burst = super::hazard::hole_burst(&spot, |n| {
        assert_eq!(n, 2, "the condition and one numeric argument");
        0
    });
    let body = " {\n            note(v, \"over\");\n        }";
    let got: Vec<String> = burst.iter().map(|m| m.text.clone()).collect();
    let want: Vec<String> = [
        "!(!(v > limit))",
        "(v > limit) == true",
        "!(v > limit)",
        "(v > limit) != (v > limit)",
        "(v > limit) && 1 / 0 == 0",
    ]
    .iter()
    .map(|c| format!("if ({c}){body}"))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn completion_patches_drop_breaks_make_loops_endless_and_wrap_the_statement() {
    const STEPS: &str = r#"package p;

public class Steps {
    static int filled;

    static {
        while (true) {
            filled++;
            if (filled == 4) break;
        }
    }

    static int sum(int[] xs) {
        int t = 0;
        for (int i = 0; i < xs.length; i++) {
            switch (xs[i]) {
                case 0:
                    break;
                default:
                    t += xs[i];
            }
            xs[i] = t;
        }
        return t;
    }
}
"#;
    let files = [locate::parse_source("src/p/Steps.java", STEPS.into(), true).unwrap()];
    let spot_at = |stmt: &str| {
        let start = STEPS.find(stmt).unwrap();
        let spot = locate::spot(&files[0], &(start..start + stmt.len()), &[]).unwrap();
        mutate::classic(&spot)
    };
    // The `break` of an initialiser's endless loop: dropped, made a `continue`, or captured by a
    // loop around the statement; each leaves a block javac rejects.
    let brk = texts(&spot_at("if (filled == 4) break;"), "completion");
    for want in [
        "if (filled == 4) ;",
        "if (filled == 4) continue;",
        "do { if (filled == 4) break; } while (false);",
        "while (true) { if (filled == 4) break; break; }",
    ] {
        assert!(brk.contains(&want.to_string()), "{want} not in {brk:?}");
    }
    // A loop's condition made constant; a switch's `break` in a loop may become a `continue`.
    let whole = STEPS.find("for (int i").unwrap();
    let end = STEPS[whole..].find("\n        }\n").unwrap() + whole + 10;
    let lp = texts(&spot_at(&STEPS[whole..end]), "completion");
    assert!(
        lp.iter()
            .any(|t| t.starts_with("for (int i = 0; true; i++)")),
        "{lp:?}"
    );
    assert!(
        lp.iter()
            .any(|t| t.contains("case 0:\n                    continue;")),
        "{lp:?}"
    );
    // A declaration is not wrapped (its name would leave scope).
    assert!(texts(&spot_at("int t = 0;"), "completion").is_empty());
}

#[test]
fn paired_patches_change_one_statement_or_both_and_keep_the_text_between() {
    let text = "int f() { a(); int k = 1; b(); }";
    let at = |s: &str| text.find(s).unwrap()..text.find(s).unwrap() + s.len();
    let (first, second) = (at("a();"), at("b();"));
    let m = |t: &str, op| Mutant { text: t.into(), op };
    let a = [m("a(1);", "call"), m("a();", "same"), m("x();", "call")];
    let b = [m("b(2);", "call"), m("b();", "same")];
    for seed in 0..20 {
        let mut rng = Rng::new(seed);
        let out = mutate::pair(text, &first, &a, &second, &b, &mut rng);
        assert!(!out.is_empty() && out.len() <= 3, "{}", out.len());
        for p in &out {
            let (x, y) = p.text.split_once(" int k = 1; ").expect("the text between");
            assert!(["a(1);", "a();", "x();"].contains(&x), "{}", p.text);
            assert!(["b(2);", "b();"].contains(&y), "{}", p.text);
            assert_ne!(p.text, "a(); int k = 1; b();", "the original is no patch");
            assert_eq!(
                p.op == "pair",
                x != "a();" && y != "b();",
                "{} {}",
                p.op,
                p.text
            );
        }
    }
}
