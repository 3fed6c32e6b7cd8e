//! The reports of `village odds melee` by profile name, `village odds ranged` and `village odds
//! morale`: their JSON shapes (chances and the same chances as exact fractions), the text tables with
//! each fraction beside its percentage, and the outcomes their charts draw. With Combat values or a
//! bare Quality the counts come from the pure evaluation functions (`rules::combat::ranged_counts`,
//! `dice::morale_counts_of`); by profile name from the kernel itself ([`super::kernel`]).
//!
//! Owns the shapes and the words only: it never decides a result.

use super::kernel::{CombatTally, MoraleTally, Pair};
use super::{fraction, pct};
use crate::roster::{Exhaustion, OnHit, Profile, Rosters, Weapon};
use crate::rules::combat::{self, CombatConstants, RangedQuery};
use crate::rules::ranged::{weapon_modifiers, weapon_range};
use crate::state::{CombatResult, Modifier, MoraleResult, MoraleTrigger, Role};
use serde::Serialize;
use std::fmt::Write;

/// What the loser of a won roll suffered once the kernel and the scripts applied the result, by
/// result: counts, chances or fractions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Suffered<T> {
    /// A Gruesome Kill (the loser Defeated, whatever its traits).
    pub gruesome: T,
    /// Defeated.
    pub defeated: T,
    /// A Tough model's Defeated turned into a Wound (core §3.8).
    pub wound: T,
    /// Defenseless (an even winner's die, or no room to Recoil).
    pub defenseless: T,
    /// Recoiled.
    pub recoil: T,
    /// Entangled instead (Entangle, a Harpoon).
    pub entangled: T,
    /// Beaten but unharmed: a script replaced the result with none (Heavy Armor).
    pub unharmed: T,
}

impl Suffered<u64> {
    /// Count `n` outcomes of the applied result `r`.
    pub fn add(&mut self, r: CombatResult, n: u64) {
        match r {
            CombatResult::Gruesome => self.gruesome += n,
            CombatResult::Defeated => self.defeated += n,
            CombatResult::Wound => self.wound += n,
            CombatResult::Defenseless => self.defenseless += n,
            CombatResult::Recoil => self.recoil += n,
            CombatResult::Entangled => self.entangled += n,
            CombatResult::None | CombatResult::Tie => self.unharmed += n,
        }
    }

    /// Every won roll, whatever it did.
    pub fn total(&self) -> u64 {
        self.rows().iter().map(|(_, n)| n).sum()
    }

    /// Each result with its words, from the worst for the loser to the mildest.
    fn rows(&self) -> [(&'static str, u64); 7] {
        [
            ("Gruesome Kill", self.gruesome),
            ("Defeated", self.defeated),
            ("Wound", self.wound),
            ("Defenseless", self.defenseless),
            ("Entangled", self.entangled),
            ("Recoil", self.recoil),
            ("beaten, unharmed", self.unharmed),
        ]
    }

    fn map<U>(&self, f: impl Fn(u64) -> U) -> Suffered<U> {
        Suffered {
            gruesome: f(self.gruesome),
            defeated: f(self.defeated),
            wound: f(self.wound),
            defenseless: f(self.defenseless),
            recoil: f(self.recoil),
            entangled: f(self.entangled),
            unharmed: f(self.unharmed),
        }
    }
}

/// The rulebook's four results always have a row; the others only when they happen.
fn shown(name: &str, counts: &[u64]) -> bool {
    matches!(
        name,
        "Gruesome Kill" | "Defeated" | "Defenseless" | "Recoil"
    ) || counts.iter().any(|c| *c > 0)
}

/// One side of an odds question: a profile, or a bare Combat value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fighter {
    /// The profile's name; `None` for a bare Combat value.
    pub name: Option<String>,
    /// Its Combat, before modifiers.
    pub combat: i32,
    /// The profile's Quality.
    pub quality: Option<u8>,
    /// The profile's traits.
    pub traits: Vec<String>,
    /// Its ranged weapon, if any.
    pub weapon: Option<String>,
}

impl Fighter {
    /// A profile as the rosters give it.
    pub fn of(p: &Profile) -> Self {
        Fighter {
            name: Some(p.name.clone()),
            combat: i32::from(p.combat),
            quality: Some(p.quality),
            traits: p.traits.clone(),
            weapon: p.weapon.clone(),
        }
    }

