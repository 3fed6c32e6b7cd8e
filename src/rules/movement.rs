//! Movement (§3.3): a straight move up to the model's band that stops on contact with a standing enemy,
//! never passes through an enemy, and ends clear of friends.

use super::error::RuleError;
use super::hooks::{Hooks, MoveTraits};
use super::melee::{melee, MeleeOptions};
use super::query::{engaged_enemies, in_contact, label};
use crate::geometry::{
    crossings_of, straight_move, Circle, Segment, Stop, Table, TerrainShape, Vec2,
};
use crate::roster::{Measure, Rules};
use crate::state::{
    CombatResult, Condition, EventKind, Game, Model, ModelId, MoveKind, MoveStop, Side, TokenId,
    TokenKind,
};
use crate::state::{ONE_BAND_LESS, TWO_ACTIONS};
use serde::{Deserialize, Serialize};

/// What ended a move before its destination.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocker {
    /// Contact with a standing enemy: the two are now Engaged.
    Enemy(ModelId),
    /// A base it may not pass through or end on.
    Model(ModelId),
    Building(String),
    Terrain(String),
    TableEdge,
    /// A Trap went off and ended the move.
    Trap(TokenId),
}

/// The result of a move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveReport {
    pub from: Vec2,
    pub to: Vec2,
    pub travelled: f64,
    pub stopped_by: Option<Blocker>,
    /// Why it ended where it did, as the log says it.
    #[serde(default)]
    pub stop: MoveStop,
    /// Actions the move costs: 2 for a Short-move model crossing difficult terrain or an obstacle.
    pub actions: u8,
    /// Why the move lost a band, if it did.
    pub band_lost: Option<String>,
    /// Enemies that made a Free Hack as the model left melee.
    pub free_hacks: Vec<ModelId>,
    /// False when a Free Hack defeated the model before it could move.
    pub survived: bool,
    /// Opportunity tokens its base touched on the way (within base contact at some point of the path,
    /// start included), in the order met. The wave layer lets a model whose scripts grant
    /// `claim_on_move` claim them without stopping (Wren's Pathfinder).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passed: Vec<TokenId>,
}

/// The longest single move of a model: its band (Medium unless a trait script says otherwise).
pub fn move_distance(rules: &Rules, traits: &MoveTraits) -> f64 {
    rules.measures.get(traits.band.unwrap_or(Measure::Medium))
}

/// How a move is made.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct MoveOptions {
    /// At most this many inches (a what-if or a partial move); the band otherwise.
    pub limit: Option<f64>,
    /// The one-base-width step any model may always take for an action (§3.3).
    pub step: bool,
    /// A displacement that is not a move action (a building's ability moving a hero): logged as a
    /// `push`, and it does not count as the model's move for Slow.
    #[serde(default)]
    pub push: bool,
}

/// Move `id` in a straight line toward `dest`, at most `limit` inches (its band when `None`), with the
/// plain rulebook's movement (no trait scripts). See [`move_with`].
pub fn move_model(
    game: &mut Game,
    rules: &Rules,
    id: ModelId,
    dest: Vec2,
    limit: Option<f64>,
) -> Result<MoveReport, RuleError> {
    let o = MoveOptions {
        limit,
        ..MoveOptions::default()
    };
    move_with(game, rules, &super::hooks::NoHooks, id, dest, o)
}

/// The next band down (§3.3): Long to Medium, Medium to Short; `None` for Short.
pub(crate) fn band_below(m: Measure) -> Option<Measure> {
    match m {
        Measure::Long => Some(Measure::Medium),
        Measure::Medium => Some(Measure::Short),
        Measure::Short => None,
    }
}

