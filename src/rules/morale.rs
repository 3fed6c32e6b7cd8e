//! Morale (§3.6): a three-die Quality roll; one failure falls back one movement band toward the nearest
//! table edge, two failures two bands, three failures Flee. Fleeing uses the shortest legal route, and a
//! model that starts it Engaged takes a Lethal Free Hack from each enemy it leaves.

use super::error::RuleError;
use super::hooks::Hooks;
use super::melee::{melee, MeleeOptions};
use super::query::{engaged_enemies, label};
use crate::dice::MoraleRoll;
use crate::geometry::Vec2;
use crate::roster::Rules;
use crate::state::{Condition, EventKind, Game, Model, ModelId, MoraleResult, MoraleTrigger, Side};
use serde::{Deserialize, Serialize};

/// The Undead trait (core §3.6: two or three failures defeat it).
pub const UNDEAD_TRAIT: &str = "Undead";

/// What a morale check did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoraleReport {
    pub model: ModelId,
    pub trigger: MoraleTrigger,
    pub dice: Vec<u8>,
    pub failures: u8,
    pub result: MoraleResult,
    /// Inches moved toward the edge.
    pub moved: f64,
}

fn log_check(
    game: &mut Game,
    model: ModelId,
    trigger: MoraleTrigger,
    roll: &MoraleRoll,
    modifiers: Vec<crate::state::Modifier>,
    result: MoraleResult,
    detail: String,
) {
    game.record(EventKind::Morale {
        model,
        trigger,
        dice: roll.dice.clone(),
        modifiers,
        failures: roll.failures,
        result,
        detail,
    });
}

