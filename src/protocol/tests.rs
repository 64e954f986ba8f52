//! The table is complete and both sides use it: the Java side dispatches every operation the Rust
//! side sends and declares what the Rust side names, and no value of a guarded entry is written
//! by hand in `src/` or `agent-java/src/` (only `protocol.toml` holds it).

use super::*;
use crate::model::TestId;
use crate::pool::protocol::Request;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The files below `dir` (relative to the package) whose name ends in `ext`, sorted.
fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(root().join(dir))
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().to_string_lossy().ends_with(ext))
        .map(|e| e.into_path())
        .collect();
    out.sort();
    out
}

fn entries(section: &str) -> impl Iterator<Item = &'static Entry> + '_ {
    ENTRIES.iter().filter(move |e| e.section == section)
}

fn str_value(e: &Entry) -> &'static str {
    match e.value {
        Value::Str(s) => s,
        other => panic!("{}.{} is not a string: {other:?}", e.section, e.key),
    }
}

/// The operations Bridge.java dispatches, by their values; panics on a case label that is not a
/// constant of `Protocol.Op`.
fn dispatched() -> BTreeSet<&'static str> {
    let bridge = read("agent-java/src/patchval/agent/Bridge.java");
    let mut ops = BTreeSet::new();
    for label in bridge.split("case ").skip(1) {
        let label = label.split(':').next().unwrap().trim();
        let e = ENTRIES
            .iter()
            .find(|e| e.section == "op" && e.java == Some(label))
            .unwrap_or_else(|| {
                panic!("Bridge.java dispatches `{label}`, which is not a Protocol.Op constant")
            });
        assert!(
            ops.insert(str_value(e)),
            "Bridge.java dispatches {label} twice"
        );
    }
    ops
}

#[test]
fn bridge_dispatches_every_operation_of_the_table() {
    let table: BTreeSet<&str> = entries("op").map(str_value).collect();
    assert_eq!(dispatched(), table);
}

#[test]
fn every_operation_the_rust_side_sends_is_dispatched() {
    let cp = vec!["/cp".to_string()];
    let test = TestId::parse("p.T#m").unwrap();
    let run = |warm, coverage: Option<&str>| Request::RunTest {
        classpath: cp.clone(),
        test: test.clone(),
        patch: select::NONE,
        warm,
        coverage: coverage.map(str::to_string),
    };
    let requests = [
        Request::ListTests {
            classpath: cp.clone(),
            classes: vec!["p.T".into()],
        },
        run(false, None),
        run(true, None),
        run(true, Some("/classes")),
        Request::RunTree {
            classpath: cp.clone(),
            test: test.clone(),
            patches: vec![0, 1],
            capture_budget_ms: 0,
            warm: false,
        },
        Request::Compile {
            options: vec![],
            files: vec!["A.java".into()],
            prunable: vec![],
            unused: vec![],
        },
        Request::ParseCheck {
            files: vec!["A.java".into()],
        },
    ];
    let dispatched = dispatched();
    // The worker's own calls at start-up, beside the requests.
    let mut sent = vec![
        op::INSTALL_EXIT_GUARD.to_string(),
        op::PRIME_STACK_TRACES.to_string(),
    ];
    sent.extend(requests.iter().map(|r| r.agent_args()[0].clone()));
    for op in sent {
        assert!(
            dispatched.contains(op.as_str()),
            "Bridge.java does not dispatch {op}"
        );
    }
}

#[test]
fn bridge_declares_the_method_the_worker_calls() {
    let bridge = read("agent-java/src/patchval/agent/Bridge.java");
    assert_eq!(
        bridge::SIGNATURE,
        "([Ljava/lang/String;)[Ljava/lang/String;"
    );
    let declaration = format!("public static String[] {}(String[] ", bridge::METHOD);
    assert!(
        bridge.contains(&declaration),
        "Bridge.java lacks {declaration}"
    );
}

#[test]
fn every_class_named_is_an_agent_class() {
    for e in entries("class") {
        let path = str_value(e).replace('.', "/") + ".java";
        let generated = JAVA_SOURCES.iter().any(|(p, _)| *p == path);
        assert!(
            generated || root().join("agent-java/src").join(&path).is_file(),
            "class.{}: no agent-java/src/{path}",
            e.key
        );
    }
}

