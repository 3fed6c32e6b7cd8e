//! Input the kernel should refuse (issue 16, defects 2 and 9): NaN, infinite and off-table points and
//! distances from a script, an order, the REPL or a save; an order naming two actions; a hero named
//! twice in the party; play commands given at the wrong time (`:wave` during a wave, turn orders before
//! any wave). Each case checks the clear error, that the process or session goes on, and that the game
//! is exactly as it was (nothing spent, moved, placed or logged).

use crate::{finishes, fixture};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use village::geometry::{straight_move, Circle, Table, Vec2};
use village::roster::Rosters;
use village::rules::hooks::{Aim, NoHooks, Order};
use village::rules::movement::{move_with, MoveOptions};
use village::rules::RuleError;
use village::script::repl::{Eval, NewGame, Repl};
use village::script::Limits;
use village::state::{self, ModelId, TableKind};

fn village() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_village"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Run the binary with `args` (and `input` on stdin); its exit code, stdout and stderr.
fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = village()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("village runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // A command refused at setup may exit before it reads its input: a closed pipe is no failure.
    if let Err(e) = stdin.write_all(input.as_bytes()) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing the input: {e}"
        );
    }
    drop(stdin);
    let out = child.wait_with_output().expect("village ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A REPL session on the built-in data: seed 1, Intro, Maren and Tobin.
fn repl() -> Repl {
    let new = NewGame {
        seed: 1,
        length: "intro".into(),
        heroes: vec!["Captain Maren".into(), "Tobin the Marksman".into()],
        preset: village::roster::DEFAULT_PRESET.to_string(),
        scenario: village::scenario::DEFAULT_SCENARIO.to_string(),
        variants: Vec::new(),
        policy: "default".into(),
    };
    Repl::open(&[Rosters::builtin_root()], Limits::default(), &new)
        .unwrap_or_else(|e| panic!("the session opens: {}", e.join("\n")))
}

/// The whole live game as JSON: equal before and after means nothing was changed, logged or spent.
fn snapshot(r: &Repl) -> String {
    r.with_game(|g| serde_json::to_string(g).expect("a game serializes"))
        .expect("the game is readable")
}

/// Evaluate `src`, which must fail; its message.
fn refused(r: &Repl, src: &str) -> String {
    match r.eval(src) {
        Eval::Error(e) => e,
        other => panic!("{src:?} should be refused, gave {other:?}"),
    }
}

#[test]
fn bad_points_and_distances_through_the_game_api_are_refused_and_change_nothing() {
    let r = repl();
    // A model and a target of our own on the (generated) table, away from the buildings.
    let setup = r.eval(
        "orc = game:place('Orc Warrior', { x = 2, y = 2 }) \
         tobin = game:models()[2]",
    );
    assert!(matches!(setup, Eval::Values(_)), "{setup:?}");
    // (what is given, what the error must say)
    let cases = [
        (
            "game:move(tobin, { x = math.huge, y = 3 })",
            "position = (inf, 3) is not a point on the table: x and y must be finite numbers",
        ),
        ("game:move(tobin, { x = 0/0, y = 3 })", "position = (NaN, 3)"),
        (
            "game:move(tobin, { 500, 3 })",
            "destination = (500, 3) is off the table: x must be 0 to 36, y 0 to 36 (inches)",
        ),
        (
            "game:move(tobin, { x = 10, y = 10 }, { distance = 0/0 })",
            "distance = NaN is not a distance: it must be a finite number of inches, 0 or more",
        ),
        (
            "game:move(tobin, { x = 10, y = 10 }, { distance = -1 })",
            "distance = -1 is not a distance",
        ),
        (
            "game:move(tobin, { x = 10, y = 10 }, { distance = math.huge })",
            "distance = inf is not a distance",
        ),
        (
            "game:move(tobin, { x = 10, y = 10 }, { distance = '3' })",
            "option `distance` must be a number of inches, got string",
        ),
        (
            "game:order(tobin, { melee = orc, shoot = orc })",
            "2 actions, melee and shoot (one action per order)",
        ),
        (
            "game:order(tobin, { move = { x = 10, y = 10 }, step = orc, leave = true })",
            "3 actions, leave, step and move (one action per order)",
        ),
        (
            "game:order(tobin, { move = { x = math.huge, y = 3 } })",
            "move = (inf, 3) is not a point on the table",
        ),
        (
            "game:order(tobin, { step = { x = -4, y = 3 } })",
            "step = (-4, 3) is off the table",
        ),
        (
            "game:order(tobin, { move = { x = 10, y = 10 }, within = -2 })",
            "within = -2 (expected inches, 0 or more)",
        ),
        (
            "game:order(tobin, { cast = 'Transfix', power = 1, at = { x = 0/0, y = 1 } })",
            "at.x = NaN (a position's x and y must be finite numbers)",
        ),
        (
            "game:orders(tobin, 2, { { move = { x = 1e300, y = 3 } } })",
            "move = (1e300, 3) is off the table",
        ),
        (
            // The second order is bad: the first is not taken either.
            "game:orders(tobin, 2, { { move = { x = 10, y = 10 } }, { move = { x = 3, y = 0/0 } } })",
            "move = (3, NaN) is not a point",
        ),
        (
            "game:place('Orc Warrior', { x = -5, y = 3 })",
            "position = (-5, 3) is off the table",
        ),
        (
            "game:trap({ x = 0/0, y = 1 })",
            "position = (NaN, 1) is not a point",
        ),
        (
            "game:trap({ x = 3, y = 40 })",
            "trap at = (3, 40) is off the table",
        ),
        (
            "game:barricade({ x = 1, y = 1 }, { x = 1e9, y = 1 })",
            "barricade to = (1e9, 1) is off the table",
        ),
        (
            "game:opportunity({ x = 3, y = -0.5 })",
            "opportunity at = (3, -0.5) is off the table",
        ),
        (
            "game:add_terrain('rocks', { { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 2, y = 1e300 } })",
            "terrain point = (2, 1e300) is off the table",
        ),
    ];
    let before = snapshot(&r);
    for (src, says) in cases {
        let e = refused(&r, src);
        assert!(e.contains(says), "{src}: {e}");
        // Located at the caller (the REPL's chunk, line 1), as Lua's own errors are.
        assert!(e.contains(":1: "), "{src}: {e}");
        assert!(snapshot(&r) == before, "{src} changed the game");
    }
    assert_eq!(cases.len(), 21);
    // The session goes on: a legal move after the refusals works.
    let ok = r.eval("return game:move(tobin, { x = 10, y = 10 }).travelled > 0");
    assert!(matches!(&ok, Eval::Values(v) if v == &["true"]), "{ok:?}");
}

#[test]
fn points_at_the_table_edge_are_still_accepted() {
    // The bounds are inclusive: an order may aim at the edge itself (a model stops at its base).
    let r = repl();
    let ok = r.eval("return game:move(game:models()[2], { x = 36, y = 0 }).travelled > 0");
    assert!(matches!(&ok, Eval::Values(v) if v == &["true"]), "{ok:?}");
}

#[test]
fn repl_points_are_refused_before_an_action_is_spent() {
    let r = repl();
    let play = |cmd: &str, arg: &str| r.play(cmd, arg).expect("a play command");
    play("wave", "").expect("the wave starts");
    play("activate", "Maren").expect("Maren activates");
    let left = play("status", "").expect("status");
    assert!(left.starts_with("Captain Maren (1) has "), "{left}");
    let before = snapshot(&r);
    let cases = [
        (
            "move",
            "inf 3",
            "X Y = (inf, 3) is not a point on the table: x and y must be finite numbers",
        ),
        ("move", "nan nan", "X Y = (NaN, NaN) is not a point"),
        (
            "move",
            "500 3",
            "X Y = (500, 3) is off the table: x must be 0 to 36, y 0 to 36 (inches)",
        ),
        ("move", "3 -inf", "X Y = (3, -inf) is not a point"),
        ("step", "-1 2", "X Y = (-1, 2) is off the table"),
        ("cast", "Thorn Wall 1 1 1 nan 4", "X2 Y2 = (NaN, 4)"),
        ("cast", "Summon 1 99 99", "X Y = (99, 99) is off the table"),
    ];
    for (cmd, arg, says) in cases {
        let e = play(cmd, arg).expect_err("refused");
        assert!(e.contains(says), ":{cmd} {arg}: {e}");
        assert!(snapshot(&r) == before, ":{cmd} {arg} changed the game");
        let status = play("status", "").expect("status");
        assert_eq!(status, left, ":{cmd} {arg} spent an action");
    }
    // The activation goes on: a legal move spends an action.
    let moved = play("move", "18 18").expect("a legal move");
    assert!(moved.contains("Captain Maren (1) moves"), "{moved}");
    assert_ne!(play("status", "").expect("status"), left);
}

#[test]
fn the_wave_commands_refuse_the_wrong_moment_and_change_nothing() {
    let r = repl();
    let play = |cmd: &str, arg: &str| r.play(cmd, arg).expect("a play command");
    let before = snapshot(&r);
    // Before any wave: every turn command is refused, naming what to do.
    for (cmd, arg) in [
        ("enemies", ""),
        ("activate", "Maren"),
        ("move", "3 3"),
        ("heroes", ""),
        ("done", ""),
        ("cast", "Maren"),
        ("endwave", ""),
    ] {
        let e = play(cmd, arg).expect_err("refused before a wave");
        assert_eq!(e, "no wave has started: use :wave", ":{cmd}");
        assert!(snapshot(&r) == before, ":{cmd} changed the game");
    }
    assert!(play("status", "").is_ok());
    // During a wave: a second :wave would stack its enemies on this one's.
    let started = play("wave", "").expect("the wave starts");
    assert!(started.contains("Wave 1"), "{started}");
    let during = snapshot(&r);
    let enemies = r
        .with_game(|g| g.side(state::Side::Enemies).count())
        .expect("game");
    let e = play("wave", "").expect_err("a second :wave");
    assert_eq!(
        e,
        format!(
            "wave 1 is in progress ({enemies} enemies on the table): play it out (:activate, \
             :heroes, :enemies), then :endwave, before the next :wave"
        )
    );
    assert!(snapshot(&r) == during, "the refused :wave changed the game");
    // The wave goes on from where it was.
    let act = play("activate", "Maren").expect("Maren activates");
    assert!(
        act.contains("has 1 action left.") || act.contains("actions left."),
        "{act}"
    );
}

#[test]
fn a_won_wave_waits_for_its_end_sequence_and_the_end_sequence_runs_once() {
    let r = repl();
    let play = |cmd: &str, arg: &str| r.play(cmd, arg).expect("a play command");
    play("wave", "").expect("the wave starts");
    // Win it at once: every enemy removed through the API.
    let gone = r.eval(
        "for _, m in ipairs(game:models()) do if m.side == 'enemies' then game:remove(m) end end",
    );
    assert!(matches!(gone, Eval::Values(_)), "{gone:?}");
    let won = play("heroes", "").expect("the heroes' turn");
    assert!(won.contains("the wave is won"), "{won}");
    let before = snapshot(&r);
    let e = play("wave", "").expect_err("no End Sequence yet");
    assert_eq!(
        e,
        "wave 1 is won but its End Sequence has not run: :endwave first"
    );
    assert!(snapshot(&r) == before);
    let ended = play("endwave", "").expect("the End Sequence");
    assert!(ended.contains("Council after wave 1"), "{ended}");
    let council = snapshot(&r);
    // The Council is open: turn commands and a second End Sequence are refused.
    for (cmd, says) in [
        ("enemies", "the Council is open"),
        ("activate", "the Council is open"),
        ("endwave", "the Council is open"),
    ] {
        let e = play(cmd, "Maren").expect_err("refused in the Council");
        assert!(e.contains(says), ":{cmd}: {e}");
        assert!(snapshot(&r) == council, ":{cmd} changed the game");
    }
    let next = play("wave", "").expect("the next wave");
    assert!(next.contains("Wave 2"), "{next}");
}

#[test]
fn council_points_off_the_table_are_refused_and_nothing_is_paid() {
    let r = repl();
    let before = snapshot(&r);
    let e = refused(&r, "return game:council({ { trap = { x = 0/0, y = 1 } } })");
    assert!(
        e.contains("trap.x = NaN (a position's x and y must be finite numbers)"),
        "{e}"
    );
    assert!(snapshot(&r) == before);
    // A count out of range names the value and the range (it said "Integer(4294967295) (expected a
    // whole number)").
    let e = refused(
        &r,
        "return game:council({ { repair = 'Forge', supplies = 4294967295 } })",
    );
    assert!(
        e.contains("order 1: supplies = 4294967295 (expected a whole number from 0 to 65535)"),
        "{e}"
    );
    let e = refused(
        &r,
        "return game:council({ { upgrade = 'Forge', level = 1e300 } })",
    );
    assert!(
        e.contains("level = 1e300 (expected a whole number from 0 to 65535)"),
        "{e}"
    );
    assert!(snapshot(&r) == before);
    // A finite point off the table is the order's refusal, logged, and the Supplies stay.
    let supplies = r.eval("return game.supplies");
    let out = r.eval(
        "local reps = game:council({ { trap = { x = 500, y = 1 } } }) return reps[1].refused",
    );
    assert!(
        matches!(&out, Eval::Values(v) if v.len() == 1 && v[0].contains("trap at = (500, 1) is off the table")),
        "{out:?}"
    );
    assert_eq!(r.eval("return game.supplies"), supplies);
}

#[test]
fn the_repl_survives_an_infinite_move_and_spends_nothing() {
    // Before issue 16 `:move inf 3` panicked in geometry and ended the session.
    let input = ":wave\n:activate Captain Maren\n:move inf 3\n:move nan nan\n:status\n:wave\nreturn 1 + 1\n";
    let (code, out, err) = finishes(move || {
        run(
            &[
                "repl",
                "--seed",
                "1",
                "--heroes",
                "Captain Maren,Tobin the Marksman",
            ],
            input,
        )
    });
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        out.contains("error: X Y = (inf, 3) is not a point on the table"),
        "{out}"
    );
    assert!(
        out.contains("error: X Y = (NaN, NaN) is not a point"),
        "{out}"
    );
    // `:status` says what the activation said before the refused moves: nothing was spent.
    let activated = out
        .split("> :move inf 3\n")
        .next()
        .and_then(|s| s.lines().last())
        .expect("the activation answered");
    assert!(activated.starts_with("Captain Maren (1) has "), "{out}");
    let status = out.split("> :status\n").nth(1).expect("status answered");
    assert!(status.starts_with(activated), "{status}");
    assert!(out.contains("error: wave 1 is in progress"), "{out}");
    // The session went on to the last line; errors make the exit status 1, never a panic's 101.
    assert!(out.contains("> return 1 + 1\n2"), "{out}");
    assert_eq!(code, Some(1), "{err}");
}

