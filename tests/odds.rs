//! `village odds` against closed forms and hand counts written here, not called back from the code
//! under test: melee, ranged and morale with Combat values or a Quality (the results table and the
//! binomial counted in this file), and by profile name, where the kernel and the trait scripts resolve
//! every die face (hand-derived counts in the comments; a Poison die the kernel rolls on top; the rule
//! constants of a mod). Every chance is checked as its exact fraction too.

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
    let mut all = args.to_vec();
    all.push("--json");
    let out = village(&all);
    assert!(
        out.status.success(),
        "{all:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn fails(args: &[&str]) -> String {
    let out = village(args);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(out.stdout.is_empty(), "{args:?} printed a report");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// `n/d` in lowest terms as the reports write it ("0", "1", "5/36").
fn frac(n: u64, d: u64) -> String {
    if n == 0 {
        return "0".into();
    }
    let g = gcd(n, d);
    if d / g == 1 {
        format!("{}", n / g)
    } else {
        format!("{}/{}", n / g, d / g)
    }
}

/// Checks a chance in the JSON both as a float and as its fraction string: `p` at `path` under the
/// report, its fraction at the same path under `fractions`.
fn assert_chance(v: &Value, path: &[&str], n: u64, d: u64) {
    let mut p = v;
    let mut f = &v["fractions"];
    for k in path {
        p = &p[k];
        f = &f[k];
    }
    let got = p.as_f64().unwrap_or_else(|| panic!("{path:?} in {v}"));
    assert!(
        (got - n as f64 / d as f64).abs() < 1e-12,
        "{path:?}: {got} vs {n}/{d}"
    );
    assert_eq!(f.as_str(), Some(frac(n, d).as_str()), "{path:?} fraction");
}

/// The results table of SUPPLEMENT §4, written here again from the rulebook: the winner's total at
/// least 3× the loser's (each below 1 counting as 1) is a Gruesome Kill, 2× Defeated, otherwise a
/// Lethal win Defeated, an even winner's die Defenseless, an odd one Recoil.
fn table(win: i32, lose: i32, die: i32, lethal: bool) -> &'static str {
    let lose = lose.max(1);
    if win >= 3 * lose {
        "gruesome"
    } else if win >= 2 * lose || lethal {
        "defeated"
    } else if die % 2 == 0 {
        "defenseless"
    } else {
        "recoil"
    }
}

#[derive(Default, Debug, PartialEq)]
struct Count {
    tie: u64,
    /// Results of the first side's wins (what the second suffers), then of the second's.
    first: [u64; 4],
    second: [u64; 4],
}

fn slot(r: &str) -> usize {
    ["gruesome", "defeated", "defenseless", "recoil"]
        .iter()
        .position(|x| *x == r)
        .unwrap()
}

/// Every pair of faces of an opposed roll, totals `a + first` against `d + second`, counted here.
fn count(first: i32, second: i32, lethal_first: bool) -> Count {
    let mut c = Count::default();
    for a in 1..=6 {
        for d in 1..=6 {
            let (x, y) = (a + first, d + second);
            if x > y {
                c.first[slot(table(x, y, a, lethal_first))] += 1;
            } else if y > x {
                c.second[slot(table(y, x, d, false))] += 1;
            } else {
                c.tie += 1;
            }
        }
    }
    c
}

const RESULTS: [&str; 4] = ["gruesome", "defeated", "defenseless", "recoil"];

