//! The seeded table generator (core rules Ch. IV setup steps 3–4, SUPPLEMENT §2) and its validator.
//!
//! Owns placing buildings and terrain from a `TableSpec` and checking a table against it. Determinism:
//! the only randomness is `ChaCha8Rng::seed_from_u64(seed)`, read through `next_u64()` and turned into
//! numbers by this module's own portable sampling (never rand's distributions, whose outputs may change
//! between versions). Same seed and spec ⇒ identical table. Shapes are built with correctly rounded IEEE
//! operations only (+ − × ÷ √, no `sin`/`cos`, whose last bits vary between platforms' maths libraries), so
//! a table is also the same on every platform; only the route check goes through the navigator, which
//! does use trigonometry for its node placement. It never decides anything about the game played on it.

use super::path::{Goal, Navigator};
use super::shapes::{
    polygon_polygon_dist, rect_polygon_dist, rect_rect_gap, segment_polygon_dist,
    segment_rect_dist, segment_segment_dist, Polygon, Rect, Segment, Vec2,
};
use super::table::{standard_layout, BuildingSite, Table, Terrain, TerrainKind, TerrainShape};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// What a generated table must satisfy. The numbers come from the rosters; `Default` holds the rulebook's
/// values and the five SUPPLEMENT §1 buildings (for tests).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableSpec {
    /// Table width in inches (36).
    pub width: f64,
    /// Table height in inches (36).
    pub height: f64,
    /// (name, width, height); the first is the Town Hall. A building may be turned 90°.
    pub buildings: Vec<(String, f64, f64)>,
    /// The Town Hall's centre is within this distance of the table's centre (6").
    pub town_hall_from_centre: f64,
    /// Every other building is within this distance of the Town Hall, outline to outline (8").
    pub cluster: f64,
    /// Every two buildings are at least this far apart, outline to outline (3").
    pub min_building_gap: f64,
    /// Number of terrain pieces, inclusive range (6–10).
    pub terrain_min: usize,
    /// See `terrain_min`.
    pub terrain_max: usize,
    /// The base radius that must have a route from every edge to the Town Hall (0.5: a 1" base).
    pub route_radius: f64,
    /// Free space kept around each building, also between buildings and the table edge (1.5").
    pub terrain_clearance: f64,
    /// Least distance between two terrain pieces (1.5").
    pub terrain_spacing: f64,
    /// An area piece measures this much across, as (min, max) (2"–5").
    pub area_across: (f64, f64),
    /// A wall or hedge is this long, as (min, max) (3"–6").
    pub line_length: (f64, f64),
    /// The kinds a piece is drawn from, uniformly (repeat a kind to weight it). Default: all seven.
    pub terrain_kinds: Vec<TerrainKind>,
}

impl Default for TableSpec {
    fn default() -> Self {
        let b = |n: &str, w: f64, h: f64| (n.to_string(), w, h);
        TableSpec {
            width: 36.0,
            height: 36.0,
            buildings: vec![
                b("Town Hall", 6.0, 4.0),
                b("Forge", 4.0, 3.0),
                b("Temple", 4.0, 4.0),
                b("Watchtower", 3.0, 3.0),
                b("Stable", 5.0, 3.0),
            ],
            town_hall_from_centre: 6.0,
            cluster: 8.0,
            min_building_gap: 3.0,
            terrain_min: 6,
            terrain_max: 10,
            route_radius: 0.5,
            terrain_clearance: 1.5,
            terrain_spacing: 1.5,
            area_across: (2.0, 5.0),
            line_length: (3.0, 6.0),
            terrain_kinds: TerrainKind::ALL.to_vec(),
        }
    }
}

/// Portable sampling on top of ChaCha8's raw 64-bit output.
struct Draw(ChaCha8Rng);

