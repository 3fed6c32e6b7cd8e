//! The optional frame recorder: what the table looked like after every event, as deltas. Off by default
//! (`Game::frames` is `None`, one check per logged event); `village replay --html` and `render --replay`
//! switch it on for the one game they replay. When it is on, each time an event is logged the models,
//! buildings, tokens and clock are compared with what the recorder last saw, and only what changed is
//! kept, so a viewer can put the table back together at any event without the game being cloned per
//! event. It observes and never changes play.

use super::model::{Condition, Model, ModelId};
use super::piece::{Building, Token};
use super::Game;
use crate::geometry::Vec2;
use serde::{Deserialize, Serialize};

/// What of a model can change during play and is drawn: where it stands, Wounds, Quality, conditions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelFrame {
    pub id: ModelId,
    pub pos: Vec2,
    pub wounds: u8,
    pub quality: u8,
    pub conditions: Vec<Condition>,
}

impl ModelFrame {
    fn of(m: &Model) -> Self {
        ModelFrame {
            id: m.id,
            pos: m.pos,
            wounds: m.wounds,
            quality: m.quality,
            conditions: m.conditions.clone(),
        }
    }

    /// Put this state on `m` (the same model).
    pub fn apply(&self, m: &mut Model) {
        m.pos = self.pos;
        m.wounds = self.wounds;
        m.quality = self.quality;
        m.conditions.clone_from(&self.conditions);
    }
}

/// What of a building can change during play: Level, Integrity, fire, Destroyed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildingFrame {
    /// Its index in `Game::buildings` (buildings are never added or removed).
    pub index: usize,
    pub level: u8,
    pub integrity: i32,
    pub fire: bool,
    pub destroyed: bool,
}

impl BuildingFrame {
    fn of(index: usize, b: &Building) -> Self {
        BuildingFrame {
            index,
            level: b.level,
            integrity: b.integrity,
            fire: b.fire,
            destroyed: b.destroyed,
        }
    }

    /// Put this state on `b` (the building at `self.index`).
    pub fn apply(&self, b: &mut Building) {
        b.level = self.level;
        b.integrity = self.integrity;
        b.fire = self.fire;
        b.destroyed = self.destroyed;
    }
}

/// What changed up to the logging of event `event`, which is what that event reports: the kernel
/// changes the game, then logs what it did (a move sets the position, then logs `moved`). Changes made
/// after the last event are the last event's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Frame {
    pub event: u64,
    /// Models that came onto the table (whole: their profile is drawn too).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<Model>,
    /// Models already on the table that moved, were hurt or changed condition.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<ModelFrame>,
    /// Models that left the table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<ModelId>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buildings: Vec<BuildingFrame>,
    /// Every token on the table, when any changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Vec<Token>>,
    /// Wave and round, when either changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<(u32, u32)>,
    /// Supplies, when they changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supplies: Option<i32>,
}

impl Frame {
    fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.changed.is_empty()
            && self.removed.is_empty()
            && self.buildings.is_empty()
            && self.tokens.is_none()
            && self.clock.is_none()
            && self.supplies.is_none()
    }

    /// Put this frame's changes on `game` (the game as it was before them).
    pub fn apply(&self, game: &mut Game) {
        game.models.retain(|m| !self.removed.contains(&m.id));
        for m in &self.added {
            // A hero that fled and rejoins keeps its id: replace it rather than list it twice.
            game.models.retain(|o| o.id != m.id);
            game.models.push(m.clone());
        }
        game.models.sort_by_key(|m| m.id);
        for c in &self.changed {
            if let Ok(m) = game.model_mut(c.id) {
                c.apply(m);
            }
        }
        for b in &self.buildings {
            if let Some(target) = game.buildings.get_mut(b.index) {
                b.apply(target);
            }
        }
        if let Some(t) = &self.tokens {
            game.tokens.clone_from(t);
        }
        if let Some((wave, round)) = self.clock {
            game.wave = wave;
            game.round = round;
        }
        if let Some(s) = self.supplies {
            game.supplies = s;
        }
    }
}

/// The state last seen, to compare the next one with.
#[derive(Debug, Clone, Default)]
struct Seen {
    models: Vec<ModelFrame>,
    buildings: Vec<BuildingFrame>,
    tokens: Vec<Token>,
    clock: (u32, u32),
    supplies: i32,
}

