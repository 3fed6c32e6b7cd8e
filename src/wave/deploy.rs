//! The default deployment of the start-of-wave sequence (core §5.3 steps 2–3): heroes and Village
//! Defenders near the Town Hall, then every Enemy Group of a [`WavePlan`] wholly within the deploy
//! distance of its spawn edge.
//!
//! Owns *where* models are put when no script chooses: a legal spot for every base (on the table, off
//! buildings and impassable terrain, not overlapping another base — [`placement_problem`]), Enemy Groups
//! packed around an anchor on their edge, heroes spread around their building. It never reads a rule
//! number that the rosters hold (`[deploy]`, `[measures]`, `[activation].group_range`), never draws a
//! random number except through [`Game::choose`] (so every choice is in the log), and never leaves a
//! half-placed wave: on an error the game is restored to what it was before the call.
//!
//! Enemies, Group by Group in creation order:
//! 1. an anchor along the Group's edge is chosen (`choice` event, whole inches along the edge) at half the
//!    deploy depth;
//! 2. each model, leader first, takes the nearest spot to the anchor on a 0.5" grid that is legal, wholly
//!    within the deploy distance of the edge, within the activation range (Long) of every member already
//!    placed, outside Short of every hero, and has a route to the Town Hall for its base
//!    ([`Navigator::route_to_contact`], ignoring other models, which move);
//! 3. when the Group does not fit around that anchor, the other anchors are tried, nearest first; when it
//!    fits nowhere, the conditions are dropped in this order — hero clearance ("where possible", §5.3),
//!    then the route, then both — and the `group_deployed` event says which were kept. Being on the
//!    table, legal, inside the band and together is never dropped: a Group that cannot have those is a
//!    [`WaveError::NoRoom`].
//!
//! The heroes' side (heroes and Village Defenders), in id order, is spread evenly around
//! the Town Hall (or, with Watchtower III, dealt out in turn to every standing building, Town Hall first),
//! each on the nearest legal spot (0.25" grid) to its share of the building's outline, wholly within the
//! deploy distance of it. No choice is drawn: a hero policy script is meant to choose these positions.
//! New Village Defenders a wave-start ability brings (the Militias, the Lost Villagers) are placed the same
//! way around their own building ([`deploy_new_defenders`]) and left there by the heroes' deployment
//! ([`deploy_heroes_except`]).
//!
//! Not considered: walls and hedges (a base may be put across one, as [`placement_problem`] allows) and
//! tokens (Opportunities, Barricades, Traps have no base to overlap).

use super::{GroupPlan, WaveError, WavePlan};
use crate::geometry::{circle_circle_gap, Circle, Goal, Navigator, Rect, Segment};
use crate::geometry::{Table, Vec2};
use crate::roster::{ProfileKind, Rosters};
use crate::rules::query::placement_problem;
use crate::state::{model_from_profile, EventKind, Game, Model, ModelId, Side};
use std::sync::Arc;

/// Spacing of the candidate spots for enemies, inches.
const ENEMY_GRID: f64 = 0.5;
/// Spacing of the candidate spots for heroes, inches.
const HERO_GRID: f64 = 0.25;
const EPS: f64 = 1e-9;
/// Spots this close to the wanted point are sorted and tried first (see [`nearest_ok`]).
const NEAR: f64 = 2.0;

/// How one Enemy Group was deployed; the same facts as its `group_deployed` event.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupDeployment {
    /// The Group's number in the [`WavePlan`].
    pub number: u32,
    /// Spawn edge, 1 N, 2 E, 3 S, 4 W.
    pub edge: u8,
    /// The point the Group was packed around.
    pub anchor: Vec2,
    /// The Group's models, in the plan's order (leader first).
    pub models: Vec<ModelId>,
    /// Every model is outside Short of every hero. False only when no spot on the edge allowed it.
    pub hero_clearance: bool,
    /// Every model was placed where its base has a route to the Town Hall (true when there is no Town
    /// Hall to reach).
    pub routes: bool,
}

/// Puts every model of every Group of `plan` on the table (core §5.3 step 3) with its Group number and
/// Behaviour, and returns their ids in plan order. See the module docs for the method; use
/// [`deploy_enemy_groups`] to learn which Groups could not keep outside Short of the heroes.
pub fn deploy_enemies(
    game: &mut Game,
    rosters: &Rosters,
    plan: &WavePlan,
) -> Result<Vec<ModelId>, WaveError> {
    Ok(deploy_enemy_groups(game, rosters, plan)?
        .into_iter()
        .flat_map(|g| g.models)
        .collect())
}

