//! Models on the table: identity, side, profile values, Wounds and conditions.

use crate::geometry::{Circle, Vec2};
use crate::roster::{ProfileKind, Tier};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A model's identity for the whole game; never reused, so a stale handle can be detected.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct ModelId(pub u32);

impl fmt::Display for ModelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The two sides of the table. Village Defenders fight on the heroes' side.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The heroes and the Village Defenders.
    Heroes,
    /// The Enemy Groups.
    Enemies,
}

impl Side {
    /// The side a kind of profile fights on: heroes and Village Defenders are on the heroes' side.
    pub fn of(kind: ProfileKind) -> Side {
        match kind {
            ProfileKind::Hero | ProfileKind::Defender => Side::Heroes,
            ProfileKind::Enemy => Side::Enemies,
        }
    }

    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Heroes => Side::Enemies,
            Side::Enemies => Side::Heroes,
        }
    }

    /// The name scripts and JSON use: "heroes" or "enemies".
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Heroes => "heroes",
            Side::Enemies => "enemies",
        }
    }
}

/// A condition (§3.7) lasts until something removes it. Wounds are not conditions.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Fallen: attacks against it are Lethal.
    Defenseless,
    /// Held by a spell (§3.7).
    Transfixed,
    /// Held by a net, a harpoon or a snare (Entangle).
    Entangled,
}

impl Condition {
    /// The name scripts see.
    pub fn as_str(self) -> &'static str {
        match self {
            Condition::Defenseless => "defenseless",
            Condition::Transfixed => "transfixed",
            Condition::Entangled => "entangled",
        }
    }
}

/// A model on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    pub id: ModelId,
    /// The profile's name ("Orc Warrior").
    pub name: String,
    pub kind: ProfileKind,
    pub side: Side,
    pub tier: Tier,
    /// Centre of the base.
    pub pos: Vec2,
    /// Base diameter in inches.
    pub base: f64,
    /// Current Quality, worsened by Wounds and Poison.
    pub quality: u8,
    /// Quality printed on the profile.
    pub profile_quality: u8,
    pub combat: i32,
    pub traits: Vec<String>,
    pub weapon: Option<String>,
    pub spells: Vec<String>,
    pub wounds: u8,
    /// Kept sorted, without duplicates.
    pub conditions: Vec<Condition>,
    /// Enemy Group number, in order of creation.
    pub group: Option<u32>,
    /// Active this turn (§3.1).
    pub active: bool,
    /// Its ranged weapon broke or ran out (§3.5); no further ranged attacks this game.
    #[serde(default)]
    pub weapon_broken: bool,
    /// A Task in progress (§3.1): actions accumulate across turns until it completes or is lost.
    #[serde(default)]
    pub task: Option<Task>,
    /// A Spell-caster that failed three dice: no more spells this wave (§3.7).
    #[serde(default)]
    pub out_of_power: bool,
    /// The caster holding it Transfixed: the spell breaks if that caster is Defeated (§3.7).
    #[serde(default)]
    pub transfixed_by: Option<ModelId>,
    /// The model that Entangled it (Entangle trait): ends if that model Recoils or is Defeated.
    #[serde(default)]
    pub entangled_by: Option<ModelId>,
    /// The caster that summoned it: it vanishes if that caster is Defeated (§3.7).
    #[serde(default)]
    pub summoned_by: Option<ModelId>,
    /// It moved into contact with an enemy in its current activation (Dashing, Ride Down); cleared when
    /// the activation ends (SUPPLEMENT §11: such a bonus never reaches an attack outside it).
    #[serde(default)]
    pub charged: bool,
    /// Move actions taken in its current activation (Slow allows one).
    #[serde(default)]
    pub moves: u8,
    /// Inches moved in its current activation (Sir Roland's Ride Down needs a Medium move into contact).
    #[serde(default)]
    pub moved: f64,
    /// Melee and ranged attacks made this turn (core §3.2: one per turn, however often it is nominated);
    /// the turn engine counts them and clears them when its side's turn begins.
    #[serde(default)]
    pub attacks: u8,
    /// Where its last move action began, while a throw is still free (§3.5: "after moving closer to a
    /// target, one [Javelin] may be thrown for free"): set by a move with a weapon that allows it,
    /// cleared by its next order and when its activation begins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_throw_from: Option<crate::geometry::Vec2>,
    /// Where it stood when the current turn (of either side) began: §3.4's "an attacker that began the
    /// turn fully hidden from its target" is judged between two models' places then. `None` for a model
    /// that arrived during the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_start: Option<crate::geometry::Vec2>,
    /// How often it was nominated this turn (§3.1: a model that failed one die without a turnover stays
    /// Active and may be nominated again).
    #[serde(default)]
    pub activations: u8,
    /// It declared spellcasting before rolling for the activation being played (§3.7): only then may it
    /// cast.
    #[serde(default)]
    pub declared: bool,
    /// Spells cast in the activation being played (one per activation, a ruling from SBH).
    #[serde(default)]
    pub casts: u8,
    /// Actions it has left in the activation being played (set by the turn engine while a script
    /// decides its next action; 0 otherwise).
    #[serde(default)]
    pub actions_left: u8,
    /// The building it Destroyed with a structural attack, if any (a Raider then leaves, §6.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrecked: Option<String>,
    /// The Behaviour an enemy plays (one of its profile's), which picks its targets (§6.3).
    #[serde(default)]
    pub behaviour: Option<String>,
    /// What its Group was assigned to hold (a Guardian's building or Opportunity, §6.3): set at
    /// deployment by the Behaviour's `objective` and kept until it is Destroyed or removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<Objective>,
    /// Items and boons it carries (an Opportunity's Potion of Healing, Relic Blade): each item's script
    /// acts for the model like a trait's (its `melee_modifier`, ...), and its `use` runs on a `use` order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Item>,
    /// Traits it has for the current wave only (Stable II Warhorse's Long Move), each with what granted
    /// it; cleared at the next wave start. [`Model::has_trait`] and the trait scripts see them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wave_traits: Vec<WaveTrait>,
}

