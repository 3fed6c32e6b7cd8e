//! The designer's guide (docs/scripting.md) against the engine, so that it cannot rot: each worked
//! example (a new hero, a new Behaviour, a variant: a mod folder each) has its files extracted, written
//! into a fresh folder, loaded by `village check --mod` and driven through the CLI exactly as the guide
//! says, and the guide's hand-written lists are compared with the sources they describe.
//!
//! Markers in the guide (HTML comments, invisible when rendered):
//! - `<!-- file: PATH -->` before a fenced block: the block is the file PATH of an example, whose first
//!   folder is the example's mod;
//! - `<!-- output -->` and `<!-- output contains -->`: a command and what it prints (tests/markdown); the
//!   command's `--mod` says which example it belongs to;
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
use markdown::{assert_shows, command_of, file_path, marked_blocks, Block};

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

/// The blocks' files written into a fresh folder: (folder, the files as (path, content)).
fn write_example(blocks: &[Block], tag: &str) -> (PathBuf, Vec<(String, String)>) {
    let dir = std::env::temp_dir().join(format!("village-docs-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = markdown::write_files(blocks, &dir, GUIDE);
    (dir, files)
}

/// One worked example of the guide: a mod folder of its own.
struct Example {
    /// The mod's folder: the first folder of its files' paths, and its commands' `--mod`.
    dir: &'static str,
    /// Paths under `dir` the example must have a file at, or under.
    files: &'static [&'static str],
    /// The `village` subcommands the guide must show, with their output, for it.
    shows: &'static [&'static str],
    /// What else to check once its commands have run.
    more: Option<fn(&Ran)>,
}

/// The guide's worked examples. A file or command of the guide that belongs to none of them is an error
/// (`every_marked_block_belongs_to_a_worked_example`), so a new example must be listed here.
const EXAMPLES: &[Example] = &[
    Example {
        dir: "mymod",
        files: &["rosters/heroes.toml", "scripts/signatures/", "tests/"],
        shows: &["check", "run", "play"],
        more: Some(the_hero_plays_and_her_signature_acts),
    },
    Example {
        dir: "skulkers",
        files: &[
            "rosters/behaviours.toml",
            "rosters/bestiary.toml",
            "scripts/behaviours/",
            "tests/",
        ],
        shows: &["run", "sim", "show"],
        more: None,
    },
    Example {
        dir: "walls",
        files: &["scripts/variants/"],
        shows: &["sim", "show"],
        more: Some(the_variant_acts_in_a_game),
    },
    Example {
        dir: "clock",
        files: &[
            "rosters/tracks.toml",
            "rosters/presets.toml",
            "scripts/variants/",
        ],
        shows: &["presets", "sim"],
        more: None,
    },
    Example {
        dir: "ford",
        files: &["scenarios/", "scripts/victory/"],
        shows: &["play", "sim"],
        more: None,
    },
];

/// An example written into a fresh folder and its commands run.
struct Ran {
    /// The folder the mod was written into (its parent: the commands run there).
    dir: PathBuf,
    /// Its files as (path, content), paths starting with the mod's folder.
    files: Vec<(String, String)>,
    /// The guide's commands for it, each as its arguments after `village`.
    commands: Vec<Vec<String>>,
}

impl Ran {
    /// The example's file whose path contains `part` (its script of a kind, its roster).
    fn file(&self, part: &str) -> &(String, String) {
        self.files
            .iter()
            .find(|(p, _)| p.contains(part))
            .unwrap_or_else(|| panic!("the example has no file at {part}"))
    }
}

/// The folder a command's `--mod` names: the example it belongs to.
fn mod_of(args: &[String], line: usize) -> &str {
    let mods: Vec<&str> = args
        .windows(2)
        .filter(|w| w[0] == "--mod")
        .map(|w| w[1].as_str())
        .collect();
    assert_eq!(
        mods.len(),
        1,
        "{GUIDE}:{line}: an example's command names its mod with one --mod: {args:?}"
    );
    mods[0]
}

