//! Where outputs go (issue 36, root causes 2, 10 and the temporary file of 16): a file the user names is
//! written where it points — a device or a FIFO in place (a full device is an error, with a non-zero
//! exit), through a symbolic link to its target (atomically, in the target's folder) — and a failed
//! write leaves no temporary file, even under `ulimit -f`. No output may be an input or another output
//! of the same command (refused before any work), no option combination drops an output silently, and
//! every command that prints reports a stdout it could not write (a full device, a closed stdout) with a
//! non-zero exit, while a reader that stops early (`| head`) ends it quietly.
//!
//! Device nodes are made with `mknod` in the case's folder when the tests run as root (so a build that
//! still replaced a device would replace only that copy, never `/dev/full` itself); otherwise the
//! system's `/dev/full` and `/dev/null`, which a user cannot replace.

use super::bin::{run, s, scratch, text, village, walk};
use serde_json::Value;
use std::io::Read as _;
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

/// A character device like `/dev/<name>` (major 1, `minor`): a node in `dir` when we may make one,
/// else the system's.
fn device(dir: &Path, name: &str, minor: u32) -> PathBuf {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let p = dir.join(name);
        let c = std::ffi::CString::new(s(&p)).expect("a path without NUL");
        // SAFETY: a valid NUL-terminated path; mknod only reads it.
        let made =
            unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, minor)) };
        if made == 0 {
            return p;
        }
    }
    PathBuf::from(format!("/dev/{name}"))
}

/// Whether `p` is still a character device (not replaced by a file).
fn is_char_device(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_char_device())
}

/// A FIFO at `p`.
fn fifo(p: &Path) {
    let c = std::ffi::CString::new(s(p)).expect("a path without NUL");
    // SAFETY: a valid NUL-terminated path; mkfifo only reads it.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

/// Read everything written into the FIFO `p` on a thread: its receiver gets the bytes once the
/// writer closes it.
fn drain(p: &Path) -> std::sync::mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let p = p.to_path_buf();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Ok(mut f) = std::fs::File::open(&p) {
            let _ = f.read_to_end(&mut bytes);
        }
        let _ = tx.send(bytes);
    });
    rx
}

