//! The kernel's hook points answered by Lua modules: which modules apply to a model (its traits', its
//! signature's or Alpha Rule's, and the game's variants), the `ctx` they receive, and turning what they
//! return into validated modifiers that name their source file. A spell script's `cast` gets a `ctx`
//! whose spell primitives call the kernel at once (`run_spell`).

use super::convert::{fail, to_pos};
use super::game::{combat_table, fix_names, names, Core};
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
use crate::rules::{HookError, RuleError};
use crate::script::error::ScriptError;
use crate::script::host::{host, profiled, with_budget};
use crate::script::registry::{Module, Permissions, Registry};
use crate::state::{
    CombatResult, Condition, Decides, Game, Item, Model, ModelId, MoraleTrigger, Side, TokenId,
};
use mlua::{Lua, Table, Value};
use std::borrow::Cow;
use std::rc::Rc;

mod abilities;
mod answers;
mod council;
mod ctx;
mod ctx_api;
mod decisions;
mod fast;
mod handle;
mod objective;
mod plan;
mod queries;
mod rawread;
mod replies;
mod rollouts;
mod spells;
mod tokens;
mod universal;

use answers::*;
pub(crate) use answers::{council_orders_from, order_from, parse_order};
use ctx::*;
pub(crate) use handle::game_of_serial;
use handle::{call_hook, timed, timed_mut, with_ctx, CtxHandle};
mod views;
pub(crate) use rollouts::play_out;
pub(crate) use spells::{cast_spell, CastCall, CastFailure};
pub(crate) use views::serial_key as view_key;

/// Make what the hooks need in every VM before any script runs (the views' shared functions).
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    handle::install(lua)?;
    views::install(lua)
}

/// The script side of [`Hooks`] for one call into the kernel.
pub struct ScriptHooks<'a> {
    lua: &'a Lua,
    core: &'a Rc<Core>,
    registry: Rc<Registry>,
    /// Which modules act for each model, found once and kept while the model's name, traits and items
    /// are unchanged ([`ScriptHooks::modules_for`] is asked at every hook call).
    acting: std::cell::RefCell<rustc_hash::FxHashMap<ModelId, ActingFor>>,
    /// The notes of the decision hook being explained, when its game keeps decisions
    /// (`decisions.rs`).
    notes: std::cell::RefCell<Option<decisions::Noting>>,
    /// The VM's budget, whose failure count a malformed answer counts up as a failed script call does
    /// (`answers::ScriptHooks::reader`).
    budget: Option<Rc<crate::script::host::Budget>>,
    /// Whether a Behaviour's declarations (`universal = true`, `targets`) are followed by the kernel
    /// (always, but for `village bench --micro`, which times its Lua `act` and `target` beside it).
    native_declared: std::cell::Cell<bool>,
    /// The hero policy's module's index in the registry, found on first use (the policy and the
    /// registry are fixed for these hooks' life; the lookup formats and searches its key, and the
    /// policy is asked at every activation and action).
    policy_at: std::cell::OnceCell<Option<usize>>,
    /// The hero policy these hooks ask, when not the game's (a playout's: `ctx:rollouts`).
    policy: Option<String>,
}

/// The [`acting_key`] a model's modules were found under, those modules, and the entry points any of
/// them defines as a function: a hook none of them defines (most, for most models, at every roll and
/// every activation) is answered without walking the modules (the entry mask of speed step 2).
struct ActingFor {
    key: u64,
    list: Rc<[Acting]>,
    entries: Rc<[Box<str>]>,
}

/// A module acting for a model (by its index in the registry) and where its `params` come from.
#[derive(Clone, Copy)]
struct Acting {
    module: usize,
    params: ParamsOf,
}

/// Where an acting module's `params` come from (indices, so the cache holds no borrow).
#[derive(Clone, Copy)]
enum ParamsOf {
    /// None (a variant).
    None,
    /// The trait at this index of the rosters.
    Trait(usize),
    /// The signature of the profile at this index.
    Signature(usize),
    /// The Alpha Rule of the profile at this index.
    Alpha(usize),
    /// The model's item at this index (its copy of the Opportunity row's params).
    Item(usize),
}

/// What decides which modules act for a model, hashed: its profile name, its traits (profile and granted
/// for the wave) and its items' names and scripts. FxHash takes a word at a time: the key is made at every
/// hook call for every model asked, where a byte-at-a-time hash cost more than the lookup it saves.
fn acting_key(m: &Model) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    m.name.hash(&mut h);
    // The profile's traits and every trait granted for the wave: `all_traits` follows from them (and
    // would compare their names to leave out the repeats, at every hook point).
    m.traits.len().hash(&mut h);
    for t in &m.traits {
        t.hash(&mut h);
    }
    // Each `str` hash ends with a terminator, and each count marks where its list ends.
    m.wave_traits.len().hash(&mut h);
    for w in &m.wave_traits {
        w.name.hash(&mut h);
    }
    m.items.len().hash(&mut h);
    for i in &m.items {
        i.name.hash(&mut h);
        i.script.hash(&mut h);
    }
    h.finish()
}

