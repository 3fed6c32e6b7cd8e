//! The profile card and the catalogue as a designer reads them: `village show NAME` (text and JSON),
//! `village show --list`, `:show` in the REPL, and what a run under a variant says the variant is.
//! Every `file:line` a card prints is checked against the file it names.

use serde_json::Value;
use std::path::PathBuf;

mod support;
use support::{ok, piped, run, temp};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn stdout(args: &[&str]) -> String {
    String::from_utf8_lossy(&ok(args).stdout).to_string()
}

/// The line `at` ("file:N") names, read from the file (relative to `base`).
fn line_at(base: &std::path::Path, at: &str) -> String {
    let (file, n) = at.rsplit_once(':').expect("file:line");
    let n: usize = n.parse().expect("a line number");
    let text = std::fs::read_to_string(base.join(file)).unwrap_or_else(|e| panic!("{at}: {e}"));
    text.lines().nth(n - 1).unwrap_or_default().to_string()
}

/// Captain Maren's card: her Quality and Combat, each trait's rule text, her signature with its text,
/// params and script (the hook it uses and the line it is at), and where each part is written.
#[test]
fn show_prints_captain_marens_signature_and_where_each_part_comes_from() {
    let text = stdout(&["show", "Captain Maren"]);
    for want in [
        "Captain Maren — hero, Quality 3+, Combat 4",
        "from rosters/heroes.toml:",
        "Tough (cost 15) — A normal Defeated result becomes a Wound",
        "Signature: Hold the Line — Once per wave, when an enemy Group activates",
        "params modifier = 1, per_wave = 1, within = \"medium\"",
        "script scripts/signatures/hold_the_line.lua: on_opponent_activation (line ",
        "built in",
    ] {
        assert!(text.contains(want), "{want:?} not in:\n{text}");
    }
    // The JSON says the same, and every source and hook line is right.
    let card: Value = serde_json::from_str(&stdout(&["show", "maren", "--json"])).unwrap();
    assert_eq!(card["name"], "Captain Maren");
    assert_eq!(card["signature"]["name"], "Hold the Line");
    assert_eq!(card["quality"], 3);
    let src = &card["source"];
    let at = format!(
        "{}:{}",
        src["file"].as_str().unwrap(),
        src["line"].as_u64().unwrap()
    );
    assert_eq!(line_at(&root(), &at).trim(), "[[hero]]", "{at}");
    let next = line_at(
        &root(),
        &format!(
            "{}:{}",
            src["file"].as_str().unwrap(),
            src["line"].as_u64().unwrap() + 1
        ),
    );
    assert!(next.contains("Captain Maren"), "{next}");
    for t in card["traits"].as_array().unwrap() {
        let s = &t["source"];
        let at = format!(
            "{}:{}",
            s["file"].as_str().unwrap(),
            s["line"].as_u64().unwrap()
        );
        let name_line = line_at(
            &root(),
            &format!(
                "{}:{}",
                s["file"].as_str().unwrap(),
                s["line"].as_u64().unwrap() + 1
            ),
        );
        assert_eq!(line_at(&root(), &at).trim(), "[[trait]]", "{at}");
        assert!(
            name_line.contains(t["name"].as_str().unwrap()),
            "{at}: {name_line}"
        );
    }
    let hooks = card["signature"]["script"]["hooks"].as_array().unwrap();
    let (hook, place) = (hooks[0][0].as_str().unwrap(), hooks[0][1].as_str().unwrap());
    let n = place.strip_prefix("line ").expect("a line of the script");
    let line = line_at(
        &root(),
        &format!("scripts/signatures/hold_the_line.lua:{n}"),
    );
    assert!(line.contains(hook), "{hook} at line {n}: {line}");
}

