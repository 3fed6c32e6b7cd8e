//! Conversions between Lua values and kernel types: positions, errors with the caller's file:line,
//! serde values without `null` sentinels.

use crate::geometry::Vec2;
use mlua::{ffi, Lua, LuaSerdeExt, Table, Value};
use serde::Serialize;

/// Serde options: `None` becomes `nil`, arrays carry no metatable.
pub fn ser_options() -> mlua::serde::SerializeOptions {
    mlua::serde::SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false)
        .set_array_metatable(false)
}

/// Any serde value as a plain Lua value.
pub fn to_lua<T: Serialize + ?Sized>(lua: &Lua, v: &T) -> mlua::Result<Value> {
    lua.to_value_with(v, ser_options())
}

/// Whether a stack level's source is not a script's: a C function, mlua's own helper chunks (its
/// `__index` wrapper), the views' chunk (`hooks/views.rs`) or the sandbox's own Lua (`vm.rs`: its
/// `pcall`, `xpcall` and `coroutine.resume` and the wrappers of the charged C functions, whose lines
/// mean nothing to a script's author). An error is located past them.
pub fn skipped_source(src: &str) -> bool {
    src.starts_with("__mlua") || src == "[C]" || src == "village.view" || src == "sandbox"
}

/// "file:line:" of the Lua code that called the current Rust function, when there is one.
pub fn caller(lua: &Lua) -> String {
    // SAFETY: the state is the running one; `caller_at` only reads the call stack.
    lua.exec_raw_lua(|raw| unsafe { caller_at(raw.state()) })
}

/// [`caller`] for a raw Lua state (a C function of the kernel's): the first stack level past the
/// [`skipped_source`]s, as "file:line: ".
///
/// # Safety
/// `l` is a valid Lua state.
pub(crate) unsafe fn caller_at(l: *mut mlua::ffi::lua_State) -> String {
    use mlua::ffi;
    for level in 1..8 {
        let mut ar: ffi::lua_Debug = std::mem::zeroed();
        if ffi::lua_getstack(l, level, &mut ar) == 0 {
            break;
        }
        if ffi::lua_getinfo(l, c"Sl".as_ptr(), &mut ar) == 0 {
            continue;
        }
        let src = std::ffi::CStr::from_ptr(ar.short_src.as_ptr()).to_string_lossy();
        if skipped_source(&src) || ar.currentline < 0 {
            continue;
        }
        return format!("{src}:{}: ", ar.currentline);
    }
    String::new()
}

/// A runtime error located at the Lua caller, as Lua's own errors are.
pub fn fail(lua: &Lua, msg: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::runtime(format!("{}{msg}", caller(lua)))
}

/// A whole-number argument `name` of the method `method` (`ctx:roll`) from `lo` to `hi`. NaN, an
/// infinity, a fraction, a number out of range or another type is refused with its value, located at
/// the script's line (mlua's own conversion said "error converting Lua number to usize" and no more).
pub fn whole_arg(
    lua: &Lua,
    method: &str,
    name: &str,
    v: &Value,
    lo: i64,
    hi: i64,
) -> mlua::Result<i64> {
    let p = super::answer::plain_leaf(v);
    match super::answer::whole(&p) {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(fail(
            lua,
            format!(
                "{method}: {name} = {} (expected a whole number from {lo} to {hi})",
                super::answer::describe(&p)
            ),
        )),
    }
}

/// An optional text argument `name` of `method`: nil or a string (at most [`MAX_LOG_TEXT`] bytes when
/// it goes to the log), anything else refused at the script's line.
pub fn text_arg(lua: &Lua, method: &str, name: &str, v: &Value) -> mlua::Result<Option<String>> {
    match v {
        Value::Nil => Ok(None),
        Value::String(s) if s.as_bytes().len() > MAX_LOG_TEXT => Err(fail(
            lua,
            format!(
                "{method}'s {name} is {} bytes long: text for the log is at most {MAX_LOG_TEXT} bytes",
                s.as_bytes().len()
            ),
        )),
        Value::String(s) => Ok(Some(s.to_string_lossy())),
        other => Err(fail(
            lua,
            format!(
                "{method}: {name} = {} (expected a string)",
                super::answer::describe(&super::answer::plain_leaf(other))
            ),
        )),
    }
}

