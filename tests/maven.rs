//! Maven support: `patchval::project::maven::load` on temporary copies of the multi-module
//! fixture and on small generated poms (inheritance, interpolation, errors, repository resolution).

mod common;
use common::{copy_dir, testdata, write_file};
use patchval::project::maven::{load, load_with, Options};
use std::path::{Path, PathBuf};

const DEBIAN_REPO: &str = "/usr/share/maven-repo";

/// The multi-module fixture, copied to the root of a fresh temp dir.
fn copy_fixture() -> tempfile::TempDir {
    let dst = tempfile::tempdir().unwrap();
    copy_dir(&testdata("multimodule"), dst.path());
    dst
}

fn repo_only(repo: &Path) -> Options {
    Options {
        repo: Some(repo.to_path_buf()),
        mvn: None,
        fallback: false,
    }
}

fn has_junit_in_debian_repo() -> bool {
    Path::new(DEBIAN_REPO).join("junit/junit/4.13.2").is_dir()
}

fn names(cp: &[PathBuf]) -> Vec<String> {
    cp.iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

fn check_multimodule(p: &patchval::project::Project, root: &Path) {
    let root = root.canonicalize().unwrap();
    assert_eq!(
        p.source_dirs,
        vec![
            root.join("core/src/main/java"),
            root.join("app/src/main/java")
        ]
    );
    assert_eq!(
        p.test_dirs,
        vec![
            root.join("core/src/test/java"),
            root.join("app/src/test/java")
        ]
    );
    assert_eq!(
        p.release, "8",
        "maven.compiler.source 1.7 maps to release 8"
    );
    assert_eq!(p.encoding, "UTF-8");
    assert_eq!(p.exclude_test_sources, vec!["**/bench/*".to_string()]);
    let (compiled, left_out) = p.test_sources();
    assert_eq!(compiled.len(), 3, "{compiled:?}");
    assert_eq!(left_out.len(), 1, "{left_out:?}");
    assert!(left_out[0].0.ends_with("bench/HistogramBenchmark.java"));
    let n = names(&p.classpath);
    assert!(
        n.contains(&"junit-4.13.2.jar".to_string()),
        "{:?}",
        p.classpath
    );
    assert!(
        n.iter().any(|j| j.starts_with("hamcrest")),
        "{:?}",
        p.classpath
    );
    assert!(
        !n.iter().any(|j| j.contains("mm-core")),
        "{:?}",
        p.classpath
    );
}

#[test]
fn multimodule_from_the_repository_directory() {
    if !has_junit_in_debian_repo() {
        eprintln!("skipped: no junit in {DEBIAN_REPO}");
        return;
    }
    let d = copy_fixture();
    let p = load_with(d.path(), &repo_only(Path::new(DEBIAN_REPO))).unwrap();
    check_multimodule(&p, d.path());
}

#[test]
fn multimodule_through_mvn() {
    let Some(mvn) = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("mvn"))
            .find(|m| m.is_file())
    }) else {
        eprintln!("skipped: no mvn");
        return;
    };
    if !has_junit_in_debian_repo()
        || !Path::new(DEBIAN_REPO)
            .join("org/apache/maven/plugins/maven-dependency-plugin")
            .is_dir()
    {
        eprintln!("skipped: no junit or maven-dependency-plugin in {DEBIAN_REPO}");
        return;
    }
    let d = copy_fixture();
    let opts = Options {
        repo: Some(DEBIAN_REPO.into()),
        mvn: Some(mvn),
        fallback: false,
    };
    let p = load_with(d.path(), &opts).unwrap();
    check_multimodule(&p, d.path());
    // one module alone (its parent found through the default relativePath): mvn on its own pom
    let core = load_with(&d.path().join("core"), &opts).unwrap();
    let root = d.path().canonicalize().unwrap();
    assert_eq!(core.source_dirs, vec![root.join("core/src/main/java")]);
    assert_eq!(core.classpath, p.classpath);
    // the public entry point (mvn from PATH, falling back to the repository) agrees
    assert_eq!(load(d.path(), Some(Path::new(DEBIAN_REPO))).unwrap(), p);
}

#[test]
fn properties_and_parent_are_interpolated() {
    let d = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    write_file(
        d.path(),
        "pom.xml",
        r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <groupId>org.ex</groupId><artifactId>parent</artifactId><version>2.5</version>
  <packaging>pom</packaging>
  <properties>
    <src.dir>src/java</src.dir>
    <lib.version>${project.version}-b</lib.version>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>ISO-8859-1</project.build.sourceEncoding>
  </properties>
  <dependencyManagement><dependencies>
    <dependency><groupId>${project.groupId}</groupId><artifactId>util</artifactId><version>${lib.version}</version></dependency>
  </dependencies></dependencyManagement>
</project>"#,
    );
    let child = write_file(
        d.path(),
        "child/pom.xml",
        r#"<project>
  <parent><groupId>org.ex</groupId><artifactId>parent</artifactId><version>2.5</version></parent>
  <artifactId>child</artifactId>
  <build><sourceDirectory>${src.dir}</sourceDirectory>
    <resources><resource><directory>conf</directory></resource></resources></build>
  <dependencies>
    <dependency><groupId>org.ex</groupId><artifactId>util</artifactId></dependency>
    <dependency><groupId>local</groupId><artifactId>x</artifactId><version>1</version>
      <scope>system</scope><systemPath>${project.basedir}/lib/x-${lib.version}.jar</systemPath></dependency>
  </dependencies>
</project>"#,
    );
    let child = child.parent().unwrap();
    std::fs::create_dir_all(child.join("src/java")).unwrap();
    std::fs::create_dir_all(child.join("conf")).unwrap();
    write_file(child, "lib/x-2.5-b.jar", "");
    write_file(repo.path(), "org/ex/util/2.5-b/util-2.5-b.jar", "");
    let p = load_with(child, &repo_only(repo.path())).unwrap();
    let child = child.canonicalize().unwrap();
    assert_eq!(p.source_dirs, vec![child.join("src/java")]);
    assert_eq!(p.resource_dirs, vec![child.join("conf")]);
    assert_eq!(p.release, "11");
    assert_eq!(p.encoding, "ISO-8859-1");
    assert_eq!(
        p.classpath,
        vec![
            repo.path().join("org/ex/util/2.5-b/util-2.5-b.jar"),
            child.join("lib/x-2.5-b.jar")
        ]
    );
}

