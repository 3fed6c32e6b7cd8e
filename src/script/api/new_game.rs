//! Making a game: `village.new_game{...}` (and so every command's game), and what a game is made
//! with — its preset's rosters, the rule constants with the variants in force, the length and the
//! policy ([`Made`], [`made_with`]) — which a save loaded again ([`crate::script::repl`]) makes the
//! same way.

use super::convert::{check_options, fail};
use super::game::{Core, GameHandle, LiveGame};
use super::spec;
use crate::roster::{Rosters, Rules, DEFAULT_PRESET};
use crate::script::host::host;
use crate::state::{self, Game, TableKind};
use mlua::{Lua, LuaSerdeExt, Table, Value};
use std::rc::Rc;

/// What a game is made with besides its state: the rosters as its preset made them, the rule
/// constants in force, and the names that made them (kept by saves and shown by `g.variants`).
pub struct Made {
    pub rosters: Rc<Rosters>,
    /// The preset's rule constants with the variants' overrides applied.
    pub rules: Rules,
    pub preset: String,
    /// The scenario the game was made of (its table and buildings are the game's own).
    pub scenario: String,
    /// The variants in force: the preset's, then those asked for.
    pub variants: Vec<String>,
    pub length: String,
    pub policy: String,
}

/// What a game of `scenario` and `preset` with the variants in force `variants` (the preset's among
/// them) and its (length, policy) is made with: the rosters as the preset makes them, shared with
/// `rosters` when it changes none of them, and the rule constants with each variant's overrides.
/// Errors name the preset or the variant.
pub fn made_with(
    lua: &Lua,
    rosters: &Rc<Rosters>,
    preset: &str,
    variants: Vec<String>,
    (length, policy): (String, String),
    scenario: String,
) -> mlua::Result<Made> {
    let p = rosters
        .preset(preset)
        .ok_or_else(|| fail(lua, rosters.unknown_preset(preset)))?;
    let preset_rosters = if p.changes_rosters() {
        Rc::new(rosters.with_preset(preset).map_err(|e| fail(lua, e))?)
    } else {
        rosters.clone()
    };
    let rules = rules_with_variants(lua, &preset_rosters.rules, &variants)?;
    Ok(Made {
        rosters: preset_rosters,
        rules,
        preset: preset.to_string(),
        scenario,
        variants,
        length,
        policy,
    })
}

/// The rule constants with each variant's `rules` table applied in order, each checked as rules.toml is
/// (`script::variant_rules`). Errors name the variant file (with the line when found) and the key.
pub fn rules_with_variants(lua: &Lua, base: &Rules, variants: &[String]) -> mlua::Result<Rules> {
    let registry = host(lua)?.registry();
    let mut rules = base.clone();
    for name in variants {
        let module = registry.variant(name).ok_or_else(|| {
            let known = registry.of_kind("variants").map(|m| m.stem());
            fail(lua, crate::names::unknown("variant", name, known))
        })?;
        rules = crate::script::variant_rules::apply(lua, &rules, module)
            .map_err(|problems| mlua::Error::runtime(problems.join("\n")))?;
    }
    Ok(rules)
}

