//! The shortest legal route for a base (core rules §3.3, §6.3 "shortest legal route"): around buildings,
//! impassable terrain (rocks, ponds) and other bases, with the centre kept within [r, size − r].
//!
//! Owns the `Navigator`, a visibility graph built once per (table, radius). It never decides what a
//! model *wants* to reach, nor movement allowances: it only answers "which way, and how long".
//!
//! ## Model
//! Every obstacle is a convex *core* (a building rectangle, a rocks/pond polygon, or the centre point of
//! another base) plus a *clearance* (`r`, or `r + other.r` for a base). A position is legal when its
//! distance to every core is ≥ clearance; a straight leg is legal when its distance to every core is
//! ≥ clearance − `LEGAL_TOL` (1e-7"), tested exactly (segment-to-polygon / segment-to-point distance).
//!
//! ## Nodes
//! The legal region's boundary is the rounded outline of each inflated core. At each convex corner the
//! arc between the two edge normals (a full circle for a base) is split into `k = ceil(turn / 22.5°)`
//! pieces and one node is put at angle mid-piece, radius `clearance / cos(piece / 2)`: these nodes are the
//! vertices of a polygon *circumscribing* the rounded outline, so each edge between neighbouring nodes is
//! tangent to it and legal, and routes hug obstacles (4 nodes on a building's 90° corner, 16 around a
//! base). A route is longer than the true shortest only on its arc portions, by at most
//! `1/cos(11.25°) − 1 ≈ 2 %` of each arc (a few thousandths of an inch per corner). Nodes outside the
//! table box are clamped into it (then kept only if still legal); nodes inside another obstacle are dropped.
//! The brief suggested 45° pieces and 8 nodes per base; 22.5° costs ~30–40 % more per query but makes
//! narrow gaps and routes with and without irrelevant bases agree far better (measured: 1 route in 6,772
//! differs in length between lazy and full base inclusion, against 11 with 45°).
//!
//! Known approximation: because nodes stand slightly off the outline, a gap between two obstacles that is
//! wider than the base by less than ~2 % of the clearance may be reported as closed, and, rarely, a
//! route through such a gap is missed in favour of a longer legal one. Every returned leg is legal.
//!
//! ## Edges and search
//! An edge u→v is considered only if it is tangent at every node end (the node's two ring neighbours are on
//! the same side of the line): a shortest path only bends around an obstacle, never into it (a ring
//! node skips at once every obstacle's or base's ring whose box lies where it cannot be tangent). Static
//! node-to-node edges (buildings and impassable terrain) and their visibility are computed once per node,
//! lazily, the first time the node is expanded, then reused by every query. A query adds a start node,
//! 16 nodes per *active* base and a goal, and runs A* with an admissible, consistent straight-line
//! heuristic; an edge's visibility is tested only when it would improve the tentative cost of its end.
//! Goals "in contact" are a virtual node reached from every node by the straight leg to that node's
//! closest contact point (or the four perpendicular feet on the edge box for `route_to_edge`), so the result
//! is the shortest route in the graph. Ties are broken by node index, so the same query always gives the
//! same route, and re-planning from a waypoint gives the rest of the route (no oscillation).
//!
//! Bases are included lazily: A* first runs with only the bases the start or goal touches; the bases its
//! route runs into are activated, each with its cluster (bases whose inflated discs overlap, so that the
//! mover cannot pass between them), and A* runs again, until the route is clear of every base. A route
//! found with a subset of the obstacles that avoids all the others is a shortest route among all of them.
//! If a subset finds no route, A* runs once with every base before answering `None`.
//!
//! ## Complexity
//! Build: O(S · M) for S static nodes (≈ 16 per building, 8–16 per rock or pond) and M static obstacles;
//! each static node's visibility row then costs O(S · M) once, on first use.
//! Query: the straight-line fast path costs O(M + B) for B bases. Otherwise each A* run costs
//! O(E · (deg + 16A) · (M + A)) for E expanded nodes, static degree deg and A active bases, plus
//! O(legs · B) to check the route against the inactive bases; at most B + 2 runs, usually 1–3. Memory per
//! query O(S + 16A). Measured (release, generated tables, one core): build ≈ 15–20 µs; a route ≈ 6 µs with
//! no bases, ≈ 10 µs with 10 and ≈ 25 µs with 30 random bases (half of those queries are straight lines).

//! ## Starts and goals on an outline
//! A start may touch or even overlap an obstacle (a model already in contact): legs from it are legal as
//! long as they never get closer to that obstacle than the start is. An exact goal may penetrate by up to
//! `GOAL_TOL` (1e-6"); deeper, or outside the table box by more than that, `route` returns `None`.

use super::shapes::{
    bounds_of, point_segment_dist, poly_contains, poly_signed_dist, Circle, Rect, Segment, Vec2,
};
use super::table::{Table, TerrainShape};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::f64::consts::PI;
use std::sync::{Arc, Mutex, OnceLock};

/// A leg is legal when it keeps at least `clearance − LEGAL_TOL` from every obstacle core.
pub const LEGAL_TOL: f64 = 1e-7;
/// How far an exact goal may sit inside an obstacle's clearance.
pub const GOAL_TOL: f64 = 1e-6;
/// Largest arc covered by one node of the circumscribing polygon.
const MAX_PIECE: f64 = PI / 8.0;
/// Nodes on a base's ring (a full circle split into 22.5° pieces).
const BASE_NODES: usize = 16;

/// A route: the centre's waypoints from the start to the end, and the total length.
/// Consecutive waypoints are distinct; a route that does not need to move is the single start point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Route {
    /// The centre's path, from the start to the end.
    pub waypoints: Vec<Vec2>,
    /// Total length in inches.
    pub length: f64,
}

impl Route {
    /// The point reached after travelling `d` inches along the route from its start (clamped to the
    /// route's ends). Lets a move follow a route for a limited distance.
    pub fn point_at(&self, d: f64) -> Vec2 {
        let mut left = d.max(0.0);
        for w in self.waypoints.windows(2) {
            let l = w[0].dist(w[1]);
            if left <= l {
                return if l > 0.0 {
                    w[0].lerp(w[1], left / l)
                } else {
                    w[1]
                };
            }
            left -= l;
        }
        self.waypoints.last().copied().unwrap_or_default()
    }
}

/// What `route_to_contact` must touch (gap 0 between the mover's base and the target).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Goal {
    /// Another base (it is also routed around, whether or not it is listed in `bases`).
    Base(Circle),
    /// A building's footprint (already an obstacle).
    Building(Rect),
    /// A point (a token without a base): the mover's edge touches it.
    Point(Vec2),
}

#[derive(Debug, Clone)]
enum Core {
    /// A convex counter-clockwise polygon and its edges' outward unit normals.
    Poly {
        pts: Vec<Vec2>,
        normals: Vec<Vec2>,
    },
    Point(Vec2),
}

#[derive(Debug, Clone)]
struct Obstacle {
    core: Core,
    clear: f64,
    /// Core bounds grown by the clearance: anything outside is far enough.
    bb: Rect,
    /// The core's own bounds (see [`Obstacle::beyond`]).
    core_bb: Rect,
}

impl Obstacle {
    fn poly(pts: Vec<Vec2>, clear: f64) -> Self {
        let core_bb = bounds_of(&pts);
        let bb = core_bb.expand(clear);
        let n = pts.len();
        let normals = (0..n)
            .map(|i| {
                let e = pts[(i + 1) % n] - pts[i];
                Vec2::new(e.y, -e.x).normalized()
            })
            .collect();
        Obstacle {
            core: Core::Poly { pts, normals },
            clear,
            bb,
            core_bb,
        }
    }
    fn point(c: Vec2, clear: f64) -> Self {
        Obstacle {
            core: Core::Point(c),
            clear,
            bb: Rect::new(c, c).expand(clear),
            core_bb: Rect::new(c, c),
        }
    }
    /// True when `p` is certainly farther than `reach` from the core, so that `dist_point(p)` is
    /// too: outside the core's bounds grown by `reach` and 1e-6" (far above the distance's rounding).
    /// Spares a polygon distance for the obstacles nowhere near a query's start or goal.
    fn beyond(&self, p: Vec2, reach: f64) -> bool {
        let (lo, hi, m) = (self.core_bb.min, self.core_bb.max, reach + 1e-6);
        p.x < lo.x - m || p.x > hi.x + m || p.y < lo.y - m || p.y > hi.y + m
    }
    /// Distance from the core (0 inside a polygon).
    fn dist_point(&self, p: Vec2) -> f64 {
        match &self.core {
            Core::Poly { pts, .. } => poly_signed_dist(pts, p).max(0.0),
            Core::Point(c) => p.dist(*c),
        }
    }
    /// True when `p` keeps at least `need` from the core.
    fn point_clear(&self, p: Vec2, need: f64) -> bool {
        let bb = &self.bb;
        if p.x < bb.min.x || p.x > bb.max.x || p.y < bb.min.y || p.y > bb.max.y {
            return true;
        }
        match &self.core {
            Core::Point(c) => need <= 0.0 || (p - *c).len_sq() >= need * need,
            Core::Poly { .. } => self.dist_point(p) >= need,
        }
    }
    /// True when segment `s` (with bounds `sb`) keeps at least `need` (≤ clearance) from the core.
    /// Inlined: most obstacles are turned away by their box, without a call.
    #[inline(always)]
    fn seg_clear(&self, s: &Segment, sb: &Rect, need: f64) -> bool {
        let bb = &self.bb;
        if bb.max.x < sb.min.x || bb.min.x > sb.max.x || bb.max.y < sb.min.y || bb.min.y > sb.max.y
        {
            return true;
        }
        self.core_clear(s, need)
    }
    /// [`Obstacle::seg_clear`] past the box test.
    fn core_clear(&self, s: &Segment, need: f64) -> bool {
        match &self.core {
            Core::Point(c) => need <= 0.0 || (s.closest_point(*c) - *c).len_sq() >= need * need,
            Core::Poly { pts, normals } => {
                // Separating axis: an edge line with the whole segment at least `need` outside it.
                for (v, nrm) in pts.iter().zip(normals) {
                    if nrm.dot(s.a - *v) >= need && nrm.dot(s.b - *v) >= need {
                        return true;
                    }
                }
                if need <= 0.0 {
                    return true;
                }
                poly_keeps(s, pts, need)
            }
        }
    }
}

