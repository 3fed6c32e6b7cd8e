//! `village odds melee` and the kernel agree: seeded melee rolls resolved by the kernel land in each
//! result with the frequency the exact enumeration gives (within 4σ).

mod common;

use village::geometry::Vec2;
use village::roster::Rosters;
use village::rules::combat::{melee_counts, CombatConstants, MeleeQuery};
use village::rules::melee::{melee, MeleeOptions};
use village::rules::outcome::add_condition;
use village::state::{self, CombatResult, Condition, Role, TableKind};

/// Index of a result: 0 tie / no effect, 1–4 attacker wins (gruesome, defeated, defenseless, recoil),
/// 5–8 defender wins.
fn slot(winner: Option<Role>, r: CombatResult) -> usize {
    let k = match r {
        CombatResult::Gruesome => 1,
        CombatResult::Defeated => 2,
        CombatResult::Defenseless => 3,
        CombatResult::Recoil => 4,
        _ => return 0,
    };
    match winner {
        Some(Role::Attacker) => k,
        Some(Role::Defender) => k + 4,
        None => 0,
    }
}

fn sample(q: MeleeQuery, attacker: &str, defender: &str, n: usize, seed: u64) {
    let r = Rosters::load(&[Rosters::builtin_root()]).unwrap();
    let k = CombatConstants::from_rules(&r.rules);
    let exact = melee_counts(&q, &k);
    let p = |c: u32| f64::from(c) / 36.0;
    let a = &exact.attacker_wins;
    let d = &exact.defender_wins;
    let expected = [
        p(exact.tie + exact.no_effect),
        p(a.gruesome),
        p(a.defeated),
        p(a.defenseless),
        p(a.recoil),
        p(d.gruesome),
        p(d.defeated),
        p(d.defenseless),
        p(d.recoil),
    ];
    let pa = r.profile(attacker).unwrap();
    let pd = r.profile(defender).unwrap();
    assert_eq!(
        (i32::from(pa.combat), i32::from(pd.combat)),
        (q.attacker, q.defender)
    );
    let o = MeleeOptions {
        power_blow: q.power_blow,
        free_hack: q.free_hack,
        ..MeleeOptions::default()
    };
    let mut counts = [0u64; 9];
    let mut g = state::new_game(&r, seed, TableKind::Empty);
    for i in 0..n {
        if i % 2000 == 0 {
            g = state::new_game(&r, seed + i as u64, TableKind::Empty);
        }
        let a = g.add_model(state::model_from_profile(pa, &r, Vec2::new(4.0, 30.0)));
        let b = g.add_model(state::model_from_profile(pd, &r, Vec2::new(5.0, 30.0)));
        if q.defenseless {
            add_condition(&mut g, b, Condition::Defenseless).unwrap();
        }
        let rep = melee(&mut g, &r.rules, &common::Core, a, b, o).unwrap();
        counts[slot(rep.winner, rep.result)] += 1;
        for id in [a, b] {
            let _ = g.remove_model(id, "sampled");
        }
    }
    for (i, (&c, &pe)) in counts.iter().zip(&expected).enumerate() {
        let freq = c as f64 / n as f64;
        let sigma = (pe * (1.0 - pe) / n as f64).sqrt();
        assert!(
            (freq - pe).abs() <= 4.0 * sigma + 1e-12,
            "{q:?} slot {i}: kernel {freq:.5} vs exact {pe:.5} (4σ = {:.5}); counts {counts:?}",
            4.0 * sigma
        );
    }
}

#[test]
fn a_hundred_thousand_kernel_melees_match_the_exact_odds() {
    // Captain Maren (C4) against an Orc Warrior (C3); no trait scripts (the plain rulebook).
    let q = MeleeQuery {
        attacker: 4,
        defender: 3,
        ..MeleeQuery::default()
    };
    sample(q, "Captain Maren", "Orc Warrior", 100_000, 1);
}

#[test]
fn power_blows_defenseless_targets_and_free_hacks_match_too() {
    let base = MeleeQuery {
        attacker: 3,
        defender: 2,
        ..MeleeQuery::default()
    };
    let pb = MeleeQuery {
        power_blow: true,
        ..base
    };
    let down = MeleeQuery {
        defenseless: true,
        ..base
    };
    let hack = MeleeQuery {
        free_hack: true,
        ..base
    };
    for (i, q) in [pb, down, hack].into_iter().enumerate() {
        sample(q, "Orc Warrior", "Village Archer", 20_000, 100 + i as u64);
    }
}
