//! Activation and actions (core §3.1–§3.2, §6.2; SUPPLEMENT §3, §11): group size; successes and
//! failures adding up to the dice; a turnover only on two failures and never for a Behaviour that
//! causes none (Mindless, Guardian), and the turn ending at it; no more actions than successes in each
//! activation; at most one attack per model per turn.
//!
//! What an action costs, read from the events between an `activation` and the next activation of
//! anyone (src/wave/act.rs `order_cost`, rosters/rules.toml `[actions]`): a `moved` move (its
//! `actions`, else 1) or step 1; a melee or structural attack 1, 2 with a Power Blow modifier; a ranged
//! attack 1, 2 with an Aimed Shot modifier unless a Called Shot use was `spent` this activation; a spell
//! its Power (and the ranged attack it makes is part of it); a Concentrated Shooting 1, to the first of
//! its `shooters` (the one whose action it is), each shooter making its one attack of the turn; a fire placed 1; a Task's progress 1; a
//! scripted `ability` 1 (its attacks are part of it); a claim 1 (none when Pathfinder claims on the
//! move); an item used 1. Free Hacks and attacks with a `reaction` (a free Javelin throw) cost none.
//! Standing up, breaking free and a Healer's heal are not told apart in the log and are not counted,
//! so the count is a lower bound: a breach is certain.

use crate::audit::facts::Side;
use crate::audit::log::{Ev, Line};
use crate::audit::table::Table;
use crate::audit::{Check, Cx, Kind};
use std::collections::{BTreeMap, BTreeSet};

/// One action cost: the event's seq, the actions, what it was.
type Charge = (u64, u8, String);

/// The activation checks.
#[derive(Default)]
pub struct Activations {
    /// Action costs so far in the activation `serial`, per model: its name and each (seq, cost, what).
    spent: BTreeMap<u32, (String, Vec<Charge>)>,
    serial: u64,
    /// The activation's seq and actions.
    window: Option<(u64, u8)>,
    /// Models whose next ranged attack is part of a spell or scripted action already paid for.
    paid_attack: BTreeSet<u32>,
    called_shot: bool,
    /// Models that ran a scripted action this activation, and those whose attack it counted.
    ability_attack: BTreeSet<u32>,
    ability_counted: BTreeSet<u32>,
    claim_on_move: BTreeSet<u32>,
    last_task: Option<u32>,
    /// Attacks per (turn, model).
    attacks: BTreeMap<u32, u32>,
    attack_turn: u64,
    /// A turnover not yet followed by the end of the turn: its seq and side.
    turnover: Option<(u64, Side)>,
}

impl Activations {
    fn cost(&mut self, t: &Table, l: &Line, id: u32, n: u8, what: &str) {
        let Some(a) = t.act.as_ref() else { return };
        if !a.members.contains(&id) || n == 0 {
            return;
        }
        if self.window.is_none() {
            self.window = Some((a.seq, a.actions));
        }
        let name = t.label(id);
        self.spent
            .entry(id)
            .or_insert_with(|| (name, Vec::new()))
            .1
            .push((l.seq, n, what.to_string()));
    }

    /// The activation is over: any model that spent more actions than it had is a breach, named at the
    /// event that went past them.
    fn close(&mut self, cx: &mut Cx) {
        let Some((at, actions)) = self.window.take() else {
            self.spent.clear();
            return;
        };
        for (_, (name, list)) in std::mem::take(&mut self.spent) {
            let mut sum = 0u32;
            let mut over = None;
            for (seq, n, what) in &list {
                sum += u32::from(*n);
                if sum > u32::from(actions) && over.is_none() {
                    over = Some((*seq, what.clone()));
                }
            }
            if let Some((seq, what)) = over {
                cx.breach(
                    Kind::Actions,
                    seq,
                    format!("{name} spends {sum} actions ({what} goes past them) in an activation of {actions} (#{at})"),
                );
            }
        }
    }

    fn attack(&mut self, t: &Table, l: &Line, id: u32, cx: &mut Cx) {
        if t.turn != self.attack_turn {
            self.attack_turn = t.turn;
            self.attacks.clear();
        }
        let n = self.attacks.entry(id).or_insert(0);
        *n += 1;
        if *n == 2 {
            let name = t.label(id);
            cx.breach(
                Kind::Attacks,
                l.seq,
                format!("{name} makes a second attack in one turn (core §3.2: one attack a turn)"),
            );
        }
    }
}

impl Check for Activations {
    fn end(&mut self, _t: &Table, _last: &Line, cx: &mut Cx) {
        self.close(cx);
    }