/// Why a straight path costs a band: difficult terrain entered or a linear obstacle crossed.
pub(crate) fn band_penalty(
    game: &Game,
    path: &Segment,
    r: f64,
    traits: &MoveTraits,
) -> Option<String> {
    // A flier passes over terrain; over Barricades only where they say so (`flying_ignores`).
    let terrain: &[crate::geometry::Terrain] = if traits.flying {
        &[]
    } else {
        &game.table.terrain
    };
    let pb = path.bounds();
    for t in terrain {
        let kind = t.kind.name();
        let ignored = || traits.ignore_terrain.iter().any(|k| k == kind);
        let hit = match &t.shape {
            TerrainShape::Area(p) if t.kind.is_difficult() => {
                !ignored() && crate::geometry::movement::sweeps_into(path, &pb, p, r)
            }
            TerrainShape::Line(s) if t.kind.is_linear() => {
                !ignored() && !crossings_of(&[*s], path, r).is_empty()
            }
            _ => false,
        };
        if hit {
            return Some(if t.kind.is_linear() {
                format!("crosses a {kind}")
            } else {
                format!("enters difficult {kind}")
            });
        }
    }
    let barricades: Vec<Segment> = game
        .tokens
        .iter()
        .filter_map(|t| match &t.kind {
            TokenKind::Barricade {
                segment,
                flying_ignores,
                ..
            } if !(traits.flying && *flying_ignores) => Some(*segment),
            _ => None,
        })
        .collect();
    (!crossings_of(&barricades, path, r).is_empty()).then(|| "crosses a Barricade".to_string())
}

