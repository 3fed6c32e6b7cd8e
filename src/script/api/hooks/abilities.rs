//! The script side of the hooks signatures and Alpha Rules need: an order's cost (`order_cost`), the
//! other side hearing an activation (`on_opponent_activation`) and rerolling it (`on_activation_roll`),
//! a friend's result (`on_friend_result`), a Defeat (`on_defeat`), a structural attack
//! (`on_structural`) and scripted actions (`actions`: `can` and `run`). Each turns what Lua returned into
//! validated kernel values naming the script; the kernel applies them.

use super::*;
use crate::rules::hooks::{AbilityCheck, AbilityTarget, CostChange, Reroll, RerollDice};
use crate::script::host::profiled;
use crate::state::SPENT_PREFIXES;

/// The name scripts see for an order's kind.
fn order_kind(order: &Order) -> &'static str {
    match order {
        Order::Melee(_) => "melee",
        Order::PowerBlow(_) => "power_blow",
        Order::Shoot(_) => "shoot",
        Order::AimedShot(_) => "aimed_shot",
        Order::Structural(_) => "structural",
        Order::Ignite(_) => "ignite",
        Order::Move(_) => "move",
        Order::Step(_) => "step",
        Order::Approach { .. } => "approach",
        Order::Leave => "leave",
        Order::Claim(_) => "claim",
        Order::Use(_) => "use",
        Order::Heal { .. } => "heal",
        Order::Ability { .. } => "ability",
        Order::Cast(_) => "cast",
        Order::BreakFree => "break_free",
        Order::Concentrated { .. } => "concentrated",
    }
}

/// `{ kind, target, cost }`: the order an `order_cost` hook is asked about.
fn order_arg(lua: &Lua, order: &Order, cost: u8) -> mlua::Result<Value> {
    let t = lua.create_table_with_capacity(0, 3)?;
    t.raw_set("kind", order_kind(order))?;
    t.raw_set("cost", cost)?;
    match order {
        Order::Melee(id) | Order::PowerBlow(id) | Order::Shoot(id) | Order::AimedShot(id) => {
            t.raw_set("target", id.0)?
        }
        Order::Heal { target, .. } => t.raw_set("target", target.0)?,
        Order::Structural(b) | Order::Ignite(b) => t.raw_set("building", b.as_str())?,
        Order::Ability { name, .. } => t.raw_set("name", name.as_str())?,
        _ => {}
    }
    Ok(Value::Table(t))
}

/// A hook's answer that must be nil or a table: the table, `None` for nil, an error naming the script
/// for anything else (`expected` shows the table's shape).
pub(super) fn answer_table(
    module: &Module,
    entry: &str,
    expected: &str,
    v: Value,
) -> Result<Option<Table>, HookError> {
    match v {
        Value::Nil => Ok(None),
        Value::Table(t) => Ok(Some(t)),
        other => Err(bad_return(
            module,
            entry,
            &format!("a {} (expected nil or {expected})", other.type_name()),
        )),
    }
}

/// A `spend` key a hook returned: `game:`, `wave:` or `council:`.
fn spend_key(module: &Module, entry: &str, t: &Table) -> Result<Option<String>, HookError> {
    let key = t.raw_get::<Option<String>>("spend").map_err(hook_err)?;
    match key {
        Some(k) if !SPENT_PREFIXES.iter().any(|p| k.starts_with(p)) => Err(bad_return(
            module,
            entry,
            &format!("spend = {k:?} (a limited use is named game:..., wave:... or council:...)"),
        )),
        k => Ok(k),
    }
}

fn reason_of(module: &Module, t: &Table) -> Result<String, HookError> {
    Ok(t.raw_get::<Option<String>>("reason")
        .and_then(|r| crate::script::api::convert::log_text(r, "reason"))
        .map_err(hook_err)?
        .unwrap_or_else(|| module.stem().to_string()))
}

