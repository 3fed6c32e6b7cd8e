//! The closest target (core §3.5): a ranged attack (a shot or an attack spell, which "follows
//! ranged-attack rules", §3.7) must aim at the closest legal visible enemy. The audit names a breach
//! only when a closer enemy is certainly a legal target that may not be ignored: on the table, not
//! Engaged with a model of the shooter's side, not Defenseless, without Stealth, worth at least half the
//! shooter's cost, and fully visible — the line between centres and both lines to its base's tangent
//! points clear of buildings, rocks and wood (unless an end is inside) and crossing no wall, hedge or
//! Barricade (any of which may give Cover), and not standing in wood. A Big or Huge target may always be
//! chosen; a shooter that bent the rule by a script (`rule_bent`, Called Shot) is let through, and so are
//! the attacks of a scripted action in the same activation (Fire Breath attacks every model in front of
//! the dragon: it chooses no target); a closer
//! enemy within range is in range because the target was.

use crate::audit::facts::Side;
use crate::audit::geom::{self, P};
use crate::audit::log::{Aim, Ev, Line};
use crate::audit::table::{Model, Table};
use crate::audit::{Check, Cx, Kind};

/// The closest-target check.
#[derive(Default)]
pub struct Targets {
    /// (activation serial, model) of the last `rule_bent` or `ability`.
    bent: Option<(u64, u32)>,
    /// (activation serial, model) of the last scripted action (`ability`): its attacks (Fire Breath's
    /// every model in front) choose no target, so the closest-target rule does not apply to them.
    scripted: Option<(u64, u32)>,
}

/// The centre line and the two lines from `a`'s centre to the tangent points of `b`'s base.
fn sight_lines(a: P, b: &Model) -> Vec<(P, P)> {
    let d = a.dist(b.pos);
    let r = b.base / 2.0;
    let mut v = vec![(a, b.pos)];
    if d > r {
        let ang = (r / d).asin();
        let len = (d * d - r * r).sqrt();
        let (dx, dy) = ((b.pos.x - a.x) / d, (b.pos.y - a.y) / d);
        for s in [ang, -ang] {
            let (c, sn) = (s.cos(), s.sin());
            let (ux, uy) = (dx * c - dy * sn, dx * sn + dy * c);
            v.push((a, P::new(a.x + ux * len, a.y + uy * len)));
        }
    }
    v
}

/// Whether the enemy is fully in the open as seen from `from`.
fn in_the_open(t: &Table, from: P, e: &Model) -> bool {
    for p in &t.terrain {
        if p.kind == "wood" && geom::point_in_polygon(e.pos, &p.area) {
            return false;
        }
    }
    for (a, b) in sight_lines(from, e) {
        for bd in t.buildings.values() {
            if let Some((lo, hi)) = bd.rect {
                if geom::segment_polygon(a, b, &geom::rectangle(lo, hi)) == 0.0 {
                    return false;
                }
            }
        }
        for p in &t.terrain {
            match p.kind.as_str() {
                "rocks" | "wood" if geom::segment_polygon(a, b, &p.area) == 0.0 => {
                    return false;
                }
                "wall" | "hedge" => {
                    if let [c, d] = p.line[..] {
                        if geom::segments_cross(a, b, c, d) {
                            return false;
                        }
                    }
                }
                _ => {}
            }
        }
        for br in t.barricades.values() {
            match br.line {
                Some((c, d)) if geom::segments_cross(a, b, c, d) => return false,
                None => return false, // a Barricade of unknown place might give Cover
                _ => {}
            }
        }
    }
    true
}

impl Check for Targets {
    fn see(&mut self, t: &Table, l: &Line, cx: &mut Cx) {
        // A rule bent by a script (Called Shot) or a scripted action's attacks (Fire Breath: every
        // model in front) choose no closest target.
        if let Ev::RuleBent { model, .. } | Ev::Ability { model, .. } = &l.ev {
            self.bent = Some((t.act_serial, *model));
        }
        if let Ev::Ability { model, .. } = &l.ev {
            self.scripted = Some((t.act_serial, *model));
        }
        let Ev::Combat {
            kind,
            attacker,
            target: Aim::Model(target),
            free_hack: false,
            reaction: None,
            ..
        } = &l.ev
        else {
            return;
        };
        let here = Some((t.act_serial, *attacker));
        if kind != "ranged" || !t.setup || self.bent == here || self.scripted == here {
            return;
        }
        let (Some(s), Some(tg)) = (t.on(*attacker), t.on(*target)) else {
            return;
        };
        if tg.has("Big") || tg.has("Huge") {
            return;
        }
        let cost = |m: &Model| cx.facts.profiles.get(&m.profile).map_or(0, |f| f.cost);
        let gap_t = geom::circle_gap(s.pos, s.base, tg.pos, tg.base);
        let mine: Vec<&Model> = t.on_side(s.side).map(|(_, m)| m).collect();
        let foes = t.on_side(if s.side == Side::Heroes {
            Side::Enemies
        } else {
            Side::Heroes
        });
        let mut closest: Option<(f64, u32, &Model)> = None;
        for (eid, e) in foes {
            let gap = geom::circle_gap(s.pos, s.base, e.pos, e.base);
            if eid == *target || gap >= gap_t - 0.01 {
                continue;
            }
            let engaged = mine
                .iter()
                .any(|f| geom::circle_gap(f.pos, f.base, e.pos, e.base) <= cx.facts.contact + 0.01);
            if engaged
                || e.is("defenseless")
                || e.has("Stealth")
                || 2 * cost(e) < cost(s)
                || !in_the_open(t, s.pos, e)
            {
                continue;
            }
            if closest.is_none_or(|(g, _, _)| gap < g) {
                closest = Some((gap, eid, e));
            }
        }
        if let Some((gap, eid, e)) = closest {
            cx.breach(
                Kind::ClosestTarget,
                l.seq,
                format!(
                    "{} shoots {} at {gap_t:.2}\" while {} at {gap:.2}\" is a closer legal target it may not ignore (§3.5)",
                    s.label(*attacker),
                    tg.label(*target),
                    e.label(eid)
                ),
            );
        }
    }
}
