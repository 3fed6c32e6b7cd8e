//! Why the AI did what it did: the scripts' decisions (a Behaviour's target, objective and action; the
//! hero policy's activation, order and Council purchases) are kept where a log is, change nothing in
//! the game, name real events and real script lines, are written into `play --log` just before the
//! events they led to, and are shown by `:why`, `g:why` and `sim --decisions`.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use village::roster::Rosters;
use village::script::{Limits, Played, ScriptHost};
use village::state::Decides;

mod support;
use support::{ok, piped, temp};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn play(seed: u64, length: &str, heroes: &[&str], explain: bool) -> Played {
    let layers = [Rosters::builtin_root()];
    let host = ScriptHost::open(&layers, Limits::default(), seed).expect("the host opens");
    let heroes: Vec<String> = heroes.iter().map(|h| h.to_string()).collect();
    let new = village::script::repl::NewGame {
        seed,
        length: length.to_string(),
        heroes,
        preset: village::roster::DEFAULT_PRESET.to_string(),
        scenario: village::scenario::DEFAULT_SCENARIO.to_string(),
        variants: Vec::new(),
        policy: "default".to_string(),
    };
    host.play_keeping_log(&new, "generated", explain)
        .unwrap_or_else(|f| panic!("seed {seed}: {}", f.error))
}

/// The same game is played with and without decisions: the same events, byte for byte, and the same
/// summary; with them, every kind of decision is made over a few games.
#[test]
fn decisions_change_nothing_in_the_game() {
    let mut kinds = BTreeSet::new();
    let parties: [&[&str]; 2] = [
        &support::PARTY,
        &[
            "Hedda the Hedge Witch",
            "Sir Roland",
            "Wren the Scout",
            "Grimm the Trapper",
        ],
    ];
    for (seed, length, heroes) in [
        (3, "standard", parties[0]),
        (11, "intro", parties[1]),
        (21, "standard", parties[1]),
    ] {
        let plain = play(seed, length, heroes, false);
        let explained = play(seed, length, heroes, true);
        assert!(plain.decisions.is_empty(), "no decisions kept unless asked");
        assert!(!explained.decisions.is_empty(), "seed {seed}: none kept");
        assert_eq!(
            serde_json::to_string(&plain.events).unwrap(),
            serde_json::to_string(&explained.events).unwrap(),
            "seed {seed}: explaining changed the game"
        );
        assert_eq!(
            serde_json::to_value(&plain.summary).unwrap(),
            serde_json::to_value(&explained.summary).unwrap()
        );
        kinds.extend(explained.decisions.iter().map(|d| d.decides));
    }
    for k in [
        Decides::Target,
        Decides::Objective,
        Decides::Action,
        Decides::Activation,
        Decides::Order,
        Decides::Council,
    ] {
        assert!(kinds.contains(&k), "no {k:?} decision in three games");
    }
}

/// Every decision names events of its game in order, a script that exists and a line of it; a
/// Behaviour's target that the priority library explained names the line of the Behaviour that
/// asked for it, and its candidates with their distances; the policy's reasons said in a library
/// name that library's line too.
#[test]
fn every_decision_names_real_events_and_a_real_line() {
    let mut hunter_targets = 0;
    let mut said_in_tactics = 0;
    // Seed 4's waves have Hunters (seed 5's have none: two games, so the test does not lean on one).
    for seed in [4, 5] {
        let p = play(seed, "standard", &support::PARTY, true);
        check_decisions(&p, &mut hunter_targets, &mut said_in_tactics);
    }
    assert!(hunter_targets > 0, "no explained Hunter target");
    assert!(
        said_in_tactics > 0,
        "no reason said in scripts/lib/tactics.lua"
    );
}

