//! The designer's guide (docs/scripting.md) against the engine, so that it cannot rot: its worked
//! example's files are extracted, written into a fresh folder and driven through the CLI exactly as the
//! guide says (`village check --mod`, the `village run --mod` scenario, `village play --auto --mod`), and
//! the guide's hand-written lists are compared with the sources they describe.
//!
//! Markers in the guide (HTML comments, invisible when rendered):
//! - `<!-- file: PATH -->` before a fenced block: the block is the file PATH of the example;
//! - `<!-- output -->` and `<!-- output contains -->`: a command and what it prints (tests/markdown);
//! - `<!-- permissions -->` before a table: its first column lists every permission the kernel asks for;
//! - `<!-- reserved hooks -->`: the backticked names after it, up to the end of the sentence, are the
//!   signature entry points the spec describes as reserved.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use village::script::api::spec;
use village::script::registry::KINDS;

mod lua_style;
mod markdown;
use markdown::{assert_shows, command_of, marked_blocks, Block};

const GUIDE: &str = "docs/scripting.md";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn guide() -> String {
    std::fs::read_to_string(root().join(GUIDE)).expect("docs/scripting.md is readable")
}

/// Splits a command line as a POSIX shell would for the guide's commands: words separated by spaces,
/// double quotes grouping.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quotes in {line:?}");
    if any {
        words.push(cur);
    }
    words
}

fn village(dir: &Path, args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_village"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the village binary runs")
}

