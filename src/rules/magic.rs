//! Magic and conditions (§3.7): the Spell-caster's roll (three failures: out of power for the wave),
//! Power 1–3 with Short/Medium/Long range, no casting while Engaged or without sight, Resisted spells,
//! spells used as ranged attacks, healing, Walls and Summonings that vanish with their caster.
//!
//! These are the primitives spell scripts (`scripts/spells/*.lua`) call; the scripts decide.

use super::activation::AUTOMATIC_SUCCESS;
use super::error::RuleError;
use super::hooks::{Hooks, Modifier, Role};
use super::melee::CombatReport;
use super::query::{gap, is_engaged, label};
use super::ranged::{closer_with, cover_segments, engaged_elsewhere, resolve_ranged};
use crate::dice::ActivationRoll;
use crate::geometry::{sight_with_tol, Segment, Sight, Vec2};
use crate::roster::{Measure, Rosters, Rules, SpellKind};
use crate::state::{Condition, EventKind, Game, ModelId, Task, TokenId, TokenKind};

/// Traits whose models are not living: spells for the living have no effect on them.
pub const NOT_LIVING: &[&str] = &["Undead", "Artificial"];

/// The permission (granted by the Spellcaster trait's script) to cast the spells on its profile.
pub const CAST: &str = "cast";

/// The permission (granted by the Animal trait's script) that forbids magic, items and Opportunities.
pub const NO_MAGIC: &str = "no_magic";

/// The permission (granted by the Healer trait's script) to heal an adjacent friend.
pub const HEAL: &str = "heal";

/// A Healer's action (SUPPLEMENT §9): clear one condition from an adjacent friend, or heal one of its
/// Wounds. Returns the actions it costs (rules.toml `[actions]`).
pub fn healer_heal(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    healer: ModelId,
    target: ModelId,
    what: Heal,
) -> Result<u8, RuleError> {
    let h = game.model(healer)?;
    if hooks.permission(game, healer, HEAL)?.is_none() {
        return Err(RuleError::NotAllowed(label(h), "heal (it is not a Healer)"));
    }
    let t = game.model(target)?;
    if t.side != h.side || t.id == h.id {
        return Err(RuleError::Magic(format!(
            "{} heals a friend, not {}",
            label(h),
            label(t)
        )));
    }
    if !super::query::in_contact(rules, h, t) {
        return Err(RuleError::NotInContact {
            id: h.id,
            name: label(h),
            other: label(t),
            gap: gap(h, t),
        });
    }
    heal(game, rules, target, what)?;
    Ok(match what {
        Heal::Wound => rules.actions.heal_wound as u8,
        Heal::Condition(_) => rules.actions.heal_condition as u8,
    })
}

/// Whether the model may cast at all: a Spell-caster, and not an Animal.
pub fn may_cast(game: &Game, hooks: &dyn Hooks, id: ModelId) -> Result<(), RuleError> {
    let m = game.model(id)?;
    if hooks.permission(game, id, NO_MAGIC)?.is_some() {
        return Err(RuleError::NotAllowed(label(m), "use magic (an Animal)"));
    }
    if hooks.permission(game, id, CAST)?.is_none() {
        return Err(RuleError::NotAllowed(
            label(m),
            "cast (it is not a Spellcaster)",
        ));
    }
    Ok(())
}

/// A Spell-caster's activation (§3.7): declared before rolling; on as many failures as the rules say
/// (three) it is out of power for the rest of the wave.
pub fn cast_roll(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    id: ModelId,
    dice: u8,
) -> Result<ActivationRoll, RuleError> {
    let casters = casters(game, hooks, &[id])?;
    declare(game, &casters)?;
    let roll = super::activation::activate(game, rules, hooks, id, dice)?;
    after_declared_roll(game, rules, &casters, &roll)?;
    Ok(roll)
}