#[test]
fn melee_with_combat_values_gives_the_fractions_of_the_results_table() {
    for (a, d) in [(4, 3), (3, 3), (2, 5), (5, 1), (0, 0), (-2, 3)] {
        for flags in [&[][..], &["--power-blow"], &["--defenseless"]] {
            let (sa, sd) = (a.to_string(), d.to_string());
            let mut args = vec!["odds", "melee", "-a", &sa, "-d", &sd];
            args.extend_from_slice(flags);
            let v = json(&args);
            // The flags as SUPPLEMENT §4 gives them: a Power Blow is the defender's −1, a Defenseless
            // defender the attacker's +2 and Lethal.
            let blow = i32::from(flags.contains(&"--power-blow"));
            let down = flags.contains(&"--defenseless");
            let c = count(a + if down { 2 } else { 0 }, d - blow, down);
            assert_chance(&v, &["tie"], c.tie, 36);
            for (i, r) in RESULTS.iter().enumerate() {
                assert_chance(&v, &["attacker_wins", r], c.first[i], 36);
                assert_chance(&v, &["defender_wins", r], c.second[i], 36);
            }
            // The tie alone has a closed form: the dice differ by d − a (after the modifiers), which
            // 6 − |k| of the 36 pairs do.
            let k = (a + if down { 2 } else { 0 }) - (d - blow);
            assert_eq!(c.tie, (6 - k.abs()).max(0) as u64);
        }
    }
}

#[test]
fn the_numeric_text_prints_the_jsons_fractions() {
    // Every chance of the table is its exact fraction beside its percentage, as the JSON has them.
    let args = ["odds", "melee", "-a", "4", "-d", "3", "--power-blow"];
    let out = village(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Melee: attacker C4 vs defender C3 (Power Blow)\n"));
    // `json` adds --json.
    let v = json(&args);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row: {text}"))
            .to_string()
    };
    for (row, key) in [
        ("Gruesome Kill", "gruesome"),
        ("Defeated", "defeated"),
        ("Defenseless", "defenseless"),
        ("Recoil", "recoil"),
    ] {
        let l = line(row);
        let cells: Vec<&str> = l[row.len() + 2..].split_whitespace().collect();
        assert_eq!(
            cells,
            [
                v["fractions"]["attacker_wins"][key].as_str().unwrap(),
                &format!("{:.2}%", v["attacker_wins"][key].as_f64().unwrap() * 100.0),
                v["fractions"]["defender_wins"][key].as_str().unwrap(),
                &format!("{:.2}%", v["defender_wins"][key].as_f64().unwrap() * 100.0),
            ],
            "{l}"
        );
    }
    // C4 against C3 with a Power Blow (the defender at 2): a Gruesome Kill needs 4 + a ≥ 3 × (2 + d),
    // which (5, 1) and (6, 1) give: 2 of 36 = 1/18.
    assert!(line("Gruesome Kill").contains("1/18"), "{text}");
    assert!(line("tie (no effect)").contains(v["fractions"]["tie"].as_str().unwrap()));
    // Activation: Q3 with three dice succeeds on 4 faces of 6 a die: C(3,k) 4^k 2^(3-k) / 216.
    let v = json(&["odds", "activation", "-q", "3", "-d", "3"]);
    let binom = [1u64, 3, 3, 1];
    for k in 0..=3u32 {
        let n = binom[k as usize] * 4u64.pow(k) * 2u64.pow(3 - k);
        assert_eq!(
            v["fractions"]["successes"][k as usize].as_str(),
            Some(frac(n, 216).as_str())
        );
    }
    // Two or three failures: 3·2²·4 + 2³ = 56 of 216; the mean 3 × 2/3 = 2 actions.
    assert_eq!(v["fractions"]["turnover"], "7/27");
    assert_eq!(v["fractions"]["mean"], "2");
}

