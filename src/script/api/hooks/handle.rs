//! A hook's `ctx` as Lua sees it: a userdata of one `'static` type, so its metatable (every `ctx`
//! method) is built once per VM instead of once per call, as a scoped non-`'static` userdata would be.
//! The handle points at the call's [`Ctx`]; once the call has returned, a script that kept its `ctx`
//! gets a Lua error, never the borrowed game.
//!
//! It also keeps the list of the hook calls running on this thread ([`live_ctx`]): a view carries its
//! call's serial number, and its field reads find the call's `Ctx` there — or learn that the call has
//! returned, or is changing the game.

use super::Ctx;
use crate::script::host::{host, kernel_lua, profiled_method};
use mlua::{AnyUserData, Lua};
use std::cell::{Cell, RefCell};
use std::ptr::NonNull;

/// A hook call running on this thread: the serial its views carry, its `Ctx`, and whether a `ctx`
/// method that may change the game is running (its views must not read the game then).
struct LiveCall {
    serial: i64,
    ctx: NonNull<Ctx<'static>>,
    busy: bool,
    /// The address of the call's `ctx` userdata (`lua_touserdata`), by which a C function given the
    /// userdata finds the call (`fast`). Two live objects never share an address, and the call's
    /// userdata lives while the call runs.
    ud: *const std::ffi::c_void,
}

thread_local! {
    /// The hook calls running on this thread, innermost last. A Lua VM never leaves its thread.
    static LIVE: RefCell<Vec<LiveCall>> = const { RefCell::new(Vec::new()) };
    /// The last serial handed out on this thread: serials are never reused, so a view of a call that
    /// has returned never finds another call.
    static SERIAL: Cell<i64> = const { Cell::new(0) };
}

/// Why a view's call cannot answer.
pub(super) enum Gone {
    /// The call returned.
    Returned,
    /// A `ctx` method of the call that may change the game is running.
    Busy,
}

/// The `Ctx` of the running call `serial`.
///
/// The pointer is valid while the call runs (its `with_ctx` frame holds the `Ctx`), and nothing holds
/// the `Ctx` mutably unless the call is [`Gone::Busy`]: read it only for the field read at hand.
pub(super) fn live_ctx(serial: i64) -> Result<NonNull<Ctx<'static>>, Gone> {
    LIVE.with_borrow(
        |calls| match calls.iter().rev().find(|c| c.serial == serial) {
            Some(c) if c.busy => Err(Gone::Busy),
            Some(c) => Ok(c.ctx),
            None => Err(Gone::Returned),
        },
    )
}

/// The `Ctx` of the running call whose `ctx` userdata is at `ud` (`lua_touserdata`), unless that call
/// has returned or is changing the game (then the caller answers through mlua, whose errors say so).
///
/// As with [`live_ctx`], read the `Ctx` only for the answer at hand.
pub(super) fn live_ctx_of(ud: *const std::ffi::c_void) -> Option<NonNull<Ctx<'static>>> {
    if ud.is_null() {
        return None;
    }
    LIVE.with_borrow(|calls| {
        calls
            .iter()
            .rev()
            .find(|c| c.ud == ud)
            .filter(|c| !c.busy)
            .map(|c| c.ctx)
    })
}

/// Marks the call `serial` busy until dropped.
struct Busy(i64);

impl Busy {
    fn mark(serial: i64) -> Self {
        Self::set(serial, true);
        Busy(serial)
    }
    fn set(serial: i64, busy: bool) {
        LIVE.with_borrow_mut(|calls| {
            if let Some(c) = calls.iter_mut().rev().find(|c| c.serial == serial) {
                c.busy = busy;
            }
        });
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        Self::set(self.0, false);
    }
}

/// The userdata a hook receives as `ctx`: a pointer to the [`Ctx`] of the call that created it, and
/// that call's serial. It is never destroyed (destroying a userdata cost mlua a protected call, once a
/// hook call): every use asks the live list whether its call is still running ([`CtxHandle::ctx`]).
pub(super) struct CtxHandle {
    ptr: NonNull<Ctx<'static>>,
    serial: i64,
}

