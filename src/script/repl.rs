//! The REPL's Lua side: evaluating what a person types against a live session (`return <expr>` tried
//! first, an unfinished chunk reported as such so the terminal asks for more), printing values (tables
//! with a stable key order and cycle safety, handles by their `__tostring`), Tab-completion candidates
//! from live globals, table fields and the methods of handles, and saving and loading the `game`
//! global with its dice position and log. The terminal itself (rustyline, commands, piped input) lives
//! in `src/repl/`; this module never reads a terminal or prints.

use super::api::game::{Core, GameHandle};
use super::api::handles::{BuildingRef, ModelRef};
use super::api::new_game::made_with;
use super::api::spec;
use super::error::ScriptError;
use super::save_check::{check_ids, check_party, check_positions, check_round, check_saved};
use super::session::ScriptHost;
use super::vm::Limits;
use crate::files::Fingerprint;
use crate::state::Game;
use mlua::{Lua, ObjectLike, Table, Value};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What evaluating one chunk gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Eval {
    /// It ran; each value it returned, rendered (none for a statement).
    Values(Vec<String>),
    /// It does not parse yet, but more lines could complete it (a `function` without its `end`).
    Incomplete,
    /// It failed: the message starts with `file:line:` when Lua knows them.
    Error(String),
}

/// How a REPL session's first game is made.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub seed: u64,
    pub length: String,
    pub heroes: Vec<String>,
    /// The difficulty preset (`rosters/presets.toml`; [`crate::roster::DEFAULT_PRESET`] plays the rules).
    pub preset: String,
    /// The scenario (`scenarios/NAME.toml` or a file; [`crate::scenario::DEFAULT_SCENARIO`] is the
    /// rulebook's game).
    pub scenario: String,
    /// The variants asked for, in force after the preset's.
    pub variants: Vec<String>,
    /// The hero policy that plays the heroes' side in `game:play_wave()` and `:heroes`.
    pub policy: String,
}

/// A saved game: what `:save` writes and `:load` reads (the state with its dice and log, and what the
/// game was created with).
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Saved {
    pub(super) format: String,
    pub(super) length: String,
    /// The difficulty preset (absent in saves made before presets: the rulebook).
    #[serde(
        default = "crate::roster::default_preset",
        skip_serializing_if = "crate::roster::is_default_preset"
    )]
    pub(super) preset: String,
    /// The scenario the game was made of (absent in saves made before scenarios: the rulebook's).
    #[serde(
        default = "crate::scenario::default_scenario",
        skip_serializing_if = "crate::scenario::is_default_scenario"
    )]
    pub(super) scenario: String,
    /// The variants in force (the preset's among them).
    pub(super) variants: Vec<String>,
    pub(super) policy: String,
    pub(super) game: Game,
    /// The rosters and scripts the game was saved with (absent in saves made before it was kept).
    #[serde(default)]
    pub(super) fingerprint: Option<Fingerprint>,
}

const SAVE_FORMAT: &str = "village-save 1";

/// A REPL session: a script host whose global `game` is the live game, and the activation being
/// played by hand, if any.
pub struct Repl {
    host: ScriptHost,
    play: RefCell<super::play::PlayState>,
}

impl Repl {
    /// Open a session on `layers` and create the first `game`.
    pub fn open(layers: &[PathBuf], limits: Limits, new: &NewGame) -> Result<Repl, Vec<String>> {
        let host = ScriptHost::open(layers, limits, new.seed)?;
        let repl = Repl {
            host,
            play: RefCell::new(super::play::PlayState::default()),
        };
        repl.start(new).map_err(|e| vec![e])?;
        Ok(repl)
    }

    /// Replace `game` with a new game made as `new` says (`:new`), as a session opened with those
    /// options would have it: fresh script module state, the VM's stream from its seed, nothing being
    /// played by hand. The session keeps its globals, its scripts as loaded and its history. A game
    /// that cannot be made (an unknown hero or length, a party the rules do not allow) is refused with
    /// the reason, and the live game, its modules' state and the VM's stream stay as they were.
    pub fn new_game(&self, new: &NewGame) -> Result<(), String> {
        let host = super::host::host(self.lua()).map_err(|e| e.to_string())?;
        let before = host.session_state(self.lua());
        // The live game has used the modules (a reload's too): the new one runs them afresh.
        host.modules_used();
        self.start(new)
            .inspect_err(|_| host.restore_session_state(self.lua(), before))
    }

