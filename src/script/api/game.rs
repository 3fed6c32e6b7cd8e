//! The game handle scripts and the REPL use: `village.new_game{...}` and its methods (`g:place`,
//! `g:activate`, `g:move`, `g:melee`, `g:shoot`, `g:structural`, `g:cast`, `g:building`, `g:models`,
//! `g:log`, ...).
//!
//! Each method resolves a rule directly on the table as a what-if: it checks geometry (contact, sight,
//! range, legality of a move) but not whose turn it is — that is the turn engine's job.

use super::convert::{
    check_options, distance_opt, fail, flag, pos_table, side_arg, to_lua, to_pos,
};
use super::handles::{BuildingRef, ModelRef};
use super::hooks::ScriptHooks;
use super::spec;
use crate::geometry::{circle_circle_gap, Vec2};
use crate::roster::{Rosters, Rules};
use crate::rules::hooks::{Aim, Hooks};
use crate::rules::melee::{CombatReport, MeleeOptions};
use crate::rules::movement::Blocker;
use crate::rules::ranged::ShotOptions;
use crate::rules::{activation, magic, melee, movement, ranged, structural, RuleError};
use crate::script::host::host;
use crate::state::{self, Condition, Game, ModelId, MoraleTrigger, TokenKind, Transaction};
use mlua::{Lua, Table, UserData, UserDataFields, UserDataMethods, Value};
use std::cell::{Ref, RefCell, RefMut};
use std::rc::Rc;

/// A game and what it was created with.
pub struct Core {
    /// This game's identity in the process: views and handles carry it, so one kept from another
    /// game is refused where it is used instead of being read by id in this one.
    pub id: u64,
    pub game: RefCell<Game>,
    /// The rule constants in force: the rosters' with the variants' overrides applied.
    pub rules: Rules,
    /// The rosters as the preset made them (its buildings and their Integrity; `rules` holds its
    /// rule constants).
    pub rosters: Rc<Rosters>,
    /// The difficulty preset (`rosters/presets.toml`) the game was made with.
    pub preset: String,
    /// The scenario (`scenarios/NAME.toml`) the game was made of.
    pub scenario: String,
    /// The variants in force: the preset's, then those asked for.
    pub variants: Vec<String>,
    pub length: String,
    /// The hero policy script (scripts/policies/<name>.lua) that plays the heroes' side in `play`.
    pub policy: String,
    /// `rules` as JSON, built once: `ctx:rule(section, key)` is asked many times an action.
    pub rules_json: serde_json::Value,
    /// The constants of `rules_json` indexed by section and key, for `ctx:rule`'s usual case.
    pub rule_constants: super::constants::RuleConstants,
    /// `rosters` with `rules` in place of their own, made on first use ([`Core::rosters_with_rules`]).
    merged: std::cell::OnceCell<Rosters>,
    /// Counts this game among its VM's live games while it lives (`village.new_game`'s games).
    pub(super) live: Option<LiveGame>,
}

/// The most games `village.new_game` keeps alive in one VM at once. A game holds its table, its
/// navigators and its log outside the VM's memory limit (about half a megabyte new): 3,000 kept in a
/// list took 1.5 GB. A scenario or test plays a handful; games a script dropped are collected first.
pub const MAX_LIVE_GAMES: usize = 64;

/// One of a VM's live games, counted while it lives.
pub struct LiveGame(Rc<std::cell::Cell<usize>>);

impl LiveGame {
    /// Count one more live game in `lua`'s VM, or refuse one past [`MAX_LIVE_GAMES`] (after a full
    /// collection, so games a script no longer holds are not counted), located at the script's line.
    pub(super) fn take(lua: &Lua) -> mlua::Result<LiveGame> {
        let count = host(lua)?.games.clone();
        if count.get() >= MAX_LIVE_GAMES {
            // Twice: the first cycle may only mark what a finaliser keeps for the second.
            lua.gc_collect()?;
            lua.gc_collect()?;
        }
        if count.get() >= MAX_LIVE_GAMES {
            return Err(fail(
                lua,
                format!(
                    "{MAX_LIVE_GAMES} games are live in this VM, at most {MAX_LIVE_GAMES} at once (each \
                     holds its table and log outside the VM's memory limit): let go of games no \
                     longer played"
                ),
            ));
        }
        count.set(count.get() + 1);
        Ok(LiveGame(count))
    }
}

impl Drop for LiveGame {
    fn drop(&mut self) {
        self.0.set(self.0.get().saturating_sub(1));
    }
}

/// A new game identity: 1, 2, 3, ... in the order games are made in the process (never 0, which no
/// game has). At most 2^31 − 1 are told apart: a view's serial holds its game's identity in 31 bits
/// (`hooks::handle`), and two games 2^31 apart share one only in a process that made two billion.
fn next_game_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    (NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) - 1) % 0x7fff_ffff + 1
}

const BUSY: &str = "the game is busy resolving a rule; inside a hook, read the table through `ctx`";

impl Core {
    /// A game's core: `rules` are the constants in force (variants applied).
    pub fn new(game: Game, made: super::new_game::Made) -> Result<Core, serde_json::Error> {
        let rules_json = serde_json::to_value(&made.rules)?;
        Ok(Core {
            id: next_game_id(),
            game: RefCell::new(game),
            rule_constants: super::constants::RuleConstants::of(&rules_json),
            rules_json,
            merged: std::cell::OnceCell::new(),
            live: None,
            rules: made.rules,
            rosters: made.rosters,
            preset: made.preset,
            scenario: made.scenario,
            variants: made.variants,
            length: made.length,
            policy: made.policy,
        })
    }

    /// Read the game, or a clear error when a rule is being resolved (a hook touching the handle).
    pub fn read(&self, lua: &Lua) -> mlua::Result<Ref<'_, Game>> {
        self.game.try_borrow().map_err(|_| fail(lua, BUSY))
    }

    /// Change the game, or a clear error when it is being read or resolved.
    pub fn write(&self, lua: &Lua) -> mlua::Result<RefMut<'_, Game>> {
        self.game.try_borrow_mut().map_err(|_| fail(lua, BUSY))
    }
}

/// The Lua face of a game.
#[derive(Clone)]
pub struct GameHandle(pub Rc<Core>);