impl Draw {
    /// Uniform in [0, 1) with 53 random bits.
    fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// Uniform in [a, b).
    fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }
    /// Uniform integer in [0, n), by rejection (no modulo bias).
    fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0);
        let limit = (u64::MAX / n) * n;
        loop {
            let x = self.0.next_u64();
            if x < limit {
                return x % n;
            }
        }
    }
    fn coin(&mut self) -> bool {
        self.0.next_u64() >> 63 == 1
    }
    /// Uniform in the unit disc, by rejection.
    fn in_disc(&mut self) -> Vec2 {
        loop {
            let v = Vec2::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            if v.len_sq() <= 1.0 {
                return v;
            }
        }
    }
    /// A uniformly random direction, by rejection and normalisation (no trigonometry).
    fn unit_vector(&mut self) -> Vec2 {
        loop {
            let v = self.in_disc();
            let l2 = v.len_sq();
            if l2 > 0.01 {
                return v / l2.sqrt();
            }
        }
    }
}

/// Full rebuilds of the buildings before falling back to the standard layout.
const BUILDING_RESTARTS: usize = 50;
/// Tries per building position.
const BUILDING_TRIES: usize = 200;
/// Tries per terrain piece position.
const PIECE_TRIES: usize = 60;
/// Whole-terrain regenerations when some edge has no route, before dropping impassable pieces.
const TERRAIN_RESTARTS: usize = 20;
/// Start points tried along each edge for the route check.
const EDGE_SAMPLES: usize = 9;

/// Generates a table from `seed`: buildings per Ch. IV step 4, then 6–10 terrain pieces (SUPPLEMENT §2),
/// regenerated until every edge has a route to the Town Hall (bounded, then impassable pieces are dropped
/// from the last one placed, which can leave fewer than `terrain_min` pieces — never observed with the
/// default spec). Deterministic in (seed, spec).
pub fn generate(seed: u64, spec: &TableSpec) -> Table {
    let mut rng = Draw(ChaCha8Rng::seed_from_u64(seed));
    let mut table = Table::empty(spec.width, spec.height);
    table.buildings = place_buildings(&mut rng, spec)
        .unwrap_or_else(|| standard_layout(&spec.buildings, spec.width, spec.height).buildings);
    for _ in 0..TERRAIN_RESTARTS {
        table.terrain = place_terrain(&mut rng, spec, &table.buildings);
        if edges_route(&table, spec.route_radius) {
            return table;
        }
    }
    while !edges_route(&table, spec.route_radius) {
        match table.terrain.iter().rposition(|t| t.kind.is_impassable()) {
            Some(i) => {
                table.terrain.remove(i);
            }
            None => break,
        }
    }
    table
}

fn place_buildings(rng: &mut Draw, spec: &TableSpec) -> Option<Vec<BuildingSite>> {
    let (w, h) = (spec.width, spec.height);
    let margin = spec.terrain_clearance;
    let inside = |r: &Rect| {
        r.min.x >= margin && r.min.y >= margin && r.max.x <= w - margin && r.max.y <= h - margin
    };
    let centre = Vec2::new(w * 0.5, h * 0.5);
    let (th_name, th_w, th_h) = spec.buildings.first()?;
    'restart: for _ in 0..BUILDING_RESTARTS {
        let (tw, thh) = if rng.coin() {
            (*th_h, *th_w)
        } else {
            (*th_w, *th_h)
        };
        let offset = rng.in_disc() * spec.town_hall_from_centre;
        let th = Rect::centered(centre + offset, tw, thh);
        if !inside(&th) {
            continue;
        }
        let mut sites = vec![BuildingSite {
            name: th_name.clone(),
            rect: th,
        }];
        for (name, bw, bh) in &spec.buildings[1..] {
            let mut placed = None;
            for _ in 0..BUILDING_TRIES {
                let (bw, bh) = if rng.coin() { (*bh, *bw) } else { (*bw, *bh) };
                let reach = spec.cluster + bw.max(bh);
                let c = Vec2::new(
                    rng.range(th.min.x - reach, th.max.x + reach),
                    rng.range(th.min.y - reach, th.max.y + reach),
                );
                let rect = Rect::centered(c, bw, bh);
                if inside(&rect)
                    && rect_rect_gap(&th, &rect) <= spec.cluster
                    && sites
                        .iter()
                        .all(|s| rect_rect_gap(&s.rect, &rect) >= spec.min_building_gap)
                {
                    placed = Some(rect);
                    break;
                }
            }
            match placed {
                Some(rect) => sites.push(BuildingSite {
                    name: name.clone(),
                    rect,
                }),
                None => continue 'restart,
            }
        }
        return Some(sites);
    }
    None
}

