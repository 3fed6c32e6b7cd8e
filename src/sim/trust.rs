//! What a shard or a record read back from a file may hold (issue 36, root cause 9). A file is data
//! that anybody can edit and seal again (the digest is FNV, made to find accidents), so every field is
//! checked against what the run's settings allow before anything is built from it: a game of the
//! shard's range with its own seed, a result and a cause that exist, waves within the game's length
//! (a wave of loss of a billion made `merge`'s chart take 4 GB), counts a game can reach, and sums
//! that do not wrap. A record is sealed, of this format and of a result that exists before it is
//! played again.
//!
//! It only reads; `sim::merge` and `sim::replay` act on what passes.

use super::{game_seed, FailedGame, GameRecord, Replay, Shard, REPLAY_FORMAT};
use crate::rules::end::Cause;
use std::collections::BTreeMap;

/// The most waves a game may have when the length's rosters are not at hand to say (the roster check
/// refuses a longer length: `roster::MAX_WAVES`).
pub use crate::roster::MAX_WAVES;

/// The results a game ends with.
const RESULTS: [&str; 3] = ["win", "loss", "stalled"];
/// A building's Integrity at the end, far above any building's (the rosters allow up to 20).
const MAX_INTEGRITY: i32 = 1_000;
/// Wounds one hero may carry (a save allows as many).
const WOUNDS_PER_HERO: u64 = 10;
/// Rounds a wave may last: the most the rules allow (`wave.max_rounds`, at most 200).
const ROUNDS_PER_WAVE: u64 = 200;
/// Buildings Destroyed at the end, far above any village's.
const MAX_DESTROYED: u32 = 100;
/// Supplies a Council Phase may spend, far above what any village holds (a save allows 10,000).
const SUPPLIES_PER_WAVE: i64 = 10_000;

/// Every field of shard `s` (read from the file `name`) as its settings allow; `waves` is the number
/// of waves of its length when its rosters could be read.
pub(super) fn check_shard(name: &str, s: &Shard, waves: Option<u32>) -> Result<(), String> {
    let o = &s.options;
    let end = o
        .first
        .checked_add(o.games)
        .filter(|end| *end <= s.total)
        .ok_or_else(|| {
            format!(
                "{name}: options.first {} + options.games {} is past the run's {} games",
                o.first, o.games, s.total
            )
        })?;
    let in_range = |i: u64| -> Result<(), String> {
        if (o.first..end).contains(&i) {
            Ok(())
        } else {
            Err(format!(
                "{name}: game {i} is not of this shard (its games are {} to {})",
                o.first,
                end.saturating_sub(1)
            ))
        }
    };
    let seed_of = |i: u64, seed: u64| -> Result<(), String> {
        let want = game_seed(o.seed, i);
        if seed == want {
            Ok(())
        } else {
            Err(format!(
                "{name}: game {i}: seed {seed} is not the game's seed ({want}, from --seed {})",
                o.seed
            ))
        }
    };
    let max_waves = waves.unwrap_or(MAX_WAVES);
    let heroes = o.heroes.len() as u64;
    for r in &s.records {
        in_range(r.index)?;
        seed_of(r.index, r.seed)?;
        record_fields(r, max_waves, heroes)
            .map_err(|e| format!("{name}: game {}: {e}", r.index))?;
    }
    for FailedGame { index, seed, .. } in &s.failed {
        in_range(*index)?;
        seed_of(*index, *seed)?;
    }
    Ok(())
}

