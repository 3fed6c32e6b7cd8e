//! The game as the audit rebuilds it from the log alone: where each model stands, its side, base and
//! conditions, the buildings' Integrity, the terrain and Barricades, the wave, round and turn, and the
//! activation in progress. The checks read it as it was before each event; [`Table::apply`] then moves
//! it on. It judges nothing.

use super::facts::{Facts, Side};
use super::geom::P;
use super::log::{Ev, Line, Piece};
use std::collections::{BTreeMap, BTreeSet};

/// A model as the log tells it.
#[derive(Debug, Clone)]
pub struct Model {
    /// Its name.
    pub name: String,
    /// Its profile's name (the `placed` event's `profile`, else its name).
    pub profile: String,
    /// Whose side.
    pub side: Side,
    /// Whether it is a hero.
    pub hero: bool,
    /// Base diameter.
    pub base: f64,
    /// Where its centre is.
    pub pos: P,
    /// Whether it is on the table.
    pub on: bool,
    /// Conditions it has now (defenseless, transfixed, entangled, ...).
    pub conditions: BTreeSet<String>,
    /// Its profile's traits.
    pub traits: Vec<String>,
    /// Its Group's Behaviour (an enemy).
    pub behaviour: Option<String>,
    /// Whether it was given Long Move for this wave (Stable II Warhorse).
    pub warhorse: bool,
}

impl Model {
    /// Whether it has the trait (from its profile).
    pub fn has(&self, t: &str) -> bool {
        self.traits.iter().any(|x| x == t)
    }
    /// Whether it has the condition.
    pub fn is(&self, c: &str) -> bool {
        self.conditions.contains(c)
    }
    /// A short name for sentences: "Orc Warrior (5)".
    pub fn label(&self, id: u32) -> String {
        format!("{} ({id})", self.name)
    }
}

/// A building as the log tells it.
#[derive(Debug, Clone)]
pub struct Building {
    /// Its rectangle, when `setup` gave it.
    pub rect: Option<(P, P)>,
    /// Its Integrity, while the log lets the audit know it.
    pub integrity: Option<i32>,
    /// The most Integrity it may have.
    pub max: i32,
    /// Whether it is the Town Hall.
    pub town_hall: bool,
}

/// A Barricade or Wall on the table.
#[derive(Debug, Clone, Default)]
pub struct Barricade {
    /// Its segment, when logged.
    pub line: Option<(P, P)>,
    /// Its Integrity, when known.
    pub integrity: Option<i32>,
}

/// The activation in progress: its models, the actions each has, and its side.
#[derive(Debug, Clone)]
pub struct Activation {
    /// The `activation` event's seq.
    pub seq: u64,
    /// The models acting on the roll.
    pub members: Vec<u32>,
    /// Actions each may take.
    pub actions: u8,
    /// The side acting.
    pub side: Side,
}

/// The game rebuilt from its log.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// Every model ever placed, by id.
    pub models: BTreeMap<u32, Model>,
    /// Buildings by name.
    pub buildings: BTreeMap<String, Building>,
    /// Terrain pieces (from `setup`).
    pub terrain: Vec<Piece>,
    /// Barricades and Walls by token.
    pub barricades: BTreeMap<u32, Barricade>,
    /// Whether the game began with `setup`.
    pub setup: bool,
    /// The wave (1-based; 0 before the first is built).
    pub wave: u32,
    /// The round of the wave (0 before the first `round` event).
    pub round: u32,
    /// Whether the log has `turn` events.
    pub turns_logged: bool,
    /// Counts turns: a new number each side's turn.
    pub turn: u64,
    /// The side whose turn it is, when known.
    pub turn_side: Option<Side>,
    /// The activation in progress.
    pub act: Option<Activation>,
    /// Counts activations.
    pub act_serial: u64,
    /// Models named by the last `group_activation`.
    pub group: Vec<u32>,
    /// Models given Stable II's Warhorse before they are placed (a hero rejoining is given it as it
    /// deploys, before its `placed` event): they have it once placed.
    pub warhorse_unplaced: std::collections::BTreeSet<u32>,
    /// Group number → Behaviour, this wave.
    pub behaviours: BTreeMap<u32, String>,
    /// The next `group_built` begins a new wave's numbering.
    pub groups_stale: bool,
    /// The seq at which the game was decided (the Town Hall Destroyed), if it was.
    pub town_hall_fell: Option<u64>,
    /// The tracks in play: (space, min, max, losing space) by name.
    pub tracks: BTreeMap<String, (i32, i32, i32, Option<i32>)>,
    /// The seq at which a track's marker reached its losing space, if one did.
    pub track_lost: Option<u64>,
    /// A scenario's battle: its Groups still to arrive after the first round.
    pub arriving: usize,
    /// The seq at which a scenario's conclusion ended the game (`concluded`), and its cause.
    pub concluded: Option<(u64, String)>,
}

impl Table {
    /// How a breach names model `id`: "Name (id)", or "model id" when the log never placed it.
    pub fn label(&self, id: u32) -> String {
        self.models
            .get(&id)
            .map_or(format!("model {id}"), |m| m.label(id))
    }

