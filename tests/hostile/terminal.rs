//! Raw control characters from user data never reach a terminal (issue 36, root cause 13): ANSI and OSC
//! escapes, C1 controls and bidirectional overrides in roster names, a mod's modifier reasons, hook
//! errors, a record's result, a shard's cause and failed games' errors, and whatever a REPL session or
//! `village run` prints, are shown escaped (`\x1b`, `\u{9b}`) on stdout and stderr alike; newlines and
//! tabs are kept; JSON stays JSON with the same strings.

use super::bin::{assert_terminal_safe, run, s, scratch, text, village};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use village::sim::Shard;

/// Escapes a hostile file may carry: an ANSI colour and screen clear, an OSC window title, a C1 CSI,
/// a bidirectional override, a bell and a carriage return.
const NASTY: &str = "\u{1b}[31m\u{1b}[2J\u{1b}]0;owned\u{7}\u{9b}1m\u{202e}\r";

/// Both streams of `out` hold no raw control character.
fn safe(what: &str, out: &Output) {
    assert_terminal_safe(&format!("{what} (stdout)"), &out.stdout);
    assert_terminal_safe(&format!("{what} (stderr)"), &out.stderr);
}

/// A mod in `dir` with `files` (path inside the mod, text).
fn a_mod(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    let m = dir.join("m");
    for (rel, body) in files {
        let p = m.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, body).expect("write");
    }
    m
}

/// TOML's escape of every character of `text` (a basic string may not hold raw controls).
fn toml_escaped(text: &str) -> String {
    text.chars()
        .map(|c| format!("\\u{:04X}", c as u32))
        .collect()
}

/// Lua's escape of every byte of `text`.
fn lua_escaped(text: &str) -> String {
    text.bytes().map(|b| format!("\\{b}")).collect()
}

