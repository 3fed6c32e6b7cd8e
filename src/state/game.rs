//! The game: table, buildings, models, tokens, Supplies, the dice stream and the log.

use super::decision::{Decision, Decisions};
use super::event::{Event, EventKind};
use super::frames::{Frame, FrameMark, FrameRecorder};
use super::model::{Model, ModelId, Side};
use super::piece::{Building, Token, TokenId, TokenKind};
use crate::dice::{Dice, Die};
use crate::geometry::{NavCache, Navigator};
use crate::geometry::{Table, Vec2};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The most memory a game's log and decisions may hold, roughly ([`Game::log_bytes`]). Valid games
/// stay far below it: the longest of 200 Standard games logged 5,098 events, about 1.5 MB; a Siege
/// game logs a few thousand more.
pub const MAX_LOG_BYTES: usize = 64 << 20;

/// What an event adds to [`Game::log_bytes`]: its own size and the heap text scripts can make long
/// (a modifier's reason, a roll's purpose, a refusal's words, a granted effect's lists). The other
/// text of an event is the kernel's own, a few words.
fn event_bytes(kind: &EventKind) -> usize {
    use std::mem::size_of;
    let modifiers = |m: &[super::vocab::Modifier]| -> usize {
        m.iter()
            .map(|m| size_of::<super::vocab::Modifier>() + m.reason.len() + m.source.len())
            .sum()
    };
    size_of::<Event>()
        + match kind {
            EventKind::Combat { modifiers: m, .. } => modifiers(m),
            EventKind::Roll { purpose, dice, .. } => purpose.len() + 2 * dice.len(),
            EventKind::Refused {
                source,
                choice,
                reason,
            } => source.len() + choice.len() + reason.len(),
            EventKind::EffectGranted {
                models,
                against,
                reason,
                source,
                ..
            } => 4 * (models.len() + against.len()) + reason.len() + source.len(),
            EventKind::ResultChanged { reason, source, .. }
            | EventKind::QualityWorsened { reason, source, .. }
            | EventKind::Rerolled { reason, source, .. } => reason.len() + source.len(),
            EventKind::Ability { name, source, .. } => name.len() + source.len(),
            EventKind::Spent { key, source } => key.len() + source.len(),
            EventKind::Removed { reason, .. } => reason.len(),
            EventKind::ItemGained { item, source, .. }
            | EventKind::ItemUsed { item, source, .. } => item.len() + source.len(),
            _ => 0,
        }
}

/// What a kept decision adds to [`Game::log_bytes`]: its size, its words, its candidates.
fn decision_bytes(d: &Decision) -> usize {
    use std::mem::size_of;
    size_of::<Decision>()
        + d.by.len()
        + d.chose.len()
        + d.script.len()
        + d.reason.as_ref().map_or(0, String::len)
        + d.candidates
            .iter()
            .map(|c| size_of::<super::decision::Candidate>() + c.name.len())
            .sum::<usize>()
}

/// A reference to something that is not (or no longer) in the game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StateError {
    #[error("model {0} is no longer on the table")]
    NoModel(ModelId),
    #[error("there is no building called {0:?}")]
    NoBuilding(String),
}