/// A side from its script name, `"heroes"` or `"enemies"`; the error is located at the Lua caller.
pub fn side_arg(lua: &Lua, name: &str) -> mlua::Result<crate::state::Side> {
    match name {
        "heroes" => Ok(crate::state::Side::Heroes),
        "enemies" => Ok(crate::state::Side::Enemies),
        other => Err(fail(
            lua,
            format!("side must be \"heroes\" or \"enemies\", got {other:?}"),
        )),
    }
}

/// A position from `{x = 1, y = 2}` or `{1, 2}`.
pub fn to_pos(lua: &Lua, v: &Value) -> mlua::Result<Vec2> {
    let Value::Table(t) = v else {
        return Err(fail(
            lua,
            format!(
                "expected a position {{x = .., y = ..}}, got {}",
                v.type_name()
            ),
        ));
    };
    let pick = |named: &str, index: i64| -> mlua::Result<f64> {
        match t.raw_get::<Value>(named)? {
            Value::Nil => t.raw_get::<Option<f64>>(index)?.ok_or_else(|| {
                fail(
                    lua,
                    format!("a position needs `{named}` (or a number at [{index}])"),
                )
            }),
            Value::Integer(i) => Ok(i as f64),
            Value::Number(n) => Ok(n),
            other => Err(fail(
                lua,
                format!("`{named}` must be a number, got {}", other.type_name()),
            )),
        }
    };
    let p = Vec2::new(pick("x", 1)?, pick("y", 2)?);
    crate::geometry::check::finite_point("position", p).map_err(|e| fail(lua, e))
}

/// A position that must lie on `table` (where something is placed or moved to): as [`to_pos`], and
/// refused, located at the Lua caller, when it is off the table; `what` names the argument.
pub fn to_table_pos(
    lua: &Lua,
    v: &Value,
    table: &crate::geometry::Table,
    what: &str,
) -> mlua::Result<Vec2> {
    let p = to_pos(lua, v)?;
    crate::geometry::check::point_on(table, what, p).map_err(|e| fail(lua, e))
}

/// An optional distance in inches from an options table: absent is `None`; NaN, infinite, negative or
/// not a number is refused, located at the Lua caller.
pub fn distance_opt(lua: &Lua, opts: &Option<Table>, name: &str) -> mlua::Result<Option<f64>> {
    let Some(t) = opts else {
        return Ok(None);
    };
    let d = match t.raw_get::<Value>(name)? {
        Value::Nil => return Ok(None),
        Value::Integer(i) => i as f64,
        Value::Number(n) => n,
        other => {
            return Err(fail(
                lua,
                format!(
                    "option `{name}` must be a number of inches, got {}",
                    other.type_name()
                ),
            ))
        }
    };
    crate::geometry::check::distance(name, d)
        .map(Some)
        .map_err(|e| fail(lua, e))
}

/// `{x = .., y = ..}`.
pub fn pos_table(lua: &Lua, p: Vec2) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(0, 2)?;
    t.raw_set("x", p.x)?;
    t.raw_set("y", p.y)?;
    Ok(t)
}

/// A boolean option from an options table (absent → false).
pub fn flag(lua: &Lua, opts: &Option<Table>, name: &str) -> mlua::Result<bool> {
    let Some(t) = opts else {
        return Ok(false);
    };
    match t.raw_get::<Value>(name)? {
        Value::Nil => Ok(false),
        Value::Boolean(b) => Ok(b),
        other => Err(fail(
            lua,
            format!(
                "option `{name}` must be true or false, got {}",
                other.type_name()
            ),
        )),
    }
}