    /// What the option `option` of `:new` may name, for Tab completion: the game lengths of the rosters
    /// (`--length`), the rule variants (`--variant`) and hero policies (`--policy`) of the scripts;
    /// nothing for another option (a hero's name has spaces, which a completed word could not keep).
    pub fn new_game_choices(&self, option: &str) -> Vec<String> {
        let rosters = self.host.rosters();
        let modules = |kind: &str| match super::host::host(self.lua()) {
            Ok(h) => h
                .registry()
                .of_kind(kind)
                .map(|m| m.stem().to_string())
                .collect(),
            Err(_) => Vec::new(),
        };
        match option {
            "--length" => rosters
                .map(|r| r.lengths.iter().map(|l| l.name.clone()).collect())
                .unwrap_or_default(),
            "--variant" => modules("variants"),
            "--policy" => modules("policies"),
            _ => Vec::new(),
        }
    }

    /// Make `new` the live `game`, with no play under way.
    fn start(&self, new: &NewGame) -> Result<(), String> {
        // The REPL explains what the AI does (`:why`): the game keeps its scripts' decisions.
        let handle = self.host.new_game_handle(new, "generated", true)?;
        self.lua()
            .globals()
            .raw_set("game", handle)
            .map_err(|e| e.to_string())?;
        self.set_play_state(super::play::PlayState::default());
        Ok(())
    }

    /// The script host (for reloading).
    pub fn host(&self) -> &ScriptHost {
        &self.host
    }

    pub(super) fn lua(&self) -> &Lua {
        self.host.vm().lua()
    }

    pub(super) fn play_state(&self) -> super::play::PlayState {
        self.play.borrow().clone()
    }

    pub(super) fn set_play_state(&self, s: super::play::PlayState) {
        *self.play.borrow_mut() = s;
    }

    /// Evaluate one chunk: `return <src>` first (so an expression shows its value), then `src` as
    /// statements. An error never ends the session.
    pub fn eval(&self, src: &str) -> Eval {
        let vm = self.host.vm();
        let as_expr = format!("return {src}");
        let ran = match self.lua().load(&as_expr).into_function() {
            Ok(_) => vm.exec(&as_expr, "stdin"),
            Err(_) => vm.exec(src, "stdin"),
        };
        match ran {
            Ok(values) => {
                Eval::Values(values.into_iter().map(|v| render(self.lua(), &v)).collect())
            }
            Err(ScriptError::Syntax {
                incomplete: true, ..
            }) => Eval::Incomplete,
            Err(e) => Eval::Error(e.to_string()),
        }
    }

    /// Whether `src` is an unfinished chunk (more lines could complete it): the terminal then asks for
    /// the next line instead of running it. A `:command` is never unfinished.
    pub fn incomplete(&self, src: &str) -> bool {
        if src.trim_start().starts_with(':') {
            return false;
        }
        let lua = self.lua();
        if lua.load(format!("return {src}")).into_function().is_ok() {
            return false;
        }
        matches!(
            lua.load(src).into_function(),
            Err(mlua::Error::SyntaxError {
                incomplete_input: true,
                ..
            })
        )
    }

