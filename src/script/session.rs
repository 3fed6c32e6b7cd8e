//! Opening a scripting session: rosters and scripts from the built-in folder and any `--mod` folders,
//! a sandboxed VM with the `village` API, and the hooks registry; running files in it.

use super::api;
use super::error::ScriptError;
use super::registry;
use super::repl::NewGame;
use super::variant_rules;
use super::vm::{Limits, ScriptRoot, Vm};
use crate::roster::Rosters;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A game that stopped on an error: the error, the log up to it, and the wave and round reached.
#[derive(Debug, Clone)]
pub struct PlayFailure {
    pub error: String,
    pub events: Vec<crate::state::Event>,
    /// The scripts' decisions up to the failure, when the game kept them.
    pub decisions: Vec<crate::state::Decision>,
    pub wave: u32,
    pub round: u32,
}

/// A whole game played to its end: its summary, its log and, when it kept them, its scripts'
/// decisions.
pub struct Played {
    pub summary: crate::wave::play::GameSummary,
    pub events: Vec<crate::state::Event>,
    pub decisions: Vec<crate::state::Decision>,
}

/// A VM with the game API, the rosters of its layers and the script modules loaded.
pub struct ScriptHost {
    vm: Vm,
    layers: Vec<PathBuf>,
}

/// The script roots of data layers: `<layer>/scripts`, named `scripts` for the built-in layer and by
/// path for a mod.
pub fn roots_of(layers: &[PathBuf]) -> Vec<ScriptRoot> {
    let builtin = Rosters::builtin_root();
    layers
        .iter()
        .map(|l| ScriptRoot {
            dir: l.join("scripts"),
            label: if *l == builtin {
                "scripts".to_string()
            } else {
                l.join("scripts").display().to_string()
            },
        })
        .collect()
}

/// Load every script module of `layers` (the built-in root first, then `--mod` folders) into a
/// throwaway sandboxed VM and return each error, headline only (`file:line: message`): what
/// `village check` reports about scripts, so a syntax error or a misspelt entry point is caught before
/// a game needs the script. The rosters are installed when they load (a module may read them at load
/// time); their own errors are `roster::check`'s to report. Empty when every module loads.
pub fn check_scripts(layers: &[PathBuf], limits: Limits) -> Vec<String> {
    let vm = match Vm::new(roots_of(layers), limits, 0) {
        Ok(vm) => vm,
        Err(e) => return vec![e.to_string()],
    };
    let rosters = Rosters::load(layers).ok();
    // A mod whose rosters do not load (their errors are roster::check's to report) still has its
    // variants checked, against the built-in rules.
    let base = rosters
        .as_ref()
        .map(|r| r.rules.clone())
        .or_else(|| Some(Rosters::load(layers.get(..1)?).ok()?.rules));
    if let Some(rosters) = rosters {
        *vm.host().rosters.borrow_mut() = Some(Rc::new(rosters));
    }
    if let Err(e) = api::install(vm.lua()) {
        return vec![e.to_string()];
    }
    let h = vm.host();
    match registry::load(vm.lua(), &h.roots, h.limits.hook_instructions) {
        // Every variant's `rules` overrides, enabled or not, against the layers' rules, so check
        // refuses what `--variant` would.
        Ok(reg) => {
            let mut errors: Vec<String> = match base {
                Some(base) => reg
                    .of_kind("variants")
                    .filter_map(|m| variant_rules::apply(vm.lua(), &base, m).err())
                    .flatten()
                    .collect(),
                None => Vec::new(),
            };
            // And the tracks each puts in play, against the rosters' tracks.
            if let Some(r) = vm.host().rosters.borrow().as_ref() {
                errors.extend(
                    reg.of_kind("variants")
                        .filter_map(|m| variant_rules::tracks(vm.lua(), r, m).err()),
                );
            }
            errors
        }
        Err(errors) => errors
            .iter()
            .map(|e| e.to_string().lines().next().unwrap_or_default().to_string())
            .collect(),
    }
}

