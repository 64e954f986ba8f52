//! The compiled classes `generate` types its candidates with: class files read (with `cafebabe`)
//! on demand by binary name from the work dir's compiled classes, the project's class path
//! (directories and jars) and the JDK's `java.base` module, with their fields and methods and
//! those they inherit.

use cafebabe::descriptors::{FieldDescriptor, FieldType, ReturnDescriptor};
use cafebabe::{FieldAccessFlags, MethodAccessFlags};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A field of a compiled class; its type in the form [`java_type`] gives.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: String,
    pub is_static: bool,
    pub is_final: bool,
    pub is_private: bool,
    /// Neither public, protected nor private: visible in its package only.
    pub is_package: bool,
}

/// A method of a compiled class (constructors and synthetic methods left out).
#[derive(Debug, Clone, PartialEq)]
pub struct Method {
    pub name: String,
    pub params: Vec<String>,
    /// `void` or a type in [`java_type`]'s form.
    pub ret: String,
    pub is_static: bool,
    pub is_private: bool,
    pub is_package: bool,
    pub is_varargs: bool,
    /// The exceptions it declares (`throws`), binary names.
    pub throws: Vec<String>,
}

/// One class: binary names with dots (`a.b.Outer$Inner`).
#[derive(Debug, Clone, PartialEq)]
pub struct Class {
    pub name: String,
    pub super_name: Option<String>,
    pub interfaces: Vec<String>,
    pub fields: Vec<Field>,
    pub methods: Vec<Method>,
    /// Constructors' parameter types (type variables as [`UNKNOWN`]) and whether they take
    /// variable arity.
    pub ctors: Vec<(Vec<String>, bool)>,
}

/// Where class files are looked up, in class-path order.
enum Root {
    Dir(PathBuf),
    /// A jar, or a jmod (whose entries live below `classes/`), opened on first use.
    Archive {
        path: PathBuf,
        prefix: &'static str,
        zip: RefCell<Option<Option<zip::ZipArchive<std::fs::File>>>>,
    },
}

/// The classes of a project, loaded on demand and kept.
pub struct Classes {
    roots: Vec<Root>,
    loaded: RefCell<HashMap<String, Option<Rc<Class>>>>,
}

impl Classes {
    /// Class files under `dirs_and_jars` (in order), then the JDK's `java.base` module.
    pub fn new(dirs_and_jars: &[PathBuf], java_home: &Path) -> Classes {
        let archive = |path: PathBuf, prefix| Root::Archive {
            path,
            prefix,
            zip: RefCell::new(None),
        };
        let mut roots: Vec<Root> = dirs_and_jars
            .iter()
            .map(|p| {
                if p.is_dir() {
                    Root::Dir(p.clone())
                } else {
                    archive(p.clone(), "")
                }
            })
            .collect();
        roots.push(archive(java_home.join("jmods/java.base.jmod"), "classes/"));
        Classes {
            roots,
            loaded: RefCell::new(HashMap::new()),
        }
    }

    /// The class of binary name `name` (`java.lang.String`, `a.B$C`), if some root has it and
    /// it parses.
    pub fn get(&self, name: &str) -> Option<Rc<Class>> {
        if let Some(c) = self.loaded.borrow().get(name) {
            return c.clone();
        }
        let entry = format!("{}.class", name.replace('.', "/"));
        let class = self
            .roots
            .iter()
            .find_map(|r| read(r, &entry))
            .and_then(|bytes| parse(&bytes));
        let class = class.map(Rc::new);
        self.loaded
            .borrow_mut()
            .insert(name.to_string(), class.clone());
        class
    }

