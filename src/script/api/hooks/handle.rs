//! A hook's `ctx` as Lua sees it: a userdata with no memory of its own and no finaliser (made by the
//! thousand in a game), sharing one metatable per VM (its fields and methods, built once at install).
//! Which call a `ctx` belongs to is found by its address in the list of the hook calls running on this
//! thread ([`live_ctx_of`]); once the call has returned, a script that kept its `ctx` gets a Lua error,
//! never the borrowed game.
//!
//! The same list answers views: a view carries its call's serial number, and its field reads find the
//! call's `Ctx` there — or learn that the call has returned, or is changing the game.

use super::Ctx;
use crate::script::host::{host, kernel_lua, profiled_method};
use mlua::{ffi, AnyUserData, FromLuaMulti, IntoLuaMulti, Lua, MultiValue, Table, Value};
use std::cell::{Cell, RefCell};
use std::ptr::NonNull;
use std::sync::Arc;

/// A hook call running on this thread: the serial its views carry, its `Ctx`, and whether a `ctx`
/// method that may change the game is running (its views must not read the game then).
struct LiveCall {
    serial: i64,
    ctx: NonNull<Ctx<'static>>,
    busy: bool,
    /// How many `ctx` methods of the call are running while holding its `Ctx` to read (a method that
    /// runs scripts, `ctx:can_shoot` or `ctx:usable`, holds it while they run): while any does, a
    /// method that changes the game refuses, so the game never changes under a reader.
    readers: u32,
    /// The address of the call's `ctx` userdata (`lua_touserdata`), by which a C function given the
    /// userdata finds the call (`fast`). Two live objects never share an address, and the call's
    /// userdata lives while the call runs.
    ud: *const std::ffi::c_void,
}

thread_local! {
    /// The hook calls running on this thread, innermost last. A Lua VM never leaves its thread.
    static LIVE: RefCell<Vec<LiveCall>> = const { RefCell::new(Vec::new()) };
    /// How many hook calls this thread has made: the low half of each call's serial ([`serial_for`]),
    /// so a view of a call that has returned never finds another call.
    static SERIAL: Cell<i64> = const { Cell::new(0) };
    /// The game (`Core::id`) of the innermost hook call running on this thread, 0 outside hooks: what
    /// a view handed to a `ctx` method must belong to ([`current_game`]).
    static GAME: Cell<u64> = const { Cell::new(0) };
}

/// The game of the innermost hook call running on this thread (0 when none runs): a view a `ctx`
/// method is given must have been made in it (a view carries its game in its serial,
/// [`game_of_serial`]).
pub(crate) fn current_game() -> u64 {
    GAME.with(Cell::get)
}

/// Why a view's call cannot answer.
pub(super) enum Gone {
    /// The call returned.
    Returned,
    /// A `ctx` method of the call that may change the game is running.
    Busy,
}

/// `f` on the running call `serial`, if it is running.
fn with_call<R>(serial: i64, f: impl FnOnce(&mut LiveCall) -> R) -> Option<R> {
    LIVE.with_borrow_mut(|calls| calls.iter_mut().rev().find(|c| c.serial == serial).map(f))
}

/// The `Ctx` of the running call `serial`.
///
/// The pointer is valid while the call runs (its `with_ctx` frame holds the `Ctx`), and nothing holds
/// the `Ctx` mutably unless the call is [`Gone::Busy`]: read it only for the field read at hand.
pub(super) fn live_ctx(serial: i64) -> Result<NonNull<Ctx<'static>>, Gone> {
    match with_call(serial, |c| (c.busy, c.ctx)) {
        Some((true, _)) => Err(Gone::Busy),
        Some((false, ctx)) => Ok(ctx),
        None => Err(Gone::Returned),
    }
}

