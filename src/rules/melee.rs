//! Melee (§3.4): simultaneous opposed rolls with the modifiers of SUPPLEMENT §4, the results table,
//! Lethal cases, Free Hacks, and the result applied to whichever model lost.

use super::combat::CombatResult;
use super::error::RuleError;
use super::hooks::{Hooks, Modifier, Role, RollInfo, RollKind, Target, WinInfo};
use super::outcome;
use super::query::{engaged_enemies, gap, in_contact, label};
use crate::geometry::{on_hill, segments_intersect, Segment, TerrainShape};
use crate::roster::Rules;
use crate::state::{Condition, EventKind, Game, Model, ModelId};
use serde::{Deserialize, Serialize};

/// How a melee attack is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MeleeOptions {
    /// A 2-action Power Blow: the opponent's total takes the Power Blow modifier.
    pub power_blow: bool,
    /// A Free Hack: the target rolls only to stop the attacker and can never hurt it (§3.3).
    pub free_hack: bool,
    /// The attack is Lethal (any win defeats), as a fleeing model's Free Hacks are.
    pub lethal: bool,
    /// The attacker began the turn hidden from its target (§3.4).
    pub ambush: bool,
}

/// Everything a combat roll produced, as the API and the log report it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CombatReport {
    pub kind: RollKind,
    pub attacker: ModelId,
    pub target: Target,
    pub attacker_die: u8,
    pub defender_die: u8,
    pub attacker_total: i32,
    pub defender_total: i32,
    pub modifiers: Vec<Modifier>,
    pub winner: Option<Role>,
    /// The result read from the table.
    pub result: CombatResult,
    /// What happened to the loser once Tough, room to recoil and the like were applied.
    pub applied: CombatResult,
}

impl CombatReport {
    /// The winning and losing model ids, if a model won.
    pub fn winner_loser(&self) -> Option<(ModelId, ModelId)> {
        let Target::Model(d) = self.target else {
            return None;
        };
        match self.winner? {
            Role::Attacker => Some((self.attacker, d)),
            Role::Defender => Some((d, self.attacker)),
        }
    }
}

/// Sum of the modifiers to one role.
pub fn total_for(mods: &[Modifier], role: Role) -> i32 {
    mods.iter().filter(|m| m.to == role).map(|m| m.value).sum()
}

/// Whether a model lying in the way makes every win against it Lethal.
pub fn lethal_condition(m: &Model) -> Option<&'static str> {
    if m.has(Condition::Defenseless) {
        Some("the loser is Defenseless")
    } else if m.has(Condition::Transfixed) {
        Some("the loser is Transfixed")
    } else {
        None
    }
}

/// The modifiers of the SUPPLEMENT §4 melee table that depend on the situation rather than on traits
/// (traits add theirs through script hooks).
fn situational(
    game: &Game,
    rules: &Rules,
    a: &Model,
    d: &Model,
    o: &MeleeOptions,
) -> Vec<Modifier> {
    let k = &rules.melee;
    let mut mods = Vec::new();
    // Melee is simultaneous (§3.4): a Defenseless, Transfixed or Entangled model fights at a
    // disadvantage whoever declared the attack, and both modifiers apply when both conditions hold
    // (SUPPLEMENT §11). The model fighting it gets them: the attacker against such a target, the
    // defender against such an attacker.
    for (role, held, whose) in [
        (Role::Attacker, d, "target"),
        (Role::Defender, a, "attacker"),
    ] {
        if held.has(Condition::Defenseless) || held.has(Condition::Transfixed) {
            let reason = format!("{whose} Defenseless or Transfixed");
            mods.push(Modifier::rule(role, k.defenseless, &reason));
        }
        if held.has(Condition::Entangled) {
            mods.push(Modifier::rule(
                role,
                k.entangled,
                &format!("{whose} Entangled"),
            ));
        }
    }
    if o.power_blow {
        mods.push(Modifier::rule(Role::Defender, k.power_blow, "Power Blow"));
    }
    if o.ambush {
        mods.push(Modifier::rule(Role::Attacker, k.ambush, "Ambush"));
    }
    for (role, m) in [(Role::Attacker, a), (Role::Defender, d)] {
        let extra = engaged_enemies(game, rules, m.id).len().saturating_sub(1) as i32;
        if extra > 0 {
            let reason = format!("outnumbered by {} more", extra);
            mods.push(Modifier::rule(role, k.outnumbered * extra, &reason));
        }
    }
    if on_hill(&game.table, d.pos) && !on_hill(&game.table, a.pos) {
        mods.push(Modifier::rule(
            Role::Defender,
            k.obstacle_or_elevated,
            "defending elevated",
        ));
    } else if defends_obstacle(game, rules, a, d) {
        mods.push(Modifier::rule(
            Role::Defender,
            k.obstacle_or_elevated,
            "defending an obstacle",
        ));
    }
    mods
}

