//! The `ctx` a hook receives: which game it views (read-only, or acting), what it may ask for (intents,
//! rewards, spell primitives), the views it hands out, and running a spell script's `cast` with a
//! ctx whose primitives act at once (`run_spell`).

use super::*;

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
    refused: &std::cell::RefCell<Option<RuleError>>,
) -> Result<Value, ScriptError> {
    let budget = host(lua)
        .map(|h| h.limits.hook_instructions)
        .map_err(ScriptError::from_lua)?;
    let rules = &core.rules;
    game.model(casting.caster)
        .map_err(mlua::Error::external)
        .map_err(ScriptError::from_lua)?;
    let params = params_value(lua, Some(params)).map_err(ScriptError::from_lua)?;
    with_budget(lua, budget, || {
        with_ctx(
            lua,
            Ctx {
                view: View::Act(game),
                game_id: core.id,
                rules,
                rules_json: &core.rules_json,
                rule_constants: &core.rule_constants,
                intents: None,
                source: source.to_string(),
                params,
                spell: Some(SpellCtx {
                    core,
                    refused,
                    rosters,
                    registry,
                    caster: casting.caster,
                    spell: casting.spell.to_string(),
                    power: casting.power,
                }),
                kernel: None,
                reward: None,
                views: Default::default(),
                reacting: None,
                asked: Default::default(),
            },
            |ctx, handle| {
                let (caster_t, target_t) = {
                    let views = handle.ctx(lua)?;
                    let target_t = match target {
                        Some(t) => views.model_view_of(lua, t)?,
                        None => Value::Nil,
                    };
                    (views.model_view_of(lua, casting.caster)?, target_t)
                };
                let result = profiled(lua, cast, || {
                    cast.call::<Value>((ctx.clone(), caster_t, casting.power, target_t, opts))
                })?;
                // A spell's answer goes back to whoever cast it (`g:cast`, a REPL line): its views
                // are filled in now, while the call lives, so they can be read afterwards.
                handle.ctx(lua)?.fill_views(lua)?;
                Ok(result)
            },
        )
    })
}

/// What a spell script's ctx knows beyond the game: the casting it checks effects against, and the
/// game's `Core` and registry, to build the `ScriptHooks` a spell attack needs.
pub(super) struct SpellCtx<'a> {
    pub(super) core: &'a Rc<Core>,
    /// The first refusal of the rules one of its primitives met (out of range, not the closest target...):
    /// a cast that fails on it is the rules' refusal, not the script's error.
    pub(super) refused: &'a std::cell::RefCell<Option<RuleError>>,
    /// The rosters with the game's rule constants (variants applied).
    pub(super) rosters: &'a crate::roster::Rosters,
    pub(super) registry: Rc<Registry>,
    pub(super) caster: ModelId,
    pub(super) spell: String,
    pub(super) power: u8,
}

/// The game a `ctx` looks at: read-only for modifier and rule hooks; with the right to roll dice and ask
/// for changes in `on_result` and `on_charge`; with spell primitives in a spell's `cast`.
pub(super) enum View<'a> {
    Read(&'a Game),
    Act(&'a mut Game),
}

/// The view of the game a hook receives as `ctx`. It lives only for the call. Changes a hook asks for
/// are collected as intents and applied by the kernel after the hook returns.
pub(super) struct Ctx<'a> {
    pub(super) view: View<'a>,
    /// The identity of the game viewed (`Core::id`): the views this call hands out carry it in their
    /// serial, and a view or handle of another game is refused ([`Ctx::reader`]).
    pub(super) game_id: u64,
    pub(super) rules: &'a Rules,
    /// `rules` as JSON, for `ctx:rule`.
    pub(super) rules_json: &'a serde_json::Value,
    /// Its constants indexed, for `ctx:rule`'s usual case.
    pub(super) rule_constants: &'a crate::script::api::constants::RuleConstants,
    pub(super) intents: Option<&'a std::cell::RefCell<Vec<Intent>>>,
    pub(super) source: String,
    /// The `params` of the roster entry that names this script (nil for a variant).
    pub(super) params: Value,
    /// Set in a spell's `cast`: the casting its primitives act for.
    pub(super) spell: Option<SpellCtx<'a>>,
    /// The hooks the kernel called this one through, for queries that need the rules with every
    /// script's say (`ctx:can_shoot`); none in a spell's `cast`.
    pub(super) kernel: Option<&'a ScriptHooks<'a>>,
    /// Set in an Opportunity's `claim`/`wave_end` and an item's `use`: where its reward primitives
    /// (`ctx:add_supplies`, `ctx:give`, ...) collect what it asks for.
    pub(super) reward: Option<RewardCtx<'a>>,
    /// The views this call handed out (`views.rs`).
    pub(super) views: CallViews,
    /// Set in a model's reaction hooks (those the kernel calls for every acting script of a model, as
    /// `on_opponent_activation`): which hook of which script for which model, for `ctx:done_for_wave`.
    pub(super) reacting: Option<Reacting<'a>>,
    /// What this call has asked of the kernel so far, each bounded ([`Asked`]).
    pub(super) asked: Asked,
}

