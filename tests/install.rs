//! An installed `village`: the binary copied away from its checkout, run from another folder with the
//! checkout made unavailable (`VILLAGE_CHECKOUT=none`), plays from the data it carries exactly as it
//! does from the checkout; `--data` and `$VILLAGE_DATA` name another data folder; `new-mod` scaffolds a
//! mod that `check`, `run` and `play` accept.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod lua_style;

/// The checkout this test was built in (the binary's compiled-in data folder).
fn checkout() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A copy of the binary in a folder of its own, with its own cache, home and working folder.
struct Installed {
    root: PathBuf,
}

impl Installed {
    fn new(name: &str) -> Installed {
        let root =
            std::env::temp_dir().join(format!("village-install-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for d in ["bin", "cache", "home", "work"] {
            std::fs::create_dir_all(root.join(d)).expect("a temp folder");
        }
        std::fs::copy(env!("CARGO_BIN_EXE_village"), root.join("bin/village")).expect("copy");
        Installed { root }
    }

    fn work(&self) -> PathBuf {
        self.root.join("work")
    }

    fn cache(&self) -> PathBuf {
        self.root.join("cache")
    }

    /// The copied binary with no checkout, run in its working folder.
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(self.root.join("bin/village"));
        c.args(args)
            .current_dir(self.work())
            .env("VILLAGE_CHECKOUT", "none")
            .env("XDG_CACHE_HOME", self.cache())
            .env("HOME", self.root.join("home"))
            .env_remove("VILLAGE_DATA");
        c
    }

    fn run(&self, args: &[&str]) -> Output {
        output(&mut self.command(args))
    }

    /// Runs `args`, which must succeed with nothing on stderr; its stdout.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        clean(args, &out)
    }
}

/// Runs `c`. A copy of a binary just written can be "busy" for a moment (another test thread forked
/// while the file was open for writing): that is retried.
fn output(c: &mut Command) -> Output {
    for _ in 0..50 {
        match c.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            r => return r.expect("the copied binary runs"),
        }
    }
    panic!("the copied binary stayed busy")
}

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The stdout of a run that must have succeeded with nothing on stderr.
fn clean(args: &[&str], out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{args:?} said on stderr: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The built binary where it was built, reading its checkout.
fn from_checkout(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(args)
        .env_remove("VILLAGE_CHECKOUT")
        .env_remove("VILLAGE_DATA")
        .output()
        .expect("the binary runs");
    clean(args, &out)
}

/// The line of `about` that counts the rosters.
fn rosters_line(about: &str) -> String {
    about
        .lines()
        .find(|l| l.starts_with("Rosters:"))
        .unwrap_or_else(|| panic!("no Rosters: line in {about}"))
        .to_string()
}

/// Every file under `dir`, by its path relative to `root`, with its bytes.
fn tree(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for e in std::fs::read_dir(dir).expect("a readable folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            tree(root, &p, out);
        } else {
            let rel = p.strip_prefix(root).expect("inside").to_string_lossy();
            out.push((rel.into_owned(), std::fs::read(&p).expect("readable")));
        }
    }
}

fn data_tree(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    tree(root, &root.join("rosters"), &mut out);
    tree(root, &root.join("scripts"), &mut out);
    tree(root, &root.join("scenarios"), &mut out);
    out.sort();
    out
}

/// The folder `about` says the data was extracted to.
fn extracted_to(about: &str) -> PathBuf {
    let line = about
        .lines()
        .find(|l| l.starts_with("Built-in data:"))
        .unwrap_or_else(|| panic!("no Built-in data: line in {about}"));
    let start = line.find("extracted to ").expect("an extracted folder") + "extracted to ".len();
    PathBuf::from(line[start..].trim_end_matches(')'))
}

