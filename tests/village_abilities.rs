//! The village buildings' wave-start and in-wave abilities (core §5.3, §7.3) and the Lua wave builder's
//! kernel side (SUPPLEMENT §10), played through the kernel with a Rust stand-in for the hero policy:
//! each ability at its Level and not below it or when its building is Destroyed, the Militias' "absent"
//! counting, the Lost Villagers, the Warhorse's one-wave Long Move, Ready Mounts' distance and contact
//! rule, Watchtower III's early edges and deployment, Overwatch once per wave within 3", the Blessing
//! against one activation's damage and fire, and the checks on a scripted wave.

mod common;

use std::cell::RefCell;
use village::geometry::Vec2;
use village::roster::{ProfileKind, Rosters};
use village::rules::hooks::{
    Aim, DeployChoices, DeployStep, Hooks, Modifier, Order, ScriptedGroup, ScriptedWave, WaveAsk,
    WaveStartStep,
};
use village::rules::movement::move_distance;
use village::rules::ranged::{shoot, ShotOptions};
use village::rules::structural::{ignite, structural};
use village::rules::HookError;
use village::state::{self, EventKind, Game, ModelId, Side, TableKind};
use village::wave::abilities;
use village::wave::play::{end_of_wave, start_wave};
use village::wave::{WaveError, WavePlan};

/// A hero policy in Rust: answers what the test set, records what it was asked; the core traits as
/// `common::Core` grants them; enemies attack the building in `attack` when adjacent.
#[derive(Default)]
struct Policy {
    warhorse: RefCell<Option<ModelId>>,
    ready: RefCell<Option<(ModelId, Vec2)>>,
    blessing: RefCell<Option<String>>,
    wave: RefCell<Option<ScriptedWave>>,
    attack: RefCell<Option<String>>,
    steps: RefCell<Vec<DeployStep>>,
    blessings_asked: RefCell<usize>,
}

impl Hooks for Policy {
    core_traits!();
    fn deploy_choices(&self, _: &mut Game, step: &DeployStep) -> Result<DeployChoices, HookError> {
        self.steps.borrow_mut().push(step.clone());
        Ok(DeployChoices {
            source: "test policy".into(),
            warhorse: *self.warhorse.borrow(),
            ready_mounts: *self.ready.borrow(),
        })
    }
    fn blessing(&self, _: &mut Game, _: &[ModelId]) -> Result<Option<(String, String)>, HookError> {
        *self.blessings_asked.borrow_mut() += 1;
        Ok(self
            .blessing
            .borrow()
            .clone()
            .map(|b| (b, "test policy".to_string())))
    }
    fn build_wave(&self, _: &mut Game, _: &WaveAsk) -> Result<Option<ScriptedWave>, HookError> {
        Ok(self.wave.borrow().clone())
    }
    fn behaviour_target(&self, _: &mut Game, _: ModelId) -> Result<Option<Aim>, HookError> {
        Ok(self.attack.borrow().clone().map(Aim::Building))
    }
    fn behaviour_act(
        &self,
        _: &mut Game,
        _: ModelId,
        aim: &Aim,
    ) -> Result<Option<Order>, HookError> {
        Ok(match aim {
            Aim::Building(b) => Some(Order::Structural(b.clone())),
            _ => None,
        })
    }
}

fn rosters() -> Rosters {
    Rosters::load(&[Rosters::builtin_root()]).expect("built-in rosters load")
}

/// A game with a party of `heroes` (named in the party) standing on the table's centre.
fn game(r: &Rosters, seed: u64, kind: TableKind, heroes: &[&str]) -> Game {
    let mut g = state::new_game(r, seed, kind);
    let c = g.table.center();
    for h in heroes {
        g.add_model(state::model_from_profile(r.profile(h).unwrap(), r, c));
        g.party.push(h.to_string());
    }
    g
}

const PARTY: [&str; 2] = ["Captain Maren", "Tobin the Marksman"];

fn set_level(g: &mut Game, name: &str, level: u8) {
    g.building_mut(name).unwrap().level = level;
}