impl<'a> ScriptHooks<'a> {
    pub fn new(lua: &'a Lua, core: &'a Rc<Core>, registry: Rc<Registry>) -> Self {
        ScriptHooks {
            lua,
            core,
            registry,
            acting: Default::default(),
            notes: Default::default(),
            budget: host(lua).ok().map(|h| h.budget.clone()),
            native_declared: std::cell::Cell::new(true),
            policy_at: std::cell::OnceCell::new(),
            policy: None,
        }
    }

    /// These hooks with `policy` (scripts/policies/NAME.lua) playing the heroes' side instead of the
    /// game's: the playouts of `ctx:rollouts`.
    pub(crate) fn with_policy(mut self, policy: &str) -> Self {
        self.policy = Some(policy.to_string());
        self.policy_at = std::cell::OnceCell::new();
        self
    }

    /// The hero policy these hooks ask.
    fn policy(&self) -> &str {
        self.policy.as_deref().unwrap_or(&self.core.policy)
    }

    /// Whether `model`'s Behaviour declares `universal = true` (for `village bench --micro`).
    pub(crate) fn declares_universal(&self, game: &Game, model: ModelId) -> bool {
        matches!(self.behaviour_module(game, model), Ok(Some(m)) if m.universal)
    }

    /// Whether `model`'s Behaviour declares its target choice, `targets` (for `village bench --micro`).
    pub(crate) fn declares_targets(&self, game: &Game, model: ModelId) -> bool {
        matches!(self.behaviour_module(game, model), Ok(Some(m)) if m.targets.is_some())
    }

    /// Ask every Behaviour's Lua `act` and `target`, even one that declares `universal = true` or its
    /// `targets` (for `village bench --micro`, which times the two side by side; they give the same
    /// orders and targets).
    pub(crate) fn ask_lua_for_declared(&self) {
        self.native_declared.set(false);
    }

    /// The rosters with the game's rule constants (variants applied), for kernel queries from a ctx.
    fn rosters(&self) -> &crate::roster::Rosters {
        self.core.rosters_with_rules()
    }

    /// The modules that act for a model, in a stable order: its traits' scripts (in profile order), its
    /// signature or Alpha Rule, the items it carries (in the order gained, each with the params it was
    /// given with), then the game's variants. Found once per model and kept while what decides them is
    /// unchanged ([`acting_key`]).
    fn modules_for(&self, m: &Model) -> Vec<(&Module, Option<Cow<'a, Params>>)> {
        self.modules_where(m, |_| true)
    }

    /// Whether a module acting for `m` offers actions (`actions`, for `ctx:usable`).
    fn modules_with_actions(&self, m: &Model) -> bool {
        !self
            .modules_where(m, |module| module.actions.is_some())
            .is_empty()
    }

    /// The modules acting for `m` that define the entry point `entry`, as [`ScriptHooks::modules_for`].
    fn modules_with(&self, m: &Model, entry: &str) -> Vec<(&Module, Option<Cow<'a, Params>>)> {
        let (list, entries) = self.acting_for(m);
        if !entries
            .iter()
            .any(|e| e.len() == entry.len() && **e == *entry)
        {
            return Vec::new();
        }
        self.kept(m, &list, |module| module.function(entry).is_some())
    }

    /// The modules acting for `m` that `keep` accepts, as [`ScriptHooks::modules_for`].
    fn modules_where(
        &self,
        m: &Model,
        keep: impl Fn(&Module) -> bool,
    ) -> Vec<(&Module, Option<Cow<'a, Params>>)> {
        let (list, _) = self.acting_for(m);
        self.kept(m, &list, keep)
    }

    /// The modules acting for `m` and the entry points they define, found once and kept while
    /// [`acting_key`] is unchanged.
    fn acting_for(&self, m: &Model) -> (Rc<[Acting]>, Rc<[Box<str>]>) {
        let key = acting_key(m);
        if let Some(a) = self.acting.borrow().get(&m.id).filter(|a| a.key == key) {
            return (a.list.clone(), a.entries.clone());
        }
        let list: Rc<[Acting]> = self.find_acting(m).into();
        let mut entries: Vec<Box<str>> = Vec::new();
        for module in list.iter().filter_map(|a| self.registry.at(a.module)) {
            for name in module.entry_names() {
                if !entries.iter().any(|e| **e == *name) {
                    entries.push(name.into());
                }
            }
        }
        let entries: Rc<[Box<str>]> = entries.into();
        self.acting.borrow_mut().insert(
            m.id,
            ActingFor {
                key,
                list: list.clone(),
                entries: entries.clone(),
            },
        );
        (list, entries)
    }

