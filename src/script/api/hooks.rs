//! The kernel's hook points answered by Lua modules: which modules apply to a model (its traits', its
//! signature's or Alpha Rule's, and the game's variants), the read-only `ctx` they receive, and turning
//! what they return into validated modifiers that name their source file.

use super::game::Core;
use super::handles::{building_snapshot, model_snapshot};
use super::spec;
use crate::roster::Rules;
use crate::rules::hooks::{Hooks, Modifier, Role, RollInfo, Target};
use crate::rules::HookError;
use crate::script::host::{host, with_budget};
use crate::script::registry::{Module, Registry};
use crate::state::{Game, Model, ModelId, Side};
use mlua::{Lua, Table, UserData, UserDataFields, UserDataMethods, Value};
use std::rc::Rc;

/// The script side of [`Hooks`] for one call into the kernel.
pub struct ScriptHooks<'a> {
    lua: &'a Lua,
    core: &'a Core,
    registry: Rc<Registry>,
}

impl<'a> ScriptHooks<'a> {
    pub fn new(lua: &'a Lua, core: &'a Core, registry: Rc<Registry>) -> Self {
        ScriptHooks {
            lua,
            core,
            registry,
        }
    }

    /// The modules that act for a model, in a stable order: its traits' scripts (in profile order), its
    /// signature or Alpha Rule, then the game's variants.
    fn modules_for(&self, m: &Model) -> Vec<&Module> {
        let r = &self.core.rosters;
        let mut keys: Vec<&str> = m
            .traits
            .iter()
            .filter_map(|t| r.trait_named(t).and_then(|t| t.script.as_deref()))
            .collect();
        if let Some(p) = r.profile(&m.name) {
            for ability in [&p.signature, &p.alpha].into_iter().flatten() {
                if let Some(s) = ability.script.as_deref() {
                    keys.push(s);
                }
            }
        }
        let mut mods: Vec<&Module> = keys.iter().filter_map(|k| self.registry.get(k)).collect();
        mods.extend(
            self.core
                .variants
                .iter()
                .filter_map(|v| self.registry.variant(v)),
        );
        mods
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
        let budget = host(self.lua)
            .map(|h| h.limits.hook_instructions)
            .map_err(|e| HookError {
                message: e.to_string(),
            })?;
        let mut out = Vec::new();
        for (role, id) in [
            (Role::Attacker, Some(roll.attacker)),
            (Role::Defender, target_model),
        ] {
            let Some(id) = id else { continue };
            let Ok(me) = game.model(id) else { continue };
            for module in self.modules_for(me) {
                let Some(f) = module.function(&entry) else {
                    continue;
                };
                let lua = self.lua;
                let rules = &self.core.rules;
                let returned: Value = with_budget(lua, budget, || {
                    lua.scope(|scope| {
                        let ctx = scope.create_userdata(Ctx { game, rules })?;
                        let me_t = model_snapshot(lua, game, rules, me)?;
                        let roll_t = roll_table(lua, game, rules, roll, role)?;
                        f.call::<Value>((ctx, me_t, roll_t))
                    })
                })
                .map_err(|e| HookError {
                    message: e.to_string(),
                })?;
                parse_modifiers(&returned, role, module, &entry, &mut out)?;
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

/// The read-only view of the game a hook receives as `ctx`. It lives only for the call.
struct Ctx<'a> {
    game: &'a Game,
    rules: &'a Rules,
}

/// The name of a `Ctx` member, as `spec` describes it (a name it does not describe panics).
fn api(member: &str) -> &'static str {
    spec::member("Ctx", member)
}

impl UserData for Ctx<'_> {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get(api("round"), |_, this| Ok(this.game.round));
        fields.add_field_method_get(api("wave"), |_, this| Ok(this.game.wave));
        fields.add_field_method_get(api("supplies"), |_, this| Ok(this.game.supplies));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(api("model"), |lua, this, id: u32| {
            match this.game.model(ModelId(id)) {
                Ok(m) => Ok(Some(model_snapshot(lua, this.game, this.rules, m)?)),
                Err(_) => Ok(None),
            }
        });
        methods.add_method(api("models"), |lua, this, opts: Option<Table>| {
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
            for m in this
                .game
                .models
                .iter()
                .filter(|m| want.is_none_or(|s| m.side == s))
            {
                v.push(model_snapshot(lua, this.game, this.rules, m)?);
            }
            Ok(v)
        });
        methods.add_method(api("building"), |lua, this, name: String| {
            match this.game.building(&name) {
                Ok(b) => Ok(Some(building_snapshot(lua, b)?)),
                Err(_) => Ok(None),
            }
        });
        methods.add_method(api("distance"), |_, this, (a, b): (Table, Table)| {
            let id = |t: &Table| -> mlua::Result<ModelId> { Ok(ModelId(t.raw_get::<u32>("id")?)) };
            let (a, b) = (
                this.game.model(id(&a)?).map_err(mlua::Error::external)?,
                this.game.model(id(&b)?).map_err(mlua::Error::external)?,
            );
            Ok(crate::geometry::circle_circle_gap(&a.circle(), &b.circle()).max(0.0))
        });
        methods.add_method(
            api("rule"),
            |lua, this, (section, key): (String, String)| {
                let all = serde_json::to_value(this.rules).map_err(mlua::Error::external)?;
                let v = all.get(&section).and_then(|s| s.get(&key)).ok_or_else(|| {
                    mlua::Error::runtime(format!("no rule constant {section}.{key}"))
                })?;
                super::convert::to_lua(lua, v)
            },
        );
    }
}
