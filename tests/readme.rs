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

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(root().join(README)).expect("README.md is readable")
}

#[test]
fn the_readme_samples_print_what_the_readme_shows() {
    let text = readme();
    let blocks = marked_blocks(&text, README);
    let dir = std::env::temp_dir().join(format!("village-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root().join("tests"), dir.join("tests")).unwrap();
    markdown::write_files(&blocks, &dir, README);
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
        let (cmd, want) = command_of(&block, README);
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
            "{README}:{}: `{cmd}` exited with {}:\n{stdout}",
            b.line,
            out.status
        );
        if update && markdown::exact(&block, README) {
            // The block's body as the program prints it now (its command line kept).
            updated = updated.replacen(&b.body, &format!("$ {cmd}\n{stdout}"), 1);
        } else {
            assert_shows(&block, README, cmd, &want, &stdout);
        }
        ran += 1;
    }
    assert!(ran >= 10, "only {ran} README samples are marked");
    let _ = std::fs::remove_dir_all(&dir);
    if update && updated != text {
        std::fs::write(root().join(README), updated).unwrap();
        panic!("rewrote the README's exact samples from the program: review the diff (git diff README.md)");
    }
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