/// `segment_poly_dist(s, pts) >= need` for a positive `need`, with the same arithmetic: neither end
/// of `s` inside the polygon, no edge crossed (the distance is 0 then), and each of the four
/// end-to-segment distances of each edge at least `need` (their minimum is the distance otherwise).
/// The conjunction is taken in the cheapest order: the crossings first (the common way a leg is
/// blocked, and no square root), with the side of `s` each vertex lies on computed once for its two
/// edges; then the ends' containment; then each vertex's distance to `s` once (it is an end of two
/// edges), and the ends' distances to each edge.
///
/// Past the crossings, a polygon lying wholly on one side of the leg's line, at least `need` + 1e-9
/// from it, is at least that far from the leg (its sides are the products already computed, scaled
/// by the leg's length), so neither end is inside and every distance the test would take is at
/// least `need` too (their rounding is ~1e-13" on a table): the answer is true without them. That
/// is the usual case of a leg that ends tangent at a polygon's corner or runs past one.
fn poly_keeps(s: &Segment, pts: &[Vec2], need: f64) -> bool {
    let n = pts.len();
    let d1 = s.b - s.a;
    let side = |v: Vec2| d1.cross(v - s.a);
    let (mut o1, mut a) = (side(pts[0]), pts[0]);
    // Every vertex at least `apart` to the left of the leg's line, or every one to the right (a NaN
    // anywhere leaves both false).
    let apart = (need + 1e-9) * d1.len();
    let (mut left, mut right) = (o1 >= apart, o1 <= -apart);
    for i in 0..n {
        let b = pts[(i + 1) % n];
        let o2 = side(b);
        if (o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0) {
            let d2 = b - a;
            let (o3, o4) = (d2.cross(s.a - a), d2.cross(s.b - a));
            if (o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0) {
                return false;
            }
        }
        left &= o2 >= apart;
        right &= o2 <= -apart;
        (o1, a) = (o2, b);
    }
    if apart > 0.0 && (left || right) {
        return true;
    }
    if poly_contains(pts, s.a) || poly_contains(pts, s.b) {
        return false;
    }
    pts.iter().all(|&v| point_segment_dist(v, s) >= need)
        && (0..n).all(|i| {
            let e = Segment::new(pts[i], pts[(i + 1) % n]);
            point_segment_dist(s.a, &e) >= need && point_segment_dist(s.b, &e) >= need
        })
}

#[derive(Debug, Clone, Copy)]
struct Node {
    p: Vec2,
    /// The ring neighbours (geometric, even if dropped) as offsets from `p` (`prev − p`, `next − p`),
    /// and their squared lengths: the tangency test and the ring-edge contacts use nothing else of
    /// them, and every A* expansion tests hundreds of nodes, so they are computed once.
    a: Vec2,
    b: Vec2,
    a2: f64,
    b2: f64,
    /// False for free points (start, goal) and clamped nodes: no tangency test.
    tangent: bool,
}

impl Node {
    fn free(p: Vec2) -> Self {
        Node::new(p, p, p, false)
    }
    fn new(p: Vec2, prev: Vec2, next: Vec2, tangent: bool) -> Self {
        let (a, b) = (prev - p, next - p);
        Node {
            p,
            a,
            b,
            a2: a.len_sq(),
            b2: b.len_sq(),
            tangent,
        }
    }
    /// True when the line from this node to `w` does not cut into this node's ring.
    fn tangent_to(&self, w: Vec2) -> bool {
        if !self.tangent {
            return true;
        }
        let d = w - self.p;
        let s1 = d.cross(self.a);
        let s2 = d.cross(self.b);
        // Only neighbours strictly on opposite sides of the line can reject it: that sign test is
        // two comparisons and settles most lines before the magnitudes are looked at.
        if !((s1 > 0.0 && s2 < 0.0) || (s1 < 0.0 && s2 > 0.0)) {
            return true;
        }
        // Relative tolerance, |sin(angle)| > 1e-9, compared squared: this runs for every edge A*
        // relaxes from a model's ring, where two square roots were a fifth of the search's time.
        let d2 = 1e-18 * d.len_sq();
        !(s1 * s1 > d2 * self.a2 && s2 * s2 > d2 * self.b2)
    }
    /// True only when `tangent_to(w)` is false for every `w` in `bb`: the box lies in one of the two
    /// cones where the ring neighbours are strictly on opposite sides, with a relative margin of 1e-6
    /// (far above rounding, far above the 1e-9 of `tangent_to`). `tangent_to`'s signed areas are affine
    /// in `w`, so the box's corners bound them; it lets A* skip a whole obstacle ring of nodes at once.
    fn rejects_box(&self, bb: &Rect) -> bool {
        if !self.tangent {
            return false;
        }
        let corners = bb.corners();
        let norm1 = |v: Vec2| v.x.abs() + v.y.abs();
        // Largest |w − p| over the box (1-norms bound the Euclidean ones from above).
        let far = corners
            .iter()
            .fold(0.0f64, |m, &c| m.max(norm1(c - self.p)));
        let (na, nb) = (norm1(self.a), norm1(self.b));
        // Tiny scales could make the squared test underflow: no claim then.
        if !(far > 1e-30 && na > 1e-30 && nb > 1e-30) {
            return false;
        }
        let (m1, m2) = (1e-6 * far * na, 1e-6 * far * nb);
        let (mut cone1, mut cone2) = (true, true);
        for &c in &corners {
            let d = c - self.p;
            let (s1, s2) = (d.cross(self.a), d.cross(self.b));
            cone1 &= s1 > m1 && s2 < -m2;
            cone2 &= s1 < -m1 && s2 > m2;
        }
        cone1 || cone2
    }
}

/// Nodes circumscribing a convex polygon inflated by `clear` (ring order, counter-clockwise).
fn poly_ring(pts: &[Vec2], clear: f64) -> Vec<Vec2> {
    let n = pts.len();
    let mut ring = Vec::new();
    for i in 0..n {
        let v = pts[i];
        let e_in = v - pts[(i + n - 1) % n];
        let e_out = pts[(i + 1) % n] - v;
        let n_in = Vec2::new(e_in.y, -e_in.x).normalized();
        let n_out = Vec2::new(e_out.y, -e_out.x).normalized();
        let turn = n_in.cross(n_out).atan2(n_in.dot(n_out));
        if turn <= 1e-9 {
            continue; // collinear vertex: the offset edges join smoothly
        }
        let k = ((turn / MAX_PIECE) - 1e-9).ceil().max(1.0);
        let piece = turn / k;
        let rad = clear / (piece * 0.5).cos();
        let a0 = n_in.angle();
        for j in 0..k as usize {
            ring.push(v + Vec2::from_angle(a0 + (j as f64 + 0.5) * piece) * rad);
        }
    }
    ring
}

/// Nodes circumscribing a circle of radius `clear` around `c`.
fn circle_ring(c: Vec2, clear: f64) -> [Vec2; BASE_NODES] {
    let dirs = ring_dirs();
    let rad = clear / (PI / BASE_NODES as f64).cos();
    std::array::from_fn(|j| c + dirs[j] * rad)
}

/// Unit directions of a base ring's nodes, at the middle of each piece (computed once).
fn ring_dirs() -> &'static [Vec2; BASE_NODES] {
    static DIRS: OnceLock<[Vec2; BASE_NODES]> = OnceLock::new();
    DIRS.get_or_init(|| {
        let piece = 2.0 * PI / BASE_NODES as f64;
        std::array::from_fn(|j| Vec2::from_angle((j as f64 + 0.5) * piece))
    })
}

