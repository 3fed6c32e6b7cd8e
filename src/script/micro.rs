//! `village bench --micro`: what one piece of a game costs, so a step toward faster simulation can see
//! where the time goes. Each figure is the mean of many repetitions, the fastest of several passes (the
//! machine is shared; the fastest pass is the least disturbed):
//!
//! - a route: the shortest legal route to base contact on a generated Standard table among twelve bases;
//! - an empty hook call: the kernel calling a policy entry point that does nothing (ctx, self view,
//!   budget, protected call);
//! - a view: `ctx:models()` handing out one model's view and a field read from it;
//! - a query: `ctx:models{ side = ..., near = ... }` listing and sorting the enemies by distance;
//! - a Behaviour's `target` and the default policy's `act` on a Standard wave's first turn;
//! - the first enemy's target whose Behaviour declares `targets`, chosen by the kernel and then asked of
//!   its Lua `target`;
//! - the first enemy's action, decided by the kernel's universal priority (a Behaviour that declares
//!   `universal = true`) and then asked of its Lua `act`;
//! - a whole Standard game with the default party.
//!
//! The empty and view hooks are those of a bench policy written to a temporary `--mod` folder.

use super::api;
use super::api::hooks::ScriptHooks;
use super::session::ScriptHost;
use super::vm::Limits;
use crate::geometry::{Circle, Goal, Vec2};
use crate::roster::Rosters;
use crate::rules::hooks::Hooks;
use crate::sim::SimOptions;
use crate::state::{Game, ModelId, Side};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// One measure of the suite.
#[derive(Debug, Clone, Serialize)]
pub struct MicroRow {
    /// What is timed.
    pub name: String,
    /// Microseconds for one.
    pub micros: f64,
    /// How many were timed in a pass.
    pub count: u64,
}

/// The bench policy: `activate` does nothing (the cost of a hook call itself), `act` reads one field of
/// every model (with `activate`'s cost taken away, the cost of the views), `council` lists the enemies
/// nearest the Town Hall first (a query).
const BENCH_POLICY: &str = r#"-- The micro-benchmark's policy (village bench --micro).
return {
	activate = function(ctx, self)
		return 2
	end,
	act = function(ctx, self)
		local n = 0
		for _, m in ipairs(ctx:models()) do
			n = n + m.quality
		end
		return nil
	end,
	blessing = function(ctx, group)
		ctx:models({ side = "enemies", near = ctx:town_hall() })
		return nil
	end,
}
"#;

