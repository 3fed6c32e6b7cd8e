//! Roster data types other than rule constants and profiles: traits, weapons, spells, Behaviours,
//! buildings, Barricade and Trap, Escalation, lengths, Opportunities, and the shared vocabularies.
//!
//! Plain serde data, strictly parsed (`deny_unknown_fields` everywhere). Nothing here knows how a rule
//! is resolved; scripts and the rules module give the data meaning. Never add a `HashMap`: anything a
//! user or a script can observe must iterate in a stable order.
//!
//! Every struct and enum a roster file holds also derives `JsonSchema`: docs/rosters.md is generated from
//! it (`reference`), so a field's `///` comment is what a designer reads about it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Free-form named values handed to the entry's script (`ctx.params` on the Lua side), so that no number
/// is hard-coded in Lua. The keys `profile`, `trait`, `behaviour`, `spell` and `weapon` are references and
/// are validated against the rosters.
pub type Params = BTreeMap<String, ParamValue>;

/// One value of [`Params`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ParamValue {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
    List(Vec<ParamValue>),
    Table(BTreeMap<String, ParamValue>),
}

/// The three measures of SUPPLEMENT §1; lengths are in `rules.measures`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Measure {
    Short,
    Medium,
    Long,
}

impl Measure {
    /// The measure named as rosters and scripts write it ("short", "medium", "long").
    pub fn named(name: &str) -> Option<Measure> {
        Some(match name {
            "short" => Measure::Short,
            "medium" => Measure::Medium,
            "long" => Measure::Long,
            _ => return None,
        })
    }
}

/// What a profile is: a hero, an enemy from the Bestiary, or a Village Defender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProfileKind {
    Hero,
    Enemy,
    Defender,
}

/// A profile's tier: `mob`, `elite`, `boss` for enemies, `hero` and `defender` for the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Mob,
    Elite,
    Boss,
    Hero,
    Defender,
}

impl Tier {
    /// The lowercase name used in files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Mob => "mob",
            Tier::Elite => "elite",
            Tier::Boss => "boss",
            Tier::Hero => "hero",
            Tier::Defender => "defender",
        }
    }
}

impl ProfileKind {
    /// The lowercase name used in files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            ProfileKind::Hero => "hero",
            ProfileKind::Enemy => "enemy",
            ProfileKind::Defender => "defender",
        }
    }
}

/// What a trait requires on the profile that carries it (and what requires the trait back).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum TraitNeed {
    /// A `weapon` (Shooter); a profile with a weapon must carry such a trait.
    Weapon,
    /// At least one spell (Spellcaster); a profile with spells must carry such a trait.
    Spells,
}

/// A trait of SUPPLEMENT §9 / core §8.1 (`rosters/traits.toml`, `[[trait]]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trait {
    /// The trait's name, as profiles list it in `traits`.
    pub name: String,
    /// Wave Point cost (SUPPLEMENT §8); may be negative.
    pub cost: i32,
    /// When true the profile's weapon cost is added (Shooter).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cost_from_weapon: bool,
    /// What a profile carrying this trait must have (and what makes a profile need it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needs: Option<TraitNeed>,
    /// One-line description.
    pub text: String,
    /// Lua file relative to `scripts/`, e.g. `traits/savage.lua`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Named values handed to the script as `ctx.params`, so that no number is written in Lua; the keys
    /// `profile`, `trait`, `behaviour`, `spell` and `weapon` must name an entry of the rosters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: Params,
}

/// A bonus while the target is within a measure (Short Bow: +1 within Short).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangeBonus {
    /// The measure the target must be within.
    pub within: Measure,
    /// Added to the shooter's Combat total.
    pub modifier: i32,
}

/// Range bands (Longbow: +1 / 0 / −2 at one / two / three Long measures).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangeBands {
    /// The size of one band.
    pub measure: Measure,
    /// The modifier in the first, second, ... band; the weapon cannot shoot beyond the last band.
    pub modifiers: Vec<i32>,
}

/// How a ranged weapon is used up on a natural 1 (core §3.5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Exhaustion {
    /// Roll again on a natural 1; a second 1 exhausts the weapon.
    #[default]
    Confirmed,
    /// A natural 1 exhausts the weapon at once (Javelins).
    Immediate,
}

