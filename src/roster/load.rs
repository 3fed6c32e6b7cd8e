//! Loading and layering: reads `rosters/*.toml` of every layer (built-in first, then each `--mod`
//! folder), parses each entry on its own so that every error names file, entry, field and line, and
//! merges the layers.
//!
//! Layering: a later layer's file may be absent; a list entry with the same key (its `name`, or `roll`
//! for Opportunities) replaces the earlier one in place, a new key is appended; single-valued tables
//! (`rules.toml`, `[barricade]`, `[trap]`) are merged key by key. This module never judges the data
//! beyond its shape: cross-references and ranges are `validate`'s job.

use super::error::Diagnostic;
use super::presets::Preset;
use super::profile::{DefenderEntry, EnemyEntry, HeroEntry, Profile};
use super::rules::Rules;
use super::schema::{
    Barricade, Behaviour, Building, Escalation, Length, Opportunity, Spell, Trait, Trap, Weapon,
};
use super::source::{self, LineIndex, SourceFile};
use super::tracks::Track;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The roster files and the top-level tables each may hold. `rules.toml` is one single-valued table.
pub(crate) const RULES_FILE: &str = "rules.toml";
pub(crate) const FILES: &[(&str, &[&str], &[&str])] = &[
    // (file, list tables, single-valued tables)
    (RULES_FILE, &[], &[]),
    ("traits.toml", &["trait"], &[]),
    ("weapons.toml", &["weapon"], &[]),
    ("spells.toml", &["spell"], &[]),
    ("behaviours.toml", &["behaviour"], &[]),
    ("bestiary.toml", &["enemy"], &[]),
    ("heroes.toml", &["hero"], &[]),
    ("defenders.toml", &["defender"], &[]),
    ("village.toml", &["building"], &["barricade", "trap"]),
    ("escalation.toml", &["escalation", "length"], &[]),
    ("opportunities.toml", &["opportunity"], &[]),
    ("tracks.toml", &["track"], &[]),
    ("presets.toml", &["preset"], &[]),
];

/// Where an entry was defined, to point diagnostics at it.
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    pub file: String,
    /// The layer of `file`: 0 the built-in one, then each `--mod` in order.
    pub layer: usize,
    /// The entry as shown: its `name`, or `#n` when it has none.
    pub entry: String,
    /// Path of the entry in the file (`enemy[3]`).
    pub prefix: String,
    pub lines: Arc<LineIndex>,
}

impl Origin {
    /// Line of a field path inside the entry (`traits[1]`, `alpha.script`); `""` is the entry itself.
    pub fn line(&self, path: &str) -> Option<usize> {
        if path.is_empty() {
            self.lines.get(&self.prefix)
        } else {
            self.lines.get(&format!("{}.{path}", self.prefix))
        }
    }

    /// A diagnostic about `field`, with the line of `path` (often the same, or an element of it).
    pub fn diag(&self, field: &str, path: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::file(self.file.clone(), message)
            .entry(self.entry.clone())
            .field(field)
            .line(self.line(path))
    }
}

/// A parsed entry and where it came from.
#[derive(Debug, Clone)]
pub(crate) struct Entry<T> {
    pub value: T,
    pub origin: Origin,
}

/// Where each key of a single-valued table was last set: path → (file, line).
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyOrigins {
    /// The file that defined the table first (the built-in one), for "missing field" errors.
    pub first_file: Option<String>,
    pub keys: BTreeMap<String, (String, usize)>,
}

impl KeyOrigins {
    /// File and line of `path` or of its closest recorded ancestor.
    pub fn locate(&self, path: &str) -> (Option<String>, Option<usize>) {
        let mut p = path;
        loop {
            if let Some((f, l)) = self.keys.get(p) {
                return (Some(f.clone()), Some(*l));
            }
            match p.rfind(['.', '[']) {
                Some(cut) => p = &p[..cut],
                None => return (self.first_file.clone(), None),
            }
        }
    }