fn place_terrain(rng: &mut Draw, spec: &TableSpec, buildings: &[BuildingSite]) -> Vec<Terrain> {
    let span = (spec.terrain_max.max(spec.terrain_min) - spec.terrain_min) as u64 + 1;
    let count = spec.terrain_min + rng.below(span) as usize;
    let mut pieces: Vec<Terrain> = Vec::with_capacity(count);
    // Bounded: each wanted piece gets a few kinds, each kind PIECE_TRIES positions.
    for _ in 0..count * 4 {
        if pieces.len() >= count {
            break;
        }
        let Some(&kind) = spec
            .terrain_kinds
            .get(rng.below(spec.terrain_kinds.len().max(1) as u64) as usize)
        else {
            break;
        };
        for _ in 0..PIECE_TRIES {
            let piece = if kind.is_linear() {
                random_line(rng, spec, kind)
            } else {
                random_area(rng, spec, kind)
            };
            if piece_fits(&piece, spec, buildings, &pieces) {
                pieces.push(piece);
                break;
            }
        }
    }
    pieces
}

/// A random convex polygon measuring `across` (its diameter) within the table: 6 or 8 spokes of a
/// jittered star, stretched and turned at random, then its convex hull.
fn random_area(rng: &mut Draw, spec: &TableSpec, kind: TerrainKind) -> Terrain {
    let across = rng.range(spec.area_across.0, spec.area_across.1);
    let spokes: &[Vec2] = if rng.coin() { &SPOKES_6 } else { &SPOKES_8 };
    let turn = rng.unit_vector();
    let stretch = rng.range(0.6, 1.0); // elongation along the turned x axis
    let mut pts = Vec::with_capacity(spokes.len());
    for d in spokes {
        let p = *d * rng.range(0.7, 1.0) + rng.in_disc() * 0.2;
        let (x, y) = (p.x, p.y * stretch);
        pts.push(Vec2::new(x * turn.x - y * turn.y, x * turn.y + y * turn.x));
    }
    let hull = Polygon::convex_hull(&pts);
    let scale = across / hull.diameter().max(1e-9);
    let half = across * 0.5;
    let c = Vec2::new(
        rng.range(half, spec.width - half),
        rng.range(half, spec.height - half),
    );
    let centroid = hull.centroid();
    let poly = Polygon {
        pts: hull
            .pts
            .iter()
            .map(|&p| c + (p - centroid) * scale)
            .collect(),
    };
    Terrain::area(kind, poly)
}

const H2: f64 = std::f64::consts::FRAC_1_SQRT_2;
/// sin 60°, written out so that no platform's `sin` is involved.
const S3: f64 = 0.866_025_403_784_438_6;
const SPOKES_6: [Vec2; 6] = [
    Vec2::new(1.0, 0.0),
    Vec2::new(0.5, S3),
    Vec2::new(-0.5, S3),
    Vec2::new(-1.0, 0.0),
    Vec2::new(-0.5, -S3),
    Vec2::new(0.5, -S3),
];
const SPOKES_8: [Vec2; 8] = [
    Vec2::new(1.0, 0.0),
    Vec2::new(H2, H2),
    Vec2::new(0.0, 1.0),
    Vec2::new(-H2, H2),
    Vec2::new(-1.0, 0.0),
    Vec2::new(-H2, -H2),
    Vec2::new(0.0, -1.0),
    Vec2::new(H2, -H2),
];

fn random_line(rng: &mut Draw, spec: &TableSpec, kind: TerrainKind) -> Terrain {
    let len = rng.range(spec.line_length.0, spec.line_length.1);
    let dir = rng.unit_vector() * (len * 0.5);
    let half = len * 0.5;
    let c = Vec2::new(
        rng.range(half, spec.width - half),
        rng.range(half, spec.height - half),
    );
    Terrain::line(kind, Segment::new(c - dir, c + dir))
}

