//! The roster reference page, `docs/rosters.md`: every table of every roster file with its fields, their
//! TOML types, whether each is required (and its default), its valid range and what it means.
//!
//! Generated, never written by hand, so that it cannot drift from what the loader accepts: the fields
//! come from the `JsonSchema` of the very structs `load` deserializes (serde's `rename_all`, `default` and
//! `deny_unknown_fields` are honoured by schemars, and the `///` comments become the descriptions), the
//! ranges from [`super::RANGES`], and each table's example is a real entry cut from the built-in
//! rosters. rules.toml is left to docs/rules-reference.md ([`super::ranges_markdown`]).
//! `tests/docs_rosters.rs` fails when the committed page is stale.

use super::error::{Diagnostic, RosterErrors};
use super::load::{FILES, RULES_FILE};
use super::profile::{DefenderEntry, EnemyEntry, HeroEntry};
use super::ranges::range_of;
use super::schema::{
    Barricade, Behaviour, Building, Escalation, Length, Opportunity, Spell, Trait, Trap, Weapon,
};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// The placeholder for a field without a `///` comment; `tests/docs_rosters.rs` refuses it.
pub const UNDESCRIBED: &str = "Not described";

/// The schema of the struct `load` deserializes a table into; `None` for a table this page does not know
/// (a test fails on it, so a new table cannot go undocumented).
fn schema_of(table: &str) -> Option<Schema> {
    fn of<T: JsonSchema>() -> Schema {
        SchemaGenerator::default().into_root_schema_for::<T>()
    }
    Some(match table {
        "trait" => of::<Trait>(),
        "weapon" => of::<Weapon>(),
        "spell" => of::<Spell>(),
        "behaviour" => of::<Behaviour>(),
        "enemy" => of::<EnemyEntry>(),
        "hero" => of::<HeroEntry>(),
        "defender" => of::<DefenderEntry>(),
        "building" => of::<Building>(),
        "barricade" => of::<Barricade>(),
        "trap" => of::<Trap>(),
        "escalation" => of::<Escalation>(),
        "length" => of::<Length>(),
        "opportunity" => of::<Opportunity>(),
        "preset" => of::<super::Preset>(),
        "track" => of::<super::Track>(),
        _ => return None,
    })
}

/// The page `docs/rosters.md`, with the example entries read from `root/rosters/` (the built-in layer).
/// An error names the roster file that could not be read or whose example could not be cut out.
pub fn rosters_markdown(root: &Path) -> Result<String, RosterErrors> {
    let mut out = String::from(INTRO);
    out.push_str("\n| file | tables |\n|---|---|\n");
    for &(file, lists, singles) in FILES {
        let tables: Vec<String> = lists
            .iter()
            .map(|t| format!("`[[{t}]]`"))
            .chain(singles.iter().map(|t| format!("`[{t}]`")))
            .collect();
        let tables = if file == RULES_FILE {
            "one `[section]` per part of the rules: see [rules-reference.md](rules-reference.md)"
                .into()
        } else {
            tables.join(", ")
        };
        out.push_str(&format!("| `rosters/{file}` | {tables} |\n"));
    }
    for &(file, lists, singles) in FILES {
        out.push_str(&format!("\n## rosters/{file}\n"));
        if file == RULES_FILE {
            out.push_str(RULES_SECTION);
            continue;
        }
        let text = std::fs::read_to_string(root.join("rosters").join(file)).map_err(|e| {
            RosterErrors(vec![Diagnostic::file(
                format!("rosters/{file}"),
                format!("cannot read it for the example entries: {e}"),
            )])
        })?;
        let tables = lists.iter().map(|t| (*t, true));
        for (table, list) in tables.chain(singles.iter().map(|t| (*t, false))) {
            let header = if list {
                format!("[[{table}]]")
            } else {
                format!("[{table}]")
            };
            out.push_str(&format!("\n### `{header}`\n\n"));
            let Some(schema) = schema_of(table) else {
                out.push_str(&format!("{UNDESCRIBED}: no schema for this table.\n"));
                continue;
            };
            let page = Page {
                root: schema.as_value(),
                file,
                table,
            };
            page.section(&mut out, page.root, table, "", 3);
            let example = example(&text, table, list).map_err(|message| {
                RosterErrors(vec![Diagnostic::file(format!("rosters/{file}"), message)])
            })?;
            out.push_str(&format!(
                "\nFrom the built-in `rosters/{file}`:\n\n```toml\n{example}\n```\n"
            ));
        }
    }
    out.push_str(SCENARIO_SECTION);
    let schema = SchemaGenerator::default().into_root_schema_for::<crate::scenario::Scenario>();
    let page = Page {
        root: schema.as_value(),
        file: "scenarios/NAME.toml",
        table: "",
    };
    page.section(&mut out, page.root, "", "", 3);
    Ok(out)
}