    /// Whether a class of binary name `name` exists.
    pub fn exists(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// `name` and its superclasses and superinterfaces, nearest first, each once.
    pub fn lineage(&self, name: &str) -> Vec<Rc<Class>> {
        let mut out: Vec<Rc<Class>> = Vec::new();
        let mut seen = BTreeSet::new();
        let mut todo = vec![name.to_string()];
        while let Some(n) = todo.pop() {
            if !seen.insert(n.clone()) {
                continue;
            }
            let Some(c) = self.get(&n) else { continue };
            todo.extend(c.interfaces.iter().rev().cloned());
            todo.extend(c.super_name.clone());
            out.push(c);
        }
        out
    }

    /// The methods `name` declares or inherits, the nearest declaration of each signature.
    pub fn methods(&self, name: &str) -> Vec<Method> {
        let mut out: Vec<Method> = Vec::new();
        for c in self.lineage(name) {
            for m in &c.methods {
                if !out.iter().any(|o| o.name == m.name && o.params == m.params) {
                    out.push(m.clone());
                }
            }
        }
        out
    }

    /// The field `field` of `name` or of its nearest ancestor that declares it.
    pub fn field(&self, name: &str, field: &str) -> Option<Field> {
        self.lineage(name)
            .iter()
            .find_map(|c| c.fields.iter().find(|f| f.name == field).cloned())
    }

    /// May code that handles what `m` throws call `other` instead (every checked exception
    /// `other` declares is one `m` declares, or a subclass)?
    pub fn throws_within(&self, other: &Method, m: &Method) -> bool {
        other.throws.iter().all(|e| {
            self.is_subclass(e, "java.lang.RuntimeException")
                || self.is_subclass(e, "java.lang.Error")
                || m.throws.iter().any(|x| self.is_subclass(e, x))
        })
    }

    /// The package of a binary name.
    pub fn package(name: &str) -> &str {
        name.rsplit_once('.').map_or("", |(p, _)| p)
    }

    /// Is `sub` (a binary name) `sup` or one of its descendants?
    pub fn is_subclass(&self, sub: &str, sup: &str) -> bool {
        sub == sup || self.lineage(sub).iter().any(|c| c.name == sup)
    }
}

fn read(root: &Root, entry: &str) -> Option<Vec<u8>> {
    match root {
        Root::Dir(d) => std::fs::read(d.join(entry)).ok(),
        Root::Archive { path, prefix, zip } => {
            let mut slot = zip.borrow_mut();
            let archive = slot.get_or_insert_with(|| {
                let file = std::fs::File::open(path).ok()?;
                zip::ZipArchive::new(file).ok()
            });
            let mut file = archive
                .as_mut()?
                .by_name(&format!("{prefix}{entry}"))
                .ok()?;
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).ok()?;
            Some(bytes)
        }
    }
}

fn parse(bytes: &[u8]) -> Option<Class> {
    let mut options = cafebabe::ParseOptions::default();
    options.parse_bytecode(false);
    let c = cafebabe::parse_class_with_options(bytes, &options).ok()?;
    let dotted = |n: &dyn std::fmt::Display| n.to_string().replace('/', ".");
    let fields = c
        .fields
        .iter()
        .filter(|f| !f.access_flags.contains(FieldAccessFlags::SYNTHETIC))
        .map(|f| Field {
            name: f.name.to_string(),
            ty: match signature(&f.attributes) {
                Some(sig) if is_type_var(sig) => UNKNOWN.into(),
                _ => java_type(&f.descriptor),
            },
            is_static: f.access_flags.contains(FieldAccessFlags::STATIC),
            is_final: f.access_flags.contains(FieldAccessFlags::FINAL),
            is_private: f.access_flags.contains(FieldAccessFlags::PRIVATE),
            is_package: !f.access_flags.intersects(
                FieldAccessFlags::PUBLIC | FieldAccessFlags::PROTECTED | FieldAccessFlags::PRIVATE,
            ),
        })
        .collect();
    let methods: Vec<Method> = c
        .methods
        .iter()
        .filter(|m| {
            m.name != "<clinit>"
                && !m
                    .access_flags
                    .intersects(MethodAccessFlags::SYNTHETIC | MethodAccessFlags::BRIDGE)
        })
        .map(|m| {
            let (vars, ret_var) = signature(&m.attributes)
                .map(method_type_vars)
                .unwrap_or_default();
            let unknown_if = |var: bool, ty: String| if var { UNKNOWN.into() } else { ty };
            Method {
                name: m.name.to_string(),
                params: m
                    .descriptor
                    .parameters
                    .iter()
                    .enumerate()
                    .map(|(i, d)| unknown_if(vars.get(i).copied().unwrap_or(false), java_type(d)))
                    .collect(),
                ret: match &m.descriptor.return_type {
                    ReturnDescriptor::Void => "void".into(),
                    ReturnDescriptor::Return(d) => unknown_if(ret_var, java_type(d)),
                },
                is_static: m.access_flags.contains(MethodAccessFlags::STATIC),
                is_private: m.access_flags.contains(MethodAccessFlags::PRIVATE),
                is_package: !m.access_flags.intersects(
                    MethodAccessFlags::PUBLIC
                        | MethodAccessFlags::PROTECTED
                        | MethodAccessFlags::PRIVATE,
                ),
                is_varargs: m.access_flags.contains(MethodAccessFlags::VARARGS),
                throws: m
                    .attributes
                    .iter()
                    .find_map(|a| match &a.data {
                        cafebabe::attributes::AttributeData::Exceptions(e) => {
                            Some(e.iter().map(|n| n.replace('/', ".")).collect())
                        }
                        _ => None,
                    })
                    .unwrap_or_default(),
            }
        })
        .collect();
    let (ctors, methods): (Vec<Method>, Vec<Method>) =
        methods.into_iter().partition(|m| m.name == "<init>");
    Some(Class {
        ctors: ctors
            .into_iter()
            .map(|m| (m.params, m.is_varargs))
            .collect(),
        name: dotted(&c.this_class),
        super_name: c.super_class.as_ref().map(|s| dotted(s)),
        interfaces: c.interfaces.iter().map(|i| dotted(i)).collect(),
        fields,
        methods,
    })
}

