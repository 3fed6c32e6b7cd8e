//! The kernel's named hook points, as a plain Rust trait the script host implements.
//!
//! The kernel asks; scripts answer with values (modifiers) that the kernel validates and applies. A
//! hook never receives `&mut Game`: scripts decide, Rust executes (DESIGN.md invariant 1).

use super::error::HookError;
use crate::state::{Game, ModelId, MoraleTrigger};
pub use crate::state::{Modifier, Role, RollInfo, RollKind, Target};
use serde::{Deserialize, Serialize};

/// How a model moves, as its traits say (Flying, Forester, Mounted's Free Disengage...).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MoveTraits {
    /// Flies over terrain: no band loss for difficult terrain or obstacles, impassable terrain and
    /// Barricades do not stop it.
    pub flying: bool,
    /// Terrain kinds that are not difficult for it ("wood" for a Forester).
    pub ignore_terrain: Vec<String>,
    /// Enemies it may leave without a Free Hack.
    pub free_disengage: Vec<ModelId>,
    /// Where each property came from, for the log.
    pub sources: Vec<String>,
}

/// The hook points the kernel calls. Every method has a default that does nothing, so a kernel without
/// scripts (unit tests, `village odds`) plays the plain rulebook.
pub trait Hooks {
    /// Extra modifiers for a melee, ranged or structural roll.
    fn roll_modifiers(&self, _game: &Game, _roll: &RollInfo) -> Result<Vec<Modifier>, HookError> {
        Ok(Vec::new())
    }

    /// Movement properties of a model about to move, given the enemies it is Engaged with.
    fn movement_traits(
        &self,
        _game: &Game,
        _model: ModelId,
        _engaged: &[ModelId],
    ) -> Result<MoveTraits, HookError> {
        Ok(MoveTraits::default())
    }

    /// Whether a model holds a named permission that bends a rule for it ("ignore_closest_target" for
    /// Tobin's Called Shot, ...): the source that grants it, if any.
    fn permission(
        &self,
        _game: &Game,
        _model: ModelId,
        _name: &str,
    ) -> Result<Option<String>, HookError> {
        Ok(None)
    }

    /// Why a model ignores a morale check of this trigger (Fearless, Artificial, Undead ...), if it
    /// does: the reason and the script that gave it.
    fn morale_immunity(
        &self,
        _game: &Game,
        _model: ModelId,
        _trigger: MoraleTrigger,
    ) -> Result<Option<(String, String)>, HookError> {
        Ok(None)
    }

    /// Modifiers added to each morale die (Steadfast). `to` is ignored: they apply to the model.
    fn morale_modifiers(
        &self,
        _game: &Game,
        _model: ModelId,
        _trigger: MoraleTrigger,
    ) -> Result<Vec<Modifier>, HookError> {
        Ok(Vec::new())
    }
}

/// No scripts: the plain rulebook.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHooks;

impl Hooks for NoHooks {}
