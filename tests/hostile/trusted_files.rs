//! Files trusted too far (issue 36, root cause 9): a record, a shard and a save are data. `replay`
//! runs code only from the folders its command line names (a record naming other mod folders is
//! refused with the `--mod` to add) and refuses a record whose digest fails before anything runs;
//! `merge` range-checks every field of every shard against its settings and sums counts without
//! wrapping; `:load` refuses a save whose ids, counters, round or party could not have been played.
//!
//! A forger can recompute the FNV digest, so several cases reseal what they edit: the checks must
//! hold for a well-sealed file too.

use super::bin::{copy_dir, run, s, scratch, text, village};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use village::sim::{Replay, Shard};

/// A mod whose variant `spy` prints when its module is loaded and when its hook runs: any "spy:" on
/// stderr means its code ran.
fn spy_mod(dir: &Path) -> PathBuf {
    let m = dir.join("spy_mod");
    std::fs::create_dir_all(m.join("scripts/variants")).expect("mkdir");
    std::fs::write(
        m.join("scripts/variants/spy.lua"),
        "print(\"spy: loaded\")\nreturn {\n\tname = \"Spy\",\n\tdescription = \"Prints.\",\n\
         \tmelee_modifier = function(ctx, self, roll)\n\t\tprint(\"spy: ran\")\n\tend,\n}\n",
    )
    .expect("write");
    m
}