    /// Completion candidates for the text before the cursor: where the word being completed starts, and
    /// the full words that complete it (sorted). `game:` lists the game handle's methods, `game.` its
    /// fields, `village.` the API table, a bare word the globals.
    pub fn complete(&self, before: &str) -> (usize, Vec<String>) {
        let start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '.' | ':'))
            .last()
            .map_or(before.len(), |(i, _)| i);
        let expr = &before[start..];
        let (path, sep, partial) = match expr.rfind(['.', ':']) {
            Some(i) => (&expr[..i], expr[i..].chars().next(), &expr[i + 1..]),
            None => ("", None, expr),
        };
        let word_start = before.len() - partial.len();
        let names = match sep {
            None => self.table_keys(&self.lua().globals(), false),
            Some(sep) => match self.resolve(path) {
                Some(v) => self.members(&v, sep == ':'),
                None => Vec::new(),
            },
        };
        let mut out: Vec<String> = names
            .into_iter()
            .filter(|n| n.starts_with(partial))
            .collect();
        out.sort();
        out.dedup();
        (word_start, out)
    }

    /// The value a dotted path names, read without calling anything but field getters.
    fn resolve(&self, path: &str) -> Option<Value> {
        let mut parts = path.split(['.', ':']);
        let first = parts.next()?;
        let mut v: Value = self.lua().globals().raw_get(first).ok()?;
        for p in parts {
            v = match &v {
                Value::Table(t) => super::vm::behind_view(t).raw_get(p).ok()?,
                Value::UserData(ud) => ud.get::<Value>(p).ok()?,
                _ => return None,
            };
        }
        Some(v)
    }

    /// What can follow `v.` (fields and methods) or `v:` (methods only).
    fn members(&self, v: &Value, methods_only: bool) -> Vec<String> {
        match v {
            Value::Table(t) => self.table_keys(t, methods_only),
            Value::UserData(ud) => {
                let class = if ud.is::<GameHandle>() {
                    "Game"
                } else if ud.is::<ModelRef>() {
                    "Model"
                } else if ud.is::<BuildingRef>() {
                    "Building"
                } else {
                    return Vec::new();
                };
                let Some(c) = spec::class(class) else {
                    return Vec::new();
                };
                let methods = c.methods.iter().map(|m| m.name.to_string());
                if methods_only {
                    methods.collect()
                } else {
                    c.fields
                        .iter()
                        .map(|f| f.name.to_string())
                        .chain(methods)
                        .collect()
                }
            }
            _ => Vec::new(),
        }
    }

    fn table_keys(&self, t: &Table, functions_only: bool) -> Vec<String> {
        super::vm::behind_view(t)
            .pairs::<Value, Value>()
            .filter_map(|p| p.ok())
            .filter(|(_, v)| !functions_only || matches!(v, Value::Function(_)))
            .filter_map(|(k, _)| match k {
                Value::String(s) => Some(s.to_string_lossy()),
                _ => None,
            })
            .collect()
    }

    /// What the live game was made of, in words (`:scenario`): its scenario with what it is and its
    /// file, then its length, preset, variants in force and hero policy.
    pub fn setup_words(&self) -> Result<String, String> {
        let core = self.core()?;
        let scenario =
            match crate::scenario::load(self.host.layers(), &core.rosters, &core.scenario) {
                Ok(l) => format!(
                    "scenario {} ({}): {}",
                    l.scenario.name, l.file, l.scenario.description
                ),
                Err(_) => format!("scenario {} (its file no longer loads)", core.scenario),
            };
        let variants = if core.variants.is_empty() {
            "none".to_string()
        } else {
            core.variants.join(", ")
        };
        Ok(format!(
            "{scenario}\nlength {}, preset {}, variants {variants}, policy {}",
            core.length, core.preset, core.policy
        ))
    }

    /// The live game (the `game` global), if it is one.
    pub(super) fn core(&self) -> Result<Rc<Core>, String> {
        let v: Value = self
            .lua()
            .globals()
            .raw_get("game")
            .map_err(|e| e.to_string())?;
        match v {
            Value::UserData(ud) => ud
                .borrow::<GameHandle>()
                .map(|h| h.0.clone())
                .map_err(|_| "`game` is not a game".to_string()),
            _ => Err("there is no `game` (set one with game = village.new_game{...})".to_string()),
        }
    }

    /// Run `f` on the live game.
    pub fn with_game<T>(&self, f: impl FnOnce(&Game) -> T) -> Result<T, String> {
        let core = self.core()?;
        let g = core
            .game
            .try_borrow()
            .map_err(|_| "the game is busy".to_string())?;
        Ok(f(&g))
    }

    /// Write the live game (state, dice position, log, length, variants, policy, and the fingerprint of
    /// the rosters and scripts) to `path` as JSON. The write is atomic: when it fails (a full disk, a
    /// file size limit), the file `path` held before is left whole.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let core = self.core()?;
        let game = core
            .game
            .try_borrow()
            .map_err(|_| "the game is busy".to_string())?
            .clone();
        let saved = Saved {
            format: SAVE_FORMAT.to_string(),
            length: core.length.clone(),
            preset: core.preset.clone(),
            scenario: core.scenario.clone(),
            variants: core.variants.clone(),
            policy: core.policy.clone(),
            game,
            fingerprint: Some(Fingerprint::of_game(self.host.layers(), &core.scenario)),
        };
        let text = serde_json::to_string(&saved).map_err(|e| e.to_string())?;
        self.output_allowed(":save", path)?;
        crate::files::write_atomic(path, text.as_bytes()).map_err(|e| {
            format!(
                "{}: {e} (nothing was saved; the file keeps what it held)",
                path.display()
            )
        })
    }

    /// Whether a command (`by`: `:save`, `:render`) may write `path`: never over one of the session's rule
    /// or script files.
    pub fn output_allowed(&self, by: &str, path: &Path) -> Result<(), String> {
        crate::files::distinct_from_data(
            self.host.layers(),
            &[],
            &[crate::files::Named { by, path }],
        )
    }

    /// Replace `game` with the one saved in `path`; it continues exactly as the original would have.
    /// The save is checked first (every model a profile of the rosters with its values in range,
    /// forced dice 1 to 6, a known length, policy and variants); one that fails is refused and the live
    /// game kept. A save made with other rosters or scripts is loaded with the current ones, and the
    /// warnings returned say which files differ.
    pub fn load(&self, path: &Path) -> Result<Vec<String>, String> {
        let text = crate::files::read_text(path, crate::files::SAVE).map_err(|e| e.to_string())?;
        let saved: Saved = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a saved game: {e}", path.display()))?;
        if saved.format != SAVE_FORMAT {
            return Err(format!(
                "{}: format {:?}, this version reads {SAVE_FORMAT:?}",
                path.display(),
                saved.format
            ));
        }
        let lua = self.lua();
        let host = super::host::host(lua).map_err(|e| e.to_string())?;
        let rosters = host.rosters().map_err(|e| e.to_string())?;
        let registry = host.registry();
        let module = |kind: &str, name: &str| registry.get(&format!("{kind}/{name}.lua")).is_some();
        // Positions are checked as typed ones are: a hand-edited save with a model or token off the
        // table (or at 1e308) is refused here, not met later inside a move.
        let not_loaded = |e: String| format!("{}: not loaded: {e}", path.display());
        check_saved(&saved, &rosters, &module)
            .and_then(|()| check_positions(&saved.game))
            .and_then(|()| check_ids(&saved.game))
            .and_then(|()| check_party(&saved.game, &rosters))
            .map_err(not_loaded)?;
        let warnings = match &saved.fingerprint {
            None => vec![format!(
                "{}: the save does not record the rosters and scripts it was made with; it is \
                 loaded with the current ones",
                path.display()
            )],
            Some(then) => then
                .differences(&Fingerprint::of_game(self.host.layers(), &saved.scenario))
                .map(|d| {
                    format!(
                        "{}: saved with other rosters/scripts ({d}); it is loaded with the current \
                         ones and may play differently",
                        path.display()
                    )
                })
                .into_iter()
                .collect(),
        };
        let made = made_with(
            lua,
            &rosters,
            &saved.preset,
            saved.variants,
            (saved.length, saved.policy),
            saved.scenario,
        )
        .map_err(|e| e.to_string())?;
        check_round(&saved.game, &made.rules).map_err(not_loaded)?;
        let mut game = saved.game;
        // The REPL explains what the AI does (`:why`), in a game saved without decisions too.
        game.explain_decisions();
        let core = Core::new(game, made).map_err(|e| e.to_string())?;
        let handle = GameHandle(Rc::new(core));
        self.set_play_state(super::play::PlayState::default());
        lua.globals()
            .raw_set("game", handle)
            .map_err(|e| e.to_string())?;
        Ok(warnings)
    }
}

