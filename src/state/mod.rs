//! Game state as plain serde data: models, buildings, tokens, the event log, and the game that holds them.
//!
//! Owns the shape of the state and the small, rule-free operations on it (adding a model, finding a
//! building, rolling a logged die). It never decides anything: rules and scripts do.

pub mod battle;
mod decision;
pub mod describe;
mod event;
mod events_doc;
pub mod frames;
mod game;
mod model;
mod piece;
mod setup;
mod strings;
mod track;
mod vocab;

pub use battle::Battle;
pub use decision::{log_lines, Candidate, Decides, Decision, Decisions};
pub use event::{
    BattleObjectiveFacts, BattleZoneFacts, BuildingFacts, Event, EventKind, MoveKind, MoveStop,
    TerrainPiece, TokenFacts, TokenShape,
};
pub use events_doc::{events_markdown, REGENERATE as EVENTS_DOC_REGENERATE, UNDESCRIBED};
pub use frames::{Frame, FrameRecorder};
pub use game::{
    Checkpoint, CouncilGrant, Effect, EffectEnds, Game, PendingReward, StateError, Transaction,
    Underway, MAX_LOG_BYTES, SPENT_PREFIXES,
};
pub use model::{Condition, Item, Model, ModelId, Objective, Side, Task, WaveTrait};
pub use piece::{Blessing, Building, Token, TokenId, TokenKind};
pub use setup::{
    check_party, make_table, model_from_profile, new_game, new_game_on, table_seed, table_spec,
    TableKind,
};
pub use strings::for_each_str;
pub use track::TrackState;
pub use vocab::{
    CombatResult, Modifier, MoraleResult, MoraleTrigger, Role, RollInfo, RollKind, Target,
    ONE_BAND_LESS, TWO_ACTIONS,
};
