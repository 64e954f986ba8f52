//! The project's one Java class-file reader: reads the class files of a class path (directories
//! and jars) and, for each class, its name, supertypes, fields and methods (with their generic
//! signatures and `throws`, which `generate` types its candidates with), and for each method body
//! the state-changing instructions and the invocations it makes (the purity analysis).

pub use super::constpool::{arity, ClassFormatError, InvokeKind, MemberRef, Sam};
use super::constpool::{not_a, read_pool, Const, Pool, Reader};
use super::{bootstrap, escape};
use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ClassPathError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A malformed class file; `file` is `dir/a/B.class` or `lib.jar!/a/B.class`.
    #[error("{file}: {source}")]
    Malformed {
        file: String,
        source: ClassFormatError,
    },
    /// A jar (or zip) that cannot be read as one; `file` is the jar.
    #[error("{file}: {source}")]
    Jar {
        file: String,
        source: zip::result::ZipError,
    },
    /// A class inside a jar that cannot be read out of it; `file` is `lib.jar!/a/B.class`.
    #[error("{file}: {source}")]
    JarEntry {
        file: String,
        source: std::io::Error,
    },
}

/// Class and method access flags used by the analysis.
pub const ACC_PUBLIC: u16 = 0x0001;
pub const ACC_PRIVATE: u16 = 0x0002;
pub const ACC_PROTECTED: u16 = 0x0004;
pub const ACC_STATIC: u16 = 0x0008;
pub const ACC_FINAL: u16 = 0x0010;
pub const ACC_SYNCHRONIZED: u16 = 0x0020;
/// A compiler-made bridge method (same bit as `ACC_VOLATILE` on a field).
pub const ACC_BRIDGE: u16 = 0x0040;
/// A method of variable arity (`...`).
pub const ACC_VARARGS: u16 = 0x0080;
pub const ACC_NATIVE: u16 = 0x0100;
pub const ACC_INTERFACE: u16 = 0x0200;
pub const ACC_ABSTRACT: u16 = 0x0400;
pub const ACC_SYNTHETIC: u16 = 0x1000;

/// What a method body does, as far as purity is concerned.
#[derive(Debug, Clone, Default)]
pub struct Code {
    /// The mnemonic of the first instruction that changes state or is not analysed.
    pub effect: Option<&'static str>,
    /// The mnemonics of all such instructions, sorted and distinct.
    pub effects: Vec<&'static str>,
    /// The distinct invocations, sorted.
    pub invokes: Vec<(InvokeKind, MemberRef)>,
    /// Owners of the static fields read (`getstatic`), sorted and distinct.
    pub static_reads: Vec<String>,
    /// Owners of the static fields written (`putstatic`), sorted and distinct.
    pub static_writes: Vec<String>,
    /// Owners of the instance fields written (`putfield`), sorted and distinct.
    pub field_writes: Vec<String>,
    /// Classes instantiated with `new`, sorted and distinct.
    pub news: Vec<String>,
    /// Objects the code may keep past its run that could be throwables (`escape::analyse`):
    /// the classes of those it creates, `java/lang/Throwable` for one it catches. Sorted,
    /// distinct.
    pub kept: Vec<String>,
    /// The classes of the new objects it returns unthrown. Sorted, distinct.
    pub returned: Vec<String>,
    /// Per entry of `invokes`: whether some call's result is kept (used otherwise than thrown,
    /// returned or dropped), and whether some call's result is returned.
    pub result_kept: Vec<bool>,
    pub result_returned: Vec<bool>,
    /// The bootstrap methods (indices of the class's `BootstrapMethods`) of its
    /// `invokedynamic` instructions: the lambdas and method references it makes. Sorted,
    /// distinct.
    pub bootstraps: Vec<u16>,
}

