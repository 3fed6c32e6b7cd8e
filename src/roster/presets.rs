//! Difficulty presets (`rosters/presets.toml`): named bundles of rule constant overrides, variants, a
//! game length, which buildings stand with their Integrity, the starting Supplies and where tracks
//! start — their schema,
//! their checks (each problem at file, entry, field and line, as every roster's) and how one makes the
//! rosters of a game ([`Rosters::with_preset`]).
//!
//! A preset is data like the rest of the rosters: a mod adds one with a new `[[preset]]`, or replaces
//! a built-in one by its name. `rulebook` is the default every command plays; it changes nothing.

use super::error::Diagnostic;
use super::load::{script_exists, Entry, Loaded};
use super::rules::Rules;
use super::schema::{ParamValue, Params};
use super::Rosters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The preset every command plays when `--preset` is not given: exactly the rules.
pub const DEFAULT_PRESET: &str = "rulebook";

/// [`DEFAULT_PRESET`] as a `String`: what a run, record or save that names no preset plays.
pub fn default_preset() -> String {
    DEFAULT_PRESET.to_string()
}

/// Whether `p` is the default preset: files leave it out, so a rulebook game's records, shards and
/// saves are the files they were before presets.
pub fn is_default_preset(p: &str) -> bool {
    p == DEFAULT_PRESET
}

/// One difficulty preset (`[[preset]]` in `rosters/presets.toml`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// The name `--preset` takes: `story`, `rulebook`, `veteran`.
    pub name: String,
    /// What the preset is for, in a sentence (`village presets` prints it).
    pub description: String,
    /// The game length played when `--length` is not given (`standard` otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<String>,
    /// Rule variants (`scripts/variants/NAME.lua`) in force, applied in order before any `--variant`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<String>,
    /// Rule constant overrides in the shape of rules.toml (`rules = { wave = { enemy_dice = 1 } }`),
    /// checked as rules.toml is: known keys, their types and ranges, and the relations between them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rules: BTreeMap<String, Params>,
    /// Buildings by their village.toml name: whether each stands and its Integrity. A building not named
    /// stands as village.toml has it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub buildings: BTreeMap<String, PresetBuilding>,
    /// The Supplies the village starts with (rules.toml `[setup] starting_supplies` otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supplies: Option<u32>,
    /// Where tracks of rosters/tracks.toml start, by name (`tracks = { threat = 11 }`), when a variant
    /// in force puts them in play.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tracks: BTreeMap<String, i32>,
}

/// What a preset changes of one building.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PresetBuilding {
    /// `false`: the building is not on the table (the Town Hall always stands). Default `true`.
    #[serde(default = "standing")]
    pub standing: bool,
    /// Its Integrity, in place of village.toml's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integrity: Option<u32>,
}

fn standing() -> bool {
    true
}

impl Preset {
    /// The rule overrides as one patch of `[section]` tables, the Supplies included.
    fn rules_patch(&self) -> toml::Value {
        let mut patch = toml::Table::new();
        for (section, keys) in &self.rules {
            let t: toml::Table = keys
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), toml_value(v)?)))
                .collect();
            patch.insert(section.clone(), toml::Value::Table(t));
        }
        if let Some(s) = self.supplies {
            let setup = patch
                .entry("setup")
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            if let toml::Value::Table(t) = setup {
                t.insert(
                    "starting_supplies".into(),
                    toml::Value::Integer(i64::from(s)),
                );
            }
        }
        toml::Value::Table(patch)
    }

    /// Whether the preset changes the rosters a game is made of (rules, Supplies or buildings); its
    /// length and variants are the game's options, not its rosters.
    pub fn changes_rosters(&self) -> bool {
        !self.rules.is_empty() || !self.buildings.is_empty() || self.supplies.is_some()
    }

    /// The rules of a game under this preset: `base` with its overrides (and Supplies) merged in.
    pub fn rules(&self, base: &Rules) -> Result<Rules, String> {
        base.with_overrides(&self.rules_patch())
            .map_err(|problems| {
                problems
                    .iter()
                    .map(|p| format!("preset {:?}: rules.{}: {}", self.name, p.key, p.message))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
    }

    /// Each thing the preset changes, in words (`village presets`); empty for the rulebook.
    pub fn changes(&self, rosters: &Rosters) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(l) = &self.length {
            out.push(format!("length {l}"));
        }
        for v in &self.variants {
            out.push(format!("variant {v}"));
        }
        for (section, keys) in &self.rules {
            for (key, value) in keys {
                let was = rosters
                    .rules_value(section, key)
                    .map(|w| format!(" (rules: {w})"))
                    .unwrap_or_default();
                let now = toml_value(value).map_or_else(|| "?".into(), |v| v.to_string());
                out.push(format!("{section}.{key} = {now}{was}"));
            }
        }
        for (name, b) in &self.buildings {
            if !b.standing {
                out.push(format!("no {name}"));
            } else if let Some(i) = b.integrity {
                let was = rosters
                    .building(name)
                    .map(|r| format!(" (rules: {})", r.integrity))
                    .unwrap_or_default();
                out.push(format!("{name} Integrity {i}{was}"));
            }
        }
        if let Some(s) = self.supplies {
            out.push(format!(
                "starting Supplies {s} (rules: {})",
                rosters.rules.setup.starting_supplies
            ));
        }
        for (name, start) in &self.tracks {
            let was = rosters
                .track(name)
                .map(|t| format!(" (rules: {})", t.start))
                .unwrap_or_default();
            out.push(format!("{name} track starts at {start}{was}"));
        }
        out
    }
}

