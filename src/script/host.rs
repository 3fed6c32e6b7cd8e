//! What every Lua callback of a VM can reach: its script roots, limits, instruction budget, the seeded
//! stream behind `math.random`, the rosters and the hooks registry. Stored as Lua app data.

use super::error::ScriptError;
use super::registry::Registry;
use super::vm::{Limits, ScriptRoot};
use crate::dice::Dice;
use crate::roster::Rosters;
use mlua::Lua;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;

/// The instruction budget of the call in progress. Shared with the instruction hook.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    pub remaining: Cell<u64>,
    pub exhausted: Cell<bool>,
    /// Calls into Lua in progress (nested hooks), so time is counted once.
    pub depth: Cell<u32>,
    /// Nanoseconds spent inside Lua calls since the VM was built.
    pub lua_nanos: Cell<u64>,
    /// Set while the kernel's own Lua code runs (building a snapshot): its instructions are not
    /// charged to the script whose call it serves, nor stopped outside any budget.
    pub kernel: Cell<bool>,
    /// Whether the budget in force is a hook's: a script the kernel calls while it runs (a
    /// `permissions` function asked through `ctx:permission`) spends from it too. A chunk's budget
    /// (`village run`, a REPL line) does not pay for the games it plays.
    pub charges_nested: Cell<bool>,
    /// When the call in force must have returned, whatever its instructions: the safety net for work
    /// no instruction count sees (a long `..` in a loop, a C function that walks a huge value).
    pub deadline: Cell<Option<std::time::Instant>>,
    /// Script calls that failed since the VM was built: a command during which one failed is undone
    /// whole (`api::game`'s sessions), so no failure leaves a game half-changed.
    pub failures: Cell<u64>,
}

impl Budget {
    /// Spend `units` of the running script's budget on work a C function is about to do (one unit per
    /// VM instruction the same work would take in Lua, roughly), or the budget error once it is spent,
    /// as the instruction hook would raise it. The kernel's own work is not charged.
    pub fn charge(&self, lua: &Lua, units: u64) -> mlua::Result<()> {
        if self.kernel.get() {
            return Ok(());
        }
        let left = self.remaining.get();
        if self.exhausted.get() || units > left {
            self.exhausted.set(true);
            self.remaining.set(0);
            return Err(mlua::Error::runtime(format!(
                "{}{}",
                script_location(lua),
                super::vm::BUDGET_MESSAGE
            )));
        }
        self.remaining.set(left - units);
        Ok(())
    }

    /// Whether the call in force has run past its deadline.
    pub fn overdue(&self) -> bool {
        self.deadline
            .get()
            .is_some_and(|d| std::time::Instant::now() >= d)
    }
}

/// `file:line: ` of the innermost Lua function on the stack (the script calling a C function), or
/// nothing when there is none.
pub(crate) fn script_location(lua: &Lua) -> String {
    for level in 0..8 {
        let found = lua.inspect_stack(level, |d| {
            let line = d.current_line()?;
            let src = d.source();
            let file = src.short_src.as_deref()?.to_string();
            // The sandbox's own wrappers (`=sandbox`) are not where the script is.
            (!super::api::convert::skipped_source(&file)).then(|| format!("{file}:{line}: "))
        });
        match found {
            Some(Some(at)) => return at,
            Some(None) => continue,
            None => break,
        }
    }
    String::new()
}

/// `e` with the script's `file:line: ` in front when its message names no place: the error of a C
/// function the sandbox calls from Rust (its `setmetatable`), where Lua finds no Lua caller to name.
pub(crate) fn at_script(lua: &Lua, e: mlua::Error) -> mlua::Error {
    match e {
        mlua::Error::RuntimeError(text) if !super::error::has_location(&text) => {
            mlua::Error::runtime(format!("{}{text}", script_location(lua)))
        }
        other => other,
    }
}

