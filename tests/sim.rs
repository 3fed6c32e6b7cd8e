//! `village sim`: the same games and the same report (less its timing) for any number of threads, and
//! a report with the fields a designer reads.

mod support;

use serde_json::Value;
use std::process::Command;

fn sim(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .arg("sim")
        .args(args)
        .output()
        .expect("village runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The report without the fields that time the run.
fn untimed(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    o.remove("games_per_sec");
    o.remove("seconds");
    v
}

#[test]
fn one_thread_and_two_give_the_same_report() {
    let base = ["--games", "6", "--seed", "1", "--length", "intro", "--json"];
    let one = sim(&[&base[..], &["--jobs", "1"]].concat());
    let two = sim(&[&base[..], &["--jobs", "2"]].concat());
    assert!(one["games_per_sec"].as_f64().unwrap() > 0.0);
    assert_eq!(untimed(one.clone()), untimed(two));
    // The outcomes add up and the interval holds the rate.
    let n = one["games"].as_u64().unwrap();
    let (w, l, s) = (
        one["wins"].as_u64().unwrap(),
        one["losses"].as_u64().unwrap(),
        one["stalled"].as_u64().unwrap(),
    );
    assert_eq!((n, w + l + s), (6, 6));
    let rate = one["win_rate"].as_f64().unwrap();
    let ci = one["ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
    let lost: u64 = one["loss_wave"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(lost, l);
    assert!(!one["firings"].as_object().unwrap().is_empty());
    // Sister Ilse casts in these games, and the report counts her spells' scripts.
    assert!(
        one["firings"]
            .as_object()
            .unwrap()
            .keys()
            .any(|k| k.starts_with("scripts/spells/")),
        "{}",
        one["firings"]
    );
    // Another seed, other games.
    let other = sim(&["--games", "6", "--seed", "2", "--length", "intro", "--json"]);
    assert_ne!(untimed(one), untimed(other));
}

#[test]
fn a_game_of_a_run_is_the_game_village_play_plays_with_its_seed() {
    let seed = village::sim::game_seed(1, 3);
    assert!(seed <= i64::MAX as u64, "Lua holds it as an integer");
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(["play", "--auto", "--json", "--length", "intro", "--seed"])
        .arg(seed.to_string())
        .output()
        .unwrap();
    let play: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Game 3 of a 4-game run on one thread: the worker played games 0–2 before it.
    let run = sim(&[
        "--games", "4", "--seed", "1", "--length", "intro", "--jobs", "1", "--json",
    ]);
    let wins = run["wins"].as_u64().unwrap();
    let one = sim(&[
        "--games", "3", "--seed", "1", "--length", "intro", "--jobs", "1", "--json",
    ]);
    let won_fourth = wins - one["wins"].as_u64().unwrap();
    assert_eq!(won_fourth == 1, play["result"] == "win", "{play}");
}

#[test]
fn the_wilson_interval() {
    let [lo, hi] = village::sim::wilson(50, 100);
    assert!(
        (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
        "{lo} {hi}"
    );
    assert_eq!(village::sim::wilson(0, 0), [0.0, 0.0]);
    let [lo, hi] = village::sim::wilson(0, 10);
    assert!(lo == 0.0 && hi > 0.25 && hi < 0.35, "{hi}");
}

#[test]
fn a_paired_comparison_reports_the_difference_and_where_the_games_part() {
    let v = sim(&[
        "--games",
        "12",
        "--seed",
        "1",
        "--length",
        "intro",
        "--jobs",
        "2",
        "--variant",
        "power_blow_lethal",
        "--vs",
        "default",
        "--json",
    ]);
    assert_eq!(v["a"]["name"], "power_blow_lethal");
    assert_eq!(v["b"]["name"], "default");
    let d = &v["difference"];
    let (rate, lo, hi) = (
        d["win_rate"].as_f64().unwrap(),
        d["ci95"][0].as_f64().unwrap(),
        d["ci95"][1].as_f64().unwrap(),
    );
    assert!(lo <= rate && rate <= hi, "{d}");
    let a = v["a"]["report"]["win_rate"].as_f64().unwrap();
    let b = v["b"]["report"]["win_rate"].as_f64().unwrap();
    assert!((rate - (a - b)).abs() < 1e-3, "{rate} {a} {b}");
    // Some game of seed 1 ends differently: the divergence names the first differing event (a Power
    // Blow read as Lethal under the variant) and the variant's script.
    let div = &v["divergence"];
    assert!(d["games_differing"].as_u64().unwrap() >= 1, "{v}");
    assert!(div["game"].as_u64().is_some_and(|g| g < 12), "{div}");
    let (ea, eb) = (&div["a"], &div["b"]);
    assert_eq!(ea["seq"], eb["seq"]);
    assert_eq!(ea["seq"], div["event"]);
    assert_ne!(ea, eb);
    assert!(
        ea["lethal"].as_str().unwrap_or("").contains("Power Blow"),
        "{ea}"
    );
    assert_eq!(div["script"], "scripts/variants/power_blow_lethal.lua");
}

#[test]
fn merging_two_shards_equals_the_whole_run() {
    let dir = std::env::temp_dir().join(format!("village-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (s1, s2) = (dir.join("1.json"), dir.join("2.json"));
    let base = ["--games", "5", "--seed", "9", "--length", "intro", "--json"];
    let whole = untimed(sim(&base));
    sim(&[
        &base[..],
        &["--shard", "1/2", "--out", s1.to_str().unwrap()],
    ]
    .concat());
    sim(&[
        &base[..],
        &["--shard", "2/2", "--out", s2.to_str().unwrap()],
    ]
    .concat());
    let merge = |files: &[&std::path::Path]| {
        Command::new(env!("CARGO_BIN_EXE_village"))
            .arg("merge")
            .args(files)
            .arg("--json")
            .output()
            .unwrap()
    };
    let out = merge(&[&s2, &s1]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(merged, whole);
    // One shard alone is not the run.
    let out = merge(&[&s1]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("2 of 5 games"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_benchmark_repeats_its_passes_and_reports_their_medians() {
    let bench = |more: &[&str]| {
        let mut args = vec!["bench", "--games", "1", "--length", "intro"];
        args.extend_from_slice(more);
        support::ok(&args).stdout
    };
    let b: Value = serde_json::from_slice(&bench(&["--repeat", "3", "--json"])).unwrap();
    let passes = |k: &str| -> Vec<f64> {
        b[k].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let (one, two) = (passes("passes_1"), passes("passes_2"));
    assert_eq!((one.len(), two.len()), (3, 3), "{b}");
    assert!(one.iter().chain(&two).all(|g| *g > 0.0), "{b}");
    // The figures are the passes' medians, and the scaling is theirs.
    let median = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v[1]
    };
    assert_eq!(b["games_per_sec_1"].as_f64().unwrap(), median(&one), "{b}");
    assert_eq!(b["games_per_sec_2"].as_f64().unwrap(), median(&two), "{b}");
    let scaling = b["scaling"].as_f64().unwrap();
    assert!((scaling - median(&two) / median(&one)).abs() < 1e-12, "{b}");
    // In words: the medians' line, then the range of the passes.
    let text = String::from_utf8(bench(&["--repeat", "2"])).unwrap();
    assert!(
        text.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("medians of 2 passes run in turn: one thread ")),
        "{text}"
    );
    // One pass (the default) prints its figures alone.
    let text = String::from_utf8(bench(&[])).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    // No passes is refused.
    assert!(!support::run(&["bench", "--games", "1", "--repeat", "0"])
        .status
        .success());
}

#[test]
fn the_benchmark_runs_and_reports_its_figures() {
    // Figures only (no timing is asserted: the machines are noisy); the README has the measured ones.
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args([
            "bench",
            "--games",
            "1",
            "--length",
            "intro",
            "--json",
            "--profile",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let b: Value = serde_json::from_slice(&out.stdout).unwrap();
    for k in [
        "games_per_sec_1",
        "games_per_sec_2",
        "scaling",
        "events_per_game",
    ] {
        assert!(b[k].as_f64().unwrap() > 0.0, "{k}: {b}");
    }
    let share = b["lua_share"].as_f64().unwrap();
    assert!(share > 0.0 && share <= 1.0, "{b}");
    // --profile: every script function the kernel called, by file:line, most time first.
    let rows = b["profile"].as_array().unwrap();
    let act = rows
        .iter()
        .find(|r| {
            r["function"]
                .as_str()
                .unwrap()
                .starts_with("scripts/policies/default.lua:")
        })
        .unwrap_or_else(|| panic!("the policy is profiled: {b}"));
    assert!(act["calls_per_game"].as_f64().unwrap() >= 1.0, "{act}");
    assert!(rows.iter().any(|r| r["function"]
        .as_str()
        .unwrap()
        .starts_with("scripts/behaviours/")));
    // The ctx methods the scripts called are counted too.
    assert!(rows.iter().any(|r| r["function"] == "ctx:models"), "{b}");
    let shares: Vec<f64> = rows.iter().map(|r| r["share"].as_f64().unwrap()).collect();
    assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{shares:?}");
    assert!(shares.iter().all(|s| *s > 0.0 && *s <= 1.0), "{shares:?}");
    // And the Lua lines the instruction hook found running: file:line, most first, shares adding up
    // to the whole; the default policy's libraries run most of the scripts' own instructions.
    let lines = b["lines"].as_array().unwrap();
    let line_shares: Vec<f64> = lines.iter().map(|r| r["share"].as_f64().unwrap()).collect();
    assert!(
        line_shares.windows(2).all(|w| w[0] >= w[1]),
        "{line_shares:?}"
    );
    let total: f64 = line_shares.iter().sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    assert!(
        lines.iter().any(|r| {
            let l = r["line"].as_str().unwrap();
            l.starts_with("scripts/lib/")
                && l.rsplit(':')
                    .next()
                    .is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n > 0))
        }),
        "{b}"
    );
}

#[test]
fn a_recorded_game_replays_and_a_changed_rule_is_flagged_where_it_first_acts() {
    let dir = std::env::temp_dir().join(format!("village-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    sim(&[
        "--games",
        "2",
        "--seed",
        "1",
        "--length",
        "intro",
        "--json",
        "--record",
        dir.to_str().unwrap(),
    ]);
    let file = dir.join("game-1.json");
    let replay = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_village"))
            .args(["replay", file.to_str().unwrap(), "--verify"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = replay(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("the log is the recorded one"));
    // Without --verify it says how to watch the game: a play command that plays the same log.
    let plain = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(["replay", file.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&plain.stdout);
    assert!(plain.status.success(), "{said}");
    let cmd = said
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("village play --auto --seed "))
        .unwrap_or_else(|| panic!("{said}"));
    let log = dir.join("watched.jsonl");
    let cmd = cmd
        .replacen(
            "village ",
            &format!("{} ", env!("CARGO_BIN_EXE_village")),
            1,
        )
        .replace("--log game-1.jsonl", &format!("--log {}", log.display()));
    let played = Command::new("sh").args(["-c", &cmd]).output().unwrap();
    assert!(
        played.status.success(),
        "{cmd}: {}",
        String::from_utf8_lossy(&played.stderr)
    );
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    // The same events: each line's FNV-1a is the recording's hash of that event (which leaves out
    // the `cause` link, an explanation rather than play). The log's `decision` lines (the scripts'
    // reasons) are explanations too: no event, no hash.
    let events = std::fs::read_to_string(&log).unwrap();
    let hashes: Vec<u64> = events
        .lines()
        .filter(|l| !l.starts_with("{\"event\":\"decision\""))
        .map(|l| {
            let mut e: village::state::Event = serde_json::from_str(l).unwrap();
            e.cause = None;
            let line = serde_json::to_string(&e).unwrap();
            village::files::fnv(line.as_bytes(), village::files::FNV_START)
        })
        .collect();
    let recorded: Vec<u64> = recorded["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_u64().unwrap())
        .collect();
    assert!(hashes.len() > 100, "{cmd}");
    assert_eq!(hashes, recorded, "{cmd}");
    // The same game under a changed rule (a mod making a Power Blow Lethal): flagged, with the event.
    let m = dir.join("mod");
    std::fs::create_dir_all(m.join("rosters")).unwrap();
    std::fs::write(
        m.join("rosters/rules.toml"),
        "[combat]\npower_blow_lethal = true\n",
    )
    .unwrap();
    let out = replay(&["--mod", m.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("the log differs from event #"), "{text}");
    assert!(text.contains("power_blow_lethal"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_hero_policy_is_named_and_an_unknown_one_is_refused() {
    let v = sim(&[
        "--games", "1", "--length", "intro", "--policy", "default", "--json",
    ]);
    assert_eq!(v["games"], 1);
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(["sim", "--games", "1", "--policy", "nobody"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown policy \"nobody\"") && err.contains("default"),
        "{err}"
    );
}

/// The scripts each event names, read off its JSON line (how the report counted them before it visited
/// the event's strings without writing it out).
fn named_in_json(line: &str) -> std::collections::BTreeSet<String> {
    let mut found = std::collections::BTreeSet::new();
    for prefix in [
        "scripts/signatures/",
        "scripts/alpha/",
        "scripts/opportunities/",
        "scripts/spells/",
    ] {
        let mut rest = line;
        while let Some(i) = rest.find(prefix) {
            let tail = &rest[i..];
            let quote = tail.find('"').unwrap_or(tail.len());
            if let Some(e) = tail[..quote].find(".lua") {
                found.insert(tail[..e + 4].to_string());
            }
            rest = &tail[prefix.len()..];
        }
    }
    found
}

#[test]
fn the_firings_are_the_scripts_the_events_json_names() {
    // A whole game with spell-casters and signatures; the record's firings must count, per script,
    // the events whose JSON names it.
    let opts = village::sim::SimOptions {
        games: 1,
        first: 0,
        seed: 5,
        heroes: [
            "Captain Maren",
            "Sister Ilse",
            "Hedda the Hedge Witch",
            "Bram the Smith",
        ]
        .map(String::from)
        .to_vec(),
        length: "standard".into(),
        preset: village::roster::DEFAULT_PRESET.into(),
        scenario: village::scenario::DEFAULT_SCENARIO.to_string(),
        variants: Vec::new(),
        policy: "default".into(),
        layers: vec![village::roster::Rosters::builtin_root()],
        jobs: 1,
        decisions: false,
        audit: false,
    };
    let host = village::script::ScriptHost::open(
        &opts.layers,
        village::script::Limits::default(),
        opts.seed,
    )
    .unwrap();
    let (summary, events) = opts.play(&host, opts.seed).unwrap();
    let record = village::sim::record(0, &summary, &events, &[]);
    let mut want = std::collections::BTreeMap::<String, u64>::new();
    for e in &events {
        for s in named_in_json(&serde_json::to_string(e).unwrap()) {
            *want.entry(s).or_default() += 1;
        }
    }
    assert!(want.len() >= 3, "the game fires several scripts: {want:?}");
    assert_eq!(record.firings, want);
}

/// A mod's script is named in the firing table as the log names it, with the mod's folder: a mod
/// that replaces Hold the Line's script (the same file, so the same play) fires as its own.
#[test]
fn the_firing_table_names_a_mods_scripts_with_the_mods_folder() {
    let dir = std::env::temp_dir().join(format!("village-sim-modfire-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let sig = dir.join("scripts/signatures");
    std::fs::create_dir_all(&sig).unwrap();
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("scripts/signatures/hold_the_line.lua"),
        sig.join("hold_the_line.lua"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(["sim", "--games", "4", "--seed", "1", "--json", "--mod"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ours = format!("{}/scripts/signatures/hold_the_line.lua", dir.display());
    let firings = v["firings"].as_object().unwrap();
    assert!(firings.contains_key(&ours), "{ours} not in {firings:?}");
    assert!(
        !firings.contains_key("scripts/signatures/hold_the_line.lua"),
        "the built-in one did not act: {firings:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An A/B whose games part on a mod variant's rule constant (no script named in the event) names the
/// variant's file with the mod's folder, as the log names the mod's scripts.
#[test]
fn a_paired_comparison_names_a_mods_variant_with_the_mods_folder() {
    let dir = std::env::temp_dir().join(format!("village-sim-modvariant-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let variants = dir.join("scripts/variants");
    std::fs::create_dir_all(&variants).unwrap();
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("scripts/variants/power_blow_lethal.lua"),
        variants.join("mod_lethal.lua"),
    )
    .unwrap();
    let v = sim(&[
        "--games",
        "12",
        "--seed",
        "1",
        "--length",
        "intro",
        "--mod",
        dir.to_str().unwrap(),
        "--variant",
        "mod_lethal",
        "--vs",
        "default",
        "--json",
    ]);
    let div = &v["divergence"];
    assert!(
        div["a"]["lethal"]
            .as_str()
            .unwrap_or("")
            .contains("rule constant"),
        "the games part on the rule constant, which names no script: {div}"
    );
    assert_eq!(
        div["script"].as_str(),
        Some(format!("{}/scripts/variants/mod_lethal.lua", dir.display()).as_str())
    );
    let _ = std::fs::remove_dir_all(&dir);
}
