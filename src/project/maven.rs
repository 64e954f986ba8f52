//! Maven projects: reads `pom.xml` (parents, properties, modules, dependency management) into a
//! [`Project`], resolving the class path offline with `mvn dependency:build-classpath`, or, when
//! `mvn` is missing or fails, from a local repository directory by coordinates.

mod classpath;
mod xml;

use super::{Project, ProjectError};
use classpath::run_mvn;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use xml::{parse_xml, El};

/// How [`load_with`] resolves the class path.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The local repository (default `~/.m2/repository` when present, else `/usr/share/maven-repo`).
    pub repo: Option<PathBuf>,
    /// The `mvn` command to run offline; `None` resolves from the repository directory only.
    pub mvn: Option<PathBuf>,
    /// Whether a failing `mvn` falls back to the repository directory (else it is an error).
    pub fallback: bool,
}

/// Loads the Maven project in `dir` (a multi-module project as one project): `mvn` from `PATH`
/// when there is one, else (or when it fails) the local repository `repo`.
pub fn load(dir: &Path, repo: Option<&Path>) -> Result<Project, ProjectError> {
    let mvn = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("mvn"))
            .find(|m| m.is_file())
    });
    let opts = Options {
        repo: repo.map(Path::to_path_buf),
        mvn,
        fallback: true,
    };
    load_with(dir, &opts)
}

/// [`load`] with explicit resolution options.
pub fn load_with(dir: &Path, opts: &Options) -> Result<Project, ProjectError> {
    let root = dir
        .canonicalize()
        .map_err(|_| ProjectError::NotADir(dir.to_path_buf()))?;
    let repo_dir = opts.repo.clone().or_else(default_repo);
    let mut ctx = Ctx {
        repo: repo_dir.clone(),
        cache: HashMap::new(),
    };
    let mut models = Vec::new();
    ctx.load_tree(&root.join("pom.xml"), &mut models, 0)?;
    let reactor: HashSet<(String, String)> = models
        .iter()
        .map(|m| (m.group.clone(), m.artifact.clone()))
        .collect();
    let jars: Vec<&Model> = models.iter().filter(|m| m.packaging != "pom").collect();
    let dirs = |f: fn(&Model) -> &Vec<String>| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = Vec::new();
        for m in &jars {
            for d in f(m) {
                let p = m.dir.join(d);
                if p.is_dir() && !v.contains(&p) {
                    v.push(p);
                }
            }
        }
        v
    };
    let source_dirs = dirs(|m| &m.src);
    if source_dirs.is_empty() {
        return Err(config(
            &models[0].file,
            "no source directory in any jar module".into(),
        ));
    }
    let mut release = 8;
    for m in &jars {
        release = release.max(java_release(m));
    }
    let encoding = jars
        .iter()
        .find_map(|m| m.encoding.clone())
        .unwrap_or_else(|| "UTF-8".into());
    let mut classpath = None;
    if let Some(mvn) = &opts.mvn {
        match run_mvn(
            mvn,
            &root,
            &models,
            &reactor,
            opts.repo.as_deref(),
            repo_dir.as_deref(),
        ) {
            Ok(cp) => classpath = Some(cp),
            Err(e) if opts.fallback => {
                tracing::warn!(
                    "mvn could not build the class path ({e}); resolving from the local repository"
                )
            }
            Err(e) => {
                return Err(config(
                    &models[0].file,
                    format!("mvn could not build the class path: {e}"),
                ))
            }
        }
    }
    let classpath = match classpath {
        Some(cp) => cp,
        None => ctx.resolve(&models, &reactor)?,
    };
    Ok(Project {
        test_dirs: dirs(|m| &m.test),
        resource_dirs: dirs(|m| &m.res),
        test_resource_dirs: dirs(|m| &m.test_res),
        source_dirs,
        classpath,
        release: release.to_string(),
        encoding,
        jvm_options: vec![],
        exclude_tests: vec![],
        exclude_test_sources: union(&jars, |m| &m.test_excludes),
        exclude_sources: union(&jars, |m| &m.excludes),
        test_fileset: None,
        root,
    })
}

fn default_repo() -> Option<PathBuf> {
    let m2 = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".m2/repository"));
    m2.filter(|p| p.is_dir())
        .or_else(|| Some(PathBuf::from("/usr/share/maven-repo")).filter(|p| p.is_dir()))
}

fn config(path: &Path, message: String) -> ProjectError {
    ProjectError::Config {
        path: path.to_path_buf(),
        message,
    }
}

