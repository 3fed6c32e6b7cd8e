//! Profile cards and the catalogue (`village show NAME`, `village show --list`, the REPL's `:show`,
//! the viewer's profile panel, `m:profile()` in Lua): a profile as a designer reads it — Quality,
//! Combat, its traits with their rule text, weapon, spells with their Power, its signature or Alpha
//! Rule with its text, params and script, its Behaviours, Wave Points — and where each part comes
//! from (built in or a mod, `file:line`); and every hero, enemy, Village Defender, trait, spell,
//! Behaviour, Opportunity and variant with its one-line description.
//!
//! Owns the shape and the wording. It reads the rosters, the roster entries' sources and what the
//! script layer says of each script (handed in as [`ScriptFacts`]); it never loads anything itself.

use crate::roster::{
    Ability, Measure, ParamValue, Profile, ProfileKind, Rosters, Source, SourceTable, Sources,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the script layer knows of one script module, by its key (`signatures/hold_the_line.lua`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct ScriptFact {
    /// As the log names it: `scripts/...` built in, the mod's path otherwise.
    pub file: String,
    /// Its `name` data key, if it has one (a variant's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its `description` data key, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its entry points by name, each with where it is defined (`line N`, or `file:N` when another
    /// file's function).
    pub hooks: Vec<(String, String)>,
}

/// The scripts loaded for a run, by key.
pub type ScriptFacts = BTreeMap<String, ScriptFact>;

/// A script a part names, as the card shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ScriptRef {
    /// The key the roster gives (`traits/tough.lua`).
    pub key: String,
    /// The file it loads from (`scripts/traits/tough.lua`), when loaded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Its entry points with where each is defined.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<(String, String)>,
}

/// One part of a profile: a trait, weapon, spell or Behaviour.
#[derive(Debug, Clone, Serialize)]
pub struct Part {
    pub name: String,
    /// Its rule text.
    pub text: String,
    /// Its numbers, in words ("cost 3", "range Long", "Power 1–3: 3\"/6\"/9\"").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script: Option<ScriptRef>,
    /// Where its roster entry is, when known (absent: not in the rosters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

/// A signature ability or Alpha Rule.
#[derive(Debug, Clone, Serialize)]
pub struct AbilityPart {
    pub name: String,
    pub text: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, ParamValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script: Option<ScriptRef>,
}

/// A profile as `village show` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct Card {
    pub name: String,
    /// "hero", "enemy" or "defender".
    pub kind: String,
    /// "hero", "mob", "elite", "boss" or "defender".
    pub tier: String,
    pub quality: u8,
    pub combat: u8,
    /// Base diameter in inches.
    pub base: f64,
    /// Its movement band and its length ("Medium (6\")").
    pub moves: String,
    /// By the formula of SUPPLEMENT §8.
    pub wave_points: i64,
    /// As printed in the roster, when printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub printed_wave_points: Option<i64>,
    pub traits: Vec<Part>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weapon: Option<Part>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<Part>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<AbilityPart>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha: Option<AbilityPart>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub behaviours: Vec<Part>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Where the profile's roster entry is (its signature or Alpha Rule is written inside it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

fn measure_words(m: Measure) -> &'static str {
    match m {
        Measure::Short => "Short",
        Measure::Medium => "Medium",
        Measure::Long => "Long",
    }
}

fn script_ref(key: &Option<String>, scripts: &ScriptFacts) -> Option<ScriptRef> {
    let key = key.as_ref()?;
    let fact = scripts.get(key);
    Some(ScriptRef {
        key: key.clone(),
        file: fact.map(|f| f.file.clone()),
        hooks: fact.map(|f| f.hooks.clone()).unwrap_or_default(),
    })
}

fn ability(a: &Ability, scripts: &ScriptFacts) -> AbilityPart {
    AbilityPart {
        name: a.name.clone(),
        text: a.text.clone(),
        params: a.params.clone(),
        script: script_ref(&a.script, scripts),
    }
}

/// The profile named `name` as a card; `None` when the rosters have no such profile.
pub fn card(
    rosters: &Rosters,
    sources: &Sources,
    scripts: &ScriptFacts,
    name: &str,
) -> Option<Card> {
    let p = rosters.profile(name)?;
    Some(card_of(rosters, sources, scripts, p))
}

fn card_of(rosters: &Rosters, sources: &Sources, scripts: &ScriptFacts, p: &Profile) -> Card {
    let rules = &rosters.rules;
    let band = p.move_band();
    let traits = p
        .traits
        .iter()
        .map(|t| match rosters.trait_named(t) {
            Some(tr) => Part {
                name: tr.name.clone(),
                text: tr.text.clone(),
                details: vec![format!("cost {}", tr.cost)],
                script: script_ref(&tr.script, scripts),
                source: sources.of(SourceTable::Trait, t).cloned(),
            },
            None => Part {
                name: t.clone(),
                text: String::new(),
                details: Vec::new(),
                script: None,
                source: None,
            },
        })
        .collect();
    let weapon = p.weapon.as_ref().map(|w| {
        let found = rosters.weapons.iter().find(|x| &x.name == w);
        Part {
            name: w.clone(),
            text: found.map(|x| x.text.clone()).unwrap_or_default(),
            details: found
                .map(|x| {
                    vec![
                        format!(
                            "range {} ({}\")",
                            measure_words(x.range),
                            rules.measures.get(x.range)
                        ),
                        format!("cost {}", x.cost),
                    ]
                })
                .unwrap_or_default(),
            script: found.and_then(|x| script_ref(&x.script, scripts)),
            source: sources.of(SourceTable::Weapon, w).cloned(),
        }
    });
    // Power 1, 2, 3 reach the ranges of rules.magic (core §3.7).
    let power: Vec<String> = rules
        .magic
        .power_ranges
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "{} {} ({}\")",
                i + 1,
                measure_words(*m),
                rules.measures.get(*m)
            )
        })
        .collect();
    let spells = p
        .spells
        .iter()
        .map(|s| {
            let found = rosters.spells.iter().find(|x| &x.name == s);
            let mut details = Vec::new();
            if let Some(x) = found {
                let kinds: Vec<String> = x
                    .kinds
                    .iter()
                    .map(|k| format!("{k:?}").to_lowercase())
                    .collect();
                details.push(kinds.join(", "));
            }
            details.push(format!("Power {}", power.join(", ")));
            Part {
                name: s.clone(),
                text: found.map(|x| x.text.clone()).unwrap_or_default(),
                details,
                script: found.and_then(|x| script_ref(&x.script, scripts)),
                source: sources.of(SourceTable::Spell, s).cloned(),
            }
        })
        .collect();
    let behaviours = p
        .behaviours
        .iter()
        .map(|b| {
            let found = rosters.behaviour(b);
            Part {
                name: b.clone(),
                text: found
                    .map(|x| format!("target: {} Melee: {}", x.target, x.melee))
                    .unwrap_or_default(),
                details: found
                    .map(|x| {
                        let mut d = vec![format!("plays {}", ordinal(x.order))];
                        if let Some(f) = &x.fallback_behaviour {
                            d.push(format!("falls back on {f}"));
                        }
                        d
                    })
                    .unwrap_or_default(),
                script: found.and_then(|x| script_ref(&x.script, scripts)),
                source: sources.of(SourceTable::Behaviour, b).cloned(),
            }
        })
        .collect();
    Card {
        name: p.name.clone(),
        kind: p.kind.as_str().to_string(),
        tier: p.tier.as_str().to_string(),
        quality: p.quality,
        combat: p.combat,
        base: p.base_diameter(rules),
        moves: format!("{} ({}\")", measure_words(band), rules.measures.get(band)),
        wave_points: p.wave_points,
        printed_wave_points: p.printed_wave_points,
        traits,
        weapon,
        spells,
        signature: p.signature.as_ref().map(|a| ability(a, scripts)),
        alpha: p.alpha.as_ref().map(|a| ability(a, scripts)),
        behaviours,
        text: p.text.clone(),
        source: sources.of(SourceTable::Profile, &p.name).cloned(),
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix} in the enemy turn")
}