/// [`deploy_enemies`], reporting each Group's deployment. On an error nothing is placed and the game
/// (dice and log included) is as it was.
pub fn deploy_enemy_groups(
    game: &mut Game,
    rosters: &Rosters,
    plan: &WavePlan,
) -> Result<Vec<GroupDeployment>, WaveError> {
    let backup = game.checkpoint();
    let result = place_groups(game, rosters, plan);
    match &result {
        Err(_) => game.restore(backup),
        // The wave's Escalation row says whether its Igniters may burn (core §5.2: from II).
        Ok(_) => {
            game.igniters_burn = rosters
                .escalation(&plan.escalation)
                .is_some_and(|e| e.igniters)
        }
    }
    result
}

/// Moves every model of the heroes' side (heroes and Village Defenders) to a legal spot wholly within
/// `rules.deploy.defenders_within` of the Town Hall — of any standing building when `anywhere`
/// (Watchtower III) — spread around it, logging a `deployed` event for each (core §5.3 step 2).
/// On an error nothing is moved.
pub fn deploy_heroes(game: &mut Game, rosters: &Rosters, anywhere: bool) -> Result<(), WaveError> {
    deploy_heroes_except(game, rosters, anywhere, &[])
}

/// [`deploy_heroes`] for every model of the heroes' side but those in `keep` (Village Defenders that a
/// wave-start ability deployed in step 1 of the same wave, which stay where they were put).
pub fn deploy_heroes_except(
    game: &mut Game,
    rosters: &Rosters,
    anywhere: bool,
    keep: &[ModelId],
) -> Result<(), WaveError> {
    let backup = game.checkpoint();
    let result = place_heroes(game, rosters, anywhere, keep);
    if result.is_err() {
        game.restore(backup);
    }
    result
}

/// A spawn edge seen from the table: distances `along` it and `depth` into the table.
struct EdgeFrame {
    edge: u8,
    width: f64,
    height: f64,
}

impl EdgeFrame {
    fn new(table: &Table, edge: u8) -> Option<Self> {
        (1..=4).contains(&edge).then_some(EdgeFrame {
            edge,
            width: table.width,
            height: table.height,
        })
    }

    /// Length of the edge.
    fn len(&self) -> f64 {
        if self.edge % 2 == 1 {
            self.width
        } else {
            self.height
        }
    }

    /// The axis measured along the edge, for the log.
    fn axis(&self) -> &'static str {
        if self.edge % 2 == 1 {
            "x"
        } else {
            "y"
        }
    }

    fn point(&self, along: f64, depth: f64) -> Vec2 {
        match self.edge {
            1 => Vec2::new(along, self.height - depth),
            2 => Vec2::new(self.width - depth, along),
            3 => Vec2::new(along, depth),
            _ => Vec2::new(depth, along),
        }
    }
}

/// `lo, lo + step, ...` up to `hi`, with `hi` itself always included; empty when `hi < lo`.
fn steps(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    if hi < lo - EPS {
        return Vec::new();
    }
    let n = ((hi - lo) / step + EPS).floor() as usize;
    let mut v: Vec<f64> = (0..=n).map(|i| lo + i as f64 * step).collect();
    if v.last().is_some_and(|last| *last < hi - EPS) {
        v.push(hi);
    }
    v
}

/// The first spot, nearest to `to` first (ties by x, then y, so the order never depends on anything
/// else), for which `ok` holds. Spots within `near` of `to` are sorted and tried before the rest, which
/// are sorted only when none of those will do: the nearest legal spot is almost always close by.
fn nearest_ok(spots: &[Vec2], to: Vec2, near: f64, ok: impl FnMut(Vec2) -> bool) -> Option<Vec2> {
    ByDistance::new(spots, to, near).first(ok)
}

/// Spots in [`nearest_ok`]'s order, kept to be asked again: deployment looks for a spot for each model
/// of a group among the same candidates around the same point, and sorting them was most of its work.
struct ByDistance<'a> {
    spots: &'a [Vec2],
    to: Vec2,
    near: f64,
    /// The spots within `near`, sorted.
    close: Vec<Vec2>,
    /// The others, sorted when first needed.
    far: Option<Vec<Vec2>>,
}

