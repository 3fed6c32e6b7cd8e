//! Entities as ID handles (DESIGN.md invariant 3): a model or building handle holds only its id and the
//! game it belongs to, and is resolved on every use, so a stale handle is a clear error.
//!
//! The same field names serve the live handles of the API and the read-only snapshots hooks receive.

use super::convert::{fail, pos_table, to_lua};
use super::game::Core;
use super::spec;
use crate::geometry::Vec2;
use crate::roster::Rules;
use crate::rules::query::is_engaged;
use crate::script::host::{host, kernel_lua, Budget};
use crate::state::{Building, EventKind, Game, Model, ModelId};
use mlua::{Lua, MetaMethod, Table, UserData, UserDataFields, UserDataMethods, Value};
use std::rc::Rc;

// The field lists live in the spec, so the handles, the snapshots and the stubs name the same fields.
pub use super::spec::{BUILDING_FIELDS, MODEL_FIELDS};

/// One field of a model on the table.
pub fn model_field(
    lua: &Lua,
    game: &Game,
    rules: &Rules,
    m: &Model,
    key: &str,
) -> mlua::Result<Value> {
    Ok(match key {
        "id" => Value::Integer(i64::from(m.id.0)),
        "name" => Value::String(lua.create_string(&m.name)?),
        "kind" => to_lua(lua, &m.kind)?,
        "tier" => to_lua(lua, &m.tier)?,
        "side" => Value::String(lua.create_string(m.side.as_str())?),
        "quality" => Value::Integer(i64::from(m.quality)),
        "combat" => Value::Integer(i64::from(m.combat)),
        "pos" => Value::Table(pos_table(lua, m.pos)?),
        "base" => Value::Number(m.base),
        "wounds" => Value::Integer(i64::from(m.wounds)),
        "conditions" => {
            Value::Table(lua.create_sequence_from(m.conditions.iter().map(|c| c.as_str()))?)
        }
        "traits" => Value::Table(lua.create_sequence_from(m.all_traits())?),
        "weapon" => match &m.weapon {
            Some(w) => Value::String(lua.create_string(w)?),
            None => Value::Nil,
        },
        "spells" => Value::Table(lua.create_sequence_from(m.spells.iter().map(String::as_str))?),
        "group" => m.group.map_or(Value::Nil, |g| Value::Integer(i64::from(g))),
        "active" => Value::Boolean(m.active),
        "engaged" => Value::Boolean(is_engaged(game, rules, m.id)),
        "defeated" => Value::Boolean(false),
        "weapon_broken" => Value::Boolean(m.weapon_broken),
        "charged" => Value::Boolean(m.charged),
        "moved" => Value::Number(m.moved),
        "attacks" => Value::Integer(i64::from(m.attacks)),
        "activations" => Value::Integer(i64::from(m.activations)),
        "declared" => Value::Boolean(m.declared),
        "casts" => Value::Integer(i64::from(m.casts)),
        "out_of_power" => Value::Boolean(m.out_of_power),
        "task" => match &m.task {
            Some(t) => Value::String(lua.create_string(&t.name)?),
            None => Value::Nil,
        },
        "actions_left" => Value::Integer(i64::from(m.actions_left)),
        "wrecked" => match &m.wrecked {
            Some(b) => Value::String(lua.create_string(b)?),
            None => Value::Nil,
        },
        "behaviour" => match &m.behaviour {
            Some(b) => Value::String(lua.create_string(b)?),
            None => Value::Nil,
        },
        "items" => Value::Table(lua.create_sequence_from(m.items.iter().map(|i| i.name.as_str()))?),
        _ => Value::Nil,
    })
}

/// One field of a building.
pub fn building_field(lua: &Lua, b: &Building, key: &str) -> mlua::Result<Value> {
    Ok(match key {
        "name" => Value::String(lua.create_string(&b.name)?),
        "integrity" => Value::Integer(i64::from(b.integrity)),
        "max_integrity" => Value::Integer(i64::from(b.max_integrity)),
        "level" => Value::Integer(i64::from(b.level)),
        "destroyed" => Value::Boolean(b.destroyed),
        "fire" => Value::Boolean(b.fire),
        "town_hall" => Value::Boolean(b.town_hall),
        "economic" => Value::Boolean(b.economic),
        "pos" => Value::Table(pos_table(lua, b.rect.center())?),
        "size" => {
            let s = b.rect.size();
            let t = lua.create_table()?;
            t.raw_set("w", s.x)?;
            t.raw_set("h", s.y)?;
            Value::Table(t)
        }
        _ => Value::Nil,
    })
}

