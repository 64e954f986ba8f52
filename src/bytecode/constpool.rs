//! The class file's primitives: a big-endian byte reader, the JVM's modified UTF-8, the constant
//! pool with the lookups `classfile` makes (names, classes, member references), the vocabulary
//! `classfile` and `bootstrap` share (invoke kinds, functional methods, a descriptor's arity) and
//! what can be wrong with a class file (`ClassFormatError`); `classfile` re-exports them.

/// What is wrong with a class file (`classfile::parse`); it does not say which file. Offsets (`at`,
/// `pc`) are into the bytecode of a method.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClassFormatError {
    /// The bytes end before what they must hold; the length they have.
    #[error("truncated at byte {0}")]
    Truncated(usize),
    #[error("bad modified UTF-8 string")]
    ModifiedUtf8,
    #[error("bad constant pool index {0}")]
    PoolIndex(u16),
    /// A constant of another kind where a reference expects `expected`.
    #[error("constant {index} is not a {expected}")]
    ConstantKind { index: u16, expected: &'static str },
    #[error("unknown constant pool tag {0}")]
    PoolTag(u8),
    #[error("not a class file (bad magic number)")]
    Magic,
    #[error("unsupported class file version {0}")]
    Version(u16),
    #[error("method {method}: bad descriptor {descriptor}")]
    Descriptor { method: String, descriptor: String },
    /// The `Code` attribute of a method is malformed.
    #[error("method {method}{descriptor}: {source}")]
    Code {
        method: String,
        descriptor: String,
        source: Box<ClassFormatError>,
    },
    #[error("bad method handle kind {0}")]
    HandleKind(u8),
    #[error("bad wide instruction at {0}")]
    Wide(usize),
    #[error("switch at {0} runs past the end of the code")]
    SwitchPastEnd(usize),
    #[error("tableswitch at {0} has low > high")]
    SwitchBounds(usize),
    #[error("lookupswitch at {0} has a negative count")]
    SwitchCount(usize),
    /// A switch whose length does not fit in the code's offsets.
    #[error(transparent)]
    SwitchLength(#[from] std::num::TryFromIntError),
    #[error("unknown opcode {op:#04x} at {pc}")]
    Opcode { op: u8, pc: usize },
    #[error("instruction at {0} runs past the end of the code")]
    PastEnd(usize),
}

/// A reference to a method (or field) by owner class, name and descriptor.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MemberRef {
    pub owner: String,
    pub name: String,
    pub descriptor: String,
}

pub(super) enum Const {
    Unused,
    Utf8(String),
    Class(u16),
    NameAndType(u16, u16),
    Member(u16, u16),
    MethodHandle(u8, u16),
    /// `CONSTANT_InvokeDynamic`: bootstrap method index, NameAndType.
    InvokeDynamic(u16, u16),
    /// `CONSTANT_MethodType`: its descriptor.
    MethodType(u16),
    Other,
}

pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], ClassFormatError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(ClassFormatError::Truncated(self.bytes.len()))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    pub(super) fn u1(&mut self) -> Result<u8, ClassFormatError> {
        Ok(self.take(1)?[0])
    }
    pub(super) fn u2(&mut self) -> Result<u16, ClassFormatError> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    pub(super) fn u4(&mut self) -> Result<u32, ClassFormatError> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Decodes the JVM's modified UTF-8 (surrogates encoded separately, NUL as two bytes).
fn modified_utf8(b: &[u8]) -> Result<String, ClassFormatError> {
    if let Ok(s) = std::str::from_utf8(b) {
        return Ok(s.to_string());
    }
    let mut units = Vec::with_capacity(b.len());
    let mut i = 0;
    let cont = |j: usize| match b.get(j) {
        Some(&c) if c & 0xC0 == 0x80 => Ok(u16::from(c & 0x3F)),
        _ => Err(ClassFormatError::ModifiedUtf8),
    };
    while i < b.len() {
        let c = u16::from(b[i]);
        if c < 0x80 {
            units.push(c);
            i += 1;
        } else if c & 0xE0 == 0xC0 {
            units.push(((c & 0x1F) << 6) | cont(i + 1)?);
            i += 2;
        } else if c & 0xF0 == 0xE0 {
            units.push(((c & 0x0F) << 12) | (cont(i + 1)? << 6) | cont(i + 2)?);
            i += 3;
        } else {
            return Err(ClassFormatError::ModifiedUtf8);
        }
    }
    Ok(String::from_utf16_lossy(&units))
}

