//! The log is the whole game (issue 37): a game's log alone holds the table (`setup`, event 0), the
//! clock (`round`, `turn`), every model's facts where it comes on (`placed`: profile, side, base — a
//! hero where it is deployed, never before, SUPPLEMENT §11), every token's shape, and the Supplies
//! gained at each wave's end. Each test reads logs as `village play --log` writes them, or games the
//! library makes, and checks them against the game.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use village::roster::Rosters;
use village::state::{self, EventKind, TableKind};

mod support;

fn rosters() -> Rosters {
    Rosters::load(&[Rosters::builtin_root()]).expect("built-in rosters load")
}

/// `village play --auto` of one game, its log's lines (decision lines left out) and its JSON summary.
fn played(name: &str, length: &str, seed: &str, heroes: &str) -> (Vec<Value>, Value) {
    let dir = support::temp("log-whole", name);
    let log = dir.join("log.jsonl");
    let out = support::ok(&[
        "play",
        "--auto",
        "--json",
        "--length",
        length,
        "--seed",
        seed,
        "--heroes",
        heroes,
        "--log",
        log.to_str().unwrap(),
    ]);
    let summary: Value = serde_json::from_slice(&out.stdout).expect("a JSON summary");
    let lines = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["event"] != "decision")
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    (lines, summary)
}

/// The first standard game with FOUR, from seed 1 on, whose log and summary `wanted` accepts (so a
/// change of play moves the test to another seed rather than breaking it): its seed, log and summary.
fn first_game(name: &str, wanted: impl Fn(&[Value], &Value) -> bool) -> (u64, Vec<Value>, Value) {
    for seed in 1..=60u64 {
        let (log, summary) = played(name, "standard", &seed.to_string(), FOUR);
        if wanted(&log, &summary) {
            return (seed, log, summary);
        }
    }
    panic!("no game of seeds 1 to 60 has what {name} looks for");
}

fn count(log: &[Value], event: &str) -> usize {
    log.iter().filter(|e| e["event"] == event).count()
}

const FOUR: &str = "Hedda the Hedge Witch,Grimm the Trapper,Wren the Scout,Bram the Smith";

fn pos(v: &Value) -> (f64, f64) {
    (v["x"].as_f64().unwrap(), v["y"].as_f64().unwrap())
}

/// Event 0 of a new game is `setup`, and it is the table: its size, each terrain piece's kind and
/// outline, each building's rectangle, Integrity, Level and flags, and the Supplies.
#[test]
fn setup_is_event_zero_and_holds_the_table() {
    let r = rosters();
    for kind in [TableKind::Empty, TableKind::Generated] {
        let g = state::new_game(&r, 7, kind);
        assert_eq!(g.log().len(), 1, "a new game has logged only its setup");
        let EventKind::Setup {
            width,
            height,
            terrain,
            buildings,
            tokens,
            supplies,
        } = &g.log()[0].kind
        else {
            panic!("event 0 is {:?}", g.log()[0]);
        };
        assert_eq!((*width, *height), (g.table.width, g.table.height));
        assert_eq!(terrain.len(), g.table.terrain.len());
        for (piece, t) in terrain.iter().zip(&g.table.terrain) {
            assert_eq!(piece.kind, t.kind);
            match (&piece.area, &piece.line) {
                (Some(area), None) => assert_eq!(Some(area), t.polygon().map(|p| &p.pts)),
                (None, Some([a, b])) => {
                    let s = t.segment().expect("a line is a linear piece");
                    assert_eq!((*a, *b), (s.a, s.b));
                }
                other => panic!("a piece is an area or a line: {other:?}"),
            }
        }
        assert_eq!(buildings.len(), g.buildings.len());
        for (facts, b) in buildings.iter().zip(&g.buildings) {
            assert_eq!(facts.name, b.name);
            assert_eq!((facts.min, facts.max), (b.rect.min, b.rect.max));
            assert_eq!(
                (facts.integrity, facts.max_integrity),
                (b.integrity, b.max_integrity)
            );
            assert_eq!(facts.level, b.level);
            assert_eq!((facts.town_hall, facts.economic), (b.town_hall, b.economic));
        }
        assert!(buildings.iter().filter(|b| b.town_hall).count() == 1);
        assert!(tokens.is_empty() && g.tokens.is_empty());
        assert_eq!(*supplies, g.supplies);
    }
    // A generated table has terrain of both shapes somewhere among a few seeds.
    let shapes: BTreeSet<bool> = (1..6)
        .flat_map(|seed| {
            let g = state::new_game(&r, seed, TableKind::Generated);
            let EventKind::Setup { terrain, .. } = g.log()[0].kind.clone() else {
                panic!("event 0 is setup");
            };
            terrain.into_iter().map(|t| t.line.is_some())
        })
        .collect();
    assert_eq!(shapes.len(), 2, "areas and lines both appear");
}

