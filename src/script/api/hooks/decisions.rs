//! The script side of decisions (`state::Decision`): while a game keeps them, a decision hook — a
//! Behaviour's `target`, `objective` and `act`, the hero policy's `activate`, `act` and `council` —
//! runs with its notes collected (`ctx:why(reason, candidates, scores)`, heard only then;
//! `ctx.explaining` says whether it is), and what it chose is kept with them, its second return
//! value (a reason, a string) and the line of its script.
//!
//! Owns collecting and recording; the kernel's turn engine says when a decision is carried out
//! (`Game::decisions_done`). A game that keeps no decisions runs every hook exactly as before: no
//! notes, nothing recorded, and the scripts skip their explaining (`ctx.explaining` is false).

use super::*;
use crate::script::api::answer::{Key, Plain, Reader};
use crate::script::api::convert::MAX_LOG_TEXT;
use crate::state::{Candidate, Decides, Decision};

/// The most reasons (`ctx:why`) one decision keeps: the built-in scripts give one or two.
const MAX_NOTES: usize = 64;

/// The most candidates one reason weighs: the built-in scripts weigh at most every enemy on the table.
const MAX_CANDIDATES: usize = 256;

/// What a script said of its choice with `ctx:why` during a decision hook.
pub(super) struct Note {
    reason: Option<String>,
    candidates: Vec<Candidate>,
    /// Where in the deciding script it was said (the innermost frame in that file), if it was.
    line: Option<u32>,
    /// Where it was said (`file:line`), when that is another file than the deciding script.
    said: Option<String>,
}

/// The notes of the decision hook under way: its script's label (the frames that count as "its
/// line") and what it said so far.
pub(super) struct Noting {
    script: String,
    notes: Vec<Note>,
}

