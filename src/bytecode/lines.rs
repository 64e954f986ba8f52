//! Line numbers of a compiled class rewritten in place: every `LineNumberTable` entry of every
//! method's `Code` passed through a map, the bytes' length and everything else unchanged, so that
//! a woven class's frames can carry the plainly patched file's lines (issue 65's inline unit).

use super::constpool::{read_pool, skip_attributes, ClassFormatError, Pool, Reader};

/// A `LineNumberTable` entry's line, where it sits in the class file, and its method's name.
struct Entry {
    method: String,
    /// Byte offset of the entry's `line_number` (a big-endian u2).
    at: usize,
    line: u16,
}

/// Every line-number entry of the class, in file order.
fn entries(bytes: &[u8]) -> Result<Vec<Entry>, ClassFormatError> {
    let mut r = Reader { bytes, pos: 0 };
    if r.u4()? != 0xCAFE_BABE {
        return Err(ClassFormatError::Magic);
    }
    r.take(4)?; // minor, major
    let pool = read_pool(&mut r)?;
    r.take(6)?; // access, this, super
    let interfaces = r.u2()?;
    r.take(2 * interfaces as usize)?;
    for _ in 0..r.u2()? {
        r.take(6)?; // access, name, descriptor
        skip_attributes(&mut r)?;
    }
    let mut found = Vec::new();
    for _ in 0..r.u2()? {
        r.u2()?;
        let method = pool.utf8(r.u2()?)?.to_string();
        r.u2()?;
        each_attribute(&mut r, &pool, "Code", |start| {
            let mut c = Reader { bytes, pos: start };
            c.take(4)?; // max_stack, max_locals
            let code_length = c.u4()? as usize;
            c.take(code_length)?;
            let handlers = c.u2()? as usize;
            c.take(8 * handlers)?;
            each_attribute(&mut c, &pool, "LineNumberTable", |body| {
                let mut t = Reader { bytes, pos: body };
                for _ in 0..t.u2()? {
                    t.u2()?; // start_pc
                    let at = t.pos;
                    let line = t.u2()?;
                    found.push(Entry {
                        method: method.clone(),
                        at,
                        line,
                    });
                }
                Ok(())
            })
        })?;
    }
    Ok(found)
}

/// Reads an attribute table at `r`, calling `read` with the offset of each `wanted` attribute's
/// body.
fn each_attribute(
    r: &mut Reader,
    pool: &Pool,
    wanted: &str,
    mut read: impl FnMut(usize) -> Result<(), ClassFormatError>,
) -> Result<(), ClassFormatError> {
    for _ in 0..r.u2()? {
        let name = pool.utf8(r.u2()?)?;
        let len = r.u4()? as usize;
        let body = r.pos;
        r.take(len)?;
        if name == wanted {
            read(body)?;
        }
    }
    Ok(())
}

/// Rewrites the line of every `LineNumberTable` entry as `map(method name, line)` says (`None`
/// keeps it); returns how many entries changed. The class is left untouched when it is malformed.
pub fn rewrite(
    bytes: &mut [u8],
    mut map: impl FnMut(&str, u16) -> Option<u16>,
) -> Result<usize, ClassFormatError> {
    let found = entries(bytes)?;
    let mut changed = 0;
    for e in found {
        if let Some(line) = map(&e.method, e.line).filter(|&l| l != e.line) {
            bytes[e.at..e.at + 2].copy_from_slice(&line.to_be_bytes());
            changed += 1;
        }
    }
    Ok(changed)
}

/// The lines of each method's `LineNumberTable`, in file order: `(method, line)`.
pub fn lines(bytes: &[u8]) -> Result<Vec<(String, u16)>, ClassFormatError> {
    Ok(entries(bytes)?
        .into_iter()
        .map(|e| (e.method, e.line))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::classfile::tests::compile;

    const SRC: &str = "public class Lines {\n\
        static int f(int x) {\n\
        \x20 int y = x + 1;\n\
        \x20 if (y > 3) {\n\
        \x20   y = y * 2;\n\
        \x20 }\n\
        \x20 return y;\n\
        }\n\
        static String where() { return new Throwable().getStackTrace()[0].toString(); }\n\
        public static void main(String[] a) { System.out.println(where()); }\n\
        }\n";

    fn class() -> Vec<u8> {
        let dir = compile(&[("Lines.java", SRC)]);
        std::fs::read(dir.path().join("classes/Lines.class")).unwrap()
    }

    #[test]
    fn reads_every_methods_lines() {
        let got = lines(&class()).unwrap();
        let f: Vec<u16> = got
            .iter()
            .filter(|(m, _)| m == "f")
            .map(|&(_, l)| l)
            .collect();
        assert_eq!(f, vec![3, 4, 5, 7], "{got:?}");
        assert!(got.iter().any(|(m, l)| m == "where" && *l == 9), "{got:?}");
    }

    #[test]
    fn rewrites_in_place_and_nothing_else() {
        let before = class();
        let mut after = before.clone();
        let changed = rewrite(&mut after, |m, l| (m == "f" && l >= 5).then_some(l + 100)).unwrap();
        assert_eq!(changed, 2);
        assert_eq!(after.len(), before.len());
        let got: Vec<(String, u16)> = lines(&after).unwrap();
        let f: Vec<u16> = got
            .iter()
            .filter(|(m, _)| m == "f")
            .map(|&(_, l)| l)
            .collect();
        assert_eq!(f, vec![3, 4, 105, 107]);
        // Only the two line fields differ.
        let differing = before.iter().zip(&after).filter(|(a, b)| a != b).count();
        assert!((1..=4).contains(&differing), "{differing}");
        // Still a class file the reader accepts.
        crate::bytecode::classfile::parse(&after).unwrap();
    }

    #[test]
    fn a_running_class_reports_the_rewritten_lines() {
        let dir = compile(&[("Lines.java", SRC)]);
        let path = dir.path().join("classes/Lines.class");
        let mut bytes = std::fs::read(&path).unwrap();
        rewrite(&mut bytes, |m, l| (m == "where").then_some(l + 33)).unwrap();
        std::fs::write(&path, bytes).unwrap();
        let home = crate::toolchain::find_jdk().expect("a JDK");
        let out = std::process::Command::new(home.join("bin/java"))
            .arg("-cp")
            .arg(dir.path().join("classes"))
            .arg("Lines")
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&out.stdout);
        assert_eq!(printed.trim(), "Lines.where(Lines.java:42)", "{out:?}");
    }

    #[test]
    fn a_truncated_class_is_an_error_and_left_alone() {
        let mut bytes = class();
        bytes.truncate(bytes.len() / 2);
        let copy = bytes.clone();
        assert!(rewrite(&mut bytes, |_, l| Some(l + 1)).is_err());
        assert_eq!(bytes, copy);
    }
}
