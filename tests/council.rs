//! The Council Phase (core §7.2–7.3) and the End Sequence's Opportunity (§7.1 step 5): every Council
//! ability at every Level, upgrade order and costs, refusals, placement of Barricades, Traps and the
//! Opportunity token, nothing after the final wave, and the default policy spending Supplies.

use std::cell::Cell;
use std::process::Command;
use village::geometry::{segment_rect_dist, Rect, Vec2};
use village::roster::Rosters;
use village::rules::hooks::{CouncilInfo, CouncilOrder, Hooks};
use village::rules::HookError;
use village::state::{
    model_from_profile, new_game, EventKind, Game, ModelId, TableKind, TokenKind,
};
use village::wave::council::{self, hold_council, place_opportunity, CouncilReport};
use village::wave::play::between_waves;

fn rosters() -> Rosters {
    Rosters::load(&[Rosters::builtin_root()]).unwrap()
}

/// An empty-table game with two heroes of the party standing north of the Town Hall.
fn game(r: &Rosters, supplies: i32) -> Game {
    let mut g = new_game(r, 1, TableKind::Empty);
    g.supplies = supplies;
    for (i, name) in ["Captain Maren", "Bram the Smith"].iter().enumerate() {
        let th = rect(&g, "Town Hall");
        let pos = Vec2::new(th.center().x - 2.0 + 4.0 * i as f64, th.max.y + 1.0);
        g.add_model(model_from_profile(r.profile(name).unwrap(), r, pos));
        g.party.push(name.to_string());
    }
    g
}

fn rect(g: &Game, name: &str) -> Rect {
    g.building(name).unwrap().rect
}

fn level(g: &mut Game, name: &str, l: u8) {
    g.building_mut(name).unwrap().level = l;
}

fn hero(g: &Game, name: &str) -> ModelId {
    g.models.iter().find(|m| m.name == name).unwrap().id
}

fn wound(g: &mut Game, name: &str, n: u8) {
    let id = hero(g, name);
    let m = g.model_mut(id).unwrap();
    m.wounds = n;
    m.quality = m.profile_quality + n;
}

fn one(g: &mut Game, r: &Rosters, o: CouncilOrder) -> CouncilReport {
    hold_council(g, r, &[o]).remove(0)
}

fn refused(rep: &CouncilReport, words: &str) {
    let why = rep
        .refused
        .as_deref()
        .unwrap_or_else(|| panic!("accepted: {rep:?}"));
    assert!(why.contains(words), "{why:?} should say {words:?}");
    assert_eq!(rep.supplies, 0);
}

fn upgrade(b: &str) -> CouncilOrder {
    CouncilOrder::Upgrade {
        building: b.into(),
        level: None,
    }
}

fn repair(b: &str, supplies: Option<u32>, free: bool) -> CouncilOrder {
    CouncilOrder::Repair {
        building: b.into(),
        supplies,
        free,
    }
}

/// A Barricade 1" north of the Town Hall, running east.
fn barricade_by_town_hall(g: &Game, free: bool, reinforce: bool) -> CouncilOrder {
    let th = rect(g, "Town Hall");
    let y = th.max.y + 1.0;
    CouncilOrder::Barricade {
        from: Vec2::new(th.min.x, y),
        toward: Vec2::new(th.max.x, y),
        free,
        reinforce,
    }
}

fn last_council_event(g: &Game) -> EventKind {
    g.log()
        .iter()
        .rev()
        .find(|e| matches!(e.kind, EventKind::Council { .. }))
        .unwrap()
        .kind
        .clone()
}