// ---------------------------------------------------------------- POM model

/// A dependency as declared (before or after interpolation).
#[derive(Debug, Clone, Default)]
struct Dep {
    group: String,
    artifact: String,
    version: Option<String>,
    scope: Option<String>,
    classifier: Option<String>,
    kind: Option<String>,
    system_path: Option<String>,
    optional: bool,
    exclusions: Vec<(String, String)>,
}

impl Dep {
    fn from_el(e: &El) -> Dep {
        let t = |n: &str| e.text_at(&[n]).filter(|s| !s.is_empty());
        Dep {
            group: t("groupId").unwrap_or_default(),
            artifact: t("artifactId").unwrap_or_default(),
            version: t("version"),
            scope: t("scope"),
            classifier: t("classifier"),
            kind: t("type"),
            system_path: t("systemPath"),
            optional: t("optional").as_deref() == Some("true"),
            exclusions: e
                .all(&["exclusions", "exclusion"])
                .iter()
                .map(|x| {
                    (
                        x.text_at(&["groupId"]).unwrap_or_default(),
                        x.text_at(&["artifactId"]).unwrap_or_default(),
                    )
                })
                .collect(),
        }
    }
    fn key(&self) -> (String, String) {
        (self.group.clone(), self.artifact.clone())
    }
    fn coords(&self) -> String {
        let mut s = format!("{}:{}", self.group, self.artifact);
        if let Some(c) = &self.classifier {
            s += &format!(":{c}");
        }
        s + ":" + self.version.as_deref().unwrap_or("?")
    }
    fn map(mut self, f: &dyn Fn(&str) -> String) -> Dep {
        self.group = f(&self.group);
        self.artifact = f(&self.artifact);
        for o in [
            &mut self.version,
            &mut self.scope,
            &mut self.classifier,
            &mut self.kind,
            &mut self.system_path,
        ] {
            *o = o.as_deref().map(f);
        }
        self
    }
}

/// The effective model of one pom (parents merged, properties interpolated).
#[derive(Debug, Clone)]
struct Model {
    file: PathBuf,
    dir: PathBuf,
    group: String,
    artifact: String,
    packaging: String,
    modules: Vec<String>,
    deps: Vec<Dep>,
    managed: HashMap<(String, String), Dep>,
    src: Vec<String>,
    test: Vec<String>,
    res: Vec<String>,
    test_res: Vec<String>,
    levels: Vec<String>,
    encoding: Option<String>,
    /// maven-compiler-plugin's `<testExcludes>`: test sources Maven does not compile.
    test_excludes: Vec<String>,
    /// Its `<excludes>`: main sources Maven does not compile.
    excludes: Vec<String>,
    relocation: Option<(Option<String>, Option<String>, Option<String>)>,
}

/// The patterns `field` of every model, each once, in order.
fn union(models: &[&Model], field: impl Fn(&Model) -> &Vec<String>) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for m in models {
        for p in field(m) {
            if !v.contains(p) {
                v.push(p.clone());
            }
        }
    }
    v
}

/// Replaces `${name}` using `props`; unknown names are left as they are.
fn interpolate(s: &str, props: &HashMap<String, String>) -> String {
    let mut out = s.to_string();
    for _ in 0..10 {
        if !out.contains("${") {
            break;
        }
        let mut next = String::new();
        let mut rest = out.as_str();
        while let Some(i) = rest.find("${") {
            next.push_str(&rest[..i]);
            match rest[i..].find('}') {
                Some(j) => {
                    let name = &rest[i + 2..i + j];
                    let env = name
                        .strip_prefix("env.")
                        .and_then(|n| std::env::var(n).ok());
                    match props.get(name).cloned().or(env) {
                        Some(v) => next.push_str(&v),
                        None => next.push_str(&rest[i..i + j + 1]),
                    }
                    rest = &rest[i + j + 1..];
                }
                None => {
                    next.push_str(&rest[i..]);
                    rest = "";
                }
            }
        }
        next.push_str(rest);
        if next == out {
            break;
        }
        out = next;
    }
    out
}

/// Maps a Maven Java level to a javac `--release` number (below 8 becomes 8).
fn level_number(v: &str, file: &Path) -> u32 {
    let t = v.trim();
    match t.strip_prefix("1.").unwrap_or(t).parse::<u32>() {
        Ok(n) if n < 8 => {
            tracing::info!(
                "{}: Java level {t} compiled as release 8 (javac 17 rejects older levels)",
                file.display()
            );
            8
        }
        Ok(n) => n,
        Err(_) => {
            tracing::warn!(
                "{}: unknown Java level {t:?}; using release 8",
                file.display()
            );
            8
        }
    }
}

