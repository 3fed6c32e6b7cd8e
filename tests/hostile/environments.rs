//! One script must not poison another: every module runs in an environment of its own, the standard
//! library, the `village` table and the string metatable are read-only, and a game never sees what an
//! earlier game on the same VM left in a module.

use crate::{finishes, finishes_within, fixture, hook_error};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use village::roster::Rosters;
use village::script::{Limits, ScriptError, ScriptHost};
use village::wave::play::GameSummary;

const PARTY: [&str; 4] = [
    "Captain Maren",
    "Sister Ilse",
    "Hedda the Hedge Witch",
    "Bram the Smith",
];

fn open(layers: &[PathBuf]) -> Result<ScriptHost, String> {
    ScriptHost::open(layers, Limits::default(), 1).map_err(|e| e.join("\n"))
}

fn with_mod(name: &str) -> Vec<PathBuf> {
    vec![Rosters::builtin_root(), fixture(name)]
}

/// One Intro game on the default table, its summary and its whole log as JSON lines.
fn game(host: &ScriptHost, seed: u64, variants: &[&str]) -> (GameSummary, String) {
    let heroes: Vec<String> = PARTY.map(String::from).to_vec();
    let variants: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    let (summary, log) = host
        .vm_host_play(seed, &heroes, "intro", &variants)
        .unwrap_or_else(|e| panic!("the game plays: {e}"));
    (summary, log)
}

/// `ScriptHost::play_logged` with the default table and policy, the log as JSON lines.
trait PlayLogged {
    fn vm_host_play(
        &self,
        seed: u64,
        heroes: &[String],
        length: &str,
        variants: &[String],
    ) -> Result<(GameSummary, String), String>;
}