fn check_decisions(p: &Played, hunter_targets: &mut u32, said_in_tactics: &mut u32) {
    let n = p.events.len() as u64;
    let mut last_at = 0;
    for d in &p.decisions {
        assert!(d.at >= last_at, "decisions in order: {d:?}");
        last_at = d.at;
        let until = d.until.unwrap_or(n);
        assert!(d.at <= until && until <= n, "{d:?} of {n} events");
        let file = root().join(&d.script);
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{d:?}: {e}"));
        let line = text
            .lines()
            .nth(d.line as usize - 1)
            .unwrap_or_else(|| panic!("{d:?}: line {} past the end", d.line));
        if d.by == "Hunter" && d.decides == Decides::Target && !d.candidates.is_empty() {
            *hunter_targets += 1;
            // The Hunter's target is its declared steps, followed by `P.declared` (the kernel
            // follows them itself only where no decision is explained).
            assert!(
                line.contains("P.declared"),
                "{}:{}: {line}",
                d.script,
                d.line
            );
            assert!(
                d.reason.as_deref().unwrap_or("").contains("nearest"),
                "{d:?}"
            );
            assert!(d.candidates.iter().all(|c| c.score.is_some()), "{d:?}");
            // The chosen hero is among those at the smallest distance.
            let best = d
                .candidates
                .iter()
                .filter_map(|c| c.score)
                .fold(f64::INFINITY, f64::min);
            assert!(
                d.candidates
                    .iter()
                    .any(|c| c.name == d.chose && c.score.unwrap() <= best + 1e-6),
                "{d:?}"
            );
        }
        if let Some(at) = &d.said {
            let (file, l) = at.rsplit_once(':').expect("file:line");
            let l: usize = l.parse().expect("a line number");
            let text = std::fs::read_to_string(root().join(file)).expect("the file said exists");
            assert!(text
                .lines()
                .nth(l - 1)
                .is_some_and(|t| t.contains("ctx:why")));
            if file.ends_with("lib/tactics.lua") {
                *said_in_tactics += 1;
            }
        }
    }
}

