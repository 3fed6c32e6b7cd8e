//! The tracks a game keeps beside its table (`rosters/tracks.toml`: clocks, the threat track): where
//! each marker stands, its bounds and its losing space, and the one way a marker moves — within its
//! bounds, logged as a `track_moved` event.

use super::{EventKind, Game};
use serde::{Deserialize, Serialize};

/// A track in play: its marker's space, its bounds, and where the game is lost, if anywhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrackState {
    pub value: i32,
    pub min: i32,
    pub max: i32,
    /// The space where the game is lost when the marker reaches it (cause `threat_track`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loses_at: Option<i32>,
}

impl TrackState {
    /// Whether the marker stands on the losing space.
    pub fn lost(&self) -> bool {
        self.loses_at == Some(self.value)
    }
}

impl Game {
    /// Put the track `name` in play on `state.value` (a new game, as a variant in force names it),
    /// logged as `track_set`.
    pub fn set_track(&mut self, name: &str, state: TrackState) {
        self.record(EventKind::TrackSet {
            track: name.to_string(),
            value: state.value,
            min: state.min,
            max: state.max,
            loses_at: state.loses_at,
        });
        self.tracks.insert(name.to_string(), state);
    }

    /// Move the marker of the track `name` by `by` spaces (down when negative), stopping at its
    /// bounds, logged as `track_moved` with `reason` and `source` (the script). Its new space, or
    /// `None` when the track is not in play.
    pub fn advance_track(
        &mut self,
        name: &str,
        by: i32,
        reason: &str,
        source: &str,
    ) -> Option<i32> {
        let t = self.tracks.get_mut(name)?;
        let from = t.value;
        t.value = from.saturating_add(by).clamp(t.min, t.max);
        let to = t.value;
        self.record(EventKind::TrackMoved {
            track: name.to_string(),
            from,
            to,
            by,
            reason: reason.to_string(),
            source: source.to_string(),
        });
        Some(to)
    }
}