fn java_release(m: &Model) -> u32 {
    m.levels
        .first()
        .map(|l| level_number(l, &m.file))
        .unwrap_or(8)
}

struct Ctx {
    repo: Option<PathBuf>,
    cache: HashMap<PathBuf, Option<Model>>,
}

impl Ctx {
    /// The pom chain (the pom first, then its parents) of a pom file.
    fn chain(&self, file: &Path, local: bool) -> Result<Vec<(PathBuf, El)>, ProjectError> {
        let mut out = vec![(file.to_path_buf(), parse_xml(file)?)];
        for _ in 0..20 {
            let (cur_file, cur) = out.last().expect("nonempty");
            let Some(p) = cur.child("parent") else { break };
            let g = p.text_at(&["groupId"]).unwrap_or_default();
            let a = p.text_at(&["artifactId"]).unwrap_or_default();
            let v = p.text_at(&["version"]).unwrap_or_default();
            let mut cand = Vec::new();
            if local {
                let rel = p
                    .text_at(&["relativePath"])
                    .unwrap_or_else(|| "../pom.xml".into());
                if !rel.is_empty() {
                    let r = cur_file.parent().expect("pom dir").join(rel);
                    cand.push(if r.is_dir() { r.join("pom.xml") } else { r });
                }
            }
            if let Some(repo) = &self.repo {
                cand.push(
                    repo.join(g.replace('.', "/"))
                        .join(&a)
                        .join(&v)
                        .join(format!("{a}-{v}.pom")),
                );
            }
            let found = cand.into_iter().find_map(|c| {
                let el = parse_xml(&c).ok()?;
                (el.text_at(&["artifactId"]).as_deref() == Some(a.as_str())).then_some((c, el))
            });
            match found {
                Some(f) => out.push(f),
                None => {
                    tracing::warn!(
                        "{}: parent {g}:{a}:{v} not found; not inherited",
                        cur_file.display()
                    );
                    break;
                }
            }
        }
        Ok(out)
    }

