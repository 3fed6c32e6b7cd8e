//! Running the `village` binary from integration tests, as a person or another program would: one
//! command, a piped REPL session, a fresh folder for a test's files, and the default party.
#![allow(dead_code)] // each test file uses the part it needs

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The default party of four, as `village sim` and `play` field it.
pub const PARTY: [&str; 4] = [
    "Captain Maren",
    "Tobin the Marksman",
    "Sister Ilse",
    "Bram the Smith",
];

/// The built `village` binary, run in the checkout (where its built-in rosters and scripts are).
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_village"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// `village ARGS`, whatever it exits with.
pub fn run(args: &[&str]) -> Output {
    command()
        .args(args)
        .output()
        .expect("the village binary runs")
}

/// `village ARGS`, which must succeed (the failure shows its stderr).
pub fn ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(
        out.status.success(),
        "village {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What a command said: its stdout, then its stderr.
pub fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `cmd` (a REPL, say) fed `input` on a pipe, run to its end.
pub fn piped(mut cmd: Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the village binary runs");
    child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(input.as_bytes())
        .expect("the input is written");
    child.wait_with_output().expect("the village binary ends")
}

/// A fresh, empty folder for one test's files: `village-<group>-<name>-<pid>-<n>` in the temp folder.
/// `n` counts the folders this test program has asked for: its tests run side by side in one process,
/// and two of them asking for the same name (a shared helper's) must not empty each other's folder.
pub fn temp(group: &str, name: &str) -> PathBuf {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("village-{group}-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp folder");
    dir
}

/// The event log written at `log` (JSON lines), each line with the fields that name where a decision
/// was made (`script`, `line`) taken out: a mod's copy of a script is another file, the same decision.
pub fn log_without_places(log: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(log)
        .expect("the log")
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            if let Some(o) = v.as_object_mut() {
                o.remove("script");
                o.remove("line");
            }
            v
        })
        .collect()
}

/// The mod folder `dir` holds a scenario `bad` (`scenarios/bad.toml`, its text `body`) that is refused:
/// `village check --mod` fails with a line naming the file, `field`, `want` and a line number, and
/// `village play --scenario bad` fails saying `want` too.
pub fn assert_scenario_refused(dir: &std::path::Path, body: &str, field: &str, want: &str) {
    let m = dir.to_str().expect("a UTF-8 path");
    let out = run(&["check", "--mod", m]);
    let told = said(&out);
    assert!(!out.status.success(), "{body}\nrefused by check:\n{told}");
    let line = told
        .lines()
        .find(|l| l.contains("bad.toml") && l.contains(want))
        .unwrap_or_else(|| panic!("{body}\n{want:?} in:\n{told}"));
    assert!(line.contains(field), "{field} in {line}");
    assert!(line.contains("(line "), "a line in {line}");
    let play = run(&["play", "--auto", "--scenario", "bad", "--mod", m]);
    assert!(!play.status.success(), "{body}: play refuses it");
    assert!(said(&play).contains(want), "{}", said(&play));
}
