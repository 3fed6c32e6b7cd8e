//! Events in words, for people: "Orc Warrior (5) rolls 5 +3 = 8 vs Captain Maren (1) 1 +4 = 5:
//! Defenseless". The REPL's `:log` and `:explain` print these; the JSON log stays the record.

use super::event::{Event, EventKind, TokenFacts, TokenShape};
use super::game::Game;
use super::model::{ModelId, Side};
use super::vocab::{Role, Target, ONE_BAND_LESS, TWO_ACTIONS};
use crate::names::count;
use std::collections::BTreeMap;

/// Model names by id, from every `placed` event of the log (a removed model keeps its name).
pub fn names(game: &Game) -> BTreeMap<ModelId, String> {
    names_in(game.log())
}

/// [`names`] from a log alone (a recorded game's).
pub fn names_in(log: &[Event]) -> BTreeMap<ModelId, String> {
    log.iter()
        .filter_map(|e| match &e.kind {
            EventKind::Placed { model, name, .. } => Some((*model, name.clone())),
            _ => None,
        })
        .collect()
}

fn who(names: &BTreeMap<ModelId, String>, id: ModelId) -> String {
    match names.get(&id) {
        Some(n) => format!("{n} ({id})"),
        None => format!("model {id}"),
    }
}

/// A point in words: "(12.5, 30.0)".
fn at(p: crate::geometry::Vec2) -> String {
    format!("({:.1}, {:.1})", p.x, p.y)
}

/// A token placed by a script, in words: what it is, where, and its shape.
fn token_words(t: &TokenFacts) -> String {
    let what = match &t.shape {
        TokenShape::Opportunity { revealed } => format!(
            "an Opportunity token{} is placed at {}",
            if *revealed { " (face up)" } else { "" },
            at(t.pos)
        ),
        TokenShape::Barricade {
            line: [a, b],
            integrity,
            ..
        } => format!(
            "a Barricade is placed from {} to {}, Integrity {integrity}",
            at(*a),
            at(*b)
        ),
        TokenShape::Trap {
            radius, entangle, ..
        } => format!(
            "a Trap{} is placed at {}, radius {radius}\"",
            if *entangle { " that Entangles" } else { "" },
            at(t.pos)
        ),
    };
    match &t.source {
        Some(s) => format!("{what} (token {}, {s})", t.token.0),
        None => format!("{what} (token {})", t.token.0),
    }
}