/// The game borrowed for one command resolved with scripts: when a script call fails during it (a
/// Behaviour, an `on_result`), the game goes back whole to where the command began, its log included,
/// so an error never leaves a roll, a move or a Free Hack committed.
pub struct Session<'a> {
    game: Transaction<RefMut<'a, Game>>,
    budget: Rc<crate::script::host::Budget>,
    failures: u64,
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        self.game
            .keep_unless(self.budget.failures.get() > self.failures);
    }
}

impl std::ops::Deref for Session<'_> {
    type Target = Game;
    fn deref(&self) -> &Game {
        &self.game
    }
}

impl std::ops::DerefMut for Session<'_> {
    fn deref_mut(&mut self) -> &mut Game {
        &mut self.game
    }
}

impl GameHandle {
    /// The game, borrowed for a change that a failing script undoes ([`Session`]), and the script
    /// hooks to resolve it with.
    fn session<'a>(&'a self, lua: &'a Lua) -> mlua::Result<(Session<'a>, ScriptHooks<'a>)> {
        let h = host(lua)?;
        let registry = h.registry();
        let budget = h.budget.clone();
        let written = self.0.write(lua)?;
        // The log lives outside the VM's memory limit: a command that would add to a full one (a run
        // file looping over `g:melee`) is refused at the script's line.
        if let Some(why) = written.log_full() {
            return Err(fail(lua, why));
        }
        let game = Transaction::begin(written);
        let session = Session {
            game,
            failures: budget.failures.get(),
            budget,
        };
        Ok((session, ScriptHooks::new(lua, &self.0, registry)))
    }

    fn model_ref(&self, game: &Game, id: ModelId) -> ModelRef {
        let name = game.model(id).map(|m| m.name.clone()).unwrap_or_default();
        ModelRef {
            core: self.0.clone(),
            id,
            name,
        }
    }

    /// A model argument: a handle of this game or a model id.
    fn model_arg(&self, lua: &Lua, v: &Value) -> mlua::Result<ModelId> {
        match v {
            Value::UserData(ud) => {
                let m = ud
                    .borrow::<ModelRef>()
                    .map_err(|_| fail(lua, "expected a model handle"))?;
                if !Rc::ptr_eq(&m.core, &self.0) {
                    return Err(fail(lua, format!("{} belongs to another game", m.name)));
                }
                Ok(m.id)
            }
            Value::Integer(i) if *i > 0 => Ok(ModelId(*i as u32)),
            other => Err(fail(
                lua,
                format!("expected a model handle, got {}", other.type_name()),
            )),
        }
    }

    fn building_arg(&self, lua: &Lua, v: &Value) -> mlua::Result<String> {
        match v {
            Value::String(s) => Ok(s.to_string_lossy()),
            Value::UserData(ud) => Ok(ud
                .borrow::<BuildingRef>()
                .map_err(|_| fail(lua, "expected a building handle or name"))?
                .name
                .clone()),
            other => Err(fail(
                lua,
                format!("expected a building, got {}", other.type_name()),
            )),
        }
    }

    fn rule_err(lua: &Lua, e: RuleError) -> mlua::Error {
        match e {
            // A hook's error already names the script's file:line.
            RuleError::Hook(h) => mlua::Error::runtime(h.message),
            other => fail(lua, other),
        }
    }

    fn combat_table(&self, lua: &Lua, game: &Game, r: &CombatReport) -> mlua::Result<Table> {
        combat_table(lua, &self.0, game, r)
    }
}

/// A handle to a model of this game (by id; the name is kept for a model a result removes).
pub(super) fn model_ref(core: &Rc<Core>, game: &Game, id: ModelId) -> ModelRef {
    let name = game.model(id).map(|m| m.name.clone()).unwrap_or_default();
    ModelRef {
        core: core.clone(),
        id,
        name,
    }
}

/// The table `g:melee`, `g:shoot` and `ctx:spell_attack` return.
pub(super) fn combat_table(
    lua: &Lua,
    core: &Rc<Core>,
    game: &Game,
    r: &CombatReport,
) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("kind", r.kind.as_str())?;
    t.raw_set("result", r.applied.as_str())?;
    t.raw_set("table_result", r.result.as_str())?;
    t.raw_set("attacker_die", r.attacker_die)?;
    t.raw_set("defender_die", r.defender_die)?;
    t.raw_set("attacker_total", r.attacker_total)?;
    t.raw_set("defender_total", r.defender_total)?;
    t.raw_set("modifiers", to_lua(lua, &r.modifiers)?)?;
    if let Some((w, l)) = r.winner_loser() {
        t.raw_set("winner", model_ref(core, game, w))?;
        // A loser removed by the result gets its name back from `fix_names`.
        t.raw_set("loser", model_ref(core, game, l))?;
    }
    Ok(t)
}

/// The table `g:act` returns (and each action of `g:enemy_turn`).
fn action_table(lua: &Lua, r: &crate::wave::act::ActionReport) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    use crate::wave::act::ActionReport as A;
    match r {
        A::Lost { why } => {
            t.raw_set("did", "lost")?;
            t.raw_set("why", why.as_str())?;
        }
        A::Melee { report } | A::Shoot { report } => {
            t.raw_set(
                "did",
                if matches!(r, A::Melee { .. }) {
                    "melee"
                } else {
                    "shoot"
                },
            )?;
            t.raw_set("result", report.applied.as_str())?;
        }
        A::Structural { report } => {
            t.raw_set("did", "structural")?;
            t.raw_set("building", report.building.as_str())?;
            t.raw_set("damage", report.damage)?;
        }
        A::Ignite { building } => {
            t.raw_set("did", "ignite")?;
            t.raw_set("building", building.as_str())?;
        }
        A::Moved { report } => {
            t.raw_set("did", "moved")?;
            t.raw_set("to", pos_table(lua, report.to)?)?;
            t.raw_set("travelled", report.travelled)?;
        }
        A::Left => t.raw_set("did", "left")?,
        A::StoodUp => t.raw_set("did", "stood_up")?,
        A::Claimed { report } => {
            t.raw_set("did", "claimed")?;
            t.raw_set("token", report.token.0)?;
            t.raw_set("roll", report.roll)?;
            t.raw_set("opportunity", report.result.as_deref())?;
            t.raw_set("complete", report.roll.is_some())?;
        }
        A::Used { report } => {
            t.raw_set("did", "used")?;
            t.raw_set("item", report.item.as_str())?;
            t.raw_set("complete", report.complete)?;
        }
        A::Healed { target, healed, .. } => {
            t.raw_set("did", "healed")?;
            t.raw_set("target", target.0)?;
            t.raw_set("complete", *healed)?;
        }
        A::Ability {
            name,
            source,
            task,
            ran,
        } => {
            t.raw_set("did", "ability")?;
            t.raw_set("name", name.as_str())?;
            t.raw_set("source", source.as_str())?;
            t.raw_set("complete", *ran)?;
            if let Some((done, needed)) = task {
                t.raw_set("done", *done)?;
                t.raw_set("needed", *needed)?;
            }
        }
        A::Cast { report } => {
            t.raw_set("did", "cast")?;
            t.raw_set("name", report.spell.as_str())?;
            t.raw_set("power", report.power)?;
            t.raw_set("source", report.source.as_str())?;
            t.raw_set("complete", report.complete)?;
            if let Some((done, needed)) = report.task {
                t.raw_set("done", done)?;
                t.raw_set("needed", needed)?;
            }
        }
        A::BrokeFree {
            condition,
            done,
            needed,
            freed,
        } => {
            t.raw_set("did", "broke_free")?;
            t.raw_set("condition", condition.as_str())?;
            t.raw_set("done", *done)?;
            t.raw_set("needed", *needed)?;
            t.raw_set("complete", *freed)?;
        }
    }
    Ok(t)
}

