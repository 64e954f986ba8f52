//! Reading a `pom.xml` into a small element tree with quick-xml (local names, trimmed text),
//! with malformed XML reported by file and line.

use super::config;
use crate::project::{io_err, ProjectError};
use quick_xml::events::Event;
use std::path::Path;

/// An XML element: local name, trimmed text, children.
#[derive(Debug, Default, Clone)]
pub(super) struct El {
    pub name: String,
    pub text: String,
    pub kids: Vec<El>,
}

impl El {
    pub fn child(&self, name: &str) -> Option<&El> {
        self.kids.iter().find(|k| k.name == name)
    }
    pub fn all<'a>(&'a self, path: &'a [&'a str]) -> Vec<&'a El> {
        let mut cur = vec![self];
        for n in path {
            cur = cur
                .into_iter()
                .flat_map(|e| e.kids.iter().filter(move |k| k.name == *n))
                .collect();
        }
        cur
    }
    pub fn text_at(&self, path: &[&str]) -> Option<String> {
        self.all(path).first().map(|e| e.text.clone())
    }
}

pub(super) fn parse_xml(path: &Path) -> Result<El, ProjectError> {
    let text = std::fs::read_to_string(path).map_err(io_err(path))?;
    let mut reader = quick_xml::Reader::from_str(&text);
    let line = |pos: u64| text[..(pos as usize).min(text.len())].matches('\n').count() + 1;
    let bad = |pos: u64, what: String| {
        config(path, format!("malformed XML at line {}: {what}", line(pos)))
    };
    let mut stack = vec![El::default()];
    loop {
        let ev = reader
            .read_event()
            .map_err(|e| bad(reader.error_position(), e.to_string()))?;
        let empty = matches!(ev, Event::Empty(_));
        match ev {
            Event::Start(s) | Event::Empty(s) => {
                let name = String::from_utf8_lossy(s.local_name().as_ref()).into_owned();
                let el = El {
                    name,
                    ..El::default()
                };
                if empty {
                    stack.last_mut().expect("root").kids.push(el);
                } else {
                    stack.push(el);
                }
            }
            Event::End(_) => {
                let mut el = stack.pop().expect("checked end names");
                el.text = el.text.trim().to_string();
                stack
                    .last_mut()
                    .ok_or_else(|| bad(reader.buffer_position(), "unbalanced".into()))?
                    .kids
                    .push(el);
            }
            Event::Text(t) => {
                let s = t
                    .unescape()
                    .map_err(|e| bad(reader.buffer_position(), e.to_string()))?;
                stack.last_mut().expect("root").text.push_str(&s);
            }
            Event::CData(c) => {
                let s = String::from_utf8_lossy(&c.into_inner()).into_owned();
                stack.last_mut().expect("root").text.push_str(&s);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err(bad(
            text.len() as u64,
            format!("<{}> is not closed", stack.last().expect("open").name),
        ));
    }
    let doc = stack.pop().expect("document");
    match doc.kids.into_iter().find(|k| k.name == "project") {
        Some(p) => Ok(p),
        None => Err(config(path, "no <project> element".into())),
    }
}
