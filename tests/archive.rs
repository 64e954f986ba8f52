//! The workers' class-data archive: `init` makes one that the JDK accepts for the workers' class
//! path, workers are offered it only while its stamp matches their configuration, and runs with
//! it keep the fixture's verdicts.

mod common;
use common::*;
use patchval::pool::spawn::worker_config;
use patchval::workdir::WorkDir;
use std::process::Command;

fn archive_option(wd: &WorkDir) -> Option<String> {
    let state = wd.load().expect("state");
    let config = worker_config(wd, &state.project, &state.tools, 0).expect("worker config");
    config
        .jvm_options
        .iter()
        .find(|o| o.starts_with("-XX:SharedArchiveFile="))
        .cloned()
}

#[test]
fn init_makes_an_archive_the_workers_map_and_verdicts_stay() {
    let (tmp, project) = fixture("calc");
    let work = tmp.path().join("work");
    init(&project, &work);
    let wd = WorkDir::new(&work);
    let runtime = work.join("runtime");
    assert!(runtime.join("worker.jsa").is_file(), "no archive");
    let log = std::fs::read_to_string(work.join("logs/cds-train.log")).expect("training log");
    assert!(log.contains("cds-train: compile: OK"), "{log}");
    assert!(log.contains("cds-train: runTest: PASS"), "{log}");
    assert!(log.contains("cds-train: runTestWarm: PASS"), "{log}");

    // -Xshare:on makes the JVM fail instead of running without an archive it cannot map.
    let state = wd.load().expect("state");
    let config = worker_config(&wd, &state.project, &state.tools, 0).expect("config");
    let option = archive_option(&wd).expect("the workers are offered the archive");
    let check = Command::new(config.java_home.join("bin/java"))
        .args(config.jvm_options.iter().filter(|o| **o != option))
        .arg("-Xshare:on")
        .arg(&option)
        .arg("-cp")
        .arg(&config.class_path)
        .arg("-version")
        .output()
        .expect("java");
    assert!(
        check.status.success(),
        "the JVM does not map the archive:\n{}",
        String::from_utf8_lossy(&check.stderr)
    );

    let lines = run_flags_ok(&work, &project.join("patches"), &[], 2);
    let expected = expected(&project);
    for l in &lines {
        assert_eq!(
            Some(&l.succlist),
            expected.get(&l.set_name()),
            "{}",
            l.set_name()
        );
    }

    // A stamp for another configuration (here: another JDK) and the archive is not offered.
    let stamp = runtime.join("worker.jsa.stamp");
    let text = std::fs::read_to_string(&stamp).expect("stamp");
    std::fs::write(
        &stamp,
        text.replacen("java_home\t", "java_home\t/elsewhere", 1),
    )
    .unwrap();
    assert_eq!(archive_option(&wd), None);
}