/// The table `g:activate` and `g:activate_group` return.
fn activation_table(lua: &Lua, r: &crate::dice::ActivationRoll) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("dice", r.dice.clone())?;
    t.raw_set("automatic", r.automatic)?;
    t.raw_set("successes", r.successes)?;
    t.raw_set("failures", r.failures)?;
    t.raw_set("turnover", r.turnover)?;
    Ok(t)
}

/// The table `g:structural` and `g:attack_barricade` return.
fn structural_table(lua: &Lua, r: &structural::StructuralReport) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("attacker_die", r.attacker_die)?;
    t.raw_set("building_die", r.building_die)?;
    t.raw_set("attacker_total", r.attacker_total)?;
    t.raw_set("building_total", r.building_total)?;
    t.raw_set("damage", r.damage)?;
    t.raw_set("integrity", r.integrity)?;
    t.raw_set("destroyed", r.destroyed)?;
    t.raw_set("modifiers", to_lua(lua, &r.modifiers)?)?;
    Ok(t)
}

/// Names kept for a model that a result may remove, so its handle can still say what it was.
pub(super) fn names(game: &Game, ids: &[ModelId]) -> Vec<(ModelId, String)> {
    ids.iter()
        .filter_map(|id| game.model(*id).ok().map(|m| (*id, m.name.clone())))
        .collect()
}

pub(super) fn fix_names(t: &Table, known: &[(ModelId, String)]) -> mlua::Result<()> {
    for key in ["winner", "loser"] {
        if let Value::UserData(ud) = t.raw_get::<Value>(key)? {
            if let Ok(mut m) = ud.borrow_mut::<ModelRef>() {
                if let Some((_, n)) = known.iter().find(|(id, _)| *id == m.id) {
                    m.name = n.clone();
                }
            }
        }
    }
    Ok(())
}

/// The name of a `Game` member, as `spec` describes it (a name it does not describe panics).
fn api(member: &str) -> &'static str {
    spec::member("Game", member)
}

/// `p` when it lies on the game's table; a point off it (where something would be placed or moved)
/// is refused, located at the Lua caller, naming the value and the table's size.
fn on_table(lua: &Lua, game: &Game, what: &str, p: Vec2) -> mlua::Result<Vec2> {
    crate::geometry::check::point_on(&game.table, what, p).map_err(|e| fail(lua, e))
}

impl UserData for GameHandle {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get(api("seed"), |lua, this| Ok(this.0.read(lua)?.seed));
        fields.add_field_method_get(api("round"), |lua, this| Ok(this.0.read(lua)?.round));
        fields.add_field_method_get(api("wave"), |lua, this| Ok(this.0.read(lua)?.wave));
        fields.add_field_method_get(api("supplies"), |lua, this| Ok(this.0.read(lua)?.supplies));
        fields.add_field_method_get(api("herbs"), |lua, this| Ok(this.0.read(lua)?.herbs));
        fields.add_field_method_get(api("joining"), |lua, this| {
            Ok(this.0.read(lua)?.joining.clone())
        });
        fields.add_field_method_get(api("length"), |_, this| Ok(this.0.length.clone()));
        fields.add_field_method_get(api("preset"), |_, this| Ok(this.0.preset.clone()));
        fields.add_field_method_get(api("scenario"), |_, this| Ok(this.0.scenario.clone()));
        fields.add_field_method_get(api("tracks"), |lua, this| {
            let t = lua.create_table()?;
            for (name, track) in &this.0.read(lua)?.tracks {
                t.raw_set(name.as_str(), track.value)?;
            }
            Ok(t)
        });
        fields.add_field_method_get(api("variants"), |_, this| Ok(this.0.variants.clone()));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(
            api("place"),
            |lua, this, (name, pos, opts): (String, Value, Option<Table>)| {
                check_options(lua, &opts, &spec::options("PlaceOptions"))?;
                let pos = to_pos(lua, &pos)?;
                let core = &this.0;
                let profile = core.rosters.profile(&name).ok_or_else(|| {
                    fail(lua, format!("no profile called {name:?} in the rosters"))
                })?;
                let mut model = state::model_from_profile(profile, &core.rosters, pos);
                if let Some(t) = &opts {
                    if let Some(b) = t.raw_get::<Option<String>>("behaviour")? {
                        if !profile.behaviours.contains(&b) {
                            return Err(fail(
                                lua,
                                format!(
                                    "{name} plays {}, not {b:?}",
                                    profile.behaviours.join(" or ")
                                ),
                            ));
                        }
                        model.behaviour = Some(b);
                    }
                    if let Some(g) = t.raw_get::<Option<u32>>("group")? {
                        model.group = Some(g);
                    }
                }
                let mut game = core.write(lua)?;
                on_table(lua, &game, "position", pos)?;
                if let Some(why) = crate::rules::query::placement_problem(&game, &model.circle()) {
                    return Err(fail(
                        lua,
                        format!("cannot place {name} at ({:.2}, {:.2}): {why}", pos.x, pos.y),
                    ));
                }
                let id = game.add_model(model);
                Ok(ModelRef {
                    core: core.clone(),
                    id,
                    name,
                })
            },
        );

