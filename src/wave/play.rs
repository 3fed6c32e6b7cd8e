//! Playing whole waves and games (core Ch. V–VII): start a wave, alternate hero and enemy turns until no
//! enemy remains, the Town Hall falls, or the round limit stalls it; then the end of the wave.
//!
//! The End Sequence (§7.1): extinguishing, fire damage, Supplies, Rewards (step 4, the wave-end
//! Opportunity results), and after every non-final wave the next Opportunity token and the Council
//! Phase (`council.rs`). A game ends as the rules say, at the event that ends it (`rules::end`): the
//! Town Hall Destroyed, the village overrun, the optional party-defeated loss, the final wave survived,
//! or (a safety net for scripts) a wave stalled at the round limit; each ended game records its cause.

use super::{
    abilities, budget, build_wave_of, deploy_enemies, deploy_heroes_except, escalation_for_wave,
    plan_from_script, WaveError, WavePlan,
};
use crate::roster::{ProfileKind, Rosters};
use crate::rules::end::{halted, Cause, Halt};
use crate::rules::hooks::{Hooks, WaveAsk};
use crate::rules::structural::damage_building;
use crate::rules::RuleError;
use crate::state::{Game, Side};
use serde::Serialize;
use thiserror::Error;

/// How a wave or a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every enemy is gone (a wave), or the final wave ended with the Town Hall standing (a game).
    Win,
    /// The Town Hall was destroyed.
    Loss,
    /// A wave reached the round limit.
    Stalled,
    /// A scenario's battle ended with neither side winning (its round limit, equal Victory Points).
    Draw,
}

impl Outcome {
    /// The name records and reports use: "win", "loss", "stalled" or "draw".
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Stalled => "stalled",
            Outcome::Draw => "draw",
        }
    }
}

/// A wave or a rule failed; nothing after it was played.
#[derive(Debug, Error)]
pub enum PlayError {
    #[error(transparent)]
    Wave(#[from] WaveError),
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// One wave, as played.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WaveSummary {
    pub wave: u32,
    pub escalation: String,
    pub enemies: usize,
    pub rounds: u32,
    pub outcome: Outcome,
    /// Why a lost or stalled wave ended the game (none for a won wave).
    pub cause: Option<Cause>,
    /// Integrity of each building when the wave ended (after fire damage and the Council).
    pub integrity: Vec<(String, i32)>,
    /// Supplies left after the Council.
    pub supplies: i32,
    /// Wounds of each hero still on the table.
    pub wounds: Vec<(String, u8)>,
    /// Heroes of the party no longer on the table (Defeated or Fled).
    pub defeated: Vec<String>,
    /// What the Council Phase after this wave bought, one clause per accepted order (empty after the
    /// final wave or a lost one).
    pub council: Vec<String>,
    /// Opportunities claimed during the wave: (hero, result), in order (core §6.1).
    pub claimed: Vec<(String, String)>,
}

/// A whole game, as played.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameSummary {
    pub result: Outcome,
    /// Why the game ended (SUPPLEMENT §10).
    pub cause: Cause,
    /// Waves won (survived to their end): the game's score, 0 to the length's waves.
    pub waves_won: u32,
    /// Rounds played to their end over the game: every round of a won wave, and of a lost wave those
    /// before the round it fell in (a finer score than the waves, for a game lost early).
    pub rounds_survived: u32,
    /// The Town Hall's Integrity at the end (0 when it was Destroyed).
    pub town_hall_integrity: i32,
    pub seed: u64,
    pub waves: Vec<WaveSummary>,
    /// A scenario's battle: the Victory Points of the heroes' side, then the enemies'.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vp: Option<[u32; 2]>,
    /// The game had a Town Hall (a scenario's battle may have none).
    #[serde(skip)]
    pub town_hall: bool,
}

/// The party's size for the budget (§5.1): the heroes chosen at setup, whoever is still standing (the
/// heroes on the table when the game recorded no party).
pub fn party_size(game: &Game) -> u32 {
    if game.party.is_empty() {
        game.side(Side::Heroes)
            .filter(|m| m.kind == ProfileKind::Hero)
            .count() as u32
    } else {
        game.party.len() as u32
    }
}

/// The players have lost, and why: the Town Hall is down (core §6.4), the village is overrun (SUPPLEMENT
/// §10), or — with the optional rule of core Ch. I (`wave.party_defeated_loss`) — every hero is Defeated
/// (a Fled hero is not Defeated; a Defenseless one is still on the table).
pub fn village_lost(game: &Game, rosters: &Rosters) -> Option<Cause> {
    halted(game, &rosters.rules).and_then(Halt::cause)
}