const SCENARIO_SECTION: &str = "
## scenarios/NAME.toml

A scenario is one file of a layer's `scenarios/` folder (the built-in data's or a `--mod`'s), or any \
`.toml` file given by path: `--scenario NAME|FILE` on `play`, `sim`, `render`, `wave`, `village repl` and \
`:new`; `village scenarios` lists them and `village check` checks them. It is parsed as strictly as the \
rosters (an unknown field, a wrong type, a value out of range is an error at file, field and line) and \
checked against them and the geometry of its table: every terrain piece on the table (an area convex, \
walls and hedges as lines), every building one of `rosters/village.toml`'s, once, wholly on the table, \
apart from the others and off impassable terrain, the Town Hall among them, and a route for a 1\" base \
from every edge to the Town Hall. `rulebook`, the default, is today's game. This is the format's first \
part (issue 40): the table and the buildings.

";

const INTRO: &str = "# Roster formats

Generated from the structs the loader parses (`src/roster/schema.rs`, `src/roster/profile.rs`) by \
`village::roster::rosters_markdown`; do not edit by hand \
(`UPDATE_DOCS=1 cargo test --release --test docs_rosters` rewrites it).

The game data is TOML in `rosters/`: the built-in files, then each `--mod` folder's `rosters/` layered \
over them. The loader is strict: a field not listed here is an error (`unknown field`) naming the file, \
the entry, the field and the line, and so is a value of the wrong type or outside its valid range \
(`village check --mod DIR` shows them all at once). Types are TOML's: a *number* may be written `3` or \
`3.5`, an *integer* only as a whole number; a field that takes one of a few words lists them.

Layering: an entry of a list (`[[enemy]]`, `[[trait]]`, …) whose `name` (an Opportunity's `roll`) \
the built-in rosters already use **replaces** that entry whole, so it must give every required field; a \
new name **adds** an entry. A single table (`[barricade]`, `[trap]`, and every section of rules.toml) \
is merged key by key: a mod names only the keys it changes. Valid ranges are `village check`'s, from \
`src/roster/ranges.rs` (all of them, with the relations between keys, are in \
[rules-reference.md](rules-reference.md)). Names that refer to other entries (traits, weapons, spells, \
Behaviours, scripts) must exist in some layer.

Each table ends with one entry of the built-in rosters, the one that uses the most fields.
";

const RULES_SECTION: &str = "
The rule constants: one `[section]` per part of the rules (`[table]`, `[measures]`, `[morale]`, …), \
every key required in the built-in file, and a mod's rules.toml names only the keys it changes. Their \
keys, valid ranges and the relations between them are in [rules-reference.md](rules-reference.md); the \
built-in `rosters/rules.toml` comments each key.
";

/// One table's schema being written out: the root (for `$ref`s) and where in the rosters it is.
struct Page<'a> {
    root: &'a Value,
    file: &'a str,
    table: &'a str,
}

