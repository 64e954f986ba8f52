//! The compiled classes `generate` types its candidates with: class files read (with
//! `bytecode::classfile`, declarations only)
//! on demand by binary name from the work dir's compiled classes, the project's class path
//! (directories and jars) and the JDK's `java.base` module, with their fields and methods and
//! those they inherit.

use crate::bytecode::classfile::{self, Depth, ACC_BRIDGE, ACC_FINAL, ACC_PRIVATE};
use crate::bytecode::classfile::{
    ACC_PROTECTED, ACC_PUBLIC, ACC_STATIC, ACC_SYNTHETIC, ACC_VARARGS,
};
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
    let c = classfile::parse_with(bytes, Depth::Members).ok()?;
    let dotted = |n: &str| n.replace('/', ".");
    let package_only = |access: u16| access & (ACC_PUBLIC | ACC_PROTECTED | ACC_PRIVATE) == 0;
    let fields = c
        .fields
        .iter()
        .filter(|f| f.access & ACC_SYNTHETIC == 0)
        .map(|f| {
            Some(Field {
                name: f.name.clone(),
                ty: match f.signature.as_deref() {
                    Some(sig) if is_type_var(sig) => UNKNOWN.into(),
                    _ => java_type(&f.descriptor)?.0,
                },
                is_static: f.access & ACC_STATIC != 0,
                is_final: f.access & ACC_FINAL != 0,
                is_private: f.access & ACC_PRIVATE != 0,
                is_package: package_only(f.access),
            })
        })
        .collect::<Option<Vec<Field>>>()?;
    let methods: Vec<Method> = c
        .methods
        .iter()
        .filter(|m| m.name != "<clinit>" && m.access & (ACC_SYNTHETIC | ACC_BRIDGE) == 0)
        .map(|m| {
            let (vars, ret_var) = m
                .signature
                .as_deref()
                .map(method_type_vars)
                .unwrap_or_default();
            let unknown_if = |var: bool, ty: String| if var { UNKNOWN.into() } else { ty };
            let (params, ret) = method_types(&m.descriptor)?;
            Some(Method {
                name: m.name.clone(),
                params: params
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| unknown_if(vars.get(i).copied().unwrap_or(false), t))
                    .collect(),
                ret: match ret.as_str() {
                    "void" => ret,
                    _ => unknown_if(ret_var, ret),
                },
                is_static: m.access & ACC_STATIC != 0,
                is_private: m.access & ACC_PRIVATE != 0,
                is_package: package_only(m.access),
                is_varargs: m.access & ACC_VARARGS != 0,
                throws: m.exceptions.iter().map(|n| dotted(n)).collect(),
            })
        })
        .collect::<Option<Vec<Method>>>()?;
    let (ctors, methods): (Vec<Method>, Vec<Method>) =
        methods.into_iter().partition(|m| m.name == "<init>");
    Some(Class {
        ctors: ctors
            .into_iter()
            .map(|m| (m.params, m.is_varargs))
            .collect(),
        name: dotted(&c.name),
        super_name: c.super_name.as_deref().map(dotted),
        interfaces: c.interfaces.iter().map(|i| dotted(i)).collect(),
        fields,
        methods,
    })
}

/// The type of a member whose generic signature makes it a type variable (`T get()`, `T[] f`):
/// its erasure (`Object`, a bound) says nothing about what the code sees.
pub const UNKNOWN: &str = "?";

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

/// The first type of a descriptor as a type (primitives by their keyword, `void`, classes by
/// binary name with dots, `[]` per dimension) and the rest of the descriptor; `None` when it is
/// malformed.
pub fn java_type(descriptor: &str) -> Option<(String, &str)> {
    let dims = descriptor.len() - descriptor.trim_start_matches('[').len();
    let rest = &descriptor[dims..];
    let (base, rest) = match rest.as_bytes().first()? {
        b'L' => {
            let end = rest.find(';')?;
            (rest[1..end].replace('/', "."), &rest[end + 1..])
        }
        b => {
            let name = match b {
                b'B' => "byte",
                b'C' => "char",
                b'D' => "double",
                b'F' => "float",
                b'I' => "int",
                b'J' => "long",
                b'S' => "short",
                b'Z' => "boolean",
                b'V' if dims == 0 => "void",
                _ => return None,
            };
            (name.to_string(), &rest[1..])
        }
    };
    Some((format!("{base}{}", "[]".repeat(dims)), rest))
}

/// A method descriptor's parameter types and return type, as [`java_type`] writes them.
fn method_types(descriptor: &str) -> Option<(Vec<String>, String)> {
    let mut rest = descriptor.strip_prefix('(')?;
    let mut params = Vec::new();
    while !rest.starts_with(')') {
        let (ty, after) = java_type(rest)?;
        if ty == "void" {
            return None;
        }
        params.push(ty);
        rest = after;
    }
    let (ret, after) = java_type(&rest[1..])?;
    after.is_empty().then_some((params, ret))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jdk() -> Classes {
        let home = crate::toolchain::find_jdk().expect("a JDK");
        Classes::new(&[], &home)
    }

    #[test]
    fn descriptors_read_as_java_types() {
        assert_eq!(
            method_types("(I[[Ljava/lang/String;J)[Z"),
            Some((
                vec!["int".into(), "java.lang.String[][]".into(), "long".into()],
                "boolean[]".into()
            ))
        );
        assert_eq!(method_types("()V"), Some((vec![], "void".into())));
        assert_eq!(java_type("La/b/C$D;"), Some(("a.b.C$D".into(), "")));
        assert_eq!(method_types("(V)V"), None);
        assert_eq!(method_types("(I"), None);
        assert_eq!(java_type("[V"), None);
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
