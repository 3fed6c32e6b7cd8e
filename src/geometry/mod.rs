//! Table geometry: points, bases, building rectangles, terrain polygons and segments.
//!
//! Owns measuring (edge to edge), contact, line of sight with Cover, straight moves, the shortest legal
//! route for a base, and the seeded table generator. It knows nothing of rules, sides or dice streams.

use serde::{Deserialize, Serialize};

/// A point or vector on the table, in inches. x grows to the east, y to the north; the origin is the
/// south-west corner (SUPPLEMENT §1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct Vec2 {
    pub x: f64,
    pub y: f64,
}

impl Vec2 {
    pub const fn new(x: f64, y: f64) -> Self {
        Vec2 { x, y }
    }
}
