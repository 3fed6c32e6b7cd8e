//! Magic and conditions (§3.7) through the kernel with forced dice.

mod common;
use common::{place, setup};

use village::geometry::Vec2;
use village::rules::magic::{
    cast_roll, check_cast, heal, remove, spell_attack, transfix, wall, Heal,
};
use village::rules::movement::move_model;
use village::rules::outcome::add_condition;
use village::rules::RuleError;
use village::state::{Condition, Role, TokenKind};

#[test]
fn three_failed_dice_leave_a_caster_out_of_power_for_the_wave() {
    let (r, mut g) = setup();
    let ilse = place(&r, &mut g, "Sister Ilse", 5.0, 30.0);
    g.dice.force([1, 2, 2]).unwrap();
    let roll = cast_roll(&mut g, &r.rules, &common::Core, ilse, 3).unwrap();
    assert_eq!(roll.successes, 0);
    assert!(g.model(ilse).unwrap().out_of_power);
    let e = cast_roll(&mut g, &r.rules, &common::Core, ilse, 1).unwrap_err();
    assert!(e.to_string().contains("out of power"), "{e}");
    let bram = place(&r, &mut g, "Bram the Smith", 8.0, 30.0);
    assert!(cast_roll(&mut g, &r.rules, &common::Core, bram, 1)
        .unwrap_err()
        .to_string()
        .contains("knows no spell"));
}

#[test]
fn power_sets_the_range_and_engaged_casters_cannot_cast() {
    let (r, mut g) = setup();
    let ilse = place(&r, &mut g, "Sister Ilse", 5.0, 30.0);
    let orc = place(&r, &mut g, "Orc Warrior", 10.0, 30.0);
    // 4" apart edge to edge: Power 1 (Short, 3") is short; Power 2 (Medium, 6") reaches.
    assert!(check_cast(&g, &r.rules, ilse, "Transfix", 1, Some(orc)).is_err());
    assert!(check_cast(&g, &r.rules, ilse, "Transfix", 2, Some(orc)).is_ok());
    assert!(
        check_cast(&g, &r.rules, ilse, "Fireball", 2, Some(orc)).is_err(),
        "she does not know it"
    );
    let _brawler = place(&r, &mut g, "Orc Warrior", 5.0, 31.0);
    let e = check_cast(&g, &r.rules, ilse, "Transfix", 2, Some(orc)).unwrap_err();
    assert!(e.to_string().contains("Engaged"), "{e}");
}

#[test]
fn transfix_is_resisted_per_power_and_breaks_when_the_caster_falls() {
    let (r, mut g) = setup();
    let ilse = place(&r, &mut g, "Sister Ilse", 5.0, 30.0);
    let orc = place(&r, &mut g, "Orc Warrior", 10.0, 30.0);
    // Power 2: the orc rolls two Quality dice (4+): 5 and 6 pass.
    g.dice.force([5, 6]).unwrap();
    assert!(!transfix(&mut g, &r.rules, &common::Core, ilse, orc, 2).unwrap());
    // 5 and 3: one failure is enough.
    g.dice.force([5, 3]).unwrap();
    assert!(transfix(&mut g, &r.rules, &common::Core, ilse, orc, 2).unwrap());
    let o = g.model(orc).unwrap();
    assert!(o.has(Condition::Transfixed) && o.transfixed_by == Some(ilse));
    assert!(
        move_model(&mut g, &r.rules, orc, Vec2::new(20.0, 30.0), None).is_err(),
        "cannot move"
    );
    remove(&mut g, ilse, "defeated").unwrap();
    assert!(
        !g.model(orc).unwrap().has(Condition::Transfixed),
        "freed when the caster is Defeated"
    );
}

#[test]
fn fireball_is_a_ranged_attack_at_combat_equal_to_power() {
    let (r, mut g) = setup();
    let hedda = place(&r, &mut g, "Hedda the Hedge Witch", 5.0, 30.0);
    let orc = place(&r, &mut g, "Orc Warrior", 10.0, 30.0);
    g.dice.force([6, 2]).unwrap();
    let rep = spell_attack(&mut g, &r, &common::Core, hedda, "Fireball", orc, 2).unwrap();
    // 6 + Power 2 = 8 against 2 + 3 = 5: the orc is Defenseless (even die).
    assert_eq!((rep.attacker_total, rep.defender_total), (8, 5));
    assert_eq!(rep.winner, Some(Role::Attacker));
    // The target's roll is defensive: it cannot hurt the caster.
    g.dice.force([1, 6]).unwrap();
    let rep = spell_attack(&mut g, &r, &common::Core, hedda, "Fireball", orc, 2).unwrap();
    assert_eq!(rep.applied, village::state::CombatResult::None);
    assert!(g.model(hedda).is_ok());
}

