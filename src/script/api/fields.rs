//! What each field of a model or building is worth, said once: as a [`Field`] borrowed from the game,
//! which becomes an `mlua::Value` for the handles ([`model_field`], [`building_field`]), or is pushed
//! straight onto a Lua stack through the C API by the views (a field read, and every field at once for
//! `pairs` and before the game changes: `hooks/views.rs`), with no Rust value between the game and the
//! stack.

use super::convert::pos_table;
use crate::geometry::Vec2;
use crate::roster::Rules;
use crate::rules::query::is_engaged;
use crate::state::{Building, Game, Model};
use mlua::ffi;
use mlua::{Lua, Value};
use std::ffi::CStr;
use std::os::raw::c_int;

/// A field's value, borrowed from the game (lists are read from the model when pushed).
pub(crate) enum Field<'a> {
    Nil,
    Int(i64),
    Num(f64),
    Bool(bool),
    Str(&'a str),
    /// `{x = .., y = ..}`
    Pos(Vec2),
    /// `{w = .., h = ..}`
    Size(Vec2),
    Conditions(&'a Model),
    Traits(&'a Model),
    Spells(&'a Model),
    Items(&'a Model),
}

impl<'a> Field<'a> {
    fn opt_str(s: Option<&'a str>) -> Self {
        s.map_or(Field::Nil, Field::Str)
    }
}

/// Field `key` of model `m` (nil for a key that is not a field, or a field without a value).
pub(crate) fn of_model<'a>(game: &Game, rules: &Rules, m: &'a Model, key: &str) -> Field<'a> {
    use Field::*;
    match key {
        "id" => Int(i64::from(m.id.0)),
        "name" => Str(&m.name),
        "kind" => Str(m.kind.as_str()),
        "tier" => Str(m.tier.as_str()),
        "side" => Str(m.side.as_str()),
        "quality" => Int(i64::from(m.quality)),
        "combat" => Int(i64::from(m.combat)),
        "pos" => Pos(m.pos),
        "base" => Num(m.base),
        "wounds" => Int(i64::from(m.wounds)),
        "conditions" => Conditions(m),
        "traits" => Traits(m),
        "weapon" => Field::opt_str(m.weapon.as_deref()),
        "spells" => Spells(m),
        "group" => m.group.map_or(Nil, |g| Int(i64::from(g))),
        "active" => Bool(m.active),
        "engaged" => Bool(is_engaged(game, rules, m.id)),
        "defeated" => Bool(false),
        "weapon_broken" => Bool(m.weapon_broken),
        "charged" => Bool(m.charged),
        "moved" => Num(m.moved),
        "attacks" => Int(i64::from(m.attacks)),
        "activations" => Int(i64::from(m.activations)),
        "declared" => Bool(m.declared),
        "casts" => Int(i64::from(m.casts)),
        "out_of_power" => Bool(m.out_of_power),
        "task" => Field::opt_str(m.task.as_ref().map(|t| t.name.as_str())),
        "actions_left" => Int(i64::from(m.actions_left)),
        "wrecked" => Field::opt_str(m.wrecked.as_deref()),
        "behaviour" => Field::opt_str(m.behaviour.as_deref()),
        "items" => Items(m),
        _ => Nil,
    }
}

/// Field `key` of building `b` (nil for a key that is not a field).
pub(crate) fn of_building<'a>(b: &'a Building, key: &str) -> Field<'a> {
    use Field::*;
    match key {
        "name" => Str(&b.name),
        "integrity" => Int(i64::from(b.integrity)),
        "max_integrity" => Int(i64::from(b.max_integrity)),
        "level" => Int(i64::from(b.level)),
        "destroyed" => Bool(b.destroyed),
        "fire" => Bool(b.fire),
        "town_hall" => Bool(b.town_hall),
        "economic" => Bool(b.economic),
        "pos" => Pos(b.rect.center()),
        "size" => Size(b.rect.size()),
        _ => Nil,
    }
}

/// `g` over the strings of a list field, in order (nil for any other field).
fn with_list<'a, R>(
    f: &Field<'a>,
    g: impl FnOnce(&mut dyn Iterator<Item = &'a str>) -> R,
) -> Option<R> {
    Some(match *f {
        Field::Conditions(m) => g(&mut m.conditions.iter().map(|c| c.as_str())),
        Field::Traits(m) => g(&mut m.all_traits()),
        Field::Spells(m) => g(&mut m.spells.iter().map(String::as_str)),
        Field::Items(m) => g(&mut m.items.iter().map(|i| i.name.as_str())),
        _ => return None,
    })
}