        methods.add_method(api("force_dice"), |lua, this, faces: Vec<i64>| {
            let mut game = this.0.write(lua)?;
            game.dice.force(faces).map_err(|e| fail(lua, e))
        });

        methods.add_method(api("begin_turn"), |lua, this, side: String| {
            let side = side_arg(lua, &side)?;
            let mut game = this.0.write(lua)?;
            activation::begin_turn(&mut game, side);
            Ok(())
        });

        methods.add_method(
            api("activate"),
            |lua, this, (m, dice, opts): (Value, u8, Option<Table>)| {
                check_options(lua, &opts, &spec::options("ActivateOptions"))?;
                let id = this.model_arg(lua, &m)?;
                let cast = flag(lua, &opts, "cast")?;
                let (mut game, hooks) = this.session(lua)?;
                let rules = &this.0.rules;
                // A refusal leaves the game as it was (no declaration without its roll).
                let before = game.checkpoint();
                let r = (|| {
                    // Declared before the roll (§3.7); refused for a model that cannot cast.
                    let casters = if cast {
                        let c = magic::casters(&game, &hooks, &[id])?;
                        magic::declare(&mut game, &c)?;
                        c
                    } else {
                        Vec::new()
                    };
                    let r = activation::activate(&mut game, rules, &hooks, id, dice)?;
                    magic::after_declared_roll(&mut game, rules, &casters, &r)?;
                    Ok(r)
                })()
                .map_err(|e| {
                    game.restore(before);
                    Self::rule_err(lua, e)
                })?;
                activation_table(lua, &r)
            },
        );

        methods.add_method(
            api("move"),
            |lua, this, (m, to, opts): (Value, Value, Option<Table>)| {
                check_options(lua, &opts, &spec::options("MoveOptions"))?;
                let id = this.model_arg(lua, &m)?;
                let dest = to_pos(lua, &to)?;
                let limit = distance_opt(lua, &opts, "distance")?;
                let step = flag(lua, &opts, "step")?;
                let core = &this.0;
                let (mut game, hooks) = this.session(lua)?;
                on_table(lua, &game, "destination", dest)?;
                let o = movement::MoveOptions {
                    limit,
                    step,
                    push: false,
                };
                let r = movement::move_with(&mut game, &core.rules, &hooks, id, dest, o)
                    .map_err(|e| Self::rule_err(lua, e))?;
                let t = lua.create_table()?;
                t.raw_set("to", pos_table(lua, r.to)?)?;
                t.raw_set("travelled", r.travelled)?;
                t.raw_set("actions", r.actions)?;
                if let Some(why) = &r.band_lost {
                    t.raw_set("band_lost", why.as_str())?;
                }
                let hacks: Vec<ModelRef> = r
                    .free_hacks
                    .iter()
                    .map(|e| this.model_ref(&game, *e))
                    .collect();
                t.raw_set("free_hacks", hacks)?;
                match r.stopped_by {
                    Some(Blocker::Enemy(o)) | Some(Blocker::Model(o)) => {
                        t.raw_set("stopped_by", this.model_ref(&game, o))?
                    }
                    Some(Blocker::Building(name)) => t.raw_set(
                        "stopped_by",
                        BuildingRef {
                            core: core.clone(),
                            name,
                        },
                    )?,
                    Some(Blocker::Terrain(kind)) => t.raw_set("stopped_by", kind)?,
                    Some(Blocker::TableEdge) => t.raw_set("stopped_by", "table edge")?,
                    Some(Blocker::Trap(_)) => t.raw_set("stopped_by", "trap")?,
                    None => {}
                }
                Ok(t)
            },
        );

        methods.add_method(
            api("melee"),
            |lua, this, (a, b, opts): (Value, Value, Option<Table>)| {
                check_options(lua, &opts, &spec::options("MeleeOptions"))?;
                let (a, b) = (this.model_arg(lua, &a)?, this.model_arg(lua, &b)?);
                let o = MeleeOptions {
                    power_blow: flag(lua, &opts, "power_blow")?,
                    free_hack: flag(lua, &opts, "free_hack")?,
                    lethal: flag(lua, &opts, "lethal")?,
                    ambush: flag(lua, &opts, "ambush")?,
                };
                let core = &this.0;
                let (mut game, hooks) = this.session(lua)?;
                let known = names(&game, &[a, b]);
                let r = melee::melee(&mut game, &core.rules, &hooks, a, b, o)
                    .map_err(|e| Self::rule_err(lua, e))?;
                let t = this.combat_table(lua, &game, &r)?;
                fix_names(&t, &known)?;
                Ok(t)
            },
        );

        methods.add_method(
            api("shoot"),
            |lua, this, (a, b, opts): (Value, Value, Option<Table>)| {
                check_options(lua, &opts, &spec::options("ShotOptions"))?;
                let (a, b) = (this.model_arg(lua, &a)?, this.model_arg(lua, &b)?);
                let o = ShotOptions {
                    aimed: flag(lua, &opts, "aimed")?,
                };
                let core = &this.0;
                let (mut game, hooks) = this.session(lua)?;
                let known = names(&game, &[a, b]);
                let r = ranged::shoot(&mut game, core.rosters_with_rules(), &hooks, a, b, o)
                    .map_err(|e| Self::rule_err(lua, e))?;
                let t = this.combat_table(lua, &game, &r)?;
                fix_names(&t, &known)?;
                Ok(t)
            },
        );

        methods.add_method(
            api("structural"),
            |lua, this, (a, b, opts): (Value, Value, Option<Table>)| {
                check_options(lua, &opts, &spec::options("StructuralOptions"))?;
                let a = this.model_arg(lua, &a)?;
                let b = this.building_arg(lua, &b)?;
                let power_blow = flag(lua, &opts, "power_blow")?;
                let core = &this.0;
                let (mut game, hooks) = this.session(lua)?;
                let r = structural::structural(&mut game, &core.rules, &hooks, a, &b, power_blow)
                    .map_err(|e| Self::rule_err(lua, e))?;
                structural_table(lua, &r)
            },
        );

