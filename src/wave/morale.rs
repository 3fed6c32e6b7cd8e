//! The heroes' side's automatic morale triggers (core §3.6): every model of the side checks morale when
//! its Leader is Defeated, and once when more than half of the side's models at the start of the wave
//! have been Defeated or Fled. Enemy Groups check only Terror and Gruesome Kills, which the rules
//! modules trigger themselves. The turn engine watches each action and calls [`after_action`].

use crate::roster::Rosters;
use crate::rules::activation::LEAD;
use crate::rules::hooks::Hooks;
use crate::rules::morale::morale_check;
use crate::rules::RuleError;
use crate::state::{EventKind, Game, ModelId, MoraleTrigger, Side};

/// The `Game::spent` key of the wave's one "more than half lost" check.
const HALF_LOST: &str = "wave:half lost";

/// What to compare after an action: the heroes' side's Leaders, and where the log stood.
pub struct Watch {
    leaders: Vec<ModelId>,
    from: usize,
}

/// Note the heroes' side's Leaders (their scripts grant `lead`) before an action.
pub fn watch(game: &Game, hooks: &dyn Hooks) -> Result<Watch, RuleError> {
    let mut leaders = Vec::new();
    for m in game.side(Side::Heroes) {
        if hooks.permission(game, m.id, LEAD)?.is_some() {
            leaders.push(m.id);
        }
    }
    Ok(Watch {
        leaders,
        from: game.log().len(),
    })
}

/// The event that removed `id` as Defeated (not Fled, not gone off the table) since event `from`.
fn defeated_since(game: &Game, from: usize, id: ModelId) -> Option<u64> {
    game.log()
        .iter()
        .skip(from)
        .find(|e| {
            matches!(&e.kind, EventKind::Removed { model, reason }
            if *model == id && reason != "fled" && reason != "left the table")
        })
        .map(|e| e.seq)
}

/// The last removal since event `from` of a model `which` accepts: its event number.
fn removal_since(game: &Game, from: usize, which: impl Fn(ModelId) -> bool) -> Option<u64> {
    game.log()
        .iter()
        .skip(from)
        .rev()
        .find(|e| matches!(&e.kind, EventKind::Removed { model, .. } if which(*model)))
        .map(|e| e.seq)
}

/// Every model of the heroes' side still on the table checks morale for `trigger`, in id order.
fn everyone_checks(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    trigger: MoraleTrigger,
) -> Result<(), RuleError> {
    let ids: Vec<ModelId> = game.side(Side::Heroes).map(|m| m.id).collect();
    for id in ids {
        if crate::rules::end::halted(game, &rosters.rules).is_some() {
            break;
        }
        if game.model(id).is_ok() {
            morale_check(game, &rosters.rules, hooks, id, trigger)?;
        }
    }
    Ok(())
}

/// After an action: a Leader of the heroes' side Defeated in it makes the side check morale; then, once a
/// wave, more than half of the side's starting models Defeated or Fled does.
pub fn after_action(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    w: &Watch,
) -> Result<(), RuleError> {
    if game.round == 0 {
        return Ok(()); // outside a wave (a scenario's g:act): no side to count
    }
    if crate::rules::end::halted(game, &rosters.rules).is_some() {
        return Ok(()); // the wave or the game ended with the action: no check follows (Ch. VI)
    }
    let fell = w.leaders.iter().find_map(|id| {
        game.model(*id)
            .is_err()
            .then(|| defeated_since(game, w.from, *id))
            .flatten()
    });
    if let Some(removal) = fell {
        // The checks are the consequence of the Leader's removal in the log.
        game.caused_by(Some(removal), |game| {
            everyone_checks(game, rosters, hooks, MoraleTrigger::LeaderDefeated)
        })?;
    }
    let start = &game.wave_start_side;
    let lost = start.iter().filter(|id| game.model(**id).is_err()).count();
    if !start.is_empty() && lost * 2 > start.len() && !game.spent.iter().any(|s| s == HALF_LOST) {
        game.spent.push(HALF_LOST.to_string());
        // Caused by the removal that tipped the count over half, when it was in this action.
        let side = game.wave_start_side.clone();
        let cause = removal_since(game, w.from, |m| side.contains(&m));
        game.caused_by(cause, |game| {
            everyone_checks(game, rosters, hooks, MoraleTrigger::HalfLost)
        })?;
    }
    Ok(())
}