/// `play --log` writes each decision as a `decision` event just before the first event it led to:
/// the other lines are the events, numbered 0, 1, 2 ... without a gap.
#[test]
fn the_written_log_puts_each_decision_before_the_events_it_led_to() {
    let dir = temp("decisions", "log");
    let log = dir.join("game.jsonl");
    ok(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--seed",
        "7",
        "--log",
        log.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut next_seq = 0;
    let mut decisions = 0;
    for (i, v) in lines.iter().enumerate() {
        if v["event"] == "decision" {
            decisions += 1;
            let at = v["at"].as_u64().expect("at");
            assert_eq!(at, next_seq, "line {i}: a decision just before event #{at}");
            for k in ["by", "decides", "chose", "script", "line"] {
                assert!(!v[k].is_null(), "line {i} has no {k}: {v}");
            }
        } else {
            assert_eq!(v["seq"].as_u64(), Some(next_seq), "line {i}");
            next_seq += 1;
        }
    }
    assert!(decisions > 50, "only {decisions} decisions");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `:why #N` in the REPL shows the decisions behind an enemy's move with the Behaviour, its reason,
/// the candidates and the script line; `g:why` returns the same as data; an event of the rules' own
/// says so.
#[test]
fn why_shows_the_decision_behind_an_event() {
    // Find an enemy's move through `g:why` in Lua (each REPL line is a chunk: globals carry over).
    let script = r#"
game:play_wave()
move = nil
for _, e in ipairs(game:log()) do
  if e.event == "moved" and not move then
    local why = game:why(e.seq)
    if #why > 0 and why[1].decides == "target" then move = e.seq end
  end
end
assert(move, "an enemy move with a target decision")
w = game:why(move)
assert(w[2].decides == "action", w[2].decides)
print("MOVE " .. move)
print("FIRST " .. w[1].by .. " " .. w[1].script .. ":" .. w[1].line)
"#;
    let out = piped(
        {
            let mut c = support::command();
            c.args(["repl", "--length", "intro", "--seed", "4"]);
            c
        },
        &format!("{}\n", script.trim()),
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    let seq: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("MOVE "))
        .unwrap_or_else(|| panic!("{text}"))
        .trim()
        .parse()
        .unwrap();
    let first = text
        .lines()
        .find_map(|l| l.strip_prefix("FIRST "))
        .unwrap()
        .to_string();
    assert!(first.contains("scripts/behaviours/"), "{first}");

    let out = piped(
        {
            let mut c = support::command();
            c.args(["repl", "--length", "intro", "--seed", "4"]);
            c
        },
        &format!("game:play_wave()\n:why #{seq}\n:why #0\n:why #999999\n"),
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let why = text
        .split("> :why #")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    assert!(why.contains("decided by:"), "{why}");
    assert!(why.contains("chose its target:"), "{why}");
    assert!(why.contains("chose its action:"), "{why}");
    assert!(why.contains("— "), "a reason: {why}");
    assert!(
        why.contains("[scripts/behaviours/"),
        "the script and line: {why}"
    );
    assert!(why.contains("which led to:"), "{why}");
    assert!(why.contains(&format!("#{seq} ")), "{why}");
    // Event #0 (a building placed at setup) is the rules' own.
    let zero = text.split("> :why #0").nth(1).unwrap();
    assert!(zero.contains("no script decided it"), "{zero}");
    let past = text.split("> :why #999999").nth(1).unwrap();
    assert!(past.contains("there is no event #999999"), "{past}");
    assert!(
        !out.status.success(),
        "the session reports the failed command"
    );
}

/// `sim --decisions` counts the decisions by who decided and script; without it the report has no
/// such table, and the rest of the report is the same either way.
#[test]
fn sim_counts_decisions_only_when_asked_and_plays_the_same_games() {
    let args = [
        "sim", "--games", "6", "--seed", "2", "--jobs", "2", "--json",
    ];
    let plain: Value = serde_json::from_slice(&ok(&args).stdout).unwrap();
    let mut with = args.to_vec();
    with.push("--decisions");
    let mut counted: Value = serde_json::from_slice(&ok(&with).stdout).unwrap();
    assert!(plain.get("decisions").is_none(), "{plain}");
    let by: BTreeMap<String, u64> =
        serde_json::from_value(counted["decisions"].clone()).expect("decisions counted");
    assert!(
        by.keys()
            .any(|k| k.starts_with("Hunter: scripts/behaviours/hunter.lua")),
        "{by:?}"
    );
    assert!(
        by.keys().any(|k| k.starts_with("policy default:")),
        "{by:?}"
    );
    assert!(by.values().all(|&n| n > 0));
    let strip = |v: &mut Value| {
        let o = v.as_object_mut().unwrap();
        for k in ["decisions", "decision_games", "games_per_sec", "seconds"] {
            o.remove(k);
        }
    };
    let mut plain = plain;
    strip(&mut plain);
    strip(&mut counted);
    assert_eq!(plain, counted);
    // The text report prints the table.
    let text =
        String::from_utf8_lossy(&ok(&["sim", "--games", "2", "--seed", "2", "--decisions"]).stdout)
            .to_string();
    assert!(
        text.contains("Decisions, by who decided and script"),
        "{text}"
    );
}

/// A mod's Behaviour explains itself: its `ctx:why` candidates and scores, its returned reason and
/// the line it said it from are kept; a second value that is no string is its error, naming the
/// script.
#[test]
fn a_mod_behaviour_explains_itself_and_a_bad_reason_is_its_error() {
    let dir = temp("decisions", "mod");
    let m = dir.join("mymod");
    std::fs::create_dir_all(m.join("rosters")).unwrap();
    std::fs::create_dir_all(m.join("scripts/behaviours")).unwrap();
    std::fs::write(
        m.join("rosters/behaviours.toml"),
        r#"[[behaviour]]
name = "Coward"
script = "behaviours/coward.lua"
order = 7
max_actions = 3
turnover = true
ranged_attacks = true
voluntary_disengage = true
target = "The farthest hero."
melee = "Only when cornered."
fallback = "None."
limits = "None."
"#,
    )
    .unwrap();
    std::fs::write(
        m.join("rosters/bestiary.toml"),
        r#"[[enemy]]
name = "Craven Goblin"
tier = "mob"
quality = 4
combat = 2
behaviours = ["Coward"]
"#,
    )
    .unwrap();
    std::fs::write(
        m.join("scripts/behaviours/coward.lua"),
        r#"-- Coward: goes for the farthest hero, and says why.
return {
	target = function(ctx, self)
		local heroes = ctx:models({ side = "heroes" })
		local d = ctx:distances_from(self, heroes)
		local far, best = nil, -1
		for i, h in ipairs(heroes) do
			if d[i] > best then
				far, best = h, d[i]
			end
		end
		if ctx.explaining then
			ctx:why("the farthest hero", heroes, d)
		end
		return far
	end,
	act = function(ctx, self, target)
		if BAD_REASON then
			return nil, 42
		end
		return { move = target }, "it keeps away from the fight"
	end,
}
"#,
    )
    .unwrap();
    let scenario = dir.join("s.lua");
    std::fs::write(
        &scenario,
        r#"local g = village.new_game({ seed = 1, table = "empty" })
g:place("Captain Maren", { x = 10, y = 10 })
g:place("Tobin the Marksman", { x = 30, y = 30 })
local orc = g:place("Craven Goblin", { x = 12, y = 12 })
g:act(orc)
local w = g:why()
assert(#w == 2, #w)
assert(w[1].by == "Coward" and w[1].decides == "target", w[1].by)
assert(w[1].chose == "Tobin the Marksman (2)", w[1].chose)
assert(w[1].reason == "the farthest hero", w[1].reason)
assert(#w[1].candidates == 2 and w[1].candidates[2].score > w[1].candidates[1].score)
assert(w[1].script:match("mymod/scripts/behaviours/coward.lua$"), w[1].script)
assert(w[1].line == 13, w[1].line)
assert(w[2].reason == "it keeps away from the fight", w[2].reason)
assert(w[2].chose:match("^move toward Tobin"), w[2].chose)
print("explained")
BAD_REASON = true
g:act(orc)
"#,
    )
    .unwrap();
    let out = support::command()
        .args([
            "run",
            "--mod",
            m.to_str().unwrap(),
            scenario.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("explained"), "{stdout}\n{stderr}");
    assert!(!out.status.success());
    assert!(
        stderr.contains("coward.lua") && stderr.contains("second value"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Free Hacks and attacks made outside a normal action say so, in the log's JSON (`"free_hack": true`,
/// `"reaction": ...`) and in its words: every Free Hack is a melee whose target cannot hurt the attacker,
/// and every free Javelin throw is the shot a `free_throw` event then reports.
#[test]
fn attacks_outside_an_action_say_so() {
    use village::state::{describe, EventKind};
    let (mut hacks, mut throws) = (0, 0);
    // Seed 9's waves have Kobolds throwing Javelins for free; every game has Free Hacks.
    for seed in [9, 3] {
        let p = play(seed, "standard", &support::PARTY, false);
        let names = describe::names_in(&p.events);
        for (i, e) in p.events.iter().enumerate() {
            let EventKind::Combat {
                kind,
                free_hack,
                reaction,
                winner,
                result,
                ..
            } = &e.kind
            else {
                continue;
            };
            let json = serde_json::to_value(e).unwrap();
            let words = describe::describe(e, &names);
            if *free_hack {
                hacks += 1;
                assert_eq!(json["free_hack"], true);
                assert_eq!(kind.as_str(), "melee");
                assert!(words.contains("Free Hack on"), "{words}");
                // The target only stops it: a defender's win has no effect.
                if *winner == Some(village::state::Role::Defender) {
                    assert_eq!(result.as_str(), "none", "{words}");
                }
            } else {
                assert!(json.get("free_hack").is_none(), "{json}");
            }
            if let Some(r) = reaction {
                throws += 1;
                assert!(r.contains("free Javelins throw"), "{r}");
                assert!(
                    words.contains("(outside an action: a free Javelins throw"),
                    "{words}"
                );
                // The throw is reported as one once made (after its roll's consequences).
                assert!(
                    p.events[i + 1..]
                        .iter()
                        .take(8)
                        .any(|x| matches!(x.kind, EventKind::FreeThrow { .. })),
                    "no free_throw after #{i}"
                );
            }
        }
    }
    assert!(hacks > 0, "no Free Hack in two games");
    assert!(throws > 0, "no free throw in two games");
}

/// `g:target` only asks: its decision leads to no event, so the next action's `g:why` shows that
/// action's own target and action, not the question asked before it.
#[test]
fn a_target_only_asked_leads_to_nothing() {
    let dir = temp("decisions", "asked");
    let scenario = dir.join("s.lua");
    std::fs::write(
        &scenario,
        r#"local g = village.new_game({ seed = 1, table = "empty" })
g:place("Captain Maren", { x = 10, y = 10 })
local orc = g:place("Orc Warrior", { x = 20, y = 10 }, { behaviour = "Hunter" })
g:target(orc)
local asked = #g:log()
g:act(orc)
local w = g:why(asked)
assert(#w == 2, "two decisions behind the action, not " .. #w)
assert(w[1].decides == "target" and w[2].decides == "action", w[1].decides .. " " .. w[2].decides)
print("ok")
"#,
    )
    .unwrap();
    let out = ok(&["run", scenario.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok"));
    let _ = std::fs::remove_dir_all(&dir);
}
