//! The combat results table (SUPPLEMENT §4) and the exact melee odds built on it.
//!
//! Owns: comparing two totals and reading the winner's die into Tie, Recoil, Defenseless, Defeated or
//! Gruesome Kill, and enumerating the 36 die pairs of an opposed roll. The numbers (multipliers, the
//! Defenseless bonus, the Power Blow penalty) come from `rosters/rules.toml` through [`CombatConstants`].

pub use crate::state::CombatResult;
use serde::{Deserialize, Serialize};

/// The rule constants combat resolution needs; loaded from the rules roster.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CombatConstants {
    /// Winner's total at least this many times the loser's: Gruesome Kill (3).
    pub gruesome_multiplier: i32,
    /// Winner's total at least this many times the loser's: Defeated (2).
    pub defeated_multiplier: i32,
    /// Added to the attacker's total against a Defenseless or Transfixed target (+2).
    pub defenseless_bonus: i32,
    /// Added to the opponent's total by a Power Blow (−1).
    pub power_blow_modifier: i32,
    /// Totals below this count as this for the multipliers (1).
    pub minimum_total: i32,
    /// A winning Power Blow defeats on any loss (the variant `power_blow_lethal`; false by SUPPLEMENT
    /// §4).
    #[serde(default)]
    pub power_blow_lethal: bool,
}

impl CombatConstants {
    /// The constants as the rules roster sets them (and a variant may override them).
    pub fn from_rules(rules: &crate::roster::Rules) -> Self {
        CombatConstants {
            gruesome_multiplier: rules.combat.gruesome_multiplier,
            defeated_multiplier: rules.combat.defeated_multiplier,
            defenseless_bonus: rules.melee.defenseless,
            power_blow_modifier: rules.melee.power_blow,
            minimum_total: rules.combat.minimum_total,
            power_blow_lethal: rules.combat.power_blow_lethal,
        }
    }
}

/// Read a won combat into the loser's result. `winner_die` is the natural face of the winner's die;
/// `lethal` is true when the loser is Defenseless or Transfixed or the attack is Lethal.
/// `gruesome_multiplier` is passed apart from `k` because Savage lowers it in melee.
pub fn classify(
    winner_total: i32,
    loser_total: i32,
    winner_die: u8,
    lethal: bool,
    gruesome_multiplier: i32,
    k: &CombatConstants,
) -> CombatResult {
    if winner_total == loser_total {
        return CombatResult::Tie;
    }
    let loser = loser_total.max(k.minimum_total);
    if winner_total >= gruesome_multiplier * loser {
        CombatResult::Gruesome
    } else if winner_total >= k.defeated_multiplier * loser || lethal {
        // Lethal, Defenseless and Transfixed defeat on any loss but never upgrade a higher multiplier.
        CombatResult::Defeated
    } else if winner_die.is_multiple_of(2) {
        CombatResult::Defenseless
    } else {
        CombatResult::Recoil
    }
}

/// The options of `village odds melee`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MeleeQuery {
    /// The attacker's Combat (modifiers included).
    pub attacker: i32,
    /// The defender's Combat (modifiers included).
    pub defender: i32,
    /// The attacker makes a Power Blow: the defender's total takes the Power Blow modifier.
    pub power_blow: bool,
    /// The defender is Defenseless: the attacker gains the bonus and any attacker win defeats.
    pub defenseless: bool,
    /// A Free Hack: the defender rolls only to stop the attacker; its wins have no effect.
    pub free_hack: bool,
}

/// Counts of each result over the 36 equally likely die pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResultCounts {
    pub recoil: u32,
    pub defenseless: u32,
    pub defeated: u32,
    pub gruesome: u32,
}

impl ResultCounts {
    fn add(&mut self, r: CombatResult) {
        match r {
            CombatResult::Recoil => self.recoil += 1,
            CombatResult::Defenseless => self.defenseless += 1,
            CombatResult::Defeated => self.defeated += 1,
            CombatResult::Gruesome => self.gruesome += 1,
            _ => {}
        }
    }

    /// Total wins of this side.
    pub fn total(&self) -> u32 {
        self.recoil + self.defenseless + self.defeated + self.gruesome
    }
}

