//! Rollouts: what a decision of the hero policy is worth, estimated by playing it out. For each
//! candidate — letting the offered model wait, nominating it with some dice (and a group), or a list of
//! orders for the model taking its actions — the game is played on from the decision with the
//! candidate taken, by the hero policy the caller gives (the default one) and the Behaviours, to a
//! horizon (the rest of the activation, the turn, the round or the wave), and scored. Every playout
//! runs on the game itself inside [`Game::playout`], which puts it back exactly (dice, log, frames,
//! decisions): the game a policy decides for never sees a playout. Sample `k` of every candidate
//! rolls the same dice (common random numbers: candidates are compared on the same futures), seeded
//! from the game's seed, the event the decision is made at and `k`, so the estimates are the same
//! wherever and however often the game is played. The dice are keyed ([`crate::dice::Dice::keyed`]):
//! each roll is drawn at a position named by its wave, round, purpose and model, so a candidate that
//! rolls more or fewer dice early does not shift every later roll of the sample. Deciding is the
//! caller's (Lua decides: the policy script reads the estimates and chooses); this module only plays
//! and scores.

use super::play::{Horizon, PlayError};
use crate::roster::Rosters;
use crate::rules::end::Halt;
use crate::rules::hooks::{ActivationAsk, Hooks, Order};
use crate::rules::RuleError;
use crate::state::{Game, ModelId, Side, Underway};
use serde::Serialize;

/// How far a playout goes past the candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Depth {
    /// The rest of the activation the candidate starts or continues.
    Activation,
    /// The rest of the hero turn.
    Turn,
    /// The rest of the round: the hero turn and the enemy turn after it.
    Round,
    /// The rest of the wave.
    Wave,
}

impl Depth {
    /// Every depth, by the name scripts give.
    pub const ALL: [(&'static str, Depth); 4] = [
        ("activation", Depth::Activation),
        ("turn", Depth::Turn),
        ("round", Depth::Round),
        ("wave", Depth::Wave),
    ];
}

/// What a playout's end is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// The wave's result: 1 won, 0 lost (a battle's draw ½); at a horizon before the wave ends, the
    /// position's worth between them ([`position_worth`]).
    Result,
    /// The Town Hall's Integrity at the horizon (0 Destroyed); without a Town Hall, every standing
    /// building's.
    Integrity,
    /// Waves won at the horizon, the wave under way counted as its result (a whole one won, none
    /// lost, its worth between).
    Waves,
}

impl Score {
    /// Every score, by the name scripts give.
    pub const ALL: [(&'static str, Score); 3] = [
        ("result", Score::Result),
        ("integrity", Score::Integrity),
        ("waves", Score::Waves),
    ];
}

/// One candidate decision.
#[derive(Debug, Clone, PartialEq)]
pub enum Candidate {
    /// The offered model waits: the rest of this pass of the hero turn goes on without it.
    Wait(ModelId),
    /// The offered model is nominated as asked (dice, spellcasting, a Leader's group).
    Nominate(ModelId, ActivationAsk),
    /// The model taking its actions carries out these orders first (one order, or a whole plan); the
    /// policy orders the rest of the activation.
    Orders(Vec<Order>),
}

/// The playouts' settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Playouts per candidate.
    pub samples: u32,
    pub depth: Depth,
    pub score: Score,
    /// The most events all the playouts of one call may log between them: sampling stops before a
    /// sample that would start past it (each sample plays every candidate, so all keep the same
    /// number).
    pub events: u64,
}

/// The most playouts per candidate a call may ask for.
pub const MAX_SAMPLES: u32 = 256;
/// The most candidates one call may weigh.
pub const MAX_CANDIDATES: usize = 32;
/// The most events the playouts of one call (and of one decision, all its calls together) may log,
/// whatever the caller asks: about forty Standard games' worth, some 250 times what the planner's
/// decision plays (about a thousand).
pub const MAX_EVENTS: u64 = 250_000;

/// What one candidate's playouts reached.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    /// The mean score.
    pub mean: f64,
    /// Its 95% interval (the normal approximation: mean ± 1.96 standard errors).
    pub low: f64,
    pub high: f64,
    /// The playouts behind it.
    pub playouts: u32,
    /// Each playout's score, sample by sample (the same samples for every candidate).
    pub scores: Vec<f64>,
    /// Why the rules refused the candidate (it was not played out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// What a call's playouts reached: an estimate per candidate, in the order given.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rollouts {
    pub estimates: Vec<Estimate>,
    /// Samples played (each for every candidate).
    pub samples: u32,
    /// Events logged by all the playouts (then undone).
    pub events: u64,
    /// Sampling stopped at the event cap before the samples asked for.
    pub capped: bool,
}

