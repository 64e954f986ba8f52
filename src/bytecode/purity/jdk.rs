//! The JDK allowlist of the purity analysis: which JDK methods change no state, and which of
//! them may call back into project code (`equals`, `compareTo`, functional interfaces).

use std::collections::HashSet;
use std::sync::OnceLock;

const MATH: &str = "IEEEremainder/2 abs/1 absExact/1 acos/1 addExact/2 asin/1 atan/1 atan2/2 \
    cbrt/1 ceil/1 copySign/2 cos/1 cosh/1 decrementExact/1 exp/1 expm1/1 floor/1 floorDiv/2 \
    floorMod/2 fma/3 getExponent/1 hypot/2 incrementExact/1 log/1 log10/1 log1p/1 max/2 min/2 \
    multiplyExact/2 multiplyFull/2 multiplyHigh/2 negateExact/1 nextAfter/2 nextDown/1 nextUp/1 \
    pow/2 rint/1 round/1 scalb/2 signum/1 sin/1 sinh/1 sqrt/1 subtractExact/2 tan/1 tanh/1 \
    toDegrees/1 toIntExact/1 toRadians/1 ulp/1";
const BOXED: &str = "byteValue/0 compare/2 compareTo/1 compareUnsigned/2 decode/1 doubleValue/0 \
    equals/1 floatValue/0 hashCode/0,1 intValue/0 longValue/0 shortValue/0 toString/0,1,2 \
    valueOf/1,2 max/2 min/2 sum/2 signum/1 bitCount/1 reverse/1 reverseBytes/1 highestOneBit/1 \
    lowestOneBit/1 numberOfLeadingZeros/1 numberOfTrailingZeros/1 rotateLeft/2 rotateRight/2 \
    toBinaryString/1 toHexString/1 toOctalString/1 toUnsignedString/1,2 toUnsignedInt/1 \
    toUnsignedLong/1 divideUnsigned/2 remainderUnsigned/2 parseInt/1,2,4 parseLong/1,2,4 \
    parseShort/1,2 parseByte/1,2 parseUnsignedInt/1,2,4 parseUnsignedLong/1,2,4 isNaN/0,1 \
    isInfinite/0,1 isFinite/1 floatToIntBits/1 floatToRawIntBits/1 intBitsToFloat/1 \
    doubleToLongBits/1 doubleToRawLongBits/1 longBitsToDouble/1 parseFloat/1 parseDouble/1 \
    booleanValue/0 parseBoolean/1 logicalAnd/2 logicalOr/2 logicalXor/2 getInteger/1,2 getLong/1,2";
const CHARACTER: &str = "charCount/1 charValue/0 codePointAt/2,3 codePointBefore/2,3 \
    codePointCount/3 compare/2 compareTo/1 digit/2 equals/1 forDigit/2 getNumericValue/1 \
    getType/1 hashCode/0,1 highSurrogate/1 isAlphabetic/1 isBmpCodePoint/1 isDefined/1 \
    isDigit/1 isHighSurrogate/1 isISOControl/1 isJavaIdentifierPart/1 isJavaIdentifierStart/1 \
    isLetter/1 isLetterOrDigit/1 isLowSurrogate/1 isLowerCase/1 isSpaceChar/1 \
    isSupplementaryCodePoint/1 isSurrogate/1 isSurrogatePair/2 isTitleCase/1 isUpperCase/1 \
    isValidCodePoint/1 isWhitespace/1 lowSurrogate/1 offsetByCodePoints/3,5 toChars/1 \
    toCodePoint/2 toLowerCase/1 toString/0,1 toTitleCase/1 toUpperCase/1 valueOf/1";
const STRING: &str = "charAt/1 chars/0 codePointAt/1 codePointBefore/1 codePointCount/2 \
    codePoints/0 compareTo/1 compareToIgnoreCase/1 concat/1 contains/1 contentEquals/1 \
    copyValueOf/1,3 endsWith/1 equals/1 equalsIgnoreCase/1 format/2,3 formatted/1 getBytes/0,1 \
    hashCode/0 indent/1 indexOf/1,2 intern/0 isBlank/0 isEmpty/0 join/2 lastIndexOf/1,2 \
    length/0 lines/0 matches/1 offsetByCodePoints/2 regionMatches/4,5 repeat/1 replace/2 \
    replaceAll/2 replaceFirst/2 split/1,2 startsWith/1,2 strip/0 stripIndent/0 stripLeading/0 \
    stripTrailing/0 subSequence/2 substring/1,2 toCharArray/0 toLowerCase/0,1 toString/0 \
    toUpperCase/0,1 translateEscapes/0 trim/0 valueOf/1,3";
