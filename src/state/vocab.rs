//! The vocabulary the event log and the rules share: roll kinds, roles, targets, modifiers, results.

use super::model::ModelId;
use serde::{Deserialize, Serialize};

/// How a `moved` event's `stopped_by` words end a note that did not stop the move: difficult ground
/// crossed at one band less (core §3.3) …
pub const ONE_BAND_LESS: &str = ": one band less";
/// … or at two actions (a Short-move model).
pub const TWO_ACTIONS: &str = ": two actions";

/// What happens to the loser of a combat roll, or `Tie`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CombatResult {
    /// Equal totals: no effect.
    Tie,
    /// The loser moves one base width directly away (no room → Defenseless).
    Recoil,
    /// The loser falls: attacks against it are Lethal and at +2.
    Defenseless,
    /// The loser is Defeated.
    Defeated,
    /// The loser is Defeated and nearby friends test morale.
    Gruesome,
    /// A winner, but no effect (a Free Hack target's win, Heavy Armor's ignored push).
    None,
    /// Tough: a Wound and Quality +1 instead of Defeated (§3.8).
    Wound,
    /// The loser is Entangled instead of the result (a harpoon, Entangle).
    Entangled,
}

/// Which roll a modifier is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RollKind {
    /// A melee attack (§3.2).
    Melee,
    /// A shot (§3.5).
    Ranged,
    /// An attack on a building or a Barricade (§6.4).
    Structural,
}

impl RollKind {
    /// The name scripts see.
    pub fn as_str(self) -> &'static str {
        match self {
            RollKind::Melee => "melee",
            RollKind::Ranged => "ranged",
            RollKind::Structural => "structural",
        }
    }
}

/// Whose total a modifier changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The attacking model.
    Attacker,
    /// The model, building or Barricade attacked.
    Defender,
}

/// A model or a building on the receiving end of an attack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// A model, by id.
    Model(ModelId),
    /// A building, by name.
    Building(String),
    /// A token with Integrity (a Barricade).
    Token(super::piece::TokenId),
}

/// What a hook is told about a roll about to be made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RollInfo {
    pub kind: RollKind,
    pub attacker: ModelId,
    pub target: Target,
    pub power_blow: bool,
    pub aimed: bool,
    pub free_hack: bool,
}

/// One modifier to one total, with where it came from: `rules` for the rulebook's tables, or the path
/// of the script file that added it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Modifier {
    /// Whose total it changes.
    pub to: Role,
    /// What it adds (negative: takes away).
    pub value: i32,
    /// Why, in words ("charge", "Cover").
    pub reason: String,
    /// `rules`, or the script that added it.
    pub source: String,
}

impl Modifier {
    /// A modifier from the rulebook's tables.
    pub fn rule(to: Role, value: i32, reason: &str) -> Self {
        Modifier {
            to,
            value,
            reason: reason.to_string(),
            source: "rules".to_string(),
        }
    }
}

impl CombatResult {
    /// The name scripts and the log use.
    pub fn as_str(self) -> &'static str {
        match self {
            CombatResult::Tie => "tie",
            CombatResult::Recoil => "recoil",
            CombatResult::Defenseless => "defenseless",
            CombatResult::Defeated => "defeated",
            CombatResult::Gruesome => "gruesome",
            CombatResult::None => "none",
            CombatResult::Wound => "wound",
            CombatResult::Entangled => "entangled",
        }
    }
}

/// Why a model tests morale (§3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoraleTrigger {
    /// Charged by a model with Terror.
    Terror,
    /// A Gruesome Kill within Long.
    GruesomeKill,
    /// Its Leader was Defeated.
    LeaderDefeated,
    /// More than half of its side's starting models are gone.
    HalfLost,
}

impl MoraleTrigger {
    /// The name scripts see.
    pub fn as_str(self) -> &'static str {
        match self {
            MoraleTrigger::Terror => "terror",
            MoraleTrigger::GruesomeKill => "gruesome_kill",
            MoraleTrigger::LeaderDefeated => "leader_defeated",
            MoraleTrigger::HalfLost => "half_lost",
        }
    }
}

/// What a morale check did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoraleResult {
    /// No check: the model ignores this trigger (Fearless, an Enemy Group and a Leader's loss, ...).
    Immune,
    /// No failure.
    Steady,
    /// Fell back this many movement bands toward the nearest edge (after standing up if Defenseless).
    FellBack,
    /// Stood up instead of moving (Defenseless, one failure).
    StoodUp,
    /// Reached the table edge or failed three dice: removed.
    Fled,
    /// Undead with two or three failures, Transfixed, or Defenseless and Engaged: Defeated.
    Defeated,
}
