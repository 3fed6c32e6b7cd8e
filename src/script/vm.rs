//! The sandboxed Lua VM: an explicit library list, a `require` confined to the script folders, a memory
//! limit, an instruction budget per call that `pcall` cannot escape, and `math.random` on seeded dice.
//!
//! Scripts are shared between players, so they are treated as untrusted: no `io`, `os`, `package`,
//! `debug`, no bytecode, no `dofile`/`loadfile`, and every chunk is named by its path so an error reads
//! `scripts/traits/savage.lua:12: …`.

use super::error::ScriptError;
use super::host::{script_location, with_budget, Host};
use crate::dice::Dice;
use mlua::chunk::ChunkMode;
use mlua::{HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Resource limits of a VM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes the VM may allocate.
    pub memory: usize,
    /// VM instructions one hook call may execute.
    pub hook_instructions: u64,
    /// VM instructions a top-level chunk (`village run`, a REPL line) may execute.
    pub chunk_instructions: u64,
    /// Wall-clock milliseconds one hook call may take: a safety net, far above what its instructions
    /// take, for work the instruction count cannot see (a huge `..` in a loop).
    pub hook_millis: u64,
    /// The same for a top-level chunk (it may play whole games).
    pub chunk_millis: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: 256 * 1024 * 1024,
            // About 10–50 ms of plain Lua on this class of machine: far above any sane hook.
            hook_instructions: 5_000_000,
            // A few seconds: room for long experiments, still a bound on a forgotten loop.
            chunk_instructions: 500_000_000,
            // A hook's 5 M instructions take 10–50 ms: 1.9 s is nearly forty times that, and a hook that
            // hits it has stopped within 2 s (the hook looks at the clock every 1,000 instructions).
            hook_millis: 1_900,
            // A chunk may play many games; ten minutes still ends a forgotten loop of `..`.
            chunk_millis: 600_000,
        }
    }
}

/// How often the instruction hook runs while a budget has instructions left.
const HOOK_STRIDE: u32 = 1000;

/// The error text of an exhausted budget; also how `pcall` recognises it.
pub const BUDGET_MESSAGE: &str = "instruction budget exhausted (a runaway loop?)";

/// Compile `src` as a text chunk named `name` (`@path` for a file, `=name` otherwise), refusing first what
/// the sandbox cannot meter (`source_check`): every script, `require`d module, `load`ed string and REPL
/// or `village run` chunk comes through here.
pub(crate) fn compile(lua: &Lua, src: &[u8], name: &str) -> mlua::Result<mlua::Function> {
    let src = strip_bom(src);
    if let Some(line) = super::source_check::to_be_closed_line(src) {
        let shown = name.trim_start_matches(['@', '=']);
        return Err(mlua::Error::runtime(format!(
            "{shown}:{line}: to-be-closed variables (<close>) are not available in the sandbox: their \
             __close would run outside the instruction budget when a budget error unwinds them"
        )));
    }
    lua.load(src)
        .set_name(name)
        .set_mode(ChunkMode::Text)
        .into_function()
}

/// The error text of a call that ran past its wall-clock limit (`Limits::hook_millis`).
pub const TIME_MESSAGE: &str =
    "the call ran past its time limit (work the instruction budget cannot count, such as a huge `..` in a loop?)";

/// Where `require` keeps the modules it loaded (the Lua registry; `reload.rs` and fresh module state
/// for each game clear it).
pub(crate) const REQUIRE_CACHE: &str = "village.loaded";
/// The Lua registry key of the function that makes a read-only view of a library table.
const FREEZE: &str = "village.freeze";

/// The sandbox's environments, in Lua. Given the globals, `load` and `error`, it freezes the standard
/// library tables (a read-only view in each global; `rawset` refuses them; the string metatable is
/// protected) and returns `new_env` (a module's environment: its own table, reading through to the
/// globals, with `_G` and `load` bound to it) and `freeze` (for the `village` table).
///
/// A view never hands out the table behind it: its metatable is hidden (`__metatable`), it holds no
/// key of its own (`next`, `rawget`), `pairs` walks it with an iterator whose state is the view, and a
/// table inside a frozen table (the string metatable's `__index`, which is `string`) is shown as its
/// own view. Reads go straight to a table (`__index` is a table, not a function), so a library call
/// costs what it did before the view.
const ENVIRONMENTS: &str = r##"
local G, load, error = ...
local setmetatable, rawset, select, next, tostring, ipairs, type =
  setmetatable, rawset, select, next, tostring, ipairs, type
local frozen = setmetatable({}, { __mode = "k" })
-- The view of every table frozen so far, by that table: a table met again gets the same view.
local views = setmetatable({}, { __mode = "k" })
local function freeze(name, t)
  if views[t] then return views[t] end
  local view = {}
  frozen[view] = name
  views[t] = view
  -- What the view reads: `t` itself, or, when `t` holds tables (which it would hand out writable), a
  -- copy of it holding their views. The copy is taken now: a table frozen with tables in it must be
  -- complete (the string metatable and the libraries are).
  local shown = t
  for k, v in next, t do
    if type(v) == "table" then
      if shown == t then
        shown = {}
        for k2, v2 in next, t do shown[k2] = v2 end
      end
      shown[k] = freeze("`" .. tostring(k) .. "` of " .. name, v)
    end
  end
  -- `pairs(view)` lists what the view reads, with the view as the loop's state: `next, t` would give
  -- the script `t` itself, and with it every library writable.
  local function iterate(_, k) return next(shown, k) end
  return setmetatable(view, {
    __index = shown,
    __newindex = function(_, k)
      error(name .. " is shared by every script and read-only (cannot set `" .. tostring(k)
        .. "`): keep your own version in a local", 2)
    end,
    __pairs = function() return iterate, view, nil end,
    __len = function() return #shown end,
    __metatable = false,
  })
end
for _, name in ipairs({ "string", "table", "math", "utf8", "coroutine" }) do
  rawset(G, name, freeze("`" .. name .. "`", G[name]))
end
rawset(G, "rawset", function(t, k, v)
  if frozen[t] then
    error(frozen[t] .. " is shared by every script and read-only (rawset)", 2)
  end
  return rawset(t, k, v)
end)
local strings = getmetatable("")
strings.__metatable = freeze("the string metatable", strings)
local env_mt = { __index = G, __metatable = false }
local function new_env()
  local env = {}
  env._G = env
  env.load = function(...)
    if select("#", ...) >= 4 then return load(...) end
    local chunk, name, mode = ...
    return load(chunk, name, mode, env)
  end
  return setmetatable(env, env_mt)
