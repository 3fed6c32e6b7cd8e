//! The valid range of every rule constant (`rosters/rules.toml`) and of every other roster number the
//! engine sizes things by (Barricade, Trap, buildings, Wall spells, Behaviours, Escalation): one table
//! of data, [`RANGES`], read by `validate` for the roster files and by a variant's `rules` overrides
//! ([`super::Rules::with_overrides`]), so that `village check` refuses what play could not survive.
//!
//! Why ranges at all: a number that passes the type check can still be absurd — `[table] width = 1e300`
//! overflows the allocator, `[morale] dice = 2147483647` rolls two billion dice, NaN compares false
//! everywhere. Each range is what the rules and the engine can play with (a few times the rulebook's
//! own values), never a tuning opinion. `tests/hostile/rosters.rs` plays games at the ends of ranges
//! and fuzzes every key of rules.toml; docs/rules-reference.md prints this table for designers.
//!
//! Relations between keys (short < medium < long, min ≤ max, one Power range per Power) stay in
//! `validate`: a range is about one value.

/// One number's valid range, inclusive at both ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// The roster file, as in `rosters/<file>`.
    pub file: &'static str,
    /// The table: the `[section]` of rules.toml, `[barricade]`/`[trap]`, or the list (`building`, …).
    pub table: &'static str,
    /// The key inside the table or list entry, dotted for nested tables (`wall.length`).
    pub key: &'static str,
    pub min: f64,
    pub max: f64,
    /// What the unit is and why the bounds are where they are, for the error and the docs.
    pub why: &'static str,
}

const fn r(
    file: &'static str,
    table: &'static str,
    key: &'static str,
    min: f64,
    max: f64,
    why: &'static str,
) -> Range {
    Range {
        file,
        table,
        key,
        min,
        max,
        why,
    }
}

const RULES: &str = "rules.toml";
const VILLAGE: &str = "village.toml";

const INCHES_TABLE: &str = "inches; large enough for the village, small enough to route across";
const ACTION_COST: &str = "actions; a model has at most three a turn";
const MODIFIER: &str = "a modifier to a total of a D6 plus Combat";
const D6_FACE: &str = "a face of a D6";
const FAILURES: &str = "failed dice out of at most six rolled";
const MULTIPLIER: &str = "a multiple of the loser's total";
const DAMAGE: &str = "Integrity points";
const TRACK_SPACES: &str = "spaces of a track; a clock or threat track has a few dozen at most";
const QUALITY: &str = "Quality: 2+ is the best a die can need, 7+ never succeeds";

