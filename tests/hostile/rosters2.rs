//! Rosters passed carelessly (issue 36, root cause 14's roster part): `check` and `wave` judge an
//! enemy's Wave Points by one rule; two mods defining the same entry, and names that print the same
//! (NFC and NFD forms, a zero-width space, a no-break space, a soft hyphen) are said with both
//! file/entry locations; control characters in a name are refused; and a roster file the loader does
//! not read (a subfolder's, a misspelt or wrongly cased name) is named instead of ignored.

use super::bin::{s, scratch, text, village};
use std::path::{Path, PathBuf};

/// A mod `name` in `dir` holding `files` (path inside the mod, text).
fn a_mod(dir: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let m = dir.join(name);
    std::fs::create_dir_all(&m).expect("mkdir");
    for (rel, body) in files {
        let p = m.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, body).expect("write");
    }
    m
}

/// `village check` with `mods`: (success, everything printed).
fn check(mods: &[&Path]) -> (bool, String) {
    let mut args = vec!["check".to_string()];
    for m in mods {
        args.extend(["--mod".to_string(), s(m).to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = village(&args);
    (
        out.status.success(),
        format!("{}{}", text(&out.stdout), text(&out.stderr)),
    )
}

/// A Village Defender entry of `name`.
fn defender(name: &str) -> String {
    format!("[[defender]]\nname = \"{name}\"\nquality = 4\ncombat = 2\n")
}

/// An enemy entry of `name` with `extra` lines.
fn enemy(name: &str, extra: &str) -> String {
    format!(
        "[[enemy]]\nname = \"{name}\"\ntier = \"mob\"\nquality = 4\ncombat = 2\nbehaviours = [\"Hunter\"]\n{extra}"
    )
}

/// A hero entry of `name`.
fn hero(name: &str) -> String {
    format!(
        "[[hero]]\nname = \"{name}\"\nquality = 4\ncombat = 3\ntraits = [\"Hero\"]\n\
         signature = {{ name = \"Nothing Much\", text = \"Does nothing.\" }}\n"
    )
}

/// Enemies whose Wave Points are not positive — printed −1,485 or 0, or by the formula (Quality 6,
/// Combat 0, Slow: −3) — fail `check` as they fail `wave`, with the same words, naming file, entry and
/// field.
#[test]
fn check_refuses_the_wave_points_wave_refuses() {
    let dir = scratch("wavepoints");
    let cases = [
        (
            "printed",
            enemy("Goblin Debt", "wave_points = -1485\n"),
            "-1485",
        ),
        (
            "zero",
            enemy("Goblin Nothing", "wave_points = 0\n"),
            "costs 0 Wave Points",
        ),
        (
            "formula",
            "[[enemy]]\nname = \"Goblin Snail\"\ntier = \"mob\"\nquality = 6\ncombat = 0\n\
             traits = [\"Slow\"]\nbehaviours = [\"Hunter\"]\n"
                .to_string(),
            "Wave Points",
        ),
    ];
    for (name, body, want) in cases {
        let m = a_mod(&dir, name, &[("rosters/bestiary.toml", &body)]);
        let (ok, all) = check(&[&m]);
        assert!(!ok, "{name}: check passed\n{all}");
        assert!(
            all.contains("bestiary.toml"),
            "{name}: names the file: {all}"
        );
        assert!(
            all.contains("field \"wave_points\""),
            "{name}: names the field: {all}"
        );
        assert!(all.contains(want), "{name}: {all}");
        assert!(all.contains("needs a positive cost"), "{name}: {all}");
        let out = village(&["wave", "--escalation", "II", "--mod", s(&m)]);
        let e = text(&out.stderr);
        assert!(
            !out.status.success(),
            "{name}: wave built: {}",
            text(&out.stdout)
        );
        assert!(
            e.contains("needs a positive cost"),
            "{name}: the same rule: {e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two mods defining the same hero: a warning naming both files (the later mod's entry is used). Names
/// that print as another's — NFD against NFC, a zero-width space, a no-break space, a soft hyphen, a
/// BOM — are errors naming both entries and both files, whichever layer and file each is in.
#[test]
fn duplicate_and_lookalike_names_are_named_with_both_places() {
    let dir = scratch("lookalikes");
    let a = a_mod(&dir, "a", &[("rosters/heroes.toml", &hero("Dame Ada"))]);
    let b = a_mod(&dir, "b", &[("rosters/heroes.toml", &hero("Dame Ada"))]);
    let (ok, all) = check(&[&a, &b]);
    assert!(ok, "a warning, not an error: {all}");
    assert!(all.contains("warning"), "{all}");
    for m in [&a, &b] {
        assert!(
            all.contains(&format!("{}/rosters/heroes.toml", s(m))),
            "names {}: {all}",
            s(m)
        );
    }
    // (case, the mod's file and entry, a second mod's (none: the look-alike is built in), shown)
    type File<'a> = (&'a str, String);
    let lookalikes: [(&str, File, Option<File>, &str); 5] = [
        (
            "nfd",
            ("rosters/heroes.toml", hero("Cafe\u{301} Keeper")),
            Some(("rosters/heroes.toml", hero("Caf\u{e9} Keeper"))),
            "Keeper",
        ),
        (
            "zero-width",
            ("rosters/heroes.toml", hero("Captain\u{200b} Maren")),
            None,
            "Captain",
        ),
        (
            "no-break",
            ("rosters/defenders.toml", defender("Bram\u{a0}the Smith")),
            None,
            "Bram",
        ),
        (
            "soft hyphen",
            ("rosters/bestiary.toml", enemy("Orc War\u{ad}rior", "")),
            None,
            "Orc War",
        ),
        (
            "bom",
            ("rosters/heroes.toml", hero("\u{feff}Sister Ilse")),
            None,
            "Sister Ilse",
        ),
    ];
    for (name, (file, body), second, shown) in lookalikes {
        let m1 = a_mod(&dir, &format!("{name}-1"), &[(file, &body)]);
        let mut mods = vec![m1.clone()];
        if let Some((f2, b2)) = &second {
            mods.push(a_mod(&dir, &format!("{name}-2"), &[(f2, b2)]));
        }
        let refs: Vec<&Path> = mods.iter().map(PathBuf::as_path).collect();
        let (ok, all) = check(&refs);
        assert!(!ok, "{name}: check passed: {all}");
        assert!(all.contains("prints the same as"), "{name}: {all}");
        assert!(all.contains(shown), "{name}: {all}");
        assert!(
            all.contains(&format!("{}/{file}", s(&m1))),
            "{name}: names the mod's file: {all}"
        );
        match second {
            Some((f2, _)) => assert!(
                all.contains(&format!("{}/{f2}", s(&mods[1]))),
                "{name}: names the other file: {all}"
            ),
            None => assert!(
                all.contains(" rosters/"),
                "{name}: names the built-in file: {all}"
            ),
        }
    }
    // A control character in a name is refused outright, shown escaped.
    let m = a_mod(
        &dir,
        "control",
        &[("rosters/heroes.toml", &hero("Evil\\u001B[31m Hero"))],
    );
    let (ok, all) = check(&[&m]);
    assert!(!ok, "{all}");
    assert!(all.contains("control character"), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Roster files the loader does not read are named in a warning: one in a subfolder, one with the
/// wrong case, a misspelt one; the mod's real files still load.
#[test]
fn roster_files_the_loader_skips_are_named() {
    let dir = scratch("skipped");
    let m = a_mod(
        &dir,
        "m",
        &[
            ("rosters/extra/more.toml", &hero("Extra Hero")),
            ("rosters/heroes.TOML", &hero("Upper Hero")),
            ("rosters/heros.toml", &hero("Misspelt Hero")),
            ("rosters/bestiary.toml", &enemy("Read Orc", "")),
        ],
    );
    let (ok, all) = check(&[&m]);
    assert!(ok, "warnings, not errors: {all}");
    for (file, why) in [
        ("rosters/extra", "subfolder"),
        ("rosters/heroes.TOML", "heroes.toml"),
        ("rosters/heros.toml", "heroes.toml"),
    ] {
        let want = format!("{}/{file}", s(&m));
        let line = all
            .lines()
            .find(|l| l.contains(&want))
            .unwrap_or_else(|| panic!("{file} is not named: {all}"));
        assert!(line.contains("not read"), "{line}");
        assert!(line.contains(why), "{file}: says why ({why}): {line}");
    }
    assert!(all.contains("Read Orc"), "the real file loads: {all}");
    let _ = std::fs::remove_dir_all(&dir);
}
