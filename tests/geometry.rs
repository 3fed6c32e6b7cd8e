//! Geometry acceptance tests: gaps, contact, line of sight and Cover, straight moves, routes, tables.

use proptest::prelude::*;
use village::geometry::*;

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn base(x: f64, y: f64, r: f64) -> Circle {
    Circle::new(v(x, y), r)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// A 36" table with the given buildings (rects) and terrain.
fn table(buildings: &[Rect], terrain: Vec<Terrain>) -> Table {
    let mut t = Table::empty(36.0, 36.0);
    for (i, r) in buildings.iter().enumerate() {
        t.buildings.push(BuildingSite {
            name: format!("b{i}"),
            rect: *r,
        });
    }
    t.terrain = terrain;
    t
}

fn square(c: Vec2, half: f64) -> Polygon {
    Polygon::new(vec![
        c + v(-half, -half),
        c + v(half, -half),
        c + v(half, half),
        c + v(-half, half),
    ])
}

// ---------------------------------------------------------------------------------------------
// Distances and contact
// ---------------------------------------------------------------------------------------------

#[test]
fn circle_circle_gap_known_values() {
    assert!(close(
        circle_circle_gap(&base(0.0, 0.0, 0.5), &base(3.0, 4.0, 1.0)),
        3.5,
        1e-12
    ));
    // overlapping: negative depth
    assert!(close(
        circle_circle_gap(&base(0.0, 0.0, 0.5), &base(0.5, 0.0, 0.5)),
        -0.5,
        1e-12
    ));
    // touching
    assert!(close(
        circle_circle_gap(&base(0.0, 0.0, 0.75), &base(1.75, 0.0, 1.0)),
        0.0,
        1e-12
    ));
}

#[test]
fn circle_rect_gap_side_and_corner() {
    let r = Rect::new(v(0.0, 0.0), v(2.0, 2.0));
    assert!(
        close(circle_rect_gap(&base(4.0, 1.0, 0.5), &r), 1.5, 1e-12),
        "east side"
    );
    assert!(
        close(circle_rect_gap(&base(1.0, -3.0, 0.5), &r), 2.5, 1e-12),
        "south side"
    );
    assert!(
        close(circle_rect_gap(&base(5.0, 6.0, 0.5), &r), 4.5, 1e-12),
        "north-east corner (3,4,5)"
    );
    assert!(
        close(circle_rect_gap(&base(-3.0, -4.0, 1.0), &r), 4.0, 1e-12),
        "south-west corner"
    );
    assert!(
        circle_rect_gap(&base(1.0, 1.0, 0.5), &r) < 0.0,
        "centre inside"
    );
    let centered = Rect::centered(v(18.0, 18.0), 6.0, 4.0);
    assert_eq!(centered.min, v(15.0, 16.0));
    assert_eq!(centered.size(), v(6.0, 4.0));
    assert_eq!(centered.center(), v(18.0, 18.0));
}

#[test]
fn circle_polygon_and_segment_gaps() {
    // right triangle (0,0) (4,0) (0,4): hypotenuse x + y = 4
    let tri = Polygon::new(vec![v(0.0, 0.0), v(0.0, 4.0), v(4.0, 0.0)]); // clockwise in, fixed to CCW
    assert!(tri.contains(v(1.0, 1.0)));
    assert!(!tri.contains(v(3.0, 3.0)));
    let d = (6.0 - 4.0) / 2f64.sqrt();
    assert!(close(
        circle_polygon_gap(&base(3.0, 3.0, 0.5), &tri),
        d - 0.5,
        1e-12
    ));
    assert!(close(
        circle_polygon_gap(&base(-2.0, 2.0, 0.5), &tri),
        1.5,
        1e-12
    ));
    assert!(
        close(circle_polygon_gap(&base(7.0, -4.0, 1.0), &tri), 4.0, 1e-12),
        "vertex (4,0)"
    );
    let wall = Segment::new(v(0.0, 0.0), v(4.0, 0.0));
    assert!(close(
        circle_segment_gap(&base(2.0, 3.0, 0.5), &wall),
        2.5,
        1e-12
    ));
    assert!(
        close(circle_segment_gap(&base(7.0, 4.0, 0.5), &wall), 4.5, 1e-12),
        "beyond the end"
    );
    assert!(close(point_segment_dist(v(-3.0, 4.0), &wall), 5.0, 1e-12));
    let other = Segment::new(v(6.0, 1.0), v(6.0, 5.0));
    assert!(close(
        segment_segment_dist(&wall, &other),
        5f64.sqrt(),
        1e-12
    ));
    let crossing = Segment::new(v(1.0, -1.0), v(1.0, 1.0));
    assert_eq!(segment_segment_dist(&wall, &crossing), 0.0);
}

#[test]
fn rect_rect_gap_for_buildings() {
    let a = Rect::new(v(0.0, 0.0), v(4.0, 3.0));
    let b = Rect::new(v(7.0, 0.0), v(10.0, 3.0));
    assert!(close(rect_rect_gap(&a, &b), 3.0, 1e-12));
    let c = Rect::new(v(7.0, 7.0), v(9.0, 9.0));
    assert!(close(rect_rect_gap(&a, &c), 5.0, 1e-12));
    let d = Rect::new(v(3.0, 1.0), v(5.0, 2.0));
    assert!(rect_rect_gap(&a, &d) < 0.0);
}

#[test]
fn contact_tolerance() {
    let tol = DEFAULT_CONTACT_TOL;
    assert_eq!(tol, 0.05);
    assert!(in_contact(0.04, tol));
    assert!(!in_contact(0.06, tol));
    let a = base(0.0, 0.0, 0.5);
    assert!(in_contact(
        circle_circle_gap(&a, &base(1.04, 0.0, 0.5)),
        tol
    ));
    assert!(!in_contact(
        circle_circle_gap(&a, &base(1.06, 0.0, 0.5)),
        tol
    ));
}

// ---------------------------------------------------------------------------------------------
// Line of sight and Cover
// ---------------------------------------------------------------------------------------------

const OBS: Circle = Circle {
    c: Vec2 { x: 5.0, y: 18.0 },
    r: 0.5,
};
const TGT: Circle = Circle {
    c: Vec2 { x: 25.0, y: 18.0 },
    r: 0.5,
};

#[test]
fn open_table_is_clear() {
    assert_eq!(sight(&table(&[], vec![]), &OBS, &TGT, &[]), Sight::Clear);
}

#[test]
fn building_blocks_and_partly_covers() {
    let t = table(&[Rect::centered(v(15.0, 18.0), 4.0, 4.0)], vec![]);
    assert_eq!(sight(&t, &OBS, &TGT, &[]), Sight::Blocked);
    // only the northern tangent line is blocked: the building's south side at y = 18.2 (tangent line
    // at x = 15 is about y = 18.25, the centre line at 18)
    let t = table(&[Rect::new(v(14.0, 18.2), v(16.0, 22.0))], vec![]);
    assert_eq!(sight(&t, &OBS, &TGT, &[]), Sight::Cover);
    // a building beside the line does nothing
    let t = table(&[Rect::new(v(14.0, 19.0), v(16.0, 22.0))], vec![]);
    assert_eq!(sight(&t, &OBS, &TGT, &[]), Sight::Clear);
}

#[test]
fn rocks_block() {
    let t = table(
        &[],
        vec![Terrain::area(
            TerrainKind::Rocks,
            square(v(15.0, 18.0), 2.0),
        )],
    );
    assert_eq!(sight(&t, &OBS, &TGT, &[]), Sight::Blocked);
}

#[test]
fn wood_blocks_through_but_not_from_inside() {
    let wood = Terrain::area(TerrainKind::Wood, square(v(15.0, 18.0), 2.0));
    let t = table(&[], vec![wood]);
    assert_eq!(
        sight(&t, &OBS, &TGT, &[]),
        Sight::Blocked,
        "line through the wood"
    );
    let inside = base(15.0, 18.0, 0.5);
    assert_eq!(
        sight(&t, &inside, &TGT, &[]),
        Sight::Clear,
        "observer inside sees out"
    );
    assert_eq!(
        sight(&t, &OBS, &inside, &[]),
        Sight::Cover,
        "target inside is in Cover"
    );
    assert!(in_wood(&t, v(15.0, 18.0)));
    assert!(!in_wood(&t, v(25.0, 18.0)));
}

#[test]
fn partial_wood_obstruction_is_cover() {
    // the wood's south edge at y = 18.2 cuts only the northern tangent line
    let poly = Polygon::new(vec![
        v(14.0, 18.2),
        v(16.0, 18.2),
        v(16.0, 21.0),
        v(14.0, 21.0),
    ]);
    let t = table(&[], vec![Terrain::area(TerrainKind::Wood, poly)]);
    assert_eq!(sight(&t, &OBS, &TGT, &[]), Sight::Cover);
}

#[test]
fn hill_pond_field_are_open() {
    for kind in [TerrainKind::Hill, TerrainKind::Pond, TerrainKind::Field] {
        let t = table(&[], vec![Terrain::area(kind, square(v(15.0, 18.0), 2.0))]);
        assert_eq!(sight(&t, &OBS, &TGT, &[]), Sight::Clear, "{kind:?}");
    }
    let t = table(
        &[],
        vec![Terrain::area(TerrainKind::Hill, square(v(15.0, 18.0), 2.0))],
    );
    assert!(on_hill(&t, v(15.5, 17.0)));
    assert!(!on_hill(&t, v(18.0, 17.0)));
}

#[test]
fn wall_and_hedge_cover_a_touching_target_across_them() {
    for kind in [TerrainKind::Wall, TerrainKind::Hedge] {
        // wall at x = 24.47, the target's base edge at 24.5: gap 0.03, and the line crosses it
        let wall = Terrain::line(kind, Segment::new(v(24.47, 15.0), v(24.47, 21.0)));
        let t = table(&[], vec![wall]);
        assert_eq!(
            sight(&t, &OBS, &TGT, &[]),
            Sight::Cover,
            "{kind:?} touching, crossed"
        );
        // the same wall 0.1 away from the base: not touching
        let far = Terrain::line(kind, Segment::new(v(24.4, 15.0), v(24.4, 21.0)));
        assert_eq!(
            sight(&table(&[], vec![far]), &OBS, &TGT, &[]),
            Sight::Clear,
            "{kind:?} not touching"
        );
        // touching but behind the target: the line does not cross it
        let behind = Terrain::line(kind, Segment::new(v(25.53, 15.0), v(25.53, 21.0)));
        assert_eq!(
            sight(&table(&[], vec![behind]), &OBS, &TGT, &[]),
            Sight::Clear,
            "{kind:?} behind"
        );
        // walls never block: a wall across the middle of the line
        let mid = Terrain::line(kind, Segment::new(v(15.0, 15.0), v(15.0, 21.0)));
        assert_eq!(
            sight(&table(&[], vec![mid]), &OBS, &TGT, &[]),
            Sight::Clear,
            "{kind:?} mid-way"
        );
    }
}

#[test]
fn extra_cover_segment_like_a_wall() {
    let t = table(&[], vec![]);
    let barricade = Segment::new(v(24.5, 16.5), v(24.5, 19.5));
    assert_eq!(sight(&t, &OBS, &TGT, &[barricade]), Sight::Cover);
    let behind = Segment::new(v(25.5, 16.5), v(25.5, 19.5));
    assert_eq!(sight(&t, &OBS, &TGT, &[behind]), Sight::Clear);
    let far = Segment::new(v(20.0, 16.5), v(20.0, 19.5));
    assert_eq!(sight(&t, &OBS, &TGT, &[far]), Sight::Clear);
    // the tolerance is the caller's: 0.03 away is contact at 0.05, not at 0.01
    let near = Segment::new(v(24.47, 16.5), v(24.47, 19.5));
    assert_eq!(sight_with_tol(&t, &OBS, &TGT, &[near], 0.05), Sight::Cover);
    assert_eq!(sight_with_tol(&t, &OBS, &TGT, &[near], 0.01), Sight::Clear);
}

#[test]
fn sight_lines_touch_the_target_tangentially() {
    let lines = sight_lines(OBS.c, &TGT);
    assert_eq!(lines.len(), 3);
    for l in &lines[1..] {
        assert!(close(l.b.dist(TGT.c), TGT.r, 1e-12));
        assert!(close((l.b - l.a).dot(l.b - TGT.c), 0.0, 1e-9), "tangent");
    }
}

// ---------------------------------------------------------------------------------------------
// Straight moves
// ---------------------------------------------------------------------------------------------

#[test]
fn move_stops_on_enemy_contact() {
    let t = table(&[], vec![]);
    let enemy = base(10.0, 5.3, 0.75);
    let out = straight_move(&t, &base(5.0, 5.0, 0.5), v(15.0, 5.0), &[enemy], &[]);
    assert_eq!(out.stopped, Some(Stop::Contact(0)));
    assert!(close(
        circle_circle_gap(&base(out.end.x, out.end.y, 0.5), &enemy),
        0.0,
        1e-9
    ));
    assert!(close(out.travelled, out.end.dist(v(5.0, 5.0)), 1e-12));
    assert!(out.end.x < 10.0);
}

#[test]
fn move_stops_at_building_side_and_corner() {
    let b = Rect::new(v(10.0, 4.0), v(14.0, 8.0));
    let t = table(&[b], vec![]);
    let out = straight_move(&t, &base(5.0, 6.0, 0.5), v(20.0, 6.0), &[], &[]);
    assert_eq!(out.stopped, Some(Stop::Building(0)));
    assert!(close(out.end.x, 9.5, 1e-9), "{:?}", out.end);
    // diagonal onto the south-west corner
    let out = straight_move(&t, &base(6.0, 0.0, 0.5), v(14.0, 8.0), &[], &[]);
    assert_eq!(out.stopped, Some(Stop::Building(0)));
    assert!(close(
        circle_rect_gap(&base(out.end.x, out.end.y, 0.5), &b),
        0.0,
        1e-9
    ));
    // a pass grazing the side at exactly gap 0 is not a stop
    let out = straight_move(&t, &base(5.0, 3.5, 0.5), v(20.0, 3.5), &[], &[]);
    assert_eq!(out.stopped, None);
}

#[test]
fn move_stops_at_rocks_not_at_wood() {
    let rocks = Terrain::area(TerrainKind::Rocks, square(v(12.0, 6.0), 1.0));
    let wood = Terrain::area(TerrainKind::Wood, square(v(8.0, 6.0), 1.0));
    let t = table(&[], vec![wood, rocks]);
    let out = straight_move(&t, &base(3.0, 6.0, 0.5), v(20.0, 6.0), &[], &[]);
    assert_eq!(out.stopped, Some(Stop::Terrain(1)));
    assert!(close(out.end.x, 10.5, 1e-9));
    assert!(touches_difficult(
        &t,
        &Segment::new(v(3.0, 6.0), out.end),
        0.5
    ));
    assert!(!touches_difficult(
        &t,
        &Segment::new(v(3.0, 3.0), v(20.0, 3.0)),
        0.5
    ));
}

#[test]
fn move_stops_at_table_edge_and_solid_models() {
    let t = table(&[], vec![]);
    let out = straight_move(&t, &base(30.0, 10.0, 0.75), v(40.0, 10.0), &[], &[]);
    assert_eq!(out.stopped, Some(Stop::TableEdge));
    assert!(close(out.end.x, 35.25, 1e-12));
    let out = straight_move(
        &t,
        &base(30.0, 10.0, 0.5),
        v(30.0, 20.0),
        &[],
        &[base(30.0, 15.0, 1.0)],
    );
    assert_eq!(out.stopped, Some(Stop::Model(0)));
    assert!(close(out.end.y, 13.5, 1e-9));
}

#[test]
fn move_that_misses_everything_reaches_dest() {
    let t = table(&[Rect::new(v(10.0, 10.0), v(14.0, 14.0))], vec![]);
    let out = straight_move(
        &t,
        &base(5.0, 5.0, 0.5),
        v(20.0, 5.0),
        &[base(12.0, 7.0, 0.5)],
        &[base(1.0, 1.0, 0.5)],
    );
    assert_eq!(
        out,
        MoveOutcome {
            end: v(20.0, 5.0),
            travelled: 15.0,
            stopped: None
        }
    );
}

#[test]
fn engaged_model_may_move_away_but_not_deeper() {
    let t = table(&[], vec![]);
    let enemy = base(11.0, 5.0, 0.5);
    let m = base(10.0, 5.0, 0.5); // in contact
    let away = straight_move(&t, &m, v(5.0, 5.0), &[enemy], &[]);
    assert_eq!(away.stopped, None);
    let along = straight_move(&t, &m, v(10.0, 9.0), &[enemy], &[]);
    assert_eq!(along.stopped, None);
    let into = straight_move(&t, &m, v(15.0, 5.5), &[enemy], &[]);
    assert_eq!(into.stopped, Some(Stop::Contact(0)));
    assert_eq!(into.travelled, 0.0);
}

#[test]
fn crossings_of_walls_and_hedges() {
    let t = table(
        &[],
        vec![
            Terrain::line(TerrainKind::Wall, Segment::new(v(10.0, 0.0), v(10.0, 10.0))),
            Terrain::line(
                TerrainKind::Hedge,
                Segment::new(v(20.0, 0.0), v(20.0, 10.0)),
            ),
            Terrain::area(TerrainKind::Field, square(v(15.0, 15.0), 1.0)),
        ],
    );
    assert_eq!(
        crossings(&t, &Segment::new(v(5.0, 5.0), v(25.0, 5.0)), 0.5),
        vec![0, 1]
    );
    assert_eq!(
        crossings(&t, &Segment::new(v(5.0, 5.0), v(15.0, 5.0)), 0.5),
        vec![0]
    );
    // touching the wall (gap 0) and walking away does not cross it
    assert!(crossings(&t, &Segment::new(v(9.5, 5.0), v(5.0, 5.0)), 0.5).is_empty());
    // ending with the base over the wall does
    assert_eq!(
        crossings(&t, &Segment::new(v(5.0, 5.0), v(9.8, 5.0)), 0.5),
        vec![0]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn straight_moves_never_overlap(
        sx in 1.0f64..35.0, sy in 1.0f64..35.0, dx in -5.0f64..41.0, dy in -5.0f64..41.0,
        ex in 2.0f64..34.0, ey in 2.0f64..34.0, fx in 2.0f64..34.0, fy in 2.0f64..34.0,
    ) {
        let t = table(
            &[Rect::new(v(14.0, 14.0), v(20.0, 18.0))],
            vec![Terrain::area(TerrainKind::Pond, Polygon::new(vec![v(5.0, 25.0), v(9.0, 24.0), v(8.0, 29.0)]))],
        );
        let mover = base(sx, sy, 0.5);
        let enemy = base(ex, ey, 0.75);
        let friend = base(fx, fy, 0.5);
        let legal = |p: Vec2| {
            let c = base(p.x, p.y, 0.5);
            circle_rect_gap(&c, &t.buildings[0].rect) >= -1e-9
                && circle_polygon_gap(&c, t.terrain[0].polygon().unwrap()) >= -1e-9
                && circle_circle_gap(&c, &enemy) >= -1e-9
                && circle_circle_gap(&c, &friend) >= -1e-9
        };
        prop_assume!(legal(mover.c));
        let out = straight_move(&t, &mover, v(dx, dy), &[enemy], &[friend]);
        prop_assert!(legal(out.end), "{:?}", out);
        prop_assert!(out.end.x >= 0.5 - 1e-9 && out.end.x <= 35.5 + 1e-9);
        prop_assert!(out.end.y >= 0.5 - 1e-9 && out.end.y <= 35.5 + 1e-9);
        if let Some(Stop::Contact(0)) = out.stopped {
            prop_assert!(circle_circle_gap(&base(out.end.x, out.end.y, 0.5), &enemy).abs() < 1e-9);
        }
        if out.stopped.is_none() {
            prop_assert_eq!(out.end, v(dx, dy));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

/// Asserts that each leg keeps the clearance from `rects` and `bases` and that no waypoint repeats.
fn assert_route_legal(route: &Route, r: f64, rects: &[Rect], bases: &[Circle]) {
    for leg in route.waypoints.windows(2) {
        let s = Segment::new(leg[0], leg[1]);
        for rect in rects {
            assert!(
                segment_rect_dist(&s, rect) - r >= -1e-6,
                "leg {s:?} cuts {rect:?}"
            );
        }
        for b in bases {
            assert!(
                point_segment_dist(b.c, &s) - r - b.r >= -1e-6,
                "leg {s:?} cuts {b:?}"
            );
        }
    }
    for (i, a) in route.waypoints.iter().enumerate() {
        for b in &route.waypoints[i + 1..] {
            assert!(a.dist(*b) > 1e-9, "repeated waypoint {a:?} in {route:?}");
        }
    }
    let sum: f64 = route.waypoints.windows(2).map(|w| w[0].dist(w[1])).sum();
    assert!(close(sum, route.length, 1e-9));
}

/// Shortest path for a point around a disc of radius `r` at `c` from `a`, leaving along the tangent and
/// arriving at angle `exit` (radians) on the circle: tangent length + arc.
fn tangent_and_arc(a: Vec2, c: Vec2, r: f64, exit: f64, ccw: bool) -> f64 {
    let d = a.dist(c);
    let beta = (r / d).acos();
    let phi = (a - c).angle();
    let touch = if ccw { phi + beta } else { phi - beta };
    let mut arc = if ccw { exit - touch } else { touch - exit };
    while arc < 0.0 {
        arc += 2.0 * std::f64::consts::PI;
    }
    (d * d - r * r).sqrt() + r * arc
}

#[test]
fn route_around_a_building_hugs_it() {
    let b = Rect::centered(v(18.0, 18.0), 6.0, 4.0); // (15,16)-(21,20)
    let t = table(&[b], vec![]);
    for r in [0.5, 0.75, 1.0] {
        let nav = Navigator::new(&t, r);
        let (from, to) = (v(18.0, 12.0), v(18.0, 24.0));
        let route = nav.route(from, to, &[]).expect("a route");
        assert_route_legal(&route, r, &[b], &[]);
        assert_eq!(route.waypoints.first(), Some(&from));
        assert_eq!(route.waypoints.last(), Some(&to));
        assert!(route.length > from.dist(to) + 1.0);
        // analytic: tangent to the rounded corner (21,16), arc to the east side, 4" up it, mirror image
        // (or the same on the west side)
        let quarter = tangent_and_arc(from, v(21.0, 16.0), r, 0.0, true);
        let analytic = 2.0 * quarter + 4.0;
        assert!(
            route.length >= analytic - 1e-9,
            "r {r}: {} shorter than the true shortest {analytic}",
            route.length
        );
        assert!(
            route.length <= analytic * 1.005,
            "r {r}: {} vs analytic {analytic}",
            route.length
        );
    }
}

#[test]
fn route_between_two_buildings_through_a_gap() {
    let a = Rect::new(v(10.0, 10.0), v(17.0, 26.0));
    let b = Rect::new(v(19.2, 10.0), v(26.0, 26.0)); // a 2.2" lane between x = 17 and 19.2
    let t = table(&[a, b], vec![]);
    let nav = Navigator::new(&t, 0.5);
    let route = nav
        .route(v(18.1, 5.0), v(18.1, 31.0), &[])
        .expect("through the lane");
    assert_route_legal(&route, 0.5, &[a, b], &[]);
    assert!(
        close(route.length, 26.0, 1e-9),
        "straight up the lane: {}",
        route.length
    );
    // a 1.5" base does not fit the lane and goes around
    let nav = Navigator::new(&t, 1.5);
    let around = nav.route(v(18.1, 5.0), v(18.1, 31.0), &[]).expect("around");
    assert_route_legal(&around, 1.5, &[a, b], &[]);
    assert!(around.length > 30.0);
}

#[test]
fn route_around_bases_and_from_contact() {
    let t = table(&[], vec![]);
    let nav = Navigator::new(&t, 0.5);
    let wall_of_models: Vec<Circle> = (0..5)
        .map(|i| base(18.0, 14.0 + i as f64 * 1.0, 0.5))
        .collect();
    let route = nav
        .route(v(14.0, 16.0), v(22.0, 16.0), &wall_of_models)
        .expect("around the models");
    assert_route_legal(&route, 0.5, &[], &wall_of_models);
    assert!(route.length > 8.0);
    // start touching a base (gap 0) and leave
    let enemy = base(10.0, 10.0, 0.75);
    let touching = v(10.0 + 1.25, 10.0);
    let out = nav
        .route(touching, v(5.0, 10.0), &[enemy])
        .expect("out of contact around it");
    assert_route_legal(&out, 0.5, &[], &[enemy]);
    // start overlapping by 1e-7 still works
    let inside = v(10.0 + 1.25 - 1e-7, 10.0);
    assert!(nav.route(inside, v(15.0, 10.0), &[enemy]).is_some());
    // a goal inside a base is refused
    assert!(nav.route(v(2.0, 2.0), v(10.5, 10.0), &[enemy]).is_none());
}

#[test]
fn enclosed_goal_has_no_route() {
    let t = table(&[], vec![]);
    let nav = Navigator::new(&t, 0.5);
    let ring: Vec<Circle> = (0..12)
        .map(|i| {
            let a = i as f64 * std::f64::consts::PI / 6.0;
            base(18.0 + 2.0 * a.cos(), 18.0 + 2.0 * a.sin(), 0.5)
        })
        .collect();
    assert!(nav.route(v(3.0, 3.0), v(18.0, 18.0), &ring).is_none());
    assert!(nav.route(v(18.0, 18.0), v(3.0, 3.0), &ring).is_none());
    // with one model removed the gap opens
    assert!(nav.route(v(3.0, 3.0), v(18.0, 18.0), &ring[1..]).is_some());
    // buildings enclosing a courtyard
    let walls = [
        Rect::new(v(10.0, 10.0), v(26.0, 12.0)),
        Rect::new(v(10.0, 24.0), v(26.0, 26.0)),
        Rect::new(v(10.0, 12.0), v(12.0, 24.0)),
        Rect::new(v(24.0, 12.0), v(26.0, 24.0)),
    ];
    let t = table(&walls, vec![]);
    let nav = Navigator::new(&t, 0.5);
    assert!(nav.route(v(3.0, 3.0), v(18.0, 18.0), &[]).is_none());
    assert!(nav
        .route_to_contact(v(3.0, 3.0), &Goal::Point(v(18.0, 18.0)), &[])
        .is_none());
}

#[test]
fn route_to_contact_with_a_building_ends_touching() {
    let b = Rect::centered(v(18.0, 18.0), 6.0, 4.0);
    let hidden = Rect::new(v(14.0, 8.0), v(22.0, 10.0));
    let t = table(&[b, hidden], vec![]);
    let nav = Navigator::new(&t, 0.5);
    let from = v(18.0, 4.0);
    let route = nav
        .route_to_contact(from, &Goal::Building(b), &[])
        .expect("a route");
    let end = *route.waypoints.last().unwrap();
    assert!(
        close(circle_rect_gap(&base(end.x, end.y, 0.5), &b), 0.0, 1e-9),
        "end gap"
    );
    assert_route_legal(&route, 0.5, &[b, hidden], &[]);
    // it is the shortest: no route to a sampled contact point beats it
    for k in 0..200 {
        let a = k as f64 * std::f64::consts::PI / 100.0;
        // a point on the inflated outline: push from the rect's closest point to a far point
        let far = v(18.0, 18.0) + Vec2::from_angle(a) * 20.0;
        let q = b.closest_point(far);
        let p = q + (far - q).normalized() * 0.5;
        if let Some(other) = nav.route(from, p, &[]) {
            assert!(
                route.length <= other.length + 1e-6,
                "contact route {} > {} to {p:?}",
                route.length,
                other.length
            );
        }
    }
    // already touching: a zero-length route
    let touching = v(18.0, 15.5);
    let r0 = nav
        .route_to_contact(touching, &Goal::Building(b), &[])
        .unwrap();
    assert_eq!(r0.waypoints, vec![touching]);
    assert_eq!(r0.length, 0.0);
}

#[test]
fn route_to_contact_with_a_base_and_to_the_edge() {
    let b = Rect::centered(v(18.0, 18.0), 6.0, 4.0);
    let t = table(&[b], vec![]);
    let nav = Navigator::new(&t, 0.5);
    let enemy = base(18.0, 22.0, 0.75); // just north of the building
    let route = nav
        .route_to_contact(v(18.0, 12.0), &Goal::Base(enemy), &[])
        .expect("a route");
    let end = *route.waypoints.last().unwrap();
    assert!(close(
        circle_circle_gap(&base(end.x, end.y, 0.5), &enemy),
        0.0,
        1e-9
    ));
    assert_route_legal(&route, 0.5, &[b], &[enemy]);
    let edge = nav.route_to_edge(v(18.0, 22.0), &[]).expect("to the edge");
    let end = *edge.waypoints.last().unwrap();
    assert!(
        close(end.y, 35.5, 1e-12) && close(edge.length, 13.5, 1e-9),
        "{edge:?}"
    );
    // behind a wall of models the nearest edge is not straight ahead
    let screen: Vec<Circle> = (0..9).map(|i| base(14.0 + i as f64, 30.0, 0.5)).collect();
    let edge = nav
        .route_to_edge(v(18.0, 28.0), &screen)
        .expect("around the screen");
    assert_route_legal(&edge, 0.5, &[b], &screen);
    let end = *edge.waypoints.last().unwrap();
    let on_box = close(end.x, 0.5, 1e-9)
        || close(end.x, 35.5, 1e-9)
        || close(end.y, 0.5, 1e-9)
        || close(end.y, 35.5, 1e-9);
    assert!(on_box && edge.length > 7.5, "{edge:?}");
}

#[test]
fn route_is_stable_when_followed() {
    // re-planning from a waypoint of a route gives the rest of the same route: no oscillation
    let b = Rect::centered(v(18.0, 18.0), 6.0, 4.0);
    let rocks = Terrain::area(TerrainKind::Rocks, square(v(26.0, 24.0), 1.5));
    let t = table(&[b], vec![rocks]);
    let nav = Navigator::new(&t, 0.5);
    let goal = v(30.0, 30.0);
    let bases = [base(22.5, 21.0, 0.5)];
    let first = nav.route(v(10.0, 10.0), goal, &bases).unwrap();
    for (i, w) in first.waypoints.iter().enumerate().skip(1) {
        let rest: f64 = first.waypoints[i..]
            .windows(2)
            .map(|p| p[0].dist(p[1]))
            .sum();
        let again = nav.route(*w, goal, &bases).unwrap();
        assert!(
            close(again.length, rest, 1e-6),
            "from {w:?}: {} vs {}",
            again.length,
            rest
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn routes_are_legal_and_not_shorter_than_straight(
        sx in 1.0f64..35.0, sy in 1.0f64..35.0, gx in 1.0f64..35.0, gy in 1.0f64..35.0,
        seeds in proptest::collection::vec((2.0f64..34.0, 2.0f64..34.0), 0..12),
    ) {
        let rects = [Rect::new(v(14.0, 14.0), v(20.0, 18.0)), Rect::new(v(24.0, 8.0), v(27.0, 12.0))];
        let t = table(&rects, vec![]);
        let nav = Navigator::new(&t, 0.5);
        let bases: Vec<Circle> = seeds.iter().map(|&(x, y)| base(x, y, 0.5)).collect();
        prop_assume!(nav.is_legal(v(sx, sy), &bases) && nav.is_legal(v(gx, gy), &bases));
        if let Some(route) = nav.route(v(sx, sy), v(gx, gy), &bases) {
            assert_route_legal(&route, 0.5, &rects, &bases);
            prop_assert!(route.length >= v(sx, sy).dist(v(gx, gy)) - 1e-9);
            for leg in route.waypoints.windows(2) {
                let m = base(leg[0].x, leg[0].y, 0.5);
                // every leg can be walked with straight_move without being stopped
                let out = straight_move(&t, &m, leg[1], &[], &bases);
                prop_assert!(out.stopped.is_none() || out.end == leg[1], "{:?} on {:?}", out, leg);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

#[test]
fn standard_layout_is_legal_and_documented() {
    let spec = TableSpec {
        terrain_min: 0,
        ..TableSpec::default()
    };
    let t = standard_layout(&spec.buildings, 36.0, 36.0);
    assert_eq!(t.buildings[0].rect, Rect::new(v(15.0, 16.0), v(21.0, 20.0)));
    assert_eq!(t.buildings[1].rect, Rect::new(v(16.0, 24.0), v(20.0, 27.0)));
    assert_eq!(t.buildings[4].rect, Rect::new(v(6.0, 16.5), v(11.0, 19.5)));
    assert!(t.terrain.is_empty());
    validate_table(&t, &spec).unwrap();
}

#[test]
fn generated_tables_follow_every_rule() {
    let spec = TableSpec::default();
    let mut kinds = std::collections::HashSet::new();
    for seed in 0..200u64 {
        let t = generate(seed, &spec);
        validate_table(&t, &spec).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // the main rules, checked again independently of the validator
        let th = &t.buildings[0];
        assert_eq!(th.name, "Town Hall");
        assert!(
            th.rect.center().dist(v(18.0, 18.0)) <= 6.0 + 1e-9,
            "seed {seed}"
        );
        for (i, a) in t.buildings.iter().enumerate() {
            if i > 0 {
                assert!(
                    rect_rect_gap(&th.rect, &a.rect) <= 8.0 + 1e-9,
                    "seed {seed}: {} far",
                    a.name
                );
            }
            for b in &t.buildings[i + 1..] {
                assert!(
                    rect_rect_gap(&a.rect, &b.rect) >= 3.0 - 1e-9,
                    "seed {seed}: {} {}",
                    a.name,
                    b.name
                );
            }
        }
        assert!(
            (6..=10).contains(&t.terrain.len()),
            "seed {seed}: {} pieces",
            t.terrain.len()
        );
        for piece in &t.terrain {
            kinds.insert(piece.kind);
            for b in &t.buildings {
                let d = match &piece.shape {
                    TerrainShape::Area(p) => rect_polygon_dist(&b.rect, p),
                    TerrainShape::Line(s) => segment_rect_dist(s, &b.rect),
                };
                assert!(d >= 1.5 - 1e-9, "seed {seed}: terrain {d} from {}", b.name);
            }
        }
        // a route for a 1" base from each edge to contact with the Town Hall
        let nav = Navigator::new(&t, 0.5);
        let goal = Goal::Building(th.rect);
        let edges: [&dyn Fn(f64) -> Vec2; 4] =
            [&|f| v(f, 35.5), &|f| v(35.5, f), &|f| v(f, 0.5), &|f| {
                v(0.5, f)
            }];
        for (k, at) in edges.iter().enumerate() {
            let ok = (1..12).map(|i| at(0.5 + 35.0 * i as f64 / 12.0)).any(|p| {
                nav.is_legal(p, &[])
                    && nav.route_to_contact(p, &goal, &[]).is_some_and(|r| {
                        let end = *r.waypoints.last().unwrap();
                        close(
                            circle_rect_gap(&base(end.x, end.y, 0.5), &th.rect),
                            0.0,
                            1e-9,
                        )
                    })
            });
            assert!(ok, "seed {seed}: no route from edge {k}");
        }
    }
    assert_eq!(kinds.len(), 7, "every terrain kind appears");
}

#[test]
fn same_seed_same_table() {
    let spec = TableSpec::default();
    for seed in [0u64, 7, 12345, u64::MAX] {
        let a = serde_json::to_string(&generate(seed, &spec)).unwrap();
        let b = serde_json::to_string(&generate(seed, &spec)).unwrap();
        assert_eq!(a, b);
    }
    let a = serde_json::to_string(&generate(1, &spec)).unwrap();
    let b = serde_json::to_string(&generate(2, &spec)).unwrap();
    assert_ne!(a, b);
    // terrain kinds serialise in snake_case
    assert_eq!(
        serde_json::to_string(&TerrainKind::Rocks).unwrap(),
        "\"rocks\""
    );
}

#[test]
fn crowded_rocky_tables_are_regenerated_until_every_edge_routes() {
    // Forty big rocks allowed to touch and a 2" base: some first drafts cut an edge off (or shut in the
    // Town Hall), so the route check must act.
    let spec = TableSpec {
        terrain_min: 40,
        terrain_max: 40,
        route_radius: 1.0,
        area_across: (4.5, 5.0),
        terrain_spacing: 0.0,
        terrain_kinds: vec![TerrainKind::Rocks],
        ..TableSpec::default()
    };
    let lenient = TableSpec {
        terrain_min: 0,
        ..spec.clone()
    };
    for seed in 0..40u64 {
        let t = generate(seed, &spec);
        validate_table(&t, &lenient).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(t.terrain.iter().all(|p| p.kind == TerrainKind::Rocks));
    }
}

#[test]
fn barricade_crossings() {
    let barricades = [
        Segment::new(v(10.0, 0.0), v(10.0, 3.0)),
        Segment::new(v(12.0, 5.0), v(15.0, 5.0)),
    ];
    assert_eq!(
        crossings_of(&barricades, &Segment::new(v(5.0, 1.0), v(14.0, 1.0)), 0.5),
        vec![0]
    );
    assert_eq!(
        crossings_of(&barricades, &Segment::new(v(13.0, 1.0), v(13.0, 9.0)), 0.5),
        vec![1]
    );
    assert!(crossings_of(&barricades, &Segment::new(v(5.0, 3.5), v(9.0, 3.5)), 0.5).is_empty());
}

#[test]
fn generator_handles_specs_without_buildings_or_terrain() {
    let spec = TableSpec {
        buildings: vec![],
        terrain_min: 0,
        terrain_max: 0,
        ..TableSpec::default()
    };
    let t = generate(3, &spec);
    assert!(t.buildings.is_empty() && t.terrain.is_empty());
    validate_table(&t, &spec).unwrap();
}

#[test]
fn route_from_a_start_touching_a_building() {
    let b = Rect::centered(v(18.0, 18.0), 6.0, 4.0);
    let t = table(&[b], vec![]);
    let nav = Navigator::new(&t, 0.5);
    for start in [
        v(18.0, 15.5),
        v(18.0, 15.5 + 5e-7),
        v(21.0 + 0.5 / 2f64.sqrt(), 16.0 - 0.5 / 2f64.sqrt()),
    ] {
        let route = nav
            .route(start, v(18.0, 24.0), &[])
            .expect("a route from contact");
        assert_route_legal(&route, 0.5, &[b], &[]);
        assert!(route.length < 14.0, "{route:?}");
        let to_edge = nav.route_to_edge(start, &[]).expect("to the edge");
        assert_route_legal(&to_edge, 0.5, &[b], &[]);
    }
    // touching (or overlapping by 5e-7) an enemy base and going round to its far side
    let enemy = base(10.0, 10.0, 0.75);
    for start in [v(11.25, 10.0), v(11.25 - 5e-7, 10.0)] {
        let route = nav
            .route(start, v(7.0, 10.0), &[enemy])
            .expect("around the enemy");
        // analytic: an arc of radius 1.25 from the start, then the tangent to (7, 10)
        let analytic = tangent_and_arc(v(7.0, 10.0), enemy.c, 1.25, 0.0, false);
        assert!(
            route.length >= analytic - 1e-6 && route.length <= analytic * 1.01,
            "{route:?} vs {analytic}"
        );
        for leg in route.waypoints.windows(2) {
            let s = Segment::new(leg[0], leg[1]);
            assert!(
                point_segment_dist(enemy.c, &s) >= start.dist(enemy.c) - 1e-9,
                "{s:?} goes deeper"
            );
        }
    }
}

#[test]
fn a_base_touching_a_building_corner_can_route_away_from_it() {
    // Found in a stalled game: a model touching the Stable's corner (between the corner and its ring of
    // route nodes) had no route at all, so every move toward the Town Hall stopped at the Stable.
    let stable = Rect::new(
        v(10.249361180711812, 28.062140478212974),
        v(15.249361180711812, 31.062140478212974),
    );
    let hall = Rect::new(
        v(17.102385423528077, 17.214982618558007),
        v(23.102385423528077, 21.214982618558007),
    );
    let t = table(&[stable, hall], vec![]);
    let nav = Navigator::new(&t, 0.5);
    let corner = v(stable.min.x, stable.max.y);
    for deg in [0.0f64, 5.0, 9.8, 30.0, 45.0, 60.0, 85.0, 90.0] {
        // On the corner's arc, from the south normal (+y) toward the west normal (-x).
        let a = deg.to_radians();
        let from = corner + v(-a.sin(), a.cos()) * 0.5;
        assert!(circle_rect_gap(&base(from.x, from.y, 0.5), &stable).abs() < 1e-12);
        let r = nav
            .route_to_contact(from, &Goal::Building(hall), &[])
            .unwrap_or_else(|| panic!("no route from {deg}° on the corner"));
        assert_route_legal(&r, 0.5, &[stable, hall], &[]);
        let first = straight_move(&t, &base(from.x, from.y, 0.5), r.waypoints[1], &[], &[]);
        assert!(
            first.stopped.is_none() && first.travelled > 1e-3,
            "{deg}°: the first leg is followed ({first:?})"
        );
    }
}

#[test]
fn a_base_hugging_a_building_corner_can_still_be_reached() {
    // Found in a stalled game: a Zombie touching the Temple's corner; every contact spot the search aimed
    // at lay inside the Temple's clearance, so Bram found no route and the wave ran out of rounds.
    let temple = Rect::new(
        v(4.292775604494798, 23.832441880974038),
        v(8.292775604494798, 27.832441880974038),
    );
    let t = table(&[temple], vec![]);
    let nav = Navigator::new(&t, 0.5);
    let zombie = base(4.264492726232471, 28.331641318871558, 0.5);
    let from = v(8.792775604494798, 25.084150744098537);
    let r = nav
        .route_to_contact(from, &Goal::Base(zombie), &[])
        .expect("a route to contact");
    assert_route_legal(&r, 0.5, &[temple], &[]);
    let end = *r.waypoints.last().unwrap();
    assert!(
        close(end.dist(zombie.c), 1.0, 1e-6),
        "ends in contact: {end:?}"
    );
    assert!(
        r.length < 7.0,
        "around the corner, not the long way: {}",
        r.length
    );
}

#[test]
fn a_route_to_contact_follows_an_obstacle_round_to_the_target() {
    // Found by the Ambush scenario: Maren stands beside a 1" rock, the orc on its far side. Every node's
    // nearest contact spot lay inside the rock's clearance, so the search reached contact only by a
    // 25" detour past the Stable; the ring round the rock meets the contact circle 2.94" away.
    let rocks = Terrain::area(TerrainKind::Rocks, square(v(5.0, 5.0), 0.5));
    let sites: Vec<(String, f64, f64)> = [
        ("Town Hall", 6.0, 4.0),
        ("Forge", 4.0, 3.0),
        ("Temple", 4.0, 4.0),
        ("Watchtower", 3.0, 3.0),
        ("Stable", 5.0, 3.0),
    ]
    .iter()
    .map(|(n, w, h)| (n.to_string(), *w, *h))
    .collect();
    let mut t = village::geometry::standard_layout(&sites, 36.0, 36.0);
    t.terrain.push(rocks);
    let nav = Navigator::new(&t, 0.5);
    let maren = base(3.5, 5.0, 0.5);
    let route = nav
        .route_to_contact(v(6.5, 5.0), &village::geometry::Goal::Base(maren), &[])
        .expect("a route round the rock");
    assert!(route.length < 3.0, "round the rock: {route:?}");
    let end = *route.waypoints.last().unwrap();
    assert!(
        close(end.dist(maren.c), 1.0, 1e-6),
        "ends in contact: {end:?}"
    );
    assert!(nav.is_legal(end, &[]));
    for leg in route.waypoints.windows(2) {
        assert!(nav.is_clear(&Segment::new(leg[0], leg[1]), &[]), "{leg:?}");
    }
}

#[test]
fn a_base_touching_a_building_slides_along_it_into_contact() {
    // Found in a stalled game: Bram touched the Town Hall's west wall, a Skeleton stood at its north-west
    // corner. The only final legs the search tried from him cut the wall's clearance, so the route went
    // the long way (in that game by the wall's far corner and back, 9.8"; here out round the Skeleton,
    // 1.73"), and each move along it ended short: Bram walked up and down the wall for 40 rounds. From
    // a start on a ring, the ring's crossings of the contact circle are candidates too: 1.42" straight
    // up the wall.
    let hall = Rect::new(v(11.78, 13.63), v(15.78, 19.63));
    let t = table(&[hall], vec![]);
    let nav = Navigator::new(&t, 0.5);
    let skeleton = base(11.62, 20.11, 0.5);
    let route = nav
        .route_to_contact(v(11.28, 17.75), &Goal::Base(skeleton), &[])
        .expect("a route");
    assert!(route.length < 1.5, "straight up the wall: {route:?}");
    let end = *route.waypoints.last().unwrap();
    assert!(
        close(end.dist(skeleton.c), 1.0, 1e-6),
        "in contact: {end:?}"
    );
    for leg in route.waypoints.windows(2) {
        assert!(nav.is_clear(&Segment::new(leg[0], leg[1]), &[]), "{leg:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// The box test the movement checks put before a distance: a shape whose box, grown by `r`, is apart
    /// from a path's box is farther than `r` from the path (so the distance test it spares would have
    /// said no), for segments and polygons alike.
    #[test]
    fn boxes_apart_mean_farther_than_the_growth(
        ax in 0.0f64..36.0, ay in 0.0f64..36.0, bx in 0.0f64..36.0, by in 0.0f64..36.0,
        cx in 0.0f64..36.0, cy in 0.0f64..36.0, dx in 0.0f64..36.0, dy in 0.0f64..36.0,
        px in 2.0f64..34.0, py in 2.0f64..34.0, r in 0.0f64..3.0,
    ) {
        let path = Segment::new(v(ax, ay), v(bx, by));
        let wall = Segment::new(v(cx, cy), v(dx, dy));
        if wall.bounds().expand(r).apart(&path.bounds()) {
            prop_assert!(segment_segment_dist(&path, &wall) > r);
        }
        let pond = Polygon::new(vec![v(px, py), v(px + 3.0, py + 0.5), v(px + 1.0, py + 2.5)]);
        if pond.bounds().expand(r).apart(&path.bounds()) {
            prop_assert!(segment_polygon_dist(&path, &pond) > r);
        }
        // Apart is symmetric and never holds for a box and itself.
        prop_assert_eq!(wall.bounds().apart(&path.bounds()), path.bounds().apart(&wall.bounds()));
        prop_assert!(!path.bounds().apart(&path.bounds()));
    }
}
