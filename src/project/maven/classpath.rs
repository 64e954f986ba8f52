//! Class path resolution for Maven projects: `mvn -o dependency:build-classpath` (on the pom, or
//! on a synthetic pom of a multi-module project's external dependencies), or transitively from a
//! local repository directory by coordinates.

use super::{config, Ctx, Dep, Model};
use crate::project::ProjectError;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A dependency to resolve: what, the pom that asked, the exclusions on its path, and the path.
type Pending = (Dep, PathBuf, Vec<(String, String)>, String);

/// Where a repository artifact lives.
fn artifact_dir(repo: &Path, group: &str, artifact: &str) -> PathBuf {
    repo.join(group.replace('.', "/")).join(artifact)
}

/// The external dependencies of the modules (reactor modules left out), with the pom naming each.
fn external(models: &[Model], reactor: &HashSet<(String, String)>) -> Vec<(Dep, PathBuf)> {
    let mut out: Vec<(Dep, PathBuf)> = Vec::new();
    for m in models {
        for d in &m.deps {
            if reactor.contains(&d.key())
                || out
                    .iter()
                    .any(|(x, _)| x.key() == d.key() && x.classifier == d.classifier)
            {
                continue;
            }
            out.push((d.clone(), m.file.clone()));
        }
    }
    out
}

impl Ctx {
    fn repo_model(&mut self, pom: &Path) -> Option<Model> {
        if !self.cache.contains_key(pom) {
            let m = pom.is_file().then(|| self.model(pom, false)).and_then(|r| {
                r.map_err(|e| tracing::warn!("{e}; its dependencies are not followed"))
                    .ok()
            });
            self.cache.insert(pom.to_path_buf(), m);
        }
        self.cache[pom].clone()
    }

    /// The version directory to use: the requested one, else Debian's `debian`, else the only one.
    fn pick_version(&self, dir: &Path, want: Option<&str>) -> Option<String> {
        if let Some(v) = want.filter(|v| !v.starts_with('[') && !v.starts_with('(')) {
            if dir.join(v).is_dir() {
                return Some(v.to_string());
            }
        }
        let mut present: Vec<String> = std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        present.sort();
        let pick = if present.iter().any(|v| v == "debian") {
            Some("debian".to_string())
        } else if present.len() == 1 || want.is_some_and(|w| w.starts_with(['[', '('])) {
            present.last().cloned()
        } else {
            None
        }?;
        tracing::info!(
            "{}: version {} used for {}",
            dir.display(),
            pick,
            want.unwrap_or("(none)")
        );
        Some(pick)
    }

    /// Resolves the external dependencies, transitively, from the local repository directory.
    pub(super) fn resolve(
        &mut self,
        models: &[Model],
        reactor: &HashSet<(String, String)>,
    ) -> Result<Vec<PathBuf>, ProjectError> {
        let mut managed: HashMap<(String, String), Dep> = HashMap::new();
        for m in models {
            for (k, d) in &m.managed {
                managed.entry(k.clone()).or_insert_with(|| d.clone());
            }
        }
        let mut queue: VecDeque<Pending> = external(models, reactor)
            .into_iter()
            .map(|(d, f)| (d, f, vec![], String::new()))
            .collect();
        let mut seen: HashSet<(String, String, Option<String>)> = HashSet::new();
        let mut cp: Vec<PathBuf> = Vec::new();
        while let Some((d, pom, excl, via)) = queue.pop_front() {
            if !seen.insert((d.group.clone(), d.artifact.clone(), d.classifier.clone())) {
                continue;
            }
            let fail = |what: String| {
                config(
                    &pom,
                    format!("cannot resolve dependency {}{via}: {what}", d.coords()),
                )
            };
            if d.scope.as_deref() == Some("system") {
                let p = PathBuf::from(d.system_path.clone().unwrap_or_default());
                if !p.is_file() {
                    return Err(fail(format!("system path {} does not exist", p.display())));
                }
                cp.push(p);
                continue;
            }
            let repo = self
                .repo
                .clone()
                .ok_or_else(|| fail("no local repository (pass one)".into()))?;
            let adir = artifact_dir(&repo, &d.group, &d.artifact);
            let Some(v) = self.pick_version(&adir, d.version.as_deref()) else {
                return Err(fail(format!(
                    "not in the local repository {}",
                    repo.display()
                )));
            };
            let vdir = adir.join(&v);
            let pom_file = vdir.join(format!("{}-{v}.pom", d.artifact));
            let model = self.repo_model(&pom_file);
            let classifier = d
                .classifier
                .clone()
                .or_else(|| (d.kind.as_deref() == Some("test-jar")).then(|| "tests".into()));
            let jar = vdir.join(format!(
                "{}-{v}{}.jar",
                d.artifact,
                classifier.map(|c| format!("-{c}")).unwrap_or_default()
            ));
            let is_pom = d.kind.as_deref() == Some("pom")
                || model.as_ref().is_some_and(|m| m.packaging == "pom");
            if jar.is_file() {
                cp.push(jar.clone());
            } else if let Some((g, a, rv)) = model.as_ref().and_then(|m| m.relocation.clone()) {
                let mut r = d.clone();
                r.group = g.unwrap_or(r.group);
                r.artifact = a.unwrap_or(r.artifact);
                r.version = rv.or(Some(v.clone()));
                queue.push_front((
                    r,
                    pom.clone(),
                    excl,
                    format!(" (relocated from {})", d.coords()),
                ));
                continue;
            } else if !is_pom {
                return Err(fail(format!("{} does not exist", jar.display())));
            }
            let Some(model) = model else { continue };
            let mut excl = excl.clone();
            excl.extend(d.exclusions.iter().cloned());
            for t in &model.deps {
                let transitive =
                    matches!(t.scope.as_deref(), None | Some("compile") | Some("runtime"));
                let excluded = excl
                    .iter()
                    .any(|(g, a)| (g == "*" || *g == t.group) && (a == "*" || *a == t.artifact));
                if !transitive || t.optional || excluded || reactor.contains(&t.key()) {
                    continue;
                }
                let mut t = t.clone();
                if let Some(m) = managed.get(&t.key()) {
                    t.version = m.version.clone().or(t.version);
                }
                queue.push_back((
                    t,
                    pom.clone(),
                    excl.clone(),
                    format!(" (via {})", d.coords()),
                ));
            }
        }
        Ok(cp)
    }
}

