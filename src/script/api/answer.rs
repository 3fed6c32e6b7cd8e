//! What scripts hand the kernel — a hook's answer, an order given to `g:order`, a Council's orders —
//! read once into plain Rust values ([`Plain`]) by one bounded conversion, then read field by field
//! with errors that name the script, the hook and the field.
//!
//! The conversion walks the answer through the Lua C API with bounds no answer comes near: tables nested
//! at most [`MAX_DEPTH`] deep, at most [`MAX_VALUES`] values in all, and no table that holds itself (a
//! cycle is found on the path from the answer's root, so a table shared by two fields is fine). Before
//! it, a cyclic modifier answer recursed until the stack overflowed and the process aborted, and a
//! 200,000-element answer grew the kernel's memory outside the VM's limit. Views the kernel handed out
//! are not walked into: they are read as what they show (a model's id, a building's name) and the game
//! they belong to, so a view kept from another game is refused where it is used ([`Reader::model`]).
//!
//! Reading ([`Reader`], [`Fields`]) refuses what an answer must not hold: a key its shape does not have
//! (with the closest one it does: `unknown key "valeu" (did you mean "value"?)`), a value of the wrong
//! type, NaN, an infinity or a number out of range, named as `script: hook returned field = value
//! (expected ...)`. It never stops at the first conversion mlua would have made ("error converting Lua
//! number to i64", naming nobody).
//!
//! Owns reading; never decides what an answer means (each hook's reader in `hooks/` does).

use super::convert::MAX_LOG_TEXT;
use crate::rules::HookError;
use crate::state::ModelId;
use mlua::{ffi, AnyUserData, Lua, Value};
use std::ffi::c_void;
use std::fmt::Write as _;

/// Tables an answer may nest (an answer holding a table holding a table is depth 2): the deepest
/// shape the API knows is a Council order's position, at 3.
pub const MAX_DEPTH: usize = 16;

/// Values one answer may hold in all its tables: a Council's 100 orders of a few keys each are the
/// largest answer the API knows.
pub const MAX_VALUES: usize = 4096;

/// A key of a table in an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// A string key (cut to 64 bytes when longer: no known key is).
    Name(String),
    /// An integer key (an array's index).
    Index(i64),
    /// Any other key, by its type name.
    Other(&'static str),
}

/// What a view the kernel handed out shows.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewOf {
    Model(ModelId),
    Building(String),
    /// A view whose identity could not be read (a script cleared its `id`).
    Unknown,
}

/// A value of an answer, in Rust.
#[derive(Debug, Clone)]
pub enum Plain {
    Nil,
    Bool(bool),
    Int(i64),
    Num(f64),
    /// A string of at most [`MAX_LOG_TEXT`] bytes (invalid UTF-8 replaced).
    Text(String),
    /// A longer string: only its length is kept (no answer field takes one).
    LongText(usize),
    /// A table that is not a view: its entries in the table's own order.
    Table(Vec<(Key, Plain)>),
    /// A view the kernel made in a hook call: what it shows, the game it was made in, and its `name`
    /// when it holds one already (a model view's name is read when first asked for).
    View {
        of: ViewOf,
        game: u64,
        name: Option<String>,
    },
    /// A userdata (a model or building handle of `g:models()`, or anything else), read where it is
    /// used ([`Reader::model`]).
    UserData(AnyUserData),
    /// A function, a coroutine or a light userdata: no answer holds one. Its type name.
    Other(&'static str),
}

/// Why an answer could not be converted, with where in it (a path like `[1].move`).
#[derive(Debug, Clone, PartialEq)]
pub enum Unreadable {
    /// A table holds itself, or a table that holds it, at this path.
    Cycle(String),
    /// Tables nested deeper than [`MAX_DEPTH`], at this path.
    Deep(String),
    /// More than [`MAX_VALUES`] values.
    TooMany,
    /// No room left on the Lua stack (never with the depth bound; kept for safety).
    Stack,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::Cycle(at) => write!(
                f,
                "a table that holds itself ({} is the table it is in, or one around it): an answer is \
                 plain data",
                if at.is_empty() { "it" } else { at }
            ),
            Unreadable::Deep(at) => write!(
                f,
                "tables nested deeper than {MAX_DEPTH} (at {at}): no answer nests so deep"
            ),
            Unreadable::TooMany => write!(
                f,
                "more than {MAX_VALUES} values (an answer holds at most {MAX_VALUES})"
            ),
            Unreadable::Stack => write!(f, "a table too deep for the Lua stack"),
        }
    }
}

