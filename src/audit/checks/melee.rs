//! Melee (core §3.3–§3.4, SUPPLEMENT §4 and §11): a Free Hack only by an enemy in contact that the
//! model actually leaves (it moves and ends out of contact), never against Free Disengage (Mounted
//! against non-Mounted, non-Flying enemies; Flying against non-Flying; the Free Disengage trait); no
//! bonus of the attacker's own activation (Ride Down, Dashing) on an attack outside it; and in every
//! melee between them, +2 against a Defenseless or Transfixed model and +1 against an Entangled one,
//! whoever declared the attack, both when both hold.

use crate::audit::geom;
use crate::audit::log::{Aim, Ev, Line, Modifier};
use crate::audit::table::Table;
use crate::audit::{Check, Cx, Kind};

/// A Free Hack waiting to see whether its target leaves.
struct Pending {
    seq: u64,
    hacker: u32,
    target: u32,
}

/// The melee checks.
#[derive(Default)]
pub struct Melee {
    pending: Vec<Pending>,
}

/// Bonuses that belong to the attacker's own activation (SUPPLEMENT §11): by modifier reason.
const OWN_ACTIVATION: &[&str] = &["Ride Down", "Dashing"];

fn has_bonus(mods: &[Modifier], to: &str, min: i32, words: &[&str]) -> bool {
    mods.iter().any(|m| {
        m.to == to
            && m.value >= min
            && words
                .iter()
                .any(|w| m.reason.to_lowercase().contains(&w.to_lowercase()))
    })
}

impl Melee {
    fn settle(&mut self, t: &Table, l: &Line, cx: &mut Cx) {
        match &l.ev {
            Ev::Moved { model, to, .. } => {
                let mut keep = Vec::new();
                for p in self.pending.drain(..) {
                    if p.target != *model {
                        keep.push(p);
                        continue;
                    }
                    let (Some(m), Some(h)) = (t.models.get(model), t.on(p.hacker)) else {
                        continue;
                    };
                    if geom::circle_gap(*to, m.base, h.pos, h.base) <= cx.facts.contact {
                        cx.breach(
                            Kind::FreeHack,
                            p.seq,
                            format!(
                                "{} makes a Free Hack on {}, which does not leave it (it ends its move at #{} still in contact)",
                                h.label(p.hacker),
                                m.label(*model),
                                l.seq
                            ),
                        );
                    }
                }
                self.pending = keep;
            }
            Ev::Removed { model, .. } => self.pending.retain(|p| p.target != *model),
            Ev::Activation { .. }
            | Ev::GroupActivation { .. }
            | Ev::Turn { .. }
            | Ev::Round { .. } => {
                for p in self.pending.drain(..) {
                    let (Some(m), Some(h)) = (t.on(p.target), t.models.get(&p.hacker)) else {
                        continue;
                    };
                    cx.breach(
                        Kind::FreeHack,
                        p.seq,
                        format!(
                            "{} makes a Free Hack on {}, which never moves away",
                            h.label(p.hacker),
                            m.label(p.target)
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}

impl Check for Melee {
    fn see(&mut self, t: &Table, l: &Line, cx: &mut Cx) {
        self.settle(t, l, cx);
        let Ev::Combat {
            kind,
            attacker,
            target: Aim::Model(target),
            modifiers,
            free_hack,
            ..
        } = &l.ev
        else {
            return;
        };
        if kind != "melee" {
            return;
        }
        let (Some(a), Some(d)) = (t.on(*attacker), t.on(*target)) else {
            return;
        };
        if *free_hack {
            if geom::circle_gap(a.pos, a.base, d.pos, d.base) > cx.facts.contact + 0.01 {
                cx.breach(
                    Kind::FreeHack,
                    l.seq,
                    format!(
                        "{} makes a Free Hack on {}, which is not in contact with it",
                        a.label(*attacker),
                        d.label(*target)
                    ),
                );
            }
            let free = d.has("Free Disengage")
                || (d.has("Mounted") && !a.has("Mounted") && !a.has("Flying"))
                || (d.has("Flying") && !a.has("Flying"));
            if free {
                cx.breach(
                    Kind::FreeHack,
                    l.seq,
                    format!(
                        "{} makes a Free Hack on {}, which has Free Disengage against it",
                        a.label(*attacker),
                        d.label(*target)
                    ),
                );
            } else {
                self.pending.push(Pending {
                    seq: l.seq,
                    hacker: *attacker,
                    target: *target,
                });
            }
        }
        for b in OWN_ACTIVATION {
            if has_bonus(modifiers, "attacker", 1, &[b]) && (*free_hack || !t.acting(*attacker)) {
                cx.breach(
                    Kind::HackBonus,
                    l.seq,
                    format!(
                        "{} has {b}'s bonus on an attack outside its own activation",
                        a.label(*attacker)
                    ),
                );
            }
        }
        // The hindered model's opponent gets the bonus, whichever of them declared the attack.
        for (hindered, hid, opp) in [(d, *target, "attacker"), (a, *attacker, "defender")] {
            let mut need = Vec::new();
            if hindered.is("defenseless") || hindered.is("transfixed") {
                need.push((
                    2,
                    ["Defenseless", "Transfixed"],
                    "+2 (Defenseless or Transfixed)",
                ));
            }
            if hindered.is("entangled") {
                need.push((1, ["Entangled", "Entangled"], "+1 (Entangled)"));
            }
            for (v, words, what) in need {
                if !has_bonus(modifiers, opp, v, &words) {
                    cx.breach(
                        Kind::ConditionModifier,
                        l.seq,
                        format!(
                            "{}'s opponent lacks the {what} in a melee with it",
                            hindered.label(hid)
                        ),
                    );
                }
            }
        }
    }
}
