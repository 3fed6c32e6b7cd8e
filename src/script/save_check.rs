//! What a loaded save must hold before it replaces the live game (`:load`, `render --load`): a game
//! these rosters and scripts can continue and that play could have reached. Its length, policy and
//! variants known; every model a profile of the rosters with its values in range and its position on
//! the table; the forced dice 1 to 6; and (issue 36, root cause 9) ids as play hands them out — each
//! model id once among the table and the fled, in increasing order on the table, each token id once,
//! the counters above every id used (a save with two models of one id made `:activate Maren`
//! activate Tobin) — a round within a wave and the round limit, and a party of heroes of the rosters.
//! Each error names the field or piece, its value and the valid range.
//!
//! It only reads; `script::repl` loads what passes.

use super::repl::Saved;
use crate::roster::{ProfileKind, Rosters, Rules};
use crate::state::Game;
use std::collections::BTreeMap;

/// Every model's and token's position in a loaded game finite and on its table, and every Barricade's
/// ends finite; the error names the piece.
pub(super) fn check_positions(game: &Game) -> Result<(), String> {
    use crate::geometry::check::point_on;
    let t = &game.table;
    for m in &game.models {
        point_on(t, &format!("model {} ({}) pos", m.id, m.name), m.pos)
            .map_err(|e| e.to_string())?;
    }
    for k in &game.tokens {
        point_on(t, &format!("token {} pos", k.id.0), k.pos).map_err(|e| e.to_string())?;
        if let crate::state::TokenKind::Barricade { segment, .. } = &k.kind {
            // A Wall's far end may run past an edge: only finite.
            for p in [segment.a, segment.b] {
                crate::geometry::check::finite_point(&format!("token {} segment", k.id.0), p)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

/// The Quality a saved model may have: a profile's 2+ to 6+, worsened by Wounds and scripts up to a
/// point past which no die succeeds anyway.
const SAVED_QUALITY: std::ops::RangeInclusive<u8> = 1..=12;
/// A saved model's Combat, modifiers included.
const SAVED_COMBAT: std::ops::RangeInclusive<i32> = -20..=20;
/// The Supplies a saved game may hold (never negative; far more than any Council can spend).
const SAVED_SUPPLIES: std::ops::RangeInclusive<i32> = 0..=10_000;
/// Wounds a saved model may carry.
const SAVED_WOUNDS: std::ops::RangeInclusive<u8> = 0..=10;

/// Whether a save describes a game these rosters and scripts can continue: its length, policy and
/// variants known (`module(kind, name)` says whether a script module exists), every model (on the table
/// or fled) a profile of the rosters with its Quality, Combat, Wounds, base and position in range, and
/// the forced dice faces 1 to 6. The error names the model or field, the value and its valid range.
pub(super) fn check_saved(
    saved: &Saved,
    rosters: &Rosters,
    module: &dyn Fn(&str, &str) -> bool,
) -> Result<(), String> {
    let Some(length) = rosters.length(&saved.length) else {
        let known: Vec<&str> = rosters.lengths.iter().map(|l| l.name.as_str()).collect();
        return Err(format!(
            "length {:?} is not a game length (known: {})",
            saved.length,
            known.join(", ")
        ));
    };
    if !module("policies", &saved.policy) {
        return Err(format!(
            "policy {:?} is not a hero policy of the scripts (scripts/policies/{}.lua)",
            saved.policy, saved.policy
        ));
    }
    if rosters.preset(&saved.preset).is_none() {
        return Err(rosters.unknown_preset(&saved.preset));
    }
    for v in &saved.variants {
        if !module("variants", v) {
            return Err(format!(
                "variant {v:?} is not a variant of the scripts (scripts/variants/{v}.lua)"
            ));
        }
    }
    let g = &saved.game;
    if g.wave > length.last_wave() {
        return Err(format!(
            "game.wave {} is outside 0..={} (the waves of a {} game)",
            g.wave,
            length.last_wave(),
            saved.length
        ));
    }
    if !SAVED_SUPPLIES.contains(&g.supplies) {
        return Err(format!(
            "game.supplies {} is outside {SAVED_SUPPLIES:?}",
            g.supplies
        ));
    }
    for (i, face) in g.dice.pending_forced().iter().enumerate() {
        if !(1..=6).contains(face) {
            return Err(format!(
                "game.dice: forced die #{} is {face}, a die shows 1 to 6",
                i + 1
            ));
        }
    }
    let (w, h) = (g.table.width, g.table.height);
    if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
        return Err(format!(
            "game.table: the table is {w} by {h} inches (each must be a finite number above 0)"
        ));
    }
    for m in g.models.iter().chain(&g.fled) {
        let who = format!("model {} ({:?})", m.id.0, m.name);
        if rosters.profile(&m.name).is_none() {
            return Err(format!("{who}: no profile of that name in the rosters"));
        }
        let range =
            |field: &str, v: String, r: String| Err(format!("{who}: {field} {v} is outside {r}"));
        if !SAVED_QUALITY.contains(&m.quality) || !SAVED_QUALITY.contains(&m.profile_quality) {
            return range(
                "quality",
                format!("{} (profile {})", m.quality, m.profile_quality),
                format!("{SAVED_QUALITY:?}"),
            );
        }
        if !SAVED_COMBAT.contains(&m.combat) {
            return range("combat", m.combat.to_string(), format!("{SAVED_COMBAT:?}"));
        }
        if !SAVED_WOUNDS.contains(&m.wounds) {
            return range("wounds", m.wounds.to_string(), format!("{SAVED_WOUNDS:?}"));
        }
        if !(m.base.is_finite() && m.base > 0.0 && m.base < w.min(h)) {
            return range(
                "base",
                m.base.to_string(),
                format!("above 0 and below the table's size ({})", w.min(h)),
            );
        }
    }
    Ok(())
}

/// Ids as play hands them out: each model id once among the models on the table and the fled (the
/// table's in increasing order, as the game keeps them), each token id once, and the counters above
/// every id in use.
pub(super) fn check_ids(game: &Game) -> Result<(), String> {
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    for m in game.models.iter().chain(&game.fled) {
        if let Some(first) = seen.insert(m.id.0, &m.name) {
            return Err(format!(
                "model id {} is used twice ({first:?} and {:?}): each model has its own",
                m.id.0, m.name
            ));
        }
    }
    if game.models.windows(2).any(|w| w[0].id >= w[1].id) {
        return Err("game.models are not in increasing id order, as play keeps them".to_string());
    }
    // A model waiting for its deployment is one the game holds, once.
    for (i, id) in game.unplaced.iter().enumerate() {
        if !game.models.iter().any(|m| m.id == *id) || game.unplaced[..i].contains(id) {
            return Err(format!(
                "game.unplaced names model {} {}: it lists models held off the table until they are \
                 deployed, each once",
                id.0,
                if game.unplaced[..i].contains(id) { "twice" } else { "that is not in game.models" }
            ));
        }
    }
    let (next_model, next_token) = game.next_ids();
    if let Some((&top, _)) = seen.last_key_value() {
        if next_model <= top {
            return Err(format!(
                "game.next_model {next_model} is not above the highest model id in use ({top}): the \
                 next model placed would take an id already given"
            ));
        }
    }
    let mut tokens = std::collections::BTreeSet::new();
    for k in &game.tokens {
        if !tokens.insert(k.id.0) {
            return Err(format!(
                "token id {} is used twice: each token has its own",
                k.id.0
            ));
        }
    }
    if let Some(&top) = tokens.last() {
        if next_token <= top {
            return Err(format!(
                "game.next_token {next_token} is not above the highest token id in use ({top})"
            ));
        }
    }
    Ok(())
}

/// A round play could have reached: 0 outside a wave, at most the wave's round limit (the save's rules,
/// its variants applied) within one.
pub(super) fn check_round(game: &Game, rules: &Rules) -> Result<(), String> {
    let max = rules.wave.max_rounds;
    if game.wave == 0 && game.round != 0 {
        return Err(format!(
            "game.round {} is outside a wave (game.wave is 0): it is 0 before the first wave",
            game.round
        ));
    }
    if game.round > max {
        return Err(format!(
            "game.round {} is outside 0..={max} (a wave stalls at round {max})",
            game.round
        ));
    }
    Ok(())
}

/// The party chosen at setup: heroes of the rosters (their number sets every wave's budget).
pub(super) fn check_party(game: &Game, rosters: &Rosters) -> Result<(), String> {
    for name in &game.party {
        match rosters.profile(name) {
            Some(p) if p.kind == ProfileKind::Hero => {}
            Some(p) => {
                return Err(format!(
                    "game.party: {name:?} is not a hero (it is a {} profile)",
                    p.kind.as_str()
                ))
            }
            None => return Err(format!("game.party: {name:?} is not a hero of the rosters")),
        }
    }
    Ok(())
}