impl CtxHandle {
    /// The call's `Ctx`, or a clear error once the call has returned.
    pub(super) fn ctx(&self, lua: &Lua) -> mlua::Result<&Ctx<'static>> {
        self.check(lua)?;
        // SAFETY: the call is running (`check`), so its `with_ctx` frame keeps the `Ctx` alive and
        // unmoved; mlua hands out `&CtxHandle` only under its shared borrow of the userdata, and its
        // borrow flags keep `&` and `&mut` access to the handle, and so to the `Ctx`, exclusive.
        Ok(unsafe { self.ptr.as_ref() })
    }

    /// The call's `Ctx` mutably, or a clear error once the call has returned. Whatever needs the ctx
    /// mutably may change the game: views asked for from now on show the new state (those handed out
    /// so far were filled in first, by `timed_mut`).
    pub(super) fn ctx_mut(&mut self, lua: &Lua) -> mlua::Result<&mut Ctx<'static>> {
        self.check(lua)?;
        // SAFETY: as in `ctx`; `&mut self` comes from mlua's exclusive borrow of the userdata.
        let ctx = unsafe { self.ptr.as_mut() };
        *ctx.views.memo.get_mut() = None;
        Ok(ctx)
    }

    /// An error when the handle's call has returned.
    fn check(&self, lua: &Lua) -> mlua::Result<()> {
        // A call changing the game is still running: mlua's borrow flags keep its handle exclusive.
        if !matches!(live_ctx(self.serial), Err(Gone::Returned)) {
            return Ok(());
        }
        Err(crate::script::api::convert::fail(
            lua,
            "a hook's ctx was used after the call it was given to had returned (a ctx lives for its \
             call: keep ids or names between calls, not the ctx)",
        ))
    }
}

/// Takes the call off the live list when the call ends, on every path (an error or an unwinding panic
/// included), before the `Ctx` the list and the handle point at goes out of scope.
struct Expire(i64);

impl Drop for Expire {
    fn drop(&mut self) {
        let serial = self.0;
        LIVE.with_borrow_mut(|calls| calls.retain(|c| c.serial != serial));
    }
}

/// Run `f` with `ctx` handed to Lua as a userdata that expires when `f` returns.
pub(super) fn with_ctx<R>(
    lua: &Lua,
    ctx: Ctx<'_>,
    f: impl FnOnce(AnyUserData) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let mut ctx = ctx;
    let serial = SERIAL.with(|s| {
        let n = s.get() + 1;
        s.set(n);
        n
    });
    ctx.views.serial = serial;
    // The lifetime is erased here and nowhere else; `Expire` bounds the handle's life, and the live
    // list's entry, by `ctx`'s.
    let ptr = NonNull::from(&mut ctx).cast::<Ctx<'static>>();
    // Made as the kernel (no memory limit): under the limit mlua makes a userdata in a protected call.
    let ud = as_kernel(lua, || lua.create_userdata(CtxHandle { ptr, serial }))?;
    let _expire = Expire(serial);
    let at = ud.to_pointer();
    LIVE.with_borrow_mut(|calls| {
        calls.push(LiveCall {
            serial,
            ctx: ptr,
            busy: false,
            ud: at,
        })
    });
    f(ud)
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
            as_kernel(lua, || method(lua, this.ctx(lua)?, args))
        })
    }
}

