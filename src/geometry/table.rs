//! The table as plain data: its size, building sites and terrain pieces, plus the fixed standard layout.
//!
//! Owns what each terrain kind *is* (SUPPLEMENT §2: which kinds block sight, hinder or stop movement) and
//! simple point queries (`on_hill`, `in_wood`). It never decides rules outcomes (Cover modifiers, movement
//! bands): other modules read these facts.

use super::shapes::{rect_rect_gap, Polygon, Rect, Segment, Vec2};
use serde::{Deserialize, Serialize};

/// The seven terrain kinds of SUPPLEMENT §2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    /// Difficult; blocks sight through it; Cover inside.
    Wood,
    /// Open; elevated in melee.
    Hill,
    /// Impassable; blocks sight.
    Rocks,
    /// Impassable; open to sight.
    Pond,
    /// Difficult; open to sight.
    Field,
    /// Linear obstacle; Cover to a model touching it.
    Wall,
    /// Linear obstacle; Cover to a model touching it.
    Hedge,
}

impl TerrainKind {
    /// Every kind, in declaration order (the generator samples from this list).
    pub const ALL: [TerrainKind; 7] = [
        TerrainKind::Wood,
        TerrainKind::Hill,
        TerrainKind::Rocks,
        TerrainKind::Pond,
        TerrainKind::Field,
        TerrainKind::Wall,
        TerrainKind::Hedge,
    ];
    /// Rocks and ponds cannot be entered.
    pub fn is_impassable(self) -> bool {
        matches!(self, TerrainKind::Rocks | TerrainKind::Pond)
    }
    /// Woods and fields reduce movement one band.
    pub fn is_difficult(self) -> bool {
        matches!(self, TerrainKind::Wood | TerrainKind::Field)
    }
    /// Walls and hedges are segments (linear obstacles); every other kind is an area.
    pub fn is_linear(self) -> bool {
        matches!(self, TerrainKind::Wall | TerrainKind::Hedge)
    }
    /// Rocks block every line through them (woods block conditionally, see `sight`).
    pub fn blocks_sight(self) -> bool {
        matches!(self, TerrainKind::Rocks)
    }
    /// The kind's name in scripts and the log: "wood", "hill", ... (its variant name in lower case).
    pub fn name(self) -> &'static str {
        match self {
            TerrainKind::Wood => "wood",
            TerrainKind::Hill => "hill",
            TerrainKind::Rocks => "rocks",
            TerrainKind::Pond => "pond",
            TerrainKind::Field => "field",
            TerrainKind::Wall => "wall",
            TerrainKind::Hedge => "hedge",
        }
    }
}

/// A terrain piece's outline: areas are convex polygons, walls and hedges are segments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TerrainShape {
    /// A convex counter-clockwise polygon.
    Area(Polygon),
    /// A segment (wall, hedge).
    Line(Segment),
}

/// One terrain piece.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Terrain {
    /// What it is.
    pub kind: TerrainKind,
    /// Where it is.
    pub shape: TerrainShape,
}

impl Terrain {
    /// An area piece (wood, hill, rocks, pond, field).
    pub fn area(kind: TerrainKind, poly: Polygon) -> Self {
        Terrain {
            kind,
            shape: TerrainShape::Area(poly),
        }
    }
    /// A linear piece (wall, hedge).
    pub fn line(kind: TerrainKind, seg: Segment) -> Self {
        Terrain {
            kind,
            shape: TerrainShape::Line(seg),
        }
    }
    /// The polygon of an area piece.
    pub fn polygon(&self) -> Option<&Polygon> {
        match &self.shape {
            TerrainShape::Area(p) => Some(p),
            TerrainShape::Line(_) => None,
        }
    }
    /// The segment of a linear piece.
    pub fn segment(&self) -> Option<&Segment> {
        match &self.shape {
            TerrainShape::Line(s) => Some(s),
            TerrainShape::Area(_) => None,
        }
    }
}

/// Where a village building stands: its name (as in the rosters) and its footprint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildingSite {
    /// The building's roster name ("Town Hall", "Forge", …).
    pub name: String,
    /// Its footprint.
    pub rect: Rect,
}

/// The table: `width` × `height` inches, origin south-west. `buildings[0]` is the Town Hall by convention.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// East–west size in inches.
    pub width: f64,
    /// North–south size in inches.
    pub height: f64,
    /// Building sites, the Town Hall first.
    pub buildings: Vec<BuildingSite>,
    /// Terrain pieces.
    pub terrain: Vec<Terrain>,
}

impl Table {
    /// A table with nothing on it.
    pub fn empty(width: f64, height: f64) -> Self {
        Table {
            width,
            height,
            buildings: Vec::new(),
            terrain: Vec::new(),
        }
    }
    /// The whole table as a rectangle.
    pub fn bounds(&self) -> Rect {
        Rect::new(Vec2::ZERO, Vec2::new(self.width, self.height))
    }
    /// The table's centre point.
    pub fn center(&self) -> Vec2 {
        Vec2::new(self.width * 0.5, self.height * 0.5)
    }
    /// The building site with this name.
    pub fn building(&self, name: &str) -> Option<&BuildingSite> {
        self.buildings.iter().find(|b| b.name == name)
    }
}

