//! Build-script part: reads `protocol.toml` (its header says the format) and writes both sides of
//! the Rust–Java protocol from it: the Rust module `OUT_DIR/protocol.rs` (included by
//! `src/protocol.rs`) and the Java classes `Protocol` and `RtNatives`, compiled into the agent.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The table file, relative to the package root.
pub const TABLE: &str = "protocol.toml";
/// The Java class of the constants (the natives' class is named in the table: `class.rt_natives`).
const PROTOCOL_CLASS: &str = "patchval.agent.Protocol";

enum Value {
    Str(String),
    Char(char),
    Int(i64),
}

struct Entry {
    key: String,
    doc: String,
    value: Value,
    /// "exact", "field" or "none" (see the table's header).
    guard: &'static str,
    /// "", "str", "class" or "sig".
    jni: String,
}

struct Section {
    name: String,
    doc: String,
    java: bool,
    entries: Vec<Entry>,
}

struct Native {
    name: String,
    doc: String,
    returns: String,
    params: Vec<(String, String)>,
}

struct Table {
    sections: Vec<Section>,
    natives_doc: String,
    natives: Vec<Native>,
}

/// The files written, for javac: the generated Java sources.
pub struct Generated {
    pub java: Vec<PathBuf>,
}

/// Reads the table and writes the Rust module into `out` and the Java sources below `java_dir`.
pub fn generate(out: &Path, java_dir: &Path) -> Generated {
    let text = std::fs::read_to_string(TABLE).unwrap_or_else(|e| panic!("{TABLE}: {e}"));
    let table = parse(&text).unwrap_or_else(|e| panic!("{TABLE}: {e}"));
    let natives_class = table
        .find("class", "rt_natives")
        .and_then(|e| match &e.value {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{TABLE}: no string class.rt_natives"));

    std::fs::write(out.join("protocol.rs"), rust(&table)).unwrap();
    let mut java = Vec::new();
    for (class, source) in [
        (PROTOCOL_CLASS.to_string(), java_constants(&table)),
        (natives_class.clone(), java_natives(&table, &natives_class)),
    ] {
        let path = java_dir.join(class.replace('.', "/") + ".java");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, source).unwrap();
        java.push(path);
    }
    Generated { java }
}

impl Table {
    fn find(&self, section: &str, key: &str) -> Option<&Entry> {
        self.sections
            .iter()
            .find(|s| s.name == section)?
            .entries
            .iter()
            .find(|e| e.key == key)
    }
}

// ---- reading ------------------------------------------------------------------------------------

fn parse(text: &str) -> Result<Table, String> {
    let root: toml::Table = text.parse().map_err(|e| format!("{e}"))?;
    let mut table = Table {
        sections: Vec::new(),
        natives_doc: String::new(),
        natives: Vec::new(),
    };
    for (name, section) in &root {
        let section = section
            .as_table()
            .ok_or_else(|| format!("[{name}] is not a table"))?;
        let doc = string(section, "doc").ok_or_else(|| format!("[{name}] has no doc"))?;
        check_ident(name)?;
        if name == "natives" {
            table.natives_doc = doc;
            for (key, entry) in section.iter().filter(|(k, _)| *k != "doc") {
                table.natives.push(native(name, key, entry)?);
            }
            continue;
        }
        let java = match section.get("java") {
            None => true,
            Some(v) => v
                .as_bool()
                .ok_or_else(|| format!("[{name}] java is not a boolean"))?,
        };
        let mut entries = Vec::new();
        for (key, entry) in section
            .iter()
            .filter(|(k, _)| !["doc", "java"].contains(&k.as_str()))
        {
            entries.push(entry_of(name, key, entry)?);
        }
        table.sections.push(Section {
            name: name.clone(),
            doc,
            java,
            entries,
        });
    }
    Ok(table)
}

fn string(t: &toml::Table, key: &str) -> Option<String> {
    t.get(key).and_then(|v| v.as_str()).map(str::to_string)
}

fn check_ident(name: &str) -> Result<(), String> {
    let ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then_some(())
        .ok_or_else(|| format!("`{name}` is not a name (letters, digits, `_`)"))
}

fn entry_of(section: &str, key: &str, v: &toml::Value) -> Result<Entry, String> {
    let at = format!("{section}.{key}");
    check_ident(key)?;
    let t = v
        .as_table()
        .ok_or_else(|| format!("{at} is not a table (value, doc)"))?;
    for k in t.keys() {
        if !["value", "doc", "type", "guard", "jni"].contains(&k.as_str()) {
            return Err(format!("{at}: unknown key `{k}`"));
        }
    }
    let doc = string(t, "doc").ok_or_else(|| format!("{at} has no doc"))?;
    let value = match (t.get("value"), string(t, "type").as_deref()) {
        (Some(toml::Value::String(s)), None) => Value::Str(s.clone()),
        (Some(toml::Value::String(s)), Some("char")) => {
            let mut cs = s.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Value::Char(c),
                _ => return Err(format!("{at}: a char is one character")),
            }
        }
        (Some(toml::Value::Integer(i)), None) => {
            i32::try_from(*i).map_err(|_| format!("{at}: not an i32"))?;
            Value::Int(*i)
        }
        _ => {
            return Err(format!(
                "{at}: value must be a string or an integer (type: char)"
            ))
        }
    };
    let guard = match (string(t, "guard").as_deref(), &value) {
        (None, Value::Str(s)) if s.chars().count() >= 2 => "exact",
        (None, _) => "none",
        (Some("exact"), Value::Str(_)) => "exact",
        (Some("field"), Value::Str(_)) => "field",
        (Some("none"), _) => "none",
        (Some(g), _) => return Err(format!("{at}: guard `{g}` (exact, field, none; strings)")),
    };
    let jni = string(t, "jni").unwrap_or_default();
    if !["", "str", "class", "sig"].contains(&jni.as_str())
        || (!jni.is_empty() && !matches!(value, Value::Str(_)))
    {
        return Err(format!("{at}: jni `{jni}` (str, class, sig; strings)"));
    }
    Ok(Entry {
        key: key.to_string(),
        doc,
        value,
        guard,
        jni,
    })
}