/// The arguments of an output block's `village` command.
fn args_of(b: &Block) -> Vec<String> {
    let (cmd, _) = command_of(b, GUIDE);
    let words = shell_words(cmd);
    assert_eq!(
        words.first().map(String::as_str),
        Some("village"),
        "{GUIDE}:{}: {cmd}",
        b.line
    );
    words[1..].to_vec()
}

/// The example whose mod folder is `dir`, checked: its files written into a fresh folder, the mod
/// loaded by `village check` with no error or warning, every command the guide shows for it run with
/// its output compared, then the example's own further checks.
fn worked_example(dir: &str) {
    let example = EXAMPLES
        .iter()
        .find(|e| e.dir == dir)
        .unwrap_or_else(|| panic!("no worked example {dir} in EXAMPLES"));
    let prefix = format!("{dir}/");
    let blocks = marked_blocks(&guide(), GUIDE);
    let mine: Vec<Block> = blocks
        .iter()
        .filter(|b| file_path(b).is_some_and(|p| p.starts_with(&prefix)))
        .cloned()
        .collect();
    let (root, files) = write_example(&mine, dir);
    for want in example.files {
        assert!(
            files
                .iter()
                .any(|(p, _)| p[prefix.len()..].starts_with(want)),
            "{GUIDE}: the {dir} example has no file at {want}: {:?}",
            files.iter().map(|(p, _)| p).collect::<Vec<_>>()
        );
    }

    // Every file loads, whether or not the guide shows the check.
    let check = village(&root, &["check".into(), "--mod".into(), dir.into()]);
    let printed = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success() && printed.contains(", 0 warnings, 0 errors"),
        "{GUIDE}: `village check --mod {dir}` finds fault with the example:\n{printed}{}",
        String::from_utf8_lossy(&check.stderr)
    );

    let mut commands = Vec::new();
    for b in blocks.iter().filter(|b| b.marker.starts_with("output")) {
        let args = args_of(b);
        if mod_of(&args, b.line) != dir {
            continue;
        }
        let (cmd, want) = command_of(b, GUIDE);
        let out = village(&root, &args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{GUIDE}:{}: `{cmd}` failed:\n{stdout}\n{}",
            b.line,
            String::from_utf8_lossy(&out.stderr)
        );
        assert_shows(b, GUIDE, cmd, &want, &stdout);
        // A scenario the guide runs is one of the example's own files, not some other file.
        if args[0] == "run" {
            let file = args.last().unwrap();
            assert!(
                files.iter().any(|(p, _)| p == file),
                "{GUIDE}:{}: `{cmd}` runs {file}, which is no file of the example",
                b.line
            );
        }
        commands.push(args);
    }
    for sub in example.shows {
        assert!(
            commands.iter().any(|a| a[0] == *sub),
            "{GUIDE} shows no checked `village {sub} --mod {dir} ...` for the {dir} example"
        );
    }
    if let Some(more) = example.more {
        more(&Ran {
            dir: root.clone(),
            files,
            commands,
        });
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_hero_example_checks_runs_and_plays_as_the_guide_says() {
    worked_example("mymod");
}

#[test]
fn the_behaviour_example_checks_chooses_and_decides_in_games_as_the_guide_says() {
    worked_example("skulkers");
}

#[test]
fn the_variant_example_checks_and_compares_as_the_guide_says() {
    worked_example("walls");
}

#[test]
fn the_track_example_checks_and_ends_games_as_the_guide_says() {
    worked_example("clock");
}

#[test]
fn the_scenario_example_checks_plays_and_reports_vp_as_the_guide_says() {
    worked_example("ford");
}

/// Each listing of a built-in file (`<!-- built-in: PATH -->`: the threat track) is that file, or for
/// a roster file one whole part of it, as the checkout has it.
#[test]
fn built_in_listings_are_the_files() {
    let mut seen = 0;
    for b in marked_blocks(&guide(), GUIDE) {
        let Some(path) = b.marker.strip_prefix("built-in:").map(str::trim) else {
            continue;
        };
        let file = std::fs::read_to_string(root().join(path))
            .unwrap_or_else(|e| panic!("{GUIDE}:{}: {path}: {e}", b.line));
        assert!(
            file == b.body || (path.ends_with(".toml") && file.contains(&b.body)),
            "{GUIDE}:{}: the listing of {path} is not the file",
            b.line
        );
        seen += 1;
    }
    assert!(seen >= 2, "the guide lists the threat track's files");
}

#[test]
fn every_marked_block_belongs_to_a_worked_example() {
    let dirs: Vec<&str> = EXAMPLES.iter().map(|e| e.dir).collect();
    for b in marked_blocks(&guide(), GUIDE) {
        let dir = if let Some(path) = file_path(&b) {
            path.split('/').next().unwrap_or_default().to_string()
        } else if b.marker.starts_with("output") {
            mod_of(&args_of(&b), b.line).to_string()
        } else {
            continue;
        };
        assert!(
            dirs.contains(&dir.as_str()),
            "{GUIDE}:{}: {dir} is the mod of no worked example: list it in EXAMPLES ({dirs:?})",
            b.line
        );
    }
}

/// A whole game played as `args` say (`play --auto`), as JSON with its event log: the game and the
/// source of every modifier in the log.
fn play_logged(dir: &Path, args: &[String]) -> (Value, BTreeSet<String>) {
    assert!(args.iter().any(|a| a == "--auto"), "{args:?}");
    let log = dir.join("game.jsonl");
    let mut args = args.to_vec();
    args.extend(["--json".into(), "--log".into(), log.display().to_string()]);
    let out = village(dir, &args);
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
    let events = std::fs::read_to_string(&log).expect("the event log was written");
    let sources = events
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .flat_map(|e| e["modifiers"].as_array().cloned().unwrap_or_default())
        .filter_map(|m| m["source"].as_str().map(String::from))
        .collect();
    (game, sources)
}

/// The hero example's game again, as JSON with its event log: a real result, the named heroes played
/// (the first one the example's own), and the signature's script named as the source of some modifier.
fn the_hero_plays_and_her_signature_acts(ran: &Ran) {
    let play = ran
        .commands
        .iter()
        .find(|a| a[0] == "play")
        .expect("the hero example shows a game");
    let (game, sources) = play_logged(&ran.dir, play);
    let heroes = play
        .iter()
        .position(|a| a == "--heroes")
        .and_then(|i| play.get(i + 1))
        .expect("the play command names its heroes");
    let played: Vec<&str> = game["waves"][0]["wounds"]
        .as_array()
        .map(|w| w.iter().filter_map(|h| h[0].as_str()).collect())
        .unwrap_or_default();
    for h in heroes.split(',') {
        assert!(played.contains(&h), "{h} did not play: {played:?}");
    }
    let first = heroes.split(',').next().unwrap_or_default();
    let (_, roster) = ran.file("/rosters/heroes.toml");
    assert!(
        roster.contains(&format!("name = \"{first}\"")),
        "the first hero played, {first}, is the example's own"
    );
    let (script, _) = ran.file("/scripts/signatures/");
    assert!(
        sources.contains(script),
        "no modifier in the game's log names {script} as its source: {sources:?}"
    );
}

/// The variant's model hook acts in whole games: in one of the first few seeds' games with the variant
/// enabled, some modifier names its script as its source (the guide's A/B shows only where the games
/// part, which may be its rule constant).
fn the_variant_acts_in_a_game(ran: &Ran) {
    let (script, _) = ran.file("/scripts/variants/");
    let name = script
        .rsplit('/')
        .next()
        .and_then(|f| f.strip_suffix(".lua"))
        .unwrap_or_default();
    let dir = script.split('/').next().unwrap_or_default();
    let acted = (1..=3).any(|seed| {
        let args: Vec<String> = ["play", "--auto", "--mod", dir, "--variant", name, "--seed"]
            .iter()
            .map(|s| s.to_string())
            .chain([seed.to_string()])
            .collect();
        play_logged(&ran.dir, &args).1.contains(script)
    });
    assert!(
        acted,
        "no modifier in the games of seeds 1 to 3 with --variant {name} names {script} as its source"
    );
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