    /// A bare Combat value, with the weapon named for it, if any.
    pub fn bare(combat: i32, weapon: Option<&Weapon>) -> Self {
        Fighter {
            name: None,
            combat,
            quality: None,
            traits: Vec::new(),
            weapon: weapon.map(|w| w.name.clone()),
        }
    }

    /// "Orc Warrior (C3)" or "C3"; with its weapon when `weapon` is asked.
    fn title(&self, weapon: bool) -> String {
        let w = match (&self.weapon, weapon) {
            (Some(w), true) => format!(", {w}"),
            _ => String::new(),
        };
        match &self.name {
            Some(n) => format!("{n} (C{}{w})", self.combat),
            None if w.is_empty() => format!("C{}", self.combat),
            None => format!("C{}{w}", self.combat),
        }
    }

    fn who(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| format!("C{}", self.combat))
    }
}

/// Something else a side suffered beside the result (Quality worsened by Poison, a morale check), with
/// its chance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Also {
    /// Who suffers it: `attacker` or `defender` (a shot's shooter or target).
    pub suffers: Role,
    /// What, in words, with the script that did it.
    pub what: String,
    /// Its chance.
    pub chance: f64,
    /// Its chance as an exact fraction.
    pub fraction: String,
}

fn also_of(t: &CombatTally) -> Vec<Also> {
    t.also
        .iter()
        .map(|(role, what, n)| Also {
            suffers: *role,
            what: what.clone(),
            chance: *n as f64 / t.outcomes as f64,
            fraction: fraction(*n, t.outcomes),
        })
        .collect()
}

/// `village odds melee` by profile names: the rulebook's keys of [`super::MeleeOdds`] (with Wound,
/// Entangled and unharmed besides, as the kernel applied the results), the modifiers and the rules
/// that changed a result with their sources, and every chance as a fraction of `outcomes`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NamedMeleeOdds {
    pub attacker: Fighter,
    pub defender: Fighter,
    pub power_blow: bool,
    pub defenseless: bool,
    pub free_hack: bool,
    /// The equally likely outcomes the chances are fractions of (6^dice).
    pub outcomes: u64,
    /// The most dice one melee rolled (two, or more when a result rolls its own).
    pub dice: usize,
    pub modifiers: Vec<Modifier>,
    /// The rules and scripts that changed a result, with their sources.
    pub rules: Vec<String>,
    pub tie: f64,
    /// What the defender suffers when the attacker wins.
    pub attacker_wins: Suffered<f64>,
    /// What the attacker suffers when the defender wins.
    pub defender_wins: Suffered<f64>,
    /// A Free Hack target's winning defensive roll.
    pub no_effect: f64,
    pub also: Vec<Also>,
    pub fractions: NamedMeleeFractions,
}

/// [`NamedMeleeOdds`] as exact fractions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NamedMeleeFractions {
    pub tie: String,
    pub attacker_wins: Suffered<String>,
    pub defender_wins: Suffered<String>,
    pub no_effect: String,
}

/// The options of a melee by name, as the report shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MeleeFlags {
    /// A Power Blow.
    pub power_blow: bool,
    /// The defender started Defenseless.
    pub defenseless: bool,
    /// A Free Hack.
    pub free_hack: bool,
}

/// The report of a melee by profile names.
pub fn named_melee(pair: &Pair, flags: MeleeFlags, t: &CombatTally) -> NamedMeleeOdds {
    let p = |n: u64| n as f64 / t.outcomes as f64;
    let f = |n: u64| fraction(n, t.outcomes);
    NamedMeleeOdds {
        attacker: Fighter::of(&pair.attacker),
        defender: Fighter::of(&pair.defender),
        power_blow: flags.power_blow,
        defenseless: flags.defenseless,
        free_hack: flags.free_hack,
        outcomes: t.outcomes,
        dice: t.dice,
        modifiers: t.modifiers.clone(),
        rules: t.rules.clone(),
        tie: p(t.tie),
        attacker_wins: t.attacker_wins.map(p),
        defender_wins: t.defender_wins.map(p),
        no_effect: p(t.no_effect),
        also: also_of(t),
        fractions: NamedMeleeFractions {
            tie: f(t.tie),
            attacker_wins: t.attacker_wins.map(f),
            defender_wins: t.defender_wins.map(f),
            no_effect: f(t.no_effect),
        },
    }
}

