//! The end of a wave (§7.1) as far as it is built: heroes put out fires they stand by, burning buildings
//! lose Integrity, the village gains Supplies for the wave number.

use village::geometry::Vec2;
use village::roster::Rosters;
use village::state::{self, TableKind};
use village::wave::play::end_of_wave;

#[test]
fn heroes_put_out_the_fires_they_stand_by_and_the_rest_burn() {
    let r = Rosters::load(&[Rosters::builtin_root()]).unwrap();
    let mut g = state::new_game(&r, 1, TableKind::Empty);
    g.wave = 3;
    for name in ["Forge", "Stable"] {
        g.building_mut(name).unwrap().fire = true;
    }
    let forge = g.building("Forge").unwrap().rect;
    let p = r.profile("Bram the Smith").unwrap();
    g.add_model(state::model_from_profile(
        p,
        &r,
        Vec2::new(forge.center().x, forge.max.y + 0.5),
    ));
    end_of_wave(&mut g, &r, &village::rules::hooks::NoHooks).unwrap();
    let f = g.building("Forge").unwrap();
    assert!(!f.fire && f.integrity == 5, "Bram put the Forge's fire out");
    let s = g.building("Stable").unwrap();
    assert!(!s.fire && s.integrity == 3, "the Stable burned for 1");
    assert_eq!(g.supplies, 3, "Supplies equal to the wave number");
}

#[test]
fn the_optional_party_defeat_loss_counts_only_defeated_heroes() {
    use village::rules::end::Cause;
    use village::wave::play::village_lost;
    let mut r = Rosters::load(&[Rosters::builtin_root()]).unwrap();
    let mut g = state::new_game(&r, 1, TableKind::Empty);
    g.round = 1; // a wave is being played
    let p = r.profile("Bram the Smith").unwrap();
    let bram = g.add_model(state::model_from_profile(p, &r, Vec2::new(3.0, 3.0)));
    assert_eq!(
        village_lost(&g, &r),
        None,
        "the Town Hall stands, Bram stands"
    );
    let fled = g.model(bram).unwrap().clone();
    g.models.retain(|m| m.id != bram);
    assert_eq!(
        village_lost(&g, &r),
        None,
        "off by default: the rulebook makes it optional"
    );
    r.rules.wave.party_defeated_loss = true;
    g.fled.push(fled);
    assert_eq!(village_lost(&g, &r), None, "a Fled hero is not Defeated");
    g.fled.clear();
    assert_eq!(
        village_lost(&g, &r),
        Some(Cause::PartyDefeated),
        "every hero Defeated: the players lose"
    );
    g.building_mut("Town Hall").unwrap().destroyed = true;
    r.rules.wave.party_defeated_loss = false;
    assert_eq!(
        village_lost(&g, &r),
        Some(Cause::TownHallDestroyed),
        "the Town Hall down is always a loss"
    );
}

/// Overrun (SUPPLEMENT §10): no model of the heroes' side on the table while an enemy remains, during a
/// wave. A Village Defender keeps the wave alive; a Fled hero is not on the table.
#[test]
fn the_village_is_overrun_when_no_defender_is_left_on_the_table() {
    use village::rules::end::{halted, Cause, Halt};
    use village::wave::play::village_lost;
    let r = Rosters::load(&[Rosters::builtin_root()]).unwrap();
    let mut g = state::new_game(&r, 1, TableKind::Empty);
    let add = |g: &mut village::state::Game, name: &str, x: f64| {
        let p = r.profile(name).unwrap();
        g.add_model(state::model_from_profile(p, &r, Vec2::new(x, 3.0)))
    };
    let orc = add(&mut g, "Orc Warrior", 30.0);
    let archer = add(&mut g, "Village Archer", 3.0);
    assert_eq!(halted(&g, &r.rules), None, "outside a wave nothing stops");
    g.round = 1;
    assert_eq!(halted(&g, &r.rules), None, "an Archer holds the village");
    g.models.retain(|m| m.id != archer);
    assert_eq!(halted(&g, &r.rules), Some(Halt::Overrun));
    assert_eq!(village_lost(&g, &r), Some(Cause::Overrun));
    g.models.retain(|m| m.id != orc);
    assert_eq!(
        halted(&g, &r.rules),
        Some(Halt::NoEnemy),
        "no enemy left: the wave is won, not lost"
    );
    assert_eq!(village_lost(&g, &r), None);
}
