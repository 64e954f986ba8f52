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
}

/// The line map of one woven file and what a frame in it must look like.
#[derive(Debug, Clone, Default)]
pub struct FrameMap {
    /// Per woven line (index = line - 1).
    pub origins: Vec<Origin>,
    /// Line of the patched location in the original file.
    pub site_line: usize,
    /// Per patch index: lines its statement adds (or removes) against the original's.
    pub deltas: Vec<(usize, isize)>,
    /// The file's name (`Foo.java`) and package (`""` for the default package).
    pub file_name: String,
    pub package: String,
    /// The patched method's name as a JVM frame shows it (`<init>` for a constructor).
    pub method: String,
    /// The compiled classes' line tables already carry the patched files' lines
    /// (`plain_line`, written by `compile`): frames need no line mapped.
    pub rewritten: bool,
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

/// The pieces a woven file is made of, as byte offsets (see `Plan::weave`).
pub struct Layout<'a> {
    pub src: &'a str,
    pub target: Range<usize>,
    pub method_end: usize,
    /// Woven offset where the stub ends and `src[target.end..method_end]` starts.
    pub stub_end: usize,
    /// Woven offset where the generated members start (after the enclosing method).
    pub generated: usize,
    /// Woven offset where `src[method_end..]` starts.
    pub tail: usize,
    /// Per patch: the woven byte range of its patched statement.
    pub statements: Vec<(usize, Range<usize>)>,
}

impl Layout<'_> {
    /// The origin of every line of `woven`.
    pub fn origins(&self, woven: &str) -> Vec<Origin> {
        let src_starts = line_starts(self.src);
        let orig = |byte: usize| line_at(&src_starts, byte);
        line_starts(woven)
            .into_iter()
            .map(|b| {
                if let Some((p, r)) = self.statements.iter().find(|(_, r)| r.contains(&b)) {
                    Origin::Patch(*p, woven[r.start..b].matches('\n').count())
                } else if b < self.target.start {
                    Origin::Before(orig(b))
                } else if b < self.stub_end {
                    Origin::Site
                } else if b < self.generated {
                    Origin::After(orig(b - self.stub_end + self.target.end))
                } else if b >= self.tail {
                    Origin::After(orig(b - self.tail + self.method_end))
                } else {
                    self.statements
                        .iter()
                        .find(|(_, r)| r.contains(&b))
                        .map(|(p, r)| Origin::Patch(*p, woven[r.start..b].matches('\n').count()))
                        .unwrap_or(Origin::Site)
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
        let delta = self
            .deltas
            .iter()
            .find(|(p, _)| *p == patch)
            .map_or(0, |(_, d)| *d);
        Some(match *self.origins.get(line.checked_sub(1)?)? {
            Origin::Before(l) => l,
            Origin::After(l) => (l as isize + delta).max(1) as usize,
            Origin::Site => self.site_line,
            Origin::Patch(p, k) if p == patch => self.site_line + k,
            Origin::Patch(..) => self.site_line,
        })
    }

    /// The one line shift every woven patch gives the lines after the location, when they share
    /// it (`None` when two patches change the number of lines differently: no single line table
    /// can then be every patched file's).
    /// The woven patches by the line shift they give the lines after the location, in order of
    /// first appearance.
    pub fn by_delta(&self) -> Vec<(isize, Vec<usize>)> {
        let mut out: Vec<(isize, Vec<usize>)> = Vec::new();
        for &(p, d) in &self.deltas {
            match out.iter_mut().find(|(e, _)| *e == d) {
                Some((_, ps)) => ps.push(p),
                None => out.push((d, vec![p])),
            }
        }
        out
    }

    pub fn common_delta(&self) -> Option<isize> {
        let first = self.deltas.first().map_or(0, |&(_, d)| d);
        self.deltas
            .iter()
            .all(|&(_, d)| d == first)
            .then_some(first)
    }

    /// The class-file line for woven line `line` when every woven patch shares the line shift
    /// (`common_delta`): each patch's own lines as its patched file's, the lines around the
    /// location as every patched file's; what a `LineNumberTable` rewrite
    /// (`bytecode::lines::rewrite`) gives a woven class so that its frames carry plain's lines.
    pub fn plain_line(&self, line: usize) -> Option<usize> {
        self.plain_line_at(self.common_delta()?, line)
    }

    /// [`FrameMap::plain_line`] for the woven patches that shift the lines after the location
    /// by `delta`: the line table of the class file those patches alone run in.
    pub fn plain_line_at(&self, delta: isize, line: usize) -> Option<usize> {
        Some(match *self.origins.get(line.checked_sub(1)?)? {
            Origin::Before(l) => l,
            Origin::After(l) => (l as isize + delta).max(1) as usize,
            Origin::Site => self.site_line,
            Origin::Patch(_, k) => self.site_line + k,
        })
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