/// Orc Warrior (C3, Igniter) attacks Captain Maren (C4, Hero, Leader, Tough), by hand. Orc a + 3,
/// Maren b + 4, no modifier (neither trait touches a melee roll).
/// - Tie: a + 3 = b + 4, b = a − 1, a = 2..6: 5.
/// - The Orc wins when a ≥ b + 2: 10 pairs. Defeating needs a + 3 ≥ 2(b + 4), a ≥ 2b + 5: never.
///   By the Orc's die: b=1 a∈{3,4,5,6}, b=2 a∈{4,5,6}, b=3 a∈{5,6}, b=4 a=6: even a 6 (Defenseless),
///   odd a 4 (Recoil).
/// - Maren wins when b ≥ a: 21 pairs. Defeated when b + 4 ≥ 2(a + 3), b ≥ 2a + 2: (1,4) (1,5) (1,6)
///   (2,6): 4. Gruesome needs b ≥ 3a + 5: never. The other 17 by her die: even b over b ≥ a is
///   2 + 4 + 6 = 12 pairs, less the Defeated (1,4) (1,6) (2,6): 9 Defenseless; odd 1 + 3 + 5 = 9, less
///   (1,5): 8 Recoil.
///
/// 5 + 10 + 21 = 36. Maren's Tough never acts: the Orc cannot reach a Defeated.
#[test]
fn orc_warrior_against_captain_maren_by_hand() {
    let v = json(&[
        "odds",
        "melee",
        "--attacker",
        "Orc Warrior",
        "--defender",
        "Captain Maren",
    ]);
    assert_eq!(v["outcomes"], 36);
    assert_eq!(v["dice"], 2);
    assert_chance(&v, &["tie"], 5, 36);
    for (r, n) in [
        ("gruesome", 0),
        ("defeated", 0),
        ("wound", 0),
        ("defenseless", 6),
        ("recoil", 4),
    ] {
        assert_chance(&v, &["attacker_wins", r], n, 36);
    }
    for (r, n) in [
        ("gruesome", 0),
        ("defeated", 4),
        ("defenseless", 9),
        ("recoil", 8),
    ] {
        assert_chance(&v, &["defender_wins", r], n, 36);
    }
    assert_eq!(v["modifiers"].as_array().unwrap().len(), 0, "{v}");
    assert_eq!(v["attacker"]["combat"], 3);
    assert_eq!(v["defender"]["traits"][2], "Tough");
}

