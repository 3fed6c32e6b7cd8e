//! Casting a spell through its script (§3.7), shared by `g:cast` (a rules primitive for scenarios) and
//! the turn engine's cast order ([`Hooks::cast_spell`]): the spell's roster entry and script, the
//! kernel's checks (the spell known, Power and range, sight, not Engaged, not out of power, magic allowed),
//! a Ritual's Task, the `spell` event, then the script's `cast` with a ctx whose primitives act at once.
//! A cast that fails leaves the game exactly as it was (its dice and log included), and says whether the
//! rules refused it or the script failed.

use super::*;
use crate::roster::SpellKind;
use crate::rules::hooks::{CastOrder, CastReport};

/// Why a cast did not happen. Nothing changed either way.
pub(crate) enum CastFailure {
    /// The rules refused it (out of range, not the closest target, out of power...).
    Refused(RuleError),
    /// The spell's script failed: its message, with file:line, and the rules' refusal when a primitive
    /// the script called refused (the turn engine treats that as a refused order, not a broken script).
    Script {
        message: String,
        refused: Option<RuleError>,
    },
}

/// What a cast asks for: who casts which spell at what Power, at what target, with what options
/// (`opts` as the script's `cast` receives them).
pub(crate) struct CastCall<'a> {
    pub caster: ModelId,
    pub spell: &'a str,
    pub power: u8,
    pub target: Option<ModelId>,
    pub opts: Value,
}

/// Cast `call.spell` through its script on `game`: the report, and what the script's `cast` returned
/// (nil while a Ritual's Task is unfinished).
pub(crate) fn cast_spell(
    lua: &Lua,
    core: &Rc<Core>,
    registry: Rc<Registry>,
    game: &mut Game,
    call: CastCall,
) -> Result<(CastReport, Value), CastFailure> {
    let refuse = |why: String| CastFailure::Refused(RuleError::Magic(why));
    let spell = call.spell;
    let entry = core
        .rosters
        .spell(spell)
        .ok_or_else(|| refuse(format!("no spell called {spell:?} in the rosters")))?;
    let key = entry.script.as_deref().ok_or_else(|| {
        refuse(format!(
            "{spell} has no script (set `script` in rosters/spells.toml)"
        ))
    })?;
    let module = registry.get(key).ok_or_else(|| {
        refuse(format!(
            "{spell}'s script {key} is not loaded (see the reload errors)"
        ))
    })?;
    let f = module
        .function("cast")
        .ok_or_else(|| refuse(format!("{} has no `cast` function", module.label)))?;
    let source = module.label.clone();
    let rosters = core.rosters_with_rules();
    magic::check_cast(
        game,
        &core.rules,
        call.caster,
        spell,
        call.power,
        call.target,
    )
    .map_err(CastFailure::Refused)?;
    let hooks = ScriptHooks::new(lua, core, registry.clone());
    magic::may_cast(game, &hooks, call.caster).map_err(CastFailure::Refused)?;
    let before = game.checkpoint();
    let mut report = CastReport {
        spell: spell.to_string(),
        power: call.power,
        source: source.clone(),
        task: None,
        complete: true,
    };
    if entry.is(SpellKind::Ritual) {
        let t = magic::work_ritual(game, rosters, call.caster, spell, call.power)
            .map_err(CastFailure::Refused)?;
        report.task = Some((t.done, t.needed));
        if t.done < t.needed {
            report.complete = false;
            return Ok((report, Value::Nil));
        }
    }
    magic::log_cast(
        game,
        call.caster,
        spell,
        call.power,
        call.target,
        Some(&source),
    );
    let casting = magic::Casting {
        caster: call.caster,
        spell,
        power: call.power,
    };
    let refused = std::cell::RefCell::new(None);
    let ran = run_spell(
        lua,
        core,
        rosters,
        registry.clone(),
        game,
        f,
        &source,
        &entry.params,
        casting,
        call.target,
        call.opts,
        &refused,
    );
    match ran {
        Ok(v) => Ok((report, v)),
        Err(e) => {
            game.restore(before);
            Err(CastFailure::Script {
                message: format!("{spell} failed: {}", e.headline()),
                refused: refused.into_inner(),
            })
        }
    }
}

/// The `opts` a spell script's `cast` receives for a cast order: `what`, `from`, `to`, `at`.
pub(super) fn order_opts(lua: &Lua, order: &CastOrder) -> mlua::Result<Value> {
    let t = lua.create_table()?;
    if let Some(w) = &order.what {
        t.raw_set("what", w.as_str())?;
    }
    for (key, p) in [("from", order.from), ("to", order.to), ("at", order.at)] {
        if let Some(p) = p {
            t.raw_set(key, crate::script::api::convert::pos_table(lua, p)?)?;
        }
    }
    Ok(Value::Table(t))
}

impl ScriptHooks<'_> {
    /// The turn engine's cast order, through the spell's script ([`cast_spell`]).
    pub(super) fn cast_order(
        &self,
        game: &mut Game,
        caster: ModelId,
        order: &CastOrder,
    ) -> Result<CastReport, RuleError> {
        let opts = order_opts(self.lua, order).map_err(|e| RuleError::Hook(hook_err(e)))?;
        let call = CastCall {
            caster,
            spell: &order.spell,
            power: order.power,
            target: order.target,
            opts,
        };
        match cast_spell(self.lua, self.core, self.registry.clone(), game, call) {
            Ok((report, _)) => Ok(report),
            Err(CastFailure::Refused(e))
            | Err(CastFailure::Script {
                refused: Some(e), ..
            }) => Err(e),
            Err(CastFailure::Script { message, .. }) => Err(RuleError::Hook(HookError { message })),
        }
    }
}
