//! Lua scenarios under tests/scenarios/, each run through `village run` as a user would. A scenario
//! names the mod folder it needs on a line `--! mod: DIR`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(file: &Path, extra: &[&str]) -> Output {
    let src = std::fs::read_to_string(file).expect("scenario readable");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_village"));
    cmd.current_dir(root())
        .arg("run")
        .arg(file.strip_prefix(root()).unwrap_or(file));
    for line in src.lines() {
        if let Some(dir) = line.strip_prefix("--! mod:") {
            cmd.arg("--mod").arg(dir.trim());
        }
    }
    cmd.args(extra).output().expect("village runs")
}

#[test]
fn every_scenario_passes() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "lua"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "scenarios found: {files:?}");
    let mut failures = Vec::new();
    for f in &files {
        let out = run(f, &[]);
        if !out.status.success() {
            failures.push(format!(
                "{}:\n{}",
                f.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_same_seed_gives_a_byte_identical_log_and_another_seed_does_not() {
    let f = root().join("tests/scenarios/determinism.lua");
    let a = run(&f, &["--seed", "42"]);
    let b = run(&f, &["--seed", "42"]);
    let c = run(&f, &["--seed", "43"]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(a.stdout.len() > 1000, "the skirmish logged events");
    assert_eq!(a.stdout, b.stdout);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn a_failed_assert_exits_non_zero_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("village-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("broken.lua");
    std::fs::write(
        &f,
        "local g = village.new_game{ table = 'empty' }\n\nassert(g.seed == 12345, 'wrong seed')\n",
    )
    .unwrap();
    let out = run(&f, &[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.lua:3: wrong seed"), "{err}");
    // A rule error from the API names the calling line too.
    std::fs::write(&f, "local g = village.new_game{ table = 'empty' }\nlocal a = g:place('Orc Warrior', {x = 2, y = 2})\nlocal b = g:place('Captain Maren', {x = 20, y = 2})\ng:melee(a, b)\n").unwrap();
    let out = run(&f, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("broken.lua:4:") && err.contains("not in contact"),
        "{err}"
    );
}

#[test]
fn a_runaway_scenario_is_stopped_at_its_budget_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("village-runaway-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("forever.lua");
    std::fs::write(&f, "local n = 0\nwhile true do\n  n = n + 1\nend\n").unwrap();
    let out = run(&f, &["--budget", "1000000"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("forever.lua:") && err.contains("instruction budget exhausted"),
        "{err}"
    );
}