#[test]
fn the_copied_binary_carries_the_whole_data() {
    let i = Installed::new("about");
    let about = i.ok(&["about"]);
    assert!(about.contains("built into the binary"), "{about}");
    // The same heroes, enemies and Defenders as the checkout's, and no errors or warnings.
    let here = rosters_line(&from_checkout(&["about"]));
    assert_eq!(rosters_line(&about), here);
    assert!(here.contains("0 errors, 0 warnings"), "{here}");
    // Extracted under $XDG_CACHE_HOME, byte for byte the checkout's rosters/ and scripts/ (this also
    // catches a binary built before a file was added: Cargo sees edits and removals, not additions).
    let dir = extracted_to(&about);
    assert!(
        dir.starts_with(i.cache().join("village")),
        "{}",
        dir.display()
    );
    let (ours, theirs) = (data_tree(&dir), data_tree(&checkout()));
    let differ: Vec<&String> = ours
        .iter()
        .filter(|f| !theirs.contains(f))
        .chain(theirs.iter().filter(|f| !ours.contains(f)))
        .map(|(name, _)| name)
        .collect();
    assert!(
        differ.is_empty(),
        "the binary's copy differs from the checkout in {differ:?} (a file added since the binary \
         was built is only seen when it is rebuilt: touch src/cli/embedded.rs)"
    );
    i.ok(&["check"]);
}

