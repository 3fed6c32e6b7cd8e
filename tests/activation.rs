//! Activation (§3.1) through the kernel: single, group around a Leader, Enemy Groups, and Tasks.

mod common;
use common::{place, setup};

use village::geometry::Vec2;
use village::rules::activation::{activate, activate_group, work_task};
use village::rules::movement::move_model;
use village::rules::RuleError;
use village::state::{EventKind, ModelId};

#[test]
fn every_activation_is_logged_with_its_dice() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, "Orc Warrior", 5.0, 5.0);
    g.dice.force([6, 1, 3]).unwrap();
    let roll = activate(&mut g, &r.rules, &common::Core, orc, 3).unwrap();
    assert_eq!((roll.successes, roll.failures, roll.turnover), (1, 2, true));
    let last = &g.log()[g.log().len() - 1];
    assert!(matches!(&last.kind, EventKind::Activation { dice, .. } if dice == &vec![6, 1, 3]));
}

#[test]
fn a_group_rolls_once_with_its_worst_quality() {
    let (r, mut g) = setup();
    let maren = place(&r, &mut g, "Captain Maren", 10.0, 10.0);
    let archer = place(&r, &mut g, "Village Archer", 14.0, 10.0);
    let rider = place(&r, &mut g, "Village Rider", 10.0, 16.0);
    // Worst Quality is the Defenders' 4+: a 3 fails. Maren's Hero trait does not carry the group.
    g.dice.force([3, 4]).unwrap();
    let roll = activate_group(
        &mut g,
        &r.rules,
        &common::Core,
        Some(maren),
        &[archer, rider],
        2,
    )
    .unwrap();
    assert_eq!((roll.successes, roll.failures), (1, 1));
    assert!(g.log().iter().any(|e| matches!(&e.kind, EventKind::GroupActivation { quality: 4, members, .. } if members.len() == 3)));
}

#[test]
fn a_group_must_be_legal() {
    let (r, mut g) = setup();
    let maren = place(&r, &mut g, "Captain Maren", 10.0, 10.0);
    let bram = place(&r, &mut g, "Bram the Smith", 12.0, 10.0);
    let far = place(&r, &mut g, "Village Archer", 30.0, 30.0);
    let e = activate_group(&mut g, &r.rules, &common::Core, Some(maren), &[far], 2).unwrap_err();
    assert!(
        matches!(e, RuleError::BadGroup(ref m) if m.contains("apart")),
        "{e}"
    );
    let e = activate_group(&mut g, &r.rules, &common::Core, Some(bram), &[maren], 2).unwrap_err();
    assert!(
        matches!(e, RuleError::BadGroup(ref m) if m.contains("not a Leader")),
        "{e}"
    );
    let many: Vec<ModelId> = (0..5)
        .map(|i| place(&r, &mut g, "Village Archer", 8.0 + i as f64 * 1.1, 12.0))
        .collect();
    let e = activate_group(&mut g, &r.rules, &common::Core, Some(maren), &many, 2).unwrap_err();
    assert!(
        matches!(e, RuleError::BadGroup(ref m) if m.contains("1 to 5")),
        "{e}"
    );
    assert_eq!(g.dice.rolled(), 0);
    // An Enemy Group needs no Leader.
    let a = place(&r, &mut g, "Zombie", 25.0, 5.0);
    let b = place(&r, &mut g, "Zombie", 27.0, 5.0);
    assert!(activate_group(&mut g, &r.rules, &common::Core, None, &[a, b], 1).is_ok());
}

#[test]
fn task_actions_accumulate_across_turns_and_are_lost_when_the_model_leaves() {
    let (r, mut g) = setup();
    let bram = place(&r, &mut g, "Bram the Smith", 10.0, 30.0);
    let t = work_task(&mut g, bram, "break free", 2, 1).unwrap();
    assert_eq!((t.done, t.needed), (1, 2));
    assert!(g.model(bram).unwrap().task.is_some());
    let t = work_task(&mut g, bram, "break free", 2, 1).unwrap();
    assert_eq!(t.done, 2);
    assert!(g.model(bram).unwrap().task.is_none(), "complete");

    work_task(&mut g, bram, "field repairs", 2, 1).unwrap();
    move_model(&mut g, &r.rules, bram, Vec2::new(20.0, 30.0), None).unwrap();
    assert!(
        g.model(bram).unwrap().task.is_none(),
        "leaving loses the Task"
    );
    assert!(g
        .log()
        .iter()
        .any(|e| matches!(&e.kind, EventKind::TaskLost { task, .. } if task == "field repairs")));
    let t = work_task(&mut g, bram, "field repairs", 2, 1).unwrap();
    assert_eq!(t.done, 1, "started afresh");
}