fn signed(n: i32) -> String {
    if n >= 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// One event in words (events without a sentence of their own fall back to their JSON).
pub fn describe(e: &Event, names: &BTreeMap<ModelId, String>) -> String {
    let w = |id: ModelId| who(names, id);
    let text = match &e.kind {
        EventKind::Placed { model, pos, .. } => format!("{} is placed at {}", w(*model), at(*pos)),
        EventKind::Removed { model, reason } => format!("{} leaves the table: {reason}", w(*model)),
        EventKind::Activation {
            model,
            dice,
            automatic,
            successes,
            turnover,
            ..
        } => format!(
            "{} activates: rolls {:?}{}, {} action{}{}",
            w(*model),
            dice,
            match automatic {
                0 => String::new(),
                1 => " and 1 automatic success (Hero)".to_string(),
                n => format!(" and {n} automatic successes (Hero)"),
            },
            successes,
            if *successes == 1 { "" } else { "s" },
            if *turnover { " — turnover" } else { "" }
        ),
        EventKind::Moved { .. } => moved_words(e, names),
        EventKind::Combat {
            kind,
            attacker,
            target,
            attacker_die,
            defender_die,
            attacker_total,
            defender_total,
            modifiers,
            result,
            lethal,
            free_hack,
            reaction,
            ..
        } => {
            // A Free Hack, or an attack something made outside a normal action, says so.
            let verb = if *free_hack {
                "Free Hack on".to_string()
            } else {
                kind.as_str().to_string()
            };
            let outside = match (free_hack, reaction) {
                (_, Some(r)) => format!(" (outside an action: {r})"),
                (true, None) => " (it leaves melee; the target only stops it)".to_string(),
                (false, None) => String::new(),
            };
            let side = |role: Role| -> String {
                let v: i32 = modifiers
                    .iter()
                    .filter(|m| m.to == role)
                    .map(|m| m.value)
                    .sum();
                if v == 0 {
                    String::new()
                } else {
                    format!(" {}", signed(v))
                }
            };
            let them = match target {
                Target::Model(id) => w(*id),
                Target::Building(b) => format!("the {b}"),
                Target::Token(t) => format!("Barricade {}", t.0),
            };
            let a_base = attacker_total
                - i32::from(*attacker_die)
                - modifiers_sum(modifiers, Role::Attacker);
            let d_base = defender_total
                - i32::from(*defender_die)
                - modifiers_sum(modifiers, Role::Defender);
            let mods: Vec<String> = modifiers
                .iter()
                .filter(|m| m.value != 0 || m.source != "rules")
                .map(|m| {
                    format!(
                        "{} {} ({}{})",
                        signed(m.value),
                        m.reason,
                        match m.to {
                            Role::Attacker => "attacker",
                            Role::Defender => "defender",
                        },
                        if m.source == "rules" {
                            String::new()
                        } else {
                            format!(", {}", m.source)
                        }
                    )
                })
                .collect();
            format!(
                "{} {} {}{outside}: {} {}{} = {} vs {} {}{} = {}: {}{}{}",
                w(*attacker),
                verb,
                them,
                attacker_die,
                signed(a_base),
                side(Role::Attacker),
                attacker_total,
                defender_die,
                signed(d_base),
                side(Role::Defender),
                defender_total,
                result.as_str(),
                lethal
                    .as_deref()
                    .map(|l| format!(" (Lethal: {l})"))
                    .unwrap_or_default(),
                if mods.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", mods.join("; "))
                }
            )
        }
        EventKind::ResultChanged {
            model,
            from,
            to,
            reason,
            source,
        } => format!(
            "{}: {} becomes {} — {reason} ({source})",
            w(*model),
            from.as_str(),
            to.as_str()
        ),
        EventKind::Outcome { detail, .. } => detail.clone(),
        EventKind::Condition {
            model,
            condition,
            added,
        } => format!(
            "{} {} {}",
            w(*model),
            if *added { "becomes" } else { "is no longer" },
            condition.as_str()
        ),
        EventKind::Damage {
            building,
            amount,
            integrity,
            destroyed,
        } => format!(
            "the {building} loses {amount} Integrity ({integrity} left){}",
            if *destroyed { ": Destroyed" } else { "" }
        ),
        EventKind::GroupActivation {
            members, quality, ..
        } => format!(
            "Group of {} activates at Quality {quality}+",
            members.iter().map(|m| w(*m)).collect::<Vec<_>>().join(", ")
        ),
        // A model placed just before (its first deployment) deploys where that line put it.
        EventKind::Deployed {
            model,
            from: None,
            near,
            ..
        } => format!("{} deploys there, near the {near}", w(*model)),
        EventKind::Deployed { model, to, near, .. } => {
            format!("{} deploys at {} near the {near}", w(*model), at(*to))
        }
        EventKind::GroupBuilt {
            number,
            behaviour,
            models,
            edge,
            ..
        } => format!(
            "Group {number} ({behaviour}) is built: {} from edge {edge}",
            models.join(", ")
        ),
        EventKind::WaveBuilt {
            escalation,
            budget,
            spent,
            groups,
            ..
        } => format!("the wave is built: Escalation {escalation}, {groups} Groups, {spent} of {budget} Wave Points"),
        EventKind::GroupDeployed { number, edge, models, .. } => {
            format!(
                "Group {number} deploys on edge {edge} ({})",
                count(models.len(), "model", "models")
            )
        }
        EventKind::BuildingAbility {
            building,
            level,
            ability,
            detail,
            ..
        } => format!("{building} {level}: {ability} — {detail}"),
        EventKind::EdgesRevealed { edges, .. } => format!("the spawn edges are revealed: {edges:?}"),
        EventKind::Healed { model, what, .. } => format!("{} is healed of {what}", w(*model)),
        EventKind::OpportunityPlaced { edge, pos, .. } => match pos {
            Some(p) => format!("an Opportunity token is placed on edge {edge} at ({:.1}, {:.1})", p.x, p.y),
            None => format!("an Opportunity token is placed on edge {edge}"),
        },
        EventKind::TaskProgress {
            model,
            task,
            done,
            needed,
            ..
        } => format!("{} works on {task}: {done} of {needed} actions", w(*model)),
        EventKind::SuppliesGained {
            amount,
            supplies,
            source,
        } => format!(
            "the village gains {} ({supplies} in all) — {source}",
            count(*amount, "Supply", "Supplies")
        ),
        EventKind::Summoned {
            model,
            caster,
            spell,
        } => format!("{} is summoned by {} ({spell})", w(*model), w(*caster)),
        EventKind::RuleBent { detail, source, .. } => format!("{detail} ({source})"),
        EventKind::Roll {
            purpose,
            model,
            dice,
            forced,
        } => format!(
            "{}rolls {:?} for {purpose}{}",
            model.map(|m| format!("{} ", w(m))).unwrap_or_default(),
            dice,
            if forced.iter().any(|f| *f) {
                " (forced)"
            } else {
                ""
            }
        ),
        EventKind::Choice {
            purpose, picked, ..
        } => format!("{purpose}: {picked}"),
        EventKind::Morale {
            model,
            trigger,
            dice,
            detail,
            ..
        } => format!(
            "{} tests morale ({}): {:?} — {detail}",
            w(*model),
            trigger.as_str(),
            dice
        ),
        EventKind::Claimed {
            hero,
            roll,
            result,
            source,
            ..
        } => format!(
            "{} claims an Opportunity: {roll}, {result} ({source})",
            w(*hero)
        ),
        EventKind::Council {
            what,
            building,
            hero,
            supplies,
            source,
            detail,
            refused,
            ..
        } => {
            // The order as it was given: "heal Captain Maren", "repair the Town Hall".
            let order = match (hero, building) {
                (Some(h), _) => format!("{what} {h}"),
                (None, Some(b)) => format!("{what} the {b}"),
                (None, None) => what.clone(),
            };
            match refused {
                Some(why) => format!("Council: {order} refused — {why}"),
                None => format!(
                    "Council: {order} for {} ({source}): {detail}",
                    count(*supplies, "Supply", "Supplies")
                ),
            }
        }
        EventKind::Spent { key, source } => format!("{} ({source})", spent(key, names)),
        EventKind::Ability {
            model,
            name,
            source,
            done,
            needed,
            ran,
        } => format!(
            "{} uses {name}{} ({source})",
            w(*model),
            match (done, needed, ran) {
                (Some(d), Some(n), false) => format!(": {d} of {n} actions"),
                _ => String::new(),
            }
        ),
        EventKind::Rerolled {
            model,
            faces,
            reason,
            source,
            ..
        } => format!("{}: {reason} rerolls to {:?} ({source})", w(*model), faces),
        EventKind::EffectGranted {
            models,
            value,
            reason,
            source,
            ..
        } => format!(
            "{reason}: {} for {} ({source})",
            signed(*value),
            models.iter().map(|m| w(*m)).collect::<Vec<_>>().join(", ")
        ),
        EventKind::Repaired {
            building,
            amount,
            integrity,
            source,
        } => format!("the {building} regains {amount} Integrity ({integrity}) ({source})"),
        EventKind::TrackSet {
            track,
            value,
            min,
            max,
            loses_at,
        } => format!(
            "the {track} track comes into play on {value} ({min}–{max}{})",
            loses_at
                .map(|at| format!(", the game is lost at {at}"))
                .unwrap_or_default()
        ),
        EventKind::BattleSet {
            scenario,
            round_limit,
            zones,
            objectives,
            ..
        } => format!(
            "the battle of {scenario}: {}{} deployment zone(s), {} objective(s)",
            round_limit
                .map(|r| format!("{r} rounds, "))
                .unwrap_or_default(),
            zones.len(),
            objectives.len()
        ),
        EventKind::VpScored {
            side,
            points,
            total,
            reason,
            ..
        } => format!(
            "the {} score {points} VP ({reason}): {total} VP",
            side.as_str()
        ),
        EventKind::ObjectiveHeld { objective, holder } => match holder {
            Some(side) => format!("the {} hold the {objective}", side.as_str()),
            None => format!("nobody holds the {objective}"),
        },
        EventKind::Concluded {
            result, reason, ..
        } => format!("the game ends: {result} ({reason})"),
        EventKind::TrackMoved {
            track,
            from,
            to,
            reason,
            source,
            ..
        } => format!("{reason}: the {track} track moves {from} → {to} ({source})"),
        EventKind::Fire {
            building,
            lit,
            source,
            ..
        } => format!(
            "the {building} {}{}",
            if *lit { "catches fire" } else { "is put out" },
            source
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default()
        ),
        EventKind::WallFallen { token, reason } => {
            format!("the Wall (token {}) falls: {reason}", token.0)
        }
        EventKind::Declared { model } => {
            format!("{} declares spellcasting before rolling", w(*model))
        }
        EventKind::Spell {
            caster,
            spell,
            power,
            target,
            ..
        } => format!(
            "{} casts {spell} at Power {power}{}",
            w(*caster),
            target.map(|t| format!(" on {}", w(t))).unwrap_or_default()
        ),
        EventKind::WallRaised {
            token,
            caster,
            spell,
            line: [a, b],
            integrity,
        } => format!(
            "{}'s {spell} rises from {} to {}, Integrity {integrity} (token {})",
            w(*caster),
            at(*a),
            at(*b),
            token.0
        ),
        EventKind::Setup {
            width,
            height,
            terrain,
            buildings,
            supplies,
            ..
        } => format!(
            "the table: {width}\" × {height}\", {}, {}, {}",
            count(terrain.len(), "terrain piece", "terrain pieces"),
            count(buildings.len(), "building", "buildings"),
            count(*supplies, "Supply", "Supplies")
        ),
        EventKind::Round { wave, round } => format!("wave {wave}, round {round}"),
        EventKind::Turn { side, .. } => match side {
            Side::Heroes => "the heroes' turn".to_string(),
            Side::Enemies => "the enemies' turn".to_string(),
        },
        EventKind::TokenPlaced { token } => token_words(token),
        EventKind::Resisted {
            model,
            dice,
            took_hold,
        } => format!(
            "{} resists with {dice:?}: {}",
            w(*model),
            if *took_hold { "the spell takes hold" } else { "resisted" }
        ),
        EventKind::Dispel {
            caster,
            target,
            spell,
            dispelled,
        } => format!(
            "{} casts {spell} on {}: {}",
            w(*caster),
            w(*target),
            dispelled.as_deref().map_or("nothing to dispel".to_string(), |d| format!("{d} ends"))
        ),
        EventKind::WeaponBroken { model } => format!("{}'s ranged weapon is broken", w(*model)),
        EventKind::FreeThrow {
            model,
            target,
            weapon,
        } => format!(
            "{} moved closer to {} and throws its {weapon} for free",
            w(*model),
            w(*target)
        ),
        EventKind::Objective {
            models, objective, ..
        } => format!(
            "{} guard{} {}",
            models.iter().map(|m| w(*m)).collect::<Vec<_>>().join(", "),
            if models.len() == 1 { "s" } else { "" },
            match objective {
                crate::state::Objective::Building { name } => format!("the {name}"),
                crate::state::Objective::Token { id } => format!("the Opportunity (token {})", id.0),
            }
        ),
        EventKind::Trap {
            model,
            trap_die,
            model_die,
            trap_total,
            model_total,
            result,
            source,
            ..
        } => match (trap_die, model_die, trap_total, model_total) {
            (Some(td), Some(md), Some(tt), Some(mt)) => format!(
                "{} sets off a Trap: {td} (total {tt}) vs {md} (total {mt}): {}",
                w(*model),
                result.as_str()
            ),
            // A snare Entangles without a roll (Snare Master, SUPPLEMENT §11).
            _ => format!(
                "{} sets off a snare{}: {} without a roll",
                w(*model),
                source
                    .as_deref()
                    .map_or(String::new(), |s| format!(" ({s})")),
                result.as_str()
            ),
        },
        EventKind::OutOfPower { model } => {
            format!("{} failed three dice: out of power for the rest of the wave", w(*model))
        }
        _ => serde_json::to_string(e).unwrap_or_default(),
    };
    format!("#{} {}", e.seq, text)
}

