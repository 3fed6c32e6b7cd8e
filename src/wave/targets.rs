//! A Behaviour's declared target choice (core §6.3) with the universal tie-breakers of §6.2, as the
//! kernel's own procedure. A Behaviour script may declare its target as a list of steps (`targets`,
//! read by `script::registry`); the first step that finds something gives the target. The kernel
//! decides it natively when no decision is being explained; otherwise the script's `target` runs
//! (`P.declared` of scripts/lib/priority.lua reads the same steps and says why). The two must give the
//! same target for the same table and the same dice: tests/universal.rs plays games both ways.

use crate::roster::ProfileKind;
use crate::rules::hooks::Aim;
use crate::rules::RuleError;
use crate::state::{Game, ModelId};
use crate::wave::universal::gap_to_footprint;

/// Two distances this close are a tie (inches), as `P.smallest_of` of scripts/lib/priority.lua says.
const EPS: f64 = 1e-6;

/// Which models of the other side a step measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Foes {
    /// Every model of the other side.
    Any,
    /// Only those of one kind (`"hero"`, `"defender"`).
    Kind(ProfileKind),
}

/// What narrows the candidates tied for nearest before the universal tie-breakers (a Behaviour's own
/// tie-breaker, §6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefer {
    /// The models with the most Wounds (Hunter).
    MostWounds,
    /// The buildings with the lowest Integrity (Ravager).
    LowestIntegrity,
}

/// One step of a declared target choice.
#[derive(Debug, Clone, PartialEq)]
pub enum TargetStep {
    /// The nearest of the other side's models (`models`) and the standing buildings (`buildings`),
    /// edge to edge, ties narrowed by `prefer`, then broken by §6.2.
    Nearest {
        models: Option<Foes>,
        buildings: bool,
        prefer: Option<Prefer>,
    },
    /// The Town Hall, while it stands.
    TownHall,
    /// The target the roster entry's `fallback_behaviour` would choose.
    Fallback,
}

/// What a declared choice comes to.
#[derive(Debug, Clone, PartialEq)]
pub enum Chosen {
    /// The target (none: nothing to go for).
    Target(Option<Aim>),
    /// The step that found it is the fallback Behaviour's: the caller asks that Behaviour.
    Fallback,
}

/// A candidate for nearest: a model or a building (by index).
#[derive(Debug, Clone, Copy)]
enum Candidate {
    Model(ModelId),
    Building(usize),
}

/// The target model `me` chooses by `steps`: the first step that finds one. Dice are rolled (a
/// `tie-breaker` roll, as `ctx:roll` makes it) only when candidates stay tied after every tie-breaker.
pub fn choose(game: &mut Game, me: ModelId, steps: &[TargetStep]) -> Result<Chosen, RuleError> {
    for step in steps {
        match step {
            TargetStep::Nearest {
                models,
                buildings,
                prefer,
            } => {
                let tied = nearest(game, me, *models, *buildings)?;
                if tied.is_empty() {
                    continue;
                }
                let tied = narrowed(game, tied, *prefer);
                let pick = break_tie(game, tied);
                return Ok(Chosen::Target(pick.map(|c| aim(game, c))));
            }
            TargetStep::TownHall => {
                // The Town Hall as `ctx:town_hall()` finds it: the first building that is one.
                let hall = game.buildings.iter().find(|b| b.town_hall);
                if let Some(b) = hall.filter(|b| !b.destroyed) {
                    return Ok(Chosen::Target(Some(Aim::Building(b.name.clone()))));
                }
            }
            TargetStep::Fallback => return Ok(Chosen::Fallback),
        }
    }
    Ok(Chosen::Target(None))
}

/// The candidates tied for nearest `me`, kept as `ctx:nearest` keeps them: models in id order, then
/// buildings in roster order; one more than [`EPS`] nearer replaces those kept, one within it joins.
fn nearest(
    game: &Game,
    me: ModelId,
    models: Option<Foes>,
    buildings: bool,
) -> Result<Vec<Candidate>, RuleError> {
    let mine = game.model(me)?;
    let other = mine.side.opponent();
    let mut scored = Vec::new();
    if let Some(foes) = models {
        for m in &game.models {
            let wanted = m.side == other
                && match foes {
                    Foes::Any => true,
                    Foes::Kind(k) => m.kind == k,
                };
            if wanted {
                let d = crate::rules::query::gap(mine, m).max(0.0);
                scored.push((d, Candidate::Model(m.id)));
            }
        }
    }
    if buildings {
        for (i, b) in game.buildings.iter().enumerate() {
            if !b.destroyed {
                scored.push((gap_to_footprint(mine, b), Candidate::Building(i)));
            }
        }
    }
    Ok(smallest_within(scored))
}

