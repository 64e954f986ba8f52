//! The embedded JVM of a worker process: start-up through the invocation API, native methods
//! registered for the woven code (`patchval.agent.RtNatives`, which `Rt` calls; both named in
//! `protocol.toml`), and string-array calls into the agent.

use super::session;
use crate::protocol::{self, begin, bridge, class, natives, select};
use jni::objects::{JClass, JObject, JObjectArray, JString};
use jni::sys::{jboolean, jclass, jint, jlong, JNIEnv};
use jni::{Env, EnvUnowned, InitArgsBuilder, JNIVersion, JavaVM, NativeMethod};
use std::ffi::c_void;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// Errors of the embedded JVM.
#[derive(Debug, thiserror::Error)]
pub enum JvmError {
    #[error("no JVM library at {0} (set JAVA_HOME to a JDK 17 or newer)")]
    NoLibjvm(PathBuf),
    #[error("cannot start the JVM: {0}")]
    Start(String),
    #[error("JNI call failed: {0}")]
    Call(String),
}

/// How many times woven code asked which patch to run (telemetry and sanity checks).
static CHOOSE_CALLS: AtomicU64 = AtomicU64::new(0);

// The natives of `protocol::natives` (declared in the generated `RtNatives`): raw
// `extern "system"` functions registered with RegisterNatives, on the hot path of every patched
// location; the logic is in `worker::session`. Each body runs inside `guarded`, so that a panic
// never unwinds into the JVM.

extern "system" fn rt_choose(_env: *mut JNIEnv, _class: jclass, _site: jint) -> jint {
    guarded(natives::CHOOSE.name, select::NONE, || {
        CHOOSE_CALLS.fetch_add(1, Ordering::Relaxed);
        session::choose()
    })
}

extern "system" fn rt_tree(_env: *mut JNIEnv, _class: jclass, _site: jint) -> jboolean {
    guarded(natives::TREE.name, false, session::is_tree)
}

extern "system" fn rt_begin(_env: *mut JNIEnv, _class: jclass, _site: jint) -> jint {
    guarded(natives::BEGIN.name, begin::UNSTABLE, session::begin)
}

extern "system" fn rt_round(_env: *mut JNIEnv, _class: jclass, _site: jint) -> jlong {
    session::round() as jlong
}

extern "system" fn rt_patch_at(_env: *mut JNIEnv, _class: jclass, _site: jint, k: jint) -> jint {
    guarded(natives::PATCH_AT.name, select::NONE, || {
        session::patch_at(k)
    })
}

extern "system" fn rt_report<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    _site: jint,
    patch: jint,
    change: JString<'local>,
) {
    guarded(natives::REPORT.name, (), || {
        let text = env
            .with_env(|env| -> jni::errors::Result<String> { change.try_to_string(env) })
            .resolve::<jni::errors::ThrowRuntimeExAndDefault>();
        session::report(patch, text);
    })
}

extern "system" fn rt_decide(_env: *mut JNIEnv, _class: jclass, _site: jint) -> jint {
    guarded(natives::DECIDE.name, select::NONE, session::decide)
}

/// Why a native panicked during the current request, if one did.
static NATIVE_FAULT: Mutex<Option<String>> = Mutex::new(None);
/// `NATIVE_FAULT` is set (checked on the hot path without the lock).
static FAULTED: AtomicBool = AtomicBool::new(false);

/// Armed by fault injection (`PATCHVAL_FAULT=panic:N`): the next native call panics.
static PANIC_NEXT: AtomicBool = AtomicBool::new(false);

/// Runs the body of a native. A panic must not unwind into the JVM (the process would abort with
/// nothing but Rust's last words in the log): it is caught, logged, and recorded for the worker,
/// which reports the request as a fault of its own ([`take_native_fault`]). Until then every native
/// answers `fallback` at once (`select::NONE`: no patch, which ends the round quickly); the round's
/// result is discarded.
fn guarded<R>(name: &str, fallback: R, body: impl FnOnce() -> R) -> R {
    if FAULTED.load(Ordering::Acquire) {
        return fallback;
    }
    let caught = std::panic::catch_unwind(AssertUnwindSafe(|| {
        if PANIC_NEXT.load(Ordering::Relaxed) && PANIC_NEXT.swap(false, Ordering::SeqCst) {
            panic!("injected by PATCHVAL_FAULT");
        }
        body()
    }));
    match caught {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".into());
            let why = format!("the native Rt.{name} panicked: {what}");
            tracing::error!("{why}; the request is reported as a worker fault");
            lock_fault().get_or_insert(why);
            FAULTED.store(true, Ordering::Release);
            fallback
        }
    }
}

