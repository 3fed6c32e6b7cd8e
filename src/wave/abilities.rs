//! The village buildings' abilities in the start-of-wave sequence (core §5.3 steps 1–4, §7.3) and the
//! Blessing offered before each enemy activation (Temple II).
//!
//! Owns *when* each ability acts and checking what the hero policy chose for it:
//! - step 1: Town Hall III Village Militia and Stable III Rider Militia deploy the absent Village
//!   Archers / Riders (only as many as bring the count on the table up to the ability's `count`), then
//!   the Defenders the Lost Villagers queued in [`Game::joining`]; Stable II Warhorse gives the hero the
//!   policy chooses its `trait` for this wave (a [`WaveTrait`], cleared at the next wave start);
//! - steps 2–3: Watchtower III Advanced Deployment reveals the spawn edges before anyone deploys
//!   ([`advanced_deployment`], [`reveal_edges`]) and lets the heroes' side deploy by any building;
//! - step 4: Stable I Ready Mounts moves the hero the policy chooses up to its `distance`, not an action,
//!   never ending in contact with an enemy;
//! - Temple II Blessing ([`offer_blessing`]): once per wave, before an Enemy Group activates, the policy
//!   may name a building that ignores all Integrity damage from that activation, fire included.
//!
//! Every number comes from the ability's `params` in `rosters/village.toml`. A bad choice (an unknown
//! model, a Village Defender for a hero, a move too long or into contact) is refused with a reason — a
//! `refused` event — and the wave goes on; each use is a `building_ability` event.

use super::{deploy_new_defenders, WaveError, WavePlan};
use crate::geometry::Vec2;
use crate::roster::{Measure, ProfileKind, Rosters};
use crate::rules::hooks::{DeployChoices, DeployStep, Hooks, WaveStartStep};
use crate::rules::movement::{move_with, MoveOptions};
use crate::rules::query::{engaged_enemies, label};
use crate::rules::village::{active, in_wave, names, Active, BLESSING_SPENT};
use crate::rules::{HookError, RuleError};
use crate::state::{model_from_profile, Blessing, EventKind, Game, ModelId, Side, WaveTrait};

const EPS: f64 = 1e-9;

/// The choice name of Stable II in [`DeployStep::asks`] and the policy's answer.
pub const WARHORSE: &str = "warhorse";
/// The choice name of Stable I in [`DeployStep::asks`] and the policy's answer.
pub const READY_MOUNTS: &str = "ready_mounts";

fn script_err(e: HookError) -> WaveError {
    WaveError::Script(e.message)
}

fn refuse(game: &mut Game, source: &str, choice: String, reason: String) {
    game.record(EventKind::Refused {
        source: source.to_string(),
        choice,
        reason,
    });
}

/// What a new wave forgets of the last one: traits granted for a wave and a Blessing in force — on
/// the heroes that Fled too, who rejoin at this wave's start (a Warhorse of the last wave does not
/// ride with them into this one).
pub fn clear_wave_grants(game: &mut Game) {
    for m in game.models.iter_mut().chain(game.fled.iter_mut()) {
        m.wave_traits.clear();
    }
    game.blessed = None;
}

/// Watchtower III Advanced Deployment, when in force: how the log names it.
pub fn advanced_deployment(game: &Game, rosters: &Rosters) -> Option<String> {
    active(game, rosters, names::ADVANCED_DEPLOYMENT).map(|a| a.label(game))
}

/// Reveal the spawn edges of every Group of `plan` (an `edges_revealed` event); `by` names the ability
/// that reveals them early.
pub fn reveal_edges(game: &mut Game, plan: &WavePlan, by: Option<String>) {
    game.record(EventKind::EdgesRevealed {
        groups: plan.groups.iter().map(|g| g.number).collect(),
        edges: plan.groups.iter().map(|g| g.edge).collect(),
        by,
    });
}

/// §5.3 step 1: the Militias, the Lost Villagers and the Warhorse. `edges` are the spawn edges when
/// already revealed (Watchtower III). Returns the models deployed here, which step 2 leaves in place.
pub fn step_one(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    edges: Option<Vec<u8>>,
) -> Result<Vec<ModelId>, WaveError> {
    let mut placed = Vec::new();
    for name in [names::VILLAGE_MILITIA, names::RIDER_MILITIA] {
        if let Some(a) = active(game, rosters, name) {
            placed.extend(militia(game, rosters, a)?);
        }
    }
    placed.extend(lost_villagers(game, rosters)?);
    if let Some(a) = active(game, rosters, names::WARHORSE) {
        let step = DeployStep {
            step: WaveStartStep::Abilities,
            asks: vec![WARHORSE.to_string()],
            edges,
        };
        let choices = hooks.deploy_choices(game, &step).map_err(script_err)?;
        refuse_other_step(game, &choices, WaveStartStep::Abilities);
        if let Some(hero) = choices.warhorse {
            warhorse(game, rosters, &a, &choices.source, hero);
        }
    }
    Ok(placed)
}

