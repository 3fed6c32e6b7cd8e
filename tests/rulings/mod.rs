//! The rulings of issue 37 (SUPPLEMENT §11, core §3.1, §3.4, §3.5, §3.7, §6.2) read as properties of a
//! whole game: a game is played with the frame recorder on, then walked event by event with the table as
//! it stood just before each event, and every place a ruling applies is checked. Each check returns what
//! it checked (`reached`, so a test can insist the rule was met at all) and every breach in words.
//!
//! The checks are written from the rules, not by calling the kernel's rule functions: they read the
//! log's events, the models' conditions and positions, and measure with the geometry (distance, sight).
#![allow(dead_code)] // each test file uses the checks it needs

use serde_json::Value;
use std::collections::BTreeSet;
use village::geometry::{sight_with_tol, Sight};
use village::roster::{Rosters, SpellKind};
use village::rules::query::gap;
use village::script::repl::NewGame;
use village::script::{Limits, ScriptHost};
use village::state::{Condition, Event, EventKind, Game, Model, ModelId, Side, Target};
use village::viewer::Recording;

/// The built-in rosters.
pub fn rosters() -> Rosters {
    Rosters::load(&[Rosters::builtin_root()]).expect("the built-in rosters load")
}

/// `village play --auto --length LENGTH --seed SEED --heroes HEROES`, recorded.
pub fn play(length: &str, seed: u64, heroes: &str) -> Recording {
    let layers = [Rosters::builtin_root()];
    let host = ScriptHost::open(&layers, Limits::default(), seed).expect("the scripts load");
    let new = NewGame {
        seed,
        length: length.into(),
        heroes: heroes.split(',').map(String::from).collect(),
        preset: village::roster::DEFAULT_PRESET.to_string(),
        scenario: village::scenario::DEFAULT_SCENARIO.to_string(),
        variants: Vec::new(),
        policy: "default".into(),
    };
    host.play_recorded(&new, "generated")
        .unwrap_or_else(|e| panic!("{length} seed {seed} ({heroes}): {e}"))
}

/// Calls `f` with every event of play and the game as it stood just before it (positions, conditions,
/// Wounds, tokens: what the frames keep).
pub fn walk(rec: &Recording, mut f: impl FnMut(&Game, &Event)) {
    let mut game = rec.start.clone();
    let mut frames = rec.frames.iter().peekable();
    let setup = rec.start.log().len() as u64;
    for e in rec.events.iter().filter(|e| e.seq >= setup) {
        while let Some(fr) = frames.next_if(|fr| fr.event < e.seq) {
            fr.apply(&mut game);
        }
        f(&game, e);
    }
}

/// What a check found: how often the rule applied, and each breach.
#[derive(Debug, Default)]
pub struct Found {
    pub reached: usize,
    /// A second count a check keeps (both conditions at once, an Enemy Group larger than the cap).
    pub also: usize,
    pub breaches: Vec<String>,
}