fn lock_fault() -> std::sync::MutexGuard<'static, Option<String>> {
    NATIVE_FAULT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Why a native panicked since the last call, if one did (and clears it).
pub fn take_native_fault() -> Option<String> {
    if !FAULTED.load(Ordering::Acquire) {
        return None;
    }
    let why = lock_fault().take();
    FAULTED.store(false, Ordering::Release);
    why
}

/// Makes the next native call panic (fault injection for tests; see `worker::fault`).
pub fn panic_in_next_native() {
    PANIC_NEXT.store(true, Ordering::SeqCst);
}

/// Selects the patch that woven code runs in the following sequential rounds.
pub fn select_patch(patch: i32) {
    session::sequential(patch);
}

/// Number of times woven code reached a patched location so far.
pub fn choose_calls() -> u64 {
    CHOOSE_CALLS.load(Ordering::Relaxed)
}

/// Path of `libjvm.so` inside a JDK.
/// Launcher options whose value may follow as the next argument (`--add-opens X`), which only the
/// `java` command accepts: the invocation API takes them as one `--name=value` option.
const SPLIT_OPTIONS: [&str; 8] = [
    "--add-opens",
    "--add-exports",
    "--add-reads",
    "--add-modules",
    "--enable-native-access",
    "--limit-modules",
    "--patch-module",
    "--upgrade-module-path",
];

/// The JVM options as `JNI_CreateJavaVM` takes them: `--add-opens X` joined into
/// `--add-opens=X` (surefire `argLine`s and `java` command lines use both forms); options only the
/// `java` launcher understands are refused with their name.
pub fn invocation_options(options: &[String]) -> Result<Vec<String>, JvmError> {
    let mut out = Vec::with_capacity(options.len());
    let mut it = options.iter();
    while let Some(o) = it.next() {
        if SPLIT_OPTIONS.contains(&o.as_str()) {
            let value = it
                .next()
                .ok_or_else(|| JvmError::Start(format!("JVM option {o} has no value")))?;
            out.push(format!("{o}={value}"));
        } else if [
            "-cp",
            "-classpath",
            "--class-path",
            "-jar",
            "-m",
            "--module",
        ]
        .contains(&o.as_str())
        {
            return Err(JvmError::Start(format!(
                "JVM option {o} is for the java launcher; give the class path in the project's classpath instead"
            )));
        } else {
            out.push(o.clone());
        }
    }
    Ok(out)
}

/// The one JVM of this process.
pub struct Jvm {
    vm: JavaVM,
}

impl Jvm {
    /// Starts the JVM with the agent on its class path and registers the runtime's natives.
    /// A process gets one JVM for its whole life: call this once.
    pub fn start(java_home: &Path, class_path: &str, options: &[String]) -> Result<Jvm, JvmError> {
        let lib = crate::toolchain::libjvm_path(java_home);
        if !lib.is_file() {
            return Err(JvmError::NoLibjvm(lib));
        }
        let mut builder = InitArgsBuilder::new()
            .version(JNIVersion::V1_8)
            .option(format!("-Djava.class.path={class_path}"));
        let options = invocation_options(options)?;
        for o in &options {
            builder = builder.option(o.clone());
        }
        let args = builder
            .build()
            .map_err(|e| JvmError::Start(e.to_string()))?;
        let vm = JavaVM::with_libjvm(args, || Ok(lib.clone())).map_err(|e| {
            JvmError::Start(format!(
                "{e} (JNI_CreateJavaVM with the options {})",
                options.join(" ")
            ))
        })?;
        let jvm = Jvm { vm };
        jvm.register_natives()?;
        Ok(jvm)
    }

