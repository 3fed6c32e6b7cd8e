//! Ranged attacks (§3.5) through the kernel with forced dice: legality, the closest-target rule,
//! weapon bands, Cover, Aimed Shot, Concentrated Shooting, weapon breaks and harpoons.

mod common;
use common::{place, setup};

use village::geometry::{Polygon, Terrain, TerrainKind, TerrainShape, Vec2};
use village::rules::outcome::add_condition;
use village::rules::ranged::{concentrated, shoot, ShotOptions};
use village::rules::RuleError;
use village::state::{CombatResult, Condition, Role};

fn plain() -> ShotOptions {
    ShotOptions::default()
}

#[test]
fn the_marksman_example_recoils_because_the_die_is_odd() {
    // Core §3.5 (as settled by SUPPLEMENT §4): a C3 Marksman fires at a C2 enemy in Cover and rolls 5;
    // the target rolls 4 for 6. The shooter's die 5 is odd: the target Recoils. The target stands at two
    // Long measures, where the Longbow adds nothing (at one measure its +1 would spoil the arithmetic).
    // (Good Shot's +1 comes from its trait script; the kernel alone gives 3 + 5 − 1 = 7, still a win.)
    let (r, mut g) = setup();
    g.table.terrain.push(Terrain {
        kind: TerrainKind::Wood,
        shape: TerrainShape::Area(Polygon::new(vec![
            Vec2::new(16.0, 29.0),
            Vec2::new(18.0, 29.0),
            Vec2::new(18.0, 31.0),
            Vec2::new(16.0, 31.0),
        ])),
    });
    let tobin = place(&r, &mut g, "Tobin the Marksman", 5.0, 30.0);
    let goblin = place(&r, &mut g, "Goblin Looter", 17.0, 30.0);
    g.dice.force([5, 4]).unwrap();
    let rep = shoot(&mut g, &r, &common::Core, tobin, goblin, plain()).unwrap();
    assert!(rep
        .modifiers
        .iter()
        .any(|m| m.reason == "target in Cover" && m.value == -1));
    assert_eq!((rep.attacker_total, rep.defender_total), (7, 6));
    assert_eq!(rep.winner, Some(Role::Attacker));
    assert_eq!(rep.applied, CombatResult::Recoil);
    assert!(
        (g.model(goblin).unwrap().pos.x - 18.0).abs() < 1e-9,
        "recoiled one base width away"
    );
}

#[test]
fn illegal_shots_are_refused_with_a_reason_and_roll_nothing() {
    let (r, mut g) = setup();
    let grimm = place(&r, &mut g, "Grimm the Trapper", 2.0, 30.0);
    let far = place(&r, &mut g, "Orc Warrior", 20.0, 30.0);
    let e = shoot(&mut g, &r, &common::Core, grimm, far, plain()).unwrap_err();
    assert!(matches!(e, RuleError::OutOfRange { .. }), "{e}");
    let orc = place(&r, &mut g, "Orc Warrior", 3.0, 30.0);
    let e = shoot(&mut g, &r, &common::Core, grimm, orc, plain()).unwrap_err();
    assert!(matches!(e, RuleError::ShooterEngaged(_)), "{e}");
    let bram = place(&r, &mut g, "Bram the Smith", 2.0, 10.0);
    let brawler = place(&r, &mut g, "Orc Warrior", 3.0, 10.0);
    let e = shoot(&mut g, &r, &common::Core, grimm, brawler, plain()).unwrap_err();
    assert!(
        matches!(
            e,
            RuleError::ShooterEngaged(_) | RuleError::TargetEngaged(_)
        ),
        "{e}"
    );
    // Bram is no Shooter: the Shooter rule refuses him before any weapon is looked for.
    let e = shoot(&mut g, &r, &common::Core, bram, brawler, plain()).unwrap_err();
    assert!(matches!(e, RuleError::NotAllowed(_, _)), "{e}");
    assert!(e.to_string().contains("not a Shooter"), "{e}");
    let th = g.building("Town Hall").unwrap().rect;
    let tobin = place(
        &r,
        &mut g,
        "Tobin the Marksman",
        th.center().x,
        th.min.y - 2.0,
    );
    let hidden = place(&r, &mut g, "Orc Warrior", th.center().x, th.max.y + 2.0);
    let e = shoot(&mut g, &r, &common::Core, tobin, hidden, plain()).unwrap_err();
    assert!(matches!(e, RuleError::NoSight { .. }), "{e}");
    assert_eq!(g.dice.rolled(), 0);
}

