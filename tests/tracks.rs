//! Tracks (`rosters/tracks.toml`, `ctx:track`, `ctx:advance_track`) and the `threat_track` variant:
//! games it ends with its own cause, every change of the marker an event the audit follows, the
//! preset's starting space, the track on `:map`, in the SVG and in the viewer, a mod's own track and
//! preset, and bad tracks and bad track calls refused at file:line.

mod support;

use serde_json::Value;
use std::path::Path;

use support::said as text;

/// The events of a JSON-lines log.
fn events(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn threat_track_ends_games_with_its_own_cause() {
    let json: Value = serde_json::from_slice(
        &support::ok(&[
            "sim",
            "--games",
            "40",
            "--length",
            "intro",
            "--variant",
            "threat_track",
            "--json",
        ])
        .stdout,
    )
    .unwrap();
    let by_track = json["causes"]["threat_track"].as_u64().unwrap();
    assert!(by_track > 0, "{json}");
    // Without the variant no game ends so, and the cause is still reported (as 0).
    let plain: Value = serde_json::from_slice(
        &support::ok(&["sim", "--games", "5", "--length", "intro", "--json"]).stdout,
    )
    .unwrap();
    assert_eq!(plain["causes"]["threat_track"], 0);
}

/// A whole game's log: the track comes into play on 9, each move goes from where the marker stood by
/// what was asked, toward the village, a Destroyed building's turn moves it one more; the game ends
/// where the marker reaches 0, with that cause in `play --json`; `village audit` finds no breach.
#[test]
fn every_move_of_the_marker_is_an_event_and_the_game_ends_at_the_village() {
    let dir = support::temp("tracks", "log");
    let log = dir.join("game.jsonl");
    let out = support::ok(&[
        "play",
        "--auto",
        "--variant",
        "threat_track",
        "--seed",
        "1",
        "--json",
        "--log",
        log.to_str().unwrap(),
    ]);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["cause"], "threat_track", "{summary}");
    let evs = events(&log);
    let set: Vec<&Value> = evs.iter().filter(|e| e["event"] == "track_set").collect();
    assert_eq!(set.len(), 1);
    assert_eq!(set[0]["track"], "threat");
    assert_eq!(set[0]["value"], 9);
    assert_eq!(set[0]["loses_at"], 0);
    let mut at = 9;
    let mut moves = 0;
    for e in evs.iter().filter(|e| e["event"] == "track_moved") {
        let (from, to, by) = (
            e["from"].as_i64().unwrap(),
            e["to"].as_i64().unwrap(),
            e["by"].as_i64().unwrap(),
        );
        assert_eq!(from, at, "{e}");
        assert_eq!(to, (from + by).clamp(0, 12), "{e}");
        assert!(by < 0, "toward the village: {e}");
        assert_eq!(e["source"], "scripts/variants/threat_track.lua");
        at = to;
        moves += 1;
    }
    assert_eq!(at, 0, "the game ended with the marker at the village");
    assert!(moves >= 5, "{moves} moves");
    // Each move follows a D6 rolled for it.
    let rolls = evs
        .iter()
        .filter(|e| e["event"] == "roll" && e["purpose"] == "threat marker")
        .count();
    assert!(rolls >= moves, "{rolls} rolls, {moves} moves");
    // Nothing is played after the marker reaches the village.
    let last_move = evs
        .iter()
        .rposition(|e| e["event"] == "track_moved")
        .unwrap();
    assert!(
        !evs[last_move..]
            .iter()
            .any(|e| e["event"] == "activation" || e["event"] == "combat"),
        "play after the end"
    );
    let audit = support::run(&["audit", log.to_str().unwrap()]);
    assert!(audit.status.success(), "{}", text(&audit));
    std::fs::remove_dir_all(&dir).ok();
}

