//! The enemy turn (core §6.2): Enemy Groups activate in Behaviour play order (rosters/behaviours.toml
//! `order`, ties by Group number), each rolling once at its worst Quality (a Group grown past five, five
//! models at a time, §3.1); every model of the Group takes the same number of actions, one model after
//! the other, each action ordered by its Behaviour's script. Two failures end the enemy turn after the
//! Group's actions — except for a Behaviour that never causes a turnover (Mindless, Guardian), which also
//! takes at most its `max_actions` and whose roll is logged without a turnover.

use super::act::{enemy_step, execute, ActionReport, Step};
use crate::roster::Rosters;
use crate::rules::activation::{activate_enemy_group, activate_group};
use crate::rules::hooks::{ActivationAsk, Hooks, Order};
use crate::rules::RuleError;
use crate::state::{Game, ModelId, Side, Underway};
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

/// The most models one activation holds (§3.1, `activation.group_max_models`; at least one).
fn group_max(rosters: &Rosters) -> usize {
    (rosters.rules.activation.group_max_models as usize).max(1)
}

/// Passes over the Active models one turn may take. Every nomination either marks a model Activated or
/// leaves it Active after exactly one failed die, which a fair die cannot do forever; a rule constant
/// that makes failure certain could, and this stops it with an error instead of a hang.
const MAX_PASSES: u32 = 100;

fn runaway(side: &str) -> RuleError {
    RuleError::Refused(format!(
        "the {side}' turn was still nominating models after {MAX_PASSES} passes: a rule constant (the \
         natural faces, the dice) makes activation fail one die forever"
    ))
}

