//! Game state: setup from the rosters, models from profiles, stale ids, and a serde round trip that
//! continues exactly.

use village::geometry::{circle_circle_gap, rect_rect_gap, Segment, Vec2};
use village::roster::Rosters;
use village::state::{self, Condition, Side, StateError, TableKind, TokenKind};

fn rosters() -> Rosters {
    Rosters::load(&[Rosters::builtin_root()]).expect("built-in rosters load")
}

#[test]
fn a_new_game_has_five_buildings_at_level_one_with_full_integrity_and_no_supplies() {
    let r = rosters();
    for kind in [TableKind::Empty, TableKind::Generated] {
        let g = state::new_game(&r, 7, kind);
        assert_eq!(g.buildings.len(), 5);
        for b in &g.buildings {
            let spec = r.building(&b.name).unwrap();
            assert_eq!(b.integrity, spec.integrity as i32, "{}", b.name);
            assert_eq!(b.max_integrity, b.integrity);
            assert_eq!(b.level, 1);
            assert!(!b.destroyed && !b.fire);
        }
        assert_eq!(g.building("Town Hall").unwrap().integrity, 8);
        assert_eq!(g.supplies, 0);
        assert!(g.models.is_empty());
        // Buildings at least 3" apart (core Ch. IV step 4).
        for (i, a) in g.buildings.iter().enumerate() {
            for b in &g.buildings[i + 1..] {
                assert!(
                    rect_rect_gap(&a.rect, &b.rect) >= 3.0 - 1e-9,
                    "{} / {}",
                    a.name,
                    b.name
                );
            }
        }
    }
    let empty = state::new_game(&r, 7, TableKind::Empty);
    assert!(empty.table.terrain.is_empty());
    let generated = state::new_game(&r, 7, TableKind::Generated);
    assert!((6..=10).contains(&generated.table.terrain.len()));
}

#[test]
fn the_table_and_the_dice_are_independent_streams_but_both_follow_the_seed() {
    let r = rosters();
    let a = state::new_game(&r, 11, TableKind::Generated);
    let b = state::new_game(&r, 11, TableKind::Generated);
    let c = state::new_game(&r, 12, TableKind::Generated);
    assert_eq!(
        serde_json::to_string(&a.table).unwrap(),
        serde_json::to_string(&b.table).unwrap()
    );
    assert_ne!(
        serde_json::to_string(&a.table).unwrap(),
        serde_json::to_string(&c.table).unwrap()
    );
    assert_ne!(state::table_seed(11), 11);
}

#[test]
fn models_take_their_values_from_the_profile() {
    let r = rosters();
    let mut g = state::new_game(&r, 1, TableKind::Empty);
    let orc = state::model_from_profile(r.profile("Orc Warrior").unwrap(), &r, Vec2::new(3.0, 3.0));
    let dragon =
        state::model_from_profile(r.profile("Young Dragon").unwrap(), &r, Vec2::new(30.0, 3.0));
    let maren = state::model_from_profile(
        r.profile("Captain Maren").unwrap(),
        &r,
        Vec2::new(3.0, 30.0),
    );
    let (o, d, m) = (g.add_model(orc), g.add_model(dragon), g.add_model(maren));
    assert!(o < d && d < m);
    let orc = g.model(o).unwrap();
    assert_eq!(
        (orc.quality, orc.combat, orc.base, orc.side),
        (4, 3, 1.0, Side::Enemies)
    );
    assert_eq!(g.model(d).unwrap().base, 2.0);
    let maren = g.model(m).unwrap();
    assert_eq!(maren.side, Side::Heroes);
    assert!(maren.has_trait("Hero") && maren.has_trait("Leader") && maren.has_trait("Tough"));
    assert_eq!(g.side(Side::Enemies).count(), 2);
    assert!(circle_circle_gap(&g.model(o).unwrap().circle(), &g.model(m).unwrap().circle()) > 20.0);
}

#[test]
fn a_removed_model_is_a_clear_error_and_ids_are_never_reused() {
    let r = rosters();
    let mut g = state::new_game(&r, 1, TableKind::Empty);
    let p = r.profile("Zombie").unwrap();
    let a = g.add_model(state::model_from_profile(p, &r, Vec2::new(2.0, 2.0)));
    g.remove_model(a, "defeated").unwrap();
    let err = g.model(a).unwrap_err();
    assert_eq!(err, StateError::NoModel(a));
    assert_eq!(
        err.to_string(),
        format!("model {a} is no longer on the table")
    );
    let b = g.add_model(state::model_from_profile(p, &r, Vec2::new(2.0, 2.0)));
    assert_ne!(a, b);
    assert!(g.building("Castle").is_err());
}

#[test]
fn conditions_stay_sorted_and_unique() {
    let r = rosters();
    let mut g = state::new_game(&r, 1, TableKind::Empty);
    let id = g.add_model(state::model_from_profile(
        r.profile("Orc Warrior").unwrap(),
        &r,
        Vec2::new(5.0, 5.0),
    ));
    let m = g.model_mut(id).unwrap();
    m.add_condition(Condition::Transfixed);
    m.add_condition(Condition::Defenseless);
    m.add_condition(Condition::Transfixed);
    assert_eq!(
        m.conditions,
        vec![Condition::Defenseless, Condition::Transfixed]
    );
    assert!(m.remove_condition(Condition::Defenseless));
    assert!(!m.remove_condition(Condition::Defenseless));
}