impl ScriptHost {
    /// Open a session over `layers` (the built-in root first, then `--mod` folders). Every roster and
    /// script error is returned, one per line.
    pub fn open(layers: &[PathBuf], limits: Limits, seed: u64) -> Result<ScriptHost, Vec<String>> {
        let rosters = Rosters::load(layers)
            .map_err(|e| e.0.iter().map(|d| d.to_string()).collect::<Vec<_>>())?;
        let vm = Vm::new(roots_of(layers), limits, seed).map_err(|e| vec![e.to_string()])?;
        *vm.host().rosters.borrow_mut() = Some(Rc::new(rosters));
        api::install(vm.lua()).map_err(|e| vec![e.to_string()])?;
        let host = ScriptHost {
            vm,
            layers: layers.to_vec(),
        };
        host.reload_scripts()
            .map_err(|errs| errs.iter().map(|e| e.to_string()).collect::<Vec<_>>())?;
        Ok(host)
    }

    /// The VM.
    pub fn vm(&self) -> &Vm {
        &self.vm
    }

    /// Send the scripts' `print` to stdout (`true`: `village run`, the REPL, whose stdout a person
    /// reads) or to stderr (`false`, the default: every command whose stdout is its report or JSON).
    pub fn print_to_stdout(&self, on: bool) {
        self.vm.host().print_stdout.set(on);
    }

    /// The data layers this session was opened with.
    pub fn layers(&self) -> &[PathBuf] {
        &self.layers
    }

    /// The rosters as last loaded (a reload's included); `None` for a VM opened without them.
    pub fn rosters(&self) -> Option<Rc<Rosters>> {
        self.vm.host().rosters().ok()
    }

    /// Number of script modules loaded.
    pub fn module_count(&self) -> usize {
        self.vm.host().registry().len()
    }

    /// Reload every script module as one transaction: on any error the previous modules stay.
    pub fn reload_scripts(&self) -> Result<usize, Vec<ScriptError>> {
        let h = self.vm.host();
        let reg = registry::load(self.vm.lua(), &h.roots, h.limits.hook_instructions)?;
        let n = reg.len();
        h.set_registry(reg);
        Ok(n)
    }

    /// Play a whole game with the hero policy against the Behaviour scripts (`village play --auto`).
    /// `heroes` are hero names; `table` is "empty" or "generated".
    pub fn play(
        &self,
        seed: u64,
        heroes: &[String],
        length: &str,
        table: &str,
        variants: &[String],
    ) -> Result<crate::wave::play::GameSummary, String> {
        self.play_logged(seed, heroes, length, table, variants, "default")
            .map(|(summary, _)| summary)
    }

    /// [`ScriptHost::play`] with the hero policy `policy` (scripts/policies/NAME.lua), also returning
    /// the game's whole event log. The rulebook's game: [`ScriptHost::play_keeping_log`] takes a preset.
    pub fn play_logged(
        &self,
        seed: u64,
        heroes: &[String],
        length: &str,
        table: &str,
        variants: &[String],
        policy: &str,
    ) -> Result<(crate::wave::play::GameSummary, Vec<crate::state::Event>), String> {
        let new = NewGame {
            seed,
            length: length.to_string(),
            heroes: heroes.to_vec(),
            preset: crate::roster::DEFAULT_PRESET.to_string(),
            scenario: crate::scenario::DEFAULT_SCENARIO.to_string(),
            variants: variants.to_vec(),
            policy: policy.to_string(),
        };
        self.play_keeping_log(&new, table, false)
            .map(|p| (p.summary, p.events))
            .map_err(|f| f.error)
    }

