//! The kernel's hook points answered by Lua modules: which modules apply to a model (its traits', its
//! signature's or Alpha Rule's, and the game's variants), the `ctx` they receive, and turning what they
//! return into validated modifiers that name their source file. A spell script's `cast` gets a `ctx`
//! whose spell primitives call the kernel at once (`run_spell`).

use super::convert::{check_options, fail, to_pos};
use super::game::{combat_table, fix_names, names, Core};
use super::handles::{building_snapshot, model_snapshot};
use super::spec;
use crate::geometry::{circle_polygon_gap, circle_segment_gap, TerrainShape};
use crate::roster::{Params, Rules};
use crate::rules::hooks::{
    Aim, DeployChoices, DeployStep, Hooks, Intent, Modifier, MoveTraits, OpportunityCall,
    ResultChange, Reward, Role, RollInfo, ScriptedGroup, ScriptedWave, Target, WaveAsk, WinInfo,
    WinRules,
};
use crate::rules::hooks::{CouncilInfo, CouncilOrder, OpportunityEntry, Order};
use crate::rules::magic::{self, Casting, Heal};
use crate::rules::query::engaged_enemies;
use crate::rules::{HookError, RuleError};
use crate::script::error::ScriptError;
use crate::script::host::{host, profiled, with_budget};
use crate::script::registry::{Module, Permissions, Registry};
use crate::state::{
    CombatResult, Condition, Game, Item, Model, ModelId, MoraleTrigger, Side, TokenId,
};
use mlua::{Lua, Table, UserData, UserDataFields, UserDataMethods, Value};
use std::borrow::Cow;
use std::rc::Rc;

mod abilities;
mod council;
mod handle;
mod tokens;

use handle::{timed, timed_mut, with_ctx, CtxHandle};

/// The script side of [`Hooks`] for one call into the kernel.
pub struct ScriptHooks<'a> {
    lua: &'a Lua,
    core: &'a Core,
    registry: Rc<Registry>,
    /// The rosters with the game's rule constants, built on first use (`ctx:can_shoot`).
    merged: std::cell::OnceCell<crate::roster::Rosters>,
}

impl<'a> ScriptHooks<'a> {
    pub fn new(lua: &'a Lua, core: &'a Core, registry: Rc<Registry>) -> Self {
        ScriptHooks {
            lua,
            core,
            registry,
            merged: std::cell::OnceCell::new(),
        }
    }

    /// The rosters with the game's rule constants (variants applied), for kernel queries from a ctx.
    fn rosters(&self) -> &crate::roster::Rosters {
        self.merged.get_or_init(|| self.core.rosters_with_rules())
    }

    /// The modules that act for a model, in a stable order: its traits' scripts (in profile order), its
    /// signature or Alpha Rule, the items it carries (in the order gained, each with the params it was
    /// given with), then the game's variants.
    fn modules_for(&self, m: &Model) -> Vec<(&Module, Option<Cow<'a, Params>>)> {
        let r: &'a crate::roster::Rosters = &self.core.rosters;
        let mut keys: Vec<(&'a str, Option<&'a Params>)> = m
            .all_traits()
            .filter_map(|t| r.trait_named(t))
            .filter_map(|t| t.script.as_deref().map(|s| (s, Some(&t.params))))
            .collect();
        if let Some(p) = r.profile(&m.name) {
            for ability in [&p.signature, &p.alpha].into_iter().flatten() {
                if let Some(s) = ability.script.as_deref() {
                    keys.push((s, Some(&ability.params)));
                }
            }
        }
        let mut mods: Vec<(&Module, Option<Cow<'a, Params>>)> = keys
            .iter()
            .filter_map(|(k, p)| self.registry.get(k).map(|m| (m, p.map(Cow::Borrowed))))
            .collect();
        // An item's script acts for its carrier like a trait's (Relic Blade's melee_modifier).
        mods.extend(m.items.iter().filter_map(|i| {
            self.registry
                .get(&i.script)
                .map(|module| (module, Some(Cow::Owned(i.params.clone()))))
        }));
        mods.extend(
            self.core
                .variants
                .iter()
                .filter_map(|v| self.registry.variant(v).map(|m| (m, None))),
        );
        mods
    }
}

impl ScriptHooks<'_> {
    /// An `on_result`'s `recoil`: inches, or a measure name ("medium"), as a Recoil distance.
    fn recoil_of(
        &self,
        module: &Module,
        t: &Table,
    ) -> Result<Option<(f64, String, String)>, HookError> {
        let inches = match t.raw_get::<Value>("recoil").map_err(hook_err)? {
            Value::Nil => return Ok(None),
            Value::Integer(n) if n > 0 => n as f64,
            Value::Number(n) if n.is_finite() && n > 0.0 => n,
            Value::String(s) => {
                let name = s.to_string_lossy();
                let m = crate::roster::Measure::named(&name).ok_or_else(|| {
                    bad_return(
                        module,
                        "on_result",
                        &format!("recoil = {name:?} (expected inches or short/medium/long)"),
                    )
                })?;
                self.core.rules.measures.get(m)
            }
            other => {
                return Err(bad_return(
                    module,
                    "on_result",
                    &format!("recoil = {other:?} (expected inches or a measure)"),
                ))
            }
        };
        let reason = t
            .raw_get::<Option<String>>("reason")
            .map_err(hook_err)?
            .unwrap_or_else(|| module.stem().to_string());
        Ok(Some((inches, reason, module.label.clone())))
    }
}

fn hook_err(e: impl std::fmt::Display) -> HookError {
    HookError {
        message: e.to_string(),
    }
}

impl ScriptHooks<'_> {
    fn budget(&self) -> Result<u64, HookError> {
        host(self.lua)
            .map(|h| h.limits.hook_instructions)
            .map_err(hook_err)
    }

    /// Call `entry` of every module acting for `id` with a read-only ctx, the model's snapshot and
    /// `arg`; returns each module with what it returned.
    fn call_read(
        &self,
        game: &Game,
        id: ModelId,
        entry: &str,
        arg: &dyn Fn(&Lua) -> mlua::Result<Value>,
    ) -> Result<Vec<(&Module, Value)>, HookError> {
        let Ok(me) = game.model(id) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (module, params) in self.modules_for(me) {
            let Some(f) = module.function(entry) else {
                continue;
            };
            out.push((
                module,
                self.read_one(game, me, module, params.as_deref(), f, arg)?,
            ));
        }
        Ok(out)
    }

    /// Call `f` of `module` for `me` with a read-only ctx, the model's snapshot and `arg`.
    fn read_one(
        &self,
        game: &Game,
        me: &Model,
        module: &Module,
        params: Option<&Params>,
        f: &mlua::Function,
        arg: &dyn Fn(&Lua) -> mlua::Result<Value>,
    ) -> Result<Value, HookError> {
        let budget = self.budget()?;
        let lua = self.lua;
        let rules = &self.core.rules;
        with_budget(lua, budget, || {
            with_ctx(
                lua,
                Ctx::hook(View::Read(game), self, module, params_value(lua, params)?),
                |ctx| {
                    profiled(lua, f, || {
                        f.call::<Value>((ctx, model_snapshot(lua, game, rules, me)?, arg(lua)?))
                    })
                },
            )
        })
        .map_err(hook_err)
    }

    /// Call `entry` of every module acting for `id` with a ctx that may roll dice and ask for changes.
    fn call_act(
        &self,
        game: &mut Game,
        id: ModelId,
        entry: &str,
        intents: &std::cell::RefCell<Vec<Intent>>,
        arg: &dyn Fn(&Lua, &Game) -> mlua::Result<Value>,
    ) -> Result<Vec<(&Module, Value)>, HookError> {
        let modules = match game.model(id) {
            Ok(me) => self.modules_for(me),
            Err(_) => return Ok(Vec::new()),
        };
        let mut out = Vec::new();
        for (module, params) in modules {
            let Some(f) = module.function(entry) else {
                continue;
            };
            if game.model(id).is_err() {
                break;
            }
            let v = self.call_module_act(game, id, module, params.as_deref(), f, intents, arg)?;
            out.push((module, v));
        }
        Ok(out)
    }

    /// Call `entry` of every module acting for `id` and return the changes they asked for (on_charge,
    /// on_defeat, on_structural).
    fn ask_changes(
        &self,
        game: &mut Game,
        id: ModelId,
        entry: &str,
        arg: &dyn Fn(&Lua, &Game) -> mlua::Result<Value>,
    ) -> Result<Vec<Intent>, HookError> {
        let intents = std::cell::RefCell::new(Vec::new());
        self.call_act(game, id, entry, &intents, arg)?;
        Ok(intents.into_inner())
    }

    /// Call one function of `module` for model `id` with a ctx that may roll dice and ask for changes.
    #[allow(clippy::too_many_arguments)]
    fn call_module_act(
        &self,
        game: &mut Game,
        id: ModelId,
        module: &Module,
        params: Option<&Params>,
        f: &mlua::Function,
        intents: &std::cell::RefCell<Vec<Intent>>,
        arg: &dyn Fn(&Lua, &Game) -> mlua::Result<Value>,
    ) -> Result<Value, HookError> {
        let budget = self.budget()?;
        let lua = self.lua;
        let rules = &self.core.rules;
        let me = game.model(id).map_err(hook_err)?;
        let me_t = model_snapshot(lua, game, rules, me).map_err(hook_err)?;
        let arg_v = arg(lua, game).map_err(hook_err)?;
        with_budget(lua, budget, || {
            with_ctx(
                lua,
                Ctx {
                    intents: Some(intents),
                    ..Ctx::hook(
                        View::Act(&mut *game),
                        self,
                        module,
                        params_value(lua, params)?,
                    )
                },
                |ctx| {
                    profiled(lua, f, || {
                        f.call::<Value>((ctx, me_t.clone(), arg_v.clone()))
                    })
                },
            )
        })
        .map_err(hook_err)
    }
}

impl ScriptHooks<'_> {
    /// How the log names a module acting for a model: its file, and for a trait granted for this wave
    /// only, what granted it ("scripts/traits/long_move.lua (Stable II Warhorse)").
    fn source_for(&self, game: &Game, model: ModelId, module: &Module) -> String {
        let Ok(m) = game.model(model) else {
            return module.label.clone();
        };
        let granted = m.wave_traits.iter().find(|w| {
            m.granted_by(&w.name).is_some()
                && self
                    .core
                    .rosters
                    .trait_named(&w.name)
                    .and_then(|t| t.script.as_deref())
                    == Some(module.key.as_str())
        });
        match granted {
            Some(w) => format!("{} ({})", module.label, w.source),
            None => module.label.clone(),
        }
    }

    /// Call `f` of `module` with a ctx that may roll dice (logged) and no model of its own, then the
    /// values `args` builds: the policy's `deploy` and `blessing`, a variant's `build_wave`.
    fn call_plain(
        &self,
        game: &mut Game,
        module: &Module,
        f: &mlua::Function,
        args: &dyn Fn(&Lua, &Game) -> mlua::Result<Vec<Value>>,
    ) -> Result<Value, HookError> {
        let budget = self.budget()?;
        let lua = self.lua;
        let args = args(lua, game).map_err(hook_err)?;
        with_budget(lua, budget, || {
            with_ctx(
                lua,
                Ctx::hook(View::Act(&mut *game), self, module, Value::Nil),
                |ctx| {
                    let mut all = mlua::MultiValue::new();
                    all.push_back(Value::UserData(ctx));
                    all.extend(args.iter().cloned());
                    profiled(lua, f, || f.call::<Value>(all))
                },
            )
        })
        .map_err(hook_err)
    }

    /// The hero policy's module (scripts/policies/<name>.lua), if loaded.
    fn policy_module(&self) -> Option<&Module> {
        self.registry
            .get(&format!("policies/{}.lua", self.core.policy))
    }

    /// The script module of the Behaviour `model` plays, if it has one.
    fn behaviour_module(&self, game: &Game, model: ModelId) -> Result<Option<&Module>, HookError> {
        let Ok(me) = game.model(model) else {
            return Ok(None);
        };
        let Some(name) = me.behaviour.as_deref() else {
            return Ok(None);
        };
        let behaviour = self.core.rosters.behaviour(name).ok_or_else(|| HookError {
            message: format!(
                "{}: unknown Behaviour {name:?}",
                crate::rules::query::label(me)
            ),
        })?;
        let Some(key) = behaviour.script.as_deref() else {
            return Ok(None);
        };
        self.registry.get(key).map(Some).ok_or_else(|| HookError {
            message: format!("the {name} Behaviour's script {key} is not loaded"),
        })
    }
}