#[test]
fn upgrades_go_one_level_at_a_time_for_their_roster_costs() {
    let r = rosters();
    let mut g = game(&r, 20);
    let forge = r.building("Forge").unwrap();
    let rep = one(&mut g, &r, upgrade("Forge"));
    assert_eq!(rep.refused, None);
    assert_eq!(rep.supplies, forge.level_ii_cost as i32);
    assert_eq!(g.building("Forge").unwrap().level, 2);
    let rep = one(
        &mut g,
        &r,
        CouncilOrder::Upgrade {
            building: "Forge".into(),
            level: Some(3),
        },
    );
    assert_eq!(rep.supplies, forge.level_iii_cost as i32);
    assert_eq!(g.building("Forge").unwrap().level, 3);
    assert_eq!(g.supplies, 20 - 3 - 5);
    refused(&one(&mut g, &r, upgrade("Forge")), "top Level");
    // Skipping a Level.
    let rep = one(
        &mut g,
        &r,
        CouncilOrder::Upgrade {
            building: "Town Hall".into(),
            level: Some(3),
        },
    );
    refused(&rep, "only to Level II");
    assert_eq!(g.building("Town Hall").unwrap().level, 1);
    // The event names the building, the Supplies and the source.
    let rep = one(&mut g, &r, upgrade("Town Hall"));
    assert_eq!(rep.supplies, 4);
    match last_council_event(&g) {
        EventKind::Council {
            what,
            building,
            supplies,
            source,
            refused,
            ..
        } => {
            assert_eq!(
                (
                    what.as_str(),
                    building.as_deref(),
                    supplies,
                    source.as_str()
                ),
                ("upgrade", Some("Town Hall"), 4, "Council")
            );
            assert_eq!(refused, None);
        }
        _ => unreachable!(),
    }
}

#[test]
fn upgrades_are_refused_without_supplies_or_on_a_destroyed_building() {
    let r = rosters();
    let mut g = game(&r, 2);
    refused(&one(&mut g, &r, upgrade("Temple")), "not enough Supplies");
    assert_eq!((g.supplies, g.building("Temple").unwrap().level), (2, 1));
    g.supplies = 10;
    g.building_mut("Temple").unwrap().destroyed = true;
    refused(&one(&mut g, &r, upgrade("Temple")), "Destroyed");
    refused(&one(&mut g, &r, upgrade("Chapel")), "no building");
    assert_eq!(g.supplies, 10);
    // A refusal is logged with its reason.
    match last_council_event(&g) {
        EventKind::Council { refused, .. } => assert!(refused.unwrap().contains("Chapel")),
        _ => unreachable!(),
    }
}

#[test]
fn forge_repairs_one_integrity_per_supply_at_level_i_and_two_at_level_ii() {
    let r = rosters();
    let mut g = game(&r, 10);
    g.building_mut("Town Hall").unwrap().integrity = 3;
    let rep = one(&mut g, &r, repair("Town Hall", Some(2), false));
    assert_eq!(rep.refused, None, "{rep:?}");
    assert_eq!((rep.supplies, rep.source.as_str()), (2, "Forge I Repairs"));
    assert_eq!(g.building("Town Hall").unwrap().integrity, 5);
    // One purchase by default.
    one(&mut g, &r, repair("Town Hall", None, false));
    assert_eq!(g.building("Town Hall").unwrap().integrity, 6);
    // More Supplies than the missing Integrity needs.
    refused(
        &one(&mut g, &r, repair("Town Hall", Some(3), false)),
        "past its starting Integrity",
    );
    level(&mut g, "Forge", 2);
    let before = g.supplies;
    let rep = one(&mut g, &r, repair("Town Hall", Some(1), false));
    assert_eq!(rep.source, "Forge II Master Craftsmen");
    assert_eq!(g.building("Town Hall").unwrap().integrity, 8);
    assert_eq!(g.supplies, before - 1);
    // Forge II with one point missing: the last Supply restores only up to the cap.
    g.building_mut("Stable").unwrap().integrity = 3;
    one(&mut g, &r, repair("Stable", Some(1), false));
    assert_eq!(g.building("Stable").unwrap().integrity, 4);
    // At the cap.
    refused(
        &one(&mut g, &r, repair("Town Hall", Some(1), false)),
        "starting Integrity",
    );
}

#[test]
fn repairs_need_an_intact_forge_supplies_and_an_intact_target() {
    let r = rosters();
    let mut g = game(&r, 0);
    g.building_mut("Town Hall").unwrap().integrity = 5;
    refused(
        &one(&mut g, &r, repair("Town Hall", Some(1), false)),
        "not enough Supplies",
    );
    g.supplies = 5;
    g.building_mut("Forge").unwrap().destroyed = true;
    g.building_mut("Forge").unwrap().integrity = 0;
    refused(
        &one(&mut g, &r, repair("Town Hall", Some(1), false)),
        "intact Forge",
    );
    refused(
        &one(&mut g, &r, repair("Forge", Some(1), false)),
        "Destroyed",
    );
    assert_eq!(g.building("Town Hall").unwrap().integrity, 5);
    assert_eq!(g.supplies, 5);
}

