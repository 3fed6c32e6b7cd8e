//! Reading what a model's scripts answer when the kernel asks about a roll or a rule: modifiers
//! (`melee_modifier`, `ranged_modifier`, `structural_modifier`), `win_rules`, `on_result` and
//! `on_friend_result`, `morale`, `movement`, a computed `permissions`, `order_cost` and
//! `on_activation_roll`. Each answer goes through the bounded conversion of `api::answer` and is read
//! against its shape (a class of `api/spec`): a misspelt key, a wrong type, NaN or a number out of range
//! is an error naming the script, the hook and the field; nothing is ignored.

use super::*;
use crate::rules::hooks::{CostChange, Reroll, RerollDice};
use crate::script::api::answer::{self, Fields, Key, Plain, Reader, Shape};

pub(super) const MODIFIER: Shape = Shape {
    class: "Modifier",
    keys: &["value", "to", "reason"],
};
pub(super) const WIN_RULES: Shape = Shape {
    class: "WinRules",
    keys: &["lethal", "gruesome_multiplier"],
};
pub(super) const RESULT_CHANGE: Shape = Shape {
    class: "ResultChange",
    keys: &["result", "recoil", "reason"],
};
pub(super) const MORALE_ANSWER: Shape = Shape {
    class: "MoraleAnswer",
    keys: &["immune", "modifier", "reason"],
};
pub(super) const MOVE_TRAITS: Shape = Shape {
    class: "MoveTraits",
    keys: &[
        "flying",
        "ignore_terrain",
        "free_disengage",
        "band",
        "one_move",
    ],
};
pub(super) const COST_ANSWER: Shape = Shape {
    class: "CostAnswer",
    keys: &["cost", "spend", "reason"],
};
pub(super) const REROLL_ANSWER: Shape = Shape {
    class: "RerollAnswer",
    keys: &["reroll", "spend", "reason"],
};

/// The shapes read here, for the test that keeps each its spec class.
#[cfg(test)]
pub(super) const SHAPES: &[Shape] = &[
    MODIFIER,
    WIN_RULES,
    RESULT_CHANGE,
    MORALE_ANSWER,
    MOVE_TRAITS,
    COST_ANSWER,
    REROLL_ANSWER,
];

/// The largest modifier one hook may give (either way): far past any die's reach, small enough that
/// totals never overflow.
pub(crate) const MAX_MODIFIER: i32 = 100;

/// The most modifiers the scripts of both sides may give one roll: in 30 Siege games a roll had at most
/// 6 modifiers, the rulebook's included, 2 of them from scripts (a test probe gives 45). Each is kept in
/// the roll's event, outside the VM's memory limit: 200,000 a roll took gigabytes.
pub(crate) const MAX_MODIFIERS: usize = 64;

/// `table` as a [`Plain::Table`] answer's fields, nil for nil, an error for anything else.
fn table_or_nil<'p, 'a>(
    r: &Reader<'a>,
    v: &'p Plain,
    shape: &Shape,
) -> Result<Option<Fields<'p, 'a>>, HookError> {
    match v {
        Plain::Nil => Ok(None),
        Plain::Table(_) => r.fields(v, "", shape).map(Some),
        other => Err(r.field(
            "",
            other,
            &format!("expected nil or a {} table", shape.class),
        )),
    }
}

/// A limited use an answer spends (`spend`): `game:`, `wave:` or `council:`.
fn spend_key(f: &Fields) -> Result<Option<String>, HookError> {
    match f.text("spend")? {
        Some(k)
            if !crate::state::SPENT_PREFIXES
                .iter()
                .any(|p| k.starts_with(p)) =>
        {
            Err(f.reader().bad(format!(
                "spend = {k:?} (a limited use is named game:..., wave:... or council:...)"
            )))
        }
        k => Ok(k),
    }
}