/// Record game 0 of a one-game intro run with `extra` options into `dir/rec`: its file.
fn record(dir: &Path, extra: &[&str]) -> PathBuf {
    let rec = dir.join("rec");
    let args = [
        &[
            "sim",
            "--games",
            "1",
            "--length",
            "intro",
            "--seed",
            "3",
            "--record",
            s(&rec),
        ][..],
        extra,
    ]
    .concat();
    let out = village(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    rec.join("game-0.json")
}

/// `file` edited by `edit` and sealed again with a digest that matches (as a forger would).
fn reseal_record(file: &Path, to: &Path, edit: impl Fn(&mut Replay)) {
    let mut r: Replay =
        serde_json::from_str(&std::fs::read_to_string(file).expect("read")).expect("a record");
    edit(&mut r);
    r.digest.clear();
    r.digest = village::files::digest(&r);
    std::fs::write(to, serde_json::to_string(&r).expect("json")).expect("write");
}

/// A replay command refused before anything ran: non-zero, no script of the spy mod printed, no game
/// reported.
fn refused_unrun(what: &str, out: &Output, want: &str) {
    let (o, e) = (text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "{what}: accepted\n{o}\n{e}");
    assert!(
        !e.contains("spy:") && !o.contains("spy:"),
        "{what}: the mod's code ran: {e}"
    );
    assert!(!o.contains("(seed"), "{what}: a game was played: {o}");
    assert!(e.contains(want), "{what}: says why ({want:?}): {e}");
}

/// `replay`, `replay --html` and `render --replay` of a record made with a mod: without that `--mod`
/// on the command line, refused before any of its code loads, the error naming the folder and the
/// option to add; with it, played. A sealed record edited to name another folder is refused the same.
#[test]
fn replay_runs_code_only_from_folders_the_command_line_names() {
    let dir = scratch("replaymods");
    let m = spy_mod(&dir);
    let file = record(&dir, &["--mod", s(&m), "--variant", "spy"]);
    let page = dir.join("page.html");
    let pic = dir.join("pic.svg");
    let commands: [Vec<&str>; 4] = [
        vec!["replay", s(&file)],
        vec!["replay", s(&file), "--verify"],
        vec!["replay", s(&file), "--html", s(&page)],
        vec![
            "render",
            "--replay",
            s(&file),
            "--event",
            "2",
            "--svg",
            s(&pic),
        ],
    ];
    for args in &commands {
        let out = village(args);
        refused_unrun(&format!("{args:?}"), &out, &format!("--mod {}", s(&m)));
        // Named by the user, the mod is used.
        let with = [&args[..], &["--mod", s(&m)][..]].concat();
        let out = village(&with);
        assert!(out.status.success(), "{with:?}: {}", text(&out.stderr));
    }
    assert!(!pic.exists() || std::fs::read_to_string(&pic).is_ok_and(|t| t.contains("<svg")));
    // Another folder than the one named: refused too.
    let other = dir.join("other_mod");
    copy_dir(&m, &other);
    let out = village(&["replay", s(&file), "--mod", s(&other)]);
    refused_unrun(
        "replay with another folder",
        &out,
        &format!("--mod {}", s(&m)),
    );
    // A record made without mods, sealed again naming one: a record is data, not a list of code to run.
    let plain_dir = scratch("replaymods-plain");
    let plain = record(&plain_dir, &[]);
    let forged = dir.join("forged.json");
    reseal_record(&plain, &forged, |r| {
        r.mods = vec![m.clone()];
        r.variants = vec!["spy".into()];
    });
    let out = village(&["replay", s(&forged), "--verify"]);
    refused_unrun("a forged record", &out, &format!("--mod {}", s(&m)));
    let _ = std::fs::remove_dir_all(&plain_dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record whose digest does not match its content is refused before anything runs (with its mod
/// given, no line of its scripts runs), by `replay`, `replay --verify`, `--html` and `render --replay`.
#[test]
fn a_record_with_a_bad_digest_is_refused_before_anything_runs() {
    let dir = scratch("baddigest");
    let m = spy_mod(&dir);
    let file = record(&dir, &["--mod", s(&m), "--variant", "spy"]);
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
    v["result"] = Value::from(if v["result"] == "win" { "loss" } else { "win" });
    let edited = dir.join("edited.json");
    std::fs::write(&edited, v.to_string()).expect("write");
    let page = dir.join("p.html");
    let pic = dir.join("p.svg");
    for args in [
        vec!["replay", s(&edited), "--mod", s(&m)],
        vec!["replay", s(&edited), "--verify", "--mod", s(&m)],
        vec!["replay", s(&edited), "--html", s(&page), "--mod", s(&m)],
        vec![
            "render",
            "--replay",
            s(&edited),
            "--event",
            "1",
            "--svg",
            s(&pic),
            "--mod",
            s(&m),
        ],
    ] {
        let out = village(&args);
        refused_unrun(&format!("{args:?}"), &out, "edited after it was recorded");
        assert!(!page.exists() && !pic.exists(), "{args:?} wrote its output");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two shards of a 4-game intro run in `dir`: (a, b).
fn two_shards(dir: &Path) -> (PathBuf, PathBuf) {
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    for (k, p) in [("1/2", &a), ("2/2", &b)] {
        let out = village(&[
            "sim",
            "--games",
            "4",
            "--length",
            "intro",
            "--seed",
            "5",
            "--jobs",
            "1",
            "--shard",
            k,
            "--out",
            s(p),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    (a, b)
}

/// `file` edited by `edit` and sealed again.
fn reseal_shard(file: &Path, to: &Path, edit: impl Fn(&mut Shard)) {
    let mut sh: Shard =
        serde_json::from_str(&std::fs::read_to_string(file).expect("read")).expect("a shard");
    edit(&mut sh);
    sh.digest.clear();
    sh.digest = village::files::digest(&sh);
    std::fs::write(to, serde_json::to_string(&sh).expect("json")).expect("write");
}

/// `merge` of well-sealed shards whose fields the run could not have produced: each refused, naming
/// the file, the game and the field (and its range), with no report printed — a wave of loss of a
/// billion used to take 4 GB, firings summed past 2^64 wrapped.
#[test]
fn merge_checks_every_shard_field_against_the_settings() {
    let dir = scratch("mergecheck");
    let (a, b) = two_shards(&dir);
    type Edit = fn(&mut Shard);
    let cases: [(&str, Edit, &str); 12] = [
        (
            "lost_at_wave",
            |s| s.records[0].lost_at_wave = Some(1_000_000_000),
            "lost_at_wave 1000000000",
        ),
        (
            "lost_at_wave zero",
            |s| s.records[0].lost_at_wave = Some(0),
            "lost_at_wave 0",
        ),
        (
            "waves_won",
            |s| s.records[0].waves_won = 4_000_000,
            "waves_won 4000000",
        ),
        (
            "rounds_survived",
            |s| s.records[0].rounds_survived = 4_000_000,
            "rounds_survived 4000000",
        ),
        (
            "result",
            |s| s.records[0].result = "victory".into(),
            "result \"victory\"",
        ),
        (
            "cause",
            |s| s.records[0].cause = "gremlins".into(),
            "cause \"gremlins\"",
        ),
        ("seed", |s| s.records[0].seed ^= 1, "seed"),
        (
            "wounds",
            |s| s.records[0].wounds = u32::MAX,
            "wounds 4294967295",
        ),
        (
            "integrity",
            |s| s.records[0].town_hall_integrity = -7,
            "town_hall_integrity -7",
        ),
        (
            "firings",
            |s| {
                for r in &mut s.records {
                    r.firings
                        .insert("scripts/alpha/x.lua".into(), u64::MAX / 2 + 1);
                }
            },
            "firings",
        ),
        ("games", |s| s.options.games = u64::MAX, "games"),
        (
            "failed index",
            |s| {
                s.failed.push(village::sim::FailedGame {
                    index: 1,
                    seed: 0,
                    error: "x".into(),
                })
            },
            "game 1",
        ),
    ];
    for (name, edit, want) in cases {
        let bad = dir.join(format!("{}.json", name.replace(' ', "_")));
        reseal_shard(&a, &bad, edit);
        for json in [true, false] {
            let mut args = vec!["merge", s(&bad), s(&b)];
            if json {
                args.push("--json");
            }
            let out = village(&args);
            let e = text(&out.stderr);
            assert!(
                !out.status.success(),
                "{name}: merged\n{}",
                text(&out.stdout)
            );
            assert!(
                out.stdout.is_empty(),
                "{name}: printed a report: {}",
                text(&out.stdout)
            );
            assert!(e.contains(s(&bad)), "{name}: names the file: {e}");
            assert!(e.contains(want), "{name}: names the field ({want:?}): {e}");
        }
    }
    // The chart of a shard whose wave of loss is absurd is never drawn.
    let bad = dir.join("far.json");
    reseal_shard(&a, &bad, |s| {
        s.records[0].lost_at_wave = Some(1_000_000_000)
    });
    let out = run(&["merge", s(&bad), s(&b), "--svg", s(&dir.join("c.svg"))])
        .memory_limit(2 << 30)
        .output();
    assert!(!out.status.success());
    assert!(!dir.join("c.svg").exists());
    // The shards as written merge.
    let out = village(&["merge", s(&a), s(&b), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A REPL session at seed 7 that saves into `dir/s.json`: the save as JSON.
fn a_save(dir: &Path) -> Value {
    let save = dir.join("s.json");
    let out = run(&[
        "repl",
        "--length",
        "intro",
        "--seed",
        "7",
        "--history",
        "/dev/null",
    ])
    .stdin(&format!(":wave\n:save {}\n", s(&save)))
    .output();
    assert!(out.status.success(), "{}", text(&out.stdout));
    serde_json::from_str(&std::fs::read_to_string(&save).expect("read")).expect("json")
}

/// Saves that no game could have reached — two models of one id (`:activate` then reached the wrong
/// one), a model counter below the ids in use, a fled hero sharing an id, a round of 2^32 − 1 or a
/// round outside any wave, an unknown or a non-hero party member, two tokens of one id — are refused
/// with the field and value; the live game is kept and the session goes on.
#[test]
fn a_save_with_impossible_ids_rounds_or_party_is_refused() {
    let dir = scratch("savecheck");
    let good = a_save(&dir);
    type Edit = fn(&mut Value);
    let cases: [(&str, Edit, &str); 8] = [
        (
            "two ids",
            |v| v["game"]["models"][1]["id"] = v["game"]["models"][0]["id"].clone(),
            "model id 1 is used twice",
        ),
        (
            "next_model",
            |v| v["game"]["next_model"] = Value::from(1),
            "next_model 1",
        ),
        (
            "fled id",
            |v| {
                let m = v["game"]["models"][0].clone();
                v["game"]["fled"] = serde_json::json!([m]);
            },
            "model id 1 is used twice",
        ),
        (
            "round",
            |v| v["game"]["round"] = Value::from(4_294_967_295u64),
            "game.round 4294967295",
        ),
        (
            "round outside a wave",
            |v| {
                v["game"]["wave"] = Value::from(0);
                v["game"]["round"] = Value::from(3);
            },
            "game.round 3",
        ),
        (
            "party",
            |v| v["game"]["party"][0] = Value::from("Nobody"),
            "party: \"Nobody\"",
        ),
        (
            "party enemy",
            |v| v["game"]["party"][1] = Value::from("Orc Warrior"),
            "party: \"Orc Warrior\"",
        ),
        (
            "token ids",
            |v| {
                let t = serde_json::json!({"id": 1, "pos": {"x": 5.0, "y": 5.0}, "kind": "opportunity", "revealed": false});
                v["game"]["tokens"] = serde_json::json!([t.clone(), t]);
            },
            "token id 1",
        ),
    ];
    for (name, edit, want) in cases {
        let mut v = good.clone();
        edit(&mut v);
        let bad = dir.join(format!("{}.json", name.replace(' ', "_")));
        std::fs::write(&bad, v.to_string()).expect("write");
        let out = run(&[
            "repl",
            "--length",
            "intro",
            "--seed",
            "9",
            "--history",
            "/dev/null",
        ])
        .stdin(&format!(":load {}\nreturn game.seed\n", s(&bad)))
        .output();
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(
            all.contains(&format!("{}: not loaded: ", s(&bad))),
            "{name}: {all}"
        );
        assert!(
            all.contains(want),
            "{name}: names the field ({want:?}): {all}"
        );
        assert!(
            text(&out.stdout).trim_end().ends_with('9'),
            "{name}: the live game is kept: {all}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