/// A count as its fraction and percentage, 17 characters wide: "     5/36  13.89%".
fn cell(n: u64, of: u64) -> String {
    super::chance_cell(&fraction(n, of), n as f64 / of.max(1) as f64)
}

fn modifier_lines(s: &mut String, mods: &[Modifier], whose: impl Fn(Role) -> String) {
    if mods.is_empty() {
        let _ = writeln!(s, "  modifiers: none");
        return;
    }
    let _ = writeln!(s, "  modifiers:");
    for m in mods {
        let _ = writeln!(
            s,
            "    {:+} to {}: {} ({})",
            m.value,
            whose(m.to),
            m.reason,
            m.source
        );
    }
}

fn rule_lines(s: &mut String, rules: &[String]) {
    if rules.is_empty() {
        return;
    }
    let _ = writeln!(s, "  rules that changed a result:");
    for r in rules {
        let _ = writeln!(s, "    {r}");
    }
}

fn footer(s: &mut String, outcomes: u64, dice: usize, kernel: bool) {
    let how = if kernel {
        "each resolved by the kernel with its scripts"
    } else {
        "each read from the results table"
    };
    let _ = writeln!(
        s,
        "  exact over {outcomes} equally likely outcomes ({}), {how}",
        crate::names::count(dice, "die", "dice")
    );
}

fn flag_words(pairs: &[(bool, &str)]) -> String {
    let on: Vec<&str> = pairs.iter().filter(|(b, _)| *b).map(|(_, w)| *w).collect();
    if on.is_empty() {
        String::new()
    } else {
        format!(" ({})", on.join(", "))
    }
}

/// A readable table of a melee by profile names: each chance as a fraction and a percentage.
pub fn named_melee_text(o: &NamedMeleeOdds, t: &CombatTally) -> String {
    let mut s = String::new();
    let flags = flag_words(&[
        (o.power_blow, "Power Blow"),
        (o.defenseless, "defender Defenseless"),
        (o.free_hack, "Free Hack"),
    ]);
    let _ = writeln!(
        s,
        "Melee: {} attacks {}{flags}",
        o.attacker.title(false),
        o.defender.title(false)
    );
    let (a, d) = (o.attacker.who(), o.defender.who());
    modifier_lines(&mut s, &o.modifiers, |r| match r {
        Role::Attacker => a.clone(),
        Role::Defender => d.clone(),
    });
    rule_lines(&mut s, &o.rules);
    let n = t.outcomes;
    let _ = writeln!(
        s,
        "  {:<18}{:>19}{:>19}",
        "result", "defender suffers", "attacker suffers"
    );
    for ((name, dn), (_, an)) in t
        .attacker_wins
        .rows()
        .into_iter()
        .zip(t.defender_wins.rows())
    {
        if shown(name, &[dn, an]) {
            let _ = writeln!(s, "  {name:<18}{:>19}{:>19}", cell(dn, n), cell(an, n));
        }
    }
    let _ = writeln!(
        s,
        "  {:<18}{:>19}{:>19}",
        "any win",
        cell(t.attacker_wins.total(), n),
        cell(t.defender_wins.total(), n)
    );
    let _ = writeln!(s, "  {:<18}{:>19}", "tie (no effect)", cell(t.tie, n));
    if o.free_hack {
        let _ = writeln!(s, "  {:<18}{:>19}", "defender holds", cell(t.no_effect, n));
    }
    also_lines(&mut s, t, |r| match r {
        Role::Attacker => a.clone(),
        Role::Defender => d.clone(),
    });
    footer(&mut s, n, t.dice, true);
    s
}

fn also_lines(s: &mut String, t: &CombatTally, whose: impl Fn(Role) -> String) {
    for (role, what, c) in &t.also {
        let _ = writeln!(
            s,
            "  also, {}: {what}  {}",
            whose(*role),
            cell(*c, t.outcomes).trim_start()
        );
    }
}

/// A won roll's results as a chart's bars, from the mildest to the worst for the loser (`who` names
/// it); the rows that never happen and are not the rulebook's four are left out.
fn suffered_bars(
    who: &str,
    s: &Suffered<u64>,
    other: &Suffered<u64>,
    of: u64,
) -> Vec<(String, f64)> {
    s.rows()
        .into_iter()
        .zip(other.rows())
        .filter(|((name, a), (_, b))| shown(name, &[*a, *b]))
        .map(|((name, c), _)| (format!("{who}\n{name}"), c as f64 / of as f64))
        .rev()
        .collect()
}