end
-- A holder of `env`: a function whose one upvalue is `env`, fresh at each call (see `run_again`).
local function hold(env)
  return function() return env end
end
return new_env, freeze, hold
"##;

/// The sandbox's functions that make a module environment and a holder of one, kept where the kernel
/// finds them without a registry lookup by name (every game makes one of each for each of its modules).
struct Environments {
    new_env: mlua::Function,
    hold: mlua::Function,
}

/// Call one of the sandbox's own functions (`pick` chooses it from [`Environments`]) as the kernel's
/// work wherever it is called from: a module's chunk is given its environment as it loads, before any
/// budget is set for running it.
fn sandbox_call<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
    lua: &Lua,
    pick: impl FnOnce(&Environments) -> &mlua::Function,
    args: A,
) -> mlua::Result<R> {
    let f = lua
        .app_data_ref::<Environments>()
        .map(|e| pick(&e).clone())
        .ok_or_else(|| mlua::Error::runtime("the sandbox's environments were not installed"))?;
    match super::host::host(lua) {
        Ok(h) => super::host::kernel_lua(lua, &h.budget, h.limits.memory, || f.call(args)),
        Err(_) => f.call(args),
    }
}

/// A new module environment (see [`ENVIRONMENTS`]).
pub(crate) fn new_environment(lua: &Lua) -> mlua::Result<Table> {
    sandbox_call(lua, |e| &e.new_env, ())
}

/// A compiled chunk kept to be run again, once a game (a module's file, a `require`d library): its
/// main function, given a fresh environment before each run by [`run_again`].
pub(crate) type Chunk = mlua::Function;

/// `chunk` with a new module environment as its globals, ready to run again: fresh module state,
/// without loading the chunk again. The main function's `_ENV` upvalue is joined to a new upvalue
/// (a fresh holder's) rather than set: the functions an earlier run made share the old upvalue, and
/// keep the environment they were made in.
pub(crate) fn run_again(lua: &Lua, chunk: &Chunk) -> mlua::Result<mlua::Function> {
    let holder: mlua::Function = sandbox_call(lua, |e| &e.hold, new_environment(lua)?)?;
    // SAFETY: both functions are Lua closures with at least one upvalue (a main chunk's first is its
    // `_ENV`; the holder's only one is `env`); the stack is left as found.
    unsafe {
        lua.exec_raw::<()>((chunk, &holder), |l| {
            mlua::ffi::lua_upvaluejoin(l, -2, 1, -1, 1);
            mlua::ffi::lua_pop(l, 2);
        })?;
    }
    Ok(chunk.clone())
}

/// A read-only view of `t`, shown as `name` in the error a write gets (see [`ENVIRONMENTS`]).
pub(crate) fn freeze(lua: &Lua, name: &str, t: Table) -> mlua::Result<Table> {
    let f = lua.named_registry_value::<mlua::Function>(FREEZE)?;
    // The kernel's work, as `sandbox_call` runs the sandbox's other functions.
    match super::host::host(lua) {
        Ok(h) => super::host::kernel_lua(lua, &h.budget, h.limits.memory, || f.call((name, t))),
        Err(_) => f.call((name, t)),
    }
}

/// The table behind a read-only view made by [`freeze`] (`string`, `village`, ...), or `t` itself:
/// what the REPL lists and completes.
pub(crate) fn behind_view(t: &Table) -> Table {
    let Some(mt) = t.metatable() else {
        return t.clone();
    };
    let protected = matches!(
        mt.raw_get::<Value>("__metatable"),
        Ok(Value::Boolean(false))
    );
    match mt.raw_get::<Value>("__index") {
        Ok(Value::Table(inner))
            if protected
                && mt
                    .raw_get::<Value>("__newindex")
                    .is_ok_and(|v| v.is_function()) =>
        {
            inner
        }
        _ => t.clone(),
    }
}

/// `src` without a UTF-8 byte order mark (editors on some systems save one; Lua calls it a syntax
/// error).
fn strip_bom(src: &[u8]) -> &[u8] {
    src.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(src)
}

/// One script folder layer: its files and the name shown in chunk names and errors.
#[derive(Debug, Clone)]
pub struct ScriptRoot {
    /// The folder that holds the scripts (a `scripts/` folder).
    pub dir: PathBuf,
    /// How its files are named in errors: `scripts` for the built-in folder, the mod path otherwise.
    pub label: String,
}

/// A sandboxed Lua VM.
pub struct Vm {
    lua: Lua,
    host: Rc<Host>,
}

impl Vm {
    /// A VM over the given script roots, seeded for `math.random`.
    pub fn new(roots: Vec<ScriptRoot>, limits: Limits, seed: u64) -> Result<Vm, ScriptError> {
        let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
        let lua = Lua::new_with(libs, LuaOptions::default()).map_err(ScriptError::from_lua)?;
        // The limit holds while a script runs (`with_budget` sets it for the call); the kernel's own
        // Lua work between calls runs without it (`host::kernel_lua`).
        lua.set_memory_limit(0).map_err(ScriptError::from_lua)?;
        lua.gc_set_mode(mlua::state::GcMode::Generational(
            mlua::state::GcGenParams::default(),
        ));
        let host = Rc::new(Host::new(roots, limits, seed));
        lua.set_app_data(host.clone());
        let vm = Vm { lua, host };
        vm.install_hook().map_err(ScriptError::from_lua)?;
        // The sandbox's own Lua (freezing the libraries, wrapping the charged functions) is the
        // kernel's work: with no budget in force, the instruction hook would stop it.
        super::host::kernel_lua(&vm.lua, &vm.host.budget, limits.memory, || vm.harden())
            .map_err(ScriptError::from_lua)?;
        Ok(vm)
    }

    /// The limits this VM was built with.
    pub fn limits(&self) -> Limits {
        self.host.limits
    }

    /// The host state shared with the API (rosters, script roots, registry).
    pub(crate) fn host(&self) -> &Rc<Host> {
        &self.host
    }

    /// The Lua state, for the rest of `script/`.
    pub(crate) fn lua(&self) -> &Lua {
        &self.lua
    }

    /// Files loaded so far (scripts and everything they `require`d).
    pub fn loaded_files(&self) -> Vec<PathBuf> {
        self.host.loaded.borrow().clone()
    }

