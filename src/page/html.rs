//! The report page (HTML with inline CSS and SVG) and the Markdown summary, for a run and for a
//! bench.

use super::svg::{verdict_colour, verdict_strip, Bars, PALETTE};
use super::{esc, RunView, SetView};
use crate::bench::{speedup, Record};
use std::collections::BTreeMap;

const STYLE: &str = "body{font-family:sans-serif;margin:2em;color:#222;max-width:1200px}\
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;font-size:14px}\
th{background:#f0f0f0}td.n{text-align:right}pre{background:#f7f7f7;padding:8px;overflow-x:auto;font-size:13px}\
.add{color:#1a7f37}.del{color:#cf222e}.hunk{color:#6e7781}.title{font-weight:bold;font-size:14px}\
.axis,.label,.legend{font-size:11px}.s{color:#2e7d32;font-weight:bold}.bad{color:#c62828;font-weight:bold}\
.letter{display:inline-block;width:1.2em;text-align:center;color:#fff;border-radius:3px;margin-right:2px}";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title><style>{STYLE}</style></head>\n<body><h1>{t}</h1>\n{body}</body></html>\n",
        t = esc(title)
    )
}

fn counts(succlist: &str) -> Vec<(char, usize)> {
    let mut m: BTreeMap<char, usize> = BTreeMap::new();
    for c in succlist.chars() {
        *m.entry(c).or_default() += 1;
    }
    let order = ['s', 'F', 'T', 'C', 'E'];
    let mut out: Vec<(char, usize)> = order
        .iter()
        .filter_map(|c| m.get(c).map(|n| (*c, *n)))
        .collect();
    out.extend(m.into_iter().filter(|(c, _)| !order.contains(c)));
    out
}

fn letters(cs: &[(char, usize)]) -> String {
    cs.iter()
        .map(|(c, n)| {
            format!(
                "<span class=\"letter\" style=\"background:{}\">{c}</span>{n} ",
                verdict_colour(*c)
            )
        })
        .collect()
}

/// A unified diff with its added and removed lines coloured.
fn diff_html(diff: &str) -> String {
    let lines: Vec<String> = diff
        .lines()
        .map(|l| {
            let class = if l.starts_with("@@") {
                "hunk"
            } else if l.starts_with('+') && !l.starts_with("+++") {
                "add"
            } else if l.starts_with('-') && !l.starts_with("---") {
                "del"
            } else {
                ""
            };
            format!("<span class=\"{class}\">{}</span>", esc(l))
        })
        .collect();
    format!("<pre>{}</pre>", lines.join("\n"))
}

fn secs(ms: f64) -> String {
    format!("{:.2} s", ms / 1000.0)
}

fn run_title(run: &RunView) -> String {
    format!(
        "patchval run {} — {} sets, technique {}{}",
        run.meta["id"].as_str().unwrap_or("?"),
        run.sets.len(),
        run.meta["technique"].as_str().unwrap_or("?"),
        if run.meta["dedup"] == false {
            " (--no-dedup)"
        } else {
            ""
        }
    )
}

fn wall(run: &RunView) -> Option<f64> {
    Some(run.meta["ended_unix"].as_f64()? - run.meta["started_unix"].as_f64()?)
}

pub fn run_page(run: &RunView) -> String {
    let total: String = run.sets.iter().map(|s| s.succlist.as_str()).collect();
    let mut body = format!(
        "<p>{} patches: {}{}</p>\n",
        total.len(),
        letters(&counts(&total)),
        wall(run).map_or(String::new(), |w| format!(" — wall {w:.1} s")),
    );
    body += "<h2>Sets</h2>\n<table><tr><th>set</th><th>location</th><th>verdicts</th><th></th><th>compile</th><th>trigger tests</th><th>other tests</th><th>full-suite passes</th></tr>\n";
    for s in &run.sets {
        let c = counts(&s.succlist);
        body += &format!(
            "<tr><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
            esc(&s.name),
            esc(&s.place),
            letters(&c),
            s.error.as_deref().map_or(String::new(), |e| format!("<br><span class=\"bad\">{}</span>", esc(e))),
            verdict_strip(&c),
            secs(s.compile_ms),
            secs(s.trigger_ms),
            secs(s.other_ms),
            secs(s.full_suite_ms),
        );
    }
    body += "</table>\n";
    body += &time_chart(&run.sets);
    body += "<h2>Plausible patches</h2>\n";
    let plausible: Vec<(&SetView, &(usize, String))> = run
        .sets
        .iter()
        .flat_map(|s| s.plausible.iter().map(move |p| (s, p)))
        .collect();
    if plausible.is_empty() {
        body += "<p>None.</p>\n";
    }
    for (s, (i, diff)) in plausible {
        body += &format!("<h3>{} patch {i}</h3>\n{}\n", esc(&s.name), diff_html(diff));
    }
    body += "<h2>Tests that rejected most patches</h2>\n<table><tr><th>test</th><th>patches rejected</th></tr>\n";
    for (t, n) in run.rejecting.iter().take(15) {
        body += &format!("<tr><td>{}</td><td class=\"n\">{n}</td></tr>\n", esc(t));
    }
    body += "</table>\n";
    page(&run_title(run), &body)
}

