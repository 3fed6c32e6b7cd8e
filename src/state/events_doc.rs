//! The event vocabulary page, `docs/events.md`: every kind of event a game's log holds, with its
//! fields, their JSON types and what they mean, and the `decision` lines written beside them.
//!
//! Generated, never written by hand, so that it cannot drift from what the kernel writes: the events
//! come from the `JsonSchema` of [`EventKind`] (serde's tag, `rename_all`, `flatten` and
//! `skip_serializing_if` are honoured by schemars, and the `///` comments become the descriptions), the
//! decision lines from [`Decision`]'s. `tests/events_doc.rs` fails when the committed page is stale.

use super::decision::Decision;
use super::event::{Event, EventKind};
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// What the page writes for an event or a field without a `///` comment.
pub const UNDESCRIBED: &str = "(not described)";

/// The command that rewrites the page.
pub const REGENERATE: &str = "UPDATE_DOCS=1 cargo test --release --test events_doc";

/// The schema of `T` as the log writes it (a field skipped when empty is optional; a default does not
/// make a field optional).
fn schema_of<T: JsonSchema>() -> Value {
    SchemaSettings::default()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// The page `docs/events.md`.
pub fn events_markdown() -> String {
    let events = schema_of::<EventKind>();
    let common = schema_of::<Event>();
    let decision = schema_of::<Decision>();
    let mut page = Page {
        defs: BTreeSet::new(),
        out: String::new(),
    };
    page.out.push_str(&intro());
    // The fields every event line has besides its own.
    page.out
        .push_str("\n## Every event\n\nEvery line but a `decision` line has these fields:\n\n");
    page.out.push_str(FIELDS_HEADER);
    page.out
        .push_str("| `event` | string | The kind of event: one of the names below. |\n");
    for (name, field, required) in properties(&common, &common) {
        if name != "kind" {
            let row = page.field_row(&name, field, required);
            page.out.push_str(&row);
        }
    }
    let variants: Vec<&Value> = events
        .get("oneOf")
        .and_then(Value::as_array)
        .map(|v| v.iter().collect())
        .unwrap_or_default();
    page.out
        .push_str("\n## The events\n\n| event | what it says |\n|---|---|\n");
    for v in &variants {
        let name = event_name(v);
        page.out.push_str(&format!(
            "| [`{name}`](#{name}) | {} |\n",
            one_line(&first_sentence(&description(v)))
        ));
    }
    for v in &variants {
        let name = event_name(v);
        page.out
            .push_str(&format!("\n### {name}\n\n{}\n\n", description(v)));
        page.object(&events, v, "event");
    }
    page.out.push_str(DECISIONS);
    page.out.push_str(FIELDS_HEADER);
    page.out
        .push_str("| `event` | string | Always `decision`. |\n");
    for (name, field, required) in properties(&decision, &decision) {
        let row = page.field_row(&name, field, required);
        page.out.push_str(&row);
    }
    // The types fields name, each once, in name order: those of the events, then the decisions'.
    page.out
        .push_str("\n## Types\n\nThe types the fields above name.\n");
    let mut written: std::collections::BTreeMap<String, String> = Default::default();
    loop {
        let todo: Vec<String> = (page.defs.iter())
            .filter(|d| !written.contains_key(*d))
            .cloned()
            .collect();
        if todo.is_empty() {
            break;
        }
        for name in todo {
            let root = if def(&events, &name).is_some() {
                &events
            } else {
                &decision
            };
            let body = match def(root, &name) {
                Some(d) => {
                    let before = std::mem::take(&mut page.out);
                    page.out
                        .push_str(&format!("\n### type {name}\n\n{}\n\n", description(d)));
                    page.type_body(root, d);
                    std::mem::replace(&mut page.out, before)
                }
                None => String::new(),
            };
            written.insert(name, body);
        }
    }
    for body in written.values() {
        page.out.push_str(body);
    }
    page.out
}

fn intro() -> String {
    format!(
        "# The event log

Generated from the event types (`src/state/event.rs`, `src/state/decision.rs`) by \
`village::state::events_markdown`; do not edit by hand (`{REGENERATE}` rewrites it).

A game's log is JSON lines, one event a line, in the order things happened: `village play --auto \
--log FILE` writes it, `village sim --record` keeps it, the REPL's `:log` and `:explain` print it in \
words, and `village replay --html` draws it. The log is the whole game: event 0 is `setup` (the table, \
its terrain, the buildings, the tokens and the Supplies), every model comes onto the table with a \
`placed` event (a hero where it is deployed), `round` and `turn` mark the clock, and every die rolled \
is a `roll` event. Where the log is written with the scripts' reasons, a `decision` line (no `seq`) \
stands just before the first event the decision led to.

Positions are inches from the table's south-west corner (`x` east, `y` north). A field marked \
*optional* is left out of the line when it has nothing to say; every other field is always written \
(`null` where its type allows it).
"
    )
}

const FIELDS_HEADER: &str = "| field | type | meaning |\n|---|---|---|\n";

const DECISIONS: &str = "
## decision lines

What a script chose, among what and why: kept where the log is written with the scripts' reasons \
(`play --log`, the REPL, the viewer). A decision is not an event of the game (it changes nothing and \
rolls nothing, and the events are the same without it): it has no `seq`, and it is written just before \
the event `at`, the first it led to.

";

/// One page being written: the types named so far (written under Types at the end).
struct Page {
    defs: BTreeSet<String>,
    out: String,
}

impl Page {
    /// The fields of object schema `s` as a table; a flattened choice (`oneOf` of objects tagged by
    /// one field) follows as one table per choice.
    fn object(&mut self, root: &Value, s: &Value, tag: &str) {
        let fields = properties(root, s);
        let own: Vec<_> = fields.iter().filter(|(n, _, _)| n != tag).collect();
        if own.is_empty() && s.get("oneOf").is_none() {
            self.out.push_str("No fields of its own.\n");
        } else if !own.is_empty() {
            self.out.push_str(FIELDS_HEADER);
            for (name, field, required) in &own {
                let row = self.field_row(name, field, *required);
                self.out.push_str(&row);
            }
        }
        if let Some(choices) = s.get("oneOf").and_then(Value::as_array) {
            let tag = choice_tag(choices).unwrap_or_default();
            let gap = if own.is_empty() { "" } else { "\n" };
            self.out.push_str(&format!("{gap}And, by `{tag}`:\n"));
            for c in choices {
                let word = c
                    .pointer(&format!("/properties/{tag}/const"))
                    .and_then(Value::as_str)
                    .unwrap_or("?");
                self.out.push_str(&format!(
                    "\n`{tag}`: `{word}` — {}\n\n",
                    one_line(&description(c))
                ));
                let fields = properties(root, c);
                let own: Vec<_> = fields.iter().filter(|(n, _, _)| *n != tag).collect();
                if own.is_empty() {
                    self.out.push_str("No other fields.\n");
                    continue;
                }
                self.out.push_str(FIELDS_HEADER);
                for (name, field, required) in own {
                    let row = self.field_row(name, field, *required);
                    self.out.push_str(&row);
                }
            }
        }
    }

    /// One field's row: name, type, meaning (and *optional* when it may be left out).
    fn field_row(&mut self, name: &str, field: &Value, required: bool) -> String {
        let ty = self.type_of(field);
        let mut meaning = one_line(&description(field));
        if !required {
            meaning = format!("*optional.* {meaning}");
        }
        format!("| `{name}` | {ty} | {} |\n", cell(&meaning))
    }

    /// A type in words, with named types linked to their section under Types.
    fn type_of(&mut self, s: &Value) -> String {
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = r.rsplit('/').next().unwrap_or(r).to_string();
            let link = format!("[{name}](#type-{})", name.to_lowercase());
            self.defs.insert(name);
            return link;
        }
        if let Some(alts) = s.get("anyOf").and_then(Value::as_array) {
            let parts: Vec<String> = alts.iter().map(|a| self.type_of(a)).collect();
            return parts.join(" or ");
        }
        if let Some(c) = s.get("const") {
            return format!("`{c}`");
        }
        let types: Vec<&str> = match s.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let mut words = Vec::new();
        for t in types {
            words.push(match t {
                "array" => {
                    let item = s
                        .get("items")
                        .map_or_else(|| "any".to_string(), |i| self.type_of(i));
                    let fixed = s.get("minItems").filter(|n| Some(*n) == s.get("maxItems"));
                    match fixed.and_then(Value::as_u64) {
                        Some(n) => format!("{n} × {item}"),
                        None => format!("list of {item}"),
                    }
                }
                "object" => "object".to_string(),
                other => other.to_string(),
            });
        }
        if words.is_empty() {
            "any".to_string()
        } else {
            words.join(" or ")
        }
    }

    /// A named type's section: its fields, its words, or what it is.
    fn type_body(&mut self, root: &Value, d: &Value) {
        if d.get("properties").is_some() {
            self.object(root, d, "");
            return;
        }
        let words = d
            .get("oneOf")
            .and_then(Value::as_array)
            .or_else(|| d.get("enum").and_then(Value::as_array));
        if let Some(words) = words {
            let objects = words.iter().any(|w| w.get("properties").is_some());
            if objects && choice_tag(words).is_some() {
                self.object(root, d, "");
                return;
            }
            self.out.push_str("| value | meaning |\n|---|---|\n");
            for w in words {
                let (value, meaning) = match w {
                    Value::String(s) => (format!("`\"{s}\"`"), String::new()),
                    _ => match w.get("const") {
                        Some(c) => (format!("`{c}`"), one_line(&description(w))),
                        // An enum variant holding a value: `{"model": 3}`.
                        None => {
                            let fields = properties(root, w);
                            let shown: Vec<String> = fields
                                .iter()
                                .map(|(n, f, _)| format!("`{{\"{n}\": …}}` ({})", self.type_of(f)))
                                .collect();
                            (shown.join(", "), one_line(&description(w)))
                        }
                    },
                };
                self.out
                    .push_str(&format!("| {value} | {} |\n", cell(&meaning)));
            }
            return;
        }
        let ty = self.type_of(d);
        self.out.push_str(&format!("Written as {ty}.\n"));
    }
}