/// Every way a game is made logs its setup first: a played game's written log opens with it, and
/// a script's `village.new_game` (the REPL's `:new`, `village run`) too.
#[test]
fn every_game_opens_with_its_setup() {
    let (log, _) = played("opens", "intro", "5", "Captain Maren,Tobin the Marksman");
    assert_eq!(log[0]["event"], "setup");
    assert_eq!(log[0]["seq"], 0);
    assert_eq!(log.iter().filter(|e| e["event"] == "setup").count(), 1);
    let dir = support::temp("log-whole", "run");
    let script = dir.join("first.lua");
    std::fs::write(
        &script,
        "local g = village.new_game({ seed = 3, heroes = { \"Captain Maren\" } })\n\
         local first = g:log()[1]\n\
         print(first.event, #first.buildings, first.width == g:rules().table.width)\n",
    )
    .unwrap();
    let out = support::ok(&["run", script.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "setup\t5\ttrue"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// No hero is placed before it is deployed (SUPPLEMENT §11): the first event naming a hero is its
/// `placed` at the spot it is deployed to, with its profile, side and base, and a `deployed` from
/// nowhere to that spot follows at once. No model is ever placed inside a building. A Fled hero
/// that rejoins is `rejoined` with no position and then placed the same way.
#[test]
fn heroes_are_first_placed_where_they_deploy_and_rejoin_the_same_way() {
    // A game where a hero flees and rejoins for the next wave.
    let (seed, log, _) = first_game("heroes", |log, _| count(log, "rejoined") > 0);
    let EventKind::Setup { buildings, .. } = serde_json::from_value::<state::Event>(log[0].clone())
        .unwrap()
        .kind
    else {
        panic!("event 0 is setup");
    };
    let inside = |(x, y): (f64, f64)| {
        buildings
            .iter()
            .find(|b| b.min.x < x && x < b.max.x && b.min.y < y && y < b.max.y)
    };
    let heroes: BTreeSet<&str> = FOUR.split(',').collect();
    let mut seen = BTreeSet::new();
    let mut rejoins = 0;
    for (i, e) in log.iter().enumerate() {
        if e["event"] == "rejoined" {
            rejoins += 1;
            assert!(e.get("pos").is_none(), "{e}");
            seen.remove(&e["model"].as_u64().unwrap());
            continue;
        }
        if e["event"] == "placed" {
            let at = pos(&e["pos"]);
            assert!(inside(at).is_none(), "placed inside {:?}: {e}", inside(at));
            assert!(e["base"].as_f64().unwrap() > 0.0, "{e}");
            assert_eq!(e["profile"], e["name"], "{e}");
            let hero = heroes.contains(e["name"].as_str().unwrap());
            assert_eq!(
                e["side"] == "heroes",
                hero || e["name"].as_str().unwrap().starts_with("Village")
            );
            if hero {
                let next = &log[i + 1];
                assert_eq!(next["event"], "deployed", "{e} then {next}");
                assert_eq!(next["model"], e["model"]);
                assert!(next["from"].is_null(), "{next}");
                assert_eq!(pos(&next["to"]), at);
            }
            seen.insert(e["model"].as_u64().unwrap());
            continue;
        }
        // Any other event naming a model comes after its placement.
        for key in ["model", "attacker", "caster", "hero"] {
            if let Some(id) = e.get(key).and_then(Value::as_u64) {
                assert!(
                    seen.contains(&id),
                    "model {id} acts before it is placed: {e}"
                );
            }
        }
    }
    assert!(rejoins >= 1, "seed {seed} has a rejoining hero");
}

/// Every round of every wave is a `round` event, numbered from 1 without a gap, followed by the
/// heroes' `turn` and then the enemies' (a game lost mid-round stops there); each wave logs as many
/// rounds as its summary counts.
#[test]
fn rounds_and_turns_mark_the_clock() {
    for (name, length, seed) in [("clock1", "standard", "3"), ("clock2", "intro", "10857")] {
        let heroes = if seed == "10857" {
            "Hedda the Hedge Witch,Captain Maren"
        } else {
            FOUR
        };
        let (log, summary) = played(name, length, seed, heroes);
        let mut rounds: BTreeMap<u64, u64> = BTreeMap::new();
        let mut expect_turn: Option<(&str, u64, u64)> = None;
        for e in &log {
            match e["event"].as_str().unwrap() {
                "round" => {
                    let (w, r) = (e["wave"].as_u64().unwrap(), e["round"].as_u64().unwrap());
                    let last = rounds.entry(w).or_insert(0);
                    assert_eq!(r, *last + 1, "rounds of wave {w} in order: {e}");
                    *last = r;
                    expect_turn = Some(("heroes", w, r));
                }
                "turn" => {
                    let (side, w, r) = expect_turn.expect("a turn inside a round");
                    assert_eq!(
                        (
                            e["side"].as_str().unwrap(),
                            e["wave"].as_u64().unwrap(),
                            e["round"].as_u64().unwrap()
                        ),
                        (side, w, r),
                        "{e}"
                    );
                    expect_turn = (side == "heroes").then_some(("enemies", w, r));
                }
                _ => {}
            }
        }
        let waves = summary["waves"].as_array().unwrap();
        assert_eq!(rounds.len(), waves.len());
        for w in waves {
            let n = w["wave"].as_u64().unwrap();
            assert_eq!(rounds[&n], w["rounds"].as_u64().unwrap(), "wave {n}");
        }
    }
}

/// The Supplies can be followed from the log alone: the setup's, plus every `supplies_gained`
/// (each wave's End Sequence among them), less what each Council order paid, is what the summary
/// says the village held after each wave.
#[test]
fn the_supplies_follow_from_the_log() {
    let r = rosters();
    let per_wave = r.rules.wave.supplies_per_wave_number as i64;
    let won = |s: &Value| {
        (s["waves"].as_array().unwrap())
            .iter()
            .filter(|w| w["outcome"] == "win")
            .count()
    };
    let (_, log, summary) = first_game("supplies", |_, s| won(s) >= 3);
    let mut supplies = log[0]["supplies"].as_i64().unwrap();
    let mut wave_end = BTreeMap::new();
    let mut wave = 0;
    let mut after: BTreeMap<u64, i64> = BTreeMap::new();
    for e in &log {
        match e["event"].as_str().unwrap() {
            "round" => wave = e["wave"].as_u64().unwrap(),
            "supplies_gained" => {
                supplies += e["amount"].as_i64().unwrap();
                assert_eq!(e["supplies"].as_i64().unwrap(), supplies, "{e}");
                if e["source"].as_str().unwrap().starts_with("wave end") {
                    wave_end.insert(wave, e["amount"].as_i64().unwrap());
                }
            }
            "council" => supplies -= e["supplies"].as_i64().unwrap(),
            _ => {}
        }
        after.insert(wave, supplies);
    }
    let waves = summary["waves"].as_array().unwrap();
    for w in waves.iter().filter(|w| w["outcome"] == "win") {
        let n = w["wave"].as_u64().unwrap();
        assert_eq!(
            wave_end.get(&n),
            Some(&(n as i64 * per_wave)),
            "wave {n}'s End Sequence"
        );
        assert_eq!(
            after[&n],
            w["supplies"].as_i64().unwrap(),
            "Supplies after wave {n}"
        );
    }
}

/// Every token that comes onto the table says where it is and its shape: a Wall spell's ends and
/// Integrity (its length is the spell's), a Council Barricade's ends and Integrity, a Trap's radius.
#[test]
fn tokens_come_with_their_shape() {
    let r = rosters();
    // A game where Hedda raises a Thorn Wall, and one with a Council Barricade (and Grimm's free Traps).
    let (_, one, _) = first_game("walls", |log, _| count(log, "wall_raised") > 0);
    let (_, three, _) = first_game("barricade", |log, _| {
        log.iter()
            .any(|e| e["what"] == "barricade" && e.get("refused").is_none())
    });
    let mut walls = 0;
    let mut barricades = 0;
    let mut traps = 0;
    let len = |l: &Value| {
        let ((ax, ay), (bx, by)) = (pos(&l[0]), pos(&l[1]));
        (ax - bx).hypot(ay - by)
    };
    for e in one.iter().chain(&three) {
        match (e["event"].as_str().unwrap(), e["what"].as_str()) {
            ("wall_raised", _) => {
                walls += 1;
                let spell = r.spells.iter().find(|s| s.name == e["spell"]).unwrap();
                let wall = spell.wall.as_ref().unwrap();
                assert!((len(&e["line"]) - wall.length).abs() < 1e-9, "{e}");
                assert_eq!(e["integrity"].as_i64().unwrap(), wall.integrity as i64);
            }
            ("council", Some("barricade")) if e.get("refused").is_none() => {
                barricades += 1;
                assert!((len(&e["line"]) - r.barricade.length).abs() < 1e-9, "{e}");
                assert_eq!(pos(&e["line"][0]), pos(&e["pos"]));
                assert!(e["integrity"].as_i64().unwrap() >= r.barricade.integrity as i64);
            }
            ("council", Some("trap")) if e.get("refused").is_none() => {
                traps += 1;
                assert_eq!(e["radius"].as_f64().unwrap(), r.trap.trigger_radius, "{e}");
            }
            _ => {}
        }
    }
    assert!(
        walls >= 1 && barricades >= 1 && traps >= 1,
        "{walls} {barricades} {traps}"
    );
}

/// A token a script puts on the table (`g:trap`, `g:barricade`, `g:opportunity`) is logged
/// `token_placed` with its shape.
#[test]
fn a_scripts_tokens_are_logged_with_their_shape() {
    let dir = support::temp("log-whole", "tokens");
    let script = dir.join("tokens.lua");
    std::fs::write(
        &script,
        "local g = village.new_game({ seed = 1, table = \"empty\" })\n\
         g:trap({ x = 3, y = 3 }, { entangle = true })\n\
         g:barricade({ x = 2, y = 30 }, { x = 5, y = 30 })\n\
         g:opportunity({ x = 33, y = 3 })\n\
         print(g:log_json())\n",
    )
    .unwrap();
    let out = support::ok(&["run", script.to_str().unwrap()]);
    let log: Vec<Value> = serde_json::from_slice(&out.stdout).expect("the log as JSON");
    let placed: Vec<&Value> = log
        .iter()
        .filter(|e| e["event"] == "token_placed")
        .collect();
    assert_eq!(placed.len(), 3, "{log:?}");
    assert_eq!(placed[0]["kind"], "trap");
    assert_eq!(pos(&placed[0]["pos"]), (3.0, 3.0));
    assert_eq!(placed[0]["entangle"], true);
    assert!(placed[0]["radius"].as_f64().unwrap() > 0.0);
    assert_eq!(placed[1]["kind"], "barricade");
    assert_eq!(
        (pos(&placed[1]["line"][0]), pos(&placed[1]["line"][1])),
        ((2.0, 30.0), (5.0, 30.0))
    );
    assert!(placed[1]["integrity"].as_i64().unwrap() > 0);
    assert_eq!(placed[2]["kind"], "opportunity");
    assert_eq!(placed[2]["revealed"], false);
    let _ = std::fs::remove_dir_all(&dir);
}
