//! Events in words, for people: "Orc Warrior (5) rolls 5 +3 = 8 vs Captain Maren (1) 1 +4 = 5:
//! Defenseless". The REPL's `:log` and `:explain` print these; the JSON log stays the record.

use super::event::{Event, EventKind};
use super::game::Game;
use super::model::ModelId;
use super::vocab::{Role, Target};
use std::collections::BTreeMap;

/// Model names by id, from every `placed` event of the log (a removed model keeps its name).
pub fn names(game: &Game) -> BTreeMap<ModelId, String> {
    game.log()
        .iter()
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
        EventKind::Placed { model, pos, .. } => {
            format!("{} is placed at ({:.1}, {:.1})", w(*model), pos.x, pos.y)
        }
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
        EventKind::Moved {
            model,
            from,
            to,
            stopped_by,
            ..
        } => format!(
            "{} moves {:.1}\" to ({:.1}, {:.1}){}",
            w(*model),
            from.dist(*to),
            to.x,
            to.y,
            stopped_by
                .as_deref()
                .map(|s| format!(", stopped by {s}"))
                .unwrap_or_default()
        ),
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
            ..
        } => {
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
                "{} {} {}: {} {}{} = {} vs {} {}{} = {}: {}{}{}",
                w(*attacker),
                kind.as_str(),
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
        EventKind::Deployed { model, to, near, .. } => {
            format!("{} deploys at ({:.1}, {:.1}) near the {near}", w(*model), to.x, to.y)
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
            format!("Group {number} deploys on edge {edge} ({} models)", models.len())
        }
        EventKind::BuildingAbility {
            building,
            level,
            ability,
            detail,
            ..
        } => format!("{building} {level}: {ability} — {detail}"),
        EventKind::EdgesRevealed { edges, .. } => format!("the spawn edges are revealed: {edges:?}"),
        EventKind::Healed { model, what } => format!("{} is healed of {what}", w(*model)),
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
        } => format!("the village gains {amount} Supplies ({supplies}) — {source}"),
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
            supplies,
            source,
            detail,
            refused,
            ..
        } => match refused {
            Some(why) => format!("Council: {what} refused — {why}"),
            None => format!("Council: {what} for {supplies} Supplies ({source}): {detail}"),
        },
        EventKind::Spent { key, source } => format!("{key} is spent ({source})"),
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
        EventKind::WallRaised { token, caster, spell } => {
            format!("{}'s {spell} rises (token {})", w(*caster), token.0)
        }
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
        EventKind::OutOfPower { model } => {
            format!("{} failed three dice: out of power for the rest of the wave", w(*model))
        }
        _ => serde_json::to_string(e).unwrap_or_default(),
    };
    format!("#{} {}", e.seq, text)
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
