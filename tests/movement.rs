//! Movement (§3.3) through the kernel: bands, difficult terrain and obstacles, the one-base-width step,
//! leaving melee with Free Hacks, and the movement properties trait scripts provide.

mod common;
use common::{place, setup};

use village::geometry::{Polygon, Segment, Terrain, TerrainKind, TerrainShape, Vec2};
use village::roster::Rosters;
use village::rules::hooks::{Hooks, MoveTraits};
use village::rules::movement::{move_with, MoveOptions};
use village::rules::outcome::add_condition;
use village::rules::HookError;
use village::state::{Condition, Game, ModelId};

fn square(kind: TerrainKind, x0: f64, y0: f64, x1: f64, y1: f64) -> Terrain {
    Terrain {
        kind,
        shape: TerrainShape::Area(Polygon::new(vec![
            Vec2::new(x0, y0),
            Vec2::new(x1, y0),
            Vec2::new(x1, y1),
            Vec2::new(x0, y1),
        ])),
    }
}

fn mv(
    g: &mut Game,
    r: &Rosters,
    h: &dyn Hooks,
    id: ModelId,
    x: f64,
    y: f64,
) -> village::rules::movement::MoveReport {
    move_with(g, &r.rules, h, id, Vec2::new(x, y), MoveOptions::default()).unwrap()
}

#[test]
fn an_open_move_goes_the_full_band() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, "Orc Warrior", 2.0, 30.0);
    let rep = mv(&mut g, &r, &common::Core, orc, 20.0, 30.0);
    assert!((rep.travelled - 6.0).abs() < 1e-9);
    assert_eq!(rep.band_lost, None);
    let wolf = place(&r, &mut g, "Dire Wolf", 2.0, 33.0);
    assert!(
        (mv(&mut g, &r, &common::Core, wolf, 30.0, 33.0).travelled - 9.0).abs() < 1e-9,
        "Long Move"
    );
}

/// One move action covers at most its band (SUPPLEMENT §11): a longer `distance` asked for is cut to
/// it; a shorter one is honoured. A push (Ready Mounts) is not a move action and goes its limit.
#[test]
fn a_move_action_is_capped_at_its_band() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, "Orc Warrior", 2.0, 30.0);
    let limit = |l: f64, push: bool| MoveOptions {
        limit: Some(l),
        push,
        ..MoveOptions::default()
    };
    let east = |g: &mut Game, id, y, o| {
        move_with(g, &r.rules, &common::Core, id, Vec2::new(34.0, y), o).unwrap()
    };
    let rep = east(&mut g, orc, 30.0, limit(100.0, false));
    assert!(
        (rep.travelled - 6.0).abs() < 1e-9,
        "Medium, not 100\": {rep:?}"
    );
    let rep = east(&mut g, orc, 30.0, limit(2.5, false));
    assert!((rep.travelled - 2.5).abs() < 1e-9, "{rep:?}");
    let wolf = place(&r, &mut g, "Dire Wolf", 2.0, 20.0);
    let rep = east(&mut g, wolf, 20.0, limit(12.0, true));
    assert!(
        (rep.travelled - 12.0).abs() < 1e-9,
        "a push goes its limit: {rep:?}"
    );
}

#[test]
fn difficult_terrain_and_obstacles_cost_a_band() {
    let (r, mut g) = setup();
    g.table
        .terrain
        .push(square(TerrainKind::Wood, 5.0, 29.0, 7.0, 31.0));
    g.table.terrain.push(Terrain {
        kind: TerrainKind::Wall,
        shape: TerrainShape::Line(Segment::new(Vec2::new(5.0, 1.0), Vec2::new(5.0, 4.0))),
    });
    let orc = place(&r, &mut g, "Orc Warrior", 2.0, 30.0);
    let rep = mv(&mut g, &r, &common::Core, orc, 20.0, 30.0);
    assert!(
        (rep.travelled - 3.0).abs() < 1e-9,
        "Medium → Short through the wood: {rep:?}"
    );
    assert!(rep.band_lost.unwrap().contains("wood"));
    let wolf = place(&r, &mut g, "Dire Wolf", 2.0, 2.5);
    let rep = mv(&mut g, &r, &common::Core, wolf, 20.0, 2.5);
    assert!(
        (rep.travelled - 6.0).abs() < 1e-9,
        "Long → Medium over the wall"
    );
    assert!(rep.band_lost.unwrap().contains("wall"));
    // A Short-move model keeps its band but needs two actions.
    let slow = place(&r, &mut g, "Zombie", 2.0, 20.0);
    g.model_mut(slow).unwrap().traits.push("Short Move".into());
    g.table
        .terrain
        .push(square(TerrainKind::Field, 3.5, 19.0, 6.0, 21.0));
    let rep = mv(&mut g, &r, &common::Core, slow, 20.0, 20.0);
    assert_eq!(rep.actions, 2);
    assert!((rep.travelled - 3.0).abs() < 1e-9);
}