/// Distance between two terrain pieces (0 when they touch or overlap).
fn piece_dist(a: &TerrainShape, b: &TerrainShape) -> f64 {
    match (a, b) {
        (TerrainShape::Area(p), TerrainShape::Area(q)) => polygon_polygon_dist(p, q),
        (TerrainShape::Area(p), TerrainShape::Line(s))
        | (TerrainShape::Line(s), TerrainShape::Area(p)) => segment_polygon_dist(s, p),
        (TerrainShape::Line(s), TerrainShape::Line(t)) => segment_segment_dist(s, t),
    }
}

fn piece_building_dist(t: &TerrainShape, r: &Rect) -> f64 {
    match t {
        TerrainShape::Area(p) => rect_polygon_dist(r, p),
        TerrainShape::Line(s) => segment_rect_dist(s, r),
    }
}

fn piece_inside(t: &TerrainShape, w: f64, h: f64) -> bool {
    let ok = |p: &Vec2| p.x >= 0.0 && p.y >= 0.0 && p.x <= w && p.y <= h;
    match t {
        TerrainShape::Area(p) => p.pts.iter().all(ok),
        TerrainShape::Line(s) => ok(&s.a) && ok(&s.b),
    }
}

fn piece_fits(
    piece: &Terrain,
    spec: &TableSpec,
    buildings: &[BuildingSite],
    placed: &[Terrain],
) -> bool {
    piece_inside(&piece.shape, spec.width, spec.height)
        && buildings
            .iter()
            .all(|b| piece_building_dist(&piece.shape, &b.rect) >= spec.terrain_clearance)
        && placed
            .iter()
            .all(|t| piece_dist(&piece.shape, &t.shape) >= spec.terrain_spacing)
}

/// Start points for the route check along each edge (north, east, south, west), centre first.
fn edge_starts(table: &Table, r: f64) -> [Vec<Vec2>; 4] {
    let order: Vec<f64> = {
        // 0.5, then alternating outward: 0.5, 0.375, 0.625, 0.25, 0.75, ...
        let mut v = vec![0.5];
        for k in 1..=EDGE_SAMPLES / 2 {
            let d = k as f64 / (EDGE_SAMPLES as f64 - 1.0);
            v.push(0.5 - d);
            v.push(0.5 + d);
        }
        v
    };
    let along = |lo: f64, hi: f64| order.iter().map(move |f| lo + (hi - lo) * f);
    let (w, h) = (table.width, table.height);
    [
        along(r, w - r).map(|x| Vec2::new(x, h - r)).collect(),
        along(r, h - r).map(|y| Vec2::new(w - r, y)).collect(),
        along(r, w - r).map(|x| Vec2::new(x, r)).collect(),
        along(r, h - r).map(|y| Vec2::new(r, y)).collect(),
    ]
}

/// For each edge (north, east, south, west), a route from some point of it to contact with the Town Hall
/// (`buildings[0]`) for a base of radius `r`, if any.
pub fn edge_routes(table: &Table, r: f64) -> [Option<super::path::Route>; 4] {
    let Some(th) = table.buildings.first() else {
        return [None, None, None, None];
    };
    let nav = Navigator::new(table, r);
    let goal = Goal::Building(th.rect);
    edge_starts(table, r).map(|starts| {
        starts
            .into_iter()
            .filter(|&p| nav.is_legal(p, &[]))
            .find_map(|p| nav.route_to_contact(p, &goal, &[]))
    })
}

fn edges_route(table: &Table, r: f64) -> bool {
    // Without a Town Hall there is nothing to reach.
    table.buildings.is_empty() || edge_routes(table, r).iter().all(Option::is_some)
}