fn count(g: &Game, name: &str) -> usize {
    g.side(Side::Heroes).filter(|m| m.name == name).count()
}

fn abilities_used(g: &Game, name: &str) -> Vec<(String, String, Vec<ModelId>)> {
    g.log()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::BuildingAbility {
                ability,
                building,
                detail,
                models,
                ..
            } if ability == name => Some((building.clone(), detail.clone(), models.clone())),
            _ => None,
        })
        .collect()
}

fn refusals(g: &Game) -> Vec<(String, String)> {
    g.log()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Refused { choice, reason, .. } => Some((choice.clone(), reason.clone())),
            _ => None,
        })
        .collect()
}

/// The gap from a model's base to a building's outline.
fn gap_to(g: &Game, id: ModelId, building: &str) -> f64 {
    let m = g.model(id).unwrap();
    village::geometry::circle_rect_gap(&m.circle(), &g.building(building).unwrap().rect)
}

/// Whole base within `d` of the building's outline.
fn wholly_within(g: &Game, id: ModelId, building: &str, d: f64) -> bool {
    gap_to(g, id, building) + g.model(id).unwrap().base <= d + 1e-6
}

// ---- step 1: Militias and the Lost Villagers --------------------------------------------------------

#[test]
fn village_militia_deploys_only_the_absent_archers_by_the_town_hall_at_level_iii() {
    let r = rosters();
    let hooks = Policy::default();
    let mut g = game(&r, 3, TableKind::Generated, &PARTY);
    set_level(&mut g, "Town Hall", 3);
    // One Village Archer already in play: only one more comes.
    let c = g.table.center();
    g.add_model(state::model_from_profile(
        r.profile("Village Archer").unwrap(),
        &r,
        c,
    ));
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert_eq!(count(&g, "Village Archer"), 2);
    let used = abilities_used(&g, "Village Militia");
    assert_eq!(used.len(), 1);
    assert_eq!(used[0].0, "Town Hall");
    assert_eq!(used[0].2.len(), 1, "one absent archer: {}", used[0].1);
    assert!(wholly_within(&g, used[0].2[0], "Town Hall", 6.0));
    // Both in play: no replacements the next wave.
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert_eq!(count(&g, "Village Archer"), 2);
    let used = abilities_used(&g, "Village Militia");
    assert!(used[1].2.is_empty() && used[1].1.contains("no replacements"));
    // One falls: one replacement.
    let archer = g
        .side(Side::Heroes)
        .find(|m| m.name == "Village Archer")
        .unwrap()
        .id;
    g.remove_model(archer, "defeated").unwrap();
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert_eq!(count(&g, "Village Archer"), 2);
}

#[test]
fn rider_militia_deploys_two_riders_by_the_stable_at_level_iii() {
    let r = rosters();
    let hooks = Policy::default();
    let mut g = game(&r, 4, TableKind::Generated, &PARTY);
    set_level(&mut g, "Stable", 3);
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    let used = abilities_used(&g, "Rider Militia");
    assert_eq!(used.len(), 1);
    assert_eq!(used[0].2.len(), 2);
    for id in &used[0].2 {
        assert_eq!(g.model(*id).unwrap().name, "Village Rider");
        // Step 2 leaves them by the Stable rather than moving them to the Town Hall.
        assert!(wholly_within(&g, *id, "Stable", 6.0));
    }
}

#[test]
fn the_militias_do_nothing_below_level_iii_or_when_destroyed() {
    let r = rosters();
    let hooks = Policy::default();
    let mut g = game(&r, 3, TableKind::Generated, &PARTY);
    set_level(&mut g, "Town Hall", 2);
    set_level(&mut g, "Stable", 3);
    g.building_mut("Stable").unwrap().destroyed = true;
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert_eq!(count(&g, "Village Archer"), 0);
    assert_eq!(count(&g, "Village Rider"), 0);
    assert!(abilities_used(&g, "Village Militia").is_empty());
    assert!(abilities_used(&g, "Rider Militia").is_empty());
}

