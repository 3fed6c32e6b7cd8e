//! Read-only questions the rules ask about the table: who is in contact with whom, who is Engaged.

use crate::geometry::{
    circle_circle_gap, circle_polygon_gap, circle_rect_gap, Circle, TerrainShape,
};
use crate::roster::Rules;
use crate::state::{Game, Model, ModelId};

/// Edge-to-edge gap between two models.
pub fn gap(a: &Model, b: &Model) -> f64 {
    circle_circle_gap(&a.circle(), &b.circle())
}

/// The models of `id`'s Enemy Group (§6.2), itself included, in id order: just itself when it has no
/// Group or has left the table.
pub fn group_of(game: &Game, id: ModelId) -> Vec<ModelId> {
    let Ok(me) = game.model(id) else {
        return vec![id];
    };
    let (side, group) = (me.side, me.group);
    game.models
        .iter()
        .filter(|m| m.side == side && (m.id == id || (group.is_some() && m.group == group)))
        .map(|m| m.id)
        .collect()
}

/// Whether two models are in base contact (gap within the contact tolerance).
pub fn in_contact(rules: &Rules, a: &Model, b: &Model) -> bool {
    gap(a, b) <= rules.bases.contact_tolerance
}

/// Enemies in base contact with `id`, in id order.
pub fn engaged_enemies(game: &Game, rules: &Rules, id: ModelId) -> Vec<ModelId> {
    let Ok(m) = game.model(id) else {
        return Vec::new();
    };
    game.models
        .iter()
        .filter(|o| o.side != m.side && in_contact(rules, m, o))
        .map(|o| o.id)
        .collect()
}

/// Whether `id` is Engaged: in contact with at least one enemy.
pub fn is_engaged(game: &Game, rules: &Rules, id: ModelId) -> bool {
    !engaged_enemies(game, rules, id).is_empty()
}

/// Describe a model in a log line: "Orc Warrior (3)".
pub fn label(m: &Model) -> String {
    format!("{} ({})", m.name, m.id)
}

/// Why a base cannot stand at a position, if it cannot.
pub fn placement_problem(game: &Game, c: &Circle) -> Option<String> {
    let t = &game.table;
    if c.c.x - c.r < -1e-9
        || c.c.y - c.r < -1e-9
        || c.c.x + c.r > t.width + 1e-9
        || c.c.y + c.r > t.height + 1e-9
    {
        return Some("the base would hang off the table".into());
    }
    if let Some(b) = t
        .buildings
        .iter()
        .find(|b| circle_rect_gap(c, &b.rect) < -1e-9)
    {
        return Some(format!("the base would overlap the {}", b.name));
    }
    for piece in &t.terrain {
        if let TerrainShape::Area(p) = &piece.shape {
            if piece.kind.is_impassable() && circle_polygon_gap(c, p) < -1e-9 {
                return Some(
                    format!("the base would stand in impassable {:?}", piece.kind).to_lowercase(),
                );
            }
        }
    }
    game.models
        .iter()
        .find(|m| circle_circle_gap(c, &m.circle()) < -1e-9)
        .map(|m| format!("the base would overlap {} ({})", m.name, m.id))
}