/// Read a modifier hook's answer into `out`: `nil`, a number (a modifier to the hook owner's own
/// total), `{value=, to=, reason=}` (a table with named keys) or an array of those (a table of
/// positions only). `to` is "self" (default), "opponent", "attacker" or "defender". At most
/// [`MAX_MODIFIERS`] in `out` (the roll's, from every script).
pub(super) fn modifiers(
    r: &Reader,
    v: &Plain,
    me: Role,
    module: &Module,
    out: &mut Vec<Modifier>,
) -> Result<(), HookError> {
    let expected = format!(
        "expected nil, a whole number from -{MAX_MODIFIER} to {MAX_MODIFIER}, {{value = n, to = \
         \"self\"|\"opponent\", reason = \"...\"}} or an array of those"
    );
    let whole = |p: &Plain, path: &str| -> Result<i32, HookError> {
        match answer::whole(p) {
            Some(n) if n.abs() <= i64::from(MAX_MODIFIER) => Ok(n as i32),
            Some(n) if path.is_empty() => Err(r.bad(format!("the number {n}; {expected}"))),
            _ if path.is_empty() => match p {
                Plain::Num(n) if n.is_finite() => {
                    Err(r.bad(format!("the number {}; {expected}", answer::number(*n))))
                }
                other => Err(r.field("", other, &expected)),
            },
            _ => Err(r.field(path, p, &expected)),
        }
    };
    let push = |out: &mut Vec<Modifier>, value: i32, to: Role, reason: String| {
        if value == 0 {
            return Ok(());
        }
        if out.len() >= MAX_MODIFIERS {
            return Err(r.bad(format!(
                "more modifiers than a roll takes (at most {MAX_MODIFIERS} from all its scripts)"
            )));
        }
        out.push(Modifier {
            to,
            value,
            reason,
            source: module.label.clone(),
        });
        Ok(())
    };
    match v {
        Plain::Nil => Ok(()),
        Plain::Int(_) | Plain::Num(_) => push(out, whole(v, "")?, me, module.stem().to_string()),
        Plain::Table(entries) => {
            let keyed = entries.iter().any(|(k, _)| !matches!(k, Key::Index(_)));
            if !keyed {
                // An array of modifiers, each a table (arrays nest only as deep as the conversion
                // allows).
                for (i, item) in r.list(v, "", "modifiers")?.into_iter().enumerate() {
                    if !matches!(item, Plain::Table(_)) {
                        return Err(r.bad(format!(
                            "an array holding {} at [{}]; {expected}",
                            answer::describe(item),
                            i + 1
                        )));
                    }
                    modifiers(r, item, me, module, out)?;
                }
                return Ok(());
            }
            let f = r.fields(v, "", &MODIFIER)?;
            let n = match f.get("value") {
                Plain::Nil => return Err(r.bad(format!("a modifier without `value`; {expected}"))),
                p => whole(p, "value")?,
            };
            let to = match f.text("to")?.as_deref() {
                None | Some("self") => me,
                Some("opponent") => other(me),
                Some("attacker") => Role::Attacker,
                Some("defender") => Role::Defender,
                Some(x) => return Err(r.bad(format!("to = {x:?}; {expected}"))),
            };
            let reason = f.reason("reason", || module.stem().to_string())?;
            push(out, n, to, reason)
        }
        other => Err(r.field("", other, &expected)),
    }
}

/// Fold one `win_rules` answer into `out`: the first Lethal and the lowest Gruesome multiplier hold.
pub(super) fn win_rules(
    r: &Reader,
    v: &Plain,
    module: &Module,
    out: &mut WinRules,
) -> Result<(), HookError> {
    let Some(t) = table_or_nil(r, v, &WIN_RULES)? else {
        return Ok(());
    };
    match t.get("lethal") {
        Plain::Nil | Plain::Bool(false) => {}
        Plain::Text(why) => {
            if out.lethal.is_none() {
                out.lethal = Some((why.clone(), module.label.clone()));
            }
        }
        Plain::Bool(true) => {
            if out.lethal.is_none() {
                out.lethal = Some((module.stem().to_string(), module.label.clone()));
            }
        }
        Plain::LongText(_) => {
            t.text("lethal")?;
        }
        _ => return Err(t.bad("lethal", "expected true, false or a reason")),
    }
    if let Some(m) = t.int("gruesome_multiplier", 1, 10)? {
        let m = m as i32;
        if out
            .gruesome_multiplier
            .as_ref()
            .is_none_or(|(cur, _)| m < *cur)
        {
            out.gruesome_multiplier = Some((m, module.label.clone()));
        }
    }
    Ok(())
}