impl Code {
    /// The classes whose initialisation running this code may trigger (JVMS 5.5): owners of
    /// static fields read or written, of static methods called, and classes instantiated.
    pub fn initializes(&self) -> impl Iterator<Item = &str> {
        let statics = self
            .invokes
            .iter()
            .filter(|(k, _)| *k == InvokeKind::Static)
            .map(|(_, m)| m.owner.as_str());
        self.static_reads
            .iter()
            .chain(&self.static_writes)
            .chain(&self.news)
            .map(String::as_str)
            .chain(statics)
    }
}

#[derive(Debug, Clone)]
pub struct Method {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    /// `None` for abstract and native methods, and when the class was read with
    /// [`Depth::Members`].
    pub code: Option<Code>,
    /// The `Signature` attribute (generic types), when there is one.
    pub signature: Option<String>,
    /// The exceptions it declares (`throws`), internal names.
    pub exceptions: Vec<String>,
}

/// A field: its name, descriptor, access flags and `Signature` attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    pub signature: Option<String>,
}

/// How much of a class file [`parse_with`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Everything the purity analysis needs: method bodies walked, bootstrap methods read.
    Code,
    /// Declarations only (supertypes, fields, methods' descriptors, signatures and `throws`):
    /// a body the walker does not know is no reason to lose the class's members.
    Members,
}

#[derive(Debug, Clone)]
pub struct ClassFile {
    pub name: String,
    pub access: u16,
    pub super_name: Option<String>,
    pub interfaces: Vec<String>,
    /// Names of the static fields the class declares.
    pub static_fields: Vec<String>,
    pub fields: Vec<Field>,
    pub methods: Vec<Method>,
    /// Methods referenced by `CONSTANT_MethodHandle` (lambda bodies and method references), and
    /// `None` for handles that write a field.
    pub handles: Vec<Option<(InvokeKind, MemberRef)>>,
    /// Per entry of `handles`: the functional methods it implements when it is used only as the
    /// body of lambdas and method references (`LambdaMetafactory`'s implementation handle);
    /// `None` when it is used otherwise (another bootstrap's argument, a bootstrap method
    /// itself), so it may run under any name.
    pub handle_sams: Vec<Option<Vec<Sam>>>,
    /// Per bootstrap method of the class: the entries of `handles` among its arguments (a
    /// lambda's body, a method reference's target).
    pub bootstrap_handles: Vec<Vec<usize>>,
}

/// The parameter types of a descriptor's `(..)` part, each as written there (`I`,
/// `Ljava/lang/String;`, `[I`); `None` if malformed.
pub fn parameter_types(params: &str) -> Option<Vec<&str>> {
    let inner = params.strip_prefix('(')?.strip_suffix(')')?;
    let bytes = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while bytes.get(i) == Some(&b'[') {
            i += 1;
        }
        match bytes.get(i)? {
            b'L' => i += inner[i..].find(';')? + 1,
            b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' => i += 1,
            _ => return None,
        }
        out.push(&inner[start..i]);
    }
    Some(out)
}

/// Reads every class under the directories and inside the jars (or zips) of `class_path`; the
/// first class of a name wins. Entries that do not exist are skipped, as `java` does.
pub fn read_class_path(class_path: &[PathBuf]) -> Result<Vec<ClassFile>, ClassPathError> {
    let mut classes = Vec::new();
    let mut seen = HashSet::new();
    let mut add = |file: String, bytes: &[u8]| -> Result<(), ClassPathError> {
        let class = parse(bytes).map_err(|source| ClassPathError::Malformed { file, source })?;
        if seen.insert(class.name.clone()) {
            classes.push(class);
        }
        Ok(())
    };
    for entry in class_path {
        if entry.is_dir() {
            for e in walkdir::WalkDir::new(entry).sort_by_file_name() {
                let e = e.map_err(|e| ClassPathError::Io {
                    path: e.path().unwrap_or(entry).to_path_buf(),
                    source: std::io::Error::other(e.to_string()),
                })?;
                let path = e.path();
                if e.file_type().is_file() && is_class(&path.to_string_lossy()) {
                    let bytes = std::fs::read(path).map_err(io_err(path))?;
                    add(path.display().to_string(), &bytes)?;
                }
            }
        } else if entry.is_file() {
            read_jar(entry, &mut add)?;
        }
    }
    Ok(classes)
}