/// No temporary file of a write (`.NAME.PID.tmp`) is left in `dir`.
fn no_temporary_files(dir: &Path) {
    let left: Vec<PathBuf> = walk(dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
}

/// The commands that write a file, each with the file given as `P` (the REPL's `:save`/`:render` fed
/// on stdin).
fn writers() -> Vec<(&'static str, Vec<&'static str>, Option<&'static str>)> {
    vec![
        (
            "odds --svg",
            vec![
                "odds",
                "activation",
                "--quality",
                "3",
                "--dice",
                "3",
                "--svg",
                "P",
            ],
            None,
        ),
        (
            "render --svg",
            vec!["render", "--length", "intro", "--svg", "P"],
            None,
        ),
        (
            "sim --out",
            vec![
                "sim", "--games", "2", "--length", "intro", "--jobs", "1", "--out", "P",
            ],
            None,
        ),
        (
            "sim --svg",
            vec![
                "sim", "--games", "2", "--length", "intro", "--jobs", "1", "--svg", "P",
            ],
            None,
        ),
        (
            "play --log",
            vec![
                "play", "--auto", "--length", "intro", "--seed", "1", "--log", "P",
            ],
            None,
        ),
        (
            "play --html",
            vec![
                "play", "--auto", "--length", "intro", "--seed", "1", "--html", "P",
            ],
            None,
        ),
        (
            "REPL :save",
            vec!["repl", "--length", "intro", "--history", "/dev/null"],
            Some(":save P\n"),
        ),
        (
            "REPL :render",
            vec!["repl", "--length", "intro", "--history", "/dev/null"],
            Some(":render P\n"),
        ),
    ]
}

/// Run writer `w` with its file at `p`.
fn write_with(
    (_, args, stdin): &(&'static str, Vec<&'static str>, Option<&'static str>),
    p: &Path,
) -> Output {
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "P" { s(p) } else { a })
        .collect();
    let mut r = run(&args);
    if let Some(input) = stdin {
        r = r.stdin(&input.replace('P', s(p)));
    }
    r.output()
}

/// Every writer aimed at a full device: it says the device is full and exits non-zero, and the device
/// is still a device (it used to become a regular file holding the output, with exit 0).
#[test]
fn a_full_device_is_written_in_place_and_its_error_reported() {
    let dir = scratch("full");
    let full = device(&dir, "full", 7);
    for w in writers() {
        let out = write_with(&w, &full);
        let (o, e) = (text(&out.stdout), text(&out.stderr));
        assert!(!out.status.success(), "{}: exit 0\n{o}\n{e}", w.0);
        assert!(
            format!("{o}{e}").contains("No space left on device"),
            "{}: the device's error is said: {o}\n{e}",
            w.0
        );
        assert!(
            format!("{o}{e}").contains(s(&full)),
            "{}: names the file: {e}",
            w.0
        );
        assert!(
            is_char_device(&full),
            "{}: {} is no longer a device",
            w.0,
            full.display()
        );
    }
    no_temporary_files(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An output to a null device is accepted and the node stays a device (as root, `--log /dev/null` used
/// to replace `/dev/null` itself).
#[test]
fn a_null_device_stays_a_device() {
    let dir = scratch("null");
    let null = device(&dir, "null", 3);
    for w in writers() {
        let out = write_with(&w, &null);
        assert!(out.status.success(), "{}: {}", w.0, text(&out.stderr));
        assert!(
            is_char_device(&null),
            "{}: {} is no longer a device",
            w.0,
            null.display()
        );
    }
    no_temporary_files(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An output to a FIFO is written into it (a reader gets the whole file) and the FIFO stays a FIFO.
#[test]
fn a_fifo_is_written_into() {
    let dir = scratch("fifo");
    let p = dir.join("pipe");
    fifo(&p);
    let expect: [(usize, &str); 3] = [(0, "<svg"), (4, "\"seq\":0"), (6, "village-save")];
    for (i, needle) in expect {
        let w = &writers()[i];
        let got = drain(&p);
        let out = write_with(w, &p);
        assert!(out.status.success(), "{}: {}", w.0, text(&out.stderr));
        let meta = std::fs::symlink_metadata(&p).expect("still there");
        assert!(
            meta.file_type().is_fifo(),
            "{}: the FIFO was replaced by a file",
            w.0
        );
        let bytes = got
            .recv_timeout(std::time::Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("{}: nothing was written into the FIFO", w.0));
        assert!(text(&bytes).contains(needle), "{}: {}", w.0, text(&bytes));
    }
    // A pipe reached through the kernel's descriptor links: `--out /dev/fd/1` with stdout a pipe.
    let out = village(&[
        "sim",
        "--games",
        "2",
        "--length",
        "intro",
        "--out",
        "/dev/fd/1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("{\"format\":\"village-sim-shard"),
        "{}",
        text(&out.stdout)
    );
    no_temporary_files(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Through a symbolic link — relative, absolute, a chain of two, one whose target does not exist yet,
/// one into another folder — the output reaches the target, the link stays a link, and no temporary
/// file is left in either folder.
#[test]
fn a_symbolic_link_is_written_through_to_its_target() {
    let dir = scratch("links");
    let other = dir.join("elsewhere");
    std::fs::create_dir_all(&other).expect("mkdir");
    let target = dir.join("target.out");
    let far = other.join("far.out");
    let link = |name: &str, to: &Path| {
        let l = dir.join(name);
        std::os::unix::fs::symlink(to, &l).expect("symlink");
        l
    };
    let relative = link("relative.link", Path::new("target.out"));
    let absolute = link("absolute.link", &far);
    let chain = link("chain.link", Path::new("relative.link"));
    let dangling = link("dangling.link", &other.join("new.out"));
    let cases: [(usize, &PathBuf, PathBuf); 6] = [
        (0, &relative, target.clone()),
        (1, &absolute, far.clone()),
        (2, &chain, target.clone()),
        (4, &dangling, other.join("new.out")),
        (6, &relative, target.clone()),
        (7, &absolute, far.clone()),
    ];
    for (i, l, to) in cases {
        let w = &writers()[i];
        std::fs::write(&target, "old content").expect("write");
        std::fs::write(&far, "old content").expect("write");
        let _ = std::fs::remove_file(other.join("new.out"));
        let out = write_with(w, l);
        assert!(out.status.success(), "{}: {}", w.0, text(&out.stderr));
        assert!(
            std::fs::symlink_metadata(l).is_ok_and(|m| m.file_type().is_symlink()),
            "{}: {} is no longer a link",
            w.0,
            l.display()
        );
        let written = std::fs::read_to_string(&to).unwrap_or_default();
        assert!(
            written != "old content" && !written.is_empty(),
            "{}: the target {} keeps its old content",
            w.0,
            to.display()
        );
    }
    no_temporary_files(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under `ulimit -f` (the kernel's signal left at its default action) a write that passes the limit
/// fails with an error naming the file, the exit is non-zero, no temporary file is left, and a file
/// that was there keeps what it held.
#[test]
fn a_file_size_limit_leaves_no_temporary_file() {
    let dir = scratch("fsize");
    let rec = dir.join("records");
    let out = run(&[
        "sim",
        "--games",
        "2",
        "--length",
        "intro",
        "--jobs",
        "1",
        "--record",
        s(&rec),
    ])
    .file_limit(16 * 1024)
    .output();
    let e = text(&out.stderr);
    assert!(!out.status.success(), "{e}");
    assert!(e.contains("File too large"), "the error is said: {e}");
    assert!(e.contains(s(&rec)), "names the file: {e}");
    no_temporary_files(&dir);
    // The same for a log, a save and a shard written over a good file.
    for (i, name) in [(4, "log.jsonl"), (6, "save.json"), (2, "shard.json")] {
        let w = &writers()[i];
        let p = dir.join(name);
        std::fs::write(&p, "the good file").expect("write");
        let args: Vec<&str> =
            w.1.iter()
                .map(|a| if *a == "P" { s(&p) } else { a })
                .collect();
        let mut r = run(&args).file_limit(2 * 1024);
        if let Some(input) = w.2 {
            r = r.stdin(&input.replace('P', s(&p)));
        }
        let out = r.output();
        let (o, e) = (text(&out.stdout), text(&out.stderr));
        assert!(!out.status.success(), "{}: {o}{e}", w.0);
        assert!(
            format!("{o}{e}").contains("File too large"),
            "{}: {o}{e}",
            w.0
        );
        assert_eq!(
            std::fs::read_to_string(&p).expect("kept"),
            "the good file",
            "{}",
            w.0
        );
        no_temporary_files(&dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The refusal of an output that is an input or another output: non-zero, said before any work, and
/// the file untouched.
fn refused_same_file(what: &str, out: &Output, file: &Path, before: &[u8]) {
    let e = text(&out.stderr);
    assert!(!out.status.success(), "{what}: accepted\n{e}");
    assert!(e.contains("the same file"), "{what}: says why: {e}");
    assert_eq!(
        std::fs::read(file).expect("still there"),
        before,
        "{what}: {} was overwritten",
        file.display()
    );
}

/// An output that is one of the command's inputs (by any spelling: another path, a symbolic link) or
/// another of its outputs is refused before any work, and the file keeps what it held.
#[test]
fn an_output_that_is_an_input_or_another_output_is_refused() {
    let dir = scratch("same");
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    for (k, p) in [("1/2", &a), ("2/2", &b)] {
        let out = village(&[
            "sim",
            "--games",
            "2",
            "--length",
            "intro",
            "--jobs",
            "1",
            "--shard",
            k,
            "--out",
            s(p),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let shard_a = std::fs::read(&a).expect("a shard");
    let link_b = dir.join("b.link");
    std::os::unix::fs::symlink(&b, &link_b).expect("symlink");
    let shard_b = std::fs::read(&b).expect("a shard");
    let dotted = format!("{}/./a.json", s(&dir));
    let out = village(&["merge", s(&a), s(&b), "--svg", &dotted]);
    refused_same_file("merge --svg an input", &out, &a, &shard_a);
    let out = village(&["merge", s(&a), s(&b), "--svg", s(&link_b)]);
    refused_same_file("merge --svg a link to an input", &out, &b, &shard_b);
    // A save drawn over itself.
    let save = dir.join("s.json");
    let out = run(&["repl", "--length", "intro", "--history", "/dev/null"])
        .stdin(&format!(":save {}\n", s(&save)))
        .output();
    assert!(out.status.success());
    let saved = std::fs::read(&save).expect("a save");
    let out = village(&["render", "--load", s(&save), "--svg", s(&save)]);
    refused_same_file("render --load s --svg s", &out, &save, &saved);
    // Two outputs of one command: the log would be lost to the page, or the shard to the chart.
    let x = dir.join("x");
    std::fs::write(&x, "mine").expect("write");
    let out = village(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--log",
        s(&x),
        "--html",
        s(&x),
    ]);
    refused_same_file("play --log x --html x", &out, &x, b"mine");
    let in_dir = run(&[
        "sim",
        "--games",
        "1",
        "--length",
        "intro",
        "--out",
        s(&x),
        "--svg",
        "x",
    ])
    .within(&dir)
    .output();
    refused_same_file(
        "sim --out x --svg x (from its folder)",
        &in_dir,
        &x,
        b"mine",
    );
    // A shard or a chart where `--record` puts its records.
    let records = dir.join("records");
    let taken = records.join("game-0.json");
    for (opt, extra) in [("--out", &[][..]), ("--svg", &["--vs", "default"][..])] {
        let arm = if extra.is_empty() {
            taken.clone()
        } else {
            records.join("a/game-0.json")
        };
        let args = [
            &[
                "sim",
                "--games",
                "1",
                "--length",
                "intro",
                "--record",
                s(&records),
                opt,
                s(&arm),
            ][..],
            extra,
        ]
        .concat();
        let out = village(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            text(&out.stderr).contains("a record of --record"),
            "{}",
            text(&out.stderr)
        );
        assert!(!arm.exists(), "{args:?}: refused before any record");
    }
    // A recorded game's page or picture written over the record.
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
    let game = rec.join("game-0.json");
    let recorded = std::fs::read(&game).expect("a record");
    let out = village(&["replay", s(&game), "--html", s(&game)]);
    refused_same_file("replay R --html R", &out, &game, &recorded);
    let out = village(&[
        "render",
        "--replay",
        s(&game),
        "--event",
        "1",
        "--svg",
        s(&game),
    ]);
    refused_same_file("render --replay R --svg R", &out, &game, &recorded);
    // An output over one of the rule or script files the command reads.
    let m = dir.join("mod");
    super::bin::copy_dir(&super::fixture("cli_chatty"), &m);
    let script = m.join("scripts/variants/chatty.lua");
    let source = std::fs::read(&script).expect("the variant");
    let out = village(&[
        "play",
        "--auto",
        "--length",
        "intro",
        "--mod",
        s(&m),
        "--log",
        s(&script),
    ]);
    refused_same_file(
        "play --log over a script of its --mod",
        &out,
        &script,
        &source,
    );
    let out = run(&[
        "repl",
        "--length",
        "intro",
        "--history",
        "/dev/null",
        "--mod",
        s(&m),
    ])
    .stdin(&format!(":save {}\n", s(&script)))
    .output();
    assert!(!out.status.success(), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("the same file"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        std::fs::read(&script).expect("kept"),
        source,
        ":save over a script"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sim --vs` cannot write a shard (`merge` joins one arm's games): `--out` with `--vs` is refused before
/// any game is played, rather than silently never written.
#[test]
fn an_output_no_mode_writes_is_refused_not_dropped() {
    let dir = scratch("dropped");
    let v = dir.join("v.json");
    for extra in [&["--shard", "1/2"][..], &[][..]] {
        let args = [
            &[
                "sim",
                "--games",
                "4",
                "--length",
                "intro",
                "--vs",
                "default",
                "--out",
                s(&v),
            ][..],
            extra,
        ]
        .concat();
        let out = village(&args);
        let e = text(&out.stderr);
        assert!(
            !out.status.success(),
            "{args:?}: accepted, and v.json {}",
            v.exists()
        );
        assert!(
            e.contains("--out") && e.contains("--vs"),
            "{args:?}: says why: {e}"
        );
        assert!(
            out.stdout.is_empty(),
            "refused before any game: {}",
            text(&out.stdout)
        );
        assert!(!v.exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stdout that cannot be written — a full device, a closed stdout — is an error with a non-zero exit
/// (never a panic, never exit 0) for every command that prints; a reader that leaves early (`| head`)
/// ends the command quietly.
#[test]
fn a_stdout_that_cannot_be_written_is_an_error() {
    let dir = scratch("stdout");
    let lua = dir.join("hello.lua");
    std::fs::write(&lua, "print('hello')\n").expect("write");
    let commands: Vec<(Vec<&str>, Option<&str>)> = vec![
        (vec!["api"], None),
        (vec!["play", "--auto", "--length", "intro"], None),
        (vec!["play", "--auto", "--length", "intro", "--json"], None),
        (
            vec!["sim", "--games", "2", "--length", "intro", "--json"],
            None,
        ),
        (vec!["sim", "--games", "2", "--length", "intro"], None),
        (vec!["check"], None),
        (vec!["show", "--list"], None),
        (
            vec!["odds", "activation", "--quality", "3", "--dice", "3"],
            None,
        ),
        (vec!["run", s(&lua)], None),
        (
            vec!["repl", "--length", "intro", "--history", "/dev/null"],
            Some("return 1 + 1\n"),
        ),
    ];
    for (args, stdin) in &commands {
        for how in ["full", "closed"] {
            let mut r = run(args);
            if let Some(input) = stdin {
                r = r.stdin(input);
            }
            r = match how {
                "full" => r.stdout(Stdio::from(
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open("/dev/full")
                        .expect("/dev/full opens"),
                )),
                _ => r.closed_stdout(),
            };
            let out = r.output();
            let e = text(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{args:?} with a {how} stdout: {e}"
            );
            assert!(!e.contains("panicked"), "{args:?} with a {how} stdout: {e}");
            assert!(
                e.contains("stdout"),
                "{args:?} with a {how} stdout says so: {e}"
            );
        }
    }
    // `village api | head -c 10`: the reader leaves; the command ends without an error.
    for args in [&["api"][..], &["show", "--list"][..]] {
        let out = finish_with_early_reader(args);
        assert!(
            !text(&out.stderr).contains("error"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `village ARGS | head -c 10`.
fn finish_with_early_reader(args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    super::finishes(move || {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_village"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let mut first = [0u8; 10];
        if let Some(mut o) = child.stdout.take() {
            let _ = o.read_exact(&mut first);
        }
        child.wait_with_output().expect("ends")
    })
}

/// `merge`'s chart written where it points, `--json` still one object: the shards read and the chart
/// through a link (a merge output path besides the `writers`).
#[test]
fn merge_writes_its_chart_through_a_link() {
    let dir = scratch("mergelink");
    let a = dir.join("a.json");
    let out = village(&["sim", "--games", "2", "--length", "intro", "--out", s(&a)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let chart = dir.join("chart.svg");
    std::fs::write(&chart, "old").expect("write");
    let l = dir.join("chart.link");
    std::os::unix::fs::symlink("chart.svg", &l).expect("symlink");
    let out = village(&["merge", s(&a), "--svg", s(&l), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["games"], 2);
    assert!(std::fs::symlink_metadata(&l).is_ok_and(|m| m.file_type().is_symlink()));
    assert!(std::fs::read_to_string(&chart)
        .expect("chart")
        .contains("<svg"));
    assert!(std::fs::metadata(&chart).is_ok_and(|m| m.nlink() == 1));
    let _ = std::fs::remove_dir_all(&dir);
}
