//! Plane primitives and edge-to-edge measuring.
//!
//! Owns `Vec2` arithmetic, the shapes a table is made of (`Circle` bases, `Rect` buildings, convex
//! `Polygon` terrain, `Segment` walls) and every gap/distance between them. All gaps are **signed**:
//! positive when apart, 0 when touching, negative when overlapping (minus the penetration depth for
//! circles, rects and polygons). Pure point/segment distances are never negative. This module never
//! knows about rules: contact tolerances are passed in by callers.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// Default contact tolerance (SUPPLEMENT §1: contact is a gap of at most 0.05"). The real value is a rule
/// constant owned by the rosters; this one exists for tests and examples only.
pub const DEFAULT_CONTACT_TOL: f64 = 0.05;

/// True when a gap counts as contact: `gap <= tol`. The tolerance is a rule constant supplied by the caller.
pub fn in_contact(gap: f64, tol: f64) -> bool {
    gap <= tol
}

/// A point or vector on the table, in inches. x grows to the east, y to the north; the origin is the
/// south-west corner (SUPPLEMENT §1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema, Default)]
pub struct Vec2 {
    /// Inches east of the west edge.
    pub x: f64,
    /// Inches north of the south edge.
    pub y: f64,
}

impl Vec2 {
    /// The origin (the table's south-west corner).
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    /// The vector (x, y).
    pub const fn new(x: f64, y: f64) -> Self {
        Vec2 { x, y }
    }
    /// Unit vector at `angle` radians counter-clockwise from east.
    pub fn from_angle(angle: f64) -> Self {
        Vec2::new(angle.cos(), angle.sin())
    }
    /// Dot product.
    pub fn dot(self, o: Vec2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    /// z component of the 3D cross product: > 0 when `o` is counter-clockwise from `self`.
    pub fn cross(self, o: Vec2) -> f64 {
        self.x * o.y - self.y * o.x
    }
    /// Squared length (cheaper than `len` for comparisons).
    pub fn len_sq(self) -> f64 {
        self.dot(self)
    }
    /// Length.
    pub fn len(self) -> f64 {
        // not hypot: it is several times slower and the table never needs its overflow protection
        (self.x * self.x + self.y * self.y).sqrt()
    }
    /// Distance between two points.
    pub fn dist(self, o: Vec2) -> f64 {
        (self - o).len()
    }
    /// The unit vector in this direction, or zero for a (near) zero vector.
    pub fn normalized(self) -> Vec2 {
        let l = self.len();
        if l > 1e-300 {
            self * (1.0 / l)
        } else {
            Vec2::ZERO
        }
    }
    /// `self + (o - self) * t`.
    pub fn lerp(self, o: Vec2, t: f64) -> Vec2 {
        self + (o - self) * t
    }
    /// Rotated a quarter turn counter-clockwise.
    pub fn perp(self) -> Vec2 {
        Vec2::new(-self.y, self.x)
    }
    /// Angle from east, counter-clockwise, in (-π, π].
    pub fn angle(self) -> f64 {
        self.y.atan2(self.x)
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Vec2) {
        *self = *self + o;
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl SubAssign for Vec2 {
    fn sub_assign(&mut self, o: Vec2) {
        *self = *self - o;
    }
}
impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}
impl Div<f64> for Vec2 {
    type Output = Vec2;
    fn div(self, k: f64) -> Vec2 {
        Vec2::new(self.x / k, self.y / k)
    }
}
impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

/// A model's base: centre and radius (diameter 1", 1.5" or 2").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Circle {
    /// Centre.
    pub c: Vec2,
    /// Radius (half the base's diameter).
    pub r: f64,
}

impl Circle {
    /// A base of radius `r` centred on `c`.
    pub const fn new(c: Vec2, r: f64) -> Self {
        Circle { c, r }
    }
}

/// An axis-aligned rectangle (a building's footprint). `min` is the south-west corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// South-west corner.
    pub min: Vec2,
    /// North-east corner.
    pub max: Vec2,
}