/// What a field holds, as a designer writes it in TOML.
enum Kind<'a> {
    /// `string`, `integer`, `number`, `boolean`, or a free table of named values.
    Plain(&'static str),
    /// One of a few words, each perhaps with what it means.
    Words(Vec<(String, Option<String>)>),
    /// A table with its own fields (written as a sub-table).
    Table(&'a Value),
    Array(Box<Kind<'a>>),
}

impl<'a> Page<'a> {
    /// The schema `s` points to, following `$ref`s into the root's `$defs`.
    fn deref(&self, mut s: &'a Value) -> &'a Value {
        while let Some(r) = s.get("$ref").and_then(Value::as_str) {
            match r.strip_prefix('#').and_then(|p| self.root.pointer(p)) {
                Some(target) => s = target,
                None => break,
            }
        }
        s
    }

    /// The schema without its `null` alternative (an `Option` field), and whether it had one.
    fn non_null(&self, s: &'a Value) -> (&'a Value, bool) {
        if let Some(alts) = s.get("anyOf").and_then(Value::as_array) {
            let rest: Vec<&Value> = alts.iter().filter(|a| !is_null(a)).collect();
            if let [one] = rest.as_slice() {
                return (self.deref(one), rest.len() < alts.len());
            }
        }
        let s = self.deref(s);
        let nullable = s
            .get("type")
            .and_then(Value::as_array)
            .is_some_and(|t| t.iter().any(|t| t == "null"));
        (s, nullable)
    }

    fn kind(&self, s: &'a Value) -> Kind<'a> {
        let (s, _) = self.non_null(s);
        if let Some(words) = s.get("enum").and_then(Value::as_array) {
            return Kind::Words(
                words
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|w| (w.to_string(), None))
                    .collect(),
            );
        }
        if let Some(alts) = s.get("oneOf").and_then(Value::as_array) {
            return Kind::Words(
                alts.iter()
                    .filter_map(|a| {
                        let word = a.get("const")?.as_str()?.to_string();
                        Some((word, description(a)))
                    })
                    .collect(),
            );
        }
        let ty = match s.get("type") {
            Some(Value::Array(types)) => types.iter().find(|t| *t != "null"),
            other => other,
        };
        match ty.and_then(Value::as_str) {
            Some("string") => Kind::Plain("string"),
            Some("integer") => Kind::Plain("integer"),
            Some("number") => Kind::Plain("number"),
            Some("boolean") => Kind::Plain("boolean"),
            Some("array") => Kind::Array(Box::new(match s.get("items") {
                Some(items) => self.kind(items),
                None => Kind::Plain("value"),
            })),
            Some("object") if s.get("properties").is_some() => Kind::Table(s),
            Some("object") => Kind::Plain("table of named values"),
            _ => Kind::Plain("value"),
        }
    }

    /// One table's fields (`schema` an object schema) and then, one heading deeper, each of its
    /// sub-tables. `name` is the table's dotted TOML name (`enemy`, `enemy.alpha`), `prefix` the fields'
    /// path inside the entry (`""`, `wall.`) as `RANGES` writes keys.
    fn section(&self, out: &mut String, schema: &'a Value, name: &str, prefix: &str, level: usize) {
        if let Some(d) = description(schema) {
            out.push_str(&format!("{}\n\n", cell(&d)));
        }
        out.push_str(
            "| field | type | required | valid range | meaning |\n|---|---|---|---|---|\n",
        );
        let mut subtables = Vec::new();
        for (field, s) in self.fields(schema) {
            let required = schema
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|f| f == field));
            let kind = self.kind(s);
            let sub = |table: &'a Value, array: bool| {
                // A file of one table (a scenario) has no table name before its fields.
                let path = if name.is_empty() {
                    field.to_string()
                } else {
                    format!("{name}.{field}")
                };
                let header = if array {
                    format!("[[{path}]]")
                } else {
                    format!("[{path}]")
                };
                (header, path, table, format!("{prefix}{field}."))
            };
            let ty = match &kind {
                Kind::Table(t) => {
                    let (header, ..) = sub(t, false);
                    subtables.push(sub(t, false));
                    format!("table `{header}`, below")
                }
                Kind::Array(item) => match item.as_ref() {
                    Kind::Table(t) => {
                        let (header, ..) = sub(t, true);
                        subtables.push(sub(t, true));
                        format!("array of tables `{header}`, below")
                    }
                    other => format!("array of {}", plural(other)),
                },
                other => singular(other),
            };
            let mut meaning = description(s).map_or(UNDESCRIBED.to_string(), |d| cell(&d));
            let words = match &kind {
                Kind::Words(w) => Some(w),
                Kind::Array(item) => match item.as_ref() {
                    Kind::Words(w) => Some(w),
                    _ => None,
                },
                _ => None,
            };
            if let Some(words) = words {
                for (w, d) in words {
                    if let Some(d) = d {
                        meaning.push_str(&format!("<br>`{w}`: {}", cell(d)));
                    }
                }
            }
            out.push_str(&format!(
                "| `{field}` | {ty} | {} | {} | {meaning} |\n",
                if required {
                    "required".to_string()
                } else {
                    self.optional(s, &kind)
                },
                self.range(&format!("{prefix}{field}")),
            ));
        }
        for (header, dotted, table, prefix) in subtables {
            out.push_str(&format!("\n{} `{header}`\n\n", "#".repeat(level + 1)));
            self.section(out, table, &dotted, &prefix, level + 1);
        }
    }

    /// The fields of an object schema: the required ones in the order the struct declares them, then the
    /// optional ones by name (schemars keeps declaration order only in `required`).
    fn fields(&self, schema: &'a Value) -> Vec<(&'a str, &'a Value)> {
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut out: Vec<(&str, &Value)> = required
            .iter()
            .filter_map(|f| props.get_key_value(*f).map(|(k, v)| (k.as_str(), v)))
            .collect();
        out.extend(
            props
                .iter()
                .filter(|(k, _)| !required.contains(&k.as_str()))
                .map(|(k, v)| (k.as_str(), v)),
        );
        out
    }

    /// "optional" and what an absent field means. schemars writes a field's `default` unless the field's
    /// `skip_serializing_if` holds for it; the roster structs skip only `false`, `None` and empty
    /// collections, so a default left out is exactly that.
    fn optional(&self, s: &'a Value, kind: &Kind) -> String {
        let (_, nullable) = self.non_null(s);
        let default = match s.get("default") {
            Some(Value::Null) => None,
            Some(v) => Some(toml_literal(v)),
            None if nullable => None,
            None => match kind {
                Kind::Plain("boolean") => Some("false".into()),
                Kind::Array(_) => Some("[]".into()),
                Kind::Plain("table of named values") => Some("{}".into()),
                _ => None,
            },
        };
        match default {
            Some(d) => format!("optional, default `{d}`"),
            None => "optional".into(),
        }
    }

    /// The valid range of a numeric field, as `RANGES` gives it; empty when it has none (the bounds of the
    /// Rust type would mislead: a building ability's `level` is a `u8`, but only 1 to `max_level` passes
    /// `validate`, which says so in the field's description).
    fn range(&self, key: &str) -> String {
        range_of(self.file, self.table, key).map_or(String::new(), |r| cell(&r.describe()))
    }
}

