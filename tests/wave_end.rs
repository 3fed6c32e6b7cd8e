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
    use village::wave::play::village_lost;
    let mut r = Rosters::load(&[Rosters::builtin_root()]).unwrap();
    let mut g = state::new_game(&r, 1, TableKind::Empty);
    let p = r.profile("Bram the Smith").unwrap();
    let bram = g.add_model(state::model_from_profile(p, &r, Vec2::new(3.0, 3.0)));
    assert!(!village_lost(&g, &r), "the Town Hall stands, Bram stands");
    let fled = g.model(bram).unwrap().clone();
    g.models.retain(|m| m.id != bram);
    assert!(
        !village_lost(&g, &r),
        "off by default: the rulebook makes it optional"
    );
    r.rules.wave.party_defeated_loss = true;
    g.fled.push(fled);
    assert!(!village_lost(&g, &r), "a Fled hero is not Defeated");
    g.fled.clear();
    assert!(
        village_lost(&g, &r),
        "every hero Defeated: the players lose"
    );
    g.building_mut("Town Hall").unwrap().destroyed = true;
    r.rules.wave.party_defeated_loss = false;
    assert!(village_lost(&g, &r), "the Town Hall down is always a loss");
}
