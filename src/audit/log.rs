//! Reading a JSON-lines log into the audit's own types. Nothing here is the kernel's `Event`: the audit
//! reads the log as any outside reader would, so a field the kernel renames or drops shows up here.
//! A line that is not JSON, an event without `seq` (other than `decision`), a kind the audit does not
//! know or an event whose fields do not fit is a [`Problem`] with its line number; reading goes on.

use super::geom::P;
use serde::Deserialize;
use serde_json::Value;

/// What a combat was aimed at.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aim {
    /// A model.
    Model(u32),
    /// A building, by name.
    Building(String),
    /// Anything else (a Barricade token).
    #[serde(untagged)]
    Other(Value),
}

/// One modifier of a roll, as the log names it.
#[derive(Debug, Clone, Deserialize)]
pub struct Modifier {
    /// "attacker" or "defender".
    pub to: String,
    /// The change to that side's total.
    pub value: i32,
    /// Why, in words.
    pub reason: String,
    /// The rule or script that gave it.
    #[serde(default)]
    pub source: String,
}

/// A terrain piece of `setup`.
#[derive(Debug, Clone, Deserialize)]
pub struct Piece {
    /// wood, hill, rocks, pond, field (areas) or wall, hedge (lines).
    pub kind: String,
    /// An area's convex outline.
    #[serde(default)]
    pub area: Vec<P>,
    /// A line's two ends.
    #[serde(default)]
    pub line: Vec<P>,
}

/// A building of `setup`: an axis-aligned rectangle and its Integrity.
#[derive(Debug, Clone, Deserialize)]
pub struct SetupBuilding {
    /// Its name ("Town Hall").
    pub name: String,
    /// South-west corner.
    pub min: P,
    /// North-east corner.
    pub max: P,
    /// Integrity at the start.
    pub integrity: i32,
    /// The most Integrity it may have.
    pub max_integrity: i32,
    /// Whether it is the Town Hall.
    #[serde(default)]
    pub town_hall: bool,
}

/// A token on the table with its geometry (`setup.tokens`, `token_placed`).
#[derive(Debug, Clone, Deserialize)]
pub struct Token {
    /// The token's id.
    #[serde(default)]
    pub token: Option<u32>,
    /// barricade, trap, opportunity, ...
    #[serde(default)]
    pub kind: Option<String>,
    /// A Barricade's or Wall's segment.
    #[serde(default)]
    pub line: Vec<P>,
    /// Its Integrity (a Barricade).
    #[serde(default)]
    pub integrity: Option<i32>,
}

/// The events the audit reads, with the fields it reads. Events it knows but does not need are
/// [`Ev::Other`].
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Ev {
    /// The table at the start of the game.
    Setup {
        #[serde(default)]
        terrain: Vec<Piece>,
        #[serde(default)]
        buildings: Vec<SetupBuilding>,
        #[serde(default)]
        tokens: Vec<Token>,
    },
    Round {
        wave: u32,
        round: u32,
    },
    Turn {
        side: String,
    },
    Placed {
        model: u32,
        name: String,
        profile: Option<String>,
        side: Option<String>,
        base: Option<f64>,
        pos: P,
    },
    Removed {
        model: u32,
        reason: String,
    },
    Activation {
        model: u32,
        dice: Vec<u8>,
        #[serde(default)]
        automatic: u8,
        successes: u8,
        failures: u8,
        turnover: bool,
    },
    TaskProgress {
        model: u32,
    },
    GroupActivation {
        members: Vec<u32>,
    },
    Moved {
        model: u32,
        from: P,
        to: P,
        kind: Option<String>,
        reach: Option<f64>,
        band: Option<String>,
        band_lost: Option<String>,
        actions: Option<u8>,
        stop: Option<String>,
        #[serde(default)]
        via: Vec<P>,
        #[serde(default)]
        traits: Vec<String>,
        #[serde(default)]
        leg: bool,
    },
    Combat {
        kind: String,
        attacker: u32,
        target: Aim,
        #[serde(default)]
        modifiers: Vec<Modifier>,
        winner: Option<String>,
        result: String,
        #[serde(default)]
        free_hack: bool,
        reaction: Option<String>,
        /// Concentrated Shooting: every shooter, the one whose action it is first.
        #[serde(default)]
        shooters: Vec<u32>,
    },
    Condition {
        model: u32,
        condition: String,
        added: bool,
    },
    /// A Wound healed or a condition cleared (`condition` names it).
    Healed {
        model: u32,
        #[serde(default)]
        condition: Option<String>,
    },
    Damage {
        building: String,
        amount: i32,
        integrity: i32,
        destroyed: bool,
    },
    Fire {
        by: Option<u32>,
        lit: bool,
        source: Option<String>,
    },
    BarricadeDamage {
        token: u32,
        amount: i32,
        integrity: i32,
        destroyed: bool,
    },
    Spell {
        caster: u32,
        spell: String,
        power: u8,
        target: Option<u32>,
    },
    Summoned {
        model: u32,
        caster: u32,
    },
    WallRaised {
        token: u32,
        #[serde(default)]
        line: Vec<P>,
        integrity: Option<i32>,
    },
    WallFallen {
        token: u32,
    },
    TokenPlaced(Token),
    GroupBuilt {
        number: u32,
        behaviour: String,
    },
    GroupDeployed {
        number: u32,
        models: Vec<u32>,
    },
    WaveBuilt {},
    Deployed {
        model: u32,
        from: Option<P>,
        to: P,
    },
    Council {
        what: String,
        building: Option<String>,
        token: Option<u32>,
        #[serde(default)]
        line: Vec<P>,
        refused: Option<String>,
    },
    Rejoined {
        model: u32,
    },
    Claimed {
        hero: u32,
    },
    ItemUsed {
        model: u32,
    },
    Ability {
        model: u32,
        name: String,
        source: String,
    },
    Repaired {
        building: String,
        amount: i32,
        integrity: i32,
    },
    TrackSet {
        track: String,
        value: i32,
        min: i32,
        max: i32,
        #[serde(default)]
        loses_at: Option<i32>,
    },
    TrackMoved {
        track: String,
        from: i32,
        to: i32,
        by: i32,
    },
    RuleBent {
        model: u32,
        rule: String,
        source: String,
    },
    Spent {
        key: String,
    },
    BuildingAbility {
        building: String,
        ability: String,
        #[serde(default)]
        models: Vec<u32>,
    },
    Ambush {
        number: u32,
        models: Vec<u32>,
    },
    FreeThrow {
        model: u32,
    },
    /// A scenario's battle: the rounds its later Groups arrive on.
    BattleSet {
        #[serde(default)]
        arriving: Vec<u32>,
    },
    /// The game ended at a scenario's conclusion or victory script.
    Concluded {
        cause: String,
    },
    /// An event the audit knows and does not read.
    #[serde(skip)]
    Other(String),
}