/// Every ranged number. A rules.toml key missing here is a test failure (`every_rule_constant_has_a_range`).
#[rustfmt::skip]
pub const RANGES: &[Range] = &[
    // rules.toml [table]
    r(RULES, "table", "width", 24.0, 96.0, INCHES_TABLE),
    r(RULES, "table", "height", 24.0, 96.0, INCHES_TABLE),
    r(RULES, "table", "random_edge_max_roll", 1.0, 6.0, D6_FACE),
    r(RULES, "table", "terrain_min", 0.0, 20.0, "terrain pieces"),
    r(RULES, "table", "terrain_max", 0.0, 20.0, "terrain pieces"),
    // [measures]
    r(RULES, "measures", "short", 0.5, 24.0, "inches"),
    r(RULES, "measures", "medium", 0.5, 24.0, "inches"),
    r(RULES, "measures", "long", 0.5, 24.0, "inches"),
    // [bases]
    r(RULES, "bases", "normal", 0.25, 2.0, "inches of base diameter; a Group must fit by its edge"),
    r(RULES, "bases", "big", 0.25, 4.0, "inches of base diameter"),
    r(RULES, "bases", "huge", 0.25, 4.0, "inches of base diameter"),
    r(RULES, "bases", "contact_tolerance", 0.0, 0.5, "inches of gap still counted as contact"),
    // [activation]
    r(RULES, "activation", "max_dice", 1.0, 3.0, "activation dice (one, two or three: core §3.1)"),
    r(RULES, "activation", "turnover_failures", 1.0, 6.0, FAILURES),
    r(RULES, "activation", "natural_fail", 1.0, 6.0, D6_FACE),
    r(RULES, "activation", "natural_success", 1.0, 6.0, D6_FACE),
    r(RULES, "activation", "hero_automatic_successes", 0.0, 6.0, "activation dice"),
    r(RULES, "activation", "group_max_models", 1.0, 20.0, "models in one group activation"),
    // [actions]
    r(RULES, "actions", "move", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "step", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "stand_up", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "melee", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "power_blow", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "ranged", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "aimed_shot", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "break_free", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "claim_opportunity", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "structural_attack", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "place_fire", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "spell_min_power", 1.0, 3.0, "Power (a spell costs its Power in actions)"),
    r(RULES, "actions", "spell_max_power", 1.0, 3.0, "Power (a spell costs its Power in actions)"),
    r(RULES, "actions", "short_move_difficult", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "attacks_per_turn", 1.0, 6.0, "attacks a turn"),
    r(RULES, "actions", "heal_condition", 1.0, 3.0, ACTION_COST),
    r(RULES, "actions", "heal_wound", 1.0, 3.0, ACTION_COST),
    // [combat]
    r(RULES, "combat", "gruesome_multiplier", 1.0, 10.0, MULTIPLIER),
    r(RULES, "combat", "defeated_multiplier", 1.0, 10.0, MULTIPLIER),
    r(RULES, "combat", "minimum_total", 1.0, 6.0, "the least total the multipliers read"),
    r(RULES, "combat", "savage_gruesome_multiplier", 1.0, 10.0, MULTIPLIER),
    // [melee]
    r(RULES, "melee", "outnumbered", -6.0, 6.0, MODIFIER),
    r(RULES, "melee", "defenseless", -6.0, 6.0, MODIFIER),
    r(RULES, "melee", "entangled", -6.0, 6.0, MODIFIER),
    r(RULES, "melee", "power_blow", -6.0, 6.0, MODIFIER),
    r(RULES, "melee", "ambush", -6.0, 6.0, MODIFIER),
    r(RULES, "melee", "mounted", -6.0, 6.0, MODIFIER),
    r(RULES, "melee", "larger", -6.0, 6.0, MODIFIER),
    r(RULES, "melee", "obstacle_or_elevated", -6.0, 6.0, MODIFIER),
    r(RULES, "melee", "dashing", -6.0, 6.0, MODIFIER),
    // [ranged]
    r(RULES, "ranged", "cover", -6.0, 6.0, MODIFIER),
    r(RULES, "ranged", "big_or_huge", -6.0, 6.0, MODIFIER),
    r(RULES, "ranged", "undead", -6.0, 6.0, MODIFIER),
    r(RULES, "ranged", "good_shot", -6.0, 6.0, MODIFIER),
    r(RULES, "ranged", "aimed_shot", -6.0, 6.0, MODIFIER),
    r(RULES, "ranged", "overwatch", -6.0, 6.0, MODIFIER),
    r(RULES, "ranged", "defenseless", -6.0, 6.0, MODIFIER),
    r(RULES, "ranged", "concentrated_per_extra_shooter", -6.0, 6.0, MODIFIER),
    r(RULES, "ranged", "exhaust_roll", 1.0, 6.0, D6_FACE),
    // [morale]
    r(RULES, "morale", "dice", 1.0, 6.0, "morale dice"),
    r(RULES, "morale", "flee_failures", 1.0, 6.0, FAILURES),
    r(RULES, "morale", "undead_defeated_failures", 1.0, 6.0, FAILURES),
    r(RULES, "morale", "steadfast_bonus", -6.0, 6.0, "added to each morale die"),
    // [magic]
    r(RULES, "magic", "out_of_power_failures", 1.0, 6.0, FAILURES),
    r(RULES, "magic", "spells_per_activation", 1.0, 6.0, "spells"),
    // [tough]
    r(RULES, "tough", "quality_loss_per_wound", 1.0, 5.0, "Quality steps"),
    r(RULES, "tough", "defeated_at_quality", 3.0, 7.0, "Quality (profiles are 2+ to 6+)"),
    // [structures]
    r(RULES, "structures", "building_structure", 0.0, 12.0, "Structure"),
    r(RULES, "structures", "size_bonus", -6.0, 6.0, MODIFIER),
    r(RULES, "structures", "damage", 1.0, 10.0, DAMAGE),
    r(RULES, "structures", "power_blow_damage", 1.0, 10.0, DAMAGE),
    r(RULES, "structures", "fire_damage", 0.0, 10.0, DAMAGE),
    // [setup]
    r(RULES, "setup", "town_hall_from_centre", 0.0, 12.0, "inches"),
    r(RULES, "setup", "buildings_from_town_hall", 4.0, 24.0, "inches"),
    r(RULES, "setup", "building_min_gap", 0.0, 6.0, "inches"),
    r(RULES, "setup", "starting_supplies", 0.0, 1000.0, "Supplies"),
    r(RULES, "setup", "starting_level", 1.0, 3.0, "building Level (I to III)"),
    r(RULES, "setup", "max_level", 1.0, 3.0, "building Level (I to III)"),
    r(RULES, "setup", "opportunity_min_from_town_hall", 0.0, 48.0, "inches"),
    // [deploy]
    r(RULES, "deploy", "defenders_within", 1.0, 24.0, "inches of the Town Hall"),
    r(RULES, "deploy", "enemies_within_edge", 3.0, 12.0, "inches of the edge; a Group must fit"),
    // [wave]
    r(RULES, "wave", "max_rounds", 1.0, 200.0, "rounds"),
    r(RULES, "wave", "party_value_per_hero", 10.0, 400.0, "Wave Points; the budget buys the wave"),
    r(RULES, "wave", "budget_percent", 10.0, 1000.0, "percent of the Escalation row's budget"),
    r(RULES, "wave", "min_heroes", 1.0, 6.0, "heroes"),
    r(RULES, "wave", "max_heroes", 1.0, 6.0, "heroes"),
    r(RULES, "wave", "group_size_max", 1.0, 6.0, D6_FACE),
    r(RULES, "wave", "supplies_per_wave_number", 0.0, 100.0, "Supplies"),
    r(RULES, "wave", "enemy_dice", 1.0, 3.0, "activation dice, at most activation.max_dice"),
    // [wave_points]
    r(RULES, "wave_points", "combat_weight", 1.0, 100.0, "Wave Points per Combat"),
    r(RULES, "wave_points", "quality_base", 7.0, 20.0, "above the worst Quality, 6+"),
    r(RULES, "wave_points", "divisor", 1.0, 100.0, "the formula's divisor"),
    // village.toml
    r(VILLAGE, "barricade", "length", 0.5, 12.0, "inches"),
    r(VILLAGE, "barricade", "integrity", 1.0, 20.0, DAMAGE),
    r(VILLAGE, "barricade", "structure", 0.0, 12.0, "Structure"),
    r(VILLAGE, "barricade", "cost", 0.0, 1000.0, "Supplies"),
    r(VILLAGE, "barricade", "within", 0.0, 24.0, "inches of a building"),
    r(VILLAGE, "trap", "cost", 0.0, 1000.0, "Supplies"),
    r(VILLAGE, "trap", "combat", 0.0, 6.0, "Combat"),
    r(VILLAGE, "trap", "trigger_radius", 0.0, 6.0, "inches"),
    r(VILLAGE, "trap", "within", 0.0, 24.0, "inches of a building"),
    r(VILLAGE, "building", "width", 0.5, 12.0, "inches"),
    r(VILLAGE, "building", "height", 0.5, 12.0, "inches"),
    r(VILLAGE, "building", "integrity", 1.0, 20.0, DAMAGE),
    r(VILLAGE, "building", "level_ii_cost", 0.0, 1000.0, "Supplies"),
    r(VILLAGE, "building", "level_iii_cost", 0.0, 1000.0, "Supplies"),
    // spells.toml, behaviours.toml, escalation.toml
    r("spells.toml", "spell", "ritual_actions", 1.0, 12.0, "actions of the Task"),
    r("spells.toml", "spell", "wall.length", 0.5, 12.0, "inches"),
    r("spells.toml", "spell", "wall.integrity", 1.0, 20.0, DAMAGE),
    r("spells.toml", "spell", "wall.structure", 0.0, 12.0, "Structure"),
    r("behaviours.toml", "behaviour", "max_actions", 1.0, 6.0, "actions"),
    r("behaviours.toml", "behaviour", "guard_radius", 0.0, 36.0, "inches"),
    r("escalation.toml", "escalation", "budget_percent", 0.0, 1000.0, "percent of party value"),
    r("escalation.toml", "escalation", "min_groups", 1.0, 20.0, "Groups"),
    r("escalation.toml", "escalation", "min_behaviours", 1.0, 6.0, "Behaviours"),
    r("escalation.toml", "length", "endless.budget_percent_step", 0.0, 100.0, "percent of party value a wave"),
    r("opportunities.toml", "opportunity", "roll", 1.0, 6.0, D6_FACE),
    r("tracks.toml", "track", "min", -100.0, 100.0, TRACK_SPACES),
    r("tracks.toml", "track", "max", -100.0, 100.0, TRACK_SPACES),
    r("tracks.toml", "track", "start", -100.0, 100.0, TRACK_SPACES),
    r("tracks.toml", "track", "loses_at", -100.0, 100.0, TRACK_SPACES),
    // Profiles: heroes.toml, bestiary.toml, defenders.toml
    r("heroes.toml", "hero", "quality", 2.0, 6.0, QUALITY),
    r("heroes.toml", "hero", "combat", 0.0, 6.0, "Combat"),
    r("bestiary.toml", "enemy", "quality", 2.0, 6.0, QUALITY),
    r("bestiary.toml", "enemy", "combat", 0.0, 6.0, "Combat"),
    r("defenders.toml", "defender", "quality", 2.0, 6.0, QUALITY),
    r("defenders.toml", "defender", "combat", 0.0, 6.0, "Combat"),
];