/// `path` with `key` appended, as a script would write it: `move`, `[1]`, `move.x`, `[2].value`.
pub fn join(path: &str, key: &Key) -> String {
    match key {
        Key::Name(n) if path.is_empty() => n.clone(),
        Key::Name(n) => format!("{path}.{n}"),
        Key::Index(i) => format!("{path}[{i}]"),
        Key::Other(t) => format!("{path}[a {t} key]"),
    }
}

/// Convert `v` into a [`Plain`] value, within the bounds. A non-table value costs no walk.
pub fn plain(lua: &Lua, v: &Value) -> Result<Plain, Unreadable> {
    let Value::Table(t) = v else {
        return Ok(plain_leaf(v));
    };
    let mut walk = Walk {
        path: Vec::new(),
        keys: Vec::new(),
        values: 0,
    };
    lua.exec_raw_lua(|raw| {
        // SAFETY: room is checked and the stack left as found (`settop`). The walk reads with
        // `lua_next`, `lua_rawgetp` and `lua_to*`, which raise no error on tables nothing writes to
        // meanwhile, and pushes only values already in the VM (no string is made), so it needs no
        // memory limit lifted and never unwinds past a Rust value.
        unsafe {
            let l = raw.state();
            let top = ffi::lua_gettop(l);
            if ffi::lua_checkstack(l, 4) == 0 || raw.push(t).is_err() {
                return Err(Unreadable::Stack);
            }
            let out = walk.value_at(raw, top + 1);
            ffi::lua_settop(l, top);
            out
        }
    })
}

/// A value read without walking it: a table is only "a table" (for the words of an error, where a
/// table's contents do not matter); everything else as [`plain`] reads it.
pub fn plain_leaf(v: &Value) -> Plain {
    match v {
        Value::Nil => Plain::Nil,
        Value::Boolean(b) => Plain::Bool(*b),
        Value::Integer(i) => Plain::Int(*i),
        Value::Number(n) => Plain::Num(*n),
        Value::String(s) => text_of(&s.as_bytes()),
        Value::Table(_) => Plain::Table(Vec::new()),
        Value::UserData(ud) => Plain::UserData(ud.clone()),
        Value::LightUserData(_) => Plain::Other("light userdata"),
        Value::Function(_) => Plain::Other("function"),
        Value::Thread(_) => Plain::Other("thread"),
        other => Plain::Other(other.type_name()),
    }
}

/// A string's bytes as [`Plain::Text`], or [`Plain::LongText`] past [`MAX_LOG_TEXT`].
fn text_of(b: &[u8]) -> Plain {
    if b.len() > MAX_LOG_TEXT {
        Plain::LongText(b.len())
    } else {
        Plain::Text(String::from_utf8_lossy(b).into_owned())
    }
}

/// The state of one conversion: the tables on the path from the root (for cycles), the keys that led
/// there (for errors), and the values counted so far.
struct Walk {
    path: Vec<*const c_void>,
    keys: Vec<Key>,
    values: usize,
}

impl Walk {
    /// The value at `idx` (absolute) as a [`Plain`].
    ///
    /// # Safety
    /// `l` is valid, `idx` holds a value, and there is room for one more; the stack is left as found.
    unsafe fn value_at(
        &mut self,
        raw: &mlua::state::RawLua,
        idx: i32,
    ) -> Result<Plain, Unreadable> {
        let l = raw.state();
        Ok(match ffi::lua_type(l, idx) {
            ffi::LUA_TNIL => Plain::Nil,
            ffi::LUA_TBOOLEAN => Plain::Bool(ffi::lua_toboolean(l, idx) != 0),
            ffi::LUA_TNUMBER => {
                if ffi::lua_isinteger(l, idx) != 0 {
                    Plain::Int(ffi::lua_tointegerx(l, idx, std::ptr::null_mut()))
                } else {
                    Plain::Num(ffi::lua_tonumberx(l, idx, std::ptr::null_mut()))
                }
            }
            ffi::LUA_TSTRING => match crate::script::api::fields::bytes_at(l, idx) {
                Some(b) => text_of(b),
                None => Plain::Nil,
            },
            ffi::LUA_TTABLE => return self.table_at(raw, idx),
            ffi::LUA_TUSERDATA => {
                ffi::lua_pushvalue(l, idx);
                match raw.pop_value() {
                    Value::UserData(ud) => Plain::UserData(ud),
                    _ => Plain::Other("userdata"),
                }
            }
            ffi::LUA_TLIGHTUSERDATA => Plain::Other("light userdata"),
            ffi::LUA_TFUNCTION => Plain::Other("function"),
            ffi::LUA_TTHREAD => Plain::Other("thread"),
            _ => Plain::Other("value"),
        })
    }

