//! Activation (§3.1): roll 1–3 dice against Quality; successes are actions; two failures a turnover.

use super::error::RuleError;
use crate::dice::ActivationRoll;
use crate::state::{EventKind, Game, ModelId};

/// The trait that makes one activation die an automatic success.
pub const HERO_TRAIT: &str = "Hero";

/// Roll an activation for `id` with `dice` dice and log the roll and its result.
pub fn activate(game: &mut Game, id: ModelId, dice: u8) -> Result<ActivationRoll, RuleError> {
    let m = game.model(id)?;
    let (quality, hero) = (m.quality, m.has_trait(HERO_TRAIT));
    if !(1..=3).contains(&dice) {
        return Err(crate::dice::DiceError::BadDiceCount(dice).into());
    }
    let faces: Vec<u8> = game
        .roll("activation", Some(id), usize::from(dice))
        .iter()
        .map(|d| d.face)
        .collect();
    let roll = ActivationRoll::evaluate(&faces, quality, hero);
    game.record(EventKind::Activation {
        model: id,
        dice: roll.dice.clone(),
        successes: roll.successes,
        failures: roll.failures,
        turnover: roll.turnover,
        hero_die: roll.hero_die,
    });
    Ok(roll)
}
