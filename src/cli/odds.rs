//! `village odds`: exact dice odds of an activation, a melee, a shot and a morale check, as text tables
//! (each chance as a fraction beside its percentage, where the report is new), JSON and SVG charts.
//!
//! Parses and prints only. With Combat values or a bare Quality the numbers come from the library's
//! pure evaluation (`village::odds`); with profile names from the kernel itself, every die face tried
//! on a scratch game of the script host (`ScriptHost::odds_trials`, `village::odds::kernel`).

use super::{print_json, write_file};
use crate::{rules_of, script_host, DataArgs};
use anyhow::{anyhow, bail, Result};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use village::args::VariantArgs;
use village::odds::{self, kernel};
use village::roster::{Measure, Rosters, Weapon};
use village::rules::combat::{CombatConstants, MeleeQuery};
use village::state::MoraleTrigger;

/// The kinds of odds.
#[derive(Subcommand)]
pub enum OddsCommand {
    /// Odds of an activation roll: actions gained and turnover.
    Activation {
        /// The model's Quality (2 to 6; 7+ is possible for a wounded hero).
        #[arg(long, short)]
        quality: u8,
        /// How many dice to roll (1 to 3).
        #[arg(long, short)]
        dice: u8,
        /// The model has the Hero trait: one of the dice is an automatic success that is not rolled
        /// (SUPPLEMENT §4), so one die fewer is rolled and only those can fail.
        #[arg(long)]
        hero: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Also draw the odds as an SVG chart in FILE: each outcome's chance, and the chances of at
        /// least and at most each outcome.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        #[command(flatten)]
        variants: VariantArgs,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Odds of a melee attack, using the combat results of SUPPLEMENT §4 (assuming room to recoil).
    /// Give two Combat values, or two profile names: then both models stand in base contact on an
    /// empty table and every die face is resolved by the kernel with the models' traits and scripts.
    Melee {
        /// The attacker: a profile's name ("Orc Warrior"), or its Combat, modifiers included (-20 to
        /// 20).
        #[arg(long, short, allow_negative_numbers = true, value_parser = combatant)]
        attacker: Combatant,
        /// The defender: a profile's name ("Captain Maren"), or its Combat, modifiers included (-20
        /// to 20).
        #[arg(long, short, allow_negative_numbers = true, value_parser = combatant)]
        defender: Combatant,
        /// The attack is a Power Blow (the defender takes the Power Blow penalty).
        #[arg(long)]
        power_blow: bool,
        /// The defender is Defenseless (the attacker gains the bonus; any attacker win defeats).
        #[arg(long)]
        defenseless: bool,
        /// A Free Hack: the defender can stop the attacker but never hurt it.
        #[arg(long)]
        free_hack: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Also draw the odds as an SVG chart in FILE: each outcome's chance, and the chances of at
        /// least and at most each outcome.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        #[command(flatten)]
        variants: VariantArgs,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Odds of a ranged attack (core §3.5): the target's roll is defensive, a natural 1 risks the
    /// weapon. Give two Combat values, or two profile names: then both models stand on an empty table
    /// at --range in clear sight and every die face is resolved by the kernel with their scripts.
    Ranged {
        /// The shooter: a profile's name ("Tobin the Marksman"), or its Combat (-20 to 20).
        #[arg(long, short, allow_negative_numbers = true, value_parser = combatant)]
        shooter: Combatant,
        /// The target: a profile's name ("Orc Warrior"), or its Combat (-20 to 20).
        #[arg(long, short, allow_negative_numbers = true, value_parser = combatant)]
        target: Combatant,
        /// The gap between the bases: short, medium or long (the measures of rosters/rules.toml), or
        /// inches (18 is a Longbow's second Long measure). Default: short.
        #[arg(long, value_parser = range_value)]
        range: Option<Range>,
        /// With Combat values: the shooter's weapon (rosters/weapons.toml), for its range, its
        /// modifiers at --range and how a natural 1 uses it up. A profile shoots its own.
        #[arg(long)]
        weapon: Option<String>,
        /// The target is in Cover (by name: it touches a wall between them).
        #[arg(long)]
        cover: bool,
        /// An Aimed Shot (the target takes the Aimed Shot penalty).
        #[arg(long)]
        aimed: bool,
        /// The shooter has Good Shot (by name: given the trait if its profile lacks it).
        #[arg(long)]
        good_shot: bool,
        /// The target is Defenseless (the shooter gains the bonus; any hit defeats).
        #[arg(long)]
        defenseless: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Also draw the odds as an SVG chart in FILE: each outcome's chance, and the chances of at
        /// least and at most each outcome.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        #[command(flatten)]
        variants: VariantArgs,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Odds of a morale check (core §3.6): the failed dice and what each number of failures does.
    /// Give a Quality, or a profile name: then the model stands alone on an empty table and every die
    /// face is resolved by the kernel with its traits (Steadfast, Fearless, Undead, ...).
    Morale {
        /// The model: a profile's name ("Orc Warrior").
        #[arg(
            long,
            short,
            conflicts_with = "quality",
            required_unless_present = "quality"
        )]
        model: Option<String>,
        /// A bare Quality instead of a profile (1 to 7).
        #[arg(long, short)]
        quality: Option<u8>,
        /// What sets the check off: Fearless, Artificial and Undead models ignore Terror and Gruesome
        /// Kill checks, Enemy Groups check only those two.
        #[arg(long, value_enum, default_value = "terror")]
        trigger: Trigger,
        /// The model has Steadfast: +1 to each die (by name: given the trait if its profile lacks it).
        #[arg(long)]
        steadfast: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Also draw the odds as an SVG chart in FILE: each outcome's chance, and the chances of at
        /// least and at most each outcome.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        #[command(flatten)]
        variants: VariantArgs,
        #[command(flatten)]
        data: DataArgs,
    },
}

impl OddsCommand {
    /// Where this command's rosters and scripts come from.
    pub fn data(&self) -> &DataArgs {
        match self {
            OddsCommand::Activation { data, .. }
            | OddsCommand::Melee { data, .. }
            | OddsCommand::Ranged { data, .. }
            | OddsCommand::Morale { data, .. } => data,
        }
    }