/// Everything needed to continue a game exactly: saved and loaded as one JSON document.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Game {
    pub seed: u64,
    pub dice: Dice,
    /// Terrain and building outlines.
    pub table: Table,
    pub buildings: Vec<Building>,
    /// Models on the table, in increasing id order.
    pub models: Vec<Model>,
    pub tokens: Vec<Token>,
    pub supplies: i32,
    /// Wave number, from 1; 0 before the first wave.
    pub wave: u32,
    /// Round within the wave, from 1; 0 outside a wave.
    pub round: u32,
    /// The heroes chosen at setup (Ch. IV step 2): their number sets the party value for every wave,
    /// whoever is still standing.
    #[serde(default)]
    pub party: Vec<String>,
    /// Whether Igniters may place fire (core §5.2: from Escalation II). Set by each wave's deployment
    /// from its Escalation row; true outside waves, so a scenario can test fire on any game.
    #[serde(default = "igniters_burn_default")]
    pub igniters_burn: bool,
    /// The heroes' side's models when the wave's deployment ended: "more than half of its side's
    /// starting models" (core §3.6) counts from these.
    #[serde(default)]
    pub wave_start_side: Vec<ModelId>,
    /// Herb tokens held by the village (Opportunity "Herb Patch"): each heals 1 Wound in a Council Phase.
    #[serde(default)]
    pub herbs: u32,
    /// Village Defender profiles that join at the next wave start (Opportunity "Lost Villagers").
    #[serde(default)]
    pub joining: Vec<String>,
    /// Limited uses already spent, by name: `game:` entries last the game ("game:Resurrection",
    /// "game:Relic Blade:Captain Maren"), `wave:` entries are cleared at each wave start
    /// ("wave:Blessing", "wave:Overwatch"), `council:` entries at each Council Phase.
    #[serde(default)]
    pub spent: Vec<String>,
    /// Model hooks that said they have nothing more to do this wave (`ctx:done_for_wave`), as (model,
    /// script key, entry point): the kernel does not call them again until the next wave begins.
    /// Cleared at each wave start, with the `wave:` uses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub done_for_wave: Vec<(ModelId, String, String)>,
    /// Heroes that Fled this wave, as they left: they rejoin at the next wave start with their Wounds
    /// (a ruling: only a Defeated hero is lost until Resurrection, core §3.8).
    #[serde(default)]
    pub fled: Vec<Model>,
    /// Opportunity results claimed during the wave that resolve at step 4 of the End Sequence (core
    /// §7.1: Supply Cache, Lost Villagers), in the order they were claimed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rewards: Vec<PendingReward>,
    /// The building Temple II's Blessing protects during the Enemy Group activation being played: it
    /// ignores all Integrity damage from it, and a fire lit on it meanwhile does no damage at wave end.
    #[serde(default)]
    pub blessed: Option<super::piece::Blessing>,
    /// Modifiers a script granted for a while (Captain Maren's Hold the Line: +1 Combat against one
    /// Enemy Group for its activation), applied by the kernel to every roll they match.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// Free Council orders the models' `on_council` scripts granted for the Council Phase under way
    /// (Grimm's Snare Master: one free Trap that Entangles); cleared when a Council opens.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub council_grants: Vec<CouncilGrant>,
    /// Models the game holds but has not yet put on the table (a hero waiting for its deployment,
    /// SUPPLEMENT §11: [`Game::add_unplaced`]); they are in `models` so that ids, scripts and rules see
    /// them as today, but no event has placed them, and the frame recorder leaves them out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unplaced: Vec<ModelId>,
    /// The tracks in play (`rosters/tracks.toml`, put in play by a variant in force), by name.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub tracks: std::collections::BTreeMap<String, super::TrackState>,
    /// The scenario's battle (zones, fixed Groups, objectives, conclusions), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<Box<super::Battle>>,
    next_model: u32,
    next_token: u32,
    log: Vec<Event>,
    /// The events being resolved, innermost last: an event recorded meanwhile is caused by the last
    /// ([`Game::caused_by`]). Empty between rules; not saved.
    #[serde(skip)]
    causes: Vec<u64>,
    /// What is making the attacks being resolved outside a normal action, innermost last
    /// ([`Game::outside_action`]): a Combat event recorded meanwhile says so. Not saved.
    #[serde(skip)]
    outside: Vec<String>,
    /// Pathfinding reuse: the navigators built for this table. Not saved; rebuilt on demand.
    #[serde(skip)]
    navigators: NavCache,
    /// The frame recorder, when a viewer wants the table after every event ([`Game::record_frames`]);
    /// `None` in play and simulation, where it costs one check per event. Not saved.
    #[serde(skip)]
    frames: Option<Box<FrameRecorder>>,
    /// The scripts' decisions, when this game keeps them ([`Game::explain_decisions`]: the REPL, a
    /// written log, the viewer); `None` in plain play and simulation, where scripts then skip the
    /// work of explaining. Saved with the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    decisions: Option<Box<Decisions>>,
    /// Roughly the memory the log and the decisions hold ([`Game::log_bytes`]): each event's size and
    /// the text scripts put in it. Not saved (a loaded game counts from there).
    #[serde(skip)]
    log_bytes: usize,
    /// The hero activation the turn engine is carrying out, while its models take their actions: what a
    /// playout needs to finish it as the engine would (`wave::rollout`). Not saved.
    #[serde(skip)]
    pub underway: Option<Underway>,
}

