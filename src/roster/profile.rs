//! Profiles: heroes (`heroes.toml`), enemies (`bestiary.toml`) and Village Defenders (`defenders.toml`),
//! one shape for the rest of the engine and one strict entry shape per file.
//!
//! Owns the per-file entry structs (so a field that belongs to another kind, e.g. `signature` on an
//! enemy, is an unknown field) and the derived facts of a profile (base size, movement band). It never
//! resolves a rule; it only describes the model.
//!
//! The entry structs derive `JsonSchema` for docs/rosters.md (`reference`): their `///` comments are the
//! designer's documentation of each field.

use super::rules::Rules;
use super::schema::{Ability, Measure, ProfileKind, Tier};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Trait names the kernel reads directly (everything else about a trait is data or script).
pub mod trait_names {
    pub const BIG: &str = "Big";
    pub const HUGE: &str = "Huge";
    pub const LONG_MOVE: &str = "Long Move";
    pub const SHORT_MOVE: &str = "Short Move";
    pub const IGNITER: &str = "Igniter";
}

/// A model's profile, whatever file it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub name: String,
    pub kind: ProfileKind,
    pub tier: Tier,
    pub quality: u8,
    pub combat: u8,
    /// Trait names in file order.
    pub traits: Vec<String>,
    /// The Shooter's weapon.
    pub weapon: Option<String>,
    pub spells: Vec<String>,
    /// Enemy Behaviours (one or two); empty for heroes and Defenders.
    pub behaviours: Vec<String>,
    /// Wave Points as printed in the file, if printed.
    pub printed_wave_points: Option<i64>,
    /// Wave Points by the formula of SUPPLEMENT §8.
    pub wave_points: i64,
    /// Alpha Rule of an Elite or Boss.
    pub alpha: Option<Ability>,
    /// A hero's signature ability.
    pub signature: Option<Ability>,
    /// Optional flavour or notes.
    pub text: Option<String>,
}

impl Profile {
    /// Whether the profile carries the trait `name` (exact, case-sensitive).
    pub fn has_trait(&self, name: &str) -> bool {
        self.traits.iter().any(|t| t == name)
    }

    /// Base diameter in inches: Huge, else Big, else normal (SUPPLEMENT §1).
    pub fn base_diameter(&self, rules: &Rules) -> f64 {
        base_diameter_of(&self.traits, rules)
    }

    /// Movement band: Long Move, Short Move, else Medium (core Ch. II).
    pub fn move_band(&self) -> Measure {
        move_band_of(&self.traits)
    }

    /// The cost the wave builder spends: the printed Wave Points when printed (core §5.2), else the
    /// formula.
    pub fn cost(&self) -> i64 {
        self.printed_wave_points.unwrap_or(self.wave_points)
    }

    /// Why the wave builder cannot buy this enemy, if it cannot: its cost (printed, else by the formula)
    /// is not positive, and a free model could be bought forever. `village check` and the builder ask
    /// this one question, so they agree.
    pub fn cost_problem(&self) -> Option<String> {
        let cost = self.cost();
        (cost <= 0).then(|| {
            format!(
                "costs {cost} Wave Points; an enemy needs a positive cost (the wave builder buys \
                 models with them)"
            )
        })
    }

    /// Whether this is an Igniter (the † profiles of core §5.2).
    pub fn is_igniter(&self) -> bool {
        self.has_trait(trait_names::IGNITER)
    }
}

/// Base diameter for a model with these traits: Huge, Big, else normal (SUPPLEMENT §1).
pub fn base_diameter_of(traits: &[String], rules: &Rules) -> f64 {
    let has = |t: &str| traits.iter().any(|x| x == t);
    if has(trait_names::HUGE) {
        rules.bases.huge
    } else if has(trait_names::BIG) {
        rules.bases.big
    } else {
        rules.bases.normal
    }
}

/// Movement band for a model with these traits: Long Move, Short Move, else Medium (core Ch. II).
pub fn move_band_of(traits: &[String]) -> Measure {
    let has = |t: &str| traits.iter().any(|x| x == t);
    if has(trait_names::LONG_MOVE) {
        Measure::Long
    } else if has(trait_names::SHORT_MOVE) {
        Measure::Short
    } else {
        Measure::Medium
    }
}

/// Enemy tiers as written in `bestiary.toml`.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum EnemyTier {
    Mob,
    Elite,
    Boss,
}