    /// The chart this command writes, if asked for.
    fn svg(&self) -> Option<&Path> {
        match self {
            OddsCommand::Activation { svg, .. }
            | OddsCommand::Melee { svg, .. }
            | OddsCommand::Ranged { svg, .. }
            | OddsCommand::Morale { svg, .. } => svg.as_deref(),
        }
    }
}

/// One side of a melee or a shot as typed: a profile's name or a bare Combat value.
#[derive(Debug, Clone, PartialEq)]
pub enum Combatant {
    /// A Combat value, modifiers included.
    Combat(i32),
    /// A profile's name, as typed (resolved against the rosters later, for "did you mean").
    Profile(String),
}

/// The Combat `village odds` takes, modifiers included: a profile's 0 to 6 with room for every
/// modifier the rules give, and far from where the totals' arithmetic could wrap.
const ODDS_COMBAT: std::ops::RangeInclusive<i64> = -20..=20;

/// A whole number is a Combat value, refused outside [`ODDS_COMBAT`] (never wrapped); anything else is
/// a profile's name.
fn combatant(s: &str) -> Result<Combatant, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("give a profile's name or a Combat value".to_string());
    }
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let v: i64 = t.parse().map_err(|_| {
            format!(
                "Combat {t} is outside {}..={}",
                ODDS_COMBAT.start(),
                ODDS_COMBAT.end()
            )
        })?;
        if !ODDS_COMBAT.contains(&v) {
            return Err(format!(
                "Combat {v} is outside {}..={}",
                ODDS_COMBAT.start(),
                ODDS_COMBAT.end()
            ));
        }
        return i32::try_from(v)
            .map(Combatant::Combat)
            .map_err(|e| e.to_string());
    }
    Ok(Combatant::Profile(t.to_string()))
}

/// A shot's range as typed: a measure of the rules, or inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Range {
    Measure(Measure),
    Inches(f64),
}