/// `village play --auto` on the Intro with `args` added; its exit code and stderr.
fn play_with(args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["play", "--auto", "--length", "intro", "--seed", "1"];
    all.extend_from_slice(args);
    let owned: Vec<String> = all.iter().map(|s| s.to_string()).collect();
    let (code, _, err) = finishes(move || {
        let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
        run(&refs, "")
    });
    (code, err)
}

#[test]
fn a_script_order_with_a_bad_point_is_that_scripts_error_not_a_panic() {
    let mods = fixture("bad_orders");
    let m = mods.to_string_lossy().into_owned();
    let cases = [
        ("inf", "inf.lua: act returned move = (inf, 3) is not a point on the table: x and y must be finite numbers"),
        ("nan", "nan.lua: act returned move = (NaN, NaN) is not a point on the table"),
        ("off", "off.lua: act returned move = (500, 3) is off the table: x must be 0 to 36, y 0 to 36 (inches)"),
        ("step_off", "step_off.lua: act returned step = (-1, 3) is off the table"),
        ("two_actions", "two_actions.lua: act returned 2 actions, melee and shoot (one action per order)"),
        ("within_nan", "within_nan.lua: act returned within = NaN (expected inches, 0 or more)"),
        ("cast_inf", "cast_inf.lua: act returned from.x = -inf (a position's x and y must be finite numbers)"),
        // A query measured to a NaN point: refused at the call (file:line), not measured as 0.
        ("distance_nan", "distance_nan.lua:5: distance_to = (NaN, NaN) is not a point on the table"),
    ];
    for (policy, says) in cases {
        let (code, err) = play_with(&["--mod", &m, "--policy", policy]);
        assert!(!err.contains("panicked"), "{policy}: {err}");
        assert!(err.contains(says), "{policy}: {err}");
        assert!(
            err.contains("bad_orders/scripts/policies/"),
            "{policy}: {err}"
        );
        assert_eq!(code, Some(1), "{policy}: {err}");
    }
    // The same game with the built-in policy plays to its end: only the bad orders were refused.
    let (code, err) = play_with(&["--mod", &m]);
    assert_eq!(code, Some(0), "{err}");
}

