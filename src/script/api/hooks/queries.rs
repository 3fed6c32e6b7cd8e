//! Queries answered in Rust, so a script need not loop over every model in Lua: `ctx:models` filtered
//! by side, kind, trait, condition, state or spell and sorted by distance, `ctx:buildings` filtered,
//! `ctx:town_hall`, and distances measured in bulk (`ctx:distances_from`, `ctx:distances_to`). Each
//! measure is the one `ctx:distance_to` takes, so a script that switches to a query decides exactly as
//! before.

use super::rawread;
use super::views::Viewed;
use super::*;
use crate::geometry::Vec2;
use crate::roster::{ProfileKind, SpellKind};
use crate::script::api::convert::Entries;
use crate::state::TokenKind;

/// What a distance is measured to: a model, a building, a token or a point.
pub(super) enum Thing {
    Model(ModelId),
    Building(String),
    Token(TokenId),
    Point(Vec2),
}

/// What a table stands for, as `ctx:distance_to` reads its second argument: a token from `ctx:tokens`
/// (by its token `kind`; a model's view has a `kind` too, its profile's), a model (`id`), a building
/// (`name`) or a point (`x`, `y`).
pub(super) fn thing_of(t: &Table) -> mlua::Result<Thing> {
    let kind = t.raw_get::<Option<mlua::LuaString>>("kind")?;
    if kind.as_ref().is_some_and(|k| {
        matches!(
            k.as_bytes().as_ref(),
            b"opportunity" | b"barricade" | b"trap"
        )
    }) {
        return Ok(Thing::Token(TokenId(t.raw_get::<u32>("id")?)));
    }
    if !t.raw_get::<Value>("id")?.is_nil() {
        // A view of another game's call is refused here, not read by id (`id_of`).
        return Ok(Thing::Model(id_of(t)?));
    }
    if let Some(name) = t.raw_get::<Option<String>>("name")? {
        return Ok(Thing::Building(name));
    }
    Ok(Thing::Point(Vec2::new(t.raw_get("x")?, t.raw_get("y")?)))
}

/// The edge-to-edge distance from model `me` to `thing` (0 in contact or overlapping), as
/// `ctx:distance_to` measures it. A token no longer on the table is measured as the point it named.
pub(super) fn measure(game: &Game, me: &Model, thing: &Thing) -> mlua::Result<f64> {
    use crate::wave::universal::{gap_to_building, gap_to_model, gap_to_point};
    // A model, a building and a point are measured as the kernel's universal priority measures them.
    match thing {
        Thing::Model(id) => gap_to_model(game, me, *id).map_err(mlua::Error::external),
        Thing::Building(name) => gap_to_building(game, me, name).map_err(mlua::Error::external),
        Thing::Point(p) => Ok(gap_to_point(me, *p)),
        Thing::Token(id) => match game.tokens.iter().find(|t| t.id == *id) {
            Some(tok) => Ok(match &tok.kind {
                TokenKind::Barricade { segment, .. } => {
                    circle_segment_gap(&me.circle(), segment).max(0.0)
                }
                _ => gap_to_point(me, tok.pos),
            }),
            None => Err(mlua::Error::runtime(format!(
                "token {} is not on the table",
                id.0
            ))),
        },
    }
}

/// A thing as `ctx:distance_to` takes it: a table (a view, a token, a point).
pub(super) fn thing_arg(lua: &Lua, v: &Value, what: &str) -> mlua::Result<Thing> {
    match v {
        // A point measured to must be finite: a NaN would measure as 0 (in contact), silently.
        Value::Table(t) => match super::rawread::thing(lua, t).map_or_else(|| thing_of(t), Ok)? {
            Thing::Point(p) => crate::geometry::check::finite_point(what, p)
                .map(Thing::Point)
                .map_err(|e| fail(lua, e)),
            thing => Ok(thing),
        },
        other => Err(fail(
            lua,
            format!(
                "{what}: expected a model, a building, a token or a point, got a {}",
                other.type_name()
            ),
        )),
    }
}

