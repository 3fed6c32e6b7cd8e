//! The audit's checks, one family a file: movement, activation and actions, melee (Free Hacks and
//! condition modifiers), Integrity, the game's course, the closest target.

pub mod activation;
pub mod ending;
pub mod integrity;
pub mod melee;
pub mod movement;
pub mod targets;

use super::Check;

/// A fresh set of every check, for one game.
pub fn all() -> Vec<Box<dyn Check>> {
    vec![
        Box::new(movement::Movement::default()),
        Box::new(activation::Activations::default()),
        Box::new(melee::Melee::default()),
        Box::new(integrity::Integrity),
        Box::new(ending::Ending::default()),
        Box::new(targets::Targets::default()),
    ]
}