/// Town Hall III / Stable III: deploy the absent Defenders of the ability's `profile` within its `within`
/// of its building, only as many as bring the count on the table up to its `count`.
fn militia(game: &mut Game, rosters: &Rosters, a: Active) -> Result<Vec<ModelId>, WaveError> {
    let Some(profile) = a
        .text("profile")
        .and_then(|p| rosters.profile(p))
        .filter(|p| p.kind == ProfileKind::Defender)
    else {
        return Ok(Vec::new());
    };
    let count = a.number("count", 0.0).max(0.0) as usize;
    let within = a.number("within", rosters.rules.deploy.defenders_within);
    let present = game
        .side(Side::Heroes)
        .filter(|m| m.name == profile.name)
        .count();
    let absent = count.saturating_sub(present);
    if absent == 0 {
        let detail = format!(
            "{} in play: no replacements",
            crate::names::count(present, &profile.name, &format!("{}s", profile.name))
        );
        a.record(game, detail, Vec::new());
        return Ok(Vec::new());
    }
    let models = (0..absent)
        .map(|_| model_from_profile(profile, rosters, Vec2::default()))
        .collect();
    let ids = deploy_new_defenders(game, models, a.index, within)?;
    let detail = format!(
        "{} deployed within {within}\" of the {} ({present} in play)",
        crate::names::count(
            absent,
            &format!("absent {}", profile.name),
            &format!("absent {}s", profile.name)
        ),
        a.building(game)
    );
    a.record(game, detail, ids.clone());
    Ok(ids)
}

/// The Defenders queued by the Lost Villagers Opportunity join within `rules.deploy.defenders_within`
/// of the Town Hall; the queue is emptied. A queued name that is no Village Defender is refused.
fn lost_villagers(game: &mut Game, rosters: &Rosters) -> Result<Vec<ModelId>, WaveError> {
    if game.joining.is_empty() {
        return Ok(Vec::new());
    }
    let queue = std::mem::take(&mut game.joining);
    let th = game
        .buildings
        .iter()
        .position(|b| b.town_hall)
        .ok_or(WaveError::NoTownHall)?;
    let mut models = Vec::new();
    for name in queue {
        match rosters
            .profile(&name)
            .filter(|p| p.kind == ProfileKind::Defender)
        {
            Some(p) => models.push(model_from_profile(p, rosters, Vec2::default())),
            None => refuse(
                game,
                "Lost Villagers",
                format!("{name} joins"),
                format!("{name:?} is not a Village Defender profile in the rosters"),
            ),
        }
    }
    deploy_new_defenders(game, models, th, rosters.rules.deploy.defenders_within)
}

/// A choice made at the wrong step is refused (each is read at its own step of §5.3).
fn refuse_other_step(game: &mut Game, c: &DeployChoices, step: WaveStartStep) {
    if step != WaveStartStep::Abilities && c.warhorse.is_some() {
        refuse(
            game,
            &c.source,
            WARHORSE.to_string(),
            "the Warhorse is chosen at step 1 (\"abilities\"), before anyone deploys".into(),
        );
    }
    if step != WaveStartStep::ReadyMounts && c.ready_mounts.is_some() {
        refuse(
            game,
            &c.source,
            READY_MOUNTS.to_string(),
            "Ready Mounts moves a hero at step 4 (\"ready_mounts\"), after both sides deploy"
                .into(),
        );
    }
}

/// A hero of the heroes' side, or why not.
fn hero_check(game: &Game, id: ModelId) -> Result<String, String> {
    let m = game.model(id).map_err(|e| e.to_string())?;
    if m.kind != ProfileKind::Hero {
        return Err(format!("{} is not a hero", label(m)));
    }
    Ok(label(m))
}

/// Stable II: the chosen hero has the ability's `trait` (Long Move) for this wave.
fn warhorse(game: &mut Game, rosters: &Rosters, a: &Active, source: &str, hero: ModelId) {
    let choice = format!("{WARHORSE} = {hero}");
    let who = match hero_check(game, hero) {
        Ok(w) => w,
        Err(why) => return refuse(game, source, choice, why),
    };
    let Some(t) = a
        .text("trait")
        .and_then(|t| rosters.trait_named(t))
        .map(|t| t.name.clone())
    else {
        return refuse(
            game,
            source,
            choice,
            format!("{} names no trait in the rosters", a.label(game)),
        );
    };
    let by = a.label(game);
    if let Ok(m) = game.model_mut(hero) {
        m.wave_traits.push(WaveTrait {
            name: t.clone(),
            source: by,
        });
    }
    a.record(game, format!("{who} has {t} for this wave"), vec![hero]);
}

