//! Nothing half-applied (issue 16, defect 5): a script that fails in the middle of a command or an
//! order leaves the game exactly as it was before the command, its log included, and the same command
//! given again meets the same failure (not the next Group, not a second roll).

use crate::{finishes, fixture};
use village::roster::Rosters;
use village::script::repl::{Eval, NewGame, Repl};
use village::script::Limits;

fn repl_with(variant: &str) -> Repl {
    let new = NewGame {
        seed: 1,
        length: "intro".into(),
        heroes: vec!["Captain Maren".into(), "Tobin the Marksman".into()],
        preset: village::roster::DEFAULT_PRESET.to_string(),
        scenario: village::scenario::DEFAULT_SCENARIO.to_string(),
        variants: vec![variant.into()],
        policy: "default".into(),
    };
    Repl::open(
        &[Rosters::builtin_root(), fixture("half_applied")],
        Limits::default(),
        &new,
    )
    .unwrap_or_else(|e| panic!("the session opens: {}", e.join("\n")))
}

/// The whole live game as JSON.
fn snapshot(r: &Repl) -> String {
    r.with_game(|g| serde_json::to_string(g).expect("a game serializes"))
        .expect("the game is readable")
}

#[test]
fn a_behaviour_turn_that_fails_keeps_no_roll_move_or_hack() {
    let (first, second, same, goes_on) = finishes(|| {
        let r = repl_with("enemy_activation_fails");
        let play = |cmd: &str| r.play(cmd, "").expect("a play command");
        play("wave").expect("the wave starts");
        play("heroes").expect("the heroes' turn is played");
        let before = snapshot(&r);
        let first = play("enemies").expect_err("the enemies' turn fails");
        let after = snapshot(&r);
        let second = play("enemies").expect_err("and fails the same way again");
        let goes_on = play("status").is_ok();
        (first, second, before == after, goes_on)
    });
    assert!(first.contains("enemy_activation_fails.lua:6:"), "{first}");
    assert!(first.contains("the enemy's activation fails"), "{first}");
    assert!(
        same,
        "the failed :enemies left its roll or moves in the game"
    );
    assert_eq!(first, second, "the second :enemies met another failure");
    assert!(goes_on);
}

/// The melee's dice are forced (6 against 1) so that it has a winner whatever the seed's dice: a tie
/// calls no `on_result`.
#[test]
fn a_melee_whose_on_result_fails_is_not_logged_as_defeated() {
    let (e, same, goes_on) = finishes(|| {
        let r = repl_with("result_fails");
        let setup = r.eval(
            "maren = game:models()[1] \
             orc = game:place('Orc Warrior', { x = maren.pos.x + 1.01, y = maren.pos.y }) \
             game:force_dice({ 6, 1 })",
        );
        assert!(!matches!(setup, Eval::Error(_)), "{setup:?}");
        let before = snapshot(&r);
        let e = match r.eval("return game:melee(maren, orc)") {
            Eval::Error(e) => e,
            other => panic!("the melee should fail, gave {other:?}"),
        };
        let same = before == snapshot(&r);
        let goes_on = matches!(r.eval("return 1 + 1"), Eval::Values(v) if v == ["2"]);
        (e, same, goes_on)
    });
    assert!(e.contains("result_fails.lua:5:"), "{e}");
    assert!(e.contains("on_result fails"), "{e}");
    assert!(same, "the failed melee stayed in the game or its log");
    assert!(goes_on);
}
