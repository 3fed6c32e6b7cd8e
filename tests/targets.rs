//! A Behaviour's declared target choice (core §6.3) with the universal tie-breakers of §6.2, as the
//! kernel follows it (src/wave/targets.rs): the first step that finds something, the nearest edge to
//! edge, a Behaviour's own tie-breaker, then closest to the Town Hall, lowest Integrity, most Wounds,
//! lowest Combat, lowest Group number, and a D6 each while still tied. The Lua reading of the same
//! steps (`P.declared`) is held to it by tests/universal.rs.

mod common;
use common::*;

use village::roster::Rosters;
use village::rules::hooks::Aim;
use village::state::{EventKind, Game, ModelId};
use village::wave::targets::{choose, Chosen, Foes, Prefer, TargetStep};

const HERO: &str = "Captain Maren";
const ORC: &str = "Orc Warrior";
const ARCHER: &str = "Village Archer";

fn nearest_heroes(prefer: Option<Prefer>) -> Vec<TargetStep> {
    vec![TargetStep::Nearest {
        models: Some(Foes::Kind(village::roster::ProfileKind::Hero)),
        buildings: false,
        prefer,
    }]
}

/// The x of the Town Hall's centre: two models either side of it at the same height are equally far
/// from it.
fn hall_x(g: &Game) -> f64 {
    let th = g
        .buildings
        .iter()
        .find(|b| b.town_hall)
        .expect("a Town Hall");
    th.rect.center().x
}

fn target(g: &mut Game, me: ModelId, steps: &[TargetStep]) -> Chosen {
    choose(g, me, steps).expect("a choice")
}

#[test]
fn the_first_step_that_finds_something_gives_the_target() {
    let (r, mut g) = setup();
    let x = hall_x(&g);
    let orc = place(&r, &mut g, ORC, x, 3.0);
    // The Village Defender is nearer, but the first step asks for heroes.
    let _archer = place(&r, &mut g, ARCHER, x + 2.0, 3.0);
    let hero = place(&r, &mut g, HERO, x - 6.0, 3.0);
    let steps = vec![
        nearest_heroes(None).remove(0),
        TargetStep::Nearest {
            models: Some(Foes::Kind(village::roster::ProfileKind::Defender)),
            buildings: false,
            prefer: None,
        },
        TargetStep::TownHall,
    ];
    assert_eq!(
        target(&mut g, orc, &steps),
        Chosen::Target(Some(Aim::Model(hero)))
    );
    // No hero left: the next step, the Village Defender.
    g.remove_model(hero, "test").expect("on the table");
    let Chosen::Target(Some(Aim::Model(next))) = target(&mut g, orc, &steps) else {
        panic!("a model");
    };
    assert_eq!(g.model(next).expect("on the table").name, ARCHER);
    // Nobody left: the Town Hall while it stands, then nothing.
    g.remove_model(next, "test").expect("on the table");
    let th = g
        .buildings
        .iter()
        .find(|b| b.town_hall)
        .expect("a Town Hall")
        .name
        .clone();
    assert_eq!(
        target(&mut g, orc, &steps),
        Chosen::Target(Some(Aim::Building(th.clone())))
    );
    g.buildings
        .iter_mut()
        .find(|b| b.name == th)
        .expect("the Town Hall")
        .destroyed = true;
    assert_eq!(target(&mut g, orc, &steps), Chosen::Target(None));
    // A fallback step is the caller's to follow.
    assert_eq!(
        target(&mut g, orc, &[TargetStep::Fallback]),
        Chosen::Fallback
    );
}

/// An orc with two heroes as near it, either side, and as near the Town Hall: tied on the distance and
/// on the first tie-breaker. The orc, the left hero and the right one.
fn orc_between_two_heroes(r: &Rosters, g: &mut Game) -> (ModelId, ModelId, ModelId) {
    let x = hall_x(g);
    let orc = place(r, g, ORC, x, 3.0);
    let left = place(r, g, HERO, x - 4.0, 3.0);
    let right = place(r, g, HERO, x + 4.0, 3.0);
    (orc, left, right)
}