impl ScriptHooks<'_> {
    /// Run a reward script's entry point `f` (an Opportunity's `claim`/`wave_end`, an item's `use`) with
    /// a ctx that may roll dice and collect rewards; its arguments are `(ctx, hero, params, info)`.
    #[allow(clippy::too_many_arguments)]
    fn run_reward(
        &self,
        game: &mut Game,
        module: &Module,
        f: &mlua::Function,
        params: &Params,
        hero: Option<ModelId>,
        claim: bool,
        info: &dyn Fn(&Lua) -> mlua::Result<Table>,
    ) -> Result<Vec<Reward>, HookError> {
        let budget = self.budget()?;
        let lua = self.lua;
        let rules = &self.core.rules;
        let hero_v = match hero.and_then(|h| game.model(h).ok()) {
            Some(m) => Value::Table(model_snapshot(lua, game, rules, m).map_err(hook_err)?),
            None => Value::Nil,
        };
        let params_v = params_value(lua, Some(params)).map_err(hook_err)?;
        let info_v = info(lua).map_err(hook_err)?;
        let list = std::cell::RefCell::new(Vec::new());
        with_budget(lua, budget, || {
            with_ctx(
                lua,
                Ctx {
                    reward: Some(RewardCtx {
                        list: &list,
                        script: module.key.clone(),
                        params: params.clone(),
                        hero,
                        claim,
                    }),
                    ..Ctx::hook(View::Act(&mut *game), self, module, params_v.clone())
                },
                |ctx| {
                    profiled(lua, f, || {
                        f.call::<Value>((ctx, hero_v.clone(), params_v.clone(), info_v.clone()))
                    })
                },
            )
        })
        .map_err(hook_err)?;
        Ok(list.into_inner())
    }
}

/// What a Behaviour aims at, as its scripts see it: a snapshot, a point or `{ edge = true }`.
fn aim_value(lua: &Lua, game: &Game, rules: &Rules, aim: &Aim) -> mlua::Result<Value> {
    Ok(match aim {
        Aim::Model(id) => match game.model(*id) {
            Ok(m) => Value::Table(model_snapshot(lua, game, rules, m)?),
            Err(_) => Value::Nil,
        },
        Aim::Building(name) => match game.building(name) {
            Ok(b) => Value::Table(building_snapshot(lua, b)?),
            Err(_) => Value::Nil,
        },
        Aim::Point(p) => Value::Table(super::convert::pos_table(lua, *p)?),
        Aim::Edge => {
            let t = lua.create_table()?;
            t.raw_set("edge", true)?;
            Value::Table(t)
        }
    })
}

/// Read an order (a Behaviour's or a policy's `act`) from what the script returned.
fn order_of(module: &Module, entry: &str, v: Value) -> Result<Option<Order>, HookError> {
    parse_order(v, &|what: &str| bad_return(module, entry, what))
}

/// Read an order given to `g:order` (models as handles or snapshots); the error says what was wrong.
pub(crate) fn order_from(v: Value) -> Result<Option<Order>, HookError> {
    parse_order(v, &|what: &str| HookError {
        message: format!("the order is {what}"),
    })
}

/// Read an order from a table: one of its keys (see `BehaviourOrder` in the spec).
fn parse_order(v: Value, bad: &dyn Fn(&str) -> HookError) -> Result<Option<Order>, HookError> {
    let Value::Table(t) = v else {
        return match v {
            Value::Nil => Ok(None),
            other => Err(bad(&format!("a {}", other.type_name()))),
        };
    };
    let model_in = |key: &str| -> Result<Option<ModelId>, HookError> {
        match t.raw_get::<Value>(key).map_err(hook_err)? {
            Value::Table(s) => Ok(Some(id_of(&s).map_err(hook_err)?)),
            Value::UserData(ud) => match ud.borrow::<super::handles::ModelRef>() {
                Ok(m) => Ok(Some(m.id)),
                Err(_) => Err(bad(&format!("{key} that is not a model"))),
            },
            Value::Nil => Ok(None),
            _ => Err(bad(&format!("{key} that is not a model snapshot"))),
        }
    };
    let building_in = |key: &str| -> Result<Option<String>, HookError> {
        match t.raw_get::<Value>(key).map_err(hook_err)? {
            Value::Table(s) => Ok(Some(s.raw_get::<String>("name").map_err(hook_err)?)),
            Value::String(n) => Ok(Some(n.to_string_lossy())),
            Value::Nil => Ok(None),
            _ => Err(bad(&format!("{key} that is not a building"))),
        }
    };
    let flag = |key: &str| -> Result<bool, HookError> {
        match t.raw_get::<Value>(key).map_err(hook_err)? {
            Value::Nil => Ok(false),
            Value::Boolean(b) => Ok(b),
            other => Err(bad(&format!(
                "{key} = a {} (expected true or false)",
                other.type_name()
            ))),
        }
    };
    if let Some(id) = model_in("melee")? {
        return Ok(Some(if flag("power_blow")? {
            Order::PowerBlow(id)
        } else {
            Order::Melee(id)
        }));
    }
    if let Some(id) = model_in("shoot")? {
        return Ok(Some(if flag("aimed")? {
            Order::AimedShot(id)
        } else {
            Order::Shoot(id)
        }));
    }
    if let Some(b) = building_in("structural")? {
        return Ok(Some(Order::Structural(b)));
    }
    if let Some(b) = building_in("ignite")? {
        return Ok(Some(Order::Ignite(b)));
    }
    if t.raw_get::<Option<bool>>("leave")
        .map_err(hook_err)?
        .unwrap_or(false)
    {
        return Ok(Some(Order::Leave));
    }
    match t.raw_get::<Value>("claim").map_err(hook_err)? {
        Value::Nil => {}
        Value::Integer(i) if i > 0 => return Ok(Some(Order::Claim(TokenId(i as u32)))),
        Value::Table(tok) => {
            let id = tok
                .raw_get::<Option<u32>>("id")
                .map_err(hook_err)?
                .ok_or_else(|| bad("claim = a table without a token id"))?;
            return Ok(Some(Order::Claim(TokenId(id))));
        }
        other => {
            return Err(bad(&format!(
                "claim = {} (expected a token from ctx:tokens or its id)",
                other.type_name()
            )))
        }
    }
    match t.raw_get::<Value>("use").map_err(hook_err)? {
        Value::Nil => {}
        Value::String(name) => return Ok(Some(Order::Use(name.to_string_lossy()))),
        other => {
            return Err(bad(&format!(
                "use = {} (expected the name of an item it carries)",
                other.type_name()
            )))
        }
    }
    if let Some(id) = model_in("heal")? {
        let what = match t.raw_get::<Value>("what").map_err(hook_err)? {
            Value::Nil => None,
            Value::String(w) if w.to_string_lossy() == "wound" => {
                Some(crate::rules::magic::Heal::Wound)
            }
            Value::String(w) => Some(crate::rules::magic::Heal::Condition(
                parse_condition(&w.to_string_lossy()).ok_or_else(|| {
                    bad(&format!(
                        "what = {:?}: not \"wound\" or a condition",
                        w.to_string_lossy()
                    ))
                })?,
            )),
            other => return Err(bad(&format!("what = a {}", other.type_name()))),
        };
        return Ok(Some(Order::Heal { target: id, what }));
    }
    if let Some(name) = t.raw_get::<Option<String>>("ability").map_err(hook_err)? {
        let target = abilities::ability_target(t.raw_get::<Value>("target").map_err(hook_err)?)
            .map_err(|why| bad(&why))?;
        return Ok(Some(Order::Ability { name, target }));
    }
    let aim = match t.raw_get::<Value>("move").map_err(hook_err)? {
        Value::Table(m) => Some(
            aim_of(&m)
                .map_err(hook_err)?
                .ok_or_else(|| bad("move = something it cannot move toward"))?,
        ),
        Value::UserData(_) => model_in("move")?.map(Aim::Model),
        _ => None,
    };
    if let Some(aim) = aim {
        return match t.raw_get::<Value>("within").map_err(hook_err)? {
            Value::Nil => Ok(Some(Order::Move(aim))),
            Value::Integer(n) if n >= 0 => Ok(Some(Order::Approach {
                aim,
                within: n as f64,
            })),
            Value::Number(n) if n.is_finite() && n >= 0.0 => {
                Ok(Some(Order::Approach { aim, within: n }))
            }
            other => Err(bad(&format!(
                "within = {other:?} (expected inches, 0 or more)"
            ))),
        };
    }
    Err(bad(
        "none of melee, shoot, structural, ignite, move, leave, claim, use, heal or ability",
    ))
}

/// Read an aim back from what a script returned (a snapshot, a point, `{ edge = true }`).
fn aim_of(t: &Table) -> mlua::Result<Option<Aim>> {
    if t.raw_get::<Option<bool>>("edge")?.unwrap_or(false) {
        return Ok(Some(Aim::Edge));
    }
    if let Some(id) = t.raw_get::<Option<u32>>("id")? {
        return Ok(Some(Aim::Model(ModelId(id))));
    }
    if let Some(name) = t.raw_get::<Option<String>>("name")? {
        return Ok(Some(Aim::Building(name)));
    }
    match (
        t.raw_get::<Option<f64>>("x")?,
        t.raw_get::<Option<f64>>("y")?,
    ) {
        (Some(x), Some(y)) => Ok(Some(Aim::Point(crate::geometry::Vec2::new(x, y)))),
        _ => Ok(None),
    }
}

/// A position in an order: `{x = .., y = ..}` or `{x, y}`.
fn pos_of(key: &str, v: &Value) -> Result<crate::geometry::Vec2, String> {
    let Value::Table(t) = v else {
        return Err(format!(
            "{key} = a {} (expected a position {{x = .., y = ..}})",
            v.type_name()
        ));
    };
    let get = |named: &str, index: i64| -> Result<f64, String> {
        let v = match t.raw_get::<Value>(named).map_err(|e| e.to_string())? {
            Value::Nil => t.raw_get::<Value>(index).map_err(|e| e.to_string())?,
            v => v,
        };
        match v {
            Value::Integer(i) => Ok(i as f64),
            Value::Number(n) if n.is_finite() => Ok(n),
            _ => Err(format!("{key} without a number `{named}`")),
        }
    };
    Ok(crate::geometry::Vec2::new(get("x", 1)?, get("y", 2)?))
}

/// A building or hero in an order: a name or a snapshot (its `name`).
fn name_of(key: &str, v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.to_string_lossy()),
        Value::Table(t) => match t.raw_get::<Value>("name").map_err(|e| e.to_string())? {
            Value::String(s) => Ok(s.to_string_lossy()),
            _ => Err(format!("{key} = a table without a `name`")),
        },
        other => Err(format!(
            "{key} = a {} (expected a name or a snapshot)",
            other.type_name()
        )),
    }
}

