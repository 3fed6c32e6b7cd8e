//! Buildings, fire, Barricades and Traps (§6.4–6.5) through the kernel with forced dice.

mod common;
use common::{place, setup};

use village::geometry::{Segment, Vec2};
use village::roster::Rosters;
use village::rules::movement::move_model;
use village::rules::structural::{attack_barricade, ignite, structural};
use village::rules::RuleError;
use village::state::{CombatResult, EventKind, Game, ModelId, TokenKind};

/// A model of `name` touching the south wall of `building`.
fn beside(r: &Rosters, g: &mut Game, name: &str, building: &str) -> ModelId {
    let rect = g.building(building).unwrap().rect;
    let base = r.profile(name).unwrap().base_diameter(&r.rules);
    place(r, g, name, rect.center().x, rect.min.y - base / 2.0)
}

#[test]
fn the_orc_demolisher_example_costs_the_forge_one_integrity() {
    // Core §6.4: a C3 Orc Demolisher with Heavy Weapon (and Big: the bonus does not stack) rolls 4, for
    // 8; the Forge rolls 3, for 6 after Structure 3. The Forge loses 1 Integrity.
    let (r, mut g) = setup();
    let d = beside(&r, &mut g, "Orc Demolisher", "Forge");
    g.dice.force([4, 3]).unwrap();
    let rep = structural(&mut g, &r.rules, &common::Core, d, "Forge", false).unwrap();
    assert_eq!((rep.attacker_total, rep.building_total), (8, 6));
    assert_eq!(
        rep.modifiers.len(),
        1,
        "one +1, not stacked: {:?}",
        rep.modifiers
    );
    assert_eq!((rep.damage, rep.integrity, rep.destroyed), (1, 4, false));
    assert_eq!(g.building("Forge").unwrap().integrity, 4);
}

#[test]
fn ties_do_nothing_power_blows_do_two_and_zero_destroys() {
    let (r, mut g) = setup();
    let orc = beside(&r, &mut g, "Orc Warrior", "Stable");
    g.dice.force([3, 3]).unwrap();
    assert_eq!(
        structural(&mut g, &r.rules, &common::Core, orc, "Stable", false)
            .unwrap()
            .damage,
        0
    );
    ignite(&mut g, &r.rules, &common::Core, orc, "Stable").unwrap();
    assert!(g.building("Stable").unwrap().fire);
    assert!(matches!(
        ignite(&mut g, &r.rules, &common::Core, orc, "Stable"),
        Err(RuleError::AlreadyBurning(_))
    ));
    // Power Blow: the Stable's total takes −1; a win removes 2 Integrity.
    g.dice.force([6, 1]).unwrap();
    let rep = structural(&mut g, &r.rules, &common::Core, orc, "Stable", true).unwrap();
    assert_eq!((rep.damage, rep.integrity), (2, 2));
    g.dice.force([6, 1]).unwrap();
    let rep = structural(&mut g, &r.rules, &common::Core, orc, "Stable", true).unwrap();
    assert!(rep.destroyed);
    let stable = g.building("Stable").unwrap();
    assert!(
        stable.destroyed && !stable.fire && stable.integrity == 0,
        "destruction removes the fire"
    );
    assert!(matches!(
        structural(&mut g, &r.rules, &common::Core, orc, "Stable", false),
        Err(RuleError::BuildingDestroyed(_))
    ));
    assert!(matches!(
        ignite(&mut g, &r.rules, &common::Core, orc, "Stable"),
        Err(RuleError::BuildingDestroyed(_))
    ));
}

#[test]
fn a_structural_attack_needs_contact() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, "Orc Warrior", 2.0, 2.0);
    let e = structural(&mut g, &r.rules, &common::Core, orc, "Forge", false).unwrap_err();
    assert!(matches!(e, RuleError::NotInContact { .. }), "{e}");
    assert!(matches!(
        ignite(&mut g, &r.rules, &common::Core, orc, "Forge"),
        Err(RuleError::NotInContact { .. })
    ));
}

#[test]
fn barricades_use_their_own_structure_and_are_removed_at_zero() {
    let (r, mut g) = setup();
    let seg = Segment::new(Vec2::new(2.0, 10.0), Vec2::new(5.0, 10.0));
    let tok = g.add_token(
        TokenKind::Barricade {
            segment: seg,
            integrity: 2,
            structure: 2,
            caster: None,
            flying_ignores: true,
        },
        Vec2::new(3.5, 10.0),
    );
    let orc = place(&r, &mut g, "Orc Warrior", 3.5, 9.5);
    // 2 + 3 = 5 against 1 + 2 = 3: a win.
    g.dice.force([2, 1]).unwrap();
    let rep = attack_barricade(&mut g, &r.rules, &common::Core, orc, tok, false).unwrap();
    assert_eq!((rep.building_total, rep.damage, rep.integrity), (3, 1, 1));
    g.dice.force([2, 1]).unwrap();
    assert!(
        attack_barricade(&mut g, &r.rules, &common::Core, orc, tok, false)
            .unwrap()
            .destroyed
    );
    assert!(g.tokens.is_empty());
}

#[test]
fn a_trap_stops_the_first_enemy_entering_it_and_attacks() {
    let (r, mut g) = setup();
    let trap = g.add_token(
        TokenKind::Trap {
            combat: 3,
            radius: 2.0,
            entangle: false,
        },
        Vec2::new(10.0, 30.0),
    );
    // A hero walks through it: nothing happens.
    let hero = place(&r, &mut g, "Bram the Smith", 4.0, 32.0);
    move_model(&mut g, &r.rules, hero, Vec2::new(16.0, 32.0), None).unwrap();
    assert_eq!(g.tokens.len(), 1);
    // An orc walking east enters the area (centre within 2.5") at x = 7.5 and stops there.
    let orc = place(&r, &mut g, "Orc Warrior", 4.0, 30.0);
    // Trap 6 + 3 = 9 against the orc's 1 + 3 = 4: doubled → Defeated.
    g.dice.force([6, 1]).unwrap();
    let rep = move_model(&mut g, &r.rules, orc, Vec2::new(20.0, 30.0), None).unwrap();
    assert!((rep.to.x - 7.5).abs() < 1e-9, "{rep:?}");
    assert!(g.model(orc).is_err(), "the trap defeated it");
    assert!(g.tokens.is_empty(), "the trap is removed");
    assert!(g.log().iter().any(|e| matches!(&e.kind, EventKind::Trap { token, result: CombatResult::Defeated, .. } if *token == trap)));
    // A snare Entangles instead.
    g.add_token(
        TokenKind::Trap {
            combat: 3,
            radius: 2.0,
            entangle: true,
        },
        Vec2::new(10.0, 20.0),
    );
    let orc = place(&r, &mut g, "Orc Warrior", 4.0, 20.0);
    g.dice.force([4, 2]).unwrap();
    move_model(&mut g, &r.rules, orc, Vec2::new(20.0, 20.0), None).unwrap();
    assert!(g
        .model(orc)
        .unwrap()
        .has(village::state::Condition::Entangled));
}
