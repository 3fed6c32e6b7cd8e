//! The parts of a scenario file that make a battle (`state::battle`): deployment zones, the party and
//! its defenders, fixed enemy Groups with the round they arrive on, objectives and their Victory
//! Points, the round limit, the conclusions and the victory script. Owns their format, their checks
//! against the rosters, the scripts and the table, and the [`Battle`] they make.

use super::{Scenario, ScenarioTable};
use crate::geometry::{Goal, Polygon, Rect, Table, Vec2};
use crate::roster::{Measure, ProfileKind, Rosters};
use crate::state::battle::{Arrival, Battle, BattleObjective, Conclusion, Ending, When, Zone};
use crate::state::Side;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The party of a scenario (`[party]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioParty {
    /// The heroes, by full name: the party whatever `--heroes` says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heroes: Option<Vec<String>>,
    /// How many heroes play: the first this many that `--heroes` names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// Village Defender profiles (rosters/defenders.toml) that fight beside the heroes from the start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defenders: Vec<String>,
}

/// A deployment zone (`[[zones]]`): a rectangle or a convex area.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioZone {
    /// Its name (a Group deploys in it with `zone = "NAME"`; a conclusion names it).
    pub name: String,
    /// Who deploys in it: "heroes" (the whole heroes' side, in place of around the Town Hall) or
    /// "enemies".
    pub side: Side,
    /// Two opposite corners `[[x, y], [x, y]]`, inches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rect: Option<[[f64; 2]; 2]>,
    /// Or its corners `[[x, y], …]`, a convex outline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Vec<[f64; 2]>>,
}

/// A fixed enemy Group (`[[groups]]`): with these the game is one battle, not escalating waves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioGroup {
    /// Enemy profile names (rosters/bestiary.toml), the Leader first.
    pub models: Vec<String>,
    /// The Behaviour the Group follows; one its first model lists. Default: that model's first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behaviour: Option<String>,
    /// The table edge it enters by (rules.toml `table.edges`: north, east, south, west).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edge: Option<String>,
    /// Or the enemies' zone it deploys in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// The round it arrives at the start of (1: deployed with the battle).
    #[serde(default = "first_round")]
    pub round: u32,
}

fn first_round() -> u32 {
    1
}

/// An objective (`[[objectives]]`): a point or an area that a side holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioObjective {
    /// Its name.
    pub name: String,
    /// A point `[x, y]`, held by a side with a base within `reach` of it and no enemy base there...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<[f64; 2]>,
    /// ...or a rectangle `[[x, y], [x, y]]`, held by a side with a model's centre inside it...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rect: Option<[[f64; 2]; 2]>,
    /// ...or a convex area's corners.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Vec<[f64; 2]>>,
    /// How near a base must be to hold a point: a measure of rules.toml (short, medium, long).
    #[serde(default = "short")]
    pub reach: Measure,
    /// The Victory Points it is worth.
    #[serde(default)]
    pub vp: u32,
    /// Scored at the end of every round it is held (default: once, at the game's end).
    #[serde(default)]
    pub each_round: bool,
}

fn short() -> Measure {
    Measure::Short
}

/// A conclusion (`[[conclusions]]`): when it holds, the game ends with its result. The rulebook's
/// losses (the Town Hall Destroyed, the village overrun, a track's losing space) always hold besides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioConclusion {
    /// building_destroyed, model_removed, area_reached, enemies_removed or round_limit.
    pub when: ConclusionKind,
    /// The building (building_destroyed), enemy profile (model_removed) or objective or zone
    /// (area_reached) it names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// win, loss, draw, or vp (more Victory Points wins; equal is a draw).
    pub result: Ending,
}

/// When a conclusion holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConclusionKind {
    BuildingDestroyed,
    ModelRemoved,
    AreaReached,
    EnemiesRemoved,
    RoundLimit,
}

/// A polygon from a rectangle's two corners or an area's corners.
fn outline(rect: &Option<[[f64; 2]; 2]>, area: &Option<Vec<[f64; 2]>>) -> Option<Polygon> {
    let v = |p: &[f64; 2]| Vec2::new(p[0], p[1]);
    match (rect, area) {
        (Some([a, b]), None) => {
            let (a, b) = (v(a), v(b));
            let lo = Vec2::new(a.x.min(b.x), a.y.min(b.y));
            let hi = Vec2::new(a.x.max(b.x), a.y.max(b.y));
            Some(Rect::new(lo, hi).to_polygon())
        }
        (None, Some(pts)) if pts.len() >= 3 => Some(Polygon::new(pts.iter().map(v).collect())),
        _ => None,
    }
}

impl Scenario {
    /// Whether the scenario makes a battle (any of its parts); the rulebook's game has none.
    pub fn has_battle(&self) -> bool {
        self.rounds.is_some()
            || !self.zones.is_empty()
            || !self.groups.is_empty()
            || !self.objectives.is_empty()
            || !self.conclusions.is_empty()
            || self.victory.is_some()
    }

    /// The battle a game of this scenario keeps, or `None` for the rulebook's game.
    pub fn battle(&self, rosters: &Rosters) -> Option<Battle> {
        if !self.has_battle() {
            return None;
        }
        let edges = &rosters.rules.table.edges;
        let zones = self
            .zones
            .iter()
            .filter_map(|z| {
                Some(Zone {
                    name: z.name.clone(),
                    side: z.side,
                    area: outline(&z.rect, &z.area)?,
                })
            })
            .collect();
        let arriving = self
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| Arrival {
                round: g.round.max(1),
                number: i as u32 + 1,
                models: g.models.clone(),
                behaviour: g.behaviour.clone().unwrap_or_else(|| {
                    g.models
                        .first()
                        .and_then(|m| rosters.profile(m))
                        .and_then(|p| p.behaviours.first().cloned())
                        .unwrap_or_default()
                }),
                edge: g
                    .edge
                    .as_ref()
                    .and_then(|e| edges.iter().position(|x| x == e))
                    .map_or(1, |i| i as u8 + 1),
                zone: g.zone.clone(),
            })
            .collect();
        let objectives = self
            .objectives
            .iter()
            .map(|o| {
                let area = outline(&o.rect, &o.area);
                let at = match (&o.point, &area) {
                    (Some(p), _) => Vec2::new(p[0], p[1]),
                    (None, Some(a)) => a.centroid(),
                    (None, None) => Vec2::default(),
                };
                BattleObjective {
                    name: o.name.clone(),
                    at,
                    area,
                    reach: rosters.rules.measures.get(o.reach),
                    vp: o.vp,
                    each_round: o.each_round,
                    holder: None,
                }
            })
            .collect();
        let conclusions = self
            .conclusions
            .iter()
            .map(|c| Conclusion {
                when: match c.when {
                    ConclusionKind::BuildingDestroyed => {
                        When::BuildingDestroyed(c.name.clone().unwrap_or_default())
                    }
                    ConclusionKind::ModelRemoved => {
                        When::ModelRemoved(c.name.clone().unwrap_or_default())
                    }
                    ConclusionKind::AreaReached => {
                        When::AreaReached(c.name.clone().unwrap_or_default())
                    }
                    ConclusionKind::EnemiesRemoved => When::EnemiesRemoved,
                    ConclusionKind::RoundLimit => When::RoundLimit,
                },
                result: c.result,
            })
            .collect();
        Some(Battle {
            scenario: self.name.clone(),
            round_limit: self.rounds,
            fixed: !self.groups.is_empty(),
            escalation: self.escalation.clone(),
            zones,
            objectives,
            conclusions,
            arriving,
            vp: [0, 0],
            verdict: None,
            victory: self.victory.clone(),
            concluded: false,
        })
    }

    /// The party a game of this scenario plays, from the heroes asked for (`--heroes`): its fixed
    /// heroes, the first `size` of those asked, or those asked. An error says why it cannot.
    pub fn party(&self, asked: &[String]) -> Result<Vec<String>, String> {
        let Some(p) = &self.party else {
            return Ok(asked.to_vec());
        };
        if let Some(fixed) = &p.heroes {
            return Ok(fixed.clone());
        }
        match p.size {
            Some(n) if asked.len() < n as usize => Err(format!(
                "scenario {} is played by {n} heroes: --heroes names {}",
                self.name,
                asked.len()
            )),
            Some(n) => Ok(asked[..n as usize].to_vec()),
            None => Ok(asked.to_vec()),
        }
    }

    /// The Village Defenders that fight beside the party from the start.
    pub fn defenders(&self) -> &[String] {
        self.party.as_ref().map_or(&[], |p| p.defenders.as_slice())
    }
}

/// Every check of the battle's parts; each problem reported as (field, message). `table` is the
/// scenario's table when it has one (zones and objectives must lie on it and be reachable).
pub fn check(
    s: &Scenario,
    r: &Rosters,
    table: Option<&Table>,
    victory_scripts: &[String],
    say: &mut dyn FnMut(&str, String),
) {
    let (w, h) = match (table, &s.table) {
        (Some(t), _) => (t.width, t.height),
        (None, Some(ScenarioTable { width, height, .. })) => (*width, *height),
        (None, None) => (r.rules.table.width, r.rules.table.height),
    };
    if let Some(n) = s.rounds {
        if n == 0 || n > r.rules.wave.max_rounds {
            say(
                "rounds",
                format!(
                    "{n} is outside the valid range 1 to {} (rules.toml wave.max_rounds)",
                    r.rules.wave.max_rounds
                ),
            );
        }
    }
    if let Some(e) = &s.escalation {
        if r.escalation(e).is_none() {
            say(
                "escalation",
                crate::names::unknown(
                    "Escalation",
                    e,
                    r.escalation.iter().map(|x| x.name.as_str()),
                ),
            );
        }
    }
    if let Some(v) = &s.victory {
        if !victory_scripts.iter().any(|x| x == v) {
            say(
                "victory",
                crate::names::unknown(
                    "victory script (scripts/victory/NAME.lua)",
                    v,
                    victory_scripts.iter().map(String::as_str),
                ),
            );
        }
    }
    check_party(s, r, say);
    let on_table = |p: &[f64; 2]| {
        p.iter().all(|x| x.is_finite()) && (0.0..=w).contains(&p[0]) && (0.0..=h).contains(&p[1])
    };
    let impassable: Vec<Polygon> = table
        .map(|t| {
            t.terrain
                .iter()
                .filter(|p| p.kind.is_impassable())
                .filter_map(|p| p.polygon().cloned())
                .collect()
        })
        .unwrap_or_default();
    let mut names: Vec<&str> = Vec::new();
    for (i, z) in s.zones.iter().enumerate() {
        let at = format!("zones[{i}]");
        if names.contains(&z.name.as_str()) {
            say(
                &format!("{at}.name"),
                format!("{:?} is named twice", z.name),
            );
        }
        names.push(&z.name);
        shape_problems(&at, &z.rect, &z.area, &on_table, w, h, say);
        if let Some(poly) = outline(&z.rect, &z.area) {
            if impassable
                .iter()
                .any(|t| t.contains(poly.centroid()) || poly.pts.iter().all(|p| t.contains(*p)))
            {
                say(
                    &at,
                    format!("the zone {:?} lies in impassable terrain", z.name),
                );
            }
        }
    }
    if s.zones.iter().filter(|z| z.side == Side::Heroes).count() > 1 {
        say(
            "zones",
            "the heroes' side deploys in one zone: give one with side = \"heroes\"".into(),
        );
    }
    check_groups(s, r, say);
    for (i, o) in s.objectives.iter().enumerate() {
        let at = format!("objectives[{i}]");
        if names.contains(&o.name.as_str()) {
            say(
                &format!("{at}.name"),
                format!(
                    "{:?} is named twice (zones and objectives share names)",
                    o.name
                ),
            );
        }
        names.push(&o.name);
        match (&o.point, &o.rect, &o.area) {
            (Some(p), None, None) => {
                if !on_table(p) {
                    say(
                        &format!("{at}.point"),
                        format!("({}, {}) is off the {w}\" × {h}\" table", p[0], p[1]),
                    );
                }
            }
            (None, rect, area) if rect.is_some() != area.is_some() => {
                shape_problems(&at, rect, area, &on_table, w, h, say)
            }
            _ => say(&at, "give one of `point`, `rect` or `area`".into()),
        }
    }
    for (i, c) in s.conclusions.iter().enumerate() {
        let at = format!("conclusions[{i}]");
        let name = c.name.as_deref();
        let needs = matches!(
            c.when,
            ConclusionKind::BuildingDestroyed
                | ConclusionKind::ModelRemoved
                | ConclusionKind::AreaReached
        );
        match (needs, name) {
            (true, None) => say(
                &format!("{at}.name"),
                "name what it is about: a building, an enemy profile, or an objective or zone"
                    .into(),
            ),
            (false, Some(_)) => say(
                &format!("{at}.name"),
                "this conclusion names nothing".into(),
            ),
            _ => {}
        }
        let Some(name) = name else { continue };
        let problem = match c.when {
            ConclusionKind::BuildingDestroyed => {
                let stands = match &s.buildings {
                    Some(list) => list.iter().any(|b| b.name == name),
                    None => r.building(name).is_some(),
                };
                (!stands).then(|| format!("no building {name:?} stands in this scenario"))
            }
            ConclusionKind::ModelRemoved => {
                (!s.groups.iter().any(|g| g.models.iter().any(|m| m == name))).then(|| {
                    format!(
                        "no Group of this scenario has a {name:?}: name a model of its [[groups]]"
                    )
                })
            }
            ConclusionKind::AreaReached => {
                (!names.contains(&name)).then(|| format!("no objective or zone is named {name:?}"))
            }
            _ => None,
        };
        if let Some(p) = problem {
            say(&format!("{at}.name"), p);
        }
        if c.when == ConclusionKind::RoundLimit && s.rounds.is_none() {
            say(&at, "a round_limit conclusion needs `rounds`".into());
        }
    }
    if let Some(t) = table {
        check_reach(s, r, t, say);
    }
}

/// The party: fixed heroes that are heroes, a size the rules allow, defenders that are Village
/// Defenders.
fn check_party(s: &Scenario, r: &Rosters, say: &mut dyn FnMut(&str, String)) {
    let Some(p) = &s.party else { return };
    let (lo, hi) = (r.rules.wave.min_heroes, r.rules.wave.max_heroes);
    if p.heroes.is_some() && p.size.is_some() {
        say(
            "party",
            "give `heroes` (a fixed party) or `size` (the first of --heroes), not both".into(),
        );
    }
    if let Some(list) = &p.heroes {
        for (i, name) in list.iter().enumerate() {
            if r.profile(name).is_none_or(|x| x.kind != ProfileKind::Hero) {
                say(
                    &format!("party.heroes[{i}]"),
                    crate::names::unknown(
                        "hero",
                        name,
                        r.profiles_of(ProfileKind::Hero).map(|p| p.name.as_str()),
                    ),
                );
            }
        }
        let n = list.len() as u32;
        if !(lo..=hi).contains(&n) {
            say(
                "party.heroes",
                format!("a party has {lo} to {hi} heroes, not {n}"),
            );
        }
    }
    if let Some(n) = p.size {
        if !(lo..=hi).contains(&n) {
            say(
                "party.size",
                format!("{n} is outside the valid range {lo} to {hi}"),
            );
        }
    }
    for (i, name) in p.defenders.iter().enumerate() {
        if r.profile(name)
            .is_none_or(|x| x.kind != ProfileKind::Defender)
        {
            say(
                &format!("party.defenders[{i}]"),
                crate::names::unknown(
                    "Village Defender",
                    name,
                    r.profiles_of(ProfileKind::Defender)
                        .map(|p| p.name.as_str()),
                ),
            );
        }
    }
}

/// Each Group: enemy profiles, a Behaviour its Leader lists, an edge or an enemies' zone, a round
/// within the limit.
fn check_groups(s: &Scenario, r: &Rosters, say: &mut dyn FnMut(&str, String)) {
    let max = r.rules.activation.group_max_models as usize;
    for (i, g) in s.groups.iter().enumerate() {
        let at = format!("groups[{i}]");
        if g.models.is_empty() || g.models.len() > max {
            say(
                &format!("{at}.models"),
                format!("a Group holds 1 to {max} models, not {}", g.models.len()),
            );
        }
        for (j, name) in g.models.iter().enumerate() {
            if r.profile(name).is_none_or(|x| x.kind != ProfileKind::Enemy) {
                say(
                    &format!("{at}.models[{j}]"),
                    crate::names::unknown(
                        "enemy profile",
                        name,
                        r.profiles_of(ProfileKind::Enemy).map(|p| p.name.as_str()),
                    ),
                );
            }
        }
        let leader = g.models.first().and_then(|m| r.profile(m));
        if let (Some(b), Some(p)) = (&g.behaviour, leader) {
            if !p.behaviours.contains(b) {
                say(
                    &format!("{at}.behaviour"),
                    format!(
                        "{} does not list the {b} Behaviour (it lists {})",
                        p.name,
                        p.behaviours.join(" or ")
                    ),
                );
            }
        }
        match (&g.edge, &g.zone) {
            (Some(e), None) => {
                if !r.rules.table.edges.contains(e) {
                    say(
                        &format!("{at}.edge"),
                        crate::names::unknown(
                            "edge",
                            e,
                            r.rules.table.edges.iter().map(String::as_str),
                        ),
                    );
                }
            }
            (None, Some(z)) => match s.zones.iter().find(|x| &x.name == z) {
                Some(x) if x.side == Side::Enemies => {}
                Some(_) => say(&format!("{at}.zone"), format!("{z:?} is the heroes' zone")),
                None => say(&format!("{at}.zone"), format!("no zone is named {z:?}")),
            },
            _ => say(
                &at,
                "give the Group an `edge` to enter by or a `zone` to deploy in (one of them)"
                    .into(),
            ),
        }
        if g.round == 0 || s.rounds.is_some_and(|n| g.round > n) {
            say(
                &format!("{at}.round"),
                format!("round {} is not a round of the battle", g.round),
            );
        }
    }
    if !s.groups.iter().any(|g| g.round <= 1) && !s.groups.is_empty() {
        say(
            "groups",
            "a battle needs a Group on the table from round 1".into(),
        );
    }
}

/// Every objective, zone and Group can be reached: a base of the rulebook's normal size has a route
/// from the heroes' deployment to each objective, and from each Group's edge or zone to the heroes'.
fn check_reach(s: &Scenario, r: &Rosters, t: &Table, say: &mut dyn FnMut(&str, String)) {
    let radius = r.rules.bases.normal / 2.0;
    let nav = crate::geometry::Navigator::new(t, radius);
    let Some(battle) = s.battle(r) else { return };
    let home = match battle.zone_of(Side::Heroes) {
        Some(z) => z.area.centroid(),
        None => match t.buildings.first() {
            Some(b) => b.rect.center(),
            None => Vec2::new(t.width / 2.0, t.height / 2.0),
        },
    };
    // The heroes' start: the zone's centre, or a legal point beside the Town Hall.
    let start = legal_near(&nav, t, home);
    let Some(start) = start else {
        say(
            "zones",
            "the heroes have no legal spot to start from".into(),
        );
        return;
    };
    // Room for the whole heroes' side in its zone (the largest party, its defenders, big bases).
    if let Some((i, z)) = s
        .zones
        .iter()
        .enumerate()
        .find(|(_, z)| z.side == Side::Heroes)
    {
        let party = s
            .party
            .as_ref()
            .and_then(|p| p.heroes.as_ref().map(|h| h.len() as u32).or(p.size))
            .unwrap_or(r.rules.wave.max_heroes);
        let want = party as usize + s.defenders().len();
        if let Some(area) = outline(&z.rect, &z.area) {
            let fits = room(&blocked(t), &area, r.rules.bases.big / 2.0, want);
            if fits < want {
                say(&format!("zones[{i}]"), format!("the zone {:?} has room for {fits} of the {want} models of the heroes' side", z.name));
            }
        }
    }
    // Room for the Groups that deploy in each enemies' zone, all of them at once.
    for (i, z) in s
        .zones
        .iter()
        .enumerate()
        .filter(|(_, z)| z.side == Side::Enemies)
    {
        let models: Vec<&String> = s
            .groups
            .iter()
            .filter(|g| g.zone.as_deref() == Some(z.name.as_str()))
            .flat_map(|g| g.models.iter())
            .collect();
        let widest = models
            .iter()
            .filter_map(|m| r.profile(m))
            .map(|p| p.base_diameter(&r.rules) / 2.0)
            .fold(radius, f64::max);
        if let Some(area) = outline(&z.rect, &z.area) {
            let fits = room(&blocked(t), &area, widest, models.len());
            if fits < models.len() {
                say(
                    &format!("zones[{i}]"),
                    format!(
                        "the zone {:?} has room for {fits} of the {} models its Groups deploy",
                        z.name,
                        models.len()
                    ),
                );
            }
        }
    }
    for (i, o) in battle.objectives.iter().enumerate() {
        let goal = Goal::Point(o.at);
        if nav.route_to_contact(start, &goal, &[]).is_none() {
            say(
                &format!("objectives[{i}]"),
                format!(
                    "nobody can reach the {}: no route to it from the heroes' deployment",
                    o.name
                ),
            );
        }
    }
    for (i, g) in battle.arriving.iter().enumerate() {
        let from = match &g.zone {
            Some(z) => battle.zone(z).map(|z| z.area.centroid()),
            None => edge_middle(t, g.edge, radius),
        };
        let Some(from) = from.and_then(|p| legal_near(&nav, t, p)) else {
            say(
                &format!("groups[{i}]"),
                "the Group has no legal spot to enter from".into(),
            );
            continue;
        };
        if nav.route(from, start, &[]).is_none() {
            say(
                &format!("groups[{i}]"),
                "the Group cannot reach the heroes: open a way through the terrain".into(),
            );
        }
    }
}

/// The middle of edge `edge` (1 north, clockwise), a base's radius in.
fn edge_middle(t: &Table, edge: u8, r: f64) -> Option<Vec2> {
    Some(match edge {
        1 => Vec2::new(t.width / 2.0, t.height - r - 0.5),
        2 => Vec2::new(t.width - r - 0.5, t.height / 2.0),
        3 => Vec2::new(t.width / 2.0, r + 0.5),
        4 => Vec2::new(r + 0.5, t.height / 2.0),
        _ => return None,
    })
}

/// The legal spot nearest `p` within 6" (a half-inch grid), for a route to start from.
fn legal_near(nav: &crate::geometry::Navigator, t: &Table, p: Vec2) -> Option<Vec2> {
    let mut best: Option<(f64, Vec2)> = None;
    for i in -12..=12 {
        for j in -12..=12 {
            let q = Vec2::new(p.x + f64::from(i) * 0.5, p.y + f64::from(j) * 0.5);
            if q.x < 0.0 || q.y < 0.0 || q.x > t.width || q.y > t.height {
                continue;
            }
            let d = q.dist(p);
            if best.is_none_or(|(bd, _)| d < bd) && nav.is_legal(q, &[]) {
                best = Some((d, q));
            }
        }
    }
    best.map(|(_, q)| q)
}

/// A zone's or objective's shape: exactly one of `rect` and `area`, on the table, an area convex.
fn shape_problems(
    at: &str,
    rect: &Option<[[f64; 2]; 2]>,
    area: &Option<Vec<[f64; 2]>>,
    on_table: &dyn Fn(&[f64; 2]) -> bool,
    w: f64,
    h: f64,
    say: &mut dyn FnMut(&str, String),
) {
    match (rect, area) {
        (Some(c), None) => {
            if !c.iter().all(on_table) {
                say(
                    &format!("{at}.rect"),
                    format!("a corner is off the {w}\" × {h}\" table"),
                );
            } else if c[0][0] == c[1][0] || c[0][1] == c[1][1] {
                say(
                    &format!("{at}.rect"),
                    "the rectangle has no area: give two opposite corners".into(),
                );
            }
        }
        (None, Some(pts)) => {
            if pts.len() < 3 {
                say(
                    &format!("{at}.area"),
                    "an area needs at least three corners".into(),
                );
            } else if !pts.iter().all(on_table) {
                say(
                    &format!("{at}.area"),
                    format!("a corner is off the {w}\" × {h}\" table"),
                );
            } else if !super::convex(pts) {
                say(
                    &format!("{at}.area"),
                    "the outline is not convex: give its corners in order around it".into(),
                );
            }
        }
        _ => say(
            at,
            "give `rect = [[x, y], [x, y]]` or `area = [[x, y], …]` (one of them)".into(),
        ),
    }
}

/// How many bases of radius `r` fit wholly inside `area`, apart, clear of the `blocked` outlines
/// (buildings and impassable terrain), packed from its centre out on a quarter-inch grid — up to
/// `want`.
fn room(blocked: &[Polygon], area: &Polygon, r: f64, want: usize) -> usize {
    let b = area.bounds();
    let mut cands = Vec::new();
    let mut y = b.min.y;
    while y <= b.max.y + 1e-9 {
        let mut x = b.min.x;
        while x <= b.max.x + 1e-9 {
            let p = Vec2::new(x, y);
            if area.signed_dist(p) <= -r + 1e-9
                && blocked.iter().all(|o| o.signed_dist(p) >= r - 1e-9)
            {
                cands.push(p);
            }
            x += 0.25;
        }
        y += 0.25;
    }
    let c = area.centroid();
    cands.sort_by(|a, b| a.dist(c).total_cmp(&b.dist(c)));
    let mut placed: Vec<Vec2> = Vec::new();
    for p in cands {
        if placed.len() >= want {
            break;
        }
        if placed.iter().all(|q| q.dist(p) >= 2.0 * r - 1e-9) {
            placed.push(p);
        }
    }
    placed.len()
}

/// What a base may not overlap (as deployment places them): the buildings and the impassable terrain.
fn blocked(t: &Table) -> Vec<Polygon> {
    t.buildings
        .iter()
        .map(|b| b.rect.to_polygon())
        .chain(
            t.terrain
                .iter()
                .filter(|p| p.kind.is_impassable())
                .filter_map(|p| p.polygon().cloned()),
        )
        .collect()
}
