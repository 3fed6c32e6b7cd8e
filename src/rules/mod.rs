//! Rules of play as functions over the game state: activation, movement, melee, shooting and structural
//! attacks, and the combat results table. Scripts are reached only through the [`hooks::Hooks`] trait.
//!
//! Every roll goes through `Game::roll` (so it is logged) and every result is logged as an event.
//! An illegal order returns a [`RuleError`] before anything changes.

pub mod activation;
pub mod combat;
pub mod effects;
pub mod end;
pub mod error;
pub mod hooks;
pub mod magic;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod outcome;
pub mod query;
pub mod ranged;
pub mod structural;
pub mod village;
pub mod words;

pub use error::{HookError, RuleError};
pub use hooks::{Hooks, NoHooks};
