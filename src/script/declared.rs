//! A Behaviour's declared target choice, `targets`, read from its module's table when the file loads:
//! the steps the kernel follows to choose the target natively (`wave::targets`) and that
//! `P.declared` of scripts/lib/priority.lua follows in Lua while a decision is explained. A malformed
//! declaration is the file's error, with the step and the key.

use super::error::ScriptError;
use crate::roster::ProfileKind;
use crate::wave::targets::{Foes, Prefer, TargetStep};
use mlua::{Table, Value};

/// The keys a step may have.
const STEP_KEYS: &[&str] = &[
    "models",
    "buildings",
    "prefer",
    "town_hall",
    "fallback",
    "why",
];

/// The steps of `targets`, a list of tables, in order; `label` names the file in errors.
pub fn targets_of(list: &Table, label: &str) -> Result<Vec<TargetStep>, ScriptError> {
    let err = |at: usize, m: String| ScriptError::Runtime(format!("{label}: targets[{at}]: {m}"));
    let n = list.raw_len();
    if n == 0 {
        return Err(ScriptError::Runtime(format!(
            "{label}: targets is an empty list (each step is a table: `{{ models = \"hero\" }}`)"
        )));
    }
    let mut steps = Vec::with_capacity(n);
    for at in 1..=n {
        let step = match list.raw_get::<Value>(at).map_err(ScriptError::from_lua)? {
            Value::Table(t) => t,
            other => {
                return Err(err(
                    at,
                    format!("a step is a table, not {}", other.type_name()),
                ))
            }
        };
        for pair in step.pairs::<Value, Value>() {
            let (k, _) = pair.map_err(ScriptError::from_lua)?;
            let key = match &k {
                Value::String(s) => s.to_string_lossy(),
                other => return Err(err(at, format!("a {} key", other.type_name()))),
            };
            if !STEP_KEYS.contains(&key.as_str()) {
                let hint = crate::names::closest(&key, STEP_KEYS.iter().copied())
                    .map_or(String::new(), |m| format!(" (did you mean {m:?}?)"));
                return Err(err(
                    at,
                    format!(
                        "unknown key {key:?}{hint} (a step holds {})",
                        STEP_KEYS.join(", ")
                    ),
                ));
            }
        }
        let text = |key: &str| -> Result<Option<String>, ScriptError> {
            match step.raw_get::<Value>(key).map_err(ScriptError::from_lua)? {
                Value::Nil => Ok(None),
                Value::String(s) => Ok(Some(s.to_string_lossy())),
                other => Err(err(
                    at,
                    format!("{key} is a string, not {}", other.type_name()),
                )),
            }
        };
        let flag = |key: &str| -> Result<bool, ScriptError> {
            match step.raw_get::<Value>(key).map_err(ScriptError::from_lua)? {
                Value::Nil => Ok(false),
                Value::Boolean(b) => Ok(b),
                other => Err(err(
                    at,
                    format!("{key} is a boolean, not {}", other.type_name()),
                )),
            }
        };
        text("why")?;
        let models = match text("models")?.as_deref() {
            None => None,
            Some("any") => Some(Foes::Any),
            Some("hero") => Some(Foes::Kind(ProfileKind::Hero)),
            Some("defender") => Some(Foes::Kind(ProfileKind::Defender)),
            Some(other) => {
                return Err(err(
                    at,
                    format!(
                        "models = {other:?} (the other side's \"any\", \"hero\" or \"defender\")"
                    ),
                ))
            }
        };
        let buildings = match text("buildings")?.as_deref() {
            None => false,
            Some("standing") => true,
            Some(other) => {
                return Err(err(
                    at,
                    format!("buildings = {other:?} (only \"standing\": the undestroyed buildings)"),
                ))
            }
        };
        let prefer = match text("prefer")?.as_deref() {
            None => None,
            Some("most_wounds") => Some(Prefer::MostWounds),
            Some("lowest_integrity") => Some(Prefer::LowestIntegrity),
            Some(other) => {
                return Err(err(
                    at,
                    format!("prefer = {other:?} (\"most_wounds\" or \"lowest_integrity\")"),
                ))
            }
        };
        let (town_hall, fallback) = (flag("town_hall")?, flag("fallback")?);
        let nearest = models.is_some() || buildings;
        let step =
            match (nearest, town_hall, fallback) {
                (true, false, false) => TargetStep::Nearest {
                    models,
                    buildings,
                    prefer,
                },
                (false, true, false) if prefer.is_none() => TargetStep::TownHall,
                (false, false, true) if prefer.is_none() => TargetStep::Fallback,
                _ => return Err(err(
                    at,
                    "a step is one of: the nearest `models` and/or `buildings` (with an optional \
                     `prefer`), `town_hall = true`, or `fallback = true`"
                        .to_string(),
                )),
            };
        steps.push(step);
    }
    Ok(steps)
}
