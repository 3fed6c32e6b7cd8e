//! A scenario's battle as the turn engine plays it (`state::battle`): the fixed Groups of the first
//! round planned and the later ones brought on at the start of their round, the objectives' holders
//! and their Victory Points at each round's end, the victory script asked where the game can end, and
//! the result a conclusion, the round limit or a verdict gives the game (logged `concluded`).
//!
//! The rulebook's game has no battle: every function here does nothing for it.

use super::{deploy_enemy_groups, GroupPlan, WaveError, WavePlan};
use crate::roster::{Escalation, ProfileKind, Rosters};
use crate::rules::end::Cause;
use crate::rules::hooks::{Hooks, VictoryAsk};
use crate::rules::RuleError;
use crate::state::battle::{Arrival, Ending, Verdict};
use crate::state::{EventKind, Game, Side};

/// The Groups of a battle of fixed Groups that are on the table from the first round, as a wave plan
/// (logged `group_built` and `wave_built` as a wave's); the later ones stay in `arriving`. `None`
/// when the game's Groups are escalating waves.
pub fn first_groups(
    game: &mut Game,
    rosters: &Rosters,
    esc: &Escalation,
) -> Option<Result<WavePlan, WaveError>> {
    let b = game.battle.as_mut().filter(|b| b.fixed)?;
    let (now, later): (Vec<Arrival>, Vec<Arrival>) = std::mem::take(&mut b.arriving)
        .into_iter()
        .partition(|a| a.round <= 1);
    b.arriving = later;
    Some(plan_of(game, rosters, esc, &now, true))
}

/// Every Group of a battle of fixed Groups as one plan, those arriving later with their round
/// (`village wave`: nothing is deployed, nothing taken from the battle). `None` when the game's
/// Groups are escalating waves.
pub fn all_groups(
    game: &mut Game,
    rosters: &Rosters,
    esc: &Escalation,
) -> Option<Result<WavePlan, WaveError>> {
    let groups = game.battle.as_ref().filter(|b| b.fixed)?.arriving.clone();
    let esc = game
        .battle
        .as_ref()
        .and_then(|b| b.escalation.as_deref())
        .and_then(|e| rosters.escalation(e))
        .unwrap_or(esc)
        .clone();
    Some(plan_of(game, rosters, &esc, &groups, true))
}

/// A wave plan of `groups` (their costs and Igniters read from the rosters), each logged
/// `group_built`, then `wave_built` when `whole` (the battle's first Groups).
fn plan_of(
    game: &mut Game,
    rosters: &Rosters,
    esc: &Escalation,
    groups: &[Arrival],
    whole: bool,
) -> Result<WavePlan, WaveError> {
    let mut plans = Vec::with_capacity(groups.len());
    for a in groups {
        let mut cost = 0;
        let mut igniters = false;
        for name in &a.models {
            let p = rosters
                .profile(name)
                .filter(|p| p.kind == ProfileKind::Enemy)
                .ok_or_else(|| WaveError::UnknownProfile(name.clone()))?;
            cost += p.cost();
            igniters |= p.is_igniter();
        }
        let g = GroupPlan {
            number: a.number,
            models: a.models.clone(),
            behaviour: a.behaviour.clone(),
            rolled: a.models.len().min(usize::from(u8::MAX)) as u8,
            cost,
            edge: a.edge,
            igniters: igniters && esc.igniters,
            zone: a.zone.clone(),
            arrives: (a.round > 1).then_some(a.round),
        };
        g.log_built(game);
        plans.push(g);
    }
    let spent = plans.iter().map(|g| g.cost).sum();
    if whole {
        game.record(EventKind::WaveBuilt {
            escalation: esc.name.clone(),
            budget: spent,
            spent,
            groups: plans.len() as u32,
            unmet: Vec::new(),
            builder: game
                .battle
                .as_ref()
                .map(|b| format!("scenario {}", b.scenario)),
        });
    }
    Ok(WavePlan {
        escalation: esc.name.clone(),
        budget: spent,
        spent,
        behaviour: None,
        groups: plans,
        unmet: Vec::new(),
    })
}