fn native(section: &str, key: &str, v: &toml::Value) -> Result<Native, String> {
    let at = format!("{section}.{key}");
    check_ident(key)?;
    let t = v.as_table().ok_or_else(|| format!("{at} is not a table"))?;
    let doc = string(t, "doc").ok_or_else(|| format!("{at} has no doc"))?;
    let returns = string(t, "returns").ok_or_else(|| format!("{at} has no returns"))?;
    descriptor_of(&returns).ok_or_else(|| format!("{at}: type {returns}"))?;
    let mut params = Vec::new();
    for p in t
        .get("params")
        .and_then(|p| p.as_array())
        .into_iter()
        .flatten()
    {
        let p = p
            .as_str()
            .ok_or_else(|| format!("{at}: a param is `type name`"))?;
        let (ty, name) = p
            .split_once(' ')
            .ok_or_else(|| format!("{at}: param `{p}` is not `type name`"))?;
        if ty == "void" || descriptor_of(ty).is_none() {
            return Err(format!("{at}: param type {ty}"));
        }
        params.push((ty.to_string(), name.to_string()));
    }
    Ok(Native {
        name: key.to_string(),
        doc,
        returns,
        params,
    })
}

/// The JNI descriptor of a Java type the natives may use.
fn descriptor_of(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "int" => "I",
        "long" => "J",
        "boolean" => "Z",
        "void" => "V",
        "String" => "Ljava/lang/String;",
        _ => return None,
    })
}

impl Native {
    fn descriptor(&self) -> String {
        let params: String = self
            .params
            .iter()
            .map(|(t, _)| descriptor_of(t).unwrap())
            .collect();
        format!("({params}){}", descriptor_of(&self.returns).unwrap())
    }

    fn declaration(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        format!(
            "static native {} {}({});",
            self.returns,
            self.name,
            params.join(", ")
        )
    }
}

// ---- names and text -----------------------------------------------------------------------------

/// `list_tests` / `patchAt` → `LIST_TESTS` / `PATCH_AT`.
fn upper_snake(key: &str) -> String {
    let mut s = String::new();
    for (i, c) in key.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(c.to_ascii_uppercase());
    }
    s
}

/// `warm_check` → `WarmCheck`.
fn camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// A Java string or char literal's body.
fn java_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\'' => out.push_str("\\'"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\000"),
            c if (' '..='~').contains(&c) => out.push(c),
            c => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out
}

fn rust_doc(out: &mut String, indent: &str, doc: &str) {
    for line in doc.lines() {
        let _ = writeln!(out, "{indent}/// {line}");
    }
}

/// Javadoc from the table's text: `code` becomes {@code code}.
fn java_doc(out: &mut String, indent: &str, doc: &str) {
    let mut text = String::new();
    for (i, part) in doc.replace("*/", "*&#47;").split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(text, "{{@code {part}}}");
        } else {
            text.push_str(part);
        }
    }
    let _ = writeln!(out, "{indent}/** {text} */");
}

// ---- Rust ---------------------------------------------------------------------------------------