impl ScriptHooks<'_> {
    /// Run `call`, a decision hook of `module`: when the game keeps decisions, what the script says
    /// meanwhile (`ctx:why`) is collected and handed back; otherwise `call` runs alone. A decision
    /// hook set off by another's ctx method keeps its own notes (the outer ones are put back).
    pub(super) fn noting<R>(
        &self,
        game: &mut Game,
        module: &Module,
        call: impl FnOnce(&mut Game) -> Result<R, HookError>,
    ) -> (Result<R, HookError>, Option<Vec<Note>>) {
        if !game.explains() {
            return (call(game), None);
        }
        let outer = self.notes.replace(Some(Noting {
            script: module.label.clone(),
            notes: Vec::new(),
        }));
        let out = call(game);
        let mine = self.notes.replace(outer).map(|n| n.notes);
        (out, mine)
    }

    /// Whether a decision hook is being explained now (`ctx.explaining`).
    pub(super) fn explaining(&self) -> bool {
        self.notes.borrow().is_some()
    }

    /// Hear `ctx:why`: a reason, what was weighed (`candidates`, each named in words) and the score
    /// given each (`scores`, by position). Nothing when no decision is being explained.
    pub(super) fn hear(
        &self,
        lua: &Lua,
        game: &Game,
        reason: Option<String>,
        candidates: Option<Table>,
        scores: Option<Table>,
    ) -> mlua::Result<()> {
        let mut notes = self.notes.borrow_mut();
        let Some(noting) = notes.as_mut() else {
            return Ok(());
        };
        // What a decision keeps lives beside the log, outside the VM's memory limit: its notes, their
        // candidates and their text are bounded like every text and list a script hands the kernel.
        if noting.notes.len() >= MAX_NOTES {
            return Err(fail(
                lua,
                format!(
                    "ctx:why: this decision already has {MAX_NOTES} reasons (at most {MAX_NOTES} a \
                     decision)"
                ),
            ));
        }
        if let Some(r) = &reason {
            if r.len() > MAX_LOG_TEXT {
                return Err(fail(
                    lua,
                    format!(
                        "ctx:why: a reason of {} bytes (text for the log is at most {MAX_LOG_TEXT} \
                         bytes)",
                        r.len()
                    ),
                ));
            }
        }
        let at = crate::script::api::convert::caller(lua);
        let r = Reader::given(&at, "ctx:why", self.core.id);
        let mut weighed = Vec::new();
        if let Some(list) = candidates {
            let list = r
                .read(lua, &Value::Table(list))
                .map_err(|e| mlua::Error::runtime(e.message))?;
            let items = r
                .list(&list, "candidates", "candidates")
                .map_err(|e| mlua::Error::runtime(e.message))?;
            if items.len() > MAX_CANDIDATES {
                return Err(fail(
                    lua,
                    format!(
                        "ctx:why: {} candidates (at most {MAX_CANDIDATES} a reason)",
                        items.len()
                    ),
                ));
            }
            for (i, v) in items.into_iter().enumerate() {
                let score = match &scores {
                    Some(s) => match s.raw_get::<Value>(i + 1)? {
                        Value::Nil => None,
                        Value::Integer(n) => Some(n as f64),
                        Value::Number(n) => Some(n),
                        other => {
                            return Err(fail(
                                lua,
                                format!(
                                    "ctx:why: scores[{}] is a {}, not a number",
                                    i + 1,
                                    other.type_name()
                                ),
                            ))
                        }
                    },
                    None => None,
                };
                weighed.push(Candidate {
                    name: candidate_words(&r, game, v, i + 1)
                        .map_err(|e| mlua::Error::runtime(e.message))?,
                    score,
                });
            }
        }
        let line = script_line(lua, &noting.script);
        let at = crate::script::host::script_location(lua);
        let at = at.trim_end_matches(": ");
        let said = (!at.is_empty() && !at.starts_with(&format!("{}:", noting.script)))
            .then(|| at.to_string());
        noting.notes.push(Note {
            reason,
            candidates: weighed,
            line,
            said,
        });
        Ok(())
    }

    /// Keep the decision a hook of `module` (its entry point `f`) made for `model`: what it chose, in
    /// words, the reason it returned beside it, and what it said with `ctx:why`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_decision(
        &self,
        game: &mut Game,
        module: &Module,
        f: &mlua::Function,
        model: Option<ModelId>,
        by: String,
        decides: Decides,
        chose: String,
        returned: Option<String>,
        notes: Vec<Note>,
    ) {
        let mut reasons: Vec<String> = notes.iter().filter_map(|n| n.reason.clone()).collect();
        reasons.extend(returned);
        // Where it said why in its own file; else where its entry point is defined, which may be
        // another file (`council = C.council` is scripts/lib/council.lua's function).
        let (script, line) = match notes.iter().find_map(|n| n.line) {
            Some(line) => (module.label.clone(), line),
            None => {
                let info = f.info();
                let file = info
                    .source
                    .as_deref()
                    .map(|s| s.trim_start_matches(['@', '=']).to_string())
                    .unwrap_or_else(|| module.label.clone());
                let line = info
                    .line_defined
                    .and_then(|l| u32::try_from(l).ok())
                    .unwrap_or(0);
                (file, line)
            }
        };
        let said = notes.iter().find_map(|n| n.said.clone());
        game.decide(Decision {
            at: 0, // set by Game::decide
            until: None,
            model,
            by,
            decides,
            chose,
            reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
            candidates: notes.into_iter().flat_map(|n| n.candidates).collect(),
            script,
            line,
            said,
        });
    }

    /// Keep an order decision (a Behaviour's action, the policy's order): the order in words, or
    /// that it ordered nothing (the action is lost).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_order(
        &self,
        game: &mut Game,
        module: &Module,
        f: &mlua::Function,
        model: ModelId,
        by: String,
        decides: Decides,
        order: &Option<Order>,
        returned: Option<String>,
        notes: Vec<Note>,
    ) {
        let chose = match order {
            Some(o) => crate::rules::words::order_words(game, o),
            None => "nothing (the action is lost)".to_string(),
        };
        self.record_decision(
            game,
            module,
            f,
            Some(model),
            by,
            decides,
            chose,
            returned,
            notes,
        );
    }

    /// Keep the action a Behaviour's `act` (`f` of `module`) ordered for `model`, or that the kernel's
    /// universal priority ordered for it in `act`'s place.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_behaviour_action(
        &self,
        game: &mut Game,
        module: &Module,
        f: &mlua::Function,
        model: ModelId,
        order: &Option<Order>,
        why: Option<String>,
        notes: Vec<Note>,
    ) {
        let by = Self::behaviour_name(game, model);
        self.record_order(
            game,
            module,
            f,
            model,
            by,
            Decides::Action,
            order,
            why,
            notes,
        );
    }

    /// Who decides for `model`: its Behaviour ("Hunter").
    pub(super) fn behaviour_name(game: &Game, model: ModelId) -> String {
        game.model(model)
            .ok()
            .and_then(|m| m.behaviour.clone())
            .unwrap_or_else(|| "Behaviour".to_string())
    }

    /// Who decides for the heroes' side: "policy default".
    pub(super) fn policy_name(&self) -> String {
        format!("policy {}", self.policy())
    }
}

