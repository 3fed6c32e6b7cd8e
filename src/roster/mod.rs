//! Rosters: loading, layering and validating `rosters/*.toml` into typed, read-only game data.
//!
//! Owns the data model of everything a designer can change without code (rule constants, traits,
//! weapons, spells, Behaviours, profiles, buildings, Escalation, Opportunities) and its strict parsing:
//! every struct denies unknown fields, every error names file, entry, field and line, and all errors are
//! collected, not just the first. It never resolves a rule, rolls a die or runs a script; it only says
//! what the data is (and that the scripts it names exist).
//!
//! Determinism: every collection is a `Vec` in file order (Behaviours in play order, Opportunities by
//! roll) or a `BTreeMap`; nothing observable iterates a `HashMap`.
//!
//! ```no_run
//! use village::roster::Rosters;
//! let rosters = Rosters::load(&[Rosters::builtin_root()]).expect("built-in rosters are valid");
//! let looter = rosters.profile("Goblin Looter").unwrap();
//! assert_eq!(looter.wave_points, 18);
//! ```

mod check;
mod error;
mod load;
mod lookalike;
pub mod patch;
mod points;
mod presets;
mod profile;
mod ranges;
mod reference;
mod rules;
mod schema;
mod source;
mod sources;
mod stray;
mod tracks;
mod validate;

pub use check::{check, CheckProfile, CheckReport};
pub use error::{Diagnostic, RosterErrors};
pub(crate) use load::deserialize_all;
pub use points::{ceil_div, wave_points};
pub use presets::{default_preset, is_default_preset, Preset, PresetBuilding, DEFAULT_PRESET};
pub use profile::{base_diameter_of, move_band_of, trait_names, Profile};
pub use ranges::{range_of, ranges_markdown, Range, RANGES};
pub use reference::{rosters_markdown, UNDESCRIBED};
pub use rules::*;
pub use schema::*;
pub(crate) use source::parse as parse_source;
pub use sources::{sources, Source, Sources, Table as SourceTable};
pub use tracks::Track;
pub use validate::{MAX_WAVES, SCRIPT_FOLDERS};

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// All game data, layered and validated. Read-only for the rest of the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rosters {
    pub rules: Rules,
    pub traits: Vec<Trait>,
    pub weapons: Vec<Weapon>,
    pub spells: Vec<Spell>,
    /// In play order (core §6.2).
    pub behaviours: Vec<Behaviour>,
    /// Heroes, then enemies, then Village Defenders, each in file order.
    pub profiles: Vec<Profile>,
    pub buildings: Vec<Building>,
    pub barricade: Barricade,
    pub trap: Trap,
    pub escalation: Vec<Escalation>,
    pub lengths: Vec<Length>,
    /// Sorted by roll, 1 to 6.
    pub opportunities: Vec<Opportunity>,
    /// Tracks (`rosters/tracks.toml`): clocks and threat tracks, in file order.
    pub tracks: Vec<Track>,
    /// Difficulty presets (`rosters/presets.toml`), in file order.
    pub presets: Vec<Preset>,
    /// Non-fatal findings (printed Wave Points differing from the formula).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Diagnostic>,
}

impl Rosters {
    /// Loads and validates `rosters/` of every layer: `layers[0]` is the built-in project root, later
    /// entries are `--mod` folders layered over it (see the module docs of `load` for the merge rules).
    /// Returns every error found, or the rosters (with any warnings in [`Rosters::warnings`]).
    pub fn load(layers: &[PathBuf]) -> Result<Rosters, RosterErrors> {
        let l = load_checked(layers);
        if !l.errors.is_empty() {
            return Err(RosterErrors(l.errors));
        }
        let (Some(rules), Some(barricade), Some(trap)) = (l.rules, l.barricade, l.trap) else {
            // Unreachable in practice: a missing table is always reported as an error above.
            return Err(RosterErrors(vec![Diagnostic::file(
                "rosters",
                "rules, barricade or trap missing",
            )]));
        };
        fn values<T>(v: Vec<load::Entry<T>>) -> Vec<T> {
            v.into_iter().map(|e| e.value).collect()
        }
        Ok(Rosters {
            rules,
            traits: values(l.traits),
            weapons: values(l.weapons),
            spells: values(l.spells),
            behaviours: values(l.behaviours),
            profiles: values(l.profiles),
            buildings: values(l.buildings),
            barricade,
            trap,
            escalation: values(l.escalation),
            lengths: values(l.lengths),
            opportunities: values(l.opportunities),
            tracks: values(l.tracks),
            presets: values(l.presets),
            warnings: l.warnings,
        })
    }

