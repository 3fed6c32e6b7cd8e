//! The Lua side of the metered matcher: argument checks and coercions as `luaL_check*` do them,
//! results, replacement tables and functions, and errors raised with the caller's `file:line:`.

use super::*;
use mlua::{Function, Lua, LuaString, MultiValue, Table, Value};
use std::cell::Cell;
use std::rc::Rc;

/// The charge callback [`install`] takes: called with units of matcher work; an `Err` (the budget
/// error) stops the call and is raised as is.
pub(crate) type Charge = Rc<dyn Fn(&Lua, u64) -> mlua::Result<()>>;

/// The Lua side of every function: `wrap(core)` returns a function that calls `core`, which answers
/// `true, results...` or `false, error value`, and raises the error value as a plain Lua error (a
/// Rust callback could only raise an mlua error object, not Lua's message string). `index` reads a
/// table with its metamethods, under `pcall`, for table replacements.
const SHIM: &str = r#"
local error = ...
local function finish(ok, ...)
  if ok then return ... end
  error((...), 0)
end
local function wrap(core)
  return function(...) return finish(core(...)) end
end
local function index(t, k) return t[k] end
return wrap, index
"#;

/// What the installed functions share.
struct Glue {
    charge: Charge,
    wrap: Function,
    index: Function,
    pcall: Function,
}

/// How a glue function stops short of its results.
enum Stop {
    /// Lua's error message without the position prefix: raised as `file:line: message`.
    Lua(String),
    /// A Lua error value from a replacement function or `__index`: raised unchanged.
    Raise(Value),
    /// An mlua error (the charge callback's, or a failed allocation): returned to mlua as is.
    Rust(mlua::Error),
}

impl From<mlua::Error> for Stop {
    fn from(e: mlua::Error) -> Self {
        Stop::Rust(e)
    }
}

impl From<mlua::Error> for MatchError<Stop> {
    fn from(e: mlua::Error) -> Self {
        MatchError::Host(Stop::Rust(e))
    }
}

impl From<MatchError<Stop>> for Stop {
    fn from(e: MatchError<Stop>) -> Self {
        match e {
            MatchError::Lua(msg) => Stop::Lua(msg),
            MatchError::Host(stop) => stop,
        }
    }
}

/// Replaces `string.find`, `string.match`, `string.gmatch` and `string.gsub` in the VM's `string`
/// table (which is also the string metatable's `__index`, so `s:find(...)` follows) with the metered
/// port. `charge` is called with the units of matcher work (see the module docs); replacement
/// functions and `__index` metamethods run as Lua code under the instruction hook as usual.
///
/// Uses the `error` and `pcall` found in the globals at the time of the call; installing after the
/// sandbox has wrapped `pcall` is fine (an exhausted budget is still re-raised).
pub(crate) fn install(lua: &Lua, charge: Charge) -> mlua::Result<()> {
    let globals = lua.globals();
    let string: Table = globals.get("string")?;
    let error: Function = globals.get("error")?;
    let pcall: Function = globals.get("pcall")?;
    let (wrap, index): (Function, Function) = lua
        .load(SHIM)
        .set_name("=sandbox")
        .into_function()?
        .call(error)?;
    let glue = Rc::new(Glue {
        charge,
        wrap,
        index,
        pcall,
    });

    let g = glue.clone();
    let find = lua.create_function(move |lua, args: MultiValue| {
        conclude(lua, find_glue(lua, &g, &args, true))
    })?;
    let g = glue.clone();
    let matcher = lua.create_function(move |lua, args: MultiValue| {
        conclude(lua, find_glue(lua, &g, &args, false))
    })?;
    let g = glue.clone();
    let gmatch = lua
        .create_function(move |lua, args: MultiValue| conclude(lua, gmatch_glue(lua, &g, &args)))?;
    let g = glue.clone();
    let gsub =
        lua.create_function(move |lua, args: MultiValue| conclude(lua, gsub_glue(lua, &g, &args)))?;
    for (name, core) in [
        ("find", find),
        ("match", matcher),
        ("gmatch", gmatch),
        ("gsub", gsub),
    ] {
        string.set(name, glue.wrap.call::<Function>(core)?)?;
    }
    Ok(())
}