pub(super) struct Pool(pub(super) Vec<Const>);

impl Pool {
    pub(super) fn get(&self, i: u16) -> Result<&Const, ClassFormatError> {
        match self.0.get(usize::from(i)) {
            Some(Const::Unused) | None => Err(ClassFormatError::PoolIndex(i)),
            Some(c) => Ok(c),
        }
    }
    pub(super) fn utf8(&self, i: u16) -> Result<&str, ClassFormatError> {
        match self.get(i)? {
            Const::Utf8(s) => Ok(s),
            _ => Err(not_a(i, "Utf8")),
        }
    }
    pub(super) fn class(&self, i: u16) -> Result<&str, ClassFormatError> {
        match self.get(i)? {
            Const::Class(n) => self.utf8(*n),
            _ => Err(not_a(i, "Class")),
        }
    }
    pub(super) fn member(&self, i: u16) -> Result<MemberRef, ClassFormatError> {
        let Const::Member(class, nat) = self.get(i)? else {
            return Err(not_a(i, "member reference"));
        };
        let Const::NameAndType(name, desc) = self.get(*nat)? else {
            return Err(not_a(*nat, "NameAndType"));
        };
        Ok(MemberRef {
            owner: self.class(*class)?.to_string(),
            name: self.utf8(*name)?.to_string(),
            descriptor: self.utf8(*desc)?.to_string(),
        })
    }
}

pub(super) fn not_a(index: u16, expected: &'static str) -> ClassFormatError {
    ClassFormatError::ConstantKind { index, expected }
}

pub(super) fn read_pool(r: &mut Reader) -> Result<Pool, ClassFormatError> {
    let count = r.u2()?;
    let mut pool = Vec::with_capacity(usize::from(count));
    pool.push(Const::Unused);
    while pool.len() < usize::from(count) {
        let tag = r.u1()?;
        let c = match tag {
            1 => {
                let len = r.u2()?;
                Const::Utf8(modified_utf8(r.take(usize::from(len))?)?)
            }
            3 | 4 => {
                r.u4()?;
                Const::Other
            }
            5 | 6 => {
                r.take(8)?;
                pool.push(Const::Other);
                Const::Unused
            }
            7 => Const::Class(r.u2()?),
            16 => Const::MethodType(r.u2()?),
            8 | 19 | 20 => {
                r.u2()?;
                Const::Other
            }
            9..=11 => Const::Member(r.u2()?, r.u2()?),
            12 => Const::NameAndType(r.u2()?, r.u2()?),
            15 => Const::MethodHandle(r.u1()?, r.u2()?),
            17 => {
                r.u4()?;
                Const::Other
            }
            18 => Const::InvokeDynamic(r.u2()?, r.u2()?),
            _ => return Err(ClassFormatError::PoolTag(tag)),
        };
        pool.push(c);
    }
    Ok(Pool(pool))
}

/// How a method is invoked; method handles map onto the same kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InvokeKind {
    Virtual,
    Special,
    Static,
    Interface,
}

/// A functional method a lambda implements: the interface the lambda is made for, the method's
/// name and its parameter count (`usize::MAX` when the bootstrap does not say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sam {
    pub interface: String,
    pub name: String,
    pub arity: usize,
}

/// The number of parameters in a method descriptor, or `None` if it is malformed.
pub fn arity(descriptor: &str) -> Option<usize> {
    let params = descriptor.strip_prefix('(')?.split(')').next()?;
    let mut chars = params.chars();
    let mut n = 0;
    while let Some(c) = chars.next() {
        let mut c = c;
        while c == '[' {
            c = chars.next()?;
        }
        match c {
            'B' | 'C' | 'D' | 'F' | 'I' | 'J' | 'S' | 'Z' => {}
            'L' => while chars.next()? != ';' {},
            _ => return None,
        }
        n += 1;
    }
    Some(n)
}

/// Skips an attribute table (fields', methods' or the class's) the caller does not read.
pub(super) fn skip_attributes(r: &mut Reader) -> Result<(), ClassFormatError> {
    for _ in 0..r.u2()? {
        r.u2()?;
        let len = r.u4()?;
        r.take(len as usize)?;
    }
    Ok(())
}
