//! Why the AI did what it did: the decisions scripts make (a Behaviour's target, objective and
//! action; the hero policy's activations, orders and Council purchases), kept beside the event log
//! of a game that asks for them ([`super::Game::explain_decisions`]).
//!
//! Owns the shape of a decision and how it reads in words. A decision is not one of the game's
//! events: it changes nothing, so it takes no event number, and the log is the same event for event
//! whether decisions are kept or not. It names the events it led to instead (`at`, up to `until`),
//! and where a log is written (`play --log`, the viewer) it is written as a `decision` event just
//! before the first of them. It never decides anything and never rolls.

use super::model::ModelId;
use serde::{Deserialize, Serialize};

/// What a script chose, among what, why, and where in the script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Decision {
    /// The number of the first event it led to: the next event logged after it was made.
    pub at: u64,
    /// One past the last event it led to, once the kernel has carried it out (`None` while under
    /// way). Equal to `at` when it led to no event (a model that lost its action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<u64>,
    /// The model it was made for (none for a Council purchase).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelId>,
    /// Who decided: a Behaviour's name ("Hunter") or the hero policy's ("policy default").
    pub by: String,
    /// What was decided.
    pub decides: Decides,
    /// What was chosen, in words ("Captain Maren (1)", "melee Orc Warrior (3)", "2 dice").
    pub chose: String,
    /// The script's own reason (`ctx:why`), if it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What it weighed, with the score it gave each (`ctx:why`'s candidates and scores).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Candidate>,
    /// The script that decided (as the log names scripts: "scripts/behaviours/hunter.lua").
    pub script: String,
    /// The line of that script: where it gave its reason, else where the entry point is defined.
    pub line: u32,
    /// Where the reason was said, when that is another file (a shared library the script called,
    /// as `scripts/lib/tactics.lua:352`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
}

/// One option a script weighed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Candidate {
    /// The option in words ("Captain Maren (1)", "Forge", "(12.0, 30.5)").
    pub name: String,
    /// The score the script gave it (a distance, a threat rank ...), when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

/// The kinds of decision scripts make.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Decides {
    /// A Behaviour's target (§6.3).
    Target,
    /// A Behaviour's objective for its Group (§6.3 Guardian).
    Objective,
    /// A Behaviour's action toward its target (§6.2).
    Action,
    /// The hero policy's nomination: whom to activate, with how many dice, declaring or not, with
    /// whom as a group (§3.1).
    Activation,
    /// The hero policy's order for one action.
    Order,
    /// The hero policy's plan: the orders for the rest of an activation (`plan`).
    Plan,
    /// The hero policy's Council purchases (§7.2).
    Council,
}

impl Decides {
    /// The word the log and `:why` use.
    pub fn as_str(self) -> &'static str {
        match self {
            Decides::Target => "target",
            Decides::Objective => "objective",
            Decides::Action => "action",
            Decides::Activation => "activation",
            Decides::Order => "order",
            Decides::Plan => "plan",
            Decides::Council => "Council purchases",
        }
    }
}

impl Decision {
    /// Whether event `seq` is one this decision led to.
    pub fn led_to(&self, seq: u64) -> bool {
        seq >= self.at && self.until.is_none_or(|u| seq < u)
    }

    /// The decision in words, for `:why`, the viewer and the log in words: who decided what, what it
    /// weighed, why, and where.
    pub fn words(&self, who: &str) -> String {
        let mut s = match self.decides {
            Decides::Council => format!("{} buys: {}", self.by, self.chose),
            d => format!(
                "{who} ({}) chose its {}: {}",
                self.by,
                d.as_str(),
                self.chose
            ),
        };
        if let Some(r) = &self.reason {
            s.push_str(&format!(" — {r}"));
        }
        if !self.candidates.is_empty() {
            let weighed: Vec<String> = self
                .candidates
                .iter()
                .map(|c| match c.score {
                    Some(v) => format!("{} {}", c.name, score_words(v)),
                    None => c.name.clone(),
                })
                .collect();
            s.push_str(&format!("; weighed {}", weighed.join(", ")));
        }
        match &self.said {
            Some(at) => s.push_str(&format!(" [{}:{}, said at {at}]", self.script, self.line)),
            None => s.push_str(&format!(" [{}:{}]", self.script, self.line)),
        }
        s
    }
}

/// A score as people read it: whole numbers plainly, others to two places.
fn score_words(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// The decisions of a game, when it keeps them: in the order they were made.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Decisions {
    list: Vec<Decision>,
    /// How many of `list` are carried out (have their `until`): the rest are under way.
    #[serde(default)]
    done: usize,
}

impl Decisions {
    /// Every decision so far, oldest first.
    pub fn all(&self) -> &[Decision] {
        &self.list
    }

    /// Every decision, taken out (a finished game's).
    pub fn into_vec(self) -> Vec<Decision> {
        self.list
    }

    /// Keep `d`, made now (its `at` set by the caller). A decision still under way that was made
    /// before an event since is carried out by now: what follows comes of `d` (a target and the
    /// action toward it are made at the same point, and both stay under way).
    pub(super) fn push(&mut self, d: Decision) {
        if self.list[self.done..].iter().any(|o| o.at < d.at) {
            self.done(d.at);
        }
        self.list.push(d);
    }

