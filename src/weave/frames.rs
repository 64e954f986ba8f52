//! Stack frames of the woven file read as frames of the plainly patched file: which line of the
//! patched file each woven line comes from, and generated method names back to the patched
//! method's, so failure details read as a plain run's do.

use std::ops::Range;

/// Where a line of the woven file comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The original line, before the patched location (same number in every patched file).
    Before(usize),
    /// The original line, after the patched location (shifted by a patch that changes the
    /// number of lines).
    After(usize),
    /// Generated code standing for the location (the stub, wrappers around a patch).
    Site,
    /// Line `k` (0-based) of patch `p`'s statement, in its generated method.
    Patch(usize, usize),
    /// Line `l` of patch `p`'s whole patched file: a method it adds, woven as it wrote it.
    Exact(usize, usize),
}

/// The line map of one woven file and what a frame in it must look like.
#[derive(Debug, Clone, Default)]
pub struct FrameMap {
    /// Per woven line (index = line - 1).
    pub origins: Vec<Origin>,
    /// Line of the patched location in the original file.
    pub site_line: usize,
    /// Per patch index: how its lines move from the original's (`Shift`).
    pub shifts: Vec<(usize, Shift)>,
    /// The file's name (`Foo.java`) and package (`""` for the default package).
    pub file_name: String,
    pub package: String,
    /// The patched method's name as a JVM frame shows it (`<init>` for a constructor).
    pub method: String,
    /// The compiled classes' line tables already carry the patched files' lines
    /// (`plain_line`, written by `compile`): frames need no line mapped.
    pub rewritten: bool,
}

/// How the lines of one patch's plainly patched file lie against the woven file's origins: the
/// lines its statement adds (or removes) at the location, and where its edits of comments and
/// blank lines elsewhere in the file (left out of the weave, `weave::trivia`) move them after.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shift {
    pub delta: isize,
    pub remap: Remap,
}

/// Lines of a patched file as woven (edits that change no token left out) moved to the whole
/// patched file's: from each listed line on (1-based, ascending), lines move by its shift.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Remap(Vec<(usize, isize)>);

impl Remap {
    /// The remap of the given (line, shift) points, in any order; points that change nothing
    /// are dropped, so equal remaps compare equal.
    pub fn new(mut points: Vec<(usize, isize)>) -> Remap {
        points.sort();
        let mut out: Vec<(usize, isize)> = Vec::new();
        for (line, shift) in points {
            let current = out.last().map_or(0, |&(_, s)| s);
            if shift == current {
                continue;
            }
            match out.last_mut() {
                Some(last) if last.0 == line => last.1 = shift,
                _ => out.push((line, shift)),
            }
        }
        Remap(out)
    }

    /// Where line `line` of the woven patched file is in the whole patched file.
    pub fn apply(&self, line: usize) -> usize {
        let at = self.0.partition_point(|&(l, _)| l <= line);
        let shift = at.checked_sub(1).map_or(0, |k| self.0[k].1);
        (line as isize + shift).max(1) as usize
    }

    pub fn is_identity(&self) -> bool {
        self.0.is_empty()
    }
}

/// 1-based line of a byte offset, given the sorted byte offsets where lines start.
pub fn line_at(starts: &[usize], byte: usize) -> usize {
    starts.partition_point(|&s| s <= byte)
}

/// Byte offsets where the lines of `text` start.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Where the lines of a woven file come from, as its text was written (see `Plan::weave`).
#[derive(Debug, Default)]
pub struct Layout {
    /// Bytes of the original file before this offset precede the location (`Origin::Before`).
    pub target_start: usize,
    /// Woven byte ranges copied from the original file, each with the original offset it
    /// starts at.
    pub copies: Vec<(Range<usize>, usize)>,
    /// Per patch: the woven byte range of its patched statement.
    pub statements: Vec<(usize, Range<usize>)>,
    /// Text woven as a patch's whole patched file has it (a method it adds, its version of
    /// another method's body): the patch, the woven byte range, the line of the whole patched
    /// file it starts on.
    pub exact: Vec<(usize, Range<usize>, usize)>,
}

impl Layout {
    /// Appends `src[range]` to `text`, noting the copy.
    pub fn copy(&mut self, text: &mut String, src: &str, range: Range<usize>) {
        let at = text.len();
        text.push_str(&src[range.clone()]);
        self.copies.push((at..text.len(), range.start));
    }

    /// Appends `what` to `text` as patch `patch`'s whole patched file has it from line `line`.
    pub fn exact(&mut self, text: &mut String, patch: usize, what: &str, line: usize) {
        let at = text.len();
        text.push_str(what);
        self.exact.push((patch, at..text.len(), line));
    }

    /// The origin of every line of `woven`, made from `src`.
    pub fn origins(&self, src: &str, woven: &str) -> Vec<Origin> {
        let src_starts = line_starts(src);
        let orig = |byte: usize| line_at(&src_starts, byte);
        line_starts(woven)
            .into_iter()
            .map(|b| {
                if let Some((p, r, line)) = self.exact.iter().find(|(_, r, _)| r.contains(&b)) {
                    Origin::Exact(*p, line + woven[r.start..b].matches('\n').count())
                } else if let Some((p, r)) = self.statements.iter().find(|(_, r)| r.contains(&b)) {
                    Origin::Patch(*p, woven[r.start..b].matches('\n').count())
                } else if let Some((r, from)) = self.copies.iter().find(|(r, _)| r.contains(&b)) {
                    let at = from + (b - r.start);
                    if at < self.target_start {
                        Origin::Before(orig(at))
                    } else {
                        Origin::After(orig(at))
                    }
                } else {
                    Origin::Site
                }
            })
            .collect()
    }
}