impl Range {
    fn inches(self, rosters: &Rosters) -> f64 {
        match self {
            Range::Measure(m) => rosters.rules.measures.get(m),
            Range::Inches(d) => d,
        }
    }
}

fn range_value(s: &str) -> Result<Range, String> {
    let t = s.trim();
    match t.to_lowercase().as_str() {
        "short" => return Ok(Range::Measure(Measure::Short)),
        "medium" => return Ok(Range::Measure(Measure::Medium)),
        "long" => return Ok(Range::Measure(Measure::Long)),
        _ => {}
    }
    let d: f64 = t
        .trim_end_matches('"')
        .parse()
        .map_err(|_| format!("{s:?} is neither short, medium, long nor a number of inches"))?;
    if !d.is_finite() || !(0.0..=1000.0).contains(&d) {
        return Err(format!("a range of {d} inches is outside 0 to 1000"));
    }
    Ok(Range::Inches(d))
}

/// What sets a morale check off (core §3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Trigger {
    /// Charged by a model with Terror.
    Terror,
    /// A Gruesome Kill within Long.
    GruesomeKill,
    /// Its Leader was Defeated.
    LeaderDefeated,
    /// More than half of its side's starting models are gone.
    HalfLost,
}

impl From<Trigger> for MoraleTrigger {
    fn from(t: Trigger) -> Self {
        match t {
            Trigger::Terror => MoraleTrigger::Terror,
            Trigger::GruesomeKill => MoraleTrigger::GruesomeKill,
            Trigger::LeaderDefeated => MoraleTrigger::LeaderDefeated,
            Trigger::HalfLost => MoraleTrigger::HalfLost,
        }
    }
}

/// Both sides as profile names, both as Combat values, or a clear error for one of each.
enum Pairing {
    Names(String, String),
    Values(i32, i32),
}

fn pairing(a: Combatant, b: Combatant, (an, bn): (&str, &str)) -> Result<Pairing> {
    match (a, b) {
        (Combatant::Profile(a), Combatant::Profile(b)) => Ok(Pairing::Names(a, b)),
        (Combatant::Combat(a), Combatant::Combat(b)) => Ok(Pairing::Values(a, b)),
        (Combatant::Profile(p), Combatant::Combat(c))
        | (Combatant::Combat(c), Combatant::Profile(p)) => {
            bail!(
                "--{an} and --{bn} must both be profile names or both Combat values: {p:?} is a profile and {c} a Combat value"
            )
        }
    }
}

/// The rosters of `data` with `variants`' rule constants in place of theirs.
fn rosters_of(data: &DataArgs, variants: &VariantArgs) -> Result<Rosters> {
    let mut rosters = data.rosters()?;
    rosters.rules = rules_of(data, variants)?;
    Ok(rosters)
}

fn odds_error(e: kernel::OddsError) -> anyhow::Error {
    anyhow!("{e}")
}

fn chart(
    path: &Path,
    title: &str,
    note: &str,
    axis: &str,
    outcomes: &[(String, f64)],
) -> Result<()> {
    let svg = village::render::chart::odds_svg(title, note, axis, outcomes);
    write_file(path, svg.as_bytes())?;
    errln!("wrote {}", path.display());
    Ok(())
}

fn first_line(text: &str, or: &str) -> String {
    text.lines().next().unwrap_or(or).to_string()
}