fn rust(table: &Table) -> String {
    let mut out = String::from("// Generated by build.rs from protocol.toml: do not edit.\n\n");
    let mut all = Vec::new();
    for s in &table.sections {
        rust_doc(&mut out, "", &s.doc);
        let _ = writeln!(out, "pub mod {} {{", s.name);
        for e in &s.entries {
            let name = upper_snake(&e.key);
            rust_doc(&mut out, "    ", &e.doc);
            let _ = match &e.value {
                Value::Str(v) => writeln!(out, "    pub const {name}: &str = {v:?};"),
                Value::Char(c) => writeln!(out, "    pub const {name}: char = {c:?};"),
                Value::Int(i) => writeln!(out, "    pub const {name}: i32 = {i};"),
            };
            if let Value::Str(v) = &e.value {
                let (ty, mac, text) = match e.jni.as_str() {
                    "str" => ("&jni::strings::JNIStr", "jni_str", v.clone()),
                    "class" => ("&jni::strings::JNIStr", "jni_str", v.replace('.', "/")),
                    "sig" => ("jni::signature::MethodSignature", "jni_sig", v.clone()),
                    _ => ("", "", String::new()),
                };
                if !ty.is_empty() {
                    let _ = writeln!(out, "    /// `{name}` as JNI takes it.");
                    let _ = writeln!(
                        out,
                        "    pub const {name}_JNI: {ty} = jni::{mac}!({text:?});"
                    );
                }
            }
            all.push((s, e));
        }
        let _ = writeln!(out, "}}\n");
    }

    rust_doc(&mut out, "", &table.natives_doc);
    out.push_str("pub mod natives {\n    use super::Native;\n");
    for n in &table.natives {
        let d = n.descriptor();
        rust_doc(&mut out, "    ", &n.doc);
        let _ = writeln!(
            out,
            "    pub const {}: Native = Native {{\n        name: {:?},\n        descriptor: {d:?},\n        \
             jni_name: jni::jni_str!({:?}),\n        jni_descriptor: jni::jni_str!({d:?}),\n        \
             declaration: {:?},\n    }};",
            upper_snake(&n.name),
            n.name,
            n.name,
            n.declaration()
        );
    }
    let names: Vec<String> = table.natives.iter().map(|n| upper_snake(&n.name)).collect();
    let _ = writeln!(
        out,
        "    /// Every native, in the table's order.\n    pub const ALL: &[Native] = &[{}];\n}}\n",
        names.join(", ")
    );

    out.push_str("/// Every entry of the table but the natives, in its order.\npub const ENTRIES: &[Entry] = &[\n");
    for (s, e) in all {
        let value = match &e.value {
            Value::Str(v) => format!("Value::Str({v:?})"),
            Value::Char(c) => format!("Value::Char({c:?})"),
            Value::Int(i) => format!("Value::Int({i})"),
        };
        let guard = match e.guard {
            "exact" => "Guard::Exact",
            "field" => "Guard::Field",
            _ => "Guard::None",
        };
        let java = if s.java {
            format!(
                "Some(\"Protocol.{}.{}\")",
                camel(&s.name),
                upper_snake(&e.key)
            )
        } else {
            "None".to_string()
        };
        let _ = writeln!(
            out,
            "    Entry {{ section: {:?}, key: {:?}, rust: \"{}::{}\", java: {java}, value: {value}, guard: {guard} }},",
            s.name,
            e.key,
            s.name,
            upper_snake(&e.key),
        );
    }
    out.push_str("];\n\n");

    out.push_str("/// The generated Java sources (path below the source root, text).\npub const JAVA_SOURCES: &[(&str, &str)] = &[\n");
    let natives_class = match &table.find("class", "rt_natives").unwrap().value {
        Value::Str(s) => s.clone(),
        _ => unreachable!(),
    };
    for class in [PROTOCOL_CLASS.to_string(), natives_class] {
        let path = class.replace('.', "/") + ".java";
        let _ = writeln!(
            out,
            "    ({path:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/agent-gen/{path}\"))),"
        );
    }
    out.push_str("];\n");
    out
}

// ---- Java ---------------------------------------------------------------------------------------

fn java_header(out: &mut String, class: &str) -> String {
    let (package, simple) = class.rsplit_once('.').unwrap();
    let _ = writeln!(
        out,
        "// Generated by patchval's build.rs from protocol.toml: do not edit.\npackage {package};\n"
    );
    simple.to_string()
}

fn java_constants(table: &Table) -> String {
    let mut out = String::new();
    let simple = java_header(&mut out, PROTOCOL_CLASS);
    let _ = writeln!(
        out,
        "/** The protocol with patchval's Rust side, one nested class per section of protocol.toml. */\n\
         public final class {simple} {{\n    private {simple}() {{}}"
    );
    for s in table.sections.iter().filter(|s| s.java) {
        out.push('\n');
        java_doc(&mut out, "    ", &s.doc);
        let nested = camel(&s.name);
        let _ = writeln!(
            out,
            "    public static final class {nested} {{\n        private {nested}() {{}}"
        );
        for e in &s.entries {
            out.push('\n');
            java_doc(&mut out, "        ", &e.doc);
            let name = upper_snake(&e.key);
            let _ = match &e.value {
                Value::Str(v) => writeln!(
                    out,
                    "        public static final String {name} = \"{}\";",
                    java_escape(v)
                ),
                Value::Char(c) => writeln!(
                    out,
                    "        public static final char {name} = '{}';",
                    java_escape(&c.to_string())
                ),
                Value::Int(i) => writeln!(out, "        public static final int {name} = {i};"),
            };
        }
        out.push_str("    }\n");
    }
    out.push_str("}\n");
    out
}

fn java_natives(table: &Table, class: &str) -> String {
    let mut out = String::new();
    let simple = java_header(&mut out, class);
    java_doc(&mut out, "", &table.natives_doc);
    let _ = writeln!(out, "final class {simple} {{\n    private {simple}() {{}}");
    for n in &table.natives {
        out.push('\n');
        java_doc(&mut out, "    ", &n.doc);
        let _ = writeln!(out, "    {}", n.declaration());
    }
    out.push_str("}\n");
    out
}
