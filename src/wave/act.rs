//! One action (core §6.2): the model's Behaviour script (or, for the heroes' side, the hero policy) says
//! what to do; the kernel validates and executes the order — a melee, a shot, a structural attack, a
//! fire, one straight leg of the shortest legal route, leaving the table, claiming an Opportunity or
//! using an item (those two in [`super::opportunity`]).
//!
//! Scripts decide, Rust executes: an order the rules refuse is an error naming the reason, and nothing
//! is applied.

use crate::geometry::{Goal, Route};
use crate::roster::Rosters;
use crate::rules::hooks::{Aim, CostChange, Hooks, Order};
use crate::rules::melee::{melee, CombatReport, MeleeOptions};
use crate::rules::movement::{move_with, MoveOptions, MoveReport};
use crate::rules::ranged::{shoot, ShotOptions};
use crate::rules::structural::{ignite, structural, StructuralReport};
use crate::rules::RuleError;
use crate::state::{Game, ModelId};
use serde::Serialize;

/// What one enemy action did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "did", rename_all = "snake_case")]
pub enum ActionReport {
    /// The action was lost (nothing to aim at, nothing useful to do, no route), and why.
    Lost {
        why: String,
    },
    Melee {
        report: CombatReport,
    },
    Shoot {
        report: CombatReport,
    },
    Structural {
        report: StructuralReport,
    },
    Ignite {
        building: String,
    },
    Moved {
        report: MoveReport,
    },
    /// It left the table by an edge.
    Left,
    /// A hero claimed an Opportunity (core §6.1).
    Claimed {
        report: super::opportunity::ClaimReport,
    },
    /// A hero used an item it carries.
    Used {
        report: super::opportunity::UseReport,
    },
    /// A Defenseless model not Engaged spent the action standing up (SUPPLEMENT §3).
    StoodUp,
    /// A Healer worked on an adjacent friend: `done` of `needed` actions; `healed` once complete.
    Healed {
        target: ModelId,
        done: u8,
        needed: u8,
        healed: bool,
    },
    /// A spell was cast (§3.7): its script, and a Ritual's Task progress.
    Cast {
        report: crate::rules::hooks::CastReport,
    },
    /// A Transfixed or Entangled model worked at breaking free (§3.7): a Task of `done` of `needed`
    /// actions; `freed` once complete.
    BrokeFree {
        condition: crate::state::Condition,
        done: u8,
        needed: u8,
        freed: bool,
    },
    /// A scripted action (Field Repairs, Smother, Fire Breath): its script, a Task's progress when it
    /// is one, and whether it ran (a Task runs once complete).
    Ability {
        name: String,
        source: String,
        task: Option<(u8, u8)>,
        ran: bool,
    },
}

/// SUPPLEMENT §3: "A Defenseless model that is Engaged may still fight; one that is not Engaged spends
/// its first action standing up." The turn engine calls this before asking for an order: it stands the
/// model up (the action is spent) when it must.
pub fn stand_up_first(
    game: &mut Game,
    rules: &crate::roster::Rules,
    id: ModelId,
) -> Result<Option<ActionReport>, RuleError> {
    use crate::state::Condition;
    let m = game.model(id)?;
    if !m.has(Condition::Defenseless) || crate::rules::query::is_engaged(game, rules, id) {
        return Ok(None);
    }
    game.model_mut(id)?.remove_condition(Condition::Defenseless);
    game.record(crate::state::EventKind::Condition {
        model: id,
        condition: Condition::Defenseless,
        added: false,
    });
    Ok(Some(ActionReport::StoodUp))
}

/// What a model's next action will be: an order to execute, or an action already settled (it stood up,
/// or its Behaviour had nothing to do).
pub enum Step {
    Order(Order),
    /// An order of a plan with more of its orders to come: the plan's decision stays under way (the
    /// events of its later orders are what it led to as well).
    Planned(Order),
    Done(ActionReport),
}

/// The next action of enemy `id` as its Behaviour orders it (standing up first when it must).
pub fn enemy_step(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
) -> Result<Step, RuleError> {
    game.model(id)?;
    if let Some(stood) = stand_up_first(game, &rosters.rules, id)? {
        return Ok(Step::Done(stood));
    }
    super::objective::keep(game, hooks, id)?;
    let Some(aim) = hooks.behaviour_target(game, id)? else {
        return Ok(Step::Done(ActionReport::Lost {
            why: "its Behaviour has no target".into(),
        }));
    };
    Ok(match hooks.behaviour_act(game, id, &aim)? {
        Some(order) => Step::Order(order),
        None => Step::Done(ActionReport::Lost {
            why: "its Behaviour found nothing useful to do".into(),
        }),
    })
}