#[test]
fn healing_clears_a_condition_or_a_wound_on_the_living_only() {
    let (r, mut g) = setup();
    let bram = place(&r, &mut g, "Bram the Smith", 5.0, 30.0);
    {
        let m = g.model_mut(bram).unwrap();
        m.wounds = 1;
        m.quality = 4;
    }
    heal(&mut g, &r.rules, bram, Heal::Wound).unwrap();
    let m = g.model(bram).unwrap();
    assert_eq!((m.wounds, m.quality), (0, 3));
    assert!(
        heal(&mut g, &r.rules, bram, Heal::Wound).is_err(),
        "no Wound left"
    );
    add_condition(&mut g, bram, Condition::Defenseless).unwrap();
    heal(
        &mut g,
        &r.rules,
        bram,
        Heal::Condition(Condition::Defenseless),
    )
    .unwrap();
    assert!(!g.model(bram).unwrap().has(Condition::Defenseless));
    let sk = place(&r, &mut g, "Skeleton Warrior", 20.0, 30.0);
    add_condition(&mut g, sk, Condition::Entangled).unwrap();
    let e = heal(&mut g, &r.rules, sk, Heal::Condition(Condition::Entangled)).unwrap_err();
    assert!(
        matches!(e, RuleError::Magic(ref m) if m.contains("not living")),
        "{e}"
    );
}

#[test]
fn a_thorn_wall_is_an_obstacle_until_its_caster_falls() {
    let (r, mut g) = setup();
    let hedda = place(&r, &mut g, "Hedda the Hedge Witch", 5.0, 30.0);
    let id = wall(
        &mut g,
        &r,
        hedda,
        "Thorn Wall",
        2,
        Vec2::new(8.0, 28.0),
        Vec2::new(8.0, 33.0),
    )
    .unwrap();
    let t = g.tokens.iter().find(|t| t.id == id).unwrap();
    assert!(
        matches!(t.kind, TokenKind::Barricade { integrity: 2, structure: 2, caster: Some(c), .. } if c == hedda)
    );
    let orc = place(&r, &mut g, "Orc Warrior", 12.0, 29.0);
    let rep = move_model(&mut g, &r.rules, orc, Vec2::new(2.0, 29.0), None).unwrap();
    assert!(
        (rep.travelled - 3.0).abs() < 1e-9,
        "crossing the wall costs a band: {rep:?}"
    );
    remove(&mut g, hedda, "defeated").unwrap();
    assert!(g.tokens.is_empty(), "the wall falls with its caster");
    let hedda2 = place(&r, &mut g, "Hedda the Hedge Witch", 30.0, 5.0);
    let far = wall(
        &mut g,
        &r,
        hedda2,
        "Thorn Wall",
        1,
        Vec2::new(20.0, 5.0),
        Vec2::new(20.0, 9.0),
    );
    assert!(far.is_err(), "out of Power 1 range");
}

#[test]
fn cast_primitives_check_the_spells_kind_and_power() {
    use village::rules::magic::{cast_transfix, dispel, Casting};
    let (r, mut g) = setup();
    let ilse = place(&r, &mut g, "Sister Ilse", 5.0, 30.0);
    let orc = place(&r, &mut g, "Orc Warrior", 10.0, 30.0);
    let heal = Casting {
        caster: ilse,
        spell: "Heal",
        power: 2,
    };
    let e = cast_transfix(&mut g, &r, &common::Core, heal, orc, 2).unwrap_err();
    assert!(
        e.to_string().contains("Heal is not of kind Resisted"),
        "{e}"
    );
    let tf = Casting {
        spell: "Transfix",
        ..heal
    };
    let e = cast_transfix(&mut g, &r, &common::Core, tf, orc, 3).unwrap_err();
    assert!(e.to_string().contains("cast at Power 2"), "{e}");
    g.dice.force([1, 6]).unwrap();
    assert!(cast_transfix(&mut g, &r, &common::Core, tf, orc, 2).unwrap());
    // Transfix is not an Enchantment: a dispel finds nothing (and Ilse knows no dispel anyway).
    let e = dispel(&mut g, &r, heal, orc).unwrap_err();
    assert!(e.to_string().contains("not of kind Dispel"), "{e}");
    assert!(g.model(orc).unwrap().has(Condition::Transfixed));
}

#[test]
fn a_ritual_is_a_task_and_a_summoning_vanishes_with_its_caster() {
    use village::roster::Measure;
    use village::rules::magic::{summon, work_ritual, Casting};
    let (r, mut g) = setup();
    let lich = place(&r, &mut g, "Lich", 5.0, 5.0);
    let t = work_ritual(&mut g, &r, lich, "Raise Dead", 1).unwrap();
    assert_eq!((t.done, t.needed), (1, 2));
    let t = work_ritual(&mut g, &r, lich, "Raise Dead", 1).unwrap();
    assert_eq!((t.done, t.needed), (2, 2));
    assert!(
        work_ritual(&mut g, &r, lich, "Transfix", 1).is_err(),
        "not a Ritual"
    );
    let c = Casting {
        caster: lich,
        spell: "Raise Dead",
        power: 1,
    };
    let far = summon(
        &mut g,
        &r,
        c,
        "Skeleton Warrior",
        Vec2::new(5.0, 12.0),
        Measure::Short,
    );
    assert!(far.is_err(), "beyond Short");
    let on_lich = summon(
        &mut g,
        &r,
        c,
        "Skeleton Warrior",
        Vec2::new(5.5, 5.0),
        Measure::Short,
    );
    assert!(on_lich.is_err(), "overlapping the Lich");
    let sk = summon(
        &mut g,
        &r,
        c,
        "Skeleton Warrior",
        Vec2::new(5.0, 7.5),
        Measure::Short,
    )
    .unwrap();
    let m = g.model(sk).unwrap();
    assert_eq!(m.summoned_by, Some(lich));
    assert_eq!(m.side, g.model(lich).unwrap().side);
    remove(&mut g, lich, "defeated").unwrap();
    assert!(g.model(sk).is_err(), "vanished with the Lich");
}
