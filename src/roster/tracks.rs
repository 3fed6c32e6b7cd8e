//! Tracks (`rosters/tracks.toml`): named counters a game keeps beside its table — clocks and threat
//! tracks. Each has its bounds, its starting space, perhaps a space where the game is lost, and the
//! numbers of the script that moves it (`params`). A variant puts a track in play by naming it
//! (`tracks = { "threat" }`); scripts read it with `ctx:track` and move it with `ctx:advance_track`,
//! and the kernel keeps it within its bounds and logs every change. A preset may set where it starts.

use super::error::Diagnostic;
use super::load::Loaded;
use super::schema::Params;
use super::Rosters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One track (`[[track]]` in `rosters/tracks.toml`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Track {
    /// The name scripts and presets use: `threat`.
    pub name: String,
    /// What the track counts, in a sentence.
    pub description: String,
    /// The lowest space.
    pub min: i32,
    /// The highest space.
    pub max: i32,
    /// The space the marker starts on (a preset's `tracks` may set another).
    pub start: i32,
    /// The space where the game is lost when the marker reaches it (cause `threat_track`); left out,
    /// the track ends nothing by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loses_at: Option<i32>,
    /// Numbers of the scripts that move the track (`ctx:track_info(name).params`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub params: Params,
}

impl Track {
    /// Whether `space` lies on the track.
    pub fn holds(&self, space: i32) -> bool {
        (self.min..=self.max).contains(&space)
    }
}

impl Rosters {
    /// A track by exact name.
    pub fn track(&self, name: &str) -> Option<&Track> {
        self.tracks.iter().find(|t| t.name == name)
    }

    /// `unknown track "x" (did you mean "threat"?)`: the error for a track the rosters lack.
    pub fn unknown_track(&self, typed: &str) -> String {
        crate::names::unknown("track", typed, self.tracks.iter().map(|t| t.name.as_str()))
    }
}

/// Checks every track: bounds in order, the start and the losing space on the track, and each preset's
/// starting spaces naming a track and on it.
pub(crate) fn validate(l: &Loaded, errors: &mut Vec<Diagnostic>) {
    for e in &l.tracks {
        let (t, o) = (&e.value, &e.origin);
        let out = toml::Value::try_from(t)
            .map(|v| super::ranges::out_of_range("tracks.toml", "track", &v))
            .unwrap_or_default();
        if !out.is_empty() {
            for (key, message) in out {
                errors.push(o.diag(&key, &key, message));
            }
            continue;
        }
        if t.min > t.max {
            errors.push(o.diag(
                "min",
                "min",
                format!("min {} is above max {}", t.min, t.max),
            ));
            continue;
        }
        if !t.holds(t.start) {
            errors.push(o.diag(
                "start",
                "start",
                format!(
                    "start {} is off the track ({} to {})",
                    t.start, t.min, t.max
                ),
            ));
        }
        if let Some(at) = t.loses_at.filter(|at| !t.holds(*at)) {
            errors.push(o.diag(
                "loses_at",
                "loses_at",
                format!("loses_at {at} is off the track ({} to {})", t.min, t.max),
            ));
        }
    }
    for e in &l.presets {
        for (name, start) in &e.value.tracks {
            let at = format!("tracks.{name}");
            match l.tracks.iter().find(|t| &t.value.name == name) {
                None => {
                    let known = l.tracks.iter().map(|t| t.value.name.as_str());
                    errors.push(e.origin.diag(
                        &at,
                        &at,
                        crate::names::unknown("track", name, known),
                    ));
                }
                Some(t) if !t.value.holds(*start) => errors.push(e.origin.diag(
                    &at,
                    &at,
                    format!(
                        "{start} is off the {name} track ({} to {})",
                        t.value.min, t.value.max
                    ),
                )),
                Some(_) => {}
            }
        }
    }
}