/// The start of round `round`: the Groups that arrive now are built and deployed at their edge or in
/// their zone, and given their objectives.
pub fn arrive(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    esc: &Escalation,
    round: u32,
) -> Result<(), WaveError> {
    let Some(b) = game.battle.as_mut() else {
        return Ok(());
    };
    if !b.arriving.iter().any(|a| a.round <= round) {
        return Ok(());
    }
    let (now, later): (Vec<Arrival>, Vec<Arrival>) = std::mem::take(&mut b.arriving)
        .into_iter()
        .partition(|a| a.round <= round);
    b.arriving = later;
    let plan = plan_of(game, rosters, esc, &now, false)?;
    deploy_enemy_groups(game, rosters, &plan)?;
    super::objective::assign_all(game, hooks).map_err(|e| WaveError::Script(e.to_string()))
}

/// The end of a side's turn (`turn`: "heroes" or "enemies"): at the enemies', the end of the round —
/// who holds each objective, and the Victory Points of those scored each round; then the victory
/// script is asked (with `limit` at the round limit's last round).
pub fn turn_end(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    turn: &str,
    limit: bool,
) -> Result<(), RuleError> {
    if game.battle.is_none() || crate::rules::end::game_over(game, &rosters.rules) {
        return Ok(());
    }
    game.update_holders();
    if turn == "enemies" {
        score(game, true);
    }
    // The victory script, if the scenario has one: its verdict kept (the game ends at it), the
    // Victory Points it awards applied.
    let ask = VictoryAsk {
        turn: turn.to_string(),
        limit,
    };
    let (verdict, intents) = hooks.victory_check(game, &ask)?;
    crate::rules::outcome::apply_intents(game, &rosters.rules, hooks, &intents)?;
    if let (Some(v), Some(b)) = (verdict, game.battle.as_mut()) {
        b.verdict = Some(v);
    }
    Ok(())
}

/// Score the objectives held now: those scored each round (`each_round`), or those scored at the
/// game's end.
fn score(game: &mut Game, each_round: bool) {
    let Some(b) = game.battle.as_ref() else {
        return;
    };
    let scored: Vec<(Side, u32, String)> = b
        .objectives
        .iter()
        .filter(|o| o.each_round == each_round && o.vp > 0)
        .filter_map(|o| Some((o.holder?, o.vp, o.name.clone())))
        .collect();
    let source = format!("scenario {}", b.scenario);
    let when = if each_round {
        "this round"
    } else {
        "at the end"
    };
    for (side, vp, name) in scored {
        game.score_vp(side, vp, &format!("holding {name} {when}"), &source);
    }
}

/// The game's result when its battle ends: by a conclusion or verdict (`cause`, `reason`), or at the
/// round limit. The objectives scored at the end are scored first (so a decision by Victory Points
/// counts them); logged `concluded`.
pub fn conclude(
    game: &mut Game,
    ending: Ending,
    cause: Cause,
    reason: &str,
) -> super::play::Outcome {
    use super::play::Outcome;
    final_score(game);
    let vp = game.battle.as_ref().map_or([0, 0], |b| b.vp);
    let (outcome, why) = match ending {
        Ending::Win => (Outcome::Win, reason.to_string()),
        Ending::Loss => (Outcome::Loss, reason.to_string()),
        Ending::Draw => (Outcome::Draw, reason.to_string()),
        Ending::Vp => {
            let o = match vp[0].cmp(&vp[1]) {
                std::cmp::Ordering::Greater => Outcome::Win,
                std::cmp::Ordering::Less => Outcome::Loss,
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            (o, format!("{reason}: {} VP to {}", vp[0], vp[1]))
        }
    };
    game.record(EventKind::Concluded {
        result: outcome.as_str().to_string(),
        cause: cause.as_str().to_string(),
        reason: why,
    });
    outcome
}

/// The end of a battle's game: who holds each objective, and the Victory Points of those scored at
/// the end — once.
pub fn final_score(game: &mut Game) {
    if game.battle.as_ref().is_none_or(|b| b.concluded) {
        return;
    }
    game.update_holders();
    score(game, false);
    if let Some(b) = game.battle.as_mut() {
        b.concluded = true;
    }
}

/// A verdict a victory script may give: the word it returned, read.
pub fn ending_of(word: &str) -> Option<Ending> {
    match word {
        "win" => Some(Ending::Win),
        "loss" => Some(Ending::Loss),
        "draw" => Some(Ending::Draw),
        _ => None,
    }
}

/// A verdict of `result` for `reason` from the script `source`.
pub fn verdict(result: Ending, reason: String, source: String) -> Verdict {
    Verdict {
        result,
        reason,
        source,
    }
}