    /// The built-in layer: the folder that holds the built-in `rosters/` and `scripts/` — `--data`, the
    /// checkout or the binary's extracted copy, as [`crate::data`] decided for this process.
    pub fn builtin_root() -> PathBuf {
        crate::data::builtin().root.clone()
    }

    /// A profile (hero, enemy or Defender) by exact name.
    pub fn profile(&self, name: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.name == name)
    }

    /// The hero a person means by `text`: the exact name, else the one name that matches ignoring case,
    /// else the one hero whose name or a word of it starts with `text` (`maren`, `tobin`). Otherwise an
    /// error that names the closest heroes ("did you mean ...?").
    pub fn resolve_hero(&self, text: &str) -> Result<String, String> {
        let heroes: Vec<&str> = self
            .profiles_of(ProfileKind::Hero)
            .map(|p| p.name.as_str())
            .collect();
        resolve_among(&heroes, text, "a hero of the rosters")
    }

    /// The profile (hero, enemy or Village Defender) a person means by `text`, as
    /// [`Rosters::resolve_hero`] finds a hero (`village show maren`, `:show ogre`).
    pub fn resolve_profile(&self, text: &str) -> Result<String, String> {
        let all: Vec<&str> = self.profiles.iter().map(|p| p.name.as_str()).collect();
        resolve_among(&all, text, "a profile of the rosters")
    }

    /// `unknown length "x" (did you mean "intro"?)`: the error for a length the rosters lack.
    pub fn unknown_length(&self, typed: &str) -> String {
        crate::names::unknown(
            "length",
            typed,
            self.lengths.iter().map(|l| l.name.as_str()),
        )
    }

    /// Profiles of one kind, in file order.
    pub fn profiles_of(&self, kind: ProfileKind) -> impl Iterator<Item = &Profile> {
        self.profiles.iter().filter(move |p| p.kind == kind)
    }

    /// A trait by name.
    pub fn trait_named(&self, name: &str) -> Option<&Trait> {
        self.traits.iter().find(|t| t.name == name)
    }

    /// A weapon by name.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|t| t.name == name)
    }

    /// A spell by name.
    pub fn spell(&self, name: &str) -> Option<&Spell> {
        self.spells.iter().find(|t| t.name == name)
    }

    /// A Behaviour by name.
    pub fn behaviour(&self, name: &str) -> Option<&Behaviour> {
        self.behaviours.iter().find(|t| t.name == name)
    }

    /// A building by name.
    pub fn building(&self, name: &str) -> Option<&Building> {
        self.buildings.iter().find(|t| t.name == name)
    }

    /// The building with `town_hall = true` (validation guarantees exactly one).
    pub fn town_hall(&self) -> &Building {
        self.buildings
            .iter()
            .find(|b| b.town_hall)
            .expect("validated: exactly one Town Hall")
    }

    /// An Escalation row by name ("I" to "VII").
    pub fn escalation(&self, name: &str) -> Option<&Escalation> {
        self.escalation.iter().find(|t| t.name == name)
    }

    /// A game length by name (`intro`, `standard`, `siege`).
    pub fn length(&self, name: &str) -> Option<&Length> {
        self.lengths.iter().find(|t| t.name == name)
    }

    /// The Escalation of each wave of a length, wave 1 first.
    pub fn waves(&self, length: &str) -> Option<Vec<&Escalation>> {
        self.length(length)?
            .waves
            .iter()
            .map(|w| self.escalation(w))
            .collect()
    }

    /// The Escalation of wave `wave` (1-based) of `length`: its listed row; past the list of an endless
    /// length (up to its cap), the last listed row with `budget_percent_step` more budget percent for each
    /// wave past it, named "VII+1", "VII+2" …; `None` past the last wave or for a row the rosters lack.
    pub fn wave_escalation(&self, length: &Length, wave: u32) -> Option<Escalation> {
        let i = usize::try_from(wave.checked_sub(1)?).ok()?;
        if let Some(name) = length.waves.get(i) {
            return self.escalation(name).cloned();
        }
        let endless = length
            .endless
            .as_ref()
            .filter(|_| wave <= length.last_wave())?;
        let last = self.escalation(length.waves.last()?)?;
        let past = u32::try_from(i + 1 - length.waves.len()).ok()?;
        Some(Escalation {
            name: format!("{}+{past}", last.name),
            budget_percent: last
                .budget_percent
                .saturating_add(endless.budget_percent_step.saturating_mul(past)),
            ..last.clone()
        })
    }

    /// The Opportunity row for a D6 roll.
    pub fn opportunity(&self, roll: u8) -> Option<&Opportunity> {
        self.opportunities.iter().find(|o| o.roll == roll)
    }

    /// Party value for a number of heroes (core Ch. IV: 100 each).
    pub fn party_value(&self, heroes: u32) -> i64 {
        self.rules.wave.party_value_per_hero * i64::from(heroes)
    }

    /// Wave Points of a profile by the formula, for any stats and traits (for scripts and `check`).
    pub fn wave_points_of(
        &self,
        quality: u8,
        combat: u8,
        traits: &[String],
        weapon: Option<&str>,
    ) -> i64 {
        wave_points(
            &self.rules.wave_points,
            quality,
            combat,
            traits,
            weapon,
            |n| self.trait_named(n),
            |n| self.weapon(n),
        )
    }
}

