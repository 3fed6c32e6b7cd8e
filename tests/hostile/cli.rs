//! The command line with careless or hostile input (issue 16, defects 6, 8, 10 and 12's CLI part):
//! work is never lost when a script fails (`play --log`, `sim --record`/`--keep-going`, `:save` under a
//! file size limit), script output never reaches a JSON stream, shards, recorded games and saves are
//! checked against what they were made with, and the flags refuse values out of range.
//!
//! Each case runs the built binary under the hang detector and checks the clear error, that the
//! process or session goes on where it should, and that nothing was half-applied or lost.

use super::{finishes, fixture};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Run `village` with `args` (and `stdin`, if any) under the hang detector.
fn village_in(args: &[&str], stdin: Option<&str>) -> Output {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let stdin = stdin.map(str::to_string);
    finishes(move || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_village"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the village binary runs");
        if let Some(text) = stdin {
            use std::io::Write as _;
            let mut pipe = child.stdin.take().expect("stdin");
            let _ = pipe.write_all(text.as_bytes());
        }
        drop(child.stdin.take());
        child.wait_with_output().expect("the binary finishes")
    })
}

fn village(args: &[&str]) -> Output {
    village_in(args, None)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh folder for one case.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("village-hostile-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A copy of a fixture mod (so a case can edit it).
fn copy_mod(from: &Path, to: &Path) {
    for entry in walk(from) {
        let rel = entry.strip_prefix(from).expect("inside");
        let dest = to.join(rel);
        std::fs::create_dir_all(dest.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(&entry, &dest).expect("copy");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("a folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

// ---- defect 6: lost work ----

/// `play --log F` with a hook that fails mid-game: the log up to the failure is written, and the error
/// names the script's file:line, the wave and round reached and how many events were kept.
#[test]
fn play_log_keeps_the_events_up_to_a_failing_hook() {
    let dir = scratch("playlog");
    let log = dir.join("game.jsonl");
    std::fs::write(&log, "an older log\n").expect("write");
    let m = fixture("cli_fails");
    let out = village(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--seed",
        "1",
        "--variant",
        "evil",
        "--mod",
        s(&m),
        "--log",
        s(&log),
    ]);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("cli_fails/scripts/variants/evil.lua:7: evil melee hook"),
        "the script's file:line: {err}"
    );
    assert!(
        err.contains("the game stopped in wave 1, round 1, after "),
        "{err}"
    );
    // Nothing lost: every event logged before the failure is in the file, one JSON object a line.
    let written = std::fs::read_to_string(&log).expect("the log was written");
    // The events, the scripts' decision lines (kept where a log is, just before the events they led
    // to) set aside.
    let lines: Vec<&str> = written
        .lines()
        .filter(|l| !l.starts_with("{\"event\":\"decision\""))
        .collect();
    assert!(
        lines.len() > 10,
        "the deployment and moves are kept: {written}"
    );
    assert!(
        err.contains(&format!(
            "after {} events (written to {})",
            lines.len(),
            log.display()
        )),
        "{err}"
    );
    for (i, l) in lines.iter().enumerate() {
        let e: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("line {i}: {e}: {l}"));
        assert_eq!(e["seq"], i, "{l}");
    }
    // Without --log the error says how to keep them.
    let out = village(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--seed",
        "1",
        "--variant",
        "evil",
        "--mod",
        s(&m),
    ]);
    assert!(text(&out.stderr).contains("--log FILE keeps them"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Seed 60 of the `cli_fails_some` mod: games 0–2 finish, game 3 fails (a Lizard Harpooner fights), as
/// do 4 and 5. (Seeds 5 and 58 did before issue 37's movement and rulings changed play; the test that
/// follows fails with a clear message if a change of play moves the failures again.)
const SOME_FAIL: [&str; 8] = [
    "--games",
    "6",
    "--length",
    "intro",
    "--seed",
    "60",
    "--variant",
    "evil",
];

/// `sim` without --keep-going: the error names the failed game and its seed, and the records of the
/// games that finished are written (and replay as recorded).
#[test]
fn a_failed_sim_game_is_named_and_the_finished_records_are_kept() {
    let dir = scratch("simrecord");
    let m = fixture("cli_fails_some");
    let rec = dir.join("records");
    let out = village(
        &[
            &["sim"][..],
            &SOME_FAIL,
            &["--mod", s(&m), "--jobs", "1", "--record", s(&rec)],
        ]
        .concat(),
    );
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    let seed = village::sim::game_seed(60, 3);
    assert!(
        err.contains(&format!("game 3 (seed {seed}): ")),
        "names the game and seed: {err}"
    );
    assert!(
        err.contains("evil.lua:8: the Harpooner's melee hook fails"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "; 3 records of the 3 finished games are in {}",
            rec.display()
        )),
        "{err}"
    );
    assert!(err.contains("--keep-going"), "{err}");
    // Nothing lost: games 0, 1 and 2 are recorded, and a record replays as it was recorded.
    for i in 0..3 {
        assert!(rec.join(format!("game-{i}.json")).exists(), "game {i} kept");
    }
    assert!(!rec.join("game-3.json").exists());
    let out = village(&[
        "replay",
        s(&rec.join("game-2.json")),
        "--verify",
        "--mod",
        s(&m),
    ]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("the log is the recorded one"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sim --keep-going`: every game is played; the failed ones are listed (index, seed, error) in the
/// text and the JSON report and counted apart; the exit status says the run was not clean; the same
/// for any number of threads; a shard keeps its failed games through `merge`.
#[test]
fn keep_going_reports_the_failed_games_and_plays_the_rest() {
    let dir = scratch("keepgoing");
    let m = fixture("cli_fails_some");
    let run = |extra: &[&str]| {
        village(
            &[
                &["sim"][..],
                &SOME_FAIL,
                &["--mod", s(&m), "--keep-going"],
                extra,
            ]
            .concat(),
        )
    };
    let out = run(&["--json", "--jobs", "1"]);
    assert!(!out.status.success(), "a run with failed games exits 1");
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["games"], 3, "the finished games are reported: {v}");
    let failed = v["failed"].as_array().expect("failed games listed").clone();
    let idx: Vec<u64> = failed.iter().filter_map(|f| f["index"].as_u64()).collect();
    assert_eq!(idx, [3, 4, 5]);
    for f in &failed {
        let i = f["index"].as_u64().unwrap_or(0);
        assert_eq!(f["seed"].as_u64(), Some(village::sim::game_seed(60, i)));
        assert!(f["error"]
            .as_str()
            .unwrap_or("")
            .contains("evil.lua:8: the Harpooner's melee hook fails"));
    }
    // The same games with two threads (less the timing).
    let out2 = run(&["--json", "--jobs", "2"]);
    let mut v2: Value = serde_json::from_slice(&out2.stdout).expect("one JSON object");
    for x in [&mut v, &mut v2] {
        x["games_per_sec"] = Value::Null;
        x["seconds"] = Value::Null;
    }
    assert_eq!(v, v2);
    // Text: counted apart, each named with its seed.
    let out = run(&["--jobs", "2"]);
    let t = text(&out.stdout);
    // A variant run first says what its variant does, then reports.
    let (rules, report) = t.split_once('\n').unwrap_or_default();
    assert!(rules.starts_with("Rules: evil — Evil sometimes: "), "{t}");
    assert!(report.starts_with("3 games: "), "{t}");
    assert!(t.contains("3 games failed (not counted above):"), "{t}");
    assert!(
        t.contains(&format!(
            "game 4 (seed {}): ",
            village::sim::game_seed(60, 4)
        )),
        "{t}"
    );
    // Shards keep their failed games, and merge reports them as the whole run does.
    let (a, b) = (dir.join("1.json"), dir.join("2.json"));
    // Shard 1/2 is games 0–2 (all finish), shard 2/2 games 3–5 (all fail).
    assert!(run(&["--shard", "1/2", "--out", s(&a)]).status.success());
    assert!(!run(&["--shard", "2/2", "--out", s(&b)]).status.success());
    let out = village(&["merge", s(&a), s(&b), "--json"]);
    assert!(!out.status.success());
    let merged: Value = serde_json::from_slice(&out.stdout).expect("merge prints JSON");
    assert_eq!(merged["failed"], v["failed"]);
    assert_eq!(merged["games"], 3);
    // --keep-going is refused with --vs (the arms must pair game by game).
    let out = run(&["--vs", "default"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--keep-going` after a runaway hook: the budget stops the game, and the worker's VM plays its next
/// games exactly as a run whose failing games fail at once (an error) plays them — nothing carries
/// from the stopped game to the next.
#[test]
fn keep_going_after_a_runaway_hook_plays_the_next_games_unchanged() {
    // Seed 9: some games fail (a Harpooner fights) and some finish; which ones is play's to say, and
    // the looping mod must fail exactly where the failing mod does.
    let run = |m: &str, jobs: &str| {
        let out = village(&[
            "sim",
            "--games",
            "6",
            "--length",
            "intro",
            "--seed",
            "9",
            "--variant",
            "evil",
            "--mod",
            s(&fixture(m)),
            "--keep-going",
            "--json",
            "--jobs",
            jobs,
        ]);
        assert!(!out.status.success());
        let mut v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        v["games_per_sec"] = Value::Null;
        v["seconds"] = Value::Null;
        v
    };
    let mut looping = run("cli_loops_some", "1");
    let failing = run("cli_fails_some", "1");
    let idx = |v: &Value| -> Vec<u64> {
        v["failed"]
            .as_array()
            .map(|a| a.iter().filter_map(|f| f["index"].as_u64()).collect())
            .unwrap_or_default()
    };
    let failed = idx(&failing);
    assert!(
        !failed.is_empty() && failed.len() < 6,
        "seed 9 should have failed and finished games: {failed:?}"
    );
    assert_eq!(idx(&looping), failed);
    for f in looping["failed"].as_array().cloned().unwrap_or_default() {
        let e = f["error"].as_str().unwrap_or("");
        assert!(
            e.contains("cli_loops_some/scripts/variants/evil.lua:8: instruction budget exhausted"),
            "{e}"
        );
    }
    assert_eq!(looping["games"], 6 - failed.len());
    assert_eq!(
        looping,
        run("cli_loops_some", "2"),
        "the same for any --jobs"
    );
    // The finished games' report is the same as where the failing games failed at once.
    looping["failed"] = failing["failed"].clone();
    assert_eq!(looping, failing);
}

/// Run the REPL with `commands` under `ulimit -f 8` (8 KB; a save is about 14 KB). `ignore_xfsz`: the
/// signal the kernel sends past the limit is ignored, so the write fails with an error instead of
/// killing the process.
fn limited_repl(dir: &Path, commands: &str, ignore_xfsz: bool) -> Output {
    let trap = if ignore_xfsz { "trap '' XFSZ; " } else { "" };
    let script = format!(
        "{trap}ulimit -f 8; exec \"$0\" repl --length intro --history {}",
        s(&dir.join("history"))
    );
    let commands = commands.to_string();
    finishes(move || {
        let mut child = Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_village")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("sh runs");
        {
            use std::io::Write as _;
            let mut pipe = child.stdin.take().expect("stdin");
            let _ = pipe.write_all(commands.as_bytes());
        }
        child.wait_with_output().expect("the shell finishes")
    })
}

/// `:save` over a good save under a file size limit: the write fails, the error says so, the session
/// goes on, and the previous file is whole (byte for byte) and still loads. Without the signal ignored
/// the kernel kills the process mid-write — the previous file is still whole.
#[test]
fn a_failed_save_keeps_the_previous_file_whole() {
    let dir = scratch("save");
    let save = dir.join("good.json");
    let out = village_in(
        &["repl", "--length", "intro", "--history", s(&dir.join("h"))],
        Some(&format!(":save {}\n", s(&save))),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let good = std::fs::read(&save).expect("the good save");
    assert!(
        good.len() > 8 * 1024,
        "the save must pass the limit: {}",
        good.len()
    );
    let out = limited_repl(
        &dir,
        &format!("return 1 + 1\n:save {}\nreturn 2 + 3\n", s(&save)),
        true,
    );
    let (o, e) = (text(&out.stdout), text(&out.stderr));
    assert!(
        format!("{o}{e}").contains("nothing was saved; the file keeps what it held"),
        "{o}\n{e}"
    );
    assert!(o.contains('5'), "the session goes on: {o}");
    assert_eq!(
        std::fs::read(&save).expect("still there"),
        good,
        "the old save is whole"
    );
    let left: Vec<PathBuf> = walk(&dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "the failed write cleaned up: {left:?}");
    let out = limited_repl(&dir, &format!(":save {}\n", s(&save)), false);
    assert!(!out.status.success(), "killed past the limit");
    assert_eq!(
        std::fs::read(&save).expect("still there"),
        good,
        "the old save is whole"
    );
    // It still loads.
    let out = village_in(
        &["repl", "--length", "intro", "--history", s(&dir.join("h"))],
        Some(&format!(":load {}\nreturn game.wave\n", s(&save))),
    );
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains(&format!("loaded {}", s(&save))));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- defect 10: output that breaks tools ----

/// `print` in a hook goes to stderr: `sim --json` and `play --json` stay one JSON object on stdout; the
/// REPL still shows the line to the person (stdout).
#[test]
fn script_print_never_reaches_a_json_stream() {
    let m = fixture("cli_chatty");
    let common = [
        "--length",
        "intro",
        "--seed",
        "1",
        "--variant",
        "chatty",
        "--mod",
        s(&m),
        "--json",
    ];
    let out = village(&[&["sim", "--games", "2"][..], &common].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)));
    assert_eq!(v["games"], 2);
    assert!(
        text(&out.stderr).contains("chatty: melee roll for\t"),
        "the line is on stderr"
    );
    let out = village(&[&["play", "--auto"][..], &common].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let g: Value = serde_json::from_slice(&out.stdout).expect("play --json is JSON");
    assert!(g["waves"].is_array());
    assert!(text(&out.stderr).contains("chatty: melee roll for"));
    // A print at a script's top level (run when the scripts load): `check --json` stays JSON.
    let out = village(&["check", "--json", "--mod", s(&fixture("cli_loud"))]);
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)));
    assert!(v["profiles"].is_array());
    assert!(
        text(&out.stderr).contains("loud: loading\t42\n"),
        "{}",
        text(&out.stderr)
    );
    // The REPL: a print is shown where the person reads the session, with tostring's conversions.
    let out = village_in(
        &["repl", "--length", "intro", "--history", "/dev/null"],
        Some("print('hello', 1, nil, true)\nreturn 2 + 2\n"),
    );
    let o = text(&out.stdout);
    assert!(o.contains("hello\t1\tnil\ttrue\n"), "{o}");
    assert!(o.contains('4'), "the session goes on: {o}");
}

// ---- defect 8: shards, replays and saves trusted blindly ----

fn shard(m: &Path, out: &Path, k: &str, extra: &[&str]) -> Output {
    village(
        &[
            &[
                "sim",
                "--games",
                "4",
                "--length",
                "intro",
                "--seed",
                "3",
                "--variant",
                "chatty",
                "--mod",
                s(m),
                "--shard",
                k,
                "--out",
                s(out),
            ][..],
            extra,
        ]
        .concat(),
    )
}

/// `merge` refuses shards made with different rule/script content (a mod's file edited between the
/// shards), naming the file; with a different setting, naming the flag; and a shard edited by hand.
/// Nothing is printed for a refused merge.
#[test]
fn merge_refuses_shards_of_different_content_settings_or_edited_by_hand() {
    let dir = scratch("merge");
    let (ma, mb) = (dir.join("a"), dir.join("b"));
    copy_mod(&fixture("cli_chatty"), &ma);
    copy_mod(&fixture("cli_chatty"), &mb);
    let (s1, s2, s3) = (dir.join("1.json"), dir.join("2.json"), dir.join("3.json"));
    assert!(shard(&ma, &s1, "1/2", &[]).status.success());
    // The same mod, with its variant edited (one comment line): not the same run.
    let f = mb.join("scripts/variants/chatty.lua");
    let src = std::fs::read_to_string(&f).expect("read");
    std::fs::write(&f, format!("-- edited\n{src}")).expect("write");
    assert!(shard(&mb, &s2, "2/2", &[]).status.success());
    let out = village(&["merge", s(&s1), s(&s2)]);
    let e = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        e.contains(&format!(
            "{} is not of the same run as {}: the rosters/scripts differ \
             (layer1/scripts/variants/chatty.lua changed)",
            s(&s2),
            s(&s1)
        )),
        "{e}"
    );
    assert!(out.stdout.is_empty(), "no report from a refused merge");
    // The same content in another folder is the same run.
    assert!(shard(&ma, &s2, "2/2", &[]).status.success());
    let out = village(&["merge", s(&s1), s(&s2), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A different setting: named by its flag.
    assert!(
        shard(&ma, &s3, "2/2", &["--heroes", "Captain Maren,Sister Ilse"])
            .status
            .success()
    );
    let out = village(&["merge", s(&s1), s(&s3)]);
    let e = text(&out.stderr);
    assert!(
        e.contains("--heroes differs ([\"Captain Maren\", \"Sister Ilse\"] vs"),
        "{e}"
    );
    // A shard edited by hand (a loss made a win): refused, named.
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(&s2).expect("read")).expect("json");
    let first = v["records"][0]["result"].as_str().unwrap_or("").to_string();
    v["records"][0]["result"] = Value::from(if first == "win" { "loss" } else { "win" });
    std::fs::write(&s2, v.to_string()).expect("write");
    let out = village(&["merge", s(&s1), s(&s2)]);
    let e = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        e.contains(&format!(
            "{}: the shard was edited after it was written",
            s(&s2)
        )),
        "{e}"
    );
    assert!(out.stdout.is_empty());
    // The same shard twice, a truncated one, one of another format: each refused, named.
    let out = village(&["merge", s(&s1), s(&s1)]);
    assert!(
        text(&out.stderr).contains("game 0 is twice in the shards"),
        "{}",
        text(&out.stderr)
    );
    let cut = dir.join("cut.json");
    let whole = std::fs::read_to_string(&s1).expect("read");
    std::fs::write(&cut, &whole[..whole.len() / 2]).expect("write");
    let out = village(&["merge", s(&s1), s(&cut)]);
    let e = text(&out.stderr);
    assert!(
        e.contains(&format!(
            "{}: not a shard written by village sim --out",
            s(&cut)
        )),
        "{e}"
    );
    let old = dir.join("old.json");
    std::fs::write(
        &old,
        whole.replace("village-sim-shard 3", "village-sim-shard 1"),
    )
    .expect("write");
    let out = village(&["merge", s(&old)]);
    let e = text(&out.stderr);
    assert!(
        e.contains("not a shard file of this version (\"village-sim-shard 1\""),
        "{e}"
    );
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Paths that cannot be written: `sim --out` into a missing folder is refused before any game is
/// played; `play --log` into one still prints the game, then fails naming the file.
#[test]
fn an_unwritable_output_never_costs_the_run() {
    let dir = scratch("unwritable");
    let missing = dir.join("no/such/folder/out.json");
    let out = village(&[
        "sim",
        "--games",
        "2",
        "--length",
        "intro",
        "--out",
        s(&missing),
    ]);
    let e = text(&out.stderr);
    assert!(!out.status.success());
    assert!(e.contains("does not exist"), "{e}");
    assert!(out.stdout.is_empty(), "refused before playing");
    let out = village(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--seed",
        "3",
        "--json",
        "--log",
        s(&missing),
    ]);
    let e = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        e.contains(&format!("writing {} (nothing was written", s(&missing))),
        "{e}"
    );
    let g: Value = serde_json::from_slice(&out.stdout).expect("the game is printed anyway");
    assert!(g["result"].is_string());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recorded game edited by hand (its result changed) is refused by `replay --verify` (and plain
/// `replay`) before it is played (issue 36: a record is checked before anything runs), saying it was
/// edited; the same record unedited verifies; the record under other scripts says which files differ.
#[test]
fn a_hand_edited_record_does_not_verify() {
    let dir = scratch("replay");
    let rec = dir.join("rec");
    let out = village(&[
        "sim",
        "--games",
        "1",
        "--length",
        "intro",
        "--seed",
        "2",
        "--record",
        s(&rec),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let file = rec.join("game-0.json");
    let out = village(&["replay", s(&file), "--verify"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
    let was = v["result"].as_str().unwrap_or("").to_string();
    let now = if was == "win" { "loss" } else { "win" };
    v["result"] = Value::from(now);
    let edited = dir.join("edited.json");
    std::fs::write(&edited, v.to_string()).expect("write");
    for verify in [true, false] {
        let mut args = vec!["replay", s(&edited)];
        if verify {
            args.push("--verify");
        }
        let out = village(&args);
        let (o, e) = (text(&out.stdout), text(&out.stderr));
        assert!(!out.status.success(), "an edited record fails: {o}");
        assert!(
            e.contains(&format!(
                "{}: the file was edited after it was recorded",
                s(&edited)
            )),
            "{e}"
        );
        assert!(o.is_empty(), "refused before it is played: {o}");
    }
    // A record of the format before fingerprints: refused by its format name, not replayed.
    let mut old = serde_json::from_str::<Value>(&std::fs::read_to_string(&file).expect("read"))
        .expect("json");
    old["format"] = Value::from("village-replay 1");
    if let Some(o) = old.as_object_mut() {
        o.remove("fingerprint");
        o.remove("digest");
    }
    let old_file = dir.join("old.json");
    std::fs::write(&old_file, old.to_string()).expect("write");
    let out = village(&["replay", s(&old_file), "--verify"]);
    let e = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        e.contains("not a replay of this version (\"village-replay 1\"; this version reads \"village-replay 4\""),
        "{e}"
    );
    assert!(out.stdout.is_empty());
    // Under other scripts (a mod layer added) the difference in content is named.
    let out = village(&[
        "replay",
        s(&file),
        "--verify",
        "--mod",
        s(&fixture("cli_chatty")),
    ]);
    let o = text(&out.stdout);
    assert!(
        o.contains("the rosters/scripts differ from the recording's: layer1/scripts/variants/chatty.lua added"),
        "{o}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A REPL session that saves, then loads `edit`ed copies of its save: each refused with the field,
/// value and range, the live game kept (its seed still 7) and the session going on.
#[test]
fn a_loaded_save_is_checked_and_a_bad_one_refused_whole() {
    let dir = scratch("loadcheck");
    let save = dir.join("s.json");
    let out = village_in(
        &[
            "repl",
            "--length",
            "intro",
            "--seed",
            "7",
            "--history",
            "/dev/null",
        ],
        Some(&format!(":save {}\n", s(&save))),
    );
    assert!(out.status.success());
    let good: Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("read")).expect("json");
    type Edit = fn(&mut Value);
    let cases: [(&str, Edit, &str); 8] = [
        (
            "wave",
            |v| v["game"]["wave"] = Value::from(4_000_000_000u64),
            "game.wave 4000000000 is outside 0..=",
        ),
        (
            "supplies",
            |v| v["game"]["supplies"] = Value::from(-5),
            "game.supplies -5 is outside 0..=10000",
        ),
        (
            "forced",
            |v| v["game"]["dice"]["forced"] = serde_json::json!([3, 9]),
            "game.dice: forced die #2 is 9, a die shows 1 to 6",
        ),
        (
            "profile",
            |v| v["game"]["models"][0]["name"] = Value::from("Nobody"),
            "model 1 (\"Nobody\"): no profile of that name in the rosters",
        ),
        (
            "quality",
            |v| v["game"]["models"][1]["quality"] = Value::from(40),
            "quality 40 (profile ",
        ),
        (
            "pos",
            |v| v["game"]["models"][0]["pos"]["x"] = Value::from(1e9),
            "pos = (1e9, ",
        ),
        (
            "policy",
            |v| v["policy"] = Value::from("nobody"),
            "policy \"nobody\" is not a hero policy of the scripts (scripts/policies/nobody.lua)",
        ),
        (
            "variant",
            |v| v["variants"] = serde_json::json!(["nothing_like_it"]),
            "variant \"nothing_like_it\" is not a variant of the scripts",
        ),
    ];
    for (name, edit, want) in cases {
        let mut v = good.clone();
        edit(&mut v);
        let bad = dir.join(format!("{name}.json"));
        std::fs::write(&bad, v.to_string()).expect("write");
        let out = village_in(
            &[
                "repl",
                "--length",
                "intro",
                "--seed",
                "7",
                "--history",
                "/dev/null",
            ],
            Some(&format!(":load {}\nreturn game.seed\n", s(&bad))),
        );
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(
            all.contains(&format!("{}: not loaded: ", s(&bad))),
            "{name}: {all}"
        );
        assert!(all.contains(want), "{name}: {all}");
        // The live game is the one the session had, and the session answered the next line.
        assert!(text(&out.stdout).trim_end().ends_with('7'), "{name}: {all}");
    }
    // A save made with a mod, loaded without it: loaded, with a warning naming what differs.
    let with_mod = dir.join("with_mod.json");
    let m = fixture("cli_chatty");
    let out = village_in(
        &[
            "repl",
            "--length",
            "intro",
            "--mod",
            s(&m),
            "--history",
            "/dev/null",
        ],
        Some(&format!(":save {}\n", s(&with_mod))),
    );
    assert!(out.status.success());
    let out = village_in(
        &["repl", "--length", "intro", "--history", "/dev/null"],
        Some(&format!(":load {}\n", s(&with_mod))),
    );
    let o = text(&out.stdout);
    assert!(out.status.success(), "{o}");
    assert!(
        o.contains("saved with other rosters/scripts (layer1/scripts/variants/chatty.lua missing)"),
        "{o}"
    );
    assert!(o.contains(&format!("loaded {}", s(&with_mod))), "{o}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- defect 12, the CLI's part ----

/// `--games 0` is refused by `sim` and `bench` with the valid range; nothing runs.
#[test]
fn zero_games_are_refused() {
    for cmd in ["sim", "bench"] {
        let out = village(&[cmd, "--games", "0", "--json"]);
        let e = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {e}");
        assert!(e.contains("invalid value '0' for '--games <GAMES>'"), "{e}");
        assert!(e.contains("0 is not in 1.."), "{e}");
        assert!(out.stdout.is_empty(), "{cmd} printed a report");
    }
}

/// `odds melee` refuses a Combat outside -20..=20 (it used to wrap), naming the value and range; the
/// edges are accepted.
#[test]
fn odds_refuses_combat_out_of_range_instead_of_wrapping() {
    for bad in ["2147483647", "-2147483648", "99999999999", "21", "-21"] {
        let out = village(&["odds", "melee", "-a", bad, "-d", "3"]);
        let e = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {e}");
        assert!(
            e.contains(&format!("Combat {bad} is outside -20..=20")),
            "{e}"
        );
        assert!(out.stdout.is_empty());
    }
    let out = village(&["odds", "melee", "-a", "20", "-d", "-20", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["tie"].is_number());
}

/// Every command takes any u64 seed: `play`, `render` and the REPL with 2^63 and 2^64 − 1 (which used
/// to fail with "seed must be an integer, got number"), the same game each time.
#[test]
fn seeds_at_and_above_two_to_the_63_work_everywhere() {
    let dir = scratch("seeds");
    for seed in ["9223372036854775808", "18446744073709551615"] {
        let play = |_: ()| {
            village(&[
                "play", "--auto", "--length", "intro", "--seed", seed, "--json",
            ])
        };
        let (a, b) = (play(()), play(()));
        assert!(a.status.success(), "{seed}: {}", text(&a.stderr));
        assert_eq!(a.stdout, b.stdout, "the same game");
        let v: Value = serde_json::from_slice(&a.stdout).expect("json");
        assert_eq!(v["seed"].to_string(), seed);
        let svg = dir.join("t.svg");
        let out = village(&["render", "--svg", s(&svg), "--seed", seed]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let out = village_in(
            &["repl", "--seed", seed, "--history", "/dev/null"],
            Some("return game.wave\n"),
        );
        assert!(out.status.success(), "{seed}: {}", text(&out.stdout));
        let out = village(&["sim", "--games", "1", "--length", "intro", "--seed", seed]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    // Past u64: refused by every command alike.
    for cmd in [&["play", "--auto"][..], &["sim"], &["repl"], &["wave"]] {
        let out = village(&[cmd, &["--seed", "18446744073709551616"]].concat());
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