/// The shared metatable of snapshots: `m:has_trait("Hero")`, `m:has("defenseless")`.
fn snapshot_metatable(lua: &Lua) -> mlua::Result<Table> {
    if let Ok(Value::Table(t)) = lua.named_registry_value::<Value>("village.snapshot_mt") {
        return Ok(t);
    }
    let methods: Table = lua
        .load(
            r#"
            local M = {}
            function M.has_trait(self, name)
              for _, t in ipairs(self.traits or {}) do if t == name then return true end end
              return false
            end
            function M.has(self, condition)
              for _, c in ipairs(self.conditions or {}) do if c == condition then return true end end
              return false
            end
            return M
            "#,
        )
        .set_name("=village.snapshot")
        .eval()?;
    let mt = lua.create_table()?;
    mt.raw_set("__index", methods)?;
    lua.set_named_registry_value("village.snapshot_mt", &mt)?;
    Ok(mt)
}

/// Fields whose value is a table of two numbers, given to a snapshot maker as the two numbers.
const PAIRS: &[(&str, [&str; 2])] = &[("pos", ["x", "y"]), ("size", ["w", "h"])];

/// The Lua source of a function that builds a snapshot from `fields` given in order (a pair field as
/// its two numbers): `function(id, name, pos_x, pos_y, ...) return { id = id, ... } end`.
fn maker_source(fields: &[&str]) -> String {
    let mut params = Vec::new();
    let mut entries = Vec::new();
    for f in fields {
        match PAIRS.iter().find(|(name, _)| name == f) {
            Some((_, [a, b])) => {
                params.push(format!("{f}_{a}, {f}_{b}"));
                entries.push(format!("{f} = {{ {a} = {f}_{a}, {b} = {f}_{b} }}"));
            }
            None => {
                params.push(f.to_string());
                entries.push(format!("{f} = {f}"));
            }
        }
    }
    format!(
        "return function({}) return {{ {} }} end",
        params.join(", "),
        entries.join(", ")
    )
}

/// The Lua functions that build model and building snapshots, and the model snapshots' metatable; one
/// set per VM. Hooks receive thousands of snapshots a game: a table built by one Lua call costs a
/// fraction of one protected `rawset` (and key string) per field from Rust.
struct SnapshotMakers {
    model: mlua::Function,
    building: mlua::Function,
    metatable: Table,
    budget: Rc<Budget>,
    /// The VM's memory limit, restored after a snapshot is built.
    memory: usize,
}

/// The VM's snapshot makers, made on first use; borrowed, not copied, on the hot path.
fn makers(lua: &Lua) -> mlua::Result<mlua::AppDataRef<'_, SnapshotMakers>> {
    if let Some(m) = lua.app_data_ref::<SnapshotMakers>() {
        return Ok(m);
    }
    let host = host(lua)?;
    let (budget, memory) = (host.budget.clone(), host.limits.memory);
    let load = |fields: &[&str], name: &str| -> mlua::Result<mlua::Function> {
        kernel_lua(lua, &budget, memory, || {
            lua.load(maker_source(fields))
                .set_name(format!("=village.{name}_snapshot"))
                .eval()
        })
    };
    let makers = SnapshotMakers {
        model: load(MODEL_FIELDS, "model")?,
        building: load(BUILDING_FIELDS, "building")?,
        metatable: snapshot_metatable(lua)?,
        budget,
        memory,
    };
    lua.set_app_data(makers);
    lua.app_data_ref::<SnapshotMakers>()
        .ok_or_else(|| mlua::Error::runtime("the snapshot makers were not kept"))
}

/// One argument of a snapshot maker: a field's value, or the two numbers of a [`PAIRS`] field.
enum Arg {
    Value(Value),
    Pair(Vec2),
}

/// Call `maker` with the values `arg` gives for `fields`, in order, as the kernel's own Lua.
fn make_snapshot(
    lua: &Lua,
    makers: &SnapshotMakers,
    maker: &mlua::Function,
    fields: &[&str],
    arg: impl Fn(&str) -> mlua::Result<Arg>,
) -> mlua::Result<Table> {
    kernel_lua(lua, &makers.budget, makers.memory, || {
        let mut values = mlua::MultiValue::with_capacity(fields.len() + PAIRS.len());
        for key in fields {
            match arg(key)? {
                Arg::Value(v) => values.push_back(v),
                Arg::Pair(p) => {
                    values.push_back(Value::Number(p.x));
                    values.push_back(Value::Number(p.y));
                }
            }
        }
        maker.call(values)
    })
}

/// A read-only snapshot of a model as a plain table (what hooks receive).
pub fn model_snapshot(lua: &Lua, game: &Game, rules: &Rules, m: &Model) -> mlua::Result<Table> {
    let makers = makers(lua)?;
    let t = make_snapshot(lua, &makers, &makers.model, MODEL_FIELDS, |key| {
        Ok(match key {
            "pos" => Arg::Pair(m.pos),
            _ => Arg::Value(model_field(lua, game, rules, m, key)?),
        })
    })?;
    t.set_metatable(Some(makers.metatable.clone()))?;
    Ok(t)
}