/// A `moved` event in words: "Orc Warrior (5) moves 5.9\" to (11.8, 15.9) (crosses a hedge, one band
/// less), stopped by the Town Hall"; a step "steps", a fall-back "falls back … by 2 bends", a Recoil
/// "recoils".
fn moved_words(e: &Event, names: &BTreeMap<ModelId, String>) -> String {
    let EventKind::Moved {
        model,
        from,
        to,
        kind,
        via,
        stopped_by,
        ..
    } = &e.kind
    else {
        return String::new();
    };
    let (mut stops, mut notes) = (Vec::new(), Vec::new());
    for part in stopped_by.iter().flat_map(|w| w.split("; ")) {
        if let Some(n) = part.strip_suffix(ONE_BAND_LESS) {
            notes.push(format!("{n}, one band less"));
        } else if let Some(n) = part.strip_suffix(TWO_ACTIONS) {
            notes.push(format!("{n}, two actions"));
        } else {
            stops.push(part);
        }
    }
    let mut pts = vec![*from];
    pts.extend(via.iter().copied());
    pts.push(*to);
    let inches: f64 = pts.windows(2).map(|w| w[0].dist(w[1])).sum();
    let verb = match kind {
        super::MoveKind::Move => "moves",
        super::MoveKind::Step => "steps",
        super::MoveKind::FallBack => "falls back",
        super::MoveKind::Recoil => "recoils",
        super::MoveKind::Push => "is moved",
    };
    let mut text = format!(
        "{} {verb} {inches:.1}\" to ({:.1}, {:.1})",
        who(names, *model),
        to.x,
        to.y
    );
    if !via.is_empty() {
        text.push_str(&format!(
            " around {}",
            crate::names::count(via.len(), "bend", "bends")
        ));
    }
    if !notes.is_empty() {
        text.push_str(&format!(" ({})", notes.join("; ")));
    }
    if !stops.is_empty() {
        text.push_str(&format!(", stopped by {}", stops.join("; ")));
    }
    text
}