/// A melee by names as a chart's outcomes, from the worst for the attacker to the best, as
/// [`super::melee_outcomes`] orders them.
pub fn named_melee_outcomes(o: &NamedMeleeOdds, t: &CombatTally) -> Vec<(String, f64)> {
    let n = t.outcomes;
    let mut out: Vec<(String, f64)> =
        suffered_bars("attacker", &t.defender_wins, &t.attacker_wins, n)
            .into_iter()
            .rev()
            .collect();
    if o.free_hack {
        out.push(("defender\nholds".to_string(), t.no_effect as f64 / n as f64));
    }
    out.push(("tie".to_string(), t.tie as f64 / n as f64));
    out.extend(suffered_bars(
        "defender",
        &t.attacker_wins,
        &t.defender_wins,
        n,
    ));
    out
}

/// How a shot is set up, beside its two sides.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ShotSetup {
    /// The gap between the bases, in inches, when given.
    pub distance: Option<f64>,
    /// The target is in Cover.
    pub cover: bool,
    /// An Aimed Shot.
    pub aimed: bool,
    /// The shooter has Good Shot.
    pub good_shot: bool,
    /// The target is Defenseless.
    pub defenseless: bool,
}

/// `village odds ranged`: what the target suffers when the shooter wins (core §3.5: the target's roll
/// is defensive, it never hurts the shooter), the target holding, the tie, the weapon breaking, the
/// modifiers with their sources, and every chance as a fraction of `outcomes`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RangedOdds {
    pub shooter: Fighter,
    pub target: Fighter,
    /// The weapon shot with, if known.
    pub weapon: Option<String>,
    /// The gap between the bases, in inches.
    pub distance: Option<f64>,
    pub cover: bool,
    pub aimed: bool,
    pub good_shot: bool,
    pub defenseless: bool,
    pub outcomes: u64,
    pub dice: usize,
    pub modifiers: Vec<Modifier>,
    pub rules: Vec<String>,
    pub tie: f64,
    /// What the target suffers when the shooter wins.
    pub shooter_wins: Suffered<f64>,
    /// The target's defensive roll won.
    pub target_holds: f64,
    /// The weapon is broken or exhausted by a natural 1 (`None` when no weapon is named).
    pub weapon_broken: Option<f64>,
    pub also: Vec<Also>,
    pub fractions: RangedFractions,
}

/// [`RangedOdds`] as exact fractions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RangedFractions {
    pub tie: String,
    pub shooter_wins: Suffered<String>,
    pub target_holds: String,
    pub weapon_broken: Option<String>,
}

/// The report of a shot, from its counts.
pub fn ranged_report(
    shooter: Fighter,
    target: Fighter,
    setup: ShotSetup,
    t: &CombatTally,
) -> RangedOdds {
    let p = |n: u64| n as f64 / t.outcomes as f64;
    let f = |n: u64| fraction(n, t.outcomes);
    let armed = shooter.weapon.is_some();
    RangedOdds {
        weapon: shooter.weapon.clone(),
        shooter,
        target,
        distance: setup.distance,
        cover: setup.cover,
        aimed: setup.aimed,
        good_shot: setup.good_shot,
        defenseless: setup.defenseless,
        outcomes: t.outcomes,
        dice: t.dice,
        modifiers: t.modifiers.clone(),
        rules: t.rules.clone(),
        tie: p(t.tie),
        shooter_wins: t.attacker_wins.map(p),
        target_holds: p(t.no_effect),
        weapon_broken: armed.then(|| p(t.weapon_broken)),
        also: also_of(t),
        fractions: RangedFractions {
            tie: f(t.tie),
            shooter_wins: t.attacker_wins.map(f),
            target_holds: f(t.no_effect),
            weapon_broken: armed.then(|| f(t.weapon_broken)),
        },
    }
}

/// A shot with Combat values (`village odds ranged --shooter 3 --target 2`).
#[derive(Debug, Clone, Copy)]
pub struct RangedByCombat<'a> {
    /// The shooter's Combat.
    pub shooter: i32,
    /// The target's Combat.
    pub target: i32,
    /// The weapon, for its range, its modifiers at `distance` and how a natural 1 uses it up.
    pub weapon: Option<&'a Weapon>,
    /// Its range and flags.
    pub setup: ShotSetup,
}