#[test]
fn lost_villagers_join_by_the_town_hall_and_the_queue_empties() {
    let r = rosters();
    let hooks = Policy::default();
    let mut g = game(&r, 5, TableKind::Generated, &PARTY);
    g.joining = vec!["Village Archer".into(), "Orc Warrior".into()];
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert!(g.joining.is_empty());
    assert_eq!(count(&g, "Village Archer"), 1);
    let refused = refusals(&g);
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].1.contains("not a Village Defender"));
    // With the Village Militia in force the Militia fills up to two first, then the joiner comes on top
    // (ARCHITECTURE.md, Rulings).
    let mut g = game(&r, 5, TableKind::Generated, &PARTY);
    set_level(&mut g, "Town Hall", 3);
    g.joining = vec!["Village Archer".into()];
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert_eq!(count(&g, "Village Archer"), 3);
}

// ---- step 1: the Warhorse ----------------------------------------------------------------------------

#[test]
fn the_warhorse_grants_long_move_for_one_wave_only() {
    let r = rosters();
    let hooks = Policy::default();
    let mut g = game(&r, 6, TableKind::Generated, &PARTY);
    set_level(&mut g, "Stable", 2);
    let maren = g
        .models
        .iter()
        .find(|m| m.name == "Captain Maren")
        .unwrap()
        .id;
    *hooks.warhorse.borrow_mut() = Some(maren);
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    let steps = hooks.steps.borrow().clone();
    assert_eq!(steps[0].step, WaveStartStep::Abilities);
    assert_eq!(steps[0].asks, vec!["warhorse".to_string()]);
    assert!(
        steps[0].edges.is_none(),
        "no Watchtower III: edges still hidden"
    );
    let m = g.model(maren).unwrap();
    assert!(m.has_trait("Long Move"));
    assert_eq!(m.granted_by("Long Move"), Some("Stable II Warhorse"));
    let band = move_distance(&r.rules, &hooks.movement_traits(&g, maren, &[]).unwrap());
    assert_eq!(band, r.rules.measures.long);
    assert_eq!(abilities_used(&g, "Warhorse").len(), 1);
    // The next wave the grant is gone unless chosen again.
    *hooks.warhorse.borrow_mut() = None;
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert!(!g.model(maren).unwrap().has_trait("Long Move"));
    let band = move_distance(&r.rules, &hooks.movement_traits(&g, maren, &[]).unwrap());
    assert_eq!(band, r.rules.measures.medium);
}

#[test]
fn the_warhorse_is_not_asked_at_level_i_or_when_the_stable_is_destroyed_and_refuses_a_defender() {
    let r = rosters();
    let hooks = Policy::default();
    let mut g = game(&r, 6, TableKind::Generated, &PARTY);
    let maren = g.models[0].id;
    *hooks.warhorse.borrow_mut() = Some(maren);
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    // Level I: only Ready Mounts asks (step 4), and a warhorse answer there is refused.
    let steps = hooks.steps.borrow().clone();
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].step, WaveStartStep::ReadyMounts);
    assert!(!g.model(maren).unwrap().has_trait("Long Move"));
    assert!(refusals(&g)
        .iter()
        .any(|(c, why)| c.starts_with("warhorse") && why.contains("step 1")));

    let hooks = Policy::default();
    let mut g = game(&r, 6, TableKind::Generated, &PARTY);
    set_level(&mut g, "Stable", 3);
    g.building_mut("Stable").unwrap().destroyed = true;
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert!(
        hooks.steps.borrow().is_empty(),
        "a Destroyed Stable asks nothing"
    );

    let hooks = Policy::default();
    let mut g = game(&r, 6, TableKind::Generated, &PARTY);
    set_level(&mut g, "Stable", 2);
    let c = g.table.center();
    let lad = g.add_model(state::model_from_profile(
        r.profile("Village Archer").unwrap(),
        &r,
        c,
    ));
    *hooks.warhorse.borrow_mut() = Some(lad);
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert!(!g.model(lad).unwrap().has_trait("Long Move"));
    assert!(refusals(&g)
        .iter()
        .any(|(_, why)| why.contains("is not a hero")));
    assert_eq!(g.round, 1, "the wave goes on");
}