fn is_class(path: &str) -> bool {
    path.ends_with(".class") && !path.ends_with("module-info.class")
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ClassPathError + '_ {
    move |source| ClassPathError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn read_jar(
    jar: &Path,
    add: &mut impl FnMut(String, &[u8]) -> Result<(), ClassPathError>,
) -> Result<(), ClassPathError> {
    let bad =
        |file: String| move |source: zip::result::ZipError| ClassPathError::Jar { file, source };
    let file = std::fs::File::open(jar).map_err(io_err(jar))?;
    let mut zip = zip::ZipArchive::new(file).map_err(bad(jar.display().to_string()))?;
    let mut bytes = Vec::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(bad(jar.display().to_string()))?;
        let name = entry.name().to_string();
        if entry.is_dir() || !is_class(&name) || name.starts_with("META-INF/") {
            continue;
        }
        let file = format!("{}!/{name}", jar.display());
        bytes.clear();
        if let Err(source) = entry.read_to_end(&mut bytes) {
            return Err(ClassPathError::JarEntry { file, source });
        }
        add(file, &bytes)?;
    }
    Ok(())
}

/// Parses a class file; the error says what is wrong, not which file.
pub fn parse(bytes: &[u8]) -> Result<ClassFile, ClassFormatError> {
    parse_with(bytes, Depth::Code)
}

/// A `Signature` attribute's text.
fn signature_of(body: &[u8], pool: &Pool) -> Result<String, ClassFormatError> {
    let mut r = Reader {
        bytes: body,
        pos: 0,
    };
    Ok(pool.utf8(r.u2()?)?.to_string())
}

/// An `Exceptions` attribute's classes.
fn exceptions_of(body: &[u8], pool: &Pool) -> Result<Vec<String>, ClassFormatError> {
    let mut r = Reader {
        bytes: body,
        pos: 0,
    };
    (0..r.u2()?)
        .map(|_| Ok(pool.class(r.u2()?)?.to_string()))
        .collect()
}

/// [`parse`], reading as much as `depth` says. A malformed `Signature` or `Exceptions`
/// attribute reads as absent: the purity analysis never needs them.
pub fn parse_with(bytes: &[u8], depth: Depth) -> Result<ClassFile, ClassFormatError> {
    let mut r = Reader { bytes, pos: 0 };
    if r.u4()? != 0xCAFE_BABE {
        return Err(ClassFormatError::Magic);
    }
    let _minor = r.u2()?;
    let major = r.u2()?;
    if major < 45 {
        return Err(ClassFormatError::Version(major));
    }
    let pool = read_pool(&mut r)?;
    let access = r.u2()?;
    let name = pool.class(r.u2()?)?.to_string();
    let super_index = r.u2()?;
    let super_name = match super_index {
        0 => None,
        i => Some(pool.class(i)?.to_string()),
    };
    let mut interfaces = Vec::new();
    for _ in 0..r.u2()? {
        interfaces.push(pool.class(r.u2()?)?.to_string());
    }
    let mut fields = Vec::new();
    for _ in 0..r.u2()? {
        let access = r.u2()?;
        let name = pool.utf8(r.u2()?)?.to_string();
        let descriptor = pool.utf8(r.u2()?)?.to_string();
        let mut signature = None;
        for _ in 0..r.u2()? {
            let attribute = pool.utf8(r.u2()?)?;
            let len = r.u4()? as usize;
            let body = r.take(len)?;
            if attribute == "Signature" {
                signature = signature_of(body, &pool).ok();
            }
        }
        fields.push(Field {
            name,
            descriptor,
            access,
            signature,
        });
    }
    let static_fields = fields
        .iter()
        .filter(|f| f.access & ACC_STATIC != 0)
        .map(|f| f.name.clone())
        .collect();
    let mut methods = Vec::new();
    for _ in 0..r.u2()? {
        let access = r.u2()?;
        let name = pool.utf8(r.u2()?)?.to_string();
        let descriptor = pool.utf8(r.u2()?)?.to_string();
        if arity(&descriptor).is_none() {
            return Err(ClassFormatError::Descriptor {
                method: name,
                descriptor,
            });
        }
        let (mut code, mut signature, mut exceptions) = (None, None, Vec::new());
        for _ in 0..r.u2()? {
            let attribute = pool.utf8(r.u2()?)?;
            let len = r.u4()? as usize;
            let body = r.take(len)?;
            match attribute {
                "Code" if depth == Depth::Code => {
                    let parsed = read_code(body, &pool);
                    code = Some(parsed.map_err(|e| ClassFormatError::Code {
                        method: name.clone(),
                        descriptor: descriptor.clone(),
                        source: Box::new(e),
                    })?);
                }
                "Signature" => signature = signature_of(body, &pool).ok(),
                "Exceptions" => exceptions = exceptions_of(body, &pool).unwrap_or_default(),
                _ => {}
            }
        }
        methods.push(Method {
            name,
            descriptor,
            access,
            code,
            signature,
            exceptions,
        });
    }
    let (handles, handle_sams, bootstrap_handles) = match depth {
        Depth::Code => {
            let bootstraps = bootstrap::read_class_attributes(&mut r, &pool)?;
            bootstrap::handles(&pool, &bootstraps)?
        }
        Depth::Members => Default::default(),
    };
    Ok(ClassFile {
        name,
        access,
        super_name,
        interfaces,
        static_fields,
        fields,
        methods,
        handles,
        handle_sams,
        bootstrap_handles,
    })
}