/// Runs `f`, the kernel's own work on the Lua state (building views, answering a `ctx` method), with the
/// budget not counting (see [`Budget::kernel`]) and the memory limit lifted: under a limit mlua guards
/// every value it pushes, every table slot it sets and every string key it looks up with a protected
/// call, which made that guard a tenth of a game's time. What the kernel builds here is a few small
/// tables; the limit is back before any script runs again, and a script the kernel calls meanwhile (a
/// hook inside a `ctx` method) runs under its own budget and the limit ([`with_budget`]). Outside every
/// script call there is no limit to lift (the limit holds while a script runs: [`with_budget`]).
pub(crate) fn kernel_lua<R>(lua: &Lua, budget: &Budget, memory: usize, f: impl FnOnce() -> R) -> R {
    struct Restore<'a> {
        lua: &'a Lua,
        budget: &'a Budget,
        limit: usize,
    }
    impl Drop for Restore<'_> {
        fn drop(&mut self) {
            self.budget.kernel.set(false);
            // A VM opened with memory control keeps it; if not, there was no limit to lift.
            let _ = self.lua.set_memory_limit(self.limit);
        }
    }
    if budget.kernel.replace(true) {
        return f(); // already inside: the outermost restores
    }
    if budget.depth.get() == 0 {
        // No script is running, so no memory limit is in force (`with_budget` sets one only for its
        // call): only the budget's mode changes.
        struct Back<'a>(&'a Budget);
        impl Drop for Back<'_> {
            fn drop(&mut self) {
                self.0.kernel.set(false);
            }
        }
        let _back = Back(budget);
        return f();
    }
    let _restore = Restore {
        lua,
        budget,
        limit: lua.set_memory_limit(0).unwrap_or(memory),
    };
    f()
}

/// The part of a VM that making a new game replaces ([`Host::session_state`]).
pub(crate) struct SessionState {
    registry: Rc<Registry>,
    unused: bool,
    required: BTreeMap<String, super::vm::Chunk>,
    require_cache: mlua::Value,
    dice: Dice,
    default_seed: u64,
}

/// Per-VM state shared by the API callbacks.
pub(crate) struct Host {
    pub roots: Vec<ScriptRoot>,
    pub limits: Limits,
    pub budget: Rc<Budget>,
    pub dice: Rc<RefCell<Dice>>,
    /// Every file loaded through `require` or as a script, for hot reload.
    pub loaded: RefCell<Vec<PathBuf>>,
    /// The seed `village.new_game` uses when none is given (`village run --seed`).
    pub default_seed: Cell<u64>,
    /// The rosters of the roots' layers; `None` for a bare sandbox VM.
    pub rosters: RefCell<Option<Rc<Rosters>>>,
    /// The script modules; replaced whole by a reload, or by their fresh state for a new game.
    registry: RefCell<Rc<Registry>>,
    /// Whether no game has run on the registry's modules since they were loaded: the next game may
    /// use them as they are, instead of running them again ([`Host::fresh_registry`]).
    registry_unused: Cell<bool>,
    /// The compiled code of every file `require`d since the registry was loaded, by module name: a
    /// game's fresh module state runs it again without reading the disk (which may hold a newer,
    /// broken version the last reload refused).
    pub required: RefCell<BTreeMap<String, super::vm::Chunk>>,
    /// When on (`village bench --profile`): calls and nanoseconds by the Lua function the kernel
    /// called, named `file:line` where it is defined.
    pub profile: RefCell<Option<BTreeMap<String, (u64, u64)>>>,
    /// When on (`village bench --profile`): the Lua lines the instruction hook found running, each
    /// time it fired (every `HOOK_STRIDE` VM instructions of a script), by `file:line`: where the
    /// scripts' own instructions go (what `ctx` methods do in Rust is in `profile`).
    pub lines: Rc<RefCell<Option<BTreeMap<String, u64>>>>,
    /// Where a script's `print` goes: stderr (the default: stdout carries the command's own output,
    /// one JSON object under `--json`), or stdout where the person reads it (`village run`, the REPL).
    pub print_stdout: Cell<bool>,
    /// How many games `village.new_game` made in this VM are alive (held by a script or not yet
    /// collected): at most `api::game::MAX_LIVE_GAMES`.
    pub games: Rc<Cell<usize>>,
    /// When on (the viewer's recording, `ScriptHost::play_recorded`): the next `village.new_game`
    /// records the game's frames from its `setup` event, before any model is placed (and turns this
    /// off).
    pub record_frames: Cell<bool>,
}

impl Host {
    pub fn new(roots: Vec<ScriptRoot>, limits: Limits, seed: u64) -> Self {
        Host {
            roots,
            limits,
            budget: Rc::new(Budget::default()),
            dice: Rc::new(RefCell::new(Dice::new(seed))),
            loaded: RefCell::new(Vec::new()),
            default_seed: Cell::new(seed),
            rosters: RefCell::new(None),
            registry: RefCell::new(Rc::new(Registry::default())),
            registry_unused: Cell::new(true),
            required: RefCell::new(BTreeMap::new()),
            profile: RefCell::new(None),
            lines: Rc::new(RefCell::new(None)),
            print_stdout: Cell::new(false),
            games: Rc::new(Cell::new(0)),
            record_frames: Cell::new(false),
        }
    }