/// Exact odds of a shot with Combat values: the modifiers of SUPPLEMENT §4's ranged table the flags
/// and the weapon at its distance give (the weapon's through `rules::ranged::weapon_modifiers`, as the
/// kernel reads them), the 36 die pairs read by `rules::combat::ranged_counts`, and the natural-1 check
/// of the weapon (one more die when it must be confirmed).
pub fn ranged_by_combat(
    q: &RangedByCombat<'_>,
    rosters: &Rosters,
) -> Result<CombatTally, super::kernel::OddsError> {
    let rules = &rosters.rules;
    let k = &rules.ranged;
    let mut mods = Vec::new();
    let mut notes = Vec::new();
    if q.setup.cover {
        mods.push(Modifier::rule(Role::Attacker, k.cover, "target in Cover"));
    }
    if q.setup.defenseless {
        mods.push(Modifier::rule(
            Role::Attacker,
            k.defenseless,
            "target Defenseless or Transfixed",
        ));
        notes.push("the shooter defeats on any win: the loser is Defenseless (rules)".to_string());
    }
    if q.setup.good_shot {
        mods.push(Modifier::rule(Role::Attacker, k.good_shot, "Good Shot"));
    }
    if let Some(w) = q.weapon {
        let distance = q.setup.distance.unwrap_or(0.0);
        let range = weapon_range(rosters, w);
        if distance > range + 1e-9 {
            return Err(super::kernel::OddsError::Setup(format!(
                "the target is out of range: {distance:.2}\" away, {} reaches {range}\"",
                w.name
            )));
        }
        mods.extend(weapon_modifiers(rules, w, distance));
    }
    if q.setup.aimed {
        mods.push(Modifier::rule(Role::Defender, k.aimed_shot, "Aimed Shot"));
    }
    let sum = |role: Role| mods.iter().filter(|m| m.to == role).map(|m| m.value).sum();
    let entangle = q.weapon.is_some_and(|w| w.on_hit == OnHit::Entangle);
    if entangle {
        notes.push("a hit Entangles the target instead of its result (its weapon)".to_string());
    }
    let c = combat::ranged_counts(
        &RangedQuery {
            shooter: q.shooter,
            target: q.target,
            shooter_modifier: sum(Role::Attacker),
            target_modifier: sum(Role::Defender),
            lethal: q.setup.defenseless,
            entangle,
        },
        &CombatConstants::from_rules(rules),
    );
    // A confirmed break rolls a third die after a natural 1: every count is then out of 216.
    let confirmed = q
        .weapon
        .is_some_and(|w| w.exhaustion == Exhaustion::Confirmed);
    let m: u64 = if confirmed { 6 } else { 1 };
    let ones: u64 = if (1..=6).contains(&k.exhaust_roll) {
        6
    } else {
        0
    };
    let mut hits = Suffered::default();
    for (r, n) in [
        (CombatResult::Gruesome, c.hits.gruesome),
        (CombatResult::Defeated, c.hits.defeated),
        (CombatResult::Defenseless, c.hits.defenseless),
        (CombatResult::Recoil, c.hits.recoil),
        (CombatResult::Entangled, c.entangled),
    ] {
        hits.add(r, u64::from(n) * m);
    }
    Ok(CombatTally {
        outcomes: 36 * m,
        dice: if confirmed { 3 } else { 2 },
        modifiers: mods,
        rules: notes,
        tie: u64::from(c.tie) * m,
        no_effect: u64::from(c.holds) * m,
        attacker_wins: hits,
        defender_wins: Suffered::default(),
        // The shooter's die shows the natural 1 on 6 of the 36 pairs: that breaks an immediate
        // weapon (6 of 36); a confirmed one breaks when the third die shows it again, on one of its six
        // faces (6 of 216).
        weapon_broken: if q.weapon.is_some() { ones } else { 0 },
        also: Vec::new(),
    })
}