/// An item or boon a model carries, given by a script (`ctx:give`). Its script's model hooks act for the
/// model with the item's `params`, as a trait's do; `use` (if the script has one) is what a `use` order
/// does, after which the item is gone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Its name ("Relic Blade"); a model's `use` order names it.
    pub name: String,
    /// The script that gave it, relative to `scripts/` ("opportunities/relic_blade.lua").
    pub script: String,
    /// The `params` of the roster entry that named the giving script, copied when it was given.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub params: crate::roster::Params,
}

/// An objective a Behaviour assigned to a Group (§6.3, Guardian): a building or a token (an
/// Opportunity), kept until the building is Destroyed or the token removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Objective {
    /// A building to hold.
    Building {
        /// Its name.
        name: String,
    },
    /// A token (an Opportunity) to hold.
    Token {
        /// The token's id.
        id: super::piece::TokenId,
    },
}

/// A trait granted for one wave, and the source that granted it (for the log).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaveTrait {
    /// The trait's name, as the rosters print it ("Long Move").
    pub name: String,
    /// What granted it ("Stable II Warhorse").
    pub source: String,
}

/// A multi-action job (§3.1): breaking free, a Ritual, a signature's repairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    /// What the Task is ("break free", "Raise Dead", ...).
    pub name: String,
    /// Actions it takes in all.
    pub needed: u8,
    /// Actions spent so far.
    pub done: u8,
}

impl Model {
    /// The base as a circle on the table.
    pub fn circle(&self) -> Circle {
        Circle {
            c: self.pos,
            r: self.base / 2.0,
        }
    }

    /// Whether the model has a trait (case-sensitive, as printed): on its profile or granted for this
    /// wave.
    pub fn has_trait(&self, name: &str) -> bool {
        self.all_traits().any(|t| t == name)
    }

    /// Its traits in a stable order: the profile's, then those granted for this wave that the profile
    /// lacks.
    pub fn all_traits(&self) -> impl Iterator<Item = &str> {
        self.traits.iter().map(String::as_str).chain(
            self.wave_traits
                .iter()
                .filter(|w| !self.traits.contains(&w.name))
                .map(|w| w.name.as_str()),
        )
    }

    /// What granted a trait it has only for this wave (`None` for a profile trait or one it lacks).
    pub fn granted_by(&self, name: &str) -> Option<&str> {
        if self.traits.iter().any(|t| t == name) {
            return None;
        }
        self.wave_traits
            .iter()
            .find(|w| w.name == name)
            .map(|w| w.source.as_str())
    }

    /// The item it carries by this name, if any.
    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.name == name)
    }

    /// Whether the model has a condition.
    pub fn has(&self, c: Condition) -> bool {
        self.conditions.contains(&c)
    }

    /// Add a condition (no duplicates; stays sorted for a stable order).
    pub fn add_condition(&mut self, c: Condition) {
        if let Err(i) = self.conditions.binary_search(&c) {
            self.conditions.insert(i, c);
        }
    }

    /// Remove a condition; true when it was there.
    pub fn remove_condition(&mut self, c: Condition) -> bool {
        match self.conditions.binary_search(&c) {
            Ok(i) => {
                self.conditions.remove(i);
                true
            }
            Err(_) => false,
        }
    }
}
