//! When play stops at once (core §6, §6.4, §7.1; SUPPLEMENT §10, "immediately means immediately" and
//! Overrun): the Town Hall Destroyed, a track's marker on its losing space (the threat track), the
//! village overrun, the optional party-defeated loss, and a wave with no enemy left. Derived from the game state after every event that can cause it; the turn engine
//! and the rules that resolve an action ask [`halted`] and resolve nothing further.
//!
//! It never changes the game: it only says whether play must stop, and why.

use crate::roster::{ProfileKind, Rules};
use crate::state::battle::{Battle, Ending, When};
use crate::state::{Game, Side};
use serde::{Deserialize, Serialize};

/// Why play stops at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// The Town Hall is Destroyed: the game ends at that event (§6.4, §7.1 step 2).
    TownHallDestroyed,
    /// A track's marker reached its losing space (`rosters/tracks.toml` `loses_at`: the threat track
    /// reached the village): the game ends at that event.
    TrackLost,
    /// The optional rule of Ch. I (`wave.party_defeated_loss`): every hero Defeated at the same time.
    PartyDefeated,
    /// No model of the heroes' side is on the table while an enemy remains (SUPPLEMENT §10).
    Overrun,
    /// Every enemy is Defeated or Fled: the wave ends (Ch. VI); the game goes on to the End Sequence.
    NoEnemy,
    /// A scenario's conclusion holds, or its victory script gave a verdict ([`concluded`]): the game
    /// ends with the result it says.
    Concluded,
}

impl Halt {
    /// The game is lost: nothing more of the game resolves, not even the rest of the event's effects.
    pub fn game_over(self) -> bool {
        !matches!(self, Halt::NoEnemy)
    }

    /// The cause an ended game records, for a halt that ends the game.
    pub fn cause(self) -> Option<Cause> {
        match self {
            Halt::TownHallDestroyed => Some(Cause::TownHallDestroyed),
            Halt::TrackLost => Some(Cause::ThreatTrack),
            Halt::PartyDefeated => Some(Cause::PartyDefeated),
            Halt::Overrun => Some(Cause::Overrun),
            Halt::NoEnemy | Halt::Concluded => None,
        }
    }
}

/// Why a game ended (SUPPLEMENT §10): every ended game records one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    TownHallDestroyed,
    Overrun,
    PartyDefeated,
    /// A track's marker reached its losing space (variant `threat_track`).
    ThreatTrack,
    FinalWaveSurvived,
    Stalled,
    /// A scenario's named building was Destroyed.
    BuildingDestroyed,
    /// A scenario's named model (a Leader, a General) was removed.
    ModelRemoved,
    /// An enemy reached a scenario's area.
    AreaReached,
    /// Every enemy of a scenario's battle was removed.
    EnemiesRemoved,
    /// A scenario's round limit was reached.
    RoundLimit,
    /// A scenario's victory script gave its verdict.
    VictoryScript,
}

impl Cause {
    /// Every cause, in report order.
    pub const ALL: [Cause; 12] = [
        Cause::TownHallDestroyed,
        Cause::Overrun,
        Cause::PartyDefeated,
        Cause::ThreatTrack,
        Cause::FinalWaveSurvived,
        Cause::Stalled,
        Cause::BuildingDestroyed,
        Cause::ModelRemoved,
        Cause::AreaReached,
        Cause::EnemiesRemoved,
        Cause::RoundLimit,
        Cause::VictoryScript,
    ];

    /// The causes only a scenario's battle gives: reports list them only when a game ended so.
    pub fn of_battle(self) -> bool {
        matches!(
            self,
            Cause::BuildingDestroyed
                | Cause::ModelRemoved
                | Cause::AreaReached
                | Cause::EnemiesRemoved
                | Cause::RoundLimit
                | Cause::VictoryScript
        )
    }

    /// The name the JSON and the reports use.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::TownHallDestroyed => "town_hall_destroyed",
            Cause::Overrun => "overrun",
            Cause::PartyDefeated => "party_defeated",
            Cause::ThreatTrack => "threat_track",
            Cause::FinalWaveSurvived => "final_wave_survived",
            Cause::Stalled => "stalled",
            Cause::BuildingDestroyed => "building_destroyed",
            Cause::ModelRemoved => "model_removed",
            Cause::AreaReached => "area_reached",
            Cause::EnemiesRemoved => "enemies_removed",
            Cause::RoundLimit => "round_limit",
            Cause::VictoryScript => "victory_script",
        }
    }

    /// In words, for people.
    pub fn words(self) -> &'static str {
        match self {
            Cause::TownHallDestroyed => "the Town Hall was Destroyed",
            Cause::Overrun => "the village was overrun (no defender left on the table)",
            Cause::PartyDefeated => "every hero was Defeated (the optional rule)",
            Cause::ThreatTrack => "the threat marker reached the village (a track's losing space)",
            Cause::FinalWaveSurvived => "the Town Hall stood when the final wave ended",
            Cause::Stalled => "a wave reached the round limit",
            Cause::BuildingDestroyed => "a building the scenario names was Destroyed",
            Cause::ModelRemoved => "a model the scenario names was removed",
            Cause::AreaReached => "an enemy reached an area the scenario names",
            Cause::EnemiesRemoved => "every enemy was removed",
            Cause::RoundLimit => "the scenario's round limit was reached",
            Cause::VictoryScript => "the scenario's victory script said so",
        }
    }
}

