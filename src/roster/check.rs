//! `village check`: the report of a roster load — every profile with its recomputed Wave Points, the
//! warnings (printed cost ≠ formula) and the errors — as serde data (`--json`) or an aligned text table.
//!
//! Never exits or prints: the CLI decides what to do with the report (non-zero exit when
//! [`CheckReport::ok`] is false).

use super::load_checked;
use super::schema::{ProfileKind, Tier, TraitNeed};
use crate::names::count;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// One profile line of the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckProfile {
    pub name: String,
    pub kind: ProfileKind,
    pub tier: Tier,
    pub quality: u8,
    pub combat: u8,
    pub traits: Vec<String>,
    /// By the formula; `None` when the rules themselves failed to load.
    pub wave_points: Option<i64>,
    /// As printed in the file, if printed.
    pub printed: Option<i64>,
    pub behaviours: Vec<String>,
    pub weapon: Option<String>,
    pub spells: Vec<String>,
    /// Traits as shown in the text table (`Shooter (Javelins)`); not part of the JSON shape.
    #[serde(skip)]
    pub trait_labels: Vec<String>,
}

/// The result of checking a set of layers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckReport {
    pub profiles: Vec<CheckProfile>,
    pub warnings: Vec<String>,
    pub errors: Vec<String>,
}

/// Loads and validates the layers (built-in root first, then `--mod` folders) and reports. Profiles
/// that parsed are listed even when other entries have errors.
pub fn check(layers: &[PathBuf]) -> CheckReport {
    let l = load_checked(layers);
    let have_rules = l.rules.is_some();
    let needs: BTreeMap<&str, Option<TraitNeed>> = l
        .traits
        .iter()
        .map(|d| (d.value.name.as_str(), d.value.needs))
        .collect();
    CheckReport {
        profiles: l
            .profiles
            .iter()
            .map(|e| {
                let p = &e.value;
                CheckProfile {
                    name: p.name.clone(),
                    kind: p.kind,
                    tier: p.tier,
                    quality: p.quality,
                    combat: p.combat,
                    traits: p.traits.clone(),
                    wave_points: have_rules.then_some(p.wave_points),
                    printed: p.printed_wave_points,
                    behaviours: p.behaviours.clone(),
                    weapon: p.weapon.clone(),
                    spells: p.spells.clone(),
                    trait_labels: p
                        .traits
                        .iter()
                        .map(|t| {
                            let needs = needs.get(t.as_str()).copied().flatten();
                            match (needs, &p.weapon) {
                                (Some(TraitNeed::Weapon), Some(w)) => format!("{t} ({w})"),
                                (Some(TraitNeed::Spells), _) if !p.spells.is_empty() => {
                                    format!("{t} ({})", p.spells.join(", "))
                                }
                                _ => t.clone(),
                            }
                        })
                        .collect(),
                }
            })
            .collect(),
        warnings: l.warnings.iter().map(ToString::to_string).collect(),
        errors: l.errors.iter().map(ToString::to_string).collect(),
    }
}

impl CheckReport {
    /// True when there are no errors (warnings allowed).
    pub fn ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// A readable report: an aligned profile table, then warnings, errors and a summary line.
    pub fn to_text(&self) -> String {
        let header = [
            "name",
            "kind",
            "tier",
            "Q",
            "C",
            "traits",
            "WP",
            "printed",
            "Behaviour",
        ];
        let rows: Vec<[String; 9]> = self
            .profiles
            .iter()
            .map(|p| {
                let labels = if p.trait_labels.len() == p.traits.len() {
                    &p.trait_labels
                } else {
                    &p.traits
                };
                let traits = labels.join(", ");
                [
                    p.name.clone(),
                    p.kind.as_str().to_string(),
                    p.tier.as_str().to_string(),
                    format!("{}+", p.quality),
                    p.combat.to_string(),
                    traits,
                    p.wave_points.map_or("-".into(), |w| w.to_string()),
                    p.printed.map_or("-".into(), |w| w.to_string()),
                    p.behaviours.join(" or "),
                ]
            })
            .collect();
        let mut widths = header.map(|h| h.chars().count());
        for r in &rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        // Numbers align right, text left.
        let right = [false, false, false, true, true, false, true, true, false];
        let mut out = String::new();
        let mut line = |cells: &[String]| {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate() {
                let pad = widths[i].saturating_sub(c.chars().count());
                if i > 0 {
                    s.push_str("  ");
                }
                if right[i] {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                } else {
                    s.push_str(c);
                    if i + 1 < cells.len() {
                        s.push_str(&" ".repeat(pad));
                    }
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        line(&header.map(String::from));
        line(&widths.map(|w| "-".repeat(w)));
        for r in &rows {
            line(r);
        }
        for (one, many, items) in [
            ("warning", "warnings", &self.warnings),
            ("error", "errors", &self.errors),
        ] {
            if !items.is_empty() {
                let _ = writeln!(out, "\n{}:", count(items.len(), one, many));
                for i in items {
                    let _ = writeln!(out, "  {i}");
                }
            }
        }
        let _ = writeln!(
            out,
            "\n{}, {}, {}",
            count(self.profiles.len(), "profile", "profiles"),
            count(self.warnings.len(), "warning", "warnings"),
            count(self.errors.len(), "error", "errors")
        );
        out
    }
}