/// A field as a Lua value.
pub(crate) fn to_value(lua: &Lua, f: &Field<'_>) -> mlua::Result<Value> {
    Ok(match *f {
        Field::Nil => Value::Nil,
        Field::Int(i) => Value::Integer(i),
        Field::Num(n) => Value::Number(n),
        Field::Bool(b) => Value::Boolean(b),
        Field::Str(s) => Value::String(lua.create_string(s)?),
        Field::Pos(p) => Value::Table(pos_table(lua, p)?),
        Field::Size(s) => {
            let t = lua.create_table()?;
            t.raw_set("w", s.x)?;
            t.raw_set("h", s.y)?;
            Value::Table(t)
        }
        Field::Conditions(_) | Field::Traits(_) | Field::Spells(_) | Field::Items(_) => {
            match with_list(f, |items| lua.create_sequence_from(items)) {
                Some(t) => Value::Table(t?),
                None => Value::Nil,
            }
        }
    })
}

/// One field of a model on the table, as a value.
pub fn model_field(
    lua: &Lua,
    game: &Game,
    rules: &Rules,
    m: &Model,
    key: &str,
) -> mlua::Result<Value> {
    to_value(lua, &of_model(game, rules, m, key))
}

/// One field of a building, as a value.
pub fn building_field(lua: &Lua, b: &Building, key: &str) -> mlua::Result<Value> {
    to_value(lua, &of_building(b, key))
}

/// Stack room [`push`] needs at most (a table being built, a key, a value).
pub(crate) const ROOM: c_int = 3;

/// Push a string.
///
/// # Safety
/// `l` is a valid state with room for one value. It may raise a Lua error (out of memory): the caller
/// holds no Rust value that needs dropping.
pub(crate) unsafe fn push_str(l: *mut ffi::lua_State, s: &str) {
    ffi::lua_pushlstring(l, s.as_ptr().cast(), s.len());
}

/// The bytes of the string at `idx`, when it is one (valid while it stays on the stack). Only a string
/// is read (a number is never converted in place: `lua_next` needs its keys as they are).
///
/// # Safety
/// `l` is valid and `idx` an acceptable index.
pub(crate) unsafe fn bytes_at<'a>(l: *mut ffi::lua_State, idx: c_int) -> Option<&'a [u8]> {
    if ffi::lua_type(l, idx) != ffi::LUA_TSTRING {
        return None;
    }
    let mut len = 0;
    let p = ffi::lua_tolstring(l, idx, &mut len);
    Some(std::slice::from_raw_parts(p.cast::<u8>(), len))
}

/// The string at `idx` as UTF-8, when it is one ([`bytes_at`]).
///
/// # Safety
/// As [`bytes_at`].
pub(crate) unsafe fn str_at<'a>(l: *mut ffi::lua_State, idx: c_int) -> Option<&'a str> {
    bytes_at(l, idx).and_then(|b| std::str::from_utf8(b).ok())
}

/// Push a key the kernel names in its code (`c"id"`). Lua finds the string of a C literal it has seen
/// before in a cache keyed by its address, without hashing it again as [`push_str`] must: a query reads
/// `id`, `x` and `y` of a dozen tables a call.
///
/// # Safety
/// As [`push_str`].
pub(crate) unsafe fn push_key(l: *mut ffi::lua_State, key: &'static CStr) {
    ffi::lua_pushstring(l, key.as_ptr());
}

/// Set `t[key] = <the value on top>` without metamethods, popping the value; `t` is an absolute index.
///
/// # Safety
/// As [`push_str`]; `t` is a table and a value is on top.
pub(crate) unsafe fn set_field(l: *mut ffi::lua_State, t: c_int, key: &'static CStr) {
    push_key(l, key);
    ffi::lua_insert(l, -2);
    ffi::lua_rawset(l, t);
}

/// Push a table `{a = x, b = y}`.
///
/// # Safety
/// As [`push_str`], with room for three values.
unsafe fn push_pair(l: *mut ffi::lua_State, (a, b): (&'static CStr, &'static CStr), v: Vec2) {
    ffi::lua_createtable(l, 0, 2);
    let t = ffi::lua_gettop(l);
    ffi::lua_pushnumber(l, v.x);
    set_field(l, t, a);
    ffi::lua_pushnumber(l, v.y);
    set_field(l, t, b);
}