/// A limited use spent, in words: `wave:Hold the Line:Captain Maren#1` is "Captain Maren's Hold the
/// Line is spent for this wave (use 1)"; `wave:Overwatch` is "Overwatch is spent for this wave". A key
/// in no known shape is shown as it is.
fn spent(key: &str, names: &BTreeMap<ModelId, String>) -> String {
    let Some((scope, rest)) = key.split_once(':') else {
        return format!("{key} is spent");
    };
    let scope = match scope {
        "wave" => "this wave",
        "game" => "this game",
        "council" => "this Council",
        _ => return format!("{key} is spent"),
    };
    let (what, owner) = match rest.split_once(':') {
        Some((what, owner)) => (what, Some(owner)),
        None => (rest, None),
    };
    let (owner, nth) = match owner.map(|o| o.rsplit_once('#').unwrap_or((o, ""))) {
        Some((o, n)) => (Some(o), n),
        None => (None, ""),
    };
    let nth = if nth.is_empty() {
        String::new()
    } else {
        format!(" (use {nth})")
    };
    match owner {
        // A script may name its owner by id: the model's name then.
        Some(o) => {
            let o = match o.parse::<u32>() {
                Ok(id) => who(names, ModelId(id)),
                Err(_) => o.to_string(),
            };
            format!("{o}'s {what} is spent for {scope}{nth}")
        }
        None => format!("{what} is spent for {scope}{nth}"),
    }
}

