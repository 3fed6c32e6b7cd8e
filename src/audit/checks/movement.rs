//! Movement (core §3.3, SUPPLEMENT §3 and §11): a move action is one straight segment no longer than
//! its reach; the reach is the profile's band (Long Move, Short Move, Stable II's Warhorse), one band
//! less when the straight path crosses a wall, hedge or Barricade line or enters wood or field; a step is
//! one base width; contact with a non-Defenseless enemy stops the move; no path (move, step, fall-back,
//! recoil, push) passes through another base, a building, rocks or a pond.
//!
//! Allowances the scripts document (scripts/traits): Flying ignores terrain, obstacles and Barricades
//! (and passes over rocks, ponds and friendly bases); Forester does not find wood difficult. A trait
//! named in the event's `traits` applies as well as the profile's.

use crate::audit::facts::{Band, Side};
use crate::audit::geom::{self, P};
use crate::audit::log::{Ev, Line};
use crate::audit::table::{Model, Table};
use crate::audit::{Check, Cx, Kind};
use std::collections::BTreeSet;

/// Tolerance for lengths: the log's numbers are rounded by nothing, but routes are solved numerically.
const EPS: f64 = 0.01;
/// How far a path may overlap a base or a building before it is a breach.
const OVERLAP: f64 = 0.02;

/// The move action in progress (old logs: several `leg` events).
struct Action {
    model: u32,
    path: Vec<P>,
    engaged: BTreeSet<u32>,
    reported: BTreeSet<Kind>,
    act: u64,
}

/// The movement checks.
#[derive(Default)]
pub struct Movement {
    action: Option<Action>,
    /// (activation serial, model) of Slow models' move actions.
    slow: Vec<(u64, u32)>,
}

fn traits_of<'a>(m: &'a Model, extra: &'a [String]) -> impl Fn(&str) -> bool + 'a {
    move |t: &str| m.has(t) || extra.iter().any(|x| x == t)
}

/// What the straight path from `a` to `b` crosses that costs a band, in words, if anything.
fn band_lost(t: &Table, a: P, b: P, has: &dyn Fn(&str) -> bool) -> Option<String> {
    if has("Flying") {
        return None;
    }
    for p in &t.terrain {
        match p.kind.as_str() {
            "wall" | "hedge" => {
                if let [c, d] = p.line[..] {
                    if geom::segments_cross(a, b, c, d) {
                        return Some(format!("crosses a {}", p.kind));
                    }
                }
            }
            "wood" if has("Forester") => {}
            "wood" | "field" if geom::segment_polygon(a, b, &p.area) == 0.0 => {
                return Some(format!("enters {}", p.kind));
            }
            _ => {}
        }
    }
    for (id, br) in &t.barricades {
        if let Some((c, d)) = br.line {
            if geom::segments_cross(a, b, c, d) {
                return Some(format!("crosses Barricade {id}"));
            }
        }
    }
    None
}

/// Whether the model starts in contact with `o`.
fn touching(cx: &Cx, m: &Model, at: P, o: &Model) -> bool {
    geom::circle_gap(at, m.base, o.pos, o.base) <= cx.facts.contact + 1e-6
}

impl Movement {
    /// A voluntary move may pass a friendly base it clears (core §3.3); compelled movement passes none
    /// (SUPPLEMENT §11); Flying passes over friends.
    #[allow(clippy::too_many_arguments)]
    fn through(
        &self,
        t: &Table,
        l: &Line,
        id: u32,
        m: &Model,
        pts: &[P],
        flying: bool,
        compelled: bool,
        cx: &mut Cx,
    ) {
        let r = m.base / 2.0;
        for w in pts.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a.dist(b) < 1e-9 {
                continue;
            }
            for (oid, o) in t.models.iter().filter(|(i, o)| **i != id && o.on) {
                let friend = o.side == m.side;
                if friend && (flying || !compelled) {
                    continue;
                }
                let need = r + o.base / 2.0 - OVERLAP;
                if a.dist(o.pos) < need || b.dist(o.pos) < need {
                    continue; // already overlapping where it starts, or judged as contact at the end
                }
                if geom::point_segment(o.pos, a, b) < need {
                    cx.breach(
                        Kind::MoveThrough,
                        l.seq,
                        format!(
                            "{} passes through the base of {} {} on its way from ({:.2}, {:.2}) to ({:.2}, {:.2})",
                            m.label(id),
                            if friend { "friendly" } else { "enemy" },
                            o.label(*oid),
                            a.x,
                            a.y,
                            b.x,
                            b.y
                        ),
                    );
                    return;
                }
            }
            for (name, bd) in &t.buildings {
                let Some((lo, hi)) = bd.rect else { continue };
                let rect = geom::rectangle(lo, hi);
                if geom::segment_polygon(a, a, &rect) < r - OVERLAP {
                    continue;
                }
                if geom::segment_polygon(a, b, &rect) < r - OVERLAP {
                    cx.breach(
                        Kind::MoveThrough,
                        l.seq,
                        format!("{} passes through the {name}", m.label(id)),
                    );
                    return;
                }
            }
            if flying {
                continue;
            }
            for p in t
                .terrain
                .iter()
                .filter(|p| p.kind == "rocks" || p.kind == "pond")
            {
                if geom::segment_polygon(a, a, &p.area) < r - OVERLAP {
                    continue;
                }
                if geom::segment_polygon(a, b, &p.area) < r - OVERLAP {
                    cx.breach(
                        Kind::MoveThrough,
                        l.seq,
                        format!("{} passes through {} (impassable)", m.label(id), p.kind),
                    );
                    return;
                }
            }
        }
    }
}

