//! Reading the decisions scripts return: an order (a Behaviour's or the policy's `act`, or one given to
//! `g:order`), the policy's activation and plan, its Council's orders and wave-start choices, a Lua wave
//! builder's Groups, and the aims and positions they hold; and the tables scripts are handed (a roll, a
//! win). Every answer is first converted by the one bounded conversion of `api::answer` (depth, cycles,
//! size), then read field by field: a malformed answer is an error naming the script, the entry point
//! and the field, a misspelt key with the closest known one.

use super::*;
use crate::script::api::answer::{self, Fields, Key, Plain, Reader, Shape, ViewOf};

pub(super) fn aim_value(lua: &Lua, ctx: &Ctx, aim: &Aim) -> mlua::Result<Value> {
    Ok(match aim {
        Aim::Model(id) => ctx.model_view_of(lua, *id)?,
        Aim::Building(name) => ctx.building_view_named(lua, name)?,
        Aim::Point(p) => Value::Table(crate::script::api::convert::pos_table(lua, *p)?),
        Aim::Edge => {
            let t = lua.create_table()?;
            t.raw_set("edge", true)?;
            Value::Table(t)
        }
    })
}

/// The keys of the answers read here (each a class of `api/spec`; `the_shapes_are_the_specs` keeps
/// them the same).
pub(super) const ACTIVATION_ANSWER: Shape = Shape {
    class: "ActivationAnswer",
    keys: &["dice", "cast", "group"],
};
pub(super) const BEHAVIOUR_ORDER: Shape = Shape {
    class: "BehaviourOrder",
    keys: &[
        "melee",
        "power_blow",
        "shoot",
        "aimed",
        "structural",
        "ignite",
        "move",
        "within",
        "step",
        "leave",
        "claim",
        "use",
        "heal",
        "what",
        "ability",
        "target",
        "with",
        "cast",
        "power",
        "from",
        "to",
        "at",
        "break_free",
    ],
};
pub(super) const DEPLOY_CHOICES: Shape = Shape {
    class: "DeployChoices",
    keys: &["warhorse", "ready_mounts"],
};
pub(super) const READY_MOUNTS: Shape = Shape {
    class: "ReadyMountsChoice",
    keys: &["hero", "to"],
};
pub(super) const WAVE_GROUP: Shape = Shape {
    class: "WaveGroup",
    keys: &["models", "behaviour", "edge"],
};
pub(super) const POSITION: Shape = Shape {
    class: "Position",
    keys: &["x", "y"],
};

impl ScriptHooks<'_> {
    /// A reader of what `module`'s `entry` returned in this game.
    pub(super) fn reader<'m>(&'m self, module: &'m Module, entry: &'m str) -> Reader<'m> {
        Reader {
            failed: self.budget.as_deref().map(|b| &b.failures),
            ..Reader::answer(&module.label, entry, self.core.id)
        }
    }
}

/// Read the hero policy's `activate` answer (§3.1, §3.7): nil for two dice, a number of dice, false or 0
/// for "not now", or `{ dice = n, cast = true, group = { friends... } }`.
pub(super) fn activation_ask_of(
    r: &Reader,
    v: &Plain,
) -> Result<Option<crate::rules::hooks::ActivationAsk>, HookError> {
    use crate::rules::hooks::ActivationAsk;
    let dice = |p: &Plain, path: &str| -> Result<u8, HookError> {
        match answer::whole(p) {
            Some(n @ 1..=3) => Ok(n as u8),
            _ => Err(r.field(path, p, "expected 1, 2 or 3 dice")),
        }
    };
    match v {
        Plain::Nil => Ok(Some(ActivationAsk::dice(2))),
        Plain::Bool(false) | Plain::Int(0) => Ok(None),
        Plain::Int(_) | Plain::Num(_) => Ok(Some(ActivationAsk::dice(dice(v, "dice")?))),
        Plain::Table(_) => {
            let f = r.fields(v, "", &ACTIVATION_ANSWER)?;
            let n = match f.get("dice") {
                Plain::Nil => 2,
                d => dice(d, "dice")?,
            };
            let cast = f.flag("cast")?.unwrap_or(false);
            let mut group = Vec::new();
            if f.has("group") {
                for (i, item) in r
                    .list(f.get("group"), "group", "models")?
                    .iter()
                    .enumerate()
                {
                    group.push(r.model(item, &format!("group[{}]", i + 1), true)?);
                }
            }
            Ok(Some(ActivationAsk {
                dice: n,
                cast,
                group,
            }))
        }
        other => Err(r.field("", other, "expected dice, false, or { dice, cast, group }")),
    }
}