/// The audit follows the marker: a log whose move does not follow from where it stood is a breach.
#[test]
fn the_audit_catches_a_marker_that_jumps() {
    let dir = support::temp("tracks", "audit");
    let log = dir.join("game.jsonl");
    support::ok(&[
        "play",
        "--auto",
        "--variant",
        "threat_track",
        "--seed",
        "3",
        "--log",
        log.to_str().unwrap(),
    ]);
    let text_log = std::fs::read_to_string(&log).unwrap();
    let first = text_log
        .lines()
        .position(|l| l.contains("\"event\":\"track_moved\""))
        .unwrap();
    let bent: Vec<String> = text_log
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == first {
                let mut v: Value = serde_json::from_str(l).unwrap();
                v["to"] = Value::from(v["to"].as_i64().unwrap() - 3);
                v.to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, bent.join("\n") + "\n").unwrap();
    let out = support::run(&["audit", bad.to_str().unwrap()]);
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("track"), "{said}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A preset sets where the marker starts (story: 11), and the track shows on `:map` and in the SVG.
#[test]
fn the_preset_starts_the_marker_and_the_pictures_show_it() {
    let dir = support::temp("tracks", "pictures");
    let script = dir.join("t.lua");
    std::fs::write(
        &script,
        r#"local g = village.new_game({ preset = "story", variants = { "threat_track" }, heroes = { "Captain Maren", "Sister Ilse" } })
print("story", g.tracks.threat)
local r = village.new_game({ variants = { "threat_track" }, heroes = { "Captain Maren", "Sister Ilse" } })
print("rulebook", r.tracks.threat)
local p = village.new_game({ heroes = { "Captain Maren", "Sister Ilse" } })
print("none", next(p.tracks))"#,
    )
    .unwrap();
    let out = text(&support::ok(&["run", script.to_str().unwrap()]));
    assert!(out.contains("story\t11"), "{out}");
    assert!(out.contains("rulebook\t9"), "{out}");
    assert!(out.contains("none\tnil"), "{out}");
    // :map in the REPL.
    let mut cmd = support::command();
    cmd.args(["repl", "--variant", "threat_track", "--preset", "story"]);
    let map = text(&support::piped(cmd, ":map\n"));
    assert!(
        map.contains(
            "Tracks:\n  threat: 11 of 0–12, the game is lost at 0 — 0 1 2 3 4 5 6 7 8 9 10 [11] 12"
        ),
        "{map}"
    );
    // The SVG of a new game, and none for a game without a track.
    let svg = dir.join("t.svg");
    support::ok(&[
        "render",
        "--svg",
        svg.to_str().unwrap(),
        "--variant",
        "threat_track",
    ]);
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.contains(r#"<g class="track"><title>threat: 9 of 0–12"#),
        "{drawn}"
    );
    support::ok(&["render", "--svg", svg.to_str().unwrap()]);
    assert!(!std::fs::read_to_string(&svg)
        .unwrap()
        .contains("class=\"track\""));
    std::fs::remove_dir_all(&dir).ok();
}

/// The viewer's page carries each track event's space, which its heading shows.
#[test]
fn the_viewer_shows_the_track() {
    let dir = support::temp("tracks", "viewer");
    let page = dir.join("game.html");
    support::ok(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--variant",
        "threat_track",
        "--html",
        page.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(r#""track":["threat",9]"#),
        "track_set in the page"
    );
    assert!(html.contains("function tracksAt"), "the page reads them");
    std::fs::remove_dir_all(&dir).ok();
}

/// A mod adds a track of its own (a doom clock counting up), a variant that moves it each enemy turn,
/// and a preset that starts it further on: the games end by it, at its losing space.
#[test]
fn a_mod_adds_a_track_a_variant_and_a_preset() {
    let dir = support::temp("tracks", "mod");
    std::fs::create_dir_all(dir.join("rosters")).unwrap();
    std::fs::create_dir_all(dir.join("scripts/variants")).unwrap();
    std::fs::write(
        dir.join("rosters/tracks.toml"),
        "[[track]]\nname = \"doom\"\ndescription = \"The doom clock.\"\nmin = 0\nmax = 6\nstart = 0\nloses_at = 6\nparams = { step = 1 }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("rosters/presets.toml"),
        "[[preset]]\nname = \"doomed\"\ndescription = \"The clock is already ticking.\"\nvariants = [\"doom_clock\"]\ntracks = { doom = 3 }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("scripts/variants/doom_clock.lua"),
        r#"return {
	name = "Doom clock",
	description = "The doom clock ticks each enemy turn.",
	tracks = { "doom" },
	on_enemy_turn_end = function(ctx, turn)
		ctx:advance_track("doom", ctx:track_info("doom").params.step, "tick")
	end,
}
"#,
    )
    .unwrap();
    let m = dir.to_str().unwrap();
    let listed = text(&support::ok(&["presets", "--mod", m]));
    assert!(
        listed.contains("variant doom_clock")
            && listed.contains("doom track starts at 3 (rules: 0)"),
        "{listed}"
    );
    let log = dir.join("game.jsonl");
    let out = support::ok(&[
        "play",
        "--auto",
        "--preset",
        "doomed",
        "--mod",
        m,
        "--json",
        "--log",
        log.to_str().unwrap(),
    ]);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["cause"], "threat_track", "{summary}");
    let moves: Vec<(i64, i64)> = events(&log)
        .iter()
        .filter(|e| e["event"] == "track_moved")
        .map(|e| (e["from"].as_i64().unwrap(), e["to"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        moves,
        [(3, 4), (4, 5), (5, 6)],
        "three enemy turns from 3 to 6"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A mod folder with `files` (path, text), checked: the lines of `village check` that name `file`.
fn check(name: &str, files: &[(&str, &str)], file: &str) -> Vec<String> {
    let dir = support::temp("tracks", name);
    for (path, body) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
    let out = support::run(&["check", "--mod", dir.to_str().unwrap()]);
    let said = text(&out);
    assert!(!out.status.success(), "{name}: refused:\n{said}");
    std::fs::remove_dir_all(&dir).ok();
    said.lines()
        .filter(|l| l.contains(file))
        .map(String::from)
        .collect()
}

#[test]
fn bad_tracks_are_refused_at_file_and_line() {
    let head = "# a bad track\n[[track]]\nname = \"bad\"\ndescription = \"x\"\n";
    for (body, field) in [
        ("min = 5\nmax = 1\nstart = 1\n", "min"),
        ("min = 0\nmax = 5\nstart = 9\n", "start"),
        ("min = 0\nmax = 5\nstart = 1\nloses_at = 7\n", "loses_at"),
        ("min = 0\nmax = 5000\nstart = 1\n", "max"),
        ("min = 0\nmax = 5\nstart = 1\nlose_at = 0\n", "lose_at"),
    ] {
        let lines = check(
            "bad-track",
            &[("rosters/tracks.toml", &format!("{head}{body}"))],
            "tracks.toml",
        );
        let line = lines
            .iter()
            .find(|l| l.contains(field))
            .unwrap_or_else(|| panic!("{body}: {lines:?}"));
        assert!(line.contains("entry \"bad\""), "{line}");
        assert!(line.contains("(line "), "{line}");
    }
    // A preset's starting space: a track the rosters lack, or off the track.
    for (body, want) in [
        ("tracks = { thret = 3 }", "did you mean \"threat\""),
        ("tracks = { threat = 20 }", "off the threat track"),
    ] {
        let lines = check(
            "bad-preset-track",
            &[(
                "rosters/presets.toml",
                &format!("[[preset]]\nname = \"p\"\ndescription = \"x\"\n{body}\n"),
            )],
            "presets.toml",
        );
        let line = lines
            .iter()
            .find(|l| l.contains(want))
            .unwrap_or_else(|| panic!("{body}: {lines:?}"));
        assert!(line.contains("(line 4)"), "{line}");
    }
}

/// Bad track calls in a script are refused where they are written, and the game goes on.
#[test]
fn bad_track_calls_are_refused_at_file_and_line() {
    let dir = support::temp("tracks", "calls");
    std::fs::create_dir_all(dir.join("scripts/variants")).unwrap();
    let variant = |name: &str, body: &str| {
        std::fs::write(dir.join(format!("scripts/variants/{name}.lua")), body).unwrap();
    };
    variant(
        "reads_nothing",
        "return {\n\tname = \"x\",\n\ton_enemy_turn_end = function(ctx, turn)\n\t\treturn ctx:track(\"threat\")\n\tend,\n}\n",
    );
    variant(
        "moves_by_text",
        "return {\n\tname = \"x\",\n\ttracks = { \"threat\" },\n\ton_enemy_turn_end = function(ctx, turn)\n\t\tctx:advance_track(\"threat\", \"far\")\n\tend,\n}\n",
    );
    variant(
        "unknown_track",
        "return {\n\tname = \"x\",\n\ttracks = { \"thret\" },\n}\n",
    );
    let m = dir.to_str().unwrap();
    let play = |v: &str| {
        let out = support::run(&[
            "play",
            "--auto",
            "--length",
            "intro",
            "--variant",
            v,
            "--mod",
            m,
        ]);
        assert!(!out.status.success(), "{v}: refused");
        text(&out)
    };
    let said = play("reads_nothing");
    assert!(
        said.contains("reads_nothing.lua:4") && said.contains("\"threat\" track is not in play"),
        "{said}"
    );
    let said = play("moves_by_text");
    assert!(said.contains("moves_by_text.lua:5"), "{said}");
    let said = play("unknown_track");
    assert!(
        said.contains("unknown_track.lua:3: tracks: unknown track \"thret\"")
            && said.contains("did you mean \"threat\""),
        "{said}"
    );
    // `village check` refuses the unknown track too, enabled or not.
    let checked = text(&support::run(&["check", "--mod", m]));
    assert!(
        checked.contains("unknown_track.lua:3: tracks: unknown track \"thret\""),
        "{checked}"
    );
    // A value of the wrong kind is refused when the scripts load (`village check`).
    let other = support::temp("tracks", "calls-load");
    std::fs::create_dir_all(other.join("scripts/variants")).unwrap();
    std::fs::write(
        other.join("scripts/variants/tracks_not_a_table.lua"),
        "return {\n\tname = \"x\",\n\ttracks = \"threat\",\n}\n",
    )
    .unwrap();
    let checked = support::run(&["check", "--mod", other.to_str().unwrap()]);
    let said = text(&checked);
    assert!(
        !checked.status.success()
            && said.contains("tracks_not_a_table.lua: tracks must be a table"),
        "{said}"
    );
    std::fs::remove_dir_all(&other).ok();
    std::fs::remove_dir_all(&dir).ok();
}