    /// A diagnostic at `path` (dotted, relative to the file for rules, to the table otherwise):
    /// the entry is `entry` when given, else the first path segment.
    pub fn diag(&self, entry: Option<&str>, path: &str, message: impl Into<String>) -> Diagnostic {
        let (file, line) = self.locate(path);
        let mut d = Diagnostic::file(file.unwrap_or_else(|| "rosters".into()), message).line(line);
        let (e, field) = match entry {
            Some(e) => (
                Some(e.to_string()),
                (!path.is_empty()).then(|| path.to_string()),
            ),
            None => match path.split_once('.') {
                Some((head, rest)) => (Some(head.to_string()), Some(rest.to_string())),
                None if path.is_empty() => (None, None),
                None => (Some(path.to_string()), None),
            },
        };
        if let Some(e) = e {
            d = d.entry(e);
        }
        if let Some(f) = field {
            d = d.field(f);
        }
        d
    }
}

/// Everything read from the layers, still carrying origins; `validate` reads this, then it becomes
/// [`super::Rosters`].
#[derive(Debug, Default)]
pub(crate) struct Loaded {
    pub layers: Vec<PathBuf>,
    pub rules: Option<Rules>,
    pub rules_origins: KeyOrigins,
    pub traits: Vec<Entry<Trait>>,
    pub weapons: Vec<Entry<Weapon>>,
    pub spells: Vec<Entry<Spell>>,
    pub behaviours: Vec<Entry<Behaviour>>,
    pub profiles: Vec<Entry<Profile>>,
    pub buildings: Vec<Entry<Building>>,
    pub barricade: Option<Barricade>,
    pub barricade_origins: KeyOrigins,
    pub trap: Option<Trap>,
    pub trap_origins: KeyOrigins,
    pub escalation: Vec<Entry<Escalation>>,
    pub lengths: Vec<Entry<Length>>,
    pub opportunities: Vec<Entry<Opportunity>>,
    pub tracks: Vec<Entry<Track>>,
    pub presets: Vec<Entry<Preset>>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

/// Reads and layers every roster file. Never fails: problems are collected in `errors`.
pub(crate) fn load(layers: &[PathBuf]) -> Loaded {
    let mut out = Loaded {
        layers: layers.to_vec(),
        ..Loaded::default()
    };
    if layers.is_empty() {
        out.errors.push(Diagnostic::file(
            "rosters",
            "no layers given: the built-in project root must come first",
        ));
        return out;
    }
    for (i, layer) in layers.iter().enumerate() {
        if !layer.is_dir() {
            out.errors.push(Diagnostic::file(
                layer.display().to_string(),
                "layer folder does not exist",
            ));
        }
        // Files there that the loader will not read are named, not skipped without a word.
        super::stray::stray_files(i, layer, &mut out.warnings);
    }

    // Read every file of every layer.
    let mut files: BTreeMap<&str, Vec<SourceFile>> = BTreeMap::new();
    for &(name, lists, singles) in FILES {
        let mut found = Vec::new();
        for (i, root) in layers.iter().enumerate() {
            match source::read(i, root, name) {
                Ok(Some(f)) => {
                    check_top_level(&f, name, lists, singles, &mut out.errors);
                    found.push(f);
                }
                Ok(None) if i == 0 => out.errors.push(Diagnostic::file(
                    source::display_name(0, root, name),
                    "missing: the built-in layer must provide every roster file",
                )),
                Ok(None) => {}
                Err(d) => out.errors.push(d),
            }
        }
        files.insert(name, found);
    }
    let get = |name: &str| files.get(name).map(Vec::as_slice).unwrap_or(&[]);

    let (rules, origins) = load_single::<Rules>(get(RULES_FILE), None, &mut out.errors);
    out.rules = rules;
    out.rules_origins = origins;

    out.traits = load_list(
        get("traits.toml"),
        "trait",
        "name",
        |t: &Trait| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    out.weapons = load_list(
        get("weapons.toml"),
        "weapon",
        "name",
        |t: &Weapon| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    out.spells = load_list(
        get("spells.toml"),
        "spell",
        "name",
        |t: &Spell| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    out.behaviours = load_list(
        get("behaviours.toml"),
        "behaviour",
        "name",
        |t: &Behaviour| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    out.behaviours.sort_by_key(|b| b.value.order);

    let heroes = load_list(
        get("heroes.toml"),
        "hero",
        "name",
        |t: &HeroEntry| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    let enemies = load_list(
        get("bestiary.toml"),
        "enemy",
        "name",
        |t: &EnemyEntry| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    let defenders = load_list(
        get("defenders.toml"),
        "defender",
        "name",
        |t: &DefenderEntry| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    fn profiles<E: Into<Profile>>(v: Vec<Entry<E>>) -> impl Iterator<Item = Entry<Profile>> {
        v.into_iter().map(|e| Entry {
            value: e.value.into(),
            origin: e.origin,
        })
    }
    out.profiles = profiles(heroes)
        .chain(profiles(enemies))
        .chain(profiles(defenders))
        .collect();

    out.buildings = load_list(
        get("village.toml"),
        "building",
        "name",
        |t: &Building| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    let (barricade, origins) =
        load_single::<Barricade>(get("village.toml"), Some("barricade"), &mut out.errors);
    out.barricade = barricade;
    out.barricade_origins = origins;
    let (trap, origins) = load_single::<Trap>(get("village.toml"), Some("trap"), &mut out.errors);
    out.trap = trap;
    out.trap_origins = origins;

    out.escalation = load_list(
        get("escalation.toml"),
        "escalation",
        "name",
        |t: &Escalation| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    out.lengths = load_list(
        get("escalation.toml"),
        "length",
        "name",
        |t: &Length| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    out.opportunities = load_list(
        get("opportunities.toml"),
        "opportunity",
        "roll",
        |t: &Opportunity| t.roll.to_string(),
        (&mut out.errors, &mut out.warnings),
    );
    out.opportunities.sort_by_key(|o| o.value.roll);
    out.tracks = load_list(
        get("tracks.toml"),
        "track",
        "name",
        |t: &Track| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    out.presets = load_list(
        get("presets.toml"),
        "preset",
        "name",
        |t: &Preset| t.name.clone(),
        (&mut out.errors, &mut out.warnings),
    );
    out
}

/// Flags top-level keys a file may not hold.
fn check_top_level(
    f: &SourceFile,
    name: &str,
    lists: &[&str],
    singles: &[&str],
    errors: &mut Vec<Diagnostic>,
) {
    if name == RULES_FILE {
        return; // every key is a section of `Rules`, checked by deny_unknown_fields
    }
    let allowed: Vec<&str> = lists.iter().chain(singles).copied().collect();
    for (k, v) in f.table.iter() {
        if !allowed.contains(&k.as_str()) {
            let expected = allowed
                .iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ");
            errors.push(
                Diagnostic::file(
                    f.display.clone(),
                    format!("unknown table `{k}`, expected {expected}"),
                )
                .line(f.lines.get(k)),
            );
        } else if lists.contains(&k.as_str()) && !is_array_of_tables(v) {
            errors.push(
                Diagnostic::file(
                    f.display.clone(),
                    format!("`{k}` must be an array of tables (`[[{k}]]`)"),
                )
                .line(f.lines.get(k)),
            );
        } else if singles.contains(&k.as_str()) && !v.is_table() {
            errors.push(
                Diagnostic::file(
                    f.display.clone(),
                    format!("`{k}` must be a table (`[{k}]`)"),
                )
                .line(f.lines.get(k)),
            );
        }
    }
}

fn is_array_of_tables(v: &toml::Value) -> bool {
    v.as_array()
        .is_some_and(|a| a.iter().all(toml::Value::is_table))
}

/// Most errors reported for one entry or table before giving up on it.
const MAX_ERRORS_PER_ENTRY: usize = 16;

/// Deserializes a value, collecting every bad field rather than only the first: serde stops at the
/// first error, so the offending field is removed and the value retried; the "missing field" errors
/// that a removal causes are not reported. Returns the value only when there was no error at all, and
/// the errors as (field path, message), the path empty for the value itself.
pub(crate) fn deserialize_all<T: DeserializeOwned>(
    value: &toml::Value,
) -> (Option<T>, Vec<(String, String)>) {
    let mut value = value.clone();
    let mut removed: Vec<(String, String)> = Vec::new(); // (parent path, key)
    let mut errors = Vec::new();
    for _ in 0..MAX_ERRORS_PER_ENTRY {
        let err = match serde_path_to_error::deserialize::<_, T>(value.clone()) {
            Ok(v) if errors.is_empty() => return (Some(v), errors),
            Ok(_) => break,
            Err(e) => e,
        };
        let segments: Vec<serde_path_to_error::Segment> = err.path().iter().cloned().collect();
        let path = err.path().to_string();
        let path = if path == "." { String::new() } else { path };
        let message = err.into_inner().message().to_string();
        let caused_by_removal = removed
            .iter()
            .any(|(parent, key)| *parent == path && message == format!("missing field `{key}`"));
        if !caused_by_removal {
            errors.push((path.clone(), message));
        }
        if segments.is_empty() || !remove_path(&mut value, &segments) {
            break;
        }
        let parent = match path.rfind(['.', '[']) {
            Some(cut) => path[..cut].to_string(),
            None => String::new(),
        };
        let key = segments.last().map(ToString::to_string).unwrap_or_default();
        removed.push((parent, key));
    }
    (None, errors)
}

/// Removes the value at `path`; false when there is nothing to remove.
fn remove_path(value: &mut toml::Value, path: &[serde_path_to_error::Segment]) -> bool {
    use serde_path_to_error::Segment;
    let Some((last, init)) = path.split_last() else {
        return false;
    };
    let mut v = value;
    for seg in init {
        let next = match (seg, v) {
            (Segment::Map { key }, toml::Value::Table(t)) => t.get_mut(key),
            (Segment::Seq { index }, toml::Value::Array(a)) => a.get_mut(*index),
            _ => None,
        };
        match next {
            Some(n) => v = n,
            None => return false,
        }
    }
    match (last, v) {
        (Segment::Map { key }, toml::Value::Table(t)) => t.remove(key).is_some(),
        (Segment::Seq { index }, toml::Value::Array(a)) if *index < a.len() => {
            a.remove(*index);
            true
        }
        _ => false,
    }
}

/// Deserializes one list entry, reporting each bad field against its origin.
fn deserialize_entry<T: DeserializeOwned>(
    item: &toml::Value,
    origin: &Origin,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    let (value, errs) = deserialize_all(item);
    for (path, message) in errs {
        let mut d = Diagnostic::file(origin.file.clone(), message)
            .entry(origin.entry.clone())
            .line(origin.line(&path));
        if !path.is_empty() {
            d = d.field(path);
        }
        errors.push(d);
    }
    value
}

/// Reads the list table `key` of every layer's copy of a file and layers the entries by `ident`.
fn load_list<T: DeserializeOwned>(
    files: &[SourceFile],
    key: &str,
    key_label: &str,
    ident: impl Fn(&T) -> String,
    (errors, warnings): (&mut Vec<Diagnostic>, &mut Vec<Diagnostic>),
) -> Vec<Entry<T>> {
    let mut out: Vec<Entry<T>> = Vec::new();
    // Where each key is in `out`: a later layer replaces an entry in place, found here rather than by
    // a scan of `out` per entry (which made loading quadratic in the entries).
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for f in files {
        let Some(items) = f.table.get(key).and_then(toml::Value::as_array) else {
            continue;
        };
        // Keys seen in this file, with the line where first seen.
        let mut seen: BTreeMap<String, Option<usize>> = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            if !item.is_table() {
                continue; // reported by check_top_level
            }
            let name = item.get("name").and_then(toml::Value::as_str);
            let blank = name.is_some_and(|n| n.trim().is_empty());
            let label = name
                .filter(|_| !blank)
                .map_or_else(|| format!("#{}", i + 1), str::to_string);
            let origin = Origin {
                file: f.display.clone(),
                layer: f.layer,
                entry: label,
                prefix: format!("{key}[{i}]"),
                lines: f.lines.clone(),
            };
            let Some(value) = deserialize_entry::<T>(item, &origin, errors) else {
                continue;
            };
            if blank {
                // A blank name cannot be referred to, shown or told apart from another blank one.
                errors.push(origin.diag(
                    "name",
                    "name",
                    format!(
                        "name {:?} is empty or whitespace: a {key} needs a name",
                        name.unwrap_or_default()
                    ),
                ));
                continue;
            }
            let id = ident(&value);
            if let Some(first) = seen.get(&id) {
                let at = first.map_or(String::new(), |l| format!(" at line {l}"));
                errors.push(origin.diag(
                    key_label,
                    key_label,
                    format!("duplicate {key_label} {id:?}: already defined{at} of this file"),
                ));
                continue;
            }
            seen.insert(id.clone(), origin.line(""));
            let entry = Entry { value, origin };
            match index.get(&id).and_then(|&p| out.get_mut(p)) {
                Some(slot) => {
                    // A mod replacing a built-in entry is what layering is for; two mods defining
                    // one entry is more likely a clash, and only the later mod's counts.
                    if slot.origin.layer > 0 && entry.origin.layer != slot.origin.layer {
                        let first = &slot.origin;
                        let line = first
                            .line("")
                            .map_or(String::new(), |l| format!(" (line {l})"));
                        warnings.push(entry.origin.diag(
                            key_label,
                            key_label,
                            format!(
                                "{key} {id:?} is also defined in {}{line}: two mods define it, and \
                                 this one (the later --mod) replaces the other",
                                first.file
                            ),
                        ));
                    }
                    *slot = entry;
                }
                None => {
                    index.insert(id, out.len());
                    out.push(entry);
                }
            }
        }
    }
    out
}

/// Merges a single-valued table (`section`, or the whole file when `None`) key by key over the layers
/// and deserializes the result.
fn load_single<T: DeserializeOwned>(
    files: &[SourceFile],
    section: Option<&str>,
    errors: &mut Vec<Diagnostic>,
) -> (Option<T>, KeyOrigins) {
    let mut merged = toml::Table::new();
    let mut origins = KeyOrigins::default();
    for f in files {
        let part = match section {
            None => Some(&f.table),
            Some(s) => f.table.get(s).and_then(toml::Value::as_table),
        };
        let Some(part) = part else { continue };
        if origins.first_file.is_none() {
            origins.first_file = Some(f.display.clone());
        }
        merge(&mut merged, part);
        let prefix = section.unwrap_or("");
        for (path, line) in f.lines.under(prefix) {
            let rel = match section {
                None => path.to_string(),
                Some(_) => path[prefix.len()..].trim_start_matches('.').to_string(),
            };
            origins.keys.insert(rel, (f.display.clone(), line));
        }
    }
    if origins.first_file.is_none() {
        let file = files.first().map(|f| f.display.clone());
        if let Some(file) = file {
            let what = section.map_or("content".to_string(), |s| format!("table `[{s}]`"));
            errors.push(Diagnostic::file(file, format!("missing {what}")));
        }
        return (None, origins);
    }
    let (value, errs) = deserialize_all::<T>(&toml::Value::Table(merged));
    for (path, message) in errs {
        errors.push(origins.diag(section, &path, message));
    }
    (value, origins)
}

/// Deep merge: tables merge key by key, anything else is replaced.
pub(crate) fn merge(base: &mut toml::Table, overlay: &toml::Table) {
    for (k, v) in overlay {
        match (base.get_mut(k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            _ => {
                base.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Whether `rel` (relative to `scripts/`) is a safe script path: relative, no `..`, ends in `.lua`.
pub(crate) fn script_path_ok(rel: &str) -> bool {
    let p = Path::new(rel);
    rel.ends_with(".lua")
        && !rel.contains('\\')
        && p.components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Whether `rel` exists under `scripts/` of any layer.
pub(crate) fn script_exists(layers: &[PathBuf], rel: &str) -> bool {
    layers
        .iter()
        .any(|root| root.join("scripts").join(rel).is_file())
}