        methods.add_method(api("building"), |lua, this, name: String| {
            let game = this.0.read(lua)?;
            game.building(&name).map_err(|e| fail(lua, e))?;
            Ok(BuildingRef {
                core: this.0.clone(),
                name,
            })
        });

        methods.add_method(api("buildings"), |lua, this, ()| {
            let game = this.0.read(lua)?;
            let refs: Vec<BuildingRef> = game
                .buildings
                .iter()
                .map(|b| BuildingRef {
                    core: this.0.clone(),
                    name: b.name.clone(),
                })
                .collect();
            Ok(refs)
        });

        methods.add_method(api("models"), |lua, this, opts: Option<Table>| {
            check_options(lua, &opts, &spec::options("ModelFilter"))?;
            let side = match &opts {
                Some(t) => match t.raw_get::<Option<String>>("side")? {
                    None => None,
                    Some(name) => Some(side_arg(lua, &name)?),
                },
                None => None,
            };
            let game = this.0.read(lua)?;
            let refs: Vec<ModelRef> = game
                .models
                .iter()
                .filter(|m| side.is_none_or(|s| m.side == s))
                .map(|m| this.model_ref(&game, m.id))
                .collect();
            Ok(refs)
        });

        methods.add_method(api("model"), |lua, this, id: u32| {
            let game = this.0.read(lua)?;
            Ok(game
                .model(ModelId(id))
                .ok()
                .map(|_| this.model_ref(&game, ModelId(id))))
        });

        methods.add_method(
            api("remove"),
            |lua, this, (m, reason): (Value, Option<String>)| {
                let id = this.model_arg(lua, &m)?;
                let mut game = this.0.write(lua)?;
                // Through the kernel, so what the model held ends with it (§3.7): its Transfix breaks,
                // its Summonings vanish, its Walls fall.
                crate::rules::magic::remove(&mut game, id, reason.as_deref().unwrap_or("removed"))
                    .map_err(|e| fail(lua, e))?;
                Ok(())
            },
        );

        methods.add_method(api("log"), |lua, this, last: Option<usize>| {
            let game = this.0.read(lua)?;
            let log = game.log();
            let from = last.map_or(0, |n| log.len().saturating_sub(n));
            to_lua(lua, &log[from..])
        });

        methods.add_method(api("why"), |lua, this, seq: Option<u64>| {
            let game = this.0.read(lua)?;
            let Some(all) = game.decisions() else {
                return to_lua(lua, &Vec::<crate::state::Decision>::new());
            };
            let seq = seq
                .or_else(|| crate::state::describe::latest_happening(game.log()))
                .unwrap_or(0);
            let behind: Vec<&crate::state::Decision> = all.behind(seq);
            to_lua(lua, &behind)
        });

        methods.add_method(api("log_json"), |lua, this, ()| {
            let game = this.0.read(lua)?;
            serde_json::to_string(game.log()).map_err(mlua::Error::external)
        });

        methods.add_method(api("rules"), |lua, this, ()| to_lua(lua, &this.0.rules));

        methods.add_method(
            api("add_terrain"),
            |lua, this, (kind, points): (String, Vec<Value>)| {
                let kind = crate::geometry::TerrainKind::ALL
                    .iter()
                    .copied()
                    .find(|k| format!("{k:?}").to_lowercase() == kind)
                    .ok_or_else(|| fail(lua, format!("unknown terrain kind {kind:?}")))?;
                let pts = points
                    .iter()
                    .map(|p| to_pos(lua, p))
                    .collect::<mlua::Result<Vec<Vec2>>>()?;
                let shape = if kind.is_linear() {
                    let [a, b] = pts[..] else {
                        return Err(fail(lua, "a wall or hedge takes two points"));
                    };
                    crate::geometry::TerrainShape::Line(crate::geometry::Segment::new(a, b))
                } else {
                    if pts.len() < 3 {
                        return Err(fail(lua, "an area of terrain takes three points or more"));
                    }
                    crate::geometry::TerrainShape::Area(crate::geometry::Polygon::convex_hull(&pts))
                };
                let mut game = this.0.write(lua)?;
                for p in &pts {
                    on_table(lua, &game, "terrain point", *p)?;
                }
                game.table
                    .terrain
                    .push(crate::geometry::Terrain { kind, shape });
                Ok(())
            },
        );

        methods.add_method(api("morale"), |lua, this, (m, trigger): (Value, String)| {
            let id = this.model_arg(lua, &m)?;
            let trigger = match trigger.as_str() {
                "terror" => MoraleTrigger::Terror,
                "gruesome_kill" => MoraleTrigger::GruesomeKill,
                "leader_defeated" => MoraleTrigger::LeaderDefeated,
                "half_lost" => MoraleTrigger::HalfLost,
                other => return Err(fail(lua, format!("unknown morale trigger {other:?}"))),
            };
            let core = &this.0;
            let (mut game, hooks) = this.session(lua)?;
            let r = crate::rules::morale::morale_check(&mut game, &core.rules, &hooks, id, trigger)
                .map_err(|e| Self::rule_err(lua, e))?;
            let t = lua.create_table()?;
            t.raw_set("dice", r.dice)?;
            t.raw_set("failures", r.failures)?;
            t.raw_set("result", to_lua(lua, &r.result)?)?;
            t.raw_set("moved", r.moved)?;
            Ok(t)
        });

        methods.add_method(api("ignite"), |lua, this, (m, b): (Value, Value)| {
            let id = this.model_arg(lua, &m)?;
            let b = this.building_arg(lua, &b)?;
            let core = &this.0;
            let (mut game, hooks) = this.session(lua)?;

            structural::ignite(&mut game, &core.rules, &hooks, id, &b)
                .map_err(|e| Self::rule_err(lua, e))
        });

        methods.add_method(api("barricade"), |lua, this, (a, b): (Value, Value)| {
            let (a, b) = (to_pos(lua, &a)?, to_pos(lua, &b)?);
            let core = &this.0;
            let spec = &core.rosters.barricade;
            let mut game = core.write(lua)?;
            on_table(lua, &game, "barricade from", a)?;
            on_table(lua, &game, "barricade to", b)?;
            let id = game.add_token(
                TokenKind::Barricade {
                    segment: crate::geometry::Segment::new(a, b),
                    integrity: spec.integrity as i32,
                    structure: spec.structure as i32,
                    caster: None,
                    flying_ignores: spec.flying_ignores,
                },
                a.lerp(b, 0.5),
            );
            log_token(&mut game, id);
            Ok(id.0)
        });