    /// The modules of `list` (acting for `m`) that `keep` accepts, with their params. The params of
    /// the others are never looked up (an item's are a copy).
    fn kept(
        &self,
        m: &Model,
        list: &[Acting],
        keep: impl Fn(&Module) -> bool,
    ) -> Vec<(&Module, Option<Cow<'a, Params>>)> {
        if list.is_empty() {
            return Vec::new();
        }
        list.iter()
            .filter_map(|a| {
                let module = self.registry.at(a.module).filter(|m| keep(m))?;
                Some((module, self.params_of(m, a)?))
            })
            .collect()
    }

    /// The `params` an acting module runs with for `m` (`None` when its entry is gone: the module
    /// is then not acting).
    fn params_of(&self, m: &Model, a: &Acting) -> Option<Option<Cow<'a, Params>>> {
        let r: &'a crate::roster::Rosters = &self.core.rosters;
        Some(match a.params {
            ParamsOf::None => None,
            ParamsOf::Trait(i) => Some(Cow::Borrowed(&r.traits.get(i)?.params)),
            ParamsOf::Signature(i) => Some(Cow::Borrowed(
                &r.profiles.get(i)?.signature.as_ref()?.params,
            )),
            ParamsOf::Alpha(i) => Some(Cow::Borrowed(&r.profiles.get(i)?.alpha.as_ref()?.params)),
            ParamsOf::Item(i) => Some(Cow::Owned(m.items.get(i)?.params.clone())),
        })
    }

    /// Look up which modules act for `m` (see [`ScriptHooks::modules_for`]).
    fn find_acting(&self, m: &Model) -> Vec<Acting> {
        let r = &self.core.rosters;
        let mut keys: Vec<(&str, ParamsOf)> = m
            .all_traits()
            .filter_map(|t| r.traits.iter().position(|x| x.name == t))
            .filter_map(|i| {
                r.traits[i]
                    .script
                    .as_deref()
                    .map(|s| (s, ParamsOf::Trait(i)))
            })
            .collect();
        if let Some(i) = r.profiles.iter().position(|p| p.name == m.name) {
            let p = &r.profiles[i];
            if let Some(s) = p.signature.as_ref().and_then(|a| a.script.as_deref()) {
                keys.push((s, ParamsOf::Signature(i)));
            }
            if let Some(s) = p.alpha.as_ref().and_then(|a| a.script.as_deref()) {
                keys.push((s, ParamsOf::Alpha(i)));
            }
        }
        let mut out: Vec<Acting> = keys
            .iter()
            .filter_map(|(k, params)| {
                self.registry.index_of(k).map(|module| Acting {
                    module,
                    params: *params,
                })
            })
            .collect();
        // An item's script acts for its carrier like a trait's (Relic Blade's melee_modifier).
        out.extend(m.items.iter().enumerate().filter_map(|(i, item)| {
            self.registry.index_of(&item.script).map(|module| Acting {
                module,
                params: ParamsOf::Item(i),
            })
        }));
        out.extend(self.core.variants.iter().filter_map(|v| {
            self.registry
                .index_of(&format!("variants/{v}.lua"))
                .map(|module| Acting {
                    module,
                    params: ParamsOf::None,
                })
        }));
        out
    }
}

/// An order a script returned, refused as that script's error (file, entry, field and value) when its
/// points are NaN, infinite or off the table, before the kernel sees it.
fn checked_order(
    r: &crate::script::api::answer::Reader,
    game: &Game,
    order: Option<Order>,
) -> Result<Option<Order>, HookError> {
    if let Some(o) = &order {
        o.check_input(&game.table).map_err(|e| r.bad(e))?;
    }
    Ok(order)
}

