//! The hooks registry: every script module under the script roots, by kind, with its owning file.
//!
//! A module is a Lua file that returns a table of entry points. Entry-point names are a closed vocabulary
//! per kind, so a typo (`melee_modifer`) is a load error naming the file, not a hook that silently never
//! runs. Loading is a transaction: a new registry is built whole and only then replaces the old one.

use super::error::ScriptError;
use super::host::with_budget;
use super::vm::ScriptRoot;
use super::vm::REQUIRE_CACHE;
use mlua::{Lua, Table, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The script folders and the entry points a module of each may define.
pub const KINDS: &[(&str, &[&str])] = &[
    ("traits", MODEL_HOOKS),
    ("signatures", MODEL_HOOKS),
    ("alpha", MODEL_HOOKS),
    ("variants", VARIANT_HOOKS),
    (
        "behaviours",
        &[
            "target",
            "targets",
            "act",
            "declare",
            "objective",
            "universal",
        ],
    ),
    ("spells", &["cast"]),
    ("victory", &["on_victory_check"]),
    ("opportunities", OPPORTUNITY_HOOKS),
    (
        "policies",
        &["activate", "plan", "act", "council", "deploy", "blessing"],
    ),
];

/// Hooks a trait, signature or Alpha Rule may define.
pub const MODEL_HOOKS: &[&str] = &[
    "melee_modifier",
    "ranged_modifier",
    "structural_modifier",
    "win_rules",
    "on_result",
    "on_charge",
    "movement",
    "permissions",
    "morale",
    "on_activation",
    "on_wave_start",
    "on_council",
    "on_defeat",
    "actions",
    "order_cost",
    "on_opponent_activation",
    "on_activation_roll",
    "on_friend_result",
    "on_structural",
    "on_pass_token",
];

/// Hooks an Opportunity's script may define: `claim` and `wave_end` (the result), `use` (the item it
/// gives, if usable), and the model hooks its item contributes to the model carrying it.
pub const OPPORTUNITY_HOOKS: &[&str] = &[
    "claim",
    "wave_end",
    "use",
    "melee_modifier",
    "ranged_modifier",
    "structural_modifier",
    "win_rules",
    "on_result",
    "on_charge",
    "movement",
    "permissions",
    "morale",
    "on_activation",
    "on_wave_start",
    "on_council",
    "on_defeat",
    "order_cost",
    "on_opponent_activation",
    "on_activation_roll",
    "on_friend_result",
    "on_structural",
];

/// A variant may override rule constants, put tracks in play (`tracks`), replace the wave builder
/// (`build_wave`), hear each enemy turn end (`on_enemy_turn_end`) and add any model hook (applied to
/// every model).
pub const VARIANT_HOOKS: &[&str] = &[
    "rules",
    "tracks",
    "build_wave",
    "on_enemy_turn_end",
    "melee_modifier",
    "ranged_modifier",
    "structural_modifier",
    "win_rules",
    "on_result",
    "on_charge",
    "movement",
    "permissions",
    "morale",
    "on_activation",
    "on_wave_start",
    "on_council",
    "on_defeat",
    "order_cost",
    "on_opponent_activation",
    "on_activation_roll",
    "on_friend_result",
    "on_structural",
];

/// Plain data keys any module may carry.
const DATA_KEYS: &[&str] = &["name", "description", "params"];

/// One loaded script module.
#[derive(Debug, Clone)]
pub struct Module {
    /// The folder kind: "traits", "variants", ...
    pub kind: String,
    /// Path relative to the scripts folder: "traits/savage.lua". Rosters name scripts this way.
    pub key: String,
    /// How errors and the log name it: "scripts/traits/savage.lua" or the mod's path.
    pub label: String,
    /// The file on disk.
    pub path: PathBuf,
    /// The table it returned.
    pub table: Table,
    /// Its entry points defined as functions, read once when the file loads (a hook asked for on every
    /// action must not look its function up by name each time). A list: a module has a handful, and
    /// the kernel asks every module acting for a model for one entry at each hook point, most often in
    /// vain, where comparing lengths settles most names at once.
    entries: Vec<(Box<str>, mlua::Function)>,
    /// How it grants permissions.
    pub permissions: Permissions,
    /// Its `actions` table (scripted actions: a signature's `Field Repairs`), read once when the file
    /// loads: the policy asks every hero's modules for their actions on most of its turns.
    pub actions: Option<Table>,
    /// Its `movement` when a table (the same answer at every move: Long Move's `{ band = "long" }`),
    /// found once when the file loads: the kernel asks before every move, and a table needs no call.
    pub movement: Option<Table>,
    /// A Behaviour's `universal = true`: its `act` is the universal priority of §6.2 (`A.default`), which
    /// the kernel then decides natively where no script is needed (`wave::universal`).
    pub universal: bool,
    /// A Behaviour's declared target choice (`targets`): the steps the kernel follows to choose its
    /// target natively (`wave::targets`) when no decision is being explained.
    pub targets: Option<std::rc::Rc<[crate::wave::targets::TargetStep]>>,
    /// Its chunk, to run again in a fresh environment: every game starts with fresh module state
    /// ([`Registry::fresh`]).
    chunk: super::vm::Chunk,
}

/// A module's `permissions`: a table of names, read once when the file loads, or a function asked each
/// time (its answer may depend on the game: Stealth in Cover).
#[derive(Debug, Clone, Default)]
pub enum Permissions {
    /// No `permissions` entry.
    #[default]
    None,
    /// `permissions = { lead = true }`: the names granted (any value but `false`).
    Fixed(Vec<String>),
    /// `permissions = function(ctx, self) ... end`.
    Computed(mlua::Function),
}

impl Permissions {
    /// Whether a table of names (or no `permissions` entry) grants `name`; `None` for a function, which
    /// must be asked.
    pub fn grants(&self, name: &str) -> Option<bool> {
        match self {
            Permissions::None => Some(false),
            Permissions::Fixed(names) => Some(names.iter().any(|n| n == name)),
            Permissions::Computed(_) => None,
        }
    }
}

impl Module {
    /// The names of its entry points defined as functions.
    pub fn entry_names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| &**k)
    }

    /// The module's entry point `name`, if it defines one as a function.
    pub fn function(&self, name: &str) -> Option<&mlua::Function> {
        self.entries
            .iter()
            .find(|(k, _)| k.len() == name.len() && **k == *name)
            .map(|(_, f)| f)
    }

    /// Its entry points, each with where its function is defined — `line N` of this file, or
    /// `file:N` when it is another's (`declare = A.declare` is scripts/lib/act.lua's) — by name.
    pub fn entry_places(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .entries
            .iter()
            .map(|(name, f)| {
                let info = f.info();
                let file = info
                    .source
                    .as_deref()
                    .map(|s| s.trim_start_matches(['@', '=']).to_string());
                let line = info.line_defined.unwrap_or(0);
                let at = match file {
                    Some(f) if f != self.label => format!("{f}:{line}"),
                    _ => format!("line {line}"),
                };
                (name.to_string(), at)
            })
            .collect();
        // The data entries that stand for hooks: the permissions a table grants, and each scripted
        // action (where its `run` is defined).
        if let Permissions::Fixed(names) = &self.permissions {
            for n in names {
                out.push(("permission".to_string(), n.clone()));
            }
        }
        if let Some(actions) = &self.actions {
            for (name, v) in actions.pairs::<String, Value>().flatten() {
                let at = match &v {
                    Value::Table(t) => match t.raw_get::<Value>("run") {
                        Ok(Value::Function(f)) => {
                            format!("run at line {}", f.info().line_defined.unwrap_or(0))
                        }
                        _ => "a table".to_string(),
                    },
                    _ => "a table".to_string(),
                };
                out.push((format!("action {name}"), at));
            }
        }
        out.sort();
        out
    }

    /// A plain string data key of the module's table (`name`, `description`), if set.
    pub fn data_text(&self, key: &str) -> Option<String> {
        self.table.raw_get::<Option<String>>(key).ok().flatten()
    }

    /// The short name: the file stem ("savage").
    pub fn stem(&self) -> &str {
        Path::new(&self.key)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(&self.key)
    }
}

