//! Changes to the layered rosters named by a key (`village sweep --set KEY=…`, `village calibrate`):
//! what a key means (a rule constant `wave.budget_percent`, a field of a roster entry
//! `heroes."Captain Maren".combat`, a preset's value `presets.veteran.rules.wave.party_value_per_hero`),
//! its value in the rosters as they stand, and the mod folder that sets it to another value.
//!
//! A change is written as a layer like any `--mod` (a `rosters/` folder holding only what changes), so
//! the loader checks it against the same ranges and relations, a point of a sweep is a folder a person
//! can play with `--mod`, and a batch job on another machine reads it as a file. A list entry is
//! replaced whole by a later layer, so the layer holds the whole entry as the rosters have it, with the
//! one field changed.

use super::load::FILES;
use super::source;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The lists a key may start with: the word a person types, the roster file and its list table.
const LISTS: &[(&str, &str, &str)] = &[
    ("heroes", "heroes.toml", "hero"),
    ("bestiary", "bestiary.toml", "enemy"),
    ("defenders", "defenders.toml", "defender"),
    ("traits", "traits.toml", "trait"),
    ("weapons", "weapons.toml", "weapon"),
    ("spells", "spells.toml", "spell"),
    ("behaviours", "behaviours.toml", "behaviour"),
    ("buildings", "village.toml", "building"),
    ("escalation", "escalation.toml", "escalation"),
    ("lengths", "escalation.toml", "length"),
    ("opportunities", "opportunities.toml", "opportunity"),
    ("tracks", "tracks.toml", "track"),
    ("presets", "presets.toml", "preset"),
];

/// The single-valued tables of village.toml a key may start with.
const SINGLES: &[(&str, &str)] = &[("barricade", "village.toml"), ("trap", "village.toml")];

/// Where a key points in the rosters.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    /// A key of rules.toml (`wave.budget_percent`), or of a single-valued table of another file.
    Table {
        file: &'static str,
        path: Vec<String>,
    },
    /// A field of a list entry, found by its `name`.
    Entry {
        file: &'static str,
        list: &'static str,
        name: String,
        field: Vec<String>,
    },
}

/// A key of the rosters, checked against them: where it points and the value it has there.
#[derive(Debug, Clone, PartialEq)]
pub struct RosterKey {
    /// As the person typed it.
    pub text: String,
    target: Target,
    /// The value the layered rosters give it.
    pub current: toml::Value,
}

impl RosterKey {
    /// The roster file the key is in (`heroes.toml`).
    pub fn file(&self) -> &'static str {
        match &self.target {
            Target::Table { file, .. } | Target::Entry { file, .. } => file,
        }
    }

    /// Whether the key is a rule constant (rules.toml), which a preset's `rules` may hold.
    pub fn rule_path(&self) -> Option<&[String]> {
        match &self.target {
            Target::Table { file, path } if *file == super::load::RULES_FILE => Some(path),
            _ => None,
        }
    }

    /// A value typed for this key, read as the kind of value it has now (a whole number, a number,
    /// true/false or a text).
    pub fn parse_value(&self, typed: &str) -> Result<toml::Value, String> {
        let t = typed.trim();
        let bad = |what: &str| {
            format!(
                "{}: {t:?} is not {what} (the rosters have {})",
                self.text, self.current
            )
        };
        match &self.current {
            toml::Value::Integer(_) => t
                .parse::<i64>()
                .map(toml::Value::Integer)
                .map_err(|_| bad("a whole number")),
            toml::Value::Float(_) => t
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(toml::Value::Float)
                .ok_or_else(|| bad("a number")),
            toml::Value::Boolean(_) => match t {
                "true" => Ok(toml::Value::Boolean(true)),
                "false" => Ok(toml::Value::Boolean(false)),
                _ => Err(bad("true or false")),
            },
            toml::Value::String(_) => Ok(toml::Value::String(t.to_string())),
            _ => Err(format!(
                "{}: a {} cannot be swept; set one of its keys",
                self.text,
                self.current.type_str()
            )),
        }
    }
}