/// A model named in a script's answer: a snapshot (or any table with `id`) or a model id.
fn answer_model(module: &Module, entry: &str, key: &str, v: &Value) -> Result<ModelId, HookError> {
    match v {
        Value::Table(t) => id_of(t).map_err(|_| {
            bad_return(
                module,
                entry,
                &format!("{key} = a table without a model id"),
            )
        }),
        Value::Integer(i) if *i > 0 && *i <= i64::from(u32::MAX) => Ok(ModelId(*i as u32)),
        other => Err(bad_return(
            module,
            entry,
            &format!("{key} = a {} (expected a model)", other.type_name()),
        )),
    }
}

/// The order kinds of a Council order and the other keys each accepts (spec: `CouncilOrder`).
const COUNCIL_KEYS: &[(&str, &[&str])] = &[
    ("upgrade", &["level"]),
    ("repair", &["supplies", "free"]),
    ("barricade", &["toward", "free", "reinforce"]),
    ("trap", &["free"]),
    ("heal", &[]),
    ("herb", &[]),
    ("resurrect", &["at"]),
];

/// Read the Council orders a policy's `council` (or `g:council`) gave: nil (no orders) or an array of
/// order tables, each with exactly one kind key and only that kind's other keys. A malformed order is
/// an error naming it, not a refusal: refusals are for well-formed orders the rules do not allow.
pub(crate) fn council_orders_of(v: &Value) -> Result<Vec<CouncilOrder>, String> {
    let list = match v {
        Value::Nil => return Ok(Vec::new()),
        Value::Table(t) => t,
        other => {
            return Err(format!(
                "a {} (expected an array of Council orders)",
                other.type_name()
            ))
        }
    };
    let mut out = Vec::new();
    for (i, item) in list.clone().sequence_values::<Value>().enumerate() {
        let at = i + 1;
        let item = item.map_err(|e| e.to_string())?;
        let Value::Table(t) = item else {
            return Err(format!(
                "order {at}: a {} (expected a table)",
                item.type_name()
            ));
        };
        let mut keys = Vec::new();
        for pair in t.clone().pairs::<Value, Value>() {
            let (k, _) = pair.map_err(|e| e.to_string())?;
            match k {
                Value::String(k) => keys.push(k.to_string_lossy()),
                other => return Err(format!("order {at}: a {} key", other.type_name())),
            }
        }
        let kinds: Vec<&(&str, &[&str])> = COUNCIL_KEYS
            .iter()
            .filter(|(k, _)| keys.iter().any(|x| x == k))
            .collect();
        let [(kind, extra)] = kinds[..] else {
            return Err(format!(
                "order {at}: it needs exactly one of upgrade, repair, barricade, trap, heal, herb or resurrect"
            ));
        };
        if let Some(k) = keys
            .iter()
            .find(|k| k.as_str() != *kind && !extra.contains(&k.as_str()))
        {
            return Err(format!("order {at} ({kind}): unknown key {k:?}"));
        }
        let get = |k: &str| t.raw_get::<Value>(k).map_err(|e| e.to_string());
        let flag = |k: &str| -> Result<bool, String> {
            match get(k)? {
                Value::Nil => Ok(false),
                Value::Boolean(b) => Ok(b),
                other => Err(format!("order {at}: {k} = a {}", other.type_name())),
            }
        };
        let whole = |k: &str| -> Result<Option<u32>, String> {
            match get(k)? {
                Value::Nil => Ok(None),
                Value::Integer(n) if (0..=i64::from(u16::MAX)).contains(&n) => Ok(Some(n as u32)),
                Value::Number(n)
                    if n.fract() == 0.0 && (0.0..=f64::from(u16::MAX)).contains(&n) =>
                {
                    Ok(Some(n as u32))
                }
                other => Err(format!(
                    "order {at}: {k} = {other:?} (expected a whole number)"
                )),
            }
        };
        let main = get(kind)?;
        let named = |v: &Value| name_of(kind, v).map_err(|e| format!("order {at}: {e}"));
        let pos = |k: &str, v: &Value| pos_of(k, v).map_err(|e| format!("order {at}: {e}"));
        out.push(match *kind {
            "upgrade" => CouncilOrder::Upgrade {
                building: named(&main)?,
                level: whole("level")?.map(|l| l.min(u32::from(u8::MAX)) as u8),
            },
            "repair" => CouncilOrder::Repair {
                building: named(&main)?,
                supplies: whole("supplies")?,
                free: flag("free")?,
            },
            "barricade" => CouncilOrder::Barricade {
                from: pos("barricade", &main)?,
                toward: pos("toward", &get("toward")?)?,
                free: flag("free")?,
                reinforce: flag("reinforce")?,
            },
            "trap" if flag("free")? => CouncilOrder::FreeTrap {
                at: pos("trap", &main)?,
            },
            "trap" => CouncilOrder::Trap {
                at: pos("trap", &main)?,
            },
            "heal" => CouncilOrder::Heal {
                hero: named(&main)?,
            },
            "herb" => CouncilOrder::Herb {
                hero: named(&main)?,
            },
            _ => CouncilOrder::Resurrect {
                hero: named(&main)?,
                at: match get("at")? {
                    Value::Nil => None,
                    v => Some(pos("at", &v)?),
                },
            },
        });
    }
    Ok(out)
}

/// Check that a script's answer table holds only `allowed` keys (a typo is an error, not a choice that
/// silently never happens).
fn only_keys(module: &Module, entry: &str, t: &Table, allowed: &[&str]) -> Result<(), HookError> {
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair.map_err(hook_err)?;
        let name = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => format!("a {} key", other.type_name()),
        };
        if !allowed.contains(&name.as_str()) {
            return Err(bad_return(
                module,
                entry,
                &format!("{name:?} (expected {})", allowed.join(", ")),
            ));
        }
    }
    Ok(())
}

/// Read the policy's `deploy` answer: nil, or `{ warhorse = hero, ready_mounts = { hero = h, to = {x, y} } }`.
fn deploy_choices_of(module: &Module, v: Value) -> Result<DeployChoices, HookError> {
    let mut out = DeployChoices {
        source: module.label.clone(),
        ..DeployChoices::default()
    };
    let t = match v {
        Value::Nil => return Ok(out),
        Value::Table(t) => t,
        other => {
            return Err(bad_return(
                module,
                "deploy",
                &format!(
                    "a {} (expected a DeployChoices table or nil)",
                    other.type_name()
                ),
            ))
        }
    };
    only_keys(module, "deploy", &t, &["warhorse", "ready_mounts"])?;
    let w: Value = t.raw_get("warhorse").map_err(hook_err)?;
    if !w.is_nil() {
        out.warhorse = Some(answer_model(module, "deploy", "warhorse", &w)?);
    }
    match t.raw_get::<Value>("ready_mounts").map_err(hook_err)? {
        Value::Nil => {}
        Value::Table(rm) => {
            only_keys(module, "deploy", &rm, &["hero", "to"])?;
            let hero = answer_model(
                module,
                "deploy",
                "ready_mounts.hero",
                &rm.raw_get::<Value>("hero").map_err(hook_err)?,
            )?;
            let to = match rm.raw_get::<Value>("to").map_err(hook_err)? {
                Value::Table(p) => match (
                    p.raw_get::<Option<f64>>("x").map_err(hook_err)?,
                    p.raw_get::<Option<f64>>("y").map_err(hook_err)?,
                ) {
                    (Some(x), Some(y)) if x.is_finite() && y.is_finite() => {
                        crate::geometry::Vec2::new(x, y)
                    }
                    _ => {
                        return Err(bad_return(
                            module,
                            "deploy",
                            "ready_mounts.to without finite x and y",
                        ))
                    }
                },
                _ => {
                    return Err(bad_return(
                        module,
                        "deploy",
                        "ready_mounts without `to = {x, y}`",
                    ))
                }
            };
            out.ready_mounts = Some((hero, to));
        }
        other => {
            return Err(bad_return(
                module,
                "deploy",
                &format!("ready_mounts = a {}", other.type_name()),
            ))
        }
    }
    Ok(out)
}

/// Read a variant's `build_wave` answer: nil (use the default builder) or an array of Groups
/// `{ models = {profile, ...}, behaviour = "...", edge = 1..4 }`. Only the shape is checked here; the
/// kernel checks the rules (`wave::plan_from_script`).
fn scripted_wave_of(module: &Module, v: Value) -> Result<Option<ScriptedWave>, HookError> {
    let t = match v {
        Value::Nil => return Ok(None),
        Value::Table(t) => t,
        other => {
            return Err(bad_return(
                module,
                "build_wave",
                &format!(
                    "a {} (expected an array of Groups or nil)",
                    other.type_name()
                ),
            ))
        }
    };
    let mut groups = Vec::new();
    for (i, item) in t.sequence_values::<Value>().enumerate() {
        let n = i + 1;
        let Value::Table(g) = item.map_err(hook_err)? else {
            return Err(bad_return(
                module,
                "build_wave",
                &format!("Group {n} that is not a table"),
            ));
        };
        only_keys(module, "build_wave", &g, &["models", "behaviour", "edge"])?;
        let models = g
            .raw_get::<Option<Vec<String>>>("models")
            .ok()
            .flatten()
            .ok_or_else(|| {
                bad_return(
                    module,
                    "build_wave",
                    &format!("Group {n} without `models`, an array of profile names"),
                )
            })?;
        let behaviour = g
            .raw_get::<Option<String>>("behaviour")
            .ok()
            .flatten()
            .ok_or_else(|| {
                bad_return(
                    module,
                    "build_wave",
                    &format!("Group {n} without `behaviour`"),
                )
            })?;
        let edge = match g.raw_get::<Value>("edge").map_err(hook_err)? {
            Value::Integer(e) => e,
            Value::Number(x) if x.fract() == 0.0 && x.abs() < 1e9 => x as i64,
            other => {
                return Err(bad_return(
                    module,
                    "build_wave",
                    &format!(
                        "Group {n} with edge = a {} (expected 1 to 4)",
                        other.type_name()
                    ),
                ))
            }
        };
        groups.push(ScriptedGroup {
            models,
            behaviour,
            edge,
        });
    }
    Ok(Some(ScriptedWave {
        source: module.label.clone(),
        groups,
    }))
}

/// The table `win_rules` and `on_result` hooks receive about a won roll.
fn win_table(
    lua: &Lua,
    game: &Game,
    rules: &Rules,
    win: &WinInfo,
    me: ModelId,
    result: CombatResult,
) -> mlua::Result<Value> {
    let t = lua.create_table()?;
    t.raw_set("kind", win.kind.as_str())?;
    t.raw_set("result", result.as_str())?;
    t.raw_set("role", if me == win.winner { "winner" } else { "loser" })?;
    t.raw_set("attacker_won", win.attacker_won)?;
    t.raw_set("winner_die", win.winner_die)?;
    t.raw_set("winner_total", win.winner_total)?;
    t.raw_set("loser_total", win.loser_total)?;
    let other = if me == win.winner {
        win.loser
    } else {
        win.winner
    };
    if let Ok(o) = game.model(other) {
        t.raw_set("opponent", model_snapshot(lua, game, rules, o)?)?;
    }
    Ok(Value::Table(t))
}

fn parse_condition(name: &str) -> Option<Condition> {
    Some(match name {
        "defenseless" => Condition::Defenseless,
        "transfixed" => Condition::Transfixed,
        "entangled" => Condition::Entangled,
        _ => return None,
    })
}