/// Play one enemy turn (§6.2): the Enemy Groups become Active and activate in Behaviour play order; a
/// Group that failed exactly one die without a turnover is still Active (§3.1) and activates again in a
/// later pass, in play order, until none is Active or a turnover ends the turn. Returns what each Group
/// activation did, in order.
pub fn enemy_turn(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<Vec<GroupTurn>, RuleError> {
    crate::rules::activation::begin_turn(game, Side::Enemies);
    let standing: Vec<bool> = game.buildings.iter().map(|b| !b.destroyed).collect();
    let turns = enemy_activations(game, rosters, hooks)?;
    enemy_turn_end(game, rosters, hooks, &standing)?;
    Ok(turns)
}

/// The end of an enemy turn: the variants in force hear it (`on_enemy_turn_end`: the threat track
/// moves) with the buildings Destroyed during it — those `standing` at its start and Destroyed now —
/// and what they ask for is applied. Nothing when the game ended during the turn.
fn enemy_turn_end(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    standing: &[bool],
) -> Result<(), RuleError> {
    if crate::rules::end::game_over(game, &rosters.rules) {
        return Ok(());
    }
    let destroyed: Vec<String> = (game.buildings.iter().zip(standing))
        .filter(|(b, stood)| **stood && b.destroyed)
        .map(|(b, _)| b.name.clone())
        .collect();
    let intents = hooks.on_enemy_turn_end(game, &destroyed)?;
    crate::rules::outcome::apply_intents(game, &rosters.rules, hooks, &intents)
}

/// The Enemy Groups' activations of one enemy turn, in passes until none is Active or a turnover.
fn enemy_activations(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<Vec<GroupTurn>, RuleError> {
    let mut turns = Vec::new();
    for _ in 0..MAX_PASSES {
        let mut any = false;
        for members in groups_in_order(game, rosters) {
            if halted(game, rosters) {
                return Ok(turns);
            }
            // A Group's models activate together; a model summoned into it this turn is not Active.
            let alive: Vec<ModelId> = members
                .into_iter()
                .filter(|id| game.model(*id).is_ok_and(|m| m.active))
                .collect();
            if alive.is_empty() {
                continue;
            }
            any = true;
            // §3.1: up to five models activate together on one roll, and Enemy Groups always activate
            // this way (§6.2). A Group is built with 1–5 models (§5.2); one that grew past five (the
            // Lich's Raise Dead: the Skeleton "joins its Group", SUPPLEMENT §8) stays one Group — one
            // Behaviour, one place in the play order — and activates five at a time, in id order, each
            // batch its own activation and roll (a turnover in any ends the turn).
            for batch in alive.chunks(group_max(rosters)) {
                if halted(game, rosters) {
                    return Ok(turns);
                }
                let batch: Vec<ModelId> = batch
                    .iter()
                    .copied()
                    .filter(|id| game.model(*id).is_ok_and(|m| m.active))
                    .collect();
                if batch.is_empty() {
                    continue;
                }
                let turn = group_activation(game, rosters, hooks, batch)?;
                let turnover = turn.turnover;
                turns.push(turn);
                if turnover {
                    return Ok(turns);
                }
            }
        }
        if !any {
            return Ok(turns);
        }
    }
    Err(runaway("enemies"))
}

/// One Enemy Group's activation: the Blessing offered, the heroes' side told, one roll for the Group, then
/// each model's actions as its Behaviour orders them.
fn group_activation(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    alive: Vec<ModelId>,
) -> Result<GroupTurn, RuleError> {
    let Some(first) = alive.first().and_then(|id| game.model(*id).ok()) else {
        return Err(RuleError::BadGroup("an Enemy Group with no model".into()));
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
    // Its Spell-casters declare before the Group rolls, as their Behaviour says (§3.7).
    let casters = enemy_casters(game, hooks, &alive)?;
    crate::rules::magic::declare(game, &casters)?;
    let played = activate_members(
        game,
        rosters,
        hooks,
        &alive,
        &casters,
        (dice, max_actions as u8, causes_turnover),
    );
    game.blessed = None;
    for id in &casters {
        if let Ok(m) = game.model_mut(*id) {
            m.declared = false;
        }
    }
    crate::rules::effects::end_activation(game);
    let (roll, actions, done) = played?;
    Ok(GroupTurn {
        group,
        behaviour,
        models: alive,
        actions,
        turnover: roll.turnover,
        done,
    })
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

/// The Spell-casters of an Enemy Group whose Behaviour declares spellcasting now (`declare`): those that
/// know a spell, may cast and are not out of power.
fn enemy_casters(
    game: &mut Game,
    hooks: &dyn Hooks,
    alive: &[ModelId],
) -> Result<Vec<ModelId>, RuleError> {
    let mut out = Vec::new();
    for id in alive {
        let able = game
            .model(*id)
            .is_ok_and(|m| !m.spells.is_empty() && !m.out_of_power)
            && crate::rules::magic::may_cast(game, hooks, *id).is_ok();
        if able && hooks.behaviour_declare(game, *id)? {
            out.push(*id);
        }
    }
    Ok(out)
}

/// One Group's activation: the roll (a declared caster that failed three dice is out of power), then
/// each model's actions in turn. `(dice, max_actions, turnover)`: the dice it rolls, the most actions it
/// takes, and whether its Behaviour may cause a turnover (a Mindless or Guardian Group never does, §6.2:
/// its roll is logged without one).
fn activate_members(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    alive: &[ModelId],
    casters: &[ModelId],
    (dice, max_actions, turnover): (u8, u8, bool),
) -> Result<Played, RuleError> {
    let roll = activate_enemy_group(game, &rosters.rules, hooks, alive, dice, turnover)?;
    crate::rules::magic::after_declared_roll(game, &rosters.rules, casters, &roll)?;
    let actions = roll.successes.min(max_actions);
    let mut done = Vec::new();
    for id in alive {
        if halted(game, rosters) {
            break;
        }
        let step =
            |g: &mut Game, id: ModelId, _: Option<&ActionReport>| enemy_step(g, rosters, hooks, id);
        for report in take_actions(game, rosters, hooks, *id, actions, &step)? {
            done.push((*id, report));
        }
    }
    let again = crate::rules::activation::stays_active(&roll)
        && rosters.rules.activation.enemy_groups_renominate;
    crate::rules::activation::mark_activated(game, alive, again);
    Ok((roll, actions, done))
}

/// What gives a model's next step: the game, the model, and the report of its action before (a plan
/// breaks on a refused order).
type NextStep<'a> =
    dyn Fn(&mut Game, ModelId, Option<&ActionReport>) -> Result<Step, RuleError> + 'a;

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
    next: &NextStep<'_>,
) -> Result<Vec<ActionReport>, RuleError> {
    let mut left = actions;
    let mut done = Vec::new();
    // Orders a script made free (`order_cost` answering 0) this activation: at most MAX_FREE_ORDERS.
    let mut free = 0;
    // The last order was a plan's with more to come: its decision is still under way.
    let mut planning = false;
    while game.model(id).is_ok() && !halted(game, rosters) {
        // With no action left, a Javelin may still be thrown for free after a move closer (§3.5): one
        // more order is asked for, taken only if it is that throw.
        let free_only = left == 0;
        if free_only && !super::act::free_throw_ready(game, rosters, id) {
            break;
        }
        let watch = super::morale::watch(game, hooks)?;
        game.model_mut(id)?.actions_left = left;
        let step = next(game, id, done.last())?;
        planning = matches!(step, Step::Planned(_));
        let (report, spent) = match step {
            Step::Done(_) if free_only => break,
            Step::Done(report) => {
                let cost = match report {
                    ActionReport::StoodUp => stand_up_cost(rosters),
                    _ => 1,
                };
                (report, cost)
            }
            Step::Order(order) | Step::Planned(order)
                if free_only
                    && super::act::free_throw_target(game, rosters, id, &order).is_none() =>
            {
                break;
            }
            Step::Order(order) | Step::Planned(order) => {
                let (mut cost, mut change) = super::act::cost_of(game, rosters, hooks, id, &order)?;
                if let (0, Some(c)) = (cost, &change) {
                    if free >= MAX_FREE_ORDERS {
                        // The rule a free order would break: a model has a limited number of actions
                        // (SUPPLEMENT §3). The cost change is refused and the order costs what the
                        // rulebook says, so the activation ends.
                        game.record(crate::state::EventKind::Refused {
                            source: c.source.clone(),
                            choice: format!(
                                "{} at no cost ({})",
                                crate::rules::words::order_words(game, &order),
                                c.reason
                            ),
                            reason: format!(
                                "{} took {MAX_FREE_ORDERS} free orders this activation, the most a \
                                 model takes (SUPPLEMENT §3: a model has a limited number of actions); \
                                 this one costs what the rulebook says",
                                game.model(id).map(crate::rules::query::label).unwrap_or_default()
                            ),
                        });
                        cost = super::act::order_cost(&rosters.rules, &order);
                        change = None;
                    } else {
                        free += 1;
                    }
                }
                if cost > left {
                    let why = super::act::short_of(&order, cost, left);
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
        // The morale checks it set off were the last of what this action's decisions led to (unless
        // a plan's decision goes on to its next order).
        if !planning {
            game.decisions_done();
        }
        if free_only {
            break;
        }
    }
    if planning {
        // The actions ran out before the plan did.
        game.decisions_done();
    }
    if let Ok(m) = game.model_mut(id) {
        m.actions_left = 0;
    }
    Ok(done)
}

/// The most orders a script may make free (`order_cost` answering `{ cost = 0 }`) in one model's
/// activation: as many as the actions a model may have (SUPPLEMENT §3: at most three a turn). A free
/// order spends no action, so without a bound a script that makes every order free kept an activation
/// asking for orders forever. Past it, the order costs what the rulebook says and a `refused` event
/// names the script. (A Javelin's free throw is no script's and is bounded by its move.)
pub const MAX_FREE_ORDERS: u8 = 3;

/// Actions standing up costs (SUPPLEMENT §3).
fn stand_up_cost(rosters: &Rosters) -> u8 {
    u8::try_from(rosters.rules.actions.stand_up).unwrap_or(u8::MAX)
}

/// One order of a player's model with `left` actions (interactive play): a Defenseless model not Engaged
/// stands up instead (the action is spent, the order not taken); an order the rules refuse, one
/// needing more actions than are left, or a move or step that would not move the model (it is already
/// where it aims, or something is in the way from the start: [`super::act::went_nowhere`]) is an error
/// with the reason and spends nothing (unlike the turn engine, which loses an action for the hero
/// policy's mistakes). Returns what it did and the actions it cost; the morale triggers run after it
/// as after any action.
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
        (stood, stand_up_cost(rosters))
    } else {
        let (cost, change) = super::act::cost_of(game, rosters, hooks, id, &order)?;
        if cost > left {
            return Err(RuleError::Refused(super::act::short_of(&order, cost, left)));
        }
        // A move or step that cannot take the model anywhere (already there, or blocked at once) is
        // refused as any impossible order is: the game goes back to before it, Free Hacks and all (a
        // model that does not move leaves nobody, SUPPLEMENT §11).
        let asked = matches!(order, Order::Move(_) | Order::Step(_)).then(|| order.clone());
        let before = asked.as_ref().map(|_| game.checkpoint());
        let from = game.model(id)?.pos;
        let report = execute(game, rosters, hooks, id, order)?;
        if let (Some(asked), Some(before)) = (asked, before) {
            if let Some(why) =
                super::act::went_nowhere(game, &rosters.rules, id, &asked, from, &report)
            {
                game.restore(before);
                return Err(RuleError::Refused(why));
            }
        }
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
    // Every order's points are checked before the first action is taken: a bad one later in the list
    // must not leave the earlier ones done and the model's actions set.
    for o in &orders {
        o.check_input(&game.table)?;
    }
    let queue = std::cell::RefCell::new(orders.into_iter());
    let step = |g: &mut Game, id: ModelId, _: Option<&ActionReport>| -> Result<Step, RuleError> {
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
        // Malformed input (a NaN or off-table point) is not a rules refusal: it stops, naming the value.
        Err(RuleError::Input(e)) => Err(RuleError::Input(e)),
        Err(e) => Ok(ActionReport::Lost { why: e.to_string() }),
        ok => ok,
    }
}

/// What one nomination of the heroes' side did in a hero turn: a model, or a Leader with its group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeroActivation {
    /// The model nominated (the Leader of a group).
    pub model: ModelId,
    /// The other models of its group, if it activated a group (§3.1).
    pub group: Vec<ModelId>,
    pub successes: u8,
    pub turnover: bool,
    /// Each action, in order, with the model that took it.
    pub done: Vec<(ModelId, ActionReport)>,
}

/// Spend `actions` of a heroes'-side model on what the hero policy orders (the rest of an activation a
/// player began by hand, or a whole one): its plan when it plans (`wave::activation_plan`), else its `act` for
/// each action.
pub fn policy_actions(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    actions: u8,
) -> Result<Vec<ActionReport>, RuleError> {
    orders_then_policy(game, rosters, hooks, id, actions, Vec::new())
}

/// Nominate a model of the heroes' side and roll (§3.1, §3.7): alone, or as the Leader of a group, with
/// its declaration of spellcasting made before the roll. Everything is checked before anything changes
/// (an Active model of the heroes' side, a legal group, the dice, a Spell-caster that may declare); then
/// the other side's scripts hear of it, the dice are rolled, a model that failed exactly one die without a
/// turnover will stay Active (marked by [`finish_activation`]), and a declared caster that failed three
/// dice is out of power. Returns the roll and the activating models, the nominated one first; their
/// actions follow, then [`finish_activation`].
pub fn nominate(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    ask: &ActivationAsk,
) -> Result<(crate::dice::ActivationRoll, Vec<ModelId>), RuleError> {
    let rules = &rosters.rules;
    let mut members = vec![id];
    for m in &ask.group {
        if !members.contains(m) {
            members.push(*m);
        }
    }
    for m in &members {
        let mm = game.model(*m)?;
        if mm.side != Side::Heroes {
            return Err(RuleError::BadGroup(format!(
                "{} is not of the heroes' side",
                crate::rules::query::label(mm)
            )));
        }
        if !mm.active {
            return Err(RuleError::NotAllowed(
                crate::rules::query::label(mm),
                "activate: it is not Active (it has activated this turn)",
            ));
        }
    }
    rules.activation.roll_rules().check_dice_count(ask.dice)?;
    if members.len() > 1 {
        crate::rules::activation::check_group(game, rules, hooks, Some(id), &members)?;
    }
    let casters = if ask.cast {
        crate::rules::magic::casters(game, hooks, &members)?
    } else {
        Vec::new()
    };
    opponents_react(game, rosters, hooks, &members)?;
    crate::rules::magic::declare(game, &casters)?;
    let roll = if members.len() == 1 {
        crate::rules::activation::activate(game, rules, hooks, id, ask.dice)?
    } else {
        activate_group(game, rules, hooks, Some(id), &members[1..], ask.dice)?
    };
    crate::rules::magic::after_declared_roll(game, rules, &casters, &roll)?;
    Ok((roll, members))
}

/// The end of an activation: its models are marked Activated, or stay Active when `again` (they failed
/// exactly one die without a turnover, [`crate::rules::activation::stays_active`]); what scripts granted
/// for it ends (Hold the Line), and its declaration of spellcasting lapses.
pub fn finish_activation(game: &mut Game, members: &[ModelId], again: bool) {
    crate::rules::activation::mark_activated(game, members, again);
    crate::rules::effects::end_activation(game);
    for id in members {
        if let Ok(m) = game.model_mut(*id) {
            m.declared = false;
        }
    }
}

/// The actions of a hero activation from its member `under.current` on, then its end
/// ([`finish_activation`]): the current member has `left` actions (`None`: the roll's successes) and
/// carries out `orders` first (a playout's candidate, `wave::rollout`), then the hero policy orders the
/// rest, member after member. The game keeps the activation as [`Game::underway`] meanwhile, for a
/// policy that plays it out. Returns each action with the model that took it.
pub fn activation_actions(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    under: Underway,
    left: Option<u8>,
    orders: Vec<Order>,
) -> Result<Vec<(ModelId, ActionReport)>, RuleError> {
    let mut done = Vec::new();
    let mut first = Some((left.unwrap_or(under.successes), orders));
    for (i, m) in under.members.iter().enumerate().skip(under.current) {
        game.underway = Some(Underway {
            current: i,
            ..under.clone()
        });
        let (actions, orders) = first.take().unwrap_or((under.successes, Vec::new()));
        for r in orders_then_policy(game, rosters, hooks, *m, actions, orders)? {
            done.push((*m, r));
        }
    }
    game.underway = None;
    finish_activation(game, &under.members, under.again);
    Ok(done)
}

/// Spend `actions` of model `id` on `orders` first, in turn, then on what the hero policy orders: its
/// plan when it plans (`wave::activation_plan`: asked once for the activation's orders, again when the
/// plan runs out or breaks), else its `act` for each action.
fn orders_then_policy(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    actions: u8,
    orders: Vec<Order>,
) -> Result<Vec<ActionReport>, RuleError> {
    let queue = std::cell::RefCell::new(std::collections::VecDeque::from(orders));
    let planner = super::activation_plan::Planner::default();
    let step =
        |g: &mut Game, id: ModelId, last: Option<&ActionReport>| -> Result<Step, RuleError> {
            if let Some(stood) = super::act::stand_up_first(g, &rosters.rules, id)? {
                return Ok(Step::Done(stood));
            }
            if let Some(order) = queue.borrow_mut().pop_front() {
                return Ok(Step::Order(order));
            }
            if let Some(step) = planner.next(g, rosters, hooks, id, last)? {
                return Ok(step);
            }
            Ok(match hooks.policy_order(g, id)? {
                Some(order) => Step::Order(order),
                None => super::activation_plan::nothing(),
            })
        };
    take_actions(game, rosters, hooks, id, actions, &step)
}

/// Play one hero turn (core §3.1, §6.1): the heroes' side becomes Active, then its models are offered to
/// the hero policy in id order, pass after pass: each it nominates rolls the dice the policy asks for
/// (alone or leading a group, declaring spellcasting when asked) and takes the actions the policy orders.
/// A model that failed exactly one die without a turnover stays Active and is offered again in the next
/// pass; a turnover ends the turn; the turn ends when a pass nominates nobody.
pub fn hero_turn(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<Vec<HeroActivation>, RuleError> {
    crate::rules::activation::begin_turn(game, Side::Heroes);
    hero_turn_rest(game, rosters, hooks)
}

/// The rest of a hero turn (the REPL's `:heroes`, after a player's own activations): the hero policy
/// plays the models of the heroes' side that are still Active.
pub fn hero_turn_rest(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<Vec<HeroActivation>, RuleError> {
    hero_passes(game, rosters, hooks, None)
}

/// The hero turn's passes from here; `skip` is left out of the first (the policy let it wait).
pub(super) fn hero_passes(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    skip: Option<ModelId>,
) -> Result<Vec<HeroActivation>, RuleError> {
    let mut out = Vec::new();
    for pass in 0..MAX_PASSES {
        let ids: Vec<ModelId> = game
            .side(Side::Heroes)
            .filter(|m| m.active && !(pass == 0 && Some(m.id) == skip))
            .map(|m| m.id)
            .collect();
        let mut any = false;
        for id in ids {
            // No enemy left (also outside a wave, in a scenario) or the game ended: the turn is over.
            if halted(game, rosters) || game.side(Side::Enemies).next().is_none() {
                return Ok(out);
            }
            // Gone, or activated meanwhile in a Leader's group.
            if !game.model(id).is_ok_and(|m| m.active) {
                continue;
            }
            let Some(ask) = hooks.policy_activation(game, id)? else {
                // "Not now" led to nothing.
                game.decisions_done();
                continue;
            };
            any = true;
            let (roll, members) = nominate(game, rosters, hooks, id, &ask)?;
            // The nomination led to the roll and what the other side's scripts did on hearing of it.
            game.decisions_done();
            let done = activation_actions(
                game,
                rosters,
                hooks,
                Underway {
                    members: members.clone(),
                    successes: roll.successes,
                    again: crate::rules::activation::stays_active(&roll),
                    turnover: roll.turnover,
                    current: 0,
                },
                None,
                Vec::new(),
            )?;
            out.push(HeroActivation {
                model: id,
                group: members[1..].to_vec(),
                successes: roll.successes,
                turnover: roll.turnover,
                done,
            });
            if roll.turnover {
                return Ok(out);
            }
        }
        if !any {
            return Ok(out);
        }
    }
    Err(runaway("heroes"))
}
