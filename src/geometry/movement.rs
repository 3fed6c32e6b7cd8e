//! Straight moves (core rules §3.3): how far a base gets along a straight line before it touches an
//! enemy, a building, impassable terrain, a solid base or the table edge, solved exactly (quadratics for
//! circles, offset-edge and corner tests for rectangles and polygons), never by stepping.
//!
//! Also the terrain facts a move needs (linear obstacles crossed, difficult terrain entered). It never
//! decides movement bands, Engaged status or who counts as an enemy: callers pass the bases to stop at.

use super::shapes::{
    point_segment_dist, segment_poly_dist, segment_segment_dist, Circle, Polygon, Rect, Segment,
    Vec2,
};
use super::table::{Table, TerrainShape};
use serde::{Deserialize, Serialize};

/// Why a straight move ended before its destination (or exactly at it, touching something).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stop {
    /// Reached contact (gap 0) with `stop_at[i]` (an enemy).
    Contact(usize),
    /// Touched `table.buildings[i]`.
    Building(usize),
    /// Touched impassable `table.terrain[i]` (rocks, pond).
    Terrain(usize),
    /// Touched `solid[i]`, a base it may not overlap.
    Model(usize),
    /// The base touched the table edge (centre at `r` from an edge).
    TableEdge,
}

/// The result of a straight move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveOutcome {
    /// Where the centre ends.
    pub end: Vec2,
    /// Distance the centre travelled.
    pub travelled: f64,
    /// What stopped it, if anything. `None` means the destination was reached without touching anything.
    pub stopped: Option<Stop>,
}

/// A pass that comes closer to an obstacle than touching by less than this (inches) is a graze, not a
/// contact. It keeps the routes of the navigator (which hug obstacles within 1e-7) executable.
pub const GRAZE_TOL: f64 = 1e-6;
/// Numerical tolerance for "touching" (gap 0).
const TOUCH_EPS: f64 = 1e-9;

/// Moves `mover` in a straight line toward `dest` and stops at the first contact.
///
/// Stops (gap exactly 0, within 1e-9) on an enemy base in `stop_at`, a building, impassable terrain, a
/// `solid` base, or the table edge (the centre stays within [r, width − r] × [r, height − r]). Rules:
/// * A start already touching or overlapping something is stopped at once only if the move would go
///   deeper into it; moving away from or along an obstacle is free (so a model in contact may leave).
/// * A pass closer than touching by less than `GRAZE_TOL` (1e-6") is not a contact.
/// * A destination exactly in contact (within 1e-9) reports that contact as the stop.
/// * On ties the first kind in `Stop`'s declaration order wins.
///
/// Cost: O(#stop_at + #solid + Σ building/terrain vertices).
pub fn straight_move(
    table: &Table,
    mover: &Circle,
    dest: Vec2,
    stop_at: &[Circle],
    solid: &[Circle],
) -> MoveOutcome {
    let p0 = mover.c;
    let r = mover.r;
    let len = p0.dist(dest);
    if len <= 0.0 {
        return MoveOutcome {
            end: p0,
            travelled: 0.0,
            stopped: None,
        };
    }
    let u = (dest - p0) / len;
    let path = Segment::new(p0, dest);
    let mut best: Option<(f64, Stop)> = None;
    let mut offer = |t: Option<f64>, stop: Stop| {
        if let Some(t) = t {
            if best.is_none_or(|(bt, _)| t < bt - 1e-12) {
                best = Some((t, stop));
            }
        }
    };
    for (i, c) in stop_at.iter().enumerate() {
        offer(circle_hit(&path, u, len, c.c, r + c.r), Stop::Contact(i));
    }
    for (i, b) in table.buildings.iter().enumerate() {
        offer(
            poly_hit(&path, u, len, &b.rect.corners(), r),
            Stop::Building(i),
        );
    }
    for (i, t) in table.terrain.iter().enumerate() {
        if let (true, TerrainShape::Area(poly)) = (t.kind.is_impassable(), &t.shape) {
            offer(poly_hit(&path, u, len, &poly.pts, r), Stop::Terrain(i));
        }
    }
    for (i, c) in solid.iter().enumerate() {
        offer(circle_hit(&path, u, len, c.c, r + c.r), Stop::Model(i));
    }
    offer(edge_hit(table, p0, u, len, r), Stop::TableEdge);
    match best {
        Some((t, stop)) => {
            // Not `clamp`: it panics on a NaN bound, and no input may make a move panic.
            let t = super::check::clamp_to(t, 0.0, len);
            let end = if t >= len { dest } else { p0 + u * t };
            MoveOutcome {
                end,
                travelled: t,
                stopped: Some(stop),
            }
        }
        None => MoveOutcome {
            end: dest,
            travelled: len,
            stopped: None,
        },
    }
}