const LIST: &str = "size/0 isEmpty/0 get/1 contains/1 indexOf/1 lastIndexOf/1";
// `get` is not pure for every `Map`: an access-ordered `LinkedHashMap` (a `HashMap` too) moves
// the entry read to the end of its iteration order. Only `TreeMap`, which no JDK class extends,
// keeps it.
const MAP: &str = "size/0 isEmpty/0 containsKey/1 containsValue/1";
const TREE_MAP: &str = "size/0 isEmpty/0 get/1 containsKey/1 containsValue/1";
const SET: &str = "size/0 isEmpty/0 contains/1";
const OBJECTS: &str =
    "equals/2 hash/1 hashCode/1 isNull/1 nonNull/1 requireNonNull/1,2 toString/1,2";

/// The JDK allowlist, the one place that says which JDK methods (never on the project class
/// path) are pure: `(class, public methods as name/arity, notes)`. Notes: `*`: every method is
/// pure, not just the listed ones; `-name/arity`: except this one, which changes state;
/// `?name`: may call `equals`, `hashCode`, `toString`, `compareTo`, `compare` or `CharSequence`
/// methods of project objects passed in or stored; `!name`: may also call lambdas; `final`: the
/// class is final (no class can override its methods); `interface`: it is an interface (a
/// `java.lang.reflect.Proxy` can implement it). Every other class is open: a call of one of its
/// methods is pure only while no class on the class path overrides the method impurely and no
/// runtime subclass generator is there.
const JDK: &[(&str, &str, &str)] = &[
    ("java/lang/Math", MATH, "final * -random/0"),
    ("java/lang/StrictMath", MATH, "final * -random/0"),
    (
        "java/lang/String",
        STRING,
        "final * -getChars/4 -getBytes/4 -transform/1 -intern/0 \
        -resolveConstantDesc/1 ?contains ?contentEquals ?format ?formatted ?join ?replace ?valueOf",
    ),
    (
        "java/lang/Integer",
        BOXED,
        "final * ?parseInt ?parseUnsignedInt",
    ),
    (
        "java/lang/Long",
        BOXED,
        "final * ?parseLong ?parseUnsignedLong",
    ),
    ("java/lang/Short", BOXED, "final *"),
    ("java/lang/Byte", BOXED, "final *"),
    (
        "java/lang/Character",
        CHARACTER,
        "final * -toChars/3 ?codePointAt ?codePointBefore \
        ?codePointCount ?offsetByCodePoints",
    ),
    ("java/lang/Boolean", BOXED, "final *"),
    ("java/lang/Float", BOXED, "final *"),
    ("java/lang/Double", BOXED, "final *"),
    (
        "java/lang/Object",
        "equals/1 hashCode/0 getClass/0 toString/0 <init>/0",
        "?toString",
    ),
    (
        "java/util/Objects",
        OBJECTS,
        "final ?equals ?hash ?hashCode ?toString !requireNonNull",
    ),
    (
        "java/lang/Enum",
        "name/0 ordinal/0 equals/1 hashCode/0 compareTo/1 toString/0 <init>/2",
        "",
    ),
    (
        "java/util/List",
        LIST,
        "interface ?contains ?indexOf ?lastIndexOf",
    ),
    (
        "java/util/ArrayList",
        LIST,
        "?contains ?indexOf ?lastIndexOf",
    ),
    (
        "java/util/LinkedList",
        LIST,
        "?contains ?indexOf ?lastIndexOf",
    ),
    (
        "java/util/Map",
        MAP,
        "interface !containsKey !containsValue",
    ),
    ("java/util/HashMap", MAP, "?containsKey ?containsValue"),
    (
        "java/util/TreeMap",
        TREE_MAP,
        "!get !containsKey !containsValue",
    ),
    ("java/util/Set", SET, "interface !contains"),
    ("java/util/HashSet", SET, "?contains"),
    ("java/util/TreeSet", SET, "!contains"),
    ("java/util/Collection", SET, "interface !contains"),
    ("java/lang/CharSequence", "length/0 charAt/1", "interface"),
    // Constructing an exception only initialises the new object (message, cause, stack trace),
    // except that `Throwable(Throwable cause)` calls `cause.toString()` and `AssertionError(Object)`
    // calls `String.valueOf(detail)`: the analysis and the weaver treat a one-argument
    // constructor whose argument is not a String or a primitive as such a call (see
    // `purity.rs` and `weave/eligible.rs`).
    ("java/lang/Throwable", EXCEPTION_INIT, ""),
    ("java/lang/Exception", EXCEPTION_INIT, ""),
    ("java/lang/RuntimeException", EXCEPTION_INIT, ""),
    ("java/lang/Error", EXCEPTION_INIT, ""),
    ("java/lang/AssertionError", EXCEPTION_INIT, ""),
    ("java/lang/IllegalStateException", EXCEPTION_INIT, ""),
    ("java/lang/IllegalArgumentException", EXCEPTION_INIT, ""),
    ("java/lang/ArithmeticException", EXCEPTION_INIT, ""),
    ("java/lang/NullPointerException", EXCEPTION_INIT, ""),
    ("java/lang/IndexOutOfBoundsException", EXCEPTION_INIT, ""),
    (
        "java/lang/ArrayIndexOutOfBoundsException",
        EXCEPTION_INIT,
        "",
    ),
    (
        "java/lang/StringIndexOutOfBoundsException",
        EXCEPTION_INIT,
        "",
    ),
    ("java/lang/NumberFormatException", EXCEPTION_INIT, ""),
    ("java/lang/ClassCastException", EXCEPTION_INIT, ""),
    (
        "java/lang/UnsupportedOperationException",
        EXCEPTION_INIT,
        "",
    ),
    (
        "java/lang/StringBuilder",
        "length/0 charAt/1 toString/0 indexOf/1,2",
        "final",
    ),
];

