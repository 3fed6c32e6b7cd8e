//! Wave Points (SUPPLEMENT §8): `ceil((5 × Combat + sum of trait costs) × (7 − Quality) / 2)`, with the
//! constants 5, 7 and 2 read from `rules.toml` `[wave_points]` and Shooter costed by its weapon.
//!
//! Exact integer arithmetic only (no floats, so no rounding drift). Unknown traits or weapons are
//! reported by `validate`; here they simply add nothing.

use super::rules::WavePointsFormula;
use super::schema::{Trait, Weapon};

/// `ceil(n / d)` for `d > 0`, exact for negative `n` too.
pub fn ceil_div(n: i64, d: i64) -> i64 {
    assert!(d > 0, "ceil_div needs a positive divisor");
    // Saturating: the formula's inputs are range-checked by `validate`, but Wave Points are computed
    // before that check runs, and an absurd constant must give an absurd number, not an overflow.
    n.saturating_add(d - 1).div_euclid(d)
}

/// The Wave Points of a profile.
///
/// `trait_cost(name)` and `weapon_cost(name)` look the costs up; a trait with `cost_from_weapon` adds
/// the weapon's cost on top of its own.
pub fn wave_points<'a>(
    formula: &WavePointsFormula,
    quality: u8,
    combat: u8,
    traits: &[String],
    weapon: Option<&str>,
    trait_lookup: impl Fn(&str) -> Option<&'a Trait>,
    weapon_lookup: impl Fn(&str) -> Option<&'a Weapon>,
) -> i64 {
    let weapon_cost = weapon
        .and_then(&weapon_lookup)
        .map_or(0, |w| i64::from(w.cost));
    let trait_sum: i64 = traits
        .iter()
        .filter_map(|t| trait_lookup(t))
        .map(|t| i64::from(t.cost) + if t.cost_from_weapon { weapon_cost } else { 0 })
        .fold(0i64, i64::saturating_add);
    let base = formula
        .combat_weight
        .saturating_mul(i64::from(combat))
        .saturating_add(trait_sum);
    ceil_div(
        base.saturating_mul(formula.quality_base.saturating_sub(i64::from(quality))),
        formula.divisor,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceil_div_rounds_up_for_any_sign() {
        assert_eq!(ceil_div(27, 2), 14);
        assert_eq!(ceil_div(26, 2), 13);
        assert_eq!(ceil_div(0, 2), 0);
        assert_eq!(ceil_div(-3, 2), -1);
        assert_eq!(ceil_div(-4, 2), -2);
    }

    fn t(name: &str, cost: i32, from_weapon: bool) -> Trait {
        Trait {
            name: name.into(),
            cost,
            cost_from_weapon: from_weapon,
            needs: None,
            text: String::new(),
            script: None,
            params: Default::default(),
        }
    }

    #[test]
    fn worked_costs() {
        let f = WavePointsFormula {
            combat_weight: 5,
            quality_base: 7,
            divisor: 2,
        };
        let traits = [
            t("Igniter", 2, false),
            t("Shooter", 0, true),
            t("Undead", 3, false),
            t("Slow", -5, false),
            t("Hero", 15, false),
            t("Tough", 15, false),
        ];
        let javelins = Weapon {
            name: "Javelins".into(),
            range: crate::roster::Measure::Short,
            cost: 2,
            close_bonus: None,
            bands: None,
            free_after_move: true,
            exhaustion: Default::default(),
            on_hit: Default::default(),
            text: String::new(),
            script: None,
            params: Default::default(),
        };
        let tl = |n: &str| traits.iter().find(|t| t.name == n);
        let wl = |n: &str| (n == "Javelins").then_some(&javelins);
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(wave_points(&f, 4, 2, &s(&["Igniter"]), None, tl, wl), 18);
        assert_eq!(
            wave_points(
                &f,
                4,
                1,
                &s(&["Shooter", "Igniter"]),
                Some("Javelins"),
                tl,
                wl
            ),
            14
        );
        assert_eq!(
            wave_points(&f, 5, 2, &s(&["Undead", "Slow"]), None, tl, wl),
            8
        );
        assert_eq!(
            wave_points(&f, 3, 4, &s(&["Hero", "Tough"]), None, tl, wl),
            100
        );
    }
}