    /// Models of `side` on the table.
    pub fn on_side(&self, side: Side) -> impl Iterator<Item = (u32, &Model)> {
        self.models
            .iter()
            .filter(move |(_, m)| m.on && m.side == side)
            .map(|(i, m)| (*i, m))
    }

    /// A model on the table.
    pub fn on(&self, id: u32) -> Option<&Model> {
        self.models.get(&id).filter(|m| m.on)
    }

    /// The side a model fights on, as far as the log knows it.
    pub fn side_of(&self, id: u32) -> Option<Side> {
        self.models.get(&id).map(|m| m.side)
    }

    /// Whether a model is one of the activation in progress.
    pub fn acting(&self, id: u32) -> bool {
        self.act.as_ref().is_some_and(|a| a.members.contains(&id))
    }

    /// Move the table on by one event.
    pub fn apply(&mut self, l: &Line, facts: &Facts) {
        match &l.ev {
            Ev::Setup {
                terrain,
                buildings,
                tokens,
            } => {
                self.setup = true;
                self.terrain = terrain.clone();
                for b in buildings {
                    self.buildings.insert(
                        b.name.clone(),
                        Building {
                            rect: Some((b.min, b.max)),
                            integrity: Some(b.integrity),
                            max: b.max_integrity,
                            town_hall: b.town_hall,
                        },
                    );
                }
                for t in tokens {
                    self.token(t.token, t.kind.as_deref(), &t.line, t.integrity);
                }
            }
            Ev::TokenPlaced(t) => self.token(t.token, t.kind.as_deref(), &t.line, t.integrity),
            Ev::Round { wave, round } => {
                self.wave = *wave;
                self.round = *round;
                self.act = None;
            }
            Ev::Turn { side } => {
                self.turns_logged = true;
                self.turn += 1;
                self.turn_side = Side::named(side);
                self.act = None;
            }
            Ev::WaveBuilt {} => {
                self.groups_stale = true;
                self.wave += 1;
                self.round = 0;
                self.act = None;
                self.turn += 1;
                self.turn_side = None;
                for m in self.models.values_mut() {
                    m.warhorse = false;
                }
                self.warhorse_unplaced.clear();
            }
            Ev::Placed {
                model,
                name,
                profile,
                side,
                base,
                pos,
            } => {
                let prof = profile.clone().unwrap_or_else(|| name.clone());
                let f = facts.profiles.get(&prof);
                let keep = self.models.get(model);
                let m = Model {
                    name: name.clone(),
                    side: side
                        .as_deref()
                        .and_then(Side::named)
                        .or(f.map(|f| f.side))
                        .or(keep.map(|k| k.side))
                        .unwrap_or(Side::Enemies),
                    hero: f.is_some_and(|f| f.hero),
                    base: base.or(f.map(|f| f.base)).unwrap_or(1.0),
                    pos: *pos,
                    on: true,
                    conditions: keep.map(|k| k.conditions.clone()).unwrap_or_default(),
                    traits: f.map(|f| f.traits.clone()).unwrap_or_default(),
                    behaviour: keep.and_then(|k| k.behaviour.clone()),
                    warhorse: keep.is_some_and(|k| k.warhorse)
                        || self.warhorse_unplaced.remove(model),
                    profile: prof,
                };
                self.models.insert(*model, m);
            }
            Ev::Deployed { model, to, .. } => self.put(*model, *to),
            Ev::Moved { model, to, .. } => self.put(*model, *to),
            Ev::Removed { model, .. } => {
                if let Some(m) = self.models.get_mut(model) {
                    m.on = false;
                    m.conditions.clear();
                }
            }
            Ev::Condition {
                model,
                condition,
                added,
            } => {
                if let Some(m) = self.models.get_mut(model) {
                    if *added {
                        m.conditions.insert(condition.clone());
                    } else {
                        m.conditions.remove(condition);
                    }
                }
            }
            Ev::Healed {
                model,
                condition: Some(c),
            } => {
                if let Some(m) = self.models.get_mut(model) {
                    m.conditions.remove(c);
                }
            }
            Ev::GroupBuilt { number, behaviour } => {
                // Group numbers start again each wave (its `group_built` events come before `wave_built`).
                if std::mem::take(&mut self.groups_stale) {
                    self.behaviours.clear();
                }
                self.behaviours.insert(*number, behaviour.clone());
            }
            Ev::Ambush { number, models } => {
                // An Ambush is a new Group joining the wave; the log does not name its Behaviour.
                self.behaviours.remove(number);
                for id in models {
                    if let Some(m) = self.models.get_mut(id) {
                        m.behaviour = None;
                    }
                }
            }
            Ev::GroupDeployed { number, models } => {
                // A battle's later Group arriving (the first round's deploy before round 2).
                if self.round >= 2 {
                    self.arriving = self.arriving.saturating_sub(1);
                }
                let b = self.behaviours.get(number).cloned();
                for id in models {
                    if let Some(m) = self.models.get_mut(id) {
                        m.behaviour = b.clone().or(m.behaviour.take());
                    }
                }
            }
            Ev::Summoned { model, caster } => {
                let b = self.models.get(caster).and_then(|c| c.behaviour.clone());
                if let Some(m) = self.models.get_mut(model) {
                    m.behaviour = m.behaviour.take().or(b);
                }
            }
            Ev::BuildingAbility {
                ability, models, ..
            } if ability == "Warhorse" => {
                for id in models {
                    match self.models.get_mut(id) {
                        Some(m) if m.on => m.warhorse = true,
                        _ => {
                            self.warhorse_unplaced.insert(*id);
                        }
                    }
                }
            }
            Ev::GroupActivation { members } => {
                self.group = members.clone();
                self.act = None;
                self.new_side_turn(members.first().copied());
            }
            Ev::Activation {
                model, successes, ..
            } => {
                let members = if self.group.contains(model) {
                    std::mem::take(&mut self.group)
                } else {
                    self.new_side_turn(Some(*model));
                    vec![*model]
                };
                let side = self.side_of(*model).unwrap_or(Side::Heroes);
                let cap = members
                    .iter()
                    .filter_map(|id| self.models.get(id)?.behaviour.as_ref())
                    .filter_map(|b| facts.behaviours.get(b))
                    .map(|(max, _)| *max)
                    .min()
                    .unwrap_or(u8::MAX);
                self.act_serial += 1;
                self.act = Some(Activation {
                    seq: l.seq,
                    members,
                    actions: (*successes).min(cap),
                    side,
                });
            }
            Ev::Damage {
                building,
                integrity,
                destroyed,
                ..
            } => {
                let b = self.building(building, facts);
                b.integrity = Some(*integrity);
                if *destroyed && b.town_hall && self.town_hall_fell.is_none() {
                    self.town_hall_fell = Some(l.seq);
                }
            }
            Ev::Repaired {
                building,
                integrity,
                ..
            } => self.building(building, facts).integrity = Some(*integrity),
            Ev::TrackSet {
                track,
                value,
                min,
                max,
                loses_at,
            } => {
                self.tracks
                    .insert(track.clone(), (*value, *min, *max, *loses_at));
            }
            Ev::BattleSet { arriving } => self.arriving = arriving.len(),
            Ev::Concluded { cause } if self.concluded.is_none() => {
                self.concluded = Some((l.seq, cause.clone()));
            }
            Ev::TrackMoved { track, to, .. } => {
                if let Some(t) = self.tracks.get_mut(track) {
                    t.0 = *to;
                    if t.3 == Some(*to) && self.track_lost.is_none() {
                        self.track_lost = Some(l.seq);
                    }
                }
            }
            Ev::Council {
                what,
                building: Some(b),
                refused: None,
                ..
            } if what == "repair" => {
                // The Council's repair is logged in words: the next damage tells the Integrity again.
                self.building(b, facts).integrity = None;
            }
            Ev::Council {
                what,
                token: Some(t),
                line,
                refused: None,
                ..
            } if what == "barricade" => {
                self.token(Some(*t), Some("barricade"), line, None);
            }
            Ev::WallRaised {
                token,
                line,
                integrity,
            } => self.token(Some(*token), Some("barricade"), line, *integrity),
            Ev::WallFallen { token } => {
                self.barricades.remove(token);
            }
            Ev::BarricadeDamage {
                token,
                integrity,
                destroyed,
                ..
            } => {
                if *destroyed {
                    self.barricades.remove(token);
                } else {
                    self.barricades.entry(*token).or_default().integrity = Some(*integrity);
                }
            }
            _ => {}
        }
    }