/// Builds ring nodes, clamping them into the box (clamped nodes lose the tangency test).
fn ring_nodes(ring: &[Vec2], lo: Vec2, hi: Vec2, out: &mut Vec<Node>) {
    let n = ring.len();
    for i in 0..n {
        let p = ring[i];
        let q = Vec2::new(
            super::check::clamp_to(p.x, lo.x, hi.x.max(lo.x)),
            super::check::clamp_to(p.y, lo.y, hi.y.max(lo.y)),
        );
        out.push(Node::new(
            q,
            ring[(i + n - 1) % n],
            ring[(i + 1) % n],
            q == p,
        ));
    }
}

/// The box around the positions of `nodes` (not empty).
fn node_bounds(nodes: &[Node]) -> Rect {
    let mut bb = Rect::new(nodes[0].p, nodes[0].p);
    for n in &nodes[1..] {
        bb.min = Vec2::new(bb.min.x.min(n.p.x), bb.min.y.min(n.p.y));
        bb.max = Vec2::new(bb.max.x.max(n.p.x), bb.max.y.max(n.p.y));
    }
    bb
}

/// The longest ring edge (to either neighbour) of the tangent nodes among `nodes`.
fn ring_reach(nodes: &[Node]) -> f64 {
    nodes
        .iter()
        .filter(|n| n.tangent)
        .fold(0.0f64, |m, n| m.max(n.a2.max(n.b2)))
        .sqrt()
}

/// A visibility-graph navigator for one table and one base radius. Build it once and query it often;
/// it is `Send + Sync` and may be shared between threads.
#[derive(Debug, Clone)]
pub struct Navigator {
    r: f64,
    /// The legal box for the centre: [r, width − r] × [r, height − r].
    lo: Vec2,
    hi: Vec2,
    statics: Vec<Obstacle>,
    nodes: Vec<Node>,
    /// The nodes of each obstacle's ring (consecutive in `nodes`) and the box around them: a ring node
    /// expanded by A* skips the rings it cannot be tangent to (see [`Node::rejects_box`]).
    groups: Vec<(std::ops::Range<usize>, Rect)>,
    /// The longest ring edge of a tangent static node (bounds where its ring-edge contacts can lie).
    reach: f64,
    /// Static visibility, computed per node on first use: (neighbour, length) for every static node
    /// tangent at both ends and clear of every static obstacle.
    adj: Vec<OnceLock<Vec<(u32, f64)>>>,
    /// The last contact searches and their answers ([`Navigator::route_to_contact`]).
    recent: Recent,
}

/// The last few contact searches of a navigator, each with everything its answer follows from (start,
/// target, bases) and the answer: a search is a pure function of those (and of the navigator), and a
/// game asks the same one again now and then (a model that found no way ahead tries again with nothing
/// moved); a search that finds no route walks the whole graph twice.
#[derive(Debug, Default)]
struct Recent(Mutex<std::collections::VecDeque<Searched>>);

/// One search in [`Recent`].
#[derive(Debug)]
struct Searched {
    from: Vec2,
    target: Goal,
    bases: Vec<Circle>,
    route: Option<Route>,
}

/// How many searches [`Recent`] keeps.
const RECENT: usize = 4;

impl Recent {
    /// The answer of the search from `from` to `target` among `bases`, if it is one of the last few
    /// (compared with `==`: on the table every coordinate and radius is positive, where `==` is bit for
    /// bit, and the same inputs give the same answer).
    fn get(&self, from: Vec2, target: &Goal, bases: &[Circle]) -> Option<Option<Route>> {
        let recent = self.0.lock().unwrap_or_else(|e| e.into_inner());
        recent
            .iter()
            .find(|s| s.from == from && s.target == *target && s.bases == bases)
            .map(|s| s.route.clone())
    }

    fn keep(&self, from: Vec2, target: &Goal, bases: &[Circle], route: &Option<Route>) {
        let mut recent = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if recent.len() == RECENT {
            recent.pop_front();
        }
        recent.push_back(Searched {
            from,
            target: target.clone(),
            bases: bases.to_vec(),
            route: route.clone(),
        });
    }
}

impl Clone for Recent {
    /// A copy starts empty (what it would keep is only ever a shortcut).
    fn clone(&self) -> Self {
        Recent::default()
    }
}

/// The navigators built for a table, by base radius: a game asks for a route many times an action,
/// and a navigator's static visibility is computed lazily, so reusing one saves both the build and the
/// visibility rows already found. Each entry keeps the table it was built for and is used only while
/// the table is still equal to it (terrain added by a scenario builds a new one).
#[derive(Debug, Default)]
pub struct NavCache {
    built: Mutex<Vec<(u64, Table, Arc<Navigator>)>>,
}

impl NavCache {
    /// The navigator for bases of radius `r` on `table`.
    pub fn get(&self, table: &Table, r: f64) -> Arc<Navigator> {
        let key = r.to_bits();
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, nav)) = built.iter().find(|(k, t, _)| *k == key && t == table) {
            return nav.clone();
        }
        built.retain(|(_, t, _)| t == table);
        let nav = Arc::new(Navigator::new(table, r));
        built.push((key, table.clone(), nav.clone()));
        nav
    }
}

impl Clone for NavCache {
    /// A copy shares the navigators built so far (each still checked against the table).
    fn clone(&self) -> Self {
        let built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        NavCache {
            built: Mutex::new(built.clone()),
        }
    }
}

/// What the A* search is looking for.
enum Target<'a> {
    Exact(Vec2),
    Contact(&'a Goal),
    Edge,
}

#[derive(PartialEq)]
struct Item {
    f: f64,
    g: f64,
    idx: u32,
}
impl Eq for Item {}
impl Ord for Item {
    fn cmp(&self, o: &Self) -> Ordering {
        // BinaryHeap is a max-heap: smallest f first, then largest g, then smallest index.
        o.f.total_cmp(&self.f)
            .then(self.g.total_cmp(&o.g))
            .then(o.idx.cmp(&self.idx))
    }
}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// A search that found no route, with every base present: its query and the nodes its start reaches.
struct Explored<'n> {
    walk: Query<'n>,
    reached: Vec<bool>,
}

/// One A* run: the static graph plus a set of base obstacles, a start and a goal.
struct Query<'n> {
    nav: &'n Navigator,
    bases: Vec<Obstacle>,
    /// Rings of `bases`, then the start, then the goal.
    dyn_nodes: Vec<Node>,
    /// The box around each base's ring (`BASE_NODES` nodes of `dyn_nodes` each).
    ring_bbs: Vec<Rect>,
    /// The longest ring edge of a tangent node, static or in `dyn_nodes` (see [`ring_reach`]).
    reach: f64,
    /// Obstacles (index into statics ++ bases) the start already penetrates, with the distance it keeps.
    start_need: Vec<(usize, f64)>,
    goal_need: Vec<(usize, f64)>,
    /// The start lies between an obstacle and its ring of nodes (a model touching a building, say):
    /// every line from it to that ring's nodes looks like it cuts the ring, so tangency pruning would
    /// leave it no way out.
    start_in_band: bool,
    start: usize,
    goal: usize,
}