    /// The rosters, or an error for a VM opened without them.
    pub fn rosters(&self) -> mlua::Result<Rc<Rosters>> {
        self.rosters
            .borrow()
            .clone()
            .ok_or_else(|| mlua::Error::runtime("no rosters are loaded in this VM"))
    }

    /// Remember a loaded file for hot reload, once (a reload requires the same files again).
    pub fn note_loaded(&self, path: &std::path::Path) {
        let mut loaded = self.loaded.borrow_mut();
        if !loaded.iter().any(|p| p == path) {
            loaded.push(path.to_path_buf());
        }
    }

    /// The current registry (a cheap handle; a reload swaps in a new one).
    pub fn registry(&self) -> Rc<Registry> {
        self.registry.borrow().clone()
    }

    /// Install a newly loaded registry (games already started keep the one they began with).
    pub fn set_registry(&self, registry: Registry) {
        *self.registry.borrow_mut() = Rc::new(registry);
        self.registry_unused.set(true);
    }

    /// Say that a game has run on the registry's modules (the REPL's live game, even after a reload
    /// installed them): the next [`Host::fresh_registry`] runs them again.
    pub fn modules_used(&self) {
        self.registry_unused.set(false);
    }

    /// What making a new game changes in the VM (the modules' state with the `require` cache, the
    /// VM's stream and the default seed), to put back when it fails.
    pub fn session_state(&self, lua: &Lua) -> SessionState {
        SessionState {
            registry: self.registry(),
            unused: self.registry_unused.get(),
            required: self.required.borrow().clone(),
            require_cache: lua
                .named_registry_value::<mlua::Value>(super::vm::REQUIRE_CACHE)
                .unwrap_or(mlua::Value::Nil),
            dice: self.dice.borrow().clone(),
            default_seed: self.default_seed.get(),
        }
    }

    /// Put back what [`Host::session_state`] kept.
    pub fn restore_session_state(&self, lua: &Lua, s: SessionState) {
        *self.registry.borrow_mut() = s.registry;
        self.registry_unused.set(s.unused);
        *self.required.borrow_mut() = s.required;
        // Best effort, as a failed reload's: without it, `require` would only load modules afresh.
        let _ = lua.set_named_registry_value(super::vm::REQUIRE_CACHE, s.require_cache);
        *self.dice.borrow_mut() = s.dice;
        self.default_seed.set(s.default_seed);
    }

    /// The registry for a game about to start, with fresh module state: the modules as loaded when
    /// no game has used them yet, else run again ([`Registry::fresh`]), so a game never sees what an
    /// earlier game on this VM left in a module.
    pub fn fresh_registry(&self, lua: &Lua) -> Result<Rc<Registry>, super::error::ScriptError> {
        if !self.registry_unused.replace(false) {
            let fresh = self.registry().fresh(lua, self.limits.hook_instructions)?;
            *self.registry.borrow_mut() = Rc::new(fresh);
        }
        Ok(self.registry())
    }
}

/// The host of a Lua state. Every VM built by [`super::Vm::new`] has one.
pub(crate) fn host(lua: &Lua) -> mlua::Result<Rc<Host>> {
    lua.app_data_ref::<Rc<Host>>()
        .map(|h| h.clone())
        .ok_or_else(|| mlua::Error::runtime("this Lua state has no village host"))
}

/// Set once any VM of the process turns profiling on: until then a profiled call costs one load.
pub(crate) static PROFILING: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// The host, when it is profiling.
fn profiling(lua: &Lua) -> Option<Rc<Host>> {
    if !PROFILING.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    host(lua).ok().filter(|h| h.profile.borrow().is_some())
}

/// Run `call` and add its count and time under `key` in `host`'s profile.
fn timed_into<R>(host: &Host, key: String, call: impl FnOnce() -> R) -> R {
    let start = std::time::Instant::now();
    let result = call();
    let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    if let Some(map) = host.profile.borrow_mut().as_mut() {
        let e = map.entry(key).or_default();
        e.0 += 1;
        e.1 = e.1.saturating_add(nanos);
    }
    result
}

