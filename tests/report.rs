//! `patchval report`: a run and a bench as one self-contained HTML page and a Markdown summary,
//! rendered by a real headless browser (Debian's chromium): the screenshot is not blank and the
//! page logs no script error.

mod common;
use common::*;
use std::path::Path;

/// Renders `page` with headless chromium; returns the screenshot's share of non-white pixels
/// and its count of distinct colours, and chromium's log.
fn render(page: &Path, dir: &Path) -> (f64, usize, String) {
    let shot = dir.join(format!(
        "{}.png",
        page.parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
    ));
    let out = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1280,1600",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs (scripts/setup.sh --tests installs it)");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    let decoder = png::Decoder::new(std::fs::File::open(&shot).expect(&log));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bytes = &buf[..info.buffer_size()];
    let step = info.color_type.samples();
    let mut colours = std::collections::BTreeSet::new();
    let mut inked = 0usize;
    let pixels = bytes.len() / step;
    for px in bytes.chunks(step) {
        let rgb = (px[0], px[1], px[2]);
        colours.insert(rgb);
        if rgb != (255, 255, 255) {
            inked += 1;
        }
    }
    (inked as f64 / pixels as f64, colours.len(), log)
}

fn assert_rendered(page: &Path, dir: &Path) {
    let html = std::fs::read_to_string(page).unwrap();
    assert!(!html.contains("<script"), "no script in the page");
    for fetch in ["src=\"http", "href=\"http", "@import", "url(http"] {
        assert!(!html.contains(fetch), "nothing fetched: {fetch}");
    }
    let (inked, colours, log) = render(page, dir);
    assert!(
        inked > 0.02,
        "{}: only {:.1} % of the screenshot is not white\n{log}",
        page.display(),
        inked * 100.0
    );
    assert!(colours > 8, "{}: {colours} colours\n{log}", page.display());
    for bad in ["Uncaught", "ERROR:CONSOLE", "CONSOLE(0)] \"Error"] {
        assert!(!log.contains(bad), "{}: {bad}\n{log}", page.display());
    }
}

#[test]
fn a_run_and_a_bench_render_in_a_headless_browser() {
    let (tmp, checkout) = fixture("d4jmath");
    let work = tmp.path().join("work");
    let w = work.to_str().unwrap();
    patchval_ok(&["init", "--defects4j", checkout.to_str().unwrap(), "-w", w]);
    let set = checkout.join("patches/mean_return.json");
    patchval_ok(&["run", "-w", w, set.to_str().unwrap()]);
    let printed = patchval_ok(&["report", "--run", w]);
    let page = work.join("runs/latest/report.html");
    assert!(
        printed.contains("report.html") && printed.contains("report.md"),
        "{printed}"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    for want in [
        "Plausible patches",
        "mean_return.json",
        "Tests that rejected most patches",
        "<svg",
    ] {
        assert!(html.contains(want), "{want}");
    }
    // The three fixes, each as a diff of Mean.java.
    assert_eq!(
        html.matches("--- a/src/java/org/example/stats/Mean.java")
            .count(),
        3
    );
    let md = std::fs::read_to_string(work.join("runs/latest/report.md")).unwrap();
    assert!(
        md.contains("| mean_return.json |") && md.contains("```diff"),
        "{md}"
    );
    assert_rendered(&page, tmp.path());

    // A bench's record, as `bench` writes it.
    let bench = tmp.path().join("bench");
    std::fs::create_dir_all(&bench).unwrap();
    let row = |t: &str, wall: f64, first: f64| {
        serde_json::json!({"bug": "math-1", "technique": t, "jobs": 2, "sets": 3, "patches": 40,
            "counts": {"s": 1, "F": 35, "C": 4}, "before_first_plausible": 17,
            "first_plausible_seconds": first, "test_executions": 60, "wall_seconds": wall,
            "core_seconds": wall * 1.5, "verdicts": {"a.json": "sFFC"},
            "disagreements": if t == "plain" { serde_json::Value::Null } else { 0.into() },
            "compile_seconds": 1.0})
    };
    let record = serde_json::json!({
        "rows": [row("plain", 60.0, 30.0), row("default", 4.0, 2.0)],
        "failed": [["math-2", "init failed"]],
        "generated": [],
    });
    std::fs::write(bench.join("bench.json"), record.to_string()).unwrap();
    patchval_ok(&["report", "--bench", bench.to_str().unwrap()]);
    let html = std::fs::read_to_string(bench.join("report.html")).unwrap();
    for want in [
        "Speed-up over plain",
        "15.0x",
        "math-2: not benched",
        "Core seconds per patch",
    ] {
        assert!(html.contains(want), "{want}");
    }
    assert_rendered(&bench.join("report.html"), tmp.path());

    // Something that is neither a run nor a bench is named.
    let out = patchval(&["report", "--run", tmp.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("neither a run directory"));
}