impl<'n> Query<'n> {
    fn new(nav: &'n Navigator, bases: Vec<Obstacle>, from: Vec2, exact_goal: Option<Vec2>) -> Self {
        let s = nav.nodes.len();
        let start = s + bases.len() * BASE_NODES;
        let mut q = Query {
            nav,
            bases,
            dyn_nodes: Vec::new(),
            ring_bbs: Vec::new(),
            reach: nav.reach,
            start_need: Vec::new(),
            goal_need: Vec::new(),
            start_in_band: false,
            start,
            goal: start + 1,
        };
        q.start_need = q.penetrated(from);
        // A ring's nodes sit at most clear / cos(MAX_PIECE / 2) from its core.
        let band = 1.0 / (MAX_PIECE * 0.5).cos();
        q.start_in_band = (0..q.obstacle_count()).any(|i| {
            let o = q.obstacle(i);
            let reach = o.clear * band + 1e-9;
            !o.beyond(from, reach) && o.dist_point(from) < reach
        });
        if let Some(to) = exact_goal {
            q.goal_need = q.penetrated(to);
        }
        q
    }
    fn build_nodes(&mut self, from: Vec2, exact_goal: Option<Vec2>) {
        self.dyn_nodes.reserve(self.bases.len() * BASE_NODES + 2);
        self.ring_bbs.reserve(self.bases.len());
        for o in &self.bases {
            if let Core::Point(c) = o.core {
                let ring = circle_ring(c, o.clear);
                ring_nodes(&ring, self.nav.lo, self.nav.hi, &mut self.dyn_nodes);
                let first = self.dyn_nodes.len() - BASE_NODES;
                self.ring_bbs.push(node_bounds(&self.dyn_nodes[first..]));
            }
        }
        self.reach = self.reach.max(ring_reach(&self.dyn_nodes));
        self.dyn_nodes.push(Node::free(from));
        self.dyn_nodes.push(Node::free(exact_goal.unwrap_or(from)));
    }
    fn node(&self, i: usize) -> &Node {
        let s = self.nav.nodes.len();
        if i < s {
            &self.nav.nodes[i]
        } else {
            &self.dyn_nodes[i - s]
        }
    }
    fn obstacle(&self, i: usize) -> &Obstacle {
        let s = self.nav.statics.len();
        if i < s {
            &self.nav.statics[i]
        } else {
            &self.bases[i - s]
        }
    }
    fn obstacle_count(&self) -> usize {
        self.nav.statics.len() + self.bases.len()
    }
    /// Obstacles that `p` is inside (closer than clearance − tol to), with the distance it keeps.
    fn penetrated(&self, p: Vec2) -> Vec<(usize, f64)> {
        (0..self.obstacle_count())
            .filter_map(|i| {
                let o = self.obstacle(i);
                if o.beyond(p, o.clear) {
                    return None;
                }
                let d = o.dist_point(p);
                (d < o.clear - LEGAL_TOL).then_some((i, d))
            })
            .collect()
    }
    /// True when node `i` (at `p`) is a legal position. Static nodes were checked against static
    /// obstacles at build.
    fn node_legal(&self, i: usize, p: Vec2) -> bool {
        let first = if i < self.nav.nodes.len() {
            self.nav.statics.len()
        } else {
            0
        };
        (first..self.obstacle_count()).all(|j| {
            let o = self.obstacle(j);
            o.point_clear(p, o.clear - LEGAL_TOL)
        })
    }
    /// The distance an end point (start or goal) must keep from obstacle `j`, if it already penetrates it.
    fn end_need(&self, j: usize, end: usize) -> Option<f64> {
        let list = if end == self.start {
            &self.start_need
        } else if end == self.goal {
            &self.goal_need
        } else {
            return None;
        };
        list.iter().find(|(k, _)| *k == j).map(|&(_, d)| d - 1e-9)
    }
    /// True when the straight leg a→b (node indices, with their points) is legal. With `statics_known`
    /// the static obstacles were already checked (precomputed static edge).
    fn leg_clear(&self, a: usize, pa: Vec2, b: usize, pb: Vec2, statics_known: bool) -> bool {
        let s = Segment::new(pa, pb);
        let sb = s.bounds();
        let statics: &[Obstacle] = if statics_known {
            &[]
        } else {
            &self.nav.statics
        };
        // Bases first: a point is tested in a few products, a polygon may take sixteen distances, and
        // the first obstacle in the way ends the test (the answer does not depend on the order).
        if self.start_need.is_empty() && self.goal_need.is_empty() {
            // No end inside an obstacle (the usual case): every obstacle needs its clearance.
            return self
                .bases
                .iter()
                .all(|o| o.seg_clear(&s, &sb, o.clear - LEGAL_TOL))
                && statics
                    .iter()
                    .all(|o| o.seg_clear(&s, &sb, o.clear - LEGAL_TOL));
        }
        let need = |j: usize, o: &Obstacle| {
            let mut need = o.clear - LEGAL_TOL;
            if let Some(x) = self.end_need(j, a) {
                need = need.min(x);
            }
            if let Some(x) = self.end_need(j, b) {
                need = need.min(x);
            }
            need
        };
        let first_base = self.nav.statics.len();
        self.bases
            .iter()
            .enumerate()
            .all(|(k, o)| o.seg_clear(&s, &sb, need(first_base + k, o)))
            && statics
                .iter()
                .enumerate()
                .all(|(j, o)| o.seg_clear(&s, &sb, need(j, o)))
    }

    /// A* from the start node to the goal; the waypoints, or, when the goal is unreachable, every node
    /// the start reaches (the nodes it closed: see [`Query::reachable`]).
    fn astar(&self, target: &Target, exact: bool) -> Result<Vec<Vec2>, Vec<bool>> {
        let nav = self.nav;
        let s = nav.nodes.len();
        let n = s + self.dyn_nodes.len();
        let ring_end = self.start;
        let mut g = vec![f64::INFINITY; n];
        let mut parent = vec![u32::MAX; n];
        let mut closed = vec![false; n];
        // 0 = unknown, 1 = legal, 2 = illegal
        let mut legal = vec![0u8; n];
        let from = self.node(self.start).p;
        let mut goal_point = from;
        let mut heap = BinaryHeap::new();
        let mut pts = Vec::with_capacity(4);
        g[self.start] = 0.0;
        legal[self.start] = 1;
        heap.push(Item {
            f: nav.heuristic(target, from),
            g: 0.0,
            idx: self.start as u32,
        });

        while let Some(Item { g: gu, idx, .. }) = heap.pop() {
            let u = idx as usize;
            if closed[u] || gu > g[u] {
                continue;
            }
            if u == self.goal {
                let mut way = vec![goal_point];
                let mut k = parent[u];
                while k != u32::MAX {
                    way.push(self.node(k as usize).p);
                    k = parent[k as usize];
                }
                way.reverse();
                return Ok(way);
            }
            closed[u] = true;
            let nu = *self.node(u);

            // Final leg(s) to the goal.
            nav.goal_points(target, nu.p, &mut pts);
            nav.ring_edge_contacts(target, &nu, &mut pts);
            if u == self.start {
                // A start on an obstacle's ring (a model touching a building) slides along that ring
                // to where it meets the contact circle: every ring's crossings are candidates from it
                // (the start and goal themselves are free nodes, with none).
                let rings = nav.nodes.iter().chain(&self.dyn_nodes[..ring_end - s]);
                nav.ring_contacts_near(target, self.reach, rings, &mut pts);
            }
            for &p in &pts {
                let ng = gu + nu.p.dist(p);
                if ng < g[self.goal]
                    && (!self.goal_need.is_empty() || nu.tangent_to(p))
                    && (exact || nav.in_box(p, 1e-9))
                    && self.leg_clear(u, nu.p, self.goal, p, false)
                {
                    g[self.goal] = ng;
                    parent[self.goal] = u as u32;
                    goal_point = p;
                    heap.push(Item {
                        f: ng,
                        g: ng,
                        idx: self.goal as u32,
                    });
                }
            }

            let mut relax = |v: usize,
                             pv: Vec2,
                             len: f64,
                             statics_known: bool,
                             g: &mut [f64],
                             heap: &mut BinaryHeap<Item>| {
                if closed[v] {
                    return;
                }
                let ng = gu + len;
                if ng >= g[v] || !self.leg_open(u, &nu, v, pv, statics_known, &mut legal) {
                    return;
                }
                g[v] = ng;
                parent[v] = u as u32;
                heap.push(Item {
                    f: ng + nav.heuristic(target, pv),
                    g: ng,
                    idx: v as u32,
                });
            };
            // The tangency test comes before the leg's length: it is a few products, and it turns
            // most candidates away before a square root is taken.
            // A ring whose box lies where `u` cannot be tangent is skipped whole: each of its nodes
            // would fail `tangent_ok` (same nodes relaxed, in the same order).
            // `tangent_ok` with `prunes(u)` taken once; a closed node (which `relax` turns away
            // first) is not tested at all.
            let prune = self.prunes(u);
            let tangent = |nv: &Node| !prune || (nu.tangent_to(nv.p) && nv.tangent_to(nu.p));
            if u < s {
                for &(v, len) in nav.static_adj(u) {
                    let pv = nav.nodes[v as usize].p;
                    relax(v as usize, pv, len, true, &mut g, &mut heap);
                }
            } else {
                for (range, bb) in &nav.groups {
                    if prune && nu.rejects_box(bb) {
                        continue;
                    }
                    for v in range.clone() {
                        let nv = &nav.nodes[v];
                        if !closed[v] && tangent(nv) {
                            relax(v, nv.p, nu.p.dist(nv.p), false, &mut g, &mut heap);
                        }
                    }
                }
            }
            for (k, bb) in self.ring_bbs.iter().enumerate() {
                if prune && nu.rejects_box(bb) {
                    continue;
                }
                let ring = k * BASE_NODES..(k + 1) * BASE_NODES;
                for (i, nv) in self.dyn_nodes[ring.clone()].iter().enumerate() {
                    if !closed[s + ring.start + i] && tangent(nv) {
                        relax(
                            s + ring.start + i,
                            nv.p,
                            nu.p.dist(nv.p),
                            false,
                            &mut g,
                            &mut heap,
                        );
                    }
                }
            }
        }
        Err(closed)
    }