/// A readable table of a shot: each chance as a fraction and a percentage.
pub fn ranged_text(o: &RangedOdds, t: &CombatTally, kernel: bool) -> String {
    let mut s = String::new();
    let at = o
        .distance
        .map(|d| format!(" at {d:.1}\""))
        .unwrap_or_default();
    let flags = flag_words(&[
        (o.aimed, "Aimed Shot"),
        (o.cover, "target in Cover"),
        (o.good_shot, "Good Shot"),
        (o.defenseless, "target Defenseless"),
    ]);
    let _ = writeln!(
        s,
        "Ranged: {} shoots {}{at}{flags}",
        o.shooter.title(true),
        o.target.title(false)
    );
    let (a, d) = (o.shooter.who(), o.target.who());
    let whose = |r| match r {
        Role::Attacker => a.clone(),
        Role::Defender => d.clone(),
    };
    modifier_lines(&mut s, &o.modifiers, whose);
    rule_lines(&mut s, &o.rules);
    let n = t.outcomes;
    let _ = writeln!(s, "  {:<18}{:>19}", "result", "target suffers");
    for (name, c) in t.attacker_wins.rows() {
        if shown(name, &[c]) {
            let _ = writeln!(s, "  {name:<18}{:>19}", cell(c, n));
        }
    }
    let _ = writeln!(
        s,
        "  {:<18}{:>19}",
        "any hit",
        cell(t.attacker_wins.total(), n)
    );
    let _ = writeln!(s, "  {:<18}{:>19}", "target holds", cell(t.no_effect, n));
    let _ = writeln!(s, "  {:<18}{:>19}", "tie (no effect)", cell(t.tie, n));
    if o.weapon.is_some() {
        let _ = writeln!(
            s,
            "  {:<18}{:>19}",
            "weapon broken",
            cell(t.weapon_broken, n)
        );
    }
    also_lines(&mut s, t, |r| match r {
        Role::Attacker => a.clone(),
        Role::Defender => d.clone(),
    });
    footer(&mut s, n, t.dice, kernel);
    s
}

/// A shot as a chart's outcomes, from the worst for the shooter (the target holds) to the best.
pub fn ranged_outcomes(t: &CombatTally) -> Vec<(String, f64)> {
    let n = t.outcomes as f64;
    let mut out = vec![
        ("target\nholds".to_string(), t.no_effect as f64 / n),
        ("tie".to_string(), t.tie as f64 / n),
    ];
    out.extend(suffered_bars(
        "target",
        &t.attacker_wins,
        &Suffered::default(),
        t.outcomes,
    ));
    out
}

/// One row of a morale report: a number of failures and what it does.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoraleRowOdds {
    pub failures: u8,
    pub result: MoraleResult,
    /// In words, as the kernel's log says it.
    pub words: String,
    pub chance: f64,
    pub fraction: String,
}

/// `village odds morale`: the chance of each number of failed dice and what each does (core §3.6),
/// the modifiers to each die with their sources, or why the model ignores the check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoraleOdds {
    /// The profile, when one was named.
    pub model: Option<String>,
    pub quality: u8,
    /// What set the check off: terror, gruesome_kill, leader_defeated or half_lost.
    pub trigger: &'static str,
    /// The dice rolled (the rule constant `morale.dice`; none when immune).
    pub dice: usize,
    pub outcomes: u64,
    pub modifiers: Vec<Modifier>,
    /// Why the model ignores this check, with the source.
    pub immune: Option<String>,
    /// P(k failures), k = 0..=dice (empty when immune).
    pub failures: Vec<f64>,
    pub results: Vec<MoraleRowOdds>,
    /// How far from the nearest table edge the model stood (by name: its fall-back's room).
    pub edge: Option<f64>,
    pub fractions: MoraleFractions,
}

/// [`MoraleOdds`] as exact fractions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoraleFractions {
    pub failures: Vec<String>,
}

/// The report of a morale check, from its counts.
pub fn morale_report(t: &MoraleTally, trigger: MoraleTrigger) -> MoraleOdds {
    let of = t.outcomes;
    MoraleOdds {
        model: t.name.clone(),
        quality: t.quality,
        trigger: trigger.as_str(),
        dice: t.dice,
        outcomes: of,
        modifiers: t.modifiers.clone(),
        immune: t.immune.clone(),
        failures: t.failures.iter().map(|n| *n as f64 / of as f64).collect(),
        results: t
            .results
            .iter()
            .map(|r| MoraleRowOdds {
                failures: r.failures,
                result: r.result,
                words: r.words.clone(),
                chance: r.count as f64 / of as f64,
                fraction: fraction(r.count, of),
            })
            .collect(),
        edge: t.edge,
        fractions: MoraleFractions {
            failures: t.failures.iter().map(|n| fraction(*n, of)).collect(),
        },
    }
}