#[test]
fn compiler_plugin_levels() {
    for (level, want) in [("1.6", "8"), ("1.8", "8"), ("7", "8"), ("17", "17")] {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("src/main/java")).unwrap();
        write_file(
            d.path(),
            "pom.xml",
            &format!(
                "<project><groupId>g</groupId><artifactId>a</artifactId><version>1</version>\
                 <build><plugins><plugin><artifactId>maven-compiler-plugin</artifactId>\
                 <configuration><source>{level}</source></configuration></plugin></plugins></build></project>"
            ),
        );
        let p = load_with(d.path(), &repo_only(d.path())).unwrap();
        assert_eq!(p.release, want, "{level}");
    }
}

#[test]
fn transitive_resolution_in_a_repository() {
    let d = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    std::fs::create_dir_all(d.path().join("src/main/java")).unwrap();
    write_file(
        d.path(),
        "pom.xml",
        "<project><groupId>g</groupId><artifactId>me</artifactId><version>1</version><dependencies>\
         <dependency><groupId>g</groupId><artifactId>a</artifactId><version>1</version>\
         <exclusions><exclusion><groupId>g</groupId><artifactId>excluded</artifactId></exclusion></exclusions></dependency>\
         <dependency><groupId>g</groupId><artifactId>t</artifactId><version>1</version><scope>test</scope></dependency>\
         </dependencies></project>",
    );
    let pom = |deps: &str| {
        format!("<project><groupId>g</groupId><artifactId>x</artifactId><version>1</version><dependencies>{deps}</dependencies></project>")
    };
    let dep = |a: &str, v: &str, scope: &str| {
        format!("<dependency><groupId>g</groupId><artifactId>{a}</artifactId><version>{v}</version><scope>{scope}</scope></dependency>")
    };
    write_file(r, "g/a/1/a-1.jar", "");
    write_file(
        r,
        "g/a/1/a-1.pom",
        &pom(&[
            dep("b", "1", "compile"),
            dep("c", "1", "test"),
            dep("excluded", "1", "compile"),
            dep("old", "1", "runtime"),
        ]
        .concat()),
    );
    write_file(r, "g/b/1/b-1.jar", "");
    write_file(r, "g/b/1/b-1.pom", &pom(&dep("t", "9", "compile")));
    write_file(r, "g/t/1/t-1.jar", "");
    write_file(r, "g/new/debian/new-debian.jar", "");
    write_file(
        r,
        "g/old/1/old-1.pom",
        "<project><groupId>g</groupId><artifactId>old</artifactId><version>1</version>\
         <distributionManagement><relocation><artifactId>new</artifactId><version>debian</version></relocation></distributionManagement></project>",
    );
    let p = load_with(d.path(), &repo_only(r)).unwrap();
    // direct deps first (t at version 1 wins over b's t:9: nearest wins), test scope of a's pom
    // and the exclusion not followed, the relocation followed
    assert_eq!(
        names(&p.classpath),
        ["a-1.jar", "t-1.jar", "b-1.jar", "new-debian.jar"]
    );
}

#[test]
fn malformed_or_missing_pom_names_the_file() {
    let d = tempfile::tempdir().unwrap();
    let e = load_with(d.path(), &repo_only(d.path()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("pom.xml"), "{e}");
    write_file(
        d.path(),
        "pom.xml",
        "<project>\n  <build>\n    <sourceDirectory>src</sourceDirectory>\n</project>\n",
    );
    let e = load_with(d.path(), &repo_only(d.path()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("pom.xml") && e.contains("malformed XML"), "{e}");
    write_file(d.path(), "pom.xml", "<project><build></build>");
    let e = load_with(d.path(), &repo_only(d.path()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("pom.xml") && e.contains("not closed"), "{e}");
}

#[test]
fn unresolvable_dependency_names_the_coordinates() {
    let d = tempfile::tempdir().unwrap();
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("src/main/java")).unwrap();
    write_file(
        d.path(),
        "pom.xml",
        "<project><groupId>g</groupId><artifactId>a</artifactId><version>1</version><dependencies>\
         <dependency><groupId>org.nowhere</groupId><artifactId>ghost</artifactId><version>9.9</version></dependency>\
         </dependencies></project>",
    );
    let e = load_with(d.path(), &repo_only(repo.path()))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("org.nowhere:ghost:9.9") && e.contains("pom.xml"),
        "{e}"
    );
    // mvn (if any) fails offline too, and the fallback reports the same
    let e = load(d.path(), Some(repo.path())).unwrap_err().to_string();
    assert!(e.contains("org.nowhere:ghost:9.9"), "{e}");
}

/// The multi-module fixture end to end through `init --maven`: a patch in `app` compiles and runs
/// against `core`'s classes; verdicts equal plain validation and the verified expectations.
#[test]
fn multimodule_fixture_end_to_end() {
    common::check_fixture_as("multimodule", "--maven");
}