    /// Whether A* may take the edge u→v (u's node is `nu`): both ends tangent (skipped for a
    /// precomputed static edge and from a start inside or beside an obstacle, whose every line cuts
    /// that obstacle's ring), v a legal position (`legal` caches it: 0 unknown, 1 legal, 2 not) and the
    /// leg clear. A* and [`Query::reachable`] share it, so both see the same graph.
    fn edge_open(
        &self,
        u: usize,
        nu: &Node,
        v: usize,
        statics_known: bool,
        legal: &mut [u8],
    ) -> bool {
        let nv = self.node(v);
        (statics_known || self.tangent_ok(u, nu, nv))
            && self.leg_open(u, nu, v, nv.p, statics_known, legal)
    }

    /// The tangency half of [`Query::edge_open`] for an edge not precomputed: both ends tangent, unless
    /// `u` is a start inside or beside an obstacle (every line from it cuts that obstacle's ring;
    /// legality is still checked).
    fn tangent_ok(&self, u: usize, nu: &Node, nv: &Node) -> bool {
        !self.prunes(u) || (nu.tangent_to(nv.p) && nv.tangent_to(nu.p))
    }

    /// Whether edges from `u` are pruned by tangency (all but a start inside or beside an obstacle).
    fn prunes(&self, u: usize) -> bool {
        u != self.start || (self.start_need.is_empty() && !self.start_in_band)
    }

    /// The other half: `v` a legal position (`legal` caches it: 0 unknown, 1 legal, 2 not) and the leg
    /// clear (of the static obstacles too unless `statics_known`).
    /// `pv` is `v`'s point (the callers have it at hand).
    fn leg_open(
        &self,
        u: usize,
        nu: &Node,
        v: usize,
        pv: Vec2,
        statics_known: bool,
        legal: &mut [u8],
    ) -> bool {
        if legal[v] == 0 {
            legal[v] = if self.node_legal(v, pv) { 1 } else { 2 };
        }
        legal[v] == 1 && self.leg_clear(u, nu.p, v, pv, statics_known)
    }

    /// Every node the start reaches through the graph (the goal node aside): the nodes A* closes when no
    /// goal is found. A route to an exact goal exists exactly when one of them has a final leg to it.
    fn reachable(&self) -> Vec<bool> {
        let nav = self.nav;
        let s = nav.nodes.len();
        let n = s + self.dyn_nodes.len();
        let mut seen = vec![false; n];
        let mut legal = vec![0u8; n];
        legal[self.start] = 1;
        seen[self.start] = true;
        let mut stack = vec![self.start];
        while let Some(u) = stack.pop() {
            let nu = *self.node(u);
            let mut visit = |v: usize, statics_known: bool, seen: &mut [bool]| {
                if !seen[v] && self.edge_open(u, &nu, v, statics_known, &mut legal) {
                    seen[v] = true;
                    stack.push(v);
                }
            };
            if u < s {
                for &(v, _) in nav.static_adj(u) {
                    visit(v as usize, true, &mut seen);
                }
            } else {
                for v in 0..s {
                    visit(v, false, &mut seen);
                }
            }
            for v in s..self.start {
                visit(v, false, &mut seen);
            }
        }
        seen
    }

    /// Whether the search from this query's start could end at `spot` (an exact goal): some reachable
    /// node has a legal final leg to it, tested as A* tests its last leg (tangent at the node unless the
    /// goal sits inside an obstacle's clearance, lenient where the ends already are).
    fn may_end_at(&mut self, reached: &[bool], spot: Vec2) -> bool {
        self.goal_need = self.penetrated(spot);
        // The exact search refuses such a goal before any search.
        if !self.nav.in_box(spot, GOAL_TOL)
            || self
                .goal_need
                .iter()
                .any(|&(j, d)| d < self.obstacle(j).clear - GOAL_TOL)
        {
            return false;
        }
        (0..reached.len()).filter(|&u| reached[u]).any(|u| {
            let nu = self.node(u);
            (!self.goal_need.is_empty() || nu.tangent_to(spot))
                && self.leg_clear(u, nu.p, self.goal, spot, false)
        })
    }
}

impl Navigator {
    /// Builds the navigator for a base of radius `r` on `table`: nodes around every building and every
    /// impassable terrain piece (rocks, pond). O(S · M); the static visibility (O(S · M) per node) is
    /// computed lazily, the first time a node is expanded.
    pub fn new(table: &Table, r: f64) -> Self {
        let lo = Vec2::new(r, r);
        let hi = Vec2::new(table.width - r, table.height - r);
        let mut statics = Vec::new();
        for b in &table.buildings {
            statics.push(Obstacle::poly(b.rect.corners().to_vec(), r));
        }
        for t in &table.terrain {
            if let (true, TerrainShape::Area(p)) = (t.kind.is_impassable(), &t.shape) {
                if p.pts.len() >= 3 {
                    statics.push(Obstacle::poly(p.pts.clone(), r));
                }
            }
        }
        let mut nodes = Vec::new();
        let mut groups = Vec::new();
        for o in &statics {
            if let Core::Poly { pts, .. } = &o.core {
                let mut ring = Vec::new();
                ring_nodes(&poly_ring(pts, o.clear), lo, hi, &mut ring);
                let first = nodes.len();
                nodes.extend(ring.into_iter().filter(|n| {
                    statics
                        .iter()
                        .all(|q| q.point_clear(n.p, q.clear - LEGAL_TOL))
                }));
                if nodes.len() > first {
                    groups.push((first..nodes.len(), node_bounds(&nodes[first..])));
                }
            }
        }
        let reach = ring_reach(&nodes);
        let adj = (0..nodes.len()).map(|_| OnceLock::new()).collect();
        Navigator {
            r,
            lo,
            hi,
            statics,
            nodes,
            groups,
            reach,
            adj,
            recent: Recent::default(),
        }
    }

    /// The static neighbours of static node `i` (computed once).
    fn static_adj(&self, i: usize) -> &[(u32, f64)] {
        self.adj[i].get_or_init(|| {
            let a = self.nodes[i];
            let mut row = Vec::new();
            // The rings `a` cannot be tangent toward are skipped whole (as in A*).
            let near = self.groups.iter().filter(|(_, bb)| !a.rejects_box(bb));
            for j in near.flat_map(|(range, _)| range.clone()) {
                let b = &self.nodes[j];
                if j == i || a.p == b.p || !a.tangent_to(b.p) || !b.tangent_to(a.p) {
                    continue;
                }
                let s = Segment::new(a.p, b.p);
                let sb = s.bounds();
                if self
                    .statics
                    .iter()
                    .all(|o| o.seg_clear(&s, &sb, o.clear - LEGAL_TOL))
                {
                    row.push((j as u32, a.p.dist(b.p)));
                }
            }
            row
        })
    }

    /// The base radius this navigator routes.
    pub fn radius(&self) -> f64 {
        self.r
    }

    /// Number of static graph nodes (for diagnostics and benchmarks).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// True when the centre may stand at `p`: inside the table box and clear of buildings, impassable
    /// terrain and `bases` (within `LEGAL_TOL`).
    pub fn is_legal(&self, p: Vec2, bases: &[Circle]) -> bool {
        self.in_box(p, LEGAL_TOL)
            && self
                .statics
                .iter()
                .all(|o| o.point_clear(p, o.clear - LEGAL_TOL))
            && bases
                .iter()
                .all(|b| p.dist(b.c) >= self.r + b.r - LEGAL_TOL)
    }

    /// True when the straight leg is legal for this navigator's base (see the module docs).
    pub fn is_clear(&self, leg: &Segment, bases: &[Circle]) -> bool {
        let sb = leg.bounds();
        self.in_box(leg.a, LEGAL_TOL)
            && self.in_box(leg.b, LEGAL_TOL)
            && self
                .statics
                .iter()
                .all(|o| o.seg_clear(leg, &sb, o.clear - LEGAL_TOL))
            && bases
                .iter()
                .all(|b| point_segment_dist(b.c, leg) >= self.r + b.r - LEGAL_TOL)
    }

    fn in_box(&self, p: Vec2, tol: f64) -> bool {
        p.x >= self.lo.x - tol
            && p.x <= self.hi.x + tol
            && p.y >= self.lo.y - tol
            && p.y <= self.hi.y + tol
    }

    /// The shortest legal route for the centre from `from` to `to`, going around buildings, impassable
    /// terrain and `bases` (other models; the mover itself must not be listed). `None` when `to` is not a
    /// legal position or cannot be reached.
    pub fn route(&self, from: Vec2, to: Vec2, bases: &[Circle]) -> Option<Route> {
        self.search(from, Target::Exact(to), bases)
    }

    /// The shortest legal route to the nearest position where the mover's base touches `target` (gap 0).
    /// A route that does not need to move (already touching) is the single point `from`.
    pub fn route_to_contact(&self, from: Vec2, target: &Goal, bases: &[Circle]) -> Option<Route> {
        if let Some(known) = self.recent.get(from, target, bases) {
            return known;
        }
        let route = self.search_contact(from, target, bases);
        self.recent.keep(from, target, bases, &route);
        route
    }

