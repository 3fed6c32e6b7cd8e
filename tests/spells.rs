//! `g:cast` as a user meets it through `village run`: an illegal cast is a one-line error at the caller's
//! file:line, a failing spell script names its own file:line and leaves the game byte-for-byte as it was,
//! and the spell primitives refuse to run outside a spell's `cast`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("village-spells-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(file: &Path, mods: &[&Path]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_village"));
    cmd.current_dir(root()).arg("run").arg(file);
    for m in mods {
        cmd.arg("--mod").arg(m);
    }
    cmd.output().expect("village runs")
}

const SETUP: &str = "local g = village.new_game({ seed = 1, table = 'empty' })\n\
                     local ilse = g:place('Sister Ilse', { x = 5, y = 30 })\n\
                     local orc = g:place('Orc Warrior', { x = 10, y = 30 })\n";

#[test]
fn an_illegal_cast_is_one_line_at_the_callers_file_and_line() {
    let d = tmp("illegal");
    let f = d.join("cast.lua");
    std::fs::write(&f, format!("{SETUP}g:cast(ilse, 'Transfix', 1, orc)\n")).unwrap();
    let out = run(&f, &[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.contains("cast.lua:4:") && first.contains("Power 1 reaches 3\""),
        "{err}"
    );
    for (call, want) in [
        ("g:cast(ilse, 'Fireball', 2, orc)", "does not know Fireball"),
        ("g:cast(ilse, 'Transfix', 4, orc)", "Power must be 1 to 3"),
        (
            "g:cast(ilse, 'Sneeze', 1, orc)",
            "no spell called \"Sneeze\"",
        ),
        (
            "g:cast(ilse, 'Heal', 1, orc, { colour = 'red' })",
            "unknown option `colour`",
        ),
    ] {
        std::fs::write(&f, format!("{SETUP}{call}\n")).unwrap();
        let out = run(&f, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.contains("cast.lua:4:") && first.contains(want),
            "{call}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_failing_spell_script_names_its_line_and_leaves_the_game_as_it_was() {
    let d = tmp("rollback");
    let f = d.join("rollback.lua");
    // A Heal on the Undead fails inside the kernel's heal, after the cast was logged and the script ran:
    // the whole call is undone, dice included (the next roll is the same either way).
    std::fs::write(
        &f,
        format!(
            "{SETUP}local sk = g:place('Skeleton Warrior', {{ x = 5, y = 26 }})\n\
             g:add_condition(sk, 'defenseless')\n\
             local before = g:log_json()\n\
             local ok, err = pcall(g.cast, g, ilse, 'Heal', 1, sk)\n\
             assert(not ok)\n\
             print(tostring(err))\n\
             assert(g:log_json() == before, 'the log is unchanged')\n\
             assert(sk:has('defenseless'))\n"
        ),
    )
    .unwrap();
    let out = run(&f, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.contains("Heal failed: scripts/spells/heal.lua:") && first.contains("not living"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn spell_primitives_work_only_inside_a_spells_cast() {
    let d = tmp("outside");
    std::fs::create_dir_all(d.join("rosters")).unwrap();
    std::fs::create_dir_all(d.join("scripts/traits")).unwrap();
    std::fs::write(
        d.join("rosters/traits.toml"),
        "[[trait]]\nname = \"Sneaky Caster\"\ncost = 0\ntext = \"test\"\nscript = \"traits/sneaky.lua\"\n",
    )
    .unwrap();
    std::fs::write(
        d.join("rosters/bestiary.toml"),
        "[[enemy]]\nname = \"Sneak\"\ntier = \"mob\"\nquality = 4\ncombat = 3\ntraits = [\"Sneaky Caster\"]\nbehaviours = [\"Hunter\"]\n",
    )
    .unwrap();
    std::fs::write(
        d.join("scripts/traits/sneaky.lua"),
        "return {\n\tmelee_modifier = function(ctx, self, roll)\n\t\tctx:transfix(roll.target, 1)\n\tend,\n}\n",
    )
    .unwrap();
    let f = d.join("sneak.lua");
    std::fs::write(
        &f,
        "local g = village.new_game({ seed = 1, table = 'empty' })\n\
         local s = g:place('Sneak', { x = 3, y = 3 })\n\
         local b = g:place('Bram the Smith', { x = 4, y = 3 })\n\
         g:melee(s, b)\n",
    )
    .unwrap();
    let out = run(&f, &[&d]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("traits/sneaky.lua:3:")
            && err.contains(
                "ctx:transfix is a spell primitive: it works only in a spell script's `cast`"
            ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
