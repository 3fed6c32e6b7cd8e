//! The read-only libraries stay read-only however a script reaches for them (issue 36, root cause 1):
//! `pairs` over a frozen library, the string metatable and its `__index`, `next`, `rawget`, `rawset`,
//! `setmetatable`, `load` with a library as its environment, and the iterator `pairs` hands out. A
//! script may still list a library's entries; it never gets the table behind the view, so it can never
//! change a library for another script, another game or another worker.

use crate::{finishes, finishes_within, fixture, hook_error, vm_with};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use village::roster::Rosters;
use village::script::{Limits, ScriptHost};

const PARTY: [&str; 4] = [
    "Captain Maren",
    "Sister Ilse",
    "Hedda the Hedge Witch",
    "Bram the Smith",
];

fn open(layers: &[PathBuf]) -> Result<ScriptHost, String> {
    ScriptHost::open(layers, Limits::default(), 1).map_err(|e| e.join("\n"))
}

/// One Intro game with the default policy: its summary and whole log as JSON lines.
fn game(host: &ScriptHost, seed: u64) -> String {
    let heroes: Vec<String> = PARTY.map(String::from).to_vec();
    let (summary, events) = host
        .play_logged(seed, &heroes, "intro", "generated", &[], "default")
        .unwrap_or_else(|e| panic!("the game plays: {e}"));
    let mut out = format!("{summary:?}\n");
    for e in &events {
        out.push_str(&serde_json::to_string(e).expect("an event is JSON"));
        out.push('\n');
    }
    out
}

/// Every library a script shares with the others, as a script names it.
const LIBRARIES: [&str; 7] = [
    "math",
    "string",
    "table",
    "utf8",
    "coroutine",
    "village",
    "getmetatable('')",
];

/// A session on the built-in data (with the `village` table) running `src` with a hook's budget:
/// its error, and whether the session still works.
fn session_error(src: String) -> (String, bool) {
    finishes(move || {
        let host = open(&[Rosters::builtin_root()]).expect("the built-in data loads");
        let vm = host.vm();
        let e = match vm.exec_with_budget(&src, "evil.lua", Limits::default().hook_instructions) {
            Ok(v) => panic!("{src:?} should fail, returned {v:?}"),
            Err(e) => e.to_string(),
        };
        let goes_on = vm.eval_string("return 1 + 1").ok().as_deref() == Some("2");
        (e, goes_on)
    })
}

#[test]
fn the_table_pairs_hands_out_is_read_only_too() {
    for lib in LIBRARIES {
        for write in ["real.floor = real", "real.sort = nil", "real[1] = 1"] {
            let src = format!("local _, real = pairs({lib}) {write}");
            let (text, goes_on) = session_error(src.clone());
            assert!(text.starts_with("evil.lua:1:"), "{src}: {text}");
            assert!(text.contains("read-only"), "{src}: {text}");
            assert!(goes_on, "{src}");
        }
    }
}

#[test]
fn every_other_way_to_the_table_behind_a_library_is_closed() {
    for src in [
        // The string metatable's `__index` is `string`, read-only like the global.
        "getmetatable('').__index.upper = nil",
        "rawset(getmetatable('').__index, 'upper', nil)",
        "local _, mt = pairs(getmetatable('')) mt.__index.upper = nil",
        "local _, mt = pairs(getmetatable('')) local _, s = pairs(mt.__index) s.upper = nil",
        // The iterator `pairs` gives, its state and a value it yields.
        "local f, s = pairs(math) local k = f(s, nil) s[k] = nil",
        "for k, v in pairs(getmetatable('')) do if type(v) == 'table' then v.rep = nil end end",
        // A library as `load`'s environment, `setmetatable` on a library.
        "load('floor = nil', '@evil.lua', 't', math)()",
        "setmetatable(table, nil)",
        "setmetatable(getmetatable(''), {})",
    ] {
        let (e, goes_on) = hook_error(src);
        let text = e.to_string();
        assert!(text.starts_with("evil.lua:1:"), "{src}: {text}");
        assert!(
            text.contains("read-only") || text.contains("protected metatable"),
            "{src}: {text}"
        );
        assert!(goes_on, "{src}");
    }
    // And none of them changed anything: every library still answers as Lua's own.
    let out = finishes(|| {
        vm_with(Limits::default())
            .eval_string(
                "for _, src in ipairs({ \
                   'getmetatable(\"\").__index.upper = nil', \
                   'local f, s = pairs(math) s.floor = nil', \
                   'local _, mt = pairs(getmetatable(\"\")) mt.__index.rep = nil', \
                 }) do pcall(load(src)) end \
                 return ('abc'):upper() .. math.floor(2.5) .. ('x'):rep(2) \
                   .. tostring(next(math)) .. tostring(rawget(string, 'rep')) \
                   .. tostring(getmetatable(math))",
            )
            .map_err(|e| e.to_string())
    });
    assert_eq!(out.as_deref(), Ok("ABC2xxnilnilfalse"));
}