    /// The table at `idx`: a view's identity, or every entry, within the bounds.
    ///
    /// # Safety
    /// As [`Walk::value_at`]; `idx` holds a table.
    unsafe fn table_at(
        &mut self,
        raw: &mlua::state::RawLua,
        idx: i32,
    ) -> Result<Plain, Unreadable> {
        let l = raw.state();
        if ffi::lua_checkstack(l, 4) == 0 {
            return Err(Unreadable::Stack);
        }
        if let Some(view) = view_at(l, idx) {
            return Ok(view);
        }
        let me = ffi::lua_topointer(l, idx);
        let here = || self.keys.iter().fold(String::new(), |s, k| join(&s, k));
        if self.path.contains(&me) {
            return Err(Unreadable::Cycle(here()));
        }
        if self.path.len() >= MAX_DEPTH {
            return Err(Unreadable::Deep(here()));
        }
        self.path.push(me);
        let mut entries = Vec::new();
        let top = ffi::lua_gettop(l);
        ffi::lua_pushnil(l);
        let mut out = Ok(());
        while ffi::lua_next(l, idx) != 0 {
            self.values += 1;
            if self.values > MAX_VALUES {
                out = Err(Unreadable::TooMany);
                break;
            }
            let key = match ffi::lua_type(l, -2) {
                ffi::LUA_TSTRING => {
                    let b = crate::script::api::fields::bytes_at(l, -2).unwrap_or_default();
                    let b = &b[..b.len().min(64)];
                    Key::Name(String::from_utf8_lossy(b).into_owned())
                }
                ffi::LUA_TNUMBER if ffi::lua_isinteger(l, -2) != 0 => {
                    Key::Index(ffi::lua_tointegerx(l, -2, std::ptr::null_mut()))
                }
                t => Key::Other(type_name(t)),
            };
            self.keys.push(key);
            let value = self.value_at(raw, ffi::lua_gettop(l));
            let key = self.keys.pop().unwrap_or(Key::Other("missing"));
            match value {
                Ok(v) => entries.push((key, v)),
                Err(e) => {
                    out = Err(e);
                    break;
                }
            }
            ffi::lua_settop(l, top + 1);
        }
        ffi::lua_settop(l, top);
        self.path.pop();
        out.map(|()| Plain::Table(entries))
    }
}

/// A view at `idx` as [`Plain::View`], when the table is one (it carries a call's serial under the
/// views' hidden key).
///
/// # Safety
/// `l` is valid with room for three values; `idx` holds a table. The stack is left as found. Nothing is
/// pushed that is not already in the VM (no string is made), so nothing here can raise an error.
unsafe fn view_at(l: *mut ffi::lua_State, idx: i32) -> Option<Plain> {
    let key = super::hooks::view_key();
    let serial = if ffi::lua_rawgetp(l, idx, key) == ffi::LUA_TNUMBER {
        Some(ffi::lua_tointegerx(l, -1, std::ptr::null_mut()))
    } else {
        None
    };
    ffi::lua_pop(l, 1);
    let serial = serial?;
    // The identity is found by walking the view's few keys: looking `id` up would push a new string.
    let (mut id, mut name) = (None, None);
    ffi::lua_pushnil(l);
    while ffi::lua_next(l, idx) != 0 {
        match crate::script::api::fields::bytes_at(l, -2) {
            Some(b"id") if ffi::lua_isinteger(l, -1) != 0 => {
                id = u32::try_from(ffi::lua_tointegerx(l, -1, std::ptr::null_mut())).ok();
            }
            Some(b"name") => {
                name = crate::script::api::fields::str_at(l, -1).map(str::to_string);
            }
            _ => {}
        }
        ffi::lua_pop(l, 1);
    }
    let of = match (id, &name) {
        (Some(id), _) => ViewOf::Model(ModelId(id)),
        (None, Some(name)) => ViewOf::Building(name.clone()),
        (None, None) => ViewOf::Unknown,
    };
    Some(Plain::View {
        of,
        game: super::hooks::game_of_serial(serial),
        name,
    })
}

