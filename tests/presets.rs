//! Difficulty presets (`rosters/presets.toml`, `--preset`, `village presets`): the three built-in ones
//! listed with what they change, each change reached in a game, the preset kept by records and saves,
//! a mod's own preset, and bad presets refused at file:line.

mod support;

use std::path::Path;

use support::said as text;

/// `village run FILE` with `lua` as FILE's text (and `extra` arguments), its stdout.
fn lua(dir: &Path, name: &str, lua: &str, extra: &[&str]) -> String {
    let file = dir.join(name);
    std::fs::write(&file, lua).unwrap();
    let mut args = vec!["run", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    String::from_utf8_lossy(&support::ok(&args).stdout).into_owned()
}

#[test]
fn village_presets_lists_the_three_with_what_each_changes() {
    let out = text(&support::ok(&["presets"]));
    for want in [
        "rulebook (the default):",
        "changes nothing: exactly the rules",
        "story:",
        "wave.party_value_per_hero = 60 (rules: 100)",
        "setup.starting_level = 2 (rules: 1)",
        "Town Hall Integrity 20 (rules: 8)",
        "starting Supplies 6 (rules: 0)",
        "veteran:",
        "no Stable",
        "Town Hall Integrity 5 (rules: 8)",
    ] {
        assert!(out.contains(want), "{want:?} in:\n{out}");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&support::ok(&["presets", "--json"]).stdout).unwrap();
    let names: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["rulebook", "story", "veteran"]);
    assert_eq!(json[0]["default"], true);
    assert_eq!(json[0]["changes"].as_array().unwrap().len(), 0);
}

