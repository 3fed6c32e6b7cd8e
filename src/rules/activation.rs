//! Activation (§3.1): roll 1–3 dice against Quality; successes are actions; two failures a turnover.

use super::error::RuleError;
use super::hooks::Hooks;
use crate::dice::ActivationRoll;
use crate::roster::Rules;
use crate::state::{EventKind, Game, ModelId};

/// The permission (granted by the Hero trait's script) to take one of its activation dice as an
/// automatic success that is not rolled and to pass a one-die Quality check (§3.1, SUPPLEMENT §4).
pub const AUTOMATIC_SUCCESS: &str = "automatic_success";

/// The permission (granted by the Leader trait's script) to activate a group around the model (§3.1).
pub const LEAD: &str = "lead";

/// Roll an activation for `id` with `dice` dice and log the roll and its result. A Hero (the trait)
/// rolls one die fewer and has one automatic success instead (SUPPLEMENT §4): with one die it rolls
/// nothing.
pub fn activate(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    id: ModelId,
    dice: u8,
) -> Result<ActivationRoll, RuleError> {
    let hero = hooks.permission(game, id, AUTOMATIC_SUCCESS)?.is_some();
    let m = game.model(id)?;
    let quality = m.quality;
    check_dice(rules, dice)?;
    begin_activation(game, id)?;
    let automatic = if hero {
        rules.activation.automatic(dice)
    } else {
        0
    };
    let faces = roll_faces(game, hooks, &[id], dice - automatic, quality)?;
    let roll = ActivationRoll::evaluate(&faces, quality, automatic, &rules.activation.roll_rules());
    record_roll(game, id, &roll);
    rolled(game, rules, hooks, &[id], &roll)?;
    Ok(roll)
}

/// After an activation roll, each activating model's scripts hear it (`on_activation`) and the changes
/// they ask for apply, before any action.
fn rolled(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    ids: &[ModelId],
    roll: &ActivationRoll,
) -> Result<(), RuleError> {
    for id in ids {
        if game.model(*id).is_err() {
            continue;
        }
        let intents = hooks.on_activation(game, *id, roll)?;
        super::outcome::apply_intents(game, rules, hooks, &intents)?;
    }
    Ok(())
}

/// An activation may roll 1 to `activation.max_dice` dice (core §3.1: one, two or three).
fn check_dice(rules: &Rules, dice: u8) -> Result<(), RuleError> {
    Ok(rules.activation.roll_rules().check_dice_count(dice)?)
}

fn record_roll(game: &mut Game, model: ModelId, roll: &ActivationRoll) {
    game.record(EventKind::Activation {
        model,
        dice: roll.dice.clone(),
        automatic: roll.automatic,
        successes: roll.successes,
        failures: roll.failures,
        turnover: roll.turnover,
    });
}

/// Group activation (§3.1): up to the roster's maximum of models, each within the group range (Long) of
/// the Leader and of each other, roll once with the worst Quality; every member gets the same actions.
/// An Enemy Group activates this way without a Leader (`leader = None`), however spread out (§6.2).
/// The Hero trait helps only if every member has it.
pub fn activate_group(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    leader: Option<ModelId>,
    members: &[ModelId],
    dice: u8,
) -> Result<ActivationRoll, RuleError> {
    activate_group_with(game, rules, hooks, leader, members, dice, true)
}

/// [`activate_group`] for an Enemy Group whose Behaviour may never cause a turnover (§6.2: a Mindless or
/// Guardian Group "never causes a turnover — on two failures it simply receives no action"): with
/// `turnover` false the roll is logged and returned without one, however many dice failed.
pub fn activate_enemy_group(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    members: &[ModelId],
    dice: u8,
    turnover: bool,
) -> Result<ActivationRoll, RuleError> {
    activate_group_with(game, rules, hooks, None, members, dice, turnover)
}

fn activate_group_with(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    leader: Option<ModelId>,
    members: &[ModelId],
    dice: u8,
    turnover: bool,
) -> Result<ActivationRoll, RuleError> {
    let mut group: Vec<ModelId> = leader.into_iter().collect();
    group.extend(members.iter().copied().filter(|m| Some(*m) != leader));
    check_group(game, rules, hooks, leader, &group)?;
    let models: Vec<crate::state::Model> = group
        .iter()
        .map(|id| game.model(*id).cloned())
        .collect::<Result<_, _>>()?;
    check_dice(rules, dice)?;
    let quality = models.iter().map(|m| m.quality).max().unwrap_or(6);
    for id in &group {
        begin_activation(game, *id)?;
    }
    let mut hero = true;
    for m in &models {
        hero &= hooks.permission(game, m.id, AUTOMATIC_SUCCESS)?.is_some();
    }
    game.record(EventKind::GroupActivation {
        leader,
        members: group.clone(),
        quality,
    });
    let automatic = if hero {
        rules.activation.automatic(dice)
    } else {
        0
    };
    let faces = roll_faces(game, hooks, &group, dice - automatic, quality)?;
    let mut roll =
        ActivationRoll::evaluate(&faces, quality, automatic, &rules.activation.roll_rules());
    roll.turnover &= turnover;
    record_roll(game, group[0], &roll);
    rolled(game, rules, hooks, &group, &roll)?;
    Ok(roll)
}

