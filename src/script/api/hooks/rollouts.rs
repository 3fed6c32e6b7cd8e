//! `ctx:rollouts`, the rollout service as the hero policy sees it: its candidates and options read
//! (bounded, with errors at the script's line), the playouts played by the kernel
//! (`wave::rollout::estimate`) with the hooks of the playouts' policy (the default one unless named),
//! and the estimates handed back as a table for the policy to choose from (Lua decides). The playouts'
//! scripts spend a budget of their own — at most [`DECISION_INSTRUCTIONS`] VM instructions and
//! `rollout::MAX_EVENTS` events for all the calls of one decision — never the caller's, and sampling
//! stops where it runs out. The VM's `math.random` stream, the caller's budget and its deadline are put
//! back afterwards (the deadline moved on by the time the playouts took: they are the kernel's work).

use super::*;
use crate::script::api::answer::{Plain, Reader, Shape};
use crate::wave::rollout::{self, Candidate, Depth, Playouts, Score, Settings};

/// A candidate given to `ctx:rollouts` (spec: `RolloutCandidate`).
pub(super) const CANDIDATE: Shape = Shape {
    class: "RolloutCandidate",
    keys: &["model", "wait", "dice", "cast", "group", "order", "orders"],
};

/// The options of `ctx:rollouts` (spec: `RolloutOptions`).
pub(super) const OPTIONS: Shape = Shape {
    class: "RolloutOptions",
    keys: &[
        "samples",
        "depth",
        "score",
        "events",
        "instructions",
        "policy",
    ],
};

/// Playouts per candidate unless the options say.
pub const DEFAULT_SAMPLES: u32 = 8;
/// Events the playouts of one call may log unless the options say.
pub const DEFAULT_EVENTS: u64 = 100_000;
/// The VM instructions the playouts' scripts of one decision (one hook call, all its `ctx:rollouts`
/// calls together) may spend; a call's `instructions` option may only lower it.
pub const DECISION_INSTRUCTIONS: u64 = 100_000_000;

thread_local! {
    /// A playout is being played on this thread: a policy inside it may not start playouts of its own.
    static PLAYING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What one decision's playouts spent so far, across its `ctx:rollouts` calls.
#[derive(Default)]
pub(super) struct Spent {
    instructions: std::cell::Cell<u64>,
    events: std::cell::Cell<u64>,
}

/// The hooks the playouts play with, and the VM state they touch.
struct Playing<'a> {
    hooks: ScriptHooks<'a>,
    host: Rc<crate::script::host::Host>,
}

impl Playouts for Playing<'_> {
    fn hooks(&self) -> &dyn Hooks {
        &self.hooks
    }
    fn before(&self, seed: u64) {
        // The playout's scripts draw `math.random` from a stream of the sample's own.
        *self.host.dice.borrow_mut() = crate::dice::Dice::new(seed.rotate_left(17));
    }
    fn spent(&self) -> bool {
        self.host.budget.exhausted.get()
    }
}