/// The tag field the choices of a flattened enum share (a property that is a `const` in every one).
fn choice_tag(choices: &[Value]) -> Option<String> {
    let first = choices.first()?.get("properties")?.as_object()?;
    first
        .iter()
        .find(|(name, p)| {
            p.get("const").is_some()
                && choices
                    .iter()
                    .all(|c| c.pointer(&format!("/properties/{name}/const")).is_some())
        })
        .map(|(name, _)| name.clone())
}

/// A `$defs` entry of the root schema.
fn def<'a>(root: &'a Value, name: &str) -> Option<&'a Value> {
    root.get("$defs").and_then(|d| d.get(name))
}

/// The properties of object schema `s` in the order the type declares them (schemars lists `required`
/// in declaration order; the rest follow in name order), with whether each is always written. An
/// `allOf` part (a flattened struct) adds its own.
fn properties<'a>(root: &'a Value, s: &'a Value) -> Vec<(String, &'a Value, bool)> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    let props = s
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or_else(|| EMPTY.get_or_init(Map::new));
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out: Vec<(String, &Value, bool)> = Vec::new();
    for r in &required {
        if let Some(p) = props.get(*r) {
            out.push(((*r).to_string(), p, true));
        }
    }
    for (name, p) in props {
        if !required.contains(&name.as_str()) {
            out.push((name.clone(), p, false));
        }
    }
    if let Some(parts) = s.get("allOf").and_then(Value::as_array) {
        for part in parts {
            let part = match part.get("$ref").and_then(Value::as_str) {
                Some(r) => def(root, r.rsplit('/').next().unwrap_or(r)).unwrap_or(part),
                None => part,
            };
            out.extend(properties(root, part));
        }
    }
    out
}