    fn see(&mut self, t: &Table, l: &Line, cx: &mut Cx) {
        if t.act_serial != self.serial {
            self.serial = t.act_serial;
            self.close(cx);
            self.paid_attack.clear();
            self.ability_attack.clear();
            self.ability_counted.clear();
            self.called_shot = false;
            self.claim_on_move.clear();
        }
        let prev_task = self.last_task.take();
        match &l.ev {
            Ev::GroupActivation { members } => {
                if members.len() > cx.facts.group_max {
                    cx.breach(
                        Kind::GroupSize,
                        l.seq,
                        format!(
                            "a group of {} activates together; at most {} may (core §3.1)",
                            members.len(),
                            cx.facts.group_max
                        ),
                    );
                }
                self.after_turnover(t, l, members.first().copied(), cx);
            }
            Ev::Activation {
                model,
                dice,
                automatic,
                successes,
                failures,
                turnover,
            } => {
                if !t.group.contains(model) {
                    self.after_turnover(t, l, Some(*model), cx);
                }
                let rolled = dice.len() + usize::from(*automatic);
                if usize::from(*successes) + usize::from(*failures) != rolled {
                    cx.breach(
                        Kind::ActivationRoll,
                        l.seq,
                        format!("{successes} successes and {failures} failures from {} dice and {automatic} automatic success(es)", dice.len()),
                    );
                }
                let members: Vec<u32> = if t.group.contains(model) {
                    t.group.clone()
                } else {
                    vec![*model]
                };
                let never = members
                    .iter()
                    .filter_map(|id| t.models.get(id)?.behaviour.as_ref())
                    .find(|b| {
                        cx.facts
                            .behaviours
                            .get(*b)
                            .is_some_and(|(_, turnover)| !turnover)
                    });
                if *turnover && *failures < 2 {
                    cx.breach(
                        Kind::Turnover,
                        l.seq,
                        format!("a turnover logged on {failures} failure(s); two end the turn"),
                    );
                }
                if let (true, Some(b)) = (*turnover, never) {
                    cx.breach(Kind::Turnover, l.seq, format!("a {b} Group's double failure logged as a turnover: it gives no action and does not end the turn (§6.2, SUPPLEMENT §11)"));
                }
                if !*turnover && *failures >= 2 && never.is_none() {
                    cx.breach(
                        Kind::Turnover,
                        l.seq,
                        format!("{failures} failures and no turnover"),
                    );
                }
                if *turnover && never.is_none() {
                    let side = t.side_of(*model).unwrap_or(Side::Heroes);
                    self.turnover = Some((l.seq, side));
                }
            }
            Ev::Turn { .. } | Ev::Round { .. } | Ev::WaveBuilt {} => self.turnover = None,
            Ev::Moved {
                model,
                kind,
                actions,
                leg,
                ..
            } => {
                let k = kind.as_deref().unwrap_or(if l.cause.is_some() {
                    "compelled"
                } else {
                    "move"
                });
                if !*leg && (k == "move" || k == "step") && l.cause.is_none() {
                    let n = if k == "move" { actions.unwrap_or(1) } else { 1 };
                    self.cost(t, l, *model, n, k);
                }
            }
            Ev::Combat {
                kind,
                attacker,
                modifiers,
                free_hack,
                reaction,
                shooters,
                ..
            } => {
                if *free_hack || reaction.is_some() {
                    return;
                }
                if let Some(&by) = shooters.first() {
                    // Concentrated Shooting (§3.5): one attack, the action of the model that ordered
                    // it; every shooter "has shot for the turn".
                    for s in shooters {
                        self.attack(t, l, *s, cx);
                    }
                    self.cost(t, l, by, 1, "concentrated shooting");
                    return;
                }
                let has = |r: &str| modifiers.iter().any(|m| m.reason == r);
                let attack = kind == "melee" || kind == "ranged";
                if self.ability_attack.contains(attacker) {
                    // A scripted action's attacks (Fire Breath) are that action's one attack.
                    if attack && self.ability_counted.insert(*attacker) {
                        self.attack(t, l, *attacker, cx);
                    }
                    return;
                }
                if attack {
                    self.attack(t, l, *attacker, cx);
                }
                if kind == "ranged" && self.paid_attack.remove(attacker) {
                    return;
                }
                let n = match kind.as_str() {
                    "melee" | "structural" if has("Power Blow") => 2,
                    "ranged" if has("Aimed Shot") && !self.called_shot => 2,
                    "melee" | "structural" | "ranged" => 1,
                    _ => 0,
                };
                self.cost(t, l, *attacker, n, kind);
            }
            Ev::Spell { caster, power, .. } => {
                self.paid_attack.insert(*caster);
                self.cost(t, l, *caster, *power, "a spell");
            }
            Ev::Fire {
                by: Some(by),
                lit: true,
                source: None,
            } => self.cost(t, l, *by, 1, "placing fire"),
            Ev::TaskProgress { model } => {
                self.last_task = Some(*model);
                self.cost(t, l, *model, 1, "a Task");
            }
            Ev::Ability { model, .. } => {
                self.ability_attack.insert(*model);
                if prev_task != Some(*model) {
                    self.cost(t, l, *model, 1, "an ability");
                }
            }
            Ev::RuleBent { model, rule, .. } if rule == "claim_on_move" => {
                self.claim_on_move.insert(*model);
            }
            Ev::Spent { key } if key.contains("Called Shot") => {
                // Called Shot's Aimed Shot costs one action; its use is spent after the shot.
                self.called_shot = true;
                for (_, list) in self.spent.values_mut() {
                    if let Some(c) = list.iter_mut().rev().find(|c| c.2 == "ranged" && c.1 == 2) {
                        c.1 = 1;
                    }
                }
            }
            Ev::Claimed { hero } if !self.claim_on_move.remove(hero) => {
                self.cost(t, l, *hero, 1, "a claim");
            }
            Ev::ItemUsed { model } => self.cost(t, l, *model, 1, "an item"),
            _ => {}
        }
    }
}

impl Activations {
    /// A turnover ends the side's turn: the next activation must be the other side's.
    fn after_turnover(&mut self, t: &Table, l: &Line, id: Option<u32>, cx: &mut Cx) {
        let Some((seq, side)) = self.turnover.take() else {
            return;
        };
        if id.and_then(|i| t.side_of(i)) == Some(side) && t.turns_logged {
            cx.breach(
                Kind::Turnover,
                l.seq,
                format!(
                    "the {} activate again after the turnover at #{seq}: it ends the side's turn",
                    side.name()
                ),
            );
        }
    }
}
