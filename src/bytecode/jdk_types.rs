//! The JDK's class hierarchy (each class's superclass and interfaces), read from the JDK's own
//! `lib/ct.sym`: the class headers `javac --release N` compiles against, one zip entry per class
//! and range of releases. The purity scan only sees the class path; this tells it which JDK
//! types a class of the class path extends, so a call on a JDK type dispatches only to the
//! class path's subtypes of it; and which instance methods JDK types declare, so the stack
//! analysis knows which class-path methods JDK code may call back as overrides.

use super::classfile::{self, ACC_FINAL, ACC_PRIVATE, ACC_STATIC};
use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::Path;

/// Why `ct.sym` could not be read (the caller logs it and goes on without the JDK's types).
#[derive(Debug, thiserror::Error)]
enum CtSymError {
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("not a readable zip: {0}")]
    Zip(#[from] zip::result::ZipError),
}

/// The JDK's types: internal class name → direct supertypes (superclass first, then
/// interfaces), and the instance methods they declare that a subclass can override.
#[derive(Debug, Default)]
pub struct Supertypes {
    supers: HashMap<String, Vec<String>>,
    overridable: HashSet<(String, String)>,
}

impl Supertypes {
    /// The direct supertypes of a JDK class, if it is known.
    pub fn get(&self, class: &str) -> Option<&Vec<String>> {
        self.supers.get(class)
    }

    /// The simple names of the JDK's classes (`Map$Entry` → `Entry`).
    pub fn simple_names(&self) -> HashSet<&str> {
        self.supers
            .keys()
            .map(|c| c.rsplit(['/', '$']).next().unwrap_or(c))
            .collect()
    }

    /// Whether nothing was read (`ct.sym` missing).
    pub fn is_empty(&self) -> bool {
        self.supers.is_empty()
    }

    /// Whether some JDK class or interface declares an instance method of this name and
    /// descriptor that is neither final nor private: a class-path method of that signature may
    /// be an override JDK code calls.
    pub fn overridable(&self, name: &str, descriptor: &str) -> bool {
        self.overridable
            .contains(&(name.to_string(), descriptor.to_string()))
    }
}

/// The hierarchy of the JDK at `java_home`, newest release's header of each class. Empty (every
/// JDK ancestry unknown, which callers take as "may be any type") when `ct.sym` is missing or
/// unreadable; the reason is logged.
pub fn read(java_home: &Path) -> Supertypes {
    let path = java_home.join("lib/ct.sym");
    match read_ct_sym(&path) {
        Ok(types) => types,
        Err(why) => {
            tracing::warn!(
                "{}: {why}; calls on JDK types dispatch to every override on the class path",
                path.display()
            );
            Supertypes::default()
        }
    }
}

fn read_ct_sym(path: &Path) -> Result<Supertypes, CtSymError> {
    let file = std::fs::File::open(path)?;
    let mut zip = zip::ZipArchive::new(file)?;
    // Per class file path below the release directory: the entry of the newest release.
    let mut newest: HashMap<String, (String, usize)> = HashMap::new();
    for i in 0..zip.len() {
        let name = zip.name_for_index(i).unwrap_or_default().to_string();
        let Some((releases, rest)) = name.split_once('/') else {
            continue;
        };
        if !rest.ends_with(".sig") || rest.ends_with("module-info.sig") {
            continue;
        }
        // Releases are named 7, 8, 9, A (10), B (11), ...: ASCII order is release order.
        let last = releases.chars().max().unwrap_or('0').to_string();
        let class = rest
            .split_once('/')
            .map_or(rest, |(_module, c)| c)
            .to_string();
        match newest.get(&class) {
            Some((r, _)) if *r >= last => {}
            _ => {
                newest.insert(class, (last, i));
            }
        }
    }
    let mut types = Supertypes::default();
    let mut bytes = Vec::new();
    for (_, i) in newest.into_values() {
        let mut entry = zip.by_index(i)?;
        bytes.clear();
        entry.read_to_end(&mut bytes)?;
        let Ok(c) = classfile::parse(&bytes) else {
            continue;
        };
        for m in &c.methods {
            let instance = m.access & (ACC_STATIC | ACC_FINAL | ACC_PRIVATE) == 0;
            if instance && !m.name.starts_with('<') {
                types
                    .overridable
                    .insert((m.name.clone(), m.descriptor.clone()));
            }
        }
        let supers = c.super_name.into_iter().chain(c.interfaces).collect();
        types.supers.insert(c.name, supers);
    }
    Ok(types)
}

#[cfg(test)]
mod tests {
    use super::read;
    use std::path::Path;

    #[test]
    fn the_jdk_hierarchy_is_read_from_ct_sym() {
        let home = std::env::var("JAVA_HOME")
            .unwrap_or_else(|_| "/usr/lib/jvm/java-17-openjdk-amd64".to_string());
        let types = read(Path::new(&home));
        let supers = |c: &str| types.get(c).unwrap().clone();
        assert_eq!(
            supers("java/lang/RuntimeException"),
            ["java/lang/Exception"]
        );
        assert_eq!(supers("java/lang/Exception")[0], "java/lang/Throwable");
        assert!(supers("java/util/ArrayList").contains(&"java/util/List".to_string()));
        assert_eq!(
            supers("java/util/concurrent/ExecutionException")[0],
            "java/lang/Exception"
        );
        assert!(types.overridable("run", "()V"));
        assert!(types.overridable("compare", "(Ljava/lang/Object;Ljava/lang/Object;)I"));
        assert!(types.overridable("propertyChange", "(Ljava/beans/PropertyChangeEvent;)V"));
        assert!(
            !types.overridable("getClass", "()Ljava/lang/Class;"),
            "final"
        );
    }
}