/// A value as the REPL prints it: tables with their array part first, then other keys sorted; a table
/// printed once already is named by where (`<same table as list[2].next>`), one met again inside
/// itself is `<cycle>`; strings quoted; a model or building handle shown alone by its `__tostring` and
/// its fields (its `__pairs`, in the handle's order), inside a table by its `__tostring` only. The
/// whole text is at most [`MAX_OUTPUT`] bytes, cut with [`CUT_NOTE`] past it: a table of thirty
/// references to one subtable on each of six levels would otherwise print 30^7 lines.
pub fn render(lua: &Lua, v: &Value) -> String {
    let mut p = Printer {
        lua,
        out: String::new(),
        open: HashSet::new(),
        shown: HashMap::new(),
        full: false,
    };
    p.value(v, 0, "");
    p.out
}

/// The most one printed value takes (the REPL, `print` in `village run`).
pub const MAX_OUTPUT: usize = 1 << 20;
/// What ends a printed value cut at [`MAX_OUTPUT`].
pub const CUT_NOTE: &str = "… (cut: the value prints more than 1 MiB)";
/// Tables nested deeper than this print as `{ ... }`.
const MAX_DEPTH: usize = 6;
/// A key as long as this or longer is cut in the places `<same table as …>` names.
const PATH_KEY: usize = 40;

