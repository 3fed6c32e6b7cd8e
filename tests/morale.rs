//! Morale (§3.6) through the kernel with forced dice: results by failures, the special cases, fleeing
//! with Lethal Free Hacks, and the checks a Gruesome Kill triggers.

mod common;
use common::{place, setup};

use village::geometry::Vec2;
use village::rules::melee::{melee, MeleeOptions};
use village::rules::morale::morale_check;
use village::rules::outcome::add_condition;
use village::state::{Condition, EventKind, ModelId, MoraleResult, MoraleTrigger};

#[test]
fn no_failure_holds() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, "Orc Warrior", 10.0, 30.0);
    g.dice.force([4, 5, 6]).unwrap();
    let rep = morale_check(&mut g, &r.rules, &common::Core, orc, MoraleTrigger::Terror).unwrap();
    assert_eq!((rep.failures, rep.result), (0, MoraleResult::Steady));
    assert_eq!(g.model(orc).unwrap().pos, Vec2::new(10.0, 30.0));
}

#[test]
fn one_failure_falls_back_one_band_toward_the_nearest_edge() {
    let (r, mut g) = setup();
    let bram = place(&r, &mut g, "Bram the Smith", 10.0, 28.0);
    // Q3: 1 and 2 fail. One failure → one Medium band (6") toward the north edge (7.5" away).
    g.dice.force([2, 5, 6]).unwrap();
    let rep = morale_check(
        &mut g,
        &r.rules,
        &common::Core,
        bram,
        MoraleTrigger::GruesomeKill,
    )
    .unwrap();
    assert_eq!((rep.failures, rep.result), (1, MoraleResult::FellBack));
    let p = g.model(bram).unwrap().pos;
    assert!(
        (p.y - 34.0).abs() < 1e-6 && (p.x - 10.0).abs() < 1e-6,
        "{p:?}"
    );
    // From 5.5" away the same band reaches the edge: the model Flees.
    g.dice.force([2, 5, 6]).unwrap();
    let rep = morale_check(
        &mut g,
        &r.rules,
        &common::Core,
        bram,
        MoraleTrigger::GruesomeKill,
    )
    .unwrap();
    assert_eq!(rep.result, MoraleResult::Fled);
    assert!(g.model(bram).is_err());
    // Two failures from the middle of the table: two bands (12").
    let tobin = place(&r, &mut g, "Tobin the Marksman", 18.0, 14.0);
    g.dice.force([1, 2, 6]).unwrap();
    let rep = morale_check(
        &mut g,
        &r.rules,
        &common::Core,
        tobin,
        MoraleTrigger::GruesomeKill,
    )
    .unwrap();
    assert_eq!(rep.result, MoraleResult::FellBack);
    assert!((rep.moved - 12.0).abs() < 1e-6, "moved {}", rep.moved);
}

#[test]
fn reaching_the_edge_or_three_failures_flees() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, "Orc Warrior", 3.0, 18.0);
    g.dice.force([1, 4, 5]).unwrap();
    let rep = morale_check(&mut g, &r.rules, &common::Core, orc, MoraleTrigger::Terror).unwrap();
    assert_eq!(rep.result, MoraleResult::Fled);
    assert!(g.model(orc).is_err());
    let orc = place(&r, &mut g, "Orc Warrior", 18.0, 30.0);
    g.dice.force([1, 2, 3]).unwrap();
    let rep = morale_check(&mut g, &r.rules, &common::Core, orc, MoraleTrigger::Terror).unwrap();
    assert_eq!((rep.failures, rep.result), (3, MoraleResult::Fled));
    assert!(g.model(orc).is_err());
    let fled = g
        .log()
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Removed { reason, .. } if reason == "fled"))
        .count();
    assert_eq!(fled, 2);
}

#[test]
fn undead_crumble_on_two_failures() {
    let (r, mut g) = setup();
    let sk = place(&r, &mut g, "Skeleton Warrior", 18.0, 24.0);
    g.dice.force([1, 5, 6]).unwrap();
    let rep = morale_check(&mut g, &r.rules, &common::Core, sk, MoraleTrigger::HalfLost).unwrap();
    // An Enemy Group checks only Terror and Gruesome Kills.
    assert_eq!(rep.result, MoraleResult::Immune);
    let rep = morale_check(&mut g, &r.rules, &common::Core, sk, MoraleTrigger::Terror).unwrap();
    assert_eq!(
        rep.result,
        MoraleResult::FellBack,
        "one failure (1): falls back"
    );
    g.dice.force([1, 2, 6]).unwrap();
    let rep = morale_check(&mut g, &r.rules, &common::Core, sk, MoraleTrigger::Terror).unwrap();
    assert_eq!((rep.failures, rep.result), (2, MoraleResult::Defeated));
    assert!(g.model(sk).is_err());
}