/// A `ctx` method that needs the ctx mutably (it may change the game), counted like [`timed`]. The
/// views the call handed out are filled in first, so they keep showing the table as it was; while it
/// runs, they refuse to read the game (a script it sets off might hold one).
pub(super) fn timed_mut<A, R>(
    name: &'static str,
    mut method: impl FnMut(&Lua, &mut Ctx<'static>, A) -> mlua::Result<R>,
) -> impl FnMut(&Lua, &mut CtxHandle, A) -> mlua::Result<R> {
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

/// Run `call` with `ctx` handed to Lua, its arguments built first by `args` from the call's ctx (the
/// views it hands out belong to this call). The ctx is not borrowed while `call` runs, so the script
/// may use any of its methods.
pub(super) fn call_with<A, R>(
    lua: &Lua,
    ctx: Ctx<'_>,
    args: impl FnOnce(&Ctx<'static>) -> mlua::Result<A>,
    call: impl FnOnce(AnyUserData, A) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let _ = lua;
    with_ctx(lua, ctx, |ud| {
        // The arguments are the kernel's own work, made before the script runs (see `as_kernel`).
        let a = as_kernel(lua, || {
            let handle = ud.borrow::<CtxHandle>()?;
            args(handle.ctx(lua)?)
        })?;
        call(ud, a)
    })
}

/// Give the `ctx` userdata a C `__index` (once per VM, at install). mlua answers a `ctx` field or method
/// through a Lua function it generates (field getters first, then methods, then its fallback); a script
/// looks a method up on every call, and that Lua function, run under the instruction budget, cost about
/// as much as the method. The C function does the same lookups in the same order with the same tables
/// (taken from the Lua function's upvalues by name) and calls the Lua function for anything else, so the
/// answers and errors are mlua's. When mlua's function is not of the expected shape, nothing changes.
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    // A handle no call will ever have (serial 0 is never handed out): it exists only to reach the
    // type's metatable, and is never given to a script.
    let ud = lua.create_userdata(CtxHandle {
        ptr: NonNull::dangling(),
        serial: 0,
    })?;
    // SAFETY: `exec_raw` runs the closure protected, with the userdata at index 1; room is checked;
    // the closure leaves nothing on the stack.
    unsafe {
        lua.exec_raw::<()>(&ud, |l| {
            use mlua::ffi;
            if ffi::lua_checkstack(l, 10) == 0 || ffi::lua_getmetatable(l, 1) == 0 {
                ffi::lua_settop(l, 0);
                return;
            }
            // 2: the metatable; 3: mlua's `__index`; 4, 5: its `field_getters` and `methods`.
            crate::script::api::fields::push_str(l, "__index");
            if ffi::lua_rawget(l, 2) != ffi::LUA_TFUNCTION {
                ffi::lua_settop(l, 0);
                return;
            }
            ffi::lua_pushnil(l);
            ffi::lua_pushnil(l);
            for i in 1..=16 {
                let name = ffi::lua_getupvalue(l, 3, i);
                if name.is_null() {
                    break;
                }
                let slot = match std::ffi::CStr::from_ptr(name).to_bytes() {
                    b"field_getters" => 4,
                    // mlua's common case keeps the methods in its `__index` table.
                    b"methods" | b"__index" => 5,
                    _ => 0,
                };
                if slot != 0 && ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                    ffi::lua_replace(l, slot);
                } else {
                    ffi::lua_pop(l, 1);
                }
            }
            if ffi::lua_type(l, 4) == ffi::LUA_TTABLE && ffi::lua_type(l, 5) == ffi::LUA_TTABLE {
                ffi::lua_pushvalue(l, 4);
                ffi::lua_pushvalue(l, 5);
                ffi::lua_pushvalue(l, 3);
                ffi::lua_pushcclosure(l, ctx_index, 3);
                crate::script::api::fields::set_field(l, 2, c"__index");
                super::fast::install(l, 5);
            }
            ffi::lua_settop(l, 0);
        })?;
    }
    Ok(())
}

/// The `ctx` userdata's `__index(ctx, key)`: a field getter (called with the ctx), else a method, else
/// mlua's own `__index` (its errors included). Upvalues: the field getters, the methods, mlua's function.
/// A Lua error from a getter or mlua's function passes through this frame, which holds no Rust value.
unsafe extern "C-unwind" fn ctx_index(l: *mut mlua::ffi::lua_State) -> std::os::raw::c_int {
    use mlua::ffi;
    ffi::lua_settop(l, 2);
    ffi::lua_pushvalue(l, 2);
    if ffi::lua_rawget(l, ffi::lua_upvalueindex(1)) != ffi::LUA_TNIL {
        ffi::lua_pushvalue(l, 1);
        ffi::lua_call(l, 1, 1);
        return 1;
    }
    ffi::lua_pop(l, 1);
    ffi::lua_pushvalue(l, 2);
    if ffi::lua_rawget(l, ffi::lua_upvalueindex(2)) != ffi::LUA_TNIL {
        return 1;
    }
    ffi::lua_pop(l, 1);
    ffi::lua_pushvalue(l, ffi::lua_upvalueindex(3));
    ffi::lua_pushvalue(l, 1);
    ffi::lua_pushvalue(l, 2);
    ffi::lua_call(l, 2, 1);
    1
}