/// A hero activation under way (core §3.1): its models, the nominated one first, the successes each
/// takes as actions, and how it ends — the models stay Active (they failed exactly one die without a
/// turnover) or a turnover ends the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Underway {
    pub members: Vec<ModelId>,
    pub successes: u8,
    pub again: bool,
    pub turnover: bool,
    /// The member taking its actions now (an index into `members`).
    pub current: usize,
}

/// What [`Game::checkpoint`] keeps: the game without its log, and the log's length then (and the
/// decisions', which also only grow).
#[derive(Debug)]
pub struct Checkpoint {
    game: Game,
    log_len: usize,
    frames: Option<FrameMark>,
    decisions: Option<usize>,
}

/// A change to a game that is undone whole unless it is committed: dropped without [`Transaction::commit`]
/// (an early return on an error), the game goes back to where the transaction began, its log
/// included. What a failed command or order leaves behind is then nothing at all.
pub struct Transaction<G: std::ops::DerefMut<Target = Game>> {
    game: G,
    before: Option<Checkpoint>,
}

impl<G: std::ops::DerefMut<Target = Game>> Transaction<G> {
    /// Begin a change to `game`.
    pub fn begin(game: G) -> Self {
        let before = Some(game.checkpoint());
        Transaction { game, before }
    }

    /// Keep what was changed.
    pub fn commit(mut self) {
        self.before = None;
    }

    /// Keep what was changed unless `undo`: then the drop goes back (for an owner deciding as it is
    /// dropped itself).
    pub fn keep_unless(&mut self, undo: bool) {
        if !undo {
            self.before = None;
        }
    }
}

impl<G: std::ops::DerefMut<Target = Game>> Drop for Transaction<G> {
    fn drop(&mut self) {
        if let Some(cp) = self.before.take() {
            self.game.restore(cp);
        }
    }
}

impl<G: std::ops::DerefMut<Target = Game>> std::ops::Deref for Transaction<G> {
    type Target = Game;
    fn deref(&self) -> &Game {
        &self.game
    }
}

impl<G: std::ops::DerefMut<Target = Game>> std::ops::DerefMut for Transaction<G> {
    fn deref_mut(&mut self) -> &mut Game {
        &mut self.game
    }
}

/// A claimed Opportunity result waiting for the End Sequence (core §7.1 step 4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingReward {
    /// The hero who claimed it (it may have left the table by the wave's end).
    pub hero: ModelId,
    /// The hero's name, for the log when it is gone.
    pub hero_name: String,
    /// The Opportunity die that was rolled: the row of rosters/opportunities.toml.
    pub roll: u8,
    /// The row's name when it was claimed ("Supply Cache").
    pub result: String,
}

/// The prefixes of [`Game::spent`] keys: how long a limited use lasts.
pub const SPENT_PREFIXES: &[&str] = &["game:", "wave:", "council:"];

/// How long an [`Effect`] lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectEnds {
    /// At the end of the Enemy Group activation being played (or the current activation).
    Activation,
    /// At the end of the wave.
    Wave,
}

