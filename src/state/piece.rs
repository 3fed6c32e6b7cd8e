//! The village's buildings and the tokens on the table (Opportunities, Barricades, Traps).

use crate::geometry::{Rect, Segment, Vec2};
use serde::{Deserialize, Serialize};

/// A village building: a solid objective with Integrity, a Level and perhaps a fire token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Building {
    pub name: String,
    pub rect: Rect,
    pub integrity: i32,
    /// Starting Integrity: repairs never exceed it (§7.2).
    pub max_integrity: i32,
    /// 1 to 3.
    pub level: u8,
    pub destroyed: bool,
    /// A building holds at most one fire token (§6.4).
    pub fire: bool,
    /// Its fire was lit during an activation it was Blessed against (Temple II): that fire does no
    /// damage at the end of the wave. Set each time a fire is lit.
    #[serde(default)]
    pub fire_blessed: bool,
    /// The Town Hall: its loss ends the game.
    #[serde(default)]
    pub town_hall: bool,
    /// An economic building (Forge, Stable): the Raider's target.
    #[serde(default)]
    pub economic: bool,
}

/// Temple II's Blessing in force for one Enemy Group activation (core §7.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blessing {
    /// The building protected: it ignores all Integrity damage from the activation, fire included.
    pub building: String,
    /// The building whose ability it is (the Temple), and the ability's Level, for the log.
    pub by: String,
    pub level: u8,
}

/// A token's identity; never reused.
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
pub struct TokenId(pub u32);

/// What a token is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TokenKind {
    /// Face down unless revealed (Watchtower II).
    Opportunity { revealed: bool },
    /// A 3" linear obstacle with Integrity and Structure (§6.5).
    Barricade {
        segment: Segment,
        integrity: i32,
        structure: i32,
        /// Set for a Wall spell (Thorn Wall): it vanishes when its caster is Defeated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        caster: Option<super::model::ModelId>,
        /// Flying models cross it without losing a band (§6.5: a Barricade's roster
        /// `flying_ignores`; a Wall, like any linear obstacle, is flown over).
        #[serde(default = "flown_over")]
        flying_ignores: bool,
    },
    /// Face down; the first enemy entering its area (`radius` around the token) triggers it: a ranged
    /// attack at `combat` without Cover, or an Entangle for a trapper's snare.
    Trap {
        combat: i32,
        radius: f64,
        entangle: bool,
    },
}

/// Tokens saved before `flying_ignores` existed: Flying ignored every Barricade.
fn flown_over() -> bool {
    true
}

/// A token on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Token {
    pub id: TokenId,
    pub pos: Vec2,
    #[serde(flatten)]
    pub kind: TokenKind,
    /// An Opportunity's die rolled early by a model allowed to see results before claiming (Wren's
    /// Pathfinder, `ctx:peek`): a later claim of the token reads this roll instead of rolling again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peeked: Option<u8>,
    /// The script that placed the token, when one did (a Trap given by Grimm's Snare Master).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}
