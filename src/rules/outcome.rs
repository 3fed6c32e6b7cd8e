//! Applying a combat result to the model that lost: Recoil (or Defenseless with no room), Defenseless,
//! Defeated (or a Wound for Tough, §3.8), Gruesome Kill, Entangled.

use super::error::RuleError;
use super::query::label;
use crate::geometry::{straight_move, Vec2};
use crate::roster::Rules;
use crate::state::{CombatResult, Condition, EventKind, Game, ModelId};

/// The permission (granted by the Tough trait's script) to take a Wound instead of a normal Defeated
/// result (§3.8).
pub const TOUGH: &str = "tough";

/// Apply `result` to `loser`, beaten by a model standing at `winner_pos`. Returns what actually happened
/// (a Recoil with no room becomes Defenseless; a Tough model's Defeated becomes a Wound).
pub fn apply(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn super::hooks::Hooks,
    loser: ModelId,
    winner_pos: Vec2,
    result: CombatResult,
) -> Result<CombatResult, RuleError> {
    apply_with(game, rules, hooks, loser, winner_pos, result, None)
}

/// [`apply`], with a Recoil of `recoil` inches instead of one base width when a script said so (Hurl,
/// Ride Down).
#[allow(clippy::too_many_arguments)]
pub fn apply_with(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn super::hooks::Hooks,
    loser: ModelId,
    winner_pos: Vec2,
    result: CombatResult,
    recoil_distance: Option<f64>,
) -> Result<CombatResult, RuleError> {
    let m = game.model(loser)?.clone();
    if !matches!(result, CombatResult::Tie | CombatResult::None) {
        // Beaten in combat: a Task in progress is interrupted (§3.1).
        super::activation::interrupt_task(game, loser);
    }
    let applied = match result {
        CombatResult::Tie | CombatResult::None => return Ok(result),
        CombatResult::Gruesome => {
            defeat(game, rules, hooks, loser, "gruesome kill")?;
            outcome(
                game,
                loser,
                result,
                format!("{} suffers a Gruesome Kill", label(&m)),
            );
            return Ok(result);
        }
        CombatResult::Defeated | CombatResult::Wound => {
            if hooks.permission(game, loser, TOUGH)?.is_some() {
                let q = m.quality.saturating_add(rules.tough.quality_loss_per_wound);
                if q < rules.tough.defeated_at_quality {
                    let mm = game.model_mut(loser)?;
                    mm.wounds += 1;
                    mm.quality = q;
                    let detail = format!("{} takes a Wound (Quality {}+)", label(&m), q);
                    outcome(game, loser, CombatResult::Wound, detail);
                    return Ok(CombatResult::Wound);
                }
            }
            defeat(game, rules, hooks, loser, "defeated")?;
            outcome(
                game,
                loser,
                CombatResult::Defeated,
                format!("{} is Defeated", label(&m)),
            );
            return Ok(CombatResult::Defeated);
        }
        CombatResult::Recoil => {
            let distance = recoil_distance.unwrap_or(m.base);
            if recoil(game, loser, winner_pos, distance)? {
                // An ensnarer that Recoils lets go of what it Entangled (§3.7).
                release_entangled(game, loser);
                outcome(game, loser, result, format!("{} Recoils", label(&m)));
                return Ok(result);
            }
            CombatResult::Defenseless
        }
        CombatResult::Defenseless => CombatResult::Defenseless,
        CombatResult::Entangled => CombatResult::Entangled,
    };
    let (condition, detail) = match applied {
        CombatResult::Entangled => (Condition::Entangled, format!("{} is Entangled", label(&m))),
        _ if result == CombatResult::Recoil => (
            Condition::Defenseless,
            format!("{} has no room to Recoil and is Defenseless", label(&m)),
        ),
        _ => (
            Condition::Defenseless,
            format!("{} is Defenseless", label(&m)),
        ),
    };
    add_condition(game, loser, condition)?;
    outcome(game, loser, applied, detail);
    Ok(applied)
}

/// Add a condition and log it (nothing is logged when the model already had it).
pub fn add_condition(game: &mut Game, id: ModelId, c: Condition) -> Result<(), RuleError> {
    let m = game.model_mut(id)?;
    if !m.has(c) {
        m.add_condition(c);
        game.record(EventKind::Condition {
            model: id,
            condition: c,
            added: true,
        });
    }
    Ok(())
}

fn outcome(game: &mut Game, model: ModelId, result: CombatResult, detail: String) {
    game.record(EventKind::Outcome {
        model,
        result,
        detail,
    });
}

/// Remove a Defeated model, after its scripts' `on_defeat` had their say (Wildfire); what they asked
/// for is applied once it is gone.
fn defeat(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn super::hooks::Hooks,
    id: ModelId,
    why: &str,
) -> Result<(), RuleError> {
    let intents = hooks.on_defeat(game, id)?;
    super::magic::remove(game, id, why)?;
    if super::end::game_over(game, rules) {
        return Ok(()); // overrun at once: the Defeat's own effects do not resolve either
    }
    apply_intents(game, rules, hooks, &intents)
}

