//! Waves: Escalation and budget (core §5.1), the default wave builder (core §5.2, SUPPLEMENT §5, §10) and
//! the default deployment (core §5.3).
//!
//! Owns turning an Escalation and a party into a [`WavePlan`] — which Enemy Groups, of which profiles,
//! with which Behaviour and spawn edge — using only the game's seeded dice, every die and every choice
//! logged (`builder`), and the default deployment of the start-of-wave sequence (§5.3 steps 2–3,
//! [`deploy`]): heroes around the Town Hall, each Group wholly within the deploy distance of its edge.
//! It never reads a number that the rosters hold (budgets, tiers, limits, group size, edges, deploy
//! distances all come from `rosters/`).
//!
//! The builder here is the default of SUPPLEMENT §10 ("chooses uniformly among eligible profiles with the
//! seeded dice"); an enabled variant's Lua `build_wave` replaces it, its Groups checked by
//! [`plan_from_script`]. The building abilities of the start-of-wave sequence (§5.3 steps 1–4) and the
//! Temple's Blessing before each enemy activation are [`abilities`].
//!
//! ```no_run
//! use village::roster::Rosters;
//! use village::state::{new_game, TableKind};
//! let rosters = Rosters::load(&[Rosters::builtin_root()]).unwrap();
//! let mut game = new_game(&rosters, 7, TableKind::Empty);
//! let plan = village::wave::build_wave(&mut game, &rosters, "VII", 2).unwrap();
//! assert!(plan.spent <= plan.budget);
//! ```

pub mod abilities;
pub mod act;
pub mod activation_plan;
pub mod battle;
mod builder;
pub mod council;
pub mod deploy;
pub mod morale;
pub mod objective;
pub mod opportunity;
pub mod play;
pub mod rollout;
pub mod targets;
pub mod turn;
pub mod universal;

pub use builder::{
    budget, build_wave, build_wave_of, check_party_size, escalation_for_wave, plan_from_script,
    GroupPlan, WavePlan, MAX_WAVE_MODELS,
};
pub use deploy::{
    deploy_enemies, deploy_enemy_groups, deploy_heroes, deploy_heroes_except, deploy_new_defenders,
    GroupDeployment,
};

use crate::state::ModelId;
use thiserror::Error;

/// Why a wave could not be built. Every bad input is one of these, never a panic.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WaveError {
    /// The game is already lost (SUPPLEMENT §10): no wave follows.
    #[error("the game is over: {0}")]
    GameOver(String),
    /// No `[[escalation]]` with this name.
    #[error("there is no Escalation {0:?} in the rosters")]
    UnknownEscalation(String),
    /// No `[[length]]` with this name.
    #[error("there is no game length {0:?} in the rosters")]
    UnknownLength(String),
    /// A wave number outside the length (waves count from 1).
    #[error("a {length} game has waves 1 to {waves}, not wave {wave}")]
    NoSuchWave {
        length: String,
        wave: u32,
        waves: usize,
    },
    /// The party size is outside `rules.wave.min_heroes..=max_heroes`.
    #[error("a party has {min} to {max} heroes, not {heroes}")]
    PartySize { heroes: u32, min: u32, max: u32 },
    /// An enemy profile whose Wave Points are not positive would let the builder buy models forever
    /// (`Profile::cost_problem`, which `village check` asks too: `problem` is its answer).
    #[error("enemy profile {name:?} {problem}")]
    BadCost {
        name: String,
        cost: i64,
        problem: String,
    },
    /// A rule constant the builder needs is unusable (e.g. `group_size_max = 0`).
    #[error("rules: {0}")]
    BadRule(String),
    /// The budget would buy more models than any wave should hold (a runaway `party_value_per_hero`).
    #[error("a budget of {budget} Wave Points buys more than {limit} models")]
    TooLarge { budget: i64, limit: i64 },
    /// A Group names a profile that is not an enemy in the rosters.
    #[error("the wave names {0:?}, which is not an enemy profile in the rosters")]
    UnknownProfile(String),
    /// A Group's spawn edge is not 1 to 4.
    #[error("Group {group} has spawn edge {edge}; edges are 1 (north) to 4 (west)")]
    BadEdge { group: u32, edge: u8 },
    /// No legal spots within the deploy distance of the edge hold the whole Group together.
    #[error(
        "Group {group} does not fit together anywhere within the deploy distance of edge {edge}"
    )]
    NoRoom { group: u32, edge: u8 },
    /// Heroes deploy around the Town Hall, and there is none.
    #[error("there is no Town Hall to deploy the heroes around")]
    NoTownHall,
    /// No legal spot near the Town Hall (or any building, with Watchtower III) for this model.
    #[error("no room to deploy {name} ({model}) within the deploy distance")]
    NoHeroRoom { model: ModelId, name: String },
    /// A Lua wave builder returned a wave the rules refuse; `script` is its file.
    #[error("{script}: {message}")]
    Builder { script: String, message: String },
    /// A script failed while the wave started (the wave builder, the hero policy's `deploy`); the message
    /// names its file and line.
    #[error("{0}")]
    Script(String),
}
