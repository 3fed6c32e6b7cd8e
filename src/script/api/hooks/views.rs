//! Read-only views: how hooks see models and buildings. A view is a small table holding only its
//! identity (`id` for a model, `name` for a building); every other field is read from the game the first
//! time a script asks for it and kept in the table, so a field costs something only when it is read
//! (a policy that looks at three fields of twenty enemies pays for sixty values, not eight hundred).
//!
//! A view belongs to the hook call that made it: its metatable holds that call's `ctx`. Read after the
//! call returned, a field it has not yet read is a clear error, never a read of whatever game the VM plays
//! now. Before a `ctx` method that changes the game (a spell's primitives), every view of the call is
//! filled in, so a view keeps showing the table as it was when it was handed out, as snapshots did.

use super::*;
use crate::script::api::handles::{building_field, model_field, BUILDING_FIELDS, MODEL_FIELDS};
use crate::script::host::{host, kernel_lua};
use crate::state::Building;
use mlua::AnyUserData;

/// The VM's view functions, made once: the maker of a call's metatable and the shared methods.
struct ViewKit {
    /// The views' `__index`: a method (`has`, `has_trait`), or the field read through the view's
    /// call's `ctx` (`getmetatable(view).ctx`) and kept.
    index: mlua::Function,
    /// The views' `__pairs`: every field filled in, then the table's own entries.
    pairs: mlua::Function,
    core: Rc<KitCore>,
}

/// What the kernel's view code needs on every view and field: the VM's budget and memory limit (to
/// work as the kernel, `host::kernel_lua`) and the keys it sets, made once as Lua strings.
struct KitCore {
    budget: Rc<crate::script::host::Budget>,
    memory: usize,
    id: mlua::LuaString,
    name: mlua::LuaString,
    view: mlua::LuaString,
    ctx: mlua::LuaString,
    index: mlua::LuaString,
    pairs: mlua::LuaString,
}

impl KitCore {
    /// Run `f` as the kernel's own work.
    fn kernel<R>(&self, lua: &Lua, f: impl FnOnce() -> R) -> R {
        kernel_lua(lua, &self.budget, self.memory, f)
    }
}

/// The Lua side of views, shared by every call: a call's metatable (made in Rust, `view = true`) holds
/// its `ctx`; a field not yet read is asked of Rust with `fill(ctx, view, key)` and kept; `pairs`
/// lists every field after `fill_all(ctx, view)`; `has` and `has_trait` read the view's own
/// `conditions` and `traits`, so they answer as the view's fields do. The functions it uses are the
/// standard library's, taken when the VM is built, before any script runs.
const VIEW_LUA: &str = r#"
local fill, fill_all, next, ipairs, getmetatable = ...
local methods = {}
function methods.has(self, condition)
  for _, c in ipairs(self.conditions) do
    if c == condition then
      return true
    end
  end
  return false
end
function methods.has_trait(self, name)
  for _, t in ipairs(self.traits) do
    if t == name then
      return true
    end
  end
  return false
end
local function index(t, k)
  local m = methods[k]
  if m ~= nil then
    return m
  end
  return fill(getmetatable(t).ctx, t, k)
end
local function list(t)
  fill_all(getmetatable(t).ctx, t)
  return next, t, nil
end
return index, list
"#;

/// Build the VM's view kit now, while the standard library is as the sandbox made it.
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    kit(lua).map(|_| ())
}

/// The kit of this VM, made on first use.
fn kit(lua: &Lua) -> mlua::Result<mlua::AppDataRef<'_, ViewKit>> {
    if let Some(k) = lua.app_data_ref::<ViewKit>() {
        return Ok(k);
    }
    let host = host(lua)?;
    let core = Rc::new(KitCore {
        budget: host.budget.clone(),
        memory: host.limits.memory,
        id: lua.create_string("id")?,
        name: lua.create_string("name")?,
        view: lua.create_string("view")?,
        ctx: lua.create_string("ctx")?,
        index: lua.create_string("__index")?,
        pairs: lua.create_string("__pairs")?,
    });
    let fill_core = core.clone();
    let fill = lua.create_function(move |lua, (ctx, t, k): (AnyUserData, Table, Value)| {
        let Value::String(key) = k else {
            return Ok(Value::Nil);
        };
        let handle = borrow_live(lua, &ctx, &t)?;
        fill_core.kernel(lua, || {
            let v = field_of(lua, &handle, &fill_core, &t, &key.to_str()?)?;
            if !v.is_nil() {
                t.raw_set(key, v.clone())?;
            }
            Ok(v)
        })
    })?;
    let all_core = core.clone();
    let fill_all = lua.create_function(move |lua, (ctx, t): (AnyUserData, Table)| {
        let handle = borrow_live(lua, &ctx, &t)?;
        all_core.kernel(lua, || fill_every(lua, &handle, &all_core, &t))
    })?;
    let g = lua.globals();
    let (index, pairs) =
        lua.load(VIEW_LUA)
            .set_name("=village.view")
            .call::<(mlua::Function, mlua::Function)>((
                fill,
                fill_all,
                g.raw_get::<mlua::Function>("next")?,
                g.raw_get::<mlua::Function>("ipairs")?,
                g.raw_get::<mlua::Function>("getmetatable")?,
            ))?;
    lua.set_app_data(ViewKit { index, pairs, core });
    lua.app_data_ref::<ViewKit>()
        .ok_or_else(|| mlua::Error::runtime("the view kit was not kept"))
}