/// The models of an activation that may declare spellcasting (§3.7): Spell-casters that know a spell,
/// may use magic and are not out of power. An error naming why when none may (nothing changes).
pub fn casters(game: &Game, hooks: &dyn Hooks, ids: &[ModelId]) -> Result<Vec<ModelId>, RuleError> {
    let mut out = Vec::new();
    let mut why = None;
    for id in ids {
        let m = game.model(*id)?;
        let refusal = if m.spells.is_empty() {
            Some(RuleError::Magic(format!("{} knows no spell", label(m))))
        } else if m.out_of_power {
            Some(RuleError::Magic(format!(
                "{} is out of power this wave",
                label(m)
            )))
        } else {
            may_cast(game, hooks, *id).err()
        };
        match refusal {
            None => out.push(*id),
            Some(e) => why = why.or(Some(e)),
        }
    }
    match (out.is_empty(), why) {
        (true, Some(e)) => Err(e),
        (true, None) => Err(RuleError::Magic("no model to declare spellcasting".into())),
        _ => Ok(out),
    }
}

/// Declare spellcasting for `casters` before their activation roll (§3.7: "It must declare spellcasting
/// before rolling activation dice"): each may cast in this activation; logged `declared`.
pub fn declare(game: &mut Game, casters: &[ModelId]) -> Result<(), RuleError> {
    for id in casters {
        game.model_mut(*id)?.declared = true;
        game.record(EventKind::Declared { model: *id });
    }
    Ok(())
}

/// After the roll of an activation with declared casters: on as many failed dice as the rules say
/// (three; the dice rolled — a Hero's automatic success is not a die) each is out of power for the rest
/// of the wave (§3.7).
pub fn after_declared_roll(
    game: &mut Game,
    rules: &Rules,
    casters: &[ModelId],
    roll: &ActivationRoll,
) -> Result<(), RuleError> {
    if u32::from(roll.failures) < rules.magic.out_of_power_failures {
        return Ok(());
    }
    for id in casters {
        let m = game.model_mut(*id)?;
        m.out_of_power = true;
        m.declared = false;
        game.record(EventKind::OutOfPower { model: *id });
    }
    Ok(())
}

/// The range of a spell of `power` (1–3).
pub fn spell_range(rules: &Rules, power: u8) -> Result<f64, RuleError> {
    let i = usize::from(power.max(1)) - 1;
    match (power, rules.magic.power_ranges.get(i)) {
        (1..=3, Some(m)) => Ok(rules.measures.get(*m)),
        _ => Err(RuleError::Magic(format!(
            "Power must be 1 to 3, got {power}"
        ))),
    }
}

/// Check that `caster` may cast `spell` with `power` at `target` (§3.7): it knows the spell, is not out
/// of power, not Engaged, and sees the target within the Power's range. Returns the sight.
pub fn check_cast(
    game: &Game,
    rules: &Rules,
    caster: ModelId,
    spell: &str,
    power: u8,
    target: Option<ModelId>,
) -> Result<Sight, RuleError> {
    let c = game.model(caster)?;
    if !c.spells.iter().any(|s| s == spell) {
        return Err(RuleError::Magic(format!(
            "{} does not know {spell}",
            label(c)
        )));
    }
    if c.out_of_power {
        return Err(RuleError::Magic(format!(
            "{} is out of power this wave",
            label(c)
        )));
    }
    if is_engaged(game, rules, caster) {
        return Err(RuleError::Magic(format!(
            "{} is Engaged and cannot cast",
            label(c)
        )));
    }
    let range = spell_range(rules, power)?;
    let Some(t) = target else {
        return Ok(Sight::Clear);
    };
    let t = game.model(t)?;
    let d = gap(c, t).max(0.0);
    if d > range + 1e-9 {
        return Err(RuleError::Magic(format!(
            "{} is {d:.2}\" away: Power {power} reaches {range}\"",
            label(t)
        )));
    }
    let sight = if t.id == c.id {
        Sight::Clear
    } else {
        sight_with_tol(
            &game.table,
            &c.circle(),
            &t.circle(),
            &cover_segments(game),
            rules.bases.contact_tolerance,
        )
    };
    if sight == Sight::Blocked {
        return Err(RuleError::NoSight {
            shooter: label(c),
            target: label(t),
        });
    }
    Ok(sight)
}

