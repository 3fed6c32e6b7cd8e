//! Deployment at the start of a wave (core §5.3 steps 2–3, SUPPLEMENT §1): over many seeds × every
//! Escalation × 2–4 heroes on generated tables — heroes within the deploy distance of the Town Hall, every
//! enemy base wholly within the deploy distance of its Group's edge, legal and not overlapping, Groups
//! within activation range of themselves, outside Short of every hero unless reported, a route to the Town
//! Hall, determinism, and every anchor choice in the log. Also the fallbacks and errors on crafted tables.
//!
//! The checks measure everything again from the state here (edge depth, gaps to buildings, terrain and
//! bases) rather than asking the deployment code.

use village::geometry::{
    circle_circle_gap, circle_polygon_gap, circle_rect_gap, Circle, Goal, Navigator, Polygon,
    Table, Terrain, TerrainKind, TerrainShape, Vec2,
};
use village::roster::{ProfileKind, Rosters};
use village::state::{self, Event, EventKind, Game, Side, TableKind};
use village::wave::{self, GroupDeployment, GroupPlan, WaveError, WavePlan};

const SEEDS: u64 = 200;
const ESCALATIONS: [&str; 7] = ["I", "II", "III", "IV", "V", "VI", "VII"];
const TOL: f64 = 1e-6;

fn rosters() -> Rosters {
    Rosters::load(&[Rosters::builtin_root()]).expect("built-in rosters load")
}

/// Adds `n` heroes (a different party per seed) and, on some seeds, a Village Defender, all standing on
/// the table's centre as if they had not been deployed yet.
fn add_party(g: &mut Game, r: &Rosters, seed: u64, n: usize) {
    let heroes: Vec<_> = r.profiles_of(ProfileKind::Hero).collect();
    let centre = g.table.center();
    for i in 0..n {
        let p = heroes[(seed as usize + i) % heroes.len()];
        g.add_model(state::model_from_profile(p, r, centre));
    }
    if seed.is_multiple_of(3) {
        let d = r
            .profiles_of(ProfileKind::Defender)
            .next()
            .expect("a defender");
        g.add_model(state::model_from_profile(d, r, centre));
    }
}

struct Run {
    game: Game,
    plan: WavePlan,
    groups: Vec<GroupDeployment>,
}

fn run(r: &Rosters, seed: u64, esc: &str, heroes: u32, anywhere: bool) -> Run {
    let mut game = state::new_game(r, seed, TableKind::Generated);
    add_party(&mut game, r, seed, heroes as usize);
    let plan = wave::build_wave(&mut game, r, esc, heroes).expect("wave builds");
    wave::deploy_heroes(&mut game, r, anywhere)
        .unwrap_or_else(|e| panic!("seed {seed} {esc} ×{heroes}: heroes: {e}"));
    let groups = wave::deploy_enemy_groups(&mut game, r, &plan)
        .unwrap_or_else(|e| panic!("seed {seed} {esc} ×{heroes}: enemies: {e}"));
    Run { game, plan, groups }
}

/// How far inside the table from `edge` (1 N, 2 E, 3 S, 4 W) the far side of a base reaches.
fn far_depth(t: &Table, edge: u8, c: &Circle) -> f64 {
    let d = match edge {
        1 => t.height - c.c.y,
        2 => t.width - c.c.x,
        3 => c.c.y,
        4 => c.c.x,
        _ => panic!("edge {edge}"),
    };
    d + c.r
}

/// Why a base stands illegally, measured here: off the table, on a building or impassable terrain.
fn illegal(t: &Table, c: &Circle) -> Option<String> {
    if c.c.x - c.r < -TOL
        || c.c.y - c.r < -TOL
        || c.c.x + c.r > t.width + TOL
        || c.c.y + c.r > t.height + TOL
    {
        return Some("off the table".into());
    }
    for b in &t.buildings {
        if circle_rect_gap(c, &b.rect) < -TOL {
            return Some(format!("on the {}", b.name));
        }
    }
    for p in &t.terrain {
        if let TerrainShape::Area(poly) = &p.shape {
            if p.kind.is_impassable() && circle_polygon_gap(c, poly) < -TOL {
                return Some(format!("in {:?}", p.kind));
            }
        }
    }
    None
}