/// Move `id` in a straight line toward `dest` (§3.3): up to its band (one base width for a step), one
/// band less when the path enters difficult terrain or crosses a linear obstacle (a Short-move model
/// needs two actions instead), stopping on contact with an Active enemy (within the contact tolerance)
/// and never passing through an enemy or ending on a friend. One call is one move action: one straight
/// segment (SUPPLEMENT §11). A model that leaves melee first takes a Free Hack from every enemy it
/// actually leaves (it moves and ends out of contact with it) that is not Defenseless, Entangled or
/// Transfixed and that it has no Free Disengage against; if it survives it completes the move.
pub fn move_with(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    id: ModelId,
    dest: Vec2,
    o: MoveOptions,
) -> Result<MoveReport, RuleError> {
    // Malformed input never reaches geometry. A destination may lie off the table (a Recoil pushed
    // toward an edge stops at it), but it must be a point; a limit must be a distance.
    crate::geometry::check::finite_point("destination", dest)?;
    if let Some(l) = o.limit {
        crate::geometry::check::distance("distance", l)?;
    }
    let m = game.model(id)?;
    for (c, why) in [
        (Condition::Transfixed, "Transfixed"),
        (Condition::Entangled, "Entangled"),
    ] {
        if m.has(c) {
            return Err(RuleError::CannotMove(label(m), why));
        }
    }
    let engaged = engaged_enemies(game, rules, id);
    let traits = hooks.movement_traits(game, id, &engaged)?;
    let m = game.model(id)?;
    let r = m.base / 2.0;
    let band = traits.band.unwrap_or(Measure::Medium);
    if traits.one_move && !o.step && !o.push && m.moves > 0 {
        return Err(RuleError::NotAllowed(
            label(m),
            "move again this activation (Slow)",
        ));
    }
    let full = rules.measures.get(band);
    let mut reach = if o.step {
        m.base
    } else if o.push {
        o.limit.unwrap_or(full)
    } else {
        // A move action covers at most its band, whatever limit is asked for.
        o.limit.map_or(full, |l| l.min(full))
    };
    let mut actions = 1u8;
    let mut band_lost = None;
    let wanted = dest - m.pos;
    let heading = if wanted.len() > 1e-12 {
        wanted.normalized()
    } else {
        Vec2::new(0.0, 0.0)
    };
    let along = |reach: f64, from: Vec2| from + heading * reach.min(wanted.len());
    if !o.step {
        // Terrain takes a band from the whole move action, judged on the segment it would cover at
        // its full band (SUPPLEMENT §11: not leg by leg).
        let path = Segment::new(m.pos, along(reach, m.pos));
        if let Some(why) = band_penalty(game, &path, r, &traits) {
            match (o.limit, band_below(band)) {
                (None, Some(lower)) => reach = rules.measures.get(lower),
                (Some(l), Some(lower)) => reach = l.min(rules.measures.get(lower)),
                (_, None) => actions = rules.actions.short_move_difficult as u8,
            }
            band_lost = Some(why);
        }
    }

    // Where the move would end, judged before anyone hacks: only the enemies it would actually leave
    // make Free Hacks (SUPPLEMENT §11), so a move that cannot get away leaves nobody.
    let start = m.pos;
    let plan = plan_move(game, rules, id, along(reach, start), &traits)?;
    let mut free_hacks = Vec::new();
    if !engaged.is_empty() && plan.out.travelled > 1e-9 {
        let me = m.clone();
        let moved = Model {
            pos: plan.out.end,
            ..me.clone()
        };
        let leaving: Vec<ModelId> = engaged
            .iter()
            .copied()
            .filter(|e| {
                game.model(*e)
                    .is_ok_and(|en| !in_contact(rules, &moved, en))
            })
            .collect();
        for e in hackers(game, &leaving, &traits) {
            let o = MeleeOptions {
                free_hack: true,
                ..MeleeOptions::default()
            };
            melee(game, rules, hooks, e, id, o)?;
            free_hacks.push(e);
            if game.model(id).is_err() {
                return Ok(MoveReport {
                    from: me.pos,
                    to: me.pos,
                    travelled: 0.0,
                    stopped_by: None,
                    stop: MoveStop::Reached,
                    actions,
                    band_lost,
                    free_hacks,
                    survived: false,
                    passed: Vec::new(),
                });
            }
        }
    }
    // A hack that moved it (a Recoil) leaves it somewhere else: the move goes on from there.
    let plan = if game.model(id)?.pos == start {
        plan
    } else {
        let from = game.model(id)?.pos;
        plan_move(game, rules, id, along(reach, from), &traits)?
    };
    let side = game.model(id)?.side;
    let from = game.model(id)?.pos;
    let mut out = plan.out;
    let mut stopped_by = plan.stopped_by;
    // The first enemy entering a Trap's area sets it off: its movement ends there (§6.5).
    let mut sprung = None;
    if side == Side::Enemies {
        if let Some((t, token)) = first_trap(game, from, out.end, r) {
            let dir = (out.end - from).normalized();
            out.end = from + dir * t;
            out.travelled = t;
            stopped_by = Some(Blocker::Trap(token));
            sprung = Some(token);
        }
    }
    let stop = match &stopped_by {
        Some(b) => b.stop(),
        None if out.travelled + 1e-9 >= wanted.len() => MoveStop::Reached,
        None => MoveStop::Reach,
    };
    let passed = opportunities_passed(game, from, out.end, r, rules.bases.contact_tolerance);
    let mut words = stopped_by.as_ref().map(|b| describe(game, b));
    if let Some(why) = &band_lost {
        let note = if actions > 1 {
            format!("{why}{TWO_ACTIONS}")
        } else {
            format!("{why}{ONE_BAND_LESS}")
        };
        words = Some(match words {
            Some(w) => format!("{w}; {note}"),
            None => note,
        });
    }
    {
        let m = game.model_mut(id)?;
        m.pos = out.end;
        m.moved += out.travelled;
        if !o.step && !o.push {
            m.moves = m.moves.saturating_add(1);
        }
    }
    let kind = if o.push {
        MoveKind::Push
    } else if o.step {
        MoveKind::Step
    } else {
        MoveKind::Move
    };
    game.record(EventKind::Moved {
        model: id,
        from,
        to: out.end,
        kind,
        reach: Some(reach),
        band: (kind == MoveKind::Move).then_some(band),
        band_lost: band_lost.clone(),
        actions: (actions > 1).then_some(actions),
        stop,
        with: stopped_by.as_ref().and_then(Blocker::model),
        via: Vec::new(),
        stopped_by: words,
        traits: traits.sources.clone(),
    });
    if out.travelled > 1e-9 {
        // A model that leaves loses the actions it had put into a Task (§3.1).
        super::activation::interrupt_task(game, id);
    }
    if let Some(token) = sprung {
        spring_trap(game, rules, hooks, token, id)?;
    }
    // A move that ends in contact with enemies is a charge: the mover's scripts may react (Terror).
    if out.travelled > 1e-9 && game.model(id).is_ok() {
        let now = engaged_enemies(game, rules, id);
        let charged: Vec<ModelId> = now.into_iter().filter(|e| !engaged.contains(e)).collect();
        if !charged.is_empty() {
            game.model_mut(id)?.charged = true;
            let intents = hooks.on_charge(game, id, &charged)?;
            super::outcome::apply_intents(game, rules, hooks, &intents)?;
        }
    }
    Ok(MoveReport {
        from,
        to: out.end,
        travelled: out.travelled,
        stopped_by,
        stop,
        actions,
        band_lost,
        free_hacks,
        survived: true,
        passed,
    })
}