/// Read an order (a Behaviour's or a policy's `act`) from what the script returned.
pub(super) fn order_of(r: &Reader, lua: &Lua, v: &Value) -> Result<Option<Order>, HookError> {
    parse_order(r, &r.read(lua, v)?)
}

/// Read an order given to `g:order` (models as handles or views of the game `game`); the error is
/// located at `at` (the caller's `file:line: `) and says what was wrong.
pub(crate) fn order_from(
    lua: &Lua,
    at: &str,
    entry: &str,
    game: u64,
    v: &Value,
) -> Result<Option<Order>, HookError> {
    let r = Reader::given(at, entry, game);
    parse_order(&r, &r.read(lua, v)?)
}

/// Read an order from a table: one of its keys (see `BehaviourOrder` in the spec).
pub(crate) fn parse_order(r: &Reader, v: &Plain) -> Result<Option<Order>, HookError> {
    let Plain::Table(_) = v else {
        return match v {
            Plain::Nil => Ok(None),
            other => Err(r.field("", other, "expected an order table or nil")),
        };
    };
    let t = r.fields(v, "", &BEHAVIOUR_ORDER)?;
    let model_in = |key: &str| -> Result<Option<ModelId>, HookError> {
        match t.get(key) {
            Plain::Nil => Ok(None),
            p => r.model(p, key, false).map(Some),
        }
    };
    let building_in = |key: &str| -> Result<Option<String>, HookError> {
        match t.get(key) {
            Plain::Nil => Ok(None),
            p => r.building(p, key).map(Some),
        }
    };
    let flag = |key: &str| -> Result<bool, HookError> { Ok(t.flag(key)?.unwrap_or(false)) };
    // One action per order: `{ melee = o, shoot = o }` is refused rather than read as its first key.
    let given: Vec<&str> = ORDER_ACTIONS
        .iter()
        .copied()
        .filter(|k| !matches!(t.get(k), Plain::Nil | Plain::Bool(false)))
        .collect();
    if let [first @ .., last] = given.as_slice() {
        if !first.is_empty() {
            return Err(r.bad(format!(
                "{} actions, {} and {last} (one action per order)",
                given.len(),
                first.join(", ")
            )));
        }
    }
    if let Some(id) = model_in("melee")? {
        return Ok(Some(if flag("power_blow")? {
            Order::PowerBlow(id)
        } else {
            Order::Melee(id)
        }));
    }
    if let Some(id) = model_in("shoot")? {
        if t.has("with") {
            // Concentrated Shooting (§3.5): the other shooters that fire with it.
            let mut others = Vec::new();
            for (i, item) in r.list(t.get("with"), "with", "models")?.iter().enumerate() {
                others.push(r.model(item, &format!("with[{}]", i + 1), false)?);
            }
            return Ok(Some(Order::Concentrated {
                target: id,
                with: others,
            }));
        }
        return Ok(Some(if flag("aimed")? {
            Order::AimedShot(id)
        } else {
            Order::Shoot(id)
        }));
    }
    if let Some(spell) = name_in(&t, "cast")? {
        let power = match t.get("power") {
            Plain::Nil => return Err(r.bad("cast without a power (1 to 3)")),
            p => match answer::whole(p) {
                Some(n @ 1..=3) => n as u8,
                _ => return Err(t.bad("power", "expected 1, 2 or 3")),
            },
        };
        let point = |key: &str| -> Result<Option<crate::geometry::Vec2>, HookError> {
            match t.get(key) {
                Plain::Nil => Ok(None),
                p => pos_of(r, key, p).map(Some),
            }
        };
        let what = t.text("what")?;
        return Ok(Some(Order::Cast(crate::rules::hooks::CastOrder {
            spell,
            power,
            target: model_in("target")?,
            from: point("from")?,
            to: point("to")?,
            at: point("at")?,
            what,
        })));
    }
    if flag("break_free")? {
        return Ok(Some(Order::BreakFree));
    }
    if let Some(b) = building_in("structural")? {
        return Ok(Some(Order::Structural(b)));
    }
    if let Some(b) = building_in("ignite")? {
        return Ok(Some(Order::Ignite(b)));
    }
    if flag("leave")? {
        return Ok(Some(Order::Leave));
    }
    match t.get("claim") {
        Plain::Nil => {}
        p @ (Plain::Int(_) | Plain::Num(_)) => match answer::whole(p) {
            Some(i) if i > 0 && i <= i64::from(u32::MAX) => {
                return Ok(Some(Order::Claim(TokenId(i as u32))))
            }
            _ => return Err(t.bad("claim", "expected a token from ctx:tokens or its id")),
        },
        p @ Plain::Table(_) => {
            let tok = r.fields(p, "claim", &answer::TOKEN)?;
            let id = match tok.get("id") {
                Plain::Nil => return Err(r.bad("claim = a table without a token id")),
                id => answer::whole(id)
                    .and_then(|i| u32::try_from(i).ok())
                    .ok_or_else(|| tok.bad("id", "expected a token id"))?,
            };
            return Ok(Some(Order::Claim(TokenId(id))));
        }
        _ => return Err(t.bad("claim", "expected a token from ctx:tokens or its id")),
    }
    if let Some(name) = name_in(&t, "use")? {
        return Ok(Some(Order::Use(name)));
    }
    if let Some(id) = model_in("heal")? {
        let what = match t.text("what")? {
            None => None,
            Some(w) if w == "wound" => Some(crate::rules::magic::Heal::Wound),
            Some(w) => Some(crate::rules::magic::Heal::Condition(
                parse_condition(&w)
                    .ok_or_else(|| r.bad(format!("what = {w:?}: not \"wound\" or a condition")))?,
            )),
        };
        return Ok(Some(Order::Heal { target: id, what }));
    }
    if let Some(name) = name_in(&t, "ability")? {
        let target = ability_target(r, t.get("target"))?;
        return Ok(Some(Order::Ability { name, target }));
    }
    match t.get("step") {
        Plain::Nil => {}
        p => {
            let aim = aim_of(r, p, "step")?
                .ok_or_else(|| r.bad("step = something it cannot step toward"))?;
            return Ok(Some(Order::Step(aim)));
        }
    }
    let aim = match t.get("move") {
        Plain::Nil => None,
        p => Some(
            aim_of(r, p, "move")?.ok_or_else(|| r.bad("move = something it cannot move toward"))?,
        ),
    };
    if let Some(aim) = aim {
        return match t.get("within") {
            Plain::Nil => Ok(Some(Order::Move(aim))),
            Plain::Int(n) if *n >= 0 => Ok(Some(Order::Approach {
                aim,
                within: *n as f64,
            })),
            Plain::Num(n) if n.is_finite() && *n >= 0.0 => {
                Ok(Some(Order::Approach { aim, within: *n }))
            }
            other => Err(r.field("within", other, "expected inches, 0 or more")),
        };
    }
    Err(r.bad(
        "none of melee, shoot, cast, break_free, structural, ignite, move, step, leave, claim, use, heal \
         or ability",
    ))
}

