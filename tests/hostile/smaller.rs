//! The smaller things (issue 16, defect 12 and defect 3's log text): errors that name the script and
//! the function, `require` cycles, `load`'s environment, `math.random(0)`, a byte order mark, symbolic
//! links out of a mod, entry point keys that are not names, and text or order lists that would grow
//! memory outside the VM's limit.

use crate::{finishes, fixture, vm_with};
use std::path::PathBuf;
use village::roster::Rosters;
use village::script::repl::{Eval, NewGame, Repl};
use village::script::{Limits, ScriptHost};

fn open(layers: &[PathBuf]) -> Result<ScriptHost, String> {
    ScriptHost::open(layers, Limits::default(), 1).map_err(|e| e.join("\n"))
}

#[test]
fn a_library_error_names_the_script_line_and_the_function() {
    for (src, want) in [
        ("string.rep()", "evil.lua:1: bad argument #1 to 'rep'"),
        (
            "local s = ('x'):rep()",
            "evil.lua:1: bad argument #2 to 'rep'",
        ),
        (
            "table.insert(1, 2)",
            "evil.lua:1: bad argument #1 to 'insert'",
        ),
        (
            "table.sort({3, 1, 2}, function(a, b) return a.x < b end)",
            "evil.lua:1: attempt to index a number value",
        ),
    ] {
        let (e, goes_on) = finishes(move || {
            let vm = vm_with(Limits::default());
            let e = vm.exec(src, "evil.lua").expect_err("fails").to_string();
            (e, vm.eval_string("return 1 + 1").ok())
        });
        assert!(e.starts_with(want), "{src}: {e}");
        let headline = e.lines().next().unwrap_or_default();
        assert!(!headline.contains("sandbox"), "{src}: {e}");
        assert_eq!(goes_on.as_deref(), Some("2"));
    }
}

#[test]
fn a_require_cycle_is_named() {
    let e = finishes(|| open(&[Rosters::builtin_root(), fixture("require_cycle")]).err());
    let e = e.expect("the mod is refused");
    assert!(
        e.contains("require cycle: lib.ping -> lib.pong -> lib.ping"),
        "{e}"
    );
    assert!(e.contains("require_cycle/scripts/variants/evil.lua"), "{e}");
    assert!(!e.contains("stack overflow"), "{e}");
}

#[test]
fn load_honours_its_environment_and_math_random_0_is_an_integer() {
    let out = finishes(|| {
        vm_with(Limits::default())
            .eval_string(
                "local f = load('y = x + 1 return y', 'chunk', 't', { x = 41 }) \
                 local r = math.random(0) \
                 local bin = select(2, load('return 1', 'c', 'b')) \
                 return f() .. ' ' .. tostring(y) .. ' ' .. math.type(r) .. ' ' .. bin",
            )
            .map_err(|e| e.to_string())
    });
    assert_eq!(
        out.as_deref(),
        Ok("42 nil integer attempt to load a text chunk (binary chunks are not available in the sandbox)")
    );
}