fn log_spell(game: &mut Game, caster: ModelId, spell: &str, power: u8, target: Option<ModelId>) {
    log_cast(game, caster, spell, power, target, None);
}

/// Log that `caster` casts `spell` at `power`, naming the script that decides its effect.
pub fn log_cast(
    game: &mut Game,
    caster: ModelId,
    spell: &str,
    power: u8,
    target: Option<ModelId>,
    source: Option<&str>,
) {
    game.record(EventKind::Spell {
        caster,
        spell: spell.to_string(),
        power,
        target,
        source: source.map(str::to_string),
    });
}

/// One casting in progress (`g:cast`): who casts which spell at what Power. The primitives below check
/// every effect a spell script asks for against it: the spell must be of the primitive's kind, the Power
/// is the Power it was cast at, and each target must be in that Power's range and in sight.
#[derive(Debug, Clone, Copy)]
pub struct Casting<'s> {
    pub caster: ModelId,
    pub spell: &'s str,
    pub power: u8,
}

/// The roster entry of a spell, which must be of `kind` for the primitive `what`.
fn spell_of_kind<'r>(
    r: &'r Rosters,
    c: &Casting,
    kind: SpellKind,
    what: &str,
) -> Result<&'r crate::roster::Spell, RuleError> {
    let s = r
        .spell(c.spell)
        .ok_or_else(|| RuleError::Magic(format!("no spell called {:?} in the rosters", c.spell)))?;
    if !s.is(kind) {
        return Err(RuleError::Magic(format!(
            "{} is not of kind {kind:?}: it cannot {what}",
            c.spell
        )));
    }
    Ok(s)
}

/// The Power a primitive asked for must be the Power the spell was cast at (the actions spent).
fn same_power(c: &Casting, asked: u8) -> Result<(), RuleError> {
    if asked != c.power {
        return Err(RuleError::Magic(format!(
            "{} was cast at Power {}; the effect asked for Power {asked}",
            c.spell, c.power
        )));
    }
    Ok(())
}

/// A Ritual spell (§3.7) is a Task of the roster's `ritual_actions`: spend `actions` on it. The effect
/// happens when the returned Task is complete (`done == needed`).
pub fn work_ritual(
    game: &mut Game,
    r: &Rosters,
    caster: ModelId,
    spell: &str,
    actions: u8,
) -> Result<Task, RuleError> {
    let c = Casting {
        caster,
        spell,
        power: actions,
    };
    let s = spell_of_kind(r, &c, SpellKind::Ritual, "be worked as a Task")?;
    let needed = s
        .ritual_actions
        .and_then(|n| u8::try_from(n).ok())
        .ok_or_else(|| RuleError::Magic(format!("{spell} has no usable ritual_actions")))?;
    super::activation::work_task(game, caster, spell, needed, actions)
}

/// A Resisted spell that Transfixes, cast through a script: the target must be in range and sight.
pub fn cast_transfix(
    game: &mut Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    c: Casting,
    target: ModelId,
    power: u8,
) -> Result<bool, RuleError> {
    spell_of_kind(r, &c, SpellKind::Resisted, "Transfix")?;
    same_power(&c, power)?;
    check_cast(game, &r.rules, c.caster, c.spell, c.power, Some(target))?;
    transfix_effect(game, &r.rules, hooks, c.caster, target, c.power)
}

/// An attack spell cast through a script (Combat = Power, the ranged-attack rules).
pub fn cast_attack(
    game: &mut Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    c: Casting,
    target: ModelId,
    power: u8,
) -> Result<CombatReport, RuleError> {
    spell_of_kind(r, &c, SpellKind::Attack, "be used as a ranged attack")?;
    same_power(&c, power)?;
    spell_attack_inner(game, r, hooks, c.caster, c.spell, target, c.power, false)
}