#[test]
fn engineering_corps_gives_one_free_repair_or_barricade_per_council_at_town_hall_ii() {
    let r = rosters();
    let mut g = game(&r, 0);
    g.building_mut("Town Hall").unwrap().integrity = 5;
    refused(
        &one(&mut g, &r, repair("Town Hall", None, true)),
        "Town Hall at Level II",
    );
    level(&mut g, "Town Hall", 2);
    // Both choices in one Council: the second is refused.
    let b = barricade_by_town_hall(&g, true, false);
    let reps = hold_council(&mut g, &r, &[repair("Town Hall", None, true), b.clone()]);
    assert_eq!(reps[0].refused, None);
    assert_eq!(reps[0].source, "Town Hall II Engineering Corps");
    assert_eq!(reps[0].supplies, 0);
    assert_eq!(g.building("Town Hall").unwrap().integrity, 6);
    refused(&reps[1], "already used this Council");
    // The next Council: the free Barricade, with no Supplies at all.
    let rep = one(&mut g, &r, b);
    assert_eq!(rep.refused, None, "{rep:?}");
    assert_eq!(g.supplies, 0);
    assert!(g
        .tokens
        .iter()
        .any(|t| matches!(t.kind, TokenKind::Barricade { integrity: 2, .. })));
}

#[test]
fn barricades_cost_a_supply_and_stand_within_reach_of_a_building() {
    let r = rosters();
    let mut g = game(&r, 3);
    let b = barricade_by_town_hall(&g, false, false);
    let rep = one(&mut g, &r, b);
    assert_eq!((rep.refused.clone(), rep.supplies), (None, 1), "{rep:?}");
    let tok = g.tokens.iter().find(|t| Some(t.id) == rep.token).unwrap();
    let TokenKind::Barricade {
        segment,
        integrity,
        structure,
        ..
    } = tok.kind
    else {
        panic!()
    };
    assert_eq!((integrity, structure), (2, 2));
    assert!((segment.len() - r.barricade.length).abs() < 1e-9);
    assert!(segment_rect_dist(&segment, &rect(&g, "Town Hall")) <= r.barricade.within);
    // Far from every building.
    let far = CouncilOrder::Barricade {
        from: Vec2::new(1.0, 1.0),
        toward: Vec2::new(1.0, 5.0),
        free: false,
        reinforce: false,
    };
    refused(&one(&mut g, &r, far), "within 3");
    // Across a building.
    let th = rect(&g, "Town Hall");
    let across = CouncilOrder::Barricade {
        from: Vec2::new(th.min.x - 1.0, th.center().y),
        toward: Vec2::new(th.max.x, th.center().y),
        free: false,
        reinforce: false,
    };
    refused(&one(&mut g, &r, across), "touch the Town Hall");
    assert_eq!(g.supplies, 2);
    // A Barricade next to a Destroyed building only: refused.
    let mut h = new_game(&r, 1, TableKind::Empty);
    h.supplies = 1;
    for b in h.buildings.iter_mut() {
        b.destroyed = true;
    }
    let b = barricade_by_town_hall(&h, false, false);
    refused(&one(&mut h, &r, b), "nearest intact building");
}

#[test]
fn forge_iii_reinforces_one_barricade_per_council() {
    let r = rosters();
    let mut g = game(&r, 5);
    let b = barricade_by_town_hall(&g, false, true);
    refused(&one(&mut g, &r, b.clone()), "Forge at Level III");
    level(&mut g, "Forge", 3);
    let th = rect(&g, "Town Hall");
    let second = CouncilOrder::Barricade {
        from: Vec2::new(th.min.x, th.min.y - 1.0),
        toward: Vec2::new(th.max.x, th.min.y - 1.0),
        free: false,
        reinforce: true,
    };
    let reps = hold_council(&mut g, &r, &[b, second]);
    assert_eq!(reps[0].source, "Forge III Reinforced Defenses");
    refused(&reps[1], "already used this Council");
    let bars: Vec<i32> = g
        .tokens
        .iter()
        .filter_map(|t| match t.kind {
            TokenKind::Barricade { integrity, .. } => Some(integrity),
            _ => None,
        })
        .collect();
    assert_eq!(bars, vec![r.barricade.integrity as i32 + 1]);
    assert_eq!(g.supplies, 4);
}