#[test]
fn a_script_still_lists_a_library_and_gets_views() {
    let out = finishes(|| {
        let host = open(&[Rosters::builtin_root()]).expect("the built-in data loads");
        host.vm()
            .eval_string(
                "local n, floor = 0, nil \
                 for k, v in pairs(math) do n = n + 1 if k == 'floor' then floor = v end end \
                 local keys = 0 for k in pairs(village) do keys = keys + 1 end \
                 local index = nil \
                 for k, v in pairs(getmetatable('')) do if k == '__index' then index = v end end \
                 return tostring(n > 20) .. ' ' .. tostring(floor == math.floor) .. ' ' \
                   .. tostring(keys > 0) .. ' ' .. tostring(index == string) .. ' ' \
                   .. tostring(getmetatable('').__index == string) .. ' ' .. #'abc'",
            )
            .map_err(|e| e.to_string())
    });
    assert_eq!(out.as_deref(), Ok("true true true true true 3"));
}

#[test]
fn a_variant_that_writes_through_pairs_at_load_is_refused_with_its_line() {
    let e = finishes(|| open(&[Rosters::builtin_root(), fixture("pairs_write")]).err());
    let e = e.expect("the mod is refused");
    assert!(
        e.contains("pairs_write/scripts/variants/evil.lua:4:"),
        "{e}"
    );
    assert!(
        e.contains("`table` is shared by every script and read-only (cannot set `sort`)"),
        "{e}"
    );
}

#[test]
fn a_never_enabled_variant_cannot_break_the_built_in_game() {
    // The variant tries everything under pcall at load, so it loads; the game must not notice.
    let (with, without) = finishes_within(Duration::from_secs(300), || {
        let modded =
            open(&[Rosters::builtin_root(), fixture("pairs_write_quiet")]).expect("the mod loads");
        let plain = open(&[Rosters::builtin_root()]).expect("the built-in data loads");
        (game(&modded, 11), game(&plain, 11))
    });
    assert!(
        with == without,
        "the never-enabled variant changed the built-in game: {}",
        first_difference(&with, &without)
    );
}

#[test]
fn a_variant_swapping_math_min_mid_sim_is_refused_the_same_on_any_jobs() {
    let run = |jobs: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_village"))
            .args(["sim", "--games", "6", "--seed", "4", "--length", "intro"])
            .args([
                "--variant",
                "swap",
                "--json",
                "--keep-going",
                "--jobs",
                jobs,
            ])
            .arg("--mod")
            .arg(fixture("pairs_swap"))
            .output()
            .expect("the village binary runs");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.code().is_some(), "killed by a signal: {err}");
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("a JSON report ({e}): {err}"));
        strip_timing(&mut v);
        v
    };
    let (one, two) = finishes_within(Duration::from_secs(600), move || (run("1"), run("2")));
    assert_eq!(one, two, "--jobs 1 and --jobs 2 disagree");
    let failed = one["failed"].as_array().cloned().unwrap_or_default();
    assert!(!failed.is_empty(), "no game met the swap: {one}");
    for f in &failed {
        let e = f["error"].as_str().unwrap_or("");
        assert!(
            e.contains("pairs_swap/scripts/variants/swap.lua:10:")
                && e.contains("`math` is shared by every script and read-only (cannot set `min`)"),
            "{e}"
        );
    }
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
