//! Opportunities (core §6.1, §7.1 step 4; SUPPLEMENT §7) and the items they give.
//!
//! Owns the kernel's half of an Opportunity: who may claim a token (a hero — not a Village Defender, not
//! an Animal — in base contact), the claim's cost, revealing it, the logged D6 read on
//! `rosters/opportunities.toml`, removing the token, remembering a `wave_end` result for the End Sequence
//! and resolving it there; and applying the [`Reward`]s the row's script asks for — Supplies, Herb
//! tokens, a Village Defender joining at the next wave start, an Ambush deployed around the token as a
//! new Enemy Group, an item given to a hero, a limited use spent, a Wound or condition healed — each
//! validated and logged with the script as its source. Items a model carries are used here too (`use`
//! orders): the item's script decides, the kernel applies and removes the item.
//!
//! The scripts decide what a result does; this module never hard-codes a result by name. A claim or a use
//! that fails leaves the game exactly as it was (dice and log included): it is restored from a copy.

use super::deploy::spots_near;
use crate::geometry::Vec2;
use crate::roster::{OpportunityTiming, ProfileKind, Rosters};
use crate::rules::activation::work_task;
use crate::rules::hooks::{Hooks, OpportunityCall, OpportunityEntry, Reward};
use crate::rules::magic::{heal, NO_MAGIC};
use crate::rules::query::label;
use crate::rules::RuleError;
use crate::state::{
    model_from_profile, EventKind, Game, ModelId, PendingReward, TokenId, TokenKind,
};
use serde::Serialize;

pub use crate::state::SPENT_PREFIXES;

/// What a claim did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimReport {
    pub token: TokenId,
    /// The Opportunity die, once the claim is complete (absent while a multi-action claim is under way).
    pub roll: Option<u8>,
    /// The row's name ("Relic Blade").
    pub result: Option<String>,
    /// `now` or `wave_end`.
    pub timing: Option<OpportunityTiming>,
    /// Actions spent on the claim so far and actions it takes (both 1 with the built-in rules).
    pub done: u8,
    pub needed: u8,
}

/// What using an item did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UseReport {
    pub item: String,
    /// The item was used up (false while a multi-action use is under way).
    pub complete: bool,
}

/// Refuse a model that may not claim Opportunities or carry items: only heroes do (core §6.1: Village
/// Defenders "cannot claim Opportunities"), and not an Animal (SUPPLEMENT §9: "no magic, items or
/// Opportunities", the permission its script grants).
fn must_be_hero(
    game: &Game,
    hooks: &dyn Hooks,
    id: ModelId,
    what: &'static str,
) -> Result<(), RuleError> {
    let m = game.model(id)?;
    if m.kind == ProfileKind::Defender {
        return Err(RuleError::NotAllowed(label(m), defender_why(what)));
    }
    if m.kind != ProfileKind::Hero {
        return Err(RuleError::NotAllowed(label(m), hero_why(what)));
    }
    if hooks.permission(game, id, NO_MAGIC)?.is_some() {
        return Err(RuleError::NotAllowed(label(m), animal_why(what)));
    }
    Ok(())
}

fn defender_why(what: &str) -> &'static str {
    match what {
        "claim" => "claim an Opportunity (a Village Defender is not a hero)",
        _ => "carry or use items (a Village Defender is not a hero)",
    }
}

fn hero_why(what: &str) -> &'static str {
    match what {
        "claim" => "claim an Opportunity (only heroes do)",
        _ => "carry or use items (only heroes do)",
    }
}

fn animal_why(what: &str) -> &'static str {
    match what {
        "claim" => "claim an Opportunity (an Animal)",
        _ => "carry or use items (an Animal)",
    }
}