/// The keys that name an order's action; an order gives exactly one of them.
const ORDER_ACTIONS: [&str; 13] = [
    "melee",
    "shoot",
    "cast",
    "break_free",
    "structural",
    "ignite",
    "leave",
    "claim",
    "use",
    "heal",
    "ability",
    "step",
    "move",
];

/// A name given under `key` of an order (a spell's, an ability's, an item's), nil when absent.
fn name_in(t: &Fields, key: &str) -> Result<Option<String>, HookError> {
    match t.get(key) {
        Plain::Nil => Ok(None),
        Plain::Text(s) => Ok(Some(s.clone())),
        _ => Err(t.bad(key, "expected a name")),
    }
}

/// Read an aim (at `path`) from what a script returned: a view or handle of a model or building, a
/// snapshot (a table with `id`, or `name`), `{ edge = true }` or a point. `None` for a table that is
/// none of them.
pub(super) fn aim_of(r: &Reader, p: &Plain, path: &str) -> Result<Option<Aim>, HookError> {
    match p {
        Plain::View {
            of: ViewOf::Building(_),
            ..
        } => Ok(Some(Aim::Building(r.building(p, path)?))),
        Plain::View { .. } => Ok(Some(Aim::Model(r.model(p, path, false)?))),
        Plain::UserData(ud) if ud.is::<crate::script::api::handles::BuildingRef>() => {
            Ok(Some(Aim::Building(r.building(p, path)?)))
        }
        Plain::UserData(_) => Ok(Some(Aim::Model(r.model(p, path, false)?))),
        Plain::Table(entries) => {
            let has = |k: &str| entries.iter().any(|(key, _)| *key == Key::Name(k.into()));
            let get = |k: &str| {
                entries
                    .iter()
                    .find(|(key, _)| *key == Key::Name(k.into()))
                    .map_or(&Plain::Nil, |(_, v)| v)
            };
            if has("edge") && !matches!(get("edge"), Plain::Bool(false)) {
                return match get("edge") {
                    Plain::Bool(true) => Ok(Some(Aim::Edge)),
                    other => Err(r.field(
                        &answer::join(path, &Key::Name("edge".into())),
                        other,
                        "expected true",
                    )),
                };
            }
            if has("id") {
                return r.model(p, path, false).map(|id| Some(Aim::Model(id)));
            }
            if has("name") {
                return r.building(p, path).map(|b| Some(Aim::Building(b)));
            }
            if has("x") || has("y") {
                let at = r.fields(p, path, &POSITION)?;
                // Any number is read: a point that is NaN, infinite or off the table is refused where
                // it is checked against the table, with its value.
                let num = |k: &str| match at.get(k) {
                    Plain::Nil => Ok(None),
                    Plain::Int(i) => Ok(Some(*i as f64)),
                    Plain::Num(n) => Ok(Some(*n)),
                    _ => Err(at.bad(k, "expected a number")),
                };
                let (x, y) = (num("x")?, num("y")?);
                return match (x, y) {
                    (Some(x), Some(y)) => Ok(Some(Aim::Point(crate::geometry::Vec2::new(x, y)))),
                    _ => Ok(None),
                };
            }
            Ok(None)
        }
        other => Err(r.field(
            path,
            other,
            "expected a model, a building, a point or { edge = true }",
        )),
    }
}