/// Start the next wave of `length` (core §5.1–5.3): build it for the party — with the Lua wave builder
/// of an enabled variant when one returns Groups (SUPPLEMENT §10), else the default builder — then the
/// start-of-wave sequence: Watchtower III reveals the spawn edges first; step 1 deploys the Militias and
/// the Lost Villagers and grants the Warhorse (`abilities::step_one`); step 2 deploys the heroes' side
/// (by any standing building with Watchtower III), leaving step 1's Defenders where they were put;
/// step 3 reveals the edges (if not yet) and deploys the Groups; step 4 is Stable I's Ready Mounts. The
/// game then stands at round 1 of the new wave. On an error the game is as it was before the call.
pub fn start_wave(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    length: &str,
) -> Result<WavePlan, WaveError> {
    let backup = game.checkpoint();
    let result = run_start(game, rosters, hooks, length);
    if result.is_err() {
        game.restore(backup);
    }
    result
}

/// The enemy wave of Escalation `esc` for the game's party: an enabled variant's `build_wave` when it
/// gives one (checked by the kernel), else the default builder (§5.1–5.2). Rolls on the game's dice;
/// deploys nothing.
pub fn plan_wave(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    esc: &crate::roster::Escalation,
) -> Result<WavePlan, WaveError> {
    let heroes = party_size(game);
    let ask = WaveAsk {
        wave: game.wave,
        budget: budget(rosters, esc, heroes),
        escalation: esc.clone(),
        heroes,
    };
    match hooks
        .build_wave(game, &ask)
        .map_err(|e| WaveError::Script(e.message))?
    {
        Some(scripted) => plan_from_script(game, rosters, esc, heroes, &scripted),
        None => build_wave_of(game, rosters, esc, heroes),
    }
}

fn run_start(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    length: &str,
) -> Result<WavePlan, WaveError> {
    if let Some(cause) = village_lost(game, rosters) {
        return Err(WaveError::GameOver(cause.words().to_string()));
    }
    let wave = game.wave + 1;
    let esc = wave_escalation(game, rosters, length, wave)?;
    game.spent.retain(|s| !s.starts_with("wave:"));
    game.done_for_wave.clear();
    game.effects.clear();
    // "Out of power for the rest of the wave" (§3.7): every caster has its power back.
    for m in game.models.iter_mut().chain(game.fled.iter_mut()) {
        m.out_of_power = false;
        m.declared = false;
    }
    abilities::clear_wave_grants(game);
    super::council::rejoin_fled(game);
    // The scripts asked below see the wave being started.
    game.wave = wave;
    game.round = 0;
    let plan = match super::battle::first_groups(game, rosters, &esc) {
        Some(fixed) => fixed?,
        None => plan_wave(game, rosters, hooks, &esc)?,
    };
    let advanced = abilities::advanced_deployment(game, rosters);
    let mut known = None;
    if let Some(by) = &advanced {
        abilities::reveal_edges(game, &plan, Some(by.clone()));
        known = Some(plan.groups.iter().map(|g| g.edge).collect());
    }
    let placed = abilities::step_one(game, rosters, hooks, known)?;
    deploy_heroes_except(game, rosters, advanced.is_some(), &placed)?;
    if advanced.is_none() {
        abilities::reveal_edges(game, &plan, None);
    }
    deploy_enemies(game, rosters, &plan)?;
    super::objective::assign_all(game, hooks).map_err(|e| WaveError::Script(e.to_string()))?;
    abilities::ready_mounts(game, rosters, hooks, &plan)?;
    game.wave_start_side = game.side(Side::Heroes).map(|m| m.id).collect();
    // Both sides are deployed: every model's scripts hear the wave begin (`on_wave_start`).
    let ids: Vec<crate::state::ModelId> = game.models.iter().map(|m| m.id).collect();
    for id in ids {
        if game.model(id).is_ok() {
            let intents = hooks
                .on_wave_start(game, id)
                .map_err(|e| WaveError::Script(e.message))?;
            crate::rules::outcome::apply_intents(game, &rosters.rules, hooks, &intents)
                .map_err(|e| WaveError::Script(e.to_string()))?;
        }
    }
    begin_round(game, 1);
    Ok(plan)
}

