//! Rule constants (`rosters/rules.toml`): every number the kernel and the scripts use that is not a
//! property of one trait, weapon, spell, profile or building.
//!
//! Sections mirror the rulebook. A `--mod` rules.toml overrides key by key, so every key is required in
//! the merged result but a mod file names only what it changes. Weapon-specific modifiers (Short Bow,
//! Longbow) live with the weapon in `weapons.toml`; Barricade and Trap numbers in `village.toml`.

use super::schema::Measure;
use serde::{Deserialize, Serialize};

/// One problem with rule constants given other than in rules.toml (a variant's `rules` overrides): the
/// dotted key (`morale.dice`; empty for the whole table) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleProblem {
    pub key: String,
    pub message: String,
}

impl Rules {
    /// These rules with `patch` merged over them key by key (a table of `[section]` tables, as a
    /// variant's `rules`), checked exactly as rules.toml is: unknown keys, types, the ranges of
    /// [`super::RANGES`] and the relations between keys. Every problem found, or the new rules.
    pub fn with_overrides(&self, patch: &toml::Value) -> Result<Rules, Vec<RuleProblem>> {
        let problem = |key: &str, message: String| RuleProblem {
            key: key.to_string(),
            message,
        };
        let patch = match patch {
            toml::Value::Table(t) => t,
            // An empty Lua table may arrive as an empty array: nothing to override.
            toml::Value::Array(a) if a.is_empty() => return Ok(self.clone()),
            other => {
                return Err(vec![problem(
                    "",
                    format!(
                        "must be a table of sections (`{{ morale = {{ dice = 2 }} }}`), got {}",
                        other.type_str()
                    ),
                )])
            }
        };
        let mut merged = match toml::Value::try_from(self) {
            Ok(toml::Value::Table(t)) => t,
            _ => return Err(vec![problem("", "cannot read the base rules".into())]),
        };
        super::load::merge(&mut merged, patch);
        let (value, errors) = super::load::deserialize_all::<Rules>(&toml::Value::Table(merged));
        let mut problems: Vec<RuleProblem> =
            errors.into_iter().map(|(k, m)| problem(&k, m)).collect();
        match value {
            Some(rules) if problems.is_empty() => {
                problems.extend(
                    super::validate::rule_problems(&rules)
                        .into_iter()
                        .map(|(k, m)| problem(&k, m)),
                );
                if problems.is_empty() {
                    Ok(rules)
                } else {
                    Err(problems)
                }
            }
            _ => Err(problems),
        }
    }
}

/// All rule constants, one struct per section of `rules.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub table: TableRules,
    pub measures: Measures,
    pub bases: Bases,
    pub activation: ActivationRules,
    pub actions: ActionCosts,
    pub combat: CombatRules,
    pub melee: MeleeModifiers,
    pub ranged: RangedModifiers,
    pub morale: MoraleRules,
    pub magic: MagicRules,
    pub tough: ToughRules,
    pub structures: StructureRules,
    pub setup: SetupRules,
    pub deploy: DeployRules,
    pub wave: WaveRules,
    pub wave_points: WavePointsFormula,
}

/// The table (SUPPLEMENT §1, §2; core §5.2 random edge).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRules {
    /// Inches, west to east.
    pub width: f64,
    /// Inches, south to north.
    pub height: f64,
    /// Edge names in number order (1 = north, clockwise).
    pub edges: Vec<String>,
    /// Faces of the D6 above this are rerolled when rolling a random edge.
    pub random_edge_max_roll: u8,
    pub terrain_min: u32,
    pub terrain_max: u32,
}

/// Short, Medium, Long in inches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Measures {
    pub short: f64,
    pub medium: f64,
    pub long: f64,
}

impl Measures {
    /// The length of a measure, inches.
    pub fn get(&self, m: Measure) -> f64 {
        match m {
            Measure::Short => self.short,
            Measure::Medium => self.medium,
            Measure::Long => self.long,
        }
    }
}

/// Base diameters and contact tolerance, inches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bases {
    pub normal: f64,
    pub big: f64,
    pub huge: f64,
    /// Largest gap that still counts as contact.
    pub contact_tolerance: f64,
}

