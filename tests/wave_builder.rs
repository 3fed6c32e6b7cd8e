//! The default wave builder (core §5.1–5.2, SUPPLEMENT §5, §8, §10): budgets per length and party, every
//! §5.2 limit over many seeds × every Escalation × 2–4 heroes, spending until nothing fits, determinism,
//! and every die and choice in the log.

use std::collections::BTreeMap;
use village::roster::{Escalation, Profile, ProfileKind, Rosters, Tier};
use village::state::{self, EventKind, Game, TableKind};
use village::wave::{self, WaveError, WavePlan};

const SEEDS: u64 = 300;
const ESCALATIONS: [&str; 7] = ["I", "II", "III", "IV", "V", "VI", "VII"];

fn rosters() -> Rosters {
    Rosters::load(&[Rosters::builtin_root()]).expect("built-in rosters load")
}

fn game(r: &Rosters, seed: u64) -> Game {
    state::new_game(r, seed, TableKind::Empty)
}

fn enemy<'r>(r: &'r Rosters, name: &str) -> &'r Profile {
    let p = r
        .profile(name)
        .unwrap_or_else(|| panic!("no profile {name}"));
    assert_eq!(
        p.kind,
        ProfileKind::Enemy,
        "{name} is not from the Bestiary"
    );
    p
}

/// SUPPLEMENT §5, typed in here from the book so the rosters are checked against it.
fn supplement_percent(esc: &str) -> i64 {
    match esc {
        "I" => 40,
        "II" => 55,
        "III" => 70,
        "IV" => 85,
        "V" => 100,
        "VI" => 120,
        "VII" => 140,
        _ => unreachable!(),
    }
}

#[test]
fn budgets_for_every_length_and_party_match_supplement_5() {
    let r = rosters();
    let lengths: [(&str, &[&str]); 3] = [
        ("intro", &["I", "II", "III", "IV", "V"]),
        ("standard", &["I", "II", "III", "IV", "V", "VI", "VII"]),
        (
            "siege",
            &["I", "II", "III", "III", "IV", "V", "V", "VI", "VI", "VII"],
        ),
    ];
    for (length, waves) in lengths {
        assert_eq!(r.waves(length).unwrap().len(), waves.len(), "{length}");
        for (i, name) in waves.iter().enumerate() {
            let esc = wave::escalation_for_wave(&r, length, i as u32 + 1).unwrap();
            assert_eq!(esc.name, *name, "{length} wave {}", i + 1);
            for heroes in 2..=4u32 {
                let want = 100 * i64::from(heroes) * supplement_percent(name) / 100;
                assert_eq!(wave::budget(&r, &esc, heroes), want, "{name} × {heroes}");
                let mut g = game(&r, 1);
                let plan = wave::build_wave(&mut g, &r, name, heroes).unwrap();
                assert_eq!(plan.budget, want);
            }
        }
        let past = waves.len() as u32 + 1;
        assert!(matches!(
            wave::escalation_for_wave(&r, length, past),
            Err(WaveError::NoSuchWave { .. })
        ));
        assert!(matches!(
            wave::escalation_for_wave(&r, length, 0),
            Err(WaveError::NoSuchWave { .. })
        ));
    }
    let esc = |n: &str| r.escalation(n).unwrap();
    assert_eq!(wave::budget(&r, esc("I"), 4), 160);
    assert_eq!(wave::budget(&r, esc("II"), 3), 165);
    assert_eq!(wave::budget(&r, esc("VII"), 2), 280);
    assert_eq!(wave::budget(&r, esc("VII"), 4), 560);
    // rules.wave.budget_percent scales every wave's budget, rounded down (100 is the rulebook's).
    let mut scaled = r.clone();
    scaled.rules.wave.budget_percent = 45;
    assert_eq!(wave::budget(&scaled, esc("I"), 4), 72);
    assert_eq!(wave::budget(&scaled, esc("II"), 3), 74); // 165 × 45% = 74.25
    scaled.rules.wave.budget_percent = 140;
    assert_eq!(wave::budget(&scaled, esc("VII"), 4), 784);
    // The worked costs the limits are judged against.
    assert_eq!(enemy(&r, "Orc Warlord").cost(), 116);
    assert_eq!(enemy(&r, "Young Dragon").cost(), 144);
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let r = rosters();
    let mut g = game(&r, 3);
    // A new game has logged its setup (event 0); a refused wave adds nothing after it.
    let setup = g.log().to_vec();
    assert_eq!(setup.len(), 1);
    assert_eq!(
        wave::build_wave(&mut g, &r, "VIII", 3),
        Err(WaveError::UnknownEscalation("VIII".into()))
    );
    for heroes in [0, 1, 5, u32::MAX] {
        assert!(
            matches!(
                wave::build_wave(&mut g, &r, "I", heroes),
                Err(WaveError::PartySize { .. })
            ),
            "{heroes} heroes"
        );
    }
    assert!(matches!(
        wave::escalation_for_wave(&r, "marathon", 1),
        Err(WaveError::UnknownLength(_))
    ));
    assert_eq!(g.log(), setup.as_slice(), "a refused wave logs nothing");
    // A rosters value gone wild is refused, not looped on.
    let mut big = r.clone();
    big.rules.wave.party_value_per_hero = i64::MAX;
    assert!(matches!(
        wave::build_wave(&mut g, &big, "VII", 4),
        Err(WaveError::TooLarge { .. })
    ));
    let mut free = r.clone();
    if let Some(p) = free.profiles.iter_mut().find(|p| p.name == "Zombie") {
        p.printed_wave_points = Some(0);
    }
    assert!(matches!(
        wave::build_wave(&mut g, &free, "I", 2),
        Err(WaveError::BadCost { .. })
    ));
}