/// Whether `group` (the Leader first, if any) may activate together (§3.1, §6.2), without changing
/// anything: up to the roster's maximum of models, the Leader holding `lead`, all of one side, and (with
/// a Leader) each within the group range of every other.
pub fn check_group(
    game: &Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    leader: Option<ModelId>,
    group: &[ModelId],
) -> Result<(), RuleError> {
    use super::query::{gap, label};
    // §3.1: up to five models activate together on one roll, a Leader's group or an Enemy Group ("Enemy
    // Groups always activate this way", §6.2). An Enemy Group that grew past five (the Lich's Raise
    // Dead) activates five at a time (`wave::turn::enemy_turn`).
    let max = rules.activation.group_max_models as usize;
    if group.is_empty() || group.len() > max {
        return Err(RuleError::BadGroup(format!(
            "a group has 1 to {} models, got {}",
            rules.activation.group_max_models,
            group.len()
        )));
    }
    let range = rules.measures.get(rules.activation.group_range);
    let models: Vec<&crate::state::Model> = group
        .iter()
        .map(|id| game.model(*id))
        .collect::<Result<_, _>>()?;
    if let Some(l) = leader {
        let lm = game.model(l)?;
        if hooks.permission(game, l, LEAD)?.is_none() {
            return Err(RuleError::BadGroup(format!(
                "{} is not a Leader",
                label(lm)
            )));
        }
    }
    for (i, a) in models.iter().enumerate() {
        for b in &models[i + 1..] {
            if a.side != b.side {
                return Err(RuleError::BadGroup(format!(
                    "{} and {} are enemies",
                    label(a),
                    label(b)
                )));
            }
            // An Enemy Group (no Leader) activates together wherever its models stand (§6.2); a Leader's
            // group must keep within Long (§3.1).
            if leader.is_some() && gap(a, b) > range + 1e-9 {
                return Err(RuleError::BadGroup(format!(
                    "{} and {} are more than {range}\" apart",
                    label(a),
                    label(b)
                )));
            }
        }
    }
    Ok(())
}

/// The friends that may join `leader`'s group now (§3.1), in id order: Active models of its side,
/// taken one by one while each is within the group range of the Leader and of every one taken, up to
/// the group's maximum (the Leader included). Empty when the model holds no `lead`.
pub fn group_candidates(
    game: &Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    leader: ModelId,
) -> Result<Vec<ModelId>, RuleError> {
    let l = game.model(leader)?;
    if hooks.permission(game, leader, LEAD)?.is_none() {
        return Ok(Vec::new());
    }
    let range = rules.measures.get(rules.activation.group_range);
    let max = rules.activation.group_max_models as usize;
    let mut chosen: Vec<&crate::state::Model> = vec![l];
    for m in game.models.iter() {
        if chosen.len() >= max {
            break;
        }
        if m.id == leader || m.side != l.side || !m.active {
            continue;
        }
        if chosen
            .iter()
            .all(|c| super::query::gap(c, m) <= range + 1e-9)
        {
            chosen.push(m);
        }
    }
    Ok(chosen[1..].iter().map(|m| m.id).collect())
}

/// Roll the activation dice of `activating` (a model, or a Group whose first model rolls), then let
/// scripts reroll some of them once (`on_activation_roll`: the Orc Warlord's Warcry, the Goblin
/// Shaman's Hex). Every roll is logged; a reroll also logs a `rerolled` event naming its script. Only
/// rolled dice are here, so only they can be rerolled (a Hero's automatic success cannot). No dice (a
/// Hero choosing one): nothing is rolled or asked.
fn roll_faces(
    game: &mut Game,
    hooks: &dyn Hooks,
    activating: &[ModelId],
    dice: u8,
    quality: u8,
) -> Result<Vec<u8>, RuleError> {
    if dice == 0 {
        return Ok(Vec::new());
    }
    let first = activating[0];
    let mut faces: Vec<u8> = game
        .roll("activation", Some(first), usize::from(dice))
        .iter()
        .map(|d| d.face)
        .collect();
    let Some(r) = hooks.activation_reroll(game, activating, &faces, quality)? else {
        return Ok(faces);
    };
    let which: Vec<usize> = match r.dice {
        super::hooks::RerollDice::All => (0..faces.len()).collect(),
        // The best die: the highest face, the first of equals.
        super::hooks::RerollDice::Best => faces
            .iter()
            .enumerate()
            .max_by_key(|(i, f)| (**f, std::cmp::Reverse(*i)))
            .map(|(i, _)| vec![i])
            .unwrap_or_default(),
    };
    if let Some(key) = &r.spend {
        game.spend_use(key, &r.source)
            .map_err(|why| RuleError::Reward(format!("{}: on_activation_roll: {why}", r.source)))?;
    }
    let new: Vec<u8> = game
        .roll("reroll", Some(first), which.len())
        .iter()
        .map(|d| d.face)
        .collect();
    for (i, face) in which.iter().zip(&new) {
        faces[*i] = *face;
    }
    game.record(EventKind::Rerolled {
        model: first,
        dice: which,
        faces: new,
        reason: r.reason,
        source: r.source,
    });
    Ok(faces)
}

