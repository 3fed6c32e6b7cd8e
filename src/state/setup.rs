//! Building a game's starting state from the rosters: the table (empty standard layout or generated),
//! the five buildings at Level I with their starting Integrity, and models from profiles.

use super::event::EventKind;
use super::game::Game;
use super::model::{Model, ModelId, Side};
use super::piece::Building;
use crate::geometry::{self, Table, TableSpec, Vec2};
use crate::roster::{Profile, Rosters};
use serde::{Deserialize, Serialize};

/// Refuse a party that names a hero twice or names an empty hero: each hero is one model and joins
/// once (a second Captain Maren would share her limited uses and fail mid-game on a "spent" one).
pub fn check_party(heroes: &[String]) -> Result<(), String> {
    for (i, name) in heroes.iter().enumerate() {
        if name.trim().is_empty() {
            return Err(format!(
                "hero {} of the party has an empty name (the party: {heroes:?})",
                i + 1
            ));
        }
        if heroes.iter().take(i).any(|h| h.trim() == name.trim()) {
            return Err(format!(
                "the party names {:?} twice: each hero joins the party once",
                name.trim()
            ));
        }
    }
    Ok(())
}

/// Which table a new game is played on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TableKind {
    /// The five buildings in the fixed standard layout, no terrain.
    Empty,
    /// Seeded terrain and building placement (core Ch. IV steps 3–4).
    #[default]
    Generated,
}

/// Building footprints with the Town Hall first, as the table builders expect.
fn footprints(r: &Rosters) -> Vec<(String, f64, f64)> {
    let mut v: Vec<(String, f64, f64)> = r
        .buildings
        .iter()
        .map(|b| (b.name.clone(), b.width, b.height))
        .collect();
    if let Some(i) = r.buildings.iter().position(|b| b.town_hall) {
        let th = v.remove(i);
        v.insert(0, th);
    }
    v
}

/// The generator's settings from the rules roster (core Ch. IV, SUPPLEMENT §1–2).
pub fn table_spec(r: &Rosters) -> TableSpec {
    TableSpec {
        width: r.rules.table.width,
        height: r.rules.table.height,
        buildings: footprints(r),
        town_hall_from_centre: r.rules.setup.town_hall_from_centre,
        cluster: r.rules.setup.buildings_from_town_hall,
        min_building_gap: r.rules.setup.building_min_gap,
        terrain_min: r.rules.table.terrain_min as usize,
        terrain_max: r.rules.table.terrain_max as usize,
        route_radius: r.rules.bases.normal / 2.0,
        ..TableSpec::default()
    }
}

/// The table seed is derived from the game seed so the table and the dice are independent streams.
pub fn table_seed(seed: u64) -> u64 {
    seed ^ 0x9E37_79B9_7F4A_7C15
}

/// The table of a new game.
pub fn make_table(r: &Rosters, seed: u64, kind: TableKind) -> Table {
    let spec = table_spec(r);
    match kind {
        TableKind::Empty => geometry::standard_layout(&spec.buildings, spec.width, spec.height),
        TableKind::Generated => geometry::generate(table_seed(seed), &spec),
    }
}

/// A new game at the start of setup: buildings at their starting Level with full Integrity, starting
/// Supplies, no models. Its log opens with the `setup` event (event 0): the table, the buildings, the
/// tokens and the Supplies, so that the log alone is the whole game.
pub fn new_game(r: &Rosters, seed: u64, kind: TableKind) -> Game {
    new_game_on(r, seed, make_table(r, seed, kind))
}

/// [`new_game`] on a table already made (a scenario's): its building sites get the rosters'
/// buildings.
pub fn new_game_on(r: &Rosters, seed: u64, table: Table) -> Game {
    let buildings = table
        .buildings
        .iter()
        .filter_map(|site| {
            let spec = r.building(&site.name)?;
            Some(Building {
                name: site.name.clone(),
                rect: site.rect,
                integrity: spec.integrity as i32,
                max_integrity: spec.integrity as i32,
                level: r.rules.setup.starting_level,
                destroyed: false,
                fire: false,
                fire_blessed: false,
                town_hall: spec.town_hall,
                economic: spec.economic,
            })
        })
        .collect();
    let mut game = Game::new(seed, table, buildings);
    game.supplies = r.rules.setup.starting_supplies as i32;
    let setup = EventKind::setup(&game.table, &game.buildings, &game.tokens, game.supplies);
    game.record(setup);
    game
}

/// A model for `profile` at `pos`, not yet on the table (its id is set by [`Game::add_model`]).
pub fn model_from_profile(profile: &Profile, r: &Rosters, pos: Vec2) -> Model {
    Model {
        id: ModelId(0),
        name: profile.name.clone(),
        kind: profile.kind,
        side: Side::of(profile.kind),
        tier: profile.tier,
        pos,
        base: profile.base_diameter(&r.rules),
        quality: profile.quality,
        profile_quality: profile.quality,
        combat: i32::from(profile.combat),
        traits: profile.traits.clone(),
        weapon: profile.weapon.clone(),
        spells: profile.spells.clone(),
        wounds: 0,
        conditions: Vec::new(),
        group: None,
        active: true,
        weapon_broken: false,
        task: None,
        out_of_power: false,
        transfixed_by: None,
        entangled_by: None,
        summoned_by: None,
        charged: false,
        moves: 0,
        moved: 0.0,
        attacks: 0,
        activations: 0,
        declared: false,
        casts: 0,
        actions_left: 0,
        wrecked: None,
        objective: None,
        turn_start: None,
        free_throw_from: None,
        behaviour: profile.behaviours.first().cloned(),
        items: Vec::new(),
        wave_traits: Vec::new(),
    }
}