/// The `Ctx` of the running call whose `ctx` userdata is at `ud` (`lua_touserdata`), unless that call
/// has returned or is changing the game (then the caller answers through the method behind it, whose
/// errors say so).
///
/// As with [`live_ctx`], read the `Ctx` only for the answer at hand.
pub(super) fn live_ctx_of(ud: *const std::ffi::c_void) -> Option<NonNull<Ctx<'static>>> {
    match live_call_of(ud) {
        Some((handle, false)) => Some(handle.ptr),
        _ => None,
    }
}

/// The handle of the running call whose `ctx` userdata is at `ud`, and whether the call is busy.
fn live_call_of(ud: *const std::ffi::c_void) -> Option<(CtxHandle, bool)> {
    if ud.is_null() {
        return None;
    }
    LIVE.with_borrow(|calls| {
        calls.iter().rev().find(|c| c.ud == ud).map(|c| {
            (
                CtxHandle {
                    ptr: c.ctx,
                    serial: c.serial,
                },
                c.busy,
            )
        })
    })
}

/// Counts a reader of the call `serial` until dropped (see `LiveCall::readers`).
pub(super) struct Reading(i64);

impl Reading {
    fn mark(serial: i64) -> Self {
        Self::add(serial, 1);
        Reading(serial)
    }
    fn add(serial: i64, n: i32) {
        with_call(serial, |c| c.readers = c.readers.saturating_add_signed(n));
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        Self::add(self.0, -1);
    }
}

/// A reader of the running call whose `ctx` userdata is at `ud`, for a C fast path that runs scripts
/// while it holds the call's `Ctx` (`fast::can_shoot`).
pub(super) fn reading_of(ud: *const std::ffi::c_void) -> Option<Reading> {
    let (handle, _) = live_call_of(ud)?;
    Some(Reading::mark(handle.serial))
}

/// Whether a method of the call `serial` is reading its `Ctx`.
fn is_read(serial: i64) -> bool {
    with_call(serial, |c| c.readers > 0).unwrap_or(false)
}

/// Marks the call `serial` busy until dropped.
struct Busy(i64);

impl Busy {
    fn mark(serial: i64) -> Self {
        Self::set(serial, true);
        Busy(serial)
    }
    fn set(serial: i64, busy: bool) {
        with_call(serial, |c| c.busy = busy);
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        Self::set(self.0, false);
    }
}

/// What the kernel knows of a hook call's `ctx`: a pointer to its [`Ctx`] and the call's serial. The
/// userdata Lua holds is only an address (no memory, no finaliser); a method finds its handle by that
/// address among the running calls ([`handle_of`]).
#[derive(Clone, Copy)]
pub(super) struct CtxHandle {
    ptr: NonNull<Ctx<'static>>,
    serial: i64,
}

impl CtxHandle {
    /// The call's `Ctx`, or a clear error once the call has returned (or while a method of it changes
    /// the game).
    pub(super) fn ctx(&self, lua: &Lua) -> mlua::Result<&Ctx<'static>> {
        self.check(lua)?;
        // SAFETY: the call is running and not changing the game (`check`), so its `with_ctx` frame
        // keeps the `Ctx` alive and unmoved, and nothing holds it mutably.
        Ok(unsafe { self.ptr.as_ref() })
    }

    /// The call's `Ctx` mutably, or a clear error once the call has returned. Whatever needs the ctx
    /// mutably may change the game: views asked for from now on show the new state (those handed out
    /// so far were filled in first, by `timed_mut`).
    pub(super) fn ctx_mut(&mut self, lua: &Lua) -> mlua::Result<&mut Ctx<'static>> {
        self.check(lua)?;
        if is_read(self.serial) {
            return Err(crate::script::api::convert::fail(
                lua,
                "a hook's ctx was asked to change the game while another of its methods was reading \
                 it (a script that method set off kept the ctx)",
            ));
        }
        // SAFETY: as in `ctx`; the caller marks the call busy (`timed_mut`) while it holds the `Ctx`
        // mutably, so no other use of this ctx (a script it sets off might hold it) reads it meanwhile.
        let ctx = unsafe { self.ptr.as_mut() };
        *ctx.views.memo.get_mut() = None;
        Ok(ctx)
    }

    /// An error when the handle's call has returned or is changing the game.
    fn check(&self, lua: &Lua) -> mlua::Result<()> {
        match live_ctx(self.serial) {
            Ok(_) => Ok(()),
            Err(gone) => Err(gone_error(lua, gone)),
        }
    }
}