/// Exact melee odds: counts out of 36.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MeleeCounts {
    /// Equal totals.
    pub tie: u32,
    /// The defender won a Free Hack's defensive roll: nothing happens.
    pub no_effect: u32,
    /// What happens to the defender when the attacker wins.
    pub attacker_wins: ResultCounts,
    /// What happens to the attacker when the defender wins.
    pub defender_wins: ResultCounts,
}

/// Totals and result of one opposed melee roll with the given faces.
pub fn resolve_melee_faces(
    q: &MeleeQuery,
    attacker_die: u8,
    defender_die: u8,
    k: &CombatConstants,
) -> (i32, i32, Side, CombatResult) {
    let a = i32::from(attacker_die)
        + q.attacker
        + if q.defenseless {
            k.defenseless_bonus
        } else {
            0
        };
    let d = i32::from(defender_die)
        + q.defender
        + if q.power_blow {
            k.power_blow_modifier
        } else {
            0
        };
    if a > d {
        let lethal = q.defenseless || (q.power_blow && k.power_blow_lethal);
        let r = classify(a, d, attacker_die, lethal, k.gruesome_multiplier, k);
        (a, d, Side::Attacker, r)
    } else if d > a {
        if q.free_hack {
            (a, d, Side::Defender, CombatResult::None)
        } else {
            let r = classify(d, a, defender_die, false, k.gruesome_multiplier, k);
            (a, d, Side::Defender, r)
        }
    } else {
        (a, d, Side::Neither, CombatResult::Tie)
    }
}

/// Which side won an opposed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Attacker,
    Defender,
    Neither,
}

/// Enumerate all 36 die pairs of a melee and count each result.
pub fn melee_counts(q: &MeleeQuery, k: &CombatConstants) -> MeleeCounts {
    let mut c = MeleeCounts::default();
    for ad in 1..=6u8 {
        for dd in 1..=6u8 {
            match resolve_melee_faces(q, ad, dd, k) {
                (_, _, Side::Neither, _) => c.tie += 1,
                (_, _, Side::Defender, CombatResult::None) => c.no_effect += 1,
                (_, _, Side::Attacker, r) => c.attacker_wins.add(r),
                (_, _, Side::Defender, r) => c.defender_wins.add(r),
            }
        }
    }
    c
}

/// The options of `village odds ranged` with Combat values (core §3.5): the modifiers already summed
/// to each total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RangedQuery {
    /// The shooter's Combat.
    pub shooter: i32,
    /// The target's Combat.
    pub target: i32,
    /// Every modifier to the shooter's total (Cover, Good Shot, the weapon at its range, ...).
    pub shooter_modifier: i32,
    /// Every modifier to the target's total (an Aimed Shot).
    pub target_modifier: i32,
    /// The target is Defenseless or Transfixed: the shot is Lethal.
    pub lethal: bool,
    /// A hit Entangles the target instead of its result (a Harpoon).
    pub entangle: bool,
}

/// Exact odds of a shot's opposed roll: counts out of 36.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RangedCounts {
    /// Equal totals.
    pub tie: u32,
    /// The target's defensive roll won: it stops the shot and never hurts the shooter.
    pub holds: u32,
    /// What the target suffers when the shooter wins.
    pub hits: ResultCounts,
    /// Hits that Entangle instead (a Harpoon).
    pub entangled: u32,
}