/// The recorder a game carries while frames are wanted (`Game::record_frames`).
#[derive(Debug, Clone)]
pub struct FrameRecorder {
    /// The game as the recorder first saw it (its models on the table only), which the frames
    /// change.
    start: Box<Game>,
    frames: Vec<Frame>,
    seen: Seen,
}

/// Where a recorder stood at a checkpoint: the frames kept then, and what it had seen.
#[derive(Debug, Clone)]
pub struct FrameMark {
    frames: usize,
    seen: Seen,
}

impl FrameRecorder {
    /// A recorder that has seen `start` (a game with only the models on the table), and keeps it.
    pub fn new(start: Game) -> Self {
        let seen = Seen {
            models: start.models.iter().map(ModelFrame::of).collect(),
            buildings: (start.buildings.iter().enumerate())
                .map(|(i, b)| BuildingFrame::of(i, b))
                .collect(),
            tokens: start.tokens.clone(),
            clock: (start.wave, start.round),
            supplies: start.supplies,
        };
        FrameRecorder {
            start: Box::new(start),
            frames: Vec::new(),
            seen,
        }
    }

    /// Compare the game's parts with what was last seen, and keep a frame of the differences (if any)
    /// for event `event`.
    pub(super) fn observe(
        &mut self,
        event: u64,
        models: &[Model],
        buildings: &[Building],
        tokens: &[Token],
        clock: (u32, u32),
        supplies: i32,
    ) {
        let mut f = Frame {
            event,
            ..Frame::default()
        };
        let seen = &mut self.seen;
        // Both lists are sorted by id: one merge walk.
        let (mut i, mut j) = (0, 0);
        let mut now = Vec::with_capacity(models.len());
        while i < seen.models.len() || j < models.len() {
            let old = seen.models.get(i);
            let new = models.get(j);
            match (old, new) {
                (Some(o), Some(n)) if o.id == n.id => {
                    let frame = ModelFrame::of(n);
                    if *o != frame {
                        f.changed.push(frame.clone());
                    }
                    now.push(frame);
                    i += 1;
                    j += 1;
                }
                (Some(o), n) if n.is_none_or(|n| o.id < n.id) => {
                    f.removed.push(o.id);
                    i += 1;
                }
                (_, Some(n)) => {
                    f.added.push(n.clone());
                    now.push(ModelFrame::of(n));
                    j += 1;
                }
                // Unreachable: the arms above cover every pair with one side present.
                (_, None) => break,
            }
        }
        seen.models = now;
        for (k, b) in buildings.iter().enumerate() {
            let frame = BuildingFrame::of(k, b);
            match seen.buildings.get_mut(k) {
                Some(old) if *old == frame => {}
                Some(old) => {
                    *old = frame.clone();
                    f.buildings.push(frame);
                }
                None => {
                    seen.buildings.push(frame.clone());
                    f.buildings.push(frame);
                }
            }
        }
        if seen.tokens != tokens {
            seen.tokens = tokens.to_vec();
            f.tokens = Some(seen.tokens.clone());
        }
        if seen.clock != clock {
            seen.clock = clock;
            f.clock = Some(clock);
        }
        if seen.supplies != supplies {
            seen.supplies = supplies;
            f.supplies = Some(supplies);
        }
        if !f.is_empty() {
            self.frames.push(f);
        }
    }

    /// Where the recorder stands, for a checkpoint.
    pub(super) fn mark(&self) -> FrameMark {
        FrameMark {
            frames: self.frames.len(),
            seen: self.seen.clone(),
        }
    }

    /// Go back to `mark`: the frames recorded since are dropped (their events were).
    pub(super) fn rewind(&mut self, mark: FrameMark) {
        self.frames.truncate(mark.frames);
        self.seen = mark.seen;
    }

    /// The frames recorded, oldest first.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The frames recorded, oldest first, taken out.
    pub fn into_frames(self) -> Vec<Frame> {
        self.frames
    }

    /// The game as the recorder first saw it, and the frames recorded since, taken out.
    pub fn into_recording(self) -> (Game, Vec<Frame>) {
        (*self.start, self.frames)
    }
}

/// `start` (the game as the frames' recorder first saw it) as it stood after event `event`, by applying
/// the frames up to it. The log is not rebuilt: the result is for drawing.
pub fn game_at(start: &Game, frames: &[Frame], event: u64) -> Game {
    let mut g = start.clone();
    for f in frames.iter().take_while(|f| f.event <= event) {
        f.apply(&mut g);
    }
    g
}