/// Claim Opportunity `token` with `hero` (core §6.1): checks the hero and the base contact, spends
/// `rules.actions.claim_opportunity` actions (a Task when more than one), then reveals the token, rolls
/// the D6 (logged), removes the token and logs `claimed`. A `now` result's script runs at once (its
/// `claim`) and its rewards are applied; a `wave_end` result is remembered for §7.1 step 4.
pub fn claim(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    hero: ModelId,
    token: TokenId,
) -> Result<ClaimReport, RuleError> {
    must_be_hero(game, hooks, hero, "claim")?;
    let m = game.model(hero)?;
    let tok = game
        .tokens
        .iter()
        .find(|t| t.id == token && matches!(t.kind, TokenKind::Opportunity { .. }))
        .ok_or(RuleError::NoOpportunity(token.0))?;
    // The token is a point: the hero's base is in contact when its edge reaches it.
    let gap = m.pos.dist(tok.pos) - m.base / 2.0;
    if gap > rosters.rules.bases.contact_tolerance {
        return Err(RuleError::NotInContact {
            id: hero,
            name: label(m),
            other: format!("Opportunity token {}", token.0),
            gap,
        });
    }
    let at = tok.pos;
    let needed = u8::try_from(rosters.rules.actions.claim_opportunity.max(1)).unwrap_or(u8::MAX);
    let before = game.checkpoint();
    let r = claim_inner(game, rosters, hooks, hero, token, at, needed);
    if r.is_err() {
        game.restore(before);
    }
    r
}

fn claim_inner(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    hero: ModelId,
    token: TokenId,
    at: Vec2,
    needed: u8,
) -> Result<ClaimReport, RuleError> {
    let mut report = ClaimReport {
        token,
        roll: None,
        result: None,
        timing: None,
        done: 1,
        needed,
    };
    if needed > 1 {
        let t = work_task(
            game,
            hero,
            &format!("claim Opportunity {}", token.0),
            needed,
            1,
        )?;
        report.done = t.done;
        if t.done < needed {
            return Ok(report);
        }
    }
    for t in game.tokens.iter_mut().filter(|t| t.id == token) {
        t.kind = TokenKind::Opportunity { revealed: true };
    }
    // A token whose die was rolled early (`peek`) is read, not rolled again.
    let peeked = game
        .tokens
        .iter()
        .find(|t| t.id == token)
        .and_then(|t| t.peeked);
    let face = match peeked {
        Some(face) => face,
        None => game.roll("opportunity", Some(hero), 1)[0].face,
    };
    let row = rosters
        .opportunity(face)
        .ok_or_else(|| RuleError::Reward(format!("the Opportunity table has no row for {face}")))?;
    game.tokens.retain(|t| t.id != token);
    game.record(EventKind::Claimed {
        hero,
        token,
        roll: face,
        result: row.name.clone(),
        timing: timing_name(row.timing).to_string(),
        source: row.script.clone().unwrap_or_default(),
    });
    report.roll = Some(face);
    report.result = Some(row.name.clone());
    report.timing = Some(row.timing);
    match row.timing {
        OpportunityTiming::Now => {
            let call = OpportunityCall {
                row,
                entry: OpportunityEntry::Claim,
                hero: Some(hero),
                token: Some((token, at)),
            };
            let rewards = hooks.opportunity(game, &call)?;
            apply_rewards(
                game,
                rosters,
                hooks,
                Some(hero),
                Some((token, at)),
                &rewards,
            )?;
        }
        OpportunityTiming::WaveEnd => {
            let name = game.model(hero)?.name.clone();
            game.rewards.push(PendingReward {
                hero,
                hero_name: name,
                roll: face,
                result: row.name.clone(),
            });
        }
    }
    Ok(report)
}

/// The permission that lets a hero claim an Opportunity it passes during a move, without stopping and
/// without spending an action (Wren's Pathfinder).
pub const CLAIM_ON_MOVE: &str = "claim_on_move";

/// The permission that lets a model see an Opportunity's result before claiming it (`ctx:peek`).
pub const PEEK_OPPORTUNITY: &str = "peek_opportunity";