fn parse_result(name: &str) -> Option<CombatResult> {
    Some(match name {
        "tie" => CombatResult::Tie,
        "recoil" => CombatResult::Recoil,
        "defenseless" => CombatResult::Defenseless,
        "defeated" => CombatResult::Defeated,
        "gruesome" => CombatResult::Gruesome,
        "none" => CombatResult::None,
        "wound" => CombatResult::Wound,
        "entangled" => CombatResult::Entangled,
        _ => return None,
    })
}

fn snapshots(lua: &Lua, game: &Game, rules: &Rules, ids: &[ModelId]) -> mlua::Result<Value> {
    let t = lua.create_table()?;
    for id in ids {
        if let Ok(m) = game.model(*id) {
            t.raw_push(model_snapshot(lua, game, rules, m)?)?;
        }
    }
    Ok(Value::Table(t))
}

fn bad_return(module: &Module, entry: &str, what: &str) -> HookError {
    HookError {
        message: format!("{}: {entry} returned {what}", module.label),
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Attacker => "attacker",
        Role::Defender => "defender",
    }
}

fn other(r: Role) -> Role {
    match r {
        Role::Attacker => Role::Defender,
        Role::Defender => Role::Attacker,
    }
}

impl Hooks for ScriptHooks<'_> {
    fn roll_modifiers(&self, game: &Game, roll: &RollInfo) -> Result<Vec<Modifier>, HookError> {
        let entry = format!("{}_modifier", roll.kind.as_str());
        let target_model = match &roll.target {
            Target::Model(id) => Some(*id),
            Target::Building(_) | Target::Token(_) => None,
        };
        let rules = &self.core.rules;
        let mut out = Vec::new();
        for (role, id) in [
            (Role::Attacker, Some(roll.attacker)),
            (Role::Defender, target_model),
        ] {
            let Some(id) = id else { continue };
            let Ok(me) = game.model(id) else { continue };
            let roll_t = |lua: &Lua| roll_table(lua, game, rules, roll, role).map(Value::Table);
            for (module, params) in self.modules_for(me) {
                let Some(f) = module.function(&entry) else {
                    continue;
                };
                let returned = self.read_one(game, me, module, params.as_deref(), f, &roll_t)?;
                parse_modifiers(&returned, role, module, &entry, &mut out)?;
            }
        }
        Ok(out)
    }

    fn win_rules(&self, game: &Game, win: &WinInfo) -> Result<WinRules, HookError> {
        let rules = &self.core.rules;
        let arg = |lua: &Lua| win_table(lua, game, rules, win, win.winner, win.result);
        let mut out = WinRules::default();
        for (module, v) in self.call_read(game, win.winner, "win_rules", &arg)? {
            let Value::Table(t) = v else {
                if v.is_nil() {
                    continue;
                }
                return Err(bad_return(
                    module,
                    "win_rules",
                    "something other than a table or nil",
                ));
            };
            match t.raw_get::<Value>("lethal").map_err(hook_err)? {
                Value::Nil | Value::Boolean(false) => {}
                Value::String(why) if out.lethal.is_none() => {
                    out.lethal = Some((why.to_string_lossy(), module.label.clone()))
                }
                Value::Boolean(true) if out.lethal.is_none() => {
                    out.lethal = Some((module.stem().to_string(), module.label.clone()))
                }
                _ => {}
            }
            if let Some(m) = t
                .raw_get::<Option<i32>>("gruesome_multiplier")
                .map_err(hook_err)?
            {
                if !(1..=10).contains(&m) {
                    return Err(bad_return(
                        module,
                        "win_rules",
                        &format!("gruesome_multiplier = {m}"),
                    ));
                }
                if out
                    .gruesome_multiplier
                    .as_ref()
                    .is_none_or(|(cur, _)| m < *cur)
                {
                    out.gruesome_multiplier = Some((m, module.label.clone()));
                }
            }
        }
        Ok(out)
    }

    fn on_result(&self, game: &mut Game, win: &WinInfo) -> Result<ResultChange, HookError> {
        let intents = std::cell::RefCell::new(Vec::new());
        let mut change = ResultChange::default();
        let mut current = win.result;
        for who in [win.winner, win.loser] {
            let rules = &self.core.rules;
            let now = current;
            let arg = |lua: &Lua, g: &Game| win_table(lua, g, rules, win, who, now);
            for (module, v) in self.call_act(game, who, "on_result", &intents, &arg)? {
                let Value::Table(t) = v else { continue };
                if let Some(d) = self.recoil_of(module, &t)? {
                    change.recoil = Some(d);
                }
                let Some(name) = t.raw_get::<Option<String>>("result").map_err(hook_err)? else {
                    continue;
                };
                let to = parse_result(&name).ok_or_else(|| {
                    bad_return(module, "on_result", &format!("result = {name:?}"))
                })?;
                let reason = t
                    .raw_get::<Option<String>>("reason")
                    .map_err(hook_err)?
                    .unwrap_or_else(|| module.stem().to_string());
                current = to;
                change.replace = Some((to, reason, module.label.clone()));
            }
        }
        if let Some(r) = self.friend_result(game, win, current, &intents)? {
            change.replace = Some(r);
        }
        change.intents = intents.into_inner();
        Ok(change)
    }

    fn order_cost(
        &self,
        game: &Game,
        model: ModelId,
        order: &Order,
        cost: u8,
    ) -> Result<Option<crate::rules::hooks::CostChange>, HookError> {
        self.cost_change(game, model, order, cost)
    }

    fn on_opponent_activation(
        &self,
        game: &mut Game,
        activating: &[ModelId],
    ) -> Result<Vec<Intent>, HookError> {
        self.opponent_activation(game, activating)
    }

    fn activation_reroll(
        &self,
        game: &mut Game,
        activating: &[ModelId],
        dice: &[u8],
        quality: u8,
    ) -> Result<Option<crate::rules::hooks::Reroll>, HookError> {
        self.reroll(game, activating, dice, quality)
    }

    fn on_defeat(&self, game: &mut Game, model: ModelId) -> Result<Vec<Intent>, HookError> {
        let arg = |_: &Lua, _: &Game| Ok(Value::Nil);
        self.ask_changes(game, model, "on_defeat", &arg)
    }

    fn on_structural(
        &self,
        game: &mut Game,
        attacker: ModelId,
        building: &str,
        won: bool,
    ) -> Result<Vec<Intent>, HookError> {
        let arg = |lua: &Lua, _: &Game| -> mlua::Result<Value> {
            let t = lua.create_table()?;
            t.raw_set("building", building)?;
            t.raw_set("won", won)?;
            Ok(Value::Table(t))
        };
        self.ask_changes(game, attacker, "on_structural", &arg)
    }

    fn ability_check(
        &self,
        game: &mut Game,
        model: ModelId,
        name: &str,
        target: Option<&crate::rules::hooks::AbilityTarget>,
    ) -> Result<crate::rules::hooks::AbilityCheck, HookError> {
        self.check_ability(game, model, name, target)
    }

    fn ability_run(
        &self,
        game: &mut Game,
        model: ModelId,
        name: &str,
        target: Option<&crate::rules::hooks::AbilityTarget>,
    ) -> Result<Vec<Intent>, HookError> {
        self.run_ability(game, model, name, target)
    }

    fn on_charge(
        &self,
        game: &mut Game,
        mover: ModelId,
        charged: &[ModelId],
    ) -> Result<Vec<Intent>, HookError> {
        let rules = &self.core.rules;
        let arg = |lua: &Lua, g: &Game| snapshots(lua, g, rules, charged);
        self.ask_changes(game, mover, "on_charge", &arg)
    }

    fn behaviour_target(&self, game: &mut Game, model: ModelId) -> Result<Option<Aim>, HookError> {
        let Some(module) = self.behaviour_module(game, model)? else {
            return Ok(None);
        };
        let Ok(me) = game.model(model) else {
            return Ok(None);
        };
        let (side, group) = (me.side, me.group);
        let Some(f) = module.function("target") else {
            return Ok(None);
        };
        let rules = &self.core.rules;
        let arg = |lua: &Lua, g: &Game| {
            let members: Vec<ModelId> = g
                .models
                .iter()
                .filter(|m| {
                    m.side == side && (m.id == model || (group.is_some() && m.group == group))
                })
                .map(|m| m.id)
                .collect();
            snapshots(lua, g, rules, &members)
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let v = self.call_module_act(game, model, module, None, f, &intents, &arg)?;
        match v {
            Value::Nil => Ok(None),
            Value::Table(t) => aim_of(&t).map_err(hook_err)?.map(Some).ok_or_else(|| {
                bad_return(
                    module,
                    "target",
                    "a table that is no model, building, point or { edge = true }",
                )
            }),
            other => Err(bad_return(
                module,
                "target",
                &format!("a {}", other.type_name()),
            )),
        }
    }

    fn policy_dice(&self, game: &mut Game, model: ModelId) -> Result<u8, HookError> {
        let Some(module) = self.policy_module() else {
            return Ok(2);
        };
        let Some(f) = module.function("activate") else {
            return Ok(2);
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let arg = |_: &Lua, _: &Game| Ok(Value::Nil);
        match self.call_module_act(game, model, module, None, f, &intents, &arg)? {
            Value::Nil => Ok(2),
            Value::Integer(n @ 1..=3) => Ok(n as u8),
            other => Err(bad_return(
                module,
                "activate",
                &format!("{} (expected 1, 2 or 3 dice)", other.type_name()),
            )),
        }
    }

    fn policy_order(&self, game: &mut Game, model: ModelId) -> Result<Option<Order>, HookError> {
        let Some(module) = self.policy_module() else {
            return Ok(None);
        };
        let Some(f) = module.function("act") else {
            return Ok(None);
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let arg = |_: &Lua, _: &Game| Ok(Value::Nil);
        let v = self.call_module_act(game, model, module, None, f, &intents, &arg)?;
        order_of(module, "act", v)
    }

    fn policy_council(
        &self,
        game: &mut Game,
        info: &CouncilInfo,
    ) -> Result<Vec<CouncilOrder>, HookError> {
        let Some(module) = self.policy_module() else {
            return Ok(Vec::new());
        };
        let Some(f) = module.function("council") else {
            return Ok(Vec::new());
        };
        let arg = |lua: &Lua, _: &Game| Ok(vec![super::convert::to_lua(lua, info)?]);
        let v = self.call_plain(game, module, f, &arg)?;
        council_orders_of(&v).map_err(|what| bad_return(module, "council", &what))
    }

    fn behaviour_act(
        &self,
        game: &mut Game,
        model: ModelId,
        aim: &Aim,
    ) -> Result<Option<Order>, HookError> {
        let Some(module) = self.behaviour_module(game, model)? else {
            return Ok(None);
        };
        let Some(f) = module.function("act") else {
            return Ok(None);
        };
        let rules = &self.core.rules;
        let arg = |lua: &Lua, g: &Game| aim_value(lua, g, rules, aim);
        let intents = std::cell::RefCell::new(Vec::new());
        let v = self.call_module_act(game, model, module, None, f, &intents, &arg)?;
        order_of(module, "act", v)
    }

    fn opportunity(
        &self,
        game: &mut Game,
        call: &OpportunityCall,
    ) -> Result<Vec<Reward>, HookError> {
        let row = call.row;
        let Some(key) = row.script.as_deref() else {
            return Ok(Vec::new());
        };
        let module = self.registry.get(key).ok_or_else(|| HookError {
            message: format!(
                "the Opportunity {:?}'s script {key} is not loaded",
                row.name
            ),
        })?;
        let entry = call.entry.as_str();
        let f = module.function(entry).ok_or_else(|| HookError {
            message: format!(
                "{}: the Opportunity {:?} resolves at {entry} but its script has no `{entry}`",
                module.label, row.name
            ),
        })?;
        let info = |lua: &Lua| {
            let t = lua.create_table()?;
            t.raw_set("roll", row.roll)?;
            t.raw_set("name", row.name.as_str())?;
            t.raw_set("timing", call.entry.as_str())?;
            if let Some((id, at)) = call.token {
                let tok = lua.create_table()?;
                tok.raw_set("id", id.0)?;
                tok.raw_set("kind", "opportunity")?;
                tok.raw_set("x", at.x)?;
                tok.raw_set("y", at.y)?;
                t.raw_set("token", tok)?;
            }
            Ok(t)
        };
        let claim = call.entry == OpportunityEntry::Claim;
        self.run_reward(game, module, f, &row.params, call.hero, claim, &info)
    }

    fn use_item(
        &self,
        game: &mut Game,
        model: ModelId,
        item: &Item,
    ) -> Result<Vec<Reward>, HookError> {
        let module = self.registry.get(&item.script).ok_or_else(|| HookError {
            message: format!("the {}'s script {} is not loaded", item.name, item.script),
        })?;
        let f = module.function("use").ok_or_else(|| HookError {
            message: format!(
                "{}: the {} cannot be used (its script has no `use`)",
                module.label, item.name
            ),
        })?;
        let info = |lua: &Lua| {
            let t = lua.create_table()?;
            t.raw_set("name", item.name.as_str())?;
            Ok(t)
        };
        self.run_reward(game, module, f, &item.params, Some(model), false, &info)
    }

    fn deploy_choices(
        &self,
        game: &mut Game,
        step: &DeployStep,
    ) -> Result<DeployChoices, HookError> {
        let Some(module) = self.policy_module() else {
            return Ok(DeployChoices::default());
        };
        let Some(f) = module.function("deploy") else {
            return Ok(DeployChoices::default());
        };
        let arg = |lua: &Lua, _: &Game| {
            let t = lua.create_table()?;
            t.raw_set("step", step.step.as_str())?;
            t.raw_set("asks", step.asks.clone())?;
            if let Some(e) = &step.edges {
                t.raw_set("edges", e.clone())?;
            }
            Ok(vec![Value::Table(t)])
        };
        let v = self.call_plain(game, module, f, &arg)?;
        deploy_choices_of(module, v)
    }

    fn blessing(
        &self,
        game: &mut Game,
        group: &[ModelId],
    ) -> Result<Option<(String, String)>, HookError> {
        let Some(module) = self.policy_module() else {
            return Ok(None);
        };
        let Some(f) = module.function("blessing") else {
            return Ok(None);
        };
        let rules = &self.core.rules;
        let arg = |lua: &Lua, g: &Game| Ok(vec![snapshots(lua, g, rules, group)?]);
        let name = match self.call_plain(game, module, f, &arg)? {
            Value::Nil => return Ok(None),
            Value::String(s) => s.to_string_lossy(),
            Value::Table(t) => t
                .raw_get::<Option<String>>("name")
                .map_err(hook_err)?
                .ok_or_else(|| bad_return(module, "blessing", "a table that is no building"))?,
            other => {
                return Err(bad_return(
                    module,
                    "blessing",
                    &format!(
                        "a {} (expected a building, its name or nil)",
                        other.type_name()
                    ),
                ))
            }
        };
        Ok(Some((name, module.label.clone())))
    }

    fn build_wave(
        &self,
        game: &mut Game,
        ask: &WaveAsk,
    ) -> Result<Option<ScriptedWave>, HookError> {
        let builders: Vec<&Module> = self
            .core
            .variants
            .iter()
            .filter_map(|v| self.registry.variant(v))
            .filter(|m| m.function("build_wave").is_some())
            .collect();
        if builders.len() > 1 {
            let files: Vec<&str> = builders.iter().map(|m| m.label.as_str()).collect();
            return Err(HookError {
                message: format!(
                    "{} all replace the wave builder (build_wave): enable only one of them",
                    files.join(", ")
                ),
            });
        }
        let Some(module) = builders.first().copied() else {
            return Ok(None);
        };
        let Some(f) = module.function("build_wave") else {
            return Ok(None);
        };
        let rosters = &self.core.rosters;
        let rules = &self.core.rules;
        let arg = |lua: &Lua, _: &Game| {
            let t = lua.create_table()?;
            t.raw_set("wave", ask.wave)?;
            t.raw_set("escalation", ask.escalation.name.as_str())?;
            t.raw_set("limits", super::convert::to_lua(lua, &ask.escalation)?)?;
            t.raw_set("budget", ask.budget)?;
            t.raw_set("heroes", ask.heroes)?;
            t.raw_set("edges", rules.table.edges.len())?;
            let enemies = lua.create_table()?;
            for p in rosters.profiles_of(crate::roster::ProfileKind::Enemy) {
                let e = lua.create_table()?;
                e.raw_set("name", p.name.as_str())?;
                e.raw_set("tier", p.tier.as_str())?;
                e.raw_set("cost", p.cost())?;
                e.raw_set("behaviours", p.behaviours.clone())?;
                e.raw_set("traits", p.traits.clone())?;
                e.raw_set("igniter", p.is_igniter())?;
                enemies.raw_push(e)?;
            }
            t.raw_set("enemies", enemies)?;
            Ok(vec![Value::Table(t)])
        };
        let v = self.call_plain(game, module, f, &arg)?;
        scripted_wave_of(module, v)
    }

    fn on_pass_token(
        &self,
        game: &mut Game,
        model: ModelId,
        token: TokenId,
    ) -> Result<(Option<String>, Vec<Intent>), HookError> {
        self.pass_token(game, model, token)
    }

    fn on_council(
        &self,
        game: &mut Game,
        model: ModelId,
    ) -> Result<(Vec<crate::state::CouncilGrant>, Vec<Intent>), HookError> {
        self.council_opens(game, model)
    }

    fn movement_traits(
        &self,
        game: &Game,
        model: ModelId,
        engaged: &[ModelId],
    ) -> Result<MoveTraits, HookError> {
        let rules = &self.core.rules;
        let arg = |lua: &Lua| snapshots(lua, game, rules, engaged);
        let mut out = MoveTraits::default();
        for (module, v) in self.call_read(game, model, "movement", &arg)? {
            let Value::Table(t) = v else { continue };
            let mut used = false;
            if t.raw_get::<Option<bool>>("flying")
                .map_err(hook_err)?
                .unwrap_or(false)
            {
                out.flying = true;
                used = true;
            }
            if let Some(band) = t.raw_get::<Option<String>>("band").map_err(hook_err)? {
                out.band =
                    Some(crate::roster::Measure::named(&band).ok_or_else(|| {
                        bad_return(module, "movement", &format!("band = {band:?}"))
                    })?);
                used = true;
            }
            if t.raw_get::<Option<bool>>("one_move")
                .map_err(hook_err)?
                .unwrap_or(false)
            {
                out.one_move = true;
                used = true;
            }
            if let Some(kinds) = t
                .raw_get::<Option<Vec<String>>>("ignore_terrain")
                .map_err(hook_err)?
            {
                out.ignore_terrain.extend(kinds);
                used = true;
            }
            match t.raw_get::<Value>("free_disengage").map_err(hook_err)? {
                Value::Boolean(true) => {
                    out.free_disengage.extend_from_slice(engaged);
                    used = true;
                }
                Value::Table(list) => {
                    for item in list.sequence_values::<Value>() {
                        let id = match item.map_err(hook_err)? {
                            Value::Integer(i) => ModelId(i as u32),
                            Value::Table(snap) => id_of(&snap).map_err(hook_err)?,
                            other => {
                                return Err(bad_return(
                                    module,
                                    "movement",
                                    &format!("free_disengage holding a {}", other.type_name()),
                                ))
                            }
                        };
                        out.free_disengage.push(id);
                    }
                    used = true;
                }
                _ => {}
            }
            if used {
                out.sources.push(self.source_for(game, model, module));
            }
        }
        Ok(out)
    }

    fn permission(
        &self,
        game: &Game,
        model: ModelId,
        name: &str,
    ) -> Result<Option<String>, HookError> {
        let Ok(me) = game.model(model) else {
            return Ok(None);
        };
        let arg = |_: &Lua| Ok(Value::Nil);
        // The first script that grants it is its source; a table of names is read without a call.
        for (module, params) in self.modules_for(me) {
            let granted = match &module.permissions {
                Permissions::None => false,
                Permissions::Fixed(names) => names.iter().any(|n| n == name),
                Permissions::Computed(f) => {
                    match self.read_one(game, me, module, params.as_deref(), f, &arg)? {
                        Value::Table(t) => !matches!(
                            t.raw_get::<Value>(name).map_err(hook_err)?,
                            Value::Nil | Value::Boolean(false)
                        ),
                        _ => false,
                    }
                }
            };
            if granted {
                return Ok(Some(module.label.clone()));
            }
        }
        Ok(None)
    }

    fn morale_immunity(
        &self,
        game: &Game,
        model: ModelId,
        trigger: MoraleTrigger,
    ) -> Result<Option<(String, String)>, HookError> {
        let arg = |lua: &Lua| Ok(Value::String(lua.create_string(trigger.as_str())?));
        for (module, v) in self.call_read(game, model, "morale", &arg)? {
            if let Value::Table(t) = v {
                match t.raw_get::<Value>("immune").map_err(hook_err)? {
                    Value::String(why) => {
                        return Ok(Some((why.to_string_lossy(), module.label.clone())))
                    }
                    Value::Boolean(true) => {
                        return Ok(Some((module.stem().to_string(), module.label.clone())))
                    }
                    _ => {}
                }
            }
        }
        Ok(None)
    }

    fn morale_modifiers(
        &self,
        game: &Game,
        model: ModelId,
        trigger: MoraleTrigger,
    ) -> Result<Vec<Modifier>, HookError> {
        let arg = |lua: &Lua| Ok(Value::String(lua.create_string(trigger.as_str())?));
        let mut out = Vec::new();
        for (module, v) in self.call_read(game, model, "morale", &arg)? {
            if let Value::Table(t) = v {
                if let Some(n) = t.raw_get::<Option<i32>>("modifier").map_err(hook_err)? {
                    let reason = t
                        .raw_get::<Option<String>>("reason")
                        .map_err(hook_err)?
                        .unwrap_or_else(|| module.stem().to_string());
                    out.push(Modifier {
                        to: Role::Defender,
                        value: n,
                        reason,
                        source: module.label.clone(),
                    });
                }
            }
        }
        Ok(out)
    }
}

/// What a modifier hook learns about the roll: its kind, the asking model's role, both sides.
fn roll_table(
    lua: &Lua,
    game: &Game,
    rules: &Rules,
    roll: &RollInfo,
    role: Role,
) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("kind", roll.kind.as_str())?;
    t.raw_set("role", role_name(role))?;
    if let Ok(a) = game.model(roll.attacker) {
        t.raw_set("attacker", model_snapshot(lua, game, rules, a)?)?;
    }
    match &roll.target {
        Target::Model(id) => {
            if let Ok(d) = game.model(*id) {
                t.raw_set("target", model_snapshot(lua, game, rules, d)?)?;
            }
        }
        Target::Building(name) => {
            if let Ok(b) = game.building(name) {
                t.raw_set("target", building_snapshot(lua, b)?)?;
            }
        }
        Target::Token(id) => t.raw_set("target_token", id.0)?,
    }
    t.raw_set("power_blow", roll.power_blow)?;
    t.raw_set("aimed", roll.aimed)?;
    t.raw_set("free_hack", roll.free_hack)?;
    Ok(t)
}

/// Accept `nil`, a number (a modifier to the hook owner's own total), `{value=, to=, reason=}` or an
/// array of those. `to` is "self" (default), "opponent", "attacker" or "defender".
fn parse_modifiers(
    v: &Value,
    me: Role,
    module: &Module,
    entry: &str,
    out: &mut Vec<Modifier>,
) -> Result<(), HookError> {
    let bad = |what: String| {
        HookError {
        message: format!(
            "{}: {entry} returned {what}; expected nil, a whole number, {{value = n, to = \"self\"|\"opponent\", reason = \"...\"}} or an array of those",
            module.label
        ),
    }
    };
    let whole = |n: f64| -> Result<i32, HookError> {
        if n.fract() == 0.0 && n.abs() <= 100.0 {
            Ok(n as i32)
        } else {
            Err(bad(format!("the number {n}")))
        }
    };
    let push = |out: &mut Vec<Modifier>, value: i32, to: Role, reason: String| {
        if value != 0 {
            out.push(Modifier {
                to,
                value,
                reason,
                source: module.label.clone(),
            });
        }
    };
    match v {
        Value::Nil => Ok(()),
        Value::Integer(i) => {
            push(out, whole(*i as f64)?, me, module.stem().to_string());
            Ok(())
        }
        Value::Number(n) => {
            push(out, whole(*n)?, me, module.stem().to_string());
            Ok(())
        }
        Value::Table(t) => {
            let value: Value = t.raw_get("value").map_err(|e| bad(e.to_string()))?;
            if value.is_nil() {
                // An array of modifiers.
                for item in t.clone().sequence_values::<Value>() {
                    let item = item.map_err(|e| bad(e.to_string()))?;
                    if !matches!(item, Value::Table(_)) {
                        return Err(bad(format!("an array holding a {}", item.type_name())));
                    }
                    parse_modifiers(&item, me, module, entry, out)?;
                }
                return Ok(());
            }
            let n = match value {
                Value::Integer(i) => whole(i as f64)?,
                Value::Number(n) => whole(n)?,
                other => return Err(bad(format!("value = {}", other.type_name()))),
            };
            let to = match t
                .raw_get::<Option<String>>("to")
                .map_err(|e| bad(e.to_string()))?
                .as_deref()
            {
                None | Some("self") => me,
                Some("opponent") => other(me),
                Some("attacker") => Role::Attacker,
                Some("defender") => Role::Defender,
                Some(x) => return Err(bad(format!("to = {x:?}"))),
            };
            let reason = t
                .raw_get::<Option<String>>("reason")
                .map_err(|e| bad(e.to_string()))?
                .unwrap_or_else(|| module.stem().to_string());
            push(out, n, to, reason);
            Ok(())
        }
        other => Err(bad(format!("a {}", other.type_name()))),
    }
}

/// Run a spell script's `cast(ctx, caster, power, target, opts)` (`g:cast`) with a ctx that can act:
/// its spell primitives (`ctx:transfix`, `ctx:spell_attack`, ...) call the kernel at once, on the same
/// `&mut Game` the caller borrowed, and return the result to the script.
///
/// Why this is sound: `g:cast` holds the game's only mutable borrow and lends it to the ctx for the
/// call (`View::Act`); nothing else can reach the game meanwhile (a `g:` method inside the script meets
/// the borrow and fails with "the game is busy"). A spell attack needs `ScriptHooks` for the modifier
/// hooks of both models: they are built from the same `Core`, whose `rules`, `rosters` and `variants`
/// they read — never `core.game` — and they receive the game as an argument from the kernel.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_spell(
    lua: &Lua,
    core: &Rc<Core>,
    rosters: &crate::roster::Rosters,
    registry: Rc<Registry>,
    game: &mut Game,
    cast: &mlua::Function,
    source: &str,
    params: &Params,
    casting: Casting,
    target: Option<ModelId>,
    opts: Value,
) -> Result<Value, ScriptError> {
    let budget = host(lua)
        .map(|h| h.limits.hook_instructions)
        .map_err(ScriptError::from_lua)?;
    let rules = &core.rules;
    let caster_t = model_snapshot(
        lua,
        game,
        rules,
        game.model(casting.caster)
            .map_err(mlua::Error::external)
            .map_err(ScriptError::from_lua)?,
    )
    .map_err(ScriptError::from_lua)?;
    let target_t = match target {
        Some(t) => match game.model(t) {
            Ok(m) => {
                Value::Table(model_snapshot(lua, game, rules, m).map_err(ScriptError::from_lua)?)
            }
            Err(_) => Value::Nil,
        },
        None => Value::Nil,
    };
    let params = params_value(lua, Some(params)).map_err(ScriptError::from_lua)?;
    with_budget(lua, budget, || {
        with_ctx(
            lua,
            Ctx {
                view: View::Act(game),
                rules,
                rules_json: &core.rules_json,
                intents: None,
                source: source.to_string(),
                params,
                spell: Some(SpellCtx {
                    core,
                    rosters,
                    registry,
                    caster: casting.caster,
                    spell: casting.spell.to_string(),
                    power: casting.power,
                }),
                kernel: None,
                reward: None,
                seen: Default::default(),
            },
            |ctx| {
                profiled(lua, cast, || {
                    cast.call::<Value>((ctx, caster_t, casting.power, target_t, opts))
                })
            },
        )
    })
}