#[test]
fn a_byte_order_mark_is_not_a_syntax_error() {
    // Made here: StyLua, which checks the committed Lua, rejects the mark itself.
    let dir = std::env::temp_dir().join(format!("village-hostile-bom-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let variants = dir.join("scripts/variants");
    std::fs::create_dir_all(&variants).expect("a temp mod");
    std::fs::write(
        variants.join("bom.lua"),
        "\u{feff}return { name = \"bom\" }\n",
    )
    .expect("written");
    let host = finishes(move || open(&[Rosters::builtin_root(), dir]).map(|_| ()));
    assert_eq!(host, Ok(()));
}

#[test]
fn a_symbolic_link_out_of_the_mod_is_not_read() {
    let dir = std::env::temp_dir().join(format!("village-hostile-symlink-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let variants = dir.join("scripts/variants");
    std::fs::create_dir_all(&variants).expect("a temp mod");
    let secret = dir.join("secret.lua");
    std::fs::write(&secret, "return { name = 'outside' }").expect("written");
    std::os::unix::fs::symlink(&secret, variants.join("evil.lua")).expect("a link");
    let e = finishes(move || open(&[Rosters::builtin_root(), dir]).err());
    let e = e.expect("the link is refused");
    assert!(
        e.contains("scripts/variants/evil.lua: a symbolic link to a file outside"),
        "{e}"
    );
}

#[test]
fn an_entry_point_key_that_is_not_a_name_is_shown_as_lua_writes_it() {
    let dir = std::env::temp_dir().join(format!("village-hostile-keys-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let variants = dir.join("scripts/variants");
    std::fs::create_dir_all(&variants).expect("a temp mod");
    std::fs::write(
        variants.join("evil.lua"),
        "return { [true] = function() end }",
    )
    .expect("written");
    let e = finishes(move || open(&[Rosters::builtin_root(), dir]).err());
    let e = e.expect("refused");
    assert!(e.contains("unknown entry point `[true]`"), "{e}");
    assert!(!e.contains("Boolean"), "{e}");
}

#[test]
fn log_text_and_council_orders_are_bounded() {
    // A thousand tries under pcall first: none of them may leave text in the log.
    let (e, same) = failing_melee_after(
        "long_reason",
        "for i = 1, 1000 do pcall(game.melee, game, maren, orc) end",
    );
    assert!(e.contains("long_reason.lua:4:"), "{e}");
    assert!(
        e.contains("ctx:roll's purpose is 1000000 bytes long"),
        "{e}"
    );
    assert!(same, "the log grew");
    // A policy's (or g:council's) Council orders: at most a hundred.
    let e = finishes(|| {
        let new = NewGame {
            seed: 1,
            length: "intro".into(),
            // A session's game has a party the rules allow (2 to 4 heroes).
            heroes: vec!["Captain Maren".into(), "Tobin the Marksman".into()],
            preset: village::roster::DEFAULT_PRESET.to_string(),
            scenario: village::scenario::DEFAULT_SCENARIO.to_string(),
            variants: Vec::new(),
            policy: "default".into(),
        };
        let r = Repl::open(&[Rosters::builtin_root()], Limits::default(), &new).expect("opens");
        match r.eval(
            "local o = {} for i = 1, 200000 do o[i] = { heal = 'x' } end return game:council(o)",
        ) {
            Eval::Error(e) => e,
            other => panic!("{other:?}"),
        }
    });
    assert!(
        e.contains("200000 Council orders (at most 100 in one Council)"),
        "{e}"
    );
}

/// A melee in a REPL game with `variant` of the half_applied fixture: its error, and whether the log
/// is unchanged.
fn failing_melee(variant: &str) -> (String, bool) {
    failing_melee_after(variant, "")
}

/// [`failing_melee`] after running `before` (Lua) in the session.
fn failing_melee_after(variant: &str, before: &str) -> (String, bool) {
    let variant = variant.to_string();
    let src = format!("{before} return game:melee(maren, orc)");
    finishes(move || {
        let new = NewGame {
            seed: 1,
            length: "intro".into(),
            heroes: vec!["Captain Maren".into(), "Tobin the Marksman".into()],
            preset: village::roster::DEFAULT_PRESET.to_string(),
            scenario: village::scenario::DEFAULT_SCENARIO.to_string(),
            variants: vec![variant],
            policy: "default".into(),
        };
        let r = Repl::open(
            &[Rosters::builtin_root(), fixture("half_applied")],
            Limits::default(),
            &new,
        )
        .unwrap_or_else(|e| panic!("opens: {}", e.join("\n")));
        // The melee's dice are forced (6 against 1): it has a winner, whose `on_result` fails, whatever
        // the seed's dice (a tie calls none). A refused melee gives its dice back, so every try rolls
        // these.
        let setup = r.eval(
            "maren = game:models()[1] \
             orc = game:place('Orc Warrior', { x = maren.pos.x + 1.01, y = maren.pos.y }) \
             game:force_dice({ 6, 1 })",
        );
        assert!(!matches!(setup, Eval::Error(_)), "{setup:?}");
        let before = r.with_game(|g| g.log().len()).expect("a game");
        let e = match r.eval(&src) {
            Eval::Error(e) => e,
            other => panic!("{other:?}"),
        };
        (e, before == r.with_game(|g| g.log().len()).expect("a game"))
    })
}

#[test]
fn the_modifier_limit_is_stated() {
    let (e, same) = failing_melee("huge_modifier");
    assert!(
        e.contains("huge_modifier.lua: melee_modifier returned the number 1000000000"),
        "{e}"
    );
    assert!(e.contains("a whole number from -100 to 100"), "{e}");
    assert!(same);
}

#[test]
fn running_out_of_memory_names_the_script() {
    let (e, same) = failing_melee("oom");
    assert!(
        e.contains("half_applied/scripts/variants/oom.lua:3: not enough memory"),
        "{e}"
    );
    assert!(same);
}

#[test]
fn a_runaway_coroutine_is_stopped_at_its_line() {
    for src in [
        "local co = coroutine.wrap(function() while true do end end) co()",
        "local co = coroutine.create(function() while true do end end) coroutine.resume(co)",
    ] {
        let (e, goes_on) = crate::hook_error(src);
        assert!(
            matches!(e, village::script::ScriptError::Budget(_)),
            "{src}: {e:?}"
        );
        assert!(e.to_string().starts_with("evil.lua:1:"), "{src}: {e}");
        assert!(goes_on, "{src}");
    }
}