/// A healing spell cast through a script: one Wound or one condition on a living model in range.
/// Returns what was healed ("a Wound", "defenseless cleared").
pub fn cast_heal(
    game: &mut Game,
    r: &Rosters,
    c: Casting,
    target: ModelId,
    what: Heal,
) -> Result<String, RuleError> {
    let s = spell_of_kind(r, &c, SpellKind::Healing, "heal")?;
    check_cast(game, &r.rules, c.caster, c.spell, c.power, Some(target))?;
    if s.living_only {
        living(game, target)?;
    }
    heal_inner(game, &r.rules, target, what)
}

/// A Wall spell cast through a script: the roster's wall from `a` toward `b`.
pub fn cast_wall(
    game: &mut Game,
    r: &Rosters,
    c: Casting,
    a: Vec2,
    b: Vec2,
    power: u8,
) -> Result<TokenId, RuleError> {
    same_power(&c, power)?;
    wall_inner(game, r, c.caster, c.spell, c.power, a, b, false)
}

/// A Summoning (§3.7) cast through a script: a model of `profile` placed at `at`, wholly within
/// `within` of the caster, on the caster's side and in its Group, `summoned_by` the caster so it
/// vanishes when the caster leaves the table.
pub fn summon(
    game: &mut Game,
    r: &Rosters,
    c: Casting,
    profile: &str,
    at: Vec2,
    within: Measure,
) -> Result<ModelId, RuleError> {
    spell_of_kind(r, &c, SpellKind::Summoning, "summon")?;
    check_cast(game, &r.rules, c.caster, c.spell, c.power, None)?;
    let p = r
        .profile(profile)
        .ok_or_else(|| RuleError::Magic(format!("no profile called {profile:?} in the rosters")))?;
    let caster = game.model(c.caster)?;
    let mut m = crate::state::model_from_profile(p, r, at);
    m.side = caster.side;
    m.group = caster.group;
    m.summoned_by = Some(c.caster);
    // It arrives during its side's turn, after the start that makes models Active (§3.1).
    m.active = false;
    let range = r.rules.measures.get(within);
    let d = gap(caster, &m).max(0.0);
    if d > range + 1e-9 {
        return Err(RuleError::Magic(format!(
            "{profile} would stand {d:.2}\" from {}: {} must be within {range}\"",
            label(caster),
            c.spell
        )));
    }
    if let Some(why) = super::query::placement_problem(game, &m.circle()) {
        return Err(RuleError::Magic(format!(
            "cannot summon {profile} at ({:.2}, {:.2}): {why}",
            at.x, at.y
        )));
    }
    let id = game.add_model(m);
    game.record(EventKind::Summoned {
        model: id,
        caster: c.caster,
        spell: c.spell.to_string(),
    });
    Ok(id)
}

/// A dispel (Break Enchantment) cast through a script: remove one Enchantment from a model in range.
///
/// An Enchantment is a lasting effect of a spell of kind `enchantment`. The kernel's state records no
/// such effect: Transfix holds a model through `transfixed_by` but is a Resisted spell, Walls and
/// Summonings are their own kinds, and no supplied spell is an Enchantment. So the dispel is checked
/// (kind, range, sight), logged, and finds nothing: it returns `None`.
pub fn dispel(
    game: &mut Game,
    r: &Rosters,
    c: Casting,
    target: ModelId,
) -> Result<Option<String>, RuleError> {
    spell_of_kind(r, &c, SpellKind::Dispel, "dispel")?;
    check_cast(game, &r.rules, c.caster, c.spell, c.power, Some(target))?;
    let dispelled: Option<String> = None;
    game.record(EventKind::Dispel {
        caster: c.caster,
        target,
        spell: c.spell.to_string(),
        dispelled: dispelled.clone(),
    });
    Ok(dispelled)
}