/// Activation (core §3.1, §6.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActivationRules {
    pub max_dice: u32,
    /// Failures that end the side's turn.
    pub turnover_failures: u32,
    /// Natural roll that always fails.
    pub natural_fail: u8,
    /// Natural roll that always succeeds.
    pub natural_success: u8,
    /// Activation dice a Hero (the trait) treats as automatic successes.
    pub hero_automatic_successes: u32,
    /// Most models in one group activation.
    pub group_max_models: u32,
    /// Group members are within this of the Leader and of each other.
    pub group_range: Measure,
    /// An Enemy Group that failed exactly one die without a turnover stays Active and activates again
    /// later in the enemy turn (§3.1, which §6.2's turns follow); false: each Group activates once a
    /// turn (the variant `enemy_groups_activate_once`).
    pub enemy_groups_renominate: bool,
}

impl ActivationRules {
    /// How Quality dice are rolled and read under these rules (natural faces, turnover, most dice).
    pub fn roll_rules(&self) -> crate::dice::RollRules {
        crate::dice::RollRules {
            natural_fail: self.natural_fail,
            natural_success: self.natural_success,
            turnover_failures: u8::try_from(self.turnover_failures).unwrap_or(u8::MAX),
            max_dice: u8::try_from(self.max_dice).unwrap_or(u8::MAX),
        }
    }

    /// The successes a Hero (the trait) takes without rolling, of `dice` chosen (SUPPLEMENT §4).
    pub fn automatic(&self, dice: u8) -> u8 {
        u8::try_from(self.hero_automatic_successes)
            .unwrap_or(u8::MAX)
            .min(dice)
    }
}

/// Action costs (SUPPLEMENT §3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionCosts {
    #[serde(rename = "move")]
    pub move_: u32,
    pub step: u32,
    pub stand_up: u32,
    pub melee: u32,
    pub power_blow: u32,
    pub ranged: u32,
    pub aimed_shot: u32,
    pub break_free: u32,
    pub claim_opportunity: u32,
    pub structural_attack: u32,
    pub place_fire: u32,
    pub spell_min_power: u32,
    pub spell_max_power: u32,
    /// Actions a Short-move model spends to cross difficult terrain or an obstacle.
    pub short_move_difficult: u32,
    /// Attacks (melee or ranged) per turn unless a trait says otherwise.
    pub attacks_per_turn: u32,
    /// A Healer clearing one condition from an adjacent friend (SUPPLEMENT §9).
    pub heal_condition: u32,
    /// A Healer healing one Wound of an adjacent friend (SUPPLEMENT §9).
    pub heal_wound: u32,
}

/// Combat results (SUPPLEMENT §4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatRules {
    /// Winner's total ≥ this × loser's: Gruesome Kill.
    pub gruesome_multiplier: i32,
    /// Winner's total ≥ this × loser's: Defeated.
    pub defeated_multiplier: i32,
    /// A total below this counts as this for the multipliers.
    pub minimum_total: i32,
    /// Savage: Gruesome Kill at this multiplier in melee.
    pub savage_gruesome_multiplier: i32,
    /// Variant `power_blow_lethal`: a Power Blow defeats on any loss. Default false (SUPPLEMENT §4).
    pub power_blow_lethal: bool,
}

/// Melee modifiers to the named model's total (SUPPLEMENT §4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeModifiers {
    /// Each enemy Engaged with the model beyond the first.
    pub outnumbered: i32,
    /// To the model fighting a Defenseless or Transfixed one, whoever declared the attack (melee is
    /// simultaneous, §3.4; SUPPLEMENT §11).
    pub defenseless: i32,
    /// To the model fighting an Entangled one, whoever declared the attack; it stacks with
    /// `defenseless` (SUPPLEMENT §11).
    pub entangled: i32,
    /// To the opponent of a Power Blow.
    pub power_blow: i32,
    pub ambush: i32,
    /// Mounted against a non-Mounted model.
    pub mounted: i32,
    /// Big or Huge against a smaller model.
    pub larger: i32,
    /// Defending an obstacle or elevated.
    pub obstacle_or_elevated: i32,
    /// Dashing: attacking in the activation it moved into contact.
    pub dashing: i32,
}

/// Ranged modifiers to the shooter's total (SUPPLEMENT §4) and shooting constants (core §3.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangedModifiers {
    pub cover: i32,
    /// Target Big or Huge.
    pub big_or_huge: i32,
    pub undead: i32,
    pub good_shot: i32,
    /// To the target of an Aimed Shot.
    pub aimed_shot: i32,
    /// Watchtower I Overwatch.
    pub overwatch: i32,
    /// Shooting a Defenseless or Transfixed target (the attack is also Lethal).
    pub defenseless: i32,
    /// To the target per concentrated shooter after the first.
    pub concentrated_per_extra_shooter: i32,
    /// Natural roll that risks exhausting a ranged weapon.
    pub exhaust_roll: u8,
}