/// The Escalation of wave `wave` of `length`, or a battle's own (`escalation` of its scenario).
pub(crate) fn wave_escalation(
    game: &Game,
    rosters: &Rosters,
    length: &str,
    wave: u32,
) -> Result<crate::roster::Escalation, WaveError> {
    match game.battle.as_ref().and_then(|b| b.escalation.as_deref()) {
        Some(name) => rosters
            .escalation(name)
            .cloned()
            .ok_or_else(|| WaveError::UnknownEscalation(name.to_string())),
        None => escalation_for_wave(rosters, length, wave),
    }
}

/// Round `round` of the wave under way begins: the game stands at it, logged `round`.
pub fn begin_round(game: &mut Game, round: u32) {
    game.round = round;
    game.record(crate::state::EventKind::Round {
        wave: game.wave,
        round,
    });
}

/// Play the next wave of `length` to its end.
pub fn play_wave(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    length: &str,
) -> Result<WaveSummary, PlayError> {
    let plan = start_wave(game, rosters, hooks, length)?;
    let first_event = game.log().len();
    let (wave, esc) = (game.wave, plan.escalation);
    let enemies = game.side(Side::Enemies).count();
    // A wave stops at the event that ends it (Ch. VI, SUPPLEMENT §10): the turn engine plays nothing
    // after it, and it is read after each turn.
    let limit = game.battle.as_ref().and_then(|b| b.round_limit);
    let esc_row = wave_escalation(game, rosters, length, wave)?;
    let (ended, rounds) = play_rounds(game, rosters, hooks, &esc_row, 1, false, Horizon::Wave)?;
    let (mut outcome, mut cause) = match ended {
        Some(Halt::NoEnemy) => (Outcome::Win, None),
        Some(Halt::Concluded) => {
            let (ending, c, reason) = crate::rules::end::concluded(game).unwrap_or((
                crate::state::battle::Ending::Draw,
                Cause::VictoryScript,
                String::new(),
            ));
            (super::battle::conclude(game, ending, c, &reason), Some(c))
        }
        Some(h) => (Outcome::Loss, h.cause()),
        None => match (limit, game.battle.as_deref()) {
            (Some(l), Some(b)) if rounds >= l => {
                let ending = crate::rules::end::round_limit(b);
                let reason = format!("the round limit ({l}) was reached");
                let o = super::battle::conclude(game, ending, Cause::RoundLimit, &reason);
                (o, Some(Cause::RoundLimit))
            }
            _ => (Outcome::Stalled, Some(Cause::Stalled)),
        },
    };
    let mut council = Vec::new();
    if outcome == Outcome::Win && cause.is_none() {
        end_of_wave(game, rosters, hooks)?;
        if let Some(c) = village_lost(game, rosters) {
            outcome = Outcome::Loss;
            cause = Some(c);
        }
    }
    if outcome == Outcome::Win && cause.is_none() {
        council = between_waves(game, rosters, hooks, length)?
            .iter()
            .filter(|r| r.refused.is_none())
            .map(|r| r.summary())
            .collect();
    }
    Ok(WaveSummary {
        wave,
        escalation: esc,
        enemies,
        rounds,
        outcome,
        cause,
        integrity: game
            .buildings
            .iter()
            .map(|b| (b.name.clone(), b.integrity))
            .collect(),
        supplies: game.supplies,
        wounds: game
            .side(Side::Heroes)
            .filter(|m| m.kind == ProfileKind::Hero)
            .map(|m| (m.name.clone(), m.wounds))
            .collect(),
        defeated: Vec::new(),
        council,
        claimed: claims_since(game, first_event),
    })
}

/// How far [`play_rounds`] plays: to the end of the hero turn it starts in, of its round, or of the wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Horizon {
    Turn,
    Round,
    Wave,
}