/// The name of a Lua type code.
fn type_name(t: i32) -> &'static str {
    match t {
        ffi::LUA_TNIL => "nil",
        ffi::LUA_TBOOLEAN => "boolean",
        ffi::LUA_TNUMBER => "number",
        ffi::LUA_TSTRING => "string",
        ffi::LUA_TTABLE => "table",
        ffi::LUA_TFUNCTION => "function",
        ffi::LUA_TUSERDATA => "userdata",
        ffi::LUA_TTHREAD => "thread",
        ffi::LUA_TLIGHTUSERDATA => "light userdata",
        _ => "value",
    }
}

/// A value in words for an error: `nil`, `5`, `NaN`, `-inf`, `1e300`, `"text"`, `a table`, `a view of
/// model 3`, `a function`.
pub fn describe(p: &Plain) -> String {
    match p {
        Plain::Nil => "nil".into(),
        Plain::Bool(b) => b.to_string(),
        Plain::Int(i) => i.to_string(),
        Plain::Num(n) => number(*n),
        Plain::Text(s) => {
            let cut: String = s.chars().take(40).collect();
            if cut.len() < s.len() {
                format!("{:?}…", cut)
            } else {
                format!("{s:?}")
            }
        }
        Plain::LongText(n) => format!("a string of {n} bytes"),
        Plain::Table(_) => "a table".into(),
        Plain::View {
            of: ViewOf::Model(id),
            ..
        } => format!("a view of model {}", id.0),
        Plain::View {
            of: ViewOf::Building(b),
            ..
        } => format!("a view of the {b}"),
        Plain::View { .. } => "a view".into(),
        Plain::UserData(_) => "a userdata".into(),
        Plain::Other(t) => format!("a {t}"),
    }
}

/// A number as errors show it: `NaN`, `inf`, `-inf`, `1e300` for huge ones, else as Rust writes it.
pub fn number(n: f64) -> String {
    if n.is_finite() && n.abs() >= 1e9 {
        format!("{n:e}")
    } else {
        n.to_string()
    }
}

/// The keys a table answer may hold: the fields of a spec'd class (`spec::options`), written here as a
/// constant so reading an answer looks nothing up (a unit test keeps the two the same).
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The class in `api/spec` that describes it.
    pub class: &'static str,
    pub keys: &'static [&'static str],
}

/// A token as `ctx:tokens` hands it out, given back in an order (`{ claim = token }`).
pub const TOKEN: Shape = Shape {
    class: "Token",
    keys: &["id", "kind", "x", "y", "caster"],
};

/// The shapes defined here, for the test that keeps every shape its spec class.
pub const SHAPES: &[Shape] = &[TOKEN];

/// Who gave an answer (for errors) and the game it must belong to (for views and handles).
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    /// The script, as errors name it (`scripts/traits/savage.lua`), or a `file:line: ` prefix.
    pub script: &'a str,
    /// The hook (`melee_modifier`) or the API method (`g:order`).
    pub entry: &'a str,
    /// The identity of the game ([`crate::script::api::game::Core::id`]) views and handles must be of.
    pub game: u64,
    /// How errors begin: `script: entry returned` for a hook's answer, `script: entry:` for what a
    /// script gave a method.
    pub given: bool,
    /// The VM's count of script failures, counted up by each error: a malformed answer fails its
    /// script's call, and a `g:` command during which one did is undone whole (`api::game::Session`).
    pub failed: Option<&'a std::cell::Cell<u64>>,
}

impl<'a> Reader<'a> {
    /// A reader of the answer `entry` of `script` gave, in game `game`.
    pub fn answer(script: &'a str, entry: &'a str, game: u64) -> Self {
        Reader {
            script,
            entry,
            game,
            given: false,
            failed: None,
        }
    }

