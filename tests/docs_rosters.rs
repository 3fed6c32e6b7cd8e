//! docs/rosters.md, the reference of the roster formats the designer's guide (docs/scripting.md) links
//! to, is exactly what `village::roster::rosters_markdown` writes from the structs the loader parses
//! (src/roster/schema.rs, src/roster/profile.rs) and the built-in rosters — never edited by hand. A field
//! added to a roster struct makes this test fail until the page is regenerated with
//! `UPDATE_DOCS=1 cargo test --release --test docs_rosters`.
//!
//! And the page is the truth about what the loader accepts: an `[[enemy]]` and a `[[trait]]` that use
//! every field the page lists for them pass `village check --mod`.

use std::path::{Path, PathBuf};
use std::process::Command;
use village::roster::{rosters_markdown, UNDESCRIBED};

mod markdown;

const DOC: &str = "docs/rosters.md";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn generated() -> String {
    rosters_markdown(root()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_committed_roster_reference_is_what_the_schema_generates() {
    let want = generated();
    let path = root().join(DOC);
    markdown::assert_generated(
        &path,
        DOC,
        &want,
        markdown::update_requested(&["UPDATE_DOCS"]),
        "UPDATE_DOCS=1 cargo test --release --test docs_rosters",
    );
}

/// Every table of every roster file has a section with described fields and a real example.
#[test]
fn every_table_is_documented_with_described_fields_and_an_example() {
    let doc = generated();
    assert!(
        !doc.contains(UNDESCRIBED),
        "a roster field or table has no `///` description: {}",
        doc.lines()
            .filter(|l| l.contains(UNDESCRIBED))
            .collect::<Vec<_>>()
            .join("\n")
    );
    for table in [
        "[[trait]]",
        "[[weapon]]",
        "[[spell]]",
        "[[behaviour]]",
        "[[enemy]]",
        "[[hero]]",
        "[[defender]]",
        "[[building]]",
        "[barricade]",
        "[trap]",
        "[[escalation]]",
        "[[length]]",
        "[[opportunity]]",
    ] {
        let section = section(&doc, table);
        assert!(
            section.contains("| `name` |")
                || section.contains("| `roll` |")
                || !table.starts_with("[["),
            "{DOC}: {table} lists no key field"
        );
        assert!(
            section.contains(&format!("```toml\n{table}\n")),
            "{DOC}: {table} has no example entry"
        );
    }
    assert!(
        doc.contains("(rules-reference.md)"),
        "{DOC} points to rules-reference.md for rules.toml"
    );
}

/// The part of the page from the heading of `table` to the next table's heading.
fn section<'a>(doc: &'a str, table: &str) -> &'a str {
    let heading = format!("\n### `{table}`\n");
    let start = doc
        .find(&heading)
        .unwrap_or_else(|| panic!("{DOC} has no section for {table}"))
        + 1;
    let rest = &doc[start..];
    let end = rest[1..]
        .find("\n### ")
        .or_else(|| rest[1..].find("\n## "))
        .map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// The field names a section's first table lists (the entry's own fields, not its sub-tables').
fn documented_fields(doc: &str, table: &str) -> Vec<String> {
    section(doc, table)
        .lines()
        .skip_while(|l| !l.starts_with("| field |"))
        .skip(2)
        .take_while(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('`').nth(1).map(str::to_string))
        .collect()
}

fn check_mod(name: &str, files: &[(&str, &str)]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "village-docs-rosters-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p: PathBuf = dir.join(path);
        std::fs::create_dir_all(p.parent().expect("a folder")).expect("mod folder");
        std::fs::write(&p, text).expect("mod file");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(["check", "--mod"])
        .arg(&dir)
        .output()
        .expect("village runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    // The errors follow the profile table: show them, not the table.
    let errors: Vec<&str> = text.lines().skip_while(|l| !l.contains("error")).collect();
    assert!(
        out.status.success(),
        "village check --mod failed:\n{}",
        errors.join("\n")
    );
    text
}

/// A trait and an enemy written with every field the page lists for `[[trait]]` and `[[enemy]]` load:
/// the page names no field the loader would refuse, and (the lists being compared) leaves none out.
#[test]
fn an_enemy_and_a_trait_with_every_documented_field_pass_check() {
    let doc = generated();
    let trait_entry = [
        ("name", "\"Doc Sharpshooter\""),
        ("cost", "0"),
        ("cost_from_weapon", "true"),
        ("needs", "\"weapon\""),
        ("text", "\"Uses every documented field.\""),
        ("script", "\"traits/doc_sharpshooter.lua\""),
        ("params", "{ bonus = 1 }"),
    ];
    let enemy_entry = [
        ("name", "\"Doc Marksman\""),
        ("tier", "\"elite\""),
        ("quality", "4"),
        ("combat", "2"),
        (
            "traits",
            "[\"Doc Sharpshooter\", \"Spellcaster\", \"Igniter\"]",
        ),
        ("weapon", "\"Short Bow\""),
        ("spells", "[\"Fireball\"]"),
        ("behaviours", "[\"Hunter\"]"),
        ("wave_points", "40"),
        (
            "alpha",
            "{ name = \"Steady Aim\", text = \"Calm.\", script = \"alpha/doc_steady.lua\", params = { bonus = 1 } }",
        ),
        ("text", "\"Uses every documented field.\""),
    ];
    for (table, entry) in [
        ("[[trait]]", &trait_entry[..]),
        ("[[enemy]]", &enemy_entry[..]),
    ] {
        let mut documented = documented_fields(&doc, table);
        let mut written: Vec<String> = entry.iter().map(|(k, _)| k.to_string()).collect();
        documented.sort();
        written.sort();
        assert_eq!(
            documented, written,
            "this test's {table} must use exactly the fields {DOC} lists for it"
        );
    }
    let toml = |table: &str, entry: &[(&str, &str)]| {
        let mut t = format!("{table}\n");
        for (k, v) in entry {
            t.push_str(&format!("{k} = {v}\n"));
        }
        t
    };
    let script = "return {}\n";
    let text = check_mod(
        "every-field",
        &[
            ("rosters/traits.toml", &toml("[[trait]]", &trait_entry)),
            ("rosters/bestiary.toml", &toml("[[enemy]]", &enemy_entry)),
            ("scripts/traits/doc_sharpshooter.lua", script),
            ("scripts/alpha/doc_steady.lua", script),
        ],
    );
    assert!(!text.contains("unknown field"), "{text}");
    assert!(text.contains("Doc Marksman"), "{text}");
}

/// The README and the designer's guide point to the page, and the guide's own list of a hero's fields is
/// the page's.
#[test]
fn the_readme_and_the_guide_link_the_page_and_the_guide_lists_the_hero_fields() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(
        readme.contains("(docs/rosters.md)"),
        "README.md links docs/rosters.md"
    );
    let guide = std::fs::read_to_string(root().join("docs/scripting.md")).expect("the guide");
    assert!(
        guide.contains("](rosters.md)"),
        "docs/scripting.md links rosters.md"
    );
    let lead = "The fields a hero may have are ";
    let start = guide.find(lead).expect("the guide lists a hero's fields") + lead.len();
    let list = &guide[start..];
    let list = &list[..list.find(';').expect("the list ends with `;`")];
    let mut listed: Vec<String> = list
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    let mut documented = documented_fields(&generated(), "[[hero]]");
    listed.sort();
    documented.sort();
    assert_eq!(
        listed, documented,
        "docs/scripting.md's list of a hero's fields is not {DOC}'s"
    );
}