/// True when `p` is on (inside or on the outline of) a hill.
pub fn on_hill(table: &Table, p: Vec2) -> bool {
    inside_kind(table, p, TerrainKind::Hill)
}

/// True when `p` is inside (or on the outline of) a wood.
pub fn in_wood(table: &Table, p: Vec2) -> bool {
    inside_kind(table, p, TerrainKind::Wood)
}

fn inside_kind(table: &Table, p: Vec2, kind: TerrainKind) -> bool {
    table
        .terrain
        .iter()
        .any(|t| t.kind == kind && t.polygon().is_some_and(|poly| poly.contains(p)))
}

/// Outline gap between a building and the Town Hall in the standard layout.
pub const STANDARD_GAP: f64 = 4.0;

/// The "empty" table: the buildings in one fixed standard layout and no terrain.
///
/// `buildings` are `(name, width, height)`; the first is the Town Hall, centred on the table. The others
/// take, in order, the slots north, east, south, west of the Town Hall (centred on its axes), then
/// north-east, south-east, south-west, north-west (corner to corner), each `STANDARD_GAP` (4") from the
/// Town Hall's outline. A building that would come within 3" of an earlier one is pushed outward in 0.5"
/// steps. With the SUPPLEMENT §1 buildings on a 36" table this gives: Town Hall (15,16)–(21,20), Forge
/// north (16,24)–(20,27), Temple east (25,16)–(29,20), Watchtower south (16.5,9)–(19.5,12), Stable west
/// (6,16.5)–(11,19.5): every building 4" from the Town Hall and at least 6.4" from its neighbours, which
/// leaves 4"-wide lanes to the Town Hall from every side.
pub fn standard_layout(buildings: &[(String, f64, f64)], width: f64, height: f64) -> Table {
    let mut table = Table::empty(width, height);
    let Some((th_name, th_w, th_h)) = buildings.first() else {
        return table;
    };
    let th = Rect::centered(table.center(), *th_w, *th_h);
    table.buildings.push(BuildingSite {
        name: th_name.clone(),
        rect: th,
    });
    let diag = STANDARD_GAP / std::f64::consts::SQRT_2;
    for (i, (name, w, h)) in buildings.iter().enumerate().skip(1) {
        let (w, h) = (*w, *h);
        let slot = (i - 1) % 8;
        // centre of the slot and the outward direction it is pushed along on a conflict
        let (c, dir) = match slot {
            0 => (
                Vec2::new(th.center().x, th.max.y + STANDARD_GAP + h / 2.0),
                Vec2::new(0.0, 1.0),
            ),
            1 => (
                Vec2::new(th.max.x + STANDARD_GAP + w / 2.0, th.center().y),
                Vec2::new(1.0, 0.0),
            ),
            2 => (
                Vec2::new(th.center().x, th.min.y - STANDARD_GAP - h / 2.0),
                Vec2::new(0.0, -1.0),
            ),
            3 => (
                Vec2::new(th.min.x - STANDARD_GAP - w / 2.0, th.center().y),
                Vec2::new(-1.0, 0.0),
            ),
            4 => (
                Vec2::new(th.max.x + diag + w / 2.0, th.max.y + diag + h / 2.0),
                Vec2::new(1.0, 1.0),
            ),
            5 => (
                Vec2::new(th.max.x + diag + w / 2.0, th.min.y - diag - h / 2.0),
                Vec2::new(1.0, -1.0),
            ),
            6 => (
                Vec2::new(th.min.x - diag - w / 2.0, th.min.y - diag - h / 2.0),
                Vec2::new(-1.0, -1.0),
            ),
            _ => (
                Vec2::new(th.min.x - diag - w / 2.0, th.max.y + diag + h / 2.0),
                Vec2::new(-1.0, 1.0),
            ),
        };
        let mut rect = Rect::centered(c, w, h);
        for _ in 0..40 {
            let clash = table
                .buildings
                .iter()
                .any(|b| rect_rect_gap(&b.rect, &rect) < 3.0 - 1e-9);
            if !clash {
                break;
            }
            rect = Rect::centered(rect.center() + dir.normalized() * 0.5, w, h);
        }
        table.buildings.push(BuildingSite {
            name: name.clone(),
            rect,
        });
    }
    table
}

#[cfg(test)]
mod tests {
    use super::TerrainKind;

    #[test]
    fn a_kinds_name_is_its_variant_in_lower_case() {
        for k in TerrainKind::ALL {
            assert_eq!(k.name(), format!("{k:?}").to_lowercase());
        }
    }
}