/// Every module, keyed by its path relative to the scripts folder, in a stable order (sorted by key, so
/// a module is also known by its index: the hooks keep which modules act for a model as indices).
#[derive(Debug, Clone, Default)]
pub struct Registry {
    modules: Vec<Module>,
    /// The chunks of the files its modules `require`d, by name (see `Host::required`).
    required: BTreeMap<String, super::vm::Chunk>,
}

impl Registry {
    /// A module by its key ("traits/savage.lua").
    pub fn get(&self, key: &str) -> Option<&Module> {
        self.index_of(key).map(|i| &self.modules[i])
    }

    /// The index of the module `key`, for [`Registry::at`].
    pub fn index_of(&self, key: &str) -> Option<usize> {
        self.modules
            .binary_search_by(|m| m.key.as_str().cmp(key))
            .ok()
    }

    /// The module at `index` (from [`Registry::index_of`]).
    pub fn at(&self, index: usize) -> Option<&Module> {
        self.modules.get(index)
    }

    /// A variant module by name ("power_blow_lethal").
    pub fn variant(&self, name: &str) -> Option<&Module> {
        self.get(&format!("variants/{name}.lua"))
    }

    /// Modules of one kind, in key order.
    pub fn of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Module> + 'a {
        self.modules.iter().filter(move |m| m.kind == kind)
    }

    /// Every module, in key order.
    pub fn modules(&self) -> impl Iterator<Item = &Module> {
        self.modules.iter()
    }

    /// What `village show` says of each module: its file as the log names it, its `name` and
    /// `description`, and its entry points with where each is defined.
    pub fn facts(&self) -> crate::show::ScriptFacts {
        self.modules
            .iter()
            .map(|m| {
                (
                    m.key.clone(),
                    crate::show::ScriptFact {
                        file: m.label.clone(),
                        name: m.data_text("name"),
                        description: m.data_text("description"),
                        hooks: m.entry_places(),
                    },
                )
            })
            .collect()
    }

    /// The same modules with fresh state: each chunk run again from its compiled form in a new
    /// environment, and the `require` cache emptied, so nothing a game's scripts kept (a module-level
    /// counter, a table filled in a hook) carries into the next game. Every game `play`, `sim`,
    /// `bench` and `replay` play starts so, whatever the worker played before.
    pub fn fresh(&self, lua: &Lua, budget: u64) -> Result<Registry, ScriptError> {
        lua.set_named_registry_value(REQUIRE_CACHE, Value::Nil)
            .map_err(ScriptError::from_lua)?;
        if let Ok(host) = super::host::host(lua) {
            *host.required.borrow_mut() = self.required.clone();
        }
        let mut modules = Vec::with_capacity(self.modules.len());
        for m in &self.modules {
            let chunk = super::vm::run_again(lua, &m.chunk).map_err(ScriptError::from_lua)?;
            let origin = Origin {
                kind: &m.kind,
                key: &m.key,
                path: &m.path,
                label: &m.label,
            };
            modules.push(instantiate(lua, chunk, &origin, budget)?);
        }
        Ok(Registry {
            modules,
            required: self.required.clone(),
        })
    }

    /// The compiled code of the files its modules `require`d, by module name.
    pub(crate) fn required(&self) -> &BTreeMap<String, super::vm::Chunk> {
        &self.required
    }

    /// Number of modules.
    pub fn len(&self) -> usize {
        self.modules.len()
    }

    /// True when no module is loaded.
    pub fn is_empty(&self) -> bool {
        self.modules.is_empty()
    }
}

