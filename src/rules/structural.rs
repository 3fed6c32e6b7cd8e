//! Attacking buildings (§6.4): D6 + Combat (+1 for Big, Huge or Heavy Weapon, not stacking) against
//! D6 + Structure; a win removes Integrity (two for a Power Blow); at 0 the building is Destroyed.

use super::error::RuleError;
use super::hooks::{Hooks, Modifier, Role, RollInfo, RollKind, Target};
use super::melee::total_for;
use super::query::label;
use crate::geometry::{circle_rect_gap, circle_segment_gap};
use crate::roster::Rules;
use crate::state::{CombatResult, EventKind, Game, ModelId, TokenId, TokenKind};
use serde::{Deserialize, Serialize};

/// The permission (granted by the Igniter trait's script) to place fire (§6.4).
pub const IGNITE: &str = "ignite";

/// The result of a structural attack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StructuralReport {
    pub attacker: ModelId,
    pub building: String,
    pub attacker_die: u8,
    pub building_die: u8,
    pub attacker_total: i32,
    pub building_total: i32,
    pub modifiers: Vec<Modifier>,
    /// Integrity removed (0 on a tie or a loss).
    pub damage: i32,
    pub integrity: i32,
    pub destroyed: bool,
}

/// Resolve a structural attack of `attacker` against the adjacent building `name`.
pub fn structural(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    attacker: ModelId,
    name: &str,
    power_blow: bool,
) -> Result<StructuralReport, RuleError> {
    let b = game.building(name)?.clone();
    if b.destroyed {
        return Err(RuleError::BuildingDestroyed(b.name));
    }
    let a = game.model(attacker)?;
    let g = circle_rect_gap(&a.circle(), &b.rect);
    if g > rules.bases.contact_tolerance {
        return Err(RuleError::NotInContact {
            id: a.id,
            name: label(a),
            other: format!("the {}", b.name),
            gap: g,
        });
    }
    let target = Target::Building(b.name.clone());
    let structure = rules.structures.building_structure as i32;
    let (report, won) = roll(game, rules, hooks, attacker, target, structure, power_blow)?;
    // What the roll does is its consequence in the log (`cause`).
    let roll_seq = game.last_seq();
    game.caused_by(roll_seq, |game| {
        building_damage(game, rules, hooks, report, &b, won, power_blow)
    })
}

/// The damage of a structural roll to building `b` and what follows from it (a wrecked building
/// remembered, the attacker's `on_structural` additions).
fn building_damage(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    mut report: StructuralReport,
    b: &crate::state::Building,
    won: bool,
    power_blow: bool,
) -> Result<StructuralReport, RuleError> {
    let attacker = report.attacker;
    // Temple II: a Blessed building ignores the damage (damage_building logs why).
    let removed = if super::village::blessed(game, &b.name) {
        0
    } else {
        damage_for(rules, won, power_blow)
    };
    let (integrity, destroyed) =
        damage_building(game, &b.name, damage_for(rules, won, power_blow))?;
    let damage = removed;
    if destroyed && won {
        // Remembered for its Behaviour: a Raider leaves once it has wrecked its building (§6.3).
        if let Ok(m) = game.model_mut(attacker) {
            m.wrecked = Some(b.name.clone());
        }
    }
    report.building = b.name.clone();
    report.damage = damage;
    report.integrity = integrity;
    report.destroyed = destroyed;
    if super::end::game_over(game, rules) {
        // The Town Hall fell: the game ends at that event (§6.4), nothing more of the attack resolves.
        return Ok(report);
    }
    // The attacker's scripts may add to the attack (the Orc Demolisher's Breach on a win).
    let intents = hooks.on_structural(game, attacker, &report.building, won)?;
    super::outcome::apply_intents(game, rules, hooks, &intents)?;
    Ok(report)
}