/// The range of `key` in `table` of `file`, if it has one.
pub fn range_of(file: &str, table: &str, key: &str) -> Option<&'static Range> {
    RANGES
        .iter()
        .find(|r| r.file == file && r.table == table && r.key == key)
}

impl Range {
    /// Whether `v` lies in the range (NaN never does).
    pub fn contains(&self, v: f64) -> bool {
        v >= self.min && v <= self.max
    }

    /// The range as written in errors and docs: `24 to 96 (inches; …)`.
    pub fn describe(&self) -> String {
        format!("{} to {} ({})", self.min, self.max, self.why)
    }
}

/// The reference page `docs/rules-reference.md`: every range of [`RANGES`] as a table per file, with
/// the relations `validate` checks between keys. `tests/hostile/rosters.rs` fails when the page is
/// stale (`UPDATE_DOCS=1` rewrites it).
pub fn ranges_markdown() -> String {
    let mut out = String::from(
        "# Valid ranges of rule constants and roster numbers\n\n\
         Generated from `src/roster/ranges.rs` (`RANGES`); do not edit by hand \
         (`UPDATE_DOCS=1 cargo test --release --test hostile` rewrites it).\n\n\
         `village check` refuses any number below its minimum or above its maximum (both inclusive), \
         NaN and the infinities included, naming the file, the entry or `[section]`, the field, the \
         value, the range and the line. A variant's `rules` overrides (`scripts/variants/*.lua`) are \
         checked against the same table, enabled or not, and their errors name the Lua file and, when \
         the key is written literally, its line. A whole number key (Integrity, dice, actions) also \
         refuses a fraction by its type.\n\n\
         Besides these ranges, some keys are checked against each other:\n\n\
         - `[measures]`: 0 < `short` < `medium` < `long`;\n\
         - `[table]`: exactly four `edges` (north, east, south, west), none blank; \
         `random_edge_max_roll` equals the number of edges; `terrain_min` ≤ `terrain_max`;\n\
         - `[activation]`: `natural_fail` < `natural_success`; `[wave] enemy_dice` ≤ `max_dice`;\n\
         - `[wave]`: `min_heroes` ≤ `max_heroes`, and every party size gives a whole Escalation budget;\n\
         - `[actions]`/`[magic]`: one `power_ranges` measure per Power from `spell_min_power` to \
         `spell_max_power`;\n\
         - `[setup]`: `starting_level` ≤ `max_level`; every building has an ability at each level up to \
         `max_level`.\n\n\
         Every name (heroes, enemies, Defenders, traits, weapons, spells, Behaviours, buildings and their \
         abilities, signatures, Alpha Rules, Escalation rows, lengths, Opportunities) must not be empty or \
         whitespace.\n",
    );
    let mut last = ("", "");
    for r in RANGES {
        if (r.file, r.table) != last {
            // A section or single-valued table is `[x]`; a list of entries `[[x]]`.
            let single = r.file == RULES || matches!(r.table, "barricade" | "trap");
            let heading = if single {
                format!("rosters/{} `[{}]`", r.file, r.table)
            } else {
                format!("rosters/{} `[[{}]]`", r.file, r.table)
            };
            out.push_str(&format!(
                "\n## {heading}\n\n| key | min | max | unit, why |\n|---|---|---|---|\n"
            ));
            last = (r.file, r.table);
        }
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            r.key, r.min, r.max, r.why
        ));
    }
    out
}

