//! Table geometry: points, bases, building rectangles, terrain polygons and segments.
//!
//! Owns measuring (edge to edge), contact, line of sight with Cover, straight moves, the shortest legal
//! route for a base, and the seeded table generator. It knows nothing of rules, sides or dice streams:
//! rule constants (contact tolerance, measures, building sizes) are passed in by callers.
//!
//! Units are inches (f64). The table's origin is its south-west corner, x east, y north.
//!
//! | module | owns |
//! |---|---|
//! | `shapes` | `Vec2`, `Circle`, `Rect`, `Polygon`, `Segment`, gaps and distances, `in_contact` |
//! | `table` | `Table`, `Terrain`, `TerrainKind`, `BuildingSite`, `standard_layout`, `on_hill`, `in_wood` |
//! | `sight` | `sight`, `Sight` (line of sight and Cover) |
//! | `movement` | `straight_move`, `MoveOutcome`, `Stop`, `crossings`, `touches_difficult` |
//! | `path` | `Navigator`, `Route`, `Goal` (shortest legal routes) |
//! | `legs` | `first_leg` (where one straight move action along a route goes), `legs` (a route as its straight legs) |
//! | `generate` | `TableSpec`, `generate`, `validate_table` (seeded table generator) |
//! | `check` | `InputError`, `point_on`, `finite_point`, `distance`, `clamp_to` (refusing outside input) |

pub mod check;
pub mod generate;
pub mod legs;
pub mod movement;
pub mod path;
pub mod shapes;
pub mod sight;
pub mod table;

pub use check::{clamp_to, InputError};
pub use generate::{edge_routes, generate, validate_table, TableSpec};
pub use legs::{first_leg, legs};
pub use movement::{crossings, crossings_of, straight_move, touches_difficult, MoveOutcome, Stop};
pub use path::{Goal, NavCache, Navigator, Route};
pub use shapes::*;
pub use sight::{sight, sight_lines, sight_with_tol, Sight};
pub use table::{
    in_wood, on_hill, standard_layout, BuildingSite, Table, Terrain, TerrainKind, TerrainShape,
};