#[test]
fn the_copied_binary_plays_the_same_games_as_the_checkout() {
    let i = Installed::new("play");
    let args = ["play", "--auto", "--seed", "3", "--json"];
    assert_eq!(i.ok(&args), from_checkout(&args));
    // The same content fingerprint: a shard played from the checkout merges with one played from the
    // binary's copy (merge refuses shards whose rosters/scripts differ).
    let first = i.work().join("first.json");
    let second = i.work().join("second.json");
    let shard = |out: &Path, k: &str| {
        vec![
            "sim".to_string(),
            "--games".into(),
            "2".into(),
            "--length".into(),
            "intro".into(),
            "--jobs".into(),
            "1".into(),
            "--shard".into(),
            format!("{k}/2"),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let a = shard(&first, "1");
    from_checkout(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let b = shard(&second, "2");
    i.ok(&b.iter().map(String::as_str).collect::<Vec<_>>());
    let merged = i.ok(&[
        "merge",
        &first.display().to_string(),
        &second.display().to_string(),
    ]);
    assert!(merged.contains("2 games"), "{merged}");
}

#[test]
fn processes_extracting_at_once_all_get_a_whole_copy() {
    let i = Installed::new("race");
    i.ok(&["--version"]); // started once, so the copy is no longer busy when the four start at once
    let children: Vec<_> = (0..4)
        .map(|_| {
            i.command(&["about"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawns")
        })
        .collect();
    let mut dirs = Vec::new();
    for c in children {
        let out = c.wait_with_output().expect("finishes");
        let about = clean(&["about"], &out);
        assert_eq!(
            rosters_line(&about),
            rosters_line(&from_checkout(&["about"]))
        );
        dirs.push(extracted_to(&about));
    }
    dirs.dedup();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    // Only the finished folder is left: no temporary one.
    let left: Vec<_> = std::fs::read_dir(i.cache().join("village"))
        .expect("the cache folder")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn data_and_village_data_name_the_data_folder() {
    let i = Installed::new("data");
    let co = checkout().display().to_string();
    let about = i.ok(&["about", "--data", &co]);
    assert!(about.contains(&format!("{co} (--data)")), "{about}");
    let env = clean(
        &["about"],
        &output(i.command(&["about"]).env("VILLAGE_DATA", &co)),
    );
    assert!(env.contains(&format!("{co} ($VILLAGE_DATA)")), "{env}");
    let play = ["play", "--auto", "--seed", "3", "--json"];
    let mut with_data = play.to_vec();
    with_data.extend(["--data", co.as_str()]);
    assert_eq!(i.ok(&with_data), from_checkout(&play));

    // A folder that is not a data folder is refused, by name, before anything runs; --data wins over
    // $VILLAGE_DATA.
    let empty = i.work().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let missing = i.work().join("missing");
    for (dir, why) in [(&empty, "has no rosters/"), (&missing, "does not exist")] {
        let d = dir.display().to_string();
        let out = output(i.command(&["check", "--data", &d]).env("VILLAGE_DATA", &co));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(stderr.contains(&format!("{d} (--data) {why}")), "{stderr}");
        let out = output(i.command(&["play", "--auto"]).env("VILLAGE_DATA", &d));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            stderr.contains(&format!("{d} ($VILLAGE_DATA) {why}")),
            "{stderr}"
        );
    }
}

#[test]
fn new_mod_scaffolds_a_mod_that_check_run_and_play_accept() {
    let i = Installed::new("newmod");
    let made = i.ok(&["new-mod", "mymod"]);
    assert!(made.contains("mymod/rosters/"), "{made}");
    let check = i.ok(&["check", "--mod", "mymod"]);
    assert!(check.contains("0 warnings, 0 errors"), "{check}");
    assert!(check.contains("Goblin Shieldbearer"), "{check}");
    let run = i.ok(&["run", "--mod", "mymod", "mymod/tests/shield_bearer.lua"]);
    assert!(run.contains("Shield Bearer works"), "{run}");
    i.ok(&["play", "--auto", "--mod", "mymod", "--seed", "3"]);

    // A second scaffold into the same folder is refused and changes nothing.
    let file = i.work().join("mymod/rosters/traits.toml");
    std::fs::write(&file, "# mine\n").expect("edit");
    let out = i.run(&["new-mod", "mymod"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("mymod is not empty"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), "# mine\n");
    // An empty folder is fine.
    std::fs::create_dir_all(i.work().join("empty")).expect("mkdir");
    i.ok(&["new-mod", "empty"]);
}

/// The scaffold's Lua is formatted as the project's (StyLua with stylua.toml, in-process), so a
/// designer who runs `stylua` on a new mod gets no diff.
#[test]
fn the_scaffold_lua_is_stylua_formatted() {
    let i = Installed::new("stylua");
    i.ok(&["new-mod", "mymod"]);
    let files = lua_style::lua_files(&i.work().join("mymod"));
    assert!(!files.is_empty(), "the scaffold has Lua files");
    let bad = lua_style::unformatted(&i.work().join("mymod"));
    assert!(
        bad.is_empty(),
        "the new-mod scaffold's Lua is not StyLua-formatted:\n{}",
        bad.join("\n")
    );
}

/// The commands `village about` suggests, one a line after "Try:" (the command, then three or more
/// spaces, then what it does).
fn suggested(about: &str) -> Vec<String> {
    let rest = about.split("Try:\n").nth(1).expect("about has a Try: list");
    let out: Vec<String> = rest
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .map(|l| l.split("   ").next().unwrap_or(l).trim().to_string())
        .collect();
    assert!(out.len() >= 8, "{about}");
    out
}

/// Runs one suggested command line through `sh` in `dir`, `village` on the PATH being `bin` (the
/// installed copy, or the checkout's build), the REPL's stdin empty so it ends at once.
fn run_suggestion(line: &str, dir: &Path, bin: &Path, env: &[(&str, &Path)]) -> Output {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    output(&mut c)
}

/// Every next step `village about` suggests works from the folder it was run in: installed with no
/// checkout (a scenario from `new-mod`), and the checkout's own build run from a folder outside the
/// checkout (the checkout's scenario by a path that reaches it).
#[test]
fn about_suggests_commands_that_work_from_any_folder() {
    let i = Installed::new("suggest");
    let about = i.ok(&["about"]);
    let lines = suggested(&about);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("new-mod") && l.contains(" run ")),
        "outside the checkout a scenario comes from new-mod: {about}"
    );
    for line in &lines {
        let out = run_suggestion(
            line,
            &i.work(),
            &i.root.join("bin"),
            &[
                ("VILLAGE_CHECKOUT", Path::new("none")),
                ("XDG_CACHE_HOME", &i.cache()),
                ("HOME", &i.root.join("home")),
            ],
        );
        assert!(
            out.status.success(),
            "installed, in {}: `{line}` failed: {}",
            i.work().display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // The checkout's binary, run from a folder outside it, suggests the checkout's scenario.
    let elsewhere = i.root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("a folder");
    let built = PathBuf::from(env!("CARGO_BIN_EXE_village"));
    let bin = built.parent().expect("the binary's folder");
    let about = String::from_utf8_lossy(
        &output(
            Command::new(env!("CARGO_BIN_EXE_village"))
                .arg("about")
                .current_dir(&elsewhere)
                .env_remove("VILLAGE_CHECKOUT")
                .env_remove("VILLAGE_DATA"),
        )
        .stdout,
    )
    .to_string();
    let lines = suggested(&about);
    assert!(
        lines.iter().any(|l| l.contains("example_marksman.lua")),
        "{about}"
    );
    for line in &lines {
        let out = run_suggestion(line, &elsewhere, bin, &[("HOME", &i.root.join("home"))]);
        assert!(
            out.status.success(),
            "from the checkout's build, in {}: `{line}` failed: {}",
            elsewhere.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