#[derive(Default)]
struct Tally {
    waves: usize,
    enemies: usize,
    uncleared: Vec<String>,
    unrouted: Vec<String>,
}

/// Every acceptance check on one deployed wave; returns the violations in words.
fn check(r: &Rosters, run: &Run, label: &str, anywhere: bool, tally: &mut Tally) -> Vec<String> {
    let mut bad = Vec::new();
    let g = &run.game;
    let t = &g.table;
    let rules = &r.rules;
    let within_edge = rules.deploy.enemies_within_edge;
    let within_hall = rules.deploy.defenders_within;
    let short = rules.measures.short;
    let long = rules.measures.long;
    assert_eq!(within_edge, 6.0, "core §5.3: 6\" of the edge");
    assert_eq!(within_hall, 6.0, "core §5.3: 6\" of the Town Hall");
    assert_eq!(short, 3.0);
    assert_eq!(long, 9.0);

    // Every base legal, and no two overlapping.
    for (i, m) in g.models.iter().enumerate() {
        if let Some(why) = illegal(t, &m.circle()) {
            bad.push(format!("{label}: {} ({}) {why}", m.name, m.id));
        }
        for o in &g.models[i + 1..] {
            if circle_circle_gap(&m.circle(), &o.circle()) < -TOL {
                bad.push(format!("{label}: {} and {} overlap", m.id, o.id));
            }
        }
    }

    // Heroes and Defenders within the deploy distance of the Town Hall (any building when anywhere).
    let hall = g.buildings.iter().find(|b| b.town_hall).expect("Town Hall");
    for m in g.side(Side::Heroes) {
        let near = |rect| circle_rect_gap(&m.circle(), rect) + m.base <= within_hall + TOL;
        let ok = if anywhere {
            g.buildings.iter().any(|b| near(&b.rect))
        } else {
            near(&hall.rect)
        };
        if !ok {
            bad.push(format!("{label}: {} ({}) deployed too far", m.name, m.id));
        }
    }
    let heroes: Vec<Circle> = g
        .models
        .iter()
        .filter(|m| m.kind == ProfileKind::Hero)
        .map(|m| m.circle())
        .collect();

    // The report covers every Group, in order, and matches the plan.
    let enemies: Vec<_> = g.side(Side::Enemies).collect();
    tally.waves += 1;
    tally.enemies += enemies.len();
    if enemies.len() != run.plan.model_count() {
        bad.push(format!(
            "{label}: {} enemies for {} planned",
            enemies.len(),
            run.plan.model_count()
        ));
    }
    if run.groups.len() != run.plan.groups.len() {
        bad.push(format!("{label}: {} Groups deployed", run.groups.len()));
    }
    for (gp, dep) in run.plan.groups.iter().zip(&run.groups) {
        let models: Vec<_> = dep
            .models
            .iter()
            .map(|id| g.model(*id).expect("deployed model on the table"))
            .collect();
        let names: Vec<&str> = models.iter().map(|m| m.name.as_str()).collect();
        if dep.number != gp.number || dep.edge != gp.edge || names != gp.models {
            bad.push(format!("{label}: Group {} is not the plan's", gp.number));
        }
        for m in &models {
            if m.group != Some(gp.number) || m.behaviour.as_deref() != Some(&gp.behaviour) {
                bad.push(format!("{label}: {} lacks its Group or Behaviour", m.id));
            }
            let d = far_depth(t, gp.edge, &m.circle());
            if d > within_edge + TOL {
                bad.push(format!(
                    "{label}: {} ({}) of Group {} reaches {d:.3}\" from edge {}",
                    m.name, m.id, gp.number, gp.edge
                ));
            }
            let nearest_hero = heroes
                .iter()
                .map(|h| circle_circle_gap(h, &m.circle()))
                .fold(f64::INFINITY, f64::min);
            if dep.hero_clearance && nearest_hero <= short {
                bad.push(format!(
                    "{label}: {} ({}) is {nearest_hero:.3}\" from a hero, unreported",
                    m.name, m.id
                ));
            }
        }
        // Within activation range of each other, so the Group can activate together.
        for (i, a) in models.iter().enumerate() {
            for b in &models[i + 1..] {
                let gap = circle_circle_gap(&a.circle(), &b.circle());
                if gap > long + TOL {
                    bad.push(format!(
                        "{label}: Group {} has {} and {} {gap:.2}\" apart",
                        gp.number, a.id, b.id
                    ));
                }
            }
        }
        if !dep.hero_clearance {
            tally.uncleared.push(format!("{label} Group {}", gp.number));
        }
        if !dep.routes {
            tally.unrouted.push(format!("{label} Group {}", gp.number));
        }
    }

    // The log: each Group's anchor was a logged choice before its models were placed, and a
    // group_deployed event says the same as the report; each hero has a deployed event.
    let log = g.log();
    for dep in &run.groups {
        let purpose = format!("deploy Group {} anchor on edge {}", dep.number, dep.edge);
        let choice = log.iter().position(|e| {
            matches!(&e.kind, EventKind::Choice { purpose: p, options, .. }
                if p.starts_with(&purpose) && !options.is_empty())
        });
        let event = log.iter().position(|e| {
            e.kind
                == EventKind::GroupDeployed {
                    number: dep.number,
                    edge: dep.edge,
                    anchor: dep.anchor,
                    models: dep.models.clone(),
                    hero_clearance: dep.hero_clearance,
                    routes: dep.routes,
                }
        });
        match (choice, event) {
            (Some(c), Some(e)) if c < e => {}
            _ => bad.push(format!(
                "{label}: Group {}: anchor choice {choice:?}, group_deployed {event:?}",
                dep.number
            )),
        }
    }
    for m in g.side(Side::Heroes) {
        let logged = log.iter().any(|e| {
            matches!(&e.kind, EventKind::Deployed { model, to, .. } if *model == m.id && *to == m.pos)
        });
        if !logged {
            bad.push(format!("{label}: no deployed event for {}", m.id));
        }
    }
    bad
}

