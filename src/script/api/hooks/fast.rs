//! Fast paths for the `ctx` methods scripts call most, as C functions in front of mlua's: `ctx:rule`
//! is asked over a thousand times a game (the activation dice, the measures), the measurements
//! (`ctx:distance`, `distance_to`, `distances_from`, `distances_to`) another thousand, `ctx:permission`
//! five hundred (the policy's "is it a Healer?"), the queries that hand out views (`ctx:models`,
//! `buildings`, `town_hall`, `engaged`) fifteen hundred, `ctx:tokens` and `ctx:spent` three hundred
//! (the Opportunity helper, the limited uses), `ctx:can_shoot` two hundred, `ctx:usable` (for a model
//! none of whose scripts offers an action) three hundred, `ctx:nearest` (the Behaviours' targets) two
//! hundred, and mlua's
//! general method glue (borrowing the userdata, converting the arguments, the kernel's mode) cost
//! several times the answer. A fast path answers only the usual case (a running call, arguments of the
//! usual shapes — tables with an integer `id`, points with finite `x` and `y` — and an answer the game
//! gives without error) straight through the C API; anything else — a ctx kept past its call, a model
//! no longer on the table, a malformed argument, profiling on — goes to the mlua method it stands in
//! front of, so every answer and every error is the method's own.
//!
//! Each is a C function in the shape of the views' `fill`: it reads its arguments through the C API
//! while it owns nothing that needs dropping, works out the answer in Rust (panics caught), and pushes
//! it; a Lua error raised by the C API (out of memory) unwinds past no Rust value.

use super::handle::live_ctx_of;
use super::queries::{measure, Thing};
use super::rawread::{model_id_at, thing_at};
use super::Ctx;
use super::ScriptHooks;
use crate::script::api::constants::{Constant, RuleConstants};
use crate::script::api::fields::{bytes_at, push_str, str_at};
use crate::script::host::{host, kernel_lua};
use crate::script::registry::{Module, Permissions};
use crate::state::ModelId;
use mlua::{ffi, Lua, Table, Value};
use std::os::raw::c_int;
use std::ptr::NonNull;

/// Put the fast paths in front of their methods in `methods` (an absolute stack index of the `ctx`
/// type's method table), each keeping the mlua method as its upvalue. A method the table lacks is
/// left alone.
///
/// # Safety
/// `l` is valid with room for three values; `methods` is a table.
pub(super) unsafe fn install(l: *mut ffi::lua_State, methods: c_int) {
    let paths: [(&str, ffi::lua_CFunction); 15] = [
        ("rule", rule),
        ("nearest", nearest),
        ("usable", usable),
        ("can_shoot", can_shoot),
        ("permission", permission),
        ("spent", spent),
        ("tokens", tokens),
        ("models", models),
        ("buildings", buildings),
        ("town_hall", town_hall),
        ("engaged", engaged),
        ("distance", distance),
        ("distance_to", distance_to),
        ("distances_from", distances_from),
        ("distances_to", distances_to),
    ];
    for (member, path) in paths {
        let name = super::ctx_api::api(member);
        push_str(l, name);
        if ffi::lua_rawget(l, methods) != ffi::LUA_TFUNCTION {
            ffi::lua_pop(l, 1);
            continue;
        }
        ffi::lua_pushcclosure(l, path, 1);
        push_str(l, name);
        ffi::lua_insert(l, -2);
        ffi::lua_rawset(l, methods);
    }
}

/// Put the fast paths of the fields in front of their getters in `members` (an absolute stack index of
/// the `ctx` type's members, where each getter is the one element of a table), each keeping the mlua
/// getter as its upvalue: a field such as `ctx.params` is read by the hundred in a game (a signature's
/// `per_wave`, `within`, `modifier`). A field the table lacks is left alone.
///
/// # Safety
/// `l` is valid with room for three values; `members` is a table.
pub(super) unsafe fn install_getters(l: *mut ffi::lua_State, members: c_int) {
    let paths: [(&str, ffi::lua_CFunction); 6] = [
        ("round", round),
        ("wave", wave),
        ("supplies", supplies),
        ("igniters_burn", igniters_burn),
        ("params", params),
        ("explaining", explaining),
    ];
    for (member, path) in paths {
        push_str(l, super::ctx_api::api(member));
        if ffi::lua_rawget(l, members) != ffi::LUA_TTABLE {
            ffi::lua_pop(l, 1);
            continue;
        }
        ffi::lua_rawgeti(l, -1, 1);
        ffi::lua_pushcclosure(l, path, 1);
        ffi::lua_rawseti(l, -2, 1);
        ffi::lua_pop(l, 1);
    }
}