/// Run `call`, the kernel calling the script function `f`; while profiling is on, count it and its time
/// (inclusive: a hook it sets off is counted in both) under `f`'s `file:line`.
pub(crate) fn profiled<T>(
    lua: &Lua,
    f: &mlua::Function,
    call: impl FnOnce() -> mlua::Result<T>,
) -> mlua::Result<T> {
    let result = match profiling(lua) {
        None => call(),
        Some(host) => timed_into(&host, defined_at(f), call),
    };
    // Lua's out-of-memory error carries no position: name the function the kernel called.
    match result {
        Err(mlua::Error::MemoryError(_)) => Err(mlua::Error::runtime(format!(
            "{}: not enough memory (the VM's limit) in the function defined there",
            defined_at(f)
        ))),
        other => other,
    }
}

/// Where a Lua function is defined: `file:line`.
fn defined_at(f: &mlua::Function) -> String {
    let info = f.info();
    format!(
        "{}:{}",
        info.short_src.as_deref().unwrap_or("?"),
        info.line_defined.unwrap_or(0)
    )
}

/// Run `call`, a `ctx` method a script called; while profiling is on, count it under `ctx:name`.
pub(crate) fn profiled_method<R>(lua: &Lua, name: &str, call: impl FnOnce() -> R) -> R {
    match profiling(lua) {
        Some(host) => timed_into(&host, format!("ctx:{name}"), call),
        None => call(),
    }
}

/// Run `f` with a fresh instruction budget; nested calls (a hook inside a chunk) get their own budget
/// and restore the outer one afterwards. Inside a hook's budget a nested call gets no more than the
/// hook has left, and what it spends is the hook's ([`Budget::charges_nested`]). A call also has a
/// wall-clock deadline (`Limits::hook_millis` or `chunk_millis`, by the budget it was given).
pub(crate) fn with_budget<R>(
    lua: &Lua,
    instructions: u64,
    f: impl FnOnce() -> mlua::Result<R>,
) -> Result<R, ScriptError> {
    let (budget, limit, limits) = match host(lua) {
        Ok(h) => (h.budget.clone(), h.limits.memory, h.limits),
        Err(e) => return Err(ScriptError::from_lua(e)),
    };
    let saved = (
        budget.remaining.get(),
        budget.exhausted.get(),
        budget.charges_nested.get(),
        budget.deadline.get(),
    );
    let nested_in_hook = budget.depth.get() > 0 && saved.2;
    let given = if nested_in_hook {
        instructions.min(saved.0)
    } else {
        instructions
    };
    budget.remaining.set(given);
    budget.exhausted.set(nested_in_hook && saved.1);
    let is_hook = instructions <= limits.hook_instructions;
    budget.charges_nested.set(is_hook || nested_in_hook);
    let millis = if is_hook {
        limits.hook_millis
    } else {
        limits.chunk_millis
    };
    let deadline = std::time::Instant::now().checked_add(std::time::Duration::from_millis(millis));
    budget.deadline.set(match (saved.3, deadline) {
        (Some(outer), Some(own)) => Some(outer.min(own)),
        (outer, own) => own.or(outer),
    });
    // A script runs counted and under the VM's memory limit, wherever it is called from (the kernel's
    // own work, as a hook inside a `ctx` method, runs neither); the caller's mode is back when it
    // returns. Outside scripts the limit is lifted, so the kernel's Lua work is never guarded.
    let in_kernel = budget.kernel.replace(false);
    let outer_limit = lua.set_memory_limit(limit).unwrap_or(limit);
    // Time spent in Lua, counted once for nested calls (a hook inside a chunk): `village bench`.
    let outermost = budget.depth.get() == 0;
    budget.depth.set(budget.depth.get() + 1);
    let start = outermost.then(std::time::Instant::now);
    let result = f();
    budget.kernel.set(in_kernel);
    let _ = lua.set_memory_limit(outer_limit);
    budget.depth.set(budget.depth.get() - 1);
    if let Some(t) = start {
        let nanos = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
        budget
            .lua_nanos
            .set(budget.lua_nanos.get().saturating_add(nanos));
    }
    if nested_in_hook {
        // What the nested call spent is the hook's; a nested call that ran the hook's budget out
        // leaves it exhausted, so the hook stops too (its `pcall` re-raises).
        let spent = given - budget.remaining.get().min(given);
        let left = saved.0.saturating_sub(spent);
        budget.remaining.set(left);
        budget
            .exhausted
            .set(saved.1 || (budget.exhausted.get() && given == saved.0));
    } else {
        budget.remaining.set(saved.0);
        budget.exhausted.set(saved.1);
    }
    budget.charges_nested.set(saved.2);
    budget.deadline.set(saved.3);
    if result.is_err() {
        budget.failures.set(budget.failures.get() + 1);
    }
    result.map_err(ScriptError::from_lua)
}