/// `village odds ...`.
pub fn run(which: OddsCommand) -> Result<ExitCode> {
    // The chart is never drawn over a rule or script file of the rosters it reads.
    if let Some(path) = which.svg() {
        super::distinct_outputs(
            &which.data().layers(),
            &[],
            &[village::files::Named { by: "--svg", path }],
        )?;
    }
    match which {
        OddsCommand::Activation {
            quality,
            dice,
            hero,
            json,
            svg,
            variants,
            data,
        } => {
            if !(1..=7).contains(&quality) {
                bail!("--quality must be 1 to 7, got {quality}");
            }
            let rules = rules_of(&data, &variants)?;
            let o = odds::activation(quality, dice, hero, &rules.activation)?;
            if let Some(path) = svg {
                let title = format!(
                    "Activation: Quality {quality}+, {dice} dice{}",
                    if hero { ", Hero" } else { "" }
                );
                let note = format!(
                    "turnover {:.2}%, mean {:.3} actions (village odds activation)",
                    o.turnover * 100.0,
                    o.mean
                );
                chart(
                    &path,
                    &title,
                    &note,
                    "actions gained",
                    &odds::activation_outcomes(&o),
                )?;
            }
            if json {
                print_json(&o)?;
            } else {
                out!("{}", odds::activation_text(quality, dice, hero, &o));
            }
        }
        OddsCommand::Melee {
            attacker,
            defender,
            power_blow,
            defenseless,
            free_hack,
            json,
            svg,
            variants,
            data,
        } => match pairing(attacker, defender, ("attacker", "defender"))? {
            Pairing::Values(attacker, defender) => {
                let k = CombatConstants::from_rules(&rules_of(&data, &variants)?);
                let q = MeleeQuery {
                    attacker,
                    defender,
                    power_blow,
                    defenseless,
                    free_hack,
                };
                let o = odds::melee(&q, &k);
                if let Some(path) = svg {
                    chart(
                        &path,
                        &first_line(&odds::melee_text(&q, &o), "Melee"),
                        "Each result and who suffers it (village odds melee)",
                        "the attack's result, from the worst for the attacker (left) to the best (right)",
                        &odds::melee_outcomes(&q, &o),
                    )?;
                }
                if json {
                    print_json(&o)?;
                } else {
                    out!("{}", odds::melee_text(&q, &o));
                }
            }
            Pairing::Names(attacker, defender) => {
                let q = kernel::MeleeByName {
                    attacker: &attacker,
                    defender: &defender,
                    power_blow,
                    defenseless,
                    free_hack,
                };
                let (pair, t) = script_host(&data, 1)?
                    .odds_trials(&variants.preset, &variants.variants, |trials| {
                        kernel::melee_by_name(trials, &q)
                    })
                    .map_err(odds_error)?;
                let flags = odds::MeleeFlags {
                    power_blow,
                    defenseless,
                    free_hack,
                };
                let o = odds::named_melee(&pair, flags, &t);
                let text = odds::named_melee_text(&o, &t);
                if let Some(path) = svg {
                    chart(
                        &path,
                        &first_line(&text, "Melee"),
                        "Each result and who suffers it, resolved by the kernel (village odds melee)",
                        "the attack's result, from the worst for the attacker (left) to the best (right)",
                        &odds::named_melee_outcomes(&o, &t),
                    )?;
                }
                if json {
                    print_json(&o)?;
                } else {
                    out!("{text}");
                }
            }
        },
        OddsCommand::Ranged {
            shooter,
            target,
            range,
            weapon,
            cover,
            aimed,
            good_shot,
            defenseless,
            json,
            svg,
            variants,
            data,
        } => {
            let setup = odds::ShotSetup {
                distance: None,
                cover,
                aimed,
                good_shot,
                defenseless,
            };
            let short = Range::Measure(Measure::Short);
            let (o, t, by_kernel) = match pairing(shooter, target, ("shooter", "target"))? {
                Pairing::Values(shooter, target) => {
                    let rosters = rosters_of(&data, &variants)?;
                    let weapon = match &weapon {
                        Some(w) => Some(weapon_named(&rosters, w)?),
                        None => None,
                    };
                    let distance = match (weapon, range) {
                        (Some(_), r) => Some(r.unwrap_or(short).inches(&rosters)),
                        (None, None) => None,
                        (None, Some(_)) => bail!(
                            "--range changes a shot with Combat values only through a weapon's modifiers: name the weapon with --weapon"
                        ),
                    };
                    let setup = odds::ShotSetup { distance, ..setup };
                    let q = odds::RangedByCombat {
                        shooter,
                        target,
                        weapon,
                        setup,
                    };
                    let t = odds::ranged_by_combat(&q, &rosters).map_err(odds_error)?;
                    let o = odds::ranged_report(
                        odds::Fighter::bare(shooter, weapon),
                        odds::Fighter::bare(target, None),
                        setup,
                        &t,
                    );
                    (o, t, false)
                }
                Pairing::Names(shooter, target) => {
                    if weapon.is_some() {
                        bail!("--weapon is for Combat values: a profile shoots with its own weapon (rosters)");
                    }
                    let host = script_host(&data, 1)?;
                    let (pair, t, distance) = host
                        .odds_trials(&variants.preset, &variants.variants, |trials| {
                            let distance = range.unwrap_or(short).inches(trials.rosters());
                            let q = kernel::RangedByName {
                                shooter: &shooter,
                                target: &target,
                                distance,
                                cover,
                                aimed,
                                good_shot,
                                defenseless,
                            };
                            kernel::ranged_by_name(trials, &q).map(|(p, t)| (p, t, distance))
                        })
                        .map_err(odds_error)?;
                    let setup = odds::ShotSetup {
                        distance: Some(distance),
                        ..setup
                    };
                    let o = odds::ranged_report(
                        odds::Fighter::of(&pair.attacker),
                        odds::Fighter::of(&pair.defender),
                        setup,
                        &t,
                    );
                    (o, t, true)
                }
            };
            let text = odds::ranged_text(&o, &t, by_kernel);
            if let Some(path) = svg {
                chart(
                    &path,
                    &first_line(&text, "Ranged"),
                    "Each result of the shot (village odds ranged)",
                    "the shot's result, from the worst for the shooter (left) to the best (right)",
                    &odds::ranged_outcomes(&t),
                )?;
            }
            if json {
                print_json(&o)?;
            } else {
                out!("{text}");
            }
        }
        OddsCommand::Morale {
            model,
            quality,
            trigger,
            steadfast,
            json,
            svg,
            variants,
            data,
        } => {
            let trigger = MoraleTrigger::from(trigger);
            let (o, by_kernel) = match (model, quality) {
                (Some(model), _) => {
                    let q = kernel::MoraleByName {
                        model: &model,
                        trigger,
                        steadfast,
                    };
                    let t = script_host(&data, 1)?
                        .odds_trials(&variants.preset, &variants.variants, |trials| {
                            kernel::morale_by_name(trials, &q)
                        })
                        .map_err(odds_error)?;
                    (odds::morale_report(&t, trigger), true)
                }
                (None, Some(quality)) => {
                    if !(1..=7).contains(&quality) {
                        bail!("--quality must be 1 to 7, got {quality}");
                    }
                    let rules = rules_of(&data, &variants)?;
                    (
                        odds::morale_by_quality(quality, trigger, steadfast, &rules).0,
                        false,
                    )
                }
                (None, None) => {
                    bail!("give the model's profile (--model NAME) or a bare --quality")
                }
            };
            let text = odds::morale_text(&o, by_kernel);
            if let Some(path) = svg {
                chart(
                    &path,
                    &first_line(&text, "Morale"),
                    "Failed dice and what they do (village odds morale)",
                    "failed dice, from the most (left) to none (right)",
                    &odds::morale_outcomes(&o),
                )?;
            }
            if json {
                print_json(&o)?;
            } else {
                out!("{text}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The weapon a person means: the exact name, else the one equal to it ignoring case; otherwise the
/// project's "unknown weapon (did you mean ...?)".
fn weapon_named<'r>(rosters: &'r Rosters, typed: &str) -> Result<&'r Weapon> {
    let want = typed.trim();
    if let Some(w) = rosters.weapon(want) {
        return Ok(w);
    }
    let lower = want.to_lowercase();
    let same: Vec<&Weapon> = rosters
        .weapons
        .iter()
        .filter(|w| w.name.to_lowercase() == lower)
        .collect();
    match same.as_slice() {
        [one] => Ok(one),
        _ => bail!(
            "{}",
            village::names::unknown(
                "weapon",
                typed,
                rosters.weapons.iter().map(|w| w.name.as_str())
            )
        ),
    }
}
