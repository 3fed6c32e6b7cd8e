//! What a fresh machine needs for the tests, checked on the tests themselves: every external program
//! a test starts (`Command::new`) is this build's `village` or named in the README's Set up, and the
//! project's Lua is formatted as `stylua.toml` says — checked in-process with StyLua's library, so no
//! `stylua` binary is needed.

use std::path::{Path, PathBuf};

mod lua_style;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README's "Set up" section: from its heading to the next heading of the same level.
fn set_up() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let start = readme
        .find("\n## Set up")
        .expect("the README has a \"## Set up\" section");
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_string()
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
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

/// The program a `Command::new(...)` argument starts. A string literal names itself; the other
/// expressions the code uses are listed here with the program they stand for, so a new one fails
/// this test until someone says what it starts.
fn program_of(arg: &str) -> Option<&'static str> {
    const KNOWN: &[(&str, &str)] = &[
        // This build's binary.
        ("env!(\"CARGO_BIN_EXE_village\")", "village"),
        // tests/install.rs: the same binary copied into an install folder.
        ("self.root.join(\"bin/village\")", "village"),
        // tests/viewer.rs: $CHROMIUM, else `chromium`.
        ("chromium()", "chromium"),
        ("&name", "chromium"),
    ];
    if let Some(lit) = arg.strip_prefix('"').and_then(|a| a.strip_suffix('"')) {
        return Some(Box::leak(lit.to_string().into_boxed_str()));
    }
    KNOWN.iter().find(|(e, _)| *e == arg).map(|(_, p)| *p)
}

/// The argument of every `Command::new(` in `text`, up to its balanced closing parenthesis.
fn command_args(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("Command::new(") {
        let after = &rest[i + "Command::new(".len()..];
        let mut depth = 1;
        let mut end = after.len();
        for (j, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = j;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    out
}

/// Every program the tests (and the library and binary they run) start is `village` or named in
/// the README's Set up, as code (`chromium`) — so a fresh machine set up as the README says can run them all.
#[test]
fn every_program_the_tests_start_is_named_in_the_set_up() {
    let set_up = set_up();
    // A program is named as code, `chromium`: a bare word could be anything ("sh" is a code
    // block's language).
    let named = |p: &str| set_up.contains(&format!("`{p}`"));
    let mut files = Vec::new();
    for dir in ["tests", "src", "examples"] {
        rust_files(&root().join(dir), &mut files);
    }
    let mut found = std::collections::BTreeMap::<String, Vec<String>>::new();
    let mut unknown = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        let rel = f.strip_prefix(root()).unwrap_or(f).display().to_string();
        // This file names the pattern itself.
        if rel.ends_with("tests/setup.rs") {
            continue;
        }
        for arg in command_args(&text) {
            match program_of(&arg) {
                Some(p) => found.entry(p.to_string()).or_default().push(rel.clone()),
                None => unknown.push(format!("{rel}: Command::new({arg})")),
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "say which program these start (program_of in tests/setup.rs):\n{}",
        unknown.join("\n")
    );
    // The scan sees the programs it must: a broken scan would pass everything.
    for p in ["village", "chromium", "sh"] {
        assert!(found.contains_key(p), "no test starts {p}? {found:?}");
    }
    let missing: Vec<String> = found
        .iter()
        .filter(|(p, _)| p.as_str() != "village" && !named(p))
        .map(|(p, files)| format!("{p} (started in {})", files.join(", ")))
        .collect();
    assert!(
        missing.is_empty(),
        "the tests start programs the README's Set up does not name:\n{}\n--- Set up ---\n{set_up}",
        missing.join("\n")
    );
}

/// Every Lua file of the project — the built-in scripts, the test scenarios and fixtures — is
/// formatted as `stylua.toml` says (the check `stylua --check scripts tests` made, in-process).
#[test]
fn the_project_lua_is_stylua_formatted() {
    let mut checked = 0;
    let mut bad = Vec::new();
    for dir in ["scripts", "tests"] {
        checked += lua_style::lua_files(&root().join(dir)).len();
        bad.extend(lua_style::unformatted(&root().join(dir)));
    }
    assert!(checked > 100, "only {checked} Lua files found");
    assert!(
        bad.is_empty(),
        "not StyLua-formatted (run `stylua scripts tests`, or fix by hand):\n{}",
        bad.join("\n")
    );
}

/// The style check can fail: a badly indented chunk is caught, with its line.
#[test]
fn the_style_check_catches_a_misformatted_chunk() {
    let good = "local x = 1\nreturn x\n";
    assert_eq!(lua_style::difference(good), None);
    let bad = "local x =   1\nif x then\n  return x\nend\n";
    let d = lua_style::difference(bad).expect("misformatted");
    assert!(d.starts_with("line 1:"), "{d}");
}