// ---- step 4: Ready Mounts ----------------------------------------------------------------------------

fn empty_plan() -> WavePlan {
    WavePlan {
        escalation: "I".into(),
        budget: 0,
        spent: 0,
        behaviour: None,
        groups: Vec::new(),
        unmet: Vec::new(),
    }
}

#[test]
fn ready_mounts_moves_one_hero_up_to_short_never_into_contact() {
    let r = rosters();
    let short = r.rules.measures.short;
    let (_, mut g) = common::setup();
    let hero = common::place(&r, &mut g, "Captain Maren", 4.0, 4.0);
    let foe = common::place(&r, &mut g, "Orc Warrior", 4.0 + short + 1.0, 4.0);
    let hooks = Policy::default();

    // Too far: refused, nothing moves.
    *hooks.ready.borrow_mut() = Some((hero, Vec2::new(4.0, 4.0 + short + 0.5)));
    abilities::ready_mounts(&mut g, &r, &hooks, &empty_plan()).unwrap();
    assert_eq!(g.model(hero).unwrap().pos, Vec2::new(4.0, 4.0));
    assert!(refusals(&g).last().unwrap().1.contains("would move"));

    // Into contact with the Orc (its base edge is Short away): refused, the hero stays.
    *hooks.ready.borrow_mut() = Some((hero, Vec2::new(4.0 + short, 4.0)));
    abilities::ready_mounts(&mut g, &r, &hooks, &empty_plan()).unwrap();
    assert_eq!(g.model(hero).unwrap().pos, Vec2::new(4.0, 4.0));
    assert!(
        refusals(&g).last().unwrap().1.contains("contact"),
        "{:?}",
        refusals(&g)
    );
    assert!(g.model(foe).is_ok());

    // A Village Defender is not a hero.
    let archer = common::place(&r, &mut g, "Village Archer", 10.0, 4.0);
    *hooks.ready.borrow_mut() = Some((archer, Vec2::new(11.0, 4.0)));
    abilities::ready_mounts(&mut g, &r, &hooks, &empty_plan()).unwrap();
    assert!(refusals(&g).last().unwrap().1.contains("is not a hero"));

    // Exactly Short, away from the Orc: done, logged, and not an action (moves unchanged).
    *hooks.ready.borrow_mut() = Some((hero, Vec2::new(4.0, 4.0 + short)));
    abilities::ready_mounts(&mut g, &r, &hooks, &empty_plan()).unwrap();
    let m = g.model(hero).unwrap();
    assert!((m.pos.y - (4.0 + short)).abs() < 1e-9);
    assert_eq!(m.moves, 0);
    assert_eq!(abilities_used(&g, "Ready Mounts").len(), 1);
    assert_eq!(refusals(&g).len(), 3);

    // A Destroyed Stable asks nothing.
    g.building_mut("Stable").unwrap().destroyed = true;
    hooks.steps.borrow_mut().clear();
    abilities::ready_mounts(&mut g, &r, &hooks, &empty_plan()).unwrap();
    assert!(hooks.steps.borrow().is_empty());
}

// ---- steps 2–3: Watchtower III -----------------------------------------------------------------------