#[test]
fn the_closest_target_must_be_shot_with_its_exceptions() {
    let (r, mut g) = setup();
    // A Village Archer (21 points): an Orc Warrior (26) is worth more than half of it.
    let tobin = place(&r, &mut g, "Village Archer", 2.0, 30.0);
    let near = place(&r, &mut g, "Orc Warrior", 4.0, 30.0);
    let far = place(&r, &mut g, "Orc Warrior", 6.0, 30.0);
    let e = shoot(&mut g, &r, &common::Core, tobin, far, plain()).unwrap_err();
    assert!(matches!(e, RuleError::NotClosest { .. }), "{e}");
    // A Big target may always be chosen.
    let ogre = place(&r, &mut g, "Ogre Brute", 7.0, 28.0);
    g.dice.force([1, 6, 6]).unwrap();
    assert!(shoot(&mut g, &r, &common::Core, tobin, ogre, plain()).is_ok());
    // A Defenseless closer enemy may be ignored.
    add_condition(&mut g, near, Condition::Defenseless).unwrap();
    g.dice.force([2, 6]).unwrap();
    assert!(shoot(&mut g, &r, &common::Core, tobin, far, plain()).is_ok());
    // An enemy worth less than half the shooter's cost (an Orc Warrior, 26 < 80 / 2) may be ignored.
    let (r2, mut g2) = setup();
    let t2 = place(&r2, &mut g2, "Tobin the Marksman", 2.0, 30.0);
    let _z = place(&r2, &mut g2, "Orc Warrior", 6.0, 30.0);
    let o2 = place(&r2, &mut g2, "Orc Warrior", 10.0, 30.0);
    g2.dice.force([2, 6]).unwrap();
    assert!(shoot(&mut g2, &r2, &common::Core, t2, o2, plain()).is_ok());
}

#[test]
fn longbow_bands_and_aimed_shot() {
    let (r, mut g) = setup();
    let tobin = place(&r, &mut g, "Tobin the Marksman", 2.0, 30.0);
    let target = place(&r, &mut g, "Orc Warrior", 24.0, 30.0);
    g.dice.force([6, 1]).unwrap();
    let rep = shoot(
        &mut g,
        &r,
        &common::Core,
        tobin,
        target,
        ShotOptions { aimed: true },
    )
    .unwrap();
    // 21" away: third Long measure (−2); Aimed Shot: target −1.
    let reasons: Vec<(String, i32)> = rep
        .modifiers
        .iter()
        .map(|m| (m.reason.clone(), m.value))
        .collect();
    assert!(
        reasons.contains(&("Longbow at 3 measures".into(), -2)),
        "{reasons:?}"
    );
    assert!(reasons.contains(&("Aimed Shot".into(), -1)), "{reasons:?}");
    assert_eq!((rep.attacker_total, rep.defender_total), (7, 3));
}

#[test]
fn concentrated_shooting_uses_the_best_shooter_and_penalises_the_target() {
    let (r, mut g) = setup();
    let a = place(&r, &mut g, "Village Archer", 2.0, 30.0);
    let b = place(&r, &mut g, "Village Archer", 2.0, 28.0);
    let t = place(&r, &mut g, "Tobin the Marksman", 2.0, 26.0);
    let target = place(&r, &mut g, "Orc Warrior", 6.0, 28.0);
    g.dice.force([3, 3]).unwrap();
    let rep = concentrated(&mut g, &r, &common::Core, &[a, b, t], target, plain()).unwrap();
    assert_eq!(rep.attacker, t, "Tobin (C3) is the best shooter");
    assert!(rep
        .modifiers
        .iter()
        .any(|m| m.value == -2 && m.reason.contains("Concentrated")));
    // An Activated model cannot join.
    g.model_mut(a).unwrap().active = false;
    let e = concentrated(&mut g, &r, &common::Core, &[a, b], target, plain()).unwrap_err();
    assert!(matches!(e, RuleError::CannotConcentrate(..)), "{e}");
}

#[test]
fn a_natural_one_may_break_the_weapon_and_javelins_go_at_once() {
    let (r, mut g) = setup();
    let archer = place(&r, &mut g, "Village Archer", 2.0, 30.0);
    let orc = place(&r, &mut g, "Orc Warrior", 6.0, 30.0);
    g.dice.force([1, 3, 2]).unwrap();
    shoot(&mut g, &r, &common::Core, archer, orc, plain()).unwrap();
    assert!(
        !g.model(archer).unwrap().weapon_broken,
        "second die 2: the bow holds"
    );
    g.dice.force([1, 3, 1]).unwrap();
    shoot(&mut g, &r, &common::Core, archer, orc, plain()).unwrap();
    assert!(g.model(archer).unwrap().weapon_broken);
    assert!(matches!(
        shoot(&mut g, &r, &common::Core, archer, orc, plain()),
        Err(RuleError::WeaponBroken(_))
    ));
    let kobold = place(&r, &mut g, "Kobold Skirmisher", 20.0, 10.0);
    let bram = place(&r, &mut g, "Bram the Smith", 22.0, 10.0);
    g.dice.force([1, 3]).unwrap();
    shoot(&mut g, &r, &common::Core, kobold, bram, plain()).unwrap();
    assert!(
        g.model(kobold).unwrap().weapon_broken,
        "Javelins are exhausted on a natural 1"
    );
}

#[test]
fn a_harpoon_hit_entangles() {
    let (r, mut g) = setup();
    let lizard = place(&r, &mut g, "Lizard Harpooner", 2.0, 30.0);
    let tobin = place(&r, &mut g, "Tobin the Marksman", 6.0, 30.0);
    g.dice.force([6, 1]).unwrap();
    let rep = shoot(&mut g, &r, &common::Core, lizard, tobin, plain()).unwrap();
    assert_eq!(rep.applied, CombatResult::Entangled);
    assert!(g.model(tobin).unwrap().has(Condition::Entangled));
}
