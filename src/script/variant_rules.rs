//! A variant's `rules` overrides (`scripts/variants/NAME.lua` returning `rules = { combat = { … } }`):
//! read from the module's table and checked exactly as `rosters/rules.toml` is (unknown keys, types,
//! the ranges of `roster::RANGES`, the relations between keys), with errors that point at the Lua file
//! and, when the key can be found in its text, the line.
//!
//! Used when a game starts with the variant (`village.new_game`, a loaded save) and by `village check`
//! for every variant, enabled or not, so that check refuses what play would. The tracks a variant puts
//! in play (`tracks = { "threat" }`) are checked here too, against rosters/tracks.toml.

use super::registry::Module;
use crate::roster::{RuleProblem, Rules};
use mlua::{Lua, LuaSerdeExt, Value};

/// `rules` with `module`'s `rules` table applied (unchanged when it has none), or every problem as
/// `file:line: rules.section.key: message` (`file: rules.section.key: …` when no line is found).
pub fn apply(lua: &Lua, rules: &Rules, module: &Module) -> Result<Rules, Vec<String>> {
    let patch = match module.table.raw_get::<Value>("rules") {
        Ok(Value::Nil) => return Ok(rules.clone()),
        Ok(v) => v,
        Err(e) => return Err(vec![format!("{}: rules: {e}", module.label)]),
    };
    // Straight to a TOML value, as rules.toml is read: NaN and infinities stay numbers (and are
    // refused by range), and no intermediate text format invents positions of its own.
    let patch: toml::Value = lua.from_value(patch).map_err(|e| {
        vec![format!(
            "{}{}: rules: must be a table of sections of constants: {e}",
            module.label,
            at(module, "")
        )]
    })?;
    rules.with_overrides(&patch).map_err(|problems| {
        let text = crate::files::read_regular_text(&module.path, crate::files::LUA_SOURCE)
            .unwrap_or_default();
        problems
            .iter()
            .map(|p| format_problem(&module.label, &text, p))
            .collect()
    })
}

/// `file:line: rules.key: message`.
fn format_problem(label: &str, text: &str, p: &RuleProblem) -> String {
    let key = if p.key.is_empty() {
        "rules".to_string()
    } else {
        format!("rules.{}", p.key)
    };
    let line = key_line(text, &p.key).map_or(String::new(), |l| format!(":{l}"));
    format!("{label}{line}: {key}: {}", p.message)
}

/// `:line` of the `rules` table in the module's file, or nothing.
fn at(module: &Module, key: &str) -> String {
    let text =
        crate::files::read_regular_text(&module.path, crate::files::LUA_SOURCE).unwrap_or_default();
    key_line(text.as_str(), key).map_or(String::new(), |l| format!(":{l}"))
}

/// The tracks `module` puts in play (its `tracks = { "threat" }`; none without it), each one of
/// `rosters`' tracks, or the error at the module's file and the line of `tracks`.
pub fn tracks(
    lua: &Lua,
    rosters: &crate::roster::Rosters,
    module: &Module,
) -> Result<Vec<String>, String> {
    let at = || format!("{}{}: tracks", module.label, line_of_key(module, "tracks"));
    let names: Vec<String> = match module.table.raw_get::<Value>("tracks") {
        Ok(Value::Nil) => return Ok(Vec::new()),
        Ok(t) => lua
            .from_value(t)
            .map_err(|_| format!("{}: must be an array of track names", at()))?,
        Err(e) => return Err(format!("{}: {e}", at())),
    };
    for name in &names {
        if rosters.track(name).is_none() {
            return Err(format!("{}: {}", at(), rosters.unknown_track(name)));
        }
    }
    Ok(names)
}

/// `:line` of the first line of `module`'s file that assigns `name` (`tracks = { … }`), or nothing.
fn line_of_key(module: &Module, name: &str) -> String {
    let text =
        crate::files::read_regular_text(&module.path, crate::files::LUA_SOURCE).unwrap_or_default();
    text.lines()
        .position(|l| assigns(l, name))
        .map_or(String::new(), |i| format!(":{}", i + 1))
}

/// The line where `key` (dotted, relative to `rules`; empty: `rules` itself) is written: the first
/// `rules =` line, then each segment's first `name =` after the previous one. A key built at run time
/// (`rules[k] = …`) is not found; the error then names the file and the key only.
fn key_line(text: &str, key: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut at = lines.iter().position(|l| assigns(l, "rules"))?;
    for segment in key.split('.').filter(|s| !s.is_empty()) {
        // `edges[2]` is written inside `edges = { … }`: look for the name.
        let name = segment.split('[').next().unwrap_or(segment);
        at += lines.get(at..)?.iter().position(|l| assigns(l, name))?;
    }
    Some(at + 1)
}

/// Whether a line assigns `name` as a table field or variable: `name =` (not `==`), `name` a whole word.
fn assigns(line: &str, name: &str) -> bool {
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut from = 0;
    while let Some(i) = line
        .get(from..)
        .and_then(|s| s.find(name))
        .map(|i| i + from)
    {
        let end = i + name.len();
        let before_ok = i == 0 || !word(bytes[i - 1]);
        let rest = line[end..].trim_start();
        if before_ok && rest.starts_with('=') && !rest.starts_with("==") {
            return true;
        }
        from = end;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_line_of_a_nested_key() {
        let text = "return {\n  name = 'x',\n  rules = {\n    combat = { x = 1 },\n    morale = {\n      dice = 1e9,\n    },\n  },\n}\n";
        assert_eq!(key_line(text, ""), Some(3));
        assert_eq!(key_line(text, "morale.dice"), Some(6));
        assert_eq!(key_line(text, "combat.x"), Some(4));
        assert_eq!(key_line(text, "table.width"), None);
        assert!(!assigns("if dice == 2 then", "dice"));
        assert!(!assigns("morale_dice = 2", "dice"));
    }
}