/// The error of a `ctx` used when its call cannot answer, located at the script's line.
fn gone_error(lua: &Lua, gone: Gone) -> mlua::Error {
    crate::script::api::convert::fail(
        lua,
        match gone {
            Gone::Returned => {
                "a hook's ctx was used after the call it was given to had returned (a ctx lives for \
                 its call: keep ids or names between calls, not the ctx)"
            }
            Gone::Busy => {
                "a hook's ctx was used while one of its own methods was changing the game (a script \
                 that method set off kept the ctx)"
            }
        },
    )
}

/// The VM's `ctx` metatable, built once at install.
struct CtxKit {
    metatable: Table,
}

/// The handle of the `ctx` a method was called on (`this`, its first argument), or the error of a
/// `ctx` kept past its call, or of something that is not a `ctx` (`to` names the method).
fn handle_of(lua: &Lua, this: Option<Value>, to: &str) -> mlua::Result<CtxHandle> {
    let this = this.unwrap_or(Value::Nil);
    if let Value::UserData(ud) = &this {
        match live_call_of(ud.to_pointer()) {
            Some((handle, false)) => return Ok(handle),
            Some((_, true)) => return Err(gone_error(lua, Gone::Busy)),
            None if is_ctx(lua, ud) => return Err(gone_error(lua, Gone::Returned)),
            None => {}
        }
    }
    // mlua's own error for a method called on something else, which holds its cause in an `Arc`.
    #[allow(clippy::arc_with_non_send_sync)]
    Err(mlua::Error::BadArgument {
        to: Some(to.to_string()),
        pos: 1,
        name: Some("self".to_string()),
        cause: Arc::new(mlua::Error::FromLuaConversionError {
            from: this.type_name(),
            to: "ctx".to_string(),
            message: None,
        }),
    })
}

/// Whether `ud` is a `ctx` (of any call): its metatable is the VM's ctx metatable.
fn is_ctx(lua: &Lua, ud: &AnyUserData) -> bool {
    let Some(kit) = lua.app_data_ref::<CtxKit>() else {
        return false;
    };
    // SAFETY: room is checked; the stack is left as found.
    lua.exec_raw_lua(|raw| unsafe {
        let l = raw.state();
        if ffi::lua_checkstack(l, 3) == 0 || raw.push(ud).is_err() {
            return false;
        }
        let top = ffi::lua_gettop(l);
        let same = ffi::lua_getmetatable(l, top) != 0
            && raw.push(&kit.metatable).is_ok()
            && ffi::lua_rawequal(l, -1, -2) != 0;
        ffi::lua_settop(l, top - 1);
        same
    })
}

/// Where the fields and methods of `ctx` are put at install: each a Lua function that finds its call's
/// handle from its first argument ([`handle_of`]) and converts the rest as mlua converts a method's
/// arguments (an error names the method as `ctx:name` and the argument by position).
pub(super) struct CtxApi<'l> {
    lua: &'l Lua,
    getters: Table,
    methods: Table,
    /// The first error met while building (Lua out of memory), reported by `install`.
    error: Option<mlua::Error>,
}