    /// A reader of what a script gave the method `entry` (`g:order`); `at` is the caller's
    /// `file:line: ` (or empty).
    pub fn given(at: &'a str, entry: &'a str, game: u64) -> Self {
        Reader {
            script: at,
            entry,
            game,
            given: true,
            failed: None,
        }
    }

    /// The error `what` about this answer: `script: entry returned what`.
    pub fn bad(&self, what: impl std::fmt::Display) -> HookError {
        if let Some(f) = self.failed {
            f.set(f.get() + 1);
        }
        HookError {
            message: if self.given {
                format!("{}{}: {what}", self.script, self.entry)
            } else {
                format!("{}: {} returned {what}", self.script, self.entry)
            },
        }
    }

    /// The error of a field: `script: entry returned path = value (expected ...)`.
    pub fn field(&self, path: &str, v: &Plain, expected: &str) -> HookError {
        if path.is_empty() {
            self.bad(format!("{} ({expected})", describe(v)))
        } else {
            self.bad(format!("{path} = {} ({expected})", describe(v)))
        }
    }

    /// Convert `v` (see [`plain`]), an unreadable answer being this answer's error.
    pub fn read(&self, lua: &Lua, v: &Value) -> Result<Plain, HookError> {
        plain(lua, v).map_err(|e| self.bad(e))
    }

    /// The entries of the table `p` (at `path`, empty for the answer itself), every key one of `shape`'s.
    /// An unknown key is refused with the closest known one; a key that is not a name, by its type.
    pub fn fields<'p>(
        &self,
        p: &'p Plain,
        path: &str,
        shape: &Shape,
    ) -> Result<Fields<'p, 'a>, HookError> {
        let Plain::Table(entries) = p else {
            return Err(self.field(path, p, &format!("expected a {} table", shape.class)));
        };
        for (k, _) in entries {
            let what = match k {
                Key::Name(n) if shape.keys.contains(&n.as_str()) => continue,
                Key::Name(n) => {
                    let hint = crate::names::closest(n, shape.keys.iter().copied())
                        .map_or(String::new(), |k| format!(" (did you mean {k:?}?)"));
                    format!("an unknown key {n:?}{}{hint}", at(path))
                }
                other => format!("a key {}{}", key_words(other), at(path)),
            };
            return Err(self.bad(format!(
                "{what}: a {} holds {}",
                shape.class,
                words(shape.keys)
            )));
        }
        Ok(Fields {
            entries,
            path: path.to_string(),
            reader: *self,
        })
    }

    /// The items of the array `p` (at `path`): keys 1..n only, in order.
    pub fn list<'p>(
        &self,
        p: &'p Plain,
        path: &str,
        of: &str,
    ) -> Result<Vec<&'p Plain>, HookError> {
        let Plain::Table(entries) = p else {
            return Err(self.field(path, p, &format!("expected an array of {of}")));
        };
        let mut items: Vec<(i64, &Plain)> = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            match k {
                Key::Index(i) if *i >= 1 => items.push((*i, v)),
                other => {
                    return Err(self.bad(format!(
                        "a key {}{} in an array of {of}",
                        key_words(other),
                        at(path)
                    )))
                }
            }
        }
        items.sort_by_key(|(i, _)| *i);
        // An array is 1..n: a hole (`{ [1] = a, [3] = b }`) ends it as `ipairs` would, and what lies past
        // the hole is refused rather than dropped.
        for (n, (i, _)) in items.iter().enumerate() {
            if *i != n as i64 + 1 {
                return Err(self.bad(format!(
                    "an array of {of} with a hole before [{i}]{}",
                    at(path)
                )));
            }
        }
        Ok(items.into_iter().map(|(_, v)| v).collect())
    }

    /// A model named by `p` (at `path`): a view or a handle of this game, a table with an `id` (a
    /// snapshot), or an id when `ids` allows. A view or handle of another game is refused.
    pub fn model(&self, p: &Plain, path: &str, ids: bool) -> Result<ModelId, HookError> {
        match p {
            Plain::View {
                of: ViewOf::Model(id),
                game,
                ..
            } => {
                self.same_game(*game, path, p)?;
                Ok(*id)
            }
            Plain::UserData(ud) => match ud.borrow::<super::handles::ModelRef>() {
                Ok(m) => {
                    self.same_game(m.core.id, path, p)?;
                    Ok(m.id)
                }
                Err(_) => Err(self.field(path, p, "expected a model")),
            },
            Plain::Table(entries) => {
                let id = entries
                    .iter()
                    .find(|(k, _)| *k == Key::Name("id".into()))
                    .map(|(_, v)| v)
                    .unwrap_or(&Plain::Nil);
                self.model_id(id, &join(path, &Key::Name("id".into())))
            }
            Plain::Int(_) | Plain::Num(_) if ids => self.model_id(p, path),
            other => Err(self.field(path, other, "expected a model")),
        }
    }

    /// A model id: a whole number from 1 to 2^32 − 1.
    pub fn model_id(&self, p: &Plain, path: &str) -> Result<ModelId, HookError> {
        whole(p)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n > 0)
            .map(ModelId)
            .ok_or_else(|| self.field(path, p, "expected a model id, a whole number from 1"))
    }

    /// A building named by `p`: its name, a view or a handle of this game, or a table with a `name`.
    pub fn building(&self, p: &Plain, path: &str) -> Result<String, HookError> {
        match p {
            Plain::Text(s) => Ok(s.clone()),
            Plain::View {
                of: ViewOf::Building(name),
                game,
                ..
            } => {
                self.same_game(*game, path, p)?;
                Ok(name.clone())
            }
            Plain::UserData(ud) => match ud.borrow::<super::handles::BuildingRef>() {
                Ok(b) => {
                    self.same_game(b.core.id, path, p)?;
                    Ok(b.name.clone())
                }
                Err(_) => Err(self.field(path, p, "expected a building or its name")),
            },
            Plain::Table(entries) => {
                let name = entries
                    .iter()
                    .find(|(k, _)| *k == Key::Name("name".into()))
                    .map(|(_, v)| v)
                    .unwrap_or(&Plain::Nil);
                match name {
                    Plain::Text(s) => Ok(s.clone()),
                    other => Err(self.field(
                        &join(path, &Key::Name("name".into())),
                        other,
                        "expected a building's name",
                    )),
                }
            }
            other => Err(self.field(path, other, "expected a building or its name")),
        }
    }

    /// An error unless `game` is this reader's: a view or handle kept from another game.
    pub fn same_game(&self, game: u64, path: &str, p: &Plain) -> Result<(), HookError> {
        if game == self.game {
            return Ok(());
        }
        Err(self.bad(format!(
            "{}{} from another game (a view or handle belongs to the game that made it: keep ids or \
             names between games, not views)",
            prefix(path),
            describe(p)
        )))
    }
}