fn is_null(s: &Value) -> bool {
    s.get("type").is_some_and(|t| t == "null")
}

fn description(s: &Value) -> Option<String> {
    s.get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn singular(k: &Kind) -> String {
    match k {
        Kind::Plain(p) => p.to_string(),
        Kind::Words(w) => format!("one of {}", words(w)),
        Kind::Table(_) => "table".into(),
        Kind::Array(item) => format!("array of {}", plural(item)),
    }
}

fn plural(k: &Kind) -> String {
    match k {
        Kind::Plain("table of named values") => "tables of named values".into(),
        Kind::Plain(p) => format!("{p}s"),
        Kind::Words(w) => format!("strings, each one of {}", words(w)),
        Kind::Table(_) => "tables".into(),
        Kind::Array(item) => format!("arrays of {}", plural(item)),
    }
}

fn words(w: &[(String, Option<String>)]) -> String {
    w.iter()
        .map(|(w, _)| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A default as it would be written in TOML.
fn toml_literal(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Array(a) if a.is_empty() => "[]".into(),
        Value::Object(o) if o.is_empty() => "{}".into(),
        other => other.to_string(),
    }
}

/// Text fit for one Markdown table cell: one line, no column breaks, rustdoc links (`` [`Params`] ``) as
/// plain code.
fn cell(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("[`") {
        let link = rest[at + 1..]
            .find("`]")
            .map(|end| &rest[at + 1..at + end + 2])
            .filter(|code| !code.contains(['[', ']', '\n']));
        match link {
            Some(code) => {
                out.push_str(&rest[..at]);
                out.push_str(code);
                rest = &rest[at + code.len() + 2..];
            }
            None => {
                out.push_str(&rest[..at + 2]);
                rest = &rest[at + 2..];
            }
        }
    }
    out.push_str(rest);
    out.replace("\n\n", "<br>")
        .replace('\n', " ")
        .replace('|', "\\|")
}

/// The entry of table `key` that uses the most fields, cut verbatim from the roster file `text`: for a
/// list, the `[[key]]` with the most distinct field paths (the first of equals); for a single table, the
/// `[key]` table. It runs from its header to the next header that does not open one of its own
/// sub-tables, less the blank and comment lines that trail it (they belong to what follows). The cut is
/// checked to parse to exactly the entry the file holds, so the example is real data.
fn example(text: &str, key: &str, list: bool) -> Result<String, String> {
    let parsed: toml::Table = toml::from_str(text).map_err(|e| format!("does not parse: {e}"))?;
    let entries: Vec<&toml::Value> = match parsed.get(key) {
        Some(toml::Value::Array(a)) if list => a.iter().collect(),
        Some(v @ toml::Value::Table(_)) if !list => vec![v],
        _ => return Err(format!("has no `{key}` to show as an example")),
    };
    let chunks = entry_texts(text, key, list);
    if chunks.len() != entries.len() {
        return Err(format!(
            "{} `{key}` entries parsed but {} cut out for the example",
            entries.len(),
            chunks.len()
        ));
    }
    let mut best = 0;
    let mut most = 0;
    for (i, e) in entries.iter().enumerate() {
        let mut paths = BTreeSet::new();
        field_paths(e, "", &mut paths);
        if paths.len() > most {
            (best, most) = (i, paths.len());
        }
    }
    let chunk = chunks[best].clone();
    let reparsed: toml::Table = toml::from_str(&chunk)
        .map_err(|e| format!("the example of `{key}` does not parse: {e}"))?;
    let same = match reparsed.get(key) {
        Some(toml::Value::Array(a)) if list => a.len() == 1 && &a[0] == entries[best],
        Some(v) if !list => v == entries[best],
        _ => false,
    };
    if !same || reparsed.len() != 1 {
        return Err(format!(
            "the example cut out for `{key}` is not the entry the file holds:\n{chunk}"
        ));
    }
    Ok(chunk)
}

/// Each `[[key]]` entry (or the `[key]` table) of `text`, verbatim; see [`example`].
fn entry_texts(text: &str, key: &str, list: bool) -> Vec<String> {
    let open = if list {
        format!("[[{key}]]")
    } else {
        format!("[{key}]")
    };
    let mut out: Vec<Vec<&str>> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if let Some(name) = header_name(line) {
            let own = line.trim_start().starts_with(&open) && name == key;
            if own {
                out.push(Vec::new());
            }
            inside = own || (inside && name.starts_with(&format!("{key}.")));
        }
        if inside {
            if let Some(current) = out.last_mut() {
                current.push(line);
            }
        }
    }
    out.into_iter()
        .map(|mut lines| {
            while lines
                .last()
                .is_some_and(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
            {
                lines.pop();
            }
            lines.join("\n")
        })
        .collect()
}

/// The dotted name of a `[table]` or `[[array]]` header line, `None` for any other line.
fn header_name(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if !t.starts_with('[') {
        return None;
    }
    let inner = t.trim_start_matches('[');
    let end = inner.find(']')?;
    let name = inner[..end].trim();
    // `[1, 2]` continuing a multi-line array is not a header.
    name.chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .then_some(name)
        .filter(|n| !n.is_empty())
}

/// Every field path of a value (`name`, `alpha.params.within`), array elements sharing their path.
fn field_paths(v: &toml::Value, prefix: &str, out: &mut BTreeSet<String>) {
    match v {
        toml::Value::Table(t) => {
            for (k, x) in t {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                out.insert(path.clone());
                field_paths(x, &path, out);
            }
        }
        toml::Value::Array(a) => {
            for x in a {
                field_paths(x, prefix, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# head\n[[a]]\nname = \"x\"\n\n# the next one\n[[a]]\nname = \"y\"\nlist = [\n  [1, 2],\n]\n[a.sub]\nk = 1\n[[a.more]]\nm = 2\n\n[b]\nz = 1\n";

    #[test]
    fn a_cell_is_one_line_with_rustdoc_links_as_code() {
        assert_eq!(
            cell("One value of [`Params`].\nSee `[[trait]]` | x.\n\nMore."),
            "One value of `Params`. See `[[trait]]` \\| x.<br>More."
        );
    }

    #[test]
    fn an_entry_runs_to_the_next_header_that_is_not_its_own_sub_table() {
        let cut = entry_texts(FILE, "a", true);
        assert_eq!(cut.len(), 2);
        assert_eq!(cut[0], "[[a]]\nname = \"x\"");
        assert_eq!(
            cut[1],
            "[[a]]\nname = \"y\"\nlist = [\n  [1, 2],\n]\n[a.sub]\nk = 1\n[[a.more]]\nm = 2"
        );
        assert_eq!(entry_texts(FILE, "b", false), vec!["[b]\nz = 1"]);
    }

    #[test]
    fn the_example_is_the_entry_with_the_most_fields_and_is_checked_against_the_file() {
        assert!(example(FILE, "a", true).unwrap().contains("name = \"y\""));
        // A cut that loses a line is refused: a header-like line inside a multi-line string.
        let tricky = "[[a]]\nname = \"\"\"\n[b]\n\"\"\"\n";
        assert!(example(tricky, "a", true).is_err());
    }
}