#[test]
fn rt_calls_every_native() {
    let rt = read("agent-java/src/patchval/agent/Rt.java");
    let natives_class = class::RT_NATIVES.rsplit('.').next().unwrap();
    for n in natives::ALL {
        let call = format!("{natives_class}.{}(", n.name);
        assert!(rt.contains(&call), "Rt.java never calls {call}");
        assert!(
            JAVA_SOURCES
                .iter()
                .any(|(_, text)| text.contains(n.declaration)),
            "no generated {}",
            n.declaration
        );
    }
}

/// The `{{...}}` placeholders of a template that name a table entry (`section.key`).
fn protocol_placeholders(text: &str) -> Vec<&str> {
    text.split("{{")
        .skip(1)
        .filter_map(|s| s.split_once("}}").map(|(name, _)| name))
        .filter(|name| name.contains('.'))
        .collect()
}

#[test]
fn templates_name_entries_of_the_table_and_what_rt_declares() {
    let rt = read("agent-java/src/patchval/agent/Rt.java");
    let mut rt_calls = BTreeSet::new();
    for path in files("templates", ".java") {
        let text = std::fs::read_to_string(&path).unwrap();
        for name in protocol_placeholders(&text) {
            assert!(
                lookup(name).is_some(),
                "{}: {{{{{name}}}}} is not in protocol.toml",
                path.display()
            );
        }
        for call in text.split("{{class.rt}}.").skip(1) {
            rt_calls.insert(call.split('(').next().unwrap().to_string());
        }
        let filled = fill_values(&text);
        assert!(
            !filled.contains(&format!("{{{{{}", "class.")),
            "{}: unfilled",
            path.display()
        );
    }
    assert!(rt_calls.contains("choose"), "{rt_calls:?}");
    for m in rt_calls {
        let declared = [
            "int",
            "boolean",
            "void",
            "long",
            "String",
            "Throwable",
            "RuntimeException",
        ]
        .iter()
        .any(|ty| rt.contains(&format!("public static {ty} {m}(")));
        assert!(
            declared,
            "woven code calls Rt.{m}, which Rt.java does not declare"
        );
    }
}

#[test]
fn fill_values_fills_entries_and_keeps_other_placeholders() {
    let text = "{{jump.return}} {{site}} {{class.rt}}.choose {{no.such}}";
    assert_eq!(
        fill_values(text),
        format!(
            "{} {{{{site}}}} {}.choose {{{{no.such}}}}",
            jump::RETURN,
            class::RT
        )
    );
}

#[test]
fn table_values_are_well_formed() {
    let mut seen = BTreeSet::new();
    for e in ENTRIES {
        assert!(
            seen.insert((e.section, e.key)),
            "{}.{} twice",
            e.section,
            e.key
        );
        if let Value::Str(s) = e.value {
            assert!(
                !s.contains(line::SEPARATOR) && !s.contains('\n'),
                "{}.{}: a value holds the field separator or a newline",
                e.section,
                e.key
            );
        }
    }
    // The tags of one kind of line must tell the lines apart.
    for section in ["result", "compile", "coverage", "plain", "tree"] {
        let tags: Vec<&str> = entries(section)
            .filter(|e| e.guard != Guard::None)
            .filter_map(|e| match e.value {
                Value::Str(s) => Some(s),
                _ => None,
            })
            .collect();
        let distinct: BTreeSet<&&str> = tags.iter().collect();
        assert_eq!(distinct.len(), tags.len(), "{section}: {tags:?}");
    }
}

// ---- the literal guard --------------------------------------------------------------------------