/// What a spell script's ctx knows beyond the game: the casting it checks effects against, and the
/// game's `Core` and registry, to build the `ScriptHooks` a spell attack needs.
struct SpellCtx<'a> {
    core: &'a Rc<Core>,
    /// The rosters with the game's rule constants (variants applied).
    rosters: &'a crate::roster::Rosters,
    registry: Rc<Registry>,
    caster: ModelId,
    spell: String,
    power: u8,
}

/// The game a `ctx` looks at: read-only for modifier and rule hooks; with the right to roll dice and ask
/// for changes in `on_result` and `on_charge`; with spell primitives in a spell's `cast`.
enum View<'a> {
    Read(&'a Game),
    Act(&'a mut Game),
}

/// The view of the game a hook receives as `ctx`. It lives only for the call. Changes a hook asks for
/// are collected as intents and applied by the kernel after the hook returns.
struct Ctx<'a> {
    view: View<'a>,
    rules: &'a Rules,
    /// `rules` as JSON, for `ctx:rule`.
    rules_json: &'a serde_json::Value,
    intents: Option<&'a std::cell::RefCell<Vec<Intent>>>,
    source: String,
    /// The `params` of the roster entry that names this script (nil for a variant).
    params: Value,
    /// Set in a spell's `cast`: the casting its primitives act for.
    spell: Option<SpellCtx<'a>>,
    /// The hooks the kernel called this one through, for queries that need the rules with every
    /// script's say (`ctx:can_shoot`); none in a spell's `cast`.
    kernel: Option<&'a ScriptHooks<'a>>,
    /// Set in an Opportunity's `claim`/`wave_end` and an item's `use`: where its reward primitives
    /// (`ctx:add_supplies`, `ctx:give`, ...) collect what it asks for.
    reward: Option<RewardCtx<'a>>,
    /// Snapshots already built in this call, by model: a policy asks for the same models many times
    /// a call. Emptied on every mutable access to the ctx (`CtxHandle::deref_mut`), the only way the
    /// game can change during a call.
    seen: std::cell::RefCell<Vec<(ModelId, Table)>>,
}