/// Play the wave's rounds from `first` (begun already) to `horizon` or the event that ends the wave, a
/// scenario's round limit, or `wave.max_rounds`: in each, the hero turn (unless `heroes_done`: a
/// playout finished the first round's), its end, the enemy turn, its end; a later round begins, and a
/// battle's Groups of that round arrive. Returns what ended the wave (none at the horizon or the limit)
/// and the last round played.
pub(crate) fn play_rounds(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    esc_row: &crate::roster::Escalation,
    first: u32,
    heroes_done: bool,
    horizon: Horizon,
) -> Result<(Option<Halt>, u32), PlayError> {
    let mut ended: Option<Halt> = halted(game, &rosters.rules);
    let mut rounds = first.saturating_sub(1);
    // A scenario's round limit ends the wave sooner than the safety cap, as its conclusion says.
    let limit = game.battle.as_ref().and_then(|b| b.round_limit);
    let last = limit.map_or(rosters.rules.wave.max_rounds, |l| {
        l.min(rosters.rules.wave.max_rounds)
    });
    for round in first..=last {
        if ended.is_some() {
            break;
        }
        // The first round began already (`start_wave`, or the game a playout started from).
        if round > first {
            begin_round(game, round);
            super::battle::arrive(game, rosters, hooks, esc_row, round)?;
        }
        rounds = round;
        let at_limit = limit == Some(round);
        // Each side's models become Active as its turn begins (hero_turn, enemy_turn).
        if !(heroes_done && round == first) {
            super::turn::hero_turn(game, rosters, hooks)?;
        }
        super::battle::turn_end(game, rosters, hooks, "heroes", false)?;
        ended = halted(game, &rosters.rules);
        if ended.is_some() || horizon == Horizon::Turn {
            break;
        }
        super::turn::enemy_turn(game, rosters, hooks)?;
        super::battle::turn_end(game, rosters, hooks, "enemies", at_limit)?;
        ended = halted(game, &rosters.rules);
        if horizon == Horizon::Round {
            break;
        }
    }
    Ok((ended, rounds))
}

/// The Opportunities claimed since event `from`: (hero's name, result).
fn claims_since(game: &Game, from: usize) -> Vec<(String, String)> {
    let names: std::collections::BTreeMap<crate::state::ModelId, &str> = game
        .log()
        .iter()
        .filter_map(|e| match &e.kind {
            crate::state::EventKind::Placed { model, name, .. } => Some((*model, name.as_str())),
            _ => None,
        })
        .collect();
    game.log()
        .iter()
        .skip(from)
        .filter_map(|e| match &e.kind {
            crate::state::EventKind::Claimed { hero, result, .. } => Some((
                names
                    .get(hero)
                    .map_or_else(|| format!("model {hero}"), |n| n.to_string()),
                result.clone(),
            )),
            _ => None,
        })
        .collect()
}

/// The end of a wave (§7.1) as far as it exists: heroes put out fires (step 1), every building still
/// burning loses Integrity (2) — but not for a fire lit while Temple II's Blessing protected
/// it —, the village gains Supplies for the wave number (3), then the Opportunity
/// results claimed for the wave's end resolve through their scripts (4, Rewards).
pub fn end_of_wave(game: &mut Game, rosters: &Rosters, hooks: &dyn Hooks) -> Result<(), RuleError> {
    // "A wall remains until the end of the wave" (§3.7).
    crate::rules::magic::end_walls(game, None, "the wave ended");
    extinguish(game, rosters)?;
    game.blessed = None;
    let burning: Vec<(String, bool)> = game
        .buildings
        .iter()
        .filter(|b| b.fire && !b.destroyed)
        .map(|b| (b.name.clone(), b.fire_blessed))
        .collect();
    for (name, blessed) in burning {
        if crate::rules::end::game_over(game, &rosters.rules) {
            return Ok(()); // the Town Hall burnt down: the players lose at once (§7.1 step 2)
        }
        if blessed {
            let detail =
                format!("the fire lit on the {name} during its Blessed activation does no damage");
            let owner =
                crate::rules::village::owner(rosters, crate::rules::village::names::BLESSING);
            game.record(crate::state::EventKind::BuildingAbility {
                building: owner.map_or_else(|| name.clone(), |(b, _)| b.to_string()),
                level: owner.map_or(0, |(_, l)| l),
                ability: crate::rules::village::names::BLESSING.to_string(),
                detail,
                models: Vec::new(),
            });
        } else {
            damage_building(game, &name, rosters.rules.structures.fire_damage as i32)?;
        }
        if let Ok(b) = game.building_mut(&name) {
            b.fire = false;
            b.fire_blessed = false;
        }
    }
    if crate::rules::end::game_over(game, &rosters.rules) {
        return Ok(());
    }
    // Step 3: Supplies for the wave number, logged (none outside a wave, wave 0).
    let gained = (game.wave * rosters.rules.wave.supplies_per_wave_number) as i32;
    if gained != 0 {
        game.supplies += gained;
        game.record(crate::state::EventKind::SuppliesGained {
            amount: gained,
            supplies: game.supplies,
            source: format!("wave end: wave {}", game.wave),
        });
    }
    // Step 4, Rewards: the wave-end Opportunity results (Supply Cache, Lost Villagers).
    super::opportunity::resolve_rewards(game, rosters, hooks)?;
    game.round = 0;
    Ok(())
}