/// The models of the side opposing `side`, in id order.
fn opponents(game: &Game, side: Side) -> Vec<ModelId> {
    game.models
        .iter()
        .filter(|m| m.side != side)
        .map(|m| m.id)
        .collect()
}

/// What an ability's `can` and `run` receive as their target.
fn target_value(lua: &Lua, ctx: &Ctx, target: Option<&AbilityTarget>) -> mlua::Result<Value> {
    let game = ctx.game();
    Ok(match target {
        None => Value::Nil,
        Some(AbilityTarget::Model(id)) => ctx.model_view_of(lua, *id)?,
        Some(AbilityTarget::Building(name)) => ctx.building_view_named(lua, name)?,
        Some(AbilityTarget::Point(p)) => crate::script::api::convert::to_lua(lua, p)?,
        Some(AbilityTarget::Token(id)) => {
            let t = lua.create_table()?;
            t.raw_set("id", id.0)?;
            if let Some(tok) = game.tokens.iter().find(|t| t.id == *id) {
                t.raw_set("x", tok.pos.x)?;
                t.raw_set("y", tok.pos.y)?;
            }
            Value::Table(t)
        }
    })
}

/// Read the target of an `{ ability = name, target = ... }` order: a model (snapshot or handle), a
/// building (its name or snapshot), a token (`{ id, kind }` from `ctx:tokens`) or a point.
pub(super) fn ability_target(v: Value) -> Result<Option<AbilityTarget>, String> {
    Ok(Some(match v {
        Value::Nil => return Ok(None),
        Value::String(s) => AbilityTarget::Building(s.to_string_lossy()),
        Value::UserData(ud) => {
            if let Ok(m) = ud.borrow::<crate::script::api::handles::ModelRef>() {
                AbilityTarget::Model(m.id)
            } else if let Ok(b) = ud.borrow::<crate::script::api::handles::BuildingRef>() {
                AbilityTarget::Building(b.name.clone())
            } else {
                return Err("target = userdata that is not a model or a building".into());
            }
        }
        Value::Table(t) => {
            let id = t.raw_get::<Option<u32>>("id").map_err(|e| e.to_string())?;
            let kind = t
                .raw_get::<Option<String>>("kind")
                .map_err(|e| e.to_string())?;
            let name = t
                .raw_get::<Option<String>>("name")
                .map_err(|e| e.to_string())?;
            // A token from ctx:tokens has a token kind; a model snapshot's `kind` is its profile kind.
            let token = kind
                .as_deref()
                .is_some_and(|k| matches!(k, "opportunity" | "barricade" | "trap"));
            match (id, token, name) {
                (Some(id), true, _) => AbilityTarget::Token(TokenId(id)),
                (Some(id), false, _) => AbilityTarget::Model(ModelId(id)),
                (None, _, Some(name)) => AbilityTarget::Building(name),
                _ => AbilityTarget::Point(crate::geometry::Vec2::new(
                    t.raw_get("x").map_err(|_| {
                        "target = a table that is not a model, building, token or point"
                    })?,
                    t.raw_get("y").map_err(|_| {
                        "target = a table that is not a model, building, token or point"
                    })?,
                )),
            }
        }
        other => return Err(format!("target = a {}", other.type_name())),
    }))
}