#[test]
fn traps_cost_a_supply_within_six_inches_of_a_building() {
    let r = rosters();
    let mut g = game(&r, 2);
    let th = rect(&g, "Town Hall");
    let near = Vec2::new(th.max.x + 2.0, th.min.y - 3.0);
    let rep = one(&mut g, &r, CouncilOrder::Trap { at: near });
    assert_eq!((rep.refused.clone(), rep.supplies), (None, 1), "{rep:?}");
    let tok = g.tokens.iter().find(|t| Some(t.id) == rep.token).unwrap();
    assert!(matches!(
        tok.kind,
        TokenKind::Trap {
            combat: 3,
            entangle: false,
            ..
        }
    ));
    refused(
        &one(
            &mut g,
            &r,
            CouncilOrder::Trap {
                at: Vec2::new(0.5, 0.5),
            },
        ),
        "within 6",
    );
    refused(
        &one(&mut g, &r, CouncilOrder::Trap { at: th.center() }),
        "on the Town Hall",
    );
    g.supplies = 0;
    refused(
        &one(&mut g, &r, CouncilOrder::Trap { at: near }),
        "not enough Supplies",
    );
}

#[test]
fn temple_i_heals_one_wound_once_per_council() {
    let r = rosters();
    let mut g = game(&r, 0);
    wound(&mut g, "Captain Maren", 2);
    wound(&mut g, "Bram the Smith", 1);
    let heal = |h: &str| CouncilOrder::Heal { hero: h.into() };
    let reps = hold_council(&mut g, &r, &[heal("Captain Maren"), heal("Bram the Smith")]);
    assert_eq!(reps[0].source, "Temple I Healing");
    refused(&reps[1], "already used this Council");
    let m = g.model(hero(&g, "Captain Maren")).unwrap();
    assert_eq!((m.wounds, m.quality), (1, m.profile_quality + 1));
    // The next Council heals again; a hero without Wounds or off the table is refused.
    let reps = hold_council(
        &mut g,
        &r,
        &[
            heal("Sister Ilse"),
            heal("Bram the Smith"),
            heal("Captain Maren"),
        ],
    );
    refused(&reps[0], "not a hero on the table");
    assert_eq!(reps[1].refused, None);
    refused(&reps[2], "already used");
    let bram = g.model(hero(&g, "Bram the Smith")).unwrap();
    assert_eq!((bram.wounds, bram.quality), (0, bram.profile_quality));
    refused(&one(&mut g, &r, heal("Bram the Smith")), "no Wound");
    g.building_mut("Temple").unwrap().destroyed = true;
    refused(&one(&mut g, &r, heal("Captain Maren")), "intact Temple");
    assert!(g
        .log()
        .iter()
        .any(|e| matches!(e.kind, EventKind::Healed { .. })));
}

#[test]
fn a_herb_token_heals_one_wound() {
    let r = rosters();
    let mut g = game(&r, 0);
    wound(&mut g, "Captain Maren", 2);
    let herb = CouncilOrder::Herb {
        hero: "Captain Maren".into(),
    };
    refused(&one(&mut g, &r, herb.clone()), "no Herb");
    g.herbs = 1;
    // Herbs are not once per Council: a Temple heal and a herb in the same Council.
    let reps = hold_council(
        &mut g,
        &r,
        &[
            herb.clone(),
            CouncilOrder::Heal {
                hero: "Captain Maren".into(),
            },
        ],
    );
    assert_eq!(reps[0].source, "Herb token");
    assert_eq!(reps[1].refused, None);
    assert_eq!(g.herbs, 0);
    assert_eq!(g.model(hero(&g, "Captain Maren")).unwrap().wounds, 0);
}

