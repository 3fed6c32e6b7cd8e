//! The rollout service (`ctx:rollouts`, `wave::rollout`), the planning policy and the REPL's `:advise`:
//! playouts leave the game exactly as it was, the planner is deterministic whatever `--jobs` and its
//! games replay, `:advise` gives the same estimates for the same position, and what a hostile or careless
//! policy does with the service ends in a clear error instead of a hang.

mod support;

use std::path::Path;
use support::{ok, piped, run, said, temp};

const FIXTURE: &str = "tests/fixtures/rollouts";

/// The JSON lines of a `--log` file that are events (the decisions set aside: they say which policy
/// decided, and why), with the file of the policy an event names (the Blessing's "chosen by ...") read
/// as POLICY.
fn events(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .expect("the log is written")
        .lines()
        .filter(|l| !l.contains(r#""event":"decision""#))
        .map(policy_as_one)
        .collect()
}

/// `line` with every path ending in the watcher's or the default policy's file read as POLICY.
fn policy_as_one(line: &str) -> String {
    let mut out = line.to_string();
    for file in ["policies/watcher.lua", "policies/default.lua"] {
        while let Some(at) = out.find(file) {
            let start = out[..at].rfind([' ', '(', '"']).map_or(0, |i| i + 1);
            out.replace_range(start..at + file.len(), "POLICY");
        }
    }
    out
}

#[test]
fn playouts_leave_the_game_exactly_as_it_was() {
    let dir = temp("rollouts", "untouched");
    let (a, b) = (dir.join("watcher.jsonl"), dir.join("default.jsonl"));
    for (policy, log) in [("watcher", &a), ("default", &b)] {
        ok(&[
            "play",
            "--auto",
            "--mod",
            FIXTURE,
            "--length",
            "intro",
            "--seed",
            "1",
            "--policy",
            policy,
            "--log",
            log.to_str().unwrap(),
        ]);
    }
    let (wa, wb) = (events(&a), events(&b));
    assert!(
        wa.len() > 1000,
        "a whole game was played ({} events)",
        wa.len()
    );
    // Every decision of the watcher played its candidates out (hundreds of playouts), and not one
    // event, die or `math.random` draw of the game differs from the default policy's game.
    assert_eq!(
        wa, wb,
        "the watcher's game is the default policy's, event for event"
    );
}

/// What an Intro game (seed 3) played with `--mod MOD` and `how` said: it must fail.
fn refused_play(module: &str, how: &[&str]) -> String {
    let mut args = vec![
        "play", "--auto", "--mod", module, "--length", "intro", "--seed", "3",
    ];
    args.extend_from_slice(how);
    let out = run(&args);
    let text = said(&out);
    assert!(!out.status.success(), "{how:?}: the game stops: {text}");
    text
}

#[test]
fn a_policy_that_plays_out_forever_is_stopped_by_the_decisions_cap() {
    let text = refused_play(FIXTURE, &["--policy", "looping"]);
    assert!(
        text.contains("policies/looping.lua:10:") && text.contains("ctx:rollouts"),
        "the error names the policy's line and the method: {text}"
    );
    assert!(
        text.contains("playouts already spent their cap"),
        "it says the decision's playouts ran out: {text}"
    );
}

#[test]
fn a_playouts_policy_may_not_play_out_in_turn() {
    let text = refused_play(FIXTURE, &["--policy", "nested"]);
    assert!(
        text.contains("a playout's policy may not start playouts of its own"),
        "{text}"
    );
}

#[test]
fn only_the_hero_policy_plays_out_its_decisions() {
    let text = refused_play(FIXTURE, &["--variant", "rollout_elsewhere"]);
    assert!(
        text.contains("rollout_elsewhere.lua:4:") && text.contains("only the hero policy"),
        "{text}"
    );
}

#[test]
fn careless_arguments_are_refused_at_the_scripts_line() {
    let cases = [
        ("ctx:rollouts({}, nil)", "candidates lists 0 (give 1 to 32)"),
        (
            "ctx:rollouts({ { model = self, order = order } })",
            "orders are for the model taking its actions",
        ),
        (
            r#"ctx:rollouts({ { order = order } }, { depth = "forever" })"#,
            r#"expected "activation", "turn", "round", "wave""#,
        ),
        (
            "ctx:rollouts({ { order = order } }, { samples = 100000 })",
            "samples = 100000 (expected a whole number from 1 to 256)",
        ),
        (
            r#"ctx:rollouts({ { order = order } }, { policy = "nobody" })"#,
            r#"no policy "nobody" to play out with"#,
        ),
        (
            "ctx:rollouts({ { order = order } }, { sample = 3 })",
            "sample",
        ),
    ];
    for (call, want) in cases {
        let dir = temp("rollouts", "careless");
        let policies = dir.join("scripts/policies");
        std::fs::create_dir_all(&policies).unwrap();
        std::fs::write(
            policies.join("careless.lua"),
            format!(
                "local T = require(\"lib.tactics\")\nreturn {{\n\tactivate = T.activation,\n\tact = \
                 function(ctx, self)\n\t\tlocal order = T.act(ctx, self)\n\t\tif order then\n\t\t\t\
                 {call}\n\t\tend\n\t\treturn order\n\tend,\n}}\n"
            ),
        )
        .unwrap();
        let text = refused_play(dir.to_str().unwrap(), &["--policy", "careless"]);
        assert!(
            text.contains("careless.lua:7:") && text.contains(want),
            "{call}: expected {want:?} at the script's line, got: {text}"
        );
    }
}

#[test]
fn the_planner_is_the_same_on_any_number_of_threads_and_its_games_replay() {
    let report = |jobs: &str| {
        let out = ok(&[
            "sim", "--games", "3", "--seed", "8", "--length", "intro", "--policy", "planner",
            "--jobs", jobs, "--json",
        ]);
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let o = v.as_object_mut().unwrap();
        for k in ["games_per_sec", "seconds", "jobs"] {
            o.remove(k);
        }
        v
    };
    assert_eq!(report("1"), report("2"));
    let dir = temp("rollouts", "replay");
    ok(&[
        "sim",
        "--games",
        "1",
        "--seed",
        "8",
        "--length",
        "intro",
        "--policy",
        "planner",
        "--record",
        dir.to_str().unwrap(),
    ]);
    let out = ok(&[
        "replay",
        dir.join("game-0.json").to_str().unwrap(),
        "--verify",
    ]);
    assert!(
        said(&out).contains("the log is the recorded one"),
        "{}",
        said(&out)
    );
}

#[test]
fn advise_ranks_the_candidates_and_says_the_same_for_the_same_position() {
    let session = ":wave\n:advise 3\n:activate Tobin 2\n:advise 4\n:advise 2 --json\n";
    let talk = || {
        let mut cmd = support::command();
        cmd.args(["repl", "--seed", "4"]);
        let out = piped(cmd, session);
        assert!(out.status.success(), "{}", said(&out));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let first = talk();
    assert_eq!(first, talk(), "the same position gets the same estimates");
    assert!(
        first.contains(
            "Advice for the models that may be nominated: 12 candidates weighed, 16 playouts each"
        ),
        "{first}"
    );
    assert!(
        first.contains("  1. ") && first.contains(": activate with"),
        "{first}"
    );
    assert!(
        first.contains("Advice for Tobin the Marksman (2), 2 actions left:"),
        "{first}"
    );
    assert!(first.contains("(the default policy's choice)"), "{first}");
    let json = first
        .lines()
        .find_map(|l| {
            l.strip_prefix("> ")
                .unwrap_or(l)
                .strip_prefix("{")
                .map(|_| l)
        })
        .expect("a JSON line");
    let v: serde_json::Value =
        serde_json::from_str(json.trim_start_matches("> ")).expect("the advice is JSON");
    let rows = v["advice"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["rank"], 1);
    assert_eq!(rows[0]["playouts"], 16);
    assert!(rows[0]["mean"].as_f64() >= rows[1]["mean"].as_f64());
    assert!(rows[0]["low"].as_f64() <= rows[0]["mean"].as_f64());
    // Asking changed nothing: the game goes on as it would have.
    let mut cmd = support::command();
    cmd.args(["repl", "--seed", "4"]);
    let plain = piped(cmd, ":wave\n:activate Tobin 2\n:heroes\n");
    let mut cmd = support::command();
    cmd.args(["repl", "--seed", "4"]);
    let advised = piped(cmd, ":wave\n:advise\n:activate Tobin 2\n:advise\n:heroes\n");
    let tail = |o: &std::process::Output| {
        let t = String::from_utf8_lossy(&o.stdout).to_string();
        t[t.rfind("> :heroes").expect("the :heroes line")..].to_string()
    };
    assert_eq!(tail(&plain), tail(&advised));
}
