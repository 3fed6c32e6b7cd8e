//! Objectives a Behaviour assigns its Group (core §6.3, Guardian): "on deployment, assign the Group its
//! nearest building; if an Opportunity is nearer, assign that instead ... if the objective is Destroyed
//! or removed, assign the nearest remaining building". The Behaviour's script chooses
//! (`Hooks::behaviour_objective`); the kernel asks at deployment, keeps the answer on every model of the
//! Group (`Model::objective`), and asks again only when that building is Destroyed or that token gone.

use crate::rules::hooks::Hooks;
use crate::rules::RuleError;
use crate::state::{EventKind, Game, ModelId, Objective, Side};

/// Whether an objective still stands: its building not Destroyed, its token on the table.
pub fn stands(game: &Game, o: &Objective) -> bool {
    match o {
        Objective::Building { name } => game.building(name).is_ok_and(|b| !b.destroyed),
        Objective::Token { id } => game.tokens.iter().any(|t| t.id == *id),
    }
}

/// Make sure model `id`'s Group holds a standing objective when its Behaviour keeps one: ask the
/// Behaviour when the Group has none yet (deployment, or a model placed by a scenario) or its objective
/// fell, and give the answer to every model of the Group (logged `objective`). A Behaviour without
/// `objective` is never asked twice for nothing: its answer `None` leaves the Group without one.
pub fn keep(game: &mut Game, hooks: &dyn Hooks, id: ModelId) -> Result<(), RuleError> {
    let Ok(m) = game.model(id) else {
        return Ok(());
    };
    if m.side != Side::Enemies || m.objective.as_ref().is_some_and(|o| stands(game, o)) {
        return Ok(());
    }
    let lost = m.objective.clone();
    let members = crate::rules::query::group_of(game, id);
    let new = hooks.behaviour_objective(game, id, lost.as_ref())?;
    if new == lost {
        return Ok(());
    }
    for mid in &members {
        if let Ok(mm) = game.model_mut(*mid) {
            mm.objective = new.clone();
        }
    }
    if let Some(objective) = new {
        game.record(EventKind::Objective {
            models: members,
            objective,
            lost,
        });
    }
    // The Behaviour's choice led to that event alone.
    game.decisions_done();
    Ok(())
}

/// At deployment (§5.3 step 3, §6.3): every Enemy Group on the table is assigned its objective, in
/// Group order.
pub fn assign_all(game: &mut Game, hooks: &dyn Hooks) -> Result<(), RuleError> {
    let firsts: Vec<ModelId> = {
        let mut seen = std::collections::BTreeSet::new();
        game.side(Side::Enemies)
            .filter(|m| m.group.is_none_or(|g| seen.insert(g)))
            .map(|m| m.id)
            .collect()
    };
    for id in firsts {
        keep(game, hooks, id)?;
    }
    Ok(())
}
