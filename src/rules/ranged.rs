//! Ranged attacks (§3.5): line of sight, range by weapon, Cover, weapon bands, Aimed Shot, the target's
//! defensive roll, the natural-1 weapon break, and harpoons that Entangle.

use super::combat::CombatResult;
use super::error::RuleError;
use super::hooks::{Hooks, Modifier, Role, RollInfo, RollKind, Target};
use super::melee::{lethal_condition, total_for, CombatReport};
use super::query::{gap, in_contact, is_engaged, label};
use crate::geometry::{sight_with_tol, Segment, Sight};
use crate::roster::{trait_names, Exhaustion, OnHit, Rosters, Rules, Weapon};
use crate::state::{Condition, EventKind, Game, Model, ModelId, TokenKind};
use serde::{Deserialize, Serialize};

/// How a ranged attack is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShotOptions {
    /// A 2-action Aimed Shot: the target's total takes the Aimed Shot modifier.
    pub aimed: bool,
}

/// The permission (granted by the Shooter trait's script) to make ranged attacks with its weapon.
pub const SHOOT: &str = "shoot";

/// The longest shot of a weapon, in inches.
pub fn weapon_range(r: &Rosters, w: &Weapon) -> f64 {
    match &w.bands {
        Some(b) => r.rules.measures.get(b.measure) * b.modifiers.len() as f64,
        None => r.rules.measures.get(w.range),
    }
}

/// Segments that give Cover besides walls and hedges: Barricades on the table.
pub fn cover_segments(game: &Game) -> Vec<Segment> {
    game.tokens
        .iter()
        .filter_map(|t| match &t.kind {
            TokenKind::Barricade { segment, .. } => Some(*segment),
            _ => None,
        })
        .collect()
}

/// What a shooter needs to know about one possible target.
struct Shot<'a> {
    weapon: &'a Weapon,
    sight: Sight,
    distance: f64,
}

/// Check that `shooter` may shoot `target` (§3.5) — weapon, not Engaged, target not Engaged with another
/// model, sight, range — without the closest-target rule.
/// A model whose Behaviour never makes a ranged attack or a spell attack (Mindless, §6.3: the roster's
/// `ranged_attacks = false`) is refused one.
pub(crate) fn behaviour_allows_ranged(r: &Rosters, m: &Model) -> Result<(), RuleError> {
    match m.behaviour.as_deref().and_then(|b| r.behaviour(b)) {
        Some(b) if !b.ranged_attacks => Err(RuleError::NotAllowed(
            label(m),
            "make a ranged or spell attack (its Behaviour never does, §6.3)",
        )),
        _ => Ok(()),
    }
}

fn check_shot<'a>(
    game: &Game,
    r: &'a Rosters,
    shooter: ModelId,
    target: ModelId,
) -> Result<Shot<'a>, RuleError> {
    let rules = &r.rules;
    let s = game.model(shooter)?;
    let t = game.model(target)?;
    if s.side == t.side {
        return Err(RuleError::SameSide(label(t)));
    }
    behaviour_allows_ranged(r, s)?;
    let weapon = s
        .weapon
        .as_deref()
        .and_then(|w| r.weapon(w))
        .ok_or_else(|| RuleError::NoWeapon(label(s)))?;
    if s.weapon_broken {
        return Err(RuleError::WeaponBroken(label(s)));
    }
    if is_engaged(game, rules, shooter) {
        return Err(RuleError::ShooterEngaged(label(s)));
    }
    if engaged_elsewhere(game, rules, t) {
        return Err(RuleError::TargetEngaged(label(t)));
    }
    let sight = sight_with_tol(
        &game.table,
        &s.circle(),
        &t.circle(),
        &cover_segments(game),
        rules.bases.contact_tolerance,
    );
    if sight == Sight::Blocked {
        return Err(RuleError::NoSight {
            shooter: label(s),
            target: label(t),
        });
    }
    let distance = gap(s, t).max(0.0);
    let range = weapon_range(r, weapon);
    if distance > range + 1e-9 {
        return Err(RuleError::OutOfRange {
            target: label(t),
            weapon: weapon.name.clone(),
            distance,
            range,
        });
    }
    Ok(Shot {
        weapon,
        sight,
        distance,
    })
}

/// The permission a target's scripts grant when it cannot be shot (Stealth in Cover); spells ignore it.
pub const CANNOT_BE_SHOT: &str = "cannot_be_shot";

/// The profile cost of a model (what "worth less than half" compares), 0 when unknown.
fn worth(r: &Rosters, m: &Model) -> i64 {
    r.profile(&m.name).map_or(0, |p| p.cost())
}

