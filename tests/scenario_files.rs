//! Scenario files (`scenarios/NAME.toml`, `--scenario`, `village scenarios`), the first part of issue
//! 40: a scenario's own table and buildings played, drawn, recorded and refused at file:line; the
//! `rulebook` scenario is today's game.

mod support;

use serde_json::Value;
use std::path::Path;

use support::said as text;

const CROSSROADS: &str = r#"# a hamlet at a crossroads
name = "crossroads"
description = "A hamlet at a crossroads between a wood and a pond."
length = "intro"

[table]
width = 30.0
height = 30.0

[[table.terrain]]
kind = "wood"
area = [[3.0, 3.0], [9.0, 3.0], [9.0, 9.0], [3.0, 9.0]]

[[table.terrain]]
kind = "pond"
area = [[21.0, 21.0], [27.0, 21.0], [27.0, 27.0], [21.0, 27.0]]

[[table.terrain]]
kind = "wall"
line = [[12.0, 22.0], [18.0, 22.0]]

[[buildings]]
name = "Temple"
x = 22.0
y = 12.0

[[buildings]]
name = "Town Hall"
x = 15.0
y = 15.0
integrity = 10
"#;

/// A mod folder holding `scenarios/NAME.toml` with `body`.
fn scenario_mod(name: &str, file: &str, body: &str) -> std::path::PathBuf {
    let dir = support::temp("scenario-files", name);
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    std::fs::write(dir.join("scenarios").join(format!("{file}.toml")), body).unwrap();
    dir
}

fn setup_event(log: &Path) -> Value {
    let first = std::fs::read_to_string(log).unwrap();
    serde_json::from_str(first.lines().next().unwrap()).unwrap()
}