/// Enumerate the 36 die pairs of a shot (shooter's die first) and count each result: the shooter's win
/// read from the results table as in melee, the target's win a defensive roll (core §3.5).
pub fn ranged_counts(q: &RangedQuery, k: &CombatConstants) -> RangedCounts {
    let mut c = RangedCounts::default();
    for sd in 1..=6u8 {
        for td in 1..=6u8 {
            let s = i32::from(sd) + q.shooter + q.shooter_modifier;
            let t = i32::from(td) + q.target + q.target_modifier;
            if s > t {
                if q.entangle {
                    c.entangled += 1;
                } else {
                    c.hits
                        .add(classify(s, t, sd, q.lethal, k.gruesome_multiplier, k));
                }
            } else if t > s {
                c.holds += 1;
            } else {
                c.tie += 1;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: CombatConstants = CombatConstants {
        gruesome_multiplier: 3,
        defeated_multiplier: 2,
        defenseless_bonus: 2,
        power_blow_modifier: -1,
        minimum_total: 1,
        power_blow_lethal: false,
    };

    #[test]
    fn a_lethal_power_blow_turns_every_attacker_win_into_defeated_or_gruesome() {
        let q = MeleeQuery {
            attacker: 3,
            defender: 3,
            power_blow: true,
            ..MeleeQuery::default()
        };
        let plain = melee_counts(&q, &K);
        let lethal = melee_counts(
            &q,
            &CombatConstants {
                power_blow_lethal: true,
                ..K
            },
        );
        assert!(plain.attacker_wins.recoil + plain.attacker_wins.defenseless > 0);
        assert_eq!(
            lethal.attacker_wins.recoil + lethal.attacker_wins.defenseless,
            0
        );
        assert_eq!(lethal.attacker_wins.total(), plain.attacker_wins.total());
        assert_eq!(lethal.attacker_wins.gruesome, plain.attacker_wins.gruesome);
        // The defender's wins are no Power Blow's.
        assert_eq!(lethal.defender_wins, plain.defender_wins);
    }

    #[test]
    fn rulebook_power_blow_example_leaves_the_raider_defenseless() {
        // C4 hero Power Blows a C3 raider: hero rolls 4 (8), raider rolls 3 → 5.
        let q = MeleeQuery {
            attacker: 4,
            defender: 3,
            power_blow: true,
            ..Default::default()
        };
        assert_eq!(
            resolve_melee_faces(&q, 4, 3, &K),
            (8, 5, Side::Attacker, CombatResult::Defenseless)
        );
    }

    #[test]
    fn rulebook_attacker_loses_example_recoils_the_hero() {
        // C4 hero rolls 1 (5) against a C3 orc rolling 5 (8): the orc's odd die → the hero Recoils.
        let q = MeleeQuery {
            attacker: 4,
            defender: 3,
            ..Default::default()
        };
        assert_eq!(
            resolve_melee_faces(&q, 1, 5, &K),
            (5, 8, Side::Defender, CombatResult::Recoil)
        );
    }

    #[test]
    fn rulebook_boss_against_mob_is_a_gruesome_kill() {
        // C5 boss rolls 2 (7) against a C1 mob rolling 1 (2): more than triple.
        let q = MeleeQuery {
            attacker: 5,
            defender: 1,
            ..Default::default()
        };
        assert_eq!(
            resolve_melee_faces(&q, 2, 1, &K),
            (7, 2, Side::Attacker, CombatResult::Gruesome)
        );
    }

    #[test]
    fn a_total_below_one_counts_as_one() {
        assert_eq!(classify(2, -1, 1, false, 3, &K), CombatResult::Defeated);
        assert_eq!(classify(3, 0, 1, false, 3, &K), CombatResult::Gruesome);
    }

    #[test]
    fn lethal_defeats_on_any_win_but_keeps_gruesome() {
        assert_eq!(classify(5, 4, 2, true, 3, &K), CombatResult::Defeated);
        assert_eq!(classify(9, 3, 2, true, 3, &K), CombatResult::Gruesome);
    }

    #[test]
    fn counts_cover_all_36_pairs() {
        for (a, d) in [(0, 0), (4, 3), (1, 5), (6, 0)] {
            for flags in 0..8u8 {
                let q = MeleeQuery {
                    attacker: a,
                    defender: d,
                    power_blow: flags & 1 != 0,
                    defenseless: flags & 2 != 0,
                    free_hack: flags & 4 != 0,
                };
                let c = melee_counts(&q, &K);
                assert_eq!(
                    c.tie + c.no_effect + c.attacker_wins.total() + c.defender_wins.total(),
                    36
                );
                if q.free_hack {
                    assert_eq!(c.defender_wins.total(), 0);
                }
                if q.defenseless {
                    assert_eq!(c.attacker_wins.recoil + c.attacker_wins.defenseless, 0);
                }
            }
        }
    }

    #[test]
    fn equal_combat_is_symmetric() {
        let c = melee_counts(
            &MeleeQuery {
                attacker: 3,
                defender: 3,
                ..Default::default()
            },
            &K,
        );
        assert_eq!(c.tie, 6);
        assert_eq!(c.attacker_wins, c.defender_wins);
    }
}