/// Which tiers may lead (take the first place of) Group `number` at this Escalation.
fn leader_allowed(esc: &Escalation, tier: Tier, number: u32) -> bool {
    match tier {
        Tier::Mob => !(esc.boss_first && number == 1),
        Tier::Elite => !esc.mobs_only && esc.elites_allowed && !(esc.boss_first && number == 1),
        Tier::Boss => !esc.mobs_only && esc.boss_first && number == 1,
        _ => false,
    }
}

/// Cheapest profile that may lead a Group after the first (offering the wave's Behaviour, if any).
fn cheapest_eligible(r: &Rosters, esc: &Escalation, plan: &WavePlan) -> i64 {
    r.profiles_of(ProfileKind::Enemy)
        .filter(|p| {
            p.tier == Tier::Mob || (p.tier == Tier::Elite && leader_allowed(esc, p.tier, 2))
        })
        .filter(|p| {
            plan.behaviour
                .as_ref()
                .is_none_or(|b| p.behaviours.contains(b))
        })
        .map(|p| p.cost())
        .min()
        .unwrap()
}

/// Die faces of the logged rolls for one purpose.
fn faces(events: &[EventKind], purpose: &str) -> Vec<u8> {
    events
        .iter()
        .filter_map(|e| match e {
            EventKind::Roll {
                purpose: p, dice, ..
            } if p.starts_with(purpose) => Some(dice.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn picked(events: &[EventKind], purpose: &str) -> Option<String> {
    events.iter().find_map(|e| match e {
        EventKind::Choice {
            purpose: p,
            picked,
            options,
        } if p.starts_with(purpose) => {
            assert!(options.contains(picked));
            Some(picked.clone())
        }
        _ => None,
    })
}

/// Every §5.2 limit of one built wave, and that the log explains it.
fn check(r: &Rosters, esc: &Escalation, heroes: u32, plan: &WavePlan, events: &[EventKind]) {
    let ctx = format!("Escalation {} × {heroes}: {plan:?}", esc.name);
    let budget = 100 * i64::from(heroes) * i64::from(esc.budget_percent) / 100;
    assert_eq!(plan.budget, budget, "{ctx}");
    assert!(plan.unmet.is_empty(), "{ctx}");
    assert!(!plan.groups.is_empty(), "{ctx}");

    // Spending: never over the budget, and kept on until no eligible model fits.
    let cost = |n: &String| enemy(r, n).cost();
    let spent: i64 = plan.groups.iter().flat_map(|g| &g.models).map(cost).sum();
    assert_eq!(plan.spent, spent, "{ctx}");
    assert!(plan.spent <= plan.budget, "{ctx}");
    assert!(plan.leftover() < cheapest_eligible(r, esc, plan), "{ctx}");

    // One Behaviour before III, chosen for the whole wave.
    if esc.one_behaviour {
        let b = plan.behaviour.as_ref().expect("a wave Behaviour");
        assert!(plan.groups.iter().all(|g| &g.behaviour == b), "{ctx}");
        assert_eq!(picked(events, "wave Behaviour").as_ref(), Some(b), "{ctx}");
    } else {
        assert_eq!(plan.behaviour, None, "{ctx}");
    }
    // VII: at least three Groups and two Behaviours (the budget always allows it with these rosters).
    assert!(plan.groups.len() as u32 >= esc.min_groups, "{ctx}");
    assert!(
        plan.behaviours().len() as u32 >= esc.min_behaviours,
        "{ctx}"
    );
    if esc.name == "VII" {
        assert!(
            plan.groups.len() >= 3 && plan.behaviours().len() >= 2,
            "{ctx}"
        );
        // The builder's reading: the second Behaviour arrives by the third Group at the latest (the
        // third Group must bring a new one when the first two share theirs).
        let first_three: std::collections::BTreeSet<&String> =
            plan.groups[..3].iter().map(|g| &g.behaviour).collect();
        assert!(first_three.len() >= 2, "{ctx}");
    }

    let no_reserve = esc.min_groups == 1 && esc.min_behaviours == 1;
    let mut so_far = 0;
    for (i, g) in plan.groups.iter().enumerate() {
        let n = g.number;
        assert_eq!(n as usize, i + 1, "{ctx}");
        let ctx = format!("{ctx}\ngroup {n}");
        // Sizes: 1..=rolled, rolled 1..=5.
        assert!((1..=5).contains(&g.rolled), "{ctx}");
        assert!(
            !g.models.is_empty() && g.models.len() <= usize::from(g.rolled),
            "{ctx}"
        );
        assert_eq!(g.cost, g.models.iter().map(cost).sum::<i64>(), "{ctx}");
        so_far += g.cost;

        // Tiers: the first place by Escalation; the rest Mobs of one profile; one Elite or Boss at most.
        let lead = enemy(r, &g.models[0]);
        assert!(
            leader_allowed(esc, lead.tier, n),
            "{ctx}: {:?} leads",
            lead.tier
        );
        let rest: Vec<&Profile> = g.models[1..].iter().map(|m| enemy(r, m)).collect();
        assert!(rest.iter().all(|p| p.tier == Tier::Mob), "{ctx}");
        assert!(rest.windows(2).all(|w| w[0].name == w[1].name), "{ctx}");
        if lead.tier == Tier::Mob {
            assert!(rest.iter().all(|p| p.name == lead.name), "{ctx}");
        }
        // Every model's profile offers the Group's Behaviour.
        assert!(lead.behaviours.contains(&g.behaviour), "{ctx}");
        assert!(
            rest.iter().all(|p| p.behaviours.contains(&g.behaviour)),
            "{ctx}"
        );

        // Stopping before the total would exceed the remaining budget (exact where nothing is kept back
        // for later Groups).
        if no_reserve && g.models.len() < usize::from(g.rolled) {
            let left = plan.budget - so_far;
            match rest.first().or((lead.tier == Tier::Mob).then_some(&lead)) {
                Some(next) => assert!(next.cost() > left, "{ctx}: another model fitted"),
                None => assert!(
                    r.profiles_of(ProfileKind::Enemy)
                        .filter(|p| p.tier == Tier::Mob && p.behaviours.contains(&g.behaviour))
                        .all(|p| p.cost() > left),
                    "{ctx}: a Mob could have joined the leader"
                ),
            }
        }

        // Igniters only from II, and only with an Igniter in the Group.
        let ignites = g.models.iter().any(|m| enemy(r, m).has_trait("Igniter"));
        assert_eq!(g.igniters, esc.igniters && ignites, "{ctx}");
        if esc.name == "I" {
            assert!(!g.igniters, "{ctx}");
        }

        // Edges 1–4.
        assert!((1..=4).contains(&g.edge), "{ctx}");

        // The log explains the Group: its profile choice, its size D6 (6s rerolled), its edge D6.
        assert_eq!(
            picked(events, &format!("group {n} profile")).as_ref(),
            Some(&g.models[0]),
            "{ctx}"
        );
        let sizes = faces(events, &format!("group {n} size"));
        let (last, before) = sizes.split_last().expect("a size roll");
        assert_eq!(*last, g.rolled, "{ctx}");
        assert!(before.iter().all(|f| *f == 6), "{ctx}: {sizes:?}");
        let edges = faces(events, &format!("group {n} spawn edge"));
        assert_eq!(edges.last(), Some(&g.edge), "{ctx}");
        assert!(
            edges[..edges.len() - 1]
                .iter()
                .all(|f| *f >= 5 || plan.groups[..i].iter().any(|h| h.edge == *f)),
            "{ctx}: {edges:?}"
        );
    }
    // Boss: in the first Group at VI–VII, nowhere else, never earlier.
    let bosses: Vec<(u32, &String)> = plan
        .groups
        .iter()
        .flat_map(|g| g.models.iter().map(move |m| (g.number, m)))
        .filter(|(_, m)| enemy(r, m).tier == Tier::Boss)
        .collect();
    if esc.boss_first {
        assert_eq!(bosses.len(), 1, "{ctx}");
        assert_eq!(bosses[0].0, 1, "{ctx}");
        assert_eq!(&plan.groups[0].models[0], bosses[0].1, "{ctx}");
    } else {
        assert!(bosses.is_empty(), "{ctx}");
    }
    // Spawn edges: at V+ with more than one Group, at least two.
    if esc.min_spawn_edges >= 2 && plan.groups.len() > 1 {
        assert!(plan.edges().len() >= 2, "{ctx}");
    }
    // The last two events sum the wave up.
    match &events[events.len() - 1] {
        EventKind::WaveBuilt {
            budget,
            spent,
            groups,
            ..
        } => {
            assert_eq!((*budget, *spent), (plan.budget, plan.spent));
            assert_eq!(*groups as usize, plan.groups.len());
        }
        e => panic!("last event {e:?}"),
    }
    let built = events
        .iter()
        .filter(|e| matches!(e, EventKind::GroupBuilt { .. }))
        .count();
    assert_eq!(built, plan.groups.len(), "{ctx}");
}

#[derive(Default)]
struct Tally {
    waves: u32,
    groups: u32,
    models: u32,
    leftover: i64,
    elites: u32,
    bosses: BTreeMap<String, u32>,
}

#[test]
fn every_wave_over_many_seeds_respects_every_limit_of_5_2() {
    let r = rosters();
    let mut tally: BTreeMap<(usize, u32), Tally> = BTreeMap::new();
    for seed in 0..SEEDS {
        for (k, name) in ESCALATIONS.iter().enumerate() {
            let esc = r.escalation(name).unwrap();
            for heroes in 2..=4 {
                let mut g = game(&r, seed * 31 + u64::from(heroes));
                let rolled_before = g.dice.rolled();
                let plan = wave::build_wave(&mut g, &r, name, heroes).unwrap();
                let events: Vec<EventKind> = g.log().iter().map(|e| e.kind.clone()).collect();
                check(&r, esc, heroes, &plan, &events);
                // Every die the builder rolled is in the log.
                let logged: usize = events
                    .iter()
                    .map(|e| match e {
                        EventKind::Roll { dice, .. } => dice.len(),
                        _ => 0,
                    })
                    .sum();
                assert_eq!(logged as u64, g.dice.rolled() - rolled_before);
                let t = tally.entry((k, heroes)).or_default();
                t.waves += 1;
                t.groups += plan.groups.len() as u32;
                t.models += plan.model_count() as u32;
                t.leftover += plan.leftover();
                t.elites += plan
                    .groups
                    .iter()
                    .filter(|g| enemy(&r, &g.models[0]).tier == Tier::Elite)
                    .count() as u32;
                if esc.boss_first {
                    *t.bosses
                        .entry(plan.groups[0].models[0].clone())
                        .or_default() += 1;
                }
            }
        }
    }
    // The measured shape of the default builder (`cargo test -- --nocapture` prints it).
    for ((k, heroes), t) in &tally {
        let w = f64::from(t.waves);
        println!(
            "{:>3} × {heroes}: {:.2} groups, {:.2} models, {:.2} Elite-led groups, leftover {:.1}, bosses {:?}",
            ESCALATIONS[*k],
            f64::from(t.groups) / w,
            f64::from(t.models) / w,
            f64::from(t.elites) / w,
            t.leftover as f64 / w,
            t.bosses
        );
        if ["IV", "V", "VI", "VII"].contains(&ESCALATIONS[*k]) {
            assert!(
                t.elites > 0,
                "no Elite ever led a Group at {}",
                ESCALATIONS[*k]
            );
        }
        if ["VI", "VII"].contains(&ESCALATIONS[*k]) {
            // Every Boss that fits is chosen sometimes (all three fit every supported budget).
            assert_eq!(t.bosses.len(), 3, "{:?}", t.bosses);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_plan_and_log_and_seeds_differ() {
    let r = rosters();
    let mut plans = Vec::new();
    for seed in [11u64, 12, 13, 14] {
        for name in ESCALATIONS {
            let mut a = game(&r, seed);
            let mut b = game(&r, seed);
            let pa = wave::build_wave(&mut a, &r, name, 3).unwrap();
            let pb = wave::build_wave(&mut b, &r, name, 3).unwrap();
            assert_eq!(pa, pb);
            assert_eq!(
                serde_json::to_string(a.log()).unwrap(),
                serde_json::to_string(b.log()).unwrap()
            );
            if name == "VII" {
                plans.push(serde_json::to_string(&pa).unwrap());
            }
        }
    }
    plans.sort();
    plans.dedup();
    assert!(plans.len() > 1, "every seed built the same wave");
}

#[test]
fn group_size_rerolls_sixes_and_the_plan_serializes() {
    let r = rosters();
    let mut g = game(&r, 5);
    g.dice.force([6, 6, 2]).unwrap();
    let plan = wave::build_wave(&mut g, &r, "III", 4).unwrap();
    let events: Vec<EventKind> = g.log().iter().map(|e| e.kind.clone()).collect();
    assert_eq!(faces(&events, "group 1 size"), vec![6, 6, 2]);
    assert_eq!(plan.groups[0].rolled, 2);
    assert_eq!(plan.groups[0].models.len(), 2, "two Mobs fit 280 points");
    let json = serde_json::to_string(&plan).unwrap();
    let back: WavePlan = serde_json::from_str(&json).unwrap();
    assert_eq!(back, plan);
}

#[test]
fn from_v_the_last_group_rerolls_an_edge_every_other_group_used() {
    let r = rosters();
    for (name, must_differ) in [("IV", false), ("V", true)] {
        let mut g = game(&r, 9);
        // Every die 1: every Group is one model and every edge north, until the queue runs out.
        g.dice.force(std::iter::repeat_n(1, 400)).unwrap();
        let plan = wave::build_wave(&mut g, &r, name, 2).unwrap();
        let n = plan.groups.len();
        assert!(n > 1);
        assert!(plan.groups.iter().all(|g| g.models.len() == 1));
        assert!(plan.groups[..n - 1].iter().all(|g| g.edge == 1));
        assert_eq!(
            plan.groups[n - 1].edge != 1,
            must_differ,
            "{name}: {plan:?}"
        );
        let events: Vec<EventKind> = g.log().iter().map(|e| e.kind.clone()).collect();
        let last = faces(&events, &format!("group {n} spawn edge"));
        if must_differ {
            // The forced 1s left were rerolled one by one, each logged, until the stream gave 2–4.
            assert!(last.len() > 1 && last[..last.len() - 1].iter().all(|f| *f == 1 || *f >= 5));
        } else {
            assert_eq!(last, vec![1]);
        }
    }
}

#[test]
fn profiles_are_chosen_uniformly_among_the_eligible() {
    // At III with 4 heroes (280 points) every Mob fits and no Behaviour is imposed: the first Group's
    // profile is uniform over the ten Mobs.
    let r = rosters();
    let mobs: Vec<&Profile> = r
        .profiles_of(ProfileKind::Enemy)
        .filter(|p| p.tier == Tier::Mob)
        .collect();
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    let n = 2000;
    for seed in 0..n {
        let mut g = game(&r, 1000 + seed);
        let plan = wave::build_wave(&mut g, &r, "III", 4).unwrap();
        *counts.entry(plan.groups[0].models[0].clone()).or_default() += 1;
    }
    assert_eq!(counts.len(), mobs.len(), "{counts:?}");
    let expected = n as f64 / mobs.len() as f64;
    for (name, c) in &counts {
        let c = f64::from(*c);
        assert!(
            (c - expected).abs() < 0.3 * expected,
            "{name}: {c} of {n}, expected about {expected}"
        );
    }
}

#[test]
fn a_budget_too_small_for_the_limits_still_builds_and_reports_what_it_missed() {
    let mut r = rosters();
    // VI at 2 heroes with 50%: 100 points. Only the Lich (96) fits as the first Group's Boss.
    r.escalation
        .iter_mut()
        .find(|e| e.name == "VI")
        .unwrap()
        .budget_percent = 50;
    // VII at 2 heroes with 10%: 20 points. No Boss fits, and only two Zombies (8) can be bought.
    r.escalation
        .iter_mut()
        .find(|e| e.name == "VII")
        .unwrap()
        .budget_percent = 10;
    for seed in 0..50 {
        let mut g = game(&r, seed);
        let plan = wave::build_wave(&mut g, &r, "VI", 2).unwrap();
        assert_eq!(plan.groups[0].models[0], "Lich");
        assert!(plan.unmet.is_empty());
        assert!(plan.spent <= plan.budget);

        let mut g = game(&r, seed);
        let plan = wave::build_wave(&mut g, &r, "VII", 2).unwrap();
        assert_eq!(plan.budget, 20);
        assert!(plan.spent <= 20);
        assert!(plan.leftover() < 8, "{plan:?}");
        assert!(plan
            .groups
            .iter()
            .flat_map(|g| &g.models)
            .all(|m| enemy(&r, m).tier == Tier::Mob));
        assert!(plan.unmet.iter().any(|u| u.contains("no Boss")), "{plan:?}");
        assert!(
            plan.unmet.iter().any(|u| u.contains("3 Groups")),
            "{plan:?}"
        );
        match g.log().last().map(|e| &e.kind) {
            Some(EventKind::WaveBuilt { unmet, .. }) => assert_eq!(unmet, &plan.unmet),
            e => panic!("{e:?}"),
        }
    }
}
