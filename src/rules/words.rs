//! What a script chose, in words: aims, orders, nominations and Council orders as a decision
//! (`state::Decision::chose`) and `:why` name them — "melee Orc Warrior (3)", "move toward the Forge",
//! "2 dice, declaring spellcasting, with Tobin the Marksman (2) as a group".
//!
//! Owns only the wording; it reads the game for names and never changes it.

use super::hooks::{AbilityTarget, ActivationAsk, Aim, CouncilOrder, Order};
use crate::geometry::Vec2;
use crate::state::{Game, ModelId, TokenId, TokenKind};

/// A model by its log label ("Orc Warrior (3)"), or "model N" once it has left the table.
pub fn model_words(game: &Game, id: ModelId) -> String {
    match game.model(id) {
        Ok(m) => super::query::label(m),
        Err(_) => format!("model {}", id.0),
    }
}

/// A point on the table: "(12.0, 30.5)".
pub fn point_words(p: Vec2) -> String {
    format!("({:.1}, {:.1})", p.x, p.y)
}

fn token_words(game: &Game, id: TokenId) -> String {
    match game.tokens.iter().find(|t| t.id == id) {
        Some(t) => {
            let kind = match t.kind {
                TokenKind::Opportunity { .. } => "Opportunity",
                TokenKind::Barricade { .. } => "Barricade",
                TokenKind::Trap { .. } => "Trap",
            };
            format!("the {kind} token {} at {}", id.0, point_words(t.pos))
        }
        None => format!("token {}", id.0),
    }
}

/// What a Behaviour aims at: a model, a building, the nearest edge or a point.
pub fn aim_words(game: &Game, aim: &Aim) -> String {
    match aim {
        Aim::Model(id) => model_words(game, *id),
        Aim::Building(name) => format!("the {name}"),
        Aim::Edge => "the nearest table edge".to_string(),
        Aim::Point(p) => point_words(*p),
    }
}

fn ability_target_words(game: &Game, t: &AbilityTarget) -> String {
    match t {
        AbilityTarget::Model(id) => model_words(game, *id),
        AbilityTarget::Building(name) => format!("the {name}"),
        AbilityTarget::Point(p) => point_words(*p),
        AbilityTarget::Token(id) => token_words(game, *id),
    }
}

/// One order, as the action it is.
pub fn order_words(game: &Game, order: &Order) -> String {
    let m = |id: &ModelId| model_words(game, *id);
    match order {
        Order::Melee(id) => format!("melee {}", m(id)),
        Order::PowerBlow(id) => format!("a Power Blow on {}", m(id)),
        Order::Shoot(id) => format!("shoot {}", m(id)),
        Order::AimedShot(id) => format!("an Aimed Shot at {}", m(id)),
        Order::Structural(b) => format!("attack the {b}"),
        Order::Ignite(b) => format!("set the {b} on fire"),
        Order::Move(aim) => format!("move toward {}", aim_words(game, aim)),
        Order::Step(aim) => format!("step toward {}", aim_words(game, aim)),
        Order::Approach { aim, within } => format!(
            "move toward {} to within {within:.1}\"",
            aim_words(game, aim)
        ),
        Order::Leave => "leave by the nearest table edge".to_string(),
        Order::Claim(t) => format!("claim {}", token_words(game, *t)),
        Order::Use(item) => format!("use the {item}"),
        Order::Heal { target, .. } => format!("heal {}", m(target)),
        Order::Ability { name, target } => match target {
            Some(t) => format!("{name} at {}", ability_target_words(game, t)),
            None => name.clone(),
        },
        Order::Cast(c) => {
            let at = match (&c.target, &c.from, &c.to, &c.at) {
                (Some(t), ..) => format!(" at {}", m(t)),
                (None, Some(a), Some(b), _) => {
                    format!(" from {} to {}", point_words(*a), point_words(*b))
                }
                (None, _, _, Some(p)) => format!(" at {}", point_words(*p)),
                _ => String::new(),
            };
            format!("cast {} at Power {}{at}", c.spell, c.power)
        }
        Order::BreakFree => "break free".to_string(),
        Order::Concentrated { target, with } => {
            let with: Vec<String> = with.iter().map(m).collect();
            format!(
                "Concentrated Shooting at {} with {}",
                m(target),
                with.join(", ")
            )
        }
    }
}

/// A nomination: the dice, a declaration of spellcasting, a Leader's group.
pub fn activation_words(game: &Game, ask: &ActivationAsk) -> String {
    let mut s = format!(
        "activate with {} {}",
        ask.dice,
        if ask.dice == 1 { "die" } else { "dice" }
    );
    if ask.cast {
        s.push_str(", declaring spellcasting");
    }
    if !ask.group.is_empty() {
        let names: Vec<String> = ask.group.iter().map(|id| model_words(game, *id)).collect();
        s.push_str(&format!(", with {} as a group", names.join(", ")));
    }
    s
}

/// A Council order, as the purchase it is.
pub fn council_order_words(order: &CouncilOrder) -> String {
    match order {
        CouncilOrder::Upgrade { building, .. } => format!("upgrade the {building}"),
        CouncilOrder::Repair {
            building,
            supplies,
            free,
        } => match (free, supplies) {
            (true, _) => format!("repair the {building} (Engineering Corps, free)"),
            (false, Some(n)) => format!("repair the {building} for {n} Supplies"),
            (false, None) => format!("repair the {building}"),
        },
        CouncilOrder::Barricade { from, toward, .. } => format!(
            "a Barricade from {} toward {}",
            point_words(*from),
            point_words(*toward)
        ),
        CouncilOrder::Trap { at } => format!("a Trap at {}", point_words(*at)),
        CouncilOrder::FreeTrap { at } => format!("a free Trap at {}", point_words(*at)),
        CouncilOrder::Heal { hero } => format!("the Temple's Healing for {hero}"),
        CouncilOrder::Herb { hero } => format!("a Herb for {hero}"),
        CouncilOrder::Resurrect { hero, .. } => format!("the Resurrection of {hero}"),
    }
}

/// A list of Council orders: "nothing" when empty.
pub fn council_words(orders: &[CouncilOrder]) -> String {
    if orders.is_empty() {
        return "nothing".to_string();
    }
    orders
        .iter()
        .map(council_order_words)
        .collect::<Vec<_>>()
        .join("; ")
}