/// Events the audit knows by name and reads nothing from.
const KNOWN: &[&str] = &[
    "vp_scored",
    "objective_held",
    "result_changed",
    "quality_worsened",
    "outcome",
    "morale",
    "trap",
    "dispel",
    "resisted",
    "out_of_power",
    "declared",
    "objective",
    "weapon_broken",
    "choice",
    "edges_revealed",
    "refused",
    "opportunity_placed",
    "reward_resolved",
    "supplies_gained",
    "herbs_gained",
    "defender_joining",
    "item_gained",
    "rerolled",
    "effect_granted",
    "roll",
    "task_lost",
    "game_over",
    "game_ended",
];

/// One event of a log: where it was, its number, its cause link and what it says.
#[derive(Debug, Clone)]
pub struct Line {
    /// 1-based line number in its file.
    pub no: usize,
    /// The event's `seq`.
    pub seq: u64,
    /// The event's `cause`, when it has one.
    pub cause: Option<u64>,
    /// The event's kind name as logged.
    pub name: String,
    /// What the audit read of it.
    pub ev: Ev,
}

/// A line the audit could not read as an event.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// 1-based line number.
    pub no: usize,
    /// The event's `seq` when the line had one.
    pub seq: Option<u64>,
    /// What is wrong, in words.
    pub text: String,
}

/// Read one line (1-based `no`): `Ok(None)` for a blank line or a `decision` (which has no `seq`).
pub fn read_line(no: usize, text: &str) -> Result<Option<Line>, Problem> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let bad = |seq, text: String| Problem { no, seq, text };
    let v: Value = serde_json::from_str(text).map_err(|e| bad(None, format!("not JSON: {e}")))?;
    let name = v
        .get("event")
        .and_then(Value::as_str)
        .ok_or_else(|| bad(None, "no \"event\" field".to_string()))?
        .to_string();
    if name == "decision" {
        return Ok(None);
    }
    let seq = v.get("seq").and_then(Value::as_u64).ok_or_else(|| {
        bad(
            None,
            format!("a {name} event without a whole-number \"seq\""),
        )
    })?;
    let cause = v.get("cause").and_then(Value::as_u64);
    let ev = if KNOWN.contains(&name.as_str()) {
        Ev::Other(name.clone())
    } else {
        serde_json::from_value::<Ev>(v).map_err(|e| {
            let msg = e.to_string();
            if msg.starts_with("unknown variant") {
                bad(Some(seq), format!("unknown event kind {name:?}"))
            } else {
                bad(Some(seq), format!("malformed {name} event: {msg}"))
            }
        })?
    };
    Ok(Some(Line {
        no,
        seq,
        cause,
        name,
        ev,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_refuses() {
        let l = read_line(
            1,
            r#"{"seq":3,"event":"moved","model":2,"from":{"x":1.0,"y":1.0},"to":{"x":2.0,"y":1.0},"stopped_by":null,"leg":true}"#,
        );
        assert!(matches!(
            l,
            Ok(Some(Line {
                seq: 3,
                ev: Ev::Moved { leg: true, .. },
                ..
            }))
        ));
        assert!(matches!(
            read_line(2, r#"{"event":"decision","at":1}"#),
            Ok(None)
        ));
        let p = read_line(3, r#"{"seq":4,"event":"teleported","model":2}"#);
        assert!(
            matches!(p, Err(Problem { seq: Some(4), ref text, .. }) if text.contains("unknown event"))
        );
        assert!(read_line(4, "{oops").is_err());
        let c = read_line(
            5,
            r#"{"seq":5,"event":"combat","kind":"melee","attacker":1,"target":{"model":2},"modifiers":[],"winner":null,"result":"tie","lethal":null}"#,
        );
        assert!(matches!(
            c,
            Ok(Some(Line {
                ev: Ev::Combat {
                    target: Aim::Model(2),
                    ..
                },
                ..
            }))
        ));
    }
}