impl ScriptHooks<'_> {
    pub(super) fn cost_change(
        &self,
        game: &Game,
        model: ModelId,
        order: &Order,
        cost: u8,
    ) -> Result<Option<CostChange>, HookError> {
        let arg = |lua: &Lua, _: &Ctx| order_arg(lua, order, cost);
        let mut best: Option<CostChange> = None;
        for (module, v) in self.call_read(game, model, "order_cost", &arg)? {
            let Some(t) = answer_table(module, "order_cost", "{ cost = n }", v)? else {
                continue;
            };
            let n = t.raw_get::<Option<i64>>("cost").map_err(hook_err)?;
            let n = match n.map(u8::try_from) {
                Some(Ok(n)) if n <= 3 => n,
                _ => {
                    return Err(bad_return(
                        module,
                        "order_cost",
                        "a cost that is not 0 to 3",
                    ))
                }
            };
            if best.as_ref().is_none_or(|b| n < b.cost) {
                best = Some(CostChange {
                    cost: n,
                    spend: spend_key(module, "order_cost", &t)?,
                    reason: reason_of(module, &t)?,
                    source: module.label.clone(),
                });
            }
        }
        Ok(best)
    }

    pub(super) fn opponent_activation(
        &self,
        game: &mut Game,
        activating: &[ModelId],
    ) -> Result<Vec<Intent>, HookError> {
        let Some(side) = activating
            .first()
            .and_then(|id| game.model(*id).ok())
            .map(|m| m.side)
        else {
            return Ok(Vec::new());
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let arg = |lua: &Lua, ctx: &Ctx| ctx.model_views(lua, activating);
        for id in opponents(game, side) {
            self.call_act(game, id, "on_opponent_activation", &intents, &arg)?;
        }
        Ok(intents.into_inner())
    }

    pub(super) fn reroll(
        &self,
        game: &mut Game,
        activating: &[ModelId],
        dice: &[u8],
        quality: u8,
    ) -> Result<Option<Reroll>, HookError> {
        let Some(side) = activating
            .first()
            .and_then(|id| game.model(*id).ok())
            .map(|m| m.side)
        else {
            return Ok(None);
        };
        let arg = |lua: &Lua, ctx: &Ctx| -> mlua::Result<Value> {
            let t = lua.create_table_with_capacity(0, 4)?;
            t.raw_set("dice", dice.to_vec())?;
            t.raw_set("quality", quality)?;
            t.raw_set("side", side.as_str())?;
            t.raw_set("models", ctx.model_views(lua, activating)?)?;
            Ok(Value::Table(t))
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let askers: Vec<ModelId> = activating
            .iter()
            .copied()
            .chain(opponents(game, side))
            .collect();
        for id in askers {
            for (module, v) in self.call_act(game, id, "on_activation_roll", &intents, &arg)? {
                let Some(t) = answer_table(module, "on_activation_roll", "{ reroll = ... }", v)?
                else {
                    continue;
                };
                let which = t.raw_get::<Option<String>>("reroll").map_err(hook_err)?;
                let dice = match which.as_deref() {
                    None => continue,
                    Some("all") => RerollDice::All,
                    Some("best") => RerollDice::Best,
                    Some(other) => {
                        return Err(bad_return(
                            module,
                            "on_activation_roll",
                            &format!("reroll = {other:?} (expected \"all\" or \"best\")"),
                        ))
                    }
                };
                return Ok(Some(Reroll {
                    dice,
                    spend: spend_key(module, "on_activation_roll", &t)?,
                    reason: reason_of(module, &t)?,
                    source: module.label.clone(),
                }));
            }
        }
        Ok(None)
    }

    /// After the winner's and the loser's `on_result`: the loser's friends' `on_friend_result`, in id
    /// order, until one replaces the result (Sanctuary). `would_remove` tells them whether the result
    /// as it stands takes the loser off the table (a Tough model's Wound does not).
    pub(super) fn friend_result(
        &self,
        game: &mut Game,
        win: &WinInfo,
        current: CombatResult,
        intents: &std::cell::RefCell<Vec<Intent>>,
    ) -> Result<Option<(CombatResult, String, String)>, HookError> {
        let Ok(loser) = game.model(win.loser) else {
            return Ok(None);
        };
        let side = loser.side;
        let would_remove = match current {
            CombatResult::Gruesome => true,
            CombatResult::Defeated | CombatResult::Wound => {
                let tough = self
                    .permission(game, win.loser, crate::rules::outcome::TOUGH)?
                    .is_some();
                let r = &self.core.rules.tough;
                !tough
                    || loser.quality.saturating_add(r.quality_loss_per_wound)
                        >= r.defeated_at_quality
            }
            _ => false,
        };
        let friends: Vec<ModelId> = game
            .models
            .iter()
            .filter(|m| m.side == side && m.id != win.loser)
            .map(|m| m.id)
            .collect();
        let arg = |lua: &Lua, ctx: &Ctx| -> mlua::Result<Value> {
            let v = win_table(lua, ctx, win, win.loser, current)?;
            if let Value::Table(t) = &v {
                t.raw_set("role", "friend")?;
                t.raw_set("would_remove", would_remove)?;
                t.raw_set("friend", ctx.model_view_of(lua, win.loser)?)?;
            }
            Ok(v)
        };
        for id in friends {
            for (module, v) in self.call_act(game, id, "on_friend_result", intents, &arg)? {
                let Value::Table(t) = v else { continue };
                let Some(name) = t.raw_get::<Option<String>>("result").map_err(hook_err)? else {
                    continue;
                };
                let to = parse_result(&name).ok_or_else(|| {
                    bad_return(module, "on_friend_result", &format!("result = {name:?}"))
                })?;
                return Ok(Some((to, reason_of(module, &t)?, module.label.clone())));
            }
        }
        Ok(None)
    }

    /// The module acting for `model` whose `actions` table defines `name`, with that entry.
    fn action_entry(
        &self,
        game: &Game,
        model: ModelId,
        name: &str,
    ) -> Result<(&Module, Option<Cow<'_, Params>>, Table), HookError> {
        let me = game.model(model).map_err(hook_err)?;
        for (module, params) in self.modules_for(me) {
            let Some(actions) = &module.actions else {
                continue;
            };
            match actions.raw_get::<Value>(name).map_err(hook_err)? {
                Value::Table(a) => return Ok((module, params, a)),
                Value::Nil => {}
                other => {
                    return Err(HookError {
                        message: format!(
                            "{}: actions[{name:?}] is a {} (expected a table with run)",
                            module.label,
                            other.type_name()
                        ),
                    })
                }
            }
        }
        Err(HookError {
            message: format!(
                "{}: no script of it defines the action {name:?}",
                crate::rules::query::label(me)
            ),
        })
    }

    pub(super) fn check_ability(
        &self,
        game: &mut Game,
        model: ModelId,
        name: &str,
        target: Option<&AbilityTarget>,
    ) -> Result<AbilityCheck, HookError> {
        let (module, params, entry) = self.action_entry(game, model, name)?;
        let arg = |lua: &Lua, ctx: &Ctx| target_value(lua, ctx, target);
        let intents = std::cell::RefCell::new(Vec::new());
        // `task` is a number, or a function of the ctx (to read it from the roster's params).
        let task = match entry.raw_get::<Value>("task").map_err(hook_err)? {
            Value::Function(f) => self.call_module_act(
                game,
                model,
                module,
                params.as_deref(),
                &f,
                &intents,
                &arg,
                None,
            )?,
            v => v,
        };
        let task = match task {
            Value::Nil => None,
            Value::Integer(n) if (1..=6).contains(&n) => Some(n as u8),
            other => {
                return Err(HookError {
                    message: format!(
                        "{}: actions[{name:?}].task = {other:?} (expected 1 to 6 actions)",
                        module.label
                    ),
                })
            }
        };
        let mut refused = None;
        if let Ok(Value::Function(can)) = entry.raw_get::<Value>("can") {
            let v = self.call_module_act(
                game,
                model,
                module,
                params.as_deref(),
                &can,
                &intents,
                &arg,
                None,
            )?;
            refused = match v {
                Value::Boolean(true) => None,
                Value::String(why) => Some(format!("{}: {}", module.label, why.to_string_lossy())),
                Value::Nil | Value::Boolean(false) => {
                    Some(format!("{}: {name} cannot be used now", module.label))
                }
                other => {
                    return Err(bad_return(
                        module,
                        "can",
                        &format!(
                            "a {} (expected true, or a string saying why not)",
                            other.type_name()
                        ),
                    ))
                }
            };
        }
        let attack = matches!(
            entry.raw_get::<Value>("attack").map_err(hook_err)?,
            Value::Boolean(true)
        );
        Ok(AbilityCheck {
            source: module.label.clone(),
            task,
            attack,
            refused,
        })
    }

    pub(super) fn run_ability(
        &self,
        game: &mut Game,
        model: ModelId,
        name: &str,
        target: Option<&AbilityTarget>,
    ) -> Result<Vec<Intent>, HookError> {
        let (module, params, entry) = self.action_entry(game, model, name)?;
        let Ok(Value::Function(run)) = entry.raw_get::<Value>("run") else {
            return Err(HookError {
                message: format!("{}: actions[{name:?}] has no run function", module.label),
            });
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let arg = |lua: &Lua, ctx: &Ctx| target_value(lua, ctx, target);
        // What `run` returns is not read: what it asks for is in `intents`.
        self.call_module_act::<Value>(
            game,
            model,
            module,
            params.as_deref(),
            &run,
            &intents,
            &arg,
            None,
        )?;
        Ok(intents.into_inner())
    }
}

impl ScriptHooks<'_> {
    /// The scripted actions `model` may take now, for `ctx:usable`: each action of its scripts (names
    /// in sorted order) with each target its `targets` offers (or none), kept when `can` says true.
    /// `targets` and `can` run with read-only ctxs; the targets offered are handed on as views of
    /// `outer`, the call that asked (`ctx:usable`), so they outlive the `targets` call.
    pub(super) fn usable(&self, lua: &Lua, outer: &Ctx, model: ModelId) -> mlua::Result<Table> {
        let out = lua.create_table()?;
        let game = outer.game();
        let Ok(me) = game.model(model) else {
            return Ok(out);
        };
        for (module, params) in self.modules_for(me) {
            let Some(actions) = &module.actions else {
                continue;
            };
            let mut names: Vec<(String, Table)> = actions
                .pairs::<String, Table>()
                .filter_map(|p| p.ok())
                .collect();
            names.sort_by(|a, b| a.0.cmp(&b.0));
            let params_v = params_value(lua, params.as_deref())?;
            // Each `targets` and `can` runs under a hook's budget of its own, as every hook does.
            let call = |f: &mlua::Function, target: Value| -> mlua::Result<Value> {
                call_hook(
                    lua,
                    self.budget().map_err(mlua::Error::external)?,
                    Ctx::hook(View::Read(game), self, module, params_v.clone()),
                    |ctx| ctx.model_view(lua, me),
                    |ctx, me_v| profiled(lua, f, || f.call::<Value>((ctx, me_v, target))),
                )
                .map_err(mlua::Error::external)
            };
            for (name, entry) in names {
                let targets: Vec<Value> = match entry.raw_get::<Value>("targets")? {
                    Value::Function(f) => match call(&f, Value::Nil)? {
                        Value::Table(t) => t
                            .sequence_values::<Value>()
                            .map(|v| outer.adopt(lua, v?))
                            .collect::<mlua::Result<_>>()?,
                        Value::Nil => Vec::new(),
                        other => {
                            return Err(mlua::Error::runtime(format!(
                                "{}: actions[{name:?}].targets returned a {} (expected a list)",
                                module.label,
                                other.type_name()
                            )))
                        }
                    },
                    _ => vec![Value::Nil],
                };
                for target in targets {
                    let ok = match entry.raw_get::<Value>("can")? {
                        Value::Function(can) => {
                            matches!(call(&can, target.clone())?, Value::Boolean(true))
                        }
                        _ => true,
                    };
                    if ok {
                        let u = lua.create_table_with_capacity(0, 3)?;
                        u.raw_set("name", name.as_str())?;
                        u.raw_set("target", target)?;
                        u.raw_set("source", module.label.as_str())?;
                        out.raw_push(u)?;
                    }
                }
            }
        }
        Ok(out)
    }
}