/// The most changes (intents, rewards, spell primitives) one hook call may ask for: each is kept, applied
/// and logged outside the VM's memory limit. The built-in scripts ask for at most a handful (Fire
/// Breath: one attack per enemy in reach).
pub(crate) const MAX_CHANGES: u32 = 64;

/// The most dice rolls (`ctx:roll`, `ctx:peek`) one hook call may make: each is an event in the log.
/// The built-in scripts roll once or twice (Poison).
pub(crate) const MAX_ROLLS: u32 = 64;

/// The `ctx` method that asks for `intent`, for its errors.
fn method_of(intent: &Intent) -> &'static str {
    match intent {
        Intent::WorsenQuality { .. } => "worsen_quality",
        Intent::AddCondition { .. } => "add_condition",
        Intent::Morale { .. } => "morale",
        Intent::AdvanceTrack { .. } => "advance_track",
        Intent::AwardVp { .. } => "award_vp",
        Intent::Spend { .. } => "spend",
        Intent::Grant(_) => "grant",
        Intent::Repair { .. } => "repair",
        Intent::Extinguish { .. } => "extinguish",
        Intent::Ignite { .. } => "ignite",
        Intent::RemoveBarricade { .. } => "remove_barricade",
        Intent::Attack { .. } => "attack",
        Intent::Summon { .. } => "summon_near",
    }
}

/// What one hook call has asked of the kernel: changes and rolls, each counted against its bound.
#[derive(Default)]
pub(super) struct Asked {
    changes: std::cell::Cell<u32>,
    rolls: std::cell::Cell<u32>,
    /// What this call's playouts (`ctx:rollouts`) spent so far, against their cap for one decision.
    pub(super) playouts: super::rollouts::Spent,
}

impl Asked {
    /// Count one more change, refused past [`MAX_CHANGES`], located at the script's line.
    pub(super) fn change(&self, lua: &Lua, what: &str) -> mlua::Result<()> {
        let n = self.changes.get() + 1;
        if n > MAX_CHANGES {
            return Err(fail(
                lua,
                format!(
                    "ctx:{what}: this hook call already asked for {MAX_CHANGES} changes, at most \
                     {MAX_CHANGES} a call (each is kept and logged outside the VM's memory limit)"
                ),
            ));
        }
        self.changes.set(n);
        Ok(())
    }

    /// Count one more roll, refused past [`MAX_ROLLS`], located at the script's line.
    pub(super) fn roll(&self, lua: &Lua, what: &str) -> mlua::Result<()> {
        let n = self.rolls.get() + 1;
        if n > MAX_ROLLS {
            return Err(fail(
                lua,
                format!(
                    "ctx:{what}: this hook call already rolled {MAX_ROLLS} times, at most \
                     {MAX_ROLLS} a call (each roll is an event in the log)"
                ),
            ));
        }
        self.rolls.set(n);
        Ok(())
    }
}

/// A reaction hook being called: the model, the script's key and the entry point.
#[derive(Clone, Copy)]
pub(super) struct Reacting<'a> {
    pub(super) model: ModelId,
    pub(super) module: &'a str,
    pub(super) entry: &'a str,
}

/// The views of one hook call: the serial they carry (their field reads find the call by it, see
/// `handle::live_ctx`) and the views already handed out, reused while the game has not changed.
#[derive(Default)]
pub(super) struct CallViews {
    /// This call's serial, set by `with_ctx`.
    pub(super) serial: i64,
    /// The views already handed out in this call, a Lua table: a model's under its id, a building's
    /// under −(its index in the game + 1). A policy asks for the same models many times a call.
    /// Dropped on every mutable access to the ctx (`CtxHandle::ctx_mut`), the only way the game can
    /// change during a call, after `Ctx::fill_views` filled them in.
    pub(super) memo: std::cell::RefCell<Option<Table>>,
}

/// What an Opportunity's or item's ctx knows to collect rewards: the list, the script key items it gives
/// carry, its params (copied into those items), the hero it acts for, and whether an Ambush may deploy
/// (only on claiming, around the token).
pub(super) struct RewardCtx<'a> {
    pub(super) list: &'a std::cell::RefCell<Vec<Reward>>,
    pub(super) script: String,
    pub(super) params: Params,
    pub(super) hero: Option<ModelId>,
    pub(super) claim: bool,
}

/// A roster entry's `params` as a Lua table.
pub(super) fn params_value(lua: &Lua, params: Option<&Params>) -> mlua::Result<Value> {
    match params {
        // The kernel's own work, built before the script runs: without the memory limit, under which
        // mlua guards every table write of the copy with a protected call.
        Some(p) => {
            let h = crate::script::host::host(lua)?;
            crate::script::host::kernel_lua(lua, &h.budget, h.limits.memory, || {
                // SAFETY: `push_params` leaves exactly the table on the stack and, as the kernel's
                // work, raises no error short of the process running out of memory.
                unsafe {
                    lua.exec_raw::<Value>((), |l| crate::script::api::fields::push_params(l, p))
                }
            })
        }
        None => Ok(Value::Nil),
    }
}