/// Read the candidates: a list of `RolloutCandidate` tables.
fn candidates(r: &Reader, lua: &Lua, v: &Value) -> Result<Vec<Candidate>, HookError> {
    let p = r.read(lua, v)?;
    let items = r.list(&p, "candidates", "candidates")?;
    if items.is_empty() || items.len() > rollout::MAX_CANDIDATES {
        return Err(r.bad(format!(
            "candidates lists {} (give 1 to {})",
            items.len(),
            rollout::MAX_CANDIDATES
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| candidate(r, item, &format!("candidates[{}]", i + 1)))
        .collect()
}

/// One candidate: `{ model = m, wait = true }`, `{ model = m, dice = 2, cast = true, group = {...} }`,
/// `{ order = order }` or `{ orders = { ... } }`.
fn candidate(r: &Reader, p: &Plain, path: &str) -> Result<Candidate, HookError> {
    let f = r.fields(p, path, &CANDIDATE)?;
    let model = match f.get("model") {
        Plain::Nil => None,
        m => Some(r.model(m, &f.path("model"), true)?),
    };
    let orders = match (f.get("order"), f.get("orders")) {
        (Plain::Nil, Plain::Nil) => None,
        (o, Plain::Nil) => Some(vec![
            super::parse_order(r, o)?.ok_or_else(|| f.bad("order", "an order, not nil"))?
        ]),
        (Plain::Nil, list) => {
            let mut out = Vec::new();
            for item in r.list(list, &f.path("orders"), "orders")? {
                if let Some(o) = super::parse_order(r, item)? {
                    out.push(o);
                }
            }
            Some(out)
        }
        _ => return Err(r.bad(format!("{path}: give `order` or `orders`, not both"))),
    };
    if let Some(orders) = orders {
        if model.is_some() || f.has("wait") || f.has("dice") || f.has("group") || f.has("cast") {
            return Err(r.bad(format!(
                "{path}: orders are for the model taking its actions: no model, wait, dice, group or cast"
            )));
        }
        return Ok(Candidate::Orders(orders));
    }
    let Some(model) = model else {
        return Err(r.bad(format!(
            "{path}: expected {{ model = m, dice = n }} (a nomination), {{ model = m, wait = true }} or \
             {{ order = o }}"
        )));
    };
    if f.flag("wait")?.unwrap_or(false) {
        return Ok(Candidate::Wait(model));
    }
    let dice = f.int("dice", 1, 3)?.map_or(2, |n| n as u8);
    let cast = f.flag("cast")?.unwrap_or(false);
    let mut group = Vec::new();
    if f.has("group") {
        for (i, item) in r
            .list(f.get("group"), &f.path("group"), "models")?
            .iter()
            .enumerate()
        {
            let m = r.model(item, &format!("{}[{}]", f.path("group"), i + 1), true)?;
            if m != model && !group.contains(&m) {
                group.push(m);
            }
        }
    }
    let ask = crate::rules::hooks::ActivationAsk { dice, cast, group };
    Ok(Candidate::Nominate(model, ask))
}

/// The value named under `key` (one of `all`), or `default`.
fn named<T: Copy>(
    f: &crate::script::api::answer::Fields,
    key: &str,
    all: &[(&str, T)],
    default: T,
) -> Result<T, HookError> {
    match f.text(key)? {
        None => Ok(default),
        Some(t) => all
            .iter()
            .find(|(n, _)| *n == t)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                let names: Vec<String> = all.iter().map(|(n, _)| format!("{n:?}")).collect();
                f.bad(key, &format!("expected {}", names.join(", ")))
            }),
    }
}

/// Read the options: the settings, the instructions asked for, and the playouts' policy.
fn options(r: &Reader, lua: &Lua, v: &Value) -> Result<(Settings, u64, String), HookError> {
    let p = r.read(lua, v)?;
    let empty = Plain::Table(Vec::new());
    let p = if matches!(p, Plain::Nil) { empty } else { p };
    let f = r.fields(&p, "options", &OPTIONS)?;
    let samples = f
        .int("samples", 1, i64::from(rollout::MAX_SAMPLES))?
        .map_or(DEFAULT_SAMPLES, |n| n as u32);
    let depth = named(&f, "depth", &Depth::ALL, Depth::Round)?;
    let score = named(&f, "score", &Score::ALL, Score::Result)?;
    let events = f
        .int("events", 1, rollout::MAX_EVENTS as i64)?
        .map_or(DEFAULT_EVENTS, |n| n as u64);
    let instructions = f
        .int("instructions", 1, DECISION_INSTRUCTIONS as i64)?
        .map_or(DECISION_INSTRUCTIONS, |n| n as u64);
    let policy = f.text("policy")?.unwrap_or_else(|| "default".to_string());
    Ok((
        Settings {
            samples,
            depth,
            score,
            events,
        },
        instructions,
        policy,
    ))
}

/// An error unless `policy` (scripts/policies/NAME.lua) is loaded, to play out with.
fn policy_exists(registry: &Registry, policy: &str) -> Result<(), String> {
    match registry.index_of(&format!("policies/{policy}.lua")) {
        Some(_) => Ok(()),
        None => Err(format!(
            "no policy {policy:?} to play out with (scripts/policies/{policy}.lua)"
        )),
    }
}

/// `ctx:rollouts(candidates, options)` for the hook call `this`.
pub(super) fn rollouts(
    lua: &Lua,
    this: &mut Ctx<'static>,
    cands: Value,
    opts: Value,
) -> mlua::Result<Value> {
    let at = crate::script::api::convert::caller(lua);
    let r = Reader::given(&at, "ctx:rollouts", this.game_id);
    let err = |e: HookError| mlua::Error::runtime(e.message);
    let no = |why: &str| fail(lua, format!("ctx:rollouts: {why}"));
    if PLAYING.with(|p| p.get()) {
        return Err(no("a playout's policy may not start playouts of its own"));
    }
    let Some(kernel) = this.kernel else {
        return Err(no("not available in a spell's cast"));
    };
    let is_policy = kernel
        .policy_module()
        .is_some_and(|m| m.label == this.source);
    if !is_policy {
        return Err(no(
            "only the hero policy may play out its decisions (its activate, act or plan)",
        ));
    }
    let list = candidates(&r, lua, &cands).map_err(err)?;
    let (mut settings, asked, policy) = options(&r, lua, &opts).map_err(err)?;
    policy_exists(&kernel.registry, &policy).map_err(|e| no(&e))?;
    let spent = &this.asked.playouts;
    let instructions_left = DECISION_INSTRUCTIONS.saturating_sub(spent.instructions.get());
    let events_left = rollout::MAX_EVENTS.saturating_sub(spent.events.get());
    if instructions_left == 0 || events_left == 0 {
        return Err(no(&format!(
            "this decision's playouts already spent their cap ({DECISION_INSTRUCTIONS} instructions and \
             {} events for one hook call)",
            rollout::MAX_EVENTS
        )));
    }
    settings.events = settings.events.min(events_left);
    let pool = asked.min(instructions_left);
    let host = host(lua)?;
    let game = match &mut this.view {
        View::Act(g) => &mut **g,
        View::Read(_) => return Err(no("this hook's ctx only reads the game")),
    };
    let playing = Playing {
        hooks: ScriptHooks::new(lua, kernel.core, kernel.registry.clone()).with_policy(&policy),
        host: host.clone(),
    };
    let b = &host.budget;
    let saved = (
        b.remaining.get(),
        b.exhausted.get(),
        b.charges_nested.get(),
        b.deadline.get(),
        b.failures.get(),
    );
    let vm_dice = host.dice.borrow().clone();
    b.remaining.set(pool);
    b.exhausted.set(false);
    b.charges_nested.set(true);
    b.deadline.set(None);
    let started = std::time::Instant::now();
    PLAYING.with(|p| p.set(true));
    let result = rollout::estimate(
        game,
        kernel.rosters(),
        &playing,
        &kernel.core.length,
        &list,
        settings,
    );
    PLAYING.with(|p| p.set(false));
    let used = pool - b.remaining.get().min(pool);
    *host.dice.borrow_mut() = vm_dice;
    b.remaining.set(saved.0);
    b.exhausted.set(saved.1);
    b.charges_nested.set(saved.2);
    b.deadline.set(saved.3.map(|d| d + started.elapsed()));
    spent.instructions.set(spent.instructions.get() + used);
    let out = match result {
        Ok(out) => out,
        Err(e) => return Err(no(&e.to_string())),
    };
    if out.capped {
        // The playout stopped by the budget failed no script of the game's.
        b.failures.set(saved.4);
    }
    spent.events.set(spent.events.get() + out.events);
    let t = crate::script::api::convert::to_lua(lua, &out)?;
    if let Value::Table(t) = &t {
        t.set("instructions", used)?;
    }
    Ok(t)
}

/// Play `list` out from `game` outside any hook (the REPL's `:advise`): the hooks of `policy` and the
/// Behaviours, each of their calls on its own hook budget; the VM's `math.random` stream put back.
pub(crate) fn play_out(
    lua: &Lua,
    core: &Rc<Core>,
    registry: Rc<Registry>,
    game: &mut Game,
    list: &[Candidate],
    settings: Settings,
    policy: &str,
) -> Result<rollout::Rollouts, String> {
    policy_exists(&registry, policy)?;
    let host = host(lua).map_err(|e| e.to_string())?;
    let playing = Playing {
        hooks: ScriptHooks::new(lua, core, registry).with_policy(policy),
        host: host.clone(),
    };
    let vm_dice = host.dice.borrow().clone();
    PLAYING.with(|p| p.set(true));
    let out = rollout::estimate(
        game,
        core.rosters_with_rules(),
        &playing,
        &core.length,
        list,
        settings,
    );
    PLAYING.with(|p| p.set(false));
    *host.dice.borrow_mut() = vm_dice;
    out.map_err(|e| e.to_string())
}
