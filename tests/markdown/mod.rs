//! Keeping documents true, for the tests that check them (the guide, the README, the generated references):
//! fenced blocks marked by an HTML comment on the line before them, a command's output compared with a
//! block, and a generated file compared with what generates it. Each test program uses part of it.
//!
//! - `<!-- output -->` before a ```text block whose first line is `$ COMMAND`: the command must succeed
//!   and print exactly the rest of the block;
//! - `<!-- output contains -->`: the same, but each line of the block (except a lone `…`) must match a
//!   line of the output, in order, whitespace runs counting as one space and `…` matching anything.

#![allow(dead_code)]

/// Whether one of the environment variables `vars` is 1: a generated file is to be rewritten.
pub fn update_requested(vars: &[&str]) -> bool {
    vars.iter()
        .any(|v| std::env::var_os(v).is_some_and(|v| v == "1"))
}

/// Fail unless the committed file `path` (shown as `name`) holds exactly `want`; with `update`, write
/// `want` there instead. `how` says how to regenerate it.
pub fn assert_generated(path: &std::path::Path, name: &str, want: &str, update: bool, how: &str) {
    if update {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the folder of a generated file");
        }
        std::fs::write(path, want).unwrap_or_else(|e| panic!("writing {name}: {e}"));
        return;
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    if have != want {
        let line = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| have.lines().count().min(want.lines().count()))
            + 1;
        panic!("{name} is stale (first difference at line {line}).\nRegenerate it with\n    {how}");
    }
}

/// One fenced block after a marker.
#[derive(Clone)]
pub struct Block {
    pub marker: String,
    /// 1-based line of the marker, for messages.
    pub line: usize,
    pub body: String,
}

/// Every fenced block of `text` (the document `name`) directly preceded by an HTML-comment marker line
/// (`<!-- ... -->`).
pub fn marked_blocks(text: &str, name: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim();
        let next_is_fence = lines.get(i + 1).is_some_and(|n| n.starts_with("```"));
        if let (Some(inner), true) = (
            l.strip_prefix("<!--").and_then(|r| r.strip_suffix("-->")),
            next_is_fence,
        ) {
            let mut body = String::new();
            let mut j = i + 2;
            while j < lines.len() && !lines[j].starts_with("```") {
                body.push_str(lines[j]);
                body.push('\n');
                j += 1;
            }
            assert!(j < lines.len(), "{name}:{}: unclosed code block", i + 2);
            out.push(Block {
                marker: inner.trim().to_string(),
                line: i + 1,
                body,
            });
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// The PATH of a `<!-- file: PATH -->` block; None for any other marker.
pub fn file_path(b: &Block) -> Option<&str> {
    b.marker.strip_prefix("file:").map(str::trim)
}

/// Write every `<!-- file: PATH -->` block of `blocks` under `dir`: the files as (PATH, content). A PATH
/// must be relative and stay inside `dir`.
pub fn write_files(blocks: &[Block], dir: &std::path::Path, name: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for b in blocks {
        let Some(path) = file_path(b) else {
            continue;
        };
        assert!(
            std::path::Path::new(path)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_))),
            "{name}:{}: file path {path:?} must be relative and stay inside the example",
            b.line
        );
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, &b.body).unwrap();
        files.push((path.to_string(), b.body.clone()));
    }
    files
}

/// Whether an output marker asks for the exact output (`output`) or matching lines (`output contains`).
pub fn exact(b: &Block, name: &str) -> bool {
    match b.marker.as_str() {
        "output" => true,
        "output contains" => false,
        other => panic!("{name}:{}: unknown marker {other:?}", b.line),
    }
}

/// The command of an output block (its `$ ...` first line) and the lines it must print.
pub fn command_of<'b>(b: &'b Block, name: &str) -> (&'b str, Vec<&'b str>) {
    let mut lines = b.body.lines();
    let first = lines.next().unwrap_or_default();
    let cmd = first.strip_prefix("$ ").unwrap_or_else(|| {
        panic!(
            "{name}:{}: an output block starts with the command, `$ village ...`",
            b.line
        )
    });
    (cmd, lines.collect())
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `line` matches `pattern`: its `…`-separated parts appear in order.
pub fn matches(pattern: &str, line: &str) -> bool {
    let line = collapse(line);
    let mut rest = line.as_str();
    for part in pattern.split('…').map(collapse) {
        match rest.find(&part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Assert that `stdout`, printed by `cmd` for the block `b` of document `name`, is what the block shows.
pub fn assert_shows(b: &Block, name: &str, cmd: &str, want: &[&str], stdout: &str) {
    if exact(b, name) {
        let want: String = want.iter().map(|l| format!("{l}\n")).collect();
        assert_eq!(
            stdout, want,
            "{name}:{}: `{cmd}` printed something else",
            b.line
        );
    } else {
        let mut have = stdout.lines();
        for pattern in want.iter().filter(|l| l.trim() != "…") {
            assert!(
                have.any(|l| matches(pattern, l)),
                "{name}:{}: no line of `{cmd}` (after the lines matched before it) matches \
                 {pattern:?}:\n{stdout}",
                b.line
            );
        }
    }
}