/// The event's name: its `event` tag.
fn event_name(v: &Value) -> String {
    v.pointer("/properties/event/const")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string()
}

/// A schema's description, or [`UNDESCRIBED`].
fn description(s: &Value) -> String {
    s.get("description")
        .and_then(Value::as_str)
        .map_or_else(|| UNDESCRIBED.to_string(), str::to_string)
}

/// The first sentence of a description: up to the first ". " that does not end an abbreviation
/// ("Ch.", "e.g.").
fn first_sentence(text: &str) -> String {
    let one = one_line(text);
    let mut from = 0;
    while let Some(i) = one[from..].find(". ").map(|i| i + from) {
        let word = one[..i]
            .rsplit(' ')
            .next()
            .unwrap_or("")
            .trim_start_matches('(');
        if !["Ch", "e.g", "i.e", "cf", "vs"].contains(&word) {
            return one[..=i].to_string();
        }
        from = i + 2;
    }
    one
}

/// A description on one line (the doc comment's line breaks are spaces).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text safe in a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_skipped_when_empty_is_optional_and_a_null_one_is_not() {
        let page = events_markdown();
        let deployed = &page[page.find("\n### deployed\n").unwrap()..];
        let from = deployed
            .lines()
            .find(|l| l.starts_with("| `from` "))
            .unwrap();
        assert!(
            from.contains("or null") && !from.contains("*optional.*"),
            "{from}"
        );
        let council = &page[page.find("\n### council\n").unwrap()..];
        let radius = council
            .lines()
            .find(|l| l.starts_with("| `radius` "))
            .unwrap();
        assert!(radius.contains("*optional.*"), "{radius}");
    }
}