/// A Resisted spell's test (§3.7): the target rolls one Quality die per Power; any failure and the spell
/// takes hold. (A Hero passes a one-die check automatically.)
pub fn resist(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    target: ModelId,
    power: u8,
) -> Result<bool, RuleError> {
    let hero = hooks.permission(game, target, AUTOMATIC_SUCCESS)?.is_some();
    let q = game.model(target)?.quality;
    let (dice, took_hold) = if power == 1 && hero {
        (Vec::new(), false)
    } else {
        let faces: Vec<u8> = game
            .roll("resist", Some(target), usize::from(power))
            .iter()
            .map(|d| d.face)
            .collect();
        let dice = rules.activation.roll_rules();
        let hold = faces.iter().any(|&f| !dice.succeeds(f, q, 0));
        (faces, hold)
    };
    game.record(EventKind::Resisted {
        model: target,
        dice,
        took_hold,
    });
    Ok(took_hold)
}

/// Transfix (§3.7): a Resisted spell; on any failure the target is Transfixed, held by the caster.
pub fn transfix(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    caster: ModelId,
    target: ModelId,
    power: u8,
) -> Result<bool, RuleError> {
    check_cast(game, rules, caster, "Transfix", power, Some(target))?;
    log_spell(game, caster, "Transfix", power, Some(target));
    transfix_effect(game, rules, hooks, caster, target, power)
}

/// The target resists; on any failure it is Transfixed, held by the caster.
fn transfix_effect(
    game: &mut Game,
    rules: &Rules,
    hooks: &dyn Hooks,
    caster: ModelId,
    target: ModelId,
    power: u8,
) -> Result<bool, RuleError> {
    let hold = resist(game, rules, hooks, target, power)?;
    if hold {
        super::outcome::add_condition(game, target, Condition::Transfixed)?;
        game.model_mut(target)?.transfixed_by = Some(caster);
    }
    Ok(hold)
}

/// A spell used as a ranged attack (Fireball): Combat equal to its Power, the ranged-attack rules.
pub fn spell_attack(
    game: &mut Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    caster: ModelId,
    spell: &str,
    target: ModelId,
    power: u8,
) -> Result<CombatReport, RuleError> {
    spell_attack_inner(game, r, hooks, caster, spell, target, power, true)
}

#[allow(clippy::too_many_arguments)]
fn spell_attack_inner(
    game: &mut Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    caster: ModelId,
    spell: &str,
    target: ModelId,
    power: u8,
    log: bool,
) -> Result<CombatReport, RuleError> {
    let rules = &r.rules;
    let sight = check_cast(game, rules, caster, spell, power, Some(target))?;
    attack_checks(game, r, hooks, caster, spell, power, target)?;
    let t = game.model(target)?.clone();
    let mut mods = Vec::new();
    if sight == Sight::Cover {
        mods.push(Modifier::rule(
            Role::Attacker,
            rules.ranged.cover,
            "target in Cover",
        ));
    }
    if t.has(Condition::Defenseless) || t.has(Condition::Transfixed) {
        mods.push(Modifier::rule(
            Role::Attacker,
            rules.ranged.defenseless,
            "target Defenseless or Transfixed",
        ));
    }
    if log {
        log_spell(game, caster, spell, power, Some(target));
    }
    resolve_ranged(
        game,
        r,
        hooks,
        caster,
        target,
        i32::from(power),
        mods,
        None,
        false,
        &[],
    )
}

