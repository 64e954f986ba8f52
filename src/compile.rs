//! Compiling the schemata in the worker's JVM (javax.tools, warm across sets): map each javac
//! diagnostic to the isolation unit holding it, mark those patches `C` (or alone), and keep the
//! class files javac wrote without their units, or recompile without them.

use crate::pool::protocol::Request;
use crate::pool::{PoolError, Worker};
use crate::protocol::{compile, line, overlay};
use crate::weave::{Plan, UnitKind, Woven};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where and how a worker compiles one file.
#[derive(Debug, Clone)]
pub struct CompileSetup {
    /// The woven (or patched) file is written here; its name is the file's own name.
    pub source: PathBuf,
    /// Class output, first on the test class path.
    pub overlay: PathBuf,
    /// Class path for compiling: project classes, dependencies, the agent jar.
    pub classpath: String,
    pub release: String,
    pub encoding: String,
}

/// Class path for compiling a patched or woven file: the project's classes, its dependencies,
/// the agent jar (for `Rt`).
pub fn compile_classpath(classes: &Path, deps: &[PathBuf], agent_jar: &Path) -> String {
    crate::toolchain::join_path(
        std::iter::once(classes.to_path_buf())
            .chain(deps.iter().cloned())
            .chain(std::iter::once(agent_jar.to_path_buf())),
    )
}

/// One javac error.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub line: usize,
    pub message: String,
}

impl CompileSetup {
    /// javac's options for the schemata and for a patch compiled alone. The debug information is
    /// javac's default, as plain's compile has it (`project::javac`): source and lines, no local
    /// variable table, which a helpful `NullPointerException` message would read (`"t"` for
    /// `"<local3>"`; `testdata/soundness`'s `npe_message`).
    pub(crate) fn options(&self) -> Vec<String> {
        [
            "-d",
            &self.overlay.display().to_string(),
            "-cp",
            &self.classpath,
            "--release",
            &self.release,
            "-encoding",
            &self.encoding,
            "-proc:none",
            "-implicit:none",
            "-nowarn",
            "-Xmaxerrs",
            "100000",
            "-XDshould-stop.ifError=FLOW",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    /// Writes `text` as the source file and compiles it into a fresh overlay.
    pub fn compile(&self, worker: &mut Worker, text: &str) -> Result<Vec<Diagnostic>, PoolError> {
        self.compile_with(worker, text, &[])
    }

    /// [`CompileSetup::compile`], with other files a patch changes (relative path, text),
    /// written beside the source and compiled with it.
    pub fn compile_with(
        &self,
        worker: &mut Worker,
        text: &str,
        others: &[(String, String)],
    ) -> Result<Vec<Diagnostic>, PoolError> {
        self.call(worker, text, others, Vec::new(), Vec::new())
            .map(|c| c.diagnostics)
    }

    /// One javac call on `text` (and `others`) into a fresh overlay; `prunable` names methods of
    /// `text` (first and last line) javac may leave out when every error lies inside them,
    /// `unused` methods it leaves out whenever it can (they never run).
    fn call(
        &self,
        worker: &mut Worker,
        text: &str,
        others: &[(String, String)],
        prunable: Vec<(usize, usize)>,
        unused: Vec<(usize, usize)>,
    ) -> Result<Compiled, PoolError> {
        reset_dir(&self.overlay)
            .map_err(|e| PoolError::Agent(format!("{}: {e}", self.overlay.display())))?;
        let files = write_sources(&self.source, text, others)
            .map_err(|(path, e)| PoolError::Agent(format!("{}: {e}", path.display())))?;
        let resp = worker.call(
            &Request::Compile {
                options: self.options(),
                files: files.iter().map(|f| f.display().to_string()).collect(),
                prunable,
                unused,
            },
            Some(std::time::Duration::from_secs(600)),
        )?;
        let tag = resp.lines.first().map(String::as_str);
        if tag == Some(compile::IO_ERROR) {
            let why = parse_diagnostics(&resp.lines)
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_default();
            return Err(PoolError::Agent(format!(
                "javac could not read or write its files: {why}"
            )));
        }
        Ok(Compiled {
            diagnostics: parse_diagnostics(&resp.lines),
            pruned: tag == Some(compile::PRUNED),
        })
    }
}

/// What one javac call answered.
struct Compiled {
    diagnostics: Vec<Diagnostic>,
    /// The class files were written without the prunable methods holding the errors.
    pruned: bool,
}

/// Writes a patched file at `source` and the other files its patch changes (relative path,
/// text) below `also/` beside it; returns every path written, for javac. The worker's
/// one-by-one compiles and plain's lay out their sources alike.
pub fn write_sources(
    source: &Path,
    text: &str,
    others: &[(String, String)],
) -> Result<Vec<PathBuf>, (PathBuf, std::io::Error)> {
    let also = source.with_file_name("also");
    let files = std::iter::once((source.to_path_buf(), text))
        .chain(others.iter().map(|(name, t)| (also.join(name), t.as_str())));
    let mut written = Vec::new();
    for (path, text) in files {
        path.parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|_| std::fs::write(&path, text))
            .map_err(|e| (path.clone(), e))?;
        written.push(path);
    }
    Ok(written)
}

/// Empties `dir` for a new compile and marks it with a name no earlier compile had, which the
/// agent's warm loader compares before every test: a warm loader over an older compile's classes
/// is dropped (agent `TestRunner.runTestWarm`).
fn reset_dir(dir: &Path) -> std::io::Result<()> {
    static COMPILES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    // A worker's JVM (and so its warm loader) lives within this process: pid and count suffice.
    let n = COMPILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::fs::write(
        dir.join(overlay::MARK),
        format!("{}-{n}", std::process::id()),
    )
}

/// Parses the agent's compile answer: a `protocol::compile` tag (`OK`, `ERRORS`), then
/// `path\tline\tcol\tstart\tend\tmessage`.
pub fn parse_diagnostics(lines: &[String]) -> Vec<Diagnostic> {
    lines
        .iter()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.splitn(6, line::SEPARATOR).collect();
            Diagnostic {
                line: f.get(1).and_then(|s| s.parse().ok()).unwrap_or(0),
                message: f.get(5).unwrap_or(&l.as_str()).to_string(),
            }
        })
        .collect()
}