/// Decides whether a move along `path` hits a convex obstacle with clearance `clear`, given the
/// distances from the obstacle's core to the start (`d0`), the end (`d1`) and the whole path (`dmin`).
/// Returns `Some(None)` for "hit, compute the entry time", `Some(Some(t))` for a known time, `None` for
/// no hit.
fn classify(d0: f64, d1: f64, dmin: f64, clear: f64, len: f64) -> Option<Option<f64>> {
    if dmin >= d0 - TOUCH_EPS {
        return None; // never closer than at the start: leaving, or moving along (distance is convex)
    }
    if dmin > clear + TOUCH_EPS {
        return None; // never touches
    }
    if dmin > clear - GRAZE_TOL {
        // touches without real penetration: a contact only if the move ends there
        return if d1 <= dmin + TOUCH_EPS {
            Some(Some(len))
        } else {
            None
        };
    }
    if d0 <= clear + TOUCH_EPS {
        return Some(Some(0.0)); // already touching and going deeper
    }
    Some(None)
}

/// First time the centre (moving from `path.a` along unit `u`) comes within `clear` of point `q`.
fn circle_hit(path: &Segment, u: Vec2, len: f64, q: Vec2, clear: f64) -> Option<f64> {
    let d0 = path.a.dist(q);
    let d1 = path.b.dist(q);
    let dmin = point_segment_dist(q, path);
    match classify(d0, d1, dmin, clear, len)? {
        Some(t) => Some(t),
        None => Some(circle_entry(path.a, u, q, clear).unwrap_or(len).min(len)),
    }
}

/// Smallest t ≥ 0 with |p0 + u t − q| = clear, for p0 outside the circle.
pub(crate) fn circle_entry(p0: Vec2, u: Vec2, q: Vec2, clear: f64) -> Option<f64> {
    let w = p0 - q;
    let b = w.dot(u);
    let c = w.len_sq() - clear * clear;
    let disc = b * b - c;
    if disc < 0.0 || b >= 0.0 {
        return None;
    }
    // t = -b - sqrt(disc), written without cancellation
    Some((c / (-b + disc.sqrt())).max(0.0))
}

/// First time the centre comes within `clear` of a convex counter-clockwise polygon.
fn poly_hit(path: &Segment, u: Vec2, len: f64, pts: &[Vec2], clear: f64) -> Option<f64> {
    if super::shapes::bounds_of(pts)
        .expand(clear + TOUCH_EPS)
        .apart(&path.bounds())
    {
        return None;
    }
    let d0 = super::shapes::poly_signed_dist(pts, path.a).max(0.0);
    let d1 = super::shapes::poly_signed_dist(pts, path.b).max(0.0);
    let dmin = segment_poly_dist(path, pts);
    match classify(d0, d1, dmin, clear, len)? {
        Some(t) => Some(t),
        None => Some(poly_entry(path.a, u, pts, clear).unwrap_or(len).min(len)),
    }
}