/// Every `kind/*.lua` file under the roots; a later root's file replaces an earlier one with the same
/// key. Sorted by key.
pub fn discover(roots: &[ScriptRoot]) -> BTreeMap<String, (PathBuf, String)> {
    let mut found = BTreeMap::new();
    for root in roots {
        for (kind, _) in KINDS {
            let Ok(entries) = std::fs::read_dir(root.dir.join(kind)) else {
                continue;
            };
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "lua") && p.is_file())
                .collect();
            files.sort();
            for path in files {
                let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                let key = format!("{kind}/{name}");
                let label = format!("{}/{key}", root.label);
                found.insert(key, (path, label));
            }
        }
    }
    found
}

/// Load every module under the roots into a new registry. All errors are collected; on any error the
/// caller keeps its previous registry.
pub fn load(lua: &Lua, roots: &[ScriptRoot], budget: u64) -> Result<Registry, Vec<ScriptError>> {
    let mut reg = Registry::default();
    let mut errors = Vec::new();
    // What the modules require is read from the disk again, and kept with this registry.
    let host = super::host::host(lua).ok();
    if let Some(h) = &host {
        h.required.borrow_mut().clear();
    }
    // `discover` lists the files in key order, which the registry's index relies on.
    for (key, (path, label)) in discover(roots) {
        let kind = key.split('/').next().unwrap_or_default().to_string();
        match load_module(lua, &kind, &key, &path, &label, budget) {
            Ok(m) => reg.modules.push(m),
            Err(e) => errors.push(e),
        }
    }
    if let Some(h) = &host {
        reg.required = h.required.borrow().clone();
    }
    if errors.is_empty() {
        Ok(reg)
    } else {
        Err(errors)
    }
}