/// Test the morale of `id` for `trigger` and apply the result.
pub fn morale_check(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    id: ModelId,
    trigger: MoraleTrigger,
) -> Result<MoraleReport, RuleError> {
    let m = game.model(id)?.clone();
    let report = |dice: Vec<u8>, failures: u8, result: MoraleResult, moved: f64| MoraleReport {
        model: id,
        trigger,
        dice,
        failures,
        result,
        moved,
    };
    let immune = if m.side == Side::Enemies
        && matches!(
            trigger,
            MoraleTrigger::LeaderDefeated | MoraleTrigger::HalfLost
        ) {
        Some("Enemy Groups check only Terror and Gruesome Kills (rules)".to_string())
    } else {
        hooks
            .morale_immunity(game, id, trigger)?
            .map(|(why, source)| format!("{why} ({source})"))
    };
    if let Some(why) = immune {
        let none = MoraleRoll {
            dice: Vec::new(),
            failures: 0,
        };
        let detail = format!("{} ignores the check: {why}", label(&m));
        log_check(
            game,
            id,
            trigger,
            &none,
            Vec::new(),
            MoraleResult::Immune,
            detail,
        );
        return Ok(report(Vec::new(), 0, MoraleResult::Immune, 0.0));
    }
    let mods = hooks.morale_modifiers(game, id, trigger)?;
    let bonus: i32 = mods.iter().map(|m| m.value).sum();
    let faces: Vec<u8> = game
        .roll("morale", Some(id), rules.morale.dice as usize)
        .iter()
        .map(|d| d.face)
        .collect();
    let roll = MoraleRoll::evaluate(
        &faces,
        m.quality,
        bonus.clamp(-6, 6) as i8,
        &rules.activation.roll_rules(),
    );
    let f = roll.failures;
    let engaged = !engaged_enemies(game, rules, id).is_empty();
    let name = label(&m);

    let defeat = |game: &mut Game, why: String| -> Result<(), RuleError> {
        log_check(
            game,
            id,
            trigger,
            &roll,
            mods.clone(),
            MoraleResult::Defeated,
            why,
        );
        super::magic::remove(game, id, "defeated")?;
        Ok(())
    };
    if f == 0 {
        let detail = format!("{name} holds");
        log_check(game, id, trigger, &roll, mods, MoraleResult::Steady, detail);
        return Ok(report(roll.dice, 0, MoraleResult::Steady, 0.0));
    }
    if m.has(Condition::Transfixed) {
        defeat(
            game,
            format!("{name} fails morale while Transfixed and is Defeated"),
        )?;
        return Ok(report(roll.dice, f, MoraleResult::Defeated, 0.0));
    }
    if m.has(Condition::Defenseless) && engaged {
        defeat(
            game,
            format!("{name} fails morale while Defenseless and Engaged and is Defeated"),
        )?;
        return Ok(report(roll.dice, f, MoraleResult::Defeated, 0.0));
    }
    if m.has_trait(UNDEAD_TRAIT) && u32::from(f) >= rules.morale.undead_defeated_failures {
        defeat(
            game,
            format!("{name} is Undead and crumbles on {f} failures"),
        )?;
        return Ok(report(roll.dice, f, MoraleResult::Defeated, 0.0));
    }
    let near = engaged_enemies(game, rules, id);
    let traits = hooks.movement_traits(game, id, &near)?;
    if u32::from(f) >= rules.morale.flee_failures {
        // It leaves the table: it leaves every enemy it is Engaged with.
        if !free_hacks(
            game,
            rules,
            hooks,
            id,
            &super::movement::hackers(game, &near, &traits),
        )? {
            let detail = format!("{name} Flees but falls to the Free Hacks as it leaves");
            log_check(
                game,
                id,
                trigger,
                &roll,
                mods,
                MoraleResult::Defeated,
                detail,
            );
            return Ok(report(roll.dice, f, MoraleResult::Defeated, 0.0));
        }
        let detail = format!("{name} Flees");
        log_check(game, id, trigger, &roll, mods, MoraleResult::Fled, detail);
        flee(game, id)?;
        return Ok(report(roll.dice, f, MoraleResult::Fled, 0.0));
    }
    let mut bands = u32::from(f);
    if m.has(Condition::Defenseless) {
        // A Defenseless model spends its first compelled movement standing up.
        game.model_mut(id)?.remove_condition(Condition::Defenseless);
        game.record(EventKind::Condition {
            model: id,
            condition: Condition::Defenseless,
            added: false,
        });
        bands -= 1;
        if bands == 0 {
            let detail = format!("{name} spends its fall-back standing up");
            log_check(
                game,
                id,
                trigger,
                &roll,
                mods,
                MoraleResult::StoodUp,
                detail,
            );
            return Ok(report(roll.dice, f, MoraleResult::StoodUp, 0.0));
        }
    }
    let back = fall_back(game, rules, id, &traits, bands)?;
    // Only the enemies it actually leaves hack it: a fall-back of 0" leaves nobody (SUPPLEMENT §11).
    let moved_to = Model {
        pos: back.to,
        ..game.model(id)?.clone()
    };
    let left: Vec<ModelId> = near
        .iter()
        .copied()
        .filter(|e| {
            back.moved > 1e-9
                && game
                    .model(*e)
                    .is_ok_and(|en| !super::query::in_contact(rules, &moved_to, en))
        })
        .collect();
    if !free_hacks(
        game,
        rules,
        hooks,
        id,
        &super::movement::hackers(game, &left, &traits),
    )? {
        let detail = format!("{name} falls back but falls to the Free Hacks as it leaves");
        log_check(
            game,
            id,
            trigger,
            &roll,
            mods,
            MoraleResult::Defeated,
            detail,
        );
        return Ok(report(roll.dice, f, MoraleResult::Defeated, 0.0));
    }
    let from = game.model(id)?.pos;
    game.model_mut(id)?.pos = back.to;
    game.record(EventKind::Moved {
        model: id,
        from,
        to: back.to,
        kind: crate::state::MoveKind::FallBack,
        reach: None,
        band: None,
        band_lost: back.slowed.clone(),
        actions: None,
        stop: back.stop,
        with: None,
        via: back.via.clone(),
        stopped_by: None,
        traits: traits.sources.clone(),
    });
    let (moved, fled) = (back.moved, back.reached_edge);
    let result = if fled {
        MoraleResult::Fled
    } else {
        MoraleResult::FellBack
    };
    let slowed = back
        .slowed
        .as_deref()
        .map(|why| format!(", one band less as it {why}"))
        .unwrap_or_default();
    let detail = if fled {
        format!(
            "{name} falls back {}, reaches the table edge and Flees{slowed}",
            crate::names::count(bands, "band", "bands")
        )
    } else {
        format!(
            "{name} falls back {} ({moved:.1}\"){slowed}",
            crate::names::count(bands, "band", "bands")
        )
    };
    log_check(game, id, trigger, &roll, mods, result, detail);
    if fled {
        flee(game, id)?;
    }
    Ok(report(roll.dice, f, result, moved))
}