/// Turns a glue result into the shim's `ok, ...` convention.
fn conclude(lua: &Lua, res: Result<Vec<Value>, Stop>) -> mlua::Result<MultiValue> {
    let (ok, values) = match res {
        Ok(values) => (true, values),
        Err(Stop::Lua(msg)) => {
            let msg = lua.create_string(format!("{}{msg}", location(lua)))?;
            (false, vec![Value::String(msg)])
        }
        Err(Stop::Raise(v)) => (false, vec![v]),
        Err(Stop::Rust(e)) => return Err(e),
    };
    let mut out = MultiValue::with_capacity(values.len() + 1);
    out.push_back(Value::Boolean(ok));
    out.extend(values);
    Ok(out)
}

/// Stack levels seen from a glue function: 0 is the Rust function, 1 the shim around it (where a C
/// function itself would be), 2 the caller of the shim.
const SHIM_LEVEL: usize = 1;

/// `luaL_where(L, 1)` as the C function would see it: the caller's `file:line: `, or nothing.
fn location(lua: &Lua) -> String {
    lua.inspect_stack(SHIM_LEVEL + 1, |d| {
        let line = d.current_line().filter(|&l| l > 0)?;
        let src = d.source();
        Some(format!(
            "{}:{line}: ",
            src.short_src.as_deref().unwrap_or("?")
        ))
    })
    .flatten()
    .unwrap_or_default()
}

/// `luaL_argerror`: the message for a bad argument `arg`, named as Lua names the function.
fn arg_error(lua: &Lua, arg: usize, extramsg: &str) -> Stop {
    let info = lua.inspect_stack(SHIM_LEVEL, |d| {
        let names = d.names();
        let name = names.name.map(|n| n.into_owned());
        let method = names.name_what == Some("method");
        let func = if name.is_none() {
            Some(d.function())
        } else {
            None
        };
        (name, method, func)
    });
    let Some((name, method, func)) = info else {
        return Stop::Lua(format!("bad argument #{arg} ({extramsg})"));
    };
    let mut arg = arg;
    if method {
        arg -= 1; // do not count 'self'
        if arg == 0 {
            let name = name.as_deref().unwrap_or("?");
            return Stop::Lua(format!("calling '{name}' on bad self ({extramsg})"));
        }
    }
    let name = name
        .or_else(|| func.and_then(|f| global_func_name(lua, &f)))
        .unwrap_or_else(|| "?".to_string());
    Stop::Lua(format!("bad argument #{arg} to '{name}' ({extramsg})"))
}

/// `pushglobalfuncname`: the function's name in a loaded module (`string.find`), `_G.` dropped.
fn global_func_name(lua: &Lua, func: &Function) -> Option<String> {
    let loaded: Table = lua.named_registry_value("_LOADED").ok()?;
    let is_func = |v: &Value| matches!(v, Value::Function(f) if f == func);
    let mut found = None;
    'modules: for pair in loaded.pairs::<Value, Value>() {
        let Ok((Value::String(module), value)) = pair else {
            continue;
        };
        let module = module.to_string_lossy();
        if is_func(&value) {
            found = Some(module);
            break;
        }
        if let Value::Table(t) = value {
            for pair in t.pairs::<Value, Value>() {
                if let Ok((Value::String(field), v)) = pair {
                    if is_func(&v) {
                        found = Some(format!("{module}.{}", field.to_string_lossy()));
                        break 'modules;
                    }
                }
            }
        }
    }
    found.map(|n| n.strip_prefix("_G.").map(str::to_string).unwrap_or(n))
}

/// `luaL_typename`.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Nil => "nil",
        Value::Boolean(_) => "boolean",
        Value::Integer(_) | Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Table(_) => "table",
        Value::Function(_) => "function",
        Value::Thread(_) => "thread",
        _ => "userdata",
    }
}

/// `luaL_typeerror`: `expected` wanted, `v` (none when absent) given; `__name` names the given type.
fn type_error(lua: &Lua, arg: usize, expected: &str, v: Option<&Value>) -> Stop {
    let name_field = |mt: Option<Table>| match mt.map(|mt| mt.raw_get::<Value>("__name")) {
        Some(Ok(Value::String(s))) => Some(s.to_string_lossy()),
        _ => None,
    };
    let got = match v {
        None => "no value".to_string(),
        Some(Value::Table(t)) => name_field(t.metatable()).unwrap_or_else(|| "table".into()),
        Some(Value::UserData(ud)) => {
            match ud.metatable().and_then(|mt| mt.get::<Value>("__name")) {
                Ok(Value::String(s)) => s.to_string_lossy(),
                _ => "userdata".into(),
            }
        }
        Some(Value::LightUserData(_)) => "light userdata".into(),
        Some(v) => type_name(v).into(),
    };
    arg_error(lua, arg, &format!("{expected} expected, got {got}"))
}

