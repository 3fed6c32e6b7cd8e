//! The script side of a Behaviour's objective (§6.3, Guardian): `objective(ctx, self, ask)` is asked
//! for a Group at deployment and again when the objective it had is Destroyed or removed; `ctx:objective`
//! reads the one kept. The kernel (src/wave/objective.rs) decides when to ask, keeps it and logs it.

use super::tokens::token_table;
use super::*;
use crate::script::api::answer::{Key, Plain, Reader};
use crate::state::Objective;

/// An objective as scripts see it: the building's snapshot, or the token as `ctx:tokens` lists it;
/// nil when its building or token is gone.
pub(super) fn objective_value(lua: &Lua, ctx: &Ctx, o: &Objective) -> mlua::Result<Value> {
    let game = ctx.game();
    Ok(match o {
        Objective::Building { name } => ctx.building_view_named(lua, name)?,
        Objective::Token { id } => match game.tokens.iter().find(|t| t.id == *id) {
            Some(t) => Value::Table(token_table(lua, t)?),
            None => Value::Nil,
        },
    })
}

/// What an `objective` returned: a building (its view or handle, a table with its `name`, or its
/// name) or a token (a table from `ctx:tokens`, by `id` and `kind`) that is on the table; nil for none.
fn objective_of(r: &Reader, game: &Game, v: &Plain) -> Result<Option<Objective>, HookError> {
    let entries = match v {
        Plain::Nil => return Ok(None),
        Plain::Table(entries) => entries,
        Plain::View { .. } | Plain::UserData(_) | Plain::Text(_) => {
            let name = r.building(v, "")?;
            return match game.building(&name) {
                Ok(_) => Ok(Some(Objective::Building { name })),
                Err(_) => Err(r.bad(format!("{name:?}, which is no building"))),
            };
        }
        other => return Err(r.field("", other, "expected a building, a token or nil")),
    };
    let get = |k: &str| {
        entries
            .iter()
            .find(|(key, _)| *key == Key::Name(k.into()))
            .map_or(&Plain::Nil, |(_, v)| v)
    };
    // A token from ctx:tokens (a model snapshot's `kind` is its profile's, and a model is no objective).
    if matches!(get("kind"), Plain::Text(k) if matches!(k.as_str(), "opportunity" | "barricade" | "trap"))
    {
        let t = r.fields(v, "", &crate::script::api::answer::TOKEN)?;
        let id = match t.get("id") {
            Plain::Nil => return Err(r.bad("a token without an id")),
            p => crate::script::api::answer::whole(p)
                .and_then(|i| u32::try_from(i).ok())
                .map(TokenId)
                .ok_or_else(|| t.bad("id", "expected a token id"))?,
        };
        if !game.tokens.iter().any(|tok| tok.id == id) {
            return Err(r.bad(format!("token {} (not on the table)", id.0)));
        }
        return Ok(Some(Objective::Token { id }));
    }
    match get("name") {
        Plain::Nil => Err(r.bad("a table that is no building or token")),
        _ => {
            let name = r.building(v, "")?;
            match game.building(&name) {
                Ok(_) => Ok(Some(Objective::Building { name })),
                Err(_) => Err(r.bad(format!("{name:?}, which is no building"))),
            }
        }
    }
}

impl ScriptHooks<'_> {
    /// Ask the model's Behaviour `objective(ctx, self, { group = ..., lost = ... })`.
    pub(super) fn ask_objective(
        &self,
        game: &mut Game,
        model: ModelId,
        lost: Option<&Objective>,
    ) -> Result<Option<Objective>, HookError> {
        let Some(module) = self.behaviour_module(game, model)? else {
            return Ok(None);
        };
        let Some(f) = module.function("objective") else {
            return Ok(None);
        };
        let members = crate::rules::query::group_of(game, model);
        let arg = |lua: &Lua, ctx: &Ctx| {
            let t = lua.create_table()?;
            t.raw_set("group", ctx.model_views(lua, &members)?)?;
            if let Some(o) = lost {
                // A lost building is still described (it is Destroyed); a removed token by where it lay.
                t.raw_set("lost", objective_value(lua, ctx, o)?)?;
            }
            Ok(Value::Table(t))
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let (called, notes) = self.noting(game, module, |game| {
            self.call_module_act::<(Value, Value)>(
                game, model, module, None, f, &intents, &arg, None,
            )
        });
        let (v, why) = called?;
        let why = super::decisions::returned_reason(module, "objective", why, notes.is_some())?;
        let r = self.reader(module, "objective");
        let objective = objective_of(&r, game, &r.read(self.lua, &v)?)?;
        if let Some(notes) = notes {
            let chose = match &objective {
                Some(Objective::Building { name }) => format!("the {name}"),
                Some(Objective::Token { id }) => format!("the Opportunity token {}", id.0),
                None => "none".to_string(),
            };
            let by = Self::behaviour_name(game, model);
            self.record_decision(
                game,
                module,
                f,
                Some(model),
                by,
                crate::state::Decides::Objective,
                chose,
                why,
                notes,
            );
        }
        Ok(objective)
    }
}