/// The scenario's conclusion that holds now, or the victory script's verdict, as (result, cause,
/// reason); `None` while the battle goes on (or the game has none). The round limit is the turn
/// engine's to apply ([`round_limit`]). Conclusions are asked in the scenario's order.
pub fn concluded(game: &Game) -> Option<(Ending, Cause, String)> {
    let b = game.battle.as_deref()?;
    if let Some(v) = &b.verdict {
        return Some((
            v.result,
            Cause::VictoryScript,
            format!("{} ({})", v.reason, v.source),
        ));
    }
    let begun = game.round > 0;
    b.conclusions.iter().find_map(|c| {
        let (cause, reason) = match &c.when {
            When::BuildingDestroyed(name) => {
                game.building(name).is_ok_and(|x| x.destroyed).then(|| {
                    (
                        Cause::BuildingDestroyed,
                        format!("the {name} was Destroyed"),
                    )
                })?
            }
            When::ModelRemoved(name) => (begun
                && !game
                    .models
                    .iter()
                    .any(|m| &m.name == name && !game.is_unplaced(m.id))
                && !b.arriving.iter().any(|a| a.models.contains(name)))
            .then(|| (Cause::ModelRemoved, format!("{name} was removed")))?,
            When::AreaReached(name) => {
                let area = b.area_named(name)?;
                let m = game
                    .side(Side::Enemies)
                    .find(|m| area.holds(m.pos, m.base / 2.0))?;
                (Cause::AreaReached, format!("{} reached the {name}", m.name))
            }
            When::EnemiesRemoved => {
                (begun && game.side(Side::Enemies).next().is_none() && !b.waiting())
                    .then(|| (Cause::EnemiesRemoved, "every enemy was removed".to_string()))?
            }
            When::RoundLimit => return None,
        };
        Some((c.result, cause, reason))
    })
}

/// How the round limit of a battle ends the game: its `round_limit` conclusion's result, else a
/// decision by Victory Points when the battle has objectives, else a draw.
pub fn round_limit(battle: &Battle) -> Ending {
    battle
        .conclusions
        .iter()
        .find(|c| c.when == When::RoundLimit)
        .map(|c| c.result)
        .unwrap_or(if battle.objectives.is_empty() {
            Ending::Draw
        } else {
            Ending::Vp
        })
}

/// Whether play must stop now, and why. The Town Hall counts at any time; the others only while a wave
/// is being played (`round` ≥ 1), so a scenario that places models outside a wave is not stopped.
pub fn halted(game: &Game, rules: &Rules) -> Option<Halt> {
    if game.buildings.iter().any(|b| b.town_hall && b.destroyed) {
        return Some(Halt::TownHallDestroyed);
    }
    if game.tracks.values().any(crate::state::TrackState::lost) {
        return Some(Halt::TrackLost);
    }
    if game.battle.is_some() && concluded(game).is_some() {
        return Some(Halt::Concluded);
    }
    if game.round == 0 {
        return None;
    }
    let enemy = game.side(Side::Enemies).next().is_some();
    if rules.wave.party_defeated_loss
        && !game.side(Side::Heroes).any(|m| m.kind == ProfileKind::Hero)
        && !game.fled.iter().any(|m| m.kind == ProfileKind::Hero)
    {
        return Some(Halt::PartyDefeated);
    }
    if !enemy {
        // A battle's later Groups are still to come: the wave goes on.
        if game.battle.as_ref().is_some_and(|b| b.waiting()) {
            return None;
        }
        return Some(Halt::NoEnemy);
    }
    if game.side(Side::Heroes).next().is_none() {
        return Some(Halt::Overrun);
    }
    None
}

/// The game is lost at this moment (Town Hall, a track, Overrun, the optional party rule): resolve
/// nothing more.
pub fn game_over(game: &Game, rules: &Rules) -> bool {
    halted(game, rules).is_some_and(Halt::game_over)
}