/// `luaL_checklstring`: a string, or a number as `tostring` writes it.
fn check_string(lua: &Lua, args: &MultiValue, arg: usize) -> Result<LuaString, Stop> {
    let v = args.get(arg - 1);
    match v {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(n @ (Value::Integer(_) | Value::Number(_))) => match lua.coerce_string(n.clone())? {
            Some(s) => Ok(s),
            None => Err(type_error(lua, arg, "string", v)),
        },
        _ => Err(type_error(lua, arg, "string", v)),
    }
}

/// `luaL_optinteger`: `default` when absent or nil; numbers and numeric strings with an exact
/// integer value are accepted.
fn opt_integer(lua: &Lua, args: &MultiValue, arg: usize, default: i64) -> Result<i64, Stop> {
    match args.get(arg - 1) {
        None | Some(Value::Nil) => Ok(default),
        Some(Value::Integer(n)) => Ok(*n),
        Some(v) => {
            if let Some(n) = lua.coerce_integer(v.clone())? {
                Ok(n)
            } else if lua.coerce_number(v.clone())?.is_some() {
                Err(arg_error(lua, arg, "number has no integer representation"))
            } else {
                Err(type_error(lua, arg, "number", Some(v)))
            }
        }
    }
}

fn capture_value(lua: &Lua, c: Capture<'_>) -> mlua::Result<Value> {
    Ok(match c {
        Capture::Text(t) => Value::String(lua.create_string(t)?),
        Capture::Position(i) => Value::Integer(i as i64),
    })
}