/// Ogre Brute (C4, Big, Terror; Hurl) attacks Bram the Smith (C4, Heavy Armor, Tough), by hand. The
/// Ogre's 1.5" base is larger than Bram's 1": Big gives it +1 (scripts/traits/big.lua). Ogre a + 5,
/// Bram b + 4.
/// - Tie: b = a + 1, a = 1..5: 5.
/// - The Ogre wins when b ≤ a: 21 pairs. Defeated when a + 5 ≥ 2(b + 4), a ≥ 2b + 3: b = 1 with a 5 or
///   6: 2, and Bram is Tough (Q3): a Wound instead. Gruesome (a + 5 ≥ 3b + 12) never. The other 19
///   are Recoil or Defenseless, which Heavy Armor turns into no effect: 19 beaten but unharmed.
/// - Bram wins when b ≥ a + 2: 4 + 3 + 2 + 1 = 10 pairs; his total never doubles the Ogre's
///   (b + 4 ≥ 2a + 10 has no face). By his die: a=1 b∈{3,4,5,6}, a=2 b∈{4,5,6}, a=3 b∈{5,6}, a=4 b=6:
///   even 2 + 2 + 1 + 1 = 6 (the Ogre Defenseless), odd 2 + 1 + 1 = 4 (it Recoils).
#[test]
fn ogre_brute_against_bram_the_smith_with_heavy_armor_and_tough_by_hand() {
    let v = json(&["odds", "melee", "-a", "Ogre Brute", "-d", "Bram the Smith"]);
    assert_chance(&v, &["tie"], 5, 36);
    for (r, n) in [
        ("gruesome", 0),
        ("defeated", 0),
        ("wound", 2),
        ("defenseless", 0),
        ("recoil", 0),
        ("unharmed", 19),
    ] {
        assert_chance(&v, &["attacker_wins", r], n, 36);
    }
    for (r, n) in [
        ("defeated", 0),
        ("defenseless", 6),
        ("recoil", 4),
        ("unharmed", 0),
    ] {
        assert_chance(&v, &["defender_wins", r], n, 36);
    }
    let mods = v["modifiers"].as_array().unwrap();
    assert_eq!(mods.len(), 1, "{v}");
    assert_eq!(mods[0]["to"], "attacker");
    assert_eq!(mods[0]["value"], 1);
    assert_eq!(mods[0]["source"], "scripts/traits/big.lua");
    let rules: Vec<&str> = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(
        rules
            .iter()
            .any(|r| r.starts_with("Heavy Armor (scripts/traits/heavy_armor.lua)")),
        "{rules:?}"
    );
    assert!(
        rules
            .iter()
            .any(|r| r.starts_with("Tough (scripts/traits/tough.lua)")),
        "{rules:?}"
    );
    // The text shows the same, fraction beside percentage, each modifier with its source.
    let out = village(&["odds", "melee", "-a", "Ogre Brute", "-d", "Bram the Smith"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("+1 to Ogre Brute: Big against a smaller model (scripts/traits/big.lua)"));
    assert!(text.contains("1/18   5.56%"), "{text}");
    assert!(text.contains("19/36  52.78%"), "{text}");
}

#[test]
fn profiles_whose_traits_never_touch_a_melee_match_the_combat_values() {
    // Goblin Looter (C2, Igniter) and the Village Archer (C2, Shooter, no Tough): neither trait acts in
    // a melee, so the kernel's odds by name are the table's for 2 against 2, flags included.
    for flags in [
        &[][..],
        &["--power-blow"],
        &["--free-hack"],
        &["--defenseless"],
    ] {
        let mut named = vec![
            "odds",
            "melee",
            "-a",
            "Goblin Looter",
            "-d",
            "Village Archer",
        ];
        named.extend_from_slice(flags);
        let mut plain = vec!["odds", "melee", "-a", "2", "-d", "2"];
        plain.extend_from_slice(flags);
        let (n, p) = (json(&named), json(&plain));
        for key in ["tie", "no_effect"] {
            assert_eq!(n[key], p[key], "{flags:?} {key}");
            assert_eq!(n["fractions"][key], p["fractions"][key], "{flags:?} {key}");
        }
        for side in ["attacker_wins", "defender_wins"] {
            for r in RESULTS {
                assert_eq!(n[side][r], p[side][r], "{flags:?} {side} {r}");
                assert_eq!(n["fractions"][side][r], p["fractions"][side][r]);
            }
            assert_eq!(n[side]["wound"], 0.0);
            assert_eq!(n[side]["unharmed"], 0.0);
        }
    }
}

#[test]
fn lethal_savage_and_poison_come_from_their_scripts() {
    let m = fixture("odds_mod");
    let base = |attacker: &str| {
        json(&[
            "odds",
            "melee",
            "-a",
            attacker,
            "-d",
            "Captain Maren",
            "--mod",
            &m,
        ])
    };
    // Lethal Assassin (C3, Lethal) against Maren (C4): its 10 winning pairs (a ≥ b + 2, as the Orc's)
    // all defeat, and Tough makes each a Wound; Maren's wins are the Orc's case: 4, 9, 8.
    let v = base("Lethal Assassin");
    assert_chance(&v, &["attacker_wins", "wound"], 10, 36);
    assert_chance(&v, &["attacker_wins", "defenseless"], 0, 36);
    assert_chance(&v, &["defender_wins", "defeated"], 4, 36);
    assert!(v["rules"][0]
        .as_str()
        .unwrap()
        .contains("Lethal (scripts/traits/lethal.lua)"));
    // Poison: each of the Venom Spider's 10 winning pairs (none kills) rolls one more die, and 5 or 6
    // worsens Maren's Quality: 10 × 2 of 216 = 5/54. The results themselves are the Orc's.
    let v = base("Venom Spider");
    assert_eq!(v["outcomes"], 216);
    assert_eq!(v["dice"], 3);
    assert_chance(&v, &["attacker_wins", "defenseless"], 36, 216);
    assert_chance(&v, &["attacker_wins", "recoil"], 24, 216);
    assert_chance(&v, &["tie"], 30, 216);
    let also = &v["also"][0];
    assert_eq!(also["suffers"], "defender");
    assert_eq!(also["fraction"], "5/54");
    assert!(also["what"]
        .as_str()
        .unwrap()
        .contains("scripts/traits/poison.lua"));
    // Savage Berserker (C3, Savage) against Bram (C4, Heavy Armor, Tough) with a Power Blow and Bram
    // Defenseless: 3 + a + 2 against b + 4 − 1; a Gruesome Kill from 2× (b + 3) where a + 5 ≥
    // 2b + 6, a ≥ 2b + 1: b=1 a∈{3..6}, b=2 a∈{5,6}: 6 pairs; every other win (a + 2 > b, less those)
    // is Lethal (Defenseless): Defeated, then a Wound (Tough).
    let v = json(&[
        "odds",
        "melee",
        "-a",
        "Savage Berserker",
        "-d",
        "Bram the Smith",
        "--power-blow",
        "--defenseless",
        "--mod",
        &m,
    ]);
    let wins: u64 = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| (a, b)))
        .filter(|(a, b)| a + 5 > b + 3)
        .count() as u64;
    assert_chance(&v, &["attacker_wins", "gruesome"], 6, 36);
    assert_chance(&v, &["attacker_wins", "wound"], wins - 6, 36);
    assert!(v["rules"].as_array().unwrap().iter().any(|r| r
        .as_str()
        .unwrap()
        .contains("from 2× (scripts/traits/savage.lua)")));
}