impl Rect {
    /// The rectangle between two corners (`min` ≤ `max` on both axes).
    pub fn new(min: Vec2, max: Vec2) -> Self {
        Rect { min, max }
    }
    /// The rectangle of width `w` (x) and height `h` (y) centred on `c`.
    pub fn centered(c: Vec2, w: f64, h: f64) -> Self {
        let half = Vec2::new(w * 0.5, h * 0.5);
        Rect {
            min: c - half,
            max: c + half,
        }
    }
    /// The centre point.
    pub fn center(&self) -> Vec2 {
        self.min.lerp(self.max, 0.5)
    }
    /// (width, height) as a vector.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }
    /// Closed containment.
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }
    /// True when the two (closed) rectangles have no point in common: apart along x or along y.
    pub fn apart(&self, o: &Rect) -> bool {
        self.max.x < o.min.x || self.min.x > o.max.x || self.max.y < o.min.y || self.min.y > o.max.y
    }
    /// Grown by `d` on every side (shrunk when `d < 0`).
    pub fn expand(&self, d: f64) -> Rect {
        Rect {
            min: self.min - Vec2::new(d, d),
            max: self.max + Vec2::new(d, d),
        }
    }
    /// Corners counter-clockwise from the south-west one.
    pub fn corners(&self) -> [Vec2; 4] {
        [
            self.min,
            Vec2::new(self.max.x, self.min.y),
            self.max,
            Vec2::new(self.min.x, self.max.y),
        ]
    }
    /// The same outline as a counter-clockwise polygon.
    pub fn to_polygon(&self) -> Polygon {
        Polygon {
            pts: self.corners().to_vec(),
        }
    }
    /// The point of the (closed) rectangle nearest to `p` (`p` itself when inside).
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        Vec2::new(
            super::check::clamp_to(p.x, self.min.x, self.max.x),
            super::check::clamp_to(p.y, self.min.y, self.max.y),
        )
    }
    /// Signed distance from `p` to the outline: positive outside, negative inside.
    pub fn signed_dist(&self, p: Vec2) -> f64 {
        let dx = (self.min.x - p.x).max(p.x - self.max.x);
        let dy = (self.min.y - p.y).max(p.y - self.max.y);
        if dx <= 0.0 && dy <= 0.0 {
            dx.max(dy)
        } else {
            Vec2::new(dx.max(0.0), dy.max(0.0)).len()
        }
    }
}

/// A convex polygon, vertices counter-clockwise, no repeated closing vertex.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Polygon {
    /// Vertices, counter-clockwise.
    pub pts: Vec<Vec2>,
}

impl Polygon {
    /// A polygon from convex vertices in either winding; clockwise input is reversed.
    pub fn new(mut pts: Vec<Vec2>) -> Self {
        if signed_area(&pts) < 0.0 {
            pts.reverse();
        }
        Polygon { pts }
    }
    /// The convex hull of `pts` (counter-clockwise, collinear points dropped). Andrew's monotone chain.
    pub fn convex_hull(pts: &[Vec2]) -> Self {
        let mut p: Vec<Vec2> = pts.to_vec();
        p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        p.dedup();
        if p.len() < 3 {
            return Polygon { pts: p };
        }
        let mut hull: Vec<Vec2> = Vec::with_capacity(p.len() * 2);
        for pass in 0..2 {
            let start = hull.len();
            let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
                Box::new(p.iter())
            } else {
                Box::new(p.iter().rev())
            };
            for &q in iter {
                while hull.len() >= start + 2 {
                    let a = hull[hull.len() - 2];
                    let b = hull[hull.len() - 1];
                    if (b - a).cross(q - a) <= 0.0 {
                        hull.pop();
                    } else {
                        break;
                    }
                }
                hull.push(q);
            }
            hull.pop();
        }
        Polygon { pts: hull }
    }
    /// Edges as segments, in order (edge i goes from vertex i to vertex i+1).
    pub fn edges(&self) -> impl Iterator<Item = Segment> + '_ {
        let n = self.pts.len();
        (0..n).map(move |i| Segment::new(self.pts[i], self.pts[(i + 1) % n]))
    }
    /// Closed containment (on the outline counts as inside).
    pub fn contains(&self, p: Vec2) -> bool {
        poly_contains(&self.pts, p)
    }
    /// Area in square inches.
    pub fn area(&self) -> f64 {
        signed_area(&self.pts).abs()
    }
    /// Mean of the vertices (inside, because the polygon is convex).
    pub fn centroid(&self) -> Vec2 {
        let n = self.pts.len().max(1) as f64;
        self.pts.iter().fold(Vec2::ZERO, |a, &p| a + p) / n
    }
    /// Signed distance from `p` to the outline: positive outside, negative inside.
    pub fn signed_dist(&self, p: Vec2) -> f64 {
        poly_signed_dist(&self.pts, p)
    }
    /// Axis-aligned bounding box.
    pub fn bounds(&self) -> Rect {
        bounds_of(&self.pts)
    }
    /// Largest distance between two vertices ("across").
    pub fn diameter(&self) -> f64 {
        let mut d: f64 = 0.0;
        for (i, a) in self.pts.iter().enumerate() {
            for b in &self.pts[i + 1..] {
                d = d.max(a.dist(*b));
            }
        }
        d
    }
}