/// The fastest of `passes` passes of `n` calls of `f`, in microseconds per call.
fn time_each(
    passes: usize,
    n: u64,
    mut f: impl FnMut() -> Result<(), String>,
) -> Result<f64, String> {
    let mut best = f64::INFINITY;
    for _ in 0..passes {
        let start = Instant::now();
        for _ in 0..n {
            f()?;
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
    Ok(best)
}

/// A temporary `--mod` folder holding the bench policy, removed when dropped.
struct BenchMod(PathBuf);

impl BenchMod {
    fn new() -> Result<BenchMod, String> {
        let dir = std::env::temp_dir().join(format!("village-micro-{}", std::process::id()));
        let policies = dir.join("scripts/policies");
        std::fs::create_dir_all(&policies).map_err(|e| e.to_string())?;
        std::fs::write(policies.join("bench.lua"), BENCH_POLICY).map_err(|e| e.to_string())?;
        Ok(BenchMod(dir))
    }
}

impl Drop for BenchMod {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Run the suite for `opts`'s party, length, variants and data layers (the built-in data first).
pub fn micro(opts: &SimOptions) -> Result<Vec<MicroRow>, String> {
    let bench = BenchMod::new()?;
    let mut with_bench = opts.layers.clone();
    with_bench.push(bench.0.clone());
    let host = ScriptHost::open(&with_bench, Limits::default(), 1).map_err(|e| e.join("\n"))?;
    let mut rows = vec![route_row(&host, opts)?];
    rows.extend(hook_rows(&host, opts)?);
    rows.extend(target_rows(&host, opts)?);
    rows.extend(universal_rows(&host, opts)?);
    rows.push(game_row(opts)?);
    Ok(rows)
}

/// A game of `opts`'s party and length on a generated table (seed 1) at the start of its first wave's
/// first hero turn, with the policy `policy`, and the hooks to call.
fn with_wave<R>(
    host: &ScriptHost,
    opts: &SimOptions,
    policy: &str,
    f: impl FnOnce(&mut Game, &Rosters, &ScriptHooks) -> Result<R, String>,
) -> Result<R, String> {
    with_wave_at(host, opts, policy, 1, f)
}

/// [`with_wave`] for the game of `seed`.
fn with_wave_at<R>(
    host: &ScriptHost,
    opts: &SimOptions,
    policy: &str,
    seed: u64,
    f: impl FnOnce(&mut Game, &Rosters, &ScriptHooks) -> Result<R, String>,
) -> Result<R, String> {
    let lua = host.vm().lua();
    let t = lua.create_table().map_err(|e| e.to_string())?;
    let set = || -> mlua::Result<()> {
        t.set("seed", seed)?;
        t.set("length", opts.length.as_str())?;
        t.set("table", "generated")?;
        t.set("heroes", opts.heroes.clone())?;
        t.set("variants", opts.variants.clone())?;
        t.set("policy", policy)?;
        // As `sim` plays: no decisions kept (a game of `village.new_game` keeps them by default, and
        // explaining costs the decision hooks several times their plain cost).
        t.set("decisions", false)?;
        Ok(())
    };
    set().map_err(|e| e.to_string())?;
    let handle = api::new_game::new_game(lua, Some(t)).map_err(|e| e.to_string())?;
    let core = handle.0.clone();
    let hooks = api::hooks::ScriptHooks::new(lua, &core, host.vm().host().registry());
    let rosters = core.rosters_with_rules();
    let mut game = core.game.borrow_mut();
    crate::wave::play::start_wave(&mut game, rosters, &hooks, &opts.length)
        .map_err(|e| e.to_string())?;
    crate::rules::activation::begin_turn(&mut game, Side::Heroes);
    f(&mut game, rosters, &hooks)
}

/// The first model of `side`.
fn first_of(game: &Game, side: Side) -> Result<ModelId, String> {
    game.side(side)
        .next()
        .map(|m| m.id)
        .ok_or_else(|| format!("no model of the {} on the table", side.as_str()))
}

fn hook_rows(host: &ScriptHost, opts: &SimOptions) -> Result<Vec<MicroRow>, String> {
    const N: u64 = 2000;
    let mut rows = Vec::new();
    with_wave(host, opts, "bench", |game, _, hooks| {
        let hero = first_of(game, Side::Heroes)?;
        let models = game.models.len() as f64;
        let empty = time_each(5, N, || {
            hooks
                .policy_activation(game, hero)
                .map(|_| ())
                .map_err(|e| e.message)
        })?;
        let read = time_each(5, N, || {
            hooks
                .policy_order(game, hero)
                .map(|_| ())
                .map_err(|e| e.message)
        })?;
        let enemies: Vec<ModelId> = game.side(Side::Enemies).map(|m| m.id).collect();
        let query = time_each(5, N, || {
            hooks
                .blessing(game, &enemies)
                .map(|_| ())
                .map_err(|e| e.message)
        })?;
        rows.push(MicroRow {
            name: "empty hook call (a policy's activate that returns 2)".into(),
            micros: empty,
            count: N,
        });
        rows.push(MicroRow {
            name: "a view: ctx:models() handing out one model and one field read".into(),
            micros: ((read - empty) / models).max(0.0),
            count: N * models as u64,
        });
        rows.push(MicroRow {
            name: format!(
                "query: ctx:models{{ side, near }} sorting {} enemies (hook call included)",
                enemies.len()
            ),
            micros: query,
            count: N,
        });
        Ok(())
    })?;
    with_wave(host, opts, &opts.policy, |game, _, hooks| {
        let hero = first_of(game, Side::Heroes)?;
        let enemy = first_of(game, Side::Enemies)?;
        let target = time_each(5, N, || {
            hooks
                .behaviour_target(game, enemy)
                .map(|_| ())
                .map_err(|e| e.message)
        })?;
        rows.push(MicroRow {
            name: "a Behaviour's target (the first enemy's, first turn)".into(),
            micros: target,
            count: N,
        });
        // A policy that plans is timed on its plan (the orders of the whole activation, one call: as
        // with the two actions of a usual roll), one that does not on its act (one action's order).
        let before = game.model(hero).map_err(|e| e.to_string())?.actions_left;
        game.model_mut(hero)
            .map_err(|e| e.to_string())?
            .actions_left = 2;
        let plan = hooks.policy_plan(game, hero).map_err(|e| e.message)?;
        if plan.is_none() {
            game.model_mut(hero)
                .map_err(|e| e.to_string())?
                .actions_left = before;
        }
        let what = match &plan {
            Some(orders) => format!(
                "the {} policy's plan: {} orders for 2 actions (the first hero, first turn)",
                opts.policy,
                orders.len()
            ),
            None => format!(
                "the {} policy's act (the first hero, first turn)",
                opts.policy
            ),
        };
        let micros = time_each(5, N / 4, || {
            if plan.is_some() {
                hooks.policy_plan(game, hero).map(|_| ())
            } else {
                hooks.policy_order(game, hero).map(|_| ())
            }
            .map_err(|e| e.message)
        })?;
        rows.push(MicroRow {
            name: what,
            micros,
            count: N / 4,
        });
        Ok(())
    })?;
    Ok(rows)
}

/// Rows `f` makes of the first enemy for which `wanted` holds, in the first wave of the first seed of
/// 1 to 32 that has one (no rows when none has: a mod's Behaviours may declare nothing).
fn first_enemy_rows(
    host: &ScriptHost,
    opts: &SimOptions,
    wanted: impl Fn(&Game, &ScriptHooks, ModelId) -> bool,
    f: impl Fn(&mut Game, &ScriptHooks, ModelId, u64) -> Result<Vec<MicroRow>, String>,
) -> Result<Vec<MicroRow>, String> {
    for seed in 1..=32 {
        let rows = with_wave_at(host, opts, &opts.policy, seed, |game, _, hooks| {
            let Some(enemy) = game
                .side(Side::Enemies)
                .map(|m| m.id)
                .find(|&m| wanted(game, hooks, m))
            else {
                return Ok(None);
            };
            f(game, hooks, enemy, seed).map(Some)
        })?;
        if let Some(rows) = rows {
            return Ok(rows);
        }
    }
    Ok(Vec::new())
}

/// The name of `enemy`'s Behaviour.
fn behaviour_of(game: &Game, enemy: ModelId) -> Result<String, String> {
    Ok(game
        .model(enemy)
        .map_err(|e| e.to_string())?
        .behaviour
        .clone()
        .unwrap_or_default())
}

/// The first enemy whose Behaviour declares its `targets`: its target chosen by the kernel, then asked
/// of its Lua `target` (the same target), to show what the declaration saves.
fn target_rows(host: &ScriptHost, opts: &SimOptions) -> Result<Vec<MicroRow>, String> {
    const N: u64 = 2000;
    let wanted = |game: &Game, hooks: &ScriptHooks, m| hooks.declares_targets(game, m);
    first_enemy_rows(host, opts, wanted, |game, hooks, enemy, seed| {
        let behaviour = behaviour_of(game, enemy)?;
        let mut target = || {
            hooks
                .behaviour_target(game, enemy)
                .map(|_| ())
                .map_err(|e| e.message)
        };
        let names = [
            format!("a {behaviour}'s target (targets declared: chosen by the kernel; seed {seed})"),
            format!("the same {behaviour} target asked of its Lua target"),
        ];
        kernel_then_lua(hooks, N, names, &mut target)
    })
}

/// `f` timed `n` times as the kernel does it, then again with the Behaviours' Lua asked instead: two
/// rows, named by `names`.
fn kernel_then_lua(
    hooks: &ScriptHooks,
    n: u64,
    names: [String; 2],
    f: &mut dyn FnMut() -> Result<(), String>,
) -> Result<Vec<MicroRow>, String> {
    let native = time_each(5, n, &mut *f)?;
    hooks.ask_lua_for_declared();
    let in_lua = time_each(5, n, f)?;
    let [kernel, lua] = names;
    Ok(vec![
        MicroRow {
            name: kernel,
            micros: native,
            count: n,
        },
        MicroRow {
            name: lua,
            micros: in_lua,
            count: n,
        },
    ])
}

/// The first enemy whose Behaviour declares `universal = true`: its action toward its target, decided
/// by the kernel, then asked of its Lua `act` (the same order), to show what the declaration saves.
fn universal_rows(host: &ScriptHost, opts: &SimOptions) -> Result<Vec<MicroRow>, String> {
    const N: u64 = 2000;
    let wanted = |game: &Game, hooks: &ScriptHooks, m| hooks.declares_universal(game, m);
    first_enemy_rows(host, opts, wanted, |game, hooks, enemy, seed| {
        let aim = hooks
            .behaviour_target(game, enemy)
            .map_err(|e| e.message)?
            .ok_or("the enemy has no target")?;
        let behaviour = behaviour_of(game, enemy)?;
        let mut action = || {
            hooks
                .behaviour_act(game, enemy, &aim)
                .map(|_| ())
                .map_err(|e| e.message)
        };
        let names = [
            format!(
                "a {behaviour}'s action (universal = true: decided by the kernel; seed {seed})"
            ),
            format!("the same {behaviour} action asked of its Lua act"),
        ];
        kernel_then_lua(hooks, N, names, &mut action)
    })
}

/// Routes to base contact on a generated table: twelve bases and a hundred queries from legal spots,
/// placed by a fixed sequence.
fn route_row(host: &ScriptHost, opts: &SimOptions) -> Result<MicroRow, String> {
    with_wave(host, opts, "bench", |game, _, _| {
        let nav = game.navigator(0.5);
        let (w, h) = (game.table.width, game.table.height);
        // A fixed sequence of points (an LCG), kept only where a base may stand.
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut bases: Vec<Circle> = Vec::new();
        let mut spots: Vec<Vec2> = Vec::new();
        while spots.len() < 112 {
            let p = Vec2::new(1.0 + next() * (w - 2.0), 1.0 + next() * (h - 2.0));
            if nav.is_legal(p, &bases) {
                if bases.len() < 12 {
                    bases.push(Circle { c: p, r: 0.5 });
                } else {
                    spots.push(p);
                }
            }
        }
        let queries: Vec<(Vec2, Goal)> = spots[..100]
            .iter()
            .enumerate()
            .map(|(i, from)| (*from, Goal::Base(bases[i % bases.len()])))
            .collect();
        let per = time_each(5, 1, || {
            for (from, goal) in &queries {
                std::hint::black_box(nav.route_to_contact(*from, goal, &bases));
            }
            Ok(())
        })?;
        Ok(MicroRow {
            name: "a route to base contact (generated table, 12 bases)".into(),
            micros: per / queries.len() as f64,
            count: queries.len() as u64,
        })
    })
}

/// Whole games of `opts` (its first four seeds), as `village sim` plays them.
fn game_row(opts: &SimOptions) -> Result<MicroRow, String> {
    const GAMES: u64 = 4;
    let host =
        ScriptHost::open(&opts.layers, Limits::default(), opts.seed).map_err(|e| e.join("\n"))?;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let start = Instant::now();
        for i in 0..GAMES {
            opts.play(&host, crate::sim::game_seed(opts.seed, i))?;
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e6 / GAMES as f64);
    }
    Ok(MicroRow {
        name: format!(
            "a whole {} game (the party and policy asked for)",
            opts.length
        ),
        micros: best,
        count: GAMES,
    })
}
