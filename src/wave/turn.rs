//! The enemy turn (core §6.2): Enemy Groups activate in Behaviour play order (rosters/behaviours.toml
//! `order`, ties by Group number), each rolling once at its worst Quality; every model of the Group takes
//! the same number of actions, one model after the other, each action ordered by its Behaviour's script.
//! Two failures end the enemy turn after the Group's actions — except for a Behaviour that never causes a
//! turnover (Mindless, Guardian), which also takes at most its `max_actions`.

use super::act::{enemy_step, execute, ActionReport, Step};
use crate::roster::Rosters;
use crate::rules::activation::activate_group;
use crate::rules::hooks::Hooks;
use crate::rules::RuleError;
use crate::state::{Game, ModelId, Side};
use serde::Serialize;

/// The wave (or the game) ended at the last event: no further activation or action (Ch. VI; SUPPLEMENT
/// §10, "immediately means immediately").
fn halted(game: &Game, rosters: &Rosters) -> bool {
    crate::rules::end::halted(game, &rosters.rules).is_some()
}

/// What one Group did in an enemy turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupTurn {
    pub group: Option<u32>,
    pub behaviour: Option<String>,
    pub models: Vec<ModelId>,
    pub actions: u8,
    pub turnover: bool,
    pub done: Vec<(ModelId, ActionReport)>,
}

/// The Enemy Groups on the table in activation order: (Behaviour order, Group number), each with its
/// models in id order. A model without a Group is a Group of its own.
pub fn groups_in_order(game: &Game, rosters: &Rosters) -> Vec<Vec<ModelId>> {
    let mut keyed: Vec<((u32, u32, u32), ModelId)> = game
        .side(Side::Enemies)
        .map(|m| {
            let order = m
                .behaviour
                .as_deref()
                .and_then(|b| rosters.behaviour(b))
                .map_or(u32::MAX, |b| b.order);
            let group = m.group.unwrap_or(u32::MAX);
            let solo = if m.group.is_none() { m.id.0 } else { 0 };
            ((order, group, solo), m.id)
        })
        .collect();
    keyed.sort_by_key(|(k, id)| (*k, *id));
    let mut out: Vec<Vec<ModelId>> = Vec::new();
    let mut last = None;
    for (k, id) in keyed {
        if Some(k) == last {
            if let Some(g) = out.last_mut() {
                g.push(id);
            }
        } else {
            out.push(vec![id]);
            last = Some(k);
        }
    }
    out
}

