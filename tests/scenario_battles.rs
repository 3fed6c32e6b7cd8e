//! Scenario battles (issue 40): deployment zones, fixed Groups arriving by round, objectives and
//! Victory Points, a round limit, conclusions, draws and a victory script — each played, counted in
//! the reports, and refused at file:line when a scenario is bad. The shipped scenarios play to a
//! result with no stalls.

mod support;

use serde_json::Value;
use support::said as text;
use village::geometry::{Rect, Vec2};
use village::roster::Rosters;
use village::state::battle::{Battle, BattleObjective};
use village::state::{model_from_profile, new_game, Side, TableKind};

/// A mod folder with `scenarios/NAME.toml` = `body` and, when given, `scripts/victory/NAME.lua`.
fn battle_mod(case: &str, name: &str, body: &str, victory: Option<&str>) -> std::path::PathBuf {
    let dir = support::temp("scenario-battles", case);
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    std::fs::write(dir.join("scenarios").join(format!("{name}.toml")), body).unwrap();
    if let Some(lua) = victory {
        std::fs::create_dir_all(dir.join("scripts/victory")).unwrap();
        std::fs::write(dir.join("scripts/victory").join(format!("{name}.lua")), lua).unwrap();
    }
    dir
}

/// A field with a camp for the heroes and a muster for five Ogres far from it.
const FIELD: &str = r#"name = "field"
description = "Five Ogres far away."
buildings = []

[table]
width = 24.0
height = 36.0

[[zones]]
name = "camp"
side = "heroes"
rect = [[8.0, 1.0], [16.0, 5.0]]

[[zones]]
name = "muster"
side = "enemies"
rect = [[4.0, 30.0], [20.0, 35.0]]

[[groups]]
models = ["Ogre Brute", "Ogre Brute", "Ogre Brute", "Ogre Brute", "Ogre Brute"]
zone = "muster"
"#;

/// `village play --auto --json --log` of the mod's scenario: (summary, log lines).
fn play(dir: &std::path::Path, scenario: &str, seed: &str) -> (Value, Vec<Value>) {
    let log = dir.join("game.jsonl");
    let out = support::ok(&[
        "play",
        "--auto",
        "--json",
        "--scenario",
        scenario,
        "--seed",
        seed,
        "--mod",
        dir.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    let events = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|e: &Value| e["event"] != "decision")
        .collect();
    (summary, events)
}

fn of<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["event"] == kind).collect()
}