impl FrameMap {
    /// The line in the file patched with `patch` that woven line `line` stands for.
    pub fn line(&self, patch: usize, line: usize) -> Option<usize> {
        if self.rewritten {
            return Some(line);
        }
        let default = Shift::default();
        let shift = self
            .shifts
            .iter()
            .find(|(p, _)| *p == patch)
            .map_or(&default, |(_, s)| s);
        let woven = match *self.origins.get(line.checked_sub(1)?)? {
            Origin::Exact(p, l) if p == patch => return Some(l),
            Origin::Before(l) => l,
            Origin::After(l) => (l as isize + shift.delta).max(1) as usize,
            Origin::Site => self.site_line,
            Origin::Patch(p, k) if p == patch => self.site_line + k,
            Origin::Patch(..) | Origin::Exact(..) => self.site_line,
        };
        Some(shift.remap.apply(woven))
    }

    /// The woven patches by how they move the lines (`Shift`), in order of first appearance:
    /// one line table for each.
    pub fn by_shift(&self) -> Vec<(Shift, Vec<usize>)> {
        let mut out: Vec<(Shift, Vec<usize>)> = Vec::new();
        for (p, d) in &self.shifts {
            match out.iter_mut().find(|(e, _)| e == d) {
                Some((_, ps)) => ps.push(*p),
                None => out.push((d.clone(), vec![*p])),
            }
        }
        out
    }

    /// The one way every woven patch moves the lines, when they share it (`None` when two
    /// move them differently: no single line table can then be every patched file's).
    pub fn common_shift(&self) -> Option<Shift> {
        let first = self
            .shifts
            .first()
            .map(|(_, s)| s.clone())
            .unwrap_or_default();
        self.shifts
            .iter()
            .all(|(_, s)| *s == first)
            .then_some(first)
    }

    /// The class-file line for woven line `line` when every woven patch moves the lines alike
    /// (`common_shift`): each patch's own lines as its patched file's, the lines around the
    /// location as every patched file's; what a `LineNumberTable` rewrite
    /// (`bytecode::lines::rewrite`) gives a woven class so that its frames carry plain's lines.
    pub fn plain_line(&self, line: usize) -> Option<usize> {
        self.plain_line_at(&self.common_shift()?, line)
    }

    /// [`FrameMap::plain_line`] for the woven patches that move the lines by `shift`: the line
    /// table of the class file those patches alone run in.
    pub fn plain_line_at(&self, shift: &Shift, line: usize) -> Option<usize> {
        let woven = match *self.origins.get(line.checked_sub(1)?)? {
            Origin::Before(l) => l,
            Origin::After(l) => (l as isize + shift.delta).max(1) as usize,
            Origin::Site => self.site_line,
            Origin::Patch(_, k) => self.site_line + k,
            Origin::Exact(_, l) => return Some(l),
        };
        Some(shift.remap.apply(woven))
    }

    /// `detail` with every frame of this file (`pkg.Cls.m(File.java:N)`) rewritten for the file
    /// patched with `patch`: its line there, and the patched method's name for a generated one.
    pub fn rewrite(&self, patch: usize, detail: &str) -> String {
        let needle = format!("({}:", self.file_name);
        let mut out = String::with_capacity(detail.len());
        let mut rest = detail;
        while let Some(at) = rest.find(&needle) {
            let (head, tail) = rest.split_at(at);
            let digits = tail[needle.len()..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            let number_end = needle.len() + digits;
            let closes = tail[number_end..].starts_with(')');
            let frame_start = head
                .rfind(|c: char| c.is_whitespace() || c == '(')
                .map_or(0, |i| i + 1);
            let (before, qualified) = head.split_at(frame_start);
            let mapped = tail[needle.len()..number_end]
                .parse::<usize>()
                .ok()
                .filter(|_| closes && self.ours(qualified))
                .and_then(|n| self.line(patch, n));
            match mapped {
                Some(line) => {
                    out.push_str(before);
                    out.push_str(&self.method_name(qualified));
                    out.push_str(&format!("{needle}{line})"));
                    rest = &tail[number_end + 1..];
                }
                None => {
                    out.push_str(head);
                    out.push_str(&tail[..needle.len()]);
                    rest = &tail[needle.len()..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// `pkg.Cls.method` (or `pkg.Cls$Inner.method`) names a class of this file's package.
    fn ours(&self, qualified: &str) -> bool {
        let Some((class, _)) = qualified.rsplit_once('.') else {
            return false;
        };
        let package = class.rsplit_once('.').map_or("", |(p, _)| p);
        package == self.package
    }

    /// `pkg.Cls.__pv_p3` → `pkg.Cls.method`; other names unchanged.
    fn method_name(&self, qualified: &str) -> String {
        match qualified.rsplit_once('.') {
            Some((class, m))
                if m.strip_prefix(crate::protocol::woven::UNIT_PREFIX)
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
            {
                format!("{class}.{}", self.method)
            }
            _ => qualified.to_string(),
        }
    }
}