#[test]
fn watchtower_iii_reveals_the_edges_before_hero_deployment_and_heroes_deploy_by_any_building() {
    let r = rosters();
    let four = [
        "Captain Maren",
        "Tobin the Marksman",
        "Sister Ilse",
        "Bram the Smith",
    ];
    let position =
        |g: &Game, f: &dyn Fn(&EventKind) -> bool| g.log().iter().position(|e| f(&e.kind)).unwrap();
    // Without it: the edges are revealed after the heroes deploy, all by the Town Hall.
    let hooks = Policy::default();
    let mut g = game(&r, 8, TableKind::Generated, &four);
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    let reveal = position(&g, &|k| {
        matches!(k, EventKind::EdgesRevealed { by: None, .. })
    });
    let deployed = position(&g, &|k| matches!(k, EventKind::Deployed { .. }));
    assert!(deployed < reveal);
    for m in g.side(Side::Heroes) {
        assert!(wholly_within(&g, m.id, "Town Hall", 6.0));
    }
    // With it: revealed first, by the Watchtower, and the heroes spread over the buildings.
    let hooks = Policy::default();
    let mut g = game(&r, 8, TableKind::Generated, &four);
    set_level(&mut g, "Watchtower", 3);
    let plan = start_wave(&mut g, &r, &hooks, "standard").unwrap();
    let reveal = position(&g, &|k| {
        matches!(k, EventKind::EdgesRevealed { by: Some(_), .. })
    });
    let deployed = position(&g, &|k| matches!(k, EventKind::Deployed { .. }));
    assert!(reveal < deployed);
    match &g.log()[reveal].kind {
        EventKind::EdgesRevealed { edges, by, .. } => {
            assert_eq!(by.as_deref(), Some("Watchtower III Advanced Deployment"));
            assert_eq!(
                edges,
                &plan.groups.iter().map(|x| x.edge).collect::<Vec<_>>()
            );
        }
        _ => unreachable!(),
    }
    let nears: std::collections::BTreeSet<String> = g
        .log()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Deployed { near, .. } => Some(near.clone()),
            _ => None,
        })
        .collect();
    assert!(nears.len() >= 2, "deployed by several buildings: {nears:?}");
    for m in g.side(Side::Heroes) {
        let ok = g
            .buildings
            .iter()
            .any(|b| wholly_within(&g, m.id, &b.name, 6.0));
        assert!(ok, "{} within 6\" of a building", m.name);
    }
    // The Ready Mounts step sees the edges; so does step 1 with Watchtower III and the Stable at II.
    let hooks = Policy::default();
    let mut g = game(&r, 8, TableKind::Generated, &four);
    set_level(&mut g, "Watchtower", 3);
    set_level(&mut g, "Stable", 2);
    start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert!(hooks.steps.borrow().iter().all(|s| s.edges.is_some()));
}

/// Something done to a game before a shot.
type Prep = dyn Fn(&mut Game);

// ---- Overwatch ----------------------------------------------------------------------------------------

fn overwatch_mods(report: &village::rules::melee::CombatReport) -> Vec<Modifier> {
    report
        .modifiers
        .iter()
        .filter(|m| m.reason == "Overwatch")
        .cloned()
        .collect()
}

#[test]
fn overwatch_gives_one_ranged_attack_per_wave_plus_one_within_3_inches_of_the_watchtower() {
    let r = rosters();
    let hooks = Policy::default();
    let (_, mut g) = common::setup();
    g.round = 1;
    // The Watchtower's south side is at y = 9 on the standard table.
    let wt = g.building("Watchtower").unwrap().rect;
    let tobin = common::place(&r, &mut g, "Tobin the Marksman", 18.0, wt.min.y - 2.5);
    let foe = common::place(&r, &mut g, "Ogre Brute", 24.0, 3.0);
    assert!((gap_to(&g, tobin, "Watchtower") - 2.0).abs() < 1e-9);
    g.dice.force([3, 3]).unwrap();
    let first = shoot(&mut g, &r, &hooks, tobin, foe, ShotOptions::default()).unwrap();
    let ow = overwatch_mods(&first);
    assert_eq!(ow.len(), 1, "{:?}", first.modifiers);
    assert_eq!(ow[0].value, r.rules.ranged.overwatch);
    assert_eq!(ow[0].source, "Watchtower I Overwatch");
    assert_eq!(
        first.attacker_total,
        3 + 3 + 1 + 1,
        "die + Combat + Overwatch + Big target"
    );
    assert!(g.spent.iter().any(|s| s == "wave:Overwatch"));
    // Once per wave.
    if g.model(foe).is_ok() {
        let second = shoot(&mut g, &r, &hooks, tobin, foe, ShotOptions::default()).unwrap();
        assert!(overwatch_mods(&second).is_empty());
    }
    assert_eq!(abilities_used(&g, "Overwatch").len(), 1);

    // Farther than 3": none; a Village Defender: none; outside a wave: none; Destroyed: none.
    let cases: [(&str, f64, &Prep); 4] = [
        ("Tobin the Marksman", 3.5, &|_| {}),
        ("Village Archer", 2.0, &|_| {}),
        ("Tobin the Marksman", 2.0, &|g| g.round = 0),
        ("Tobin the Marksman", 2.0, &|g| {
            g.building_mut("Watchtower").unwrap().destroyed = true
        }),
    ];
    for (who, gap, prep) in cases {
        let (_, mut g) = common::setup();
        g.round = 1;
        prep(&mut g);
        let base = r.profile(who).unwrap().base_diameter(&r.rules);
        let s = common::place(&r, &mut g, who, 18.0, wt.min.y - gap - base / 2.0);
        let foe = common::place(&r, &mut g, "Ogre Brute", 24.0, 3.0);
        let rep = shoot(&mut g, &r, &hooks, s, foe, ShotOptions::default()).unwrap();
        assert!(overwatch_mods(&rep).is_empty(), "{who} at {gap}\"");
    }
}