/// A position in an order: `{x = .., y = ..}` or `{x, y}`, finite.
pub(super) fn pos_of(r: &Reader, key: &str, p: &Plain) -> Result<crate::geometry::Vec2, HookError> {
    let Plain::Table(entries) = p else {
        return Err(r.field(key, p, "expected a position {x = .., y = ..}"));
    };
    let get = |named: &str, index: i64| -> Result<f64, HookError> {
        let v = entries
            .iter()
            .find(|(k, _)| *k == Key::Name(named.into()))
            .or_else(|| entries.iter().find(|(k, _)| *k == Key::Index(index)))
            .map_or(&Plain::Nil, |(_, v)| v);
        match v {
            Plain::Int(i) => Ok(*i as f64),
            Plain::Num(n) if n.is_finite() => Ok(*n),
            Plain::Num(n) => Err(r.bad(format!(
                "{key}.{named} = {} (a position's x and y must be finite numbers)",
                answer::number(*n)
            ))),
            Plain::Nil => Err(r.bad(format!("{key} without a number `{named}`"))),
            other => Err(r.field(&format!("{key}.{named}"), other, "expected a number")),
        }
    };
    let unknown = entries.iter().find(|(k, _)| {
        !(matches!(k, Key::Index(1 | 2)) || matches!(k, Key::Name(n) if n == "x" || n == "y"))
    });
    if let Some((k, _)) = unknown {
        let hint = match k {
            Key::Name(n) => crate::names::closest(n, ["x", "y"])
                .map_or(String::new(), |m| format!(" (did you mean {m:?}?)")),
            _ => String::new(),
        };
        return Err(r.bad(format!(
            "an unknown key {} at {key}{hint}: a position is {{x = .., y = ..}} or {{x, y}}",
            match k {
                Key::Name(n) => format!("{n:?}"),
                Key::Index(i) => format!("[{i}]"),
                Key::Other(t) => format!("of type {t}"),
            }
        )));
    }
    Ok(crate::geometry::Vec2::new(get("x", 1)?, get("y", 2)?))
}