    fn install_hook(&self) -> mlua::Result<()> {
        let budget = self.host.budget.clone();
        let lines = self.host.lines.clone();
        // A global hook is inherited by every coroutine, so a script cannot hide a loop in one.
        self.lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(HOOK_STRIDE),
            move |lua, debug| {
                if budget.kernel.get() {
                    return Ok(VmState::Continue);
                }
                // Spend the rest and name the file and line the loop was caught at, as Lua's own
                // errors do; caught in the sandbox's own Lua (a charged function's wrapper), the
                // script line that called it.
                let stop = |message: &str| {
                    budget.exhausted.set(true);
                    budget.remaining.set(0);
                    let src = debug.source();
                    let file = src.short_src.as_deref().unwrap_or("?").to_string();
                    let line = debug.current_line().unwrap_or(0);
                    let at = match script_location(lua) {
                        found if file == "sandbox" && !found.is_empty() => found,
                        _ => format!("{file}:{line}: "),
                    };
                    Err(mlua::Error::runtime(format!("{at}{message}")))
                };
                if budget.overdue() {
                    return stop(TIME_MESSAGE);
                }
                let left = budget.remaining.get();
                if budget.exhausted.get() || left < u64::from(HOOK_STRIDE) {
                    return stop(BUDGET_MESSAGE);
                }
                budget.remaining.set(left - u64::from(HOOK_STRIDE));
                if super::host::PROFILING.load(std::sync::atomic::Ordering::Relaxed) {
                    sample_line(&lines, debug);
                }
                Ok(VmState::Continue)
            },
        )
    }

    /// Remove what the sandbox must not offer and wrap what could escape the budget.
    fn harden(&self) -> mlua::Result<()> {
        let lua = &self.lua;
        let g = lua.globals();
        for name in ["dofile", "loadfile", "load", "require", "collectgarbage"] {
            g.set(name, Value::Nil)?;
        }
        let string: Table = g.get("string")?;
        string.set("dump", Value::Nil)?;

        // `load` of text only, with a chunk name we control and Lua's `env` argument honoured (a
        // module's own `load` defaults it to the module's environment: see `ENVIRONMENTS`).
        // Compiling is C work that grows with the text: charged by its length.
        let budget = self.host.budget.clone();
        let load = lua.create_function(move |lua, args: MultiValue| {
            let n = args.len();
            let mut args = args.into_iter();
            let src = match args.next() {
                Some(Value::String(s)) => s,
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "{}bad argument #1 to 'load' (the sandbox loads source text, got {})",
                        script_location(lua),
                        other.as_ref().map_or("no value", Value::type_name)
                    )))
                }
            };
            let name = match args.next() {
                Some(Value::String(s)) => s.to_string_lossy(),
                _ => "=(load)".to_string(),
            };
            if let Some(Value::String(mode)) = args.next() {
                if !mode.as_bytes().contains(&b't') {
                    let text = "attempt to load a text chunk (binary chunks are not available in the sandbox)";
                    return Ok((Value::Nil, Value::String(lua.create_string(text)?)));
                }
            }
            let env = match (n >= 4, args.next()) {
                (false, _) => None,
                (true, Some(Value::Table(t))) => Some(t),
                (true, other) => {
                    return Err(mlua::Error::runtime(format!(
                        "{}bad argument #4 to 'load' (the environment must be a table, got {})",
                        script_location(lua),
                        other.as_ref().map_or("nil", Value::type_name)
                    )))
                }
            };
            // Compiling costs far more per byte than copying: a unit per two bytes.
            budget.charge(lua, src.as_bytes().len() as u64 / 2)?;
            match compile(lua, &src.as_bytes(), &name) {
                Ok(f) => {
                    if let Some(env) = env {
                        f.set_environment(env)?;
                    }
                    Ok((Value::Function(f), Value::Nil))
                }
                // Lua's own `load` gives the bare message (`chunk:1: ...`), not mlua's wording.
                Err(e) => {
                    let text = match e {
                        mlua::Error::RuntimeError(m) => m,
                        mlua::Error::SyntaxError { message, .. } => message,
                        other => other.to_string(),
                    };
                    Ok((Value::Nil, Value::String(lua.create_string(text)?)))
                }
            }
        })?;
        g.set("load", load)?;

        // `collectgarbage` limited to the harmless queries: the options that stop, restart or retune
        // the collector would change it for every script and for the kernel's own Lua work. A
        // collection walks the whole heap, so it is charged like scanning it.
        let budget = self.host.budget.clone();
        let collect = lua.create_function(move |lua, opt: Option<mlua::LuaString>| {
            let opt = opt.map_or_else(|| "collect".to_string(), |s| s.to_string_lossy());
            match opt.as_str() {
                "count" => Ok(lua.used_memory() as f64 / 1024.0),
                "collect" | "step" => {
                    budget.charge(lua, lua.used_memory() as u64 / 16)?;
                    lua.gc_collect()?;
                    Ok(0.0)
                }
                other => Err(mlua::Error::runtime(format!(
                    "{}collectgarbage({other:?}) is not available in the sandbox",
                    script_location(lua)
                ))),
            }
        })?;
        g.set("collectgarbage", collect)?;

        // Before `pcall` is wrapped: the charged functions' wrappers call Lua's own (a budget error
        // inside, from a sort's comparator, is raised again by them anyway).
        self.charge_c_functions()?;

        // pcall/xpcall/coroutine.resume that re-raise an exhausted budget, so a loop around them
        // cannot swallow the error and keep running.
        let budget = self.host.budget.clone();
        let rethrow = lua.create_function(move |lua, args: MultiValue| {
            if budget.exhausted.get() {
                return Err(mlua::Error::runtime(format!(
                    "{}{BUDGET_MESSAGE}",
                    script_location(lua)
                )));
            }
            Ok(args)
        })?;
        // An error the budget raises comes from inside Lua's count hook, where hooks are off: a
        // message handler that ran then would run outside every budget, so xpcall's handler is skipped
        // for it (the budget error is re-raised anyway).
        let budget = self.host.budget.clone();
        let exhausted = lua.create_function(move |_, ()| Ok(budget.exhausted.get()))?;
        let wrap: mlua::Function = lua
            .load(
                r#"
                local rethrow, pcall, xpcall, resume, exhausted = ...
                local function pass(...) return rethrow(...) end
                return function(...) return pass(pcall(...)) end,
                       function(f, handler, ...)
                         local function guarded(...)
                           if exhausted() then return ... end
                           return handler(...)
                         end
                         return pass(xpcall(f, guarded, ...))
                       end,
                       function(...) return pass(resume(...)) end
                "#,
            )
            .set_name("=sandbox")
            .into_function()?;
        let coroutine: Table = g.get("coroutine")?;
        let (pcall, xpcall, resume): (mlua::Function, mlua::Function, mlua::Function) =
            wrap.call((
                rethrow,
                g.get::<mlua::Function>("pcall")?,
                g.get::<mlua::Function>("xpcall")?,
                coroutine.get::<mlua::Function>("resume")?,
                exhausted,
            ))?;
        g.set("pcall", pcall)?;
        g.set("xpcall", xpcall)?;
        coroutine.set("resume", resume)?;

        // No finalizers: Lua runs `__gc` with hooks off, wherever a collection happens (in a script, in
        // the kernel between calls), so a looping one could never be stopped. Lua marks a table for
        // finalization only when its metatable already has `__gc` at `setmetatable`, so refusing it
        // there is enough.
        let setmetatable: mlua::Function = g.get("setmetatable")?;
        let guarded = lua.create_function(move |lua, (t, mt): (Value, Value)| {
            if let Value::Table(m) = &mt {
                if !m.raw_get::<Value>("__gc")?.is_nil() {
                    return Err(mlua::Error::runtime(format!(
                        "{}setmetatable: __gc finalizers are not available in the sandbox (they \
                         run outside the instruction budget)",
                        script_location(lua)
                    )));
                }
            }
            // Its own errors ("cannot change a protected metatable") at the script's line: called
            // from here, Lua finds no Lua caller to name.
            setmetatable
                .call::<Value>((t, mt))
                .map_err(|e| super::host::at_script(lua, e))
        })?;
        g.set("setmetatable", guarded)?;

        // `print` on stderr, never on stdout: `village sim --json` and `play --json` print one JSON
        // object there, which a hook's debugging line would corrupt. `village run` and the REPL, whose
        // stdout a person reads, turn it back to stdout (`ScriptHost::print_to_stdout`).
        let host = self.host.clone();
        // There a table prints as the REPL shows it (its keys and values), not as `table: 0x…`.
        // A Lua string may hold any bytes: each sequence that is not UTF-8 prints as U+FFFD, so a
        // Latin-1 byte never stops a hook.
        let tostring: mlua::Function = g.get("tostring")?;
        let print = lua.create_function(move |lua, args: MultiValue| {
            let mut line = String::new();
            let readable = host.print_stdout.get();
            for (i, v) in args.iter().enumerate() {
                if i > 0 {
                    line.push('\t');
                }
                match v {
                    Value::Table(_) if readable => line.push_str(&super::repl::render(lua, v)),
                    Value::String(s) => line.push_str(&s.to_string_lossy()),
                    Value::Nil | Value::Boolean(_) | Value::Integer(_) | Value::Number(_) => {
                        line.push_str(&v.to_string()?)
                    }
                    // Its `__tostring`, which may return any bytes too.
                    _ => line.push_str(&tostring.call::<mlua::LuaString>(v)?.to_string_lossy()),
                }
            }
            line.push('\n');
            // Through the one printer, terminal-safe (a script's escapes are shown, not obeyed); a
            // stdout that cannot be written is the command's error at its end, not the script's.
            if host.print_stdout.get() {
                let _ = crate::terminal::out(&line);
            } else {
                crate::terminal::err(&line);
            }
            Ok(())
        })?;
        g.set("print", print)?;

        // Pattern matching is the one C routine whose work is not bounded by its arguments'
        // size (a backtracking pattern runs for hours on a 30 KB subject): the metered port
        // charges every step of it.
        let budget = self.host.budget.clone();
        super::patterns::install(lua, Rc::new(move |lua, units| budget.charge(lua, units)))?;

        // math.random / math.randomseed on the seeded dice, never on Lua's own generator.
        let math: Table = g.get("math")?;
        let dice = self.host.dice.clone();
        // Its arguments are read as Lua 5.4's `math.random` reads them (a numeral string or a whole
        // float is a whole number; three arguments are too many), with Lua's errors at the line.
        let random = lua.create_function(move |lua, args: MultiValue| {
            let mut d = dice.borrow_mut();
            match args.len() {
                0 => Ok(Value::Number(
                    f64::from(d.below(1 << 30)) / f64::from(1u32 << 30),
                )),
                1 => match integer_argument(lua, "random", 1, args.front())? {
                    // Lua 5.4: `math.random(0)` is an integer with all bits random.
                    0 => {
                        let bits =
                            (0..3).fold(0u64, |acc, _| (acc << 30) | u64::from(d.below(1 << 30)));
                        Ok(Value::Integer(bits as i64))
                    }
                    hi => ranged(lua, &mut d, 1, hi),
                },
                2 => {
                    let lo = integer_argument(lua, "random", 1, args.front())?;
                    let hi = integer_argument(lua, "random", 2, args.get(1))?;
                    ranged(lua, &mut d, lo, hi)
                }
                _ => Err(mlua::Error::runtime(format!(
                    "{}wrong number of arguments",
                    script_location(lua)
                ))),
            }
        })?;
        math.set("random", random)?;
        let dice = self.host.dice.clone();
        let randomseed = lua.create_function(move |lua, args: MultiValue| {
            let seed = integer_argument(lua, "randomseed", 1, args.front())?;
            *dice.borrow_mut() = Dice::new(seed as u64);
            Ok(())
        })?;
        math.set("randomseed", randomseed)?;

        // require, confined to the script roots; a required file runs in an environment of its own
        // like a module, and a cycle (a requires b requires a) is named instead of overflowing.
        let host = self.host.clone();
        let loading: Rc<std::cell::RefCell<Vec<String>>> = Rc::default();
        let require = lua.create_function(move |lua, name: String| {
            let cache: Table = match lua.named_registry_value::<Value>(REQUIRE_CACHE)? {
                Value::Table(t) => t,
                _ => {
                    let t = lua.create_table()?;
                    lua.set_named_registry_value(REQUIRE_CACHE, &t)?;
                    t
                }
            };
            if let Value::Table(t) = cache.get::<Value>(name.as_str())? {
                return Ok(Value::Table(t));
            }
            if loading.borrow().contains(&name) {
                let mut chain = loading.borrow().clone();
                chain.push(name.clone());
                return Err(mlua::Error::runtime(format!(
                    "{}require cycle: {}",
                    script_location(lua),
                    chain.join(" -> ")
                )));
            }
            let known = host.required.borrow().get(&name).cloned();
            let f = match known {
                Some(chunk) => run_again(lua, &chunk)?,
                None => {
                    let (path, label) =
                        resolve_module(&host.roots, &name).map_err(mlua::Error::runtime)?;
                    // Watched from now on, even if it cannot be read or is refused: its next
                    // save is a change to reload.
                    host.note_loaded(&path);
                    let src = crate::files::read_regular(&path, crate::files::LUA_SOURCE)
                        .map_err(|e| mlua::Error::runtime(format!("require {name:?}: {e}")))?;
                    if let Some(e) = super::source_check::not_utf8(&label, 1, &src) {
                        return Err(mlua::Error::runtime(e));
                    }
                    let f = compile(lua, &src, &format!("@{label}"))?;
                    host.required.borrow_mut().insert(name.clone(), f.clone());
                    f.set_environment(new_environment(lua)?)?;
                    f
                }
            };
            loading.borrow_mut().push(name.clone());
            let value = f.call::<Value>(name.as_str());
            loading.borrow_mut().pop();
            let value = match value? {
                Value::Nil => Value::Boolean(true),
                v => v,
            };
            cache.set(name.as_str(), &value)?;
            Ok(value)
        })?;
        g.set("require", require)?;
        self.install_environments()
    }

    /// Every module runs in an environment of its own (globals it sets stay its own), reading through
    /// to the sandbox's globals, and the standard library is read-only: one script can no longer
    /// replace `ipairs` or `string.find` for every other, nor reach the string metatable. See
    /// [`ENVIRONMENTS`].
    fn install_environments(&self) -> mlua::Result<()> {
        let lua = &self.lua;
        let g = lua.globals();
        let (new_env, freeze, hold): (mlua::Function, mlua::Function, mlua::Function) = lua
            .load(ENVIRONMENTS)
            .set_name("=sandbox")
            .into_function()?
            .call((
                g.clone(),
                g.get::<mlua::Function>("load")?,
                g.get::<mlua::Function>("error")?,
            ))?;
        lua.set_app_data(Environments { new_env, hold });
        lua.set_named_registry_value(FREEZE, freeze)?;
        Ok(())
    }

    /// The C functions whose work grows with their arguments, and which no instruction count sees,
    /// charge it to the budget before they run ([`Budget::charge`], costs in [`c_function_cost`]):
    /// every iteration of their loops, and every byte they copy or scan at a sixteenth each. A loop of
    /// `string.rep("x", 5e7)`, one `table.move({}, 1, 1 << 40, 2)` or `string.rep("", 1e12)` (an
    /// empty result, a trillion turns of Lua's loop) then ends with the budget error instead of
    /// running for hours. Each wrapper tail-calls the original, so Lua's own errors still name the
    /// script's line.
    fn charge_c_functions(&self) -> mlua::Result<()> {
        let lua = &self.lua;
        let g = lua.globals();
        let string: Table = g.get("string")?;
        let table: Table = g.get("table")?;
        let utf8: Table = g.get("utf8")?;
        let wraps = lua.create_table()?;
        let wrapped: [(&Table, &str, Work); 20] = [
            (&string, "rep", Work::Rep),
            (&string, "upper", Work::Scan),
            (&string, "lower", Work::Scan),
            (&string, "reverse", Work::Scan),
            (&string, "sub", Work::Scan),
            (&string, "byte", Work::Byte),
            (&string, "format", Work::Format),
            (&string, "pack", Work::Pack),
            (&string, "packsize", Work::Numeral),
            (&string, "unpack", Work::Unpacking),
            (&g, "tonumber", Work::Numeral),
            (&utf8, "len", Work::Scan),
            (&utf8, "offset", Work::Scan),
            (&utf8, "codepoint", Work::Codepoint),
            (&table, "concat", Work::Concat),
            (&table, "insert", Work::Shift),
            (&table, "remove", Work::Shift),
            (&table, "sort", Work::Sort),
            (&table, "move", Work::Move),
            (&table, "unpack", Work::Unpack),
        ];
        for (lib, name, work) in wrapped {
            let budget = self.host.budget.clone();
            // Each wrapper has a charge of its own, so the kernel learns what is being charged without
            // a name to compare; `format` counts every argument, the others their first four.
            let charge = if matches!(work, Work::Format | Work::Pack) {
                lua.create_function(move |lua, args: mlua::Variadic<Value>| {
                    budget.charge(lua, format_cost(work, &args))
                })?
            } else if work == Work::Unpack {
                lua.create_function(move |lua, (t, i, j): (Value, Value, Value)| {
                    budget.charge(lua, unpack_count(lua, &t, &i, &j)?)
                })?
            } else if work == Work::Byte {
                lua.create_function(move |lua, (s, i, j): (Value, Value, Value)| {
                    budget.charge(lua, byte_count(lua, &s, &i, &j)?)
                })?
            } else {
                lua.create_function(move |lua, (a, b, c, d): (Value, Value, Value, Value)| {
                    budget.charge(lua, c_function_cost(lua, work, [&a, &b, &c, &d]))
                })?
            };
            let entry = lua.create_sequence_from([
                Value::Table(lib.clone()),
                Value::String(lua.create_string(name)?),
                Value::Function(charge),
                Value::Boolean(matches!(work, Work::Unpack | Work::Byte)),
            ])?;
            wraps.push(entry)?;
        }
        let install: mlua::Function = lua
            .load(
                r#"
                local wraps, pcall, error, type, gsub, find = ...
                -- `...` whole: a C function counts its arguments (table.insert(t, v) is not
                -- table.insert(t, v, nil)). The function runs under pcall so that Lua's own errors
                -- name the script's line and the function, not this wrapper: a string error is
                -- raised again one level up (`finish` is a tail call, so level 2 is the script).
                -- `table.unpack` and `string.byte` are tail-called instead: their values would be
                -- copied once more on the way back through `finish`, and a million of them would
                -- overflow Lua's stack. Their charges check everything they could refuse, at the
                -- script's line.
                for _, w in ipairs(wraps) do
                  local lib, name, charge, tail = w[1], w[2], w[3], w[4]
                  local f = lib[name]
                  local function finish(ok, ...)
                    if ok then return ... end
                    local e = ...
                    if type(e) ~= "string" then error(e, 0) end
                    e = gsub(e, "^sandbox:%d+: ", "")
                    -- An error a Lua callback raised (a sort's comparator) already has its place.
                    if find(e, "^[^\n]-:%d+: ") then error(e, 0) end
                    e = gsub(e, "^(bad argument #%d+ to )'[^']*'", "%1'" .. name .. "'")
                    error(e, 2)
                  end
                  lib[name] = function(...)
                    charge(...)
                    return finish(pcall(f, ...))
                  end
                  if tail then
                    lib[name] = function(...)
                      charge(...)
                      return f(...)
                    end
                  end
                end
                "#,
            )
            .set_name("=sandbox")
            .into_function()?;
        install.call::<()>((
            wraps,
            g.get::<mlua::Function>("pcall")?,
            g.get::<mlua::Function>("error")?,
            g.get::<mlua::Function>("type")?,
            string.get::<mlua::Function>("gsub")?,
            string.get::<mlua::Function>("find")?,
        ))
    }

    /// Run a source string as a chunk named `name` (e.g. `scripts/x.lua` or `stdin`) with the chunk
    /// budget, returning its values.
    pub fn exec(&self, src: &str, name: &str) -> Result<MultiValue, ScriptError> {
        self.exec_with_budget(src, name, self.host.limits.chunk_instructions)
    }

    /// Run a source string with an explicit instruction budget (the budget a hook call gets, say).
    pub fn exec_with_budget(
        &self,
        src: &str,
        name: &str,
        instructions: u64,
    ) -> Result<MultiValue, ScriptError> {
        with_budget(&self.lua, instructions, || {
            compile(&self.lua, src.as_bytes(), &format!("@{name}"))?.call(())
        })
    }

    /// Run a chunk and render its first value with Lua's `tostring` (tests, quick checks).
    pub fn eval_string(&self, src: &str) -> Result<String, ScriptError> {
        let values = self.exec(src, "eval")?;
        let first = values.into_iter().next().unwrap_or(Value::Nil);
        // `tostring` may run a script's `__tostring`: under a chunk's budget and the memory limit.
        with_budget(&self.lua, self.host.limits.chunk_instructions, || {
            let tostring: mlua::Function = self.lua.globals().get("tostring")?;
            tostring.call(first)
        })
    }

    /// Load a file as a chunk named by its display path and run it with the chunk budget. The file is
    /// noted as loaded (watched under `village run --watch`) before it is read, so that a version
    /// that cannot be read or is refused (not UTF-8) is still followed by the next save.
    pub fn exec_file(&self, path: &Path, label: &str) -> Result<MultiValue, ScriptError> {
        self.host.note_loaded(path);
        let src = super::source_check::read_source(path, label, false)?;
        self.exec(&src, label)
    }
}