/// One value being printed: the text so far and the tables met on the way.
struct Printer<'a> {
    lua: &'a Lua,
    out: String,
    /// The tables being printed, from the value down to here: one met again is a cycle.
    open: HashSet<usize>,
    /// The tables printed in full, with where (a path from the value, as Lua indexes it).
    shown: HashMap<usize, String>,
    /// Whether [`MAX_OUTPUT`] was reached: nothing more is written or walked.
    full: bool,
}

impl Printer<'_> {
    /// Append `text`, or as much of it as the bound leaves, then the note.
    fn push(&mut self, text: &str) {
        if self.full {
            return;
        }
        if self.out.len() + text.len() <= MAX_OUTPUT {
            self.out.push_str(text);
            return;
        }
        let mut room = MAX_OUTPUT - self.out.len();
        while !text.is_char_boundary(room) {
            room -= 1;
        }
        self.out.push_str(&text[..room]);
        self.out.push_str(CUT_NOTE);
        self.full = true;
    }

    fn value(&mut self, v: &Value, depth: usize, path: &str) {
        if self.full {
            return;
        }
        match v {
            Value::String(s) => {
                // A string longer than the bound is cut anyway: quote only what can be shown.
                let bytes = s.as_bytes();
                let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_OUTPUT)]);
                self.push(&format!("{text:?}"));
            }
            Value::Table(t) => self.table(t, depth, path),
            Value::UserData(ud) if depth == 0 && has_pairs(ud) => {
                self.leaf(v);
                self.fields(v, depth, path);
            }
            other => self.leaf(other),
        }
    }

    /// A value by `tostring` (a handle's name, a number, `true`).
    fn leaf(&mut self, v: &Value) {
        if self.full {
            return;
        }
        let lua = self.lua;
        // `tostring` may run a script's `__tostring`: under a chunk's budget and the memory limit.
        let text = crate::script::host::with_budget(lua, chunk_budget(lua), || {
            lua.globals()
                .get::<mlua::Function>("tostring")?
                .call::<mlua::LuaString>(v.clone())
        })
        .map_or_else(|_| v.type_name().to_string(), |s| s.to_string_lossy());
        self.push(&text);
    }

    /// ` { key = value, ... }` from `pairs(v)`, in the order it gives them (run under a chunk's
    /// budget).
    fn fields(&mut self, v: &Value, depth: usize, path: &str) {
        let lua = self.lua;
        let fields = crate::script::host::with_budget(lua, chunk_budget(lua), || {
            let (next, state, mut key): (mlua::Function, Value, Value) = lua
                .globals()
                .get::<mlua::Function>("pairs")?
                .call(v.clone())?;
            let mut fields = Vec::new();
            loop {
                let (k, value): (Value, Value) = next.call((state.clone(), key))?;
                if k.is_nil() {
                    break;
                }
                fields.push((k.clone(), value));
                key = k;
            }
            Ok(fields)
        });
        let Ok(fields) = fields else {
            return; // a handle to a model that is gone: its name says enough
        };
        let pad = "  ".repeat(depth + 1);
        self.push(" {\n");
        for (k, value) in fields {
            if self.full {
                return;
            }
            let k = match k {
                Value::String(s) => s.to_string_lossy(),
                other => format!("[{}]", other.type_name()),
            };
            self.push(&format!("{pad}{k} = "));
            let at = child_path(path, &k);
            self.value(&value, depth + 1, &at);
            self.push(",\n");
        }
        self.push(&"  ".repeat(depth));
        self.push("}");
    }

    fn table(&mut self, t: &Table, depth: usize, path: &str) {
        let id = t.to_pointer() as usize;
        if self.open.contains(&id) {
            self.push("<cycle>");
            return;
        }
        if let Some(first) = self.shown.get(&id) {
            let text = format!("<same table as {first}>");
            self.push(&text);
            return;
        }
        if depth >= MAX_DEPTH {
            self.push("{ ... }");
            return;
        }
        if self.full {
            return;
        }
        let len = t.raw_len();
        // Only the first keys in order can be printed before the bound (an entry takes at least
        // `k = 1,` and a new line): keep those, so a table of millions of keys is not copied whole.
        let room = (MAX_OUTPUT - self.out.len()) / 8 + 1;
        let mut keyed: Vec<(String, Value)> = Vec::new();
        let by_key = |a: &(String, Value), b: &(String, Value)| a.0.cmp(&b.0);
        for (k, v) in t.pairs::<Value, Value>().filter_map(|p| p.ok()) {
            if matches!(k, Value::Integer(i) if i >= 1 && i as usize <= len) {
                continue;
            }
            keyed.push((key_text(&k), v));
            if keyed.len() >= 2 * room {
                keyed.sort_by(by_key);
                keyed.truncate(room);
            }
        }
        keyed.sort_by(by_key);
        keyed.truncate(room);
        if len == 0 && keyed.is_empty() {
            // Shorter than any name for it.
            self.push("{}");
            return;
        }
        self.open.insert(id);
        let pad = "  ".repeat(depth + 1);
        self.push("{\n");
        for i in 1..=len {
            if self.full {
                break;
            }
            let v: Value = t.raw_get(i).unwrap_or(Value::Nil);
            self.push(&pad);
            let at = if matches!(v, Value::Table(_)) {
                format!("{path}[{i}]")
            } else {
                String::new()
            };
            self.value(&v, depth + 1, &at);
            self.push(",\n");
        }
        for (k, v) in keyed {
            if self.full {
                break;
            }
            self.push(&format!("{pad}{k} = "));
            let at = if matches!(v, Value::Table(_)) {
                child_path(path, &k)
            } else {
                String::new()
            };
            self.value(&v, depth + 1, &at);
            self.push(",\n");
        }
        self.push(&"  ".repeat(depth));
        self.push("}");
        self.open.remove(&id);
        self.shown.insert(id, path.to_string());
    }
}