    /// The decisions under way are carried out: the events they led to end before `next`.
    pub(super) fn done(&mut self, next: u64) {
        for d in &mut self.list[self.done..] {
            d.until = Some(next.max(d.at));
        }
        self.done = self.list.len();
    }

    /// Back to the first `len` decisions (a restored checkpoint).
    pub(super) fn truncate(&mut self, len: usize) {
        self.list.truncate(len);
        self.done = self.done.min(len);
    }

    /// The decisions behind event `seq`: those that led to it (a target and the action toward it,
    /// say). Empty when no script decided it (the rules' own events: the End Sequence, a wave's
    /// deployment, a roll the rules call for).
    pub fn behind(&self, seq: u64) -> Vec<&Decision> {
        // Decisions are made in order, and each leads to the events after it: only the latest ones
        // made at or before `seq` can have led to it.
        let upto = self.list.partition_point(|d| d.at <= seq);
        let mut out: Vec<&Decision> = self.list[..upto]
            .iter()
            .rev()
            .take_while(|d| d.led_to(seq))
            .collect();
        out.reverse();
        out
    }
}

/// A written log (`play --log`): one JSON event a line, each decision as a `decision` event just
/// before the first event it led to (those made after the last event at the end). Without
/// decisions, exactly the events' lines.
pub fn log_lines(events: &[super::Event], decisions: &[Decision]) -> serde_json::Result<String> {
    #[derive(Serialize)]
    struct Line<'a> {
        event: &'static str,
        #[serde(flatten)]
        decision: &'a Decision,
    }
    let mut out = String::new();
    let mut next = decisions.iter().peekable();
    let mut put = |out: &mut String, upto: u64| -> serde_json::Result<()> {
        while let Some(d) = next.next_if(|d| d.at <= upto) {
            out.push_str(&serde_json::to_string(&Line {
                event: "decision",
                decision: d,
            })?);
            out.push('\n');
        }
        Ok(())
    };
    for e in events {
        put(&mut out, e.seq)?;
        out.push_str(&serde_json::to_string(e)?);
        out.push('\n');
    }
    put(&mut out, u64::MAX)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(at: u64, until: Option<u64>, decides: Decides) -> Decision {
        Decision {
            at,
            until,
            model: Some(ModelId(3)),
            by: "Hunter".into(),
            decides,
            chose: "Captain Maren (1)".into(),
            reason: Some("nearest hero".into()),
            candidates: vec![
                Candidate {
                    name: "Captain Maren (1)".into(),
                    score: Some(4.25),
                },
                Candidate {
                    name: "Tobin the Marksman (2)".into(),
                    score: Some(7.0),
                },
            ],
            script: "scripts/behaviours/hunter.lua".into(),
            line: 8,
            said: None,
        }
    }

    #[test]
    fn behind_finds_the_decisions_that_led_to_an_event() {
        let mut all = Decisions::default();
        all.push(d(10, None, Decides::Target));
        all.push(d(10, None, Decides::Action));
        all.done(13);
        all.push(d(20, None, Decides::Order));
        all.done(20); // it led to nothing (a lost action)
        all.push(d(25, None, Decides::Order));
        all.push(d(25, None, Decides::Order));
        // A decision made after events of one under way carries that one out.
        all.push(d(30, None, Decides::Order));
        let at = |seq| {
            all.behind(seq)
                .iter()
                .map(|d| (d.at, d.decides))
                .collect::<Vec<_>>()
        };
        assert_eq!(at(9), vec![]);
        assert_eq!(at(10), vec![(10, Decides::Target), (10, Decides::Action)]);
        assert_eq!(at(12).len(), 2);
        // Between the first action's events and the next decision: the rules' own.
        assert_eq!(at(13), vec![]);
        assert_eq!(at(20), vec![]);
        assert_eq!(at(25), vec![(25, Decides::Order), (25, Decides::Order)]);
        assert_eq!(at(29).len(), 2);
        // Under way: every event from its first.
        assert_eq!(at(30), vec![(30, Decides::Order)]);
        assert_eq!(at(99), vec![(30, Decides::Order)]);
    }

    #[test]
    fn a_decision_reads_with_its_reason_candidates_and_place() {
        let text = d(10, Some(12), Decides::Target).words("Orc Warrior (3)");
        assert_eq!(
            text,
            "Orc Warrior (3) (Hunter) chose its target: Captain Maren (1) — nearest hero; weighed \
             Captain Maren (1) 4.25, Tobin the Marksman (2) 7 [scripts/behaviours/hunter.lua:8]"
        );
    }

    #[test]
    fn truncating_keeps_what_was_carried_out_consistent() {
        let mut all = Decisions::default();
        all.push(d(1, None, Decides::Order));
        all.done(3);
        all.push(d(3, None, Decides::Order));
        all.truncate(1);
        assert_eq!(all.all().len(), 1);
        all.push(d(3, None, Decides::Order));
        all.done(5);
        assert_eq!(all.all()[1].until, Some(5));
        assert_eq!(all.all()[0].until, Some(3));
    }
}