/// What a wrapped C function's work grows with (see [`Vm::charge_c_functions`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Work {
    /// `string.rep(s, n, sep)`: n turns of a loop, each copying the string and a separator.
    Rep,
    /// One pass over the string (`upper`, `lower`, `reverse`, `sub`, `utf8.len`, `utf8.offset`).
    Scan,
    /// `tonumber(s)`, `string.packsize(fmt)`: a pass over the string that reads it a byte at a time
    /// (a megabyte of spaces takes a millisecond and a half), a unit for every four bytes.
    Numeral,
    /// `string.byte(s, i, j)`: a value pushed for each byte of the slice ([`byte_count`]).
    Byte,
    /// `utf8.codepoint(s, i, j)`: at most a value pushed for each byte of the slice.
    Codepoint,
    /// `string.format`: the format and every argument ([`format_cost`]).
    Format,
    /// `string.pack`: two units for each byte of the format (10 ns each, measured), and every
    /// argument ([`format_cost`]).
    Pack,
    /// `string.unpack(fmt, s)`: four units for each byte of the format (up to a value pushed each, 20
    /// ns), a pass over the data.
    Unpacking,
    /// `table.concat(t, sep, i, j)`: j - i + 1 elements, each followed by the separator.
    Concat,
    /// `table.insert`, `table.remove`: every element after the position moves.
    Shift,
    /// `table.sort`: n log n comparisons.
    Sort,
    /// `table.move(a1, f, e, ...)`: e - f + 1 elements.
    Move,
    /// `table.unpack(t, i, j)`: j - i + 1 values pushed ([`unpack_count`]).
    Unpack,
}