/// A modifier a script granted to some models' rolls against some opponents, for a while.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// The models whose rolls it modifies.
    pub models: Vec<ModelId>,
    /// Only against these opponents (empty: against anyone).
    pub against: Vec<ModelId>,
    /// Added to the model's own total.
    pub value: i32,
    pub reason: String,
    /// The script that granted it.
    pub source: String,
    pub ends: EffectEnds,
}

/// A free Council order a model's script granted for one Council Phase (Grimm's Snare Master: one free
/// Trap each Council, which Entangles instead of attacking).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CouncilGrant {
    /// The model whose script granted it, and its name.
    pub model: ModelId,
    pub hero: String,
    /// The Council order it makes free: "trap".
    pub order: String,
    /// How many such orders are free this Council, and how many were used.
    pub uses: u32,
    pub used: u32,
    /// A Trap placed with it Entangles the model that springs it instead of attacking.
    pub entangle: bool,
    pub reason: String,
    /// The script that granted it.
    pub source: String,
}

fn igniters_burn_default() -> bool {
    true
}

/// The models on the table: `models` without those not yet placed (`unplaced`, [`Game::unplaced`]).
fn placed_models<'a>(models: &'a [Model], unplaced: &[ModelId]) -> std::borrow::Cow<'a, [Model]> {
    if unplaced.is_empty() {
        std::borrow::Cow::Borrowed(models)
    } else {
        std::borrow::Cow::Owned(
            (models.iter())
                .filter(|m| !unplaced.contains(&m.id))
                .cloned()
                .collect(),
        )
    }
}

/// The events a new game's log has room for before it grows.
const LOG_ROOM: usize = 2048;

impl Game {
    /// A game on `table` with `buildings`, seeded dice and nothing else yet.
    pub fn new(seed: u64, table: Table, buildings: Vec<Building>) -> Self {
        Game {
            seed,
            dice: Dice::per_purpose(seed),
            table,
            buildings,
            models: Vec::new(),
            tokens: Vec::new(),
            supplies: 0,
            wave: 0,
            round: 0,
            party: Vec::new(),
            igniters_burn: true,
            wave_start_side: Vec::new(),
            herbs: 0,
            joining: Vec::new(),
            spent: Vec::new(),
            done_for_wave: Vec::new(),
            fled: Vec::new(),
            rewards: Vec::new(),
            blessed: None,
            effects: Vec::new(),
            council_grants: Vec::new(),
            unplaced: Vec::new(),
            tracks: std::collections::BTreeMap::new(),
            battle: None,
            next_model: 1,
            next_token: 1,
            // A Standard game logs about two thousand events: room for them from the start spares
            // the log's copies as it grows (a copy of every event so far at each doubling).
            log: Vec::with_capacity(LOG_ROOM),
            causes: Vec::new(),
            outside: Vec::new(),
            navigators: NavCache::default(),
            frames: None,
            decisions: None,
            log_bytes: 0,
            underway: None,
        }
    }

