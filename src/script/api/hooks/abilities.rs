//! The script side of the hooks signatures and Alpha Rules need: an order's cost (`order_cost`), the
//! other side hearing an activation (`on_opponent_activation`) and rerolling it (`on_activation_roll`),
//! a friend's result (`on_friend_result`), a Defeat (`on_defeat`), a structural attack
//! (`on_structural`) and scripted actions (`actions`: `can` and `run`). Each turns what Lua returned into
//! validated kernel values naming the script; the kernel applies them.

use super::*;
use crate::rules::hooks::{AbilityCheck, AbilityTarget, CostChange, Reroll};
use crate::script::api::answer::{Plain, Reader};
use crate::script::host::profiled;

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

/// The most targets an action's `targets` may offer at once (the built-in actions offer a building or
/// two).
const MAX_TARGETS: usize = 100;

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
            let r = self.reader(module, "order_cost");
            let Some(change) = super::replies::cost(&r, &r.read(self.lua, &v)?, module)? else {
                continue;
            };
            if best.as_ref().is_none_or(|b| change.cost < b.cost) {
                best = Some(change);
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
                let r = self.reader(module, "on_activation_roll");
                if let Some(reroll) = super::replies::reroll(&r, &r.read(self.lua, &v)?, module)? {
                    return Ok(Some(reroll));
                }
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
                let r = self.reader(module, "on_friend_result");
                let measures = &self.core.rules.measures;
                let reply =
                    super::replies::result_change(&r, &r.read(self.lua, &v)?, module, measures)?;
                if let Some((to, reason)) = reply.result {
                    return Ok(Some((to, reason, module.label.clone())));
                }
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
        let what = format!("actions[{name:?}]");
        let r = Reader::answer(&module.label, &what, self.core.id);
        let given = |what: &str| HookError {
            message: format!("{}: {what}", module.label),
        };
        let task = match r.read(self.lua, &task)? {
            Plain::Nil => None,
            p => match crate::script::api::answer::whole(&p) {
                Some(n @ 1..=6) => Some(n as u8),
                _ => {
                    return Err(given(&format!(
                        "actions[{name:?}].task = {} (expected 1 to 6 actions)",
                        crate::script::api::answer::describe(&p)
                    )))
                }
            },
        };
        let mut refused = None;
        match entry.raw_get::<Value>("can").map_err(hook_err)? {
            Value::Nil => {}
            Value::Function(can) => {
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
                let r = self.reader(module, "can");
                refused = match r.read(self.lua, &v)? {
                    Plain::Bool(true) => None,
                    Plain::Text(why) => Some(format!("{}: {why}", module.label)),
                    Plain::Nil | Plain::Bool(false) => {
                        Some(format!("{}: {name} cannot be used now", module.label))
                    }
                    other => {
                        return Err(r.field(
                            "",
                            &other,
                            "expected true, or a string saying why not",
                        ))
                    }
                };
            }
            other => {
                return Err(given(&format!(
                    "actions[{name:?}].can = a {} (expected a function)",
                    other.type_name()
                )))
            }
        }
        let attack = match entry.raw_get::<Value>("attack").map_err(hook_err)? {
            Value::Nil | Value::Boolean(false) => false,
            Value::Boolean(true) => true,
            other => {
                return Err(given(&format!(
                    "actions[{name:?}].attack = a {} (expected true or false)",
                    other.type_name()
                )))
            }
        };
        // Its `run` is looked for now, after the scripts of the check have run and before anything is
        // logged: an action that cannot run is the script's error, not an event saying it ran.
        if !matches!(
            entry.raw_get::<Value>("run").map_err(hook_err)?,
            Value::Function(_)
        ) {
            return Err(given(&format!("actions[{name:?}] has no run function")));
        }
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
                        // Each target costs a `can` call and a row of the answer, made as the kernel:
                        // a bounded list, as every list a script hands the kernel.
                        Value::Table(t) if t.raw_len() > MAX_TARGETS => {
                            return Err(mlua::Error::runtime(format!(
                                "{}: actions[{name:?}].targets returned {} targets (at most \
                                 {MAX_TARGETS})",
                                module.label,
                                t.raw_len()
                            )))
                        }
                        Value::Table(t) => t
                            .sequence_values::<Value>()
                            .take(MAX_TARGETS)
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