/// A straight segment from `a` to `b` (a wall, hedge, barricade, or a path leg).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    /// One end.
    pub a: Vec2,
    /// The other end.
    pub b: Vec2,
}

impl Segment {
    /// The segment from `a` to `b`.
    pub const fn new(a: Vec2, b: Vec2) -> Self {
        Segment { a, b }
    }
    /// Length.
    pub fn len(&self) -> f64 {
        self.a.dist(self.b)
    }
    /// True for a zero-length segment.
    pub fn is_empty(&self) -> bool {
        self.a == self.b
    }
    /// The parameter in [0, 1] of the point of the segment nearest to `p`.
    pub fn closest_t(&self, p: Vec2) -> f64 {
        let d = self.b - self.a;
        let l2 = d.len_sq();
        if l2 <= 0.0 {
            0.0
        } else {
            ((p - self.a).dot(d) / l2).clamp(0.0, 1.0)
        }
    }
    /// The point of the segment nearest to `p`.
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        self.a.lerp(self.b, self.closest_t(p))
    }
    /// Axis-aligned bounding box.
    pub fn bounds(&self) -> Rect {
        Rect::new(
            Vec2::new(self.a.x.min(self.b.x), self.a.y.min(self.b.y)),
            Vec2::new(self.a.x.max(self.b.x), self.a.y.max(self.b.y)),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Raw helpers on vertex slices (used by the hot paths of sight, movement and the navigator).
// ---------------------------------------------------------------------------------------------

pub(crate) fn signed_area(pts: &[Vec2]) -> f64 {
    let n = pts.len();
    let mut s = 0.0;
    for i in 0..n {
        s += pts[i].cross(pts[(i + 1) % n]);
    }
    s * 0.5
}

pub(crate) fn bounds_of(pts: &[Vec2]) -> Rect {
    let mut min = Vec2::new(f64::INFINITY, f64::INFINITY);
    let mut max = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in pts {
        min = Vec2::new(min.x.min(p.x), min.y.min(p.y));
        max = Vec2::new(max.x.max(p.x), max.y.max(p.y));
    }
    Rect { min, max }
}

/// Closed containment in a convex counter-clockwise polygon.
pub(crate) fn poly_contains(pts: &[Vec2], p: Vec2) -> bool {
    let n = pts.len();
    if n < 3 {
        return false;
    }
    (0..n).all(|i| (pts[(i + 1) % n] - pts[i]).cross(p - pts[i]) >= 0.0)
}

/// Signed distance to a convex counter-clockwise polygon's outline.
pub(crate) fn poly_signed_dist(pts: &[Vec2], p: Vec2) -> f64 {
    let n = pts.len();
    let mut best = f64::INFINITY;
    let mut inside = n >= 3;
    for i in 0..n {
        let s = Segment::new(pts[i], pts[(i + 1) % n]);
        best = best.min(point_segment_dist(p, &s));
        if (s.b - s.a).cross(p - s.a) < 0.0 {
            inside = false;
        }
    }
    if inside {
        -best
    } else {
        best
    }
}

/// Distance from a segment to a convex polygon (0 when they intersect, never negative).
pub(crate) fn segment_poly_dist(s: &Segment, pts: &[Vec2]) -> f64 {
    if poly_contains(pts, s.a) || poly_contains(pts, s.b) {
        return 0.0;
    }
    let n = pts.len();
    let mut best = f64::INFINITY;
    for i in 0..n {
        let e = Segment::new(pts[i], pts[(i + 1) % n]);
        best = best.min(segment_segment_dist(s, &e));
        if best <= 0.0 {
            break;
        }
    }
    best
}

/// The parameter interval of `s` (as t in [0,1]) lying strictly inside a convex counter-clockwise polygon
/// shrunk by `eps` (Cyrus–Beck clipping), or None. Grazing a corner or running along an edge is outside.
pub(crate) fn clip_segment_poly(s: &Segment, pts: &[Vec2], eps: f64) -> Option<(f64, f64)> {
    let n = pts.len();
    if n < 3 {
        return None;
    }
    let d = s.b - s.a;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..n {
        let e = pts[(i + 1) % n] - pts[i];
        let el = e.len();
        if el <= 0.0 {
            continue;
        }
        let nrm = Vec2::new(e.y, -e.x) / el; // outward normal
                                             // inside iff nrm·(p - v) <= -eps
        let f0 = nrm.dot(s.a - pts[i]) + eps;
        let fd = nrm.dot(d);
        if fd.abs() < 1e-300 {
            if f0 > 0.0 {
                return None;
            }
        } else {
            let t = -f0 / fd;
            if fd > 0.0 {
                t1 = t1.min(t);
            } else {
                t0 = t0.max(t);
            }
        }
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}

// ---------------------------------------------------------------------------------------------
// Public distances and gaps.
// ---------------------------------------------------------------------------------------------

/// Distance from a point to a segment (never negative).
pub fn point_segment_dist(p: Vec2, s: &Segment) -> f64 {
    p.dist(s.closest_point(p))
}

/// True when the two segments share at least one point.
pub fn segments_intersect(s1: &Segment, s2: &Segment) -> bool {
    segment_segment_dist(s1, s2) <= 0.0
}

/// Distance between two segments (0 when they cross or touch, never negative).
pub fn segment_segment_dist(s1: &Segment, s2: &Segment) -> f64 {
    let d1 = s1.b - s1.a;
    let d2 = s2.b - s2.a;
    let o1 = d1.cross(s2.a - s1.a);
    let o2 = d1.cross(s2.b - s1.a);
    let o3 = d2.cross(s1.a - s2.a);
    let o4 = d2.cross(s1.b - s2.a);
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0))
        && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))
    {
        return 0.0;
    }
    point_segment_dist(s1.a, s2)
        .min(point_segment_dist(s1.b, s2))
        .min(point_segment_dist(s2.a, s1))
        .min(point_segment_dist(s2.b, s1))
}

