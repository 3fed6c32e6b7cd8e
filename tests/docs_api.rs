//! docs/api.md, the scripting reference the designer's guide (docs/scripting.md) links to, is exactly
//! what `village api` prints — generated from src/script/api/spec.rs and the loader's vocabulary
//! (`registry::KINDS`), never edited by hand. A hook or API member added to the spec makes this test fail
//! until the file is regenerated.
//!
//! Regenerate with `cargo run -- api > docs/api.md`, or run this test with `UPDATE_DOCS=1` (or the
//! `UPDATE_STUBS=1` that regenerates scripts/types/village.lua).

use std::path::PathBuf;
use std::process::Command;
use village::script::api::spec;
use village::script::registry::KINDS;

mod markdown;

const API_DOC: &str = "docs/api.md";

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(API_DOC)
}

fn update_requested() -> bool {
    markdown::update_requested(&["UPDATE_DOCS", "UPDATE_STUBS"])
}

#[test]
fn the_committed_api_reference_is_what_village_api_prints() {
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .arg("api")
        .output()
        .expect("village runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(
        want,
        spec::reference_markdown(),
        "`village api` prints the spec's reference"
    );
    markdown::assert_generated(
        &path(),
        API_DOC,
        &want,
        update_requested(),
        &format!(
            "cargo run -- api > {API_DOC}\nor\n    UPDATE_DOCS=1 cargo test --release --test docs_api"
        ),
    );
}

/// Every script kind the loader knows and every entry point of each is in the committed reference,
/// with a description (not the placeholder for an undescribed entry).
#[test]
fn the_api_reference_names_every_script_kind_and_entry_point() {
    let doc = std::fs::read_to_string(path()).unwrap_or_default();
    assert!(
        !doc.contains("Not described"),
        "{API_DOC} has an undescribed kind or entry point"
    );
    for (kind, entries) in KINDS {
        let heading = format!("(scripts/{kind}/)");
        let start = doc
            .find(&heading)
            .unwrap_or_else(|| panic!("{API_DOC} has no section for scripts/{kind}/"));
        let section = &doc[start..];
        let section = &section[..section[1..].find("\n### ").map_or(section.len(), |i| i + 1)];
        for e in entries.iter() {
            assert!(
                section.contains(&format!("- `{e}?`:")),
                "{API_DOC}: scripts/{kind}/ does not list the entry point `{e}`"
            );
        }
    }
}
