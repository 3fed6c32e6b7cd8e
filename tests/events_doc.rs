//! docs/events.md, the event vocabulary of a game's log, is exactly what `village::state::events_markdown`
//! writes from the event types (src/state/event.rs, src/state/decision.rs) — never edited by hand. An
//! event or a field added to `EventKind` makes this test fail until the page is regenerated with
//! `UPDATE_DOCS=1 cargo test --release --test events_doc`.
//!
//! And the page is the truth about the log: every kind of event a real game writes has its section, and
//! every field such a line carries is listed under it.

use std::collections::BTreeMap;
use std::path::Path;
use village::state::{events_markdown, EVENTS_DOC_REGENERATE, UNDESCRIBED};

mod markdown;

const DOC: &str = "docs/events.md";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_committed_event_vocabulary_is_what_the_event_types_generate() {
    let want = events_markdown();
    assert!(
        want.contains(EVENTS_DOC_REGENERATE),
        "the page says how it is made"
    );
    markdown::assert_generated(
        &root().join(DOC),
        DOC,
        &want,
        markdown::update_requested(&["UPDATE_DOCS"]),
        EVENTS_DOC_REGENERATE,
    );
}

/// Every event and every field of the new vocabulary (issue 37) says what it means.
#[test]
fn the_events_of_the_whole_game_are_described() {
    let page = events_markdown();
    assert!(
        page.contains("## decision lines"),
        "no section for decision lines"
    );
    for name in [
        "setup",
        "round",
        "turn",
        "placed",
        "token_placed",
        "deployed",
        "moved",
        "roll",
    ] {
        let start = page
            .find(&format!("\n### {name}\n"))
            .unwrap_or_else(|| panic!("no section for {name}"));
        let section = &page[start + 1..];
        let section = &section[..section.find("\n### ").unwrap_or(section.len())];
        assert!(!section.contains(UNDESCRIBED), "{section}");
    }
}

/// The sections and field tables, read back from the page: event name → the fields listed under it
/// (a flattened choice's fields included).
fn documented(page: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in page.lines() {
        if let Some(name) = line.strip_prefix("### ") {
            current = (!name.starts_with("type ")).then(|| name.to_string());
            if let Some(c) = &current {
                out.entry(c.clone()).or_default();
            }
        } else if let Some(heading) = line.strip_prefix("## ") {
            // The decision lines' fields are the one table under a `##` heading.
            current = (heading == "decision lines").then(|| "decision".to_string());
        } else if let (Some(c), Some(rest)) = (&current, line.strip_prefix("| `")) {
            if let Some(field) = rest.split('`').next() {
                out.entry(c.clone()).or_default().push(field.to_string());
            }
        }
    }
    out
}

/// Every event a real game's log holds is documented with every field its line carries: a game with
/// heroes who fight, cast, flee, shoot and hold Councils, written as `village play --log` writes it.
#[test]
fn every_event_line_of_a_played_game_is_documented() {
    let dir = std::env::temp_dir().join(format!("village-events-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("log.jsonl");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_village"))
        .args([
            "play",
            "--auto",
            "--length",
            "standard",
            "--seed",
            "3",
            "--heroes",
            "Hedda the Hedge Witch,Grimm the Trapper,Wren the Scout,Captain Maren",
            "--log",
        ])
        .arg(&log)
        .output()
        .expect("village runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let page = events_markdown();
    let docs = documented(&page);
    let mut seen = BTreeMap::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let kind = v["event"].as_str().unwrap().to_string();
        let Some(fields) = docs.get(&kind) else {
            panic!("event {kind} has no section in {DOC}: {line}");
        };
        for key in v.as_object().unwrap().keys() {
            let common = ["seq", "event", "cause"].contains(&key.as_str());
            assert!(
                common || fields.contains(key),
                "field {key} of {kind} is not in {DOC}: {line}"
            );
        }
        *seen.entry(kind).or_insert(0) += 1;
    }
    for kind in [
        "setup",
        "round",
        "turn",
        "placed",
        "deployed",
        "supplies_gained",
        "council",
    ] {
        assert!(
            seen.contains_key(kind),
            "the game logged no {kind}: {seen:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