#[test]
fn a_step_is_one_base_width() {
    let (r, mut g) = setup();
    let ogre = place(&r, &mut g, "Ogre Brute", 10.0, 30.0);
    let o = MoveOptions {
        limit: None,
        step: true,
        push: false,
    };
    let rep = move_with(
        &mut g,
        &r.rules,
        &common::Core,
        ogre,
        Vec2::new(20.0, 30.0),
        o,
    )
    .unwrap();
    assert!((rep.travelled - 1.5).abs() < 1e-9, "a Big base steps 1.5\"");
}

#[test]
fn leaving_melee_draws_a_free_hack_unless_the_enemy_is_helpless() {
    let (r, mut g) = setup();
    let orc = place(&r, &mut g, "Orc Warrior", 10.0, 30.0);
    let tobin = place(&r, &mut g, "Tobin the Marksman", 11.0, 30.0);
    // The orc's Free Hack: 6 + 3 = 9 against Tobin's defensive 1 + 3 = 4: doubled → Tough → Wound.
    g.dice.force([6, 1]).unwrap();
    let rep = mv(&mut g, &r, &common::Core, tobin, 20.0, 30.0);
    assert_eq!(rep.free_hacks, vec![orc]);
    assert!(rep.survived);
    assert_eq!(g.model(tobin).unwrap().wounds, 1);
    assert!(rep.travelled > 5.9, "it completes its move");

    let orc2 = place(&r, &mut g, "Orc Warrior", 30.0, 10.0);
    let bram = place(&r, &mut g, "Bram the Smith", 31.0, 10.0);
    add_condition(&mut g, orc2, Condition::Defenseless).unwrap();
    let rolled = g.dice.rolled();
    let rep = mv(&mut g, &r, &common::Core, bram, 31.0, 2.0);
    assert!(rep.free_hacks.is_empty());
    assert_eq!(g.dice.rolled(), rolled, "no die rolled");
}

struct Traits(MoveTraits);
impl Hooks for Traits {
    fn movement_traits(
        &self,
        _: &Game,
        _: ModelId,
        _: &[ModelId],
    ) -> Result<MoveTraits, HookError> {
        Ok(self.0.clone())
    }
}

#[test]
fn movement_traits_from_scripts_apply() {
    let (r, mut g) = setup();
    g.table
        .terrain
        .push(square(TerrainKind::Wood, 5.0, 29.0, 7.0, 31.0));
    g.table
        .terrain
        .push(square(TerrainKind::Rocks, 5.0, 9.0, 7.0, 11.0));
    let a = place(&r, &mut g, "Orc Warrior", 2.0, 30.0);
    let forester = Traits(MoveTraits {
        ignore_terrain: vec!["wood".into()],
        ..MoveTraits::default()
    });
    assert!((mv(&mut g, &r, &forester, a, 20.0, 30.0).travelled - 6.0).abs() < 1e-9);
    let b = place(&r, &mut g, "Infernal Imp", 2.0, 10.0);
    let grounded = mv(&mut g, &r, &common::Core, b, 20.0, 10.0);
    assert!(
        grounded.travelled < 3.0,
        "rocks stop a walker: {grounded:?}"
    );
    let flier = Traits(MoveTraits {
        flying: true,
        ..MoveTraits::default()
    });
    let d = place(&r, &mut g, "Infernal Imp", 2.0, 12.0);
    g.table
        .terrain
        .push(square(TerrainKind::Rocks, 5.0, 11.5, 7.0, 12.5));
    let rep = mv(&mut g, &r, &flier, d, 20.0, 12.0);
    assert!(
        (rep.travelled - 6.0).abs() < 1e-9,
        "a flier passes over rocks: {rep:?}"
    );
    // Free Disengage: no hack.
    let e = place(&r, &mut g, "Sir Roland", 20.0, 20.0);
    let f = place(&r, &mut g, "Orc Warrior", 21.0, 20.0);
    let rider = Traits(MoveTraits {
        free_disengage: vec![f],
        ..MoveTraits::default()
    });
    let rolled = g.dice.rolled();
    let rep = mv(&mut g, &r, &rider, e, 10.0, 20.0);
    assert!(rep.free_hacks.is_empty() && g.dice.rolled() == rolled);
}

