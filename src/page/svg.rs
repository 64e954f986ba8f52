//! Bar charts as inline SVG for the report page: grouped bars with a value axis, labels and a
//! legend, no script and nothing fetched.

use super::esc;

/// Fill colours of the series, and of the verdict letters.
pub const PALETTE: [&str; 6] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1",
];

pub fn verdict_colour(letter: char) -> &'static str {
    match letter {
        's' => "#59a14f",
        'F' => "#e15759",
        'C' => "#9c9c9c",
        'T' => "#f28e2b",
        _ => "#b07aa1",
    }
}

/// A chart of groups (one per label) of bars (one per series: name, colour, values); `None`
/// values are left out.
pub struct Bars<'a> {
    pub title: &'a str,
    pub unit: &'a str,
    pub labels: Vec<String>,
    pub series: Vec<(String, &'static str, Vec<Option<f64>>)>,
}

impl Bars<'_> {
    pub fn render(&self) -> String {
        let (left, top, bar, gap, height) = (60.0, 30.0, 18.0, 14.0, 180.0);
        let per_group = self.series.len().max(1) as f64 * bar + gap;
        let longest = self
            .labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0) as f64;
        // A label drawn at 30 degrees reaches about 5 px per character to the right of its bar.
        let width = (left + per_group * self.labels.len().max(1) as f64 + 20.0 + longest * 5.0)
            .max(left + 120.0 * self.series.len() as f64)
            .max(left + 8.5 * self.title.chars().count() as f64)
            .max(320.0);
        // Labels are drawn at 30 degrees: room below the axis for the longest.
        let below = 24.0 + longest * 6.0 * 0.5;
        let max = self
            .series
            .iter()
            .flat_map(|(_, _, v)| v.iter().flatten())
            .fold(0.0f64, |m, v| m.max(*v));
        let max = if max > 0.0 { max * 1.1 } else { 1.0 };
        let y = |v: f64| top + height - v / max * height;
        let mut out = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" role="img" aria-label="{t}"><text x="{left}" y="16" class="title">{t}</text>"#,
            w = width,
            h = top + height + below + 24.0,
            t = esc(self.title),
        );
        for k in 0..=4 {
            let v = max * k as f64 / 4.0;
            out += &format!(
                r##"<line x1="{left}" x2="{x2:.0}" y1="{yy:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{tx}" y="{ty:.1}" text-anchor="end" class="axis">{v}</text>"##,
                x2 = width - 10.0,
                yy = y(v),
                tx = left - 4.0,
                ty = y(v) + 4.0,
                v = short(v),
            );
        }
        for (g, label) in self.labels.iter().enumerate() {
            let x0 = left + g as f64 * per_group + gap / 2.0;
            for (s, (_, colour, values)) in self.series.iter().enumerate() {
                let Some(v) = values.get(g).copied().flatten() else {
                    continue;
                };
                let x = x0 + s as f64 * bar;
                out += &format!(
                    r#"<rect x="{x:.1}" y="{yy:.1}" width="{bw}" height="{bh:.1}" fill="{c}"><title>{l}: {v} {u}</title></rect>"#,
                    yy = y(v),
                    bw = bar - 2.0,
                    bh = (top + height - y(v)).max(0.5),
                    c = colour,
                    l = esc(label),
                    v = short(v),
                    u = esc(self.unit),
                );
            }
            out += &format!(
                r#"<text x="{x:.1}" y="{yy:.1}" class="label" transform="rotate(30 {x:.1} {yy:.1})">{l}</text>"#,
                x = x0,
                yy = top + height + 14.0,
                l = esc(label),
            );
        }
        for (s, (name, colour, _)) in self.series.iter().enumerate() {
            let x = left + s as f64 * 120.0;
            let yy = top + height + below + 14.0;
            out += &format!(
                r#"<rect x="{x:.0}" y="{ry:.0}" width="10" height="10" fill="{c}"/><text x="{tx:.0}" y="{yy:.0}" class="legend">{n}</text>"#,
                ry = yy - 9.0,
                c = colour,
                tx = x + 14.0,
                n = esc(name),
            );
        }
        out + "</svg>"
    }
}

/// A number short enough for an axis.
fn short(v: f64) -> String {
    if v == 0.0 || v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// One horizontal bar of verdict counts, its parts coloured by verdict.
pub fn verdict_strip(counts: &[(char, usize)]) -> String {
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    let mut out =
        String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="14">"#);
    let mut x = 0.0;
    for (letter, n) in counts {
        let w = 200.0 * *n as f64 / total.max(1) as f64;
        out += &format!(
            r#"<rect x="{x:.1}" y="0" width="{w:.1}" height="14" fill="{c}"><title>{n} {letter}</title></rect>"#,
            c = verdict_colour(*letter),
        );
        x += w;
    }
    out + "</svg>"
}