/// Splits a key at its dots, keeping a quoted part (`heroes."Captain Maren".combat`) whole.
pub fn split_key(key: &str) -> Result<Vec<String>, String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut was_quoted = false;
    for c in key.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                was_quoted = true;
            }
            '.' if !quoted => {
                if cur.trim().is_empty() && !was_quoted {
                    return Err(format!("key {key:?} has an empty part"));
                }
                parts.push(std::mem::take(&mut cur));
                was_quoted = false;
            }
            c => cur.push(c),
        }
    }
    if quoted {
        return Err(format!("key {key:?} has an unclosed quote"));
    }
    if cur.trim().is_empty() && !was_quoted {
        return Err(format!("key {key:?} has an empty part"));
    }
    parts.push(cur);
    Ok(parts)
}

/// Every layer's copy of a roster file, in layer order (files that do not parse are left to the
/// loader, which reports them).
fn tables(layers: &[PathBuf], file: &str) -> Vec<toml::Table> {
    layers
        .iter()
        .enumerate()
        .filter_map(|(i, root)| source::read(i, root, file).ok().flatten())
        .map(|f| f.table)
        .collect()
}

/// The layered value of a single-valued file or table: tables merged key by key.
fn merged(layers: &[PathBuf], file: &str, table: Option<&str>) -> toml::Table {
    let mut out = toml::Table::new();
    for t in tables(layers, file) {
        let part = match table {
            None => Some(&t),
            Some(k) => t.get(k).and_then(toml::Value::as_table),
        };
        if let Some(p) = part {
            super::load::merge(&mut out, p);
        }
    }
    out
}

/// The entries of a list by name, as the layers give them (a later layer replaces an entry whole).
fn entries_of(layers: &[PathBuf], file: &str, list: &str) -> BTreeMap<String, toml::Table> {
    let mut out = BTreeMap::new();
    for t in tables(layers, file) {
        for item in t
            .get(list)
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some((n, e)) = item
                .get("name")
                .and_then(toml::Value::as_str)
                .zip(item.as_table())
            {
                out.insert(n.to_string(), e.clone());
            }
        }
    }
    out
}

/// The value at `path` under `table`, or an error naming the first part that is not there and the
/// closest that is.
fn walk<'a>(
    table: &'a toml::Table,
    path: &[String],
    key: &str,
    what: &str,
) -> Result<&'a toml::Value, String> {
    let mut here = table;
    for (i, part) in path.iter().enumerate() {
        let Some(v) = here.get(part) else {
            let known: Vec<&str> = here.keys().map(String::as_str).collect();
            let within = if i == 0 {
                what.to_string()
            } else {
                path[..i].join(".")
            };
            return Err(format!(
                "{key}: {}",
                crate::names::unknown(&format!("key of {within}"), part, known)
            ));
        };
        if i + 1 == path.len() {
            return Ok(v);
        }
        here = v
            .as_table()
            .ok_or_else(|| format!("{key}: {part} is a {}, not a table", v.type_str()))?;
    }
    Err(format!("{key}: the key names a whole {what}; add a field"))
}

/// The words a key may start with: the lists, village.toml's tables and rules.toml's sections.
fn starts(layers: &[PathBuf]) -> Vec<String> {
    let rules = merged(layers, super::load::RULES_FILE, None);
    let mut out: Vec<String> = LISTS.iter().map(|(w, ..)| w.to_string()).collect();
    out.extend(SINGLES.iter().map(|(w, _)| w.to_string()));
    out.extend(rules.keys().cloned());
    out
}