/// `tied` narrowed by a Behaviour's own tie-breaker (kept in order, ties within [`EPS`]).
fn narrowed(game: &Game, tied: Vec<Candidate>, prefer: Option<Prefer>) -> Vec<Candidate> {
    let Some(prefer) = prefer else {
        return tied;
    };
    if tied.len() <= 1 {
        return tied;
    }
    // The score each Behaviour minimises, as its script's `P.smallest` does; a candidate the score
    // does not apply to (a building's Wounds) counts as 0, as a missing field reads nil there.
    let score = |c: &Candidate| -> f64 {
        match (prefer, c) {
            (Prefer::MostWounds, Candidate::Model(id)) => {
                -f64::from(game.model(*id).map_or(0, |m| m.wounds))
            }
            (Prefer::LowestIntegrity, Candidate::Building(i)) => {
                f64::from(game.buildings[*i].integrity)
            }
            _ => 0.0,
        }
    };
    smallest_within(tied.into_iter().map(|c| (score(&c), c)))
}

/// Of `scored` (each with its score), those with the smallest score, in order, as `P.smallest_of` of
/// scripts/lib/priority.lua keeps them: one more than [`EPS`] below the best so far replaces those
/// kept, one within [`EPS`] of it joins them. `ctx:nearest` keeps its candidates so too.
pub fn smallest_within<T>(scored: impl IntoIterator<Item = (f64, T)>) -> Vec<T> {
    let mut best: Option<f64> = None;
    let mut out = Vec::new();
    for (s, c) in scored {
        match best {
            Some(b) if s < b - EPS => {
                best = Some(s);
                out.clear();
                out.push(c);
            }
            Some(b) if (s - b).abs() <= EPS => out.push(c),
            Some(_) => {}
            None => {
                best = Some(s);
                out.push(c);
            }
        }
    }
    out
}

/// The universal tie-breakers of §6.2 in the rulebook's order (smaller is better for each): closest to
/// the Town Hall, lowest Integrity, most Wounds, lowest Combat, lowest Group number; `P.break_tie`'s keys.
fn keys(game: &Game, c: Candidate) -> [f64; 5] {
    let hall = game.buildings.iter().find(|b| b.town_hall);
    match c {
        Candidate::Model(id) => match game.model(id) {
            Ok(m) => [
                hall.map_or(0.0, |h| gap_to_footprint(m, h)),
                0.0,
                -f64::from(m.wounds),
                f64::from(m.combat),
                m.group.map_or(0.0, f64::from),
            ],
            Err(_) => [0.0; 5],
        },
        Candidate::Building(i) => {
            let b = &game.buildings[i];
            [
                // Centre to centre, as the script measures a building's `pos`.
                hall.map_or(0.0, |h| b.rect.center().dist(h.rect.center())),
                f64::from(b.integrity),
                0.0,
                0.0,
                0.0,
            ]
        }
    }
}

/// Whether keys `a` beat keys `b` (`Some(true)`), lose (`Some(false)`) or tie (`None`), key by key.
fn better(a: &[f64; 5], b: &[f64; 5]) -> Option<bool> {
    for (x, y) in a.iter().zip(b) {
        if *x < y - EPS {
            return Some(true);
        }
        if *x > y + EPS {
            return Some(false);
        }
    }
    None
}

/// One of `tied` by the universal tie-breakers, then a D6 each, rolled again while tied (highest wins):
/// `P.break_tie`, with the same `tie-breaker` rolls.
fn break_tie(game: &mut Game, tied: Vec<Candidate>) -> Option<Candidate> {
    if tied.len() <= 1 {
        return tied.first().copied();
    }
    let mut best: Option<[f64; 5]> = None;
    let mut out: Vec<Candidate> = Vec::new();
    for c in tied {
        let k = keys(game, c);
        match best.as_ref().map(|b| better(&k, b)) {
            None | Some(Some(true)) => {
                best = Some(k);
                out = vec![c];
            }
            Some(None) => out.push(c),
            Some(Some(false)) => {}
        }
    }
    while out.len() > 1 {
        let dice: Vec<u8> = game
            .roll("tie-breaker", None, out.len())
            .iter()
            .map(|d| d.face)
            .collect();
        let top = dice.iter().copied().max().unwrap_or(0);
        out = out
            .into_iter()
            .zip(&dice)
            .filter(|(_, d)| **d == top)
            .map(|(c, _)| c)
            .collect();
    }
    out.first().copied()
}

/// The aim a candidate stands for.
fn aim(game: &Game, c: Candidate) -> Aim {
    match c {
        Candidate::Model(id) => Aim::Model(id),
        Candidate::Building(i) => Aim::Building(game.buildings[i].name.clone()),
    }
}