#[test]
fn the_round_limit_ends_the_battle_with_its_conclusion() {
    let body = format!(
        "{FIELD}rounds = 1\n[[conclusions]]\nwhen = \"enemies_removed\"\nresult = \"win\"\n\n[[conclusions]]\nwhen = \"round_limit\"\nresult = \"loss\"\n"
    );
    // `rounds` is a top-level key: put it before the tables.
    let body = body.replace("rounds = 1\n", "");
    let body = body.replacen("buildings = []\n", "buildings = []\nrounds = 1\n", 1);
    let dir = battle_mod("limit", "field", &body, None);
    let (summary, events) = play(&dir, "field", "1");
    assert_eq!(summary["result"], "loss", "{summary}");
    assert_eq!(summary["cause"], "round_limit");
    assert_eq!(summary["waves"][0]["rounds"], 1);
    let concluded = of(&events, "concluded");
    assert_eq!(concluded.len(), 1, "one concluded event");
    assert_eq!(concluded[0]["cause"], "round_limit");
    // Nothing is played after it.
    assert_eq!(events.last().unwrap()["event"], "concluded");
    // The heroes deployed in their zone, each wholly inside it (as the game is made, and again as
    // the wave starts).
    let deployed = of(&events, "deployed");
    assert_eq!(deployed.len(), 8, "the four heroes, twice");
    for d in deployed {
        assert_eq!(d["near"], "camp");
        let (x, y) = (
            d["to"]["x"].as_f64().unwrap(),
            d["to"]["y"].as_f64().unwrap(),
        );
        assert!((8.5..=15.5).contains(&x) && (1.5..=4.5).contains(&y), "{d}");
    }
    // The Ogres in theirs.
    let group = of(&events, "group_deployed");
    assert_eq!(group[0]["models"].as_array().unwrap().len(), 5);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_victory_script_decides_awards_vp_and_is_refused_when_it_says_nonsense() {
    let body = FIELD.replacen(
        "buildings = []\n",
        "buildings = []\nrounds = 2\nvictory = \"field\"\n",
        1,
    );
    // Awarded VP decide the round limit (no objective: `vp` is asked for).
    let awarding = "return {\n\ton_victory_check = function(ctx, check)\n\t\tif check.turn == \"heroes\" and check.round == 1 then\n\t\t\tctx:award_vp(\"heroes\", 3, \"the banner raised\")\n\t\tend\n\t\treturn nil\n\tend,\n}\n";
    let with_vp = format!("{body}\n[[conclusions]]\nwhen = \"round_limit\"\nresult = \"vp\"\n");
    let dir = battle_mod("award", "field", &with_vp, Some(awarding));
    let (summary, events) = play(&dir, "field", "2");
    let scored = of(&events, "vp_scored");
    assert_eq!(scored.len(), 1, "{scored:?}");
    assert_eq!(scored[0]["side"], "heroes");
    assert_eq!(scored[0]["points"], 3);
    assert_eq!(summary["vp"], serde_json::json!([3, 0]));
    // The heroes win by VP at the limit, unless the battle ended otherwise first.
    if summary["cause"] == "round_limit" {
        assert_eq!(summary["result"], "win", "{summary}");
    }
    std::fs::remove_dir_all(&dir).ok();
    // A draw said by the script ends the game at once.
    let drawing = "return {\n\ton_victory_check = function(ctx, check)\n\t\treturn \"draw\", \"both sides withdraw\"\n\tend,\n}\n";
    let dir = battle_mod("draw", "field", &body, Some(drawing));
    let (summary, events) = play(&dir, "field", "1");
    assert_eq!(summary["result"], "draw");
    assert_eq!(summary["cause"], "victory_script");
    let concluded = of(&events, "concluded");
    assert!(
        concluded[0]["reason"]
            .as_str()
            .unwrap()
            .contains("both sides withdraw"),
        "{concluded:?}"
    );
    // The first round's heroes' turn was the last thing played.
    assert_eq!(summary["waves"][0]["rounds"], 1);
    std::fs::remove_dir_all(&dir).ok();
    // Nonsense and errors stop the game naming the script and its line.
    for (lua, want) in [
        (
            "return {\n\ton_victory_check = function(ctx, check)\n\t\treturn \"victory\"\n\tend,\n}\n",
            "returned \"victory\"",
        ),
        (
            "return {\n\ton_victory_check = function(ctx, check)\n\t\treturn 7\n\tend,\n}\n",
            "returned a integer",
        ),
        (
            "return {\n\ton_victory_check = function(ctx, check)\n\t\terror(\"the herald fell\")\n\tend,\n}\n",
            "field.lua:3",
        ),
        (
            "return {\n\ton_victory_check = function(ctx, check)\n\t\tctx:award_vp(\"goblins\", 1)\n\tend,\n}\n",
            "not \"goblins\"",
        ),
    ] {
        let dir = battle_mod("nonsense", "field", &body, Some(lua));
        let out = support::run(&[
            "play",
            "--auto",
            "--scenario",
            "field",
            "--mod",
            dir.to_str().unwrap(),
        ]);
        assert!(!out.status.success(), "{lua}");
        let said = text(&out);
        assert!(said.contains(want), "{want:?} in {said}");
        assert!(said.contains("scripts/victory/field.lua"), "{said}");
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn an_enemy_in_a_named_area_ends_the_game() {
    // The area is the enemies' own muster: they reach it as they deploy.
    let body = format!(
        "{FIELD}\n[[conclusions]]\nwhen = \"area_reached\"\nname = \"muster\"\nresult = \"loss\"\n"
    );
    let dir = battle_mod("area", "field", &body, None);
    let (summary, events) = play(&dir, "field", "1");
    assert_eq!(summary["result"], "loss");
    assert_eq!(summary["cause"], "area_reached");
    assert!(of(&events, "activation").is_empty(), "nothing is played");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn later_groups_arrive_at_the_start_of_their_round() {
    let body = format!(
        "{FIELD}\n[[groups]]\nmodels = [\"Dire Wolf\", \"Dire Wolf\"]\nedge = \"west\"\nround = 2\n"
    );
    let body = body.replacen("buildings = []\n", "buildings = []\nrounds = 3\n", 1);
    let dir = battle_mod("arrive", "field", &body, None);
    let (_, events) = play(&dir, "field", "1");
    let round2 = events
        .iter()
        .position(|e| e["event"] == "round" && e["round"] == 2)
        .expect("round 2 is played");
    let wolves = events
        .iter()
        .position(|e| e["event"] == "group_deployed" && e["number"] == 2)
        .expect("the wolves arrive");
    assert!(wolves > round2, "after round 2 began");
    let round3 = events
        .iter()
        .position(|e| e["event"] == "round" && e["round"] == 3)
        .unwrap_or(usize::MAX);
    assert!(wolves < round3, "before round 3");
    assert_eq!(events[wolves]["edge"], 4);
    std::fs::remove_dir_all(&dir).ok();
}

/// Who holds an objective (the rulebook's measure: a base within Short of the point, or a centre in
/// the area) and what it scores.
#[test]
fn an_objective_is_held_by_the_only_side_on_it_and_scores_vp() {
    let rosters = Rosters::load(&[Rosters::builtin_root()]).unwrap();
    let mut game = new_game(&rosters, 1, TableKind::Empty);
    game.battle = Some(Box::new(Battle {
        scenario: "test".into(),
        round_limit: None,
        fixed: true,
        escalation: None,
        zones: Vec::new(),
        objectives: vec![
            BattleObjective {
                name: "well".into(),
                at: Vec2::new(10.0, 10.0),
                area: None,
                reach: rosters.rules.measures.short,
                vp: 2,
                each_round: true,
                holder: None,
            },
            BattleObjective {
                name: "barn".into(),
                at: Vec2::new(25.0, 25.0),
                area: Some(Rect::new(Vec2::new(24.0, 24.0), Vec2::new(26.0, 26.0)).to_polygon()),
                reach: 0.0,
                vp: 1,
                each_round: false,
                holder: None,
            },
        ],
        conclusions: Vec::new(),
        arriving: Vec::new(),
        vp: [0, 0],
        verdict: None,
        victory: None,
        concluded: false,
    }));
    let hero = rosters.profile("Captain Maren").unwrap();
    let wolf = rosters.profile("Dire Wolf").unwrap();
    // A base 3" from the point (its edge 2.5" away): within Short.
    let h = game.add_model(model_from_profile(hero, &rosters, Vec2::new(13.0, 10.0)));
    assert_eq!(game.holder_of(0), Some(Side::Heroes));
    assert_eq!(game.holder_of(1), None);
    // An enemy there too: nobody holds it.
    game.add_model(model_from_profile(wolf, &rosters, Vec2::new(10.0, 7.0)));
    assert_eq!(game.holder_of(0), None);
    game.model_mut(h).unwrap().pos = Vec2::new(16.0, 10.0);
    assert_eq!(
        game.holder_of(0),
        Some(Side::Enemies),
        "the hero stepped off"
    );
    // An area: a centre inside it.
    game.add_model(model_from_profile(hero, &rosters, Vec2::new(25.5, 24.2)));
    assert_eq!(game.holder_of(1), Some(Side::Heroes));
    game.update_holders();
    game.score_vp(Side::Enemies, 2, "holding the well", "test");
    assert_eq!(game.battle.as_ref().unwrap().vp, [0, 2]);
    let held: Vec<_> = game
        .log()
        .iter()
        .filter(|e| matches!(e.kind, village::state::EventKind::ObjectiveHeld { .. }))
        .collect();
    assert_eq!(held.len(), 2, "each objective's holder logged once");
}

/// Every shipped scenario plays to a result: `play --auto`, and 200 games of `sim` with no stall and
/// no failure; each reaches the conclusions it is about.
#[test]
fn the_shipped_scenarios_play_to_a_result() {
    let out = text(&support::ok(&["scenarios"]));
    for name in ["rulebook", "hold_the_bridge", "last_stand", "annihilation"] {
        assert!(out.contains(name), "{name} listed: {out}");
    }
    let wants: [(&str, &[&str]); 3] = [
        ("hold_the_bridge", &["round_limit", "victory_script"]),
        ("last_stand", &["building_destroyed", "model_removed"]),
        ("annihilation", &["enemies_removed", "round_limit"]),
    ];
    for (name, causes) in wants {
        let play = support::ok(&["play", "--auto", "--scenario", name]);
        assert!(text(&play).contains("Result: "), "{}", text(&play));
        let out = support::ok(&[
            "sim",
            "--games",
            "200",
            "--seed",
            "1",
            "--json",
            "--audit",
            "--scenario",
            name,
        ]);
        let r: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["games"], 200, "{name}");
        assert_eq!(r["stalled"], 0, "{name}: no stalls");
        assert!(r.get("failed").is_none(), "{name}: no failures");
        // The project's own reader of logs finds nothing wrong in any of them.
        assert_eq!(r["audit"]["breaches"], 0, "{name}: {}", r["audit"]);
        for c in causes {
            assert!(
                r["causes"][c].as_u64().unwrap_or(0) > 0,
                "{name} ends by {c} in some game: {}",
                r["causes"]
            );
        }
        let counted = r["wins"].as_u64().unwrap()
            + r["losses"].as_u64().unwrap()
            + r["draws"].as_u64().unwrap_or(0);
        assert_eq!(counted, 200, "{name}: every game won, lost or drawn");
    }
}

#[test]
fn reports_count_draws_and_victory_points() {
    let out = support::ok(&[
        "sim",
        "--games",
        "60",
        "--seed",
        "1",
        "--json",
        "--scenario",
        "hold_the_bridge",
    ]);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(r["draws"].as_u64().unwrap() > 0, "{r}");
    let vp = &r["vp"];
    assert!(vp["heroes_mean"].as_f64().unwrap() > 0.0, "{vp}");
    let ci = vp["heroes_ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= vp["heroes_mean"].as_f64().unwrap());
    let t = text(&support::ok(&[
        "sim",
        "--games",
        "60",
        "--seed",
        "1",
        "--scenario",
        "hold_the_bridge",
    ]));
    assert!(t.contains(" drawn — win rate"), "{t}");
    assert!(t.contains("Victory Points (mean a game): heroes "), "{t}");
    // Under --vs, the paired difference of the heroes' margin.
    let ab: Value = serde_json::from_slice(
        &support::ok(&[
            "sim",
            "--games",
            "40",
            "--json",
            "--scenario",
            "hold_the_bridge",
            "--vs",
            "power_blow_lethal",
        ])
        .stdout,
    )
    .unwrap();
    assert!(
        ab["difference"]["vp_margin"].is_array(),
        "{}",
        ab["difference"]
    );
    // The rulebook's report has neither.
    let rb: Value =
        serde_json::from_slice(&support::ok(&["sim", "--games", "5", "--json"]).stdout).unwrap();
    assert!(rb.get("draws").is_none() && rb.get("vp").is_none(), "{rb}");
}

#[test]
fn bad_battles_are_refused_at_file_field_and_line() {
    let head = "name = \"bad\"\ndescription = \"x\"\nbuildings = []\n";
    let table = "[table]\nwidth = 24.0\nheight = 36.0\n";
    let camp = "[[zones]]\nname = \"camp\"\nside = \"heroes\"\nrect = [[8.0, 1.0], [16.0, 5.0]]\n";
    let group = "[[groups]]\nmodels = [\"Zombie\"]\nedge = \"north\"\n";
    let cases: Vec<(String, &str, &str)> = vec![
        (
            format!("{head}{table}[[zones]]\nname = \"camp\"\nside = \"heroes\"\nrect = [[8.0, 1.0], [30.0, 5.0]]\n{group}"),
            "zones[0].rect",
            "off the",
        ),
        (
            format!("{head}{table}[[table.terrain]]\nkind = \"pond\"\narea = [[6.0, 0.0], [18.0, 0.0], [18.0, 7.0], [6.0, 7.0]]\n{camp}{group}"),
            "zones[0]",
            "impassable terrain",
        ),
        (
            format!("{head}{table}[[table.terrain]]\nkind = \"rocks\"\narea = [[0.0, 20.0], [24.0, 20.0], [24.0, 22.0], [0.0, 22.0]]\n{camp}{group}[[objectives]]\nname = \"shrine\"\npoint = [12.0, 30.0]\nvp = 1\n"),
            "objectives[0]",
            "nobody can reach the shrine",
        ),
        (
            format!("{head}{table}{camp}[[groups]]\nmodels = [\"Goblin Chieftain\"]\nedge = \"north\"\n"),
            "groups[0].models[0]",
            "unknown enemy profile",
        ),
        (
            format!("{head}{table}{camp}[[groups]]\nmodels = [\"Zombie\"]\nedge = \"up\"\n"),
            "groups[0].edge",
            "unknown edge",
        ),
        (
            format!("{head}{table}{camp}{group}[[conclusions]]\nwhen = \"model_removed\"\nname = \"Lich\"\nresult = \"win\"\n"),
            "conclusions[0].name",
            "no Group of this scenario has a \"Lich\"",
        ),
        (
            format!("victory = \"nothing\"\n{head}{table}{camp}{group}"),
            "victory",
            "unknown victory script",
        ),
        (
            format!("{head}{table}{camp}[party]\ndefenders = [\"Zombie\"]\n{group}"),
            "party.defenders[0]",
            "unknown Village Defender",
        ),
    ];
    for (body, field, want) in cases {
        let dir = battle_mod("bad", "bad", &body, None);
        support::assert_scenario_refused(&dir, &body, field, want);
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// The audit knows a battle's end: a log that plays on after `concluded` is a breach, and one that
/// ends there is not.
#[test]
fn the_audit_ends_a_battle_at_its_conclusion() {
    let dir = support::temp("scenario-battles", "audit");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("stand.jsonl");
    support::ok(&[
        "play",
        "--auto",
        "--scenario",
        "last_stand",
        "--seed",
        "2",
        "--log",
        log.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("\"event\":\"concluded\""),
        "the game concluded"
    );
    let clean = support::run(&["audit", log.to_str().unwrap()]);
    assert!(clean.status.success(), "{}", support::said(&clean));
    // An activation copied after the conclusion: play after the game ended.
    let lines: Vec<&str> = text.lines().collect();
    let act = lines
        .iter()
        .find(|l| l.contains("\"event\":\"activation\""))
        .unwrap();
    let mut v: Value = serde_json::from_str(act).unwrap();
    v["seq"] = serde_json::json!(lines.len());
    v.as_object_mut().unwrap().remove("cause");
    let tampered = dir.join("tampered.jsonl");
    std::fs::write(&tampered, format!("{text}{v}\n")).unwrap();
    let out = support::run(&["audit", tampered.to_str().unwrap()]);
    assert!(!out.status.success());
    let said = support::said(&out);
    assert!(
        said.contains("game_end") && said.contains("conclusion (model_removed)"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