/// A field of the game read by `read` and pushed by `push`, or the mlua getter's answer.
///
/// # Safety
/// `l` is the running state of a getter's fast path, the ctx its only argument.
unsafe fn game_field<T>(
    l: *mut ffi::lua_State,
    read: impl FnOnce(&crate::state::Game) -> T,
    push: impl FnOnce(*mut ffi::lua_State, T),
) -> c_int {
    match usual(l, 1).and_then(|ctx| with(ctx, |ctx| Some(read(ctx.game())))) {
        Some(v) => {
            push(l, v);
            1
        }
        None => method(l),
    }
}

/// `ctx.round`.
unsafe extern "C-unwind" fn round(l: *mut ffi::lua_State) -> c_int {
    game_field(l, |g| g.round, |l, n| ffi::lua_pushinteger(l, n.into()))
}

/// `ctx.wave`.
unsafe extern "C-unwind" fn wave(l: *mut ffi::lua_State) -> c_int {
    game_field(l, |g| g.wave, |l, n| ffi::lua_pushinteger(l, n.into()))
}

/// `ctx.supplies`.
unsafe extern "C-unwind" fn supplies(l: *mut ffi::lua_State) -> c_int {
    game_field(l, |g| g.supplies, |l, n| ffi::lua_pushinteger(l, n.into()))
}

/// `ctx.igniters_burn`.
unsafe extern "C-unwind" fn igniters_burn(l: *mut ffi::lua_State) -> c_int {
    game_field(
        l,
        |g| g.igniters_burn,
        |l, b| ffi::lua_pushboolean(l, c_int::from(b)),
    )
}

/// `ctx.explaining`: read by the built-in Behaviours and policy before they gather what a decision
/// weighed, on every target and most orders, so it answers without mlua's call.
unsafe extern "C-unwind" fn explaining(l: *mut ffi::lua_State) -> c_int {
    let pushed = usual(l, 1)
        .and_then(|ctx| with(ctx, |ctx| Some(ctx.kernel.is_some_and(|k| k.explaining()))));
    match pushed {
        Some(b) => {
            ffi::lua_pushboolean(l, c_int::from(b));
            1
        }
        None => method(l),
    }
}

/// `ctx.params`: the call's params (the table the kernel made for it), pushed as mlua holds it.
unsafe extern "C-unwind" fn params(l: *mut ffi::lua_State) -> c_int {
    let pushed = (|| {
        let ctx: &'static Ctx<'static> = usual(l, 1)?.as_ref();
        let lua = lua_of(l, ctx)?;
        lua.exec_raw_lua(|raw| raw.push_value(&ctx.params)).ok()
    })();
    match pushed {
        Some(()) => 1,
        None => method(l),
    }
}

/// The mlua method (upvalue 1), called with every argument as given; its results.
///
/// # Safety
/// `l` is the running state of a fast path's call, its stack holding only the arguments.
unsafe fn method(l: *mut ffi::lua_State) -> c_int {
    let n = ffi::lua_gettop(l);
    ffi::lua_pushvalue(l, ffi::lua_upvalueindex(1));
    ffi::lua_insert(l, 1);
    ffi::lua_call(l, n, ffi::LUA_MULTRET);
    ffi::lua_gettop(l)
}

/// What a fast path pushed (`Some(1)`), or the mlua method's answer when it could not (`None`).
///
/// # Safety
/// As [`method`].
unsafe fn or_method(l: *mut ffi::lua_State, pushed: Option<c_int>) -> c_int {
    match pushed {
        Some(n) => n,
        None => method(l),
    }
}

/// The call's `Ctx` when the fast path may answer: profiling off (the mlua method counts its calls),
/// `n` arguments (the ctx included), room on the stack, and the ctx a running call's that is not
/// changing the game.
///
/// # Safety
/// `l` is the running state of a fast path's call.
unsafe fn usual(l: *mut ffi::lua_State, n: c_int) -> Option<NonNull<Ctx<'static>>> {
    if crate::script::host::PROFILING.load(std::sync::atomic::Ordering::Relaxed)
        || ffi::lua_gettop(l) != n
        || ffi::lua_checkstack(l, 6) == 0
    {
        return None;
    }
    live_ctx_of(ffi::lua_touserdata(l, 1))
}