/// Read the target of an `{ ability = name, target = ... }` order: a model (view, handle or snapshot),
/// a building (its name, view or handle), a token (`{ id, kind }` from `ctx:tokens`) or a point.
pub(super) fn ability_target(
    r: &Reader,
    p: &Plain,
) -> Result<Option<crate::rules::hooks::AbilityTarget>, HookError> {
    use crate::rules::hooks::AbilityTarget;
    Ok(Some(match p {
        Plain::Nil => return Ok(None),
        Plain::Text(s) => AbilityTarget::Building(s.clone()),
        Plain::View {
            of: ViewOf::Building(_),
            ..
        } => AbilityTarget::Building(r.building(p, "target")?),
        Plain::View { .. } => AbilityTarget::Model(r.model(p, "target", false)?),
        Plain::UserData(ud) if ud.is::<crate::script::api::handles::BuildingRef>() => {
            AbilityTarget::Building(r.building(p, "target")?)
        }
        Plain::UserData(_) => AbilityTarget::Model(r.model(p, "target", false)?),
        Plain::Table(entries) => {
            let get = |k: &str| {
                entries
                    .iter()
                    .find(|(key, _)| *key == Key::Name(k.into()))
                    .map_or(&Plain::Nil, |(_, v)| v)
            };
            // A token from ctx:tokens has a token kind; a model snapshot's `kind` is its profile kind.
            let token = matches!(get("kind"), Plain::Text(k) if matches!(k.as_str(), "opportunity" | "barricade" | "trap"));
            match (get("id"), get("name")) {
                (Plain::Nil, Plain::Nil) => AbilityTarget::Point(pos_of(r, "target", p)?),
                (Plain::Nil, _) => AbilityTarget::Building(r.building(p, "target")?),
                (id, _) if token => AbilityTarget::Token(TokenId(
                    answer::whole(id)
                        .and_then(|i| u32::try_from(i).ok())
                        .ok_or_else(|| r.field("target.id", id, "expected a token id"))?,
                )),
                _ => AbilityTarget::Model(r.model(p, "target", false)?),
            }
        }
        other => {
            return Err(r.field(
                "target",
                other,
                "expected a model, a building, a token or a point",
            ))
        }
    }))
}

/// A building or hero in a Council order: a name or a view (its `name`).
pub(super) fn name_of(r: &Reader, key: &str, p: &Plain) -> Result<String, HookError> {
    match p {
        Plain::Text(s) => Ok(s.clone()),
        Plain::View { .. } | Plain::UserData(_) | Plain::Table(_) => {
            let named = |entries: &Vec<(Key, Plain)>| {
                entries
                    .iter()
                    .find(|(k, _)| *k == Key::Name("name".into()))
                    .map(|(_, v)| v.clone())
            };
            match p {
                Plain::Table(entries) => match named(entries) {
                    Some(Plain::Text(s)) => Ok(s),
                    _ => Err(r.bad(format!("{key} = a table without a `name`"))),
                },
                Plain::View {
                    of: ViewOf::Model(_),
                    game,
                    name,
                } => {
                    r.same_game(*game, key, p)?;
                    name.clone()
                        .ok_or_else(|| r.bad(format!("{key} = a view without a `name`")))
                }
                _ => r.building(p, key),
            }
        }
        other => Err(r.field(key, other, "expected a name or a view")),
    }
}

/// The order kinds of a Council order and the other keys each accepts (spec: `CouncilOrder`).
pub(super) const COUNCIL_KEYS: &[(&str, &[&str])] = &[
    ("upgrade", &["level"]),
    ("repair", &["supplies", "free"]),
    ("barricade", &["toward", "free", "reinforce"]),
    ("trap", &["free"]),
    ("heal", &[]),
    ("herb", &[]),
    ("resurrect", &["at"]),
];

/// The most orders a policy's `council` may return for one Council.
pub(crate) const MAX_COUNCIL_ORDERS: usize = 100;

/// Read the Council orders `v` a policy's `council` (or `g:council`) gave, as [`council_orders_of`]
/// reads them; a list longer than a Council takes is refused by its length before it is read.
pub(crate) fn council_orders_from(
    r: &Reader,
    lua: &Lua,
    v: &Value,
) -> Result<Vec<CouncilOrder>, HookError> {
    if let Value::Table(t) = v {
        if t.raw_len() > MAX_COUNCIL_ORDERS {
            return Err(r.bad(format!(
                "{} Council orders (at most {MAX_COUNCIL_ORDERS} in one Council)",
                t.raw_len()
            )));
        }
    }
    council_orders_of(r, &r.read(lua, v)?)
}