#[test]
fn temple_iii_resurrects_a_defeated_hero_once_per_game_by_the_temple_with_three_wounds() {
    let r = rosters();
    let mut g = game(&r, 0);
    let res = |h: &str| CouncilOrder::Resurrect {
        hero: h.into(),
        at: None,
    };
    let maren = hero(&g, "Captain Maren");
    g.remove_model(maren, "defeated").unwrap();
    level(&mut g, "Temple", 2);
    refused(
        &one(&mut g, &r, res("Captain Maren")),
        "Temple at Level III",
    );
    level(&mut g, "Temple", 3);
    refused(&one(&mut g, &r, res("Bram the Smith")), "on the table");
    refused(
        &one(&mut g, &r, res("Sir Roland")),
        "not a hero of the party",
    );
    assert_eq!(
        council::council_info(&g, &r).defeated,
        vec!["Captain Maren".to_string()]
    );
    // Too far from the Temple.
    let far = CouncilOrder::Resurrect {
        hero: "Captain Maren".into(),
        at: Some(Vec2::new(1.0, 1.0)),
    };
    refused(&one(&mut g, &r, far), "wholly within 3");
    let rep = one(&mut g, &r, res("Captain Maren"));
    assert_eq!(rep.refused, None, "{rep:?}");
    assert_eq!(rep.source, "Temple III Resurrection");
    let m = g.models.iter().find(|m| m.name == "Captain Maren").unwrap();
    assert_eq!((m.wounds, m.quality), (3, 6), "Q6+ for a Q3+ hero");
    let temple = rect(&g, "Temple");
    let gap = temple.signed_dist(m.pos) - m.base / 2.0;
    assert!(gap >= -1e-9 && gap + m.base <= 3.0 + 1e-9, "gap {gap}");
    // Once per game: a later Council refuses a second one.
    let bram = hero(&g, "Bram the Smith");
    g.remove_model(bram, "gruesome kill").unwrap();
    refused(
        &one(&mut g, &r, res("Bram the Smith")),
        "already used this game",
    );
    assert!(g.spent.contains(&"game:Resurrection".to_string()));
}

#[test]
fn a_fled_hero_is_not_defeated_and_rejoins_at_the_next_wave_start() {
    let r = rosters();
    let mut g = game(&r, 0);
    level(&mut g, "Temple", 3);
    let id = hero(&g, "Bram the Smith");
    wound(&mut g, "Bram the Smith", 2);
    let m = g.remove_model(id, "fled").unwrap();
    g.fled.push(m);
    assert!(council::council_info(&g, &r).defeated.is_empty());
    refused(
        &one(
            &mut g,
            &r,
            CouncilOrder::Resurrect {
                hero: "Bram the Smith".into(),
                at: None,
            },
        ),
        "Fled",
    );
    council::rejoin_fled(&mut g);
    let back = g
        .models
        .iter()
        .find(|m| m.name == "Bram the Smith")
        .unwrap();
    assert_eq!(back.wounds, 2);
    assert!(g.fled.is_empty());
    assert!(g
        .log()
        .iter()
        .any(|e| matches!(&e.kind, EventKind::Rejoined { name, .. } if name == "Bram the Smith")));
}

fn opportunity_events(g: &Game) -> Vec<EventKind> {
    g.log()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::OpportunityPlaced { .. }))
        .map(|e| e.kind.clone())
        .collect()
}

#[test]
fn the_opportunity_goes_on_a_random_edge_at_least_12_inches_from_the_town_hall() {
    let r = rosters();
    let min = r.rules.setup.opportunity_min_from_town_hall;
    let radius = r.rules.bases.normal / 2.0;
    for seed in 0..40u64 {
        let mut g = new_game(&r, seed, TableKind::Generated);
        let token = place_opportunity(&mut g, &r).unwrap().expect("a token");
        let t = g.tokens.iter().find(|t| t.id == token).unwrap();
        assert_eq!(t.kind, TokenKind::Opportunity { revealed: false });
        let p = t.pos;
        let (w, h) = (g.table.width, g.table.height);
        let edges = [h - p.y, w - p.x, p.y, p.x];
        let EventKind::OpportunityPlaced { edge, far, pos, .. } = opportunity_events(&g)[0].clone()
        else {
            panic!()
        };
        assert_eq!(pos, Some(p));
        assert!(
            (edges[usize::from(edge) - 1] - radius).abs() < 1e-9,
            "seed {seed}: {p:?} is on edge {edge}"
        );
        if far {
            assert!(rect(&g, "Town Hall").signed_dist(p) >= min - 1e-9);
        }
        // Open ground.
        assert!(g
            .table
            .buildings
            .iter()
            .all(|b| b.rect.signed_dist(p) >= radius - 1e-9));
        // The edge die and the spot are logged.
        assert!(g.log().iter().any(
            |e| matches!(&e.kind, EventKind::Roll { purpose, .. } if purpose == "opportunity edge")
        ));
        assert!(g.log().iter().any(
            |e| matches!(&e.kind, EventKind::Choice { purpose, .. } if purpose.starts_with("opportunity spot"))
        ));
    }
    // On the standard table every edge has room 12" from the Town Hall.
    let mut g = new_game(&r, 3, TableKind::Empty);
    place_opportunity(&mut g, &r).unwrap();
    assert!(matches!(
        opportunity_events(&g)[0],
        EventKind::OpportunityPlaced { far: true, .. }
    ));
}