/// A result change (`on_result`, `on_friend_result`): the result to apply instead with its reason,
/// and a longer Recoil (inches, or a measure: `rules.measures`) with its reason.
pub(super) struct ResultAnswer {
    pub(super) result: Option<(CombatResult, String)>,
    pub(super) recoil: Option<(f64, String)>,
}

/// Read an `on_result` or `on_friend_result` answer.
pub(super) fn result_change(
    r: &Reader,
    v: &Plain,
    module: &Module,
    measures: &crate::roster::Measures,
) -> Result<ResultAnswer, HookError> {
    let mut out = ResultAnswer {
        result: None,
        recoil: None,
    };
    let Some(t) = table_or_nil(r, v, &RESULT_CHANGE)? else {
        return Ok(out);
    };
    let reason = t.reason("reason", || module.stem().to_string())?;
    out.recoil = match t.get("recoil") {
        Plain::Nil => None,
        Plain::Int(n) if *n > 0 => Some((*n as f64, reason.clone())),
        Plain::Num(n) if n.is_finite() && *n > 0.0 => Some((*n, reason.clone())),
        Plain::Text(name) => {
            let m = crate::roster::Measure::named(name).ok_or_else(|| {
                r.bad(format!(
                    "recoil = {name:?} (expected inches or short/medium/long)"
                ))
            })?;
            Some((measures.get(m), reason.clone()))
        }
        _ => return Err(t.bad("recoil", "expected inches, more than 0, or a measure")),
    };
    out.result = match t.text("result")? {
        None => None,
        Some(name) => {
            let to = parse_result(&name).ok_or_else(|| r.bad(format!("result = {name:?}")))?;
            Some((to, reason))
        }
    };
    Ok(out)
}

/// A `morale` answer: immunity to the trigger (a reason), and a modifier to each die with its reason.
pub(super) struct MoraleReply {
    pub(super) immune: Option<String>,
    pub(super) modifier: Option<(i32, String)>,
}

/// Read a `morale` answer.
pub(super) fn morale(r: &Reader, v: &Plain, module: &Module) -> Result<MoraleReply, HookError> {
    let mut out = MoraleReply {
        immune: None,
        modifier: None,
    };
    let Some(t) = table_or_nil(r, v, &MORALE_ANSWER)? else {
        return Ok(out);
    };
    out.immune = match t.get("immune") {
        Plain::Nil | Plain::Bool(false) => None,
        Plain::Bool(true) => Some(module.stem().to_string()),
        Plain::Text(why) => Some(why.clone()),
        Plain::LongText(_) => t.text("immune")?,
        _ => return Err(t.bad("immune", "expected true, false or a reason")),
    };
    if let Some(n) = t.int(
        "modifier",
        -i64::from(MAX_MODIFIER),
        i64::from(MAX_MODIFIER),
    )? {
        out.modifier = Some((n as i32, t.reason("reason", || module.stem().to_string())?));
    } else {
        // A reason alone is read too, so a wrong one is an error whatever else was given.
        t.text("reason")?;
    }
    Ok(out)
}