/// A read-only snapshot of a building as a plain table.
pub fn building_snapshot(lua: &Lua, b: &Building) -> mlua::Result<Table> {
    let makers = makers(lua)?;
    make_snapshot(lua, &makers, &makers.building, BUILDING_FIELDS, |key| {
        Ok(match key {
            "pos" => Arg::Pair(b.rect.center()),
            "size" => Arg::Pair(b.rect.size()),
            _ => Arg::Value(building_field(lua, b, key)?),
        })
    })
}

/// A live handle to a model of a game.
#[derive(Clone)]
pub struct ModelRef {
    pub core: Rc<Core>,
    pub id: ModelId,
    /// Kept so a handle to a removed model can still say what it was.
    pub name: String,
}

impl ModelRef {
    /// Why the model left the table, if it did.
    fn removal(&self, game: &Game) -> Option<String> {
        game.log().iter().rev().find_map(|e| match &e.kind {
            EventKind::Removed { model, reason } if *model == self.id => Some(reason.clone()),
            _ => None,
        })
    }
}

/// The name of a `Model` member, as `spec` describes it (a name it does not describe panics).
fn api(member: &str) -> &'static str {
    spec::member("Model", member)
}

impl UserData for ModelRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(api("has_trait"), |lua, this, name: String| {
            let game = this.core.read(lua)?;
            let m = game.model(this.id).map_err(|e| fail(lua, e))?;
            Ok(m.has_trait(&name))
        });
        methods.add_method(api("has"), |lua, this, condition: String| {
            let game = this.core.read(lua)?;
            let m = game.model(this.id).map_err(|e| fail(lua, e))?;
            Ok(m.conditions.iter().any(|c| c.as_str() == condition))
        });
        methods.add_meta_method(MetaMethod::Index, |lua, this, key: String| {
            // The id and name live in the handle: they answer even while a rule is being resolved (a
            // spell script reading the winner of its own attack).
            match key.as_str() {
                "id" => return Ok(Value::Integer(i64::from(this.id.0))),
                "name" => return Ok(Value::String(lua.create_string(&this.name)?)),
                _ => {}
            }
            let game = this.core.read(lua)?;
            match game.model(this.id) {
                Ok(m) => model_field(lua, &game, &this.core.rules, m, &key),
                Err(e) => match key.as_str() {
                    "id" => Ok(Value::Integer(i64::from(this.id.0))),
                    "name" => Ok(Value::String(lua.create_string(&this.name)?)),
                    "defeated" => Ok(Value::Boolean(
                        // Defeated in combat or by morale; not a model that Fled, left or vanished.
                        this.removal(&game)
                            .is_some_and(|r| r == "defeated" || r == "gruesome kill"),
                    )),
                    _ => {
                        let why = this.removal(&game).unwrap_or_else(|| "removed".into());
                        Err(fail(
                            lua,
                            format!(
                                "{e} ({} {}; reading `{key}`)",
                                this.name,
                                removal_words(&why)
                            ),
                        ))
                    }
                },
            }
        });
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            Ok(format!("{} ({})", this.name, this.id))
        });
        methods.add_meta_method(
            MetaMethod::Eq,
            |_, this, other: mlua::UserDataRef<ModelRef>| {
                Ok(Rc::ptr_eq(&this.core, &other.core) && this.id == other.id)
            },
        );
    }
}

/// How a removal reason reads after a model's name.
fn removal_words(reason: &str) -> String {
    match reason {
        "defeated" => "was Defeated".to_string(),
        "fled" => "Fled".to_string(),
        "gruesome kill" => "suffered a Gruesome Kill".to_string(),
        "removed" => "was removed".to_string(),
        other => format!("was removed ({other})"),
    }
}

/// A live handle to a building of a game.
#[derive(Clone)]
pub struct BuildingRef {
    pub core: Rc<Core>,
    pub name: String,
}

impl UserData for BuildingRef {
    fn add_fields<F: UserDataFields<Self>>(_fields: &mut F) {}

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Index, |lua, this, key: String| {
            let game = this.core.read(lua)?;
            let b = game.building(&this.name).map_err(|e| fail(lua, e))?;
            building_field(lua, b, &key)
        });
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| Ok(this.name.clone()));
        methods.add_meta_method(
            MetaMethod::Eq,
            |_, this, other: mlua::UserDataRef<BuildingRef>| {
                Ok(Rc::ptr_eq(&this.core, &other.core) && this.name == other.name)
            },
        );
    }
}
