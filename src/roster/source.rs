//! Reading one roster file of one layer: the TOML value tree plus a line index, so that every later
//! diagnostic can name the line of an entry or a field.
//!
//! Owns file I/O and TOML syntax errors. It never interprets the data.

use super::error::Diagnostic;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// One parsed roster file.
pub(crate) struct SourceFile {
    /// As shown in diagnostics.
    pub display: String,
    /// The layer it was read from: 0 the built-in one, then each `--mod` in order.
    pub layer: usize,
    pub table: toml::Table,
    pub lines: Arc<LineIndex>,
}

/// Line (1-based) of every key and array element, by path: `enemy[3]`, `enemy[3].traits[1]`,
/// `measures.short`.
#[derive(Debug, Default, Clone)]
pub(crate) struct LineIndex(BTreeMap<String, usize>);

impl LineIndex {
    /// The line of `path`, or of its closest recorded ancestor.
    pub fn get(&self, path: &str) -> Option<usize> {
        let mut p = path;
        loop {
            if let Some(l) = self.0.get(p) {
                return Some(*l);
            }
            let cut = p.rfind(['.', '['])?;
            p = &p[..cut];
        }
    }

    /// Every recorded path under `prefix` (the prefix itself included), in path order.
    pub fn under<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = (&'a str, usize)> + 'a {
        self.0
            .range(prefix.to_string()..)
            .take_while(move |(k, _)| k.starts_with(prefix))
            .filter(move |(k, _)| {
                prefix.is_empty()
                    || k.len() == prefix.len()
                    || matches!(k.as_bytes()[prefix.len()], b'.' | b'[')
            })
            .map(|(k, v)| (k.as_str(), *v))
    }
}

/// The name shown for `rosters/<file>` of layer `layer` rooted at `root`.
pub(crate) fn display_name(layer: usize, root: &Path, file: &str) -> String {
    if layer == 0 {
        format!("rosters/{file}")
    } else {
        root.join("rosters").join(file).display().to_string()
    }
}

/// Reads `root/rosters/<file>`. `Ok(None)` when the file does not exist.
pub(crate) fn read(
    layer: usize,
    root: &Path,
    file: &str,
) -> Result<Option<SourceFile>, Diagnostic> {
    let display = display_name(layer, root, file);
    let path = root.join("rosters").join(file);
    // Bounded, and only a regular file: a FIFO named `heroes.toml` would stall the loader.
    let text = match crate::files::read_regular_text(&path, crate::files::ROSTER) {
        Ok(t) => t,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => {
            return Err(Diagnostic::file(
                display,
                format!("cannot read: {}", e.reason()),
            ))
        }
    };
    parse(display, &text).map(|f| Some(SourceFile { layer, ..f }))
}

/// Parses TOML text already read.
pub(crate) fn parse(display: String, text: &str) -> Result<SourceFile, Diagnostic> {
    let spanned = match DeTable::parse(text) {
        Ok(t) => t,
        Err(e) => {
            let line = e.span().map(|s| line_of(text, s.start));
            return Err(
                Diagnostic::file(display, format!("TOML syntax error: {}", e.message())).line(line),
            );
        }
    };
    let mut lines = BTreeMap::new();
    let starts = LineStarts::of(text);
    index_table(&starts, "", spanned.get_ref(), &mut lines);
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        Diagnostic::file(display.clone(), format!("TOML error: {}", e.message())).line(line)
    })?;
    Ok(SourceFile {
        display,
        layer: 0,
        table,
        lines: Arc::new(LineIndex(lines)),
    })
}

/// 1-based line of a byte offset.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    LineStarts::of(text).line(offset)
}

/// The byte offset of every line start of a text, so that the line of an offset is a binary search.
/// Indexing a file asks for the line of every key: counting newlines from the start each time made
/// loading quadratic in the file's size (issue 16, defect 11: 28.5 s for 4,000 `[[hero]]` entries).
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn of(text: &str) -> Self {
        LineStarts(
            std::iter::once(0)
                .chain(
                    text.bytes()
                        .enumerate()
                        .filter(|(_, b)| *b == b'\n')
                        .map(|(i, _)| i + 1),
                )
                .collect(),
        )
    }

    /// 1-based line of a byte offset (an offset past the end is on the last line).
    fn line(&self, offset: usize) -> usize {
        // The number of line starts at or before `offset`; the first start is 0, so at least 1.
        self.0.partition_point(|&s| s <= offset).max(1)
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn index_table(
    text: &LineStarts,
    prefix: &str,
    table: &DeTable<'_>,
    out: &mut BTreeMap<String, usize>,
) {
    for (k, v) in table.iter() {
        let path = join(prefix, k.get_ref());
        out.insert(path.clone(), text.line(k.span().start));
        index_value(text, &path, v, out);
    }
}

fn index_value(
    text: &LineStarts,
    path: &str,
    v: &Spanned<DeValue<'_>>,
    out: &mut BTreeMap<String, usize>,
) {
    match v.get_ref() {
        DeValue::Table(t) => index_table(text, path, t, out),
        DeValue::Array(a) => {
            for (i, e) in a.iter().enumerate() {
                let p = format!("{path}[{i}]");
                out.insert(p.clone(), text.line(e.span().start));
                index_value(text, &p, e, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_entries_and_fields() {
        let text = "a = 1\n\n[[enemy]]\nname = \"X\"\ntraits = [\"A\",\n  \"B\"]\n\n[[enemy]]\nname = \"Y\"\n";
        let f = parse("t.toml".into(), text).unwrap();
        assert_eq!(f.lines.get("a"), Some(1));
        assert_eq!(f.lines.get("enemy[0].name"), Some(4));
        assert_eq!(f.lines.get("enemy[0].traits[1]"), Some(6));
        assert_eq!(f.lines.get("enemy[1].name"), Some(9));
        assert_eq!(
            f.lines.get("enemy[1].speed"),
            Some(8),
            "falls back to the entry's header"
        );
    }

    #[test]
    fn syntax_error_has_line() {
        let e = parse("t.toml".into(), "a = 1\nb = \n").err().unwrap();
        assert_eq!(e.line, Some(2));
    }
}
