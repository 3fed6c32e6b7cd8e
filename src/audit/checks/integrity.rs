//! Integrity (core §6.4–§6.5, §7.2): each `damage` lowers a building's Integrity by its amount from the
//! last value the log gave (from `setup`, else the rosters' starting Integrity), never below 0, and it
//! is Destroyed exactly at 0; a Destroyed building takes no damage and no repair; `repaired` adds, never
//! above the building's maximum. Barricades likewise (`wall_raised`/`setup` Integrity, `barricade_damage`).
//! A Council repair is logged in words: the next event that gives the Integrity is taken as known again.

use crate::audit::log::{Ev, Line};
use crate::audit::table::Table;
use crate::audit::{Check, Cx, Kind};

/// The Integrity checks.
#[derive(Default)]
pub struct Integrity;

impl Check for Integrity {
    fn see(&mut self, t: &Table, l: &Line, cx: &mut Cx) {
        let known = |name: &str| match t.buildings.get(name) {
            Some(b) => (b.integrity, b.max),
            None => {
                let m = cx.facts.building_integrity.get(name).copied();
                (m, m.unwrap_or(i32::MAX))
            }
        };
        match &l.ev {
            Ev::Damage {
                building,
                amount,
                integrity,
                destroyed,
            } => {
                let (last, _) = known(building);
                if last == Some(0) {
                    cx.breach(
                        Kind::Integrity,
                        l.seq,
                        format!("the {building} is already Destroyed and takes {amount} damage"),
                    );
                    return;
                }
                if *amount < 0 {
                    cx.breach(
                        Kind::Integrity,
                        l.seq,
                        format!("the {building} takes negative damage ({amount})"),
                    );
                }
                if let Some(last) = last {
                    let want = (last - amount).max(0);
                    if *integrity != want {
                        cx.breach(
                            Kind::Integrity,
                            l.seq,
                            format!("the {building} had Integrity {last} and takes {amount}: it should have {want}, the log says {integrity}"),
                        );
                    }
                }
                if *destroyed != (*integrity <= 0) {
                    cx.breach(
                        Kind::Integrity,
                        l.seq,
                        format!(
                            "the {building} at Integrity {integrity} is {}Destroyed",
                            if *destroyed { "" } else { "not " }
                        ),
                    );
                }
            }
            Ev::Repaired {
                building,
                amount,
                integrity,
            } => {
                let (last, max) = known(building);
                if last == Some(0) {
                    cx.breach(
                        Kind::Integrity,
                        l.seq,
                        format!("the Destroyed {building} is repaired"),
                    );
                    return;
                }
                if *integrity > max {
                    cx.breach(
                        Kind::Integrity,
                        l.seq,
                        format!(
                            "the {building} is repaired to {integrity}, above its maximum {max}"
                        ),
                    );
                }
                if let Some(last) = last {
                    let want = (last + amount).min(max);
                    if *integrity != want {
                        cx.breach(
                            Kind::Integrity,
                            l.seq,
                            format!("the {building} had Integrity {last} and is repaired by {amount}: it should have {want}, the log says {integrity}"),
                        );
                    }
                }
            }
            Ev::Council {
                what,
                building: Some(b),
                refused: None,
                ..
            } if (what == "repair" || what == "upgrade") && known(b).0 == Some(0) => {
                cx.breach(
                    Kind::Integrity,
                    l.seq,
                    format!("the Council orders a {what} of the Destroyed {b}"),
                );
            }
            Ev::BarricadeDamage {
                token,
                amount,
                integrity,
                destroyed,
            } => {
                if let Some(last) = t.barricades.get(token).and_then(|b| b.integrity) {
                    let want = (last - amount).max(0);
                    if *integrity != want {
                        cx.breach(
                            Kind::Integrity,
                            l.seq,
                            format!("Barricade {token} had Integrity {last} and takes {amount}: it should have {want}, the log says {integrity}"),
                        );
                    }
                }
                if *destroyed != (*integrity <= 0) {
                    cx.breach(
                        Kind::Integrity,
                        l.seq,
                        format!(
                            "Barricade {token} at Integrity {integrity} is {}removed",
                            if *destroyed { "" } else { "not " }
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}