fn capture_values(lua: &Lua, captures: &[Capture<'_>]) -> mlua::Result<Vec<Value>> {
    captures.iter().map(|&c| capture_value(lua, c)).collect()
}

/// The charge callback of the core, over the glue's.
fn charger<'a>(lua: &'a Lua, glue: &'a Glue) -> impl FnMut(u64) -> Result<(), Stop> + 'a {
    move |units| (glue.charge)(lua, units).map_err(Stop::Rust)
}

/// `string.find` (`find`) and `string.match`.
fn find_glue(lua: &Lua, glue: &Glue, args: &MultiValue, find: bool) -> Result<Vec<Value>, Stop> {
    let s = check_string(lua, args, 1)?;
    let p = check_string(lua, args, 2)?;
    let init = opt_integer(lua, args, 3, 1)?;
    let (s, p) = (s.as_bytes(), p.as_bytes());
    let mut charge = charger(lua, glue);
    if find {
        let plain = args
            .get(3)
            .is_some_and(|v| !matches!(v, Value::Nil | Value::Boolean(false)));
        Ok(match self::find(&s, &p, init, plain, &mut charge)? {
            Some(found) => {
                let mut out = vec![
                    Value::Integer(found.start as i64),
                    Value::Integer(found.end as i64),
                ];
                out.extend(capture_values(lua, &found.captures)?);
                out
            }
            None => vec![Value::Nil],
        })
    } else {
        Ok(match str_match(&s, &p, init, &mut charge)? {
            Some(captures) => capture_values(lua, &captures)?,
            None => vec![Value::Nil],
        })
    }
}

/// `string.gmatch`: returns the (shim-wrapped) iterator.
fn gmatch_glue(lua: &Lua, glue: &Rc<Glue>, args: &MultiValue) -> Result<Vec<Value>, Stop> {
    let s = check_string(lua, args, 1)?;
    let p = check_string(lua, args, 2)?;
    let init = opt_integer(lua, args, 3, 1)?;
    // A Cell of a Copy state: a re-entrant call cannot panic on a borrow.
    let state = Cell::new(GMatch::new(s.as_bytes().len(), init));
    let g = glue.clone();
    let iter = lua.create_function(move |lua, _: MultiValue| {
        let step = || -> Result<Vec<Value>, Stop> {
            let (sb, pb) = (s.as_bytes(), p.as_bytes());
            let mut st = state.get();
            let res = st.next(&sb, &pb, &mut charger(lua, &g));
            state.set(st);
            Ok(match res? {
                Some(captures) => capture_values(lua, &captures)?,
                None => Vec::new(),
            })
        };
        conclude(lua, step())
    })?;
    Ok(vec![Value::Function(glue.wrap.call(iter)?)])
}

/// The end of C's `add_value`: append a replacement value, or say to keep the match.
fn append_value(lua: &Lua, v: Value, out: &mut Vec<u8>) -> Result<bool, MatchError<Stop>> {
    match v {
        Value::Nil | Value::Boolean(false) => Ok(false),
        Value::String(s) => {
            out.extend_from_slice(&s.as_bytes());
            Ok(true)
        }
        Value::Integer(_) | Value::Number(_) => match lua.coerce_string(v)? {
            Some(s) => {
                out.extend_from_slice(&s.as_bytes());
                Ok(true)
            }
            None => Ok(false),
        },
        other => Err(MatchError::Lua(format!(
            "invalid replacement value (a {})",
            type_name(&other)
        ))),
    }
}

/// Calls `pcall(args...)` and returns the first result, or the error value to re-raise.
fn protected_call(glue: &Glue, args: MultiValue) -> Result<Value, MatchError<Stop>> {
    let mut res = glue.pcall.call::<MultiValue>(args)?.into_iter();
    match res.next() {
        Some(Value::Boolean(true)) => Ok(res.next().unwrap_or(Value::Nil)),
        _ => Err(MatchError::Host(Stop::Raise(
            res.next().unwrap_or(Value::Nil),
        ))),
    }
}

/// `string.gsub`.
fn gsub_glue(lua: &Lua, glue: &Glue, args: &MultiValue) -> Result<Vec<Value>, Stop> {
    let src = check_string(lua, args, 1)?;
    let p = check_string(lua, args, 2)?;
    let repl = args.get(2);
    let srcb = src.as_bytes();
    // As in C, `n` is checked before the replacement's type.
    let max_n = opt_integer(lua, args, 4, (srcb.len() as i64).saturating_add(1))?;
    let pb = p.as_bytes();
    let mut charge = charger(lua, glue);
    let result = match repl {
        Some(v @ (Value::String(_) | Value::Integer(_) | Value::Number(_))) => {
            let text = match lua.coerce_string(v.clone())? {
                Some(t) => t,
                None => return Err(type_error(lua, 3, "string/function/table", repl)),
            };
            let text = text.as_bytes();
            gsub(&srcb, &pb, Replacement::Text(&text), max_n, &mut charge)?
        }
        Some(Value::Table(t)) => {
            let plain = t.metatable().is_none();
            let mut lookup = |key: Capture<'_>, out: &mut Vec<u8>| {
                let key = capture_value(lua, key)?;
                // Without a metatable a raw read is the same and cannot fail; otherwise `t[k]` runs
                // in Lua so `__index` behaves (and fails) as under C's lua_gettable.
                let v = if plain {
                    t.raw_get::<Value>(key)?
                } else {
                    let call = MultiValue::from_vec(vec![
                        Value::Function(glue.index.clone()),
                        Value::Table(t.clone()),
                        key,
                    ]);
                    protected_call(glue, call)?
                };
                append_value(lua, v, out)
            };
            gsub(
                &srcb,
                &pb,
                Replacement::Table(&mut lookup),
                max_n,
                &mut charge,
            )?
        }
        Some(Value::Function(f)) => {
            let mut call = |captures: &[Capture<'_>], out: &mut Vec<u8>| {
                let mut args = MultiValue::with_capacity(captures.len() + 1);
                args.push_back(Value::Function(f.clone()));
                args.extend(capture_values(lua, captures)?);
                let v = protected_call(glue, args)?;
                append_value(lua, v, out)
            };
            gsub(
                &srcb,
                &pb,
                Replacement::Function(&mut call),
                max_n,
                &mut charge,
            )?
        }
        _ => return Err(type_error(lua, 3, "string/function/table", repl)),
    };
    let text = match result.text {
        Some(t) => lua.create_string(t)?,
        None => src.clone(), // unchanged: the subject itself (a number arrives as its string)
    };
    Ok(vec![Value::String(text), Value::Integer(result.count)])
}