/// The ranged-attack rules a spell used as an attack follows (§3.7, §3.5): an enemy, not Engaged with
/// another model, and the closest legal target at this Power unless the caster may ignore that rule.
fn attack_checks(
    game: &Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    caster: ModelId,
    spell: &str,
    power: u8,
    target: ModelId,
) -> Result<(), RuleError> {
    let (c, t) = (game.model(caster)?, game.model(target)?);
    if c.side == t.side {
        return Err(RuleError::SameSide(label(t)));
    }
    super::ranged::behaviour_allows_ranged(r, c)?;
    if engaged_elsewhere(game, &r.rules, t) {
        return Err(RuleError::TargetEngaged(label(t)));
    }
    if hooks
        .permission(game, caster, "ignore_closest_target")?
        .is_none()
    {
        if let Some(closer) = closer_spell_target(game, r, caster, spell, power, target)? {
            return Err(RuleError::NotClosest {
                shooter: label(c),
                target: label(t),
                closer: label(game.model(closer)?),
            });
        }
    }
    Ok(())
}

/// The closest-target rule (§3.5) for `spell` cast as a ranged attack at `power` (§3.7: it "follows
/// ranged-attack rules"): the closer enemy the caster could attack with the same Power — within its
/// range, in clear sight, not Engaged with another model — that forbids `target`, if any. As for a
/// shooter, a Defenseless enemy or one worth less than half the caster's cost may be ignored (and one in
/// Cover), and a Big or Huge target may always be chosen; a farther Defenseless enemy is never preferred
/// to a closer one that may not be ignored. Whoever chose the target (a Behaviour, the policy, the REPL),
/// the kernel refuses it.
pub fn closer_spell_target(
    game: &Game,
    r: &Rosters,
    caster: ModelId,
    spell: &str,
    power: u8,
    target: ModelId,
) -> Result<Option<ModelId>, RuleError> {
    closer_with(game, r, caster, target, |e| {
        let clear = matches!(
            check_cast(game, &r.rules, caster, spell, power, Some(e)),
            Ok(Sight::Clear)
        );
        Ok(clear && !engaged_elsewhere(game, &r.rules, game.model(e)?))
    })
}

/// Whether `caster` may cast `spell` at `power` at `target` now, as a cast would be checked, changing
/// nothing (`ctx:can_cast`): the spell known and castable (§3.7: not out of power, not Engaged, range
/// and sight, magic allowed), and by its kind — an attack follows the ranged-attack rules, a Resisted
/// spell and a dispel need a target model, healing a living one. A Wall's endpoints are checked when
/// it is cast.
pub fn may_cast_at(
    game: &Game,
    r: &Rosters,
    hooks: &dyn Hooks,
    caster: ModelId,
    spell: &str,
    power: u8,
    target: Option<ModelId>,
) -> Result<(), RuleError> {
    check_cast(game, &r.rules, caster, spell, power, target)?;
    may_cast(game, hooks, caster)?;
    let s = r
        .spell(spell)
        .ok_or_else(|| RuleError::Magic(format!("no spell called {spell:?} in the rosters")))?;
    let needs_target =
        s.is(SpellKind::Attack) || s.is(SpellKind::Resisted) || s.is(SpellKind::Dispel);
    match target {
        None if needs_target => Err(RuleError::Magic(format!("{spell} needs a target model"))),
        Some(t) if s.is(SpellKind::Attack) => {
            attack_checks(game, r, hooks, caster, spell, power, t)
        }
        // "A spell that affects only living targets has no effect on Undead or Artificial models."
        Some(t) if s.living_only => living(game, t),
        _ => Ok(()),
    }
}

/// What a healing use removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Heal {
    /// One Wound (Quality improves by the Wound's loss).
    Wound,
    /// One condition.
    Condition(Condition),
}

/// Heal one living model (§3.7): clear one condition or heal one Wound (a Healer's or a Potion's
/// healing). Errors when there is nothing of that kind to heal or the model is not living.
pub fn heal(game: &mut Game, rules: &Rules, target: ModelId, what: Heal) -> Result<(), RuleError> {
    living(game, target)?;
    heal_inner(game, rules, target, what).map(|_| ())
}