impl<'a> ByDistance<'a> {
    fn new(spots: &'a [Vec2], to: Vec2, near: f64) -> Self {
        let close = Self::sorted(spots, to, near, true);
        ByDistance {
            spots,
            to,
            near,
            close,
            far: None,
        }
    }

    /// The spots within `near` of `to` (`close`) or beyond it, nearest first, ties by x, then y.
    fn sorted(spots: &[Vec2], to: Vec2, near: f64, close: bool) -> Vec<Vec2> {
        let mut v: Vec<(f64, Vec2)> = spots
            .iter()
            .map(|p| (p.dist(to), *p))
            .filter(|(d, _)| (*d <= near) == close)
            .collect();
        v.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.x.total_cmp(&b.1.x))
                .then(a.1.y.total_cmp(&b.1.y))
        });
        v.into_iter().map(|(_, p)| p).collect()
    }

    /// The first spot in order for which `ok` holds.
    fn first(&mut self, mut ok: impl FnMut(Vec2) -> bool) -> Option<Vec2> {
        if let Some(p) = self.close.iter().copied().find(|p| ok(*p)) {
            return Some(p);
        }
        let (spots, to, near) = (self.spots, self.to, self.near);
        self.far
            .get_or_insert_with(|| Self::sorted(spots, to, near, false))
            .iter()
            .copied()
            .find(|p| ok(*p))
    }
}

/// Whether a base could reach contact with the Town Hall, one navigator per base size (the game's own,
/// [`Game::navigator`]: built once a game and shared with every route of its waves, instead of built
/// again each wave). A point with a clear straight leg to a point already known to reach it reaches it
/// too, which saves most searches. Other models are ignored: they move, and a route they block now is
/// open later.
struct Routes {
    goal: Option<Goal>,
    navs: Vec<(f64, Arc<Navigator>, Vec<Vec2>)>,
}

impl Routes {
    fn new(town_hall: Option<Rect>) -> Self {
        Routes {
            goal: town_hall.map(Goal::Building),
            navs: Vec::new(),
        }
    }

    fn reaches(&mut self, game: &Game, r: f64, p: Vec2) -> bool {
        let Some(goal) = &self.goal else {
            return true;
        };
        let i = match self.navs.iter().position(|(nr, ..)| *nr == r) {
            Some(i) => i,
            None => {
                self.navs.push((r, game.navigator(r), Vec::new()));
                self.navs.len() - 1
            }
        };
        let (_, nav, known) = &mut self.navs[i];
        if known
            .iter()
            .rev()
            .take(16)
            .any(|k| nav.is_clear(&Segment::new(p, *k), &[]))
        {
            return true;
        }
        let ok = nav.route_to_contact(p, goal, &[]).is_some();
        if ok {
            known.push(p);
        }
        ok
    }
}

/// The fixed inputs of one Group's search.
struct GroupSearch<'a> {
    frame: &'a EdgeFrame,
    within: f64,
    range: f64,
    clearance: f64,
    heroes: &'a [Circle],
}

impl GroupSearch<'_> {
    /// Spots for every model around the anchor `along` the edge, or `None` when one does not fit.
    fn try_anchor(
        &self,
        game: &Game,
        models: &[Model],
        along: f64,
        keep_clear: bool,
        need_route: bool,
        routes: &mut Routes,
    ) -> Option<Vec<Circle>> {
        let anchor = self.frame.point(along, self.within / 2.0);
        let mut spots: Vec<Circle> = Vec::with_capacity(models.len());
        // Candidate centres per base radius. Only spots within the activation range of the anchor can
        // be near enough to each other; farther anchors are tried by the caller.
        let mut grids: Vec<(f64, Vec<Vec2>)> = Vec::new();
        for m in models {
            let r = m.base / 2.0;
            if !grids.iter().any(|(gr, _)| *gr == r) {
                let alongs = steps(
                    r.max(along - self.range),
                    (self.frame.len() - r).min(along + self.range),
                    ENEMY_GRID,
                );
                let depths = steps(r, self.within - r, ENEMY_GRID);
                let cands = alongs
                    .iter()
                    .flat_map(|a| depths.iter().map(move |d| self.frame.point(*a, *d)))
                    .collect();
                grids.push((r, cands));
            }
        }
        // Each grid in the order its spots are tried, sorted once for every model of its size.
        let mut orders: Vec<(f64, ByDistance)> = grids
            .iter()
            .map(|(r, cands)| (*r, ByDistance::new(cands, anchor, NEAR)))
            .collect();
        for m in models {
            let r = m.base / 2.0;
            let order = &mut orders.iter_mut().find(|(gr, _)| *gr == r)?.1;
            let found = order.first(|p| {
                let c = Circle::new(p, r);
                spots.iter().all(|s| {
                    let g = circle_circle_gap(s, &c);
                    g >= -EPS && g <= self.range + EPS
                }) && (!keep_clear
                    || self
                        .heroes
                        .iter()
                        .all(|h| circle_circle_gap(h, &c) > self.clearance + EPS))
                    && placement_problem(game, &c).is_none()
                    && (!need_route || routes.reaches(game, r, p))
            })?;
            spots.push(Circle::new(found, r));
        }
        Some(spots)
    }
}

