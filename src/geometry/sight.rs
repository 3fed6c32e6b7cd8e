//! Line of sight and Cover (SUPPLEMENT §2, core rules §3.5).
//!
//! Owns the three-line test (centre to centre, and observer centre to the two tangent points of the
//! target's base) against buildings and terrain, and the "touching a linear obstacle" Cover rule. It never
//! applies the −1 modifier or decides who may shoot: that is the rules layer's job. Models never block.

use super::shapes::{
    clip_segment_poly, point_segment_dist, poly_contains, segments_intersect, Circle, Segment,
    Vec2, DEFAULT_CONTACT_TOL,
};
use super::table::{Table, TerrainKind, TerrainShape};
use serde::{Deserialize, Serialize};

/// What an observer sees of a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sight {
    /// Every line is clear and nothing gives Cover.
    Clear,
    /// Visible, but partly obstructed or protected (−1 to the shooter).
    Cover,
    /// All three lines are blocked: no line of sight.
    Blocked,
}

/// A line must run this far (inches) inside a blocking outline to count as blocked: grazing a corner or
/// running exactly along an edge does not block.
const BLOCK_EPS: f64 = 1e-9;

/// Line of sight from `from` to `to` with the default contact tolerance (`DEFAULT_CONTACT_TOL`, 0.05")
/// for "touching a wall". Rules code should call [`sight_with_tol`] with the roster's constant.
pub fn sight(table: &Table, from: &Circle, to: &Circle, extra_cover: &[Segment]) -> Sight {
    sight_with_tol(table, from, to, extra_cover, DEFAULT_CONTACT_TOL)
}

/// Line of sight from `from` to `to`.
///
/// Three lines are tested: centre to centre, and from the observer's centre to the two points where its
/// tangents touch the target's base. A line is blocked by a building, by rocks, or by a wood it passes
/// through unless the observer's or target's centre is inside that wood; hills, ponds and fields are open.
/// All blocked → `Blocked`; some → `Cover`; none → `Clear`, unless the target's centre is in a wood, or the
/// target touches (gap ≤ `contact_tol`) a wall, hedge or `extra_cover` segment (Barricade, Thorn Wall) that
/// the centre line crosses, which gives `Cover`.
pub fn sight_with_tol(
    table: &Table,
    from: &Circle,
    to: &Circle,
    extra_cover: &[Segment],
    contact_tol: f64,
) -> Sight {
    let centre_line = Segment::new(from.c, to.c);
    let lines = sight_lines(from.c, to);
    // Woods the observer or the target stands in do not block (one end is inside).
    let blocked = lines
        .iter()
        .filter(|l| line_blocked(table, l, from.c, to.c))
        .count();
    if blocked == lines.len() {
        return Sight::Blocked;
    }
    if blocked > 0 {
        return Sight::Cover;
    }
    if super::table::in_wood(table, to.c) {
        return Sight::Cover;
    }
    let touching_crossed = |s: &Segment| {
        point_segment_dist(to.c, s) - to.r <= contact_tol && segments_intersect(&centre_line, s)
    };
    let wall_cover = table.terrain.iter().any(|t| match &t.shape {
        TerrainShape::Line(s) => t.kind.is_linear() && touching_crossed(s),
        TerrainShape::Area(_) => false,
    });
    if wall_cover || extra_cover.iter().any(touching_crossed) {
        Sight::Cover
    } else {
        Sight::Clear
    }
}

/// The three sight lines from `eye` to a target base: centre, then the two tangent points. When `eye`
/// is inside the target's base (overlap) only the centre line exists.
pub fn sight_lines(eye: Vec2, to: &Circle) -> Vec<Segment> {
    let mut lines = vec![Segment::new(eye, to.c)];
    let d = eye.dist(to.c);
    if d > to.r && to.r > 0.0 {
        // The tangent point T satisfies angle(T - C, eye - C) = β with cos β = r / d.
        let u = (eye - to.c) / d;
        let cos_b = to.r / d;
        let sin_b = (1.0 - cos_b * cos_b).max(0.0).sqrt();
        for s in [1.0, -1.0] {
            let dir = Vec2::new(u.x * cos_b - s * u.y * sin_b, s * u.x * sin_b + u.y * cos_b);
            lines.push(Segment::new(eye, to.c + dir * to.r));
        }
    }
    lines
}

/// True when a building, rocks, or a wood (not containing `a_end` or `b_end`) blocks `line`.
fn line_blocked(table: &Table, line: &Segment, a_end: Vec2, b_end: Vec2) -> bool {
    let lb = line.bounds();
    let crosses = |pts: &[Vec2]| -> bool {
        let bb = super::shapes::bounds_of(pts);
        if bb.max.x < lb.min.x || bb.min.x > lb.max.x || bb.max.y < lb.min.y || bb.min.y > lb.max.y
        {
            return false;
        }
        clip_segment_poly(line, pts, BLOCK_EPS)
            .is_some_and(|(t0, t1)| (t1 - t0) * line.len() > BLOCK_EPS)
    };
    if table.buildings.iter().any(|b| crosses(&b.rect.corners())) {
        return true;
    }
    table.terrain.iter().any(|t| {
        let TerrainShape::Area(poly) = &t.shape else {
            return false;
        };
        match t.kind {
            TerrainKind::Rocks => crosses(&poly.pts),
            TerrainKind::Wood => {
                !poly_contains(&poly.pts, a_end)
                    && !poly_contains(&poly.pts, b_end)
                    && crosses(&poly.pts)
            }
            _ => false,
        }
    })
}