    /// The game `new` says played whole on a `table` ("empty" or "generated"), keeping its log; when
    /// it stops on an error, the log up to it and where play had reached (`village play --log` writes
    /// what there is); with `explain`, the game keeps its scripts' decisions too (the same game: they
    /// change nothing).
    pub fn play_keeping_log(
        &self,
        new: &NewGame,
        table: &str,
        explain: bool,
    ) -> Result<Played, PlayFailure> {
        let early = |error: String| PlayFailure {
            error,
            events: Vec::new(),
            decisions: Vec::new(),
            wave: 0,
            round: 0,
        };
        let length = new.length.as_str();
        self.with_new_game(new, table, |game, rosters, hooks| {
            if explain {
                game.explain_decisions();
            }
            match crate::wave::play::play_game(game, rosters, hooks, length) {
                // The game is dropped after this: its log is handed on, not copied.
                Ok(summary) => Ok(Played {
                    summary,
                    events: game.take_log(),
                    decisions: game.take_decisions(),
                }),
                Err(e) => Err(PlayFailure {
                    error: e.to_string(),
                    events: game.take_log(),
                    decisions: game.take_decisions(),
                    wave: game.wave,
                    round: game.round,
                }),
            }
        })
        .map_err(early)?
        .inspect_err(|_| {
            // What a failed game's scripts left (a message of many megabytes raised as its error, the
            // tables it was building) is collected now, not carried into the next game of a
            // `--keep-going` run: every failed game would add its own to the peak.
            let _ = self.vm.lua().gc_collect();
        })
    }

    /// [`ScriptHost::play_logged`] with the frame recorder on (`state::frames`): the game as it stood
    /// when play began, the whole log, the frames of what changed at each event, and the rules it was
    /// played with — what the replay viewer draws. Play is the same as without the recorder.
    pub fn play_recorded(
        &self,
        new: &NewGame,
        table: &str,
    ) -> Result<crate::viewer::Recording, String> {
        // The frames are recorded from the game's first event, before the heroes are placed.
        let host = self.vm.host();
        host.record_frames.set(true);
        let made = self.with_new_game(new, table, |game, rosters, hooks| {
            // The viewer shows each decision beside the events it led to.
            game.explain_decisions();
            let played = crate::wave::play::play_game(game, rosters, hooks, &new.length);
            let (start, frames) = match game.take_recording() {
                Some(r) => r,
                // Not recorded (it always is): the game as it ended, and no changes to show.
                None => (game.clone(), Vec::new()),
            };
            let summary = played.map_err(|e| {
                format!(
                    "the game stopped in wave {}, round {}, after {} events: {e}",
                    game.wave,
                    game.round,
                    game.log().len()
                )
            })?;
            // Every profile's card for the profile panel (the sources read once, for all of them).
            let sources = crate::roster::sources(&self.layers);
            let facts = self.script_facts();
            let cards = rosters
                .profiles
                .iter()
                .filter_map(|p| {
                    crate::show::card(rosters, &sources, &facts, &p.name)
                        .map(|c| (p.name.clone(), c))
                })
                .collect();
            Ok(crate::viewer::Recording {
                start,
                events: game.log().to_vec(),
                decisions: game.take_decisions(),
                cards,
                frames,
                rules: rosters.rules.clone(),
                summary,
            })
        });
        host.record_frames.set(false);
        made?
    }

    /// The enemy wave of Escalation `escalation` that a game made as `new` says would face (`village
    /// wave`): an enabled variant's `build_wave` when it gives one, else the default builder, on the
    /// game's own dice. Nothing is deployed.
    pub fn preview_wave(
        &self,
        new: &NewGame,
        escalation: &str,
    ) -> Result<crate::wave::WavePlan, String> {
        self.with_new_game(new, "empty", |game, rosters, hooks| {
            let esc = rosters
                .escalation(escalation)
                .ok_or_else(|| crate::wave::WaveError::UnknownEscalation(escalation.to_string()))?
                .clone();
            // The builder is asked as at the first wave of the length with this Escalation (wave 1
            // when the length has none).
            game.wave = rosters
                .length(&new.length)
                .and_then(|l| l.waves.iter().position(|w| *w == esc.name))
                .map_or(1, |i| i as u32 + 1);
            // A scenario's battle of fixed Groups: its Groups, whatever the Escalation asked.
            match crate::wave::battle::all_groups(game, rosters, &esc) {
                Some(fixed) => fixed,
                None => crate::wave::play::plan_wave(game, rosters, hooks, &esc),
            }
        })?
        .map_err(|e| e.to_string())
    }