fn place_groups(
    game: &mut Game,
    rosters: &Rosters,
    plan: &WavePlan,
) -> Result<Vec<GroupDeployment>, WaveError> {
    let rules = &rosters.rules;
    let within = rules.deploy.enemies_within_edge;
    let clearance = rules.measures.get(rules.deploy.enemies_outside);
    let range = rules.measures.get(rules.activation.group_range);
    let town_hall = game
        .buildings
        .iter()
        .find(|b| b.town_hall && !b.destroyed)
        .map(|b| b.rect);
    let mut routes = Routes::new(town_hall);
    let mut out = Vec::with_capacity(plan.groups.len());
    for g in &plan.groups {
        let models = g
            .models
            .iter()
            .map(|name| {
                let p = rosters
                    .profile(name)
                    .filter(|p| p.kind == ProfileKind::Enemy)
                    .ok_or_else(|| WaveError::UnknownProfile(name.clone()))?;
                let mut m = model_from_profile(p, rosters, Vec2::default());
                m.group = Some(g.number);
                m.behaviour = Some(g.behaviour.clone());
                Ok(m)
            })
            .collect::<Result<Vec<Model>, WaveError>>()?;
        if models.is_empty() {
            continue;
        }
        if let Some(zone) = g
            .zone
            .as_ref()
            .and_then(|z| game.battle.as_ref().and_then(|b| b.zone(z)).cloned())
        {
            out.push(place_group_in_zone(game, g, models, &zone, range)?);
            continue;
        }
        let frame = EdgeFrame::new(&game.table, g.edge).ok_or(WaveError::BadEdge {
            group: g.number,
            edge: g.edge,
        })?;
        let no_room = || WaveError::NoRoom {
            group: g.number,
            edge: g.edge,
        };
        let widest = models.iter().map(|m| m.base / 2.0).fold(0.0, f64::max);
        if within - widest < widest - EPS {
            return Err(no_room());
        }
        // Whole inches along the edge where the widest base fits.
        let (lo, hi) = (widest.ceil(), (frame.len() - widest).floor());
        let mut anchors: Vec<f64> = steps(lo, hi, 1.0)
            .into_iter()
            .filter(|a| a.fract() == 0.0)
            .collect();
        if anchors.is_empty() {
            anchors.push(frame.len() / 2.0);
        }
        let options: Vec<String> = anchors
            .iter()
            .map(|a| format!("{}={a}", frame.axis()))
            .collect();
        let edge_name = rules
            .table
            .edges
            .get(usize::from(g.edge) - 1)
            .map_or("?", String::as_str);
        let purpose = format!(
            "deploy Group {} anchor on edge {} ({edge_name})",
            g.number, g.edge
        );
        let chosen = anchors[game.choose(&purpose, &options).unwrap_or(0)];
        let mut order = anchors.clone();
        order.sort_by(|a, b| {
            (a - chosen)
                .abs()
                .total_cmp(&(b - chosen).abs())
                .then(a.total_cmp(b))
        });
        let heroes: Vec<Circle> = game
            .models
            .iter()
            .filter(|m| m.kind == ProfileKind::Hero)
            .map(Model::circle)
            .collect();
        let search = GroupSearch {
            frame: &frame,
            within,
            range,
            clearance,
            heroes: &heroes,
        };
        let mut placed = None;
        'levels: for (keep_clear, need_route) in
            [(true, true), (false, true), (true, false), (false, false)]
        {
            if !keep_clear && heroes.is_empty() {
                continue; // the same search again
            }
            for a in &order {
                if let Some(spots) =
                    search.try_anchor(game, &models, *a, keep_clear, need_route, &mut routes)
                {
                    placed = Some((*a, spots, need_route));
                    break 'levels;
                }
            }
        }
        let (along, spots, routed) = placed.ok_or_else(no_room)?;
        let hero_clearance = spots.iter().all(|c| {
            heroes
                .iter()
                .all(|h| circle_circle_gap(h, c) > clearance + EPS)
        });
        let mut ids = Vec::with_capacity(models.len());
        for (mut m, c) in models.into_iter().zip(&spots) {
            m.pos = c.c;
            ids.push(game.add_model(m));
        }
        let anchor = frame.point(along, within / 2.0);
        game.record(EventKind::GroupDeployed {
            number: g.number,
            edge: g.edge,
            anchor,
            models: ids.clone(),
            hero_clearance,
            routes: routed || town_hall.is_none(),
        });
        out.push(GroupDeployment {
            number: g.number,
            edge: g.edge,
            anchor,
            models: ids,
            hero_clearance,
            routes: routed || town_hall.is_none(),
        });
    }
    Ok(out)
}