impl PlayLogged for ScriptHost {
    fn vm_host_play(
        &self,
        seed: u64,
        heroes: &[String],
        length: &str,
        variants: &[String],
    ) -> Result<(GameSummary, String), String> {
        let (summary, events) =
            self.play_logged(seed, heroes, length, "generated", variants, "default")?;
        let log = events
            .iter()
            .map(|e| serde_json::to_string(e).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?
            .join("\n");
        Ok((summary, log))
    }
}

#[test]
fn a_library_function_cannot_be_replaced_for_everyone() {
    for src in [
        "math.floor = function() return 0 end",
        "string.find = nil",
        "rawset(table, 'insert', print)",
    ] {
        let (e, goes_on) = hook_error(src);
        let text = e.to_string();
        assert!(text.starts_with("evil.lua:1:"), "{src}: {text}");
        assert!(text.contains("read-only"), "{src}: {text}");
        assert!(goes_on, "{src}");
    }
    // `village` too.
    let out = finishes(|| {
        let host = open(&[Rosters::builtin_root()]).expect("opens");
        let e = host.vm().exec("village.new_game = nil", "evil.lua").err();
        let still = host.vm().eval_string("return type(village.new_game)").ok();
        (e.map(|e| e.to_string()), still)
    });
    let e = out.0.expect("refused");
    assert!(
        e.starts_with("evil.lua:1: `village` is shared by every script and read-only"),
        "{e}"
    );
    assert_eq!(out.1.as_deref(), Some("function"));
    // At the top of a variant no game enables, it is a load error that `check` reports with the line.
    let e = finishes(|| open(&with_mod("library_write")).err());
    let e = e.expect("the mod is refused");
    assert!(
        e.contains("library_write/scripts/variants/evil.lua:3:"),
        "{e}"
    );
    assert!(
        e.contains("`math` is shared by every script and read-only"),
        "{e}"
    );
    // The library is whole afterwards, and still lists its functions.
    let out = finishes(|| {
        crate::vm_with(Limits::default())
            .eval_string(
                "local n = 0 for _ in pairs(math) do n = n + 1 end \
                 return math.floor(2.5) .. ' ' .. tostring(n > 20) .. ' ' .. ('abc'):upper()",
            )
            .map_err(|e| e.to_string())
    });
    assert_eq!(out.as_deref(), Ok("2 true ABC"));
}

#[test]
fn the_string_metatable_is_read_only() {
    let e = finishes(|| open(&with_mod("string_metatable")).err());
    let e = e.expect("the mod is refused");
    assert!(
        e.contains("string_metatable/scripts/variants/evil.lua:"),
        "{e}"
    );
    assert!(
        e.contains("the string metatable is shared by every script and read-only"),
        "{e}"
    );
    let (e, goes_on) = hook_error("getmetatable('').__index = function() end");
    assert!(e.to_string().starts_with("evil.lua:1:"), "{e}");
    assert!(goes_on);
    assert!(matches!(e, ScriptError::Runtime(_)), "{e:?}");
}

#[test]
fn globals_a_module_sets_are_its_own() {
    // The variant replaces `ipairs`, `pairs` and `next` at load and is never enabled: `check` passes
    // (nothing is wrong with it) and every game plays exactly as without it.
    let (with, without) = finishes(|| {
        let modded = open(&with_mod("shared_globals")).expect("the mod loads");
        let plain = open(&[Rosters::builtin_root()]).expect("the built-in data loads");
        (game(&modded, 11, &[]), game(&plain, 11, &[]))
    });
    assert!(
        with.1 == without.1,
        "the mod changed another script's game: {}",
        first_difference(&with.1, &without.1)
    );
    assert_eq!(with.0, without.0);
    // `_G` and `load` in a module are its own too.
    let out = finishes(|| {
        let host = open(&[Rosters::builtin_root()]).expect("opens");
        host.vm()
            .eval_string(
                "local f = load('x_from_load = 1 return _G') local env = f() \
                 return tostring(x_from_load) .. ' ' .. tostring(env.x_from_load)",
            )
            .map_err(|e| e.to_string())
    });
    // A REPL chunk runs in the globals: there `load` defaults to them, as in plain Lua.
    assert_eq!(out.as_deref(), Ok("1 1"));
}

#[test]
fn a_view_metatable_broken_in_one_call_breaks_nothing_else() {
    let (with, without) = finishes(|| {
        let host = open(&with_mod("view_metatable")).expect("the mod loads");
        (game(&host, 5, &["evil"]), game(&host, 5, &[]))
    });
    assert_eq!(with.0, without.0);
    assert!(
        with.1 == without.1,
        "{}",
        first_difference(&with.1, &without.1)
    );
}

#[test]
fn module_state_never_carries_into_the_next_game() {
    // The variant's modifier depends on how many rolls its module has seen: the same seed played
    // twice on one VM must be the same game.
    let (first, second, plain) = finishes(|| {
        let host = open(&with_mod("module_state")).expect("the mod loads");
        let first = game(&host, 3, &["counter"]);
        let second = game(&host, 3, &["counter"]);
        let plain = game(&host, 3, &[]);
        (first, second, plain)
    });
    assert_eq!(
        first.1, second.1,
        "the second game saw the first one's module state"
    );
    // And the state does matter within a game: without the variant the game differs.
    assert_ne!(first.1, plain.1, "the fixture's modifier never fired");
}

#[test]
fn sim_reports_are_the_same_for_any_jobs_with_module_state() {
    let run = |jobs: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_village"))
            .args(["sim", "--games", "200", "--seed", "9", "--length", "intro"])
            .args(["--variant", "counter", "--json", "--jobs", jobs, "--mod"])
            .arg(fixture("module_state"))
            .output()
            .expect("the village binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        strip_timing(&mut v);
        v
    };
    // 400 games in all: ten minutes is far past what a debug build needs, still a bound on a hang.
    let (one, two) = finishes_within(Duration::from_secs(600), move || (run("1"), run("2")));
    assert_eq!(one, two);
}

fn strip_timing(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|k, _| k != "games_per_sec" && k != "seconds" && k != "jobs");
            m.values_mut().for_each(strip_timing);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip_timing),
        _ => {}
    }
}

/// The first line where two logs differ, for a readable failure.
fn first_difference(a: &str, b: &str) -> String {
    a.lines()
        .zip(b.lines())
        .find(|(x, y)| x != y)
        .map(|(x, y)| format!("\n  {x}\n  {y}"))
        .unwrap_or_else(|| "one log is longer".to_string())
}
