//! When play stops at once (core §6, §6.4, §7.1; SUPPLEMENT §10, "immediately means immediately" and
//! Overrun): the Town Hall Destroyed, a track's marker on its losing space (the threat track), the
//! village overrun, the optional party-defeated loss, and a wave with no enemy left. Derived from the game state after every event that can cause it; the turn engine
//! and the rules that resolve an action ask [`halted`] and resolve nothing further.
//!
//! It never changes the game: it only says whether play must stop, and why.

use crate::roster::{ProfileKind, Rules};
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
            Halt::NoEnemy => None,
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
}

impl Cause {
    /// Every cause, in report order.
    pub const ALL: [Cause; 6] = [
        Cause::TownHallDestroyed,
        Cause::Overrun,
        Cause::PartyDefeated,
        Cause::ThreatTrack,
        Cause::FinalWaveSurvived,
        Cause::Stalled,
    ];

    /// The name the JSON and the reports use.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::TownHallDestroyed => "town_hall_destroyed",
            Cause::Overrun => "overrun",
            Cause::PartyDefeated => "party_defeated",
            Cause::ThreatTrack => "threat_track",
            Cause::FinalWaveSurvived => "final_wave_survived",
            Cause::Stalled => "stalled",
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
        }
    }
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