/// Resolve a structural attack of `attacker` against an adjacent Barricade (§6.5): the same procedure
/// against the Barricade's own Structure; a Destroyed Barricade is removed.
pub fn attack_barricade(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    attacker: ModelId,
    token: TokenId,
    power_blow: bool,
) -> Result<StructuralReport, RuleError> {
    let t = game
        .tokens
        .iter()
        .find(|t| t.id == token)
        .cloned()
        .ok_or(RuleError::NoToken(token.0))?;
    let TokenKind::Barricade {
        segment, structure, ..
    } = t.kind
    else {
        return Err(RuleError::NoToken(token.0));
    };
    let a = game.model(attacker)?;
    let g = circle_segment_gap(&a.circle(), &segment);
    if g > rules.bases.contact_tolerance {
        return Err(RuleError::NotInContact {
            id: a.id,
            name: label(a),
            other: format!("Barricade {}", token.0),
            gap: g,
        });
    }
    let (mut report, won) = roll(
        game,
        rules,
        hooks,
        attacker,
        Target::Token(token),
        structure,
        power_blow,
    )?;
    let damage = damage_for(rules, won, power_blow);
    let roll_seq = game.last_seq();
    let (integrity, destroyed) =
        game.caused_by(roll_seq, |game| damage_barricade(game, token, damage, None))?;
    report.building = format!("Barricade {}", token.0);
    report.damage = damage;
    report.integrity = integrity;
    report.destroyed = destroyed;
    Ok(report)
}

fn damage_for(rules: &Rules, won: bool, power_blow: bool) -> i32 {
    let k = &rules.structures;
    match (won, power_blow) {
        (false, _) => 0,
        (true, false) => k.damage as i32,
        (true, true) => k.power_blow_damage as i32,
    }
}

/// The opposed roll of a structural attack: D6 + Combat (+ the size bonus) against D6 + Structure.
fn roll(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    attacker: ModelId,
    target: Target,
    structure: i32,
    power_blow: bool,
) -> Result<(StructuralReport, bool), RuleError> {
    let a = game.model(attacker)?.clone();
    let mut mods = Vec::new();
    // The Big/Huge/Heavy Weapon bonus comes from those traits' scripts (`structural_modifier`).
    if power_blow {
        mods.push(Modifier::rule(
            Role::Defender,
            rules.melee.power_blow,
            "Power Blow",
        ));
    }
    let info = RollInfo {
        kind: RollKind::Structural,
        attacker,
        target: target.clone(),
        power_blow,
        aimed: false,
        free_hack: false,
    };
    mods.extend(hooks.roll_modifiers(game, &info)?);
    let dice = game.roll("structural", Some(attacker), 2);
    let (ad, bd) = (dice[0].face, dice[1].face);
    let at = i32::from(ad) + a.combat + total_for(&mods, Role::Attacker);
    let bt = i32::from(bd) + structure + total_for(&mods, Role::Defender);
    let won = at > bt;
    game.record(EventKind::Combat {
        kind: RollKind::Structural,
        attacker,
        target,
        attacker_die: ad,
        defender_die: bd,
        attacker_total: at,
        defender_total: bt,
        modifiers: mods.clone(),
        winner: match at.cmp(&bt) {
            std::cmp::Ordering::Greater => Some(Role::Attacker),
            std::cmp::Ordering::Less => Some(Role::Defender),
            std::cmp::Ordering::Equal => None,
        },
        result: if won {
            CombatResult::Defeated
        } else {
            CombatResult::None
        },
        lethal: None,
        gruesome_at: None,
        free_hack: false,
        reaction: game.outside_label(),
        shooters: Vec::new(),
    });
    Ok((
        StructuralReport {
            attacker,
            building: String::new(),
            attacker_die: ad,
            building_die: bd,
            attacker_total: at,
            building_total: bt,
            modifiers: mods,
            damage: 0,
            integrity: 0,
            destroyed: false,
        },
        won,
    ))
}

/// Remove `amount` Integrity from a Barricade; at 0 it is removed from the table. `source` names the
/// script that did it, when one did (Breach).
pub fn damage_barricade(
    game: &mut Game,
    token: TokenId,
    amount: i32,
    source: Option<String>,
) -> Result<(i32, bool), RuleError> {
    let i = game
        .tokens
        .iter()
        .position(|t| t.id == token)
        .ok_or(RuleError::NoToken(token.0))?;
    let TokenKind::Barricade { integrity, .. } = &mut game.tokens[i].kind else {
        return Err(RuleError::NoToken(token.0));
    };
    if amount <= 0 {
        return Ok((*integrity, false));
    }
    *integrity = (*integrity - amount).max(0);
    let left = *integrity;
    let destroyed = left == 0;
    if destroyed {
        game.tokens.remove(i);
    }
    game.record(EventKind::BarricadeDamage {
        token,
        amount,
        integrity: left,
        destroyed,
        source,
    });
    Ok((left, destroyed))
}