impl Found {
    /// Panics with the breaches, if any, naming the game.
    pub fn assert_clean(&self, game: &str) {
        assert!(
            self.breaches.is_empty(),
            "{game}: {} breach(es) in {} case(s):\n{}",
            self.breaches.len(),
            self.reached,
            self.breaches
                .iter()
                .take(12)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

fn model(g: &Game, id: ModelId) -> Option<&Model> {
    g.models.iter().find(|m| m.id == id)
}

fn json(e: &Event) -> Value {
    serde_json::to_value(e).expect("an event is JSON")
}

/// The modifiers of a combat event to `role` ("attacker" / "defender") from the rules whose reason
/// contains `words`, summed.
fn rule_mods(ev: &Value, role: &str, words: &str) -> i64 {
    ev["modifiers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["to"] == role && m["source"] == "rules")
        .filter(|m| m["reason"].as_str().is_some_and(|r| r.contains(words)))
        .filter_map(|m| m["value"].as_i64())
        .sum()
}

/// Melee is simultaneous (§3.4; SUPPLEMENT §11): in every melee, the model fighting a Defenseless or
/// Transfixed model has +2 and the model fighting an Entangled one +1, whoever declared the attack,
/// both when both hold. `reached` counts melees in which the attacker held such a condition, `also`
/// those in which one model held both.
pub fn melee_conditions(rec: &Recording, rosters: &Rosters) -> Found {
    let (plus2, plus1) = (
        i64::from(rosters.rules.melee.defenseless),
        i64::from(rosters.rules.melee.entangled),
    );
    let mut out = Found::default();
    walk(rec, |g, e| {
        let EventKind::Combat {
            kind,
            attacker,
            target: Target::Model(defender),
            ..
        } = &e.kind
        else {
            return;
        };
        if *kind != village::state::RollKind::Melee {
            return;
        }
        let (Some(a), Some(d)) = (model(g, *attacker), model(g, *defender)) else {
            return;
        };
        let ev = json(e);
        let held = |m: &Model| {
            (
                m.has(Condition::Defenseless) || m.has(Condition::Transfixed),
                m.has(Condition::Entangled),
            )
        };
        if held(a).0 || held(a).1 {
            out.reached += 1;
        }
        if (held(a).0 && held(a).1) || (held(d).0 && held(d).1) {
            out.also += 1;
        }
        // The role that fights each model, and what that model holds.
        for (role, opponent) in [("attacker", d), ("defender", a)] {
            let (weak, entangled) = held(opponent);
            let want2 = if weak { plus2 } else { 0 };
            let want1 = if entangled { plus1 } else { 0 };
            let got2 = rule_mods(&ev, role, "Defenseless or Transfixed");
            let got1 = rule_mods(&ev, role, "Entangled");
            if (got2, got1) != (want2, want1) {
                out.breaches.push(format!(
                    "#{}: {} fights {} ({:?}): the {role} has +{got2} and +{got1}, the rules give \
                     +{want2} (Defenseless/Transfixed) and +{want1} (Entangled)",
                    e.seq, role, opponent.name, opponent.conditions
                ));
            }
        }
    });
    out
}

/// Snare Master (SUPPLEMENT §11): a Trap that Entangles (its `source` is Grimm's script) rolls nothing —
/// its event has no dice — and the model is Entangled. `reached` counts such Traps.
pub fn snare_traps(rec: &Recording) -> Found {
    let mut out = Found::default();
    walk(rec, |_, e| {
        let ev = json(e);
        if ev["event"] != "trap" || ev["source"].is_null() {
            return;
        }
        out.reached += 1;
        for key in ["trap_die", "model_die", "trap_total", "model_total"] {
            if !ev[key].is_null() {
                out.breaches.push(format!(
                    "#{}: the Snare Master's Trap rolled ({key} {})",
                    e.seq, ev[key]
                ));
            }
        }
        if ev["result"] != "entangled" {
            out.breaches.push(format!(
                "#{}: the Snare Master's Trap gave {} instead of Entangling",
                e.seq, ev["result"]
            ));
        }
    });
    out
}

/// A bonus "on that activation's attack" (Ride Down; Dashing, "the same turn he comes in contact")
/// applies only to attacks in the model's own activation, never to a Free Hack (SUPPLEMENT §11).
/// `reached` counts the bonuses given, `also` the Free Hacks made by a model whose scripts give one.
pub fn own_activation_bonuses(rec: &Recording, rosters: &Rosters) -> Found {
    const BONUSES: [&str; 2] = ["Ride Down", "Dashing"];
    let mut out = Found::default();
    let mut activating: BTreeSet<ModelId> = BTreeSet::new();
    let mut group: Option<Vec<ModelId>> = None;
    walk(rec, |g, e| match &e.kind {
        EventKind::GroupActivation { members, .. } => group = Some(members.clone()),
        EventKind::Activation { model, .. } => {
            activating = match group.take() {
                Some(m) if m.first() == Some(model) => m.into_iter().collect(),
                _ => [*model].into_iter().collect(),
            };
        }
        EventKind::Combat {
            attacker,
            modifiers,
            free_hack,
            ..
        } => {
            let holder = model(g, *attacker).is_some_and(|m| {
                m.has_trait("Dashing")
                    || rosters
                        .profile(&m.name)
                        .and_then(|p| p.signature.as_ref())
                        .is_some_and(|s| BONUSES.contains(&s.name.as_str()))
            });
            if holder && *free_hack {
                out.also += 1;
            }
            for m in modifiers
                .iter()
                .filter(|m| BONUSES.contains(&m.reason.as_str()))
            {
                out.reached += 1;
                if *free_hack || !activating.contains(attacker) {
                    out.breaches.push(format!(
                        "#{}: {} (+{}) on an attack by model {} outside its own activation{}",
                        e.seq,
                        m.reason,
                        m.value,
                        attacker.0,
                        if *free_hack { " (a Free Hack)" } else { "" }
                    ));
                }
            }
        }
        EventKind::ResultChanged { reason, .. } if BONUSES.contains(&reason.as_str()) => {
            // Ride Down's "Recoils twice": the combat it changed is its cause.
            let Some(cause) = e.cause else { return };
            let Some(combat) = rec.events.iter().find(|c| c.seq == cause) else {
                return;
            };
            if let EventKind::Combat {
                attacker,
                free_hack,
                ..
            } = &combat.kind
            {
                if *free_hack || !activating.contains(attacker) {
                    out.breaches.push(format!(
                        "#{}: {reason} changed the result of #{cause} outside model {}'s own \
                         activation",
                        e.seq, attacker.0
                    ));
                }
            }
        }
        _ => {}
    });
    out
}

/// §6.2: a Mindless or Guardian Group (a Behaviour whose roster entry says `turnover = false`) never
/// causes a turnover; on two failures it simply receives no action. Its `activation` events never say
/// `turnover`. `reached` counts such activations with two failures or more.
pub fn no_turnover_behaviours(rec: &Recording, rosters: &Rosters) -> Found {
    let mut out = Found::default();
    walk(rec, |g, e| {
        let EventKind::Activation {
            model: id,
            failures,
            turnover,
            successes,
            ..
        } = &e.kind
        else {
            return;
        };
        let Some(m) = model(g, *id) else { return };
        let Some(b) = m.behaviour.as_deref().and_then(|b| rosters.behaviour(b)) else {
            return;
        };
        if b.turnover {
            return;
        }
        if *failures >= 2 {
            out.reached += 1;
            if *successes > 0 {
                out.also += 1;
            }
        }
        if *turnover {
            out.breaches.push(format!(
                "#{}: a {} Group's activation is logged as a turnover ({failures} failures)",
                e.seq, b.name
            ));
        }
    });
    out
}

/// §3.1: up to five models activate together on one roll, and Enemy Groups always activate this way
/// (§6.2). `reached` counts group activations, `also` those of an Enemy Group that had more models on
/// the table than one activation holds.
pub fn group_sizes(rec: &Recording, rosters: &Rosters) -> Found {
    let max = rosters.rules.activation.group_max_models as usize;
    let mut out = Found::default();
    walk(rec, |g, e| {
        let EventKind::GroupActivation { members, .. } = &e.kind else {
            return;
        };
        out.reached += 1;
        let first = members.first().and_then(|id| model(g, *id));
        if let Some(f) = first.filter(|f| f.side == Side::Enemies && f.group.is_some()) {
            let size = g
                .models
                .iter()
                .filter(|m| m.side == Side::Enemies && m.group == f.group)
                .count();
            if size > max {
                out.also += 1;
            }
        }
        if members.len() > max {
            out.breaches.push(format!(
                "#{}: {} models activate together (at most {max})",
                e.seq,
                members.len()
            ));
        }
    });
    out
}

/// The closest-target rule for a spell used as a ranged attack (§3.7 → §3.5): no enemy of the caster
/// stands closer than its target that it could have attacked with the same Power — within range, in
/// clear sight (Cover may be ignored), not Engaged with another model — unless the rules let it be
/// ignored (Defenseless, worth less than half the caster's cost) or the target is Big or Huge.
/// `reached` counts spell attacks, `also` those past a closer enemy that could be ignored.
pub fn spell_targets(rec: &Recording, rosters: &Rosters) -> Found {
    let rules = &rosters.rules;
    let tol = rules.bases.contact_tolerance;
    let worth = |m: &Model| rosters.profile(&m.name).map_or(0, |p| p.cost());
    let mut out = Found::default();
    walk(rec, |g, e| {
        let EventKind::Spell {
            caster,
            spell,
            power,
            target: Some(target),
            ..
        } = &e.kind
        else {
            return;
        };
        if !rosters
            .spell(spell)
            .is_some_and(|s| s.is(SpellKind::Attack))
        {
            return;
        }
        let (Some(c), Some(t)) = (model(g, *caster), model(g, *target)) else {
            return;
        };
        out.reached += 1;
        if t.has_trait("Big") || t.has_trait("Huge") {
            return;
        }
        let range = rules
            .measures
            .get(rules.magic.power_ranges[usize::from(*power) - 1]);
        let walls = village::rules::ranged::cover_segments(g);
        let d = gap(c, t);
        let engaged_elsewhere = |x: &Model| {
            g.models
                .iter()
                .any(|o| o.side != x.side && o.id != x.id && gap(o, x) <= tol)
        };
        for x in g.models.iter().filter(|x| x.side != c.side && x.id != t.id) {
            let dx = gap(c, x);
            if dx >= d - 1e-9 || dx > range + 1e-9 || engaged_elsewhere(x) {
                continue;
            }
            if sight_with_tol(&g.table, &c.circle(), &x.circle(), &walls, tol) != Sight::Clear {
                continue;
            }
            let ignorable = x.has(Condition::Defenseless) || worth(x) * 2 < worth(c);
            if ignorable {
                out.also += 1;
                continue;
            }
            out.breaches.push(format!(
                "#{}: {} ({}) casts {spell} at {} ({}) {d:.2}\" away past {} ({}) at {dx:.2}\", a \
                 legal target it may not ignore",
                e.seq, c.name, c.id.0, t.name, t.id.0, x.name, x.id.0
            ));
            return;
        }
    });
    out
}