    /// The effective model of a pom file.
    fn model(&self, file: &Path, local: bool) -> Result<Model, ProjectError> {
        let chain = self.chain(file, local)?;
        let own = &chain[0].1;
        let dir = file.parent().expect("pom dir").to_path_buf();
        let first = |path: &[&str]| {
            chain
                .iter()
                .find_map(|(_, e)| e.text_at(path).filter(|s| !s.is_empty()))
        };
        let group = own
            .text_at(&["groupId"])
            .or_else(|| own.text_at(&["parent", "groupId"]));
        let version = own
            .text_at(&["version"])
            .or_else(|| own.text_at(&["parent", "version"]));
        let mut props: HashMap<String, String> = HashMap::new();
        for (_, e) in chain.iter().rev() {
            for p in e.all(&["properties"]).iter().flat_map(|p| &p.kids) {
                props.insert(p.name.clone(), p.text.clone());
            }
        }
        let base = dir.display().to_string();
        let builtins = [
            ("project.groupId", group.clone()),
            ("project.artifactId", own.text_at(&["artifactId"])),
            ("project.version", version.clone()),
            (
                "project.parent.groupId",
                own.text_at(&["parent", "groupId"]),
            ),
            (
                "project.parent.version",
                own.text_at(&["parent", "version"]),
            ),
            ("project.basedir", Some(base.clone())),
            ("basedir", Some(base)),
            ("user.home", std::env::var("HOME").ok()),
        ];
        for (k, v) in builtins {
            if let Some(v) = v {
                props.insert(k.to_string(), v.clone());
                props.insert(k.replace("project.", "pom."), v);
            }
        }
        let ip = |s: &str| interpolate(s, &props);
        let mut managed = HashMap::new();
        for (f, e) in &chain {
            for d in e.all(&["dependencyManagement", "dependencies", "dependency"]) {
                let d = Dep::from_el(d).map(&ip);
                if d.scope.as_deref() == Some("import") {
                    tracing::info!("{}: import-scope BOM {} ignored", f.display(), d.coords());
                    continue;
                }
                managed.entry(d.key()).or_insert(d);
            }
        }
        let mut deps: Vec<Dep> = Vec::new();
        for (_, e) in &chain {
            for d in e.all(&["dependencies", "dependency"]) {
                let mut d = Dep::from_el(d).map(&ip);
                if deps
                    .iter()
                    .any(|x| x.key() == d.key() && x.classifier == d.classifier)
                {
                    continue;
                }
                if let Some(m) = managed.get(&d.key()) {
                    d.version = d.version.or(m.version.clone());
                    d.scope = d.scope.or(m.scope.clone());
                    if d.exclusions.is_empty() {
                        d.exclusions = m.exclusions.clone();
                    }
                }
                deps.push(d);
            }
        }
        let list = |path: &[&str], default: &str| -> Vec<String> {
            let found: Vec<String> = chain
                .iter()
                .map(|(_, e)| e.all(path).iter().map(|x| ip(&x.text)).collect::<Vec<_>>())
                .find(|v| !v.is_empty())
                .unwrap_or_default();
            if found.is_empty() {
                vec![default.to_string()]
            } else {
                found
            }
        };
        let mut levels: Vec<String> = [
            "maven.compiler.release",
            "maven.compiler.source",
            "maven.compiler.target",
        ]
        .iter()
        .filter_map(|k| props.get(*k).map(|v| ip(v)))
        .collect();
        let mut encoding = props.get("project.build.sourceEncoding").map(|v| ip(v));
        let (mut test_excludes, mut excludes) = (Vec::new(), Vec::new());
        for (_, e) in &chain {
            for plugins in [
                &["build", "plugins", "plugin"][..],
                &["build", "pluginManagement", "plugins", "plugin"],
            ] {
                for p in e.all(plugins) {
                    if p.text_at(&["artifactId"]).as_deref() != Some("maven-compiler-plugin") {
                        continue;
                    }
                    for k in ["release", "source", "target"] {
                        levels.extend(p.text_at(&["configuration", k]).map(|v| ip(&v)));
                    }
                    encoding =
                        encoding.or(p.text_at(&["configuration", "encoding"]).map(|v| ip(&v)));
                    for x in p.all(&["configuration", "testExcludes", "testExclude"]) {
                        test_excludes.push(ip(&x.text));
                    }
                    for x in p.all(&["configuration", "excludes", "exclude"]) {
                        excludes.push(ip(&x.text));
                    }
                }
            }
        }
        levels.retain(|l| !l.is_empty() && !l.contains("${"));
        let rel = own
            .child("distributionManagement")
            .and_then(|d| d.child("relocation"));
        Ok(Model {
            file: file.to_path_buf(),
            group: ip(&group.unwrap_or_default()),
            artifact: ip(&own.text_at(&["artifactId"]).unwrap_or_default()),
            packaging: own.text_at(&["packaging"]).unwrap_or_else(|| "jar".into()),
            modules: own
                .all(&["modules", "module"])
                .iter()
                .map(|m| ip(&m.text))
                .collect(),
            deps,
            managed,
            src: vec![first(&["build", "sourceDirectory"])
                .map(|s| ip(&s))
                .unwrap_or_else(|| "src/main/java".into())],
            test: vec![first(&["build", "testSourceDirectory"])
                .map(|s| ip(&s))
                .unwrap_or_else(|| "src/test/java".into())],
            res: list(
                &["build", "resources", "resource", "directory"],
                "src/main/resources",
            ),
            test_res: list(
                &["build", "testResources", "testResource", "directory"],
                "src/test/resources",
            ),
            levels,
            encoding,
            test_excludes,
            excludes,
            relocation: rel.map(|r| {
                (
                    r.text_at(&["groupId"]),
                    r.text_at(&["artifactId"]),
                    r.text_at(&["version"]),
                )
            }),
            dir,
        })
    }

    /// Loads a local pom and, recursively, its modules.
    fn load_tree(
        &mut self,
        file: &Path,
        out: &mut Vec<Model>,
        depth: usize,
    ) -> Result<(), ProjectError> {
        if !file.is_file() {
            return Err(config(file, "no pom.xml here".into()));
        }
        if depth > 20 || out.iter().any(|m| m.file == file) {
            return Ok(());
        }
        let m = self.model(file, true)?;
        let modules: Vec<PathBuf> = m
            .modules
            .iter()
            .map(|s| {
                let p = m.dir.join(s);
                if p.is_dir() {
                    p.join("pom.xml")
                } else {
                    p
                }
            })
            .collect();
        out.push(m);
        for f in modules {
            let f = f.canonicalize().unwrap_or(f);
            self.load_tree(&f, out, depth + 1)?;
        }
        Ok(())
    }
}