/// Read the Council orders a policy's `council` (or `g:council`) gave: nil (no orders) or an array of
/// order tables, each with exactly one kind key and only that kind's other keys. A malformed order is
/// an error naming it, not a refusal: refusals are for well-formed orders the rules do not allow.
pub(super) fn council_orders_of(r: &Reader, v: &Plain) -> Result<Vec<CouncilOrder>, HookError> {
    let items = match v {
        Plain::Nil => return Ok(Vec::new()),
        p @ Plain::Table(entries) => {
            // A Council is a handful of purchases: a runaway list would grow the log (a refusal each)
            // outside the VM's memory limit.
            if entries.len() > MAX_COUNCIL_ORDERS {
                return Err(r.bad(format!(
                    "{} Council orders (at most {MAX_COUNCIL_ORDERS} in one Council)",
                    entries.len()
                )));
            }
            r.list(p, "", "Council orders")?
        }
        other => return Err(r.field("", other, "expected an array of Council orders")),
    };
    let mut out = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let at = i + 1;
        let Plain::Table(entries) = item else {
            return Err(r.bad(format!(
                "order {at}: {} (expected a table)",
                answer::describe(item)
            )));
        };
        let mut keys = Vec::new();
        for (k, _) in entries {
            match k {
                Key::Name(k) => keys.push(k.as_str()),
                Key::Index(i) => return Err(r.bad(format!("order {at}: a key [{i}]"))),
                Key::Other(t) => return Err(r.bad(format!("order {at}: a {t} key"))),
            }
        }
        let kinds: Vec<&(&str, &[&str])> = COUNCIL_KEYS
            .iter()
            .filter(|(k, _)| keys.contains(k))
            .collect();
        let [(kind, extra)] = kinds[..] else {
            return Err(r.bad(format!(
                "order {at}: it needs exactly one of upgrade, repair, barricade, trap, heal, herb or resurrect"
            )));
        };
        if let Some(k) = keys.iter().find(|k| **k != *kind && !extra.contains(k)) {
            let hint = crate::names::closest(k, extra.iter().copied())
                .map_or(String::new(), |m| format!(" (did you mean {m:?}?)"));
            return Err(r.bad(format!("order {at} ({kind}): unknown key {k:?}{hint}")));
        }
        let get = |k: &str| {
            entries
                .iter()
                .find(|(key, _)| *key == Key::Name(k.into()))
                .map_or(&Plain::Nil, |(_, v)| v)
        };
        let flag = |k: &str| -> Result<bool, HookError> {
            match get(k) {
                Plain::Nil => Ok(false),
                Plain::Bool(b) => Ok(*b),
                other => Err(r.bad(format!("order {at}: {k} = {}", answer::describe(other)))),
            }
        };
        let whole = |k: &str| -> Result<Option<u32>, HookError> {
            match get(k) {
                Plain::Nil => Ok(None),
                p => match answer::whole(p) {
                    Some(n) if (0..=i64::from(u16::MAX)).contains(&n) => Ok(Some(n as u32)),
                    _ => Err(r.bad(format!(
                        "order {at}: {k} = {} (expected a whole number from 0 to {})",
                        answer::describe(p),
                        u16::MAX
                    ))),
                },
            }
        };
        let main = get(kind);
        let named = |p: &Plain| {
            name_of(r, kind, p).map_err(|e| HookError {
                message: e.message.replacen(
                    &format!("{kind} ="),
                    &format!("order {at}: {kind} ="),
                    1,
                ),
            })
        };
        let pos = |k: &str, p: &Plain| pos_of(r, &format!("order {at}: {k}"), p);
        out.push(match *kind {
            "upgrade" => CouncilOrder::Upgrade {
                building: named(main)?,
                level: whole("level")?.map(|l| l.min(u32::from(u8::MAX)) as u8),
            },
            "repair" => CouncilOrder::Repair {
                building: named(main)?,
                supplies: whole("supplies")?,
                free: flag("free")?,
            },
            "barricade" => CouncilOrder::Barricade {
                from: pos("barricade", main)?,
                toward: pos("toward", get("toward"))?,
                free: flag("free")?,
                reinforce: flag("reinforce")?,
            },
            "trap" if flag("free")? => CouncilOrder::FreeTrap {
                at: pos("trap", main)?,
            },
            "trap" => CouncilOrder::Trap {
                at: pos("trap", main)?,
            },
            "heal" => CouncilOrder::Heal { hero: named(main)? },
            "herb" => CouncilOrder::Herb { hero: named(main)? },
            _ => CouncilOrder::Resurrect {
                hero: named(main)?,
                at: match get("at") {
                    Plain::Nil => None,
                    p => Some(pos("at", p)?),
                },
            },
        });
    }
    Ok(out)
}