/// The example written into a fresh folder: (folder, the files as (path, content)).
fn write_example(blocks: &[Block], tag: &str) -> (PathBuf, Vec<(String, String)>) {
    let dir = std::env::temp_dir().join(format!("village-docs-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = markdown::write_files(blocks, &dir, GUIDE);
    (dir, files)
}

#[test]
fn the_worked_example_checks_runs_and_plays_as_the_guide_says() {
    let text = guide();
    let blocks = marked_blocks(&text, GUIDE);
    let (dir, files) = write_example(&blocks, "example");
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    // The example is a mod with a hero, a signature script and a scenario.
    for want in ["/rosters/heroes.toml", "/scripts/signatures/", "/tests/"] {
        assert!(
            paths.iter().any(|p| p.contains(want)),
            "{GUIDE} has no example file under {want}: {paths:?}"
        );
    }
    let script = paths
        .iter()
        .find(|p| p.contains("/scripts/signatures/"))
        .map(|p| &p[p.find("scripts/").unwrap_or(0)..])
        .unwrap_or_default()
        .to_string();

    let mut seen = BTreeSet::new();
    let mut play: Option<Vec<String>> = None;
    for b in blocks.iter().filter(|b| b.marker.starts_with("output")) {
        let (cmd, want) = command_of(b, GUIDE);
        let words = shell_words(cmd);
        assert_eq!(
            words.first().map(String::as_str),
            Some("village"),
            "{GUIDE}:{}: {cmd}",
            b.line
        );
        let args = words[1..].to_vec();
        let out = village(&dir, &args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{GUIDE}:{}: `{cmd}` failed:\n{stdout}\n{}",
            b.line,
            String::from_utf8_lossy(&out.stderr)
        );
        assert_shows(b, GUIDE, cmd, &want, &stdout);
        let sub = args.first().cloned().unwrap_or_default();
        assert!(
            args.iter().any(|a| a == "--mod"),
            "{GUIDE}:{}: the example's commands use its mod",
            b.line
        );
        if sub == "play" {
            play = Some(args.clone());
        }
        seen.insert(sub);
    }
    for sub in ["check", "run", "play"] {
        assert!(
            seen.contains(sub),
            "{GUIDE} shows no checked `village {sub} --mod ...` for the example"
        );
    }

    // The game again, as JSON with its event log: a real result, the named heroes played, and the
    // signature's script named as the source of some modifier.
    let mut args = play.unwrap_or_default();
    assert!(args.iter().any(|a| a == "--auto"), "{args:?}");
    let log = dir.join("game.jsonl");
    args.extend(["--json".into(), "--log".into(), log.display().to_string()]);
    let out = village(&dir, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game: Value = serde_json::from_slice(&out.stdout).expect("play --json prints JSON");
    let result = game["result"].as_str().unwrap_or_default();
    assert!(
        ["win", "loss", "stalled"].contains(&result),
        "result {result:?}"
    );
    let heroes = args
        .iter()
        .position(|a| a == "--heroes")
        .and_then(|i| args.get(i + 1))
        .expect("the play command names its heroes");
    let played: Vec<&str> = game["waves"][0]["wounds"]
        .as_array()
        .map(|w| w.iter().filter_map(|h| h[0].as_str()).collect())
        .unwrap_or_default();
    let roster = files
        .iter()
        .find(|(p, _)| p.ends_with("rosters/heroes.toml"))
        .map(|(_, t)| t.as_str())
        .unwrap_or_default();
    for h in heroes.split(',') {
        assert!(played.contains(&h), "{h} did not play: {played:?}");
    }
    let first = heroes.split(',').next().unwrap_or_default();
    assert!(
        roster.contains(&format!("name = \"{first}\"")),
        "the first hero played, {first}, is the example's own"
    );
    let events = std::fs::read_to_string(&log).expect("the event log was written");
    let named = events
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .flat_map(|e| e["modifiers"].as_array().cloned().unwrap_or_default())
        .any(|m| m["source"].as_str().is_some_and(|s| s.ends_with(&script)));
    assert!(
        named,
        "no modifier in the game's log names {script} as its source"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The example's Lua is formatted as the project's (StyLua with stylua.toml, in-process), so that a
/// designer who copies it and runs `stylua` gets no diff.
#[test]
fn the_example_lua_is_stylua_formatted() {
    let blocks = marked_blocks(&guide(), GUIDE);
    let (dir, files) = write_example(&blocks, "stylua");
    assert!(files.iter().any(|(p, _)| p.ends_with(".lua")));
    let bad = lua_style::unformatted(&dir);
    assert!(
        bad.is_empty(),
        "{GUIDE}: the example's Lua is not StyLua-formatted:\n{}",
        bad.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The permission names the kernel asks scripts for: the third argument of every `.permission(`
/// call outside src/script/, a string literal or a `const NAME: &str = "..."` of src/.
fn kernel_permissions() -> BTreeSet<String> {
    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let texts: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|p| {
            let t = std::fs::read_to_string(&p).unwrap();
            (p, t)
        })
        .collect();
    let resolve = |ident: &str| -> String {
        let needle = format!("const {ident}: &str = \"");
        texts
            .iter()
            .find_map(|(_, t)| {
                let at = t.find(&needle)? + needle.len();
                Some(t[at..].split('"').next()?.to_string())
            })
            .unwrap_or_else(|| {
                panic!("permission constant {ident} not found in src/: teach tests/docs_example.rs")
            })
    };
    let mut names = BTreeSet::new();
    for (path, t) in &texts {
        if path.starts_with(src.join("script")) {
            continue;
        }
        for (at, _) in t.match_indices(".permission(") {
            let args = &t[at + ".permission(".len()..];
            let mut depth = 0;
            let end = args
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' if depth == 0 => return true,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .map_or(args.len(), |(i, _)| i);
            let parts: Vec<&str> = args[..end].split(',').map(str::trim).collect();
            let Some(arg) = parts.get(2) else {
                panic!(
                    "{}: a .permission( call without three arguments",
                    path.display()
                );
            };
            let name = match arg.strip_prefix('"') {
                Some(lit) => lit.trim_end_matches('"').to_string(),
                None => resolve(arg.rsplit("::").next().unwrap_or(arg)),
            };
            names.insert(name);
        }
    }
    names
}

#[test]
fn the_guide_lists_exactly_the_permissions_the_kernel_asks_for() {
    let text = guide();
    let start = text
        .find("<!-- permissions -->")
        .unwrap_or_else(|| panic!("{GUIDE} has no <!-- permissions --> table"));
    let listed: BTreeSet<String> = text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let cell = l.trim_start_matches('|').split('|').next()?.trim();
            Some(cell.strip_prefix('`')?.strip_suffix('`')?.to_string())
        })
        .collect();
    let asked = kernel_permissions();
    assert!(asked.len() >= 5, "the source scan found too few: {asked:?}");
    assert_eq!(
        listed, asked,
        "{GUIDE}'s permissions table (left) differs from the permissions src/ asks for (right)"
    );
}

#[test]
fn the_guide_describes_every_signature_hook_and_names_the_reserved_ones() {
    let text = guide();
    let hooks = KINDS
        .iter()
        .find(|(k, _)| *k == "signatures")
        .map(|(_, e)| *e)
        .expect("the loader has a signatures kind");
    for h in hooks.iter() {
        assert!(
            text.contains(&format!("`{h}")),
            "{GUIDE} does not describe the signature hook `{h}`: say when it is called, its arguments \
             and what it may return (docs/api.md has the generated reference)"
        );
    }
    let start = text
        .find("<!-- reserved hooks -->")
        .unwrap_or_else(|| panic!("{GUIDE} has no <!-- reserved hooks --> list"));
    let sentence = &text[start..];
    // Up to the end of the sentence: a full stop followed by whitespace.
    let end = sentence
        .char_indices()
        .find(|&(i, c)| c == '.' && sentence[i + 1..].starts_with(char::is_whitespace))
        .map_or(sentence.len(), |(i, _)| i);
    let sentence = &sentence[..end];
    let listed: BTreeSet<&str> = sentence.split('`').skip(1).step_by(2).collect();
    let reserved: BTreeSet<&str> = hooks
        .iter()
        .copied()
        .filter(|h| {
            spec::entry_point("signatures", h).is_some_and(|e| e.doc.starts_with("Reserved"))
        })
        .collect();
    assert_eq!(
        listed, reserved,
        "{GUIDE}'s reserved hooks (left) differ from the entry points spec.rs describes as reserved (right)"
    );
}

#[test]
fn the_readme_links_the_guide_and_the_guide_links_the_generated_reference() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains("(docs/scripting.md)"),
        "README.md links docs/scripting.md"
    );
    let text = guide();
    assert!(text.contains("](api.md"), "{GUIDE} links api.md");
    assert!(root().join("docs/api.md").is_file());
}