/// `village.new_game{ seed, length, heroes, table, preset, variants, policy, decisions }`.
pub fn new_game(lua: &Lua, opts: Option<Table>) -> mlua::Result<GameHandle> {
    check_options(lua, &opts, &spec::options("NewGameOptions"))?;
    let h = host(lua)?;
    let rosters = h.rosters()?;
    let get = |k: &str| -> mlua::Result<Value> {
        match &opts {
            Some(t) => t.raw_get::<Value>(k),
            None => Ok(Value::Nil),
        }
    };
    let seed = match get("seed")? {
        Value::Nil => h.default_seed.get(),
        Value::Integer(i) => i as u64,
        other => {
            return Err(fail(
                lua,
                format!("seed must be an integer, got {}", other.type_name()),
            ))
        }
    };
    let length = match get("length")? {
        Value::Nil => "standard".to_string(),
        Value::String(s) => s.to_string_lossy(),
        other => {
            return Err(fail(
                lua,
                format!("length must be a string, got {}", other.type_name()),
            ))
        }
    };
    if rosters.length(&length).is_none() {
        return Err(fail(lua, rosters.unknown_length(&length)));
    }
    let kind = match get("table")? {
        Value::Nil => TableKind::Generated,
        Value::String(s) if s.to_string_lossy() == "empty" => TableKind::Empty,
        Value::String(s) if s.to_string_lossy() == "generated" => TableKind::Generated,
        other => {
            return Err(fail(
                lua,
                format!("table must be \"empty\" or \"generated\", got {other:?}"),
            ))
        }
    };
    let heroes: Vec<String> = match get("heroes")? {
        Value::Nil => Vec::new(),
        v => lua
            .from_value(v)
            .map_err(|_| fail(lua, "heroes must be an array of hero names"))?,
    };
    let variants: Vec<String> = match get("variants")? {
        Value::Nil => Vec::new(),
        v => lua
            .from_value(v)
            .map_err(|_| fail(lua, "variants must be an array of names"))?,
    };
    let policy = match get("policy")? {
        Value::Nil => "default".to_string(),
        Value::String(s) => s.to_string_lossy(),
        other => {
            return Err(fail(
                lua,
                format!("policy must be a string, got {}", other.type_name()),
            ))
        }
    };
    let registry = host(lua)?.registry();
    if registry.get(&format!("policies/{policy}.lua")).is_none() {
        let known = registry.of_kind("policies").map(|m| m.stem());
        return Err(fail(lua, crate::names::unknown("policy", &policy, known)));
    }
    let decisions = match get("decisions")? {
        Value::Nil => true,
        Value::Boolean(b) => b,
        other => {
            return Err(fail(
                lua,
                format!("decisions must be true or false, got {}", other.type_name()),
            ))
        }
    };
    let preset = match get("preset")? {
        Value::Nil => DEFAULT_PRESET.to_string(),
        Value::String(s) => s.to_string_lossy(),
        other => {
            return Err(fail(
                lua,
                format!("preset must be a string, got {}", other.type_name()),
            ))
        }
    };
    let scenario = match get("scenario")? {
        Value::Nil => crate::scenario::DEFAULT_SCENARIO.to_string(),
        Value::String(s) => s.to_string_lossy(),
        other => {
            return Err(fail(
                lua,
                format!("scenario must be a string, got {}", other.type_name()),
            ))
        }
    };
    let layers: Vec<std::path::PathBuf> = h
        .roots
        .iter()
        .filter_map(|r| r.dir.parent().map(std::path::Path::to_path_buf))
        .collect();
    let scenario = crate::scenario::load(&layers, &rosters, &scenario).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        fail(lua, lines.join("\n"))
    })?;
    // The preset's variants come first, then those asked for: all of them are in force.
    let in_force = match rosters.preset(&preset) {
        Some(p) => p.variants.iter().cloned().chain(variants).collect(),
        None => return Err(fail(lua, rosters.unknown_preset(&preset))),
    };
    let made = made_with(
        lua,
        &rosters,
        &preset,
        in_force,
        (length, policy),
        scenario.scenario.name.clone(),
    )?;
    let live = LiveGame::take(lua)?;
    // Setup reads the rules in force too (a variant's or preset's starting Supplies, table, Levels).
    let merged = (made.rules != made.rosters.rules).then(|| Rosters {
        rules: made.rules.clone(),
        ..(*made.rosters).clone()
    });
    let setup = merged.as_ref().unwrap_or(&made.rosters);
    // The Integrity the scenario gives its buildings is theirs from the setup event on.
    let sc = &scenario.scenario;
    let own = (sc.integrity().next().is_some() || sc.supplies.is_some()).then(|| {
        let mut r = setup.clone();
        for (name, integrity) in sc.integrity() {
            if let Some(b) = r.buildings.iter_mut().find(|b| b.name == name) {
                b.integrity = integrity;
            }
        }
        if let Some(n) = sc.supplies {
            r.rules.setup.starting_supplies = n;
        }
        r
    });
    let setup = own.as_ref().unwrap_or(setup);
    let mut game = match (sc.table(setup), sc.table_seed) {
        (Some(table), _) => state::new_game_on(setup, seed, table),
        (None, Some(t)) => state::new_game_on(setup, seed, state::make_table(setup, t, kind)),
        (None, None) => state::new_game(setup, seed, kind),
    };
    if let Some(battle) = scenario.scenario.battle(setup) {
        set_battle(&mut game, battle);
    }
    let heroes = scenario.scenario.party(&heroes).map_err(|e| fail(lua, e))?;
    if decisions {
        game.explain_decisions();
    }
    if h.record_frames.take() {
        // The viewer draws the table from the setup on: the heroes come onto it at their deployment.
        game.record_frames();
    }
    put_tracks_in_play(lua, setup, &made, &mut game)?;
    place_party(
        lua,
        setup,
        &mut game,
        &heroes,
        scenario.scenario.defenders(),
    )?;
    let mut core = Core::new(game, made).map_err(|e| fail(lua, e))?;
    core.live = Some(live);
    if let Some(m) = merged {
        core.keep_merged(m);
    }
    Ok(GameHandle(Rc::new(core)))
}