/// Every enemy of a wave whose report says `routes` can reach the Town Hall (other models ignored).
fn check_routes(run: &Run, label: &str) -> Vec<String> {
    let g = &run.game;
    let hall = g.buildings.iter().find(|b| b.town_hall).expect("Town Hall");
    let mut navs: Vec<(f64, Navigator)> = Vec::new();
    let mut bad = Vec::new();
    for dep in run.groups.iter().filter(|d| d.routes) {
        for id in &dep.models {
            let m = g.model(*id).unwrap();
            let r = m.base / 2.0;
            if !navs.iter().any(|(nr, _)| *nr == r) {
                navs.push((r, Navigator::new(&g.table, r)));
            }
            let nav = &navs.iter().find(|(nr, _)| *nr == r).unwrap().1;
            if nav
                .route_to_contact(m.pos, &Goal::Building(hall.rect), &[])
                .is_none()
            {
                bad.push(format!("{label}: {} ({}) has no route", m.name, m.id));
            }
        }
    }
    bad
}

fn sweep(esc: &str, anywhere: bool) {
    let r = rosters();
    let mut bad = Vec::new();
    let mut tally = Tally::default();
    for seed in 0..SEEDS {
        for heroes in 2..=4u32 {
            let label = format!("seed {seed} {esc} ×{heroes}");
            let run = run(&r, seed, esc, heroes, anywhere);
            bad.extend(check(&r, &run, &label, anywhere, &mut tally));
            if seed.is_multiple_of(8) {
                bad.extend(check_routes(&run, &label));
            }
        }
    }
    eprintln!(
        "{esc}{}: {} waves, {} enemies; Groups not kept outside Short: {:?}; without a route: {:?}",
        if anywhere { " (anywhere)" } else { "" },
        tally.waves,
        tally.enemies,
        tally.uncleared,
        tally.unrouted
    );
    assert!(
        bad.is_empty(),
        "{} violations, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(10)]
    );
    // With heroes around a central Town Hall, the edges are far from them: clearance always holds.
    if !anywhere {
        assert!(tally.uncleared.is_empty(), "{:?}", tally.uncleared);
    }
    assert!(tally.unrouted.is_empty(), "{:?}", tally.unrouted);
}