/// Load one module file and check its entry points against the vocabulary of its kind.
pub fn load_module(
    lua: &Lua,
    kind: &str,
    key: &str,
    path: &Path,
    label: &str,
    budget: u64,
) -> Result<Module, ScriptError> {
    // `kind/file.lua`: its script folder is two levels up.
    if let Some(root) = path.parent().and_then(Path::parent) {
        if !super::vm::inside(root, path) {
            return Err(ScriptError::Runtime(super::vm::outside_message(label)));
        }
    }
    let src = super::source_check::read_source(path, label, true)?;
    let chunk = super::vm::compile(lua, src.as_bytes(), &format!("@{label}"))
        .map_err(ScriptError::from_lua)?;
    chunk
        .set_environment(super::vm::new_environment(lua).map_err(ScriptError::from_lua)?)
        .map_err(ScriptError::from_lua)?;
    let origin = Origin {
        kind,
        key,
        path,
        label,
    };
    instantiate(lua, chunk, &origin, budget)
}

/// Where a module comes from: its folder kind, key, file and the label errors show.
struct Origin<'a> {
    kind: &'a str,
    key: &'a str,
    path: &'a Path,
    label: &'a str,
}

/// Run a module's compiled chunk (its environment already bound) and check its entry points against
/// the vocabulary of its kind.
fn instantiate(
    lua: &Lua,
    chunk: mlua::Function,
    origin: &Origin<'_>,
    budget: u64,
) -> Result<Module, ScriptError> {
    let Origin {
        kind,
        key,
        path,
        label,
    } = *origin;
    let value: Value = with_budget(lua, budget, || chunk.call(()))?;
    let Value::Table(table) = value else {
        return Err(ScriptError::Runtime(format!(
            "{label}: a {kind} script must return a table of entry points, got {}",
            value.type_name()
        )));
    };
    let allowed = KINDS
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, v)| *v)
        .unwrap_or(&[]);
    let mut keys: Vec<String> = Vec::new();
    for pair in table.pairs::<Value, Value>() {
        let (k, _) = pair.map_err(ScriptError::from_lua)?;
        keys.push(match k {
            Value::String(s) => s.to_string_lossy(),
            // An entry point is a name: `[true] = f` or `[1] = f` is shown as Lua would write it.
            Value::Integer(i) => format!("[{i}]"),
            Value::Number(n) => format!("[{n}]"),
            Value::Boolean(b) => format!("[{b}]"),
            other => format!("[a {} key]", other.type_name()),
        });
    }
    keys.sort();
    for k in &keys {
        if !allowed.contains(&k.as_str()) && !DATA_KEYS.contains(&k.as_str()) {
            let hint = crate::names::closest(k, allowed.iter().chain(DATA_KEYS).copied())
                .map_or(String::new(), |m| format!(" (did you mean {m:?}?)"));
            return Err(ScriptError::Runtime(format!(
                "{label}: unknown entry point `{k}`{hint} for a {kind} script (expected one of: {})",
                allowed.join(", ")
            )));
        }
    }
    for pair in table.pairs::<Value, Value>() {
        if let (Value::String(k), v) = pair.map_err(ScriptError::from_lua)? {
            let k = k.to_string_lossy();
            // `permissions` says more of itself (`permissions_of`).
            if k != "permissions" {
                check_entry(&k, &v, label)?;
            }
        }
    }
    let mut entries = Vec::new();
    for pair in table.pairs::<Value, Value>() {
        if let (Value::String(k), Value::Function(f)) = pair.map_err(ScriptError::from_lua)? {
            entries.push((k.to_string_lossy().into_boxed_str(), f));
        }
    }
    let permissions = permissions_of(&table, label)?;
    let actions = match table.raw_get::<Value>("actions") {
        Ok(Value::Table(t)) => {
            check_actions(&t, label)?;
            Some(t)
        }
        _ => None,
    };
    let movement = match table.raw_get::<Value>("movement") {
        Ok(Value::Table(t)) => {
            check_movement(&t, label)?;
            Some(t)
        }
        _ => None,
    };
    let universal = matches!(
        table.raw_get::<Value>("universal"),
        Ok(Value::Boolean(true))
    );
    let targets = match table.raw_get::<Value>("targets") {
        Ok(Value::Table(t)) => Some(super::declared::targets_of(&t, label)?.into()),
        _ => None,
    };
    Ok(Module {
        kind: kind.to_string(),
        key: key.to_string(),
        label: label.to_string(),
        path: path.to_path_buf(),
        table,
        entries,
        permissions,
        actions,
        movement,
        universal,
        targets,
        chunk,
    })
}