/// A scenario's Group deployed in its zone: its models on the free spots nearest the zone's centre,
/// each within the activation range of another, logged `group_deployed` (its edge as its plan gives
/// it).
fn place_group_in_zone(
    game: &mut Game,
    g: &GroupPlan,
    models: Vec<Model>,
    zone: &crate::state::battle::Zone,
    range: f64,
) -> Result<GroupDeployment, WaveError> {
    let radii: Vec<f64> = models.iter().map(|m| m.base / 2.0).collect();
    let spots = zone_spots(game, &zone.area, &radii, Some(range)).ok_or(WaveError::NoRoom {
        group: g.number,
        edge: g.edge,
    })?;
    let mut ids = Vec::with_capacity(models.len());
    for (mut m, c) in models.into_iter().zip(&spots) {
        m.pos = c.c;
        ids.push(game.add_model(m));
    }
    let anchor = zone.area.centroid();
    game.record(EventKind::GroupDeployed {
        number: g.number,
        edge: g.edge,
        anchor,
        models: ids.clone(),
        hero_clearance: true,
        routes: true,
    });
    Ok(GroupDeployment {
        number: g.number,
        edge: g.edge,
        anchor,
        models: ids,
        hero_clearance: true,
        routes: true,
    })
}

/// Spots for up to `n` bases of radius `r` that join the table near `center` (an Ambush around its
/// Opportunity token): each wholly within `within` of `center` (centre distance + radius), legal
/// ([`placement_problem`]), outside contact with every model on the table (gap above `tol`), and not
/// overlapping one another. Spots on the enemy grid around `center`, nearest first (ties by x, then y),
/// so no choice is drawn. Fewer than `n` when the ground is crowded.
pub fn spots_near(game: &Game, center: Vec2, within: f64, r: f64, n: usize, tol: f64) -> Vec<Vec2> {
    let reach = within - r;
    if reach < -EPS || n == 0 {
        return Vec::new();
    }
    let xs = steps(center.x - reach, center.x + reach, ENEMY_GRID);
    let ys = steps(center.y - reach, center.y + reach, ENEMY_GRID);
    let cands: Vec<Vec2> = xs
        .iter()
        .flat_map(|x| ys.iter().map(move |y| Vec2::new(*x, *y)))
        .filter(|p| p.dist(center) <= reach + EPS)
        .collect();
    let mut placed: Vec<Circle> = Vec::with_capacity(n);
    let mut order = ByDistance::new(&cands, center, NEAR);
    while placed.len() < n {
        let found = order.first(|p| {
            let c = Circle::new(p, r);
            placed.iter().all(|o| circle_circle_gap(o, &c) >= -EPS)
                && game
                    .models
                    .iter()
                    .all(|m| circle_circle_gap(&m.circle(), &c) > tol + EPS)
                && placement_problem(game, &c).is_none()
        });
        match found {
            Some(p) => placed.push(Circle::new(p, r)),
            None => break,
        }
    }
    placed.into_iter().map(|c| c.c).collect()
}