/// Refuse a model that is not living (Undead, Artificial).
fn living(game: &Game, target: ModelId) -> Result<(), RuleError> {
    let t = game.model(target)?;
    match NOT_LIVING.iter().find(|k| t.has_trait(k)) {
        Some(kind) => Err(RuleError::Magic(format!(
            "{} is {kind}, not living",
            label(t)
        ))),
        None => Ok(()),
    }
}

fn heal_inner(
    game: &mut Game,
    rules: &Rules,
    target: ModelId,
    what: Heal,
) -> Result<String, RuleError> {
    let name = label(game.model(target)?);
    let m = game.model_mut(target)?;
    let cleared = match what {
        Heal::Condition(c) => Some(c),
        Heal::Wound => None,
    };
    let what = match what {
        Heal::Wound => {
            if m.wounds == 0 {
                return Err(RuleError::Magic(format!("{name} has no Wound")));
            }
            m.wounds -= 1;
            m.quality = m
                .quality
                .saturating_sub(rules.tough.quality_loss_per_wound)
                .max(m.profile_quality);
            "a Wound".to_string()
        }
        Heal::Condition(c) => {
            if !m.remove_condition(c) {
                return Err(RuleError::Magic(format!("{name} is not {}", c.as_str())));
            }
            if c == Condition::Transfixed {
                m.transfixed_by = None;
            }
            if c == Condition::Entangled {
                m.entangled_by = None;
            }
            format!("{} cleared", c.as_str())
        }
    };
    game.record(EventKind::Healed {
        model: target,
        what: what.clone(),
        condition: cleared,
    });
    Ok(what)
}

/// A Wall spell (Thorn Wall): a linear obstacle from `a` toward `b` of the spell's length, with its own
/// Integrity and Structure, until the wave ends or its caster is Defeated. Both ends must be within the
/// Power's range of the caster.
pub fn wall(
    game: &mut Game,
    r: &Rosters,
    caster: ModelId,
    spell: &str,
    power: u8,
    a: Vec2,
    b: Vec2,
) -> Result<TokenId, RuleError> {
    wall_inner(game, r, caster, spell, power, a, b, true)
}

#[allow(clippy::too_many_arguments)]
fn wall_inner(
    game: &mut Game,
    r: &Rosters,
    caster: ModelId,
    spell: &str,
    power: u8,
    a: Vec2,
    b: Vec2,
    log: bool,
) -> Result<TokenId, RuleError> {
    let rules = &r.rules;
    check_cast(game, rules, caster, spell, power, None)?;
    let stats = r
        .spell(spell)
        .and_then(|s| s.wall.clone())
        .ok_or_else(|| RuleError::Magic(format!("{spell} is not a Wall spell")))?;
    let dir = b - a;
    if dir.len() < 1e-9 {
        return Err(RuleError::Magic("a wall needs two different points".into()));
    }
    let end = a + dir.normalized() * stats.length;
    let range = spell_range(rules, power)?;
    let c = game.model(caster)?.circle();
    for p in [a, end] {
        let d = (p.dist(c.c) - c.r).max(0.0);
        if d > range + 1e-9 {
            return Err(RuleError::Magic(format!(
                "the wall's end is {d:.2}\" away: Power {power} reaches {range}\""
            )));
        }
    }
    if log {
        log_spell(game, caster, spell, power, None);
    }
    let segment = Segment::new(a, end);
    let token = game.add_token(
        TokenKind::Barricade {
            segment,
            integrity: stats.integrity as i32,
            structure: stats.structure as i32,
            caster: Some(caster),
            // SBH: a flier "can move above obstacles"; the rulebook's Wall is a linear obstacle.
            flying_ignores: true,
        },
        a.lerp(end, 0.5),
    );
    game.record(EventKind::WallRaised {
        token,
        caster,
        spell: spell.to_string(),
        line: [segment.a, segment.b],
        integrity: stats.integrity as i32,
    });
    Ok(token)
}

