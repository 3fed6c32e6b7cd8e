//! Kernel tests without Lua: the permissions and the structural bonus that the core traits' scripts
//! (scripts/traits/hero.lua, tough.lua, leader.lua, igniter.lua, shooter.lua, spellcaster.lua, animal.lua,
//! long_move.lua, short_move.lua, slow.lua, big.lua, huge.lua, heavy_weapon.lua) grant, here granted by
//! trait name so kernel tests can exercise the core rules on their own.
#![allow(dead_code)]

use village::geometry::Vec2;
use village::roster::Measure;
use village::roster::Rosters;
use village::rules::hooks::{Hooks, Modifier, MoveTraits, Role, RollInfo, RollKind};
use village::rules::HookError;
use village::state::{self, Game, ModelId, TableKind};

/// The plain rulebook plus the core traits' effects.
pub struct Core;

impl Hooks for Core {
    fn permission(
        &self,
        game: &Game,
        model: ModelId,
        name: &str,
    ) -> Result<Option<String>, HookError> {
        let t = match name {
            "automatic_success" => "Hero",
            "tough" => "Tough",
            "lead" => "Leader",
            "ignite" => "Igniter",
            "shoot" => "Shooter",
            "cast" => "Spellcaster",
            "no_magic" => "Animal",
            "heal" => "Healer",
            _ => return Ok(None),
        };
        Ok(game
            .model(model)
            .ok()
            .filter(|m| m.has_trait(t))
            .map(|_| format!("trait {t}")))
    }

    fn movement_traits(
        &self,
        game: &Game,
        model: ModelId,
        _engaged: &[ModelId],
    ) -> Result<MoveTraits, HookError> {
        let Ok(m) = game.model(model) else {
            return Ok(MoveTraits::default());
        };
        Ok(MoveTraits {
            band: if m.has_trait("Long Move") {
                Some(Measure::Long)
            } else if m.has_trait("Short Move") {
                Some(Measure::Short)
            } else {
                None
            },
            one_move: m.has_trait("Slow"),
            ..MoveTraits::default()
        })
    }

    fn roll_modifiers(&self, game: &Game, roll: &RollInfo) -> Result<Vec<Modifier>, HookError> {
        if roll.kind != RollKind::Structural {
            return Ok(Vec::new());
        }
        let Ok(a) = game.model(roll.attacker) else {
            return Ok(Vec::new());
        };
        let sized = ["Big", "Huge", "Heavy Weapon"]
            .iter()
            .any(|t| a.has_trait(t));
        Ok(if sized {
            vec![Modifier::rule(Role::Attacker, 1, "size (structural)")]
        } else {
            Vec::new()
        })
    }
}

/// The built-in rosters and a new game on the empty table (seed 1).
pub fn setup() -> (Rosters, Game) {
    let r = Rosters::load(&[Rosters::builtin_root()]).unwrap();
    let g = state::new_game(&r, 1, TableKind::Empty);
    (r, g)
}

/// Put a model of profile `name` at (x, y).
pub fn place(r: &Rosters, g: &mut Game, name: &str, x: f64, y: f64) -> ModelId {
    g.add_model(state::model_from_profile(
        r.profile(name).unwrap(),
        r,
        Vec2::new(x, y),
    ))
}

/// The hooks through which the core traits act (`permission`, `movement_traits`, `roll_modifiers`),
/// answered as [`Core`] answers them: for a test's own `Hooks` that plays by the core rules.
#[macro_export]
macro_rules! core_traits {
    () => {
        fn permission(
            &self,
            g: &village::state::Game,
            m: village::state::ModelId,
            name: &str,
        ) -> Result<Option<String>, village::rules::HookError> {
            common::Core.permission(g, m, name)
        }
        fn movement_traits(
            &self,
            g: &village::state::Game,
            m: village::state::ModelId,
            e: &[village::state::ModelId],
        ) -> Result<village::rules::hooks::MoveTraits, village::rules::HookError> {
            common::Core.movement_traits(g, m, e)
        }
        fn roll_modifiers(
            &self,
            g: &village::state::Game,
            roll: &village::rules::hooks::RollInfo,
        ) -> Result<Vec<village::rules::hooks::Modifier>, village::rules::HookError> {
            common::Core.roll_modifiers(g, roll)
        }
    };
}