/// ` at path` after what was found there, or nothing at the answer's root.
fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" at {path}")
    }
}

/// `path = ` before a value, or nothing at the answer's root.
fn prefix(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path} = ")
    }
}

/// A key in words: `[1]`, `a boolean key`.
fn key_words(k: &Key) -> String {
    match k {
        Key::Name(n) => format!("{n:?}"),
        Key::Index(i) => format!("[{i}]"),
        Key::Other(t) => format!("of type {t}"),
    }
}

/// `a, b or c`.
pub fn words(keys: &[&str]) -> String {
    match keys {
        [] => "nothing".into(),
        [one] => (*one).to_string(),
        [first @ .., last] => format!("{} or {last}", first.join(", ")),
    }
}

/// A whole number held by `p`, exactly.
pub fn whole(p: &Plain) -> Option<i64> {
    match p {
        Plain::Int(i) => Some(*i),
        // `i64::MAX as f64` is 2^63, one past i64::MAX: below it every whole float fits.
        Plain::Num(n) if n.fract() == 0.0 && n.abs() < i64::MAX as f64 => Some(*n as i64),
        _ => None,
    }
}

/// The entries of one table of an answer, each key checked against its shape ([`Reader::fields`]).
pub struct Fields<'p, 'a> {
    entries: &'p [(Key, Plain)],
    path: String,
    reader: Reader<'a>,
}