/// `[[enemy]]` in `bestiary.toml`: an enemy profile of the Bestiary (SUPPLEMENT §8), a Mob, Elite or Boss.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EnemyEntry {
    /// The enemy's name, unique among all profiles (heroes, enemies and Defenders).
    pub name: String,
    /// Its tier (SUPPLEMENT §8); each Escalation row says which tiers a wave may buy.
    pub tier: EnemyTier,
    /// Quality: the roll a die needs to succeed (2+ best, 6+ worst).
    pub quality: u8,
    /// Combat: added to the D6 of every attack and defence roll.
    pub combat: u8,
    /// Names of traits from `traits.toml`, each bringing its own rules.
    #[serde(default)]
    pub traits: Vec<String>,
    /// The ranged weapon from `weapons.toml`; it needs a trait that `needs = "weapon"` (Shooter).
    #[serde(default)]
    pub weapon: Option<String>,
    /// Spells from `spells.toml`; they need a trait that `needs = "spells"` (Spellcaster).
    #[serde(default)]
    pub spells: Vec<String>,
    /// One or two Behaviours from `behaviours.toml`: how its Group acts in the enemy turn.
    pub behaviours: Vec<String>,
    /// The printed Wave Points the wave builder spends (core §5.2); `village check` warns when they differ
    /// from the formula (SUPPLEMENT §8).
    #[serde(default)]
    pub wave_points: Option<i64>,
    /// The Alpha Rule every Elite and Boss has.
    #[serde(default)]
    pub alpha: Option<Ability>,
    /// Flavour or notes for people.
    #[serde(default)]
    pub text: Option<String>,
}

/// `[[hero]]` in `heroes.toml`: a hero of the Hero Compendium, with a signature ability.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HeroEntry {
    /// The hero's name, unique among all profiles (heroes, enemies and Defenders).
    pub name: String,
    /// Quality: the roll a die needs to succeed (2+ best, 6+ worst).
    pub quality: u8,
    /// Combat: added to the D6 of every attack and defence roll.
    pub combat: u8,
    /// Names of traits from `traits.toml`, each bringing its own rules.
    #[serde(default)]
    pub traits: Vec<String>,
    /// The ranged weapon from `weapons.toml`; it needs a trait that `needs = "weapon"` (Shooter).
    #[serde(default)]
    pub weapon: Option<String>,
    /// Spells from `spells.toml`; they need a trait that `needs = "spells"` (Spellcaster).
    #[serde(default)]
    pub spells: Vec<String>,
    /// The hero's signature ability.
    pub signature: Ability,
    /// The printed Wave Points; `village check` warns when they differ from the formula (SUPPLEMENT §8).
    #[serde(default)]
    pub wave_points: Option<i64>,
    /// Flavour or notes for people.
    #[serde(default)]
    pub text: Option<String>,
}

/// `[[defender]]` in `defenders.toml`: a Village Defender, deployed by buildings and scenarios.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DefenderEntry {
    /// The Defender's name, unique among all profiles (heroes, enemies and Defenders).
    pub name: String,
    /// Quality: the roll a die needs to succeed (2+ best, 6+ worst).
    pub quality: u8,
    /// Combat: added to the D6 of every attack and defence roll.
    pub combat: u8,
    /// Names of traits from `traits.toml`, each bringing its own rules.
    #[serde(default)]
    pub traits: Vec<String>,
    /// The ranged weapon from `weapons.toml`; it needs a trait that `needs = "weapon"` (Shooter).
    #[serde(default)]
    pub weapon: Option<String>,
    /// Spells from `spells.toml`; they need a trait that `needs = "spells"` (Spellcaster).
    #[serde(default)]
    pub spells: Vec<String>,
    /// The printed Wave Points; `village check` warns when they differ from the formula (SUPPLEMENT §8).
    #[serde(default)]
    pub wave_points: Option<i64>,
    /// Flavour or notes for people.
    #[serde(default)]
    pub text: Option<String>,
}

impl From<EnemyEntry> for Profile {
    fn from(e: EnemyEntry) -> Self {
        Profile {
            name: e.name,
            kind: ProfileKind::Enemy,
            tier: match e.tier {
                EnemyTier::Mob => Tier::Mob,
                EnemyTier::Elite => Tier::Elite,
                EnemyTier::Boss => Tier::Boss,
            },
            quality: e.quality,
            combat: e.combat,
            traits: e.traits,
            weapon: e.weapon,
            spells: e.spells,
            behaviours: e.behaviours,
            printed_wave_points: e.wave_points,
            wave_points: 0,
            alpha: e.alpha,
            signature: None,
            text: e.text,
        }
    }
}

impl From<HeroEntry> for Profile {
    fn from(e: HeroEntry) -> Self {
        Profile {
            name: e.name,
            kind: ProfileKind::Hero,
            tier: Tier::Hero,
            quality: e.quality,
            combat: e.combat,
            traits: e.traits,
            weapon: e.weapon,
            spells: e.spells,
            behaviours: Vec::new(),
            printed_wave_points: e.wave_points,
            wave_points: 0,
            alpha: None,
            signature: Some(e.signature),
            text: e.text,
        }
    }
}

impl From<DefenderEntry> for Profile {
    fn from(e: DefenderEntry) -> Self {
        Profile {
            name: e.name,
            kind: ProfileKind::Defender,
            tier: Tier::Defender,
            quality: e.quality,
            combat: e.combat,
            traits: e.traits,
            weapon: e.weapon,
            spells: e.spells,
            behaviours: Vec::new(),
            printed_wave_points: e.wave_points,
            wave_points: 0,
            alpha: None,
            signature: None,
            text: e.text,
        }
    }
}
