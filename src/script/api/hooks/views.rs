//! Read-only views: how hooks see models and buildings. A view is a small table holding only its
//! identity (`id` for a model, `name` for a building); every other field is read from the game the first
//! time a script asks for it and kept in the table, so a field costs something only when it is read
//! (a policy that looks at three fields of twenty enemies pays for sixty values, not eight hundred).
//!
//! A view belongs to the hook call that made it: it carries that call's serial number (under a key no
//! script can name, [`SERIAL_KEY`]), and a field read finds the call's `Ctx` by it
//! (`handle::live_ctx`). Read after the call
//! returned, a field it has not yet read is a clear error, never a read of whatever game the VM plays
//! now. Before a `ctx` method that changes the game (a spell's primitives), every view of the call is
//! filled in, so a view keeps showing the table as it was when it was handed out, as snapshots did.
//!
//! Views are made and their fields read through the Lua C API (a view is made by the thousand in a
//! game, and mlua's general glue cost more than the work): the field read is a C function, `fill`, that
//! pushes the value straight from the game (`api::raw`).

use super::handle::{live_ctx, Gone};
use super::*;
use crate::script::api::fields::{self, push_key, push_str, str_at, Field, ROOM};
use crate::script::api::handles::{BUILDING_FIELDS, MODEL_FIELDS};
use crate::script::host::{host, kernel_lua};
use crate::state::Building;
use mlua::ffi;
use std::os::raw::c_int;

/// The key under which a view keeps its call's serial: a light userdata (this static's address), which
/// no script can make, so no script can name, read or change it.
static SERIAL_KEY: u8 = 0;

/// The address [`SERIAL_KEY`] stands for.
pub(crate) fn serial_key() -> *mut std::ffi::c_void {
    std::ptr::addr_of!(SERIAL_KEY).cast_mut().cast()
}

/// The VM's view functions and the views' metatable, made once.
struct ViewKit {
    /// The metatable of every view of the VM (`view = true`, the shared `__index` and `__pairs`),
    /// hidden behind `__metatable`: `getmetatable(view)` gives a stand-in `{ view = true }`, so a
    /// script that changes what it gets back changes nothing of the views (each call's, or the next
    /// call's).
    metatable: Table,
    core: Rc<KitCore>,
}

/// What the kernel's view code needs on every view: the VM's budget and memory limit (to work as the
/// kernel, `host::kernel_lua`), and the identity keys, made once as Lua strings (pushing a string
/// made from Rust costs its interning each time).
struct KitCore {
    budget: Rc<crate::script::host::Budget>,
    memory: usize,
    id: mlua::LuaString,
    name: mlua::LuaString,
}

impl KitCore {
    /// Run `f` as the kernel's own work.
    fn kernel<R>(&self, lua: &Lua, f: impl FnOnce() -> R) -> R {
        kernel_lua(lua, &self.budget, self.memory, f)
    }
}

/// The Lua side of views, shared by every call: `pairs` lists every field after `fill_all(view)`,
/// skipping the call's serial. The functions it uses are the standard library's, taken when the VM is
/// built, before any script runs. The views' metatable (made in Rust, `view = true`) has as `__index` the
/// C function `fill`, with the views' methods as its upvalue: `has` and `has_trait`, C functions that
/// read the view's own `conditions` and `traits` (so they answer as the view's fields do).
const VIEW_LUA: &str = r#"
local fill_all, next, type = ...
-- The view's fields: every key but the call's serial (the only key that is not a string).
local function fields(t, k)
  local v
  repeat
    k, v = next(t, k)
  until k == nil or type(k) == "string"
  return k, v
end
local function list(t)
  fill_all(t)
  return fields, t, nil