impl<'p> Fields<'p, '_> {
    /// The value under `key`, nil when absent.
    pub fn get(&self, key: &str) -> &'p Plain {
        self.entries
            .iter()
            .find(|(k, _)| matches!(k, Key::Name(n) if n == key))
            .map_or(&Plain::Nil, |(_, v)| v)
    }

    /// Whether `key` has a value other than nil.
    pub fn has(&self, key: &str) -> bool {
        !matches!(self.get(key), Plain::Nil)
    }

    /// The path of `key` in the answer, for errors.
    pub fn path(&self, key: &str) -> String {
        join(&self.path, &Key::Name(key.to_string()))
    }

    /// The error of `key`'s value: `path.key = value (expected)`.
    pub fn bad(&self, key: &str, expected: &str) -> HookError {
        self.reader.field(&self.path(key), self.get(key), expected)
    }

    /// A whole number from `lo` to `hi` under `key`, or none.
    pub fn int(&self, key: &str, lo: i64, hi: i64) -> Result<Option<i64>, HookError> {
        match self.get(key) {
            Plain::Nil => Ok(None),
            p => match whole(p) {
                Some(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
                _ => Err(self.bad(key, &format!("expected a whole number from {lo} to {hi}"))),
            },
        }
    }

    /// A finite number under `key`, or none.
    pub fn number(&self, key: &str) -> Result<Option<f64>, HookError> {
        match self.get(key) {
            Plain::Nil => Ok(None),
            Plain::Int(i) => Ok(Some(*i as f64)),
            Plain::Num(n) if n.is_finite() => Ok(Some(*n)),
            _ => Err(self.bad(key, "expected a finite number")),
        }
    }

    /// true or false under `key`, or none.
    pub fn flag(&self, key: &str) -> Result<Option<bool>, HookError> {
        match self.get(key) {
            Plain::Nil => Ok(None),
            Plain::Bool(b) => Ok(Some(*b)),
            _ => Err(self.bad(key, "expected true or false")),
        }
    }

    /// A string under `key` (at most [`MAX_LOG_TEXT`] bytes), or none.
    pub fn text(&self, key: &str) -> Result<Option<String>, HookError> {
        match self.get(key) {
            Plain::Nil => Ok(None),
            Plain::Text(s) => Ok(Some(s.clone())),
            Plain::LongText(n) => Err(self.reader.bad(format!(
                "{} is {n} bytes long: text for the log is at most {MAX_LOG_TEXT} bytes",
                self.path(key)
            ))),
            _ => Err(self.bad(key, "expected a string")),
        }
    }

    /// A reason for the log under `key`, or `default`.
    pub fn reason(&self, key: &str, default: impl FnOnce() -> String) -> Result<String, HookError> {
        Ok(self.text(key)?.unwrap_or_else(default))
    }

    /// The reader, for the values this table holds.
    pub fn reader(&self) -> &Reader<'_> {
        &self.reader
    }
}

/// Write `text` cut to `max` bytes (at a character boundary) with how much was left out: "… (N bytes
/// more)". Every error text the kernel keeps from a script is cut so (a 40 MB `error()` message kept by
/// `sim --keep-going` for each failed game took gigabytes).
pub fn cut(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if text.len() <= max {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut s = String::with_capacity(end + 32);
    s.push_str(&text[..end]);
    let _ = write!(s, "… ({} bytes more)", text.len() - end);
    std::borrow::Cow::Owned(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_at_a_character_with_what_was_left_out() {
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut("aaaaaaaaaa", 4), "aaaa… (6 bytes more)");
        // "é" is two bytes: the cut backs off to the boundary before it.
        assert_eq!(cut("aaé", 3), "aa… (2 bytes more)");
    }

    #[test]
    fn numbers_read_as_scripts_write_them() {
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(f64::INFINITY), "inf");
        assert_eq!(number(-f64::INFINITY), "-inf");
        assert_eq!(number(1e300), "1e300");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(whole(&Plain::Num(3.0)), Some(3));
        assert_eq!(whole(&Plain::Num(3.5)), None);
        assert_eq!(whole(&Plain::Num(f64::NAN)), None);
        assert_eq!(whole(&Plain::Num(1e300)), None);
    }

    #[test]
    fn paths_read_as_scripts_write_them() {
        let p = join("", &Key::Index(2));
        let p = join(&p, &Key::Name("value".into()));
        assert_eq!(p, "[2].value");
        assert_eq!(join("move", &Key::Name("x".into())), "move.x");
    }
}