/// What an Opportunity's or item's ctx knows to collect rewards: the list, the script key items it gives
/// carry, its params (copied into those items), the hero it acts for, and whether an Ambush may deploy
/// (only on claiming, around the token).
struct RewardCtx<'a> {
    list: &'a std::cell::RefCell<Vec<Reward>>,
    script: String,
    params: Params,
    hero: Option<ModelId>,
    claim: bool,
}

/// A roster entry's `params` as a Lua table.
fn params_value(lua: &Lua, params: Option<&Params>) -> mlua::Result<Value> {
    match params {
        Some(p) => super::convert::to_lua(lua, p),
        None => Ok(Value::Nil),
    }
}

impl<'a> Ctx<'a> {
    /// The ctx of a hook of `module` called through `kernel`: no intents to collect, no spell, no
    /// reward (callers that have one set it with struct update syntax).
    fn hook(view: View<'a>, kernel: &'a ScriptHooks<'a>, module: &Module, params: Value) -> Self {
        Ctx {
            view,
            rules: &kernel.core.rules,
            rules_json: &kernel.core.rules_json,
            intents: None,
            source: module.label.clone(),
            params,
            spell: None,
            kernel: Some(kernel),
            reward: None,
            seen: Default::default(),
        }
    }
}

impl Ctx<'_> {
    /// The snapshot of `m` (a model of this ctx's game), the one already built in this call if the
    /// game has not changed since.
    fn snapshot(&self, lua: &Lua, m: &Model) -> mlua::Result<Table> {
        if let Some((_, t)) = self.seen.borrow().iter().find(|(id, _)| *id == m.id) {
            return Ok(t.clone());
        }
        let t = model_snapshot(lua, self.game(), self.rules, m)?;
        self.seen.borrow_mut().push((m.id, t.clone()));
        Ok(t)
    }

    fn game(&self) -> &Game {
        match &self.view {
            View::Read(g) => g,
            View::Act(g) => g,
        }
    }

    /// Queue a change; an error in a read-only hook.
    fn ask(&self, intent: Intent) -> mlua::Result<()> {
        match self.intents {
            Some(list) => {
                list.borrow_mut().push(intent);
                Ok(())
            }
            None => Err(mlua::Error::runtime(
                "this ctx is read-only: changes can be asked for only in on_result and on_charge hooks",
            )),
        }
    }
}

impl Ctx<'_> {
    /// Queue a reward; an error outside an Opportunity's or an item's script.
    fn reward(&self, lua: &Lua, what: &str, r: Reward) -> mlua::Result<()> {
        match &self.reward {
            Some(rc) => {
                rc.list.borrow_mut().push(r);
                Ok(())
            }
            None => Err(fail(
                lua,
                format!(
                    "ctx:{what} is a reward primitive: it works only in an Opportunity's claim or \
                     wave_end, or an item's use"
                ),
            )),
        }
    }
}

/// A positive whole number argument of a reward primitive.
fn positive(lua: &Lua, what: &str, n: i64) -> mlua::Result<u32> {
    u32::try_from(n)
        .ok()
        .filter(|n| *n > 0 && *n <= 1000)
        .ok_or_else(|| {
            fail(
                lua,
                format!("ctx:{what} takes a whole number from 1 to 1000, got {n}"),
            )
        })
}

fn id_of(t: &Table) -> mlua::Result<ModelId> {
    Ok(ModelId(t.raw_get::<u32>("id")?))
}

/// A model argument of a spell primitive: a snapshot (or any table with `id`) or a model id.
fn model_id(lua: &Lua, v: &Value) -> mlua::Result<ModelId> {
    match v {
        Value::Table(t) => id_of(t),
        Value::Integer(i) if *i > 0 => Ok(ModelId(*i as u32)),
        other => Err(fail(
            lua,
            format!("expected a model snapshot or id, got {}", other.type_name()),
        )),
    }
}

/// A kernel error raised inside a spell primitive, located at the script's line (a hook error already
/// names its own file:line).
fn spell_err(lua: &Lua, e: RuleError) -> mlua::Error {
    match e {
        RuleError::Hook(h) => mlua::Error::runtime(h.message),
        other => fail(lua, other),
    }
}