/// The table a move of a model with `traits` is judged on: a flier passes over terrain (but not
/// buildings), so for it the terrain is taken away.
pub(crate) fn terrain_for<'a>(game: &'a Game, traits: &MoveTraits) -> std::borrow::Cow<'a, Table> {
    if traits.flying {
        std::borrow::Cow::Owned(Table {
            terrain: Vec::new(),
            ..game.table.clone()
        })
    } else {
        std::borrow::Cow::Borrowed(&game.table)
    }
}

/// Of the enemies a model leaves, those that make a Free Hack (§3.3, §3.6): not Defenseless, Entangled
/// or Transfixed ones, and none it has Free Disengage against (SUPPLEMENT §11: also on compelled
/// movement).
pub(crate) fn hackers(game: &Game, left: &[ModelId], traits: &MoveTraits) -> Vec<ModelId> {
    left.iter()
        .copied()
        .filter(|e| !traits.free_disengage.contains(e))
        .filter(|e| game.model(*e).is_ok_and(|en| !helpless(en)))
        .collect()
}

/// Defenseless, Entangled and Transfixed models make no Free Hacks: a model may leave them freely (§3.3).
pub(crate) fn helpless(m: &Model) -> bool {
    m.has(Condition::Defenseless) || m.has(Condition::Entangled) || m.has(Condition::Transfixed)
}

/// The first enemy base among `enemies` that a straight move of `mover` to `end` passes within the
/// contact tolerance `tol` of without touching it, and the distance along the path of its closest
/// approach. Bases it starts within the tolerance of (it is already Engaged with them) do not count.
fn graze(mover: &Circle, end: Vec2, enemies: &[Circle], tol: f64) -> Option<(f64, usize)> {
    let len = mover.c.dist(end);
    if len < 1e-12 {
        return None;
    }
    let u = (end - mover.c) * (1.0 / len);
    let mut best: Option<(f64, usize)> = None;
    for (i, e) in enemies.iter().enumerate() {
        let reach = mover.r + e.r + tol;
        if mover.c.dist(e.c) <= reach {
            continue;
        }
        let t = crate::geometry::clamp_to((e.c - mover.c).dot(u), 0.0, len);
        let gap = (mover.c + u * t).dist(e.c) - mover.r - e.r;
        if gap <= tol && best.is_none_or(|(bt, _)| t < bt) {
            best = Some((t, i));
        }
    }
    best
}

/// Where a straight move of `id` toward `target` ends, and what stops it.
struct Plan {
    out: crate::geometry::MoveOutcome,
    stopped_by: Option<Blocker>,
}