/// Checks every placement rule of `spec` on `table`; the error names the first broken rule.
pub fn validate_table(table: &Table, spec: &TableSpec) -> Result<(), String> {
    if table.width != spec.width || table.height != spec.height {
        return Err(format!(
            "table is {}×{}, spec says {}×{}",
            table.width, table.height, spec.width, spec.height
        ));
    }
    if table.buildings.len() != spec.buildings.len() {
        return Err(format!(
            "{} buildings, spec lists {}",
            table.buildings.len(),
            spec.buildings.len()
        ));
    }
    for (site, (name, w, h)) in table.buildings.iter().zip(&spec.buildings) {
        let s = site.rect.size();
        let same = |a: f64, b: f64| (a - b).abs() < 1e-9;
        if site.name != *name
            || !((same(s.x, *w) && same(s.y, *h)) || (same(s.x, *h) && same(s.y, *w)))
        {
            return Err(format!(
                "building {} is {}×{}, spec says {} {}×{}",
                site.name, s.x, s.y, name, w, h
            ));
        }
        let m = spec.terrain_clearance - 1e-9;
        let r = &site.rect;
        if r.min.x < m || r.min.y < m || r.max.x > table.width - m || r.max.y > table.height - m {
            return Err(format!(
                "{} is within {}\" of the table edge",
                site.name, spec.terrain_clearance
            ));
        }
    }
    let Some(th) = table.buildings.first() else {
        return Ok(());
    };
    let d = th.rect.center().dist(table.center());
    if d > spec.town_hall_from_centre + 1e-9 {
        return Err(format!(
            "{} centre is {d:.3}\" from the table centre",
            th.name
        ));
    }
    for (i, a) in table.buildings.iter().enumerate() {
        if i > 0 {
            let g = rect_rect_gap(&th.rect, &a.rect);
            if g > spec.cluster + 1e-9 {
                return Err(format!("{} is {g:.3}\" from {}", a.name, th.name));
            }
        }
        for b in &table.buildings[i + 1..] {
            let g = rect_rect_gap(&a.rect, &b.rect);
            if g < spec.min_building_gap - 1e-9 {
                return Err(format!("{} and {} are {g:.3}\" apart", a.name, b.name));
            }
        }
    }
    let n = table.terrain.len();
    if n < spec.terrain_min || n > spec.terrain_max {
        return Err(format!(
            "{n} terrain pieces, spec says {}–{}",
            spec.terrain_min, spec.terrain_max
        ));
    }
    for (i, t) in table.terrain.iter().enumerate() {
        match &t.shape {
            TerrainShape::Area(p) => {
                if t.kind.is_linear()
                    || p.pts.len() < 3
                    || super::shapes::signed_area(&p.pts) <= 0.0
                {
                    return Err(format!(
                        "terrain {i} ({:?}) is not a counter-clockwise area",
                        t.kind
                    ));
                }
                let across = p.diameter();
                if across < spec.area_across.0 - 1e-9 || across > spec.area_across.1 + 1e-9 {
                    return Err(format!("terrain {i} is {across:.3}\" across"));
                }
                let n = p.pts.len();
                let convex = (0..n).all(|k| {
                    (p.pts[(k + 1) % n] - p.pts[k]).cross(p.pts[(k + 2) % n] - p.pts[(k + 1) % n])
                        > 0.0
                });
                if !convex {
                    return Err(format!("terrain {i} is not convex"));
                }
            }
            TerrainShape::Line(s) => {
                let l = s.len();
                if !t.kind.is_linear()
                    || l < spec.line_length.0 - 1e-9
                    || l > spec.line_length.1 + 1e-9
                {
                    return Err(format!(
                        "terrain {i} ({:?}) is a bad line of length {l:.3}",
                        t.kind
                    ));
                }
            }
        }
        if !piece_inside(&t.shape, table.width, table.height) {
            return Err(format!("terrain {i} leaves the table"));
        }
        for b in &table.buildings {
            let g = piece_building_dist(&t.shape, &b.rect);
            if g < spec.terrain_clearance - 1e-9 {
                return Err(format!("terrain {i} is {g:.3}\" from {}", b.name));
            }
        }
        for (j, u) in table.terrain.iter().enumerate().skip(i + 1) {
            let g = piece_dist(&t.shape, &u.shape);
            if g < spec.terrain_spacing - 1e-9 {
                return Err(format!("terrain {i} and {j} are {g:.3}\" apart"));
            }
        }
    }
    let names = ["north", "east", "south", "west"];
    for (k, route) in edge_routes(table, spec.route_radius).iter().enumerate() {
        if route.is_none() {
            return Err(format!(
                "no route from the {} edge to {}",
                names[k], th.name
            ));
        }
    }
    Ok(())
}