    /// The side's turn begins when a model of the other side activates (logs without `turn` events).
    fn new_side_turn(&mut self, id: Option<u32>) {
        if self.turns_logged {
            return;
        }
        let side = id.and_then(|i| self.side_of(i));
        if side.is_some() && side != self.turn_side {
            self.turn += 1;
            self.turn_side = side;
        }
    }

    fn put(&mut self, id: u32, to: P) {
        if let Some(m) = self.models.get_mut(&id) {
            m.pos = to;
        }
    }

    /// A building by name, made from the rosters' starting Integrity when `setup` did not give it.
    fn building(&mut self, name: &str, facts: &Facts) -> &mut Building {
        self.buildings.entry(name.to_string()).or_insert_with(|| {
            let max = facts.building_integrity.get(name).copied().unwrap_or(0);
            Building {
                rect: None,
                integrity: Some(max),
                max,
                town_hall: name == "Town Hall",
            }
        })
    }

    fn token(&mut self, id: Option<u32>, kind: Option<&str>, line: &[P], integrity: Option<i32>) {
        let (Some(id), Some("barricade" | "wall")) = (id, kind) else {
            return;
        };
        let b = self.barricades.entry(id).or_default();
        if let [a, c] = line {
            b.line = Some((*a, *c));
        }
        if integrity.is_some() {
            b.integrity = integrity;
        }
    }
}