/// Why a call's playouts could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RolloutError {
    #[error("{0}")]
    Settings(String),
    #[error("a playout failed: {0}")]
    Play(#[from] PlayError),
    /// The rules refused the candidate when it was played (a nomination's dice or group).
    #[error("{0}")]
    Refused(String),
}

impl From<RuleError> for RolloutError {
    fn from(e: RuleError) -> Self {
        RolloutError::Play(PlayError::Rule(e))
    }
}

/// The seed of sample `k` of a decision made at the game's current event: the game's seed, the event
/// and the sample mixed (SplitMix64's finaliser), the same for every candidate.
pub fn sample_seed(game: &Game, k: u32) -> u64 {
    crate::dice::mix64(
        game.seed
            ^ (game.log().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(k).wrapping_mul(0xD1B5_4A32_D192_ED03)
            ^ 0x005E_ED0F_F17E_0000,
    )
}

/// A side's strength on the table: its models' ([`model_strength`]).
fn strength(game: &Game, side: Side) -> f64 {
    game.side(side)
        .filter(|m| !game.unplaced.contains(&m.id))
        .map(model_strength)
        .sum()
}

/// The Integrity the village stands on: the Town Hall's twice, every other standing building's once.
fn integrity(game: &Game) -> f64 {
    game.buildings
        .iter()
        .filter(|b| !b.destroyed)
        .map(|b| f64::from(b.integrity.max(0)) * if b.town_hall { 2.0 } else { 1.0 })
        .sum()
}

/// One model's strength: its Combat (at least 0) plus one, and its Quality's worth (7 − Quality: less
/// as Wounds and Poison worsen it).
fn model_strength(m: &crate::state::Model) -> f64 {
    f64::from(m.combat.max(0) + 1) + f64::from(7u8.saturating_sub(m.quality))
}

/// What a playout's end is measured against: the position the decision was made in, its sides'
/// strength and the village's Integrity, taken once for all the call's playouts.
#[derive(Debug, Clone, Copy)]
pub struct Baseline {
    enemies: f64,
    heroes: f64,
    village: f64,
}

impl Baseline {
    /// The baseline of `game` as it stands.
    pub fn of(game: &Game) -> Self {
        Baseline {
            enemies: strength(game, Side::Enemies),
            heroes: strength(game, Side::Heroes),
            village: integrity(game),
        }
    }
}

/// What a position is worth at a horizon before the wave is decided, between 0 (lost) and 1 (won),
/// against `start` (the position the decision was made in): 0.4 for the enemies' strength taken away,
/// 0.3 for the heroes' side's kept, 0.3 for the village's Integrity kept (the Town Hall's twice). (A
/// term for the enemies' nearness to the Town Hall was tried and measured no stronger: 500 paired Intro
/// games, planner − default −0.03 waves against +0.03 without it.)
pub fn position_worth(game: &Game, start: &Baseline) -> f64 {
    let ratio = |now: f64, then: f64| {
        if then > 0.0 {
            (now / then).min(1.0)
        } else {
            1.0
        }
    };
    let enemies = 1.0 - ratio(strength(game, Side::Enemies), start.enemies);
    let heroes = ratio(strength(game, Side::Heroes), start.heroes);
    let village = ratio(integrity(game), start.village);
    (0.4 * enemies + 0.3 * heroes + 0.3 * village).clamp(0.0, 1.0)
}

/// What the wave's result is worth at the end of a playout: 1 won, 0 lost, a battle's draw ½, else the
/// position's worth.
fn result_worth(game: &Game, start: &Baseline, rosters: &Rosters) -> f64 {
    match crate::rules::end::halted(game, &rosters.rules) {
        Some(Halt::NoEnemy) => 1.0,
        Some(Halt::Concluded) => match crate::rules::end::concluded(game) {
            Some((crate::state::battle::Ending::Win, ..)) => 1.0,
            Some((crate::state::battle::Ending::Loss, ..)) => 0.0,
            _ => 0.5,
        },
        Some(_) => 0.0,
        None => position_worth(game, start),
    }
}

/// The score of a playout's end.
fn score_of(game: &Game, start: &Baseline, rosters: &Rosters, score: Score) -> f64 {
    match score {
        Score::Result => result_worth(game, start, rosters),
        Score::Waves => f64::from(game.wave.saturating_sub(1)) + result_worth(game, start, rosters),
        Score::Integrity => {
            let hall = game.buildings.iter().find(|b| b.town_hall);
            match hall {
                Some(b) if b.destroyed => 0.0,
                Some(b) => f64::from(b.integrity.max(0)),
                None => game
                    .buildings
                    .iter()
                    .filter(|b| !b.destroyed)
                    .map(|b| f64::from(b.integrity.max(0)))
                    .sum(),
            }
        }
    }
}

/// Check `settings` and `candidates` against the bounds, with the reason.
pub fn check(settings: &Settings, candidates: &[Candidate]) -> Result<(), RolloutError> {
    if settings.samples == 0 || settings.samples > MAX_SAMPLES {
        return Err(RolloutError::Settings(format!(
            "samples must be 1 to {MAX_SAMPLES}, not {}",
            settings.samples
        )));
    }
    if candidates.is_empty() || candidates.len() > MAX_CANDIDATES {
        return Err(RolloutError::Settings(format!(
            "give 1 to {MAX_CANDIDATES} candidates, not {}",
            candidates.len()
        )));
    }
    if settings.events == 0 || settings.events > MAX_EVENTS {
        return Err(RolloutError::Settings(format!(
            "events must be 1 to {MAX_EVENTS}, not {}",
            settings.events
        )));
    }
    Ok(())
}

/// What the hooks of the playouts are asked between samples: whether to go on (a budget of their own
/// may have run out).
pub trait Playouts {
    /// The hooks the playouts are played with (the default policy's and the Behaviours').
    fn hooks(&self) -> &dyn Hooks;
    /// Called before each playout with its seed (the VM's `math.random` stream is reseeded from it).
    fn before(&self, seed: u64);
    /// Whether a failed playout failed because the playouts' budget ran out (sampling then stops).
    fn spent(&self) -> bool;
}

/// Estimate each candidate of a decision in `game` by `settings.samples` playouts with the hooks of
/// `with`, then put the game back. `length` is the game's length (a later round's arriving Groups need
/// its Escalation). A candidate the rules refuse (a nomination of a model that is not Active, a group
/// that is not one) is marked refused and not played; an error of a script in a playout is the call's.
pub fn estimate(
    game: &mut Game,
    rosters: &Rosters,
    with: &dyn Playouts,
    length: &str,
    candidates: &[Candidate],
    settings: Settings,
) -> Result<Rollouts, RolloutError> {
    check(&settings, candidates)?;
    if game.round == 0 {
        return Err(RolloutError::Settings(
            "no wave is under way: a playout starts from a decision in a round".into(),
        ));
    }
    let esc_row = super::play::wave_escalation(game, rosters, length, game.wave)
        .map_err(|e| RolloutError::Play(e.into()))?;
    let start = Baseline::of(game);
    // A refusal found at a candidate's first playout holds for every sample (nothing had changed).
    let mut estimates: Vec<Estimate> = candidates
        .iter()
        .map(|c| Estimate {
            mean: 0.0,
            low: 0.0,
            high: 0.0,
            playouts: 0,
            scores: Vec::new(),
            refused: refusal(game, c),
        })
        .collect();
    let mut events = 0u64;
    let mut samples = 0;
    let mut capped = false;
    let mut refused = Vec::new();
    'samples: for k in 0..settings.samples {
        if events >= settings.events {
            capped = true;
            break;
        }
        let seed = sample_seed(game, k);
        let mut round = Vec::with_capacity(candidates.len());
        for (c, e) in candidates.iter().zip(&estimates) {
            if e.refused.is_some() {
                round.push(None);
                continue;
            }
            with.before(seed);
            let base = game.log().len();
            let played = game.playout(seed, |g| {
                let r = play_out(g, rosters, with.hooks(), &esc_row, c, settings.depth);
                let n = (g.log().len() - base) as u64;
                (r.map(|()| score_of(g, &start, rosters, settings.score)), n)
            });
            events += played.1;
            match played.0 {
                Ok(s) => round.push(Some(s)),
                Err(RolloutError::Refused(why)) => {
                    refused.push((round.len(), why));
                    round.push(None);
                }
                Err(_) if with.spent() => {
                    capped = true;
                    break 'samples;
                }
                Err(e) => return Err(e),
            }
        }
        for (i, why) in refused.drain(..) {
            estimates[i].refused = Some(why);
        }
        for (e, s) in estimates.iter_mut().zip(round) {
            if let Some(s) = s {
                e.scores.push(s);
            }
        }
        samples += 1;
    }
    for e in &mut estimates {
        summarise(e);
    }
    Ok(Rollouts {
        estimates,
        samples,
        events,
        capped,
    })
}