impl<'a> Ctx<'a> {
    /// The game to change and the casting, or an error outside a spell's `cast`.
    fn casting(
        &mut self,
        lua: &Lua,
        what: &str,
    ) -> mlua::Result<(&mut Game, Casting<'_>, &SpellCtx<'a>)> {
        match (&mut self.view, &self.spell) {
            (View::Act(g), Some(sp)) => Ok((
                &mut **g,
                Casting {
                    caster: sp.caster,
                    spell: &sp.spell,
                    power: sp.power,
                },
                sp,
            )),
            _ => Err(fail(
                lua,
                format!(
                    "ctx:{what} is a spell primitive: it works only in a spell script's `cast`"
                ),
            )),
        }
    }
}

/// The name of a `Ctx` member, as `spec` describes it (a name it does not describe panics).
fn api(member: &str) -> &'static str {
    spec::member("Ctx", member)
}

impl UserData for CtxHandle {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get(api("round"), |_, this| Ok(this.game().round));
        fields.add_field_method_get(api("wave"), |_, this| Ok(this.game().wave));
        fields.add_field_method_get(api("supplies"), |_, this| Ok(this.game().supplies));
        fields.add_field_method_get(api("igniters_burn"), |_, this| {
            Ok(this.game().igniters_burn)
        });
        fields.add_field_method_get(api("params"), |_, this| Ok(this.params.clone()));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(
            api("model"),
            timed("model", |lua, this, id: u32| {
                match this.game().model(ModelId(id)) {
                    Ok(m) => Ok(Some(this.snapshot(lua, m)?)),
                    Err(_) => Ok(None),
                }
            }),
        );
        methods.add_method(
            api("models"),
            timed("models", |lua, this, opts: Option<Table>| {
                let side = match &opts {
                    Some(t) => t.raw_get::<Option<String>>("side")?,
                    None => None,
                };
                let want = match side.as_deref() {
                    None => None,
                    Some("heroes") => Some(Side::Heroes),
                    Some("enemies") => Some(Side::Enemies),
                    Some(x) => {
                        return Err(mlua::Error::runtime(format!(
                            "side must be \"heroes\" or \"enemies\", got {x:?}"
                        )))
                    }
                };
                let mut v = Vec::new();
                let game = this.game();
                for m in game
                    .models
                    .iter()
                    .filter(|m| want.is_none_or(|s| m.side == s))
                {
                    v.push(this.snapshot(lua, m)?);
                }
                Ok(v)
            }),
        );
        methods.add_method(
            api("building"),
            timed("building", |lua, this, name: String| {
                match this.game().building(&name) {
                    Ok(b) => Ok(Some(building_snapshot(lua, b)?)),
                    Err(_) => Ok(None),
                }
            }),
        );
        methods.add_method(
            api("distance"),
            timed("distance", |_, this, (a, b): (Table, Table)| {
                let game = this.game();
                let (a, b) = (
                    game.model(id_of(&a)?).map_err(mlua::Error::external)?,
                    game.model(id_of(&b)?).map_err(mlua::Error::external)?,
                );
                Ok(crate::geometry::circle_circle_gap(&a.circle(), &b.circle()).max(0.0))
            }),
        );
        methods.add_method(
            api("rule"),
            timed("rule", |lua, this, (section, key): (String, String)| {
                let v = this
                    .rules_json
                    .get(&section)
                    .and_then(|s| s.get(&key))
                    .ok_or_else(|| {
                        mlua::Error::runtime(format!("no rule constant {section}.{key}"))
                    })?;
                super::convert::to_lua(lua, v)
            }),
        );
        methods.add_method(
            api("buildings"),
            timed("buildings", |lua, this, ()| {
                let mut v = Vec::new();
                for b in &this.game().buildings {
                    v.push(building_snapshot(lua, b)?);
                }
                Ok(v)
            }),
        );
        methods.add_method(
            api("distance_to"),
            timed("distance_to", |_, this, (a, b): (Table, Table)| {
                let game = this.game();
                let me = game.model(id_of(&a)?).map_err(mlua::Error::external)?;
                // A token from ctx:tokens: a Barricade is measured to its segment, others to their point.
                if b.raw_get::<Option<String>>("kind")?.is_some() {
                    let id = TokenId(b.raw_get::<u32>("id")?);
                    if let Some(tok) = game.tokens.iter().find(|t| t.id == id) {
                        if let crate::state::TokenKind::Barricade { segment, .. } = &tok.kind {
                            return Ok(circle_segment_gap(&me.circle(), segment).max(0.0));
                        }
                        return Ok((me.pos.dist(tok.pos) - me.base / 2.0).max(0.0));
                    }
                }
                if let Some(id) = b.raw_get::<Option<u32>>("id")? {
                    let o = game.model(ModelId(id)).map_err(mlua::Error::external)?;
                    return Ok(
                        crate::geometry::circle_circle_gap(&me.circle(), &o.circle()).max(0.0),
                    );
                }
                if let Some(name) = b.raw_get::<Option<String>>("name")? {
                    let bd = game.building(&name).map_err(mlua::Error::external)?;
                    return Ok(crate::geometry::circle_rect_gap(&me.circle(), &bd.rect).max(0.0));
                }
                let p = crate::geometry::Vec2::new(b.raw_get("x")?, b.raw_get("y")?);
                Ok((me.pos.dist(p) - me.base / 2.0).max(0.0))
            }),
        );
        methods.add_method(
            api("tokens"),
            timed("tokens", |lua, this, kind: Option<String>| {
                let t = lua.create_table()?;
                for tok in &this.game().tokens {
                    let k = match &tok.kind {
                        crate::state::TokenKind::Opportunity { .. } => "opportunity",
                        crate::state::TokenKind::Barricade { .. } => "barricade",
                        crate::state::TokenKind::Trap { .. } => "trap",
                    };
                    if kind.as_deref().is_some_and(|want| want != k) {
                        continue;
                    }
                    let e = lua.create_table()?;
                    e.raw_set("id", tok.id.0)?;
                    e.raw_set("kind", k)?;
                    e.raw_set("x", tok.pos.x)?;
                    e.raw_set("y", tok.pos.y)?;
                    t.raw_push(e)?;
                }
                Ok(t)
            }),
        );
        methods.add_method(
            api("permission"),
            timed("permission", |lua, this, (m, name): (Value, String)| {
                let Some(k) = this.kernel else {
                    return Err(fail(
                        lua,
                        "ctx:permission is not available in a spell's cast",
                    ));
                };
                let id = model_id(lua, &m)?;
                k.permission(this.game(), id, &name)
                    .map_err(|e| mlua::Error::runtime(e.message))
            }),
        );
        methods.add_method(
            api("can_shoot"),
            timed("can_shoot", |lua, this, (s, t): (Value, Value)| {
                let Some(k) = this.kernel else {
                    return Err(fail(
                        lua,
                        "ctx:can_shoot is not available in a spell's cast",
                    ));
                };
                let (s, t) = (model_id(lua, &s)?, model_id(lua, &t)?);
                match crate::rules::ranged::may_shoot(this.game(), k.rosters(), k, s, t) {
                    Ok(()) => Ok(true),
                    Err(RuleError::Hook(h)) => Err(mlua::Error::runtime(h.message)),
                    Err(_) => Ok(false),
                }
            }),
        );
        methods.add_method(
            api("engaged"),
            timed("engaged", |lua, this, m: Table| {
                let game = this.game();
                let ids = engaged_enemies(game, this.rules, id_of(&m)?);
                let mut v = Vec::new();
                for id in ids {
                    if let Ok(e) = game.model(id) {
                        v.push(this.snapshot(lua, e)?);
                    }
                }
                Ok(v)
            }),
        );
        methods.add_method(
            api("touching_terrain"),
            timed(
                "touching_terrain",
                |_, this, (m, kinds): (Table, Vec<String>)| {
                    let game = this.game();
                    let me = game.model(id_of(&m)?).map_err(mlua::Error::external)?;
                    let tol = this.rules.bases.contact_tolerance;
                    Ok(game.table.terrain.iter().any(|t| {
                        let kind = format!("{:?}", t.kind).to_lowercase();
                        kinds.contains(&kind)
                            && match &t.shape {
                                TerrainShape::Area(p) => circle_polygon_gap(&me.circle(), p) <= tol,
                                TerrainShape::Line(s) => circle_segment_gap(&me.circle(), s) <= tol,
                            }
                    }))
                },
            ),
        );
        methods.add_method_mut(api("roll"), timed_mut("roll", |_, this, (n, purpose): (usize, Option<String>)| {
            if !(1..=6).contains(&n) {
                return Err(mlua::Error::runtime(format!("ctx:roll rolls 1 to 6 dice, got {n}")));
            }
            let purpose = purpose.unwrap_or_else(|| this.source.clone());
            match &mut this.view {
                View::Act(g) => Ok(g.roll(&purpose, None, n).iter().map(|d| d.face).collect::<Vec<u8>>()),
                View::Read(_) => Err(mlua::Error::runtime(
                    "this ctx is read-only: dice can be rolled only in on_result and on_charge hooks",
                )),
            }
        }));
        methods.add_method(
            api("worsen_quality"),
            timed(
                "worsen_quality",
                |_, this, (m, amount, reason): (Table, u8, Option<String>)| {
                    this.ask(Intent::WorsenQuality {
                        model: id_of(&m)?,
                        amount,
                        reason: reason.unwrap_or_else(|| this.source.clone()),
                        source: this.source.clone(),
                    })
                },
            ),
        );
        methods.add_method(
            api("add_condition"),
            timed(
                "add_condition",
                |_, this, (m, c, holder): (Table, String, Option<Table>)| {
                    let condition = match c.as_str() {
                        "defenseless" => Condition::Defenseless,
                        "transfixed" => Condition::Transfixed,
                        "entangled" => Condition::Entangled,
                        other => {
                            return Err(mlua::Error::runtime(format!(
                                "unknown condition {other:?}"
                            )))
                        }
                    };
                    let held_by = match holder {
                        Some(h) => Some(id_of(&h)?),
                        None => None,
                    };
                    this.ask(Intent::AddCondition {
                        model: id_of(&m)?,
                        condition,
                        held_by,
                        source: this.source.clone(),
                    })
                },
            ),
        );
        methods.add_method_mut(
            api("transfix"),
            timed_mut("transfix", |lua, this, (target, power): (Value, u8)| {
                let target = model_id(lua, &target)?;
                let (game, c, sp) = this.casting(lua, "transfix")?;
                let hooks = ScriptHooks::new(lua, sp.core, sp.registry.clone());
                magic::cast_transfix(game, sp.rosters, &hooks, c, target, power)
                    .map_err(|e| spell_err(lua, e))
            }),
        );
        methods.add_method_mut(
            api("spell_attack"),
            timed_mut("spell_attack", |lua, this, (target, power): (Value, u8)| {
                let target = model_id(lua, &target)?;
                let (game, c, sp) = this.casting(lua, "spell_attack")?;
                let core: &Rc<Core> = sp.core;
                let known = names(game, &[c.caster, target]);
                let hooks = ScriptHooks::new(lua, core, sp.registry.clone());
                let r = magic::cast_attack(game, sp.rosters, &hooks, c, target, power)
                    .map_err(|e| spell_err(lua, e))?;
                let t = combat_table(lua, core, game, &r)?;
                fix_names(&t, &known)?;
                Ok(t)
            }),
        );
        methods.add_method_mut(
            api("heal"),
            timed_mut("heal", |lua, this, (target, asked): (Value, String)| {
                let target = model_id(lua, &target)?;
                let what = match asked.as_str() {
                    "wound" => Heal::Wound,
                    other => Heal::Condition(parse_condition(other).ok_or_else(|| {
                        fail(
                            lua,
                            format!("ctx:heal heals \"wound\" or a condition, got {other:?}"),
                        )
                    })?),
                };
                // In an item's use (a Potion) healing is a reward the kernel applies after the script.
                if this.reward.is_some() {
                    let source = this.source.clone();
                    return this
                        .reward(
                            lua,
                            "heal",
                            Reward::Heal {
                                model: target,
                                what,
                                source,
                            },
                        )
                        .map(|_| asked);
                }
                let (game, c, sp) = this.casting(lua, "heal")?;
                magic::cast_heal(game, sp.rosters, c, target, what).map_err(|e| spell_err(lua, e))
            }),
        );
        methods.add_method(
            api("add_supplies"),
            timed("add_supplies", |lua, this, n: i64| {
                let amount = positive(lua, "add_supplies", n)? as i32;
                let source = this.source.clone();
                this.reward(lua, "add_supplies", Reward::Supplies { amount, source })
            }),
        );
        methods.add_method(
            api("add_herbs"),
            timed("add_herbs", |lua, this, n: i64| {
                let amount = positive(lua, "add_herbs", n)?;
                let source = this.source.clone();
                this.reward(lua, "add_herbs", Reward::Herbs { amount, source })
            }),
        );
        methods.add_method(
            api("join"),
            timed("join", |lua, this, profile: String| {
                let source = this.source.clone();
                this.reward(lua, "join", Reward::Join { profile, source })
            }),
        );
        methods.add_method(api("ambush"), timed("ambush", |lua, this, (profile, count, behaviour, within): (String, i64, String, String)| {
                let count = positive(lua, "ambush", count)?;
                let within: crate::roster::Measure =
                    serde_json::from_value(serde_json::Value::String(within.clone())).map_err(
                        |_| {
                            fail(
                                lua,
                                format!(
                                    "within must be \"short\", \"medium\" or \"long\", got {within:?}"
                                ),
                            )
                        },
                    )?;
                if !this.reward.as_ref().is_some_and(|r| r.claim) {
                    return Err(fail(
                        lua,
                        "ctx:ambush deploys around the claimed token: only in an Opportunity's claim",
                    ));
                }
                let source = this.source.clone();
                this.reward(
                    lua,
                    "ambush",
                    Reward::Ambush {
                        profile,
                        count,
                        behaviour,
                        within,
                        source,
                    },
                )
            }));
        methods.add_method(
            api("give"),
            timed("give", |lua, this, (m, name): (Value, String)| {
                let model = model_id(lua, &m)?;
                let Some(rc) = &this.reward else {
                    return Err(fail(
                    lua,
                    "ctx:give is a reward primitive: it works only in an Opportunity's claim or \
                     wave_end, or an item's use",
                ));
                };
                if name.trim().is_empty() {
                    return Err(fail(lua, "ctx:give needs the item's name"));
                }
                let item = crate::state::Item {
                    name,
                    script: rc.script.clone(),
                    params: rc.params.clone(),
                };
                let source = this.source.clone();
                this.reward(
                    lua,
                    "give",
                    Reward::Give {
                        model,
                        item,
                        source,
                    },
                )
            }),
        );
        methods.add_method(
            api("spent"),
            timed("spent", |_, this, key: String| {
                Ok(this.game().spent.contains(&key))
            }),
        );
        methods.add_method(
            api("spend"),
            timed("spend", |lua, this, key: String| {
                let source = this.source.clone();
                // In a hook that may ask for changes it is a change like the others (Sanctuary).
                if this.reward.is_none() && this.intents.is_some() {
                    return this.ask(Intent::Spend { key, source });
                }
                this.reward(lua, "spend", Reward::Spend { key, source })
            }),
        );
        methods.add_method_mut(
            api("peek"),
            timed_mut("peek", |lua, this, (m, tok): (Value, Value)| {
                tokens::peek(lua, this, &m, &tok)
            }),
        );
        methods.add_method(
            api("hero"),
            timed("hero", |lua, this, ()| {
                match this.reward.as_ref().and_then(|r| r.hero) {
                    Some(id) => match this.game().model(id) {
                        Ok(m) => Ok(Some(model_snapshot(lua, this.game(), this.rules, m)?)),
                        Err(_) => Ok(None),
                    },
                    None => Ok(None),
                }
            }),
        );
        methods.add_method_mut(
            api("wall"),
            timed_mut(
                "wall",
                |lua, this, (from, to, power): (Value, Value, u8)| {
                    let (a, b) = (to_pos(lua, &from)?, to_pos(lua, &to)?);
                    let (game, c, sp) = this.casting(lua, "wall")?;
                    magic::cast_wall(game, sp.rosters, c, a, b, power)
                        .map(|t| t.0)
                        .map_err(|e| spell_err(lua, e))
                },
            ),
        );
        methods.add_method_mut(
            api("summon"),
            timed_mut(
                "summon",
                |lua, this, (profile, at, within): (String, Value, String)| {
                    let at = to_pos(lua, &at)?;
                    let within: crate::roster::Measure =
                        serde_json::from_value(serde_json::Value::String(within.clone())).map_err(
                            |_| {
                                fail(
                        lua,
                        format!("within must be \"short\", \"medium\" or \"long\", got {within:?}"),
                    )
                            },
                        )?;
                    let rules = this.rules;
                    let (game, c, sp) = this.casting(lua, "summon")?;
                    let id = magic::summon(game, sp.rosters, c, &profile, at, within)
                        .map_err(|e| spell_err(lua, e))?;
                    let m = game.model(id).map_err(|e| fail(lua, e))?;
                    model_snapshot(lua, game, rules, m)
                },
            ),
        );
        methods.add_method_mut(
            api("dispel"),
            timed_mut("dispel", |lua, this, target: Value| {
                let target = model_id(lua, &target)?;
                let (game, c, sp) = this.casting(lua, "dispel")?;
                magic::dispel(game, sp.rosters, c, target).map_err(|e| spell_err(lua, e))
            }),
        );
        methods.add_method(
            api("morale"),
            timed("morale", |_, this, (m, trigger): (Table, String)| {
                let trigger = match trigger.as_str() {
                    "terror" => MoraleTrigger::Terror,
                    "gruesome_kill" => MoraleTrigger::GruesomeKill,
                    "leader_defeated" => MoraleTrigger::LeaderDefeated,
                    "half_lost" => MoraleTrigger::HalfLost,
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "unknown morale trigger {other:?}"
                        )))
                    }
                };
                this.ask(Intent::Morale {
                    model: id_of(&m)?,
                    trigger,
                    source: this.source.clone(),
                })
            }),
        );
        methods.add_method(
            api("grant"),
            timed("grant", |lua, this, opts: Table| {
                check_options(lua, &Some(opts.clone()), &spec::options("GrantOptions"))?;
                let ids = |key: &str| -> mlua::Result<Vec<ModelId>> {
                    match opts.raw_get::<Value>(key)? {
                        Value::Nil => Ok(Vec::new()),
                        Value::Table(t) => t
                            .sequence_values::<Value>()
                            .map(|v| model_id(lua, &v?))
                            .collect(),
                        other => Err(fail(
                            lua,
                            format!(
                                "ctx:grant: {key} = a {} (expected a list)",
                                other.type_name()
                            ),
                        )),
                    }
                };
                let ends = match opts.raw_get::<Option<String>>("ends")?.as_deref() {
                    None | Some("activation") => crate::state::EffectEnds::Activation,
                    Some("wave") => crate::state::EffectEnds::Wave,
                    Some(other) => {
                        return Err(fail(
                            lua,
                            format!(
                                "ctx:grant: ends = {other:?} (expected \"activation\" or \"wave\")"
                            ),
                        ))
                    }
                };
                let source = this.source.clone();
                let effect = crate::state::Effect {
                    models: ids("models")?,
                    against: ids("against")?,
                    value: opts.raw_get::<i32>("value")?,
                    reason: opts
                        .raw_get::<Option<String>>("reason")?
                        .unwrap_or_else(|| source.clone()),
                    source,
                    ends,
                };
                this.ask(Intent::Grant(effect))
            }),
        );
        methods.add_method(
            api("repair"),
            timed("repair", |lua, this, (b, amount): (Value, i32)| {
                let building = building_name(lua, &b)?;
                this.ask(Intent::Repair {
                    building,
                    amount,
                    source: this.source.clone(),
                })
            }),
        );
        methods.add_method(
            api("extinguish"),
            timed("extinguish", |lua, this, b: Value| {
                let building = building_name(lua, &b)?;
                this.ask(Intent::Extinguish {
                    building,
                    source: this.source.clone(),
                })
            }),
        );
        methods.add_method(
            api("ignite"),
            timed("ignite", |lua, this, b: Value| {
                let building = building_name(lua, &b)?;
                this.ask(Intent::Ignite {
                    building,
                    source: this.source.clone(),
                })
            }),
        );
        methods.add_method(api("attack"), timed("attack", |lua, this, (attacker, target, combat, reason): (Value, Value, i32, Option<String>)| {
                let source = this.source.clone();
                this.ask(Intent::Attack {
                    attacker: model_id(lua, &attacker)?,
                    target: model_id(lua, &target)?,
                    combat,
                    reason: reason.unwrap_or_else(|| source.clone()),
                    source,
                })
            }));
        methods.add_method(
            api("summon_near"),
            timed(
                "summon_near",
                |lua, this, (summoner, profile, within): (Value, String, Value)| {
                    let within = match within {
                        Value::Integer(n) if n >= 0 => n as f64,
                        Value::Number(n) if n.is_finite() && n >= 0.0 => n,
                        Value::String(s) => {
                            let name = s.to_string_lossy();
                            let m = crate::roster::Measure::named(&name).ok_or_else(|| {
                                fail(lua, format!("ctx:summon_near: within = {name:?}"))
                            })?;
                            this.rules.measures.get(m)
                        }
                        other => {
                            return Err(fail(
                                lua,
                                format!("ctx:summon_near: within = a {}", other.type_name()),
                            ))
                        }
                    };
                    this.ask(Intent::Summon {
                        summoner: model_id(lua, &summoner)?,
                        profile,
                        within,
                        source: this.source.clone(),
                    })
                },
            ),
        );
        methods.add_method(
            api("usable"),
            timed("usable", |lua, this, m: Value| {
                let id = model_id(lua, &m)?;
                match this.kernel {
                    Some(k) => k.usable(lua, this.game(), id),
                    None => lua.create_table(),
                }
            }),
        );
        methods.add_method(
            api("remove_barricade"),
            timed("remove_barricade", |lua, this, tok: Value| {
                let token = match &tok {
                    Value::Integer(i) if *i > 0 => TokenId(*i as u32),
                    Value::Table(t) => TokenId(t.raw_get::<u32>("id")?),
                    other => {
                        return Err(fail(
                            lua,
                            format!(
                                "ctx:remove_barricade: a {} (expected a token)",
                                other.type_name()
                            ),
                        ))
                    }
                };
                this.ask(Intent::RemoveBarricade {
                    token,
                    source: this.source.clone(),
                })
            }),
        );
    }
}

/// A building argument: its name, or a snapshot with `name`.
fn building_name(lua: &Lua, v: &Value) -> mlua::Result<String> {
    match v {
        Value::String(s) => Ok(s.to_string_lossy()),
        Value::Table(t) => t.raw_get::<String>("name"),
        other => Err(fail(
            lua,
            format!("expected a building or its name, got {}", other.type_name()),
        )),
    }
}