end
return list
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
    });
    let all_core = core.clone();
    let fill_all = lua.create_function(move |lua, t: Table| {
        let ctx = match live_ctx(call_of(&t)) {
            Ok(ctx) => ctx,
            Err(gone) => return Err(fail(lua, gone_message(gone, &what_of(&t)))),
        };
        // SAFETY: the call is running and not changing the game (`live_ctx`); the `Ctx` is read here
        // only, for this field read.
        let ctx = unsafe { ctx.as_ref() };
        all_core.kernel(lua, || fill_every(lua, ctx, &t))
    })?;
    let g = lua.globals();
    let pairs = lua
        .load(VIEW_LUA)
        .set_name("=village.view")
        .call::<mlua::Function>((
            fill_all,
            g.raw_get::<mlua::Function>("next")?,
            g.raw_get::<mlua::Function>("type")?,
        ))?;
    let methods = lua.create_table()?;
    // SAFETY: `has` and `has_trait` are C functions that follow the C API's rules (see theirs).
    unsafe {
        methods.raw_set("has", lua.create_c_function(has)?)?;
        methods.raw_set("has_trait", lua.create_c_function(has_trait)?)?;
    }
    // SAFETY: the methods table and the keys `fill` reads go in as the closure's upvalues (the keys as
    // strings made once: pushing a key string costs its interning on every read); `fill` is a C
    // function that follows the C API's rules (see its comment).
    let index = unsafe {
        lua.exec_raw::<mlua::Function>(&methods, |l| {
            for key in ["id", "name"] {
                push_str(l, key);
            }
            ffi::lua_pushcclosure(l, fill, 3)
        })?
    };
    let metatable = lua.create_table()?;
    metatable.raw_set("view", true)?;
    metatable.raw_set("__index", index)?;
    metatable.raw_set("__pairs", pairs)?;
    let stand_in = lua.create_table()?;
    stand_in.raw_set("view", true)?;
    metatable.raw_set("__metatable", stand_in)?;
    lua.set_app_data(ViewKit { metatable, core });
    lua.app_data_ref::<ViewKit>()
        .ok_or_else(|| mlua::Error::runtime("the view kit was not kept"))
}

/// The serial of a view's call (0, no call, for a table that is not a view).
fn call_of(t: &Table) -> i64 {
    t.raw_get::<Option<i64>>(Value::LightUserData(mlua::LightUserData(serial_key())))
        .ok()
        .flatten()
        .unwrap_or(0)
}

/// "a view of model 3", "a view of the Town Hall", or "a view", from the view's `id` or `name`.
fn described(id: Option<i64>, name: Option<&str>) -> String {
    match (id, name) {
        (Some(id), _) => format!("a view of model {id}"),
        (None, Some(name)) => format!("a view of the {name}"),
        (None, None) => "a view".to_string(),
    }
}

/// [`described`] for the view `t`.
fn what_of(t: &Table) -> String {
    let id = t.raw_get::<Option<i64>>("id").ok().flatten();
    let name = t.raw_get::<Option<String>>("name").ok().flatten();
    described(id, name.as_deref())
}

/// Why a view could not be read, in words.
fn gone_message(gone: Gone, what: &str) -> String {
    match gone {
        Gone::Returned => format!(
            "{what} was read after the hook call that handed it out had returned (views live for \
             their call: keep ids or names between calls, not views)"
        ),
        Gone::Busy => format!("{what} was read while its call's ctx was changing the game"),
    }
}