/// The closest-target rule (§3.5): a closer legal visible enemy must be shot first unless it is
/// Defenseless, in Cover, or worth less than half the shooter's cost; a Big or Huge target may always
/// be chosen. Returns the closer enemy that forbids `target`, if any. With `hooks` (a weapon shot, not a
/// spell), an enemy whose scripts say it cannot be shot (Stealth) does not count.
pub fn closer_target(
    game: &Game,
    r: &Rosters,
    shooter: ModelId,
    target: ModelId,
    hooks: Option<&dyn Hooks>,
) -> Result<Option<ModelId>, RuleError> {
    closer_with(game, r, shooter, target, |e| {
        match check_shot(game, r, shooter, e) {
            Ok(shot) if shot.sight == Sight::Clear => {}
            _ => return Ok(false),
        }
        Ok(match hooks {
            Some(h) => h.permission(game, e, CANNOT_BE_SHOT)?.is_none(),
            None => true,
        })
    })
}

/// The closest-target rule (§3.5) with the legality of an attack at each closer enemy left to `legal`
/// (true: the attacker could make the same attack at it, in clear sight — Cover may be ignored): the
/// closer enemy that forbids `target`, if any. Defenseless enemies and those worth less than half the
/// attacker's cost may be ignored; a Big or Huge target may always be chosen. A spell used as a ranged
/// attack follows the same rule (§3.7), its legality by the spell's Power (`magic::closer_spell_target`).
pub(crate) fn closer_with(
    game: &Game,
    r: &Rosters,
    shooter: ModelId,
    target: ModelId,
    legal: impl Fn(ModelId) -> Result<bool, RuleError>,
) -> Result<Option<ModelId>, RuleError> {
    let s = game.model(shooter)?;
    let t = game.model(target)?;
    if t.has_trait(trait_names::BIG) || t.has_trait(trait_names::HUGE) {
        return Ok(None);
    }
    let d = gap(s, t);
    let half = worth(r, s) as f64 / 2.0;
    for e in game
        .models
        .iter()
        .filter(|e| e.side != s.side && e.id != target)
    {
        if gap(s, e) >= d - 1e-9 || e.has(Condition::Defenseless) || (worth(r, e) as f64) < half {
            continue;
        }
        if legal(e.id)? {
            return Ok(Some(e.id));
        }
    }
    Ok(None)
}

/// Whether `target` is in contact with an enemy of its own (§3.5: a ranged attack may not target an
/// enemy Engaged with another model; the shooter or caster, never Engaged itself, is not that model).
pub(crate) fn engaged_elsewhere(game: &Game, rules: &Rules, target: &Model) -> bool {
    game.models
        .iter()
        .any(|m| m.id != target.id && m.side != target.side && in_contact(rules, m, target))
}

/// A shooter whose scripts lift the closest-target rule (Called Shot) and uses it — a closer legal
/// target stood nearer — gets a `rule_bent` event naming the script.
fn log_past_closer(
    game: &mut Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    shooter: ModelId,
    target: ModelId,
) -> Result<(), RuleError> {
    let Some(source) = hooks.permission(game, shooter, "ignore_closest_target")? else {
        return Ok(());
    };
    let Some(closer) = closer_target(game, r, shooter, target, Some(hooks))? else {
        return Ok(());
    };
    let detail = format!(
        "{} shoots {} past the closer {}",
        label(game.model(shooter)?),
        label(game.model(target)?),
        label(game.model(closer)?)
    );
    game.record(EventKind::RuleBent {
        model: shooter,
        rule: "ignore_closest_target".into(),
        detail,
        source,
    });
    Ok(())
}

/// The target's side of a shot: its scripts may forbid it (Stealth), and the closest-target rule
/// applies unless the shooter's scripts lift it (Called Shot).
fn target_rules(
    game: &Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    shooter: ModelId,
    target: ModelId,
) -> Result<(), RuleError> {
    if let Some(source) = hooks.permission(game, target, CANNOT_BE_SHOT)? {
        return Err(RuleError::CannotBeShot(label(game.model(target)?), source));
    }
    if hooks
        .permission(game, shooter, "ignore_closest_target")?
        .is_none()
    {
        if let Some(c) = closer_target(game, r, shooter, target, Some(hooks))? {
            return Err(RuleError::NotClosest {
                shooter: label(game.model(shooter)?),
                target: label(game.model(target)?),
                closer: label(game.model(c)?),
            });
        }
    }
    Ok(())
}