/// Exact odds of a morale check of a bare Quality (core §3.6): `rules.morale.dice` dice, each with
/// Steadfast's bonus when asked (`morale.steadfast_bonus`), evaluated by `dice::morale_counts_of`;
/// no failure holds, `morale.flee_failures` or more Flee, fewer fall back one band a failure.
pub fn morale_by_quality(
    quality: u8,
    trigger: MoraleTrigger,
    steadfast: bool,
    rules: &crate::roster::Rules,
) -> (MoraleOdds, MoraleTally) {
    let dice = rules.morale.dice as usize;
    let mut modifiers = Vec::new();
    if steadfast {
        modifiers.push(Modifier::rule(
            Role::Defender,
            rules.morale.steadfast_bonus,
            "Steadfast",
        ));
    }
    let bonus: i32 = modifiers.iter().map(|m| m.value).sum();
    let counts = crate::dice::morale_counts_of(
        dice,
        quality,
        bonus.clamp(-6, 6) as i8,
        &rules.activation.roll_rules(),
    );
    let outcomes = 6u64.pow(dice as u32);
    let results = counts
        .iter()
        .enumerate()
        .map(|(f, n)| {
            let (result, words) = if f == 0 {
                (MoraleResult::Steady, "holds".to_string())
            } else if f as u32 >= rules.morale.flee_failures {
                (MoraleResult::Fled, "Flees".to_string())
            } else {
                (
                    MoraleResult::FellBack,
                    format!("falls back {}", crate::names::count(f, "band", "bands")),
                )
            };
            super::kernel::MoraleRow {
                failures: f as u8,
                result,
                words,
                count: *n,
            }
        })
        .collect();
    let t = MoraleTally {
        name: None,
        quality,
        outcomes,
        dice,
        modifiers,
        immune: None,
        failures: counts,
        results,
        edge: None,
    };
    (morale_report(&t, trigger), t)
}

fn trigger_words(t: &str) -> &'static str {
    match t {
        "terror" => "a Terror check",
        "gruesome_kill" => "a Gruesome Kill check",
        "leader_defeated" => "a check for its Leader's defeat",
        _ => "a check for half its side lost",
    }
}

/// A readable table of a morale check: each number of failures, its chance as a fraction and a
/// percentage, and what it does.
pub fn morale_text(o: &MoraleOdds, kernel: bool) -> String {
    let mut s = String::new();
    let who = match &o.model {
        Some(m) => format!("{m} (Quality {}+)", o.quality),
        None => format!("Quality {}+", o.quality),
    };
    if let Some(why) = &o.immune {
        let _ = writeln!(s, "Morale: {who}, {}", trigger_words(o.trigger));
        let _ = writeln!(s, "  ignores the check (certain, no dice): {why}");
        return s;
    }
    let _ = writeln!(
        s,
        "Morale: {who}, {}, {}",
        trigger_words(o.trigger),
        crate::names::count(o.dice, "die", "dice")
    );
    if o.modifiers.is_empty() {
        let _ = writeln!(s, "  modifiers: none");
    } else {
        let _ = writeln!(s, "  modifiers:");
        for m in &o.modifiers {
            let _ = writeln!(
                s,
                "    {:+} to each die: {} ({})",
                m.value, m.reason, m.source
            );
        }
    }
    let _ = writeln!(s, "  {:<10}{:>17}  result", "failures", "chance");
    for r in &o.results {
        let _ = writeln!(
            s,
            "  {:<10}{:>9} {}  {}",
            r.failures,
            r.fraction,
            pct(r.chance),
            r.words
        );
    }
    if let (Some(edge), true) = (o.edge, kernel) {
        let _ = writeln!(
            s,
            "  alone on an empty table, {edge:.1}\" from the nearest edge"
        );
        let _ = writeln!(
            s,
            "  exact over {} equally likely outcomes, each resolved by the kernel with its scripts",
            o.outcomes
        );
    } else {
        let _ = writeln!(s, "  exact over {} equally likely outcomes", o.outcomes);
    }
    s
}

/// A morale check as a chart's outcomes, from the worst (most failures) to the best.
pub fn morale_outcomes(o: &MoraleOdds) -> Vec<(String, f64)> {
    if let Some(why) = &o.immune {
        return vec![(format!("ignores\n{why}"), 1.0)];
    }
    o.results
        .iter()
        .rev()
        .map(|r| {
            (
                format!(
                    "{}\n{}",
                    crate::names::count(r.failures, "failure", "failures"),
                    r.words
                ),
                r.chance,
            )
        })
        .collect()
}
