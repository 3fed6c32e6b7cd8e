//! The dice calculator behind `village odds`: exact probabilities as report structs, JSON and text.
//!
//! Owns the shape of the reports only; the numbers come from enumerating the same evaluation functions
//! the game uses ([`crate::dice`] for activation and morale, [`crate::rules::combat`] for melee and
//! shots with Combat values) or, by profile name, from the kernel's own resolution tried with every die
//! face ([`kernel`]). Every chance is also given as an exact fraction of the equally likely outcomes.

pub mod kernel;
mod report;

pub use report::*;

use crate::dice::{self, DiceError};
use crate::rules::combat::{self, CombatConstants, MeleeQuery, ResultCounts};
use serde::Serialize;
use std::fmt::Write;

/// `num/den` in lowest terms ("5/36", "1/4"), "0" and "1" for the certain cases: the exact chance a
/// percentage rounds.
pub fn fraction(num: u64, den: u64) -> String {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    if num == 0 || den == 0 {
        return "0".to_string();
    }
    let g = gcd(num, den);
    let (n, d) = (num / g, den / g);
    if d == 1 {
        n.to_string()
    } else {
        format!("{n}/{d}")
    }
}

/// `village odds activation`: `successes[k]` = P(exactly k actions).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActivationOdds {
    pub successes: Vec<f64>,
    pub turnover: f64,
    pub mean: f64,
    /// The same chances as exact fractions ("7/27"); the mean as a fraction of actions.
    pub fractions: ActivationFractions,
}

/// [`ActivationOdds`] as exact fractions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActivationFractions {
    pub successes: Vec<String>,
    pub turnover: String,
    pub mean: String,
}

/// Exact activation odds for a model of `quality` choosing `dice` dice, with or without the Hero trait
/// (which rolls one die fewer and adds an automatic success, SUPPLEMENT §4), under `rules`.
pub fn activation(
    quality: u8,
    dice: u8,
    hero: bool,
    rules: &crate::roster::ActivationRules,
) -> Result<ActivationOdds, DiceError> {
    let automatic = if hero { rules.automatic(dice) } else { 0 };
    let c = dice::activation_counts(quality, dice, automatic, &rules.roll_rules())?;
    let actions: u64 = c
        .successes
        .iter()
        .enumerate()
        .map(|(k, n)| k as u64 * n)
        .sum();
    Ok(ActivationOdds {
        successes: c.success_probabilities(),
        turnover: c.turnover_probability(),
        mean: c.mean(),
        fractions: ActivationFractions {
            successes: c
                .successes
                .iter()
                .map(|n| fraction(*n, c.outcomes))
                .collect(),
            turnover: fraction(c.turnover, c.outcomes),
            mean: fraction(actions, c.outcomes),
        },
    })
}

/// Probabilities of each result for one side's wins.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ResultOdds {
    pub gruesome: f64,
    pub defeated: f64,
    pub defenseless: f64,
    pub recoil: f64,
}

impl ResultOdds {
    fn from_counts(c: &ResultCounts) -> Self {
        ResultOdds {
            gruesome: f64::from(c.gruesome) / 36.0,
            defeated: f64::from(c.defeated) / 36.0,
            defenseless: f64::from(c.defenseless) / 36.0,
            recoil: f64::from(c.recoil) / 36.0,
        }
    }

    fn total(&self) -> f64 {
        self.gruesome + self.defeated + self.defenseless + self.recoil
    }
}

/// [`ResultOdds`] as exact fractions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultFractions {
    pub gruesome: String,
    pub defeated: String,
    pub defenseless: String,
    pub recoil: String,
}

impl ResultFractions {
    fn from_counts(c: &ResultCounts) -> Self {
        let f = |n: u32| fraction(u64::from(n), 36);
        ResultFractions {
            gruesome: f(c.gruesome),
            defeated: f(c.defeated),
            defenseless: f(c.defenseless),
            recoil: f(c.recoil),
        }
    }
}

/// `village odds melee`: `attacker_wins` says what happens to the defender, `defender_wins` what
/// happens to the attacker; `no_effect` is a Free Hack target's winning defensive roll.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeleeOdds {
    pub tie: f64,
    pub attacker_wins: ResultOdds,
    pub defender_wins: ResultOdds,
    pub no_effect: f64,
    /// The same chances as exact fractions of the 36 die pairs.
    pub fractions: MeleeFractions,
}

/// [`MeleeOdds`] as exact fractions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeleeFractions {
    pub tie: String,
    pub attacker_wins: ResultFractions,
    pub defender_wins: ResultFractions,
    pub no_effect: String,
}

/// Exact melee odds over the 36 die pairs.
pub fn melee(q: &MeleeQuery, k: &CombatConstants) -> MeleeOdds {
    let c = combat::melee_counts(q, k);
    MeleeOdds {
        tie: f64::from(c.tie) / 36.0,
        attacker_wins: ResultOdds::from_counts(&c.attacker_wins),
        defender_wins: ResultOdds::from_counts(&c.defender_wins),
        no_effect: f64::from(c.no_effect) / 36.0,
        fractions: MeleeFractions {
            tie: fraction(u64::from(c.tie), 36),
            attacker_wins: ResultFractions::from_counts(&c.attacker_wins),
            defender_wins: ResultFractions::from_counts(&c.defender_wins),
            no_effect: fraction(u64::from(c.no_effect), 36),
        },
    }
}