/// Claims on the move (Wren's Pathfinder): after one leg of `hero`'s move, for each Opportunity token
/// the leg passed within base contact of (`MoveReport::passed`, in the order met), when a script of the
/// hero grants [`CLAIM_ON_MOVE`], its scripts' `on_pass_token` are asked; a `true` claims the token at
/// once — no action, no Task, no contact needed now, and the move goes on. The claim is the ordinary
/// one (the Opportunity die or the peeked roll, the result's script, its rewards), preceded by a
/// `rule_bent` event naming the script that grants the permission. A failed claim restores the game.
pub fn claim_on_move(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    hero: ModelId,
    passed: &[TokenId],
) -> Result<Vec<ClaimReport>, RuleError> {
    let mut out = Vec::new();
    if passed.is_empty() || game.model(hero).is_err() {
        return Ok(out);
    }
    let Some(source) = hooks.permission(game, hero, CLAIM_ON_MOVE)? else {
        return Ok(out);
    };
    for &token in passed {
        let Some(at) = game
            .tokens
            .iter()
            .find(|t| t.id == token && matches!(t.kind, TokenKind::Opportunity { .. }))
            .map(|t| t.pos)
        else {
            continue;
        };
        if game.model(hero).is_err() {
            break;
        }
        let (asked, intents) = hooks.on_pass_token(game, hero, token)?;
        crate::rules::outcome::apply_intents(game, &rosters.rules, hooks, &intents)?;
        if asked.is_none() {
            continue;
        }
        must_be_hero(game, hooks, hero, "claim")?;
        let before = game.checkpoint();
        let detail = format!(
            "{} claims Opportunity token {} on the move (no action; the move goes on)",
            label(game.model(hero)?),
            token.0
        );
        game.record(EventKind::RuleBent {
            model: hero,
            rule: CLAIM_ON_MOVE.into(),
            detail,
            source: source.clone(),
        });
        match claim_inner(game, rosters, hooks, hero, token, at, 1) {
            Ok(r) => out.push(r),
            Err(e) => {
                game.restore(before);
                return Err(e);
            }
        }
    }
    Ok(out)
}

/// See Opportunity `token`'s result before claiming it (`ctx:peek`): `model` must hold
/// [`PEEK_OPPORTUNITY`] (others are refused). The token's die is rolled now (logged),
/// kept on the token for whoever claims it, and a `rule_bent` event names the script; a token already
/// peeked is read again without a roll. Returns the die and the row's name.
pub fn peek(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    model: ModelId,
    token: TokenId,
) -> Result<(u8, String), RuleError> {
    let m = game.model(model)?;
    let who = label(m);
    let Some(source) = hooks.permission(game, model, PEEK_OPPORTUNITY)? else {
        return Err(RuleError::NotAllowed(
            who,
            "see an Opportunity's result before claiming it (no script of it grants `peek_opportunity`)",
        ));
    };
    let tok = game
        .tokens
        .iter()
        .find(|t| t.id == token && matches!(t.kind, TokenKind::Opportunity { .. }))
        .ok_or(RuleError::NoOpportunity(token.0))?;
    let face = match tok.peeked {
        Some(face) => face,
        None => {
            let face = game.roll("opportunity", Some(model), 1)[0].face;
            for t in game.tokens.iter_mut().filter(|t| t.id == token) {
                t.peeked = Some(face);
            }
            let name = rosters.opportunity(face).map_or("?", |r| r.name.as_str());
            game.record(EventKind::RuleBent {
                model,
                rule: PEEK_OPPORTUNITY.into(),
                detail: format!(
                    "{who} sees Opportunity token {} before claiming it: {face}, {name}",
                    token.0
                ),
                source,
            });
            face
        }
    };
    let row = rosters
        .opportunity(face)
        .ok_or_else(|| RuleError::Reward(format!("the Opportunity table has no row for {face}")))?;
    Ok((face, row.name.clone()))
}

fn timing_name(t: OpportunityTiming) -> &'static str {
    match t {
        OpportunityTiming::Now => "now",
        OpportunityTiming::WaveEnd => "wave_end",
    }
}