/// Where each set's time went, in seconds.
fn time_chart(sets: &[SetView]) -> String {
    let series = |f: fn(&SetView) -> f64| sets.iter().map(|s| Some(f(s) / 1000.0)).collect();
    Bars {
        title: "Where the time went, per set (seconds)",
        unit: "s",
        labels: sets.iter().map(|s| s.name.clone()).collect(),
        series: vec![
            ("compile".into(), PALETTE[0], series(|s| s.compile_ms)),
            ("trigger tests".into(), PALETTE[1], series(|s| s.trigger_ms)),
            ("other tests".into(), PALETTE[2], series(|s| s.other_ms)),
            (
                "full-suite passes".into(),
                PALETTE[3],
                series(|s| s.full_suite_ms),
            ),
        ],
    }
    .render()
}

pub fn run_markdown(run: &RunView) -> String {
    let mut out = format!(
        "# {}\n\n| set | location | verdicts | compile | trigger tests | other tests | full-suite passes |\n|---|---|---|---|---|---|---|\n",
        run_title(run)
    );
    for s in &run.sets {
        out += &format!(
            "| {} | {} | `{}` | {} | {} | {} | {} |\n",
            s.name,
            s.place,
            s.succlist,
            secs(s.compile_ms),
            secs(s.trigger_ms),
            secs(s.other_ms),
            secs(s.full_suite_ms)
        );
    }
    for s in &run.sets {
        for (i, diff) in &s.plausible {
            out += &format!(
                "\n## Plausible: {} patch {i}\n\n```diff\n{diff}```\n",
                s.name
            );
        }
    }
    out
}

/// The distinct values of `key` over a record's rows, in the order rows first name them.
fn first_seen(record: &Record, key: fn(&crate::bench::measure::Row) -> &String) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in &record.rows {
        if !out.contains(key(r)) {
            out.push(key(r).clone());
        }
    }
    out
}

pub fn bench_page(record: &Record) -> String {
    let (bugs, techs) = (
        first_seen(record, |r| &r.bug),
        first_seen(record, |r| &r.technique),
    );
    // A technique keeps its colour in every chart.
    let per = |f: &dyn Fn(&crate::bench::measure::Row) -> Option<f64>| -> Vec<(String, &'static str, Vec<Option<f64>>)> {
        techs
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let values = bugs
                    .iter()
                    .map(|b| {
                        record
                            .rows
                            .iter()
                            .find(|r| &r.bug == b && &r.technique == t)
                            .and_then(f)
                    })
                    .collect();
                (t.clone(), PALETTE[k % PALETTE.len()], values)
            })
            .collect()
    };
    let mut body = format!(
        "<p>{} bugs, techniques {}.</p>\n",
        bugs.len(),
        esc(&techs.join(", "))
    );
    body += &bench_table(record);
    let speed: Vec<_> = per(&|r| speedup(record, r))
        .into_iter()
        .filter(|(t, _, _)| t != "plain")
        .collect();
    body += &Bars {
        title: "Speed-up over plain validation, per bug",
        unit: "x",
        labels: bugs.clone(),
        series: speed,
    }
    .render();
    body += &Bars {
        title: "Time to the first plausible patch (seconds)",
        unit: "s",
        labels: bugs.clone(),
        series: per(&|r| r.first_plausible_seconds),
    }
    .render();
    body += &Bars {
        title: "Core seconds per patch",
        unit: "s",
        labels: bugs.clone(),
        series: per(&|r| Some(r.core_seconds_per_patch())),
    }
    .render();
    for (bug, why) in &record.failed {
        body += &format!(
            "<p class=\"bad\">{}: not benched: {}</p>\n",
            esc(bug),
            esc(why)
        );
    }
    page("patchval bench", &body)
}

fn bench_table(record: &Record) -> String {
    let mut out = String::from("<table><tr><th>bug</th><th>technique</th><th>patches</th><th>verdicts</th><th>before 1st s</th><th>1st s at</th><th>test runs</th><th>wall</th><th>core s/patch</th><th>patches/h</th><th>speed-up</th><th>disagreements</th></tr>\n");
    for r in &record.rows {
        let c: Vec<(char, usize)> = r.counts.iter().map(|(c, n)| (*c, *n)).collect();
        let dis = r.disagreements.map_or("–".to_string(), |d| {
            if d == 0 {
                "<span class=\"s\">0</span>".into()
            } else {
                format!("<span class=\"bad\">{d}</span>")
            }
        });
        out += &format!(
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.1} s</td><td class=\"n\">{:.3}</td><td class=\"n\">{:.0}</td><td class=\"n\">{}</td><td class=\"n\">{dis}</td></tr>\n",
            esc(&r.bug),
            esc(&r.technique),
            r.patches,
            letters(&c),
            r.before_first_plausible.map_or("–".into(), |v| v.to_string()),
            r.first_plausible_seconds.map_or("–".into(), |v| format!("{v:.1} s")),
            r.test_executions,
            r.wall_seconds,
            r.core_seconds_per_patch(),
            r.patches_per_hour(),
            speedup(record, r).map_or("–".into(), |v| format!("{v:.1}x")),
        );
    }
    out + "</table>\n"
}

pub fn bench_markdown(record: &Record) -> String {
    format!("# patchval bench\n\n{}", crate::bench::table(record))
}