/// Play one enemy turn. Returns what each Group did, in order, until a turnover ended the turn.
pub fn enemy_turn(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<Vec<GroupTurn>, RuleError> {
    let mut turns = Vec::new();
    for members in groups_in_order(game, rosters) {
        if halted(game, rosters) {
            break;
        }
        let alive: Vec<ModelId> = members
            .into_iter()
            .filter(|id| game.model(*id).is_ok())
            .collect();
        let Some(first) = alive.first().and_then(|id| game.model(*id).ok()) else {
            continue;
        };
        let (group, behaviour) = (first.group, first.behaviour.clone());
        let spec = behaviour.as_deref().and_then(|b| rosters.behaviour(b));
        let max_actions = spec.map_or(3, |b| b.max_actions);
        let causes_turnover = spec.is_none_or(|b| b.turnover);
        // A Group capped at one action still rolls the Group's dice ("on two failures it simply
        // receives no action", §6.2): one success is enough.
        let dice = rosters.rules.wave.enemy_dice.max(1);
        // Temple II: the Blessing is chosen before the activation begins and lasts until it ends.
        super::abilities::offer_blessing(game, rosters, hooks, &alive)?;
        opponents_react(game, rosters, hooks, &alive)?;
        let played = activate_members(game, rosters, hooks, &alive, dice, max_actions as u8);
        game.blessed = None;
        crate::rules::effects::end_activation(game);
        let (roll, actions, done) = played?;
        let turnover = roll.turnover && causes_turnover;
        turns.push(GroupTurn {
            group,
            behaviour,
            models: alive,
            actions,
            turnover,
            done,
        });
        if turnover {
            break;
        }
    }
    Ok(turns)
}

/// The other side's scripts hear that `activating` is about to roll (`on_opponent_activation`: Hold the
/// Line) and the kernel applies what they ask for.
fn opponents_react(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    activating: &[ModelId],
) -> Result<(), RuleError> {
    let intents = hooks.on_opponent_activation(game, activating)?;
    crate::rules::outcome::apply_intents(game, &rosters.rules, hooks, &intents)
}

/// A Group's roll, the actions each model got, and what they did.
type Played = (
    crate::dice::ActivationRoll,
    u8,
    Vec<(ModelId, ActionReport)>,
);

/// One Group's activation: the roll, then each model's actions in turn.
fn activate_members(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    alive: &[ModelId],
    dice: u8,
    max_actions: u8,
) -> Result<Played, RuleError> {
    let roll = activate_group(game, &rosters.rules, hooks, None, alive, dice)?;
    let actions = roll.successes.min(max_actions);
    let mut done = Vec::new();
    for id in alive {
        if halted(game, rosters) {
            break;
        }
        let step = |g: &mut Game, id: ModelId| enemy_step(g, rosters, hooks, id);
        for report in take_actions(game, rosters, hooks, *id, actions, &step)? {
            done.push((*id, report));
        }
        if let Ok(m) = game.model_mut(*id) {
            m.active = false;
        }
    }
    Ok((roll, actions, done))
}

/// Spend a model's `actions`, one step at a time: `next` says what each is (an order, or an action
/// already settled); an order costs what [`super::act::cost_of`] says (a Power Blow or an Aimed Shot two,
/// unless a script lowers it) and is
/// lost when fewer actions are left; an order the rules refuse loses one action. The model's
/// `actions_left` shows the script deciding how many remain.
fn take_actions(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    actions: u8,
    next: &dyn Fn(&mut Game, ModelId) -> Result<Step, RuleError>,
) -> Result<Vec<ActionReport>, RuleError> {
    let mut left = actions;
    let mut done = Vec::new();
    while left > 0 && game.model(id).is_ok() && !halted(game, rosters) {
        let watch = super::morale::watch(game, hooks)?;
        game.model_mut(id)?.actions_left = left;
        let (report, spent) = match next(game, id)? {
            Step::Done(report) => (report, 1),
            Step::Order(order) => {
                let (cost, change) = super::act::cost_of(game, rosters, hooks, id, &order)?;
                if cost > left {
                    let why = format!("the order needs {cost} actions and {left} are left");
                    (ActionReport::Lost { why }, 1)
                } else {
                    match lose_if_refused(execute(game, rosters, hooks, id, order))? {
                        lost @ ActionReport::Lost { .. } => (lost, 1),
                        report => {
                            super::act::pay(game, change.as_ref())?;
                            (report, cost)
                        }
                    }
                }
            }
        };
        done.push(report);
        left = left.saturating_sub(spent);
        super::morale::after_action(game, rosters, hooks, &watch)?;
    }
    if let Ok(m) = game.model_mut(id) {
        m.actions_left = 0;
    }
    Ok(done)
}

/// One order of a player's model with `left` actions (interactive play): a Defenseless model not Engaged
/// stands up instead (the action is spent, the order not taken); an order the rules refuse, or one
/// needing more actions than are left, is an error with the reason and spends nothing (unlike the turn
/// engine, which loses an action for the hero policy's mistakes). Returns what it did and the actions
/// it cost; the morale triggers run after it as after any action.
pub fn player_step(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    left: u8,
    order: crate::rules::hooks::Order,
) -> Result<(ActionReport, u8), RuleError> {
    let watch = super::morale::watch(game, hooks)?;
    game.model_mut(id)?.actions_left = left;
    let done = if let Some(stood) = super::act::stand_up_first(game, &rosters.rules, id)? {
        (stood, 1)
    } else {
        let (cost, change) = super::act::cost_of(game, rosters, hooks, id, &order)?;
        if cost > left {
            return Err(RuleError::Refused(format!(
                "the order needs {cost} actions and {left} are left"
            )));
        }
        let report = execute(game, rosters, hooks, id, order)?;
        super::act::pay(game, change.as_ref())?;
        (report, cost)
    };
    if let Ok(m) = game.model_mut(id) {
        m.actions_left = left.saturating_sub(done.1);
    }
    super::morale::after_action(game, rosters, hooks, &watch)?;
    Ok(done)
}

/// Let the other side react to `activating` before its roll (interactive play's activations).
pub fn before_activation(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    activating: &[ModelId],
) -> Result<(), RuleError> {
    opponents_react(game, rosters, hooks, activating)
}

/// Spend `actions` of model `id` on `orders`, in turn, as the turn engine does (costs, lost actions, a
/// Defenseless model standing up first): for scenarios and the REPL. Orders left over are not taken.
pub fn take_orders(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    actions: u8,
    orders: Vec<crate::rules::hooks::Order>,
) -> Result<Vec<ActionReport>, RuleError> {
    let queue = std::cell::RefCell::new(orders.into_iter());
    let step = |g: &mut Game, id: ModelId| -> Result<Step, RuleError> {
        if let Some(stood) = super::act::stand_up_first(g, &rosters.rules, id)? {
            return Ok(Step::Done(stood));
        }
        Ok(match queue.borrow_mut().next() {
            Some(order) => Step::Order(order),
            None => Step::Done(ActionReport::Lost {
                why: "no order left".into(),
            }),
        })
    };
    take_actions(game, rosters, hooks, id, actions, &step)
}

/// An order the rules refuse loses the action (with the reason, in the report) instead of stopping the
/// game; a failing script is still an error.
fn lose_if_refused(r: Result<ActionReport, RuleError>) -> Result<ActionReport, RuleError> {
    match r {
        Err(RuleError::Hook(e)) => Err(RuleError::Hook(e)),
        Err(e) => Ok(ActionReport::Lost { why: e.to_string() }),
        ok => ok,
    }
}

/// What one model of the heroes' side did in a hero turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeroActivation {
    pub model: ModelId,
    pub successes: u8,
    pub turnover: bool,
    pub done: Vec<ActionReport>,
}