/// §5.3 step 4, Stable I Ready Mounts: the policy's hero moves up to the ability's `distance` toward the
/// point it chose — not an action, and never into contact with an enemy.
pub fn ready_mounts(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    plan: &WavePlan,
) -> Result<(), WaveError> {
    let Some(a) = active(game, rosters, names::READY_MOUNTS) else {
        return Ok(());
    };
    let step = DeployStep {
        step: WaveStartStep::ReadyMounts,
        asks: vec![READY_MOUNTS.to_string()],
        edges: Some(plan.groups.iter().map(|g| g.edge).collect()),
    };
    let choices = hooks.deploy_choices(game, &step).map_err(script_err)?;
    refuse_other_step(game, &choices, WaveStartStep::ReadyMounts);
    let Some((hero, to)) = choices.ready_mounts else {
        return Ok(());
    };
    let choice = format!("{READY_MOUNTS} = {hero} to ({:.2}, {:.2})", to.x, to.y);
    let source = choices.source.as_str();
    let who = match hero_check(game, hero) {
        Ok(w) => w,
        Err(why) => {
            refuse(game, source, choice, why);
            return Ok(());
        }
    };
    // A point off the table (or not finite) is refused like any other bad choice, before any move.
    if let Err(e) = crate::geometry::check::point_on(&game.table, "to", to) {
        refuse(game, source, choice, e.to_string());
        return Ok(());
    }
    let measure = match a.text("distance") {
        Some("long") => Measure::Long,
        Some("medium") => Measure::Medium,
        _ => Measure::Short,
    };
    let reach = rosters.rules.measures.get(measure);
    let (from, moves) = match game.model(hero) {
        Ok(m) => (m.pos, m.moves),
        Err(_) => return Ok(()),
    };
    let wanted = from.dist(to);
    if wanted > reach + EPS {
        let why = format!(
            "{who} would move {wanted:.2}\"; {} moves a hero up to {reach}\"",
            a.label(game)
        );
        refuse(game, source, choice, why);
        return Ok(());
    }
    let backup = game.checkpoint();
    // Not a move action: a displacement before the wave, logged as a push.
    let o = MoveOptions {
        limit: Some(reach),
        push: true,
        ..MoveOptions::default()
    };
    let why = match move_with(game, &rosters.rules, hooks, hero, to, o) {
        Err(RuleError::Hook(e)) => return Err(WaveError::Script(e.message)),
        Err(e) => Some(e.to_string()),
        Ok(_) => {
            let touching = engaged_enemies(game, &rosters.rules, hero);
            touching.first().map(|e| {
                let other = game.model(*e).map(label).unwrap_or_else(|_| e.to_string());
                format!("{who} would end in contact with {other}")
            })
        }
    };
    if let Some(why) = why {
        game.restore(backup);
        refuse(game, source, choice, why);
        return Ok(());
    }
    let end = game.model(hero).map(|m| m.pos).unwrap_or(from);
    if let Ok(m) = game.model_mut(hero) {
        // Not an action: the move does not count against the hero's first activation (Slow).
        m.moves = moves;
    }
    let detail = format!(
        "{who} moves {:.2}\" to ({:.2}, {:.2}), not an action",
        from.dist(end),
        end.x,
        end.y
    );
    a.record(game, detail, vec![hero]);
    Ok(())
}

/// Temple II Blessing, before the activation of the Enemy Group `group` begins: once per wave the hero
/// policy may name a building that ignores all Integrity damage from this activation, fire included.
/// Sets [`Game::blessed`] (the caller clears it when the activation ends).
pub fn offer_blessing(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    group: &[ModelId],
) -> Result<(), RuleError> {
    if !in_wave(game) {
        return Ok(());
    }
    let Some(a) = active(game, rosters, names::BLESSING) else {
        return Ok(());
    };
    if !crate::rules::village::wave_use_left(game, &a, BLESSING_SPENT) {
        return Ok(());
    }
    let Some((name, source)) = hooks.blessing(game, group)? else {
        return Ok(());
    };
    let choice = format!("blessing = {name}");
    match game.building(&name) {
        Err(e) => {
            refuse(game, &source, choice, e.to_string());
            return Ok(());
        }
        Ok(b) if b.destroyed => {
            refuse(game, &source, choice, format!("the {name} is Destroyed"));
            return Ok(());
        }
        Ok(_) => {}
    }
    let whose = group
        .first()
        .and_then(|id| game.model(*id).ok())
        .map_or_else(
            || "this enemy activation".to_string(),
            |m| match m.group {
                Some(n) => format!("Group {n}'s activation"),
                None => format!("{}'s activation", label(m)),
            },
        );
    game.blessed = Some(Blessing {
        building: name.clone(),
        by: a.building(game).to_string(),
        level: a.ability.level,
    });
    game.spent.push(BLESSING_SPENT.to_string());
    let detail = format!(
        "the {name} ignores all Integrity damage from {whose}, fire included (chosen by {source})"
    );
    a.record(game, detail, group.to_vec());
    Ok(())
}
