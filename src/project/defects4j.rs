//! Defects4J checkouts (`init --defects4j DIR`): directories, class path and trigger tests from the
//! checkout's `defects4j.build.properties` and, when the `defects4j` command is installed,
//! `defects4j export`; per-project facts from `defects4j/projects.toml` fill the gaps.

use super::{Project, ProjectError};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const FACTS: &str = include_str!("../../defects4j/projects.toml");

#[derive(Debug, Deserialize)]
struct Facts {
    defaults: Defaults,
    project: Vec<ProjectFacts>,
}

#[derive(Debug, Deserialize)]
struct Defaults {
    jvm_options: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ProjectFacts {
    id: String,
    dirs: Vec<Dirs>,
    #[serde(default)]
    extra_classpath: Vec<String>,
    /// The test classes Defects4J runs (`all.manual.tests`); absent: every test class.
    fileset: Option<FilesetFacts>,
}

#[derive(Debug, Deserialize)]
struct FilesetFacts {
    include: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Dirs {
    bugs: [u32; 2],
    src: String,
    test: String,
}

fn facts() -> Facts {
    toml::from_str(FACTS).expect("defects4j/projects.toml is valid (checked by a unit test)")
}

/// A Java properties file's keys and values.
type Properties = HashMap<String, String>;

fn read_properties(path: &Path) -> Result<Properties, ProjectError> {
    let file = std::fs::File::open(path).map_err(super::io_err(path))?;
    java_properties::read(std::io::BufReader::new(file)).map_err(|e| ProjectError::Config {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// `defects4j export -p PROP -w DIR`, when the command is installed.
fn export(dir: &Path, prop: &str) -> Option<String> {
    let out = Command::new("defects4j")
        .args(["export", "-p", prop, "-w"])
        .arg(dir)
        .output()
        .ok()?;
    if !out.status.success() {
        tracing::warn!(
            "defects4j export -p {prop} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `Class::method,Class::method` (Defects4J's notation) → `Class#method`.
pub fn trigger_tests(list: &str) -> Vec<String> {
    list.split([',', '\n'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.replacen("::", "#", 1))
        .collect()
}

/// A Defects4J checkout: the project model and the trigger tests Defects4J declares.
#[derive(Debug)]
pub struct Checkout {
    pub project: Project,
    /// `Class#method`; other tests failing on the unpatched program are excluded, as
    /// `defects4j test` excludes its known-broken tests.
    pub triggers: Vec<String>,
}

/// Builds the project model of a Defects4J checkout.
pub fn load(dir: &Path) -> Result<Checkout, ProjectError> {
    let root = dir
        .canonicalize()
        .map_err(|_| ProjectError::NotADir(dir.to_path_buf()))?;
    let props_path = root.join("defects4j.build.properties");
    if !props_path.is_file() {
        return Err(ProjectError::Config {
            path: props_path,
            message: "missing: not a checkout made by `defects4j checkout`".into(),
        });
    }
    let props = read_properties(&props_path)?;
    let config_path = root.join(".defects4j.config");
    let config = if config_path.is_file() {
        read_properties(&config_path)?
    } else {
        HashMap::new()
    };
    let pid = config.get("pid").cloned().unwrap_or_default();
    let bug: u32 = config
        .get("vid")
        .and_then(|v| v.trim_end_matches(['b', 'f']).parse().ok())
        .unwrap_or(0);
    let facts = facts();
    let known = facts
        .project
        .iter()
        .find(|p| p.id.eq_ignore_ascii_case(&pid));
    let fallback_dirs =
        known.and_then(|p| p.dirs.iter().find(|d| d.bugs[0] <= bug && bug <= d.bugs[1]));

    let pick = |export_prop: &str, prop: &str, fallback: Option<&String>| -> Option<PathBuf> {
        export(&root, export_prop)
            .or_else(|| props.get(prop).cloned())
            .or_else(|| fallback.cloned())
            .map(|d| root.join(d.trim()))
    };
    let undetected = |what: &'static str| ProjectError::Config {
        path: props_path.clone(),
        message: format!(
            "no {what} directory (neither in the file nor in defects4j/projects.toml for `{pid}`)"
        ),
    };
    let src = pick(
        "dir.src.classes",
        "d4j.dir.src.classes",
        fallback_dirs.map(|d| &d.src),
    )
    .ok_or_else(|| undetected("source"))?;
    let test = pick(
        "dir.src.tests",
        "d4j.dir.src.tests",
        fallback_dirs.map(|d| &d.test),
    )
    .ok_or_else(|| undetected("test"))?;
    for d in [&src, &test] {
        if !d.is_dir() {
            return Err(ProjectError::NotADir(d.clone()));
        }
    }

    // Class path: Defects4J's own answer when installed, else the checkout's jars.
    let mut classpath: Vec<PathBuf> = match export(&root, "cp.test") {
        Some(cp) => cp
            .split(':')
            .map(PathBuf::from)
            .filter(|p| {
                p.exists()
                    && !p.starts_with(root.join("target"))
                    && !p.ends_with("build")
                    && !p.ends_with("build-tests")
            })
            .collect(),
        None => jars_below(&root.join("lib")),
    };
    for pattern in known
        .map(|p| p.extra_classpath.as_slice())
        .unwrap_or_default()
    {
        let pattern = root.join(pattern).to_string_lossy().to_string();
        for p in glob::glob(&pattern).into_iter().flatten().flatten() {
            if !classpath.contains(&p) {
                classpath.push(p);
            }
        }
    }
    let triggers = export(&root, "tests.trigger")
        .or_else(|| props.get("d4j.tests.trigger").cloned())
        .map(|t| trigger_tests(&t))
        .unwrap_or_default();
    // Resources as Defects4J's builds put them on the class path: the Maven layouts' resource
    // directory, or where there is none (old Ant layouts keep data next to the code and copy it
    // with the classes), the non-Java files of the source or test directory itself.
    let resources = |maven: &str, code: &Path| -> Vec<PathBuf> {
        let maven = root.join(maven);
        vec![if maven.is_dir() {
            maven
        } else {
            code.to_path_buf()
        }]
    };
    let resource_dirs = resources("src/main/resources", &src);
    let test_resource_dirs = resources("src/test/resources", &test);
    let test_fileset = known
        .and_then(|p| p.fileset.as_ref())
        .map(|f| super::TestFileset {
            name: format!("Defects4J's all.manual.tests for {pid}"),
            include: f.include.clone(),
            exclude: f.exclude.clone(),
        });
    tracing::info!(
        "Defects4J {pid}-{bug}: sources {}, tests {}, {} class path entries, {} trigger tests",
        src.display(),
        test.display(),
        classpath.len(),
        triggers.len()
    );
    Ok(Checkout {
        project: Project {
            source_dirs: vec![src],
            test_dirs: vec![test],
            resource_dirs,
            test_resource_dirs,
            classpath,
            release: "8".into(),
            encoding: "UTF-8".into(),
            jvm_options: facts.defaults.jvm_options.clone(),
            exclude_tests: vec![],
            exclude_test_sources: vec![],
            exclude_sources: vec![],
            test_fileset,
            root,
        },
        triggers,
    })
}

fn jars_below(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "jar"))
        .map(|e| e.into_path())
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_parse_and_cover_the_classic_projects() {
        let f = facts();
        for id in ["Chart", "Closure", "Lang", "Math", "Mockito", "Time"] {
            assert!(f.project.iter().any(|p| p.id == id), "{id}");
        }
        assert!(f.defaults.jvm_options[0].contains("America/Los_Angeles"));
    }

    #[test]
    fn trigger_notation() {
        assert_eq!(
            trigger_tests("a.BTest::testX,c.DTest::testY\n"),
            vec!["a.BTest#testX", "c.DTest#testY"]
        );
    }

    #[test]
    fn a_checkout_without_the_defects4j_command() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join("src/java/org/x")).unwrap();
        std::fs::create_dir_all(root.join("src/test/org/x")).unwrap();
        std::fs::create_dir_all(root.join("lib")).unwrap();
        std::fs::write(root.join("lib/dep.jar"), b"").unwrap();
        std::fs::write(
            root.join(".defects4j.config"),
            "#File header\npid=Math\nvid=90b\n",
        )
        .unwrap();
        std::fs::write(
            root.join("defects4j.build.properties"),
            "#File header\nd4j.classes.modified=org.x.A\nd4j.dir.src.classes=src/java\nd4j.dir.src.tests=src/test\nd4j.tests.trigger=org.x.ATest::testA\n",
        )
        .unwrap();
        let c = load(root).unwrap();
        assert_eq!(c.triggers, vec!["org.x.ATest#testA"]);
        let p = c.project;
        assert!(p.source_dirs[0].ends_with("src/java"));
        assert!(p.test_dirs[0].ends_with("src/test"));
        assert!(p.classpath.iter().any(|c| c.ends_with("lib/dep.jar")));
        assert!(p.jvm_options.iter().any(|o| o.contains("user.timezone")));
        // Without the directories in the file, the facts for Math 90 are used.
        std::fs::write(
            root.join("defects4j.build.properties"),
            "d4j.tests.trigger=\n",
        )
        .unwrap();
        let p = load(root).unwrap().project;
        assert!(p.source_dirs[0].ends_with("src/java"));
        let missing = tempfile::tempdir().unwrap();
        let e = load(missing.path()).unwrap_err().to_string();
        assert!(e.contains("defects4j.build.properties"), "{e}");
    }
}