/// What a winning hit of a weapon does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OnHit {
    /// The normal combat result (SUPPLEMENT §4).
    #[default]
    Result,
    /// The target is Entangled instead (Harpoon).
    Entangle,
}

/// A ranged weapon (`rosters/weapons.toml`, `[[weapon]]`); a Shooter's cost is its weapon's cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// The weapon's name, as a profile's `weapon` gives it.
    pub name: String,
    /// How far it shoots: one measure of `rules.toml` `[measures]`.
    pub range: Measure,
    /// Wave Point cost of the Shooter trait with this weapon.
    pub cost: i32,
    /// A bonus against a target within a measure (Short Bow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_bonus: Option<RangeBonus>,
    /// Range bands with their own modifiers, instead of one range (Longbow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bands: Option<RangeBands>,
    /// One attack may be made for free after moving closer to the target (Javelins).
    #[serde(default, skip_serializing_if = "is_false")]
    pub free_after_move: bool,
    /// How a natural 1 uses the weapon up.
    #[serde(default)]
    pub exhaustion: Exhaustion,
    /// What a winning hit does.
    #[serde(default)]
    pub on_hit: OnHit,
    /// One-line description.
    pub text: String,
    /// Lua file relative to `scripts/` that gives it its rules; it must exist in some layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Named values handed to the script as `ctx.params`, so that no number is written in Lua; the keys
    /// `profile`, `trait`, `behaviour`, `spell` and `weapon` must name an entry of the rosters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: Params,
}

/// Spell kinds (core §3.7).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum SpellKind {
    /// Used as a ranged attack with Combat = Power.
    Attack,
    /// The target rolls one Quality die per Power; any failure and the spell takes hold.
    Resisted,
    /// A lasting effect that Break Enchantment can dispel.
    Enchantment,
    /// Creates a model or effect that vanishes when its caster is Defeated.
    Summoning,
    /// A summoned barrier (a linear obstacle).
    Wall,
    /// Cast as a Task of `ritual_actions` actions.
    Ritual,
    /// Heals or clears conditions.
    Healing,
    /// Removes an Enchantment.
    Dispel,
}

/// Statistics of a Wall spell's barrier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WallStats {
    /// Length in inches.
    pub length: f64,
    /// Integrity points of the barrier.
    pub integrity: u32,
    /// Structure of the barrier.
    pub structure: u32,
}

/// A spell (`rosters/spells.toml`, `[[spell]]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    /// The spell's name, as a profile's `spells` list it.
    pub name: String,
    /// The spell kinds it belongs to (one or more; core §3.7).
    pub kinds: Vec<SpellKind>,
    /// No effect on Undead or Artificial models.
    #[serde(default, skip_serializing_if = "is_false")]
    pub living_only: bool,
    /// Task size of a Ritual spell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ritual_actions: Option<u32>,
    /// The barrier of a Wall spell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall: Option<WallStats>,
    /// One-line description.
    pub text: String,
    /// Lua file relative to `scripts/` that gives it its rules (directly in `scripts/spells/`); it must exist
    /// in some layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Named values handed to the script as `ctx.params`, so that no number is written in Lua; the keys
    /// `profile`, `trait`, `behaviour`, `spell` and `weapon` must name an entry of the rosters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: Params,
}

impl Spell {
    /// Whether the spell is of the given kind.
    pub fn is(&self, kind: SpellKind) -> bool {
        self.kinds.contains(&kind)
    }
}

