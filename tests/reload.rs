//! Hot reload: a watched mod folder in a temp dir, edited while a session is open. Script edits apply
//! to existing games from their next call, roster edits to new games; a broken edit keeps the last good
//! version and reports file:line; `lib/` modules are required afresh; nothing changes, nothing reloads.
//!
//! Timing: the machine may be loaded, so every wait is a poll loop with a generous deadline; the one
//! latency assertion is loose (< 2 s) and the measured numbers are printed (`--nocapture`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use village::roster::Rosters;
use village::script::{Limits, ReloadReport, ScriptHost, Watcher};

/// How long any test waits for a reload before failing.
const PATIENCE: Duration = Duration::from_secs(10);

/// A copy of tests/fixtures/toy_mod in a fresh temp dir, removed on drop.
struct Mod {
    dir: PathBuf,
}

impl Mod {
    fn new(name: &str) -> Mod {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let dir = std::env::temp_dir().join(format!(
            "village-reload-{name}-{}-{nanos}",
            std::process::id()
        ));
        let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/toy_mod");
        copy_dir(&fixture, &dir);
        Mod { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn open(&self) -> ScriptHost {
        ScriptHost::open(
            &[Rosters::builtin_root(), self.dir.clone()],
            Limits::default(),
            1,
        )
        .unwrap_or_else(|e| panic!("the session opens: {}", e.join("\n")))
    }
}

impl Drop for Mod {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// toy.lua giving `value` to its owner's melee attacks.
fn toy_script(value: i64) -> String {
    format!(
        "-- A toy trait, rewritten by the reload tests.\nreturn {{\n\tmelee_modifier = function(ctx, self, roll)\n\t\tif roll.role == \"attacker\" then\n\t\t\treturn {{ value = {value}, reason = \"toy bonus\" }}\n\t\tend\n\tend,\n}}\n"
    )
}

/// The toy bonus a melee in a NEW game shows: Toy Orc attacks Tobin with forced dice 3 and 4.
fn bonus_in_new_game(host: &ScriptHost) -> i64 {
    let out = host
        .vm()
        .eval_string(
            r#"
            local g = village.new_game({ seed = 1, table = "empty" })
            local toy = g:place("Toy Orc", { x = 3, y = 3 })
            local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
            g:force_dice({ 3, 4 })
            local r = g:melee(toy, tobin)
            local sum = 0
            for _, m in ipairs(r.modifiers) do
                sum = sum + m.value
            end
            assert(r.attacker_total == toy.combat + 3 + sum)
            return sum
            "#,
        )
        .unwrap_or_else(|e| panic!("the probe melee runs: {e}"));
    out.parse().unwrap()
}

/// The Combat a Toy Orc placed in a new game has (from the rosters in force).
fn toy_combat_in_new_game(host: &ScriptHost) -> i64 {
    host.vm()
        .eval_string(
            r#"
            local g = village.new_game({ seed = 1, table = "empty" })
            return g:place("Toy Orc", { x = 3, y = 3 }).combat
            "#,
        )
        .unwrap()
        .parse()
        .unwrap()
}

/// Wait for reports until one satisfies `want`; every report seen is printed. Panics after PATIENCE.
fn await_report(
    host: &ScriptHost,
    w: &Watcher,
    want: impl Fn(&ReloadReport) -> bool,
) -> ReloadReport {
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if let Some(r) = host.wait_reload(w, Duration::from_millis(200)) {
            eprintln!("reload: {r}");
            if want(&r) {
                return r;
            }
        }
    }
    panic!("no matching reload within {PATIENCE:?}");
}

fn await_ok(host: &ScriptHost, w: &Watcher) -> ReloadReport {
    await_report(host, w, ReloadReport::is_ok)
}

fn await_err(host: &ScriptHost, w: &Watcher) -> ReloadReport {
    await_report(host, w, |r| !r.is_ok())
}

#[test]
fn a_saved_script_applies_to_running_games_from_their_next_step() {
    let m = Mod::new("latency");
    let host = m.open();
    assert_eq!(bonus_in_new_game(&host), 1);
    // A game created before the reload; a tie (7 vs 7) leaves both in contact for the next melee.
    host.vm()
        .exec(
            r#"
            old = village.new_game({ seed = 1, table = "empty" })
            old_toy = old:place("Toy Orc", { x = 3, y = 3 })
            old_tobin = old:place("Tobin the Marksman", { x = 4, y = 3 })
            old:force_dice({ 3, 4 })
            local r = old:melee(old_toy, old_tobin)
            assert(r.result == "tie" and r.modifiers[1].value == 1)
            "#,
            "setup.lua",
        )
        .unwrap();

    let w = host.watch().expect("the watcher starts");
    let mut latencies = Vec::new();
    for value in [2, 3, 4, 5, 2] {
        m.write("scripts/traits/toy.lua", &toy_script(value));
        let written = Instant::now();
        // Poll as a REPL loop would, and probe with a melee after every reload until it shows.
        loop {
            assert!(
                written.elapsed() < PATIENCE,
                "+{value} never applied within {PATIENCE:?}"
            );
            if let Some(r) = host.wait_reload(&w, Duration::from_millis(10)) {
                eprintln!("reload: {r}");
                if bonus_in_new_game(&host) == value {
                    break;
                }
            }
        }
        latencies.push(written.elapsed());
    }
    let ms: Vec<String> = latencies
        .iter()
        .map(|d| format!("{:.1}", d.as_secs_f64() * 1000.0))
        .collect();
    eprintln!(
        "reload latency, end of write to the next melee showing the new value (ms): {}",
        ms.join(", ")
    );
    for d in &latencies {
        assert!(*d < Duration::from_secs(2), "reload took {d:?}");
    }

    // The game created before any reload uses the new hook on its next melee.
    let v = host
        .vm()
        .eval_string(
            r#"
            old:force_dice({ 3, 4 })
            local r = old:melee(old_toy, old_tobin)
            return r.modifiers[1].value
            "#,
        )
        .unwrap();
    assert_eq!(v, "2");
}

#[test]
fn a_broken_script_keeps_the_last_good_version_until_the_next_save() {
    let m = Mod::new("syntax");
    let host = m.open();
    let w = host.watch().unwrap();
    m.write("scripts/traits/toy.lua", &toy_script(2));
    let r = await_ok(&host, &w);
    assert!(r.to_string().starts_with("reloaded "), "{r}");
    let modules = host.module_count();
    let unit = if modules == 1 { "module" } else { "modules" };
    assert!(
        r.to_string()
            .contains(&format!("toy.lua ({modules} {unit})")),
        "{r}"
    );
    assert_eq!(bonus_in_new_game(&host), 2);

    // A syntax error on line 3.
    m.write(
        "scripts/traits/toy.lua",
        "-- broken\nreturn {\n\tmelee_modifier = function(ctx, self, roll) if then end,\n}\n",
    );
    let r = await_err(&host, &w);
    let text = r.to_string();
    assert!(text.starts_with("kept the last good version: "), "{text}");
    assert!(text.contains("toy.lua:3:"), "{text}");
    assert!(r.errors().iter().any(|e| e.contains("toy.lua:3:")));
    assert!(r.changed.iter().any(|p| p.ends_with("traits/toy.lua")));
    assert_eq!(
        bonus_in_new_game(&host),
        2,
        "the last good hook still applies"
    );

    // A runtime error while loading names its line too.
    m.write(
        "scripts/traits/toy.lua",
        "-- broken\n\nlocal x = nil + 1\nreturn {}\n",
    );
    let r = await_err(&host, &w);
    assert!(r.to_string().contains("toy.lua:3:"), "{r}");
    assert_eq!(bonus_in_new_game(&host), 2);

    // The next save that loads is taken.
    m.write("scripts/traits/toy.lua", &toy_script(3));
    let r = await_ok(&host, &w);
    assert!(r.is_ok(), "{r}");
    assert_eq!(bonus_in_new_game(&host), 3);

    // Removing a script the rosters name revalidates the rosters: refused, the old module stays.
    std::fs::remove_file(m.path("scripts/traits/toy.lua")).unwrap();
    let r = await_err(&host, &w);
    assert!(
        r.errors()
            .iter()
            .any(|e| e.contains("traits/toy.lua") && e.contains("not found")),
        "{r}"
    );
    assert_eq!(bonus_in_new_game(&host), 3);
    m.write("scripts/traits/toy.lua", &toy_script(4));
    await_ok(&host, &w);
    assert_eq!(bonus_in_new_game(&host), 4);
}

#[test]
fn roster_edits_apply_to_new_games_and_a_broken_roster_is_refused() {
    let m = Mod::new("roster");
    let host = m.open();
    host.vm()
        .exec(
            r#"
            old = village.new_game({ seed = 1, table = "empty" })
            old_toy = old:place("Toy Orc", { x = 3, y = 3 })
            "#,
            "setup.lua",
        )
        .unwrap();
    assert_eq!(toy_combat_in_new_game(&host), 3);
    let w = host.watch().unwrap();
    let bestiary = std::fs::read_to_string(m.path("rosters/bestiary.toml")).unwrap();
    assert!(bestiary.contains("combat = 3"));

    m.write(
        "rosters/bestiary.toml",
        &bestiary.replace("combat = 3", "combat = 5"),
    );
    let r = await_ok(&host, &w);
    let summary = r.outcome.as_ref().unwrap();
    assert!(summary.rosters, "{r}");
    assert!(r
        .changed
        .iter()
        .any(|p| p.ends_with("rosters/bestiary.toml")));
    assert!(r.to_string().contains("(rosters, "), "{r}");
    assert_eq!(toy_combat_in_new_game(&host), 5);
    // A game keeps the rosters it was created with.
    let old = host
        .vm()
        .eval_string(
            "return old:place('Toy Orc', { x = 10, y = 10 }).combat .. ' ' .. old_toy.combat",
        )
        .unwrap();
    assert_eq!(old, "3 3");

    // An unknown field: refused, with file, entry and field; the last good rosters stay.
    m.write(
        "rosters/bestiary.toml",
        &bestiary.replace("combat = 3", "combat = 6\ncolour = \"green\""),
    );
    let r = await_err(&host, &w);
    let e = r.errors().join("\n");
    assert!(
        e.contains("bestiary.toml") && e.contains("Toy Orc") && e.contains("colour"),
        "{e}"
    );
    assert_eq!(toy_combat_in_new_game(&host), 5);

    m.write(
        "rosters/bestiary.toml",
        &bestiary.replace("combat = 3", "combat = 6"),
    );
    await_ok(&host, &w);
    assert_eq!(toy_combat_in_new_game(&host), 6);
}

#[test]
fn a_changed_lib_module_is_required_afresh() {
    let m = Mod::new("lib");
    m.write("scripts/lib/toy_bonus.lua", "return { value = 1 }\n");
    m.write(
        "scripts/traits/toy.lua",
        "local bonus = require(\"lib.toy_bonus\")\nreturn {\n\tmelee_modifier = function(ctx, self, roll)\n\t\tif roll.role == \"attacker\" then\n\t\t\treturn { value = bonus.value, reason = \"toy bonus\" }\n\t\tend\n\tend,\n}\n",
    );
    let host = m.open();
    assert_eq!(bonus_in_new_game(&host), 1);
    let w = host.watch().unwrap();

    m.write("scripts/lib/toy_bonus.lua", "return { value = 4 }\n");
    let r = await_ok(&host, &w);
    assert!(
        r.changed.iter().any(|p| p.ends_with("lib/toy_bonus.lua")),
        "{r:?}"
    );
    assert_eq!(bonus_in_new_game(&host), 4);

    // A broken lib module fails the trait that requires it, and restores the previous cache.
    m.write("scripts/lib/toy_bonus.lua", "return { value = }\n");
    let r = await_err(&host, &w);
    assert!(r.to_string().contains("toy_bonus.lua:1:"), "{r}");
    assert_eq!(bonus_in_new_game(&host), 4);
    let cached = host
        .vm()
        .eval_string("return require('lib.toy_bonus').value")
        .unwrap();
    assert_eq!(cached, "4", "the last good require cache is back");
}

#[test]
fn nothing_reloads_when_nothing_relevant_changed() {
    let m = Mod::new("quiet");
    let host = m.open();
    let w = host.watch().unwrap();
    assert!(host.poll_reload(&w).is_none());
    assert!(host.wait_reload(&w, Duration::from_millis(300)).is_none());

    // Running games and reading files reloads nothing.
    assert_eq!(bonus_in_new_game(&host), 1);
    let _ = std::fs::read_to_string(m.path("scripts/traits/toy.lua")).unwrap();
    assert!(host.wait_reload(&w, Duration::from_millis(300)).is_none());

    // Editor droppings and files beside the watched folders are not script or roster changes.
    m.write("scripts/traits/.toy.lua.swp", "x");
    m.write("scripts/traits/toy.lua~", "x");
    m.write("rosters/notes.txt", "x");
    m.write("README.md", "x");
    assert!(host.wait_reload(&w, Duration::from_millis(300)).is_none());

    // A real change reloads once; the reload's own reads do not trigger another.
    m.write("scripts/traits/toy.lua", &toy_script(2));
    let r = await_ok(&host, &w);
    assert_eq!(r.changed.len(), 1, "{r:?}");
    assert!(host.wait_reload(&w, Duration::from_millis(500)).is_none());
    assert!(host.poll_reload(&w).is_none());
}

#[test]
fn new_modules_and_run_files_are_seen_and_reload_by_hand_works() {
    let m = Mod::new("extra");
    let host = m.open();
    // A scenario outside the layers, as `village run --watch` would run it.
    m.write("scenario/check.lua", "assert(village.new_game ~= nil)\n");
    host.run_file(&m.path("scenario/check.lua")).unwrap();
    let w = host.watch().unwrap();
    assert!(w
        .watched()
        .iter()
        .any(|p| p.ends_with("scenario/check.lua")));

    m.write("scenario/check.lua", "assert(true)\n");
    let r = await_ok(&host, &w);
    let s = r.outcome.clone().unwrap();
    assert!(!s.scripts && !s.rosters, "a run file reloads nothing: {r}");
    assert!(r.changed[0].ends_with("scenario/check.lua"));
    assert!(
        r.to_string().ends_with("check.lua (nothing to reload)"),
        "{r}"
    );

    // A new trait script in a new folder of the mod.
    m.write(
        "scripts/alpha/toy_alpha.lua",
        "return { name = 'toy alpha' }\n",
    );
    let before = host.module_count();
    let r = await_report(&host, &w, |r| {
        r.outcome
            .as_ref()
            .is_ok_and(|s| s.added.contains(&"alpha/toy_alpha.lua".to_string()))
    });
    assert_eq!(host.module_count(), before + 1, "{r}");

    let r = host.reload();
    assert!(r.is_ok(), "{r}");
    assert_eq!(
        r.to_string(),
        format!("reloaded everything (rosters, {} modules)", before + 1)
    );
}

#[test]
fn a_deleted_and_recreated_scripts_folder_is_watched_again() {
    let m = Mod::new("rmdir");
    let host = m.open();
    let w = host.watch().unwrap();
    std::fs::remove_dir_all(m.path("scripts")).unwrap();
    let r = await_err(&host, &w);
    assert!(r.to_string().contains("traits/toy.lua"), "{r}");
    assert_eq!(bonus_in_new_game(&host), 1, "the last good module stays");
    // Let the host notice the folder is gone before it comes back.
    assert!(host.wait_reload(&w, Duration::from_millis(200)).is_none());

    m.write("scripts/traits/toy.lua", &toy_script(3));
    await_ok(&host, &w);
    assert_eq!(bonus_in_new_game(&host), 3);
    // And the new folder is watched recursively again.
    m.write("scripts/traits/toy.lua", &toy_script(4));
    await_ok(&host, &w);
    assert_eq!(bonus_in_new_game(&host), 4);
}

#[test]
fn a_scripts_folder_replaced_between_polls_is_watched_again() {
    let m = Mod::new("replace");
    let host = m.open();
    let w = host.watch().unwrap();
    // Delete and recreate with no poll in between (a `git checkout`, a sync tool).
    std::fs::remove_dir_all(m.path("scripts")).unwrap();
    m.write("scripts/traits/toy.lua", &toy_script(3));
    await_report(&host, &w, |r| r.is_ok() && bonus_in_new_game(&host) == 3);
    m.write("scripts/traits/toy.lua", &toy_script(4));
    await_report(&host, &w, |r| r.is_ok() && bonus_in_new_game(&host) == 4);
    // Settle, then check the new folder's watch is live.
    while host.wait_reload(&w, Duration::from_millis(200)).is_some() {}
    m.write("scripts/traits/toy.lua", &toy_script(5));
    await_report(&host, &w, |r| r.is_ok() && bonus_in_new_game(&host) == 5);
}
