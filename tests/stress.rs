//! Verdicts do not depend on load: with every core kept busy by `stress-ng` (two spinning
//! processes per core), the default technique and plain validation give a fixture's verified
//! verdicts on its sets with a timeout (and one without), the timeouts included (test time is counted on the test thread, less its waits for a
//! CPU: `rules::clock`).

mod common;
use common::*;
use std::process::{Child, Command, Stdio};

/// `stress-ng` keeping every core busy until dropped.
struct Stress(Child);

impl Drop for Stress {
    fn drop(&mut self) {
        // SAFETY: signalling the process group this child leads (stress-ng forks its workers).
        unsafe {
            libc::killpg(self.0.id() as libc::pid_t, libc::SIGKILL);
        }
        let _ = self.0.wait();
    }
}

fn stress() -> Option<Stress> {
    use std::os::unix::process::CommandExt;
    let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
    let child = Command::new("stress-ng")
        .args([
            "--cpu",
            &(2 * cpus).to_string(),
            "--timeout",
            "1800s",
            "--quiet",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .ok()?;
    Some(Stress(child))
}

#[test]
fn a_loaded_machine_changes_no_verdict() {
    if Command::new("stress-ng").arg("--version").output().is_err() {
        let msg = "skipping the stress test: stress-ng is not installed (scripts/setup.sh --tests \
                   installs it)";
        println!("{msg}");
        eprintln!("{msg}");
        return;
    }
    let (_tmp, project) = fixture("textutil");
    let work = project.parent().unwrap().join("work");
    // `init` on the quiet machine, as a study does before it validates.
    init(&project, &work);
    let expected = expected(&project);
    let _load = stress().expect("stress-ng starts");
    // The load is real: a spinning thread gets well under its share of a CPU.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let contention = patchval::rules::load::contention();
    println!("CPU contention under stress-ng: x{contention:.1}");
    assert!(
        contention >= 1.5,
        "stress-ng does not load the machine: x{contention:.1}"
    );

    // The sets with a timeout, and one without: a timeout is what load could change.
    let sets = project.parent().unwrap().join("loaded-sets");
    std::fs::create_dir_all(&sets).unwrap();
    let names = [
        "count_advance.json",
        "count_late_loop.json",
        "count_increment.json",
    ];
    for name in names {
        std::fs::copy(project.join("patches").join(name), sets.join(name)).unwrap();
    }
    let fast = run_flags_ok(&work, &sets, &[], 2);
    let got: Vec<(String, String)> = fast
        .iter()
        .map(|r| (r.set_name(), r.succlist.clone()))
        .collect();
    let want: Vec<(String, String)> = expected
        .clone()
        .into_iter()
        .filter(|(set, _)| names.contains(&set.as_str()))
        .collect();
    assert_eq!(got, want, "default technique under load");

    // Plain validation of the set with the timeout: a fresh JVM per patch, under the same load.
    let set = project.join("patches/count_advance.json");
    let plain = run_flags_ok(&work, &set, &["--technique", "plain"], 2);
    assert_eq!(plain.len(), 1);
    assert_eq!(
        plain[0].succlist, expected["count_advance.json"],
        "plain under load"
    );
}