/// The views' `__index(view, key)`: a method of views (`has`, `has_trait`: the closure's upvalue), or
/// the field `key` of what the view shows, pushed from the game and kept in the view; nil for a key that
/// is not a field.
///
/// A C function, in three steps so that a Lua error (an out-of-memory error while pushing, or the
/// error it raises itself) never unwinds past a Rust value that needs dropping: it reads its arguments
/// through the C API; finds the call and the field in Rust (panics caught), holding nothing that needs
/// dropping once done; then pushes the field, or raises the error.
unsafe extern "C-unwind" fn fill(l: *mut ffi::lua_State) -> c_int {
    if ffi::lua_type(l, 2) != ffi::LUA_TSTRING || ffi::lua_type(l, 1) != ffi::LUA_TTABLE {
        ffi::lua_pushnil(l);
        return 1;
    }
    ffi::lua_settop(l, 2);
    if ffi::lua_checkstack(l, ROOM + 3) == 0 {
        return raise(l, "out of Lua stack space reading a view".to_string());
    }
    // The closure's upvalues: the views' methods, then the keys "id" and "name".
    let (methods, id_key, name_key) = (
        ffi::lua_upvalueindex(1),
        ffi::lua_upvalueindex(2),
        ffi::lua_upvalueindex(3),
    );
    // A method of views: only `has` and `has_trait` are (the table is this closure's own), so the
    // key's bytes decide before any lookup.
    let Some(key) = str_at(l, 2) else {
        ffi::lua_pushnil(l);
        return 1;
    };
    if key == "has" || key == "has_trait" {
        ffi::lua_pushvalue(l, 2);
        ffi::lua_rawget(l, methods);
        return 1;
    }
    // 1. The call's serial (0 for a table that is not a view), the view's identity and the key.
    ffi::lua_rawgetp(l, 1, serial_key());
    let serial = ffi::lua_tointegerx(l, -1, std::ptr::null_mut());
    ffi::lua_pop(l, 1);
    ffi::lua_pushvalue(l, id_key);
    let id = (ffi::lua_rawget(l, 1) == ffi::LUA_TNUMBER)
        .then(|| ffi::lua_tointegerx(l, -1, std::ptr::null_mut()));
    ffi::lua_pop(l, 1);
    // A building's name (no `id`) stays on the stack while it is read.
    let name = if id.is_none() {
        ffi::lua_pushvalue(l, name_key);
        ffi::lua_rawget(l, 1);
        str_at(l, -1)
    } else {
        None
    };
    // 2. The field, found in Rust.
    let found = std::panic::catch_unwind(|| -> Result<Field<'static>, String> {
        let ctx = live_ctx(serial).map_err(|gone| gone_message(gone, &described(id, name)))?;
        // SAFETY: the call is running and nothing holds its `Ctx` mutably (`live_ctx`); it is read
        // here only, for this field, and what the field borrows is pushed before the call goes on.
        let ctx: &'static Ctx<'static> = unsafe { ctx.as_ref() };
        let game = ctx.game();
        match (id, name) {
            (Some(id), _) => {
                let m = u32::try_from(id)
                    .map_err(|_| format!("model {id} is not on the table"))
                    .and_then(|id| game.model(ModelId(id)).map_err(|e| e.to_string()))?;
                Ok(fields::of_model(game, ctx.rules, m, key))
            }
            (None, Some(name)) => {
                let b = game.building(name).map_err(|e| e.to_string())?;
                Ok(fields::of_building(b, key))
            }
            (None, None) => Ok(Field::Nil),
        }
    });
    // 3. Push it and keep it in the view, or raise the error.
    match found {
        Ok(Ok(field)) => {
            fields::push(l, &field);
            if ffi::lua_type(l, -1) != ffi::LUA_TNIL {
                ffi::lua_pushvalue(l, 2);
                ffi::lua_pushvalue(l, -2);
                ffi::lua_rawset(l, 1);
            }
            1
        }
        Ok(Err(message)) => raise(l, message),
        Err(_) => raise(
            l,
            "a view's field could not be read (an internal error)".to_string(),
        ),
    }
}

/// `view:has(condition)`: whether the view's `conditions` list it (read through the view, as any
/// field: filled in on first use, the snapshot once the game has changed).
unsafe extern "C-unwind" fn has(l: *mut ffi::lua_State) -> c_int {
    lists(l, c"conditions", "has")
}

/// `view:has_trait(name)`: whether the view's `traits` list it, as [`has`] reads `conditions`.
unsafe extern "C-unwind" fn has_trait(l: *mut ffi::lua_State) -> c_int {
    lists(l, c"traits", "has_trait")
}

/// Method `method` of views: whether the list in field `field` of the view at 1 holds the value at 2,
/// compared as `==` compares strings and numbers; true or false pushed. A view without the list (a
/// building's) is an error, as indexing a list that is not there would be. Holds no Rust value that
/// needs dropping when an error is raised (the field read may raise one: a view read after its call).
unsafe fn lists(l: *mut ffi::lua_State, field: &'static std::ffi::CStr, method: &str) -> c_int {
    ffi::lua_settop(l, 2);
    if ffi::lua_checkstack(l, ROOM + 3) == 0 {
        return raise(l, "out of Lua stack space reading a view".to_string());
    }
    if ffi::lua_type(l, 1) != ffi::LUA_TTABLE {
        return raise(
            l,
            format!("view:{method} needs a view (called with `.` instead of `:`?)"),
        );
    }
    // The list not yet read into the view: answered from the game, as the list would be once read,
    // without making it (a policy asks `has_trait` of views it reads nothing else of).
    push_key(l, field);
    let kept = ffi::lua_rawget(l, 1);
    ffi::lua_pop(l, 1);
    if kept == ffi::LUA_TNIL {
        if let Some(held) = listed_in_game(l, field) {
            ffi::lua_pushboolean(l, c_int::from(held));
            return 1;
        }
    }
    if ffi::lua_getfield(l, 1, field.as_ptr()) != ffi::LUA_TTABLE {
        let name = field.to_str().unwrap_or("list");
        return raise(
            l,
            format!("view:{method}: this view has no `{name}` (only a model's view has)"),
        );
    }
    let mut i: ffi::lua_Integer = 1;
    while ffi::lua_rawgeti(l, 3, i) != ffi::LUA_TNIL {
        if ffi::lua_rawequal(l, -1, 2) != 0 {
            ffi::lua_pushboolean(l, 1);
            return 1;
        }
        ffi::lua_pop(l, 1);
        i += 1;
    }
    ffi::lua_pushboolean(l, 0);
    1
}