/// The End Sequence after the Supplies (§7.1 steps 5–6), after a won wave: unless it was the final
/// wave of `length`, place the next Opportunity token and hold the Council Phase with the hero policy's
/// orders. Returns the Council's reports (none after the final wave).
pub fn between_waves(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    length: &str,
) -> Result<Vec<super::council::CouncilReport>, PlayError> {
    let waves = rosters.length(length).map_or(0, |l| l.last_wave());
    if game.wave >= waves {
        return Ok(Vec::new());
    }
    // §7.1 step 4 (rewards of claimed Opportunities) comes here, before the placement.
    super::council::place_opportunity(game, rosters)?;
    Ok(super::council::council_phase(game, rosters, hooks)?)
}

/// §7.1 step 1: each hero adjacent to a burning building puts out one fire (heroes in id order, the
/// buildings in roster order).
pub fn extinguish(game: &mut Game, rosters: &Rosters) -> Result<(), RuleError> {
    let tol = rosters.rules.bases.contact_tolerance;
    let heroes: Vec<crate::geometry::Circle> = game
        .side(Side::Heroes)
        .filter(|m| m.kind == ProfileKind::Hero)
        .map(|m| m.circle())
        .collect();
    for hero in heroes {
        // A Blessed fire does no damage (Temple II): no hero spends its extinguishing on it.
        let Some(b) = game.buildings.iter_mut().find(|b| {
            b.fire
                && !b.fire_blessed
                && !b.destroyed
                && crate::geometry::circle_rect_gap(&hero, &b.rect) <= tol
        }) else {
            continue;
        };
        let name = b.name.clone();
        crate::rules::structural::put_out_fire(game, &name, None, None)?;
    }
    Ok(())
}

/// Play every wave of `length` until the village falls, a wave stalls, or the final wave ends.
pub fn play_game(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    length: &str,
) -> Result<GameSummary, PlayError> {
    let (waves, endless) = rosters
        .length(length)
        .map_or((0, false), |l| (l.last_wave(), l.is_endless()));
    // A battle of fixed Groups is one wave.
    let (waves, endless) = match game.battle.as_ref().is_some_and(|b| b.fixed) {
        true => (1, false),
        false => (waves, endless),
    };
    let party: Vec<String> = if game.party.is_empty() {
        game.side(Side::Heroes)
            .filter(|m| m.kind == ProfileKind::Hero)
            .map(|m| m.name.clone())
            .collect()
    } else {
        game.party.clone()
    };
    let mut summaries = Vec::new();
    // An endless length has no final wave: a village that holds out to its safety cap has not won,
    // the game is stalled.
    let (mut result, mut cause) = if endless {
        (Outcome::Stalled, Cause::Stalled)
    } else {
        (Outcome::Win, Cause::FinalWaveSurvived)
    };
    while game.wave < waves {
        let mut s = play_wave(game, rosters, hooks, length)?;
        s.defeated = party
            .iter()
            .filter(|n| !game.models.iter().any(|m| &m.name == *n))
            .cloned()
            .collect();
        let (o, c) = (s.outcome, s.cause);
        summaries.push(s);
        // A wave with a cause ended the game: lost, stalled, or a scenario's conclusion.
        if o != Outcome::Win || c.is_some() {
            result = o;
            cause = c.unwrap_or(Cause::Stalled);
            break;
        }
    }
    if game.battle.as_ref().is_some_and(|b| !b.concluded) {
        // The game ended otherwise (the final wave survived, the Town Hall or the village lost): the
        // objectives scored at the end still count.
        super::battle::final_score(game);
    }
    let completed = summaries
        .iter()
        .filter(|s| s.outcome == Outcome::Win)
        .count() as u32;
    let rounds: u32 = summaries.iter().map(|s| s.rounds).sum();
    Ok(GameSummary {
        result,
        cause,
        waves_won: completed,
        // The round a lost wave fell in was not survived.
        rounds_survived: rounds.saturating_sub(u32::from(result == Outcome::Loss)),
        town_hall_integrity: game
            .buildings
            .iter()
            .find(|b| b.town_hall)
            .map_or(0, |b| b.integrity),
        seed: game.seed,
        waves: summaries,
        // Only a battle that can score them (objectives, or a victory script that may award them).
        vp: game
            .battle
            .as_ref()
            .filter(|b| !b.objectives.is_empty() || b.victory.is_some())
            .map(|b| b.vp),
        town_hall: game.buildings.iter().any(|b| b.town_hall),
    })
}