    /// A point to come back to: the game as it stands, for [`Game::restore`]. Cheaper than a clone: the
    /// log only ever grows, so only its length is kept, and the events after it are dropped on restore.
    pub fn checkpoint(&self) -> Checkpoint {
        // Every field is named, so a field added to `Game` must be decided on here.
        let Game {
            seed,
            dice,
            table,
            buildings,
            models,
            tokens,
            supplies,
            wave,
            round,
            party,
            igniters_burn,
            wave_start_side,
            herbs,
            joining,
            spent,
            done_for_wave,
            fled,
            rewards,
            blessed,
            effects,
            council_grants,
            unplaced,
            tracks,
            battle,
            next_model,
            next_token,
            log,
            causes,
            outside,
            navigators,
            frames,
            decisions,
            log_bytes,
            underway,
        } = self;
        Checkpoint {
            game: Game {
                seed: *seed,
                dice: dice.clone(),
                table: table.clone(),
                buildings: buildings.clone(),
                models: models.clone(),
                tokens: tokens.clone(),
                supplies: *supplies,
                wave: *wave,
                round: *round,
                party: party.clone(),
                igniters_burn: *igniters_burn,
                wave_start_side: wave_start_side.clone(),
                herbs: *herbs,
                joining: joining.clone(),
                spent: spent.clone(),
                done_for_wave: done_for_wave.clone(),
                fled: fled.clone(),
                rewards: rewards.clone(),
                blessed: blessed.clone(),
                effects: effects.clone(),
                council_grants: council_grants.clone(),
                unplaced: unplaced.clone(),
                tracks: tracks.clone(),
                battle: battle.clone(),
                next_model: *next_model,
                next_token: *next_token,
                log: Vec::new(),
                causes: causes.clone(),
                outside: outside.clone(),
                navigators: navigators.clone(),
                frames: None,
                decisions: None,
                log_bytes: *log_bytes,
                underway: underway.clone(),
            },
            log_len: log.len(),
            frames: frames.as_ref().map(|r| r.mark()),
            decisions: decisions.as_ref().map(|d| d.all().len()),
        }
    }

    /// Run `f` on this game as a playout (`wave::rollout`) and put the game back exactly as it was: its
    /// dice, log, frames and kept decisions included. Meanwhile the dice are keyed dice of their own
    /// from `seed` ([`Dice::keyed`]: each roll drawn at a position named by what it is for, so
    /// candidates played on the same seed share their futures), and no frame or decision is kept (a
    /// playout is not part of the game's story).
    pub fn playout<R>(&mut self, seed: u64, f: impl FnOnce(&mut Game) -> R) -> R {
        let frames = self.frames.take();
        let decisions = self.decisions.take();
        let cp = self.checkpoint();
        self.dice = Dice::keyed(seed);
        let r = f(self);
        self.restore(cp);
        self.frames = frames;
        self.decisions = decisions;
        r
    }

    /// Go back to `cp`, a checkpoint of this game: everything as it was then, the events since dropped.
    pub fn restore(&mut self, cp: Checkpoint) {
        let mut log = std::mem::take(&mut self.log);
        log.truncate(cp.log_len);
        let mut frames = self.frames.take();
        if let (Some(r), Some(mark)) = (&mut frames, cp.frames) {
            r.rewind(mark);
        }
        let mut decisions = self.decisions.take();
        if let (Some(d), Some(len)) = (&mut decisions, cp.decisions) {
            d.truncate(len);
        }
        *self = cp.game;
        self.log = log;
        self.frames = frames;
        self.decisions = decisions;
    }

    /// Keep the scripts' decisions from now on (the REPL, `play --log`, the viewer, `sim
    /// --decisions`): the decision hooks record what they chose and why, and scripts see
    /// `ctx.explaining`. The game's events are the same either way.
    pub fn explain_decisions(&mut self) {
        if self.decisions.is_none() {
            self.decisions = Some(Box::default());
        }
    }

    /// Whether this game keeps its scripts' decisions.
    pub fn explains(&self) -> bool {
        self.decisions.is_some()
    }

    /// Keep `d`, a decision made now: it leads to the next event logged (its `at` is set here).
    /// Nothing when this game keeps no decisions.
    pub fn decide(&mut self, mut d: Decision) {
        let at = self.log.len() as u64;
        if let Some(all) = &mut self.decisions {
            d.at = at;
            self.log_bytes += decision_bytes(&d);
            all.push(d);
        }
    }

    /// The decisions under way are carried out (the order executed, the roll made): the events they
    /// led to end here.
    pub fn decisions_done(&mut self) {
        let next = self.log.len() as u64;
        if let Some(all) = &mut self.decisions {
            all.done(next);
        }
    }