fn esc(s: &str) -> String {
    quick_xml::escape::escape(s).into_owned()
}

/// A pom listing the external dependencies of a multi-module project, so that `mvn` resolves
/// them without needing the modules themselves.
fn synthetic_pom(models: &[Model], reactor: &HashSet<(String, String)>) -> String {
    let dep = |d: &Dep| -> String {
        let mut s = format!(
            "<dependency><groupId>{}</groupId><artifactId>{}</artifactId>",
            esc(&d.group),
            esc(&d.artifact)
        );
        for (tag, v) in [
            ("version", &d.version),
            ("scope", &d.scope),
            ("classifier", &d.classifier),
            ("type", &d.kind),
            ("systemPath", &d.system_path),
        ] {
            if let Some(v) = v {
                s += &format!("<{tag}>{}</{tag}>", esc(v));
            }
        }
        s += "<exclusions>";
        for (g, a) in &d.exclusions {
            s += &format!(
                "<exclusion><groupId>{}</groupId><artifactId>{}</artifactId></exclusion>",
                esc(g),
                esc(a)
            );
        }
        s + "</exclusions></dependency>\n"
    };
    let mut managed = String::new();
    let mut keys = HashSet::new();
    for m in models {
        for (k, d) in &m.managed {
            if !reactor.contains(k) && keys.insert(k.clone()) && d.version.is_some() {
                managed += &dep(&Dep {
                    scope: None,
                    ..d.clone()
                });
            }
        }
    }
    let deps: String = external(models, reactor)
        .iter()
        .map(|(d, _)| dep(d))
        .collect();
    format!(
        "<project><modelVersion>4.0.0</modelVersion><groupId>patchval.synthetic</groupId>\
         <artifactId>classpath</artifactId><version>1</version>\
         <dependencyManagement><dependencies>{managed}</dependencies></dependencyManagement>\
         <dependencies>{deps}</dependencies></project>\n"
    )
}

/// Why `mvn dependency:build-classpath` gave no class path.
#[derive(Debug, thiserror::Error)]
pub enum MvnError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot run {mvn}: {source}")]
    Start {
        mvn: PathBuf,
        source: std::io::Error,
    },
    /// mvn ended without success; its first ERROR lines.
    #[error("{status}: {errors}")]
    Failed {
        status: std::process::ExitStatus,
        errors: String,
    },
}

/// `mvn -o dependency:build-classpath` on the project (a multi-module project through a
/// synthetic pom of its external dependencies).
pub(super) fn run_mvn(
    mvn: &Path,
    root: &Path,
    models: &[Model],
    reactor: &HashSet<(String, String)>,
    repo_flag: Option<&Path>,
    repo: Option<&Path>,
) -> Result<Vec<PathBuf>, MvnError> {
    let tmp = tempfile::tempdir().map_err(|source| MvnError::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let out = tmp.path().join("cp.txt");
    let mut cmd = Command::new(mvn);
    if models.len() > 1 {
        let pom = tmp.path().join("pom.xml");
        std::fs::write(&pom, synthetic_pom(models, reactor))
            .map_err(|source| MvnError::Io { path: pom, source })?;
        cmd.current_dir(tmp.path());
    } else {
        cmd.current_dir(root);
    }
    cmd.args([
        "-o",
        "-q",
        "-B",
        "dependency:build-classpath",
        "-Dmdep.includeScope=test",
    ])
    .arg(format!("-Dmdep.outputFile={}", out.display()));
    // An explicit repository, or Debian's when there is no ~/.m2 for mvn to use.
    if let Some(r) = repo_flag.or(repo.filter(|r| r.starts_with("/usr/share/maven-repo"))) {
        cmd.arg(format!("-Dmaven.repo.local={}", r.display()));
    }
    tracing::info!("running {cmd:?}");
    let res = cmd.output().map_err(|source| MvnError::Start {
        mvn: mvn.to_path_buf(),
        source,
    })?;
    if !res.status.success() {
        let all = String::from_utf8_lossy(&res.stdout).into_owned()
            + &String::from_utf8_lossy(&res.stderr);
        // drop ANSI colour codes: `-B -q` still colours the ERROR lines
        let plain: String = all
            .split('\x1b')
            .map(|p| {
                p.strip_prefix('[')
                    .and_then(|q| q.split_once('m'))
                    .map_or(p, |x| x.1)
            })
            .collect();
        let errs: Vec<&str> = plain
            .lines()
            .filter(|l| l.contains("ERROR"))
            .take(3)
            .collect();
        return Err(MvnError::Failed {
            status: res.status,
            errors: errs.join(" / "),
        });
    }
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    Ok(text
        .trim()
        .split(':')
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect())
}
