//! The project under validation: source and test roots, class path, Java release and JVM options,
//! built from flags, a `patchval.toml` in the project, or the Maven standard layout (`maven`),
//! or a Defects4J checkout (`defects4j`); the javac command (`javac`).

pub mod defects4j;
pub mod javac;
pub mod maven;

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Problems with the project or the environment.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("{0}: not a directory")]
    NotADir(PathBuf),
    #[error("{path}: {message}")]
    Config { path: PathBuf, message: String },
    #[error("cannot find the {what} of {root}: pass {flag} or write it in patchval.toml")]
    Undetected {
        what: &'static str,
        root: PathBuf,
        flag: &'static str,
    },
    #[error("the project does not compile ({what}); first errors:\n{errors}")]
    DoesNotCompile { what: String, errors: String },
    #[error("javac could not compile {what}: {why}")]
    Javac { what: String, why: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ProjectError + '_ {
    move |source| ProjectError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The project model, with absolute paths.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Project {
    pub root: PathBuf,
    pub source_dirs: Vec<PathBuf>,
    pub test_dirs: Vec<PathBuf>,
    /// Resource directories copied beside the compiled classes.
    pub resource_dirs: Vec<PathBuf>,
    pub test_resource_dirs: Vec<PathBuf>,
    /// Dependencies (jars and class directories) for compiling and running.
    pub classpath: Vec<PathBuf>,
    /// `--release` for javac.
    pub release: String,
    pub encoding: String,
    /// Extra options for the JVMs that run the tests.
    pub jvm_options: Vec<String>,
    /// Tests left out, as glob patterns over `Class#method` or `Class` (e.g. a test that cannot pass
    /// in this environment, or a suite class that re-runs other tests).
    #[serde(default)]
    pub exclude_tests: Vec<String>,
    /// Test source files left out of the test compile, as globs over the path below a test
    /// directory (`**/BenchmarkTest*`, `org/x/NeedsMissingJar.java`): Maven's `<testExcludes>`.
    #[serde(default)]
    pub exclude_test_sources: Vec<String>,
    /// Main source files left out of the compile, the same way (the compiler plugin's
    /// `<excludes>`: code that needs what is not there, e.g. an unpackaged library).
    #[serde(default)]
    pub exclude_sources: Vec<String>,
    /// The test classes a harness runs, by file (Defects4J's `all.manual.tests`); `None`: every
    /// test class found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_fileset: Option<TestFileset>,
}

/// An Ant fileset naming the test classes to run: patterns ending in `.java` match the source
/// path of a top-level test class below a test directory (`org/x/FooTest.java`), the others its
/// class file's path (`org/x/FooTest.class`); `*` stays within a directory, `**/` spans any
/// number of them. A class is run when some include matches and no exclude does.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TestFileset {
    /// What the fileset is (for messages): `Defects4J's all.manual.tests for Math`.
    pub name: String,
    pub include: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
}

impl TestFileset {
    /// Why the test class `class` (a binary name) is not run, or `None` when it is.
    pub fn leaves_out(&self, class: &str) -> Option<String> {
        let top = class.split('$').next().unwrap_or(class).replace('.', "/");
        let opts = glob::MatchOptions {
            require_literal_separator: true,
            ..glob::MatchOptions::new()
        };
        let matches = |pattern: &String| {
            let path = if pattern.ends_with(".java") {
                format!("{top}.java")
            } else {
                format!("{}.class", class.replace('.', "/"))
            };
            // Ant's `**/` also matches no directory at all.
            let bare = pattern.strip_prefix("**/");
            [Some(pattern.as_str()), bare]
                .into_iter()
                .flatten()
                .any(|p| glob::Pattern::new(p).is_ok_and(|g| g.matches_with(&path, opts)))
        };
        if let Some(p) = self.exclude.iter().find(|p| matches(p)) {
            return Some(format!("left out by `{p}` of {}", self.name));
        }
        if !self.include.iter().any(matches) {
            return Some(format!(
                "not in {} (it includes {})",
                self.name,
                self.include.join(", ")
            ));
        }
        None
    }
}