/// The result of compiling a patch set's schemata.
#[derive(Debug, Default)]
pub struct Schemata {
    /// The compiled weave, when any patch made it through.
    pub woven: Option<Woven>,
    /// Its patches by the classes they run in (`finish`): one class, or one per line shift.
    pub classes: Vec<LineClass>,
    /// Patches that do not compile, with javac's first message.
    pub compile_errors: BTreeMap<usize, String>,
    /// Patches to validate one by one, with the reason.
    pub fallback: BTreeMap<usize, String>,
    pub javac_invocations: u32,
    pub millis: f64,
    /// The stub had to end abruptly (docs/weaving.md, compile rounds).
    pub terminal_stub: bool,
    /// The patches whose weave was too large for one compile ([`too_large`]): none of them is
    /// decided; the caller compiles them again in smaller groups. Empty when the weave had a
    /// single patch (that one goes to `fallback`).
    pub too_large: Vec<usize>,
}

/// javac's messages (`Locale.ROOT`) for a class file past one of the JVM's limits: a method's
/// code over 64 KB (the stub's switch and its `try` grow with every patch), a class's constant
/// pool over 65,535 entries, a method's locals or operand stack over 65,535 slots.
pub const JVM_LIMITS: [&str; 4] = [
    "code too large",
    "too many constants",
    "too many local variables",
    "code requires too much stack",
];

/// Whether a javac message says the weave is too large for one compile: the class file would be
/// past one of the JVM's limits ([`JVM_LIMITS`]), or javac ran out of the worker's heap on it.
pub fn too_large(message: &str) -> bool {
    JVM_LIMITS.iter().any(|m| message.contains(m)) || message.contains("java.lang.OutOfMemoryError")
}

/// The class files below `dir`.
fn class_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "class"))
        .map(|e| e.into_path())
        .collect()
}

