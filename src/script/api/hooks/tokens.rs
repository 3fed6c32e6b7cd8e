//! The script side of claiming on the move and seeing results early (Wren's Pathfinder): a mover
//! holding `claim_on_move` is asked about each Opportunity token it passes (`on_pass_token`), and
//! `ctx:peek` rolls a token's Opportunity die early for a model holding `peek_opportunity`. The kernel
//! (src/wave/opportunity.rs) checks the permissions, rolls, logs and claims.

use super::*;

/// A token's kind as scripts name it.
pub(super) fn token_kind(tok: &crate::state::Token) -> &'static str {
    match &tok.kind {
        crate::state::TokenKind::Opportunity { .. } => "opportunity",
        crate::state::TokenKind::Barricade { .. } => "barricade",
        crate::state::TokenKind::Trap { .. } => "trap",
    }
}

/// A token as `ctx:tokens` lists it: `id`, `kind`, `x`, `y`, and a Wall's `caster`.
pub(super) fn token_table(lua: &Lua, tok: &crate::state::Token) -> mlua::Result<Table> {
    // Made with room for its fields: a table grown one field at a time is rehashed three times.
    let e = lua.create_table_with_capacity(0, 5)?;
    e.raw_set("id", tok.id.0)?;
    e.raw_set("kind", token_kind(tok))?;
    e.raw_set("x", tok.pos.x)?;
    e.raw_set("y", tok.pos.y)?;
    if let crate::state::TokenKind::Barricade {
        caster: Some(c), ..
    } = &tok.kind
    {
        e.raw_set("caster", c.0)?;
    }
    Ok(e)
}

/// The token an `on_pass_token` hook is asked about, as `ctx:tokens` lists it.
fn token_value(lua: &Lua, game: &Game, token: TokenId) -> mlua::Result<Value> {
    match game.tokens.iter().find(|t| t.id == token) {
        Some(tok) => Ok(Value::Table(token_table(lua, tok)?)),
        None => {
            let t = lua.create_table()?;
            t.raw_set("id", token.0)?;
            t.raw_set("kind", "opportunity")?;
            Ok(Value::Table(t))
        }
    }
}

/// A token argument: its id, or a table with `id` (from `ctx:tokens`).
fn token_id(lua: &Lua, v: &Value) -> mlua::Result<TokenId> {
    match v {
        Value::Integer(i) if *i > 0 && *i <= i64::from(u32::MAX) => Ok(TokenId(*i as u32)),
        Value::Table(t) => match t.raw_get::<Value>("id")? {
            Value::Integer(i) if i > 0 && i <= i64::from(u32::MAX) => Ok(TokenId(i as u32)),
            _ => Err(fail(lua, "ctx:peek: a table without a token id")),
        },
        other => Err(fail(
            lua,
            format!("ctx:peek: a {} (expected a token)", other.type_name()),
        )),
    }
}

impl ScriptHooks<'_> {
    /// Each script of `model` is asked `on_pass_token(ctx, self, token)`; the first `true` claims.
    pub(super) fn pass_token(
        &self,
        game: &mut Game,
        model: ModelId,
        token: TokenId,
    ) -> Result<(Option<String>, Vec<Intent>), HookError> {
        let intents = std::cell::RefCell::new(Vec::new());
        let arg = |lua: &Lua, ctx: &Ctx| token_value(lua, ctx.game(), token);
        let mut claim = None;
        for (module, v) in self.call_act(game, model, "on_pass_token", &intents, &arg)? {
            let r = self.reader(module, "on_pass_token");
            match r.read(self.lua, &v)? {
                crate::script::api::answer::Plain::Nil
                | crate::script::api::answer::Plain::Bool(false) => {}
                crate::script::api::answer::Plain::Bool(true) => {
                    claim = Some(module.label.clone());
                    break;
                }
                other => {
                    return Err(r.field("", &other, "expected true to claim the token, or nil"))
                }
            }
        }
        Ok((claim, intents.into_inner()))
    }
}

/// `ctx:peek(model, token)`: the token's Opportunity result, rolled now (or read, once rolled) by the
/// kernel for a model holding `peek_opportunity`. Only a ctx that may roll dice may peek.
pub(super) fn peek(lua: &Lua, ctx: &mut Ctx, m: &Value, tok: &Value) -> mlua::Result<String> {
    let Some(k) = ctx.kernel else {
        return Err(fail(lua, "ctx:peek is not available in a spell's cast"));
    };
    let model = model_id(lua, m)?;
    let token = token_id(lua, tok)?;
    let View::Act(game) = &mut ctx.view else {
        return Err(fail(
            lua,
            "ctx:peek rolls the token's Opportunity die: it works only in a hook whose ctx may roll \
             dice (on_pass_token, on_council, on_result, a policy's act, ...)",
        ));
    };
    crate::wave::opportunity::peek(game, k.rosters(), k, model, token)
        .map(|(_, name)| name)
        .map_err(|e| spell_err(lua, e))
}