/// Every Behaviour of the fixtures aims at infinity; Intro seed 1's first wave is a Fanatic one.
#[test]
fn a_behaviour_aiming_at_an_infinite_point_is_its_error_not_a_panic() {
    for (folder, says) in [
        (
            "inf_behaviour",
            "scripts/behaviours/fanatic.lua: target returned a point = (inf, 3) is not a point on the table",
        ),
        (
            "inf_behaviour_act",
            "scripts/behaviours/fanatic.lua: act returned move = (inf, 3) is not a point on the table",
        ),
    ] {
        let m = fixture(folder).to_string_lossy().into_owned();
        let (code, err) = play_with(&["--mod", &m]);
        assert!(!err.contains("panicked"), "{folder}: {err}");
        assert!(err.contains(says), "{folder}: {err}");
        assert_eq!(code, Some(1), "{folder}: {err}");
    }
}

#[test]
fn a_hero_named_twice_is_refused_before_the_game_starts() {
    let says = "the party names \"Captain Maren\" twice: each hero joins the party once";
    for cmd in [
        vec!["play", "--auto", "--length", "intro"],
        vec!["sim", "--games", "2", "--length", "intro"],
        vec!["repl"],
    ] {
        let mut args = cmd.clone();
        args.extend(["--heroes", "Captain Maren,Tobin the Marksman,Captain Maren"]);
        let owned: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (code, out, err) = finishes(move || {
            let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
            run(&refs, "return 1\n")
        });
        assert!(err.contains(says), "{cmd:?}: {err}");
        assert!(!err.contains("panicked"), "{cmd:?}: {err}");
        // Refused at setup: no game was played, no wave began.
        assert!(!out.contains("Wave 1"), "{cmd:?}: {out}");
        assert_eq!(code, Some(1), "{cmd:?}");
    }
    // Through the API too, and no game is made.
    let r = repl();
    let e = refused(
        &r,
        "g2 = village.new_game({ heroes = { 'Sister Ilse', 'Sister Ilse' } })",
    );
    assert!(e.contains("the party names \"Sister Ilse\" twice"), "{e}");
    let e = refused(
        &r,
        "g2 = village.new_game({ heroes = { 'Sister Ilse', ' ' } })",
    );
    assert!(e.contains("hero 2 of the party has an empty name"), "{e}");
    assert!(matches!(r.eval("return g2 == nil"), Eval::Values(v) if v == ["true"]));
}