/// [`lists`] for a model's view whose list is not in it yet: whether the model's `conditions` or
/// `traits` (`field`) hold the value at 2, read from the game of the view's running call; `None` when
/// that cannot be answered so (the call returned or is changing the game, the model left the table, not
/// a model's view): the caller then reads the field, which fails with the field read's own error.
///
/// # Safety
/// `l` is the state of a call of [`lists`], the view at 1 and the value at 2, with room for two values.
unsafe fn listed_in_game(l: *mut ffi::lua_State, field: &'static std::ffi::CStr) -> Option<bool> {
    ffi::lua_rawgetp(l, 1, serial_key());
    let serial = ffi::lua_tointegerx(l, -1, std::ptr::null_mut());
    ffi::lua_pop(l, 1);
    push_key(l, c"id");
    let id = (ffi::lua_rawget(l, 1) == ffi::LUA_TNUMBER)
        .then(|| ffi::lua_tointegerx(l, -1, std::ptr::null_mut()));
    ffi::lua_pop(l, 1);
    let id = ModelId(u32::try_from(id?).ok()?);
    // `==` finds only a string equal to one of the names (a number is never equal to a string).
    let wanted = fields::bytes_at(l, 2);
    let traits = field == c"traits";
    std::panic::catch_unwind(|| {
        let ctx = live_ctx(serial).ok()?;
        // SAFETY: the call is running and nothing holds its `Ctx` mutably (`live_ctx`); it is read
        // here only, for this answer.
        let ctx = unsafe { ctx.as_ref() };
        let m = ctx.game().model(id).ok()?;
        let Some(wanted) = wanted else {
            return Some(false);
        };
        Some(if traits {
            m.all_traits().any(|t| t.as_bytes() == wanted)
        } else {
            m.conditions.iter().any(|c| c.as_str().as_bytes() == wanted)
        })
    })
    .ok()
    .flatten()
}

/// Raise `message`, located at the script that read the view, as a Lua error.
unsafe fn raise(l: *mut ffi::lua_State, message: String) -> c_int {
    let message = format!("{}{message}", crate::script::api::convert::caller_at(l));
    push_str(l, &message);
    // Dropped before the error unwinds past this frame.
    drop(message);
    ffi::lua_error(l)
}

/// What a view shows: a model (by `id`) or a building (by `name`) of the ctx's game.
enum Shown<'a> {
    Model(&'a Model),
    Building(&'a Building),
}

/// What `t` shows, or the error of a model that left the table (or a building that is not there).
fn shown<'a>(lua: &Lua, ctx: &'a Ctx<'_>, t: &Table) -> mlua::Result<Shown<'a>> {
    let game = ctx.game();
    if let Some(id) = t.raw_get::<Option<u32>>("id")? {
        return Ok(Shown::Model(
            game.model(ModelId(id)).map_err(|e| fail(lua, e))?,
        ));
    }
    let name: mlua::LuaString = t.raw_get("name")?;
    Ok(Shown::Building(
        game.building(&name.to_str()?).map_err(|e| fail(lua, e))?,
    ))
}

/// Fill every field of a view that it has not read yet (`pairs`, and before the game changes: a view
/// of a model no longer on the table is left as it is). Through the C API, as `fill` reads one field:
/// each key is pushed once and each value straight from the game (mlua's table glue made a handle of
/// every string and table it passed, and the fields of every view of a call are filled before each
/// spell's change of the game).
fn fill_every(lua: &Lua, ctx: &Ctx<'_>, t: &Table) -> mlua::Result<()> {
    let Ok(what) = shown(lua, ctx, t) else {
        return Ok(());
    };
    let (game, rules) = (ctx.game(), ctx.rules);
    let keys = match what {
        Shown::Model(_) => MODEL_FIELDS,
        Shown::Building(_) => BUILDING_FIELDS,
    };
    lua.exec_raw_lua(|raw| {
        // SAFETY: the stack is checked for room and left as it was found; the caller works as the kernel
        // (no memory limit: `fill_all` and `fill_views` run under `kernel`), so these calls raise no
        // error short of the process running out of memory, as mlua's own unprotected calls, and no Lua
        // code runs (raw access only).
        unsafe {
            let l = raw.state();
            let top = ffi::lua_gettop(l);
            if ffi::lua_checkstack(l, ROOM + 3) == 0 {
                return Err(mlua::Error::runtime(
                    "out of Lua stack space filling a view",
                ));
            }
            raw.push(t)?;
            let at = top + 1;
            for key in keys {
                // The key stays on the stack for the write (a copy is looked up).
                push_str(l, key);
                ffi::lua_pushvalue(l, -1);
                let kept = ffi::lua_rawget(l, at) != ffi::LUA_TNIL;
                ffi::lua_pop(l, 1);
                let field = match what {
                    _ if kept => Field::Nil,
                    Shown::Model(m) => fields::of_model(game, rules, m, key),
                    Shown::Building(b) => fields::of_building(b, key),
                };
                if matches!(field, Field::Nil) {
                    ffi::lua_pop(l, 1);
                    continue;
                }
                fields::push(l, &field);
                ffi::lua_rawset(l, at);
            }
            ffi::lua_settop(l, top);
            Ok(())
        }
    })
}

/// What a list of views shows: a model, or the building at an index of the game.
#[derive(Clone, Copy)]
pub(super) enum Viewed {
    Model(ModelId),
    Building(usize),
}

/// Whom a view is of: a model, or the building at an index of the game.
#[derive(Clone, Copy)]
enum Whom<'a> {
    Model(ModelId),
    Building(usize, &'a str),
}

impl Whom<'_> {
    /// Its key in the call's memo: a model's id, −(a building's index + 1).
    fn memo_key(self) -> ffi::lua_Integer {
        match self {
            Whom::Model(id) => ffi::lua_Integer::from(id.0),
            Whom::Building(i, _) => -(i as ffi::lua_Integer) - 1,
        }
    }
}