/// Edge-to-edge gap between two bases (negative: overlap depth).
pub fn circle_circle_gap(a: &Circle, b: &Circle) -> f64 {
    a.c.dist(b.c) - a.r - b.r
}

/// Gap between a base and a rectangle's outline (negative when overlapping; a centre inside the rectangle
/// gives minus the depth of the centre minus the radius).
pub fn circle_rect_gap(c: &Circle, r: &Rect) -> f64 {
    r.signed_dist(c.c) - c.r
}

/// Gap between a base and a convex polygon's outline (negative when overlapping).
pub fn circle_polygon_gap(c: &Circle, p: &Polygon) -> f64 {
    p.signed_dist(c.c) - c.r
}

/// Gap between a base and a segment (a wall): `dist(centre, segment) - r`, negative when the base
/// overlaps the segment.
pub fn circle_segment_gap(c: &Circle, s: &Segment) -> f64 {
    point_segment_dist(c.c, s) - c.r
}

/// Outline-to-outline gap between two rectangles (buildings "at least 3\" apart"): the Euclidean distance
/// between them when apart, 0 when touching, minus the smallest separating overlap when they overlap.
pub fn rect_rect_gap(a: &Rect, b: &Rect) -> f64 {
    let dx = (b.min.x - a.max.x).max(a.min.x - b.max.x);
    let dy = (b.min.y - a.max.y).max(a.min.y - b.max.y);
    if dx < 0.0 && dy < 0.0 {
        dx.max(dy)
    } else {
        Vec2::new(dx.max(0.0), dy.max(0.0)).len()
    }
}

