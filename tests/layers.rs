//! The code's layering, as DESIGN.md promises it: `scripts/layers.py` finds every module of
//! `src/` in the code map and no `crate::` path naming a module below in the data-flow order;
//! and no file of `src/` imports one that imports it back (the repository's shared
//! `import-cycles.py`, when it is beside the checkout as in CI).

use std::path::Path;
use std::process::Command;

fn python(script: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.success(), text)
}

#[test]
fn every_module_is_mapped_and_uses_only_modules_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (ok, text) = python(&root.join("scripts/layers.py"), &[]);
    assert!(ok, "{text}");
    assert!(text.contains("0 problem(s)"), "{text}");
}

#[test]
fn no_import_cycle_between_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tool = root.join("../shared/tools/import-cycles.py");
    if !tool.is_file() {
        eprintln!("{} is not beside the checkout: skipped", tool.display());
        return;
    }
    let (_, text) = python(&tool, &["src"]);
    assert!(text.trim_end().ends_with("cycles: 0"), "{text}");
}