/// Where a part comes from, in words: "rosters/traits.toml:21, built in" or "... , mod 1".
fn from(source: &Option<Source>) -> String {
    match source {
        Some(s) if s.layer == 0 => format!("{}, built in", s.at()),
        Some(s) => format!("{}, mod {}", s.at(), s.layer),
        None => "not in the rosters".to_string(),
    }
}

fn script_words(s: &ScriptRef) -> String {
    let file = s
        .file
        .clone()
        .unwrap_or_else(|| format!("{} (not loaded)", s.key));
    if s.hooks.is_empty() {
        return file;
    }
    let hooks: Vec<String> = s
        .hooks
        .iter()
        .map(|(h, at)| format!("{h} ({at})"))
        .collect();
    format!("{file}: {}", hooks.join(", "))
}

/// A params value as TOML writes it.
fn param_words(v: &ParamValue) -> String {
    match v {
        ParamValue::Bool(b) => b.to_string(),
        ParamValue::Int(i) => i.to_string(),
        ParamValue::Float(f) => f.to_string(),
        ParamValue::Text(t) => format!("{t:?}"),
        ParamValue::List(l) => format!(
            "[{}]",
            l.iter().map(param_words).collect::<Vec<_>>().join(", ")
        ),
        ParamValue::Table(t) => format!(
            "{{ {} }}",
            t.iter()
                .map(|(k, v)| format!("{k} = {}", param_words(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl Card {
    /// The card as text, for a terminal.
    pub fn text(&self) -> String {
        let mut o = String::new();
        let kind = match self.kind.as_str() {
            "defender" => "Village Defender".to_string(),
            "enemy" => format!("{} enemy", self.tier),
            k => k.to_string(),
        };
        let _ = writeln!(
            o,
            "{} — {kind}, Quality {}+, Combat {}",
            self.name, self.quality, self.combat
        );
        let _ = writeln!(o, "  from {}", from(&self.source));
        let printed = match self.printed_wave_points {
            Some(p) if p != self.wave_points => format!(", printed {p}"),
            Some(_) => ", as printed".to_string(),
            None => String::new(),
        };
        let _ = writeln!(
            o,
            "  base {}\" · moves {} · Wave Points {} by the formula{printed}",
            self.base, self.moves, self.wave_points
        );
        if let Some(t) = &self.text {
            let _ = writeln!(o, "  {t}");
        }
        let part = |o: &mut String, p: &Part| {
            let details = if p.details.is_empty() {
                String::new()
            } else {
                format!(" ({})", p.details.join("; "))
            };
            let _ = writeln!(o, "    {}{details} — {}", p.name, p.text);
            if let Some(s) = &p.script {
                let _ = writeln!(o, "      script {}", script_words(s));
            }
            let _ = writeln!(o, "      from {}", from(&p.source));
        };
        let _ = writeln!(o, "  Traits:");
        if self.traits.is_empty() {
            let _ = writeln!(o, "    none");
        }
        for t in &self.traits {
            part(&mut o, t);
        }
        if let Some(w) = &self.weapon {
            let _ = writeln!(o, "  Weapon:");
            part(&mut o, w);
        }
        if !self.spells.is_empty() {
            let _ = writeln!(o, "  Spells:");
            for s in &self.spells {
                part(&mut o, s);
            }
        }
        for (what, a) in [("Signature", &self.signature), ("Alpha Rule", &self.alpha)] {
            let Some(a) = a else { continue };
            let _ = writeln!(o, "  {what}: {} — {}", a.name, a.text);
            if !a.params.is_empty() {
                let params: Vec<String> = a
                    .params
                    .iter()
                    .map(|(k, v)| format!("{k} = {}", param_words(v)))
                    .collect();
                let _ = writeln!(o, "    params {}", params.join(", "));
            }
            if let Some(s) = &a.script {
                let _ = writeln!(o, "    script {}", script_words(s));
            }
            let _ = writeln!(o, "    from {}", from(&self.source));
        }
        if !self.behaviours.is_empty() {
            let _ = writeln!(o, "  Behaviours:");
            for b in &self.behaviours {
                part(&mut o, b);
            }
        }
        o
    }
}

/// One line of the catalogue: a name and its one-line description.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub name: String,
    pub description: String,
}

/// Every hero, enemy, Village Defender, trait, spell, Behaviour, Opportunity and variant with its
/// one-line description, by section, in the rosters' order (variants by name).
pub fn catalogue(rosters: &Rosters, scripts: &ScriptFacts) -> Vec<(&'static str, Vec<Entry>)> {
    let profiles = |kind: ProfileKind| -> Vec<Entry> {
        rosters
            .profiles
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| {
                let what = match (&p.signature, &p.alpha) {
                    (Some(s), _) => format!("; signature {}: {}", s.name, s.text),
                    (None, Some(a)) => format!("; Alpha Rule {}: {}", a.name, a.text),
                    _ => String::new(),
                };
                let tier = match kind {
                    ProfileKind::Enemy => format!("{}, ", p.tier.as_str()),
                    _ => String::new(),
                };
                let behaviours = if p.behaviours.is_empty() {
                    String::new()
                } else {
                    format!(", {}", p.behaviours.join(" or "))
                };
                Entry {
                    name: p.name.clone(),
                    description: format!(
                        "{tier}Q{}+ C{}, {} Wave Points{behaviours}{what}",
                        p.quality, p.combat, p.wave_points
                    ),
                }
            })
            .collect()
    };
    let named = |name: &str, text: &str| Entry {
        name: name.to_string(),
        description: text.to_string(),
    };
    let variants: Vec<Entry> = scripts
        .iter()
        .filter(|(k, _)| k.starts_with("variants/"))
        .map(|(k, f)| {
            let stem = k
                .trim_start_matches("variants/")
                .trim_end_matches(".lua")
                .to_string();
            let description = match (&f.name, &f.description) {
                (Some(n), Some(d)) => format!("{n}: {d}"),
                (None, Some(d)) => d.clone(),
                (Some(n), None) => n.clone(),
                (None, None) => "(no description)".to_string(),
            };
            Entry {
                name: stem,
                description,
            }
        })
        .collect();
    vec![
        ("Heroes", profiles(ProfileKind::Hero)),
        ("Enemies", profiles(ProfileKind::Enemy)),
        ("Village Defenders", profiles(ProfileKind::Defender)),
        (
            "Traits",
            rosters
                .traits
                .iter()
                .map(|t| named(&t.name, &t.text))
                .collect(),
        ),
        (
            "Spells",
            rosters
                .spells
                .iter()
                .map(|s| named(&s.name, &s.text))
                .collect(),
        ),
        (
            "Behaviours",
            rosters
                .behaviours
                .iter()
                .map(|b| named(&b.name, &format!("target: {}", b.target)))
                .collect(),
        ),
        (
            "Opportunities",
            rosters
                .opportunities
                .iter()
                .map(|o| named(&format!("{} {}", o.roll, o.name), &o.text))
                .collect(),
        ),
        ("Variants", variants),
    ]
}

/// The catalogue as text: a section a heading, an entry a line.
pub fn catalogue_text(sections: &[(&'static str, Vec<Entry>)]) -> String {
    let mut o = String::new();
    for (i, (title, entries)) in sections.iter().enumerate() {
        if i > 0 {
            o.push('\n');
        }
        let _ = writeln!(o, "{title} ({}):", entries.len());
        let width = entries
            .iter()
            .map(|e| e.name.chars().count())
            .max()
            .unwrap_or(0);
        for e in entries {
            let pad = width - e.name.chars().count();
            let _ = writeln!(o, "  {}{}  {}", e.name, " ".repeat(pad), e.description);
        }
    }
    o
}

/// The rules a run plays under, in words: each variant's name and description ("Power Blow is
/// Lethal: A winning Power Blow defeats ..."), or the plain rules.
pub fn rules_description(scripts: &ScriptFacts, variants: &[String]) -> String {
    if variants.is_empty() {
        return "the rules as printed, no variant".to_string();
    }
    variants
        .iter()
        .map(|v| match scripts.get(&format!("variants/{v}.lua")) {
            Some(f) => match (&f.name, &f.description) {
                (Some(n), Some(d)) => format!("{n}: {d}"),
                (None, Some(d)) => d.clone(),
                (Some(n), None) => n.clone(),
                (None, None) => format!("{v} (no description)"),
            },
            None => format!("{v} (not loaded)"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}