/// Smallest t ≥ 0 at which p0 + u t enters the polygon inflated by `clear` (Minkowski sum with a disc):
/// the first crossing of an offset edge (within the edge's extent) or of a corner's disc.
pub(crate) fn poly_entry(p0: Vec2, u: Vec2, pts: &[Vec2], clear: f64) -> Option<f64> {
    let n = pts.len();
    let mut best: Option<f64> = None;
    let mut take = |t: f64| {
        if best.is_none_or(|b| t < b) {
            best = Some(t);
        }
    };
    for i in 0..n {
        let a = pts[i];
        let e = pts[(i + 1) % n] - a;
        let el = e.len();
        if el > 0.0 {
            let nrm = Vec2::new(e.y, -e.x) / el;
            let s0 = nrm.dot(p0 - a) - clear; // signed distance to the offset edge line
            let nu = nrm.dot(u);
            if s0 >= 0.0 && nu < 0.0 {
                let t = s0 / -nu;
                let along = (p0 + u * t - a).dot(e) / el;
                if (-1e-12..=el + 1e-12).contains(&along) {
                    take(t);
                }
            }
        }
        if let Some(t) = circle_entry(p0, u, a, clear) {
            take(t);
        }
    }
    best
}

/// First time the centre reaches the boundary of [r, w − r] × [r, h − r].
fn edge_hit(table: &Table, p0: Vec2, u: Vec2, len: f64, r: f64) -> Option<f64> {
    let mut best: Option<f64> = None;
    let axes = [
        (p0.x, u.x, r, table.width - r),
        (p0.y, u.y, r, table.height - r),
    ];
    for (p, du, lo, hi) in axes {
        let t = if du > 0.0 {
            (hi - p) / du
        } else if du < 0.0 {
            (lo - p) / du
        } else {
            continue;
        };
        let t = t.max(0.0);
        if t <= len + TOUCH_EPS && best.is_none_or(|b| t < b) {
            best = Some(t.min(len));
        }
    }
    best
}

/// Indices into `table.terrain` of the walls and hedges that a base of radius `r` swept along `path`
/// crosses, i.e. overlaps (centre path closer than `r` to the segment). Merely touching one, for instance
/// moving away from a wall the base is in contact with, does not count.
pub fn crossings(table: &Table, path: &Segment, r: f64) -> Vec<usize> {
    let pb = path.bounds();
    table
        .terrain
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            t.kind.is_linear()
                && matches!(&t.shape, TerrainShape::Line(s)
                    if within_of(&pb, s.bounds(), r) && segment_segment_dist(path, s) < r - TOUCH_EPS)
        })
        .map(|(i, _)| i)
        .collect()
}

/// Indices into `segments` (Barricades, Thorn Walls, …) that a base of radius `r` swept along `path`
/// crosses, with the same meaning as [`crossings`].
pub fn crossings_of(segments: &[Segment], path: &Segment, r: f64) -> Vec<usize> {
    let pb = path.bounds();
    segments
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            within_of(&pb, s.bounds(), r) && segment_segment_dist(path, s) < r - TOUCH_EPS
        })
        .map(|(i, _)| i)
        .collect()
}

/// False when a shape with bounds `shape` is certainly farther than `r` from a path with bounds `path`
/// (the boxes, the shape's grown by `r`, do not meet): the distance test that would say so is spared
/// (a move is tested against every piece of terrain on the table, most of them nowhere near it).
fn within_of(path: &Rect, shape: Rect, r: f64) -> bool {
    !shape.expand(r).apart(path)
}

/// True when a base of radius `r` swept along `path` (whose bounds are `pb`) overlaps the area `p`,
/// including a start or end inside it. Merely touching the outline does not count.
pub(crate) fn sweeps_into(path: &Segment, pb: &Rect, p: &Polygon, r: f64) -> bool {
    within_of(pb, p.bounds(), r) && segment_poly_dist(path, &p.pts) < r - TOUCH_EPS
}

/// True when a base of radius `r` swept along `path` overlaps a wood or a field (difficult terrain),
/// including a start or end inside one. Merely touching the outline does not count.
pub fn touches_difficult(table: &Table, path: &Segment, r: f64) -> bool {
    let pb = path.bounds();
    table.terrain.iter().any(|t| {
        t.kind.is_difficult()
            && matches!(&t.shape, TerrainShape::Area(p) if sweeps_into(path, &pb, p, r))
    })
}