#[test]
fn a_flier_crosses_a_barricade_only_where_its_roster_says_fliers_ignore_it() {
    // §6.5: "Flying models ignore it" — the roster's `barricade.flying_ignores`, kept on each token.
    use village::state::TokenKind;
    let (r, mut g) = setup();
    let flier = Traits(MoveTraits {
        flying: true,
        ..MoveTraits::default()
    });
    for (flying_ignores, y, want) in [(true, 10.0, 6.0), (false, 20.0, 3.0)] {
        g.add_token(
            TokenKind::Barricade {
                segment: Segment::new(Vec2::new(5.0, y - 1.5), Vec2::new(5.0, y + 1.5)),
                integrity: 2,
                structure: 2,
                caster: None,
                flying_ignores,
            },
            Vec2::new(5.0, y),
        );
        let imp = place(&r, &mut g, "Infernal Imp", 2.0, y);
        let rep = mv(&mut g, &r, &flier, imp, 20.0, y);
        assert!(
            (rep.travelled - want).abs() < 1e-9,
            "flying_ignores = {flying_ignores}: {rep:?}"
        );
    }
    // The built-in roster says fliers ignore Barricades, and the Council's Barricades carry it.
    assert!(r.barricade.flying_ignores);
}

/// A route round a building is planned as its straight legs (SUPPLEMENT §11): `move_actions` counts one
/// move action per leg (more for a leg past the band), and a model ordered to move there, one action at
/// a time, takes exactly that many to reach base contact; the legs, straight past each bend, add up to
/// no less than the route that hugs the corners.
#[test]
fn the_move_actions_a_route_takes_are_the_actions_the_moves_take() {
    use village::rules::hooks::{Aim, Order};
    use village::wave::act::{execute, move_actions, route_to};
    let (r, mut g) = setup();
    let th = g.buildings[0].rect;
    let y = (th.min.y + th.max.y) / 2.0;
    let orc = place(&r, &mut g, "Orc Warrior", th.min.x - 1.0, y);
    let bram = place(&r, &mut g, "Bram the Smith", th.max.x + 1.0, y);
    let tol = r.rules.bases.contact_tolerance;
    let aim = Aim::Model(bram);
    let route = route_to(&g, orc, &aim, tol)
        .unwrap()
        .expect("a route round the Town Hall");
    let nav = g.navigator(0.5);
    let legs = village::geometry::legs(&nav, &route, &[], std::f64::consts::PI * 0.75);
    assert!(legs.len() >= 2, "the route bends: {legs:?}");
    // Straight past each bend to the corner point: a little longer than the route that hugs it.
    assert!(
        legs.iter().sum::<f64>() >= route.length - 1e-6,
        "{legs:?} vs {}",
        route.length
    );
    let planned = move_actions(&g, &r.rules, &common::Core, orc, &route, &aim).unwrap();
    assert!(planned >= 2, "{planned}");
    let mut taken = 0;
    while !village::rules::query::engaged_enemies(&g, &r.rules, orc).contains(&bram) {
        g.model_mut(orc).unwrap().moves = 0;
        execute(&mut g, &r, &common::Core, orc, Order::Move(aim.clone())).unwrap();
        taken += 1;
        assert!(taken <= 10, "it never gets there");
    }
    assert_eq!(
        taken, planned,
        "planned {planned} move actions, took {taken}"
    );
}