/// A count as the C function reads it: an integer, a float, or a numeral string, which Lua converts
/// (`string.rep("", "1e12")` loops as long as `string.rep("", 1e12)`). Anything else is the function's
/// own error, charged nothing.
fn count_of(lua: &Lua, v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Number(n) => Some(*n),
        Value::String(_) => lua.coerce_number(v.clone()).ok().flatten(),
        _ => None,
    }
}

/// The bytes of a string argument (0 for anything else).
fn bytes_of(v: &Value) -> f64 {
    match v {
        Value::String(s) => s.as_bytes().len() as f64,
        _ => 0.0,
    }
}

/// The length the table functions loop over: `#t`, which calls a `__len` metamethod when the table
/// has one (a table claiming a trillion elements makes `table.insert(t, 1, v)` move a trillion). Such
/// a `__len` runs here and again in the function; if it fails here, the function reports it.
fn length_of(v: &Value) -> f64 {
    let Value::Table(t) = v else {
        return 0.0;
    };
    let counted = t
        .metatable()
        .is_some_and(|mt| mt.raw_get::<Value>("__len").is_ok_and(|f| !f.is_nil()));
    if counted {
        if let Ok(n) = t.len() {
            return n as f64;
        }
    }
    t.raw_len() as f64
}

/// Budget units for `n` (any float: huge, negative or NaN), saturating.
fn units(n: f64) -> u64 {
    if n.is_nan() || n <= 0.0 {
        0
    } else {
        n.min(u64::MAX as f64) as u64
    }
}