/// The type of a member whose generic signature makes it a type variable (`T get()`, `T[] f`):
/// its erasure (`Object`, a bound) says nothing about what the code sees.
pub const UNKNOWN: &str = "?";

fn signature<'a>(attrs: &'a [cafebabe::attributes::AttributeInfo]) -> Option<&'a str> {
    attrs.iter().find_map(|a| match &a.data {
        cafebabe::attributes::AttributeData::Signature(s) => Some(s.as_ref()),
        _ => None,
    })
}

/// A type signature that is a type variable, or an array of one (`TT;`, `[TE;`).
fn is_type_var(sig: &str) -> bool {
    sig.trim_start_matches('[').starts_with('T')
}

/// Which of a method signature's parameters, and whether its return type, are type variables.
fn method_type_vars(sig: &str) -> (Vec<bool>, bool) {
    let Some(open) = sig.find('(') else {
        return (Vec::new(), false);
    };
    let mut params = Vec::new();
    let bytes = sig.as_bytes();
    let mut i = open + 1;
    while i < bytes.len() && bytes[i] != b')' {
        let start = i;
        while bytes.get(i) == Some(&b'[') {
            i += 1;
        }
        match bytes.get(i) {
            Some(b'L') | Some(b'T') => {
                // Up to the `;` that closes this type, past any `<...>`.
                let mut depth = 0;
                while let Some(&b) = bytes.get(i) {
                    i += 1;
                    match b {
                        b'<' => depth += 1,
                        b'>' => depth -= 1,
                        b';' if depth == 0 => break,
                        _ => {}
                    }
                }
            }
            Some(_) => i += 1,
            None => break,
        }
        params.push(is_type_var(&sig[start..i]));
    }
    let ret = sig.get(i + 1..).is_some_and(is_type_var);
    (params, ret)
}

/// A descriptor as a type: primitives by their keyword, classes by binary name with dots,
/// `[]` per dimension.
pub fn java_type(d: &FieldDescriptor) -> String {
    let base = match &d.field_type {
        FieldType::Byte => "byte".to_string(),
        FieldType::Char => "char".into(),
        FieldType::Double => "double".into(),
        FieldType::Float => "float".into(),
        FieldType::Integer => "int".into(),
        FieldType::Long => "long".into(),
        FieldType::Short => "short".into(),
        FieldType::Boolean => "boolean".into(),
        FieldType::Object(n) => n.to_string().replace('/', "."),
    };
    format!("{base}{}", "[]".repeat(d.dimensions as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jdk() -> Classes {
        let home = crate::toolchain::find_jdk().expect("a JDK");
        Classes::new(&[], &home)
    }

    #[test]
    fn type_variables_in_signatures_are_found() {
        assert_eq!(
            method_type_vars("<T:Ljava/lang/Object;>(ITT;Ljava/util/List<TT;>;[TT;)TT;"),
            (vec![false, true, false, true], true)
        );
        assert_eq!(
            method_type_vars("(Ljava/lang/String;)V"),
            (vec![false], false)
        );
        assert!(is_type_var("[TE;"));
        assert!(!is_type_var("Ljava/util/List<TE;>;"));
    }

    #[test]
    fn the_jdk_classes_are_read_from_java_base() {
        let c = jdk();
        let s = c.get("java.lang.String").expect("String");
        assert_eq!(s.super_name.as_deref(), Some("java.lang.Object"));
        let m = c.methods("java.lang.String");
        assert!(m
            .iter()
            .any(|m| m.name == "length" && m.params.is_empty() && m.ret == "int"));
        assert!(m.iter().any(|m| m.name == "hashCode"), "inherited");
        assert!(c.get("java.lang.NoSuchThing").is_none());
        assert!(c.is_subclass(
            "java.lang.IllegalStateException",
            "java.lang.RuntimeException"
        ));
        let e = c.methods("java.util.ArrayList");
        assert!(
            e.iter()
                .any(|m| m.name == "get" && m.params == ["int"] && m.ret == UNKNOWN),
            "a type variable"
        );
        assert!(e
            .iter()
            .any(|m| m.name == "size" && m.params.is_empty() && m.ret == "int"));
    }
}