/// The defender touches a wall, hedge or Barricade that lies between it and the attacker.
fn defends_obstacle(game: &Game, rules: &Rules, a: &Model, d: &Model) -> bool {
    let line = Segment::new(a.pos, d.pos);
    let touching = |s: &Segment| {
        crate::geometry::circle_segment_gap(&d.circle(), s) <= rules.bases.contact_tolerance
            && segments_intersect(s, &line)
    };
    let walls = game.table.terrain.iter().filter_map(|t| match &t.shape {
        TerrainShape::Line(s) if t.kind.is_linear() => Some(*s),
        _ => None,
    });
    let barricades = game.tokens.iter().filter_map(|t| match &t.kind {
        crate::state::TokenKind::Barricade { segment, .. } => Some(*segment),
        _ => None,
    });
    walls.chain(barricades).any(|s| touching(&s))
}

/// Resolve one melee attack of `attacker` against the adjacent enemy `defender`.
pub fn melee(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    attacker: ModelId,
    defender: ModelId,
    o: MeleeOptions,
) -> Result<CombatReport, RuleError> {
    let a = game.model(attacker)?.clone();
    let d = game.model(defender)?.clone();
    if a.side == d.side {
        return Err(RuleError::SameSide(label(&d)));
    }
    if !in_contact(rules, &a, &d) {
        return Err(RuleError::NotInContact {
            id: a.id,
            name: label(&a),
            other: label(&d),
            gap: gap(&a, &d),
        });
    }
    let mut mods = situational(game, rules, &a, &d, &o);
    let info = RollInfo {
        kind: RollKind::Melee,
        attacker,
        target: Target::Model(defender),
        power_blow: o.power_blow,
        aimed: false,
        free_hack: o.free_hack,
    };
    mods.extend(hooks.roll_modifiers(game, &info)?);
    mods.extend(super::effects::modifiers(game, &info));

    let dice = game.roll("melee", Some(attacker), 2);
    let (ad, dd) = (dice[0].face, dice[1].face);
    let at = i32::from(ad) + a.combat + total_for(&mods, Role::Attacker);
    let dt = i32::from(dd) + d.combat + total_for(&mods, Role::Defender);
    let (winner, result, lethal, gruesome_at) = if at > dt {
        let base = lethal_condition(&d).map(str::to_string).or_else(|| {
            if o.lethal {
                Some("the attack is Lethal".to_string())
            } else if o.power_blow && rules.combat.power_blow_lethal {
                Some("a Power Blow is Lethal (rule constant combat.power_blow_lethal)".to_string())
            } else {
                None
            }
        });
        let (r, l, gm) = outcome::read_win(
            game,
            rules,
            hooks,
            RollKind::Melee,
            attacker,
            defender,
            ad,
            (at, dt),
            base,
            true,
        )?;
        (Some(Role::Attacker), r, l, gm)
    } else if dt > at {
        if o.free_hack {
            (Some(Role::Defender), CombatResult::None, None, None)
        } else {
            let base = lethal_condition(&a).map(str::to_string);
            let (r, l, gm) = outcome::read_win(
                game,
                rules,
                hooks,
                RollKind::Melee,
                defender,
                attacker,
                dd,
                (dt, at),
                base,
                false,
            )?;
            (Some(Role::Defender), r, l, gm)
        }
    } else {
        (None, CombatResult::Tie, None, None)
    };
    game.record(EventKind::Combat {
        kind: RollKind::Melee,
        attacker,
        target: Target::Model(defender),
        attacker_die: ad,
        defender_die: dd,
        attacker_total: at,
        defender_total: dt,
        modifiers: mods.clone(),
        winner,
        result,
        lethal,
        gruesome_at,
        free_hack: o.free_hack,
        reaction: game.outside_label(),
        shooters: Vec::new(),
    });
    // Everything the result does (Recoil, Wound, removal, the morale checks a Gruesome Kill sets off)
    // is this roll's consequence in the log.
    let roll_seq = game.last_seq();
    let applied = game.caused_by(roll_seq, |game| match winner {
        Some(role) if result != CombatResult::None => {
            let (w, l, wpos, wdie, wt, lt) = if role == Role::Attacker {
                (attacker, defender, a.pos, ad, at, dt)
            } else {
                (defender, attacker, d.pos, dd, dt, at)
            };
            let info = WinInfo {
                kind: RollKind::Melee,
                winner: w,
                loser: l,
                winner_die: wdie,
                winner_total: wt,
                loser_total: lt,
                result,
                attacker_won: role == Role::Attacker,
            };
            outcome::settle(game, rules, hooks, &info, wpos)
        }
        _ => Ok(result),
    })?;
    Ok(CombatReport {
        kind: RollKind::Melee,
        attacker,
        target: Target::Model(defender),
        attacker_die: ad,
        defender_die: dd,
        attacker_total: at,
        defender_total: dt,
        modifiers: mods,
        winner,
        result,
        applied,
    })
}