/// `f` with the call's `Ctx`, panics caught (a panic must not unwind into Lua's C frames).
fn with<R>(ctx: NonNull<Ctx<'static>>, f: impl FnOnce(&Ctx<'static>) -> Option<R>) -> Option<R> {
    // SAFETY: the call is running and not changing the game (`usual`), so its `Ctx` outlives this C
    // call; it is read here only.
    let ctx = unsafe { ctx.as_ref() };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(ctx)))
        .ok()
        .flatten()
}

/// `ctx:rule(section, key)`: the constant, pushed from the call's rules.
unsafe extern "C-unwind" fn rule(l: *mut ffi::lua_State) -> c_int {
    let pushed = constant(l).map(|c| {
        match c {
            Constant::Int(n) => ffi::lua_pushinteger(l, *n),
            Constant::Num(x) => ffi::lua_pushnumber(l, *x),
            Constant::Bool(b) => ffi::lua_pushboolean(l, c_int::from(*b)),
            Constant::Str(s) => push_str(l, s),
        }
        1
    });
    or_method(l, pushed)
}

/// The usual case of `ctx:rule`: two strings naming a constant of the indexed kinds.
///
/// # Safety
/// `l` is the running state of a call of [`rule`].
unsafe fn constant<'a>(l: *mut ffi::lua_State) -> Option<&'a Constant> {
    let ctx = usual(l, 3)?;
    let (section, key) = (bytes_at(l, 2)?, bytes_at(l, 3)?);
    // SAFETY: as in `with`: the rules outlive this C call.
    let constants: &'a RuleConstants = ctx.as_ref().rule_constants;
    constants.get(section, key)
}

/// A model argument: a table with a usual `id`, or (`integers`) a whole number that is a model id.
///
/// # Safety
/// `l` is valid with room for two values.
unsafe fn model_at(l: *mut ffi::lua_State, i: c_int, integers: bool) -> Option<ModelId> {
    match ffi::lua_type(l, i) {
        ffi::LUA_TTABLE => model_id_at(l, i),
        ffi::LUA_TNUMBER if integers && ffi::lua_isinteger(l, i) != 0 => {
            u32::try_from(ffi::lua_tointegerx(l, i, std::ptr::null_mut()))
                .ok()
                .filter(|id| *id > 0)
                .map(ModelId)
        }
        _ => None,
    }
}

/// What the table at `i` stands for, a point only when finite (the methods refuse others).
///
/// # Safety
/// As [`thing_at`].
unsafe fn thing_arg(l: *mut ffi::lua_State, i: c_int) -> Option<Thing> {
    if ffi::lua_type(l, i) != ffi::LUA_TTABLE {
        return None;
    }
    match thing_at(l, i)? {
        Thing::Point(p) if !(p.x.is_finite() && p.y.is_finite()) => None,
        t => Some(t),
    }
}

/// The distance from model `me` to `thing`, when the game has both.
fn distance_of(ctx: &Ctx<'_>, me: ModelId, thing: &Thing) -> Option<f64> {
    let game = ctx.game();
    measure(game, game.model(me).ok()?, thing).ok()
}

/// Push `d`, or answer through the mlua method.
///
/// # Safety
/// As [`method`].
unsafe fn number_or_method(l: *mut ffi::lua_State, d: Option<f64>) -> c_int {
    let pushed = d.map(|d| {
        ffi::lua_pushnumber(l, d);
        1
    });
    or_method(l, pushed)
}

/// Push `b`, or answer through the mlua method.
///
/// # Safety
/// As [`method`].
unsafe fn boolean_or_method(l: *mut ffi::lua_State, b: Option<bool>) -> c_int {
    let pushed = b.map(|b| {
        ffi::lua_pushboolean(l, c_int::from(b));
        1
    });
    or_method(l, pushed)
}

/// `ctx:usable(m)` when none of the model's scripts offers an action (the usual case: the policy asks
/// for every hero on every action): an empty list, with no script asked. A model with such a script,
/// or anything unusual, goes to the method, which asks the scripts.
unsafe extern "C-unwind" fn usable(l: *mut ffi::lua_State) -> c_int {
    let none = (|| {
        let ctx = usual(l, 2)?;
        let id = model_at(l, 2, true)?;
        with(ctx, |ctx| {
            let me = ctx.game().model(id).ok()?;
            let offered = ctx.kernel?.modules_with_actions(me);
            (!offered).then_some(())
        })
    })();
    let pushed = none.map(|()| {
        ffi::lua_createtable(l, 0, 0);
        1
    });
    or_method(l, pushed)
}

