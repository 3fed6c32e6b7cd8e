//! Reading what a script hands to a `ctx` method straight through the Lua C API: what a table stands
//! for (a model, a building, a token or a point), a model's id, and lists of them. A query takes a
//! dozen such tables a call, and mlua's general glue cost more than the reads. Only the usual shapes
//! are read here (an integer `id`, a string `name` or token `kind`, numbers `x` and `y`); anything
//! else is left to the mlua readers in `queries` and `ctx`, which give the errors and conversions the
//! API documents, so the answer is the same either way.
//!
//! These run inside `ctx` methods, as the kernel (no memory limit: the pushes below raise no error
//! short of the process running out of memory, as mlua's own unprotected calls), and leave the stack
//! as they found it.

use super::queries::Thing;
use crate::script::api::fields::{bytes_at, push_key, str_at};
use crate::state::{ModelId, TokenId};
use mlua::{ffi, Lua, Table};
use std::ffi::CStr;
use std::os::raw::c_int;

/// Run `f` with `t` pushed at the index it is given and room for a few more values.
fn with_table<R>(
    lua: &Lua,
    t: &Table,
    f: impl FnOnce(*mut ffi::lua_State, c_int) -> Option<R>,
) -> Option<R> {
    lua.exec_raw_lua(|raw| {
        // SAFETY: room is checked; the stack is restored before returning.
        unsafe {
            let l = raw.state();
            let top = ffi::lua_gettop(l);
            if ffi::lua_checkstack(l, 6) == 0 {
                return None;
            }
            raw.push(t).ok()?;
            let out = f(l, top + 1);
            ffi::lua_settop(l, top);
            out
        }
    })
}

/// `t[key]` for the table at `t`, left on top; its type.
///
/// # Safety
/// `l` is valid with room for two values; `t` an absolute index of a table.
unsafe fn get(l: *mut ffi::lua_State, t: c_int, key: &'static CStr) -> c_int {
    push_key(l, key);
    ffi::lua_rawget(l, t)
}

/// What reading a key found: nothing, a value of the usual shape, or something else.
enum Got<T> {
    Absent,
    Usual(T),
    Other,
}

/// `t.id` as a model or token id.
///
/// # Safety
/// As [`get`].
unsafe fn id_at(l: *mut ffi::lua_State, t: c_int) -> Got<u32> {
    let got = match get(l, t, c"id") {
        ffi::LUA_TNIL => Got::Absent,
        ffi::LUA_TNUMBER => {
            let mut isnum = 0;
            let n = ffi::lua_tointegerx(l, -1, &mut isnum);
            match u32::try_from(n) {
                Ok(id) if isnum != 0 => Got::Usual(id),
                _ => Got::Other,
            }
        }
        _ => Got::Other,
    };
    ffi::lua_pop(l, 1);
    got
}

/// `t[key]` as a number.
///
/// # Safety
/// As [`get`].
unsafe fn number_at(l: *mut ffi::lua_State, t: c_int, key: &'static CStr) -> Option<f64> {
    let n = (get(l, t, key) == ffi::LUA_TNUMBER)
        .then(|| ffi::lua_tonumberx(l, -1, std::ptr::null_mut()));
    ffi::lua_pop(l, 1);
    n
}

/// What the table at `t` stands for, as `queries::thing_of` reads it; `None` when it is not of a usual
/// shape. It owns nothing while it calls the C API, so a Lua error raised there (out of memory) unwinds
/// past no Rust value (the C fast paths of `fast.rs` call it while a script runs).
///
/// # Safety
/// As [`get`].
pub(super) unsafe fn thing_at(l: *mut ffi::lua_State, t: c_int) -> Option<Thing> {
    let token = match get(l, t, c"kind") {
        ffi::LUA_TNIL => false,
        ffi::LUA_TSTRING => matches!(
            bytes_at(l, -1),
            Some(b"opportunity" | b"barricade" | b"trap")
        ),
        _ => {
            ffi::lua_pop(l, 1);
            return None;
        }
    };
    ffi::lua_pop(l, 1);
    match id_at(l, t) {
        Got::Usual(id) if token => return Some(Thing::Token(TokenId(id))),
        Got::Usual(id) => return Some(Thing::Model(ModelId(id))),
        Got::Other => return None,
        Got::Absent if token => return None,
        Got::Absent => {}
    }
    let name = match get(l, t, c"name") {
        ffi::LUA_TNIL => None,
        ffi::LUA_TSTRING => str_at(l, -1).map(str::to_string),
        _ => {
            ffi::lua_pop(l, 1);
            return None;
        }
    };
    ffi::lua_pop(l, 1);
    if let Some(name) = name {
        return Some(Thing::Building(name));
    }
    Some(Thing::Point(crate::geometry::Vec2::new(
        number_at(l, t, c"x")?,
        number_at(l, t, c"y")?,
    )))
}