/// The kinds of value an entry point may be: a hook is a function; `movement` and `permissions` a table
/// (the same answer every time) or a function; `actions`, `rules` and `params` tables; `name` and
/// `description` strings. Checked against each entry's type in the spec by a test
/// (`entry_kinds_are_the_specs`); written out so that loading a module (every game runs each again)
/// looks nothing up.
fn accepted(key: &str) -> (&'static str, fn(&Value) -> bool) {
    fn function(v: &Value) -> bool {
        matches!(v, Value::Function(_))
    }
    fn table(v: &Value) -> bool {
        matches!(v, Value::Table(_))
    }
    fn either(v: &Value) -> bool {
        matches!(v, Value::Function(_) | Value::Table(_))
    }
    fn string(v: &Value) -> bool {
        matches!(v, Value::String(_))
    }
    fn boolean(v: &Value) -> bool {
        matches!(v, Value::Boolean(_))
    }
    match key {
        "universal" => ("a boolean", boolean),
        "name" | "description" => ("a string", string),
        "movement" | "permissions" => ("a table or a function", either),
        "actions" | "rules" | "params" | "targets" | "tracks" => ("a table", table),
        _ => ("a function", function),
    }
}

/// Refuse an entry point whose value is not of its kind (`melee_modifier = 5` was a hook that silently
/// never ran).
fn check_entry(key: &str, v: &Value, label: &str) -> Result<(), ScriptError> {
    let (what, ok) = accepted(key);
    if ok(v) {
        return Ok(());
    }
    Err(ScriptError::Runtime(format!(
        "{label}: {key} must be {what}, not {}",
        a_type(v)
    )))
}

/// "a number", "a table", "a function", ... for an error.
fn a_type(v: &Value) -> String {
    match v {
        Value::Integer(_) | Value::Number(_) => "a number".into(),
        Value::Boolean(_) => "a boolean".into(),
        other => format!("a {}", other.type_name()),
    }
}

/// The keys of a `movement` answer (spec: `MoveTraits`).
const MOVE_TRAITS: &[&str] = &[
    "flying",
    "ignore_terrain",
    "free_disengage",
    "band",
    "one_move",
];

/// A `movement` table's keys, checked when the file loads (its values are read, and checked, at each
/// move): a misspelt one is named with the closest by `village check`, not at the first move.
fn check_movement(movement: &Table, label: &str) -> Result<(), ScriptError> {
    for pair in movement.pairs::<Value, Value>() {
        let (k, _) = pair.map_err(ScriptError::from_lua)?;
        let name = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => {
                return Err(ScriptError::Runtime(format!(
                    "{label}: movement has {} key (expected {})",
                    a_type(other),
                    MOVE_TRAITS.join(", ")
                )))
            }
        };
        if !MOVE_TRAITS.contains(&name.as_str()) {
            let hint = crate::names::closest(&name, MOVE_TRAITS.iter().copied())
                .map_or(String::new(), |m| format!(" (did you mean {m:?}?)"));
            return Err(ScriptError::Runtime(format!(
                "{label}: movement: unknown key {name:?}{hint} (a movement holds {})",
                MOVE_TRAITS.join(", ")
            )));
        }
    }
    Ok(())
}

/// The keys of a scripted action (spec: `ActionSpec`).
const ACTION_SPEC: &[&str] = &["task", "attack", "targets", "can", "run"];