/// Whether `shooter` may shoot `target` now (§3.5), without rolling: every check an ordinary ranged
/// attack makes, in the same order, so a policy can ask before it orders the shot.
pub fn may_shoot(
    game: &Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    shooter: ModelId,
    target: ModelId,
) -> Result<(), RuleError> {
    if hooks.permission(game, shooter, SHOOT)?.is_none() {
        return Err(RuleError::NotAllowed(
            label(game.model(shooter)?),
            "shoot (it is not a Shooter)",
        ));
    }
    check_shot(game, r, shooter, target)?;
    target_rules(game, r, hooks, shooter, target)
}

/// Resolve a ranged attack of `shooter` at `target`.
pub fn shoot(
    game: &mut Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    shooter: ModelId,
    target: ModelId,
    o: ShotOptions,
) -> Result<CombatReport, RuleError> {
    concentrated(game, r, hooks, &[shooter], target, o)
}

/// Concentrated Shooting (§3.5): two or more Active shooters, each able to shoot the target, fire as one
/// attack with the best shooter's Combat and the target at −1 per shooter after the first. With one
/// shooter this is an ordinary ranged attack.
pub fn concentrated(
    game: &mut Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    shooters: &[ModelId],
    target: ModelId,
    o: ShotOptions,
) -> Result<CombatReport, RuleError> {
    let rules = &r.rules;
    let mut best: Option<(ModelId, i32)> = None;
    for &id in shooters {
        if hooks.permission(game, id, SHOOT)?.is_none() {
            return Err(RuleError::NotAllowed(
                label(game.model(id)?),
                "shoot (it is not a Shooter)",
            ));
        }
        check_shot(game, r, id, target)?;
        let m = game.model(id)?;
        if shooters.len() > 1 && !m.active {
            return Err(RuleError::CannotConcentrate(
                label(m),
                "it is not Active".into(),
            ));
        }
        if best.is_none_or(|(_, c)| m.combat > c) {
            best = Some((id, m.combat));
        }
    }
    let Some((shooter, _)) = best else {
        return Err(RuleError::CannotConcentrate(
            "nobody".into(),
            "no shooter given".into(),
        ));
    };
    target_rules(game, r, hooks, shooter, target)?;
    log_past_closer(game, r, hooks, shooter, target)?;
    let Shot {
        weapon,
        sight,
        distance,
    } = check_shot(game, r, shooter, target)?;
    let s = game.model(shooter)?.clone();
    let t = game.model(target)?.clone();

    let k = &rules.ranged;
    let mut mods = Vec::new();
    if sight == Sight::Cover {
        mods.push(Modifier::rule(Role::Attacker, k.cover, "target in Cover"));
    }
    if t.has(Condition::Defenseless) || t.has(Condition::Transfixed) {
        mods.push(Modifier::rule(
            Role::Attacker,
            k.defenseless,
            "target Defenseless or Transfixed",
        ));
    }
    mods.extend(weapon_modifiers(rules, weapon, distance));
    if o.aimed {
        mods.push(Modifier::rule(Role::Defender, k.aimed_shot, "Aimed Shot"));
    }
    if shooters.len() > 1 {
        let extra = shooters.len() as i32 - 1;
        let reason = format!("Concentrated Shooting ({} shooters)", shooters.len());
        mods.push(Modifier::rule(
            Role::Defender,
            k.concentrated_per_extra_shooter * extra,
            &reason,
        ));
    }
    let combat = s.combat;
    resolve_ranged(
        game,
        r,
        hooks,
        shooter,
        target,
        combat,
        mods,
        Some(weapon),
        o.aimed,
        shooters,
    )
}

/// The shooter's modifiers its weapon gives at `distance` inches (SUPPLEMENT §4, rosters/weapons.toml):
/// a close bonus within its measure (Short Bow within Short), or the band the distance falls in
/// (Longbow at one, two or three Long measures). `village odds ranged` with Combat values reads them
/// here, so a weapon's numbers are applied one way only.
pub fn weapon_modifiers(
    rules: &crate::roster::Rules,
    weapon: &Weapon,
    distance: f64,
) -> Vec<Modifier> {
    let mut mods = Vec::new();
    if let Some(bonus) = &weapon.close_bonus {
        if distance <= rules.measures.get(bonus.within) + 1e-9 {
            let reason = format!("{} within {:?}", weapon.name, bonus.within).to_lowercase();
            mods.push(Modifier::rule(Role::Attacker, bonus.modifier, &reason));
        }
    }
    if let Some(bands) = &weapon.bands {
        let size = rules.measures.get(bands.measure);
        // Not `clamp`/indexing: an empty band list (a roster's mistake) must not panic.
        let band = ((distance / size).ceil() as usize)
            .max(1)
            .min(bands.modifiers.len());
        let value = band
            .checked_sub(1)
            .and_then(|i| bands.modifiers.get(i))
            .copied()
            .unwrap_or(0);
        if value != 0 {
            let reason = format!(
                "{} at {}",
                weapon.name,
                crate::names::count(band, "measure", "measures")
            );
            mods.push(Modifier::rule(Role::Attacker, value, &reason));
        }
    }
    mods
}