        methods.add_method(
            api("trap"),
            |lua, this, (pos, opts): (Value, Option<Table>)| {
                check_options(lua, &opts, &spec::options("TrapOptions"))?;
                let pos = to_pos(lua, &pos)?;
                let entangle = flag(lua, &opts, "entangle")?;
                let core = &this.0;
                let t = &core.rosters.trap;
                let mut game = core.write(lua)?;
                on_table(lua, &game, "trap at", pos)?;
                let id = game.add_token(
                    TokenKind::Trap {
                        combat: i32::from(t.combat),
                        radius: t.trigger_radius,
                        entangle,
                    },
                    pos,
                );
                log_token(&mut game, id);
                Ok(id.0)
            },
        );

        methods.add_method(
            api("attack_barricade"),
            |lua, this, (m, token, opts): (Value, u32, Option<Table>)| {
                check_options(lua, &opts, &spec::options("StructuralOptions"))?;
                let id = this.model_arg(lua, &m)?;
                let power_blow = flag(lua, &opts, "power_blow")?;
                let core = &this.0;
                let (mut game, hooks) = this.session(lua)?;
                let r = structural::attack_barricade(
                    &mut game,
                    &core.rules,
                    &hooks,
                    id,
                    crate::state::TokenId(token),
                    power_blow,
                )
                .map_err(|e| Self::rule_err(lua, e))?;
                structural_table(lua, &r)
            },
        );

        methods.add_method(
            api("activate_group"),
            |lua, this, (leader, members, dice): (Value, Vec<Value>, u8)| {
                let leader = match leader {
                    Value::Nil | Value::Boolean(false) => None,
                    v => Some(this.model_arg(lua, &v)?),
                };
                let members = members
                    .iter()
                    .map(|m| this.model_arg(lua, m))
                    .collect::<mlua::Result<Vec<ModelId>>>()?;
                let core = &this.0;
                let (mut game, hooks) = this.session(lua)?;
                let r = activation::activate_group(
                    &mut game,
                    &core.rules,
                    &hooks,
                    leader,
                    &members,
                    dice,
                )
                .map_err(|e| Self::rule_err(lua, e))?;
                activation_table(lua, &r)
            },
        );

        methods.add_method(
            api("task"),
            |lua, this, (m, name, needed, actions): (Value, String, u8, u8)| {
                let id = this.model_arg(lua, &m)?;
                let mut game = this.0.write(lua)?;
                let t = activation::work_task(&mut game, id, &name, needed, actions)
                    .map_err(|e| Self::rule_err(lua, e))?;
                let out = lua.create_table()?;
                out.raw_set("name", t.name.as_str())?;
                out.raw_set("done", t.done)?;
                out.raw_set("needed", t.needed)?;
                out.raw_set("complete", t.done >= t.needed)?;
                Ok(out)
            },
        );

        methods.add_method(
            api("concentrated"),
            |lua, this, (shooters, target, opts): (Vec<Value>, Value, Option<Table>)| {
                check_options(lua, &opts, &spec::options("ShotOptions"))?;
                let shooters = shooters
                    .iter()
                    .map(|m| this.model_arg(lua, m))
                    .collect::<mlua::Result<Vec<ModelId>>>()?;
                let target = this.model_arg(lua, &target)?;
                let o = ShotOptions {
                    aimed: flag(lua, &opts, "aimed")?,
                };
                let core = &this.0;
                let (mut game, hooks) = this.session(lua)?;
                let mut ids = shooters.clone();
                ids.push(target);
                let known = names(&game, &ids);
                let r = ranged::concentrated(
                    &mut game,
                    core.rosters_with_rules(),
                    &hooks,
                    &shooters,
                    target,
                    o,
                )
                .map_err(|e| Self::rule_err(lua, e))?;
                let t = this.combat_table(lua, &game, &r)?;
                fix_names(&t, &known)?;
                Ok(t)
            },
        );

        methods.add_method(
            api("add_condition"),
            |lua, this, (m, c): (Value, String)| {
                let id = this.model_arg(lua, &m)?;
                let c = match c.as_str() {
                    "defenseless" => Condition::Defenseless,
                    "transfixed" => Condition::Transfixed,
                    "entangled" => Condition::Entangled,
                    other => return Err(fail(lua, format!("unknown condition {other:?}"))),
                };
                let mut game = this.0.write(lua)?;
                crate::rules::outcome::add_condition(&mut game, id, c)
                    .map_err(|e| Self::rule_err(lua, e))
            },
        );

        methods.add_method(
            api("cast"),
            |lua, this, (m, spell, power, target, opts): (Value, String, u8, Value, Option<Table>)| {
                check_options(lua, &opts, &spec::options("CastOptions"))?;
                let caster = this.model_arg(lua, &m)?;
                let target = match target {
                    Value::Nil => None,
                    v => Some(this.model_arg(lua, &v)?),
                };
                cast(lua, this, caster, &spell, power, target, opts)
            },
        );

        methods.add_method(
            api("heal"),
            |lua, this, (healer, target, what): (Value, Value, String)| {
                let healer = this.model_arg(lua, &healer)?;
                let target = this.model_arg(lua, &target)?;
                let what = match what.as_str() {
                    "wound" => magic::Heal::Wound,
                    "defenseless" => magic::Heal::Condition(Condition::Defenseless),
                    "transfixed" => magic::Heal::Condition(Condition::Transfixed),
                    "entangled" => magic::Heal::Condition(Condition::Entangled),
                    other => {
                        return Err(fail(
                            lua,
                            format!("heal \"wound\" or a condition, got {other:?}"),
                        ))
                    }
                };
                let core = &this.0;
                let (mut game, hooks) = this.session(lua)?;
                magic::healer_heal(&mut game, &core.rules, &hooks, healer, target, what)
                    .map_err(|e| Self::rule_err(lua, e))
            },
        );

        methods.add_method(api("damage"), |lua, this, (b, amount): (Value, i32)| {
            let b = this.building_arg(lua, &b)?;
            let mut game = this.0.write(lua)?;
            structural::damage_building(&mut game, &b, amount)
                .map(|(integrity, _)| integrity)
                .map_err(|e| Self::rule_err(lua, e))
        });

