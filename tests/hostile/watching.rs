//! Hot reload after its mod folder goes away (issue 36, root cause 12): a `--mod` folder renamed away
//! and back, replaced by a copy, or deleted and made again is watched again, so a later save reloads
//! (it used to stop reloading without a word); while it is gone, a reload says the folder is missing.
//!
//! Every wait is a poll loop with a generous deadline (the machine may be loaded); nothing is timed.

use super::bin::{copy_dir, scratch, text};
use super::finishes;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use village::roster::Rosters;
use village::script::{Limits, ReloadReport, ScriptHost, Watcher};

/// How long a case waits for a reload.
const PATIENCE: Duration = Duration::from_secs(15);

/// The toy mod (a trait giving a melee bonus) copied to `dir/toy`.
fn toy_mod(dir: &Path) -> PathBuf {
    let m = dir.join("toy");
    copy_dir(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/toy_mod"),
        &m,
    );
    m
}

/// toy.lua giving `value` to its owner's melee attacks.
fn toy_script(value: i64) -> String {
    format!(
        "return {{\n\tmelee_modifier = function(ctx, self, roll)\n\t\tif roll.role == \"attacker\" then\n\
         \t\t\treturn {{ value = {value}, reason = \"toy bonus\" }}\n\t\tend\n\tend,\n}}\n"
    )
}

fn set_bonus(m: &Path, value: i64) {
    std::fs::write(m.join("scripts/traits/toy.lua"), toy_script(value)).expect("write");
}

/// The toy bonus a melee in a new game shows.
fn bonus(host: &ScriptHost) -> i64 {
    host.vm()
        .eval_string(
            "local g = village.new_game({ seed = 1, table = \"empty\" })\n\
             local toy = g:place(\"Toy Orc\", { x = 3, y = 3 })\n\
             local tobin = g:place(\"Tobin the Marksman\", { x = 4, y = 3 })\n\
             g:force_dice({ 3, 4 })\n\
             local r = g:melee(toy, tobin)\n\
             local sum = 0\n\
             for _, m in ipairs(r.modifiers) do sum = sum + m.value end\n\
             return sum",
        )
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(i64::MIN)
}

/// Wait until a reload leaves the toy bonus at `want`.
fn until_bonus(host: &ScriptHost, w: &Watcher, want: i64) -> bool {
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if let Some(r) = host.wait_reload(w, Duration::from_millis(200)) {
            eprintln!("reload: {r}");
            if r.is_ok() && bonus(host) == want {
                return true;
            }
        }
    }
    false
}

/// Wait for a failed reload; its report.
fn until_failed(host: &ScriptHost, w: &Watcher) -> Option<ReloadReport> {
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if let Some(r) = host.wait_reload(w, Duration::from_millis(200)) {
            eprintln!("reload: {r}");
            if !r.is_ok() {
                return Some(r);
            }
        }
    }
    None
}

/// A session on the built-in layer and `m`, watching.
fn watched(m: &Path) -> (ScriptHost, Watcher) {
    let host = ScriptHost::open(
        &[Rosters::builtin_root(), m.to_path_buf()],
        Limits::default(),
        1,
    )
    .unwrap_or_else(|e| panic!("the session opens: {}", e.join("\n")));
    let w = host.watch().expect("watching");
    (host, w)
}

/// The mod folder renamed away, its script saved there (the reload says the folder is gone), then
/// renamed back: the next save reloads, and so does the one after.
#[test]
fn a_mod_folder_renamed_away_and_back_is_watched_again() {
    finishes(|| {
        let dir = scratch("watch-rename");
        let m = toy_mod(&dir);
        let away = dir.join("away");
        let (host, w) = watched(&m);
        std::fs::rename(&m, &away).expect("rename away");
        set_bonus(&away, 7);
        let r = until_failed(&host, &w).expect("a reload says the folder is gone");
        assert!(r.to_string().contains("does not exist"), "{r}");
        std::fs::rename(&away, &m).expect("rename back");
        set_bonus(&m, 3);
        assert!(
            until_bonus(&host, &w, 3),
            "the save after the folder came back reloads"
        );
        set_bonus(&m, 4);
        assert!(until_bonus(&host, &w, 4), "and the next one");
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// The mod folder moved away and a copy put in its place (a sync tool, `git checkout` of a parent),
/// with no poll in between, then deleted and made again: each time a later save reloads.
#[test]
fn a_mod_folder_replaced_or_made_again_is_watched_again() {
    finishes(|| {
        let dir = scratch("watch-replace");
        let m = toy_mod(&dir);
        let (host, w) = watched(&m);
        let old = dir.join("old");
        std::fs::rename(&m, &old).expect("rename away");
        copy_dir(&old, &m);
        set_bonus(&m, 5);
        assert!(until_bonus(&host, &w, 5), "the copy's save reloads");
        set_bonus(&m, 6);
        assert!(until_bonus(&host, &w, 6), "and the next one");
        std::fs::remove_dir_all(&m).expect("rm");
        assert!(
            until_failed(&host, &w).is_some(),
            "the folder's loss is reported"
        );
        copy_dir(&old, &m);
        set_bonus(&m, 8);
        assert!(
            until_bonus(&host, &w, 8),
            "the remade folder's save reloads"
        );
        set_bonus(&m, 9);
        assert!(until_bonus(&host, &w, 9), "and the next one");
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// `village run --watch --mod M FILE`: M renamed away (a save there), back, then saved: the file runs
/// again.
#[test]
fn run_watch_runs_again_after_its_mod_comes_back() {
    let dir = scratch("watch-run");
    let m = toy_mod(&dir);
    let f = dir.join("scenario.lua");
    std::fs::write(
        &f,
        "local g = village.new_game({ seed = 1, table = \"empty\" })\n\
         local toy = g:place(\"Toy Orc\", { x = 3, y = 3 })\n\
         local tobin = g:place(\"Tobin the Marksman\", { x = 4, y = 3 })\n\
         g:force_dice({ 3, 4 })\n\
         print(\"bonus\", g:melee(toy, tobin).modifiers[1].value)\n",
    )
    .expect("write");
    set_bonus(&m, 1);
    let lines = finishes(move || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_village"))
            .args(["run", "--watch", "--mod"])
            .arg(&m)
            .arg(&f)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut seen = Vec::new();
        let mut wait_for = |want: &str| {
            let deadline = Instant::now() + PATIENCE;
            while Instant::now() < deadline {
                if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
                    seen.push(line.clone());
                    if line == want {
                        return true;
                    }
                }
            }
            false
        };
        let first = wait_for("bonus\t1");
        std::thread::sleep(Duration::from_millis(500));
        let away = m.with_file_name("away");
        std::fs::rename(&m, &away).expect("away");
        set_bonus(&away, 2);
        std::thread::sleep(Duration::from_millis(1500));
        std::fs::rename(&away, &m).expect("back");
        std::thread::sleep(Duration::from_millis(500));
        set_bonus(&m, 3);
        let again = wait_for("bonus\t3");
        let _ = child.kill();
        let out = child.wait_with_output().expect("ends");
        (first, again, seen, text(&out.stderr))
    });
    let (first, again, seen, err) = lines;
    assert!(first, "the first run printed: {seen:?}\n{err}");
    assert!(
        again,
        "the file ran again after the mod came back: {seen:?}\n{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