/// A decision hook's second return value: its reason, a string (or nothing: nil or false), read when the decision
/// is kept (`keep`). Anything else is the script's error either way, so a game plays the same with or
/// without decisions.
pub(super) fn returned_reason(
    module: &Module,
    entry: &str,
    v: Value,
    keep: bool,
) -> Result<Option<String>, HookError> {
    match v {
        // `cond and "why"` is false when cond is: no reason, as nil is.
        Value::Nil | Value::Boolean(false) => Ok(None),
        Value::String(s) if s.as_bytes().len() > MAX_LOG_TEXT => Err(bad_return(
            module,
            entry,
            &format!(
                "a reason of {} bytes as its second value (text for the log is at most \
                 {MAX_LOG_TEXT} bytes)",
                s.as_bytes().len()
            ),
        )),
        Value::String(s) => Ok(keep.then(|| s.to_string_lossy())),
        other => Err(bad_return(
            module,
            entry,
            &format!(
                "a {} as its second value (the reason for its choice is a string)",
                other.type_name()
            ),
        )),
    }
}

/// A candidate `ctx:why` was given (the `n`th), in words: a model, building, token or point as a
/// Behaviour aims at them; a string or a number as it is.
fn candidate_words(r: &Reader, game: &Game, v: &Plain, n: usize) -> Result<String, HookError> {
    use crate::rules::words;
    let path = format!("candidates[{n}]");
    let expected = "expected a model, building, token or point, or a string";
    Ok(match v {
        Plain::Text(s) => s.clone(),
        Plain::Int(i) => i.to_string(),
        Plain::Num(x) => crate::script::api::answer::number(*x),
        Plain::Table(entries)
            if entries.iter().any(|(k, v)| {
                *k == Key::Name("kind".into())
                    && matches!(v, Plain::Text(t) if matches!(t.as_str(), "opportunity" | "barricade" | "trap"))
            }) =>
        {
            let t = r.fields(v, &path, &crate::script::api::answer::TOKEN)?;
            let kind = t.text("kind")?.unwrap_or_default();
            let id = t.int("id", 0, i64::from(u32::MAX))?.unwrap_or(0);
            format!("the {kind} token {id}")
        }
        Plain::Table(_) | Plain::View { .. } | Plain::UserData(_) => match aim_of(r, v, &path)? {
            Some(aim) => words::aim_words(game, &aim),
            None => return Err(r.field(&path, v, expected)),
        },
        other => return Err(r.field(&path, other, expected)),
    })
}

/// The line of `script` the running Lua code is at: the innermost frame of that file (a reason given
/// inside a shared library is placed where the deciding script called it).
fn script_line(lua: &Lua, script: &str) -> Option<u32> {
    for level in 0..64 {
        // The chunk's full name (`@path`): `short_src` is cut to 60 characters.
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            let name = src.source.as_deref().unwrap_or("");
            let here = name.trim_start_matches(['@', '=']) == script;
            (here, d.current_line())
        })?;
        if let (true, Some(line)) = found {
            return u32::try_from(line).ok();
        }
    }
    None
}