/// Writes the class files below `from` to the same place below `to` (`to` itself when `from`
/// is), each `LineNumberTable` passed through `line` (`bytecode::lines`); whether every class
/// was (and there was one).
fn lines_rewritten(from: &Path, to: &Path, line: impl Fn(usize) -> Option<usize>) -> bool {
    let classes = class_files(from);
    let all = classes.iter().all(|path| {
        let target = to.join(path.strip_prefix(from).unwrap_or(path));
        let done = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|mut bytes| {
                crate::bytecode::lines::rewrite(&mut bytes, |_, l| {
                    line(usize::from(l)).and_then(|n| u16::try_from(n).ok())
                })
                .map_err(|e| e.to_string())?;
                target
                    .parent()
                    .map_or(Ok(()), std::fs::create_dir_all)
                    .and_then(|_| std::fs::write(&target, bytes))
                    .map_err(|e| e.to_string())
            });
        if let Err(why) = &done {
            tracing::warn!("{}: line numbers left as woven: {why}", path.display());
        }
        done.is_ok()
    });
    all && !classes.is_empty()
}

/// A group's woven patches that run in one compile's classes, and where those classes are.
#[derive(Debug, Clone)]
pub struct LineClass {
    pub overlay: PathBuf,
    pub patches: Vec<usize>,
}