/// The point at fraction `f` (0 to 1) of the way round `r`'s outline, clockwise from the middle of its
/// north side.
fn around(r: &Rect, f: f64) -> Vec2 {
    let mid_top = Vec2::new((r.min.x + r.max.x) / 2.0, r.max.y);
    let path = [
        mid_top,
        r.max,
        Vec2::new(r.max.x, r.min.y),
        r.min,
        Vec2::new(r.min.x, r.max.y),
        mid_top,
    ];
    let perimeter: f64 = path.windows(2).map(|w| w[0].dist(w[1])).sum();
    let mut left = f.rem_euclid(1.0) * perimeter;
    for w in path.windows(2) {
        let l = w[0].dist(w[1]);
        if left <= l && l > 0.0 {
            return w[0].lerp(w[1], left / l);
        }
        left -= l;
    }
    mid_top
}

/// The nearest legal spot for a base of diameter `base` wholly within `within` of building `sites[0]`
/// (then of the other sites in turn), near the point at fraction `f` of the way round it, clear of the
/// bases in `taken` and of everything on the table. Returns the base and the building's name.
fn spot_near(
    game: &Game,
    sites: &[usize],
    within: f64,
    base: f64,
    f: f64,
    taken: &[Circle],
) -> Option<(Circle, String)> {
    let r = base / 2.0;
    let gap_target = ((within - base) / 2.0).max(0.0);
    for &s in sites {
        let rect = game.buildings[s].rect;
        let target = around(&rect.expand(gap_target + r), f);
        let zone = rect.expand(within);
        let (xs, ys) = (
            steps(zone.min.x, zone.max.x, HERO_GRID),
            steps(zone.min.y, zone.max.y, HERO_GRID),
        );
        let spots = |near: Option<f64>| -> Vec<Vec2> {
            let axis = |v: &[f64], t: f64| -> Vec<f64> {
                v.iter()
                    .copied()
                    .filter(|c| near.is_none_or(|n| (c - t).abs() <= n))
                    .collect()
            };
            let ys = axis(&ys, target.y);
            axis(&xs, target.x)
                .into_iter()
                .flat_map(|x| ys.iter().map(move |y| Vec2::new(x, *y)))
                .filter(|p| rect.signed_dist(*p) + r <= within + EPS)
                .filter(|p| near.is_none_or(|n| p.dist(target) <= n))
                .collect()
        };
        let free = |p: Vec2| {
            let c = Circle::new(p, r);
            taken.iter().all(|t| circle_circle_gap(t, &c) >= -EPS)
                && placement_problem(game, &c).is_none()
        };
        // The spots within NEAR of the wanted point first, without laying out the whole zone: they are
        // the ones `nearest_ok` tries first, in the same order, and one of them almost always does.
        // Only when none does is the whole zone laid out (those fail again, then the rest are tried).
        let found = nearest_ok(&spots(Some(NEAR)), target, NEAR, free)
            .or_else(|| nearest_ok(&spots(None), target, NEAR, free));
        if let Some(p) = found {
            return Some((Circle::new(p, r), game.buildings[s].name.clone()));
        }
    }
    None
}

/// Puts new models of the heroes' side (Village Defenders a wave-start ability or the Lost Villagers
/// bring) on the table wholly within `within` of building `site`, spread around it on the nearest legal
/// spots, each with a `placed` and a `deployed` event (core §5.3 step 1). Returns their ids. On an error
/// nothing is placed.
pub fn deploy_new_defenders(
    game: &mut Game,
    models: Vec<Model>,
    site: usize,
    within: f64,
) -> Result<Vec<ModelId>, WaveError> {
    if site >= game.buildings.len() {
        return Err(WaveError::NoTownHall);
    }
    let mut spots = Vec::with_capacity(models.len());
    let mut taken: Vec<Circle> = Vec::with_capacity(models.len());
    let n = models.len().max(1);
    for (k, m) in models.iter().enumerate() {
        let f = (k as f64 + 0.5) / n as f64;
        let Some((c, near)) = spot_near(game, &[site], within, m.base, f, &taken) else {
            return Err(WaveError::NoHeroRoom {
                model: m.id,
                name: m.name.clone(),
            });
        };
        taken.push(c);
        spots.push((c.c, near));
    }
    let mut ids = Vec::with_capacity(spots.len());
    for (mut m, (to, near)) in models.into_iter().zip(spots) {
        m.pos = to;
        let id = game.add_model(m);
        game.record(EventKind::Deployed {
            model: id,
            from: None,
            to,
            near,
        });
        ids.push(id);
    }
    Ok(ids)
}

