//! A full disk and a read-only work dir: an error naming the path and what is wrong, never a
//! verdict that differs from plain's, and nothing written outside the work dir. Mounting a small
//! file system needs privileges (CI runs as root in a container that allows it); without them
//! the tests say so on stderr and check nothing.

mod common;
use common::*;
use patchval::exit::ExitCode;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A file system mounted for a test, unmounted when dropped.
struct Mount(PathBuf);

impl Mount {
    fn tmpfs(at: &Path, kib: u64) -> Result<Mount, String> {
        std::fs::create_dir_all(at).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(at)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        Ok(Mount(at.to_path_buf()))
    }

    /// `dir` again at itself, read-only.
    fn read_only(dir: &Path) -> Result<Mount, String> {
        let run = |args: &[&str]| -> Result<(), String> {
            let out = Command::new("mount")
                .args(args)
                .arg(dir)
                .arg(dir)
                .output()
                .map_err(|e| e.to_string())?;
            if out.status.success() {
                Ok(())
            } else {
                Err(String::from_utf8_lossy(&out.stderr).into_owned())
            }
        };
        run(&["--bind"])?;
        let mount = Mount(dir.to_path_buf());
        run(&["-o", "remount,ro,bind"])?;
        Ok(mount)
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Every file below `dir` with its size and modification time.
fn listing(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let m = e.metadata().unwrap();
            (e.into_path(), (m.len(), m.modified().unwrap()))
        })
        .collect()
}

/// KiB used on the file system mounted at `dir` (a tmpfs counts in its own way: by pages).
fn kib_used(dir: &Path) -> u64 {
    let out = Command::new("df")
        .args(["-k", "--output=used"])
        .arg(dir)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Set name → succlist from `run`'s human lines on stdout.
fn human_verdicts(stdout: &str) -> BTreeMap<String, String> {
    stdout
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.split_once(": ")?;
            let succlist = rest.split(' ').next()?;
            Some((name.to_string(), succlist.to_string()))
        })
        .collect()
}

/// The work dir of an initialised calc copied onto tmpfs file systems with a little more room
/// than it takes, less each time: every set's verdicts are calc's, except `E`s, which come with
/// the disk's own error; the exit code says something went wrong; the project is untouched.
#[test]
fn a_full_disk_gives_errors_never_other_verdicts() {
    let (tmp, project) = fixture("calc");
    let expected = expected(&project);
    let work = tmp.path().join("work");
    init(&project, &work);
    let before = listing(&project);
    // What the work dir takes on a tmpfs.
    let used = {
        let at = tmp.path().join("measure");
        let _mount = match Mount::tmpfs(&at, 1 << 20) {
            Ok(m) => m,
            Err(why) => {
                eprintln!("skipped: cannot mount a tmpfs ({why})");
                return;
            }
        };
        copy_dir(&work, &at);
        kib_used(&at)
    };
    let mut saw_errors = false;
    for margin in (2..=12).rev().map(|k| k * 20) {
        let at = tmp.path().join(format!("full-{margin}"));
        let _mount = Mount::tmpfs(&at, used + margin).unwrap();
        copy_dir(&work, &at);
        let out = patchval(&[
            "run",
            "-w",
            at.to_str().unwrap(),
            "-j",
            "2",
            project.join("patches").to_str().unwrap(),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let got = human_verdicts(&stdout);
        let mut errors = false;
        for (set, want) in &expected {
            let Some(have) = got.get(set) else {
                continue;
            };
            assert_eq!(have.len(), want.len(), "{margin} KiB: {set}: {stdout}");
            for (h, w) in have.chars().zip(want.chars()) {
                assert!(
                    h == w || h == 'E',
                    "{margin} KiB spare: {set} is {have}, calc's verdicts are {want}\n{stdout}"
                );
                errors |= h == 'E';
            }
        }
        let write_failed = stderr.contains("patchval run: ");
        eprintln!(
            "{margin} KiB spare: exit {:?}, {got:?}{}",
            out.status.code(),
            if write_failed {
                ", results not all written"
            } else {
                ""
            }
        );
        if errors || write_failed {
            saw_errors = true;
            assert!(
                stdout.contains("No space left on device")
                    || stderr.contains("No space left on device"),
                "{margin} KiB spare: errors without the disk's reason\n{stdout}\n{stderr}"
            );
            assert_ne!(
                out.status.code(),
                Some(ExitCode::Ok.code()),
                "{margin} KiB spare"
            );
        } else {
            assert_eq!(got, expected, "{margin} KiB spare: {stderr}");
            assert_eq!(
                out.status.code(),
                Some(ExitCode::Ok.code()),
                "{margin} KiB spare: {stderr}"
            );
        }
        assert_eq!(
            listing(&project),
            before,
            "{margin} KiB spare: the project changed"
        );
    }
    assert!(saw_errors, "no margin was small enough to fill the disk");
}

/// A read-only work dir: `run` stops before validating anything, naming the path (exit
/// `Environment`).
#[test]
fn a_read_only_work_dir_is_an_error_naming_it() {
    let (tmp, project) = fixture("calc");
    let work = tmp.path().join("work");
    init(&project, &work);
    let _mount = match Mount::read_only(&work) {
        Ok(m) => m,
        Err(why) => {
            eprintln!("skipped: cannot mount read-only ({why})");
            return;
        }
    };
    let before = listing(&work);
    let out = patchval(&[
        "run",
        "-w",
        work.to_str().unwrap(),
        project
            .join("patches/binsearch_return.json")
            .to_str()
            .unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(ExitCode::Environment.code()),
        "{stderr}"
    );
    assert!(
        stderr.contains(&work.display().to_string()) && stderr.contains("Read-only file system"),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(listing(&work), before);
}