fn hook_err(e: impl std::fmt::Display) -> HookError {
    HookError {
        message: crate::script::error::bounded(e.to_string()),
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
        arg: &dyn Fn(&Lua, &Ctx) -> mlua::Result<Value>,
    ) -> Result<Vec<(&Module, Value)>, HookError> {
        self.answers(game, id, entry, |_| None, arg)
    }

    /// The answer to `entry` of every module acting for `id`, in their order: the table `fixed` finds
    /// in a module as it stands (an answer that never changes, found when the file loaded: no call),
    /// else what its function returns, called as [`ScriptHooks::call_read`] calls it.
    fn answers(
        &self,
        game: &Game,
        id: ModelId,
        entry: &str,
        fixed: impl Fn(&Module) -> Option<&Table>,
        arg: &dyn Fn(&Lua, &Ctx) -> mlua::Result<Value>,
    ) -> Result<Vec<(&Module, Value)>, HookError> {
        let Ok(me) = game.model(id) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        let answers = |m: &Module| m.function(entry).is_some();
        for (module, params) in self.modules_where(me, |m| answers(m) || fixed(m).is_some()) {
            let v = match (fixed(module), module.function(entry)) {
                (Some(t), _) => Value::Table(t.clone()),
                (None, Some(f)) => self.read_one(game, me, module, params.as_deref(), f, arg)?,
                (None, None) => continue,
            };
            out.push((module, v));
        }
        Ok(out)
    }

    /// Call `f` of `module` for `me` with a read-only ctx, the model's view and `arg`.
    fn read_one(
        &self,
        game: &Game,
        me: &Model,
        module: &Module,
        params: Option<&Params>,
        f: &mlua::Function,
        arg: &dyn Fn(&Lua, &Ctx) -> mlua::Result<Value>,
    ) -> Result<Value, HookError> {
        let budget = self.budget()?;
        let lua = self.lua;
        call_hook(
            lua,
            budget,
            Ctx::hook(
                View::Read(game),
                self,
                module,
                params_value(lua, params).map_err(hook_err)?,
            ),
            |ctx| Ok((ctx.model_view(lua, me)?, arg(lua, ctx)?)),
            |ctx, (me_v, arg_v)| profiled(lua, f, || f.call::<Value>((ctx, me_v, arg_v))),
        )
        .map_err(hook_err)
    }

    /// Call `entry` of every module acting for `id` with a ctx that may roll dice and ask for changes.
    fn call_act(
        &self,
        game: &mut Game,
        id: ModelId,
        entry: &str,
        intents: &std::cell::RefCell<Vec<Intent>>,
        arg: &dyn Fn(&Lua, &Ctx) -> mlua::Result<Value>,
    ) -> Result<Vec<(&Module, Value)>, HookError> {
        let modules = match game.model(id) {
            Ok(me) => self.modules_with(me, entry),
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
            // A reaction that said it has nothing more to do this wave is not called again until
            // the next (Hold the Line, once its use is spent, hears every Enemy Group activate).
            if game.is_done_for_wave(id, &module.key, entry) {
                continue;
            }
            let reacting = Reacting {
                model: id,
                module: &module.key,
                entry,
            };
            let v = self.call_module_act(
                game,
                id,
                module,
                params.as_deref(),
                f,
                intents,
                arg,
                Some(reacting),
            )?;
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
        arg: &dyn Fn(&Lua, &Ctx) -> mlua::Result<Value>,
    ) -> Result<Vec<Intent>, HookError> {
        let intents = std::cell::RefCell::new(Vec::new());
        self.call_act(game, id, entry, &intents, arg)?;
        Ok(intents.into_inner())
    }

    /// Call one function of `module` for model `id` with a ctx that may roll dice and ask for changes;
    /// `reacting` when it is a hook called for every script of the model (its ctx offers
    /// `ctx:done_for_wave`).
    #[allow(clippy::too_many_arguments)]
    fn call_module_act<R: mlua::FromLuaMulti>(
        &self,
        game: &mut Game,
        id: ModelId,
        module: &Module,
        params: Option<&Params>,
        f: &mlua::Function,
        intents: &std::cell::RefCell<Vec<Intent>>,
        arg: &dyn Fn(&Lua, &Ctx) -> mlua::Result<Value>,
        reacting: Option<Reacting<'_>>,
    ) -> Result<R, HookError> {
        let budget = self.budget()?;
        let lua = self.lua;
        game.model(id).map_err(hook_err)?;
        let params = params_value(lua, params).map_err(hook_err)?;
        call_hook(
            lua,
            budget,
            Ctx {
                intents: Some(intents),
                reacting,
                ..Ctx::hook(View::Act(&mut *game), self, module, params)
            },
            |ctx| Ok((ctx.model_view_of(lua, id)?, arg(lua, ctx)?)),
            |ctx, (me_v, arg_v)| profiled(lua, f, || f.call::<R>((ctx, me_v, arg_v))),
        )
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
        args: &dyn Fn(&Lua, &Ctx) -> mlua::Result<Vec<Value>>,
    ) -> Result<Value, HookError> {
        let budget = self.budget()?;
        let lua = self.lua;
        call_hook(
            lua,
            budget,
            Ctx::hook(View::Act(&mut *game), self, module, Value::Nil),
            |ctx| args(lua, ctx),
            |ctx, args| {
                let mut all = mlua::MultiValue::new();
                all.push_back(Value::UserData(ctx));
                all.extend(args);
                profiled(lua, f, || f.call::<Value>(all))
            },
        )
        .map_err(hook_err)
    }

    /// The hero policy's module (scripts/policies/<name>.lua), if loaded.
    fn policy_module(&self) -> Option<&Module> {
        let at = *self.policy_at.get_or_init(|| {
            self.registry
                .index_of(&format!("policies/{}.lua", self.policy()))
        });
        self.registry.at(at?)
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
        let params_v = params_value(lua, Some(params)).map_err(hook_err)?;
        let info_v = info(lua).map_err(hook_err)?;
        let list = std::cell::RefCell::new(Vec::new());
        call_hook(
            lua,
            budget,
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
            |ctx| match hero {
                Some(h) => ctx.model_view_of(lua, h),
                None => Ok(Value::Nil),
            },
            |ctx, hero_v| {
                profiled(lua, f, || {
                    f.call::<Value>((ctx, hero_v, params_v.clone(), info_v.clone()))
                })
            },
        )
        .map_err(hook_err)?;
        Ok(list.into_inner())
    }
}

/// What a Behaviour aims at, as its scripts see it: a snapshot, a point or `{ edge = true }`.
impl Hooks for ScriptHooks<'_> {
    fn roll_modifiers(&self, game: &Game, roll: &RollInfo) -> Result<Vec<Modifier>, HookError> {
        let entry = format!("{}_modifier", roll.kind.as_str());
        let target_model = match &roll.target {
            Target::Model(id) => Some(*id),
            Target::Building(_) | Target::Token(_) => None,
        };
        let mut out = Vec::new();
        for (role, id) in [
            (Role::Attacker, Some(roll.attacker)),
            (Role::Defender, target_model),
        ] {
            let Some(id) = id else { continue };
            let Ok(me) = game.model(id) else { continue };
            let roll_t = |lua: &Lua, ctx: &Ctx| roll_table(lua, ctx, roll, role).map(Value::Table);
            for (module, params) in self.modules_with(me, &entry) {
                let Some(f) = module.function(&entry) else {
                    continue;
                };
                let returned = self.read_one(game, me, module, params.as_deref(), f, &roll_t)?;
                let r = self.reader(module, &entry);
                replies::modifiers(&r, &r.read(self.lua, &returned)?, role, module, &mut out)?;
            }
        }
        Ok(out)
    }

    fn win_rules(&self, game: &Game, win: &WinInfo) -> Result<WinRules, HookError> {
        let arg = |lua: &Lua, ctx: &Ctx| win_table(lua, ctx, win, win.winner, win.result);
        let mut out = WinRules::default();
        for (module, v) in self.call_read(game, win.winner, "win_rules", &arg)? {
            let r = self.reader(module, "win_rules");
            replies::win_rules(&r, &r.read(self.lua, &v)?, module, &mut out)?;
        }
        Ok(out)
    }

    fn on_result(&self, game: &mut Game, win: &WinInfo) -> Result<ResultChange, HookError> {
        let intents = std::cell::RefCell::new(Vec::new());
        let mut change = ResultChange::default();
        let mut current = win.result;
        for who in [win.winner, win.loser] {
            let now = current;
            let arg = |lua: &Lua, ctx: &Ctx| win_table(lua, ctx, win, who, now);
            for (module, v) in self.call_act(game, who, "on_result", &intents, &arg)? {
                let r = self.reader(module, "on_result");
                let reply = replies::result_change(
                    &r,
                    &r.read(self.lua, &v)?,
                    module,
                    &self.core.rules.measures,
                )?;
                if let Some((inches, reason)) = reply.recoil {
                    change.recoil = Some((inches, reason, module.label.clone()));
                }
                if let Some((to, reason)) = reply.result {
                    current = to;
                    change.replace = Some((to, reason, module.label.clone()));
                }
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
        let arg = |_: &Lua, _: &Ctx| Ok(Value::Nil);
        self.ask_changes(game, model, "on_defeat", &arg)
    }

    fn on_structural(
        &self,
        game: &mut Game,
        attacker: ModelId,
        building: &str,
        won: bool,
    ) -> Result<Vec<Intent>, HookError> {
        let arg = |lua: &Lua, _: &Ctx| -> mlua::Result<Value> {
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
        let arg = |lua: &Lua, ctx: &Ctx| ctx.model_views(lua, charged);
        self.ask_changes(game, mover, "on_charge", &arg)
    }

    fn behaviour_target(&self, game: &mut Game, model: ModelId) -> Result<Option<Aim>, HookError> {
        let Some(module) = self.behaviour_module(game, model)? else {
            return Ok(None);
        };
        if game.model(model).is_err() {
            return Ok(None);
        }
        let target = module.function("target");
        // A declared choice (`targets`) is the kernel's to follow, unless the decision is explained
        // and the script has a `target` to say why (it follows the same steps: `P.declared`).
        if let Some(steps) = module.targets.as_deref() {
            if target.is_none() || (!game.explains() && self.native_declared.get()) {
                if let Some(aim) = self.declared_target(game, model, steps, 0)? {
                    return Ok(aim);
                }
            }
        }
        let Some(f) = target else {
            return Ok(None);
        };
        // No third argument: a Behaviour that weighs its Group asks for it
        // (`ctx:models({ group_of = self })`), so the other calls make no views of it.
        let arg = |_: &Lua, _: &Ctx| Ok(Value::Nil);
        let intents = std::cell::RefCell::new(Vec::new());
        let (called, notes) = self.noting(game, module, |game| {
            self.call_module_act::<(Value, Value)>(
                game, model, module, None, f, &intents, &arg, None,
            )
        });
        let (v, why) = called?;
        let why = decisions::returned_reason(module, "target", why, notes.is_some())?;
        let r = self.reader(module, "target");
        let aim = match r.read(self.lua, &v)? {
            crate::script::api::answer::Plain::Nil => None,
            p => match aim_of(&r, &p, "")? {
                // A point aimed at is checked here, where the script is known: NaN, inf and
                // off-table points are the script's error, never a panic in a move.
                Some(Aim::Point(p)) => Some(
                    crate::geometry::check::point_on(&game.table, "a point", p)
                        .map(Aim::Point)
                        .map_err(|e| r.bad(e))?,
                ),
                Some(aim) => Some(aim),
                None => {
                    return Err(
                        r.bad("a table that is no model, building, point or { edge = true }")
                    )
                }
            },
        };
        if let Some(notes) = notes {
            let chose = match &aim {
                Some(a) => crate::rules::words::aim_words(game, a),
                None => "nothing (no target)".to_string(),
            };
            let by = Self::behaviour_name(game, model);
            self.record_decision(
                game,
                module,
                f,
                Some(model),
                by,
                Decides::Target,
                chose,
                why,
                notes,
            );
        }
        Ok(aim)
    }

    fn behaviour_objective(
        &self,
        game: &mut Game,
        model: ModelId,
        lost: Option<&crate::state::Objective>,
    ) -> Result<Option<crate::state::Objective>, HookError> {
        self.ask_objective(game, model, lost)
    }

    fn behaviour_declare(&self, game: &mut Game, model: ModelId) -> Result<bool, HookError> {
        let Some(module) = self.behaviour_module(game, model)? else {
            return Ok(false);
        };
        let Some(f) = module.function("declare") else {
            return Ok(false);
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let arg = |_: &Lua, _: &Ctx| Ok(Value::Nil);
        let v: Value = self.call_module_act(game, model, module, None, f, &intents, &arg, None)?;
        let r = self.reader(module, "declare");
        match r.read(self.lua, &v)? {
            crate::script::api::answer::Plain::Nil
            | crate::script::api::answer::Plain::Bool(false) => Ok(false),
            crate::script::api::answer::Plain::Bool(true) => Ok(true),
            other => Err(r.field("", &other, "expected true or false")),
        }
    }

    fn on_activation(
        &self,
        game: &mut Game,
        model: ModelId,
        roll: &crate::dice::ActivationRoll,
    ) -> Result<Vec<Intent>, HookError> {
        let arg = |lua: &Lua, _: &Ctx| -> mlua::Result<Value> {
            let t = lua.create_table()?;
            t.raw_set("dice", roll.dice.clone())?;
            t.raw_set("automatic", roll.automatic)?;
            t.raw_set("successes", roll.successes)?;
            t.raw_set("failures", roll.failures)?;
            t.raw_set("turnover", roll.turnover)?;
            Ok(Value::Table(t))
        };
        self.ask_changes(game, model, "on_activation", &arg)
    }

    fn on_wave_start(&self, game: &mut Game, model: ModelId) -> Result<Vec<Intent>, HookError> {
        let arg = |lua: &Lua, ctx: &Ctx| -> mlua::Result<Value> {
            let t = lua.create_table()?;
            t.raw_set("wave", ctx.game().wave)?;
            t.raw_set("round", ctx.game().round)?;
            Ok(Value::Table(t))
        };
        self.ask_changes(game, model, "on_wave_start", &arg)
    }

    fn policy_activation(
        &self,
        game: &mut Game,
        model: ModelId,
    ) -> Result<Option<crate::rules::hooks::ActivationAsk>, HookError> {
        use crate::rules::hooks::ActivationAsk;
        // Without a policy, or one without `activate`: two dice.
        let Some(answer) = self.ask_policy(game, model, "activate")? else {
            return Ok(Some(ActivationAsk::dice(2)));
        };
        let r = self.reader(answer.module, "activate");
        let ask = activation_ask_of(&r, &r.read(self.lua, &answer.value)?)?;
        answer.record(self, game, model, Decides::Activation, |game| match &ask {
            Some(a) => crate::rules::words::activation_words(game, a),
            None => "not now".to_string(),
        });
        Ok(ask)
    }

    fn policy_order(&self, game: &mut Game, model: ModelId) -> Result<Option<Order>, HookError> {
        let Some(answer) = self.ask_policy(game, model, "act")? else {
            return Ok(None);
        };
        let plan::PolicyAnswer {
            module,
            f,
            value,
            why,
            notes,
        } = answer;
        let r = self.reader(module, "act");
        let order = checked_order(&r, game, order_of(&r, self.lua, &value)?)?;
        if let Some(notes) = notes {
            let by = self.policy_name();
            self.record_order(
                game,
                module,
                f,
                model,
                by,
                Decides::Order,
                &order,
                why,
                notes,
            );
        }
        Ok(order)
    }

    fn policy_plan(
        &self,
        game: &mut Game,
        model: ModelId,
    ) -> Result<Option<Vec<Order>>, HookError> {
        self.plan_of_policy(game, model)
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
        let arg = |lua: &Lua, _: &Ctx| Ok(vec![super::convert::to_lua(lua, info)?]);
        let (called, notes) =
            self.noting(game, module, |game| self.call_plain(game, module, f, &arg));
        let r = self.reader(module, "council");
        let orders = council_orders_from(&r, self.lua, &called?)?;
        if let Some(notes) = notes {
            let chose = crate::rules::words::council_words(&orders);
            let by = self.policy_name();
            self.record_decision(
                game,
                module,
                f,
                None,
                by,
                Decides::Council,
                chose,
                None,
                notes,
            );
        }
        Ok(orders)
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
        if module.universal && self.native_declared.get() {
            if let Some(order) = self.universal_order(game, model, aim, module, f)? {
                return Ok(order);
            }
        }
        let arg = |lua: &Lua, ctx: &Ctx| aim_value(lua, ctx, aim);
        let intents = std::cell::RefCell::new(Vec::new());
        let (called, notes) = self.noting(game, module, |game| {
            self.call_module_act::<(Value, Value)>(
                game, model, module, None, f, &intents, &arg, None,
            )
        });
        let (v, why) = called?;
        let why = decisions::returned_reason(module, "act", why, notes.is_some())?;
        let r = self.reader(module, "act");
        let order = checked_order(&r, game, order_of(&r, self.lua, &v)?)?;
        if let Some(notes) = notes {
            self.record_behaviour_action(game, module, f, model, &order, why, notes);
        }
        Ok(order)
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

    fn cast_spell(
        &self,
        game: &mut Game,
        caster: ModelId,
        order: &crate::rules::hooks::CastOrder,
    ) -> Result<crate::rules::hooks::CastReport, RuleError> {
        self.cast_order(game, caster, order)
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
        let arg = |lua: &Lua, _: &Ctx| {
            let t = lua.create_table()?;
            t.raw_set("step", step.step.as_str())?;
            t.raw_set("asks", step.asks.clone())?;
            if let Some(e) = &step.edges {
                t.raw_set("edges", e.clone())?;
            }
            Ok(vec![Value::Table(t)])
        };
        let v = self.call_plain(game, module, f, &arg)?;
        let r = self.reader(module, "deploy");
        deploy_choices_of(&r, module, &r.read(self.lua, &v)?)
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
        let arg = |lua: &Lua, ctx: &Ctx| Ok(vec![ctx.model_views(lua, group)?]);
        let v = self.call_plain(game, module, f, &arg)?;
        let r = self.reader(module, "blessing");
        let name = match r.read(self.lua, &v)? {
            crate::script::api::answer::Plain::Nil => return Ok(None),
            p => r.building(&p, "")?,
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
        let arg = |lua: &Lua, _: &Ctx| {
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
        let r = self.reader(module, "build_wave");
        scripted_wave_of(&r, module, &r.read(self.lua, &v)?)
    }

    fn on_pass_token(
        &self,
        game: &mut Game,
        model: ModelId,
        token: TokenId,
    ) -> Result<(Option<String>, Vec<Intent>), HookError> {
        self.pass_token(game, model, token)
    }

    fn on_enemy_turn_end(
        &self,
        game: &mut Game,
        destroyed: &[String],
    ) -> Result<Vec<Intent>, HookError> {
        let intents = std::cell::RefCell::new(Vec::new());
        for v in &self.core.variants {
            let Some(module) = self.registry.variant(v) else {
                continue;
            };
            let Some(f) = module.function("on_enemy_turn_end") else {
                continue;
            };
            let budget = self.budget()?;
            let lua = self.lua;
            call_hook(
                lua,
                budget,
                Ctx {
                    intents: Some(&intents),
                    ..Ctx::hook(View::Act(&mut *game), self, module, Value::Nil)
                },
                |ctx| {
                    let t = lua.create_table()?;
                    t.raw_set("wave", ctx.game().wave)?;
                    t.raw_set("round", ctx.game().round)?;
                    t.raw_set("destroyed", destroyed.to_vec())?;
                    Ok(t)
                },
                |ctx, turn| profiled(lua, f, || f.call::<Value>((ctx, turn))),
            )
            .map_err(hook_err)?;
        }
        Ok(intents.into_inner())
    }

    fn victory_check(
        &self,
        game: &mut Game,
        ask: &crate::rules::hooks::VictoryAsk,
    ) -> Result<(Option<crate::state::battle::Verdict>, Vec<Intent>), HookError> {
        let Some(name) = game.battle.as_ref().and_then(|b| b.victory.clone()) else {
            return Ok((None, Vec::new()));
        };
        let Some(module) = self.registry.get(&format!("victory/{name}.lua")) else {
            return Err(HookError {
                message: format!(
                    "scripts/victory/{name}.lua: no such victory script (the scenario names it)"
                ),
            });
        };
        let Some(f) = module.function("on_victory_check") else {
            return Ok((None, Vec::new()));
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let budget = self.budget()?;
        let lua = self.lua;
        let (word, reason) = call_hook(
            lua,
            budget,
            Ctx {
                intents: Some(&intents),
                ..Ctx::hook(View::Act(&mut *game), self, module, Value::Nil)
            },
            |ctx| {
                let g = ctx.game();
                let t = lua.create_table()?;
                t.raw_set("wave", g.wave)?;
                t.raw_set("round", g.round)?;
                t.raw_set("turn", ask.turn.as_str())?;
                t.raw_set("limit", ask.limit)?;
                t.raw_set("round_limit", g.battle.as_ref().and_then(|b| b.round_limit))?;
                Ok(t)
            },
            |ctx, check| profiled(lua, f, || f.call::<(Value, Value)>((ctx, check))),
        )
        .map_err(hook_err)?;
        let source = module.label.clone();
        let verdict = match (&word, &reason) {
            (Value::Nil, _) => None,
            (Value::String(w), r) => {
                let w = w.to_string_lossy();
                let Some(result) = crate::wave::battle::ending_of(&w) else {
                    return Err(HookError {
                        message: format!("{source}: on_victory_check returned {w:?}: it returns \"win\", \"loss\", \"draw\" or nil"),
                    });
                };
                let reason = match r {
                    Value::String(s) => s.to_string_lossy(),
                    Value::Nil => format!("{source} says {w}"),
                    other => {
                        return Err(HookError {
                            message: format!("{source}: on_victory_check's reason is a {}, not a string", other.type_name()),
                        })
                    }
                };
                Some(crate::wave::battle::verdict(result, reason, source.clone()))
            }
            (other, _) => {
                return Err(HookError {
                    message: format!("{source}: on_victory_check returned a {}: it returns \"win\", \"loss\", \"draw\" or nil, then a reason", other.type_name()),
                })
            }
        };
        Ok((verdict, intents.into_inner()))
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
        let arg = |lua: &Lua, ctx: &Ctx| ctx.model_views(lua, engaged);
        let mut out = MoveTraits::default();
        for (module, v) in self.answers(game, model, "movement", |m| m.movement.as_ref(), &arg)? {
            let r = self.reader(module, "movement");
            if replies::movement(&r, &r.read(self.lua, &v)?, engaged, &mut out)? {
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
        let arg = |_: &Lua, _: &Ctx| Ok(Value::Nil);
        // The first script that grants it is its source; a table of names is read without a call, and
        // without the module's params (asked at every action of the game: `wave::morale::watch`).
        let (list, _) = self.acting_for(me);
        for a in list.iter() {
            let Some(module) = self.registry.at(a.module) else {
                continue;
            };
            let granted = match &module.permissions {
                Permissions::None => continue,
                Permissions::Computed(f) => {
                    let Some(params) = self.params_of(me, a) else {
                        continue;
                    };
                    let v = self.read_one(game, me, module, params.as_deref(), f, &arg)?;
                    let r = self.reader(module, "permissions");
                    replies::grants(&r, &r.read(self.lua, &v)?, name)?
                }
                // (Its params are not looked up: an acting module's always exist, the list being kept
                // under the model's name, traits and items.)
                by_table => by_table.grants(name).unwrap_or(false),
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
        let arg = |lua: &Lua, _: &Ctx| Ok(Value::String(lua.create_string(trigger.as_str())?));
        for (module, v) in self.call_read(game, model, "morale", &arg)? {
            let r = self.reader(module, "morale");
            if let Some(why) = replies::morale(&r, &r.read(self.lua, &v)?, module)?.immune {
                return Ok(Some((why, module.label.clone())));
            }
        }
        // A Behaviour that makes no morale checks for Terror or Gruesome Kills (Fanatic, §6.3: the
        // roster's `ignores_terror_and_gruesome`), when no trait script spoke first.
        if matches!(trigger, MoraleTrigger::Terror | MoraleTrigger::GruesomeKill) {
            let behaviour = game
                .model(model)
                .ok()
                .and_then(|m| m.behaviour.as_deref())
                .and_then(|b| self.core.rosters.behaviour(b));
            if let Some(b) = behaviour.filter(|b| b.ignores_terror_and_gruesome) {
                return Ok(Some((
                    format!(
                        "the {} Behaviour makes no morale checks for Terror or Gruesome Kills",
                        b.name
                    ),
                    "rosters/behaviours.toml".to_string(),
                )));
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
        let arg = |lua: &Lua, _: &Ctx| Ok(Value::String(lua.create_string(trigger.as_str())?));
        let mut out = Vec::new();
        for (module, v) in self.call_read(game, model, "morale", &arg)? {
            let r = self.reader(module, "morale");
            if let Some((value, reason)) =
                replies::morale(&r, &r.read(self.lua, &v)?, module)?.modifier
            {
                out.push(Modifier {
                    to: Role::Defender,
                    value,
                    reason,
                    source: module.label.clone(),
                });
            }
        }
        Ok(out)
    }
}
