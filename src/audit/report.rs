//! What the audit found: every breach with its file, game, event `seq` and a sentence; the summary
//! (games, events, breaches by kind); text and JSON.

use serde::Serialize;
use std::collections::BTreeMap;

/// The kinds of breach, one per rule the audit checks (docs/commands.md lists what each reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The log itself: a line that is not an event, a gap in `seq`, an unknown event, a model moving
    /// before it is placed, a missing `setup` or field.
    Log,
    /// A move or step longer than its reach, or a reach longer than the band less terrain allows.
    MoveLength,
    /// A move's band or reach that does not agree with the profile and the terrain crossed.
    MoveBand,
    /// A move action that is not one straight segment (`via`, or a further leg).
    MoveBent,
    /// A move that comes into contact with an enemy and goes on, or ends in contact without saying so.
    MoveContact,
    /// A path through another model's base, a building, rocks or a pond.
    MoveThrough,
    /// A Slow model's second move action in one activation.
    Slow,
    /// More than one attack by a model in one turn.
    Attacks,
    /// More actions than the activation's successes.
    Actions,
    /// A group activation of more models than the rules allow.
    GroupSize,
    /// A Free Hack on a model that does not leave the hacker, or that has Free Disengage against it.
    FreeHack,
    /// A bonus of the attacker's own activation (Ride Down, Dashing) outside it.
    HackBonus,
    /// A melee without the +2 (Defenseless, Transfixed) or +1 (Entangled) against the hindered model.
    ConditionModifier,
    /// Integrity that does not follow from the last known value and the damage or repair.
    Integrity,
    /// A game that goes on after its end, or ends without a cause.
    GameEnd,
    /// A hero placed before deployment.
    Deploy,
    /// A turnover that is not two failures, or a turn that goes on after one.
    Turnover,
    /// An activation whose successes and failures do not add up to its dice.
    ActivationRoll,
    /// A ranged attack past a closer legal target that may not be ignored.
    ClosestTarget,
    /// A track's marker that does not move from where it stood by what was asked, within its bounds.
    Track,
}

impl Kind {
    /// The kind's name as the report prints it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Log => "log",
            Kind::MoveLength => "move_length",
            Kind::MoveBand => "move_band",
            Kind::MoveBent => "move_bent",
            Kind::MoveContact => "move_contact",
            Kind::MoveThrough => "move_through",
            Kind::Slow => "slow",
            Kind::Attacks => "attacks",
            Kind::Actions => "actions",
            Kind::GroupSize => "group_size",
            Kind::FreeHack => "free_hack",
            Kind::HackBonus => "hack_bonus",
            Kind::ConditionModifier => "condition_modifier",
            Kind::Integrity => "integrity",
            Kind::GameEnd => "game_end",
            Kind::Deploy => "deploy",
            Kind::Turnover => "turnover",
            Kind::ActivationRoll => "activation_roll",
            Kind::ClosestTarget => "closest_target",
            Kind::Track => "track",
        }
    }
}

/// One breach.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Breach {
    /// The log file.
    pub file: String,
    /// The game's number in the audit (1-based, over every file).
    pub game: usize,
    /// The event's `seq`, when it has one.
    pub seq: Option<u64>,
    /// The line of the file, for a line that could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What rule.
    pub kind: Kind,
    /// What happened, in a sentence.
    pub text: String,
}

/// Everything the audit found.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    /// Games read.
    pub games: usize,
    /// Events read.
    pub events: usize,
    /// Every breach, in log order.
    pub breaches: Vec<Breach>,
}

impl Report {
    /// Breaches by kind name.
    pub fn by_kind(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        for b in &self.breaches {
            *m.entry(b.kind.name()).or_insert(0) += 1;
        }
        m
    }

    /// Add another report's games, events and breaches.
    pub fn merge(&mut self, other: Report) {
        self.games += other.games;
        self.events += other.events;
        self.breaches.extend(other.breaches);
    }

    /// The summary line: "audit: 3 games, 2,410 events, 4 breaches (move_bent 3, actions 1)".
    pub fn summary(&self) -> String {
        let kinds: Vec<String> = self
            .by_kind()
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let tail = if kinds.is_empty() {
            String::new()
        } else {
            format!(" ({})", kinds.join(", "))
        };
        format!(
            "audit: {} games, {} events, {} breaches{tail}",
            self.games,
            self.events,
            self.breaches.len()
        )
    }

    /// One line a breach, then the summary.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for b in &self.breaches {
            let at = match b.seq {
                Some(q) => format!("#{q}"),
                None => "-".to_string(),
            };
            s.push_str(&format!("{} {at} {}: {}\n", b.file, b.kind.name(), b.text));
        }
        s.push_str(&self.summary());
        s.push('\n');
        s
    }

    /// The JSON form: games, events, breaches by kind and every breach.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "games": self.games,
            "events": self.events,
            "by_kind": self.by_kind(),
            "breaches": self.breaches,
        })
    }
}