/// Morale (core §3.6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleRules {
    pub dice: u32,
    /// Failures at which the model Flees.
    pub flee_failures: u32,
    /// Failures at which an Undead model is Defeated instead of moving.
    pub undead_defeated_failures: u32,
    /// A Gruesome Kill within this makes models test.
    pub gruesome_range: Measure,
    /// Steadfast: added to each morale die.
    pub steadfast_bonus: i32,
}

/// Magic (core §3.7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MagicRules {
    /// Range of Power 1, 2, 3.
    pub power_ranges: Vec<Measure>,
    /// Failed dice that leave the caster out of power for the wave.
    pub out_of_power_failures: u32,
    /// Spells one activation may cast (SBH: "the number of successes is the maximum power of the
    /// spell": one spell, a ruling).
    pub spells_per_activation: u32,
}

/// Tough models (core §3.8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToughRules {
    /// Quality worsens by this per Wound.
    pub quality_loss_per_wound: u8,
    /// At this Quality (or worse) the model is Defeated.
    pub defeated_at_quality: u8,
}

/// Structural attacks and fire (core §6.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StructureRules {
    /// Structure of every village building.
    pub building_structure: u32,
    /// Big, Huge or Heavy Weapon bonus on a structural attack (does not stack).
    pub size_bonus: i32,
    /// Integrity lost to a winning structural attack.
    pub damage: u32,
    /// Integrity lost to a winning structural Power Blow.
    pub power_blow_damage: u32,
    /// Integrity lost at wave end by a burning building. (A building holds one fire token, §6.4: its
    /// `fire` is a flag, so there is no constant to change it.)
    pub fire_damage: u32,
}

/// Game setup (core Ch. IV).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupRules {
    /// The Town Hall is placed within this of the table centre, inches.
    pub town_hall_from_centre: f64,
    /// Other buildings within this of the Town Hall, inches.
    pub buildings_from_town_hall: f64,
    /// Buildings at least this far apart, inches.
    pub building_min_gap: f64,
    pub starting_supplies: u32,
    pub starting_level: u8,
    pub max_level: u8,
    /// Opportunities are placed at least this far from the Town Hall, inches, if possible.
    pub opportunity_min_from_town_hall: f64,
}

/// Deployment (core §5.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployRules {
    /// Heroes and Defenders within this of the Town Hall, inches.
    pub defenders_within: f64,
    /// Enemy Groups wholly within this of their edge, inches.
    pub enemies_within_edge: f64,
    /// Enemies are deployed outside this of a hero where possible.
    pub enemies_outside: Measure,
}

/// The wave (core Ch. IV–VII, SUPPLEMENT §10).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaveRules {
    /// A wave reaching this many rounds ends as stalled.
    pub max_rounds: u32,
    pub party_value_per_hero: i64,
    /// Every wave's budget is this percent of what its Escalation row gives (rounded down): one knob
    /// for the size of all waves (`village sweep --set wave.budget_percent=80..140:10`). 100 is the
    /// rulebook's.
    #[serde(default = "hundred")]
    pub budget_percent: u32,
    pub min_heroes: u32,
    pub max_heroes: u32,
    /// Group size D6: results above this are rerolled.
    pub group_size_max: u8,
    /// Supplies gained at wave end per wave number.
    pub supplies_per_wave_number: u32,
    /// Activation dice an Enemy Group rolls (the rulebook leaves it open; a Group of a Behaviour with
    /// one `max_actions` still rolls them all and needs one success).
    pub enemy_dice: u8,
    /// The optional rule of core Ch. VII: the players lose when every hero is Defeated (off by default;
    /// the variant `party_defeated_loss` turns it on).
    #[serde(default)]
    pub party_defeated_loss: bool,
}

fn hundred() -> u32 {
    100
}

/// The Wave Points formula (SUPPLEMENT §8):
/// `ceil((combat_weight × Combat + sum of trait costs) × (quality_base − Quality) / divisor)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WavePointsFormula {
    pub combat_weight: i64,
    pub quality_base: i64,
    pub divisor: i64,
}
