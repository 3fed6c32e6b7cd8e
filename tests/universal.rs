//! A Behaviour that declares `universal = true` has its actions decided by the kernel's universal
//! priority (§6.2, src/wave/universal.rs) instead of its Lua `act` (`A.default`): the two must play the
//! same games, action for action, with the same reasons. And a Behaviour without the declaration still
//! decides every action of its models itself.

mod support;
use support::*;

use std::path::{Path, PathBuf};

/// The built-in Behaviours that declare `universal = true`.
const UNIVERSAL: [&str; 5] = ["fanatic", "hunter", "mindless", "raider", "ravager"];

/// The built-in Behaviours that declare their target choice (`targets`), and the line that does.
const DECLARED_TARGETS: [&str; 4] = ["fanatic", "hunter", "mindless", "ravager"];
const TARGETS_LINE: &str = "\ttargets = TARGETS,\n";

/// A mod whose copies of the built-in Behaviours leave the declarations out (`universal = true`, and
/// `targets` where a Behaviour declares its target choice): every action of their models is asked of
/// the Lua `act`, and every target of the Lua `target` (`P.declared`, which follows the same steps).
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
        if DECLARED_TARGETS.contains(&b) {
            assert!(
                text.contains(TARGETS_LINE),
                "{b}.lua no longer declares its targets"
            );
        }
        std::fs::write(
            to.join(format!("{b}.lua")),
            text.replace("\tuniversal = true,\n", "")
                .replace(TARGETS_LINE, ""),
        )
        .expect("the copy");
    }
    dir
}

/// Run `village` with `args`, and with `--mod` when given one (it must succeed).
fn ok_with_mod<'a>(args: &mut Vec<&'a str>, with_mod: Option<&'a Path>) {
    if let Some(m) = with_mod {
        args.extend(["--mod", m.to_str().expect("a UTF-8 path")]);
    }
    ok(args);
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
    ok_with_mod(&mut args, with_mod);
    log_without_places(&log)
        .iter()
        .map(|v| v.to_string())
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
    for seed in [1, 22] {
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
fn bench_micro_times_an_action_and_a_target_of_the_kernel_s_and_of_the_lua_scripts() {
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
    let native = names
        .iter()
        .position(|n| n.contains("target (targets declared: chosen by the kernel"));
    let lua = names
        .iter()
        .position(|n| n.contains("target asked of its Lua target"));
    assert!(
        native.is_some() && lua == native.map(|i| i + 1),
        "the two target rows, side by side: {names:?}"
    );
}

/// The event hashes of each game of `sim --record` (Siege, 4 heroes): every roll and result, in order.
fn recorded(seed: u64, dir: &Path, with_mod: Option<&Path>) -> Vec<serde_json::Value> {
    let seed = seed.to_string();
    let mut args = vec![
        "sim",
        "--games",
        "8",
        "--length",
        "siege",
        "--seed",
        &seed,
        "--record",
        dir.to_str().expect("a UTF-8 path"),
    ];
    ok_with_mod(&mut args, with_mod);
    (0..8)
        .map(|i| {
            let text = std::fs::read_to_string(dir.join(format!("game-{i}.json")))
                .expect("a recorded game");
            let v: serde_json::Value = serde_json::from_str(&text).expect("a JSON record");
            v["events"].clone()
        })
        .collect()
}

#[test]
fn the_kernel_s_declared_targets_choose_as_the_lua_steps_do() {
    // A game that keeps no decisions has its declared targets chosen by the kernel
    // (src/wave/targets.rs); with the declarations taken out, `P.declared` chooses in Lua. Same games,
    // event for event (tie-breaker rolls included), over sixteen Siege games: Hunters, Ravagers,
    // Mindless and Fanatics, buildings falling and Ravagers falling back.
    let m = lua_only_mod();
    for seed in [5, 9] {
        let native = recorded(
            seed,
            &temp("universal", &format!("rec-native-{seed}")),
            None,
        );
        let lua = recorded(
            seed,
            &temp("universal", &format!("rec-lua-{seed}")),
            Some(&m),
        );
        for (i, (a, b)) in native.iter().zip(&lua).enumerate() {
            assert!(
                a.as_array().is_some_and(|e| e.len() > 100),
                "seed {seed}: game {i} recorded no events"
            );
            assert_eq!(a, b, "seed {seed}: game {i} differs");
        }
    }
}

#[test]
fn a_malformed_target_declaration_is_refused_with_its_file_step_and_key() {
    let dir = temp("universal", "bad-targets");
    let to = dir.join("scripts/behaviours");
    std::fs::create_dir_all(&to).expect("the mod's folder");
    let hunter = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/behaviours/hunter.lua"),
    )
    .expect("the built-in Hunter");
    for (bad, says) in [
        (
            "{ modles = \"hero\" }",
            "hunter.lua: targets[2]: unknown key \"modles\" (did you mean \"models\"?)",
        ),
        (
            "{ models = \"heroes\" }",
            "hunter.lua: targets[2]: models = \"heroes\" (the other side's \"any\", \"hero\" or \"defender\")",
        ),
        (
            "{ town_hall = true, fallback = true }",
            "hunter.lua: targets[2]: a step is one of",
        ),
    ] {
        let text = hunter.replace(
            "\t{ models = \"defender\", why = \"no hero left: the nearest Village Defender\" },",
            &format!("\t{bad},"),
        );
        assert_ne!(text, hunter, "the Hunter's second step is where it was");
        std::fs::write(to.join("hunter.lua"), text).expect("the Behaviour");
        let out = run(&[
            "play",
            "--auto",
            "--seed",
            "1",
            "--mod",
            dir.to_str().expect("a UTF-8 path"),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{bad}: played anyway");
        assert!(err.contains(says), "{bad}: {err}");
    }
}