fn read_code(attribute: &[u8], pool: &Pool) -> Result<Code, ClassFormatError> {
    let mut r = Reader {
        bytes: attribute,
        pos: 0,
    };
    r.take(4)?; // max_stack, max_locals
    let len = r.u4()? as usize;
    let code = r.take(len)?;
    let mut handlers = Vec::new();
    for _ in 0..r.u2()? {
        r.take(4)?; // start_pc, end_pc
        handlers.push(usize::from(r.u2()?));
        r.take(2)?; // catch_type
    }
    handlers.sort_unstable();
    handlers.dedup();
    walk(code, &handlers, pool)
}

const ARRAY_STORES: [&str; 8] = [
    "iastore", "lastore", "fastore", "dastore", "aastore", "bastore", "castore", "sastore",
];

/// Walks the bytecode with the exact length of every instruction.
fn walk(code: &[u8], handlers: &[usize], pool: &Pool) -> Result<Code, ClassFormatError> {
    let i32_at = |at: usize| -> Result<i64, ClassFormatError> {
        let b = code
            .get(at..at + 4)
            .ok_or(ClassFormatError::SwitchPastEnd(at))?;
        Ok(i64::from(i32::from_be_bytes([b[0], b[1], b[2], b[3]])))
    };
    let mut out = Code::default();
    let mut insns: Vec<escape::Insn> = Vec::new();
    // Invocations that return a reference: (instruction index, invocation).
    let mut calls = Vec::new();
    let mut pc = 0;
    while pc < code.len() {
        let op = code[pc];
        let len: usize = match op {
            0x00..=0x0f | 0x1a..=0x35 | 0x3b..=0x83 | 0x85..=0x98 | 0xac..=0xb1 => 1,
            0xbe | 0xbf | 0xc2 | 0xc3 | 0xca | 0xfe | 0xff => 1,
            0x10 | 0x12 | 0x15..=0x19 | 0x36..=0x3a | 0xa9 | 0xbc => 2,
            0x11 | 0x13 | 0x14 | 0x84 | 0x99..=0xa8 | 0xb2..=0xb8 | 0xbb | 0xbd => 3,
            0xc0 | 0xc1 | 0xc6 | 0xc7 => 3,
            0xc5 => 4,
            0xb9 | 0xba | 0xc8 | 0xc9 => 5,
            0xc4 => match code.get(pc + 1) {
                Some(0x84) => 6,
                Some(0x15..=0x19 | 0x36..=0x3a | 0xa9) => 4,
                _ => return Err(ClassFormatError::Wide(pc)),
            },
            0xaa | 0xab => {
                let start = (pc + 4) & !3;
                let end = if op == 0xaa {
                    let (low, high) = (i32_at(start + 4)?, i32_at(start + 8)?);
                    if low > high {
                        return Err(ClassFormatError::SwitchBounds(pc));
                    }
                    start as i64 + 12 + 4 * (high - low + 1)
                } else {
                    let pairs = i32_at(start + 4)?;
                    if pairs < 0 {
                        return Err(ClassFormatError::SwitchCount(pc));
                    }
                    start as i64 + 8 + 8 * pairs
                };
                usize::try_from(end - pc as i64)?
            }
            _ => return Err(ClassFormatError::Opcode { op, pc }),
        };
        if pc + len > code.len() {
            return Err(ClassFormatError::PastEnd(pc));
        }
        let effect = match op {
            0x4f..=0x56 => Some(ARRAY_STORES[usize::from(op - 0x4f)]),
            0xb3 => Some("putstatic"),
            0xb5 => Some("putfield"),
            0xc2 => Some("monitorenter"),
            0xba => Some("invokedynamic"),
            _ => None,
        };
        if out.effect.is_none() {
            out.effect = effect;
        }
        out.effects.extend(effect);
        let index = || u16::from_be_bytes([code[pc + 1], code[pc + 2]]);
        match op {
            0xb2 => out.static_reads.push(pool.member(index())?.owner),
            0xb3 => out.static_writes.push(pool.member(index())?.owner),
            0xb5 => out.field_writes.push(pool.member(index())?.owner),
            0xbb => out.news.push(pool.class(index())?.to_string()),
            _ => {}
        }
        let kind = match op {
            0xb6 => Some(InvokeKind::Virtual),
            0xb7 => Some(InvokeKind::Special),
            0xb8 => Some(InvokeKind::Static),
            0xb9 => Some(InvokeKind::Interface),
            _ => None,
        };
        let mut insn = escape::Insn::new(pc, op);
        insn.local = escape::local_of(code, pc);
        if op == 0xc4 {
            // `wide`: the opcode and a two-byte local index follow.
            insn.op = code[pc + 1];
            insn.local = matches!(insn.op, 0x19 | 0x3a)
                .then(|| u16::from_be_bytes([code[pc + 2], code[pc + 3]]));
        }
        if op == 0xbb {
            insn.class = Some(pool.class(index())?.to_string());
        }
        if op == 0xba {
            match pool.get(index())? {
                Const::InvokeDynamic(b, _) => out.bootstraps.push(*b),
                _ => return Err(not_a(index(), "InvokeDynamic")),
            }
        }
        if let Some(kind) = kind {
            let member = pool.member(index())?;
            if matches!(kind, InvokeKind::Special | InvokeKind::Virtual) {
                insn.class = Some(member.owner.clone());
                insn.method = Some(member.name.clone());
            }
            if member.descriptor.ends_with(';') || member.descriptor.contains(")[") {
                calls.push((insns.len(), (kind, member.clone())));
            }
            out.invokes.push((kind, member));
        }
        insns.push(insn);
        pc += len;
    }
    out.invokes.sort();
    out.invokes.dedup();
    for (i, call) in calls {
        insns[i].call = out.invokes.binary_search(&call).ok();
    }
    let escapes = escape::analyse(&insns, handlers, out.invokes.len());
    out.kept = escapes.kept;
    out.returned = escapes.returned;
    out.result_kept = escapes.result_kept;
    out.result_returned = escapes.result_returned;
    out.effects.sort_unstable();
    out.effects.dedup();
    out.bootstraps.sort_unstable();
    out.bootstraps.dedup();
    for list in [
        &mut out.static_reads,
        &mut out.static_writes,
        &mut out.field_writes,
        &mut out.news,
    ] {
        list.sort();
        list.dedup();
    }
    Ok(out)
}

#[cfg(test)]
#[path = "classfile_tests.rs"]
pub(crate) mod tests;