/// `ctx:distance(a, b)`: the gap between two models' bases.
unsafe extern "C-unwind" fn distance(l: *mut ffi::lua_State) -> c_int {
    let d = (|| {
        let ctx = usual(l, 3)?;
        let (a, b) = (model_at(l, 2, false)?, model_at(l, 3, false)?);
        with(ctx, |ctx| distance_of(ctx, a, &Thing::Model(b)))
    })();
    number_or_method(l, d)
}

/// `ctx:distance_to(m, thing)`: from a model's base to a model, a building, a token or a point.
unsafe extern "C-unwind" fn distance_to(l: *mut ffi::lua_State) -> c_int {
    let d = (|| {
        let ctx = usual(l, 3)?;
        let me = model_at(l, 2, false)?;
        let thing = thing_arg(l, 3)?;
        with(ctx, |ctx| distance_of(ctx, me, &thing))
    })();
    number_or_method(l, d)
}

/// `ctx:distances_from(m, things)`: a list of the distances from one model (a table or an id) to each
/// thing of a list.
unsafe extern "C-unwind" fn distances_from(l: *mut ffi::lua_State) -> c_int {
    let listed = (|| {
        let ctx = usual(l, 3)?;
        let me = model_at(l, 2, true)?;
        each_distance(l, 3, |l, item| {
            let thing = thing_arg(l, item)?;
            with(ctx, |ctx| distance_of(ctx, me, &thing))
        })
    })();
    or_method(l, listed.map(|()| 1))
}

/// `ctx:distances_to(models, thing)`: a list of the distances from each model of a list to one thing.
unsafe extern "C-unwind" fn distances_to(l: *mut ffi::lua_State) -> c_int {
    let listed = (|| {
        let ctx = usual(l, 3)?;
        let thing = thing_arg(l, 3)?;
        each_distance(l, 2, |l, item| {
            let me = model_at(l, item, false)?;
            with(ctx, |ctx| distance_of(ctx, me, &thing))
        })
    })();
    or_method(l, listed.map(|()| 1))
}

/// A new list, left on top, of what `measure` makes of each table of the list at `list` (up to its
/// first nil); `None`, and the stack as it was, as soon as an item is not a table or `measure` gives
/// up. The list is made first, with room for every item, so nothing is allocated by Lua while a
/// measure holds a Rust value.
///
/// # Safety
/// `l` is valid with room for six values; `list` an absolute index.
unsafe fn each_distance(
    l: *mut ffi::lua_State,
    list: c_int,
    measure: impl Fn(*mut ffi::lua_State, c_int) -> Option<f64>,
) -> Option<()> {
    if ffi::lua_type(l, list) != ffi::LUA_TTABLE {
        return None;
    }
    let top = ffi::lua_gettop(l);
    let room = c_int::try_from(ffi::lua_rawlen(l, list)).ok()?;
    ffi::lua_createtable(l, room, 0);
    let out = ffi::lua_gettop(l);
    for i in 1.. {
        let item = match ffi::lua_rawgeti(l, list, i) {
            ffi::LUA_TNIL => {
                ffi::lua_pop(l, 1);
                return Some(());
            }
            ffi::LUA_TTABLE => ffi::lua_gettop(l),
            _ => {
                ffi::lua_settop(l, top);
                return None;
            }
        };
        let Some(d) = measure(l, item) else {
            ffi::lua_settop(l, top);
            return None;
        };
        ffi::lua_pop(l, 1);
        ffi::lua_pushnumber(l, d);
        ffi::lua_rawseti(l, out, i);
    }
    Some(())
}