/// An enemy Behaviour (core §6.2–6.3; `rosters/behaviours.toml`, `[[behaviour]]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Behaviour {
    /// The Behaviour's name, as an enemy's `behaviours` list it.
    pub name: String,
    /// Play order in the enemy turn (lower first); unique.
    pub order: u32,
    /// Most actions a Group receives per activation.
    pub max_actions: u32,
    /// Whether two failures end the enemy turn.
    pub turnover: bool,
    /// Whether it makes ranged and spell attacks (Mindless never does).
    pub ranged_attacks: bool,
    /// Whether it ever leaves melee voluntarily (Mindless never does).
    pub voluntary_disengage: bool,
    /// Ignores voluntary retreat and morale checks for Terror and Gruesome Kills (Fanatic).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ignores_terror_and_gruesome: bool,
    /// Distance in inches within which it holds its objective (Guardian).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard_radius: Option<f64>,
    /// The Behaviour used when this one has no target left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback_behaviour: Option<String>,
    /// Rulebook text: the target.
    pub target: String,
    /// Rulebook text: what it does in melee.
    pub melee: String,
    /// Rulebook text: the fallback.
    pub fallback: String,
    /// Rulebook text: limits, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<String>,
    /// Lua file relative to `scripts/` that gives it its rules (directly in `scripts/behaviours/`); it must
    /// exist in some layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Named values handed to the script as `ctx.params`, so that no number is written in Lua; the keys
    /// `profile`, `trait`, `behaviour`, `spell` and `weapon` must name an entry of the rosters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: Params,
}

/// A named ability carried by a profile: an Alpha Rule (Elite, Boss) or a hero's signature.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    /// The ability's name, as the log and reports show it.
    pub name: String,
    /// What it does, in the rulebook's words.
    pub text: String,
    /// Lua file relative to `scripts/` that gives it its rules (directly in `scripts/signatures/`,
    /// `scripts/alpha/` or `scripts/traits/`); it must exist in some layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Named values handed to the script as `ctx.params`, so that no number is written in Lua; the keys
    /// `profile`, `trait`, `behaviour`, `spell` and `weapon` must name an entry of the rosters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: Params,
}

/// When a building ability is used (core §7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// During the Council Phase, as a Council order.
    Council,
    /// In the start-of-wave sequence (core §5.3).
    WaveStart,
    /// During play.
    Wave,
    /// Always.
    Passive,
}

/// One building ability at one level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildingAbility {
    /// The Level that grants it: 1, 2 or 3 (Level I, II, III), at most `rules.toml` `setup.max_level`.
    pub level: u8,
    /// The ability's name, as Council orders and the log name it.
    pub name: String,
    /// When it is used.
    pub timing: Timing,
    /// What it does, in the rulebook's words.
    pub text: String,
    /// Lua file relative to `scripts/` that gives it its rules; it must exist in some layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Named values handed to the script as `ctx.params`, so that no number is written in Lua; the keys
    /// `profile`, `trait`, `behaviour`, `spell` and `weapon` must name an entry of the rosters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: Params,
}

/// A village building (`rosters/village.toml`, `[[building]]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Building {
    /// The building's name.
    pub name: String,
    /// Footprint east–west, inches.
    pub width: f64,
    /// Footprint north–south, inches.
    pub height: f64,
    /// Starting (and maximum) Integrity.
    pub integrity: u32,
    /// Supplies to go from Level I to II.
    pub level_ii_cost: u32,
    /// Supplies to go from Level II to III.
    pub level_iii_cost: u32,
    /// The Town Hall: Fanatics target it, defenders deploy around it, its loss ends the game. Exactly one.
    #[serde(default, skip_serializing_if = "is_false")]
    pub town_hall: bool,
    /// An economic building, the Raider's target (Forge, Stable).
    #[serde(default, skip_serializing_if = "is_false")]
    pub economic: bool,
    /// Its abilities, each at the Level that grants it; a building has one at each Level up to `rules.toml`
    /// `setup.max_level`.
    pub abilities: Vec<BuildingAbility>,
}

impl Building {
    /// Supplies to reach `level` (2 or 3) from the level below; `None` for any other level.
    pub fn upgrade_cost(&self, level: u8) -> Option<u32> {
        match level {
            2 => Some(self.level_ii_cost),
            3 => Some(self.level_iii_cost),
            _ => None,
        }
    }

    /// The abilities gained at exactly `level`.
    pub fn abilities_at(&self, level: u8) -> impl Iterator<Item = &BuildingAbility> {
        self.abilities.iter().filter(move |a| a.level == level)
    }
}

/// The Barricade (core §6.5; `[barricade]` in `rosters/village.toml`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Barricade {
    /// Length of the linear obstacle, inches.
    pub length: f64,
    /// Integrity points.
    pub integrity: u32,
    /// Structure.
    pub structure: u32,
    /// Supplies.
    pub cost: u32,
    /// Placed within this many inches of a village building.
    pub within: f64,
    /// Flying models ignore it.
    pub flying_ignores: bool,
}