/// A variant's rule constants apply by name too. Orc Warrior Power Blows Captain Maren: a + 3 against
/// b + 4 − 1. The Orc wins on a > b, 15 pairs; its total doubles Maren's (a ≥ 2b + 3) only for b = 1,
/// a 5 or 6. By the rulebook a Power Blow is not Lethal: those 2 are Defeated, a Wound for Tough Maren.
/// Under `power_blow_lethal` every one of the 15 wins defeats: 15 Wounds.
#[test]
fn a_variant_applies_to_odds_by_name() {
    let blow = |variant: &[&str]| {
        let mut args = vec![
            "odds",
            "melee",
            "-a",
            "Orc Warrior",
            "-d",
            "Captain Maren",
            "--power-blow",
        ];
        args.extend_from_slice(variant);
        json(&args)
    };
    assert_chance(&blow(&[]), &["attacker_wins", "wound"], 2, 36);
    let v = blow(&["--variant", "power_blow_lethal"]);
    assert_chance(&v, &["attacker_wins", "wound"], 15, 36);
    assert_chance(&v, &["attacker_wins", "recoil"], 0, 36);
}

#[test]
fn bad_names_and_pairings_are_refused_clearly() {
    let e = fails(&["odds", "melee", "-a", "Orc Warior", "-d", "Captain Maren"]);
    assert!(
        e.contains(r#"unknown profile "Orc Warior" (did you mean "Orc Warrior"?)"#),
        "{e}"
    );
    let e = fails(&["odds", "melee", "-a", "Orc Warrior", "-d", "Goblin Looter"]);
    assert!(e.contains("both on the enemies' side"), "{e}");
    let e = fails(&["odds", "melee", "-a", "Orc Warrior", "-d", "3"]);
    assert!(
        e.contains("must both be profile names or both Combat values"),
        "{e}"
    );
    let e = fails(&["odds", "ranged", "-s", "Orc Warrior", "-t", "Captain Maren"]);
    assert!(e.contains("is not a Shooter"), "{e}");
    let e = fails(&["odds", "ranged", "-s", "3", "-t", "3", "--range", "long"]);
    assert!(e.contains("--weapon"), "{e}");
    let e = fails(&["odds", "ranged", "-s", "3", "-t", "3", "--weapon", "Longbw"]);
    assert!(e.contains(r#"(did you mean "Longbow"?)"#), "{e}");
    let e = fails(&[
        "odds",
        "ranged",
        "-s",
        "3",
        "-t",
        "3",
        "--weapon",
        "Short Bow",
        "--range",
        "long",
    ]);
    assert!(e.contains("out of range"), "{e}");
    let e = fails(&["odds", "morale", "-m", "Orc Warriors"]);
    assert!(e.contains("did you mean \"Orc Warrior\""), "{e}");
    let e = fails(&[
        "odds",
        "melee",
        "-a",
        "Orc Warrior",
        "-d",
        "Captain Maren",
        "--variant",
        "nope",
    ]);
    assert!(e.starts_with("error: unknown variant \"nope\""), "{e}");
}

/// The shot of the rulebook's worked example, counted here: the shooter's totals `s + first` against the
/// target's `t + second`; the target's win is a defensive roll that hurts nobody.
fn shot(first: i32, second: i32, lethal: bool) -> (u64, u64, [u64; 4]) {
    let (mut tie, mut holds, mut hits) = (0, 0, [0u64; 4]);
    for s in 1..=6 {
        for t in 1..=6 {
            let (x, y) = (s + first, t + second);
            if x > y {
                hits[slot(table(x, y, s, lethal))] += 1;
            } else if y > x {
                holds += 1;
            } else {
                tie += 1;
            }
        }
    }
    (tie, holds, hits)
}

fn assert_shot(v: &Value, first: i32, second: i32, lethal: bool, of: u64) {
    let m = of / 36;
    let (tie, holds, hits) = shot(first, second, lethal);
    assert_eq!(v["outcomes"], of);
    assert_chance(v, &["tie"], tie * m, of);
    assert_chance(v, &["target_holds"], holds * m, of);
    for (i, r) in RESULTS.iter().enumerate() {
        assert_chance(v, &["shooter_wins", r], hits[i] * m, of);
    }
}

#[test]
fn ranged_with_combat_values_follows_the_results_table() {
    // Core §3.5's Marksman: C3 with Good Shot (+1) at a C2 target in Cover (−1): 3 against 2.
    let v = json(&[
        "odds",
        "ranged",
        "-s",
        "3",
        "-t",
        "2",
        "--good-shot",
        "--cover",
    ]);
    assert_shot(&v, 3, 2, false, 36);
    assert_eq!(v["weapon_broken"], Value::Null);
    // An Aimed Shot is the target's −1; a Defenseless target the shooter's +2 and Lethal.
    let v = json(&[
        "odds",
        "ranged",
        "-s",
        "2",
        "-t",
        "4",
        "--aimed",
        "--defenseless",
    ]);
    assert_shot(&v, 4, 3, true, 36);
    // A Longbow (weapons.toml: +1 / 0 / −2 at one, two, three Long measures) breaks on a natural 1
    // confirmed by a second 1: 1/36, and every count is out of 216 for the third die.
    for (range, modifier) in [("long", 1), ("18", 0), ("27", -2)] {
        let v = json(&[
            "odds", "ranged", "-s", "3", "-t", "3", "--weapon", "Longbow", "--range", range,
        ]);
        assert_shot(&v, 3 + modifier, 3, false, 216);
        assert_chance(&v, &["weapon_broken"], 6, 216);
    }
    // Javelins are exhausted by the natural 1 itself: 1/6.
    let v = json(&[
        "odds", "ranged", "-s", "1", "-t", "2", "--weapon", "Javelins",
    ]);
    assert_shot(&v, 1, 2, false, 36);
    assert_chance(&v, &["weapon_broken"], 6, 36);
}

#[test]
fn ranged_by_name_goes_through_the_kernel_and_its_scripts() {
    // Tobin the Marksman (C3, Good Shot, Longbow) at an Orc Warrior (C3) one Long measure away:
    // 3 + 1 (Good Shot, scripts/traits/good_shot.lua) + 1 (Longbow at 1 measure) against 3.
    let v = json(&[
        "odds",
        "ranged",
        "-s",
        "Tobin the Marksman",
        "-t",
        "Orc Warrior",
        "--range",
        "long",
    ]);
    assert_shot(&v, 5, 3, false, 216);
    assert_chance(&v, &["weapon_broken"], 6, 216);
    assert_eq!(v["distance"], 9.0);
    let sources: Vec<&str> = v["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["source"].as_str().unwrap())
        .collect();
    assert!(
        sources.contains(&"scripts/traits/good_shot.lua"),
        "{sources:?}"
    );
    // In Cover (a wall it touches) at three Long measures with an Aimed Shot: 3 + 1 − 2 − 1 against
    // 3 − 1.
    let v = json(&[
        "odds",
        "ranged",
        "-s",
        "Tobin the Marksman",
        "-t",
        "Orc Warrior",
        "--range",
        "27",
        "--cover",
        "--aimed",
    ]);
    assert_shot(&v, 1, 2, false, 216);
    // The Ogre Brute is Big: shot at +1 (scripts/traits/big.lua). The Village Archer's Short Bow within
    // Short: +1 (weapons.toml). 2 + 1 + 1 against 4, its weapon broken on a confirmed natural 1.
    let v = json(&["odds", "ranged", "-s", "Village Archer", "-t", "Ogre Brute"]);
    assert_shot(&v, 4, 4, false, 216);
    assert_chance(&v, &["weapon_broken"], 6, 216);
    // A Kobold Skirmisher's Javelins (C1) at Captain Maren (C4): exhausted on any natural 1, 1/6.
    let v = json(&[
        "odds",
        "ranged",
        "-s",
        "Kobold Skirmisher",
        "-t",
        "Captain Maren",
    ]);
    assert_shot(&v, 1, 4, false, 36);
    assert_chance(&v, &["weapon_broken"], 6, 36);
    // Stealth in Cover cannot be shot at all: the kernel's refusal, named.
    let e = fails(&[
        "odds",
        "ranged",
        "-s",
        "Kobold Skirmisher",
        "-t",
        "Wren the Scout",
        "--cover",
    ]);
    assert!(
        e.contains("Wren the Scout") && e.contains("cannot be shot"),
        "{e}"
    );
}

/// C(n, k).
fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

/// The morale closed form: each of `n` dice fails on `f` faces of 6 (core §3.6 and §3.1: a natural 1
/// always fails, a natural 6 always succeeds, otherwise face + modifier < Quality fails), so k failures
/// come up C(n,k) f^k (6 − f)^(n − k) times in 6^n.
fn assert_binomial(v: &Value, quality: i32, modifier: i32, n: u32) {
    let f = (1..=6)
        .filter(|face| *face == 1 || (*face != 6 && face + modifier < quality))
        .count() as u64;
    let of = 6u64.pow(n);
    assert_eq!(v["outcomes"], of);
    assert_eq!(v["dice"], n);
    for k in 0..=u64::from(n) {
        let c = choose(u64::from(n), k) * f.pow(k as u32) * (6 - f).pow(n - k as u32);
        assert_eq!(
            v["fractions"]["failures"][k as usize].as_str(),
            Some(frac(c, of).as_str()),
            "Q{quality} {modifier:+}, {k} failures"
        );
        assert!((v["failures"][k as usize].as_f64().unwrap() - c as f64 / of as f64).abs() < 1e-12);
    }
}

#[test]
fn morale_with_a_quality_is_binomial() {
    for q in 2..=6 {
        let s = q.to_string();
        assert_binomial(&json(&["odds", "morale", "-q", &s]), q, 0, 3);
        // Steadfast: +1 to each die (rules.toml morale.steadfast_bonus).
        assert_binomial(&json(&["odds", "morale", "-q", &s, "--steadfast"]), q, 1, 3);
    }
    let v = json(&["odds", "morale", "-q", "4"]);
    let words: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["words"].as_str().unwrap())
        .collect();
    assert_eq!(
        words,
        ["holds", "falls back 1 band", "falls back 2 bands", "Flees"]
    );
}

#[test]
fn morale_by_name_is_the_kernels_with_the_traits_scripts() {
    // An Orc Warrior (Q4) charged by Terror: nothing changes its dice.
    let v = json(&["odds", "morale", "-m", "Orc Warrior"]);
    assert_binomial(&v, 4, 0, 3);
    assert_eq!(v["results"][3]["result"], "fled");
    // Shield Bearer (Q4, Steadfast; a fixture): +1 from scripts/traits/steadfast.lua.
    let v = json(&[
        "odds",
        "morale",
        "-m",
        "Shield Bearer",
        "--mod",
        &fixture("odds_mod"),
    ]);
    assert_binomial(&v, 4, 1, 3);
    assert_eq!(v["modifiers"][0]["source"], "scripts/traits/steadfast.lua");
    // --steadfast gives the trait to a profile without it: Captain Maren (Q3) with +1.
    let v = json(&[
        "odds",
        "morale",
        "-m",
        "Captain Maren",
        "--trigger",
        "half-lost",
        "--steadfast",
    ]);
    assert_binomial(&v, 3, 1, 3);
    // Fearless ignores Terror (scripts/traits/fearless.lua); an Enemy Group ignores half its side lost.
    let v = json(&["odds", "morale", "-m", "Chaos Zealot"]);
    assert!(v["immune"]
        .as_str()
        .unwrap()
        .contains("scripts/traits/fearless.lua"));
    assert_eq!(v["dice"], 0);
    assert_eq!(v["results"][0]["fraction"], "1");
    let v = json(&[
        "odds",
        "morale",
        "-m",
        "Orc Warrior",
        "--trigger",
        "half-lost",
    ]);
    assert!(v["immune"]
        .as_str()
        .unwrap()
        .contains("Enemy Groups check only"));
    // Undead ignores a Gruesome Kill's check too.
    let v = json(&[
        "odds",
        "morale",
        "-m",
        "Skeleton Warrior",
        "--trigger",
        "gruesome-kill",
    ]);
    assert!(v["immune"].as_str().unwrap().contains("Undead"));
}

#[test]
fn the_morale_dice_come_from_the_rule_constants() {
    // A mod of its own with four morale dice: 6^4 outcomes, by Quality and by name alike.
    let dir = std::env::temp_dir().join(format!("village-odds-dice-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("rosters")).unwrap();
    std::fs::write(dir.join("rosters/rules.toml"), "[morale]\ndice = 4\n").unwrap();
    let m = dir.display().to_string();
    assert_binomial(&json(&["odds", "morale", "-q", "4", "--mod", &m]), 4, 0, 4);
    let v = json(&["odds", "morale", "-m", "Orc Warrior", "--mod", &m]);
    assert_binomial(&v, 4, 0, 4);
    // Three failures or more Flee (morale.flee_failures): with four dice, three and four both do.
    assert_eq!(v["results"][3]["words"], "Flees");
    assert_eq!(v["results"][4]["words"], "Flees");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_new_kind_draws_its_chart() {
    let dir = std::env::temp_dir().join(format!("village-odds-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, args) in [
        (
            "melee",
            &["melee", "-a", "Orc Warrior", "-d", "Captain Maren"][..],
        ),
        ("ranged", &["ranged", "-s", "3", "-t", "2", "--cover"]),
        ("morale", &["morale", "-q", "4"]),
    ] {
        let path = dir.join(format!("{name}.svg"));
        let mut all = vec!["odds"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--svg", path.to_str().unwrap()]);
        let out = village(&all);
        assert!(out.status.success(), "{all:?}");
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"), "{name}");
        assert!(svg.contains("<title>"), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
