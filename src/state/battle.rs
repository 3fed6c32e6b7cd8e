//! A scenario's battle as the game keeps it (`scenarios/NAME.toml` with zones, fixed Groups,
//! objectives, a round limit or conclusions): the deployment zones, the Groups still to arrive, each
//! objective and who holds it, the Victory Points of each side, the conclusions that end the game and
//! a victory script's verdict. The rulebook's game has none (`Game::battle` is `None`).
//!
//! Plain data and the rule-free operations on it (who is inside an area, VP scored, logged). When a
//! conclusion holds and what the game's result is are the rules' (`rules::end`, `wave::play`).

use super::{EventKind, Game, Side};
use crate::geometry::{Polygon, Vec2};
use serde::{Deserialize, Serialize};

/// A scenario's battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Battle {
    /// The scenario's name.
    pub scenario: String,
    /// Each wave (a battle of fixed Groups is one) ends at the end of this round, if not before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_limit: Option<u32>,
    /// The Groups are the scenario's own, not escalating waves: the game is one wave.
    #[serde(default)]
    pub fixed: bool,
    /// The Escalation a battle of fixed Groups is fought at (whether Igniters burn), in place of the
    /// length's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escalation: Option<String>,
    /// Where each side deploys.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Zone>,
    /// The named points and areas Victory Points are scored for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<BattleObjective>,
    /// What ends the game besides the rulebook's losses, in the order they are asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conclusions: Vec<Conclusion>,
    /// Groups that arrive at the start of a later round.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arriving: Vec<Arrival>,
    /// Victory Points: the heroes' side's, then the enemies'.
    #[serde(default)]
    pub vp: [u32; 2],
    /// The victory script's verdict, once it gave one: the game ends at it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// The victory script (`scripts/victory/NAME.lua`) asked where the game can end, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<String>,
    /// The game's end was scored (the objectives scored at the end): once.
    #[serde(default)]
    pub concluded: bool,
}

/// A deployment zone: where one side's models are put at the start (a hero in the heroes' zone
/// instead of around the Town Hall; a Group that names it inside it instead of at its edge).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub name: String,
    pub side: Side,
    /// Its outline: convex, counter-clockwise.
    pub area: Polygon,
}

/// A named point or area of the table that a side holds (Victory Points).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleObjective {
    pub name: String,
    /// A point, held from within `reach` inches of a base's edge...
    pub at: Vec2,
    /// ...or an area, held by a model whose centre is inside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Polygon>,
    /// How near a base must be to hold a point (a rulebook measure: Short).
    pub reach: f64,
    /// The Victory Points it is worth.
    pub vp: u32,
    /// Scored at the end of every round it is held, not only at the game's end.
    #[serde(default)]
    pub each_round: bool,
    /// Who holds it now: a side with a model there and the other side none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<Side>,
}

/// What ends the game, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conclusion {
    pub when: When,
    pub result: Ending,
}

/// When a conclusion holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "name")]
pub enum When {
    /// The named building is Destroyed.
    BuildingDestroyed(String),
    /// No model of the named profile is left on the table once the battle began (a Leader, a General).
    ModelRemoved(String),
    /// An enemy model stands in the named objective's area or zone (or within reach of its point).
    AreaReached(String),
    /// No enemy is left on the table, nor any Group to arrive.
    EnemiesRemoved,
    /// The last round of the round limit ended.
    RoundLimit,
}

/// A game's result as a conclusion or a victory script gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The heroes' side wins.
    Win,
    /// The heroes' side loses.
    Loss,
    /// Neither side wins.
    Draw,
    /// The side with more Victory Points wins; equal is a draw.
    Vp,
}

/// A victory script's verdict: the result, and why in its words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub result: Ending,
    pub reason: String,
    /// The script's file.
    pub source: String,
}

/// A Group that arrives at the start of round `round`, at its edge or in its zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Arrival {
    pub round: u32,
    pub number: u32,
    pub models: Vec<String>,
    pub behaviour: String,
    pub edge: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
}

impl Battle {
    /// The zone named `name`.
    pub fn zone(&self, name: &str) -> Option<&Zone> {
        self.zones.iter().find(|z| z.name == name)
    }

    /// The first zone of `side`.
    pub fn zone_of(&self, side: Side) -> Option<&Zone> {
        self.zones.iter().find(|z| z.side == side)
    }

    /// Whether a Group still has to arrive.
    pub fn waiting(&self) -> bool {
        !self.arriving.is_empty()
    }

    /// The area a conclusion or script names: an objective's or a zone's.
    pub fn area_named(&self, name: &str) -> Option<Area<'_>> {
        if let Some(o) = self.objectives.iter().find(|o| o.name == name) {
            return Some(Area::Objective(o));
        }
        self.zone(name).map(|z| Area::Zone(&z.area))
    }
}

/// A named place of the battle.
pub enum Area<'a> {
    Objective(&'a BattleObjective),
    Zone(&'a Polygon),
}

impl Area<'_> {
    /// Whether a base of radius `r` centred at `p` is there.
    pub fn holds(&self, p: Vec2, r: f64) -> bool {
        match self {
            Area::Zone(poly) => poly.contains(p),
            Area::Objective(o) => o.covers(p, r),
        }
    }
}

impl BattleObjective {
    /// Whether a base of radius `r` centred at `p` is on it: its centre inside the area, or its edge
    /// within reach of the point.
    pub fn covers(&self, p: Vec2, r: f64) -> bool {
        match &self.area {
            Some(a) => a.contains(p),
            None => p.dist(self.at) - r <= self.reach + 1e-9,
        }
    }
}

impl Game {
    /// Who holds objective `i` now: the side with a model on it while the other side has none.
    pub fn holder_of(&self, i: usize) -> Option<Side> {
        let o = self.battle.as_ref()?.objectives.get(i)?;
        let on = |side: Side| self.side(side).any(|m| o.covers(m.pos, m.base / 2.0));
        match (on(Side::Heroes), on(Side::Enemies)) {
            (true, false) => Some(Side::Heroes),
            (false, true) => Some(Side::Enemies),
            _ => None,
        }
    }

    /// `side` scores `points` Victory Points for `reason` (an objective held, a script's award),
    /// logged as `vp_scored`.
    pub fn score_vp(&mut self, side: Side, points: u32, reason: &str, source: &str) {
        let Some(b) = self.battle.as_mut() else {
            return;
        };
        let i = usize::from(side == Side::Enemies);
        b.vp[i] = b.vp[i].saturating_add(points);
        let total = b.vp[i];
        self.record(EventKind::VpScored {
            side,
            points,
            total,
            reason: reason.to_string(),
            source: source.to_string(),
        });
    }

    /// Look again at who holds each objective, each change logged as `objective_held`.
    pub fn update_holders(&mut self) {
        let n = self.battle.as_ref().map_or(0, |b| b.objectives.len());
        for i in 0..n {
            let now = self.holder_of(i);
            let Some(o) = self.battle.as_mut().and_then(|b| b.objectives.get_mut(i)) else {
                continue;
            };
            if o.holder != now {
                o.holder = now;
                let name = o.name.clone();
                self.record(EventKind::ObjectiveHeld {
                    objective: name,
                    holder: now,
                });
            }
        }
    }
}