impl Ctx<'_> {
    /// Views of `whom` (each the one already handed out in this call if the game has not changed
    /// since), made through the C API and given to `take` on the stack: with `list`, an array of them in
    /// order on top; without, each in turn (one `whom`: the view on top).
    ///
    /// Each view carries the call's serial (under [`SERIAL_KEY`]) and the VM's views' metatable. The
    /// call's memo of views handed out is made with its first view, and again with the first view after
    /// a change of the game.
    fn views_of<R>(
        &self,
        lua: &Lua,
        whom: &[Whom<'_>],
        list: bool,
        take: impl FnOnce(&mlua::state::RawLua) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        let kit = kit(lua)?;
        kit.core.kernel(lua, || {
            let mut memo = self.views.memo.borrow_mut();
            lua.exec_raw_lua(|raw| {
                // SAFETY: the stack is checked for room and left as it was found; the kernel works
                // without the memory limit here (`kernel`), so these calls raise no error short of the
                // process running out of memory, as mlua's own unprotected calls. No Lua code runs, so
                // nothing else borrows the call's views meanwhile.
                unsafe {
                    let l = raw.state();
                    let top = ffi::lua_gettop(l);
                    if ffi::lua_checkstack(l, 10) == 0 {
                        return Err(mlua::Error::runtime("out of Lua stack space making views"));
                    }
                    match memo.as_ref() {
                        Some(t) => raw.push(t)?,
                        None => {
                            // Room for a policy's usual dozen views without growing.
                            ffi::lua_createtable(l, 0, 16);
                            ffi::lua_pushvalue(l, -1);
                            *memo = Some(raw.pop::<Table>()?);
                        }
                    }
                    raw.push(&kit.metatable)?;
                    let (memo_at, mt_at) = (top + 1, top + 2);
                    // The identity keys, pushed once for all the views made here.
                    let (id_at, name_at) = (top + 3, top + 4);
                    raw.push(&kit.core.id)?;
                    raw.push(&kit.core.name)?;
                    if list {
                        ffi::lua_createtable(l, whom.len() as c_int, 0);
                    }
                    for (n, w) in whom.iter().enumerate() {
                        let key = w.memo_key();
                        if ffi::lua_rawgeti(l, memo_at, key) == ffi::LUA_TNIL {
                            ffi::lua_pop(l, 1);
                            ffi::lua_createtable(l, 0, 8);
                            match *w {
                                Whom::Model(id) => {
                                    ffi::lua_pushvalue(l, id_at);
                                    ffi::lua_pushinteger(l, ffi::lua_Integer::from(id.0));
                                }
                                Whom::Building(_, name) => {
                                    ffi::lua_pushvalue(l, name_at);
                                    push_str(l, name);
                                }
                            }
                            ffi::lua_rawset(l, -3);
                            ffi::lua_pushinteger(l, self.views.serial);
                            ffi::lua_rawsetp(l, -2, serial_key());
                            ffi::lua_pushvalue(l, mt_at);
                            ffi::lua_setmetatable(l, -2);
                            ffi::lua_pushvalue(l, -1);
                            ffi::lua_rawseti(l, memo_at, key);
                        }
                        if list {
                            ffi::lua_rawseti(l, -2, n as ffi::lua_Integer + 1);
                        }
                    }
                    let out = take(raw);
                    ffi::lua_settop(l, top);
                    out
                }
            })
        })
    }

    /// The view of model `m` of this ctx's game: the one already handed out in this call if the game
    /// has not changed since.
    pub(super) fn model_view(&self, lua: &Lua, m: &Model) -> mlua::Result<Table> {
        // SAFETY: `views_of` leaves the view on top.
        self.views_of(lua, &[Whom::Model(m.id)], false, |raw| unsafe {
            raw.pop::<Table>()
        })
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
        self.views_list(lua, ids.iter().map(|id| Viewed::Model(*id)))
    }

    /// Views of the buildings at `indices` in this ctx's game, as an array in that order.
    pub(super) fn building_views(&self, lua: &Lua, indices: &[usize]) -> mlua::Result<Value> {
        self.views_list(lua, indices.iter().map(|i| Viewed::Building(*i)))
    }

    /// Views of the models and buildings of `list`, as an array in that order, made in one pass (a
    /// model no longer on the table, or an index past the game's buildings, is left out).
    pub(super) fn views_list(
        &self,
        lua: &Lua,
        list: impl IntoIterator<Item = Viewed>,
    ) -> mlua::Result<Value> {
        let game = self.game();
        let whom: Vec<Whom<'_>> = list
            .into_iter()
            .filter_map(|v| match v {
                Viewed::Model(id) => game.model(id).is_ok().then_some(Whom::Model(id)),
                Viewed::Building(i) => game.buildings.get(i).map(|b| Whom::Building(i, &b.name)),
            })
            .collect();
        // SAFETY: `views_of` leaves the array on top.
        self.views_of(lua, &whom, true, |raw| unsafe { Ok(raw.pop_value()) })
    }

    /// The view of the building at `index` in this ctx's game, the one already handed out in this call
    /// if the game has not changed since.
    pub(super) fn building_view(&self, lua: &Lua, index: usize) -> mlua::Result<Option<Table>> {
        let Some(b) = self.game().buildings.get(index) else {
            return Ok(None);
        };
        // SAFETY: `views_of` leaves the view on top.
        self.views_of(
            lua,
            &[Whom::Building(index, &b.name)],
            false,
            |raw| unsafe { raw.pop::<Table>().map(Some) },
        )
    }

    /// The view of the building called `name`, or nil when there is none.
    pub(super) fn building_view_named(&self, lua: &Lua, name: &str) -> mlua::Result<Value> {
        match self.game().buildings.iter().position(|b| b.name == name) {
            Some(i) => Ok(self.building_view(lua, i)?.map_or(Value::Nil, Value::Table)),
            None => Ok(Value::Nil),
        }
    }

    /// Fill in every view handed out so far in this call, before something changes the game: what a
    /// script already holds keeps showing the table as it was. The memo is dropped afterwards (by
    /// `CtxHandle::ctx_mut`), so views asked for after the change show the new state.
    pub(super) fn fill_views(&self, lua: &Lua) -> mlua::Result<()> {
        let Some(memo) = self.views.memo.borrow().clone() else {
            return Ok(());
        };
        for pair in memo.pairs::<Value, Table>() {
            let (_, t) = pair?;
            fill_every(lua, self, &t)?;
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
        // The call that made it may be over: a view is known by its metatable.
        let is_view = t
            .metatable()
            .and_then(|mt| mt.raw_get::<Option<bool>>("view").ok().flatten())
            .unwrap_or(false);
        if !is_view {
            return Ok(v);
        }
        // A view made in another game is no view of this one's models (`id_of` refuses it).
        if let Some(id) = t.raw_get::<Option<u32>>("id")? {
            id_of(t)?;
            return self.model_view_of(lua, ModelId(id));
        }
        match t.raw_get::<Option<String>>("name")? {
            Some(name) => self.building_view_named(lua, &name),
            None => Ok(v),
        }
    }
}