// ---- Blessing -----------------------------------------------------------------------------------------

#[test]
fn the_blessing_ignores_damage_and_fire_of_that_activation_only() {
    let r = rosters();
    let hooks = Policy::default();
    let (_, mut g) = common::setup();
    g.round = 1;
    set_level(&mut g, "Temple", 2);
    let forge = g.building("Forge").unwrap().rect;
    let th = g.building("Town Hall").unwrap().rect;
    // An Igniter against the Forge's north side, another against the Town Hall's west side.
    let imp = common::place(&r, &mut g, "Orc Warrior", 18.0, forge.max.y + 0.5);
    let other = common::place(&r, &mut g, "Orc Warrior", th.min.x - 0.5, 18.0);
    // A defender on the table: with none, the village is overrun and nothing more resolves.
    common::place(&r, &mut g, "Bram the Smith", 3.0, 3.0);
    *hooks.blessing.borrow_mut() = Some("Forge".into());
    abilities::offer_blessing(&mut g, &r, &hooks, &[imp]).unwrap();
    assert_eq!(g.blessed.as_ref().unwrap().building, "Forge");
    let before = g.building("Forge").unwrap().integrity;
    g.dice.force([6, 1]).unwrap();
    let rep = structural(&mut g, &r.rules, &hooks, imp, "Forge", false).unwrap();
    assert_eq!(rep.damage, 0);
    assert_eq!(g.building("Forge").unwrap().integrity, before);
    ignite(&mut g, &r.rules, &hooks, imp, "Forge").unwrap();
    assert!(g.building("Forge").unwrap().fire_blessed);
    // The Town Hall is not Blessed.
    g.dice.force([6, 1]).unwrap();
    let rep = structural(&mut g, &r.rules, &hooks, other, "Town Hall", false).unwrap();
    assert_eq!(rep.damage, 1);
    // The activation ends (the turn engine clears it): damage counts again, and it was once per wave.
    g.blessed = None;
    abilities::offer_blessing(&mut g, &r, &hooks, &[imp]).unwrap();
    assert!(g.blessed.is_none(), "spent for this wave");
    assert_eq!(*hooks.blessings_asked.borrow(), 1);
    g.dice.force([6, 1]).unwrap();
    structural(&mut g, &r.rules, &hooks, imp, "Forge", false).unwrap();
    assert_eq!(g.building("Forge").unwrap().integrity, before - 1);
    // A fire lit later on the Town Hall burns; the Blessed fire on the Forge does not.
    ignite(&mut g, &r.rules, &hooks, other, "Town Hall").unwrap();
    let th_before = g.building("Town Hall").unwrap().integrity;
    g.wave = 1;
    end_of_wave(&mut g, &r, &village::rules::hooks::NoHooks).unwrap();
    assert_eq!(g.building("Forge").unwrap().integrity, before - 1);
    assert_eq!(g.building("Town Hall").unwrap().integrity, th_before - 1);
    assert!(!g.building("Forge").unwrap().fire);
    assert_eq!(
        abilities_used(&g, "Blessing").len(),
        3,
        "given, damage ignored, fire ignored"
    );
}

