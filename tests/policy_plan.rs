//! A hero policy written as a plan (`plan(ctx, self)`: the orders of the rest of an activation, one call
//! instead of one for each action: the built-in `rush`) plays whole games, and says why in the log; a `plan` that
//! gives nil leaves the activation to the old per-action `act`, which plays exactly the games the
//! built-in policy plays; a plan that is not a list of orders stops the game with the file and the
//! entry point named.

mod support;
use support::*;

use std::path::{Path, PathBuf};

/// A plan given as one order instead of a list of orders.
const NOT_A_LIST: &str = r#"
return {
	plan = function(ctx, self)
		return { move = ctx:models({ side = "enemies", near = self })[1] }
	end,
}
"#;

/// A mod with `policies/NAME.lua` holding `text`.
fn policy_mod(name: &str, text: &str) -> PathBuf {
    let dir = temp("policy-plan", name);
    let to = dir.join("scripts/policies");
    std::fs::create_dir_all(&to).expect("the mod's folder");
    std::fs::write(to.join(format!("{name}.lua")), text).expect("the policy");
    dir
}

/// The log of `play --auto` with `policy` (from `with_mod` when given), one JSON value a line, without
/// the fields that name where a decision was made (`script`, `line`).
fn log_of(seed: u64, policy: &str, with_mod: Option<&Path>, dir: &Path) -> Vec<serde_json::Value> {
    let log = dir.join(format!("{policy}-{seed}.jsonl"));
    let seed = seed.to_string();
    let mut args = vec![
        "play",
        "--auto",
        "--seed",
        &seed,
        "--policy",
        policy,
        "--log",
        log.to_str().expect("a UTF-8 path"),
    ];
    if let Some(m) = with_mod {
        args.extend(["--mod", m.to_str().expect("a UTF-8 path")]);
    }
    ok(&args);
    log_without_places(&log)
}

#[test]
fn a_policy_that_plans_plays_whole_games_with_one_call_for_many_actions() {
    // The built-in planning policy (scripts/policies/rush.lua).
    let dir = temp("policy-plan", "rush-logs");
    let log = log_of(3, "rush", None, &dir);
    let plans: Vec<&serde_json::Value> = log
        .iter()
        .filter(|e| e["event"] == "decision" && e["by"] == "policy rush")
        .collect();
    assert!(!plans.is_empty(), "the policy decided");
    assert!(
        plans.iter().all(|d| d["decides"] == "plan"),
        "a policy with a plan is never asked its act"
    );
    // The plans that closed in: each led to one move for each order it gave, without another call.
    let mut multi = 0;
    for d in &plans {
        let chose = d["chose"].as_str().unwrap_or("");
        let orders = chose.split(", then ").count();
        if orders < 2 || !chose.starts_with("move toward") {
            continue;
        }
        let (at, until) = (d["at"].as_u64(), d["until"].as_u64());
        let moves = log
            .iter()
            .filter(|e| {
                e["event"] == "moved"
                    && e["model"] == d["model"]
                    && e["seq"].as_u64() >= at
                    && until.is_none_or(|u| e["seq"].as_u64() < Some(u))
            })
            .count();
        assert!(moves >= 1 && moves <= orders, "{d}: {moves} moves");
        if moves >= 2 {
            multi += 1;
        }
    }
    assert!(
        multi >= 10,
        "plans carried out over several actions: {multi}"
    );
    assert!(
        plans
            .iter()
            .any(|d| d["reason"] == "in contact: it strikes"),
        "a new plan once Engaged"
    );
}

#[test]
fn a_plan_of_nil_leaves_each_action_to_act_and_plays_the_built_in_games() {
    // The built-in policy's file with a `plan` that gives nil: the same games, event for event, and
    // every decision the per-action `act`'s.
    let builtin = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/policies/default.lua"),
    )
    .expect("the built-in policy");
    let at = builtin.find("\tact = function").expect("its act");
    let text = format!(
        "{}\tplan = function()\n\t\treturn nil\n\tend,\n{}",
        &builtin[..at],
        &builtin[at..]
    );
    let m = policy_mod("default", &text);
    let dir = temp("policy-plan", "nil-logs");
    let mod_dir = temp("policy-plan", "nil-logs-mod");
    for seed in [2, 7] {
        let builtin = log_of(seed, "default", None, &dir);
        let planned = log_of(seed, "default", Some(&m), &mod_dir);
        // A building ability's detail names the policy file that chose it: the mod's copy here.
        let mine = format!("{}/", m.to_str().expect("a UTF-8 path"));
        let planned: Vec<serde_json::Value> = planned
            .into_iter()
            .map(|e| serde_json::from_str(&e.to_string().replace(&mine, "")).expect("still JSON"))
            .collect();
        assert_eq!(builtin.len(), planned.len(), "seed {seed}: log lengths");
        for (i, (a, b)) in builtin.iter().zip(&planned).enumerate() {
            assert_eq!(a, b, "seed {seed}: line {} differs", i + 1);
        }
        assert!(
            planned
                .iter()
                .any(|e| e["event"] == "decision" && e["decides"] == "order"),
            "seed {seed}: act decided the actions"
        );
    }
}

#[test]
fn a_plan_that_is_not_a_list_of_orders_stops_the_game_with_its_file() {
    let m = policy_mod("single", NOT_A_LIST);
    let out = run(&[
        "play",
        "--auto",
        "--seed",
        "3",
        "--policy",
        "single",
        "--mod",
        m.to_str().expect("a UTF-8 path"),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("scripts/policies/single.lua: plan returned a table")
            && err.contains("expected a list of orders"),
        "{err}"
    );
}

#[test]
fn bench_micro_times_a_planning_policy_s_plan_call() {
    let out = ok(&["bench", "--micro", "--json", "--policy", "rush"]);
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON rows");
    let plan = rows
        .as_array()
        .expect("a list of rows")
        .iter()
        .find(|r| {
            r["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("the rush policy's plan"))
        })
        .expect("a plan row");
    assert!(
        plan["name"]
            .as_str()
            .is_some_and(|n| n.contains("2 orders for 2 actions")),
        "{plan}"
    );
    assert!(plan["micros"].as_f64().is_some_and(|m| m > 0.0), "{plan}");
}