    /// [`Navigator::route_to_contact`], searched.
    fn search_contact(&self, from: Vec2, target: &Goal, bases: &[Circle]) -> Option<Route> {
        if self.heuristic(&Target::Contact(target), from) > 1e-9
            && self.contact_blocked(from, target, bases)
        {
            return None;
        }
        match (
            self.search_explored(from, Target::Contact(target), bases),
            target,
        ) {
            (Ok(route), _) => Some(route),
            (Err(explored), Goal::Base(c)) => self.route_to_contact_spots(from, c, bases, explored),
            (Err(_), _) => None,
        }
    }

    /// Whether every position where the mover would touch `target` (a base or a point; never a
    /// building) is certainly illegal, so that no search can end there: the answer is then `None`
    /// without one (a model hemmed in by others, the usual case of an unreachable target, would
    /// otherwise cost two walks of the whole graph and the contact-spot fallback).
    ///
    /// It samples the contact circle every `2 · MARGIN` inches of arc and asks that each sample lie
    /// `MARGIN` deeper than it must inside some obstacle's clearance (or outside the table box):
    /// distances change by at most the distance moved, so every point between samples is then inside
    /// too. "Inside" is the strictest test any search applies: a contact spot is refused when it is
    /// `GOAL_TOL` inside a clearance, and a start already inside an obstacle's clearance may come as
    /// close to it as it is. A circle that is only just covered is not recognised; the search then runs
    /// and finds no route, as before.
    fn contact_blocked(&self, from: Vec2, target: &Goal, bases: &[Circle]) -> bool {
        const MARGIN: f64 = 0.01;
        let (q, reach, own) = match target {
            Goal::Base(c) => (c.c, self.r + c.r, Some(c)),
            Goal::Point(q) => (*q, self.r, None),
            Goal::Building(_) => return false,
        };
        let around = Rect::new(q, q).expand(reach + MARGIN);
        let overlaps = |bb: &Rect| {
            bb.max.x >= around.min.x
                && bb.min.x <= around.max.x
                && bb.max.y >= around.min.y
                && bb.min.y <= around.max.y
        };
        let bases = bases
            .iter()
            .filter(|b| Some(*b) != own)
            .map(|b| Obstacle::point(b.c, self.r + b.r));
        // Each nearby obstacle with the distance inside which a contact spot is certainly refused.
        let near: Vec<(Obstacle, f64)> = self
            .statics
            .iter()
            .filter(|o| overlaps(&o.bb))
            .cloned()
            .chain(bases.filter(|o| overlaps(&o.bb)))
            .map(|o| {
                let mut inside = o.clear - GOAL_TOL;
                let start = o.dist_point(from);
                if start < o.clear - LEGAL_TOL {
                    inside = inside.min(start - 1e-9);
                }
                (o, inside)
            })
            .collect();
        let out = GOAL_TOL + MARGIN;
        let samples = ((PI * reach / MARGIN).ceil() as usize).max(8);
        (0..samples).all(|k| {
            let p = q + Vec2::from_angle(2.0 * PI * k as f64 / samples as f64) * reach;
            p.x < self.lo.x - out
                || p.x > self.hi.x + out
                || p.y < self.lo.y - out
                || p.y > self.hi.y + out
                || near
                    .iter()
                    .any(|(o, inside)| o.dist_point(p) < inside - MARGIN)
        })
    }

    /// The fallback of [`Navigator::route_to_contact`] for a base: exact routes to the contact spots
    /// every 11.25° around it, the shortest one. The contact search aims each final leg at the contact
    /// spot nearest its node; for a base hugging a building corner every such spot can lie inside the
    /// building's clearance while legal spots remain around the corner (found in a stalled game).
    ///
    /// The answer is the first shortest of those routes, in spot order, but most spots are never
    /// searched: one walk of the graph with every base present finds the nodes the start reaches, and a
    /// spot none of them has a final leg to is unreachable (a lazier search's routes are routes of that
    /// graph too), so it is skipped; so is a spot no nearer in a straight line than the best route so far
    /// (a later route replaces the best only when strictly shorter). A target hemmed in on every side
    /// costs one walk instead of 32 searches.
    /// `explored` is the failed contact search's walk of the same graph (every base present, the target
    /// among them), when it made one; otherwise the fallback walks it itself.
    fn route_to_contact_spots(
        &self,
        from: Vec2,
        c: &Circle,
        bases: &[Circle],
        explored: Option<Box<Explored<'_>>>,
    ) -> Option<Route> {
        const SPOTS: u32 = 32;
        let mut all = bases.to_vec();
        if !all.contains(c) {
            all.push(*c);
        }
        let Explored { mut walk, reached } = match explored {
            Some(e) => *e,
            None => {
                let obstacles = all
                    .iter()
                    .map(|b| Obstacle::point(b.c, self.r + b.r))
                    .collect();
                let mut walk = Query::new(self, obstacles, from, None);
                walk.build_nodes(from, None);
                let reached = walk.reachable();
                Explored { walk, reached }
            }
        };
        let mut best: Option<Route> = None;
        for k in 0..SPOTS {
            let a = f64::from(k) * 2.0 * PI / f64::from(SPOTS);
            let spot = c.c + Vec2::from_angle(a) * (c.r + self.r);
            // A spot the exact search refuses at once (off the table, or deeper than GOAL_TOL inside an
            // obstacle's clearance) is not worth a look at the reachable nodes either.
            if best.as_ref().is_some_and(|b| from.dist(spot) >= b.length)
                || !walk.may_end_at(&reached, spot)
            {
                continue;
            }
            if let Some(r) = self.route(from, spot, &all) {
                if best.as_ref().is_none_or(|b| r.length < b.length) {
                    best = Some(r);
                }
            }
        }
        best
    }

    /// The shortest legal route to the nearest position where the base touches a table edge (fleeing,
    /// leaving the table).
    pub fn route_to_edge(&self, from: Vec2, bases: &[Circle]) -> Option<Route> {
        self.search(from, Target::Edge, bases)
    }

    /// Lower bound of the remaining distance from `p` (admissible and consistent).
    fn heuristic(&self, target: &Target, p: Vec2) -> f64 {
        match target {
            Target::Exact(q) => p.dist(*q),
            Target::Contact(Goal::Base(c)) => (p.dist(c.c) - self.r - c.r).max(0.0),
            Target::Contact(Goal::Building(rect)) => (rect.signed_dist(p) - self.r).max(0.0),
            Target::Contact(Goal::Point(q)) => (p.dist(*q) - self.r).max(0.0),
            Target::Edge => (p.x - self.lo.x)
                .min(self.hi.x - p.x)
                .min(p.y - self.lo.y)
                .min(self.hi.y - p.y)
                .max(0.0),
        }
    }

    /// Where the ring edges of node `n` (toward its two ring neighbours) meet a contact circle (a base's
    /// or a point's): the contact spot nearest a node can lie inside an obstacle's clearance while the
    /// ring running around that obstacle still reaches the circle (a target beside a rock or a building
    /// corner). Those crossings are the true optimum's last points, so they are final-leg candidates too.
    fn ring_edge_contacts(&self, target: &Target, n: &Node, out: &mut Vec<Vec2>) {
        let (q, rad) = match target {
            Target::Contact(Goal::Base(c)) => (c.c, self.r + c.r),
            Target::Contact(Goal::Point(q)) => (*q, self.r),
            _ => return,
        };
        if !n.tangent {
            return;
        }
        for d in [n.a, n.b] {
            // |n.p + t d − q| = rad for t in (0, 1] (d runs to the ring neighbour); only a crossing
            // from outside the circle.
            let f = n.p - q;
            let a = d.len_sq();
            let c = f.len_sq() - rad * rad;
            if a <= 1e-18 || c <= 0.0 {
                continue;
            }
            let b = 2.0 * f.dot(d);
            let disc = b * b - 4.0 * a * c;
            if disc < 0.0 {
                continue;
            }
            let t = (-b - disc.sqrt()) / (2.0 * a);
            if t > 1e-12 && t <= 1.0 {
                out.push(n.p + d * t);
            }
        }
    }