#[test]
fn escalation_i() {
    sweep("I", false);
}
#[test]
fn escalation_ii() {
    sweep("II", false);
}
#[test]
fn escalation_iii() {
    sweep("III", false);
}
#[test]
fn escalation_iv() {
    sweep("IV", false);
}
#[test]
fn escalation_v() {
    sweep("V", false);
}
#[test]
fn escalation_vi() {
    sweep("VI", false);
}
#[test]
fn escalation_vii() {
    sweep("VII", false);
}

/// Watchtower III: heroes may stand near any building; enemies still keep outside Short where possible.
#[test]
fn watchtower_iii_deploys_heroes_near_any_building() {
    sweep("VII", true);
}

#[test]
fn same_seed_same_positions_and_log() {
    let r = rosters();
    for seed in [0, 1, 17, 99, 12345] {
        for esc in ESCALATIONS {
            let a = run(&r, seed, esc, 3, false);
            let b = run(&r, seed, esc, 3, false);
            let pos = |g: &Game| g.models.iter().map(|m| (m.id, m.pos)).collect::<Vec<_>>();
            assert_eq!(pos(&a.game), pos(&b.game), "seed {seed} {esc}");
            assert_eq!(a.game.log(), b.game.log(), "seed {seed} {esc}");
            let json = |l: &[Event]| serde_json::to_string(l).unwrap();
            assert_eq!(json(a.game.log()), json(b.game.log()));
        }
    }
    // And the anchors do depend on the seed.
    let anchors = |seed| {
        run(&r, seed, "VII", 4, false)
            .groups
            .iter()
            .map(|g| g.anchor)
            .collect::<Vec<_>>()
    };
    assert!((1..6).any(|s| anchors(s) != anchors(0)));
}

/// A bare table with the Town Hall in the middle and nothing else.
fn bare_game(r: &Rosters, terrain: Vec<Terrain>) -> Game {
    let mut g = state::new_game(r, 5, TableKind::Empty);
    g.table.terrain = terrain;
    g
}

fn one_group(r: &Rosters, edge: u8, names: &[&str]) -> WavePlan {
    let p = r.profile(names[0]).unwrap();
    WavePlan {
        escalation: "I".into(),
        budget: 0,
        spent: 0,
        behaviour: None,
        groups: vec![GroupPlan {
            number: 1,
            models: names.iter().map(|s| s.to_string()).collect(),
            behaviour: p.behaviours[0].clone(),
            rolled: names.len() as u8,
            cost: 0,
            edge,
            igniters: false,
            zone: None,
            arrives: None,
        }],
        unmet: Vec::new(),
    }
}

fn first_enemy(r: &Rosters) -> String {
    r.profiles_of(ProfileKind::Enemy)
        .find(|p| p.base_diameter(&r.rules) == r.rules.bases.normal)
        .unwrap()
        .name
        .clone()
}

/// Heroes standing all along the north edge leave no spot outside Short: the Group is still deployed,
/// and reported.
#[test]
fn hero_clearance_is_dropped_only_when_impossible_and_reported() {
    let r = rosters();
    let orc = first_enemy(&r);
    let mut g = bare_game(&r, Vec::new());
    let hero = r.profiles_of(ProfileKind::Hero).next().unwrap();
    for i in 0..6 {
        let pos = Vec2::new(3.0 + 6.0 * i as f64, 33.0);
        g.add_model(state::model_from_profile(hero, &r, pos));
    }
    let plan = one_group(&r, 1, &[&orc, &orc, &orc]);
    let deps = wave::deploy_enemy_groups(&mut g, &r, &plan).unwrap();
    assert!(!deps[0].hero_clearance);
    assert!(g.log().iter().any(|e| matches!(
        e.kind,
        EventKind::GroupDeployed {
            hero_clearance: false,
            ..
        }
    )));
    // The same Group on the south edge keeps clear.
    let plan = one_group(&r, 3, &[&orc, &orc, &orc]);
    let deps = wave::deploy_enemy_groups(&mut g, &r, &plan).unwrap();
    assert!(deps[0].hero_clearance);
}

