//! The README's command samples, run as a reader would run them, so the README cannot drift from the
//! program: every ```text block marked `<!-- output -->` or `<!-- output contains -->` (tests/markdown)
//! is run by `sh` in a fresh folder (where the README's `<!-- file: PATH -->` blocks are written and the
//! checkout's `tests/` is linked, for the fixtures the samples name), with this build's `village` first
//! on PATH, stdout and stderr together as a terminal shows them. A marker ending in `, fails` expects a
//! non-zero exit status. `UPDATE_README=1 cargo test --release --test readme` rewrites the exact samples
//! from the program's output. The set-up commands are checked against `.ci/run` too.

use std::path::{Path, PathBuf};
use std::process::Command;

mod markdown;
use markdown::{assert_shows, command_of, marked_blocks};

const README: &str = "README.md";
const COMMANDS: &str = "docs/commands.md";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(root().join(README)).expect("README.md is readable")
}

/// Every sample of `doc` marked `output`/`output contains` (at least `least` of them) runs as shown
/// and prints what it shows, in a fresh folder holding the doc's `file` blocks.
fn check_samples(doc: &str, least: usize) {
    let text = std::fs::read_to_string(root().join(doc)).expect("the document is readable");
    let blocks = marked_blocks(&text, doc);
    let tag = doc.replace(['/', '.'], "-");
    let dir = std::env::temp_dir().join(format!("village-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root().join("tests"), dir.join("tests")).unwrap();
    markdown::write_files(&blocks, &dir, doc);
    let bin = Path::new(env!("CARGO_BIN_EXE_village"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // UPDATE_README=1 rewrites every exact sample with what the program prints (then fails, to be
    // looked at); `output contains` samples are written by hand.
    let update = std::env::var_os("UPDATE_README").is_some();
    let mut updated = text.clone();
    let mut ran = 0;
    for b in blocks.iter().filter(|b| b.marker.starts_with("output")) {
        let (marker, fails) = match b.marker.strip_suffix(", fails") {
            Some(m) => (m.to_string(), true),
            None => (b.marker.clone(), false),
        };
        let block = markdown::Block {
            marker,
            line: b.line,
            body: b.body.clone(),
        };
        let (cmd, want) = command_of(&block, doc);
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("exec 2>&1; {cmd}"))
            .current_dir(&dir)
            .env("PATH", &path)
            .env("HOME", &dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("sh runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.success(),
            !fails,
            "{doc}:{}: `{cmd}` exited with {}:\n{stdout}",
            b.line,
            out.status
        );
        if update && markdown::exact(&block, doc) {
            // The block's body as the program prints it now (its command line kept).
            updated = updated.replacen(&b.body, &format!("$ {cmd}\n{stdout}"), 1);
        } else {
            assert_shows(&block, doc, cmd, &want, &stdout);
        }
        ran += 1;
    }
    assert!(ran >= least, "only {ran} samples of {doc} are marked");
    let _ = std::fs::remove_dir_all(&dir);
    if update && updated != text {
        std::fs::write(root().join(doc), updated).unwrap();
        panic!(
            "rewrote the exact samples of {doc} from the program: review the diff (git diff {doc})"
        );
    }
}

#[test]
fn the_readme_samples_print_what_the_readme_shows() {
    check_samples(README, 9);
}

/// The commands page keeps the samples the README leaves out, checked the same way.
#[test]
fn the_command_pages_samples_print_what_it_shows() {
    check_samples(COMMANDS, 10);
}

/// The README is the product page: at most about 500 lines, Set up first, and every command sample in
/// it is one the test above runs (a ```text block starting `$ ` carries an output marker).
#[test]
fn the_readme_is_a_short_page_whose_samples_all_run() {
    for doc in [README, COMMANDS] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let opens_sample =
                *l == "```text" && lines.get(i + 1).is_some_and(|n| n.starts_with("$ "));
            if opens_sample {
                let marker = lines[..i].iter().rev().find(|p| !p.trim().is_empty());
                assert!(
                    marker.is_some_and(|m| m.starts_with("<!-- output")),
                    "{doc}:{}: a command sample no test runs (mark it <!-- output --> or <!-- output contains -->)",
                    i + 1
                );
            }
        }
    }
    let text = readme();
    let n = text.lines().count();
    assert!(
        n <= 500,
        "the README has {n} lines: keep it a product page (docs/ holds the rest)"
    );
    let first = text.find("\n## ").map(|i| &text[i + 4..]).unwrap_or("");
    assert!(first.starts_with("Set up"), "the first section is Set up");
}

#[test]
fn ci_runs_the_readme_test_command() {
    let text = readme();
    // The set-up block with the two commands (an install line for the test tools may come first).
    let setup = text
        .split("```sh\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .find(|b| b.contains("# the tests"))
        .expect("the README's set-up has a ```sh block with the run and test commands");
    let test = setup
        .lines()
        .find(|l| l.contains("# the tests"))
        .and_then(|l| l.split('#').next())
        .map(str::trim)
        .expect("a set-up line runs the tests");
    assert_eq!(test, "cargo test --release");
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == test),
        ".ci/run does not run the README's test command {test:?}"
    );
    let run = setup
        .lines()
        .find(|l| l.contains("# the main job"))
        .and_then(|l| l.split('#').next())
        .map(str::trim);
    assert_eq!(run, Some("cargo run --release"));
}