fn place_heroes(
    game: &mut Game,
    rosters: &Rosters,
    anywhere: bool,
    keep: &[ModelId],
) -> Result<(), WaveError> {
    if let Some(zone) = game
        .battle
        .as_ref()
        .and_then(|b| b.zone_of(Side::Heroes))
        .cloned()
    {
        return place_in_zone(game, &zone, keep);
    }
    let within = rosters.rules.deploy.defenders_within;
    let th = game
        .buildings
        .iter()
        .position(|b| b.town_hall)
        .ok_or(WaveError::NoTownHall)?;
    let mut sites = vec![th];
    if anywhere {
        sites.extend(
            (0..game.buildings.len()).filter(|i| *i != th && !game.buildings[*i].destroyed),
        );
    }
    // The movers leave the table while they are placed, so their old spots are no obstacle. Models in
    // `keep` were deployed already this wave (step 1) and stay where they are.
    let (movers, rest): (Vec<Model>, Vec<Model>) = std::mem::take(&mut game.models)
        .into_iter()
        .partition(|m| m.side == Side::Heroes && !keep.contains(&m.id));
    game.models = rest;
    let n = sites.len();
    let mut taken: Vec<Circle> = Vec::with_capacity(movers.len());
    let mut moves: Vec<(Vec2, String)> = Vec::with_capacity(movers.len());
    for (i, m) in movers.iter().enumerate() {
        let (site, k) = (i % n, i / n);
        // Movers dealt to this site: i % n == site for i < len.
        let count = (movers.len() - site).div_ceil(n);
        let f = (k as f64 + 0.5) / count as f64;
        // Its own building first, then the others in order.
        let order: Vec<usize> = (0..n).map(|j| sites[(site + j) % n]).collect();
        let Some((c, near)) = spot_near(game, &order, within, m.base, f, &taken) else {
            // Put the movers back before reporting, so the caller's restore has a whole game.
            game.models.extend(movers.iter().cloned());
            game.models.sort_by_key(|m| m.id);
            return Err(WaveError::NoHeroRoom {
                model: m.id,
                name: m.name.clone(),
            });
        };
        taken.push(c);
        moves.push((c.c, near));
    }
    put_movers(game, movers, moves);
    Ok(())
}

/// The heroes' side deployed in its zone of a scenario's battle: each model of it but those in `keep`
/// on the free spot of the zone nearest its centre, wholly inside it.
fn place_in_zone(
    game: &mut Game,
    zone: &crate::state::battle::Zone,
    keep: &[ModelId],
) -> Result<(), WaveError> {
    let (movers, rest): (Vec<Model>, Vec<Model>) = std::mem::take(&mut game.models)
        .into_iter()
        .partition(|m| m.side == Side::Heroes && !keep.contains(&m.id));
    game.models = rest;
    let radii: Vec<f64> = movers.iter().map(|m| m.base / 2.0).collect();
    let Some(spots) = zone_spots(game, &zone.area, &radii, None) else {
        let first = movers.first().map(|m| (m.id, m.name.clone()));
        game.models.extend(movers);
        game.models.sort_by_key(|m| m.id);
        let (model, name) = first.unwrap_or((ModelId(0), String::new()));
        return Err(WaveError::NoHeroRoom { model, name });
    };
    let moves = spots.iter().map(|c| (c.c, zone.name.clone())).collect();
    put_movers(game, movers, moves);
    Ok(())
}

/// Spots for bases of radii `radii`, each wholly inside `area`, clear of the table's models and
/// terrain and of one another, nearest the area's centre first (ties by x, then y); with `range`, each
/// within that gap of one placed before it (a Group together). `None` when one does not fit.
fn zone_spots(
    game: &Game,
    area: &crate::geometry::Polygon,
    radii: &[f64],
    range: Option<f64>,
) -> Option<Vec<Circle>> {
    let b = area.bounds();
    let xs = steps(b.min.x, b.max.x, HERO_GRID);
    let ys = steps(b.min.y, b.max.y, HERO_GRID);
    let cands: Vec<Vec2> = xs
        .iter()
        .flat_map(|x| ys.iter().map(move |y| Vec2::new(*x, *y)))
        .filter(|p| area.contains(*p))
        .collect();
    let mut order = ByDistance::new(&cands, area.centroid(), NEAR);
    let mut placed: Vec<Circle> = Vec::with_capacity(radii.len());
    for &r in radii {
        let found = order.first(|p| {
            let c = Circle::new(p, r);
            area.signed_dist(p) <= -r + EPS
                && placed.iter().all(|s| circle_circle_gap(s, &c) >= -EPS)
                && range.is_none_or(|g| {
                    placed.is_empty() || placed.iter().any(|s| circle_circle_gap(s, &c) <= g + EPS)
                })
                && placement_problem(game, &c).is_none()
        })?;
        placed.push(Circle::new(found, r));
    }
    Some(placed)
}