/// One of a query's string options, checked against the names it may take.
fn named<T: Copy>(
    lua: &Lua,
    key: &str,
    given: Option<String>,
    names: &[(&str, T)],
) -> mlua::Result<Option<T>> {
    let Some(v) = given else {
        return Ok(None);
    };
    match names.iter().find(|(n, _)| *n == v) {
        Some((_, t)) => Ok(Some(*t)),
        None => Err(fail(
            lua,
            format!(
                "{key} = {v:?} (expected {})",
                names
                    .iter()
                    .map(|(n, _)| format!("{n:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// The filters of a `ctx:models` query as the script gave them, before their names are checked.
#[derive(Default)]
struct Asked {
    side: Option<String>,
    kind: Option<String>,
    condition: Option<String>,
    spell_kind: Option<String>,
    trait_name: Option<String>,
    engaged: Option<bool>,
    active: Option<bool>,
    except: Option<ModelId>,
    group_of: Option<ModelId>,
    near: Option<Thing>,
}

impl Asked {
    /// Read by `rawread::options` when the table has the usual shape: `None` when an option's value
    /// is not of the type it takes (the mlua reader then gives the error).
    fn of_raw(opts: Vec<(&'static str, rawread::Opt)>) -> Option<Asked> {
        use rawread::Opt;
        let mut a = Asked::default();
        for (key, v) in opts {
            match (key, v) {
                ("side", Opt::Str(s)) => a.side = Some(s),
                ("kind", Opt::Str(s)) => a.kind = Some(s),
                ("condition", Opt::Str(s)) => a.condition = Some(s),
                ("spell_kind", Opt::Str(s)) => a.spell_kind = Some(s),
                ("trait", Opt::Str(s)) => a.trait_name = Some(s),
                ("engaged", Opt::Bool(b)) => a.engaged = Some(b),
                ("active", Opt::Bool(b)) => a.active = Some(b),
                ("except", Opt::Int(i)) if i > 0 => a.except = u32::try_from(i).ok().map(ModelId),
                ("except", Opt::Thing(Thing::Model(id))) => a.except = Some(id),
                ("group_of", Opt::Int(i)) if i > 0 && i <= i64::from(u32::MAX) => {
                    a.group_of = Some(ModelId(i as u32))
                }
                ("group_of", Opt::Thing(Thing::Model(id))) => a.group_of = Some(id),
                ("near", Opt::Thing(t)) => a.near = Some(t),
                _ => return None,
            }
        }
        Some(a)
    }

    /// Read through mlua, with the API's conversions and errors.
    fn of_entries(lua: &Lua, opts: &Entries) -> mlua::Result<Asked> {
        Ok(Asked {
            side: opts.get_as(lua, "side")?,
            kind: opts.get_as(lua, "kind")?,
            condition: opts.get_as(lua, "condition")?,
            spell_kind: opts.get_as(lua, "spell_kind")?,
            trait_name: opts.get_as(lua, "trait")?,
            engaged: opts.get_as(lua, "engaged")?,
            active: opts.get_as(lua, "active")?,
            except: match opts.get("except") {
                Value::Nil => None,
                v => Some(model_id(lua, &v)?),
            },
            group_of: match opts.get("group_of") {
                Value::Nil => None,
                v @ Value::Table(_) => Some(model_id(lua, &v)?),
                Value::Integer(i) if i > 0 && i <= i64::from(u32::MAX) => Some(ModelId(i as u32)),
                v => {
                    return Err(fail(
                        lua,
                        format!(
                            "group_of = {}: expected a model's view or id",
                            v.type_name()
                        ),
                    ))
                }
            },
            near: match opts.get("near") {
                Value::Nil => None,
                v => Some(thing_arg(lua, &v, "near")?),
            },
        })
    }
}

/// The ids of the models `ctx:models(opts)` lists: those matching every filter given, in id order, or
/// sorted by distance to `near` (ties by id).
pub(super) fn models(lua: &Lua, ctx: &Ctx, opts: Option<&Table>) -> mlua::Result<Vec<ModelId>> {
    let game = ctx.game();
    let Some(opts) = opts else {
        return Ok(game.models.iter().map(|m| m.id).collect());
    };
    static KNOWN: std::sync::LazyLock<Vec<&'static str>> =
        std::sync::LazyLock::new(|| spec::options("ModelQuery"));
    let asked = match rawread::options(lua, opts, &KNOWN).and_then(Asked::of_raw) {
        Some(a) => a,
        None => Asked::of_entries(lua, &Entries::options(lua, opts, &KNOWN)?)?,
    };
    let side = match asked.side {
        Some(s) => Some(crate::script::api::convert::side_arg(lua, &s)?),
        None => None,
    };
    let kind = named(
        lua,
        "kind",
        asked.kind,
        &[
            ("hero", ProfileKind::Hero),
            ("enemy", ProfileKind::Enemy),
            ("defender", ProfileKind::Defender),
        ],
    )?;
    let condition = match asked.condition {
        Some(c) => Some(
            parse_condition(&c)
                .ok_or_else(|| fail(lua, format!("condition = {c:?} (no such condition)")))?,
        ),
        None => None,
    };
    let spell_kind: Option<SpellKind> = match asked.spell_kind {
        Some(k) => Some(
            serde_json::from_value(serde_json::Value::String(k.clone()))
                .map_err(|_| fail(lua, format!("spell_kind = {k:?} (no such spell kind)")))?,
        ),
        None => None,
    };
    let (trait_name, engaged, active, except) =
        (asked.trait_name, asked.engaged, asked.active, asked.except);
    // The Group's models, as the kernel counts a Group (`group_of`: itself included).
    let group = asked
        .group_of
        .map(|id| crate::rules::query::group_of(game, id));
    let near = match asked.near {
        // A point is checked as `thing_arg` checks it.
        Some(Thing::Point(p)) => Some(Thing::Point(
            crate::geometry::check::finite_point("near", p).map_err(|e| fail(lua, e))?,
        )),
        other => other,
    };
    let rosters = ctx.rosters();
    let knows = |m: &Model, kind: SpellKind| {
        m.spells.iter().any(|s| {
            rosters
                .and_then(|r| r.spell(s))
                .is_some_and(|sp| sp.is(kind))
        })
    };
    let mut found: Vec<(f64, ModelId)> = Vec::new();
    for m in &game.models {
        let keep = side.is_none_or(|s| m.side == s)
            && kind.is_none_or(|k| m.kind == k)
            && condition.is_none_or(|c| m.has(c))
            && trait_name.as_deref().is_none_or(|t| m.has_trait(t))
            && spell_kind.is_none_or(|k| knows(m, k))
            && active.is_none_or(|a| m.active == a)
            && except.is_none_or(|e| m.id != e)
            && group.as_ref().is_none_or(|g| g.contains(&m.id))
            && engaged.is_none_or(|e| crate::rules::query::is_engaged(game, ctx.rules, m.id) == e);
        if keep {
            let d = match &near {
                Some(thing) => measure(game, m, thing)?,
                None => 0.0,
            };
            found.push((d, m.id));
        }
    }
    if near.is_some() {
        found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }
    Ok(found.into_iter().map(|(_, id)| id).collect())
}

/// The indices of the buildings `ctx:buildings(opts)` lists, in roster order.
pub(super) fn buildings(lua: &Lua, ctx: &Ctx, opts: Option<&Table>) -> mlua::Result<Vec<usize>> {
    let game = ctx.game();
    let (mut standing, mut economic, mut town_hall) = (None, None, None);
    let (mut burning, mut damaged) = (None, None);
    if let Some(opts) = opts {
        static KNOWN: std::sync::LazyLock<Vec<&'static str>> =
            std::sync::LazyLock::new(|| spec::options("BuildingQuery"));
        let opts = Entries::options(lua, opts, &KNOWN)?;
        standing = opts.get_as::<Option<bool>>(lua, "standing")?;
        economic = opts.get_as::<Option<bool>>(lua, "economic")?;
        town_hall = opts.get_as::<Option<bool>>(lua, "town_hall")?;
        burning = opts.get_as::<Option<bool>>(lua, "burning")?;
        damaged = opts.get_as::<Option<bool>>(lua, "damaged")?;
    }
    Ok(game
        .buildings
        .iter()
        .enumerate()
        .filter(|(_, b)| {
            standing.is_none_or(|s| b.destroyed != s)
                && economic.is_none_or(|e| b.economic == e)
                && town_hall.is_none_or(|t| b.town_hall == t)
                && burning.is_none_or(|f| b.fire == f)
                && damaged.is_none_or(|d| (b.integrity < b.max_integrity) == d)
        })
        .map(|(i, _)| i)
        .collect())
}

/// `ctx:buildings{...}`: the views of the buildings the query lists, as an array.
pub(super) fn building_views(lua: &Lua, ctx: &Ctx, opts: Option<&Table>) -> mlua::Result<Value> {
    ctx.building_views(lua, &buildings(lua, ctx, opts)?)
}

/// `ctx:nearest(m, { models = ModelQuery, buildings = BuildingQuery })`: of the candidates the two
/// queries list (the models first, in their query's order, then the buildings in roster order; a query
/// left out lists none), the views of those nearest `m`, edge to edge, kept as `lib/priority.lua`'s
/// `P.smallest_of` keeps them — in candidate order, one more than 1e-6" nearer than the best so far
/// replaces the kept ones, one within 1e-6" of it joins them — so a Behaviour asks for its target
/// without a view of every candidate.
pub(super) fn nearest(lua: &Lua, ctx: &Ctx, m: &Value, opts: &Table) -> mlua::Result<Value> {
    static KNOWN: std::sync::LazyLock<Vec<&'static str>> =
        std::sync::LazyLock::new(|| spec::options("NearestQuery"));
    let me = model_id(lua, m)?;
    let opts = Entries::options(lua, opts, &KNOWN)?;
    let model_query: Option<Table> = opts.get_as(lua, "models")?;
    let building_query: Option<Table> = opts.get_as(lua, "buildings")?;
    nearest_of(lua, ctx, me, model_query.as_ref(), building_query.as_ref())
}

/// [`nearest`] with its arguments read: the model `me`, the models query and the buildings query.
pub(super) fn nearest_of(
    lua: &Lua,
    ctx: &Ctx,
    me: ModelId,
    model_query: Option<&Table>,
    building_query: Option<&Table>,
) -> mlua::Result<Value> {
    let game = ctx.game();
    let me = game.model(me).map_err(|e| fail(lua, e))?;
    let mut scored: Vec<(f64, Viewed)> = Vec::new();
    if let Some(q) = model_query {
        for id in models(lua, ctx, Some(q))? {
            scored.push((measure(game, me, &Thing::Model(id))?, Viewed::Model(id)));
        }
    }
    if let Some(q) = building_query {
        for i in buildings(lua, ctx, Some(q))? {
            let b = &game.buildings[i];
            // Measured by name, as a building's view is measured (`ctx:distances_from`).
            let d = crate::wave::universal::gap_to_building(game, me, &b.name)
                .map_err(mlua::Error::external)?;
            scored.push((d, Viewed::Building(i)));
        }
    }
    // Kept as `P.smallest_of` keeps them (ties within 1e-6"), as a declared target's nearest is.
    let kept = crate::wave::targets::smallest_within(scored);
    ctx.views_list(lua, kept)
}

/// `ctx:town_hall()`: the Town Hall's view, if there is one.
pub(super) fn town_hall_view(lua: &Lua, ctx: &Ctx) -> mlua::Result<Option<Table>> {
    match ctx.game().buildings.iter().position(|b| b.town_hall) {
        Some(i) => ctx.building_view(lua, i),
        None => Ok(None),
    }
}

/// `ctx:engaged(m)`: the views of the enemies in contact with model `me`.
pub(super) fn engaged_views(lua: &Lua, ctx: &Ctx, me: ModelId) -> mlua::Result<Value> {
    let ids = crate::rules::query::engaged_enemies(ctx.game(), ctx.rules, me);
    ctx.model_views(lua, &ids)
}

/// `ctx:tokens(kind)`: the tokens on the table (of `kind` only, when given), as tables.
pub(super) fn tokens_of(lua: &Lua, ctx: &Ctx, kind: Option<&str>) -> mlua::Result<Table> {
    let listed =
        |tok: &&crate::state::Token| kind.is_none_or(|want| want == super::tokens::token_kind(tok));
    let tokens = &ctx.game().tokens;
    let t = lua.create_table_with_capacity(tokens.iter().filter(listed).count(), 0)?;
    for tok in tokens.iter().filter(listed) {
        t.raw_push(super::tokens::token_table(lua, tok)?)?;
    }
    Ok(t)
}

/// `ctx:can_shoot(s, t)`: whether the rules let `s` shoot at `t` now, its hooks asked through `k`; a
/// hook's error as its message.
pub(super) fn can_shoot(
    ctx: &Ctx,
    k: &ScriptHooks,
    s: ModelId,
    t: ModelId,
) -> Result<bool, String> {
    match crate::rules::ranged::may_shoot(ctx.game(), k.rosters(), k, s, t) {
        Ok(()) => Ok(true),
        Err(RuleError::Hook(h)) => Err(h.message),
        Err(_) => Ok(false),
    }
}

/// `ctx:distances_from(m, things)`: `ctx:distance_to(m, t)` for each `t`, in order.
pub(super) fn distances_from(
    lua: &Lua,
    ctx: &Ctx,
    m: &Value,
    things: &Table,
) -> mlua::Result<Vec<f64>> {
    let game = ctx.game();
    let me = game.model(model_id(lua, m)?).map_err(|e| fail(lua, e))?;
    if let Some(list) = super::rawread::things(lua, things) {
        // Points are checked as `thing_arg` checks them.
        return list
            .into_iter()
            .map(|t| match t {
                Thing::Point(p) => crate::geometry::check::finite_point("distances_from", p)
                    .map(Thing::Point)
                    .map_err(|e| fail(lua, e)),
                t => Ok(t),
            })
            .map(|t| measure(game, me, &t?))
            .collect();
    }
    let mut out = Vec::with_capacity(things.raw_len());
    for t in things.sequence_values::<Value>() {
        out.push(measure(game, me, &thing_arg(lua, &t?, "distances_from")?)?);
    }
    Ok(out)
}

/// `ctx:distances_to(models, thing)`: `ctx:distance_to(m, thing)` for each model `m`, in order.
pub(super) fn distances_to(
    lua: &Lua,
    ctx: &Ctx,
    models: &Table,
    thing: &Value,
) -> mlua::Result<Vec<f64>> {
    let game = ctx.game();
    let thing = thing_arg(lua, thing, "distances_to")?;
    if let Some(ids) = super::rawread::model_ids(lua, models) {
        return ids
            .into_iter()
            .map(|id| measure(game, game.model(id).map_err(|e| fail(lua, e))?, &thing))
            .collect();
    }
    let mut out = Vec::with_capacity(models.raw_len());
    for m in models.sequence_values::<Value>() {
        let me = game.model(model_id(lua, &m?)?).map_err(|e| fail(lua, e))?;
        out.push(measure(game, me, &thing)?);
    }
    Ok(out)
}