/// Resolves a key against the layered rosters: a rule constant (`wave.budget_percent`, also written
/// `rules.wave.budget_percent`), a field of a roster entry (`heroes."Captain Maren".combat`,
/// `bestiary."Orc Warrior".quality`, `presets.veteran.rules.wave.party_value_per_hero`) or a key of
/// village.toml's barricade and trap. An unknown part is refused with the closest known one.
pub fn resolve(layers: &[PathBuf], key: &str) -> Result<RosterKey, String> {
    let mut parts = split_key(key)?;
    if parts.first().is_some_and(|p| p == "rules") && parts.len() > 2 {
        parts.remove(0);
    }
    let head = parts[0].clone();
    let rest = &parts[1..];
    if let Some(&(word, file, list)) = LISTS.iter().find(|(w, ..)| *w == head) {
        let Some(name) = rest.first() else {
            return Err(format!("{key}: name an entry of {word} and its field"));
        };
        let entries = entries_of(layers, file, list);
        let Some(e) = entries.get(name) else {
            return Err(format!(
                "{key}: {}",
                crate::names::unknown(
                    &format!("entry of {word} ({file})"),
                    name,
                    entries.keys().map(String::as_str)
                )
            ));
        };
        let field = rest[1..].to_vec();
        let current = walk(e, &field, key, &format!("{word}.{name:?}"))?.clone();
        return Ok(RosterKey {
            text: key.to_string(),
            target: Target::Entry {
                file,
                list,
                name: name.clone(),
                field,
            },
            current,
        });
    }
    let (file, table, path): (&'static str, Option<&str>, Vec<String>) =
        match SINGLES.iter().find(|(w, _)| *w == head) {
            Some(&(w, file)) => (file, Some(w), rest.to_vec()),
            None => (super::load::RULES_FILE, None, parts.clone()),
        };
    let t = merged(layers, file, table);
    if table.is_none() && !t.contains_key(&head) {
        let known = starts(layers);
        return Err(
            crate::names::unknown("sweep key", key, known.iter().map(String::as_str))
                + " — a key is a rule constant (wave.budget_percent), a roster field \
             (heroes.\"Captain Maren\".combat), `variant` or `preset`",
        );
    }
    let current = walk(&t, &path, key, table.unwrap_or(file))?.clone();
    let path = match table {
        Some(w) => std::iter::once(w.to_string()).chain(path).collect(),
        None => path,
    };
    Ok(RosterKey {
        text: key.to_string(),
        target: Target::Table { file, path },
        current,
    })
}

/// Sets `path` under `table` to `value`, making the tables on the way.
fn set(table: &mut toml::Table, path: &[String], value: toml::Value) {
    let Some((last, ways)) = path.split_last() else {
        return;
    };
    let mut here = table;
    for p in ways {
        let next = here
            .entry(p.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if !next.is_table() {
            *next = toml::Value::Table(toml::Table::new());
        }
        let toml::Value::Table(t) = next else { return };
        here = t;
    }
    here.insert(last.clone(), value);
}

/// Writes `dir/rosters/` as a mod layer that sets each key to its value over `layers`. The files hold
/// only what changes; a list entry is written whole, as the layers give it, with its fields changed.
pub fn write_layer(
    layers: &[PathBuf],
    changes: &[(&RosterKey, toml::Value)],
    dir: &Path,
) -> Result<(), String> {
    let mut files: BTreeMap<&'static str, toml::Table> = BTreeMap::new();
    // Entries changed so far, by (list, name): two keys on one entry change one copy.
    let mut entries: BTreeMap<(&'static str, &'static str, String), toml::Table> = BTreeMap::new();
    for (key, value) in changes {
        match &key.target {
            Target::Table { file, path } => {
                set(files.entry(file).or_default(), path, value.clone());
            }
            Target::Entry {
                file,
                list,
                name,
                field,
            } => {
                let slot = entries
                    .entry((file, list, name.clone()))
                    .or_insert_with(|| {
                        entries_of(layers, file, list)
                            .remove(name)
                            .unwrap_or_default()
                    });
                set(slot, field, value.clone());
            }
        }
    }
    for ((file, list, _), e) in entries {
        let t = files.entry(file).or_default();
        let items = t
            .entry(list.to_string())
            .or_insert_with(|| toml::Value::Array(Vec::new()));
        if let toml::Value::Array(a) = items {
            a.push(toml::Value::Table(e));
        }
    }
    let rosters = dir.join("rosters");
    std::fs::create_dir_all(&rosters)
        .map_err(|e| format!("cannot make {}: {e}", rosters.display()))?;
    for (file, t) in files {
        debug_assert!(FILES.iter().any(|(f, ..)| *f == file));
        let text = toml::to_string(&t).map_err(|e| format!("cannot write {file}: {e}"))?;
        let path = rosters.join(file);
        std::fs::write(
            &path,
            format!("# Written by village sweep: what this point changes.\n{text}"),
        )
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_splits_at_dots_outside_quotes() {
        assert_eq!(
            split_key(r#"heroes."Captain Maren".combat"#).unwrap(),
            vec!["heroes", "Captain Maren", "combat"]
        );
        assert_eq!(
            split_key("wave.budget_percent").unwrap(),
            vec!["wave", "budget_percent"]
        );
        assert!(split_key("wave..x").is_err());
        assert!(split_key(r#"heroes."Captain"#).is_err());
    }
}