/// The events of `log` in words, one line each.
pub fn describe_all(log: &[Event], names: &BTreeMap<ModelId, String>) -> Vec<String> {
    log.iter().map(|e| describe(e, names)).collect()
}

fn modifiers_sum(mods: &[super::vocab::Modifier], role: Role) -> i32 {
    mods.iter().filter(|m| m.to == role).map(|m| m.value).sum()
}

/// Why event `seq` happened, for `:explain`: the event in words, the event that caused it (its `cause`
/// link), the rolls and script changes logged just before it that belong to it (back to the previous
/// combat, activation or move), and what it led to: the events that name it as their cause, each with
/// its own consequences indented under it. Events that merely came later are not listed.
pub fn explain(game: &Game, seq: usize) -> Option<String> {
    let log = game.log();
    let e = log.get(seq)?;
    let names = names(game);
    let boundary = |k: &EventKind| {
        matches!(
            k,
            EventKind::Combat { .. } | EventKind::Activation { .. } | EventKind::Moved { .. }
        )
    };
    let start = (0..seq)
        .rev()
        .find(|&i| boundary(&log[i].kind))
        .map_or(0, |i| i + 1);
    let mut out = vec![describe(e, &names)];
    if let Some(c) = e.cause.and_then(|c| log.get(c as usize)) {
        out.push("  caused by:".into());
        out.push(format!("    {}", describe(c, &names)));
    }
    let before: Vec<String> = (start..seq)
        .filter(|&i| log[i].cause.is_none() || log[i].cause == e.cause)
        .map(|i| describe(&log[i], &names))
        .collect();
    if !before.is_empty() {
        out.push("  after:".into());
        out.extend(before.into_iter().map(|l| format!("    {l}")));
    }
    // What it led to: its consequences, and theirs under them. Causes always point back, so the
    // events after it are the only candidates.
    let mut after = Vec::new();
    consequences(log, seq as u64, 0, &names, &mut after);
    if !after.is_empty() {
        out.push("  which led to:".into());
        out.extend(after);
    }
    Some(out.join("\n"))
}