/// Read the policy's `deploy` answer: nil, or `{ warhorse = hero, ready_mounts = { hero = h, to = {x, y} } }`.
pub(super) fn deploy_choices_of(
    r: &Reader,
    module: &Module,
    v: &Plain,
) -> Result<DeployChoices, HookError> {
    let mut out = DeployChoices {
        source: module.label.clone(),
        ..DeployChoices::default()
    };
    if matches!(v, Plain::Nil) {
        return Ok(out);
    }
    let t = r.fields(v, "", &DEPLOY_CHOICES)?;
    match t.get("warhorse") {
        Plain::Nil => {}
        w => out.warhorse = Some(r.model(w, "warhorse", true)?),
    }
    match t.get("ready_mounts") {
        Plain::Nil => {}
        rm @ Plain::Table(_) => {
            let f = r.fields(rm, "ready_mounts", &READY_MOUNTS)?;
            let hero = r.model(f.get("hero"), "ready_mounts.hero", true)?;
            let to = match f.get("to") {
                p @ Plain::Table(_) => {
                    let at = r.fields(p, "ready_mounts.to", &POSITION)?;
                    match (at.number("x")?, at.number("y")?) {
                        (Some(x), Some(y)) => crate::geometry::Vec2::new(x, y),
                        _ => return Err(r.bad("ready_mounts.to without finite x and y")),
                    }
                }
                _ => return Err(r.bad("ready_mounts without `to = {x, y}`")),
            };
            out.ready_mounts = Some((hero, to));
        }
        other => return Err(r.field("ready_mounts", other, "expected a ReadyMountsChoice")),
    }
    Ok(out)
}

/// Read a variant's `build_wave` answer: nil (use the default builder) or an array of one or more
/// Groups `{ models = {profile, ...}, behaviour = "...", edge = 1..4 }`. An empty array is refused: a
/// wave with no enemies is not a wave (§5.2 builds every wave of at least one Group), and it would win
/// at once. Only the shape is checked here; the kernel checks the rules (`wave::plan_from_script`).
pub(super) fn scripted_wave_of(
    r: &Reader,
    module: &Module,
    v: &Plain,
) -> Result<Option<ScriptedWave>, HookError> {
    let items = match v {
        Plain::Nil => return Ok(None),
        p @ Plain::Table(_) => r.list(p, "", "Groups")?,
        other => return Err(r.field("", other, "expected an array of Groups or nil")),
    };
    if items.is_empty() {
        return Err(r.bad(
            "no Group: a wave with no enemies is not a wave (return nil to let the default builder \
             build it)",
        ));
    }
    let mut groups = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let n = i + 1;
        let at = format!("[{n}]");
        if !matches!(item, Plain::Table(_)) {
            return Err(r.bad(format!("Group {n} that is not a table")));
        }
        let g = r.fields(item, &at, &WAVE_GROUP)?;
        let models = match g.get("models") {
            p @ Plain::Table(_) => r
                .list(p, &format!("{at}.models"), "profile names")?
                .into_iter()
                .enumerate()
                .map(|(j, m)| match m {
                    Plain::Text(s) => Ok(s.clone()),
                    other => Err(r.field(
                        &format!("{at}.models[{}]", j + 1),
                        other,
                        "expected a profile name",
                    )),
                })
                .collect::<Result<Vec<String>, HookError>>()?,
            _ => {
                return Err(r.bad(format!(
                    "Group {n} without `models`, an array of profile names"
                )))
            }
        };
        let behaviour = match g.get("behaviour") {
            Plain::Text(s) => s.clone(),
            _ => return Err(r.bad(format!("Group {n} without `behaviour`"))),
        };
        let edge = match g.get("edge") {
            p @ (Plain::Int(_) | Plain::Num(_)) => match answer::whole(p) {
                Some(e) if e.abs() < 1_000_000_000 => e,
                _ => return Err(g.bad("edge", "expected 1 to 4")),
            },
            other => {
                return Err(r.bad(format!(
                    "Group {n} with edge = {} (expected 1 to 4)",
                    answer::describe(other)
                )))
            }
        };
        groups.push(ScriptedGroup {
            models,
            behaviour,
            edge,
        });
    }
    Ok(Some(ScriptedWave {
        source: module.label.clone(),
        groups,
    }))
}

/// The table `win_rules` and `on_result` hooks receive about a won roll.
pub(super) fn win_table(
    lua: &Lua,
    ctx: &Ctx,
    win: &WinInfo,
    me: ModelId,
    result: CombatResult,
) -> mlua::Result<Value> {
    // Made with room for its eight fields (see `roll_table`).
    let t = lua.create_table_with_capacity(0, 8)?;
    t.raw_set("kind", win.kind.as_str())?;
    t.raw_set("result", result.as_str())?;
    t.raw_set("role", if me == win.winner { "winner" } else { "loser" })?;
    t.raw_set("attacker_won", win.attacker_won)?;
    t.raw_set("winner_die", win.winner_die)?;
    t.raw_set("winner_total", win.winner_total)?;
    t.raw_set("loser_total", win.loser_total)?;
    let other = if me == win.winner {
        win.loser
    } else {
        win.winner
    };
    t.raw_set("opponent", ctx.model_view_of(lua, other)?)?;
    Ok(Value::Table(t))
}