/// The compiled weave made ready to run, in the classes its patches run in. Every woven patch
/// moving the lines alike (`FrameMap::common_shift`: the lines after the location, and those
/// its edits of comments elsewhere move), the classes get the plainly patched files' line
/// numbers in place (`FrameMap::plain_line`). Where they do not and a frame's line may reach an
/// outcome (`lines_read`), each way of moving them gets a copy of the classes with its patched
/// files' lines (`FrameMap::plain_line_at`) in a directory of its own beside the overlay, its
/// patches run there: one compile, as many line tables as shifts. Elsewhere the classes keep the woven
/// lines, failure details mapped back per patch (`FrameMap::rewrite`); an inline patch, whose
/// own frames must carry plain's lines, goes to `fallback` when they cannot be.
fn finish(
    setup: &CompileSetup,
    plan: &Plan,
    mut woven: Woven,
    fallback: &mut BTreeMap<usize, String>,
    lines_read: bool,
) -> (Woven, Vec<LineClass>) {
    const NOT_PLAIN: &str = "its frames' lines could not be plain's";
    let overlay = &setup.overlay;
    if woven.frames.common_shift().is_some() {
        let frames = &woven.frames;
        woven.frames.rewritten = lines_rewritten(overlay, overlay, |l| frames.plain_line(l));
    } else if lines_read {
        let mut classes = Vec::new();
        for (n, (shift, patches)) in woven.frames.by_shift().into_iter().enumerate() {
            let name = format!("{}-{}", file_name(overlay), n + 1);
            let dir = overlay.with_file_name(name);
            let frames = &woven.frames;
            let done = reset_dir(&dir).is_ok()
                && lines_rewritten(overlay, &dir, |l| frames.plain_line_at(&shift, l));
            if done {
                classes.push(LineClass {
                    overlay: dir,
                    patches,
                });
            } else {
                fallback.extend(patches.into_iter().map(|i| (i, NOT_PLAIN.to_string())));
            }
        }
        woven.frames.rewritten = true;
        woven.patches.retain(|i| !fallback.contains_key(i));
        return (woven, classes);
    }
    if !woven.frames.rewritten {
        woven.patches.retain(|&i| {
            let inline = plan.inline[i].is_some();
            if inline {
                fallback.insert(i, NOT_PLAIN.into());
            }
            !inline
        });
    }
    let class = LineClass {
        overlay: overlay.clone(),
        patches: woven.patches.clone(),
    };
    (woven, vec![class])
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Weaves the patches `include` of `plan` and compiles until the schemata compile cleanly
/// (normally one or two javac calls). A weave past the JVM's limits ends it with the patches
/// still included in [`Schemata::too_large`]. `terminal` starts with the stub that ends
/// abruptly (an earlier group of the set needed it). `lines_read`: a frame's line may reach an
/// outcome, so patches that move the lines differently run in classes of their own line table
/// (`finish`).
pub fn compile_schemata(
    worker: &mut Worker,
    setup: &CompileSetup,
    plan: &Plan,
    mut include: Vec<usize>,
    terminal: bool,
    lines_read: bool,
) -> Result<Schemata, PoolError> {
    let started = Instant::now();
    let mut out = Schemata::default();
    let mut with_context = true;
    let mut terminal = terminal || plan.site.ends_method;
    while !include.is_empty() {
        let woven = match plan.weave(&include, with_context, terminal, 0) {
            Ok(w) => w,
            Err(e) => {
                for i in include.drain(..) {
                    out.fallback.insert(i, format!("weaving failed: {e}"));
                }
                break;
            }
        };
        out.javac_invocations += 1;
        // Generated methods, context copies and added methods, not an inline patch's statements
        // nor its code in another method.
        let prunable = woven
            .units
            .iter()
            .filter(|u| match u.kind {
                UnitKind::Patch => plan.inline[u.patch].is_none(),
                UnitKind::Branch => false,
                UnitKind::Context | UnitKind::Helper => true,
            })
            .map(|u| (*u.lines.start(), *u.lines.end()))
            .collect();
        // Context copies never run: left out of the class files (as from round 2's), which then
        // hold no method plain's have not but the private generated ones.
        let unused = woven
            .units
            .iter()
            .filter(|u| u.kind == UnitKind::Context)
            .map(|u| (*u.lines.start(), *u.lines.end()))
            .collect();
        let call_started = Instant::now();
        let compiled = setup.call(worker, &woven.text, &[], prunable, unused)?;
        tracing::debug!(
            "javac call {} on {}: {:.0} ms ({:.0} ms since the group's weaving began)",
            out.javac_invocations,
            setup.source.display(),
            call_started.elapsed().as_secs_f64() * 1000.0,
            started.elapsed().as_secs_f64() * 1000.0
        );
        let diags = compiled.diagnostics;
        if diags.is_empty() {
            let (woven, classes) = finish(setup, plan, woven, &mut out.fallback, lines_read);
            (out.woven, out.classes) = (Some(woven), classes);
            break;
        }
        let mut outside = Vec::new();
        let mut removed = false;
        for d in &diags {
            match woven.unit_at(d.line) {
                Some(u) if u.kind == UnitKind::Context => {
                    out.fallback.remove(&u.patch);
                    out.compile_errors
                        .entry(u.patch)
                        .or_insert_with(|| d.message.clone());
                    removed = true;
                }
                Some(u) => {
                    let what = match u.kind {
                        UnitKind::Helper => "a method it adds",
                        UnitKind::Branch => "its version of another method, woven there,",
                        _ => "its generated method",
                    };
                    if !out.compile_errors.contains_key(&u.patch) {
                        out.fallback
                            .entry(u.patch)
                            .or_insert_with(|| format!("{what} does not compile: {}", d.message));
                    }
                    removed = true;
                }
                None => outside.push(d),
            }
        }
        include.retain(|i| !out.compile_errors.contains_key(i) && !out.fallback.contains_key(i));
        if compiled.pruned && outside.is_empty() {
            // javac wrote the classes without the methods that hold the errors, as it writes
            // them for the survivors' weave (docs/weaving.md, compile rounds): no second call.
            if include.is_empty() {
                break;
            }
            let mut woven = woven;
            woven.patches.retain(|i| include.contains(i));
            woven.frames.shifts.retain(|(i, _)| include.contains(i));
            // Their lines are plain's whatever the survivors' shifts: one class, or a copy per
            // shift (`finish`; an inline patch makes `lines_read`).
            let (woven, classes) = finish(setup, plan, woven, &mut out.fallback, lines_read);
            (out.woven, out.classes) = (Some(woven), classes);
            break;
        }
        if removed {
            // Every remaining patch was judged by its context copy: recompile without them.
            with_context = false;
            continue;
        }
        if include.len() > 1 && outside.iter().any(|d| too_large(&d.message)) {
            out.too_large = std::mem::take(&mut include);
            break;
        }
        if !terminal && plan.site.last_in_block {
            terminal = true;
            continue;
        }
        let first = outside
            .first()
            .map(|d| format!("line {}: {}", d.line, d.message))
            .unwrap_or_default();
        for i in include.drain(..) {
            out.fallback
                .insert(i, format!("the schemata do not compile ({first})"));
        }
    }
    out.terminal_stub = terminal;
    out.millis = started.elapsed().as_secs_f64() * 1000.0;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol;

    #[test]
    fn diagnostics_parse() {
        let d = parse_diagnostics(&[
            compile::ERRORS.into(),
            protocol::join(&["/x/A.java", "12", "5", "100", "110", "cannot find symbol"]),
        ]);
        assert_eq!(
            d,
            vec![Diagnostic {
                line: 12,
                message: "cannot find symbol".into()
            }]
        );
        assert!(parse_diagnostics(&[compile::OK.into()]).is_empty());
    }
}