    /// The decisions kept so far, taken out of a game that is done with (none when it kept none).
    pub fn take_decisions(&mut self) -> Vec<Decision> {
        self.decisions
            .take()
            .map(|d| d.into_vec())
            .unwrap_or_default()
    }

    /// The decisions kept so far, if this game keeps them.
    pub fn decisions(&self) -> Option<&Decisions> {
        self.decisions.as_deref()
    }

    /// Start recording the table after every event from now on ([`FrameRecorder`]), for a viewer.
    /// The recorder keeps the game as it stands now ([`Game::take_recording`]).
    pub fn record_frames(&mut self) {
        let mut start = self.clone();
        start.frames = None;
        start.decisions = None;
        start.models.retain(|m| !self.unplaced.contains(&m.id));
        self.frames = Some(Box::new(FrameRecorder::new(start)));
    }

    /// Stop recording frames and return them, the changes after the last event included.
    pub fn take_frames(&mut self) -> Option<Vec<Frame>> {
        self.take_recording().map(|(_, frames)| frames)
    }

    /// Stop recording frames and return the game as the recorder first saw it (its log up to then
    /// included) with the frames since, the changes after the last event included.
    pub fn take_recording(&mut self) -> Option<(Game, Vec<Frame>)> {
        let last = self.log.len().saturating_sub(1) as u64;
        let mut r = self.frames.take()?;
        r.observe(
            last,
            &placed_models(&self.models, &self.unplaced),
            &self.buildings,
            &self.tokens,
            (self.wave, self.round),
            self.supplies,
        );
        Some(r.into_recording())
    }

    /// The navigator for bases of radius `r` on this game's table, built once and reused.
    pub fn navigator(&self, r: f64) -> std::sync::Arc<Navigator> {
        self.navigators.get(&self.table, r)
    }

    /// Append an event to the log.
    pub fn record(&mut self, kind: EventKind) {
        let seq = self.log.len() as u64;
        let cause = self.causes.last().copied();
        if let Some(r) = &mut self.frames {
            r.observe(
                seq,
                &placed_models(&self.models, &self.unplaced),
                &self.buildings,
                &self.tokens,
                (self.wave, self.round),
                self.supplies,
            );
        }
        self.log_bytes += event_bytes(&kind);
        self.log.push(Event { seq, cause, kind });
    }

    /// Roughly how many bytes the log and the kept decisions hold: each event's size plus the text
    /// scripts can make long in it (reasons, purposes, names). The log lives outside the VM's memory
    /// limit, and scripts decide how much of it there is: it is bounded by [`MAX_LOG_BYTES`], which
    /// the script host checks before each hook call and each command ([`Game::log_full`]).
    pub fn log_bytes(&self) -> usize {
        self.log_bytes
    }

    /// Why the log may grow no more, once it holds more than [`MAX_LOG_BYTES`]; the caller names the
    /// script that would add to it.
    pub fn log_full(&self) -> Option<String> {
        (self.log_bytes > MAX_LOG_BYTES).then(|| {
            format!(
                "the game's log holds {} events in about {} MB, at most {} MB a game (no valid game \
                 comes near it: a script asks for events without end)",
                self.log.len(),
                self.log_bytes >> 20,
                MAX_LOG_BYTES >> 20
            )
        })
    }

    /// The number of the last event recorded (the one just logged), if any.
    pub fn last_seq(&self) -> Option<u64> {
        self.log.last().map(|e| e.seq)
    }

    /// Run `f` as the consequences of event `seq`: every event it records names `seq` as its cause
    /// (unless a nested consequence names a nearer one). Only the log's `cause` fields differ from
    /// running `f` alone.
    pub fn caused_by<R>(&mut self, seq: Option<u64>, f: impl FnOnce(&mut Game) -> R) -> R {
        let Some(seq) = seq else {
            return f(self);
        };
        self.causes.push(seq);
        let out = f(self);
        self.causes.pop();
        out
    }