/// Step 4 of the End Sequence (core §7.1, "Rewards"): every Opportunity result claimed for the wave's
/// end runs its script's `wave_end`, in the order claimed, and its rewards are applied. A result whose
/// claimer has left the table still resolves (its rewards are the village's); the script gets no hero.
pub fn resolve_rewards(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<(), RuleError> {
    for p in std::mem::take(&mut game.rewards) {
        let row = rosters.opportunity(p.roll).ok_or_else(|| {
            RuleError::Reward(format!("the Opportunity table has no row for {}", p.roll))
        })?;
        let hero = game.model(p.hero).ok().map(|m| m.id);
        game.record(EventKind::RewardResolved {
            hero,
            result: row.name.clone(),
            source: row.script.clone().unwrap_or_default(),
        });
        let call = OpportunityCall {
            row,
            entry: OpportunityEntry::WaveEnd,
            hero,
            token: None,
        };
        let rewards = hooks.opportunity(game, &call)?;
        apply_rewards(game, rosters, hooks, hero, None, &rewards)?;
    }
    Ok(())
}

/// Use the item `name` that `id` carries (a Potion of Healing): only a hero, not an Animal. It costs the
/// item's `params.actions` (default 1; a Task when more). Its script's `use` decides; the kernel removes
/// the item, logs `item_used` and applies the rewards. A use that asks for nothing is refused (the item
/// is kept and the game is unchanged).
pub fn use_item(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    name: &str,
) -> Result<UseReport, RuleError> {
    must_be_hero(game, hooks, id, "use")?;
    let m = game.model(id)?;
    let item = m
        .item(name)
        .cloned()
        .ok_or_else(|| RuleError::NoItem(label(m), name.to_string()))?;
    let needed = match item.params.get("actions") {
        Some(crate::roster::ParamValue::Int(n)) => u8::try_from((*n).max(1)).unwrap_or(u8::MAX),
        _ => 1,
    };
    let before = game.checkpoint();
    let r = (|| {
        if needed > 1 {
            let t = work_task(game, id, &format!("use {name}"), needed, 1)?;
            if t.done < needed {
                return Ok(UseReport {
                    item: name.to_string(),
                    complete: false,
                });
            }
        }
        let rewards = hooks.use_item(game, id, &item)?;
        if rewards.is_empty() {
            return Err(RuleError::Reward(format!(
                "{}'s {name} has nothing to do (its script asked for nothing)",
                label(game.model(id)?)
            )));
        }
        let m = game.model_mut(id)?;
        if let Some(i) = m.items.iter().position(|i| i.name == name) {
            m.items.remove(i);
        }
        game.record(EventKind::ItemUsed {
            model: id,
            item: name.to_string(),
            source: rewards
                .first()
                .map_or(item.script.clone(), |r| r.source().to_string()),
        });
        apply_rewards(game, rosters, hooks, Some(id), None, &rewards)?;
        Ok(UseReport {
            item: name.to_string(),
            complete: true,
        })
    })();
    if r.is_err() {
        game.restore(before);
    }
    r
}

/// Validate and apply what a script asked for, in order, each logged with its source. `actor` is the hero
/// the script acted for (a heal may only heal it); `token` the claimed token (an Ambush deploys around
/// it). The caller restores the game when this fails.
pub fn apply_rewards(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    actor: Option<ModelId>,
    token: Option<(TokenId, Vec2)>,
    rewards: &[Reward],
) -> Result<(), RuleError> {
    let bad = |source: &str, why: String| RuleError::Reward(format!("{source}: {why}"));
    for r in rewards {
        match r {
            Reward::Supplies { amount, source } => {
                if *amount <= 0 {
                    return Err(bad(
                        source,
                        format!("Supplies to add must be positive, got {amount}"),
                    ));
                }
                game.supplies += amount;
                game.record(EventKind::SuppliesGained {
                    amount: *amount,
                    supplies: game.supplies,
                    source: source.clone(),
                });
            }
            Reward::Herbs { amount, source } => {
                if *amount == 0 {
                    return Err(bad(source, "Herb tokens to add must be positive".into()));
                }
                game.herbs += amount;
                game.record(EventKind::HerbsGained {
                    amount: *amount,
                    herbs: game.herbs,
                    source: source.clone(),
                });
            }
            Reward::Join { profile, source } => {
                if rosters
                    .profile(profile)
                    .is_none_or(|p| p.kind != ProfileKind::Defender)
                {
                    return Err(bad(
                        source,
                        format!("{profile:?} is not a Village Defender profile in the rosters"),
                    ));
                }
                game.joining.push(profile.clone());
                game.record(EventKind::DefenderJoining {
                    profile: profile.clone(),
                    source: source.clone(),
                });
            }
            Reward::Ambush {
                profile,
                count,
                behaviour,
                within,
                source,
            } => {
                let Some((token, at)) = token else {
                    return Err(bad(
                        source,
                        "an Ambush deploys around a claimed token: only in an Opportunity's claim"
                            .into(),
                    ));
                };
                ambush(
                    game, rosters, token, at, profile, *count, behaviour, *within, source,
                )?;
            }
            Reward::Give {
                model,
                item,
                source,
            } => {
                must_be_hero(game, hooks, *model, "use")?;
                game.model_mut(*model)?.items.push(item.clone());
                game.record(EventKind::ItemGained {
                    model: *model,
                    item: item.name.clone(),
                    source: source.clone(),
                });
            }
            Reward::Spend { key, source } => {
                game.spend_use(key, source)
                    .map_err(|why| bad(source, why))?;
            }
            Reward::Heal {
                model,
                what,
                source,
            } => {
                if Some(*model) != actor {
                    return Err(bad(source, "a reward heals only the hero it is for".into()));
                }
                heal(game, &rosters.rules, *model, *what)
                    .map_err(|e| bad(source, e.to_string()))?;
            }
        }
    }
    Ok(())
}

/// An Ambush: `count` models of the enemy `profile` with `behaviour`, each wholly within `within` of the
/// token and outside contact, as a new Enemy Group (the next number after every Group on the table).
#[allow(clippy::too_many_arguments)]
fn ambush(
    game: &mut Game,
    rosters: &Rosters,
    token: TokenId,
    at: Vec2,
    profile: &str,
    count: u32,
    behaviour: &str,
    within: crate::roster::Measure,
    source: &str,
) -> Result<(), RuleError> {
    let bad = |why: String| RuleError::Reward(format!("{source}: {why}"));
    let p = rosters
        .profile(profile)
        .filter(|p| p.kind == ProfileKind::Enemy)
        .ok_or_else(|| {
            bad(format!(
                "{profile:?} is not an enemy profile in the rosters"
            ))
        })?;
    if rosters.behaviour(behaviour).is_none() {
        return Err(bad(format!("there is no Behaviour {behaviour:?}")));
    }
    if count == 0 || i64::from(count) > super::MAX_WAVE_MODELS {
        return Err(bad(format!("an Ambush of {count} models")));
    }
    let number = game
        .models
        .iter()
        .filter_map(|m| m.group)
        .max()
        .unwrap_or(0)
        + 1;
    let template = model_from_profile(p, rosters, at);
    let spots = spots_near(
        game,
        at,
        rosters.rules.measures.get(within),
        template.base / 2.0,
        count as usize,
        rosters.rules.bases.contact_tolerance,
    );
    let mut ids = Vec::with_capacity(spots.len());
    for pos in spots {
        let mut m = template.clone();
        m.pos = pos;
        m.group = Some(number);
        m.behaviour = Some(behaviour.to_string());
        ids.push(game.add_model(m));
    }
    game.record(EventKind::Ambush {
        token,
        number,
        models: ids,
        wanted: count,
        source: source.to_string(),
    });
    Ok(())
}