/// Fold one `movement` answer (a function's or the module's table) into `out`; whether it said
/// anything.
pub(super) fn movement(
    r: &Reader,
    v: &Plain,
    engaged: &[ModelId],
    out: &mut MoveTraits,
) -> Result<bool, HookError> {
    let Some(t) = table_or_nil(r, v, &MOVE_TRAITS)? else {
        return Ok(false);
    };
    let mut used = false;
    if t.flag("flying")?.unwrap_or(false) {
        out.flying = true;
        used = true;
    }
    if let Some(band) = t.text("band")? {
        out.band = Some(
            crate::roster::Measure::named(&band)
                .ok_or_else(|| r.bad(format!("band = {band:?}")))?,
        );
        used = true;
    } else if !matches!(t.get("band"), Plain::Nil) {
        return Err(t.bad("band", "expected short, medium or long"));
    }
    if t.flag("one_move")?.unwrap_or(false) {
        out.one_move = true;
        used = true;
    }
    match t.get("ignore_terrain") {
        Plain::Nil => {}
        p => {
            for (i, kind) in r
                .list(p, "ignore_terrain", "terrain kinds")?
                .into_iter()
                .enumerate()
            {
                match kind {
                    Plain::Text(k) => out.ignore_terrain.push(k.clone()),
                    other => {
                        return Err(r.field(
                            &format!("ignore_terrain[{}]", i + 1),
                            other,
                            "expected a terrain kind",
                        ))
                    }
                }
            }
            used = true;
        }
    }
    match t.get("free_disengage") {
        Plain::Nil | Plain::Bool(false) => {}
        Plain::Bool(true) => {
            out.free_disengage.extend_from_slice(engaged);
            used = true;
        }
        p @ Plain::Table(_) => {
            for (i, item) in r
                .list(p, "free_disengage", "models")?
                .into_iter()
                .enumerate()
            {
                out.free_disengage.push(r.model(
                    item,
                    &format!("free_disengage[{}]", i + 1),
                    true,
                )?);
            }
            used = true;
        }
        _ => return Err(t.bad("free_disengage", "expected true or a list of models")),
    }
    Ok(used)
}

/// Whether a computed `permissions` answer grants `name`: a table of names, each granted by any value
/// but nil or false; nil grants nothing.
pub(super) fn grants(r: &Reader, v: &Plain, name: &str) -> Result<bool, HookError> {
    match v {
        Plain::Nil => Ok(false),
        Plain::Table(entries) => {
            for (k, _) in entries {
                if !matches!(k, Key::Name(_)) {
                    return Err(r.bad(format!(
                        "a key {} (permissions are named: `lead = true`)",
                        match k {
                            Key::Index(i) => format!("[{i}]"),
                            Key::Other(t) => format!("of type {t}"),
                            Key::Name(n) => n.clone(),
                        }
                    )));
                }
            }
            Ok(entries.iter().any(|(k, v)| {
                matches!(k, Key::Name(n) if n == name)
                    && !matches!(v, Plain::Nil | Plain::Bool(false))
            }))
        }
        other => Err(r.field("", other, "expected a table of permission names or nil")),
    }
}

/// Read one `order_cost` answer: nil, or `{ cost = 0..3, spend = "...", reason = "..." }`.
pub(super) fn cost(
    r: &Reader,
    v: &Plain,
    module: &Module,
) -> Result<Option<CostChange>, HookError> {
    let Some(t) = table_or_nil(r, v, &COST_ANSWER)? else {
        return Ok(None);
    };
    let n = match t.int("cost", 0, 3)? {
        Some(n) => n as u8,
        None => return Err(r.bad("a table without `cost` (0 to 3)")),
    };
    Ok(Some(CostChange {
        cost: n,
        spend: spend_key(&t)?,
        reason: t.reason("reason", || module.stem().to_string())?,
        source: module.label.clone(),
    }))
}

/// Read one `on_activation_roll` answer: nil, or `{ reroll = "all"|"best", spend, reason }` (a table
/// without `reroll` asks nothing).
pub(super) fn reroll(r: &Reader, v: &Plain, module: &Module) -> Result<Option<Reroll>, HookError> {
    let Some(t) = table_or_nil(r, v, &REROLL_ANSWER)? else {
        return Ok(None);
    };
    let dice = match t.text("reroll")?.as_deref() {
        None if matches!(t.get("reroll"), Plain::Nil) => {
            // Nothing asked; what else it holds is still read, so a wrong value is an error.
            spend_key(&t)?;
            t.text("reason")?;
            return Ok(None);
        }
        None => return Err(t.bad("reroll", "expected \"all\" or \"best\"")),
        Some("all") => RerollDice::All,
        Some("best") => RerollDice::Best,
        Some(other) => {
            return Err(r.bad(format!("reroll = {other:?} (expected \"all\" or \"best\")")))
        }
    };
    Ok(Some(Reroll {
        dice,
        spend: spend_key(&t)?,
        reason: t.reason("reason", || module.stem().to_string())?,
        source: module.label.clone(),
    }))
}