#[test]
fn the_opportunity_edge_rerolls_five_and_six() {
    let r = rosters();
    let mut g = new_game(&r, 1, TableKind::Empty);
    g.dice.force([5, 6, 3]).unwrap();
    place_opportunity(&mut g, &r).unwrap();
    let rolls: Vec<u8> = g
        .log()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Roll { purpose, dice, .. } if purpose == "opportunity edge" => Some(dice[0]),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, vec![5, 6, 3]);
    let EventKind::OpportunityPlaced { edge, .. } = opportunity_events(&g)[0] else {
        panic!()
    };
    assert_eq!(edge, 3);
}

#[test]
fn watchtower_ii_reveals_the_opportunity() {
    let r = rosters();
    let mut g = new_game(&r, 1, TableKind::Empty);
    level(&mut g, "Watchtower", 2);
    let t = place_opportunity(&mut g, &r).unwrap().unwrap();
    let tok = g.tokens.iter().find(|x| x.id == t).unwrap();
    assert_eq!(tok.kind, TokenKind::Opportunity { revealed: true });
    // Destroyed, it reveals nothing.
    g.building_mut("Watchtower").unwrap().destroyed = true;
    let t = place_opportunity(&mut g, &r).unwrap().unwrap();
    let tok = g.tokens.iter().find(|x| x.id == t).unwrap();
    assert_eq!(tok.kind, TokenKind::Opportunity { revealed: false });
}

/// A policy that orders one Trap by the Town Hall and counts its Councils.
struct TrapPolicy {
    calls: Cell<u32>,
    seen: Cell<i32>,
}

impl Hooks for TrapPolicy {
    fn policy_council(
        &self,
        game: &mut Game,
        info: &CouncilInfo,
    ) -> Result<Vec<CouncilOrder>, HookError> {
        self.calls.set(self.calls.get() + 1);
        self.seen.set(info.supplies);
        let th = rect(game, "Town Hall");
        Ok(vec![CouncilOrder::Trap {
            at: Vec2::new(th.center().x, th.min.y - 2.0),
        }])
    }
}

#[test]
fn after_a_non_final_wave_an_opportunity_and_a_council_and_after_the_final_wave_neither() {
    let r = rosters();
    let waves = r.length("intro").unwrap().waves.len() as u32;
    let hooks = TrapPolicy {
        calls: Cell::new(0),
        seen: Cell::new(-1),
    };
    let mut g = game(&r, 2);
    g.wave = waves - 1;
    let reps = between_waves(&mut g, &r, &hooks, "intro").unwrap();
    assert_eq!(hooks.calls.get(), 1);
    assert_eq!(hooks.seen.get(), 2);
    assert_eq!(reps.len(), 1);
    assert_eq!(reps[0].refused, None);
    assert_eq!(g.supplies, 1);
    assert_eq!(opportunity_events(&g).len(), 1);
    // The final wave: nothing placed, no Council.
    g.wave = waves;
    let before = g.log().len();
    let reps = between_waves(&mut g, &r, &hooks, "intro").unwrap();
    assert!(reps.is_empty());
    assert_eq!(hooks.calls.get(), 1);
    assert_eq!(g.log().len(), before);
}