impl Project {
    /// The exclusion pattern matching a test, if any.
    pub fn excluded_by(&self, class: &str, method: &str) -> Option<&str> {
        let id = format!("{class}#{method}");
        self.exclude_tests
            .iter()
            .find(|p| glob::Pattern::new(p).is_ok_and(|g| g.matches(&id) || g.matches(class)))
            .map(String::as_str)
    }

    /// The test sources to compile, and those left out with the pattern that left each out.
    pub fn test_sources(&self) -> (Vec<PathBuf>, Vec<(PathBuf, &str)>) {
        sources_less(&self.test_dirs, &self.exclude_test_sources)
    }

    /// The main source files to compile, and those left out with the pattern that left each
    /// out (`exclude_sources`).
    pub fn main_sources(&self) -> (Vec<PathBuf>, Vec<(PathBuf, &str)>) {
        sources_less(&self.source_dirs, &self.exclude_sources)
    }
}

/// The Java files below `dirs`, less those whose path below their directory matches one of
/// `excluded` (returned with the pattern).
fn sources_less<'a>(
    dirs: &[PathBuf],
    excluded: &'a [String],
) -> (Vec<PathBuf>, Vec<(PathBuf, &'a str)>) {
    let patterns: Vec<(glob::Pattern, &str)> = excluded
        .iter()
        .filter_map(|p| glob::Pattern::new(p).ok().map(|g| (g, p.as_str())))
        .collect();
    // Ant-like: `*` stays within one directory, `**/` spans any number of them.
    let opts = glob::MatchOptions {
        require_literal_separator: true,
        ..glob::MatchOptions::new()
    };
    let (mut kept, mut left) = (Vec::new(), Vec::new());
    for dir in dirs {
        for file in javac::sources(std::slice::from_ref(dir)) {
            let rel = file.strip_prefix(dir).unwrap_or(&file).to_path_buf();
            match patterns
                .iter()
                .find(|(g, _)| g.matches_path_with(&rel, opts))
            {
                Some((_, p)) => left.push((file, *p)),
                None => kept.push(file),
            }
        }
    }
    (kept, left)
}

/// `patchval.toml`, all fields optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    src: Option<Vec<String>>,
    test: Option<Vec<String>>,
    classpath: Option<Vec<String>>,
    release: Option<String>,
    encoding: Option<String>,
    jvm_options: Option<Vec<String>>,
    exclude: Option<Vec<String>>,
    exclude_test_sources: Option<Vec<String>>,
    exclude_sources: Option<Vec<String>>,
    /// Resource directories copied beside the classes (default `src/main/resources` where it
    /// exists); a source directory may be one (its Java files are compiled, the rest copied).
    resources: Option<Vec<String>>,
    test_resources: Option<Vec<String>>,
}

/// The directories `patchval.toml` names below `root`, each of which must exist.
fn dirs_of(root: &Path, cfg_path: &Path, dirs: Vec<String>) -> Result<Vec<PathBuf>, ProjectError> {
    dirs.into_iter()
        .map(|d| {
            let full = root.join(&d);
            if full.is_dir() {
                Ok(full)
            } else {
                Err(ProjectError::Config {
                    path: cfg_path.to_path_buf(),
                    message: format!(
                        "resource directory {d} is not a directory below {}",
                        root.display()
                    ),
                })
            }
        })
        .collect()
}

/// What the user said on the command line.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub src: Vec<String>,
    pub test: Vec<String>,
    pub classpath: Vec<String>,
    pub release: Option<String>,
    pub jvm_options: Vec<String>,
    pub exclude_tests: Vec<String>,
    pub exclude_test_sources: Vec<String>,
}