impl<'a> Ctx<'a> {
    /// The ctx of a hook of `module` called through `kernel`: no intents to collect, no spell, no
    /// reward (callers that have one set it with struct update syntax).
    pub(super) fn hook(
        view: View<'a>,
        kernel: &'a ScriptHooks<'a>,
        module: &Module,
        params: Value,
    ) -> Self {
        Ctx {
            view,
            game_id: kernel.core.id,
            rules: &kernel.core.rules,
            rules_json: &kernel.core.rules_json,
            rule_constants: &kernel.core.rule_constants,
            intents: None,
            source: module.label.clone(),
            params,
            spell: None,
            kernel: Some(kernel),
            reward: None,
            views: Default::default(),
            reacting: None,
            asked: Default::default(),
        }
    }
}

impl Ctx<'_> {
    /// The rosters this ctx reads: the kernel's, or a spell's in its `cast`.
    pub(super) fn rosters(&self) -> Option<&crate::roster::Rosters> {
        match (&self.kernel, &self.spell) {
            (Some(k), _) => Some(k.rosters()),
            (None, Some(sp)) => Some(sp.rosters),
            (None, None) => None,
        }
    }

    pub(super) fn game(&self) -> &Game {
        match &self.view {
            View::Read(g) => g,
            View::Act(g) => g,
        }
    }

    /// Queue a change; an error in a read-only hook, or past [`MAX_CHANGES`] in one call.
    pub(super) fn ask(&self, lua: &Lua, intent: Intent) -> mlua::Result<()> {
        match self.intents {
            Some(list) => {
                self.asked.change(lua, method_of(&intent))?;
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
    pub(super) fn reward(&self, lua: &Lua, what: &str, r: Reward) -> mlua::Result<()> {
        match &self.reward {
            Some(rc) => {
                self.asked.change(lua, what)?;
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
pub(super) fn positive(lua: &Lua, what: &str, n: i64) -> mlua::Result<u32> {
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

/// The model a table stands for, by its `id`: a snapshot, or a view of this game's hook call. A view
/// made in another game (kept in a module's state) is refused rather than read by id in this one.
pub(super) fn id_of(t: &Table) -> mlua::Result<ModelId> {
    id_in(t).map_err(mlua::Error::runtime)
}

/// [`id_of`], its error in words.
fn id_in(t: &Table) -> Result<ModelId, String> {
    let key = Value::LightUserData(mlua::LightUserData(super::view_key()));
    let id = t.raw_get::<Value>("id").map_err(|e| e.to_string())?;
    if let Ok(Some(serial)) = t.raw_get::<Option<i64>>(key) {
        let current = super::handle::current_game();
        if current != 0 && super::game_of_serial(serial) != current {
            return Err(format!(
                "a view of model {} from another game (a view belongs to the game that made it: keep \
                 ids or names between games, not views)",
                crate::script::api::answer::describe(&crate::script::api::answer::plain_leaf(&id))
            ));
        }
    }
    match id {
        Value::Integer(i) if i > 0 && i <= i64::from(u32::MAX) => Ok(ModelId(i as u32)),
        Value::Number(n) if n.fract() == 0.0 && n > 0.0 && n <= f64::from(u32::MAX) => {
            Ok(ModelId(n as u32))
        }
        other => Err(format!(
            "a table whose id = {} (expected a model's view or snapshot)",
            crate::script::api::answer::describe(&crate::script::api::answer::plain_leaf(&other))
        )),
    }
}

/// A model argument of a `ctx` method: a snapshot (or any table with `id`), a view of this game, or a
/// model id. A view of another game is refused ([`id_of`]); the C fast paths in front of the measuring
/// queries read ids without that check (it cost 1% of a game), so only these methods refuse one.
pub(super) fn model_id(lua: &Lua, v: &Value) -> mlua::Result<ModelId> {
    match v {
        Value::Table(t) => id_in(t).map_err(|e| fail(lua, e)),
        Value::Integer(i) if *i > 0 => Ok(ModelId(*i as u32)),
        other => Err(fail(
            lua,
            format!("expected a model snapshot or id, got {}", other.type_name()),
        )),
    }
}

impl SpellCtx<'_> {
    /// A kernel refusal inside a spell primitive: remembered (the first one) so the cast can be reported
    /// as the rules' refusal, and raised at the script's line.
    pub(super) fn refuse(&self, lua: &Lua, e: RuleError) -> mlua::Error {
        if !matches!(e, RuleError::Hook(_)) && self.refused.borrow().is_none() {
            *self.refused.borrow_mut() = Some(e.clone());
        }
        spell_err(lua, e)
    }
}

/// A kernel error raised inside a spell primitive, located at the script's line (a hook error already
/// names its own file:line).
pub(super) fn spell_err(lua: &Lua, e: RuleError) -> mlua::Error {
    match e {
        RuleError::Hook(h) => mlua::Error::runtime(h.message),
        other => fail(lua, other),
    }
}

impl<'a> Ctx<'a> {
    /// The game to change and the casting, or an error outside a spell's `cast`.
    pub(super) fn casting(
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
