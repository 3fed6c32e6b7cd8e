//! The script side of a Council Phase opening (`on_council`): a model's scripts may grant free Council
//! orders for this Council (Grimm's Snare Master: one free Trap that Entangles) and ask for changes.
//! What they return is checked here and becomes [`CouncilGrant`]s naming the script; the kernel
//! (src/wave/council.rs) keeps them for the Council and spends them on `{ trap = at, free = true }`.

use super::*;
use crate::state::CouncilGrant;

/// The Council orders a model's script may make free.
const FREE_ORDERS: &[&str] = &["trap"];

/// One `{ free = "trap", uses = n, entangle = bool, reason = "..." }` answer.
fn grant_of(module: &Module, model: &Model, t: &Table) -> Result<CouncilGrant, HookError> {
    only_keys(
        module,
        "on_council",
        t,
        &["free", "uses", "entangle", "reason"],
    )?;
    let order = match t.raw_get::<Value>("free").map_err(hook_err)? {
        Value::String(s) if FREE_ORDERS.contains(&s.to_string_lossy().as_str()) => {
            s.to_string_lossy()
        }
        other => {
            return Err(bad_return(
                module,
                "on_council",
                &format!("free = {other:?} (the Council orders a script may make free: \"trap\")"),
            ))
        }
    };
    let uses = match t.raw_get::<Value>("uses").map_err(hook_err)? {
        Value::Nil => 1,
        Value::Integer(n) if (1..=10).contains(&n) => n as u32,
        other => {
            return Err(bad_return(
                module,
                "on_council",
                &format!("uses = {other:?} (expected 1 to 10)"),
            ))
        }
    };
    let entangle = match t.raw_get::<Value>("entangle").map_err(hook_err)? {
        Value::Nil => false,
        Value::Boolean(b) => b,
        other => {
            return Err(bad_return(
                module,
                "on_council",
                &format!("entangle = a {} (expected a boolean)", other.type_name()),
            ))
        }
    };
    let reason = t
        .raw_get::<Option<String>>("reason")
        .and_then(|r| crate::script::api::convert::log_text(r, "reason"))
        .map_err(hook_err)?
        .unwrap_or_else(|| module.stem().to_string());
    Ok(CouncilGrant {
        model: model.id,
        hero: model.name.clone(),
        order,
        uses,
        used: 0,
        entangle,
        reason,
        source: module.label.clone(),
    })
}

impl ScriptHooks<'_> {
    /// Every script of `model` is told the Council opens (`on_council(ctx, self)`): the free orders
    /// it grants (nil, one answer, or an array of answers) and the changes asked for.
    pub(super) fn council_opens(
        &self,
        game: &mut Game,
        model: ModelId,
    ) -> Result<(Vec<CouncilGrant>, Vec<Intent>), HookError> {
        let intents = std::cell::RefCell::new(Vec::new());
        let arg = |_: &Lua, _: &Ctx| Ok(Value::Nil);
        let answers = self.call_act(game, model, "on_council", &intents, &arg)?;
        let Ok(me) = game.model(model) else {
            return Ok((Vec::new(), intents.into_inner()));
        };
        let mut grants = Vec::new();
        for (module, v) in answers {
            let Some(t) =
                super::abilities::answer_table(module, "on_council", "{ free = \"trap\" }", v)?
            else {
                continue;
            };
            if t.raw_len() > 0 {
                for item in t.sequence_values::<Value>() {
                    match item.map_err(hook_err)? {
                        Value::Table(a) => grants.push(grant_of(module, me, &a)?),
                        other => {
                            return Err(bad_return(
                                module,
                                "on_council",
                                &format!("an array holding a {}", other.type_name()),
                            ))
                        }
                    }
                }
            } else {
                grants.push(grant_of(module, me, &t)?);
            }
        }
        Ok((grants, intents.into_inner()))
    }
}