/// The units a wrapped C function is charged for its first four arguments (see
/// [`Vm::charge_c_functions`]): one a turn of its loop or a value it pushes, one for every sixteen
/// bytes it copies or scans. Arguments of the wrong type cost nothing (the function reports them).
fn c_function_cost(lua: &Lua, work: Work, [a, b, c, d]: [&Value; 4]) -> u64 {
    // The elements from `i` to `j`, as a table function counts them.
    let range = |i: Option<f64>, j: f64| j - i.unwrap_or(1.0) + 1.0;
    match work {
        Work::Rep => {
            let n = count_of(lua, b).unwrap_or(0.0);
            units(n) + units(n * (bytes_of(a) + bytes_of(c)) / 16.0)
        }
        Work::Scan => units(bytes_of(a) / 16.0),
        Work::Numeral => units(bytes_of(a) / 4.0),
        // At most the string's bytes, from `i` (default 1) to `j` (default `i`).
        Work::Codepoint => {
            let len = bytes_of(a);
            let at = |p: f64| {
                if p >= 0.0 {
                    p
                } else {
                    (len + p + 1.0).max(0.0)
                }
            };
            let i = count_of(lua, b).unwrap_or(1.0);
            let j = count_of(lua, c).unwrap_or(i);
            units(at(j).min(len) - at(i).max(1.0) + 1.0)
        }
        // Charged by `format_cost`.
        Work::Format | Work::Pack => 0,
        Work::Unpacking => units(4.0 * bytes_of(a)) + units(bytes_of(b) / 16.0),
        Work::Concat => {
            let j = count_of(lua, d).unwrap_or_else(|| length_of(a));
            let n = range(count_of(lua, c), j);
            units(n) + units(n * bytes_of(b) / 16.0)
        }
        Work::Shift => units(length_of(a)),
        Work::Sort => {
            let n = length_of(a);
            units(n * n.max(2.0).log2())
        }
        Work::Move => match (count_of(lua, b), count_of(lua, c)) {
            (Some(f), Some(e)) => units(range(Some(f), e)),
            _ => 0,
        },
        // Charged by `byte_count` and `unpack_count`.
        Work::Byte | Work::Unpack => 0,
    }
}