/// Push a field's value.
///
/// # Safety
/// `l` is a valid state with [`ROOM`] free slots. It may raise a Lua error (out of memory): the caller
/// holds no Rust value that needs dropping (`f` borrows).
pub(crate) unsafe fn push(l: *mut ffi::lua_State, f: &Field<'_>) {
    match *f {
        Field::Nil => ffi::lua_pushnil(l),
        Field::Int(i) => ffi::lua_pushinteger(l, i),
        Field::Num(n) => ffi::lua_pushnumber(l, n),
        Field::Bool(b) => ffi::lua_pushboolean(l, c_int::from(b)),
        Field::Str(s) => push_str(l, s),
        Field::Pos(p) => push_pair(l, (c"x", c"y"), p),
        Field::Size(s) => push_pair(l, (c"w", c"h"), s),
        Field::Conditions(_) | Field::Traits(_) | Field::Spells(_) | Field::Items(_) => {
            ffi::lua_createtable(l, 0, 0);
            // The iterator borrows the model and owns nothing: an error raised by a push leaves
            // nothing to drop.
            with_list(f, |items| {
                for (i, s) in items.enumerate() {
                    push_str(l, s);
                    ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
                }
            });
        }
    }
}

/// Push a roster entry's `params` as a table, made as mlua's serde makes it from them (`convert::to_lua`:
/// the same constructors in the same order, so a script walking it with `pairs` sees the same order):
/// a hook call hands its script the params of the entry that names it, and the serde path cost about
/// twice this.
///
/// # Safety
/// As [`push_str`]; the kernel's own work (no memory limit), so it raises no error short of the
/// process running out of memory.
pub(crate) unsafe fn push_params(l: *mut ffi::lua_State, params: &crate::roster::Params) {
    ffi::luaL_checkstack(l, 3, std::ptr::null());
    ffi::lua_createtable(l, 0, c_int::try_from(params.len()).unwrap_or(0));
    for (k, v) in params {
        push_str(l, k);
        push_param(l, v);
        ffi::lua_rawset(l, -3);
    }
}

/// One value of a roster entry's `params` (see [`push_params`]).
unsafe fn push_param(l: *mut ffi::lua_State, v: &crate::roster::ParamValue) {
    use crate::roster::ParamValue;
    match v {
        ParamValue::Bool(b) => ffi::lua_pushboolean(l, c_int::from(*b)),
        ParamValue::Int(i) => ffi::lua_pushinteger(l, *i),
        ParamValue::Float(x) => ffi::lua_pushnumber(l, *x),
        ParamValue::Text(t) => push_str(l, t),
        ParamValue::List(items) => {
            ffi::luaL_checkstack(l, 2, std::ptr::null());
            ffi::lua_createtable(l, c_int::try_from(items.len()).unwrap_or(0), 0);
            for (i, item) in items.iter().enumerate() {
                push_param(l, item);
                ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
            }
        }
        ParamValue::Table(t) => push_params(l, t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys and values of `t` in the order `pairs` walks them, nested tables as lists of theirs.
    fn walked(t: &mlua::Table) -> String {
        let mut out = Vec::new();
        for pair in t.pairs::<Value, Value>() {
            let (k, v) = pair.expect("a pair");
            let v = match v {
                Value::Table(inner) => format!("{{{}}}", walked(&inner)),
                other => format!("{other:?}"),
            };
            out.push(format!("{k:?}={v}"));
        }
        out.join(",")
    }

    /// `push_params` makes the table serde makes: the same values of the same types, walked by `pairs`
    /// in the same order.
    #[test]
    fn params_pushed_are_the_table_serde_makes() {
        let params: crate::roster::Params = toml::from_str(
            r#"
            per_wave = 1
            within = "medium"
            ratio = 0.5
            lethal = true
            avoid = ["Bog", "Pond", "Rocks"]
            nested = { a = 1, b = [2.5, "x"], c = { d = false } }
            zeta = 9
            alpha = "first"
            "#,
        )
        .expect("params");
        let lua = Lua::new();
        let by_serde = match crate::script::api::convert::to_lua(&lua, &params).expect("serde") {
            Value::Table(t) => t,
            other => panic!("serde made {other:?}"),
        };
        // SAFETY: a plain state; `push_params` leaves the table on the stack.
        let pushed: mlua::Table = unsafe {
            lua.exec_raw((), |l| push_params(l, &params))
                .expect("pushed")
        };
        assert_eq!(walked(&pushed), walked(&by_serde));
        assert!(walked(&pushed).contains("Integer(1)") && walked(&pushed).contains("Number(0.5)"));
    }
}
