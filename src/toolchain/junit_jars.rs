//! The jars patchval takes from Debian's packages in `/usr/share/java` (JUnit, and ASM for the
//! agent's instrumenter), in one place for build.rs (which compiles the agent against all of
//! them), `Toolchain::detect` and `project::warm`.

/// JUnit 4 and Hamcrest (packages `junit4`, `libhamcrest-java`): always required.
pub const JUNIT4_JARS: [&str; 2] = ["junit4.jar", "hamcrest-core.jar"];

/// The JUnit 5 jars of Debian's `junit5` package (and its dependencies): the Jupiter API (with
/// params) for compiling tests, the Jupiter engine and the Platform launcher for running them.
/// The separate jars rather than `junit-platform-console-standalone.jar`, which also bundles
/// JUnit 4 and Hamcrest 2: on the worker's system class path (parent-first) its
/// `org.hamcrest.Matchers` would shadow a project's own Hamcrest library, unlike in plain runs.
pub const JUPITER_JARS: [&str; 8] = [
    "junit-jupiter-api.jar",
    "junit-jupiter-params.jar",
    "junit-jupiter-engine.jar",
    "junit-platform-commons.jar",
    "junit-platform-engine.jar",
    "junit-platform-launcher.jar",
    "opentest4j.jar",
    "apiguardian-api.jar",
];

/// ASM (package `libasm-java`): the agent's `patchval.instrument` is compiled against these (the
/// core, and the tree and analysis packages `PureInit` uses) and loads them at run time in a class
/// loader of its own, apart from the project's classes.
pub const ASM_JARS: [&str; 3] = ["asm.jar", "asm-tree.jar", "asm-analysis.jar"];

/// Where [`ASM_JARS`] are installed.
pub fn asm_jars() -> Vec<std::path::PathBuf> {
    ASM_JARS
        .iter()
        .map(|j| std::path::Path::new("/usr/share/java").join(j))
        .collect()
}