/// The room on the running thread's stack for `n` more values, made if it can be (`lua_checkstack`,
/// which grows the stack or says there is no room; it never raises).
fn stack_room(lua: &Lua, n: u128) -> bool {
    i32::try_from(n)
        .ok()
        .filter(|&n| n < i32::MAX)
        // SAFETY: the state is the running one (a callback's); checking the stack only grows it.
        .is_some_and(|n| {
            lua.exec_raw_lua(|raw| unsafe { mlua::ffi::lua_checkstack(raw.state(), n) }) != 0
        })
}

/// The values `string.byte(s, i, j)` pushes, checked as `str_byte` in `lstrlib.c` checks them, with
/// its errors raised here at the script's line (the function itself is tail-called): `s` a string
/// (a number is one, as Lua writes it), `i` and `j` whole numbers (default 1 and `i`), and room on
/// the stack for the values.
fn byte_count(lua: &Lua, s: &Value, i: &Value, j: &Value) -> mlua::Result<u64> {
    let len = match s {
        Value::String(s) => s.as_bytes().len(),
        Value::Integer(_) | Value::Number(_) => lua
            .coerce_string(s.clone())?
            .map_or(0, |s| s.as_bytes().len()),
        other => {
            return Err(bad_argument(
                lua,
                "byte",
                1,
                &format!("string expected, got {}", other.type_name()),
            ))
        }
    };
    let len = i128::try_from(len).unwrap_or(i128::MAX);
    let pi = match i {
        Value::Nil => 1,
        v => i128::from(integer_argument(lua, "byte", 2, Some(v))?),
    };
    let pe = match j {
        Value::Nil => pi,
        v => i128::from(integer_argument(lua, "byte", 3, Some(v))?),
    };
    // `posrelatI` and `getendpos`.
    let first = match pi {
        p if p > 0 => p,
        0 => 1,
        p if p < -len => 1,
        p => len + p + 1,
    };
    let last = match pe {
        p if p > len => len,
        p if p >= 0 => p,
        p if p < -len => 0,
        p => len + p + 1,
    };
    if first > last {
        return Ok(0);
    }
    let n = (last - first + 1) as u128;
    if !stack_room(lua, n) {
        return Err(mlua::Error::runtime(format!(
            "{}stack overflow (string slice too long)",
            script_location(lua)
        )));
    }
    Ok(n as u64)
}

/// The values `table.unpack(t, i, j)` pushes, checked as `tunpack` in `ltablib.c` checks them, with
/// its errors raised here at the script's line (the function itself is tail-called, where its errors
/// would name the sandbox): `i` and `j` whole numbers (default 1 and `#t`, which calls `__len`), and
/// room on the stack for the values.
fn unpack_count(lua: &Lua, t: &Value, i: &Value, j: &Value) -> mlua::Result<u64> {
    let i = match i {
        Value::Nil => 1,
        v => integer_argument(lua, "unpack", 2, Some(v))?,
    };
    let j = match (j, t) {
        (Value::Nil, Value::Table(t)) => t.len().map_err(|e| super::host::at_script(lua, e))?,
        (Value::Nil, Value::String(s)) => i64::try_from(s.as_bytes().len()).unwrap_or(i64::MAX),
        // `#` of anything else: the function's own error ("attempt to get length of ...").
        (Value::Nil, _) => return Ok(0),
        (v, _) => integer_argument(lua, "unpack", 3, Some(v))?,
    };
    if i > j {
        return Ok(0);
    }
    let n = (i128::from(j) - i128::from(i) + 1) as u128;
    if !stack_room(lua, n) {
        return Err(mlua::Error::runtime(format!(
            "{}too many results to unpack",
            script_location(lua)
        )));
    }
    Ok(n as u64)
}

/// What `string.format(fmt, ...)` and `string.pack(fmt, ...)` are charged: a unit an argument, and
/// a unit a sixteen bytes of the format and of every string argument (`%.0s` prints nothing of a
/// string, but Lua scans all of it); `pack` two units for each byte of its format too, a turn of its
/// loop that may write up to sixteen bytes.
fn format_cost(work: Work, args: &[Value]) -> u64 {
    let bytes: f64 = args.iter().map(bytes_of).sum();
    let turns = match (work, args.first()) {
        (Work::Pack, Some(fmt)) => units(2.0 * bytes_of(fmt)),
        _ => 0,
    };
    turns + units(args.len() as f64) + units(bytes / 16.0)
}

/// `math.random(lo, hi)`: a whole number of the interval, uniformly, from the seeded stream; any
/// interval of 64-bit integers, as Lua's own.
fn ranged(lua: &Lua, d: &mut Dice, lo: i64, hi: i64) -> mlua::Result<Value> {
    match d.in_range(lo, hi) {
        Some(v) => Ok(Value::Integer(v)),
        None => Err(bad_argument(lua, "random", 1, "interval is empty")),
    }
}

/// `bad argument #n to 'name' (why)` at the script's line, as `luaL_argerror` words it.
fn bad_argument(lua: &Lua, name: &str, n: usize, why: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "{}bad argument #{n} to '{name}' ({why})",
        script_location(lua)
    ))
}