/// Spend `actions` of a heroes'-side model on what the hero policy orders (the rest of an activation a
/// player began by hand, or a whole one).
pub fn policy_actions(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    actions: u8,
) -> Result<Vec<ActionReport>, RuleError> {
    let step = |g: &mut Game, id: ModelId| -> Result<Step, RuleError> {
        if let Some(stood) = super::act::stand_up_first(g, &rosters.rules, id)? {
            return Ok(Step::Done(stood));
        }
        Ok(match hooks.policy_order(g, id)? {
            Some(order) => Step::Order(order),
            None => Step::Done(ActionReport::Lost {
                why: "the policy ordered nothing".into(),
            }),
        })
    };
    take_actions(game, rosters, hooks, id, actions, &step)
}

/// Play one hero turn (core §3.1, §6.1): heroes and Village Defenders activate one at a time in id order,
/// each rolling the dice the hero policy asks for and taking the actions the policy orders; a turnover
/// ends the turn.
pub fn hero_turn(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<Vec<HeroActivation>, RuleError> {
    hero_turn_of(game, rosters, hooks, false)
}

/// The rest of a hero turn the player began by hand (the REPL's `:heroes`): the hero policy plays the
/// models of the heroes' side that have not activated this round.
pub fn hero_turn_rest(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<Vec<HeroActivation>, RuleError> {
    hero_turn_of(game, rosters, hooks, true)
}

fn hero_turn_of(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    only_active: bool,
) -> Result<Vec<HeroActivation>, RuleError> {
    let ids: Vec<ModelId> = game
        .side(Side::Heroes)
        .filter(|m| !only_active || m.active)
        .map(|m| m.id)
        .collect();
    let mut out = Vec::new();
    for id in ids {
        // No enemy left (also outside a wave, in a scenario) or the game ended: the turn is over.
        if halted(game, rosters) || game.side(Side::Enemies).next().is_none() {
            break;
        }
        if game.model(id).is_err() {
            continue;
        }
        let dice = hooks.policy_dice(game, id)?;
        opponents_react(game, rosters, hooks, &[id])?;
        let roll = crate::rules::activation::activate(game, &rosters.rules, hooks, id, dice)?;
        let done = policy_actions(game, rosters, hooks, id, roll.successes)?;
        crate::rules::effects::end_activation(game);
        if let Ok(m) = game.model_mut(id) {
            m.active = false;
        }
        out.push(HeroActivation {
            model: id,
            successes: roll.successes,
            turnover: roll.turnover,
            done,
        });
        if roll.turnover {
            break;
        }
    }
    Ok(out)
}