impl Check for Movement {
    fn see(&mut self, t: &Table, l: &Line, cx: &mut Cx) {
        let Ev::Moved {
            model,
            from,
            to,
            kind,
            reach,
            band,
            band_lost: said_lost,
            actions,
            stop,
            via,
            traits,
            leg,
        } = &l.ev
        else {
            if matches!(
                l.ev,
                Ev::Activation { .. } | Ev::GroupActivation { .. } | Ev::Turn { .. }
            ) {
                self.action = None;
            }
            return;
        };
        let id = *model;
        let Some(m) = t.on(id) else {
            cx.breach(
                Kind::Log,
                l.seq,
                format!("model {id} moves but is not on the table (never placed, or removed)"),
            );
            return;
        };
        if !from.finite() || !to.finite() {
            cx.breach(
                Kind::Log,
                l.seq,
                format!(
                    "{} moves from or to a point that is not a number",
                    m.label(id)
                ),
            );
            return;
        }
        if from.dist(m.pos) > EPS {
            cx.breach(
                Kind::Log,
                l.seq,
                format!(
                    "{} moves from ({:.2}, {:.2}) but stood at ({:.2}, {:.2})",
                    m.label(id),
                    from.x,
                    from.y,
                    m.pos.x,
                    m.pos.y
                ),
            );
        }
        let has = traits_of(m, traits);
        let flying = has("Flying");
        let kind = match kind {
            Some(k) => k.clone(),
            None => {
                cx.missing("moved.kind (move, step, fall_back, recoil, push)", l.seq);
                if l.cause.is_some() {
                    "compelled".to_string()
                } else if t.acting(id) {
                    "move".to_string()
                } else {
                    "push".to_string()
                }
            }
        };
        let mut pts = vec![*from];
        pts.extend(via.iter().copied());
        pts.push(*to);
        // Falling back and recoiling are compelled; a rule's push (Ready Mounts) moves as a move does.
        let compelled = kind == "fall_back" || kind == "recoil" || kind == "compelled";
        self.through(t, l, id, m, &pts, flying, compelled, cx);
        if kind != "move" && kind != "step" {
            return;
        }
        if !via.is_empty() {
            cx.breach(
                Kind::MoveBent,
                l.seq,
                format!(
                    "{}'s {kind} bends at {} point(s): a move action is one straight segment",
                    m.label(id),
                    via.len()
                ),
            );
        }
        // The action this event belongs to: a `leg` continues the one in progress (old logs).
        let cont = *leg && self.action.as_ref().is_some_and(|a| a.model == id);
        if *leg && a_reported_bent(&mut self.action, id) {
            cx.breach(
                Kind::MoveBent,
                l.seq,
                format!("{} moves a further leg of the same move action: a move action is one straight segment", m.label(id)),
            );
        }
        if !cont {
            let engaged = t
                .on_side(other(m.side))
                .filter(|(_, o)| touching(cx, m, *from, o))
                .map(|(i, _)| i)
                .collect();
            self.action = Some(Action {
                model: id,
                path: vec![*from],
                engaged,
                reported: BTreeSet::new(),
                act: t.act_serial,
            });
            if kind == "move" && has("Slow") {
                let k = (t.act_serial, id);
                if self.slow.contains(&k) {
                    cx.breach(
                        Kind::Slow,
                        l.seq,
                        format!(
                            "{} is Slow and makes a second move action in one activation",
                            m.label(id)
                        ),
                    );
                }
                self.slow.push(k);
                if self.slow.len() > 64 {
                    self.slow.drain(..32);
                }
            }
        }
        let Some(a) = self.action.as_mut() else {
            return;
        };
        a.path.extend(via.iter().copied());
        a.path.push(*to);
        let length = geom::path_length(&a.path);
        let start = a.path[0];
        let _ = a.act;

        // Reach: the band (less terrain) of the whole action, or one base width for a step.
        let profile_band =
            cx.facts
                .profiles
                .get(&m.profile)
                .map(|f| if m.warhorse { Band::Long } else { f.band });
        let expected = if kind == "step" {
            Some((m.base, "one base width".to_string()))
        } else {
            profile_band.map(|b| {
                let lost = if t.setup {
                    band_lost(t, start, *to, &has)
                } else {
                    None
                };
                let b = if has("Long Move") && b < Band::Long {
                    Band::Long
                } else {
                    b
                };
                match lost {
                    Some(why) => (
                        cx.facts.inches(b.less()),
                        format!("{b:?} less one band ({why})"),
                    ),
                    None => (cx.facts.inches(b), format!("{b:?}")),
                }
            })
        };
        if let (Some(said), Some(pb), "move") = (band, profile_band, kind.as_str()) {
            let pb = if has("Long Move") && pb < Band::Long {
                Band::Long
            } else {
                pb
            };
            if Band::named(said) != Some(pb) && a.reported.insert(Kind::MoveBand) {
                cx.breach(
                    Kind::MoveBand,
                    l.seq,
                    format!(
                        "{} moves at band {said}, but its profile's band is {pb:?}",
                        m.label(id)
                    ),
                );
            }
        }
        if kind == "move" && reach.is_some() && said_lost.is_none() && t.setup {
            if let Some(why) = band_lost(t, start, *to, &has) {
                if a.reported.insert(Kind::MoveBand) {
                    cx.breach(
                        Kind::MoveBand,
                        l.seq,
                        format!(
                            "{}'s move {why} but the event says no band was lost",
                            m.label(id)
                        ),
                    );
                }
            }
        }
        if kind == "move"
            && actions.is_none()
            && profile_band == Some(Band::Short)
            && t.setup
            && reach.is_some()
            && band_lost(t, start, *to, &has).is_some()
            && a.reported.insert(Kind::MoveBand)
        {
            cx.breach(
                Kind::MoveBand,
                l.seq,
                format!("{} has a Short band and crosses difficult ground or an obstacle: that takes two actions (`actions` is absent)", m.label(id)),
            );
        }
        match (reach, &expected) {
            (Some(r), Some((e, why))) if *r > e + EPS && a.reported.insert(Kind::MoveBand) => {
                cx.breach(
                    Kind::MoveBand,
                    l.seq,
                    format!(
                        "{}'s {kind} has reach {r:.2}\" but {why} allows {e:.2}\"",
                        m.label(id)
                    ),
                );
            }
            _ => {}
        }
        if reach.is_none() {
            cx.missing("moved.reach", l.seq);
        }
        let limit = match (reach, &expected) {
            (Some(r), _) => Some((*r, "its reach".to_string())),
            (None, Some((e, why))) => Some((*e, why.clone())),
            _ => None,
        };
        if let Some((lim, why)) = limit {
            if length > lim + EPS && a.reported.insert(Kind::MoveLength) {
                cx.breach(
                    Kind::MoveLength,
                    l.seq,
                    format!(
                        "{}'s {kind} action covers {length:.2}\", more than {why} ({lim:.2}\")",
                        m.label(id)
                    ),
                );
            }
        }

        // Contact stops the whole action.
        let mut walked = 0.0;
        'enemies: for w in a.path.windows(2) {
            let (p, q) = (w[0], w[1]);
            let seg = p.dist(q);
            for (oid, o) in t.on_side(other(m.side)) {
                if a.engaged.contains(&oid) || o.is("defenseless") {
                    continue;
                }
                let reachr = (m.base + o.base) / 2.0 + cx.facts.contact;
                if let Some(f) = geom::first_within(p, q, o.pos, reachr) {
                    let at = walked + f * seg;
                    // Once within the tolerance it may close the last hair to base contact with that
                    // same enemy (an oblique approach covers more than 0.05" doing so), and no more.
                    let ends_on_it = a.path.last().is_some_and(|end| {
                        geom::circle_gap(*end, m.base, o.pos, o.base) <= cx.facts.contact + OVERLAP
                    });
                    if length - at > cx.facts.contact + OVERLAP
                        && !ends_on_it
                        && a.reported.insert(Kind::MoveContact)
                    {
                        cx.breach(
                            Kind::MoveContact,
                            l.seq,
                            format!(
                                "{} comes into contact with {} after {at:.2}\" and goes on {:.2}\" more: contact stops the move",
                                m.label(id),
                                o.label(oid),
                                length - at
                            ),
                        );
                        break 'enemies;
                    }
                }
            }
            walked += seg;
        }
        if let Some(s) = stop {
            // A Trap that goes off where the move also meets an enemy ended it there just the same:
            // the move stopped, which is what contact asks (the log names the Trap, whose roll follows).
            if s != "contact" && s != "base" && s != "trap" {
                for (oid, o) in t.on_side(other(m.side)) {
                    if a.engaged.contains(&oid) || o.is("defenseless") {
                        continue;
                    }
                    if geom::circle_gap(*to, m.base, o.pos, o.base) <= cx.facts.contact
                        && a.reported.insert(Kind::MoveContact)
                    {
                        cx.breach(
                            Kind::MoveContact,
                            l.seq,
                            format!(
                                "{} ends in contact with {} but its stop is {s:?}, not \"contact\"",
                                m.label(id),
                                o.label(oid)
                            ),
                        );
                    }
                }
            }
        } else {
            cx.missing("moved.stop", l.seq);
        }
    }
}

/// Whether the bend of the action in progress is still to be reported (once an action).
fn a_reported_bent(action: &mut Option<Action>, id: u32) -> bool {
    action
        .as_mut()
        .filter(|a| a.model == id)
        .is_none_or(|a| a.reported.insert(Kind::MoveBent))
}

/// The other side.
pub fn other(s: Side) -> Side {
    match s {
        Side::Heroes => Side::Enemies,
        Side::Enemies => Side::Heroes,
    }
}