    /// Run `f`, an attack made outside a normal action (`what` made it: a free throw): the Combat
    /// events it records say so (`reaction`).
    pub fn outside_action<R>(&mut self, what: &str, f: impl FnOnce(&mut Game) -> R) -> R {
        self.outside.push(what.to_string());
        let out = f(self);
        self.outside.pop();
        out
    }

    /// What makes the attack being resolved now outside a normal action, if anything does.
    pub fn outside_label(&self) -> Option<String> {
        self.outside.last().cloned()
    }

    /// The ids the next model and the next token will be given (above every id a game has used): a
    /// loaded save is checked against them.
    pub fn next_ids(&self) -> (u32, u32) {
        (self.next_model, self.next_token)
    }

    /// The whole log, oldest first.
    pub fn log(&self) -> &[Event] {
        &self.log
    }

    /// The whole log, taken out of a game that is done with (its log is left empty): a finished game's
    /// two thousand events handed on without a copy of each.
    pub fn take_log(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.log)
    }

    /// Spend the limited use `key` (`game:`, `wave:` or `council:`...) for `source` and log it; an error
    /// naming the problem when the key is malformed or already spent.
    pub fn spend_use(&mut self, key: &str, source: &str) -> Result<(), String> {
        if !SPENT_PREFIXES.iter().any(|p| key.starts_with(p)) {
            return Err(format!(
                "a limited use is named game:..., wave:... or council:..., not {key:?}"
            ));
        }
        if self.spent.iter().any(|s| s == key) {
            return Err(format!("{key:?} is already spent"));
        }
        self.spent.push(key.to_string());
        self.record(EventKind::Spent {
            key: key.to_string(),
            source: source.to_string(),
        });
        Ok(())
    }

    /// Whether hook `entry` of the script `module` said it has nothing more to do this wave for `model`
    /// ([`Game::done_for_wave`]).
    pub fn is_done_for_wave(&self, model: ModelId, module: &str, entry: &str) -> bool {
        self.done_for_wave
            .iter()
            .any(|(m, s, e)| *m == model && s == module && e == entry)
    }

    /// Note that hook `entry` of the script `module` has nothing more to do this wave for `model`.
    /// No event: it changes when the kernel calls a script, not the game.
    pub fn set_done_for_wave(&mut self, model: ModelId, module: &str, entry: &str) {
        if !self.is_done_for_wave(model, module, entry) {
            self.done_for_wave
                .push((model, module.to_string(), entry.to_string()));
        }
    }

    /// Roll `n` D6 for `purpose` and log the roll.
    pub fn roll(&mut self, purpose: &str, model: Option<ModelId>, n: usize) -> Vec<Die> {
        // The purpose's own stream; a playout's keyed dice roll at this roll's own position.
        let side = model.and_then(|m| self.model(m).ok()).map(|m| m.side);
        self.dice.select(crate::dice::Stream::of(purpose, side));
        self.dice
            .at_roll(self.wave, self.round, purpose, model.map(|m| m.0));
        let dice = self.dice.roll(n);
        self.record(EventKind::Roll {
            purpose: purpose.to_string(),
            model,
            dice: dice.iter().map(|d| d.face).collect(),
            forced: dice.iter().map(|d| d.forced).collect(),
        });
        dice
    }

    /// Pick one of `options` uniformly with the purpose's stream (never the forced queue; by
    /// [`crate::dice::Dice::pick`], so another option changes the pick only when it wins) and log a
    /// `choice` event. Returns the index picked, or `None` (logging nothing) when there are no options. A single
    /// option is logged but draws nothing, so it does not move the stream.
    pub fn choose(&mut self, purpose: &str, options: &[String]) -> Option<usize> {
        let n = u32::try_from(options.len()).ok().filter(|n| *n > 0)?;
        let i = if n == 1 {
            0
        } else {
            self.dice.select(crate::dice::Stream::of(purpose, None));
            self.dice.at_roll(self.wave, self.round, purpose, None);
            self.dice.pick(options).unwrap_or(0)
        };
        self.record(EventKind::Choice {
            purpose: purpose.to_string(),
            options: options.to_vec(),
            picked: options[i].clone(),
        });
        Some(i)
    }

    /// Put a model on the table; its id is set here. Logs a `placed` event.
    pub fn add_model(&mut self, model: Model) -> ModelId {
        let id = self.add_unplaced(model);
        self.place(id);
        id
    }

    /// Take a model into the game without putting it on the table: it gets its id and is kept in
    /// `models` where it stands, but no event places it until [`Game::place`] (a hero waiting for its
    /// deployment, SUPPLEMENT §11).
    pub fn add_unplaced(&mut self, mut model: Model) -> ModelId {
        let id = ModelId(self.next_model);
        self.next_model += 1;
        model.id = id;
        // Ids only grow, so pushing keeps the vector sorted by id.
        self.models.push(model);
        self.unplaced.push(id);
        id
    }

    /// Whether model `id` is held by the game but not yet placed on the table.
    pub fn is_unplaced(&self, id: ModelId) -> bool {
        self.unplaced.contains(&id)
    }

    /// Put a model taken in unplaced ([`Game::add_unplaced`]) on the table where it now stands: logs
    /// its `placed` event. Nothing for a model already placed or not in the game.
    pub fn place(&mut self, id: ModelId) {
        let Some(i) = self.unplaced.iter().position(|u| *u == id) else {
            return;
        };
        let Ok(m) = self.model(id) else {
            return;
        };
        let event = EventKind::Placed {
            model: id,
            name: m.name.clone(),
            profile: m.name.clone(),
            side: m.side,
            base: m.base,
            pos: m.pos,
        };
        self.unplaced.remove(i);
        self.record(event);
    }

    /// Take a model off the table. Logs a `removed` event.
    pub fn remove_model(&mut self, id: ModelId, reason: &str) -> Result<Model, StateError> {
        let i = self.index_of(id)?;
        let m = self.models.remove(i);
        self.unplaced.retain(|u| *u != id);
        self.record(EventKind::Removed {
            model: id,
            reason: reason.to_string(),
        });
        Ok(m)
    }

    fn index_of(&self, id: ModelId) -> Result<usize, StateError> {
        self.models
            .binary_search_by_key(&id, |m| m.id)
            .map_err(|_| StateError::NoModel(id))
    }

    /// A model by id, or a clear error when it has left the table.
    pub fn model(&self, id: ModelId) -> Result<&Model, StateError> {
        self.index_of(id).map(|i| &self.models[i])
    }

    /// A model by id, mutably.
    pub fn model_mut(&mut self, id: ModelId) -> Result<&mut Model, StateError> {
        let i = self.index_of(id)?;
        Ok(&mut self.models[i])
    }

    /// Models of one side, in id order.
    pub fn side(&self, side: Side) -> impl Iterator<Item = &Model> {
        self.models.iter().filter(move |m| m.side == side)
    }

    /// A building by name.
    pub fn building(&self, name: &str) -> Result<&Building, StateError> {
        self.buildings
            .iter()
            .find(|b| b.name == name)
            .ok_or_else(|| StateError::NoBuilding(name.to_string()))
    }

    /// A building by name, mutably.
    pub fn building_mut(&mut self, name: &str) -> Result<&mut Building, StateError> {
        self.buildings
            .iter_mut()
            .find(|b| b.name == name)
            .ok_or_else(|| StateError::NoBuilding(name.to_string()))
    }

    /// Put a token on the table and return its id.
    pub fn add_token(&mut self, kind: TokenKind, pos: Vec2) -> TokenId {
        let id = TokenId(self.next_token);
        self.next_token += 1;
        self.tokens.push(Token {
            id,
            pos,
            kind,
            peeked: None,
            source: None,
        });
        id
    }
}