/// Put in play each track the variants in force name (`tracks = { "threat" }`), once, on the space
/// the preset starts it on or else its own `start`, each logged as `track_set`. A name the rosters'
/// tracks.toml lacks is an error naming the variant's file.
fn put_tracks_in_play(
    lua: &Lua,
    rosters: &Rosters,
    made: &Made,
    game: &mut Game,
) -> mlua::Result<()> {
    let registry = host(lua)?.registry();
    let preset = rosters.preset(&made.preset);
    for v in &made.variants {
        let Some(module) = registry.variant(v) else {
            continue;
        };
        let names =
            crate::script::variant_rules::tracks(lua, rosters, module).map_err(|e| fail(lua, e))?;
        for name in names {
            let Some(track) = rosters.track(&name) else {
                continue; // checked just above
            };
            if game.tracks.contains_key(&name) {
                continue;
            }
            let start = preset
                .and_then(|p| p.tracks.get(&name).copied())
                .unwrap_or(track.start);
            game.set_track(
                &name,
                state::TrackState {
                    value: start,
                    min: track.min,
                    max: track.max,
                    loses_at: track.loses_at,
                },
            );
        }
    }
    Ok(())
}

/// Put the named heroes on the table, deployed around the Town Hall as at the start of a wave (§5.3,
/// `wave::deploy_heroes`); the turn engine deploys them again when a wave starts.
fn place_party(
    lua: &Lua,
    rosters: &Rosters,
    game: &mut Game,
    heroes: &[String],
    defenders: &[String],
) -> mlua::Result<()> {
    state::check_party(heroes).map_err(|e| fail(lua, e))?;
    let zone = game
        .battle
        .as_ref()
        .and_then(|b| b.zone_of(state::Side::Heroes))
        .map(|z| z.area.centroid());
    let Some(centre) = zone.or_else(|| {
        game.buildings
            .iter()
            .find(|b| b.town_hall)
            .map(|b| b.rect.center())
    }) else {
        return Ok(());
    };
    for name in heroes {
        let p = rosters
            .profile(name)
            .filter(|p| p.kind == crate::roster::ProfileKind::Hero)
            .ok_or_else(|| {
                // The exact name is needed here; the error names the closest heroes.
                let hint = match rosters.resolve_hero(name) {
                    Ok(h) => format!("{name:?} is not a hero's full name (did you mean {h:?}?)"),
                    Err(e) => e,
                };
                fail(lua, hint)
            })?;
        // Held anywhere for a moment, off the table: deployment places every hero on a legal spot
        // next, and its `placed` event is there (SUPPLEMENT §11).
        game.add_unplaced(state::model_from_profile(p, rosters, centre));
        game.party.push(name.clone());
    }
    // A scenario's Village Defenders fight beside the party from the start.
    for name in defenders {
        let p = rosters
            .profile(name)
            .filter(|p| p.kind == crate::roster::ProfileKind::Defender)
            .ok_or_else(|| fail(lua, format!("{name:?} is not a Village Defender profile")))?;
        game.add_unplaced(state::model_from_profile(p, rosters, centre));
    }
    crate::wave::deploy_heroes(game, rosters, false).map_err(|e| fail(lua, e))
}

/// Put a scenario's battle in the game, logged `battle_set` (what the pictures draw).
fn set_battle(game: &mut Game, battle: state::Battle) {
    game.record(state::EventKind::BattleSet {
        scenario: battle.scenario.clone(),
        round_limit: battle.round_limit,
        zones: battle
            .zones
            .iter()
            .map(|z| state::BattleZoneFacts {
                name: z.name.clone(),
                side: z.side,
                area: z.area.pts.clone(),
            })
            .collect(),
        objectives: battle
            .objectives
            .iter()
            .map(|o| state::BattleObjectiveFacts {
                name: o.name.clone(),
                at: o.at,
                area: o.area.as_ref().map(|a| a.pts.clone()),
                reach: o.reach,
                vp: o.vp,
                each_round: o.each_round,
            })
            .collect(),
        arriving: battle
            .arriving
            .iter()
            .filter(|a| a.round > 1)
            .map(|a| a.round)
            .collect(),
    });
    game.battle = Some(Box::new(battle));
}