/// The common end of every ranged attack (a shot, a Concentrated Shooting, a spell used as a ranged
/// attack): script modifiers, the opposed roll with the target's defensive die, the result, the
/// natural-1 weapon check when there is a weapon, and the result applied. `shooters`: a Concentrated
/// Shooting's models, the one whose action it is first (logged with the roll), else empty.
#[allow(clippy::too_many_arguments)]
pub fn resolve_ranged(
    game: &mut Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    shooter: ModelId,
    target: ModelId,
    combat: i32,
    mut mods: Vec<Modifier>,
    weapon: Option<&Weapon>,
    aimed: bool,
    shooters: &[ModelId],
) -> Result<CombatReport, RuleError> {
    let rules = &r.rules;
    let k = &rules.ranged;
    let s = game.model(shooter)?.clone();
    let t = game.model(target)?.clone();
    let info = RollInfo {
        kind: RollKind::Ranged,
        attacker: shooter,
        target: Target::Model(target),
        power_blow: false,
        aimed,
        free_hack: false,
    };
    // Watchtower I: taken by the first eligible ranged attack of the wave, before the roll.
    if let Some(m) = super::village::overwatch(game, r, shooter) {
        mods.push(m);
    }
    mods.extend(hooks.roll_modifiers(game, &info)?);
    mods.extend(super::effects::modifiers(game, &info));

    let dice = game.roll("ranged", Some(shooter), 2);
    let (sd, td) = (dice[0].face, dice[1].face);
    let st = i32::from(sd) + combat + total_for(&mods, Role::Attacker);
    let tt = i32::from(td) + t.combat + total_for(&mods, Role::Defender);
    let (winner, result, lethal, gruesome_at) = if st > tt {
        if weapon.is_some_and(|w| w.on_hit == OnHit::Entangle) {
            (Some(Role::Attacker), CombatResult::Entangled, None, None)
        } else {
            let base = lethal_condition(&t).map(str::to_string);
            let (r, l, gm) = super::outcome::read_win(
                game,
                rules,
                hooks,
                RollKind::Ranged,
                shooter,
                target,
                sd,
                (st, tt),
                base,
                true,
            )?;
            (Some(Role::Attacker), r, l, gm)
        }
    } else if tt > st {
        // The target's roll is defensive: it stops the shot but never hurts the shooter.
        (Some(Role::Defender), CombatResult::None, None, None)
    } else {
        (None, CombatResult::Tie, None, None)
    };
    game.record(EventKind::Combat {
        kind: RollKind::Ranged,
        attacker: shooter,
        target: Target::Model(target),
        attacker_die: sd,
        defender_die: td,
        attacker_total: st,
        defender_total: tt,
        modifiers: mods.clone(),
        winner,
        result,
        lethal,
        gruesome_at,
        free_hack: false,
        reaction: game.outside_label(),
        shooters: if shooters.len() > 1 {
            shooters.to_vec()
        } else {
            Vec::new()
        },
    });
    // The weapon check and everything the result does are this roll's consequences in the log.
    let roll_seq = game.last_seq();
    let applied = game.caused_by(roll_seq, |game| -> Result<CombatResult, RuleError> {
        if let Some(weapon) = weapon.filter(|_| sd == k.exhaust_roll) {
            let broken = match weapon.exhaustion {
                Exhaustion::Immediate => true,
                Exhaustion::Confirmed => {
                    game.roll("weapon check", Some(shooter), 1)[0].face == k.exhaust_roll
                }
            };
            if broken {
                game.model_mut(shooter)?.weapon_broken = true;
                game.record(EventKind::WeaponBroken { model: shooter });
            }
        }
        Ok(if winner == Some(Role::Attacker) {
            let info = super::hooks::WinInfo {
                kind: RollKind::Ranged,
                winner: shooter,
                loser: target,
                winner_die: sd,
                winner_total: st,
                loser_total: tt,
                result,
                attacker_won: true,
            };
            super::outcome::settle(game, rules, hooks, &info, s.pos)?
        } else {
            result
        })
    })?;
    Ok(CombatReport {
        kind: RollKind::Ranged,
        attacker: shooter,
        target: Target::Model(target),
        attacker_die: sd,
        defender_die: td,
        attacker_total: st,
        defender_total: tt,
        modifiers: mods,
        winner,
        result,
        applied,
    })
}