/// One action of enemy `id`, as its Behaviour orders it (`g:act`: no action budget is kept).
pub fn enemy_action(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
) -> Result<ActionReport, RuleError> {
    match enemy_step(game, rosters, hooks, id)? {
        Step::Order(order) | Step::Planned(order) => execute(game, rosters, hooks, id, order),
        Step::Done(report) => Ok(report),
    }
}

/// The actions an order costs (SUPPLEMENT §3, `rules.actions`): a move, a step, a melee or ranged
/// attack, a structural attack or a fire one each, a Power Blow or an Aimed Shot two, a spell its Power.
/// Tasks (breaking free, a Healer's Wound, a claim taking more than one action, a scripted Task) are
/// worked one action at a time and complete when their stated number is spent.
pub fn order_cost(rules: &crate::roster::Rules, order: &Order) -> u8 {
    let a = &rules.actions;
    let n = match order {
        Order::Move(_) | Order::Approach { .. } | Order::Leave => a.move_,
        Order::Step(_) => a.step,
        Order::Melee(_) => a.melee,
        Order::PowerBlow(_) => a.power_blow,
        Order::Shoot(_) | Order::Concentrated { .. } => a.ranged,
        Order::AimedShot(_) => a.aimed_shot,
        Order::Structural(_) => a.structural_attack,
        Order::Ignite(_) => a.place_fire,
        // A spell costs its Power (§3.7).
        Order::Cast(c) => u32::from(c.power),
        Order::Claim(_)
        | Order::Use(_)
        | Order::Heal { .. }
        | Order::Ability { .. }
        | Order::BreakFree => 1,
    };
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// Why an order needing `cost` actions is not taken with `left`: a spell names its Power (§3.7).
pub fn short_of(order: &Order, cost: u8, left: u8) -> String {
    match order {
        Order::Cast(c) => format!("Power {} needs {cost} actions and {left} are left", c.power),
        _ => format!("the order needs {cost} actions and {left} are left"),
    }
}

/// A scripted action (an `actions` entry of the model's trait, signature or Alpha Rule): its `can` may
/// refuse it (the order is refused with its reason); a Task gains one action and runs once complete;
/// what `run` asks for is applied, and an `ability` event names the script.
fn ability(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    name: String,
    target: Option<crate::rules::hooks::AbilityTarget>,
) -> Result<ActionReport, RuleError> {
    let check = hooks.ability_check(game, id, &name, target.as_ref())?;
    if let Some(why) = check.refused {
        return Err(RuleError::Refused(why));
    }
    if check.attack {
        one_more_attack(game, &rosters.rules, id)?;
        count_attack(game, id);
    }
    let task = match check.task {
        Some(needed) if needed > 1 => {
            let t = crate::rules::activation::work_task(game, id, &name, needed, 1)?;
            Some((t.done, needed))
        }
        _ => None,
    };
    let ran = task.is_none_or(|(done, needed)| done >= needed);
    game.record(crate::state::EventKind::Ability {
        model: id,
        name: name.clone(),
        source: check.source.clone(),
        done: task.map(|t| t.0),
        needed: task.map(|t| t.1),
        ran,
    });
    if ran {
        let intents = hooks.ability_run(game, id, &name, target.as_ref())?;
        apply_action_intents(game, rosters, hooks, &intents)?;
    }
    Ok(ActionReport::Ability {
        name,
        source: check.source,
        task,
        ran,
    })
}

/// Apply what a scripted action's `run` asked for, in order: attacks (resolved as ranged attacks are)
/// and summonings (at the nearest free spot) here, where the rosters and the deployment grid are known;
/// the other changes as any hook's.
fn apply_action_intents(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    intents: &[crate::rules::hooks::Intent],
) -> Result<(), RuleError> {
    use crate::rules::hooks::Intent;
    for i in intents {
        if crate::rules::end::game_over(game, &rosters.rules) {
            break;
        }
        match i {
            Intent::Attack {
                attacker,
                target,
                combat,
                reason,
                source,
            } => {
                // Either may have left the table since `run` asked (an earlier attack of the same run).
                let (Ok(a), Ok(_)) = (game.model(*attacker), game.model(*target)) else {
                    continue;
                };
                let shown = crate::state::Modifier {
                    to: crate::state::Role::Attacker,
                    value: 0,
                    reason: format!("{reason} (Combat {combat} instead of {})", a.combat),
                    source: source.clone(),
                };
                crate::rules::ranged::resolve_ranged(
                    game,
                    rosters,
                    hooks,
                    *attacker,
                    *target,
                    *combat,
                    vec![shown],
                    None,
                    false,
                    &[],
                )?;
            }
            Intent::Summon {
                summoner,
                profile,
                within,
                source,
            } => summon(game, rosters, *summoner, profile, *within, source)?,
            other => crate::rules::outcome::apply_intents(
                game,
                &rosters.rules,
                hooks,
                std::slice::from_ref(other),
            )?,
        }
    }
    Ok(())
}

/// A model of `profile` joins `summoner`'s side and Group at the nearest free spot wholly within
/// `within` of it (an error naming the script when there is none), logged `summoned`.
fn summon(
    game: &mut Game,
    rosters: &Rosters,
    summoner: ModelId,
    profile: &str,
    within: f64,
    source: &str,
) -> Result<(), RuleError> {
    let p = rosters.profile(profile).ok_or_else(|| {
        RuleError::Reward(format!(
            "{source}: no profile called {profile:?} in the rosters"
        ))
    })?;
    let s = game.model(summoner)?.clone();
    let mut m = crate::state::model_from_profile(p, rosters, s.pos);
    let tol = rosters.rules.bases.contact_tolerance;
    // Wholly within `within` of the summoner's base: centre distance plus the new base's radius.
    let reach = within + s.base / 2.0 + m.base;
    let Some(at) = super::deploy::spots_near(game, s.pos, reach, m.base / 2.0, 1, tol)
        .into_iter()
        .next()
    else {
        return Err(RuleError::Reward(format!(
            "{source}: no free spot for a {profile} within {within}\" of {}",
            crate::rules::query::label(&s)
        )));
    };
    m.pos = at;
    m.side = s.side;
    m.group = s.group;
    m.behaviour = s.behaviour.clone();
    m.objective = s.objective.clone();
    m.summoned_by = Some(summoner);
    // It arrives during its side's turn, after the start that makes models Active (§3.1).
    m.active = false;
    let id = game.add_model(m);
    game.record(crate::state::EventKind::Summoned {
        model: id,
        caster: summoner,
        spell: source.to_string(),
    });
    Ok(())
}

/// What `order` costs model `id`: the rulebook's [`order_cost`], or what one of its scripts lowers it
/// to (Called Shot), with the change to [`pay`] once the order is carried out.
pub fn cost_of(
    game: &Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    order: &Order,
) -> Result<(u8, Option<CostChange>), RuleError> {
    if free_throw_target(game, rosters, id, order).is_some() {
        return Ok((0, None));
    }
    let cost = order_cost(&rosters.rules, order);
    Ok(match hooks.order_cost(game, id, order, cost)? {
        Some(c) if c.cost < cost => (c.cost, Some(c)),
        _ => (cost, None),
    })
}

/// Spend the limited use a lowered cost uses, once its order was carried out (logged as `spent`); a
/// malformed or already-spent key is the script's error, named with its file.
pub fn pay(game: &mut Game, change: Option<&CostChange>) -> Result<(), RuleError> {
    if let Some(CostChange {
        spend: Some(key),
        source,
        ..
    }) = change
    {
        game.spend_use(key, source)
            .map_err(|why| RuleError::Reward(format!("{source}: order_cost: {why}")))?;
    }
    Ok(())
}

/// Execute one order for model `id`. A move action by a model whose weapon may be thrown for free
/// after moving closer (Javelins, §3.5) leaves that throw ready for its next order
/// ([`free_throw_target`]); any other order uses it up or lets it go.
pub fn execute(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    order: Order,
) -> Result<ActionReport, RuleError> {
    let from = game.model(id)?.pos;
    let moving = matches!(order, Order::Move(_) | Order::Approach { .. });
    let report = execute_order(game, rosters, hooks, id, order)?;
    let ready = moving && throws_free(game, rosters, id);
    if let Ok(m) = game.model_mut(id) {
        m.free_throw_from = ready.then_some(from);
    }
    Ok(report)
}

/// A model whose Behaviour never voluntarily disengages (Mindless, §6.3: the roster's
/// `voluntary_disengage = false`) does not move while Engaged; compelled (morale) movement is not
/// voluntary and is not an order.
fn no_voluntary_disengage(game: &Game, rosters: &Rosters, id: ModelId) -> Result<(), RuleError> {
    let m = game.model(id)?;
    let stays = m
        .behaviour
        .as_deref()
        .and_then(|b| rosters.behaviour(b))
        .is_some_and(|b| !b.voluntary_disengage);
    if stays && crate::rules::query::is_engaged(game, &rosters.rules, id) {
        return Err(RuleError::NotAllowed(
            crate::rules::query::label(m),
            "move while Engaged (its Behaviour never voluntarily disengages, §6.3)",
        ));
    }
    Ok(())
}

/// Whether model `id` carries a ranged weapon that may be thrown for free after a move (`free_after_move`)
/// and can still use it.
fn throws_free(game: &Game, rosters: &Rosters, id: ModelId) -> bool {
    game.model(id).is_ok_and(|m| {
        !m.weapon_broken
            && m.weapon
                .as_deref()
                .and_then(|w| rosters.weapon(w))
                .is_some_and(|w| w.free_after_move)
    })
}

/// The target of a free throw, when `order` is one (§3.5): a plain shot by a model whose last move
/// action brought it closer to that target, with its one attack of the turn still to make.
pub fn free_throw_target(
    game: &Game,
    rosters: &Rosters,
    id: ModelId,
    order: &Order,
) -> Option<ModelId> {
    let Order::Shoot(t) = order else {
        return None;
    };
    let m = game.model(id).ok()?;
    let from = m.free_throw_from?;
    let target = game.model(*t).ok()?;
    let gap = |p: crate::geometry::Vec2| {
        crate::geometry::circle_circle_gap(
            &crate::geometry::Circle {
                c: p,
                r: m.base / 2.0,
            },
            &target.circle(),
        )
    };
    let closer = gap(m.pos) < gap(from) - 1e-9;
    (closer && u32::from(m.attacks) < rosters.rules.actions.attacks_per_turn).then_some(*t)
}

/// Whether a free throw is still to be had (the turn engine then asks for one more order, taken only
/// if it is that throw).
pub fn free_throw_ready(game: &Game, rosters: &Rosters, id: ModelId) -> bool {
    game.model(id).is_ok_and(|m| {
        m.free_throw_from.is_some() && u32::from(m.attacks) < rosters.rules.actions.attacks_per_turn
    })
}

fn execute_order(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    order: Order,
) -> Result<ActionReport, RuleError> {
    let rules = &rosters.rules;
    if let Some(cause) = crate::rules::end::halted(game, rules).and_then(|h| h.cause()) {
        return Err(RuleError::GameOver(cause.words()));
    }
    // Before anything is spent or moved: a NaN or off-table point never reaches geometry.
    order.check_input(&game.table)?;
    let moving = matches!(
        order,
        Order::Move(_) | Order::Approach { .. } | Order::Step(_) | Order::Leave
    );
    if moving {
        no_voluntary_disengage(game, rosters, id)?;
    }
    Ok(match order.clone() {
        Order::Melee(t) | Order::PowerBlow(t) => {
            one_more_attack(game, rules, id)?;
            let o = MeleeOptions {
                power_blow: matches!(order, Order::PowerBlow(_)),
                // §3.4: it began the turn fully hidden from its target.
                ambush: crate::rules::activation::began_hidden(game, id, t),
                ..MeleeOptions::default()
            };
            let report = melee(game, rules, hooks, id, t, o)?;
            count_attack(game, id);
            ActionReport::Melee { report }
        }
        Order::Shoot(t) | Order::AimedShot(t) => {
            one_more_attack(game, rules, id)?;
            let free = free_throw_target(game, rosters, id, &order).is_some();
            let weapon = game.model(id)?.weapon.clone().unwrap_or_default();
            let o = ShotOptions {
                aimed: matches!(order, Order::AimedShot(_)),
            };
            // A free throw is no action of the model's own: its roll says what made it (§3.5).
            let report = if free {
                let what = format!("a free {weapon} throw after moving closer (§3.5)");
                game.outside_action(&what, |g| shoot(g, rosters, hooks, id, t, o))?
            } else {
                shoot(game, rosters, hooks, id, t, o)?
            };
            if free {
                // Logged once the throw was made (a refused shot logs nothing).
                game.record(crate::state::EventKind::FreeThrow {
                    model: id,
                    target: t,
                    weapon,
                });
            }
            count_attack(game, id);
            ActionReport::Shoot { report }
        }
        Order::Structural(b) => ActionReport::Structural {
            report: structural(game, rules, hooks, id, &b, false)?,
        },
        Order::Ignite(b) => {
            ignite(game, rules, hooks, id, &b)?;
            ActionReport::Ignite { building: b }
        }
        Order::Leave => leave(game, rules, hooks, id)?,
        Order::Step(aim) => match aim_point(game, &aim) {
            Some(p) => ActionReport::Moved {
                report: move_with(
                    game,
                    rules,
                    hooks,
                    id,
                    p,
                    MoveOptions {
                        step: true,
                        ..MoveOptions::default()
                    },
                )?,
            },
            None => ActionReport::Lost {
                why: "a step needs a model, a building or a point to step toward".into(),
            },
        },
        Order::Claim(token) => ActionReport::Claimed {
            report: super::opportunity::claim(game, rosters, hooks, id, token)?,
        },
        Order::Use(item) => ActionReport::Used {
            report: super::opportunity::use_item(game, rosters, hooks, id, &item)?,
        },
        Order::Heal { target, what } => heal_friend(game, rules, hooks, id, target, what)?,
        Order::Ability { name, target } => ability(game, rosters, hooks, id, name, target)?,
        Order::Cast(c) => cast(game, rosters, hooks, id, &c)?,
        Order::BreakFree => {
            let b = crate::rules::magic::break_free(game, rules, id)?;
            ActionReport::BrokeFree {
                condition: b.condition,
                done: b.done,
                needed: b.needed,
                freed: b.freed,
            }
        }
        Order::Concentrated { target, with } => {
            let mut shooters = vec![id];
            shooters.extend(with.iter().copied().filter(|s| *s != id));
            if shooters.len() < 2 {
                return Err(RuleError::CannotConcentrate(
                    crate::rules::query::label(game.model(id)?),
                    "Concentrated Shooting takes two or more shooters".into(),
                ));
            }
            // "A model that takes part has shot for the turn" (§3.5): each makes its one attack.
            for s in &shooters {
                one_more_attack(game, rules, *s)?;
            }
            let report = crate::rules::ranged::concentrated(
                game,
                rosters,
                hooks,
                &shooters,
                target,
                ShotOptions::default(),
            )?;
            for s in &shooters {
                count_attack(game, *s);
            }
            ActionReport::Shoot { report }
        }
        Order::Approach { aim, within } => {
            match route_to(game, id, &aim, rules.bases.contact_tolerance)? {
                Some(route) if route.length > within + 1e-9 => ActionReport::Moved {
                    report: follow(
                        game,
                        rosters,
                        hooks,
                        id,
                        &route,
                        &aim,
                        Some(route.length - within),
                    )?,
                },
                Some(_) => ActionReport::Lost {
                    why: format!("already within {within}\" of its aim"),
                },
                None => ActionReport::Lost {
                    why: "no legal route to its aim".into(),
                },
            }
        }
        Order::Move(aim) => match route_to(game, id, &aim, rules.bases.contact_tolerance)? {
            Some(route) => ActionReport::Moved {
                report: follow(game, rosters, hooks, id, &route, &aim, None)?,
            },
            // No route the navigator can prove (a target hemmed in by bases, say): a straight move
            // toward it still gets as close as the table allows, stopping at contact.
            None => match aim_point(game, &aim) {
                Some(p) => ActionReport::Moved {
                    report: undone_on_error(game, hooks, id, |game| {
                        move_claiming(game, rosters, hooks, id, p, MoveOptions::default())
                    })?,
                },
                None => ActionReport::Lost {
                    why: "no legal route to its target".into(),
                },
            },
        },
    })
}

/// Cast a spell (§3.7) in the turn engine: only a model that declared spellcasting before its roll, one
/// spell an activation (`magic.spells_per_activation`), a spell used as a ranged attack being the
/// model's one attack of the turn; the spell's script then acts through [`Hooks::cast_spell`].
fn cast(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    c: &crate::rules::hooks::CastOrder,
) -> Result<ActionReport, RuleError> {
    let rules = &rosters.rules;
    let m = game.model(id)?;
    if !m.declared {
        return Err(RuleError::NotAllowed(
            crate::rules::query::label(m),
            "cast: it did not declare spellcasting before its activation roll (§3.7)",
        ));
    }
    if u32::from(m.casts) >= rules.magic.spells_per_activation {
        return Err(RuleError::NotAllowed(
            crate::rules::query::label(m),
            "cast another spell in this activation (one spell an activation)",
        ));
    }
    let attack = rosters
        .spell(&c.spell)
        .is_some_and(|s| s.is(crate::roster::SpellKind::Attack));
    if attack {
        one_more_attack(game, rules, id)?;
    }
    let report = hooks.cast_spell(game, id, c)?;
    if let Ok(m) = game.model_mut(id) {
        m.casts = m.casts.saturating_add(1);
    }
    if attack {
        count_attack(game, id);
    }
    Ok(ActionReport::Cast { report })
}

/// Refuse a melee or ranged attack once the model has made its share this turn (core §3.2: "only one
/// attack—melee or ranged—per turn"). Structural attacks and fire are not limited: "one normal building
/// attack per action" (§6.4). An attack the rules refuse is not counted (nothing is applied on an
/// error): `count_attack` runs after it.
fn one_more_attack(
    game: &mut Game,
    rules: &crate::roster::Rules,
    id: ModelId,
) -> Result<(), RuleError> {
    let m = game.model(id)?;
    if u32::from(m.attacks) >= rules.actions.attacks_per_turn {
        return Err(RuleError::NotAllowed(
            crate::rules::query::label(m),
            "attack again this turn (one melee or ranged attack per turn, §3.2)",
        ));
    }
    Ok(())
}

/// A Healer's action on an adjacent friend (SUPPLEMENT §9): its checks first (a Healer, a friend in
/// contact, something of that kind to heal), then one action of work — a Task when healing takes more
/// than one action — and the healing when the work is complete.
fn heal_friend(
    game: &mut Game,
    rules: &crate::roster::Rules,
    hooks: &dyn Hooks,
    id: ModelId,
    target: ModelId,
    what: Option<crate::rules::magic::Heal>,
) -> Result<ActionReport, RuleError> {
    use crate::rules::magic::{healer_heal, Heal};
    let t = game.model(target)?;
    let what = match (what, t.conditions.first()) {
        (Some(w), _) => w,
        (None, _) if t.wounds > 0 => Heal::Wound,
        (None, Some(c)) => Heal::Condition(*c),
        (None, None) => {
            return Err(RuleError::Magic(format!(
                "{} has no Wound or condition to heal",
                crate::rules::query::label(t)
            )))
        }
    };
    let needed = match what {
        Heal::Wound => rules.actions.heal_wound,
        Heal::Condition(_) => rules.actions.heal_condition,
    } as u8;
    // Every check healer_heal makes, tried and undone, before any work is counted.
    let before = game.checkpoint();
    let trial = healer_heal(game, rules, hooks, id, target, what);
    game.restore(before);
    trial?;
    let done = if needed > 1 {
        let name = format!("heal {}", crate::rules::query::label(game.model(target)?));
        let t = crate::rules::activation::work_task(game, id, &name, needed, 1)?;
        if t.done < needed {
            return Ok(ActionReport::Healed {
                target,
                done: t.done,
                needed,
                healed: false,
            });
        }
        t.done
    } else {
        1
    };
    healer_heal(game, rules, hooks, id, target, what)?;
    Ok(ActionReport::Healed {
        target,
        done,
        needed,
        healed: true,
    })
}

/// One attack made (the attacker may have fallen in it).
fn count_attack(game: &mut Game, id: ModelId) {
    if let Ok(m) = game.model_mut(id) {
        m.attacks = m.attacks.saturating_add(1);
    }
}

/// Where an aim lies, for a straight move toward it.
/// Why a move or step `order` of model `id`, which stood at `from`, went nowhere: its base moved less
/// than the contact tolerance (a gap the rules already count as contact, §3.3) and it is still on the
/// table. `None` when it moved, or the order was not a move. The player's orders are refused then
/// ([`super::turn::player_step`]): an order that cannot do what it asks costs nothing.
pub fn went_nowhere(
    game: &Game,
    rules: &crate::roster::Rules,
    id: ModelId,
    order: &Order,
    from: crate::geometry::Vec2,
    report: &ActionReport,
) -> Option<String> {
    let (verb, aim) = match order {
        Order::Move(aim) => ("move", aim),
        Order::Step(aim) => ("step", aim),
        _ => return None,
    };
    let ActionReport::Moved { report } = report else {
        return None;
    };
    let m = game.model(id).ok()?;
    if m.pos.dist(from) >= rules.bases.contact_tolerance {
        return None;
    }
    let words = |id: ModelId| crate::rules::words::model_words(game, id);
    use crate::rules::movement::Blocker;
    let why = match &report.stopped_by {
        Some(Blocker::Enemy(e)) => format!(
            "it is in contact with {}, which stops a move (§3.3)",
            words(*e)
        ),
        Some(Blocker::Model(o)) => format!("{}'s base is in the way", words(*o)),
        Some(Blocker::Building(b)) => format!("the {b} is in the way"),
        Some(Blocker::Terrain(t)) => format!("impassable {t} is in the way"),
        Some(Blocker::TableEdge) => "the table edge is in the way".to_string(),
        Some(Blocker::Trap(t)) => format!("a Trap ({}) ends its move at once", t.0),
        None => match aim {
            Aim::Model(t) if *t == id => "a model cannot move toward itself".to_string(),
            Aim::Model(_) | Aim::Building(_) => "it is already in base contact".to_string(),
            Aim::Point(_) => "it is already there".to_string(),
            Aim::Edge => "it is already at the edge".to_string(),
        },
    };
    Some(format!(
        "{} would {verb} 0\" toward {}: {why}",
        crate::rules::query::label(m),
        crate::rules::words::aim_words(game, aim)
    ))
}

fn aim_point(game: &Game, aim: &Aim) -> Option<crate::geometry::Vec2> {
    match aim {
        Aim::Model(t) => game.model(*t).ok().map(|m| m.pos),
        Aim::Building(name) => game.building(name).ok().map(|b| b.rect.center()),
        Aim::Point(p) => Some(*p),
        Aim::Edge => None,
    }
}

/// Bases the mover routes around: every other model but the one it is heading for. An enemy's base is
/// widened by `clearance` (the contact tolerance), unless the mover is already that close to it: a
/// route that grazed it would bring the two into contact, which stops a move (§3.3).
fn obstacles(
    game: &Game,
    id: ModelId,
    except: Option<ModelId>,
    clearance: f64,
) -> Vec<crate::geometry::Circle> {
    let Ok(mover) = game.model(id) else {
        return Vec::new();
    };
    let (me, side) = (mover.circle(), mover.side);
    game.models
        .iter()
        .filter(|m| m.id != id && Some(m.id) != except)
        .map(|m| {
            let mut c = m.circle();
            let wide = c.r + me.r + 2.0 * clearance;
            if side != m.side && c.c.dist(me.c) > wide {
                c.r += 2.0 * clearance;
            }
            c
        })
        .collect()
}

/// The shortest legal route for `id` toward what it aims at (to base contact with a model or building,
/// onto a point, or off the nearest edge), kept clear of other enemies' contact by `clearance` (the
/// contact tolerance, `rules.bases.contact_tolerance`); `None` when the navigator finds none.
pub fn route_to(
    game: &Game,
    id: ModelId,
    aim: &Aim,
    clearance: f64,
) -> Result<Option<Route>, RuleError> {
    let m = game.model(id)?;
    let nav = game.navigator(m.base / 2.0);
    let (goal, except) = match aim {
        Aim::Model(t) => (Goal::Base(game.model(*t)?.circle()), Some(*t)),
        Aim::Building(name) => (Goal::Building(game.building(name)?.rect), None),
        Aim::Point(p) => (Goal::Point(*p), None),
        Aim::Edge => return Ok(nav.route_to_edge(m.pos, &obstacles(game, id, None, clearance))),
    };
    Ok(nav.route_to_contact(m.pos, &goal, &obstacles(game, id, except, clearance)))
}

/// The move actions a route takes at the model's band (its movement traits asked of `hooks`): one per
/// straight leg ([`crate::geometry::legs`]), more for a leg longer than the band. Terrain is not
/// counted (it may take a band from an action as the model moves): a plan, not a promise.
pub fn move_actions(
    game: &Game,
    rules: &crate::roster::Rules,
    hooks: &dyn Hooks,
    id: ModelId,
    route: &Route,
    aim: &Aim,
) -> Result<u32, RuleError> {
    let engaged = crate::rules::query::engaged_enemies(game, rules, id);
    let traits = hooks.movement_traits(game, id, &engaged)?;
    let band = crate::rules::movement::move_distance(rules, &traits);
    let m = game.model(id)?;
    let nav = game.navigator(m.base / 2.0);
    let except = match aim {
        Aim::Model(t) => Some(*t),
        _ => None,
    };
    let bases = obstacles(game, id, except, rules.bases.contact_tolerance);
    Ok(crate::geometry::legs(&nav, route, &bases, MAX_BEND)
        .iter()
        .map(|l| (l / band - 1e-9).ceil().max(1.0) as u32)
        .sum())
}

/// One move action along a route: its first straight leg, up to the model's band (or `at_most` inches,
/// when less). A move action never bends (SUPPLEMENT §11): when the leg ends at a corner of the route
/// before the band is used, the rest of the band is lost, and the next move action takes the next leg
/// (the route is planned again from where the model stands).
fn follow(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    route: &Route,
    aim: &Aim,
    at_most: Option<f64>,
) -> Result<MoveReport, RuleError> {
    let to = leg_end(game, id, route, aim, rosters.rules.bases.contact_tolerance)?;
    undone_on_error(game, hooks, id, |game| {
        let o = MoveOptions {
            limit: at_most,
            ..MoveOptions::default()
        };
        move_claiming(game, rosters, hooks, id, to, o)
    })
}

/// The largest turn one corner of a move may make (135°): past it, the corner point where the two
/// straight lines meet lies too far out (the detour grows as tan(θ/2)), and the route takes two corners.
const MAX_BEND: f64 = 3.0 * std::f64::consts::FRAC_PI_4;

/// Where one move action along `route` heads: straight past the route's first bend to the corner point
/// a player would move to ([`crate::geometry::first_leg`], turning at most `MAX_BEND`
/// at a time).
fn leg_end(
    game: &Game,
    id: ModelId,
    route: &Route,
    aim: &Aim,
    clearance: f64,
) -> Result<crate::geometry::Vec2, RuleError> {
    let m = game.model(id)?;
    let nav = game.navigator(m.base / 2.0);
    let except = match aim {
        Aim::Model(t) => Some(*t),
        _ => None,
    };
    let bases = obstacles(game, id, except, clearance);
    Ok(crate::geometry::first_leg(&nav, route, &bases, MAX_BEND))
}

/// Run a move that may claim on the way; when it fails, a mover that may claim on the move (an
/// Opportunity on the table, `claim_on_move` held) has the whole move undone, claims included (a
/// failing `on_pass_token` leaves nothing half-applied). Other moves are not copied.
fn undone_on_error<T>(
    game: &mut Game,
    hooks: &dyn Hooks,
    id: ModelId,
    f: impl FnOnce(&mut Game) -> Result<T, RuleError>,
) -> Result<T, RuleError> {
    let watch = game
        .tokens
        .iter()
        .any(|t| matches!(t.kind, crate::state::TokenKind::Opportunity { .. }))
        && hooks
            .permission(game, id, super::opportunity::CLAIM_ON_MOVE)?
            .is_some();
    let before = watch.then(|| game.checkpoint());
    let r = f(game);
    if let (Err(_), Some(b)) = (&r, before) {
        game.restore(b);
    }
    r
}

/// One straight leg of a move ([`move_with`]), then the claims on the move its model's scripts make of
/// the Opportunity tokens it passed (Wren's Pathfinder, [`super::opportunity::claim_on_move`]): they
/// neither stop the move nor cost an action.
fn move_claiming(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    id: ModelId,
    to: crate::geometry::Vec2,
    o: MoveOptions,
) -> Result<MoveReport, RuleError> {
    let r = move_with(game, &rosters.rules, hooks, id, to, o)?;
    super::opportunity::claim_on_move(game, rosters, hooks, id, &r.passed)?;
    Ok(r)
}

/// Leave by the nearest edge: off the table if the edge is within one move along a straight leg,
/// otherwise one leg toward it.
fn leave(
    game: &mut Game,
    rules: &crate::roster::Rules,
    hooks: &dyn Hooks,
    id: ModelId,
) -> Result<ActionReport, RuleError> {
    let m = game.model(id)?;
    let nav = game.navigator(m.base / 2.0);
    let bases = obstacles(game, id, None, rules.bases.contact_tolerance);
    let Some(route) = nav.route_to_edge(m.pos, &bases) else {
        return Ok(ActionReport::Lost {
            why: "no route to an edge".into(),
        });
    };
    let reach =
        crate::rules::movement::move_distance(rules, &hooks.movement_traits(game, id, &[])?);
    if route.waypoints.len() <= 2 && route.length <= reach + 1e-9 {
        crate::rules::magic::remove(game, id, "left the table")?;
        return Ok(ActionReport::Left);
    }
    let to = route.waypoints.get(1).copied().unwrap_or(m.pos);
    Ok(ActionReport::Moved {
        report: move_with(game, rules, hooks, id, to, MoveOptions::default())?,
    })
}