#[test]
fn council_info_lists_costs_abilities_in_force_and_last_edges() {
    let r = rosters();
    let mut g = game(&r, 7);
    level(&mut g, "Forge", 3);
    level(&mut g, "Town Hall", 2);
    g.building_mut("Temple").unwrap().destroyed = true;
    let info = council::council_info(&g, &r);
    assert_eq!(info.supplies, 7);
    let cost = |n: &str| {
        info.buildings
            .iter()
            .find(|b| b.name == n)
            .unwrap()
            .upgrade_cost
    };
    assert_eq!(cost("Forge"), None);
    assert_eq!(cost("Town Hall"), Some(6));
    assert_eq!(cost("Temple"), None);
    assert_eq!(cost("Stable"), Some(3));
    let names: Vec<&str> = info.abilities.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Engineering Corps",
            "Repairs",
            "Master Craftsmen",
            "Reinforced Defenses"
        ]
    );
    assert!(info.abilities.iter().all(|a| !a.used));
    assert_eq!(info.barricade_cost, r.barricade.cost);
    assert_eq!(info.trap_within, r.trap.within);
}

fn play_json(seed: u64) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(["play", "--auto", "--length", "standard", "--json", "--seed"])
        .arg(seed.to_string())
        .output()
        .expect("village runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_default_policy_spends_supplies_in_the_council() {
    let mut bought = 0;
    for seed in 1..=4u64 {
        let v = play_json(seed);
        let waves = v["waves"].as_array().unwrap();
        let last = waves.len() - 1;
        for (i, w) in waves.iter().enumerate() {
            let council = w["council"].as_array().unwrap();
            if i == last || w["outcome"] != "win" {
                assert!(
                    council.is_empty(),
                    "seed {seed}: no Council after the last wave"
                );
            }
            bought += council.len();
        }
    }
    assert!(
        bought > 0,
        "the default policy bought nothing in four games"
    );
}

fn policy_host() -> village::script::ScriptHost {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    village::script::ScriptHost::open(
        &[
            Rosters::builtin_root(),
            root.join("tests/fixtures/council_policy_mod"),
        ],
        village::script::Limits::default(),
        1,
    )
    .unwrap_or_else(|e| panic!("{}", e.join("\n")))
}

#[test]
fn a_policy_council_reads_every_order_shape_and_its_errors_name_the_script() {
    let host = policy_host();
    let run = |src: &str| host.vm().exec(src, "council_test").map(|_| ());
    run(r#"
        local g = village.new_game({ seed = 1, table = "empty", length = "intro",
                                     heroes = { "Captain Maren", "Bram the Smith" } })
        g:damage("Town Hall", 2)
        local done = g:council()
        local want = { "upgrade", "repair", "repair", "barricade", "trap", "heal", "herb", "resurrect" }
        assert(#done == #want, #done)
        for i, r in ipairs(done) do
            assert(r.what == want[i], i .. " " .. r.what)
            assert(r.refused, i .. " is refused at 0 Supplies, Level I, no Wound, no Herb")
        end
        assert(done[1].building == "Forge" and done[6].hero == "Captain Maren")
        assert(done[4].pos.x == 15 and done[5].pos.y == 13)
        assert(done[2].refused:find("not enough Supplies"), done[2].refused)
        assert(done[3].refused:find("Town Hall at Level II"), done[3].refused)
        assert(done[8].refused:find("Temple at Level III"), done[8].refused)
        local n = 0
        for _, e in ipairs(g:log()) do
            if e.event == "council" then n = n + 1 end
        end
        assert(n == #want, "one council event per order")
        COUNCIL_GAME = g
    "#)
    .unwrap();
    let err = run("COUNCIL_GAME:start_wave(); COUNCIL_GAME:council()")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("policies/default.lua") && err.contains("unknown key \"bogus\""),
        "{err}"
    );
    let err = run("COUNCIL_GAME:start_wave(); COUNCIL_GAME:council()")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("policies/default.lua:8:") && err.contains("the council is closed"),
        "{err}"
    );
    // A malformed order handed to g:council names the caller's line.
    let err = run("\n\nCOUNCIL_GAME:council({ { trap = 3 } })")
        .unwrap_err()
        .to_string();
    assert!(err.contains(":3:") && err.contains("order 1"), "{err}");
}