/// Check a module's `actions` when it loads: each a table named by a string, with a `run` function and
/// only `ActionSpec`'s keys, each of its type. Before, an action without `run` was found out only when
/// a model took it (and was logged as run); a misspelt key was ignored.
fn check_actions(actions: &Table, label: &str) -> Result<(), ScriptError> {
    let err = |m: String| Err(ScriptError::Runtime(format!("{label}: {m}")));
    for pair in actions.pairs::<Value, Value>() {
        let (k, v) = pair.map_err(ScriptError::from_lua)?;
        let name = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => {
                return err(format!(
                    "actions has {} key (actions are named: `actions = {{ [\"Smother\"] = {{ ... }} }}`)",
                    a_type(other)
                ))
            }
        };
        let Value::Table(spec) = v else {
            return err(format!(
                "actions[{name:?}] is {} (expected a table with run)",
                a_type(&v)
            ));
        };
        for pair in spec.pairs::<Value, Value>() {
            let (k, v) = pair.map_err(ScriptError::from_lua)?;
            let key = match &k {
                Value::String(s) => s.to_string_lossy(),
                other => return err(format!("actions[{name:?}] has {} key", a_type(other))),
            };
            let ok = match key.as_str() {
                "run" | "can" | "targets" => matches!(v, Value::Function(_)),
                "task" => matches!(v, Value::Function(_) | Value::Integer(_) | Value::Number(_)),
                "attack" => matches!(v, Value::Boolean(_)),
                other => {
                    let hint = crate::names::closest(other, ACTION_SPEC.iter().copied())
                        .map_or(String::new(), |m| format!(" (did you mean {m:?}?)"));
                    return err(format!(
                        "actions[{name:?}]: unknown key {other:?}{hint} (an action holds {})",
                        ACTION_SPEC.join(", ")
                    ));
                }
            };
            if !ok {
                let expected = match key.as_str() {
                    "task" => "1 to 6 actions or a function",
                    "attack" => "true or false",
                    _ => "a function",
                };
                return err(format!(
                    "actions[{name:?}].{key} is {} (expected {expected})",
                    a_type(&v)
                ));
            }
        }
        if !matches!(spec.raw_get::<Value>("run"), Ok(Value::Function(_))) {
            return err(format!("actions[{name:?}] has no run function"));
        }
    }
    Ok(())
}

/// A module's `permissions` entry: a function, or a table of names whose values grant them (any value
/// but `nil` or `false`).
fn permissions_of(table: &Table, label: &str) -> Result<Permissions, ScriptError> {
    match table
        .raw_get::<Value>("permissions")
        .map_err(ScriptError::from_lua)?
    {
        Value::Nil => Ok(Permissions::None),
        Value::Function(f) => Ok(Permissions::Computed(f)),
        Value::Table(t) => {
            let mut names = Vec::new();
            for pair in t.pairs::<Value, Value>() {
                match pair.map_err(ScriptError::from_lua)? {
                    (_, Value::Boolean(false)) => {}
                    (Value::String(k), _) => names.push(k.to_string_lossy()),
                    (k, _) => {
                        return Err(ScriptError::Runtime(format!(
                            "{label}: `permissions` takes rule names as keys (`lead = true`), got a key of type {}",
                            k.type_name()
                        )))
                    }
                }
            }
            names.sort();
            Ok(Permissions::Fixed(names))
        }
        other => Err(ScriptError::Runtime(format!(
            "{label}: `permissions` must be a table of names or a function, got {}",
            other.type_name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys checked at load are the spec's.
    #[test]
    fn load_checks_use_the_specs_keys() {
        let mut spec = crate::script::api::spec::options("MoveTraits");
        let mut mine = MOVE_TRAITS.to_vec();
        spec.sort();
        mine.sort();
        assert_eq!(mine, spec);
        let mut spec = crate::script::api::spec::options("ActionSpec");
        let mut mine = ACTION_SPEC.to_vec();
        spec.sort();
        mine.sort();
        assert_eq!(mine, spec);
    }

    /// `accepted` says of every entry point what its type in the spec says: a function type accepts a
    /// function only, a table type a table only, and a union of both either.
    #[test]
    fn entry_kinds_are_the_specs() {
        for (kind, entries) in KINDS {
            for key in entries.iter().chain(DATA_KEYS) {
                let (what, _) = accepted(key);
                let expected = match crate::script::api::spec::entry_point(kind, key).map(|e| e.ty)
                {
                    Some(ty) if ty.starts_with("fun(") => "a function",
                    Some(ty) if ty.contains("fun(") => "a table or a function",
                    Some("boolean") => "a boolean",
                    Some(_) => "a table",
                    None if *key == "params" => "a table",
                    None => "a string",
                };
                assert_eq!(what, expected, "{kind}: {key}");
            }
        }
    }
}