/// Refuse option keys outside `known`, so a misspelt option is an error rather than silently ignored.
pub fn check_options(lua: &Lua, opts: &Option<Table>, known: &[&str]) -> mlua::Result<()> {
    let Some(t) = opts else {
        return Ok(());
    };
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair?;
        let name = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => format!("{other:?}"),
        };
        if !known.contains(&name.as_str()) {
            return Err(fail(
                lua,
                format!(
                    "unknown option `{name}` (expected one of: {})",
                    known.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// A script's table read once, key by key (an options table, an order): each later lookup is a
/// comparison of bytes in Rust instead of a string pushed into Lua and looked up there.
pub struct Entries(Vec<(Box<[u8]>, Value)>);

impl Entries {
    /// Every string-keyed entry of `t` (other keys are left out), read in one walk of the table
    /// through the C API (mlua's pair iterator cost more than the order it read).
    pub fn of(t: &Table) -> mlua::Result<Entries> {
        Self::read(t, |_| true).map(|(e, _)| e)
    }

    /// The entries of `t` with a string key that `keep` accepts, and whether every entry was one.
    fn read(t: &Table, keep: impl Fn(&[u8]) -> bool) -> mlua::Result<(Entries, bool)> {
        let (mut out, mut all) = (Vec::new(), true);
        walk(t, |raw, key| {
            // SAFETY: the value is on top (`walk`); it is popped either way.
            unsafe {
                match key {
                    Some(k) if keep(k) => out.push((k.into(), raw.pop_value())),
                    _ => {
                        all = false;
                        ffi::lua_pop(raw.state(), 1);
                    }
                }
            }
            true
        })?;
        Ok((Entries(out), all))
    }

    /// Whether every key of `t` is a string `allowed` names, read in one walk through the C API.
    pub fn keys_within(t: &Table, allowed: &[&str]) -> mlua::Result<bool> {
        let mut all = true;
        walk(t, |raw, key| {
            all = key.is_some_and(|k| allowed.iter().any(|a| a.as_bytes() == k));
            // SAFETY: the value is on top (`walk`).
            unsafe { ffi::lua_pop(raw.state(), 1) };
            all
        })?;
        Ok(all)
    }

    /// The entries of an options table whose every key must be one of `known` (as
    /// [`check_options`] would have it), read in one pass.
    pub fn options(lua: &Lua, t: &Table, known: &[&str]) -> mlua::Result<Entries> {
        let (entries, all) = Self::read(t, |k| known.iter().any(|n| n.as_bytes() == k))?;
        if all {
            return Ok(entries);
        }
        // Refused with check_options' own words.
        check_options(lua, &Some(t.clone()), known).map(|_| entries)
    }

    /// The value under `key`, nil when absent.
    pub fn get(&self, key: &str) -> Value {
        self.0
            .iter()
            .find(|(k, _)| &k[..] == key.as_bytes())
            .map_or(Value::Nil, |(_, v)| v.clone())
    }

    /// The value under `key` converted as `raw_get` would.
    pub fn get_as<T: mlua::FromLua>(&self, lua: &Lua, key: &str) -> mlua::Result<T> {
        T::from_lua(self.get(key), lua)
    }
}

/// Walk the table `t` through the C API (mlua's pair iterator cost more than what it read): `visit` is
/// given each key, as bytes when it is a string, with its value on top of the stack; it pops the value
/// (taking it or not) and says whether to go on.
fn walk(
    t: &Table,
    mut visit: impl FnMut(&mlua::state::RawLua, Option<&[u8]>) -> bool,
) -> mlua::Result<()> {
    let lua = t.weak_lua().upgrade();
    lua.exec_raw_lua(|raw| {
        // SAFETY: room is checked and the stack left as found. `lua_next` walks the table from nil
        // with the keys it returns and nothing is written meanwhile, so it raises no error; the kernel
        // reads outside any script's memory limit, as mlua's own iterator does. A key's bytes live
        // while the key stays on the stack, through `visit`.
        unsafe {
            let l = raw.state();
            let top = ffi::lua_gettop(l);
            if ffi::lua_checkstack(l, 4) == 0 {
                return Err(mlua::Error::runtime(
                    "out of Lua stack space reading a table",
                ));
            }
            raw.push(t)?;
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, top + 1) != 0 {
                let key = (ffi::lua_type(l, -2) == ffi::LUA_TSTRING).then(|| {
                    let mut len = 0;
                    let p = ffi::lua_tolstring(l, -2, &mut len);
                    std::slice::from_raw_parts(p.cast::<u8>(), len)
                });
                if !visit(raw, key) {
                    break;
                }
            }
            ffi::lua_settop(l, top);
            Ok(())
        }
    })
}

/// The longest free text a script may put in the log (a roll's purpose, a modifier's reason): the log
/// lives outside the VM's memory limit, so a megabyte-long reason repeated in a loop must not grow it.
pub const MAX_LOG_TEXT: usize = 1024;

/// `text` if it fits in the log ([`MAX_LOG_TEXT`] bytes), or an error naming what it was.
pub fn log_text(text: Option<String>, what: &str) -> mlua::Result<Option<String>> {
    match text {
        Some(t) if t.len() > MAX_LOG_TEXT => Err(mlua::Error::runtime(format!(
            "{what} is {} bytes long: text for the log is at most {MAX_LOG_TEXT} bytes",
            t.len()
        ))),
        t => Ok(t),
    }
}
