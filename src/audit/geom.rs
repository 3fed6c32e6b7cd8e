//! The audit's own plane geometry, written apart from the kernel's `geometry` so that the audit judges
//! the kernel with a second reading: points, segments, circles (bases), axis-aligned rectangles
//! (buildings) and convex polygons (terrain areas). Inches, x east and y north (SUPPLEMENT §1).

use serde::{Deserialize, Serialize};

/// A point on the table, as the log writes it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct P {
    /// Inches east of the south-west corner.
    pub x: f64,
    /// Inches north of the south-west corner.
    pub y: f64,
}

impl P {
    /// The point (x, y).
    pub fn new(x: f64, y: f64) -> P {
        P { x, y }
    }
    fn sub(self, o: P) -> P {
        P::new(self.x - o.x, self.y - o.y)
    }
    fn dot(self, o: P) -> f64 {
        self.x * o.x + self.y * o.y
    }
    fn cross(self, o: P) -> f64 {
        self.x * o.y - self.y * o.x
    }
    /// Straight-line distance to `o`.
    pub fn dist(self, o: P) -> f64 {
        self.sub(o).dot(self.sub(o)).sqrt()
    }
    /// Whether both coordinates are finite numbers.
    pub fn finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

/// The distance from `p` to the segment `a`–`b`.
pub fn point_segment(p: P, a: P, b: P) -> f64 {
    let ab = b.sub(a);
    let len2 = ab.dot(ab);
    if len2 == 0.0 {
        return p.dist(a);
    }
    let t = (p.sub(a).dot(ab) / len2).clamp(0.0, 1.0);
    p.dist(P::new(a.x + t * ab.x, a.y + t * ab.y))
}

/// Whether the segments `a`–`b` and `c`–`d` cross or touch.
pub fn segments_cross(a: P, b: P, c: P, d: P) -> bool {
    let d1 = b.sub(a).cross(c.sub(a));
    let d2 = b.sub(a).cross(d.sub(a));
    let d3 = d.sub(c).cross(a.sub(c));
    let d4 = d.sub(c).cross(b.sub(c));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let on = |p: P, q: P, r: P, v: f64| v == 0.0 && point_segment(r, p, q) == 0.0;
    on(a, b, c, d1) || on(a, b, d, d2) || on(c, d, a, d3) || on(c, d, b, d4)
}

/// The distance between the segments `a`–`b` and `c`–`d` (0 when they cross).
pub fn segment_segment(a: P, b: P, c: P, d: P) -> f64 {
    if segments_cross(a, b, c, d) {
        return 0.0;
    }
    point_segment(a, c, d)
        .min(point_segment(b, c, d))
        .min(point_segment(c, a, b))
        .min(point_segment(d, a, b))
}

/// Whether `p` lies inside (or on the outline of) the polygon `poly` (any winding; even–odd rule).
pub fn point_in_polygon(p: P, poly: &[P]) -> bool {
    let n = poly.len();
    if n < 3 {
        return false;
    }
    let mut inside = false;
    let mut j = n - 1;
    for i in 0..n {
        let (a, b) = (poly[i], poly[j]);
        if point_segment(p, a, b) < 1e-12 {
            return true;
        }
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// The distance from the segment `a`–`b` to the polygon `poly` (0 when the segment touches or enters it).
pub fn segment_polygon(a: P, b: P, poly: &[P]) -> f64 {
    if point_in_polygon(a, poly) || point_in_polygon(b, poly) {
        return 0.0;
    }
    let n = poly.len();
    (0..n)
        .map(|i| segment_segment(a, b, poly[i], poly[(i + 1) % n]))
        .fold(f64::INFINITY, f64::min)
}

/// The four corners of the rectangle `min`–`max`, counter-clockwise.
pub fn rectangle(min: P, max: P) -> [P; 4] {
    [min, P::new(max.x, min.y), max, P::new(min.x, max.y)]
}

/// The gap between two circular bases of diameters `da` and `db` centred on `a` and `b` (negative when
/// they overlap).
pub fn circle_gap(a: P, da: f64, b: P, db: f64) -> f64 {
    a.dist(b) - (da + db) / 2.0
}

/// The first fraction `t` in [0, 1] of the way along `a`–`b` at which a point is within `r` of `c`, if
/// the segment comes that close.
pub fn first_within(a: P, b: P, c: P, r: f64) -> Option<f64> {
    let d = b.sub(a);
    let f = a.sub(c);
    let (qa, qb, qc) = (d.dot(d), 2.0 * f.dot(d), f.dot(f) - r * r);
    if qc <= 0.0 {
        return Some(0.0);
    }
    if qa == 0.0 {
        return None;
    }
    let disc = qb * qb - 4.0 * qa * qc;
    if disc < 0.0 {
        return None;
    }
    let t = (-qb - disc.sqrt()) / (2.0 * qa);
    (0.0..=1.0).contains(&t).then_some(t)
}

/// The length of the polyline `points`.
pub fn path_length(points: &[P]) -> f64 {
    points.windows(2).map(|w| w[0].dist(w[1])).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        let (a, b) = (P::new(0.0, 0.0), P::new(4.0, 0.0));
        assert!((point_segment(P::new(2.0, 3.0), a, b) - 3.0).abs() < 1e-12);
        assert!((point_segment(P::new(7.0, 4.0), a, b) - 5.0).abs() < 1e-12);
        assert_eq!(
            segment_segment(a, b, P::new(2.0, -1.0), P::new(2.0, 1.0)),
            0.0
        );
        assert!(
            (segment_segment(a, b, P::new(5.0, 1.0), P::new(5.0, 3.0)) - 2f64.sqrt()).abs() < 1e-12
        );
        let sq = rectangle(P::new(1.0, 1.0), P::new(2.0, 2.0));
        assert!(point_in_polygon(P::new(1.5, 1.5), &sq));
        assert!(!point_in_polygon(P::new(2.5, 1.5), &sq));
        assert_eq!(
            segment_polygon(P::new(0.0, 1.5), P::new(3.0, 1.5), &sq),
            0.0
        );
        assert!((segment_polygon(P::new(0.0, 3.0), P::new(3.0, 3.0), &sq) - 1.0).abs() < 1e-12);
        assert!((circle_gap(a, 1.0, b, 1.0) - 3.0).abs() < 1e-12);
        let t = first_within(a, b, P::new(3.0, 0.0), 1.0).unwrap_or(-1.0);
        assert!((t - 0.5).abs() < 1e-12);
        assert_eq!(first_within(a, b, P::new(3.0, 5.0), 1.0), None);
    }
}