/// The most consequence lines `:explain` shows (a morale check that routs a side can cause dozens).
const MAX_CONSEQUENCES: usize = 24;

/// The events caused by event `seq`, in log order, each followed by its own consequences indented one
/// step further.
fn consequences(
    log: &[Event],
    seq: u64,
    depth: usize,
    names: &BTreeMap<ModelId, String>,
    out: &mut Vec<String>,
) {
    for e in log.iter().skip(seq as usize + 1) {
        if e.cause != Some(seq) {
            continue;
        }
        if out.len() >= MAX_CONSEQUENCES {
            if out.last().is_none_or(|l| l.trim() != "...") {
                out.push(format!("{}...", "  ".repeat(depth + 2)));
            }
            return;
        }
        out.push(format!("{}{}", "  ".repeat(depth + 2), describe(e, names)));
        consequences(log, e.seq, depth + 1, names, out);
    }
}

/// A decision in words, its model named as the log names it.
pub fn decision_words(d: &super::Decision, names: &BTreeMap<ModelId, String>) -> String {
    let w = d.model.map(|m| who(names, m)).unwrap_or_default();
    d.words(&w)
}

/// The latest event of `log` that is not a clock mark (`round`, `turn`): what `:why` and `g:why()`
/// explain by default, the last thing that happened.
pub fn latest_happening(log: &[Event]) -> Option<u64> {
    log.iter()
        .rev()
        .find(|e| !matches!(e.kind, EventKind::Round { .. } | EventKind::Turn { .. }))
        .map(|e| e.seq)
}

/// `:why [#N]`: the decisions behind event `seq` (default: the latest event but a `round` or `turn`
/// mark, [`latest_happening`]), each with what it
/// weighed, its reason and its script's line, then the events it led to. An event no script decided
/// says so. `Err` when the game keeps no decisions or there is no such event.
pub fn why(game: &Game, seq: Option<u64>) -> Result<String, String> {
    let Some(all) = game.decisions() else {
        return Err("this game keeps no decisions (village.new_game{ decisions = false })".into());
    };
    let log = game.log();
    let names = names(game);
    let seq = match seq.or_else(|| latest_happening(log)) {
        Some(s) => s,
        None => return Err("no event yet".into()),
    };
    let Some(e) = log.get(seq as usize) else {
        return Err(format!(
            "there is no event #{seq} (the log has {})",
            count(log.len() as i64, "event", "events")
        ));
    };
    let mut out = vec![describe(e, &names)];
    let behind = all.behind(seq);
    if behind.is_empty() {
        out.push(
            "  no script decided it: it is the rules' own (a roll they call for, the End Sequence, \
             a wave's deployment, a reaction)"
                .into(),
        );
        if let Some(c) = e.cause {
            out.push(format!("  it followed from #{c}: :why #{c}"));
        }
        return Ok(out.join("\n"));
    }
    out.push("  decided by:".into());
    for d in &behind {
        out.push(format!("    {}", decision_words(d, &names)));
    }
    // The events those decisions led to, up to where they were carried out (or the log's end).
    let first = behind.iter().map(|d| d.at).min().unwrap_or(seq);
    let end = behind
        .iter()
        .map(|d| d.until.unwrap_or(log.len() as u64))
        .max()
        .unwrap_or(seq + 1);
    let led: Vec<String> = log
        .iter()
        .skip(first as usize)
        .take(end.saturating_sub(first) as usize)
        .map(|e| format!("    {}", describe(e, &names)))
        .collect();
    if !led.is_empty() {
        out.push("  which led to:".into());
        out.extend(led.into_iter().take(MAX_CONSEQUENCES));
    }
    Ok(out.join("\n"))
}