        methods.add_method(api("opportunity"), |lua, this, at: Value| {
            let at = to_pos(lua, &at)?;
            let mut game = this.0.write(lua)?;
            on_table(lua, &game, "opportunity at", at)?;
            let id = game.add_token(TokenKind::Opportunity { revealed: false }, at);
            log_token(&mut game, id);
            Ok(id.0)
        });

        methods.add_method(api("act"), |lua, this, m: Value| {
            let id = this.model_arg(lua, &m)?;
            let rosters = this.0.rosters_with_rules();
            let (mut game, hooks) = this.session(lua)?;
            let r = crate::wave::act::enemy_action(&mut game, rosters, &hooks, id)
                .map_err(|e| Self::rule_err(lua, e))?;
            action_table(lua, &r)
        });

        methods.add_method(api("council_info"), |lua, this, ()| {
            let rosters = this.0.rosters_with_rules();
            let game = this.0.read(lua)?;
            to_lua(lua, &crate::wave::council::council_info(&game, rosters))
        });

        methods.add_method(api("council"), |lua, this, orders: Value| {
            let rosters = this.0.rosters_with_rules();
            let orders = match &orders {
                Value::Nil => None,
                v => {
                    let at = super::convert::caller(lua);
                    let r = super::answer::Reader::given(&at, "g:council", this.0.id);
                    Some(
                        super::hooks::council_orders_from(&r, lua, v)
                            .map_err(|e| mlua::Error::runtime(e.message))?,
                    )
                }
            };
            let (mut game, hooks) = this.session(lua)?;
            let reports = match orders {
                Some(o) => crate::wave::council::hold_council_with(&mut game, rosters, &hooks, &o)
                    .map_err(|e| Self::rule_err(lua, e))?,
                None => crate::wave::council::council_phase(&mut game, rosters, &hooks)
                    .map_err(|e| Self::rule_err(lua, e))?,
            };
            to_lua(lua, &reports)
        });

        methods.add_method(api("order"), |lua, this, (m, order): (Value, Value)| {
            let id = this.model_arg(lua, &m)?;
            let at = super::convert::caller(lua);
            let order = super::hooks::order_from(lua, &at, "g:order", this.0.id, &order)
                .map_err(|e| mlua::Error::runtime(e.message))?
                .ok_or_else(|| fail(lua, "g:order needs an order, got nil"))?;
            let rosters = this.0.rosters_with_rules();
            let (mut game, hooks) = this.session(lua)?;
            let r = crate::wave::act::execute(&mut game, rosters, &hooks, id, order)
                .map_err(|e| Self::rule_err(lua, e))?;
            action_table(lua, &r)
        });

        methods.add_method(
            api("orders"),
            |lua, this, (m, actions, orders): (Value, u8, Value)| {
                let id = this.model_arg(lua, &m)?;
                let at = super::convert::caller(lua);
                let r = super::answer::Reader::given(&at, "g:orders", this.0.id);
                let list = r
                    .read(lua, &orders)
                    .map_err(|e| mlua::Error::runtime(e.message))?;
                let orders = r
                    .list(&list, "orders", "orders")
                    .map_err(|e| mlua::Error::runtime(e.message))?
                    .into_iter()
                    .map(|o| {
                        super::hooks::parse_order(&r, o)
                            .map_err(|e| mlua::Error::runtime(e.message))?
                            .ok_or_else(|| fail(lua, "g:orders: an order is nil"))
                    })
                    .collect::<mlua::Result<Vec<_>>>()?;
                let rosters = this.0.rosters_with_rules();
                let (mut game, hooks) = this.session(lua)?;
                let done =
                    crate::wave::turn::take_orders(&mut game, rosters, &hooks, id, actions, orders)
                        .map_err(|e| Self::rule_err(lua, e))?;
                let t = lua.create_table()?;
                for r in &done {
                    t.raw_push(action_table(lua, r)?)?;
                }
                Ok(t)
            },
        );

        methods.add_method(api("play_wave"), |lua, this, ()| {
            let rosters = this.0.rosters_with_rules();
            let length = this.0.length.clone();
            let (mut game, hooks) = this.session(lua)?;
            let s = crate::wave::play::play_wave(&mut game, rosters, &hooks, &length)
                .map_err(|e| fail(lua, e))?;
            to_lua(lua, &s)
        });

        methods.add_method(api("ended"), |lua, this, ()| {
            let game = this.0.read(lua)?;
            Ok(
                crate::rules::end::halted(&game, &this.0.rules).map(|h| match h.cause() {
                    Some(c) => c.as_str(),
                    None if h == crate::rules::end::Halt::Concluded => {
                        crate::rules::end::concluded(&game).map_or("concluded", |c| c.1.as_str())
                    }
                    None => "no_enemy",
                }),
            )
        });

        methods.add_method(api("end_wave"), |lua, this, ()| {
            let rosters = this.0.rosters_with_rules();
            let (mut game, hooks) = this.session(lua)?;
            crate::wave::play::end_of_wave(&mut game, rosters, &hooks)
                .map_err(|e| Self::rule_err(lua, e))
        });

        methods.add_method(api("start_wave"), |lua, this, ()| {
            let rosters = this.0.rosters_with_rules();
            let length = this.0.length.clone();
            let (mut game, hooks) = this.session(lua)?;
            let plan = crate::wave::play::start_wave(&mut game, rosters, &hooks, &length).map_err(
                |e| match e {
                    // A script's error already names its file and line.
                    crate::wave::WaveError::Script(m) => mlua::Error::runtime(m),
                    other => fail(lua, other),
                },
            )?;
            to_lua(lua, &plan)
        });

        methods.add_method(api("hero_turn"), |lua, this, ()| {
            let rosters = this.0.rosters_with_rules();
            let (mut game, hooks) = this.session(lua)?;
            let turns = crate::wave::turn::hero_turn(&mut game, rosters, &hooks)
                .map_err(|e| Self::rule_err(lua, e))?;
            let out = lua.create_table()?;
            for h in &turns {
                let t = lua.create_table()?;
                t.raw_set("model", this.model_ref(&game, h.model))?;
                let group = lua.create_table()?;
                for m in &h.group {
                    group.raw_push(this.model_ref(&game, *m))?;
                }
                t.raw_set("group", group)?;
                t.raw_set("actions", h.successes)?;
                t.raw_set("turnover", h.turnover)?;
                let done = lua.create_table()?;
                for (id, r) in &h.done {
                    let a = action_table(lua, r)?;
                    a.raw_set("model", this.model_ref(&game, *id))?;
                    done.raw_push(a)?;
                }
                t.raw_set("done", done)?;
                out.raw_push(t)?;
            }
            Ok(out)
        });

