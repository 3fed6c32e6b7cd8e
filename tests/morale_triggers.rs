//! The heroes' side's automatic morale triggers (core §3.6), as the turn engine runs them after each
//! action: a Defeated Leader makes every model of the side check; more than half of the side's models at
//! the wave's start Defeated or Fled makes them check once. Enemy Groups never check for either.

mod common;

use common::{place, setup, Core};
use village::state::{EventKind, MoraleTrigger};
use village::wave::morale::{after_action, watch};

fn checks(g: &village::state::Game, trigger: MoraleTrigger) -> Vec<u32> {
    g.log()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Morale {
                model, trigger: t, ..
            } if *t == trigger => Some(model.0),
            _ => None,
        })
        .collect()
}

#[test]
fn a_defeated_leader_makes_the_heroes_side_check_but_not_the_enemies() {
    let (r, mut g) = setup();
    g.round = 1;
    let maren = place(&r, &mut g, "Captain Maren", 3.0, 3.0);
    let bram = place(&r, &mut g, "Bram the Smith", 3.0, 6.0);
    let tobin = place(&r, &mut g, "Tobin the Marksman", 3.0, 9.0);
    let orc = place(&r, &mut g, "Orc Warrior", 30.0, 30.0);
    g.wave_start_side = vec![maren, bram, tobin];
    let w = watch(&g, &Core).unwrap();
    g.remove_model(maren, "defeated").unwrap();
    g.dice.force([6, 6, 6, 6, 6, 6]).unwrap();
    after_action(&mut g, &r, &Core, &w).unwrap();
    assert_eq!(
        checks(&g, MoraleTrigger::LeaderDefeated),
        vec![bram.0, tobin.0]
    );
    assert!(g.model(orc).is_ok());
    // A Leader that Fled is not Defeated: nobody checks.
    let (r, mut g) = setup();
    g.round = 1;
    let maren = place(&r, &mut g, "Captain Maren", 3.0, 3.0);
    place(&r, &mut g, "Bram the Smith", 3.0, 6.0);
    let w = watch(&g, &Core).unwrap();
    g.remove_model(maren, "fled").unwrap();
    after_action(&mut g, &r, &Core, &w).unwrap();
    assert!(checks(&g, MoraleTrigger::LeaderDefeated).is_empty());
}

#[test]
fn more_than_half_lost_is_checked_once_a_wave() {
    let (r, mut g) = setup();
    g.round = 1;
    let ids: Vec<_> = [
        "Bram the Smith",
        "Tobin the Marksman",
        "Sister Ilse",
        "Wren the Scout",
    ]
    .iter()
    .enumerate()
    .map(|(i, n)| place(&r, &mut g, n, 3.0, 3.0 + 3.0 * i as f64))
    .collect();
    // An enemy still on the table: a wave with none left has ended, and no check follows it.
    place(&r, &mut g, "Orc Warrior", 40.0, 40.0);
    g.wave_start_side = ids.clone();
    let w = watch(&g, &Core).unwrap();
    g.remove_model(ids[0], "defeated").unwrap();
    g.remove_model(ids[1], "fled").unwrap();
    after_action(&mut g, &r, &Core, &w).unwrap();
    assert!(
        checks(&g, MoraleTrigger::HalfLost).is_empty(),
        "half is not more than half"
    );
    g.remove_model(ids[2], "defeated").unwrap();
    g.dice.force([6, 6, 6]).unwrap();
    after_action(&mut g, &r, &Core, &w).unwrap();
    assert_eq!(checks(&g, MoraleTrigger::HalfLost), vec![ids[3].0]);
    after_action(&mut g, &r, &Core, &w).unwrap();
    assert_eq!(checks(&g, MoraleTrigger::HalfLost).len(), 1, "once a wave");
}