/// Every mover back where it stood, then each put on its spot (`moves`: where, and what it is
/// deployed near) and logged in turn.
fn put_movers(game: &mut Game, movers: Vec<Model>, moves: Vec<(Vec2, String)>) {
    // Every mover back where it stood, then each put on its spot and logged in turn (a recorded frame
    // shows each deployment at its own event). A mover not yet on the table — a hero before its first
    // deployment, or a Fled hero rejoining (SUPPLEMENT §11) — is placed there: its `placed` event,
    // then `deployed` from nowhere.
    let from: Vec<(ModelId, Vec2)> = movers.iter().map(|m| (m.id, m.pos)).collect();
    game.models.extend(movers);
    game.models.sort_by_key(|m| m.id);
    for ((id, from), (to, near)) in from.into_iter().zip(moves) {
        if let Ok(m) = game.model_mut(id) {
            m.pos = to;
        }
        let from = if game.is_unplaced(id) {
            game.place(id);
            None
        } else {
            Some(from)
        };
        game.record(EventKind::Deployed {
            model: id,
            from,
            to,
            near,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asked again and again (as deployment asks it for each model of a group), `ByDistance` gives the
    /// first spot in the order of a plain sort of every spot by distance, then x, then y — the near
    /// spots' order and, once none of them will do, the far ones'.
    #[test]
    fn spots_by_distance_keep_their_order_when_asked_again() {
        let spots: Vec<Vec2> = (0..15)
            .flat_map(|i| (0..9).map(move |j| Vec2::new(f64::from(i) * 0.5, f64::from(j) * 0.5)))
            .collect();
        let to = Vec2::new(3.0, 2.0);
        let mut all = spots.clone();
        all.sort_by(|a, b| {
            a.dist(to)
                .total_cmp(&b.dist(to))
                .then(a.x.total_cmp(&b.x))
                .then(a.y.total_cmp(&b.y))
        });
        let mut order = ByDistance::new(&spots, to, 2.0);
        let asks: [&dyn Fn(Vec2) -> bool; 4] = [
            &|p: Vec2| p.x > 3.2,
            &|p: Vec2| p.y < 0.1,
            &|p: Vec2| p.dist(to) > 4.0 && p.y > 3.0,
            &|_: Vec2| false,
        ];
        for ok in asks {
            assert_eq!(order.first(ok), all.iter().copied().find(|p| ok(*p)));
        }
    }

    #[test]
    fn steps_include_both_ends() {
        assert_eq!(steps(0.5, 2.0, 0.5), vec![0.5, 1.0, 1.5, 2.0]);
        assert_eq!(steps(0.5, 1.8, 0.5), vec![0.5, 1.0, 1.5, 1.8]);
        assert_eq!(steps(1.0, 1.0, 0.5), vec![1.0]);
        assert!(steps(2.0, 1.0, 0.5).is_empty());
    }

    #[test]
    fn around_walks_clockwise_from_north() {
        let r = Rect::new(Vec2::new(0.0, 0.0), Vec2::new(4.0, 2.0));
        assert_eq!(around(&r, 0.0), Vec2::new(2.0, 2.0));
        // Perimeter 12: a quarter (3") is 2" to the corner and 1" down the east side.
        assert_eq!(around(&r, 0.25), Vec2::new(4.0, 1.0));
        assert_eq!(around(&r, 0.5), Vec2::new(2.0, 0.0));
    }

    #[test]
    fn edge_frames_measure_depth_from_their_edge() {
        let t = Table::empty(36.0, 30.0);
        let n = EdgeFrame::new(&t, 1).unwrap();
        assert_eq!(n.point(5.0, 1.0), Vec2::new(5.0, 29.0));
        let e = EdgeFrame::new(&t, 2).unwrap();
        assert_eq!(e.point(5.0, 1.0), Vec2::new(35.0, 5.0));
        assert_eq!(e.len(), 30.0);
        assert!(EdgeFrame::new(&t, 5).is_none());
        assert!(EdgeFrame::new(&t, 0).is_none());
    }
}