/// Place a fire token on an intact building (§6.4: an Igniter's action instead of attacking). The model
/// must be adjacent; a building holds at most one fire token.
pub fn ignite(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    id: ModelId,
    name: &str,
) -> Result<(), RuleError> {
    if hooks.permission(game, id, IGNITE)?.is_none() {
        let who = label(game.model(id)?);
        return Err(RuleError::NotAllowed(
            who,
            "place fire (only an Igniter may)",
        ));
    }
    if !game.igniters_burn {
        let who = label(game.model(id)?);
        return Err(RuleError::NotAllowed(
            who,
            "place fire in this wave (Igniters burn from Escalation II)",
        ));
    }
    let b = game.building(name)?.clone();
    if b.destroyed {
        return Err(RuleError::BuildingDestroyed(b.name));
    }
    if b.fire {
        return Err(RuleError::AlreadyBurning(b.name));
    }
    let a = game.model(id)?;
    let g = circle_rect_gap(&a.circle(), &b.rect);
    if g > rules.bases.contact_tolerance {
        return Err(RuleError::NotInContact {
            id,
            name: label(a),
            other: format!("the {}", b.name),
            gap: g,
        });
    }
    place_fire(game, name, Some(id), None)
}

/// Put a fire token on an intact building that has none, lit by `by` or by a script (`source`): an
/// error when it is Destroyed or already burning.
pub fn place_fire(
    game: &mut Game,
    name: &str,
    by: Option<ModelId>,
    source: Option<String>,
) -> Result<(), RuleError> {
    let b = game.building(name)?;
    if b.destroyed {
        return Err(RuleError::BuildingDestroyed(b.name.clone()));
    }
    if b.fire {
        return Err(RuleError::AlreadyBurning(b.name.clone()));
    }
    // A fire lit on a building Blessed against this activation never burns it (Temple II).
    let blessed = super::village::blessed(game, name);
    let bm = game.building_mut(name)?;
    bm.fire = true;
    bm.fire_blessed = blessed;
    let building = bm.name.clone();
    game.record(EventKind::Fire {
        building,
        lit: true,
        by,
        source,
    });
    Ok(())
}

/// Remove a building's fire token, put out by `by` or by a script (`source`); false when it had none.
pub fn put_out_fire(
    game: &mut Game,
    name: &str,
    by: Option<ModelId>,
    source: Option<String>,
) -> Result<bool, RuleError> {
    let bm = game.building_mut(name)?;
    if !bm.fire {
        return Ok(false);
    }
    bm.fire = false;
    bm.fire_blessed = false;
    let building = bm.name.clone();
    game.record(EventKind::Fire {
        building,
        lit: false,
        by,
        source,
    });
    Ok(true)
}

/// Remove `amount` Integrity from a building; at 0 remove its fire token and mark it Destroyed.
/// Returns the new Integrity and whether it is Destroyed. Logs a `damage` event when `amount > 0`.
/// While Temple II's Blessing protects the building ([`Game::blessed`]) nothing is removed and a
/// `building_ability` event says so.
pub fn damage_building(game: &mut Game, name: &str, amount: i32) -> Result<(i32, bool), RuleError> {
    let b = game.building(name)?;
    if amount <= 0 || b.destroyed {
        return Ok((b.integrity, b.destroyed));
    }
    if let Some(blessing) = game.blessed.clone().filter(|x| x.building == name) {
        let kept = (b.integrity, b.destroyed);
        game.record(EventKind::BuildingAbility {
            building: blessing.by,
            level: blessing.level,
            ability: super::village::names::BLESSING.to_string(),
            detail: format!("the {name} is Blessed: it ignores {amount} Integrity damage"),
            models: Vec::new(),
        });
        return Ok(kept);
    }
    let b = game.building_mut(name)?;
    b.integrity = (b.integrity - amount).max(0);
    if b.integrity == 0 {
        b.destroyed = true;
        b.fire = false;
    }
    let (integrity, destroyed) = (b.integrity, b.destroyed);
    game.record(EventKind::Damage {
        building: name.to_string(),
        amount,
        integrity,
        destroyed,
    });
    Ok((integrity, destroyed))
}