#[test]
fn the_turn_engine_offers_the_blessing_before_a_group_activates_and_ends_it_with_the_activation() {
    let r = rosters();
    let hooks = Policy::default();
    *hooks.attack.borrow_mut() = Some("Forge".into());
    *hooks.blessing.borrow_mut() = Some("Forge".into());
    let (_, mut g) = common::setup();
    g.round = 1;
    let forge = g.building("Forge").unwrap().rect;
    let orc = common::place(&r, &mut g, "Orc Warrior", 18.0, forge.max.y + 0.5);
    g.model_mut(orc).unwrap().group = Some(1);
    // A defender far away: with none, the village is overrun and the enemy turn does nothing.
    common::place(&r, &mut g, "Bram the Smith", 3.0, 3.0);
    // Temple at Level I: never asked.
    g.dice.force([6, 6, 6, 1, 6, 1]).unwrap();
    village::wave::turn::enemy_turn(&mut g, &r, &hooks).unwrap();
    assert_eq!(*hooks.blessings_asked.borrow(), 0);
    let hit = g.building("Forge").unwrap().integrity;
    assert!(hit < 5, "the Orc hit the Forge");
    // Temple II: asked before the activation; the Forge ignores its two hits; cleared afterwards.
    set_level(&mut g, "Temple", 2);
    g.dice.force([6, 6, 6, 1, 6, 1]).unwrap();
    village::wave::turn::enemy_turn(&mut g, &r, &hooks).unwrap();
    assert_eq!(*hooks.blessings_asked.borrow(), 1);
    assert_eq!(g.building("Forge").unwrap().integrity, hit);
    assert!(g.blessed.is_none());
    // Spent: the next activation is not asked and damages the Forge.
    g.dice.force([6, 6, 6, 1, 6, 1]).unwrap();
    village::wave::turn::enemy_turn(&mut g, &r, &hooks).unwrap();
    assert_eq!(*hooks.blessings_asked.borrow(), 1);
    assert!(g.building("Forge").unwrap().integrity < hit);
    // A Destroyed Temple has no Blessing.
    g.spent.clear();
    g.building_mut("Temple").unwrap().destroyed = true;
    g.dice.force([6, 6]).unwrap();
    village::wave::turn::enemy_turn(&mut g, &r, &hooks).unwrap();
    assert_eq!(*hooks.blessings_asked.borrow(), 1);
}

// ---- a scripted wave ----------------------------------------------------------------------------------

fn group(models: &[&str], behaviour: &str, edge: i64) -> ScriptedGroup {
    ScriptedGroup {
        models: models.iter().map(|s| s.to_string()).collect(),
        behaviour: behaviour.into(),
        edge,
    }
}

