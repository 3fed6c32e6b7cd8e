//! The game's course (core Ch. VI–VII, SUPPLEMENT §10–§11): no hero is placed before deployment (a
//! hero's first `placed` is where it deploys, followed by `deployed` from nowhere); nothing is played
//! after the Town Hall is Destroyed ("immediately means immediately"), after the heroes' side has left
//! the table (overrun), or in a wave after its last enemy is gone; and the log ends at a cause: the Town
//! Hall Destroyed, the village overrun, no enemy left (the final wave survived), a track's marker on its
//! losing space (the threat track), a scenario's conclusion (`concluded`: nothing is played after it;
//! a battle's wave goes on with no enemy on the table while a Group is still to arrive) or a stalled
//! wave of 40 rounds. A track's marker moves from where it
//! stood by what was asked, stopping at its bounds.

use crate::audit::facts::Side;
use crate::audit::log::{Ev, Line};
use crate::audit::table::Table;
use crate::audit::{Check, Cx, Kind};

/// The checks of the game's course.
#[derive(Default)]
pub struct Ending {
    /// A hero placed, waiting for its `deployed`: (model, seq of `placed`).
    placed: Option<(u32, u64)>,
    reported: bool,
    /// Enemies were on the table in this wave.
    wave_fought: bool,
    rounds_seen: bool,
}

/// Whether the event is play (an activation, an attack, a move or a spell).
fn is_play(l: &Line) -> bool {
    matches!(
        l.ev,
        Ev::Activation { .. } | Ev::GroupActivation { .. } | Ev::Combat { .. } | Ev::Spell { .. }
    ) || (matches!(l.ev, Ev::Moved { .. }) && l.cause.is_none())
}

impl Check for Ending {
    fn see(&mut self, t: &Table, l: &Line, cx: &mut Cx) {
        if let Some((id, at)) = self.placed.take() {
            // A hero resurrected in the Council stands on the table from then on (core §7.3 Temple III).
            let ok = matches!(&l.ev, Ev::Deployed { model, from: None, .. } if *model == id)
                || matches!(&l.ev, Ev::Council { what, .. } if what == "resurrect");
            if !ok {
                let name = t.label(id);
                cx.breach(
                    Kind::Deploy,
                    at,
                    format!("{name} is placed before it is deployed (SUPPLEMENT §11: its first `placed` is where it deploys, then `deployed` from nowhere)"),
                );
            }
        }
        match &l.ev {
            Ev::Placed { model, .. } => {
                let hero = cx
                    .facts
                    .profiles
                    .get(&t.models.get(model).map_or_else(
                        || match &l.ev {
                            Ev::Placed { profile, name, .. } => {
                                profile.clone().unwrap_or_else(|| name.clone())
                            }
                            _ => String::new(),
                        },
                        |m| m.profile.clone(),
                    ))
                    .is_some_and(|f| f.hero);
                let on_before = t.models.get(model).is_some_and(|m| m.on);
                if hero && !on_before {
                    self.placed = Some((*model, l.seq));
                }
            }
            Ev::Round { round, .. } => {
                self.rounds_seen = true;
                let _ = round;
            }
            Ev::WaveBuilt {} => self.wave_fought = false,
            Ev::TrackMoved {
                track,
                from,
                to,
                by,
            } => match t.tracks.get(track) {
                None => cx.breach(
                    Kind::Track,
                    l.seq,
                    format!("the {track} track moves though no track_set put it in play"),
                ),
                Some(&(at, min, max, _)) => {
                    let want = at.saturating_add(*by).clamp(min, max);
                    if *from != at || *to != want {
                        cx.breach(
                            Kind::Track,
                            l.seq,
                            format!("the {track} track moves {from} → {to} by {by}, but it stood on {at}: {by} from there within {min}..{max} is {want}"),
                        );
                    }
                }
            },
            _ => {}
        }
        if t.on_side(Side::Enemies).next().is_some() {
            self.wave_fought = true;
        }
        if self.reported || !is_play(l) {
            return;
        }
        let why = if let Some((s, cause)) = &t.concluded {
            Some(format!(
                "the scenario's conclusion ({cause}) ended the game at #{s}"
            ))
        } else if let Some(s) = t.town_hall_fell {
            Some(format!(
                "the Town Hall was Destroyed at #{s}: the game ended there"
            ))
        } else if let Some(s) = t.track_lost {
            Some(format!(
                "a track's marker reached its losing space at #{s}: the game ended there"
            ))
        } else if self.wave_fought && t.on_side(Side::Enemies).next().is_none() && t.arriving == 0 {
            Some("no enemy is left on the table: the wave has ended".to_string())
        } else if t.on_side(Side::Enemies).next().is_some()
            && t.on_side(Side::Heroes).next().is_none()
            && t.models.values().any(|m| m.side == Side::Heroes)
        {
            Some("no model of the heroes' side is on the table: the village is overrun and the game has ended".to_string())
        } else {
            None
        };
        if let Some(why) = why {
            self.reported = true;
            cx.breach(
                Kind::GameEnd,
                l.seq,
                format!("the game goes on ({}) though {why}", l.name),
            );
        }
    }

    fn end(&mut self, t: &Table, last: &Line, cx: &mut Cx) {
        if let Some((id, at)) = self.placed.take() {
            let name = t.label(id);
            cx.breach(
                Kind::Deploy,
                at,
                format!("{name} is placed and never deployed"),
            );
        }
        let enemies = t.on_side(Side::Enemies).count();
        let friends = t.on_side(Side::Heroes).count();
        if t.town_hall_fell.is_some()
            || t.track_lost.is_some()
            || t.concluded.is_some()
            || enemies == 0
            || friends == 0
        {
            return;
        }
        if !self.rounds_seen {
            cx.missing(
                "round events (a stalled wave cannot be told from a log cut short)",
                last.seq,
            );
            return;
        }
        if t.round < 40 {
            cx.breach(
                Kind::GameEnd,
                last.seq,
                format!(
                    "the log ends in round {} of wave {} with {friends} model(s) of the heroes' side and {enemies} enemies on the table and the Town Hall standing: no cause ends the game here",
                    t.round, t.wave
                ),
            );
        }
    }
}