/// Gap between a rectangle and a convex polygon (0 when touching or overlapping; never negative).
pub fn rect_polygon_dist(r: &Rect, p: &Polygon) -> f64 {
    polygon_polygon_dist(&r.to_polygon(), p)
}

/// Distance between two convex polygons (0 when they touch or overlap; never negative).
pub fn polygon_polygon_dist(a: &Polygon, b: &Polygon) -> f64 {
    if a.pts.iter().any(|&p| b.contains(p)) || b.pts.iter().any(|&p| a.contains(p)) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for e in a.edges() {
        for f in b.edges() {
            best = best.min(segment_segment_dist(&e, &f));
        }
    }
    best
}

/// Distance between a segment and a convex polygon (0 when they touch or intersect; never negative).
pub fn segment_polygon_dist(s: &Segment, p: &Polygon) -> f64 {
    segment_poly_dist(s, &p.pts)
}

/// Distance between a segment and a rectangle (0 when they touch or intersect; never negative).
pub fn segment_rect_dist(s: &Segment, r: &Rect) -> f64 {
    segment_poly_dist(s, &r.corners())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn vec_ops() {
        assert_eq!(v(1.0, 2.0) + v(3.0, 4.0), v(4.0, 6.0));
        assert_eq!(v(1.0, 2.0) - v(3.0, 4.0), v(-2.0, -2.0));
        assert_eq!(-v(1.0, 2.0) * 2.0, v(-2.0, -4.0));
        assert_eq!(v(1.0, 0.0).cross(v(0.0, 1.0)), 1.0);
        assert_eq!(v(3.0, 4.0).len(), 5.0);
        assert_eq!(v(0.0, 0.0).lerp(v(2.0, 2.0), 0.25), v(0.5, 0.5));
        assert!((v(3.0, 4.0).normalized().len() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn hull_is_ccw_and_drops_inner_points() {
        let h = Polygon::convex_hull(&[
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(1.0, 1.0),
            v(2.0, 2.0),
            v(0.0, 2.0),
        ]);
        assert_eq!(h.pts.len(), 4);
        assert!(signed_area(&h.pts) > 0.0);
        assert!(h.contains(v(1.0, 1.0)));
        assert!(!h.contains(v(3.0, 1.0)));
    }

    #[test]
    fn segment_distances() {
        let s1 = Segment::new(v(0.0, 0.0), v(2.0, 2.0));
        let s2 = Segment::new(v(0.0, 2.0), v(2.0, 0.0));
        assert_eq!(segment_segment_dist(&s1, &s2), 0.0);
        let s3 = Segment::new(v(3.0, 0.0), v(3.0, 5.0));
        assert!((segment_segment_dist(&s1, &s3) - 1.0).abs() < 1e-12);
        assert!(
            (point_segment_dist(v(1.0, 3.0), &Segment::new(v(0.0, 0.0), v(2.0, 0.0))) - 3.0).abs()
                < 1e-12
        );
    }

    #[test]
    fn clipping() {
        let sq = Rect::new(v(0.0, 0.0), v(2.0, 2.0)).corners();
        let through = Segment::new(v(-1.0, 1.0), v(3.0, 1.0));
        let (t0, t1) = clip_segment_poly(&through, &sq, 0.0).unwrap();
        assert!((t0 - 0.25).abs() < 1e-12 && (t1 - 0.75).abs() < 1e-12);
        let along = Segment::new(v(-1.0, 0.0), v(3.0, 0.0));
        assert!(clip_segment_poly(&along, &sq, 1e-9).is_none());
        let corner = Segment::new(v(-1.0, 1.0), v(1.0, 3.0));
        assert!(clip_segment_poly(&corner, &sq, 1e-9).is_none());
    }

    #[test]
    fn rect_gaps() {
        let a = Rect::new(v(0.0, 0.0), v(2.0, 2.0));
        let b = Rect::new(v(5.0, 6.0), v(6.0, 7.0));
        assert!((rect_rect_gap(&a, &b) - 5.0).abs() < 1e-12);
        let c = Rect::new(v(1.0, 1.5), v(4.0, 4.0));
        assert!((rect_rect_gap(&a, &c) + 0.5).abs() < 1e-12);
        assert!((a.signed_dist(v(1.0, 0.5)) + 0.5).abs() < 1e-12);
    }
}