/// The view's call's ctx, or a clear error once that call has returned.
fn borrow_live(
    lua: &Lua,
    ctx: &AnyUserData,
    t: &Table,
) -> mlua::Result<mlua::UserDataRef<CtxHandle>> {
    ctx.borrow::<CtxHandle>().map_err(|e| {
        let what = match t.raw_get::<Option<u32>>("id") {
            Ok(Some(id)) => format!("a view of model {id}"),
            _ => match t.raw_get::<Option<String>>("name") {
                Ok(Some(name)) => format!("a view of the {name}"),
                _ => "a view".to_string(),
            },
        };
        match e {
            mlua::Error::UserDataDestructed => fail(
                lua,
                format!(
                    "{what} was read after the hook call that handed it out had returned (views \
                     live for their call: keep ids or names between calls, not views)"
                ),
            ),
            _ => fail(
                lua,
                format!("{what} was read while its call's ctx was changing the game"),
            ),
        }
    })
}

/// What a view shows: a model (by `id`) or a building (by `name`) of the ctx's game.
enum Shown<'a> {
    Model(&'a Model),
    Building(&'a Building),
}

/// What `t` shows, or the error of a model that left the table (or a building that is not there).
fn shown<'a>(lua: &Lua, ctx: &'a Ctx<'_>, core: &KitCore, t: &Table) -> mlua::Result<Shown<'a>> {
    let game = ctx.game();
    if let Some(id) = t.raw_get::<Option<u32>>(&core.id)? {
        return Ok(Shown::Model(
            game.model(ModelId(id)).map_err(|e| fail(lua, e))?,
        ));
    }
    let name: mlua::LuaString = t.raw_get(&core.name)?;
    Ok(Shown::Building(
        game.building(&name.to_str()?).map_err(|e| fail(lua, e))?,
    ))
}

/// One field of what the view `t` shows.
fn field_of(lua: &Lua, ctx: &Ctx<'_>, core: &KitCore, t: &Table, key: &str) -> mlua::Result<Value> {
    field(lua, ctx, &shown(lua, ctx, core, t)?, key)
}

/// One field of what a view shows.
fn field(lua: &Lua, ctx: &Ctx<'_>, shown: &Shown<'_>, key: &str) -> mlua::Result<Value> {
    match shown {
        Shown::Model(m) => model_field(lua, ctx.game(), ctx.rules, m, key),
        Shown::Building(b) => building_field(lua, b, key),
    }
}

/// Fill every field of a view that it has not read yet (`pairs`, and before the game changes: a view
/// of a model no longer on the table is left as it is).
fn fill_every(lua: &Lua, ctx: &Ctx<'_>, core: &KitCore, t: &Table) -> mlua::Result<()> {
    let Ok(what) = shown(lua, ctx, core, t) else {
        return Ok(());
    };
    let fields = match what {
        Shown::Model(_) => MODEL_FIELDS,
        Shown::Building(_) => BUILDING_FIELDS,
    };
    for key in fields {
        if t.raw_get::<Value>(*key)?.is_nil() {
            let v = field(lua, ctx, &what, key)?;
            if !v.is_nil() {
                t.raw_set(*key, v)?;
            }
        }
    }
    Ok(())
}

impl Ctx<'_> {
    /// This call's view metatable, made with the call's first view: `view = true`, the call's `ctx`,
    /// and the shared `__index` and `__pairs`.
    fn view_metatable(&self, lua: &Lua, kit: &ViewKit) -> mlua::Result<Table> {
        if let Some(mt) = self.views.metatable.borrow().as_ref() {
            return Ok(mt.clone());
        }
        let handle = self
            .views
            .handle
            .get()
            .ok_or_else(|| mlua::Error::runtime("a view was asked for outside a hook call"))?;
        let k = &kit.core;
        let mt = lua.create_table_with_capacity(0, 4)?;
        mt.raw_set(&k.view, true)?;
        mt.raw_set(&k.ctx, handle.clone())?;
        mt.raw_set(&k.index, kit.index.clone())?;
        mt.raw_set(&k.pairs, kit.pairs.clone())?;
        *self.views.metatable.borrow_mut() = Some(mt.clone());
        Ok(mt)
    }

    /// A new view table holding its identity (`id` for a model, else `name`) with this call's metatable.
    fn new_view(&self, lua: &Lua, model: bool, value: Value) -> mlua::Result<Table> {
        let kit = kit(lua)?;
        let core = &kit.core;
        core.kernel(lua, || {
            let mt = self.view_metatable(lua, &kit)?;
            let t = lua.create_table_with_capacity(0, 4)?;
            t.raw_set(if model { &core.id } else { &core.name }, value)?;
            t.set_metatable(Some(mt))?;
            Ok(t)
        })
    }

    /// The view of model `m` of this ctx's game: the one already handed out in this call if the game
    /// has not changed since.
    pub(super) fn model_view(&self, lua: &Lua, m: &Model) -> mlua::Result<Table> {
        if let Some((_, t)) = self
            .views
            .models
            .borrow()
            .iter()
            .find(|(id, _)| *id == m.id)
        {
            return Ok(t.clone());
        }
        let t = self.new_view(lua, true, Value::Integer(i64::from(m.id.0)))?;
        self.views.models.borrow_mut().push((m.id, t.clone()));
        Ok(t)
    }

    /// The view of the model `id`, or nil when it is not on the table.
    pub(super) fn model_view_of(&self, lua: &Lua, id: ModelId) -> mlua::Result<Value> {
        match self.game().model(id) {
            Ok(m) => Ok(Value::Table(self.model_view(lua, m)?)),
            Err(_) => Ok(Value::Nil),
        }
    }

    /// Views of the models `ids` still on the table, as an array in that order.
    pub(super) fn model_views(&self, lua: &Lua, ids: &[ModelId]) -> mlua::Result<Value> {
        let t = lua.create_table_with_capacity(ids.len(), 0)?;
        for id in ids {
            if let Ok(m) = self.game().model(*id) {
                t.raw_push(self.model_view(lua, m)?)?;
            }
        }
        Ok(Value::Table(t))
    }

    /// The view of the building at `index` in this ctx's game, the one already handed out in this call
    /// if the game has not changed since.
    pub(super) fn building_view(&self, lua: &Lua, index: usize) -> mlua::Result<Option<Table>> {
        if let Some((_, t)) = self
            .views
            .buildings
            .borrow()
            .iter()
            .find(|(i, _)| *i == index)
        {
            return Ok(Some(t.clone()));
        }
        let Some(b) = self.game().buildings.get(index) else {
            return Ok(None);
        };
        let name = Value::String(lua.create_string(&b.name)?);
        let t = self.new_view(lua, false, name)?;
        self.views.buildings.borrow_mut().push((index, t.clone()));
        Ok(Some(t))
    }

    /// The view of the building called `name`, or nil when there is none.
    pub(super) fn building_view_named(&self, lua: &Lua, name: &str) -> mlua::Result<Value> {
        match self.game().buildings.iter().position(|b| b.name == name) {
            Some(i) => Ok(self.building_view(lua, i)?.map_or(Value::Nil, Value::Table)),
            None => Ok(Value::Nil),
        }
    }

    /// Fill in every view handed out so far in this call, before something changes the game: what a
    /// script already holds keeps showing the table as it was. The memo is emptied afterwards (by
    /// `CtxHandle::deref_mut`), so views asked for after the change show the new state.
    pub(super) fn fill_views(&self, lua: &Lua) -> mlua::Result<()> {
        let views: Vec<Table> = self
            .views
            .models
            .borrow()
            .iter()
            .map(|(_, t)| t.clone())
            .chain(self.views.buildings.borrow().iter().map(|(_, t)| t.clone()))
            .collect();
        let core = kit(lua)?.core.clone();
        for t in views {
            fill_every(lua, self, &core, &t)?;
        }
        Ok(())
    }

    /// A value another call handed out, as this call sees it: a view of another call (a `targets`
    /// list asked for on this call's behalf) becomes this call's view of the same model or building;
    /// anything else is kept as it is.
    pub(super) fn adopt(&self, lua: &Lua, v: Value) -> mlua::Result<Value> {
        let Value::Table(t) = &v else {
            return Ok(v);
        };
        // The call that made it may be over (its ctx destroyed): a view is known by its metatable.
        let is_view = t
            .metatable()
            .and_then(|mt| mt.raw_get::<Option<bool>>("view").ok().flatten())
            .unwrap_or(false);
        if !is_view {
            return Ok(v);
        }
        if let Some(id) = t.raw_get::<Option<u32>>("id")? {
            return self.model_view_of(lua, ModelId(id));
        }
        match t.raw_get::<Option<String>>("name")? {
            Some(name) => self.building_view_named(lua, &name),
            None => Ok(v),
        }
    }
}