    /// [`Navigator::ring_edge_contacts`] of every node in `nodes`, in order, skipping the nodes too far
    /// from the contact circle for either ring edge (at most `reach` long) to meet it: a crossing lies
    /// on the circle, so its node is within `rad + reach` of the centre (1e-3" of margin over rounding).
    fn ring_contacts_near<'a>(
        &self,
        target: &Target,
        reach: f64,
        nodes: impl Iterator<Item = &'a Node>,
        out: &mut Vec<Vec2>,
    ) {
        let (q, rad) = match target {
            Target::Contact(Goal::Base(c)) => (c.c, self.r + c.r),
            Target::Contact(Goal::Point(q)) => (*q, self.r),
            _ => return,
        };
        let lim = rad + reach + 1e-3;
        let lim2 = lim * lim;
        for n in nodes {
            if n.tangent && (n.p - q).len_sq() <= lim2 {
                self.ring_edge_contacts(target, n, out);
            }
        }
    }

    /// Candidate end points of the final leg from `p`: the closest contact point (or the edge feet).
    fn goal_points(&self, target: &Target, p: Vec2, out: &mut Vec<Vec2>) {
        out.clear();
        let toward = |q: Vec2, dist: f64| -> Option<Vec2> {
            let d = p - q;
            let l = d.len();
            (l > 1e-12).then(|| q + d * (dist / l))
        };
        match target {
            Target::Exact(q) => out.push(*q),
            Target::Contact(Goal::Base(c)) => out.extend(toward(c.c, self.r + c.r)),
            Target::Contact(Goal::Point(q)) => out.extend(toward(*q, self.r)),
            Target::Contact(Goal::Building(rect)) => {
                out.extend(toward(rect.closest_point(p), self.r))
            }
            Target::Edge => {
                out.extend([
                    Vec2::new(self.lo.x, p.y),
                    Vec2::new(self.hi.x, p.y),
                    Vec2::new(p.x, self.lo.y),
                    Vec2::new(p.x, self.hi.y),
                ]);
            }
        }
    }

    /// Routes with lazily included bases: A* runs against the static obstacles plus an *active* subset of
    /// the bases; the bases its route collides with join the subset, each with its cluster (bases too close
    /// together to pass between), and A* runs again (at most B + 1 runs). The first collision-free route is
    /// the shortest with every base present: a shortest route among a subset of the obstacles that avoids
    /// the others is a shortest route among all of them (exact for the continuous problem, and up to the
    /// node approximation in the graph).
    fn search(&self, from: Vec2, target: Target, bases: &[Circle]) -> Option<Route> {
        self.search_explored(from, target, bases).ok()
    }

    /// [`Navigator::search`], and when no route is found after a walk with every base present, that
    /// walk: its query and every node the start reaches (the contact-spot fallback needs no walk of
    /// its own then).
    fn search_explored<'q>(
        &'q self,
        from: Vec2,
        target: Target,
        bases: &[Circle],
    ) -> Result<Route, Option<Box<Explored<'q>>>> {
        let mut all: Vec<Obstacle> = bases
            .iter()
            .map(|b| Obstacle::point(b.c, self.r + b.r))
            .collect();
        if let Target::Contact(Goal::Base(c)) = &target {
            if !bases.contains(c) {
                all.push(Obstacle::point(c.c, self.r + c.r));
            }
        }
        let exact_goal = match target {
            Target::Exact(to) => Some(to),
            _ => None,
        };
        let full = Query::new(self, all, from, exact_goal);
        if let Some(to) = exact_goal {
            if !self.in_box(to, GOAL_TOL)
                || full
                    .goal_need
                    .iter()
                    .any(|&(j, d)| d < full.obstacle(j).clear - GOAL_TOL)
            {
                return Err(None);
            }
        }
        // Fast path: the straight leg to the nearest end point is optimal whenever it is clear.
        let h0 = self.heuristic(&target, from);
        if h0 <= 1e-9 && exact_goal.is_none() {
            return Ok(Route {
                waypoints: vec![from],
                length: 0.0,
            });
        }
        let mut pts = Vec::with_capacity(4);
        self.goal_points(&target, from, &mut pts);
        for &p in &pts {
            if (from.dist(p) - h0).abs() <= 1e-9
                && self.in_box(p, 1e-9)
                && full.leg_clear(full.start, from, full.goal, p, false)
            {
                return Ok(finish(vec![from, p]));
            }
        }

        let all = full.bases;
        // Bases the start or goal touches are active from the start (their leniency must apply).
        let mut active: Vec<bool> = (0..all.len())
            .map(|j| {
                let near = |p: Vec2| all[j].dist_point(p) <= all[j].clear + 1e-6;
                near(from) || exact_goal.is_some_and(near)
            })
            .collect();
        loop {
            let ids: Vec<usize> = (0..all.len()).filter(|&j| active[j]).collect();
            let mut q = Query::new(
                self,
                ids.iter().map(|&j| all[j].clone()).collect(),
                from,
                exact_goal,
            );
            q.build_nodes(from, exact_goal);
            let way = match q.astar(&target, exact_goal.is_some()) {
                Ok(way) => way,
                // Fewer obstacles can mean fewer nodes in a narrow gap (see the module docs): before
                // answering "unreachable", try once with every base.
                Err(reached) if active.iter().all(|&a| a) => {
                    return Err(Some(Box::new(Explored { walk: q, reached })));
                }
                Err(_) => {
                    active.iter_mut().for_each(|a| *a = true);
                    continue;
                }
            };
            // Inactive bases the route runs into.
            let mut hit: Vec<usize> = Vec::new();
            for leg in way.windows(2) {
                let s = Segment::new(leg[0], leg[1]);
                let sb = s.bounds();
                for (j, o) in all.iter().enumerate() {
                    if !active[j] && !hit.contains(&j) && !o.seg_clear(&s, &sb, o.clear - LEGAL_TOL)
                    {
                        hit.push(j);
                    }
                }
            }
            if hit.is_empty() {
                return Ok(finish(way));
            }
            // Add each hit base with its cluster: bases whose inflated discs overlap cannot be passed between.
            while let Some(j) = hit.pop() {
                if active[j] {
                    continue;
                }
                active[j] = true;
                let Core::Point(cj) = all[j].core else {
                    continue;
                };
                for (k, o) in all.iter().enumerate() {
                    if let (false, Core::Point(ck)) = (active[k], &o.core) {
                        if cj.dist(*ck) < all[j].clear + o.clear {
                            hit.push(k);
                        }
                    }
                }
            }
        }
    }
}

