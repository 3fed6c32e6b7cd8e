//! The universal priority of core §6.2 as the kernel's own procedure: what one action of an enemy does
//! about its target, for a Behaviour that declares `universal = true` (for a model that has not declared
//! spellcasting, its `act` is the universal priority, `A.default` of scripts/lib/act.lua). The kernel
//! decides natively where the rule needs no script; for a Spell-caster that declared (which spell, at
//! whom, at what Power) or a model whose scripts offer special actions (`ctx:usable`) it answers
//! [`Universal::Ask`] and the Behaviour's `act` decides, as before. The same steps in the same order as `A.default`, with the same
//! reasons: the two must give the same order for the same table (tools/same-play.sh checks it).

use crate::roster::Rosters;
use crate::rules::hooks::{Aim, Hooks, Order};
use crate::rules::RuleError;
use crate::state::{Condition, Game, Model, ModelId};

/// What the universal priority decides for one action.
#[derive(Debug, Clone, PartialEq)]
pub enum Universal {
    /// The order (none: the action is lost) and the reason, as `A.default` gives them.
    Decided(Option<Order>, &'static str),
    /// A step that needs a script: the Behaviour's `act` must decide.
    Ask,
}

/// The edge-to-edge gap from `me` to what `aim` names: a model's base, a building's footprint or a
/// point (as `ctx:distance_to` measures; never below 0); `None` for the table edge.
pub fn gap_to(game: &Game, me: &Model, aim: &Aim) -> Result<Option<f64>, RuleError> {
    Ok(Some(match aim {
        Aim::Model(id) => gap_to_model(game, me, *id)?,
        Aim::Building(name) => gap_to_building(game, me, name)?,
        Aim::Point(p) => gap_to_point(me, *p),
        Aim::Edge => return Ok(None),
    }))
}

/// The gap between two models' bases (never below 0).
pub fn gap_to_model(game: &Game, me: &Model, other: ModelId) -> Result<f64, RuleError> {
    Ok(crate::rules::query::gap(me, game.model(other)?).max(0.0))
}

/// The gap between a model's base and a building's footprint (never below 0).
pub fn gap_to_building(game: &Game, me: &Model, name: &str) -> Result<f64, RuleError> {
    Ok(gap_to_footprint(me, game.building(name)?))
}

/// The gap between a model's base and building `b`'s footprint (never below 0).
pub fn gap_to_footprint(me: &Model, b: &crate::state::Building) -> f64 {
    crate::geometry::circle_rect_gap(&me.circle(), &b.rect).max(0.0)
}

/// The gap between a model's base and a point (never below 0).
pub fn gap_to_point(me: &Model, p: crate::geometry::Vec2) -> f64 {
    (me.pos.dist(p) - me.base / 2.0).max(0.0)
}

/// Whether the model is held where it stands (Transfixed or Entangled, §3.7): it must break free to
/// move.
fn held(m: &Model) -> bool {
    m.has(Condition::Transfixed) || m.has(Condition::Entangled)
}

/// A move toward `aim`: breaking free first when held; a Slow model that has made its one move action
/// this activation takes a step instead (§3.3).
fn closing_in(m: &Model, aim: &Aim) -> Order {
    if held(m) {
        Order::BreakFree
    } else if m.moved > 0.0 && m.has_trait("Slow") {
        // By the trait's name, as `A.move` of scripts/lib/act.lua asks, so the two give the same order.
        Order::Step(aim.clone())
    } else {
        Order::Move(aim.clone())
    }
}

/// One action of enemy `id` toward `aim` by the universal priority (§6.2), `A.default`'s steps:
/// leave by the edge; beside its building, set it alight (an Igniter, where Igniters burn) or attack
/// it; a special action (asked of the scripts); attack the target in contact, else the adjacent enemy
/// nearest the target; a declared spell (asked of the scripts); shoot the target; stand at a point
/// reached; else close in. `hooks` answers the permissions and the shooting rules, as for `ctx`.
pub fn universal_act(
    game: &Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    aim: &Aim,
    offers_actions: bool,
) -> Result<Universal, RuleError> {
    use Universal::Decided;
    let rules = &rosters.rules;
    let me = game.model(id)?;
    let touch = rules.bases.contact_tolerance;
    let may_attack = u32::from(me.attacks) < rules.actions.attacks_per_turn;
    let adjacent = |aim: &Aim| -> Result<bool, RuleError> {
        Ok(gap_to(game, me, aim)?.is_some_and(|d| d <= touch))
    };
    // A Spell-caster that declared is its script's to play: which spell, at whom, at what Power (and a
    // Behaviour may put a spell before the universal steps: the Fanatic's at an Engaged hero).
    if me.declared {
        return Ok(Universal::Ask);
    }
    if *aim == Aim::Edge {
        return Ok(if held(me) {
            Decided(
                Some(Order::BreakFree),
                "held where it stands: it breaks free before it can leave",
            )
        } else {
            Decided(Some(Order::Leave), "it leaves by the nearest edge")
        });
    }
    if let Aim::Building(name) = aim {
        if adjacent(aim)? {
            let b = game.building(name)?;
            if game.igniters_burn && !b.fire && hooks.permission(game, id, "ignite")?.is_some() {
                return Ok(Decided(
                    Some(Order::Ignite(name.clone())),
                    "an Igniter beside its unburnt building sets it alight (§6.4)",
                ));
            }
            return Ok(Decided(
                Some(Order::Structural(name.clone())),
                "beside the building it targets: it attacks it (§6.4)",
            ));
        }
    }
    // A special rule's action comes next: which, and whether it may be used now, its script says.
    if offers_actions {
        return Ok(Universal::Ask);
    }
    if let Aim::Model(target) = aim {
        if adjacent(aim)? {
            return Ok(if may_attack {
                Decided(
                    Some(Order::Melee(*target)),
                    "in contact with its target: it attacks (§6.2)",
                )
            } else {
                Decided(
                    None,
                    "in contact with its target after its one attack this turn",
                )
            });
        }
    }
    // The adjacent enemy nearest the target (the first of equals, in the order the Engaged are listed).
    let mut foe: Option<(ModelId, f64)> = None;
    for e in crate::rules::query::engaged_enemies(game, rules, id) {
        let d = gap_to(game, game.model(e)?, aim)?.unwrap_or(0.0);
        if foe.is_none_or(|(_, best)| d < best) {
            foe = Some((e, d));
        }
    }
    if let Some((foe, _)) = foe {
        return Ok(if may_attack {
            Decided(
                Some(Order::Melee(foe)),
                "Engaged: it attacks the adjacent enemy nearest its target (§6.2)",
            )
        } else {
            Decided(
                None,
                "Engaged after its one attack this turn: leaving would cost Free Hacks",
            )
        });
    }
    if let Aim::Model(target) = aim {
        // "If the target becomes attackable ... attack it" (§6.2 step 3): a shot (a declared
        // Spell-caster's spell was left to its script above).
        if may_attack {
            match crate::rules::ranged::may_shoot(game, rosters, hooks, id, *target) {
                Ok(()) => {
                    return Ok(Decided(
                        Some(Order::Shoot(*target)),
                        "its target is in range and sight: it shoots (§6.2)",
                    ))
                }
                Err(RuleError::Hook(h)) => return Err(RuleError::Hook(h)),
                Err(_) => {}
            }
        }
    }
    if let Aim::Point(_) = aim {
        if adjacent(aim)? {
            return Ok(Decided(None, "already at the point it was heading for"));
        }
    }
    Ok(Decided(
        Some(closing_in(me, aim)),
        "not yet able to attack its target: it closes in by the shortest route",
    ))
}
