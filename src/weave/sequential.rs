//! The vocabulary of tree eligibility (`eligible`, `names`): why a woven patch runs sequentially
//! (`Sequential`), the fields of the class a patch may assign, the purity `Oracle` eligibility
//! consults, and the value types (primitives, boxes, `String`) whose state it can compare.

/// Why a woven patch runs sequentially (one round of its own) rather than through the
/// state-transition tree; the message counts in `extra.sequential_reasons`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Sequential {
    /// The run does not deduplicate (`Plan::enable_tree` was not called).
    #[error("deduplication is off")]
    DedupOff,
    /// The patch is not woven at all (why, as `Plan::excluded` says).
    #[error("not woven: {0}")]
    NotWoven(String),
    /// It runs inline in the enclosing method (`Plan::inline`), never through the tree.
    #[error("it runs inline: {0}")]
    Inline(String),
    #[error("does not parse")]
    DoesNotParse,
    #[error("it holds a loop")]
    Loop,
    #[error("it creates an object")]
    CreatesObject,
    #[error("it holds a lambda or a class")]
    LambdaOrClass,
    #[error("it holds a try or synchronized block")]
    TryOrSynchronized,
    /// It calls a method (by name) that may change state.
    #[error("it calls `{0}`, which may change state")]
    ImpureCall(String),
    /// It reads a name declared outside the class that may initialise a class with effects.
    #[error("it reads `{0}`, which may initialise a class whose initialiser has effects")]
    StaticRead(String),
    /// It assigns a local or field whose type is not a value type.
    #[error("it assigns `{name}` of type {ty}")]
    AssignsReference { name: String, ty: String },
    #[error("it assigns a field of another object")]
    ForeignField,
    #[error("it assigns an array element or other location")]
    OtherTarget,
    #[error("it assigns final field `{0}`")]
    FinalField(String),
    #[error("it assigns `{0}`, not a field of this class")]
    NotAField(String),
    /// It returns a value of this (not value) type.
    #[error("it returns a {0}")]
    Returns(String),
    /// It uses a class (by simple name) whose initialiser has effects.
    #[error("it uses class `{0}`, whose initialiser has effects")]
    ClassInit(String),
    /// It throws a new exception whose constructor may change state.
    #[error("it constructs `{0}`, which may change state")]
    ImpureConstructor(String),
    #[error("it converts a value to a string, which may call a `toString()` that changes state")]
    ToString,
    /// It assigns a static field, and no name of the enclosing class can be written here.
    #[error("it assigns static field `{0}` of a class that cannot be named here")]
    UnnameableStatic(String),
}

/// A field of the enclosing class that a patch may assign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: String,
    pub is_static: bool,
}

/// What eligibility asks of the purity analysis (`project::purity::Purity`).
pub trait Oracle {
    /// Whether a call `qualifier.name(arity args)` (`qualifier`: a class simple name or a
    /// declared type; `None`: unknown receiver; `name` `<init>`: a constructor) changes no state,
    /// whatever class the receiver turns out to be.
    fn call_is_pure(&self, qualifier: Option<&str>, name: &str, arity: usize) -> bool;
    /// Whether initialising the class of this simple name can have no effect a test could see.
    fn init_is_safe(&self, class: &str) -> bool;
    /// Whether reading a static field of this name declared outside the enclosing class cannot
    /// initialise a class whose initialiser has effects.
    fn static_read_is_safe(&self, field: &str) -> bool;
}

impl Oracle for crate::bytecode::purity::Purity {
    fn call_is_pure(&self, qualifier: Option<&str>, name: &str, arity: usize) -> bool {
        crate::bytecode::purity::Purity::call_is_pure(self, qualifier, name, arity)
    }
    fn init_is_safe(&self, class: &str) -> bool {
        crate::bytecode::purity::Purity::init_is_safe(self, class)
    }
    fn static_read_is_safe(&self, field: &str) -> bool {
        crate::bytecode::purity::Purity::static_read_is_safe(self, field)
    }
}

/// A bare call oracle, for tests of weaving that do not depend on the class path: every class
/// initialisation counts as safe.
impl<F: Fn(Option<&str>, &str, usize) -> bool> Oracle for F {
    fn call_is_pure(&self, qualifier: Option<&str>, name: &str, arity: usize) -> bool {
        self(qualifier, name, arity)
    }
    fn init_is_safe(&self, _class: &str) -> bool {
        true
    }
    fn static_read_is_safe(&self, _field: &str) -> bool {
        true
    }
}

/// The purity oracle eligibility consults.
pub type PurityOracle<'a> = &'a dyn Oracle;

const VALUE_TYPES: &[&str] = &[
    "int",
    "long",
    "short",
    "byte",
    "char",
    "boolean",
    "float",
    "double",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Character",
    "Boolean",
    "Float",
    "Double",
    "String",
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Short",
    "java.lang.Byte",
    "java.lang.Character",
    "java.lang.Boolean",
    "java.lang.Float",
    "java.lang.Double",
    "java.lang.String",
];

/// A type whose values can be copied, compared by value and restored.
pub fn is_value_type(ty: &str) -> bool {
    VALUE_TYPES.contains(&ty.trim())
}
