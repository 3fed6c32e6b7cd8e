//! Movement (§3.3): a straight move up to the model's band that stops on contact with a standing enemy,
//! never passes through an enemy, and ends clear of friends.

use super::error::RuleError;
use super::query::label;
use crate::geometry::{straight_move, Circle, Stop, Vec2};
use crate::roster::{move_band_of, Rules};
use crate::state::{Condition, EventKind, Game, ModelId};
use serde::{Deserialize, Serialize};

/// What ended a move before its destination.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocker {
    /// Contact with a standing enemy: the two are now Engaged.
    Enemy(ModelId),
    /// A base it may not pass through or end on.
    Model(ModelId),
    Building(String),
    Terrain(String),
    TableEdge,
}

/// The result of a move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveReport {
    pub from: Vec2,
    pub to: Vec2,
    pub travelled: f64,
    pub stopped_by: Option<Blocker>,
}

/// The longest single move of a model, from its movement band.
pub fn move_distance(rules: &Rules, traits: &[String]) -> f64 {
    rules.measures.get(move_band_of(traits))
}

/// Move `id` in a straight line toward `dest`, at most `limit` inches (its band when `None`).
pub fn move_model(
    game: &mut Game,
    rules: &Rules,
    id: ModelId,
    dest: Vec2,
    limit: Option<f64>,
) -> Result<MoveReport, RuleError> {
    let m = game.model(id)?;
    for (c, why) in [
        (Condition::Transfixed, "Transfixed"),
        (Condition::Entangled, "Entangled"),
    ] {
        if m.has(c) {
            return Err(RuleError::CannotMove(label(m), why));
        }
    }
    let from = m.pos;
    let reach = limit.unwrap_or_else(|| move_distance(rules, &m.traits));
    let wanted = dest - from;
    let target = if wanted.len() > reach {
        from + wanted.normalized() * reach
    } else {
        dest
    };
    let mover = m.circle();
    let side = m.side;
    // Standing enemies stop the move at contact; Defenseless ones do not stop it but cannot be crossed.
    let (mut stop_ids, mut stop_at, mut solid_ids, mut solid) = (vec![], vec![], vec![], vec![]);
    for o in game.models.iter().filter(|o| o.id != id && o.side != side) {
        if o.has(Condition::Defenseless) {
            solid_ids.push(o.id);
            solid.push(o.circle());
        } else {
            stop_ids.push(o.id);
            stop_at.push(o.circle());
        }
    }
    let mut out = straight_move(&game.table, &mover, target, &stop_at, &solid);
    // Friends may be passed through only if the move can clear them: otherwise it stops at the first.
    let friends: Vec<(ModelId, Circle)> = game
        .models
        .iter()
        .filter(|o| o.id != id && o.side == side)
        .map(|o| (o.id, o.circle()))
        .collect();
    let ends_on_friend = friends.iter().any(|(_, c)| {
        crate::geometry::circle_circle_gap(
            &Circle {
                c: out.end,
                r: mover.r,
            },
            c,
        ) < -1e-9
    });
    if ends_on_friend {
        for (fid, c) in &friends {
            solid_ids.push(*fid);
            solid.push(*c);
        }
        out = straight_move(&game.table, &mover, target, &stop_at, &solid);
    }
    let stopped_by = out.stopped.map(|s| match s {
        Stop::Contact(i) => Blocker::Enemy(stop_ids[i]),
        Stop::Model(i) => Blocker::Model(solid_ids[i]),
        Stop::Building(i) => Blocker::Building(game.table.buildings[i].name.clone()),
        Stop::Terrain(i) => {
            Blocker::Terrain(format!("{:?}", game.table.terrain[i].kind).to_lowercase())
        }
        Stop::TableEdge => Blocker::TableEdge,
    });
    let words = stopped_by.as_ref().map(|b| describe(game, b));
    game.model_mut(id)?.pos = out.end;
    game.record(EventKind::Moved {
        model: id,
        from,
        to: out.end,
        stopped_by: words,
    });
    Ok(MoveReport {
        from,
        to: out.end,
        travelled: out.travelled,
        stopped_by,
    })
}

fn describe(game: &Game, b: &Blocker) -> String {
    match b {
        Blocker::Enemy(id) => match game.model(*id) {
            Ok(m) => format!("contact with {}", label(m)),
            Err(_) => format!("contact with model {id}"),
        },
        Blocker::Model(id) => match game.model(*id) {
            Ok(m) => format!("cannot pass {}", label(m)),
            Err(_) => format!("cannot pass model {id}"),
        },
        Blocker::Building(n) => format!("the {n}"),
        Blocker::Terrain(k) => format!("impassable {k}"),
        Blocker::TableEdge => "the table edge".to_string(),
    }
}