/// The mean and interval of an estimate's scores.
fn summarise(e: &mut Estimate) {
    let n = e.scores.len();
    e.playouts = n as u32;
    if n == 0 {
        return;
    }
    let mean = e.scores.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        e.scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let half = 1.96 * (var / n as f64).sqrt();
    e.mean = mean;
    e.low = mean - half;
    e.high = mean + half;
}

/// Why the rules refuse a candidate before any playout, if they do.
fn refusal(game: &Game, c: &Candidate) -> Option<String> {
    let active = |id: &ModelId| {
        game.model(*id)
            .is_ok_and(|m| m.active && m.side == Side::Heroes)
    };
    match c {
        Candidate::Wait(_) | Candidate::Nominate(..) if game.underway.is_some() => Some(
            "an activation is under way: only orders for the model taking its actions can be weighed"
                .into(),
        ),
        Candidate::Wait(id) | Candidate::Nominate(id, _) if !active(id) => Some(format!(
            "model {id} is not an Active model of the heroes' side"
        )),
        Candidate::Orders(_) if game.underway.is_none() => {
            Some("no activation of the heroes' side is under way: orders have no model".into())
        }
        _ => None,
    }
}

/// One playout: the candidate taken, then the game played on to `depth`.
fn play_out(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    esc_row: &crate::roster::Escalation,
    c: &Candidate,
    depth: Depth,
) -> Result<(), RolloutError> {
    // Whether the hero turn is over once the candidate is played (a turnover, or its passes played).
    let turn_over = match c {
        Candidate::Wait(id) => {
            if depth == Depth::Activation {
                return Ok(());
            }
            super::turn::hero_passes(game, rosters, hooks, Some(*id))?;
            true
        }
        Candidate::Nominate(id, ask) => {
            let (roll, members) = match super::turn::nominate(game, rosters, hooks, *id, ask) {
                Ok(r) => r,
                Err(RuleError::Hook(e)) => return Err(RuleError::Hook(e).into()),
                // Refused by the rules (its dice, its group), before anything changed.
                Err(e) => return Err(RolloutError::Refused(e.to_string())),
            };
            let under = Underway {
                members,
                successes: roll.successes,
                again: crate::rules::activation::stays_active(&roll),
                turnover: roll.turnover,
                current: 0,
            };
            super::turn::activation_actions(game, rosters, hooks, under, None, Vec::new())?;
            roll.turnover
        }
        Candidate::Orders(orders) => {
            let Some(under) = game.underway.clone() else {
                return Ok(());
            };
            let turnover = under.turnover;
            // The model deciding has the actions the turn engine left it.
            let id = under.members.get(under.current).copied();
            let left = id
                .and_then(|id| game.model(id).ok())
                .map(|m| m.actions_left);
            super::turn::activation_actions(game, rosters, hooks, under, left, orders.clone())?;
            turnover
        }
    };
    if depth == Depth::Activation {
        return Ok(());
    }
    let over = crate::rules::end::halted(game, &rosters.rules).is_some()
        || game.side(Side::Enemies).next().is_none();
    if !turn_over && !over {
        super::turn::hero_passes(game, rosters, hooks, None)?;
    }
    let horizon = match depth {
        Depth::Activation | Depth::Turn => Horizon::Turn,
        Depth::Round => Horizon::Round,
        Depth::Wave => Horizon::Wave,
    };
    super::play::play_rounds(game, rosters, hooks, esc_row, game.round, true, horizon)?;
    Ok(())
}