#[test]
fn village_scenarios_lists_the_built_in_and_a_mods() {
    let out = text(&support::ok(&["scenarios"]));
    assert!(
        out.contains("rulebook") && out.contains("(the default)"),
        "{out}"
    );
    let dir = scenario_mod("list", "crossroads", CROSSROADS);
    let out = text(&support::ok(&["scenarios", "--mod", dir.to_str().unwrap()]));
    // Names in a column as wide as the longest.
    assert!(
        out.lines().any(|l| l.starts_with("crossroads ")
            && l.ends_with(" A hamlet at a crossroads between a wood and a pond.")),
        "{out}"
    );
    let json: Value = serde_json::from_slice(
        &support::ok(&["scenarios", "--json", "--mod", dir.to_str().unwrap()]).stdout,
    )
    .unwrap();
    let names: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "annihilation",
            "crossroads",
            "hold_the_bridge",
            "last_stand",
            "rulebook"
        ]
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The scenario's table and buildings are the game's: the log's setup has its size, its terrain and
/// its buildings where it put them with its Integrity; its length is played when --length is not
/// given; the game plays to its end, by name or by file.
#[test]
fn a_scenario_makes_the_table_of_its_game() {
    let dir = scenario_mod("table", "crossroads", CROSSROADS);
    let m = dir.to_str().unwrap();
    let log = dir.join("game.jsonl");
    let out = support::ok(&[
        "play",
        "--auto",
        "--scenario",
        "crossroads",
        "--mod",
        m,
        "--json",
        "--log",
        log.to_str().unwrap(),
    ]);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(summary["result"].is_string(), "{summary}");
    let setup = setup_event(&log);
    assert_eq!(setup["event"], "setup");
    assert_eq!(setup["width"], 30.0);
    assert_eq!(setup["height"], 30.0);
    let terrain = setup["terrain"].as_array().unwrap();
    assert_eq!(terrain.len(), 3, "{setup}");
    let buildings = setup["buildings"].as_array().unwrap();
    let names: Vec<&str> = buildings
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Town Hall", "Temple"],
        "the Town Hall first: {setup}"
    );
    assert_eq!(buildings[0]["integrity"], 10, "{setup}");
    // The scenario's length: five waves at most.
    assert!(summary["waves"].as_array().unwrap().len() <= 5, "{summary}");
    // By file.
    let file = dir.join("scenarios/crossroads.toml");
    support::ok(&[
        "play",
        "--auto",
        "--scenario",
        file.to_str().unwrap(),
        "--length",
        "intro",
    ]);
    // Drawn.
    let svg = dir.join("t.svg");
    support::ok(&[
        "render",
        "--svg",
        svg.to_str().unwrap(),
        "--scenario",
        "crossroads",
        "--mod",
        m,
    ]);
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains("Town Hall") && drawn.contains("Temple") && !drawn.contains("Forge"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--scenario rulebook` is the game without `--scenario`: the same sim report and the same log.
#[test]
fn the_rulebook_scenario_is_todays_game() {
    let dir = support::temp("scenario-files", "rulebook");
    let strip = |out: std::process::Output| {
        let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
        for k in ["seconds", "games_per_sec"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    let plain = strip(support::ok(&[
        "sim", "--games", "4", "--length", "intro", "--json",
    ]));
    let named = strip(support::ok(&[
        "sim",
        "--games",
        "4",
        "--length",
        "intro",
        "--json",
        "--scenario",
        "rulebook",
    ]));
    assert_eq!(plain, named);
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    support::ok(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--log",
        a.to_str().unwrap(),
    ]);
    support::ok(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--scenario",
        "rulebook",
        "--log",
        b.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(&a).unwrap(),
        std::fs::read_to_string(&b).unwrap()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Records and shards keep the scenario: `replay --verify` plays it again, `merge` refuses two.
#[test]
fn records_and_shards_keep_the_scenario() {
    let dir = scenario_mod("records", "crossroads", CROSSROADS);
    let m = dir.to_str().unwrap();
    let rec = dir.join("rec");
    support::ok(&[
        "sim",
        "--games",
        "1",
        "--scenario",
        "crossroads",
        "--mod",
        m,
        "--record",
        rec.to_str().unwrap(),
    ]);
    let game = rec.join("game-0.json");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&game).unwrap()).unwrap();
    assert_eq!(r["scenario"], "crossroads");
    assert_eq!(r["length"], "intro");
    let verify = text(&support::ok(&[
        "replay",
        "--verify",
        game.to_str().unwrap(),
        "--mod",
        m,
    ]));
    assert!(verify.contains("the log is the recorded one"), "{verify}");
    let shard = |scenario: &str, k: &str| {
        let out = dir.join(format!("{scenario}-{k}.json"));
        support::ok(&[
            "sim",
            "--games",
            "2",
            "--length",
            "intro",
            "--scenario",
            scenario,
            "--mod",
            m,
            "--shard",
            &format!("{k}/2"),
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let (a, b) = (shard("crossroads", "1"), shard("rulebook", "2"));
    let merged = support::run(&["merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(
        !merged.status.success() && text(&merged).contains("--scenario"),
        "{}",
        text(&merged)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unknown_scenario_is_refused_with_the_closest_name() {
    let dir = scenario_mod("unknown", "crossroads", CROSSROADS);
    let m = dir.to_str().unwrap();
    for args in [
        &["play", "--auto", "--scenario", "crosroads", "--mod", m][..],
        &["sim", "--games", "1", "--scenario", "crosroads", "--mod", m],
        &[
            "render",
            "--svg",
            "-",
            "--scenario",
            "crosroads",
            "--mod",
            m,
        ],
    ] {
        let out = support::run(args);
        let said = text(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            said.contains("unknown scenario \"crosroads\"") && said.contains("\"crossroads\""),
            "{args:?}: {said}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Bad scenarios are refused at file, field and line, by `village check` and by the commands that
/// would play them.
#[test]
fn bad_scenarios_are_refused_at_file_field_and_line() {
    let head = "# a bad scenario\nname = \"bad\"\ndescription = \"x\"\n";
    let table = "[table]\nwidth = 30.0\nheight = 30.0\n";
    let th = "[[buildings]]\nname = \"Town Hall\"\nx = 15.0\ny = 15.0\n";
    let cases: Vec<(String, &str, &str)> = vec![
        (format!("{head}lenght = \"intro\"\n"), "lenght", "unknown field"),
        (format!("{head}length = \"sige\"\n"), "length", "did you mean \"siege\""),
        (format!("{head}preset = \"stroy\"\n"), "preset", "did you mean \"story\""),
        (format!("{head}{th}"), "buildings", "give [table] too"),
        (format!("{head}[table]\nwidth = 300.0\nheight = 30.0\n"), "table.width", "outside the valid range"),
        (
            format!("{head}{table}[[table.terrain]]\nkind = \"wood\"\narea = [[1.0, 1.0], [40.0, 1.0], [1.0, 5.0]]\n{th}"),
            "table.terrain[0].area",
            "off the",
        ),
        (
            format!("{head}{table}[[table.terrain]]\nkind = \"wood\"\narea = [[1.0, 1.0], [5.0, 5.0], [5.0, 1.0], [1.0, 5.0]]\n{th}"),
            "table.terrain[0].area",
            "not convex",
        ),
        (
            format!("{head}{table}[[table.terrain]]\nkind = \"wall\"\narea = [[1.0, 1.0], [5.0, 1.0], [5.0, 5.0]]\n{th}"),
            "table.terrain[0]",
            "is a line",
        ),
        (
            format!("{head}{table}{th}[[buildings]]\nname = \"Forje\"\nx = 5.0\ny = 5.0\n"),
            "buildings[1].name",
            "did you mean \"Forge\"",
        ),
        (
            format!("{head}{table}{th}[[buildings]]\nname = \"Forge\"\nx = 16.0\ny = 15.0\n"),
            "buildings[1]",
            "overlaps the Town Hall",
        ),
        (
            format!("{head}{table}{th}[[buildings]]\nname = \"Forge\"\nx = 29.0\ny = 15.0\n"),
            "buildings[1]",
            "not wholly on the table",
        ),
        (
            format!("{head}{table}[[buildings]]\nname = \"Forge\"\nx = 5.0\ny = 5.0\n"),
            "buildings",
            "the Town Hall must stand",
        ),
        (
            format!("{head}{table}[[table.terrain]]\nkind = \"pond\"\narea = [[0.0, 10.0], [30.0, 10.0], [30.0, 11.0], [0.0, 11.0]]\n{th}"),
            "table",
            "from the south edge",
        ),
    ];
    for (body, field, want) in cases {
        let dir = scenario_mod("bad", "bad", &body);
        support::assert_scenario_refused(&dir, &body, field, want);
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// The REPL plays a scenario (`village repl --scenario`, `:new --scenario`), `:scenario` says what the
/// game was made of, and a save keeps it.
#[test]
fn the_repl_shows_the_scenario_in_play_and_a_save_keeps_it() {
    let dir = scenario_mod("repl", "crossroads", CROSSROADS);
    let m = dir.to_str().unwrap();
    let save = dir.join("g.json");
    let mut cmd = support::command();
    cmd.args(["repl", "--scenario", "crossroads", "--mod", m]);
    let input = format!(
        ":scenario\nprint(game.scenario, game.length)\n:save {0}\n:new\n:scenario\n:load {0}\nprint(game.scenario, game:building(\"Town Hall\").integrity)\n",
        save.display()
    );
    let out = text(&support::piped(cmd, &input));
    assert!(
        out.contains("scenario crossroads (") && out.contains("A hamlet at a crossroads"),
        "{out}"
    );
    assert!(
        out.contains("length intro, preset rulebook, variants none, policy default"),
        "{out}"
    );
    assert!(out.contains("crossroads\tintro"), "{out}");
    assert!(
        out.contains("scenario rulebook (scenarios/rulebook.toml)"),
        "{out}"
    );
    assert!(out.contains("crossroads\t10"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `table_seed` makes the rulebook's generated table from a seed of its own — the same table whatever
/// the game's seed — and `supplies` the village's starting Supplies.
#[test]
fn a_table_seed_fixes_the_generated_table_and_supplies_start_the_village() {
    let body = "name = \"fixed\"\ndescription = \"x\"\ntable_seed = 42\nsupplies = 7\n";
    let dir = scenario_mod("fixed", "fixed", body);
    let m = dir.to_str().unwrap();
    let setup = |seed: &str| {
        let log = dir.join(format!("g{seed}.jsonl"));
        support::ok(&[
            "play",
            "--auto",
            "--scenario",
            "fixed",
            "--mod",
            m,
            "--seed",
            seed,
            "--length",
            "intro",
            "--log",
            log.to_str().unwrap(),
        ]);
        setup_event(&log)
    };
    let (a, b) = (setup("1"), setup("2"));
    assert_eq!(
        a["terrain"], b["terrain"],
        "the same terrain for both seeds"
    );
    assert_eq!(a["buildings"], b["buildings"]);
    assert_eq!(a["supplies"], 7);
    // Without it, two seeds make two tables.
    let log = dir.join("plain.jsonl");
    support::ok(&[
        "play",
        "--auto",
        "--seed",
        "2",
        "--length",
        "intro",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_ne!(setup_event(&log)["terrain"], a["terrain"]);
    // Both at once is refused.
    let both = scenario_mod(
        "both",
        "both",
        "name = \"both\"\ndescription = \"x\"\ntable_seed = 1\n[table]\nwidth = 30.0\nheight = 30.0\n",
    );
    let out = support::run(&["check", "--mod", both.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("give it or [table], not both"),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&both).ok();
}

/// A scenario given by path is part of what a record was played with: `replay --verify` names it when
/// it changed since.
#[test]
fn a_record_of_a_scenario_file_names_it_when_it_changed() {
    let dir = support::temp("scenario-files", "fingerprint");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("crossroads.toml");
    std::fs::write(&file, CROSSROADS).unwrap();
    let rec = dir.join("rec");
    support::ok(&[
        "sim",
        "--games",
        "1",
        "--scenario",
        file.to_str().unwrap(),
        "--record",
        rec.to_str().unwrap(),
    ]);
    let game = rec.join("game-0.json");
    let verify = |changed: bool| {
        let said = text(&support::run(&[
            "replay",
            "--verify",
            game.to_str().unwrap(),
        ]));
        assert_eq!(said.contains("crossroads.toml changed"), changed, "{said}");
    };
    verify(false);
    std::fs::write(&file, CROSSROADS.replace("integrity = 10", "integrity = 9")).unwrap();
    verify(true);
    std::fs::remove_dir_all(&dir).ok();
}
