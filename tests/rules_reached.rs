//! No rule as a dead primitive: every rule constant (`rosters/rules.toml`, the structs of
//! `src/roster/rules.rs`) and every roster field (`src/roster/schema.rs`) must be read by the program —
//! the kernel outside the roster loader's own checks, or a built-in script — not only by tests. A field
//! that is only parsed and validated is a rule nobody plays.
//!
//! This reads the source as text (comments, `#[cfg(test)]` modules and the loader's validation removed,
//! white space dropped, so a chain split over lines still reads `rules.actions.power_blow`):
//! - a rule constant `[section] key` is read when the code names `section.key` (or `self.key` inside the
//!   rules' own impls), or a script asks `ctx:rule("section", "key")`;
//! - a roster field `name` is read when the code names `.name` outside the struct that declares it, or a
//!   script reads `.name` or `"name"`.
//!
//! A few fields are prose for people (the rulebook's words beside the numbers) and are listed with the
//! reason; a new unread field fails the test until it is played or listed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// A Rust file without its test module, its comments and the white space between punctuation.
fn rust_code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    squeeze(body, "//")
}

/// Lines cut at `comment`, then white space dropped wherever it does not part two identifiers (so
/// `rules\n    .actions\n    .move_` reads `rules.actions.move_`, and `x as u8` keeps its spaces).
fn squeeze(text: &str, comment: &str) -> String {
    let joined: String = text
        .lines()
        .map(|l| l.split(comment).next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let chars: Vec<char> = joined.chars().collect();
    let mut out = String::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            let start = i;
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            let before = start.checked_sub(1).map(|b| chars[b]);
            let after = chars.get(i).copied();
            if before.is_some_and(ident) && after.is_some_and(ident) {
                out.push(' ');
            }
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

fn ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `hay` holds `needle` not followed by an identifier character (and, when `needle` starts
/// with one, not preceded by one).
fn holds(hay: &str, needle: &str) -> bool {
    let starts_ident = needle.chars().next().is_some_and(ident);
    hay.match_indices(needle).any(|(i, _)| {
        let after = hay[i + needle.len()..].chars().next();
        let before = hay[..i].chars().next_back();
        !(after.is_some_and(ident) || (starts_ident && before.is_some_and(ident)))
    })
}

/// `pub struct Name { pub field: T, ... }` blocks of a Rust source: struct name → (field, serde name).
fn structs(text: &str) -> BTreeMap<String, Vec<(String, String)>> {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut rename: Option<String> = None;
    for line in body.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("pub struct ") {
            if t.ends_with('{') {
                let name: String = rest.chars().take_while(|c| ident(*c)).collect();
                out.insert(name.clone(), Vec::new());
                current = Some(name);
            }
            continue;
        }
        if t == "}" {
            current = None;
            continue;
        }
        let Some(s) = &current else { continue };
        if let Some(r) = t.strip_prefix("#[serde(rename = \"") {
            rename = r.split('"').next().map(str::to_string);
            continue;
        }
        if let Some(rest) = t.strip_prefix("pub ") {
            if let Some((field, _)) = rest.split_once(':') {
                let field = field.trim().to_string();
                let serde = rename.take().unwrap_or_else(|| field.clone());
                out.get_mut(s).unwrap().push((field, serde));
            }
        }
    }
    out
}

/// The names code reads a rules section through: the section itself (`rules.actions.move_`), a local
/// bound to it (`let k = &rules.melee;` … `k.ambush`), or a parameter or field of its type
/// (`formula: &WavePointsFormula`).
fn aliases(code: &str, section: &str, ty: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::from([section.to_string()]);
    for (i, _) in code.match_indices(&format!(".{section};")) {
        let head = &code[..i];
        let Some(at) = head.rfind("let ") else {
            continue;
        };
        let rest = head[at + 4..].trim_start_matches("mut ");
        let name: String = rest.chars().take_while(|c| ident(*c)).collect();
        let tail = &rest[name.len()..];
        if !name.is_empty() && tail.starts_with('=') && !tail.contains(';') {
            out.insert(name);
        }
    }
    for pat in [format!(":&{ty}"), format!(":{ty}")] {
        for (i, _) in code.match_indices(&pat) {
            if code[i + pat.len()..].chars().next().is_some_and(ident) {
                continue;
            }
            let name: String = code[..i]
                .chars()
                .rev()
                .take_while(|c| ident(*c))
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Rule constants and roster fields that are prose for people, not rules, and why.
const PROSE: &[(&str, &str)] = &[
    (
        "Behaviour.target",
        "the rulebook's words for the Behaviour's target; its script plays it",
    ),
    (
        "Behaviour.melee",
        "the rulebook's words for its melee rule; its script plays it",
    ),
    (
        "Behaviour.fallback",
        "the rulebook's words for its fallback; its script plays it",
    ),
    (
        "Behaviour.limits",
        "the rulebook's words for its limits; the flags beside them are played",
    ),
];

struct Code {
    /// Kernel code outside the roster module, and the roster module's own impls (not its checks).
    rust: String,
    /// src/roster/rules.rs without its struct declarations (its impls read `self.key`).
    rules_impl: String,
    lua: String,
}

fn load_code() -> Code {
    let mut rs = Vec::new();
    files(&root().join("src"), "rs", &mut rs);
    let mut rust = String::new();
    for f in &rs {
        let name = f.to_string_lossy();
        // The loader's checks do not play a rule: a field read only there is still dead.
        if name.ends_with("roster/validate.rs") || name.ends_with("roster/load.rs") {
            continue;
        }
        rust.push_str(&rust_code(&std::fs::read_to_string(f).unwrap()));
    }
    let rules_src = std::fs::read_to_string(root().join("src/roster/rules.rs")).unwrap();
    let rules_impl = rules_src
        .split("\nimpl ")
        .skip(1)
        .map(rust_code)
        .collect::<Vec<_>>()
        .join("");
    let mut lf = Vec::new();
    files(&root().join("scripts"), "lua", &mut lf);
    let lua = lf
        .iter()
        .filter(|f| !f.to_string_lossy().contains("scripts/types/"))
        .map(|f| squeeze(&std::fs::read_to_string(f).unwrap(), "--"))
        .collect();
    Code {
        rust,
        rules_impl,
        lua,
    }
}

#[test]
fn every_rule_constant_is_read_by_the_kernel_or_a_script() {
    let code = load_code();
    let src = std::fs::read_to_string(root().join("src/roster/rules.rs")).unwrap();
    let all = structs(&src);
    let sections = all.get("Rules").expect("struct Rules").clone();
    let mut dead = Vec::new();
    let mut seen = 0;
    for (section, _) in &sections {
        // The section's struct: the type named on `pub section: Type`.
        let ty = src
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix(&format!("pub {section}: "))
                    .map(|t| t.trim_end_matches(',').to_string())
            })
            .unwrap();
        for (field, key) in all.get(&ty).cloned().unwrap_or_default() {
            seen += 1;
            let read = aliases(&code.rust, section, &ty)
                .iter()
                .any(|a| holds(&code.rust, &format!("{a}.{field}")))
                || holds(&code.rules_impl, &format!("self.{field}"))
                || code
                    .lua
                    .contains(&format!("ctx:rule(\"{section}\",\"{key}\")"));
            if !read {
                dead.push(format!("[{section}] {key}"));
            }
        }
    }
    assert!(
        seen > 80,
        "found only {seen} rule constants: is the parser right?"
    );
    // The keys in rosters/rules.toml are all struct fields (serde refuses unknown ones), so none escapes.
    let toml: toml::Table = std::fs::read_to_string(root().join("rosters/rules.toml"))
        .unwrap()
        .parse()
        .unwrap();
    assert!(toml.len() >= 10);
    assert!(
        dead.is_empty(),
        "rule constants read by nothing but tests (play them, or remove them):\n{}",
        dead.join("\n")
    );
}

#[test]
fn every_roster_field_is_read_by_the_kernel_or_a_script() {
    let code = load_code();
    let src = std::fs::read_to_string(root().join("src/roster/schema.rs")).unwrap();
    let all = structs(&src);
    let prose: BTreeSet<&str> = PROSE.iter().map(|(k, _)| *k).collect();
    let mut dead = Vec::new();
    let mut seen = 0;
    for (name, fields) in &all {
        for (field, key) in fields {
            seen += 1;
            let id = format!("{name}.{field}");
            if prose.contains(id.as_str()) {
                continue;
            }
            let read = holds(&code.rust, &format!(".{field}"))
                || holds(&code.lua, &format!(".{key}"))
                || code.lua.contains(&format!("\"{key}\""));
            if !read {
                dead.push(id);
            }
        }
    }
    assert!(
        seen > 60,
        "found only {seen} roster fields: is the parser right?"
    );
    assert!(
        dead.is_empty(),
        "roster fields read by nothing but tests (play them, or list them as prose with the reason):\n{}",
        dead.join("\n")
    );
    // Each listed prose field exists.
    for (k, why) in PROSE {
        let (s, f) = k.split_once('.').unwrap();
        assert!(
            all.get(s).is_some_and(|fs| fs.iter().any(|(x, _)| x == f)),
            "{k} ({why}) is no roster field"
        );
    }
}

/// Every `params` table in rosters/*.toml, with the script of the entry that holds it (if any):
/// (file, entry name, script, keys).
fn params_tables(
    v: &toml::Value,
    file: &str,
    name: &str,
    script: Option<&str>,
    out: &mut Vec<(String, String, Option<String>, Vec<String>)>,
) {
    match v {
        toml::Value::Table(t) => {
            let name = t.get("name").and_then(|n| n.as_str()).unwrap_or(name);
            let script = t.get("script").and_then(|s| s.as_str()).or(script);
            if let Some(toml::Value::Table(p)) = t.get("params") {
                out.push((
                    file.to_string(),
                    name.to_string(),
                    script.map(str::to_string),
                    p.keys().cloned().collect(),
                ));
            }
            for (k, x) in t {
                if k != "params" {
                    params_tables(x, file, name, script, out);
                }
            }
        }
        toml::Value::Array(a) => {
            for x in a {
                params_tables(x, file, name, script, out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_param_in_the_rosters_is_read_by_its_script_or_the_kernel() {
    let code = load_code();
    let mut tables = Vec::new();
    let mut tomls = Vec::new();
    files(&root().join("rosters"), "toml", &mut tomls);
    for f in &tomls {
        let t: toml::Table = std::fs::read_to_string(f).unwrap().parse().unwrap();
        let v = toml::Value::Table(t);
        let file = f.file_name().unwrap().to_string_lossy().into_owned();
        params_tables(&v, &file, "", None, &mut tables);
    }
    assert!(
        tables.len() > 20,
        "found only {} params tables",
        tables.len()
    );
    let mut libs = Vec::new();
    files(&root().join("scripts/lib"), "lua", &mut libs);
    let lib: String = libs
        .iter()
        .map(|f| squeeze(&std::fs::read_to_string(f).unwrap(), "--"))
        .collect();
    // A track's params are read by the variants that put it in play (`tracks = { "threat" }`).
    let mut variants = Vec::new();
    files(&root().join("scripts/variants"), "lua", &mut variants);
    let variants: Vec<String> = variants
        .iter()
        .map(|f| squeeze(&std::fs::read_to_string(f).unwrap(), "--"))
        .collect();
    let mut dead = Vec::new();
    for (file, entry, script, keys) in &tables {
        let mut own = script
            .as_ref()
            .and_then(|s| std::fs::read_to_string(root().join("scripts").join(s)).ok())
            .map(|t| squeeze(&t, "--"))
            .unwrap_or_default();
        if file == "tracks.toml" {
            let named = format!("\"{entry}\"");
            for v in variants
                .iter()
                .filter(|v| v.contains("tracks") && v.contains(&named))
            {
                own.push_str(v);
            }
        }
        for k in keys {
            let quoted = format!("\"{k}\"");
            let read = holds(&own, &format!(".{k}"))
                || own.contains(&quoted)
                || holds(&lib, &format!("params.{k}"))
                || lib.contains(&quoted)
                || code.rust.contains(&quoted);
            if !read {
                dead.push(format!("{file}: {entry}: params.{k}"));
            }
        }
    }
    assert!(
        dead.is_empty(),
        "params no script or kernel code reads:\n{}",
        dead.join("\n")
    );
}

#[test]
fn the_reader_sees_a_field_only_where_it_is_named() {
    // The test itself can fail: a made-up constant is not found, a real one is.
    let code = load_code();
    assert!(holds(&code.rust, "wave.enemy_dice"));
    assert!(!holds(&code.rust, "wave.enemy_dice_twice"));
    assert!(code.lua.contains("ctx:rule(\"measures\",\"short\")"));
    assert!(!holds("rules.actions.move_x", "actions.move_"));
    let k = aliases("let k=&rules.melee;k.ambush;", "melee", "MeleeModifiers");
    assert!(k.contains("k") && k.contains("melee"));
    let f = aliases(
        "fn f(formula:&WavePointsFormula)",
        "wave_points",
        "WavePointsFormula",
    );
    assert!(f.contains("formula"));
}