    /// The rule constants a game of `preset` with `variants` plays by: the preset's, then the `rules`
    /// tables of its variants and of `variants` applied in order (`village odds --preset --variant`).
    pub fn rules_of(
        &self,
        preset: &str,
        variants: &[String],
    ) -> Result<crate::roster::Rules, String> {
        let lua = self.vm.lua();
        let rosters = self.vm.host().rosters().map_err(|e| e.to_string())?;
        let in_force = match rosters.preset(preset) {
            Some(p) => p.variants.iter().chain(variants).cloned().collect(),
            None => return Err(rosters.unknown_preset(preset)),
        };
        api::new_game::made_with(
            lua,
            &rosters,
            preset,
            in_force,
            (String::new(), String::new()),
            crate::scenario::DEFAULT_SCENARIO.to_string(),
        )
        .map(|m| m.rules)
        .map_err(|e| ScriptError::from_lua(e).headline())
    }

    /// Make a game as `new` says on a `table` ("empty" or "generated"), with fresh module state and the
    /// dice started from its seed, and hand it to `f` with its rosters and hooks. Errors making it are
    /// returned as their headline.
    fn with_new_game<T>(
        &self,
        new: &NewGame,
        table: &str,
        f: impl FnOnce(&mut crate::state::Game, &Rosters, &api::hooks::ScriptHooks<'_>) -> T,
    ) -> Result<T, String> {
        // The caller says when the game keeps decisions (`Game::explain_decisions`): plain play and
        // simulation do not.
        let handle = self.new_game_handle(new, table, false)?;
        let core = handle.0.clone();
        let hooks = api::hooks::ScriptHooks::new(self.vm.lua(), &core, self.vm.host().registry());
        let rosters = core.rosters_with_rules();
        let mut game = core.game.borrow_mut();
        Ok(f(&mut game, rosters, &hooks))
    }

    /// A new game as `new` says on a `table` ("empty" or "generated"), keeping its scripts' decisions
    /// when `decisions` is on: the script modules run afresh (a game never sees what an earlier one on
    /// this VM left in a module) and the VM's own stream (`math.random`) started from its seed, so it is
    /// the game any command makes of the same options. A party the rules do not allow (core Ch. IV: 2
    /// to 4 heroes, as `rules.wave` says with the variants applied) is refused here, before any play.
    /// Errors are returned as their headline.
    pub(crate) fn new_game_handle(
        &self,
        new: &NewGame,
        table: &str,
        decisions: bool,
    ) -> Result<api::game::GameHandle, String> {
        let lua_error = |e: mlua::Error| ScriptError::from_lua(e).to_string();
        let lua = self.vm.lua();
        let opts = lua.create_table().map_err(lua_error)?;
        let set = || -> mlua::Result<()> {
            // Lua integers are i64: a seed at or above 2^63 crosses as its two's-complement bits,
            // which `new_game` reads back as the same u64 (every command takes any u64 seed).
            opts.set("seed", new.seed as i64)?;
            opts.set("heroes", new.heroes.clone())?;
            opts.set("length", new.length.as_str())?;
            opts.set("table", table)?;
            opts.set("preset", new.preset.as_str())?;
            opts.set("scenario", new.scenario.as_str())?;
            opts.set("variants", new.variants.clone())?;
            opts.set("policy", new.policy.as_str())?;
            opts.set("decisions", decisions)?;
            Ok(())
        };
        set().map_err(lua_error)?;
        // Each game starts the VM's own stream (`math.random`) afresh from its seed, so a game played by
        // a host that played others before (a `village sim` worker) is the game `village play` plays.
        let host = self.vm.host();
        // Fresh module state first: a module that rolls while it loads must not move the game's dice.
        host.fresh_registry(lua).map_err(|e| e.to_string())?;
        *host.dice.borrow_mut() = crate::dice::Dice::new(new.seed);
        host.default_seed.set(new.seed);
        let handle = api::new_game::new_game(lua, Some(opts)).map_err(lua_error)?;
        // `village.new_game` makes a game of any party (a scenario may want one hero); a command's game
        // is one the rules allow.
        crate::wave::check_party_size(new.heroes.len(), &handle.0.rules)
            .map_err(|e| e.to_string())?;
        Ok(handle)
    }

    /// What `village show` says of each loaded script: its file as the log names it, its `name` and
    /// `description`, and its entry points with where each is defined.
    pub fn script_facts(&self) -> crate::show::ScriptFacts {
        self.vm.host().registry().facts()
    }

    /// The rosters, or why there are none (a bare sandbox VM).
    fn loaded_rosters(&self) -> Result<Rc<Rosters>, String> {
        self.rosters()
            .ok_or_else(|| "this VM has no rosters loaded".to_string())
    }

    /// The card of the profile a person names (`village show`, the REPL's `:show`): its parts with
    /// their rule text, scripts and where each comes from. An unknown name says what it may be.
    pub fn profile_card(&self, name: &str) -> Result<crate::show::Card, String> {
        let rosters = self.loaded_rosters()?;
        let name = rosters.resolve_profile(name)?;
        let sources = crate::roster::sources(&self.layers);
        crate::show::card(&rosters, &sources, &self.script_facts(), &name)
            .ok_or_else(|| format!("{name:?} is not a profile of the rosters"))
    }

    /// Every hero, enemy, Village Defender, trait, spell, Behaviour, Opportunity and variant with
    /// its one-line description (`village show --list`).
    pub fn catalogue(&self) -> Result<Vec<(&'static str, Vec<crate::show::Entry>)>, String> {
        let rosters = self.loaded_rosters()?;
        Ok(crate::show::catalogue(&rosters, &self.script_facts()))
    }

    /// Seconds spent inside Lua calls (hooks, Behaviours, the policy, chunks) since this host was opened:
    /// `village bench`'s share of time in Lua.
    pub fn lua_seconds(&self) -> f64 {
        self.vm.host().budget.lua_nanos.get() as f64 / 1e9
    }

    /// Start counting calls and time by script function (see [`ScriptHost::profile`]).
    pub fn start_profile(&self) {
        *self.vm.host().profile.borrow_mut() = Some(Default::default());
        *self.vm.host().lines.borrow_mut() = Some(Default::default());
        super::host::PROFILING.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The script functions the kernel called since [`ScriptHost::start_profile`]: `file:line` where
    /// each is defined, calls, and seconds inside it (inclusive of the hooks it set off), most time first.
    pub fn profile(&self) -> Vec<(String, u64, f64)> {
        let host = self.vm.host();
        let profile = host.profile.borrow();
        let mut rows: Vec<(String, u64, f64)> = profile
            .iter()
            .flatten()
            .map(|(k, (calls, nanos))| (k.clone(), *calls, *nanos as f64 / 1e9))
            .collect();
        rows.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
        rows
    }

    /// The Lua lines the instruction hook found running since [`ScriptHost::start_profile`] (one
    /// sample every `HOOK_STRIDE` VM instructions of a script), `file:line` and samples, most first.
    pub fn line_profile(&self) -> Vec<(String, u64)> {
        let lines = self.vm.host().lines.borrow();
        let mut rows: Vec<(String, u64)> = lines
            .iter()
            .flatten()
            .map(|(k, n)| (k.clone(), *n))
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        rows
    }

    /// Run a Lua file with `village` in scope; errors name the file and line.
    pub fn run_file(&self, path: &Path) -> Result<(), ScriptError> {
        let label = path.display().to_string();
        self.vm.exec_file(path, &label).map(|_| ())
    }
}