/// Heroes along most of the north edge: wherever the anchor falls, the Group goes to the free end,
/// outside Short of every hero, rather than next to the anchor.
#[test]
fn hero_clearance_is_kept_where_possible() {
    let r = rosters();
    let orc = first_enemy(&r);
    let hero = r.profiles_of(ProfileKind::Hero).next().unwrap();
    let mut moved = 0;
    for seed in 0..8 {
        let mut g = bare_game(&r, Vec::new());
        g.dice = village::dice::Dice::new(seed);
        let heroes: Vec<_> = (0..4)
            .map(|i| {
                let pos = Vec2::new(3.0 + 6.0 * i as f64, 33.0);
                g.add_model(state::model_from_profile(hero, &r, pos))
            })
            .collect();
        let plan = one_group(&r, 1, &[&orc, &orc, &orc, &orc]);
        let deps = wave::deploy_enemy_groups(&mut g, &r, &plan).unwrap();
        assert!(deps[0].hero_clearance, "seed {seed}");
        for id in &deps[0].models {
            let m = g.model(*id).unwrap();
            for h in &heroes {
                let h = g.model(*h).unwrap();
                assert!(
                    circle_circle_gap(&m.circle(), &h.circle()) > r.rules.measures.short,
                    "seed {seed}: {} at {:?} is within Short of {} at {:?}",
                    m.id,
                    m.pos,
                    h.id,
                    h.pos
                );
            }
        }
        let chosen = g.log().iter().find_map(|e| match &e.kind {
            EventKind::Choice { picked, .. } => Some(picked.clone()),
            _ => None,
        });
        let x: f64 = chosen.unwrap().trim_start_matches("x=").parse().unwrap();
        moved += usize::from(x < 24.0);
    }
    assert!(moved > 0, "some anchor fell among the heroes");
}

/// A pond over the whole north band: no room, an error, and the game untouched.
#[test]
fn no_room_is_an_error_and_changes_nothing() {
    let r = rosters();
    let orc = first_enemy(&r);
    let pond = Polygon::new(vec![
        Vec2::new(-1.0, 29.5),
        Vec2::new(37.0, 29.5),
        Vec2::new(37.0, 37.0),
        Vec2::new(-1.0, 37.0),
    ]);
    let mut g = bare_game(&r, vec![Terrain::area(TerrainKind::Pond, pond)]);
    let before = serde_json::to_string(&g).unwrap();
    let plan = one_group(&r, 1, &[&orc]);
    assert_eq!(
        wave::deploy_enemies(&mut g, &r, &plan),
        Err(WaveError::NoRoom { group: 1, edge: 1 })
    );
    assert_eq!(serde_json::to_string(&g).unwrap(), before);
    // The east edge is open.
    let plan = one_group(&r, 2, &[&orc]);
    assert_eq!(wave::deploy_enemies(&mut g, &r, &plan).unwrap().len(), 1);
}

#[test]
fn bad_inputs_are_errors() {
    let r = rosters();
    let orc = first_enemy(&r);
    let mut g = bare_game(&r, Vec::new());
    let plan = one_group(&r, 5, &[&orc]);
    assert_eq!(
        wave::deploy_enemies(&mut g, &r, &plan),
        Err(WaveError::BadEdge { group: 1, edge: 5 })
    );
    let mut plan = one_group(&r, 1, &[&orc]);
    plan.groups[0].models.push("Captain Maren".into());
    assert_eq!(
        wave::deploy_enemies(&mut g, &r, &plan),
        Err(WaveError::UnknownProfile("Captain Maren".into()))
    );
    assert!(g.models.is_empty());
    g.buildings.retain(|b| !b.town_hall);
    assert_eq!(
        wave::deploy_heroes(&mut g, &r, false),
        Err(WaveError::NoTownHall)
    );
}
