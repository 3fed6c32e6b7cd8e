//! What the audit takes from the rosters: data, never rules. Each profile's side, Quality, traits,
//! base diameter, movement band and cost; the measures and the contact tolerance; group size; the
//! Behaviours' action limits; which spells are attacks; the buildings' starting Integrity. Everything
//! comes through the roster loader (`Rosters::load`), which reads and validates the TOML files and
//! decides nothing about play.

use crate::roster::{ProfileKind, Rosters, SpellKind};
use std::collections::{BTreeMap, BTreeSet};

/// A side of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    /// Heroes, Village Defenders and what they summon.
    Heroes,
    /// The Enemy Groups.
    Enemies,
}

impl Side {
    /// The side a log's `side` field names ("heroes", "enemies").
    pub fn named(s: &str) -> Option<Side> {
        match s {
            "heroes" => Some(Side::Heroes),
            "enemies" => Some(Side::Enemies),
            _ => None,
        }
    }
    /// The side's name as the log writes it.
    pub fn name(self) -> &'static str {
        match self {
            Side::Heroes => "heroes",
            Side::Enemies => "enemies",
        }
    }
}

/// A movement band (core Ch. II: Short, Medium, Long).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// 3".
    Short,
    /// 6".
    Medium,
    /// 9".
    Long,
}

impl Band {
    /// The band a log's `band` field names.
    pub fn named(s: &str) -> Option<Band> {
        match s {
            "short" => Some(Band::Short),
            "medium" => Some(Band::Medium),
            "long" => Some(Band::Long),
            _ => None,
        }
    }
    /// One band less (Long to Medium, Medium to Short; Short stays Short and costs a second action).
    pub fn less(self) -> Band {
        match self {
            Band::Long => Band::Medium,
            _ => Band::Short,
        }
    }
}

/// One profile's facts.
#[derive(Debug, Clone)]
pub struct ProfileFacts {
    /// Whose side it fights on.
    pub side: Side,
    /// Whether it is a hero (placed only when deployed, SUPPLEMENT §11).
    pub hero: bool,
    /// Its Quality.
    pub quality: u8,
    /// Its traits.
    pub traits: Vec<String>,
    /// Base diameter in inches.
    pub base: f64,
    /// Movement band.
    pub band: Band,
    /// Wave Points (core §3.5: a target worth less than half the shooter may be ignored).
    pub cost: i64,
}

/// Every number the audit needs from the rosters.
#[derive(Debug, Clone)]
pub struct Facts {
    /// Profiles by name.
    pub profiles: BTreeMap<String, ProfileFacts>,
    /// Short, Medium and Long in inches.
    pub measures: [f64; 3],
    /// Contact (Engaged, adjacent): a gap of at most this.
    pub contact: f64,
    /// The most models one group activation may have.
    pub group_max: usize,
    /// Each Behaviour's most actions an activation and whether two failures are a turnover.
    pub behaviours: BTreeMap<String, (u8, bool)>,
    /// Spells used as ranged attacks (kind `attack`).
    pub attack_spells: BTreeSet<String>,
    /// Starting Integrity of each building.
    pub building_integrity: BTreeMap<String, i32>,
    /// A Barricade's starting Integrity.
    pub barricade_integrity: i32,
    /// The Power → range measures of spells.
    pub power_ranges: Vec<f64>,
    /// Each weapon's range in inches.
    pub weapon_range: BTreeMap<String, f64>,
    /// Each profile's weapon.
    pub weapons: BTreeMap<String, String>,
}

impl Facts {
    /// The facts of loaded rosters.
    pub fn of(r: &Rosters) -> Facts {
        let m = &r.rules.measures;
        let measure = |x: crate::roster::Measure| match x {
            crate::roster::Measure::Short => m.short,
            crate::roster::Measure::Medium => m.medium,
            crate::roster::Measure::Long => m.long,
        };
        let has = |t: &[String], n: &str| t.iter().any(|x| x == n);
        let profiles = r
            .profiles
            .iter()
            .map(|p| {
                let band = if has(&p.traits, "Long Move") {
                    Band::Long
                } else if has(&p.traits, "Short Move") {
                    Band::Short
                } else {
                    Band::Medium
                };
                let base = if has(&p.traits, "Huge") {
                    r.rules.bases.huge
                } else if has(&p.traits, "Big") {
                    r.rules.bases.big
                } else {
                    r.rules.bases.normal
                };
                let f = ProfileFacts {
                    side: if p.kind == ProfileKind::Enemy {
                        Side::Enemies
                    } else {
                        Side::Heroes
                    },
                    hero: p.kind == ProfileKind::Hero,
                    quality: p.quality,
                    traits: p.traits.clone(),
                    base,
                    band,
                    cost: p.cost(),
                };
                (p.name.clone(), f)
            })
            .collect();
        Facts {
            profiles,
            measures: [m.short, m.medium, m.long],
            contact: r.rules.bases.contact_tolerance,
            group_max: usize::try_from(r.rules.activation.group_max_models).unwrap_or(usize::MAX),
            behaviours: r
                .behaviours
                .iter()
                .map(|b| {
                    let max = u8::try_from(b.max_actions).unwrap_or(u8::MAX);
                    (b.name.clone(), (max, b.turnover))
                })
                .collect(),
            attack_spells: r
                .spells
                .iter()
                .filter(|s| s.kinds.contains(&SpellKind::Attack))
                .map(|s| s.name.clone())
                .collect(),
            building_integrity: r
                .buildings
                .iter()
                .map(|b| {
                    (
                        b.name.clone(),
                        i32::try_from(b.integrity).unwrap_or(i32::MAX),
                    )
                })
                .collect(),
            barricade_integrity: i32::try_from(r.barricade.integrity).unwrap_or(i32::MAX),
            power_ranges: r
                .rules
                .magic
                .power_ranges
                .iter()
                .map(|x| measure(*x))
                .collect(),
            weapon_range: r
                .weapons
                .iter()
                .map(|w| (w.name.clone(), measure(w.range)))
                .collect(),
            weapons: r
                .profiles
                .iter()
                .filter_map(|p| Some((p.name.clone(), p.weapon.clone()?)))
                .collect(),
        }
    }

    /// The inches of a band.
    pub fn inches(&self, b: Band) -> f64 {
        match b {
            Band::Short => self.measures[0],
            Band::Medium => self.measures[1],
            Band::Long => self.measures[2],
        }
    }
}