#[test]
fn a_behaviour_s_own_tie_breaker_comes_before_the_universal_ones() {
    let (r, mut g) = setup();
    let x = hall_x(&g);
    let (orc, left, right) = orc_between_two_heroes(&r, &mut g);
    g.model_mut(right).expect("on the table").wounds = 1;
    // Tied for nearest: the most Wounds (Hunter's own tie-breaker).
    assert_eq!(
        target(&mut g, orc, &nearest_heroes(Some(Prefer::MostWounds))),
        Chosen::Target(Some(Aim::Model(right)))
    );
    // Without it, the universal tie-breakers: most Wounds is one of them too.
    assert_eq!(
        target(&mut g, orc, &nearest_heroes(None)),
        Chosen::Target(Some(Aim::Model(right)))
    );
    // The lowest Combat comes after the Wounds: the hurt one still wins against a weaker one.
    g.model_mut(left).expect("on the table").combat -= 1;
    assert_eq!(
        target(&mut g, orc, &nearest_heroes(None)),
        Chosen::Target(Some(Aim::Model(right)))
    );
    // Closest to the Town Hall comes first of all: a third hero as near the orc, straight toward the
    // Town Hall from it, wins over the hurt one.
    let toward = place(&r, &mut g, HERO, x, 7.0);
    assert_eq!(
        target(&mut g, orc, &nearest_heroes(Some(Prefer::MostWounds))),
        Chosen::Target(Some(Aim::Model(right))),
        "the Behaviour's own tie-breaker still first"
    );
    assert_eq!(
        target(&mut g, orc, &nearest_heroes(None)),
        Chosen::Target(Some(Aim::Model(toward)))
    );
}

#[test]
fn candidates_tied_on_everything_roll_a_d6_each_until_one_is_highest() {
    let (r, mut g) = setup();
    let (orc, left, right) = orc_between_two_heroes(&r, &mut g);
    let before = g.log().len();
    let Chosen::Target(Some(Aim::Model(chosen))) = target(&mut g, orc, &nearest_heroes(None))
    else {
        panic!("a model");
    };
    // Replay the tie-breaker rolls the game logged: highest wins, rolled again while tied.
    let mut tied = vec![left, right];
    let mut rolls = 0;
    for e in &g.log()[before..] {
        if let EventKind::Roll { purpose, dice, .. } = &e.kind {
            assert_eq!(purpose, "tie-breaker");
            assert_eq!(dice.len(), tied.len(), "a die for each still tied");
            let top = *dice.iter().max().expect("dice");
            tied = tied
                .into_iter()
                .zip(dice)
                .filter(|(_, d)| **d == top)
                .map(|(m, _)| m)
                .collect();
            rolls += 1;
        }
    }
    assert!(rolls >= 1, "the tie was broken by dice");
    assert_eq!(tied, vec![chosen]);
}

#[test]
fn buildings_are_measured_to_their_footprint_and_the_lowest_integrity_is_preferred() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, ORC, 3.0, 3.0);
    let steps = vec![TargetStep::Nearest {
        models: Some(Foes::Any),
        buildings: true,
        prefer: Some(Prefer::LowestIntegrity),
    }];
    // The nearest building, edge to edge, with no model of the other side nearer.
    let gap = |g: &Game, i: usize| {
        let m = g.model(orc).expect("on the table");
        village::geometry::circle_rect_gap(&m.circle(), &g.buildings[i].rect).max(0.0)
    };
    let nearest = (0..g.buildings.len())
        .min_by(|a, b| gap(&g, *a).total_cmp(&gap(&g, *b)))
        .expect("buildings");
    let name = g.buildings[nearest].name.clone();
    assert_eq!(
        target(&mut g, orc, &steps),
        Chosen::Target(Some(Aim::Building(name.clone())))
    );
    // A Destroyed building is no candidate.
    g.buildings[nearest].destroyed = true;
    assert_ne!(
        target(&mut g, orc, &steps),
        Chosen::Target(Some(Aim::Building(name)))
    );
}

#[test]
fn a_ravager_s_own_tie_breaker_prefers_the_lowest_integrity() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, ORC, 4.0, 4.0);
    // Two buildings moved to stand as far from the orc, edge to edge, the rest left where they are
    // (farther); the second is the more damaged.
    let size = village::geometry::Vec2::new(2.0, 2.0);
    let spots = [
        village::geometry::Vec2::new(4.0, 9.0),
        village::geometry::Vec2::new(9.0, 4.0),
    ];
    let names: Vec<String> = g.buildings.iter().take(2).map(|b| b.name.clone()).collect();
    for (b, at) in g.buildings.iter_mut().zip(spots) {
        b.rect = village::geometry::Rect::new(at - size * 0.5, at + size * 0.5);
    }
    g.buildings[0].integrity = g.buildings[0].max_integrity;
    g.buildings[1].integrity = g.buildings[0].max_integrity - 1;
    let steps = vec![TargetStep::Nearest {
        models: None,
        buildings: true,
        prefer: Some(Prefer::LowestIntegrity),
    }];
    assert_eq!(
        target(&mut g, orc, &steps),
        Chosen::Target(Some(Aim::Building(names[1].clone())))
    );
    // Repaired, the other is the more damaged one.
    g.buildings[1].integrity = g.buildings[0].max_integrity;
    g.buildings[0].integrity -= 1;
    assert_eq!(
        target(&mut g, orc, &steps),
        Chosen::Target(Some(Aim::Building(names[0].clone())))
    );
}
