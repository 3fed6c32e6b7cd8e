//! Fast paths for the `ctx` methods scripts call most, as C functions in front of mlua's: `ctx:rule`
//! is asked over a thousand times a game (the activation dice, the measures), and mlua's general
//! method glue (borrowing the userdata, converting the arguments, the kernel's mode) cost several
//! times the answer. A fast path answers only the usual case (a running call, string arguments, a
//! rule that is a number, a boolean or a string) straight through the C API; anything else — a ctx
//! kept past its call, a misspelt rule, a wrong argument, profiling on — goes to the mlua method it
//! stands in front of, so every answer and every error is the method's own.

use super::handle::live_ctx_of;
use crate::script::api::fields::{push_str, str_at};
use mlua::ffi;
use std::os::raw::c_int;

/// Put the fast paths in front of their methods in `methods` (an absolute stack index of the `ctx`
/// type's method table), each keeping the mlua method as its upvalue. A method the table lacks is
/// left alone.
///
/// # Safety
/// `l` is valid with room for three values; `methods` is a table.
pub(super) unsafe fn install(l: *mut ffi::lua_State, methods: c_int) {
    let name = super::ctx_api::api("rule");
    push_str(l, name);
    if ffi::lua_rawget(l, methods) != ffi::LUA_TFUNCTION {
        ffi::lua_pop(l, 1);
        return;
    }
    ffi::lua_pushcclosure(l, rule, 1);
    push_str(l, name);
    ffi::lua_insert(l, -2);
    ffi::lua_rawset(l, methods);
}

/// A rule constant of the usual kinds, borrowed from the call's rules.
enum Constant<'a> {
    Int(i64),
    Num(f64),
    Bool(bool),
    Str(&'a str),
}

/// `ctx:rule(section, key)`: the constant, pushed from the call's rules; any other case is the mlua
/// method's (upvalue 1), called with the same arguments.
///
/// A C function in the shape of the views' `fill`: the lookup holds nothing that needs dropping once
/// it is done, so a Lua error while pushing (out of memory) unwinds past no Rust value.
unsafe extern "C-unwind" fn rule(l: *mut ffi::lua_State) -> c_int {
    if let Some(c) = answer(l) {
        match c {
            Constant::Int(n) => ffi::lua_pushinteger(l, n),
            Constant::Num(x) => ffi::lua_pushnumber(l, x),
            Constant::Bool(b) => ffi::lua_pushboolean(l, c_int::from(b)),
            Constant::Str(s) => push_str(l, s),
        }
        return 1;
    }
    // The mlua method, with every argument as given.
    let n = ffi::lua_gettop(l);
    ffi::lua_pushvalue(l, ffi::lua_upvalueindex(1));
    ffi::lua_insert(l, 1);
    ffi::lua_call(l, n, ffi::LUA_MULTRET);
    ffi::lua_gettop(l)
}

/// The usual case of `ctx:rule`, or `None` for the mlua method to answer.
///
/// # Safety
/// `l` is the running state of a call of [`rule`].
unsafe fn answer<'a>(l: *mut ffi::lua_State) -> Option<Constant<'a>> {
    if crate::script::host::PROFILING.load(std::sync::atomic::Ordering::Relaxed)
        || ffi::lua_gettop(l) != 3
        || ffi::lua_type(l, 2) != ffi::LUA_TSTRING
        || ffi::lua_type(l, 3) != ffi::LUA_TSTRING
    {
        return None;
    }
    let (section, key) = (str_at(l, 2)?, str_at(l, 3)?);
    let ctx = live_ctx_of(ffi::lua_touserdata(l, 1))?;
    // SAFETY: the call is running and not changing the game (`live_ctx_of`), so its `Ctx` and the
    // rules it borrows outlive this C call; they are read here only.
    let rules: &'a serde_json::Value = ctx.as_ref().rules_json;
    // A panic must not unwind into Lua's C frames.
    std::panic::catch_unwind(|| {
        // As `convert::to_lua` gives them: a whole number as an integer, others as floats.
        match rules.get(section)?.get(key)? {
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => Some(Constant::Int(i)),
                None if n.is_f64() => n.as_f64().map(Constant::Num),
                None => None,
            },
            serde_json::Value::Bool(b) => Some(Constant::Bool(*b)),
            serde_json::Value::String(s) => Some(Constant::Str(s)),
            _ => None,
        }
    })
    .ok()
    .flatten()
}
