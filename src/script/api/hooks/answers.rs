//! Reading what scripts return: an order (a Behaviour's or the policy's `act`), a Council's orders, the
//! policy's wave-start choices, a Lua wave builder's Groups, modifiers, and the tables scripts are
//! handed (a roll, a win, snapshots). Each malformed answer is an error naming the script and entry.

use super::*;

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

/// Read the hero policy's `activate` answer (§3.1, §3.7): nil for two dice, a number of dice, false or 0
/// for "not now", or `{ dice = n, cast = true, group = { friends... } }`.
pub(super) fn activation_ask_of(
    module: &Module,
    v: Value,
) -> Result<Option<crate::rules::hooks::ActivationAsk>, HookError> {
    use crate::rules::hooks::ActivationAsk;
    let bad = |what: &str| bad_return(module, "activate", what);
    let dice = |v: Value| -> Result<u8, HookError> {
        match v {
            Value::Integer(n @ 1..=3) => Ok(n as u8),
            Value::Number(n) if [1.0, 2.0, 3.0].contains(&n) => Ok(n as u8),
            Value::Integer(n) => Err(bad(&format!("dice = {n} (expected 1, 2 or 3)"))),
            Value::Number(n) => Err(bad(&format!("dice = {n} (expected 1, 2 or 3)"))),
            other => Err(bad(&format!(
                "dice = a {} (expected 1, 2 or 3)",
                other.type_name()
            ))),
        }
    };
    match v {
        Value::Nil => Ok(Some(ActivationAsk::dice(2))),
        Value::Boolean(false) | Value::Integer(0) => Ok(None),
        Value::Integer(_) | Value::Number(_) => Ok(Some(ActivationAsk::dice(dice(v)?))),
        Value::Table(t) => {
            only_keys(module, "activate", &t, &["dice", "cast", "group"])?;
            let n = match t.raw_get::<Value>("dice").map_err(hook_err)? {
                Value::Nil => 2,
                d => dice(d)?,
            };
            let cast = match t.raw_get::<Value>("cast").map_err(hook_err)? {
                Value::Nil => false,
                Value::Boolean(b) => b,
                other => return Err(bad(&format!("cast = a {}", other.type_name()))),
            };
            let mut group = Vec::new();
            match t.raw_get::<Value>("group").map_err(hook_err)? {
                Value::Nil => {}
                Value::Table(list) => {
                    for item in list.sequence_values::<Value>() {
                        let item = item.map_err(hook_err)?;
                        group.push(answer_model(module, "activate", "group", &item)?);
                    }
                }
                other => return Err(bad(&format!("group = a {}", other.type_name()))),
            }
            Ok(Some(ActivationAsk {
                dice: n,
                cast,
                group,
            }))
        }
        other => Err(bad(&format!(
            "a {} (expected dice, false, or {{ dice, cast, group }})",
            other.type_name()
        ))),
    }
}

/// Read an order (a Behaviour's or a policy's `act`) from what the script returned.
pub(super) fn order_of(module: &Module, entry: &str, v: Value) -> Result<Option<Order>, HookError> {
    parse_order(v, &|what: &str| bad_return(module, entry, what))
}

/// Read an order given to `g:order` (models as handles or snapshots); the error says what was wrong.
pub(crate) fn order_from(v: Value) -> Result<Option<Order>, HookError> {
    parse_order(v, &|what: &str| HookError {
        message: format!("the order is {what}"),
    })
}