/// The straight move of `id` toward `target` (§3.3), not yet made: Active enemies stop it when it
/// comes within the contact tolerance of their bases (contact, SUPPLEMENT §11); Defenseless enemies
/// do not stop it but cannot be crossed; friends may be passed only if it can clear them.
fn plan_move(
    game: &Game,
    rules: &Rules,
    id: ModelId,
    target: Vec2,
    traits: &MoveTraits,
) -> Result<Plan, RuleError> {
    let m = game.model(id)?;
    let mover = m.circle();
    let side = m.side;
    let tol = rules.bases.contact_tolerance;
    let (mut stop_ids, mut stop_at, mut solid_ids, mut solid) = (vec![], vec![], vec![], vec![]);
    for other in game.models.iter().filter(|o| o.id != id && o.side != side) {
        if other.has(Condition::Defenseless) {
            solid_ids.push(other.id);
            solid.push(other.circle());
        } else {
            stop_ids.push(other.id);
            stop_at.push(other.circle());
        }
    }
    let table = terrain_for(game, traits);
    let table = table.as_ref();
    let mut out = straight_move(table, &mover, target, &stop_at, &solid);
    // Friends may be passed through only if the move can clear them: otherwise it stops at the first.
    let friends: Vec<(ModelId, Circle)> = game
        .models
        .iter()
        .filter(|o| o.id != id && o.side == side)
        .map(|o| (o.id, o.circle()))
        .collect();
    let ends_on_friend = friends.iter().any(|(_, c)| {
        crate::geometry::circle_circle_gap(
            &Circle {
                c: out.end,
                r: mover.r,
            },
            c,
        ) < -1e-9
    });
    if ends_on_friend {
        for (fid, c) in &friends {
            solid_ids.push(*fid);
            solid.push(*c);
        }
        out = straight_move(table, &mover, target, &stop_at, &solid);
    }
    // A path that comes within the contact tolerance of an enemy it was not touching is in contact
    // there (SUPPLEMENT §11, contact stops the action): passing one, the move stops at its closest
    // approach; ending beside one (its destination was the contact point, say), that is why it stops.
    if let Some((t, i)) = graze(&mover, out.end, &stop_at, tol) {
        if t + 1e-12 < out.travelled {
            out.end = mover.c + (out.end - mover.c) * (t / out.travelled);
            out.travelled = t;
            out.stopped = Some(Stop::Contact(i));
        } else if !matches!(out.stopped, Some(Stop::Contact(_))) && out.travelled > 1e-9 {
            out.stopped = Some(Stop::Contact(i));
        }
    }
    let stopped_by = out.stopped.map(|s| match s {
        Stop::Contact(i) => Blocker::Enemy(stop_ids[i]),
        Stop::Model(i) => Blocker::Model(solid_ids[i]),
        Stop::Building(i) => Blocker::Building(game.table.buildings[i].name.clone()),
        Stop::Terrain(i) => Blocker::Terrain(game.table.terrain[i].kind.name().to_string()),
        Stop::TableEdge => Blocker::TableEdge,
    });
    Ok(Plan { out, stopped_by })
}

impl Blocker {
    /// The log's word for what stopped a move.
    pub fn stop(&self) -> MoveStop {
        match self {
            Blocker::Enemy(_) => MoveStop::Contact,
            Blocker::Model(_) => MoveStop::Base,
            Blocker::Building(_) => MoveStop::Building,
            Blocker::Terrain(_) => MoveStop::Terrain,
            Blocker::TableEdge => MoveStop::Edge,
            Blocker::Trap(_) => MoveStop::Trap,
        }
    }
    /// The model it names, if it names one.
    pub fn model(&self) -> Option<ModelId> {
        match self {
            Blocker::Enemy(m) | Blocker::Model(m) => Some(*m),
            _ => None,
        }
    }
}

/// The Opportunity tokens a base of radius `r` comes within base contact of (`tol`) moving straight
/// from `from` to `to`, start included, in the order met along the path.
fn opportunities_passed(game: &Game, from: Vec2, to: Vec2, r: f64, tol: f64) -> Vec<TokenId> {
    let len = from.dist(to);
    let dir = if len > 1e-12 {
        (to - from) * (1.0 / len)
    } else {
        Vec2::new(0.0, 0.0)
    };
    let mut met: Vec<(f64, TokenId)> = game
        .tokens
        .iter()
        .filter(|t| matches!(t.kind, TokenKind::Opportunity { .. }))
        .filter_map(|t| {
            // The nearest point of the path to the token, and how far along the path it is.
            let along = crate::geometry::clamp_to((t.pos - from).dot(dir), 0.0, len);
            let gap = t.pos.dist(from + dir * along) - r;
            (gap <= tol).then_some((along, t.id))
        })
        .collect();
    met.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    met.into_iter().map(|(_, id)| id).collect()
}