/// A parameter value as TOML (`None` for a table mixing types TOML cannot hold).
fn toml_value(v: &ParamValue) -> Option<toml::Value> {
    toml::Value::try_from(v).ok()
}

impl Rosters {
    /// A preset by exact name.
    pub fn preset(&self, name: &str) -> Option<&Preset> {
        self.presets.iter().find(|p| p.name == name)
    }

    /// `unknown preset "x" (did you mean "story"?)`: the error for a preset the rosters lack.
    pub fn unknown_preset(&self, typed: &str) -> String {
        crate::names::unknown(
            "preset",
            typed,
            self.presets.iter().map(|p| p.name.as_str()),
        )
    }

    /// A rule constant of these rosters as TOML text (`rules_value("wave", "enemy_dice")` is "2").
    fn rules_value(&self, section: &str, key: &str) -> Option<String> {
        let v = toml::Value::try_from(&self.rules).ok()?;
        Some(v.get(section)?.get(key)?.to_string())
    }

    /// These rosters as the preset `name` makes a game of them: its rule overrides and Supplies in the
    /// rules, the buildings it takes down gone, the Integrity it sets in place. The rosters were checked
    /// with the preset, so an error here is only for a name they do not have.
    pub fn with_preset(&self, name: &str) -> Result<Rosters, String> {
        let preset = self.preset(name).ok_or_else(|| self.unknown_preset(name))?;
        let mut r = self.clone();
        r.rules = preset.rules(&self.rules)?;
        r.buildings
            .retain(|b| b.town_hall || preset.buildings.get(&b.name).is_none_or(|p| p.standing));
        for b in &mut r.buildings {
            if let Some(i) = preset.buildings.get(&b.name).and_then(|p| p.integrity) {
                b.integrity = i;
            }
        }
        Ok(r)
    }
}

/// Checks every preset: a known length, variants that exist as scripts, rule overrides as rules.toml's
/// (with the Supplies), buildings of village.toml with Integrity in its range (the Town Hall never
/// taken down), and a `rulebook` preset to be the default.
pub(crate) fn validate(l: &Loaded, rules_ok: bool, errors: &mut Vec<Diagnostic>) {
    if !l.presets.iter().any(|e| e.value.name == DEFAULT_PRESET) {
        let file = l
            .presets
            .first()
            .map_or("rosters/presets.toml".to_string(), |e| {
                e.origin.file.clone()
            });
        errors.push(Diagnostic::file(
            file,
            format!("preset \"{DEFAULT_PRESET}\" is missing: it is the default of every command"),
        ));
    }
    for e in &l.presets {
        check_preset(l, rules_ok, e, errors);
    }
}

fn check_preset(l: &Loaded, rules_ok: bool, e: &Entry<Preset>, errors: &mut Vec<Diagnostic>) {
    let (p, o) = (&e.value, &e.origin);
    if let Some(length) = &p.length {
        if !l.lengths.iter().any(|x| &x.value.name == length) {
            let known = l.lengths.iter().map(|x| x.value.name.as_str());
            errors.push(o.diag(
                "length",
                "length",
                crate::names::unknown("length", length, known),
            ));
        }
    }
    for (i, v) in p.variants.iter().enumerate() {
        let at = format!("variants[{i}]");
        let path = format!("variants/{v}.lua");
        if !super::load::script_path_ok(&path) || !script_exists(&l.layers, &path) {
            errors.push(o.diag(
                &at,
                &at,
                format!("variant \"{v}\": scripts/{path} not found in any layer"),
            ));
        }
    }
    for (name, b) in &p.buildings {
        let at = format!("buildings.{name}");
        let Some(building) = l.buildings.iter().find(|x| &x.value.name == name) else {
            let known = l.buildings.iter().map(|x| x.value.name.as_str());
            errors.push(o.diag(&at, &at, crate::names::unknown("building", name, known)));
            continue;
        };
        if building.value.town_hall && !b.standing {
            errors.push(o.diag(
                &format!("{at}.standing"),
                &format!("{at}.standing"),
                "the Town Hall always stands: the game is lost when it falls",
            ));
        }
        if let (Some(i), Some(range)) = (
            b.integrity,
            super::range_of("village.toml", "building", "integrity"),
        ) {
            if !range.contains(f64::from(i)) {
                errors.push(o.diag(
                    &format!("{at}.integrity"),
                    &format!("{at}.integrity"),
                    format!("{i} is outside the valid range {}", range.describe()),
                ));
            }
        }
    }
    // The overrides are checked against the merged rules; broken rules are reported on their own.
    let Some(base) = l.rules.as_ref().filter(|_| rules_ok) else {
        return;
    };
    match base.with_overrides(&p.rules_patch()) {
        Ok(rules) => {
            // One error for the first Escalation percent (or endless step) that stops being whole.
            let percents = l.escalation.iter().map(|x| x.value.budget_percent).chain(
                l.lengths
                    .iter()
                    .filter_map(|x| x.value.endless.as_ref())
                    .map(|e| e.budget_percent_step),
            );
            for percent in percents {
                let mut found = Vec::new();
                let field = "rules.wave.party_value_per_hero";
                super::validate::whole_budgets(&rules, percent, field, o, &mut found);
                if let Some(first) = found.into_iter().next() {
                    errors.push(first);
                    break;
                }
            }
        }
        Err(problems) => {
            for pr in problems {
                // The Supplies are written as `supplies`, not inside `rules`.
                let field = if pr.key == "setup.starting_supplies" && p.supplies.is_some() {
                    "supplies".to_string()
                } else if pr.key.is_empty() {
                    "rules".to_string()
                } else {
                    format!("rules.{}", pr.key)
                };
                let message = pr.message;
                errors.push(o.diag(&field, &field, message));
            }
        }
    }
}