/// The orders worth weighing for model `id` now (the REPL's `:advise`): strike each enemy in contact
/// (a Power Blow too with two actions left) while it has an attack left this turn, shoot each enemy the
/// rules let it shoot (an Aimed Shot too with two actions left), and otherwise close in on each of the
/// four nearest enemies and walk to the Town Hall. Legal as the turn engine would find them; what they
/// are worth is the playouts' to say.
pub fn order_candidates(
    game: &Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
) -> Result<Vec<Order>, RuleError> {
    let rules = &rosters.rules;
    let me = game.model(id)?;
    let two = me.actions_left >= 2;
    let attack = u32::from(me.attacks) < rules.actions.attacks_per_turn;
    let mut out = Vec::new();
    let engaged = crate::rules::query::engaged_enemies(game, rules, id);
    if !engaged.is_empty() {
        for e in engaged.into_iter().filter(|_| attack) {
            out.push(Order::Melee(e));
            if two {
                out.push(Order::PowerBlow(e));
            }
        }
        return Ok(out);
    }
    let mut foes: Vec<(f64, ModelId)> = game
        .side(me.side.opponent())
        .filter(|e| !game.unplaced.contains(&e.id))
        .map(|e| (crate::rules::query::gap(me, e), e.id))
        .collect();
    foes.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (_, e) in &foes {
        if !attack {
            break;
        }
        match crate::rules::ranged::may_shoot(game, rosters, hooks, id, *e) {
            Ok(()) => {
                out.push(Order::Shoot(*e));
                if two {
                    out.push(Order::AimedShot(*e));
                }
            }
            Err(RuleError::Hook(h)) => return Err(RuleError::Hook(h)),
            Err(_) => {}
        }
    }
    for (_, e) in foes.iter().take(4) {
        out.push(Order::Move(crate::rules::hooks::Aim::Model(*e)));
    }
    if let Some(th) = game.buildings.iter().find(|b| b.town_hall && !b.destroyed) {
        out.push(Order::Move(crate::rules::hooks::Aim::Building(
            th.name.clone(),
        )));
    }
    Ok(out)
}