impl CtxApi<'_> {
    /// Keep the first error of building a member.
    fn keep(&mut self, made: mlua::Result<()>) {
        if let Err(e) = made {
            self.error.get_or_insert(e);
        }
    }

    /// A method reading the call's `Ctx` (through `CtxHandle::ctx`).
    pub(super) fn add_method<A, R, F>(&mut self, name: &'static str, f: F)
    where
        A: FromLuaMulti,
        R: IntoLuaMulti,
        F: Fn(&Lua, &CtxHandle, A) -> mlua::Result<R> + 'static,
    {
        let to = format!("ctx:{name}");
        let made = self
            .lua
            .create_function(move |lua, mut args: MultiValue| {
                let this = handle_of(lua, args.pop_front(), &to)?;
                // mlua's conversion error names the method and the argument but not where: located
                // at the script's line, as every error of a `ctx` method is.
                let args = A::from_lua_args(args, 2, Some(&to), lua)
                    .map_err(|e| crate::script::api::convert::fail(lua, e))?;
                f(lua, &this, args)
            })
            .and_then(|func| self.methods.raw_set(name, func));
        self.keep(made);
    }

    /// A method that may change the game (through `CtxHandle::ctx_mut`).
    pub(super) fn add_method_mut<A, R, F>(&mut self, name: &'static str, f: F)
    where
        A: FromLuaMulti,
        R: IntoLuaMulti,
        F: Fn(&Lua, &mut CtxHandle, A) -> mlua::Result<R> + 'static,
    {
        Self::add_method(self, name, move |lua, this: &CtxHandle, args: A| {
            let mut this = *this;
            f(lua, &mut this, args)
        });
    }

    /// A field, read by a getter each time a script reads it.
    pub(super) fn add_field_method_get<R, F>(&mut self, name: &'static str, f: F)
    where
        R: IntoLuaMulti,
        F: Fn(&Lua, &CtxHandle) -> mlua::Result<R> + 'static,
    {
        let to = format!("ctx.{name}");
        let made = self
            .lua
            .create_function(move |lua, this: Value| f(lua, &handle_of(lua, Some(this), &to)?))
            .and_then(|func| self.getters.raw_set(name, func));
        self.keep(made);
    }
}

/// A new serial for a call viewing game `game` (`Core::id`): the game in the high 32 bits, so a view
/// says which game it belongs to ([`game_of_serial`]) at no cost of its own, and this thread's count of
/// calls in the low 32. Serials are never reused while fewer than 2^32 calls separate two calls of one
/// game: a kept view never finds another call.
fn serial_for(game: u64) -> i64 {
    let n = SERIAL.with(|s| {
        let n = s.get().wrapping_add(1);
        s.set(n);
        n
    });
    ((game & 0x7fff_ffff) << 32 | (n as u64 & 0xffff_ffff)) as i64
}

/// The game (`Core::id`) whose call made the view carrying `serial`.
pub(crate) fn game_of_serial(serial: i64) -> u64 {
    (serial as u64) >> 32
}

/// Takes the call off the live list when the call ends, on every path (an error or an unwinding panic
/// included), before the `Ctx` the list and the handle point at goes out of scope; and puts back the
/// game of the call around it ([`current_game`]).
struct Expire(i64, u64);

impl Drop for Expire {
    fn drop(&mut self) {
        let serial = self.0;
        LIVE.with_borrow_mut(|calls| calls.retain(|c| c.serial != serial));
        GAME.with(|g| g.set(self.1));
    }
}

/// Run `f` with `ctx` handed to Lua as a userdata that expires when `f` returns (and its handle).
pub(super) fn with_ctx<R>(
    lua: &Lua,
    ctx: Ctx<'_>,
    f: impl FnOnce(AnyUserData, CtxHandle) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let mut ctx = ctx;
    let serial = serial_for(ctx.game_id);
    ctx.views.serial = serial;
    // The lifetime is erased here and nowhere else; `Expire` bounds the handle's life, and the live
    // list's entry, by `ctx`'s.
    let ptr = NonNull::from(&mut ctx).cast::<Ctx<'static>>();
    let ud = new_ctx_userdata(lua)?;
    let _expire = Expire(serial, GAME.with(|g| g.replace(ctx.game_id)));
    let at = ud.to_pointer();
    LIVE.with_borrow_mut(|calls| {
        calls.push(LiveCall {
            serial,
            ctx: ptr,
            busy: false,
            readers: 0,
            ud: at,
        })
    });
    f(ud, CtxHandle { ptr, serial })
}

/// A new `ctx` userdata: no memory of its own (its address is all it is known by) and the VM's ctx
/// metatable, made as the kernel (no memory limit, so no protected call).
fn new_ctx_userdata(lua: &Lua) -> mlua::Result<AnyUserData> {
    let kit = lua
        .app_data_ref::<CtxKit>()
        .ok_or_else(|| mlua::Error::runtime("the ctx metatable was not installed"))?;
    as_kernel(lua, || {
        // SAFETY: room is checked; the new userdata is popped into mlua's hands, leaving the stack as
        // found. Without the memory limit these calls raise no error short of the process running out
        // of memory, as mlua's own unprotected calls.
        lua.exec_raw_lua(|raw| unsafe {
            let l = raw.state();
            if ffi::lua_checkstack(l, 2) == 0 {
                return Err(mlua::Error::runtime("out of Lua stack space making a ctx"));
            }
            ffi::lua_newuserdatauv(l, 0, 0);
            raw.push(&kit.metatable)?;
            ffi::lua_setmetatable(l, -2);
            raw.pop::<AnyUserData>()
        })
    })
}

/// Run `f`, the kernel answering a `ctx` method, in the kernel's mode (`host::kernel_lua`: the memory
/// limit lifted, no instructions counted; a hook it calls gets its own budget).
fn as_kernel<R>(lua: &Lua, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
    let h = host(lua)?;
    kernel_lua(lua, &h.budget, h.limits.memory, f)
}

/// A `ctx` method, counted under `ctx:name` while profiling is on (`village bench --profile`).
pub(super) fn timed<A, R>(
    name: &'static str,
    method: impl Fn(&Lua, &Ctx<'static>, A) -> mlua::Result<R>,
) -> impl Fn(&Lua, &CtxHandle, A) -> mlua::Result<R> {
    move |lua, this, args| {
        profiled_method(lua, name, || {
            as_kernel(lua, || {
                let ctx = this.ctx(lua)?;
                let _reading = Reading::mark(this.serial);
                method(lua, ctx, args)
            })
        })
    }
}

/// A `ctx` method that needs the ctx mutably (it may change the game), counted like [`timed`]. The
/// views the call handed out are filled in first, so they keep showing the table as it was; while it
/// runs, they refuse to read the game (a script it sets off might hold one), and so does the ctx.
pub(super) fn timed_mut<A, R>(
    name: &'static str,
    method: impl Fn(&Lua, &mut Ctx<'static>, A) -> mlua::Result<R>,
) -> impl Fn(&Lua, &mut CtxHandle, A) -> mlua::Result<R> {
    move |lua, this, args| {
        profiled_method(lua, name, || {
            as_kernel(lua, || {
                this.ctx(lua)?.fill_views(lua)?;
                let ctx = this.ctx_mut(lua)?;
                let _busy = Busy::mark(ctx.views.serial);
                method(lua, ctx, args)
            })
        })
    }
}

/// Run a hook: its `ctx` and its arguments (built by `args` from the call's ctx) made first, as the
/// kernel's own work in the caller's mode, then `call` (the script) under a hook's budget of
/// `budget` instructions and the memory limit (`with_budget`). Made outside the budget, the ctx and
/// the views need no lifting of the memory limit when the kernel calls a hook between scripts.
pub(super) fn call_hook<A, R>(
    lua: &Lua,
    budget: u64,
    ctx: Ctx<'_>,
    args: impl FnOnce(&Ctx<'static>) -> mlua::Result<A>,
    call: impl FnOnce(AnyUserData, A) -> mlua::Result<R>,
) -> Result<R, crate::script::error::ScriptError> {
    // The game's log lives outside the VM's memory limit: once it holds more than a game ever needs,
    // no hook runs to add to it (the script that would is named).
    if let Some(why) = ctx.game().log_full() {
        return Err(crate::script::error::ScriptError::Runtime(format!(
            "{}: {why}",
            ctx.source
        )));
    }
    let mut ran = None;
    let made = with_ctx(lua, ctx, |ud, handle| {
        let a = as_kernel(lua, || args(handle.ctx(lua)?))?;
        ran = Some(crate::script::host::with_budget(lua, budget, || {
            call(ud, a)
        }));
        Ok(())
    });
    match (ran, made) {
        (Some(result), _) => result,
        (None, Err(e)) => Err(crate::script::error::ScriptError::from_lua(e)),
        (None, Ok(())) => Err(crate::script::error::ScriptError::Runtime(
            "a hook's ctx was made but the hook never ran (an internal error)".to_string(),
        )),
    }
}

/// Build the VM's `ctx` metatable (once, at install): `__index` a C function that looks a key up among
/// the members — the methods (the fast paths of `fast.rs` in front of theirs) and the field getters
/// (called with the ctx) — and refuses any other key; `__metatable` hides it from scripts.
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    let mut api = CtxApi {
        lua,
        getters: lua.create_table()?,
        methods: lua.create_table()?,
        error: None,
    };
    CtxHandle::register(&mut api);
    if let Some(e) = api.error {
        return Err(e);
    }
    let metatable = lua.create_table()?;
    // SAFETY: `exec_raw` runs the closure protected, with the getters, the methods and the metatable
    // at 1, 2 and 3; room is checked; the closure leaves nothing on the stack.
    unsafe {
        lua.exec_raw::<()>((&api.getters, &api.methods, &metatable), |l| {
            if ffi::lua_checkstack(l, 6) == 0 {
                return;
            }
            super::fast::install(l, 2);
            // One table of members: each field's getter goes in beside the methods, wrapped in a
            // one-element table (a method is a function), so `__index` finds either in one lookup.
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, 1) != 0 {
                ffi::lua_createtable(l, 1, 0);
                ffi::lua_insert(l, -2);
                ffi::lua_rawseti(l, -2, 1);
                ffi::lua_pushvalue(l, -2);
                ffi::lua_insert(l, -2);
                ffi::lua_rawset(l, 2);
            }
            super::fast::install_getters(l, 2);
            ffi::lua_pushvalue(l, 2);
            ffi::lua_pushcclosure(l, ctx_index, 1);
            crate::script::api::fields::set_field(l, 3, c"__index");
            ffi::lua_pushstring(l, c"ctx".as_ptr());
            crate::script::api::fields::set_field(l, 3, c"__name");
            ffi::lua_pushboolean(l, 0);
            crate::script::api::fields::set_field(l, 3, c"__metatable");
            ffi::lua_settop(l, 0);
        })?;
    }
    lua.set_app_data(CtxKit { metatable });
    Ok(())
}

/// The `ctx` userdata's `__index(ctx, key)`: a method, or a field's getter called with the ctx, else an
/// error naming the key, at the script's line. Upvalue: the members, each method a function and each
/// getter wrapped in a one-element table (one lookup finds either: a script calls methods far more often
/// than it reads fields). A Lua error from a getter passes through this frame, which holds no Rust value.
unsafe extern "C-unwind" fn ctx_index(l: *mut ffi::lua_State) -> std::os::raw::c_int {
    ffi::lua_settop(l, 2);
    ffi::lua_pushvalue(l, 2);
    match ffi::lua_rawget(l, ffi::lua_upvalueindex(1)) {
        ffi::LUA_TFUNCTION => return 1,
        ffi::LUA_TTABLE => {
            ffi::lua_rawgeti(l, 3, 1);
            ffi::lua_pushvalue(l, 1);
            ffi::lua_call(l, 1, 1);
            return 1;
        }
        _ => {}
    }
    ffi::lua_pop(l, 1);
    // The message is made while nothing else is owned, and dropped before the error unwinds.
    let message = match crate::script::api::fields::str_at(l, 2) {
        Some(key) => format!("ctx has no field or method `{key}`"),
        None => "ctx has no field or method of that kind of key".to_string(),
    };
    let message = format!("{}{message}", crate::script::api::convert::caller_at(l));
    crate::script::api::fields::push_str(l, &message);
    drop(message);
    ffi::lua_error(l)
}
