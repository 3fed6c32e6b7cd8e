//! Why a rule refused an order: plain values with a one-line reason, never a panic.

use crate::dice::DiceError;
use crate::state::{ModelId, StateError};
use thiserror::Error;

/// An order the rules do not allow, or a failure inside a script hook. Nothing was applied.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RuleError {
    #[error(transparent)]
    State(#[from] StateError),
    #[error(transparent)]
    Dice(#[from] DiceError),
    #[error("{name} is not in contact with {other}: {gap:.2}\" apart")]
    NotInContact {
        id: ModelId,
        name: String,
        other: String,
        gap: f64,
    },
    #[error("{0} is on its own side")]
    SameSide(String),
    #[error("{0} has no ranged weapon")]
    NoWeapon(String),
    #[error("{0}'s ranged weapon is broken or exhausted")]
    WeaponBroken(String),
    #[error("{0} is Engaged and cannot shoot")]
    ShooterEngaged(String),
    #[error("{0} is Engaged with another model and cannot be shot at")]
    TargetEngaged(String),
    #[error("{shooter} cannot see {target}")]
    NoSight { shooter: String, target: String },
    #[error("{target} is out of range: {distance:.2}\" away, {weapon} reaches {range}\"")]
    OutOfRange {
        target: String,
        weapon: String,
        distance: f64,
        range: f64,
    },
    #[error("{shooter} must shoot the closest legal target: {closer} is closer than {target}")]
    NotClosest {
        shooter: String,
        target: String,
        closer: String,
    },
    #[error("{0} cannot {1}")]
    NotAllowed(String, &'static str),
    #[error("{0} cannot be shot at ({1})")]
    CannotBeShot(String, String),
    #[error("{0} cannot join the Concentrated Shooting: {1}")]
    CannotConcentrate(String, String),
    #[error("there is no Barricade or token {0}")]
    NoToken(u32),
    #[error("there is no Opportunity token {0} on the table")]
    NoOpportunity(u32),
    #[error("{0} carries no {1}")]
    NoItem(String, String),
    #[error("{0}")]
    Reward(String),
    #[error("the {0} is already burning")]
    AlreadyBurning(String),
    #[error("{0}")]
    Magic(String),
    #[error("not a legal group: {0}")]
    BadGroup(String),
    #[error("{0} is Destroyed")]
    BuildingDestroyed(String),
    #[error("{0} cannot move: it is {1}")]
    CannotMove(String, &'static str),
    /// The game is lost (the Town Hall, an Overrun): nothing more is played (SUPPLEMENT §10).
    #[error("the game is over: {0}")]
    GameOver(&'static str),
    /// A script's `can` refused its own action, with its reason.
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Hook(#[from] HookError),
    /// A point or distance that is NaN, infinite, negative or off the table: malformed input, refused
    /// before anything was spent (never a lost action).
    #[error(transparent)]
    Input(#[from] crate::geometry::InputError),
}

/// A script hook failed; the message names the script's file:line. The action is lost.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct HookError {
    pub message: String,
}
