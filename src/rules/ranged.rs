//! Ranged attacks (§3.5): line of sight, range by weapon, Cover, weapon bands, Aimed Shot, the target's
//! defensive roll, the natural-1 weapon break, and harpoons that Entangle.

use super::combat::{classify, CombatConstants, CombatResult};
use super::error::RuleError;
use super::hooks::{Hooks, Modifier, Role, RollInfo, RollKind, Target};
use super::melee::{lethal_condition, total_for, CombatReport};
use super::outcome;
use super::query::{gap, in_contact, is_engaged, label};
use crate::geometry::{sight_with_tol, Segment, Sight};
use crate::roster::{Exhaustion, OnHit, Rosters, Weapon};
use crate::state::{Condition, EventKind, Game, ModelId, TokenKind};
use serde::{Deserialize, Serialize};

/// How a ranged attack is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShotOptions {
    /// A 2-action Aimed Shot: the target's total takes the Aimed Shot modifier.
    pub aimed: bool,
}

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

/// Resolve a ranged attack of `shooter` at `target`.
pub fn shoot(
    game: &mut Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    shooter: ModelId,
    target: ModelId,
    o: ShotOptions,
) -> Result<CombatReport, RuleError> {
    let rules = &r.rules;
    let s = game.model(shooter)?.clone();
    let t = game.model(target)?.clone();
    if s.side == t.side {
        return Err(RuleError::SameSide(label(&t)));
    }
    let weapon = s
        .weapon
        .as_deref()
        .and_then(|w| r.weapon(w))
        .ok_or_else(|| RuleError::NoWeapon(label(&s)))?;
    if s.weapon_broken {
        return Err(RuleError::WeaponBroken(label(&s)));
    }
    if is_engaged(game, rules, shooter) {
        return Err(RuleError::ShooterEngaged(label(&s)));
    }
    let target_engaged = game
        .models
        .iter()
        .any(|m| m.id != target && m.side != t.side && in_contact(rules, m, &t));
    if target_engaged {
        return Err(RuleError::TargetEngaged(label(&t)));
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
            shooter: label(&s),
            target: label(&t),
        });
    }
    let distance = gap(&s, &t).max(0.0);
    let range = weapon_range(r, weapon);
    if distance > range + 1e-9 {
        return Err(RuleError::OutOfRange {
            target: label(&t),
            weapon: weapon.name.clone(),
            distance,
            range,
        });
    }

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
    if let Some(bonus) = &weapon.close_bonus {
        if distance <= rules.measures.get(bonus.within) + 1e-9 {
            let reason = format!("{} within {:?}", weapon.name, bonus.within).to_lowercase();
            mods.push(Modifier::rule(Role::Attacker, bonus.modifier, &reason));
        }
    }
    if let Some(bands) = &weapon.bands {
        let size = rules.measures.get(bands.measure);
        let band = ((distance / size).ceil() as usize).clamp(1, bands.modifiers.len());
        let value = bands.modifiers[band - 1];
        if value != 0 {
            let reason = format!("{} at {} measure(s)", weapon.name, band);
            mods.push(Modifier::rule(Role::Attacker, value, &reason));
        }
    }
    if o.aimed {
        mods.push(Modifier::rule(Role::Defender, k.aimed_shot, "Aimed Shot"));
    }
    let info = RollInfo {
        kind: RollKind::Ranged,
        attacker: shooter,
        target: Target::Model(target),
        power_blow: false,
        aimed: o.aimed,
        free_hack: false,
    };
    mods.extend(hooks.roll_modifiers(game, &info)?);

    let dice = game.roll("ranged", Some(shooter), 2);
    let (sd, td) = (dice[0].face, dice[1].face);
    let st = i32::from(sd) + s.combat + total_for(&mods, Role::Attacker);
    let tt = i32::from(td) + t.combat + total_for(&mods, Role::Defender);
    let kk = CombatConstants::from_rules(rules);
    let (winner, result, lethal) = if st > tt {
        let lethal = lethal_condition(&t).map(str::to_string);
        let r = if weapon.on_hit == OnHit::Entangle {
            CombatResult::Entangled
        } else {
            classify(st, tt, sd, lethal.is_some(), kk.gruesome_multiplier, &kk)
        };
        (Some(Role::Attacker), r, lethal)
    } else if tt > st {
        // The target's roll is defensive: it stops the shot but never hurts the shooter.
        (Some(Role::Defender), CombatResult::None, None)
    } else {
        (None, CombatResult::Tie, None)
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
    });
    if sd == k.exhaust_roll {
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
    let applied = if winner == Some(Role::Attacker) {
        outcome::apply(game, rules, target, s.pos, result)?
    } else {
        result
    };
    if applied == CombatResult::Gruesome {
        super::morale::gruesome_checks(game, rules, hooks, &t)?;
    }
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