/// Argument `n` of the C function `name` read as `luaL_checkinteger` reads it: an integer, a float
/// with an integral value, or a numeral string, with Lua's errors otherwise.
fn integer_argument(lua: &Lua, name: &str, n: usize, v: Option<&Value>) -> mlua::Result<i64> {
    let Some(v) = v else {
        return Err(bad_argument(lua, name, n, "number expected, got no value"));
    };
    if let Value::Integer(i) = v {
        return Ok(*i);
    }
    let number = match v {
        Value::Number(x) => Some(*x),
        Value::String(_) => lua.coerce_number(v.clone()).ok().flatten(),
        _ => None,
    };
    // 2^63 is the first float past the integers; every float below it and at least -2^63 that has
    // no fraction is one.
    let two_63 = 2f64.powi(63);
    match number {
        Some(x) if x.fract() == 0.0 && (-two_63..two_63).contains(&x) => Ok(x as i64),
        Some(_) => Err(bad_argument(
            lua,
            name,
            n,
            "number has no integer representation",
        )),
        None => Err(bad_argument(
            lua,
            name,
            n,
            &format!("number expected, got {}", v.type_name()),
        )),
    }
}

/// Whether `path`, symbolic links followed, is inside `root` (a script folder): a link that points
/// elsewhere on the disk is not part of the mod, and is not read.
pub(crate) fn inside(root: &Path, path: &Path) -> bool {
    match (root.canonicalize(), path.canonicalize()) {
        (Ok(root), Ok(path)) => path.starts_with(root),
        _ => false,
    }
}

/// The error for a script file that leads out of its folder.
pub(crate) fn outside_message(label: &str) -> String {
    format!("{label}: a symbolic link to a file outside the script folder; scripts are read only from inside it")
}

/// Find `name` (dots as folder separators) in the roots, the latest root first. Names that could leave
/// the script folders are refused.
pub(crate) fn resolve_module(
    roots: &[ScriptRoot],
    name: &str,
) -> Result<(PathBuf, String), String> {
    // Lua module names only: identifiers separated by dots. No slashes, no `..`, no absolute paths.
    let confined = !name.is_empty()
        && name.split('.').all(|part| {
            !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    if !confined {
        return Err(format!(
            "require {name:?}: only modules inside the script folders can be required \
             (names like \"lib.geometry\")"
        ));
    }
    // scripts/types/ holds the generated lua-language-server stubs, not code: requiring them would
    // replace the `village` global with an empty stub table.
    if name == "types" || name.starts_with("types.") {
        return Err(format!(
            "require {name:?}: scripts/types/ holds editor stubs, not modules"
        ));
    }
    let rel = PathBuf::from(format!("{}.lua", name.replace('.', "/")));
    for root in roots.iter().rev() {
        let path = root.dir.join(&rel);
        if path.is_file() {
            let label = format!("{}/{}", root.label, rel.display());
            if !inside(&root.dir, &path) {
                return Err(outside_message(&label));
            }
            return Ok((path, label));
        }
    }
    let searched: Vec<String> = roots.iter().map(|r| r.label.clone()).collect();
    Err(format!(
        "require {name:?}: no {} in {}",
        rel.display(),
        searched.join(", ")
    ))
}

/// Count the running line, `file:line`, in a line profile that is on (`village bench --profile`).
fn sample_line(lines: &RefCell<Option<BTreeMap<String, u64>>>, debug: &mlua::debug::Debug) {
    let mut lines = lines.borrow_mut();
    let Some(map) = lines.as_mut() else {
        return;
    };
    let src = debug.source();
    let file = src.short_src.as_deref().unwrap_or("?");
    let line = debug.current_line().unwrap_or(0);
    *map.entry(format!("{file}:{line}")).or_default() += 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a count hook every 1,000 VM instructions fires, as the value of a counter the script keeps,
    /// over a script that calls, returns, recurses deep enough to grow the stack and runs a coroutine:
    /// the vendored Lua counts the hook down inline (vendor/lua-src/village-count-hook.patch), and this
    /// pins the firings to what stock Lua 5.4.9 gives (measured on it before the patch).
    fn count_hook_firings() -> (usize, i64, Vec<i64>, i64) {
        let lua = Lua::new();
        let fired = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let seen = fired.clone();
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(1000),
            move |lua, _| {
                seen.borrow_mut().push(lua.globals().get::<i64>("n")?);
                Ok(VmState::Continue)
            },
        )
        .expect("a hook");
        let result: i64 = lua
            .load(
                r#"
                n = 0
                local function f(x) return x + 1 end
                local function deep(k) if k == 0 then n = n + 1 return 0 end return 1 + deep(k - 1) end
                local co = coroutine.wrap(function() for i = 1, 300 do n = n + 1 coroutine.yield(i) end end)
                local total = 0
                for i = 1, 20000 do
                    n = f(n)
                    if i % 500 == 0 then total = total + deep(300) end
                    if i % 100 == 0 then total = total + co() end
                end
                return total + n
                "#,
            )
            .eval()
            .expect("the script runs");
        let fired = fired.borrow().clone();
        let sum = fired.iter().sum();
        (
            fired.len(),
            sum,
            fired.into_iter().take(5).collect(),
            result,
        )
    }

    #[test]
    fn the_count_hook_fires_where_stock_lua_fires_it() {
        assert_eq!(
            count_hook_firings(),
            (294, 3_005_674, vec![90, 181, 273, 365, 456], 52_340)
        );
    }

    /// A chunk run again gets fresh globals, and what an earlier run made keeps the globals it was made
    /// with (the `_ENV` upvalue is joined to a new one, never overwritten).
    #[test]
    fn a_chunk_run_again_has_fresh_globals_and_the_old_run_keeps_its_own() {
        let vm = Vm::new(Vec::new(), Limits::default(), 1).expect("a VM");
        let lua = vm.lua();
        let chunk = compile(
            lua,
            b"count = (count or 0) + 1 return function() count = count + 10 return count end",
            "=test",
        )
        .expect("compiles");
        let first: mlua::Function = run_again(lua, &chunk).unwrap().call(()).unwrap();
        assert_eq!(first.call::<i64>(()).unwrap(), 11);
        let second: mlua::Function = run_again(lua, &chunk).unwrap().call(()).unwrap();
        assert_eq!(
            second.call::<i64>(()).unwrap(),
            11,
            "the second run counts from nothing"
        );
        assert_eq!(
            first.call::<i64>(()).unwrap(),
            21,
            "the first run's globals are its own"
        );
        assert_eq!(second.call::<i64>(()).unwrap(), 21);
    }
}