/// The string literals of a Rust or Java source, unescaped, with their line numbers (comments and
/// char literals skipped).
fn literals(src: &str) -> Vec<(usize, String)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    line += usize::from(b[i] == b'\n');
                    i += 1;
                }
                i += 2;
            }
            b'\'' => {
                // A char literal ('x', '\t', '\u{0}') or a Rust lifetime ('a).
                if b.get(i + 1) == Some(&b'\\') {
                    i += 3;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                } else {
                    let len = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                    i += if b.get(i + 1 + len) == Some(&b'\'') {
                        len + 2
                    } else {
                        1
                    };
                }
            }
            b'r' if (i == 0 || !ident(b[i - 1]))
                && matches!(b.get(i + 1), Some(b'"') | Some(b'#')) =>
            {
                // A Rust raw string: r"…" or r#"…"#.
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let start = i + 2 + hashes;
                let close = format!("\"{}", "#".repeat(hashes));
                let end = src[start..].find(&close).map_or(b.len(), |k| start + k);
                out.push((line, src[start..end].to_string()));
                line += src[start..end].matches('\n').count();
                i = end + close.len();
            }
            b'"' => {
                let start_line = line;
                let mut s = String::new();
                let mut chars = src[i + 1..].char_indices();
                let mut end = b.len();
                while let Some((k, c)) = chars.next() {
                    match c {
                        '"' => {
                            end = i + 1 + k + 1;
                            break;
                        }
                        '\n' => {
                            line += 1;
                            s.push(c);
                        }
                        '\\' => match chars.next().map(|(_, e)| e) {
                            Some('t') => s.push('\t'),
                            Some('n') => s.push('\n'),
                            Some('r') => s.push('\r'),
                            Some('0') => s.push('\0'),
                            Some('\n') => {
                                // A Rust string continued on the next line.
                                line += 1;
                                let rest = chars.as_str();
                                let skip = rest.len() - rest.trim_start().len();
                                for _ in 0..rest[..skip].chars().count() {
                                    if let Some((_, '\n')) = chars.next() {
                                        line += 1;
                                    }
                                }
                            }
                            Some(e) => s.push(e),
                            None => {}
                        },
                        c => s.push(c),
                    }
                }
                out.push((start_line, s));
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// Where a guarded value is written as a literal: `file:line: "literal" is section.key`.
fn literal_uses(rel: &str, src: &str) -> Vec<String> {
    let sep = line::SEPARATOR;
    let mut found = Vec::new();
    for (n, lit) in literals(src) {
        for e in ENTRIES {
            let Value::Str(v) = e.value else { continue };
            let tagged = lit
                .strip_prefix(v)
                .is_some_and(|rest| rest.starts_with(sep));
            let hit = match e.guard {
                Guard::Exact => lit == v || tagged,
                Guard::Field => tagged,
                Guard::None => false,
            };
            if hit {
                found.push(format!(
                    "{rel}:{n}: {lit:?} is protocol.toml's {}.{} (write {})",
                    e.section,
                    e.key,
                    e.java.filter(|_| rel.ends_with(".java")).unwrap_or(e.rust)
                ));
            }
        }
    }
    found
}

#[test]
fn no_guarded_value_is_written_by_hand() {
    let mut found = Vec::new();
    for path in files("src", ".rs")
        .into_iter()
        .chain(files("agent-java/src", ".java"))
    {
        let rel = path.strip_prefix(root()).unwrap().display().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        found.extend(literal_uses(&rel, &src));
    }
    assert!(
        found.is_empty(),
        "values of protocol.toml written by hand (use the generated constants):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_guard_sees_literals_and_only_them() {
    let src = concat!(
        "let a = \"RE",
        "SULT\\tx\"; // \"PA",
        "SS\"\n",
        "/* \"DO",
        "NE\" */ let c = '\"'; let d = 'a; let e = r#\"WA",
        "RM\"#;\n",
        "String f = \"list",
        "Tests\"; String g = \"cov",
        "\\t1\"; String h = \"cov",
        "\";\n",
    );
    let found = literal_uses("x.java", src);
    let keys: Vec<&str> = found
        .iter()
        .map(|f| f.split(" is protocol.toml's ").nth(1).unwrap())
        .map(|f| f.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "plain.result",
            "plain.warm",
            "op.list_tests",
            "coverage.covered"
        ],
        "{found:#?}"
    );
    assert!(found[0].starts_with("x.java:1: "), "{}", found[0]);
    assert!(found[2].starts_with("x.java:3: "), "{}", found[2]);
}