/// `ctx:permission(m, name)`: the label of the first script acting for the model that grants the
/// permission by its `permissions` table, or nil. A script that works its permissions out in a function
/// is asked through the mlua method (a Lua call with its own budget).
unsafe extern "C-unwind" fn permission(l: *mut ffi::lua_State) -> c_int {
    let granted = (|| {
        let ctx = usual(l, 3)?;
        let id = model_at(l, 2, true)?;
        if ffi::lua_type(l, 3) != ffi::LUA_TSTRING {
            return None;
        }
        let name = str_at(l, 3)?;
        with(ctx, |ctx| {
            // The call's hooks, and the registry whose labels they lend, outlive this C call.
            let k: &'static ScriptHooks<'static> = ctx.kernel?;
            let Ok(me) = ctx.game().model(id) else {
                return Some(None);
            };
            let granting = |m: &Module| !matches!(m.permissions, Permissions::None);
            for (module, _) in k.modules_where(me, granting) {
                // A function (`None`) is asked through the mlua method.
                if module.permissions.grants(name)? {
                    return Some(Some(module.label.as_str()));
                }
            }
            Some(None)
        })
    })();
    let pushed = granted.map(|label| {
        match label {
            Some(label) => push_str(l, label),
            None => ffi::lua_pushnil(l),
        }
        1
    });
    or_method(l, pushed)
}

/// The `Lua` of the call, when its script runs on the state mlua works on (not in a coroutine of its
/// own: mlua pushes what it makes onto its current state, which must be the fast path's); a hook's
/// call only (a spell's `cast` has no kernel hooks).
///
/// # Safety
/// `l` is the running state of a fast path's call.
unsafe fn lua_of(l: *mut ffi::lua_State, ctx: &Ctx<'static>) -> Option<&'static Lua> {
    let lua: &'static Lua = ctx.kernel?.lua;
    (lua.exec_raw_lua(|raw| raw.state()) == l).then_some(lua)
}

/// The table argument at `i`, or `None` for nil or nothing (an `Option<Table>` argument); `Err` for
/// anything else (the mlua method gives the error).
///
/// # Safety
/// `l` is the state `lua` works on, with room for a value.
unsafe fn table_arg(l: *mut ffi::lua_State, lua: &Lua, i: c_int) -> Result<Option<Table>, ()> {
    match ffi::lua_type(l, i) {
        ffi::LUA_TNONE | ffi::LUA_TNIL => Ok(None),
        ffi::LUA_TTABLE => lua.exec_raw_lua(|raw| {
            ffi::lua_pushvalue(l, i);
            raw.pop::<Table>().map(Some).map_err(|_| ())
        }),
        _ => Err(()),
    }
}

/// A query that hands out views, answered through the kernel's own code (`f`, as the mlua method runs
/// it: as the kernel, without the budget or the memory limit) and pushed; the mlua method for anything
/// else, an error of `f` included (a query has no effect, so asking again is the same question).
///
/// # Safety
/// `l` is the running state of a fast path's call, its stack holding only the arguments.
unsafe fn viewed(
    l: *mut ffi::lua_State,
    n: c_int,
    f: impl FnOnce(*mut ffi::lua_State, &'static Lua, &'static Ctx<'static>) -> Option<Value>,
) -> c_int {
    let answer = (|| {
        let ctx: &'static Ctx<'static> = usual(l, n)?.as_ref();
        let lua = lua_of(l, ctx)?;
        let h = host(lua).ok()?;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            kernel_lua(lua, &h.budget, h.limits.memory, || f(l, lua, ctx))
        }))
        .ok()
        .flatten()
        .map(|v| (lua, v))
    })();
    // mlua's own push of a value it holds (a move from its reference thread: nothing is allocated).
    let pushed =
        answer.and_then(|(lua, v)| lua.exec_raw_lua(|raw| raw.push_value(&v)).ok().map(|()| 1));
    or_method(l, pushed)
}

/// `ctx:models(opts)`: the views of the models the query lists.
unsafe extern "C-unwind" fn models(l: *mut ffi::lua_State) -> c_int {
    let n = ffi::lua_gettop(l).clamp(1, 2);
    viewed(l, n, |l, lua, ctx| {
        let opts = table_arg(l, lua, 2).ok()?;
        let ids = super::queries::models(lua, ctx, opts.as_ref()).ok()?;
        ctx.model_views(lua, &ids).ok()
    })
}

/// `ctx:buildings(opts)`: the views of the buildings the query lists.
unsafe extern "C-unwind" fn buildings(l: *mut ffi::lua_State) -> c_int {
    let n = ffi::lua_gettop(l).clamp(1, 2);
    viewed(l, n, |l, lua, ctx| {
        let opts = table_arg(l, lua, 2).ok()?;
        super::queries::building_views(lua, ctx, opts.as_ref()).ok()
    })
}