/// A new activation starts afresh what is counted per activation: "moved into contact this
/// activation" (Dashing, Ride Down), move actions (Slow) and spells cast ([`mark_activated`] ends the
/// first three with the activation). Every member of a group activation starts
/// afresh, not only the one that rolls. Attacks are counted per turn (§3.2), not per activation:
/// [`begin_turn`] clears them. A declaration of spellcasting is made just before (`magic::declare`) and
/// lapses when the activation ends.
fn begin_activation(game: &mut Game, id: ModelId) -> Result<(), RuleError> {
    let m = game.model_mut(id)?;
    m.charged = false;
    m.moves = 0;
    m.moved = 0.0;
    m.casts = 0;
    m.free_throw_from = None;
    m.activations = m.activations.saturating_add(1);
    Ok(())
}

/// A side's turn begins (§3.1): all of its models become Active; their attacks (one per turn, §3.2) and
/// nominations are counted afresh; every model's place is noted for the Ambush bonus ([`began_hidden`]).
pub fn begin_turn(game: &mut Game, side: crate::state::Side) {
    game.record(crate::state::EventKind::Turn {
        wave: game.wave,
        round: game.round,
        side,
    });
    for m in game.models.iter_mut() {
        // Where everyone stands as the turn begins (the Ambush bonus, §3.4).
        m.turn_start = Some(m.pos);
        if m.side == side {
            m.active = true;
            m.attacks = 0;
            m.activations = 0;
        }
    }
}

/// Whether `attacker` began this turn fully hidden from `target` (§3.4, the Ambush bonus): every sight
/// line from where the target stood to where the attacker stood, as the turn began, is blocked. Only
/// blocking matters, which the contact tolerance (it decides Cover by a wall) does not change. False
/// for a model that arrived during the turn.
pub fn began_hidden(game: &Game, attacker: ModelId, target: ModelId) -> bool {
    use crate::geometry::{sight, Circle, Sight};
    let (Ok(a), Ok(t)) = (game.model(attacker), game.model(target)) else {
        return false;
    };
    let (Some(ap), Some(tp)) = (a.turn_start, t.turn_start) else {
        return false;
    };
    let at = |c: crate::geometry::Vec2, m: &crate::state::Model| Circle { c, r: m.base / 2.0 };
    sight(&game.table, &at(tp, t), &at(ap, a), &[]) == Sight::Blocked
}

/// Whether the models of an activation stay Active after it (§3.1): they failed exactly one die without
/// a turnover, so they may be nominated again later in the turn.
pub fn stays_active(roll: &ActivationRoll) -> bool {
    roll.failures == 1 && !roll.turnover
}

/// At the end of an activation, mark its models Activated, or leave them Active when their roll says so
/// ([`stays_active`]). A model is Active during its own activation (Concentrated Shooting counts it).
/// What was counted for the activation ends with it: a bonus "on that activation's attack" (Ride Down,
/// Dashing) reads `charged` and `moved`, and never reaches an attack outside the model's own
/// activation, such as a Free Hack in the other side's turn (SUPPLEMENT §11).
pub fn mark_activated(game: &mut Game, ids: &[ModelId], again: bool) {
    for id in ids {
        if let Ok(m) = game.model_mut(*id) {
            m.active = again;
            m.charged = false;
            m.moves = 0;
            m.moved = 0.0;
        }
    }
}

/// Spend `actions` on the Task `name` of `needed` actions (§3.1). Starting a different Task loses the
/// one in progress. Returns the Task's state; it is cleared when complete.
pub fn work_task(
    game: &mut Game,
    id: ModelId,
    name: &str,
    needed: u8,
    actions: u8,
) -> Result<crate::state::Task, RuleError> {
    let m = game.model_mut(id)?;
    let lost = match &m.task {
        Some(t) if t.name != name || t.needed != needed => Some(t.name.clone()),
        _ => None,
    };
    if lost.is_some() {
        m.task = None;
    }
    let mut t = m.task.take().unwrap_or(crate::state::Task {
        name: name.to_string(),
        needed,
        done: 0,
    });
    t.done = t.done.saturating_add(actions).min(needed);
    let complete = t.done >= needed;
    if !complete {
        m.task = Some(t.clone());
    }
    if let Some(old) = lost {
        game.record(EventKind::TaskLost {
            model: id,
            task: old,
        });
    }
    game.record(EventKind::TaskProgress {
        model: id,
        task: t.name.clone(),
        done: t.done,
        needed,
        complete,
    });
    Ok(t)
}

/// Lose the Task in progress, if any (the model left, was hit, or was interrupted).
pub fn interrupt_task(game: &mut Game, id: ModelId) {
    let Ok(m) = game.model_mut(id) else { return };
    if let Some(t) = m.task.take() {
        game.record(EventKind::TaskLost {
            model: id,
            task: t.name,
        });
    }
}