fn describe(game: &Game, b: &Blocker) -> String {
    match b {
        Blocker::Enemy(id) => match game.model(*id) {
            Ok(m) => format!("contact with {}", label(m)),
            Err(_) => format!("contact with model {id}"),
        },
        Blocker::Model(id) => match game.model(*id) {
            Ok(m) => format!("cannot pass {}", label(m)),
            Err(_) => format!("cannot pass model {id}"),
        },
        Blocker::Building(n) => format!("the {n}"),
        Blocker::Terrain(k) => format!("impassable {k}"),
        Blocker::TableEdge => "the table edge".to_string(),
        Blocker::Trap(t) => format!("a Trap ({})", t.0),
    }
}

/// The first Trap whose area a base of radius `r` enters moving from `from` to `to`: the distance along
/// the path where it enters, and the token. A base already inside an area does not set it off again.
fn first_trap(game: &Game, from: Vec2, to: Vec2, r: f64) -> Option<(f64, TokenId)> {
    let len = from.dist(to);
    if len < 1e-12 {
        return None;
    }
    let dir = (to - from) * (1.0 / len);
    let mut best: Option<(f64, TokenId)> = None;
    for tok in &game.tokens {
        let TokenKind::Trap { radius, .. } = tok.kind else {
            continue;
        };
        let reach = radius + r;
        let w = from - tok.pos;
        if w.len() <= reach {
            continue;
        }
        // |w + dir t| = reach, smallest t ≥ 0.
        let b = w.dot(dir);
        let c = w.dot(w) - reach * reach;
        let disc = b * b - c;
        if disc < 0.0 {
            continue;
        }
        let t = -b - disc.sqrt();
        if (0.0..=len).contains(&t) && best.is_none_or(|(bt, _)| t < bt) {
            best = Some((t, tok.id));
        }
    }
    best
}

/// Resolve a Trap under `victim` (§6.5, SUPPLEMENT §6): a ranged attack at the Trap's Combat, with no
/// Cover, that the model can only stop; then the Trap is removed. A snare (Grimm's Snare Master,
/// `entangle`) Entangles "instead of attacking" (SUPPLEMENT §11): no die is rolled and the model is
/// Entangled.
pub fn spring_trap(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    token: TokenId,
    victim: ModelId,
) -> Result<CombatResult, RuleError> {
    let Some(i) = game.tokens.iter().position(|t| t.id == token) else {
        return Err(RuleError::NoToken(token.0));
    };
    let tok = game.tokens.remove(i);
    let TokenKind::Trap {
        combat, entangle, ..
    } = tok.kind
    else {
        return Err(RuleError::NoToken(token.0));
    };
    let m = game.model(victim)?.clone();
    let (rolled, result) = if entangle {
        (None, CombatResult::Entangled)
    } else {
        let dice = game.roll("trap", Some(victim), 2);
        let (td, md) = (dice[0].face, dice[1].face);
        let tt = i32::from(td) + combat;
        let mt = i32::from(md) + m.combat;
        let result = if tt > mt {
            let k = super::combat::CombatConstants::from_rules(rules);
            let lethal = super::melee::lethal_condition(&m).is_some();
            super::combat::classify(tt, mt, td, lethal, k.gruesome_multiplier, &k)
        } else if mt > tt {
            CombatResult::None
        } else {
            CombatResult::Tie
        };
        (Some(TrapRoll { td, md, tt, mt }), result)
    };
    game.record(EventKind::Trap {
        token,
        model: victim,
        trap_die: rolled.map(|r| r.td),
        model_die: rolled.map(|r| r.md),
        trap_total: rolled.map(|r| r.tt),
        model_total: rolled.map(|r| r.mt),
        result,
        source: tok.source.clone(),
    });
    if rolled.is_none_or(|r| r.tt > r.mt) {
        super::outcome::apply(game, rules, hooks, victim, tok.pos, result)
    } else {
        Ok(result)
    }
}

/// A Trap's attack roll: each die and total, the Trap's first.
#[derive(Debug, Clone, Copy)]
struct TrapRoll {
    td: u8,
    md: u8,
    tt: i32,
    mt: i32,
}