fn pct(p: f64) -> String {
    format!("{:>6.2}%", p * 100.0)
}

/// A readable table of activation odds.
pub fn activation_text(quality: u8, dice: u8, hero: bool, o: &ActivationOdds) -> String {
    let mut s = String::new();
    let hero = if hero {
        " with the Hero trait (one automatic success, one die fewer rolled)"
    } else {
        ""
    };
    let _ = writeln!(s, "Activation: Quality {quality}+, {dice} dice{hero}");
    let f = &o.fractions;
    for (k, p) in o.successes.iter().enumerate() {
        let label = format!("{k} action{}", if k == 1 { "" } else { "s" });
        let _ = writeln!(s, "  {label:<12}{}", chance_cell(&f.successes[k], *p));
    }
    let _ = writeln!(
        s,
        "  {:<12}{}",
        "turnover",
        chance_cell(&f.turnover, o.turnover)
    );
    let _ = writeln!(s, "  {:<12}{:>9} {:>6.3} actions", "mean", f.mean, o.mean);
    s
}

/// A chance as every odds table prints it: its exact fraction, then its percentage.
fn chance_cell(fraction: &str, p: f64) -> String {
    format!("{fraction:>9} {}", pct(p))
}

/// A readable table of melee odds.
pub fn melee_text(q: &MeleeQuery, o: &MeleeOdds) -> String {
    let mut s = String::new();
    let mut flags = Vec::new();
    if q.power_blow {
        flags.push("Power Blow");
    }
    if q.defenseless {
        flags.push("defender Defenseless");
    }
    if q.free_hack {
        flags.push("Free Hack");
    }
    let flags = if flags.is_empty() {
        String::new()
    } else {
        format!(" ({})", flags.join(", "))
    };
    let _ = writeln!(
        s,
        "Melee: attacker C{} vs defender C{}{flags}",
        q.attacker, q.defender
    );
    let _ = writeln!(
        s,
        "  {:<18}{:>19}{:>19}",
        "result", "defender suffers", "attacker suffers"
    );
    let (aw, dw) = (&o.fractions.attacker_wins, &o.fractions.defender_wins);
    let rows = [
        (
            "Gruesome Kill",
            (&aw.gruesome, o.attacker_wins.gruesome),
            (&dw.gruesome, o.defender_wins.gruesome),
        ),
        (
            "Defeated",
            (&aw.defeated, o.attacker_wins.defeated),
            (&dw.defeated, o.defender_wins.defeated),
        ),
        (
            "Defenseless",
            (&aw.defenseless, o.attacker_wins.defenseless),
            (&dw.defenseless, o.defender_wins.defenseless),
        ),
        (
            "Recoil",
            (&aw.recoil, o.attacker_wins.recoil),
            (&dw.recoil, o.defender_wins.recoil),
        ),
    ];
    // The cells of the by-name table: a fraction and a percentage under each side.
    let wide = |(f, p): (&String, f64)| format!("{:>19}", chance_cell(f, p));
    for (name, a, d) in rows {
        let _ = writeln!(s, "  {name:<18}{}{}", wide(a), wide(d));
    }
    let any = |w: &ResultOdds| {
        // The sum of the four results, as a fraction of the 36 pairs.
        let n = (w.total() * 36.0).round() as u64;
        fraction(n, 36)
    };
    let _ = writeln!(
        s,
        "  {:<18}{}{}",
        "any win",
        wide((&any(&o.attacker_wins), o.attacker_wins.total())),
        wide((&any(&o.defender_wins), o.defender_wins.total()))
    );
    let _ = writeln!(
        s,
        "  {:<18}{}",
        "tie (no effect)",
        wide((&o.fractions.tie, o.tie))
    );
    if q.free_hack {
        let _ = writeln!(
            s,
            "  {:<18}{}",
            "defender holds",
            wide((&o.fractions.no_effect, o.no_effect))
        );
    }
    s
}

/// An activation's outcomes for a chart, from the worst to the best: "0 actions" to all the dice, each
/// with its chance.
pub fn activation_outcomes(o: &ActivationOdds) -> Vec<(String, f64)> {
    o.successes
        .iter()
        .enumerate()
        .map(|(k, p)| (format!("{k} action{}", if k == 1 { "" } else { "s" }), *p))
        .collect()
}

/// A melee attack's outcomes for a chart, from the worst for the attacker to the best: what the
/// attacker suffers (Gruesome Kill first), a Free Hack target holding, the tie, then what the defender
/// suffers (Gruesome Kill last). The chances add up to one. A label's two lines are split by `\n`.
pub fn melee_outcomes(q: &MeleeQuery, o: &MeleeOdds) -> Vec<(String, f64)> {
    let side = |who: &str, r: &ResultOdds| {
        [
            ("Recoils", r.recoil),
            ("Defenseless", r.defenseless),
            ("Defeated", r.defeated),
            ("Gruesome Kill", r.gruesome),
        ]
        .map(|(what, p)| (format!("{who}\n{what}"), p))
    };
    let mut out: Vec<(String, f64)> = side("attacker", &o.defender_wins)
        .into_iter()
        .rev()
        .collect();
    if q.free_hack {
        out.push(("defender\nholds".to_string(), o.no_effect));
    }
    out.push(("tie".to_string(), o.tie));
    out.extend(side("defender", &o.attacker_wins));
    out
}
