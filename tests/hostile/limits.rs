//! Inputs and resources without bounds (issue 36, root causes 15's `--jobs` and 16's endless files):
//! every file the program reads is read up to a limit of its kind — an endless device, a huge sparse
//! file, a file grown past the limit — and refused with the file and the limit named, before memory
//! runs out; a FIFO within the limit still reads. `--jobs` has a range, and a run never starts more
//! workers than it has games.
//!
//! The endless cases run under `ulimit -v` so that a build that reads without a bound fails the case
//! (an allocation error) instead of taking the machine's memory.

use super::bin::{run, s, scratch, text, village};
use serde_json::Value;
use std::path::Path;

/// What an unbounded read could take before failing here.
const MEMORY: u64 = 3 << 30;

/// The refusal of an endless or huge input: non-zero, names the file and says it passes a limit.
fn refused_as_too_large(what: &str, out: &std::process::Output, file: &Path) {
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "{what}: accepted: {all}");
    assert!(all.contains(s(file)), "{what}: names the file: {all}");
    assert!(all.contains("MiB"), "{what}: names the limit: {all}");
    assert!(
        !all.contains("out of memory"),
        "{what}: ran out of memory: {all}"
    );
}

/// A sparse file of `len` bytes (no disk used).
fn sparse(p: &Path, len: u64) {
    let f = std::fs::File::create(p).expect("create");
    f.set_len(len).expect("set_len");
}

/// `run`, `:load`, `replay` (and its `--html`), `render --load`, `render --replay` and `merge` of
/// `/dev/zero` and of a 3 GB sparse file: each refused with the limit, in bounded memory. A record
/// within the limit read from a FIFO still replays (a bounded read, not a refusal of pipes).
#[test]
fn endless_and_huge_inputs_are_refused_with_their_limit() {
    let dir = scratch("endless");
    let huge = dir.join("huge.json");
    sparse(&huge, 3 << 30);
    let zero = Path::new("/dev/zero");
    let page = dir.join("p.html");
    let pic = dir.join("p.svg");
    for file in [zero, huge.as_path()] {
        let f = s(file);
        let cases: Vec<(Vec<&str>, Option<String>)> = vec![
            (vec!["run", f], None),
            (vec!["replay", f], None),
            (vec!["replay", f, "--html", s(&page)], None),
            (vec!["render", "--load", f, "--svg", s(&pic)], None),
            (
                vec!["render", "--replay", f, "--event", "1", "--svg", s(&pic)],
                None,
            ),
            (vec!["merge", f], None),
            (
                vec!["repl", "--length", "intro", "--history", "/dev/null"],
                Some(format!(":load {f}\nreturn 1 + 1\n")),
            ),
        ];
        for (args, stdin) in cases {
            let mut r = run(&args).memory_limit(MEMORY);
            if let Some(input) = &stdin {
                r = r.stdin(input);
            }
            let out = r.output();
            refused_as_too_large(&format!("{args:?} of {f}"), &out, file);
            if stdin.is_some() {
                assert!(text(&out.stdout).contains("\n2\n"), "the session goes on");
            }
        }
    }
    // A record read from a FIFO (`village replay <(cat game-0.json)`) within the limit still replays.
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
    let bytes = std::fs::read(rec.join("game-0.json")).expect("a record");
    let p = dir.join("pipe");
    let c = std::ffi::CString::new(s(&p)).expect("path");
    // SAFETY: a valid NUL-terminated path; mkfifo only reads it.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let writer = {
        let p = p.clone();
        std::thread::spawn(move || {
            use std::io::Write as _;
            if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&p) {
                let _ = f.write_all(&bytes);
            }
        })
    };
    let out = village(&["replay", s(&p), "--verify"]);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("the log is the recorded one"));
    let _ = writer.join();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A mod's script or roster file past the limit (a sparse 300 MB file) is refused naming the file and
/// the limit, by `run` and `check`, without reading it whole; a FIFO where a roster file belongs is
/// refused as not a regular file, never waited on.
#[test]
fn a_mod_file_past_the_limit_or_not_a_file_is_refused() {
    let dir = scratch("bigmod");
    let m = dir.join("m");
    std::fs::create_dir_all(m.join("scripts/lib")).expect("mkdir");
    std::fs::create_dir_all(m.join("rosters")).expect("mkdir");
    let big = m.join("scripts/lib/big.lua");
    sparse(&big, 300 << 20);
    let scenario = dir.join("uses.lua");
    std::fs::write(&scenario, "require(\"lib.big\")\n").expect("write");
    let out = run(&["run", "--mod", s(&m), s(&scenario)])
        .memory_limit(MEMORY)
        .output();
    refused_as_too_large("require of a huge module", &out, &big);
    std::fs::remove_file(&big).expect("rm");
    let roster = m.join("rosters/heroes.toml");
    sparse(&roster, 300 << 20);
    let out = run(&["check", "--mod", s(&m)])
        .memory_limit(MEMORY)
        .output();
    refused_as_too_large("check of a huge roster", &out, &roster);
    std::fs::remove_file(&roster).expect("rm");
    // A FIFO where a roster file belongs: refused as not a file, never waited on.
    let c = std::ffi::CString::new(s(&roster)).expect("path");
    // SAFETY: a valid NUL-terminated path; mkfifo only reads it.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let out = village(&["check", "--mod", s(&m)]);
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "{all}");
    assert!(
        all.contains(s(&roster)) && all.contains("not a regular file"),
        "{all}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--jobs` outside its range (0, 10,000, 2^64 − 1) is refused by the option parser with the range;
/// the largest it allows, on a run of two games, starts two workers and reports what one does.
#[test]
fn jobs_has_a_range_and_never_exceeds_the_games() {
    for bad in ["0", "10000", "18446744073709551615"] {
        let out = village(&["sim", "--games", "2", "--length", "intro", "--jobs", bad]);
        let e = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--jobs {bad}: {e}");
        assert!(e.contains("--jobs"), "{e}");
        assert!(e.contains("1..=1024"), "says the range: {e}");
        assert!(!e.contains("os error"), "{e}");
    }
    let report = |jobs: &str| {
        let out = run(&[
            "sim", "--games", "2", "--length", "intro", "--json", "--jobs", jobs,
        ])
        .memory_limit(MEMORY)
        .output();
        assert!(out.status.success(), "--jobs {jobs}: {}", text(&out.stderr));
        let mut v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        v["games_per_sec"] = Value::Null;
        v["seconds"] = Value::Null;
        v
    };
    assert_eq!(report("1024"), report("1"));
}