    fn register_natives(&self) -> Result<(), JvmError> {
        self.vm
            .attach_current_thread(|env: &mut Env| -> jni::errors::Result<()> {
                let class = env.find_class(class::RT_NATIVES_JNI)?;
                let methods: Vec<NativeMethod> = rt_natives()
                    .iter()
                    // SAFETY: each function has the C ABI of the static native of that
                    // descriptor (see `rt_natives`).
                    .map(|(n, f)| unsafe {
                        NativeMethod::from_raw_parts(n.jni_name, n.jni_descriptor, *f)
                    })
                    .collect();
                // SAFETY: the descriptors match the functions, all static.
                unsafe { env.register_native_methods(&class, &methods) }
            })
            .map_err(|e| {
                JvmError::Start(format!("registering natives of {}: {e}", class::RT_NATIVES))
            })
    }

    /// Calls `patchval.agent.Bridge.call(String[])` (`protocol::bridge`), the agent's single entry
    /// point.
    pub fn call(&self, args: &[String]) -> Result<Vec<String>, JvmError> {
        self.vm
            .attach_current_thread(|env: &mut Env| -> jni::errors::Result<Vec<String>> {
                let array = JObjectArray::<JString>::new(env, args.len(), JString::null())?;
                for (i, a) in args.iter().enumerate() {
                    let s = JString::from_str(env, a)?;
                    array.set_element(env, i, &s)?;
                    env.delete_local_ref(s);
                }
                let result = env
                    .call_static_method(
                        class::BRIDGE_JNI,
                        bridge::METHOD_JNI,
                        bridge::SIGNATURE_JNI,
                        &[(&array).into()],
                    )?
                    .l()?;
                strings_of(env, result)
            })
            .map_err(|e| JvmError::Call(e.to_string()))
    }
}

/// Each native of the table with the function implementing it. The function's parameters and
/// result must be the JNI types of the native's Java declaration (`jint` for `int`, `jboolean` for
/// `boolean`, `jlong` for `long`, `JString` for `String`), after the `JNIEnv` and the class.
fn rt_natives() -> [(protocol::Native, *mut c_void); 7] {
    [
        (natives::CHOOSE, rt_choose as *mut c_void),
        (natives::TREE, rt_tree as *mut c_void),
        (natives::BEGIN, rt_begin as *mut c_void),
        (natives::ROUND, rt_round as *mut c_void),
        (natives::PATCH_AT, rt_patch_at as *mut c_void),
        (natives::REPORT, rt_report as *mut c_void),
        (natives::DECIDE, rt_decide as *mut c_void),
    ]
}

fn strings_of(env: &mut Env, obj: JObject) -> jni::errors::Result<Vec<String>> {
    if obj.is_null() {
        return Ok(Vec::new());
    }
    let array = env.cast_local::<JObjectArray<JString>>(obj)?;
    let n = array.len(env)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let s = array.get_element(env, i)?;
        out.push(if s.is_null() {
            String::new()
        } else {
            s.try_to_string(env)?
        });
        env.delete_local_ref(s);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_native_of_the_table_is_registered_once() {
        let registered: Vec<&str> = rt_natives().iter().map(|(n, _)| n.name).collect();
        let table: Vec<&str> = natives::ALL.iter().map(|n| n.name).collect();
        assert_eq!(registered, table);
    }

    #[test]
    fn launcher_style_options_are_joined() {
        let got = invocation_options(&strings(&[
            "--add-opens",
            "java.base/java.lang=ALL-UNNAMED",
            "-Xmx1g",
            "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-modules",
            "java.sql",
        ]))
        .unwrap();
        assert_eq!(
            got,
            strings(&[
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "-Xmx1g",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-modules=java.sql",
            ])
        );
    }

    #[test]
    fn launcher_only_or_dangling_options_are_named() {
        let e = invocation_options(&strings(&["-cp", "x.jar"]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("-cp") && e.contains("class path"), "{e}");
        let e = invocation_options(&strings(&["--add-opens"]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--add-opens has no value"), "{e}");
    }
}