/// One game's record within `max_waves` waves and a party of `heroes`.
fn record_fields(r: &GameRecord, max_waves: u32, heroes: u64) -> Result<(), String> {
    if !RESULTS.contains(&r.result.as_str()) {
        return Err(format!("result {:?} is not win, loss or stalled", r.result));
    }
    if !Cause::ALL.iter().any(|c| c.as_str() == r.cause) {
        let known: Vec<&str> = Cause::ALL.iter().map(|c| c.as_str()).collect();
        return Err(format!(
            "cause {:?} is not one of {}",
            r.cause,
            known.join(", ")
        ));
    }
    if r.waves_won > max_waves {
        return Err(format!(
            "waves_won {} is outside 0..={max_waves} (the waves of its length)",
            r.waves_won
        ));
    }
    match (r.result.as_str(), r.lost_at_wave) {
        ("loss", Some(w)) if !(1..=max_waves).contains(&w) => {
            return Err(format!(
                "lost_at_wave {w} is outside 1..={max_waves} (the waves of its length)"
            ))
        }
        ("loss", Some(w)) if u64::from(w) != u64::from(r.waves_won) + 1 => {
            return Err(format!(
                "lost_at_wave {w} is not the wave after the {} completed",
                r.waves_won
            ))
        }
        ("loss", None) => return Err("a loss without its lost_at_wave".to_string()),
        (other, Some(w)) if other != "loss" => {
            return Err(format!("lost_at_wave {w} given for a {other}"))
        }
        _ => {}
    }
    let rounds = u64::from(max_waves).saturating_mul(ROUNDS_PER_WAVE);
    if u64::from(r.rounds_survived) > rounds {
        return Err(format!(
            "rounds_survived {} is outside 0..={rounds} ({max_waves} waves of at most {ROUNDS_PER_WAVE} rounds)",
            r.rounds_survived
        ));
    }
    if !(0..=MAX_INTEGRITY).contains(&r.town_hall_integrity) {
        return Err(format!(
            "town_hall_integrity {} is outside 0..={MAX_INTEGRITY}",
            r.town_hall_integrity
        ));
    }
    let wounds = heroes.saturating_mul(WOUNDS_PER_HERO);
    if u64::from(r.wounds) > wounds {
        return Err(format!(
            "wounds {} is outside 0..={wounds} ({heroes} heroes)",
            r.wounds
        ));
    }
    let defeats = heroes.saturating_mul(u64::from(max_waves));
    if u64::from(r.defeats) > defeats {
        return Err(format!(
            "defeats {} is outside 0..={defeats} ({heroes} heroes, {max_waves} waves)",
            r.defeats
        ));
    }
    if r.destroyed > MAX_DESTROYED {
        return Err(format!(
            "destroyed {} is outside 0..={MAX_DESTROYED}",
            r.destroyed
        ));
    }
    let spent = SUPPLIES_PER_WAVE.saturating_mul(i64::from(max_waves));
    if !(0..=spent).contains(&r.supplies_spent) {
        return Err(format!(
            "supplies_spent {} is outside 0..={spent}",
            r.supplies_spent
        ));
    }
    Ok(())
}

/// Add `from`'s counts into `totals`, refusing a sum past 2^64 − 1 (it used to wrap): the error names
/// the count (`what`: "firings") and its key.
pub(super) fn add_counts(
    totals: &mut BTreeMap<String, u64>,
    from: &BTreeMap<String, u64>,
    what: &str,
) -> Result<(), String> {
    for (k, c) in from {
        let t = totals.entry(k.clone()).or_default();
        *t = t.checked_add(*c).ok_or_else(|| {
            format!(
                "the {what} of {k:?} add up past {} (no run reaches that)",
                u64::MAX
            )
        })?;
    }
    Ok(())
}

/// A record fit to play again: of this format, unedited (its digest holds), with a result that exists.
/// Checked before any code runs.
pub(super) fn check_record(r: &Replay) -> Result<(), String> {
    if r.format != REPLAY_FORMAT {
        return Err(format!(
            "not a replay of this version ({:?}; this version reads {REPLAY_FORMAT:?}: record the game \
             again with village sim --record)",
            r.format
        ));
    }
    if r.content_digest() != r.digest {
        return Err(format!(
            "the file was edited after it was recorded (its digest {} does not match its content): \
             it is not replayed",
            r.digest
        ));
    }
    if !RESULTS.contains(&r.result.as_str()) {
        return Err(format!("result {:?} is not win, loss or stalled", r.result));
    }
    Ok(())
}
