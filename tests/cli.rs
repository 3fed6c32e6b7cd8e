//! The `village` binary end to end: `odds` and `check`, text and JSON, exit codes.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn village(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_village"))
        .args(args)
        .output()
        .expect("the village binary runs")
}

fn json(args: &[&str]) -> Value {
    let out = village(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// A fresh folder for a --mod layer.
fn mod_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("village-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("rosters")).unwrap();
    dir
}

#[test]
fn odds_activation_json_matches_the_closed_form() {
    let v = json(&[
        "odds",
        "activation",
        "--quality",
        "3",
        "--dice",
        "3",
        "--json",
    ]);
    let s: Vec<f64> = v["successes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    // Q3: p = 2/3 per die.
    let expect = [1.0 / 27.0, 6.0 / 27.0, 12.0 / 27.0, 8.0 / 27.0];
    assert_eq!(s.len(), 4);
    for (a, b) in s.iter().zip(expect) {
        assert!(close(*a, b), "{s:?}");
    }
    assert!(close(v["turnover"].as_f64().unwrap(), 7.0 / 27.0));
    assert!(close(v["mean"].as_f64().unwrap(), 2.0));
}

/// `village odds activation --hero` against the closed form of SUPPLEMENT §4's ruling, for Q2–Q6 and one
/// to three dice: a Hero choosing n dice rolls n − 1 (success p each) and adds one automatic success.
#[test]
fn odds_activation_with_the_hero_trait_matches_the_rulings_closed_form() {
    let v = json(&[
        "odds",
        "activation",
        "--quality",
        "3",
        "--dice",
        "3",
        "--hero",
        "--json",
    ]);
    let got: Vec<f64> = v["successes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    // The issue's worked example: [0, 1/9, 4/9, 4/9], turnover 1/9.
    let expect = [0.0, 1.0 / 9.0, 4.0 / 9.0, 4.0 / 9.0];
    assert_eq!(got.len(), 4);
    for (a, b) in got.iter().zip(expect) {
        assert!(close(*a, b), "{got:?}");
    }
    assert!(close(v["turnover"].as_f64().unwrap(), 1.0 / 9.0));
    for q in 2..=6u32 {
        // Faces max(q, 2)..=6 succeed.
        let p = f64::from(7 - q.max(2)) / 6.0;
        for n in 1..=3u32 {
            let v = json(&[
                "odds",
                "activation",
                "-q",
                &q.to_string(),
                "-d",
                &n.to_string(),
                "--hero",
                "--json",
            ]);
            let rolled = n - 1;
            let binom = |k: u32| -> f64 {
                let c = (0..k).fold(1.0, |acc, i| acc * f64::from(rolled - i) / f64::from(i + 1));
                c * p.powi(k as i32) * (1.0 - p).powi((rolled - k) as i32)
            };
            for k in 0..=n {
                let expect = if k == 0 { 0.0 } else { binom(k - 1) };
                let got = v["successes"][k as usize].as_f64().unwrap();
                assert!(
                    close(got, expect),
                    "Q{q} {n} dice, {k} actions: {got} vs {expect}"
                );
            }
            // A turnover: both rolled dice fail (only possible with three dice chosen).
            let turnover = if rolled == 2 { (1.0 - p).powi(2) } else { 0.0 };
            assert!(close(v["turnover"].as_f64().unwrap(), turnover), "Q{q} {n}");
        }
    }
}

fn melee_sum(v: &Value) -> f64 {
    let side = |k: &str| -> f64 {
        ["gruesome", "defeated", "defenseless", "recoil"]
            .iter()
            .map(|r| v[k][r].as_f64().unwrap())
            .sum()
    };
    v["tie"].as_f64().unwrap()
        + side("attacker_wins")
        + side("defender_wins")
        + v["no_effect"].as_f64().unwrap()
}

#[test]
fn odds_melee_json_has_the_documented_shape_and_sums_to_one() {
    let v = json(&[
        "odds",
        "melee",
        "--attacker",
        "4",
        "--defender",
        "3",
        "--json",
    ]);
    assert!(close(melee_sum(&v), 1.0));
    // Ties: a - d = -1 on the dice, i.e. d = a + 1: five pairs of 36.
    assert!(close(v["tie"].as_f64().unwrap(), 5.0 / 36.0));
    // The defender can only Defeat the attacker with 2× the total: 3+6=9 vs 4+1=5 is not 2×, so never.
    assert_eq!(v["defender_wins"]["defeated"].as_f64(), Some(0.0));
}

#[test]
fn odds_melee_flags_change_the_odds_as_the_rules_say() {
    let free = melee_c3_vs_c3(&["--free-hack"]);
    for r in ["gruesome", "defeated", "defenseless", "recoil"] {
        assert_eq!(free["defender_wins"][r].as_f64(), Some(0.0));
    }
    assert!(close(free["no_effect"].as_f64().unwrap(), 15.0 / 36.0));
    let down = melee_c3_vs_c3(&["--defenseless"]);
    assert_eq!(down["attacker_wins"]["recoil"].as_f64(), Some(0.0));
    assert_eq!(down["attacker_wins"]["defenseless"].as_f64(), Some(0.0));
    let plain = melee_c3_vs_c3(&[]);
    let blow = melee_c3_vs_c3(&["--power-blow"]);
    let wins = |v: &Value| -> f64 {
        ["gruesome", "defeated", "defenseless", "recoil"]
            .iter()
            .map(|r| v["attacker_wins"][r].as_f64().unwrap())
            .sum()
    };
    assert!(wins(&blow) > wins(&plain));
    assert!(close(wins(&plain), 15.0 / 36.0));
    assert!(close(wins(&blow), 21.0 / 36.0));
}

#[test]
fn odds_text_is_a_readable_table() {
    let out = village(&["odds", "melee", "-a", "4", "-d", "3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Gruesome Kill"));
    assert!(text.contains('%'));
    let out = village(&["odds", "activation", "-q", "3", "-d", "3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("25.93%"), "{text}");
}

#[test]
fn odds_rejects_impossible_dice() {
    let out = village(&["odds", "activation", "-q", "3", "-d", "4"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 to 3 dice"));
}

#[test]
fn check_passes_on_the_built_in_rosters_with_wave_points() {
    let v = json(&["check", "--json"]);
    assert_eq!(v["errors"].as_array().unwrap().len(), 0);
    assert_eq!(v["warnings"].as_array().unwrap().len(), 0);
    let profiles = v["profiles"].as_array().unwrap();
    let find = |n: &str| {
        profiles
            .iter()
            .find(|p| p["name"] == n)
            .unwrap_or_else(|| panic!("{n} missing"))
    };
    assert_eq!(find("Goblin Looter")["wave_points"], 18);
    assert_eq!(find("Kobold Skirmisher")["wave_points"], 14);
    assert_eq!(find("Zombie")["wave_points"], 8);
    assert_eq!(find("Village Archer")["wave_points"], 21);
    assert_eq!(find("Village Archer")["kind"], "defender");
    assert_eq!(find("Captain Maren")["kind"], "hero");
    assert_eq!(find("Young Dragon")["tier"], "boss");
    for key in [
        "name",
        "kind",
        "tier",
        "quality",
        "combat",
        "traits",
        "wave_points",
    ] {
        assert!(
            profiles.iter().all(|p| !p[key].is_null()),
            "every profile has {key}"
        );
    }
    let text = String::from_utf8(village(&["check"]).stdout).unwrap();
    assert!(text.contains("Orc Warlord"));
}

#[test]
fn check_names_file_entry_and_field_for_an_unknown_field() {
    let dir = mod_dir("unknown-field");
    std::fs::write(
        dir.join("rosters/bestiary.toml"),
        "[[enemy]]\nname = \"Bog Troll\"\ntier = \"mob\"\nquality = 4\ncombat = 3\ntraits = []\nbehaviours = [\"Hunter\"]\nregenerates = true\n",
    )
    .unwrap();
    let out = village(&["check", "--mod", dir.to_str().unwrap()]);
    assert!(!out.status.success(), "an unknown field must fail check");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("regenerates"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("bestiary.toml"), "{line}");
    assert!(line.contains("Bog Troll"), "{line}");
    assert!(line.contains("unknown field"), "{line}");
    let v = json_allow_fail(&["check", "--json", "--mod", dir.to_str().unwrap()]);
    assert!(v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e.as_str().unwrap().contains("regenerates")));
}

#[test]
fn check_names_file_entry_and_field_for_an_unknown_trait_and_warns_on_a_printed_cost() {
    let dir = mod_dir("unknown-trait");
    std::fs::write(
        dir.join("rosters/bestiary.toml"),
        "[[enemy]]\nname = \"Bog Troll\"\ntier = \"mob\"\nquality = 4\ncombat = 3\ntraits = [\"Regeneration\"]\nbehaviours = [\"Hunter\"]\n\n\
         [[enemy]]\nname = \"Bog Hag\"\ntier = \"mob\"\nquality = 4\ncombat = 3\ntraits = [\"Toguh\"]\nbehaviours = [\"Hunter\"]\n\n\
         [[enemy]]\nname = \"Goblin Looter\"\ntier = \"mob\"\nquality = 4\ncombat = 2\ntraits = [\"Igniter\"]\nbehaviours = [\"Raider\"]\nwave_points = 20\n",
    )
    .unwrap();
    let v = json_allow_fail(&["check", "--json", "--mod", dir.to_str().unwrap()]);
    let errors: Vec<&str> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    let e = errors
        .iter()
        .find(|e| e.contains("Regeneration"))
        .unwrap_or_else(|| panic!("{errors:?}"));
    // A misspelt name gets the closest one offered; one like nothing known does not.
    let toguh = errors
        .iter()
        .find(|e| e.contains("Toguh"))
        .unwrap_or_else(|| panic!("{errors:?}"));
    assert!(
        toguh.contains(r#"unknown trait "Toguh" (did you mean "Tough"?)"#),
        "{toguh}"
    );
    assert!(!e.contains("did you mean"), "{e}");
    assert!(
        e.contains("bestiary.toml") && e.contains("Bog Troll") && e.contains("traits"),
        "{e}"
    );
    let warnings: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    let w = warnings
        .iter()
        .find(|w| w.contains("Goblin Looter"))
        .unwrap_or_else(|| panic!("{warnings:?}"));
    assert!(
        w.contains("20") && w.contains("18") && w.contains("wave_points"),
        "{w}"
    );
}

fn json_allow_fail(args: &[&str]) -> Value {
    let out = village(args);
    serde_json::from_slice(&out.stdout).expect("valid JSON even on failure")
}

#[test]
fn wave_prints_a_wave_within_its_budget() {
    let party = "maren, tobin, ilse";
    let v = json(&[
        "wave",
        "--escalation",
        "VII",
        "--heroes",
        party,
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(v["escalation"], "VII");
    assert_eq!(v["budget"], 420);
    assert!(v["spent"].as_i64().unwrap() <= 420);
    let groups = v["groups"].as_array().unwrap();
    assert!(
        groups.len() >= 3,
        "Escalation VII has at least three Groups"
    );
    let text =
        String::from_utf8(village(&["wave", "-e", "VII", "--heroes", party, "--seed", "4"]).stdout)
            .unwrap();
    assert!(
        text.starts_with("Escalation VII: budget 420 for 3 heroes"),
        "{text}"
    );
    let bad = village(&["wave", "-e", "IX"]);
    assert!(!bad.status.success());
    // --heroes names heroes, as everywhere: a number is not a party.
    let number = village(&["wave", "--heroes", "3"]);
    assert!(!number.status.success());
    assert!(
        String::from_utf8_lossy(&number.stderr).contains("\"3\" is not a hero"),
        "{}",
        String::from_utf8_lossy(&number.stderr)
    );
}

#[test]
fn wave_previews_a_variants_builder() {
    // Single Horde: one Mob profile, one Behaviour, one spawn edge for the whole wave.
    let v = json(&[
        "wave",
        "-e",
        "V",
        "--heroes",
        "maren,tobin",
        "--variant",
        "single_horde",
        "--json",
    ]);
    let groups = v["groups"].as_array().unwrap();
    assert!(groups.len() >= 2, "{v}");
    let one = |key: &str| {
        let mut seen: Vec<String> = groups.iter().map(|g| g[key].to_string()).collect();
        seen.dedup();
        seen.len() == 1
    };
    assert!(one("behaviour") && one("edge"), "{v}");
    let mut profiles: Vec<&str> = groups
        .iter()
        .flat_map(|g| g["models"].as_array().unwrap())
        .map(|m| m.as_str().unwrap())
        .collect();
    profiles.dedup();
    assert_eq!(profiles.len(), 1, "{v}");
    // The default builder on the same seed mixes profiles.
    let default = json(&["wave", "-e", "V", "--heroes", "maren,tobin", "--json"]);
    let mut mixed: Vec<&str> = default["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["models"].as_array().unwrap())
        .map(|m| m.as_str().unwrap())
        .collect();
    mixed.sort();
    mixed.dedup();
    assert!(mixed.len() > 1, "{default}");
}

/// `odds melee` of a C3 attacker on a C3 defender, as JSON, with `flags`.
fn melee_c3_vs_c3(flags: &[&str]) -> Value {
    let mut args = vec!["odds", "melee", "-a", "3", "-d", "3", "--json"];
    args.extend_from_slice(flags);
    json(&args)
}

#[test]
fn odds_take_a_variants_rules() {
    // power_blow_lethal changes one melee constant (a winning Power Blow defeats on any loss).
    let base = melee_c3_vs_c3(&["--power-blow"]);
    let lethal = melee_c3_vs_c3(&["--power-blow", "--variant", "power_blow_lethal"]);
    assert_ne!(base, lethal);
    let activation = |variant: &[&str]| {
        let mut args = vec!["odds", "activation", "-q", "3", "-d", "2", "--json"];
        args.extend_from_slice(variant);
        json(&args)
    };
    assert_eq!(
        activation(&[]),
        activation(&["--variant", "power_blow_lethal"])
    );
    let out = village(&[
        "odds",
        "melee",
        "-a",
        "3",
        "-d",
        "3",
        "--variant",
        "power_blow_letal",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(r#"unknown variant "power_blow_letal" (did you mean "power_blow_lethal"?)"#),
        "{err}"
    );
}

#[test]
fn the_top_level_takes_the_repls_options() {
    // `village --seed 9 --length siege` is the REPL on that game.
    let mut child = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(["--seed", "9", "--length", "siege"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"game.length\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("siege"), "{text}");
    // A command's options still belong to it, and a subcommand after REPL options is refused.
    assert!(!village(&["--seed", "9", "check"]).status.success());
}

#[test]
fn every_seed_option_says_what_it_is_and_render_lists_only_its_own_options() {
    for cmd in [
        &["--help"][..],
        &["play", "--help"],
        &["sim", "--help"],
        &["repl", "--help"],
        &["render", "--help"],
        &["wave", "--help"],
        &["bench", "--help"],
        &["run", "--help"],
    ] {
        let help = String::from_utf8(village(cmd).stdout).unwrap();
        let seed = help
            .lines()
            .find(|l| l.trim_start().starts_with("--seed"))
            .unwrap_or_else(|| panic!("{cmd:?}: {help}"));
        let idx = help.find(seed).unwrap();
        let after = &help[idx + seed.len()..];
        let text = format!(
            "{seed} {}",
            after.lines().take(2).collect::<Vec<_>>().join(" ")
        );
        assert!(text.to_lowercase().contains("seed of"), "{cmd:?}: {text}");
    }
    let render = String::from_utf8(village(&["render", "--help"]).stdout).unwrap();
    for inapplicable in ["--history", "--policy"] {
        assert!(!render.contains(inapplicable), "{render}");
    }
    let wave = String::from_utf8(village(&["wave", "--help"]).stdout).unwrap();
    assert!(
        wave.contains("--variant") && !wave.contains("--policy"),
        "{wave}"
    );
}

#[test]
fn setup_errors_carry_no_lua_locations_or_prefixes() {
    for args in [
        &["render", "--svg", "/dev/null", "--length", "nope"][..],
        &["play", "--auto", "--variant", "nope"],
        &["wave", "--variant", "nope"],
        &["odds", "melee", "-a", "1", "-d", "1", "--variant", "nope"],
    ] {
        let out = village(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: unknown "), "{args:?}: {err}");
        for leak in ["runtime error", "repl:1", "stack traceback"] {
            assert!(!err.contains(leak), "{args:?}: {err}");
        }
    }
}

/// A mod folder adding one hero whose signature is a script of the mod (the path docs/scripting.md
/// teaches): `+1` to her melee total when she is attacked.
fn signature_mod(name: &str, script: &str) -> PathBuf {
    let dir = mod_dir(name);
    std::fs::create_dir_all(dir.join("scripts/signatures")).unwrap();
    std::fs::write(
        dir.join("rosters/heroes.toml"),
        "[[hero]]\nname = \"Test Warden\"\nquality = 3\ncombat = 3\ntraits = [\"Hero\", \"Tough\"]\n\n\
         [hero.signature]\nname = \"Stand Fast\"\ntext = \"+1 Combat when attacked in melee.\"\n\
         script = \"signatures/stand_fast.lua\"\nparams = { modifier = 1 }\n",
    )
    .unwrap();
    std::fs::write(dir.join("scripts/signatures/stand_fast.lua"), script).unwrap();
    dir
}

const STAND_FAST: &str = "return {\n\tmelee_modifier = function(ctx, self, roll)\n\t\t\
    if roll.role == \"defender\" then\n\t\t\treturn { value = ctx.params.modifier, reason = \"Stand Fast\" }\n\t\tend\n\tend,\n}\n";

#[test]
fn a_mod_hero_with_a_signature_script_checks_and_plays_with_its_signature() {
    let dir = signature_mod("signature-hero", STAND_FAST);
    let m = dir.to_str().unwrap();
    let v = json(&["check", "--json", "--mod", m]);
    assert_eq!(v["errors"].as_array().unwrap().len(), 0, "{v}");
    assert!(v["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "Test Warden" && p["kind"] == "hero"));
    let log = dir.join("game.jsonl");
    let v = json(&[
        "play",
        "--auto",
        "--json",
        "--mod",
        m,
        "--heroes",
        "Test Warden,Captain Maren",
        "--seed",
        "1",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(
        ["win", "loss", "stalled"].contains(&v["result"].as_str().unwrap_or_default()),
        "{}",
        v["result"]
    );
    // The mod hero played and its signature's script was asked: some melee roll names it as a source.
    let events = std::fs::read_to_string(&log).unwrap();
    let fired = events
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["event"] == "combat")
        .flat_map(|e| e["modifiers"].as_array().cloned().unwrap_or_default())
        .any(|m| {
            m["reason"] == "Stand Fast"
                && m["source"]
                    .as_str()
                    .is_some_and(|s| s.ends_with("scripts/signatures/stand_fast.lua"))
        });
    assert!(fired, "no combat event names the mod's signature script");
}

#[test]
fn check_loads_the_scripts_and_names_a_broken_one_with_its_line() {
    let dir = signature_mod(
        "signature-syntax",
        &format!("{STAND_FAST}local broken = = 1\n"),
    );
    let out = village(&["check", "--mod", dir.to_str().unwrap()]);
    assert!(
        !out.status.success(),
        "a script that does not compile must fail check"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l.contains("scripts/signatures/stand_fast.lua:8:")),
        "{text}"
    );
    let dir = signature_mod(
        "signature-typo",
        &STAND_FAST.replace("melee_modifier", "melee_modifer"),
    );
    let v = json_allow_fail(&["check", "--json", "--mod", dir.to_str().unwrap()]);
    let errors = v["errors"].as_array().unwrap();
    assert!(
        errors.iter().any(|e| {
            let e = e.as_str().unwrap();
            e.contains("stand_fast.lua") && e.contains("unknown entry point `melee_modifer`")
        }),
        "{errors:?}"
    );
}

#[test]
fn check_refuses_permissions_that_are_neither_a_table_nor_a_function() {
    for (name, entry, says) in [
        (
            "permissions-number",
            "permissions = 3,",
            "`permissions` must be a table of names or a function, got integer",
        ),
        (
            "permissions-list",
            "permissions = { \"lead\" },",
            "`permissions` takes rule names as keys (`lead = true`), got a key of type integer",
        ),
    ] {
        let dir = signature_mod(
            name,
            &STAND_FAST.replace("return {\n", &format!("return {{\n\t{entry}\n")),
        );
        let v = json_allow_fail(&["check", "--json", "--mod", dir.to_str().unwrap()]);
        let errors = v["errors"].as_array().unwrap();
        assert!(
            errors.iter().any(|e| {
                let e = e.as_str().unwrap();
                e.contains("scripts/signatures/stand_fast.lua") && e.contains(says)
            }),
            "{errors:?}"
        );
    }
}

#[test]
fn api_into_a_reader_that_stops_early_is_not_a_panic() {
    use std::io::Read as _;
    use std::process::Stdio;
    // The reference is larger than a pipe's buffer, so the writer is still writing when the reader
    // goes away (`village api | head`).
    assert!(village::script::api::spec::reference_markdown().len() > 256 * 1024 / 4);
    let mut child = Command::new(env!("CARGO_BIN_EXE_village"))
        .arg("api")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here.
    let out = child.wait_with_output().unwrap();
    assert_eq!(&first, b"# The village Lu");
    // Done, or ended by SIGPIPE as any Unix tool is when its reader leaves: never a failure of its own.
    use std::os::unix::process::ExitStatusExt as _;
    assert!(
        out.status.success() || out.status.signal() == Some(libc_sigpipe()),
        "{:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn play_naming_an_unknown_hero_lists_the_heroes_of_the_layers() {
    let dir = signature_mod("signature-unknown", STAND_FAST);
    // "Test Ward" is a unique start of the mod's "Test Warden": taken as it.
    let out = village(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--mod",
        dir.to_str().unwrap(),
        "--heroes",
        "Test Ward,Captain Maren",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = village(&[
        "play",
        "--auto",
        "--mod",
        dir.to_str().unwrap(),
        "--heroes",
        "Test Wardne,Captain Maren",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    // The mod's own hero is the one offered.
    assert!(
        err.contains(
            "\"Test Wardne\" is not a hero of the rosters (did you mean \"Test Warden\"?)"
        ),
        "{err}"
    );
    // With nothing close, every hero of the layers is listed.
    let out = village(&[
        "play",
        "--auto",
        "--mod",
        dir.to_str().unwrap(),
        "--heroes",
        "Qq,Captain Maren",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Captain Maren") && err.contains("Test Warden"),
        "{err}"
    );
}

#[test]
fn heroes_are_named_as_people_type_them() {
    // Spaces after commas, any case, a unique start of the name or of a word of it.
    let out = village(&[
        "play",
        "--auto",
        "--json",
        "--length",
        "intro",
        "--heroes",
        "maren, Tobin the marksman",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A misspelt name gets the closest hero; an ambiguous one says which it could be; neither
    // carries an internal prefix or pretends a game was played.
    for (heroes, want) in [
        (
            "Maren,Tobbin",
            "\"Tobbin\" is not a hero of the rosters (did you mean \"Tobin the Marksman\"?)",
        ),
        (
            "Maren,s",
            "\"s\" could be \"Sister Ilse\" or \"Bram the Smith\"",
        ),
        ("Maren,Maren", "the party names \"Captain Maren\" twice"),
    ] {
        for cmd in ["play", "sim"] {
            let mut args = vec![cmd, "--length", "intro", "--heroes", heroes];
            if cmd == "play" {
                args.push("--auto");
            } else {
                args.extend(["--games", "2"]);
            }
            let out = village(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{cmd} {heroes}");
            assert!(err.contains(want), "{cmd} {heroes}: {err}");
            assert!(!err.contains("runtime error"), "{cmd} {heroes}: {err}");
            assert!(!err.contains("the game stopped"), "{cmd} {heroes}: {err}");
        }
    }
}

#[test]
fn sim_refuses_an_unknown_length_variant_or_policy_before_any_game() {
    for (flag, value, want) in [
        (
            "--variant",
            "single_hord",
            "unknown variant \"single_hord\" (did you mean \"single_horde\"?)",
        ),
        (
            "--policy",
            "defalt",
            "unknown policy \"defalt\" (did you mean \"default\"?)",
        ),
        (
            "--length",
            "standrd",
            "unknown length \"standrd\" (did you mean \"standard\"?)",
        ),
        (
            "--length",
            "xyzzy",
            "unknown length \"xyzzy\" (known: intro, standard, siege, endless)",
        ),
    ] {
        let out = village(&["sim", "--games", "2", flag, value]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag} {value}");
        assert!(err.contains(want), "{flag} {value}: {err}");
        // Not a failure of game 0: nothing was played.
        assert!(!err.contains("game 0"), "{flag} {value}: {err}");
    }
}

#[test]
fn shell_completions_load_and_know_the_commands() {
    for shell in ["bash", "zsh", "fish"] {
        let out = village(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8_lossy(&out.stdout);
        for cmd in ["sim", "check", "play", "repl", "completions"] {
            assert!(text.contains(cmd), "{shell} completions name {cmd}");
        }
    }
    // bash itself accepts the script and registers it for `village`.
    let script = village(&["completions", "bash"]).stdout;
    let file =
        std::env::temp_dir().join(format!("village-completions-{}.bash", std::process::id()));
    std::fs::write(&file, script).expect("written");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("source {} && complete -p village", file.display()))
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("_village"));
    // An unknown shell is refused with the ones there are.
    let out = village(&["completions", "nosh"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values: bash"));
}

#[test]
fn a_reader_that_stops_early_is_no_panic() {
    use std::os::unix::process::ExitStatusExt as _;
    for cmd in [
        &["about"][..],
        &["check"],
        &["odds", "melee", "-a", "3", "-d", "3"],
    ] {
        // A pipe whose reader is gone before the program starts: its first write meets a closed pipe.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_village"))
            .args(cmd)
            .stdout(writer)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{cmd:?}: {err}");
        assert_eq!(out.status.signal(), Some(libc_sigpipe()), "{cmd:?}: {err}");
    }
}

/// SIGPIPE's number on Linux and the BSDs.
fn libc_sigpipe() -> i32 {
    13
}

/// A party of one or five heroes is refused by every command that makes a game, before any play and
/// with the rules' words (core Ch. IV: "Choose 2–4 heroes"), not as a game that stopped or failed:
/// `play`, `sim`, `bench`, `repl` (no session starts), `render` (no picture is written) and `wave`.
#[test]
fn a_party_of_one_or_five_heroes_is_refused_before_play_by_every_command() {
    let dir = std::env::temp_dir().join(format!("village-cli-party-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("table.svg");
    let svg = svg.to_str().unwrap();
    for (heroes, n) in [
        ("Captain Maren", 1),
        (
            "Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith,Hedda the Hedge Witch",
            5,
        ),
    ] {
        for command in [
            &["play", "--auto"][..],
            &["play", "--auto", "--html", "/dev/null"],
            &["sim", "--games", "2"],
            &["bench", "--games", "1"],
            &["repl"],
            &["render", "--svg", svg],
            &["wave"],
        ] {
            let mut args = command.to_vec();
            args.extend(["--length", "intro", "--heroes", heroes]);
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_village"));
            cmd.args(&args).stdin(std::process::Stdio::piped());
            let mut child = cmd
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            // A REPL that did start would read this line and answer it.
            {
                use std::io::Write;
                let mut stdin = child.stdin.take().unwrap();
                let _ = stdin.write_all(b"return 'a session'\n");
            }
            let out = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(!out.status.success(), "{args:?}: {stdout}");
            assert_eq!(
                err,
                format!("error: a party has 2 to 4 heroes, not {n}\n"),
                "{args:?}"
            );
            assert!(stdout.is_empty(), "{args:?}: {stdout}");
            assert!(!std::path::Path::new(svg).exists(), "{args:?} drew a table");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