#[test]
fn a_save_with_a_model_off_the_table_is_refused_and_the_session_keeps_its_game() {
    let dir = std::env::temp_dir().join(format!("village-hostile-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = dir.join("good.json");
    let r = repl();
    r.save(&good).expect("saved");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&good).expect("read")).expect("json");
    doc["game"]["models"][0]["pos"]["x"] = serde_json::json!(1e300);
    let bad: PathBuf = dir.join("bad.json");
    std::fs::write(&bad, doc.to_string()).expect("written");
    let before = snapshot(&r);
    let e = r.load(&bad).expect_err("refused");
    assert!(
        e.contains("bad.json: not loaded: model 1 (Captain Maren) pos = (1e300, "),
        "{e}"
    );
    assert!(e.contains("is off the table"), "{e}");
    assert!(snapshot(&r) == before, "the live game was replaced");
    r.load(&good).expect("the good save still loads");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_kernel_refuses_bad_points_itself_and_geometry_never_panics() {
    let rosters = Rosters::load(&[Rosters::builtin_root()]).expect("rosters");
    let mut g = state::new_game(&rosters, 1, TableKind::Empty);
    let p = rosters.profile("Captain Maren").expect("Maren");
    let id: ModelId = g.add_model(state::model_from_profile(p, &rosters, Vec2::new(5.0, 5.0)));
    let before = serde_json::to_string(&g).expect("json");
    // Straight moves with NaN or infinite ends: an answer, not a panic (the clamp that panicked).
    let table = Table::empty(36.0, 36.0);
    let mover = Circle::new(Vec2::new(5.0, 5.0), 0.5);
    for dest in [
        Vec2::new(f64::NAN, 3.0),
        Vec2::new(f64::INFINITY, 3.0),
        Vec2::new(-f64::INFINITY, f64::NAN),
    ] {
        let _ = straight_move(&table, &mover, dest, &[], &[]);
    }
    // move_with: a non-finite destination or distance is an Input error, and nothing moved.
    for (dest, limit, says) in [
        (Vec2::new(f64::NAN, 3.0), None, "destination = (NaN, 3)"),
        (
            Vec2::new(9.0, 9.0),
            Some(f64::NAN),
            "distance = NaN is not a distance",
        ),
        (
            Vec2::new(9.0, 9.0),
            Some(-2.0),
            "distance = -2 is not a distance",
        ),
    ] {
        let o = MoveOptions {
            limit,
            ..MoveOptions::default()
        };
        let e = move_with(&mut g, &rosters.rules, &NoHooks, id, dest, o).expect_err("refused");
        assert!(matches!(e, RuleError::Input(_)), "{e:?}");
        assert!(e.to_string().contains(says), "{e}");
        assert!(serde_json::to_string(&g).expect("json") == before);
    }
    // An order with a bad point is refused before anything is spent, with the same error.
    for order in [
        Order::Move(Aim::Point(Vec2::new(f64::INFINITY, 3.0))),
        Order::Step(Aim::Point(Vec2::new(3.0, 99.0))),
        Order::Approach {
            aim: Aim::Point(Vec2::new(3.0, 3.0)),
            within: f64::NAN,
        },
    ] {
        let e = village::wave::act::execute(&mut g, &rosters, &NoHooks, id, order.clone())
            .expect_err("refused");
        assert!(matches!(e, RuleError::Input(_)), "{order:?}: {e:?}");
        assert!(
            serde_json::to_string(&g).expect("json") == before,
            "{order:?}"
        );
    }
    // The model still moves when asked properly.
    let ok = move_with(
        &mut g,
        &rosters.rules,
        &NoHooks,
        id,
        Vec2::new(9.0, 5.0),
        MoveOptions::default(),
    )
    .expect("a legal move");
    assert!(ok.travelled > 0.0);
}

#[test]
fn a_ready_mounts_move_off_the_table_is_refused_and_logged() {
    // Stable I's Ready Mounts (§5.3 step 4) to a point off the table: the choice is refused in the log,
    // the hero does not move, and the game plays on to its end.
    let m = fixture("bad_orders").to_string_lossy().into_owned();
    let log = std::env::temp_dir().join(format!(
        "village-hostile-ready-{}.jsonl",
        std::process::id()
    ));
    let l = log.to_string_lossy().into_owned();
    let (code, err) = play_with(&["--mod", &m, "--policy", "ready_off", "--log", &l]);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        text.contains(
            "\"choice\":\"ready_mounts = 1 to (500.00, 3.00)\",\"reason\":\"to = (500, 3) is off the \
             table: x must be 0 to 36, y 0 to 36 (inches)\""
        ),
        "{text}"
    );
    assert!(
        !text.contains("\"ability\":\"Ready Mounts\""),
        "a hero moved"
    );
    assert!(text.contains("\"event\":\"refused\""));
}