/// The one of `names` a person means by `text`: the exact name, else the one that matches ignoring
/// case, else the one whose name or a word of it starts with `text`; otherwise an error that says it
/// is not `what` and names the closest ("did you mean ...?"), or the names it could be.
fn resolve_among(names: &[&str], text: &str, what: &str) -> Result<String, String> {
    let want = text.trim();
    if let Some(h) = names.iter().find(|h| **h == want) {
        return Ok(h.to_string());
    }
    let lower = want.to_lowercase();
    let exact: Vec<&&str> = names.iter().filter(|h| h.to_lowercase() == lower).collect();
    if let [one] = exact.as_slice() {
        return Ok(one.to_string());
    }
    let starts: Vec<&&str> = names
        .iter()
        .filter(|h| {
            let h = h.to_lowercase();
            !lower.is_empty()
                && (h.starts_with(&lower) || h.split(' ').any(|w| w.starts_with(&lower)))
        })
        .collect();
    match starts.as_slice() {
        [one] => Ok(one.to_string()),
        [] => Err(format!(
            "{want:?} is not {what}{}",
            crate::names::hint(want, names)
        )),
        many => Err(format!(
            "{want:?} could be {}: give more of the name",
            many.iter()
                .map(|h| format!("{h:?}"))
                .collect::<Vec<_>>()
                .join(" or ")
        )),
    }
}

/// Loads, computes Wave Points and validates, keeping origins and every diagnostic.
pub(crate) fn load_checked(layers: &[PathBuf]) -> load::Loaded {
    let mut l = load::load(layers);
    compute_points(&mut l);
    validate::validate(&mut l);
    l
}

/// Fills `Profile::wave_points` from the formula (left 0 when the rules did not load).
fn compute_points(l: &mut load::Loaded) {
    let Some(rules) = &l.rules else { return };
    if rules.wave_points.divisor <= 0 {
        return; // reported by validate
    }
    // By name, so that costing is linear in the profiles (a scan per trait was quadratic in big rosters).
    let traits: BTreeMap<&str, &Trait> = l
        .traits
        .iter()
        .map(|t| (t.value.name.as_str(), &t.value))
        .collect();
    let weapons: BTreeMap<&str, &Weapon> = l
        .weapons
        .iter()
        .map(|t| (t.value.name.as_str(), &t.value))
        .collect();
    for e in &mut l.profiles {
        let p = &mut e.value;
        p.wave_points = wave_points(
            &rules.wave_points,
            p.quality,
            p.combat,
            &p.traits,
            p.weapon.as_deref(),
            |n| traits.get(n).copied(),
            |n| weapons.get(n).copied(),
        );
    }
}
