//! Bytes that are not UTF-8 (issue 36, root cause 11). Lua strings may hold any bytes: `print` shows
//! them (each invalid sequence as U+FFFD) instead of failing, in a hook as anywhere. Source text must
//! be UTF-8: a file with a stray Latin-1 byte is refused at its line (a module, a `require`d library,
//! a `village run` file), a later good save of it reloads under `run --watch`, and a piped REPL line
//! that is not UTF-8 is reported and the session goes on with the next line.

use crate::bin::{run, s, scratch, text, village};
use crate::{finishes, finishes_within, hook_error, vm_with};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use village::roster::Rosters;
use village::script::{Limits, ScriptHost};

/// `print` of strings with bytes that are not UTF-8, alone, inside a table and from `__tostring`.
const PRINTS: [&str; 5] = [
    "print('caf\\xe9')",
    "print('\\xff\\xfe', 1, '\\xc3')",
    "print({ ['k\\xe9'] = 'v\\xe9', 'x\\x80' })",
    "print(setmetatable({}, { __tostring = function() return 'caf\\xe9' end }))",
    "print(('\\xe9'):rep(3))",
];

#[test]
fn print_shows_any_bytes_and_never_fails() {
    for src in PRINTS {
        let out = finishes(move || {
            let vm = vm_with(Limits::default());
            vm.exec_with_budget(src, "evil.lua", Limits::default().hook_instructions)
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        assert_eq!(out, Ok(()), "{src}");
    }
    // An error made of such bytes still names its line.
    let (e, goes_on) = hook_error("local x = 1\nerror('caf\\xe9')");
    assert!(e.to_string().starts_with("evil.lua:2: caf"), "{e}");
    assert!(goes_on);
    // Where a person reads it (`village run`): each bad sequence as U+FFFD, the rest as it was.
    let dir = scratch("bytes-print");
    let f = dir.join("bytes.lua");
    std::fs::write(&f, PRINTS.join("\n") + "\nprint('after')\n").expect("written");
    let out = village(&["run", s(&f)]);
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        shown.lines().collect::<Vec<_>>(),
        [
            "caf\u{fffd}",
            "\u{fffd}\u{fffd}\t1\t\u{fffd}",
            "{",
            "  \"x\u{fffd}\",",
            "  [\"k\u{fffd}\"] = \"v\u{fffd}\",",
            "}",
            // A table prints its keys and values here, whatever its `__tostring` says.
            "{}",
            "\u{fffd}\u{fffd}\u{fffd}",
            "after",
        ],
        "{shown}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hook_that_prints_bytes_does_not_stop_the_game() {
    let dir = scratch("bytes-hookprint");
    let variants = dir.join("scripts/variants");
    std::fs::create_dir_all(&variants).expect("a mod");
    std::fs::write(
        variants.join("noisy.lua"),
        "return {\n\tname = 'noisy',\n\tmelee_modifier = function()\n\t\tprint('caf\\xe9')\n\t\treturn 0\n\tend,\n}\n",
    )
    .expect("written");
    let out = village(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--seed",
        "3",
        "--json",
        "--variant",
        "noisy",
        "--mod",
        s(&dir),
    ]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("caf\u{fffd}"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A mod folder with `files` (path under the mod, bytes).
fn latin_mod(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = scratch(&format!("bytes-{name}"));
    for (path, bytes) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&p, bytes).expect("written");
    }
    dir
}

fn open_err(dir: &Path) -> String {
    let layers = vec![Rosters::builtin_root(), dir.to_path_buf()];
    finishes(move || {
        ScriptHost::open(&layers, Limits::default(), 1)
            .err()
            .map(|e| e.join("\n"))
    })
    .expect("the mod is refused")
}

#[test]
fn a_source_file_with_a_stray_byte_is_refused_at_its_line() {
    // A module: the byte in a comment on line 3.
    let dir = latin_mod(
        "module",
        &[(
            "scripts/variants/latin.lua",
            b"-- A variant\n-- written in an editor set to Latin-1\n-- caf\xe9\nreturn { name = 'latin' }\n",
        )],
    );
    let e = open_err(&dir);
    assert!(e.contains("scripts/variants/latin.lua:3: "), "{e}");
    assert!(e.contains("UTF-8"), "{e}");
    // In a string on line 2 of a library a variant requires: the library's line, not the variant's.
    let dir = latin_mod(
        "required",
        &[
            (
                "scripts/variants/uses.lua",
                b"local greet = require('lib.greet')\nreturn { name = 'uses', hello = greet }\n",
            ),
            ("scripts/lib/greet.lua", b"local x = 1\nreturn 'caf\xe9'\n"),
        ],
    );
    let e = open_err(&dir);
    assert!(e.contains("scripts/lib/greet.lua:2: "), "{e}");
    assert!(e.contains("UTF-8"), "{e}");
    // A file `village run` runs: its line, and nothing of it ran.
    let dir = scratch("bytes-runfile");
    let f = dir.join("latin.lua");
    std::fs::write(&f, b"print('ran')\nprint('caf\xe9')\n").expect("written");
    let out = village(&["run", s(&f)]);
    let err = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("latin.lua:2: ") && err.contains("UTF-8"),
        "{err}"
    );
    assert!(!text(&out.stdout).contains("ran"), "{}", text(&out.stdout));
}

#[test]
fn run_watch_takes_the_good_save_after_a_file_with_a_stray_byte() {
    let dir = scratch("bytes-watch");
    let f = dir.join("watched.lua");
    std::fs::write(&f, b"print('caf\xe9')\n").expect("written");
    let (second, err) = finishes_within(Duration::from_secs(90), move || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_village"))
            .args(["run", "--watch"])
            .arg(&f)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the village binary runs");
        let (tx, rx) = mpsc::channel();
        for pipe in [
            Box::new(child.stdout.take().expect("stdout")) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().expect("stderr")),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let mut seen = Vec::new();
        let mut wait_for = |want: &str| {
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline {
                if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
                    let found = line.contains(want);
                    seen.push(line);
                    if found {
                        return true;
                    }
                }
            }
            false
        };
        assert!(wait_for("watching for changes"), "the watch starts");
        // Give the watcher a moment to be armed, as tests/run_watch.rs does.
        std::thread::sleep(Duration::from_millis(500));
        std::fs::write(&f, "print('second version')\n").expect("written");
        let second = wait_for("second version");
        let _ = child.kill();
        let _ = child.wait();
        (second, seen.join("\n"))
    });
    assert!(second, "the good save ran: {err}");
    assert!(err.contains("watched.lua:1: "), "{err}");
}

#[test]
fn a_piped_repl_line_that_is_not_utf8_is_reported_and_the_session_goes_on() {
    let mut input = b"x = 40\n".to_vec();
    input.extend_from_slice(b"s = 'caf\xe9'\n");
    input.extend_from_slice(b"return x + 2\n");
    let out = run(&["repl"]).stdin_bytes(&input).output();
    let shown = text(&out.stdout);
    assert!(
        shown.contains("stdin:2: ") && shown.contains("UTF-8"),
        "{shown}"
    );
    assert!(
        shown.trim_end().ends_with("\n42"),
        "the session goes on: {shown}"
    );
    assert!(
        !out.status.success(),
        "the failed line fails the exit status"
    );
}
