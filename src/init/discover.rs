//! Test discovery at `init`: the top-level classes of the compiled tests, listed by a worker as
//! JUnit would run them (`TestLister`: JUnit 3/4 methods one by one, JUnit 5 methods, a class
//! with a `suite()` or another runner as one test), less what the project leaves out (a
//! Defects4J fileset, `exclude` patterns) and the classes that cannot load, each with why.

use super::InitError;
use crate::model::TestId;
use crate::pool::protocol::Request;
use crate::pool::Worker;
use crate::protocol::{line, list};
use crate::toolchain::join_path;
use crate::workdir::{State, WorkDir};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// The tests to run in the baseline; what is left out goes to `state.excluded`, with why.
pub fn tests(
    wd: &WorkDir,
    state: &mut State,
    worker: &mut Worker,
    timeout: Duration,
) -> Result<Vec<TestId>, InitError> {
    let classes = test_class_names(&wd.test_classes());
    // Classes a Defects4J fileset leaves out are listed too, so that only those with tests are
    // reported as excluded (a helper or an abstract base class is not a test left out).
    let mut fileset_out = BTreeMap::new();
    if let Some(fileset) = &state.project.test_fileset {
        for class in &classes {
            if let Some(why) = fileset.leaves_out(class) {
                fileset_out.insert(class.clone(), why);
            }
        }
        tracing::info!(
            "{} test classes in {}",
            classes.len() - fileset_out.len(),
            fileset.name
        );
    }
    let listed = worker
        .call(
            &Request::ListTests {
                classpath: wd.test_classpath(state, None),
                classes,
            },
            Some(timeout),
        )
        .map_err(InitError::Listing)?;
    let mut ids = Vec::new();
    let mut reported = BTreeSet::new();
    for text in listed.lines {
        if let Some(bad) = text.strip_prefix(list::LOAD_ERROR) {
            let (class, why) = bad
                .split_once(line::SEPARATOR)
                .unwrap_or((bad, "cannot load"));
            // Left out anyway: whether it holds tests is not known, so it is not reported.
            if !fileset_out.contains_key(class) {
                state.excluded.push((class.to_string(), why.to_string()));
            }
        } else if let Some(id) = TestId::parse(&text) {
            if let Some(why) = fileset_out.get(&id.class) {
                if reported.insert(id.class.clone()) {
                    state.excluded.push((id.class.clone(), why.clone()));
                }
                continue;
            }
            match state.project.excluded_by(&id.class, &id.method) {
                Some(pattern) => state
                    .excluded
                    .push((id.to_string(), format!("excluded by `{pattern}`"))),
                None => ids.push(id),
            }
        }
    }
    if fileset_out.len() > reported.len() {
        tracing::info!(
            "{} classes the fileset leaves out hold no tests (helpers, abstract classes)",
            fileset_out.len() - reported.len()
        );
    }
    if ids.is_empty() {
        return Err(InitError::NoTests(join_path(&state.project.test_dirs)));
    }
    Ok(ids)
}

/// Binary names of top-level classes below a class directory.
fn test_class_names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e
                .path()
                .strip_prefix(dir)
                .ok()?
                .to_string_lossy()
                .to_string();
            let name = rel.strip_suffix(".class")?;
            (!name.contains('$')).then(|| name.replace('/', "."))
        })
        .collect();
    v.sort();
    v
}