/// What one action of breaking free did (§3.7): which condition, the Task's progress, and whether it is
/// broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BreakFree {
    pub condition: Condition,
    pub done: u8,
    pub needed: u8,
    pub freed: bool,
}

/// One action of breaking free (§3.7: "spends two actions to break free"; SUPPLEMENT §3 `break_free`):
/// a Task of `actions.break_free` actions (§3.1 names "breaking a harpoon loose" as a Task), so a model
/// allowed one action an activation (Mindless, Guardian) breaks free over two. A Transfix is broken
/// first, then an Entangle; when the Task completes the condition and its hold end.
pub fn break_free(game: &mut Game, rules: &Rules, id: ModelId) -> Result<BreakFree, RuleError> {
    let m = game.model(id)?;
    let condition = if m.has(Condition::Transfixed) {
        Condition::Transfixed
    } else if m.has(Condition::Entangled) {
        Condition::Entangled
    } else {
        return Err(RuleError::Magic(format!(
            "{} is neither Transfixed nor Entangled",
            label(m)
        )));
    };
    let needed = u8::try_from(rules.actions.break_free.max(1)).unwrap_or(u8::MAX);
    let name = format!("break free of {}", condition.as_str());
    let t = super::activation::work_task(game, id, &name, needed, 1)?;
    let freed = t.done >= needed;
    if freed {
        let m = game.model_mut(id)?;
        m.remove_condition(condition);
        match condition {
            Condition::Transfixed => m.transfixed_by = None,
            Condition::Entangled => m.entangled_by = None,
            Condition::Defenseless => {}
        }
        game.record(EventKind::Condition {
            model: id,
            condition,
            added: false,
        });
    }
    Ok(BreakFree {
        condition,
        done: t.done,
        needed,
        freed,
    })
}

/// When a model leaves the table, what it held ends (§3.7): models it Transfixed break free, models it
/// Entangled are freed, its Summonings vanish and its Walls fall.
pub fn release_links(game: &mut Game, gone: ModelId) {
    let mut freed = Vec::new();
    let mut vanished = Vec::new();
    for m in game.models.iter_mut() {
        if m.transfixed_by == Some(gone) {
            m.transfixed_by = None;
            if m.remove_condition(Condition::Transfixed) {
                freed.push((m.id, Condition::Transfixed));
            }
        }
        if m.entangled_by == Some(gone) {
            m.entangled_by = None;
            if m.remove_condition(Condition::Entangled) {
                freed.push((m.id, Condition::Entangled));
            }
        }
        if m.summoned_by == Some(gone) {
            vanished.push(m.id);
        }
    }
    for (model, condition) in freed {
        game.record(EventKind::Condition {
            model,
            condition,
            added: false,
        });
    }
    end_walls(game, Some(gone), "its caster left the table");
    for id in vanished {
        let _ = game.remove_model(id, "vanished");
    }
}

/// Remove the Walls of `caster` (every Wall when `None`): "A wall remains until the end of the wave or
/// its caster is Defeated" (§3.7). Each is logged `wall_fallen` with the reason.
pub fn end_walls(game: &mut Game, caster: Option<ModelId>, reason: &str) {
    let fallen: Vec<TokenId> = game
        .tokens
        .iter()
        .filter(|t| {
            matches!(t.kind, TokenKind::Barricade { caster: Some(c), .. }
                if caster.is_none_or(|g| g == c))
        })
        .map(|t| t.id)
        .collect();
    game.tokens.retain(|t| !fallen.contains(&t.id));
    for token in fallen {
        game.record(EventKind::WallFallen {
            token,
            reason: reason.to_string(),
        });
    }
}

/// Take a model off the table and end what it held (Transfix, Entangle, Summonings, Walls).
pub fn remove(
    game: &mut Game,
    id: ModelId,
    reason: &str,
) -> Result<crate::state::Model, RuleError> {
    let m = game.remove_model(id, reason)?;
    release_links(game, id);
    Ok(m)
}