/// A key as the printer shows it: a name bare, anything else in brackets (`["a b"]`, `[2.5]`,
/// `[table]`).
fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => {
            let s = s.to_string_lossy();
            if is_identifier(&s) {
                s
            } else {
                format!("[{s:?}]")
            }
        }
        Value::Integer(i) => format!("[{i}]"),
        Value::Number(n) => format!("[{n}]"),
        other => format!("[{}]", other.type_name()),
    }
}

/// Where a value under `key` (as [`key_text`] shows it) is, from `path`: `a.b`, `a[2]`; a long key cut.
fn child_path(path: &str, key: &str) -> String {
    let key = if key.len() > PATH_KEY {
        let mut end = PATH_KEY;
        while !key.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &key[..end])
    } else {
        key.to_string()
    };
    if key.starts_with('[') || path.is_empty() {
        format!("{path}{key}")
    } else {
        format!("{path}.{key}")
    }
}

/// Whether a userdata lists its fields to `pairs` (the model and building handles).
fn has_pairs(ud: &mlua::AnyUserData) -> bool {
    ud.metatable()
        .and_then(|mt| mt.get::<Value>("__pairs"))
        .is_ok_and(|f| !f.is_nil())
}

/// The instructions a chunk may run: what a script's `__tostring` or `__pairs` run for the printer gets.
fn chunk_budget(lua: &Lua) -> u64 {
    crate::script::host::host(lua)
        .map(|h| h.limits.chunk_instructions)
        .unwrap_or(0)
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