/// Each thing a preset changes is in the game it makes: Supplies, Levels, Integrity, the buildings on
/// the table, the rule constants in force; the rulebook's game is the rules'.
#[test]
fn a_preset_makes_its_game() {
    let dir = support::temp("presets", "game");
    let script = r#"
        for _, p in ipairs({ "rulebook", "story", "veteran" }) do
          local g = village.new_game({ seed = 3, preset = p, heroes = { "Captain Maren", "Sister Ilse" } })
          local names = {}
          for _, b in ipairs(g:buildings()) do names[#names + 1] = b.name .. "=" .. b.integrity .. "/L" .. b.level end
          print(p, g.preset, g.supplies, g:rules().wave.party_value_per_hero, table.concat(names, ","))
        end
    "#;
    let out = lua(&dir, "presets.lua", script, &[]);
    let line = |p: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{p}\t")))
            .unwrap_or_else(|| panic!("{p} in {out}"))
            .to_string()
    };
    let rulebook = line("rulebook");
    assert!(
        rulebook.starts_with("rulebook\trulebook\t0\t100\t"),
        "{rulebook}"
    );
    assert!(
        rulebook.contains("Town Hall=8/L1") && rulebook.contains("Stable=4/L1"),
        "{rulebook}"
    );
    let story = line("story");
    assert!(story.starts_with("story\tstory\t6\t60\t"), "{story}");
    assert!(
        story.contains("Town Hall=20/L2") && story.contains("Forge=5/L2"),
        "{story}"
    );
    let veteran = line("veteran");
    assert!(
        veteran.starts_with("veteran\tveteran\t0\t120\t"),
        "{veteran}"
    );
    assert!(
        veteran.contains("Town Hall=5/L1") && !veteran.contains("Stable"),
        "{veteran}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unknown_preset_is_refused_with_the_closest_name_by_every_command() {
    for args in [
        &["play", "--auto", "--preset", "stroy"][..],
        &["sim", "--games", "1", "--preset", "stroy"],
        &["render", "--svg", "-", "--preset", "stroy"],
        &[
            "odds",
            "melee",
            "--preset",
            "stroy",
            "--attacker",
            "3",
            "--defender",
            "3",
        ],
    ] {
        let out = support::run(args);
        let said = text(&out);
        assert!(!out.status.success(), "{args:?}: {said}");
        assert!(
            said.contains("unknown preset \"stroy\"") && said.contains("\"story\""),
            "{args:?}: {said}"
        );
    }
}

/// A sim run keeps its preset: in its JSON report, its records (which `replay --verify` plays again
/// the same), and its shards (which `merge` will not join with another preset's).
#[test]
fn sim_records_and_shards_keep_the_preset() {
    let dir = support::temp("presets", "records");
    let rec = dir.join("rec");
    support::ok(&[
        "sim",
        "--games",
        "2",
        "--preset",
        "veteran",
        "--length",
        "intro",
        "--record",
        rec.to_str().unwrap(),
    ]);
    let game = rec.join("game-0.json");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&game).unwrap()).unwrap();
    assert_eq!(record["preset"], "veteran");
    let verify = text(&support::ok(&[
        "replay",
        "--verify",
        game.to_str().unwrap(),
    ]));
    assert!(verify.contains("the log is the recorded one"), "{verify}");
    let shard = |preset: &str, k: &str| {
        let out = dir.join(format!("{preset}-{k}.json"));
        support::ok(&[
            "sim",
            "--games",
            "2",
            "--length",
            "intro",
            "--preset",
            preset,
            "--shard",
            &format!("{k}/2"),
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let (a, b) = (shard("veteran", "1"), shard("story", "2"));
    let merged = support::run(&["merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    let said = text(&merged);
    assert!(
        !merged.status.success() && said.contains("--preset"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A rulebook record is the file it was before presets: no `preset` key.
#[test]
fn a_rulebook_record_names_no_preset() {
    let dir = support::temp("presets", "rulebook");
    support::ok(&[
        "sim",
        "--games",
        "1",
        "--length",
        "intro",
        "--record",
        dir.to_str().unwrap(),
    ]);
    let record = std::fs::read_to_string(dir.join("game-0.json")).unwrap();
    assert!(!record.contains("\"preset\""), "{record}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The REPL's game takes a preset, `:new` too, and a save keeps it.
#[test]
fn the_repl_plays_a_preset_and_a_save_keeps_it() {
    let dir = support::temp("presets", "repl");
    let save = dir.join("g.json");
    let mut cmd = support::command();
    cmd.args(["repl", "--preset", "story"]);
    let input = format!(
        "print(game.preset, game.supplies)\n:save {0}\n:new --preset veteran\nprint(game.preset, game:building(\"Town Hall\").integrity)\n:load {0}\nprint(game.preset, game.supplies, game:building(\"Town Hall\").integrity)\n",
        save.display()
    );
    let out = support::piped(cmd, &input);
    let said = text(&out);
    assert!(said.contains("story\t6"), "{said}");
    assert!(said.contains("veteran\t5"), "{said}");
    assert!(said.contains("story\t6\t20"), "{said}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A mod adds a preset of its own: a length, a variant and rule constants, listed by `village presets`
/// and played by `sim`; and a variant's setup constants now reach the setup (its starting Supplies).
#[test]
fn a_mod_adds_a_preset() {
    let dir = support::temp("presets", "mod");
    std::fs::create_dir_all(dir.join("rosters")).unwrap();
    std::fs::create_dir_all(dir.join("scripts/variants")).unwrap();
    std::fs::write(
        dir.join("rosters/presets.toml"),
        r#"[[preset]]
name = "quick_lethal"
description = "An intro game where a Power Blow is lethal and the village starts rich."
length = "intro"
variants = ["power_blow_lethal", "rich"]
rules = { morale = { dice = 2 } }
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("scripts/variants/rich.lua"),
        "return { name = \"Rich\", description = \"Start with 3 Supplies.\", rules = { setup = { starting_supplies = 3 } } }\n",
    )
    .unwrap();
    let m = dir.to_str().unwrap();
    let listed = text(&support::ok(&["presets", "--mod", m]));
    for want in [
        "quick_lethal: An intro game",
        "length intro",
        "variant power_blow_lethal",
        "variant rich",
        "morale.dice = 2 (rules: 3)",
    ] {
        assert!(listed.contains(want), "{want:?} in {listed}");
    }
    let out = lua(
        &dir,
        "mod.lua",
        r#"local g = village.new_game({ preset = "quick_lethal", heroes = { "Captain Maren", "Sister Ilse" } })
print(table.concat(g.variants, ","), g:rules().morale.dice, g:rules().combat.power_blow_lethal, g.supplies)"#,
        &["--mod", m],
    );
    assert!(out.contains("power_blow_lethal,rich\t2\ttrue\t3"), "{out}");
    // The preset's length is played when --length is not given; a given one wins.
    let rec = dir.join("rec");
    let recorded = |extra: &[&str]| {
        let mut args = vec![
            "sim",
            "--games",
            "1",
            "--preset",
            "quick_lethal",
            "--mod",
            m,
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--record", rec.to_str().unwrap()]);
        support::ok(&args);
        let r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(rec.join("game-0.json")).unwrap())
                .unwrap();
        (r["length"].clone(), r["preset"].clone())
    };
    assert_eq!(recorded(&[]), ("intro".into(), "quick_lethal".into()));
    assert_eq!(
        recorded(&["--length", "standard"]),
        ("standard".into(), "quick_lethal".into())
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Bad presets are refused by `village check` at their file, entry, field and line.
#[test]
fn bad_presets_are_refused_at_file_and_line() {
    let dir = support::temp("presets", "bad");
    std::fs::create_dir_all(dir.join("rosters")).unwrap();
    let m = dir.to_str().unwrap();
    for (body, field) in [
        ("integrety = 3", "integrety"),
        ("length = \"sige\"", "length"),
        ("variants = [\"power_blow_lethel\"]", "variants[0]"),
        ("supplies = 5000", "supplies"),
        ("rules = { morale = { dise = 2 } }", "rules.morale.dise"),
        ("rules = { morale = { dice = 40 } }", "rules.morale.dice"),
        // 3 heroes × 55 = 165: 55% of it is not a whole budget.
        (
            "rules = { wave = { party_value_per_hero = 55 } }",
            "rules.wave.party_value_per_hero",
        ),
        (
            "buildings = { Forje = { integrity = 3 } }",
            "buildings.Forje",
        ),
        (
            "buildings = { Forge = { integrity = 99 } }",
            "buildings.Forge.integrity",
        ),
        (
            "buildings = { \"Town Hall\" = { standing = false } }",
            "buildings.Town Hall.standing",
        ),
    ] {
        std::fs::write(
            dir.join("rosters/presets.toml"),
            format!("# a bad preset\n[[preset]]\nname = \"bad\"\ndescription = \"x\"\n{body}\n"),
        )
        .unwrap();
        let out = support::run(&["check", "--mod", m]);
        let said = text(&out);
        assert!(!out.status.success(), "{body}: refused:\n{said}");
        let line = said
            .lines()
            .find(|l| l.contains("presets.toml") && l.contains(field))
            .unwrap_or_else(|| panic!("{body}: {field} in\n{said}"));
        assert!(
            line.contains("entry \"bad\"") && line.contains("(line 5)"),
            "{body}: {line}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `village odds` computes under the preset's rules, by Combat values and by profile name alike.
#[test]
fn odds_take_the_preset() {
    let dir = support::temp("presets", "odds");
    std::fs::create_dir_all(dir.join("rosters")).unwrap();
    std::fs::write(
        dir.join("rosters/presets.toml"),
        "[[preset]]\nname = \"lethal\"\ndescription = \"Power Blows are lethal.\"\nrules = { combat = { power_blow_lethal = true } }\n",
    )
    .unwrap();
    let m = dir.to_str().unwrap();
    for who in [["3", "3"], ["Orc Warrior", "Captain Maren"]] {
        let odds = |preset: &str| {
            let out = support::ok(&[
                "odds",
                "melee",
                "--attacker",
                who[0],
                "--defender",
                who[1],
                "--power-blow",
                "--preset",
                preset,
                "--mod",
                m,
                "--json",
            ]);
            serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
        };
        let (plain, lethal) = (odds("rulebook"), odds("lethal"));
        assert_ne!(plain, lethal, "{who:?}: the preset's rule changes the odds");
    }
    std::fs::remove_dir_all(&dir).ok();
}