impl Overrides {
    /// Applies the flags that make sense on a model read from elsewhere (Maven, Defects4J):
    /// the release, extra JVM options, extra class path entries.
    pub fn apply(&self, project: &mut Project) {
        if let Some(r) = &self.release {
            project.release = r.clone();
        }
        project.jvm_options.extend(self.jvm_options.iter().cloned());
        project
            .exclude_tests
            .extend(self.exclude_tests.iter().cloned());
        project
            .exclude_test_sources
            .extend(self.exclude_test_sources.iter().cloned());
        for entry in self
            .classpath
            .iter()
            .flat_map(|e| e.split(':'))
            .filter(|e| !e.is_empty())
        {
            project.classpath.push(project.root.join(entry));
        }
    }
}

/// Builds the project model: flags win over `patchval.toml`, which wins over detection.
pub fn load(root: &Path, flags: &Overrides) -> Result<Project, ProjectError> {
    let root = root
        .canonicalize()
        .map_err(|_| ProjectError::NotADir(root.to_path_buf()))?;
    if !root.is_dir() {
        return Err(ProjectError::NotADir(root));
    }
    let cfg_path = root.join("patchval.toml");
    let cfg: ConfigFile = if cfg_path.is_file() {
        let text = std::fs::read_to_string(&cfg_path).map_err(io_err(&cfg_path))?;
        toml::from_str(&text).map_err(|e| ProjectError::Config {
            path: cfg_path.clone(),
            message: e.to_string(),
        })?
    } else {
        ConfigFile::default()
    };
    let pick = |flag: &[String], file: &Option<Vec<String>>, default: &str| -> Vec<String> {
        if !flag.is_empty() {
            flag.to_vec()
        } else if let Some(f) = file {
            f.clone()
        } else if root.join(default).is_dir() {
            vec![default.to_string()]
        } else {
            vec![]
        }
    };
    let abs = |v: Vec<String>| -> Vec<PathBuf> { v.into_iter().map(|p| root.join(p)).collect() };
    let source_dirs = abs(pick(&flags.src, &cfg.src, "src/main/java"));
    let test_dirs = abs(pick(&flags.test, &cfg.test, "src/test/java"));
    if source_dirs.is_empty() {
        return Err(ProjectError::Undetected {
            what: "source directory",
            root,
            flag: "--src",
        });
    }
    if test_dirs.is_empty() {
        return Err(ProjectError::Undetected {
            what: "test directory",
            root,
            flag: "--test",
        });
    }
    for d in source_dirs.iter().chain(&test_dirs) {
        if !d.is_dir() {
            return Err(ProjectError::NotADir(d.clone()));
        }
    }
    let existing = |p: &str| -> Vec<PathBuf> {
        let d = root.join(p);
        if d.is_dir() {
            vec![d]
        } else {
            vec![]
        }
    };
    let mut classpath = Vec::new();
    let cp_entries: Vec<String> = if !flags.classpath.is_empty() {
        flags.classpath.clone()
    } else {
        cfg.classpath.clone().unwrap_or_default()
    };
    for entry in cp_entries
        .iter()
        .flat_map(|e| e.split(':'))
        .filter(|e| !e.is_empty())
    {
        let full = root.join(entry);
        let pattern = full.to_string_lossy().to_string();
        if pattern.contains('*') {
            let mut found: Vec<PathBuf> = glob::glob(&pattern)
                .map_err(|e| ProjectError::Config {
                    path: cfg_path.clone(),
                    message: format!("bad class path pattern {entry}: {e}"),
                })?
                .flatten()
                .collect();
            found.sort();
            classpath.extend(found);
        } else if full.exists() {
            classpath.push(full);
        } else {
            return Err(ProjectError::Config {
                path: cfg_path.clone(),
                message: format!("class path entry {} does not exist", full.display()),
            });
        }
    }
    Ok(Project {
        source_dirs,
        test_dirs,
        resource_dirs: match cfg.resources {
            Some(dirs) => dirs_of(&root, &cfg_path, dirs)?,
            None => existing("src/main/resources"),
        },
        test_resource_dirs: match cfg.test_resources {
            Some(dirs) => dirs_of(&root, &cfg_path, dirs)?,
            None => existing("src/test/resources"),
        },
        classpath,
        release: flags
            .release
            .clone()
            .or(cfg.release)
            .unwrap_or_else(|| "8".into()),
        encoding: cfg.encoding.unwrap_or_else(|| "UTF-8".into()),
        jvm_options: if flags.jvm_options.is_empty() {
            cfg.jvm_options.unwrap_or_default()
        } else {
            flags.jvm_options.clone()
        },
        exclude_tests: cfg
            .exclude
            .unwrap_or_default()
            .into_iter()
            .chain(flags.exclude_tests.iter().cloned())
            .collect(),
        exclude_test_sources: cfg
            .exclude_test_sources
            .unwrap_or_default()
            .into_iter()
            .chain(flags.exclude_test_sources.iter().cloned())
            .collect(),
        exclude_sources: cfg.exclude_sources.unwrap_or_default(),
        test_fileset: None,
        root,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_maven_layout_and_reads_config() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("src/main/java")).unwrap();
        std::fs::create_dir_all(d.path().join("src/test/java")).unwrap();
        let p = load(d.path(), &Overrides::default()).unwrap();
        assert!(p.source_dirs[0].ends_with("src/main/java"));
        assert_eq!(p.release, "8");
        std::fs::create_dir_all(d.path().join("lib")).unwrap();
        std::fs::write(d.path().join("lib/a.jar"), b"").unwrap();
        std::fs::write(
            d.path().join("patchval.toml"),
            "release = \"11\"\nclasspath = [\"lib/*.jar\"]\n",
        )
        .unwrap();
        let p = load(d.path(), &Overrides::default()).unwrap();
        assert_eq!(p.release, "11");
        assert_eq!(p.classpath.len(), 1);
        let flags = Overrides {
            release: Some("17".into()),
            ..Default::default()
        };
        assert_eq!(load(d.path(), &flags).unwrap().release, "17");
    }

    #[test]
    fn bad_config_names_the_file() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("src/main/java")).unwrap();
        std::fs::create_dir_all(d.path().join("src/test/java")).unwrap();
        std::fs::write(d.path().join("patchval.toml"), "relase = 8\n").unwrap();
        let e = load(d.path(), &Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("patchval.toml"), "{e}");
        let empty = tempfile::tempdir().unwrap();
        let e = load(empty.path(), &Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("--src"), "{e}");
    }

    #[test]
    fn a_test_fileset_matches_like_ant() {
        let math = TestFileset {
            name: "Math's".into(),
            include: vec!["**/*Test.java".into(), "**/*TestBinary.java".into()],
            exclude: vec!["**/random/*.java".into(), "**/*Abstract*Test.java".into()],
        };
        assert_eq!(math.leaves_out("org.x.FooTest"), None);
        assert_eq!(
            math.leaves_out("FooTest"),
            None,
            "`**/` matches no directory too"
        );
        assert_eq!(
            math.leaves_out("org.x.FooTest$Inner"),
            None,
            "nested: its file's class"
        );
        assert_eq!(math.leaves_out("org.x.BarTestBinary"), None);
        assert!(math
            .leaves_out("org.x.random.FooTest")
            .unwrap()
            .contains("random"));
        assert!(math.leaves_out("org.x.AbstractFooTest").is_some());
        assert!(math
            .leaves_out("org.x.FooTests")
            .unwrap()
            .contains("not in Math's"));
        // `*` stays within a directory.
        let flat = TestFileset {
            include: vec!["*Test.java".into()],
            ..TestFileset::default()
        };
        assert!(flat.leaves_out("org.x.FooTest").is_some());
        let mockito = TestFileset {
            name: "Mockito's".into(),
            include: vec!["**/*Test.class".into()],
            exclude: vec![
                "**/Abstract*.class".into(),
                "**/GitHubTicketFetcherTest*".into(),
            ],
        };
        assert_eq!(mockito.leaves_out("org.mockito.MockitoTest"), None);
        assert!(mockito.leaves_out("org.mockito.AbstractMockTest").is_some());
        assert!(mockito
            .leaves_out("org.m.GitHubTicketFetcherTest")
            .is_some());
        assert!(mockito.leaves_out("org.mockito.Helper").is_some());
    }

    #[test]
    fn resource_directories_and_excluded_sources_from_patchval_toml() {
        let d = tempfile::tempdir().unwrap();
        for dir in ["src/java", "src/test", "src/conf"] {
            std::fs::create_dir_all(d.path().join(dir)).unwrap();
        }
        let cfg = d.path().join("patchval.toml");
        std::fs::write(
            &cfg,
            "src = [\"src/java\"]\ntest = [\"src/test\"]\nresources = [\"src/conf\"]\n\
             test_resources = [\"src/test\"]\n",
        )
        .unwrap();
        let p = load(d.path(), &Overrides::default()).unwrap();
        assert_eq!(p.resource_dirs, [d.path().join("src/conf")]);
        assert_eq!(p.test_resource_dirs, [d.path().join("src/test")]);
        // Main sources left out like test sources.
        for f in ["src/java/p/A.java", "src/java/p/brotli/B.java"] {
            std::fs::create_dir_all(d.path().join(f).parent().unwrap()).unwrap();
            std::fs::write(d.path().join(f), "package p;").unwrap();
        }
        std::fs::write(
            &cfg,
            "test = [\"src/test\"]\nsrc = [\"src/java\"]\nexclude_sources = [\"**/brotli/**\"]\n",
        )
        .unwrap();
        let p = load(d.path(), &Overrides::default()).unwrap();
        let (kept, left) = p.main_sources();
        assert_eq!(kept, [d.path().join("src/java/p/A.java")]);
        assert_eq!(
            left,
            [(d.path().join("src/java/p/brotli/B.java"), "**/brotli/**")]
        );
        std::fs::write(
            &cfg,
            "test = [\"src/test\"]\nsrc = [\"src/java\"]\nresources = [\"gone\"]\n",
        )
        .unwrap();
        let e = load(d.path(), &Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("gone") && e.contains("patchval.toml"), "{e}");
    }

    #[test]
    fn test_sources_excluded_by_ant_like_globs() {
        let d = tempfile::tempdir().unwrap();
        for f in [
            "src/main/java/p/A.java",
            "src/test/java/p/ATest.java",
            "src/test/java/p/bench/ABench.java",
            "src/test/java/Top.java",
            "src/test/java/p/q/Deep.java",
        ] {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "class X {}").unwrap();
        }
        std::fs::write(
            d.path().join("patchval.toml"),
            "exclude_test_sources = [\"**/bench/*\", \"*.java\"]\n",
        )
        .unwrap();
        let flags = Overrides {
            exclude_test_sources: vec!["p/**/Deep.java".into()],
            ..Default::default()
        };
        let p = load(d.path(), &flags).unwrap();
        let (kept, left) = p.test_sources();
        let rel = |f: &PathBuf| f.strip_prefix(&p.test_dirs[0]).unwrap().to_path_buf();
        // `*.java` stays in the top directory; `**/` spans any number of directories, also none.
        assert_eq!(
            kept.iter().map(rel).collect::<Vec<_>>(),
            [PathBuf::from("p/ATest.java")]
        );
        let left: Vec<(PathBuf, &str)> = left.iter().map(|(f, g)| (rel(f), *g)).collect();
        assert_eq!(
            left,
            [
                (PathBuf::from("Top.java"), "*.java"),
                (PathBuf::from("p/bench/ABench.java"), "**/bench/*"),
                (PathBuf::from("p/q/Deep.java"), "p/**/Deep.java"),
            ]
        );
    }
}