#[test]
fn a_saved_game_round_trips_and_continues_the_same_dice() {
    let r = rosters();
    let mut g = state::new_game(&r, 99, TableKind::Generated);
    g.add_model(state::model_from_profile(
        r.profile("Sir Roland").unwrap(),
        &r,
        Vec2::new(4.0, 4.0),
    ));
    g.add_token(
        TokenKind::Opportunity { revealed: false },
        Vec2::new(2.0, 30.0),
    );
    g.add_token(
        TokenKind::Barricade {
            segment: Segment {
                a: Vec2::new(10.0, 10.0),
                b: Vec2::new(13.0, 10.0),
            },
            integrity: 2,
            structure: 2,
            caster: None,
            flying_ignores: true,
        },
        Vec2::new(11.5, 10.0),
    );
    g.roll("activation", None, 3);
    g.dice.force([6]).unwrap();
    let saved = serde_json::to_string(&g).unwrap();
    let mut loaded: village::state::Game = serde_json::from_str(&saved).unwrap();
    assert_eq!(serde_json::to_string(&loaded).unwrap(), saved);
    let a = g.roll("morale", None, 3);
    let b = loaded.roll("morale", None, 3);
    assert_eq!(a, b);
    assert_eq!(a[0].face, 6);
    assert_eq!(
        serde_json::to_string(g.log()).unwrap(),
        serde_json::to_string(loaded.log()).unwrap()
    );
    // Every roll is an event.
    let rolls = g
        .log()
        .iter()
        .filter(|e| matches!(e.kind, village::state::EventKind::Roll { .. }))
        .count();
    assert_eq!(rolls, 2);
}

/// What `ctx:done_for_wave` records (a hook of a script for a model): noted once however often it is
/// said, told apart by model, script and entry point, rolled back with a checkpoint, and kept through
/// a save (serde) so a game continued from it skips the same hooks.
#[test]
fn a_hook_done_for_the_wave_is_noted_once_rolled_back_and_saved() {
    let r = rosters();
    let mut g = state::new_game(&r, 7, TableKind::Empty);
    let (m, script, entry) = (
        state::ModelId(3),
        "signatures/hold_the_line.lua",
        "on_opponent_activation",
    );
    let cp = g.checkpoint();
    g.set_done_for_wave(m, script, entry);
    g.set_done_for_wave(m, script, entry);
    assert_eq!(g.done_for_wave.len(), 1, "noted once");
    assert!(g.is_done_for_wave(m, script, entry));
    assert!(!g.is_done_for_wave(state::ModelId(4), script, entry));
    assert!(!g.is_done_for_wave(m, "alpha/hex.lua", entry));
    assert!(!g.is_done_for_wave(m, script, "on_result"));
    let saved = serde_json::to_string(&g).expect("a game serialises");
    let back: state::Game = serde_json::from_str(&saved).expect("and reads back");
    assert!(
        back.is_done_for_wave(m, script, entry),
        "kept through a save"
    );
    g.restore(cp);
    assert!(
        !g.is_done_for_wave(m, script, entry),
        "rolled back with the checkpoint"
    );
}

/// A playout's dice are keyed by what each roll is for (`Game::playout`, issue 41): two playouts on
/// one seed that spend dice differently first still roll the same faces for a later model's roll of
/// the same purpose in the same round, and the game's own stream is untouched by either.
#[test]
fn playouts_on_one_seed_roll_the_same_faces_for_the_same_roll_whatever_came_before() {
    use village::state::ModelId;
    let r = rosters();
    let mut g = state::new_game(&r, 5, TableKind::Empty);
    let faces = |dice: Vec<village::dice::Die>| dice.iter().map(|d| d.face).collect::<Vec<u8>>();
    let spending = g.playout(99, |g| {
        g.roll("shooting", Some(ModelId(1)), 3);
        faces(g.roll("activation", Some(ModelId(2)), 3))
    });
    let saving = g.playout(99, |g| faces(g.roll("activation", Some(ModelId(2)), 3)));
    assert_eq!(spending, saving);
    // Another model's roll of the same purpose is another position.
    let other = g.playout(99, |g| {
        (0..4)
            .flat_map(|_| faces(g.roll("activation", Some(ModelId(3)), 3)))
            .collect::<Vec<u8>>()
    });
    let again = g.playout(99, |g| {
        (0..4)
            .flat_map(|_| faces(g.roll("activation", Some(ModelId(2)), 3)))
            .collect::<Vec<u8>>()
    });
    assert_ne!(other, again);
    // The game's own stream: as a fresh game of the same seed rolls it.
    let mut fresh = state::new_game(&r, 5, TableKind::Empty);
    assert_eq!(
        faces(g.roll("activation", Some(ModelId(2)), 6)),
        faces(fresh.roll("activation", Some(ModelId(2)), 6))
    );
}