/// An enemy's card names its Behaviours and Alpha Rule; a name nobody has is refused with the closest.
#[test]
fn show_an_enemy_and_refuse_an_unknown_name() {
    let text = stdout(&["show", "Ogre Brute"]);
    for want in [
        "Ogre Brute — elite enemy, Quality 4+, Combat 4",
        "Alpha Rule: Hurl",
        "scripts/alpha/hurl.lua: on_result",
        "Behaviours:",
        "Hunter (plays ",
        "Big (cost 3)",
    ] {
        assert!(text.contains(want), "{want:?} not in:\n{text}");
    }
    let out = run(&["show", "Capitan Marren"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is not a profile of the rosters") && err.contains("Captain Maren"),
        "{err}"
    );
}

/// `show --list` lists every section with every entry of the rosters and every variant with its
/// description.
#[test]
fn show_list_lists_everything_with_its_description() {
    let text = stdout(&["show", "--list"]);
    for section in [
        "Heroes (8):",
        "Enemies (17):",
        "Village Defenders (2):",
        "Traits (",
        "Spells (",
        "Behaviours (6):",
        "Opportunities (6):",
        "Variants (",
    ] {
        assert!(text.contains(section), "{section} not in:\n{text}");
    }
    for want in [
        "Captain Maren",
        "Hold the Line",
        "Heavy Armor",
        "Transfix",
        "Guardian",
        "power_blow_lethal",
        "Power Blow is Lethal: A winning Power Blow defeats the target on any loss",
        "single_horde",
    ] {
        assert!(text.contains(want), "{want:?} not in the list");
    }
    let json: Value = serde_json::from_str(&stdout(&["show", "--list", "--json"])).unwrap();
    let variants = json["Variants"].as_array().unwrap();
    assert!(variants.len() >= 4, "{variants:?}");
    assert!(variants
        .iter()
        .all(|v| !v["description"].as_str().unwrap().is_empty()));
}

/// A trait a mod replaces shows as the mod's, with its file.
#[test]
fn a_mods_part_says_it_comes_from_the_mod() {
    let dir = temp("show", "mod");
    let m = dir.join("mymod");
    std::fs::create_dir_all(m.join("rosters")).unwrap();
    std::fs::write(
        m.join("rosters/traits.toml"),
        "# A mod's Tough.\n[[trait]]\nname = \"Tough\"\ncost = 14\ntext = \"Tougher.\"\nscript = \"traits/tough.lua\"\n",
    )
    .unwrap();
    let text = stdout(&["show", "Captain Maren", "--mod", m.to_str().unwrap()]);
    let tough = text
        .split("    Tough")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    assert!(tough.starts_with(" (cost 14) — Tougher."), "{tough}");
    assert!(
        tough.contains(&format!(
            "{}:2, mod 1",
            m.join("rosters/traits.toml").display()
        )),
        "{tough}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `:show` in the REPL prints the same card, and Lua handles give it as data.
#[test]
fn the_repl_shows_a_card_and_lua_reads_the_signature() {
    let mut cmd = support::command();
    cmd.arg("repl");
    let out = piped(
        cmd,
        ":show tobin\nreturn game:models()[1]:profile().signature.name\nreturn village.profile(\"Sister Ilse\").spells[1].name\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Signature: Called Shot"), "{text}");
    assert!(text.contains("Weapon:"), "{text}");
    assert!(text.contains("\"Hold the Line\""), "{text}");
    assert!(text.contains("\"Heal\""), "{text}");
}

/// A run under a variant says what the variant does, not only its file name; an A/B names both arms'.
#[test]
fn a_run_says_what_its_variants_do() {
    let text = stdout(&[
        "sim",
        "--games",
        "2",
        "--length",
        "intro",
        "--variant",
        "power_blow_lethal",
    ]);
    assert!(
        text.starts_with("Rules: power_blow_lethal — Power Blow is Lethal: A winning Power Blow"),
        "{text}"
    );
    let ab = stdout(&[
        "sim",
        "--games",
        "2",
        "--length",
        "intro",
        "--variant",
        "single_horde",
        "--vs",
        "default",
    ]);
    assert!(
        ab.contains("A: single_horde\n   Single Horde: Every wave is one horde"),
        "{ab}"
    );
    assert!(
        ab.contains("B: default\n   the rules as printed, no variant"),
        "{ab}"
    );
}