/// Constructors of the exception classes above.
const EXCEPTION_INIT: &str = "<init>/0 <init>/1 <init>/2";

/// Project methods the JDK may call back on objects, and in addition on function objects.
const CALLBACKS: &str = "equals/1 hashCode/0 toString/0 compareTo/1 compare/2 length/0 charAt/1 \
    subSequence/2 iterator/0 hasNext/0 next/0 formatTo/4";
const FN_CALLBACKS: &str = "get/0 apply/1 applyAsInt/1 applyAsLong/1 applyAsDouble/1";

/// Whether a pure JDK method may call back into project code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Callback {
    No,
    Objects,
    Functions,
}

pub(super) struct JdkEntry {
    pub(super) class: &'static str,
    pub(super) simple: &'static str,
    /// A final class: its methods are closed.
    pub(super) is_final: bool,
    /// An interface: `java.lang.reflect.Proxy` can implement it at run time.
    pub(super) is_interface: bool,
    all: bool,
    pub(super) methods: HashSet<(&'static str, usize)>,
    except: HashSet<(&'static str, usize)>,
    calls_back: HashSet<&'static str>,
    calls_fn: HashSet<&'static str>,
}

impl JdkEntry {
    /// `None` if the method is not known pure, else whether it may call back.
    pub(super) fn verdict(&self, name: &str, arity: usize) -> Option<Callback> {
        let known = self.all || self.methods.contains(&(name, arity));
        if !known || self.except.contains(&(name, arity)) {
            None
        } else if self.calls_fn.contains(name) {
            Some(Callback::Functions)
        } else if self.calls_back.contains(name) {
            Some(Callback::Objects)
        } else {
            Some(Callback::No)
        }
    }
}

pub(super) fn name_arities(list: &str) -> HashSet<(&str, usize)> {
    let mut out = HashSet::new();
    for item in list.split_whitespace() {
        let (name, arities) = item.split_once('/').expect("allowlist entry name/arity");
        for a in arities.split(',') {
            out.insert((name, a.parse().expect("allowlist arity")));
        }
    }
    out
}

pub(super) fn jdk() -> &'static [JdkEntry] {
    static TABLE: OnceLock<Vec<JdkEntry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        JDK.iter()
            .map(|&(class, methods, notes)| {
                let words: Vec<&str> = notes.split_whitespace().collect();
                let notes = |mark: char| -> Vec<&'static str> {
                    notes
                        .split_whitespace()
                        .filter_map(|n| n.strip_prefix(mark))
                        .collect()
                };
                JdkEntry {
                    class,
                    simple: simple_name(class),
                    is_final: words.contains(&"final"),
                    is_interface: words.contains(&"interface"),
                    all: notes('*').contains(&""),
                    methods: name_arities(methods),
                    except: notes('-').into_iter().flat_map(name_arities).collect(),
                    calls_back: notes('?').into_iter().collect(),
                    calls_fn: notes('!').into_iter().collect(),
                }
            })
            .collect()
    })
}

pub(super) fn callbacks() -> &'static [HashSet<(&'static str, usize)>; 2] {
    static SETS: OnceLock<[HashSet<(&'static str, usize)>; 2]> = OnceLock::new();
    SETS.get_or_init(|| [name_arities(CALLBACKS), name_arities(FN_CALLBACKS)])
}

pub(super) fn jdk_verdict(class: &str, name: &str, arity: usize) -> Option<Callback> {
    jdk()
        .iter()
        .find(|j| j.class == class)?
        .verdict(name, arity)
}

/// `a/b/Outer$Inner` → `Inner`.
pub(super) fn simple_name(internal: &str) -> &str {
    let s = internal.rsplit('/').next().unwrap_or(internal);
    s.rsplit('$').next().unwrap_or(s)
}

/// `java.util.List<String>` → `List`.
pub(super) fn qualifier_simple_name(q: &str) -> &str {
    let q = q
        .split('<')
        .next()
        .unwrap_or(q)
        .trim()
        .trim_end_matches("[]");
    q.rsplit('.').next().unwrap_or(q)
}