/// Roster names with escapes: `check` (text and errors), `show --list`, `show NAME` and `wave` print
/// them made visible.
#[test]
fn roster_names_print_escaped() {
    let dir = scratch("names");
    let name = format!("Orc {}Painted", toml_escaped(NASTY));
    let m = a_mod(
        &dir,
        &[(
            "rosters/bestiary.toml",
            &format!(
                "[[enemy]]\nname = \"{name}\"\ntier = \"mob\"\nquality = 4\ncombat = 2\n\
                 traits = [\"Savge\"]\nbehaviours = [\"Hunter\"]\n"
            ),
        )],
    );
    for args in [
        vec!["check", "--mod", s(&m)],
        vec!["show", "--list", "--mod", s(&m)],
        vec!["show", "Painted", "--mod", s(&m)],
        vec!["wave", "--escalation", "III", "--mod", s(&m)],
    ] {
        let out = village(&args);
        safe(&format!("{args:?}"), &out);
    }
    let out = village(&["check", "--mod", s(&m)]);
    assert!(
        format!("{}{}", text(&out.stdout), text(&out.stderr)).contains("Orc \\x1b[31m"),
        "shown escaped: {}",
        text(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A variant whose modifier reason and hook error carry escapes: the REPL's `:log` and `:explain`, a
/// failing `play`'s error, and `sim --keep-going`'s list of failed games print them escaped; its JSON
/// holds the very string.
#[test]
fn modifier_reasons_and_hook_errors_print_escaped() {
    let dir = scratch("reasons");
    let nasty = lua_escaped(NASTY);
    let m = a_mod(
        &dir,
        &[
            (
                "scripts/variants/loud.lua",
                &format!(
                    "return {{\n\tname = \"Loud\",\n\tdescription = \"Reasons.\",\n\
                     \tmelee_modifier = function(ctx, self, roll)\n\
                     \t\treturn {{ value = 1, reason = \"loud{nasty}\" }}\n\tend,\n}}\n"
                ),
            ),
            (
                "scripts/variants/bad.lua",
                &format!(
                    "return {{\n\tname = \"Bad\",\n\tdescription = \"Fails.\",\n\
                     \tmelee_modifier = function(ctx, self, roll)\n\
                     \t\terror(\"bad{nasty}\")\n\tend,\n}}\n"
                ),
            ),
        ],
    );
    let session = "game = village.new_game({ seed = 1, table = \"empty\", variants = { \"loud\" } })\n\
        local a = game:place(\"Orc Warrior\", { x = 10, y = 10 }); local b = game:place(\"Captain Maren\", \
        { x = 11, y = 10 }); game:force_dice({ 3, 3 }); game:melee(b, a)\n:log 5\n:explain\n";
    let out = run(&[
        "repl",
        "--length",
        "intro",
        "--history",
        "/dev/null",
        "--mod",
        s(&m),
    ])
    .stdin(session)
    .output();
    assert!(
        text(&out.stdout).contains("loud\\x1b[31m"),
        "{}",
        text(&out.stdout)
    );
    safe("the REPL's :log and :explain", &out);
    let common = ["--length", "intro", "--variant", "bad", "--mod", s(&m)];
    let out = village(&[&["play", "--auto"][..], &common].concat());
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("bad\\x1b[31m"),
        "{}",
        text(&out.stderr)
    );
    safe("play's hook error", &out);
    let sim = [&["sim", "--games", "2", "--keep-going"][..], &common].concat();
    let out = village(&sim);
    assert!(
        text(&out.stdout).contains("failed"),
        "{}",
        text(&out.stdout)
    );
    safe("sim --keep-going's failed games", &out);
    let out = village(&[&sim[..], &["--json"][..]].concat());
    safe("sim --keep-going --json", &out);
    let v: Value = serde_json::from_slice(&out.stdout).expect("still JSON");
    let error = v["failed"][0]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        error.contains(&format!("bad{NASTY}")),
        "the same string: {error:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record whose result carries escapes and a shard whose cause and failed game's error do (sealed
/// again, as a forger would): `replay` and `merge` print them escaped, as text and as JSON.
#[test]
fn record_and_shard_texts_print_escaped() {
    let dir = scratch("files");
    let rec = dir.join("rec");
    let out = village(&[
        "sim",
        "--games",
        "1",
        "--length",
        "intro",
        "--record",
        s(&rec),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut r: village::sim::Replay =
        serde_json::from_str(&std::fs::read_to_string(rec.join("game-0.json")).expect("read"))
            .expect("a record");
    r.result = format!("win{NASTY}");
    r.digest.clear();
    r.digest = village::files::digest(&r);
    let forged = dir.join("forged.json");
    std::fs::write(&forged, serde_json::to_string(&r).expect("json")).expect("write");
    for args in [
        vec!["replay", s(&forged)],
        vec!["replay", s(&forged), "--json"],
    ] {
        let out = village(&args);
        safe(&format!("{args:?}"), &out);
    }
    let shard = dir.join("shard.json");
    let out = village(&[
        "sim",
        "--games",
        "3",
        "--length",
        "intro",
        "--seed",
        "4",
        "--out",
        s(&shard),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let read = || -> Shard {
        serde_json::from_str(&std::fs::read_to_string(&shard).expect("read")).expect("a shard")
    };
    let seal = |mut sh: Shard, to: &Path| {
        sh.digest.clear();
        sh.digest = village::files::digest(&sh);
        std::fs::write(to, serde_json::to_string(&sh).expect("json")).expect("write");
    };
    // A failed game whose error is hostile text (a script's error message is anybody's text).
    let mut sh = read();
    let gone = sh.records.remove(1);
    sh.failed.push(village::sim::FailedGame {
        index: gone.index,
        seed: gone.seed,
        error: format!("boom{NASTY}"),
    });
    let failed = dir.join("failed.json");
    seal(sh, &failed);
    let out = village(&["merge", s(&failed)]);
    assert!(
        text(&out.stdout).contains("boom\\x1b[31m"),
        "{}",
        text(&out.stdout)
    );
    safe("merge of a failed game's error", &out);
    let out = village(&["merge", s(&failed), "--json"]);
    safe("merge --json", &out);
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["failed"][0]["error"], format!("boom{NASTY}"));
    // A cause no game ends with.
    let mut sh = read();
    sh.records[0].cause = format!("overrun{NASTY}");
    let cause = dir.join("cause.json");
    seal(sh, &cause);
    for args in [vec!["merge", s(&cause)], vec!["merge", s(&cause), "--json"]] {
        let out = village(&args);
        safe(&format!("{args:?}"), &out);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a REPL session and `village run` print — `print`, errors, a string and a table key typed
/// back — and an option's value repeated in the parser's error are escaped; layout (newlines, tabs) is
/// kept.
#[test]
fn the_repl_and_run_print_escaped() {
    let dir = scratch("repl");
    let nasty = lua_escaped(NASTY);
    let lines = format!(
        "print(\"p{nasty}\", \"tab\")\n\
         error(\"e{nasty}\")\n\
         return \"s{nasty}\"\n\
         return {{ [\"k{nasty}\"] = 1 }}\n"
    );
    let out = run(&["repl", "--length", "intro", "--history", "/dev/null"])
        .stdin(&lines)
        .output();
    let o = text(&out.stdout);
    for want in ["p\\x1b[31m", "e\\x1b[31m", "\ttab"] {
        assert!(o.contains(want), "{want:?} in {o}");
    }
    safe("the REPL", &out);
    let lua = dir.join("loud.lua");
    std::fs::write(
        &lua,
        format!("print(\"line one\\nline{nasty}\")\nerror(\"e{nasty}\")\n"),
    )
    .expect("write");
    let out = village(&["run", s(&lua)]);
    assert!(
        text(&out.stdout).contains("line one\nline\\x1b[31m"),
        "{}",
        text(&out.stdout)
    );
    safe("village run", &out);
    // An option's value the parser repeats in its error (piped, clap's own printer strips some
    // escapes; on a terminal it printed them all).
    let out = village(&["sim", "--games", NASTY]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("invalid value"),
        "{}",
        text(&out.stderr)
    );
    safe("an option's error", &out);
    let _ = std::fs::remove_dir_all(&dir);
}