pub(super) fn parse_condition(name: &str) -> Option<Condition> {
    Some(match name {
        "defenseless" => Condition::Defenseless,
        "transfixed" => Condition::Transfixed,
        "entangled" => Condition::Entangled,
        _ => return None,
    })
}

pub(super) fn parse_result(name: &str) -> Option<CombatResult> {
    Some(match name {
        "tie" => CombatResult::Tie,
        "recoil" => CombatResult::Recoil,
        "defenseless" => CombatResult::Defenseless,
        "defeated" => CombatResult::Defeated,
        "gruesome" => CombatResult::Gruesome,
        "none" => CombatResult::None,
        "wound" => CombatResult::Wound,
        "entangled" => CombatResult::Entangled,
        _ => return None,
    })
}

pub(super) fn bad_return(module: &Module, entry: &str, what: &str) -> HookError {
    HookError {
        message: format!("{}: {entry} returned {what}", module.label),
    }
}

pub(super) fn role_name(r: Role) -> &'static str {
    match r {
        Role::Attacker => "attacker",
        Role::Defender => "defender",
    }
}

pub(super) fn other(r: Role) -> Role {
    match r {
        Role::Attacker => Role::Defender,
        Role::Defender => Role::Attacker,
    }
}

/// What a modifier hook learns about the roll: its kind, the asking model's role, both sides.
pub(super) fn roll_table(lua: &Lua, ctx: &Ctx, roll: &RollInfo, role: Role) -> mlua::Result<Table> {
    // Made with room for its fields (a table grown one field at a time is rehashed at each power of two).
    let t = lua.create_table_with_capacity(0, 8)?;
    t.raw_set("kind", roll.kind.as_str())?;
    t.raw_set("role", role_name(role))?;
    t.raw_set("attacker", ctx.model_view_of(lua, roll.attacker)?)?;
    match &roll.target {
        Target::Model(id) => t.raw_set("target", ctx.model_view_of(lua, *id)?)?,
        Target::Building(name) => t.raw_set("target", ctx.building_view_named(lua, name)?)?,
        Target::Token(id) => t.raw_set("target_token", id.0)?,
    }
    t.raw_set("power_blow", roll.power_blow)?;
    t.raw_set("aimed", roll.aimed)?;
    t.raw_set("free_hack", roll.free_hack)?;
    Ok(t)
}

/// Read a hero policy's plan: a list of orders (`{ { move = foe }, { move = foe } }`), carried out in
/// order; an empty list is nothing more this activation; nil is no plan (`None`: the policy's `act` is
/// asked for each action left). A single order table is refused (a plan is a list, so a forgotten pair
/// of braces is not read as an empty plan).
pub(super) fn plan_of(r: &Reader, lua: &Lua, v: &Value) -> Result<Option<Vec<Order>>, HookError> {
    let p = r.read(lua, v)?;
    match &p {
        Plain::Nil => return Ok(None),
        Plain::Table(entries) if entries.iter().any(|(k, _)| !matches!(k, Key::Index(_))) => {
            return Err(r.field(
                "",
                &p,
                "expected a list of orders: `{ { move = foe }, { melee = foe } }`, not an order",
            ))
        }
        Plain::Table(_) => {}
        other => return Err(r.field("", other, "expected a list of orders or nil")),
    }
    let mut out = Vec::new();
    for item in r.list(&p, "", "orders")? {
        if let Some(o) = parse_order(r, item)? {
            out.push(o);
        }
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each shape read here is its spec class's fields, no more and no fewer.
    #[test]
    fn the_shapes_are_the_specs() {
        for shape in [
            ACTIVATION_ANSWER,
            BEHAVIOUR_ORDER,
            DEPLOY_CHOICES,
            READY_MOUNTS,
            WAVE_GROUP,
            POSITION,
            super::super::ctx_api::GRANT_OPTIONS,
            super::super::rollouts::CANDIDATE,
            super::super::rollouts::OPTIONS,
            super::super::council::COUNCIL_GRANT,
        ]
        .iter()
        .chain(super::super::replies::SHAPES)
        .chain(crate::script::api::answer::SHAPES)
        {
            let mut spec = crate::script::api::spec::options(shape.class);
            let mut mine = shape.keys.to_vec();
            spec.sort();
            mine.sort();
            assert_eq!(mine, spec, "{}", shape.class);
        }
    }
}