/// The Trap (core §6.5; `[trap]` in `rosters/village.toml`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trap {
    /// Supplies.
    pub cost: u32,
    /// Combat of its ranged attack.
    pub combat: u8,
    /// Radius of the area whose entry triggers it, inches.
    pub trigger_radius: f64,
    /// Placed within this many inches of a village building.
    pub within: f64,
    /// Whether its target may claim Cover (SUPPLEMENT §6: no).
    pub cover: bool,
}

/// One Escalation row (SUPPLEMENT §5; `rosters/escalation.toml`, `[[escalation]]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Escalation {
    /// Roman numeral, "I" to "VII".
    pub name: String,
    /// Budget as a percentage of party value.
    pub budget_percent: u32,
    /// Only Mobs may be bought (no Elite, no Boss).
    pub mobs_only: bool,
    /// One Behaviour for the whole wave.
    pub one_behaviour: bool,
    /// A Group may include one Elite.
    pub elites_allowed: bool,
    /// The first Group contains one Boss.
    pub boss_first: bool,
    /// Fewest enemy Groups in the wave.
    pub min_groups: u32,
    /// Fewest distinct Behaviours in the wave.
    pub min_behaviours: u32,
    /// Igniters may burn buildings.
    pub igniters: bool,
    /// Distinct spawn edges required when there is more than one Group.
    pub min_spawn_edges: u32,
}

impl Escalation {
    /// The wave budget for a party value, in exact integers (floor; validation makes every supported
    /// party value divide exactly).
    pub fn budget(&self, party_value: i64) -> i64 {
        party_value * i64::from(self.budget_percent) / 100
    }
}

/// A game length: the Escalation of each wave (`[[length]]` in `rosters/escalation.toml`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Length {
    /// `intro`, `standard`, `siege`, `endless`.
    pub name: String,
    /// Escalation name per wave, wave 1 first.
    pub waves: Vec<String>,
    /// Defender mode (the Field Manual's endless battle): after the listed waves the waves keep coming,
    /// there is no final wave, and the score is the waves won. Left out, the last listed wave is the
    /// final one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endless: Option<Endless>,
}

/// How the waves of an endless length go on past its listed ones (`endless = { ... }` in a
/// `[[length]]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Endless {
    /// Budget percent added for each wave past the listed ones: wave k past them plays the last listed
    /// row's rules with its `budget_percent` plus k times this (named after it: "VII+1", "VII+2" …).
    pub budget_percent_step: u32,
    /// The safety cap: a game whose village has won this many waves ends `stalled`. A game the rules
    /// end sooner (the Town Hall Destroyed, an Overrun) never meets it.
    pub max_waves: u32,
}

impl Length {
    /// The last wave a game of this length can play: its final wave, or an endless length's cap.
    pub fn last_wave(&self) -> u32 {
        match &self.endless {
            Some(e) => e.max_waves,
            None => u32::try_from(self.waves.len()).unwrap_or(u32::MAX),
        }
    }

    /// Whether the waves keep coming (Defender mode).
    pub fn is_endless(&self) -> bool {
        self.endless.is_some()
    }
}

/// When an Opportunity result resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpportunityTiming {
    /// At once, when the hero claims the token.
    Now,
    /// At the end of the wave.
    WaveEnd,
}

/// One row of the Opportunity D6 table (SUPPLEMENT §7; `rosters/opportunities.toml`).
/// Layering replaces rows by `roll`, not by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Opportunity {
    /// The D6 face that gives this result, 1 to 6; one row per face.
    pub roll: u8,
    /// The result's name.
    pub name: String,
    /// When the result resolves.
    pub timing: OpportunityTiming,
    /// What it does, in the rulebook's words.
    pub text: String,
    /// Lua file relative to `scripts/` that gives it its rules (directly in `scripts/opportunities/`); it
    /// must exist in some layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Named values handed to the script as `ctx.params`, so that no number is written in Lua; the keys
    /// `profile`, `trait`, `behaviour`, `spell` and `weapon` must name an entry of the rosters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: Params,
}

pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}
