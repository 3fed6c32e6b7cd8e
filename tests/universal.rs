//! A Behaviour that declares `universal = true` has its actions decided by the kernel's universal
//! priority (§6.2, src/wave/universal.rs) instead of its Lua `act` (`A.default`): the two must play the
//! same games, action for action, with the same reasons. And a Behaviour without the declaration still
//! decides every action of its models itself.

mod support;
use support::*;

use std::path::{Path, PathBuf};

/// The built-in Behaviours that declare `universal = true`.
const UNIVERSAL: [&str; 5] = ["fanatic", "hunter", "mindless", "raider", "ravager"];

/// A mod whose copies of the built-in Behaviours leave the declaration out: every action of their
/// models is asked of the Lua `act`.
fn lua_only_mod() -> PathBuf {
    let dir = temp("universal", "lua-only");
    let to = dir.join("scripts/behaviours");
    std::fs::create_dir_all(&to).expect("the mod's folder");
    for b in UNIVERSAL {
        let from =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scripts/behaviours/{b}.lua"));
        let text = std::fs::read_to_string(&from).expect("the built-in Behaviour");
        assert!(
            text.contains("\tuniversal = true,\n"),
            "{b}.lua no longer declares universal = true"
        );
        std::fs::write(
            to.join(format!("{b}.lua")),
            text.replace("\tuniversal = true,\n", ""),
        )
        .expect("the copy");
    }
    dir
}

/// The log of `play --auto` of a Siege game, each line with the fields that name where a decision was
/// made (`script`, `line`: the mod's copies are other files) taken out.
fn siege_log(seed: u64, dir: &Path, name: &str, with_mod: Option<&Path>) -> Vec<String> {
    let log = dir.join(format!("{name}-{seed}.jsonl"));
    let seed = seed.to_string();
    let mut args = vec![
        "play",
        "--auto",
        "--length",
        "siege",
        "--seed",
        &seed,
        "--log",
        log.to_str().expect("a UTF-8 path"),
    ];
    if let Some(m) = with_mod {
        args.extend(["--mod", m.to_str().expect("a UTF-8 path")]);
    }
    ok(&args);
    std::fs::read_to_string(&log)
        .expect("the log")
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            if let Some(o) = v.as_object_mut() {
                o.remove("script");
                o.remove("line");
            }
            v.to_string()
        })
        .collect()
}

#[test]
fn the_kernel_s_universal_priority_plays_as_the_lua_default_does() {
    let m = lua_only_mod();
    let dir = temp("universal", "logs");
    let mut reasons = std::collections::BTreeSet::new();
    // Two Siege games that between them reach every step: a building attacked and set alight, a
    // target attacked in contact and after the one attack, the Engaged's nearest, a shot, a leaving
    // Raider, a close-in, and a declared Spell-caster (the step the kernel hands back to `act`).
    for seed in [3, 21] {
        let native = siege_log(seed, &dir, "native", None);
        let lua = siege_log(seed, &dir, "lua", Some(&m));
        assert_eq!(
            native.len(),
            lua.len(),
            "seed {seed}: the logs differ in length"
        );
        for (i, (a, b)) in native.iter().zip(&lua).enumerate() {
            assert_eq!(a, b, "seed {seed}: line {} differs", i + 1);
        }
        for l in &native {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            let by = v["by"].as_str().unwrap_or("");
            if v["decides"] == "action"
                && ["Fanatic", "Hunter", "Mindless", "Raider", "Ravager"].contains(&by)
            {
                reasons.insert(v["reason"].as_str().unwrap_or("").to_string());
            }
        }
    }
    for r in [
        "beside the building it targets: it attacks it (§6.4)",
        "an Igniter beside its unburnt building sets it alight (§6.4)",
        "in contact with its target: it attacks (§6.2)",
        "in contact with its target after its one attack this turn",
        "Engaged: it attacks the adjacent enemy nearest its target (§6.2)",
        "its target is in range and sight: it shoots (§6.2)",
        "it leaves by the nearest edge",
        "not yet able to attack its target: it closes in by the shortest route",
        "it declared and its target is within reach of a spell (§3.7)",
    ] {
        assert!(reasons.contains(r), "no action was decided as {r:?}");
    }
}

#[test]
fn a_behaviour_without_the_declaration_decides_every_action_itself() {
    let dir = temp("universal", "own-act");
    let to = dir.join("scripts/behaviours");
    std::fs::create_dir_all(&to).expect("the mod's folder");
    // Hunter replaced by one that takes its models' actions over: they stand where they are.
    std::fs::write(
        to.join("hunter.lua"),
        "local P = require(\"lib.priority\")\n\
         return {\n\
         \ttarget = function(ctx, self)\n\
         \t\treturn P.nearest_of(ctx, self, { models = P.foes_query(self) })\n\
         \tend,\n\
         \tact = function(ctx, self, target)\n\
         \t\treturn nil, \"it stands and watches\"\n\
         \tend,\n\
         }\n",
    )
    .expect("the Behaviour");
    let log = dir.join("game.jsonl");
    ok(&[
        "play",
        "--auto",
        "--length",
        "siege",
        "--seed",
        "21",
        "--mod",
        dir.to_str().expect("a UTF-8 path"),
        "--log",
        log.to_str().expect("a UTF-8 path"),
    ]);
    let text = std::fs::read_to_string(&log).expect("the log");
    let mut hunters = 0;
    for l in text.lines() {
        let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
        if v["event"] == "decision" && v["decides"] == "action" && v["by"] == "Hunter" {
            hunters += 1;
            assert_eq!(v["reason"], "it stands and watches", "{l}");
        }
    }
    assert!(hunters > 0, "no Hunter acted in the game");
}

#[test]
fn bench_micro_times_an_action_of_the_kernel_s_and_of_the_lua_act() {
    let out = ok(&["bench", "--micro", "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON rows");
    let names: Vec<&str> = rows
        .as_array()
        .expect("a list of rows")
        .iter()
        .map(|r| r["name"].as_str().unwrap_or(""))
        .collect();
    let native = names
        .iter()
        .position(|n| n.contains("action (universal = true: decided by the kernel"));
    let lua = names
        .iter()
        .position(|n| n.contains("action asked of its Lua act"));
    assert!(
        native.is_some() && lua == native.map(|i| i + 1),
        "the two action rows, side by side: {names:?}"
    );
}
