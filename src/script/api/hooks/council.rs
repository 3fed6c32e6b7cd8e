//! The script side of a Council Phase opening (`on_council`): a model's scripts may grant free Council
//! orders for this Council (Grimm's Snare Master: one free Trap that Entangles) and ask for changes.
//! What they return is checked here and becomes [`CouncilGrant`]s naming the script; the kernel
//! (src/wave/council.rs) keeps them for the Council and spends them on `{ trap = at, free = true }`.

use super::*;
use crate::script::api::answer::{Key, Plain, Reader, Shape};
use crate::state::CouncilGrant;

/// The Council orders a model's script may make free.
const FREE_ORDERS: &[&str] = &["trap"];

/// The keys of an `on_council` answer (spec: `CouncilGrantAnswer`).
pub(super) const COUNCIL_GRANT: Shape = Shape {
    class: "CouncilGrantAnswer",
    keys: &["free", "uses", "entangle", "reason"],
};

/// The most free orders one script may grant a model for one Council (Grimm grants one).
const MAX_GRANTS: usize = 10;

/// One `{ free = "trap", uses = n, entangle = bool, reason = "..." }` answer (at `path`).
fn grant_of(
    r: &Reader,
    module: &Module,
    model: &Model,
    p: &Plain,
    path: &str,
) -> Result<CouncilGrant, HookError> {
    let t = r.fields(p, path, &COUNCIL_GRANT)?;
    let order = match t.text("free")? {
        Some(s) if FREE_ORDERS.contains(&s.as_str()) => s,
        _ => {
            return Err(t.bad(
                "free",
                "the Council orders a script may make free: \"trap\"",
            ))
        }
    };
    let uses = t.int("uses", 1, 10)?.unwrap_or(1) as u32;
    let entangle = t.flag("entangle")?.unwrap_or(false);
    let reason = t.reason("reason", || module.stem().to_string())?;
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
            let r = self.reader(module, "on_council");
            let p = r.read(self.lua, &v)?;
            match &p {
                Plain::Nil => {}
                Plain::Table(entries)
                    if entries.iter().all(|(k, _)| matches!(k, Key::Index(_))) =>
                {
                    let items = r.list(&p, "", "grants")?;
                    if items.len() > MAX_GRANTS {
                        return Err(r.bad(format!(
                            "{} grants (at most {MAX_GRANTS} from one script a Council)",
                            items.len()
                        )));
                    }
                    for (i, item) in items.into_iter().enumerate() {
                        grants.push(grant_of(&r, module, me, item, &format!("[{}]", i + 1))?);
                    }
                }
                Plain::Table(_) => grants.push(grant_of(&r, module, me, &p, "")?),
                other => {
                    return Err(r.field(
                        "",
                        other,
                        "expected nil or { free = \"trap\" } or an array of those",
                    ))
                }
            }
        }
        Ok((grants, intents.into_inner()))
    }
}