#[test]
fn a_scripted_wave_is_checked_then_deployed_as_usual() {
    let r = rosters();
    let hooks = Policy::default();
    *hooks.wave.borrow_mut() = Some(ScriptedWave {
        source: "scripts/variants/test.lua".into(),
        groups: vec![
            group(&["Zombie", "Zombie", "Zombie"], "Mindless", 1),
            group(&["Orc Warrior"], "Hunter", 3),
        ],
    });
    let mut g = game(&r, 2, TableKind::Generated, &PARTY);
    let plan = start_wave(&mut g, &r, &hooks, "standard").unwrap();
    assert_eq!(plan.groups.len(), 2);
    assert_eq!((plan.groups[0].edge, plan.groups[1].edge), (1, 3));
    assert_eq!(g.side(Side::Enemies).count(), 4);
    assert!(g.log().iter().any(|e| matches!(
        &e.kind,
        EventKind::WaveBuilt { builder: Some(b), .. } if b == "scripts/variants/test.lua"
    )));
    assert!(g
        .side(Side::Enemies)
        .filter(|m| m.name == "Orc Warrior")
        .all(|m| m.behaviour.as_deref() == Some("Hunter") && m.group == Some(2)));

    let bad = |groups: Vec<ScriptedGroup>, needle: &str| {
        *hooks.wave.borrow_mut() = Some(ScriptedWave {
            source: "scripts/variants/bad.lua".into(),
            groups,
        });
        let mut g = game(&r, 2, TableKind::Generated, &PARTY);
        let before = g.log().len();
        let e = start_wave(&mut g, &r, &hooks, "standard").unwrap_err();
        assert!(matches!(e, WaveError::Builder { .. }), "{e}");
        let text = e.to_string();
        assert!(text.starts_with("scripts/variants/bad.lua: "), "{text}");
        assert!(text.contains(needle), "{text}");
        assert_eq!(g.log().len(), before, "nothing happened");
        assert_eq!(g.wave, 0);
    };
    bad(
        vec![group(&["Goblin King"], "Raider", 1)],
        "not an enemy profile",
    );
    bad(
        vec![group(&["Captain Maren"], "Hunter", 1)],
        "not an enemy profile",
    );
    bad(
        vec![group(&["Zombie"], "Fanatic", 1)],
        "does not list the Fanatic",
    );
    bad(
        vec![group(&["Zombie"], "Sneaky", 1)],
        "no Behaviour \"Sneaky\"",
    );
    bad(vec![group(&["Zombie"], "Mindless", 5)], "spawn edge 5");
    bad(vec![group(&["Zombie"], "Mindless", 0)], "spawn edge 0");
    bad(vec![group(&[], "Mindless", 1)], "1 to 5");
    bad(vec![group(&["Zombie"; 6], "Mindless", 1)], "1 to 5");
    // Escalation I for two heroes: 80 Wave Points; ten Zombies cost 80, eleven do not fit.
    let budget = r.escalation("I").unwrap().budget(200);
    let zombie = r.profile("Zombie").unwrap().cost();
    let n = (budget / zombie + 1) as usize;
    let groups: Vec<ScriptedGroup> = (0..n).map(|_| group(&["Zombie"], "Mindless", 1)).collect();
    bad(groups, "Wave Points");
    assert!(r
        .profiles_of(ProfileKind::Enemy)
        .any(|p| p.name == "Zombie"));
}

#[test]
fn overwatch_is_used_as_often_a_wave_as_its_per_wave_param_says() {
    // The roster's `params.per_wave` (1) is read: a roster giving 2 lets two shots of the wave have it.
    let mut r = rosters();
    let watchtower = r
        .buildings
        .iter_mut()
        .find(|b| b.name == "Watchtower")
        .unwrap();
    let ow = watchtower
        .abilities
        .iter_mut()
        .find(|a| a.name == "Overwatch")
        .unwrap();
    ow.params
        .insert("per_wave".into(), village::roster::ParamValue::Int(2));
    let hooks = Policy::default();
    let (_, mut g) = common::setup();
    g.round = 1;
    let wt = g.building("Watchtower").unwrap().rect;
    let tobin = common::place(&r, &mut g, "Tobin the Marksman", 18.0, wt.min.y - 2.5);
    let foe = common::place(&r, &mut g, "Ogre Brute", 24.0, 3.0);
    let mut with = 0;
    for _ in 0..3 {
        if g.model(foe).is_err() {
            break;
        }
        // The Ogre defends with 6 + 4 and the shot misses (a target only defends): every shot is made.
        g.dice.force([3, 6]).unwrap();
        let shot = shoot(&mut g, &r, &hooks, tobin, foe, ShotOptions::default()).unwrap();
        with += overwatch_mods(&shot).len();
    }
    assert_eq!(with, 2, "two shots of the wave had Overwatch");
    assert_eq!(abilities_used(&g, "Overwatch").len(), 2);
}