/// Read an order from a table: one of its keys (see `BehaviourOrder` in the spec).
pub(super) fn parse_order(
    v: Value,
    bad: &dyn Fn(&str) -> HookError,
) -> Result<Option<Order>, HookError> {
    let Value::Table(table) = v else {
        return match v {
            Value::Nil => Ok(None),
            other => Err(bad(&format!("a {}", other.type_name()))),
        };
    };
    // Read once: an order names one or two of the keys below, each looked up in Rust.
    let t = crate::script::api::convert::Entries::of(&table).map_err(hook_err)?;
    let model_in = |key: &str| -> Result<Option<ModelId>, HookError> {
        match t.get(key) {
            Value::Table(s) => Ok(Some(id_of(&s).map_err(hook_err)?)),
            Value::UserData(ud) => match ud.borrow::<crate::script::api::handles::ModelRef>() {
                Ok(m) => Ok(Some(m.id)),
                Err(_) => Err(bad(&format!("{key} that is not a model"))),
            },
            Value::Nil => Ok(None),
            _ => Err(bad(&format!("{key} that is not a model snapshot"))),
        }
    };
    let building_in = |key: &str| -> Result<Option<String>, HookError> {
        match t.get(key) {
            Value::Table(s) => Ok(Some(s.raw_get::<String>("name").map_err(hook_err)?)),
            Value::String(n) => Ok(Some(n.to_string_lossy())),
            Value::Nil => Ok(None),
            _ => Err(bad(&format!("{key} that is not a building"))),
        }
    };
    let flag = |key: &str| -> Result<bool, HookError> {
        match t.get(key) {
            Value::Nil => Ok(false),
            Value::Boolean(b) => Ok(b),
            other => Err(bad(&format!(
                "{key} = a {} (expected true or false)",
                other.type_name()
            ))),
        }
    };
    // One action per order: `{ melee = o, shoot = o }` is refused rather than read as its first key.
    let given: Vec<&str> = ORDER_ACTIONS
        .iter()
        .copied()
        .filter(|k| !matches!(t.get(k), Value::Nil | Value::Boolean(false)))
        .collect();
    if let [first @ .., last] = given.as_slice() {
        if !first.is_empty() {
            return Err(bad(&format!(
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
        if let Value::Table(with) = t.get("with") {
            // Concentrated Shooting (§3.5): the other shooters that fire with it.
            let mut others = Vec::new();
            for item in with.sequence_values::<Value>() {
                match item.map_err(hook_err)? {
                    Value::Table(s) => others.push(id_of(&s).map_err(hook_err)?),
                    Value::UserData(ud) => match ud
                        .borrow::<crate::script::api::handles::ModelRef>()
                    {
                        Ok(m) => others.push(m.id),
                        Err(_) => return Err(bad("with holding something that is not a model")),
                    },
                    other => {
                        return Err(bad(&format!(
                            "with holding a {} (expected model snapshots)",
                            other.type_name()
                        )))
                    }
                }
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
    if let Some(spell) = name_in(&t, "cast", bad)? {
        let power = match t.get("power") {
            Value::Integer(n @ 1..=3) => n as u8,
            Value::Number(n) if [1.0, 2.0, 3.0].contains(&n) => n as u8,
            Value::Nil => return Err(bad("cast without a power (1 to 3)")),
            other => {
                return Err(bad(&format!(
                    "power = {} (expected 1, 2 or 3)",
                    match other {
                        Value::Integer(n) => n.to_string(),
                        Value::Number(n) => n.to_string(),
                        o => format!("a {}", o.type_name()),
                    }
                )))
            }
        };
        let point = |key: &str| -> Result<Option<crate::geometry::Vec2>, HookError> {
            match t.get(key) {
                Value::Nil => Ok(None),
                v => pos_of(key, &v).map(Some).map_err(|why| bad(&why)),
            }
        };
        let what = match t.get("what") {
            Value::Nil => None,
            Value::String(w) => Some(w.to_string_lossy()),
            other => return Err(bad(&format!("what = a {}", other.type_name()))),
        };
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
    if matches!(t.get("leave"), Value::Boolean(true)) {
        return Ok(Some(Order::Leave));
    }
    match t.get("claim") {
        Value::Nil => {}
        Value::Integer(i) if i > 0 => return Ok(Some(Order::Claim(TokenId(i as u32)))),
        Value::Table(tok) => {
            let id = tok
                .raw_get::<Option<u32>>("id")
                .map_err(hook_err)?
                .ok_or_else(|| bad("claim = a table without a token id"))?;
            return Ok(Some(Order::Claim(TokenId(id))));
        }
        other => {
            return Err(bad(&format!(
                "claim = {} (expected a token from ctx:tokens or its id)",
                other.type_name()
            )))
        }
    }
    match t.get("use") {
        Value::Nil => {}
        Value::String(name) => return Ok(Some(Order::Use(name.to_string_lossy()))),
        other => {
            return Err(bad(&format!(
                "use = {} (expected the name of an item it carries)",
                other.type_name()
            )))
        }
    }
    if let Some(id) = model_in("heal")? {
        let what = match t.get("what") {
            Value::Nil => None,
            Value::String(w) if w.to_string_lossy() == "wound" => {
                Some(crate::rules::magic::Heal::Wound)
            }
            Value::String(w) => Some(crate::rules::magic::Heal::Condition(
                parse_condition(&w.to_string_lossy()).ok_or_else(|| {
                    bad(&format!(
                        "what = {:?}: not \"wound\" or a condition",
                        w.to_string_lossy()
                    ))
                })?,
            )),
            other => return Err(bad(&format!("what = a {}", other.type_name()))),
        };
        return Ok(Some(Order::Heal { target: id, what }));
    }
    if let Some(name) = name_in(&t, "ability", bad)? {
        let target = abilities::ability_target(t.get("target")).map_err(|why| bad(&why))?;
        return Ok(Some(Order::Ability { name, target }));
    }
    match t.get("step") {
        Value::Table(m) => {
            let aim = aim_of(&m)
                .map_err(hook_err)?
                .ok_or_else(|| bad("step = something it cannot step toward"))?;
            return Ok(Some(Order::Step(aim)));
        }
        Value::UserData(_) => return Ok(model_in("step")?.map(|m| Order::Step(Aim::Model(m)))),
        _ => {}
    }
    let aim = match t.get("move") {
        Value::Table(m) => Some(
            aim_of(&m)
                .map_err(hook_err)?
                .ok_or_else(|| bad("move = something it cannot move toward"))?,
        ),
        Value::UserData(_) => model_in("move")?.map(Aim::Model),
        _ => None,
    };
    if let Some(aim) = aim {
        return match t.get("within") {
            Value::Nil => Ok(Some(Order::Move(aim))),
            Value::Integer(n) if n >= 0 => Ok(Some(Order::Approach {
                aim,
                within: n as f64,
            })),
            Value::Number(n) if n.is_finite() && n >= 0.0 => {
                Ok(Some(Order::Approach { aim, within: n }))
            }
            other => Err(bad(&format!(
                "within = {} (expected inches, 0 or more)",
                match other {
                    Value::Integer(n) => n.to_string(),
                    Value::Number(n) => n.to_string(),
                    o => format!("a {}", o.type_name()),
                }
            ))),
        };
    }
    Err(bad(
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

/// A name given under `key` of an order (a spell's, an ability's), nil when absent.
fn name_in(
    t: &crate::script::api::convert::Entries,
    key: &str,
    bad: &dyn Fn(&str) -> HookError,
) -> Result<Option<String>, HookError> {
    match t.get(key) {
        Value::Nil => Ok(None),
        Value::String(s) => Ok(Some(s.to_string_lossy())),
        other => Err(bad(&format!(
            "{key} = a {} (expected a name)",
            other.type_name()
        ))),
    }
}

/// Read an aim back from what a script returned (a snapshot, a point, `{ edge = true }`).
pub(super) fn aim_of(t: &Table) -> mlua::Result<Option<Aim>> {
    if t.raw_get::<Option<bool>>("edge")?.unwrap_or(false) {
        return Ok(Some(Aim::Edge));
    }
    if let Some(id) = t.raw_get::<Option<u32>>("id")? {
        return Ok(Some(Aim::Model(ModelId(id))));
    }
    if let Some(name) = t.raw_get::<Option<String>>("name")? {
        return Ok(Some(Aim::Building(name)));
    }
    match (
        t.raw_get::<Option<f64>>("x")?,
        t.raw_get::<Option<f64>>("y")?,
    ) {
        (Some(x), Some(y)) => Ok(Some(Aim::Point(crate::geometry::Vec2::new(x, y)))),
        _ => Ok(None),
    }
}

/// A position in an order: `{x = .., y = ..}` or `{x, y}`.
pub(super) fn pos_of(key: &str, v: &Value) -> Result<crate::geometry::Vec2, String> {
    let Value::Table(t) = v else {
        return Err(format!(
            "{key} = a {} (expected a position {{x = .., y = ..}})",
            v.type_name()
        ));
    };
    let get = |named: &str, index: i64| -> Result<f64, String> {
        let v = match t.raw_get::<Value>(named).map_err(|e| e.to_string())? {
            Value::Nil => t.raw_get::<Value>(index).map_err(|e| e.to_string())?,
            v => v,
        };
        match v {
            Value::Integer(i) => Ok(i as f64),
            Value::Number(n) if n.is_finite() => Ok(n),
            Value::Number(n) => Err(format!(
                "{key}.{named} = {n} (a position's x and y must be finite numbers)"
            )),
            _ => Err(format!("{key} without a number `{named}`")),
        }
    };
    Ok(crate::geometry::Vec2::new(get("x", 1)?, get("y", 2)?))
}

/// A building or hero in an order: a name or a snapshot (its `name`).
pub(super) fn name_of(key: &str, v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.to_string_lossy()),
        Value::Table(t) => match t.raw_get::<Value>("name").map_err(|e| e.to_string())? {
            Value::String(s) => Ok(s.to_string_lossy()),
            _ => Err(format!("{key} = a table without a `name`")),
        },
        other => Err(format!(
            "{key} = a {} (expected a name or a snapshot)",
            other.type_name()
        )),
    }
}

/// A model named in a script's answer: a snapshot (or any table with `id`) or a model id.
pub(super) fn answer_model(
    module: &Module,
    entry: &str,
    key: &str,
    v: &Value,
) -> Result<ModelId, HookError> {
    match v {
        Value::Table(t) => id_of(t).map_err(|_| {
            bad_return(
                module,
                entry,
                &format!("{key} = a table without a model id"),
            )
        }),
        Value::Integer(i) if *i > 0 && *i <= i64::from(u32::MAX) => Ok(ModelId(*i as u32)),
        other => Err(bad_return(
            module,
            entry,
            &format!("{key} = a {} (expected a model)", other.type_name()),
        )),
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

/// Read the Council orders a policy's `council` (or `g:council`) gave: nil (no orders) or an array of
/// order tables, each with exactly one kind key and only that kind's other keys. A malformed order is
/// an error naming it, not a refusal: refusals are for well-formed orders the rules do not allow.
pub(crate) fn council_orders_of(v: &Value) -> Result<Vec<CouncilOrder>, String> {
    let list = match v {
        Value::Nil => return Ok(Vec::new()),
        Value::Table(t) => t,
        other => {
            return Err(format!(
                "a {} (expected an array of Council orders)",
                other.type_name()
            ))
        }
    };
    // A Council is a handful of purchases: a runaway list would grow the log (a refusal each) outside
    // the VM's memory limit.
    if list.raw_len() > MAX_COUNCIL_ORDERS {
        return Err(format!(
            "{} Council orders (at most {MAX_COUNCIL_ORDERS} in one Council)",
            list.raw_len()
        ));
    }
    let mut out = Vec::new();
    for (i, item) in list.clone().sequence_values::<Value>().enumerate() {
        let at = i + 1;
        let item = item.map_err(|e| e.to_string())?;
        let Value::Table(t) = item else {
            return Err(format!(
                "order {at}: a {} (expected a table)",
                item.type_name()
            ));
        };
        let mut keys = Vec::new();
        for pair in t.clone().pairs::<Value, Value>() {
            let (k, _) = pair.map_err(|e| e.to_string())?;
            match k {
                Value::String(k) => keys.push(k.to_string_lossy()),
                other => return Err(format!("order {at}: a {} key", other.type_name())),
            }
        }
        let kinds: Vec<&(&str, &[&str])> = COUNCIL_KEYS
            .iter()
            .filter(|(k, _)| keys.iter().any(|x| x == k))
            .collect();
        let [(kind, extra)] = kinds[..] else {
            return Err(format!(
                "order {at}: it needs exactly one of upgrade, repair, barricade, trap, heal, herb or resurrect"
            ));
        };
        if let Some(k) = keys
            .iter()
            .find(|k| k.as_str() != *kind && !extra.contains(&k.as_str()))
        {
            return Err(format!("order {at} ({kind}): unknown key {k:?}"));
        }
        let get = |k: &str| t.raw_get::<Value>(k).map_err(|e| e.to_string());
        let flag = |k: &str| -> Result<bool, String> {
            match get(k)? {
                Value::Nil => Ok(false),
                Value::Boolean(b) => Ok(b),
                other => Err(format!("order {at}: {k} = a {}", other.type_name())),
            }
        };
        let whole = |k: &str| -> Result<Option<u32>, String> {
            match get(k)? {
                Value::Nil => Ok(None),
                Value::Integer(n) if (0..=i64::from(u16::MAX)).contains(&n) => Ok(Some(n as u32)),
                Value::Number(n)
                    if n.fract() == 0.0 && (0.0..=f64::from(u16::MAX)).contains(&n) =>
                {
                    Ok(Some(n as u32))
                }
                Value::Integer(n) => Err(format!(
                    "order {at}: {k} = {n} (expected a whole number from 0 to {})",
                    u16::MAX
                )),
                Value::Number(n) => Err(format!(
                    "order {at}: {k} = {} (expected a whole number from 0 to {})",
                    if n.abs() >= 1e9 {
                        format!("{n:e}")
                    } else {
                        n.to_string()
                    },
                    u16::MAX
                )),
                other => Err(format!(
                    "order {at}: {k} = a {} (expected a whole number from 0 to {})",
                    other.type_name(),
                    u16::MAX
                )),
            }
        };
        let main = get(kind)?;
        let named = |v: &Value| name_of(kind, v).map_err(|e| format!("order {at}: {e}"));
        let pos = |k: &str, v: &Value| pos_of(k, v).map_err(|e| format!("order {at}: {e}"));
        out.push(match *kind {
            "upgrade" => CouncilOrder::Upgrade {
                building: named(&main)?,
                level: whole("level")?.map(|l| l.min(u32::from(u8::MAX)) as u8),
            },
            "repair" => CouncilOrder::Repair {
                building: named(&main)?,
                supplies: whole("supplies")?,
                free: flag("free")?,
            },
            "barricade" => CouncilOrder::Barricade {
                from: pos("barricade", &main)?,
                toward: pos("toward", &get("toward")?)?,
                free: flag("free")?,
                reinforce: flag("reinforce")?,
            },
            "trap" if flag("free")? => CouncilOrder::FreeTrap {
                at: pos("trap", &main)?,
            },
            "trap" => CouncilOrder::Trap {
                at: pos("trap", &main)?,
            },
            "heal" => CouncilOrder::Heal {
                hero: named(&main)?,
            },
            "herb" => CouncilOrder::Herb {
                hero: named(&main)?,
            },
            _ => CouncilOrder::Resurrect {
                hero: named(&main)?,
                at: match get("at")? {
                    Value::Nil => None,
                    v => Some(pos("at", &v)?),
                },
            },
        });
    }
    Ok(out)
}

/// Check that a script's answer table holds only `allowed` keys (a typo is an error, not a choice that
/// silently never happens).
pub(super) fn only_keys(
    module: &Module,
    entry: &str,
    t: &Table,
    allowed: &[&str],
) -> Result<(), HookError> {
    // The usual answer is read in one walk; the walk below finds what to say about a stray key.
    if crate::script::api::convert::Entries::keys_within(t, allowed).map_err(hook_err)? {
        return Ok(());
    }
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair.map_err(hook_err)?;
        let name = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => format!("a {} key", other.type_name()),
        };
        if !allowed.contains(&name.as_str()) {
            return Err(bad_return(
                module,
                entry,
                &format!("{name:?} (expected {})", allowed.join(", ")),
            ));
        }
    }
    Ok(())
}

/// Read the policy's `deploy` answer: nil, or `{ warhorse = hero, ready_mounts = { hero = h, to = {x, y} } }`.
pub(super) fn deploy_choices_of(module: &Module, v: Value) -> Result<DeployChoices, HookError> {
    let mut out = DeployChoices {
        source: module.label.clone(),
        ..DeployChoices::default()
    };
    let t = match v {
        Value::Nil => return Ok(out),
        Value::Table(t) => t,
        other => {
            return Err(bad_return(
                module,
                "deploy",
                &format!(
                    "a {} (expected a DeployChoices table or nil)",
                    other.type_name()
                ),
            ))
        }
    };
    only_keys(module, "deploy", &t, &["warhorse", "ready_mounts"])?;
    let w: Value = t.raw_get("warhorse").map_err(hook_err)?;
    if !w.is_nil() {
        out.warhorse = Some(answer_model(module, "deploy", "warhorse", &w)?);
    }
    match t.raw_get::<Value>("ready_mounts").map_err(hook_err)? {
        Value::Nil => {}
        Value::Table(rm) => {
            only_keys(module, "deploy", &rm, &["hero", "to"])?;
            let hero = answer_model(
                module,
                "deploy",
                "ready_mounts.hero",
                &rm.raw_get::<Value>("hero").map_err(hook_err)?,
            )?;
            let to = match rm.raw_get::<Value>("to").map_err(hook_err)? {
                Value::Table(p) => match (
                    p.raw_get::<Option<f64>>("x").map_err(hook_err)?,
                    p.raw_get::<Option<f64>>("y").map_err(hook_err)?,
                ) {
                    (Some(x), Some(y)) if x.is_finite() && y.is_finite() => {
                        crate::geometry::Vec2::new(x, y)
                    }
                    _ => {
                        return Err(bad_return(
                            module,
                            "deploy",
                            "ready_mounts.to without finite x and y",
                        ))
                    }
                },
                _ => {
                    return Err(bad_return(
                        module,
                        "deploy",
                        "ready_mounts without `to = {x, y}`",
                    ))
                }
            };
            out.ready_mounts = Some((hero, to));
        }
        other => {
            return Err(bad_return(
                module,
                "deploy",
                &format!("ready_mounts = a {}", other.type_name()),
            ))
        }
    }
    Ok(out)
}

/// Read a variant's `build_wave` answer: nil (use the default builder) or an array of Groups
/// `{ models = {profile, ...}, behaviour = "...", edge = 1..4 }`. Only the shape is checked here; the
/// kernel checks the rules (`wave::plan_from_script`).
pub(super) fn scripted_wave_of(
    module: &Module,
    v: Value,
) -> Result<Option<ScriptedWave>, HookError> {
    let t = match v {
        Value::Nil => return Ok(None),
        Value::Table(t) => t,
        other => {
            return Err(bad_return(
                module,
                "build_wave",
                &format!(
                    "a {} (expected an array of Groups or nil)",
                    other.type_name()
                ),
            ))
        }
    };
    let mut groups = Vec::new();
    for (i, item) in t.sequence_values::<Value>().enumerate() {
        let n = i + 1;
        let Value::Table(g) = item.map_err(hook_err)? else {
            return Err(bad_return(
                module,
                "build_wave",
                &format!("Group {n} that is not a table"),
            ));
        };
        only_keys(module, "build_wave", &g, &["models", "behaviour", "edge"])?;
        let models = g
            .raw_get::<Option<Vec<String>>>("models")
            .ok()
            .flatten()
            .ok_or_else(|| {
                bad_return(
                    module,
                    "build_wave",
                    &format!("Group {n} without `models`, an array of profile names"),
                )
            })?;
        let behaviour = g
            .raw_get::<Option<String>>("behaviour")
            .ok()
            .flatten()
            .ok_or_else(|| {
                bad_return(
                    module,
                    "build_wave",
                    &format!("Group {n} without `behaviour`"),
                )
            })?;
        let edge = match g.raw_get::<Value>("edge").map_err(hook_err)? {
            Value::Integer(e) => e,
            Value::Number(x) if x.fract() == 0.0 && x.abs() < 1e9 => x as i64,
            other => {
                return Err(bad_return(
                    module,
                    "build_wave",
                    &format!(
                        "Group {n} with edge = a {} (expected 1 to 4)",
                        other.type_name()
                    ),
                ))
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

/// The largest modifier one hook may give (either way): far past any die's reach, small enough that
/// totals never overflow.
pub(crate) const MAX_MODIFIER: i32 = 100;

/// Accept `nil`, a number (a modifier to the hook owner's own total), `{value=, to=, reason=}` or an
/// array of those. `to` is "self" (default), "opponent", "attacker" or "defender".
pub(super) fn parse_modifiers(
    v: &Value,
    me: Role,
    module: &Module,
    entry: &str,
    out: &mut Vec<Modifier>,
) -> Result<(), HookError> {
    let bad = |what: String| {
        HookError {
        message: format!(
            "{}: {entry} returned {what}; expected nil, a whole number from -{MAX_MODIFIER} to {MAX_MODIFIER}, {{value = n, to = \"self\"|\"opponent\", reason = \"...\"}} or an array of those",
            module.label
        ),
    }
    };
    let whole = |n: f64| -> Result<i32, HookError> {
        if n.fract() == 0.0 && n.abs() <= f64::from(MAX_MODIFIER) {
            Ok(n as i32)
        } else {
            Err(bad(format!("the number {n}")))
        }
    };
    let push = |out: &mut Vec<Modifier>, value: i32, to: Role, reason: String| {
        if value != 0 {
            out.push(Modifier {
                to,
                value,
                reason,
                source: module.label.clone(),
            });
        }
    };
    match v {
        Value::Nil => Ok(()),
        Value::Integer(i) => {
            push(out, whole(*i as f64)?, me, module.stem().to_string());
            Ok(())
        }
        Value::Number(n) => {
            push(out, whole(*n)?, me, module.stem().to_string());
            Ok(())
        }
        Value::Table(t) => {
            let value: Value = t.raw_get("value").map_err(|e| bad(e.to_string()))?;
            if value.is_nil() {
                // An array of modifiers.
                for item in t.clone().sequence_values::<Value>() {
                    let item = item.map_err(|e| bad(e.to_string()))?;
                    if !matches!(item, Value::Table(_)) {
                        return Err(bad(format!("an array holding a {}", item.type_name())));
                    }
                    parse_modifiers(&item, me, module, entry, out)?;
                }
                return Ok(());
            }
            let n = match value {
                Value::Integer(i) => whole(i as f64)?,
                Value::Number(n) => whole(n)?,
                other => return Err(bad(format!("value = {}", other.type_name()))),
            };
            let to = match t
                .raw_get::<Option<String>>("to")
                .map_err(|e| bad(e.to_string()))?
                .as_deref()
            {
                None | Some("self") => me,
                Some("opponent") => other(me),
                Some("attacker") => Role::Attacker,
                Some("defender") => Role::Defender,
                Some(x) => return Err(bad(format!("to = {x:?}"))),
            };
            let reason = t
                .raw_get::<Option<String>>("reason")
                .and_then(|r| crate::script::api::convert::log_text(r, "reason"))
                .map_err(|e| bad(e.to_string()))?
                .unwrap_or_else(|| module.stem().to_string());
            push(out, n, to, reason);
            Ok(())
        }
        other => Err(bad(format!("a {}", other.type_name()))),
    }
}