/// Move `id` `distance` (one base width, unless a script says more) directly away from `from`. False
/// (and no move) when there is no room for a base width: the table edge, terrain, a building or another
/// model is in the way (§3.4); a longer Recoil stops where the way is blocked.
fn recoil(game: &mut Game, id: ModelId, from: Vec2, distance: f64) -> Result<bool, RuleError> {
    let m = game.model(id)?;
    let away = m.pos - from;
    if away.len() < 1e-9 {
        return Ok(false);
    }
    let dest = m.pos + away.normalized() * distance;
    let others: Vec<_> = game
        .models
        .iter()
        .filter(|o| o.id != id)
        .map(|o| o.circle())
        .collect();
    let out = straight_move(&game.table, &m.circle(), dest, &[], &others);
    if out.travelled + 1e-6 < m.base {
        return Ok(false);
    }
    let before = m.pos;
    game.model_mut(id)?.pos = out.end;
    game.record(EventKind::Moved {
        model: id,
        from: before,
        to: out.end,
        kind: crate::state::MoveKind::Recoil,
        reach: None,
        band: None,
        band_lost: None,
        actions: None,
        stop: out
            .stopped
            .map_or(crate::state::MoveStop::Reached, recoil_stop),
        with: None,
        via: Vec::new(),
        stopped_by: None,
        traits: Vec::new(),
    });
    Ok(true)
}

/// Free every model `ensnarer` holds Entangled.
fn release_entangled(game: &mut Game, ensnarer: ModelId) {
    let freed: Vec<ModelId> = game
        .models
        .iter_mut()
        .filter(|m| m.entangled_by == Some(ensnarer))
        .filter_map(|m| {
            m.entangled_by = None;
            m.remove_condition(Condition::Entangled).then_some(m.id)
        })
        .collect();
    for model in freed {
        game.record(EventKind::Condition {
            model,
            condition: Condition::Entangled,
            added: false,
        });
    }
}

/// Read a won roll (SUPPLEMENT §4) with the winner's own rules (Lethal, Savage, Cleric) from its scripts.
/// `lethal` is the rulebook's reason the win defeats on any loss, if any. Returns the result and the
/// reason it was Lethal, and the script that lowered the Gruesome Kill multiple, if one did.
#[allow(clippy::too_many_arguments)]
pub fn read_win(
    game: &Game,
    rules: &Rules,
    hooks: &dyn super::hooks::Hooks,
    kind: crate::state::RollKind,
    winner: ModelId,
    loser: ModelId,
    winner_die: u8,
    totals: (i32, i32),
    lethal: Option<String>,
    attacker_won: bool,
) -> Result<(CombatResult, Option<String>, Option<String>), RuleError> {
    let k = super::combat::CombatConstants::from_rules(rules);
    let plain = super::combat::classify(
        totals.0,
        totals.1,
        winner_die,
        lethal.is_some(),
        k.gruesome_multiplier,
        &k,
    );
    let info = super::hooks::WinInfo {
        kind,
        winner,
        loser,
        winner_die,
        winner_total: totals.0,
        loser_total: totals.1,
        result: plain,
        attacker_won,
    };
    let wr = hooks.win_rules(game, &info)?;
    let lethal = lethal.or(wr.lethal.map(|(why, src)| format!("{why} ({src})")));
    let mult = wr
        .gruesome_multiplier
        .as_ref()
        .map_or(k.gruesome_multiplier, |(m, _)| *m);
    let gruesome_at = wr
        .gruesome_multiplier
        .map(|(m, src)| format!("a Gruesome Kill from {m}× ({src})"));
    let result =
        super::combat::classify(totals.0, totals.1, winner_die, lethal.is_some(), mult, &k);
    Ok((result, lethal, gruesome_at))
}

/// Settle a won roll: the winner's and the loser's scripts may replace the result (`on_result`), the
/// result is applied to the loser, then the changes scripts asked for, then the morale checks a
/// Gruesome Kill causes. Returns what was applied.
pub fn settle(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn super::hooks::Hooks,
    info: &super::hooks::WinInfo,
    winner_pos: Vec2,
) -> Result<CombatResult, RuleError> {
    let victim = game.model(info.loser)?.clone();
    let change = hooks.on_result(game, info)?;
    let mut result = info.result;
    if let Some((to, reason, source)) = change.replace {
        if to != result {
            game.record(EventKind::ResultChanged {
                model: info.loser,
                from: result,
                to,
                reason,
                source,
            });
            result = to;
        }
    }
    if let (CombatResult::Recoil, Some((_, reason, source))) = (result, &change.recoil) {
        game.record(EventKind::ResultChanged {
            model: info.loser,
            from: result,
            to: result,
            reason: reason.clone(),
            source: source.clone(),
        });
    }
    let distance = change.recoil.as_ref().map(|(d, _, _)| *d);
    let applied = apply_with(game, rules, hooks, info.loser, winner_pos, result, distance)?;
    if super::end::game_over(game, rules) {
        return Ok(applied); // the last defender fell: the village is overrun at once (SUPPLEMENT §10)
    }
    if applied == CombatResult::Entangled {
        if let Ok(m) = game.model_mut(info.loser) {
            m.entangled_by = Some(info.winner);
        }
    }
    apply_intents(game, rules, hooks, &change.intents)?;
    if applied == CombatResult::Gruesome {
        super::morale::gruesome_checks(game, rules, hooks, &victim)?;
    }
    Ok(applied)
}