/// What `t` stands for, when it is of a usual shape.
pub(super) fn thing(lua: &Lua, t: &Table) -> Option<Thing> {
    // SAFETY: `with_table` gives the table's index and room.
    with_table(lua, t, |l, at| unsafe { thing_at(l, at) })
}

/// `t.id` of the table at `t` as a model id, when it is a whole number that fits.
///
/// # Safety
/// As [`get`].
pub(super) unsafe fn model_id_at(l: *mut ffi::lua_State, t: c_int) -> Option<ModelId> {
    match id_at(l, t) {
        Got::Usual(id) => Some(ModelId(id)),
        _ => None,
    }
}

/// For each item of the list `t` (up to the first nil), what `read` makes of it (a table, at the index
/// given); `None` as soon as an item is not a table or `read` gives up.
fn each<R>(
    lua: &Lua,
    t: &Table,
    read: impl Fn(*mut ffi::lua_State, c_int) -> Option<R>,
) -> Option<Vec<R>> {
    with_table(lua, t, |l, at| {
        let mut out = Vec::new();
        // SAFETY: the list is at `at`; each item is pushed above it and popped.
        unsafe {
            for i in 1.. {
                match ffi::lua_rawgeti(l, at, i) {
                    ffi::LUA_TNIL => break,
                    ffi::LUA_TTABLE => {
                        let r = read(l, ffi::lua_gettop(l));
                        ffi::lua_pop(l, 1);
                        out.push(r?);
                    }
                    _ => return None,
                }
            }
        }
        Some(out)
    })
}

/// What each item of the list `t` stands for, when all are of a usual shape.
pub(super) fn things(lua: &Lua, t: &Table) -> Option<Vec<Thing>> {
    // SAFETY: `each` gives each item's index, with room.
    each(lua, t, |l, at| unsafe { thing_at(l, at) })
}

/// The model ids of the list `t`, when every item is a table with a usual `id`.
pub(super) fn model_ids(lua: &Lua, t: &Table) -> Option<Vec<ModelId>> {
    // SAFETY: `each` gives each item's index, with room.
    each(lua, t, |l, at| match unsafe { id_at(l, at) } {
        Got::Usual(id) => Some(ModelId(id)),
        _ => None,
    })
}

/// An option's value, of a usual shape.
pub(super) enum Opt {
    Str(String),
    Bool(bool),
    Int(i64),
    /// A table, as what it stands for.
    Thing(Thing),
}

/// The entries of an options table, when every key is one of `known` and every value of a usual
/// shape (a string, a boolean, a whole number, or a table [`thing`] reads); `None` otherwise, and the
/// mlua reader then answers (with the errors the API documents).
pub(super) fn options(
    lua: &Lua,
    t: &Table,
    known: &[&'static str],
) -> Option<Vec<(&'static str, Opt)>> {
    with_table(lua, t, |l, at| {
        let mut out = Vec::new();
        // SAFETY: `lua_next` walks the table at `at`, key and value pushed above it; each value is
        // popped and the key left for the next step, as the C API wants; a table value is read with
        // the room `with_table` checked.
        unsafe {
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, at) != 0 {
                // Only a string key is read, as bytes (`lua_next` needs its key as it is).
                let key =
                    bytes_at(l, -2).and_then(|k| known.iter().find(|n| n.as_bytes() == k).copied());
                let value = match (key, ffi::lua_type(l, -1)) {
                    (None, _) => None,
                    (Some(_), ffi::LUA_TSTRING) => str_at(l, -1).map(|s| Opt::Str(s.to_string())),
                    (Some(_), ffi::LUA_TBOOLEAN) => Some(Opt::Bool(ffi::lua_toboolean(l, -1) != 0)),
                    (Some(_), ffi::LUA_TNUMBER) => {
                        let mut isnum = 0;
                        let n = ffi::lua_tointegerx(l, -1, &mut isnum);
                        (isnum != 0).then_some(Opt::Int(n))
                    }
                    (Some(_), ffi::LUA_TTABLE) => thing_at(l, ffi::lua_gettop(l)).map(Opt::Thing),
                    _ => None,
                };
                ffi::lua_pop(l, 1);
                match (key, value) {
                    (Some(k), Some(v)) => out.push((k, v)),
                    _ => {
                        ffi::lua_pop(l, 1);
                        return None;
                    }
                }
            }
        }
        Some(out)
    })
}