/// Every out-of-range number of one table of one file, as (key, message). `value` is the table (for
/// rules.toml, the whole file: keys are `section.key`) or one list entry.
pub(crate) fn out_of_range(file: &str, table: &str, value: &toml::Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for r in RANGES.iter().filter(|r| r.file == file) {
        let path = if file == RULES {
            if r.table != table && !table.is_empty() {
                continue;
            }
            format!("{}.{}", r.table, r.key)
        } else {
            if r.table != table {
                continue;
            }
            r.key.to_string()
        };
        let Some(v) = lookup(value, &path) else {
            continue; // absent optional field, or the wrong type (reported by the loader)
        };
        let (shown, x) = match v {
            toml::Value::Integer(i) => (i.to_string(), *i as f64),
            toml::Value::Float(f) => (format!("{f:?}"), *f),
            _ => continue,
        };
        if !r.contains(x) {
            out.push((
                path,
                format!("{shown} is outside the valid range {}", r.describe()),
            ));
        }
    }
    out
}

/// The value at a dotted path.
fn lookup<'a>(value: &'a toml::Value, path: &str) -> Option<&'a toml::Value> {
    path.split('.').try_fold(value, |v, k| v.get(k))
}

/// Every out-of-range constant of a whole set of rules, as (`section.key`, message).
pub(crate) fn rules_out_of_range(rules: &super::Rules) -> Vec<(String, String)> {
    match toml::Value::try_from(rules) {
        Ok(v) => out_of_range(RULES, "", &v),
        // Unreachable in practice (every field serializes); say so rather than pass silently.
        Err(e) => vec![(String::new(), format!("cannot read the rules back: {e}"))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every number in the built-in rules.toml must have a range here.
    #[test]
    fn every_rule_constant_has_a_range() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rosters/rules.toml"),
        )
        .unwrap();
        let v: toml::Table = toml::from_str(&text).unwrap();
        let mut missing = Vec::new();
        for (section, t) in &v {
            for (key, x) in t.as_table().unwrap() {
                if (x.is_integer() || x.is_float()) && range_of(RULES, section, key).is_none() {
                    missing.push(format!("{section}.{key}"));
                }
            }
        }
        assert!(missing.is_empty(), "no range for {missing:?}");
        for r in RANGES {
            assert!(r.min <= r.max, "{r:?}");
        }
    }

    #[test]
    fn the_built_in_rules_are_in_range() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rosters/rules.toml"),
        )
        .unwrap();
        let v: toml::Value = toml::from_str(&text).unwrap();
        assert_eq!(out_of_range(RULES, "", &v), Vec::new());
    }
}
