//! The structured event log: every roll and every result is an event (DESIGN.md invariant 5).

use super::model::ModelId;
use crate::geometry::Vec2;
use serde::{Deserialize, Serialize};

/// One entry of the log, numbered from 0 in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub seq: u64,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// A model was put on the table.
    Placed {
        model: ModelId,
        name: String,
        pos: Vec2,
    },
    /// A model left the table (Defeated, Fled, left by an edge).
    Removed { model: ModelId, reason: String },
    /// Dice were rolled. `purpose` names the rule ("activation", "melee", "morale", ...); `forced` marks
    /// faces taken from the forced queue.
    Roll {
        purpose: String,
        model: Option<ModelId>,
        dice: Vec<u8>,
        forced: Vec<bool>,
    },
}