/// Apply the changes scripts asked for, each validated; a model no longer on the table is skipped.
pub fn apply_intents(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn super::hooks::Hooks,
    intents: &[super::hooks::Intent],
) -> Result<(), RuleError> {
    use super::hooks::Intent;
    for i in intents {
        if super::end::game_over(game, rules) {
            break; // the game ended at an earlier change: nothing more resolves
        }
        match i {
            Intent::WorsenQuality {
                model,
                amount,
                reason,
                source,
            } => {
                let Ok(m) = game.model_mut(*model) else {
                    continue;
                };
                m.quality = m.quality.saturating_add(*amount);
                let quality = m.quality;
                game.record(EventKind::QualityWorsened {
                    model: *model,
                    amount: *amount,
                    quality,
                    reason: reason.clone(),
                    source: source.clone(),
                });
                if quality >= rules.tough.defeated_at_quality {
                    super::magic::remove(game, *model, "defeated")?;
                }
            }
            Intent::AddCondition {
                model,
                condition,
                held_by,
                ..
            } => {
                if game.model(*model).is_err() {
                    continue;
                }
                add_condition(game, *model, *condition)?;
                let m = game.model_mut(*model)?;
                match condition {
                    Condition::Entangled => m.entangled_by = *held_by,
                    Condition::Transfixed => m.transfixed_by = *held_by,
                    Condition::Defenseless => {}
                }
            }
            Intent::Morale { model, trigger, .. } => {
                if game.model(*model).is_ok() {
                    super::morale::morale_check(game, rules, hooks, *model, *trigger)?;
                }
            }
            Intent::AdvanceTrack {
                track,
                by,
                reason,
                source,
            } => {
                if game.advance_track(track, *by, reason, source).is_none() {
                    return Err(RuleError::Reward(format!(
                        "{source}: the {track} track is not in play"
                    )));
                }
            }
            Intent::AwardVp {
                side,
                points,
                reason,
                source,
            } => {
                if game.battle.is_none() {
                    return Err(RuleError::Reward(format!(
                        "{source}: Victory Points are scored only in a scenario's battle"
                    )));
                }
                game.score_vp(*side, *points, reason, source);
            }
            Intent::Spend { key, source } => game
                .spend_use(key, source)
                .map_err(|why| RuleError::Reward(format!("{source}: {why}")))?,
            Intent::Grant(effect) => {
                game.record(EventKind::EffectGranted {
                    models: effect.models.clone(),
                    against: effect.against.clone(),
                    value: effect.value,
                    reason: effect.reason.clone(),
                    source: effect.source.clone(),
                });
                game.effects.push(effect.clone());
            }
            Intent::Repair {
                building,
                amount,
                source,
            } => {
                let b = game.building_mut(building)?;
                if b.destroyed || *amount <= 0 {
                    continue;
                }
                let before = b.integrity;
                b.integrity = (b.integrity + amount).min(b.max_integrity);
                let (gained, integrity) = (b.integrity - before, b.integrity);
                let building = b.name.clone();
                game.record(EventKind::Repaired {
                    building,
                    amount: gained,
                    integrity,
                    source: source.clone(),
                });
            }
            Intent::Extinguish { building, source } => {
                super::structural::put_out_fire(game, building, None, Some(source.clone()))?;
            }
            Intent::Ignite { building, source } => {
                let b = game.building(building)?;
                // A building already burning or Destroyed takes no second fire: nothing to do.
                if !b.fire && !b.destroyed {
                    super::structural::place_fire(game, building, None, Some(source.clone()))?;
                }
            }
            Intent::Attack { source, .. } | Intent::Summon { source, .. } => {
                return Err(RuleError::Reward(format!(
                    "{source}: an attack or a summoning can be asked for only in a scripted action's run"
                )))
            }
            Intent::RemoveBarricade { token, source } => {
                let left = game
                    .tokens
                    .iter()
                    .find_map(|t| match (&t.kind, t.id == *token) {
                        (crate::state::TokenKind::Barricade { integrity, .. }, true) => {
                            Some(*integrity)
                        }
                        _ => None,
                    });
                if let Some(left) = left {
                    super::structural::damage_barricade(game, *token, left, Some(source.clone()))?;
                }
            }
        }
    }
    Ok(())
}

/// The log's word for what ended a Recoil short of its base width.
fn recoil_stop(s: crate::geometry::Stop) -> crate::state::MoveStop {
    use crate::geometry::Stop;
    use crate::state::MoveStop;
    match s {
        Stop::Contact(_) | Stop::Model(_) => MoveStop::Base,
        Stop::Building(_) => MoveStop::Building,
        Stop::Terrain(_) => MoveStop::Terrain,
        Stop::TableEdge => MoveStop::Edge,
    }
}
