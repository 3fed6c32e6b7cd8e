//! A hook's `ctx` as Lua sees it: a userdata of one `'static` type, so its metatable (every `ctx`
//! method) is built once per VM instead of once per call, as a scoped non-`'static` userdata would be.
//! The handle points at the call's [`Ctx`] and is destroyed before the call returns: a script that keeps
//! its `ctx` past the hook gets a Lua error, never the borrowed game.

use super::Ctx;
use crate::script::host::profiled_method;
use mlua::{AnyUserData, Lua};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The userdata a hook receives as `ctx`: a pointer to the [`Ctx`] of the call that created it.
pub(super) struct CtxHandle(NonNull<Ctx<'static>>);

impl Deref for CtxHandle {
    type Target = Ctx<'static>;

    fn deref(&self) -> &Ctx<'static> {
        // SAFETY: a handle is created only by `with_ctx`, which keeps the `Ctx` alive and unmoved
        // until it has destroyed the handle's userdata; mlua hands out `&CtxHandle` only while that
        // userdata is alive, and its own borrow flags keep `&` and `&mut` access exclusive.
        unsafe { self.0.as_ref() }
    }
}

impl DerefMut for CtxHandle {
    fn deref_mut(&mut self) -> &mut Ctx<'static> {
        // SAFETY: as in `deref`; `&mut self` comes from mlua's exclusive borrow of the userdata.
        let ctx = unsafe { self.0.as_mut() };
        // Whatever needs the ctx mutably may change the game: snapshots built so far are stale.
        ctx.seen.get_mut().clear();
        ctx.seen_buildings.get_mut().clear();
        ctx
    }
}

/// Destroys the handle's userdata when the call ends, on every path (an error or an unwinding panic
/// included), before the `Ctx` it points at goes out of scope.
struct Expire(AnyUserData);

impl Drop for Expire {
    fn drop(&mut self) {
        if self.0.destroy().is_err() {
            // Only a borrow of this very userdata still running could refuse; none can outlive the
            // call that made it. Were it to happen, going on would leave a pointer to a dead frame.
            std::process::abort();
        }
    }
}

/// Run `f` with `ctx` handed to Lua as a userdata that expires when `f` returns.
pub(super) fn with_ctx<R>(
    lua: &Lua,
    ctx: Ctx<'_>,
    f: impl FnOnce(AnyUserData) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let mut ctx = ctx;
    // The lifetime is erased here and nowhere else; `Expire` bounds the handle's life by `ctx`'s.
    let handle = CtxHandle(NonNull::from(&mut ctx).cast::<Ctx<'static>>());
    let ud = lua.create_userdata(handle)?;
    let _expire = Expire(ud.clone());
    f(ud)
}

/// A `ctx` method, counted under `ctx:name` while profiling is on (`village bench --profile`).
pub(super) fn timed<A, R>(
    name: &'static str,
    method: impl Fn(&Lua, &CtxHandle, A) -> mlua::Result<R>,
) -> impl Fn(&Lua, &CtxHandle, A) -> mlua::Result<R> {
    move |lua, this, args| profiled_method(lua, name, || method(lua, this, args))
}

/// A `ctx` method that needs the ctx mutably, counted like [`timed`].
pub(super) fn timed_mut<A, R>(
    name: &'static str,
    mut method: impl FnMut(&Lua, &mut CtxHandle, A) -> mlua::Result<R>,
) -> impl FnMut(&Lua, &mut CtxHandle, A) -> mlua::Result<R> {
    move |lua, this, args| profiled_method(lua, name, || method(lua, this, args))
}