        methods.add_method(api("enemy_turn"), |lua, this, ()| {
            let rosters = this.0.rosters_with_rules();
            let (mut game, hooks) = this.session(lua)?;
            let turns = crate::wave::turn::enemy_turn(&mut game, rosters, &hooks)
                .map_err(|e| Self::rule_err(lua, e))?;
            let out = lua.create_table()?;
            for gt in &turns {
                let t = lua.create_table()?;
                if let Some(n) = gt.group {
                    t.raw_set("group", n)?;
                }
                if let Some(b) = &gt.behaviour {
                    t.raw_set("behaviour", b.as_str())?;
                }
                t.raw_set("actions", gt.actions)?;
                t.raw_set("turnover", gt.turnover)?;
                let done = lua.create_table()?;
                for (id, r) in &gt.done {
                    let a = action_table(lua, r)?;
                    a.raw_set("model", this.model_ref(&game, *id))?;
                    done.raw_push(a)?;
                }
                t.raw_set("done", done)?;
                out.raw_push(t)?;
            }
            Ok(out)
        });

        methods.add_method(api("target"), |lua, this, m: Value| {
            let id = this.model_arg(lua, &m)?;
            let (mut game, hooks) = this.session(lua)?;
            crate::wave::objective::keep(&mut game, &hooks, id)
                .map_err(|e| Self::rule_err(lua, e))?;
            let aim = hooks
                .behaviour_target(&mut game, id)
                .map_err(|e| Self::rule_err(lua, RuleError::Hook(e)))?;
            // Only asked: the choice leads to no event (`g:why` does not give it to the next one).
            game.decisions_done();
            Ok(match aim {
                None => Value::Nil,
                Some(Aim::Model(o)) => {
                    Value::UserData(lua.create_userdata(this.model_ref(&game, o))?)
                }
                Some(Aim::Building(name)) => Value::UserData(lua.create_userdata(BuildingRef {
                    core: this.0.clone(),
                    name,
                })?),
                Some(Aim::Edge) => Value::String(lua.create_string("edge")?),
                Some(Aim::Point(p)) => Value::Table(pos_table(lua, p)?),
            })
        });

        methods.add_method(api("distance"), |lua, this, (a, b): (Value, Value)| {
            let (a, b) = (this.model_arg(lua, &a)?, this.model_arg(lua, &b)?);
            let game = this.0.read(lua)?;
            let (a, b) = (
                game.model(a).map_err(|e| fail(lua, e))?,
                game.model(b).map_err(|e| fail(lua, e))?,
            );
            Ok(circle_circle_gap(&a.circle(), &b.circle()).max(0.0))
        });

        methods.add_meta_method(mlua::MetaMethod::ToString, |lua, this, ()| {
            let game = this.0.read(lua)?;
            Ok(format!(
                "game (seed {}, {}, {} models, wave {}, round {})",
                game.seed,
                this.0.length,
                game.models.len(),
                game.wave,
                game.round
            ))
        });
    }
}

/// `g:cast`: cast through the spell's script as a rules primitive (`hooks::cast_spell`: the kernel's
/// checks, a Ritual's Task, then the script with a ctx that can act). A cast that fails leaves the game
/// exactly as it was before the call, so no half-applied spell remains.
fn cast(
    lua: &Lua,
    this: &GameHandle,
    caster: ModelId,
    spell: &str,
    power: u8,
    target: Option<ModelId>,
    opts: Option<Table>,
) -> mlua::Result<Table> {
    let core = &this.0;
    let registry = host(lua)?.registry();
    let opts = Value::Table(match opts {
        Some(t) => t,
        None => lua.create_table()?,
    });
    let mut game = core.write(lua)?;
    let call = super::hooks::CastCall {
        caster,
        spell,
        power,
        target,
        opts,
    };
    let (report, value) = match super::hooks::cast_spell(lua, core, registry, &mut game, call) {
        Ok(done) => done,
        Err(super::hooks::CastFailure::Refused(e)) => return Err(GameHandle::rule_err(lua, e)),
        Err(super::hooks::CastFailure::Script { message, .. }) => return Err(fail(lua, message)),
    };
    let out = lua.create_table()?;
    out.raw_set("spell", spell)?;
    out.raw_set("power", power)?;
    out.raw_set("source", report.source.as_str())?;
    if let Some((done, needed)) = report.task {
        let progress = lua.create_table()?;
        progress.raw_set("name", spell)?;
        progress.raw_set("done", done)?;
        progress.raw_set("needed", needed)?;
        progress.raw_set("complete", done >= needed)?;
        out.raw_set("task", progress)?;
    }
    out.raw_set("complete", report.complete)?;
    if report.complete {
        out.raw_set("result", value)?;
    }
    Ok(out)
}

impl Core {
    /// The rosters with this game's rule constants (variants applied) in place of the base ones: made
    /// once a game (both are fixed for its life), where each spell cast and each hook's kernel queries
    /// copied the whole rosters.
    pub fn rosters_with_rules(&self) -> &Rosters {
        self.merged.get_or_init(|| {
            let mut r = (*self.rosters).clone();
            r.rules = self.rules.clone();
            r
        })
    }

    /// Keep `merged` as [`Core::rosters_with_rules`] (already made for the game's setup): it must be
    /// `rosters` with `rules` in place.
    pub(super) fn keep_merged(&self, merged: Rosters) {
        let _ = self.merged.set(merged);
    }
}

/// Log a token a script just put on the table (`g:barricade`, `g:trap`, `g:opportunity`): where it
/// lies and its shape, as a `token_placed` event.
fn log_token(game: &mut Game, id: crate::state::TokenId) {
    if let Some(t) = game.tokens.iter().find(|t| t.id == id) {
        let token = crate::state::TokenFacts::of(t);
        game.record(crate::state::EventKind::TokenPlaced { token });
    }
}