/// Drops repeated consecutive waypoints and measures the route.
fn finish(mut way: Vec<Vec2>) -> Route {
    way.dedup_by(|b, a| a.dist(*b) <= 1e-12);
    let length = way.windows(2).map(|w| w[0].dist(w[1])).sum();
    Route {
        waypoints: way,
        length,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::shapes::segment_poly_dist;
    use crate::geometry::table::BuildingSite;

    #[test]
    fn ring_nodes_are_tangent() {
        let sq = Rect::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0)).corners();
        let ring = poly_ring(&sq, 0.5);
        assert_eq!(ring.len(), 16, "four 22.5° pieces per 90° corner");
        for i in 0..ring.len() {
            let s = Segment::new(ring[i], ring[(i + 1) % ring.len()]);
            let d = segment_poly_dist(&s, &sq);
            assert!((d - 0.5).abs() < 1e-9, "edge {i} at {d}");
        }
        let c = circle_ring(Vec2::new(5.0, 5.0), 1.0);
        for i in 0..BASE_NODES {
            let s = Segment::new(c[i], c[(i + 1) % BASE_NODES]);
            assert!((point_segment_dist(Vec2::new(5.0, 5.0), &s) - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn the_cache_reuses_a_navigator_until_the_table_changes() {
        let mut table = Table::empty(24.0, 24.0);
        let cache = NavCache::default();
        let a = cache.get(&table, 0.5);
        assert!(
            Arc::ptr_eq(&a, &cache.get(&table, 0.5)),
            "same table and radius"
        );
        assert!(
            Arc::ptr_eq(&a, &cache.clone().get(&table, 0.5)),
            "a copy shares it"
        );
        let wide = cache.get(&table, 1.0);
        assert!(!Arc::ptr_eq(&a, &wide), "another radius has its own");
        table.terrain.push(crate::geometry::Terrain {
            kind: crate::geometry::TerrainKind::Rocks,
            shape: TerrainShape::Area(crate::geometry::Polygon::convex_hull(&[
                Vec2::new(10.0, 10.0),
                Vec2::new(14.0, 10.0),
                Vec2::new(12.0, 14.0),
            ])),
        });
        let b = cache.get(&table, 0.5);
        assert!(!Arc::ptr_eq(&a, &b), "a changed table builds anew");
        assert!(b.node_count() > a.node_count(), "and sees the new rocks");
    }

    /// A contact search asked again gives its own answer, never the answer of another search kept
    /// beside it (the memo compares start, target and bases), and the answer a fresh navigator gives.
    #[test]
    fn a_repeated_contact_search_gives_the_answer_of_its_own_inputs() {
        let table = Table::empty(24.0, 24.0);
        let nav = Navigator::new(&table, 0.5);
        let target = Goal::Base(Circle::new(Vec2::new(18.0, 12.0), 0.5));
        let from = Vec2::new(4.0, 12.0);
        let open: Vec<Circle> = Vec::new();
        let blocked = vec![Circle::new(Vec2::new(11.0, 12.0), 1.0)];
        let straight = nav.route_to_contact(from, &target, &open).expect("a route");
        let around = nav
            .route_to_contact(from, &target, &blocked)
            .expect("a route");
        assert_eq!(straight.waypoints.len(), 2, "nothing in the way");
        assert!(around.waypoints.len() > 2 && around.length > straight.length);
        for _ in 0..2 {
            assert_eq!(
                nav.route_to_contact(from, &target, &open),
                Some(straight.clone())
            );
            assert_eq!(
                nav.route_to_contact(from, &target, &blocked),
                Some(around.clone())
            );
        }
        let elsewhere = Vec2::new(4.0, 14.0);
        assert_eq!(
            nav.route_to_contact(elsewhere, &target, &open),
            Navigator::new(&table, 0.5).route_to_contact(elsewhere, &target, &open)
        );
        // The target hemmed in all round: no route, found again without a search.
        let ring: Vec<Circle> = (0..8)
            .map(|k| {
                let a = f64::from(k) * PI / 4.0;
                Circle::new(Vec2::new(18.0, 12.0) + Vec2::from_angle(a) * 1.0, 0.5)
            })
            .collect();
        assert_eq!(nav.route_to_contact(from, &target, &ring), None);
        assert_eq!(nav.route_to_contact(from, &target, &ring), None, "again");
        assert!(nav.route_to_contact(from, &target, &open).is_some());
    }

    #[test]
    fn navigator_is_shareable_and_routes_can_be_followed() {
        fn shareable<T: Send + Sync + Clone>() {}
        shareable::<Navigator>();
        let r = Route {
            waypoints: vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(3.0, 0.0),
                Vec2::new(3.0, 4.0),
            ],
            length: 7.0,
        };
        assert_eq!(r.point_at(-1.0), Vec2::new(0.0, 0.0));
        assert_eq!(r.point_at(1.5), Vec2::new(1.5, 0.0));
        assert_eq!(r.point_at(5.0), Vec2::new(3.0, 2.0));
        assert_eq!(r.point_at(70.0), Vec2::new(3.0, 4.0));
    }

    /// The contact-spot fallback as it was before it skipped any spot: every spot searched, the
    /// first shortest route kept.
    fn every_spot(nav: &Navigator, from: Vec2, c: &Circle, bases: &[Circle]) -> Option<Route> {
        let mut all = bases.to_vec();
        if !all.contains(c) {
            all.push(*c);
        }
        (0..32)
            .filter_map(|k| {
                let a = f64::from(k) * 2.0 * PI / 32.0;
                nav.route(from, c.c + Vec2::from_angle(a) * (c.r + nav.r), &all)
            })
            .min_by(|a, b| a.length.total_cmp(&b.length))
    }

    /// A table with one building, for the shortcut tests.
    fn one_building() -> Navigator {
        let mut t = Table::empty(24.0, 24.0);
        t.buildings.push(BuildingSite {
            name: "x".into(),
            rect: Rect::centered(Vec2::new(12.0, 18.0), 6.0, 4.0),
        });
        Navigator::new(&t, 0.5)
    }

    #[test]
    fn a_base_hemmed_in_on_every_side_is_out_of_reach_without_a_search() {
        let nav = one_building();
        let target = Circle {
            c: Vec2::new(8.0, 8.0),
            r: 0.5,
        };
        // Eight bases in contact all round it: no spot where a 1" base could touch it is free.
        let ring: Vec<Circle> = (0..8)
            .map(|k| Circle {
                c: target.c + Vec2::from_angle(f64::from(k) * PI / 4.0) * 1.0,
                r: 0.5,
            })
            .collect();
        let from = Vec2::new(2.0, 2.0);
        assert!(nav.contact_blocked(from, &Goal::Base(target), &ring));
        assert!(nav
            .route_to_contact(from, &Goal::Base(target), &ring)
            .is_none());
        // What the full search and every spot say, without the shortcut.
        assert!(nav
            .search(from, Target::Contact(&Goal::Base(target)), &ring)
            .is_none());
        assert!(every_spot(&nav, from, &target, &ring).is_none());
        // Without the three on its east side there is a way in: not refused.
        let open = &ring[2..7];
        assert!(!nav.contact_blocked(from, &Goal::Base(target), open));
        assert!(nav
            .route_to_contact(from, &Goal::Base(target), open)
            .is_some());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// The shortcuts answer as the searches they skip: a blocked contact has no route by the
        /// contact search or at any spot, and the spot fallback finds what searching every spot finds.
        #[test]
        fn the_shortcuts_change_no_answer(
            spots in proptest::collection::vec((0.0f64..std::f64::consts::TAU, 0.9f64..1.4), 3..9),
            fx in 1.0f64..23.0,
            fy in 1.0f64..12.0,
        ) {
            let nav = one_building();
            let target = Circle { c: Vec2::new(10.0, 10.0), r: 0.5 };
            let bases: Vec<Circle> = spots
                .iter()
                .map(|&(a, d)| Circle { c: target.c + Vec2::from_angle(a) * d, r: 0.5 })
                .collect();
            let from = Vec2::new(fx, fy);
            let goal = Goal::Base(target);
            if nav.is_legal(from, &bases) && from.dist(target.c) > 1.0 {
                if nav.contact_blocked(from, &goal, &bases) {
                    proptest::prop_assert!(nav.search(from, Target::Contact(&goal), &bases).is_none());
                    proptest::prop_assert!(every_spot(&nav, from, &target, &bases).is_none());
                }
                proptest::prop_assert_eq!(
                    nav.route_to_contact_spots(from, &target, &bases, None),
                    every_spot(&nav, from, &target, &bases)
                );
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The polygon leg test answers as the distance it replaces: neither end inside, every edge at
        /// least `need` away.
        #[test]
        fn the_polygon_leg_test_is_the_edge_distance(
            ax in 0.0f64..12.0, ay in 0.0f64..12.0, bx in 0.0f64..12.0, by in 0.0f64..12.0,
            w in 0.5f64..5.0, h in 0.5f64..5.0, need in 0.05f64..1.5,
        ) {
            let pts = Rect::centered(Vec2::new(6.0, 6.0), w, h).corners();
            let s = Segment::new(Vec2::new(ax, ay), Vec2::new(bx, by));
            let n = pts.len();
            let by_edges = (0..n).all(|i| {
                crate::geometry::shapes::segment_segment_dist(&s, &Segment::new(pts[i], pts[(i + 1) % n]))
                    >= need
            });
            let outside = !poly_contains(&pts, s.a) && !poly_contains(&pts, s.b);
            proptest::prop_assert_eq!(poly_keeps(&s, &pts, need), outside && by_edges);
        }

        /// A leg tangent at a building's ring node (the case the one-side shortcut is for), against the
        /// same distance, with the clearance as it is tested.
        #[test]
        fn legs_tangent_at_a_ring_node_agree_too(k in 0usize..16, a in 0.0f64..std::f64::consts::TAU, l in 0.1f64..20.0) {
            let pts = Rect::centered(Vec2::new(12.0, 12.0), 6.0, 4.0).corners();
            let ring = poly_ring(&pts, 0.5);
            let s = Segment::new(ring[k], ring[k] + Vec2::from_angle(a) * l);
            let need = 0.5 - LEGAL_TOL;
            let by_edges = (0..pts.len()).all(|i| {
                crate::geometry::shapes::segment_segment_dist(&s, &Segment::new(pts[i], pts[(i + 1) % 4]))
                    >= need
            });
            let outside = !poly_contains(&pts, s.a) && !poly_contains(&pts, s.b);
            proptest::prop_assert_eq!(poly_keeps(&s, &pts, need), outside && by_edges);
        }

        /// A box a ring node rejects holds no point the node is tangent to.
        #[test]
        fn a_rejected_box_holds_no_tangent_point(
            k in 0usize..BASE_NODES,
            x in -6.0f64..6.0, y in -6.0f64..6.0, w in 0.0f64..4.0, h in 0.0f64..4.0,
            fx in 0.0f64..=1.0, fy in 0.0f64..=1.0,
        ) {
            let ring = circle_ring(Vec2::new(0.0, 0.0), 1.0);
            let mut nodes = Vec::new();
            ring_nodes(&ring, Vec2::new(-50.0, -50.0), Vec2::new(50.0, 50.0), &mut nodes);
            let node = nodes[k];
            let bb = Rect::new(Vec2::new(x, y), Vec2::new(x + w, y + h));
            if node.rejects_box(&bb) {
                for p in bb.corners().into_iter().chain([bb.min + (bb.max - bb.min) * 0.5,
                    Vec2::new(x + w * fx, y + h * fy)]) {
                    proptest::prop_assert!(!node.tangent_to(p));
                }
            }
        }
    }

    #[test]
    fn straight_when_clear() {
        let mut t = Table::empty(36.0, 36.0);
        t.buildings.push(BuildingSite {
            name: "x".into(),
            rect: Rect::centered(Vec2::new(18.0, 18.0), 6.0, 4.0),
        });
        let nav = Navigator::new(&t, 0.5);
        let r = nav
            .route(Vec2::new(2.0, 2.0), Vec2::new(30.0, 4.0), &[])
            .unwrap();
        assert_eq!(r.waypoints.len(), 2);
    }
}