/// `ctx:town_hall()`: the Town Hall's view, or nil.
unsafe extern "C-unwind" fn town_hall(l: *mut ffi::lua_State) -> c_int {
    viewed(l, 1, |_, lua, ctx| {
        let view = super::queries::town_hall_view(lua, ctx).ok()?;
        Some(view.map_or(Value::Nil, Value::Table))
    })
}

/// `ctx:engaged(m)`: the views of the enemies in contact with a model.
unsafe extern "C-unwind" fn engaged(l: *mut ffi::lua_State) -> c_int {
    viewed(l, 2, |l, lua, ctx| {
        let me = model_at(l, 2, false)?;
        super::queries::engaged_views(lua, ctx, me).ok()
    })
}

/// `ctx:nearest(m, { models = ..., buildings = ... })`: the views of the nearest candidates, when the
/// second argument holds only those keys, each a table (the queries themselves are read as the method
/// reads them).
unsafe extern "C-unwind" fn nearest(l: *mut ffi::lua_State) -> c_int {
    viewed(l, 3, |l, lua, ctx| {
        let me = model_at(l, 2, true)?;
        if ffi::lua_type(l, 3) != ffi::LUA_TTABLE {
            return None;
        }
        let among = table_arg(l, lua, 3).ok()??;
        if !crate::script::api::convert::Entries::keys_within(&among, &["models", "buildings"])
            .ok()?
        {
            return None;
        }
        let query = |key: &'static std::ffi::CStr| -> Option<Option<Table>> {
            crate::script::api::fields::push_key(l, key);
            ffi::lua_rawget(l, 3);
            let q = table_arg(l, lua, -1);
            ffi::lua_pop(l, 1);
            q.ok()
        };
        let (models, buildings) = (query(c"models")?, query(c"buildings")?);
        super::queries::nearest_of(lua, ctx, me, models.as_ref(), buildings.as_ref()).ok()
    })
}

/// `ctx:spent(key)`: whether the limited use `key` is spent.
unsafe extern "C-unwind" fn spent(l: *mut ffi::lua_State) -> c_int {
    let spent = (|| {
        let ctx = usual(l, 2)?;
        if ffi::lua_type(l, 2) != ffi::LUA_TSTRING {
            return None;
        }
        let key = str_at(l, 2)?;
        with(ctx, |ctx| Some(ctx.game().spent.iter().any(|s| s == key)))
    })();
    boolean_or_method(l, spent)
}

/// `ctx:tokens(kind)`: the tokens on the table (of one kind), as the kernel's own code lists them.
unsafe extern "C-unwind" fn tokens(l: *mut ffi::lua_State) -> c_int {
    let n = ffi::lua_gettop(l).clamp(1, 2);
    viewed(l, n, |l, lua, ctx| {
        let kind = match ffi::lua_type(l, 2) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => None,
            ffi::LUA_TSTRING => Some(str_at(l, 2)?),
            _ => return None,
        };
        super::queries::tokens_of(lua, ctx, kind)
            .ok()
            .map(Value::Table)
    })
}

/// `ctx:can_shoot(s, t)`: whether the rules let `s` shoot at `t` now (its hooks asked, as the kernel, as
/// the mlua method asks them); a hook's error is raised as the method raises it, so no hook runs twice.
unsafe extern "C-unwind" fn can_shoot(l: *mut ffi::lua_State) -> c_int {
    let outcome = (|| {
        let ctx: &'static Ctx<'static> = usual(l, 3)?.as_ref();
        let (s, t) = (model_at(l, 2, true)?, model_at(l, 3, true)?);
        let k = ctx.kernel?;
        // The scripts it asks may not change the game while it holds the `Ctx` (`handle::Reading`).
        let _reading = super::handle::reading_of(ffi::lua_touserdata(l, 1))?;
        let lua = lua_of(l, ctx)?;
        let h = host(lua).ok()?;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            kernel_lua(lua, &h.budget, h.limits.memory, || {
                super::queries::can_shoot(ctx, k, s, t)
            })
        }))
        .ok()
        .map(|o| (lua, o))
    })();
    match outcome {
        Some((_, Ok(b))) => boolean_or_method(l, Some(b)),
        Some((lua, Err(message))) => {
            // The error value mlua makes of it, pushed; nothing is left to drop when it is raised.
            let e = mlua::Error::runtime(message);
            if lua
                .exec_raw_lua(|raw| raw.push(Value::Error(Box::new(e))))
                .is_err()
            {
                return method(l);
            }
            ffi::lua_error(l)
        }
        None => method(l),
    }
}