/// Each of `hackers` makes a Lethal Free Hack on the leaving model (§3.6). False when the model did
/// not survive.
fn free_hacks(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    id: ModelId,
    hackers: &[ModelId],
) -> Result<bool, RuleError> {
    let o = MeleeOptions {
        free_hack: true,
        lethal: true,
        ..MeleeOptions::default()
    };
    for enemy in hackers {
        if game.model(*enemy).is_err() {
            continue;
        }
        melee(game, rules, hooks, *enemy, id, o)?;
        if game.model(id).is_err() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Where a fall-back goes, worked out before the model moves (the Free Hacks depend on it).
struct FallBack {
    /// Where it ends.
    to: Vec2,
    /// The route's bend points it passes, in order.
    via: Vec<Vec2>,
    moved: f64,
    reached_edge: bool,
    stop: crate::state::MoveStop,
    /// Why a band of it was shortened (the first difficult terrain or obstacle met), if one was.
    slowed: Option<String>,
}

/// Compelled movement (§3.6): `bands` movement bands along the shortest legal route toward the nearest
/// table edge, "using the shortest legal route and terrain penalties" — each band that would enter
/// difficult terrain or cross a linear obstacle or Barricade covers one band less, as a move action
/// does (§3.3). A Short-move model, which needs two actions for such a move, covers half its band
/// (a ruling: one band of compelled movement is one action's worth). The route may bend, but it never
/// passes through a building, impassable terrain or any model's base (SUPPLEMENT §11): each of its
/// straight pieces is walked as a straight move with every other base solid, and where one is blocked
/// the model goes as far as it can. Nothing moves here.
fn fall_back(
    game: &Game,
    rules: &Rules,
    id: ModelId,
    traits: &super::hooks::MoveTraits,
    bands: u32,
) -> Result<FallBack, RuleError> {
    use super::movement::{band_below, band_penalty};
    use crate::state::MoveStop;
    let m = game.model(id)?;
    let (from, r) = (m.pos, m.base / 2.0);
    let nav = game.navigator(r);
    let bases: Vec<_> = game
        .models
        .iter()
        .filter(|o| o.id != id)
        .map(|o| o.circle())
        .collect();
    let Some(route) = nav.route_to_edge(m.pos, &bases) else {
        // Hemmed in: it cannot fall back.
        return Ok(FallBack {
            to: from,
            via: Vec::new(),
            moved: 0.0,
            reached_edge: false,
            stop: MoveStop::Blocked,
            slowed: None,
        });
    };
    let band = traits.band.unwrap_or(crate::roster::Measure::Medium);
    let full = rules.measures.get(band);
    let shorter = band_below(band).map_or(full / 2.0, |b| rules.measures.get(b));
    let (mut at, mut slowed) = (0.0_f64, None);
    for _ in 0..bands {
        if at >= route.length - 1e-9 {
            break;
        }
        let end = (at + full).min(route.length);
        let hit = legs_between(&route, at, end)
            .iter()
            .find_map(|leg| band_penalty(game, leg, r, traits));
        at = match hit {
            Some(why) => {
                slowed.get_or_insert(why);
                (at + shorter).min(route.length)
            }
            None => end,
        };
    }
    // Walk the route's pieces up to `at`, each a straight move that nothing may be passed through.
    let table = super::movement::terrain_for(game, traits);
    let table = table.as_ref();
    let (mut pos, mut moved, mut via) = (from, 0.0_f64, Vec::new());
    let mut stop = MoveStop::Reached;
    for leg in legs_between(&route, 0.0, at) {
        if leg.a.dist(leg.b) < 1e-12 {
            continue;
        }
        if moved > 1e-12 {
            via.push(pos);
        }
        let mover = crate::geometry::Circle { c: pos, r };
        let out = crate::geometry::straight_move(table, &mover, leg.b, &[], &bases);
        moved += out.travelled;
        pos = out.end;
        if out.stopped.is_some() && out.travelled + 1e-6 < leg.a.dist(leg.b) {
            stop = MoveStop::Blocked;
            break;
        }
    }
    let reached = stop == MoveStop::Reached && at >= route.length - 1e-9;
    if stop == MoveStop::Reached && reached {
        stop = MoveStop::Edge;
    }
    Ok(FallBack {
        to: pos,
        via,
        moved,
        reached_edge: reached,
        stop,
        slowed,
    })
}

/// The straight pieces of `route` between `a` and `b` inches along it.
fn legs_between(route: &crate::geometry::Route, a: f64, b: f64) -> Vec<crate::geometry::Segment> {
    let mut out = Vec::new();
    let mut pts = vec![route.point_at(a)];
    let mut walked = 0.0;
    for w in route.waypoints.windows(2) {
        walked += w[0].dist(w[1]);
        if walked > a + 1e-12 && walked < b - 1e-12 {
            pts.push(w[1]);
        }
    }
    pts.push(route.point_at(b));
    for p in pts.windows(2) {
        out.push(crate::geometry::Segment::new(p[0], p[1]));
    }
    out
}

/// After a Gruesome Kill of `victim`, every model of its side within the gruesome range (Long) of where
/// it stood tests morale (§3.6, SUPPLEMENT §4). Returns the reports in id order.
pub fn gruesome_checks(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    victim: &Model,
) -> Result<Vec<MoraleReport>, RuleError> {
    let range = rules.measures.get(rules.morale.gruesome_range);
    let witnesses: Vec<ModelId> = game
        .models
        .iter()
        .filter(|o| o.side == victim.side && o.id != victim.id)
        .filter(|o| crate::geometry::circle_circle_gap(&o.circle(), &victim.circle()) <= range)
        .map(|o| o.id)
        .collect();
    let mut out = Vec::new();
    for w in witnesses {
        if super::end::game_over(game, rules) {
            break;
        }
        if game.model(w).is_ok() {
            out.push(morale_check(
                game,
                rules,
                hooks,
                w,
                MoraleTrigger::GruesomeKill,
            )?);
        }
    }
    Ok(out)
}

/// A model Flees (§3.6): it is removed; a hero is kept aside to rejoin at the next wave start with its
/// Wounds (a ruling: Fled is not Defeated, core §3.8), without its conditions or half-done Task.
fn flee(game: &mut Game, id: ModelId) -> Result<(), RuleError> {
    let mut m = super::magic::remove(game, id, "fled")?;
    if m.kind == crate::roster::ProfileKind::Hero {
        m.conditions.clear();
        m.task = None;
        m.transfixed_by = None;
        m.entangled_by = None;
        m.charged = false;
        m.moves = 0;
        game.fled.push(m);
    }
    Ok(())
}
