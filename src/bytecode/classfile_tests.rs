//! Tests of the class-file reader, and the javac helper other scan tests compile with.

use super::*;

/// Compiles Java sources (`(file name, text)`) with `javac --release 8` into `<dir>/classes`.
pub(crate) fn compile(sources: &[(&str, &str)]) -> tempfile::TempDir {
    compile_with(sources, &[])
}

/// [`compile`] with a class path.
pub(crate) fn compile_with(sources: &[(&str, &str)], class_path: &[PathBuf]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let (src, out) = (dir.path().join("src"), dir.path().join("classes"));
    std::fs::create_dir_all(&src).unwrap();
    let files: Vec<PathBuf> = sources
        .iter()
        .map(|(name, text)| {
            std::fs::write(src.join(name), text).unwrap();
            src.join(name)
        })
        .collect();
    let home = crate::toolchain::find_jdk().expect("a JDK");
    let run = std::process::Command::new(home.join("bin/javac"))
        .args(["--release", "8", "-nowarn", "-d"])
        .arg(&out)
        .arg("-cp")
        .arg(std::env::join_paths(class_path).unwrap())
        .args(&files)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    dir
}

#[test]
fn arity_counts_parameters() {
    assert_eq!(arity("()V"), Some(0));
    assert_eq!(arity("(IJ[[Ljava/lang/String;D[I)V"), Some(5));
    assert_eq!(arity("(Ljava/lang/String"), None);
    assert_eq!(arity("(Q)V"), None);
}

#[test]
fn instruction_lengths_of_rare_instructions() {
    let pool = Pool(vec![Const::Unused]);
    #[rustfmt::skip]
    let code = [
        0x00,                                     // nop: tableswitch at 1 pads 2 bytes
        0xaa, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 5,
        0xab, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 3, // at 24: pads 3
        0xc4, 0x84, 0, 1, 0, 5,                   // wide iinc
        0xc4, 0x15, 1, 0,                         // wide iload
        0xc8, 0, 0, 0, 0, 0xc9, 0, 0, 0, 0,       // goto_w, jsr_w
        0xc5, 0, 1, 2, 0xbc, 10, 0x14, 0, 1,      // multianewarray, newarray, ldc2_w
        0x4f,                                     // iastore
    ];
    let facts = walk(&code, &[], &pool).unwrap();
    assert_eq!(facts.effect, Some("iastore"));
    assert!(walk(&code[..20], &[], &pool).is_err());
    assert!(walk(&[0xc4, 0x10], &[], &pool).is_err());
    assert!(walk(&[0xe0], &[], &pool).is_err());
}

#[test]
fn a_truncated_class_file_is_an_error_naming_it() {
    let dir = compile(&[("A.java", "class A { int f() { return 1; } }")]);
    let class = dir.path().join("classes/A.class");
    let bytes = std::fs::read(&class).unwrap();
    assert_eq!(
        read_class_path(&[dir.path().join("classes")])
            .unwrap()
            .len(),
        1
    );
    std::fs::write(&class, &bytes[..bytes.len() / 2]).unwrap();
    let err = read_class_path(&[dir.path().join("classes")]).unwrap_err();
    assert!(
        err.to_string().contains("classes/A.class: truncated"),
        "{err}"
    );

    let jar = dir.path().join("a.jar");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&jar).unwrap());
    zip.start_file("q/A.class", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut zip, &bytes[..100]).unwrap();
    zip.finish().unwrap();
    let err = read_class_path(&[jar]).unwrap_err();
    assert!(err.to_string().contains("a.jar!/q/A.class: "), "{err}");
    assert!(parse(b"\xCA\xFE\xBA\xBE").is_err());
    assert!(parse(b"not a class").is_err());
}
