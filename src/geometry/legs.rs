//! A route as straight legs (SUPPLEMENT §11: one move action is one straight segment): where the first
//! move action along a shortest route goes.
//!
//! The navigator's routes hug obstacles: around a corner or a base they follow a ring of short tangent
//! edges (22.5° apart, see `path`). A tabletop player does not creep around that ring one action per
//! edge; they move straight past the corner to where the line they leave on crosses the line they go on
//! with. [`first_leg`] finds that corner point: the farthest point where the first edge's line, carried
//! on, meets the line of a later edge of the same bend (turning one way, by at most `max_turn`
//! radians), as long as both straight pieces are legal. The route's length is unchanged: this only says
//! where the legs bend, which is what a move action needs.

use super::path::{Navigator, Route};
use super::shapes::{Circle, Segment, Vec2};

/// The point the first move action along `route` heads for: the route's second waypoint, or the corner
/// point past it where the first leg's line meets a later edge's line (see the module docs). `bases`
/// are the other models the route was planned around. A route that does not move is its start.
pub fn first_leg(nav: &Navigator, route: &Route, bases: &[Circle], max_turn: f64) -> Vec2 {
    leg_from(nav, &route.waypoints, bases, max_turn).0
}

/// The straight legs a mover makes following `route` (each from where the last ended to the next corner
/// point [`first_leg`] finds), as their lengths in order: one move action each, or more for a leg
/// longer than the band. Their sum is the route's length, or a little more where a leg goes straight
/// past a bend the route hugs.
pub fn legs(nav: &Navigator, route: &Route, bases: &[Circle], max_turn: f64) -> Vec<f64> {
    let mut w = route.waypoints.clone();
    let mut out = Vec::new();
    // Each leg consumes at least one waypoint: the loop ends.
    while w.len() >= 2 {
        let (to, next) = leg_from(nav, &w, bases, max_turn);
        let len = w[0].dist(to);
        if len > 1e-9 {
            out.push(len);
        }
        let mut rest = vec![to];
        rest.extend(w.get(next..).unwrap_or_default().iter().copied());
        w = rest;
    }
    out
}

/// [`first_leg`] over waypoints `w`: the corner point, and the index of the first waypoint after it.
fn leg_from(nav: &Navigator, w: &[Vec2], bases: &[Circle], max_turn: f64) -> (Vec2, usize) {
    let (Some(&p0), Some(&p1)) = (w.first(), w.get(1)) else {
        return (w.first().copied().unwrap_or_default(), w.len());
    };
    let d1 = p1 - p0;
    let l1 = d1.len();
    if l1 < 1e-12 {
        return (p1, 2);
    }
    let u = d1 / l1;
    let mut best = (p1, 2);
    let mut turned = 0.0_f64;
    let mut side = 0.0_f64;
    let mut prev = u;
    for k in 2..w.len() {
        let e = w[k] - w[k - 1];
        let el = e.len();
        if el < 1e-12 {
            continue;
        }
        let v = e / el;
        // The bend turns one way; a bend the other way is another obstacle's: stop there.
        let cross = prev.x * v.y - prev.y * v.x;
        if side == 0.0 {
            side = cross.signum();
        } else if cross * side < -1e-12 {
            break;
        }
        turned += prev.dot(v).clamp(-1.0, 1.0).acos();
        prev = v;
        if turned > max_turn + 1e-9 {
            break;
        }
        // Where p0 + u t meets w[k-1] + v s: carried past p1 (t ≥ |p0 p1|), and reached before w[k]
        // along the later edge's line (s ≤ |w[k-1] w[k]|).
        let den = u.x * v.y - u.y * v.x;
        if den.abs() < 1e-9 {
            continue;
        }
        let q = w[k - 1] - p0;
        let t = (q.x * v.y - q.y * v.x) / den;
        let s = (q.x * u.y - q.y * u.x) / den;
        if t < l1 - 1e-9 || s > el + 1e-9 {
            continue;
        }
        let x = p0 + u * t;
        if nav.is_legal(x, bases)
            && nav.is_clear(&Segment::new(p0, x), bases)
            && nav.is_clear(&Segment::new(x, w[k]), bases)
        {
            best = (x, k);
        }
    }
    best
}