#[test]
fn transfixed_or_defenseless_and_engaged_is_defeated_and_defenseless_alone_stands_up() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, "Orc Warrior", 18.0, 30.0);
    add_condition(&mut g, orc, Condition::Transfixed).unwrap();
    g.dice.force([1, 5, 6]).unwrap();
    let rep = morale_check(&mut g, &r.rules, &common::Core, orc, MoraleTrigger::Terror).unwrap();
    assert_eq!(rep.result, MoraleResult::Defeated);

    let tobin = place(&r, &mut g, "Tobin the Marksman", 10.0, 10.0);
    add_condition(&mut g, tobin, Condition::Defenseless).unwrap();
    g.dice.force([1, 5, 6]).unwrap();
    let rep = morale_check(
        &mut g,
        &r.rules,
        &common::Core,
        tobin,
        MoraleTrigger::Terror,
    )
    .unwrap();
    assert_eq!(rep.result, MoraleResult::StoodUp);
    let t = g.model(tobin).unwrap();
    assert!(!t.has(Condition::Defenseless));
    assert_eq!(t.pos, Vec2::new(10.0, 10.0));

    add_condition(&mut g, tobin, Condition::Defenseless).unwrap();
    let _orc = place(&r, &mut g, "Orc Warrior", 11.0, 10.0);
    g.dice.force([1, 5, 6]).unwrap();
    let rep = morale_check(
        &mut g,
        &r.rules,
        &common::Core,
        tobin,
        MoraleTrigger::Terror,
    )
    .unwrap();
    assert_eq!(rep.result, MoraleResult::Defeated);
    assert!(g.model(tobin).is_err());
}

#[test]
fn an_engaged_model_that_falls_back_takes_lethal_free_hacks() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, "Orc Warrior", 18.0, 30.0);
    let _maren = place(&r, &mut g, "Captain Maren", 19.0, 30.0);
    // Morale: one failure. Free Hack: Maren 2 + 4 = 6 beats the orc 3 + 1 = 4; Lethal → Defeated.
    g.dice.force([1, 5, 6, 2, 1]).unwrap();
    let rep = morale_check(&mut g, &r.rules, &common::Core, orc, MoraleTrigger::Terror).unwrap();
    assert_eq!(rep.result, MoraleResult::Defeated);
    assert!(g.model(orc).is_err());
    let lethal = g.log().iter().any(|e| {
        matches!(
            &e.kind,
            EventKind::Combat {
                lethal: Some(_),
                ..
            }
        )
    });
    assert!(lethal, "the Free Hack was Lethal");
}

#[test]
fn a_gruesome_kill_makes_friends_within_long_test() {
    let (r, mut g) = setup();
    let warlord = place(&r, &mut g, "Orc Warlord", 10.0, 10.0);
    let kobold = place(&r, &mut g, "Sister Ilse", 11.25, 10.0);
    let near = place(&r, &mut g, "Bram the Smith", 14.0, 10.0);
    let far = place(&r, &mut g, "Tobin the Marksman", 30.0, 30.0);
    // Warlord C5 rolls 6 → 11 (or more) against Ilse C2 rolling 1 → 3: triple → Gruesome Kill.
    g.dice.force([6, 1, 6, 6, 6]).unwrap();
    let rep = melee(
        &mut g,
        &r.rules,
        &common::Core,
        warlord,
        kobold,
        MeleeOptions::default(),
    )
    .unwrap();
    assert_eq!(
        rep.applied,
        village::state::CombatResult::Gruesome,
        "{rep:?}"
    );
    let checks: Vec<ModelId> = g
        .log()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Morale {
                model,
                trigger: MoraleTrigger::GruesomeKill,
                ..
            } => Some(*model),
            _ => None,
        })
        .collect();
    assert_eq!(checks, vec![near]);
    assert!(g.model(far).is_ok());
}
